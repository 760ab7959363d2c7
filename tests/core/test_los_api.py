"""Line of sight: the public API, the cache, the live map, the command (RULES.md §3, docs/API.md)."""

from __future__ import annotations

import argparse
import pickle

import numpy as np
import pytest

from ambush_env.cli_los import add_los_parser
from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import STANCE_NAMES, Stance
from ambush_env.core.world.board import board_from_dict, load_board
from ambush_env.core.world.los import SightCache, SightResult, line_of_sight

LOS_MAPS = [
    "los_hexside",
    "los_elevation",
    "los_embankment",
    "los_village",
    "los_slope",
    "los_steeple",
    "los_apertures",
]


@pytest.fixture
def apertures():
    """A fresh copy of the apertures test map (tests here mutate it)."""
    return load_board("los_apertures")


# -- arguments ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"sighter": "Z99"}, "'Z99' is off the board"),
        ({"target": "e5"}, "malformed hex label 'e5'"),
        ({"sighter_stance": "kneeling"}, "sighter_stance 'kneeling'"),
        ({"target_stance": 7}, "target_stance 7"),
        ({"sighter_in_vehicle": "huge"}, "sighter_in_vehicle 'huge'"),
        ({"target_in_vehicle": "tank"}, "target_in_vehicle 'tank'"),
    ],
)
def test_bad_arguments_raise_naming_them(apertures, kwargs, match):
    """RULES.md §3 / docs/STYLE.md habit 2: a bad label or stance is an AmbushError naming it."""
    args = {"sighter": "E2", "target": "E5", **kwargs}
    with pytest.raises(AmbushError, match=match):
        line_of_sight(apertures, args.pop("sighter"), args.pop("target"), **args)


def test_stance_values_are_accepted_as_well_as_names(apertures):
    r = line_of_sight(apertures, "E5", "E3", sighter_stance=Stance.PRONE)
    assert r == SightResult(False, "aperture:prone_window") and not r


def test_a_hex_sees_itself():
    b = load_board("los_apertures")
    for st in STANCE_NAMES:
        assert line_of_sight(b, "E5", "E5", sighter_stance=st, target_stance="prone").clear
    assert SightCache(b).can_see(3, 3, 2, 2)


def test_map_edge_nudge_does_not_count():
    """RULES.md §3 (reading): a nudged trace that leaves the map is not a line on the map.

    A1-C1 runs along the top edge of B1: the only trace on the map crosses B1.
    """
    b = board_from_dict(
        {"name": "t", "columns": 4, "rows": 3, "hexes": {"B1": {"terrain": "woods"}}}
    )
    r = line_of_sight(b, "A1", "C1")
    assert not r.clear and r.blocked_by in ("B1", "map_edge")
    assert not SightCache(b).can_see(0, 2)
    empty = board_from_dict({"name": "t", "columns": 4, "rows": 3})
    assert line_of_sight(empty, "A1", "C1").clear


# -- mission rules: sight cap and landmarks ---------------------------------------------------------
def test_sight_cap_blocks_longer_lines():
    """RULES.md §3: a mission may cap sight range (night)."""
    b = board_from_dict({"name": "t", "columns": 3, "rows": 9})
    assert line_of_sight(b, "B1", "B4", sight_cap=3).clear
    assert line_of_sight(b, "B1", "B5", sight_cap=3) == SightResult(False, "sight_cap")
    cache = SightCache(b, sight_cap=3)
    assert cache.can_see(b.index("B1"), b.index("B4")) and not cache.can_see(
        b.index("B1"), b.index("B5")
    )
    assert cache.visible_from(b.index("B1")).sum() == len(b.hexes_within(b.index("B1"), 3))
    assert cache.line_of_sight("B1", "B5").blocked_by == "sight_cap"


def test_landmarks_block_only_when_declared():
    """Seed 004, p. 18: landmarks block only when a briefing or paragraph declares them blocking."""
    b = board_from_dict(
        {"name": "t", "columns": 3, "rows": 7, "hexes": {"B4": {"landmark": "mill"}}}
    )
    assert line_of_sight(b, "B1", "B7").clear
    assert line_of_sight(b, "B1", "B7", blocking_landmarks=("mill",)) == SightResult(False, "B4")
    assert not line_of_sight(b, "B1", "B7", blocking_landmarks=["B4"]).clear
    assert line_of_sight(b, "B1", "B4", blocking_landmarks=("mill",)).clear  # seen into
    assert line_of_sight(b, "B1", "B7", blocking_landmarks=("tower",)).clear
    i, j = b.index("B1"), b.index("B7")
    assert SightCache(b).can_see(i, j)
    assert not SightCache(b, blocking_landmarks=("mill",)).can_see(i, j)


# -- the cache ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", LOS_MAPS)
def test_cache_agrees_with_line_of_sight_on_every_test_map(name):
    """SightCache.can_see equals line_of_sight for sampled pairs and all nine stance pairs."""
    b = load_board(name)
    cache = SightCache(b)
    rng = np.random.default_rng(11)
    pairs = rng.integers(0, b.n, size=(150, 2))
    for i, j in pairs:
        for ss in range(3):
            for st in range(3):
                want = line_of_sight(
                    b, b.label(i), b.label(j), sighter_stance=ss, target_stance=st
                ).clear
                assert cache.can_see(int(i), int(j), ss, st) == want, (
                    b.label(i),
                    b.label(j),
                    ss,
                    st,
                )


def test_cache_queries(apertures):
    b = apertures
    cache = SightCache(b)
    e5, e3 = b.index("E5"), b.index("E3")
    vis = cache.visible_from(e5, Stance.STANDING, Stance.STANDING)
    assert vis.shape == (b.n,) and vis.dtype == bool and vis[e3] and vis[e5]
    assert not cache.visible_from(e5, Stance.PRONE)[e3]
    m = cache.matrix(Stance.CROUCHING, Stance.PRONE)
    assert m.shape == (b.n, b.n) and not m.flags.writeable
    assert m[e5, b.index("E4")] == cache.can_see(e5, b.index("E4"), 1, 2) == False  # noqa: E712
    assert cache.sees("E5", "E3") and not cache.sees("E5", "E3", "prone")
    assert cache.line_of_sight("E5", "E3", sighter_stance="prone") == SightResult(
        False, "aperture:prone_window"
    )
    with pytest.raises(AmbushError):
        cache.sees("E5", "Z1")


def test_cache_vehicle_queries_match_line_of_sight(apertures):
    b = apertures
    cache = SightCache(b)
    e4, e5 = b.index("E4"), b.index("E5")
    assert cache.can_see(e4, e5, 0, Stance.CROUCHING, sighter_in_vehicle="large")
    assert not cache.can_see(e4, e5, 0, Stance.CROUCHING, sighter_in_vehicle="small")
    assert not cache.can_see(e5, e4, Stance.PRONE, 0, target_in_vehicle="large")


# -- the live map (issue 3: a wall destroyed mid-game changes sight at once) ------------------------
def test_destroyed_wall_changes_sight_at_once(apertures):
    """RULES.md §2-3 / seed 002: a destroyed wall becomes a clear hexside, for both entry points."""
    b = apertures
    cache = SightCache(b)
    e5, f5, h6 = b.index("E5"), b.index("F5"), b.index("H6")
    assert line_of_sight(b, "E5", "F5") == SightResult(False, "E5/F5")
    assert not cache.can_see(e5, f5) and not cache.can_see(h6, e5)
    assert cache.line_of_sight("H6", "E5").blocked_by == "E5/F5"
    assert b.destroy_wall(e5, f5)
    assert line_of_sight(b, "E5", "F5").clear
    assert line_of_sight(b, "E5", "F5", sighter_stance="prone").clear  # a breach, not a window
    assert cache.can_see(e5, f5) and cache.can_see(h6, e5, 0, 2) and cache.can_see(e5, h6, 2, 0)
    assert cache.visible_from(e5)[h6]
    assert cache.line_of_sight("H6", "E5").clear  # the memo was dropped
    # Restoring the saved state brings the wall back, and the cache follows.
    b.set_mutable_state({})
    assert not cache.can_see(e5, f5) and not line_of_sight(b, "E5", "F5").clear
    np.testing.assert_array_equal(cache._vis, SightCache(b)._vis)


def test_collapsed_building_hex_is_rubble_for_sight(apertures):
    """Seed 002 / RULES.md §2: a collapsed building hex becomes rubble; sight follows the live map."""
    b = apertures
    cache = SightCache(b)
    e2, e5, e6 = b.index("E2"), b.index("E5"), b.index("E6")
    assert not cache.can_see(e5, b.index("F5"))
    b.collapse(e5)
    assert line_of_sight(b, "E2", "E5").clear  # into the rubble
    assert line_of_sight(b, "E2", "E6") == SightResult(False, "E5")  # not through it
    assert cache.can_see(e2, e5) and not cache.can_see(e2, e6)
    assert cache.can_see(e5, b.index("F5"), 2, 2)  # rubble has no walls
    np.testing.assert_array_equal(cache._vis, SightCache(b)._vis)
    cache.invalidate()


def test_incremental_updates_equal_a_full_rebuild():
    """After a series of mutations the cache equals one built from scratch."""
    b = load_board("los_apertures")
    cache = SightCache(b)
    b.destroy_wall(b.index("E8"), b.index("E9"))
    cache.can_see(0, 1)
    b.collapse(b.index("G10"))
    b.destroy_wall(b.index("E5"), b.index("D5"))
    state = b.mutable_state()
    assert cache.can_see(b.index("E5"), b.index("D5"), 2, 2)
    np.testing.assert_array_equal(cache._vis, SightCache(b)._vis)
    b.set_mutable_state({})
    b.set_mutable_state(state)
    np.testing.assert_array_equal(cache._vis, SightCache(b)._vis)


@pytest.mark.parametrize("board_name", ["los_apertures", "tank_hunt"])
def test_incremental_arrays_equal_a_full_build(board_name):
    """The arrays a refresh patches (terrain, rise, walls of the changed hexes and sides) equal
    the ones built from the whole board, after each kind of mutation."""
    from dataclasses import fields

    from ambush_env.core.world.los import _build_arrays

    b = load_board(board_name)
    buildings = [i for i in range(b.n) if b.building[i] is not None]
    lm = list(b.landmark)
    lm[buildings[-1]] = "steeple"  # a declared landmark that collapses (seed 004)
    b.landmark = tuple(lm)
    cache = SightCache(b, blocking_landmarks=["steeple"])

    def same():
        cache.invalidate()
        full = _build_arrays(b, cache.blocking_landmarks)
        for f in fields(full):
            np.testing.assert_array_equal(
                getattr(cache._arr, f.name), getattr(full, f.name), f.name
            )

    walls = [
        (i, j)
        for i in range(b.n)
        for j in b.neighbors[i]
        if j > i and b.intact_wall(b.side_between(i, j))
    ]
    assert walls and buildings
    b.destroy_wall(*walls[0])
    same()
    b.collapse(buildings[-1])
    same()
    state = b.mutable_state()
    b.set_mutable_state({})
    same()
    b.set_mutable_state(state)
    same()


def test_adjacent_vehicle_memo_follows_mutations():
    """Seed 004 p. 18 / RULES.md §3: the memo of adjacent (and same-hex) lines with a vehicle endpoint keeps
    an entry across a mutation only when neither hex nor the hexside between them changed, and
    every answer equals a fresh trace (:func:`line_of_sight`) before and after each change."""
    b = load_board("los_apertures")
    cache = SightCache(b)
    stances, sizes = range(3), (None, "small", "large")

    near = [
        i
        for i in range(b.n)  # the hexes around the mutations below (and a far corner)
        if min(b.distance(i, b.index(h)) for h in ("E5", "F5", "G10", "A1")) <= 2
    ]

    def check_all():
        for i in near:
            for j in (i, *(k for k in b.neighbors[i] if k >= 0)):
                for a in stances:
                    for c in stances:
                        for vs in sizes:
                            for vt in sizes[:2]:
                                if (
                                    vs is None
                                    and vt is None
                                    or vs
                                    and b.building[i] is not None
                                    or vt
                                    and b.building[j] is not None
                                ):
                                    continue  # no vehicle stands in a building
                                want = line_of_sight(
                                    b,
                                    b.label(i),
                                    b.label(j),
                                    sighter_stance=_NAMES[a],
                                    target_stance=_NAMES[c],
                                    sighter_in_vehicle=vs,
                                    target_in_vehicle=vt,
                                ).clear
                                assert cache.can_see(i, j, a, c, vs, vt) == want, (
                                    i,
                                    j,
                                    a,
                                    c,
                                    vs,
                                    vt,
                                )

    check_all()
    full = len(cache._adj)
    e5, f5 = b.index("E5"), b.index("F5")
    b.destroy_wall(e5, f5)
    cache.invalidate()
    kept = dict(cache._adj)
    assert 0 < len(kept) < full  # only the entries across the E5/F5 hexside were dropped
    assert not any(set(k[:2]) == {e5, f5} for k in kept)
    check_all()
    b.collapse(b.index("G10"))
    check_all()
    b.set_mutable_state({})
    check_all()


_NAMES = ("standing", "crouching", "prone")


def test_cache_pickles_and_follows_its_board(apertures):
    cache = SightCache(apertures)
    clone = pickle.loads(pickle.dumps(cache))
    b = clone.board
    e5, f5 = b.index("E5"), b.index("F5")
    assert not clone.can_see(e5, f5)
    b.destroy_wall(e5, f5)
    assert clone.can_see(e5, f5) and not cache.can_see(e5, f5)


# -- the command -----------------------------------------------------------------------------------
def _run(argv):
    parser = argparse.ArgumentParser(prog="ambush")
    sub = parser.add_subparsers(dest="command")
    add_los_parser(sub)
    args = parser.parse_args(["los", *argv])
    return args.func(args)


def test_los_command_prints_clear_or_blocker(capsys):
    """docs/API.md: `ambush los MAP A B [--stances S T]` prints `clear` or `blocked by X`."""
    assert _run(["los_village", "C6", "M4"]) == 0
    assert capsys.readouterr().out == "clear\n"
    assert _run(["los_village", "C2", "C6"]) == 0
    assert capsys.readouterr().out == "blocked by C4\n"
    assert _run(["los_apertures", "E5", "E3", "--stances", "prone", "standing"]) == 0
    assert capsys.readouterr().out == "blocked by aperture:prone_window\n"
    assert (
        _run(
            [
                "los_apertures",
                "E4",
                "E5",
                "--stances",
                "standing",
                "crouching",
                "--vehicles",
                "small",
                "none",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == "blocked by vehicle:small_vehicle_window\n"


def test_los_command_reports_bad_input(capsys):
    assert _run(["los_village", "C6", "ZZ99"]) == 2
    assert "ZZ99" in capsys.readouterr().err
    assert _run(["no_such_map", "A1", "A2"]) == 2
    assert "file not found" in capsys.readouterr().err
