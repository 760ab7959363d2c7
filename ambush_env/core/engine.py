"""Owns nothing: the import path of :class:`Game` from before the core was split.

The game facade lives in :mod:`ambush_env.core.play.game`, the sequence of play in
:mod:`ambush_env.core.play.sequence`.
"""

from ambush_env.core.play.game import Game

__all__ = ["Game"]
