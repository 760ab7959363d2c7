"""Gymnasium ids of the package (INTERFACE.md, binding).

* ``ambush/Ambush-v0``: any mission (``mission=`` kwarg; default the reference mission);
* one id per shipped mission, its CamelCase form: ``farm_assault`` → ``ambush/FarmAssault-v0``;
* ``ambush/Procedural-v0`` only once the engine ships a mission generator.
"""

from __future__ import annotations

import importlib.util

ENTRY_POINT = "ambush_env.env.ambush_env:AmbushEnv"
NAMESPACE = "ambush"
VERSION = 0


def list_missions() -> list[str]:
    """The shipped mission ids (snake_case file stems), reference mission first."""
    try:
        from ambush_env.core.missions import list_missions as _list
    except ModuleNotFoundError as e:  # the mission loader is not in this checkout yet
        if e.name != "ambush_env.core.missions":
            raise
        return []
    return list(_list())


def env_id(mission: str) -> str:
    """The Gymnasium id of a mission: ``hedgerow_crossing`` → ``ambush/HedgerowCrossing-v0``."""
    camel = "".join(part.capitalize() for part in mission.split("_"))
    return f"{NAMESPACE}/{camel}-v{VERSION}"


def register_envs() -> list[str]:
    """Register every id (idempotent); returns the ids."""
    import gymnasium

    ids: list[tuple[str, dict]] = [(f"{NAMESPACE}/Ambush-v{VERSION}", {})]
    ids += [(env_id(m), {"mission": m}) for m in list_missions()]
    if importlib.util.find_spec("ambush_env.core.procedural") is not None:
        from ambush_env.core import procedural

        if hasattr(procedural, "generate_mission"):  # once the engine ships a generator
            ids.append((f"{NAMESPACE}/Procedural-v{VERSION}", {"mission": "procedural"}))
    for id_, kwargs in ids:
        if id_ not in gymnasium.registry:
            gymnasium.register(id=id_, entry_point=ENTRY_POINT, kwargs=kwargs)
    return [i for i, _ in ids]
