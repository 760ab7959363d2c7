"""The rules engine of *Ambush!* (no gymnasium): ``from ambush_env.core import Game``.

The package loads :class:`~ambush_env.core.game.Game` lazily, so that importing one module
(the map, line of sight) does not load the whole engine.
"""

from typing import Any

__all__ = ["Game"]


def __getattr__(name: str) -> Any:
    if name == "Game":
        from ambush_env.core.game import Game

        return Game
    raise AttributeError(f"module 'ambush_env.core' has no attribute {name!r}")
