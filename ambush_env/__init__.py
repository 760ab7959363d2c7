"""ambush_env: the solitaire WWII squad game *Ambush!* as a Gymnasium environment.

Importing the package registers the Gymnasium ids (docs/API.md, binding)::

    import gymnasium, ambush_env
    env = gymnasium.make("ambush/Ambush-v0", mission="farm_assault")
    ambush_env.list_missions()  # -> ["farm_assault", ...]
    env = ambush_env.aec_env(mission="farm_assault", german="agent")  # PettingZoo, two sides

The rules engine (:mod:`ambush_env.core`) never imports gymnasium; this ``__init__`` does.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ambush_env.core.model import errors as _errors
from ambush_env.core.model.errors import *  # noqa: F403 (the errors: _errors.__all__)
from ambush_env.env.registration import list_missions, register_envs

if TYPE_CHECKING:  # at run time loaded on first use (__getattr__)
    from ambush_env.env.aec_env import aec_env

__version__ = "0.1.0"
__all__ = ["aec_env", "list_missions", "__version__", *_errors.__all__]

register_envs()


def __getattr__(name: str) -> Callable[..., Any]:
    """``ambush_env.aec_env``: the two-sided PettingZoo env, loaded on first use (PettingZoo is
    the ``multi`` extra). Without PettingZoo the name still resolves (``from ambush_env import
    *`` works), to a function whose call raises :class:`MissingExtraError` naming the extra."""
    if name == "aec_env":
        try:
            from ambush_env.env.aec_env import aec_env
        except _errors.MissingExtraError as e:
            return _without_pettingzoo(e)
        return aec_env
    raise AttributeError(f"module 'ambush_env' has no attribute {name!r}")


def _without_pettingzoo(e: _errors.MissingExtraError) -> Callable[..., Any]:
    """The ``aec_env`` of an install without PettingZoo: raises ``e``'s error on each call."""
    missing = (e.feature, e.package, e.extra)

    def aec_env(*args: Any, **kwargs: Any) -> Any:
        """Two-sided play needs PettingZoo: ``pip install "ambush_env[multi]"``.

        Raises:
            MissingExtraError: always (PettingZoo is not installed).
        """
        raise _errors.MissingExtraError(*missing)

    return aec_env
