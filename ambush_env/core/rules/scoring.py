"""Owns victory points and the end of a mission (RULES.md §15).

Owns awarding VP, the objective by its kind (``take``, ``hold``, ``capture``, ``demolish``:
the table in :mod:`ambush_env.core.world.missions`), the end when no US soldier is left, and scoring
the result by the mission's thresholds. The VP total itself is a query of the bundle
(:attr:`ambush_env.core.rules.ctx.Match.vp`).
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import (
    ACTIVE,
    CAPTURED,
    GER,
    OBJECTIVE_TAKEN,
    REMOVED,
    RESULT_NAMES,
    US,
    Phase,
    Result,
)
from ambush_env.core.rules.ctx import Match

TAKEN = OBJECTIVE_TAKEN  # the flag set when the objective scores, whatever its kind
_VERB = {"take": "taken", "hold": "held", "capture": "captured", "demolish": "destroyed"}


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
    if st.interrupted is not None:  # a free snap or throw-out left undecided (RULES.md §7, §9)
        st.resume()
    objective_at_end(m)
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


def _held(m: Match) -> bool:
    """An active US soldier in an objective hex and no active German in the objective's zone
    (its hexes and those within ``objective.clear_radius``, RULES.md §15 ⚙ issue 25: the
    garrison holds the approaches too, so a squad that walks in past it takes nothing)."""
    obj = m.objective_hexes
    zone = m.objective_zone
    us_in = False
    for u in m.state.units:
        if u.status == ACTIVE and u.hex in zone:
            if u.side == GER:
                return False
            if u.side == US and u.hex in obj:
                us_in = True
    return us_in


ALARM = "objective alarm"  # the flag set when a US soldier first enters the objective's zone


def alarm(m: Match, u: Unit, hex_: int) -> None:
    """The US soldier ``u`` has entered ``hex_`` of the objective's zone: the first time, the
    objective's ``garrison`` paragraph runs (if the mission names one), and then every active
    German in the zone who is unaware becomes aware (:func:`alert`; RULES.md §15 ⚙ issue 25:
    the garrison reacts to a squad that heads for its position; they act on their cards'
    aware column from then on). Both are requests, resolved after the paragraph the entry
    itself triggers, so the Germans that paragraph or the garrison's places are alerted too.
    Called on every entry of a US soldier on foot or at the wheel (module ``enter``)."""
    st = m.state
    if ALARM in st.flags:
        return
    st.flags.append(ALARM)
    garrison = m.mission.objective.garrison
    if garrison is not None:
        m.request("garrison", garrison, u.uid, hex_)
    m.request("alert")


def run_garrison(m: Match, pid: int, uid: int, hex_: int) -> None:
    """The ``["garrison", paragraph, uid, hex]`` request of :func:`alarm`: the garrison
    paragraph is logged (a ``paragraph`` event) and run now, after the paragraph the same
    entry set off, so the log reads in the order play happened."""
    m.emit(E.Paragraph(hex=m.board.label(hex_), unit=m.state.units[uid].name, paragraph=pid))
    m.request("paragraph", pid, 0, uid, 0)


def alert(m: Match) -> None:
    """Every active German in the objective's zone who is unaware becomes aware (the
    ``["alert"]`` request of :func:`alarm`)."""
    st = m.state
    zone = m.objective_zone
    alerted = [
        g
        for g in st.units
        if g.side == GER and g.status == ACTIVE and g.hex in zone and not g.aware
    ]
    for g in alerted:
        g.aware = True
    if alerted:
        m.emit(E.Message(text=f"alarm: {m.mission.objective.name}"))  # "alarm: the crossroads"


def _captured(m: Match) -> bool:
    """A German of the capture objective's card is a prisoner (or, with ``march_off``, has
    been marched off by his guard, seed 002 p. 25)."""
    obj = m.mission.objective
    for u in m.state.units:
        if u.side != GER or u.role != obj.card:
            continue
        if u.exited and u.status == REMOVED:
            return True  # marched off (prisoners.march_off)
        if u.status == CAPTURED and not obj.march_off:
            return True
    return False


def _score(m: Match) -> None:
    obj = m.mission.objective
    m.state.flags.append(TAKEN)
    award_vp(m, m.mission.vp.objective_taken, f"{obj.name} {_VERB[obj.kind]}")


def check_objective(m: Match) -> None:
    """At the end of every turn: award the objective VP once, for a ``take`` objective held
    now or a ``capture`` objective's German taken (module ``missions``, "Objective kinds").
    A ``hold`` objective scores only at the end (:func:`objective_at_end`); a ``demolish``
    one at its last charge (:func:`note_charge`)."""
    st = m.state
    if not m.objective_hexes or TAKEN in st.flags:
        return
    kind = m.mission.objective.kind
    if (kind == "take" and _held(m)) or (kind == "capture" and _captured(m)):
        _score(m)


def objective_at_end(m: Match) -> None:
    """At the end of the mission (before the result is scored): a ``hold`` objective scores
    when the US hold it now ⚙; a ``capture`` objective met in the last turn scores too."""
    st = m.state
    if TAKEN in st.flags:
        return
    kind = m.mission.objective.kind
    if (kind == "hold" and _held(m)) or (kind == "capture" and _captured(m)):
        _score(m)


def charges_set(m: Match) -> int:
    """Satchel charges counted against a ``demolish`` objective so far."""
    prefix = f"{m.mission.objective.name} charge "
    return sum(1 for f in m.state.flags if f.startswith(prefix))


def charge_counts(m: Match, hex_: int) -> bool:
    """Whether a satchel charge going off in (or against a wall of) ``hex_`` now counts
    against a ``demolish`` objective not yet destroyed: ``hex_`` is one of its hexes, or
    next to one with ``reach: 1`` (RULES.md §15 ⚙; module ``missions``)."""
    obj = m.mission.objective
    if obj.kind != "demolish" or TAKEN in m.state.flags or hex_ < 0:
        return False
    dist = m.board.distance
    return any(dist(hex_, h) <= obj.reach for h in m.objective_hexes)


def note_charge(m: Match, hex_: int) -> None:
    """A satchel charge goes off in ``hex_``, or against a wall of building hex ``hex_``
    (module ``grenades``): against a ``demolish`` objective, in one of its hexes (or next to
    one, ``reach: 1``) it counts (:func:`charge_counts`); the
    ``charges``-th destroys the target and scores the objective (RULES.md §9, §15 ⚙)."""
    obj = m.mission.objective
    st = m.state
    if not charge_counts(m, hex_):
        return
    k = charges_set(m) + 1
    st.flags.append(f"{obj.name} charge {k}")
    m.emit(
        E.Message(
            text=f"satchel charge {k} of {obj.charges} on the {obj.name} ({m.board.label(hex_)})"
        )
    )
    if k >= obj.charges:
        _score(m)
