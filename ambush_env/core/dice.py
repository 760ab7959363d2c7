"""Owns nothing: the binding import path ``ambush_env.core.dice`` (docs/API.md, "Import paths").

The module is :mod:`ambush_env.core.model.dice`; these names are the same objects.
"""

from ambush_env.core.model.dice import (
    FORCED_RANGE,
    Dice,
    succeeds,
)

__all__ = [
    "FORCED_RANGE",
    "Dice",
    "succeeds",
]
