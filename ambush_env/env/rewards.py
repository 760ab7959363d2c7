"""Reward schemes of the env, read from ``rewards.yaml`` (INTERFACE.md "Reward").

The default reward is the mission result at the end (decisive win +1, win +0.5, draw 0,
loss −1 ⚙) plus 0.05 ⚙ × the VP gained in the step; those numbers live once, in
``data/rules.yaml`` (``reward:``). Other named schemes (``sparse``,
``shaped``) change only the weights; every term is reported in ``info["reward_components"]``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ambush_env.core.data import Frozen, load_model
from ambush_env.core.errors import DataError, ScenarioError
from ambush_env.core.rules_data import load_rules_data
from ambush_env.core.types import RESULT_NAMES

REWARDS_FILE = Path(__file__).with_name("rewards.yaml")

#: counters of ``Game.stats()`` a scheme may weight
STAT_TERMS = ("germans_killed", "germans_captured", "us_killed", "us_incapacitated", "us_wounded", "us_exited")


class RewardsFile(Frozen):
    """Schema of ``rewards.yaml``: the illegal-order penalty and the named schemes."""

    illegal_action: float
    schemes: dict[str, dict[str, float]]


@lru_cache(maxsize=None)
def load_rewards(path: str | Path = REWARDS_FILE) -> RewardsFile:
    """Load and validate a rewards file. Raises DataError naming the file and field."""
    cfg = load_model(RewardsFile, path)
    for name, weights in cfg.schemes.items():
        for term in weights:
            if term not in ("vp", "result") and term not in STAT_TERMS:
                known = ", ".join(("vp", "result") + STAT_TERMS)
                raise DataError(path, f"schemes.{name}.{term}", f"unknown reward term; known: {known}")
    return cfg


def list_schemes() -> list[str]:
    """Names accepted by ``reward=``."""
    return sorted(load_rewards().schemes)


class RewardScheme:
    """Computes one step's reward and its components from the game before and after.

    Args:
        name: a scheme of ``rewards.yaml`` (``default``, ``sparse``, ``shaped``).

    Raises:
        ScenarioError: for an unknown scheme name (the message lists the known ones).
    """

    def __init__(self, name: str = "default") -> None:
        cfg = load_rewards()
        if name not in cfg.schemes:
            raise ScenarioError(f"unknown reward scheme {name!r}; known: {', '.join(sorted(cfg.schemes))}")
        self.name = name
        weights = cfg.schemes[name]
        base = load_rules_data().reward
        self.vp_weight = float(weights.get("vp", base.vp_scale))
        k = float(weights.get("result", 1.0))
        self.result_values = tuple(k * float(getattr(base, r)) for r in RESULT_NAMES)
        self.stat_weights = {t: float(v) for t, v in weights.items() if t in STAT_TERMS and v != 0.0}
        self.illegal_value = float(cfg.illegal_action)
        self._vp = 0
        self._stats: dict[str, Any] = {}

    def reset(self, game) -> None:
        """Remember the starting VP (and counters) of a new episode."""
        self._vp = game.vp
        if self.stat_weights:
            self._stats = dict(game.stats())

    def illegal(self) -> tuple[float, dict[str, float]]:
        """Reward of an illegal order (a no-op): the penalty alone."""
        return self.illegal_value, {"illegal": self.illegal_value}

    def __call__(self, game, vp: int | None = None) -> tuple[float, dict[str, float]]:
        """Reward of the step just played; returns ``(total, components)``.

        Args:
            game: the game after the step.
            vp: ``game.vp`` if the caller already read it (it is computed from the state).
        """
        if vp is None:
            vp = game.vp
        comps = {"vp": self.vp_weight * (vp - self._vp), "result": 0.0}
        self._vp = vp
        if game.over:
            res = game.result
            if res >= 0:
                comps["result"] = self.result_values[res]
        if self.stat_weights:
            stats = game.stats()
            for k, w in self.stat_weights.items():
                comps[k] = w * (stats.get(k, 0) - self._stats.get(k, 0))
            self._stats = dict(stats)
        return sum(comps.values()), comps
