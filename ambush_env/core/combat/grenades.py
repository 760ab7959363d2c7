"""Owns grenades and satchel charges (RULES.md §9; seed 002 p. 26): ranges, the throw,
scatter, blasts; numbers ⚙ in ``data/rules.yaml: grenades`` and ``data/damage.yaml``.

* Range by the thrower's stance: a grenade 6 hexes standing, 3 crouching; a satchel charge
  3 hexes, standing only; never prone. No sight is needed; the target is a hex.
* Into a building hex (from outside it): from the next hex only across a door, a window or a
  destroyed wall of the shared hexside; from further away only if the hex has an aperture,
  and the throw is then at −2 ("through a non-adjacent aperture"). The same holds out of a
  building hex the thrower stands in.
* The throw is a PC check (wounded −2). A failed throw scatters: a second d10 on Diagram A
  (target next to the thrower) or Diagram B (further), naming a neighbour of the target
  relative to the line of the throw; off the map it is lost.
* Every active or captured soldier in the landing hex rolls on the Inside row (building hex)
  or the Outside row, prone soldiers at −2; incapacitated soldiers roll only when the grenade
  scattered there (seed 002 p. 26). Killed soldiers are not hurt again.
* A satchel charge thrown from the next hex at a building hex destroys the wall of the shared
  hexside (it penetrates heavily, RULES.md §9 / seed 002 p. 27; a destroyed wall hits everyone
  inside as a semi-automatic rifle). Through a door or window it also goes off inside (the
  Inside row); set against a blank wall ⚙ it goes off outside against the wall, hurting no
  one in the thrower's hex (he sets it and steps back), and only the wall's fall hurts those
  inside.
* Into a vehicle (``GRENADE_INTO``; seed 000 p. 32-33), distinct from a throw at its hex:
  into an open tank, or a car, as through an aperture: a PC check at the non-adjacent
  aperture modifier unless thrown from the vehicle's own hex (for a car too ⚙: the seed
  names no modifier; a thrower inside a building pays the aperture rule once). Closed tanks
  are immune to grenades, so the order is not offered ⚙; nor into a disabled vehicle or one
  of the thrower's side. A grenade inside a tank kills the crew and disables it
  (``vehicles.set_crew(m, v, 0)``); inside a car it disables it and every occupant (the
  incapacitated aside, as above) rolls Grenade Inside as prone. A failed throw scatters by
  seed 000 p. 33 (``rules.yaml: grenades.vehicle_drop``): from the vehicle's hex a 6-9 drops
  it there outside the vehicle and the thrower reacts for sure: he throws it clear, nobody
  is hurt ⚙ (the throw-out, without its check); 0-5 ⚙ names the Direction of the neighbour
  it bounces into; from the next hex 6-9 lands it in the vehicle's hex, 0-5 reads Diagram A;
  from further away Diagram B. It never scatters back into a vehicle: where it lands it goes
  off outside (a car there rolls Grenade Outside). Who throws: soldiers on foot of either
  side; from a car only a passenger, and only when the briefing allows heavy weapons from
  cars (``rules.heavy_weapons_from_cars``, seed 000 p. 32).
* Against vehicles in the landing hex (``vehicles.blast_vehicles``): a grenade outside a car
  (Grenade Outside), a satchel charge in or next to a car (always disabled), a satchel charge
  in a tank's hex (Satchel Outside); a grenade outside a tank does nothing to it ⚙. A tank's
  own unit is no soldier: blasts never roll for it.
* Throwing out a live grenade ⚙: the aware, active, unwounded, unpanicked soldier with the
  best PC in the landing hex (of the side the grenade was thrown at) tries a PC check at −2;
  a success lobs it back into the thrower's hex, where it explodes without scatter. This is
  automatic, so the ``THROW_OUT`` order is not offered (no decision interrupts the thrower).
"""

from __future__ import annotations

import math

from ambush_env.core.model import events as E
from ambush_env.core.model.state import TurnState, Unit, Vehicle, known_vehicle
from ambush_env.core.model.types import (
    ACTIVE,
    DIRECTION_NAMES,
    Charge,
    Phase,
    Side,
    Stance,
    Status,
    Terrain,
)
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.fire import heavy_weapons_from_cars
from ambush_env.core.world.vehicle_data import vtype

ITEM = {"grenade": "grenade", "satchel": "satchel"}
# relative direction offsets from "ahead"
_REL = {"ahead": 0, "ahead_right": 1, "back_right": 2, "short": 3, "back_left": 4, "ahead_left": 5}


def throw_range(m: Match, u: Unit, kind: str) -> int | None:
    """Hexes ``u`` can throw a ``kind`` ("grenade" | "satchel") in his stance; None: cannot."""
    g = m.rd.grenades
    rng = g.grenade_range if kind == "grenade" else g.satchel_range
    return rng.by_stance()[u.stance]


def _opening(m: Match, a: int, b: int) -> bool:
    """True when the hexside between adjacent ``a`` and ``b`` is no intact blank wall."""
    hs = m.board.hexside(a, b)
    return hs is None or hs.wall is None or hs.destroyed or hs.aperture in ("door", "window")


def _has_aperture(m: Match, h: int) -> bool:
    b = m.board
    for n in b.neighbors[h]:
        if n < 0:
            continue
        hs = b.hexside(h, n)
        if (
            hs is not None
            and hs.wall is not None
            and (hs.destroyed or hs.aperture in ("door", "window"))
        ):
            return True
    return False


def _building_penalty(m: Match, src: int, dest: int) -> int | None:
    """None when walls bar the throw; else the aperture modifier (0 or −2)."""
    b = m.board
    bs, bd = b.building[src], b.building[dest]
    if bs == bd:
        return 0
    adjacent = b.distance(src, dest) == 1
    pen = 0
    for h in (dest, src):
        if b.building[h] is None:
            continue
        if adjacent:
            if not _opening(m, src, dest):
                return None
        else:
            if not _has_aperture(m, h):
                return None
            pen = m.rd.grenades.non_adjacent_aperture
    return pen


def _against_wall(m: Match, src: int, dest: int) -> bool:
    """A satchel set from the next hex against an intact blank wall of a building hex."""
    b = m.board
    if (
        b.distance(src, dest) != 1
        or b.building[dest] is None
        or b.building[src] == b.building[dest]
    ):
        return False
    hs = b.hexside(src, dest)
    return (
        hs is not None
        and hs.wall is not None
        and not hs.destroyed
        and hs.aperture not in ("door", "window")
    )


def can_throw(m: Match, u: Unit, target: int, kind: str, *, prepared: bool = False) -> bool:
    """Whether ``u`` may throw a ``kind`` at hex ``target`` now (module docstring);
    ``prepared``: as if his satchel charge were prepared already (may he prepare it to set)."""
    if u.status != ACTIVE or u.hex < 0 or u.panicked or not u.aware or target < 0:
        return False
    if ITEM[kind] not in u.equipment:
        return False
    if kind == "satchel" and not (u.satchel_ready or prepared):
        return False
    r = throw_range(m, u, kind)
    if r is None:
        return False
    d = m.board.distance(u.hex, target)
    if d < 1 or d > r:
        return False
    if kind == "satchel" and _against_wall(m, u.hex, target):
        return True
    return _building_penalty(m, u.hex, target) is not None


def _ahead(m: Match, src: int, dest: int) -> int:
    """The Direction closest to the line from ``src`` to ``dest`` (pixel angle); a line
    exactly between two directions takes the clockwise one ⚙."""
    from ambush_env.core.world.hexgrid import centre_xy

    b = m.board
    x0, y0 = centre_xy(*b.coords(src))
    x1, y1 = centre_xy(*b.coords(dest))
    ang = math.atan2(x1 - x0, -(y1 - y0)) % (2 * math.pi)  # 0 = north, clockwise
    # a line exactly between two directions (along a hexside) takes the clockwise one
    return int(math.floor(ang / (math.pi / 3) + 0.5 + 1e-9)) % 6


def throw(m: Match, u: Unit, target: int, kind: Charge) -> list[E.Event]:
    """Throw a grenade or satchel charge at ``target`` (legality checked by the caller)."""
    b = m.board
    u.equipment.remove(ITEM[kind])
    if kind == "satchel":
        u.satchel_ready = False
    against = kind == "satchel" and _against_wall(m, u.hex, target)
    n = u.PC + (0 if against else (_building_penalty(m, u.hex, target) or 0))
    if u.wounded:
        n += m.tables.damage.wounded.throw
    r = m.dice.d10(f"{u.name} {kind} throw PC check")
    ev = E.Throw(
        unit=u.name, item=kind, target=b.label(target), rolls_={"throw": r}, need=n, landing=None
    )
    landing = target
    if r > n:
        diagram = (
            m.rd.grenades.diagram_a if b.distance(u.hex, target) == 1 else m.rd.grenades.diagram_b
        )
        s = m.dice.d10(f"{kind} scatter")
        ev.rolls_["scatter"] = s
        rel = diagram[s]
        d = (_ahead(m, u.hex, target) + _REL[rel]) % 6
        landing = b.neighbors[target][d]
        ev.scatter = rel
    ev.landing = b.label(landing) if landing >= 0 else None
    m.emit(ev)
    events: list[E.Event] = [ev]
    if landing < 0:
        return events
    if (
        kind == "satchel"
        and landing == target
        and b.distance(u.hex, target) == 1
        and b.building[target] is not None
        and b.building[u.hex] != b.building[target]
    ):
        hs = b.hexside(u.hex, target)
        if hs is not None and hs.wall is not None and not hs.destroyed:
            from ambush_env.core.rules import fire

            fire._destroy_wall(m, target, u.hex, b.hexside_label(u.hex, target), events)
    if against and landing == target:
        from ambush_env.core.rules.scoring import note_charge

        note_charge(m, target)  # a charge set on the target's wall counts (module scoring)
        _alarm(m, u, landing)
        return events  # it went off outside, against the wall
    events += explode(m, landing, kind, u, scattered=landing != target)
    _alarm(m, u, landing)
    return events


def _alarm(m: Match, thrower: Unit, landing: int) -> None:
    """Germans in the landing hex become aware; an attack in Operations begins Rounds.

    ⚙ A demolition charge set in Operations (module ``legal``; missions ``demolish``) is
    fire (RULES.md §5): it begins Rounds while any German on the map is active (hidden ones
    too: the blast is heard); with every German inactive, the situation in which Operations
    resumed, nobody answers it and Operations go on."""
    st = m.state
    for o in st.units:
        if o.hex == landing and o.side == Side.GERMAN and o.status == ACTIVE:
            o.aware = True
    quiet = st.phase == Phase.OPERATIONS and not any(
        o.side == Side.GERMAN and o.status == ACTIVE and o.hex >= 0 for o in st.units
    )
    m.attacked(thrower, f"{thrower.name} threw a grenade", begin_rounds=not quiet)


def _throw_out_check(m: Match, u: Unit) -> tuple[bool, E.Event]:
    """``u``'s PC check to throw a live grenade out (RULES.md §9 ⚙), emitted."""
    r = m.dice.d10(f"{u.name} throw out PC check")
    need = u.PC + m.rd.grenades.throw_out_modifier
    ok = r <= need
    ev = E.ThrowOut(unit=u.name, roll=r, need=need, success=ok)
    m.emit(ev)
    return ok, ev


def throw_out(m: Match, take: bool) -> None:
    """Carry out the pending throw-out decision (``"throw_out"`` turn, :func:`explode`): give
    the interrupted turn back, then try the PC check (``take``; passed, the grenade bursts in
    the thrower's hex, where nobody may throw it out again) or leave it; failed or left, it
    bursts where it landed. What the blast sets off is resolved before the requests already
    pending (depth first, module ``sequence``).

    Raises:
        RuntimeError: no throw-out is being decided.
    """
    st = m.state
    if st.turn.mode != "throw_out" or st.interrupted is None:
        raise RuntimeError("no throw-out is being decided")
    t = st.resume()
    u, thrower = st.units[t.uid], st.units[t.target]
    rest, st.pending = st.pending, []
    ok = False
    if take:
        ok = _throw_out_check(m, u)[0]
    else:
        m.emit(E.ThrowOutDeclined(unit=u.name, hex=m.board.label(t.target_hex)))
    if ok and thrower.hex >= 0:
        explode(m, thrower.hex, "grenade", u, scattered=False, may_throw_out=False)
    else:
        explode(m, t.target_hex, "grenade", thrower, scattered=t.scattered, may_throw_out=False)
    st.pending.extend(rest)


def explode(
    m: Match, hex_: int, kind: Charge, thrower: Unit, *, scattered: bool, may_throw_out: bool = True
) -> list[E.Event]:
    """Resolve a grenade or satchel charge going off in ``hex_`` (RULES.md §9).

    A live enemy grenade that lands by aware, unwounded, unpanicked soldiers on foot may be
    thrown out by the one with the best PC (RULES.md §9 ⚙): a German does so at once; a US
    soldier decides (a ``"throw_out"`` turn interrupting the turn in progress, resolved by
    :func:`throw_out`): the blast then waits for his order, and the events returned stop at
    the throw."""
    b = m.board
    events: list[E.Event] = []
    st = m.state
    if kind == "grenade" and may_throw_out and thrower.hex >= 0 and thrower.hex != hex_:
        cands = [
            o
            for o in st.units
            if o.hex == hex_
            and o.side != thrower.side
            and o.status == ACTIVE
            and o.aware
            and not o.wounded
            and not o.panicked
            and o.vehicle < 0
        ]  # no grenades from a car (seed 000 p. 32)
        if cands:
            best = max(cands, key=lambda o: (o.PC, -o.uid))
            if best.side == Side.US and st.interrupted is None:  # his decision (throw_out)
                st.interrupt(
                    TurnState(
                        uid=best.uid,
                        mode="throw_out",
                        target=thrower.uid,
                        target_hex=hex_,
                        scattered=scattered,
                    )
                )
                return events
            ok, ev = _throw_out_check(m, best)
            events.append(ev)
            if ok:
                return events + explode(
                    m, thrower.hex, kind, best, scattered=False, may_throw_out=False
                )
    if kind == "satchel":  # against a demolish objective (module scoring)
        from ambush_env.core.rules.scoring import note_charge

        note_charge(m, hex_)
    inside = b.terrain[hex_] == Terrain.BUILDING
    row = m.tables.soldier_row[f"{kind}_{'inside' if inside else 'outside'}"]
    prone_mod = m.rd.grenades.prone_damage
    from ambush_env.core.rules.damage import apply_damage

    riders: set[int] = set()
    if st.vehicles:  # cars in (or, for a satchel, next to) the hex (seed 000 p. 32-33)
        from ambush_env.core.vehicles.vehicles import blast_vehicles

        riders = blast_vehicles(m, hex_, kind)

    for o in list(st.units):
        if o.hex != hex_:
            continue
        if o.vehicle >= 0 and st.vehicles[o.vehicle].unit == o.uid:
            continue  # a tank's own unit is the tank, not a soldier (blast_vehicles)
        if o.vehicle >= 0 and m.rules == "d100" and o.uid not in riders:
            continue  # seed 003: an armoured vehicle's riders are hurt through its hit location
        if o.status == Status.INCAPACITATED and not scattered:
            continue
        if o.status not in (ACTIVE, Status.CAPTURED, Status.INCAPACITATED):
            continue
        r = m.dice.d10(f"{o.name} {kind} damage")
        # stance is ignored inside a vehicle (seed 000 p. 31), also for those just put out
        rr = max(0, r + prone_mod) if o.stance == Stance.PRONE and o.uid not in riders else r
        result = row[rr]
        blast = E.Blast(unit=o.name, item=kind, inside=inside, rolls_={"damage": r}, result=result)
        m.emit(blast)
        events.append(blast)
        drives = o.vehicle >= 0 and st.vehicles[o.vehicle].driver == o.uid
        events += apply_damage(m, o.uid, result)
        if drives:  # a driver hurt by combat (seed 000 p. 31-32)
            from ambush_env.core.vehicles.vehicles import driver_hurt

            driver_hurt(m, st.vehicles[o.vehicle], result)
    return events


# ============================================================================ into a vehicle
def rider_may_throw(m: Match, u: Unit) -> bool:
    """Whether ``u`` may throw where he is: on foot, or a passenger of a car whose mission
    allows heavy weapons from cars (seed 000 p. 32); never a driver, never a tank's unit."""
    if u.vehicle < 0:
        return True
    return heavy_weapons_from_cars(m) and m.state.vehicles[u.vehicle].driver != u.uid


def into_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why ``u`` may not throw a grenade into the vehicle ``v`` now (module docstring)."""
    if u.status != ACTIVE or u.hex < 0 or u.panicked or not u.aware:
        return "he is not able to act"
    if ITEM["grenade"] not in u.equipment:
        return "he has no grenade"
    if not rider_may_throw(m, u):
        return "no grenades from a car unless the briefing says so (seed 000 p. 32)"
    if v.hex < 0 or v.exited or v.disabled:
        return "the vehicle is not on the map or disabled"
    if v.side == u.side:
        return "his own side's vehicle"
    if u.side == Side.US and not known_vehicle(m.state, v):  # ⚙ the mask names no hidden one
        return "no vehicle the US knows of"
    if vtype(v).kind == "tank" and v.closed:
        return "closed tanks are immune to grenades (seed 000 p. 32)"
    r = throw_range(m, u, "grenade")
    if r is None:
        return "he cannot throw in his stance"
    d = m.board.distance(u.hex, v.hex)
    if d > r:
        return "out of range"
    if d > 0 and _building_penalty(m, u.hex, v.hex) is None:
        return "walls bar the throw"
    return None


def throw_into(m: Match, u: Unit, v: Vehicle) -> list[E.Event]:
    """Throw a grenade into the vehicle ``v`` (legality checked by the caller; module
    docstring, seed 000 p. 32-33)."""
    b = m.board
    g = m.rd.grenades
    u.equipment.remove(ITEM["grenade"])
    d = b.distance(u.hex, v.hex)
    pen = 0
    if d > 0:
        pen = min(g.non_adjacent_aperture, _building_penalty(m, u.hex, v.hex) or 0)
    n = u.PC + pen
    if u.wounded:
        n += m.tables.damage.wounded.throw
    r = m.dice.d10(f"{u.name} grenade into {v.name} PC check")
    ev = E.ThrowInto(
        unit=u.name, vehicle=v.name, hex=b.label(v.hex), rolls_={"throw": r}, need=n, inside=r <= n
    )
    events: list[E.Event] = [ev]
    if r <= n:
        m.emit(ev)
        _alarm(m, u, v.hex)
        events += _inside(m, u, v)
        return events
    s = m.dice.d10("grenade scatter (vehicle)")
    ev.rolls_["scatter"] = s
    react = False
    if d <= 1 and s >= g.vehicle_drop:
        ev.scatter = "in the hex"
        landing = v.hex
        react = d == 0
    elif d == 0:
        ev.scatter = DIRECTION_NAMES[s]
        landing = b.neighbors[v.hex][s]
    else:
        rel = (g.diagram_a if d == 1 else g.diagram_b)[s]
        ev.scatter = rel
        landing = b.neighbors[v.hex][(_ahead(m, u.hex, v.hex) + _REL[rel]) % 6]
    ev.landing = b.label(landing) if landing >= 0 else None
    m.emit(ev)
    if landing < 0:
        _alarm(m, u, v.hex)
        return events
    if react:  # "the thrower may react without a check" (seed 000 p. 33): thrown clear ⚙
        clear = E.ThrowClear(unit=u.name, hex=b.label(landing))
        m.emit(clear)
        events.append(clear)
        _alarm(m, u, landing)
        return events
    events += explode(m, landing, "grenade", u, scattered=True)
    _alarm(m, u, landing)
    return events


def _inside(m: Match, u: Unit, v: Vehicle) -> list[E.Event]:
    """A grenade goes off inside ``v`` (seed 000 p. 32): a tank's crew is killed and it is
    disabled; a car's occupants roll Grenade Inside as prone, and it is disabled."""
    from ambush_env.core.rules.damage import roll_damage
    from ambush_env.core.vehicles.vehicles import disable, set_crew

    events: list[E.Event] = []
    if m.rules == "d100":  # seed 003: area damage to all aboard, "x 2" in an armoured vehicle
        from ambush_env.core.rules import d100
        from ambush_env.core.vehicles.vehicles import apply_d100

        apply_d100(m, v, d100.inside_blast(m, v, d100.data().items["grenade"], "grenade inside"))
        return events
    if vtype(v).kind == "tank":
        set_crew(m, v, 0)
        return events
    units = m.state.units
    prone = m.rd.grenades.prone_damage
    for uid in list(v.occupants):
        o = units[uid]
        if o.status in (ACTIVE, Status.CAPTURED):  # not the fallen: not scattered (RULES.md §9)
            events += roll_damage(
                m, uid, "grenade_inside", modifier=prone, why=f"{o.name} grenade inside damage"
            )[2]
    disable(m, v, "grenade inside")
    return events
