"""Owns captured Germans and surrender (seed 002 p. 25; RULES.md §10-§11): guards, moving
prisoners, escapes, marching off, being outnumbered.

* A captured German lies prone under a Captured marker, inactive. A US soldier in his hex may
  move him: ``MOVE_PRISONER`` moves guard and prisoner together, both with MV 2 ⚙ (seed 002:
  "both have 2"); the MPs are those of §6 for a standing soldier. Whoever moves him becomes
  his guard. Changing guard is free on the guard's turn (seed 002 p. 25): ``HAND_OVER``
  (:func:`hand_over_targets`) makes another active, unpanicked US soldier on foot in his hex
  the guard of every prisoner he guards there, and his turn goes on.
* The guard acts normally except that he cannot fire a crew weapon (``fire.weapon_refusal``).
* Prisoners may never be harmed on purpose: the US is never offered a grenade or satchel into
  a hex holding a prisoner, automatic fire at a target in such a hex (it would chain into him,
  seed 002 p. 27), nor fire at the walls of such a hex. German fire and grenades into the hex
  hurt prisoner and guard alike.
* A prisoner left in a hex with no active US soldier is free at once (:func:`check_escapes`):
  Rounds commence, every US soldier is aware, he becomes an active contact acting on his
  card's Self-Preservation column for the rest of the mission, and at the start of any of his
  turns out of every US soldier's sight he leaves the map (:func:`escaped_slips_away`).
* A guard who leaves the map by an exit hex marches his prisoners off with him: each scores
  the mission's ``prisoner_marched_off`` VP (on top of ``german_captured``).
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ACTIVE, CAPTURED, ARSpace, Phase, Side, Status
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.scoring import award_vp

# Prisoners and their guard move with ``rules.yaml: prisoners.mv`` (seed 002 p. 25: "both have 2").


def prisoners_in(m: Match, hex_: int) -> list[Unit]:
    """Captured Germans lying in ``hex_``."""
    return [o for o in m.state.units if o.hex == hex_ and o.status == CAPTURED]


def prisoner_hexes(m: Match) -> set[int]:
    """Hexes holding at least one prisoner."""
    return {o.hex for o in m.state.units if o.status == CAPTURED and o.hex >= 0}


def can_move_prisoner(m: Match, u: Unit) -> bool:
    """An active, unpanicked US soldier on foot (any stance: the seed sets none) in a hex with
    a prisoner (seed 002 p. 25)."""
    return (
        u.side == Side.US
        and u.status == ACTIVE
        and not u.panicked
        and u.vehicle < 0
        and bool(prisoners_in(m, u.hex))
    )


def move_prisoners(m: Match, guard: Unit, dest: int) -> list[str]:
    """Move every prisoner in the guard's hex with him into ``dest``; he becomes their guard."""
    moved = []
    for p in prisoners_in(m, guard.hex):
        p.hex = dest
        p.guard = guard.uid
        moved.append(p.name)
    return moved


def hand_over_targets(m: Match, u: Unit) -> list[Unit]:
    """Those ``u`` may hand his prisoners over to now (seed 002 p. 25: "changing guard is
    free on the guard's turn"): ``u`` is an active, unpanicked US soldier on foot guarding a
    prisoner in his hex; the others are the active, unpanicked US soldiers on foot there."""
    if not can_move_prisoner(m, u) or not any(p.guard == u.uid for p in prisoners_in(m, u.hex)):
        return []
    return [
        o
        for o in m.state.units
        if o.uid != u.uid
        and o.side == Side.US
        and o.status == ACTIVE
        and not o.panicked
        and o.vehicle < 0
        and o.hex == u.hex
    ]


def hand_over(m: Match, guard: Unit, to: Unit) -> list[str]:
    """``to`` becomes the guard of every prisoner ``guard`` guards in his hex."""
    moved = []
    for p in prisoners_in(m, guard.hex):
        if p.guard == guard.uid:
            p.guard = to.uid
            moved.append(p.name)
    return moved


def march_off(m: Match, guard: Unit) -> None:
    """The guard exits the map: his hex's prisoners go with him and score VP."""
    for p in prisoners_in(m, guard.hex):
        p.hex = -1
        p.status = int(Status.REMOVED)
        p.exited = True
        m.emit(E.PrisonerMarchedOff(unit=p.name, guard=guard.name))
        award_vp(m, m.mission.vp.german_captured, f"{p.name} marched off (captured)")
        award_vp(m, m.mission.vp.prisoner_marched_off, f"{p.name} marched off")


def check_escapes(m: Match) -> None:
    """Free every prisoner left without an active US soldier in his hex (seed 002 p. 25)."""
    st = m.state
    freed = []
    for p in st.units:
        if p.status != CAPTURED or p.hex < 0 or p.side != Side.GERMAN:
            continue
        if any(o.side == Side.US and o.status == ACTIVE and o.hex == p.hex for o in st.units):
            continue
        p.status = ACTIVE
        p.escaped = True
        p.aware = True
        p.guard = -1
        p.ar = int(ARSpace.NONE)
        if p.uid not in st.contacts:
            m.reveal(p)
        freed.append(p)
        m.emit(E.Escape(unit=p.name, hex=m.board.label(p.hex)))
    if not freed:
        return
    for u in st.units:
        if u.side == Side.US and u.status == ACTIVE:
            u.aware = True
    if st.phase == Phase.OPERATIONS and not st.over:  # Rounds commence, every US soldier aware
        m.request(
            "begin_rounds",
            f"{freed[0].name} escaped",
            [u.uid for u in st.units if u.side == Side.US],
        )


def escaped_slips_away(m: Match, p: Unit) -> bool:
    """At the start of an escaped prisoner's turn: out of every US soldier's sight he leaves
    the map (seed 002 p. 25). Returns True when he left."""
    if not p.escaped or p.status != ACTIVE:
        return False
    if any(
        o.side == Side.US and o.status == ACTIVE and o.hex >= 0 and m.can_see(o, p)
        for o in m.state.units
    ):
        return False
    p.status = int(Status.REMOVED)
    p.ar = int(ARSpace.INACTIVE)
    m.emit(E.EscapedOffMap(unit=p.name, hex=m.board.label(p.hex)))
    p.hex = -1
    return True


def harms_prisoner_hex(m: Match, hex_: int) -> bool:
    """True when an attack into ``hex_`` could harm a prisoner (he is there)."""
    return any(o.hex == hex_ and o.status == CAPTURED for o in m.state.units)


def outnumbered(m: Match, u: Unit) -> bool:
    """RULES.md §10/§14 ⚙: active enemies within ``german.outnumbered_radius`` hexes number
    at least ``german.outnumbered_ratio`` × his side's active units there (him included) —
    the test of a German's Self-Preservation column and of his surrender."""
    cfg = m.rd.german
    dist = m.board.distance
    them = ours = 0
    for o in m.state.units:
        if o.status != ACTIVE or o.hex < 0:
            continue
        if dist(o.hex, u.hex) <= cfg.outnumbered_radius:
            if o.side == u.side:
                ours += 1
            else:
                them += 1
    return them >= cfg.outnumbered_ratio * max(ours, 1)
