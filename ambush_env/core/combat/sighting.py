"""Owns sightings (RULES.md §7 ⚙): a placed German comes into the sight of US soldiers.

Each watcher makes a PC check; those who pass become aware, and the first to pass takes one
free snap fire at the German (using no turn) when his weapon allows. Then Rounds begin (a
request: only the US soldiers who passed are aware in Round 1). The sequence of play calls
:func:`check_sightings` and :func:`sighting` when it resolves the requests recorded by
:mod:`ambush_env.core.rules.enter` and :mod:`ambush_env.core.play.paragraphs`.
"""

from __future__ import annotations

from ambush_env.core.combat.shooting import can_fire_at, do_fire
from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
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
        m.emit(E.FreeSnapFire(unit=first.name, target=g.name))
        do_fire(m, first, g, snap=True, begin_rounds=False)
    if not m.state.over:
        m.request("begin_rounds", f"sighting of {g.name}", passed)
