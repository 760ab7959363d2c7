"""Golden playthroughs: every mission replays exactly as its committed file (OpenSpiel-style).

A failure means behaviour changed. If the change is intended, run
``python scripts/regen_golden.py`` and review the diff of ``tests/golden/`` before committing.
"""

from __future__ import annotations

import difflib

import pytest

from ambush_env.core.world.missions import list_missions
from ambush_env.playthrough import golden_path, playthrough


@pytest.mark.parametrize("mission", list_missions())
def test_golden_playthrough(mission):
    """Each shipped mission has a committed golden playthrough, and it replays identically."""
    path = golden_path(mission)
    assert path.exists(), f"no golden file for {mission}: run scripts/regen_golden.py"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(mission)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), "committed", "replayed", n=2
            )
        )
        pytest.fail(f"golden playthrough of {mission} changed:\n{diff[:6000]}")


def test_reference_golden_shows_the_combat_rules():
    """Issue 4: the reference mission's golden playthrough resolves fire, a grenade and an
    assault, each with its dice rolls in the events."""
    import json

    text = golden_path("farm_assault").read_text(encoding="utf-8")
    events = [
        json.loads(line.split("event ", 1)[1])
        for line in text.splitlines()
        if line.startswith("  event ")
    ]
    for kind in ("fire", "throw", "assault"):
        shown = [e for e in events if e["type"] == kind]
        assert shown, f"no {kind} in the golden playthrough"
        assert all(e.get("rolls") for e in shown if e.get("result") != "jammed"), kind


def test_reference_golden_shows_the_vehicles():
    """Issue 5 / seed 000: the reference playthrough gets into the jeep, drives it, captures
    the parked Kübelwagen (seed 002 p. 27), and a German fires at a car."""
    import json

    text = golden_path("farm_assault").read_text(encoding="utf-8")
    events = [
        json.loads(line.split("event ", 1)[1])
        for line in text.splitlines()
        if line.startswith("  event ")
    ]
    kinds = {e["type"] for e in events}
    assert {"board", "drive", "vehicle_captured", "leave_vehicle", "fire_vehicle"} <= kinds


VEHICLE_MISSIONS = ("jeep_run", "tank_hunt")


def test_vehicle_goldens_show_the_vehicle_rules():
    """Issue 11, done-when 3: between them the goldens of the two vehicle missions show a tank
    spending Crew Points, a Hit Chart roll, a penetration, an Accident Check, a German vehicle
    acting from its card and a grenade or satchel against a vehicle (seed 000 p. 30-33); the
    events are those of ``playthrough.VEHICLE_FEATURES``."""
    from ambush_env.playthrough import VEHICLE_FEATURES, features, golden_events

    shown: dict[str, set[str]] = {}
    for mission in VEHICLE_MISSIONS:
        shown[mission] = features(golden_events(golden_path(mission).read_text(encoding="utf-8")))
    missing = set(VEHICLE_FEATURES) - set().union(*shown.values())
    assert not missing, f"the vehicle goldens never show {sorted(missing)} (they show {shown})"
    # the tank's own rules are in the tank hunt
    assert {"tank_crew_points", "german_vehicle_card"} <= shown["tank_hunt"]


def test_vehicle_feature_predicates_read_the_engine_events():
    """The predicates name event types the engine has (core/model/events.py)."""
    from ambush_env.core.model import events as E

    kinds = {
        c.type
        for c in vars(E).values()
        if isinstance(c, type) and issubclass(c, E.Event) and c is not E.Event
    }
    for kind in (
        "tank_task",
        "fire_vehicle",
        "accident_check",
        "german_card",
        "throw_into",
        "blast_vehicle",
    ):
        assert kind in kinds, kind
