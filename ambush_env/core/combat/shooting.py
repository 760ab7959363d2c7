"""Owns shooting and readying weapons (RULES.md §6, §8): who may fire at whom, one shot with
its side effects, preparing and reloading.
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, Side, Stance
from ambush_env.core.rules import fire
from ambush_env.core.rules.ctx import Match
from ambush_env.core.vehicles import vehicle_fire


def can_fire_at(m: Match, u: Unit, target: Unit, *, snap: bool, free: bool = False) -> bool:
    """Whether ``u`` may fire his personal/crew weapon at ``target`` now (RULES.md §6, §8).

    Needs ``u`` aware (unless ``free``, the sighting snap) and unpanicked; the rest is
    :func:`ambush_env.core.rules.fire.fire_refusal` (one source of legality with ``fire``). A
    soldier in a vehicle is fired at as the vehicle, one target with its occupants (seed 000
    p. 31): :func:`ambush_env.core.vehicles.vehicle_fire.vehicle_fire_refusal`. Through his contact
    slot only a German card's fire at a soldier in a car does so ⚙ (the cards name soldiers);
    the US, and anyone firing at a tank, aim at the vehicle's slot (``FIRE_*_VEHICLE``).
    """
    if u.panicked or (not free and not u.aware):
        return False
    if target.status != ACTIVE or target.hex < 0:
        return False
    if target.role == "tank" and target.vehicle >= 0:
        return False  # a tank is attacked through its vehicle slot (module tanks)
    if target.vehicle >= 0:
        v = m.state.vehicles[target.vehicle]
        if u.side != Side.GERMAN or v.unit >= 0:
            return False
        return vehicle_fire.vehicle_fire_refusal(m, u, v, snap=snap) is None
    return fire.fire_refusal(m, u, target, snap=snap) is None


def can_fire_at_vehicle(m: Match, u: Unit, v: Vehicle, *, snap: bool) -> bool:
    """Whether ``u`` may fire his own weapon at the vehicle ``v`` now (seed 000 p. 31): aware
    and unpanicked, then :func:`ambush_env.core.vehicles.vehicle_fire.vehicle_fire_refusal`."""
    if u.panicked or not u.aware:
        return False
    return vehicle_fire.vehicle_fire_refusal(m, u, v, snap=snap) is None


def do_prepare(m: Match, u: Unit) -> bool:
    """Carry out ``PREPARE`` (what :func:`prepare_kind` says); False when nothing applies."""
    what = prepare_kind(m, u)
    if what == "reload":
        reload(m, u)
    elif what == "weapon":
        u.prepared = True
        m.emit(E.Prepare(unit=u.name, weapon=u.weapon))
    elif what == "satchel":
        u.satchel_ready = True
        m.emit(E.Prepare(unit=u.name, item="satchel"))
    return what is not None


def reload(m: Match, u: Unit) -> None:
    """Load a clip (or a rocket) from the port boxes. A weapon that must be prepared (the
    bazooka) is ready after it: loading one round is its prepare action (weapons.yaml)."""
    w = m.weapon(u.weapon)
    u.equipment.remove(w.reload)
    u.ammo = w.clip
    ev = E.Reload(unit=u.name, weapon=u.weapon)
    wc = m.weapon_class(u.weapon)
    if wc.needs_prepare and not wc.crew:
        u.prepared = True
        ev.prepared = True
    m.emit(ev)


def prepare_kind(m: Match, u: Unit) -> str | None:
    """What ``PREPARE`` does for ``u`` now, or None (RULES.md §6), first that applies:

    ``"reload"`` a dry weapon with a clip carried (``weapons.yaml`` reload item);
    ``"weapon"`` prepare a bazooka or crew weapon (a crew weapon needs its second man);
    ``"satchel"`` prepare a carried satchel charge for throwing.
    """
    if not u.weapon:  # a German whose weapon was taken (an escaped prisoner)
        if "satchel" in u.equipment and not u.satchel_ready and u.stance == Stance.STANDING:
            return "satchel"
        return None
    w = m.weapon(u.weapon)
    wc = m.weapon_class(u.weapon)
    if u.ammo == 0 and w.reload is not None and w.reload in u.equipment:
        return "reload"
    if wc.needs_prepare and not u.prepared and u.ammo != 0:
        if wc.crew and not any(
            o.uid != u.uid and o.side == u.side and o.hex == u.hex and o.status == ACTIVE
            for o in m.state.units
        ):
            return None
        return "weapon"
    if "satchel" in u.equipment and not u.satchel_ready and u.stance == Stance.STANDING:
        return "satchel"
    return None


def do_fire(
    m: Match, u: Unit, target: Unit, *, snap: bool, begin_rounds: bool = True
) -> list[E.Event]:
    """Resolve one shot (``fire.fire``) and its side effects on the sequence of play:
    the target becomes aware; a hidden German who fires is revealed; fire in Operations
    begins Rounds (RULES.md §5) unless ``begin_rounds`` is False (the sighting's free snap
    fire: the sighting begins them itself, with only its passers aware)."""
    if target.vehicle >= 0:  # the vehicle and its occupants are one target (seed 000 p. 31)
        v = m.state.vehicles[target.vehicle]
        events = vehicle_fire.fire_at_vehicle(
            m, u, v, snap=snap, aspect=vehicle_fire.attack_aspect(m, u, v)
        )
    else:
        events = fire.fire(m, u.uid, target.uid, snap=snap)
    if target.side == Side.GERMAN and target.status == ACTIVE and not target.aware:
        target.aware = True
    m.attacked(u, f"{u.name} fired", begin_rounds)
    return events


def do_fire_vehicle(
    m: Match,
    u: Unit,
    v: Vehicle,
    aspect: str,
    *,
    snap: bool,
    begin_rounds: bool = True,
    called: str | None = None,
) -> list[E.Event]:
    """Resolve one shot of ``u``'s own weapon at the vehicle ``v``, hitting ``aspect``
    (:func:`ambush_env.core.vehicles.vehicle_fire.fire_at_vehicle`), and its side effects as
    :func:`do_fire`: the Germans aboard become aware, a hidden German who fires is revealed,
    fire in Operations begins Rounds."""
    events = vehicle_fire.fire_at_vehicle(m, u, v, snap=snap, aspect=aspect, called=called)
    units = m.state.units
    for uid in v.occupants:
        o = units[uid]
        if o.side == Side.GERMAN and o.status == ACTIVE and not o.aware:
            o.aware = True
    m.attacked(u, f"{u.name} fired", begin_rounds)
    return events
