"""Owns carrying out one order of either side (RULES.md §5-§12): a dispatch table by order
kind, and the rest of each order once its interruptions are resolved.

:func:`apply_order` assumes the order is legal (:func:`ambush_env.core.play.legal.legal_orders`
said so; the public entry points check) and does the order's action. What the order then
does to the turn — ending it, opening the second snap shot, the charge that must follow a
move into an enemy's hex — waits behind the interruptions the action recorded: it is
recorded as an ``"after"`` request, resolved by the sequence of play with
:func:`after_order` once the paragraph checks and sightings are done, and only while the
turn is still the unit's (a sighting that begins Rounds ends an Operations action; a unit
knocked out loses the rest of his turn).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ambush_env.core.combat import d100_attacks, grenades, sighting
from ambush_env.core.combat.shooting import do_fire, do_fire_vehicle, do_prepare
from ambush_env.core.model import events as E
from ambush_env.core.model.orders import ASPECTS
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import ACTIVE, GER, ARSpace, Phase, Stance, Status
from ambush_env.core.rules import assault, carry, fire
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.enter import enter_hex, soldier_exits
from ambush_env.core.rules.movement import costs_for, enemy_in, step_cost
from ambush_env.core.rules.prisoners import hand_over, march_off, move_prisoners
from ambush_env.core.rules.turns import end_turn
from ambush_env.core.vehicles import tanks, vehicles


def apply_order(m: Match, u: Unit, kind: K, arg: int) -> None:
    """Carry out the legal order ``(kind, arg)`` of the acting unit ``u`` (either side) and
    record the rest of it as an ``"after"`` request (module docstring). In a ``"free_snap"``
    turn the order takes (``FIRE_SNAP``) or declines (``END_TURN``) the sighting's free snap
    fire, and gives the interrupted turn back (RULES.md §7)."""
    note: Any
    mode = m.state.turn.mode
    if mode == "free_snap":
        sighting.free_snap(m, take=kind == K.FIRE_SNAP)
        return
    if mode == "throw_out":
        grenades.throw_out(m, take=kind == K.THROW_OUT)
        return
    if kind in d100_attacks.KINDS:  # seed 003's special attacks (rules d100), either kind of unit
        d100_attacks.do_order(m, u, kind, arg)
        note = None  # nothing to remember for the rest of the order
    elif tanks.is_tank(u):  # a tank's unit (seed 000 p. 33; module tanks)
        note = tanks.do_order(m, u, kind, arg)
    else:
        note = _DO[kind](m, u, arg)
    if m.state.pending or m.state.interrupted is not None:
        m.request("after", u.uid, int(kind), arg, note)
    else:  # nothing to wait behind: the rest of the order follows at once
        after_order(m, ["after", u.uid, int(kind), arg, note])


def after_order(m: Match, req: list) -> None:
    """The rest of an order (the ``"after"`` request of :func:`apply_order`)."""
    _, uid, kind, arg, note = req
    st = m.state
    if st.over or st.turn.uid != uid:
        return  # the turn was taken away by what the order set off
    u = st.units[uid]
    if tanks.is_tank(u):
        tanks.after_order(m, u, _KIND[kind], arg, note)
        return
    fn = _AFTER.get(kind, _end)  # (an int looks up an IntEnum key)
    fn(m, u, arg, note)


_KIND = {int(k): k for k in K}  # = K(kind), without the enum call (the hot path)


def _ops(m: Match) -> bool:
    return m.state.phase == Phase.OPERATIONS


def _end(m: Match, u: Unit, arg: int = 0, note: Any = None) -> None:
    """End ``u``'s turn (the common rest of an order)."""
    if m.state.turn.uid == u.uid:
        end_turn(m, u)


def _pay_move_mp(t: TurnState, u: Unit, cost: int) -> None:
    """Pay ``cost`` MPs of a Rounds move action, starting one with ``u``'s MV if none is
    under way (RULES.md §6)."""
    if t.mode == "":
        t.mode = "move"
        t.mp_left = u.MV
    t.mp_left -= cost
    t.mp_spent += cost


# ================================================================================ actions
def _end_turn(m: Match, u: Unit, arg: int) -> None:
    m.emit(E.EndTurn(unit=u.name))


def _end_move(m: Match, u: Unit, arg: int) -> None:
    m.emit(E.EndMove(unit=u.name))


def _stance(m: Match, u: Unit, arg: int) -> bool:
    """A stance change (RULES.md §6): in Operations the whole action; in Rounds one free
    change a turn, or ``movement.wounded_stance_mp`` MPs each for the wounded (seed 002 p. 26).
    Returns whether the turn ends with it."""
    old = u.stance
    u.stance = arg
    m.emit(E.Stance(unit=u.name, from_=int(old), to=arg))
    t = m.state.turn
    if _ops(m):
        return True
    if u.wounded:
        _pay_move_mp(t, u, m.rd.movement.wounded_stance_mp)
        return t.mp_left <= 0
    t.stance_changed = True
    return False


def _after_flag(m: Match, u: Unit, arg: int, ends: bool) -> None:
    if ends:
        _end(m, u)


def _move(m: Match, u: Unit, arg: int) -> bool | None:
    """One hex of a move (RULES.md §6): free in Operations (the whole action); in Rounds the
    hex's MPs, and a move into a known enemy's hex is a charge. Returns the charge flag
    (None in Operations)."""
    dest = m.board.neighbors[u.hex][arg]
    if _ops(m):
        m.emit(E.Move(unit=u.name, to=m.board.label(dest), mp=0))
        enter_hex(m, u, dest)
        return None
    t = m.state.turn
    cost = step_cost(m, u, u.hex, dest)
    charge = enemy_in(m, dest, u.side)
    _pay_move_mp(t, u, cost)
    t.hexes_moved += 1
    m.emit(E.Move(unit=u.name, to=m.board.label(dest), mp=cost, charge=charge))
    enter_hex(m, u, dest)
    return charge


def _after_move(m: Match, u: Unit, arg: int, charge: bool | None) -> None:
    if charge is None:  # Operations: the move was the action
        _end(m, u)
        return
    t = m.state.turn
    if charge:
        t.mode = "charge"  # RULES.md §6: the charge assault follows
        return
    if (
        u.status != ACTIVE
        or u.stance == Stance.PRONE
        or t.mp_left <= 0
        or enemy_in(m, u.hex, u.side)
    ):
        _end(m, u)


def _fire(m: Match, u: Unit, arg: int, snap: bool) -> str:
    target = m.state.units[m.enemy_slots(u.side)[arg]]
    mode = m.state.turn.mode
    do_fire(m, u, target, snap=snap)
    return mode


def _fire_vehicle(m: Match, u: Unit, arg: int, snap: bool) -> str:
    """Fire at a vehicle: ``arg = vehicle_slot * 3 + aspect`` (seed 000 p. 30-31)."""
    n = len(ASPECTS)
    mode = m.state.turn.mode
    do_fire_vehicle(m, u, m.state.vehicles[arg // n], ASPECTS[arg % n], snap=snap)
    return mode


def _after_snap(m: Match, u: Unit, arg: int, mode: str) -> None:
    """Two snap shots make one action (``fire.snap_shots``, RULES.md §6); one after a move; a
    driver gets one (seed 000 p. 32)."""
    st = m.state
    t = st.turn
    driver = u.vehicle >= 0 and st.vehicles[u.vehicle].driver == u.uid
    if mode in ("", "snap2") and not driver:
        t.snaps += 1
        if t.snaps < m.rd.fire.snap_shots:
            t.mode = "snap2"
            return
    _end(m, u)


def _pick_up(m: Match, u: Unit, arg: int) -> None:
    carry.pick_up(m, u, arg)


def _drop(m: Match, u: Unit, arg: int) -> None:
    carry.drop(m, u, arg)


def _drag(m: Match, u: Unit, arg: int) -> None:
    carry.drag(m, u, m.board.neighbors[u.hex][arg])


def _move_prisoner(m: Match, u: Unit, arg: int) -> None:
    """Guard and prisoners move together, with the prisoner MV (seed 002 p. 25)."""
    ops = _ops(m)
    t = m.state.turn
    dest = m.board.neighbors[u.hex][arg]
    cost = costs_for(m, int(Stance.STANDING))[u.hex * 6 + arg]
    moved = move_prisoners(m, u, dest)
    m.emit(
        E.MovePrisoner(unit=u.name, prisoners=moved, to=m.board.label(dest), mp=0 if ops else cost)
    )
    if not ops:
        if t.mode == "":
            t.mode = "prisoner"
            t.mp_left = m.rd.prisoners.mv  # seed 002 p. 25
        t.mp_left -= cost
        t.mp_spent += cost
    enter_hex(m, u, dest)


def _hand_over(m: Match, u: Unit, arg: int) -> None:
    """Changing guard, free on the guard's turn (seed 002 p. 25)."""
    to = next(o for o in m.state.units if o.side == u.side and o.slot == arg)
    moved = hand_over(m, u, to)
    m.emit(E.HandOver(unit=u.name, to=to.name, prisoners=moved))


def _after_prisoner(m: Match, u: Unit, arg: int, note: Any) -> None:
    if _ops(m) or m.state.turn.mp_left <= 0 or u.status != ACTIVE:
        _end(m, u)


def _seat_cost(m: Match, u: Unit) -> None:
    """Getting in or out or changing seats: free once per Operations action ⚙, else
    ``movement.seat_change_mp`` MPs of a Rounds move action (seed 000 p. 31)."""
    t = m.state.turn
    if _ops(m):
        t.boarded = True
        return
    _pay_move_mp(t, u, m.rd.movement.seat_change_mp)


def _board(m: Match, u: Unit, arg: int) -> None:
    vehicles.board(m, u, m.state.vehicles[arg])
    _seat_cost(m, u)


def _leave(m: Match, u: Unit, arg: int) -> None:
    vehicles.leave(m, u)
    _seat_cost(m, u)


def _after_seat(m: Match, u: Unit, arg: int, note: Any) -> None:
    if not _ops(m) and m.state.turn.mp_left <= 0:
        _end(m, u)


def _load(m: Match, u: Unit, arg: int) -> None:
    vehicles.load(m, u, m.state.vehicles[arg])


def _end_drive(m: Match, u: Unit, arg: int) -> None:
    m.emit(E.EndDrive(unit=u.name))
    if m.rules == "d100" and u.vehicle >= 0:
        vehicles.d100_brakes(m, m.state.vehicles[u.vehicle])


def _drive(m: Match, u: Unit, arg: int, backwards: bool) -> None:
    st = m.state
    t = st.turn
    v = st.vehicles[u.vehicle]
    if t.mode != "drive":
        t.mode = "drive"
        # Operations: "drive a vehicle one hex" is one action (RULES.md §5); Rounds: the MPA
        t.mp_left = 1 if _ops(m) else vehicles.mpa(v)[1]
    d = (v.facing + 3) % 6 if backwards else arg
    vehicles.drive_step(m, u, v, d, backwards)


def _drive_forward(m: Match, u: Unit, arg: int) -> None:
    _drive(m, u, arg, False)


def _drive_back(m: Match, u: Unit, arg: int) -> None:
    _drive(m, u, arg, True)


def _after_drive(m: Match, u: Unit, arg: int, note: Any) -> None:
    if vehicles.drive_over(m, u):
        _end(m, u)


def _exit_map(m: Match, u: Unit, arg: int) -> None:
    """Leave the map from an exit hex (RULES.md §15); a driver takes the car and everyone
    aboard (seed 000)."""
    if u.vehicle >= 0:
        vehicles.exit_map(m, u)
    else:
        march_off(m, u)
        soldier_exits(m, u)


def _after_exit(m: Match, u: Unit, arg: int, note: Any) -> None:
    st = m.state
    st.turn = TurnState()
    if _ops(m):
        st.ops_done.append(u.uid)


def _clear_jam(m: Match, u: Unit, arg: int) -> None:
    """A PC check clears the jam (RULES.md §7-§8): a d10 at or below his PC, 1 lower with a
    captured German weapon (seed 002 p. 27: "the user's counts as 1 lower" holds for every
    use of the weapon, not only its fire; ``weapons.yaml: modifiers.captured_weapon``). The
    event's ``pc`` is the number the roll was checked against."""
    pc = u.PC + (m.tables.mods.captured_weapon if u.captured_weapon else 0)
    r = m.dice.d10(f"{u.name} clear jam PC check")
    ok = r <= pc
    if ok:
        u.jammed = False
    m.emit(E.ClearJam(unit=u.name, roll=r, pc=pc, cleared=ok))


def _prepare(m: Match, u: Unit, arg: int) -> None:
    do_prepare(m, u)


def _grenade(m: Match, u: Unit, arg: int) -> None:
    grenades.throw(m, u, m.offset_target(u.hex, arg), "grenade")


def _grenade_into(m: Match, u: Unit, arg: int) -> None:
    """A grenade into a vehicle (seed 000 p. 32-33; ``grenades.throw_into``)."""
    grenades.throw_into(m, u, m.state.vehicles[arg])


def _satchel(m: Match, u: Unit, arg: int) -> None:
    grenades.throw(m, u, m.offset_target(u.hex, arg), "satchel")


def _fire_wall(m: Match, u: Unit, arg: int) -> None:
    fire.fire_at_wall(m, u.uid, m.offset_target(u.hex, arg))
    m.attack_begins_rounds(f"{u.name} attacked")


def _assault(m: Match, u: Unit, arg: int, kind: str) -> None:
    assault.assault(m, u, m.state.units[m.enemy_slots(u.side)[arg]], kind)


def _assault_kill(m: Match, u: Unit, arg: int) -> None:
    _assault(m, u, arg, "kill")


def _assault_capture(m: Match, u: Unit, arg: int) -> None:
    _assault(m, u, arg, "capture")


def _give_turn(m: Match, u: Unit, arg: int) -> None:
    """A commander gives a soldier in Complete a turn (RULES.md §5)."""
    o = next(x for x in m.state.units if x.side == u.side and x.slot == arg)
    o.ar = int(ARSpace.ONE_TURN)
    o.given_turn = True
    m.emit(E.GiveTurn(unit=u.name, to=o.name))


def _make_aware(m: Match, u: Unit, arg: int) -> None:
    """A commander makes the soldiers within his CR aware (RULES.md §5)."""
    dist = m.board.distance
    made = []
    for o in m.state.units:
        if (
            o.side == u.side
            and o.status == ACTIVE
            and o.hex >= 0
            and not o.aware
            and not o.wounded
            and dist(u.hex, o.hex) <= u.CR
            and not tanks.is_tank(o)
        ):
            o.aware = True  # tank crews never obey command (seed 000 p. 31)
            made.append(o.name)
    m.emit(E.MakeAware(unit=u.name, made_aware=made))


def _alert(m: Match, u: Unit, arg: int) -> None:
    """A German shouts a warning (RULES.md §14 ``alert {radius}``): he and every German within
    ``arg`` hexes become aware. Free, once a turn ⚙."""
    dist = m.board.distance
    woke = []
    for o in m.state.units:
        if (
            o.side == GER
            and o.status == ACTIVE
            and o.hex >= 0
            and not o.aware
            and dist(o.hex, u.hex) <= arg
            and o.uid != u.uid
        ):
            o.aware = True
            woke.append(o.name)
    if not u.aware:
        u.aware = True
        woke.append(u.name)
    m.state.turn.alerted = True
    m.emit(E.Alert(unit=u.name, made_aware=woke))


def _surrender(m: Match, u: Unit, arg: int) -> None:
    """A German surrenders (RULES.md §10 ⚙): captured where he stands, prone, inactive."""
    u.status = int(Status.CAPTURED)
    u.ar = int(ARSpace.INACTIVE)
    u.stance = int(Stance.PRONE)
    m.emit(E.Surrender(unit=u.name, hex=m.board.label(u.hex)))


def _no_after(m: Match, u: Unit, arg: int, note: Any) -> None:
    """The order leaves the turn going (a free action)."""


_DO: dict[K, Callable[[Match, Unit, int], Any]] = {
    K.END_TURN: _end_turn,
    K.END_MOVE: _end_move,
    K.STANCE: _stance,
    K.MOVE: _move,
    K.FIRE_AIMED: partial(_fire, snap=False),
    K.FIRE_SNAP: partial(_fire, snap=True),
    K.FIRE_AIMED_VEHICLE: partial(_fire_vehicle, snap=False),
    K.FIRE_SNAP_VEHICLE: partial(_fire_vehicle, snap=True),
    K.FIRE_WALL: _fire_wall,
    K.GRENADE: _grenade,
    K.SATCHEL: _satchel,
    K.GRENADE_INTO: _grenade_into,
    K.ASSAULT_KILL: _assault_kill,
    K.ASSAULT_CAPTURE: _assault_capture,
    K.PREPARE: _prepare,
    K.CLEAR_JAM: _clear_jam,
    K.PICK_UP: _pick_up,
    K.DROP: _drop,
    K.DRAG: _drag,
    K.LOAD: _load,
    K.MOVE_PRISONER: _move_prisoner,
    K.GIVE_TURN: _give_turn,
    K.MAKE_AWARE: _make_aware,
    K.BOARD_VEHICLE: _board,
    K.LEAVE_VEHICLE: _leave,
    K.DRIVE: _drive_forward,
    K.DRIVE_BACK: _drive_back,
    K.END_DRIVE: _end_drive,
    K.EXIT_MAP: _exit_map,
    K.ALERT: _alert,
    K.SURRENDER: _surrender,
    K.HAND_OVER: _hand_over,
}

#: The rest of each order; kinds not listed end the turn (:func:`_end`).
_AFTER: dict[K, Callable[[Match, Unit, int, Any], None]] = {
    K.STANCE: _after_flag,
    K.MOVE: _after_move,
    K.FIRE_SNAP: _after_snap,
    K.FIRE_SNAP_VEHICLE: _after_snap,
    K.MOVE_PRISONER: _after_prisoner,
    K.BOARD_VEHICLE: _after_seat,
    K.LEAVE_VEHICLE: _after_seat,
    K.DRIVE: _after_drive,
    K.DRIVE_BACK: _after_drive,
    K.EXIT_MAP: _after_exit,
    K.ALERT: _no_after,
    K.HAND_OVER: _no_after,
}

IMPLEMENTED: frozenset[K] = frozenset(_DO) | d100_attacks.KINDS
