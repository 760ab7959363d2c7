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
    """RULES.md §15, seed 000 p. 31-32: the squad reaches the hedge at H10; the telephone has
    warned the Germans (activation 0, paragraph 24): the Kübelwagen and its motorcycle
    outrider come down the Route de Falaise aware; the first hits knock both out (body) and
    the squad's fire kills the four men aboard. The crossroads is taken and all eight go back
    by the south edge: 2 x 6 + 4 x 2 + 4 + 8 x 2 = 40 VP >= 38 -> decisive win."""
    g = play({k: AMBUSH for k in range(8)}, exits=set(range(8)), activation=0)
    cars = _cars(g)
    assert cars["kubelwagen"].disabled and cars["motorcycle"].disabled
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.stats()["germans_killed"] == 4
    assert g.vp == 40 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the same ambush on a car that comes unwarned (activation 9, paragraph 23:
    no outrider): the Kübelwagen knocked out, its driver, the officer and the NCO killed, the
    crossroads taken, all eight back: 6 + 3 x 2 + 4 + 8 x 2 = 32 VP, exactly the win threshold
    -> win."""
    g = play({k: AMBUSH for k in range(8)}, exits=set(range(8)))
    cars = _cars(g)
    assert set(cars) == {"kubelwagen"} and cars["kubelwagen"].disabled
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 8 and g.stats()["germans_killed"] == 3
    assert g.vp == 32 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the squad thinks better of it and walks straight back out of the Bois Joly
    by the south edge: no car, no German, 8 x 2 = 16 VP, exactly the draw threshold -> draw."""
    g = play({k: ["C14"] for k in range(8)}, exits=set(range(8)))
    assert not g.state.vehicles and "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 8
    assert g.vp == 16 and g.result == Result.DRAW


def test_loss_line():
    """RULES.md §15: a squad that never leaves the wood scores nothing by the time limit ->
    loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
