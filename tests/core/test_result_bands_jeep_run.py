"""Scripted lines of play reaching every result band of jeep_run (RULES.md §15).

As in tests/core/test_result_bands.py: the dice are rigged by what a roll is for (the US passes
its checks and its shots kill, activation checks take the quiet branch, the event table rolls
"nothing"), so each line is exact and each test asserts the final VP and the band. A jeep's
crew boards it in the first pulse; then its driver drives it down the road one hex per
Operations pulse (RULES.md §5) and off the east edge (an exit hex) with everyone aboard.
Soldiers on foot follow shortest paths that keep clear of the trigger hexes.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result
from tests.core.test_result_bands import RiggedDice, script
from tests.core.test_result_bands import walk as walk_on  # `walk` names the plans here

MISSION = "jeep_run"
ROAD = [f"{c}6" for c in "ABCDEFGHIJKLMNOPQRST"]
JEEP_CREWS = {0: (0, 1, 2), 1: (3, 4, 5)}  # vehicle slot -> squad slots; the first drives
NORTH_EXIT = ["A1", "T1"]


def play(*, jeeps: tuple[int, ...] = (), walk: dict[int, list[str]] | None = None) -> Game:
    """Play jeep_run: the crews of ``jeeps`` drive them off the east edge; ``walk`` maps a
    squad slot to waypoints, the last of them an exit hex he leaves by; the rest wait."""
    g = Game(MISSION)
    g.reset(seed=0)
    g.dice = RiggedDice(0)
    g.invalidate()
    b = g.board
    road = [b.index(x) for x in ROAD]
    avoid = set(g.triggers)
    seat = {s: vid for vid in jeeps for s in JEEP_CREWS[vid]}
    drivers = {JEEP_CREWS[vid][0] for vid in jeeps}
    todo = {s: [b.index(x) for x in wps] for s, wps in (walk or {}).items()}

    def ops(g: Game, u, legal: list[int]) -> None:
        if u.slot not in seat:
            walk_on(g, u, todo.get(u.slot, []), u.slot in todo, avoid)
            return
        vid = seat[u.slot]
        if u.vehicle < 0:  # first pulse: get in (the driver first, so he takes the wheel)
            g.step(O.encode(K.BOARD_VEHICLE, vid))
            return
        v = g.state.vehicles[vid]
        if u.slot not in drivers or g.state.pulse < 2:
            g.step(O.encode(K.END_TURN))  # wait (passengers; the driver for his crew)
        elif O.encode(K.EXIT_MAP) in legal:
            g.step(O.encode(K.EXIT_MAP))
        else:
            nxt = road[road.index(v.hex) + 1]
            g.step(O.encode(K.DRIVE, b.direction(v.hex, nxt)))

    return script(g, ops)


def test_decisive_win_line():
    """RULES.md §15: both jeeps run the road and leave with all six men; the free snap fires of
    the sightings kill the hamlet's rifleman and the crossroads NCO; the crossroads is taken:
    2 x 5 + 6 x 1 + 3 + 2 x 2 = 23 VP >= 17 -> decisive win."""
    g = play(jeeps=(0, 1))
    assert all(v.exited for v in g.state.vehicles)
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 6 and g.stats()["germans_killed"] == 2
    assert g.vp == 23 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the lead jeep gets through with its crew, the second never starts (its
    crew waits out the time limit): 5 + 3 + 3 + 2 x 2 = 15 VP -> win."""
    g = play(jeeps=(0,))
    assert g.state.end_reason.startswith("time limit")
    assert g.state.vehicles[0].exited and not g.state.vehicles[1].exited
    assert g.vp == 15 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the jeeps are left behind; all six walk along the north edge and out,
    never meeting a German: 6 x 1 = 6 VP -> draw (the ammunition never arrives)."""
    g = play(walk={k: NORTH_EXIT for k in range(6)})
    assert not any(v.exited for v in g.state.vehicles)
    assert g.stats()["us_exited"] == 6 and "objective_taken" not in g.state.flags
    assert g.vp == 6 and g.result == Result.DRAW


def test_loss_line():
    """RULES.md §15: a team that never moves scores nothing by the time limit -> loss."""
    g = play()
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
