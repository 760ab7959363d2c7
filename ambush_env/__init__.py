"""ambush_env: the solitaire WWII squad game *Ambush!* as a Gymnasium environment.

Importing the package registers the Gymnasium ids (INTERFACE.md, binding)::

    import gymnasium, ambush_env
    env = gymnasium.make("ambush/Ambush-v0", mission="farm_assault")
    ambush_env.list_missions()  # -> ["farm_assault", ...]

The rules engine (:mod:`ambush_env.core`) never imports gymnasium; this ``__init__`` does.
"""

from ambush_env.env.registration import list_missions, register_envs

__version__ = "0.1.0"
__all__ = ["list_missions", "__version__"]

register_envs()
