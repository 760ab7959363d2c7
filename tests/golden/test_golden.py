"""Golden playthroughs: every mission replays exactly as its committed file (OpenSpiel-style).

A failure means behaviour changed. If the change is intended, run
``python scripts/regen_golden.py`` and review the diff of ``tests/golden/`` before committing.
"""

from __future__ import annotations

import difflib

import pytest

from ambush_env.core.missions import list_missions
from ambush_env.playthrough import golden_path, playthrough


@pytest.mark.parametrize("mission", list_missions())
def test_golden_playthrough(mission):
    """Each shipped mission has a committed golden playthrough, and it replays identically."""
    path = golden_path(mission)
    assert path.exists(), f"no golden file for {mission}: run scripts/regen_golden.py"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(mission)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "committed", "replayed", n=2))
        pytest.fail(f"golden playthrough of {mission} changed:\n{diff[:6000]}")


def test_reference_golden_shows_the_combat_rules():
    """Issue 4: the reference mission's golden playthrough resolves fire, a grenade and an
    assault, each with its dice rolls in the events."""
    import json

    text = golden_path("farm_assault").read_text(encoding="utf-8")
    events = [json.loads(line.split("event ", 1)[1]) for line in text.splitlines()
              if line.startswith("  event ")]
    for kind in ("fire", "throw", "assault"):
        shown = [e for e in events if e["type"] == kind]
        assert shown, f"no {kind} in the golden playthrough"
        assert all(e.get("rolls") for e in shown if e.get("result") != "jammed"), kind


def test_reference_golden_shows_the_vehicles():
    """Issue 5 / seed 000: the reference playthrough gets into the jeep, drives it, captures
    the parked Kübelwagen (seed 002 p. 27), and a German fires at a car."""
    import json

    text = golden_path("farm_assault").read_text(encoding="utf-8")
    events = [json.loads(line.split("event ", 1)[1]) for line in text.splitlines()
              if line.startswith("  event ")]
    kinds = {e["type"] for e in events}
    assert {"board", "drive", "vehicle_captured", "leave_vehicle", "fire_vehicle"} <= kinds
