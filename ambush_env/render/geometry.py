"""Where a hex is drawn: pixel geometry of the odd-q, flat-topped map (RULES.md §2).

Shared by the image render, the window and the HTML replay viewer, so that every picture of a
map puts each hex in the same place. ``size`` is the hex radius (centre to corner) in pixels;
y grows downwards; the map's top-left hex A1 (column 0, row 0) is tangent to the left and top
edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ambush_env.core.world.board import Board

SQRT3 = math.sqrt(3)

#: direction d (N, NE, SE, S, SW, NW; RULES.md §2) -> the two corners (corner k at 60k degrees,
#: clockwise from east) bounding that hexside
SIDE_CORNERS = {0: (4, 5), 1: (5, 0), 2: (0, 1), 3: (1, 2), 4: (2, 3), 5: (3, 4)}


def hex_centre(col: int, row0: int, size: float) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` of the hex at 0-based ``(col, row0)``; odd columns sit half a
    hex lower."""
    return 1.5 * size * col + size, SQRT3 * size * (row0 + 0.5 * (col & 1)) + SQRT3 / 2 * size


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex, starting east, clockwise (y down)."""
    return [
        (cx + size * math.cos(math.radians(60 * k)), cy + size * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def map_size(columns: int, rows: int, size: float) -> tuple[int, int]:
    """``(width, height)`` in pixels of a ``columns`` x ``rows`` map (a 2-pixel margin)."""
    return int(1.5 * size * (columns - 1) + 2 * size) + 2, int(SQRT3 * size * (rows + 0.5)) + 2


def hexside_segments(
    board: Board, size: float
) -> Iterator[tuple[int, int, Any, tuple[float, float], tuple[float, float]]]:
    """Every hexside of ``board`` that carries something (``board.hexside(i, j)`` not None),
    once, with the segment it is drawn as: ``(i, j, hexside, a, z)``, ``i < j`` the two hexes,
    ``a`` and ``z`` the pixel corners bounding direction ``d`` of hex ``i`` (:data:`SIDE_CORNERS`)."""
    for i in range(board.n):
        pts = hex_corners(*hex_centre(*board.coords(i), size), size)
        for d, j in enumerate(board.neighbors[i]):
            if j < 0 or j < i:
                continue
            hs = board.hexside(i, j)
            if hs is None:
                continue
            c0, c1 = SIDE_CORNERS[d]
            yield i, int(j), hs, pts[c0], pts[c1]
