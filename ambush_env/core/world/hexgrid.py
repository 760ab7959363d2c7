"""Owns hex-grid geometry: labels, neighbours, distances, exact line tracing (RULES.md §2).

Pure geometry: no I/O, no terrain. The layout is RULES.md §2: flat-topped hexes in vertical
columns lettered ``A..Z, AA, AB...``, rows numbered from 1 at the top, columns with an odd
0-based index sitting half a hex lower ("odd-q"). A hex is addressed either by ``(col, row0)``
(0-based column and row) or, on a board, by its index ``row0 * columns + col`` (row-major,
matching observation planes of shape ``(H=rows, W=columns)``).

Lattice coordinates
-------------------
Line tracing (RULES.md §3) is done in exact integer arithmetic. A hex's centre in *lattice
units* is ``X = 3 * col``, ``Y = 2 * row0 + (col & 1)`` (``Y`` grows downwards). One lattice
unit is half a hex radius horizontally and ``sqrt(3) / 2`` radii vertically; this affine map of
the real plane keeps straight lines straight and keeps which side of a line a point lies on,
so every vertex of the grid has integer lattice coordinates (the centre plus one of
:data:`VERTEX_OFFSETS`) and every crossing test is exact. :func:`centre_xy` gives real
coordinates (hex radius 1) for drawing.

Tracing
-------
:func:`trace` walks the straight line from one centre to another, hex by hex, crossing one
hexside interior per step. A line that runs along a hexside or through a vertex is traced twice
with a symbolic perturbation (``nudge=+1`` / ``-1``): every grid point lying exactly on the line
is counted on one side of it, which is the same as shifting the line a vanishing distance to
that side (RULES.md §3: "traced twice, nudged a tiny distance to each side"). A hexside the
exact line runs along is then never crossed by either nudged trace. :func:`traces` returns the
distinct nudged traces; :func:`trace_table` computes the same for every offset on a board at
once, vectorised with numpy, for :class:`ambush_env.core.world.los.SightCache`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import Direction

_LABEL_RE = re.compile(r"^([A-Z]+)([1-9][0-9]*)$")
#: an int or an integer numpy array (:meth:`TraceTable.template` takes either)
_IntOrArray = TypeVar("_IntOrArray", int, np.ndarray)

#: Neighbour offsets ``(dcol, drow)`` by Direction for an even column (RULES.md §2).
EVEN_COL_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
#: Neighbour offsets ``(dcol, drow)`` by Direction for an odd column (RULES.md §2).
ODD_COL_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))

#: The six vertices of a hex relative to its centre, lattice units, clockwise on screen from
#: the north-east vertex: NE, E, SE, SW, W, NW.
VERTEX_OFFSETS: tuple[tuple[int, int], ...] = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))
#: ``SIDE_OF_VERTEX_PAIR[k]`` is the hexside between ``VERTEX_OFFSETS[k]`` and ``[k + 1]``.
SIDE_OF_VERTEX_PAIR: tuple[Direction, ...] = (
    Direction.NE,
    Direction.SE,
    Direction.S,
    Direction.SW,
    Direction.NW,
    Direction.N,
)

#: The opposite of each direction (N <-> S, NE <-> SW, SE <-> NW).
OPPOSITE: tuple[int, ...] = (3, 4, 5, 0, 1, 2)


# -- labels ------------------------------------------------------------------------------------
def col_letters(col: int) -> str:
    """Column letters of a 0-based column index: 0 -> ``A``, 25 -> ``Z``, 26 -> ``AA`` (RULES.md §2).

    Raises:
        AmbushError: ``col`` is negative.
    """
    if col < 0:
        raise AmbushError(f"column index {col} is negative")
    out = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def col_index(letters: str) -> int:
    """0-based column index of column letters (``"AA"`` -> 26); the inverse of :func:`col_letters`."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def parse_label(label: str) -> tuple[int, int]:
    """``(col, row0)`` of a hex label such as ``"Q16"`` -> ``(16, 15)`` (RULES.md §2).

    Labels are upper-case column letters followed by a row number from 1, no leading zero.

    Raises:
        AmbushError: the label is not a string of that form (the message names it).
    """
    m = _LABEL_RE.match(label) if isinstance(label, str) else None
    if m is None:
        raise AmbushError(
            f"malformed hex label {label!r} (expected column letters and a row, e.g. 'Q16')"
        )
    return col_index(m.group(1)), int(m.group(2)) - 1


def make_label(col: int, row0: int) -> str:
    """Hex label of ``(col, row0)``: ``make_label(16, 15) == "Q16"``.

    Raises:
        AmbushError: ``col`` or ``row0`` is negative.
    """
    if row0 < 0:
        raise AmbushError(f"row index {row0} is negative")
    return f"{col_letters(col)}{row0 + 1}"


# -- neighbours and distance ---------------------------------------------------------------------
def neighbor_cr(col: int, row0: int, d: int) -> tuple[int, int]:
    """The neighbour of ``(col, row0)`` in Direction ``d`` (RULES.md §2 table); may be off any board."""
    dc, dr = (ODD_COL_STEPS if col & 1 else EVEN_COL_STEPS)[d]
    return col + dc, row0 + dr


def cube(col: int, row0: int) -> tuple[int, int, int]:
    """Cube coordinates ``(x, y, z)`` with ``x + y + z == 0`` of an odd-q offset hex."""
    x = col
    z = row0 - (col - (col & 1)) // 2
    return x, -x - z, z


def axial_to_cr(q: int, r: int) -> tuple[int, int]:
    """``(col, row0)`` of the hex with axial coordinates ``(q, r)`` (cube ``x``, ``z``)."""
    return q, r + (q - (q & 1)) // 2


def distance_cr(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance between ``a = (col, row0)`` and ``b``, in hexes (adjacent hexes: 1)."""
    ax, ay, az = cube(*a)
    bx, by, bz = cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def direction_cr(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """The Direction from ``a`` to an adjacent hex ``b``, or None when they are not adjacent."""
    for d in range(6):
        if neighbor_cr(a[0], a[1], d) == b:
            return d
    return None


# -- coordinates -------------------------------------------------------------------------------
def lattice_centre(col: int, row0: int) -> tuple[int, int]:
    """Centre of a hex in integer lattice units ``(X, Y) = (3 col, 2 row0 + col % 2)`` (module doc)."""
    return 3 * col, 2 * row0 + (col & 1)


def centre_xy(col: int, row0: int) -> tuple[float, float]:
    """Centre of a hex in real units (hex radius 1, ``y`` downwards), for drawing.

    Returns:
        ``(x, y)`` with ``x = 1.5 col`` and ``y = sqrt(3) (row0 + (col % 2) / 2)``.
    """
    return 1.5 * col, 3.0**0.5 * (row0 + 0.5 * (col & 1))


# -- exact line tracing ------------------------------------------------------------------------
def trace(a: tuple[int, int], b: tuple[int, int], nudge: int = 1) -> tuple[int, ...]:
    """The hexsides a straight centre-to-centre line crosses, as a walk of directions.

    Starting in hex ``a``, step ``k`` leaves the current hex across its hexside in direction
    ``dirs[k]`` (through the interior of that hexside) into the next hex; the last step enters
    ``b``. Grid points exactly on the line count as lying on the ``nudge`` side of it (the line
    shifted a vanishing distance, RULES.md §3), so the walk never passes through a vertex.

    Args:
        a: ``(col, row0)`` of the sighter's hex.
        b: ``(col, row0)`` of the target's hex.
        nudge: ``+1`` or ``-1``, the side the line is nudged to.

    Returns:
        The directions of the steps; ``()`` when ``a == b``; ``len == distance`` or more.
    """
    ax, ay = lattice_centre(*a)
    bx, by = lattice_centre(*b)
    dx, dy = bx - ax, by - ay
    # Orientation of vertex k of the current hex is base + w[k]; > 0 is one side of the line.
    w = [dx * vy - dy * vx for vx, vy in VERTEX_OFFSETS]
    positive_zero = nudge > 0
    c, r = a
    dirs: list[int] = []
    limit = 4 * (distance_cr(a, b) + 1)
    while (c, r) != b:
        cx, cy = 3 * c, 2 * r + (c & 1)
        base = dx * (cy - ay) - dy * (cx - ax)
        side = [(o > 0) or (o == 0 and positive_zero) for o in (base + wk for wk in w)]
        for k in range(6):
            if not side[k] and side[(k + 1) % 6]:
                d = SIDE_OF_VERTEX_PAIR[k]
                break
        else:  # pragma: no cover - impossible for a line through this hex's interior
            raise AssertionError(f"trace {a}->{b} lost at {(c, r)}")
        dirs.append(int(d))
        c, r = neighbor_cr(c, r, d)
        if len(dirs) > limit:  # pragma: no cover - guard against an infinite walk
            raise AssertionError(f"trace {a}->{b} did not reach its target")
    return tuple(dirs)


def traces(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """The distinct nudged traces of the line ``a -> b`` (RULES.md §3).

    Returns:
        One walk (see :func:`trace`) when the line passes through no vertex and along no
        hexside, else two: nudged to the ``+1`` side first, then the ``-1`` side.
    """
    t_pos = trace(a, b, 1)
    t_neg = trace(a, b, -1)
    return (t_pos,) if t_pos == t_neg else (t_pos, t_neg)


def walk_hexes(a: tuple[int, int], dirs: tuple[int, ...]) -> list[tuple[int, int]]:
    """The ``(col, row0)`` hexes a walk visits, ``a`` first and the target last."""
    out = [a]
    c, r = a
    for d in dirs:
        c, r = neighbor_cr(c, r, d)
        out.append((c, r))
    return out


def line_param(a: tuple[int, int], b: tuple[int, int], point: tuple[float, float]) -> float:
    """Where a lattice point projects onto the line ``a -> b``: 0 at ``a``'s centre, 1 at ``b``'s."""
    ax, ay = lattice_centre(*a)
    bx, by = lattice_centre(*b)
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    return ((point[0] - ax) * dx + (point[1] - ay) * dy) / den if den else 0.0


# -- vectorised tracing of every offset on a board ---------------------------------------------
@dataclass(frozen=True)
class TraceTable:
    """Every nudged trace between two hexes of a ``columns x rows`` board, as flat arrays.

    A *template* is one relative offset: the start column's parity ``p`` (0/1) and the offset
    ``(dc, dr)`` from start to target. Translating a pair of hexes by whole rows or by two
    columns maps the grid onto itself, so all pairs with the same template cross the same
    relative hexes. Template id: ``(p * (2C - 1) + dc + C - 1) * (2R - 1) + dr + R - 1``.

    Attributes:
        columns, rows: the board size the table covers (template ids depend on it).
        tmpl_first: ``(T,) int32`` id of the template's first trace.
        tmpl_count: ``(T,) int8`` its number of distinct traces (1, or 2 for a nudged line;
            0 for the zero offset).
        trace_ptr: ``(Ntr + 1,) int64`` CSR pointers: trace ``t``'s steps are
            ``trace_ptr[t]:trace_ptr[t + 1]``.
        step_dir: ``(S,) int8`` the Direction of each step (the hexside crossed).
        step_dc, step_dr: ``(S,) int16`` offset, from the start hex, of the hex each step
            *enters* (the last step of a trace enters the target).
        step_from_dc, step_from_dr: ``(S,) int16`` offset of the hex each step *leaves*.
        trace_min_dc, trace_max_dc, trace_min_dr, trace_max_dr: ``(Ntr,) int16`` bounding box of
            a trace's hexes relative to its start (to tell traces that leave a board).
        step_dist_s, step_dist_t: ``(S,) int16`` hex distance from the entered hex to the
            start and to the target.
    """

    columns: int
    rows: int
    tmpl_first: np.ndarray
    tmpl_count: np.ndarray
    trace_ptr: np.ndarray
    step_dir: np.ndarray
    step_dc: np.ndarray
    step_dr: np.ndarray
    step_from_dc: np.ndarray
    step_from_dr: np.ndarray
    trace_min_dc: np.ndarray
    trace_max_dc: np.ndarray
    trace_min_dr: np.ndarray
    trace_max_dr: np.ndarray
    step_dist_s: np.ndarray
    step_dist_t: np.ndarray

    def template(self, parity: _IntOrArray, dc: _IntOrArray, dr: _IntOrArray) -> _IntOrArray:
        """Template id of a start column parity and an offset (see the class docstring): ints
        give an int, integer arrays of one shape give an array of template ids."""
        return (
            (parity * (2 * self.columns - 1) + dc + self.columns - 1) * (2 * self.rows - 1)
            + dr
            + self.rows
            - 1
        )


_EVEN = np.array(EVEN_COL_STEPS, dtype=np.int64)
_ODD = np.array(ODD_COL_STEPS, dtype=np.int64)
_VX = np.array([v[0] for v in VERTEX_OFFSETS], dtype=np.int64)
_VY = np.array([v[1] for v in VERTEX_OFFSETS], dtype=np.int64)
_SIDE_DIR = np.array([int(d) for d in SIDE_OF_VERTEX_PAIR], dtype=np.int64)


def _cube_np(col: np.ndarray, row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = col
    z = row - (col - (col & 1)) // 2
    return x, -x - z, z


def distance_np(c1, r1, c2, r2) -> np.ndarray:
    """Vectorised :func:`distance_cr`: hex distances between arrays of ``(col, row0)``, int."""
    x1, y1, z1 = _cube_np(c1, r1)
    x2, y2, z2 = _cube_np(c2, r2)
    return np.maximum(np.maximum(np.abs(x1 - x2), np.abs(y1 - y2)), np.abs(z1 - z2))


def _walk_all(p: np.ndarray, tc: np.ndarray, tr: np.ndarray, nudge: int) -> np.ndarray:
    """Vectorised :func:`trace` from ``(p, 0)`` to ``(tc, tr)``; returns ``(W, L)`` dirs, -1 padded."""
    w = p.shape[0]
    ax, ay = 3 * p, p.copy()
    dx, dy = 3 * tc - ax, 2 * tr + (tc & 1) - ay
    wk = dx[:, None] * _VY[None, :] - dy[:, None] * _VX[None, :]
    c, r = p.copy(), np.zeros_like(p)
    max_steps = int(4 * (distance_np(p, np.zeros_like(p), tc, tr).max(initial=0) + 1))
    dirs = np.full((w, max_steps), -1, dtype=np.int8)
    act = np.nonzero((c != tc) | (r != tr))[0]
    step = 0
    while act.size:
        if step >= max_steps:  # pragma: no cover - guard
            raise AssertionError("vectorised trace did not terminate")
        cc, rr = c[act], r[act]
        base = dx[act] * (2 * rr + (cc & 1) - ay[act]) - dy[act] * (3 * cc - ax[act])
        o = base[:, None] + wk[act]
        pos = (o > 0) | ((o == 0) & (nudge > 0))
        exits = ~pos & np.roll(pos, -1, axis=1)
        k = np.argmax(exits, axis=1)
        d = _SIDE_DIR[k]
        dirs[act, step] = d
        off = np.where((cc & 1)[:, None] == 1, _ODD[d], _EVEN[d])
        c[act] = cc + off[:, 0]
        r[act] = rr + off[:, 1]
        act = act[(c[act] != tc[act]) | (r[act] != tr[act])]
        step += 1
    return dirs[:, : max(step, 1)]


@lru_cache(maxsize=8)
def trace_table(columns: int, rows: int) -> TraceTable:
    """Every nudged trace between two hexes of a ``columns x rows`` board (cached per size).

    Vectorised equivalent of calling :func:`traces` for every template (see
    :class:`TraceTable`): ``2 * (2C - 1) * (2R - 1)`` offsets, each walked with both nudges in
    lock-step numpy. A 30 x 20 board takes a few tens of milliseconds.
    """
    nc, nr = 2 * columns - 1, 2 * rows - 1
    grid = np.meshgrid(
        np.arange(2), np.arange(nc) - (columns - 1), np.arange(nr) - (rows - 1), indexing="ij"
    )
    p, dc, dr = (g.ravel().astype(np.int64) for g in grid)
    tc, tr = p + dc, dr
    d_pos = _walk_all(p, tc, tr, 1)
    d_neg = _walk_all(p, tc, tr, -1)
    width = max(d_pos.shape[1], d_neg.shape[1])
    d_pos = np.pad(d_pos, ((0, 0), (0, width - d_pos.shape[1])), constant_values=-1)
    d_neg = np.pad(d_neg, ((0, 0), (0, width - d_neg.shape[1])), constant_values=-1)
    same = (d_pos == d_neg).all(axis=1)
    zero = (dc == 0) & (dr == 0)
    count = np.where(zero, 0, np.where(same, 1, 2)).astype(np.int8)
    # Stack traces: for each template its +1 trace, then its -1 trace when distinct.
    keep_neg = count == 2
    tr_dirs = np.concatenate([d_pos[count >= 1], d_neg[keep_neg]])
    tr_tmpl = np.concatenate([np.nonzero(count >= 1)[0], np.nonzero(keep_neg)[0]])
    order = np.argsort(tr_tmpl, kind="stable")
    tr_dirs, tr_tmpl = tr_dirs[order], tr_tmpl[order]
    first = np.searchsorted(tr_tmpl, np.arange(count.shape[0])).astype(np.int32)
    lengths = (tr_dirs >= 0).sum(axis=1)
    ptr = np.zeros(tr_dirs.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, out=ptr[1:])
    # Walk all traces at once to get the hexes each step enters.
    sp = p[tr_tmpl]
    c, r = sp.copy(), np.zeros_like(sp)
    n_steps = int(ptr[-1])
    step_dir = np.empty(n_steps, dtype=np.int8)
    step_dc = np.empty(n_steps, dtype=np.int16)
    step_dr = np.empty(n_steps, dtype=np.int16)
    for k in range(tr_dirs.shape[1]):
        act = np.nonzero(lengths > k)[0]
        if not act.size:
            break
        d = tr_dirs[act, k].astype(np.int64)
        off = np.where((c[act] & 1)[:, None] == 1, _ODD[d], _EVEN[d])
        c[act] += off[:, 0]
        r[act] += off[:, 1]
        at = ptr[act] + k
        step_dir[at] = d
        step_dc[at] = c[act] - sp[act]
        step_dr[at] = r[act]
    from_dc = np.zeros(n_steps, dtype=np.int16)
    from_dr = np.zeros(n_steps, dtype=np.int16)
    not_first = np.ones(n_steps, dtype=bool)
    not_first[ptr[:-1]] = False
    from_dc[1:][not_first[1:]] = step_dc[:-1][not_first[1:]]
    from_dr[1:][not_first[1:]] = step_dr[:-1][not_first[1:]]
    box = [np.minimum.reduceat(step_dc, ptr[:-1]), np.maximum.reduceat(step_dc, ptr[:-1])]
    box += [np.minimum.reduceat(step_dr, ptr[:-1]), np.maximum.reduceat(step_dr, ptr[:-1])]
    box = [
        np.where(k % 2, np.maximum(b, 0), np.minimum(b, 0)).astype(np.int16)
        for k, b in enumerate(box)
    ]
    step_tr = np.repeat(np.arange(tr_dirs.shape[0]), lengths)
    s_p = sp[step_tr]
    s_c = s_p + step_dc.astype(np.int64)
    s_r = step_dr.astype(np.int64)
    tmpl = tr_tmpl[step_tr]
    dist_s = distance_np(s_p, np.zeros_like(s_p), s_c, s_r).astype(np.int16)
    dist_t = distance_np(tc[tmpl], tr[tmpl], s_c, s_r).astype(np.int16)
    return TraceTable(
        columns=columns,
        rows=rows,
        tmpl_first=first,
        tmpl_count=count,
        trace_ptr=ptr,
        step_dir=step_dir,
        step_dc=step_dc,
        step_dr=step_dr,
        step_from_dc=from_dc,
        step_from_dr=from_dr,
        trace_min_dc=box[0],
        trace_max_dc=box[1],
        trace_min_dr=box[2],
        trace_max_dr=box[3],
        step_dist_s=dist_s,
        step_dist_t=dist_t,
    )
