"""Owns the order generator: every order a unit of either side may give now (docs/STYLE.md habit 2).

:func:`legal_orders` serves US soldiers, German soldiers, drivers and tanks; :meth:`Game.step` accepts exactly its list, the env's action mask is built
from it, and the German card interpreter chooses its orders from it. The layout is
side-relative (docs/API.md): a contact slot is an enemy of the acting unit's side
(:meth:`ambush_env.core.rules.ctx.Match.enemy_slots`), a unit slot one of his own side.

Which orders exist when (RULES.md §5-§6, seed 002):

* Operations (each is the unit's whole Operations action for the pulse): wait
  (``END_TURN``), a stance change, move one hex, exit the map from an exit hex, clear a jam,
  reload a dry weapon (``PREPARE``), pick up, drop, drag a fallen comrade, move a prisoner.
  Reloading, dropping and dragging are not in §5's list; they are allowed here ⚙ as the
  natural out-of-combat counterparts of clearing a jam and picking up. A ``demolish``
  mission adds setting a charge on its target (``PREPARE`` a satchel, then ``SATCHEL`` at
  the target next to him; ⚙ :func:`_demolition_orders`).
* Rounds, choosing an action: ``END_TURN`` (hold), one free stance change (not wounded;
  wounded soldiers pay 1 MP, seed 002 p. 26), start a move (or a charge into a known
  German's hex within half MV), aimed fire, the first of two snap fires, fire at a wall,
  grenade (at a hex, or into a vehicle: ``GRENADE_INTO``), satchel, assault, command orders,
  exit, clear jam, prepare, pick up, drop, drag, move a prisoner (never into a known
  minefield, seed 002 p. 25). Fire at a vehicle (``FIRE_AIMED_VEHICLE`` / ``FIRE_SNAP_VEHICLE``,
  arg ``vehicle_slot * 3 + aspect``, seed 000 p. 30-31) goes wherever fire at a contact does
  (aimed, the snap shots, the snap after a move, from a car), both sides: the aspect is the
  one the facing diagram gives, or any of the three from the vehicle's own hex.
* Changing guard (``HAND_OVER``, seed 002 p. 25): free, in either phase while the guard
  chooses his action; the turn goes on.
* Rounds, moving: another hex while MPs last (prone: one hex per move action), the free
  stance change, a snap fire if at most half MV was spent, a charge, ``END_MOVE``, exit.
* Rounds, after a charge: a Kill or Capture assault on a German in the hex.
* Rounds, moving a prisoner: another hex within the prisoner's 2 MPs, or ``END_MOVE``.
* Rounds, after a first snap fire: a second snap fire or ``END_TURN``.
* A sighting's free snap fire (either phase, ``"free_snap"`` mode, RULES.md §7): ``FIRE_SNAP``
  at the sighted German's contact slot takes it, ``END_TURN`` declines it; nothing else.
* A live German grenade in the soldier's hex (either phase, ``"throw_out"`` mode, RULES.md
  §9): ``THROW_OUT`` tries the PC check, ``END_TURN`` leaves it; nothing else.
* Tanks (module ``tanks``, seed 000 p. 30-33): a tank's own unit gets
  :func:`~ambush_env.core.vehicles.tanks.tank_orders` (its Crew Point tasks) and no command orders
  reach it.
* Vehicles (module ``vehicles``; seed 000 p. 30-33, seed 002 p. 26-27): on foot, get into a
  car in the hex (``BOARD_VEHICLE``: free once per Operations action ⚙, 1 MP in Rounds) and
  load a fallen comrade into it (``LOAD``, one action); aboard, only :func:`_riding_orders`
  (get out, take the wheel, drive, fire from the car, command, clear a jam, reload, exit
  with the car). A drive (``"drive"`` mode) offers ``DRIVE`` / ``DRIVE_BACK`` while MPs
  last (Rounds; an Operations drive is one hex, RULES.md §5), ``END_DRIVE`` (not while
  passing through a hex holding two other vehicles, seed 000 p. 30) and the exit.

Unaware soldiers (Round 1, failed Round-2 checks) may move and change stance but not fire,
throw or assault (RULES.md §5); they may still command. Panicked soldiers never act (their
marker sits on Panic). The mask shows only what the US could know: hidden Germans neither
bar hexes nor appear as targets.

Every rule here binds both sides, except where the rules say otherwise ⚙: only the US leaves
by the mission's exit hexes, boards or loads vehicles (German drivers come with the German
vehicles), makes capture assaults and moves prisoners, and is barred from harming prisoners
(seed 002 p. 25). Only a
German may ``ALERT`` (free, once a turn, within the radius his card names) or
``SURRENDER`` (outnumbered, with a US soldier in his hex; RULES.md §10, §14). Only a German
is refused a shot at a closed tank his weapon cannot penetrate from the aspect it hits (seed
000 p. 31, :func:`~ambush_env.core.vehicles.vehicle_fire.holds_fire`), whether the cards or an agent
play him: soldiers, riders and tanks alike.
"""

from __future__ import annotations

from collections.abc import Callable

from ambush_env.core.combat import d100_attacks
from ambush_env.core.combat.grenades import can_throw, into_refusal, rider_may_throw, throw_range
from ambush_env.core.combat.shooting import can_fire_at, prepare_kind
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, GER, US, ARSpace, Phase, Stance, Status
from ambush_env.core.rules import carry
from ambush_env.core.rules.assault import can_assault
from ambush_env.core.rules.ctx import THROW_CACHE_MAX, Match
from ambush_env.core.rules.fire import target_refusal, wall_targets, weapon_refusal
from ambush_env.core.rules.mines import known_minefield
from ambush_env.core.rules.movement import costs_for
from ambush_env.core.rules.prisoners import (
    can_move_prisoner,
    hand_over_targets,
    outnumbered,
    prisoner_hexes,
)
from ambush_env.core.rules.scoring import charge_counts
from ambush_env.core.vehicles import tanks
from ambush_env.core.vehicles.vehicle_fire import fire_aspects, vehicle_target_refusal
from ambush_env.core.vehicles.vehicles import (
    board_refusal,
    drive_budget,
    drive_orders,
    in_full_hex,
    leave_refusal,
    load_refusal,
    mpa,
)

B = O.ORDER_BASE
_END_TURN = B[K.END_TURN]
_STANCE = B[K.STANCE]
_MOVE = B[K.MOVE]
_END_MOVE = B[K.END_MOVE]
_AIMED = B[K.FIRE_AIMED]
_SNAP = B[K.FIRE_SNAP]
_AIMED_V = B[K.FIRE_AIMED_VEHICLE]
_SNAP_V = B[K.FIRE_SNAP_VEHICLE]
_N_ASPECTS = len(O.ASPECTS)
_EXIT = B[K.EXIT_MAP]
_JAM = B[K.CLEAR_JAM]
_PREP = B[K.PREPARE]
_GIVE = B[K.GIVE_TURN]
_AWARE = B[K.MAKE_AWARE]
_GRENADE = B[K.GRENADE]
_INTO = B[K.GRENADE_INTO]
_SATCHEL = B[K.SATCHEL]
_WALL = B[K.FIRE_WALL]
_KILL = B[K.ASSAULT_KILL]
_CAPTURE = B[K.ASSAULT_CAPTURE]
_PICK = B[K.PICK_UP]
_DROP = B[K.DROP]
_DRAG = B[K.DRAG]
_PRISONER = B[K.MOVE_PRISONER]
_BOARD = B[K.BOARD_VEHICLE]
_LEAVE = B[K.LEAVE_VEHICLE]
_LOAD = B[K.LOAD]
_END_DRIVE = B[K.END_DRIVE]
_HAND_OVER = B[K.HAND_OVER]
_ALERT = B[K.ALERT]
_SURRENDER = B[K.SURRENDER]
# number of HEX_OFFSETS within radius r (they are sorted by distance)
_WITHIN = [1 + 3 * r * (r + 1) for r in range(O.OFFSET_RADIUS + 1)]


def _enemy_hexes(m: Match, side: int) -> set[int]:
    """Hexes holding an active enemy known to ``side`` (see ``movement.enemy_in``)."""
    units = m.state.units
    return {units[i].hex for i in m.known_enemies(side)}


def _moves(m: Match, u: Unit, mp_left: int | None, charge_mp: int = -1) -> list[int]:
    """One-hex moves; into a hex with a known active German only as a charge (RULES.md §6:
    at most ``charge_mp`` MPs spent in all, the move included)."""
    out = []
    row = costs_for(m, u.stance)
    nbrs = m.board.neighbors[u.hex]
    enemies = _enemy_hexes(m, u.side)
    base = u.hex * 6
    spent = m.state.turn.mp_spent
    can_charge = charge_mp >= 0 and u.aware and not u.panicked
    for d in range(6):
        c = row[base + d]
        if c < 0 or (mp_left is not None and c > mp_left):
            continue
        if nbrs[d] in enemies and (not can_charge or spent + c > charge_mp):
            continue
        out.append(_MOVE + d)
    return out


def _stance_orders(u: Unit, free_used: bool, mp_left: int, wounded_mp: int) -> list[int]:
    """Stance changes in Rounds (RULES.md §6): one free change a turn; a wounded soldier pays
    ``wounded_mp`` MPs for each instead (``rules.yaml: movement.wounded_stance_mp``, seed 002
    p. 26)."""
    if (u.wounded and mp_left < wounded_mp) or (not u.wounded and free_used):
        return []
    return [_STANCE + s for s in range(3) if s != u.stance]


def charge_allowance(m: Match, u: Unit) -> int:
    """MPs a charge assault may spend (RULES.md §6: up to half MV)."""
    return int(u.MV * m.rd.assault.charge_fraction)


def _throws(m: Match, u: Unit, kind: str, base: int) -> list[int]:
    if ("grenade" if kind == "grenade" else "satchel") not in u.equipment:
        return []
    if kind == "satchel" and not u.satchel_ready:
        return []
    r = throw_range(m, u, kind)
    if r is None:
        return []
    # which hexes can be reached depends only on the map: cache per hex, range and live map
    # (on the context, whose board is m.board; at most THROW_CACHE_MAX entries)
    key = (u.hex, r, kind, m.board.live_key())
    cache = m.ctx.throw_cache
    out = cache.get(key)
    if out is None:
        out = []
        for k in range(1, _WITHIN[min(r, O.OFFSET_RADIUS)]):
            t = m.offset_target(u.hex, k)
            if t >= 0 and can_throw(m, u, t, kind):
                out.append(base + k)
        if len(cache) >= THROW_CACHE_MAX:
            cache.clear()
        cache[key] = out
    pris = prisoner_hexes(m) if u.side == US else ()
    if pris:  # prisoners may never be harmed (seed 002 p. 25)
        out = [a for a in out if m.offset_target(u.hex, a - base) not in pris]
    return out


def _demolition_orders(m: Match, u: Unit) -> list[int]:
    """⚙ Setting a demolition charge in Operations (mission rule for ``demolish``
    objectives; RULES.md §5 lists no throw among the Operations actions, so without it a
    target whose garrison is dead could never be destroyed): a US soldier on foot who
    carries a satchel charge and stands next to a hex where a charge counts against the
    objective (an objective hex, or beside one with ``reach: 1``;
    :func:`~ambush_env.core.rules.scoring.charge_counts`) may, as his Operations action, prepare
    it (``PREPARE``, standing; it is a satchel he prepares, nothing else) and then throw it
    there (``SATCHEL`` at that neighbour only). The throw resolves as in Rounds (PC check,
    scatter, blast, the wall; module ``grenades``) and counts as it lands; as fire it begins
    Rounds while a German on the map is active (``grenades._alarm``). Not at a prisoner's
    hex (seed 002 p. 25)."""
    if u.side != US or "satchel" not in u.equipment:
        return []
    ready = u.satchel_ready
    if not ready and prepare_kind(m, u) != "satchel":
        return []
    pris = prisoner_hexes(m)
    out: list[int] = []
    for k in range(1, _WITHIN[1]):  # the six neighbours (HEX_OFFSETS 1..6)
        h = m.offset_target(u.hex, k)
        if (
            h >= 0
            and h not in pris
            and charge_counts(m, h)
            and can_throw(m, u, h, "satchel", prepared=True)
        ):
            if not ready:
                return [_PREP]
            out.append(_SATCHEL + k)
    return out


def _throws_into(m: Match, u: Unit) -> list[int]:
    """GRENADE_INTO each vehicle a grenade may be thrown into (module ``grenades``; seed 000
    p. 32-33: closed tanks are immune, so never offered); the US never throws one at a
    vehicle in a hex holding a prisoner (a failed throw scatters; seed 002 p. 25)."""
    vs = m.state.vehicles
    if not vs or "grenade" not in u.equipment:
        return []
    pris = prisoner_hexes(m) if u.side == US else ()
    return [
        _INTO + v.vid
        for v in vs
        if v.vid < O.V_SLOTS and v.hex not in pris and into_refusal(m, u, v) is None
    ]


def _wall_shots(m: Match, u: Unit) -> list[int]:
    if u.jammed or u.ammo == 0:
        return []
    if weapon_refusal(m, u, snap=False) is not None:
        return []
    pris = prisoner_hexes(m) if u.side == US else ()
    return [_WALL + k for k, t in wall_targets(m, u) if t not in pris]


def _assaults(m: Match, u: Unit) -> list[int]:
    """Kill assaults on enemies in his hex; capture assaults for the US only ⚙ (the capture
    rules of seed 002 p. 25 are the US squad taking Germans prisoner)."""
    out = []
    units = m.state.units
    capture = u.side == US
    for k, gid in enumerate(m.enemy_slots(u.side)):
        g = units[gid]
        if g.hex == u.hex and can_assault(m, u, g):
            out.append(_KILL + k)
            if capture:
                out.append(_CAPTURE + k)
    return out


def _fire_orders(
    m: Match, u: Unit, aimed: bool, snap: bool, aimed_v: bool, snap_v: bool
) -> list[int]:
    """Fire at contacts (aimed and snap, as asked: :func:`_fire_pair`), then at vehicles
    (``aimed_v``, ``snap_v``: :func:`_vehicle_fire_pair`). None when ``u`` is panicked or
    unaware (can_fire_at and vehicle_fire_refusal refuse every target then); each mode as his
    weapon allows it (:func:`~ambush_env.core.combat.shooting.weapon_refusal`, asked once for
    both kinds of target)."""
    if u.panicked or not u.aware:
        return []
    if aimed or aimed_v:
        ok = weapon_refusal(m, u, snap=False) is None
        aimed, aimed_v = aimed and ok, aimed_v and ok
    if snap or snap_v:
        ok = weapon_refusal(m, u, snap=True) is None
        snap, snap_v = snap and ok, snap_v and ok
    return _fire_pair(m, u, aimed, snap) + _vehicle_fire_pair(m, u, aimed_v, snap_v)


def _fire_pair(m: Match, u: Unit, aimed: bool, snap: bool) -> list[int]:
    """``FIRE_AIMED`` at contacts (when ``aimed``), then ``FIRE_SNAP`` (when ``snap``), the
    modes :func:`_fire_orders` found the weapon allows: what
    :func:`~ambush_env.core.combat.shooting.can_fire_at` allows, each contact's target checks (range,
    sight) made once for both; the US never fires automatic weapons into a hex holding a
    prisoner (seed 002 p. 25)."""
    if not (aimed or snap):
        return []
    out_a: list[int] = []
    out_s: list[int] = []
    units = m.state.units
    pris = (
        prisoner_hexes(m)
        if u.side == US and u.weapon and m.weapon_class(u.weapon).automatic
        else ()
    )
    for k, gid in enumerate(m.enemy_slots(u.side)):
        t = units[gid]
        if t.hex in pris:
            continue
        if t.vehicle >= 0:  # in a vehicle (a tank's unit, a rider): can_fire_at's own rules
            if aimed and can_fire_at(m, u, t, snap=False):
                out_a.append(_AIMED + k)
            if snap and can_fire_at(m, u, t, snap=True):
                out_s.append(_SNAP + k)
        elif t.status == ACTIVE and t.hex >= 0 and target_refusal(m, u, t) is None:
            if aimed:  # = can_fire_at: the weapon was checked above
                out_a.append(_AIMED + k)
            if snap:
                out_s.append(_SNAP + k)
    out_a.extend(out_s)
    return out_a


def _vehicle_fire_pair(m: Match, u: Unit, aimed: bool, snap: bool) -> list[int]:
    """``FIRE_AIMED_VEHICLE`` (when ``aimed``), then ``FIRE_SNAP_VEHICLE`` (when ``snap``,
    seed 000 p. 30-31): for each vehicle slot
    :func:`~ambush_env.core.combat.shooting.can_fire_at_vehicle` allows, the one aspect the facing
    diagram gives, or all three from the vehicle's own hex; never, for a German, at a closed
    tank his weapon cannot penetrate from that aspect (seed 000 p. 31,
    :func:`~ambush_env.core.vehicles.vehicle_fire.fire_aspects`); each vehicle's target part of
    ``vehicle_fire_refusal`` asked once for both."""
    vs = m.state.vehicles
    if not vs or not (aimed or snap):
        return []
    out_a: list[int] = []
    out_s: list[int] = []
    wid = u.weapon
    for v in vs[: O.V_SLOTS]:
        if vehicle_target_refusal(m, u, v, wid) is None:
            k = v.vid * _N_ASPECTS
            asp = fire_aspects(m, u, v, wid)
            if aimed:
                out_a.extend(_AIMED_V + k + a for a in asp)
            if snap:
                out_s.extend(_SNAP_V + k + a for a in asp)
    return out_a + out_s if out_s else out_a


def _fire_both(m: Match, u: Unit, snap: bool) -> list[int]:
    """Fire of one mode at contacts, then at vehicles."""
    return _fire_orders(m, u, not snap, snap, not snap, snap)


def _carry_orders(m: Match, u: Unit) -> list[int]:
    """PICK_UP, DROP, DRAG and MOVE_PRISONER (RULES.md §4, §6; seed 002 p. 25-27)."""
    out = [_PICK + k for k in carry.pickable_slots(m, u, O.ITEM_SLOTS)]
    out.extend(_DROP + k for k in range(min(O.ITEM_SLOTS, len(u.equipment))))
    row = costs_for(m, u.stance)
    enemies = _enemy_hexes(m, u.side)
    nbrs = m.board.neighbors[u.hex]
    if carry.draggable(m, u) is not None:
        for d in range(6):
            c = row[u.hex * 6 + d]
            if 0 <= c <= u.MV and nbrs[d] not in enemies:
                out.append(_DRAG + d)
    if can_move_prisoner(m, u):
        out.extend(_prisoner_moves(m, u, m.rd.prisoners.mv))  # seed 002 p. 25
        out.extend(_HAND_OVER + o.slot for o in hand_over_targets(m, u))
    return out


def _prisoner_moves(m: Match, u: Unit, mp_left: int) -> list[int]:
    """Guard and prisoners one hex on; never into a known minefield (seed 002 p. 25:
    prisoners may never be "marched into mines")."""
    row = costs_for(m, Stance.STANDING)
    enemies = _enemy_hexes(m, u.side)
    nbrs = m.board.neighbors[u.hex]
    mined = m.state.known_mines
    return [
        _PRISONER + d
        for d in range(6)
        if 0 <= row[u.hex * 6 + d] <= mp_left
        and nbrs[d] not in enemies
        and not (mined and known_minefield(m, nbrs[d]))
    ]


def _reload_possible(m: Match, u: Unit) -> bool:
    return prepare_kind(m, u) == "reload"


def _prepare_possible(m: Match, u: Unit) -> bool:
    return prepare_kind(m, u) is not None


def _board_orders(m: Match, u: Unit, may: bool) -> list[int]:
    """BOARD_VEHICLE (get in, or move to the driver's seat) for each vehicle in ``u``'s hex."""
    if not may or not m.state.vehicles or u.side != US:
        return []
    return [
        _BOARD + v.vid
        for v in m.state.vehicles
        if v.hex == u.hex and board_refusal(m, u, v) is None
    ]


def _load_orders(m: Match, u: Unit) -> list[int]:
    if not m.state.vehicles or u.vehicle >= 0 or u.side != US:
        return []
    return [
        _LOAD + v.vid for v in m.state.vehicles if v.hex == u.hex and load_refusal(m, u, v) is None
    ]


def _drive_orders(m: Match, u: Unit, mp_left: int | None) -> list[int]:
    """DRIVE and DRIVE_BACK of the driver ``u`` (:func:`~ambush_env.core.vehicles.vehicles.drive_orders`)."""
    return drive_orders(m, u, m.state.vehicles[u.vehicle], mp_left)


def _vehicle_exit(m: Match, u: Unit) -> bool:
    """The driver of a vehicle in an exit hex may drive it off the map with everyone aboard."""
    v = m.state.vehicles[u.vehicle]
    return (
        u.side == US
        and v.driver == u.uid
        and not v.disabled
        and not v.immobilised
        and v.hex in m.exit_hexes
    )


def _riding_orders(m: Match, u: Unit) -> list[int]:
    """Orders of a soldier in a car (seed 000 p. 31-32; module ``vehicles``).

    Operations: wait, one free get-out or seat change per action ⚙, drive (the driver: one
    hex, RULES.md §5), clear a jam, reload, exit with the car. Rounds, choosing: hold,
    get out or change seats (1 MP), fire his personal weapon (passengers aimed or snap, the
    driver one snap, all at −2; no grenades, satchels, bazookas or crew weapons unless the
    briefing allows heavy weapons from cars, seed 000 p. 32: then a passenger may also
    prepare, throw grenades and satchel charges, throw a grenade into a vehicle and fire at
    walls), command, clear a jam, reload, drive (the driver's turn), exit with the car. Never
    a stance change (stance is ignored inside), a step on foot, a pick-up, a drag or an
    assault.
    """
    st = m.state
    t = st.turn
    v = st.vehicles[u.vehicle]
    out: list[int] = []
    mode = t.mode
    ops = st.phase == Phase.OPERATIONS
    if mode == "drive":
        if not in_full_hex(m, v):  # passing through: two may end there (seed 000 p. 30)
            out.append(_END_DRIVE)
        out.extend(_drive_orders(m, u, drive_budget(m)))
        if _vehicle_exit(m, u):
            out.append(_EXIT)
        return out
    if mode == "snap2":
        out.append(_END_TURN)
        out.extend(_fire_both(m, u, snap=True))
        return out
    seat_mp = m.rd.movement.seat_change_mp  # seed 000 p. 31
    seat_ok = (not t.boarded) if ops else ((u.MV if mode == "" else t.mp_left) >= seat_mp)
    if mode == "move":  # got in or changed seats in a Rounds move action
        out.append(_END_MOVE)
    else:
        out.append(_END_TURN)
    if seat_ok and leave_refusal(m, u) is None:
        out.append(_LEAVE)
    out.extend(_board_orders(m, u, seat_ok))
    if mode == "move":
        return out
    if v.driver == u.uid and t.hexes_moved == 0:
        out.extend(_drive_orders(m, u, None if ops else _drive_limit(v)))
    if _vehicle_exit(m, u):
        out.append(_EXIT)
    if u.jammed:
        out.append(_JAM)
    heavy = rider_may_throw(m, u)  # a passenger, the briefing allowing heavy weapons
    if _prepare_possible(m, u) if (heavy and not ops) else _reload_possible(m, u):
        out.append(_PREP)  # prepare a bazooka or satchel too, heavy weapons allowed (Rounds)
    if ops:
        return out
    if u.aware and not u.panicked:
        if v.driver != u.uid:
            out.extend(_fire_both(m, u, snap=False))
        out.extend(_fire_both(m, u, snap=True))
        if heavy:
            out.extend(_wall_shots(m, u))
            out.extend(_throws(m, u, "grenade", _GRENADE))
            out.extend(_throws(m, u, "satchel", _SATCHEL))
            out.extend(_throws_into(m, u))
    if not u.panicked:
        out.extend(_command_orders(m, u))
    return out


def _drive_limit(v: Vehicle) -> int:
    return mpa(v)[1]


def _exit(m: Match, u: Unit) -> bool:
    """A US soldier in one of the mission's exit hexes may leave the map (RULES.md §15)."""
    return u.side == US and u.hex in m.exit_hexes


def _exit_clear_prepare(
    m: Match,
    u: Unit,
    every: bool,
    want: frozenset[int],
    preparable: Callable[[Match, Unit], bool],
    out: list[int],
) -> None:
    """Add EXIT_MAP, CLEAR_JAM and PREPARE to ``out``, asked alike in Operations and in a
    Round; what may be prepared is the phase's (``preparable``: a reload in Operations, RULES.md
    §6)."""
    if (every or _K_EXIT_MAP in want) and _exit(m, u):
        out.append(_EXIT)
    if u.jammed:
        out.append(_JAM)
    if (every or _K_PREPARE in want) and preparable(m, u):
        out.append(_PREP)


def _german_orders(m: Match, u: Unit) -> list[int]:
    """ALERT (free, once a turn ⚙, radius 0..6 hexes as his card names it) and SURRENDER
    (outnumbered, a US soldier in his hex to take him; RULES.md §10, §14)."""
    if u.side != GER or u.panicked:
        return []
    out: list[int] = []
    if not m.state.turn.alerted:
        out.extend(_ALERT + r for r in range(O.ORDER_COUNT[K.ALERT]))
    if outnumbered(m, u) and any(
        o.side == US and o.status == Status.ACTIVE and o.hex == u.hex for o in m.state.units
    ):
        out.append(_SURRENDER)
    return out


def legal_orders(m: Match, u: Unit, kinds: frozenset[int] | None = None) -> list[int]:
    """Every order integer legal for the acting unit ``u`` (either side) now.

    See the module docstring for which orders exist when. The list never is empty for an
    acting unit: ``END_TURN``, ``END_MOVE`` or ``END_DRIVE`` is always among them, except
    after a charge, when the assault (or, the defender gone, ``END_MOVE``) must follow, and
    while a drive passes through a full hex, when a drive step on is always legal
    (:func:`~ambush_env.core.vehicles.vehicles.drive_targets`).

    Args:
        kinds: only the orders of these :class:`~ambush_env.core.model.orders.OrderKind` values
            (a caller that can use no others, like the card interpreter, saves the work);
            the result is exactly the full list's orders of those kinds.
    """
    out = _legal(m, u, kinds)
    if kinds is not None:
        kind_of = O.ORDER_KIND
        out = [a for a in out if kind_of[a] in kinds]
    return out


_CARRY_KINDS = frozenset(
    {K.PICK_UP, K.DROP, K.DRAG, K.MOVE_PRISONER, K.BOARD_VEHICLE, K.LOAD, K.HAND_OVER}
)
_SNAP_KINDS = frozenset({K.FIRE_SNAP, K.FIRE_SNAP_VEHICLE})


# the kinds _legal tests, as plain names (an enum attribute costs a lookup each time)
_K_ALERT = K.ALERT
_K_ASSAULT_CAPTURE = K.ASSAULT_CAPTURE
_K_ASSAULT_KILL = K.ASSAULT_KILL
_K_BOARD_VEHICLE = K.BOARD_VEHICLE
_K_EXIT_MAP = K.EXIT_MAP
_K_FIRE_AIMED = K.FIRE_AIMED
_K_FIRE_AIMED_VEHICLE = K.FIRE_AIMED_VEHICLE
_K_FIRE_SNAP = K.FIRE_SNAP
_K_FIRE_SNAP_VEHICLE = K.FIRE_SNAP_VEHICLE
_K_FIRE_WALL = K.FIRE_WALL
_K_GIVE_TURN = K.GIVE_TURN
_K_GRENADE = K.GRENADE
_K_GRENADE_INTO = K.GRENADE_INTO
_K_MAKE_AWARE = K.MAKE_AWARE
_K_MOVE = K.MOVE
_K_MOVE_PRISONER = K.MOVE_PRISONER
_K_PREPARE = K.PREPARE
_K_SATCHEL = K.SATCHEL
_K_STANCE = K.STANCE
_K_SURRENDER = K.SURRENDER
_K_THROW_OUT = K.THROW_OUT
_THROW_OUT = O.encode(K.THROW_OUT)


def _legal(m: Match, u: Unit, kinds: frozenset[int] | None) -> list[int]:
    every = kinds is None  # the usual case (the mask, step's check): every kind, no test
    want = kinds if kinds is not None else frozenset()
    st = m.state
    t = st.turn
    out: list[int] = []
    if t.mode == "free_snap":  # RULES.md §7: take the sighting's free snap fire or decline it
        out.append(_END_TURN)
        if every or _K_FIRE_SNAP in want:
            out.append(_SNAP + st.contacts.index(t.target))
        return out
    if t.mode == "throw_out":  # RULES.md §9: throw the live grenade out or leave it
        out.append(_END_TURN)
        if every or _K_THROW_OUT in want:
            out.append(_THROW_OUT)
        return out
    if u.vehicle >= 0:
        # a tank's unit: its tasks (seed 000 p. 33; module tanks)
        out = tanks.tank_orders(m, u, kinds) if tanks.is_tank(u) else _riding_orders(m, u)
        if (
            m.rules == "d100"
            and st.phase == Phase.ROUNDS
            and (every or not want.isdisjoint(d100_attacks.KINDS))
        ):  # seed 003: ramming, called shots from a vehicle
            extra = d100_attacks.ram_orders(m, u)
            if t.mode == "" and u.aware and not u.panicked:
                extra += d100_attacks.special_orders(m, u)
            if extra:
                out = out + extra
        return out
    if st.phase == Phase.OPERATIONS:
        out.append(_END_TURN)
        for s in range(3):
            if s != u.stance:
                out.append(_STANCE + s)
        if every or _K_MOVE in want:
            out.extend(_moves(m, u, None))
        _exit_clear_prepare(m, u, every, want, _reload_possible, out)
        if (
            every or _K_PREPARE in want or _K_SATCHEL in want
        ) and m.mission.objective.kind == "demolish":
            out.extend(_demolition_orders(m, u))
        if every or not want.isdisjoint(_CARRY_KINDS):
            out.extend(_carry_orders(m, u))
            out.extend(_board_orders(m, u, not t.boarded))
            out.extend(_load_orders(m, u))
        return out

    mode = t.mode
    rd = m.rd
    if mode == "":
        out.append(_END_TURN)
        if every or _K_ALERT in want or _K_SURRENDER in want:
            out.extend(_german_orders(m, u))
        if every or _K_STANCE in want:
            out.extend(_stance_orders(u, t.stance_changed, u.MV, rd.movement.wounded_stance_mp))
        if every or _K_MOVE in want:
            out.extend(_moves(m, u, u.MV, charge_allowance(m, u)))
        if u.aware and not u.panicked:
            out.extend(
                _fire_orders(
                    m,
                    u,
                    every or _K_FIRE_AIMED in want,
                    every or _K_FIRE_SNAP in want,
                    every or _K_FIRE_AIMED_VEHICLE in want,
                    every or _K_FIRE_SNAP_VEHICLE in want,
                )
            )
            if every or _K_FIRE_WALL in want:
                out.extend(_wall_shots(m, u))
            if every or _K_GRENADE in want:
                out.extend(_throws(m, u, "grenade", _GRENADE))
            if every or _K_GRENADE_INTO in want:
                out.extend(_throws_into(m, u))
            if every or _K_SATCHEL in want:
                out.extend(_throws(m, u, "satchel", _SATCHEL))
            if every or _K_ASSAULT_KILL in want or _K_ASSAULT_CAPTURE in want:
                out.extend(_assaults(m, u))
            if m.rules == "d100" and (every or not want.isdisjoint(d100_attacks.KINDS)):
                out.extend(d100_attacks.special_orders(m, u))  # seed 003's special attacks
        if not u.panicked and (every or _K_GIVE_TURN in want or _K_MAKE_AWARE in want):
            # unaware commanders still command (RULES.md §5 bars fire/assault)
            out.extend(_command_orders(m, u))
        _exit_clear_prepare(m, u, every, want, _prepare_possible, out)
        if not u.panicked and (every or not want.isdisjoint(_CARRY_KINDS)):
            out.extend(_carry_orders(m, u))
            out.extend(_board_orders(m, u, rd.movement.seat_change_mp <= u.MV))
            out.extend(_load_orders(m, u))
    elif mode == "prisoner":
        out.append(_END_MOVE)
        if every or _K_MOVE_PRISONER in want:
            out.extend(_prisoner_moves(m, u, t.mp_left))
    elif mode == "move":
        out.append(_END_MOVE)
        out.extend(_stance_orders(u, t.stance_changed, t.mp_left, rd.movement.wounded_stance_mp))
        if u.stance != 2 and (every or _K_MOVE in want):  # prone: one hex per move action
            out.extend(_moves(m, u, t.mp_left, charge_allowance(m, u)))
        if (
            u.aware
            and t.mp_spent <= u.MV * rd.fire.move_snap_fraction  # RULES.md §6
            and (every or not want.isdisjoint(_SNAP_KINDS))
        ):
            out.extend(_fire_both(m, u, snap=True))
        if (every or _K_EXIT_MAP in want) and _exit(m, u):
            out.append(_EXIT)
        if every or _K_BOARD_VEHICLE in want:
            out.extend(_board_orders(m, u, t.mp_left >= rd.movement.seat_change_mp))
    elif mode == "snap2":
        out.append(_END_TURN)
        if every or not want.isdisjoint(_SNAP_KINDS):
            out.extend(_fire_both(m, u, snap=True))
    elif mode == "charge":
        out.extend(_assaults(m, u))
        if not out:  # the defender fell before the assault: the move is over
            out.append(_END_MOVE)
    return out


def _command_orders(m: Match, u: Unit) -> list[int]:
    """GIVE_TURN / MAKE_AWARE for an active, unpanicked, unwounded commander (RULES.md §5).

    A soldier is given a turn at most once per Round ⚙: without this limit two commanders
    could hand each other turns forever and the Round would never end.
    """
    if u.CR <= 0 or u.wounded or u.panicked:
        return []
    out = []
    dist = m.board.distance
    any_unaware = False
    for o in m.state.units:
        if o.side != u.side or o.uid == u.uid or o.status != Status.ACTIVE or o.hex < 0:
            continue
        if dist(u.hex, o.hex) > u.CR or o.wounded or tanks.is_tank(o):
            continue  # tank crews never obey command (seed 000 p. 31)
        if o.ar == ARSpace.COMPLETE and not o.given_turn:
            out.append(_GIVE + o.slot)
        if not o.aware:
            any_unaware = True
    if any_unaware:
        out.append(_AWARE)
    return out
