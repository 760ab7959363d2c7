"""Owns the d100 module's data model: ``data/d100.yaml`` validated (seed 003; RULES.md §13).

A hit-location, fire or trouble table whose ranges leave a gap or overlap, or a row with an
unknown effect, raises :class:`~ambush_env.core.model.errors.DataError` naming the file and the row.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import Field, field_validator, model_validator

from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.world.data import FieldProblem, Frozen, data_path, read_data

EFFECTS = (
    "headlamps",
    "mov",
    "fuel_tank",
    "overheat",
    "engine",
    "tire",
    "driver",
    "front_passenger",
    "back_seat",
    "turret",
    "hull",
    "weapon",
    "magazine",
    "gun_laying",
    "radio",
    "brakes",
    "steering",
)
#: Effects whose location is people, not a component with HP.
OCCUPANT_EFFECTS = frozenset(("driver", "front_passenger", "back_seat", "turret", "hull"))
DamageKindName = Literal[
    "bullet", "ap_shell", "hollow_charge", "explosive", "at_rifle", "fire", "collision"
]
#: the charges and grenades of the d100 module's ``items`` (every one is read by the rules)
ChargeName = Literal[
    "grenade",
    "satchel",
    "anti_tank_mine",
    "anti_personnel_mine",
    "sticky_grenade",
    "pole_charge",
    "molotov",
]
_DICE = re.compile(r"^(\d+)d(\d+)([+-]\d+)?$")


def parse_dice(text: str) -> tuple[int, int, int]:
    """``"2d6+4"`` → ``(2, 6, 4)``. Raises ValueError on anything else."""
    got = _DICE.match(text.replace(" ", ""))
    if got is None:
        raise ValueError(f"dice {text!r}: expected NdM or NdM+K")
    n, sides, add = int(got[1]), int(got[2]), int(got[3] or 0)
    if not (1 <= n <= 30 and 2 <= sides <= 100 and 0 <= add <= 100):
        raise ValueError(f"dice {text!r}: 1-30 dice of 2-100 sides, a bonus of 0-100")
    return n, sides, add


Dice = str

if TYPE_CHECKING:  # a float to the type checker, which allows no float Literal (PEP 586)
    Quarters = float
else:  # the values pydantic accepts on load
    Quarters = Literal[0.25, 0.5, 0.75]


class DamageKind(Frozen):
    """How one kind of damage acts on armour (seed 003's bullets)."""

    half_vs_armoured: bool
    impale_vs_armoured: bool
    impale_vs_unarmoured: bool
    cumulative: bool
    area: bool


class WeaponDamage(Frozen):
    """The damage of a weapon class or a charge (NdM+K dice ⚙) and its kind."""

    dice: Dice
    kind: DamageKindName
    hits: int = Field(default=1, ge=1, le=10)

    @field_validator("dice")
    @classmethod
    def _dice(cls, v: str) -> str:
        parse_dice(v)
        return v


class VehicleStats(Frozen):
    """One vehicle type's Armor value, Base HP, table and seats ⚙."""

    armour: int = Field(ge=0)
    hp: int = Field(ge=1)
    table: str
    front_seats: int = Field(default=0, ge=0)
    turret_crew: int = Field(default=0, ge=0)
    aspect_armour: dict[Literal["side", "rear"], int] = {}


class Row(Frozen):
    """One row of a d100 table: its inclusive roll range and, per table, what it holds."""

    roll: tuple[int, int]
    text: str = ""

    @field_validator("roll")
    @classmethod
    def _range(cls, v: tuple[int, int]) -> tuple[int, int]:
        if v[0] > v[1]:
            raise ValueError(f"range {list(v)} runs backwards")
        return v


class TakeWheel(Frozen):
    """Seed 003's "Someone must take the wheel in this round (DEX check + Drive Auto -20%) or
    roll on the VEHICLE TROUBLE TABLE +10" on a row whose driver falls: the check's ``percent``
    on Drive Auto and the Trouble bonus when nobody takes the wheel (``trouble``)."""

    percent: int
    trouble: int = Field(ge=0)


class LocationRow(Row):
    """A hit-location row (seed 003): the component, its HP (``"occupant"``: people), the
    effect and the effect's numbers."""

    component: str = Field(min_length=1)
    hp: int | Literal["occupant"]
    effect: str
    factor: Quarters | None = None  # MPA × factor: whole quarters
    fire: int | None = Field(default=None, ge=0, le=100)
    modifier: int | None = None
    trouble: int | None = Field(default=None, ge=0)
    mount: Literal["cannon", "coax", "bow"] | None = None
    take_wheel: TakeWheel | None = None

    @model_validator(mode="after")
    def _effect(self) -> LocationRow:
        if self.effect not in EFFECTS:
            raise FieldProblem(
                "effect", f"unknown component effect {self.effect!r}; known: {', '.join(EFFECTS)}"
            )
        people = self.effect in OCCUPANT_EFFECTS
        if people != (self.hp == "occupant"):
            raise FieldProblem("hp", "occupant locations (and only they) have hp: occupant")
        need = {
            "mov": ("factor",),
            "tire": ("factor", "modifier", "trouble"),
            "fuel_tank": ("fire",),
            "engine": ("fire",),
            "driver": ("trouble",),
            "turret": ("trouble",),
            "hull": ("trouble",),
            "weapon": ("mount",),
            "gun_laying": ("modifier",),
        }.get(self.effect, ())
        for name in need:
            if getattr(self, name) is None:
                raise FieldProblem(name, f"the {self.effect} effect needs {name}")
        if self.take_wheel is not None and self.effect not in ("driver", "turret", "hull"):
            raise FieldProblem(
                "take_wheel",
                "only a row that can put the driver out (driver, "
                f"turret, hull) takes the wheel, not {self.effect!r}",
            )
        return self


class FireRow(Row):
    """A Vehicle Fire Table row (seed 003)."""

    result: str = Field(min_length=1)
    occupants: Dice
    minus_armour: bool = False
    extra: Dice | None = None
    inoperable: bool = False
    explodes: bool = False


class TroubleRow(Row):
    """A Vehicle Trouble Table row ⚙: d10 + bonus → an Accident Table outcome."""

    result: Literal["none", "stop", "skid", "shot_tyre", "overturn"]


class Luck(Frozen):
    """Luck (percent) = ``per_pc`` × PC + ``base`` ⚙."""

    per_pc: int = Field(ge=0)
    base: int


class DriveAuto(Frozen):
    """Drive Auto (percent) = ``per_ds`` × DS + ``base`` ⚙."""

    per_ds: int = Field(ge=0)
    base: int


class OccupantLevels(Frozen):
    """The least damage of each seed 002 wound level ⚙."""

    wound: int = Field(ge=1)
    incapacitated: int
    kill: int

    @model_validator(mode="after")
    def _rising(self) -> OccupantLevels:
        if not self.wound < self.incapacitated < self.kill:
            raise ValueError("need wound < incapacitated < kill")
        return self

    def __getitem__(self, key: str) -> int:
        return getattr(self, key)


class Special(Frozen):
    """Seed 003's special attacks ⚙ (``d100.yaml: special``)."""

    called_shot_percent: int
    thrown_point_blank: int = Field(ge=0)
    sticky_percent: int
    under_armour_divisor: int = Field(ge=1)
    pole_reach: int = Field(ge=0)
    dex_per_pc: int = Field(ge=1)
    pole_dex_multiplier: int = Field(ge=1)


class Ramming(Frozen):
    """Seed 003 RAMMING ⚙ (``d100.yaml: ramming``)."""

    rammer_divisor: int = Field(ge=1)
    off_road_percent: int
    failed_percent: int


class CollisionRow(Frozen):
    """A Vehicle Collision Table row ⚙: the MPs driven → damage dice by the rammer's size."""

    mp: tuple[int, int]
    small: Dice
    large: Dice

    @field_validator("small", "large")
    @classmethod
    def _dice(cls, v: str) -> str:
        parse_dice(v)
        return v


def _check_ranges(rows: list, lo: int, hi: int, where: str) -> None:
    """Rows sorted, covering ``lo``..``hi`` exactly once: else FieldProblem naming the row."""
    want = lo
    if not rows:
        raise FieldProblem(where, "an empty table")
    for i, r in enumerate(rows):
        a, b = r.roll
        if a != want:
            what = "a gap before" if a > want else "an overlap at" if i else "a row below"
            raise FieldProblem(
                f"{where}.{i}.roll",
                f"{what} {want}: row {list(r.roll)} should "
                f"start at {want} (the ranges must cover {lo}-{hi} once, in order)",
            )
        want = b + 1
    if want != hi + 1:
        raise FieldProblem(
            f"{where}.{len(rows) - 1}.roll", f"the ranges end at {want - 1}, not {hi}"
        )


class D100Data(Frozen):
    """``data/d100.yaml`` (RULES.md §13; comments there give every ⚙ choice)."""

    percent_per_d10: int = Field(gt=0)
    luck: Luck
    drive_auto: DriveAuto
    armoured_from: int = Field(ge=1)
    point_blank_hexes: int = Field(ge=0)
    point_blank_classes: list[str]
    point_blank_dex_classes: list[str]
    feet_per_hex: int = Field(ge=1)
    impale_divisor: int = Field(ge=1)
    move_units_per_mp: int = Field(ge=1)
    moving_fire_percent: int = Field(ge=0)
    countdown_dice: Dice
    damage_kinds: dict[DamageKindName, DamageKind]
    weapons: dict[str, WeaponDamage]
    items: dict[ChargeName, WeaponDamage]
    special: Special
    ramming: Ramming
    collision_table: list[CollisionRow]
    grenade_inside_multiplier: int = Field(ge=1)
    satchel_adjacent_divisor: int = Field(ge=1)
    occupant_levels: OccupantLevels
    magazine_dice: Dice
    vehicles: dict[str, VehicleStats]
    tables: dict[str, list[LocationRow]]
    fire_table: list[FireRow]
    trouble_table: list[TroubleRow]

    @model_validator(mode="after")
    def _tables(self) -> D100Data:
        for name, rows in self.tables.items():
            _check_ranges(rows, 1, 100, f"tables.{name}")
        _check_ranges(self.fire_table, 1, 10, "fire_table")
        want = 1
        for i, c in enumerate(self.collision_table):
            if c.mp[0] != want or c.mp[1] < c.mp[0]:
                raise FieldProblem(f"collision_table.{i}.mp", f"should start at {want} MPs")
            want = c.mp[1] + 1
        _check_ranges(
            self.trouble_table,
            0,
            self.trouble_table[-1].roll[1] if self.trouble_table else 0,
            "trouble_table",
        )
        for d in ("countdown_dice", "magazine_dice"):
            try:
                parse_dice(getattr(self, d))
            except ValueError as e:
                raise FieldProblem(d, str(e)) from None
        for i, r in enumerate(self.fire_table):
            for d in ("occupants", "extra"):
                if getattr(r, d) is not None:
                    try:
                        parse_dice(getattr(r, d))
                    except ValueError as e:
                        raise FieldProblem(f"fire_table.{i}.{d}", str(e)) from None
        for vid, s in self.vehicles.items():
            if s.table not in self.tables:
                raise FieldProblem(f"vehicles.{vid}.table", f"no hit-location table {s.table!r}")
        for name in get_args(DamageKindName):
            if name not in self.damage_kinds:
                raise FieldProblem(f"damage_kinds.{name}", "missing (every damage kind is read)")
        for name in get_args(ChargeName):
            if name not in self.items:
                raise FieldProblem(f"items.{name}", "missing (every charge is read)")
        if not self.collision_table:
            raise FieldProblem("collision_table", "needs at least one row")
        for name, rows in self.tables.items():
            if not rows:
                raise FieldProblem(f"tables.{name}", "an empty table")
        return self

    def collision(self, mp: int, size: str) -> str:
        """The Vehicle Collision Table's dice for a rammer of ``size`` that drove ``mp`` MPs."""
        for c in self.collision_table:
            if c.mp[0] <= mp <= c.mp[1]:
                return c.small if size == "small" else c.large
        return self.collision_table[-1].small if size == "small" else self.collision_table[-1].large

    def location(self, table: str, roll: int) -> LocationRow:
        """The row of hit-location ``table`` for a d100 ``roll`` (1-100)."""
        for r in self.tables[table]:
            if r.roll[0] <= roll <= r.roll[1]:
                return r
        raise ValueError(f"no row of {table} for {roll}")  # pragma: no cover - checked at load


def percent_to_d10(percent: int) -> int:
    """A percentage modifier on a d10 check: ``percent / percent_per_d10``, rounded toward
    zero ⚙ (−25 % → −2, +10 % → +1, −12 % → −1)."""
    q = abs(percent) // shipped_d100_data().percent_per_d10
    return q if percent >= 0 else -q


def shot_mods(
    vehicles: list[Vehicle], shooter: Unit, weapon_id: str, target: Vehicle | None
) -> list[tuple[str, int]]:
    """Seed 003's to-hit modifiers of a shot from a vehicle (at a soldier or a vehicle, the
    ``target``): moving fire and a destroyed Gun-Laying Equipment on the main gun; the zero
    ones left out."""
    out = []
    mv = moving_fire_mod_of(vehicles, shooter, target)
    if mv:
        out.append(("moving_fire", mv))
    gl = gun_laying_mod_of(vehicles, shooter, weapon_id)
    if gl:
        out.append(("gun_laying", gl))
    return out


def moving_fire_mod_of(vehicles: list[Vehicle], shooter: Unit, target: Vehicle | None) -> int:
    """The moving-fire modifier on the d10 to-hit of a shot from a vehicle (seed 003 "FIREARM
    COMBAT"): −1 % per MOVE unit of speed difference, ``move_units_per_mp`` MOVE units per MP
    driven this Round (``Vehicle.moved_mp``) ⚙; a target on foot has speed 0; 0 for a shooter
    on foot. Percent to d10 rounds toward zero (``percent_per_d10``)."""
    if shooter.vehicle < 0:
        return 0
    d = shipped_d100_data()
    own = vehicles[shooter.vehicle].moved_mp
    other = target.moved_mp if target is not None else 0
    return percent_to_d10(-abs(own - other) * d.move_units_per_mp * d.moving_fire_percent)


def gun_laying_mod_of(vehicles: list[Vehicle], shooter: Unit, weapon_id: str) -> int:
    """The main gun's −25 % (on the d10: −2) once its tank's Gun-Laying Equipment is destroyed
    (seed 003 AFV table); 0 for any other shot."""
    from ambush_env.core.world.vehicle_data import vtype

    if shooter.vehicle < 0:
        return 0
    v = vehicles[shooter.vehicle]
    if v.unit != shooter.uid or not v.destroyed:
        return 0
    cannon = vtype(v).weapons.get("cannon")
    if cannon is None or cannon.weapon != weapon_id:
        return 0
    d = shipped_d100_data()
    for row in d.tables[d.vehicles[v.type].table]:
        if row.effect == "gun_laying" and row.component in v.destroyed:
            return percent_to_d10(row.modifier or 0)
    return 0


def read_d100_data(path: str | Path) -> D100Data:
    """Read and validate a d100 file (uncached): DataError names the file and the field,
    cross-checked against ``weapons.yaml`` classes and ``vehicles.yaml`` types."""
    from ambush_env.core.model.errors import DataError
    from ambush_env.core.world.vehicle_data import shipped_vehicle_data

    d = read_data(D100Data, path)
    from ambush_env.core.world.tables import load_tables

    classes = set(load_tables().to_hit)
    for k in d.weapons:
        if k not in classes:
            raise DataError(path, f"weapons.{k}", f"unknown weapon class {k!r}")
    for key in ("point_blank_classes", "point_blank_dex_classes"):
        for j, k in enumerate(getattr(d, key)):
            if k not in classes:
                raise DataError(path, f"{key}.{j}", f"unknown weapon class {k!r}")
    for k in sorted(classes - set(d.weapons)):
        raise DataError(path, "weapons", f"weapon class {k!r} of weapons.yaml has no damage dice")
    types = shipped_vehicle_data().vehicles
    for k in d.vehicles:
        if k not in types:
            raise DataError(path, f"vehicles.{k}", f"unknown vehicle type {k!r}")
    for k, vt in types.items():
        if k not in d.vehicles:
            raise DataError(path, "vehicles", f"vehicle type {k!r} of vehicles.yaml has no entry")
        s = d.vehicles[k]
        if vt.kind == "tank" and not 0 < s.turret_crew < vt.occupants:
            raise DataError(
                path,
                f"vehicles.{k}.turret_crew",
                f"a tank's turret crew must be 1..{vt.occupants - 1}",
            )
        if vt.kind == "car" and s.front_seats > vt.occupants - 1:
            raise DataError(
                path,
                f"vehicles.{k}.front_seats",
                f"more front seats than the {vt.occupants - 1} passenger seats",
            )
    return d


@lru_cache(maxsize=1)
def shipped_d100_data() -> D100Data:
    """``data/d100.yaml``, loaded once per process."""
    return read_d100_data(data_path("d100.yaml"))
