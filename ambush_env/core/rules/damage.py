"""Owns damage to soldiers: the damage rows, panic, wounded, incapacitated, killed, and the
drag check (seed 002 p. 26; RULES.md §11).

Functions take the bundle :class:`~ambush_env.core.rules.ctx.Match` (``state``, ``tables``,
``dice``, ``emit``, ``in_rounds``), change the unit in place, and return the events they
emitted (already passed to ``game.emit``).

Escalation (seed 002 p. 26): a wound on a wounded soldier, or an incapacitation of one,
incapacitates him; a wound or an incapacitation of an incapacitated soldier kills him. A
Panic result has an effect only during Rounds and only on an active soldier.

A captured prisoner takes damage like anyone else (seed 002 p. 25: "automatic fire or a grenade
into the hex hurts prisoner and guard alike"); he cannot panic (he is inactive). Whether a
prisoner may be hit at all is decided by the caller (fire, grenades), not here.
"""

from __future__ import annotations

from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import ACTIVE, INCAP, KILLED, PRONE, ARSpace, Status
from ambush_env.core.world.tables import RESULTS

_UNHITTABLE = frozenset((int(Status.KILLED), int(Status.REMOVED), int(Status.HIDDEN)))
_TURN_SPACES = frozenset((int(ARSpace.TWO_TURN), int(ARSpace.ONE_TURN), int(ARSpace.COMPLETE)))
_RESULT_SET = frozenset(RESULTS)


def apply_damage(m: Any, uid: int, result: str) -> list[E.Event]:
    """Apply one damage result to a soldier (seed 002 p. 26).

    Args:
        m: the engine's game object.
        uid: the unit hit (index in ``game.state.units``).
        result: ``"none" | "panic" | "wound" | "incapacitated" | "kill"``, as read on a damage
            row (:data:`~ambush_env.core.world.tables.RESULTS`).

    Returns:
        The emitted events: ``[]`` for ``"none"`` or a unit already dead or off the map,
        otherwise one :class:`~ambush_env.core.model.events.Damage` (dict form ``{"type":
        "damage", "unit": "G1", "result": "wound", "effect": ...}``) where ``effect`` is what
        actually happened after escalation (``"no_effect"`` for a panic outside Rounds or on
        an inactive soldier). A wound that drops items adds ``dropped`` (item ids).

    Effects:
        * panic (Rounds, active soldier): ``ar = PANIC``, ``panicked = True``.
        * wound: ``wounded = True``, prone, AR marker to Complete if it was on a turn space
          (1-Turn, 2-Turn; left alone in Panic, Inactive and outside the track), MV and port
          boxes cut to ``damage.yaml: wounded`` (2 and 1); he keeps his first items and the
          excess drops at once into ``game.state.items[str(hex)]``.
        * incapacitated: prone, ``status = INCAPACITATED``, ``ar = INACTIVE``.
        * kill: prone, ``status = KILLED``, ``ar = INACTIVE``.
        A prisoner who is incapacitated or killed is no longer a prisoner (``guard = -1``).

    Raises:
        AmbushError: an unknown result name.
    """
    if result not in _RESULT_SET:
        raise AmbushError(f"unknown damage result {result!r}; one of {RESULTS}")
    u = m.state.units[uid]
    if result == "none" or u.status in _UNHITTABLE:
        return []
    effect = result
    if result == "wound" or result == "incapacitated":
        if u.status == INCAP:
            effect = "kill"
        elif u.wounded:
            effect = "incapacitated"
    ev = E.Damage(unit=u.name, result=result)
    if effect == "panic":
        if u.status == ACTIVE and m.in_rounds:
            u.ar = int(ARSpace.PANIC)
            u.panicked = True
        else:
            effect = "no_effect"
    elif effect == "wound":
        _wound(m, u, ev)
    elif effect == "incapacitated":
        u.stance = PRONE
        u.status = INCAP
        u.ar = int(ARSpace.INACTIVE)
        u.guard = -1
    else:  # kill
        u.stance = PRONE
        u.status = KILLED
        u.ar = int(ARSpace.INACTIVE)
        u.guard = -1
    ev.effect = effect
    m.emit(ev)
    return [ev]


def _wound(m: Any, u: Any, ev: E.Damage) -> None:
    rules = m.tables.damage.wounded
    u.wounded = True
    if u.vehicle < 0:  # stance is ignored inside a vehicle (seed 000 p. 31)
        u.stance = PRONE
    if u.ar in _TURN_SPACES:
        u.ar = int(ARSpace.COMPLETE)
    if rules.mv < u.MV:
        u.MV = rules.mv
    if u.port_boxes > rules.port_boxes:
        u.port_boxes = rules.port_boxes
    items = m.tables.weapons.items
    used = 0
    keep: list[str] = []
    dropped: list[str] = []
    for x in u.equipment:
        # Keep, oldest first, the items that still fit, by the boxes each fills (a satchel
        # fills 2); drop the rest at once.
        b = items[x].boxes if x in items else 1
        if used + b <= u.port_boxes:
            keep.append(x)
            used += b
        else:
            dropped.append(x)
    if dropped:
        u.equipment[:] = keep
        if u.hex >= 0:
            m.state.items.setdefault(str(u.hex), []).extend(dropped)
        ev.dropped = list(dropped)


def roll_damage(
    m: Any, uid: int, row: str, *, modifier: int = 0, why: str = "damage"
) -> tuple[int, str, list[E.Event]]:
    """Roll a d10 on a damage row and apply the result (seed 002 p. 26).

    For callers that only need "roll on row X" (grenades, satchels, assault, a destroyed
    wall); fire combat rolls itself because the aimed-automatic chain compares raw rolls.

    Args:
        m: the engine's game object.
        uid: the unit hit.
        row: a row id of ``damage.yaml`` (``"grenade_inside"``).
        modifier: added to the roll, which is then clamped to 0..9 (e.g. −2 for a prone
            soldier against a grenade, RULES.md §9: a higher roll is worse).
        why: the label recorded with the roll in ``game.dice.log``.

    Returns:
        ``(roll, result, events)``: the raw d10, the row's result and the events emitted
        (one :class:`~ambush_env.core.model.events.DamageRoll` then those of :func:`apply_damage`).
    """
    results = m.tables.soldier_row[row]
    roll = m.dice.d10(why)
    r = roll + modifier
    r = 0 if r < 0 else 9 if r > 9 else r
    res = results[r]
    u = m.state.units[uid]
    ev = E.DamageRoll(unit=u.name, row=row, roll=roll, modifier=modifier, result=res)
    m.emit(ev)
    return roll, res, [ev] + apply_damage(m, uid, res)


def drag_check(m: Any, uid: int, *, why: str = "drag") -> list[E.Event]:
    """Dragging an incapacitated soldier one hex or loading him into a vehicle (seed 002 p. 26).

    Kills him on a d10 at or below ``damage.yaml: incapacitated.drag_kill`` (0). Bodies and
    riding in a vehicle are safe: call this only for the drag or load action itself.

    Returns:
        The emitted events: a :class:`~ambush_env.core.model.events.DragCheck` (``unit``,
        ``roll``, ``killed``) and, on a kill, the damage event.

    Raises:
        AmbushError: the unit is not incapacitated.
    """
    u = m.state.units[uid]
    if u.status != INCAP:
        raise AmbushError(
            f"{u.name} is not incapacitated: only incapacitated soldiers make the drag check"
        )
    roll = m.dice.d10(why)
    killed = roll <= m.tables.damage.incapacitated.drag_kill
    ev = E.DragCheck(unit=u.name, roll=roll, killed=killed)
    m.emit(ev)
    out: list[E.Event] = [ev]
    if killed:
        out += apply_damage(m, uid, "kill")
    return out
