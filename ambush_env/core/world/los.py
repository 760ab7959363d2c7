"""Owns line of sight: every rule of seed 004, exact geometry, and a vectorised cache
(RULES.md §3).

Two entry points share one set of rules:

- :func:`line_of_sight` (binding) answers one question by hex labels and says what blocks.
- :class:`SightCache` precomputes, per board, whether every hex sees every other hex for
  every pair of stances (numpy), answers :meth:`SightCache.can_see` by hex index in about a
  microsecond or less, and follows the live map: a destroyed wall or collapsed building hex
  recomputes only the lines that cross, start or end at what changed.

Geometry (RULES.md §3, :mod:`ambush_env.core.world.hexgrid`): the line runs from centre to centre;
it crosses a hex or hexside when it passes through its interior. A line along a hexside or
through a vertex is traced twice, nudged to each side; sight is clear if either nudged trace
is clear. Each trace is the sequence: the sighter's hex, side 0, hex 1, side 1, ..., hex K,
side K, the target's hex.

The rules applied to a trace, with ``ls``, ``lt`` the sighter's and target's ground levels
(a soldier in a ``rise`` hex stands at its ground level):

- The endpoints' hexes never block ("see into, not through", seed 004 p. 18).
- Ground hex H at level ``lh``: blocks when ``lh > max(ls, lt)`` (p. 17). Slopes never block.
- Woods, brush, rubble, rough (p. 18): ``ls == lt``: block when ``lh >= ls``. Otherwise
  ``lh > max`` blocks, and H blocks when adjacent to an endpoint whose level is ``<= lh``
  (an adjacent lower obstacle is looked over); anything else is looked over.
- Building hex (level ``lb`` = ground + rise, p. 18): ``ls == lt``: blocks when ``lb >= ls``.
  Otherwise ``lb < min`` never, ``lb > max`` always, else blocks when the hex is nearer the
  lower soldier or equidistant (hex distance); when looked over, its walls do not matter.
- Embankment hexside (p. 17, 19): counts as the higher of the two levels it borders; nothing
  between two hexes of one level; else blocks when higher than the lower endpoint and not one
  of the six hexsides of the higher endpoint's hex.
- Crest hexside (p. 18): always blocks, even as a side of an endpoint's hex.
- Landmarks (p. 18) block only when named in ``blocking_landmarks``; they then block like
  woods (seen into, looked over from higher ground unless adjacent) -- the seed leaves their
  height open and an obstacle the height of a wood is the plausible reading. A landmark a
  paragraph declares blocking in play (``landmark`` effect) is a hex in ``landmark_hexes``:
  it blocks the same way, whatever the map says of that hex.
- Apertures (seed 004 table, p. 18-19), for an endpoint inside a building hex: the line must
  leave his hex through an aperture of it (a hexside between hexes of one building, or a wall
  that has been destroyed, is open). Across a wall without an aperture: blocked, reported as
  that hexside. Prone: never through a window (``aperture:prone_window``); through a door only
  the adjacent hex (``aperture:prone_door``). Crouching at a window: not the crouching or
  prone soldier in the hex right outside it (``aperture:crouching_window``). Standing at a
  window, or crouching/standing at a door: the aperture's whole field of view. A line crossing
  an aperture into a building reaches only the hex behind it (one hex deep): the next building
  hex is an intervening building hex, and blocks by the building rule. Two buildings: both
  endpoint checks apply. Within one building a soldier sees the hexes of it that his line
  reaches without crossing another building hex (the same rule). After a collapse the rubble
  hex has no walls, and the building's remaining hexes are open towards it.
- Vehicles (p. 18): from an adjacent vehicle (the hex right outside the aperture), a soldier
  behind a door is seen in any stance, behind a window standing always, crouching only from a
  large vehicle (``vehicle:small_vehicle_window``), prone never. Non-adjacent vehicles see
  like soldiers. A vehicle cannot be in a building hex (AmbushError).
- A sight cap (night, RULES.md §3) blocks lines longer than it, in hexes (``sight_cap``).
- A nudged trace that leaves the map (a line along the map edge) is not a line on the map:
  that trace is blocked (``map_edge``), the other one decides.

Where both nudged traces are blocked, ``blocked_by`` names the blocker of the trace that gets
further from the sighter (by projection on the line); on a tie, the ``+1`` nudge's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import STANCE_NAMES, Stance, Terrain
from ambush_env.core.world import hexgrid
from ambush_env.core.world.board import DOOR, NO_APERTURE, WINDOW, Board

__all__ = ["SightResult", "SightCache", "line_of_sight", "VEHICLE_SIZES"]

#: Vehicle sizes the vehicle arguments accept (seed 004 p. 18, seed 000): code 1 and 2.
VEHICLE_SIZES: tuple[str, str] = ("small", "large")
NO_VEHICLE, SMALL_VEHICLE, LARGE_VEHICLE = 0, 1, 2

#: Terrain that is seen into but not through at one level (seed 004 p. 18).
OBSTACLE_TERRAIN: frozenset[Terrain] = frozenset(
    {Terrain.WOODS, Terrain.BRUSH, Terrain.RUBBLE, Terrain.ROUGH}
)

#: Level given to off-map hexes: above any level, so a trace through one is blocked.
OFF_MAP_LEVEL = 99

# Endpoint (aperture) rule codes; 0 = the endpoint does not block.
EP_OK, EP_WALL, EP_PRONE_WINDOW, EP_PRONE_DOOR, EP_CROUCH_WINDOW, EP_SMALL_VEHICLE = range(6)
_EP_RULE = {
    EP_PRONE_WINDOW: "aperture:prone_window",
    EP_PRONE_DOOR: "aperture:prone_door",
    EP_CROUCH_WINDOW: "aperture:crouching_window",
    EP_SMALL_VEHICLE: "vehicle:small_vehicle_window",
}


@dataclass(frozen=True)
class SightResult:
    """The answer of :func:`line_of_sight` (binding).

    Attributes:
        clear: True when the target's hex is in sight.
        blocked_by: None when clear; else the first blocker from the sighter: a hex label
            (``"F7"``), a hexside label (``"Q16/Q17"``, lower column then lower row first) or a
            rule name (``"sight_cap"``, ``"map_edge"``, ``"aperture:prone_window"``,
            ``"aperture:prone_door"``, ``"aperture:crouching_window"``,
            ``"vehicle:small_vehicle_window"``).
    """

    clear: bool
    blocked_by: str | None = None

    def __bool__(self) -> bool:
        return self.clear


CLEAR = SightResult(True, None)


# -- the rules, vectorised (one source for both entry points) ----------------------------------
def hex_blocks(lh, lb, obstacle, building, ls, lt, ds, dt) -> np.ndarray:
    """Whether intervening hexes block (seed 004 p. 17-18; RULES.md §3). Broadcasts.

    Args:
        lh: ground level of the intervening hex (``OFF_MAP_LEVEL`` off the map).
        lb: building level (ground + rise) of the hex; only read where ``building``.
        obstacle: woods, brush, rubble, rough, or a blocking landmark.
        building: a building hex.
        ls, lt: the sighter's and the target's ground levels.
        ds, dt: hex distance from the hex to the sighter and to the target.

    Returns:
        bool array: True where the hex blocks.
    """
    lh, lb, ls, lt = (np.asarray(x, dtype=np.int16) for x in (lh, lb, ls, lt))
    ds, dt = np.asarray(ds), np.asarray(dt)
    hi = np.maximum(ls, lt)
    lo = np.minimum(ls, lt)
    same = ls == lt
    ground = lh > hi
    obst = obstacle & np.where(same, lh >= ls, ((ds == 1) & (ls <= lh)) | ((dt == 1) & (lt <= lh)))
    d_low = np.where(ls < lt, ds, dt)
    d_high = np.where(ls < lt, dt, ds)
    bld = building & np.where(same, lb >= ls, (lb > hi) | ((lb >= lo) & (d_low <= d_high)))
    return ground | obst | bld


def side_blocks(crest, emb_level, ls, lt, first, last) -> np.ndarray:
    """Whether crossed hexsides block (seed 004 p. 17-19; RULES.md §3). Broadcasts.

    Args:
        crest: the side is a crest.
        emb_level: the embankment's level (the higher of the two hexes it borders), or -1 when
            the side has no embankment or borders two hexes of one level.
        ls, lt: the sighter's and the target's ground levels.
        first, last: the side is the sighter's (side 0) / the target's (side K) own hexside.

    Returns:
        bool array: True where the side blocks.
    """
    ls, lt = np.asarray(ls), np.asarray(lt)
    exempt = (first & (ls > lt)) | (last & (lt > ls))
    return crest | ((emb_level > np.minimum(ls, lt)) & ~exempt)


def endpoint_code(inside, wall, aperture, stance_e, stance_o, adjacent, vehicle_o) -> np.ndarray:
    """The aperture rule at one endpoint (seed 004 apertures table and vehicles, p. 18-19).

    Args:
        inside: the endpoint E is in a building hex.
        wall: the hexside the line leaves E's hex by carries an intact wall.
        aperture: that wall's aperture code (0 none, 1 door, 2 window).
        stance_e: E's stance (Stance value).
        stance_o: the other soldier's stance.
        adjacent: the other soldier is in the adjacent hex (across that hexside).
        vehicle_o: the other soldier's vehicle (0 none, 1 small, 2 large).

    Returns:
        int8 array of ``EP_*`` codes: 0 where E's aperture lets the line through.
    """
    walled = np.asarray(inside) & np.asarray(wall)
    aperture = np.asarray(aperture)
    adjacent = np.asarray(adjacent)
    code = np.where(walled & (aperture == NO_APERTURE), EP_WALL, EP_OK)
    door = walled & (aperture == DOOR)
    window = walled & (aperture == WINDOW)
    code = np.where(door & (stance_e == Stance.PRONE) & ~adjacent, EP_PRONE_DOOR, code)
    code = np.where(window & (stance_e == Stance.PRONE), EP_PRONE_WINDOW, code)
    crouch_adj = window & (stance_e == Stance.CROUCHING) & adjacent
    code = np.where(
        crouch_adj & (vehicle_o == NO_VEHICLE) & (stance_o != Stance.STANDING),
        EP_CROUCH_WINDOW,
        code,
    )
    code = np.where(crouch_adj & (vehicle_o == SMALL_VEHICLE), EP_SMALL_VEHICLE, code)
    return code.astype(np.int8)


# -- per-board arrays ----------------------------------------------------------------------------
@dataclass
class _Arrays:
    """The board's sight features as numpy arrays; hex index ``n`` / side id ``3n`` = off-map."""

    level: np.ndarray  # (n+1,) int16
    blevel: np.ndarray  # (n+1,) int16 ground + rise
    obstacle: np.ndarray  # (n+1,) bool
    building: np.ndarray  # (n+1,) bool
    crest: np.ndarray  # (3n+1,) bool
    emb_level: np.ndarray  # (3n+1,) int16
    wall: np.ndarray  # (3n+1,) bool intact wall
    aperture: np.ndarray  # (3n+1,) int8


def _landmark_set(blocking_landmarks: Iterable[str]) -> frozenset[str]:
    if isinstance(blocking_landmarks, str):
        return frozenset({blocking_landmarks})
    return frozenset(blocking_landmarks)


def _blocking_landmark(board: Board, i: int, landmarks: frozenset[str]) -> bool:
    """Whether hex ``i`` holds a landmark the mission declares blocking, by its name or by
    the hex's label (seed 004)."""
    lm = board.landmark[i]
    return lm is not None and (lm in landmarks or board.label(i) in landmarks)


def _build_arrays(
    board: Board, landmarks: frozenset[str], extra: frozenset[int] = frozenset()
) -> _Arrays:
    n = board.n
    terr = np.asarray(board.terrain, dtype=np.int8)
    level = np.full(n + 1, OFF_MAP_LEVEL, dtype=np.int16)
    level[:n] = board.level
    blevel = level.copy()
    blevel[:n] += np.asarray(board.rise, dtype=np.int16)
    obstacle = np.zeros(n + 1, dtype=bool)
    obstacle[:n] = np.isin(terr, [int(t) for t in OBSTACLE_TERRAIN])
    if landmarks:
        for i in range(n):
            if _blocking_landmark(board, i, landmarks):
                obstacle[i] = True
    for i in extra:  # blocking landmarks declared in play (a ``landmark`` effect)
        obstacle[i] = True
    building = np.zeros(n + 1, dtype=bool)
    building[:n] = terr == Terrain.BUILDING
    m = 3 * n + 1
    nb = np.asarray(board.neighbors, dtype=np.int64).reshape(n, 6)[:, :3].reshape(-1)
    a = np.repeat(np.arange(n), 3)
    b = np.where(nb >= 0, nb, n)
    emb = np.zeros(m, dtype=bool)
    emb[: 3 * n] = np.asarray(board.side_embankment[: 3 * n], dtype=bool)
    emb_level = np.full(m, -1, dtype=np.int16)
    la, lb_ = level[a], level[b]
    emb_level[: 3 * n] = np.where(emb[: 3 * n] & (la != lb_) & (nb >= 0), np.maximum(la, lb_), -1)
    wall = np.asarray(board.side_wall, dtype=np.int8) != 0
    wall &= ~np.asarray(board.side_destroyed, dtype=bool)
    return _Arrays(
        level=level,
        blevel=blevel,
        obstacle=obstacle,
        building=building,
        crest=np.asarray(board.side_crest, dtype=bool),
        emb_level=emb_level,
        wall=wall,
        aperture=np.asarray(board.side_aperture, dtype=np.int8),
    )


def _updated_arrays(
    arr: _Arrays,
    board: Board,
    landmarks: frozenset[str],
    hexes: set[int],
    sides: set[int],
    extra: frozenset[int] = frozenset(),
) -> _Arrays:
    """``arr`` brought up to ``board`` after the logged change of ``hexes`` (terrain, building,
    rise) and ``sides`` (destroyed walls): equal to :func:`_build_arrays` of the board, at the
    cost of the changed entries (the others are copied; ``arr`` itself is left as it was)."""
    blevel, obstacle, building = arr.blevel.copy(), arr.obstacle.copy(), arr.building.copy()
    for i in hexes:
        t = board.terrain[i]
        blevel[i] = arr.level[i] + board.rise[i]
        obstacle[i] = t in OBSTACLE_TERRAIN or _blocking_landmark(board, i, landmarks) or i in extra
        building[i] = t == Terrain.BUILDING
    wall = arr.wall.copy()
    for sid in sides:
        wall[sid] = board.side_wall[sid] != 0 and not board.side_destroyed[sid]
    return _Arrays(
        level=arr.level,
        blevel=blevel,
        obstacle=obstacle,
        building=building,
        crest=arr.crest,
        emb_level=arr.emb_level,
        wall=wall,
        aperture=arr.aperture,
    )


_ARRAYS: weakref.WeakKeyDictionary[Board, tuple[int, frozenset[str], frozenset[int], _Arrays]] = (
    weakref.WeakKeyDictionary()
)


def _arrays(
    board: Board, landmarks: frozenset[str], extra: frozenset[int] = frozenset()
) -> _Arrays:
    hit = _ARRAYS.get(board)
    if hit is not None and hit[0] == board.version and hit[1] == landmarks and hit[2] == extra:
        return hit[3]
    arr = _build_arrays(board, landmarks, extra)
    _ARRAYS[board] = (board.version, landmarks, extra, arr)
    return arr


# -- argument parsing --------------------------------------------------------------------------
def _stance(value: object, what: str) -> int:
    if isinstance(value, str):
        if value in STANCE_NAMES:
            return STANCE_NAMES.index(value)
    elif (
        isinstance(value, (int, np.integer))
        and not isinstance(value, bool)
        and 0 <= int(value) <= 2
    ):
        return int(value)
    raise AmbushError(f"unknown {what} {value!r} (standing, crouching or prone)")


def _vehicle(value: object, what: str) -> int:
    if value is None:
        return NO_VEHICLE
    if value in VEHICLE_SIZES:
        return VEHICLE_SIZES.index(value) + 1
    raise AmbushError(f"unknown {what} {value!r} (None, 'small' or 'large')")


def _check_vehicle_hex(board: Board, i: int, vehicle: int, what: str) -> None:
    if vehicle and board.terrain[i] == Terrain.BUILDING:
        raise AmbushError(f"{what} in a vehicle cannot be in building hex {board.label(i)}")


# -- one line, exactly ---------------------------------------------------------------------------
def _first_blocker(board, arr, i, j, dirs, ss, st, vs, vt) -> tuple[float, str] | None:
    """First blocker of one nudged trace (``None`` when clear) with its place along the line."""
    cols, rows, n = board.columns, board.rows, board.n
    a, b = board.coords(i), board.coords(j)
    path = hexgrid.walk_hexes(a, dirs)
    idx = np.array(
        [r * cols + c if 0 <= c < cols and 0 <= r < rows else n for c, r in path], dtype=np.int64
    )
    k = len(dirs)  # number of sides; mid hexes are path[1:k]
    mid = idx[1:k]
    ds = np.array([hexgrid.distance_cr(a, p) for p in path[1:k]], dtype=np.int16)
    dt = np.array([hexgrid.distance_cr(b, p) for p in path[1:k]], dtype=np.int16)
    ls, lt = arr.level[i], arr.level[j]
    hblk = hex_blocks(
        arr.level[mid], arr.blevel[mid], arr.obstacle[mid], arr.building[mid], ls, lt, ds, dt
    )
    sides = np.array(
        [
            board.side_id(int(idx[s]), dirs[s]) if idx[s] < n and idx[s + 1] < n else 3 * n
            for s in range(k)
        ],
        dtype=np.int64,
    )
    pos = np.arange(k)
    sblk = side_blocks(arr.crest[sides], arr.emb_level[sides], ls, lt, pos == 0, pos == k - 1)
    adjacent = k == 1
    ep_s = int(
        endpoint_code(
            arr.building[i], arr.wall[sides[0]], arr.aperture[sides[0]], ss, st, adjacent, vt
        )
    )
    ep_t = int(
        endpoint_code(
            arr.building[j], arr.wall[sides[-1]], arr.aperture[sides[-1]], st, ss, adjacent, vs
        )
    )

    def side_name(s: int, code: int = EP_WALL) -> str:
        return board.side_label(int(sides[s])) if code == EP_WALL else _EP_RULE[code]

    def side_t(s: int) -> float:
        (c0, r0), (c1, r1) = path[s], path[s + 1]
        x0, y0 = hexgrid.lattice_centre(c0, r0)
        x1, y1 = hexgrid.lattice_centre(c1, r1)
        return hexgrid.line_param(a, b, ((x0 + x1) / 2, (y0 + y1) / 2))

    if ep_s:
        return 0.0, side_name(0, ep_s)
    for s in range(k):
        if s > 0 and hblk[s - 1]:
            h = int(mid[s - 1])
            name = board.label(h) if h < n else "map_edge"
            return hexgrid.line_param(a, b, hexgrid.lattice_centre(*path[s])), name
        if sblk[s]:
            return side_t(s), board.side_label(int(sides[s]))
    if ep_t:
        return 1.0, side_name(k - 1, ep_t)
    return None


def _assess(
    board: Board,
    i: int,
    j: int,
    ss: int,
    st: int,
    vs: int,
    vt: int,
    cap,
    landmarks,
    extra: frozenset[int] = frozenset(),
) -> SightResult:
    _check_vehicle_hex(board, i, vs, "sighter")
    _check_vehicle_hex(board, j, vt, "target")
    if i == j:
        return CLEAR
    if cap is not None and board.distance(i, j) > cap:
        return SightResult(False, "sight_cap")
    arr = _arrays(board, landmarks, extra)
    best: tuple[float, str] | None = None
    for dirs in hexgrid.traces(board.coords(i), board.coords(j)):
        blocker = _first_blocker(board, arr, i, j, dirs, ss, st, vs, vt)
        if blocker is None:
            return CLEAR
        if best is None or blocker[0] > best[0]:
            best = blocker
    assert best is not None
    return SightResult(False, best[1])


def line_of_sight(
    board: Board,
    sighter: str,
    target: str,
    *,
    sighter_stance: str = "standing",
    target_stance: str = "standing",
    sighter_in_vehicle: str | None = None,
    target_in_vehicle: str | None = None,
    sight_cap: int | None = None,
    blocking_landmarks: Iterable[str] = (),
    landmark_hexes: Iterable[str] = (),
) -> SightResult:
    """Whether a soldier in ``sighter`` sees ``target`` on the live board (binding, RULES.md §3).

    Implements all of seed 004 (p. 17-20); see the module docstring for the rules and the
    readings chosen where the seed leaves a case open. Reciprocal for the same stances.

    Args:
        board: the live board (destroyed walls and collapsed hexes count).
        sighter: the sighter's hex label, e.g. ``"Q16"``.
        target: the target's hex label.
        sighter_stance: ``"standing" | "crouching" | "prone"`` (a Stance value is accepted).
        target_stance: likewise for the target.
        sighter_in_vehicle: ``None | "small" | "large"``: the sighter rides such a vehicle.
        target_in_vehicle: likewise for the target.
        sight_cap: a mission's sight range cap in hexes (night), or None.
        blocking_landmarks: landmark names (or hex labels of landmark hexes) the mission
            declares blocking.
        landmark_hexes: hex labels of blocking landmarks declared in play (``landmark``
            paragraph effects), blocking whatever the map says of the hex.

    Returns:
        :class:`SightResult`: ``.clear`` and ``.blocked_by`` (the first blocker from the sighter).

    Raises:
        AmbushError: a malformed or off-board label, an unknown stance or vehicle size, or a
            vehicle in a building hex (the message names it).
    """
    i = board.index(sighter)
    j = board.index(target)
    ss = _stance(sighter_stance, "sighter_stance")
    st = _stance(target_stance, "target_stance")
    vs = _vehicle(sighter_in_vehicle, "sighter_in_vehicle")
    vt = _vehicle(target_in_vehicle, "target_in_vehicle")
    extra = frozenset(
        board.index(h)
        for h in ([landmark_hexes] if isinstance(landmark_hexes, str) else landmark_hexes)
    )
    return _assess(board, i, j, ss, st, vs, vt, sight_cap, _landmark_set(blocking_landmarks), extra)


# -- every line of a board at once -----------------------------------------------------------------
@dataclass(frozen=True)
class _PairGeometry:
    """Every nudged trace between two hexes ``i < j`` of one board size, as flat arrays.

    Geometry only, shared by all boards of that size. A pair has 1 or 2 *instances* (nudged
    traces); instance ``k`` has steps ``step_ptr[k]:step_ptr[k + 1]``, step ``s`` crossing side
    ``step_side[s]`` into hex ``step_hex[s]`` (the last step enters the target, ``dt == 0``).
    An instance that leaves the map has every hex set to ``n`` and every side to ``3n``
    (off-map: blocked).
    """

    n: int
    pair_i: np.ndarray  # (P,) int32
    pair_j: np.ndarray  # (P,) int32
    pair_dist: np.ndarray  # (P,) int16
    pair_inst0: np.ndarray  # (P,) int64 first instance of the pair
    pair_count: np.ndarray  # (P,) int8 its number of instances (1 or 2)
    inst_pair: np.ndarray  # (I,) int32
    inst_first_side: np.ndarray  # (I,) side 0 id
    inst_last_side: np.ndarray  # (I,) side K id
    step_ptr: np.ndarray  # (I+1,) int64
    step_hex: np.ndarray  # (S,) int16|int32 hex entered
    step_side: np.ndarray  # (S,) int16|int32 side crossed
    step_ds: np.ndarray  # (S,) int8 distance of the entered hex to the pair's i
    step_dt: np.ndarray  # (S,) int8 ... to the pair's j


@lru_cache(maxsize=4)
def _pair_geometry(columns: int, rows: int) -> _PairGeometry:
    tt = hexgrid.trace_table(columns, rows)
    n = columns * rows
    it = np.int16 if 3 * n + 1 < np.iinfo(np.int16).max else np.int32
    col = np.arange(n, dtype=np.int32) % columns
    row = np.arange(n, dtype=np.int32) // columns
    pi, pj = np.triu_indices(n, 1)
    pi, pj = pi.astype(np.int32), pj.astype(np.int32)
    n_pairs = pi.shape[0]
    tmpl = tt.template(col[pi] & 1, col[pj] - col[pi], row[pj] - row[pi])
    cnt = tt.tmpl_count[tmpl]
    pair_inst0 = np.zeros(n_pairs, dtype=np.int64)
    np.cumsum(cnt[:-1], out=pair_inst0[1:])
    n_inst = int(cnt.sum())
    inst_pair = np.repeat(np.arange(n_pairs, dtype=np.int32), cnt)
    inst_trace = tt.tmpl_first[tmpl][inst_pair] + (
        np.arange(n_inst) - pair_inst0[inst_pair]
    ).astype(np.int32)
    t0 = tt.trace_ptr[inst_trace]
    steps = tt.trace_ptr[inst_trace + 1] - t0
    step_ptr = np.zeros(n_inst + 1, dtype=np.int64)
    np.cumsum(steps, out=step_ptr[1:])
    s_inst = pi[inst_pair]
    # Per-step offsets in index space for this board width (translation by whole rows and
    # by two columns maps the grid onto itself, so index offsets are constant per template).
    hex_off = (tt.step_dr.astype(np.int32) * columns + tt.step_dc).astype(np.int32)
    d = tt.step_dir.astype(np.int32)
    own_dc = np.where(d < 3, tt.step_from_dc, tt.step_dc).astype(np.int32)
    own_dr = np.where(d < 3, tt.step_from_dr, tt.step_dr).astype(np.int32)
    side_off = 3 * (own_dr * columns + own_dc) + np.where(d < 3, d, d - 3)
    # Global table step of every element: arange + per-instance shift (int32, in place).
    g = np.arange(int(step_ptr[-1]), dtype=np.int32)
    g += np.repeat((t0 - step_ptr[:-1]).astype(np.int32), steps)
    s_el = np.repeat(s_inst, steps)
    step_hex = hex_off[g]
    step_hex += s_el
    s_el *= 3
    step_side = side_off[g]
    step_side += s_el
    del s_el
    step_ds = tt.step_dist_s[g].astype(np.int8)
    step_dt = tt.step_dist_t[g].astype(np.int8)
    del g
    # Traces that leave the map (lines along the map edge): every hex off-map.
    tr = inst_trace
    c_s, r_s = col[s_inst], row[s_inst]
    off = (c_s + tt.trace_min_dc[tr] < 0) | (c_s + tt.trace_max_dc[tr] >= columns)
    off |= (r_s + tt.trace_min_dr[tr] < 0) | (r_s + tt.trace_max_dr[tr] >= rows)
    off_inst = np.nonzero(off)[0]
    if off_inst.size:
        pos, _ = _segments(step_ptr, off_inst)
        step_hex[pos] = n
        step_side[pos] = 3 * n
    dist = hexgrid.distance_np(col[pi].astype(np.int64), row[pi], col[pj].astype(np.int64), row[pj])
    return _PairGeometry(
        n=n,
        pair_i=pi,
        pair_j=pj,
        pair_dist=dist.astype(np.int16),
        pair_inst0=pair_inst0,
        pair_count=cnt.astype(np.int8),
        inst_pair=inst_pair,
        inst_first_side=step_side[step_ptr[:-1]],
        inst_last_side=step_side[step_ptr[1:] - 1],
        step_ptr=step_ptr,
        step_hex=step_hex.astype(it),
        step_side=step_side.astype(it),
        step_ds=step_ds,
        step_dt=step_dt,
    )


def _segments(ptr: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat element positions of the CSR segments ``which`` and the segment of each."""
    lens = ptr[which + 1] - ptr[which]
    owner = np.repeat(np.arange(which.shape[0]), lens)
    start = np.repeat(ptr[which], lens)
    offs = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    return start + offs, owner


def _any_by_segment(values: np.ndarray, ptr: np.ndarray) -> np.ndarray:
    """``any`` of each CSR segment of a bool array (empty segments give False)."""
    out = np.zeros(ptr.shape[0] - 1, dtype=bool)
    if values.size:
        nz = ptr[:-1] < ptr[1:]
        out[nz] = np.logical_or.reduceat(values, ptr[:-1][nz])
    return out


class SightCache:
    """Line of sight between every two hexes of one board, for every pair of stances.

    Precomputed with numpy on construction (a 30 x 20 board in well under two seconds) and kept
    in step with the live board: each query compares ``board.version`` and, after a mutation,
    recomputes only the lines that cross a changed hex or start/end there or at a changed
    hexside (RULES.md §2: destroyed walls are clear, collapsed hexes are rubble). Answers equal
    :func:`line_of_sight` with the same arguments.

    Memory: ``9 n^2`` bools per cache, plus the line geometry of the board size, shared by
    every cache of that size in the process (about 28 MB for 30 x 20, 50 MB for 32 x 24). A
    new game on the same map should reuse the board and cache and call
    :meth:`Board.set_mutable_state` (then only what differs is recomputed) rather than build
    a new cache. Mutate the board only through its methods (they bump ``board.version``).

    Args:
        board: the live board (the cache keeps a reference and follows its mutations).
        sight_cap: a mission's sight range cap in hexes, or None.
        blocking_landmarks: landmark names (or hex labels) the mission declares blocking.
        landmark_hexes: hex indices of blocking landmarks declared in play (``landmark``
            effects); :meth:`with_landmark_hexes` derives such a cache from another cheaply.

    Attributes:
        board: the board.
        sight_cap: the cap.
        blocking_landmarks: ``frozenset[str]``.
        landmark_hexes: ``frozenset[int]``.
    """

    def __init__(
        self,
        board: Board,
        *,
        sight_cap: int | None = None,
        blocking_landmarks: Iterable[str] = (),
        landmark_hexes: Iterable[int] = (),
    ) -> None:
        self.board = board
        self.sight_cap = sight_cap
        self.blocking_landmarks = _landmark_set(blocking_landmarks)
        self.landmark_hexes: frozenset[int] = frozenset(int(h) for h in landmark_hexes)
        self._n = board.n
        self._geo = _pair_geometry(board.columns, board.rows)
        self._memo: dict[tuple, SightResult] = {}
        # adjacent (or same-hex) pairs with a vehicle endpoint, by hex index: such a line depends
        # only on its two hexes and the hexside between them, so a mutation drops just the entries it
        # touches (:meth:`_refresh`)
        self._adj: dict[tuple, bool] = {}
        self._full_build()

    # -- building ------------------------------------------------------------------------------
    def _full_build(self) -> None:
        geo, board = self._geo, self.board
        self._adj.clear()
        self._version = board.version
        self._arr = arr = _build_arrays(board, self.blocking_landmarks, self.landmark_hexes)
        self._inst_li = arr.level[geo.pair_i][geo.inst_pair]
        self._inst_lj = arr.level[geo.pair_j][geo.inst_pair]
        # Sides: crests and embankments never change in play, so this is computed once.
        self._side_any = self._side_any_all()
        self._hex_any = self._hex_any_for(None)
        vis = np.zeros((3, 3, self._n, self._n), dtype=bool)
        idx = np.arange(self._n)
        vis[:, :, idx, idx] = True
        self._vis = vis
        self._write_pairs(np.arange(geo.pair_i.shape[0]))

    def _side_any_all(self) -> np.ndarray:
        """Whether a crossed hexside (crest, embankment) blocks each instance."""
        geo, arr = self._geo, self._arr
        out = np.zeros(geo.inst_pair.shape[0], dtype=bool)
        featured = arr.crest | (arr.emb_level >= 0)
        pos = np.nonzero(featured[geo.step_side])[0]  # the few steps crossing such a side
        if pos.size:
            inst = np.searchsorted(geo.step_ptr, pos, side="right") - 1
            sid = geo.step_side[pos]
            blk = side_blocks(
                arr.crest[sid],
                arr.emb_level[sid],
                self._inst_li[inst],
                self._inst_lj[inst],
                pos == geo.step_ptr[inst],
                pos == geo.step_ptr[inst + 1] - 1,
            )
            out[inst[blk]] = True
        return out

    def _hex_any_for(self, insts: np.ndarray | None) -> np.ndarray:
        """Whether an intervening hex blocks each instance (all instances when ``insts`` is None).

        Ground blocks only above both endpoints: one max-reduction per instance (the target's own
        level never exceeds the higher endpoint, so it can stay in the reduction). Woods and
        buildings are few: the full rule runs on those steps only.
        """
        geo, arr = self._geo, self._arr
        if insts is None:
            insts = np.arange(geo.inst_pair.shape[0])
            pos = np.arange(geo.step_hex.shape[0])
            ptr = geo.step_ptr
            owner = None
        else:
            pos, owner = _segments(geo.step_ptr, insts)
            lens = geo.step_ptr[insts + 1] - geo.step_ptr[insts]
            ptr = np.zeros(insts.shape[0] + 1, dtype=np.int64)
            np.cumsum(lens, out=ptr[1:])
        li, lj = self._inst_li[insts], self._inst_lj[insts]
        hexes = geo.step_hex[pos]
        out = np.maximum.reduceat(arr.level[hexes], ptr[:-1]) > np.maximum(li, lj)
        sel = np.nonzero(arr.obstacle[hexes] | arr.building[hexes])[0]
        if sel.size:
            k = np.searchsorted(ptr, sel, side="right") - 1 if owner is None else owner[sel]
            h, p = hexes[sel], pos[sel]
            dt = geo.step_dt[p]
            blk = hex_blocks(
                arr.level[h],
                arr.blevel[h],
                arr.obstacle[h],
                arr.building[h],
                li[k],
                lj[k],
                geo.step_ds[p],
                dt,
            )
            blk &= dt > 0  # the last step enters the target's hex, which never blocks
            out[k[blk]] = True
        return out

    def _write_pairs(self, pairs: np.ndarray) -> None:
        """Recompute ``vis`` for the given pair ids (all their instances, all 9 stance pairs)."""
        geo, arr = self._geo, self._arr
        if not pairs.size:
            return
        counts = geo.pair_count[pairs].astype(np.int64)
        inst = np.repeat(geo.pair_inst0[pairs], counts) + (
            np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        )
        seg = np.zeros(pairs.shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=seg[1:])
        pi, pj = geo.pair_i[pairs], geo.pair_j[pairs]
        open_line = ~(self._hex_any[inst] | self._side_any[inst])
        reach = np.ones(pairs.shape[0], dtype=bool)
        if self.sight_cap is not None:
            reach = geo.pair_dist[pairs] <= self.sight_cap
        # Only lines with an endpoint inside a building depend on stances (the aperture rules).
        ip = geo.inst_pair[inst]
        in_i, in_j = arr.building[geo.pair_i[ip]], arr.building[geo.pair_j[ip]]
        sub = np.nonzero((in_i | in_j) & open_line)[0]
        ins, in_i, in_j = inst[sub], in_i[sub], in_j[sub]
        adjacent = geo.pair_dist[ip[sub]] == 1
        fs, ls_ = geo.inst_first_side[ins], geo.inst_last_side[ins]
        w_f, a_f, w_l, a_l = arr.wall[fs], arr.aperture[fs], arr.wall[ls_], arr.aperture[ls_]
        ok_i = [
            [endpoint_code(in_i, w_f, a_f, a, b, adjacent, NO_VEHICLE) == 0 for b in range(3)]
            for a in range(3)
        ]
        ok_j = [
            [endpoint_code(in_j, w_l, a_l, a, b, adjacent, NO_VEHICLE) == 0 for b in range(3)]
            for a in range(3)
        ]
        for a in range(3):  # stance of i
            for b in range(3):  # stance of j
                ok = open_line.copy()
                ok[sub] = ok_i[a][b] & ok_j[b][a]
                clear = np.logical_or.reduceat(ok, seg[:-1]) & reach
                self._vis[a, b, pi, pj] = clear
                self._vis[b, a, pj, pi] = clear

    def _refresh(self) -> None:
        """Bring the cache up to the board's version, recomputing only what changed."""
        board = self.board
        changes = board.changes_since(self._version)
        self._memo.clear()
        if changes is None:
            self._full_build()
            return
        hexes, sides = changes
        self._version = board.version
        self._apply_changes(hexes, sides)

    def _apply_changes(self, hexes: set[int], sides: set[int]) -> None:
        """Recompute the lines that ``hexes`` and ``sides`` changing touch (:meth:`_refresh`)."""
        board, geo = self.board, self._geo
        if self._adj and (hexes or sides):
            between = board.side_between
            self._adj = {
                k: v
                for k, v in self._adj.items()
                if k[0] not in hexes
                and k[1] not in hexes
                and (k[0] == k[1] or between(k[0], k[1]) not in sides)
            }
        self._arr = _updated_arrays(
            self._arr, board, self.blocking_landmarks, hexes, sides, self.landmark_hexes
        )
        n = self._n
        in_x = np.zeros(n + 1, dtype=bool)
        in_x[list(hexes)] = True
        in_y = np.zeros(3 * n + 1, dtype=bool)
        in_y[list(sides)] = True
        # Lines crossing a changed hex: recompute their intervening-hex verdict.
        insts = np.zeros(0, dtype=np.int64)
        if hexes:
            touched = np.nonzero(in_x[geo.step_hex])[0]
            insts = np.unique(np.searchsorted(geo.step_ptr, touched, side="right") - 1)
        if insts.size:
            self._hex_any[insts] = self._hex_any_for(insts)
        # Pairs to rewrite: those lines, lines ending at a changed hex or leaving by a changed side.
        end_inst = in_y[geo.inst_first_side] | in_y[geo.inst_last_side]
        pairs = np.concatenate(
            [
                geo.inst_pair[insts],
                geo.inst_pair[np.nonzero(end_inst)[0]],
                np.nonzero(in_x[geo.pair_i] | in_x[geo.pair_j])[0],
            ]
        )
        pairs = np.unique(pairs)
        if pairs.size:
            self._write_pairs(pairs)

    def with_landmark_hexes(self, hexes: Iterable[int]) -> SightCache:
        """A new cache of the same board, cap and landmarks whose ``landmark_hexes`` are
        ``hexes`` (blocking landmarks declared in play), this one left as it is.

        Costs the lines that cross or end at the hexes that differ (a copy of the tables,
        then :meth:`_refresh`'s partial recompute), not a full build.
        """
        self.invalidate()
        new = object.__new__(SightCache)
        new.__dict__.update(self.__dict__)
        target = frozenset(int(h) for h in hexes)
        changed = set(target ^ self.landmark_hexes)
        new.landmark_hexes = target
        new._memo = {}
        new._adj = {}
        new._vis = self._vis.copy()
        new._hex_any = self._hex_any.copy()
        if changed:
            new._apply_changes(changed, set())
        return new

    def invalidate(self) -> None:
        """Bring the cache up to the board now (queries also do it by themselves).

        Recomputes only what the board's change log says changed since the last query (after
        :meth:`Board.set_mutable_state` too); a full rebuild only when the log does not reach back.
        """
        if self._version != self.board.version:
            self._refresh()

    # -- queries -------------------------------------------------------------------------------
    def can_see(
        self,
        i: int,
        j: int,
        stance_s: int = Stance.STANDING,
        stance_t: int = Stance.STANDING,
        sighter_in_vehicle: str | None = None,
        target_in_vehicle: str | None = None,
    ) -> bool:
        """Whether a soldier in hex ``i`` sees hex ``j`` (RULES.md §3), by hex index.

        Args:
            i, j: hex indices of the sighter and the target.
            stance_s, stance_t: Stance values (0 standing, 1 crouching, 2 prone).
            sighter_in_vehicle, target_in_vehicle: ``None | "small" | "large"``; only a vehicle
                adjacent to a soldier in a building differs from a soldier (seed 004 p. 18).

        Returns:
            True when in sight. Inputs are not validated (engine hot path).
        """
        if self._version != self.board.version:
            self._refresh()
        if sighter_in_vehicle is None and target_in_vehicle is None:
            return self._vis.item(stance_s, stance_t, i, j)
        bld = self._arr.building
        if self.board.distance(i, j) > 1 or not (bld.item(i) or bld.item(j)):
            # a vehicle endpoint changes the sight only across an adjacent hexside, at a soldier
            # in a building (the aperture rows of ``endpoint_code``, seed 004 p. 18): anywhere
            # else it is a soldier's
            return self._vis.item(stance_s, stance_t, i, j)
        # an adjacent vehicle endpoint: traced once, memoised until a mutation (the tanks'
        # weapon orders ask the same pairs at every step)
        key = (i, j, stance_s, stance_t, sighter_in_vehicle, target_in_vehicle)
        hit = self._adj.get(key)
        if hit is None:
            hit = self._adj[key] = self._assess(
                i, j, stance_s, stance_t, sighter_in_vehicle, target_in_vehicle
            ).clear
        return hit

    def soldier_sight(self) -> Callable[[int, int, int, int], bool]:
        """A fast :meth:`can_see` for soldiers on foot, valid until the board next changes:
        ``f(stance_s, stance_t, i, j)`` (note the order) reads the sight table directly."""
        if self._version != self.board.version:
            self._refresh()
        return self._vis.item

    def visible_from(
        self, i: int, stance_s: int = Stance.STANDING, stance_t: int = Stance.STANDING
    ) -> np.ndarray:
        """``(n,) bool``: the hexes a soldier in hex ``i`` sees, for targets in ``stance_t``."""
        if self._version != self.board.version:
            self._refresh()
        return self._vis[stance_s, stance_t, i].copy()

    def matrix(
        self, stance_s: int = Stance.STANDING, stance_t: int = Stance.STANDING
    ) -> np.ndarray:
        """``(n, n) bool`` read-only view: ``[i, j]`` is :meth:`can_see` ``(i, j, stance_s, stance_t)``."""
        if self._version != self.board.version:
            self._refresh()
        view = self._vis[stance_s, stance_t]
        view.flags.writeable = False
        return view

    def sees(
        self,
        sighter: str,
        target: str,
        sighter_stance: str = "standing",
        target_stance: str = "standing",
    ) -> bool:
        """:meth:`can_see` by hex labels and stance names (validated).

        Raises:
            AmbushError: a bad label or stance.
        """
        b = self.board
        return self.can_see(
            b.index(sighter),
            b.index(target),
            _stance(sighter_stance, "sighter_stance"),
            _stance(target_stance, "target_stance"),
        )

    def line_of_sight(
        self,
        sighter: str,
        target: str,
        *,
        sighter_stance: str = "standing",
        target_stance: str = "standing",
        sighter_in_vehicle: str | None = None,
        target_in_vehicle: str | None = None,
    ) -> SightResult:
        """:func:`line_of_sight` on this cache's board, cap and landmarks, memoised until a mutation.

        Raises:
            AmbushError: a bad label, stance or vehicle size.
        """
        if self._version != self.board.version:
            self._refresh()
        key = (
            sighter,
            target,
            sighter_stance,
            target_stance,
            sighter_in_vehicle,
            target_in_vehicle,
        )
        hit = self._memo.get(key)
        if hit is None:
            b = self.board
            hit = self._assess(
                b.index(sighter),
                b.index(target),
                _stance(sighter_stance, "sighter_stance"),
                _stance(target_stance, "target_stance"),
                sighter_in_vehicle,
                target_in_vehicle,
            )
            self._memo[key] = hit
        return hit

    def _assess(self, i, j, ss, st, vs, vt) -> SightResult:
        return _assess(
            self.board,
            i,
            j,
            int(ss),
            int(st),
            _vehicle(vs, "sighter_in_vehicle"),
            _vehicle(vt, "target_in_vehicle"),
            self.sight_cap,
            self.blocking_landmarks,
            self.landmark_hexes,
        )

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_geo")
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._geo = _pair_geometry(self.board.columns, self.board.rows)
