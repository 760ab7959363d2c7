"""Scripted lines of play reaching every result band of village_fight (RULES.md §15), and the
church's blank churchyard wall blown in by a satchel charge.

As in tests/core/test_result_bands.py: the dice are rigged by what a roll is for (the US passes
its sighting and hit rolls and its shots kill, activation checks take the quiet branch, the
event table rolls "nothing"; PC checks fail, or pass in the decisive line), so each line is
exact and each test asserts the final VP and the band. With these dice the café's rifleman,
the church's NCO and sniper and the mairie's rifleman are placed unaware (paragraphs 13, 33,
43) and the Dumas house is empty (25). Soldiers follow shortest paths that keep clear of the
trigger hexes of the paragraphs a line avoids.
"""

from __future__ import annotations

import pytest

from ambush_env.core import Game
from ambush_env.core import Game as PositionGame
from ambush_env.core.model.types import Result
from tests.core.test_result_bands import RIGGED, RiggedDice, script, walk

MISSION = "village_fight"
CHURCH = ["J6", "K6", "R7"]  # in by the door on the Place, out by the east end
NORTH = ["A1", "R1"]  # round the village along the north edge


class PassingDice(RiggedDice):
    """RiggedDice whose PC checks pass (a perception roll of 0)."""

    def d10(self, why: str = "") -> int:
        if "perception" in why:
            self.log.append((why, 0))
            return 0
        return super().d10(why)


def play(
    plans: dict[int, list[str]], exits: set[int], *, avoid_paragraphs=(), dice=RiggedDice
) -> Game:
    """Play village_fight: slot -> waypoints; slots in ``exits`` leave at the end."""
    g = Game(MISSION)
    g.reset(seed=0)
    g.dice = dice(0)
    g.invalidate()
    b = g.board
    avoid = {h for h, t in g.triggers.items() if t.paragraph in avoid_paragraphs}
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}
    return script(g, lambda g, u, legal: walk(g, u, todo.get(u.slot, []), u.slot in exits, avoid))


def test_rigging_is_by_purpose():
    """The lines below depend on these purposes being rigged (tests/core/test_result_bands)."""
    assert ("activation", 9) in RIGGED and ("perception", 9) in RIGGED


def test_decisive_win_line():
    """RULES.md §15: the sergeant searches the Martin house first (its door on the street);
    then the squad goes up the Grande Rue, into the church by its door on the Place and out by
    the east end; the sightings' free snap fire kills the café's rifleman, the NCO and the
    sniper in the church and the mairie's rifleman; the PC checks pass, so the Martins' sketch
    (1) and the radio behind the altar (2) are found: 10 + 8 x 2 + 4 x 2 + 1 + 2 = 37 VP >= 36
    -> decisive win."""
    plans = {0: ["D6"] + CHURCH} | {k: CHURCH for k in range(1, 8)}
    g = play(plans, exits=set(range(8)), dice=PassingDice)
    st = g.stats()
    assert {"objective_taken", "martins_found", "church_searched"} <= set(g.state.flags)
    assert st["us_exited"] == 8 and st["germans_killed"] == 4
    assert g.vp == 37 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the same fight with the PC checks failing (no sketch, no radio):
    10 + 8 x 2 + 4 x 2 = 34 VP -> win."""
    g = play({k: CHURCH for k in range(8)}, exits=set(range(8)))
    st = g.stats()
    assert "objective_taken" in g.state.flags and "church_searched" in g.state.flags
    assert st["us_exited"] == 8 and st["germans_killed"] == 4
    assert g.vp == 34 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the squad goes up the Grande Rue and into the church by its door on the
    Place, as in the win line (the café's rifleman, the NCO and the sniper fall to the
    sightings' free snap fire), and holds it until the time limit, never pushing on to the
    east end (so the mairie stays quiet and nobody is out): 10 + 3 x 2 = 16 VP, exactly the
    draw threshold -> draw."""
    g = play({k: CHURCH[:2] for k in range(8)}, exits=set())
    st = g.stats()
    assert "objective_taken" in g.state.flags and "east_checked" not in g.state.flags
    assert g.state.end_reason.startswith("time limit")
    assert st["us_exited"] == 0 and st["germans_killed"] == 3
    assert g.vp == 16 and g.result == Result.DRAW


def test_walking_round_the_village_loses():
    """RULES.md §15: the whole squad goes round the village along the north edge and out,
    never meeting a German: the church is never taken, so its 8 men off the map score nothing
    (⚙ ``vp.exits: after_objective``, issue 25: leaving pays only once the objective is
    done): 0 VP -> loss."""
    g = play(
        {k: NORTH for k in range(8)}, exits=set(range(8)), avoid_paragraphs=(10, 15, 20, 30, 35, 40)
    )
    assert "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 8
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a squad that never goes in scores nothing by the time limit -> loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS


SATCHEL_POSITION = """
mission: village_fight
phase: rounds
units:
  - {name: US2, hex: J4, ar: 2-turn}
  - {name: G1, role: rifleman, hex: B13, ar: complete}
"""


@pytest.mark.parametrize("throw,destroyed,landing", [(6, True, "K5"), (7, False, "K6")])
def test_satchel_blows_in_the_churchyard_wall(throw, destroyed, landing):
    """RULES.md §9 / seed 002 p. 27: the steeple's churchyard side J4/K5 is a blank stone wall
    (no way in from J4). US2 (PC 6) prepares his satchel and sets it against the wall: a throw
    roll of 6 (at his PC) destroys it and the steeple can be entered from J4; a 7 fails and
    scatters (Diagram A roll 5: ahead and to the right, into the nave K6, whose walls hold it)
    and the wall stands."""
    g = PositionGame.from_position(SATCHEL_POSITION)
    b = g.board
    wall = b.side_between(b.index("J4"), b.index("K5"))
    assert "US2 move SE to K5" not in g.legal_orders()
    g.force_rolls([0] * 10)
    g.play("US2 prepare/reload")
    g.force_rolls([throw] + [5] * 30)
    events = g.play("US2 throw a satchel charge at K5")
    throw_event = events[0]
    assert throw_event["type"] == "throw" and throw_event["need"] == 6
    assert throw_event["landing"] == landing
    assert ("wall_destroyed" in [e["type"] for e in events]) is destroyed
    assert bool(b.side_destroyed[wall]) is destroyed
    assert ("US2 move SE to K5" in g.legal_orders()) is destroyed
