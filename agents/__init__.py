"""Agents that play the US side: ``random``, ``do_nothing``, ``heuristic``, the probes
``withdraw``, ``rush``, ``stall`` and ``drive_off`` (``agents/probes.py``: degenerate policies
that must lose, issue 25) and a MaskablePPO policy.

Every agent follows one small protocol::

    agent.reset(env, seed)            # a new episode begins (env: the Gymnasium env)
    action = agent.act(obs, info, env)  # one order integer, legal in the current state

:func:`make_agent` builds one from a name (:data:`AGENT_NAMES`) or the path of a trained model
(``PATH.zip``), as ``ambush bench --agent X`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ambush_env.core.model.errors import ConfigError

#: the scripted agents by name: the reference agents, then the probes of agents/probes.py
AGENT_NAMES = ("random", "do_nothing", "heuristic", "withdraw", "rush", "stall", "drive_off")


@runtime_checkable
class Agent(Protocol):
    """What the benchmark and the CLI need from an agent."""

    name: str

    def reset(self, env: Any, seed: int | None = None) -> None:
        """Prepare for a new episode of ``env`` (the env is already reset)."""

    def act(self, obs: dict, info: dict, env: Any) -> int:
        """One legal order integer for the current decision."""


def check_agent_spec(spec: str) -> None:
    """Refuse a bad agent spec cheaply, without building the agent (so that ``ambush bench``
    fails before it starts its progress bar or its workers).

    Raises:
        ConfigError: (a ValueError) as :func:`make_agent` would: an unknown name, or a model file not found.
    """
    if spec in AGENT_NAMES:
        return
    p = Path(spec)
    if p.suffix == ".zip" and not p.exists():
        raise ConfigError("agent", f"agent model {spec!r} not found")
    if not p.exists():
        raise ConfigError(
            "agent",
            f"unknown agent {spec!r}: use {', '.join(AGENT_NAMES)} or the path of a model .zip",
        )


def make_agent(spec: str, seed: int | None = None, **kwargs: Any) -> Agent:
    """An agent from its name or a model path.

    Args:
        spec: a name of :data:`AGENT_NAMES` or the path of a MaskablePPO ``.zip``.
        seed: seed of the agent's own randomness (random tie-breaks, sampling).
        kwargs: passed to the agent's constructor.

    Raises:
        ConfigError: (a ValueError) ``spec`` is neither a known name nor an existing file.
    """
    if spec == "random":
        from ambush_env.agents.random_agent import RandomAgent

        return RandomAgent(seed=seed, **kwargs)
    if spec == "do_nothing":
        from ambush_env.agents.do_nothing import DoNothingAgent

        return DoNothingAgent(seed=seed, **kwargs)
    if spec == "heuristic":
        from ambush_env.agents.heuristic import HeuristicAgent

        return HeuristicAgent(seed=seed, **kwargs)
    if spec in AGENT_NAMES:  # a probe (agents/probes.py)
        from ambush_env.agents.probes import PROBES

        return PROBES[spec](seed=seed, **kwargs)
    p = Path(spec)
    if p.suffix == ".zip" or p.exists():
        if not p.exists():
            raise ConfigError("agent", f"agent model {spec!r} not found")
        from ambush_env.agents.maskable_ppo import PPOAgent

        return PPOAgent.load(p, **kwargs)
    raise ConfigError(
        "agent", f"unknown agent {spec!r}: use {', '.join(AGENT_NAMES)} or the path of a model .zip"
    )
