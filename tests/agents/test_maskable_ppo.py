"""MaskablePPO: a few hundred masked training steps, checkpoints, resume, and scoring the model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.maskable_ppo import PPOAgent, TrainConfig, latest_checkpoint, load_train_config, train  # noqa: E402
from ambush_env.core.errors import DataError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

TINY = dict(mission="farm_assault", total_timesteps=256, n_envs=2, n_steps=64, batch_size=64, n_epochs=1,
            features_dim=32, cnn_channels=(4, 8), net_arch=[16], checkpoint_freq=128, progress_bar=False)


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


def test_tiny_training_saves_checkpoints_resumes_and_plays(tmp_path):
    cfg = TrainConfig(run_name="tiny", log_dir=str(tmp_path), **TINY)
    model_path = train(cfg)
    assert model_path.exists()
    assert latest_checkpoint(cfg).name == "ppo_256_steps.zip"
    assert any((tmp_path / "tiny" / "tb").rglob("events.out.tfevents*"))
    # resume from the latest checkpoint up to 384 steps
    cfg2 = TrainConfig(run_name="tiny", log_dir=str(tmp_path), **{**TINY, "total_timesteps": 384}, resume="latest")
    train(cfg2)
    assert latest_checkpoint(cfg2).name == "ppo_384_steps.zip"
    # the model plays legal orders to the end of an episode
    from agents.evaluate import make_env, run_episode

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
    assert main(["bench", "--agent", str(model), "--episodes", "5", "--json", str(out), "--no-progress"]) == 0
    data = json.loads(out.read_text())
    assert data["agent"] == "ppo-smoke"
    assert all(np.isfinite(m["mean_vp"]) for m in data["missions"].values())
