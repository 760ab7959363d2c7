"""Owns seed 003's special attacks on vehicles under ``rules="d100"`` (RULES.md §13): charges
under or into the treads, the Molotov, the called shot and ramming — refusals and resolution.

Numbers and ⚙ choices: ``data/d100.yaml: special, ramming, collision_table``; damage: module
``d100``. The refusals are the one source for the order generator and ``step``.

Every order here is legal only under ``d100``, for a soldier (or a driver, ramming) in his own
Rounds turn (``mode == ""``, or a drive under way for a ram), aware and not panicked.
"""

from __future__ import annotations

from ambush_env.core.combat import grenades
from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.state import Unit, Vehicle, known_vehicle
from ambush_env.core.model.types import ACTIVE, Phase, Side
from ambush_env.core.rules import d100
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.prisoners import prisoner_hexes
from ambush_env.core.vehicles.vehicles import apply_d100, cost_row, mpa, on_map
from ambush_env.core.world.d100_data import WeaponDamage
from ambush_env.core.world.vehicle_data import vtype

K = O.OrderKind
B = O.ORDER_BASE
_NC = len(O.CHARGES)
_NL = len(O.CALLED)
#: the d100 special-attack kinds (legal only under rules="d100")
KINDS = frozenset(
    {K.CHARGE_UNDER, K.CHARGE_TREADS, K.MOLOTOV, K.FIRE_CALLED, K.RAM, K.RAM_OFF_ROAD}
)


# ============================================================================ targets
def _target_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    if m.rules != "d100":
        return "a special attack of seed 003 (rules 'd100' only)"
    if u.status != ACTIVE or u.hex < 0 or u.panicked or not u.aware:
        return "he is not able to act"
    if not on_map(v) or v.disabled:
        return "the vehicle is not on the map or disabled"
    if v.side == u.side:
        return "his own side's vehicle"
    if u.side == Side.US and not known_vehicle(m.state, v):  # ⚙ the mask names no hidden one
        return "no vehicle the US knows of"
    if u.side == Side.US and v.hex in prisoner_hexes(m):
        return "a prisoner is in that hex (seed 002 p. 25)"
    return None


def _throw_refusal(m: Match, u: Unit, v: Vehicle, kind: str) -> tuple[str | None, int]:
    """Whether ``u`` can throw a ``kind`` ("grenade" | "satchel" range) at ``v``'s hex:
    ``(reason or None, the aperture modifier)``."""
    if u.vehicle >= 0:
        return "not from a vehicle ⚙", 0
    r = grenades.throw_range(m, u, kind)
    if r is None:
        return "he cannot throw in his stance", 0
    d = m.board.distance(u.hex, v.hex)
    if d > r:
        return "out of throwing range", 0
    pen = grenades._building_penalty(m, u.hex, v.hex) if d > 0 else 0
    if pen is None:
        return "walls bar the throw", 0
    return None, pen


# ============================================================================ charges
def charge_refusal(m: Match, u: Unit, v: Vehicle, charge: str) -> str | None:
    """Why ``u`` may not set ``charge`` (``orders.CHARGES``) under or into ``v`` now (seed 003
    Satchel Charges, Pole Charge, "Sticky" Grenades)."""
    why = _target_refusal(m, u, v)
    if why is not None:
        return why
    if charge not in u.equipment:
        return f"he has no {charge.replace('_', ' ')}"
    if charge == "satchel" and not u.satchel_ready:
        return "his satchel charge is not prepared"
    if charge == "pole_charge":
        if u.vehicle >= 0:
            return "not from a vehicle ⚙"
        if m.board.distance(u.hex, v.hex) > d100.data().special.pole_reach:
            return "the pole does not reach"
        return None
    return _throw_refusal(m, u, v, "satchel" if charge == "satchel" else "grenade")[0]


def dex(u: Unit) -> int:
    """DEX ⚙ = ``dex_per_pc`` × PC (seed 003 speaks of DEX; the board game has none)."""
    return d100.data().special.dex_per_pc * u.PC


def charge_attack(m: Match, u: Unit, v: Vehicle, charge: O.SetCharge, treads: bool) -> None:
    """Set ``charge`` under ``v`` (its Armor value halved) or into its treads (the Tread or
    Front Tire effect), legality checked by the caller (module docstring; seed 003)."""
    sp = d100.data().special
    u.equipment.remove(charge)
    if charge == "satchel":
        u.satchel_ready = False
    attack = "charge_treads" if treads else "charge_under"
    if charge == "pole_charge":  # hand-to-hand: DEX × 5 on the d100
        need = dex(u) * sp.pole_dex_multiplier
        r, ok = d100.skill_check(m, need, f"{u.name} pole charge")
    else:  # a called throw: PC check, -20 % beyond point-blank, a sticky grenade +10 %
        _, pen = _throw_refusal(m, u, v, "satchel" if charge == "satchel" else "grenade")
        need = u.PC + pen
        if u.wounded:
            need += m.tables.damage.wounded.throw
        if m.board.distance(u.hex, v.hex) > sp.thrown_point_blank:
            need += d100.percent_to_d10(sp.called_shot_percent)
        if charge == "sticky_grenade":
            need += d100.percent_to_d10(sp.sticky_percent)
        r = m.dice.d10(f"{u.name} {charge} called throw")
        ok = r <= need
    m.emit(
        E.D100Special(
            unit=u.name, vehicle=v.name, attack=attack, roll=r, need=need, success=ok, item=charge
        )
    )
    _alarm(m, u, v)
    if not ok:
        if charge != "pole_charge":  # it lands in the vehicle's hex and bursts there (RULES.md §9)
            grenades.explode(
                m, v.hex, "satchel" if charge == "satchel" else "grenade", u, scattered=False
            )
        return
    if treads:
        row = d100.running_gear_row(v)
        if row is not None:
            apply_d100(m, v, d100.destroy_component(m, v, row))
        return
    src = d100.data().items[charge]
    apply_d100(m, v, d100.attack(m, v, src, charge, armour=d100.belly_armour(v)))


# ============================================================================ Molotov
def molotov_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why ``u`` may not throw a Molotov cocktail at ``v`` now (seed 003)."""
    why = _target_refusal(m, u, v)
    if why is not None:
        return why
    if "molotov" not in u.equipment:
        return "he has no Molotov cocktail"
    return _throw_refusal(m, u, v, "grenade")[0]


def molotov_attack(m: Match, u: Unit, v: Vehicle) -> None:
    """Throw a Molotov at ``v``: a PC check (RULES.md §9's throw), then :func:`d100.set_fire`;
    a miss burns out on the ground ⚙ (the engine has no burning terrain)."""
    _, pen = _throw_refusal(m, u, v, "grenade")
    u.equipment.remove("molotov")
    need = u.PC + pen + (m.tables.damage.wounded.throw if u.wounded else 0)
    r = m.dice.d10(f"{u.name} Molotov throw")
    ok = r <= need
    m.emit(
        E.D100Special(
            unit=u.name,
            vehicle=v.name,
            attack="molotov",
            roll=r,
            need=need,
            success=ok,
            item="molotov",
        )
    )
    _alarm(m, u, v)
    if ok:
        apply_d100(m, v, d100.set_fire(m, v, d100.data().items["molotov"], "molotov", u))


# ============================================================================ called shots
def called_refusal(m: Match, u: Unit, v: Vehicle, location: str) -> str | None:
    """Why ``u`` may not make an aimed called shot at ``v``'s ``location`` (``orders.CALLED``:
    its driver — a car's — or its tyres or tread) now (seed 003); a German never at a closed
    tank his weapon cannot penetrate (seed 000 p. 31,
    :func:`~ambush_env.core.vehicles.vehicle_fire.holds_fire`)."""
    from ambush_env.core.vehicles.vehicle_fire import holds_fire, vehicle_fire_refusal

    why = _target_refusal(m, u, v)
    if why is not None:
        return why
    if location == "driver":
        if vtype(v).kind == "tank":
            return "a tank's driver is inside its hull (⚙ no called shot)"
        if v.driver < 0 or m.state.units[v.driver].status != ACTIVE:
            return "nobody at the wheel"
    elif d100.running_gear_row(v) is None:
        return "no tyres or tread"
    if m.tables.weapon_class[u.weapon].explosive if u.weapon else False:
        return "⚙ explosive weapons make no called shots"
    why = vehicle_fire_refusal(m, u, v, snap=False)
    if why is None and holds_fire(m, u, v, u.weapon, _called_aspect(m, u, v)):
        return "a German will not shoot a closed tank his weapon cannot penetrate (seed 000 p. 31)"
    return why


def _called_aspect(m: Match, u: Unit, v: Vehicle) -> str:
    """The aspect a called shot of ``u`` at ``v`` hits: the geometric one; ⚙ from the
    vehicle's own hex the front."""
    from ambush_env.core.vehicles.vehicle_fire import aspect_of

    return aspect_of(m.board, u.hex, v.hex, v.facing) or "front"


def called_shot(m: Match, u: Unit, v: Vehicle, location: str) -> None:
    """An aimed called shot (seed 003): −20 % to hit, the location named, and "unless the target
    is exposed" the damage must beat the Armor value (a car's driver and tyres are exposed)."""
    from ambush_env.core.combat.shooting import do_fire_vehicle

    do_fire_vehicle(m, u, v, _called_aspect(m, u, v), snap=False, called=location)


# ============================================================================ ramming
def _ram_vehicle(m: Match, u: Unit) -> Vehicle | None:
    if u.vehicle < 0:
        return None
    w = m.state.vehicles[u.vehicle]
    return w if w.driver == u.uid else None


def _ram_budget(m: Match, u: Unit, w: Vehicle) -> int | None:
    """The MPs a drive step of ``w`` may cost now: its drive's MPs left, or a new drive's."""
    from ambush_env.core.vehicles import tanks

    t = m.state.turn
    if t.mode == "drive":
        return t.mp_left
    if t.mode != "":
        return None
    if tanks.is_tank(u):
        if tanks.task_refusal(m, w, "move_slow") is not None:
            return None
        return tanks.drive_limit(m, w)
    return mpa(w)[1]


def ram_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why the driver ``u`` may not ram ``v`` now (seed 003 RAMMING ⚙): in Rounds, ``v`` an
    enemy vehicle in the next hex that his vehicle could drive into now (the step's MPs within
    its drive; a full hex counts as open: it does not enter)."""
    if m.rules != "d100":
        return "a special attack of seed 003 (rules 'd100' only)"
    w = _ram_vehicle(m, u)
    if w is None:
        return "he is not driving a vehicle"
    if m.state.phase != Phase.ROUNDS:
        return "ramming is a Rounds manoeuvre ⚙"
    if u.status != ACTIVE or u.panicked or not u.aware:
        return "he is not able to act"
    if not on_map(v) or v.disabled or v.side == w.side or v is w:
        return "not an enemy vehicle on the map"
    if u.side == Side.US and not known_vehicle(m.state, v):  # ⚙ the mask names no hidden one
        return "no vehicle the US knows of"
    if u.side == Side.US and v.hex in prisoner_hexes(m):
        return "a prisoner is in that hex (seed 002 p. 25)"
    d = m.board.direction(w.hex, v.hex)  # None unless the hexes are adjacent
    if d is None:
        return "not in the next hex"
    budget = _ram_budget(m, u, w)
    if budget is None:
        return "his vehicle cannot drive now"
    c = cost_row(m, vtype(w).size == "large")[w.hex * 6 + d]
    if c < 0 or c > budget or w.disabled or w.immobilised:
        return "his vehicle cannot drive into that hex now"
    return None


def ram(m: Match, u: Unit, v: Vehicle, off_road: bool) -> None:
    """Ram ``v`` (legality checked by the caller; module docstring, seed 003 RAMMING): the
    step's MPs are spent as a drive step that does not enter the hex; Drive Auto decides."""
    from ambush_env.core.vehicles import tanks

    st = m.state
    t = st.turn
    w = st.vehicles[u.vehicle]
    data = d100.data()
    if t.mode != "drive":
        t.mode = "drive"
        if tanks.is_tank(u):
            t.mp_left = tanks.drive_limit(m, w)
            tanks.pay(m, w, "move_slow")
        else:
            t.mp_left = mpa(w)[1]
    d = m.board.direction(w.hex, v.hex)
    if d is None:  # ram_refusal has found v in the next hex
        raise IllegalActionError(f"{u.name} cannot ram {v.name}: not in the next hex")
    c = cost_row(m, vtype(w).size == "large")[w.hex * 6 + d]
    t.mp_left -= c
    t.mp_spent += c
    w.moved_mp += c
    w.facing = d
    need = d100.vehicle_drive_auto(m, w, u.DS)
    r, ok = d100.skill_check(m, need, f"{u.name} ram Drive Auto")
    attack = "ram_off_road" if off_road else "ram"
    m.emit(E.D100Special(unit=u.name, vehicle=v.name, attack=attack, roll=r, need=need, success=ok))
    _alarm(m, u, v)
    if not ok:
        _trouble_check(m, u, w, data.ramming.failed_percent, "failed ram")
        return
    if off_road:
        drv = m.state.units[v.driver] if v.driver >= 0 else None
        if drv is None or drv.status != ACTIVE:
            apply_d100(m, v, d100.trouble(m, v, 0, "run off the road"))
        else:
            _trouble_check(m, drv, v, data.ramming.off_road_percent, "run off the road")
        return
    from ambush_env.core.vehicles.vehicle_fire import aspect_of

    dice = data.collision(t.mp_spent, vtype(w).size)
    src = WeaponDamage(dice=dice, kind="collision")
    aspect = aspect_of(m.board, w.hex, v.hex, v.facing) or "front"
    total, _ = d100.roll_dice(m, dice, f"{w.name} collision damage")
    apply_d100(m, v, d100.attack(m, v, src, "ram", aspect=aspect, rolled=total))
    if not w.disabled and not st.over:  # "the ramming vehicle takes only ¼ damage": of the same
        apply_d100(
            m,
            w,
            d100.attack(m, w, src, "ram (rammer)", rolled=total // data.ramming.rammer_divisor),
        )


def _trouble_check(m: Match, drv: Unit, v: Vehicle, percent: int, why: str) -> None:
    """The driver's Drive Auto at ``percent``, failed: the Vehicle Trouble Table."""
    need = d100.vehicle_drive_auto(m, v, drv.DS) + percent
    r, ok = d100.skill_check(m, need, f"{drv.name} Drive Auto ({why})")
    m.emit(
        E.D100Special(
            unit=drv.name,
            vehicle=v.name,
            attack=why.replace(" ", "_"),
            roll=r,
            need=need,
            success=ok,
        )
    )
    if not ok:
        apply_d100(m, v, d100.trouble(m, v, 0, why))


def _alarm(m: Match, u: Unit, v: Vehicle) -> None:
    units = m.state.units
    for uid in v.occupants:
        o = units[uid]
        if o.side != u.side and o.status == ACTIVE and not o.aware:
            o.aware = True
    m.attacked(u, f"{u.name} attacked {v.name}")


# ============================================================================ the orders
def special_orders(m: Match, u: Unit) -> list[int]:
    """Every d100 special-attack order legal for ``u`` now (none under standard rules)."""
    if m.rules != "d100" or not m.state.vehicles:
        return []
    out: list[int] = []
    vs = m.state.vehicles[: O.V_SLOTS]
    for v in vs:
        for k, ch in enumerate(O.CHARGES):
            if charge_refusal(m, u, v, ch) is None:
                out.append(B[K.CHARGE_UNDER] + v.vid * _NC + k)
                out.append(B[K.CHARGE_TREADS] + v.vid * _NC + k)
        if molotov_refusal(m, u, v) is None:
            out.append(B[K.MOLOTOV] + v.vid)
        for k, loc in enumerate(O.CALLED):
            if called_refusal(m, u, v, loc) is None:
                out.append(B[K.FIRE_CALLED] + v.vid * _NL + k)
    return sorted(out)


def ram_orders(m: Match, u: Unit) -> list[int]:
    """RAM and RAM_OFF_ROAD at each vehicle ``u`` (a driver) may ram now."""
    if m.rules != "d100" or u.vehicle < 0:
        return []
    out = []
    for v in m.state.vehicles[: O.V_SLOTS]:
        if ram_refusal(m, u, v) is None:
            out += [B[K.RAM] + v.vid, B[K.RAM_OFF_ROAD] + v.vid]
    return sorted(out)


def refusal(m: Match, u: Unit, kind: K, arg: int) -> str | None:
    """Why the special-attack order ``(kind, arg)`` is not legal for ``u`` now."""
    vs = m.state.vehicles
    if kind in (K.CHARGE_UNDER, K.CHARGE_TREADS):
        vid, k = divmod(arg, _NC)
        return charge_refusal(m, u, vs[vid], O.CHARGES[k]) if vid < len(vs) else "no vehicle"
    if kind == K.FIRE_CALLED:
        vid, k = divmod(arg, _NL)
        return called_refusal(m, u, vs[vid], O.CALLED[k]) if vid < len(vs) else "no vehicle"
    if arg >= len(vs):
        return "no vehicle"
    if kind == K.MOLOTOV:
        return molotov_refusal(m, u, vs[arg])
    return ram_refusal(m, u, vs[arg])


def do_order(m: Match, u: Unit, kind: K, arg: int) -> None:
    """Carry out a legal special-attack order."""
    vs = m.state.vehicles
    if kind in (K.CHARGE_UNDER, K.CHARGE_TREADS):
        vid, k = divmod(arg, _NC)
        charge_attack(m, u, vs[vid], O.CHARGES[k], treads=kind == K.CHARGE_TREADS)
    elif kind == K.MOLOTOV:
        molotov_attack(m, u, vs[arg])
    elif kind == K.FIRE_CALLED:
        vid, k = divmod(arg, _NL)
        called_shot(m, u, vs[vid], O.CALLED[k])
    elif kind in (K.RAM, K.RAM_OFF_ROAD):
        ram(m, u, vs[arg], off_road=kind == K.RAM_OFF_ROAD)
