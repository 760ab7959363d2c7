"""Owns vehicles on the map (seed 000 p. 30-33; seed 002 p. 26-27; RULES.md §11-§12): boarding,
driving, accidents, fire and blasts against them; numbers in ``data/vehicles.yaml``.

What is in the engine now:

* **Cars** (jeep, Kübelwagen, staff car): getting in and out and changing seats (free once per
  Operations action ⚙, 1 MP in Rounds, seed 000 p. 31); driving forward into any neighbouring
  hex (turning is free) or backing up, paying the vehicle Movement Point Cost Chart ⚙ up to
  the slow or fast MPA (Rounds; the moment the slow MPA is exceeded, one Accident Check) or
  one hex with no Accident Check (Operations: "drive a vehicle one hex" is the driver's
  Operations action, RULES.md §5; the hex gets a paragraph check, seed 000 p. 30); "any
  number may pass through a hex, two may end there" (seed 000 p. 30, see
  :func:`drive_targets` for how a drive passes through a full hex); the Accident Table ⚙; running over soldiers (Rounds, seed 000 p. 33); a disabled car puts its occupants
  prone outside and ends the turn of the one playing it (p. 31); driving off the map from an
  exit hex with everyone aboard.
* **Seed 002 p. 26-27**: loading an incapacitated soldier (or a body) into a car kills him on
  a d10 of 0 (:func:`~ambush_env.core.rules.damage.drag_check`); riding is safe (driving rolls
  nothing for him); a German car with no active German aboard is captured by the first US
  soldier who gets in; a captured car's driver counts his DS 1 lower, so a DS 0 soldier cannot
  take its wheel; tanks are never captured (nobody boards a tank, seed 000 p. 31).
* **Fire at vehicles** (seed 000 p. 30-31): the facing diagram, the shot at a car or a tank
  and its Hit Chart live in :mod:`~ambush_env.core.vehicles.vehicle_fire`; the helpers it calls are
  here (:func:`disable`, :func:`driver_hurt`, :func:`accident_check`, :func:`set_crew`). Riders fire from the car (aimed or
  snap at −2, the driver one snap, no grenades or heavy weapons unless the briefing allows
  them, ``rules.heavy_weapons_from_cars``, seed 000 p. 32).
* **Grenades and satchels** (seed 000 p. 32-33): a grenade going off in a car's hex disables
  it on an incapacitated or killed result on the Grenade Outside row, then each occupant rolls
  once on that row (stance is ignored inside; nobody aboard throws it out); a satchel charge
  in or next to a car's hex always disables it; a satchel charge in a tank's hex disables it
  on an incapacitated or killed Satchel Outside result (:func:`blast_vehicles`). Grenades
  thrown *into* a vehicle are :mod:`~ambush_env.core.combat.grenades`' (``GRENADE_INTO``).
* **Boobytraps** (seed 000 p. 32): the driver's Perception Check is the mission's own
  ``perception`` effect before its ``booby_trap`` effect; a trap that goes off under a car
  disables it and panics those aboard (no damage rolls for them); under a tank it is
  eliminated (:func:`booby_trap_tank`: the trigger never fires again).
* **Minefields** (seed 000 p. 32; module :mod:`~ambush_env.core.rules.mines`): a US car entering
  one is disabled (anti-personnel: everyone aboard panics); a tank ignores anti-personnel
  fields and is immobilised by anti-tank ones (:func:`vehicle_mines`); under both rule sets,
  ``rules="d100"`` adding the blast's damage (RULES.md §13).
* **Craters** (seed 000 p. 31): never driven into on purpose; an Accident Table skid into
  one costs ``forced_crater_mp`` (3) and an immediate Accident Check.

Choices (⚙) where the seeds are silent or would leave an exploit:

* the incapacitated and the dead aboard are no target of fire at the car (seed 002 p. 26: not
  a target in a hex fired into): a Hit Chart result on a seat holding one (or nobody) is an
  empty seat, and a chain skips them; an explosive hit on an empty seat still bursts inside;
* incapacitated enemies are never run over (seed 002: not attacked on purpose);
* running over needs an Accident Check, so it happens in Rounds only; a second try at a hex
  in the same drive costs the sharp turn (1 MP) and an Accident Check that must be passed;
* soldiers in a car cannot be assaulted, nor assault; they get out first;
* the fallen carried off the map in a car still count as casualties.

**Tanks** (seed 000 p. 30-33) are in :mod:`~ambush_env.core.vehicles.tanks`: a tank's own unit drives
it through this module's drive code (Crew Points paid there); a tank's Accident Table
"shot tyre" only stops it and "overturn" disables it ⚙; a stop ends a tank's drive, not
its turn.

Not yet in the engine (never reachable): the
seed-003 d100 module.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.state import Unit, Vehicle, known_vehicle
from ambush_env.core.model.types import (
    ACTIVE,
    CAPTURED,
    INCAP,
    TERRAIN_NAMES,
    ARSpace,
    Charge,
    Phase,
    Side,
    Stance,
    Status,
)
from ambush_env.core.rules import d100
from ambush_env.core.rules.ctx import VEHICLE_COSTS_MAX, Match
from ambush_env.core.rules.enter import (
    pack_crew_weapon,
    soldier_exits,
    vehicle_entered,
    vehicle_enters,
)
from ambush_env.core.rules.mines import minefield_kind, reveal
from ambush_env.core.rules.movement import relief_cost, touched_steps
from ambush_env.core.rules.prisoners import prisoner_hexes
from ambush_env.core.rules.turns import end_turn
from ambush_env.core.world.vehicle_data import (  # noqa: F401  (re-exported: the data model lives there)
    AccidentResult,
    Armour,
    VehicleData,
    VehicleType,
    can_take_wheel,
    effective_ds,
    load_vehicle_data,
    type_mpa,
    vtype,
)
from ambush_env.core.world.vehicle_data import shipped_vehicle_data as _shipped

IMPASSABLE = -1
#: a minefield's kind → its charge among the d100 items (``d100.yaml: items``)
_MINE_ITEMS: dict[str, Literal["anti_tank_mine", "anti_personnel_mine"]] = {
    "anti_tank": "anti_tank_mine",
    "anti_personnel": "anti_personnel_mine",
}
# At most ``vehicles.yaml: max_in_hex`` vehicles per hex (seed 000 p. 30); the sharp turn before a
# second running-over try at a hex costs ``vehicles.yaml: retry_mp`` (seed 000 p. 33).


# ============================================================================ small queries
def on_map(v: Vehicle) -> bool:
    return v.hex >= 0 and not v.exited


def vehicles_in(m: Match, hex_: int) -> list[Vehicle]:
    """Vehicles (disabled ones included) in ``hex_``."""
    return [v for v in m.state.vehicles if v.hex == hex_ and not v.exited]


def active_driver(m: Match, v: Vehicle) -> Unit | None:
    if v.driver < 0:
        return None
    d = m.state.units[v.driver]
    return d if d.status == ACTIVE else None


def _held_by_enemy(m: Match, v: Vehicle, side: int) -> bool:
    units = m.state.units
    return v.side != side and any(units[o].status == ACTIVE for o in v.occupants)


# ============================================================================ movement costs
def cost_row(m: Match, large: bool) -> list[int]:
    """``row[hex * 6 + direction]`` = vehicle MPs to drive that way (−1 never), per live
    map (:meth:`Board.live_key`; RULES.md §12 ⚙): the entered hex's cost, +1 a level up, +1 across an embankment
    or crest; never across an intact wall (whatever its aperture) nor into woods when large.
    Cached on the context (``Ctx.vehicle_costs``, whose board is ``m.board``), at most
    ``ctx.VEHICLE_COSTS_MAX`` entries."""
    board = m.board
    key = (large, board.live_key())
    cache = m.ctx.vehicle_costs
    row = cache.get(key)
    if row is not None:
        return row
    data = _shipped()
    tcost = [data.move_costs[name] for name in TERRAIN_NAMES]
    woods = TERRAIN_NAMES.index("woods")

    def cost(i: int, j: int) -> int:
        t = board.terrain[j]
        c = tcost[t]
        if c is None or (large and t == woods):
            return IMPASSABLE
        side = board.hexside(i, j)
        if side is not None and side.wall is not None and not side.destroyed:
            return IMPASSABLE
        return c + relief_cost(board, i, j, side, data)

    last_key = ("last", large)
    last = cache.get(last_key)  # (version, row) computed last on this board
    changes = board.changes_since(last[0]) if last is not None else None
    if (
        last is not None and changes is not None
    ):  # only the steps the change log touches (a wall, a collapse, a reset)
        row = list(last[1])
        nbrs = board.neighbors
        for i, d in touched_steps(board, *changes):
            row[i * 6 + d] = cost(i, nbrs[i][d])
    else:
        row = [IMPASSABLE] * (board.n * 6)
        for i in range(board.n):
            for d, j in enumerate(board.neighbors[i]):
                if j >= 0:
                    row[i * 6 + d] = cost(i, j)
    if len(cache) >= VEHICLE_COSTS_MAX - 1:  # room for the row and the last row
        cache.clear()
    cache[key] = row
    cache[last_key] = (board.version, row)
    return row


def mpa(v: Vehicle) -> tuple[int, int]:
    """``(slow, limit)``: the slow MPA and the most MPs a Rounds drive may spend (the fast
    MPA, or the slow one with a shot tyre or a closed tank, seed 000 p. 30)."""
    slow, fast = type_mpa(v)
    fast_ok = not v.tyre_shot and not v.closed
    return slow, (fast if fast_ok else slow)


def drive_targets(
    m: Match, u: Unit, v: Vehicle, mp_left: int | None
) -> list[tuple[int, int, bool]]:
    """Every hex the driver ``u`` may drive ``v`` into now: ``(direction of travel, hex,
    backwards)`` (seed 000 p. 30). Forward = any of the six directions (turning is free);
    backwards = the hex behind. Refused: a hex the cost chart forbids or costing more than
    ``mp_left`` (None: no MP limit), a hex holding a prisoner (prisoners may never be
    harmed, seed 002 p. 25), and a *full* hex (``max_in_hex`` other vehicles, disabled ones
    included) unless the vehicle can pass through it.

    "Any number may pass through a hex, two may end there" (seed 000 p. 30). ⚙ A drive
    step into a full hex is legal only when nothing can make the drive end there:

    * in Rounds only: an Operations drive is one hex (RULES.md §5), so it would end there;
    * the step makes no Accident Check (it is not the step that first exceeds the slow MPA,
      not a second running-over try, and there is nobody to run over), and the hex has no
      paragraph check (a boobytrap could disable the car there): so no accident, skid or
      disablement can stop the car in the full hex;
    * with the MPs left after the step, the vehicle can still reach a hex with room (through
      more full hexes on the same terms).

    In a full hex the driver is not offered ``END_DRIVE`` (:mod:`~ambush_env.core.play.legal`), and
    by the last condition a step on is always legal, so the drive cannot run out there
    either; driving off the map from a full exit hex stays allowed (the car ends nowhere).
    """
    if v.disabled or v.immobilised or not on_map(v) or v.driver != u.uid:
        return []
    st = m.state
    t = st.turn
    rounds = st.phase == Phase.ROUNDS
    driving = t.mode == "drive"
    # the search's fixed inputs (module-level helpers, not closures: a nested recursive
    # function is a reference cycle left to the garbage collector at every call)
    w = _DriveWorld(
        m,
        v,
        t.run_over_hexes if driving and rounds else (),
        t.accident_checked if driving else False,
    )
    spent = t.mp_spent if driving else 0
    full = w.full
    counts = w.counts
    out = []
    back = (v.facing + 3) % 6
    for d in range(6):
        c = w.step_cost(v.hex, d)
        j = w.nbrs[v.hex][d]
        if c < 0 or (mp_left is not None and c > mp_left) or j in w.pris:
            continue
        if counts.get(j, 0) >= full and not (
            rounds
            and mp_left is not None
            and w.quiet(j, c, spent)
            and w.can_leave(j, mp_left - c, spent + c, {v.hex, j})
        ):
            continue
        out.append((d, j, False))
        if d == back:
            out.append((d, j, True))
    return out


class _DriveWorld:
    """What :func:`drive_targets` reads while it looks past full hexes."""

    __slots__ = (
        "checked",
        "counts",
        "full",
        "m",
        "nbrs",
        "pris",
        "retry",
        "retry_mp",
        "row",
        "slow",
        "v",
    )

    def __init__(self, m: Match, v: Vehicle, retry: Collection[int], checked: bool):
        self.m, self.v, self.retry, self.checked = m, v, retry, checked
        self.row = cost_row(m, vtype(v).size == "large")
        self.nbrs = m.board.neighbors
        self.pris = prisoner_hexes(m)
        self.counts = _other_counts(m, v)
        data = _shipped()
        self.full, self.retry_mp = data.max_in_hex, data.retry_mp
        self.slow = type_mpa(v)[0]

    def step_cost(self, i: int, d: int) -> int:
        c = self.row[i * 6 + d]
        if c >= 0 and self.nbrs[i][d] in self.retry:
            c += self.retry_mp
        return c

    def quiet(self, j: int, c: int, spent: int) -> bool:
        """Whether entering the full hex ``j`` for ``c`` MPs can stop nothing there."""
        m, v = self.m, self.v
        return (
            j not in self.retry
            and j not in m.triggers
            and not _run_over_targets(m, v, j)
            and not _mine_stops(m, v, j)
            and (self.checked or spent + c <= self.slow)
        )

    def can_leave(self, i: int, left: int, spent: int, seen: set[int]) -> bool:
        """Whether from ``i`` a hex with room is in reach (through quiet full hexes)."""
        for d in range(6):
            j = self.nbrs[i][d]
            c = self.step_cost(i, d)
            if c < 0 or c > left or j in self.pris:
                continue
            if self.counts.get(j, 0) < self.full:
                return True
            if (
                j not in seen
                and self.quiet(j, c, spent)
                and self.can_leave(j, left - c, spent + c, seen | {j})
            ):
                return True
        return False


def drive_orders(m: Match, u: Unit, v: Vehicle, mp_left: int | None) -> list[int]:
    """The order integers of :func:`drive_targets`: ``DRIVE`` + direction for each forward
    step (turning is free), then ``DRIVE_BACK`` once when the hex behind is open (seed 000
    p. 30). For a car's driver and a tank's unit alike."""
    out = []
    back = False
    for d, _, backwards in drive_targets(m, u, v, mp_left):
        if backwards:
            back = True
        else:
            out.append(_DRIVE + d)
    if back:
        out.append(_DRIVE_BACK)
    return out


_DRIVE, _DRIVE_BACK = O.ORDER_BASE[O.OrderKind.DRIVE], O.ORDER_BASE[O.OrderKind.DRIVE_BACK]


def _other_counts(m: Match, v: Vehicle) -> dict[int, int]:
    """Vehicles on the map per hex, ``v`` left out."""
    counts: dict[int, int] = {}
    for o in m.state.vehicles:
        if o is not v and not o.exited and o.hex >= 0:
            counts[o.hex] = counts.get(o.hex, 0) + 1
    return counts


def in_full_hex(m: Match, v: Vehicle) -> bool:
    """Whether ``v`` stands in a hex holding ``max_in_hex`` other vehicles: passing through,
    its drive may not end there (seed 000 p. 30)."""
    return on_map(v) and _other_counts(m, v).get(v.hex, 0) >= _shipped().max_in_hex


# ============================================================================ boarding
def board_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why ``u`` may not get into ``v`` (or, already aboard, move to its driver's seat) now;
    None when he may (seed 000 p. 31; seed 002 p. 27)."""
    if u.status != ACTIVE or u.hex < 0:
        return "he is not active"
    if u.panicked:
        return "he is panicked"
    if u.vehicle == v.vid:
        if not on_map(v) or v.disabled:
            return "the vehicle is disabled"
        if v.driver == u.uid:
            return "he is the driver"
        if v.driver >= 0 and m.state.units[v.driver].status == ACTIVE:
            return "the driver's seat is taken"
        if not can_take_wheel(v, u):
            return "he cannot drive a captured vehicle: DS 0 counts 1 lower (seed 002 p. 27)"
        return None
    if u.vehicle >= 0:
        return "he is in another vehicle"
    return _seat_refusal(m, u, v)


def _seat_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why nobody of ``u``'s side can be put into ``v`` from ``u``'s hex (getting in or
    loading the fallen): not in the hex, a tank (nobody boards a tank, seed 000 p. 31),
    disabled, held by an active enemy aboard, no free seat; for the US, a vehicle the US does
    not know is there (:func:`~ambush_env.core.model.state.known_vehicle` ⚙: the mask names none)."""
    if not on_map(v) or v.hex != u.hex:
        return "the vehicle is not in his hex"
    if u.side == Side.US and not known_vehicle(m.state, v):
        return "no vehicle the US knows of"
    t = vtype(v)
    if t.kind == "tank":
        return "nobody can board a tank (seed 000 p. 31)"
    if v.disabled:
        return "the vehicle is disabled"
    if _held_by_enemy(m, v, u.side):
        return "the enemy holds it"
    if len(v.occupants) >= t.occupants:
        return "no free seat"
    return None


def _take(m: Match, u: Unit, v: Vehicle) -> None:
    """A German car with no active German aboard becomes ``u``'s side's, captured (seed 002
    p. 27: vehicles other than tanks are captured equipment)."""
    if v.side != u.side:
        v.side = u.side
        v.captured = True
        m.emit(E.VehicleCaptured(unit=u.name, vehicle=v.name, hex=m.board.label(v.hex)))


def board(m: Match, u: Unit, v: Vehicle) -> None:
    """Put ``u`` into ``v`` (legality checked by the caller). He takes the empty driver's seat
    if he may drive it, else a passenger seat; already aboard, he moves to the driver's seat.
    A German car with no active German aboard becomes a captured US car (seed 002 p. 27)."""
    if u.vehicle == v.vid:
        v.passengers.remove(u.uid)
        if v.driver >= 0:  # a fallen driver is moved to his seat (seed 000 p. 31: seat changes)
            v.passengers.append(v.driver)
        v.driver = u.uid
        m.emit(E.ChangeSeat(unit=u.name, vehicle=v.name, seat="driver"))
        return
    _take(m, u, v)
    pack_crew_weapon(m, u)
    u.vehicle = v.vid
    u.stance = int(Stance.STANDING)  # stance is ignored inside (seed 000 p. 31); seen seated high ⚙
    if v.driver < 0 and can_take_wheel(v, u):
        v.driver = u.uid
        seat = "driver"
    else:
        v.passengers.append(u.uid)
        seat = "passenger"
    m.emit(E.Board(unit=u.name, vehicle=v.name, seat=seat))


def leave_refusal(m: Match, u: Unit) -> str | None:
    if u.vehicle < 0:
        return "he is not in a vehicle"
    if u.status != ACTIVE or u.panicked:
        return "he is not active"
    return None


def leave(m: Match, u: Unit) -> None:
    """``u`` gets out into the vehicle's hex, standing ⚙ (seed 000 p. 31)."""
    v = m.state.vehicles[u.vehicle]
    _unseat(v, u.uid)
    u.vehicle = -1
    u.stance = int(Stance.STANDING)
    m.emit(E.LeaveVehicle(unit=u.name, vehicle=v.name))


def _unseat(v: Vehicle, uid: int) -> None:
    if v.driver == uid:
        v.driver = -1
    elif uid in v.passengers:
        v.passengers.remove(uid)


# ============================================================================ loading the fallen
def load_refusal(m: Match, u: Unit, v: Vehicle) -> str | None:
    """Why ``u`` may not load a fallen comrade into ``v`` now (seed 002 p. 26: "a standing
    active soldier may ... load him into a vehicle")."""
    from ambush_env.core.rules.carry import draggable

    if u.vehicle >= 0:
        return "he is in a vehicle"
    if draggable(m, u) is None:
        return "no incapacitated soldier or body of his side here, or he is not standing"
    return _seat_refusal(m, u, v)


def load(m: Match, u: Unit, v: Vehicle) -> None:
    """Load the incapacitated soldier (first) or body of ``u``'s hex into a passenger seat of
    ``v``. An incapacitated soldier is killed on a d10 of 0 (seed 002 p. 26); a body is safe.
    Loading into an empty German car captures it."""
    from ambush_env.core.rules.carry import draggable
    from ambush_env.core.rules.damage import drag_check

    o = draggable(m, u)
    assert o is not None
    _take(m, u, v)
    m.emit(E.Load(unit=u.name, loaded=o.name, vehicle=v.name))
    if o.status == INCAP:
        drag_check(m, o.uid, why="load")
    o.vehicle = v.vid
    v.passengers.append(o.uid)


# ============================================================================ driving
def drive_step(m: Match, u: Unit, v: Vehicle, d: int, backwards: bool) -> None:
    """Drive ``v`` one hex (legality from :func:`drive_targets`; seed 000 p. 30).

    Forward: the vehicle turns to face ``d`` (free) and enters the hex; backwards: it keeps
    its facing. Every occupant goes along; riding is safe, nobody rolls (seed 002 p. 26). In
    Rounds the cost is paid from the drive's MPs and exceeding the slow MPA makes the one
    Accident Check of the drive. Then running over (soldiers on foot in the hex), the
    paragraph check of the hex and sightings.
    """
    st = m.state
    t = st.turn
    src = v.hex
    dest = m.board.neighbors[src][d]
    cost = cost_row(m, vtype(v).size == "large")[src * 6 + d]
    rounds = st.phase == Phase.ROUNDS
    if rounds and dest in t.run_over_hexes:
        # a second running-over try: the sharp turn (1 MP) and another Accident Check first
        retry = _shipped().retry_mp
        t.mp_left -= retry
        t.mp_spent += retry
        m.emit(E.SharpTurn(vehicle=v.name, mp=retry))
        if accident_check(m, v, "sharp turn") != "passed":
            return  # it must pass the check to come back (seed 000 p. 33)
    if not backwards:
        v.facing = d
    vehicle_enters(m, v, dest)
    ev = E.Drive(
        unit=u.name,
        vehicle=v.name,
        to=m.board.label(dest),
        mp=cost if rounds else 0,
        backwards=backwards,
    )
    m.emit(ev)
    if rounds:
        t.mp_left -= cost
        t.mp_spent += cost
    else:
        t.mp_left -= 1  # Operations: hexes left this drive
    t.hexes_moved += 1
    if st.minefields or st.at_minefields:
        vehicle_mines(m, v)  # a car disabled, a tank immobilised (its drive ends), or nothing
        if v.disabled or st.over:
            return
    # (a tank stopped on an anti-tank mine drives no further: no fast driving past it)
    if rounds and m.rules == "d100":
        v.moved_mp += cost  # its speed for moving fire (seed 003)
    elif not rounds and m.rules == "d100":
        v.moved_mp += 1
    if rounds and not v.immobilised and not t.accident_checked and t.mp_spent > type_mpa(v)[0]:
        t.accident_checked = True
        m.emit(E.Fast(vehicle=v.name, mp_spent=t.mp_spent))
        accident_check(m, v, "moving fast")
    if v.disabled or v.hex != dest or st.over:
        return
    run_over(m, v, dest)
    if v.disabled or st.over:
        return
    vehicle_entered(m, v)


def drive_budget(m: Match) -> int | None:
    """The MP limit :func:`drive_targets` gets during a drive: the MPs left in Rounds; in
    Operations (no MP costs; one hex, RULES.md §5) None while the hex is left, else 0."""
    t = m.state.turn
    if m.state.phase == Phase.ROUNDS:
        return t.mp_left
    return None if t.mp_left > 0 else 0


def exit_map(m: Match, u: Unit) -> None:
    """The driver ``u`` drives his vehicle off the map from an exit hex with everyone aboard
    (RULES.md §15 exit hexes): each active occupant exits (and scores) like a soldier on foot;
    the fallen aboard leave the map with the car and still count as casualties ⚙. Ending
    the driver's turn is the caller's (the ``EXIT_MAP`` order)."""
    st = m.state
    v = st.vehicles[u.vehicle]
    m.emit(E.VehicleExit(vehicle=v.name, hex=m.board.label(v.hex)))
    for uid in v.occupants:
        o = st.units[uid]
        o.vehicle = -1
        if o.status == ACTIVE:
            soldier_exits(m, o)
        else:  # the fallen are carried off too (still casualties for the VP)
            o.exited = True
            o.hex = -1
    v.driver = -1
    v.passengers = []
    v.hex = -1
    v.exited = True


def drive_over(m: Match, u: Unit) -> bool:
    """Whether the drive of the acting driver ``u`` has to end now (no MPs or hexes left,
    the vehicle stopped, disabled or he is no longer its active driver)."""
    if u.vehicle < 0:
        return True
    v = m.state.vehicles[u.vehicle]
    if v.disabled or v.driver != u.uid or u.status != ACTIVE:
        return True
    return not drive_targets(m, u, v, drive_budget(m))


# ============================================================================ accidents
def accident_check(m: Match, v: Vehicle, why: str, *, automatic: bool = False) -> str:
    """An Accident Check (seed 000 p. 32): a d10 at or below the driver's DS (1 lower in a
    captured car) passes; above it, or ``automatic`` (the driver incapacitated or killed by
    fire), roll on the Accident Table ⚙ and apply the result. A car without an active driver
    fails every check. Returns ``"passed"`` or the table's result."""
    drv = active_driver(m, v)
    ev = E.AccidentCheck(vehicle=v.name, why=why)
    if not automatic:
        r = m.dice.d10(f"{v.name} accident check")
        need = effective_ds(v, drv) if drv is not None else -1
        ev.roll, ev.need = r, need
        if r <= need:
            ev.result = "passed"
            m.emit(ev)
            return "passed"
    r2 = m.dice.d10(f"{v.name} accident table")
    res = _shipped().accident_table[r2]
    ev.table_roll, ev.result = r2, res
    m.emit(ev)
    apply_accident(m, v, res)
    return res


def apply_accident(m: Match, v: Vehicle, res: str) -> None:
    """Carry out an Accident Table result ⚙ (``vehicles.yaml: accident_table``)."""
    if res == "none":
        return
    tank = vtype(v).kind == "tank"
    if res == "shot_tyre" and tank:
        res = "stop"  # ⚙ a tank has no tyres: its drive just stops
    if res == "shot_tyre":
        v.tyre_shot = True
        return
    if res == "overturn" and tank:
        v.wrecked = not v.disabled
        disable(m, v, "overturned")  # ⚙ the crew never leaves the tank (seed 000 p. 31)
        return
    if res == "overturn":
        from ambush_env.core.rules.damage import roll_damage

        units = m.state.units
        for uid in list(v.occupants):
            if units[uid].status in (ACTIVE, INCAP, CAPTURED):
                roll_damage(m, uid, "bolt_rifle", why=f"{units[uid].name} overturn damage")
        v.wrecked = not v.disabled
        disable(m, v, "overturned")
        return
    if res == "skid":
        d = v.facing
        j = m.board.neighbors[v.hex][d]
        row = cost_row(m, vtype(v).size == "large")
        crater = j >= 0 and row[v.hex * 6 + d] < 0 and _forced_crater(m, v.hex, j)
        free = (
            j >= 0
            and (row[v.hex * 6 + d] >= 0 or crater)
            and len(vehicles_in(m, j)) < _shipped().max_in_hex
            and not any(
                o.hex == j and o.vehicle < 0 and o.status in (ACTIVE, INCAP, CAPTURED)
                for o in m.state.units
            )
        )
        if free:
            vehicle_enters(m, v, j)
            m.emit(E.Skid(vehicle=v.name, to=m.board.label(j)))
            st = m.state
            if st.minefields or st.at_minefields:
                vehicle_mines(m, v)
                if v.disabled or st.over:
                    return
            if crater:  # forced into a crater: 3 MPs and an immediate Accident Check (p. 31)
                mp = _shipped().forced_crater_mp
                m.emit(E.ForcedCrater(vehicle=v.name, to=m.board.label(j), mp=mp))
                t = st.turn
                if t.mode == "drive" and t.uid == v.driver:
                    t.mp_left -= mp
                    t.mp_spent += mp
                accident_check(m, v, "forced into a crater")
                if v.disabled or v.hex != j or st.over:
                    return  # disabled, or a second skid took it on (that skid did the rest)
            _stop(m, v)
            if not m.state.over:
                vehicle_entered(m, v)  # it entered a hex (RULES.md §7)
            return
    _stop(m, v)


def _forced_crater(m: Match, src: int, dest: int) -> bool:
    """Whether an Accident Table skid from ``src`` goes into the crater ``dest``: never on
    purpose (the cost chart forbids craters), but "a movement reference that forces it" may
    (seed 000 p. 31), across no intact wall ⚙."""
    b = m.board
    if TERRAIN_NAMES[b.terrain[dest]] != "crater":
        return False
    hs = b.hexside(src, dest)
    return hs is None or hs.wall is None or hs.destroyed


def _stop(m: Match, v: Vehicle) -> None:
    """The vehicle stops: a drive under way ends (seed 000 p. 31-32)."""
    st = m.state
    t = st.turn
    if t.mode == "drive" and t.uid == v.driver:
        m.emit(E.VehicleStops(vehicle=v.name))
        if v.unit >= 0:  # a tank: the drive ends, its turn goes on with the Crew Points left
            t.mode = ""
            return
        end_turn(m, st.units[v.driver])


def set_crew(m: Match, v: Vehicle, crew: int) -> None:
    """A tank's active crew becomes ``crew`` (clamped at 0): its unit's IN, PC, WS and DS are
    read again from ``vehicles.yaml: crew_ratings`` (seed 000 p. 31); with nobody left the
    tank is disabled (:func:`disable`)."""
    from ambush_env.core.world.vehicle_data import crew_rating

    v.crew = max(0, crew)
    if v.unit >= 0:
        u = m.state.units[v.unit]
        r = crew_rating(v.crew)
        u.IN, u.PC, u.WS, u.DS = r.IN, r.PC, r.WS, r.DS
    if v.crew == 0:
        disable(m, v, "crew lost")


def disable(m: Match, v: Vehicle, why: str) -> None:
    """Disable ``v`` for the rest of the mission (seed 000 p. 31): a car's occupants are placed
    prone outside it and "lose the rest of the turn": an occupant playing his turn ends it
    (a 2-Turn soldier keeps his second turn, as any ended turn); the others keep their
    markers ⚙. A tank's crew never leaves it (p. 31): its unit is out of the game (status
    ``REMOVED``, its marker Inactive) and ends the turn it is playing."""
    if v.disabled:
        return
    v.disabled = True
    st = m.state
    if v.unit >= 0:
        tu = st.units[v.unit]
        if st.turn.uid == tu.uid and tu.status == ACTIVE:
            end_turn(m, tu)
        tu.status = int(Status.REMOVED)
        tu.ar = int(ARSpace.INACTIVE)
        m.emit(E.VehicleDisabled(vehicle=v.name, why=why, placed_out=[]))
        return
    out = []
    for uid in list(v.occupants):
        o = st.units[uid]
        o.vehicle = -1
        o.stance = int(Stance.PRONE)
        out.append(o.name)
        if o.status == ACTIVE and st.turn.uid == uid:
            end_turn(m, o)  # he loses the rest of the turn he is playing
    v.driver = -1
    v.passengers = []
    m.emit(E.VehicleDisabled(vehicle=v.name, why=why, placed_out=out))


def apply_d100(m: Match, v: Vehicle, effects: list[tuple]) -> None:
    """Carry out the effects a d100 attack returns (module ``d100``): ``("disable", why)``,
    ``("crew", n)`` (a tank's active crew), ``("accident", outcome)`` (an Accident Table
    outcome), ``("stop",)`` (a drive under way ends)."""
    for eff in effects:
        what = eff[0]
        if what == "crew":  # a crew count stays true of a wreck too
            set_crew(m, v, eff[1])
            continue
        if v.disabled or m.state.over:
            continue
        if what == "disable":
            disable(m, v, eff[1])
        elif what == "accident":
            apply_accident(m, v, eff[1])
        elif what == "stop":
            _stop(m, v)


def d100_brakes(m: Match, v: Vehicle) -> None:
    """A drive ends under d100 with the Brakes destroyed (seed 003: "no brakes, vehicle must
    decelerate to stop"): ⚙ a Vehicle Trouble roll + 0 as it comes to a stop."""
    if m.rules == "d100" and not v.disabled and any(c == "Brakes" for c in v.destroyed):
        apply_d100(m, v, d100.trouble(m, v, 0, "no brakes"))


def d100_tick(m: Match) -> None:
    """A new Round or Operations pulse under d100: fires, countdowns, speeds (:func:`d100.tick`)."""
    for v, effects in d100.tick(m):
        apply_d100(m, v, effects)


def driver_hurt(m: Match, v: Vehicle, result: str, *, hit: bool = False) -> None:
    """A car driver hit or hurt by combat (seed 000 p. 31-32): incapacitated or killed → an
    automatic accident; panicked or wounded, or hit by fire whatever the damage (``hit``:
    "made when a car's driver, wheels or body is hit") → an Accident Check. A blast that
    does him no harm makes none. Read from his state after the damage, so a second wound
    that incapacitated him (seed 002 p. 26) is an automatic accident."""
    if v.disabled or not on_map(v) or vtype(v).kind != "car" or (result == "none" and not hit):
        return
    d = m.state.units[v.driver] if v.driver >= 0 else None
    if d is None or d.status != ACTIVE:
        accident_check(m, v, "driver hit", automatic=True)
    elif hit or result in ("panic", "wound"):
        accident_check(m, v, "driver hit")


def booby_trap_car(m: Match, v: Vehicle) -> None:
    """A boobytrap going off under a car (seed 000 p. 32: "the driver makes a Perception
    Check; failure disables the car and panics the occupants"). The check is the mission's
    own ``perception`` effect before the ``booby_trap`` effect (Farm Assault: paragraph 51 →
    53), made by the soldier who triggered it, the driver; a trap that goes off is that
    check failed ⚙, so no second roll: the car is disabled and everyone aboard panics (a
    panic result, which has no effect in Operations, seed 002 p. 26)."""
    from ambush_env.core.rules.damage import apply_damage

    m.emit(E.BoobyTrapCar(vehicle=v.name))
    aboard = [uid for uid in v.occupants if m.state.units[uid].status == ACTIVE]
    disable(m, v, "boobytrap")
    for uid in aboard:
        apply_damage(m, uid, "panic")


def booby_trap_tank(m: Match, v: Vehicle) -> None:
    """A tank in a boobytrapped hex (seed 000 p. 32: "Tanks ignore minefields and boobytraps;
    the boobytrap is eliminated"): no harm, and the hex's trigger never fires again."""
    m.emit(E.BoobyTrapTank(vehicle=v.name, hex=m.board.label(v.hex)))
    if v.hex not in m.state.dead_triggers:
        m.state.dead_triggers.append(v.hex)


def _mine_stops(m: Match, v: Vehicle, hex_: int) -> bool:
    """Whether a minefield in ``hex_`` would stop ``v`` there (:func:`vehicle_mines`)."""
    kind = minefield_kind(m, hex_) if m.state.minefields or m.state.at_minefields else None
    if kind is None or v.side != Side.US:
        return False
    return kind == "anti_tank" or vtype(v).kind == "car"


def vehicle_mines(m: Match, v: Vehicle) -> None:
    """A vehicle of the US side (the mines are the Germans' own, module ``mines``) in a
    minefield hex (seed 000 p. 32). A car detonates an anti-personnel field automatically,
    no check: disabled, every occupant panics (a panic result: in Operations it has no
    effect, seed 002 p. 26); an anti-tank field disables a car (no panic ⚙: the seed says
    only "a car is disabled"). A tank ignores an anti-personnel field (it stays); an anti-tank
    one immobilises it, and its drive ends. Either way the hex is known to the US; every
    entry sets the field off again ⚙ (the field stays).

    The mine is not a hit: these effects are the same under both rule sets (RULES.md §13).
    Under ``rules="d100"`` the blast is also a charge under the vehicle (seed 003 steps 3-7
    against the belly's Armor value, :func:`d100.belly_armour`), which adds its damage and
    never takes the seed-000 effect away: a car's riders are still aboard when it goes off
    (the Base HP and the seats it reaches hurt them), then the car is disabled and the
    survivors panic (anti-personnel); a tank is immobilised first, then takes the charge. A
    mine a tank ignores sets nothing off under either rule set."""
    kind = minefield_kind(m, v.hex)
    if kind is None or v.side != Side.US or v.disabled:
        return
    tank = vtype(v).kind == "tank"
    label = m.board.label(v.hex)
    reveal(m, v.hex)
    if tank and kind == "anti_personnel":
        m.emit(E.MineVehicle(vehicle=v.name, hex=label, kind=kind, result="ignored"))
        return
    charge = d100.data().items[_MINE_ITEMS[kind]] if m.rules == "d100" else None
    if tank:
        v.immobilised = True
        m.emit(E.MineVehicle(vehicle=v.name, hex=label, kind=kind, result="immobilised"))
        _stop(m, v)
        if charge is not None:
            apply_d100(m, v, d100.attack(m, v, charge, f"{kind} mine", armour=d100.belly_armour(v)))
        return
    m.emit(E.MineVehicle(vehicle=v.name, hex=label, kind=kind, result="disabled"))
    aboard = [uid for uid in v.occupants if m.state.units[uid].status == ACTIVE]
    effects = (
        []
        if charge is None
        else d100.attack(m, v, charge, f"{kind} mine", armour=d100.belly_armour(v), wreck=True)
    )
    disable(m, v, "mine")
    apply_d100(m, v, effects)  # on the wreck: nothing left to do but a crew count
    if kind == "anti_personnel":
        from ambush_env.core.rules.damage import apply_damage

        for uid in aboard:
            if m.state.units[uid].status == ACTIVE:
                apply_damage(m, uid, "panic")


# ============================================================================ running over
def run_over(m: Match, v: Vehicle, dest: int) -> None:
    """Running over soldiers on foot in the hex ``v`` entered (seed 000 p. 33).

    Friends: an Accident Check; passing it misses them. Enemies: passing it hits them. Those
    not missed: each active one makes a PC check to dodge; those who fail, and the inactive,
    are hit: a car rolls bolt-rifle damage on each and then rolls once on the Accident Table
    for itself. Prisoners are never driven over (their hexes are never offered). Hidden
    Germans are not there for the driver and are not run over ⚙. Incapacitated enemies are
    not run over: they "cannot be attacked on purpose" (seed 002 p. 26, the law over seed
    000's "inactive are hit"); incapacitated friends are, by accident.

    Rounds only: Operations make "No Accident Checks" (seed 000 p. 30), and running over is
    decided by one, so in Operations a vehicle passes soldiers without incident ⚙.

    A second try at the same hex in the same drive (seed 000 p. 33: leave, turn sharply for
    1 MP, pass another Accident Check, come back): re-entering such a hex costs 1 MP more and
    an Accident Check first; failing it, the car does not come back (:func:`drive_step`).
    """
    st = m.state
    drv = active_driver(m, v)
    side = v.side
    men = _run_over_targets(m, v, dest)
    if not men or st.phase != Phase.ROUNDS:
        return  # Operations: "No Accident Checks" (seed 000 p. 30), so nobody is run over
    t = st.turn
    if t.mode == "drive" and t.uid == v.driver and dest not in t.run_over_hexes:
        t.run_over_hexes.append(dest)
    friends = [o for o in men if o.side == side]
    enemies = [o for o in men if o.side != side]
    from ambush_env.core.rules.damage import roll_damage

    need = effective_ds(v, drv) if drv is not None else -1
    any_hit = False
    for group, kind in ((friends, "friends"), (enemies, "enemies")):
        if not group:
            continue
        r = m.dice.d10(f"{v.name} running over ({kind})")
        passed = r <= need
        hit_them = passed if kind == "enemies" else not passed
        m.emit(E.RunOverCheck(vehicle=v.name, against=kind, roll=r, need=need, passed=passed))
        if not hit_them:
            continue
        for o in group:
            if o.status == ACTIVE:
                pr = m.dice.d10(f"{o.name} dodge PC check")
                dodged = pr <= o.PC
                m.emit(E.Dodge(unit=o.name, roll=pr, pc=o.PC, dodged=dodged))
                if dodged:
                    continue
            any_hit = True
            m.emit(E.RunOver(vehicle=v.name, unit=o.name))
            if vtype(v).kind == "tank":
                from ambush_env.core.rules.damage import apply_damage

                apply_damage(m, o.uid, "kill")
            else:
                roll_damage(m, o.uid, "bolt_rifle", why=f"{o.name} run over damage")
    if any_hit and vtype(v).kind == "car":
        r2 = m.dice.d10(f"{v.name} accident table (ran over)")
        res = _shipped().accident_table[r2]
        m.emit(E.AccidentCheck(vehicle=v.name, why="ran over soldiers", table_roll=r2, result=res))
        apply_accident(m, v, res)


def _run_over_targets(m: Match, v: Vehicle, dest: int) -> list[Unit]:
    """The soldiers on foot ``v`` would try to run over in ``dest`` (:func:`run_over`): the
    active, and incapacitated friends; hidden Germans are not there for a US driver."""
    st = m.state
    side = v.side
    return [
        o
        for o in st.units
        if o.hex == dest
        and o.vehicle < 0
        and (o.status == ACTIVE or (o.status == INCAP and o.side == side))
        and not (o.side == Side.GERMAN and side == Side.US and o.uid not in st.contacts)
    ]


# ============================================================================ blasts
def blast_vehicles(m: Match, hex_: int, kind: Charge) -> set[int]:
    """A grenade or satchel charge going off in ``hex_`` (outside any vehicle) against the
    vehicles there (seed 000 p. 32-33). A grenade disables a car on an incapacitated or
    killed result on Grenade Outside; a satchel charge disables every car in or next to the
    hex. A satchel charge in a tank's hex disables it on an incapacitated or killed result on
    Satchel Outside (one d10; open or closed: the charge is outside); a grenade outside a tank,
    or a satchel next to its hex, does nothing to it ⚙ (its armour). Returns the uids of the
    cars' occupants (before the blast), who then roll once each on the outside row with
    stance ignored (the caller's blast loop); a tank's unit is no soldier and never rolls."""
    st = m.state
    occupants: set[int] = set()
    near = set(m.board.neighbors[hex_]) | {hex_} if kind == "satchel" else {hex_}
    for v in st.vehicles:
        if not on_map(v) or v.hex not in near:
            continue
        if m.rules == "d100":  # seed 003: the charge's damage against the side's Armor value ⚙;
            # a car's riders in the hex roll the blast as usual (the caller's loop; an armoured
            # vehicle's riders are hurt only through its hit location)
            open_car = vtype(v).kind != "tank" and not d100.armoured(v)
            if v.hex == hex_ and open_car:
                occupants.update(v.occupants)
            if not v.disabled:
                data = d100.data()
                apply_d100(
                    m,
                    v,
                    d100.attack(
                        m,
                        v,
                        data.items[kind],
                        kind,
                        aspect="side",
                        divisor=1 if v.hex == hex_ else data.satchel_adjacent_divisor,
                        people=not open_car,
                    ),
                )
            continue
        if vtype(v).kind == "tank":
            if kind == "satchel" and v.hex == hex_ and not v.disabled:
                r = m.dice.d10(f"{v.name} satchel damage")
                res = m.tables.soldier_row["satchel_outside"][r]
                m.emit(E.BlastVehicle(vehicle=v.name, item=kind, rolls_={"damage": r}, result=res))
                if res in ("incapacitated", "kill"):
                    disable(m, v, "satchel charge")
            continue
        if v.hex == hex_:
            occupants.update(v.occupants)
        if v.disabled:
            continue
        if kind == "satchel":
            disable(m, v, "satchel charge")
            continue
        r = m.dice.d10(f"{v.name} grenade damage")
        res = m.tables.soldier_row["grenade_outside"][r]
        m.emit(E.BlastVehicle(vehicle=v.name, item=kind, rolls_={"damage": r}, result=res))
        if res in ("incapacitated", "kill"):
            disable(m, v, "grenade")
    return occupants
