"""The ``heldout`` suite (issue 26): generated missions no training run sees, each once per
deck, and a reference file of its own (``Suite.reference``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambush_env import bench
from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.play.procedural import HELD_OUT_SEEDS, TRAIN_SEEDS

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "result.schema.json"


def test_the_heldout_suite_plays_400_distinct_held_out_missions_against_each_deck():
    s = bench.load_suite("heldout")
    plan = s.tasks()
    assert sorted(plan) == [(bench.PROCEDURAL_HELDOUT, o) for o in ("green", "regular", "veteran")]
    for seeds in plan.values():
        assert seeds == list(range(10000, 10400))
        missions = [bench.heldout_mission_seed(k) for k in seeds]
        assert len(set(missions)) == 400  # without replacement
        assert set(missions) <= set(HELD_OUT_SEEDS) and not set(missions) & set(TRAIN_SEEDS)
    assert bench.heldout_mission_seed(10000) == 1_000_000
    assert bench.heldout_mission_seed(10999) == 1_000_999
    for bad in (9999, 11000):  # one seed either side of the pool
        with pytest.raises(ScenarioError, match="one per held-out mission"):
            bench.heldout_mission_seed(bad)
    assert s.reference_file().name == "heldout.yaml"
    assert bench.load_suite("standard").reference_file().name == "vp.yaml"


def test_a_heldout_run_plays_mission_1000000_plus_i_at_seed_10000_plus_i(tmp_path):
    res = bench.run_bench("heuristic", "heldout", episodes=2, progress=False)
    eps = {(e["opponent"], e["seed"]): e["mission"] for e in res["_episodes"]}
    assert eps == {
        (o, 10000 + i): f"procedural_{1_000_000 + i}"
        for o in ("green", "regular", "veteran")
        for i in range(2)
    }
    prov = res["provenance"]
    assert prov["heldout_missions"] == "one_per_seed"
    assert prov["env_ids"] == {bench.PROCEDURAL_HELDOUT: "ambush/Procedural-v4"}
    jsonschema = pytest.importorskip("jsonschema")
    out = bench.write_outputs(res, out_dir=tmp_path)
    jsonschema.validate(json.loads(out.read_text()), json.loads(SCHEMA_FILE.read_text()))


@pytest.mark.parametrize(("start", "count"), [(9999, 2), (10999, 2)])
def test_heldout_seeds_outside_the_pool_are_refused_naming_the_field(tmp_path, start, count):
    p = tmp_path / "bad.yaml"
    p.write_text(
        f"name: bad\nmissions: [procedural_heldout]\nseeds: {{start: {start}, count: {count}}}\n"
    )
    with pytest.raises(DataError, match="seeds"):
        bench.load_suite(str(p))
    p.write_text("name: ok\nmissions: [procedural_heldout]\nseeds: {start: 10998, count: 2}\n")
    assert bench.load_suite(str(p)).tasks()  # the last two of the pool: accepted


def test_update_reference_writes_the_suites_own_file_and_normalises_from_it(
    tmp_path, monkeypatch, capsys
):
    """A suite that names ``reference: own`` reads and writes
    ``own.yaml`` of the reference folder (here a temporary config folder); the standard
    suite's ``vp.yaml`` is never touched."""
    pytest.importorskip("scipy")
    from ambush_env import stats
    from ambush_env.cli import main

    default = tmp_path / "vp.yaml"
    monkeypatch.setattr(stats, "reference_path", lambda: default)
    monkeypatch.setattr(bench, "config_dir", lambda kind: tmp_path / kind)
    suite = tmp_path / "own_suite.yaml"
    suite.write_text(
        "name: own_suite\nmissions: [farm_assault]\nopponents: [regular]\n"
        "seeds: {start: 10000, count: 2}\nreference: own\n"
    )
    own = tmp_path / "bench" / "reference" / "own.yaml"
    for agent in ("random", "do_nothing", "heuristic"):
        args = ["bench", "--suite", str(suite), "--agent", agent, "--no-progress"]
        assert main([*args, "--out-dir", str(tmp_path / "out"), "--update-reference"]) == 0
        assert str(own) in capsys.readouterr().out
    assert own.exists() and not default.exists()
    r = stats.references_for("standard", own)["farm_assault/regular"]
    assert None not in (r.random, r.do_nothing, r.heuristic)
    res = bench.run_bench("heuristic", str(suite), progress=False)
    agg = res["normalised_score"]
    assert agg["reference"].endswith("own.yaml") and agg["tasks"] == ["farm_assault/regular"]
    assert res["missions"]["farm_assault/regular"]["normalised_score"]["mean"] == 1.0
