"""``core.data.write_text_atomic``: the one writer of replays, viewers, results and the
leaderboard ("a saved file is written whole or not at all")."""

from __future__ import annotations

import os
import stat

import pytest

from ambush_env.core.world import data


def test_writes_whole_file_readable_by_all(tmp_path):
    p = data.write_text_atomic("héllo\n", tmp_path / "sub" / "a.txt", what="replay")
    assert p.read_text(encoding="utf-8") == "héllo\n"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o644
    assert sorted(x.name for x in p.parent.iterdir()) == ["a.txt"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "a.txt"
    p.write_text("old", encoding="utf-8")

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        data.write_text_atomic("new", p)
    assert p.read_text(encoding="utf-8") == "old"
    assert [x.name for x in tmp_path.iterdir()] == ["a.txt"]


def test_a_folder_is_refused_naming_what_the_file_is(tmp_path):
    with pytest.raises(
        IsADirectoryError, match="is a folder: give a file name for the HTML viewer"
    ):
        data.write_text_atomic("x", tmp_path, what="HTML viewer")


def test_bytes_through_a_file_object_and_an_existing_file_keeps_its_mode(tmp_path):
    p = tmp_path / "m.zip"
    p.write_bytes(b"old")
    os.chmod(p, 0o600)
    with data.atomic_write(p, what="model", binary=True) as f:
        f.write(b"\x00\x01new")
    assert p.read_bytes() == b"\x00\x01new"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert [x.name for x in tmp_path.iterdir()] == ["m.zip"]


def test_an_error_inside_the_block_leaves_the_old_file_and_no_temporary(tmp_path):
    p = tmp_path / "a.json"
    p.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError, match="half-way"), data.atomic_write(p) as f:
        f.write("new, cut")
        raise RuntimeError("half-way")
    assert p.read_text(encoding="utf-8") == "old"
    assert [x.name for x in tmp_path.iterdir()] == ["a.json"]


_WRITE = (
    "import sys; from ambush_env.core.world.data import write_text_atomic; "
    "write_text_atomic('new text ' * 100, sys.argv[1])"
)


@pytest.mark.parametrize("mode", ["after_write", "during_write"])
def test_the_fault_hook_kills_between_the_write_and_the_rename(tmp_path, mode):
    """``AMBUSH_FAULT=<mode>:<glob>`` SIGKILLs the writing process before the rename: the old
    file stays whole and the temporary file is what a kill there leaves (whole, or cut)."""
    import signal
    import subprocess
    import sys

    p = tmp_path / "r.json"
    p.write_text("old", encoding="utf-8")
    env = {**os.environ, data.FAULT_ENV: f"{mode}:*.json"}
    run = subprocess.run(
        [sys.executable, "-c", _WRITE, str(p)], env=env, capture_output=True, timeout=60
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert p.read_text(encoding="utf-8") == "old"
    (tmp,) = (x for x in tmp_path.iterdir() if x.name != "r.json")
    assert tmp.name.startswith(".r.json.") and tmp.name.endswith(".tmp")
    assert tmp.stat().st_size == (900 if mode == "after_write" else 450)
    # another name does not match the glob: written
    other = tmp_path / "r.txt"
    run = subprocess.run(
        [sys.executable, "-c", _WRITE, str(other)], env=env, capture_output=True, timeout=60
    )
    assert run.returncode == 0 and other.read_text(encoding="utf-8") == "new text " * 100


def test_a_malformed_fault_hook_is_refused_naming_it(tmp_path, monkeypatch):
    from ambush_env.core.model.errors import ConfigError

    monkeypatch.setenv(data.FAULT_ENV, "explode:*.json")
    with pytest.raises(
        ConfigError, match="AMBUSH_FAULT='explode:\\*.json': expected after_write:GLOB"
    ):
        data.write_text_atomic("x", tmp_path / "a.json")
    assert list(tmp_path.iterdir()) == []
