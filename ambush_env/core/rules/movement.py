"""Owns soldier movement costs (RULES.md §6; numbers ⚙ in ``data/terrain.yaml``).

A soldier enters a neighbouring hex paying the entered hex's terrain cost, +1 going up a
level, +1 across an embankment or crest hexside, +1 per hex when crouching, and through a
building wall only by a door (cost of the hex), a window (+2, never prone) or a destroyed
wall. River hexes are crossed only where a road runs (a road hex); a wall without an
aperture cannot be crossed. Active enemies bar a hex (entering one is a charge assault,
RULES.md §10, offered separately).
"""

from __future__ import annotations

from typing import Any, Protocol

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import Stance, Status
from ambush_env.core.rules.ctx import Match
from ambush_env.core.world.board import Board
from ambush_env.core.world.tables import Tables

IMPASSABLE = -1


class CostSource(Protocol):
    """What :func:`raw_step_cost` reads of a game: its board and rule tables (a
    :class:`~ambush_env.core.rules.ctx.Match`, or a map being generated)."""

    board: Board
    tables: Tables


class Walker(Protocol):
    """What :func:`raw_step_cost` reads of a soldier: his stance (a ``Stance`` int)."""

    stance: int


def step_cost(m: Match, u: Unit, src: int, dest: int) -> int:
    """MPs for ``u`` to move from ``src`` into the adjacent ``dest``; −1 if he cannot.

    A table lookup: the costs of every (stance, hex, direction) are precomputed per board
    version by :func:`cost_table` (they change only when a wall is destroyed or a hex
    collapses), from :func:`raw_step_cost`.

    Raises:
        AmbushError: ``src`` and ``dest`` are not adjacent.
    """
    board = m.board
    tab = m.ctx.move_costs
    if tab is None or m.ctx.move_costs_version != board.version:
        tab = cost_table(m)
    d = board.direction(src, dest)
    if d is None:
        raise AmbushError(f"{board.label(src)} and {board.label(dest)} are not adjacent")
    return tab[u.stance][src * 6 + d]


def costs_for(m: Match, stance: int) -> list[int]:
    """The cost row of :func:`cost_table` for one stance (``row[hex * 6 + direction]``)."""
    tab = m.ctx.move_costs
    if tab is None or m.ctx.move_costs_version != m.board.version:
        tab = cost_table(m)
    return tab[stance]


def cost_table(m: Match) -> list[list[int]]:
    """``table[stance][hex * 6 + direction]`` = MPs to step that way (−1 impassable or off
    the map), cached on the game for the board's current version; after a change of the map
    (a wall destroyed, a hex collapsed, a reset to the pristine map) only the steps that the
    board's change log touches are recomputed (:func:`touched_steps`)."""
    board = m.board
    ctx = m.ctx
    old = ctx.move_costs
    changes = (
        board.changes_since(ctx.move_costs_version)
        if old is not None and ctx.move_costs_board is board
        else None
    )
    probe = _Probe()
    if changes is not None and old is not None:  # (changes are read only with old costs)
        tab = [list(row) for row in old]
        nbrs = board.neighbors
        for i, d in touched_steps(board, *changes):
            j = nbrs[i][d]
            for s in range(3):
                probe.stance = s
                tab[s][i * 6 + d] = raw_step_cost(m, probe, i, j)
    else:
        tab = []
        for s in range(3):
            probe.stance = s
            row = [IMPASSABLE] * (board.n * 6)
            for i in range(board.n):
                for d, j in enumerate(board.neighbors[i]):
                    if j >= 0:
                        row[i * 6 + d] = raw_step_cost(m, probe, i, j)
            tab.append(row)
    ctx.move_costs = tab
    ctx.move_costs_version = board.version
    ctx.move_costs_board = board
    return tab


class _Probe:
    """A stand-in soldier for :func:`raw_step_cost` (only his stance is read)."""

    stance = 0


def touched_steps(board: Any, hexes: Any, sides: Any) -> set[tuple[int, int]]:
    """``(hex, direction)`` of every step whose cost a change of ``hexes`` and side ids
    ``sides`` (``Board.changes_since``) may alter: the steps out of and into those hexes and
    the hexes on either side of those hexsides (a superset; recomputing one is exact)."""
    ends = set(hexes)
    off = 3 * board.n
    for sid in sides:
        if sid >= off:
            continue
        i, j = board.side_hexes(sid)
        ends.add(i)
        if j >= 0:
            ends.add(j)
    out: set[tuple[int, int]] = set()
    nbrs = board.neighbors
    for x in ends:
        for d, j in enumerate(nbrs[x]):
            if j >= 0:
                out.add((x, d))
                out.add((j, nbrs[j].index(x)))
    return out


def raw_step_cost(m: CostSource, u: Walker, src: int, dest: int) -> int:
    """:func:`step_cost` computed from the map and ``terrain.yaml`` (RULES.md §6).

    Args:
        m: the game (board, tables).
        u: the soldier (stance matters: crouching +1, prone never through a window).
        src, dest: adjacent hex indices.

    Returns:
        MPs (int ≥ 1), or ``IMPASSABLE`` (−1).
    """
    board = m.board
    mv = m.tables.terrain.movement
    cost = m.tables.terrain_mp[board.terrain[dest]]
    if cost is None or cost < 0:
        return IMPASSABLE
    side = board.hexside(src, dest)
    if side is not None and side.wall is not None and not side.destroyed:
        if side.aperture == "door":
            pass
        elif side.aperture == "window":
            if u.stance == Stance.PRONE:
                return IMPASSABLE
            cost += mv.window
        else:
            return IMPASSABLE
    cost += relief_cost(board, src, dest, side, mv)
    if u.stance == Stance.CROUCHING:
        cost += mv.crouching
    return cost


def relief_cost(board: Any, src: int, dest: int, side: Any, costs: Any) -> int:
    """The extra MPs the ground asks for a step from ``src`` into ``dest`` (RULES.md §6, and
    the vehicle chart of §12): ``costs.embankment`` / ``costs.crest`` across such a hexside
    (``side``, None for none) and ``costs.up_level`` per level climbed."""
    extra = 0
    if side is not None:
        if side.embankment:
            extra += costs.embankment
        if side.crest:
            extra += costs.crest
    rise = board.level[dest] - board.level[src]
    if rise > 0:
        extra += costs.up_level * rise
    return extra


def enemy_hexes(m: Match, side: int) -> set[int]:
    """The hexes ``h`` (of the map) where :func:`enemy_in` ``(m, h, side)`` is True now, for a
    caller asking of many hexes."""
    units = m.state.units
    if not m.omniscient_germans or side == 0:
        return {units[i].hex for i in m.known_enemies(side)}
    return {o.hex for o in units if o.side != side and o.status == Status.ACTIVE}


def enemy_in(m: Match, hex_: int, side: int) -> bool:
    """True when an active enemy *known to* ``side`` is in ``hex_``.

    The US knows only its contacts: a hidden German does not bar a hex (entering it finds
    him, a sighting); what the Germans know is :meth:`~ambush_env.core.rules.ctx.Match.known_enemies`.
    """
    if not m.omniscient_germans or side == 0:
        units = m.state.units
        return any(units[i].hex == hex_ for i in m.known_enemies(side))
    for o in m.state.units:
        if o.hex == hex_ and o.side != side and o.status == Status.ACTIVE:
            return True
    return False
