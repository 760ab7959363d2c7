"""Owns nothing: the binding import path ``ambush_env.core.errors`` (docs/API.md, "Import paths").

The module is :mod:`ambush_env.core.model.errors`; these names are the same objects.
"""

from ambush_env.core.model.errors import (
    AmbushError,
    ConfigError,
    DataError,
    DiceExhaustedError,
    IllegalActionError,
    MissingExtraError,
    ScenarioError,
)

__all__ = [
    "AmbushError",
    "ConfigError",
    "DataError",
    "DiceExhaustedError",
    "IllegalActionError",
    "MissingExtraError",
    "ScenarioError",
]
