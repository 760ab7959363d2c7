"""Gymnasium ids of the package (docs/API.md, binding), each under every registered version:

* ``ambush/Ambush-v4``: any mission (``mission=`` kwarg, an id or a file path; default the
  reference mission);
* one id per shipped mission, its CamelCase form: ``farm_assault`` → ``ambush/FarmAssault-v4``;
* ``ambush/Procedural-v4``: a mission (map, forces, triggers) generated from the reset seed
  (``ambush_env.core.play.procedural``).

``-v1`` was the first frozen version (issue 14); ``-v2`` (issue 15) hides German vehicles
whose crew is hidden; ``-v3`` (issue 23) corrects rules read against the seeds and gives the
German seat played by an agent the closed-tank rule; ``-v4`` (issue 25) reworks the scoring so
that only the mission wins (docs/VERSIONS.md). The current version's action space size N,
the text of every order index and the observation spec are pinned by
``tests/golden/env_spec_v<VERSION>.json`` (:func:`spec_snapshot`), and a change that can
change learning results bumps :data:`VERSION`. The older ids stay registered for older code
and results; today they build the same env as the current one.
"""

from __future__ import annotations

from typing import Any

ENTRY_POINT = "ambush_env.env.ambush_env:AmbushEnv"
NAMESPACE = "ambush"
#: the current version: the one new results and ``env_id`` name
VERSION = 4
#: every registered version, oldest first (``-v0``: the development ids, kept registered)
VERSIONS = (0, 1, 2, 3, 4)


def list_missions() -> list[str]:
    """The shipped mission ids (snake_case file stems), reference mission first."""
    from ambush_env.core.world.missions import list_missions as _list

    return list(_list())


def _version(version: Any) -> int:
    """``version`` if it is a registered version (:data:`VERSIONS`).

    Raises:
        ConfigError: anything else (names ``version`` and the registered ones).
    """
    from ambush_env.core.model.errors import ConfigError

    if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
        raise ConfigError(
            "version",
            f"a registered version, one of {', '.join(map(str, VERSIONS))}; got {version!r}",
        )
    return version


def env_id(mission: str, version: int = VERSION) -> str:
    """The Gymnasium id of a mission: ``hedgerow_crossing`` → ``ambush/HedgerowCrossing-v4``.

    Raises:
        ConfigError: a mission that is not a non-empty string, or a version not registered.
    """
    from ambush_env.core.model.errors import ConfigError

    if not isinstance(mission, str) or not mission:
        raise ConfigError("mission", f"a mission id such as 'farm_assault'; got {mission!r}")
    camel = "".join(part.capitalize() for part in mission.split("_"))
    return f"{NAMESPACE}/{camel}-v{_version(version)}"


def ambush_id(version: int = VERSION) -> str:
    """``ambush/Ambush-v4``: the env of any mission (``mission=``).

    Raises:
        ConfigError: a version not registered.
    """
    return f"{NAMESPACE}/Ambush-v{_version(version)}"


def procedural_id(version: int = VERSION) -> str:
    """``ambush/Procedural-v4``: a mission generated from each reset seed.

    Raises:
        ConfigError: a version not registered.
    """
    return f"{NAMESPACE}/Procedural-v{_version(version)}"


def id_table(version: int = VERSION) -> list[tuple[str, dict[str, Any]]]:
    """``(id, kwargs)`` of every id of one version. To add an id, add its line here."""
    ids: list[tuple[str, dict[str, Any]]] = [(ambush_id(version), {})]
    ids += [(env_id(m, version), {"mission": m}) for m in list_missions()]
    ids.append((procedural_id(version), {"procedural": True}))
    return ids


def register_envs() -> list[str]:
    """Register every id of every version in :data:`VERSIONS` (idempotent); returns the ids."""
    import gymnasium

    out: list[str] = []
    for version in VERSIONS:
        for id_, kwargs in id_table(version):
            if id_ not in gymnasium.registry:
                gymnasium.register(id=id_, entry_point=ENTRY_POINT, kwargs=kwargs)
            out.append(id_)
    return out + register_campaign()


CAMPAIGN_ENTRY_POINT = "ambush_env.env.campaign_env:CampaignEnv"
#: a squad carried through a chain of missions (RULES.md §16, issue 13); development id only
CAMPAIGN_ID = f"{NAMESPACE}/Campaign-v0"


def register_campaign() -> list[str]:
    """Register ``ambush/Campaign-v0`` (``CampaignEnv``, its own entry point; idempotent)."""
    import gymnasium

    if CAMPAIGN_ID not in gymnasium.registry:
        gymnasium.register(id=CAMPAIGN_ID, entry_point=CAMPAIGN_ENTRY_POINT)
    return [CAMPAIGN_ID]


# -- what a version freezes ----------------------------------------------------------------------
def order_text(action: int) -> str:
    """The state-free text of an order index: its kind and what its argument means
    (``"fire_aimed contact 3"``, ``"grenade offset (+1,-2)"``, ``"move NE"``). Unlike
    ``env.describe_action`` (which names the units of the position) it depends on the index
    alone, so the table of all N is the action layout a policy learns.

    Raises:
        ValueError: ``action`` outside ``0..N-1``.
    """
    from ambush_env.core.model import orders as O
    from ambush_env.core.model.types import DIRECTION_NAMES, Stance

    K = O.OrderKind
    kind, arg = O.decode(action)
    name = kind.name.lower()
    if O.ORDER_COUNT[kind] == 1:
        return name
    offsets = {K.FIRE_WALL, K.FIRE_HEX, K.GRENADE, K.SATCHEL, K.CANNON_WALL, K.CANNON_HEX}
    directions = {K.MOVE, K.DRAG, K.MOVE_PRISONER, K.DRIVE}
    # the orders whose argument is one number, and the word that names it ("give_turn unit 3")
    numbered = {
        **dict.fromkeys((K.SELECT_UNIT, K.GIVE_TURN, K.HAND_OVER), "unit"),
        **dict.fromkeys(
            (K.LOAD, K.BOARD_VEHICLE, K.GRENADE_INTO, K.MOLOTOV, K.RAM, K.RAM_OFF_ROAD), "vehicle"
        ),
        **dict.fromkeys((K.PICK_UP, K.DROP), "item"),
        K.ALERT: "radius",
    }
    aspects = {
        K.FIRE_AIMED_VEHICLE,
        K.FIRE_SNAP_VEHICLE,
        K.CANNON_VEHICLE,
        K.BOW_MG_AIMED_VEHICLE,
        K.BOW_MG_SNAP_VEHICLE,
        K.COAX_MG_AIMED_VEHICLE,
        K.COAX_MG_SNAP_VEHICLE,
    }
    # the orders whose argument is a vehicle slot × an entry of a table (core.model.orders)
    vehicle_and: dict[O.OrderKind, tuple[str, ...]] = {
        **dict.fromkeys(aspects, O.ASPECTS),
        K.CHARGE_UNDER: O.CHARGES,
        K.CHARGE_TREADS: O.CHARGES,
        K.FIRE_CALLED: O.CALLED,
    }
    if kind in offsets:
        dq, dr = O.HEX_OFFSETS[arg]
        return f"{name} offset ({dq:+d},{dr:+d})"
    if kind in directions:
        return f"{name} {DIRECTION_NAMES[arg]}"
    if kind == K.STANCE:
        return f"{name} {Stance(arg).name.lower()}"
    if kind in numbered:
        return f"{name} {numbered[kind]} {arg}"
    if kind in vehicle_and:
        vehicle, entry = divmod(arg, len(vehicle_and[kind]))
        return f"{name} vehicle {vehicle} {vehicle_and[kind][entry]}"
    return f"{name} contact {arg}"  # the fire, assault, cannon and MG orders at contact k


def _bounds(values, feature_axis: int) -> Any:
    """A Box bound compactly: one number when constant, else one number per feature."""
    import numpy as np

    a = np.asarray(values, dtype=np.float64)
    if np.all(a == a.flat[0]):
        return float(a.flat[0])
    per = np.moveaxis(a, feature_axis, 0).reshape(a.shape[feature_axis], -1)
    if not np.all(per == per[:, :1]):  # pragma: no cover - bounds vary inside a feature
        return a.tolist()
    return [float(v) for v in per[:, 0]]


def spec_snapshot() -> dict[str, Any]:
    """What a version freezes, mission-independent: N (``Discrete(N)``), the text of every
    order index (:func:`order_text`) and the observation spec (per key: shape, dtype, the
    Box's low and high, the axes and every feature's name and divisor), from the spaces the
    env really builds. ``tests/golden/env_spec_v<VERSION>.json`` holds it; regenerate it with
    ``python scripts/regen_env_spec.py`` only together with a version bump."""
    from gymnasium import spaces

    from ambush_env.env import spec
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv()
    n = int(env.action_space.n)
    obs = {}
    for key, box in env.observation_space.spaces.items():
        assert isinstance(box, spaces.Box), key  # spec.observation_space: a Box per key
        f = spec.observation_spec()[key]
        obs[key] = {
            "shape": list(box.shape),
            "dtype": str(box.dtype),
            "low": _bounds(box.low, f.feature_axis),
            "high": _bounds(box.high, f.feature_axis),
            "axes": list(f.axes),
            "features": [[ft.name, ft.div] for ft in f.features],
        }
    env.close()
    return {
        "version": VERSION,
        "n_actions": n,
        "orders": [order_text(a) for a in range(n)],
        "observation": obs,
    }
