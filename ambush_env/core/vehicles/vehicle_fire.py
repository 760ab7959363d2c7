"""Owns fire against vehicles (seed 000 p. 30-31; RULES.md §8, §11-§12): which side an attack
hits (the facing diagram), the shot at a car or a tank and its Hit Chart, and what a weapon can
penetrate; numbers in ``data/vehicles.yaml`` and ``data/damage.yaml``.

**The facing diagram** (seed 000 p. 30; ``vehicles.yaml: facing_diagram`` ⚙). An attack from
another hex hits the aspect (front, side or rear) of the hexside of the vehicle's hex that the
line of fire crosses, counted clockwise from the hexside the vehicle faces. The line runs
centre to centre (RULES.md §3), so an adjacent attacker is classified by the hexside between
the two hexes. A line that enters through a vertex touches two hexsides: ⚙ the attack hits
the aspect better for the target of the two, front before side before rear (the data
armours the front at least as well as the side and the side as the rear). An attacker in the
vehicle's own hex has no geometric aspect: he chooses (the order argument; a German card
chooses at random, :func:`attack_aspect`).

**The shot** (:func:`fire_at_vehicle`, seed 000 p. 31). The vehicle and its occupants are one
target: the to-hit of RULES.md §8 with the size modifier and the cover of the vehicle's hex
⚙, then one d10 on the type's Hit Chart for the aspect (``VehicleType.chart``):

* car driver / passenger: damage on the weapon's row (aimed automatic fire chains through the
  others, seed 002 p. 27); an explosive hit also rolls Grenade Inside, prone, for everyone
  else and disables the car; any hit on the driver makes an Accident Check (an automatic
  accident when it incapacitates or kills him);
* tank crew: a closed tank shows nobody (no effect). An open tank exposes
  ``vehicles.yaml: exposed_crew`` (3) crewmen (at most its active crew); a hit removes one, no
  damage roll. A bazooka kills the one hit and rolls ``bazooka_inside``, prone, for each other
  exposed crewman: an incapacitated or kill result removes that man, panic or wound does
  nothing ⚙. "Bazooka" here is every explosive weapon class (bazooka, panzerfaust, tank
  gun) ⚙, as for the car's occupants. No automatic chain through the crew ⚙ (a crew hit
  makes no damage roll to compare);
* a part (tyres, body, tread, turret, mount): a penetration roll on the weapon's row against
  the part's armour for the aspect (``VehicleType.armour``; RULES.md §11): penetrated means
  any result but none. A car's penetrated tyre stops fast driving, its penetrated body
  disables it, and a hit on either makes an Accident Check. A tank's penetrated body disables
  it (knocked out); a penetrated turret puts its cannon and coaxial MG out of action
  (``Vehicle.lost``; the loaded round is lost with the cannon) and a penetrated mount its bow
  MG ⚙; a penetrated tread immobilises it (``Vehicle.immobilised``), not disables.

**What a weapon can penetrate** is its penetration row (``damage.yaml: rows``) read by
RULES.md §11's one reading (``damage.yaml: penetration``): a part is affected when the level
rolled reaches its armour, and no second rule overrides the row. The small-arms and
machine-gun rows reach Light at most (``damage.yaml`` ⚙), which passes unarmoured car parts
and no armour, so no armoured part of a tank is affected by them.

**Shooters.** A soldier fires his own weapon (the checks of
:func:`~ambush_env.core.rules.fire.weapon_refusal`; from a car at −2). A tank fires a built-in
weapon with ``weapon=<weapons.yaml id>``: no from-car −2 (``vehicle_mounted``), and the shot
leaves the shooting unit's own weapon state alone (no jam flag, ammunition or prepare on the
unit): the caller keeps the mount's state (a ``"jammed"`` result jams that MG).

Explosive hits on a vehicle do not hurt soldiers outside it in its hex (seed 000 p. 31): only
occupants and crew are ever rolled for here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model.errors import DataError, IllegalActionError
from ambush_env.core.model.orders import ASPECTS
from ambush_env.core.model.state import Unit, Vehicle, known_vehicle
from ambush_env.core.model.types import ACTIVE, GER, Side, Stance
from ambush_env.core.rules.ctx import Match
from ambush_env.core.vehicles.vehicles import (
    accident_check,
    disable,
    driver_hurt,
    on_map,
    set_crew,
)
from ambush_env.core.world.hexgrid import SIDE_OF_VERTEX_PAIR, VERTEX_OFFSETS
from ambush_env.core.world.tables import Tables
from ambush_env.core.world.vehicle_data import VehicleType, shipped_vehicle_data, vtype

#: The aspects best-armoured first: at a vertex the attack hits the earlier one ⚙.
_BETTER = {a: i for i, a in enumerate(ASPECTS)}
#: Weapons a penetrated part puts out of action (⚙): turret → cannon and coax, mount → bow.
PART_WEAPONS = {"turret": ("cannon", "coax"), "mount": ("bow",)}
#: Results of :func:`part_result`'s penetration that do nothing.
_NO_EFFECT = "none"


# ============================================================================ the facing diagram
def _cross(a: tuple[int, int], b: tuple[int, int]) -> int:
    return a[0] * b[1] - a[1] * b[0]


@lru_cache(maxsize=4096)
def _sides_towards(dx: int, dy: int) -> tuple[int, ...]:
    """The hexside(s) of a hex (Directions) crossed by a ray from its centre along ``(dx,
    dy)`` (lattice units, :mod:`~ambush_env.core.world.hexgrid`): one, or the two on either side
    of a vertex the ray passes through (in clockwise order)."""
    d = (dx, dy)
    vs = VERTEX_OFFSETS
    sign = 1 if _cross(vs[0], vs[1]) > 0 else -1
    for k in range(6):
        v0, v1 = vs[k], vs[(k + 1) % 6]
        c0 = _cross(v0, d) * sign
        if c0 == 0 and v0[0] * dx + v0[1] * dy > 0:  # through vertex k
            return (int(SIDE_OF_VERTEX_PAIR[k - 1]), int(SIDE_OF_VERTEX_PAIR[k]))
        if c0 > 0 and _cross(d, v1) * sign > 0:
            return (int(SIDE_OF_VERTEX_PAIR[k]),)
    raise AssertionError(f"no hexside towards {(dx, dy)}")  # pragma: no cover - (0, 0) only


def entry_hexsides(board: Any, attacker_hex: int, vehicle_hex: int) -> tuple[int, ...]:
    """The hexside(s) of ``vehicle_hex`` (Directions from it) the line of fire from
    ``attacker_hex`` crosses, centre to centre: one, or two when it passes through a vertex;
    ``()`` in the same hex. Adjacent hexes: the hexside between them."""
    if attacker_hex == vehicle_hex:
        return ()
    ac, ar = board.coords(attacker_hex)
    tc, tr = board.coords(vehicle_hex)
    return _sides_towards(3 * (ac - tc), 2 * (ar - tr) + (ac & 1) - (tc & 1))


def aspect_of_side(side: int, facing: int) -> str:
    """The aspect (``vehicles.yaml: facing_diagram``) of the vehicle's hexside ``side`` (a
    Direction) when it faces ``facing``."""
    return shipped_vehicle_data().facing_diagram[(side - facing) % 6]


def aspect_of(board: Any, attacker_hex: int, vehicle_hex: int, facing: int) -> str | None:
    """``"front" | "side" | "rear"``: the side of a vehicle in ``vehicle_hex`` facing
    ``facing`` that an attack from ``attacker_hex`` hits (seed 000 p. 30; module docstring);
    at a vertex the better-armoured of the two ⚙; None from the same hex (the attacker
    chooses)."""
    sides = entry_hexsides(board, attacker_hex, vehicle_hex)
    if not sides:
        return None
    return min((aspect_of_side(s, facing) for s in sides), key=_BETTER.__getitem__)


def legal_aspects(board: Any, attacker_hex: int, v: Vehicle) -> tuple[int, ...]:
    """The aspect indices (:data:`~ambush_env.core.model.orders.ASPECTS`) an attack on ``v`` from
    ``attacker_hex`` may name: the geometric one, or all three from its own hex."""
    key = (board.columns, attacker_hex, v.hex, v.facing)  # pure geometry: memoised
    got = _LEGAL_ASPECTS.get(key)
    if got is None:
        a = aspect_of(board, attacker_hex, v.hex, v.facing)
        if len(_LEGAL_ASPECTS) > 200_000:
            _LEGAL_ASPECTS.clear()
        got = _LEGAL_ASPECTS[key] = (0, 1, 2) if a is None else (ASPECTS.index(a),)
    return got


#: legal_aspects by (board columns, attacker hex, vehicle hex, facing): ``Board.coords``
#: depends only on the column count, the facing diagram is shipped data
_LEGAL_ASPECTS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def aspects_differ(t: VehicleType) -> bool:
    """Whether the aspect changes anything for type ``t`` (armour or Hit Chart)."""
    return bool(t.aspect_armour or t.aspect_hit_chart)


def attack_aspect(m: Match, attacker: Unit, v: Vehicle) -> str:
    """The aspect an attack by ``attacker`` on ``v`` hits when no order names it (a German
    card's fire at a soldier in a car): the geometric one; from the vehicle's own hex a random
    choice (seed 000 p. 30: "random for Germans"), no die rolled when the type's aspects are
    all alike ⚙."""
    a = aspect_of(m.board, attacker.hex, v.hex, v.facing)
    if a is not None:
        return a
    if not aspects_differ(vtype(v)):
        return ASPECTS[0]
    return ASPECTS[m.dice.choice(len(ASPECTS), f"{attacker.name} side of {v.name}")]


# ============================================================================ penetration
def part_result(t: Tables, explosive: bool, level: str, armour: str) -> str:
    """What a penetration ``level`` (explosive or not) does to a part of ``armour``: the one
    reading of RULES.md §11 (``damage.yaml: penetration``), ``"none" | "pass" |
    "destroyed"``, the same for every weapon; the weapon's row decides only which levels it
    can roll (:func:`can_penetrate`)."""
    return t.penetration[(level, bool(explosive), armour)]


def _tables(m_or_tables: Any) -> Tables:
    return m_or_tables if isinstance(m_or_tables, Tables) else m_or_tables.tables


def can_penetrate(m_or_tables: Any, weapon_id: str, v: Vehicle | str, aspect: str) -> bool:
    """Whether ``weapon_id`` can do anything to ``v`` (a vehicle or a type id) attacked from
    ``aspect`` when it is closed: some part its Hit Chart for that aspect can name, armoured
    or not, that some level of the weapon's penetration row affects (seed 000 p. 31: "a German
    will not shoot a closed tank with a weapon that cannot penetrate it"). Occupants do not
    count (nobody in a closed tank can be hit); the vehicle's state (disabled, weapons lost)
    is not looked at."""
    t = _tables(m_or_tables)
    key = v if isinstance(v, str) else v.type
    return _can_penetrate(t, weapon_id, key, shipped_vehicle_data().vehicles[key], aspect)


_PEN_CACHE: dict[tuple[int, str, str, str], bool] = {}


def _can_penetrate(t: Tables, weapon_id: str, key: str, vt: VehicleType, aspect: str) -> bool:
    ck = (id(t), weapon_id, key, aspect)
    hit = _PEN_CACHE.get(ck)
    if hit is not None:
        return hit
    wc = t.weapon_class[weapon_id]
    levels = t.penetration_row[wc.damage] or ()
    out = False
    for part in set(vt.chart(aspect)):
        armour = vt.armour(part, aspect)
        if armour == "occupant":
            continue
        if any(part_result(t, wc.explosive, lv, armour) != _NO_EFFECT for lv in levels):
            out = True
            break
    if len(_PEN_CACHE) > 4096:
        _PEN_CACHE.clear()
    _PEN_CACHE[ck] = out
    return out


# ============================================================================ legality
def holds_fire(m: Match, shooter: Unit, v: Vehicle, wid: str, aspect: str) -> bool:
    """Whether ``shooter`` may not fire ``wid`` at ``v`` hitting ``aspect`` by seed 000 p. 31:
    "A German will not shoot a closed tank with a weapon that cannot penetrate it, whatever
    his paragraph says" — a German shooter, ``v`` closed, and nothing of ``v`` that ``wid``
    attacking from ``aspect`` can affect (:func:`can_penetrate`). ⚙ "Cannot penetrate it" is
    read for the aspect the shot hits (from the tank's own hex he may still name an aspect
    he can penetrate).

    One rule of the order generator for the German side whoever plays it: the cards choose
    from the orders it offers and the German seat's mask is the same list
    (:func:`fire_aspects`; ``d100_attacks.called_refusal``). The US is not bound by it. ⚙
    Under ``rules="d100"`` too the penetration rows decide (a German carries no weapon of
    seed 003's)."""
    return shooter.side == GER and v.closed and not can_penetrate(m, wid, v, aspect)


def fire_aspects(m: Match, shooter: Unit, v: Vehicle, wid: str) -> tuple[int, ...]:
    """The aspect indices an order of ``shooter`` firing ``wid`` at ``v`` may name now:
    :func:`legal_aspects` (the geometric one, or all three from the vehicle's own hex) less
    those :func:`holds_fire` forbids (seed 000 p. 31). The target checks
    (:func:`vehicle_fire_refusal`) are the caller's."""
    asp = legal_aspects(m.board, shooter.hex, v)
    if shooter.side != GER or not v.closed:
        return asp
    return tuple(a for a in asp if not holds_fire(m, shooter, v, wid, ASPECTS[a]))


def has_target(m: Match, v: Vehicle) -> bool:
    """Whether ``v`` holds someone to fire at: a tank with active crew, a car with an active
    occupant (an empty car is no target ⚙: "a vehicle and its occupants are one target",
    seed 000 p. 31)."""
    if vtype(v).kind == "tank":
        return v.crew > 0
    units = m.state.units
    return any(units[o].status == ACTIVE for o in v.occupants)


def vehicle_fire_refusal(
    m: Match, shooter: Unit, v: Vehicle, *, snap: bool, weapon: str | None = None
) -> str | None:
    """Why ``shooter`` may not fire at the vehicle ``v`` now, or None (seed 000 p. 31).

    His weapon (:func:`~ambush_env.core.rules.fire.weapon_refusal`: active, not jammed or dry,
    prepared, snap allowed, no bazooka or crew weapon from a car), or with ``weapon`` (a
    tank's built-in one; the caller checks the mount: loaded, jammed, lost, its arc) only
    that he is active on the map and the weapon may snap fire when ``snap``. Then: ``v`` on
    the map, not disabled, not his own side's, someone aboard to hit (:func:`has_target`),
    in his line of sight (seed 004's vehicle paragraph; his own hex is always seen) and
    within the weapon's range."""
    from ambush_env.core.rules.fire import weapon_refusal

    t = m.tables
    if weapon is None:
        why = weapon_refusal(m, shooter, snap=snap)
        if why is not None:
            return why
        wid = shooter.weapon
    else:
        if shooter.status != ACTIVE or shooter.hex < 0:
            return "not active on the map"
        wc = t.weapon_class.get(weapon)
        if wc is None:
            return f"no known weapon ({weapon!r})"
        if snap and not wc.snap:
            return f"a {t.class_of[weapon]} cannot snap fire"
        wid = weapon
    return vehicle_target_refusal(m, shooter, v, wid)


def vehicle_target_refusal(m: Match, shooter: Unit, v: Vehicle, wid: str) -> str | None:
    """The target part of :func:`vehicle_fire_refusal` (after the weapon checks, the same
    for aimed and snap fire): ``v`` on the map, not disabled, not ``shooter``'s side's,
    someone aboard, within the range of the weapon ``wid`` and in sight; for a US shooter, a
    vehicle the US knows is there (:func:`~ambush_env.core.model.state.known_vehicle` ⚙: the action
    mask must not name a hidden one)."""
    t = m.tables
    if not on_map(v):
        return "the vehicle is not on the map"
    if shooter.side == Side.US and not known_vehicle(m.state, v):
        return "no vehicle the US knows of"
    if v.disabled:
        return "the vehicle is disabled"
    if v.side == shooter.side:
        return "his own side's vehicle"
    if not has_target(m, v):
        return "nobody aboard to hit"
    d = m.board.distance(shooter.hex, v.hex)
    if t.to_hit[t.class_of[wid]][t.band(d)] is None:
        return "beyond maximum range"
    if shooter.hex != v.hex and not m.sight.can_see(
        shooter.hex, v.hex, shooter.stance, int(Stance.STANDING), target_in_vehicle=vtype(v).size
    ):
        return "the vehicle is out of sight"
    return None


# ============================================================================ the shot
def to_hit(
    m: Match,
    shooter: Unit,
    v: Vehicle,
    *,
    snap: bool,
    weapon: str | None = None,
    mods_extra: Any = None,
) -> tuple[int, list[tuple[str, int]]]:
    """The to-hit number against ``v`` (seed 000 p. 30-31): the weapon class's base number
    for the range, the shooter's modifiers (snap, WS, wounded, captured weapon — his own
    weapon only —, from a car −2 unless ``vehicle_mounted``), the size (small +1, large +2),
    the cover of the vehicle's hex ⚙, and ``mods_extra`` (``(name, value)`` pairs or a dict).
    Under ``rules="d100"`` seed 003's moving fire and gun-laying modifiers join them, and then
    point blank doubles the chance of the whole number (:func:`~ambush_env.core.rules.d100.point_blank`;
    its ``point_blank`` entry is the difference it made).

    Raises:
        IllegalActionError: beyond the weapon's maximum range.
    """
    from ambush_env.core.rules.fire import _cover_mods, _shooter_mods

    t = m.tables
    wid = shooter.weapon if weapon is None else weapon
    cname = t.class_of[wid]
    d = m.board.distance(shooter.hex, v.hex)
    base = t.to_hit[cname][t.band(d)]
    if base is None:
        raise IllegalActionError(
            f"{shooter.name} ({wid}) cannot reach {v.name}: {d} hexes is "
            f"beyond maximum range {t.max_range[cname]}"
        )
    mods = _shooter_mods(t, shooter, t.weapon_class[wid], snap)
    if weapon is not None:
        mods = [(k, x) for k, x in mods if k != "captured_weapon"]
    size = vtype(v).size
    mods.append(("vehicle_" + size, getattr(t.mods.vehicle_size, size)))
    mods += _cover_mods(t, m.board.terrain[v.hex])  # "resolve the fire as usual" ⚙
    if m.rules == "d100":
        from ambush_env.core.world.d100_data import shot_mods

        mods += shot_mods(m.state.vehicles, shooter, wid, v)  # moving fire, gun-laying
    if mods_extra:
        mods += list(mods_extra.items() if isinstance(mods_extra, dict) else mods_extra)
    n = base + sum(x for _, x in mods)
    if m.rules == "d100":  # seed 003 point blank: the chance doubled, every modifier in
        from ambush_env.core.rules import d100

        pb = d100.point_blank(m, shooter, wid, d, n)
        if pb != n:
            mods.append(("point_blank", pb - n))
            n = pb
    return n, mods


def fire_at_vehicle(
    m: Match,
    shooter: Unit,
    v: Vehicle,
    *,
    snap: bool,
    aspect: str = "front",
    weapon: str | None = None,
    mods_extra: Any = None,
    called: str | None = None,
) -> list[E.Event]:
    """Fire at the vehicle ``v`` and its occupants as one target, hitting its ``aspect``
    (seed 000 p. 30-31; the module docstring). ``weapon``: a weapons.yaml id fired instead of
    the shooter's own (a tank's built-in weapon; the unit's own weapon state is left alone).
    ``mods_extra``: further to-hit modifiers. ``called``: a d100 called shot's location
    (``orders.CALLED``; seed 003: −20 %, the location named instead of rolled).

    Returns the events emitted; the first is a :class:`~ambush_env.core.model.events.FireVehicle`,
    in dict form ``{"type": "fire_vehicle", "shooter", "vehicle", "weapon", "mode", "hex",
    "to_hit", "modifiers", "rolls": {"jam", "hit", "hit_chart", "damage" | "penetration"},
    "aspect", "part", "level", "result", "unit"}``; then the damage, crew, weapon and
    disablement events.

    Raises:
        IllegalActionError: :func:`vehicle_fire_refusal` gives a reason, or ``aspect`` is not
            one of front, side, rear.
    """
    from ambush_env.core.rules.fire import _after_shot, _jam_and_hit, shot_fields

    if aspect not in ASPECTS:
        raise IllegalActionError(f"unknown aspect {aspect!r}; one of {ASPECTS}")
    why = vehicle_fire_refusal(m, shooter, v, snap=snap, weapon=weapon)
    if why is not None:
        raise IllegalActionError(f"{shooter.name} cannot fire at {v.name}: {why}")
    t = m.tables
    own = weapon is None
    wid = shooter.weapon if weapon is None else weapon
    wc = t.weapon_class[wid]
    vt = vtype(v)
    if called is not None:
        from ambush_env.core.rules import d100

        pct = d100.percent_to_d10(d100.data().special.called_shot_percent)
        mods_extra = list(
            mods_extra.items() if isinstance(mods_extra, dict) else mods_extra or []
        ) + [("called_shot", pct)]
    n, mods = to_hit(m, shooter, v, snap=snap, weapon=weapon, mods_extra=mods_extra)
    ev = E.FireVehicle(
        vehicle=v.name,
        hex=m.board.label(v.hex),
        aspect=aspect,
        **shot_fields(shooter.name, wid, snap, n, mods),
    )
    rolls = ev.rolls_
    events: list[E.Event] = [ev]
    if not _jam_and_hit(m, shooter, wc, ev, n, events, own):
        return events
    if m.rules == "d100":  # seed 003 steps 3-7 replace the Hit Chart (module d100)
        _d100_hit(m, shooter, v, wid, wc, snap, aspect, n, ev, events, called)
        if own:
            _after_shot(m, shooter, wc, events)
        return events
    hc = m.dice.d10(f"{v.name} hit chart")
    rolls["hit_chart"] = hc
    part = vt.chart(aspect)[hc]
    ev.part = part
    if part in ("driver", "passenger"):
        _occupant_hit(m, shooter, v, part, wid, wc, snap, ev, events)
    elif part == "crew":
        _crew_hit(m, v, wc, ev, events)
    else:
        _part_hit(m, v, vt, part, aspect, wc, ev, events)
    if own:
        _after_shot(m, shooter, wc, events)
    return events


def _d100_hit(
    m: Match,
    shooter: Unit,
    v: Vehicle,
    wid: str,
    wc: Any,
    snap: bool,
    aspect: str,
    n: int,
    ev: E.FireVehicle,
    events: list[E.Event],
    called: str | None = None,
) -> None:
    """A hit under ``rules="d100"``: the weapon's damage dice per hit (an aimed burst of an
    automatic weapon scores ``d100.yaml: weapons.<class>.hits``), impaling by the hit roll,
    against the aspect's Armor value (seed 003; module d100)."""
    from ambush_env.core.rules import d100
    from ambush_env.core.vehicles.vehicles import apply_d100

    src = d100.weapon_damage(m, wid)
    hits = src.hits if wc.automatic and not snap else 1
    ev.result = "d100"
    m.emit(ev)
    start = len(m.log)
    source = m.tables.class_of[wid]
    if src.kind == "fire":  # a flamethrower: Luck sets the vehicle on fire (seed 003)
        apply_d100(m, v, d100.set_fire(m, v, src, source, shooter))
    else:
        imp = d100.impales(m, src, v, ev.rolls_.get("hit"), n)
        row = d100.called_row(v, called) if called is not None else None
        arm = 0 if called is not None and d100.called_exposed(v) else None
        apply_d100(
            m,
            v,
            d100.attack(
                m, v, src, source, aspect=aspect, hits=hits, impale=imp, location=row, armour=arm
            ),
        )
    events.extend(m.log[start:])


def _occupant_hit(
    m: Match,
    shooter: Unit,
    v: Vehicle,
    part: str,
    wid: str,
    wc: Any,
    snap: bool,
    ev: E.FireVehicle,
    events: list[E.Event],
) -> None:
    """A car's driver or passenger hit (seed 000 p. 31; seed 002 p. 26-27): the incapacitated
    and the dead are no target (a seat holding one counts as empty; an explosive hit on an
    empty seat still bursts inside ⚙); a passenger hit falls on one of the active ones."""
    from ambush_env.core.rules.damage import apply_damage

    units = m.state.units
    dice = m.dice
    if part == "driver":
        victim = v.driver if v.driver >= 0 and units[v.driver].status == ACTIVE else -1
    else:
        live = [o for o in v.passengers if units[o].status == ACTIVE]
        victim = live[dice.choice(len(live), f"{v.name} which passenger")] if live else -1
    if victim < 0:
        ev.result = "empty seat"
        m.emit(ev)
        if wc.explosive:
            _explosive_inside(m, wid, v, -1, events)
        return
    row = m.tables.soldier_row[wc.damage]
    dmg = dice.d10("damage")
    ev.rolls_["damage"] = dmg
    ev.result = row[dmg]
    ev.unit = units[victim].name
    m.emit(ev)
    was_driver = victim == v.driver
    events += apply_damage(m, victim, row[dmg])
    if wc.automatic and not snap:
        _chain_in_vehicle(m, shooter, v, victim, row, dmg, events)
    if wc.explosive:
        _explosive_inside(m, wid, v, victim, events)
    elif was_driver:
        driver_hurt(m, v, row[dmg], hit=True)


def _crew_hit(m: Match, v: Vehicle, wc: Any, ev: E.FireVehicle, events: list[E.Event]) -> None:
    """A hit on a tank's crew (seed 000 p. 30-31): nobody in a closed tank can be hit; in an
    open one a crewman is lost, no damage roll; an explosive hit kills him and rolls Bazooka
    Inside, prone, for each other exposed crewman (module docstring)."""
    if v.closed:
        ev.result = "closed"
        m.emit(ev)
        return
    exposed = min(shipped_vehicle_data().exposed_crew, v.crew)
    ev.result = "kill" if wc.explosive else "crew_hit"
    m.emit(ev)
    lost = 1
    if wc.explosive:
        row = m.tables.soldier_row["bazooka_inside"]
        prone = m.rd.grenades.prone_damage
        for _ in range(exposed - 1):
            r = m.dice.d10(f"{v.name} crew bazooka inside")
            res = row[max(0, min(9, r + prone))]
            ce = E.CrewDamageRoll(
                vehicle=v.name, row="bazooka_inside", roll=r, modifier=prone, result=res
            )
            m.emit(ce)
            events.append(ce)
            if res in ("incapacitated", "kill"):
                lost += 1
    left = max(0, v.crew - lost)
    cl = E.CrewLost(
        vehicle=v.name,
        lost=v.crew - left,
        crew=left,
        why="bazooka hit" if wc.explosive else "crew hit",
    )
    m.emit(cl)
    events.append(cl)
    set_crew(m, v, left)


def _part_hit(
    m: Match,
    v: Vehicle,
    vt: VehicleType,
    part: str,
    aspect: str,
    wc: Any,
    ev: E.FireVehicle,
    events: list[E.Event],
) -> None:
    """A hit on a part: penetration against its armour for the aspect, then its damage
    effect (seed 000 p. 31; module docstring)."""
    t = m.tables
    p = m.dice.d10("penetration")
    ev.rolls_["penetration"] = p
    levels = t.penetration_row[wc.damage]
    if levels is None:  # refused on load (tables._check_across): weapon classes have one
        raise DataError(t.source / "damage.yaml", f"rows.{wc.damage}.penetration", "missing")
    level = levels[p]
    result = part_result(t, wc.explosive, level, vt.armour(part, aspect))
    ev.level = level
    ev.result = result
    m.emit(ev)
    hit = result != _NO_EFFECT
    if vt.kind == "car":
        if part == "body" and hit:
            disable(m, v, "body penetrated")
        elif part == "tyres" and hit:
            v.tyre_shot = True
            m.emit(E.TyreShot(vehicle=v.name))
        if not v.disabled and part in ("tyres", "body"):
            accident_check(m, v, f"{part} hit")
        return
    if not hit:
        return
    if part == "body":
        disable(m, v, "body penetrated")
    elif part == "tread":
        if not v.immobilised:
            v.immobilised = True
            im = E.Immobilised(vehicle=v.name)
            m.emit(im)
            events.append(im)
    elif part in PART_WEAPONS:
        gone: list[str] = [w for w in PART_WEAPONS[part] if w in vt.weapons and w not in v.lost]
        if gone:
            v.lost.extend(gone)
            if "cannon" in gone:
                v.cannon_loaded = False
            wl = E.WeaponsLost(vehicle=v.name, part=part, weapons=gone)
            m.emit(wl)
            events.append(wl)


def _explosive_inside(m: Match, wid: str, v: Vehicle, victim: int, events: list[E.Event]) -> None:
    """A bazooka (any explosive) hit on a car's occupant (seed 000 p. 31): everyone else aboard
    rolls Grenade Inside as prone, and the car is disabled."""
    from ambush_env.core.rules.damage import roll_damage

    units = m.state.units
    prone = m.rd.grenades.prone_damage
    for uid in list(v.occupants):
        if uid != victim and units[uid].status == ACTIVE:  # the fallen: no target (seed 002)
            events += roll_damage(
                m, uid, "grenade_inside", modifier=prone, why=f"{units[uid].name} {wid} blast"
            )[2]
    disable(m, v, f"{wid} hit")


def _chain_in_vehicle(
    m: Match, shooter: Unit, v: Vehicle, first: int, row: tuple, prev: int, events: list[E.Event]
) -> None:
    """Aimed automatic fire goes on through the other occupants, passengers in seat order
    then the driver, while each damage roll is lower than the one before (seed 002 p. 27)."""
    from ambush_env.core.rules.damage import apply_damage

    units = m.state.units
    order = [uid for uid in v.passengers + ([v.driver] if v.driver >= 0 else []) if uid != first]
    for uid in order:
        o = units[uid]
        if o.status != ACTIVE:  # the fallen are no target of fire (seed 002 p. 26)
            continue
        r = m.dice.d10("damage (chain)")
        if r >= prev:
            ev = E.FireChain(
                shooter=shooter.name, target=o.name, rolls_={"damage": r}, result="stopped"
            )
            m.emit(ev)
            events.append(ev)
            return
        ev = E.FireChain(shooter=shooter.name, target=o.name, rolls_={"damage": r}, result=row[r])
        m.emit(ev)
        events.append(ev)
        events += apply_damage(m, uid, row[r])
        prev = r
        if uid == v.driver:  # the driver is last in the chain (seed 000 p. 31-32)
            driver_hurt(m, v, row[r], hit=True)
