"""The benchmark runner: suites, metrics, the JSON schema of docs/API.md, atomic outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambush_env import bench
from ambush_env.core.model.errors import ScenarioError

SCHEMA_TOP = {
    "suite",
    "agent",
    "rules",
    "missions",
    "steps_per_second",
    "seeds",
    "version",
    "provenance",
}
SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "result.schema.json"


def validate_results(folder: Path) -> int:
    """Every result JSON in ``folder`` against docs/result.schema.json; returns how many."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    n = 0
    for p in sorted(folder.glob("*.json")):
        jsonschema.validate(json.loads(p.read_text(encoding="utf-8")), schema)
        n += 1
    return n


SCHEMA_MISSION = {
    "episodes",
    "win_rate",
    "win_rate_ci95",
    "mean_vp",
    "mean_result",
    "mean_steps",
    "us_killed",
    "seeds",
    "vp",
    "us_incapacitated",
    "us_wounded",
    "germans_killed",
    "germans_captured",
}


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
    assert SCHEMA_TOP <= set(data) <= SCHEMA_TOP | {"normalised_score"}
    assert data["seeds"] == [10000, 10002]
    assert data["agent"] == "random" and data["suite"] == "smoke"
    for key, m in data["missions"].items():
        assert "/" in key
        assert SCHEMA_MISSION <= set(m) <= SCHEMA_MISSION | {"normalised_score"}
        assert m["episodes"] == 3
        lo, hi = m["win_rate_ci95"]
        assert 0 <= lo <= m["win_rate"] <= hi <= 1
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind
    key = data["provenance"]["agent_sha256"][:8]
    assert (tmp_path / "leaderboard.md").read_text().count(f"| random@{key} |") == len(
        data["missions"]
    )
    assert "farm_assault/regular" in bench.format_table(res)
    assert validate_results(tmp_path) == 1  # r.json, in the results folder itself


def test_workers_give_the_same_scores_as_one_process():
    one = bench.public(bench.run_bench("heuristic", "smoke", episodes=2, workers=1, progress=False))
    two = bench.public(bench.run_bench("heuristic", "smoke", episodes=2, workers=2, progress=False))
    one.pop("steps_per_second"), two.pop("steps_per_second")
    for r in (one, two):  # dates aside, and the checkout's state, which may change between runs
        for k in ("created", "git_commit", "git_dirty"):
            r["provenance"].pop(k)
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

    from ambush_env.core.rules.ctx import RULES

    assert set(get_args(bench.Suite.model_fields["rules"].annotation)) == set(RULES)


def test_vehicle_pair_results_sit_side_by_side_on_the_leaderboard(tmp_path):
    paths = []
    for name in ("vehicles", "vehicles_d100"):
        res = bench.run_bench("random", name, episodes=2, progress=False)
        paths.append(bench.write_outputs(res, out_dir=tmp_path))
    key = bench.agent_sha256("random")[:8]
    assert [p.name for p in paths] == [
        f"vehicles__random__{key}__partial-2.json",
        f"vehicles_d100__random__{key}__d100__partial-2.json",
    ]
    for p, rules in zip(paths, ("standard", "d100"), strict=True):
        data = json.loads(p.read_text())
        assert (
            SCHEMA_TOP <= set(data) <= SCHEMA_TOP | {"normalised_score"}
            and data["rules"] == rules
            and data["seeds"] == [10000, 10001]
        )
    md = (tmp_path / "leaderboard.md").read_text()
    rows = [
        line.split(" | ")
        for line in md.splitlines()
        if line.startswith("| ") and "/regular" in line
    ]
    assert {(r[0].lstrip("| "), r[1], r[2]) for r in rows} == {
        (m, f"random@{key}", rules)
        for m in ("jeep_run/regular", "tank_hunt/regular")
        for rules in ("standard", "d100")
    }
    assert validate_results(tmp_path) == 2
    header = next(line for line in md.splitlines() if line.startswith("| mission/opponent"))
    assert header.split(" | ")[2] == "rules"


def test_one_suite_under_two_rule_sets_keeps_both_results(tmp_path):
    res = bench.run_bench("random", "vehicles", episodes=2, progress=False)
    other = {**res, "rules": "d100"}  # the same suite name run with the d100 rules
    a = bench.write_outputs(res, out_dir=tmp_path)
    b = bench.write_outputs(other, out_dir=tmp_path)
    assert a != b and a.exists() and b.exists()
    md = (tmp_path / "leaderboard.md").read_text()
    key = bench.agent_key(res)
    assert md.count(f"| random@{key} | standard |") == md.count(f"| random@{key} | d100 |") == 2


def test_a_suite_with_unknown_rules_names_the_file_and_field(tmp_path):
    from ambush_env.core.model.errors import DataError

    bad = tmp_path / "bad_rules.yaml"
    bad.write_text("name: bad\nmissions: [jeep_run]\nrules: d99\nseeds: {start: 10000, count: 2}\n")
    with pytest.raises(DataError, match=r"bad_rules\.yaml: rules: .*'standard'.*'d100'") as e:
        bench.load_suite(str(bad))
    assert e.value.field == "rules"


# -- provenance, keys, partial runs (issue 14) ----------------------------------------------------
def _tiny_suite(tmp_path: Path, count: int = 2) -> Path:
    p = tmp_path / "tiny.yaml"
    p.write_text(
        f"name: tiny\nmissions: [farm_assault]\nopponents: [regular]\nrules: standard\n"
        f"seeds: {{start: 10000, count: {count}}}\n",
        encoding="utf-8",
    )
    return p


def test_every_result_carries_its_provenance(tmp_path):
    """The agent's hash (its source file and the package version, for a scripted agent), the
    commit, the date, the policy, full suite or partial, the env ids with their version."""
    res = bench.public(bench.run_bench("heuristic", str(_tiny_suite(tmp_path)), progress=False))
    prov = res["provenance"]
    assert (
        prov["agent_sha256"] == bench.agent_sha256("heuristic") and len(prov["agent_sha256"]) == 64
    )
    assert prov["agent_sha256"] != bench.agent_sha256("random")
    assert prov["full_suite"] is True and prov["episodes_per_task"] == 2
    assert (
        prov["env_ids"] == {"farm_assault": "ambush/FarmAssault-v4"} and prov["env_version"] == "v4"
    )
    assert prov["deterministic_policy"] is False  # seeded random tie-breaks
    assert prov["git_commit"] == "unknown" or len(prov["git_commit"]) == 40
    assert prov["created"].endswith("Z")


def test_a_result_records_its_libraries_suite_and_data(tmp_path):
    """Issue 26 (docs/API.md "Benchmark"): the provenance names the interpreter and library
    versions, the suite file's sha256 and the game data's; a scripted agent has no training
    record; the file validates against docs/result.schema.json."""
    import hashlib
    import platform
    from importlib import metadata

    from ambush_env.core.world.data import DATA_DIR

    suite = _tiny_suite(tmp_path)
    res = bench.public(bench.run_bench("random", str(suite), progress=False))
    prov = res["provenance"]
    libs = prov["libraries"]
    assert libs["python"] == platform.python_version()
    assert libs["numpy"] == metadata.version("numpy")
    assert libs["gymnasium"] == metadata.version("gymnasium")
    assert set(libs) == {"python", *bench.LIBRARIES}
    assert prov["suite_sha256"] == hashlib.sha256(suite.read_bytes()).hexdigest()
    assert prov["data_sha256"] == bench.tree_sha256(Path(DATA_DIR))
    assert "training" not in prov and "missing_optional" not in res
    bench.write_outputs(res, out_dir=tmp_path / "results")
    assert validate_results(tmp_path / "results") == 1


def test_the_data_hash_follows_every_file_of_the_tree(tmp_path):
    """``tree_sha256``: an edit, a rename and a new file each change it; a cache does not."""
    tree = tmp_path / "data"
    (tree / "maps").mkdir(parents=True)
    (tree / "maps" / "a.yaml").write_text("x: 1\n")
    (tree / "b.yaml").write_text("y: 2\n")
    seen = {bench.tree_sha256(tree)}
    (tree / "__pycache__").mkdir()
    (tree / "__pycache__" / "c.pyc").write_bytes(b"\0")
    assert bench.tree_sha256(tree) in seen  # caches are left out
    (tree / "b.yaml").write_text("y: 3\n")
    seen.add(bench.tree_sha256(tree))
    (tree / "b.yaml").rename(tree / "maps" / "b.yaml")
    seen.add(bench.tree_sha256(tree))
    (tree / "d.yaml").write_text("")
    seen.add(bench.tree_sha256(tree))
    assert len(seen) == 4


def test_a_missing_scipy_is_said_in_the_output_and_the_file(tmp_path, monkeypatch):
    """Issue 26: without scipy (the ``stats`` extra) the normalised score cannot be computed;
    the result says which figure is missing and why (``missing_optional``) and the printed
    table says so, instead of dropping the headline silently. With scipy there is no note."""
    import importlib.util

    suite = str(_tiny_suite(tmp_path))
    with_scipy = bench.public(bench.run_bench("random", suite, progress=False))
    assert "normalised_score" in with_scipy and "missing_optional" not in with_scipy
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "scipy" else real(n, *a)
    )
    res = bench.run_bench("random", suite, progress=False)
    assert "normalised_score" not in res
    assert res["missing_optional"] == [
        {"dependency": "scipy", "extra": "stats", "drops": "normalised_score"}
    ]
    assert 'no normalised_score: scipy is not installed (pip install "ambush_env[stats]")' in (
        bench.format_table(res)
    )
    bench.write_outputs(res, out_dir=tmp_path / "results")
    assert validate_results(tmp_path / "results") == 1


def test_a_model_result_records_its_training(tmp_path):
    """Issue 26: a model's result records the run's ``config.yaml`` (written beside the model
    by ``ambush train``) and the environment steps the model was trained for; without the
    config the record says null; a scripted agent has none."""

    class Model:
        num_timesteps = 4096

    class Agent:
        model = Model()

    run = tmp_path / "run"
    run.mkdir()
    (run / "config.yaml").write_text("total_timesteps: 4096\nmission: farm_assault\n")
    zip_ = run / "final_model.zip"
    assert bench.model_training(str(zip_), Agent()) == {
        "config": {"total_timesteps": 4096, "mission": "farm_assault"},
        "env_steps": 4096,
    }
    (run / "config.yaml").unlink()
    assert bench.model_training(str(zip_), object()) == {"config": None, "env_steps": None}
    assert bench.model_training("heuristic", Agent()) is None


def test_a_rerun_at_another_commit_keeps_the_older_result_beside_it(tmp_path):
    """Issue 26, done-when 4: a tiny suite run, then run again at a different recorded commit:
    both files are kept — the newer under the result's key, the older in ``history/`` under
    its commit and date — both validate, and the leaderboard has one row per key. A rerun at
    the same commit replaces the file and keeps no copy."""
    suite = str(_tiny_suite(tmp_path))
    out = tmp_path / "results"
    first = bench.run_bench("random", suite, progress=False)
    first["provenance"]["git_commit"] = "a" * 40  # the older run's recorded commit
    path = bench.write_outputs(first, out_dir=out)
    older = path.read_text(encoding="utf-8")
    second = bench.run_bench("random", suite, progress=False)
    second["provenance"]["git_commit"] = "b" * 40
    assert bench.write_outputs(second, out_dir=out) == path
    kept = sorted((out / "history").glob("*.json"))
    created = "".join(c for c in first["provenance"]["created"] if c.isalnum())
    assert [p.name for p in kept] == [f"{path.stem}__aaaaaaaa__{created}.json"]
    assert kept[0].read_text(encoding="utf-8") == older
    assert json.loads(path.read_text(encoding="utf-8"))["provenance"]["git_commit"] == "b" * 40
    assert validate_results(out) == 1 and validate_results(out / "history") == 1
    board = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert board.count("| farm_assault/regular | random@") == 1
    third = bench.run_bench("random", suite, progress=False)
    third["provenance"]["git_commit"] = "b" * 40  # same commit: replaced, nothing more kept
    bench.write_outputs(third, out_dir=out)
    assert sorted((out / "history").glob("*.json")) == kept


def test_a_partial_run_never_replaces_a_full_suite_result(tmp_path):
    """docs/API.md: a run of fewer seeds than its suite is written under its own name; the
    full result's file and its leaderboard row stay."""
    suite = str(_tiny_suite(tmp_path))
    out = tmp_path / "results"
    full = bench.write_outputs(bench.run_bench("random", suite, progress=False), out_dir=out)
    before = full.read_text()
    part = bench.write_outputs(
        bench.run_bench("random", suite, episodes=1, progress=False),
        json_path=tmp_path / "elsewhere.json",
        out_dir=out,
    )
    assert full.read_text() == before and json.loads(before)["seeds"] == [10000, 10001]
    copies = sorted(p.name for p in out.glob("*.json"))
    assert len(copies) == 2 and any(n.endswith("__partial-1.json") for n in copies)
    board = (out / "leaderboard.md").read_text()
    assert "10000-10001 |" in board and "10000-10000 (partial)" in board
    assert part.name == "elsewhere.json"
    assert validate_results(out) == 2 and validate_results(tmp_path) == 1


def test_two_models_under_one_label_get_two_rows(tmp_path):
    """Results are keyed by suite, agent label and agent hash: two models named alike (here one
    result with its hash changed, as a second model file would give) keep two files and two
    leaderboard rows."""
    res = bench.run_bench("random", str(_tiny_suite(tmp_path)), progress=False)
    out = tmp_path / "results"
    bench.write_outputs(res, out_dir=out)
    other = dict(res, provenance=dict(res["provenance"], agent_sha256="f" * 64))
    bench.write_outputs(other, out_dir=out)
    assert len(list(out.glob("*.json"))) == 2
    rows = [
        line
        for line in (out / "leaderboard.md").read_text().splitlines()
        if line.startswith("| farm_assault/regular |")
    ]
    assert len(rows) == 2 and {r.split("|")[2].strip() for r in rows} == {
        f"random@{res['provenance']['agent_sha256'][:8]}",
        "random@ffffffff",
    }
    assert validate_results(out) == 2


def test_agent_hash_of_a_model_file_is_its_sha256(tmp_path):
    import hashlib

    p = tmp_path / "m.zip"
    p.write_bytes(b"not really a model")
    assert bench.agent_sha256(str(p)) == hashlib.sha256(b"not really a model").hexdigest()


def test_results_carry_normalised_scores_against_the_reference(tmp_path, monkeypatch):
    """With a reference file (measured here on the tiny suite by --update-reference's code):
    with random and heuristic alone the task is not normalised (⚙ no floor without
    do_nothing) and the result lists it as dropped, naming the command; once do_nothing is
    measured, the floor agent (the higher of random and do_nothing) normalises to a mean of
    exactly 0, the other to at most 0, and heuristic play to 1 on the same seeds; each
    mission and the suite get an IQM and its interval, the mission its mean's; the files
    validate."""
    pytest.importorskip("scipy")
    from ambush_env import stats

    ref = tmp_path / "vp.yaml"
    monkeypatch.setattr(stats, "reference_path", lambda: ref)
    suite = str(_tiny_suite(tmp_path, count=4))
    rand = bench.run_bench("random", suite, progress=False)
    assert "normalised_score" not in rand  # no reference yet
    stats.update_reference(bench.public(rand))
    heur = bench.run_bench("heuristic", suite, progress=False)
    stats.update_reference(bench.public(heur))
    out = tmp_path / "results"
    agg = bench.add_normalised(heur["missions"], "standard")
    assert agg["tasks"] == [] and "iqm" not in agg  # no do_nothing yet: dropped, and said so
    assert "lacks do_nothing" in agg["dropped"]["farm_assault/regular"]
    assert "--agent do_nothing --update-reference" in agg["dropped"]["farm_assault/regular"]
    assert "normalised_score" not in heur["missions"]["farm_assault/regular"]
    heur["normalised_score"] = agg
    assert "not normalised (1 tasks: farm_assault/regular)" in bench.format_table(heur)
    bench.write_outputs(heur, out_dir=out)
    idle = bench.run_bench("do_nothing", suite, progress=False)
    stats.update_reference(bench.public(idle))
    floor = stats.floor_of(stats.references_for("standard", ref)["farm_assault/regular"])
    for res in (rand, idle, heur):
        res["normalised_score"] = bench.add_normalised(res["missions"], "standard")
        m = res["missions"]["farm_assault/regular"]["normalised_score"]
        assert m["floor"] == floor[1] and m["episodes"] == 4
        if res is heur:
            assert m["mean"] == 1.0
        elif res["agent"] == floor[1]:
            assert m["mean"] == 0.0
        else:
            assert m["mean"] <= 0.0
        lo, hi = m["iqm_ci95"]
        assert lo <= m["iqm"] <= hi
        lo, hi = m["mean_ci95"]
        assert lo <= m["mean"] <= hi
        agg = res["normalised_score"]
        assert agg["tasks"] == ["farm_assault/regular"] and agg["episodes_per_task"] == 4
        assert agg["dropped"] == {}  # a test can assert that no task is dropped
        assert agg["iqm"] == m["iqm"] and agg["reference"].endswith("vp.yaml")
        assert "normalised score (VP - floor)" in bench.format_table(res)
        bench.write_outputs(res, out_dir=out)
    part = bench.run_bench("random", suite, episodes=2, progress=False)  # run_bench adds them too
    assert part["normalised_score"]["episodes_per_task"] == 2
    bench.write_outputs(part, out_dir=out)
    assert validate_results(out) == 4
    assert "Normalised score, IQM" in (out / "leaderboard.md").read_text()


def test_ambush_bench_update_reference_stores_full_runs_only(tmp_path, monkeypatch, capsys):
    from ambush_env import stats
    from ambush_env.cli import main

    ref = tmp_path / "vp.yaml"
    monkeypatch.setattr(stats, "reference_path", lambda: ref)
    suite = str(_tiny_suite(tmp_path))
    args = [
        "bench",
        "--suite",
        suite,
        "--agent",
        "random",
        "--no-progress",
        "--out-dir",
        str(tmp_path / "out"),
        "--update-reference",
    ]
    assert main(args) == 0 and "updated the reference mean VPs of random" in capsys.readouterr().out
    r = stats.references_for("standard", ref)["farm_assault/regular"]
    assert r.random is not None and r.heuristic is None and r.seeds == (10000, 10001)
    before = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert main([*args, "--episodes", "1"]) == 2  # a partial run is refused, before it runs
    assert "partial" in capsys.readouterr().err
    model = tmp_path / "m.zip"
    model.write_bytes(b"a model file")
    for agent in ("withdraw", str(model)):  # a probe (named as one), a model: refused
        assert main([*args[:4], agent, *args[5:]]) == 2
        err = capsys.readouterr().err
        assert f"not {agent!r}" in err and ("is a probe" in err) == (agent == "withdraw")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == before  # nothing was run
    assert main([*args[:4], "do_nothing", *args[5:]]) == 0  # the floor's other agent
    r = stats.references_for("standard", ref)["farm_assault/regular"]
    assert r.random is not None and r.do_nothing is not None and r.heuristic is None
