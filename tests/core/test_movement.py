"""Soldier movement (RULES.md §6; costs ⚙ in data/terrain.yaml), on the farm_assault map."""

from __future__ import annotations

import pytest
from engine_helpers import add_german, clear_board, fresh_game, give_turn, put, rounds

from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Direction, Stance
from ambush_env.core.rules.movement import IMPASSABLE, step_cost


def cost(g, src, dest, stance=Stance.STANDING):
    u = g.us_units()[0]
    u.stance = int(stance)
    return step_cost(g, u, g.board.index(src), g.board.index(dest))


@pytest.mark.parametrize(
    "src, dest, expected, why",
    [
        ("A2", "B2", 1, "clear 1"),
        ("A8", "B8", 1, "road 1"),
        ("B2", "C3", 2, "woods 2"),
        ("A5", "B5", 2, "brush 2"),
        ("M10", "N10", 3, "rubble 3"),
        ("I14", "J13", 2, "rough 2"),
        ("M6", "L6", 1, "building through a door 1"),
        ("K6", "L6", 3, "building through a window 1 + 2"),
        ("G9", "H9", 1, "level ground"),
        ("H9", "H10", 3, "up one level 1 + 1 across an embankment 1"),
        ("G10", "H10", 3, "up one level + crest"),
        ("H10", "H9", 2, "down across the embankment: no climb, embankment 1"),
        ("L5", "M6", IMPASSABLE, "a wall without an aperture"),
        ("L5", "L6", 3, "window from the north"),
        ("L7", "K7", 3, "leaving by a window costs the entered hex + 2"),
    ],
)
def test_mp_costs(src, dest, expected, why):
    """RULES.md §6: clear/road 1, brush/rough/woods 2, rubble 3, building 1 through a door,
    window +2, up one level +1, across an embankment or crest +1, no wall without aperture."""
    g = fresh_game()
    assert cost(g, src, dest) == expected, why


def test_crouching_adds_one_per_hex():
    """RULES.md §6: crouching +1 per hex."""
    g = fresh_game()
    assert cost(g, "A2", "B2", Stance.CROUCHING) == 2
    assert cost(g, "B2", "C3", Stance.CROUCHING) == 3


def test_prone_never_through_a_window():
    """RULES.md §6: window +2 (not prone): a prone soldier cannot climb through a window,
    but crawls through a door."""
    g = fresh_game()
    assert cost(g, "K6", "L6", Stance.PRONE) == IMPASSABLE
    assert cost(g, "M6", "L6", Stance.PRONE) == 1


def _rounds_unit(g, label):
    """US1 acting in a Round at ``label``; US2 still holds a 1-Turn so the Round goes on."""
    clear_board(g, keep=2)
    u = put(g, 0, label)
    partner = put(g, 1, "A14")
    add_german(g, "rifleman", "R14", aware=False, known=False)
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    give_turn(g, u)
    return u


def test_round_move_spends_mps_until_they_run_out():
    """RULES.md §6: a move is taken hex by hex paying MPs; a hex costing more than the MPs
    left is not offered; running out ends the move. US1 has MV 5."""
    g = fresh_game()
    u = _rounds_unit(g, "A2")
    assert u.MV == 5
    se = O.encode(K.MOVE, Direction.SE)
    g.step(O.encode(K.MOVE, Direction.S))  # A3 clear: 1
    assert g.state.turn.mode == "move" and g.state.turn.mp_left == 4
    g.step(se)  # B3? A3 (even col) SE -> B3 clear: 1
    assert g.state.turn.mp_left == 3
    # B3 -> C3 (woods 2) costs 2: allowed with 3 left
    b = g.board
    assert b.label(u.hex) == "B3"
    ne = O.encode(K.MOVE, Direction.NE)
    assert b.label(b.neighbors[u.hex][Direction.NE]) == "C3"
    g.step(ne)
    assert g.state.turn.mp_left == 1
    # C3 -> D3 (woods 2) is beyond the MP left
    assert O.encode(K.MOVE, Direction.SE) not in g.legal_actions()
    g.step(O.encode(K.MOVE, Direction.N))  # C2 clear: 1 -> 0 left: the turn ends
    assert u.ar == ARSpace.COMPLETE


def test_move_then_snap_only_within_half_mv():
    """RULES.md §6: move + snap fire: up to half MV, then one snap fire (at the usual −2)."""
    g = fresh_game()
    _rounds_unit(g, "J5")
    ger = add_german(g, "rifleman", "J2")
    g.invalidate()
    snap = O.encode(K.FIRE_SNAP, g.state.contacts.index(ger.uid))
    g.step(O.encode(K.MOVE, Direction.N))  # J4 clear: 1 MP of 5
    assert snap in g.legal_actions()
    g.step(O.encode(K.MOVE, Direction.S))  # back to J5: 2 MP
    assert snap in g.legal_actions()
    g.step(O.encode(K.MOVE, Direction.N))  # 3 MP > 5 // 2
    assert snap not in g.legal_actions()
    assert O.encode(K.FIRE_AIMED, 0) not in g.legal_actions()


def test_prone_one_hex_per_move_action():
    """RULES.md §6: prone: one hex per move action."""
    g = fresh_game()
    u = _rounds_unit(g, "A2")
    u.stance = int(Stance.PRONE)
    g.invalidate()
    g.step(O.encode(K.MOVE, Direction.S))
    assert u.ar == ARSpace.COMPLETE and g.state.turn.uid != u.uid


def test_free_stance_change_once_per_turn():
    """RULES.md §6: one free stance change per turn; it does not end the turn."""
    g = fresh_game()
    u = _rounds_unit(g, "A2")
    g.step(O.encode(K.STANCE, Stance.CROUCHING))
    assert g.state.turn.uid == u.uid and u.stance == Stance.CROUCHING
    assert not any(O.decode(a)[0] == K.STANCE for a in g.legal_actions())


def test_wounded_stance_change_costs_an_mp():
    """seed 002, p. 26: wounded: MV 2, no free stance change, each change costs an MP."""
    g = fresh_game()
    u = _rounds_unit(g, "A2")
    u.wounded = True
    u.MV = 2
    g.invalidate()
    g.step(O.encode(K.STANCE, Stance.CROUCHING))
    assert g.state.turn.mode == "move" and g.state.turn.mp_left == 1
    g.step(O.encode(K.STANCE, Stance.STANDING))
    assert u.ar == ARSpace.COMPLETE  # both MPs spent: the turn is over


def test_entering_an_enemy_hex_is_a_charge_within_half_mv():
    """RULES.md §6/§10: a move may enter a known German's hex only as a charge assault, with at
    most half MV spent in all (US1: MV 5, so 2 MPs); the assault must follow."""
    g = fresh_game()
    _rounds_unit(g, "A2")
    add_german(g, "rifleman", "A4")
    g.invalidate()
    s = O.encode(K.MOVE, Direction.S)
    g.step(s)  # A3: 1 MP
    assert s in g.legal_actions()  # into A4: 2 MPs in all
    g.step(s)
    assert g.state.turn.mode == "charge"
    assert set(g.legal_actions()) == {O.encode(K.ASSAULT_KILL, 0), O.encode(K.ASSAULT_CAPTURE, 0)}
    g2 = fresh_game()
    _rounds_unit(g2, "A1")
    add_german(g2, "rifleman", "A4")
    g2.invalidate()
    g2.step(s)
    g2.step(s)  # 2 MPs spent: a third hex would make 3 > 2
    assert s not in g2.legal_actions()


def test_hidden_german_does_not_bar_a_hex():
    """docs/API.md: the mask shows only what a player could know: a hidden German's hex is
    offered like any other."""
    g = fresh_game()
    _rounds_unit(g, "A2")
    add_german(g, "rifleman", "A3", known=False)
    g.invalidate()
    assert O.encode(K.MOVE, Direction.S) in g.legal_actions()
