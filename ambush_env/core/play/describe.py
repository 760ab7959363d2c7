"""Owns orders as text (docs/API.md): the words of an order integer for the current decision.

``describe(m, i)`` gives a stable text for every ``i`` in ``0..N_ORDERS-1``; the acting
unit's name and the hex or unit an argument points at make it readable
(``"US3 fire aimed at G2 (L7)"``). What an order points at comes last, and whatever only
describes it — a hex label, an aspect, a vehicle's type and hex, a box or item number — is
one trailing parenthesis, the part ``Game.parse_order`` lets a player leave out
(docs/OBSERVATION.md "Orders as text").
"""

from __future__ import annotations

from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import DIRECTION_NAMES, STANCE_NAMES, US, Phase
from ambush_env.core.rules.carry import items_here
from ambush_env.core.rules.ctx import Match
from ambush_env.core.world.vehicle_data import vtype

#: Orders whose argument is ``vehicle_slot * 3 + aspect``: their verb (seed 000 p. 30-31).
#: the words of the orders whose argument is a contact slot, an offset hex, or a vehicle ×
#: aspect (a soldier's fire at a vehicle and a tank's weapons at one, module tanks)
_CONTACT_KINDS = {
    K.FIRE_AIMED: "fire aimed at",
    K.FIRE_SNAP: "snap fire at",
    K.ASSAULT_KILL: "kill assault on",
    K.ASSAULT_CAPTURE: "capture assault on",
    K.CANNON_FIRE: "fire cannon at",
    K.BOW_MG_AIMED: "fire bow MG aimed at",
    K.BOW_MG_SNAP: "snap fire bow MG at",
    K.COAX_MG_AIMED: "fire coaxial MG aimed at",
    K.COAX_MG_SNAP: "snap fire coaxial MG at",
}
_OFFSET_KINDS = {
    K.FIRE_WALL: "fire at the wall of",
    K.FIRE_HEX: "fire into",
    K.GRENADE: "throw a grenade at",
    K.SATCHEL: "throw a satchel charge at",
    K.CANNON_WALL: "fire cannon at the wall of",
    K.CANNON_HEX: "fire cannon into",
}
_VEHICLE_ASPECT_KINDS = {
    K.FIRE_AIMED_VEHICLE: "fire aimed at",
    K.FIRE_SNAP_VEHICLE: "snap fire at",
    K.CANNON_VEHICLE: "fire cannon at",
    K.BOW_MG_AIMED_VEHICLE: "fire bow MG aimed at",
    K.BOW_MG_SNAP_VEHICLE: "snap fire bow MG at",
    K.COAX_MG_AIMED_VEHICLE: "fire coaxial MG aimed at",
    K.COAX_MG_SNAP_VEHICLE: "snap fire coaxial MG at",
}


def _vehicle_text(m: Match, vid: int) -> str:
    """A vehicle slot as text: ``"V2 (Panzer IV, E7)"``, or ``"vehicle 3 (empty slot)"``."""
    vs = m.state.vehicles
    if vid >= len(vs):
        return f"vehicle {vid} (empty slot)"
    v = vs[vid]
    return f"{v.name} ({vtype(v).name}, {m.board.label(v.hex) if v.hex >= 0 else 'off map'})"


#: seed 003's special attacks (rules d100): verb, and the names of the argument's second part
_D100_KINDS = {
    K.CHARGE_UNDER: ("set a {c} under", O.CHARGES),
    K.CHARGE_TREADS: ("set a {c} into the treads of", O.CHARGES),
    K.FIRE_CALLED: ("fire a called shot at the {c} of", O.CALLED),
    K.MOLOTOV: ("throw a Molotov at", ("",)),
    K.RAM: ("ram", ("",)),
    K.RAM_OFF_ROAD: ("run off the road", ("",)),
}


def vehicle_aspect_text(m: Match, arg: int) -> str:
    """The target of a ``vehicle × aspect`` argument: ``"V2 (side)"``, or ``"vehicle 3 (empty
    slot, side)"`` when no vehicle holds the slot."""
    n = len(O.ASPECTS)
    slot, aspect = divmod(arg, n)
    vs = m.state.vehicles
    if slot < len(vs):
        return f"{vs[slot].name} ({O.ASPECTS[aspect]})"
    return f"vehicle {slot} (empty slot, {O.ASPECTS[aspect]})"


#: what ``END_TURN`` says in a decision that interrupts a turn (RULES.md §7, §9)
_DECLINE = {"free_snap": "decline the free snap fire", "throw_out": "leave the grenade"}


def describe(m: Match, action: int) -> str:
    """Human-readable text of an order for the current decision.

    Raises:
        ValueError: ``action`` outside ``0..N_ORDERS-1``.
    """
    kind, arg = O.decode(action)
    st = m.state
    u = st.units[st.turn.uid] if st.turn.uid >= 0 else None
    who = u.name if u is not None else "US"
    side = u.side if u is not None else US
    board = m.board
    if kind == K.SELECT_UNIT:
        name = next((x.name for x in st.units if x.side == US and x.slot == arg), f"slot {arg}")
        return f"select {name}"
    if kind == K.END_TURN:
        if st.turn.mode in _DECLINE:  # the decisions that interrupt a turn (RULES.md §7, §9)
            return f"{who} {_DECLINE[st.turn.mode]}"
        return f"{who} end turn" if st.phase == Phase.ROUNDS else f"{who} wait"
    if kind == K.STANCE:
        return f"{who} go {STANCE_NAMES[arg]}"
    if kind in (K.MOVE, K.DRAG, K.MOVE_PRISONER, K.DRIVE):
        verb = {K.MOVE: "move", K.DRAG: "drag", K.MOVE_PRISONER: "move prisoner", K.DRIVE: "drive"}[
            kind
        ]
        dest = ""
        if u is not None and u.hex >= 0:
            d = board.neighbors[u.hex][arg]
            dest = f" to {board.label(d)}" if d >= 0 else " off the map"
        return f"{who} {verb} {DIRECTION_NAMES[arg]}{dest}"
    if kind in _CONTACT_KINDS:
        slots = m.enemy_slots(side)
        if arg < len(slots):
            g = st.units[slots[arg]]
            where = board.label(g.hex) if g.hex >= 0 else "off map"
            return f"{who} {_CONTACT_KINDS[kind]} {g.name} ({where})"
        return f"{who} {_CONTACT_KINDS[kind]} contact {arg} (empty slot)"
    if kind in _VEHICLE_ASPECT_KINDS:
        return f"{who} {_VEHICLE_ASPECT_KINDS[kind]} {vehicle_aspect_text(m, arg)}"
    if kind in _OFFSET_KINDS:
        dq, dr = O.HEX_OFFSETS[arg]
        target = f"offset ({dq:+d},{dr:+d})"
        if u is not None and u.hex >= 0:
            i = board.offset_hex(u.hex, dq, dr) if hasattr(board, "offset_hex") else -1
            if i >= 0:
                target = board.label(i)
        return f"{who} {_OFFSET_KINDS[kind]} {target}"
    if kind in _D100_KINDS:  # seed 003's special attacks (rules d100)
        verb, names = _D100_KINDS[kind]
        vid, k = divmod(arg, len(names))
        return f"{who} {verb.format(c=names[k].replace('_', ' '))} {_vehicle_text(m, vid)}"
    if kind in (K.BOARD_VEHICLE, K.LOAD, K.GRENADE_INTO):
        what = _vehicle_text(m, arg)
        if kind == K.LOAD:
            return f"{who} load the fallen into {what}"
        if kind == K.GRENADE_INTO:
            return f"{who} throw a grenade into {what}"
        if u is not None and u.vehicle == arg:
            return f"{who} take the wheel of {what}"
        return f"{who} get into {what}"
    if kind == K.GIVE_TURN:
        name = next((x.name for x in st.units if x.side == side and x.slot == arg), f"slot {arg}")
        return f"{who} give a turn to {name}"
    if kind == K.HAND_OVER:
        name = next((x.name for x in st.units if x.side == side and x.slot == arg), f"slot {arg}")
        return f"{who} hand the prisoners over to {name}"
    if kind == K.ALERT:
        return f"{who} alert within {arg} hexes"
    if kind == K.DROP:
        box = u.equipment[arg] if u is not None and arg < len(u.equipment) else None
        return f"{who} drop {box} (box {arg})" if box else f"{who} drop box {arg} (empty)"
    if kind == K.PICK_UP:
        here = items_here(m, u.hex) if u is not None and u.hex >= 0 else []
        item = here[arg][2] if arg < len(here) else None
        return f"{who} pick up {item} (item {arg})" if item else f"{who} pick up item {arg} (none)"
    simple = {
        K.END_MOVE: "end move",
        K.PREPARE: "prepare/reload",
        K.CLEAR_JAM: "clear jam",
        K.THROW_OUT: "throw out the grenade",
        K.MAKE_AWARE: "make soldiers aware",
        K.LEAVE_VEHICLE: "leave the vehicle",
        K.DRIVE_BACK: "drive back",
        K.END_DRIVE: "end drive",
        K.LOAD_CANNON: "load the cannon",
        K.OPEN_CLOSE: "open/close the tank",
        K.EXIT_MAP: "exit the map",
        K.SURRENDER: "surrender",
    }
    if kind in simple:
        return f"{who} {simple[kind]}"
    return f"{who} {kind.name.lower().replace('_', ' ')} {arg}"
