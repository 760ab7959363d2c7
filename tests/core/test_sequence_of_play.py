"""The sequence of play: Operations pulses, Rounds, initiative, the AR track, awareness and
command (RULES.md §5). Each test forces the dice on both sides of the rule's threshold."""

from __future__ import annotations

import pytest
from engine_helpers import add_german, clear_board, force, fresh_game, give_turn, put, rounds

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DiceExhaustedError, IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Phase, Side, Stance, Status
from ambush_env.core.play import sequence
from ambush_env.core.rules import turns


def enc(kind: K, arg: int = 0) -> int:
    return O.encode(kind, arg)


# ---------------------------------------------------------------------------- Operations
def test_operations_pulse_each_unit_acts_once():
    """RULES.md §5: in one Operations pulse each active US unit takes one Operations action;
    when all have acted the pulse ends and the next begins."""
    g = fresh_game()
    assert g.state.phase == Phase.OPERATIONS and g.state.pulse == 0
    n = len(g.us_units())
    assert g.legal_actions() == [enc(K.SELECT_UNIT, k) for k in range(n)]
    for k in range(n - 1):
        g.step(enc(K.SELECT_UNIT, k))
        g.step(enc(K.END_TURN))  # wait
        assert g.state.pulse == 0
        assert enc(K.SELECT_UNIT, k) not in g.legal_actions()
    # the last unit is selected automatically: no SELECT_UNIT decision for one eligible unit
    assert g.acting_unit() is not None and g.acting_unit().slot == n - 1
    g.step(enc(K.END_TURN))
    assert g.state.pulse == 1
    assert len(g.legal_actions()) == n


def test_operations_move_costs_no_mp_and_ends_the_action():
    """RULES.md §5-§6: an Operations move is one hex, costs no MPs, and is the whole action."""
    g = fresh_game()
    clear_board(g, keep=2)
    u = put(g, 0, "B2")
    put(g, 1, "A1")
    g.step(enc(K.SELECT_UNIT, 0))
    g.step(enc(K.MOVE, 2))  # SE from B2 (odd column) -> C3 woods
    assert g.board.label(u.hex) == "C3"
    assert u.uid in g.state.ops_done
    assert g.acting_unit().slot == 1


def test_operations_time_limit_ends_and_scores_the_mission():
    """RULES.md §15: the mission's own time limit ends it like any other end (it is scored)."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    assert g.legal_actions() == [enc(K.SELECT_UNIT, 0)]
    g.step(enc(K.SELECT_UNIT, 0))
    limit = g.mission.time_limit.operations_pulses
    for _ in range(limit - 1):
        g.step(enc(K.END_TURN))
        assert not g.over
        assert g.acting_unit().slot == 0  # the only eligible unit: selected automatically
    g.step(enc(K.END_TURN))
    assert g.over and g.state.end_reason == "time limit (Operations pulses)"
    assert g.result == int(g.mission.results.band(g.vp))


@pytest.mark.parametrize("taken", [True, False])
def test_exit_map_awards_vp_and_ends_with_no_us_left(taken):
    """RULES.md §15: a soldier leaving by an exit hex scores ``exit_per_soldier`` once the
    objective is taken, and nothing before (⚙ ``vp.exits: after_objective``, farm_assault's
    default, issue 25); with no US soldier left on the map the mission ends."""
    from ambush_env.core.model.types import OBJECTIVE_TAKEN

    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "R5")
    if taken:
        g.state.flags.append(OBJECTIVE_TAKEN)  # the farm fell earlier (its VP not awarded here)
    g.step(enc(K.SELECT_UNIT, 0))
    before = g.vp
    assert enc(K.EXIT_MAP) in g.legal_actions()
    g.step(enc(K.EXIT_MAP))
    assert g.vp - before == (g.mission.vp.exit_per_soldier if taken else 0)
    assert g.over and g.state.end_reason == "no US soldier left on the map"


def test_exit_only_from_exit_hexes():
    """RULES.md §15: only the mission's exit hexes offer the exit order."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "Q5")
    g.step(enc(K.SELECT_UNIT, 0))
    assert enc(K.EXIT_MAP) not in g.legal_actions()
    with pytest.raises(IllegalActionError, match="exit the map"):
        g.step(enc(K.EXIT_MAP))


# ---------------------------------------------------------------------------- initiative / AR
def _start_round(g, us_roll, ger_roll):
    """Begin a Round with the two initiative rolls forced."""
    force(g, [us_roll, ger_roll])
    g.state.phase = int(Phase.ROUNDS)
    g.state.round = 2  # past the mission's all-in-command Rounds 1-2 once incremented
    sequence.start_round(g)


def test_initiative_higher_roll_wins_ties_to_germans():
    """RULES.md §5.1: each side rolls a d10; the higher wins, ties go to the Germans."""
    g = fresh_game()
    add_german(g, "rifleman", "P5")
    _start_round(g, 5, 5)
    assert g.state.initiative == Side.GERMAN
    g = fresh_game()
    add_german(g, "rifleman", "P5")
    _start_round(g, 6, 5)
    assert g.state.initiative == Side.US


@pytest.mark.parametrize(
    "roll, expected",
    [
        (8, ARSpace.TWO_TURN),
        (7, ARSpace.ONE_TURN),
        (4, ARSpace.ONE_TURN),
        (3, ARSpace.COMPLETE),
        (1, ARSpace.COMPLETE),
        (0, ARSpace.PANIC),
    ],
)
def test_ar_track_thresholds_out_of_command(roll, expected):
    """RULES.md §5.2: AR value = roll + IN; ≥ 9 2-Turn, 5-8 1-Turn, 2-4 Complete out of
    command, 0-1 Panic out of command. US3 (IN 1) stands far from both NCOs."""
    g = fresh_game()
    clear_board(g, keep=3)
    put(g, 0, "A1")
    put(g, 1, "A3")
    u = put(g, 2, "H1")  # IN 1, 7+ hexes from the sergeant (CR 2) and corporal (CR 1)
    add_german(g, "rifleman", "P5")
    g.state.round = 3
    assert not g.in_command(u) or not g.in_rounds
    _start_round(g, roll, 9)
    assert g.state.round == 3
    assert u.ar == expected
    assert u.panicked == (expected == ARSpace.PANIC)


@pytest.mark.parametrize("roll, expected", [(1, ARSpace.ONE_TURN), (0, ARSpace.ONE_TURN)])
def test_ar_track_in_command_saves_from_complete_and_panic(roll, expected):
    """RULES.md §5.2: 2-4 and the red 0-1 give 1-Turn to a soldier in command (within the
    sergeant's CR 2)."""
    g = fresh_game()
    clear_board(g, keep=3)
    put(g, 0, "C4")
    put(g, 1, "A1")
    u = put(g, 2, "C6")  # 2 hexes from the sergeant
    add_german(g, "rifleman", "P5")
    _start_round(g, roll, 9)
    assert g.in_command(u)
    assert u.ar == expected


def test_ar_track_wounded_at_most_one_turn():
    """seed 002, p. 26: a wounded soldier gets at most one turn: a 2-Turn result becomes 1-Turn."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "A1")  # sergeant IN 3
    u.wounded = True
    add_german(g, "rifleman", "P5")
    _start_round(g, 9, 0)
    assert u.ar == ARSpace.ONE_TURN
    g2 = fresh_game()
    clear_board(g2, keep=1)
    u2 = put(g2, 0, "A1")
    add_german(g2, "rifleman", "P5")
    _start_round(g2, 9, 0)
    assert u2.ar == ARSpace.TWO_TURN


def test_acting_order_two_turn_winner_then_loser_then_one_turn():
    """RULES.md §5.3: 2-Turn units of the winner, then of the loser, then 1-Turn units likewise;
    a 2-Turn unit that acts drops to 1-Turn."""
    g = fresh_game()
    clear_board(g, keep=2)
    a = put(g, 0, "A1")
    b = put(g, 1, "A3")
    ger = add_german(g, "rifleman", "P5")
    rounds(g, initiative=Side.GERMAN)
    a.ar, b.ar, ger.ar = int(ARSpace.TWO_TURN), int(ARSpace.ONE_TURN), int(ARSpace.TWO_TURN)
    assert sequence.current_space(g) == (ARSpace.TWO_TURN, Side.GERMAN)
    ger.ar = int(ARSpace.ONE_TURN)  # the German has taken his first turn
    assert sequence.current_space(g) == (ARSpace.TWO_TURN, Side.US)
    a.ar = int(ARSpace.ONE_TURN)
    assert sequence.current_space(g) == (ARSpace.ONE_TURN, Side.GERMAN)
    ger.ar = int(ARSpace.COMPLETE)
    assert sequence.current_space(g) == (ARSpace.ONE_TURN, Side.US)
    assert {u.uid for u in sequence._eligible(g)} == {a.uid, b.uid}


def test_two_turn_unit_drops_to_one_turn_after_acting():
    """RULES.md §5.3: a 2-Turn unit that acts drops to 1-Turn; after its last turn, Complete."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "A1")
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    give_turn(g, u, ARSpace.TWO_TURN)
    turns.end_turn(g, u)
    assert u.ar == ARSpace.ONE_TURN
    give_turn(g, u, ARSpace.ONE_TURN)
    turns.end_turn(g, u)
    assert u.ar == ARSpace.COMPLETE


def test_round_end_panicked_fall_prone_and_operations_resume():
    """RULES.md §5.4, seed 002 p. 26/p. 25: at the Round's end panicked soldiers fall prone;
    when no known German is active, Operations resume."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "A1")
    ger = add_german(g, "rifleman", "P5")
    rounds(g)
    u.panicked = True
    u.ar = int(ARSpace.PANIC)
    ger.status = int(Status.KILLED)
    sequence.end_round(g)
    assert u.stance == Stance.PRONE and not u.panicked
    assert g.state.phase == Phase.OPERATIONS


def test_round_end_with_active_german_starts_next_round():
    """RULES.md §5.4: with an active known German the next Round begins (initiative rolled)."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    add_german(g, "rifleman", "P5")
    rounds(g, round_no=1)
    force(g, [5, 3])
    sequence.end_round(g)
    assert g.state.phase == Phase.ROUNDS and g.state.round == 2
    assert g.state.initiative == Side.US


# ---------------------------------------------------------------------------- awareness
@pytest.mark.parametrize("roll, aware", [(5, True), (6, False)])
def test_round_two_awareness_pc_check(roll, aware):
    """RULES.md §5 awareness: in Round 2 each unaware US soldier makes a PC check (US3 PC 5)."""
    g = fresh_game()
    clear_board(g, keep=3)
    put(g, 0, "A1")
    put(g, 1, "A3")
    u = put(g, 2, "A5")
    for x in g.us_units()[:3]:
        x.aware = x.uid != u.uid
    add_german(g, "rifleman", "P5")
    force(g, [roll, 5, 5])
    g.state.phase = int(Phase.ROUNDS)
    g.state.round = 1
    sequence.start_round(g)
    assert g.state.round == 2
    assert u.aware is aware


def test_round_three_everyone_aware():
    """RULES.md §5 awareness: from Round 3 all are aware (no roll)."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "A1")
    u.aware = False
    add_german(g, "rifleman", "P5")
    force(g, [5, 5])
    g.state.phase = int(Phase.ROUNDS)
    g.state.round = 2
    sequence.start_round(g)
    assert u.aware


def test_unaware_soldier_may_move_but_not_fire():
    """RULES.md §5: unaware soldiers may move and change stance, not fire or assault."""
    g = fresh_game()
    clear_board(g, keep=1)
    u = put(g, 0, "J5")
    add_german(g, "rifleman", "J3")
    rounds(g, round_no=1)
    give_turn(g, u)
    assert g.can_see(u, g.contact_units()[0])
    u.aware = False
    legal = g.legal_actions()
    assert not any(O.decode(a)[0] in (K.FIRE_AIMED, K.FIRE_SNAP) for a in legal)
    assert any(O.decode(a)[0] == K.MOVE for a in legal)
    u.aware = True
    g.invalidate()
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


# ---------------------------------------------------------------------------- command
def test_in_command_within_cr_of_an_active_unwounded_commander():
    """RULES.md §5: in command = a commander, or within the CR of an active, unpanicked,
    unwounded commander (the sergeant's CR is 2)."""
    g = fresh_game()
    clear_board(g, keep=3)
    sgt = put(g, 0, "E5")
    put(g, 1, "A1")
    pvt = put(g, 2, "E7")
    rounds(g, round_no=3)
    assert g.in_command(pvt)
    pvt2 = put(g, 2, "E8")  # three hexes away
    assert not g.in_command(pvt2)
    put(g, 2, "E7")
    sgt.wounded = True
    assert not g.in_command(pvt)
    sgt.wounded = False
    sgt.panicked = True
    assert not g.in_command(pvt)
    assert g.in_command(g.us_units()[1])  # a commander is always in command


def test_all_in_command_mission_rule():
    """RULES.md §15 mission rules: ``all_in_command_rounds: 2`` puts everyone in command in
    Rounds 1-2 only."""
    g = fresh_game()
    clear_board(g, keep=3)
    put(g, 0, "A1")
    put(g, 1, "A3")
    pvt = put(g, 2, "H1")
    rounds(g, round_no=2)
    assert g.in_command(pvt)
    rounds(g, round_no=3)
    assert not g.in_command(pvt)


def test_give_turn_to_complete_soldier_in_cr():
    """RULES.md §5 command: a commander spends his turn to give an in-command soldier in
    Complete a turn (1-Turn); never to a wounded soldier (seed 002 p. 26) nor beyond CR."""
    g = fresh_game()
    clear_board(g, keep=3)
    sgt = put(g, 0, "E5")
    put(g, 1, "A1")
    pvt = put(g, 2, "E7")
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    give_turn(g, sgt)
    assert pvt.ar == ARSpace.COMPLETE
    assert enc(K.GIVE_TURN, pvt.slot) in g.legal_actions()
    pvt.wounded = True
    g.invalidate()
    assert enc(K.GIVE_TURN, pvt.slot) not in g.legal_actions()
    pvt.wounded = False
    put(g, 2, "E8")
    give_turn(g, sgt)
    assert enc(K.GIVE_TURN, pvt.slot) not in g.legal_actions()
    put(g, 2, "E7")
    give_turn(g, sgt)
    g.step(enc(K.GIVE_TURN, pvt.slot))
    assert sgt.ar == ARSpace.COMPLETE
    assert pvt.ar == ARSpace.COMPLETE or g.acting_unit() is pvt  # he acts at once or has acted


def test_make_aware_within_cr():
    """RULES.md §5: a commander may spend a turn to make the soldiers within his CR aware
    (not the wounded, seed 002 p. 26)."""
    g = fresh_game()
    clear_board(g, keep=4)
    sgt = put(g, 0, "E5")
    put(g, 1, "A1")
    near = put(g, 2, "E6")
    far = put(g, 3, "E9")
    for x in (near, far):
        x.aware = False
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g, round_no=1)
    give_turn(g, sgt)
    g.step(enc(K.MAKE_AWARE))
    assert near.aware and not far.aware


# ---------------------------------------------------------------------------- legality
def test_illegal_order_names_order_and_unit():
    """docs/STYLE.md habit 2: an illegal order raises IllegalActionError naming order and unit."""
    g = fresh_game()
    with pytest.raises(IllegalActionError, match="selected first"):
        g.step(enc(K.FIRE_AIMED, 0))
    g.step(enc(K.SELECT_UNIT, 0))
    with pytest.raises(IllegalActionError, match=r"US1"):
        g.step(enc(K.FIRE_AIMED, 3))


def test_scripted_dice_running_out_is_an_error():
    """RULES.md §1: a scripted sequence that runs out is an error, not a random roll."""
    g = fresh_game()
    add_german(g, "rifleman", "P5")
    force(g, [5])
    g.state.phase = int(Phase.ROUNDS)
    with pytest.raises(DiceExhaustedError):
        sequence.start_round(g)


def test_a_soldier_is_given_a_turn_at_most_once_per_round():
    """RULES.md §5 command ⚙: each soldier may be given a turn once per Round, so two
    commanders cannot hand each other turns forever."""
    g = fresh_game()
    clear_board(g, keep=2)
    sgt = put(g, 0, "E5")
    cpl = put(g, 1, "E6")
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    give_turn(g, sgt)
    g.step(enc(K.GIVE_TURN, cpl.slot))  # the corporal (Complete) gets a turn and acts
    assert g.acting_unit() is cpl
    assert enc(K.GIVE_TURN, sgt.slot) in g.legal_actions()
    g.step(enc(K.GIVE_TURN, sgt.slot))
    assert g.acting_unit() is sgt
    assert enc(K.GIVE_TURN, cpl.slot) not in g.legal_actions()  # already given one
