"""A restored AmbushEnv (``set_state`` / unpickling) draws its dice from its own ``np_random``
again, so a following unseeded ``reset()`` goes on as from the original env
(docs/API.md env: ``get_state`` / ``set_state``, pickling)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from ambush_env.env.ambush_env import AmbushEnv


def _same(a, b):
    """Two ``step`` (obs, reward, terminated, truncated, info) or ``reset`` (obs, info)
    results are the same: observations, reward and flags, and the events."""
    for k in a[0]:
        np.testing.assert_array_equal(a[0][k], b[0][k])
    assert a[1:-1] == b[1:-1]
    assert json.dumps(a[-1].get("events"), default=str) == json.dumps(
        b[-1].get("events"), default=str
    )


@pytest.mark.parametrize("mission", [None, "farm_assault"])
@pytest.mark.parametrize("steps", [0, 25])
def test_restored_and_unpickled_envs_continue_identically_through_an_unseeded_reset(mission, steps):
    kw = {} if mission is None else {"mission": mission}
    env = AmbushEnv(**kw)
    rng = np.random.default_rng(7)
    env.reset(seed=11)
    for _ in range(steps):
        legal = env.legal_actions()
        if env.step(int(legal[rng.integers(len(legal))]))[2]:
            break
    twin = pickle.loads(pickle.dumps(env))
    restored = AmbushEnv(**kw)
    restored.reset(seed=0)
    restored.set_state(env.get_state())
    envs = (env, twin, restored)
    for phase in range(2):  # a few steps of this episode, then a new unseeded one
        for _ in range(15):
            legal = env.legal_actions()
            assert legal == twin.legal_actions() == restored.legal_actions()
            if not legal:
                break
            a = int(legal[rng.integers(len(legal))])
            r = [e.step(a) for e in envs]
            _same(r[0], r[1])
            _same(r[0], r[2])
            if r[0][2] or r[0][3]:
                break
        if phase == 0:
            r = [e.reset() for e in envs]
            _same(r[0], r[1])
            _same(r[0], r[2])
    assert env.game.position() == twin.game.position() == restored.game.position()
