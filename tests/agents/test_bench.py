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


# -- the paired vehicle suites: standard vs d100 rules ------------------------------------------
def test_vehicle_suites_are_a_pair_that_differ_only_in_rules():
    std, d100 = bench.load_suite("vehicles"), bench.load_suite("vehicles_d100")
    assert (std.rules, d100.rules) == ("standard", "d100")
    assert std.mission_ids() == d100.mission_ids() == ["jeep_run", "tank_hunt"]
    assert std.seeds == d100.seeds and std.seeds.start >= 10000
    assert std.opponents == d100.opponents == ["regular"]
    differ = {k for k in bench.Suite.model_fields if getattr(std, k) != getattr(d100, k)}
    assert differ == {"name", "description", "rules"}


def test_suite_rules_are_the_env_rule_sets():
    from typing import get_args

    from ambush_env.core.ctx import RULES

    assert set(get_args(bench.Suite.model_fields["rules"].annotation)) == set(RULES)


def test_vehicle_pair_results_sit_side_by_side_on_the_leaderboard(tmp_path):
    paths = []
    for name in ("vehicles", "vehicles_d100"):
        res = bench.run_bench("random", name, episodes=2, progress=False)
        paths.append(bench.write_outputs(res, out_dir=tmp_path))
    assert [p.name for p in paths] == ["vehicles__random.json", "vehicles_d100__random__d100.json"]
    for p, rules in zip(paths, ("standard", "d100")):
        data = json.loads(p.read_text())
        assert set(data) == SCHEMA_TOP and data["rules"] == rules and data["seeds"] == [10000, 10001]
    md = (tmp_path / "leaderboard.md").read_text()
    rows = [line.split(" | ") for line in md.splitlines() if line.startswith("| ") and "/regular" in line]
    assert {(r[0].lstrip("| "), r[1], r[2]) for r in rows} == {
        (m, "random", rules) for m in ("jeep_run/regular", "tank_hunt/regular") for rules in ("standard", "d100")}
    header = next(line for line in md.splitlines() if line.startswith("| mission/opponent"))
    assert header.split(" | ")[2] == "rules"


def test_one_suite_under_two_rule_sets_keeps_both_results(tmp_path):
    res = bench.run_bench("random", "vehicles", episodes=2, progress=False)
    other = {**res, "rules": "d100"}  # the same suite name run with the d100 rules
    a = bench.write_outputs(res, out_dir=tmp_path)
    b = bench.write_outputs(other, out_dir=tmp_path)
    assert a != b and a.exists() and b.exists()
    md = (tmp_path / "leaderboard.md").read_text()
    assert md.count("| random | standard |") == md.count("| random | d100 |") == 2


def test_a_suite_with_unknown_rules_names_the_file_and_field(tmp_path):
    from ambush_env.core.errors import DataError

    bad = tmp_path / "bad_rules.yaml"
    bad.write_text("name: bad\nmissions: [jeep_run]\nrules: d99\nseeds: {start: 10000, count: 2}\n")
    with pytest.raises(DataError, match=r"bad_rules\.yaml: rules: .*'standard'.*'d100'") as e:
        bench.load_suite(str(bad))
    assert e.value.field == "rules"
