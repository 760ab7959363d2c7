"""Scripted lines of play reaching every result band of crossroads_ambush (RULES.md §15).

As in tests/core/test_result_bands_tank_hunt.py the dice are rigged by what a roll is for and by
whose unit is acting: US shots hit (a d10 of 0) and kill, German shots miss (9), the US wins the
initiative, PC checks fail, the event table rolls "nothing"; here also every German card roll is
0 (a car's driver drives at the nearest US soldier, seed 000 p. 32: driving_default row 0) and a
hit on a car strikes its body (a Hit Chart roll of 9: body on the Kübelwagen's and the
motorcycle's charts) and knocks it out. Activation checks take the quiet branch (9) unless a
line says otherwise. So each line is exact, and each test asserts the final VP and the band.

In Rounds the script fires aimed at a car or a German in sight, else walks on toward its next
waypoint; in Operations soldiers follow their waypoints by shortest paths kept clear of the
trigger hexes other than their own waypoints.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result
from tests.core.test_result_bands import path, script, walk
from tests.core.test_result_bands_tank_hunt import TurnRiggedDice

MISSION = "crossroads_ambush"
AMBUSH = ["H10", "I7", "I14"]  # the hedge by the road, the crossroads, back by the south edge
# the crossroads first, by the Vaux road side (D5-F5-G7, clear of every trigger hex: the first
# man into its zone, clear_radius 3, runs its garrison, paragraph 10, the farm's rifleman),
# then the hedge by the road for the car, back by the south edge
CLEAR_FIRST = ["H7", "H10", "I14"]


class CarDice(TurnRiggedDice):
    """TurnRiggedDice with every German card roll 0 and every Hit Chart roll 9 (body)."""

    def d10(self, why: str = "") -> int:
        for key, roll in (("card", 0), ("hit chart", 9)):
            if key in why:
                self.log.append((why, roll))
                return roll
        return super().d10(why)


def play(plans: dict[int, list[str]], exits: set[int], *, activation: int = 9) -> Game:
    """Play crossroads_ambush: slot -> waypoints; slots in ``exits`` leave at the end."""
    g = Game(MISSION)
    g.reset(seed=0)
    dice = CarDice(0)
    dice.game, dice.activation = g, activation
    g.dice = dice
    g.invalidate()
    b = g.board
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}
    avoid = set(g.triggers)

    def rounds(g: Game, u, legal: list[int]) -> int | None:
        kinds = {O.decode(a)[0]: a for a in legal}
        shot = kinds.get(K.FIRE_AIMED_VEHICLE) or kinds.get(K.FIRE_AIMED)
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
        rounds,
        steps=8000,
    )


def _cars(g: Game) -> dict[str, object]:
    return {v.type: v for v in g.state.vehicles}


def test_decisive_win_line():
    """RULES.md §15 ("The garrison reacts"), seed 000 p. 31-32: the squad comes at the
    crossroads from the west (CLEAR_FIRST); the first man into its zone runs the garrison
    (paragraph 10, activation 0: the farm's rifleman at K8, aware, paragraph 12), who falls to
    the squad's fire from the west side, and the crossroads is taken. Then the hedge at H10:
    the telephone has warned the Germans (activation 0, paragraph 24): the Kübelwagen and its
    motorcycle outrider come down the Route de Falaise aware; the first hits knock both out
    (body) and the squad's fire kills the four men aboard; all eight go back by the south
    edge, their exits paying since the crossroads is held (issue 25):
    2 x 6 + 5 x 2 + 4 + 8 x 2 = 42 VP >= 38 -> decisive win (the mission file's "the farm's
    sentry and the outrider down too")."""
    g = play({k: CLEAR_FIRST for k in range(8)}, exits=set(range(8)), activation=0)
    cars = _cars(g)
    assert cars["kubelwagen"].disabled and cars["motorcycle"].disabled
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.stats()["germans_killed"] == 5
    assert g.vp == 42 and g.result == Result.DECISIVE_WIN


def test_warned_ambush_from_the_south_leaves_the_farm_holding():
    """RULES.md §15 ("Objectives", "The garrison reacts"; issue 25): the -v3 decisive line,
    the warned ambush sprung from the hedge at H10 (activation 0), no longer takes the
    crossroads: the first man into its zone (clear_radius 3) brings out the farm's rifleman,
    aware and crouching in the farmhouse at K8 (paragraph 12), whom no one on that line sees,
    so the crossroads is never clear, the squad waits at I14 in Rounds to the time limit and
    its exits never pay: 2 x 6 + 4 x 2 = 20 VP -> draw."""
    g = play({k: AMBUSH for k in range(8)}, exits=set(range(8)), activation=0)
    cars = _cars(g)
    assert cars["kubelwagen"].disabled and cars["motorcycle"].disabled
    assert "objective_taken" not in g.state.flags and "objective alarm" in g.state.flags
    assert g.state.end_reason == "time limit (Rounds)"
    assert g.stats()["us_exited"] == 0 and g.stats()["germans_killed"] == 4
    assert g.vp == 20 and g.result == Result.DRAW


def test_win_line():
    """RULES.md §15: the ambush from the hedge at H10 on a car that comes unwarned
    (activation 9, paragraph 23: no outrider); the first man into the crossroads' zone
    brings out its garrison, the farm's sentry (paragraph 13, standing, alerted by the
    objective's alarm, issue 25), who is shot in the fight: the Kübelwagen knocked out, its
    driver, the officer, the NCO and the sentry killed, the crossroads taken, all eight back:
    6 + 4 x 2 + 4 + 8 x 2 = 34 VP -> win (the mission file's "the ambush sprung ... 32 (win)",
    and the sentry who now always holds the crossroads)."""
    g = play({k: AMBUSH for k in range(8)}, exits=set(range(8)))
    cars = _cars(g)
    assert set(cars) == {"kubelwagen"} and cars["kubelwagen"].disabled
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.stats()["germans_killed"] == 4
    assert g.vp == 34 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the squad takes the crossroads from the west (CLEAR_FIRST's first
    waypoint, clear of the hedges, so no car comes): its garrison, the farm's sentry
    (paragraphs 10, 13), is shot, the crossroads is taken and all eight go back by the south
    edge: 2 + 4 + 8 x 2 = 22 VP -> draw (no ambush, no car: the crossroads and the men back
    are not the mission)."""
    g = play({k: ["H7", "C14"] for k in range(8)}, exits=set(range(8)))
    assert not g.state.vehicles and "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.stats()["germans_killed"] == 1
    assert g.vp == 22 and g.result == Result.DRAW


def test_walking_straight_back_out_loses():
    """RULES.md §15 (issue 25: exits pay only once the crossroads is taken): the squad thinks
    better of it and walks straight back out of the Bois Joly by the south edge — the -v3
    draw line (8 x 2 = 16) — no car, no German, 0 VP -> loss."""
    g = play({k: ["C14"] for k in range(8)}, exits=set(range(8)))
    assert not g.state.vehicles and "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.state.vp_log == []
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a squad that never leaves the wood scores nothing by the time limit ->
    loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
