"""Owns the vehicle data model: ``data/vehicles.yaml`` validated (seed 000 p. 30-33, 40;
RULES.md §12).

The rules modules read vehicle numbers from here without importing
:mod:`~ambush_env.core.vehicles` (which re-exports these names).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ambush_env.core.data import Frozen, load_data
from ambush_env.core.state import Vehicle
from ambush_env.core.types import TERRAIN_NAMES

Armour = Literal["occupant", "unarmoured", "light", "medium", "heavy"]
AccidentResult = Literal["none", "stop", "skid", "shot_tyre", "overturn"]
_OCCUPANT_PARTS = {"car": ("driver", "passenger"), "tank": ("crew",)}


# ============================================================================ data (validated)
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

    @model_validator(mode="after")
    def _consistent(self) -> "VehicleType":
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
    vehicles: dict[str, VehicleType]

    @field_validator("move_costs")
    @classmethod
    def _every_terrain(cls, v: dict[str, int | None]) -> dict[str, int | None]:
        missing = [t for t in TERRAIN_NAMES if t not in v]
        extra = [t for t in v if t not in TERRAIN_NAMES]
        if missing or extra:
            raise ValueError(f"needs exactly the terrains {list(TERRAIN_NAMES)}; "
                             f"missing {missing}, unknown {extra}")
        for t, c in v.items():
            if c is not None and c < 1:
                raise ValueError(f"{t}: a cost is at least 1 MP or null (never entered)")
        for t in ("building", "rubble", "river", "crater"):
            if v[t] is not None:
                raise ValueError(f"{t}: vehicles never enter it (seed 000 p. 30-31): use null")
        return v


def load_vehicle_data(path: str | Path | None = None) -> VehicleData:
    """Load and validate a vehicles file (default: the shipped ``data/vehicles.yaml``, cached).

    Raises:
        DataError: a malformed file (names the file and the field).
    """
    if path is None:
        return shipped_vehicle_data()
    return load_data(VehicleData, "", Path(path), what="vehicles file")


@lru_cache(maxsize=1)
def shipped_vehicle_data() -> VehicleData:
    """The shipped ``data/vehicles.yaml`` (loaded once; read by the vehicle rules)."""
    return load_data(VehicleData, "", "vehicles", what="vehicles file")


__all__ = ["AccidentResult", "Armour", "VehicleData", "VehicleType", "load_vehicle_data",
           "shipped_vehicle_data"]


def vtype(v: Vehicle) -> VehicleType:
    """The data entry of ``v``'s type."""
    return shipped_vehicle_data().vehicles[v.type]
