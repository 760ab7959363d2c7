"""Owns carrying: port boxes, picking up and dropping equipment, captured weapons, dragging the
fallen (RULES.md §4, §6; seed 002 p. 26-27).

Port boxes: a soldier's ``equipment`` fills at most ``port_boxes`` boxes (4; 1 when wounded),
each item taking the boxes ``weapons.yaml: items`` gives (a satchel charge 2).

What lies in a hex (:func:`items_here`), in this fixed order, numbered for ``PICK_UP`` slots:
loose items (``GameState.items``; a wounded man's dropped excess lands there), then the weapon
and the port-box items of every incapacitated, killed or captured German in the hex, by uid.
A weapon appears as ``"weapon:<id>"`` (a fallen German's) or ``"weapon:<id>:<ammo>"`` (one laid
down loose, with the rounds left in it).

Picking up (one action, in Operations or Rounds) ⚙:
* an item goes into the port boxes if they have room (grenades as US grenades, seed 002);
  the clips of German weapons are not taken ⚙: the captured-equipment table of seed 002
  p. 27 gives a weapon one clip (none if the German had run dry) and no more;
* a German weapon replaces the soldier's own, which is laid down in the hex as a loose
  ``"weapon:<id>:<ammo>"``; it comes with one clip (none if the German had run dry) and
  counts 1 lower (``captured_weapon``: the −1 of weapons.yaml on its to-hit and on the PC
  check that clears its jam, seed 002 p. 27);
  US ammunition rules apply from then on (he reloads only from clips he carries);
* a loose weapon picked up again has the rounds it was laid down with, and its jam
  (``"weapon:<id>:<ammo>:jammed"``): swapping weapons never refills one nor clears a jam.

Dropping (one action): a port-box item is laid down as a loose item.

Dragging (seed 002 p. 26): a standing active soldier drags an incapacitated soldier or a body
in his hex one hex (one action, paying the hex's MP cost within his MV); an incapacitated
soldier dragged is killed on a d10 of 0 (``damage.drag_check``); a body is moved safely.
"""

from __future__ import annotations

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ACTIVE, Side, Stance, Status
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.enter import enter_hex

_FALLEN = (int(Status.INCAPACITATED), int(Status.KILLED), int(Status.CAPTURED))


def boxes(m: Match, item: str) -> int:
    """Port boxes an item fills (weapons.yaml ``items``; unknown items 1)."""
    it = m.tables.weapons.items.get(item)
    return it.boxes if it is not None else 1


def boxes_used(m: Match, u: Unit) -> int:
    return sum(boxes(m, x) for x in u.equipment)


def items_here(m: Match, hex_: int) -> list[tuple[str, int, str]]:
    """``(source, uid, item)`` of everything that can be picked up in ``hex_``, in slot order.

    ``source`` is ``"loose"`` (uid −1) or ``"weapon"`` / ``"box"`` of the fallen unit ``uid``.
    """
    out: list[tuple[str, int, str]] = [("loose", -1, x) for x in m.state.items.get(str(hex_), [])]
    for o in m.state.units:
        if o.hex == hex_ and o.side == Side.GERMAN and o.status in _FALLEN:
            if o.weapon:
                out.append(("weapon", o.uid, "weapon:" + o.weapon))
            out.extend(("box", o.uid, x) for x in o.equipment)
    return out


def can_pick_up(m: Match, u: Unit, slot: int) -> bool:
    """Whether ``u`` may pick up the item in ``slot`` of his hex."""
    if u.status != ACTIVE or u.hex < 0 or u.panicked or u.vehicle >= 0:
        return False
    here = items_here(m, u.hex)
    if slot >= len(here):
        return False
    return can_take(m, u, here[slot][2])


def pickable_slots(m: Match, u: Unit, max_slots: int) -> list[int]:
    """The ``PICK_UP`` slots ``u`` may take now (one pass over the hex)."""
    if u.status != ACTIVE or u.hex < 0 or u.panicked or u.vehicle >= 0:
        return []
    st = m.state
    if str(u.hex) not in st.items and not any(
        o.hex == u.hex and o.side == Side.GERMAN and o.status in _FALLEN for o in st.units
    ):
        return []
    here = items_here(m, u.hex)
    return [k for k in range(min(max_slots, len(here))) if can_take(m, u, here[k][2])]


def can_take(m: Match, u: Unit, item: str) -> bool:
    """Whether ``u`` can take ``item`` (a weapon, or an item that fits his port boxes)."""
    if item.startswith("weapon:"):
        wid = loose_weapon(item)[0]
        return wid in m.tables.weapons.weapons and wid != u.weapon
    it = m.tables.weapons.items.get(item)
    if it is not None and it.kind == "clip" and it.weapon is not None:
        w = m.tables.weapons.weapons.get(it.weapon)
        if w is not None and w.side != "us":
            return False  # German clips are not captured equipment (seed 002 p. 27) ⚙
    return boxes_used(m, u) + boxes(m, item) <= u.port_boxes


def loose_weapon(item: str) -> tuple[str, int | None, bool]:
    """``(weapon id, ammo, jammed)`` of a ``"weapon:<id>[:<ammo>[:jammed]]"`` item; ammo None
    when not given."""
    parts = item.split(":")
    return (
        parts[1],
        (int(parts[2]) if len(parts) > 2 else None),
        len(parts) > 3 and parts[3] == "jammed",
    )


def pick_up(m: Match, u: Unit, slot: int) -> None:
    """Pick up the item in ``slot`` (legality checked by the caller)."""
    st = m.state
    source, uid, item = items_here(m, u.hex)[slot]
    key = str(u.hex)
    ev = E.PickUp(unit=u.name, item=item)
    if source == "loose":
        st.items[key].remove(item)
        if not st.items[key]:
            del st.items[key]
    elif source == "box":
        st.units[uid].equipment.remove(item)
        ev.from_ = st.units[uid].name
    else:
        ev.from_ = st.units[uid].name
    if item.startswith("weapon:"):
        wid, kept, was_jammed = loose_weapon(item)
        w = m.weapon(wid)
        if source == "weapon":
            owner = st.units[uid]
            ammo = 0 if owner.ammo == 0 else w.clip
            was_jammed = owner.jammed  # a weapon keeps its jam (clearing it is a PC check)
            owner.weapon = ""
            owner.ammo = 0
            owner.prepared = False
            owner.jammed = False
            captured = True
        else:
            ammo = w.clip if kept is None else kept
            captured = m.tables.weapons.weapons[wid].side != "us"
        if u.weapon:
            jam = ":jammed" if u.jammed else ""
            st.items.setdefault(key, []).append(f"weapon:{u.weapon}:{u.ammo}{jam}")
        u.weapon = wid
        u.ammo = ammo
        u.jammed = was_jammed
        u.prepared = False
        u.captured_weapon = captured
        ev.ammo = ammo
    else:
        u.equipment.append(item)
    m.emit(ev)


def drop(m: Match, u: Unit, slot: int) -> None:
    """Lay port-box item ``slot`` down in the hex."""
    item = u.equipment.pop(slot)
    if item == "satchel" and "satchel" not in u.equipment:
        u.satchel_ready = False
    m.state.items.setdefault(str(u.hex), []).append(item)
    m.emit(E.Drop(unit=u.name, item=item))


def draggable(m: Match, u: Unit) -> Unit | None:
    """The incapacitated soldier (first) or body of ``u``'s side he may drag or load into a
    vehicle, or None; the fallen already aboard a vehicle ride safely (seed 002 p. 26)."""
    if u.status != ACTIVE or u.stance != Stance.STANDING or u.panicked or u.vehicle >= 0:
        return None
    best = None
    for o in m.state.units:
        if (
            o.hex == u.hex
            and o.side == u.side
            and o.uid != u.uid
            and o.vehicle < 0
            and o.status in (Status.INCAPACITATED, Status.KILLED)
            # the first incapacitated man, else the first body
            and (
                best is None or (o.status == Status.INCAPACITATED and best.status == Status.KILLED)
            )
        ):
            best = o
    return best


def drag(m: Match, u: Unit, dest: int) -> None:
    """Drag :func:`draggable` one hex with ``u`` (legality checked by the caller)."""
    from ambush_env.core.rules.damage import drag_check

    o = draggable(m, u)
    assert o is not None
    m.emit(E.Drag(unit=u.name, dragged=o.name, to=m.board.label(dest)))
    if o.status == Status.INCAPACITATED:
        drag_check(m, o.uid)
    o.hex = dest
    enter_hex(m, u, dest)
