"""Owns nothing: the binding import path ``ambush_env.core.errors`` (docs/API.md, "Import paths").

The module is :mod:`ambush_env.core.model.errors`; these names are the same objects.
"""

# every name of the owner's __all__, and that list
from ambush_env.core.model.errors import *  # noqa: F403
from ambush_env.core.model.errors import __all__ as __all__
