"""Owns a unit's turn: starting it and ending it on the Action Round track (RULES.md §5-§6).

Owns :func:`start_turn` and :func:`end_turn` for units of either side: the escaped prisoner
slipping away when his turn would begin, the Operations pulse
record, the marker moving from 2-Turn to 1-Turn to Complete (a wounded soldier gets at most
one turn a Round, seed 002 p. 26), and the objective check at the end of every turn.
"""

from __future__ import annotations

from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import ARSpace, Phase
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.prisoners import escaped_slips_away
from ambush_env.core.rules.scoring import check_objective

TWO, ONE, COMPLETE = int(ARSpace.TWO_TURN), int(ARSpace.ONE_TURN), int(ARSpace.COMPLETE)


def start_turn(m: Match, u: Unit) -> bool:
    """``u`` becomes the acting unit, choosing his action. An escaped prisoner out of every
    US soldier's sight slips away instead (seed 002 p. 25). Returns whether his turn began."""
    if u.escaped and escaped_slips_away(m, u):
        return False
    m.state.turn = TurnState(uid=u.uid)
    if u.vehicle >= 0 and u.role == "tank":  # a tank's Crew Points (seed 000 p. 33)
        m.state.turn.cp_left = m.state.vehicles[u.vehicle].crew
    return True


def end_turn(m: Match, u: Unit) -> None:
    """Finish ``u``'s turn: mark the AR track / the pulse and clear the turn state."""
    st = m.state
    if st.turn.uid == u.uid:
        st.turn = TurnState()
    if st.phase == Phase.OPERATIONS:
        if u.uid not in st.ops_done:
            st.ops_done.append(u.uid)
    elif st.phase == Phase.ROUNDS:
        if u.ar == TWO:
            u.ar = ONE if not u.wounded else COMPLETE
        elif u.ar == ONE:
            u.ar = COMPLETE
    check_objective(m)
