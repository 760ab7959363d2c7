"""Owns fire combat (RULES.md §8, §11): to-hit numbers, the shot sequence, fire at walls,
penetration.

Sources: RULES.md §8 (fire combat), §11 (the binding reading of penetration); seed 002 p. 26-27
(penetration of walls, aimed automatic fire, prisoners); seed 000 p. 30-33 (vehicle sizes, fire
from cars, tank weapons). Every number comes from :class:`~ambush_env.core.world.tables.Tables`.

Functions take the bundle :class:`~ambush_env.core.rules.ctx.Match` (``state``, ``board``,
``dice``, ``tables``, ``sight``, ``units_at``, ``emit``, ``in_rounds``). Hexes are board indices;
distances are in hexes. A hit is a d10 at or below the to-hit number (RULES.md §1).

A shot (RULES.md §8) is: jam check (classes with ``jams``: a d10 at or above ``jam_on`` jams the
weapon, no shot, no ammunition used) → hit roll → damage roll (soldiers) or penetration roll
(walls) → ammunition: one shot of the clip is used (``Unit.ammo`` −1; −1 never runs dry; at 0
the weapon is dry and needs a new clip) and a bazooka must be loaded again.

Decisions where the sources are silent (documented here and in the data files):

* Cover. The target's hex terrain gives its cover (building = "through an aperture", −2).
  When the line of fire enters the target's hex across an intact wall without an aperture
  ("behind a wall": a garden wall, or a building wall seen some other way) the wall's cover is
  added. The entry hexside is the one between the target's hex and its neighbour nearest the
  shooter; on a tie (the line runs along a hexside) the shooter gets the hexside without a wall,
  as the two-sided nudge of RULES.md §3 gives sight to the clearer side.
* Aimed automatic fire (seed 002 p. 27): after the primary target's damage roll, each further
  soldier of the hex, most exposed first (standing, crouching, prone; then by uid), gets a damage
  roll; the chain goes on while each roll is lower than the one before and stops at the first
  roll that is equal or higher, which does nothing. Candidates are every unit in the hex but the
  shooter, including prisoners (seed 002 p. 25: automatic fire hurts prisoner and guard alike)
  and both sides, but not the incapacitated (not a target in a hex fired into), not units in a
  vehicle, and, when the shooter fires into his own hex, not his own side.
* Fire at a wall (seed 002 p. 27): the target is the wall hexside of ``target_hex`` facing the
  shooter (tie: the hexside with an intact wall). A penetrated wall hits a soldier behind it on
  a d10 at or below 0 prone / 1 crouching / 2 standing, rolling most exposed first; aimed
  automatic fire rolls for every soldier, any other fire stops at the first one hit (one shot
  hits one man). A soldier hit rolls on the weapon's damage row. Prisoners behind the wall are
  at risk from automatic fire only. A destroyed wall hits everyone in the hex, incapacitated
  soldiers and prisoners included, on the ``wall.destroyed_row`` (semi-automatic rifle) row,
  then becomes a clear hexside; a building hex with ``wall.collapse_walls`` (2) destroyed walls
  collapses into rubble and everyone in it is killed.
* Sight of a wall: the shooter must see the neighbour hex just outside the wall (or stand in
  it): a building hex itself is only seen through its apertures.
"""

from __future__ import annotations

from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model.errors import AmbushError, IllegalActionError
from ambush_env.core.model.types import ACTIVE, CAPTURED, INCAP, STANCE_NAMES, STANDING
from ambush_env.core.rules.ctx import WALL_CACHE_MAX
from ambush_env.core.rules.damage import apply_damage, roll_damage
from ambush_env.core.world.tables import (
    PENETRATION_LEVELS,
    PENETRATION_SURFACES,
    Tables,
    load_tables,
)

#: Surfaces a penetration result can meet (RULES.md §11): two walls, then vehicle armour.
SURFACES: tuple[str, ...] = PENETRATION_SURFACES
_STANCE_MOD_NAMES = tuple(f"target_{s}" for s in STANCE_NAMES)


# --------------------------------------------------------------------------------------------
# Penetration (RULES.md §11, binding)
# --------------------------------------------------------------------------------------------
def penetrates(level: str, explosive: bool, surface: str, tables: Tables | None = None) -> str:
    """What a penetration result does to a surface (RULES.md §11; seed 002 p. 26; seed 000):
    the cell of ``damage.yaml: penetration``.

    Args:
        level: ``"none" | "light" | "medium" | "heavy"`` (a penetration row entry).
        explosive: the weapon fires explosive shells (bazooka, panzerfaust, tank gun).
        surface: one of :data:`SURFACES`: ``"wood_wall"``, ``"stone_wall"`` or a vehicle part's
            armour ``"unarmoured" | "light" | "medium" | "heavy"``.
        tables: the tables to read; None = the shipped ones.

    Returns:
        ``"none"`` (no effect), ``"pass"`` (passes through: hurts who is behind) or
        ``"destroyed"`` (the wall or part is destroyed). Non-explosive: light passes wooden walls
        and unarmoured surfaces; medium passes any wall and any armour but heavy; heavy destroys
        any surface. Explosive: any level destroys a wall; a vehicle part is destroyed when the
        level equals or exceeds its armour, else nothing.

    Raises:
        AmbushError: an unknown level or surface.
    """
    try:
        return (tables or load_tables()).penetration[(level, bool(explosive), surface)]
    except KeyError:
        raise AmbushError(
            f"penetrates: unknown level {level!r} or surface {surface!r}; "
            f"levels {PENETRATION_LEVELS}, surfaces {SURFACES}"
        ) from None


# --------------------------------------------------------------------------------------------
# To-hit numbers (RULES.md §8)
# --------------------------------------------------------------------------------------------
def range_band(distance: int, tables: Tables | None = None) -> int:
    """Index of the range band of a distance in hexes (0 = same hex, then 1, 2-3, 4-6, ...).

    Args:
        distance: hexes between shooter and target, ≥ 0.
        tables: the tables to read the bands from; None = the shipped ones.
    """
    return (tables or load_tables()).band(distance)


def base_to_hit(tables: Tables, weapon_class: str, distance: int) -> int | None:
    """The class's base to-hit number at ``distance`` hexes, None beyond its maximum range.

    Raises:
        AmbushError: an unknown weapon class or a negative distance.
    """
    row = tables.to_hit.get(weapon_class)
    if row is None:
        raise AmbushError(f"unknown weapon class {weapon_class!r}")
    if distance < 0:
        raise AmbushError(f"negative distance {distance}")
    return row[tables.band(distance)]


def _weapon_class_name(t: Tables, unit: Any) -> str:
    name = t.class_of.get(unit.weapon)
    if name is None:
        raise IllegalActionError(f"{unit.name} has no known weapon ({unit.weapon!r})")
    return name


def _shooter_mods(t: Tables, shooter: Any, wc: Any, snap: bool) -> list[tuple[str, int]]:
    m = t.mods
    mods: list[tuple[str, int]] = []
    if snap:
        mods.append(("snap", m.snap))
    if shooter.WS:
        mods.append(("ws", shooter.WS))
    if shooter.wounded:
        mods.append(("wounded", m.wounded))
    if shooter.captured_weapon:
        mods.append(("captured_weapon", m.captured_weapon))
    if shooter.vehicle >= 0 and not wc.vehicle_mounted:
        mods.append(("from_car", m.from_car))
    return mods


def _intact_wall(hs: Any) -> str | None:
    """The wall kind of a hexside if it carries an intact wall, else None."""
    if hs is None or hs.wall is None or hs.destroyed:
        return None
    return hs.wall


def _entry_hexside(
    board: Any, target_hex: int, from_hex: int, *, want_wall: bool
) -> tuple[int, Any]:
    """The hexside by which a line from ``from_hex`` enters ``target_hex``.

    It lies between ``target_hex`` and its neighbour nearest ``from_hex``; among equally near
    neighbours prefer one with an intact wall (``want_wall``: a wall to fire at) or one that
    gives no wall cover (no intact wall, or an aperture in it). Returns ``(neighbour,
    hexside)``; ``(-1, None)`` when the two hexes are the same.
    """
    if target_hex == from_hex:
        return -1, None
    dist = board.distance
    near: list[int] = []
    best_d = 1 << 30
    for n in board.neighbors[target_hex]:
        if n < 0:
            continue
        d = dist(n, from_hex)
        if d < best_d:
            best_d, near = d, [n]
        elif d == best_d:
            near.append(n)
    good = _is_wall if want_wall else _gives_no_cover
    n0 = near[0]
    hs0 = board.hexside(target_hex, n0)
    if len(near) == 1 or good(hs0):
        return n0, hs0
    for n in near[1:]:  # a tie (the line runs along a hexside): at most two hexes
        hs = board.hexside(target_hex, n)
        if good(hs):
            return n, hs
    return n0, hs0


def _is_wall(hs: Any) -> bool:
    return _intact_wall(hs) is not None


def _gives_no_cover(hs: Any) -> bool:
    return _intact_wall(hs) is None or hs.aperture is not None


def _target_mods(game: Any, shooter: Any, target: Any) -> list[tuple[str, int]]:
    t = game.tables
    board = game.board
    mods: list[tuple[str, int]] = []
    sm = t.stance_mod[target.stance]
    if sm:
        mods.append((_STANCE_MOD_NAMES[target.stance], sm))
    terrain = board.terrain[target.hex]
    cover = t.cover[terrain]
    vcover = t.mods.vehicle_cover
    if (
        vcover < cover
        and target.vehicle < 0
        and game.state.vehicles
        and any(v.hex == target.hex for v in game.state.vehicles)
    ):
        # beside a vehicle: in cover unless his terrain is better (seed 000 p. 31)
        mods.append(("cover_vehicle", vcover))
    else:
        mods += _cover_mods(t, terrain)
    _, hs = _entry_hexside(board, target.hex, shooter.hex, want_wall=False)
    if hs is not None and hs.aperture is None:
        kind = _intact_wall(hs)
        if kind is not None:
            mods.append(("wall_" + kind, t.wall_cover[kind]))
    return mods


def to_hit(
    game: Any, shooter: Any, target: Any, *, snap: bool
) -> tuple[int, list[tuple[str, int]]]:
    """The to-hit number of ``shooter`` firing his weapon at the soldier ``target`` (RULES.md §8).

    Base number of the weapon class for the range band, plus: snap −2; target standing +1 /
    crouching 0 / prone −2; the cover of the target's hex terrain (woods/rubble −2, brush −1,
    building −2); wall cover (stone −2 / wood −1) when the line enters his hex across an intact
    wall without an aperture; the shooter's WS; wounded shooter −1 (seed 002 p. 26); captured
    weapon −1 (seed 002 p. 27); firing from a car −2 (seed 000 p. 32).

    Args:
        game: the engine's game object.
        shooter, target: :class:`~ambush_env.core.model.state.Unit` objects (their hexes on the map).
        snap: snap fire rather than aimed fire.

    Returns:
        ``(number, modifiers)``: the final to-hit number (not clamped: below 0 never hits, 9 or
        more always does) and the ``(name, value)`` modifiers applied, zero ones left out.

    Raises:
        IllegalActionError: the shooter has no known weapon, or the target is beyond its range.
    """
    base, mods = _base_and_shooter_mods(game, shooter, target.hex, target.name + " at", snap)
    mods += _target_mods(game, shooter, target)
    if shooter.vehicle >= 0 and getattr(game, "rules", "standard") == "d100":
        mods += _d100_mods(game, shooter, target)
    return base + sum(v for _, v in mods), mods


def _d100_mods(game: Any, shooter: Any, target: Any) -> list[tuple[str, int]]:
    """Seed 003 on a shot from a vehicle at a soldier (:func:`d100_data.shot_mods`)."""
    from ambush_env.core.world.d100_data import shot_mods

    vs = game.state.vehicles
    return shot_mods(
        vs,
        shooter,
        getattr(shooter, "weapon", ""),
        vs[target.vehicle] if target.vehicle >= 0 else None,
    )


def _base_and_shooter_mods(
    game: Any, shooter: Any, target_hex: int, what: str, snap: bool
) -> tuple[int, list[tuple[str, int]]]:
    """The base number of the shooter's weapon class for the range to ``target_hex`` and his
    own modifiers (RULES.md §8), shared by fire at soldiers, walls and vehicles.

    Raises:
        IllegalActionError: no known weapon, or beyond maximum range (``what`` names the
            target in the message).
    """
    t = game.tables
    cname = _weapon_class_name(t, shooter)
    d = game.board.distance(shooter.hex, target_hex)
    base = t.to_hit[cname][t.band(d)]
    if base is None:
        raise IllegalActionError(
            f"{shooter.name} ({shooter.weapon}) cannot reach {what} "
            f"{game.board.label(target_hex)}: {d} hexes is beyond maximum range "
            f"{t.max_range[cname]}"
        )
    return base, _shooter_mods(t, shooter, t.weapon_class[shooter.weapon], snap)


def _cover_mods(t: Tables, terrain: int) -> list[tuple[str, int]]:
    """The terrain cover modifier of a target's hex, if any (RULES.md §8)."""
    cover = t.cover[terrain]
    return [("cover_" + t.terrain_name[terrain], cover)] if cover else []


def to_hit_wall(
    game: Any, shooter: Any, target_hex: int, *, snap: bool = False
) -> tuple[int, list[tuple[str, int]]]:
    """To-hit number against the wall of ``target_hex`` facing the shooter (seed 002 p. 27).

    Base number for the range to ``target_hex`` + 4 (wall as target) + the shooter's modifiers
    (snap, WS, wounded, captured weapon, from a car). No stance or cover modifiers.

    Raises:
        IllegalActionError: no known weapon, or beyond maximum range.
    """
    base, mods = _base_and_shooter_mods(game, shooter, target_hex, "the wall of", snap)
    mods.append(("wall_target", game.tables.mods.wall_target))
    return base + sum(v for _, v in mods), mods


def to_hit_vehicle(
    game: Any, shooter: Any, vehicle_hex: int, size: str, *, snap: bool
) -> tuple[int, list[tuple[str, int]]]:
    """To-hit number against a vehicle (seed 000 p. 30-31): base + size (small +1, large +2)
    + the shooter's modifiers + the terrain cover of the vehicle's hex ⚙ ("as usual"). For the vehicle rules; the Hit Chart is rolled there.

    Args:
        size: ``"small" | "large"``.

    Raises:
        IllegalActionError: no known weapon, or beyond maximum range.
        AmbushError: an unknown size.
    """
    t = game.tables
    if size not in ("small", "large"):
        raise AmbushError(f"unknown vehicle size {size!r}; 'small' or 'large'")
    base, mods = _base_and_shooter_mods(game, shooter, vehicle_hex, "the vehicle at", snap)
    mods.append(("vehicle_" + size, getattr(t.mods.vehicle_size, size)))
    # "resolve the fire as usual" (seed 000 p. 31): the cover of the car's hex counts ⚙
    mods += _cover_mods(t, game.board.terrain[vehicle_hex])
    return base + sum(v for _, v in mods), mods


# --------------------------------------------------------------------------------------------
# Legality (one source: the order generator and fire() both call these)
# --------------------------------------------------------------------------------------------
def heavy_weapons_from_cars(game: Any) -> bool:
    """Whether the mission's briefing lifts "No bazookas, grenades, satchel charges or crew
    weapons from a car unless a briefing says so" (seed 000 p. 32): the mission rule
    ``heavy_weapons_from_cars``."""
    mission = getattr(game, "mission", None)  # a bare rules host (tests) has none: not allowed
    return bool(getattr(getattr(mission, "rules", None), "heavy_weapons_from_cars", False))


def weapon_refusal(game: Any, shooter: Any, *, snap: bool) -> str | None:
    """Why ``shooter``'s weapon cannot fire now, or None (RULES.md §6, §8; seed 000 p. 32).

    Checks: active and on the map; a known weapon; not jammed; not dry; prepared if it must
    be (bazooka loaded, crew weapon set up); a crew weapon has a second active, unpanicked
    soldier of the same side in the hex and the shooter guards no prisoner (seed 002 p. 25);
    snap fire allowed; no explosive or crew weapon fired from a car (seed 000 p. 32) unless
    the briefing allows it (:func:`heavy_weapons_from_cars`; a crew weapon's second man may
    then ride in the same car). Turn, phase and awareness are the order generator's business.
    """
    if shooter.status != ACTIVE or shooter.hex < 0:
        return "not active on the map"
    t = game.tables
    wc = t.weapon_class.get(shooter.weapon)
    if wc is None:
        return f"no known weapon ({shooter.weapon!r})"
    if shooter.jammed:
        return "weapon jammed"
    if shooter.ammo == 0:
        return "weapon dry: needs a new clip"
    if wc.needs_prepare and not shooter.prepared:
        return "weapon not prepared"
    if snap and not wc.snap:
        return f"a {t.class_of[shooter.weapon]} cannot snap fire"
    if (
        shooter.vehicle >= 0
        and not wc.vehicle_mounted
        and (wc.explosive or wc.crew)
        and not heavy_weapons_from_cars(game)
    ):
        return "no bazooka, panzerfaust or crew weapon from a car (seed 000 p. 32)"
    if wc.crew:
        mates = 0
        for u in game.units_at(shooter.hex):
            if u.guard == shooter.uid and u.status == CAPTURED:
                return "a guard cannot fire a crew weapon (seed 002 p. 25)"
            if (
                u.uid != shooter.uid
                and u.side == shooter.side
                and u.status == ACTIVE
                and not u.panicked
                and (u.vehicle < 0 or u.vehicle == shooter.vehicle)
            ):
                mates += 1
        if mates == 0:
            return "a crew weapon needs a second soldier in the hex"
    return None


def fire_refusal(game: Any, shooter: Any, target: Any, *, snap: bool) -> str | None:
    """Why ``shooter`` cannot fire at the soldier ``target`` now, or None (RULES.md §8).

    :func:`weapon_refusal`, then: the target is an active enemy on the map, not in a vehicle
    (fire at the vehicle instead, seed 000 p. 31); incapacitated and captured soldiers are
    never targets (seed 002 p. 25-26); within the weapon's range; visible (RULES.md §3).
    """
    why = weapon_refusal(game, shooter, snap=snap)
    if why is not None:
        return why
    return target_refusal(game, shooter, target)


def target_refusal(game: Any, shooter: Any, target: Any) -> str | None:
    """The part of :func:`fire_refusal` after :func:`weapon_refusal` (the target's own
    checks: for an order generator that checked the weapon once for all the targets)."""
    if target.side == shooter.side:
        return f"{target.name} is a friend"
    if target.status != ACTIVE or target.hex < 0:
        return f"{target.name} is not an active soldier on the map"
    if target.vehicle >= 0:
        return f"{target.name} is in a vehicle: fire at the vehicle"
    t = game.tables
    d = game.board.distance(shooter.hex, target.hex)
    if t.to_hit[t.class_of[shooter.weapon]][t.band(d)] is None:
        return f"{target.name} is beyond maximum range ({d} hexes)"
    if not (
        game.sight.can_see(shooter.hex, target.hex, shooter.stance, target.stance)
        if shooter.vehicle < 0
        else game.can_see(shooter, target)
    ):
        return f"{target.name} is not in sight"  # from a car: seed 004's vehicle rule
    return None


def wall_refusal(game: Any, shooter: Any, target_hex: int, *, snap: bool = False) -> str | None:
    """Why ``shooter`` cannot fire at the wall of ``target_hex`` facing him, or None.

    :func:`weapon_refusal`, then: another hex, within range, an intact wall on the hexside
    facing him, and sight of the hex just outside that wall (or standing in it).
    """
    why = weapon_refusal(game, shooter, snap=snap)
    if why is not None:
        return why
    board = game.board
    if target_hex == shooter.hex:
        return "cannot fire at a wall of his own hex"
    t = game.tables
    d = board.distance(shooter.hex, target_hex)
    if t.to_hit[t.class_of[shooter.weapon]][t.band(d)] is None:
        return f"{board.label(target_hex)} is beyond maximum range ({d} hexes)"
    nb, hs = _entry_hexside(board, target_hex, shooter.hex, want_wall=True)
    if _intact_wall(hs) is None:
        return f"no intact wall of {board.label(target_hex)} faces him"
    if nb != shooter.hex and not game.sight.can_see(shooter.hex, nb, shooter.stance, STANDING):
        return f"the wall {board.hexside_label(target_hex, nb)} is not in sight"
    return None


def wall_targets(game: Any, shooter: Any) -> list[tuple[int, int]]:
    """``(offset index, hex)`` of every building hex whose wall ``shooter`` could fire at
    from where he stands, as far as the map decides (:func:`wall_refusal` less the weapon's
    own state, which the caller checks once with :func:`weapon_refusal`): cached on the
    context (``Ctx.wall_cache``, whose board is the game's) per hex, stance, weapon class and
    live map (:meth:`Board.live_key`: walls destroyed change it, a reset restores it), at
    most ``ctx.WALL_CACHE_MAX`` entries."""
    board = game.board
    t = game.tables
    cname = t.class_of[shooter.weapon]
    key = (shooter.hex, shooter.stance, cname, board.live_key())
    cache = game.ctx.wall_cache
    out = cache.get(key)
    if out is not None:
        return out
    reach = t.to_hit[cname]
    out = []
    for k, h in game.building_offsets(shooter.hex):
        if h == shooter.hex or reach[t.band(board.distance(shooter.hex, h))] is None:
            continue
        nb, hs = _entry_hexside(board, h, shooter.hex, want_wall=True)
        if _intact_wall(hs) is None:
            continue
        if nb != shooter.hex and not game.sight.can_see(shooter.hex, nb, shooter.stance, STANDING):
            continue
        out.append((k, h))
    if len(cache) >= WALL_CACHE_MAX:
        cache.clear()
    cache[key] = out
    return out


# --------------------------------------------------------------------------------------------
# The shot
# --------------------------------------------------------------------------------------------
def _most_exposed(units: list) -> list:
    """Standing, crouching, prone; ties by uid (the counter stacking order)."""
    return sorted(units, key=lambda u: (u.stance, u.uid))


def _after_shot(game: Any, shooter: Any, wc: Any, events: list[E.Event]) -> None:
    """Ammunition (RULES.md §8): one shot of the clip is used; a bazooka must be reloaded."""
    if shooter.ammo > 0:
        shooter.ammo -= 1
        if shooter.ammo == 0:
            ev = E.Dry(unit=shooter.name, weapon=shooter.weapon)
            game.emit(ev)
            events.append(ev)
    if wc.fire_clears_prepare:
        shooter.prepared = False


_Shot = E.Fire | E.FireWall | E.FireVehicle  # the shots that make the jam check and hit roll


def shot_fields(name: str, weapon: str, snap: bool, to_hit: int, mods: Any) -> dict[str, Any]:
    """The fields every shot event shares (:class:`~ambush_env.core.model.events.Fire`,
    ``FireWall``, ``FireVehicle``): the shooter's name, the weapon id, ``mode`` ``"snap"`` or
    ``"aimed"``, the to-hit number (a d10 at or below hits), its modifiers as a dict and an
    empty ``rolls_`` dict that the jam, hit and effect rolls fill (RULES.md §8)."""
    return {
        "shooter": name,
        "weapon": weapon,
        "mode": "snap" if snap else "aimed",
        "to_hit": to_hit,
        "modifiers": dict(mods),
        "rolls_": {},
    }


def _jam_and_hit(
    game: Any, shooter: Any, wc: Any, ev: _Shot, n: int, events: list[E.Event], own: bool = True
) -> bool:
    """The first two steps of a shot (RULES.md §8): the jam check, then the hit roll at or
    below ``n``. A jam or a miss is emitted (and a miss spends the round) here; True on a hit.
    ``own`` False: a vehicle's built-in weapon, whose jam stays on its mount and which never
    runs dry (seed 000 p. 31-33): the shooter's jam flag and ammunition are not touched."""
    if _jammed(game, shooter, wc, ev, own):
        game.emit(ev)
        return False
    hit = game.dice.d10("hit")
    ev.rolls_["hit"] = hit
    if hit > n:
        ev.result = "miss"
        game.emit(ev)
        if own:
            _after_shot(game, shooter, wc, events)
        return False
    return True


def _jammed(game: Any, shooter: Any, wc: Any, ev: _Shot, own: bool = True) -> bool:
    if not wc.jams:
        return False
    r = game.dice.d10("jam")
    ev.rolls_["jam"] = r
    if r >= game.tables.jam_on:
        if own:
            shooter.jammed = True
        ev.result = "jammed"
        return True
    return False


def fire(game: Any, shooter_uid: int, target_uid: int, *, snap: bool) -> list[E.Event]:
    """Fire ``shooter``'s weapon at the soldier ``target`` (RULES.md §8; seed 002 p. 26-27).

    Sequence: jam check → hit roll → damage roll on the class's row → (aimed automatic fire
    only) the chain through the rest of the hex → ammunition.

    Args:
        game: the engine's game object.
        shooter_uid, target_uid: indices in ``game.state.units``.
        snap: snap fire (−2) rather than aimed fire.

    Returns:
        The events emitted (:mod:`~ambush_env.core.model.events`), in order, shown in their dict
        form: ``{"type": "fire", "shooter": "US3", "target": "G1",
        "weapon": "m1_garand", "mode": "aimed" | "snap", "hex": "L7", "to_hit": 6,
        "modifiers": {"target_standing": 1, ...}, "rolls": {"jam": 3, "hit": 4, "damage": 7},
        "result": "jammed" | "miss" | <damage result>}``, the damage events of
        :func:`~ambush_env.core.rules.damage.apply_damage`, ``{"type": "fire_chain", "shooter",
        "target", "rolls": {"damage": r}, "result": <damage result> | "stopped"}`` for each
        soldier the chain reaches, and ``{"type": "dry", ...}`` when the clip runs out.

    Raises:
        IllegalActionError: :func:`fire_refusal` gives a reason.
    """
    units = game.state.units
    shooter = units[shooter_uid]
    target = units[target_uid]
    why = fire_refusal(game, shooter, target, snap=snap)
    if why is not None:
        raise IllegalActionError(
            f"{shooter.name} cannot fire {'snap' if snap else 'aimed'} at {target.name}: {why}"
        )
    t = game.tables
    wc = t.weapon_class[shooter.weapon]
    n, mods = to_hit(game, shooter, target, snap=snap)
    ev = E.Fire(
        target=target.name,
        hex=game.board.label(target.hex),
        **shot_fields(shooter.name, shooter.weapon, snap, n, mods),
    )
    events: list[E.Event] = [ev]
    if not _jam_and_hit(game, shooter, wc, ev, n, events):
        return events
    dice = game.dice
    row = t.soldier_row[wc.damage]
    dmg = dice.d10("damage")
    ev.rolls_["damage"] = dmg
    ev.result = row[dmg]
    game.emit(ev)
    events += apply_damage(game, target_uid, row[dmg])
    if wc.automatic and not snap:
        _chain(game, shooter, target, row, dmg, events)
    _after_shot(game, shooter, wc, events)
    return events


def _chain(
    game: Any, shooter: Any, target: Any, row: tuple, prev: int, events: list[E.Event]
) -> None:
    """Aimed automatic fire through a multi-target hex (seed 002 p. 27)."""
    same_hex = target.hex == shooter.hex
    cands = [
        u
        for u in game.units_at(target.hex)
        if u.uid != target.uid
        and u.uid != shooter.uid
        and (u.status == ACTIVE or u.status == CAPTURED)
        and u.vehicle < 0
        and not (same_hex and u.side == shooter.side)
    ]
    if not cands:
        return
    dice = game.dice
    for u in _most_exposed(cands):
        r = dice.d10("chain damage")
        ev = E.FireChain(shooter=shooter.name, target=u.name, rolls_={"damage": r})
        if r >= prev:
            ev.result = "stopped"
            game.emit(ev)
            events.append(ev)
            return
        ev.result = row[r]
        game.emit(ev)
        events.append(ev)
        events += apply_damage(game, u.uid, row[r])
        prev = r


def fire_at_wall(
    game: Any, shooter_uid: int, target_hex: int, *, snap: bool = False
) -> list[E.Event]:
    """Fire at the wall of ``target_hex`` facing the shooter (seed 002 p. 26-27; RULES.md §11).

    Sequence: jam check → hit roll at +4 (:func:`to_hit_wall`) → penetration roll on the class's
    penetration row → :func:`penetrates` against ``wood_wall`` / ``stone_wall``:

    * ``"pass"``: soldiers behind the wall (active ones; prisoners too for automatic fire), most
      exposed first, are each hit on a d10 ≤ ``wall.behind_hit`` (0 prone / 1 crouching /
      2 standing) and then roll on the weapon's damage row; aimed automatic fire rolls for every
      soldier, other fire stops at the first one hit.
    * ``"destroyed"``: everyone in the hex (incapacitated and prisoners too) rolls on the
      ``wall.destroyed_row`` (semi-automatic rifle) row; the hexside becomes clear
      (``board.destroy_wall``); a building hex with ``wall.collapse_walls`` destroyed walls
      collapses into rubble (``board.collapse``) and everyone in it is killed.

    → ammunition.

    Args:
        game: the engine's game object.
        shooter_uid: index in ``game.state.units``.
        target_hex: board index of the hex whose wall is fired at.
        snap: snap fire (−2).

    Returns:
        The events emitted (:mod:`~ambush_env.core.model.events`; dict forms): ``{"type":
        "fire_wall", "shooter", "target": "D5/D6" (the
        hexside label, RULES.md §3), "hex", "weapon", "mode", "wall": "stone" | "wood", "to_hit", "modifiers",
        "rolls": {"jam", "hit", "penetration"}, "level", "result": "jammed" | "miss" | "none" |
        "pass" | "destroyed"}``, then ``behind_wall`` events (``{"unit", "to_hit", "rolls":
        {"hit", "damage"}, "result"}``), ``wall_destroyed``, ``damage_roll``, ``damage``,
        ``collapse`` and ``dry`` events as they happen.

    Raises:
        IllegalActionError: :func:`wall_refusal` gives a reason.
    """
    shooter = game.state.units[shooter_uid]
    why = wall_refusal(game, shooter, target_hex, snap=snap)
    board = game.board
    if why is not None:
        raise IllegalActionError(
            f"{shooter.name} cannot fire at the wall of {board.label(target_hex)}: {why}"
        )
    t = game.tables
    wc = t.weapon_class[shooter.weapon]
    nb, hs = _entry_hexside(board, target_hex, shooter.hex, want_wall=True)
    kind = _intact_wall(hs)
    if kind is None:  # wall_refusal has found the intact wall this line enters by
        raise IllegalActionError(
            f"{shooter.name} cannot fire at the wall of {board.label(target_hex)}: no intact wall"
        )
    n, mods = to_hit_wall(game, shooter, target_hex, snap=snap)
    hexside = board.hexside_label(target_hex, nb)
    ev = E.FireWall(
        target=hexside,
        hex=board.label(target_hex),
        wall=kind,
        **shot_fields(shooter.name, shooter.weapon, snap, n, mods),
    )
    events: list[E.Event] = [ev]
    if not _jam_and_hit(game, shooter, wc, ev, n, events):
        return events
    dice = game.dice
    p = dice.d10("penetration")
    ev.rolls_["penetration"] = p
    level = t.penetration_row[wc.damage][p]
    result = t.penetration[(level, wc.explosive, kind + "_wall")]
    ev.level = level
    ev.result = result
    game.emit(ev)
    if result == "pass":
        _behind_wall(
            game, shooter, wc, target_hex, aimed_auto=wc.automatic and not snap, events=events
        )
    elif result == "destroyed":
        _destroy_wall(game, target_hex, nb, hexside, events)
    _after_shot(game, shooter, wc, events)
    return events


def _behind_wall(
    game: Any, shooter: Any, wc: Any, target_hex: int, *, aimed_auto: bool, events: list[E.Event]
) -> None:
    t = game.tables
    dice = game.dice
    row = t.soldier_row[wc.damage]
    cands = [
        u
        for u in game.units_at(target_hex)
        if u.vehicle < 0 and (u.status == ACTIVE or (wc.automatic and u.status == CAPTURED))
    ]
    for u in _most_exposed(cands):
        need = t.behind_hit[u.stance]
        r = dice.d10("behind wall")
        ev = E.BehindWall(shooter=shooter.name, unit=u.name, to_hit=need, rolls_={"hit": r})
        if r > need:
            ev.result = "miss"
            game.emit(ev)
            events.append(ev)
            continue
        d = dice.d10("damage")
        ev.rolls_["damage"] = d
        ev.result = row[d]
        game.emit(ev)
        events.append(ev)
        events += apply_damage(game, u.uid, row[d])
        if not aimed_auto:
            return


def _destroy_wall(game: Any, target_hex: int, nb: int, hexside: str, events: list[E.Event]) -> None:
    t = game.tables
    board = game.board
    ev = E.WallDestroyed(hexside=hexside)
    game.emit(ev)
    events.append(ev)
    row = t.damage.wall.destroyed_row
    for u in _most_exposed(
        [
            u
            for u in game.units_at(target_hex)
            if u.status in (ACTIVE, CAPTURED, INCAP) and u.vehicle < 0
        ]
    ):
        events += roll_damage(game, u.uid, row, why="destroyed wall")[2]
    board.destroy_wall(target_hex, nb)
    if t.terrain_name[board.terrain[target_hex]] != "building":
        return
    destroyed = 0
    for n in board.neighbors[target_hex]:
        if n is None or n < 0:
            continue
        hs = board.hexside(target_hex, n)
        if hs is not None and hs.destroyed:
            destroyed += 1
    if destroyed < t.damage.wall.collapse_walls:
        return
    fall = E.Collapse(hex=board.label(target_hex))
    game.emit(fall)
    events.append(fall)
    board.collapse(target_hex)
    for u in game.units_at(target_hex):
        if u.status in (ACTIVE, CAPTURED, INCAP):
            events += apply_damage(game, u.uid, "kill")
