"""Owns the rule tables: weapons, damage rows, penetration and terrain (RULES.md §6, §8, §11;
seed 002).

Three YAML files in ``ambush_env/data/`` are validated into frozen pydantic models, cross-checked
against each other, and wrapped in one :class:`Tables` object that also holds flat lookups
precomputed for the hot paths of fire combat (tuples indexed by range band, stance or terrain).

* ``weapons.yaml`` – :class:`WeaponsFile`: ``range_bands``, ``jam_on``, ``modifiers``,
  ``classes`` (:class:`WeaponClass`), ``weapons`` (:class:`Weapon`), ``items`` (:class:`Item`).
* ``damage.yaml`` – :class:`DamageFile`: ``rows`` (:class:`DamageRow`: ``soldier`` and
  ``penetration``, ten results each, indexed by the d10 roll), ``wall``, ``wounded``,
  ``incapacitated``.
* ``terrain.yaml`` – :class:`TerrainFile`: ``terrain`` (:class:`TerrainType`: ``mp``, ``cover``,
  ``sight``), ``movement`` (:class:`MoveCosts`), ``walls`` (:class:`WallType`).

Any problem raises :class:`~ambush_env.core.model.errors.DataError` naming the file and the field, e.g.
``weapons.yaml: classes.smg.to_hit: to-hit rises with range (band 3: 4 -> 5)``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import STANCE_NAMES, TERRAIN_NAMES, Terrain
from ambush_env.core.world.data import DATA_DIR, Frozen, load_data, not_zero

#: Damage results against soldiers, least to most severe (seed 002 p. 26).
RESULTS: tuple[str, ...] = ("none", "panic", "wound", "incapacitated", "kill")
#: Severity of each result (index in :data:`RESULTS`).
SEVERITY: dict[str, int] = {r: i for i, r in enumerate(RESULTS)}
#: Penetration levels, weakest first (seed 002 p. 26).
PENETRATION_LEVELS: tuple[str, ...] = ("none", "light", "medium", "heavy")
#: Surfaces a penetration result can meet (RULES.md §11): two walls, then vehicle armour.
PENETRATION_SURFACES: tuple[str, ...] = (
    "wood_wall",
    "stone_wall",
    "unarmoured",
    "light",
    "medium",
    "heavy",
)
#: What a penetration does to a surface (RULES.md §11).
PENETRATION_RESULTS: tuple[str, ...] = ("none", "pass", "destroyed")
#: Weapon classes the rules name (RULES.md §8); the code refers to them by name.
REQUIRED_CLASSES: tuple[str, ...] = (
    "pistol",
    "bolt_rifle",
    "semi_auto_rifle",
    "smg",
    "automatic_rifle",
    "lmg",
    "hmg",
    "bazooka",
    "panzerfaust",
    "tank_gun",
    "tank_mg",
)
#: Damage rows the rules name (RULES.md §8): one per class plus grenades, satchels, assault.
REQUIRED_ROWS: tuple[str, ...] = REQUIRED_CLASSES + (
    "grenade_inside",
    "grenade_outside",
    "satchel_inside",
    "satchel_outside",
    "assault",
    "bazooka_inside",
)
#: Faces of a d10 (RULES.md §1): every damage row has one entry per face.
D10_FACES = 10

ResultName = Literal["none", "panic", "wound", "incapacitated", "kill"]
LevelName = Literal["none", "light", "medium", "heavy"]
D10 = Annotated[int, Field(ge=0, le=9)]


# --------------------------------------------------------------------------------------------
# weapons.yaml
# --------------------------------------------------------------------------------------------
class RangeBand(Frozen):
    """One range band: ``max`` is its largest distance in hexes (inclusive), None = open."""

    label: str
    max: Annotated[int, Field(ge=0)] | None


class StanceValues(Frozen):
    """One integer per stance."""

    standing: int
    crouching: int
    prone: int

    def by_stance(self) -> tuple[int, int, int]:
        """The values as a tuple indexed by :class:`~ambush_env.core.model.types.Stance`."""
        return (self.standing, self.crouching, self.prone)


class SizeValues(Frozen):
    small: int
    large: int


class FireModifiers(Frozen):
    """Fire combat modifiers (RULES.md §8), added to the base to-hit number."""

    snap: int
    target_stance: StanceValues
    vehicle_size: SizeValues
    wall_target: int
    wounded: int
    from_car: int
    captured_weapon: int
    vehicle_cover: int = Field(le=0)


class WeaponClass(Frozen):
    """A weapon class (RULES.md §8): base to-hit per range band and its handling flags."""

    to_hit: tuple[D10 | None, ...]
    automatic: bool
    jams: bool
    explosive: bool
    crew: bool
    needs_prepare: bool
    snap: bool
    damage: str
    fire_clears_prepare: bool = False
    vehicle_mounted: bool = False
    d100_only: bool = False  # seed 003's weapons: only under rules="d100"

    @field_validator("to_hit")
    @classmethod
    def _sane_to_hit(cls, v: tuple[int | None, ...]) -> tuple[int | None, ...]:
        if not v or v[0] is None:
            raise ValueError("the same-hex band must have a to-hit number")
        seen_null = False
        prev = v[0]
        for i, x in enumerate(v):
            if x is None:
                seen_null = True
                continue
            if seen_null:
                raise ValueError(f"band {i} has a to-hit number after a null (max range)")
            if x > prev:
                raise ValueError(f"to-hit rises with range (band {i}: {prev} -> {x})")
            prev = x
        return v


class Weapon(Frozen):
    """A concrete weapon. ``clip``: shots per clip (one fire resolution each), −1 never dry."""

    name: str
    side: Literal["us", "german", "vehicle"]
    weapon_class: str = Field(alias="class")
    clip: Annotated[
        int,
        Field(ge=-1),
        not_zero("a clip of 0 shots can never fire; use -1 for 'never runs dry'"),
    ]
    reload: str | None = None


class Item(Frozen):
    """A port-box item: ``boxes`` port boxes filled; a clip names the ``weapon`` it fits.
    A ``radio`` is carried and may be captured, but no order uses one: captured radios are
    unusable (seed 002 p. 27) and US radios are not in the engine yet."""

    kind: Literal["grenade", "satchel", "clip", "radio", "sticky_grenade", "pole_charge", "molotov"]
    boxes: int = Field(ge=1)
    weapon: str | None = None
    d100_only: bool = False  # seed 003's charges: only under rules="d100"


class WeaponsFile(Frozen):
    """``weapons.yaml``."""

    range_bands: tuple[RangeBand, ...]
    jam_on: D10
    modifiers: FireModifiers
    classes: dict[str, WeaponClass]
    weapons: dict[str, Weapon]
    items: dict[str, Item]


# --------------------------------------------------------------------------------------------
# damage.yaml
# --------------------------------------------------------------------------------------------
def _monotone(v: tuple[str, ...], order: tuple[str, ...]) -> tuple[str, ...]:
    if len(v) != D10_FACES:
        raise ValueError(f"needs {D10_FACES} entries (d10 rolls 0-9), has {len(v)}")
    for i in range(1, len(v)):
        if order.index(v[i]) < order.index(v[i - 1]):
            raise ValueError(f"roll {i} ({v[i]}) is milder than roll {i - 1} ({v[i - 1]})")
    return v


class DamageRow(Frozen):
    """A damage row (seed 002 p. 26): d10 roll → soldier result and penetration level."""

    soldier: tuple[ResultName, ...]
    #: what the weapon can reach against walls and vehicles, read by RULES.md §11's one
    #: reading (``damage.yaml: penetration``); no other rule overrides it
    penetration: tuple[LevelName, ...] | None = None

    @field_validator("soldier")
    @classmethod
    def _soldier(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return _monotone(v, RESULTS)

    @field_validator("penetration")
    @classmethod
    def _penetration(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return None if v is None else _monotone(v, PENETRATION_LEVELS)


class WallFire(Frozen):
    """Fire at walls (seed 002 p. 27)."""

    behind_hit: StanceValues
    destroyed_row: str
    collapse_walls: int = Field(ge=1)


class WoundedRules(Frozen):
    """Wounded soldiers (seed 002 p. 26)."""

    mv: int = Field(ge=0)
    port_boxes: int = Field(ge=0)
    throw: int
    assault: int


class IncapacitatedRules(Frozen):
    """Incapacitated soldiers (seed 002 p. 26): drag/load kills on a d10 ≤ ``drag_kill``."""

    drag_kill: int = Field(ge=-1, le=9)


PenetrationResult = Literal["none", "pass", "destroyed"]


class PenetrationCells(Frozen):
    """One level's results by surface (:data:`PENETRATION_SURFACES`; every one required)."""

    wood_wall: PenetrationResult
    stone_wall: PenetrationResult
    unarmoured: PenetrationResult
    light: PenetrationResult
    medium: PenetrationResult
    heavy: PenetrationResult


class PenetrationLevels(Frozen):
    """Results by penetration level (:data:`PENETRATION_LEVELS`; every one required)."""

    none: PenetrationCells
    light: PenetrationCells
    medium: PenetrationCells
    heavy: PenetrationCells


class PenetrationTable(Frozen):
    """``damage.yaml: penetration``: level × explosive × surface → none | pass | destroyed
    (RULES.md §11)."""

    plain: PenetrationLevels
    explosive: PenetrationLevels

    def cells(self) -> dict[tuple[str, bool, str], str]:
        """``(level, explosive, surface)`` → result, every combination."""
        return {
            (lvl, exp, s): getattr(getattr(getattr(self, "explosive" if exp else "plain"), lvl), s)
            for lvl in PENETRATION_LEVELS
            for exp in (False, True)
            for s in PENETRATION_SURFACES
        }


class DamageFile(Frozen):
    """``damage.yaml``."""

    rows: dict[str, DamageRow]
    wall: WallFire
    wounded: WoundedRules
    incapacitated: IncapacitatedRules
    penetration: PenetrationTable


# --------------------------------------------------------------------------------------------
# terrain.yaml
# --------------------------------------------------------------------------------------------
class TerrainType(Frozen):
    """One terrain type: soldier MP cost (None = impassable), target cover, sight class."""

    mp: Annotated[int, Field(ge=1)] | None
    cover: int = Field(le=0)
    sight: Literal["none", "obstacle", "building"]


class MoveCosts(Frozen):
    """Extra soldier MP costs (RULES.md §6)."""

    up_level: int = Field(ge=0)
    embankment: int = Field(ge=0)
    crest: int = Field(ge=0)
    crouching: int = Field(ge=0)
    window: int = Field(ge=0)
    prone_hexes_per_move: int = Field(ge=1)


class WallType(Frozen):
    cover: int = Field(le=0)


class TerrainFile(Frozen):
    """``terrain.yaml``."""

    terrain: dict[str, TerrainType]
    movement: MoveCosts
    walls: dict[Literal["stone", "wood"], WallType]


# --------------------------------------------------------------------------------------------
# Cross-checks: problems that need more than one field (or more than one file).
# --------------------------------------------------------------------------------------------
def _check_weapons(w: WeaponsFile, path: Path) -> None:
    bands = w.range_bands
    if len(bands) < 2:
        raise DataError(path, "range_bands", "needs at least two bands")
    if bands[0].max != 0:
        raise DataError(path, "range_bands.0.max", "the first band must be the same hex (max 0)")
    for i, b in enumerate(bands):
        last = i == len(bands) - 1
        if last and b.max is not None:
            raise DataError(path, f"range_bands.{i}.max", "the last band must be open (null)")
        if not last and b.max is None:
            raise DataError(path, f"range_bands.{i}.max", "only the last band may be open")
        prev = bands[i - 1].max if i > 0 else None  # set: only the last band is open
        if not last and b.max is not None and prev is not None and b.max <= prev:
            raise DataError(path, f"range_bands.{i}.max", "band maxima must increase")
    for name in REQUIRED_CLASSES:
        if name not in w.classes:
            raise DataError(path, f"classes.{name}", "missing weapon class (RULES.md §8)")
    for name, c in w.classes.items():
        if len(c.to_hit) != len(bands):
            raise DataError(
                path,
                f"classes.{name}.to_hit",
                f"has {len(c.to_hit)} entries, range_bands has {len(bands)}",
            )
        if c.crew and not c.needs_prepare:
            raise DataError(
                path,
                f"classes.{name}.needs_prepare",
                "a crew weapon must be prepared (RULES.md §6)",
            )
        if c.fire_clears_prepare and not c.needs_prepare:
            raise DataError(
                path,
                f"classes.{name}.fire_clears_prepare",
                "only a weapon that needs preparing can be unloaded by firing",
            )
    for wid, wp in w.weapons.items():
        if wp.weapon_class not in w.classes:
            raise DataError(path, f"weapons.{wid}.class", f"unknown class {wp.weapon_class!r}")
        if wp.reload is not None:
            item = w.items.get(wp.reload)
            if item is None:
                raise DataError(path, f"weapons.{wid}.reload", f"unknown item {wp.reload!r}")
            if item.kind != "clip" or item.weapon != wid:
                raise DataError(
                    path, f"weapons.{wid}.reload", f"item {wp.reload!r} is not a clip for {wid!r}"
                )
        if wp.clip == -1 and wp.reload is not None:
            raise DataError(
                path, f"weapons.{wid}.reload", "a weapon that never runs dry needs no reload item"
            )
    for iid, it in w.items.items():
        if it.kind == "clip":
            if it.weapon is None:
                raise DataError(path, f"items.{iid}.weapon", "a clip must name its weapon")
            if it.weapon not in w.weapons:
                raise DataError(path, f"items.{iid}.weapon", f"unknown weapon {it.weapon!r}")
        elif it.weapon is not None:
            raise DataError(path, f"items.{iid}.weapon", f"a {it.kind} fits no weapon")


def _check_damage(d: DamageFile, path: Path) -> None:
    for name in REQUIRED_ROWS:
        if name not in d.rows:
            raise DataError(path, f"rows.{name}", "missing damage row (RULES.md §8)")
    row = d.rows.get(d.wall.destroyed_row)
    if row is None:
        raise DataError(path, "wall.destroyed_row", f"unknown row {d.wall.destroyed_row!r}")


def _check_terrain(t: TerrainFile, path: Path) -> None:
    for name in t.terrain:
        if name not in TERRAIN_NAMES:
            raise DataError(path, f"terrain.{name}", f"unknown terrain; one of {TERRAIN_NAMES}")
    for name in TERRAIN_NAMES:
        if name not in t.terrain:
            raise DataError(path, f"terrain.{name}", "missing terrain type (RULES.md §2)")
    for kind in ("stone", "wood"):
        if kind not in t.walls:
            raise DataError(path, f"walls.{kind}", "missing wall type (RULES.md §2)")


def _check_across(w: WeaponsFile, d: DamageFile, wpath: Path, dpath: Path) -> None:
    for name, c in w.classes.items():
        row = d.rows.get(c.damage)
        if row is None:
            raise DataError(
                wpath, f"classes.{name}.damage", f"no damage row {c.damage!r} in {dpath.name}"
            )
        if row.penetration is None:
            raise DataError(
                dpath,
                f"rows.{c.damage}.penetration",
                f"weapon class {name!r} fires at walls and vehicles: needs a penetration row",
            )


# --------------------------------------------------------------------------------------------
# The Tables object
# --------------------------------------------------------------------------------------------
class Tables:
    """All rule tables, validated, plus flat lookups for the hot paths. Read-only by contract.

    Attributes:
        weapons, damage, terrain: the validated file models.
        source: the data directory they came from.
        n_bands: number of range bands.
        to_hit: weapon class → base to-hit per band (tuple, None beyond max range).
        max_range: weapon class → largest distance in hexes it can fire, None = unlimited.
        weapon_class: weapon id → :class:`WeaponClass`; ``class_of``: weapon id → class name.
        soldier_row: damage row id → 10 soldier results (by d10 roll).
        penetration_row: damage row id → 10 penetration levels, or None.
        penetration: ``(level, explosive, surface)`` → ``"none" | "pass" | "destroyed"``
            (``damage.yaml: penetration``, RULES.md §11).
        stance_mod: target stance modifier by ``Stance`` int.
        behind_hit: behind-a-penetrated-wall hit number by ``Stance`` int (seed 002 p. 27).
        cover: terrain (``Terrain`` int or name) → target cover modifier.
        terrain_name: terrain (int or name) → name.
        terrain_mp: terrain (int or name) → soldier MP cost, None impassable.
        wall_cover: ``"stone" | "wood"`` → cover modifier behind such a wall.
        jam_on: a jam-check d10 at or above this jams the weapon.
        mods: the :class:`FireModifiers` (``weapons.yaml: modifiers``).
    """

    __slots__ = (
        "weapons",
        "damage",
        "terrain",
        "source",
        "n_bands",
        "_band_of",
        "to_hit",
        "max_range",
        "weapon_class",
        "class_of",
        "soldier_row",
        "penetration_row",
        "penetration",
        "stance_mod",
        "behind_hit",
        "cover",
        "terrain_name",
        "terrain_mp",
        "wall_cover",
        "jam_on",
        "mods",
        "d100_only",
    )

    def __init__(
        self, weapons: WeaponsFile, damage: DamageFile, terrain: TerrainFile, source: Path
    ) -> None:
        self.weapons = weapons
        self.damage = damage
        self.terrain = terrain
        self.source = source
        self.mods = weapons.modifiers
        self.jam_on = weapons.jam_on
        bands = weapons.range_bands
        self.n_bands = len(bands)
        # distance 0 .. last finite max → band index; farther → the open last band.
        band_of: list[int] = []
        for i, b in enumerate(bands[:-1]):
            if b.max is None:  # refused on load (_check_weapons)
                raise DataError(
                    source / "weapons.yaml",
                    f"range_bands.{i}.max",
                    "only the last band may be open",
                )
            while len(band_of) <= b.max:
                band_of.append(i)
        self._band_of = tuple(band_of)
        self.to_hit = {n: c.to_hit for n, c in weapons.classes.items()}
        self.max_range = {}
        for n, c in weapons.classes.items():
            reach = [i for i, x in enumerate(c.to_hit) if x is not None]
            self.max_range[n] = bands[reach[-1]].max
        self.weapon_class = {
            wid: weapons.classes[w.weapon_class] for wid, w in weapons.weapons.items()
        }
        self.class_of = {wid: w.weapon_class for wid, w in weapons.weapons.items()}
        #: weapon and item ids of seed 003 only (rules="d100"; carried otherwise: DataError)
        self.d100_only = frozenset(
            [wid for wid, c in self.weapon_class.items() if c.d100_only]
            + [iid for iid, it in weapons.items.items() if it.d100_only]
        )
        self.soldier_row = {n: r.soldier for n, r in damage.rows.items()}
        self.penetration_row = {n: r.penetration for n, r in damage.rows.items()}
        self.penetration = damage.penetration.cells()
        self.stance_mod = weapons.modifiers.target_stance.by_stance()
        self.behind_hit = damage.wall.behind_hit.by_stance()
        self.cover: dict[Any, int] = {}
        self.terrain_name: dict[Any, str] = {}
        self.terrain_mp: dict[Any, int | None] = {}
        for t in Terrain:
            name = TERRAIN_NAMES[t]
            tt = terrain.terrain[name]
            for key in (int(t), name):
                self.cover[key] = tt.cover
                self.terrain_name[key] = name
                self.terrain_mp[key] = tt.mp
        self.wall_cover = {k: v.cover for k, v in terrain.walls.items()}

    def band(self, distance: int) -> int:
        """Range band index of a distance in hexes (0 = same hex)."""
        if distance < 0:
            raise ValueError(f"negative distance {distance}")
        b = self._band_of
        return b[distance] if distance < len(b) else self.n_bands - 1

    def __repr__(self) -> str:
        return f"Tables({self.source})"


def _load(data_dir: Path) -> Tables:
    wpath, dpath, tpath = (data_dir / f for f in ("weapons.yaml", "damage.yaml", "terrain.yaml"))
    w = load_data(WeaponsFile, data_dir, wpath, check=_check_weapons)
    d = load_data(DamageFile, data_dir, dpath, check=_check_damage)
    t = load_data(TerrainFile, data_dir, tpath, check=_check_terrain)
    _check_across(w, d, wpath, dpath)
    return Tables(w, d, t, data_dir)


@lru_cache(maxsize=1)
def _shipped() -> Tables:
    return _load(DATA_DIR)


def load_tables(data_dir: str | Path | None = None) -> Tables:
    """Load ``weapons.yaml``, ``damage.yaml`` and ``terrain.yaml`` into one :class:`Tables`.

    Args:
        data_dir: a directory holding the three files; None = the shipped data (loaded once per
            process and cached; the object is shared, so never mutate it).

    Raises:
        DataError: a file is missing or malformed; the message names the file and the field.
    """
    if data_dir is None:
        return _shipped()
    return _load(Path(data_dir))


# Stance names in the order of the Stance enum, re-exported for table readers.
__all__ = [
    "RESULTS",
    "SEVERITY",
    "PENETRATION_LEVELS",
    "PENETRATION_SURFACES",
    "PENETRATION_RESULTS",
    "PenetrationTable",
    "REQUIRED_CLASSES",
    "REQUIRED_ROWS",
    "STANCE_NAMES",
    "Tables",
    "load_tables",
    "WeaponsFile",
    "WeaponClass",
    "Weapon",
    "Item",
    "FireModifiers",
    "DamageFile",
    "DamageRow",
    "TerrainFile",
    "TerrainType",
    "MoveCosts",
]
