"""The ``ambush`` command line (docs/API.md, binding): every subcommand runs end to end."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from argparse import Namespace

import pytest

from ambush_env.cli import build_parser, cmd_play, cmd_replay, load_replay, main


def test_missions_lists_the_reference_mission(capsys):
    assert main(["missions"]) == 0
    out = capsys.readouterr().out
    assert "farm_assault" in out and "ambush/FarmAssault-v0" in out


def test_speed_prints_and_writes_steps_per_second(tmp_path, capsys):
    out = tmp_path / "speed.json"
    assert (
        main(
            [
                "speed",
                "--mission",
                "farm_assault",
                "--steps",
                "300",
                "--json",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["steps_per_second"] > 0 and data["steps"] == 300
    assert "steps/s" in capsys.readouterr().out


def test_speed_compares_missions_in_one_run(tmp_path, capsys):
    """``--mission`` twice: both measured in one process, interleaved, with medians over the
    repeats and each mission's CPU rate as a ratio of the first's (issue 11's speed bar)."""
    out = tmp_path / "cmp.json"
    argv = [
        "speed",
        "--mission",
        "farm_assault",
        "--mission",
        "tank_hunt",
        "--steps",
        "200",
        "--repeats",
        "3",
        "--json",
        str(out),
    ]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert [m["mission"] for m in data["missions"]] == ["farm_assault", "tank_hunt"]
    assert data["repeats"] == 3 and all(len(m["runs"]) == 3 for m in data["missions"])
    assert all(r["steps"] == 200 for m in data["missions"] for r in m["runs"])
    farm, tank = data["missions"]
    assert data["ratios"]["farm_assault"] == 1.0
    assert data["ratios"]["tank_hunt"] == round(
        tank["cpu_steps_per_second"] / farm["cpu_steps_per_second"], 3
    )
    rates = sorted(r["cpu_steps_per_second"] for r in tank["runs"])
    assert tank["cpu_steps_per_second"] == rates[1]  # the median of three
    assert data["steps_per_second"] == farm["steps_per_second"]  # docs/API.md's key: the first's
    text = capsys.readouterr().out
    assert "tank_hunt" in text and "of farm_assault" in text


def test_speed_options_all_have_help(capsys):
    with pytest.raises(SystemExit):
        main(["speed", "--help"])
    text = capsys.readouterr().out
    for opt in (
        "--mission",
        "--steps",
        "--repeats",
        "--seed",
        "--opponent",
        "--json",
        "--no-progress",
    ):
        line = next(ln for ln in text.splitlines() if ln.strip().startswith(opt))
        assert len(line.split()) > 2, f"no help text: {line!r}"  # option, metavar, help


def test_bench_defaults_to_the_smoke_suite(tmp_path, capsys):
    out = tmp_path / "b.json"
    rc = main(
        ["bench", "--agent", "random", "--episodes", "2", "--json", str(out), "--no-progress"]
    )
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["suite"] == "smoke" and data["seeds"] == [10000, 10001]
    assert "win rate" in capsys.readouterr().out


def test_unknown_suite_or_mission_is_a_clean_error(capsys):
    assert main(["bench", "--agent", "random", "--suite", "nope", "--no-progress"]) == 2
    assert "unknown benchmark suite" in capsys.readouterr().err
    assert main(["speed", "--mission", "nope", "--steps", "10"]) == 2
    assert "farm_assault" in capsys.readouterr().err


def test_play_by_numbers_then_replay_the_saved_game(tmp_path):
    replay = tmp_path / "game.json"
    args = Namespace(mission="farm_assault", seed=3, opponent="regular", save=str(replay))
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("0\n0\nx\n1\n0\nq\n"), stdout=out) == 0
    text = out.getvalue()
    assert "order>" in text and "type a number" in text and "replay saved" in text
    rec = load_replay(replay)  # the JSON Lines replay format (ambush_env.replay)
    assert rec.header["mission"] == "farm_assault" and len(rec.actions) == 4
    out2 = io.StringIO()
    assert cmd_replay(Namespace(file=str(replay), quiet=False), stdout=out2) == 0
    assert "VP" in out2.getvalue()


def test_rules_option_for_speed_and_play(tmp_path, capsys):
    """``--rules d100`` (seed 003's module) reaches the env in ``speed`` and ``play``, and the
    saved replay keeps it (``replay`` plays it back under the same rules)."""
    out = tmp_path / "s.json"
    assert (
        main(
            [
                "speed",
                "--mission",
                "tank_hunt",
                "--steps",
                "300",
                "--rules",
                "d100",
                "--no-progress",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    assert json.loads(out.read_text())["rules"] == "d100"
    with pytest.raises(SystemExit):
        main(["speed", "--rules", "d99"])
    replay = tmp_path / "g.json"
    args = Namespace(
        mission="tank_hunt", seed=1, opponent="regular", rules="d100", save=str(replay)
    )
    assert cmd_play(args, stdin=io.StringIO("0\nq\n"), stdout=io.StringIO()) == 0
    assert load_replay(replay).header["rules"] == "d100"
    assert cmd_replay(Namespace(file=str(replay), quiet=True), stdout=io.StringIO()) == 0


def test_train_subcommand_runs_a_tiny_config(tmp_path):
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(
        "mission: farm_assault\ntotal_timesteps: 128\nn_envs: 2\nn_steps: 32\nbatch_size: 32\nn_epochs: 1\n"
        "features_dim: 16\ncnn_channels: [4, 4]\nnet_arch: [8]\ncheckpoint_freq: 0\nprogress_bar: false\n"
    )
    assert (
        main(
            ["train", "--config", str(cfg), "--log-dir", str(tmp_path / "runs"), "--run-name", "t"]
        )
        == 0
    )
    assert (tmp_path / "runs" / "t" / "final_model.zip").exists()


def test_parser_has_the_binding_subcommands():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = set(sub.choices)
    assert {"bench", "train", "speed", "play", "replay"} <= names
    if importlib.util.find_spec("ambush_env.cli_los") is not None:
        assert "los" in names


def test_module_entry_point_runs():
    r = subprocess.run(
        [sys.executable, "-m", "ambush_env.cli", "missions"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and "farm_assault" in r.stdout


# -- bad input gives a clear error, never a traceback (acceptance-test findings) -------------
@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--agent", "random", "--episodes", "0"],
        ["bench", "--agent", "random", "--workers", "-1"],
        ["speed", "--steps", "-5"],
        ["speed", "--seed", "-1"],
        ["play", "--seed", "-1"],
        ["los", "farm_assault", "A1", "C2", "--sight-cap", "-1"],
    ],
)
def test_bad_numbers_are_refused_by_the_parser(argv, capsys):
    """Counts and seeds are validated: argparse exits 2 with a message."""
    from ambush_env.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


def test_too_many_episodes_is_an_error(capsys):
    """docs/API.md: --episodes N takes the first N seeds of the suite's range; more than the
    suite has is an error, not a silent clamp."""
    from ambush_env.cli import main

    assert main(["bench", "--agent", "random", "--episodes", "999", "--no-progress"]) == 2
    assert "--episodes must be 1-20" in capsys.readouterr().err


@pytest.mark.parametrize(
    "content, field",
    [
        (None, "<file>"),
        ('{"mission": "farm_assault", "seed": 3, "actions": [0, 14,', "line"),
        ("{}", "mission"),
        ('{"mission": "farm_assault", "seed": -1, "actions": []}', "seed"),
        ('{"mission": "farm_assault", "seed": 1, "actions": [1.5, null]}', "actions"),
    ],
)
def test_replay_of_a_bad_file_is_a_clear_error(tmp_path, capsys, content, field):
    """``ambush replay`` validates its file: a DataError naming the file and field, exit 2."""
    from ambush_env.cli import main

    f = tmp_path / "r.json"
    if content is not None:
        f.write_text(content)
    assert main(["replay", str(f)]) == 2
    err = capsys.readouterr().err
    assert str(f) in err and field in err


def test_unknown_agent_and_missing_model_are_clear_errors(capsys):
    from ambush_env.cli import main

    assert main(["bench", "--agent", "foo", "--no-progress"]) == 2
    assert main(["bench", "--agent", "nosuch.zip", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "unknown agent 'foo'" in err and "nosuch.zip" in err
