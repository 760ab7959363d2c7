"""``core.data.write_text_atomic``: the one writer of replays, viewers, results and the
leaderboard ("a saved file is written whole or not at all")."""

from __future__ import annotations

import os
import stat

import pytest

from ambush_env.core import data


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
    with pytest.raises(IsADirectoryError, match="is a folder: give a file name for the HTML viewer"):
        data.write_text_atomic("x", tmp_path, what="HTML viewer")
