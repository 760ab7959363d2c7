"""Owns a unit entering a hex or leaving the map (RULES.md §6-§7, §15), written once for
soldiers of either side and for vehicles.

Entering moves the unit and records what the entry may set off, for the sequence of play to
resolve after the order: the paragraph check of a trigger hex (a US soldier on foot, or the
active US driver of a vehicle) and the sighting of placed Germans who are now seen. A soldier
on foot entering a minefield sets it off at once (:func:`ambush_env.core.rules.mines.soldier_enters`;
vehicles on mines: :mod:`~ambush_env.core.vehicles.vehicles`).
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, US, ARSpace, Status
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.mines import soldier_enters
from ambush_env.core.rules.scoring import alarm


def enter_hex(m: Match, u: Unit, dest: int) -> None:
    """Put the soldier ``u`` into ``dest`` (a move, a charge, a drag, a march with a
    prisoner) and record the paragraph check and the sightings it sets off; a minefield in
    ``dest`` goes off first (a soldier it fells triggers no paragraph)."""
    pack_crew_weapon(m, u)
    u.hex = dest
    if m.state.minefields:
        soldier_enters(m, u, dest)
    _entered(m, u, dest)


def vehicle_enters(m: Match, v: Vehicle, dest: int) -> None:
    """Put the vehicle ``v`` and everyone aboard into ``dest`` (a drive or a skid, seed 000
    p. 30-31) without the checks: they are recorded by :func:`vehicle_entered`."""
    v.hex = dest
    units = m.state.units
    for uid in v.occupants:
        units[uid].hex = dest


def vehicle_entered(m: Match, v: Vehicle) -> None:
    """Record the checks of a vehicle that has entered its hex: the paragraph check of its
    active US driver (RULES.md §7) and the sightings."""
    if v.driver >= 0:
        drv = m.state.units[v.driver]
        if drv.status == ACTIVE:
            _entered(m, drv, v.hex)
            return
    m.request("sightings")


def _entered(m: Match, u: Unit, dest: int) -> None:
    # the paragraph check (RULES.md §7) also sets off a map booby trap (module traps)
    if u.side == US and u.status == ACTIVE:
        if dest in m.triggers or dest in m.booby_traps:
            m.request("trigger", u.uid, dest)
        if dest in m.objective_zone:
            alarm(m, u, dest)  # the garrison reacts (scoring.alarm)
    m.request("sightings")


def pack_crew_weapon(m: Match, u: Unit) -> None:
    """Moving a crew weapon (RULES.md §6 ⚙): a prepared crew weapon that moves with its
    gunner must be prepared again where it stops."""
    if u.prepared and u.weapon and m.weapon_class(u.weapon).crew:
        u.prepared = False
        m.emit(E.CrewWeaponMoved(unit=u.name, weapon=u.weapon))


def soldier_exits(m: Match, u: Unit) -> None:
    """``u`` leaves the map from an exit hex (RULES.md §15): removed, inactive, and the
    mission's ``exit_per_soldier`` VP once exits pay (``Match.exit_vp``: the objective taken,
    or leaving is the objective). His turn, if he is playing one, is the caller's."""
    m.emit(E.Exit(unit=u.name, hex=m.board.label(u.hex)))
    u.exited = True
    u.status = int(Status.REMOVED)
    u.ar = int(ARSpace.INACTIVE)
    u.hex = -1
