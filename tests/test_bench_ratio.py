"""benchmarks/bench_ratio.py: the pure helpers by default; real subprocess runs under -m slow."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_ratio.py"


@pytest.fixture(scope="module")
def br():
    spec = importlib.util.spec_from_file_location("bench_ratio", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_parser_defaults(br):
    args = br.build_parser().parse_args([])
    assert args.old == "5caa4aa" == br.DEFAULT_OLD
    assert args.new is None  # the working tree of the script's repository
    assert args.min_relative is None  # threshold off unless asked for
    assert args.json is None and args.worker is None
    assert args.steps > 0 and args.repeats > 0


@pytest.mark.parametrize(
    "bad", [["--steps", "0"], ["--repeats", "-1"], ["--min-relative", "0"], ["--steps", "x"]]
)
def test_parser_rejects(br, bad):
    with pytest.raises(SystemExit):
        br.build_parser().parse_args(bad)


def test_order_rotates(br):
    assert br.order_for_repeat(0) == ("minigrid", "old", "new")
    assert br.order_for_repeat(1) == ("old", "new", "minigrid")
    assert br.order_for_repeat(2) == ("new", "minigrid", "old")
    assert br.order_for_repeat(3) == br.order_for_repeat(0)


def _m(r, side, cpu, wall=None):
    return {"repeat": r, "side": side, "cpu_sps": cpu, "wall_sps": cpu if wall is None else wall}


def test_summarise_arithmetic(br):
    ms = [
        _m(0, "minigrid", 100),
        _m(0, "old", 200),
        _m(0, "new", 190),
        _m(1, "minigrid", 50),
        _m(1, "old", 100),
        _m(1, "new", 80),  # a slow repeat: ratios hold
        _m(2, "minigrid", 100),
        _m(2, "old", 300),
        _m(2, "new", 270),
    ]
    s = br.summarise(ms)
    cpu = s["cpu"]
    assert s["repeats"] == 3
    assert cpu["median_sps"] == {"minigrid": 100, "old": 200, "new": 190}
    assert cpu["ratio_per_repeat"]["old"] == [2.0, 2.0, 3.0]
    assert cpu["ratio_per_repeat"]["new"] == [1.9, 1.6, 2.7]
    assert cpu["ratio"] == {"old": 2.0, "new": 1.9}
    assert cpu["relative"] == pytest.approx(0.95)
    assert cpu["relative_per_repeat_median"] == pytest.approx(0.9)
    table = br.markdown_table(s, {"old": "o", "new": "n", "minigrid": "m"})
    assert "0.950" in table and "| 2.000 |" in table


def test_summarise_needs_all_sides(br):
    with pytest.raises(ValueError):
        br.summarise([_m(0, "minigrid", 1.0), _m(0, "old", 1.0)])
    with pytest.raises(ValueError):
        br.summarise([])


def test_write_json_atomic(br, tmp_path):
    out = tmp_path / "sub" / "r.json"
    br.write_json_atomic(out, {"a": 1})
    br.write_json_atomic(out, {"a": 2})
    assert json.loads(out.read_text()) == {"a": 2}
    assert [p.name for p in out.parent.iterdir()] == ["r.json"]  # no temp file left


@pytest.mark.slow
def test_real_run(br, tmp_path):
    pytest.importorskip("minigrid")
    out = tmp_path / "ratio.json"
    # Both sides as revisions (two temporary worktrees), so that half-done edits in the
    # checkout do not break this test.
    rc = br.main(
        [
            "--old",
            "HEAD",
            "--new",
            "HEAD",
            "--steps",
            "300",
            "--warmup",
            "10",
            "--repeats",
            "1",
            "--json",
            str(out),
        ]
    )
    assert rc == 0
    data = json.loads(out.read_text())
    files = {m["side"]: Path(m["module_file"]) for m in data["measurements"]}
    for side in ("old", "new"):  # each side ran from its own worktree, not from the checkout
        assert br.REPO_ROOT not in files[side].parents
    assert files["old"] != files["new"]
    assert data["summary"]["cpu"]["relative"] > 0
    listed = br._git("worktree", "list")
    for side in ("old", "new"):  # and the worktrees are gone again
        tree = files[side].parent.parent
        assert not tree.exists() and str(tree) not in listed
