"""Owns the live map: hexes, hexsides with their walls and apertures, and the changes play
makes to them (RULES.md §2, §15).

:func:`load_board` (binding) reads a map file::

    name: hedgerow-crossing
    columns: 16            # A..P
    rows: 12
    default: {terrain: clear, level: 0}
    hexes:
      D5: {terrain: building, building: farm}
      J3: {terrain: building, building: church, rise: 2}
      G6: {level: 1}
      K9: {landmark: mill}
    hexsides:
      G6/G7: embankment          # or crest | slope | wall
      D5/D6: {wall: stone, aperture: door}
      D5/E5: {wall: wood, aperture: window}

Schema (every problem raises :class:`~ambush_env.core.model.errors.DataError` naming the file and the
field, e.g. ``hexsides.D5/D7``):

- ``name`` (str), ``columns`` (1-``MAX_COLUMNS``), ``rows`` (1-``MAX_ROWS``), optional ``notes``
  (free text).
- ``default``: ``terrain`` (default ``clear``) and ``level`` (0-3, default 0) of unlisted hexes.
- ``hexes.LABEL``: ``terrain`` (clear, road, woods, brush, rubble, rough, building, river,
  crater), ``level`` 0-3, ``building`` (building id; only on building hexes, default: the hex's
  label), ``rise`` (0-3 levels above the ground, building hexes only: the church steeple of
  seed 004 is ``rise: 2``), ``landmark`` (a name a mission may declare blocking).
- ``hexsides.A/B`` (A and B adjacent, either order): ``embankment``, ``crest``, ``slope``,
  ``wall`` (a stone wall), or a mapping ``{wall: stone|wood|none, aperture: none|door|window,
  embankment: bool, crest: bool, slope: bool}``.
- Every hexside between a building hex and a hex outside that building is a wall (RULES.md §2):
  stone unless the map says ``wall: wood``, no aperture unless the map gives one, and
  ``wall: none`` leaves it open. Hexsides between hexes of one building are open unless the map
  gives an (interior) wall. A wall between two non-building hexes is a field wall: cover only,
  never a sight blocker (RULES.md §3).
- An embankment between two hexes of the same level is allowed but warns (it does nothing).

Hexside ids. Each hexside has an integer id: the N, NE and SE sides of hex ``i`` are
``3 * i + 0``, ``+ 1``, ``+ 2``; its S, SW and NW sides are the N, NE and SE sides of the
neighbour there. ``3 * n`` is a sentinel for any side touching the off-map area. Per-side data
(:attr:`Board.side_wall` and friends) are plain lists indexed by side id.

Mutations during play (:meth:`Board.destroy_wall`, :meth:`Board.collapse`,
:meth:`Board.set_mutable_state`) bump :attr:`Board.version` and log which hexes and hexsides they
touched, so :class:`~ambush_env.core.world.los.SightCache` recomputes only what changed.
"""

from __future__ import annotations

import copy as _copy
import functools
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, ValidationError

from ambush_env.core.model.errors import AmbushError, DataError
from ambush_env.core.model.types import TERRAIN_NAMES, Terrain
from ambush_env.core.world import hexgrid
from ambush_env.core.world.data import Frozen, data_path, list_data, read_yaml, validate

#: Wall material codes of :attr:`Board.side_wall`.
WALL_NAMES: tuple[str | None, ...] = (None, "stone", "wood")
#: Aperture codes of :attr:`Board.side_aperture`.
APERTURE_NAMES: tuple[str | None, ...] = (None, "door", "window")
NO_WALL, STONE, WOOD = 0, 1, 2
NO_APERTURE, DOOR, WINDOW = 0, 1, 2

MAX_LEVEL = 3
MAX_RISE = 3


# -- the file schema ---------------------------------------------------------------------------
class _DefaultSpec(Frozen):
    terrain: str = "clear"
    level: int = 0


class _HexSpec(Frozen):
    terrain: str | None = None
    level: int | None = None
    building: str | None = None
    rise: int | None = None
    landmark: str | None = None


class _SideSpec(Frozen):
    wall: Literal["stone", "wood", "none"] | None = None
    aperture: Literal["none", "door", "window"] | None = None
    embankment: bool = False
    crest: bool = False
    slope: bool = False


#: ⚙ The largest map: the one the env's observation holds (``env/spec.py`` BOARD_W × BOARD_H,
#: checked equal by a test). A bigger one would also make the sight tables (hexes² pairs)
#: exhaust memory, so it is a DataError at load, naming ``columns`` or ``rows``.
MAX_COLUMNS = 32
MAX_ROWS = 24


class _MapSpec(Frozen):
    name: str
    columns: int = Field(ge=1, le=MAX_COLUMNS)
    rows: int = Field(ge=1, le=MAX_ROWS)
    notes: str | None = None
    default: _DefaultSpec = _DefaultSpec()
    hexes: dict[str, _HexSpec] = {}
    hexsides: dict[str, Any] = {}  # a feature name or a _SideSpec mapping, checked per entry


@dataclass(frozen=True)
class Hexside:
    """What lies on one hexside now (RULES.md §2); a snapshot, not a live view.

    Attributes:
        wall: ``None``, ``"stone"`` or ``"wood"`` (``None`` once destroyed).
        aperture: ``None``, ``"door"`` or ``"window"`` in that wall (``None`` once destroyed).
        embankment, crest, slope: elevation features (seed 004, p. 17-18).
        destroyed: the wall that stood here has been destroyed (seed 002); the side is clear.
    """

    wall: str | None
    aperture: str | None
    embankment: bool
    crest: bool
    slope: bool
    destroyed: bool


class Board:
    """A map in play: per-hex terrain and levels, per-hexside features, live mutations.

    Build one with :func:`load_board` or :func:`board_from_dict`. Hexes are addressed by index
    ``row0 * columns + col`` (see :mod:`ambush_env.core.world.hexgrid`).

    Attributes:
        name: the map's name.
        columns, rows: size in hexes; ``n = columns * rows``.
        terrain: ``list[Terrain]`` per hex (live: a collapsed building hex becomes rubble).
        level: ``tuple[int]`` ground level 0-3 per hex.
        building: ``list[str | None]`` building id per hex (live).
        rise: ``list[int]`` levels a building hex rises above its ground (live).
        landmark: ``tuple[str | None]`` landmark name per hex.
        neighbors: ``tuple[tuple[int, ...]]`` per hex, 6 indices in Direction order, -1 off-map.
        side_wall, side_aperture: ``list[int]`` per side id, the map's wall (0 none, 1 stone,
            2 wood) and aperture (0 none, 1 door, 2 window) codes; they stay as loaded when the
            wall is destroyed: read :attr:`side_destroyed` too, or use :meth:`hexside`.
        side_embankment, side_crest, side_slope: ``tuple[bool]`` per side id.
        side_destroyed: ``list[bool]`` per side id (live).
        version: bumped by every mutation.
        origin: None for a map loaded as its mission's; for a map a position gave
            (``map:``, :mod:`~ambush_env.core.play.position`), what it gave — the map inline (a
            mapping of this file schema) or a map id or path — which a position of a game on
            this board writes back.

    Mutate the live lists only through :meth:`destroy_wall`, :meth:`collapse` and
    :meth:`set_mutable_state`: they bump :attr:`version` and log what changed, which the
    sight caches rely on.
    """

    def __init__(
        self,
        *,
        name: str,
        columns: int,
        rows: int,
        terrain: Sequence[int],
        level: list[int],
        building: list[str | None],
        rise: list[int],
        landmark: list[str | None],
        side_wall: list[int],
        side_aperture: list[int],
        side_embankment: list[bool],
        side_crest: list[bool],
        side_slope: list[bool],
    ) -> None:
        self.name = name
        self.columns = columns
        self.rows = rows
        self.n = n = columns * rows
        self.terrain: list[Terrain] = [Terrain(t) for t in terrain]
        self.level: tuple[int, ...] = tuple(level)
        self.building: list[str | None] = list(building)
        self.rise: list[int] = list(rise)
        self.landmark: tuple[str | None, ...] = tuple(landmark)
        self.side_wall: list[int] = list(side_wall)
        self.side_aperture: list[int] = list(side_aperture)
        self.side_embankment: tuple[bool, ...] = tuple(side_embankment)
        self.side_crest: tuple[bool, ...] = tuple(side_crest)
        self.side_slope: tuple[bool, ...] = tuple(side_slope)
        self.side_destroyed: list[bool] = [False] * (3 * n + 1)
        self.version = 0
        self.origin: str | dict | None = None
        self._live: tuple[int, tuple] = (-1, ())  # (version, live_key) (:meth:`live_key`)
        self._log: list[tuple[int, frozenset[int], frozenset[int]]] = []
        self._pristine = (tuple(self.terrain), tuple(self.building), tuple(self.rise))
        # Geometry tables (immutable, shared by copies and by every board of this size).
        self._labels, self._index, self.neighbors, self._cx, self._cy, self._cz = _geometry(
            columns, rows
        )
        # hex distances as rows of Python ints (a hot path of the order generator), built on
        # first use from :meth:`distance_table` (a generated map that is only checked never
        # pays for them)
        self._drows: tuple[tuple[int, ...], ...] | None = None
        self._dist: np.ndarray | None = None

    # -- addressing ------------------------------------------------------------------------
    def index(self, label: str) -> int:
        """Index of a hex label on this board.

        Raises:
            AmbushError: the label is malformed or off the board (the message names it).
        """
        try:
            return self._index[label]
        except (KeyError, TypeError):
            pass
        hexgrid.parse_label(label)  # raises on a malformed label
        raise AmbushError(
            f"hex {label!r} is off the board {self.name!r} (columns A-{hexgrid.col_letters(self.columns - 1)}, "
            f"rows 1-{self.rows})"
        )

    def label(self, i: int) -> str:
        """Label of hex index ``i`` (``"Q16"``)."""
        return self._labels[i]

    def coords(self, i: int) -> tuple[int, int]:
        """``(col, row0)`` of hex index ``i``."""
        return i % self.columns, i // self.columns

    def distance(self, i: int, j: int) -> int:
        """Hex distance between two hex indices, in hexes."""
        rows = self._drows
        if rows is None:
            rows = self._distance_rows()
        return rows[i][j]

    def distance_row(self, i: int) -> tuple[int, ...]:
        """``row[j]`` = :meth:`distance` ``(i, j)`` for every hex ``j`` (hexes; the rows are
        built on first use)."""
        rows = self._drows
        if rows is None:
            rows = self._distance_rows()
        return rows[i]

    def _distance_rows(self) -> tuple[tuple[int, ...], ...]:
        self._drows = tuple(map(tuple, self.distance_table().tolist()))
        return self._drows

    def distance_table(self) -> np.ndarray:
        """``(n, n) int16`` hex distances between every pair of hexes (computed once, read-only)."""
        if self._dist is None:
            cx, cy, cz = (np.asarray(a, dtype=np.int16) for a in (self._cx, self._cy, self._cz))
            d = np.maximum(np.abs(cx[:, None] - cx[None, :]), np.abs(cy[:, None] - cy[None, :]))
            d = np.maximum(d, np.abs(cz[:, None] - cz[None, :]))
            d.setflags(write=False)
            self._dist = d
        return self._dist

    def offset_hex(self, i: int, dq: int, dr: int) -> int:
        """The hex at axial offset ``(dq, dr)`` (cube ``x``, ``z``) from hex ``i``; -1 off the board.

        Axial offsets are translation-invariant, unlike ``(col, row)`` differences in odd-q
        layout: ``(+1, 0)`` is always the SE neighbour, ``(0, -1)`` the N one.
        """
        c, r = hexgrid.axial_to_cr(self._cx[i] + dq, self._cz[i] + dr)
        return r * self.columns + c if 0 <= c < self.columns and 0 <= r < self.rows else -1

    def offset_table(self, offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        """``table[i][k]`` = :meth:`offset_hex` ``(i, *offsets[k])`` for every hex ``i``: the
        same for every board of this size, so built once per size and ``offsets``."""
        return _offset_table(self.columns, self.rows, tuple(offsets))

    def direction(self, i: int, j: int) -> int | None:
        """The Direction from hex ``i`` to an adjacent hex ``j``, or None when not adjacent."""
        row = self.neighbors[i]
        return row.index(j) if j in row and j >= 0 else None

    def hexes_within(self, i: int, r: int) -> list[int]:
        """Indices of the hexes within ``r`` hexes of ``i`` (``i`` included), ascending."""
        return np.nonzero(self.distance_table()[i] <= r)[0].tolist()

    # -- hexsides --------------------------------------------------------------------------
    def side_id(self, i: int, d: int) -> int:
        """Id of the hexside of hex ``i`` in Direction ``d`` (module doc); ``3 n`` when off-map."""
        if d < 3:
            return 3 * i + d if self.neighbors[i][d] >= 0 else 3 * self.n
        j = self.neighbors[i][d]
        return 3 * j + d - 3 if j >= 0 else 3 * self.n

    def side_between(self, i: int, j: int) -> int:
        """Id of the hexside between adjacent hexes ``i`` and ``j``.

        Raises:
            AmbushError: the hexes are not adjacent.
        """
        d = self.direction(i, j)
        if d is None:
            raise AmbushError(f"{self._labels[i]} and {self._labels[j]} are not adjacent")
        return self.side_id(i, d)

    def side_hexes(self, sid: int) -> tuple[int, int]:
        """The two hexes ``(i, j)`` of side id ``sid`` (``j`` is ``i``'s N, NE or SE neighbour)."""
        i, k = divmod(sid, 3)
        return i, self.neighbors[i][k]

    def hexside(self, i: int, j: int) -> Hexside | None:
        """What lies now on the hexside between hexes ``i`` and ``j``; None when not adjacent."""
        d = self.direction(i, j)
        if d is None:
            return None
        s = self.side_id(i, d)
        gone = self.side_destroyed[s]
        return Hexside(
            wall=None if gone else WALL_NAMES[self.side_wall[s]],
            aperture=None if gone else APERTURE_NAMES[self.side_aperture[s]],
            embankment=self.side_embankment[s],
            crest=self.side_crest[s],
            slope=self.side_slope[s],
            destroyed=gone,
        )

    def hexside_label(self, i: int, j: int) -> str:
        """``"Q16/Q17"``: the two hexes, lower column first, then lower row (RULES.md §3)."""
        a, b = sorted((i, j), key=lambda k: (k % self.columns, k // self.columns))
        return f"{self._labels[a]}/{self._labels[b]}"

    def side_label(self, sid: int) -> str:
        """Hexside label of a side id (see :meth:`hexside_label`)."""
        return self.hexside_label(*self.side_hexes(sid))

    def intact_wall(self, sid: int) -> bool:
        """True when side ``sid`` carries a wall that has not been destroyed."""
        return self.side_wall[sid] != NO_WALL and not self.side_destroyed[sid]

    # -- mutations -------------------------------------------------------------------------
    def _record(self, hexes: Iterable[int], sides: Iterable[int]) -> None:
        self.version += 1
        self._log.append((self.version, frozenset(hexes), frozenset(sides)))
        if len(self._log) > 256:
            del self._log[:128]

    def live_key(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A hashable key of the live state: ``(collapsed hexes, destroyed side ids)``, sorted.
        Equal keys mean equal live maps (unlike :attr:`version`, which only grows), so a cache
        keyed by it stays valid when a reset restores the map. Recomputed once per version."""
        if self._live[0] != self.version:
            pristine = self._pristine[0]
            self._live = (
                self.version,
                (
                    tuple(i for i in range(self.n) if self.terrain[i] != pristine[i]),
                    tuple(sid for sid, gone in enumerate(self.side_destroyed) if gone),
                ),
            )
        return self._live[1]

    def changes_since(self, version: int) -> tuple[set[int], set[int]] | None:
        """Hexes and side ids changed after ``version``; None when the log no longer reaches back."""
        if version == self.version:
            return set(), set()
        if not self._log or self._log[0][0] > version + 1 or version > self.version:
            return None
        hexes: set[int] = set()
        sides: set[int] = set()
        for v, h, s in self._log:
            if v > version:
                hexes |= h
                sides |= s
        return hexes, sides

    def destroy_wall(self, i: int, j: int) -> bool:
        """Destroy the wall between adjacent hexes ``i`` and ``j``: the side becomes clear (seed 002).

        Returns:
            True when a wall was destroyed; False (and no change) when there was no intact wall.

        Raises:
            AmbushError: the hexes are not adjacent.
        """
        s = self.side_between(i, j)
        if not self.intact_wall(s):
            return False
        self.side_destroyed[s] = True
        self._record((), {s})
        return True

    def collapse(self, i: int) -> None:
        """Collapse building hex ``i`` into rubble; its walls go (seed 002, RULES.md §11).

        The hex becomes :attr:`Terrain.RUBBLE`, leaves its building, loses its rise, and every
        wall on its six hexsides is destroyed.

        Raises:
            AmbushError: hex ``i`` is not a building hex.
        """
        if self.terrain[i] != Terrain.BUILDING:
            raise AmbushError(f"cannot collapse {self._labels[i]}: it is not a building hex")
        self.terrain[i] = Terrain.RUBBLE
        self.building[i] = None
        self.rise[i] = 0
        sides = {self.side_id(i, d) for d in range(6)} - {3 * self.n}
        for s in sides:
            if self.side_wall[s] != NO_WALL:
                self.side_destroyed[s] = True
        self._record({i}, sides)

    def mutable_state(self) -> dict[str, list[str]]:
        """JSON-able record of what play has changed: ``{"collapsed": [...], "destroyed_walls": [...]}``.

        ``collapsed`` lists hex labels, ``destroyed_walls`` hexside labels (walls lost to a
        collapse included), both sorted.
        """
        collapsed = sorted(
            (i for i in range(self.n) if self.terrain[i] != self._pristine[0][i]),
            key=self._sort_key,
        )
        destroyed = sorted(
            (s for s, g in enumerate(self.side_destroyed) if g), key=self._side_sort_key
        )
        return {
            "collapsed": [self._labels[i] for i in collapsed],
            "destroyed_walls": [self.side_label(s) for s in destroyed],
        }

    def set_mutable_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`mutable_state` returned (``{}`` restores the map as loaded).

        Only the hexes and hexsides that differ from the current state are logged as changed.

        Raises:
            AmbushError: a label in ``state`` is malformed, off the board or not adjacent.
        """
        collapsed = [self.index(lab) for lab in state.get("collapsed", [])]
        destroyed = []
        for lab in state.get("destroyed_walls", []):
            parts = lab.split("/") if isinstance(lab, str) else []
            if len(parts) != 2:
                raise AmbushError(f"malformed hexside label {lab!r} (expected e.g. 'Q16/Q17')")
            destroyed.append(self.side_between(self.index(parts[0]), self.index(parts[1])))
        before_hex = [(self.terrain[i], self.building[i], self.rise[i]) for i in range(self.n)]
        before_side = list(self.side_destroyed)
        terr, bld, rise = self._pristine
        self.terrain[:] = terr
        self.building[:] = bld
        self.rise[:] = rise
        self.side_destroyed[:] = [False] * len(self.side_destroyed)
        for i in collapsed:
            if self.terrain[i] == Terrain.BUILDING:
                self.terrain[i], self.building[i], self.rise[i] = Terrain.RUBBLE, None, 0
                for d in range(6):
                    s = self.side_id(i, d)
                    if s != 3 * self.n and self.side_wall[s] != NO_WALL:
                        self.side_destroyed[s] = True
        for s in destroyed:
            if self.side_wall[s] != NO_WALL:
                self.side_destroyed[s] = True
        hexes = {
            i
            for i in range(self.n)
            if before_hex[i] != (self.terrain[i], self.building[i], self.rise[i])
        }
        sides = {s for s, g in enumerate(self.side_destroyed) if g != before_side[s]}
        if hexes or sides:
            self._record(hexes, sides)

    def copy(self) -> Board:
        """An independent board with the same map and the same mutable state.

        The static tables (labels, neighbours, levels, hexside features) are shared; the live
        lists are copied. The copy starts with an empty change log.
        """
        b = _copy.copy(self)
        b.terrain = list(self.terrain)
        b.building = list(self.building)
        b.rise = list(self.rise)
        b.side_destroyed = list(self.side_destroyed)
        b._log = []
        return b

    def _sort_key(self, i: int) -> tuple[int, int]:
        return i % self.columns, i // self.columns

    def _side_sort_key(self, s: int) -> tuple[int, int, int, int]:
        a, b = sorted(self.side_hexes(s), key=self._sort_key)
        return (*self._sort_key(a), *self._sort_key(b))

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.columns}x{self.rows}, version={self.version})"


@functools.lru_cache(maxsize=64)
def _geometry(
    columns: int, rows: int
) -> tuple[
    tuple[str, ...],
    dict[str, int],
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
]:
    """The size-only tables of a board (built once per size; never changed): labels, the
    label index, neighbours per Direction (-1 off the map) and cube coordinates."""
    n = columns * rows
    labels = tuple(hexgrid.make_label(i % columns, i // columns) for i in range(n))
    index = {lab: i for i, lab in enumerate(labels)}
    nb = []
    for i in range(n):
        c, r = i % columns, i // columns
        row = []
        for d in range(6):
            cc, rr = hexgrid.neighbor_cr(c, r, d)
            row.append(rr * columns + cc if 0 <= cc < columns and 0 <= rr < rows else -1)
        nb.append(tuple(row))
    cubes = [hexgrid.cube(i % columns, i // columns) for i in range(n)]
    return (
        labels,
        index,
        tuple(nb),
        tuple(c[0] for c in cubes),
        tuple(c[1] for c in cubes),
        tuple(c[2] for c in cubes),
    )


@functools.lru_cache(maxsize=64)
def _offset_table(
    columns: int, rows: int, offsets: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, ...], ...]:
    _, _, _, cx, _, cz = _geometry(columns, rows)
    out = []
    for i in range(columns * rows):
        row = []
        for dq, dr in offsets:
            c, r = hexgrid.axial_to_cr(cx[i] + dq, cz[i] + dr)
            row.append(r * columns + c if 0 <= c < columns and 0 <= r < rows else -1)
        out.append(tuple(row))
    return tuple(out)


# -- loading -----------------------------------------------------------------------------------
_SIDE_WORDS = ("embankment", "crest", "slope", "wall")


def _side_spec(value: Any, path: object, field: str) -> _SideSpec:
    if isinstance(value, str):
        if value not in _SIDE_WORDS:
            raise DataError(
                path,
                field,
                f"unknown hexside feature {value!r} (one of {', '.join(_SIDE_WORDS)}, or a mapping)",
            )
        return (
            _SideSpec(wall="stone") if value == "wall" else _SideSpec.model_validate({value: True})
        )
    try:
        return _SideSpec.model_validate(value)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise DataError(path, f"{field}.{loc}" if loc else field, err["msg"]) from None


def _terrain_code(name: str, path: object, field: str) -> Terrain:
    if name not in TERRAIN_NAMES:
        raise DataError(
            path, field, f"unknown terrain {name!r} (one of {', '.join(TERRAIN_NAMES)})"
        )
    return Terrain(TERRAIN_NAMES.index(name))


def _check_level(value: int, path: object, field: str, top: int, what: str) -> int:
    if not 0 <= value <= top:
        raise DataError(path, field, f"{what} {value} is outside 0-{top}")
    return value


def board_from_dict(raw: Any, path: str | Path = "<map>") -> Board:
    """Build a :class:`Board` from the parsed form of a map file (module doc).

    Args:
        raw: the mapping a map YAML file parses into.
        path: named in error messages.

    Raises:
        DataError: any schema or map problem, naming ``path`` and the field.
    """
    spec = validate(_MapSpec, raw, path)
    cols, rows = spec.columns, spec.rows
    n = cols * rows
    col_range = f"columns A-{hexgrid.col_letters(cols - 1)}, rows 1-{rows}"

    def hex_of(label: str, field: str) -> int:
        try:
            c, r = hexgrid.parse_label(label)
        except AmbushError:
            raise DataError(path, field, f"malformed hex label {label!r}") from None
        if not (0 <= c < cols and 0 <= r < rows):
            raise DataError(path, field, f"hex {label} is off the board ({col_range})")
        return r * cols + c

    t0 = _terrain_code(spec.default.terrain, path, "default.terrain")
    if t0 == Terrain.BUILDING:
        raise DataError(path, "default.terrain", "the default terrain cannot be building")
    l0 = _check_level(spec.default.level, path, "default.level", MAX_LEVEL, "level")
    terrain: list[Terrain] = [t0] * n
    level = [l0] * n
    building: list[str | None] = [None] * n
    rise = [0] * n
    landmark: list[str | None] = [None] * n
    for label, h in spec.hexes.items():
        f = f"hexes.{label}"
        i = hex_of(label, f)
        if h.terrain is not None:
            terrain[i] = _terrain_code(h.terrain, path, f + ".terrain")
        elif h.building is not None:
            terrain[i] = Terrain.BUILDING
        if h.level is not None:
            level[i] = _check_level(h.level, path, f + ".level", MAX_LEVEL, "level")
        if terrain[i] == Terrain.BUILDING:
            building[i] = h.building if h.building is not None else label
        elif h.building is not None:
            raise DataError(
                path,
                f + ".building",
                f"building {h.building!r} on a {TERRAIN_NAMES[terrain[i]]} hex",
            )
        if h.rise is not None:
            if terrain[i] != Terrain.BUILDING:
                raise DataError(
                    path, f + ".rise", "only building hexes may rise above their ground level"
                )
            rise[i] = _check_level(h.rise, path, f + ".rise", MAX_RISE, "rise")
        landmark[i] = h.landmark

    def board(wall: list, aperture: list, emb: list, crest: list, slope: list) -> Board:
        """The map of these hexes with these hexsides (the probe has none)."""
        return Board(
            name=spec.name,
            columns=cols,
            rows=rows,
            terrain=terrain,
            level=level,
            building=building,
            rise=rise,
            landmark=landmark,
            side_wall=wall,
            side_aperture=aperture,
            side_embankment=emb,
            side_crest=crest,
            side_slope=slope,
        )

    probe = board([], [], [], [], [])
    m = 3 * n + 1
    wall, aperture = [NO_WALL] * m, [NO_APERTURE] * m
    emb, crest, slope = [False] * m, [False] * m, [False] * m
    # Walls round every building (RULES.md §2).
    for i in range(n):
        if building[i] is None:
            continue
        for d in range(6):
            j = probe.neighbors[i][d]
            if j >= 0 and building[j] != building[i]:
                wall[probe.side_id(i, d)] = STONE
    seen: dict[int, str] = {}
    for key, value in spec.hexsides.items():
        f = f"hexsides.{key}"
        parts = key.split("/")
        if len(parts) != 2:
            raise DataError(path, f, "a hexside is named by its two hexes, e.g. 'Q16/Q17'")
        i, j = hex_of(parts[0], f), hex_of(parts[1], f)
        towards = probe.direction(i, j)
        if towards is None:
            raise DataError(path, f, f"{parts[0]} and {parts[1]} are not adjacent hexes")
        s = probe.side_id(i, towards)
        if s in seen:
            raise DataError(path, f, f"hexside given twice (also as {seen[s]})")
        seen[s] = key
        side = _side_spec(value, path, f)
        if side.wall is not None:
            wall[s] = NO_WALL if side.wall == "none" else (STONE if side.wall == "stone" else WOOD)
        if side.aperture not in (None, "none"):
            if wall[s] == NO_WALL:
                raise DataError(path, f + ".aperture", f"a {side.aperture} needs a wall")
            aperture[s] = DOOR if side.aperture == "door" else WINDOW
        emb[s], crest[s], slope[s] = side.embankment, side.crest, side.slope
        if side.embankment and level[i] == level[j]:
            warnings.warn(
                f"{path}: {f}: embankment between two hexes of level {level[i]} does nothing for sight "
                "(seed 004, p. 17)",
                stacklevel=2,
            )
    return board(wall, aperture, emb, crest, slope)


def resolve_map_path(path: str | Path) -> Path:
    """A map file's path: ``path`` itself if it exists, else the shipped map of that name.

    ``"farm_assault"`` and ``"farm_assault.yaml"`` resolve to
    ``ambush_env/data/maps/farm_assault.yaml`` when no such file exists relative to the working
    directory.
    """
    p = Path(path)
    if p.exists():
        return p
    if len(p.parts) == 1:
        shipped = data_path("maps", p.name if p.suffix in (".yaml", ".yml") else p.name + ".yaml")
        if shipped.exists():
            return shipped
    return p


def list_maps() -> list[str]:
    """Sorted names of the shipped maps (``ambush_env/data/maps/*.yaml`` stems)."""
    return list_data("maps")


def load_board(path: str | Path) -> Board:
    """Load a map file (binding, RULES.md §3/§15): a path, or a shipped map name (``"farm"``).

    Raises:
        DataError: the file is missing (field ``<file>``; the message lists the shipped map
            names, :func:`list_maps`) or malformed (message: file, field, problem).
    """
    p = resolve_map_path(path)
    if not p.exists():
        name = ", and no shipped map of that name" if len(Path(path).parts) == 1 else ""
        raise DataError(
            p,
            "<file>",
            f"file not found{name} (shipped maps: {', '.join(list_maps()) or '(none)'})",
        )
    return board_from_dict(read_yaml(p), p)
