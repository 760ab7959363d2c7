"""The engine's caches are bounded and keyed by values (issue 23).

* The context's map caches (``Ctx.wall_cache`` of :func:`fire.wall_targets`,
  ``Ctx.throw_cache`` of the grenade orders, ``Ctx.vehicle_costs`` of
  :func:`vehicles.cost_row`) never hold more than their caps (``ctx.WALL_CACHE_MAX``,
  ``THROW_CACHE_MAX``, ``VEHICLE_COSTS_MAX``) however many distinct keys play asks for, still
  answer a repeated question from the cache, and their keys carry no ``id()`` (an address a
  later object may get).
* The German card interpreter's cache of normalized card rows lives on the context, keyed by
  ``(tank, card, column, row)``: it pins no card data of a game that is gone (a module-level
  table keyed by ``id(row)`` kept every row of every deck ever played).
"""

from __future__ import annotations

import gc
import shutil
import weakref
from types import SimpleNamespace

import numpy as np

from ambush_env.core import Game
from ambush_env.core.play import legal
from ambush_env.core.rules import ctx as C
from ambush_env.core.rules import fire
from ambush_env.core.vehicles import vehicles
from ambush_env.core.world.data import data_path


def _ints_in(key) -> set[int]:
    out: set[int] = set()
    for part in key if isinstance(key, tuple) else (key,):
        if isinstance(part, tuple):
            out |= _ints_in(part)
        elif isinstance(part, int) and not isinstance(part, bool):
            out.add(part)
    return out


def _walls(board) -> list[tuple[int, int]]:
    """Every intact wall of the board, as a pair of adjacent hexes."""
    out = []
    for i in range(board.n):
        for j in board.neighbors[i]:
            if j > i and board.intact_wall(board.side_between(i, j)):
                out.append((i, j))
    return out


def test_wall_cache_stays_under_its_cap_over_many_distinct_keys():
    g = Game("village_fight", seed=0)
    board, cache = g.board, g.ctx.wall_cache
    weapons = sorted({u.weapon for u in g.state.units})
    walls = _walls(board)
    assert len(walls) >= 4
    seen: set[tuple] = set()
    shooter = SimpleNamespace(hex=0, stance=0, weapon=weapons[0])
    for wall in [None, *walls[:4]]:  # each destroyed wall gives the map a new live key
        if wall is not None:
            assert board.destroy_wall(*wall)
        for h in range(board.n):
            for stance in range(3):
                for w in weapons:
                    shooter.hex, shooter.stance, shooter.weapon = h, stance, w
                    got = fire.wall_targets(g, shooter)
                    assert len(cache) <= C.WALL_CACHE_MAX
                    assert fire.wall_targets(g, shooter) is got  # the second asking is a hit
                    seen.add((h, stance, g.tables.class_of[w], board.live_key()))
    assert len(seen) > 2 * C.WALL_CACHE_MAX  # far more keys than the cap were asked for
    # an answer after the clearing is the one computed from the map
    shooter.hex, shooter.stance, shooter.weapon = walls[0][0], 0, weapons[0]
    got = list(fire.wall_targets(g, shooter))
    cache.clear()
    assert fire.wall_targets(g, shooter) == got
    # no key holds the board's address
    assert all(id(board) not in _ints_in(k) for k in cache)


def test_throw_cache_stays_under_its_cap_and_keys_by_value():
    g = Game("village_fight", seed=0)
    board, cache = g.board, g.ctx.throw_cache
    u = g.state.units[0]
    u.equipment = [*u.equipment, "grenade"]
    base = 0
    asked = 0
    for wall in [None, *_walls(board)[:8]]:
        if wall is not None:
            assert board.destroy_wall(*wall)
        for h in range(board.n):
            for stance in range(3):  # the range is the stance's
                u.hex, u.stance = h, stance
                legal._throws(g, u, "grenade", base)
                asked += 1
                assert len(cache) <= C.THROW_CACHE_MAX
    assert asked > 2 * C.THROW_CACHE_MAX
    assert cache and all(id(board) not in _ints_in(k) for k in cache)


def test_vehicle_cost_rows_stay_under_their_cap_and_key_by_value():
    g = Game("village_fight", seed=0)
    board, cache = g.board, g.ctx.vehicle_costs
    rows = []
    for wall in _walls(board)[: 3 * C.VEHICLE_COSTS_MAX]:
        assert board.destroy_wall(*wall)
        for large in (False, True):
            rows.append(vehicles.cost_row(g, large))
            assert len(cache) <= C.VEHICLE_COSTS_MAX
            assert vehicles.cost_row(g, large) is rows[-1]
    assert all(id(board) not in _ints_in(k) for k in cache)
    # the incremental row (from the last one and the change log) equals a full recomputation
    cache.clear()
    assert vehicles.cost_row(g, True) == rows[-1]


def _play_until_a_german_card(g: Game, rng: np.random.Generator, limit: int = 3000) -> None:
    for _ in range(limit):
        legal_now = g.legal_actions()
        events = g.step(int(legal_now[rng.integers(len(legal_now))]))
        if any(e.get("type") == "german_card" for e in events):
            return
        if g.over:
            g.reset()
    raise AssertionError("no German card was rolled")


def test_card_row_cache_pins_no_card_data_of_a_game_that_is_gone(tmp_path):
    """A deck read from a file is the game's own (not the shipped, cached one): once the game
    is gone its rows go too, after the interpreter has worked some of them out."""
    deck_file = tmp_path / "regular.yaml"
    shutil.copy(data_path("cards", "regular.yaml"), deck_file)
    g = Game("farm_assault", opponent=str(deck_file), seed=3)
    assert g.ctx.deck is not Game("farm_assault", seed=3).ctx.deck
    _play_until_a_german_card(g, np.random.default_rng(3))
    keys = list(g.ctx.card_rows)  # the rows the interpreter worked out, on the context
    rows = [
        weakref.ref(r)
        for c in g.ctx.deck.cards
        for col in ("unaware", "aware", "self_preservation")
        for r in getattr(c.columns, col)
    ]
    del g
    gc.collect()
    assert [r for r in rows if r() is not None] == []
    assert keys and all(isinstance(p, (bool, str, int)) for k in keys for p in k)
