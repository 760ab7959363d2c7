"""The env's and the renderer's module-level caches are keyed by the board itself, held weakly
(issue 23): an entry goes with its board, so a later board — even one that gets the dead
board's address, its ``id()`` — never reads it, and no cache keeps a dead game's board alive.
"""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

import numpy as np

from ambush_env.core import Game
from ambush_env.core.world.board import load_board
from ambush_env.env import rewards
from ambush_env.render import image


def _stub(board) -> SimpleNamespace:
    """What the static layer of a frame reads of a game."""
    return SimpleNamespace(
        board=board, mission_id="village_fight", exit_hexes=frozenset(), objective_hexes=frozenset()
    )


def _static(board, lay) -> np.ndarray:
    return np.asarray(image._static(_stub(board), lay, False, False)).copy()


def test_frame_cache_never_serves_a_dead_boards_layer_to_a_board_at_its_address(monkeypatch):
    """CPython hands a freed object's memory to a later object, and ``id()`` is that address:
    a cache keyed by ``id(board)`` that does not hold its board served a dead board's picture
    to a new board of the same map and version. Where the allocator reuses the block is not
    certain, so the reuse is made certain here: ``id`` as the renderer's module sees it gives
    every board the same number (the dead board's and its successor's at that address)."""
    monkeypatch.setattr(image, "id", lambda obj: 0x7F00, raising=False)
    template = load_board("village_fight")
    lay = image.frame_layout(template.columns, template.rows, 10, hud=False, legend=False)
    building = next(i for i in range(template.n) if template.building[i] is not None)
    wall = next(
        (i, j)
        for i in range(template.n)
        for j in template.neighbors[i]
        if j >= 0 and template.intact_wall(template.side_between(i, j)) and building not in (i, j)
    )
    dead = template.copy()
    dead.collapse(building)  # one change: version 1, a heap of rubble
    dead_picture = _static(dead, lay)
    version = dead.version
    del dead
    gc.collect()
    board = template.copy()  # a new board of the same map, at the dead board's "address"
    assert board.destroy_wall(*wall) and board.version == version  # another change, same version
    got = _static(board, lay)
    assert not np.array_equal(got, dead_picture)
    monkeypatch.undo()
    image._CACHE.clear()
    np.testing.assert_array_equal(got, _static(board, lay))  # what the board itself looks like


def test_frame_cache_is_bounded():
    template = load_board("jeep_run")
    lay = image.frame_layout(template.columns, template.rows, 6, hud=False, legend=False)
    boards = [template.copy() for _ in range(2 * image.STATIC_BOARDS_MAX)]
    for b in boards:
        for size in range(2 * image.STATIC_PER_BOARD_MAX):
            image._static(
                _stub(b),
                image.frame_layout(b.columns, b.rows, 4 + size, hud=False, legend=False),
                False,
                False,
            )
            assert len(image._CACHE) <= image.STATIC_BOARDS_MAX
            assert all(len(v) <= image.STATIC_PER_BOARD_MAX for v in image._CACHE.values())
    # a layer asked for twice is drawn once
    assert image._static(_stub(boards[-1]), lay, False, False) is image._static(
        _stub(boards[-1]), lay, False, False
    )


def test_route_tables_keep_no_dead_board_alive():
    g = Game("farm_assault", seed=0)
    board = weakref.ref(g.board)
    hexes = rewards.remaining_hexes(g)
    assert hexes > 0
    assert rewards.remaining_hexes(g) == hexes
    del g
    gc.collect()
    assert board() is None


def test_route_tables_are_the_boards_own():
    """Two boards of one map at once: each gets tables computed from itself."""
    a, b = Game("farm_assault", seed=0), Game("farm_assault", seed=0)
    assert a.board is not b.board
    ta, tb = rewards._route_tables(a), rewards._route_tables(b)
    assert ta == tb and ta is not tb
    assert rewards._route_tables(a) is ta
