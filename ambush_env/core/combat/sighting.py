"""Owns sightings (RULES.md §7 ⚙): a placed German comes into the sight of US soldiers.

Each watcher makes a PC check; those who pass become aware, and the first to pass may take one
free snap fire at the German (using no turn) when his weapon allows: a decision of his
(:func:`offer_free_snap`, :func:`free_snap`), taken before anything else the sighting set off.
Then Rounds begin (a request: only the US soldiers who passed are aware in Round 1). The sequence of play calls
:func:`check_sightings` and :func:`sighting` when it resolves the requests recorded by
:mod:`ambush_env.core.rules.enter` and :mod:`ambush_env.core.play.paragraphs`.
"""

from __future__ import annotations

from ambush_env.core.combat.shooting import can_fire_at, do_fire
from ambush_env.core.model import events as E
from ambush_env.core.model.orders import K_SLOTS
from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import ACTIVE, GER, US
from ambush_env.core.rules.ctx import Match


def watchers_of(m: Match, g: Unit) -> list[Unit]:
    """Active US soldiers on the map who see ``g`` now."""
    return [
        u
        for u in m.state.units
        if u.side == US and u.status == ACTIVE and u.hex >= 0 and m.can_see(u, g)
    ]


def check_sightings(m: Match) -> None:
    """Record a sighting check of every placed, unknown, active German, in placement order
    (each is resolved in turn: an earlier sighting may already have begun Rounds)."""
    st = m.state
    for g in st.units:
        if g.side == GER and g.status == ACTIVE and g.hex >= 0 and g.uid not in st.contacts:
            m.request("sighting_check", g.uid)


def sighting_check(m: Match, g: Unit) -> None:
    """Sight ``g`` if he is still unknown and some US soldier sees him now."""
    if g.status != ACTIVE or g.hex < 0 or g.uid in m.state.contacts:
        return
    watchers = watchers_of(m, g)
    if watchers:
        sighting(m, g, watchers)


def sighting(m: Match, g: Unit, watchers: list[Unit]) -> None:
    """The sighting of ``g`` by ``watchers`` (module docstring)."""
    m.reveal(g)
    first = None
    passed: list[int] = []
    for u in watchers:
        r = m.dice.d10(f"{u.name} sighting PC check")
        ok = r <= u.PC
        m.emit(E.Sighting(unit=u.name, target=g.name, roll=r, pc=u.PC, passed=ok))
        if ok:
            u.aware = True
            passed.append(u.uid)
            if first is None:
                first = u
    if first is not None and can_fire_at(m, first, g, snap=True, free=True):
        offer_free_snap(m, first, g)
    if not m.state.over:
        m.request("begin_rounds", f"sighting of {g.name}", passed)


def offer_free_snap(m: Match, u: Unit, g: Unit) -> None:
    """Make the free snap fire of ``u`` at ``g`` his decision (RULES.md §7 "may take"): the turn
    in progress (anyone's, or none) is saved in ``state.interrupted`` and ``u`` decides in a
    ``"free_snap"`` turn — ``FIRE_SNAP`` at ``g``'s contact slot takes the shot, ``END_TURN``
    declines it (:func:`ambush_env.core.play.legal.legal_orders`). The sequence of play
    resolves nothing more until he has decided (module ``sequence``).

    ⚙ Where no decision can be asked — another free snap already being decided, or ``g``
    beyond the order space's contact slots (``orders.K_SLOTS``) — the shot is taken at once,
    as a player would.
    """
    st = m.state
    contacts = st.contacts
    if st.interrupted is not None or g.uid not in contacts or contacts.index(g.uid) >= K_SLOTS:
        _take(m, u, g)
        return
    st.interrupt(TurnState(uid=u.uid, mode="free_snap", target=g.uid))


def free_snap(m: Match, take: bool) -> None:
    """Carry out the pending free snap decision (:func:`offer_free_snap`): give the
    interrupted turn back, then take the shot (``take``) or emit its refusal. What the shot
    sets off is resolved before the requests the sighting left (depth first, module
    ``sequence``).

    Raises:
        RuntimeError: no free snap is being decided.
    """
    st = m.state
    t = st.turn
    if t.mode != "free_snap" or st.interrupted is None:
        raise RuntimeError("no free snap fire is being decided")
    u, g = st.units[t.uid], st.units[t.target]
    st.resume()
    if take and can_fire_at(m, u, g, snap=True, free=True):
        rest, st.pending = st.pending, []
        _take(m, u, g)
        st.pending.extend(rest)
    else:
        m.emit(E.FreeSnapDeclined(unit=u.name, target=g.name))


def _take(m: Match, u: Unit, g: Unit) -> None:
    m.emit(E.FreeSnapFire(unit=u.name, target=g.name))
    do_fire(m, u, g, snap=True, begin_rounds=False)
