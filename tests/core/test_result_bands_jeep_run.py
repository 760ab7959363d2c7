"""Scripted lines of play reaching every result band of jeep_run (RULES.md §15).

As in tests/core/test_result_bands.py: the dice are rigged by what a roll is for (the US passes
its checks and its shots kill, activation checks take the quiet branch, the event table rolls
"nothing"; the rigging is not by side, so a German's shot hits and kills too), so each line is
exact and each test asserts the final VP and the band. A jeep's crew boards it in the first
pulse; then its driver drives it down the road one hex per Operations pulse (RULES.md §5) and
off the east edge (an exit hex) with everyone aboard. A driver who falls is replaced by the
first rider who can take the wheel, by a seat change in Operations (RULES.md §12 "Cars").
Soldiers on foot follow shortest paths that keep clear of the trigger hexes. In Rounds each
fires aimed at a German in sight (unless the line holds fire), else the turn ends.

The first man into the crossroads' zone (its hexes and every hex within the objective's
``clear_radius``, RULES.md §15 "The garrison reacts", issue 25) runs its garrison, paragraph
47: a rifleman dug in at S6, prone and aware, then the NCO's chain (paragraph 43 with these
dice: the NCO at P4, placed unaware). Both fall to the crew's fire from the lead jeep on the
road (a sighting's free snap fire, or aimed fire in Rounds). The crossroads is held only once
both are down, and every exit pays only then (issue 25).
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result, Status
from tests.core.test_result_bands import RiggedDice, script
from tests.core.test_result_bands import walk as walk_on  # `walk` names the plans here

MISSION = "jeep_run"
ROAD = [f"{c}6" for c in "ABCDEFGHIJKLMNOPQRST"]
JEEP_CREWS = {0: (0, 1, 2), 1: (3, 4, 5)}  # vehicle slot -> squad slots; the first drives
NORTH_EXIT = ["A1", "T1"]


def play(
    *,
    jeeps: tuple[int, ...] = (),
    walk: dict[int, list[str]] | None = None,
    stay: frozenset[int] = frozenset(),
    halt: str | None = None,
    hold: int = 0,
) -> Game:
    """Play jeep_run: the crews of ``jeeps`` drive them off the east edge, but the squad
    slots in ``stay``, who never board, and a driver whose jeep stands on ``halt`` stops
    there; ``walk`` maps a squad slot to waypoints, the last of them an exit hex he leaves
    by; the rest wait. In every bout of Rounds the first ``hold`` Rounds pass without a US
    shot."""
    g = Game(MISSION)
    g.reset(seed=0)
    g.dice = RiggedDice(0)
    g.invalidate()
    b = g.board
    road = [b.index(x) for x in ROAD]
    avoid = set(g.triggers)
    seat = {s: vid for vid in jeeps for s in JEEP_CREWS[vid] if s not in stay}
    stop = b.index(halt) if halt is not None else -1
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
        take_wheel = O.encode(K.BOARD_VEHICLE, vid)  # aboard: a seat change to the wheel
        if g.state.units[v.driver].status != Status.ACTIVE and take_wheel in legal:
            g.step(take_wheel)  # the driver is down: the first rider who may drive
            return
        if v.driver != u.uid or g.state.pulse < 2 or v.hex == stop:
            g.step(O.encode(K.END_TURN))  # wait (passengers; the driver for his crew)
        elif O.encode(K.EXIT_MAP) in legal:
            g.step(O.encode(K.EXIT_MAP))
        else:
            nxt = road[road.index(v.hex) + 1]
            g.step(O.encode(K.DRIVE, b.direction(v.hex, nxt)))

    def fire(g: Game, u, legal: list[int]) -> int | None:
        if g.state.round <= hold:
            return None
        return next((a for a in legal if O.decode(a)[0] == K.FIRE_AIMED), None)

    return script(g, ops, fire)


def test_decisive_win_line():
    """RULES.md §15: both jeeps run the road and leave with all six men; the free snap fires of
    the sightings kill the hamlet's rifleman and the crossroads NCO, the lead jeep's crew the
    rifleman dug in at the crossroads (its garrison, paragraph 47); the crossroads is taken:
    2 x 5 + 6 x 1 + 5 + 3 x 2 = 27 VP >= 17 -> decisive win (the mission file's "both jeeps
    through with everyone and the crossroads")."""
    g = play(jeeps=(0, 1))
    assert all(v.exited for v in g.state.vehicles)
    assert "objective_taken" in g.state.flags and "foxhole_placed" in g.state.flags
    assert g.stats()["us_exited"] == 6 and g.stats()["germans_killed"] == 3
    assert g.vp == 27 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the lead jeep runs the road with its crew, the second never starts (its
    crew waits out the time limit), and at the crossroads the crew holds its fire for two
    Rounds: in Round 3 the rifleman dug in at S6 fires aimed at the jeep, hits the driver's
    seat and kills US1; US2's aimed fire kills him. In the next Operations pulse US2 takes the
    wheel (RULES.md §12: a seat change) and drives the jeep off with US3 and US1's body (a
    fallen man carried off scores as a casualty only, ``Match.exit_vp``; ``stats()`` counts
    him exited): 5 + 2 x 1 + 5 + 3 x 2 - 2 = 16 VP -> win. With nobody hurt no jeep through
    can be a mere win here (one man through makes 5 + 1 + 5 + 6 = 17): see the next test."""
    g = play(jeeps=(0,), hold=2)
    assert g.state.end_reason.startswith("time limit")
    assert g.state.vehicles[0].exited and not g.state.vehicles[1].exited
    assert "objective_taken" in g.state.flags
    us1 = next(u for u in g.state.units if u.name == "US1")
    assert us1.status == Status.KILLED and us1.exited
    assert g.stats()["us_killed"] == 1 and g.stats()["germans_killed"] == 3
    assert g.stats()["us_exited"] == 2  # US2 and US3 (US1's body rides off as a casualty)
    assert g.vp == 16 and g.result == Result.WIN


def test_one_jeep_through_unhurt_is_decisive():
    """RULES.md §15: the former win line (16 VP while the crossroads was worth 3) — the lead
    jeep runs the road with two men aboard, US3 staying at the start line, the second never
    starts; the same three Germans fall, nobody is hurt and the crossroads is taken:
    5 + 2 x 1 + 5 + 3 x 2 = 18 VP >= 17 -> decisive win."""
    g = play(jeeps=(0,), stay=frozenset({2}))
    assert g.state.end_reason.startswith("time limit")
    assert g.state.vehicles[0].exited and not g.state.vehicles[1].exited
    assert "objective_taken" in g.state.flags
    assert g.stats()["us_exited"] == 2 and g.stats()["germans_killed"] == 3
    assert g.stats()["us_killed"] == 0
    assert g.vp == 18 and g.result == Result.DECISIVE_WIN


def test_draw_line():
    """RULES.md §15: the lead jeep runs the road with its crew, clears the crossroads and
    stops on it (R6), never driving the ammunition off: 5 + 3 x 2 = 11 VP < 12 -> draw (taking
    the crossroads is not the mission)."""
    g = play(jeeps=(0,), halt="R6")
    assert g.state.end_reason.startswith("time limit")
    assert not any(v.exited for v in g.state.vehicles)
    assert "objective_taken" in g.state.flags and g.state.vehicles[0].hex == g.board.index("R6")
    assert g.stats()["us_exited"] == 0 and g.stats()["germans_killed"] == 3
    assert g.vp == 11 and g.result == Result.DRAW


def test_walking_off_without_the_crossroads_loses():
    """RULES.md §15 (issue 25: exits pay only once the crossroads is taken): the jeeps are
    left behind and all six walk along the north edge and out, never meeting a German — the
    -v3 draw line (6 x 1 = 6) — and score nothing: 0 VP -> loss."""
    g = play(walk={k: NORTH_EXIT for k in range(6)})
    assert not any(v.exited for v in g.state.vehicles)
    assert g.stats()["us_exited"] == 6 and "objective_taken" not in g.state.flags
    assert g.state.vp_log == []
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a team that never moves scores nothing by the time limit -> loss."""
    g = play()
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
