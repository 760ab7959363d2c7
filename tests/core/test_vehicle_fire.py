"""Fire against vehicles (seed 000 p. 30-32; RULES.md §8, §11): the facing diagram, the orders
that aim at a vehicle, every tank Hit Chart result, small arms against armour, and
``can_penetrate``. Positions on the Farm Assault map (rows 6-9 clear around E7 and H7) with
forced dice on both sides of each threshold.
"""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import DIRECTION_NAMES, Status
from ambush_env.core.rules.fire import to_hit
from ambush_env.core.vehicles import vehicle_fire as VF
from ambush_env.core.world.hexgrid import OPPOSITE, traces
from ambush_env.core.world.tables import load_tables
from ambush_env.core.world.vehicle_data import shipped_vehicle_data

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
FAR_US = {"name": "US8", "hex": "A1", "ar": "1-turn"}  # the next decision after a turn ends
#: The facing diagram of seed 000 p. 30 as this engine reads it (vehicles.yaml ⚙): the hexside
#: an attack crosses, counted clockwise from the one the vehicle faces → the aspect hit.
DIAGRAM = ("front", "side", "side", "rear", "side", "side")


def _game(
    units: list[dict],
    vehicles: list[dict],
    *,
    german: str = "cards",
    turn: str = "US1",
    initiative: str = "us",
) -> Game:
    p: dict[str, Any] = {
        "mission": MISSION,
        "german": german,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": initiative,
        "turn": {"unit": turn},
        "units": units + [FAR_GERMAN, FAR_US],
        "vehicles": vehicles,
    }
    return Game.from_position(p)


def _tank(hex_: str = "E7", facing: str = "S", type_: str = "panzer_iv", **kw: Any) -> dict:
    return {"name": "V1", "type": type_, "side": "german", "hex": hex_, "facing": facing, **kw}


def _us(hex_: str, weapon: str = "m1_garand", **kw: Any) -> dict:
    return {"name": "US1", "hex": hex_, "ar": "1-turn", "weapon": weapon, **kw}


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


def _shoot(
    g: Game,
    rolls: list[int],
    *,
    aspect: str = "front",
    shooter: str = "US1",
    weapon: str | None = None,
    snap: bool = False,
) -> list[dict]:
    """Fire at V1 directly with exactly these dice; the dict forms of the events."""
    g.force_rolls(rolls)
    evs = VF.fire_at_vehicle(
        g, _unit(g, shooter), g.state.vehicles[0], snap=snap, aspect=aspect, weapon=weapon
    )
    assert g.dice.forced_left == 0
    return [e.to_dict() for e in evs]


# ============================================================================ facing diagram
_BOARD: list = []


def _board():
    """The Farm Assault board (geometry only), loaded once."""
    if not _BOARD:
        _BOARD.append(_game([_us("E10")], []).board)
    return _BOARD[0]


@pytest.mark.parametrize("centre", ["E7", "H7"])  # an even and an odd column
@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("side", range(6))
def test_facing_diagram_adjacent_attacker(centre, facing, side):
    """Seed 000 p. 30: an adjacent attacker hits the aspect of the hexside between the two
    hexes, relative to the facing (6 facings × 6 hexsides, both column parities)."""
    b = _board()
    v = b.index(centre)
    a = b.neighbors[v][side]
    assert VF.entry_hexsides(b, a, v) == (side,)
    assert VF.aspect_of(b, a, v, facing) == DIAGRAM[(side - facing) % 6]


def test_facing_diagram_is_the_data():
    assert shipped_vehicle_data().facing_diagram == DIAGRAM


@pytest.mark.parametrize("facing,expect", [(0, "front"), (3, "rear"), (1, "side"), (5, "side")])
def test_distant_attacker_along_a_hex_row(facing, expect):
    """Seed 000 p. 30: a distant attacker, by the hexside the line of fire crosses: three hexes
    due north of the vehicle the line enters by its N hexside."""
    g = _game([_us("E4")], [])
    b = g.board
    assert VF.entry_hexsides(b, b.index("E4"), b.index("E7")) == (0,)
    assert VF.aspect_of(b, b.index("E4"), b.index("E7"), facing) == expect


def test_distant_attacker_off_the_hex_rows():
    """Seed 000 p. 30: a line between the hex rows crosses one hexside: from B4 into E7 the
    line runs through the NW hexside (a knight's move, no vertex)."""
    g = _game([_us("B4")], [])
    b = g.board
    sides = VF.entry_hexsides(b, b.index("B4"), b.index("E7"))
    assert len(sides) == 1
    assert DIRECTION_NAMES[sides[0]] == "NW"
    assert VF.aspect_of(b, b.index("B4"), b.index("E7"), 0) == "side"
    assert VF.aspect_of(b, b.index("B4"), b.index("E7"), 5) == "front"


@pytest.mark.parametrize(
    "facing,expect",
    [
        (0, "side"),  # NE = side, SE = side
        (1, "front"),  # NE = front, SE = side: the better for the target
        (2, "front"),  # NE = side, SE = front
        (4, "side"),  # NE = rear, SE = side
        (5, "side"),  # NE = side, SE = rear
    ],
)
def test_line_through_a_vertex_hits_the_better_armoured_aspect(facing, expect):
    """⚙ seed 000 p. 30: from G7, two columns east of E7 in the same row, the line runs
    through E7's east vertex, between its NE and SE hexsides: the aspect better for the
    target (front, then side, then rear)."""
    g = _game([_us("G7")], [])
    b = g.board
    a, v = b.index("G7"), b.index("E7")
    assert VF.entry_hexsides(b, a, v) == (1, 2)
    assert VF.aspect_of(b, a, v, facing) == expect


def test_entry_hexsides_agree_with_the_line_of_sight_traces():
    """The hexside(s) crossed are those the two nudged traces of RULES.md §3 enter by."""
    g = _game([_us("H7")], [])
    b = g.board
    for centre in ("E7", "H7"):
        v = b.index(centre)
        for a in b.hexes_within(v, 6):
            if a == v:
                continue
            want = sorted({OPPOSITE[t[-1]] for t in traces(b.coords(a), b.coords(v))})
            assert sorted(VF.entry_hexsides(b, a, v)) == want, (b.label(a), centre)


def test_same_hex_has_no_aspect():
    g = _game([_us("E7")], [])
    b = g.board
    assert VF.aspect_of(b, b.index("E7"), b.index("E7"), 0) is None


# ============================================================================ orders
def _aspect_orders(g: Game, kind: str = "fire aimed at") -> list[str]:
    return [o for o in g.legal_orders() if o.startswith(f"US1 {kind} V1")]


@pytest.mark.parametrize("facing,expect", [("S", "front"), ("N", "rear"), ("NE", "side")])
def test_only_the_geometric_aspect_is_legal_from_another_hex(facing, expect):
    """Seed 000 p. 30: from another hex the facing diagram decides: exactly one aspect."""
    g = _game([_us("E10")], [_tank(facing=facing)])
    assert _aspect_orders(g) == [f"US1 fire aimed at V1 ({expect})"]
    assert _aspect_orders(g, "snap fire at") == [f"US1 snap fire at V1 ({expect})"]
    wrong = next(a for a in O.ASPECTS if a != expect)
    with pytest.raises(IllegalActionError, match=f"hits the {expect} of V1"):
        g.play(f"US1 fire aimed at V1 ({wrong})")
    slot_arg = O.encode(K.FIRE_AIMED_VEHICLE, O.ASPECTS.index(wrong))
    assert slot_arg not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.step(slot_arg)


def test_the_same_hex_attacker_chooses_the_aspect():
    """Seed 000 p. 30: "an attacker in the same hex chooses": all three are legal."""
    g = _game([_us("E7")], [_tank(facing="NE")])
    assert _aspect_orders(g) == [f"US1 fire aimed at V1 ({a})" for a in O.ASPECTS]


def test_order_text_parses_back_and_names_the_aspect():
    g = _game([_us("E10")], [_tank()])
    a = O.encode(K.FIRE_AIMED_VEHICLE, 0 * 3 + 0)
    assert g.describe_action(a) == "US1 fire aimed at V1 (front)"
    assert g.parse_order("us1 fire aimed at v1 (front)") == a
    assert (
        g.describe_action(O.encode(K.FIRE_SNAP_VEHICLE, 3 * 3 + 2))
        == "US1 snap fire at vehicle 3 (empty slot, rear)"
    )


def test_aimed_fire_at_a_tank_by_order_ends_the_turn():
    """Seed 000 p. 31: a hit on the Hit Chart; an aimed fire is the turn's action."""
    g = _game([_us("E10")], [_tank()])
    us = _unit(g, "US1")
    g.force_rolls([0, 0])  # hit; chart 0 = crew: one man lost, no damage roll
    evs = g.play("US1 fire aimed at V1 (front)")
    fv = next(e for e in evs if e["type"] == "fire_vehicle")
    assert fv["aspect"] == "front" and fv["part"] == "crew" and fv["result"] == "crew_hit"
    assert g.state.vehicles[0].crew == 4
    assert g.state.turn.uid != us.uid and us.ammo == 3  # one shot of the clip of 4 used


def test_two_snap_shots_at_a_vehicle_make_one_action():
    """RULES.md §6 mirrored for vehicles: the first snap fire opens a second one."""
    g = _game([_us("E10")], [_tank()])
    us = _unit(g, "US1")
    g.force_rolls([9])  # a miss
    g.play("US1 snap fire at V1 (front)")
    assert g.state.turn.uid == us.uid and g.state.turn.mode == "snap2"
    assert "US1 snap fire at V1 (front)" in g.legal_orders()
    assert "US1 fire aimed at V1 (front)" not in g.legal_orders()
    g.force_rolls([9])
    g.play("US1 snap fire at V1 (front)")
    assert g.state.turn.uid != us.uid


def test_a_snap_fire_at_a_vehicle_after_a_short_move():
    """RULES.md §6: a snap fire after moving at most half MV, at a vehicle too."""
    g = _game([_us("E10")], [_tank()])
    g.play("US1 move N to E9")
    assert "US1 snap fire at V1 (front)" in g.legal_orders()
    assert "US1 fire aimed at V1 (front)" not in g.legal_orders()


def test_riders_fire_at_a_vehicle_from_a_car_at_minus_two():
    """Seed 000 p. 32: a passenger fires aimed or snap at −2; the driver one snap only; no
    bazooka from a car."""
    jeep = {
        "name": "V2",
        "type": "jeep",
        "side": "us",
        "hex": "E10",
        "facing": "N",
        "driver": "US2",
        "passengers": ["US1"],
    }
    units = [
        _us("E10", vehicle="V2"),
        {"name": "US2", "hex": "E10", "ar": "1-turn", "vehicle": "V2"},
    ]
    g = _game(units, [_tank(), jeep])
    assert _aspect_orders(g) == ["US1 fire aimed at V1 (front)"]
    _, mods = VF.to_hit(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)
    assert ("from_car", -2) in mods
    g = _game(units, [_tank(), jeep], turn="US2")
    orders = g.legal_orders()
    assert "US2 snap fire at V1 (front)" in orders and "US2 fire aimed at V1 (front)" not in orders
    units[0]["weapon"] = "bazooka"
    units[0]["prepared"] = True
    g = _game(units, [_tank(), jeep])
    assert _aspect_orders(g) == []
    assert "bazooka" in VF.vehicle_fire_refusal(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)


def test_a_german_fires_at_a_us_jeep_by_order():
    """Seed 000 p. 31 for both sides: a German soldier (agent) may fire at a US car."""
    jeep = {
        "name": "V1",
        "type": "jeep",
        "side": "us",
        "hex": "E10",
        "facing": "N",
        "driver": "US1",
    }
    units = [
        _us("E10", vehicle="V1"),
        {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "1-turn"},
    ]
    g = _game(units, [jeep], german="agent", turn="G1", initiative="german")
    orders = [o for o in g.legal_orders() if "V1" in o and "fire" in o]
    assert orders == ["G1 fire aimed at V1 (front)", "G1 snap fire at V1 (front)"]
    g.force_rolls([0, 7, 0, 0])  # hit, chart 7 = body, penetration 0 = none, accident check 0
    evs = g.play("G1 fire aimed at V1 (front)")
    fv = next(e for e in evs if e["type"] == "fire_vehicle")
    assert fv["part"] == "body" and fv["result"] == "none" and fv["aspect"] == "front"


@pytest.mark.parametrize(
    "case,reason",
    [
        ("own", "his own side's vehicle"),
        ("sight", "out of sight"),
        ("range", "beyond maximum range"),
        ("disabled", "disabled"),
        ("empty", "nobody aboard"),
    ],
)
def test_refusals(case, reason):
    """Seed 000 p. 31: no fire at one's own side's vehicle, out of sight or range, a knocked-
    out vehicle, or an empty car (the car and its occupants are one target ⚙)."""
    us = _us("E10", weapon="colt_45" if case == "range" else "m1_garand")
    tank = _tank()
    if case == "own":
        tank = {"name": "V1", "type": "jeep", "side": "us", "hex": "E7", "driver": "US2"}
    elif case == "sight":
        tank["hex"] = "E1"  # behind the woods of E2-E4 (a tank never stands in woods)
    elif case == "range":
        tank["hex"] = "E1"  # 9 hexes: beyond a pistol's 6
    elif case == "disabled":
        tank["disabled"] = True
    elif case == "empty":
        tank = {"name": "V1", "type": "kubelwagen", "side": "german", "hex": "E7"}
    units = [us] + (
        [{"name": "US2", "hex": "E7", "ar": "complete", "vehicle": "V1"}] if case == "own" else []
    )
    g = _game(units, [tank])
    assert _aspect_orders(g) == [] and _aspect_orders(g, "snap fire at") == []
    why = VF.vehicle_fire_refusal(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)
    assert why is not None and reason in why
    for aspect in range(3):
        with pytest.raises(IllegalActionError):
            g.step(O.encode(K.FIRE_AIMED_VEHICLE, aspect))


def test_a_prisoner_never_fires_at_a_vehicle():
    """Seed 002 p. 25: a captured soldier is inactive; he gives no orders at all."""
    g = _game([_us("E10"), {"name": "US2", "hex": "E5", "ar": "1-turn"}], [_tank()])
    us = _unit(g, "US1")
    us.status = int(Status.CAPTURED)
    assert (
        VF.vehicle_fire_refusal(g, us, g.state.vehicles[0], snap=False) == "not active on the map"
    )


def test_us_fire_at_a_german_in_a_car_goes_through_the_vehicle_slot():
    """Seed 000 p. 31: no occupant can be singled out: the contact order is not offered; the
    vehicle order is."""
    kubel = {
        "name": "V1",
        "type": "kubelwagen",
        "side": "german",
        "hex": "E7",
        "facing": "S",
        "driver": "G1",
    }
    units = [_us("E10"), {"name": "G1", "role": "rifleman", "hex": "E7", "vehicle": "V1"}]
    g = _game(units, [kubel])
    orders = g.legal_orders()
    assert not any(o.startswith("US1 fire aimed at G1") for o in orders)
    assert "US1 fire aimed at V1 (front)" in orders


# ============================================================================ to hit
@pytest.mark.parametrize("delta", [0, 1])
def test_to_hit_threshold_against_a_tank(delta):
    """RULES.md §8 + seed 000 p. 30: large +2; a d10 at or below the number hits."""
    g = _game([_us("E10")], [_tank()])
    n, mods = VF.to_hit(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)
    assert ("vehicle_large", 2) in mods
    roll = n + delta
    if roll > 9:
        pytest.skip("the garand always hits here")
    evs = _shoot(g, [roll] + ([0] if delta == 0 else []))
    assert (evs[0]["result"] == "miss") is (delta == 1)


def test_built_in_weapon_has_no_from_car_penalty_and_leaves_the_unit_alone():
    """Seed 000 p. 32: tanks fire their built-in weapons without the −2. A built-in MG's jam
    is the mount's (the event says jammed), not the firing unit's own weapon."""
    jeep = {"name": "V2", "type": "jeep", "side": "us", "hex": "E10", "driver": "US1"}
    g = _game([_us("E10", vehicle="V2")], [_tank(), jeep])
    us = _unit(g, "US1")
    _, mods = VF.to_hit(g, us, g.state.vehicles[0], snap=False, weapon="m1919_tank")
    assert not any(k == "from_car" for k, _ in mods)
    _, mods = VF.to_hit(g, us, g.state.vehicles[0], snap=False, mods_extra={"extra": 1})
    assert ("from_car", -2) in mods and ("extra", 1) in mods
    ammo = us.ammo
    evs = _shoot(g, [9], weapon="m1919_tank")  # jam check 9 = jammed
    assert evs[0]["result"] == "jammed" and not us.jammed and us.ammo == ammo


# ============================================================================ tank Hit Chart
def test_crew_hit_removes_one_man_no_damage_roll():
    """Seed 000 p. 31: an open tank: a crew hit removes one crewman, no damage roll; the
    ratings follow the active crew (vehicles.yaml crew_ratings)."""
    g = _game([_us("E10")], [_tank()])
    evs = _shoot(g, [0, 0])
    v = g.state.vehicles[0]
    assert v.crew == 4 and [e["type"] for e in evs] == ["fire_vehicle", "crew_lost"]
    assert evs[1] == {"type": "crew_lost", "vehicle": "V1", "lost": 1, "crew": 4, "why": "crew hit"}


def test_closed_tank_crew_result_is_no_effect():
    """Seed 000 p. 30-31: closed, nobody inside can be hit."""
    g = _game([_us("E10")], [_tank(closed=True)])
    evs = _shoot(g, [0, 0])
    assert evs[0]["result"] == "closed" and g.state.vehicles[0].crew == 5 and len(evs) == 1


def _bazooka_game(tank: dict | None = None, hex_: str = "E9") -> Game:
    return _game([_us(hex_, weapon="bazooka", prepared=True)], [tank or _tank()])


@pytest.mark.parametrize(
    "rolls,crew_left",
    [
        ([7, 7], 2),  # both others: 7 − 2 (prone) = 5 incapacitated: lost
        ([6, 6], 4),  # 6 − 2 = 4 wound: no effect on crew (⚙)
        ([9, 0], 3),
    ],
)
def test_bazooka_kills_the_crewman_hit_and_rolls_bazooka_inside(rolls, crew_left):
    """Seed 000 p. 31: a bazooka kills the one hit and rolls Bazooka Inside, prone, for the
    other exposed crew (three exposed: two more rolls)."""
    g = _bazooka_game()
    evs = _shoot(g, [0, 0] + rolls)
    rolled = [e for e in evs if e["type"] == "crew_damage_roll"]
    assert evs[0]["result"] == "kill" and len(rolled) == 2
    assert all(e["modifier"] == -2 and e["row"] == "bazooka_inside" for e in rolled)
    assert g.state.vehicles[0].crew == crew_left


def test_bazooka_exposes_no_more_than_the_active_crew():
    g = _bazooka_game(_tank(crew=2))
    _shoot(g, [0, 0, 9])  # one other exposed crewman; 9 − 2 = 7 kill → crew 0: disabled
    v = g.state.vehicles[0]
    assert v.crew == 0 and v.disabled


@pytest.mark.parametrize(
    "aspect,pen,disabled",
    [
        ("front", 3, True),  # bazooka medium vs medium body: destroyed
        ("front", 2, False),  # light vs medium: no effect
        ("rear", 1, True),  # light vs the light rear body
        ("rear", 0, False),
    ],
)
def test_penetrated_body_disables_a_tank(aspect, pen, disabled):
    """Seed 000 p. 31: a penetrated body disables; armour per aspect (vehicles.yaml ⚙)."""
    facing = "S" if aspect == "front" else "N"
    g = _bazooka_game(_tank(facing=facing))
    chart = 3 if aspect == "front" else 4  # body on both charts
    evs = _shoot(g, [0, chart, pen], aspect=aspect)
    assert evs[0]["part"] == "body" and evs[0]["aspect"] == aspect
    assert g.state.vehicles[0].disabled is disabled and not g.state.vehicles[0].immobilised


def test_the_aspect_selects_the_hit_chart():
    """Vehicles.yaml ⚙: the same d10 is the body from the front, a tread from the side."""
    g = _bazooka_game()
    assert _shoot(g, [0, 3, 0])[0]["part"] == "body"
    g = _bazooka_game(_tank(facing="NE"))
    assert _shoot(g, [0, 3, 0], aspect="side")[0]["part"] == "tread"


@pytest.mark.parametrize("pen,immobilised", [(1, True), (0, False)])
def test_penetrated_tread_immobilises_but_does_not_disable(pen, immobilised):
    """Seed 000 p. 31: "a tank can be immobilised without being disabled"."""
    g = _bazooka_game()
    evs = _shoot(g, [0, 1, pen])
    v = g.state.vehicles[0]
    assert v.immobilised is immobilised and not v.disabled
    assert any(e["type"] == "immobilised" for e in evs) is immobilised


@pytest.mark.parametrize(
    "type_,pen,lost",
    [
        ("panzer_iv", 3, ["cannon", "coax"]),
        ("panzer_iv", 2, []),
        ("jagdpanther", 6, ["cannon"]),  # heavy vs its heavy casemate; it has no coaxial MG
        ("jagdpanther", 5, []),
    ],
)
def test_penetrated_turret_puts_cannon_and_coax_out(type_, pen, lost):
    """Seed 000 p. 31: a penetrated turret destroys weapons (⚙ the cannon and coaxial MG)."""
    g = _bazooka_game(_tank(type_=type_, cannon_loaded=True))
    evs = _shoot(g, [0, 6, pen])
    v = g.state.vehicles[0]
    assert v.lost == lost and not v.disabled and v.cannon_loaded is (not lost)
    if lost:
        assert next(e for e in evs if e["type"] == "weapons_lost") == {
            "type": "weapons_lost",
            "vehicle": "V1",
            "part": "turret",
            "weapons": lost,
        }


@pytest.mark.parametrize(
    "type_,pen,lost",
    [
        ("panzer_iv", 1, ["bow"]),
        ("panzer_iv", 0, []),
        ("jagdpanther", 3, ["bow"]),
        ("jagdpanther", 2, []),  # a medium mount
    ],
)
def test_penetrated_mount_puts_the_bow_mg_out(type_, pen, lost):
    g = _bazooka_game(_tank(type_=type_))
    _shoot(g, [0, 9, pen])
    assert g.state.vehicles[0].lost == lost


def test_tank_gun_penetrates_by_the_weapon_override():
    """Seed 000 p. 31-32: a tank gun (weapon=...) at a tank: heavy penetration destroys even a
    heavy part."""
    g = _game([_us("E10")], [_tank(type_="jagdpanther")])
    evs = _shoot(g, [0, 3, 5], weapon="kwk40")  # body heavy; tank_gun roll 5 = heavy
    assert evs[0]["weapon"] == "kwk40" and evs[0]["level"] == "heavy"
    assert g.state.vehicles[0].disabled


# ============================================================================ small arms
RIFLE_WEAPONS = ["colt_45", "kar98", "m1_garand", "thompson", "bar", "mg42", "m1919", "mg34_tank"]


def test_small_arms_rows_reach_light_at_most():
    """RULES.md §11: what a weapon can reach is its penetration row; ⚙ (damage.yaml) the
    small-arms and machine-gun rows top at Light, the explosive ones reach Heavy."""
    t = load_tables()
    rows = {t.weapon_class[w].damage for w in RIFLE_WEAPONS}
    assert rows == {
        "pistol",
        "bolt_rifle",
        "semi_auto_rifle",
        "smg",
        "automatic_rifle",
        "lmg",
        "hmg",
        "tank_mg",
    }
    for r in rows:
        assert set(t.penetration_row[r]) == {"none", "light"}, r
    for r in ("bazooka", "panzerfaust", "tank_gun"):
        assert "heavy" in t.penetration_row[r], r


@pytest.mark.parametrize("weapon", RIFLE_WEAPONS)
@pytest.mark.parametrize("type_", ["panzer_iv", "sherman", "jagdpanther"])
def test_rifle_calibre_fire_never_affects_an_armoured_tank_part(weapon, type_):
    """Seed 000 p. 30 + RULES.md §11: every small-arms row fired at every armoured part of
    every tank from every aspect does nothing, for every d10 (its row reaches no armour)."""
    side = "us" if type_ == "sherman" else "german"
    shooter = (
        {"name": "G1", "role": "rifleman", "hex": "E10", "ar": "1-turn"}
        if side == "us"
        else _us("E10")
    )
    vt = shipped_vehicle_data().vehicles[type_]
    for aspect, facing in (("front", "S"), ("side", "NE"), ("rear", "N")):
        chart = vt.chart(aspect)
        tank = {**_tank(type_=type_, facing=facing, closed=True), "side": side}
        g = (
            _game([shooter], [tank], german="agent", turn="G1", initiative="german")
            if side == "us"
            else _game([shooter], [tank])
        )
        for hc, part in enumerate(chart):
            if part == "crew":
                continue
            for p in range(10):  # the same game: each shot must leave it as it was
                jam = [0] if load_tables().weapon_class[weapon].jams else []
                evs = _shoot(
                    g, jam + [0, hc, p], aspect=aspect, weapon=weapon, shooter=shooter["name"]
                )
                assert evs[0]["part"] == part and evs[0]["result"] == "none", (aspect, part, p)
                v = g.state.vehicles[0]
                assert not v.disabled and not v.immobilised and not v.lost and v.crew == 5
                assert len(evs) == 1


def test_rifles_still_hit_unarmoured_car_parts():
    """RULES.md §11: unarmoured surfaces are passed by light penetration (car tyres, body);
    one reading for every weapon: a non-explosive Medium would pass light armour."""
    t = load_tables()
    assert VF.part_result(t, False, "light", "unarmoured") == "pass"
    assert VF.part_result(t, False, "light", "light") == "none"
    assert VF.part_result(t, False, "medium", "light") == "pass"
    assert VF.part_result(t, True, "light", "light") == "destroyed"


# ============================================================================ can_penetrate
@pytest.mark.parametrize(
    "weapon,type_,aspect,expect",
    [
        ("kar98", "panzer_iv", "front", False),
        ("mg34_tank", "sherman", "rear", False),
        ("m1919", "jagdpanther", "side", False),
        ("bazooka", "panzer_iv", "front", True),
        ("m3_75mm", "jagdpanther", "front", True),
        ("kar98", "jeep", "front", True),  # unarmoured body and tyres
    ],
)
def test_can_penetrate(weapon, type_, aspect, expect):
    """Seed 000 p. 31: "a German will not shoot a closed tank with a weapon that cannot
    penetrate it": whether any part the weapon can affect is on that aspect's Hit Chart."""
    assert VF.can_penetrate(load_tables(), weapon, type_, aspect) is expect
    g = _game([_us("E10")], [_tank(type_=type_)])
    assert VF.can_penetrate(g, weapon, g.state.vehicles[0], aspect) is expect


# ============================================================================ p. 31 bystanders
def test_explosive_hits_on_a_vehicle_do_not_hurt_soldiers_outside_it():
    """Seed 000 p. 31: a bazooka hit on a tank's crew and a panzerfaust hit on a car's
    passenger roll only for those inside; a soldier on foot in the hex rolls nothing (the
    dice are exact)."""
    g = _game(
        [
            _us("E9", weapon="bazooka", prepared=True),
            {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete"},
        ],
        [_tank()],
    )
    _shoot(g, [0, 0, 0, 0])  # hit, crew: killed, two others roll Bazooka Inside (none)
    assert _unit(g, "G1").status == Status.ACTIVE and not _unit(g, "G1").wounded
    jeep = {
        "name": "V1",
        "type": "jeep",
        "side": "us",
        "hex": "E7",
        "facing": "S",
        "driver": "US2",
        "passengers": ["US3"],
    }
    units = [
        {"name": "G1", "role": "rifleman", "hex": "E10", "ar": "1-turn", "weapon": "panzerfaust"},
        {"name": "US2", "hex": "E7", "ar": "complete", "vehicle": "V1"},
        {"name": "US3", "hex": "E7", "ar": "complete", "vehicle": "V1"},
        {"name": "US1", "hex": "E7", "ar": "complete"},
    ]
    g = _game(units, [jeep], german="agent", turn="G1", initiative="german")
    # hit, chart 2 = passenger (US3 the only one), damage 9 = kill; the driver rolls Grenade
    # Inside (0 − 2 prone = none); US1 outside rolls nothing
    _shoot(g, [0, 2, 0, 9, 0], shooter="G1")
    assert _unit(g, "US3").status == Status.KILLED and g.state.vehicles[0].disabled
    assert _unit(g, "US1").status == Status.ACTIVE and not _unit(g, "US1").wounded


def test_a_soldier_beside_a_vehicle_counts_as_in_cover():
    """Seed 000 p. 31: outside a vehicle in its hex he is in cover (−1 ⚙) unless his terrain
    is better."""
    g = _game(
        [_us("E10"), {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete"}], [_tank()]
    )
    _, mods = to_hit(g, _unit(g, "US1"), _unit(g, "G1"), snap=False)
    assert ("cover_vehicle", -1) in mods
    g = _game([_us("E10"), {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete"}], [])
    _, mods = to_hit(g, _unit(g, "US1"), _unit(g, "G1"), snap=False)
    assert not any(k == "cover_vehicle" for k, _ in mods)
