"""Owns booby traps as map features (mission ``booby_traps``; seed 000 p. 32; RULES.md §15):
a hex that holds a trap until a unit of the US side enters it once.

* Each trap has a damage ``row`` (grenade_outside, grenade_inside, satchel_outside,
  satchel_inside) and ``known`` (true: the briefing marks it for the US). It goes off, or is
  disarmed or eliminated, once: afterwards the hex is harmless (``GameState.traps_gone``;
  positions carry it).
* Whose traps ⚙: the Germans' own (as their minefields, module ``mines``): only the US side
  sets them off, on the paragraph check of the hex entered (RULES.md §7) and before it; a
  soldier the trap fells triggers no paragraph of the hex.
* A US soldier on foot ⚙: an unknown trap goes off at once, no check (he does not look for
  it): one d10 on its row, stance ignored (he trips it). A known trap: he makes a PC check
  (RULES.md §7, d10 at or below his PC): passed, he disarms it (gone, no harm); failed, it
  goes off. A known trap is also avoided by not entering its hex: movement is unchanged.
* A US car driven in (seed 000 p. 32: "In a boobytrapped hex the driver makes a Perception
  Check; failure disables the car and panics the occupants"): the driver's PC check, known or
  not; passed, the car passes and the trap is spotted and made safe ⚙ (gone); failed, the car
  is disabled and those aboard panic (:func:`~ambush_env.core.vehicles.vehicles.booby_trap_car`).
* A tank (seed 000 p. 32: "Tanks ignore ... boobytraps; the boobytrap is eliminated"): no
  harm, no check; the trap is gone (the hex's paragraph trigger is unaffected).
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ACTIVE, US
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.damage import apply_damage
from ambush_env.core.vehicles.vehicles import booby_trap_car
from ambush_env.core.world.vehicle_data import vtype


def armed(m: Match, hex_: int) -> bool:
    """Whether ``hex_`` holds a booby trap that has not gone off, been disarmed or eliminated."""
    return hex_ in m.booby_traps and hex_ not in m.state.traps_gone


def known_traps(m: Match) -> list[int]:
    """The armed traps the US knows of (``known`` in the mission), by hex index."""
    return [h for h, t in m.booby_traps.items() if t.known and h not in m.state.traps_gone]


def enters(m: Match, u: Unit, hex_: int) -> None:
    """``u`` of the US side has entered ``hex_`` (module docstring); nothing when no armed
    trap is there or ``u`` is a German or inactive."""
    if u.side != US or u.status != ACTIVE or not armed(m, hex_):
        return
    st = m.state
    trap = m.booby_traps[hex_]
    label = m.board.label(hex_)
    st.traps_gone.append(hex_)
    if u.vehicle >= 0:
        v = st.vehicles[u.vehicle]
        if vtype(v).kind == "tank":
            m.emit(E.BoobyTrapTank(vehicle=v.name, hex=label))
            return
        if _check(m, u, label):
            return
        booby_trap_car(m, v)
        return
    if trap.known and _check(m, u, label):
        return
    r = m.dice.d10(f"{u.name} booby trap")
    result = m.tables.soldier_row[trap.row][r]
    m.emit(E.BoobyTrap(unit=u.name, row=trap.row, roll=r, result=result, hex=label))
    apply_damage(m, u.uid, result)


def _check(m: Match, u: Unit, label: str) -> bool:
    """The PC check of ``u`` at a booby trap: True when passed (the trap is made safe)."""
    r = m.dice.d10(f"{u.name} booby trap PC check")
    ok = r <= u.PC
    m.emit(E.BoobyTrapCheck(unit=u.name, hex=label, roll=r, pc=u.PC, passed=ok))
    return ok
