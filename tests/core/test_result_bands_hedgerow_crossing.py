"""Scripted lines of play reaching every result band of hedgerow_crossing (RULES.md §15).

As in tests/core/test_result_bands.py: the dice are rigged by what a roll is for (the US passes
its sighting and hit rolls and its shots kill, activation checks take the quiet branch, PC
checks fail, the event table rolls "nothing"), so each line is exact and each test asserts the
final VP and the band. With these dice the first hedge and the MG corner stay empty (the
activation rolls 9) and the observer's map at the wayside cross is missed (a failed PC
check). The first man into the Butte's zone (its hexes and every hex within 2, RULES.md §15
"The garrison reacts", issue 25) runs its garrison, paragraph 28: a rifleman in a rifle pit
at O6, aware, then the Butte's chain (paragraph 33: the NCO at N5 and the rifleman at O8,
placed unaware and alerted by the objective's alarm), so the Butte is held only once those
three are down; the Orchard's rifleman is placed unaware (paragraph 43).

Soldiers follow shortest paths that keep clear of the trigger hexes other than their own
waypoints. In Rounds each fires aimed at a German in sight, else walks on toward his next
waypoint, else holds (:func:`fight_on`).
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result
from tests.core.test_result_bands import RiggedDice, path, script, walk

MISSION = "hedgerow_crossing"
BUTTE = ["M7", "O7"]  # up the lane from the east gate to the wayside cross
SOUTH_FLANK = ["N12", "N11", "N7"]  # up the Butte's south flank, clear of the triggers at its foot
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

    def fight_on(g: Game, u, legal: list[int]) -> int | None:
        """Rounds: fire aimed at a German in sight, else a step toward the next waypoint."""
        shot = next((a for a in legal if O.decode(a)[0] == K.FIRE_AIMED), None)
        if shot is not None:
            return shot
        wps = todo.get(u.slot, [])
        while wps and wps[0] == u.hex:
            wps.pop(0)
        if not wps:
            return None
        a = O.encode(K.MOVE, b.direction(u.hex, path(g, u, wps[0], avoid - set(wps))[0]))
        return a if a in legal else None

    return script(
        g,
        lambda g, u, legal: walk(g, u, todo.get(u.slot, []), u.slot in exits, avoid),
        fight_on,
        steps=8000,
    )


def test_decisive_win_line():
    """RULES.md §15: the whole squad takes the top of the Butte by the lane (its garrison,
    the rifle pit's rifleman, the NCO and the wayside cross's rifleman, shot down there, and
    the Orchard's rifleman over the crest) and goes on to the battalion's line:
    8 + 8 x 2 + 4 x 2 = 32 VP >= 28 -> decisive win (the mission file's "the Butte taken,
    all eight through and two Germans down")."""
    g = play({k: BUTTE + ["T7"] for k in range(8)}, exits=set(range(8)), avoid_paragraphs=())
    st = g.stats()
    assert "objective_taken" in g.state.flags and "foxhole_placed" in g.state.flags
    assert st["us_exited"] == 8 and st["germans_killed"] == 4 and st["us_killed"] == 0
    assert g.vp == 32 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the sergeant climbs the Butte by its south flank, clear of the trigger
    hexes at its foot; the garrison he brings out (paragraphs 28, 33) falls to his fire and he
    stays on the top (N7); five go round the Butte to the line (exits pay only with the
    Butte taken, issue 25), two stay on the ridge: 8 + 3 x 2 + 5 x 2 = 24 VP -> win (the
    mission file's "the Butte taken and six men through (two hurt or left behind)")."""
    plans = {0: SOUTH_FLANK} | {k: SOUTH_ROUND for k in range(1, 6)}
    g = play(plans, exits=set(range(1, 6)))
    st = g.stats()
    assert g.state.end_reason.startswith("time limit")
    assert "objective_taken" in g.state.flags
    assert st["us_exited"] == 5 and st["germans_killed"] == 3 and st["us_killed"] == 0
    assert g.vp == 24 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the whole squad takes the top of the Butte by the lane, shooting its
    garrison (paragraphs 28, 33), and never goes on: nobody through, 8 + 3 x 2 = 14 VP ->
    draw (the mission file's "the Butte taken and nobody through")."""
    g = play({k: BUTTE for k in range(8)}, exits=set(), avoid_paragraphs=())
    st = g.stats()
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert "objective_taken" in g.state.flags
    assert st["us_exited"] == 0 and st["germans_killed"] == 3
    assert g.vp == 14 and g.result == Result.DRAW


def test_skirting_the_butte_loses():
    """RULES.md §15 (issue 25: exits pay only once the Butte is taken): the whole squad skirts
    the Butte by the south and reaches the line without meeting a German — the -v3 draw line
    (8 x 2 = 16) — and scores nothing: 0 VP -> loss."""
    g = play({k: SOUTH_ROUND for k in range(8)}, exits=set(range(8)))
    assert "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.state.vp_log == []
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a squad that never leaves the ridge scores nothing by the time limit ->
    loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
