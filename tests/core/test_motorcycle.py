"""The German motorcycle with sidecar (``vehicles.yaml: motorcycle``, every number ⚙: seed 000
has no motorcycle). It is a car in every rule (kind car, seed 000 p. 30-33); only its numbers
differ: 2 seats (driver + sidecar passenger), slow / fast MPA 6 / 10, a Hit Chart with the
driver 3 in 10. Each test is a position; the dice are forced.

What explicitly does not differ from a car (and is tested here): the cost chart (woods too:
it is small), the Accident Checks and the Accident Table, fire from it (the sidecar passenger
aimed or snap at −2, the driver one snap at −2 instead of driving), the German driver's card
(his driving column, ``vehicle_cards.yaml: driving_default``: no card of its own).

Map (Farm Assault): row 1 clear, D2 woods, C2 clear, road along row 8 (A8 ... R8).
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import force, german_action, give_turn

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.orders import encode
from ambush_env.core.model.types import Direction, Stance, Status
from ambush_env.core.vehicles import vehicle_fire as VF
from ambush_env.core.vehicles import vehicles as V
from ambush_env.core.world.missions import Mission, check_references, load_mission
from ambush_env.core.world.vehicle_data import shipped_vehicle_data

MISSION = "farm_assault"
#: the Hit Chart of vehicles.yaml, d10 0..9 (⚙ driver 3, sidecar passenger 3, tyres 2, body 2)
CHART = [
    "driver",
    "driver",
    "driver",
    "passenger",
    "passenger",
    "passenger",
    "tyres",
    "tyres",
    "body",
    "body",
]


def _position(vehicle: dict, units: list[dict], **top: Any) -> dict:
    """Farm Assault in Rounds (round 3 of 3, US initiative) with this one vehicle."""
    return {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "units": units,
        "vehicles": [vehicle],
        **top,
    }


def _german_krad(hex_: str = "K8", facing: str = "SW", us_hex: str = "H8", **top: Any) -> Game:
    """G1 (rifleman) drives the German motorcycle V1 at ``hex_``, G2 (rifleman) in the sidecar;
    US1 (an M1 Garand: neither automatic nor jamming) at ``us_hex``."""
    units = [
        {"name": "US1", "hex": us_hex, "ar": "1-turn", "weapon": "m1_garand"},
        {"name": "G1", "role": "rifleman", "hex": hex_, "vehicle": "V1", "ar": "1-turn"},
        {"name": "G2", "role": "rifleman", "hex": hex_, "vehicle": "V1", "ar": "1-turn"},
    ]
    v = {
        "name": "V1",
        "type": "motorcycle",
        "side": "german",
        "hex": hex_,
        "facing": facing,
        "driver": "G1",
        "passengers": ["G2"],
    }
    return Game.from_position(_position(v, units, **top))


def _captured_krad(type_: str = "motorcycle", hex_: str = "C1", facing: str = "SE") -> Game:
    """US1 drives a captured German ``type_`` at ``hex_``, his turn (a far German, unaware,
    keeps the Round going)."""
    units = [
        {"name": "US1", "hex": hex_, "vehicle": "V1", "ar": "1-turn"},
        {"name": "G1", "role": "rifleman", "hex": "R14", "aware": False, "ar": "1-turn"},
    ]
    v = {
        "name": "V1",
        "type": type_,
        "side": "us",
        "captured": True,
        "hex": hex_,
        "facing": facing,
        "driver": "US1",
    }
    return Game.from_position(_position(v, units, turn={"unit": "US1"}))


def _events(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


# ============================================================================ the data
def test_the_motorcycle_type_loads_as_a_small_open_german_car():
    t = shipped_vehicle_data().vehicles["motorcycle"]
    assert (t.name, t.kind, t.side, t.size, t.open) == (
        "Motorcycle",
        "car",
        "german",
        "small",
        True,
    )
    assert (t.occupants, t.slow_mpa, t.fast_mpa) == (2, 6, 10)
    assert t.fast_mpa > shipped_vehicle_data().vehicles["kubelwagen"].fast_mpa
    assert t.parts == {
        "driver": "occupant",
        "passenger": "occupant",
        "tyres": "unarmoured",
        "body": "unarmoured",
    }
    assert list(t.hit_chart) == CHART
    # the driver is more exposed than in any car (a car's driver: 2 in 10)
    cars = [
        c
        for k, c in shipped_vehicle_data().vehicles.items()
        if c.kind == "car" and k != "motorcycle"
    ]
    assert all(t.hit_chart.count("driver") > c.hit_chart.count("driver") for c in cars)
    # no aspect charts or armour: the side and the rear read the same chart
    assert t.chart("side") == t.chart("rear") == t.chart("front")
    assert not t.weapons


def test_a_position_with_a_motorcycle_round_trips():
    g = _german_krad()
    p = g.position()
    v = p["vehicles"][0]
    assert (v["type"], v["side"], v["hex"], v["driver"], v["passengers"]) == (
        "motorcycle",
        "german",
        "K8",
        "G1",
        ["G2"],
    )
    h = Game.from_position(p)
    assert h.position() == p
    assert h.legal_actions() == g.legal_actions()


def test_a_third_man_aboard_is_refused_naming_the_field():
    """⚙ 2 seats, driver included (seed 000 p. 30: "cars carry a maximum including the
    driver"): a third man is a DataError naming the field, in a position and in a mission."""
    units = [{"name": f"G{k}", "role": "rifleman", "hex": "K8", "vehicle": "V1"} for k in (1, 2, 3)]
    units.append({"name": "US1", "hex": "C8"})
    v = {
        "name": "V1",
        "type": "motorcycle",
        "side": "german",
        "hex": "K8",
        "driver": "G1",
        "passengers": ["G2", "G3"],
    }
    with pytest.raises(DataError, match="3 men aboard a Motorcycle, which seats 2") as e:
        Game.from_position(_position(v, units))
    assert e.value.field == "vehicles.0.passengers"
    # no driver, two passengers: as many men as seats
    Game.from_position(_position(v | {"driver": None}, units[1:]))

    m = load_mission(MISSION)
    raw = m.model_dump(mode="json", by_alias=True)
    raw["german_vehicles"] = [
        {
            "vehicle": "motorcycle",
            "hex": "P8",
            "driver": "rifleman",
            "passengers": ["rifleman", "rifleman"],
        }
    ]
    with pytest.raises(DataError, match=r"german_vehicles\.0\.passengers"):
        check_references(Mission.model_validate(raw), "test.yaml")
    raw["german_vehicles"][0]["passengers"] = ["rifleman"]
    check_references(Mission.model_validate(raw), "test.yaml")


def test_a_third_man_cannot_get_in():
    """In play the seats are full too: nobody else boards (seed 000 p. 31)."""
    units = [
        {"name": "US1", "hex": "C1", "vehicle": "V1"},
        {"name": "US2", "hex": "C1", "vehicle": "V1"},
        {"name": "US3", "hex": "C1"},
        {"name": "G1", "role": "rifleman", "hex": "R14", "aware": False},
    ]
    v = {
        "name": "V1",
        "type": "motorcycle",
        "side": "us",
        "captured": True,
        "hex": "C1",
        "driver": "US1",
        "passengers": ["US2"],
    }
    g = Game.from_position(_position(v, units, phase="operations"))
    us3 = g.state.units[2]
    assert V.board_refusal(g, us3, g.state.vehicles[0]) == "no free seat"


# ============================================================================ driving
def test_driving_pays_the_car_cost_chart_and_checks_past_six_mps():
    """The vehicle Movement Point Cost Chart (RULES.md §12 ⚙) is the cars' (one chart for
    every small vehicle): clear 2, woods 4 (a small vehicle enters woods, seed 000 p. 30).
    ⚙ slow MPA 6: C1 → D1 (clear, 2) → D2 (woods, 4) is 6 MPs, no Accident Check; the next
    hex (C2, clear) makes the one check of the drive (seed 000 p. 30, 32)."""
    g = _captured_krad()
    v, us1 = g.state.vehicles[0], g.state.units[0]
    assert V.mpa(v) == (6, 10)
    force(g, [])
    evs = g.step(encode(K.DRIVE, Direction.SE)) + g.step(encode(K.DRIVE, Direction.S))
    assert [(e["to"], e["mp"]) for e in _events(evs, "drive")] == [("D1", 2), ("D2", 4)]
    assert not _events(evs, "accident_check") and g.state.turn.mp_left == 4
    p = g.position()  # mid-drive: the position still round-trips
    assert Game.from_position(p).position() == p
    force(g, [2])  # US1 DS 3, 1 lower in a captured vehicle (seed 002 p. 27): 2 passes
    evs = g.step(encode(K.DRIVE, Direction.NW))
    assert _events(evs, "drive")[0]["to"] == "C2" and _events(evs, "fast")[0]["mp_spent"] == 8
    ac = _events(evs, "accident_check")
    assert len(ac) == 1 and ac[0]["need"] == 2 and ac[0]["result"] == "passed"
    assert g.state.turn.mp_left == 2 and g.acting_unit() is us1
    v.tyre_shot = True
    assert V.mpa(v) == (6, 6)  # a shot tyre: no more fast driving (seed 000 p. 30)


def test_the_same_drive_in_a_kubelwagen_checks_one_hex_earlier():
    """The neighbour case: the Kübelwagen's slow MPA is 5, so D2 (6 MPs) is already fast."""
    g = _captured_krad("kubelwagen")
    force(g, [0])
    evs = g.step(encode(K.DRIVE, Direction.SE)) + g.step(encode(K.DRIVE, Direction.S))
    assert len(_events(evs, "accident_check")) == 1


def test_the_cost_row_is_the_small_vehicles_one():
    g = _captured_krad(hex_="D1", facing="S")
    b = g.board
    row = V.cost_row(g, shipped_vehicle_data().vehicles["motorcycle"].size == "large")
    assert row == V.cost_row(g, False)
    assert row[b.index("D1") * 6 + int(Direction.S)] == 4  # D2: woods
    assert row[b.index("A8") * 6 + int(Direction.SE)] == 1  # B8: road
    assert row[b.index("L5") * 6 + int(Direction.S)] == -1  # L6: a building, never


def test_a_motorcycle_may_stand_in_woods():
    units = [{"name": "US1", "hex": "A8"}]
    g = Game.from_position(
        _position({"name": "V1", "type": "motorcycle", "side": "german", "hex": "D2"}, units)
    )
    assert g.board.label(g.state.vehicles[0].hex) == "D2"


# ============================================================================ fire at it
@pytest.mark.parametrize("roll", range(10))
def test_each_hit_chart_row_hits_its_part(roll):
    """One d10 on the Hit Chart after the hit (seed 000 p. 31): 0-2 the driver, 3-5 the sidecar
    passenger, 6-7 the tyres, 8-9 the body (⚙). Then, as for any car: damage on the weapon's
    row for a man (and the driver's Accident Check), a penetration roll for a part (and the
    Accident Check of a wheel or body hit). All rolls 0: no effect, every check passed."""
    g = _german_krad()
    us1, g1, g2 = g.state.units[:3]
    v = g.state.vehicles[0]
    force(g, [0, roll, 0, 0])  # hit; chart; damage (which passenger first) or penetration; check
    evs = [e.to_dict() for e in VF.fire_at_vehicle(g, us1, v, snap=False)]
    fv = evs[0]
    assert fv["type"] == "fire_vehicle" and fv["rolls"]["hit_chart"] == roll
    assert fv["part"] == CHART[roll]
    if CHART[roll] == "driver":
        assert fv["unit"] == g1.name and "damage" in fv["rolls"]
    elif CHART[roll] == "passenger":
        assert fv["unit"] == g2.name and "damage" in fv["rolls"]
    else:
        assert "unit" not in fv and "penetration" in fv["rolls"] and fv["result"] == "none"
    log = [e.to_dict() for e in g.log]
    checks = _events(log, "accident_check")
    assert len(checks) == (0 if CHART[roll] == "passenger" else 1)
    assert all(c["result"] == "passed" for c in checks)
    assert g.dice.forced_left == 0 and not v.disabled


@pytest.mark.parametrize(
    "dmg, rolls, result",
    [
        (5, [9, 4], "stop"),  # wounded: an Accident Check (9 > DS 0), table 4 = stop
        (9, [9, 0], "overturn"),  # killed: an automatic accident, table 9 = overturn; G2 rolls 0
    ],
)
def test_a_driver_hit_makes_an_accident_check(dmg, rolls, result):
    """Seed 000 p. 31-32: a driver wounded by fire makes an Accident Check, one incapacitated or
    killed an automatic accident (the Accident Table, RULES.md §12 ⚙). An overturn disables it
    and everyone aboard rolls as if hit by a bolt rifle, placed prone outside."""
    g = _german_krad()
    us1, g1, g2 = g.state.units[:3]
    v = g.state.vehicles[0]
    force(g, [0, 0, dmg, *rolls])  # hit; chart 0 = driver; damage; check and/or table
    VF.fire_at_vehicle(g, us1, v, snap=False)
    ac = _events([e.to_dict() for e in g.log], "accident_check")
    assert len(ac) == 1 and ac[0]["why"] == "driver hit" and ac[0]["result"] == result
    if result == "stop":
        assert g1.wounded and ac[0]["roll"] == 9 and ac[0]["need"] == g1.DS
        assert ac[0]["table_roll"] == 4 and not v.disabled
    else:
        assert g1.status == Status.KILLED and "roll" not in ac[0] and ac[0]["table_roll"] == 9
        assert v.disabled and g2.vehicle == -1 and g2.stance == Stance.PRONE
        assert g2.status == Status.ACTIVE  # his bolt-rifle roll of 0: no effect
    assert g.dice.forced_left == 0


# ============================================================================ fire from it
def test_the_sidecar_passenger_fires_aimed_or_snap_the_driver_one_snap():
    """Seed 000 p. 32, as from any car: a passenger fires aimed or snap, the driver one snap
    (a drive instead: he may not fire once he drives); both at −2 ("from a car")."""
    g = _german_krad(german="agent")
    _, g1, g2 = g.state.units[:3]
    give_turn(g, g2)
    assert {"G2 fire aimed at US1 (H8)", "G2 snap fire at US1 (H8)"} <= set(g.legal_orders())
    give_turn(g, g1)
    orders = g.legal_orders()
    assert "G1 snap fire at US1 (H8)" in orders and "G1 fire aimed at US1 (H8)" not in orders
    assert "G1 drive SW to J8" in orders
    g.step(encode(K.DRIVE, Direction.SW))
    assert not [o for o in g.legal_orders() if "fire" in o]  # driving: no shot this turn
    force(g, [9])  # G2's aimed shot misses
    give_turn(g, g2)
    assert german_action(g, g2, "fire", {"mode": "aimed"})
    fire = _events([e.to_dict() for e in g.log], "fire")[-1]
    assert fire["shooter"] == "G2" and fire["mode"] == "aimed"
    assert fire["modifiers"]["from_car"] == -2


# ============================================================================ the German card
def test_a_german_motorcycle_acts_on_its_drivers_driving_column():
    """Seed 000 p. 32: "A German car acts on its driver's driving column" — the motorcycle too,
    with no card of its own (⚙). The rifleman's card has none: the shipped default's row 0-3
    drives toward the nearest US soldier at the slow allowance, every MP (p. 30): 6 road hexes
    (the slow MPA 6; a Kübelwagen goes 5), no Accident Check."""
    g = _german_krad(us_hex="C8")
    g1 = g.state.units[1]
    v = g.state.vehicles[0]
    force(g, [0])
    give_turn(g, g1)
    g.german_turn(g1)
    ev = [e.to_dict() for e in g.log]
    card = _events(ev, "german_card")[0]
    assert card["column"] == "driving"
    assert card["unit"] == "G1" and card["roll"] == 0 and card["actions"] == ["drive", "fire"]
    drives = _events(ev, "drive")
    assert [e["to"] for e in drives] == ["J8", "I8", "H8", "G8", "F8", "E8"]
    assert sum(e["mp"] for e in drives) == 6 and g.board.label(v.hex) == "E8"
    assert not _events(ev, "accident_check") and _events(ev, "end_drive")
    assert g.state.units[2].hex == v.hex  # the sidecar passenger rides along


def test_a_german_motorcycle_driven_fast_checks_once_past_six():
    """The default driving column's row 4-5 guns it: the fast allowance (10), one Accident Check
    the moment the drive passes the slow MPA (the 7th MP, seed 000 p. 30)."""
    g = _german_krad(us_hex="A9")
    g1 = g.state.units[1]
    force(g, [4, 0])  # the card row; the Accident Check (0 <= DS 0: passed)
    give_turn(g, g1)
    g.german_turn(g1)
    ev = [e.to_dict() for e in g.log]
    assert _events(ev, "german_card")[0]["roll"] == 4
    assert [e["mp_spent"] for e in _events(ev, "fast")] == [7]
    ac = _events(ev, "accident_check")
    assert len(ac) == 1 and ac[0]["why"] == "moving fast" and ac[0]["result"] == "passed"
    assert sum(e["mp"] for e in _events(ev, "drive")) > 6
