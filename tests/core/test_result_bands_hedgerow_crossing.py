"""Scripted lines of play reaching every result band of hedgerow_crossing (RULES.md §15).

As in tests/core/test_result_bands.py: the dice are rigged by what a roll is for (the US passes
its sighting and hit rolls and its shots kill, activation checks take the quiet branch, PC
checks fail, the event table rolls "nothing"), so each line is exact and each test asserts the
final VP and the band. With these dice the first hedge and the MG corner stay empty (the
activation rolls 9), the Butte's NCO and rifleman and the Orchard's rifleman are placed unaware
(paragraphs 33 and 43), and the observer's map at the wayside cross is missed (a failed PC
check). Soldiers follow shortest paths that keep clear of the trigger hexes other than their
own waypoints.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model.types import Result
from tests.core.test_result_bands import RiggedDice, script, walk

MISSION = "hedgerow_crossing"
BUTTE = ["M7", "O7"]  # up the lane from the east gate to the wayside cross
SOUTH_ROUND = ["K13", "T13"]  # around the Butte by the south, never on it


def play(plans: dict[int, list[str]], exits: set[int], avoid_paragraphs=(30, 35, 40)) -> Game:
    """Play hedgerow_crossing: slot -> waypoints; slots in ``exits`` leave at the end."""
    g = Game(MISSION)
    g.reset(seed=0)
    g.dice = RiggedDice(0)
    g.invalidate()
    b = g.board
    avoid = {h for h, t in g.triggers.items() if t.paragraph in avoid_paragraphs}
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}
    return script(g, lambda g, u, legal: walk(g, u, todo.get(u.slot, []), u.slot in exits, avoid))


def test_decisive_win_line():
    """RULES.md §15: the whole squad takes the top of the Butte by the lane (the free snap fire
    of the sightings kills the NCO and the rifleman placed unaware there, and the Orchard's
    rifleman over the crest) and goes on to the battalion's line: 8 + 8 x 2 + 3 x 2 = 30 VP
    >= 28 -> decisive win."""
    g = play({k: BUTTE + ["T7"] for k in range(8)}, exits=set(range(8)), avoid_paragraphs=())
    st = g.stats()
    assert "objective_taken" in g.state.flags
    assert st["us_exited"] == 8 and st["germans_killed"] == 3
    assert g.vp == 30 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the sergeant climbs the Butte by its south flank, clear of the trigger
    hexes at its foot (so nobody is placed there), stands on the top (N7) and goes on to
    the line; five more go round the Butte to the line, two stay on the ridge: 8 + 6 x 2 = 20
    VP, exactly the win threshold -> win."""
    plans = {0: ["N12", "N11", "N7", "P12", "T13"]} | {k: SOUTH_ROUND for k in range(1, 6)}
    g = play(plans, exits=set(range(6)))
    st = g.stats()
    assert g.state.end_reason.startswith("time limit")
    assert "objective_taken" in g.state.flags
    assert st["us_exited"] == 6 and st["germans_killed"] == 0
    assert g.vp == 20 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the whole squad skirts the Butte by the south and reaches the line without
    meeting a German: 8 x 2 = 16 VP -> draw (the hill is never taken)."""
    g = play({k: SOUTH_ROUND for k in range(8)}, exits=set(range(8)))
    assert "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 8
    assert g.vp == 16 and g.result == Result.DRAW


def test_loss_line():
    """RULES.md §15: a squad that never leaves the ridge scores nothing by the time limit ->
    loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
