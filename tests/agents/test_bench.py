"""The benchmark runner: suites, metrics, the JSON schema of INTERFACE.md, atomic outputs."""

from __future__ import annotations

import json

import pytest

from ambush_env import bench
from ambush_env.core.errors import ScenarioError

SCHEMA_TOP = {"suite", "agent", "rules", "missions", "steps_per_second", "seeds", "version"}
SCHEMA_MISSION = {"episodes", "win_rate", "win_rate_ci95", "mean_vp", "mean_result", "mean_steps", "us_killed",
                  "us_incapacitated", "us_wounded", "germans_killed", "germans_captured"}


def test_wilson_interval_matches_known_values():
    lo, hi = bench.wilson_interval(2, 20)
    assert lo == pytest.approx(0.0279, abs=1e-3) and hi == pytest.approx(0.3010, abs=1e-3)
    assert bench.wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = bench.wilson_interval(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=1e-3)


def test_shipped_suites_load_with_evaluation_seeds():
    for name in ("smoke", "standard"):
        s = bench.load_suite(name)
        assert s.seeds.start >= 10000 and s.seeds.start + s.seeds.count - 1 <= 10399
        assert s.mission_ids()
    with pytest.raises(ScenarioError, match="smoke"):
        bench.load_suite("nonexistent_suite")


def test_run_bench_writes_the_interface_schema_atomically(tmp_path):
    res = bench.run_bench("random", "smoke", episodes=3, progress=False)
    out = bench.write_outputs(res, json_path=tmp_path / "r.json", out_dir=tmp_path)
    data = json.loads(out.read_text())
    assert set(data) == SCHEMA_TOP
    assert data["seeds"] == [10000, 10002]
    assert data["agent"] == "random" and data["suite"] == "smoke"
    for key, m in data["missions"].items():
        assert "/" in key
        assert set(m) == SCHEMA_MISSION
        assert m["episodes"] == 3
        lo, hi = m["win_rate_ci95"]
        assert 0 <= lo <= m["win_rate"] <= hi <= 1
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind
    assert (tmp_path / "leaderboard.md").read_text().count("| random |") == len(data["missions"])
    assert "farm_assault/regular" in bench.format_table(res)


def test_workers_give_the_same_scores_as_one_process():
    one = bench.public(bench.run_bench("heuristic", "smoke", episodes=2, workers=1, progress=False))
    two = bench.public(bench.run_bench("heuristic", "smoke", episodes=2, workers=2, progress=False))
    one.pop("steps_per_second"), two.pop("steps_per_second")
    assert one == two
