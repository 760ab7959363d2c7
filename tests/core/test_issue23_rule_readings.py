"""Three rule readings of issue 23, as positions with forced dice on both sides of each
threshold:

* captured equipment counts 1 lower for every use of the weapon, the PC check that clears
  its jam included (seed 002 p. 27; RULES.md §7);
* what a weapon can penetrate is its penetration row read by RULES.md §11's one reading: no
  second "rifle-calibre" rule (seed 000 p. 30-31; seed 002 p. 26);
* "a German will not shoot a closed tank with a weapon that cannot penetrate it" (seed 000
  p. 31) is a rule of the order generator, so the German seat played by an agent gets the
  mask the cards choose from.
"""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.vehicles import vehicle_fire as VF
from ambush_env.core.world.tables import load_tables

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
FAR_US = {"name": "US8", "hex": "A1", "ar": "1-turn"}  # the next decision after a turn ends


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


def _events(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


# ------------------------------------------------- seed 002 p. 27: captured equipment, any use
def _jammed(captured: bool, weapon: str, pc: int = 6, near: dict | None = None) -> Game:
    """US1 (PC ``pc``) holds a jammed ``weapon`` (a captured one when ``captured``), his turn
    in Rounds."""
    us1 = {
        "name": "US1",
        "hex": "E10",
        "ar": "1-turn",
        "weapon": weapon,
        "jammed": True,
        "captured_weapon": captured,
        "PC": pc,
    }
    return Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US1"},
            "units": [us1, FAR_GERMAN, FAR_US] + ([near] if near else []),
        }
    )


@pytest.mark.parametrize(
    "captured, weapon, roll, cleared",
    [
        (True, "mp40", 5, True),  # 5 <= PC 6 - 1
        (True, "mp40", 6, False),  # 6 > 5: the captured weapon's user counts 1 lower
        (False, "thompson", 6, True),  # his own weapon: the full PC 6
        (False, "thompson", 7, False),
    ],
)
def test_clearing_a_jam_of_a_captured_weapon_counts_1_lower(captured, weapon, roll, cleared):
    """Seed 002 p. 27: with a captured personal or crew weapon "the user's counts as 1
    lower" — every rating the weapon's use reads, so the PC check that clears its jam
    (RULES.md §7: "captured equipment users count 1 lower") as well as its fire."""
    g = _jammed(captured, weapon)
    g.force_rolls([roll])
    evs = g.play("US1 clear jam")
    (cj,) = _events(evs, "clear_jam")
    assert cj == {
        "type": "clear_jam",
        "unit": "US1",
        "roll": roll,
        "pc": 5 if captured else 6,
        "cleared": cleared,
    }
    assert _unit(g, "US1").jammed is not cleared
    assert g.dice.forced_left == 0


def test_the_captured_weapon_still_counts_1_lower_when_fired():
    """Seed 002 p. 27: the same −1 on the to-hit (``weapons.yaml: modifiers.captured_weapon``,
    one number for both uses)."""
    from ambush_env.core.rules.fire import to_hit

    near = {"name": "G1", "role": "rifleman", "hex": "E8", "ar": "complete"}
    g, own = _jammed(True, "mp40", near=near), _jammed(False, "mp40", near=near)
    n, mods = to_hit(g, _unit(g, "US1"), _unit(g, "G1"), snap=False)
    n_own, mods_own = to_hit(own, _unit(own, "US1"), _unit(own, "G1"), snap=False)
    assert dict(mods)["captured_weapon"] == load_tables().mods.captured_weapon == -1
    assert "captured_weapon" not in dict(mods_own) and n == n_own - 1


# ------------------------------------- RULES.md §11: a weapon's reach is its penetration row
def _at_vehicle(weapon: str, vehicle: dict, **us1: Any) -> Game:
    """US1 with ``weapon`` at E10, his turn in Rounds, ``vehicle`` (V1) at E7 facing S: the
    line from E10 crosses the hexside it faces, so the attack hits its front."""
    units = [
        {"name": "US1", "hex": "E10", "ar": "1-turn", "weapon": weapon, **us1},
        FAR_GERMAN,
        FAR_US,
    ]
    if vehicle.get("driver"):
        units.append({"name": vehicle["driver"], "role": "rifleman", "hex": "E7", "vehicle": "V1"})
    return Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US1"},
            "units": units,
            "vehicles": [{"name": "V1", "hex": "E7", "facing": "S", "side": "german", **vehicle}],
        }
    )


def _shot(g: Game, rolls: list[int]) -> dict:
    """US1 fires aimed at V1's front with exactly these dice (hit, Hit Chart, penetration,
    then whatever the result needs); the fire_vehicle event."""
    g.force_rolls(rolls)
    evs = VF.fire_at_vehicle(g, _unit(g, "US1"), g.state.vehicles[0], snap=False, aspect="front")
    assert g.dice.forced_left == 0
    return evs[0].to_dict()


PANZER = {"type": "panzer_iv", "closed": True}  # front: tread light (Hit Chart 1), body medium (3)


@pytest.mark.parametrize("chart, part", [(1, "tread"), (3, "body")])
@pytest.mark.parametrize("pen", range(10))
def test_a_rifle_never_passes_a_tanks_armour(chart, part, pen):
    """Seed 000 p. 30 ("fire only matters if the penetration result equals or exceeds the
    armour of the part hit") + RULES.md §11: the semi-automatic rifle's row reaches Light at
    most (a 5-9), and a non-explosive Light passes no armour: its best roll, a 9, does
    nothing to the Panzer IV's light tread or medium body, nor does any other."""
    g = _at_vehicle("m1_garand", PANZER)
    ev = _shot(g, [0, chart, pen])
    assert ev["part"] == part and ev["result"] == "none"
    assert ev["level"] == ("light" if pen >= 5 else "none")
    v = g.state.vehicles[0]
    assert not (v.disabled or v.immobilised or v.lost)


@pytest.mark.parametrize(
    "chart, pen, level, effect",
    [
        (1, 0, "none", None),  # tread (light armour): a 0 reads none
        (1, 1, "light", "immobilised"),  # Light equals light armour: the tread is destroyed
        (3, 2, "light", None),  # body (medium armour): Light is below medium
        (3, 3, "medium", "disabled"),  # Medium equals medium: the body is destroyed
    ],
)
def test_a_bazooka_passes_a_tanks_armour_from_its_level(chart, pen, level, effect):
    """Seed 000 p. 30-31 + RULES.md §11 (explosive: a part is destroyed when the level equals
    or exceeds its armour): the bazooka's row (none, light 1-2, medium 3-5, heavy 6-9) on
    both sides of each threshold."""
    g = _at_vehicle("bazooka", PANZER, prepared=True)
    ev = _shot(g, [0, chart, pen])
    assert ev["level"] == level and ev["result"] == ("none" if effect is None else "destroyed")
    v = g.state.vehicles[0]
    assert v.immobilised is (effect == "immobilised") and v.disabled is (effect == "disabled")


@pytest.mark.parametrize("pen, level", [(5, "medium"), (6, "heavy")])
def test_a_bazooka_needs_heavy_for_a_heavy_part(pen, level):
    """Seed 000 p. 30: the Jagdpanther's heavy front body: the bazooka's Medium (a 5) does
    nothing, its Heavy (a 6) destroys it (the tank is disabled)."""
    g = _at_vehicle("bazooka", {"type": "jagdpanther", "closed": True}, prepared=True)
    ev = _shot(g, [0, 3, pen])
    assert ev["part"] == "body" and ev["level"] == level
    assert g.state.vehicles[0].disabled is (level == "heavy")


@pytest.mark.parametrize(
    "chart, pen, shot",
    [
        (5, 4, False),  # tyres: none
        (5, 5, True),  # Light passes an unarmoured surface: the tyre is shot
        (5, 9, True),  # the row's best, Light (Medium before): passes as before
    ],
)
def test_a_rifle_at_a_cars_tyres_is_unchanged(chart, pen, shot):
    """RULES.md §11: Light passes an unarmoured surface, as Medium did; a car's tyres are shot
    from the rifle's first Light (a 5), not on a 4 (seed 000 p. 31: a tyre hit makes an
    Accident Check, here a 0: nothing happens)."""
    g = _at_vehicle("m1_garand", {"type": "kubelwagen", "driver": "G1"})
    ev = _shot(g, [0, chart, pen, 0])
    assert ev["part"] == "tyres" and ev["result"] == ("pass" if shot else "none")
    assert g.state.vehicles[0].tyre_shot is shot


@pytest.mark.parametrize("pen, disabled", [(4, False), (5, True), (9, True)])
def test_a_rifle_at_a_cars_body_is_unchanged(pen, disabled):
    """RULES.md §11 + seed 000 p. 31: a penetrated body disables a car; the rifle passes the
    unarmoured body from a 5, its 8 and 9 (Medium before, Light now) alike; a body hit that
    does not disable the car makes an Accident Check (here a 0: nothing happens)."""
    g = _at_vehicle("m1_garand", {"type": "kubelwagen", "driver": "G1"})
    ev = _shot(g, [0, 7, pen] + ([] if disabled else [0]))
    assert ev["part"] == "body" and ev["result"] == ("pass" if disabled else "none")
    assert g.state.vehicles[0].disabled is disabled


def test_a_rifle_still_hits_an_open_tanks_crew():
    """Seed 000 p. 31: an open tank exposes its crew, and a hit on the crew removes one man
    with no damage or penetration roll, whatever the weapon's row: unchanged."""
    g = _at_vehicle("m1_garand", {"type": "panzer_iv"})
    ev = _shot(g, [0, 0])
    assert ev["part"] == "crew" and g.state.vehicles[0].crew == 4


# ------------------------- seed 000 p. 31: no German shot at a closed tank he cannot penetrate
SHERMAN = {"name": "V1", "type": "sherman", "side": "us", "hex": "E7", "facing": "N"}
PANZER_V2 = {"name": "V2", "type": "panzer_iv", "side": "german", "hex": "E7", "facing": "S"}


def _german_seat(shooter: dict, vehicles: list[dict], turn: str = "G1") -> Game:
    """The German seat played by an agent (``german="agent"``), ``turn``'s turn in Rounds."""
    units = [shooter, {"name": "US8", "hex": "A1", "ar": "1-turn"}]
    return Game.from_position(
        {
            "mission": MISSION,
            "german": "agent",
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "german",
            "turn": {"unit": turn},
            "units": units,
            "vehicles": vehicles,
        }
    )


def _shots_at(g: Game, kind: K, vid: int) -> list[int]:
    """The legal orders of ``kind`` aimed at vehicle ``vid`` (any aspect)."""
    base = O.ORDER_BASE[kind] + vid * len(O.ASPECTS)
    return [a for a in g.legal_actions() if base <= a < base + len(O.ASPECTS)]


REAR = O.ASPECTS.index("rear")  # E10 lies behind a vehicle at E7 facing N


@pytest.mark.parametrize(
    "weapon, closed, offered",
    [
        ("kar98", True, False),  # a rifle's row reaches Light: nothing of a Sherman
        ("kar98", False, True),  # open: his crew is exposed, the shot may hurt them
        ("panzerfaust", True, True),  # an explosive row reaching Heavy penetrates the closed tank
        ("panzerfaust", False, True),
    ],
)
def test_the_german_seats_mask_holds_no_futile_shot_at_a_closed_tank(weapon, closed, offered):
    """Seed 000 p. 31: "A German will not shoot a closed tank with a weapon that cannot
    penetrate it, whatever his paragraph says" — a rule of the order generator
    (``vehicle_fire.holds_fire``), so the German seat played by an agent is offered, and
    may play, only what the cards may choose."""
    g1 = {
        "name": "G1",
        "role": "rifleman",
        "hex": "E10",
        "ar": "1-turn",
        "weapon": weapon,
        "prepared": True,
    }
    g = _german_seat(g1, [{**SHERMAN, "closed": closed}])
    aimed = O.encode(K.FIRE_AIMED_VEHICLE, 0 * len(O.ASPECTS) + REAR)
    assert _shots_at(g, K.FIRE_AIMED_VEHICLE, 0) == ([aimed] if offered else [])
    if not offered:
        assert not _shots_at(g, K.FIRE_SNAP_VEHICLE, 0)
        with pytest.raises(IllegalActionError):
            g.step(aimed)


@pytest.mark.parametrize("closed", [True, False])
def test_a_german_tank_seat_fires_its_cannon_not_its_mgs_at_a_closed_tank(closed):
    """Seed 000 p. 31 for a German tank played by an agent: at a closed Sherman the cannon
    (tank_gun row, to Heavy) is offered, the coaxial and bow MGs (tank_mg row, Light at most)
    are not; at an open one all three are."""
    tank = {"name": "V2", "side": "german", "role": "tank", "vehicle": "V2", "ar": "1-turn"}
    g = _german_seat(
        tank,
        [
            {**SHERMAN, "closed": closed},
            {**PANZER_V2, "hex": "E10", "facing": "N", "cannon_loaded": True},
        ],
        turn="V2",
    )
    assert _shots_at(g, K.CANNON_VEHICLE, 0) == [O.encode(K.CANNON_VEHICLE, REAR)]
    for kind in (K.COAX_MG_AIMED_VEHICLE, K.COAX_MG_SNAP_VEHICLE, K.BOW_MG_AIMED_VEHICLE):
        assert bool(_shots_at(g, kind, 0)) is not closed, kind


def test_the_rule_binds_the_germans_only():
    """Seed 000 p. 31 names the Germans: the US mask still offers a rifle shot at a closed
    German tank (US1 at E10, the Panzer IV at E7 facing S shows him its front)."""
    us1 = {"name": "US1", "hex": "E10", "ar": "1-turn", "weapon": "m1_garand"}
    g = Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US1"},
            "units": [us1, FAR_GERMAN, FAR_US],
            "vehicles": [{**PANZER_V2, "name": "V1", "closed": True}],
        }
    )
    front = O.ASPECTS.index("front")
    assert _shots_at(g, K.FIRE_AIMED_VEHICLE, 0) == [O.encode(K.FIRE_AIMED_VEHICLE, front)]


def test_the_cards_read_the_same_legality():
    """Seed 000 p. 31 with ``german="cards"``: the orders the card interpreter chooses from
    (``legal_orders`` for G1, not the acting unit here) hold no shot at the closed Sherman and
    the one shot at the open one (the card's choice among them: tests/core/
    test_german_vehicles.py::test_no_german_fires_at_a_closed_tank_he_cannot_penetrate)."""
    g1 = {"name": "G1", "role": "rifleman", "hex": "E10", "ar": "1-turn", "weapon": "kar98"}
    p = {
        "mission": MISSION,
        "german": "cards",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": "US8"},
        "units": [{"name": "US8", "hex": "A1", "ar": "1-turn"}, g1],
        "vehicles": [{**SHERMAN, "closed": True}],
    }
    g = Game.from_position(p)
    g1u = _unit(g, "G1")
    from ambush_env.core.play.legal import legal_orders

    assert not [
        a
        for a in legal_orders(g, g1u)
        if O.ORDER_KIND[a] in (K.FIRE_AIMED_VEHICLE, K.FIRE_SNAP_VEHICLE)
    ]
    p["vehicles"] = [SHERMAN]
    g = Game.from_position(p)
    assert [
        a for a in legal_orders(g, _unit(g, "G1")) if O.ORDER_KIND[a] == K.FIRE_AIMED_VEHICLE
    ] == [O.encode(K.FIRE_AIMED_VEHICLE, REAR)]


def test_the_aec_german_seat_mask():
    """The PettingZoo env's German mask is the order generator's list: no rifle shot at the
    closed Sherman, one at the open one (seed 000 p. 31)."""
    pytest.importorskip("pettingzoo")
    from ambush_env.env.aec_env import AmbushAECEnv

    env = AmbushAECEnv(mission=MISSION, german="agent")
    g1 = {"name": "G1", "role": "rifleman", "hex": "E10", "ar": "1-turn", "weapon": "kar98"}
    aimed = O.encode(K.FIRE_AIMED_VEHICLE, REAR)
    for closed in (True, False):
        p = _german_seat(g1, [{**SHERMAN, "closed": closed}]).position()
        env.reset(options={"position": p})
        assert env.agent_selection == "german"
        mask = env.observe("german")["action_mask"]
        assert mask[aimed] == (0 if closed else 1)
        assert mask.sum() > 0  # the seat can still act (end its turn, move ...)


@pytest.mark.parametrize("closed", [True, False])
def test_no_german_called_shot_at_a_closed_tank_he_cannot_penetrate(closed):
    """Seed 000 p. 31 under ``rules="d100"``: seed 003's called shot at the running gear is a
    shot too; a German rifleman played by an agent is offered none at a closed Sherman, one at
    an open Sherman (⚙ the penetration rows decide under d100 as well)."""
    g1 = {"name": "G1", "role": "rifleman", "hex": "E10", "ar": "1-turn", "weapon": "kar98"}
    p = _german_seat(g1, [{**SHERMAN, "closed": closed}]).position()
    g = Game.from_position({**p, "rules": "d100"})
    called = O.encode(K.FIRE_CALLED, 0 * len(O.CALLED) + O.CALLED.index("running_gear"))
    assert (called in g.legal_actions()) is not closed
