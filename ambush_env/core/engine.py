"""Owns nothing: the import path of :class:`Game` from before the core was split (INTERFACE.md
keeps it working).

The game facade lives in :mod:`ambush_env.core.game`, the sequence of play in
:mod:`ambush_env.core.sequence`.
"""

from ambush_env.core.game import Game

__all__ = ["Game"]
