"""Positions on a map of their own (docs/API.md "Positions and orders": "the mission (id, path,
or an inline map)"; docs/DATA_FORMATS.md, positions; issue 23).

A position's ``map`` (or an inline mission's ``map``) may be a map in the map file's own schema
(core/world/board.py), checked with the same errors under ``map.``, or a shipped map id or a map
file's path. The written position carries the map, so it round-trips.

The map below is Tank Hunt's size (16 × 14, so that the mission's hexes fit) and clear but
for a crater (E5), a one-hex stone building, the hut (F5: stone walls, no door, no window,
RULES.md §2), and a river of three hexes (C4, D4, E4).
"""

from __future__ import annotations

import copy
import json

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Terrain
from ambush_env.core.world.missions import load_mission

MAP = {
    "name": "test_ground",
    "columns": 16,
    "rows": 14,
    "default": {"terrain": "clear"},
    "hexes": {
        "E5": {"terrain": "crater"},
        "F5": {"terrain": "building", "building": "hut"},
        "C4": {"terrain": "river"},
        "D4": {"terrain": "river"},
        "E4": {"terrain": "river"},
    },
}

POSITION = {
    "mission": "tank_hunt",
    "map": MAP,
    "phase": "rounds",
    "round": 1,
    "rounds_total": 1,
    "initiative": "us",
    "turn": {"unit": "US1"},
    "units": [
        {"name": "US1", "hex": "D5", "ar": "1-turn"},
        {"name": "US2", "hex": "A14", "ar": "1-turn"},
        {"name": "G1", "role": "rifleman", "hex": "F5", "ar": "complete"},
        {"name": "G2", "role": "rifleman", "hex": "E6", "ar": "complete"},
    ],
}


def _game(**changes) -> Game:
    return Game.from_position({**copy.deepcopy(POSITION), **changes})


def test_a_position_plays_on_its_inline_map():
    """The crater costs 2 MPs to enter (terrain.yaml, RULES.md §6), the river is impassable,
    the hut's stone wall can be fired at and hides the German inside it (no aperture: RULES.md
    §3), as the map says; on Tank Hunt's own map D4 is clear ground."""
    g = _game()
    b = g.board
    assert (
        b.name,
        b.terrain[b.index("E5")],
        b.terrain[b.index("F5")],
        b.terrain[b.index("D4")],
    ) == ("test_ground", Terrain.CRATER, Terrain.BUILDING, Terrain.RIVER)
    orders = g.legal_orders()
    assert "US1 move NE to E5" in orders
    assert not any(o.endswith(" to D4") for o in orders)  # the river
    assert "US1 fire at the wall of F5" in orders
    assert not any("fire" in o and "G1" in o for o in orders)  # inside the hut, out of sight
    own = Game.from_position({k: v for k, v in POSITION.items() if k != "map"})
    assert "US1 move N to D4" in own.legal_orders()
    ev = g.play("US1 move NE to E5")
    assert ev[0]["mp"] == 2 and g.state.turn.mp_left == g.state.units[0].MV - 2


@pytest.mark.parametrize("roll,result", [(7, "wound"), (8, "miss")])
def test_fire_from_the_crater_with_forced_dice(roll, result):
    """RULES.md §8: a hit at or below the to-hit number (7 here: Thompson snap fire, WS +1, a
    standing target), a miss one above; the rolls are the position's ``dice`` (jam 0, hit,
    damage 5: a wound on the Hit Chart)."""
    g = _game()
    g.play("US1 move NE to E5")
    h = Game.from_position({**g.position(), "dice": [0, roll, 5]})
    assert h.board.origin == MAP
    fire = next(e for e in h.play("US1 snap fire at G2") if e["type"] == "fire")
    assert (fire["to_hit"], fire["result"], fire["rolls"]["hit"]) == (7, result, roll)
    p = h.position()
    assert Game.from_position(p).position() == p


def test_the_inline_map_round_trips_through_the_written_position():
    """The written position carries the map (``map:``), also through YAML and JSON text, and
    play goes on identically from it."""
    g = _game()
    g.play("US1 move NE to E5")
    p = g.position()
    assert p["map"] == MAP and p["mission"] == "tank_hunt"
    for q in (p, json.loads(json.dumps(p)), yaml.safe_dump(p)):
        h = Game.from_position(q)
        assert h.position() == p and h.state == g.state and h.board.origin == MAP
    h = Game.from_position(p)
    g.dice.force([0, 7, 5])
    h.dice.force([0, 7, 5])
    assert g.play("US1 snap fire at G2") == h.play("US1 snap fire at G2")
    assert h.position() == g.position()


def test_an_inline_mission_may_hold_its_map_inline():
    """An inline mission's ``map`` may be the map itself: it is read as the position's
    ``map`` (the mission then names the map by its name) and written back so."""
    mission = load_mission("tank_hunt").model_dump(by_alias=True, mode="json")
    mission["map"] = MAP
    g = Game.from_position({**copy.deepcopy(POSITION), "mission": mission, "map": None})
    assert g.board.origin == MAP and g.board.terrain[g.board.index("E5")] == Terrain.CRATER
    p = g.position()
    assert p["map"] == MAP and p["mission"]["map"] == "test_ground"
    assert Game.from_position(p).position() == p


def test_a_map_by_id_or_by_path():
    """A shipped map's id, or a map file's path, as the position's ``map``."""
    from ambush_env.core.world.board import resolve_map_path

    for ref in ("tank_hunt", str(resolve_map_path("tank_hunt"))):
        g = Game.from_position({k: v for k, v in POSITION.items() if k != "map"} | {"map": ref})
        assert g.board.name == "tank_hunt" and g.board.origin == ref
        p = g.position()
        assert p["map"] == ref and Game.from_position(p).position() == p


def test_a_game_is_not_set_to_a_position_on_another_map():
    """``set_state`` keeps a game's context: a position on another map is refused (field
    ``mission``, as for another mission), so that the env loads it on a game of its own."""
    g = Game.from_position({k: v for k, v in POSITION.items() if k != "map"})
    with pytest.raises(DataError) as e:
        g.set_state(_game().position())
    assert e.value.field == "mission"
    h = _game()
    h.set_state(h.position())  # its own map: fine


@pytest.mark.parametrize(
    "change,field",
    [
        (lambda m: m["hexes"].update(C3={"terrain": "lava"}), "map.hexes.C3.terrain"),
        (
            lambda m: m["hexes"].update(G7={"terrain": "clear", "building": "barn"}),
            "map.hexes.G7.building",
        ),
        (lambda m: m["hexes"].update(G7={"terrain": "road", "rise": 1}), "map.hexes.G7.rise"),
        (lambda m: m["hexes"].update(G7={"level": 4}), "map.hexes.G7.level"),
        (lambda m: m["hexes"].update(Z99={}), "map.hexes.Z99"),
        (lambda m: m.update(columns=99), "map.columns"),
        (lambda m: m.pop("name"), "map.name"),
        (lambda m: m.update(hexsides={"E5/G7": "wall"}), "map.hexsides.E5/G7"),
        (lambda m: m.update(hexsides={"E5/E6": "moat"}), "map.hexsides.E5/E6"),
        (lambda m: m.update(colour="green"), "map.colour"),
    ],
)
def test_a_malformed_inline_map_names_the_field(change, field):
    """The map file's own checks (core/world/board.py), the field under ``map.``."""
    m = copy.deepcopy(MAP)
    change(m)
    with pytest.raises(DataError) as e:
        _game(map=m)
    assert e.value.field == field


def test_other_bad_maps_are_named():
    """An unknown map id, a map too small for the mission's hexes, a map given with a
    generated mission's seed, and an inline mission holding another map than ``map``."""
    with pytest.raises(DataError) as e:
        _game(map="no_such_map")
    assert e.value.field == "map"
    with pytest.raises(DataError) as e:
        _game(map={**MAP, "columns": 8})
    assert e.value.field == "mission" and "off the map" in str(e.value)
    with pytest.raises(DataError) as e:
        _game(procedural=5)
    assert e.value.field == "map"
    mission = load_mission("tank_hunt").model_dump(by_alias=True, mode="json")
    mission["map"] = {**MAP, "name": "elsewhere"}
    with pytest.raises(DataError) as e:
        _game(mission=mission)
    assert e.value.field == "map"
