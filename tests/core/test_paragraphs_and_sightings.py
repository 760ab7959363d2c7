"""Paragraph checks, paragraph effects, sightings and result bands (RULES.md §7, §15)."""

from __future__ import annotations

import pytest
from engine_helpers import (
    add_german,
    clear_board,
    force,
    fresh_game,
    paragraph_check,
    put,
    resolve,
    run_paragraph,
)

from ambush_env.core.combat import sighting
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Direction, Phase, Result, Side, Stance, Status
from ambush_env.core.rules import scoring


def germans(g):
    return [u for u in g.state.units if u.side == Side.GERMAN]


# ---------------------------------------------------------------------------- triggers
def test_trigger_fires_once():
    """RULES.md §7: entering a trigger hex runs its paragraph; a trigger fires once unless it
    says otherwise."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "K4")
    hex_ = g.board.index("L6")
    # farmhouse paragraph 25 -> 26: perception check (PC 6, modifier -1) at 5 passes
    force(g, [5])
    paragraph_check(g, u, hex_)
    assert "house_searched" in g.state.flags
    assert g.state.vp == 2  # map case recovered
    paragraph_check(g, u, hex_)  # no dice left: a second check would raise
    assert g.state.vp == 2 and g.state.fired_triggers.count(hex_) == 1


@pytest.mark.parametrize("roll, vp", [(5, 2), (6, 0)])
def test_perception_paragraph_both_sides(roll, vp):
    """RULES.md §15 perception effect: a PC check of the triggering soldier (PC 6, −1)."""
    g = fresh_game()
    u = g.us_units()[0]
    force(g, [roll])
    run_paragraph(g, 26, u)
    assert g.state.vp == vp


def test_event_trigger_rolls_on_the_event_table():
    """RULES.md §7: EVENT rolls a d10 on the mission's event table (8-9: paragraph 55 -> 56)."""
    g = fresh_game()
    u = g.us_units()[0]
    label = next(lbl for lbl, t in g.mission.triggers.items() if t.paragraph == "EVENT")
    force(g, [8])
    paragraph_check(g, u, g.board.index(label))
    assert "pilot_found" in g.state.flags and g.state.vp == 1
    g2 = fresh_game()
    force(g2, [3])  # 0-3: nothing
    paragraph_check(g2, g2.us_units()[0], g2.board.index(label))
    assert g2.state.flags == [] and g2.state.vp == 0


# ---------------------------------------------------------------------------- placement
@pytest.mark.parametrize("roll, aware", [(3, True), (4, False)])
def test_activation_check_branches(roll, aware):
    """RULES.md §15 activation: d10 at or below N takes ``then``, above takes ``else``
    (paragraph 22: ≤ 3 an aware rifleman, else an unaware one)."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")  # far out of sight of the farmhouse
    force(g, [roll, 5, 5])  # activation, then (if aware) the two initiative rolls
    run_paragraph(g, 22, g.us_units()[0])
    (ger,) = germans(g)
    assert ger.aware is aware
    assert g.board.label(ger.hex) == "L6"


def test_placed_unaware_out_of_sight_stays_hidden():
    """RULES.md §5: Germans placed unaware and out of every US soldier's sight stay hidden and
    Operations go on."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    force(g, [9])
    run_paragraph(g, 22, g.us_units()[0])
    (ger,) = germans(g)
    assert ger.uid not in g.state.contacts
    assert g.state.phase == Phase.OPERATIONS
    # the events tell no more than the observation: no hex, card or stance
    (place,) = [e.to_dict() for e in g.log if e.type == "place"]
    assert place == {"type": "place", "unit": ger.name, "hidden": True}


def test_placed_aware_begins_rounds_with_all_unaware():
    """RULES.md §5: Rounds begin at once when Germans are placed aware; in Round 1 US
    soldiers who did not pass a sighting check are unaware."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "A1")
    force(g, [0, 7, 2])  # activation 0 -> aware; initiative US 7, German 2
    run_paragraph(g, 22, us)
    (ger,) = germans(g)
    assert ger.uid in g.state.contacts
    assert g.state.phase == Phase.ROUNDS and g.state.round == 1
    assert us.aware is False


@pytest.mark.parametrize("roll, passed", [(6, True), (7, False)])
def test_sighting_pc_check_and_free_snap_fire(roll, passed):
    """RULES.md §7: a German placed in sight: each watcher makes a PC check (US1 PC 6); those
    who pass become aware and the first to pass may take a free snap fire (his decision:
    taken here); then Rounds begin."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "J6")  # sees into L6 through the west window
    assert g.sight.can_see(us.hex, g.board.index("L6"), us.stance, Stance.STANDING)
    # activation 9 -> unaware rifleman standing in L6; the sighting PC roll; then plenty of
    # rolls for the free snap fire and the initiative.
    force(g, [9, roll] + [9] * 12)
    run_paragraph(g, 22, us)
    (ger,) = germans(g)
    assert ger.uid in g.state.contacts
    ev = [e.to_dict() for e in g.log if e.type == "sighting"]
    assert len(ev) == 1 and ev[0]["roll"] == roll and ev[0]["passed"] is passed
    assert (g.state.turn.mode == "free_snap") is passed
    if passed:
        g.step(O.encode(K.FIRE_SNAP, g.state.contacts.index(ger.uid)))
    free = [e.to_dict() for e in g.last_events if e.type == "free_snap_fire"]
    assert bool(free) is passed
    assert us.aware is passed
    assert g.state.phase == Phase.ROUNDS and g.state.round == 1


def test_move_into_sight_of_hidden_german_is_a_sighting():
    """RULES.md §6-§7: Germans may react between hexes: moving into sight of a hidden German
    makes a sighting (he becomes a contact and Rounds begin)."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "A1")
    force(g, [9])
    run_paragraph(g, 22, us)  # hidden rifleman in L6
    (ger,) = germans(g)
    assert ger.uid not in g.state.contacts
    put(g, 0, "J7")  # not in sight of L6
    sighting.check_sightings(g)
    resolve(g)
    assert ger.uid not in g.state.contacts and g.state.phase == Phase.OPERATIONS
    g.step(O.encode(K.SELECT_UNIT, 0))
    force(g, [9] + [9] * 12)  # sighting PC fails (9 > 6); initiative rolls
    g.step(O.encode(K.MOVE, Direction.N))  # J7 -> J6: in sight through the window
    assert g.board.label(us.hex) == "J6"
    assert ger.uid in g.state.contacts
    assert g.state.phase == Phase.ROUNDS


# ---------------------------------------------------------------------------- results
@pytest.mark.parametrize(
    "vp, result",
    [
        (26, Result.DECISIVE_WIN),
        (25, Result.WIN),
        (18, Result.WIN),
        (17, Result.DRAW),
        (10, Result.DRAW),
        (9, Result.LOSS),
        (-5, Result.LOSS),
    ],
)
def test_result_bands_by_vp_thresholds(vp, result):
    """RULES.md §15: decisive win / win / draw / loss by VP thresholds (26 / 18 / 10)."""
    g = fresh_game()
    g.state.vp = vp
    scoring.end_mission(g, "test")
    assert g.result == result
    assert g.over and g.state.phase == Phase.OVER


def test_casualty_vp_counts_each_soldier_once_at_his_worst():
    """RULES.md §15: casualties score by each soldier's final state (a wounded man later
    killed scores only ``us_killed``)."""
    g = fresh_game()
    vp = g.mission.vp
    u = g.us_units()[0]
    u.wounded = True
    assert g.vp == vp.us_wounded
    u.status = int(Status.KILLED)
    assert g.vp == vp.us_killed
    ger = add_german(g, "rifleman", "P5")
    ger.status = int(Status.CAPTURED)
    assert g.vp == vp.us_killed + vp.german_captured


def test_objective_taken_once_when_held_without_germans():
    """RULES.md §15: ``objective_taken`` once, the first time an active US soldier stands in an
    objective hex while no active German is in any objective hex."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "M6")
    ger = add_german(g, "rifleman", "L6")
    scoring.check_objective(g)
    assert "objective_taken" not in g.state.flags
    ger.status = int(Status.KILLED)
    scoring.check_objective(g)
    scoring.check_objective(g)
    assert g.state.vp == g.mission.vp.objective_taken
    assert u.hex in g.objective_hexes
