"""The generalist's pieces (issue 26): the mission mixture, the objective features, and the warm
start by behaviour cloning on the heuristic's games."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from ambush_env.core.model.errors import ConfigError, ScenarioError
from ambush_env.env.mixture import (
    OBJECTIVE_NAMES,
    OBJECTIVE_SIZE,
    MissionMixEnv,
    objective_features,
)


def _named(v: np.ndarray) -> dict[str, float]:
    return {n: float(x) for n, x in zip(OBJECTIVE_NAMES, v, strict=True) if x}


def _game(mission: str):
    from ambush_env.core import Game

    return Game(mission)


def test_objective_features_name_each_objectives_kind_terms_and_state():
    """RULES.md §15's objective kinds: the one-hot and the terms, per shipped mission; and
    ``taken`` follows the game's ``objective_taken`` flag."""
    from ambush_env.core.model.types import OBJECTIVE_TAKEN

    farm = _game("farm_assault")
    assert _named(objective_features(farm)) == {
        "objective_take": 1.0,
        "charges": pytest.approx(1 / 3),
        "clear_radius": pytest.approx(2 / 3),
        "us_vehicles": 1.0,  # the farm's jeep
    }
    farm.state.flags.append(OBJECTIVE_TAKEN)
    assert _named(objective_features(farm))["taken"] == 1.0
    bridge = _named(objective_features(_game("bridge_demolition")))
    assert bridge["objective_demolish"] == 1.0 and bridge["charges"] == 1.0  # three charges
    assert "us_vehicles" not in bridge and "taken" not in bridge
    snatch = _named(objective_features(_game("prisoner_snatch")))
    assert snatch["objective_capture"] == 1.0 and snatch["march_off"] == 1.0
    assert _named(objective_features(_game("night_patrol")))["objective_hold"] == 1.0
    assert "us_vehicles" in _named(objective_features(_game("jeep_run")))
    assert "garrison" in _named(objective_features(_game("village_fight")))


def test_the_mixture_draws_by_weight_and_seed_and_plays_the_drawn_env():
    env = MissionMixEnv(
        ["farm_assault", "procedural", "tank_hunt"],
        weights=[1, 1, 0],
        opponents=["green", "veteran"],
        objective_features=True,
    )
    drawn: Counter = Counter()
    seeds = []
    obs, info = env.reset(seed=3)
    for _ in range(40):
        drawn[(info["mission"], info["opponent"])] += 1
        assert env.observation_space.contains(obs)
        assert obs["objective"].shape == (OBJECTIVE_SIZE,)
        assert np.array_equal(obs["objective"], objective_features(env.game))
        assert np.array_equal(env.action_masks(), env.active.action_masks())
        assert env.active.game.opponent == info["opponent"]
        seeds.append(env.active.game.mission_id)
        obs, info = env.reset()
    assert {m for m, _ in drawn} == {"farm_assault", "procedural"}  # weight 0: never drawn
    assert {o for _, o in drawn} == {"green", "veteran"}
    assert len({s for s in seeds if s.startswith("procedural_")}) > 5  # a new mission each time
    again = MissionMixEnv(
        ["farm_assault", "procedural", "tank_hunt"],
        weights=[1, 1, 0],
        opponents=["green", "veteran"],
    )
    assert "objective" not in again.observation_space.spaces
    env.reset(seed=3)
    first = (env.active.game.mission_id, env.active.game.opponent)
    again.reset(seed=3)
    assert (again.active.game.mission_id, again.active.game.opponent) == first  # seeded


def test_the_mixture_steps_the_active_env_to_the_end():
    env = MissionMixEnv(["jeep_run", "procedural"], opponents=["regular"])
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        done, steps = term or trunc, steps + 1
    assert "result" in info and steps > 10


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(missions=[]), ConfigError, "at least one mission"),
        (dict(missions=["farm_assault"], opponents=[]), ConfigError, "German deck"),
        (dict(missions=["farm_assault", "jeep_run"], weights=[1]), ConfigError, "one weight"),
        (dict(missions=["farm_assault"], weights=[-1]), ConfigError, "one weight"),
        (dict(missions=["farm_assault"], weights=[0]), ConfigError, "not all 0"),
        (dict(missions=["farm_asault"]), ScenarioError, "unknown missions"),
    ],
)
def test_a_bad_mixture_is_refused_naming_what(kwargs, error, match):
    with pytest.raises(error, match=match):
        MissionMixEnv(**kwargs)


def test_a_training_config_gives_one_mission_or_a_mixture():
    from pydantic import ValidationError

    from ambush_env.agents.maskable_ppo import TrainConfig, load_train_config

    with pytest.raises(ValidationError, match="not both"):
        TrainConfig(mission="farm_assault", missions=["jeep_run"])
    with pytest.raises(ValidationError, match="one per mission"):
        TrainConfig(missions=["jeep_run", "farm_assault"], mission_weights=[1])
    with pytest.raises(ValidationError, match="give missions too"):
        TrainConfig(mission="farm_assault", opponents=["green"])
    one = TrainConfig(mission="jeep_run", objective_features=True)  # a mixture of one
    from ambush_env.agents.maskable_ppo import env_spec

    cls, kw = env_spec(one)
    assert cls is MissionMixEnv and kw["missions"] == ["jeep_run"] and kw["objective_features"]
    with pytest.raises(ValidationError, match="evaluation"):
        TrainConfig(seed=9990, n_envs=8, bc_steps=100)  # the BC envs' seeds reach 10 000
    g = load_train_config("generalist")
    assert g.missions is not None and "procedural" in g.missions and g.objective_features
    s = load_train_config("specialist")
    for cfg in (g, s):  # the cap: demonstrations and PPO together
        assert cfg.bc_steps + cfg.total_timesteps <= 500_000


def _heuristic_sample(n: int = 160):
    """(obs, mask, action) of the heuristic's first ``n`` orders on a seed no BC run plays."""
    from ambush_env.agents.heuristic import HeuristicAgent
    from ambush_env.env.ambush_env import AmbushEnv

    env, agent = AmbushEnv(mission="farm_assault", reward="progress"), HeuristicAgent(seed=7)
    obs, info = env.reset(seed=7777)
    agent.reset(env, 7777)
    out = []
    while len(out) < n:
        a = agent.act(obs, info, env)
        out.append((obs, env.action_masks(), a))
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            obs, info = env.reset()
            agent.reset(env, None)
    return out


def _nll(model, sample) -> float:
    import torch as th

    keys = sample[0][0].keys()
    obs = {k: th.as_tensor(np.stack([s[0][k] for s in sample])) for k in keys}
    masks = np.stack([s[1] for s in sample])
    acts = th.as_tensor(np.asarray([s[2] for s in sample]))
    with th.no_grad():
        _, logp, _ = model.policy.evaluate_actions(obs, acts, action_masks=masks)
    return float(-logp.mean())


def test_behaviour_cloning_fits_the_heuristics_orders_and_training_resumes_past_it(tmp_path):
    """A warm start of 1 500 heuristic steps lowers the policy's NLL of the heuristic's orders
    on unseen games (seed 7777) below the untrained policy's; it writes bc.json and a step-0
    checkpoint, and a resumed run continues from that checkpoint without cloning again."""
    pytest.importorskip("sb3_contrib")
    from ambush_env.agents.maskable_ppo import (
        TrainConfig,
        behaviour_clone,
        load_model,
        make_vec_env,
        new_model,
        train,
    )

    base = dict(
        mission="farm_assault",
        reward="progress",
        n_envs=2,
        n_steps=64,
        batch_size=64,
        features_dim=32,
        cnn_channels=(8, 8),
        net_arch=[32],
        log_dir=str(tmp_path),
        progress_bar=False,
        checkpoint_freq=0,
        bc_chunk=256,
        bc_batch_size=64,
        bc_learning_rate=1e-3,
    )
    cfg = TrainConfig(run_name="bc", total_timesteps=128, bc_steps=1500, **base)
    sample = _heuristic_sample()
    env = make_vec_env(cfg)
    model = new_model(cfg, env)
    before = _nll(model, sample)
    (tmp_path / "bc").mkdir()
    summary = behaviour_clone(model, cfg, log=lambda _m: None)
    after = _nll(model, sample)
    env.close()
    assert after < before - 0.3, (before, after)
    assert summary["steps"] == 1500 and summary["episodes"] >= 2
    assert json.loads((tmp_path / "bc" / "bc.json").read_text()) == summary
    path = train(cfg.model_copy(update={"force": True, "run_name": "run"}))
    ck = tmp_path / "run" / "checkpoints" / "run_0_steps.zip"
    assert ck.exists() and path.exists()
    stamp = (tmp_path / "run" / "bc.json").stat().st_mtime_ns
    more = cfg.model_copy(update={"run_name": "run", "resume": "latest", "total_timesteps": 256})
    train(more)
    assert (tmp_path / "run" / "bc.json").stat().st_mtime_ns == stamp  # no second warm start
    assert int(load_model(tmp_path / "run" / "final_model.zip").num_timesteps) == 256


def test_the_local_view_is_the_window_around_the_acting_hex_with_its_parity():
    """``local_radius`` R: a (2R + 1)² window of every board plane centred on the
    ``acting_hex`` plane's hex, zeros beyond the board, and a plane of the column's parity."""
    th = pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    from ambush_env.agents.maskable_ppo import _extractor_class
    from ambush_env.env.ambush_env import AmbushEnv
    from ambush_env.env.spec import BOARD_PLANES

    env = AmbushEnv(mission="farm_assault")
    ex = _extractor_class()(env.observation_space, 16, (4, 4), local_radius=2)
    act = BOARD_PLANES.index("acting_hex")
    board = th.zeros((2, *env.observation_space["board"].shape))
    board[0, act, 5, 7] = 1.0  # an odd column
    board[0, 0, 5, 8] = 3.0  # the hex south-east of it, one column right
    board[1, act, 0, 0] = 1.0  # the corner: the window runs off the board
    board[1, 0] = 1.0
    win = ex.crop(board)
    assert win.shape == (2, len(BOARD_PLANES) + 1, 5, 5)
    assert win[0, act, 2, 2] == 1.0 and win[0, act].sum() == 1.0
    assert win[0, 0, 2, 3] == 3.0 and win[0, 0].sum() == 3.0
    assert bool(th.all(win[0, -1] == 1.0)) and bool(th.all(win[1, -1] == 0.0))
    assert win[1, 0, :2].sum() == 0 and win[1, 0, :, :2].sum() == 0  # off the board: zeros
    assert win[1, 0, 2:, 2:].sum() == 9
    obs = {k: th.as_tensor(v[None]) for k, v in env.reset(seed=0)[0].items()}
    assert ex(obs).shape == (1, 16)


def test_the_way_features_point_to_the_goal_from_the_acting_hex():
    """``closer_<d>`` / ``farther_<d>``: the neighbour in direction d (the move orders' d) is
    nearer / farther from the goal (the objective until taken, then the exits) in hex distance;
    with no soldier acting on the map they are all 0; after ``objective_taken`` the goal is
    the exits."""
    from ambush_env.core.model.types import OBJECTIVE_TAKEN

    env = MissionMixEnv(["farm_assault"], objective_features=True)
    obs, info = env.reset(seed=0)
    game = env.game
    names = {n: i for i, n in enumerate(OBJECTIVE_NAMES)}
    seen = 0
    rng = np.random.default_rng(1)
    for _ in range(60):
        f = obs["objective"]
        u = game.acting_unit()
        if u is None or u.hex < 0:
            assert not f[names["closer_0"] : names["farther_5"] + 1].any()
        else:
            seen += 1
            dist = game.board.distance
            goal = sorted(game.objective_hexes)
            here = min(dist(u.hex, g) for g in goal)
            assert f[names["goal_distance"]] > 0 and f[names["goal_exit"]] == 0
            for d, j in enumerate(game.board.neighbors[u.hex][:6]):
                there = min(dist(j, g) for g in goal) if j >= 0 else here
                assert f[names[f"closer_{d}"]] == float(j >= 0 and there < here)
                assert f[names[f"farther_{d}"]] == float(j >= 0 and there > here)
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert seen > 10
    game.state.flags.append(OBJECTIVE_TAKEN)
    assert objective_features(game)[names["goal_exit"]] == 1.0
