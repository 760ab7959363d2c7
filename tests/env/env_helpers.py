"""Helpers of the env tests: seeded random legal rollouts and trace comparison."""

from __future__ import annotations

import json

import numpy as np


def random_actions(info: dict, rng: np.random.Generator) -> int:
    """A uniformly random legal order of ``info["action_mask"]``."""
    legal = np.flatnonzero(info["action_mask"])
    assert len(legal) > 0, "the mask is all-False while the episode runs"
    return int(legal[rng.integers(len(legal))])


def rollout(env, seed: int, steps: int, rng_seed: int = 0, actions: list[int] | None = None):
    """Play ``steps`` random legal orders (or ``actions``) from ``reset(seed)``.

    Returns:
        ``(trace, actions)``: per step ``(obs, reward, terminated, truncated, events-json)``.
    """
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    trace = [(obs, 0.0, False, False, json.dumps(info["events"], sort_keys=True, default=str))]
    taken: list[int] = []
    for k in range(steps if actions is None else len(actions)):
        a = random_actions(info, rng) if actions is None else actions[k]
        taken.append(a)
        obs, r, term, trunc, info = env.step(a)
        trace.append((obs, r, term, trunc, json.dumps(info["events"], sort_keys=True, default=str)))
        if term or trunc:
            break
    return trace, taken


def assert_same_trace(t1, t2) -> None:
    assert len(t1) == len(t2)
    for k, (a, b) in enumerate(zip(t1, t2, strict=True)):
        for key in a[0]:
            np.testing.assert_array_equal(
                a[0][key], b[0][key], err_msg=f"step {k}: obs[{key!r}] differs"
            )
        assert a[1:] == b[1:], f"step {k}: reward/terminated/truncated/events differ"
