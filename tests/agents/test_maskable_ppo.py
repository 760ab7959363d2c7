"""MaskablePPO: a few hundred masked training steps, checkpoints, resume, and scoring the model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ambush_env.agents.maskable_ppo import (
    PPOAgent,
    TrainConfig,
    input_divisor,
    latest_checkpoint,
    load_train_config,
    make_vec_env,
    new_model,
    train,
)
from ambush_env.core.model.errors import DataError
from ambush_env.env import spec

REPO = Path(__file__).resolve().parents[2]

TINY = dict(
    mission="farm_assault",
    total_timesteps=256,
    n_envs=2,
    n_steps=64,
    batch_size=64,
    n_epochs=1,
    features_dim=32,
    cnn_channels=(4, 8),
    net_arch=[16],
    checkpoint_freq=128,
    progress_bar=False,
)


def test_shipped_train_configs_are_valid():
    smoke = load_train_config(REPO / "configs/train/smoke.yaml")
    assert smoke.total_timesteps >= 20_000
    load_train_config(REPO / "configs/train/default.yaml")


def test_bad_config_names_file_and_field(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("total_timesteps: -5\n")
    with pytest.raises(DataError, match="total_timesteps"):
        load_train_config(p)
    p.write_text("learning_rat: 0.1\n")
    with pytest.raises(DataError, match="learning_rat"):
        load_train_config(p)
    with pytest.raises(ValueError, match="evaluation"):
        TrainConfig(seed=9999, n_envs=4)


def test_the_extractor_reads_the_declared_values_of_the_uint8_board():
    """SB3 does not treat the uint8 board as an image (its bounds are [0, div], not [0, 255]):
    no transposition, no ``/ 255``; the extractor divides each plane by its declared divisor,
    so what the network reads is exactly ``spec.scaled(obs)`` (level / 3, soldiers / 4, …)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    cfg = TrainConfig(**{**TINY, "n_envs": 1})
    env = make_vec_env(cfg)
    model = new_model(cfg, env)
    board = spec.OBSERVATION_SPEC["board"]
    assert model.observation_space["board"].shape == board.shape  # not transposed
    assert model.policy.normalize_images is False
    ext = model.policy.features_extractor
    assert ext.scaled_keys == ["board"]
    divs = input_divisor(model.observation_space["board"])
    assert divs.shape == (board.shape[0], 1, 1)
    np.testing.assert_array_equal(divs[:, 0, 0], [f.div for f in board.features])
    seen = {}
    ext.cnn.register_forward_pre_hook(
        lambda m, args: seen.__setitem__("board", args[0].detach().numpy().copy())
    )
    ext.tables.register_forward_pre_hook(
        lambda m, args: seen.__setitem__("tables", args[0].detach().numpy().copy())
    )
    obs = env.reset()
    for _ in range(30):
        action, _ = model.predict(obs, action_masks=get_action_masks(env))
        values = spec.scaled(obs)
        assert seen["board"].dtype == np.float32
        np.testing.assert_array_equal(seen["board"], values["board"])
        tables = np.concatenate([values[k].reshape(1, -1) for k in ext.keys], axis=1)
        np.testing.assert_array_equal(seen["tables"], tables)
        obs, _, _, _ = env.step(action)
    game = env.envs[0].unwrapped.game
    level = seen["board"][0, spec.BOARD["level"]]
    for i in range(game.board.n):
        c, r = game.board.coords(i)
        assert level[r, c] == np.float32(game.board.level[i] / 3)
    assert seen["board"].min() >= 0.0 and seen["board"].max() <= 1.0
    env.close()


def test_tiny_training_saves_checkpoints_resumes_and_plays(tmp_path):
    cfg = TrainConfig(run_name="tiny", log_dir=str(tmp_path), **TINY)
    model_path = train(cfg)
    assert model_path.exists()
    assert latest_checkpoint(cfg).name == "tiny_256_steps.zip"  # checkpoints carry the run name
    assert any((tmp_path / "tiny" / "tb").rglob("events.out.tfevents*"))
    # resume from the latest checkpoint up to 384 steps
    cfg2 = TrainConfig(
        run_name="tiny", log_dir=str(tmp_path), **{**TINY, "total_timesteps": 384}, resume="latest"
    )
    train(cfg2)
    assert latest_checkpoint(cfg2).name == "tiny_384_steps.zip"
    # the model plays legal orders to the end of an episode
    from ambush_env.agents.evaluate import make_env, run_episode

    agent = PPOAgent.load(model_path)
    env = make_env("farm_assault", max_steps=3000)
    res = run_episode(env, agent, 10000)
    assert res.steps > 0


@pytest.mark.slow
def test_smoke_config_trains_20000_steps_and_the_model_is_benchmarked(tmp_path):
    """``ambush train --config configs/train/smoke.yaml`` then ``ambush bench --agent MODEL``."""
    from ambush_env.cli import main

    cfg = REPO / "configs/train/smoke.yaml"
    assert main(["train", "--config", str(cfg), "--log-dir", str(tmp_path / "runs")]) == 0
    model = tmp_path / "runs" / "smoke" / "final_model.zip"
    assert model.exists()
    out = tmp_path / "bench.json"
    assert (
        main(
            ["bench", "--agent", str(model), "--episodes", "5", "--json", str(out), "--no-progress"]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["agent"] == "ppo-smoke"
    assert all(np.isfinite(m["mean_vp"]) for m in data["missions"].values())


def test_a_run_folder_is_never_overwritten_without_resume_or_force(tmp_path):
    """Issue 14: re-running a config into a folder holding an earlier run refuses with a clear
    message; ``--force`` starts afresh (deleting it)."""
    from ambush_env.agents.maskable_ppo import RunExistsError

    cfg = TrainConfig(run_name="again", log_dir=str(tmp_path), **{**TINY, "total_timesteps": 128})
    train(cfg)
    with pytest.raises(RunExistsError, match="--resume latest.*--force"):
        train(cfg)
    assert (tmp_path / "again" / "final_model.zip").exists()
    forced = TrainConfig(
        run_name="again", log_dir=str(tmp_path), **{**TINY, "total_timesteps": 128}, force=True
    )
    assert train(forced).exists()


def test_sigint_saves_a_checkpoint_and_the_run_resumes_from_it(tmp_path):
    """Issue 14 done-when 2: SIGINT to ``ambush train`` mid-run saves a checkpoint named after
    the run and says where; a re-run without ``--resume`` refuses; ``--resume latest`` goes on
    from the saved step."""
    import signal
    import subprocess
    import sys
    import time

    cfg = tmp_path / "long.yaml"
    cfg.write_text(
        "mission: farm_assault\ntotal_timesteps: 1000000\nn_envs: 2\nn_steps: 32\n"
        "batch_size: 32\nn_epochs: 1\nfeatures_dim: 16\ncnn_channels: [4, 4]\n"
        "net_arch: [8]\ncheckpoint_freq: 0\nprogress_bar: false\n",
        encoding="utf-8",
    )
    cmd = [
        sys.executable,
        "-m",
        "ambush_env.cli",
        "train",
        "--config",
        str(cfg),
        "--log-dir",
        str(tmp_path / "runs"),
        "--run-name",
        "sig",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tb = tmp_path / "runs" / "sig" / "tb"
    deadline = time.time() + 120
    while not any(tb.rglob("events.out.tfevents*")) and time.time() < deadline:
        time.sleep(0.2)  # training has begun once TensorBoard writes
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    ck = list((tmp_path / "runs" / "sig" / "checkpoints").glob("sig_*_steps.zip"))
    assert len(ck) == 1 and str(ck[0]) in err and "--resume latest" in err
    saved = int(ck[0].name.split("_")[1])
    assert saved > 0
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "holds an earlier run" in again.stderr
    done = subprocess.run(
        cmd + ["--resume", "latest", "--total-timesteps", str(saved + 64)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    from sb3_contrib import MaskablePPO

    final = MaskablePPO.load(tmp_path / "runs" / "sig" / "final_model.zip", device="cpu")
    assert final.num_timesteps >= saved + 64


def test_baseline_config_is_valid_and_shaping_gamma_must_match(tmp_path):
    """configs/train/baseline.yaml (issue 14): farm_assault/regular, at most 500 k steps, the
    ``progress`` shaping with the config's own gamma; a config whose gamma differs from the
    shaping's is refused before anything is built (potential-based shaping keeps the optimal
    policies only for the learner's discount)."""
    from ambush_env.env.rewards import RewardScheme

    cfg = load_train_config("baseline")
    assert (cfg.mission, cfg.opponent, cfg.reward) == ("farm_assault", "regular", "progress")
    assert cfg.total_timesteps <= 500_000 and 0 < cfg.checkpoint_freq < cfg.total_timesteps
    assert RewardScheme(cfg.reward).gamma == cfg.gamma
    bad = TrainConfig(**TINY, reward="progress", gamma=0.9, log_dir=str(tmp_path), run_name="g")
    with pytest.raises(ValueError, match="gamma"):
        train(bad)
    assert not (tmp_path / "g").exists()


def test_export_weights_drops_the_optimizer_state_and_plays_the_same(tmp_path):
    """The shipped copy (issue 14: weights without optimizer state) has no Adam moments, is
    smaller, and picks the same orders as the trained model."""
    import zipfile

    import torch as th

    from ambush_env.agents.maskable_ppo import export_weights

    cfg = TrainConfig(
        **{**TINY, "total_timesteps": 128, "checkpoint_freq": 0},
        log_dir=str(tmp_path),
        run_name="x",
    )
    src = train(cfg)
    dst = export_weights(src, tmp_path / "models" / "x.zip")

    def optimizer(path):
        with zipfile.ZipFile(path) as z:
            return th.load(z.open("policy.optimizer.pth"), weights_only=False)

    assert optimizer(src)["state"]  # one update was made: Adam holds its moments
    opt = optimizer(dst)
    assert opt["state"] == {} and opt["param_groups"]
    assert dst.stat().st_size < src.stat().st_size
    a, b = PPOAgent.load(src), PPOAgent.load(dst)
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="farm_assault")
    obs, info = env.reset(seed=1)
    for _ in range(20):
        act = a.act(obs, info, env)
        assert b.act(obs, info, env) == act
        obs, _, term, trunc, info = env.step(act)
        if term or trunc:
            break


def test_training_never_passes_the_budget(tmp_path):
    """Whole rollouts only (n_envs x n_steps = 128 here): a 200-step budget trains 128 steps,
    never 256 (issue 14: at most 500 k steps)."""
    from sb3_contrib import MaskablePPO

    cfg = TrainConfig(
        **{**TINY, "total_timesteps": 200, "checkpoint_freq": 0},
        log_dir=str(tmp_path),
        run_name="b",
    )
    assert MaskablePPO.load(train(cfg)).num_timesteps == 128
