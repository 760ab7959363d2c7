"""Owns the d100 vehicle-combat module (seed 003; RULES.md §13), read under ``rules="d100"``:
damage dice, armour, penetration, the hit-location tables, Base HP, destruction, fires and
the Vehicle Trouble Table. Numbers and every ⚙ choice live in ``data/d100.yaml``.

Step 1 of seed 003 ("highest DEX goes first") is RULES.md §5's Action Round order, unchanged:
the board game has no DEX, and its AR track already orders who acts first. Step 2 (the hit) is
the shot's own to-hit roll (RULES.md §8, seed 000). Steps 3-7 are :func:`attack`:

3. each hit rolls the weapon's damage dice (an impaling hit rolls them twice, the bonus once);
   explosives do half damage against an armoured vehicle (Armor value ≥ 15); the Armor value
   met is the aspect's, less what earlier armour-piercing hits shot away;
4. damage *at or below* the Armor value has no effect ⚙ (the seed: "less than" no effect,
   "more than" penetrates; equal is read as stopped: penetrating takes more than the armour);
   a cumulative kind (armour-piercing shells, hollow charges) shoots its damage off the
   aspect's Armor value whether it penetrates or not ("permanently decreased by these
   attacks"; ⚙ at most what is there: a hit that penetrates leaves that aspect 0);
5. one d100 on the vehicle's hit-location table for the attack (not per hit);
6. the damage minus the Armor value of every penetrating hit comes off the Base HP and off the
   component's HP (a component is destroyed when its HP is spent, its effect applied once);
   an occupant location hits its people instead: every one for an area attack, else, with
   fewer hits than targets, those who miss a Luck roll by the most (one hit each);
7. at zero Base HP the vehicle is destroyed (disabled), and every occupant takes the damage
   of the attack minus the Armor value.

Rules functions here never call the loop. What the vehicle layer must do (disable the vehicle,
change a tank's crew, an Accident Table outcome) comes back as *effects*, which
:func:`ambush_env.core.vehicles.vehicles.apply_d100` carries out: ``("disable", why)``,
``("crew", active_crew)``, ``("accident", outcome)``, ``("stop",)``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ambush_env.core.model import events as E
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, CAPTURED, INCAP
from ambush_env.core.rules.ctx import Match
from ambush_env.core.world.d100_data import (
    OCCUPANT_EFFECTS,
    D100Data,
    LocationRow,
    VehicleStats,
    WeaponDamage,
    parse_dice,
    percent_to_d10,  # noqa: F401  (re-exported: the special attacks and tests read d100.percent_to_d10)
    shipped_d100_data,
)
from ambush_env.core.world.vehicle_data import vtype

Effect = tuple[Any, ...]
_T = TypeVar("_T")


def data() -> D100Data:
    """The shipped ``d100.yaml``."""
    return shipped_d100_data()


def _needed(row: LocationRow, name: str, value: _T | None) -> _T:
    """``row``'s field ``name`` (its ``value``), which the row's effect needs.

    Raises:
        DataError: it is absent, which loading refuses (``LocationRow``), naming the row.
    """
    if value is None:
        raise DataError("d100.yaml", row.component, f"the {row.effect} effect needs {name}")
    return value


def stats(v: Vehicle) -> VehicleStats:
    """The d100 numbers of ``v``'s type."""
    return data().vehicles[v.type]


def armoured(v: Vehicle) -> bool:
    """Armoured by seed 003's footnote: an Armor value (front) of ``armoured_from`` (15) or more."""
    return stats(v).armour >= data().armoured_from


def armour_value(v: Vehicle, aspect: str = "front") -> int:
    """The Armor value an attack on ``aspect`` meets now: the aspect's ⚙, less what armour-
    piercing hits have shot away (never below 0)."""
    s = stats(v)
    # a str key where the keys are side and rear: front (no entry) gives the front value
    base = s.aspect_armour.get(aspect, s.armour)  # type: ignore[call-overload]
    return max(0, base - v.armour_loss.get(aspect, 0))


def belly_armour(v: Vehicle) -> int:
    """The Armor value a charge under the vehicle meets: ⚙ the belly is its thinnest plate,
    the least of its aspects' Armor values now, then halved (seed 003: "the Armor Value of the
    vehicle is halved"; ``special.under_armour_divisor``)."""
    low = min(armour_value(v, a) for a in ("front", "side", "rear"))
    return low // data().special.under_armour_divisor


def hp_left(v: Vehicle) -> int:
    """Base HP left (``Vehicle.hp`` −1 reads the type's full Base HP)."""
    return stats(v).hp if v.hp < 0 else v.hp


def luck(u: Unit) -> int:
    """A soldier's Luck (percent): 10 × PC + 15 ⚙ (RULES.md §13)."""
    c = data().luck
    return c.per_pc * u.PC + c.base


def drive_auto(ds: int) -> int:
    """Drive Auto (percent) for a driving skill ``ds`` ⚙ (``d100.yaml: drive_auto``)."""
    c = data().drive_auto
    return c.per_ds * ds + c.base


def roll_dice(m: Match, spec: str, why: str) -> tuple[int, list[int]]:
    """Roll ``spec`` ("NdM+K"), one die at a time: ``(total, [each die])``."""
    n, sides, add = parse_dice(spec)
    got = [m.dice.roll(1, sides, why) for _ in range(n)]
    return sum(got) + add, got


def level_of(damage: int) -> str:
    """Occupant damage → a wound level of seed 002 (``occupant_levels`` ⚙)."""
    lv = data().occupant_levels
    if damage >= lv["kill"]:
        return "kill"
    if damage >= lv["incapacitated"]:
        return "incapacitated"
    if damage >= lv["wound"]:
        return "wound"
    return "none"


def weapon_damage(m: Match, weapon_id: str) -> WeaponDamage:
    """The damage of a weapons.yaml weapon (by its class)."""
    return data().weapons[m.tables.class_of[weapon_id]]


def impales(m: Match, src: WeaponDamage, v: Vehicle, hit_roll: int | None, to_hit: int) -> bool:
    """Whether a hit rolled ``hit_roll`` against ``to_hit`` impales ⚙ (``impale_divisor``):
    never for explosives and explosive shells (hollow charges), and against an armoured
    vehicle only for the kinds that may (``damage_kinds``)."""
    if hit_roll is None:
        return False
    kind = data().damage_kinds[src.kind]
    if not (kind.impale_vs_armoured if armoured(v) else kind.impale_vs_unarmoured):
        return False
    return hit_roll <= max(0, to_hit) // data().impale_divisor


def point_blank_range(m: Match, shooter: Unit, weapon_id: str) -> int | None:
    """The hexes within which ``shooter``'s ``weapon_id`` is at point-blank range (seed 003),
    None for a weapon the seed gives none: tank and anti-tank guns ``point_blank_hexes`` ⚙ (its
    "100 yards or less"); an anti-tank rifle (``point_blank_dex_classes``) "the shooter's DEX in
    feet" ⚙: DEX = ``special.dex_per_pc`` × PC feet, over ``feet_per_hex``, rounded down (0:
    his own hex)."""
    d = data()
    cls = m.tables.class_of[weapon_id]
    if cls in d.point_blank_classes:
        return d.point_blank_hexes
    if cls in d.point_blank_dex_classes:
        return d.special.dex_per_pc * shooter.PC // d.feet_per_hex
    return None


def point_blank(m: Match, shooter: Unit, weapon_id: str, distance: int, n: int) -> int:
    """The to-hit number ``n`` of ``shooter``'s shot with ``weapon_id`` at ``distance`` hexes,
    ``n`` being the whole number, every other modifier in: within :func:`point_blank_range`
    "the chance to hit is doubled" (seed 003), the shot's chance and not a part of it. ⚙ On the
    d10 ``n`` hits on n + 1 faces; doubled, on 2n + 2: n becomes 2n + 1, at most 9 (a number
    below 0 never hits, and stays)."""
    reach = point_blank_range(m, shooter, weapon_id)
    if reach is None or distance > reach or n < 0:
        return n
    return min(9, 2 * n + 1)


# ============================================================================ the attack
def attack(
    m: Match,
    v: Vehicle,
    src: WeaponDamage,
    source: str,
    *,
    aspect: str = "front",
    hits: int = 1,
    impale: bool = False,
    multiplier: int = 1,
    divisor: int = 1,
    inside: bool = False,
    location: LocationRow | None = None,
    armour: int | None = None,
    rolled: int | None = None,
    people: bool = True,
    wreck: bool = False,
) -> list[Effect]:
    """Steps 3-7 of seed 003 against ``v`` (module docstring).

    Args:
        src: the damage dice and kind; ``source``: its name in the event.
        aspect: the side hit (its Armor value ⚙).
        hits: hits of this attack (a burst: ``WeaponDamage.hits``), each rolling damage.
        impale: the hit impales (:func:`impales`): the dice rolled twice.
        multiplier, divisor: damage × / ÷ (a grenade inside × 2; a satchel beside the hex ÷ 2).
        inside: it goes off inside: no armour, no halving ⚙ (:func:`inside_blast` for people).
        location: a called shot's row instead of the hit-location roll (seed 003).
        armour: the Armor value met instead of the aspect's (an exposed target: 0; a charge
            under the vehicle: :func:`belly_armour`); such a hit shoots no armour away.
        rolled: the damage already rolled (one hit; the rammer's quarter of a collision).
        people: False when the blast has hurt the riders already (a charge bursting beside an
            open car, RULES.md §9): an occupant location then hurts nobody again ⚙.
        wreck: the same blast disables the vehicle (a mine under a car, seed 000 p. 32): the
            riders still take their damage, but what would change how it drives is moot ⚙: a
            destroyed component is recorded without its rolls, a hit driver rolls no Vehicle
            Trouble.

    Returns:
        The effects for :func:`~ambush_env.core.vehicles.vehicles.apply_d100`.
    """
    d = data()
    kind = d.damage_kinds[src.kind]
    own_aspect = not inside and armour is None
    arm = 0 if inside else (armour if armour is not None else armour_value(v, aspect))
    half = kind.half_vs_armoured and armoured(v) and not inside
    damages: list[int] = []
    dice: list[list[int]] = []
    pens: list[int] = []
    shot_away = 0
    got: list[int]  # the dice of one hit (none when ``rolled`` gives its total)
    for _ in range(hits):
        if rolled is not None:
            total, got = rolled, []
        else:
            total, got = roll_dice(m, src.dice, f"{v.name} {source} damage")
        if impale:
            extra, more = roll_dice(m, src.dice, f"{v.name} {source} impale")
            total += extra - parse_dice(src.dice)[2]  # the dice twice, the bonus once
            got = got + more
        total = total * multiplier // divisor
        if half:
            total //= 2
        damages.append(total)
        dice.append(got)
        if total > arm:
            pens.append(total - arm)
        if kind.cumulative and own_aspect:  # through or not: "permanently decreased"
            shot_away += total
    ev = E.D100Attack(
        vehicle=v.name,
        source=source,
        kind=src.kind,
        armour=arm,
        damage=damages,
        dice=dice,
        penetrated=pens,
        impale=impale,
    )
    shot_away = min(shot_away, arm)  # ⚙ what was there: a hit through leaves 0
    if shot_away:  # seed 003: the aspect's Armor value "permanently decreased by these attacks"
        v.armour_loss[aspect] = v.armour_loss.get(aspect, 0) + shot_away
        ev.armour_loss = shot_away
    if not pens:
        m.emit(ev)
        return []
    if location is None:
        r = m.dice.d100(f"{v.name} hit location")
        row = d.location(stats(v).table, r)
        ev.location_roll = r
    else:
        row = location
    ev.component = row.component
    v.hp = max(0, hp_left(v) - sum(pens))
    ev.hp = v.hp
    m.emit(ev)
    effects = _location(m, v, row, pens, kind.area, arm, people, wreck)
    if v.hp == 0 and not v.disabled and not any(e[0] == "disable" for e in effects):
        # every occupant takes the attack's damage minus the Armor value (⚙ of a burst: its
        # strongest hit)
        effects += destroy(m, v, f"{source}: Base HP 0", max(damages) - arm)
    return effects


def _location(
    m: Match,
    v: Vehicle,
    row: LocationRow,
    pens: list[int],
    area: bool,
    arm: int,
    people: bool = True,
    wreck: bool = False,
) -> list[Effect]:
    """The hit-location row's effect for the penetrating damage ``pens`` (``wreck``:
    :func:`attack`)."""
    eff = row.effect
    if eff in OCCUPANT_EFFECTS and not people:
        m.emit(
            E.D100Component(
                vehicle=v.name,
                component=row.component,
                effect=eff,
                result="riders hurt by the blast already",
            )
        )
        return []
    if eff in ("driver", "front_passenger", "back_seat"):
        return _seat_hit(m, v, row, pens, area, wreck)
    if eff in ("turret", "hull"):
        return _crew_section(m, v, row, sum(pens))
    # a component with HP: destroyed when its HP is spent ("no such component: ignore")
    if eff == "weapon" and row.mount not in vtype(v).weapons:
        m.emit(
            E.D100Component(
                vehicle=v.name, component=row.component, effect=eff, result="no such component"
            )
        )
        return []
    name = row.component
    if name in v.destroyed:
        return []
    got = v.component_damage.get(name, 0) + sum(pens)
    v.component_damage[name] = got
    if isinstance(row.hp, str):  # "occupant": the occupant effects, taken above
        raise DataError("d100.yaml", row.component, f"the {row.effect} effect needs HP")
    if got < row.hp:
        return []
    v.destroyed.append(name)
    if wreck:
        m.emit(
            E.D100Component(
                vehicle=v.name,
                component=name,
                effect=eff,
                result="destroyed (the vehicle is disabled)",
            )
        )
        return []
    return _destroyed(m, v, row)


def _destroyed(m: Match, v: Vehicle, row: LocationRow) -> list[Effect]:
    """A component's "effect if destroyed" (``d100.yaml`` tables' ``effect``)."""
    eff = row.effect
    ev = E.D100Component(vehicle=v.name, component=row.component, effect=eff, result="destroyed")
    rolls: dict[str, int] = {}
    out: list[Effect] = []
    if eff == "mov":
        q = int(4 * _needed(row, "factor", row.factor))
        v.mpa_quarters = min(v.mpa_quarters, q) if v.mpa_quarters < 4 else q
        ev.result = f"MPA x {v.mpa_quarters}/4"
    elif eff in ("fuel_tank", "engine"):
        r = m.dice.d100(f"{v.name} {row.component.lower()} fire")
        rolls["fire"] = r
        if r <= _needed(row, "fire", row.fire):
            v.burning = True
            ev.result = "on fire"
        elif eff == "fuel_tank":
            n, _ = roll_dice(m, data().countdown_dice, f"{v.name} rolls to a stop in")
            v.countdowns["stop"] = n
            ev.result = f"stops in {n} Rounds"
        else:
            out += _immobilise(m, v)
            ev.result = "immobilised"
    elif eff == "overheat":
        n, _ = roll_dice(m, data().countdown_dice, f"{v.name} overheats in")
        v.countdowns["overheat"] = n
        ev.result = f"overheats in {n} Rounds"
    elif eff == "tire":
        need = vehicle_drive_auto(m, v, _driver_ds(m, v)) + _needed(row, "modifier", row.modifier)
        r = m.dice.d100(f"{v.name} Drive Auto")
        rolls["drive_auto"] = r
        if r <= need:
            q = int(4 * _needed(row, "factor", row.factor))
            v.mpa_quarters = min(v.mpa_quarters, q)
            ev.result = f"MPA x {v.mpa_quarters}/4"
        else:
            ev.result = "trouble"
            m.emit(ev if not rolls else _with(ev, rolls))
            return out + trouble(m, v, row.trouble or 0, row.component)
    elif eff == "weapon":
        if row.mount not in v.lost:
            v.lost.append(_needed(row, "mount", row.mount))
            if row.mount == "cannon":
                v.cannon_loaded = False
        ev.result = f"{row.mount} out of action"
    elif eff == "magazine":
        m.emit(ev)
        return out + destroy(m, v, "magazine explosion", None, magazine=True)
    elif eff == "gun_laying":
        ev.result = f"main gun {row.modifier}%"
    elif eff in ("steering",):
        m.emit(ev)
        return out + trouble(m, v, 0, row.component)
    elif eff == "headlamps":
        ev.result = "no headlamps" + ("" if _night(m) else " (daylight: no effect)")
    # radio: recorded only; brakes: a trouble roll when a drive ends (vehicles.d100_brakes)
    m.emit(ev if not rolls else _with(ev, rolls))
    return out


def running_gear_row(v: Vehicle) -> LocationRow | None:
    """The first ``tire`` row of ``v``'s table: a tank's Tread, a car's Front Tire (seed 003)."""
    return next((r for r in data().tables[stats(v).table] if r.effect == "tire"), None)


def row_of(v: Vehicle, effect: str) -> LocationRow | None:
    """The first row of ``v``'s hit-location table with ``effect``."""
    return next((r for r in data().tables[stats(v).table] if r.effect == effect), None)


def called_row(v: Vehicle, location: str) -> LocationRow | None:
    """The row a called shot at ``location`` (``orders.CALLED``) hits (seed 003)."""
    return row_of(v, "driver") if location == "driver" else running_gear_row(v)


def called_exposed(v: Vehicle) -> bool:
    """A car's driver and tyres are exposed: no Armor value (seed 003 "unless the target is
    exposed"); a tank's tread is not ⚙."""
    return vtype(v).kind != "tank"


def destroy_component(m: Match, v: Vehicle, row: LocationRow) -> list[Effect]:
    """``row``'s "effect if destroyed" at once (a charge into the treads: "the same effect as
    rolling Tread", seed 003); nothing if that component is destroyed already."""
    if row.component in v.destroyed:
        m.emit(
            E.D100Component(
                vehicle=v.name,
                component=row.component,
                effect=row.effect,
                result="destroyed already",
            )
        )
        return []
    v.destroyed.append(row.component)
    return _destroyed(m, v, row)


def set_fire(m: Match, v: Vehicle, src: WeaponDamage, source: str, who: Unit) -> list[Effect]:
    """A Molotov or a flamethrower hit (seed 003): on ``who``'s Luck roll the vehicle catches
    fire ("and anything else touched": the engine has no burning terrain ⚙). Each Round after,
    the fire's damage (``src``'s dice) is rolled against the Armor value; only when it is more
    ("a chance the fire will cause an explosion") the Vehicle Fire Table is rolled ⚙."""
    need = luck(who)
    r = m.dice.d100(f"{who.name} Luck ({source})")
    ev = E.D100Ignite(vehicle=v.name, source=source, luck=r, need=need, result="no fire")
    if r <= need:
        v.burning = True
        if not v.fire_dice:
            v.fire_dice = src.dice
        ev.result = "on fire"
    m.emit(ev)
    return []


def skill_check(m: Match, percent: int, why: str) -> tuple[int, bool]:
    """A percentile check of seed 003 (Drive Auto, DEX × 5): a d100 at or below ``percent``."""
    r = m.dice.d100(why)
    return r, r <= percent


def _with(ev: E.D100Component, rolls: dict[str, int]) -> E.D100Component:
    ev.rolls_ = rolls
    return ev


def _night(m: Match) -> bool:
    """Night: the mission caps sight (RULES.md §3 ``sight_cap``)."""
    return getattr(getattr(m.mission, "rules", None), "sight_cap", None) is not None


def vehicle_drive_auto(m: Match, v: Vehicle, ds: int) -> int:
    """Drive Auto (percent) of a driver of skill ``ds`` at the wheel of ``v``: −10 % at night
    once its Headlamps are destroyed (seed 003: "driving in darkness")."""
    pct = drive_auto(ds)
    if v.destroyed and _night(m):
        row = row_of(v, "headlamps")
        if row is not None and row.component in v.destroyed:
            pct += row.modifier or 0
    return pct


def _driver_ds(m: Match, v: Vehicle) -> int:
    if v.driver >= 0 and m.state.units[v.driver].status == ACTIVE:
        return m.state.units[v.driver].DS
    return 0


def _immobilise(m: Match, v: Vehicle) -> list[Effect]:
    if v.immobilised:
        return []
    v.immobilised = True
    m.emit(E.Immobilised(vehicle=v.name))
    return [("stop",)]


def _being_driven(m: Match, v: Vehicle) -> bool:
    t = m.state.turn
    return t.mode == "drive" and t.uid >= 0 and t.uid == v.driver


# ============================================================================ people
def _seat_hit(
    m: Match, v: Vehicle, row: LocationRow, pens: list[int], area: bool, wreck: bool = False
) -> list[Effect]:
    """A car's driver, front-seat passenger or back seat hit (seed 003; Luck picks who when
    fewer hits than targets and the attack is not an area attack)."""
    units = m.state.units
    front = stats(v).front_seats
    if row.effect == "driver":
        seats = [v.driver] if v.driver >= 0 else []
    elif row.effect == "front_passenger":
        seats = v.passengers[:front]
    else:
        seats = v.passengers[front:]
    targets = [uid for uid in seats if units[uid].status == ACTIVE]
    if not targets:
        m.emit(
            E.D100Component(
                vehicle=v.name,
                component=row.component,
                effect=row.effect,
                result=("no such component" if _no_seat(v, row.effect) else "nobody there"),
            )
        )
        return []
    out: list[Effect] = []
    if area or len(pens) >= len(targets):
        # area: everyone takes the whole; else every hit lands, in turn on each man in seat
        # order (a second round on the first when hits outnumber them ⚙), damage adding up
        got = [0] * len(targets)
        for k, p in enumerate(pens):
            got[k % len(targets)] += p
        for k, uid in enumerate(targets):
            out += hurt(m, v, uid, sum(pens) if area else got[k])
    else:
        misses = []
        for uid in targets:
            u = units[uid]
            r = m.dice.d100(f"{u.name} Luck")
            need = luck(u)
            if r > need:
                misses.append((r - need, -targets.index(uid), uid, r, need))
            else:
                m.emit(
                    E.D100Occupant(
                        vehicle=v.name, unit=u.name, damage=0, result="none", luck=r, need=need
                    )
                )
        misses.sort(reverse=True)
        for k, (_, _, uid, r, need) in enumerate(misses):
            if k < len(pens):
                out += hurt(m, v, uid, pens[k], luck_roll=(r, need))
            else:
                m.emit(
                    E.D100Occupant(
                        vehicle=v.name,
                        unit=units[uid].name,
                        damage=0,
                        result="none",
                        luck=r,
                        need=need,
                    )
                )
    if row.effect == "driver" and not v.disabled and not wreck:
        drv_down = v.driver < 0 or units[v.driver].status != ACTIVE
        bonus = take_the_wheel(m, v, row) if drv_down else row.trouble or 0
        out += trouble(m, v, bonus, "driver hit")
    return out


def take_the_wheel(m: Match, v: Vehicle, row: LocationRow, crew_left: int = 0) -> int:
    """Seed 003's "Someone must take the wheel in this round (DEX check + Drive Auto -20%) or
    roll on the VEHICLE TROUBLE TABLE +10" after ``row`` put ``v``'s driver out, made before
    the Trouble roll (RULES.md §13); returns that roll's bonus: the row's ``trouble`` when
    someone takes the wheel, its ``take_wheel.trouble`` when nobody does (a row without
    ``take_wheel``, the motorcycle's: ``trouble`` and no check).

    ⚙ One rider tries: in a car the first in seat order (front seats first) who is active,
    not panicked and may drive it (a captured car counts his DS 1 lower, seed 002 p. 27); he
    takes the driver's seat on a pass (the fallen driver his). In a tank (``crew_left`` men
    of its turret) one crewman tries at the Drive Auto of the crew left and moves to the
    hull on a pass. The check is one d100 at or below Drive Auto + ``take_wheel.percent``,
    labelled ``"<who> takes the wheel of <vehicle> (Drive Auto <percent>%)"``; a
    ``d100_take_wheel`` event records it."""
    from ambush_env.core.world.vehicle_data import can_take_wheel, crew_rating, effective_ds

    tw = row.take_wheel
    if tw is None:
        return row.trouble or 0
    units = m.state.units
    if vtype(v).kind == "tank":
        who, ds = ("crew", crew_rating(crew_left).DS) if crew_left > 0 else ("", 0)
    else:
        able = [
            units[uid]
            for uid in v.passengers
            if units[uid].status == ACTIVE
            and not units[uid].panicked
            and can_take_wheel(v, units[uid])
        ]
        who, ds = (able[0].name, effective_ds(v, able[0])) if able else ("", 0)
    if not who:
        m.emit(E.D100TakeWheel(vehicle=v.name, unit="", result="nobody to take it"))
        return tw.trouble
    need = vehicle_drive_auto(m, v, ds) + tw.percent
    r, ok = skill_check(m, need, f"{who} takes the wheel of {v.name} (Drive Auto {tw.percent}%)")
    m.emit(
        E.D100TakeWheel(
            vehicle=v.name, unit=who, result="took the wheel" if ok else "failed", roll=r, need=need
        )
    )
    if not ok:
        return tw.trouble
    if vtype(v).kind == "tank":
        v.hull_crew = 1
    else:
        uid = able[0].uid
        i = v.passengers.index(uid)
        if v.driver >= 0:
            v.passengers[i] = v.driver
        else:
            v.passengers.pop(i)
        v.driver = uid
    return row.trouble or 0


def _no_seat(v: Vehicle, effect: str) -> bool:
    """Whether ``v`` has no such seat at all (seed 003: "no such component: ignore")."""
    if effect == "driver":
        return False
    front = stats(v).front_seats
    seats = vtype(v).occupants - 1
    return front == 0 if effect == "front_passenger" else seats - front <= 0


def hurt(
    m: Match, v: Vehicle, uid: int, damage: int, *, luck_roll: tuple[int, int] | None = None
) -> list[Effect]:
    """An occupant of ``v`` takes ``damage``: its seed 002 level applied (module damage)."""
    from ambush_env.core.rules.damage import apply_damage

    u = m.state.units[uid]
    res = level_of(damage)
    ev = E.D100Occupant(vehicle=v.name, unit=u.name, damage=damage, result=res)
    if luck_roll is not None:
        ev.luck, ev.need = luck_roll
    m.emit(ev)
    apply_damage(m, uid, res)
    return []


def _crewman(m: Match, v: Vehicle, damage: int) -> bool:
    """One of a tank's crew takes ``damage`` (a ``d100_occupant`` event, unit ``"crew"``);
    whether he is lost to the crew (incapacitated or killed ⚙)."""
    res = level_of(damage)
    m.emit(E.D100Occupant(vehicle=v.name, unit="crew", damage=damage, result=res))
    return res in ("incapacitated", "kill")


def _crew_lost(m: Match, v: Vehicle, lost: int, why: str) -> list[Effect]:
    """``lost`` crewmen gone (a ``crew_lost`` event): the crew-count effect, or none."""
    if not lost:
        return []
    m.emit(E.CrewLost(vehicle=v.name, lost=lost, crew=v.crew - lost, why=why))
    return [("crew", v.crew - lost)]


def _sections(v: Vehicle) -> tuple[int, int]:
    """A tank's active crew in (turret, hull)."""
    hull_full = vtype(v).occupants - stats(v).turret_crew
    hull = min(v.crew, hull_full if v.hull_crew < 0 else v.hull_crew)
    return v.crew - hull, hull


def _crew_section(m: Match, v: Vehicle, row: LocationRow, dmg: int) -> list[Effect]:
    """A tank's turret or hull hit: that section's crew takes ``dmg``, the other section half
    (seed 003); every man is hit (⚙ a penetration fills the compartment: no Luck rolls). A
    crewman incapacitated or killed is lost to the crew ⚙. A car's "turret or front cab" is its
    front seats and its "hull or bed" its back seat ⚙."""
    if vtype(v).kind != "tank":
        seat = "front_passenger" if row.effect == "turret" else "back_seat"
        fake = row.model_copy(update={"effect": seat, "hp": "occupant"})
        out = _seat_hit(m, v, fake, [dmg], True)
        if row.effect == "turret" and v.driver >= 0:
            out += hurt(m, v, v.driver, dmg)
        return out
    turret, hull = _sections(v)
    hit_turret = row.effect == "turret"
    lost_t = lost_h = 0
    for n, part_dmg, is_turret in (
        (turret, dmg if hit_turret else dmg // 2, True),
        (hull, dmg // 2 if hit_turret else dmg, False),
    ):
        for _ in range(n):
            if _crewman(m, v, part_dmg):
                if is_turret:
                    lost_t += 1
                else:
                    lost_h += 1
    if not lost_t and not lost_h:
        return []
    v.hull_crew = hull - lost_h
    left = v.crew - lost_t - lost_h
    out = _crew_lost(m, v, lost_t + lost_h, row.component)
    if lost_h and v.hull_crew == 0 and left > 0:  # "if driver dead" ⚙: the hull all lost
        out += trouble(m, v, take_the_wheel(m, v, row, left), "driver lost")
    return out


# ============================================================================ destruction
def destroy(
    m: Match, v: Vehicle, why: str, damage: int | None, *, magazine: bool = False
) -> list[Effect]:
    """Seed 003 step 7 (or a magazine explosion): the vehicle is destroyed (disabled) and every
    occupant takes ``damage`` (the attack's damage minus the Armor value) or 12d6."""
    units = m.state.units
    m.emit(E.D100Destroyed(vehicle=v.name, why=why))
    v.hp = 0
    if vtype(v).kind == "tank":
        lost = 0
        for _ in range(v.crew):
            dmg = (
                roll_dice(m, data().magazine_dice, f"{v.name} magazine")[0]
                if magazine
                else (damage or 0)
            )
            lost += _crewman(m, v, dmg)
        return [("disable", why)] + _crew_lost(m, v, lost, why)
    for uid in aboard(m, v):
        dmg = (
            roll_dice(m, data().magazine_dice, f"{units[uid].name} magazine")[0]
            if magazine
            else (damage or 0)
        )
        hurt(m, v, uid, dmg)
    return [("disable", why)]


def aboard(m: Match, v: Vehicle) -> list[int]:
    """Everyone in ``v`` an area effect reaches (a destruction, a fire, a blast inside): the
    active, the fallen (incapacitated) and prisoners, not the dead (seed 002's fallen are no
    target of *aimed* fire only ⚙)."""
    units = m.state.units
    return [uid for uid in v.occupants if units[uid].status in (ACTIVE, INCAP, CAPTURED)]


def inside_blast(m: Match, v: Vehicle, src: WeaponDamage, source: str) -> list[Effect]:
    """A grenade (any area-effect weapon) going off inside ``v`` (seed 003 Hand Grenades):
    damage × 2 in an armoured vehicle (× 1 in a car ⚙), no armour between; every one aboard
    takes it (a tank: every crewman) and so does the Base HP ⚙; no hit-location roll."""
    d = data()
    total, got = roll_dice(m, src.dice, f"{v.name} {source} damage")
    if armoured(v):
        total *= d.grenade_inside_multiplier
    ev = E.D100Attack(
        vehicle=v.name,
        source=source,
        kind=src.kind,
        armour=0,
        damage=[total],
        dice=[got],
        penetrated=[total],
        impale=False,
    )
    v.hp = max(0, hp_left(v) - total)
    ev.hp = v.hp
    m.emit(ev)
    out: list[Effect] = []
    if vtype(v).kind == "tank":
        lost = sum(_crewman(m, v, total) for _ in range(v.crew))
        out += _crew_lost(m, v, lost, source)
    else:
        for uid in aboard(m, v):
            hurt(m, v, uid, total)
    if v.hp == 0 and not v.disabled:
        m.emit(E.D100Destroyed(vehicle=v.name, why=f"{source}: Base HP 0"))
        out.insert(0, ("disable", f"{source}: Base HP 0"))
    return out


def trouble(m: Match, v: Vehicle, bonus: int, why: str) -> list[Effect]:
    """A roll on the Vehicle Trouble Table ⚙: d10 + ``bonus``; a vehicle not being driven now
    cannot skid or overturn (read as stop)."""
    r = m.dice.d10(f"{v.name} vehicle trouble")
    total = r + bonus
    res = "none"
    for row in data().trouble_table:
        if row.roll[0] <= total <= row.roll[1]:
            res = row.result
            break
    else:
        res = data().trouble_table[-1].result if total > 0 else "none"
    if res in ("skid", "overturn") and not _being_driven(m, v):
        res = "stop"
    m.emit(E.D100Trouble(vehicle=v.name, roll=r, bonus=bonus, result=res, why=why))
    return [] if res == "none" else [("accident", res)]


# ============================================================================ each Round
def tick(m: Match) -> list[tuple[Vehicle, list[Effect]]]:
    """A new Round (or an Operations pulse ⚙): burning vehicles roll the Vehicle Fire Table;
    countdowns run down (at 0 the vehicle is inoperable: immobilised); speeds reset. Returns
    each vehicle's effects."""
    out = []
    for v in m.state.vehicles:
        v.moved_mp = 0
        if v.disabled or v.hex < 0 or v.exited:
            continue
        eff: list[Effect] = []
        for what in sorted(v.countdowns):
            n = v.countdowns[what] - 1
            v.countdowns[what] = n
            m.emit(E.D100Countdown(vehicle=v.name, what=what, rounds=max(0, n)))
            if n <= 0:
                del v.countdowns[what]
                eff += _immobilise(m, v)
        if v.burning:
            eff += _fire_round(m, v)
        if eff:
            out.append((v, eff))
    return out


def _fire_round(m: Match, v: Vehicle) -> list[Effect]:
    """One Round of a vehicle fire (seed 003 Vehicle Fire Table; a d10 0 reads 10 ⚙)."""
    if v.fire_dice:  # a Molotov or flamethrower fire: it must beat the armour first
        dmg, _ = roll_dice(m, v.fire_dice, f"{v.name} fire against the armour")
        arm = armour_value(v)
        if dmg <= arm:
            m.emit(E.D100Fire(vehicle=v.name, roll=0, result=f"burns on the hull ({dmg} <= {arm})"))
            return []
    r = m.dice.d10(f"{v.name} vehicle fire")
    roll = 10 if r == 0 else r
    row = next(x for x in data().fire_table if x.roll[0] <= roll <= x.roll[1])
    m.emit(E.D100Fire(vehicle=v.name, roll=roll, result=row.result))
    arm = armour_value(v) if row.minus_armour else 0
    out: list[Effect] = []
    people = [None] * v.crew if vtype(v).kind == "tank" else aboard(m, v)
    lost = 0
    for who in people:
        dmg = roll_dice(m, row.occupants, f"{v.name} fire damage")[0]
        if row.extra:
            dmg += roll_dice(m, row.extra, f"{v.name} concussion")[0]
        dmg = max(0, dmg - arm)
        if who is None:
            lost += _crewman(m, v, dmg)
        else:
            hurt(m, v, who, dmg)
    out += _crew_lost(m, v, lost, row.result)
    if row.explodes:
        m.emit(E.D100Destroyed(vehicle=v.name, why="explosion"))
        v.hp = 0
        out.append(("disable", "fire: explosion"))
    elif row.inoperable:
        out += _immobilise(m, v)
    return out
