"""Owns assault and capture (RULES.md §10; seed 002 p. 25-26): the chance, the strike back,
capturing a German; numbers ⚙ in ``data/rules.yaml``.

An assault is made on an enemy in the attacker's own hex (a charge assault moves up to half
MV into it first, RULES.md §6). Chance (d10 at or below) =

    base 5 + attacker WS + 1 per extra active attacker of his side in the hex
    − 2 if the attacker is wounded (seed 002 p. 26)
    − the defender's WS when it is +1 or better and he is neither wounded nor panicked
      (a wounded defender cannot use his WS, seed 002 p. 26; a panicked one neither)
    + 2 against an unaware or panicked defender.

Incapacitated and captured soldiers cannot be assaulted (seed 002 p. 26). Success: a Kill
assault rolls on the assault damage row; a Capture assault captures the defender (prone,
Captured, inactive; the attacker becomes his guard, seed 002 p. 25). Failure: the defender,
if active, aware and unpanicked, strikes back once at his own chance (a kill assault).
"""

from __future__ import annotations

from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ACTIVE, ARSpace, Side, Stance, Status
from ambush_env.core.rules.ctx import Match


def chance(m: Match, att: Unit, dfn: Unit) -> tuple[int, dict]:
    """The assault chance of ``att`` against ``dfn`` and its named parts (module docstring)."""
    r = m.rd.assault
    parts = {"base": r.base}
    if att.WS:
        parts["attacker_ws"] = att.WS
    extra = sum(
        1
        for o in m.state.units
        if o.hex == att.hex
        and o.side == att.side
        and o.uid != att.uid
        and o.status == ACTIVE
        and not o.panicked
    )
    if extra:
        parts["extra_attackers"] = extra * r.per_extra_attacker
    if att.wounded:
        parts["wounded"] = m.tables.damage.wounded.assault
    if r.defender_ws_from <= dfn.WS and not dfn.wounded and not dfn.panicked:
        parts["defender_ws"] = -dfn.WS
    if not dfn.aware or dfn.panicked:
        parts["unaware_or_panicked_defender"] = r.unaware_or_panicked_defender
    return sum(parts.values()), parts


def can_assault(m: Match, att: Unit, dfn: Unit) -> bool:
    """Same hex, both active, the attacker aware and unpanicked, the defender an enemy."""
    return (
        att.status == ACTIVE
        and dfn.status == ACTIVE
        and att.hex >= 0
        and att.hex == dfn.hex
        and att.side != dfn.side
        and att.aware
        and not att.panicked
        and att.vehicle < 0
        and dfn.vehicle < 0
    )


def assault(m: Match, att: Unit, dfn: Unit, kind: str) -> list[E.Event]:
    """Resolve a Kill (``kind="kill"``) or Capture assault (legality checked by the caller)."""
    ev = _assault_roll(m, att, dfn, kind)
    ok = ev.success
    events: list[E.Event] = [ev]
    defender_aware = dfn.aware  # only an aware defender strikes back (RULES.md §10)
    if dfn.side == Side.GERMAN:
        dfn.aware = True
    if att.side == Side.GERMAN:
        m.reveal(att)
    if ok:
        if kind == "capture":
            capture(m, dfn, att)
            events.append(E.Captured(unit=dfn.name, guard=att.name))
            m.emit(events[-1])
        else:
            events += _assault_damage(m, dfn)
    elif dfn.status == ACTIVE and defender_aware and not dfn.panicked:
        ev2 = _assault_roll(m, dfn, att, None)
        events.append(ev2)
        if ev2.success:
            events += _assault_damage(m, att)
    m.attack_begins_rounds(f"{att.name} assaulted")
    return events


def _assault_roll(m: Match, att: Unit, dfn: Unit, kind: str | None) -> E.Assault | E.StrikeBack:
    """One assault d10 of ``att`` against ``dfn``, a success at or below his :func:`chance`
    (RULES.md §10): an assault of ``kind`` (``"kill"``, ``"capture"``), or with ``kind`` None
    the defender's strike back. The event is emitted."""
    n, parts = chance(m, att, dfn)
    r = m.dice.d10(f"{att.name} assault" if kind is not None else f"{att.name} strike back")
    roll: dict[str, Any] = {
        "unit": att.name,
        "target": dfn.name,
        "chance": n,
        "modifiers": parts,
        "rolls_": {"assault": r},
        "success": r <= n,
    }
    ev = E.Assault(kind=kind, **roll) if kind is not None else E.StrikeBack(**roll)
    m.emit(ev)
    return ev


def _assault_damage(m: Match, victim: Unit) -> list[E.Event]:
    """A successful kill assault or strike back: a d10 on the assault row (RULES.md §10)."""
    from ambush_env.core.rules.damage import apply_damage

    d = m.dice.d10(f"{victim.name} assault damage")
    res = m.tables.soldier_row["assault"][d]
    ev = E.AssaultDamage(unit=victim.name, rolls_={"damage": d}, result=res)
    m.emit(ev)
    return [ev] + apply_damage(m, victim.uid, res)


def capture(m: Match, prisoner: Unit, guard: Unit) -> None:
    """Seed 002 p. 25: prone, Captured marker, AR marker Inactive; ``guard`` guards him."""
    prisoner.status = int(Status.CAPTURED)
    prisoner.stance = int(Stance.PRONE)
    prisoner.ar = int(ARSpace.INACTIVE)
    prisoner.panicked = False
    prisoner.guard = guard.uid
