"""The mask in Gymnasium vector envs, as docs/ENV.md's "Vector envs" documents it.

Under the default autoreset (``AutoresetMode.NEXT_STEP``): the step that ends an episode
returns that env's final mask, all-False when the mission terminated (nothing is legal); the
next ``step`` call only resets that env — its action is ignored, its reward is 0, terminated
and truncated are False — and returns the new episode's first mask, never all-False. A row of
``info["action_mask"]`` is all-False only on a step where that env terminated.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import ambush_env  # noqa: F401  (registers the ids)

ID = "ambush/FarmAssault-v0"


def _envs(n: int = 2, **kwargs) -> SyncVectorEnv:
    return SyncVectorEnv([lambda: gym.make(ID) for _ in range(n)], **kwargs)


def test_readme_safe_masked_sampling_runs_through_episode_ends():
    """The docs/ENV.md example: ``Discrete``/``MultiDiscrete.sample`` returns 0 for an all-zero
    mask, which is the (ignored) action of an env about to be reset."""
    envs = _envs(2)
    obs, info = envs.reset(seed=0)
    ends = 0
    for _ in range(2500):
        actions = envs.action_space.sample(mask=tuple(info["action_mask"].astype(np.int8)))
        _obs, _reward, terminated, truncated, info = envs.step(actions)
        ends += int((terminated | truncated).sum())
    assert ends >= 2
    envs.close()


def test_default_autoreset_step_resets_and_returns_the_new_episodes_mask():
    envs = _envs(2)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP  # Gymnasium's default
    rng = np.random.default_rng(1)
    obs, info = envs.reset(seed=10)
    assert info["action_mask"].any(axis=1).all()
    ended = np.zeros(2, dtype=bool)
    checked = 0
    for _ in range(5000):
        actions = []
        for m in info["action_mask"]:
            legal = np.flatnonzero(m)
            actions.append(int(rng.choice(legal)) if legal.size else 0)  # 0: ignored, resets
        was_ended = ended
        obs, reward, terminated, truncated, info = envs.step(np.array(actions))
        mask = info["action_mask"]
        # all-False only for an env that terminated on this very step
        assert np.array_equal(~mask.any(axis=1), terminated), (terminated, mask.any(axis=1))
        for i in np.flatnonzero(was_ended):  # the autoreset step of env i
            assert reward[i] == 0.0 and not terminated[i] and not truncated[i]
            assert info["steps"][i] == 0 and mask[i].any()
            sub = envs.envs[i].unwrapped
            np.testing.assert_array_equal(mask[i], sub.action_masks())
            np.testing.assert_array_equal(obs["board"][i], sub._obs["board"])
            checked += 1
        ended = terminated | truncated
        if checked >= 2:
            break
    assert checked >= 2, "fewer than two episodes ended"
    envs.close()


def test_same_step_autoreset_never_returns_an_all_false_mask():
    """With ``AutoresetMode.SAME_STEP`` the ending step already returns the new episode's mask;
    the final one (all-False after a termination) is in ``info["final_info"]``."""
    envs = _envs(2, autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = envs.reset(seed=3)
    for _ in range(5000):
        actions = envs.action_space.sample(mask=tuple(info["action_mask"].astype(np.int8)))
        _obs, _reward, terminated, _truncated, info = envs.step(actions)
        assert info["action_mask"].any(axis=1).all()
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            assert not info["final_info"]["action_mask"][i].any()
            assert info["final_info"]["result"][i] in ("loss", "draw", "win", "decisive_win")
            break
    else:
        raise AssertionError("no episode terminated")
    envs.close()
