"""Suite files (issue 14; issue 13 done-when 6): several parts of missions × opponents × seeds
(the ``baseline`` suite), procedural missions and a mission file given by path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambush_env import bench, list_missions
from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.play.procedural import HELD_OUT_SEEDS
from tests.agents.test_bench import validate_results

MISSIONS = Path(bench.__file__).resolve().parent / "data" / "missions"


def test_the_baseline_suite_is_every_mission_on_100_seeds_and_farm_assault_on_400():
    s = bench.load_suite("baseline")
    plan = s.tasks()
    want = {(m, "regular"): list(range(10000, 10100)) for m in list_missions()}
    want.update(
        {("farm_assault", o): list(range(10000, 10400)) for o in ("green", "regular", "veteran")}
    )  # farm_assault/regular: the union
    assert plan == want
    assert s.max_count() == 400 and s.rules == "standard"
    assert {k: len(v) for k, v in s.tasks(episodes=2).items()} == {k: 2 for k in want}
    assert not s.is_full(100) and s.is_full(None) and s.is_full(400)


def _suite(tmp_path: Path, body: str) -> str:
    p = tmp_path / "suite.yaml"
    p.write_text("name: mixed\nrules: standard\n" + body, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize(
    "body, field",
    [
        (
            "missions: [farm_assault]\nseeds: {start: 1, count: 1}\nparts:\n"
            "  - {missions: [farm_assault], seeds: {start: 1, count: 1}}\n",
            "parts",
        ),  # both forms
        ("missions: [farm_assault]\n", "seeds"),  # no seeds
        ("opponents: [regular]\n", "missions"),  # nothing to play
        ("parts: []\n", "parts"),
        (
            "parts:\n  - {missions: [farm_assault], seeds: {start: 1, count: 0}}\n",
            "parts.0.seeds.count",
        ),
    ],
)
def test_a_malformed_suite_names_the_field(tmp_path, body, field):
    with pytest.raises(DataError) as e:
        bench.load_suite(_suite(tmp_path, body))
    assert e.value.field == field and "suite.yaml" in str(e.value)


def test_procedural_missions_and_a_mission_file_by_path_run(tmp_path):
    """A suite of Procedural-v4 (the missions held out from training) and a
    mission file given by a path relative to the suite's folder: each plays its seeds, is
    keyed by the mission's id, names its env id, and the result validates."""
    (tmp_path / "missions").mkdir()
    (tmp_path / "missions" / "jeep_run.yaml").write_bytes((MISSIONS / "jeep_run.yaml").read_bytes())
    suite = _suite(
        tmp_path,
        "parts:\n"
        "  - {missions: [procedural], opponents: [regular], seeds: {start: 10000, count: 2}}\n"
        "  - {missions: [missions/jeep_run.yaml], opponents: [green], seeds: {start: 10000, count: 1}}\n",
    )
    res = bench.run_bench("random", suite, progress=False)
    assert set(res["missions"]) == {"procedural/regular", "jeep_run/green"}
    assert res["missions"]["procedural/regular"]["episodes"] == 2
    assert res["missions"]["procedural/regular"]["seeds"] == [10000, 10001]
    assert res["missions"]["jeep_run/green"]["episodes"] == 1
    prov = res["provenance"]
    assert prov["env_ids"] == {"procedural": "ambush/Procedural-v4", "jeep_run": "ambush/Ambush-v4"}
    assert prov["procedural_missions"] == "held_out" and prov["full_suite"]
    procs = {e["mission"] for e in res["_episodes"] if e["task"] == "procedural/regular"}
    assert len(procs) == 2 and all(m.startswith("procedural_") for m in procs)  # two missions
    assert all(int(m.rsplit("_", 1)[1]) in HELD_OUT_SEEDS for m in procs)  # held out from training
    again = bench.run_bench("random", suite, progress=False)
    assert again["missions"] == res["missions"]  # the same missions from the same seeds
    out = tmp_path / "results"
    path = bench.write_outputs(res, out_dir=out)
    assert json.loads(path.read_text())["missions"]["jeep_run/green"]["vp"]
    assert validate_results(out) == 1


def test_a_mission_file_with_a_shipped_id_beside_that_mission_is_refused(tmp_path):
    suite = _suite(
        tmp_path,
        f"missions: [jeep_run, {MISSIONS / 'jeep_run.yaml'}]\nseeds: {{start: 10000, count: 1}}\n",
    )
    with pytest.raises(ScenarioError, match="both 'jeep_run'"):
        bench.run_bench("random", suite, progress=False)
    with pytest.raises(ScenarioError, match="unknown missions"):
        bench.run_bench(
            "random",
            _suite(tmp_path, "missions: [nowhere]\nseeds: {start: 1, count: 1}\n"),
            progress=False,
        )
