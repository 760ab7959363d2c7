"""Play episodes with an agent and collect what the benchmark scores (VP and results).

:func:`run_episode` plays one seeded episode; :func:`evaluate` plays many. Rewards are never
scored: the benchmark reads the game's VP, result and casualty counts (docs/API.md).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ambush_env.core.world.rules_data import load_rules_data

if TYPE_CHECKING:
    from ambush_env.env.ambush_env import AmbushEnv

WINNING_RESULTS = ("win", "decisive_win")


def result_value(result: str | None) -> float:
    """The score of a result band (decisive win +1, win +0.5, draw 0, loss −1; ``rules.yaml``)."""
    if result is None:
        return 0.0
    return float(getattr(load_rules_data().reward, result))


@dataclass
class EpisodeResult:
    """The outcome of one episode.

    Attributes:
        seed: the env's reset seed.
        mission, opponent: what was played.
        vp: final VP; result: ``"loss"``…``"decisive_win"`` (None if truncated before the end).
        won: result is a win or a decisive win.
        steps: env steps (decisions, illegal ones included).
        env_seconds: wall time spent inside ``env.step`` / ``env.reset``.
        seconds: wall time of the whole episode (agent included).
        stats: ``game.stats()`` at the end (casualties, captures, exits).
        truncated: ended by a step cap or illegal orders, not by the mission.
    """

    seed: int
    mission: str
    opponent: str
    vp: int = 0
    result: str | None = None
    won: bool = False
    steps: int = 0
    env_seconds: float = 0.0
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    truncated: bool = False

    @property
    def result_value(self) -> float:
        return result_value(self.result)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_env(
    mission: str | None, opponent: str = "regular", rules: str = "standard", **kwargs: Any
) -> AmbushEnv:
    """The unwrapped :class:`AmbushEnv` (the benchmark skips Gymnasium's checker wrappers);
    ``mission`` None: a procedural env's (``procedural=True``) or the default mission."""
    from ambush_env.env.ambush_env import AmbushEnv

    return AmbushEnv(mission=mission, opponent=opponent, rules=rules, **kwargs)


def run_episode(
    env, agent, seed: int, agent_seed: int | None = None, options: dict | None = None
) -> EpisodeResult:
    """Play one episode of ``env`` from ``reset(seed=seed)`` with ``agent``.

    Args:
        env: an :class:`AmbushEnv` (or a wrapper of one).
        agent: an :class:`ambush_env.agents.Agent`.
        seed: the reset seed (dice).
        agent_seed: seed of the agent's own randomness (default: ``seed``).
        options: the reset's options (e.g. ``{"mission_seed": k}`` for a procedural env).
    """
    un = env.unwrapped
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed, options=options)
    t_env = time.perf_counter() - t0
    agent.reset(env, seed if agent_seed is None else agent_seed)
    steps = 0
    terminated = truncated = False
    perf = time.perf_counter
    while not (terminated or truncated):
        a = agent.act(obs, info, env)
        t = perf()
        obs, _, terminated, truncated, info = env.step(a)
        t_env += perf() - t
        steps += 1
    game = un.game
    res = info.get("result") if terminated else None
    return EpisodeResult(
        seed=seed,
        mission=un.mission_id,
        opponent=un.game.opponent,
        vp=int(game.vp),
        result=res,
        won=res in WINNING_RESULTS,
        steps=steps,
        env_seconds=t_env,
        seconds=perf() - t0,
        stats=dict(game.stats()),
        truncated=bool(truncated),
    )


def evaluate(
    agent_spec: str,
    mission: str,
    opponent: str = "regular",
    seeds: list[int] | range = range(10000, 10020),
    rules: str = "standard",
) -> list[EpisodeResult]:
    """Play one episode per seed with a fresh env and the agent ``agent_spec``."""
    from ambush_env.agents import make_agent

    env = make_env(mission, opponent, rules)
    agent = make_agent(agent_spec)
    return [run_episode(env, agent, s) for s in seeds]
