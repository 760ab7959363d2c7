"""Benchmark figures (issue 14): one titled PNG per suite from result files, learning curves
from TensorBoard logs, and ``ambush plot`` writing both."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from ambush_env import plots
from ambush_env.cli import main


def _result(
    agent: str,
    sha: str,
    vps: dict[str, list[int]],
    suite: str = "tiny",
    rules: str = "standard",
    wins: int = 0,
    norm: float | None = None,
) -> dict:
    missions = {}
    for k, v in vps.items():
        missions[k] = {
            "episodes": len(v),
            "win_rate": wins / len(v),
            "win_rate_ci95": [0.0, 0.5],
            "mean_vp": sum(v) / len(v),
            "mean_result": -1.0,
            "mean_steps": 100.0,
            "us_killed": 0.0,
            "us_incapacitated": 0.0,
            "us_wounded": 0.0,
            "germans_killed": 0.0,
            "germans_captured": 0.0,
            "seeds": [10000, 10000 + len(v) - 1],
            "vp": v,
        }
    r = {
        "suite": suite,
        "agent": agent,
        "rules": rules,
        "missions": missions,
        "steps_per_second": 1.0,
        "seeds": [10000, 10003],
        "version": "0.1.0",
        "provenance": {"agent_sha256": sha * 64, "full_suite": True},
    }
    if norm is not None:
        r["normalised_score"] = {
            "iqm": norm,
            "iqm_ci95": [norm - 0.2, norm + 0.1],
            "tasks": list(vps),
            "episodes_per_task": 4,
        }
    return r


def _nontrivial(path: Path) -> None:
    from PIL import Image

    assert path.exists() and path.stat().st_size > 10_000, path
    img = np.asarray(Image.open(path).convert("RGB"))
    assert img.shape[0] > 200 and img.shape[1] > 400
    colours = {tuple(c) for c in img.reshape(-1, 3)[::7]}
    assert len(colours) > 20  # bars, text and axes, not a blank canvas


def test_one_titled_figure_per_suite_and_rule_set(tmp_path):
    results = [
        _result(
            "do_nothing", "0", {"a/regular": [0, 0, 0, 0], "b/regular": [0, 0, 0, 0]}, norm=-0.1
        ),
        _result(
            "heuristic",
            "1",
            {"a/regular": [9, 12, 3, 20], "b/regular": [5, -2, 7, 1]},
            wins=2,
            norm=1.0,
        ),
        _result("random", "2", {"a/regular": [-3, 1, 0, -8]}, rules="d100"),
        _result("random", "2", {"a/regular": [-3, 1, 0, -8]}, suite="other"),
    ]
    paths = plots.plot_suites(results, tmp_path)
    assert sorted(p.name for p in paths) == ["other.png", "tiny.png", "tiny__d100.png"]
    for p in paths:
        _nontrivial(p)
    with pytest.raises(ValueError, match="one figure per suite"):
        plots.plot_suite(results, tmp_path / "x.png")


def test_a_result_whose_tasks_are_all_dropped_plots_without_a_normalised_panel(tmp_path):
    """Issue 25: a reference without do_nothing normalises no task; the result's aggregate
    then lists the dropped tasks and has no IQM, and the figure leaves the panel out."""
    r = _result("random", "2", {"a/regular": [-3, 1, 0, -8]})
    r["normalised_score"] = {
        "tasks": [],
        "dropped": {"a/regular": "the reference lacks do_nothing"},
    }
    fig = plots.plot_suite([r], tmp_path / "dropped.png")
    _nontrivial(fig)
    with_panel = _result("heuristic", "1", {"a/regular": [9, 12, 3, 20]}, norm=1.0)
    wide = plots.plot_suite([with_panel], tmp_path / "panel.png")
    from PIL import Image

    assert Image.open(wide).size[0] > Image.open(fig).size[0]  # the panel widens the figure


def test_the_vp_interval_is_the_normal_approximation():
    lo, hi = plots.vp_interval({"mean_vp": 2.0, "vp": [0, 4, 0, 4]})
    half = 1.959963984540054 * np.std([0, 4, 0, 4], ddof=1) / 2
    assert (lo, hi) == pytest.approx((2 - half, 2 + half))
    assert plots.vp_interval({"mean_vp": 3.0, "vp": [3]}) == (3.0, 3.0)
    assert plots.vp_interval({"mean_vp": 1.5}) == (1.5, 1.5)  # an older result without vp


def _write_events(folder: Path, tag_values: dict[str, list[tuple[int, float]]]) -> None:
    from tensorboard.compat.proto.event_pb2 import Event
    from tensorboard.compat.proto.summary_pb2 import Summary
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    w = EventFileWriter(str(folder))
    for tag, values in tag_values.items():
        for step, v in values:
            w.add_event(
                Event(
                    step=step,
                    wall_time=1.0 + step,
                    summary=Summary(value=[Summary.Value(tag=tag, simple_value=v)]),
                )
            )
    w.close()


def test_learning_curves_read_every_chunk_of_a_resumed_run(tmp_path):
    pytest.importorskip("tensorboard")
    tb = tmp_path / "runs" / "farm" / "tb"
    _write_events(
        tb / "MaskablePPO_1",
        {"ambush/vp": [(100, -2.0), (200, 0.0)], "ambush/win": [(100, 0.0), (200, 0.1)]},
    )
    _write_events(tb / "MaskablePPO_2", {"ambush/vp": [(300, 1.5), (400, 3.0)]})  # resumed
    scalars = plots.read_scalars(tb)
    assert scalars["ambush/vp"] == [(100, -2.0), (200, 0.0), (300, 1.5), (400, 3.0)]
    _nontrivial(plots.plot_learning_curves(tb, tmp_path / "curve.png"))
    with pytest.raises(FileNotFoundError):
        plots.read_scalars(tmp_path / "empty")
    _write_events(tmp_path / "other", {"time/fps": [(1, 5.0)]})
    with pytest.raises(ValueError, match="ambush/vp"):
        plots.plot_learning_curves(tmp_path / "other", tmp_path / "none.png")


def test_ambush_plot_writes_the_pngs(tmp_path, capsys):
    pytest.importorskip("tensorboard")
    res = tmp_path / "results"
    res.mkdir()
    for r in (
        _result("random", "2", {"a/regular": [-3, 1, 0, -8]}),
        _result("heuristic", "1", {"a/regular": [9, 12, 3, 20]}, wins=3),
    ):
        (res / f"tiny__{r['agent']}.json").write_text(json.dumps(r))
    _write_events(
        tmp_path / "runs" / "farm" / "tb" / "MaskablePPO_1", {"ambush/vp": [(1, 0.0), (2, 1.0)]}
    )
    out = tmp_path / "png"
    assert (
        main(
            [
                "plot",
                "--results",
                str(res),
                "--run",
                str(tmp_path / "runs" / "farm"),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert sorted(p.name for p in out.glob("*.png")) == ["learning_curve__farm.png", "tiny.png"]
    for p in out.glob("*.png"):
        _nontrivial(p)
    assert "wrote" in capsys.readouterr().out
    assert main(["plot", "--results", str(tmp_path / "nothing")]) == 2
