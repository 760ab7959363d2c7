"""The Gymnasium env against docs/API.md: ids, checkers, masks, determinism, state, illegal orders."""

from __future__ import annotations

import json
import pickle

import gymnasium
import numpy as np
import pytest
from env_helpers import assert_same_trace, random_actions, rollout

import ambush_env
from ambush_env.core.model.errors import ConfigError, IllegalActionError, ScenarioError
from ambush_env.core.model.orders import N_ORDERS
from ambush_env.env.ambush_env import ILLEGAL_STREAK_LIMIT, AmbushEnv
from ambush_env.env.registration import env_id


# -- registration ------------------------------------------------------------------------------
def test_ids_registered_for_every_mission():
    """docs/API.md: ambush/Ambush-v0 plus one CamelCase id per shipped mission."""
    missions = ambush_env.list_missions()
    assert missions, "no mission shipped"
    assert "ambush/Ambush-v0" in gymnasium.registry
    for m in missions:
        assert env_id(m) in gymnasium.registry
        assert gymnasium.registry[env_id(m)].kwargs["mission"] == m


def test_env_id_is_camel_case_of_the_stem():
    """The current version is -v4; the -v3, -v2, -v1 and -v0 ids stay (tests/golden/test_env_spec.py)."""
    assert env_id("hedgerow_crossing") == "ambush/HedgerowCrossing-v4"
    assert env_id("farm_assault") == "ambush/FarmAssault-v4"
    assert env_id("farm_assault", version=0) == "ambush/FarmAssault-v0"


def test_default_mission_is_the_reference_mission():
    e = gymnasium.make("ambush/Ambush-v0")
    assert e.unwrapped.mission_id == ambush_env.list_missions()[0]


def test_unknown_mission_raises_scenario_error_listing_known_ids():
    with pytest.raises(ScenarioError) as exc:
        gymnasium.make("ambush/Ambush-v0", mission="no_such_mission")
    msg = str(exc.value)
    assert "no_such_mission" in msg
    for m in ambush_env.list_missions():
        assert m in msg
    assert isinstance(exc.value, ValueError)


def test_unknown_reward_scheme_and_illegal_mode_are_errors():
    with pytest.raises(ConfigError, match="^reward: .*default"):
        AmbushEnv(reward="nope")
    with pytest.raises(ConfigError, match="^illegal_action: .*penalize"):
        AmbushEnv(illegal_action="ignore")


# -- the checkers --------------------------------------------------------------------------------
@pytest.mark.parametrize("id_", sorted(k for k in gymnasium.registry if k.startswith("ambush/")))
def test_gymnasium_check_env_passes_on_every_id(id_):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(id_)
    check_env(env.unwrapped)


@pytest.mark.parametrize("id_", sorted(k for k in gymnasium.registry if k.startswith("ambush/")))
def test_sb3_check_env_passes_on_every_id(id_):
    """SB3's checker samples unmasked actions (plain ``Discrete.sample``): under the default
    ``illegal_action="penalize"`` an illegal one is a no-op scored −1."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    check_env(gymnasium.make(id_), warn=True)


def test_action_space_is_the_flat_order_layout(env):
    assert env.action_space == gymnasium.spaces.Discrete(N_ORDERS)
    # the plain Gymnasium sample: any order, legal or not
    assert type(env.action_space).sample is gymnasium.spaces.Discrete.sample


# -- masks: one source of legality -------------------------------------------------------------
def test_mask_is_exactly_the_games_legal_orders_and_never_empty(env):
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    for _ in range(300):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (N_ORDERS,)
        assert mask.any()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(env.game.legal_actions())
        np.testing.assert_array_equal(info["action_mask"], mask)
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        if term or trunc:
            obs, info = env.reset()


def test_every_masked_in_order_is_accepted_and_masked_out_rejected():
    """For states of random rollouts: each legal order steps without error from a copy of the
    state; a sample of masked-out orders raises IllegalActionError and leaves the state alone."""
    env = AmbushEnv(illegal_action="raise")
    probe = AmbushEnv(illegal_action="raise")
    probe.reset(seed=0)
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=11)
    checked = 0
    for step in range(120):
        state = env.get_state()
        legal = np.flatnonzero(info["action_mask"])
        for a in rng.choice(legal, size=min(4, len(legal)), replace=False):
            probe.set_state(json.loads(json.dumps(state)))
            probe.step(int(a))  # must not raise
            checked += 1
        illegal = np.flatnonzero(~info["action_mask"])
        before = json.dumps(env.get_state(), sort_keys=True)
        for a in rng.choice(illegal, size=5, replace=False):
            with pytest.raises(IllegalActionError):
                env.step(int(a))
            with pytest.raises(IllegalActionError):
                env.game.step(int(a))  # the engine itself enforces the same legality
        assert json.dumps(env.get_state(), sort_keys=True) == before
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        if term or trunc:
            obs, info = env.reset(seed=100 + step)
    assert checked > 100


# -- illegal orders ----------------------------------------------------------------------------
def _an_illegal_order(info) -> int:
    return int(np.flatnonzero(~info["action_mask"])[0])


def test_illegal_order_is_a_penalized_no_op(env):
    obs, info = env.reset(seed=5)
    before = json.dumps(env.game.position(), sort_keys=True)
    obs2, r, term, trunc, info2 = env.step(_an_illegal_order(info))
    assert r == -1.0
    assert info2["illegal_action"] is True
    assert info2["reward_components"] == {"illegal": -1.0}
    assert not term and not trunc
    assert json.dumps(env.game.position(), sort_keys=True) == before
    for k in obs:
        np.testing.assert_array_equal(obs[k], obs2[k])


def test_ten_illegal_orders_in_a_row_truncate(env):
    obs, info = env.reset(seed=5)
    bad = _an_illegal_order(info)
    for _ in range(ILLEGAL_STREAK_LIMIT - 1):
        _, _, term, trunc, info = env.step(bad)
        assert not trunc
    # a legal order in between resets the count
    _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not info["illegal_action"]
    bad = _an_illegal_order(info)
    for _ in range(ILLEGAL_STREAK_LIMIT):
        _, r, term, trunc, info = env.step(bad)
    assert trunc and not term
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(bad)


def test_illegal_action_raise_names_the_order_and_the_unit():
    env = AmbushEnv(illegal_action="raise")
    obs, info = env.reset(seed=5)
    # get a unit acting so the message can name it
    rng = np.random.default_rng(0)
    while env.game.acting_unit() is None:
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
    unit = env.game.acting_unit().name
    with pytest.raises(IllegalActionError) as exc:
        env.step(_an_illegal_order(info))
    assert unit in str(exc.value)
    with pytest.raises(IllegalActionError):
        env.step(N_ORDERS + 3)  # outside the action space


# -- determinism, state, pickling --------------------------------------------------------------
def test_same_seed_and_orders_give_identical_observations_rewards_events():
    t1, actions = rollout(AmbushEnv(), seed=42, steps=400, rng_seed=3)
    t2, _ = rollout(AmbushEnv(), seed=42, steps=0, actions=actions)
    assert_same_trace(t1, t2)


def test_reset_with_the_same_seed_replays_the_same_game(env):
    t1, actions = rollout(env, seed=8, steps=200, rng_seed=1)
    t2, _ = rollout(env, seed=8, steps=0, actions=actions)
    assert_same_trace(t1, t2)


def test_get_state_set_state_round_trip_continues_identically():
    env = AmbushEnv()
    rng = np.random.default_rng(2)
    obs, info = env.reset(seed=9)
    for _ in range(60):
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        assert not (term or trunc)
    saved = json.loads(json.dumps(env.get_state()))  # JSON-able
    actions = []
    cont = []
    for _ in range(150):
        a = random_actions(info, rng)
        actions.append(a)
        obs, r, term, trunc, info = env.step(a)
        cont.append((obs, r, term, trunc, json.dumps(info["events"], sort_keys=True, default=str)))
        if term or trunc:
            break
    other = AmbushEnv()
    other.reset(seed=12345)  # a different game, then restored
    other.set_state(saved)
    again = []
    for a in actions:
        obs, r, term, trunc, info = other.step(a)
        again.append((obs, r, term, trunc, json.dumps(info["events"], sort_keys=True, default=str)))
    assert_same_trace(cont, again)


def test_env_pickles_mid_episode_and_continues_identically():
    env = AmbushEnv()
    rng = np.random.default_rng(4)
    obs, info = env.reset(seed=21)
    for _ in range(40):
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
    clone = pickle.loads(pickle.dumps(env))
    np.testing.assert_array_equal(clone.action_masks(), env.action_masks())
    for _ in range(150):
        a = random_actions(info, rng)
        o1, r1, te1, tr1, i1 = env.step(a)
        o2, r2, te2, tr2, i2 = clone.step(a)
        for k in o1:
            np.testing.assert_array_equal(o1[k], o2[k])
        assert (r1, te1, tr1) == (r2, te2, tr2)
        assert json.dumps(i1["events"], default=str) == json.dumps(i2["events"], default=str)
        info = i1
        if te1 or tr1:
            break


def test_fresh_env_pickles():
    env = pickle.loads(pickle.dumps(AmbushEnv(reward="sparse")))
    obs, info = env.reset(seed=0)
    assert env.reward_scheme.name == "sparse"


# -- episodes, rewards, info -----------------------------------------------------------------
def _play_to_end(env, seed, rng_seed=0, cap=20000):
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    total = 0.0
    for _ in range(cap):
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        total += r
        assert env.observation_space.contains(obs)
        assert abs(sum(info["reward_components"].values()) - r) < 1e-9
        if term or trunc:
            return info, term, trunc, total
    raise AssertionError("episode did not end")


def test_random_episode_terminates_with_a_scored_result():
    env = AmbushEnv()
    info, term, trunc, total = _play_to_end(env, seed=1)
    assert term and not trunc
    assert info["result"] in ("loss", "draw", "win", "decisive_win")
    assert {"us_killed", "germans_killed"} <= set(info["stats"])
    assert not env.action_masks().any()  # over: nothing is legal
    # default reward: the result value plus 0.05 per VP gained
    from ambush_env.core.world.rules_data import load_rules_data

    rv = load_rules_data().reward
    assert total == pytest.approx(getattr(rv, info["result"]) + rv.vp_scale * info["vp"], abs=1e-6)


def test_info_carries_phase_round_acting_unit_vp_events_and_mask(env):
    obs, info = env.reset(seed=0)
    for key in (
        "phase",
        "round",
        "acting_unit",
        "vp",
        "events",
        "action_mask",
        "reward_components",
    ):
        assert key in info
    assert any(ev["type"] == "setup" for ev in info["events"])


def test_max_steps_truncates():
    env = AmbushEnv(max_steps=5)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    for _ in range(5):
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
    assert trunc and not term


def test_sparse_scheme_gives_no_vp_reward():
    env = AmbushEnv(reward="sparse")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    while True:
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        if not (term or trunc):
            assert r == 0.0
        else:
            break


def test_describe_action_delegates_to_the_game(env):
    obs, info = env.reset(seed=0)
    for a in np.flatnonzero(info["action_mask"]):
        text = env.describe_action(int(a))
        assert text == env.game.describe_action(int(a)) and text


def test_ansi_render_draws_the_map_and_the_squad():
    env = gymnasium.make("ambush/Ambush-v0", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    for u in env.unwrapped.game.us_units():
        assert u.name in text
    from ambush_env.render.window import pygame_available

    assert env.metadata["render_modes"] == ["ansi", "rgb_array"] + (
        ["human"] if pygame_available() else []
    )


_DIGEST_SNIPPET = """
import hashlib, json, numpy as np
from ambush_env.env.ambush_env import AmbushEnv
env = AmbushEnv()
rng = np.random.default_rng(6)
obs, info = env.reset(seed=77)
h = hashlib.sha256()
for _ in range(300):
    legal = np.flatnonzero(info["action_mask"])
    obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
    for k in sorted(obs):
        h.update(obs[k].tobytes())
    h.update(repr((r, term, trunc)).encode())
    h.update(json.dumps(info["events"], sort_keys=True, default=str).encode())
    if term or trunc:
        obs, info = env.reset(seed=78)
print(h.hexdigest())
"""


def test_same_seed_gives_the_same_game_in_another_process():
    """docs/API.md: identical observations, rewards and events in any process."""
    import subprocess
    import sys

    runs = [
        subprocess.run(
            [sys.executable, "-c", _DIGEST_SNIPPET], capture_output=True, text=True, timeout=300
        )
        for _ in range(2)
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr
    local: dict = {}
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(_DIGEST_SNIPPET, local)
    assert runs[0].stdout.strip() == runs[1].stdout.strip() == buf.getvalue().strip()
