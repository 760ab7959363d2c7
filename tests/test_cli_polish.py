"""Issue 15 (command-line polish): ``--version``, ``ambush missions`` with the procedural and
campaign ids, a closed pipe ends quietly, an unknown map lists the shipped ones, a typed error is
one line."""

from __future__ import annotations

import json
import random
import re
import shlex
import subprocess
import sys
from argparse import Namespace
from importlib import metadata
from io import StringIO
from pathlib import Path

import pytest

import ambush_env
from ambush_env import cli
from ambush_env.cli import cmd_replay, main
from ambush_env.core.model.errors import DataError
from ambush_env.core.play.campaign import list_campaigns
from ambush_env.core.play.procedural import HELD_OUT_SEEDS, TRAIN_SEEDS
from ambush_env.core.world.board import list_maps, load_board
from ambush_env.env.registration import CAMPAIGN_ID, ambush_id, env_id, procedural_id


def _ambush() -> str:
    """The command that runs ``ambush``: the venv's console script, else ``python -m``."""
    script = Path(sys.executable).with_name("ambush")
    if script.exists():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m ambush_env.cli"


def _piped(command: str) -> subprocess.CompletedProcess:
    """``command | head -1`` in bash with pipefail: the exit status is ambush's."""
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -1"],
        capture_output=True,
        text=True,
        timeout=120,
    )


# -- --version -------------------------------------------------------------------------------
def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert re.fullmatch(rf"ambush {re.escape(ambush_env.__version__)}( \(git [0-9a-f]+\))?\n", out)
    assert metadata.version("ambush_env") == ambush_env.__version__  # the installed metadata agrees


# -- ambush missions -------------------------------------------------------------------------
def test_missions_lists_missions_then_procedural_and_campaign_ids(capsys):
    assert main(["missions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    missions = ambush_env.list_missions()
    # the shipped missions first, one line each, in the format of before
    assert lines[: len(missions)] == [
        f"{m:<24} {env_id(m)}  (also {env_id(m, version=3)}, {env_id(m, version=2)}, "
        f"{env_id(m, version=1)}, {env_id(m, version=0)})"
        for m in missions
    ]
    assert lines[0] == (
        "farm_assault             ambush/FarmAssault-v4  "
        "(also ambush/FarmAssault-v3, ambush/FarmAssault-v2, ambush/FarmAssault-v1, "
        "ambush/FarmAssault-v0)"
    )
    assert lines[len(missions)] == ""
    rest = lines[len(missions) + 1 :]
    any_line, proc_line, *campaign_lines = rest
    assert any_line.split()[2:4] == [ambush_id(), "(also"]
    assert proc_line.split()[:2] == ["procedural", procedural_id()]
    assert (
        f"(also {procedural_id(version=3)}, {procedural_id(version=2)}, "
        f"{procedural_id(version=1)}, {procedural_id(version=0)})" in proc_line
    )
    assert (
        f"train seeds {TRAIN_SEEDS.start}..{TRAIN_SEEDS.stop - 1}, "
        f"held-out seeds {HELD_OUT_SEEDS.start}..{HELD_OUT_SEEDS.stop - 1}"
    ) in proc_line
    assert "train seeds 0..999999, held-out seeds 1000000..1000999" in proc_line
    assert campaign_lines == [
        f"{'campaign ' + c:<24} {CAMPAIGN_ID}  campaign={c}" for c in list_campaigns()
    ]
    assert "first_push" in list_campaigns()


# -- a closed pipe ---------------------------------------------------------------------------
def _long_replay(tmp_path: Path) -> Path:
    """A whole random-play game of village_fight in the plain replay format ``ambush play
    --save`` writes; its replay prints far more than a pipe holds (64 KiB), so ``head -1``
    closes the pipe while ambush is still writing."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="village_fight")
    env.reset(seed=0)
    rng = random.Random(0)
    actions = []
    while True:
        a = int(rng.choice(list(env.legal_actions())))
        actions.append(a)
        _obs, _r, term, trunc, _info = env.step(a)
        if term or trunc:
            break
    path = tmp_path / "replay.json"
    path.write_text(
        json.dumps(
            {
                "mission": "village_fight",
                "seed": 0,
                "opponent": "regular",
                "rules": "standard",
                "actions": actions,
            }
        )
    )
    return path


def test_replay_into_head_exits_0_without_a_traceback(tmp_path):
    path = _long_replay(tmp_path)
    text = StringIO()
    assert cmd_replay(Namespace(file=str(path), quiet=False), stdout=text) == 0
    assert len(text.getvalue()) > 80_000  # longer than the pipe's buffer and head's read
    r = _piped(f"{_ambush()} replay {shlex.quote(str(path))}")
    assert r.returncode == 0, r.stderr
    assert r.stdout == text.getvalue().splitlines(keepends=True)[0]
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr
    assert "Broken pipe" not in r.stderr and "Exception ignored" not in r.stderr
    assert r.stderr == ""


@pytest.mark.parametrize("args", ["missions", "--help"])
def test_short_output_into_head_exits_0(args):
    r = _piped(f"{_ambush()} {args}")
    assert r.returncode == 0 and r.stderr == "" and r.stdout.count("\n") == 1


def test_a_broken_pipe_that_is_not_stdout_is_an_error(monkeypatch, capsys):
    """A BrokenPipeError while stdout is open (here captured, no pipe at all), e.g. a dead
    worker's pipe, is no quiet success: one error line and status 2."""

    def broken(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "cmd_missions", broken)
    assert main(["missions"]) == 2
    assert capsys.readouterr().err == "ambush: error: [Errno 32] Broken pipe\n"


def test_a_broken_pipe_of_another_pipe_into_an_open_stdout_is_an_error(tmp_path):
    """The same through a real pipe that head keeps reading: status 2, no traceback."""
    code = (
        "import sys; from ambush_env import cli\n"
        "def broken(args): raise BrokenPipeError(32, 'Broken pipe')\n"
        "cli.cmd_missions = broken\n"
        "sys.exit(cli.main(['missions']))\n"
    )
    r = subprocess.run(
        [
            "bash",
            "-c",
            f"set -o pipefail; {shlex.quote(sys.executable)} -c {shlex.quote(code)} | cat",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and r.stderr == "ambush: error: [Errno 32] Broken pipe\n"


def test_a_closed_stdout_stops_the_printing_not_the_work(tmp_path):
    """``ambush bench … | head -1``: the results file and the leaderboard are still written
    after the reader has gone (cli._ReaderGoneStdout)."""
    out = tmp_path / "out"
    r = _piped(
        f"{_ambush()} bench --suite smoke --agent random --episodes 2 --no-progress "
        f"--json {shlex.quote(str(tmp_path / 'r.json'))} --out-dir {shlex.quote(str(out))}"
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["agent"] == "random"
    assert (out / "leaderboard.md").is_file()


def test_a_closed_stdout_keeps_the_commands_exit_status(tmp_path):
    """A command that prints far more than the pipe holds, then writes a file and fails
    (as a replay mismatch does): the file is written and the status is the command's, 1."""
    done = tmp_path / "done.txt"
    code = (
        "import sys; from ambush_env import cli\n"
        "def long(args):\n"
        "    for k in range(50_000): print('line', k)\n"
        f"    open({str(done)!r}, 'w').write('finished')\n"
        "    return 1\n"
        "cli.cmd_missions = long\n"
        "sys.exit(cli.main(['missions']))\n"
    )
    r = _piped(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}")
    assert r.returncode == 1 and r.stderr == "", r.stderr
    assert r.stdout == "line 0\n"
    assert done.read_text() == "finished"


def test_the_stdout_wrapper_is_removed_after_the_command(capsys):
    before = sys.stdout
    assert main(["missions"]) == 0
    assert sys.stdout is before


# -- errors ----------------------------------------------------------------------------------
def test_an_unknown_map_lists_the_shipped_ones():
    shipped = list_maps()
    assert {"farm_assault", "los_village"} <= set(shipped)
    assert shipped == sorted(
        p.stem for p in (Path(ambush_env.__file__).parent / "data" / "maps").glob("*.yaml")
    )
    with pytest.raises(DataError) as e:
        load_board("no_such_map")
    assert e.value.field == "<file>"
    assert e.value.problem == (
        f"file not found, and no shipped map of that name (shipped maps: {', '.join(shipped)})"
    )


def test_a_missing_map_path_also_lists_the_shipped_maps(tmp_path):
    with pytest.raises(DataError) as e:
        load_board(tmp_path / "nope.yaml")
    assert e.value.problem == f"file not found (shipped maps: {', '.join(list_maps())})"
    load_board("los_village")  # a shipped name still loads, with or without .yaml
    load_board("los_village.yaml")


def test_ambush_los_with_an_unknown_map_names_the_shipped_ones(capsys):
    assert main(["los", "no_such_map", "A1", "A2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "shipped maps: " in err
    assert all(m in err for m in list_maps())


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["render", "--mission", "operation_cobra"],
            "unknown mission 'operation_cobra'; known missions: farm_assault",
        ),
        (
            ["campaign", "--squad-file", "{tmp}/squad.yaml", "--campaign", "no_such_chain"],
            "unknown campaign 'no_such_chain'; known: first_push",
        ),
        (
            ["speed", "--mission", "no_such_mission", "--steps", "10"],
            "known missions: farm_assault",
        ),
    ],
)
def test_a_typed_error_is_one_line_and_exit_status_2(argv, says, tmp_path, capsys):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "render":
        argv += ["--out", str(tmp_path / "map.png")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ambush: error: ") and err.count("\n") == 1
    assert says in err and "Traceback" not in err


@pytest.mark.parametrize(
    "agent, message",
    [
        (
            "nosuch",
            "unknown agent 'nosuch': use random, do_nothing, heuristic, withdraw, rush, stall, "
            "drive_off or the path of a model .zip",
        ),
        ("nosuch.zip", "agent model 'nosuch.zip' not found"),
    ],
)
def test_a_bad_agent_fails_before_the_progress_bar(agent, message, capsys):
    """``ambush bench --agent X``: one error line and no progress bar (agents.check_agent_spec)."""
    assert main(["bench", "--agent", agent, "--episodes", "1"]) == 2
    err = capsys.readouterr().err
    assert err == f"ambush: error: --agent: {message}\n"  # the option named (issue 23)
