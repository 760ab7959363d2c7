"""Vehicles where they cannot be, and too many men aboard (issue 11, done-when 6; seed 000
p. 30-31, 40): a mission file or a position that puts a vehicle on a building, rubble or
river hex, a large vehicle in woods, a third vehicle in a hex or off the map, or seats more
men than the vehicle takes, raises ``DataError`` naming the exact field; so does a mission
that sets a vehicle up in a crater. Each refusal has its valid neighbour case, which loads.

A position may hold a vehicle in a crater (a forced entry in play, p. 31); a mission may not.

Map (Farm Assault, 18 x 14): A1-C1 clear, D2 woods, road along row 8 (A8, B8, ...), the
farmhouse L6/L7 (building), N10 rubble; it has no river or crater, so those hexes are made on
a board of the test's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Terrain
from ambush_env.core.rules.ctx import Ctx
from ambush_env.core.world.board import board_from_dict
from ambush_env.core.world.data import data_path, read_yaml
from ambush_env.core.world.missions import check_references, load_mission, read_mission

MISSION = "farm_assault"
FAR = {"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"}


# ------------------------------------------------------------------------------ missions
def _mission_file(
    tmp_path: Path, us: list[dict] | None = None, german: list[dict] | None = None
) -> Path:
    """Farm Assault written to ``tmp_path`` with these vehicles (its own ones when None)."""
    raw = read_yaml(data_path("missions", "farm_assault.yaml"))
    if us is not None:
        raw["us_vehicles"] = us
    if german is not None:
        raw["german_vehicles"] = german
    p = tmp_path / "farm_assault.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return p


def _mission_refused(tmp_path: Path, field: str, match: str, **vehicles: Any) -> None:
    with pytest.raises(DataError, match=match) as e:
        read_mission(_mission_file(tmp_path, **vehicles))
    assert e.value.field == field


def _jeep(hex_: str = "A8") -> dict:
    return {"vehicle": "jeep", "hex": hex_, "facing": "NE"}


def _kubel(hex_: str) -> dict:
    return {"vehicle": "kubelwagen", "hex": hex_, "facing": "SE"}


def test_mission_refuses_a_large_vehicle_in_woods_a_small_one_is_fine(tmp_path):
    """seed 000 p. 30: "large vehicles never enter woods"; a car may."""
    _mission_refused(
        tmp_path,
        "german_vehicles.0.hex",
        "Panzer IV on woods: large vehicles",
        german=[{"vehicle": "panzer_iv", "hex": "D2"}],
    )
    m = read_mission(_mission_file(tmp_path, german=[_kubel("D2")]))
    assert m.german_vehicles[0].hex == "D2"


def test_mission_sets_a_tank_up_on_clear(tmp_path):
    """The neighbour of the woods case: a Panzer IV on clear ground loads."""
    m = read_mission(_mission_file(tmp_path, german=[{"vehicle": "panzer_iv", "hex": "C1"}]))
    assert m.german_vehicles[0].hex == "C1"


@pytest.mark.parametrize("label, terrain", [("L6", "building"), ("N10", "rubble")])
def test_mission_refuses_a_vehicle_on_a_building_or_rubble(tmp_path, label, terrain):
    """seed 000 p. 30: vehicles move "into anything but buildings, rubble and rivers"."""
    _mission_refused(
        tmp_path, "german_vehicles.0.hex", f"Kübelwagen on {terrain}", german=[_kubel(label)]
    )
    _mission_refused(tmp_path, "us_vehicles.0.hex", f"Jeep on {terrain}", us=[_jeep(label)])


def _board_with(**terrain: Terrain):
    raw = read_yaml(data_path("maps", "farm_assault.yaml"))
    for label, t in terrain.items():
        raw.setdefault("hexes", {})[label] = {"terrain": t.name.lower()}
    return board_from_dict(raw, "<test map>")


@pytest.mark.parametrize(
    "terrain, why",
    [
        (Terrain.RIVER, "never entered by a vehicle"),
        (Terrain.CRATER, "never driven into on purpose"),
    ],
)
def test_mission_refuses_a_vehicle_in_a_river_or_crater(terrain, why):
    """seed 000 p. 30 (rivers) and p. 31 ("never drive into a crater on purpose"): checked
    against the board the mission is played on (a generated mission passes its own)."""
    board = _board_with(C1=terrain)
    m = load_mission(MISSION)
    bad = m.model_copy(
        update={"german_vehicles": (m.german_vehicles[0].model_copy(update={"hex": "C1"}),)}
    )
    with pytest.raises(DataError, match=why) as e:
        check_references(bad, "<test>", board=board)
    assert e.value.field == "german_vehicles.0.hex"
    check_references(bad, "<test>", board=_board_with())  # clear C1: fine
    with pytest.raises(DataError) as e:  # and so does a game set up on that board
        Ctx(bad, board=board)
    assert e.value.field == "german_vehicles.0.hex"


def test_mission_refuses_a_third_vehicle_in_a_hex_two_are_fine(tmp_path):
    """seed 000 p. 30: "at most two vehicles ... per hex"."""
    _mission_refused(
        tmp_path,
        "german_vehicles.1.hex",
        "at most 2 vehicles",
        us=[_jeep("A8")],
        german=[_kubel("A8"), _kubel("A8")],
    )
    m = read_mission(_mission_file(tmp_path, us=[_jeep("A8")], german=[_kubel("A8")]))
    assert [v.hex for v in (*m.us_vehicles, *m.german_vehicles)] == ["A8", "A8"]
    g = Game.from_position(
        {
            "mission": str(_mission_file(tmp_path, us=[_jeep("A8")], german=[_kubel("A8")])),
            "units": [FAR],
        }
    )
    assert [g.board.label(v.hex) for v in g.state.vehicles] == ["A8", "A8"]


def test_mission_refuses_a_vehicle_off_the_map(tmp_path):
    _mission_refused(tmp_path, "german_vehicles.0.hex", "off the map", german=[_kubel("Z40")])


def test_inline_mission_of_a_position_names_its_field():
    """A position's inline mission is checked as a mission file is (``mission.`` prefix)."""
    raw = load_mission(MISSION).model_dump(by_alias=True, mode="json")
    raw["german_vehicles"] = [_kubel("L7")]
    with pytest.raises(DataError, match="building") as e:
        Game.from_position({"mission": raw, "units": [FAR]})
    assert e.value.field == "mission.german_vehicles.0.hex"


# ------------------------------------------------------------------------------ positions
def _pos(vehicles: list[dict], units: list[dict] | None = None) -> dict:
    return {
        "mission": MISSION,
        "units": units if units is not None else [FAR],
        "vehicles": vehicles,
    }


def _pos_refused(p: dict, field: str, match: str, ctx: Ctx | None = None) -> None:
    with pytest.raises(DataError, match=match) as e:
        Game.from_position(p, ctx=ctx) if ctx is not None else Game.from_position(p)
    assert e.value.field == field


def _car(name: str, hex_: str, type_: str = "jeep", side: str = "us", **kw: Any) -> dict:
    return {"name": name, "type": type_, "side": side, "hex": hex_, **kw}


def _tank(name: str, hex_: str, type_: str = "panzer_iv", **kw: Any) -> dict:
    return {
        "name": name,
        "type": type_,
        "side": "us" if type_ == "sherman" else "german",
        "hex": hex_,
        **kw,
    }


@pytest.mark.parametrize("type_", ["panzer_iv", "sherman", "jagdpanther"])
def test_position_refuses_a_tank_in_woods_it_may_stand_on_clear(type_):
    """seed 000 p. 30: large vehicles never enter woods (a small car may)."""
    _pos_refused(_pos([_tank("V1", "D2", type_)]), "vehicles.0.hex", "large vehicles never")
    g = Game.from_position(_pos([_tank("V1", "C1", type_)]))
    assert g.board.label(g.state.vehicles[0].hex) == "C1"
    g = Game.from_position(_pos([_car("V1", "D2", "kubelwagen", "german")]))
    assert g.board.label(g.state.vehicles[0].hex) == "D2"


@pytest.mark.parametrize("label, terrain", [("L6", "building"), ("N10", "rubble")])
def test_position_refuses_a_vehicle_on_a_building_or_rubble(label, terrain):
    """seed 000 p. 30."""
    _pos_refused(
        _pos([_car("V1", "A8"), _car("V2", label, "kubelwagen", "german")]),
        "vehicles.1.hex",
        f"on {terrain}",
    )


def _ctx_with(label: str, terrain: Terrain) -> Ctx:
    ctx = Ctx(MISSION)
    ctx.board.terrain[ctx.board.index(label)] = terrain
    return ctx


def test_position_refuses_a_vehicle_in_a_river():
    """seed 000 p. 30: vehicles never enter rivers."""
    _pos_refused(
        _pos([_car("V1", "C1")]),
        "vehicles.0.hex",
        "on river: never entered",
        ctx=_ctx_with("C1", Terrain.RIVER),
    )
    Game.from_position(_pos([_car("V1", "C1")]), ctx=_ctx_with("C1", Terrain.CLEAR))


def test_position_allows_a_vehicle_forced_into_a_crater():
    """seed 000 p. 31: never into a crater on purpose, but "a movement reference that forces
    it" may put a vehicle there in play, so a position may hold one (a mission may not:
    test_mission_refuses_a_vehicle_in_a_river_or_crater)."""
    g = Game.from_position(_pos([_car("V1", "C1")]), ctx=_ctx_with("C1", Terrain.CRATER))
    assert g.board.label(g.state.vehicles[0].hex) == "C1"


def test_position_refuses_a_vehicle_off_the_map():
    _pos_refused(_pos([_car("V1", "Z40")]), "vehicles.0.hex", "not a hex of the map")


def test_position_refuses_a_third_vehicle_in_a_hex_two_are_fine():
    """seed 000 p. 30: two vehicles, disabled ones included, may end in a hex; not three."""
    two = [_car("V1", "B8"), _car("V2", "B8", "kubelwagen", "german", disabled=True)]
    g = Game.from_position(_pos(two))
    assert [g.board.label(v.hex) for v in g.state.vehicles] == ["B8", "B8"]
    _pos_refused(
        _pos([*two, _car("V3", "B8", "staff_car", "german")]),
        "vehicles.2.hex",
        "at most 2 vehicles",
    )
    # a vehicle off the map (driven off) is in no hex
    g = Game.from_position(_pos([*two, _car("V3", None, "staff_car", "german", exited=True)]))
    assert g.state.vehicles[2].hex == -1


def _aboard(n: int, hex_: str = "A8", vehicle: str = "V1") -> list[dict]:
    return [{"name": f"US{k}", "hex": hex_, "vehicle": vehicle} for k in range(1, n + 1)]


def test_position_refuses_too_many_men_in_a_car():
    """seed 000 p. 30: a jeep carries four, driver included; a staff car five."""
    p = _pos([_car("V1", "A8", driver="US1", passengers=["US2", "US3", "US4"])], _aboard(4))
    g = Game.from_position(p)
    assert len(g.state.vehicles[0].occupants) == 4
    _pos_refused(
        _pos([_car("V1", "A8", driver="US1", passengers=["US2", "US3", "US4", "US5"])], _aboard(5)),
        "vehicles.0.passengers",
        "5 men aboard a Jeep, which seats 4",
    )
    # no driver, four passengers: as many men as seats
    Game.from_position(
        _pos([_car("V1", "A8", passengers=["US1", "US2", "US3", "US4"])], _aboard(4))
    )
    staff = [
        _car(
            "V1", "A8", "staff_car", "german", driver="US1", passengers=["US2", "US3", "US4", "US5"]
        )
    ]
    Game.from_position(_pos(staff, _aboard(5)))
    staff[0]["passengers"].append("US6")
    _pos_refused(_pos(staff, _aboard(6)), "vehicles.0.passengers", "6 men aboard a Staff car")


def test_position_refuses_passengers_in_a_tank():
    """seed 000 p. 31: tanks carry no passengers; nobody can board a tank."""
    units = [{"name": "G1", "role": "rifleman", "hex": "C1", "vehicle": "V1"}, FAR | {"name": "G2"}]
    _pos_refused(
        _pos([_tank("V1", "C1", passengers=["G1"])], units),
        "vehicles.0.passengers",
        "carries no passengers",
    )


def test_tank_driver_is_its_own_unit():
    """Decision 1 of issue 11: a tank's own unit (``role: tank``) sits in its driver's seat
    (it drives itself); another unit there is refused."""
    units = [
        {"name": "T1", "role": "tank", "side": "german", "vehicle": "V1"},
        {"name": "G2", "role": "rifleman", "hex": "C1"},
    ]
    g = Game.from_position(_pos([_tank("V1", "C1", unit="T1")], units))
    v, u = g.state.vehicles[0], g.state.units[0]
    assert v.driver == v.unit == u.uid and u.vehicle == v.vid and u.hex == v.hex
    _pos_refused(
        _pos([_tank("V1", "C1", unit="T1", driver="G2")], units),
        "vehicles.0.driver",
        "a tank drives itself",
    )
    _pos_refused(
        _pos([_tank("V1", "C1", driver="G2")], units[1:]),
        "vehicles.0.driver",
        "a tank drives itself",
    )


def test_position_refuses_too_large_a_tank_crew():
    """seed 000 p. 40: Panzer IV, Sherman and Jagdpanther have a crew of five."""
    Game.from_position(_pos([_tank("V1", "C1", crew=5)]))
    _pos_refused(_pos([_tank("V1", "C1", crew=6)]), "vehicles.0.crew", "crew of 5, not 6")


def test_position_refuses_a_car_with_a_unit_or_crew():
    units = [{"name": "US1", "hex": "A8"}]
    _pos_refused(
        _pos([_car("V1", "A8", unit="US1")], units), "vehicles.0.unit", "only a tank has a unit"
    )
    _pos_refused(_pos([_car("V1", "A8", crew=2)]), "vehicles.0.crew", "only a tank has a crew")


def test_position_refuses_a_man_in_two_vehicles():
    """Nobody sits in two vehicles (a soldier rides one vehicle, ``Unit.vehicle``)."""
    two = [
        _car("V1", "A8", driver="US1"),
        _car("V2", "A8", "kubelwagen", "german", passengers=["US1"]),
    ]
    _pos_refused(_pos(two, _aboard(1)), "vehicles.1.passengers.0", "US1 sits in V1 already")
    two[1]["driver"], two[1]["passengers"] = "US1", []
    _pos_refused(_pos(two, _aboard(1)), "vehicles.1.driver", "US1 sits in V1 already")


def test_position_rider_must_be_seated_and_on_its_hex():
    """A unit riding a vehicle is in its seats and on its hex; one seated rides it (his
    ``vehicle`` left out is filled in ⚙, another vehicle named is refused)."""
    units = _aboard(2)
    _pos_refused(
        _pos([_car("V1", "A8", driver="US1")], units),
        "units.1.vehicle",
        "US2 rides V1 but is not in its seats",
    )
    units[1]["hex"] = "B8"
    _pos_refused(
        _pos([_car("V1", "A8", driver="US1", passengers=["US2"])], units),
        "units.1.hex",
        "US2 rides V1, which is A8",
    )
    units = [{"name": "US1", "hex": "A8"}, {"name": "US2", "hex": "A8"}]
    g = Game.from_position(_pos([_car("V1", "A8", driver="US1", passengers=["US2"])], units))
    assert [u.vehicle for u in g.state.units] == [0, 0]
    units[1]["vehicle"] = "V2"
    _pos_refused(
        _pos(
            [
                _car("V1", "A8", driver="US1", passengers=["US2"]),
                _car("V2", "A8", "kubelwagen", "german"),
            ],
            units,
        ),
        "vehicles.0.passengers.0",
        "US2 sits in V1 but rides V2",
    )


def test_written_positions_with_vehicles_read_back():
    """The checks accept every position the engine writes (the round trip of
    tests/core/test_positions.py covers whole games; here the mission's own start)."""
    g = Game(MISSION, seed=3)
    p = g.position()
    assert Game.from_position(p).position() == p
