"""The README, the front page (issue 24, done-when 3): at most 250 lines; its pictures of play
exist, are PNGs and stay small; its example runs; its install command is the one the fresh
install test uses; its missions table names every shipped mission by its current id; its
baseline rows are what ``scripts/baseline_table.py`` makes of ``benchmarks/baseline/``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 250
MAX_PICTURE_BYTES = 300_000
PICTURES = ("docs/img/tank_hunt_frame.png", "docs/img/replay_viewer.png")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of the README's ``## title`` section, up to the next ``## ``."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", _text(), flags=re.M | re.S)
    assert m, f"README.md has no '## {title}' section"
    return m.group(1)


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_readme_is_a_front_page_of_at_most_250_lines():
    n = _text().count("\n")
    assert n <= MAX_LINES, f"README.md has {n} lines (at most {MAX_LINES}): move detail to docs/"


def test_the_pictures_of_play_are_shown_small_pngs():
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", _text())
    for rel in PICTURES:
        assert rel in images, f"README.md does not show {rel}"
        data = (ROOT / rel).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{rel} is not a PNG"
        assert len(data) < MAX_PICTURE_BYTES, (
            f"{rel} is {len(data)} bytes (under {MAX_PICTURE_BYTES}): "
            f"python scripts/regen_readme_images.py writes them small"
        )


def test_the_first_episode_example_runs_to_the_end_of_a_mission():
    from ambush_env.core.model.types import RESULT_NAMES

    blocks = re.findall(r"```python\n(.*?)```", _section("A first episode"), flags=re.S)
    assert len(blocks) == 1, "the 'A first episode' section should hold one Python example"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 12, "the example should stay about ten lines"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md:A first episode", "exec"), {"__name__": "readme_example"})
    result, vp, *reason = out.getvalue().split()  # print(info["result"], info["vp"], ...)
    assert result in RESULT_NAMES, out.getvalue()
    assert re.fullmatch(r"-?\d+", vp) and reason, out.getvalue()


def test_the_quick_start_install_is_the_fresh_install_tests_one():
    quick = _script("check_envs").QUICK_START  # what tests/test_fresh_install.py installs
    setup = re.findall(r"```bash\n(.*?)```", _section("Quick start"), flags=re.S)
    assert setup, "the Quick start has no bash block"
    lines = [x.strip() for x in setup[0].strip().splitlines()]
    assert lines[0].startswith("python3 -m venv .venv"), lines
    assert shlex.split(lines[1]) == ["pip", "install", *quick], lines[1]


def test_the_missions_table_names_every_mission_by_its_current_id():
    from ambush_env import list_missions
    from ambush_env.env.registration import env_id, procedural_id

    rows = {
        cells[0].strip("`"): cells[1].strip("`")
        for line in _section("Missions").splitlines()
        if line.startswith("| ") and not line.startswith("| mission")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    expected = {m: env_id(m) for m in list_missions()} | {"procedural": procedural_id()}
    assert rows == expected


def test_the_baseline_rows_are_the_published_results():
    pytest.importorskip("scipy")
    table = _script("baseline_table")
    made = {
        row.split(" | ")[0].lstrip("| "): row
        for row in map(table.row, map(str, sorted((ROOT / "benchmarks/baseline").glob("*.json"))))
    }
    shown = [x for x in _section("Baseline").splitlines() if re.match(r"^\| \w+@[0-9a-f]{8} ", x)]
    assert shown, "the Baseline section shows no result row"
    assert any(x.startswith("| maskable_ppo") for x in shown), "the headline MaskablePPO row"
    for line in shown:
        agent = line.split(" | ")[0].lstrip("| ")
        assert line == made.get(agent), f"{agent}: README {line!r}, results {made.get(agent)!r}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
