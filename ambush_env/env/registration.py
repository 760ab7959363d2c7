"""Gymnasium ids of the package (INTERFACE.md, binding).

* ``ambush/Ambush-v0``: any mission (``mission=`` kwarg; default the reference mission);
* one id per shipped mission, its CamelCase form: ``farm_assault`` → ``ambush/FarmAssault-v0``;
* ``ambush/Procedural-v0``: a mission (map, forces, triggers) generated from the reset seed
  (``ambush_env.core.procedural``).
"""

from __future__ import annotations

ENTRY_POINT = "ambush_env.env.ambush_env:AmbushEnv"
NAMESPACE = "ambush"
VERSION = 0


def list_missions() -> list[str]:
    """The shipped mission ids (snake_case file stems), reference mission first."""
    from ambush_env.core.missions import list_missions as _list

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
    ids.append((f"{NAMESPACE}/Procedural-v{VERSION}", {"procedural": True}))
    for id_, kwargs in ids:
        if id_ not in gymnasium.registry:
            gymnasium.register(id=id_, entry_point=ENTRY_POINT, kwargs=kwargs)
    return [i for i, _ in ids] + register_campaign()


CAMPAIGN_ENTRY_POINT = "ambush_env.env.campaign_env:CampaignEnv"
#: a squad carried through a chain of missions (RULES.md §16, issue 13); development id only
CAMPAIGN_ID = f"{NAMESPACE}/Campaign-v0"


def register_campaign() -> list[str]:
    """Register ``ambush/Campaign-v0`` (``CampaignEnv``, its own entry point; idempotent)."""
    import gymnasium

    if CAMPAIGN_ID not in gymnasium.registry:
        gymnasium.register(id=CAMPAIGN_ID, entry_point=CAMPAIGN_ENTRY_POINT)
    return [CAMPAIGN_ID]
