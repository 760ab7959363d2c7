"""The three issue-13 missions of the objective kinds are real missions (RULES.md §15): at
least three German placements from different paragraphs, ten trigger hexes, an event table
over the whole d10, a briefing; and each is built on its objective kind as its header says."""

from __future__ import annotations

import pytest

from ambush_env.core.world.missions import Minefield, list_missions, load_mission
from ambush_env.core.world.squads import load_squad

MISSIONS = {"prisoner_snatch": "capture", "night_patrol": "hold", "bridge_demolition": "demolish"}


@pytest.mark.parametrize("mission", MISSIONS)
def test_meets_rules_15_minimums(mission):
    assert mission in list_missions()
    m = load_mission(mission)
    assert len({n for n, _ in m.placements()}) >= 3
    assert sum(1 for t in m.triggers.values() if not t.is_event) >= 10
    assert any(t.is_event for t in m.triggers.values())
    faces = sorted(r for row in m.events for r in range(row.rolls[0], row.rolls[1] + 1))
    assert faces == list(range(10))
    assert len(m.briefing) > 300
    assert m.objective.kind == MISSIONS[mission]
    assert m.results.draw > 0  # a passive squad (0 VP) loses


def test_prisoner_snatch_places_the_officer_it_must_capture():
    """The capture objective's card (officer) is placed by the command post's paragraphs,
    and the prisoner must be marched off (march_off), which scores its own VP."""
    m = load_mission("prisoner_snatch")
    assert m.objective.card == "officer" and m.objective.march_off
    assert {n for n, e in m.placements() if e.card == "officer"} == {23, 24}
    assert m.vp.prisoner_marched_off > 0


def test_night_patrol_is_at_night_through_a_minefield():
    """sight_cap 3 (night, RULES.md §3); the wire's paragraphs lay the anti-personnel field
    known (PC check passed) or hidden, never on the lane or the gap."""
    m = load_mission("night_patrol")
    assert m.rules.sight_cap == 3
    fields = [e for para in m.paragraphs.values() for e in para if isinstance(e, Minefield)]
    assert sorted(f.known for f in fields) == [False, True]
    assert all(f.kind == "anti_personnel" for f in fields)
    for f in fields:
        assert not {"G9", "G10", "L9", "L10"} & set(f.hexes)
    assert all(m.triggers[f"{c}12"].paragraph == 5 for c in "ABCDEFGHIJKLMN")


def test_bridge_demolition_carries_enough_charges():
    """Three charges on the span (J6-K6) of five the assault engineers carry: two may miss."""
    m = load_mission("bridge_demolition")
    squad = load_squad(m.squad)
    satchels = sum(s.equipment.count("satchel") for s in squad.soldiers)
    assert m.objective.hexes == ("J6", "K6") and m.objective.charges == 3
    assert satchels == 5 and m.objective.reach == 0
