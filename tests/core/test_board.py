"""The map loader and the live board (RULES.md §2, §15)."""

from __future__ import annotations

import json
import pickle
import warnings

import pytest
import yaml

from ambush_env.core.model.errors import AmbushError, DataError
from ambush_env.core.model.types import Direction, Terrain
from ambush_env.core.world.board import Board, board_from_dict, load_board

# The map-file example of RULES.md §15.
EXAMPLE = """
name: hedgerow-crossing
columns: 16            # A..P
rows: 12
default: {terrain: clear, level: 0}
hexes:
  C4: {terrain: woods}
  D5: {terrain: building, building: farm}
  J3: {terrain: building, building: church, rise: 2}
  G6: {level: 1}
  H6: {level: 1}
hexsides:
  G6/G7: embankment
  H5/H6: crest
  D5/D6: {wall: stone, aperture: door}
  D5/E5: {wall: wood, aperture: window}
"""


def _write(tmp_path, text, name="map.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _raw(**over):
    raw = yaml.safe_load(EXAMPLE)
    raw.update(over)
    return raw


@pytest.fixture
def example(tmp_path) -> Board:
    return load_board(_write(tmp_path, EXAMPLE))


def test_rules_example_loads(example):
    """RULES.md §15: the example map file loads with its terrain, levels and hexsides."""
    b = example
    assert (b.name, b.columns, b.rows, b.n) == ("hedgerow-crossing", 16, 12, 192)
    c4 = b.index("C4")
    assert b.terrain[c4] == Terrain.WOODS and b.level[c4] == 0
    j3 = b.index("J3")
    assert b.terrain[j3] == Terrain.BUILDING and b.building[j3] == "church" and b.rise[j3] == 2
    assert b.level[b.index("G6")] == 1 and b.level[b.index("A1")] == 0
    g = b.hexside(b.index("G6"), b.index("G7"))
    assert g.embankment and not g.crest and g.wall is None
    assert b.hexside(b.index("H5"), b.index("H6")).crest
    door = b.hexside(b.index("D5"), b.index("D6"))
    assert (door.wall, door.aperture) == ("stone", "door")
    window = b.hexside(b.index("E5"), b.index("D5"))
    assert (window.wall, window.aperture) == ("wood", "window")


def test_building_hexes_are_walled_round(example):
    """RULES.md §2: every hexside between a building hex and a hex outside it is a stone wall."""
    b = example
    d5 = b.index("D5")
    for j in b.neighbors[d5]:
        side = b.hexside(d5, j)
        assert side.wall in ("stone", "wood")
    n = b.hexside(d5, b.index("D4"))
    assert (n.wall, n.aperture) == ("stone", None)
    assert b.hexside(b.index("A1"), b.index("A2")).wall is None


def test_hexes_of_one_building_are_open_between_them():
    """RULES.md §2: hexsides between two hexes of the same building are open."""
    b = board_from_dict(
        {
            "name": "t",
            "columns": 5,
            "rows": 5,
            "hexes": {
                "B2": {"building": "barn"},
                "B3": {"terrain": "building", "building": "barn"},
                "C3": {"terrain": "building", "building": "shed"},
            },
        }
    )
    assert b.hexside(b.index("B2"), b.index("B3")).wall is None
    assert b.hexside(b.index("B3"), b.index("C3")).wall == "stone"  # two buildings
    assert b.terrain[b.index("B2")] == Terrain.BUILDING  # "building:" alone implies the terrain


def test_single_building_hex_gets_its_label_as_id():
    b = board_from_dict(
        {"name": "t", "columns": 3, "rows": 3, "hexes": {"B2": {"terrain": "building"}}}
    )
    assert b.building[b.index("B2")] == "B2"


def test_wall_none_opens_a_building_side_and_field_walls_are_allowed():
    b = board_from_dict(
        {
            "name": "t",
            "columns": 4,
            "rows": 4,
            "hexes": {"B2": {"terrain": "building"}},
            "hexsides": {"B2/B3": {"wall": "none"}, "C3/C4": "wall"},
        }
    )
    assert b.hexside(b.index("B2"), b.index("B3")).wall is None
    assert b.hexside(b.index("C3"), b.index("C4")).wall == "stone"


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        ({"hexes": {"Q1": {"terrain": "swamp"}}}, None, "off the board"),
        ({"hexes": {"C4": {"terrain": "swamp"}}}, "hexes.C4.terrain", "unknown terrain 'swamp'"),
        ({"hexes": {"C4": {"level": 4}}}, "hexes.C4.level", "outside 0-3"),
        ({"hexes": {"C4": {"level": -1}}}, "hexes.C4.level", "outside 0-3"),
        ({"hexes": {"Z99": {"level": 1}}}, "hexes.Z99", "off the board"),
        ({"hexes": {"c4": {"level": 1}}}, "hexes.c4", "malformed"),
        (
            {"hexes": {"C4": {"building": "x"}, "G6": {"level": 1}}},
            None,
            None,
        ),  # implies building terrain
        ({"hexes": {"C4": {"terrain": "woods", "building": "x"}}}, "hexes.C4.building", "woods"),
        ({"hexes": {"C4": {"rise": 1}}}, "hexes.C4.rise", "only building"),
        ({"hexes": {"C4": {"terrain": "building", "rise": 5}}}, "hexes.C4.rise", "outside 0-3"),
        ({"hexes": {"C4": {"colour": "red"}}}, "hexes.C4.colour", "xtra"),
        ({"hexsides": {"D5/D7": "crest"}}, "hexsides.D5/D7", "not adjacent"),
        ({"hexsides": {"D5/Z7": "crest"}}, "hexsides.D5/Z7", "off the board"),
        ({"hexsides": {"D5": "crest"}}, "hexsides.D5", "two hexes"),
        ({"hexsides": {"D5/D6": "moat"}}, "hexsides.D5/D6", "unknown hexside feature 'moat'"),
        ({"hexsides": {"D5/D6": {"wall": "brick"}}}, "hexsides.D5/D6.wall", None),
        ({"hexsides": {"D5/D6": 3}}, "hexsides.D5/D6", None),
        ({"hexsides": {"A1/A2": {"aperture": "door"}}}, "hexsides.A1/A2.aperture", "needs a wall"),
        ({"hexsides": {"A1/A2": "crest", "A2/A1": "slope"}}, "hexsides.A2/A1", "twice"),
        ({"default": {"terrain": "building"}}, "default.terrain", "cannot be building"),
        ({"default": {"level": 7}}, "default.level", "outside 0-3"),
        ({"columns": 0}, "columns", None),
        (
            {"rows": 999},
            "rows",
            None,
        ),  # beyond the observation (and the memory of the sight tables)
        ({"columns": 33}, "columns", None),
    ],
)
def test_bad_maps_raise_data_error_naming_file_and_field(tmp_path, change, field, problem):
    """RULES.md §2: a bad map is a DataError naming the file and the field (docs/STYLE.md habit 3)."""
    raw = _raw(**change)
    if change == {"hexes": {"Q1": {"terrain": "swamp"}}}:
        raw["columns"] = 3  # Q is off a 3-column board
    path = _write(tmp_path, yaml.safe_dump(raw))
    if field is None and problem is None:
        load_board(path)
        return
    with pytest.raises(DataError) as e:
        load_board(path)
    assert str(path) in str(e.value)
    if field is not None:
        assert e.value.field == field
    if problem is not None:
        assert problem in e.value.problem


def test_missing_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="file not found"):
        load_board(tmp_path / "nope.yaml")
    with pytest.raises(DataError):
        load_board("no_such_shipped_map")


def test_embankment_between_equal_levels_warns_but_loads():
    """RULES.md §2: an embankment between hexes of one level is allowed; the loader warns."""
    with pytest.warns(UserWarning, match="hexsides.A1/A2: embankment between two hexes of level 0"):
        b = board_from_dict(
            {"name": "t", "columns": 3, "rows": 3, "hexsides": {"A1/A2": "embankment"}}
        )
    assert b.hexside(0, 3).embankment


def test_level_difference_embankment_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        board_from_dict(
            {
                "name": "t",
                "columns": 3,
                "rows": 3,
                "hexes": {"A1": {"level": 1}},
                "hexsides": {"A1/A2": "embankment"},
            }
        )


def test_shipped_map_loads_by_name():
    """load_board("los_slope") finds ambush_env/data/maps/los_slope.yaml."""
    assert load_board("los_slope").name == "los-slope"
    assert load_board("los_slope.yaml").name == "los-slope"


def test_addressing(example):
    b = example
    q = b.index("P12")
    assert b.label(q) == "P12" and b.coords(q) == (15, 11) and q == 11 * 16 + 15
    with pytest.raises(AmbushError, match="'Q3' is off the board"):
        b.index("Q3")
    with pytest.raises(AmbushError, match="malformed hex label 'x'"):
        b.index("x")
    c5 = b.index("C5")
    assert [b.label(j) for j in b.neighbors[c5]] == ["C4", "D4", "D5", "C6", "B5", "B4"]
    assert b.neighbors[b.index("A1")][Direction.N] == -1
    assert b.direction(c5, b.index("D5")) == Direction.SE
    assert b.direction(c5, b.index("E5")) is None
    assert b.distance(b.index("A1"), b.index("P12")) == b.distance_table()[0, b.index("P12")]
    within = b.hexes_within(c5, 1)
    assert sorted(within) == sorted([c5, *b.neighbors[c5]])
    assert len(b.hexes_within(b.index("H6"), 2)) == 19
    assert b.offset_hex(c5, 1, 0) == b.index("D5") and b.offset_hex(0, -1, 0) == -1


def test_hexside_label_puts_lower_column_then_lower_row_first(example):
    """RULES.md §3: hexside labels name the lower column, then the lower row, first."""
    b = example
    assert b.hexside_label(b.index("G7"), b.index("G6")) == "G6/G7"
    assert b.hexside_label(b.index("E5"), b.index("D5")) == "D5/E5"
    assert b.hexside(b.index("A1"), b.index("C1")) is None


def test_destroy_wall_clears_the_side_and_bumps_version(example):
    """Seed 002 / RULES.md §2: a destroyed wall becomes a clear hexside."""
    b = example
    d5, d6 = b.index("D5"), b.index("D6")
    v = b.version
    assert b.destroy_wall(d6, d5)
    side = b.hexside(d5, d6)
    assert side.destroyed and side.wall is None and side.aperture is None
    assert b.version == v + 1
    assert not b.destroy_wall(d5, d6)  # nothing left to destroy: no change
    assert b.version == v + 1
    with pytest.raises(AmbushError, match="not adjacent"):
        b.destroy_wall(d5, b.index("H9"))


def test_collapse_turns_a_building_hex_into_rubble(example):
    """Seed 002 / RULES.md §11: a collapsed building hex becomes rubble and its walls go."""
    b = example
    d5 = b.index("D5")
    b.collapse(d5)
    assert b.terrain[d5] == Terrain.RUBBLE and b.building[d5] is None and b.rise[d5] == 0
    for j in b.neighbors[d5]:
        assert b.hexside(d5, j).wall is None
    with pytest.raises(AmbushError, match="not a building hex"):
        b.collapse(d5)


def test_mutable_state_round_trips_through_json(example):
    b = example
    pristine = b.mutable_state()
    assert pristine == {"collapsed": [], "destroyed_walls": []}
    b.destroy_wall(b.index("D5"), b.index("E5"))
    b.collapse(b.index("J3"))
    state = json.loads(json.dumps(b.mutable_state()))
    assert state["collapsed"] == ["J3"] and "D5/E5" in state["destroyed_walls"]
    fresh = load_board_like(b)
    fresh.set_mutable_state(state)
    assert fresh.mutable_state() == state
    assert fresh.terrain == b.terrain and fresh.side_destroyed == b.side_destroyed
    b.set_mutable_state({})
    assert b.mutable_state() == pristine and b.terrain[b.index("J3")] == Terrain.BUILDING
    assert b.rise[b.index("J3")] == 2
    with pytest.raises(AmbushError):
        b.set_mutable_state({"destroyed_walls": ["D5-E5"]})


def load_board_like(b: Board) -> Board:
    fresh = b.copy()
    fresh.set_mutable_state({})
    return fresh


def test_change_log_names_what_changed(example):
    b = example
    v = b.version
    d5, e5 = b.index("D5"), b.index("E5")
    b.destroy_wall(d5, e5)
    hexes, sides = b.changes_since(v)
    assert hexes == set() and sides == {b.side_between(d5, e5)}
    assert b.changes_since(b.version) == (set(), set())
    b.set_mutable_state({})
    hexes, sides = b.changes_since(v + 1)
    assert sides == {b.side_between(d5, e5)}


def test_copy_is_independent(example):
    b = example
    c = b.copy()
    c.collapse(c.index("D5"))
    assert b.terrain[b.index("D5")] == Terrain.BUILDING
    assert c.terrain[c.index("D5")] == Terrain.RUBBLE
    assert pickle.loads(pickle.dumps(c)).terrain == c.terrain


def test_live_key_names_the_live_map_not_its_history(example):
    """``Board.live_key``: equal live maps give equal keys (a reset restores the key the
    version cannot), every mutation that changes the map changes it, and copies keep it."""
    b = example
    d5, e5, j3 = b.index("D5"), b.index("E5"), b.index("J3")
    pristine = b.live_key()
    assert pristine == ((), ())
    b.destroy_wall(d5, e5)
    walled = b.live_key()
    assert walled == ((), (b.side_between(d5, e5),))
    b.collapse(j3)
    collapsed = b.live_key()
    assert collapsed[0] == (j3,) and set(walled[1]) < set(collapsed[1])
    c = b.copy()
    assert c.live_key() == collapsed
    c.set_mutable_state({})
    assert c.live_key() == pristine and b.live_key() == collapsed  # independent
    b.set_mutable_state({})
    assert b.live_key() == pristine and b.version > 0
    b.set_mutable_state({"destroyed_walls": ["D5/E5"]})
    assert b.live_key() == walled


def test_distance_row_matches_distance(example):
    b = example
    for i in (0, b.n // 2, b.n - 1):
        assert b.distance_row(i) == tuple(b.distance(i, j) for j in range(b.n))
    b2 = b.copy()
    b2._drows = None  # a map too large for the precomputed rows computes them
    assert b2.distance_row(3) == b.distance_row(3)


def test_the_largest_map_is_the_one_the_observation_holds():
    """⚙ board.MAX_COLUMNS × MAX_ROWS = env/spec.py's BOARD_W × BOARD_H."""
    from ambush_env.core.world import board
    from ambush_env.env import spec

    assert (board.MAX_COLUMNS, board.MAX_ROWS) == (spec.BOARD_W, spec.BOARD_H)
