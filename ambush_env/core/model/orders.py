"""Owns the flat order layout: every order of RULES.md §5-§12 as one integer (docs/API.md).

The layout is fixed from the first version so that later issues never change the action
count ``N_ORDERS``: orders whose rules are not implemented yet are simply never legal.

An order is ``(kind, arg)``; its integer is ``ORDER_BASE[kind] + arg``. Argument meanings:

* ``unit`` slots (``U_SLOTS``): the US squad slot (``Unit.slot``).
* ``contact`` slots (``K_SLOTS``): index into ``GameState.contacts`` (known Germans).
* ``dir``: a ``Direction`` (N, NE, SE, S, SW, NW).
* ``offset``: index into :data:`HEX_OFFSETS`, the axial offsets of every hex within
  ``OFFSET_RADIUS`` of the acting unit (index 0 = its own hex), ordered by distance then
  clockwise from north.
* ``item``: slot of an item lying in the hex (pick up) or a port box (drop).
* ``vehicle`` slots (``V_SLOTS``).
* ``radius``: hexes, 0..``OFFSET_RADIUS``.
* ``vehicle × charge`` / ``vehicle × location`` (issue 12, d100 only): ``arg = vehicle_slot *
  len(CHARGES) + charge`` / ``vehicle_slot * len(CALLED) + location``.
* ``vehicle × aspect`` (``V_SLOTS * 3``): ``arg = vehicle_slot * 3 + aspect`` with the aspect
  of :data:`ASPECTS` (front, side, rear) the attack hits (seed 000 p. 30). Only an attacker in
  the vehicle's own hex chooses it; from anywhere else the one legal aspect is the one the
  facing diagram gives.

The layout is side-relative: a ``unit`` slot is one of the acting side's units and a
``contact`` slot one of its enemies (``Match.enemy_slots``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

U_SLOTS = 12  # US squad slots ⚙ (a squad of up to 12; the standard squad uses 8)
K_SLOTS = 12  # contact slots: known German units
V_SLOTS = 4  # vehicle slots
OFFSET_RADIUS = 6  # grenades reach 6 hexes standing (RULES.md §9)
ITEM_SLOTS = 4  # items lying in a hex / port boxes (RULES.md §4)
ASPECTS = ("front", "side", "rear")  # which side of a vehicle an attack hits (seed 000 p. 30)
VA_SLOTS = V_SLOTS * len(ASPECTS)  # vehicle × aspect arguments
#: seed 003's charges against a vehicle (``CHARGE_UNDER`` / ``CHARGE_TREADS``: vehicle × charge)
SetCharge = Literal["satchel", "sticky_grenade", "pole_charge"]
CHARGES: tuple[SetCharge, ...] = ("satchel", "sticky_grenade", "pole_charge")
#: the locations of a called shot (``FIRE_CALLED``: vehicle × location; seed 003)
CALLED = ("driver", "running_gear")


class OrderKind(IntEnum):
    SELECT_UNIT = 0
    END_TURN = 1  # end this unit's turn (in Operations: wait this pulse)
    STANCE = 2  # arg: Stance
    MOVE = 3  # arg: dir — move one hex (starts or continues a move action)
    END_MOVE = 4
    FIRE_AIMED = 5  # arg: contact
    FIRE_SNAP = 6  # arg: contact
    FIRE_WALL = 7  # arg: offset — fire at the wall of that building hex facing the shooter
    FIRE_HEX = 8  # arg: offset — fire into a hex (reserved)
    GRENADE = 9  # arg: offset — prepare and throw a grenade
    SATCHEL = 10  # arg: offset — throw a prepared satchel charge
    ASSAULT_KILL = 11  # arg: contact
    ASSAULT_CAPTURE = 12  # arg: contact
    PREPARE = 13  # prepare a bazooka / crew weapon / satchel; reload a dry weapon
    CLEAR_JAM = 14
    THROW_OUT = 15  # throw out a live grenade
    PICK_UP = 16  # arg: item
    DROP = 17  # arg: item (port box)
    DRAG = 18  # arg: dir — drag an incapacitated soldier or body one hex
    LOAD = 19  # arg: vehicle — load an incapacitated soldier into a vehicle
    MOVE_PRISONER = 20  # arg: dir
    GIVE_TURN = 21  # arg: unit
    MAKE_AWARE = 22
    BOARD_VEHICLE = 23  # arg: vehicle
    LEAVE_VEHICLE = 24
    DRIVE = 25  # arg: dir — drive forward into that hex (turning is free, seed 000 p. 30)
    DRIVE_BACK = 26
    END_DRIVE = 27
    CANNON_FIRE = 28  # arg: contact
    LOAD_CANNON = 29
    BOW_MG_AIMED = 30  # arg: contact
    BOW_MG_SNAP = 31  # arg: contact
    COAX_MG_AIMED = 32  # arg: contact
    COAX_MG_SNAP = 33  # arg: contact
    OPEN_CLOSE = 34
    EXIT_MAP = 35  # leave the map from an exit hex (mission exit edge)
    ALERT = 36  # arg: radius in hexes — a German warns the Germans around him (RULES.md §14)
    SURRENDER = 37  # a German gives himself up (RULES.md §10)
    HAND_OVER = 38  # arg: unit — a guard hands his prisoners over, free (seed 002 p. 25)
    # -- issue 11: orders that aim at vehicles, and a tank's other targets (seed 000 p. 31-33)
    FIRE_AIMED_VEHICLE = 39  # arg: vehicle × aspect — a soldier's aimed fire at a vehicle
    FIRE_SNAP_VEHICLE = 40  # arg: vehicle × aspect — a soldier's snap fire at a vehicle
    GRENADE_INTO = 41  # arg: vehicle — throw a grenade into the vehicle (GRENADE: into a hex)
    CANNON_VEHICLE = 42  # arg: vehicle × aspect — the tank cannon at a vehicle
    CANNON_WALL = 43  # arg: offset — the tank cannon at the wall of a building hex
    CANNON_HEX = 44  # arg: offset — the tank cannon into a hex (a known, unseen target)
    BOW_MG_AIMED_VEHICLE = 45  # arg: vehicle × aspect
    BOW_MG_SNAP_VEHICLE = 46  # arg: vehicle × aspect
    COAX_MG_AIMED_VEHICLE = 47  # arg: vehicle × aspect
    COAX_MG_SNAP_VEHICLE = 48  # arg: vehicle × aspect
    # -- issue 12: seed 003's special attacks, legal only under rules="d100"
    CHARGE_UNDER = 49  # arg: vehicle × charge (CHARGES) — a charge under the vehicle
    CHARGE_TREADS = 50  # arg: vehicle × charge — a charge into its treads (tyres)
    MOLOTOV = 51  # arg: vehicle — throw a Molotov cocktail at it
    FIRE_CALLED = 52  # arg: vehicle × location (CALLED) — an aimed called shot
    RAM = 53  # arg: vehicle — ram it (the driver)
    RAM_OFF_ROAD = 54  # arg: vehicle — try to run it off the road


def _hex_offsets(radius: int) -> tuple[tuple[int, int], ...]:
    """Axial (dq, dr) offsets within ``radius``, by distance, then clockwise from north."""
    import math

    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(-radius, radius + 1):
            ds = -dq - dr
            dist = max(abs(dq), abs(dr), abs(ds))
            if dist > radius:
                continue
            # pixel direction of the offset in a flat-topped layout (y down)
            x = 1.5 * dq
            y = math.sqrt(3) * (dr + dq / 2)
            ang = math.atan2(x, -y) % (2 * math.pi)  # 0 = north, clockwise
            out.append((dist, round(ang, 9), dq, dr))
    out.sort()
    return tuple((dq, dr) for _, _, dq, dr in out)


HEX_OFFSETS: tuple[tuple[int, int], ...] = _hex_offsets(OFFSET_RADIUS)
N_OFFSETS = len(HEX_OFFSETS)  # 127
OFFSET_INDEX: dict[tuple[int, int], int] = {o: k for k, o in enumerate(HEX_OFFSETS)}

ORDER_COUNT: dict[OrderKind, int] = {
    OrderKind.SELECT_UNIT: U_SLOTS,
    OrderKind.END_TURN: 1,
    OrderKind.STANCE: 3,
    OrderKind.MOVE: 6,
    OrderKind.END_MOVE: 1,
    OrderKind.FIRE_AIMED: K_SLOTS,
    OrderKind.FIRE_SNAP: K_SLOTS,
    OrderKind.FIRE_WALL: N_OFFSETS,
    OrderKind.FIRE_HEX: N_OFFSETS,
    OrderKind.GRENADE: N_OFFSETS,
    OrderKind.SATCHEL: N_OFFSETS,
    OrderKind.ASSAULT_KILL: K_SLOTS,
    OrderKind.ASSAULT_CAPTURE: K_SLOTS,
    OrderKind.PREPARE: 1,
    OrderKind.CLEAR_JAM: 1,
    OrderKind.THROW_OUT: 1,
    OrderKind.PICK_UP: ITEM_SLOTS,
    OrderKind.DROP: ITEM_SLOTS,
    OrderKind.DRAG: 6,
    OrderKind.LOAD: V_SLOTS,
    OrderKind.MOVE_PRISONER: 6,
    OrderKind.GIVE_TURN: U_SLOTS,
    OrderKind.MAKE_AWARE: 1,
    OrderKind.BOARD_VEHICLE: V_SLOTS,
    OrderKind.LEAVE_VEHICLE: 1,
    OrderKind.DRIVE: 6,
    OrderKind.DRIVE_BACK: 1,
    OrderKind.END_DRIVE: 1,
    OrderKind.CANNON_FIRE: K_SLOTS,
    OrderKind.LOAD_CANNON: 1,
    OrderKind.BOW_MG_AIMED: K_SLOTS,
    OrderKind.BOW_MG_SNAP: K_SLOTS,
    OrderKind.COAX_MG_AIMED: K_SLOTS,
    OrderKind.COAX_MG_SNAP: K_SLOTS,
    OrderKind.OPEN_CLOSE: 1,
    OrderKind.EXIT_MAP: 1,
    OrderKind.ALERT: OFFSET_RADIUS + 1,
    OrderKind.SURRENDER: 1,
    OrderKind.HAND_OVER: U_SLOTS,
    OrderKind.FIRE_AIMED_VEHICLE: VA_SLOTS,
    OrderKind.FIRE_SNAP_VEHICLE: VA_SLOTS,
    OrderKind.GRENADE_INTO: V_SLOTS,
    OrderKind.CANNON_VEHICLE: VA_SLOTS,
    OrderKind.CANNON_WALL: N_OFFSETS,
    OrderKind.CANNON_HEX: N_OFFSETS,
    OrderKind.BOW_MG_AIMED_VEHICLE: VA_SLOTS,
    OrderKind.BOW_MG_SNAP_VEHICLE: VA_SLOTS,
    OrderKind.COAX_MG_AIMED_VEHICLE: VA_SLOTS,
    OrderKind.COAX_MG_SNAP_VEHICLE: VA_SLOTS,
    OrderKind.CHARGE_UNDER: V_SLOTS * len(CHARGES),
    OrderKind.CHARGE_TREADS: V_SLOTS * len(CHARGES),
    OrderKind.MOLOTOV: V_SLOTS,
    OrderKind.FIRE_CALLED: V_SLOTS * len(CALLED),
    OrderKind.RAM: V_SLOTS,
    OrderKind.RAM_OFF_ROAD: V_SLOTS,
}

ORDER_BASE: dict[OrderKind, int] = {}
_n = 0
for _k in OrderKind:
    ORDER_BASE[_k] = _n
    _n += ORDER_COUNT[_k]
N_ORDERS: int = _n
del _n, _k

# decode tables (index -> kind, arg), built once
ORDER_KIND: tuple[OrderKind, ...] = tuple(k for k in OrderKind for _ in range(ORDER_COUNT[k]))
ORDER_ARG: tuple[int, ...] = tuple(a for k in OrderKind for a in range(ORDER_COUNT[k]))


def encode(kind: OrderKind, arg: int = 0) -> int:
    """Order integer of ``(kind, arg)``. Raises ValueError when ``arg`` is out of range."""
    if not 0 <= arg < ORDER_COUNT[kind]:
        raise ValueError(
            f"order {kind.name} takes an argument in 0..{ORDER_COUNT[kind] - 1}, got {arg}"
        )
    return ORDER_BASE[kind] + arg


def decode(action: int) -> tuple[OrderKind, int]:
    """``(kind, arg)`` of an order integer. Raises ValueError outside ``0..N_ORDERS-1``."""
    if not 0 <= action < N_ORDERS:
        raise ValueError(f"order {action} is outside 0..{N_ORDERS - 1}")
    return ORDER_KIND[action], ORDER_ARG[action]  # already OrderKind members
