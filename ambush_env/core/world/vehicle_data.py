"""Owns the vehicle data model: ``data/vehicles.yaml`` validated (seed 000 p. 30-33, 40;
RULES.md §12).

The rules modules read vehicle numbers from here without importing
:mod:`~ambush_env.core.vehicles.vehicles` (which re-exports these names).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import TERRAIN_NAMES
from ambush_env.core.world.data import DataFile, Frozen

Armour = Literal["occupant", "unarmoured", "light", "medium", "heavy"]
Aspect = Literal["front", "side", "rear"]
Mount = Literal["cannon", "coax", "bow"]
CREW_TASKS = (
    "cannon",
    "load",
    "bow_aimed",
    "bow_snap",
    "coax_aimed",
    "coax_snap",
    "move_slow",
    "move_fast",
)
AccidentResult = Literal["none", "stop", "skid", "shot_tyre", "overturn"]
_OCCUPANT_PARTS = {"car": ("driver", "passenger"), "tank": ("crew",)}


# ============================================================================ data (validated)
class TankWeapon(Frozen):
    """One built-in tank weapon (seed 000 p. 33): a weapon id of ``weapons.yaml`` and its arc."""

    weapon: str = Field(min_length=1)
    arc: Literal["turret", "front"]


class CrewRating(Frozen):
    """The ratings of a tank's unit for one active-crew count (seed 000 p. 31) ⚙."""

    IN: int = Field(ge=0, le=9)
    PC: int = Field(ge=0, le=9)
    WS: int = Field(ge=0, le=9)
    DS: int = Field(ge=0, le=9)


class VehicleType(Frozen):
    """One entry of ``vehicles.yaml: vehicles`` (seed 000 p. 30, 40)."""

    name: str = Field(min_length=1)
    kind: Literal["car", "tank"]
    side: Literal["us", "german"]
    size: Literal["small", "large"]
    open: bool
    occupants: int = Field(ge=1, le=8)
    slow_mpa: int = Field(ge=1)
    fast_mpa: int = Field(ge=1)
    parts: dict[str, Armour]
    hit_chart: tuple[str, ...] = Field(min_length=10, max_length=10)
    aspect_armour: dict[Literal["side", "rear"], dict[str, Armour]] = {}
    aspect_hit_chart: dict[
        Literal["side", "rear"], Annotated[tuple[str, ...], Field(min_length=10, max_length=10)]
    ] = {}
    weapons: dict[Mount, TankWeapon] = {}
    own_hex_fire: bool = True

    def armour(self, part: str, aspect: str = "front") -> str:
        """The armour of ``part`` hit from ``aspect`` (``aspect_armour`` over ``parts``)."""
        if aspect != "front":
            # a str key where the keys are side and rear: no entry gives None
            a = self.aspect_armour.get(aspect)  # type: ignore[call-overload]
            if a is not None and part in a:
                return a[part]
        return self.parts[part]

    def chart(self, aspect: str = "front") -> tuple[str, ...]:
        """The Hit Chart read for an attack on ``aspect``."""
        if aspect != "front":
            # a str key where the keys are side and rear: no entry gives the front chart
            return self.aspect_hit_chart.get(aspect, self.hit_chart)  # type: ignore[call-overload]
        return self.hit_chart

    @model_validator(mode="after")
    def _consistent(self) -> VehicleType:
        if self.fast_mpa <= self.slow_mpa:
            raise ValueError(f"fast_mpa {self.fast_mpa} must exceed slow_mpa {self.slow_mpa}")
        for i, part in enumerate(self.hit_chart):
            if part not in self.parts:
                raise ValueError(f"hit_chart[{i}] names {part!r}, which is not in parts")
        need = _OCCUPANT_PARTS[self.kind]
        for p in need:
            if self.parts.get(p) != "occupant":
                raise ValueError(f"a {self.kind} needs the occupant part {p!r}")
        for p, armour in self.parts.items():
            if armour == "occupant" and p not in need:
                raise ValueError(f"part {p!r}: only {need} are occupants of a {self.kind}")
        if self.kind == "car" and self.size != "small":
            raise ValueError("cars are small (seed 000 p. 40)")
        for asp, chart in self.aspect_hit_chart.items():
            for i, part in enumerate(chart):
                if part not in self.parts:
                    raise ValueError(
                        f"aspect_hit_chart.{asp}[{i}] names {part!r}, which is not in parts"
                    )
        for asp, over in self.aspect_armour.items():
            for part, armour in over.items():
                if part not in self.parts or self.parts[part] == "occupant" or armour == "occupant":
                    raise ValueError(f"aspect_armour.{asp}.{part}: not an armoured part")
        if self.kind == "tank" and "cannon" not in self.weapons:
            raise ValueError("a tank needs its cannon (weapons.cannon)")
        if self.kind == "car" and self.weapons:
            raise ValueError("cars have no built-in weapons")
        return self


class VehicleData(Frozen):
    """``data/vehicles.yaml``: cost chart, accident table and vehicle types (RULES.md §12)."""

    move_costs: dict[str, int | None]
    up_level: int = Field(ge=0)
    embankment: int = Field(ge=0)
    crest: int = Field(ge=0)
    accident_table: tuple[AccidentResult, ...] = Field(min_length=10, max_length=10)
    max_in_hex: int = Field(ge=1)  # vehicles per hex, disabled ones included (seed 000 p. 30)
    retry_mp: int = Field(ge=0)  # the sharp turn before a second running-over try (seed 000 p. 33)
    forced_crater_mp: int = Field(ge=0)  # a crater entered when forced (seed 000 p. 31)
    crew_ratings: dict[int, CrewRating]
    crew_tasks: dict[str, int]
    exposed_crew: int = Field(ge=1)
    facing_diagram: tuple[Aspect, ...] = Field(min_length=6, max_length=6)
    # a tank's crew (seed 000 p. 31, 33; module tanks) ⚙: clearing its jammed MGs costs
    # ``clear_jam_cp`` Crew Points; the crew panics only at IN <= ``crew_panic_in`` on an
    # Action Round roll <= ``crew_panic_roll``; a tank starts with its cannon loaded
    clear_jam_cp: int = Field(default=1, ge=1)
    crew_panic_in: int = Field(default=1, ge=0, le=9)
    crew_panic_roll: int = Field(default=2, ge=0, le=9)
    start_loaded: bool = True
    vehicles: dict[str, VehicleType]

    @field_validator("crew_tasks")
    @classmethod
    def _tasks(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(CREW_TASKS):
            raise ValueError(f"needs exactly the tasks {list(CREW_TASKS)} (seed 000 p. 33)")
        for k, n in v.items():
            if n < 1:
                raise ValueError(f"{k}: a task costs at least 1 Crew Point")
        return v

    @model_validator(mode="after")
    def _tanks(self) -> VehicleData:
        from ambush_env.core.world.data import DATA_DIR, read_yaml

        weapons = read_yaml(DATA_DIR / "weapons.yaml").get("weapons", {})
        for name, t in self.vehicles.items():
            if t.kind != "tank":
                continue
            for k in range(1, t.occupants + 1):
                if k not in self.crew_ratings:
                    raise ValueError(f"crew_ratings: no row for {k} active crew ({name})")
            for mount, w in t.weapons.items():
                if w.weapon not in weapons:
                    raise ValueError(
                        f"vehicles.{name}.weapons.{mount}: unknown weapon {w.weapon!r}"
                    )
        return self

    def stand_problem(
        self, type_id: str, terrain: str, *, forced_crater: bool = False
    ) -> str | None:
        """Why a vehicle of type ``type_id`` can never stand on ``terrain`` (seed 000 p. 30-31:
        buildings, rubble, rivers and craters, the terrains ``move_costs`` marks null, and woods
        for a large vehicle); None when it may. ``forced_crater``: a crater is allowed (in
        play a movement reference may force a vehicle into one, p. 31; never at setup)."""
        t = self.vehicles[type_id]
        if forced_crater and terrain == "crater":
            return None
        if self.move_costs.get(terrain) is None:
            why = (
                "never driven into on purpose (seed 000 p. 31)"
                if terrain == "crater"
                else "never entered by a vehicle (seed 000 p. 30)"
            )
            return f"{t.name} on {terrain}: {why}"
        if t.size == "large" and terrain == "woods":
            return f"{t.name} on woods: large vehicles never enter woods (seed 000 p. 30)"
        return None

    def seat_problem(self, type_id: str, driver: bool, passengers: int) -> str | None:
        """Why ``driver`` (a driver's seat taken) and ``passengers`` men aboard do not fit a
        vehicle of type ``type_id`` (seed 000 p. 30-31): a car seats ``occupants``, driver
        included; a tank carries no passengers (its crew is part of it; its own unit sits in
        the driver's seat). None when they fit."""
        t = self.vehicles[type_id]
        if t.kind == "tank":
            if passengers:
                return (
                    f"a {t.name} carries no passengers: its crew is part of the tank and "
                    "nobody can board it (seed 000 p. 31)"
                )
            return None
        n = passengers + int(driver)
        if n > t.occupants:
            return (
                f"{n} men aboard a {t.name}, which seats {t.occupants} driver included "
                "(seed 000 p. 30)"
            )
        return None

    @field_validator("move_costs")
    @classmethod
    def _every_terrain(cls, v: dict[str, int | None]) -> dict[str, int | None]:
        missing = [t for t in TERRAIN_NAMES if t not in v]
        extra = [t for t in v if t not in TERRAIN_NAMES]
        if missing or extra:
            raise ValueError(
                f"needs exactly the terrains {list(TERRAIN_NAMES)}; "
                f"missing {missing}, unknown {extra}"
            )
        for t, c in v.items():
            if c is not None and c < 1:
                raise ValueError(f"{t}: a cost is at least 1 MP or null (never entered)")
        for t in ("building", "rubble", "river", "crater"):
            if v[t] is not None:
                raise ValueError(f"{t}: vehicles never enter it (seed 000 p. 30-31): use null")
        return v


VEHICLES_FILE = DataFile(VehicleData, "vehicles", "vehicles file")
"""The vehicles file, ``data/vehicles.yaml``; errors as ``DataFile``'s."""
load_vehicle_data = VEHICLES_FILE.load
"""Load and validate a vehicles file (default: the shipped ``data/vehicles.yaml``, cached)."""
shipped_vehicle_data = VEHICLES_FILE.shipped
"""The shipped ``data/vehicles.yaml`` (loaded once; read by the vehicle rules)."""


__all__ = [
    "AccidentResult",
    "Armour",
    "Aspect",
    "CREW_TASKS",
    "CrewRating",
    "Mount",
    "TankWeapon",
    "VehicleData",
    "VehicleType",
    "crew_rating",
    "load_vehicle_data",
    "shipped_vehicle_data",
    "type_mpa",
]


def vtype(v: Vehicle) -> VehicleType:
    """The data entry of ``v``'s type."""
    return shipped_vehicle_data().vehicles[v.type]


def effective_ds(v: Vehicle, u: Unit) -> int:
    """The DS ``u`` drives ``v`` with: 1 lower in a captured vehicle (seed 002 p. 27)."""
    return u.DS - 1 if v.captured else u.DS


def can_take_wheel(v: Vehicle, u: Unit) -> bool:
    """Whether ``u`` may drive ``v``: a captured car needs DS ≥ 1, since it counts 1 lower
    ("a DS 0 soldier cannot drive one", seed 002 p. 27); a side's own car any DS ≥ 0."""
    return effective_ds(v, u) >= 0


def type_mpa(v: Vehicle) -> tuple[int, int]:
    """``(slow, fast)`` MPA of ``v``'s type, scaled by ``Vehicle.mpa_quarters`` (a d100 "MOV
    reduced by ½ / ¼", seed 003: × q/4, rounded down, at least 1 ⚙)."""
    t = vtype(v)
    q = v.mpa_quarters
    if q >= 4:
        return t.slow_mpa, t.fast_mpa
    return max(1, t.slow_mpa * q // 4), max(1, t.fast_mpa * q // 4)


def crew_rating(crew: int) -> CrewRating:
    """The ratings of a tank's unit with ``crew`` active crew (``crew_ratings``; 1 or more)."""
    return shipped_vehicle_data().crew_ratings[max(1, crew)]
