"""Issue 23 done-when 3: bench results, replays and the campaign's squad file survive a kill.

Each command runs in a subprocess that the writer's fault-injection hook
(``AMBUSH_FAULT``, :func:`ambush_env.core.world.data.atomic_write`) SIGKILLs between a file's write
and its rename: the old file is then whole (byte for byte) or absent, never partial, and the
next run of the same command works.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from ambush_env import replay as R
from ambush_env.core.play import campaign as C
from ambush_env.core.world.data import FAULT_ENV

KILLED = -signal.SIGKILL

ONE_EPISODE = """\
name: one
description: "kill test: one short mission, one seed"
missions: [bridge_demolition]
opponents: [regular]
rules: standard
seeds: {start: 10000, count: 1}
"""


def ambush(
    *args: str, fault: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """``python -m ambush_env.cli ARGS`` with the fault hook set to ``fault`` (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    if fault:
        env[FAULT_ENV] = fault
    return subprocess.run(
        [sys.executable, "-m", "ambush_env.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
    )


def strays(folder: Path) -> list[str]:
    """The writer's temporary files left in ``folder``."""
    return sorted(p.name for p in folder.glob(".*.tmp"))


def _bench(tmp_path: Path, *extra: str, fault: str | None = None) -> subprocess.CompletedProcess:
    suite = tmp_path / "one.yaml"
    suite.write_text(ONE_EPISODE, encoding="utf-8")
    return ambush(
        "bench",
        "--suite",
        str(suite),
        "--agent",
        "random",
        "--no-progress",
        "--out-dir",
        str(tmp_path / "res"),
        *extra,
        fault=fault,
    )


def test_bench_results_survive_a_kill_between_write_and_rename(tmp_path):
    res = tmp_path / "res"
    first = _bench(tmp_path)
    assert first.returncode == 0, first.stderr
    (result,) = res.glob("*.json")
    before = result.read_bytes()
    board = (res / "leaderboard.md").read_bytes()
    killed = _bench(tmp_path, fault="after_write:*.json")
    assert killed.returncode == KILLED, killed.stderr
    assert result.read_bytes() == before  # the old result, whole
    assert (res / "leaderboard.md").read_bytes() == board
    assert [s for s in strays(res) if s.startswith(f".{result.name}.")]  # the kill hit the rename
    again = _bench(tmp_path)
    assert again.returncode == 0, again.stderr
    assert [p.name for p in res.glob("*.json")] == [result.name]  # the stray is no result
    assert json.loads(result.read_text(encoding="utf-8"))["suite"] == "one"


def test_replays_survive_a_kill_absent_then_whole(tmp_path):
    reps = tmp_path / "reps"
    killed = _bench(tmp_path, "--save-replays", str(reps), fault="during_write:*.jsonl")
    assert killed.returncode == KILLED, killed.stderr
    assert list(reps.glob("*.jsonl")) == [] and strays(reps)  # no replay, not a partial one
    ok = _bench(tmp_path, "--save-replays", str(reps))
    assert ok.returncode == 0, ok.stderr
    (rep_file,) = reps.glob("*.jsonl")
    before = rep_file.read_bytes()
    assert R.simulate(R.load(rep_file)).verified
    killed = _bench(tmp_path, "--save-replays", str(reps), fault="during_write:*.jsonl")
    assert killed.returncode == KILLED, killed.stderr
    assert rep_file.read_bytes() == before  # the old replay, whole
    assert R.simulate(R.load(rep_file)).verified


def test_the_squad_file_survives_a_kill_absent_then_whole(tmp_path):
    sq = tmp_path / "squad.yaml"
    args = ("campaign", "--squad-file", str(sq), "--campaign", "first_push", "--agent", "random")
    killed = ambush(*args, fault="after_write:squad.yaml")  # the new campaign's first save
    assert killed.returncode == KILLED, killed.stderr
    assert not sq.exists() and strays(tmp_path)
    first = ambush(*args)
    assert first.returncode == 0, first.stderr
    assert C.read_squad_file(sq).next == 1
    before = sq.read_bytes()
    killed = ambush(*args, fault="after_write:squad.yaml")  # the save after mission 2
    assert killed.returncode == KILLED, killed.stderr
    assert "resumed" in killed.stdout
    assert sq.read_bytes() == before  # the old squad file, whole
    again = ambush(*args)
    assert again.returncode == 0, again.stderr
    assert C.read_squad_file(sq).next == 2
