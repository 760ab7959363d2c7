"""Replays (issue 15, done-when 2): ``ambush bench --save-replays DIR`` records episodes (start
position, orders, events with their rolls), a recorded benchmark episode replays to identical
events, and a corrupted, truncated or edited replay gives a clear error naming the line."""

from __future__ import annotations

import io
import json
from argparse import Namespace
from pathlib import Path

import pytest

from ambush_env import bench
from ambush_env import replay as R
from ambush_env.cli import cmd_replay, main
from ambush_env.core.model.errors import DataError

SUITE = """name: replay_test
description: every kind of mission, two seeds
missions: [farm_assault, jeep_run, tank_hunt, procedural]
opponents: [regular]
rules: {rules}
seeds: {{start: 10000, count: 2}}
"""


def _suite(tmp: Path, rules: str = "standard") -> str:
    p = tmp / f"replay_test_{rules}.yaml"
    p.write_text(SUITE.format(rules=rules), encoding="utf-8")
    return str(p)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, dict]:
    """The replays of a bench run through the command line (heuristic agent: it moves,
    drives, fires), and the run's result JSON."""
    tmp = tmp_path_factory.mktemp("bench")
    out = tmp / "replays"
    rc = main(
        [
            "bench",
            "--suite",
            _suite(tmp),
            "--agent",
            "heuristic",
            "--episodes",
            "2",
            "--no-progress",
            "--out-dir",
            str(tmp / "results"),
            "--json",
            str(tmp / "r.json"),
            "--save-replays",
            str(out),
        ]
    )
    assert rc == 0
    return out, json.loads((tmp / "r.json").read_text(encoding="utf-8"))


def test_bench_writes_one_replay_per_episode_named_by_task_and_seed(recorded):
    out, result = recorded
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        f"{m}__regular__{s}.jsonl"
        for m in ("farm_assault", "jeep_run", "tank_hunt", "procedural")
        for s in (10000, 10001)
    )
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary left over
    for task, m in result["missions"].items():
        mission = task.split("/")[0]
        for seed, vp in zip(range(10000, 10002), m["vp"], strict=True):
            rep = R.load(out / f"{mission}__regular__{seed}.jsonl")
            assert rep.end["vp"] == vp  # the replay is the benchmark's own episode
            assert rep.header["agent"] == "heuristic" and rep.header["seed"] == seed


def test_the_header_holds_the_start_position_and_every_step_its_order_events_and_rolls(recorded):
    out, _ = recorded
    lines = (out / "farm_assault__regular__10000.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["format"] == "ambush-replay" and head["version"] == 1
    assert head["position"]["mission"] == "farm_assault" and head["position"]["rng"]
    assert head["env"]["mission"] == "farm_assault" and head["events"][0]["type"] == "setup"
    steps = [json.loads(x) for x in lines[1:-1]]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    fire = [(s, e) for s in steps for e in s["events"] if e["type"] == "fire"]
    assert fire, "the heuristic fires in this episode"
    s, e = fire[0]
    assert set(e["rolls"]) >= {"hit"}  # the event carries the dice that decided it
    # the step's dice log holds those rolls, labelled, in the order they were rolled
    assert all(isinstance(w, str) and isinstance(r, int) for w, r in s["rolls"])
    assert e["rolls"]["hit"] in [r for _, r in s["rolls"]]
    assert s["order"] and s["side"] == "US" and s["unit"]
    end = json.loads(lines[-1])
    assert end["end"] is True and end["steps"] == len(steps) and end["digest"].startswith("sha256:")
    assert end["digest"] == R.digest(steps)


@pytest.mark.parametrize("mission", ["farm_assault", "jeep_run", "tank_hunt", "procedural"])
def test_a_recorded_benchmark_episode_replays_to_identical_events(recorded, mission):
    out, _ = recorded
    rep = R.load(out / f"{mission}__regular__10001.jsonl")
    seen: list[list[dict]] = []
    sim = R.simulate(rep, on_step=lambda k, env, info, rec: seen.append(info["events"]))
    assert sim.verified and sim.steps == len(rep.steps) > 0
    assert [json.loads(json.dumps(e)) for e in seen[1:]] == [s["events"] for s in rep.steps]
    if mission == "procedural":
        assert rep.header["mission_seed"] >= 1_000_000  # a held-out generated mission
        assert isinstance(rep.header["position"]["mission"], dict)  # written inline


def test_ambush_replay_says_verified(recorded, capsys):
    out, _ = recorded
    f = out / "tank_hunt__regular__10000.jsonl"
    n = len(R.load(f).steps)
    assert main(["replay", str(f), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert f"replay verified: {n} steps, identical events" in text
    assert text.splitlines()[0].startswith("   1: ")


def test_results_are_unchanged_by_save_replays(tmp_path, recorded):
    _, with_replays = recorded
    plain = bench.public(bench.run_bench("heuristic", _suite(tmp_path), episodes=2, progress=False))
    assert plain["missions"] == with_replays["missions"]
    assert plain["provenance"]["env_ids"] == with_replays["provenance"]["env_ids"]
    assert set(plain) == set(with_replays)


def test_d100_rules_and_two_worker_processes(tmp_path):
    """Each worker process writes its own episodes' files; the d100 rules are recorded and
    replayed (the file name says so)."""
    suite = tmp_path / "d.yaml"
    suite.write_text(
        "name: d\nmissions: [tank_hunt]\nrules: d100\nseeds: {start: 5, count: 2}\n",
        encoding="utf-8",
    )
    res = bench.run_bench(
        "heuristic", str(suite), workers=2, progress=False, save_replays=tmp_path / "rp"
    )
    files = sorted((tmp_path / "rp").iterdir())
    assert [p.name for p in files] == [
        "tank_hunt__regular__5__d100.jsonl",
        "tank_hunt__regular__6__d100.jsonl",
    ]
    for p in files:
        rep = R.load(p)
        assert rep.header["rules"] == "d100" and R.simulate(rep).verified
    assert res["missions"]["tank_hunt/regular"]["episodes"] == 2


def test_save_replays_into_a_file_is_refused(tmp_path):
    f = tmp_path / "x"
    f.write_text("", encoding="utf-8")
    with pytest.raises(NotADirectoryError, match="not a folder"):
        bench.run_bench("random", _suite(tmp_path), episodes=2, progress=False, save_replays=f)


# -- damaged files ---------------------------------------------------------------------------
@pytest.fixture()
def lines(recorded) -> list[str]:
    out, _ = recorded
    return (out / "jeep_run__regular__10000.jsonl").read_text(encoding="utf-8").splitlines()


def _write(tmp_path: Path, lines: list[str], tail: str = "\n") -> Path:
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(lines) + tail, encoding="utf-8")
    return p


def test_a_corrupted_line_is_named(tmp_path, lines):
    bad = list(lines)
    bad[4] = bad[4][:10] + "#" + bad[4][11:]
    p = _write(tmp_path, bad)
    with pytest.raises(DataError) as e:
        R.load(p)
    assert str(e.value).startswith(f"{p}: line 5: not JSON (a corrupted or cut-off line): ")


def test_a_truncated_file_is_named(tmp_path, lines):
    n = len(lines) - 2  # steps kept
    p = _write(tmp_path, lines[:-1])
    with pytest.raises(DataError) as e:
        R.load(p)
    assert str(e.value) == (
        f"{p}: line {len(lines)}: truncated: the file ends after {n} steps without its end line"
    )
    cut = _write(tmp_path, lines[:7] + [lines[7][: len(lines[7]) // 2]], tail="")
    with pytest.raises(DataError, match=r": line 8: not JSON \(a corrupted or cut-off line\)"):
        R.load(cut)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda o: o.update(action="x"), "line 3: action: Input should be a valid integer"),
        (lambda o: o.update(action=99999), "line 3: action: Input should be less than"),
        (lambda o: o.pop("events"), "line 3: events: Field required"),
        (lambda o: o.update(step=7), "line 3: step: step 2 expected here, got 7"),
        (lambda o: o.update(extra=1), "line 3: extra: Extra inputs are not permitted"),
    ],
)
def test_a_malformed_step_is_named(tmp_path, lines, edit, message):
    bad = list(lines)
    obj = json.loads(bad[2])
    edit(obj)
    bad[2] = json.dumps(obj)
    p = _write(tmp_path, bad)
    with pytest.raises(DataError) as e:
        R.load(p)
    assert str(e.value).startswith(f"{p}: {message}")


def test_header_and_end_line_problems_are_named(tmp_path, lines):
    head = json.loads(lines[0])
    head["version"] = 99
    with pytest.raises(
        DataError,
        match=r"line 1: version: this ambush_env reads ambush-replay "
        r"version 1, the file is version 99",
    ):
        R.load(_write(tmp_path, [json.dumps(head), *lines[1:]]))
    with pytest.raises(DataError, match=f"line {len(lines) + 1}: a line after the end line"):
        R.load(_write(tmp_path, [*lines, lines[1]]))
    end = json.loads(lines[-1])
    end["steps"] += 1
    with pytest.raises(
        DataError,
        match=f"line {len(lines)}: steps: the end line counts "
        f"{end['steps']} steps, the file holds {end['steps'] - 1}",
    ):
        R.load(_write(tmp_path, [*lines[:-1], json.dumps(end)]))


def _mismatch(tmp_path, lines, k: int, edit) -> R.ReplayMismatch:
    bad = list(lines)
    obj = json.loads(bad[k])
    edit(obj)
    bad[k] = json.dumps(obj)
    with pytest.raises(R.ReplayMismatch) as e:
        R.simulate(R.load(_write(tmp_path, bad)))
    return e.value


def test_an_edited_action_fails_at_its_step_and_line(tmp_path, lines):
    step = json.loads(lines[3])  # line 4: step 3
    e = _mismatch(tmp_path, lines, 3, lambda o: o.update(action=o["action"] + 1))
    assert (e.line, e.step) == (4, 3)
    assert str(e).startswith(
        f"{tmp_path / 'r.jsonl'}: line 4: step 3: order #{step['action'] + 1} reads "
    )
    assert str(e).endswith(f", the replay recorded {step['order']!r}")


def test_an_edited_roll_or_event_fails_at_its_step_and_line(tmp_path, lines):
    k = next(i for i, x in enumerate(lines[1:-1], start=1) if json.loads(x)["rolls"])
    step = json.loads(lines[k])

    def edit_roll(o):
        o["rolls"][0][1] = (o["rolls"][0][1] + 1) % 10

    e = _mismatch(tmp_path, lines, k, edit_roll)
    assert (e.line, e.step) == (k + 1, step["step"])
    assert f"line {k + 1}: step {step['step']}: rolls differ at #1: recorded " in str(e)

    def edit_event(o):
        o["events"][0]["type"] = "nothing"

    e = _mismatch(tmp_path, lines, k, edit_event)
    assert (
        f"line {k + 1}: step {step['step']}: events differ at #1: recorded "
        '{"type": "nothing"' in str(e)
    )


def test_a_changed_start_position_is_named(tmp_path, lines):
    e = _mismatch(tmp_path, lines, 0, lambda o: o["position"].update(vp=5))
    assert (e.line, e.step) == (1, 0)
    assert (
        "line 1: step 0: the start position after reset(seed=10000) is not the recorded one "
        "(first difference at vp)" in str(e)
    )


def test_ambush_replay_exits_1_on_a_mismatch(tmp_path, lines, capsys):
    bad = list(lines)
    obj = json.loads(bad[5])
    obj["vp"] += 3
    bad[5] = json.dumps(obj)
    p = _write(tmp_path, bad)
    assert main(["replay", str(p), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert (
        f"replay MISMATCH: {p}: line 6: step 5: vp is {obj['vp'] - 3} now, the replay "
        f"recorded {obj['vp']}" in out
    )
    assert "   4: " in out and "   5: " in out and "   6: " not in out


def test_a_legacy_plain_json_replay_still_plays(tmp_path):
    p = tmp_path / "old.json"
    p.write_text(
        json.dumps(
            {
                "mission": "farm_assault",
                "seed": 3,
                "opponent": "regular",
                "rules": "standard",
                "actions": [0, 14],
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    rep = R.load(p)
    assert rep.legacy and rep.actions == [0, 14]
    sim = R.simulate(rep)
    assert not sim.verified and sim.steps == 2
    out = io.StringIO()
    assert cmd_replay(Namespace(file=str(p), quiet=False), stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("   0: select US1\n") and "   1: " in text
    assert "legacy replay (orders only): 2 orders re-played" in text


def test_the_ray_backend_records_replays_through_the_driver(tmp_path):
    """Ray tasks return their replays and this process writes them (a cluster's nodes may not
    share its disk); under CI=true (the ray extra installed) this test must run."""
    import importlib.util
    import os

    if importlib.util.find_spec("ray") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail('CI=true: the ray extra must be installed (pip install "ambush_env[ray]")')
        pytest.skip("Ray is not installed (the ray extra)")
    suite = tmp_path / "s.yaml"
    suite.write_text(
        "name: s\nmissions: [jeep_run]\nseeds: {start: 3, count: 2}\n", encoding="utf-8"
    )
    res = bench.run_bench(
        "heuristic",
        str(suite),
        progress=False,
        backend="ray",
        workers=2,
        save_replays=tmp_path / "rp",
    )
    assert not any("_replay" in e for e in res["_episodes"])
    files = sorted((tmp_path / "rp").iterdir())
    assert [p.name for p in files] == ["jeep_run__regular__3.jsonl", "jeep_run__regular__4.jsonl"]
    assert all(R.simulate(R.load(p)).verified for p in files)
