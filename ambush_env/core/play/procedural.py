"""Owns procedural missions for ``ambush/Procedural-v4`` (docs/API.md): a map, forces,
paragraphs, events and scoring generated from one *mission seed*; numbers ⚙ in
``data/procedural.yaml``.

A mission is drawn in this order, every draw from ``numpy.random.default_rng(seed)``:

* **Layout** (``templates``): ``farm``, ``village``, ``hedgerows``, ``woods``, ``river`` or
  ``hills``, of a size drawn from the layout's ranges (at most ``board.MAX_COLUMNS`` x
  ``MAX_ROWS``). Every layout has a meandering west-east road, at least one building (stone or
  wooden walls, a door and windows) and at least one rise; the others add what their name says
  (barn, orchards and field walls; houses along a cross street and a steepled church;
  brush hedges on embankments between terraces falling eastward; forest masses; a river
  bridged by the road and a mill; a hill of levels 1-3 with a crest face and slopes).
* **Objective** (``objectives``): ``take`` a building, ``exit`` the far edge with the squad
  (the objective a waypoint on the road), recover ``intel`` in a building (a paragraph's VP
  after a PC check), ``hold`` the top of a hill (objective kind ``hold``), ``capture`` an
  officer (kind ``capture``) or ``demolish`` a building or the bridge (kind ``demolish``). It
  sets the objective hexes, the VP schedule and the result thresholds (fractions of a good
  line's VP).
* **Forces**: 3-5 German groups (cards of the deck: riflemen, an NCO with an SMG, MG teams,
  an officer, a sniper, a Panzerfaust man;
  a Kübelwagen or motorcycle patrol; sometimes a Panzer IV, with the tank hunters as the
  squad), each a paragraph chain of one of the :data:`CHAIN_KINDS` (activation, perception,
  alarm flag, always-there ambush, patrol with a route, vehicle, tank) triggered by a ring of
  hexes round its position; 0-2 hazard chains (a booby trap, a minefield); sometimes map
  booby traps; a d10 event table drawn from a pool (nothing, distant guns, tripwire, alarm,
  a civilian's information, a sniper, a motorcycle courier, the battalion's mortars, a
  strafing fighter-bomber, the platoon leader's ``command``) covering 0-9, sometimes rolled
  every N pulses or Rounds too (mission rules ``event_every_pulses`` / ``_rounds``).

Paragraph numbers: German group k's chain is the block from 10 (k + 1) (its first paragraph
is the one its trigger hexes name: "already checked?", then the chain), the hazards' blocks
follow, then the intel search's; the event paragraphs start at 90.

Valid by construction: every generated mission loads through the mission validator
(:func:`~ambush_env.core.world.missions.check_references` against its own board), and
:func:`generate` checks that the objective, every exit hex and every German position can be
walked to from the US entry (the soldiers' movement costs) before returning it.

Mission seeds (⚙, docs/API.md benchmark: evaluation seeds held apart from training seeds):
:data:`TRAIN_SEEDS` = 0..999 999 are the missions an agent trains on (the env's default
draw); :data:`HELD_OUT_SEEDS` = 1 000 000..1 000 999 are kept for evaluation. Any seed >= 0
generates a mission; the ranges are a convention the env and the benchmark follow.

:func:`generate` is pure: the same seed gives the same mission and map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

import numpy as np
from pydantic import AfterValidator, Field, model_validator

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.orders import K_SLOTS, V_SLOTS
from ambush_env.core.world.board import MAX_COLUMNS, MAX_ROWS, Board, board_from_dict
from ambush_env.core.world.data import FieldProblem, Frozen, data_path, read_data
from ambush_env.core.world.hexgrid import make_label, neighbor_cr
from ambush_env.core.world.missions import Mission, check_references

#: ⚙ Mission seeds for training: the env draws from these by default (``mission_seeds="train"``).
TRAIN_SEEDS = range(1_000_000)  # 0 .. 999 999
#: ⚙ Mission seeds held out for evaluation (``mission_seeds="held_out"``; benchmark suites).
HELD_OUT_SEEDS = range(1_000_000, 1_001_000)
#: The seed ranges by name (the env's ``mission_seeds`` argument).
SEED_RANGES: dict[str, range] = {"train": TRAIN_SEEDS, "held_out": HELD_OUT_SEEDS}

TEMPLATES = ("farm", "village", "hedgerows", "woods", "river", "hills")
OBJECTIVE_KINDS = ("take", "exit", "intel", "hold", "capture", "demolish")
#: Paragraph structures of a German group's chain (module docstring).
CHAIN_KINDS = ("activation", "perception", "alarm", "ambush", "patrol", "vehicle", "tank")
HAZARD_KINDS = ("booby_trap", "minefield")

TemplateName = Literal["farm", "village", "hedgerows", "woods", "river", "hills"]
_Name = TypeVar("_Name", bound=str)  # a table's key (:meth:`_Builder.weighted`)
ObjectiveName = Literal["take", "exit", "intel", "hold", "capture", "demolish"]


def _ordered(lo_hi: tuple) -> tuple:
    """A ``[low, high]`` range of the file: low <= high (a draw ``between`` them)."""
    if lo_hi[0] > lo_hi[1]:
        raise ValueError(f"a range [low, high] needs low <= high, got {list(lo_hi)}")
    return lo_hi


IntRange = Annotated[tuple[int, int], AfterValidator(_ordered)]
FloatRange = Annotated[tuple[float, float], AfterValidator(_ordered)]


# --------------------------------------------------------------------------------------------
# configuration
# --------------------------------------------------------------------------------------------


_BOUNDS: dict[str, tuple[float, float]] = {
    # ⚙ what a generated mission can take (the mission schema's bounds where it has them)
    "hazards": (0, 6),
    "perception_modifier": (-5, 5),
    "event_hexes": (0, 40),
    "event_rows": (1, 9),
    "nothing_rolls": (0, 8),
    "rounds": (1, 99),
    "all_in_command_rounds": (0, 99),
    "night_sight_cap": (1, 30),
    "map_traps": (0, 20),
    "event_every_pulses": (1, 99),
    "event_every_rounds": (1, 99),
    "pulses_per_column": (0.1, 20.0),
}
"""``field -> (least, most)`` for the ranges of :class:`ProceduralConfig`."""


class TemplateConfig(Frozen):
    weight: int = Field(ge=1)
    columns: IntRange
    rows: IntRange


class ObjectiveConfig(Frozen):
    weight: int = Field(ge=1)
    objective_taken: IntRange
    exit_per_soldier: IntRange
    intel_vp: IntRange | None = None
    prisoner_marched_off: IntRange | None = None  # a capture objective's only (issue 25)


class ProceduralConfig(Frozen):
    """``data/procedural.yaml`` (its comments give each field's meaning)."""

    templates: dict[TemplateName, TemplateConfig] = Field(min_length=1)
    objectives: dict[ObjectiveName, ObjectiveConfig] = Field(min_length=1)
    german_groups: IntRange
    hazards: IntRange
    max_germans: int = Field(ge=3, le=12)
    activation: IntRange
    perception_modifier: IntRange
    event_hexes: IntRange
    event_rows: IntRange
    nothing_rolls: IntRange
    vp: dict[str, IntRange]
    thresholds: dict[Literal["decisive_win", "win", "draw"], FloatRange]
    pulses_per_column: FloatRange
    min_pulses: int = Field(ge=1)
    rounds: IntRange
    all_in_command_rounds: IntRange
    p_us_jeep: float = Field(ge=0, le=1)
    p_parked_car: float = Field(ge=0, le=1)
    p_tank: float = Field(ge=0, le=1)
    p_night: float = Field(ge=0, le=1)
    night_sight_cap: IntRange
    p_map_traps: float = Field(ge=0, le=1)
    map_traps: IntRange
    p_event_every_pulses: float = Field(ge=0, le=1)
    event_every_pulses: IntRange
    p_event_every_rounds: float = Field(ge=0, le=1)
    event_every_rounds: IntRange

    @model_validator(mode="after")
    def _ranges(self) -> ProceduralConfig:
        for tname, t in self.templates.items():
            if not 14 <= t.columns[0] <= t.columns[1] <= MAX_COLUMNS:
                raise FieldProblem(
                    f"templates.{tname}.columns",
                    f"columns 14..{MAX_COLUMNS}, low <= high; got {list(t.columns)}",
                )
            if not 10 <= t.rows[0] <= t.rows[1] <= MAX_ROWS:
                raise FieldProblem(
                    f"templates.{tname}.rows",
                    f"rows 10..{MAX_ROWS}, low <= high; got {list(t.rows)}",
                )
        if not 0 <= self.activation[0] <= self.activation[1] <= 8:
            raise FieldProblem("activation", "0 <= low <= high <= 8: both branches can be rolled")
        if not 1 <= self.german_groups[0] <= self.german_groups[1] <= 7:
            raise FieldProblem("german_groups", "1..7 chains (paragraph blocks 10-80)")
        for name, (lo, hi) in _BOUNDS.items():
            got = getattr(self, name)
            if not lo <= got[0] <= got[1] <= hi:
                raise FieldProblem(name, f"{lo} <= low <= high <= {hi}; got {list(got)}")
        for oname, o in self.objectives.items():
            for attr in ("objective_taken", "exit_per_soldier", "intel_vp", "prisoner_marched_off"):
                r = getattr(o, attr)
                if r is not None and r[0] < 0:
                    raise FieldProblem(f"objectives.{oname}.{attr}", "VP gains are >= 0")
        from ambush_env.core.world.missions import VPSchedule

        if len(self.thresholds) != 3:
            raise FieldProblem("thresholds", "give decisive_win, win and draw")
        own = {"objective_taken", "exit_per_soldier"}  # drawn from the objective's entry
        missing = [
            k
            for k, f in VPSchedule.model_fields.items()
            if f.is_required() and k not in own and k not in self.vp
        ]
        if missing:
            raise FieldProblem("vp", f"no range for {', '.join(missing)}")
        for key, (lo, hi) in self.vp.items():  # a mission's VP schedule takes every draw
            f = VPSchedule.model_fields.get(key)
            if f is None:
                raise FieldProblem(
                    f"vp.{key}", f"not a VP schedule entry ({', '.join(VPSchedule.model_fields)})"
                )
            ge = next((m.ge for m in f.metadata if hasattr(m, "ge")), None)
            le = next((m.le for m in f.metadata if hasattr(m, "le")), None)
            if (ge is not None and lo < ge) or (le is not None and hi > le):
                raise FieldProblem(
                    f"vp.{key}",
                    f"a {'gain' if ge is not None else 'loss'} "
                    f"is {'>= ' + str(ge) if ge is not None else '<= ' + str(le)}",
                )
        return self


@lru_cache(maxsize=1)
def config() -> ProceduralConfig:
    """``data/procedural.yaml`` (cached). Raises DataError naming the file and the field."""
    return read_data(ProceduralConfig, data_path("procedural.yaml"))  # FieldProblem: its field


GARRISON_PARAGRAPH = 140
"""The first paragraph of a generated objective's garrison chain (above every other block)."""


def _chain_head(flag: str, base: int) -> list[dict[str, Any]]:
    """The head paragraph ``base`` of a generated chain: on to ``base + 1`` while ``flag`` is
    unset, else nothing (the chain's first step sets it: the chain runs once)."""
    return [{"if_flag": {"flag": flag, "then": None, "else": base + 1}}]


def _first_step(flag: str, *effects: dict[str, Any]) -> list[dict[str, Any]]:
    """The first paragraph of a generated chain (``base + 1``): set the chain's ``flag`` (see
    :func:`_chain_head`), then ``effects``."""
    return [{"set": flag}, *effects]


def _activation_check(at_or_below: int, then: int, otherwise: int) -> dict[str, Any]:
    """A generated paragraph's activation check effect (RULES.md §15 ``activation``): a d10 at
    or below ``at_or_below`` goes on at paragraph ``then``, else ``otherwise``."""
    return {"activation": {"at_or_below": at_or_below, "then": then, "else": otherwise}}


def _perception_check(modifier: int, then: int, otherwise: int) -> dict[str, Any]:
    """A generated paragraph's PC check effect (RULES.md §15 ``perception``): the soldier passes
    at or below his PC plus ``modifier`` and goes on at paragraph ``then``, else ``otherwise``."""
    return {
        "perception": {
            "at_or_below_pc": True,
            "modifier": modifier,
            "then": then,
            "else": otherwise,
        }
    }


# --------------------------------------------------------------------------------------------
# the result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sketch:
    """What was drawn for a seed, besides the files: for tests, docs and the briefing.

    Attributes:
        seed: the mission seed.
        template: the layout (:data:`TEMPLATES`).
        objective: the objective type (:data:`OBJECTIVE_KINDS`); the mission's
            ``objective.kind`` is ``take`` for ``take``, ``exit`` and ``intel``, else the same.
        chains: the kind of each German group's chain (:data:`CHAIN_KINDS`), in paragraph order.
        hazards: the hazard chains (:data:`HAZARD_KINDS`), after the groups' blocks.
        germans: men the paragraphs may place (groups, car crews, a sniper or courier event;
            a tank's crew not counted).
    """

    seed: int
    template: str
    objective: str
    chains: tuple[str, ...]
    hazards: tuple[str, ...]
    germans: int


@dataclass(frozen=True)
class Generated:
    """A generated mission as plain data: the mission and map files' parsed form."""

    mission: dict[str, Any]
    map: dict[str, Any]
    sketch: Sketch


def generate(seed: int) -> tuple[Mission, Board]:
    """The procedural mission and map of mission seed ``seed`` (deterministic).

    Args:
        seed: an integer >= 0 (:data:`TRAIN_SEEDS`, :data:`HELD_OUT_SEEDS` or any other).

    Returns:
        ``(mission, board)``; the mission's ``id`` is ``procedural_<seed>``. The board is new
        at each call (play changes it).

    Raises:
        AmbushError: ``seed`` negative or not an integer; or (a generator bug, which the tests
            look for over 10 000 seeds) a mission whose objective, exits or Germans cannot be
            walked to (:func:`unreachable`).
    """
    g = generate_data(seed)
    board = board_from_dict(g.map, path=f"<procedural map, seed {seed}>")
    mission = Mission.model_validate(g.mission)
    check_references(mission, f"<procedural mission, seed {seed}>", board=board)
    problem = unreachable(board, mission)
    if problem:
        raise AmbushError(f"procedural mission {seed}: {problem}")  # a generator bug
    return mission, board


def sketch(seed: int) -> Sketch:
    """What :func:`generate` draws for ``seed`` (layout, objective kind, chain kinds)."""
    return generate_data(seed).sketch


def generate_data(seed: int) -> Generated:
    """The mission and map of ``seed`` as the dicts a mission and a map file parse into.

    Raises:
        AmbushError: ``seed`` negative or not an integer.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise AmbushError(f"a mission seed is an integer >= 0, got {seed!r}")
    return _Builder(int(seed), config()).build()


def unreachable(board: Board, mission: Mission) -> str | None:
    """Why a US soldier could not walk from the entry to the objective, every exit hex and
    every hex where a German is placed (standing soldiers' costs, RULES.md §6, on the map as
    it starts; Germans ignored), or None when he can."""
    from ambush_env.core.rules.movement import raw_step_cost
    from ambush_env.core.world.tables import load_tables

    m = _CostView(board, load_tables())
    probe = _Probe()
    start = [board.index(h) for h in mission.us_entry]
    seen = set(start)
    todo = list(start)
    while todo:
        i = todo.pop()
        for j in board.neighbors[i]:
            if j >= 0 and j not in seen and raw_step_cost(m, probe, i, j) >= 0:
                seen.add(j)
                todo.append(j)
    need = [("objective", h) for h in mission.objective.hexes[:1]]
    need += [("exit hex", h) for h in mission.exit_hexes]
    need += [(f"paragraph {n}'s German", e.hex) for n, e in mission.placements()]
    for what, h in need:
        if board.index(h) not in seen:
            return f"the {what} at {h} cannot be reached from the US entry"
    return None


@dataclass
class _CostView:
    board: Board
    tables: Any


class _Probe:
    stance = 0


# --------------------------------------------------------------------------------------------
# the builder
# --------------------------------------------------------------------------------------------

Cell = tuple[int, int]


@dataclass
class _Group:
    kind: str
    cards: list[str]
    hexes: list[Cell]
    site: str
    ring: list[Cell] = field(default_factory=list)


class _Builder:
    """Draws one mission from ``seed``: :meth:`build` lays the road and the layout's map,
    :meth:`finish` the objective, forces, hazards, events, scoring and the two files. Cells
    are ``(column, row0)``; every draw is from ``self.rng``, in a fixed order."""

    def __init__(self, seed: int, cfg: ProceduralConfig) -> None:
        self.seed = seed
        self.cfg = cfg
        self.rng = np.random.default_rng(seed)
        self.terrain: dict[Cell, str] = {}
        self.level: dict[Cell, int] = {}
        self.building: dict[Cell, str] = {}
        self.buildings: dict[str, list[Cell]] = {}
        self.rise: dict[Cell, int] = {}
        self.sides: dict[frozenset[Cell], dict[str, Any]] = {}
        self.reserved: set[Cell] = set()
        self.road: list[Cell] = []
        self.hills: list[list[Cell]] = []
        self.river: list[Cell] = []
        self.bridge: Cell | None = None
        self.woods_sites: list[Cell] = []
        self.bocage = False
        self._nbrs: dict[Cell, list[Cell]] = {}
        self.rings: dict[int, list[Cell]] = {}  # each chain's trigger hexes, by paragraph
        self.parked_car: dict[str, Any] | None = None

    # -- small draws ---------------------------------------------------------------------------
    def between(self, lo_hi: tuple[int, int]) -> int:
        return int(self.rng.integers(lo_hi[0], lo_hi[1] + 1))

    def uniform(self, lo_hi: tuple[float, float]) -> float:
        return float(self.rng.uniform(lo_hi[0], lo_hi[1]))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, seq: list[Any] | tuple[Any, ...]) -> Any:
        return seq[int(self.rng.integers(len(seq)))]

    def weighted(self, table: Mapping[_Name, Any]) -> _Name:
        names = list(table)
        w = np.array([table[n].weight for n in names], dtype=float)
        return names[int(self.rng.choice(len(names), p=w / w.sum()))]

    # -- geometry ------------------------------------------------------------------------------
    def on(self, c: int, r: int) -> bool:
        return 0 <= c < self.cols and 0 <= r < self.rows

    def nbrs(self, h: Cell) -> list[Cell]:
        out = self._nbrs.get(h)
        if out is None:
            out = self._nbrs[h] = [
                n for d in range(6) if self.on(*(n := neighbor_cr(h[0], h[1], d)))
            ]
        return list(out)

    def ring(self, cells: list[Cell], radius: int) -> list[Cell]:
        """Cells within ``radius`` steps of ``cells`` (not in them), nearest first."""
        inside = set(cells)
        frontier, out, seen = list(cells), [], set(cells)
        for _ in range(radius):
            nxt = []
            for h in frontier:
                for n in self.nbrs(h):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            out += [n for n in nxt if n not in inside]
            frontier = nxt
        return out

    def t(self, h: Cell) -> str:
        return self.terrain.get(h, "clear")

    def free(self, h: Cell) -> bool:
        """A cell a feature may overwrite: on the map, off the entry columns, not reserved."""
        return self.on(*h) and h[0] >= 2 and h[0] < self.cols - 1 and h not in self.reserved

    def walkable(self, h: Cell) -> bool:
        return self.t(h) not in ("river", "building")

    def blob(self, start: Cell, size: int, ok: Any = None) -> list[Cell]:
        """A random connected blob of up to ``size`` cells grown from ``start``."""
        ok = ok or self.free
        if not ok(start):
            return []
        cells, front = [start], [start]
        while len(cells) < size and front:
            h = self.pick(front)
            opts = [n for n in self.nbrs(h) if n not in cells and ok(n)]
            if not opts:
                front.remove(h)
                continue
            n = self.pick(opts)
            cells.append(n)
            front.append(n)
        return cells

    def paint(self, cells: list[Cell], kind: str) -> None:
        for h in cells:
            if self.free(h) and self.t(h) not in ("building", "river", "road"):
                self.terrain[h] = kind

    def random_cell(self, cmin: int = 3, cmax: int | None = None) -> Cell:
        cmax = self.cols - 2 if cmax is None else cmax
        return (
            int(self.rng.integers(cmin, max(cmin + 1, cmax + 1))),
            int(self.rng.integers(0, self.rows)),
        )

    def drift(self, target: int, p: float, lo: int, hi: int) -> int:
        """A meandering road's aim: with chance ``p`` one row or column either way, kept in
        ``lo..hi``."""
        if self.chance(p):
            target = min(max(target + self.pick((-1, 1)), lo), hi)
        return target

    # -- map features --------------------------------------------------------------------------
    def lay_road(self, start: int, horizontal: bool = True) -> list[Cell]:
        """A meandering road, every step a hex neighbour: west to east from row ``start``
        (each step NE or SE), or north to south from column ``start`` (S, SE or SW); its
        cells are reserved."""
        cells: list[Cell] = []
        if horizontal:
            h, target = (0, start), start
            while True:
                cells.append(h)
                if h[0] + 1 >= self.cols:
                    break
                target = self.drift(target, 0.15, 2, self.rows - 3)
                opts = [neighbor_cr(h[0], h[1], d) for d in (1, 2)]  # NE, SE
                opts = [n for n in opts if 1 <= n[1] <= self.rows - 2] or opts[:1]
                self.rng.shuffle(opts)
                h = min(opts, key=lambda n: abs(n[1] - target))
        else:
            h, target = (start, 0), start
            while True:
                cells.append(h)
                if h[1] + 1 >= self.rows:
                    break
                target = self.drift(target, 0.2, 3, self.cols - 4)
                opts = [neighbor_cr(h[0], h[1], d) for d in (3, 2, 4)]  # S, SE, SW
                opts = [n for n in opts if 3 <= n[0] <= self.cols - 4 and n[1] >= h[1]]
                h = min(opts, key=lambda n: (abs(n[0] - target), n != (h[0], h[1] + 1)))
        out = []
        for h in cells:
            if h not in out and self.on(*h):
                out.append(h)
                self.terrain[h] = "road"
                self.reserved.add(h)
        return out

    def add_building(
        self, anchor: Cell, size: int, bid: str, wood: bool = False, steeple: bool = False
    ) -> list[Cell] | None:
        """A building of 1-3 hexes at ``anchor`` with a door and windows, a clear cell ring
        (no other building, river or map edge next to it), or None when it does not fit."""

        def ok(h: Cell) -> bool:
            if not (
                self.free(h) and h[0] >= 3 and h[0] <= self.cols - 3 and 1 <= h[1] <= self.rows - 2
            ):
                return False
            if self.t(h) in ("road", "river", "building"):
                return False
            return all(self.t(n) not in ("building", "river") for n in self.nbrs(h))

        cells = self.blob(anchor, size, ok)
        if not cells:
            return None
        for h in cells:
            self.terrain[h] = "building"
            self.building[h] = bid
            self.reserved.add(h)
        for n in self.ring(cells, 1):
            self.reserved.add(n)  # the yard: no field walls, no other building
            if self.t(n) in ("woods", "rough", "rubble"):
                self.terrain[n] = "clear"
        if steeple:
            self.rise[cells[0]] = 2
        # apertures: a door on a side facing the road when one is near, windows elsewhere
        outside = [(h, n) for h in cells for n in self.nbrs(h) if n not in cells]
        self.rng.shuffle(outside)
        walls = list(outside)
        road = set(self.road)
        outside = [hn for hn in outside if self.walkable(hn[1])]
        outside.sort(
            key=lambda hn: 0 if hn[1] in road or any(x in road for x in self.nbrs(hn[1])) else 1
        )
        door_h, door_n = outside[0]
        for h, n in walls:
            key = frozenset((h, n))
            if (h, n) == (door_h, door_n):
                self.sides[key] = {"wall": "wood" if wood else "stone", "aperture": "door"}
            elif self.chance(0.45):
                self.sides[key] = {"wall": "wood" if wood else "stone", "aperture": "window"}
            elif wood:
                self.sides[key] = {"wall": "wood"}
        self.buildings[bid] = cells
        return cells

    def place_building_near(
        self, target: Cell, size: int, bid: str, tries: int = 40, **kw: Any
    ) -> list[Cell] | None:
        for k in range(tries):
            spread = 1 + k // 8
            h = (
                target[0] + int(self.rng.integers(-spread, spread + 1)),
                target[1] + int(self.rng.integers(-spread, spread + 1)),
            )
            cells = self.add_building(h, size, bid, **kw)
            if cells:
                return cells
        return None

    def add_hill(self, centre: Cell, size: int, top: int, crest: bool) -> list[Cell]:
        """Nested blobs of levels 1..``top`` round ``centre``; returns the top cells. A crest
        on the top's west face when ``crest``, slopes on some other sides."""

        def ok(h: Cell) -> bool:
            return self.on(*h) and h[0] >= 2 and h[0] <= self.cols - 2 and self.t(h) != "river"

        layer = self.blob(centre, size, ok)
        if not layer:
            return []
        for lv in range(1, top + 1):
            for h in layer:
                self.level[h] = max(self.level.get(h, 0), lv)
            if lv == top:
                break
            inner = [h for h in layer if all(n in layer for n in self.nbrs(h))] or layer[:1]
            start = self.pick(inner)
            layer = self.blob(start, max(1, len(layer) // 3), lambda h, L=set(layer): h in L)
        tops = [h for h in layer if self.level.get(h, 0) == top]
        tl = set(tops)
        for h in tops:
            for n in self.nbrs(h):
                if n in tl or self.level.get(n, 0) >= top:
                    continue
                key = frozenset((h, n))
                if key in self.sides:
                    continue
                if crest and n[0] < h[0]:
                    self.sides[key] = {"crest": True}
                elif self.chance(0.3):
                    self.sides[key] = {"slope": True}
        self.hills.append(tops)
        return tops

    def clumps(self, kind: str, n: int, size: tuple[int, int]) -> None:
        for _ in range(n):
            cells = self.blob(
                self.random_cell(2),
                self.between(size),
                lambda h: self.free(h) and self.t(h) in ("clear", "brush", "rough"),
            )
            self.paint(cells, kind)
            if kind == "woods" and cells:
                self.woods_sites.append(self.pick(cells))

    def field_walls(self, n: int) -> None:
        """Short stone field walls (cover, never sight blockers; RULES.md §3), away from the
        road, the buildings and the map edges (a soldier crosses them only round the end)."""
        for _ in range(n):
            h = self.random_cell(3, self.cols - 4)
            d = int(self.rng.integers(6))
            for _ in range(self.between((2, 3))):
                n2 = neighbor_cr(h[0], h[1], d)
                if not (
                    self.on(*n2) and 1 <= h[1] <= self.rows - 2 and 1 <= n2[1] <= self.rows - 2
                ):
                    break
                key = frozenset((h, n2))
                if (
                    h in self.reserved
                    or n2 in self.reserved
                    or key in self.sides
                    or not self.walkable(h)
                    or not self.walkable(n2)
                ):
                    break
                self.sides[key] = {"wall": "stone"}
                h = neighbor_cr(h[0], h[1], (d + self.pick((1, 5))) % 6)
                if not self.on(*h):
                    break

    # -- layouts -------------------------------------------------------------------------------
    def layout_farm(self) -> None:
        rr = self.road[0][1]
        fc = self.between((self.cols // 2, self.cols - 5))
        fr = rr - 3 if self.chance(0.5) else rr + 3
        self.place_building_near((fc, fr), self.between((2, 3)), "farmhouse")
        self.place_building_near(
            (fc + self.pick((-2, 2)), fr + self.pick((-1, 1))),
            self.between((1, 2)),
            "barn",
            wood=True,
        )
        self.clumps("brush", self.between((3, 5)), (3, 6))  # orchards and hedges
        self.clumps("woods", self.between((2, 4)), (3, 7))
        self.clumps("rough", self.between((0, 2)), (1, 2))
        self.field_walls(self.between((2, 4)))
        self.add_hill(self.random_cell(4, self.cols - 4), self.between((4, 7)), 1, self.chance(0.4))

    def layout_village(self) -> None:
        cross = self.between((self.cols // 3, 2 * self.cols // 3))
        self.road += [h for h in self.lay_road(cross, horizontal=False) if h not in self.road]
        road = list(self.road)
        names = ["house"] * 8
        if self.chance(0.6):
            names[0] = "church"
        placed = 0
        for k, bid in enumerate(names):
            h = self.pick(road)
            h = (h[0] + self.pick((-2, -1, 1, 2)), h[1] + self.pick((-2, -1, 1, 2)))
            bname = bid if bid == "church" else f"house_{k}"
            cells = self.place_building_near(
                h,
                self.between((1, 3)),
                bname,
                tries=12,
                wood=self.chance(0.25),
                steeple=(bid == "church"),
            )
            placed += cells is not None
            if placed >= self.between((4, 7)):
                break
        self.field_walls(self.between((2, 5)))  # garden walls
        self.clumps("brush", self.between((2, 4)), (2, 4))
        self.clumps("woods", self.between((1, 3)), (3, 6))
        for _ in range(self.between((0, 3))):  # shelled: rubble
            h = self.random_cell(3)
            if self.free(h) and self.t(h) == "clear":
                self.terrain[h] = "rubble"
        self.add_hill(self.random_cell(3, self.cols - 3), self.between((3, 6)), 1, False)

    def layout_hedgerows(self) -> None:
        lines, c = [], self.between((3, 5))
        while c < self.cols - 3:
            lines.append(c)
            c += self.between((3, 5))
        level = 0
        for lc in lines:
            # brush hedge cells down the line, with gaps; a terrace step east of some lines
            step = level < 2 and self.chance(0.45)
            for r in range(self.rows):
                h = (lc, r)
                if self.free(h) and self.t(h) == "clear" and not self.chance(0.22):
                    self.terrain[h] = "brush"
            if step:
                level += 1
                for cc in range(lc + 1, self.cols):
                    for r in range(self.rows):
                        self.level[(cc, r)] = level
        # ⚙ the terraces fall eastward, the squad going down them (as hedgerow_crossing's):
        # each bank costs +1 MP, a climb +1 more (RULES.md §6)
        for cc in range(self.cols):
            for r in range(self.rows):
                self.level[(cc, r)] = level - self.level.get((cc, r), 0)
        self.bocage = True
        self.place_building_near(
            (self.between((self.cols // 2, self.cols - 4)), self.between((2, self.rows - 3))),
            self.between((1, 3)),
            "farm",
        )
        if self.chance(0.5):
            self.place_building_near(self.random_cell(5), 1, "shed", wood=True)
        self.clumps("woods", self.between((1, 3)), (2, 5))
        self.field_walls(self.between((0, 2)))
        # a knoll on the low ground to the east
        self.add_hill(
            self.random_cell(self.cols // 2, self.cols - 4),
            self.between((3, 5)),
            1,
            self.chance(0.5),
        )

    def layout_woods(self) -> None:
        target = self.cols * self.rows * self.uniform((0.3, 0.45))
        while sum(1 for v in self.terrain.values() if v == "woods") < target:
            self.clumps("woods", 1, (6, 14))
        self.clumps("brush", self.between((2, 4)), (2, 5))
        self.place_building_near(
            (self.between((self.cols // 2, self.cols - 4)), self.between((2, self.rows - 3))),
            self.between((1, 2)),
            "hut",
            wood=True,
        )
        if self.chance(0.5):
            self.place_building_near(self.random_cell(5), 1, "lodge")
        self.add_hill(
            self.random_cell(4, self.cols - 4),
            self.between((4, 7)),
            self.between((1, 2)),
            self.chance(0.3),
        )

    def layout_river(self) -> None:
        # a river from the north edge to the south edge, every step a hex neighbour
        c = self.between((self.cols // 3, 2 * self.cols // 3))
        r, cells = 0, []
        lo, hi = max(4, c - 3), min(self.cols - 4, c + 3)
        while r < self.rows:
            cells.append((c, r))
            opts = [(c, r + 1)] * 3
            for d in (2, 4):  # SE, SW
                n = neighbor_cr(c, r, d)
                if lo <= n[0] <= hi and n[1] >= r:
                    opts.append(n)
            c, r = self.pick(opts)
        road = set(self.road)
        for h in cells:
            if h in road:  # the road's hex: the bridge (RULES.md §6: crossed at roads)
                self.bridge = self.bridge or h
                continue
            self.terrain[h] = "river"
            self.reserved.add(h)
        self.river = cells
        if self.bridge is None:  # the two paths always meet on a hex grid
            raise AmbushError(f"procedural mission {self.seed}: the river misses the road")
        for h in self.ring(cells, 1):
            if self.free(h) and self.t(h) == "clear" and self.chance(0.4):
                self.terrain[h] = self.pick(("brush", "brush", "woods"))
        # a footbridge (a road hex in the river) where the river runs straight down
        straight = [
            h
            for k, h in enumerate(cells[2:-2], 2)
            if cells[k - 1] == (h[0], h[1] - 1)
            and cells[k + 1] == (h[0], h[1] + 1)
            and abs(h[1] - self.bridge[1]) > 3
        ]
        if straight and self.chance(0.6):
            self.terrain[self.pick(straight)] = "road"
        mill_side = self.pick((-2, 2))
        self.place_building_near(
            (self.bridge[0] + mill_side, self.bridge[1] + self.pick((-2, 2))),
            self.between((1, 2)),
            "mill",
        )
        self.clumps("woods", self.between((2, 4)), (3, 7))
        self.clumps("brush", self.between((1, 3)), (2, 4))
        self.add_hill(
            self.random_cell(self.bridge[0] + 2, self.cols - 3),
            self.between((3, 6)),
            1,
            self.chance(0.3),
        )

    def layout_hills(self) -> None:
        centre = (
            self.between((self.cols // 2, 3 * self.cols // 4)),
            self.between((self.rows // 4, 3 * self.rows // 4)),
        )
        self.add_hill(centre, self.between((18, 40)), self.between((2, 3)), self.chance(0.7))
        if self.chance(0.6):
            self.add_hill(
                self.random_cell(4, self.cols // 2), self.between((4, 9)), 1, self.chance(0.5)
            )
        self.clumps("woods", self.between((2, 5)), (3, 8))
        self.clumps("brush", self.between((2, 4)), (2, 5))
        self.clumps("rough", self.between((1, 3)), (1, 3))
        self.place_building_near(
            (self.between((4, self.cols - 5)), self.between((2, self.rows - 3))),
            self.between((1, 2)),
            "chapel" if self.chance(0.5) else "farm",
        )

    # -- the whole mission ---------------------------------------------------------------------
    def build(self) -> Generated:
        cfg = self.cfg
        self.template = self.weighted(cfg.templates)
        tc = cfg.templates[self.template]
        self.cols, self.rows = self.between(tc.columns), self.between(tc.rows)
        road_row = self.between((self.rows // 3, 2 * self.rows // 3))
        # the entry edge: columns 0-1 stay clear ground
        for r in range(self.rows):
            self.reserved |= {(0, r), (1, r)}
        self.road = self.lay_road(road_row)
        self.main = list(self.road)  # the west-east road (a village adds a cross street)
        getattr(self, f"layout_{self.template}")()
        if not self.buildings:  # every layout has a building to take or search
            for _ in range(200):
                if self.add_building(self.random_cell(3, self.cols - 3), 1, "house"):
                    break
        if not self.hills or not self.hills[0]:
            self.hills = [self.add_hill(self.random_cell(4, self.cols - 4), 4, 1, False)]
        if self.bocage:  # every hexside between two levels is a bank (seed 004 p. 17)
            for cc in range(self.cols):
                for r in range(self.rows):
                    h = (cc, r)
                    for n in self.nbrs(h):
                        if self.level.get(n, 0) != self.level.get(h, 0):
                            self.sides.setdefault(frozenset((h, n)), {"embankment": True})
        self.hills = [[h for h in top if self.walkable(h)] for top in self.hills]
        self.hills = [top for top in self.hills if top]
        return self.finish(road_row)

    def garrison_chain(
        self, base: int, cell: Cell, men: int = 2
    ) -> dict[int, list[dict[str, Any]]]:
        """Paragraphs ``base`` and ``base + 1``: once (flag ``garrison_placed``), an NCO with an
        SMG and (``men`` 2) a rifleman placed aware and prone in ``cell``, the objective's
        first hex (⚙ two men: one German felled by a sighting's free snap fire, RULES.md §7,
        does not open the objective to a squad that never fires)."""
        where = {"hex": make_label(*cell), "stance": "prone", "aware": True}
        cards = ("nco_smg", "rifleman")[:men]
        return {
            base: _chain_head("garrison_placed", base),
            base + 1: _first_step(
                "garrison_placed",
                {"message": f"Germans hold {self.obj_name.replace('_', ' ')}."},
                *({"place": {"card": c, **where}} for c in cards),
            ),
        }

    def finish(self, road_row: int) -> Generated:
        cfg = self.cfg
        kinds = {
            k: v
            for k, v in cfg.objectives.items()
            if (k not in ("take", "intel", "demolish") or self.buildings)
            and (k != "hold" or self.hills)
        }
        self.objective_kind = self.weighted(kinds)
        ocfg = cfg.objectives[self.objective_kind]
        self.tank = self.template != "woods" and self.chance(cfg.p_tank)
        squad, n_soldiers = ("tank_hunters", 7) if self.tank else ("standard", 8)
        # -- objective ----------------------------------------------------------------------
        bids = sorted(self.buildings, key=lambda b: (-self.buildings[b][0][0], b))
        if self.objective_kind in ("take", "intel", "capture"):
            self.obj_name = bids[0] if self.chance(0.7) else self.pick(bids)
            obj = list(self.buildings[self.obj_name])
        elif self.objective_kind == "demolish":
            if self.bridge is not None and self.chance(0.5):
                obj, self.obj_name = [self.bridge], "the bridge"
            else:
                self.obj_name = self.pick(bids)
                obj = list(self.buildings[self.obj_name])
        elif self.objective_kind == "hold":
            top = max(self.hills, key=lambda t: (self.level.get(t[0], 0), t[0][0]))
            obj = sorted(top, key=lambda h: h)[:3]
            self.obj_name = "the hill"
        else:
            east = [h for h in self.main if 2 * self.cols // 3 <= h[0] < self.cols - 1]
            if self.bridge is not None and self.bridge[0] >= self.cols // 2:
                obj = [self.bridge]
                self.obj_name = "the bridge"
            else:
                obj = [self.pick(east or self.main[-3:-1])]
                self.obj_name = "the crossroads" if self.template == "village" else "the road east"
        self.obj = obj
        # -- German groups and hazards -------------------------------------------------------
        paragraphs: dict[int, list[dict[str, Any]]] = {}
        triggers: dict[str, Any] = {}
        self.triggers = triggers
        flags_needed: set[str] = set()
        self.placed_hexes: set[Cell] = set()
        groups = self.draw_groups(self.between(cfg.german_groups))
        objective: dict[str, Any] = {"name": self.obj_name.replace("_", " ")}
        if self.objective_kind == "capture":  # the officer of the first group, where he waits
            officer = next(g for g in groups if "officer" in g.cards)
            obj = self.obj = [officer.hexes[officer.cards.index("officer")]]
            self.obj_name = f"the officer at the {officer.site.split('_')[0]}"
            objective = {
                "name": self.obj_name,
                "kind": "capture",
                "card": "officer",
                "march_off": self.chance(0.3),
            }
        elif self.objective_kind == "demolish":
            satchels = 3 if self.tank else 2  # the squad's satchel charges (configs/squads)
            objective.update(
                kind="demolish", charges=self.between((1, satchels - 1)), reach=self.between((0, 1))
            )
        elif self.objective_kind == "hold":
            objective["kind"] = "hold"
        objective["hexes"] = [make_label(*h) for h in obj]
        chains: list[str] = []
        germans = 0
        for k, g in enumerate(groups):
            base = 10 * (k + 1)
            paragraphs.update(self.chain(g, base, flags_needed))
            chains.append(g.kind)
            germans += len(g.cards)
            self.add_triggers(triggers, g.ring, base)
        hazards: list[str] = []
        n_groups = len(groups)
        for k in range(self.between(cfg.hazards)):
            base = 10 * (n_groups + k + 1)
            kind = self.pick(HAZARD_KINDS)
            made = self.hazard(kind, base)
            if made is None:
                continue
            paras, ring = made
            paragraphs.update(paras)
            hazards.append(kind)
            self.add_triggers(triggers, ring, base)
        intel_vp = 0
        if self.objective_kind == "intel":
            base = 10 * (n_groups + len(hazards) + 1)
            intel_vp = self.between(ocfg.intel_vp or (6, 10))
            paragraphs.update(self.intel_chain(base, intel_vp))
            self.add_triggers(triggers, obj, base)
        room = K_SLOTS - germans - int(self.tank)
        if objective.get("kind", "take") in ("take", "hold") and room >= 1:
            # ⚙ the objective's garrison (issue 25, missions.Objective.garrison): two men in
            # its first hex, placed aware whichever way the squad comes at it, so that a squad
            # that never fires cannot take it; the same rule as the shipped missions' zones
            # (one man where the contact slots have room for no more)
            men = min(2, room)
            paragraphs.update(self.garrison_chain(GARRISON_PARAGRAPH, obj[0], men))
            objective["garrison"] = GARRISON_PARAGRAPH
            germans += men
        for base in self.rings:  # the intel chain may have taken a chain's last hex
            self.share(triggers, base)
        # -- events -------------------------------------------------------------------------
        # vehicles the validator counts: start vehicles and every place_vehicle effect
        # (a tank chain has two), at most V_SLOTS
        vehicles = sum({"vehicle": 1, "tank": 2}.get(g.kind, 0) for g in groups)
        vehicles += self.parked_car is not None
        self.jeep = not self.tank and vehicles < V_SLOTS and self.chance(cfg.p_us_jeep)
        vehicles += self.jeep
        ev_paras, events, ev_germans = self.event_table(90, flags_needed, germans, vehicles)
        paragraphs.update(ev_paras)
        germans += ev_germans
        free = [
            (c, r)
            for c in range(2, self.cols)
            for r in range(self.rows)
            if make_label(c, r) not in triggers and self.walkable((c, r))
        ]
        for i in self.rng.choice(
            len(free), size=min(self.between(cfg.event_hexes), len(free)), replace=False
        ):
            triggers[make_label(*free[int(i)])] = "EVENT"
        # -- scoring -------------------------------------------------------------------------
        vp = {k: self.between(v) for k, v in cfg.vp.items()}
        vp["objective_taken"] = self.between(ocfg.objective_taken)
        vp["exit_per_soldier"] = self.between(ocfg.exit_per_soldier)
        if ocfg.prisoner_marched_off is not None:  # what the prisoner is for (missions.Mission)
            vp["prisoner_marched_off"] = self.between(ocfg.prisoner_marched_off)
        out = 0 if self.objective_kind == "hold" else n_soldiers  # a hill is held to the end
        best = (
            vp["objective_taken"]
            + intel_vp
            + out * vp["exit_per_soldier"]
            + germans * vp["german_killed"] // 2
        )
        if self.tank:
            vp["german_tank_disabled"], vp["german_tank_immobilised"] = 10, 3
            best += 10
        if self.parked_car or any(g.kind == "vehicle" for g in groups):
            vp["german_car_disabled"] = 1
        th = {
            k: max(1, round(best * self.uniform(cfg.thresholds[k])))
            for k in ("decisive_win", "win", "draw")
        }
        th["win"] = min(th["win"], th["decisive_win"] - 1)
        th["draw"] = max(1, min(th["draw"], th["win"] - 1))
        # ⚙ (issue 25) what a squad can pick up by walking — every paragraph's VP (papers,
        # intelligence) and two Germans felled by the free snap fire of a sighting (RULES.md
        # §7) — is below the draw: only the objective and the fight draw or win
        walk_vp = sum(
            int(e["vp"]["amount"] if isinstance(e["vp"], dict) else e["vp"])
            for para in paragraphs.values()
            for e in para
            if "vp" in e
        )
        th["draw"] = max(th["draw"], walk_vp + 2 * vp["german_killed"] + 1)
        th["win"] = max(th["win"], th["draw"] + 1)
        th["decisive_win"] = max(th["decisive_win"], th["win"] + 1)
        # -- the files -----------------------------------------------------------------------
        entry_rows = [min(self.rows - 1, max(0, road_row + d)) for d in (0, 1, -1, 0, -2, 1, 2, -1)]
        entry = [make_label(0, r) for r in entry_rows]
        night = self.chance(cfg.p_night)
        rules: dict[str, Any] = {"all_in_command_rounds": self.between(cfg.all_in_command_rounds)}
        if night:
            rules["sight_cap"] = self.between(cfg.night_sight_cap)
        if self.chance(cfg.p_event_every_pulses):  # random event checks (RULES.md §15)
            rules["event_every_pulses"] = self.between(cfg.event_every_pulses)
        if self.chance(cfg.p_event_every_rounds):
            rules["event_every_rounds"] = self.between(cfg.event_every_rounds)
        booby_traps = self.map_traps(triggers) if self.chance(cfg.p_map_traps) else {}
        us_vehicles = []
        if self.jeep:
            us_vehicles.append({"vehicle": "jeep", "hex": make_label(0, road_row), "facing": "NE"})
        german_vehicles = [self.parked_car] if self.parked_car else []
        mission = {
            "id": f"procedural_{self.seed}",
            "title": f"Procedural mission {self.seed}: {self.template}, {self.objective_kind}",
            "briefing": self.briefing(night),
            "map": "farm_assault",  # a placeholder id: the generated board is passed to the engine
            "squad": squad,
            "deck_default": "regular",
            "us_entry": entry,
            "exit_hexes": [
                make_label(self.cols - 1, r)
                for r in range(self.rows)
                if self.walkable((self.cols - 1, r))
            ],
            "objective": objective,
            "time_limit": {
                "operations_pulses": max(
                    cfg.min_pulses, round(self.cols * self.uniform(cfg.pulses_per_column))
                ),
                "rounds": self.between(cfg.rounds),
            },
            "triggers": triggers,
            "paragraphs": paragraphs,
            "events": events,
            "vp": vp,
            "results": th,
            "rules": rules,
            "booby_traps": booby_traps,
            "us_vehicles": us_vehicles,
            "german_vehicles": german_vehicles,
        }
        sk = Sketch(
            seed=self.seed,
            template=self.template,
            objective=self.objective_kind,
            chains=tuple(chains),
            hazards=tuple(hazards),
            germans=germans,
        )
        return Generated(mission=mission, map=self.map_dict(), sketch=sk)

    def add_triggers(self, triggers: dict[str, Any], ring: list[Cell], base: int) -> None:
        """Trigger hexes of paragraph ``base``: the ring's hexes no chain holds yet, and at
        least its last one (a group's own hex) whatever holds it."""
        for h in ring:
            triggers.setdefault(make_label(*h), base)
        self.rings[base] = ring
        self.share(triggers, base)

    def share(self, triggers: dict[str, Any], base: int) -> None:
        """Give chain ``base`` a hex of its ring from a chain that holds two or more, when
        the others took them all."""
        if base in triggers.values():
            return
        held: dict[Any, int] = {}
        for v in triggers.values():
            held[v] = held.get(v, 0) + 1
        for h in reversed(self.rings[base]):
            if held.get(triggers.get(make_label(*h)), 0) >= 2:
                triggers[make_label(*h)] = base
                return

    def map_dict(self) -> dict[str, Any]:
        hexes: dict[str, dict[str, Any]] = {}
        for h, t in self.terrain.items():
            if t != "clear":
                hexes.setdefault(make_label(*h), {})["terrain"] = t
        for h, lv in self.level.items():
            if lv:
                hexes.setdefault(make_label(*h), {})["level"] = lv
        for h, bid in self.building.items():
            hexes.setdefault(make_label(*h), {})["building"] = bid
        for h, rs in self.rise.items():
            hexes.setdefault(make_label(*h), {})["rise"] = rs
        sides = {}
        for key, spec in self.sides.items():
            a, b = sorted(key)
            sides[f"{make_label(*a)}/{make_label(*b)}"] = spec
        return {
            "name": f"procedural_{self.seed}",
            "columns": self.cols,
            "rows": self.rows,
            "default": {"terrain": "clear", "level": 0},
            "hexes": hexes,
            "hexsides": sides,
        }

    # -- forces --------------------------------------------------------------------------------
    def legal_german_hex(self, h: Cell) -> bool:
        """A German may be placed here: on the map, four columns or more from the US entry
        edge, not in the river."""
        return self.on(*h) and h[0] >= 4 and self.t(h) != "river"

    def sites(self) -> list[tuple[str, list[Cell]]]:
        """Candidate German positions: buildings, hill tops, woods, hedges, the bridge's far
        side, road hexes in the east half; each a name and its cells."""
        out: list[tuple[str, list[Cell]]] = []
        for bid, cells in sorted(self.buildings.items()):
            out.append((bid, cells))
        for k, top in enumerate(self.hills):
            out.append((f"hill_{k}", top))
        for k, h in enumerate(self.woods_sites):
            if self.t(h) == "woods":
                out.append((f"wood_{k}", [h]))
        if self.bridge is not None:
            far = [n for n in self.nbrs(self.bridge) if n[0] > self.bridge[0] and self.walkable(n)]
            if far:
                out.append(("bridge", [self.bridge, far[0]]))
        east = [h for h in self.road if h[0] >= self.cols // 2 and h[0] < self.cols - 1]
        if east:
            out.append(("road", [self.pick(east)]))
        brush = [h for h, t in sorted(self.terrain.items()) if t == "brush" and h[0] >= 5]
        if brush:
            out.append(("hedge", [self.pick(brush)]))
        return [
            (n, [h for h in cells if self.legal_german_hex(h)])
            for n, cells in out
            if any(self.legal_german_hex(h) for h in cells)
        ]

    def draw_groups(self, n: int) -> list[_Group]:
        cfg = self.cfg
        sites = self.sites()
        self.rng.shuffle(sites)
        # the objective itself is held when it is a building or a hill (garrison first)
        obj_site = [s for s in sites if set(s[1]) & set(self.obj)]
        rest = [s for s in sites if s not in obj_site]
        order = obj_site[:1] + rest
        groups: list[_Group] = []
        budget = cfg.max_germans
        kinds = list(CHAIN_KINDS)
        kinds.remove("tank")
        if self.tank:
            road_e = [h for h in self.main if self.cols // 2 <= h[0] < self.cols - 3] or self.main[
                -4:-3
            ]
            h = self.pick(road_e)
            groups.append(_Group("tank", [], [h], "road", self.trigger_ring([h], 3)))
        capture = self.objective_kind == "capture"
        while len(groups) < n and order:
            name, cells = order.pop(0)
            kind = self.pick(kinds)
            if capture and not any("officer" in g.cards for g in groups):
                # the officer to capture: always placed (no chain that may leave him out)
                kind = self.pick(("activation", "alarm", "ambush", "patrol"))
                comp = self.pick((["officer"], ["officer", "rifleman"], ["officer", "nco_smg"]))
                budget -= len(comp)
                hexes = self.group_hexes(cells, comp)
                groups.append(_Group(kind, comp, hexes, name, self.trigger_ring(hexes, 2)))
                continue
            if (
                self.objective_kind == "demolish"
                and set(cells) & set(self.obj)
                and all(g.kind == "tank" for g in groups)
            ):
                # ⚙ satchels are thrown in Rounds only (RULES.md §5, §9): the target is held
                # by a group that is always placed, so that there is a fight at it
                kind = self.pick(("activation", "alarm", "ambush"))
            if kind == "vehicle":
                kind = (
                    kind if self.road and not any(g.kind == "vehicle" for g in groups) else "patrol"
                )
            # ⚙ the groups, cards of the deck (RULES.md §14): riflemen, an MG team, an NCO with
            # an SMG, an officer (he alerts the men round him), a sniper, a Panzerfaust man
            comp = self.pick(
                (
                    ["rifleman"],
                    ["rifleman", "rifleman"],
                    ["mg_gunner", "mg_loader"],
                    ["nco_smg"],
                    ["nco_smg", "rifleman"],
                    ["mg_gunner", "mg_loader", "rifleman"],
                    ["officer", "rifleman"],
                    ["sniper"],
                    ["panzerfaust", "rifleman"],
                )
            )
            if kind == "vehicle":
                comp = self.pick(
                    (["rifleman"], ["rifleman", "nco_smg"], ["nco_smg", "rifleman", "rifleman"])
                )
            if capture:  # one officer only: killing any of that card spoils the objective
                comp = ["nco_smg" if c == "officer" else c for c in comp]
            if len(comp) > budget:
                comp = comp[: max(1, budget)]
            if budget <= 0:
                break
            budget -= len(comp)
            hexes = self.group_hexes(cells, comp)
            g = _Group(kind, comp, hexes, name, self.trigger_ring(hexes, 2))
            groups.append(g)
        for _ in range(1000):  # RULES.md §15: three placements at least
            if sum(g.kind not in ("vehicle", "tank") for g in groups) >= 3:
                break
            h = self.random_cell(5)
            if self.legal_german_hex(h) and h not in self.placed_hexes:
                groups.append(
                    _Group("activation", ["rifleman"], [h], "field", self.trigger_ring([h], 2))
                )
        if self.chance(self.cfg.p_parked_car):
            near = [
                n
                for b in self.buildings.values()
                for n in self.ring(b, 1)
                if self.t(n) in ("clear", "road") and n[0] >= 3
            ]
            if near:
                h = self.pick(sorted(near))
                self.parked_car = {
                    "vehicle": "kubelwagen",
                    "hex": make_label(*h),
                    "facing": self.pick(("N", "NE", "SE", "S", "SW", "NW")),
                }
        return groups

    def group_hexes(self, cells: list[Cell], comp: list[str]) -> list[Cell]:
        """Where each man of a group is placed: an MG team in one hex, others beside it."""
        h0 = self.pick(cells)
        out: list[Cell] = []
        around = (
            [h0]
            + [n for n in cells if n != h0]
            + [n for n in self.nbrs(h0) if self.legal_german_hex(n)]
        )
        k = 0
        for card in comp:
            if card == "mg_loader":
                out.append(out[comp.index("mg_gunner")])
                continue
            out.append(around[min(k, len(around) - 1)])
            k += 1
        self.placed_hexes |= set(out)
        return out

    def trigger_ring(self, hexes: list[Cell], radius: int) -> list[Cell]:
        """The trigger hexes of a group: the passable cells within ``radius`` of it, off the
        entry columns (the nearest 10 on the squad's side, then the group's own hexes)."""
        own = list(dict.fromkeys(hexes))
        cells = [h for h in self.ring(own, radius) if h[0] >= 2 and self.t(h) != "river"]
        cells.sort(key=lambda h: (h[0], h[1]))
        return cells[:10] + own

    def chain(
        self, g: _Group, base: int, flags_needed: set[str]
    ) -> dict[int, list[dict[str, Any]]]:
        """The paragraphs of one German group's chain (:data:`CHAIN_KINDS`), from ``base``."""
        cfg = self.cfg
        flag = f"{g.site}_{base}"
        act = self.between(cfg.activation)
        where = g.site.split("_")[0]

        def place(aware: bool, stance: str, route: bool = False) -> list[dict[str, Any]]:
            out = []
            for card, h in zip(g.cards, g.hexes, strict=True):
                e: dict[str, Any] = {
                    "card": card,
                    "hex": make_label(*h),
                    "stance": stance,
                    "aware": aware,
                }
                if route:
                    e["route"] = [make_label(*x) for x in self.obj[:1]]
                out.append({"place": e})
            return out

        head = {base: _chain_head(flag, base)}
        p: dict[int, list[dict[str, Any]]] = dict(head)
        if g.kind == "activation":
            p[base + 1] = _first_step(flag, _activation_check(act, base + 2, base + 3))
            p[base + 2] = [{"message": f"Movement at the {where}: they have seen you."}] + place(
                True, "crouching"
            )
            p[base + 3] = [{"message": f"Germans at the {where}, not looking your way."}] + place(
                False, "standing"
            )
        elif g.kind == "perception":
            mod = self.between(cfg.perception_modifier)
            p[base + 1] = _first_step(flag, _activation_check(act, base + 2, base + 5))
            p[base + 2] = [
                {"message": f"Fresh tracks lead to the {where}."},
                _perception_check(mod, base + 3, base + 4),
            ]
            p[base + 3] = [{"message": f"You spot them first, dug in at the {where}."}] + place(
                False, "prone"
            )
            p[base + 4] = [{"message": f"Fire from the {where}!"}] + place(True, "prone")
            p[base + 5] = [{"message": f"Empty positions at the {where}; they have gone."}]
        elif g.kind == "alarm":
            flags_needed.add("alarm")
            p[base + 1] = _first_step(
                flag, {"if_flag": {"flag": "alarm", "then": base + 2, "else": base + 3}}
            )
            p[base + 2] = [
                {"message": f"The {where} is ready for you: the alarm was raised."}
            ] + place(True, "crouching")
            p[base + 3] = [_activation_check(act, base + 2, base + 4)]
            p[base + 4] = [{"message": f"Voices at the {where}, unhurried."}] + place(
                False, "standing"
            )
        elif g.kind == "ambush":
            p[base + 1] = _first_step(
                flag, {"message": f"An ambush at the {where}!"}, {"set": "alarm"}
            ) + place(True, "prone")
        elif g.kind == "patrol":
            p[base + 1] = _first_step(flag, _activation_check(act, base + 2, base + 3))
            p[base + 2] = [{"message": f"A patrol from the {where} has seen you."}] + place(
                True, "crouching"
            )
            p[base + 3] = [
                {
                    "message": f"A patrol leaves the {where}, heading for {self.obj_name.replace('_', ' ')}."
                }
            ] + place(False, "standing", route=True)
        elif g.kind == "vehicle":
            car = "motorcycle" if len(g.cards) <= 2 and self.chance(0.6) else "kubelwagen"
            start = self.main[-2]
            route = [make_label(*self.main[len(self.main) // 3])]
            veh = {
                "vehicle": car,
                "hex": make_label(*start),
                "facing": "SW",
                "driver": g.cards[0],
                "passengers": list(g.cards[1:]),
                "aware": True,
                "route": route,
            }
            p[base + 1] = _first_step(flag, _activation_check(act, base + 2, base + 3))
            p[base + 2] = [
                {
                    "message": f"An engine from the east: a {car.replace('_', ' ')} comes down the road."
                },
                {"place_vehicle": veh},
            ]
            p[base + 3] = [{"message": "Tyre tracks in the mud of the road, hours old."}]
            g.hexes = [start]
            self.placed_hexes.add(start)
        elif g.kind == "tank":
            h = g.hexes[0]
            tv = {
                "vehicle": "panzer_iv",
                "hex": make_label(*h),
                "facing": "SW",
                "card": "panzer_iv",
                "crew": 5,
            }
            p[base + 1] = _first_step(flag, _activation_check(act, base + 2, base + 3))
            p[base + 2] = [
                {"message": "A Panzer IV on the road, its crew lounging on the engine deck."},
                {"place_vehicle": {**tv, "aware": False}},
            ]
            p[base + 3] = [
                {"message": "The Panzer IV on the road swings its turret toward you."},
                {"place_vehicle": {**tv, "aware": True}},
            ]
        else:  # pragma: no cover - CHAIN_KINDS is closed
            raise AmbushError(f"unknown chain kind {g.kind!r}")
        return p

    def hazard(
        self, kind: str, base: int
    ) -> tuple[dict[int, list[dict[str, Any]]], list[Cell]] | None:
        """A booby-trap chain at a building's yard, or a minefield chain in open ground."""
        flag = f"{kind}_{base}"
        mod = self.between(self.cfg.perception_modifier)
        p: dict[int, list[dict[str, Any]]] = {base: _chain_head(flag, base)}
        if kind == "booby_trap":
            yards = [
                n
                for b in sorted(self.buildings)
                for n in self.ring(self.buildings[b], 1)
                if self.walkable(n)
                and n[0] >= 3
                and n not in self.placed_hexes
                and make_label(*n) not in self.triggers
            ]
            if not yards:
                return None
            h = self.pick(yards)
            row = self.pick(("grenade_outside", "grenade_outside", "satchel_outside"))
            p[base + 1] = _first_step(flag, _perception_check(mod, base + 2, base + 3))
            p[base + 2] = [{"message": "A wire across the path, a charge at its end. You cut it."}]
            p[base + 3] = [
                {"message": "A booby trap goes off under your feet!"},
                {"booby_trap": {"row": row}},
            ]
            return p, [h]
        fields = [h for h in self.free_open_cells() if h[0] >= 4]
        if not fields:
            return None
        centre = self.pick(fields)
        cells = [
            h
            for h in self.blob(centre, self.between((2, 4)), lambda x: x in set(fields))
            if h not in self.placed_hexes
        ]
        if not cells:
            return None
        labels = [make_label(*h) for h in cells]
        warn = [
            h for h in self.ring(cells, 1) if self.walkable(h) and h[0] >= 2 and h not in cells
        ][:6]
        if not warn:
            return None
        p[base + 1] = _first_step(flag, _perception_check(mod, base + 2, base + 3))
        p[base + 2] = [
            {"message": "Signs on the fence: Achtung Minen! You mark the field."},
            {"minefield": {"hexes": labels, "kind": "anti_personnel", "known": True}},
        ]
        p[base + 3] = [{"minefield": {"hexes": labels, "kind": "anti_personnel", "known": False}}]
        return p, warn

    def map_traps(self, triggers: dict[str, Any]) -> dict[str, Any]:
        """Map booby traps (mission ``booby_traps``; seed 000 p. 32) in building yards and hedge
        gaps: off the road, the entry, the objective, the trigger hexes and the Germans."""
        road = set(self.road)
        cells = sorted(
            {n for b in self.buildings.values() for n in self.ring(b, 1)}
            | {h for h, t in self.terrain.items() if t == "brush"}
        )
        cells = [
            h
            for h in cells
            if h[0] >= 3
            and self.walkable(h)
            and h not in road
            and h not in self.obj
            and h not in self.placed_hexes
            and make_label(*h) not in triggers
        ]
        out: dict[str, Any] = {}
        for _ in range(min(len(cells), self.between(self.cfg.map_traps))):
            h = cells[int(self.rng.integers(len(cells)))]
            out[make_label(*h)] = {
                "row": self.pick(("grenade_outside", "grenade_outside", "satchel_outside")),
                "known": self.chance(0.5),
            }
        return out

    def free_open_cells(self) -> list[Cell]:
        """Open ground for a minefield: clear, brush or rough, off the road and its verges,
        the objective, the entry and the German positions."""
        road = set(self.road)
        verge = set(self.ring(self.road, 1))
        obj = set(self.obj) | set(self.ring(self.obj, 1))
        return [
            (c, r)
            for c in range(3, self.cols - 1)
            for r in range(self.rows)
            if self.t((c, r)) in ("clear", "brush", "rough")
            and (c, r) not in road
            and (c, r) not in verge
            and (c, r) not in obj
            and (c, r) not in self.placed_hexes
        ]

    def intel_chain(self, base: int, vp: int) -> dict[int, list[dict[str, Any]]]:
        mod = self.between(self.cfg.perception_modifier)
        flag = f"searched_{base}"
        small = max(1, vp // 3)
        return {
            base: _chain_head(flag, base),
            base + 1: _first_step(flag, _perception_check(mod, base + 2, base + 3)),
            base + 2: [
                {"message": "In a locked drawer: the battalion's orders and a marked map."},
                {"vp": {"amount": vp, "reason": "German orders recovered"}},
            ],
            base + 3: [
                {"message": "Only a duty roster and some letters; you take them anyway."},
                {"vp": {"amount": small, "reason": "German papers recovered"}},
            ],
        }

    def event_table(
        self, base: int, flags_needed: set[str], germans: int, vehicles: int
    ) -> tuple[dict[int, list[dict[str, Any]]], list[dict[str, Any]], int]:
        """The d10 event table (covering 0-9) and its paragraphs, from a pool."""
        cfg = self.cfg
        pool = [
            "guns",
            "tripwire",
            "civilian",
            "sniper",
            "courier",
            "alarm",
            "shelling",
            "strafing",
            "officer",
        ]
        n_rows = self.between(cfg.event_rows)
        chosen = list(self.rng.choice(pool, size=min(n_rows, len(pool)), replace=False))
        if "alarm" in flags_needed and "alarm" not in chosen:
            chosen[-1] = "alarm"
        # German units in all (men, and a tank's own unit) within the contact slots
        room = K_SLOTS - germans - int(self.tank)
        if germans >= cfg.max_germans or room < 1:
            chosen = [c if c != "sniper" else "guns" for c in chosen]
        room -= "sniper" in chosen
        if vehicles >= V_SLOTS or room < 1:  # the vehicle slots are full, or the contact slots
            chosen = [c if c != "courier" else "guns" for c in chosen]
        chosen = list(dict.fromkeys(chosen))
        paras: dict[int, list[dict[str, Any]]] = {}
        rows_p: list[int] = []
        extra = 0
        for k, kind in enumerate(chosen):
            p = base + 2 * k
            if kind == "guns":
                paras[p] = [{"message": "Guns rumble to the north. Nothing falls near you."}]
            elif kind == "tripwire":
                paras[p] = [_perception_check(-1, p + 1, p + 40)]
                paras[p + 1] = [{"message": "A tripwire at ankle height. You cut it."}]
                paras[p + 40] = [
                    {"message": "A tripwire! The grenade goes off."},
                    {"booby_trap": {"row": "grenade_outside"}},
                ]
            elif kind == "civilian":
                paras[p] = [{"if_flag": {"flag": "civilian_met", "then": None, "else": p + 1}}]
                paras[p + 1] = [
                    {"set": "civilian_met"},
                    {"message": "A farmer in a ditch tells you where the Germans are."},
                    {"vp": {"amount": 1, "reason": "information from a civilian"}},
                ]
            elif kind == "officer":  # the platoon leader takes charge for a few Rounds (§5)
                paras[p] = [{"if_flag": {"flag": "officer_came", "then": None, "else": p + 1}}]
                paras[p + 1] = [
                    {"set": "officer_came"},
                    {"message": "The platoon leader comes up and takes charge."},
                    {"command": self.between((1, 3))},
                ]
            elif kind == "alarm":
                paras[p] = [
                    {"message": "A dog barks and will not stop: the Germans are warned."},
                    {"set": "alarm"},
                ]
            elif kind == "sniper":
                spots = [
                    h
                    for h in sorted(self.terrain)
                    if self.t(h) in ("woods", "building")
                    and h[0] >= self.cols // 2
                    and h not in self.placed_hexes
                    and self.legal_german_hex(h)
                ]
                if not spots:
                    paras[p] = [{"message": "A single shot far off. Nobody is hit."}]
                else:
                    h = self.pick(spots)
                    self.placed_hexes.add(h)
                    extra = 1
                    paras[p] = [{"if_flag": {"flag": "sniper", "then": None, "else": p + 1}}]
                    paras[p + 1] = [
                        {"set": "sniper"},
                        {"message": f"A sniper fires from {make_label(*h)}!"},
                        {
                            "place": {
                                "card": "sniper",
                                "hex": make_label(*h),
                                "stance": "prone",
                                "aware": True,
                            }
                        },
                    ]
            elif kind == "shelling":  # the battalion's mortars on a German position, once
                spots = sorted(self.placed_hexes - set(self.obj)) or sorted(self.placed_hexes)
                h = self.pick(spots)
                hexes = [make_label(*x) for x in [h] + [n for n in self.nbrs(h) if n[0] >= 4][:2]]
                paras[p] = [{"if_flag": {"flag": "shelled", "then": None, "else": p + 1}}]
                paras[p + 1] = [
                    {"set": "shelled"},
                    {"message": "Mortar bombs come down ahead of you."},
                    {"strike": {"kind": "artillery", "hexes": hexes, "row": "grenade_outside"}},
                ]
            elif kind == "strafing":  # a fighter-bomber down the road, once: both sides hit
                a, b = self.main[len(self.main) // 2], self.main[-1]
                line = a[1] == b[1] or a[0] == b[0]
                ends = (
                    [make_label(*a), make_label(*b)]
                    if line
                    else [make_label(*h) for h in self.main[-3:]]
                )
                paras[p] = [{"if_flag": {"flag": "strafed", "then": None, "else": p + 1}}]
                paras[p + 1] = [
                    {"set": "strafed"},
                    {"message": "A fighter-bomber roars down the road, guns firing."},
                    {"strike": {"kind": "strafing", "hexes": ends, "row": "smg", "line": line}},
                ]
            elif kind == "courier":
                east = self.main[-1:]
                paras[p] = [{"if_flag": {"flag": "courier", "then": None, "else": p + 1}}]
                paras[p + 1] = [
                    {"set": "courier"},
                    {"message": "A German dispatch rider roars down the road."},
                    {
                        "place_vehicle": {
                            "vehicle": "motorcycle",
                            "hex": make_label(*east[-1]),
                            "facing": "SW",
                            "driver": "rifleman",
                            "aware": False,
                            "route": [make_label(*self.main[0])],
                        }
                    },
                ]
                extra += 1
            rows_p.append(p)
        # the rows: 0..n nothing, then the chosen events over the rest of 0-9
        lo = self.between(cfg.nothing_rolls)
        lo = min(lo, 9 - len(rows_p))
        cuts = sorted(
            int(x)
            for x in self.rng.choice(np.arange(lo + 2, 10), size=len(rows_p) - 1, replace=False)
        )
        starts = [lo + 1] + cuts
        stops = [s - 1 for s in starts[1:]] + [9]
        events: list[dict[str, Any]] = [{"rolls": [0, lo], "paragraph": None}]
        for para, first, last in zip(rows_p, starts, stops, strict=True):
            events.append({"rolls": [first, last], "paragraph": para})
        return paras, events, extra

    def briefing(self, night: bool) -> str:
        where = {
            "farm": "a farm in open fields",
            "village": "a village at a crossroads",
            "hedgerows": "bocage country, hedges on high banks",
            "woods": "a forest",
            "river": "a river crossed by the road's bridge",
            "hills": "a hill over the road",
        }
        goal = {
            "take": f"Take {self.obj_name.replace('_', ' ')} and then leave by the east edge.",
            "exit": f"Get through: pass {self.obj_name} and bring your men off the east edge.",
            "intel": f"Search {self.obj_name.replace('_', ' ')} for the German orders, then "
            "leave by the east edge.",
            "hold": "Take the top of the hill from the Germans and hold it to the end.",
            "capture": f"Take {self.obj_name} prisoner: battalion wants him alive.",
            "demolish": f"Blow up {self.obj_name.replace('_', ' ')} with your satchel "
            "charges, then leave by the east edge.",
        }
        text = (
            f"The squad comes in from the west edge into {where[self.template]}. "
            f"{goal[self.objective_kind]}"
        )
        if self.tank:
            text += " A Panzer IV is reported on the road: your section has a bazooka."
        if night:
            text += " It is night: you see only a few hexes."
        return text
