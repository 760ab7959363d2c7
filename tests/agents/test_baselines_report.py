"""The learned baselines' report (issue 26): across-run summaries of result files, the floor
bounds of the heldout condition, the curves and the export of a trained run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("scipy")

from ambush_env import baselines as B

ROOT = Path(__file__).resolve().parents[2]


def _result(agent: str, tasks: dict[str, tuple[float, float, float]], seeds: int = 4) -> dict:
    """A result file's fields the report reads: per task (mean VP, win rate, normalised mean)."""
    return {
        "agent": agent,
        "missions": {
            t: {
                "mean_vp": vp,
                "win_rate": win,
                "vp": [vp] * seeds,
                "normalised_score": {"mean": ns},
            }
            for t, (vp, win, ns) in tasks.items()
        },
        "provenance": {"episodes_per_task": seeds, "git_commit": "abcdef123", "env_version": "v4"},
    }


def _write(folder: Path, results: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        (folder / f"s__{r['agent']}.json").write_text(json.dumps(r))


def test_method_summary_scores_runs_not_episodes(tmp_path):
    """Three runs of one method, two tasks: the across-run IQM/mean are over the 3 x 2 matrix
    of normalised means, the per-task VP interval is a t interval over the runs, the runs are
    in seed order, and another method's file and a scripted agent's are left out."""
    runs = [
        _result("generalist_seed2000", {"a/x": (4.0, 0.2, 0.4), "b/x": (1.0, 0.0, 0.1)}),
        _result("generalist_seed0", {"a/x": (2.0, 0.1, 0.2), "b/x": (0.0, 0.0, 0.0)}),
        _result("generalist_seed1000", {"a/x": (3.0, 0.3, 0.3), "b/x": (2.0, 0.1, 0.2)}),
        _result("specialist_seed0", {"a/x": (9.0, 0.9, 0.9), "b/x": (9.0, 0.9, 0.9)}),
        _result("random", {"a/x": (-1.0, 0.0, -0.1), "b/x": (-1.0, 0.0, -0.1)}),
    ]
    _write(tmp_path, runs)
    res = B.method_results(tmp_path, "generalist")
    assert [r["agent"] for r in res] == [
        "generalist_seed0",
        "generalist_seed1000",
        "generalist_seed2000",
    ]
    s = B.method_summary(res)
    matrix = [0.2, 0.0, 0.3, 0.2, 0.4, 0.1]
    assert s["aggregate"]["runs"] == 3 and s["aggregate"]["tasks"] == 2
    assert s["aggregate"]["mean"] == pytest.approx(np.mean(matrix), abs=1e-4)
    flat = sorted(matrix)  # 6 scores: cut 1 at each end
    assert s["aggregate"]["iqm"] == pytest.approx(np.mean(flat[1:5]), abs=1e-4)
    m, lo, hi = s["tasks"]["a/x"]["vp"]
    assert m == 3.0 and hi - 3.0 == pytest.approx(4.302653 * 1.0 / np.sqrt(3), abs=1e-4)
    assert lo == pytest.approx(6.0 - hi)
    assert s["mean_vp"][0] == pytest.approx(2.0)  # the runs' means over tasks: 1, 2.5, 2.5
    assert s["profile"]["fraction"][0] == pytest.approx(5 / 6, abs=1e-4)  # scores > 0
    assert B.method_results(tmp_path, "nothing") == []


def test_method_summary_refuses_runs_that_played_other_tasks_or_lack_a_reference():
    a = _result("g_seed0", {"a/x": (1.0, 0.0, 0.1)})
    b = _result("g_seed1", {"b/x": (1.0, 0.0, 0.1)})
    with pytest.raises(ValueError, match="other tasks"):
        B.method_summary([a, b])
    c = _result("g_seed1", {"a/x": (1.0, 0.0, 0.1)})
    del c["missions"]["a/x"]["normalised_score"]
    with pytest.raises(ValueError, match="no normalised score"):
        B.method_summary([a, c])
    with pytest.raises(ValueError, match="no results"):
        B.method_summary([])


def test_floor_bounds_use_the_first_seeds_the_runs_played(tmp_path):
    r = _result("random", {"t/x": (0.0, 0.0, 0.0)}, seeds=6)
    r["missions"]["t/x"]["vp"] = [-3, -1, -2, 50, 50, 50]  # the last three never count
    _write(tmp_path, [r, _result("do_nothing", {"t/x": (0.0, 0.0, 0.0)}, seeds=6)])
    got = B.floor_bounds(tmp_path, 3)
    assert got["random"][0] == -2.0 and -2.0 <= got["random"][1] <= -1.0
    assert got["do_nothing"] == (0.0, 0.0)
    with pytest.raises(ValueError, match="fewer than 7"):
        B.floor_bounds(tmp_path, 7)


def test_run_names_give_their_method():
    assert B.run_method("generalist_seed1000") == "generalist"
    assert B.run_method("specialist_seed0") == "specialist"
    assert B.run_method("maskable_ppo_farm_assault") is None


def test_a_curve_csv_round_trips_and_a_bad_one_is_refused(tmp_path):
    from ambush_env import plots
    from ambush_env.core.model.errors import DataError

    p = tmp_path / "c.csv"
    p.write_text("env_steps,ppo_steps,vp,win\n102048,2048,-4.0,0.0\n104096,4096,3.5,\n")
    c = plots.read_curve_csv(p)
    assert list(c["env_steps"]) == [102048, 104096] and np.isnan(c["win"][1])
    grid = np.array([100_000, 104_096, 200_000])
    s = plots.smoothed(c, grid, 10_000)
    assert np.isnan(s[0]) and s[1] == pytest.approx(-0.25) and np.isnan(s[2])  # none past its end
    mean, lo, hi = plots.seed_band([[1.0, 2.0], [3.0, np.nan]])
    assert mean[0] == 2.0 and hi[0] - 2.0 == pytest.approx(
        12.7062 * np.sqrt(2) / np.sqrt(2), abs=1e-3
    )
    assert mean[1] == lo[1] == hi[1] == 2.0  # one seed: the line itself
    p.write_text("step,vp\n1,2\n")
    with pytest.raises(DataError, match="columns"):
        plots.read_curve_csv(p)
    p.write_text("env_steps,ppo_steps,vp,win\n1,1,x,0\n")
    with pytest.raises(DataError, match="not a number"):
        plots.read_curve_csv(p)


def test_the_shipped_baselines_are_the_tables_sources():
    """Every shipped model has its config beside it, a curve and a budget entry, and its
    recorded sha256; the result files of benchmarks/baselines/ name those models' hashes
    (the tables of docs/BENCHMARK.md are generated from these files: tests/test_docs.py)."""
    models = sorted((ROOT / B.MODELS).glob("*/*.zip"))
    book_path = ROOT / B.RESULTS / "runs.json"
    if not models:
        pytest.skip("no shipped baseline models yet")
    import hashlib

    book = json.loads(book_path.read_text())
    for m in models:
        run = m.stem
        assert (m.parent / "config.yaml").exists(), run
        assert (ROOT / B.RESULTS / "curves" / f"{run}.csv").exists(), run
        assert book[run]["model_sha256"] == hashlib.sha256(m.read_bytes()).hexdigest(), run
        assert book[run]["env_steps"] <= 500_000
    shas = {hashlib.sha256(m.read_bytes()).hexdigest() for m in models}
    for suite in B.EVALUATION:
        for p in (ROOT / B.RESULTS / suite).glob("*.json"):
            r = json.loads(p.read_text())
            assert r["provenance"]["agent_sha256"] in shas, p.name


@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="the train extra")
def test_export_ships_a_run_with_its_config_curve_and_budget(tmp_path, monkeypatch):
    """scripts/baselines.py export on a tiny trained run (with a warm start): the weights
    play, the config and bc.json are beside them, the curve CSV starts after the
    demonstrations, the budget counts both."""
    from ambush_env.agents.maskable_ppo import PPOAgent, TrainConfig, train

    spec = importlib.util.spec_from_file_location("baselines_script", ROOT / "scripts/baselines.py")
    script = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(script)
    monkeypatch.setattr(script, "ROOT", tmp_path)
    cfg = TrainConfig(
        run_name="tiny_seed0",
        log_dir=str(tmp_path / "runs"),
        mission="jeep_run",
        n_envs=2,
        n_steps=256,
        batch_size=128,
        features_dim=16,
        cnn_channels=(4, 4),
        net_arch=[16],
        total_timesteps=1024,
        progress_bar=False,
        checkpoint_freq=0,
        bc_steps=400,
        bc_chunk=64,
    )
    train(cfg)
    assert script.main(["export", str(cfg.run_dir)]) == 0
    model = tmp_path / B.MODELS / "tiny_seed0" / "tiny_seed0.zip"
    assert (model.parent / "config.yaml").exists() and (model.parent / "bc.json").exists()
    book = json.loads((tmp_path / B.RESULTS / "runs.json").read_text())["tiny_seed0"]
    assert book["bc_steps"] == 400 and book["ppo_steps"] == 1024 and book["env_steps"] == 1424
    assert book["method"] == "tiny" and book["wall_seconds"] > 0
    from ambush_env import plots

    curve = plots.read_curve_csv(tmp_path / B.RESULTS / "curves" / "tiny_seed0.csv")
    assert np.all(curve["env_steps"] == curve["ppo_steps"] + 400)
    assert PPOAgent.load(model).objective is False


@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="the train extra")
def test_a_model_played_sampled_is_its_own_reproducible_result(tmp_path):
    """``ambush bench --sample``: the model's sampled policy, each episode seeded by its reset
    seed (a rerun gives the same VPs, also with two workers), labelled ``-sampled`` (its own
    result file beside the argmax one), ``deterministic_policy: false``; a scripted agent is
    refused."""
    from ambush_env import bench
    from ambush_env.agents.maskable_ppo import TrainConfig, train

    cfg = TrainConfig(
        run_name="m",
        log_dir=str(tmp_path),
        mission="jeep_run",
        n_envs=1,
        n_steps=64,
        batch_size=64,
        features_dim=16,
        cnn_channels=(4, 4),
        net_arch=[16],
        total_timesteps=64,
        progress_bar=False,
        checkpoint_freq=0,
    )
    model = str(train(cfg))
    suite = tmp_path / "s.yaml"
    suite.write_text("name: s\nmissions: [jeep_run]\nseeds: {start: 10000, count: 2}\n")
    one = bench.run_bench(model, str(suite), progress=False, sample=True)
    two = bench.run_bench(model, str(suite), progress=False, sample=True, workers=2)
    argmax = bench.run_bench(model, str(suite), progress=False)
    assert one["agent"] == "ppo-m-sampled" and argmax["agent"] == "ppo-m"
    assert one["missions"]["jeep_run/regular"]["vp"] == two["missions"]["jeep_run/regular"]["vp"]
    assert one["provenance"]["deterministic_policy"] is False
    assert argmax["provenance"]["deterministic_policy"] is True
    assert bench.result_stem(one) != bench.result_stem(argmax)
    assert B.run_method("specialist_seed3000-sampled") == "specialist"
    assert B.run_seed("specialist_seed3000-sampled") == 3000
    with pytest.raises(ValueError, match="no model"):
        bench.run_bench("random", str(suite), progress=False, sample=True)
