"""Owns victory points and the end of a mission (RULES.md §15).

Owns awarding VP, the objective taken, the end when no US soldier is left, and scoring the
result by the mission's thresholds. The VP total itself is a query of the bundle
(:attr:`ambush_env.core.ctx.Match.vp`).
"""

from __future__ import annotations

from ambush_env.core import events as E
from ambush_env.core.ctx import Match
from ambush_env.core.state import TurnState
from ambush_env.core.types import RESULT_NAMES, Phase, Result, Side, Status

US, GER = int(Side.US), int(Side.GERMAN)
ACTIVE = int(Status.ACTIVE)


def award_vp(m: Match, amount: int, reason: str) -> None:
    """Add VP (RULES.md §15) and record why."""
    if amount:
        st = m.state
        st.vp += amount
        st.vp_log.append([reason, amount])
        m.emit(E.VP(amount=amount, reason=reason, total=st.vp))


def end_mission(m: Match, reason: str) -> None:
    """End the mission and score it by the result thresholds (RULES.md §15)."""
    st = m.state
    if st.over:
        return
    st.over = True
    st.phase = int(Phase.OVER)
    st.end_reason = reason
    th = m.mission.results
    vp = m.vp
    if vp >= th.decisive_win:
        res = Result.DECISIVE_WIN
    elif vp >= th.win:
        res = Result.WIN
    elif vp >= th.draw:
        res = Result.DRAW
    else:
        res = Result.LOSS
    st.result = int(res)
    st.turn = TurnState()
    st.pending = []
    m.emit(E.MissionEnd(reason=reason, vp=vp, result=RESULT_NAMES[res]))


def check_end(m: Match) -> bool:
    """End when no US soldier is left on the map (RULES.md §15); True when over."""
    st = m.state
    if st.over:
        return True
    for u in st.units:  # (a loop, not any(): this runs at every step of the sequence)
        if u.side == US and u.status == ACTIVE and u.hex >= 0 and u.role != "tank":
            return False  # ⚙ a tank is no soldier: it cannot hold the mission alone
    end_mission(m, "no US soldier left on the map")
    return True


def check_objective(m: Match) -> None:
    """Award the objective VP once: a US soldier in it and no active German in it."""
    st = m.state
    flag = "objective_taken"
    obj = m.objective_hexes
    if not obj or flag in st.flags:
        return
    us_in = False
    for u in st.units:
        if u.status == ACTIVE and u.hex in obj:
            if u.side == GER:
                return
            if u.side == US:
                us_in = True
    if not us_in:
        return
    st.flags.append(flag)
    award_vp(m, m.mission.vp.objective_taken, f"{m.mission.objective.name} taken")
