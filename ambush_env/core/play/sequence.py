"""Owns the sequence of play (RULES.md §5): the one loop, resolving interruptions, and the
current player.

:func:`advance` resolves the requests that the last order recorded (``state.pending``), then
runs the phases — Operations pulses, Rounds with initiative and the Action Round track —
until a unit must decide, and returns that :class:`Decision`: a side and a unit, a side
that must first select one of several eligible units, or the end of the mission. The
Gymnasium env (US seat), the card interpreter (German seat) and two-sided play all read it.
Nothing else in the core advances play.

Requests are resolved depth first: what resolving one request records is resolved before
the requests recorded earlier, so an order's consequences come out in the order the rules
give them. The kinds:

* ``["after", uid, kind, arg, note]`` — the rest of an order once its interruptions are
  resolved (:func:`ambush_env.core.play.apply.after_order`);
* ``["trigger", uid, hex]`` — the paragraph check of a hex entered (RULES.md §7);
* ``["paragraph", id, effect, uid, jumps]`` — the next effect of a paragraph (RULES.md §15);
* ``["sightings"]``, ``["sighting_check", gid]``, ``["sighting", gid, watchers]`` — RULES.md §7;
* ``["begin_rounds", reason, aware]`` — Rounds begin at once (RULES.md §5); ``aware`` is the
  list of US uids aware in Round 1, or None to keep every US soldier's awareness (an attack);
* ``["garrison", paragraph, uid, hex]`` — the objective's garrison paragraph runs (RULES.md
  §15 ⚙, :func:`ambush_env.core.rules.scoring.run_garrison`);
* ``["alert"]`` — the objective's garrison becomes aware (RULES.md §15 ⚙,
  :func:`ambush_env.core.rules.scoring.alert`).

A sighting's free snap fire and the throw-out of a live German grenade are decisions of the
US soldier who may make them (RULES.md §7, §9;
:func:`ambush_env.core.combat.sighting.offer_free_snap`,
:func:`ambush_env.core.combat.grenades.explode`): the turn in progress is saved in
``state.interrupted``, resolution stops, and :func:`advance` returns his decision (whatever
his AR space); his order gives the turn back and resolution goes on where it stopped.

Choices (⚙): Operations resume at the end of a Round in which no known German is active
(seed 002 p. 25); Germans in one AR space act in the order they were placed (RULES.md §5.3
"card-number order": our cards carry ids, not numbers); an escaped prisoner out of every US
soldier's sight slips away at the start of his turn (seed 002 p. 25).
"""

from __future__ import annotations

from dataclasses import dataclass

from ambush_env.core.combat import sighting
from ambush_env.core.model import events as E
from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import (
    ACTIVE,
    CAPTURED,
    GER,
    PRONE,
    US,
    ARSpace,
    Phase,
)
from ambush_env.core.play import apply, paragraphs
from ambush_env.core.rules import prisoners, scoring
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.scoring import check_end, end_mission
from ambush_env.core.rules.turns import start_turn
from ambush_env.core.vehicles import tanks, vehicles

TWO, ONE, COMPLETE, PANIC, INACTIVE = (
    int(ARSpace.TWO_TURN),
    int(ARSpace.ONE_TURN),
    int(ARSpace.COMPLETE),
    int(ARSpace.PANIC),
    int(ARSpace.INACTIVE),
)
MAX_STEPS = 10000  # defensive: a rules bug must not hang an RL run


@dataclass(frozen=True, slots=True)
class Decision:
    """Who decides next.

    Attributes:
        side: ``Side.US`` or ``Side.GERMAN``; −1 when the mission is over.
        uid: the deciding unit's uid; −1 when the side must first select a unit (``SELECT_UNIT``).
    """

    side: int
    uid: int

    @property
    def over(self) -> bool:
        return self.side < 0


OVER = Decision(-1, -1)
_DECISIONS: dict[tuple[int, int], Decision] = {}


def _decision(side: int, uid: int) -> Decision:
    """``Decision(side, uid)``, one shared instance per value (it is frozen; building a frozen
    dataclass at every step of the sequence costs more than the lookup)."""
    d = _DECISIONS.get((side, uid))
    if d is None:
        d = _DECISIONS[(side, uid)] = Decision(side, uid)
    return d


def decision(m: Match) -> Decision:
    """The current decision of a resolved state (no requests pending)."""
    st = m.state
    if st.over:
        return OVER
    if st.turn.uid >= 0:
        return _decision(st.units[st.turn.uid].side, st.turn.uid)
    return _decision(US, -1)


def eligible(m: Match) -> list[Unit]:
    """US units that a ``SELECT_UNIT`` order may pick now (empty while a unit is acting)."""
    st = m.state
    if st.over or st.turn.uid >= 0:
        return []
    return _eligible(m)


def _eligible(m: Match) -> list[Unit]:
    st = m.state
    if st.phase == Phase.OPERATIONS:
        done = st.ops_done
        return [
            u
            for u in st.units
            if u.side == US and u.status == ACTIVE and u.hex >= 0 and u.uid not in done
        ]
    space, side = current_space(m)
    if side != US:
        return []
    return [u for u in st.units if u.side == US and u.ar == space and u.status == ACTIVE]


def current_space(m: Match) -> tuple[int, int]:
    """The first AR space with a marker: 2-Turn winner, 2-Turn loser, 1-Turn winner, loser."""
    st = m.state
    win = st.initiative
    lose = 1 - win
    best = 4  # rank: 0 2-Turn winner, 1 2-Turn loser, 2 1-Turn winner, 3 1-Turn loser (one pass)
    for u in st.units:
        ar = u.ar
        if ar == TWO:
            r = 0
        elif ar == ONE:
            r = 2
        else:
            continue
        side = u.side
        if side == win:
            pass
        elif side == lose:
            r += 1
        else:
            continue
        if r < best and u.status == ACTIVE:
            best = r
            if r == 0:
                break
    if best == 4:
        return -1, -1
    return (TWO if best < 2 else ONE), (win if best % 2 == 0 else lose)


# ------------------------------------------------------------------------------ requests
def resolve(m: Match) -> None:
    """Resolve every pending request, depth first (module docstring), until none is left or a
    sighting's free snap fire waits for its soldier's decision (the rest stays pending)."""
    st = m.state
    while st.pending:
        if st.over:
            st.pending = []
            return
        if st.interrupted is not None:
            return
        req = st.pending.pop(0)
        rest = st.pending
        st.pending = []
        _RESOLVERS[req[0]](m, req)
        st.pending.extend(rest)


def _after(m: Match, req: list) -> None:
    apply.after_order(m, req)


def _trigger(m: Match, req: list) -> None:
    paragraphs.paragraph_check(m, m.state.units[req[1]], req[2])


def _paragraph(m: Match, req: list) -> None:
    _, pid, k, uid, jumps = req
    paragraphs.run_effect(m, pid, k, m.state.units[uid] if uid >= 0 else None, jumps)


def _garrison(m: Match, req: list) -> None:
    _, pid, uid, hex_ = req
    scoring.run_garrison(m, pid, uid, hex_)


def _alert(m: Match, req: list) -> None:
    scoring.alert(m)


def _sightings(m: Match, req: list) -> None:
    sighting.check_sightings(m)


def _sighting_check(m: Match, req: list) -> None:
    sighting.sighting_check(m, m.state.units[req[1]])


def _sighting(m: Match, req: list) -> None:
    units = m.state.units
    sighting.sighting(m, units[req[1]], [units[i] for i in req[2]])


def _begin_rounds(m: Match, req: list) -> None:
    _, reason, aware = req
    st = m.state
    if aware is None:
        aware = [u.uid for u in st.units if u.side == US and u.aware]
    begin_rounds(m, reason, set(aware))


_RESOLVERS = {
    "after": _after,
    "trigger": _trigger,
    "paragraph": _paragraph,
    "sightings": _sightings,
    "sighting_check": _sighting_check,
    "sighting": _sighting,
    "begin_rounds": _begin_rounds,
    "garrison": _garrison,
    "alert": _alert,
}


# ------------------------------------------------------------------------------ the loop
def advance(m: Match) -> Decision:
    """Resolve the pending requests and run the sequence of play until a unit must decide.

    Returns:
        The :class:`Decision` (``OVER`` when the mission has ended).

    Raises:
        RuntimeError: the sequence did not reach a decision in ``MAX_STEPS`` iterations (a
            rules bug; never a silent hang).
    """
    st = m.state
    for _ in range(MAX_STEPS):
        resolve(m)
        if not m.omniscient_germans:
            m.update_german_contacts()
        if check_end(m):
            return OVER
        if st.interrupted is not None:  # a free snap or throw-out to decide (he is active)
            return _decision(US, st.turn.uid)
        if _any_prisoner_on_map(st.units):
            prisoners.check_escapes(m)
            if st.pending:
                continue
        if st.turn.uid >= 0:
            u = st.units[st.turn.uid]
            if u.status == ACTIVE and (st.phase != Phase.ROUNDS or u.ar in (TWO, ONE)):
                return _decision(u.side, u.uid)
            st.turn = TurnState()  # the acting unit was knocked out or panicked in his turn
            continue
        if st.phase == Phase.OPERATIONS:
            elig = _eligible(m)
            if not elig:
                _end_pulse(m)
                continue
            if len(elig) == 1:
                start_turn(m, elig[0])
                return _decision(US, elig[0].uid)
            return _decision(US, -1)
        space, side = current_space(m)
        if space < 0:
            end_round(m)
            continue
        if side == GER:
            g = next(u for u in st.units if u.side == GER and u.ar == space and u.status == ACTIVE)
            if not start_turn(m, g):
                continue  # an escaped prisoner slipped away
            return _decision(GER, g.uid)
        elig = _eligible(m)
        if len(elig) == 1:
            start_turn(m, elig[0])
            return _decision(US, elig[0].uid)
        return _decision(US, -1)
    raise RuntimeError("sequence of play did not reach a decision")


def _any_prisoner_on_map(units: list[Unit]) -> bool:
    return any(u.status == CAPTURED and u.hex >= 0 for u in units)


def _end_pulse(m: Match) -> None:
    st = m.state
    st.pulse += 1
    st.ops_done = []
    m.emit(E.PulseEnd(pulse=st.pulse))
    if m.rules == "d100" and st.vehicles:  # fires and countdowns run each pulse too ⚙
        vehicles.d100_tick(m)
    if st.pulse >= m.mission.time_limit.operations_pulses:
        end_mission(m, "time limit (Operations pulses)")
        return
    n = m.mission.rules.event_every_pulses  # a random event check (RULES.md §15 ⚙)
    if n and st.pulse % n == 0:
        paragraphs.random_event(m, f"pulse {st.pulse}")


# ------------------------------------------------------------------------------ Rounds
def begin_rounds(m: Match, reason: str, aware: set[int] | frozenset[int] = frozenset()) -> None:
    """Switch to Rounds at once (RULES.md §5); Round numbers restart at 1.

    Args:
        reason: why (for the event).
        aware: uids of the US soldiers aware in Round 1 (they passed a sighting check, or
            were aware already when an attack began Rounds); every other US soldier is
            unaware (RULES.md §5 awareness ⚙).
    """
    st = m.state
    if st.phase != Phase.OPERATIONS or st.over:
        return
    st.phase = int(Phase.ROUNDS)
    st.round = 0
    st.ops_done = []
    st.turn = TurnState()  # the unit's Operations action is over
    for u in st.units:
        if u.side == US:
            u.aware = u.uid in aware
    m.emit(E.RoundsBegin(reason=reason))
    start_round(m)


def start_round(m: Match) -> None:
    """A new Round: the awareness checks, initiative and the AR track (RULES.md §5)."""
    st = m.state
    st.round += 1
    st.rounds_total += 1
    if st.rounds_total > m.mission.time_limit.rounds:
        end_mission(m, "time limit (Rounds)")
        return
    if m.rules == "d100" and st.vehicles:  # seed 003: fires and countdowns, each Round
        vehicles.d100_tick(m)
        if st.over:
            return
    d = m.dice
    aw = m.rd.awareness
    for u in st.units:  # RULES.md §5 awareness ⚙ (rules.yaml: awareness)
        if u.side == US and u.status == ACTIVE and not u.aware:
            if st.round >= aw.aware_round:
                u.aware = True
            elif st.round == aw.check_round:
                r = d.d10(f"{u.name} awareness PC check")
                u.aware = r <= u.PC
                m.emit(E.AwarenessCheck(unit=u.name, roll=r, pc=u.PC, aware=u.aware))
    german_awareness(m)
    us_roll = d.d10("US initiative")
    ger_roll = d.d10("German initiative")
    st.us_roll, st.german_roll = us_roll, ger_roll
    st.initiative = US if us_roll > ger_roll else GER
    ev_ar = {}
    for u in st.units:
        u.panicked = False
        u.given_turn = False
        if u.status != ACTIVE or u.hex < 0:
            u.ar = INACTIVE if u.status != ACTIVE else int(ARSpace.NONE)
            continue
        if u.side == GER and u.uid not in st.contacts:
            u.ar = int(ARSpace.NONE)  # hidden: no marker
            continue
        val = (us_roll if u.side == US else ger_roll) + u.IN
        ev_ar[u.name] = val
        u.ar = ar_space(m, u, val)
        if u.ar == PANIC:
            u.panicked = True
    m.emit(
        E.RoundStart(
            round=st.round,
            rolls_={"US": us_roll, "German": ger_roll},
            initiative="US" if st.initiative == US else "German",
            ar=ev_ar,
        )
    )


def german_awareness(m: Match) -> None:
    """Unaware *known* Germans who see a US soldier make a PC check to become aware ⚙ (at the
    start of each Round; hidden Germans neither act nor check until found)."""
    st = m.state
    for g in st.units:
        if g.side != GER or g.status != ACTIVE or g.aware or g.hex < 0 or g.uid not in st.contacts:
            continue
        if any(
            o.side == US and o.status == ACTIVE and o.hex >= 0 and m.can_see(g, o) for o in st.units
        ):
            r = m.dice.d10(f"{g.name} awareness PC check")
            g.aware = r <= g.PC
            m.emit(E.AwarenessCheck(unit=g.name, roll=r, pc=g.PC, aware=g.aware))


def ar_space(m: Match, u: Unit, val: int) -> int:
    """The AR track of RULES.md §5 ⚙ (thresholds in ``rules.yaml: ar_track``); a tank's
    crew never obeys command and panics only at IN 0-1 on a roll of 0-2 (seed 000 p. 31,
    :func:`~ambush_env.core.vehicles.tanks.ar_space`)."""
    if tanks.is_tank(u):
        return tanks.ar_space(m, u, val)
    t = m.rd.ar_track
    if val >= t.two_turn:
        sp = TWO
    elif val >= t.one_turn:
        sp = ONE
    elif val >= t.command:
        sp = ONE if m.in_command(u) else COMPLETE
    else:
        sp = ONE if m.in_command(u) else PANIC
    if u.wounded and sp == TWO:
        sp = ONE  # seed 002 p. 26: at most one turn per Round
    return sp


def end_round(m: Match) -> None:
    """The end of a Round: the panicked fall prone; Operations resume when no known German is
    active (seed 002 p. 25), else the next Round starts."""
    st = m.state
    for u in st.units:
        if u.panicked and u.status == ACTIVE and u.vehicle < 0:
            u.stance = PRONE  # seed 002 p. 26 (stance is ignored inside a vehicle, seed 000)
        u.panicked = False
        if u.status == ACTIVE:
            u.ar = int(ARSpace.NONE)
    m.emit(E.RoundEnd(round=st.round))
    n = m.mission.rules.event_every_rounds  # a random event check (RULES.md §15 ⚙)
    if n and st.rounds_total % n == 0:
        paragraphs.random_event(m, f"round {st.rounds_total}")
    if not m.active_known_germans():
        st.phase = int(Phase.OPERATIONS)
        st.round = 0
        st.initiative = -1
        m.emit(E.OperationsResume())
        return
    start_round(m)
