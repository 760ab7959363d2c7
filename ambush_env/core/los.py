"""Owns nothing: the binding import path ``ambush_env.core.los`` (docs/API.md, "Import paths").

The module is :mod:`ambush_env.core.world.los`; these names are the same objects.
"""

from ambush_env.core.world.los import (
    VEHICLE_SIZES,
    SightCache,
    SightResult,
    line_of_sight,
)

__all__ = [
    "VEHICLE_SIZES",
    "SightCache",
    "SightResult",
    "line_of_sight",
]
