"""Play one probe of the suite (``agents/probes.py``, issue 25) through the env: the helper of
the probe tests (tests/agents/test_probes.py, and the "every probe loses" test on every mission
x deck x seed and on procedural missions).

:func:`play_probe` plays one episode of a probe on a shipped mission, a generated mission or a
position and returns :class:`ProbeRun` ``(vp, result, decisions)``. Orders go through the
Gymnasium env (``AmbushEnv``, ``illegal_action="raise"``: an illegal order fails the test at
once); envs are built once per (mission, deck, rules) and reused, so a call costs one episode
(a few hundredths of a second on a shipped mission).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from ambush_env.agents import make_agent
from ambush_env.agents.evaluate import make_env
from ambush_env.agents.probes import PROBE_NAMES

#: what :func:`play_probe` calls after every step: ``watch(game, order)`` with the game after
#: the order (``ambush_env.core.Game``) and the order integer given
Watch = Callable[[Any, int], None]


class ProbeRun(NamedTuple):
    """The outcome of one probe episode.

    Attributes:
        vp: the final VP (``game.vp``).
        result: ``"loss"``, ``"draw"``, ``"win"`` or ``"decisive_win"``; None when the episode
            was truncated (the env's step cap) instead of ended by the mission.
        decisions: env steps (US decisions) the episode took.
    """

    vp: int
    result: str | None
    decisions: int


@lru_cache(maxsize=64)
def _env(mission: str | None, deck: str, rules: str):
    return make_env(mission, deck, rules, procedural=mission is None, illegal_action="raise")


def play_probe(
    probe: str,
    mission: str | None,
    deck: str = "regular",
    seed: int = 10000,
    *,
    rules: str = "standard",
    mission_seed: int | None = None,
    position: dict | None = None,
    watch: Watch | None = None,
) -> ProbeRun:
    """Play one episode of ``probe`` and return ``(vp, result, decisions)``.

    Args:
        probe: a name of :data:`~ambush_env.agents.probes.PROBE_NAMES`.
        mission: a shipped mission id; None: a generated mission (the procedural env), the one
            of ``mission_seed``.
        deck: the German deck (``green``, ``regular``, ``veteran``).
        seed: the env's reset seed (the dice).
        rules: ``"standard"`` or ``"d100"``.
        mission_seed: the generated mission to play (``mission`` None only; None: drawn from
            ``seed`` as the procedural env does).
        position: start from this position (docs/API.md "Positions and orders") of
            ``mission`` instead of the mission's start.
        watch: called after every step as ``watch(game, order)``.

    Raises:
        ValueError: an unknown probe name, or ``mission_seed`` with a shipped mission.
        IllegalActionError: the probe gave an order that is not legal (a probe bug).
    """
    if probe not in PROBE_NAMES:
        raise ValueError(f"unknown probe {probe!r}: use {', '.join(PROBE_NAMES)}")
    if mission_seed is not None and mission is not None:
        raise ValueError("mission_seed is for a generated mission (mission None)")
    env = _env(mission, deck, rules)
    options: dict[str, Any] = {}
    if position is not None:
        options["position"] = position
    if mission_seed is not None:
        options["mission_seed"] = mission_seed
    obs, info = env.reset(seed=seed, options=options or None)
    agent = make_agent(probe)
    agent.reset(env, seed)
    decisions = 0
    terminated = truncated = False
    while not (terminated or truncated):
        a = agent.act(obs, info, env)
        obs, _, terminated, truncated, info = env.step(a)
        decisions += 1
        if watch is not None:
            watch(env.unwrapped.game, a)
    game = env.unwrapped.game
    return ProbeRun(int(game.vp), info.get("result") if terminated else None, decisions)
