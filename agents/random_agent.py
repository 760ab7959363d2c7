"""The ``random`` agent: uniform over the legal orders (the benchmark's floor)."""

from __future__ import annotations

import random


class RandomAgent:
    """Picks uniformly among the orders of ``info["action_mask"]``.

    Args:
        seed: seed of the agent's own generator (independent of the env's dice; Python's
            ``random.Random``, the cheapest uniform draw on this hot path).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, env, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)

    def act(self, obs: dict, info: dict, env) -> int:
        legal = info["action_mask"].nonzero()[0]
        n = len(legal)
        if n == 0:
            raise RuntimeError("no legal order: the episode is over")
        return int(legal[int(self.rng.random() * n)])
