"""Line of sight: one test per situation seed 004 describes (RULES.md §3).

The test maps live in ``ambush_env/data/maps/los_*.yaml``; each one's ``notes`` maps the
diagram's letters to hexes. Every check also asserts that sight is reciprocal (the reverse
line with the stances swapped gives the same answer) and that :class:`SightCache` agrees with
:func:`line_of_sight`.
"""

from __future__ import annotations

import pytest

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import STANCE_NAMES
from ambush_env.core.world.board import Board, board_from_dict, load_board
from ambush_env.core.world.los import SightCache, SightResult, line_of_sight

_BOARDS: dict[str, Board] = {}
_CACHES: dict[int, SightCache] = {}


def board(name: str) -> Board:
    if name not in _BOARDS:
        _BOARDS[name] = load_board(name)
    return _BOARDS[name]


def see(
    b: Board, a: str, t: str, ss: str = "standing", st: str = "standing", vs=None, vt=None
) -> SightResult:
    """line_of_sight a -> t, checked for reciprocity and against the cache."""
    r = line_of_sight(
        b, a, t, sighter_stance=ss, target_stance=st, sighter_in_vehicle=vs, target_in_vehicle=vt
    )
    back = line_of_sight(
        b, t, a, sighter_stance=st, target_stance=ss, sighter_in_vehicle=vt, target_in_vehicle=vs
    )
    assert back.clear == r.clear, f"not reciprocal: {a}->{t} {r} but {t}->{a} {back}"
    assert (r.blocked_by is None) == r.clear
    cache = _CACHES.setdefault(id(b), SightCache(b))
    got = cache.can_see(
        b.index(a), b.index(t), STANCE_NAMES.index(ss), STANCE_NAMES.index(st), vs, vt
    )
    assert got == r.clear, f"SightCache disagrees on {a}->{t}"
    return r


def blocked(r: SightResult, by: str) -> bool:
    return not r.clear and r.blocked_by == by


# -- tracing the line -------------------------------------------------------------------------
def test_line_along_a_hexside_with_one_blocking_side_is_clear():
    """Seed 004, p. 17: a line exactly along the edge between a blocking and a clear hex is clear.

    RULES.md §3: A2-C2 runs along the B1/B2 hexside; B1 is woods, B2 clear.
    """
    assert see(board("los_hexside"), "A2", "C2").clear
    assert see(board("los_hexside"), "C2", "A2").clear


def test_line_along_a_hexside_between_two_blocking_hexes_is_blocked():
    """Seed 004, p. 17 / RULES.md §3: both nudged lines blocked (A6-C6 along B5/B6, both woods)."""
    r = see(board("los_hexside"), "A6", "C6")
    assert not r.clear and r.blocked_by in ("B5", "B6")


def test_line_through_vertices_is_clear_when_one_nudge_is_clear():
    """Seed 004, p. 17 / RULES.md §3: a line through a vertex is traced nudged to each side.

    A11-B15 passes through two vertices; nudged one way it crosses the woods B12, the other
    way only clear hexes. C11-D15 is the same line with woods on both sides (D12 and C14).
    """
    assert see(board("los_hexside"), "A11", "B15").clear
    r = see(board("los_hexside"), "C11", "D15")
    assert blocked(r, "C14")  # the nudge that gets further is stopped at C14
    assert blocked(line_of_sight(board("los_hexside"), "D15", "C11"), "D12")


# -- elevation ---------------------------------------------------------------------------------
def test_diagram_a_to_b_blocked_by_hexes_higher_than_both():
    """Seed 004, p. 18: A to B is blocked because the hexes between them are higher than both."""
    assert blocked(see(board("los_elevation"), "B2", "B8"), "B4")
    assert blocked(see(board("los_elevation"), "B8", "B2"), "B6")


def test_diagram_c_to_d_clear_when_everything_between_is_lower_or_level():
    """Seed 004, p. 18: C to D is clear: everything between is lower or level, nothing blocking."""
    assert see(board("los_elevation"), "E1", "E9").clear


def test_terrain_lower_than_both_hexes_never_blocks():
    """Seed 004, p. 17: at different elevations terrain lower than both never blocks.

    G2 and G8 (level 1) look across woods at G5 in a level-0 valley.
    """
    assert see(board("los_elevation"), "G2", "G8").clear


def test_ground_higher_than_one_endpoint_but_not_both_does_not_block():
    """Seed 004, p. 17: only a hex higher than both sighting hexes blocks; a slope does not."""
    b = board("los_elevation")
    assert see(b, "E1", "E6").clear  # E3-E4 at level 1 lie between level 2 and level 0
    assert see(b, "E9", "E2").clear


def test_embankment_blocks_when_not_adjacent_to_the_higher_hex():
    """Seed 004, p. 19: A to B is blocked: the embankment at Q16/Q17 is higher than B and not
    adjacent to A."""
    assert blocked(see(board("los_embankment"), "Q12", "Q19"), "Q16/Q17")
    assert blocked(see(board("los_embankment"), "Q19", "Q12"), "Q16/Q17")


def test_embankment_adjacent_to_the_higher_hex_does_not_block():
    """Seed 004, p. 19: D to B is clear because the embankment is adjacent to D."""
    assert see(board("los_embankment"), "Q16", "Q19").clear
    assert see(board("los_embankment"), "Q19", "Q16").clear


def test_embankment_between_hexes_of_one_level_does_nothing():
    """Seed 004, p. 17: between hexes on the same level an embankment does nothing."""
    with pytest.warns(UserWarning):
        b = board_from_dict(
            {
                "name": "t",
                "columns": 3,
                "rows": 6,
                "hexes": {"A1": {"level": 1}},
                "hexsides": {"A3/A4": "embankment"},
            }
        )
    assert see(b, "A1", "A6").clear


def test_simple_slope_does_not_block_but_an_embankment_would():
    """Seed 004, p. 20: a simple slope does not block A to B; it would if it were an embankment."""
    b = board("los_slope")
    assert see(b, "C2", "C6").clear
    assert blocked(see(b, "G2", "G6"), "G3/G4")


def test_crest_always_blocks_even_as_a_side_of_an_endpoint():
    """Seed 004, p. 18: crest hexsides always block (RULES.md §3: even an endpoint's hexside)."""
    b = board_from_dict({"name": "t", "columns": 3, "rows": 8, "hexsides": {"B3/B4": "crest"}})
    assert blocked(see(b, "B3", "B4"), "B3/B4")
    assert blocked(see(b, "B1", "B7"), "B3/B4")
    assert see(b, "A1", "A8").clear


# -- woods, brush, rubble and rough --------------------------------------------------------------
def test_village_brush_at_the_same_level_blocks_a_to_b():
    """Seed 004, p. 20: brush at the same level blocks A to B (p. 18: seen into, not through)."""
    assert blocked(see(board("los_village"), "C2", "C6"), "C4")


def test_village_woods_adjacent_to_and_higher_than_c_block_a_and_b():
    """Seed 004, p. 20: woods adjacent to and higher than C block A to C and B to C."""
    assert blocked(see(board("los_village"), "C2", "H4"), "G4")
    assert blocked(see(board("los_village"), "C6", "H4"), "G5")


def test_village_b_to_d_passes_over_the_woods():
    """Seed 004, p. 20: B to D passes over the woods (not adjacent to either soldier)."""
    assert see(board("los_village"), "C6", "M4").clear


def test_village_line_into_a_blocking_hex_is_clear():
    """Seed 004, p. 20: lines into a blocking hex, such as to E, are clear; not through it."""
    assert see(board("los_village"), "C6", "C8").clear
    assert blocked(see(board("los_village"), "C6", "C10"), "C8")


def test_lower_obstacle_adjacent_to_the_higher_soldier_is_looked_over():
    """Seed 004, p. 18: between elevations such a hex blocks only when adjacent to a soldier and
    at his level; a lower adjacent hex is looked over."""
    b = board_from_dict(
        {
            "name": "t",
            "columns": 3,
            "rows": 8,
            "hexes": {"A1": {"level": 1}, "A2": {"terrain": "woods"}},
        }
    )
    assert see(b, "A1", "A6").clear  # woods below A1, not adjacent to A6
    assert blocked(see(b, "A1", "A3"), "A2")  # woods at A3's level and adjacent to it


@pytest.mark.parametrize("terrain", ["woods", "brush", "rubble", "rough"])
def test_woods_brush_rubble_rough_block_at_the_same_elevation(terrain):
    """Seed 004, p. 18: at the same elevation woods, brush, rubble and rough always block."""
    b = board_from_dict(
        {"name": "t", "columns": 3, "rows": 6, "hexes": {"B3": {"terrain": terrain}}}
    )
    assert blocked(see(b, "B1", "B5"), "B3")
    assert see(b, "B1", "B3").clear


@pytest.mark.parametrize("terrain", ["clear", "road", "river", "crater"])
def test_other_terrain_does_not_block(terrain):
    """Seed 004, p. 18: all other terrain does not block."""
    b = board_from_dict(
        {"name": "t", "columns": 3, "rows": 6, "hexes": {"B3": {"terrain": terrain}}}
    )
    assert see(b, "B1", "B5").clear


# -- buildings and the steeple ---------------------------------------------------------------------
def test_church_steeple_blocks_lines_between_level_2_hexes():
    """Seed 004, p. 18: the steeple in S13 on Map B is two levels tall and blocks lines between
    level-2 hexes."""
    assert blocked(see(board("los_steeple"), "S8", "S18"), "S13")
    assert blocked(see(board("los_steeple"), "S18", "S8"), "S13")


def test_a_one_storey_building_does_not_block_level_2_lines():
    """Seed 004, p. 18 / RULES.md §3: a building hex without rise is terrain at its ground level."""
    assert see(board("los_steeple"), "W8", "W18").clear


def test_a_tall_building_is_looked_over_from_higher_ground_and_blocks_lower():
    """RULES.md §3 buildings: lb < min never blocks (level 3 over a rise-2 tower); lb > max does."""
    assert see(board("los_steeple"), "Q8", "Q18").clear
    assert blocked(see(board("los_steeple"), "Q9", "Q17"), "Q13")


def test_soldier_in_the_steeple_stands_at_ground_level():
    """RULES.md §3: a soldier in a rise hex stands at its ground level (the steeple is not climbed).

    From S13 (level 0) to S17 (level 2) the woods at S14 are adjacent to him at his level.
    """
    assert blocked(see(board("los_steeple"), "S13", "S17"), "S14")


# -- apertures (seed 004 table, p. 18-19) ---------------------------------------------------------
def test_prone_inside_never_sees_through_a_window_nor_is_seen():
    """Seed 004, p. 18 table, prone inside: never sees through a window, nor is seen through one."""
    b = board("los_apertures")
    assert see(b, "E5", "E3").clear
    assert blocked(see(b, "E5", "E3", ss="prone"), "aperture:prone_window")
    assert blocked(see(b, "E3", "E5", st="prone"), "aperture:prone_window")
    assert blocked(see(b, "E4", "E5", st="prone"), "aperture:prone_window")


def test_prone_inside_sees_only_the_adjacent_hex_through_a_door():
    """Seed 004, p. 18 table, prone inside: only sees an adjacent hex through a door."""
    b = board("los_apertures")
    assert see(b, "E6", "E7", ss="prone").clear
    assert see(b, "E7", "E6", ss="prone", st="prone").clear
    assert blocked(see(b, "E6", "E8", ss="prone"), "aperture:prone_door")
    assert blocked(see(b, "E9", "E6", st="prone"), "aperture:prone_door")


def test_crouching_at_a_window_misses_low_soldiers_right_outside():
    """Seed 004, p. 18 table: crouching at a window cannot see, nor be seen by, a crouching or
    prone soldier in the hex right outside that window."""
    b = board("los_apertures")
    for low in ("crouching", "prone"):
        assert blocked(see(b, "E5", "E4", ss="crouching", st=low), "aperture:crouching_window")
        assert blocked(see(b, "E4", "E5", ss=low, st="crouching"), "aperture:crouching_window")
    assert see(b, "E5", "E4", ss="crouching", st="standing").clear
    assert see(b, "E5", "E3", ss="crouching", st="prone").clear  # not right outside


def test_standing_at_a_window_or_any_stance_at_a_door_sees_the_whole_field_of_view():
    """Seed 004, p. 18 table: standing at a window, or any stance at a door, sees the aperture's
    whole field of view (p. 19: the shaded hexes), and nothing outside it."""
    b = board("los_apertures")
    for st in STANCE_NAMES:
        assert see(b, "E5", "E4", st=st).clear
        assert see(b, "E5", "E2", st=st).clear
        assert see(b, "E5", "D2", st=st).clear
    for ss in ("standing", "crouching"):
        assert see(b, "E6", "E7", ss=ss, st="prone").clear
        assert see(b, "E6", "E8", ss=ss, st="prone").clear
        assert see(b, "E6", "F8", ss=ss).clear
    # Outside the field of view: lines leaving through a plain wall.
    assert blocked(see(b, "E5", "H5"), "E5/F5")
    assert blocked(see(b, "E6", "B6"), "D6/E6")


def test_non_adjacent_aperture_is_crossed_only_one_hex_deep():
    """Seed 004, p. 18 table: a line may cross a non-adjacent aperture only one hex deep."""
    b = board("los_apertures")
    assert see(b, "E2", "E5").clear
    assert blocked(see(b, "E2", "E6"), "E5")


def test_non_aperture_hexside_gives_no_line_of_sight():
    """Seed 004, p. 18 table: no line of sight across a hexside without an aperture."""
    b = board("los_apertures")
    assert blocked(see(b, "F5", "E5"), "E5/F5")
    assert blocked(see(b, "E5", "F5"), "E5/F5")
    assert blocked(see(b, "H6", "E5"), "E5/F5")


def test_never_through_a_building_at_the_same_elevation():
    """Seed 004, p. 18 table: through a building: never at the same elevation as both hexes,
    even straight through a window and a door."""
    assert blocked(see(board("los_apertures"), "E3", "E8"), "E5")


def test_through_a_building_between_levels_blocked_when_nearer_the_lower_soldier():
    """Seed 004, p. 18 table: between levels a building blocks if it is nearer the lower soldier
    or equidistant; nearer the higher one it is looked over (walls and all)."""
    b = board("los_apertures")
    assert see(b, "B1", "B8").clear  # shed B3: 2 from B1 (level 1), 5 from B8
    assert blocked(see(b, "B1", "B4"), "B3")  # adjacent to the lower soldier
    assert blocked(see(b, "B1", "B5"), "B3")  # equidistant


def test_two_buildings_both_soldiers_must_be_in_each_others_field_of_view():
    """Seed 004, p. 18 table: two buildings: both soldiers must be in each other's field of view."""
    b = board("los_apertures")
    assert see(b, "E6", "E9").clear  # house door faces the barn window
    assert see(b, "E6", "E9", ss="crouching", st="crouching").clear
    assert blocked(see(b, "E6", "E9", ss="prone"), "aperture:prone_door")
    assert blocked(see(b, "E6", "E9", st="prone"), "aperture:prone_window")
    assert blocked(see(b, "E6", "G10"), "G9/G10")  # the mill's window faces away


# -- vehicles (seed 004, p. 18) ---------------------------------------------------------------------
@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("stance", STANCE_NAMES)
def test_adjacent_vehicle_sees_a_doorway_soldier_in_any_stance(size, stance):
    """Seed 004, p. 18: from an adjacent vehicle, a soldier in a doorway hex is seen in any stance."""
    assert see(board("los_apertures"), "E7", "E6", st=stance, vs=size).clear
    assert see(board("los_apertures"), "E6", "E7", ss=stance, vt=size).clear


def test_adjacent_vehicle_sees_a_crouching_soldier_behind_a_window_only_if_large():
    """Seed 004, p. 18: a crouching soldier behind a window is seen only from a large vehicle."""
    b = board("los_apertures")
    assert see(b, "E4", "E5", st="crouching", vs="large").clear
    assert blocked(see(b, "E4", "E5", st="crouching", vs="small"), "vehicle:small_vehicle_window")
    assert blocked(see(b, "E5", "E4", ss="crouching", vt="small"), "vehicle:small_vehicle_window")
    assert see(b, "E4", "E5", st="standing", vs="small").clear


def test_adjacent_vehicle_never_sees_a_prone_soldier_behind_a_window():
    """Seed 004, p. 18: a prone soldier behind a window is never seen from a vehicle."""
    for size in ("small", "large"):
        assert blocked(
            see(board("los_apertures"), "E4", "E5", st="prone", vs=size), "aperture:prone_window"
        )


def test_non_adjacent_vehicles_see_like_soldiers():
    """Seed 004, p. 18: non-adjacent vehicles see like soldiers (open or closed alike)."""
    b = board("los_apertures")
    for size in ("small", "large"):
        for stance in STANCE_NAMES:
            on_foot = line_of_sight(b, "E2", "E5", target_stance=stance)
            assert see(b, "E2", "E5", st=stance, vs=size).clear == on_foot.clear
        assert see(b, "E2", "E5", st="crouching", vs=size).clear
        assert blocked(see(b, "B1", "B4", vs=size, vt=size), "B3")


def test_a_vehicle_cannot_be_in_a_building_hex():
    with pytest.raises(AmbushError, match="building hex E5"):
        line_of_sight(board("los_apertures"), "E5", "E3", sighter_in_vehicle="small")
