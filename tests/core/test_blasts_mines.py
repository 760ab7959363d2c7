"""Grenades and satchel charges against vehicles, minefields and boobytraps as live map
features, heavy weapons from cars and the forced crater entry (issue 11), as positions with
forced dice: seed 000 p. 31-33, seed 002 p. 25 (prisoners never marched into mines).

Map (Farm Assault): row 1 A1-R1 clear; B1's neighbours are C1 (NE), C2 (SE), B2 (S), A2 (SW),
A1 (NW). US1 (PC 6) carries two grenades.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError, IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import TERRAIN_NAMES, Status
from ambush_env.core.play.position import write_position
from ambush_env.core.rules.ctx import Ctx
from ambush_env.core.rules.mines import known_minefields, minefield_kind
from ambush_env.core.vehicles import vehicles as V
from ambush_env.core.world.board import load_board
from ambush_env.core.world.data import data_path, read_yaml

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
# a US soldier still to act: the Round goes on after the tested turn (no initiative rolls)
WAITING = {"name": "US8", "hex": "R14", "ar": "1-turn"}


def _rounds(
    units: list[dict],
    vehicles: list[dict] | None = None,
    *,
    mission: Any = MISSION,
    ctx: Ctx | None = None,
    **extra: Any,
) -> Game:
    """Rounds, the first unit's turn (a 1-turn marker); a far German keeps Rounds going."""
    p: dict[str, Any] = {
        "mission": mission,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": units[0]["name"]},
        "units": [{"ar": "1-turn", **units[0]}, *units[1:], FAR_GERMAN, WAITING],
        **extra,
    }
    if vehicles is not None:
        p["vehicles"] = vehicles
    return Game.from_position(p, ctx=ctx)


def _tank(hex_: str = "C1", **kw: Any) -> dict:
    return {
        "name": "V1",
        "type": "panzer_iv",
        "side": "german",
        "hex": hex_,
        "facing": "S",
        "crew": 5,
        **kw,
    }


def _kubel(hex_: str = "C1", driver: str | None = "G2", **kw: Any) -> dict:
    return {
        "name": "V1",
        "type": "kubelwagen",
        "side": "german",
        "hex": hex_,
        "facing": "S",
        "driver": driver,
        **kw,
    }


def _events(g: Game, kind: str) -> list[dict]:
    return [e.to_dict() for e in g.last_events if e.type == kind]


def _into(g: Game, vid: int = 0) -> int:
    return O.encode(K.GRENADE_INTO, vid)


def _mission_with(**rules: Any) -> dict:
    """The Farm Assault mission inline, with mission rules changed."""
    d = copy.deepcopy(read_yaml(data_path("missions", f"{MISSION}.yaml")))
    d.setdefault("rules", {}).update(rules)
    return d


# ================================================================ seed 000 p. 32: into a tank
@pytest.mark.parametrize("roll,inside", [(4, True), (5, False)])
def test_grenade_into_an_open_tank_from_two_hexes_at_the_aperture_penalty(roll, inside):
    """seed 000 p. 32: into an open tank as through an aperture, the non-adjacent penalty (−2)
    applying: US1 PC 6 needs 0-4 from A1; a grenade inside kills the crew, disables it."""
    g = _rounds([{"name": "US1", "hex": "A1"}], [_tank()])
    v = g.state.vehicles[0]
    g.force_rolls([roll] if inside else [roll, 0])  # a miss scatters: Diagram B "ahead"
    g.play("US1 throw a grenade into V1")
    ev = _events(g, "throw_into")[0]
    assert ev["need"] == 4 and ev["inside"] is inside
    assert v.disabled is inside and v.crew == (0 if inside else 5)
    if not inside:
        assert ev["scatter"] == "ahead" and ev["landing"] is not None
    assert g.state.units[0].equipment.count("grenade") == 1


@pytest.mark.parametrize("roll,inside", [(6, True), (7, False)])
def test_grenade_into_a_tank_from_its_own_hex_has_no_penalty(roll, inside):
    """seed 000 p. 32: "the non-adjacent penalty applies unless thrown from the tank's hex"."""
    g = _rounds([{"name": "US1", "hex": "C1"}], [_tank()])
    g.force_rolls([roll] if inside else [roll, 0])  # a miss from the hex: 0 = bounces N
    g.play("US1 throw a grenade into V1")
    ev = _events(g, "throw_into")[0]
    assert ev["need"] == 6 and ev["inside"] is inside
    assert g.state.vehicles[0].disabled is inside
    if not inside:
        assert ev["scatter"] == "N" and ev["landing"] is None  # off the map north of C1


def test_a_closed_tank_is_immune_to_grenades_the_order_is_not_offered():
    """seed 000 p. 32: "Closed tanks are immune to grenades" ⚙ not offered; a throw at its hex
    still is (a distinct order)."""
    g = _rounds([{"name": "US1", "hex": "B1"}], [_tank(closed=True)])
    assert _into(g) not in g.legal_actions()
    assert not any("into" in t for t in g.legal_orders())
    assert "US1 throw a grenade at C1" in g.legal_orders()
    with pytest.raises(IllegalActionError):
        g.step(_into(g))


def test_into_the_vehicle_and_into_its_hex_are_distinct_orders():
    """Issue 11: "into the vehicle" (GRENADE_INTO, a vehicle slot) and "into its hex"
    (GRENADE, an offset) are two orders with two texts."""
    g = _rounds([{"name": "US1", "hex": "B1"}], [_tank()])
    texts = g.legal_orders()
    assert "US1 throw a grenade into V1 (Panzer IV, C1)" in texts
    assert "US1 throw a grenade at C1" in texts
    assert g.parse_order("US1 throw a grenade into V1") == _into(g)
    assert O.decode(g.parse_order("US1 throw a grenade at C1"))[0] == K.GRENADE


def test_a_grenade_outside_a_tank_does_nothing_to_it():
    """⚙ (seed 000 p. 32 names grenades only into a tank): a grenade in its hex, outside, is
    stopped by the armour: no roll for the tank, and its unit is no soldier."""
    g = _rounds([{"name": "US1", "hex": "B1"}], [_tank()])
    g.force_rolls([0])  # the throw lands
    g.play("US1 throw a grenade at C1")
    assert not _events(g, "blast_vehicle") and not g.state.vehicles[0].disabled
    assert g.dice.forced_left == 0


def test_german_soldiers_may_throw_a_grenade_into_a_vehicle():
    """Both sides: legal() lists GRENADE_INTO for a German soldier (an open US tank)."""
    g = _rounds(
        [{"name": "G2", "role": "rifleman", "hex": "B1", "equipment": ["grenade"]}],
        [{**_tank(), "side": "us", "type": "sherman"}],
        german="agent",
    )
    assert g.acting_unit().name == "G2"
    assert _into(g) in g.legal_actions()


# ================================================================ seed 000 p. 32: into a car
def test_grenade_inside_a_car_disables_it_and_occupants_roll_inside_as_prone():
    """seed 000 p. 32: "a grenade inside disables it and the occupants roll Grenade Inside as
    prone" (roll 8 − 2 = 6: kill)."""
    g = _rounds(
        [
            {"name": "US1", "hex": "C1"},
            {"name": "G2", "role": "rifleman", "hex": "C1", "vehicle": "V1"},
        ],
        [_kubel()],
    )
    g.force_rolls([3, 8])
    g.play("US1 throw a grenade into V1")
    d = _events(g, "damage_roll")
    assert [(e["unit"], e["row"], e["modifier"], e["result"]) for e in d] == [
        ("G2", "grenade_inside", -2, "kill")
    ]
    assert g.state.vehicles[0].disabled and g.state.units[1].status == Status.KILLED


def test_failed_throw_from_the_cars_hex_drops_outside_and_the_thrower_reacts():
    """seed 000 p. 33: from the vehicle's hex, 6-9 drops the grenade in that hex outside the
    vehicle and the thrower may react without a check: ⚙ he throws it clear, nobody hurt."""
    g = _rounds(
        [
            {"name": "US1", "hex": "C1"},
            {"name": "G2", "role": "rifleman", "hex": "C1", "vehicle": "V1"},
        ],
        [_kubel()],
    )
    g.force_rolls([7, 6])  # the throw fails (need 6), the scatter drops it in C1
    g.play("US1 throw a grenade into V1")
    ev = _events(g, "throw_into")[0]
    assert ev["scatter"] == "in the hex" and ev["landing"] == "C1"
    assert _events(g, "throw_clear") and not _events(g, "blast_vehicle")
    assert not g.state.vehicles[0].disabled and g.dice.forced_left == 0


@pytest.mark.parametrize("scatter,landing", [(6, "C1"), (5, None)])
def test_failed_throw_from_the_next_hex_lands_in_the_vehicles_hex_on_6_to_9(scatter, landing):
    """seed 000 p. 33: from an adjacent hex, 6-9 lands in the vehicle's hex (outside it: never
    back into a vehicle), where the car rolls Grenade Outside (7: disabled) and then its
    driver; 0-5 reads Diagram A (5: ahead right)."""
    g = _rounds(
        [
            {"name": "US1", "hex": "B1"},
            {"name": "G2", "role": "rifleman", "hex": "C1", "vehicle": "V1"},
        ],
        [_kubel()],
    )
    g.force_rolls([5, scatter] + ([7, 0] if landing else [0, 0, 0, 0]))
    g.play("US1 throw a grenade into V1")
    ev = _events(g, "throw_into")[0]
    assert ev["need"] == 4 and ev["inside"] is False
    if landing:
        assert ev["scatter"] == "in the hex" and ev["landing"] == "C1"
        assert _events(g, "blast_vehicle")[0]["result"] == "incapacitated"
        assert g.state.vehicles[0].disabled
        assert not any(e["row"] == "grenade_inside" for e in _events(g, "damage_roll"))
    else:
        assert ev["scatter"] == "ahead_right" and ev["landing"] != "C1"
        assert not g.state.vehicles[0].disabled


def test_no_grenade_into_a_vehicle_beyond_range_or_of_his_side():
    g = _rounds([{"name": "US1", "hex": "A1", "stance": "crouching"}], [_tank("D1")])
    assert _into(g) in g.legal_actions()  # crouching: 3 hexes (RULES.md §9)
    g = _rounds([{"name": "US1", "hex": "A1", "stance": "crouching"}], [_tank("E1")])
    assert _into(g) not in g.legal_actions()
    g = _rounds([{"name": "US1", "hex": "A1", "stance": "prone"}], [_tank("B1")])
    assert _into(g) not in g.legal_actions()  # never prone (RULES.md §9)
    g = _rounds([{"name": "US1", "hex": "A1"}], [{**_tank("B1"), "side": "us"}])
    assert _into(g) not in g.legal_actions()


# ================================================================ seed 000 p. 32-33: satchels
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("roll,disabled", [(3, False), (4, True)])
def test_a_satchel_in_a_tanks_hex_rolls_satchel_outside(roll, disabled, closed):
    """seed 000 p. 32: "A satchel charge landing in the tank's hex disables it on an
    incapacitated or kill result on the Satchel Charge Outside row" (4: incapacitated;
    3: wound); closed or open, the charge is outside."""
    g = _rounds(
        [{"name": "US1", "hex": "B1", "equipment": ["satchel"], "satchel_ready": True}],
        [_tank(closed=closed)],
    )
    g.force_rolls([0, roll])
    g.play("US1 throw a satchel charge at C1")
    assert _events(g, "blast_vehicle")[0]["item"] == "satchel"
    assert g.state.vehicles[0].disabled is disabled
    assert g.dice.forced_left == 0  # the tank's own unit rolls nothing


def test_a_satchel_next_to_a_tank_does_nothing_to_it():
    """⚙: "into or next to" is the car rule (seed 000 p. 33); a tank needs it in its hex."""
    g = _rounds(
        [{"name": "US1", "hex": "A1", "equipment": ["satchel"], "satchel_ready": True}], [_tank()]
    )
    g.force_rolls([0])
    g.play("US1 throw a satchel charge at B1")
    assert not _events(g, "blast_vehicle") and not g.state.vehicles[0].disabled


def test_a_satchel_next_to_a_car_always_disables_it():
    """seed 000 p. 33: "A satchel charge into or next to a car always disables it"."""
    g = _rounds(
        [{"name": "US1", "hex": "A1", "equipment": ["satchel"], "satchel_ready": True}],
        [_kubel(driver=None)],
    )
    g.force_rolls([0])
    g.play("US1 throw a satchel charge at B1")
    assert g.state.vehicles[0].disabled


# ================================================================ seed 000 p. 32: from a car
def _rider(mission: Any, **us1: Any) -> Game:
    """US1 rides as passenger in the US jeep V1 at A1 (US2 drives); a German car stands at C1."""
    return _rounds(
        [
            {"name": "US1", "hex": "A1", "vehicle": "V1", **us1},
            {"name": "US2", "hex": "A1", "vehicle": "V1"},
        ],
        [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "A1",
                "facing": "NE",
                "driver": "US2",
                "passengers": ["US1"],
            },
            {**_kubel(driver=None), "name": "V2"},
        ],
        mission=mission,
    )


def test_no_grenades_or_satchels_from_a_car_unless_the_briefing_says_so():
    """seed 000 p. 32: "No bazookas, grenades, satchel charges or crew weapons from a car
    unless a briefing says so": without the rule none is offered; with
    ``rules.heavy_weapons_from_cars`` the passenger may throw (into a vehicle too)."""
    g = _rider(MISSION, equipment=["grenade", "satchel"], satchel_ready=True)
    ks = {O.decode(a)[0] for a in g.legal_actions()}
    assert not ks & {K.GRENADE, K.SATCHEL, K.GRENADE_INTO}
    with pytest.raises(IllegalActionError):
        g.step(O.encode(K.GRENADE_INTO, 1))
    g = _rider(
        _mission_with(heavy_weapons_from_cars=True),
        equipment=["grenade", "satchel"],
        satchel_ready=True,
    )
    ks = {O.decode(a)[0] for a in g.legal_actions()}
    assert {K.GRENADE, K.SATCHEL, K.GRENADE_INTO} <= ks
    g.force_rolls([0])
    g.play("US1 throw a grenade into V2")
    assert g.state.vehicles[1].disabled


def test_no_bazooka_from_a_car_unless_the_briefing_says_so():
    """seed 000 p. 32: a bazooka from a car only with ``heavy_weapons_from_cars``."""
    us1 = {"weapon": "bazooka", "prepared": True, "ammo": 1}
    german = {"name": "G2", "role": "rifleman", "hex": "C1"}

    def game(mission: Any) -> Game:
        return _rounds(
            [
                {"name": "US1", "hex": "A1", "vehicle": "V1", **us1},
                {"name": "US2", "hex": "A1", "vehicle": "V1"},
                german,
            ],
            [
                {
                    "name": "V1",
                    "type": "jeep",
                    "side": "us",
                    "hex": "A1",
                    "facing": "NE",
                    "driver": "US2",
                    "passengers": ["US1"],
                }
            ],
            mission=mission,
        )

    assert not any("G2" in t and "fire" in t for t in game(MISSION).legal_orders())
    allowed = game(_mission_with(heavy_weapons_from_cars=True))
    assert any(t.startswith("US1 fire aimed at G2") for t in allowed.legal_orders())


def test_the_driver_never_throws_even_with_the_rule():
    """⚙ the driver keeps his one snap fire (seed 000 p. 32)."""
    g = _rounds(
        [{"name": "US2", "hex": "A1", "vehicle": "V1", "equipment": ["grenade"]}],
        [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "A1",
                "facing": "NE",
                "driver": "US2",
            },
            {**_kubel(driver=None), "name": "V2"},
        ],
        mission=_mission_with(heavy_weapons_from_cars=True),
    )
    ks = {O.decode(a)[0] for a in g.legal_actions()}
    assert not ks & {K.GRENADE, K.GRENADE_INTO}


# ================================================================ minefields: soldiers
@pytest.mark.parametrize("roll,result", [(6, "wound"), (7, "incapacitated")])
def test_a_soldier_entering_an_anti_personnel_minefield_rolls_grenade_outside(roll, result):
    """⚙ (seed 000 p. 32 gives vehicles only): one d10 on Grenade Outside, stance ignored;
    the hidden field is known from then on."""
    g = _rounds(
        [{"name": "US1", "hex": "A1", "stance": "prone"}],
        minefields=[{"hex": "B1", "known": False}],
    )
    assert known_minefields(g) == {}
    g.force_rolls([roll])
    g.play("US1 move SE to B1")
    ev = _events(g, "damage_roll")[0]
    assert ev["row"] == "grenade_outside" and ev["modifier"] == 0 and ev["result"] == result
    assert known_minefields(g) == {g.board.index("B1"): "anti_personnel"}


def test_anti_tank_mines_never_go_off_under_a_soldier():
    """seed 000 p. 32: anti-tank mines "go off only under a tank"."""
    g = _rounds([{"name": "US1", "hex": "A1"}], minefields=[{"hex": "B1", "kind": "anti_tank"}])
    g.force_rolls([])
    g.play("US1 move SE to B1")
    assert not _events(g, "mine_soldier")


def test_a_minefield_effect_lays_a_live_minefield():
    """The ``minefield`` paragraph effect (RULES.md §15): its hexes are mined for the rest of
    the mission; with ``rules.anti_tank_mines`` every field is anti-tank (seed 000 p. 32)."""
    for rules, kind in (({}, "anti_personnel"), ({"anti_tank_mines": True}, "anti_tank")):
        d = _mission_with(**rules)
        d["triggers"]["B1"] = 99
        d["paragraphs"][99] = [{"minefield": {"hexes": ["C1", "C2"]}}]
        g = _rounds([{"name": "US1", "hex": "A1"}], mission=d)
        g.force_rolls([])
        g.play("US1 move SE to B1")
        assert _events(g, "minefield_laid")[0]["hexes"] == ["C1", "C2"]
        assert minefield_kind(g, g.board.index("C1")) == kind
        assert set(known_minefields(g)) == {g.board.index("C1"), g.board.index("C2")}
        if kind == "anti_personnel":
            g.force_rolls([0])
            g.play("US1 move NE to C1")
            assert _events(g, "mine_soldier")


def test_minefields_travel_in_positions():
    g = _rounds(
        [{"name": "US1", "hex": "A1"}],
        minefields=[{"hex": "B1", "known": False}, {"hex": "C1", "kind": "anti_tank"}],
        dead_triggers=["G8"],
    )
    w = write_position(g.ctx, g.state, g.dice, "cards", MISSION)
    assert w["minefields"] == [
        {"hex": "B1", "kind": "anti_personnel", "known": False},
        {"hex": "C1", "kind": "anti_tank", "known": True},
    ]
    assert w["dead_triggers"] == ["G8"]
    g2 = Game.from_position(w)
    assert g2.state.minefields == g.state.minefields
    assert g2.state.at_minefields == g.state.at_minefields
    with pytest.raises(DataError) as e:
        _rounds([{"name": "US1", "hex": "A1"}], minefields=[{"hex": "ZZ99"}])
    assert e.value.field == "minefields.0.hex"


# ================================================================ minefields: vehicles
def _jeep_ops(mines: list[dict], phase: str = "operations", rules: str = "standard") -> Game:
    """US4 drives the jeep from A1 with US2 aboard (Operations, or his Rounds turn)."""
    units = [
        {"name": "US4", "hex": "A1", "vehicle": "V1"},
        {"name": "US2", "hex": "A1", "vehicle": "V1"},
    ]
    jeep = [
        {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "A1",
            "facing": "NE",
            "driver": "US4",
            "passengers": ["US2"],
        }
    ]
    if phase == "rounds":
        return _rounds(units, jeep, minefields=mines, rules=rules)
    g = Game.from_position(
        {"mission": MISSION, "rules": rules, "minefields": mines, "units": units, "vehicles": jeep}
    )
    if g.acting_unit() is None:
        g.play("select US4")
    return g


#: Under d100 the mine is also a charge under the car (RULES.md §13): the jeep's belly is its
#: Armor value 2 halved, 1. Anti-personnel 3d6 of 1, 1, 2 = 4: 3 penetrate; the location roll
#: 1 is the Headlamps (HP 2: destroyed), 85 the Front Seat Passenger (US2 takes 3: a wound).
_D100_AP = {"headlamps": [1, 1, 2, 1], "front_seat": [1, 1, 2, 85]}


@pytest.mark.parametrize(
    "rules,where", [("standard", None), ("d100", "headlamps"), ("d100", "front_seat")]
)
def test_a_car_detonates_a_minefield_automatically_disabled_occupants_panic(rules, where):
    """seed 000 p. 32: "Cars detonate a minefield automatically, with no check: the car is
    disabled and every occupant panics" — under both rule sets: the mine is not a hit, and
    d100's charge under the car (seed 003 steps 3-7) adds its damage, never removes this."""
    g = _jeep_ops([{"hex": "B1", "known": False}], "rounds", rules)
    g.force_rolls(_D100_AP[where] if where else [])
    g.play("US4 drive SE to B1")
    assert g.dice.forced_left == 0
    v = g.state.vehicles[0]
    assert v.disabled and _events(g, "mine_vehicle")[0]["result"] == "disabled"
    assert all(u.panicked for u in g.state.units[:2])
    assert v.driver < 0 and v.passengers == []  # placed outside (seed 000 p. 31)
    assert known_minefields(g)  # it is known now
    att = _events(g, "d100_attack")
    if rules == "standard":
        assert att == []
    else:
        assert att[0]["armour"] == 1 and att[0]["penetrated"] == [3] and v.hp == 22
        if where == "headlamps":
            assert att[0]["component"] == "Headlamps" and v.destroyed == ["Headlamps"]
            assert not any(u.wounded for u in g.state.units[:2])
        else:  # the blast reaches US2's seat: a wound, and he panics as well
            assert att[0]["component"] == "Front Seat Passenger"
            assert g.state.units[1].wounded and not g.state.units[0].wounded
        assert _events(g, "d100_trouble") == []  # nothing of its driving is rolled: a wreck
    g = _jeep_ops([{"hex": "B1"}], rules=rules)  # Operations: disabled; a panic has no effect
    g.force_rolls(_D100_AP[where] if where else [])
    g.play("US4 drive SE to B1")
    assert g.state.vehicles[0].disabled and g.dice.forced_left == 0


@pytest.mark.parametrize("rules,sixes", [("standard", False), ("d100", False), ("d100", True)])
def test_an_anti_tank_minefield_disables_a_car_without_panic(rules, sixes):
    """seed 000 p. 32: anti-tank mines "(a car is disabled)", under both rule sets. d100's
    10d6 charge (belly Armor 1): ten 1s = 10, 9 through, Radiator (HP 10) holds, the riders
    unhurt; ten 6s = 60, 59 through the jeep's Base HP 25: destroyed, every rider takes 59 and
    is killed (seed 003 step 7) — the car disabled all the same."""
    g = _jeep_ops([{"hex": "B1", "kind": "anti_tank"}], rules=rules)
    if rules == "standard":
        g.force_rolls([])
    else:
        g.force_rolls(([6] if sixes else [1]) * 10 + [20])  # 20: Radiator
    g.play("US4 drive SE to B1")
    assert g.dice.forced_left == 0
    v = g.state.vehicles[0]
    assert v.disabled and not any(u.panicked for u in g.state.units[:2])
    assert _events(g, "mine_vehicle")[0]["result"] == "disabled"
    if rules == "d100":
        assert _events(g, "d100_attack")[0]["penetrated"] == [59 if sixes else 9]
        dead = [u.status == Status.KILLED for u in g.state.units[:2]]
        assert dead == [sixes, sixes] and (v.hp == 0) is sixes


def _sherman_on(kind: str, rules: str) -> Game:
    """T1's Sherman in A1, its drive SE into the minefield B1 to come (Rounds)."""
    return _rounds(
        [{"name": "T1", "hex": "A1", "vehicle": "V1", "role": "tank", "side": "us"}],
        [
            {
                "name": "V1",
                "type": "sherman",
                "side": "us",
                "hex": "A1",
                "facing": "NE",
                "crew": 5,
                "unit": "T1",
                "driver": "T1",
            }
        ],
        minefields=[{"hex": "B1", "kind": kind}],
        rules=rules,
    )


@pytest.mark.parametrize(
    "rules,kind,rolls,result",
    [
        ("standard", "anti_personnel", [], "ignored"),
        ("d100", "anti_personnel", [], "ignored"),
        ("standard", "anti_tank", [], "immobilised"),
        ("d100", "anti_tank", [1] * 10, "immobilised"),  # 10 halved = 5 ≤ 9: not through
        ("d100", "anti_tank", [6] * 10 + [97], "immobilised"),  # 60 halved = 30 > 9: 21 through
    ],
)
def test_tanks_ignore_minefields_except_anti_tank_mines(rules, kind, rolls, result):
    """seed 000 p. 32: "Tanks ignore minefields and boobytraps; ... the minefield stays.
    Mission 7's anti-tank mines ... go off only under a tank, immobilising it" — under both
    rule sets. d100 adds the anti-tank charge under the tank (seed 003: explosives half
    against armour; the belly, the Sherman's least Armor value 18 halved, 9): stopped, or
    through to a Brakes hit; immobilised either way, and its drive ends."""
    g = _sherman_on(kind, rules)
    g.force_rolls(rolls)
    g.play("T1 drive SE to B1")
    assert g.dice.forced_left == 0
    v = g.state.vehicles[0]
    assert [e["result"] for e in _events(g, "mine_vehicle")] == [result]
    assert v.immobilised is (kind == "anti_tank") and not v.disabled
    assert minefield_kind(g, v.hex) == kind  # the field stays
    att = _events(g, "d100_attack")
    if not rolls:
        assert att == []
    else:
        assert att[0]["armour"] == 9 and att[0]["penetrated"] == ([] if rolls[0] == 1 else [21])
        assert v.destroyed == ([] if rolls[0] == 1 else ["Brakes"])
    if kind == "anti_tank":
        assert _events(g, "vehicle_stops")


def test_no_passing_through_a_full_hex_that_is_mined():
    """⚙ vehicles.drive_targets: a mine could stop the car in the full hex: not passable."""
    others = [
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "B7"},
        {"name": "V3", "type": "staff_car", "side": "german", "hex": "B7", "disabled": True},
    ]
    base = {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": "US4"},
        "units": [{"name": "US4", "hex": "A8", "vehicle": "V1", "ar": "1-turn"}, FAR_GERMAN],
        "vehicles": [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "A8",
                "facing": "NE",
                "driver": "US4",
            },
            *others,
        ],
    }
    assert "US4 drive NE to B7" in Game.from_position(base).legal_orders()
    mined = Game.from_position({**base, "minefields": [{"hex": "B7", "known": False}]})
    assert "US4 drive NE to B7" not in mined.legal_orders()


# ================================================================ boobytraps under a tank
def test_a_boobytrap_under_a_tank_is_eliminated():
    """seed 000 p. 32: "Tanks ignore ... boobytraps; the boobytrap is eliminated": no harm,
    and the trigger hex never fires again (even a repeating one)."""
    from engine_helpers import paragraph_check, run_paragraph

    g = _rounds(
        [{"name": "US5", "hex": "G8", "vehicle": "V1", "role": "tank"}],
        [
            {
                "name": "V1",
                "type": "sherman",
                "side": "us",
                "hex": "G8",
                "facing": "N",
                "crew": 5,
                "driver": "US5",
                "unit": "US5",
            }
        ],
    )
    tu = g.state.units[0]
    g.force_rolls([])
    run_paragraph(g, 53, tu)  # Farm Assault 53: the boobytrap goes off
    v = g.state.vehicles[0]
    assert not v.disabled and tu.status == Status.ACTIVE and not tu.panicked
    assert g.state.dead_triggers == [g.board.index("G8")]
    g.state.fired_triggers.clear()
    n = len(g.state.fired_triggers)
    paragraph_check(g, tu, g.board.index("G8"))
    assert len(g.state.fired_triggers) == n  # the trigger does not fire


# ================================================================ seed 002 p. 25: prisoners
def _guard(mines: list[dict]) -> Game:
    return _rounds(
        [
            {"name": "US4", "hex": "G9"},
            {
                "name": "G1",
                "role": "rifleman",
                "hex": "G9",
                "status": "captured",
                "guard": "US4",
                "stance": "prone",
            },
        ],
        minefields=mines,
    )


def test_a_prisoner_is_never_marched_into_a_known_minefield():
    """seed 002 p. 25: "Prisoners may never be harmed, shot or marched into mines": moving
    the prisoner into a known minefield hex is not offered (an unknown one cannot be
    avoided, so it is)."""
    g = _guard([])
    north = next(t for t in g.legal_orders() if t.startswith("US4 move prisoner N "))
    target = north.split(" to ")[1].split()[0]
    known = _guard([{"hex": target}])
    assert north not in known.legal_orders()
    assert O.encode(K.MOVE_PRISONER, 0) not in known.legal_actions()
    with pytest.raises(IllegalActionError):
        known.step(O.encode(K.MOVE_PRISONER, 0))
    assert north in _guard([{"hex": target, "known": False}]).legal_orders()
    # the guard alone may still walk into it (his own risk)
    assert any(t.startswith("US4 move N ") for t in known.legal_orders())


# ================================================================ seed 000 p. 31: craters
def _crater_game(crater: bool) -> Game:
    b = load_board(MISSION)
    if crater:  # a map with a crater at C1 (its pristine terrain too: positions restore it)
        i, t = b.index("C1"), TERRAIN_NAMES.index("crater")
        b.terrain[i] = t
        terr = list(b._pristine[0])
        terr[i] = t
        b._pristine = (terr, *b._pristine[1:])
    ctx = Ctx(MISSION, board=b)
    return Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US4"},
            "units": [{"name": "US4", "hex": "B1", "vehicle": "V1", "ar": "1-turn"}, FAR_GERMAN],
            "vehicles": [
                {
                    "name": "V1",
                    "type": "jeep",
                    "side": "us",
                    "hex": "B1",
                    "facing": "NE",
                    "driver": "US4",
                }
            ],
        },
        ctx=ctx,
    )


def test_never_drive_into_a_crater_on_purpose():
    """seed 000 p. 31: "Never drive into a crater on purpose"."""
    assert "US4 drive NE to C1" in _crater_game(False).legal_orders()
    g = _crater_game(True)
    assert "US4 drive NE to C1" not in g.legal_orders()
    with pytest.raises(IllegalActionError):
        g.play("US4 drive NE to C1")


@pytest.mark.parametrize("passed", [True, False])
def test_a_skid_into_a_crater_costs_3_mps_and_an_immediate_accident_check(passed):
    """seed 000 p. 31: "a movement reference that forces it costs 3 MPs and an immediate
    Accident Check": an Accident Table skid (6) into the crater C1, then the check at the
    driver's DS (passed at DS, failed at DS + 1: the table again, 0 no effect)."""
    g = _crater_game(True)
    v = g.state.vehicles[0]
    need = V.effective_ds(v, g.state.units[0])
    g.log.clear()
    g.force_rolls([9, 6, need] if passed else [9, 6, need + 1, 0])
    V.accident_check(g, v, "test")
    evs = [e.to_dict() for e in g.log]
    assert v.hex == g.board.index("C1")
    assert [e["mp"] for e in evs if e["type"] == "forced_crater"] == [3]
    checks = [e for e in evs if e["type"] == "accident_check"]
    assert checks[-1]["why"] == "forced into a crater"
    assert (checks[-1]["result"] == "passed") is passed
    assert g.dice.forced_left == 0


def test_a_skid_into_clear_ground_makes_no_second_check():
    g = _crater_game(False)
    v = g.state.vehicles[0]
    g.log.clear()
    g.force_rolls([9, 6])
    V.accident_check(g, v, "test")
    evs = [e.to_dict() for e in g.log]
    assert v.hex == g.board.index("C1") and not any(e["type"] == "forced_crater" for e in evs)
    assert sum(e["type"] == "accident_check" for e in evs) == 1
