"""Carrying out orders (RULES.md §5-§6). Internal: callers have checked legality.

:func:`apply_us_order` performs one legal US order (see :mod:`ambush_env.core.legal` for
when each is legal); :func:`can_fire_at` and :func:`do_fire` are shared by the US orders,
the free snap fire of a sighting and the German card interpreter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambush_env.core.movement import enemy_in, step_cost
from ambush_env.core.orders import OrderKind as K
from ambush_env.core.types import ARSpace, Phase, Side, Stance, Status

if TYPE_CHECKING:
    from ambush_env.core.engine import Game
    from ambush_env.core.state import TurnState, Unit

ACTIVE = int(Status.ACTIVE)


def can_fire_at(game: "Game", u: "Unit", target: "Unit", *, snap: bool, free: bool = False) -> bool:
    """Whether ``u`` may fire his personal/crew weapon at ``target`` now (RULES.md §6, §8).

    Needs ``u`` aware (unless ``free``, the sighting snap) and unpanicked; the rest is
    :func:`ambush_env.core.fire.fire_refusal` (one source of legality with ``fire``).
    """
    if u.panicked or (not free and not u.aware):
        return False
    if target.status != ACTIVE or target.hex < 0:
        return False
    from ambush_env.core.fire import fire_refusal

    return fire_refusal(game, u, target, snap=snap) is None


def do_prepare(game: "Game", u: "Unit") -> bool:
    """Carry out ``PREPARE`` (what :func:`prepare_kind` says); False when nothing applies."""
    what = prepare_kind(game, u)
    if what == "reload":
        reload(game, u)
    elif what == "weapon":
        u.prepared = True
        game.emit({"type": "prepare", "unit": u.name, "weapon": u.weapon})
    elif what == "satchel":
        u.satchel_ready = True
        game.emit({"type": "prepare", "unit": u.name, "item": "satchel"})
    return what is not None


def reload(game: "Game", u: "Unit") -> None:
    """Load a clip (or a rocket) from the port boxes. A weapon that must be prepared (the
    bazooka) is ready after it: loading one round is its prepare action (weapons.yaml)."""
    w = game.weapon(u.weapon)
    u.equipment.remove(w.reload)
    u.ammo = w.clip
    ev = {"type": "reload", "unit": u.name, "weapon": u.weapon}
    wc = game.weapon_class(u.weapon)
    if wc.needs_prepare and not wc.crew:
        u.prepared = True
        ev["prepared"] = True
    game.emit(ev)


def prepare_kind(game: "Game", u: "Unit") -> str | None:
    """What ``PREPARE`` does for ``u`` now, or None (RULES.md §6), first that applies:

    ``"reload"`` a dry weapon with a clip carried (``weapons.yaml`` reload item);
    ``"weapon"`` prepare a bazooka or crew weapon (a crew weapon needs its second man);
    ``"satchel"`` prepare a carried satchel charge for throwing.
    """
    if not u.weapon:  # a German whose weapon was taken (an escaped prisoner)
        if "satchel" in u.equipment and not u.satchel_ready and u.stance == Stance.STANDING:
            return "satchel"
        return None
    w = game.weapon(u.weapon)
    wc = game.weapon_class(u.weapon)
    if u.ammo == 0 and w.reload is not None and w.reload in u.equipment:
        return "reload"
    if wc.needs_prepare and not u.prepared and u.ammo != 0:
        if wc.crew and not any(o.uid != u.uid and o.side == u.side and o.hex == u.hex
                               and o.status == ACTIVE for o in game.state.units):
            return None
        return "weapon"
    if "satchel" in u.equipment and not u.satchel_ready and u.stance == Stance.STANDING:
        return "satchel"
    return None


def do_fire(game: "Game", u: "Unit", target: "Unit", *, snap: bool,
            begin_rounds: bool = True) -> list[dict]:
    """Resolve one shot (``fire.fire``) and its side effects on the sequence of play:
    the target becomes aware; a hidden German who fires is revealed; fire in Operations
    begins Rounds (RULES.md §5) unless ``begin_rounds`` is False (the sighting's free snap
    fire: the sighting begins them itself, with only its passers aware)."""
    from ambush_env.core import fire

    if target.vehicle >= 0:  # the vehicle and its occupants are one target (seed 000 p. 31)
        from ambush_env.core.vehicles import fire_at_vehicle

        events = fire_at_vehicle(game, u, game.state.vehicles[target.vehicle], snap=snap)
    else:
        events = fire.fire(game, u.uid, target.uid, snap=snap)
    if target.side == Side.GERMAN and target.status == ACTIVE and not target.aware:
        target.aware = True
    if u.side == Side.GERMAN:
        game.reveal(u)
    if begin_rounds:
        game.attack_begins_rounds(f"{u.name} fired")
    return events


def step_cost_standing(game: "Game", src: int, d: int) -> int:
    """MP cost of a standing soldier's step (a guard moving a prisoner)."""
    from ambush_env.core.movement import costs_for

    return costs_for(game, Stance.STANDING)[src * 6 + d]


def _after_attack(game: "Game", u: "Unit") -> None:
    """Any attack in Operations begins Rounds (RULES.md §5)."""
    game.attack_begins_rounds(f"{u.name} attacked")


def _end(game: "Game", u: "Unit") -> None:
    """End ``u``'s turn unless the sequence of play already took it away."""
    if game.state.turn.uid == u.uid:
        game.end_turn(u)


def _seat_cost(game: "Game", u: "Unit") -> None:
    """Getting in or out or changing seats: free once per Operations action ⚙, 1 MP of a
    Rounds move action (``rules.yaml: movement.seat_change_mp``, seed 000 p. 31)."""
    st = game.state
    t = st.turn
    if st.phase == Phase.OPERATIONS:
        t.boarded = True
        return
    _pay_move_mp(t, u, game.rd.movement.seat_change_mp)


def _pay_move_mp(t: "TurnState", u: "Unit", cost: int) -> None:
    """Pay ``cost`` MPs of a Rounds move action, starting one with ``u``'s MV if none is
    under way (RULES.md §6)."""
    if t.mode == "":
        t.mode = "move"
        t.mp_left = u.MV
    t.mp_left -= cost
    t.mp_spent += cost


def _vehicle_order(game: "Game", u: "Unit", kind: K, arg: int) -> None:
    """BOARD_VEHICLE, LEAVE_VEHICLE, LOAD, DRIVE, DRIVE_BACK and END_DRIVE (module ``vehicles``)."""
    from ambush_env.core import vehicles

    st = game.state
    t = st.turn
    ops = st.phase == Phase.OPERATIONS
    if kind == K.BOARD_VEHICLE:
        vehicles.board(game, u, st.vehicles[arg])
        _seat_cost(game, u)
        if not ops and t.mp_left <= 0:
            _end(game, u)
    elif kind == K.LEAVE_VEHICLE:
        vehicles.leave(game, u)
        _seat_cost(game, u)
        if not ops and t.mp_left <= 0:
            _end(game, u)
    elif kind == K.LOAD:
        vehicles.load(game, u, st.vehicles[arg])
        _end(game, u)
    elif kind == K.END_DRIVE:
        game.emit({"type": "end_drive", "unit": u.name})
        _end(game, u)
    else:
        v = st.vehicles[u.vehicle]
        if t.mode != "drive":
            t.mode = "drive"
            t.mp_left = vehicles.mpa(v)[0] if ops else vehicles.mpa(v)[1]
        if kind == K.DRIVE:
            d, backwards = arg, False
        else:
            d, backwards = (v.facing + 3) % 6, True
        vehicles.drive_step(game, u, v, d, backwards)
        if st.over or st.turn.uid != u.uid:
            return
        if vehicles.drive_over(game, u):
            _end(game, u)


def apply_us_order(game: "Game", u: "Unit", kind: K, arg: int) -> None:
    """Perform a legal order of the acting US unit ``u``."""
    st = game.state
    t = st.turn
    ops = st.phase == Phase.OPERATIONS
    if kind == K.END_TURN or kind == K.END_MOVE:
        game.emit({"type": "end_turn" if kind == K.END_TURN else "end_move", "unit": u.name})
        _end(game, u)
    elif kind == K.STANCE:
        old = u.stance
        u.stance = arg
        game.emit({"type": "stance", "unit": u.name, "from": int(old), "to": arg})
        if ops:
            _end(game, u)
        elif u.wounded:  # seed 002 p. 26: each change costs a Movement Point
            _pay_move_mp(t, u, game.rd.movement.wounded_stance_mp)
            if t.mp_left <= 0:
                _end(game, u)
        else:
            t.stance_changed = True
    elif kind == K.MOVE:
        dest = game.board.neighbors[u.hex][arg]
        if ops:
            game.emit({"type": "move", "unit": u.name, "to": game.board.label(dest), "mp": 0})
            game.enter_hex(u, dest)
            if st.phase == Phase.OPERATIONS and not st.over:
                _end(game, u)
            return
        cost = step_cost(game, u, u.hex, dest)
        charge = enemy_in(game, dest, u.side)
        _pay_move_mp(t, u, cost)
        t.hexes_moved += 1
        game.emit({"type": "move", "unit": u.name, "to": game.board.label(dest), "mp": cost,
                   "charge": charge})
        game.enter_hex(u, dest)
        if st.over or st.turn.uid != u.uid:
            return
        if charge:
            t.mode = "charge"  # RULES.md §6: the charge assault follows
            return
        if (u.status != ACTIVE or u.stance == Stance.PRONE or t.mp_left <= 0
                or enemy_in(game, u.hex, u.side)):
            _end(game, u)
    elif kind in (K.FIRE_AIMED, K.FIRE_SNAP):
        target = st.units[st.contacts[arg]]
        snap = kind == K.FIRE_SNAP
        mode = t.mode
        do_fire(game, u, target, snap=snap)
        if st.over or st.turn.uid != u.uid:
            return
        driver = u.vehicle >= 0 and st.vehicles[u.vehicle].driver == u.uid
        if snap and mode in ("", "snap2") and not driver:  # a driver gets one (seed 000 p. 32)
            t.snaps += 1  # RULES.md §6: rules.yaml fire.snap_shots snap shots make one action
            if t.snaps < game.rd.fire.snap_shots:
                t.mode = "snap2"
                return
        _end(game, u)
    elif kind == K.PICK_UP:
        from ambush_env.core import carry

        carry.pick_up(game, u, arg)
        _end(game, u)
    elif kind == K.DROP:
        from ambush_env.core import carry

        carry.drop(game, u, arg)
        _end(game, u)
    elif kind == K.DRAG:
        from ambush_env.core import carry

        carry.drag(game, u, game.board.neighbors[u.hex][arg])
        _end(game, u)
    elif kind == K.MOVE_PRISONER:
        from ambush_env.core.prisoners import move_prisoners

        dest = game.board.neighbors[u.hex][arg]
        cost = step_cost_standing(game, u.hex, arg)
        moved = move_prisoners(game, u, dest)
        game.emit({"type": "move_prisoner", "unit": u.name, "prisoners": moved,
                   "to": game.board.label(dest), "mp": 0 if ops else cost})
        if not ops:
            if t.mode == "":
                t.mode = "prisoner"
                t.mp_left = game.rd.prisoners.mv  # seed 002 p. 25
            t.mp_left -= cost
            t.mp_spent += cost
        game.enter_hex(u, dest)
        if st.over or st.turn.uid != u.uid:
            return
        if ops or t.mp_left <= 0 or u.status != ACTIVE:
            _end(game, u)
    elif kind in (K.BOARD_VEHICLE, K.LEAVE_VEHICLE, K.LOAD, K.DRIVE, K.DRIVE_BACK, K.END_DRIVE):
        _vehicle_order(game, u, kind, arg)
    elif kind == K.EXIT_MAP:
        if u.vehicle >= 0:  # the driver takes the car and everyone aboard off the map
            from ambush_env.core import vehicles

            vehicles.exit_map(game, u)
        else:
            from ambush_env.core.prisoners import march_off

            march_off(game, u)
            game.soldier_exits(u)
        if st.turn.uid == u.uid:
            st.turn = type(t)()
            if ops:
                st.ops_done.append(u.uid)
    elif kind == K.CLEAR_JAM:
        r = game.dice.d10(f"{u.name} clear jam PC check")
        ok = r <= u.PC
        if ok:
            u.jammed = False
        game.emit({"type": "clear_jam", "unit": u.name, "roll": r, "pc": u.PC, "cleared": ok})
        _end(game, u)
    elif kind == K.PREPARE:
        do_prepare(game, u)
        _end(game, u)
    elif kind in (K.GRENADE, K.SATCHEL):
        from ambush_env.core import grenades

        target = game.offset_target(u.hex, arg)
        grenades.throw(game, u, target, "grenade" if kind == K.GRENADE else "satchel")
        _end(game, u)
    elif kind == K.FIRE_WALL:
        from ambush_env.core import fire

        target = game.offset_target(u.hex, arg)
        fire.fire_at_wall(game, u.uid, target)
        _after_attack(game, u)
        _end(game, u)
    elif kind in (K.ASSAULT_KILL, K.ASSAULT_CAPTURE):
        from ambush_env.core import assault

        target = st.units[st.contacts[arg]]
        assault.assault(game, u, target, "kill" if kind == K.ASSAULT_KILL else "capture")
        _end(game, u)
    elif kind == K.GIVE_TURN:
        o = next(x for x in st.units if x.side == u.side and x.slot == arg)
        o.ar = int(ARSpace.ONE_TURN)
        o.given_turn = True
        game.emit({"type": "give_turn", "unit": u.name, "to": o.name})
        _end(game, u)
    elif kind == K.MAKE_AWARE:
        dist = game.board.distance
        made = []
        for o in st.units:
            if (o.side == u.side and o.status == ACTIVE and o.hex >= 0 and not o.aware
                    and not o.wounded and dist(u.hex, o.hex) <= u.CR):
                o.aware = True
                made.append(o.name)
        game.emit({"type": "make_aware", "unit": u.name, "made_aware": made})
        _end(game, u)
    else:  # pragma: no cover - legality never offers these yet
        raise NotImplementedError(f"order {kind.name} is not implemented")
