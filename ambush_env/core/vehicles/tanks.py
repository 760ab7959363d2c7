"""Owns tanks (seed 000 p. 30-33): a tank's own unit, its turn of Crew Points and tasks, its
built-in weapons with their arcs, loading and open/close; the orders of a tank's unit and
what they do. Driving is the vehicle drive of :mod:`~ambush_env.core.vehicles.vehicles`.

A tank is one :class:`~ambush_env.core.model.state.Vehicle` and one :class:`~ambush_env.core.model.state.Unit`
(:func:`make_tank_unit`): the unit has ``role == "tank"``, the vehicle's name, its side and hex,
``weapon == ""`` and the ratings of ``vehicles.yaml: crew_ratings`` for the active crew; it
sits in the vehicle's driver's seat (the tank drives itself) and nobody else is ever aboard.
It receives turns like a soldier (a US tank takes a US unit slot: ``select unit k``), but:

* **Action Round track** (seed 000 p. 31; :func:`ar_space`): AR = the side's roll + IN; the
  crew never obeys command, so the command spaces give it nothing: 2-Turn and 1-Turn as
  usual, the 2-4 spaces and the red 0-1 spaces Complete ⚙, and Panic only when its IN is at
  most ``crew_panic_in`` (1) and the roll at most ``crew_panic_roll`` (2). No commander gives
  it a turn or makes it aware; it never commands.
* **Crew Points** (seed 000 p. 33, ``vehicles.yaml: crew_tasks``): a Rounds turn starts with
  ``turn.cp_left = v.crew``; each row of the task table at most once a turn (aimed *or* snap
  for an MG ⚙: one row, one task), each paying its points; the turn goes on until
  ``END_TURN`` or until no task is affordable any more. Exclusions: the cannon fires aimed,
  loaded, never jams or runs dry, and not in a turn the coaxial MG fires (nor the coax in a
  turn the cannon fires); loading is not in a turn the cannon or coax fires (either order:
  after loading neither fires that turn); the bow MG
  fires only at targets in front; moving fast needs the tank open and its extra Crew Point;
  opening or closing takes every Crew Point of an untouched turn and nothing else follows.
  ⚙ Clearing the jammed MGs is a task of ``clear_jam_cp`` points with a PC check.
* **Operations** (no Crew Points): wait, drive one hex (RULES.md §5), load the cannon or
  clear the MGs ⚙ (each the whole action, as a soldier's reload), open/close (free, once an
  action ⚙, seed 000 p. 30). A tank never fires in Operations, like a soldier (the order
  generator offers no fire there), and never drives off the map ⚙.
* **Weapons** (:data:`MOUNT_TASKS`): the ``weapons`` of its type in ``vehicles.yaml``, fired
  through the soldier fire code with the weapon put in the unit's hand for the shot
  (:func:`_armed`: the fire code reads ``shooter.weapon``): no −2 from a car (the classes are
  ``vehicle_mounted``, seed 000 p. 32), the vehicle line of sight of seed 004 (the unit
  rides). At soldiers (contact slots), at cars and tanks (vehicle slots, through
  :func:`~ambush_env.core.vehicles.vehicle_fire.fire_at_vehicle`), the cannon at a building's wall (+4, as
  ``FIRE_WALL``) and into a hex (``CANNON_HEX``, :func:`_fire_unseen`).
* **Arcs**: turret weapons fire any way; "front" weapons only at a target whose line of fire
  crosses the tank's front hexside (the facing diagram read from the tank; a line through a
  vertex of the front hexside counts as in front ⚙); an immobilised Jagdpanther's cannon only
  down the hex row it faces; into its own hex only with ``own_hex_fire`` (Panzer IV, Sherman:
  cannon and coax; the bow MG never ⚙, having no front there).
* **Fire into a hex** (``CANNON_HEX``) ⚙: "the main gun on a known but invisible (prone)
  soldier" (seed 000 p. 32). Legal at a hex the tank sees at standing height holding a known
  active enemy on foot whom the tank does not see; it is a shot at the most exposed such
  soldier with the usual to-hit (his stance, his hex's cover), no sight needed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import GameState, Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, STANDING, US, ARSpace, Phase, Status
from ambush_env.core.rules import fire
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.prisoners import prisoner_hexes
from ambush_env.core.rules.turns import end_turn
from ambush_env.core.vehicles import vehicle_fire, vehicles
from ambush_env.core.world.hexgrid import cube, neighbor_cr
from ambush_env.core.world.vehicle_data import (
    Mount,
    crew_rating,
    shipped_vehicle_data,
    type_mpa,
    vtype,
)

TANK_ROLE = "tank"
ASPECTS = O.ASPECTS
B = O.ORDER_BASE

#: task (a ``crew_tasks`` key, ``"open_close"`` or ``"clear_jam"``) → its row of the task table
#: (seed 000 p. 33): each row at most once a turn.
ROW = {
    "cannon": "cannon",
    "load": "load",
    "bow_aimed": "bow",
    "bow_snap": "bow",
    "coax_aimed": "coax",
    "coax_snap": "coax",
    "move_slow": "move",
    "move_fast": "move",
    "open_close": "open_close",
    "clear_jam": "clear_jam",
}
#: order kind → (mount, task, snap, target): target is "unit" (contact slot), "vehicle"
#: (vehicle × aspect), "wall" or "hex" (offset).
MOUNT_TASKS: dict[K, tuple[Mount, str, bool, str]] = {
    K.CANNON_FIRE: ("cannon", "cannon", False, "unit"),
    K.CANNON_VEHICLE: ("cannon", "cannon", False, "vehicle"),
    K.CANNON_WALL: ("cannon", "cannon", False, "wall"),
    K.CANNON_HEX: ("cannon", "cannon", False, "hex"),
    K.BOW_MG_AIMED: ("bow", "bow_aimed", False, "unit"),
    K.BOW_MG_SNAP: ("bow", "bow_snap", True, "unit"),
    K.BOW_MG_AIMED_VEHICLE: ("bow", "bow_aimed", False, "vehicle"),
    K.BOW_MG_SNAP_VEHICLE: ("bow", "bow_snap", True, "vehicle"),
    K.COAX_MG_AIMED: ("coax", "coax_aimed", False, "unit"),
    K.COAX_MG_SNAP: ("coax", "coax_snap", True, "unit"),
    K.COAX_MG_AIMED_VEHICLE: ("coax", "coax_aimed", False, "vehicle"),
    K.COAX_MG_SNAP_VEHICLE: ("coax", "coax_snap", True, "vehicle"),
}


# ============================================================================ the tank's unit
def is_tank(u: Unit) -> bool:
    """Whether ``u`` is a tank's own unit (decision 1 of issue 11)."""
    return u.role == TANK_ROLE and u.vehicle >= 0


def tank_of(m: Match, u: Unit) -> Vehicle:
    return m.state.vehicles[u.vehicle]


def make_tank_unit(st: GameState, v: Vehicle) -> Unit:
    """The unit of the tank ``v``, made and appended to ``st.units`` if it has none yet (the
    mission setup, a position listing the tank without its unit ⚙, or a paragraph placing a
    tank mid-mission). A tank on the map always has its crew ⚙: ``crew`` 0 on a tank that is
    not disabled means a full crew. The unit takes the tank's name, side and hex, the crew's
    ratings, the lowest free unit slot of its side (US: ``select unit k``; German ⚙: the
    next German slot), and the driver's seat; a disabled tank's unit is out of the game."""
    if v.unit >= 0:  # made already (the setup): seated again, its ratings the crew's now
        u = st.units[v.unit]
        link(st, v, u)
        return u
    t = vtype(v)
    if t.kind != "tank":
        raise ValueError(f"{v.name} is a {t.name}, not a tank")
    if v.crew <= 0 and not v.disabled:
        v.crew = t.occupants
    r = crew_rating(v.crew)
    taken = {u.slot for u in st.units if u.side == v.side}
    slot = next(k for k in range(O.U_SLOTS + 64) if k not in taken)
    u = Unit(
        uid=len(st.units),
        side=v.side,
        name=v.name,
        role=TANK_ROLE,
        hex=v.hex,
        aware=True,
        IN=r.IN,
        PC=r.PC,
        WS=r.WS,
        DS=r.DS,
        MV=0,
        CR=0,
        weapon="",
        ammo=-1,
        port_boxes=0,
        vehicle=v.vid,
        slot=slot,
    )
    if v.disabled or v.crew == 0 or v.exited or v.hex < 0:
        u.status = int(Status.REMOVED)
        u.ar = int(ARSpace.INACTIVE)
    st.units.append(u)
    link(st, v, u)
    return u


def link(st: GameState, v: Vehicle, u: Unit) -> None:
    """Seat the tank unit ``u`` in ``v``: its driver, nobody else aboard, the tank's hex, the
    crew's ratings (seed 000 p. 31)."""
    v.unit = u.uid
    v.driver = u.uid
    v.passengers = []
    u.vehicle = v.vid
    u.hex = v.hex
    u.role = TANK_ROLE
    u.weapon = ""
    u.ammo = -1
    u.MV = u.CR = 0
    # ⚙ a tank with no crew left keeps the ratings of crew 1 (``crew_rating`` clamps), as
    # ``vehicles.set_crew`` leaves them: a position round-trips them
    r = crew_rating(v.crew)
    u.IN, u.PC, u.WS, u.DS = r.IN, r.PC, r.WS, r.DS


def link_tank_units(st: GameState) -> list[Unit]:
    """Give every tank of ``st.vehicles`` its unit: a unit already listed for it (``role:
    tank``, ``vehicle`` naming it, or the vehicle's ``unit``) is seated, else one is made
    (:func:`make_tank_unit`). Returns the units made."""
    made = []
    data = shipped_vehicle_data().vehicles
    for v in st.vehicles:
        if data[v.type].kind != "tank":
            continue
        if v.unit < 0:
            v.unit = next(
                (u.uid for u in st.units if u.role == TANK_ROLE and u.vehicle == v.vid), -1
            )
        if v.unit >= 0:
            if v.crew <= 0 and not v.disabled:
                v.crew = data[v.type].occupants
            link(st, v, st.units[v.unit])
        else:
            made.append(make_tank_unit(st, v))
    return made


# ============================================================================ facing geometry
def _dir_cubes() -> tuple[tuple[int, int, int], ...]:
    x0, y0, z0 = cube(2, 2)
    out = []
    for d in range(6):
        x, y, z = cube(*neighbor_cr(2, 2, d))
        out.append((x - x0, y - y0, z - z0))
    return tuple(out)


_DIRS = _dir_cubes()


def _delta(m: Match, a: int, b: int) -> tuple[int, int, int]:
    ax, ay, az = cube(*m.board.coords(a))
    bx, by, bz = cube(*m.board.coords(b))
    return bx - ax, by - ay, bz - az


def aspects_from(m: Match, v: Vehicle, hex_: int) -> tuple[str, ...]:
    """The aspects of ``v`` (facing diagram, ``vehicles.yaml``) that fire from ``hex_`` comes
    through: one, two for a line through a vertex, () from its own hex."""
    if hex_ == v.hex:
        return ()
    key = (m.board.columns, v.hex, v.facing, hex_)  # pure geometry: memoised
    got = _ASPECTS_FROM.get(key)
    if got is not None:
        return got
    diagram = shipped_vehicle_data().facing_diagram
    out: list[str] = []
    for d in vehicle_fire.entry_hexsides(m.board, hex_, v.hex):  # the line's hexside(s)
        a = diagram[(d - v.facing) % 6]
        if a not in out:
            out.append(a)
    if len(_ASPECTS_FROM) > 200_000:
        _ASPECTS_FROM.clear()
    got = _ASPECTS_FROM[key] = tuple(out)
    return got


#: aspects_from by (board columns, vehicle hex, facing, hex): hex coordinates depend only on
#: the board's column count (``Board.coords``), the facing diagram is shipped data
_ASPECTS_FROM: dict[tuple[int, int, int, int], tuple[str, ...]] = {}


def attack_aspect(m: Match, v: Vehicle, from_hex: int) -> str:
    """The one aspect an attack from another hex hits: the facing diagram of
    :func:`ambush_env.core.vehicles.vehicle_fire.aspect_of` (at a vertex the better-armoured ⚙)."""
    return vehicle_fire.aspect_of(m.board, from_hex, v.hex, v.facing) or "front"


def in_front(m: Match, v: Vehicle, hex_: int) -> bool:
    """Whether ``hex_`` is in front of the tank ``v`` (seed 000 p. 33): fire from it would hit
    the tank's front (a vertex of the front hexside counts ⚙); never its own hex."""
    return "front" in aspects_from(m, v, hex_)


def on_hex_row(m: Match, v: Vehicle, hex_: int) -> bool:
    """Whether ``hex_`` lies down the hex row ``v`` faces (seed 000 p. 33: an immobilised
    Jagdpanther's cannon)."""
    dx, dy, dz = _delta(m, v.hex, hex_)
    p, q, r = _DIRS[v.facing]
    k = max(abs(dx), abs(dy), abs(dz))
    return k > 0 and (dx, dy, dz) == (k * p, k * q, k * r)


def arc_refusal(m: Match, v: Vehicle, mount: Mount, hex_: int) -> str | None:
    """Why ``v``'s weapon on ``mount`` cannot fire at ``hex_`` (seed 000 p. 33), or None."""
    t = vtype(v)
    w = t.weapons[mount]
    if hex_ == v.hex:
        if not t.own_hex_fire:
            return f"a {t.name} cannot fire into its own hex (seed 000 p. 33)"
        if w.arc == "front":
            return "a front weapon cannot fire into its own hex ⚙"
        return None
    if w.arc == "front" and not in_front(m, v, hex_):
        return "the target is not in front (seed 000 p. 33)"
    if mount == "cannon" and w.arc == "front" and v.immobilised and not on_hex_row(m, v, hex_):
        return (
            "an immobilised tank's fixed gun fires only down the hex row it faces (seed 000 p. 33)"
        )
    return None


# ============================================================================ the Action Round
def ar_space(m: Match, u: Unit, val: int) -> int:
    """The tank unit's AR space for ``val`` = roll + IN (seed 000 p. 31; module docstring)."""
    data = shipped_vehicle_data()
    track = m.rd.ar_track
    roll = val - u.IN
    if data.crew_panic_in >= u.IN and roll <= data.crew_panic_roll:
        return int(ARSpace.PANIC)
    if val >= track.two_turn:
        return int(ARSpace.TWO_TURN)
    if val >= track.one_turn:
        return int(ARSpace.ONE_TURN)
    return int(ARSpace.COMPLETE)  # the command spaces: a tank crew never obeys command ⚙


# ============================================================================ Crew Points
def task_cost(m: Match, v: Vehicle, task: str) -> int:
    if task == "open_close":
        return max(1, v.crew)
    if task == "clear_jam":
        return shipped_vehicle_data().clear_jam_cp
    return shipped_vehicle_data().crew_tasks[task]


def _row_done(done: list[str], row: str) -> bool:
    """Whether a task of ``row`` (:data:`ROW`) is among the tasks ``done`` this turn."""
    return any(ROW.get(x) == row for x in done)


def task_refusal(m: Match, v: Vehicle, task: str) -> str | None:
    """Why the tank ``v`` cannot do ``task`` now in its Rounds turn (seed 000 p. 33), or None."""
    t = m.state.turn
    done = t.tasks
    if "open_close" in done:
        return "opening or closing takes the whole turn"
    if task == "move_fast":
        if v.closed:
            return "a closed tank cannot move fast (seed 000 p. 30)"
        return (
            None
            if t.cp_left >= task_cost(m, v, "move_fast") - task_cost(m, v, "move_slow")
            else "no Crew Point left for moving fast"
        )
    row = ROW[task]
    if _row_done(done, row):
        return "that task is done this turn (seed 000 p. 33)"
    if task == "open_close":
        if done or t.cp_left < v.crew or v.crew <= 0:
            return "opening or closing takes every Crew Point of the turn"
        return None
    if t.cp_left < task_cost(m, v, task):
        return "not enough Crew Points left"
    weapons = vtype(v).weapons
    if row in ("cannon", "coax", "bow"):
        if row not in weapons:
            return f"a {vtype(v).name} has no {row} weapon"
        if row in v.lost:
            return f"the {row} is out of action"
        if row != "cannon" and row in v.jammed_mgs:
            return f"the {row} MG is jammed"
    if task == "cannon":
        if not v.cannon_loaded:
            return "the cannon is not loaded"
        if _row_done(done, "coax"):
            return "not in a turn the coaxial MG fired (seed 000 p. 33)"
        if "load" in done:
            return "not in a turn the cannon was loaded (seed 000 p. 33)"
    elif row == "coax":
        if "cannon" in done:
            return "not in a turn the cannon fired (seed 000 p. 33)"
        if "load" in done:
            return "not in a turn the cannon was loaded (seed 000 p. 33)"
    elif task == "load":
        if "cannon" not in weapons or "cannon" in v.lost:
            return "the cannon is out of action"
        if v.cannon_loaded:
            return "the cannon is loaded"
        if "cannon" in done or _row_done(done, "coax"):
            return "not in a turn the cannon or coaxial MG fired (seed 000 p. 33)"
    elif row == "move":
        if v.immobilised or v.disabled:
            return "the tank cannot move"
    elif task == "clear_jam" and not v.jammed_mgs:
        return "no jammed MG"
    return None


def pay(m: Match, v: Vehicle, task: str, cp: int | None = None) -> None:
    """Spend ``task``'s Crew Points (a ``tank_task`` event)."""
    t = m.state.turn
    cost = task_cost(m, v, task) if cp is None else cp
    t.cp_left -= cost
    t.tasks.append(task)
    m.emit(E.TankTask(vehicle=v.name, task=task, cp=cost, cp_left=t.cp_left))


# ============================================================================ weapons
@contextmanager
def _armed(u: Unit, v: Vehicle, mount: Mount) -> Iterator[str]:
    """The weapon on ``mount`` in the tank unit's hand for the fire code, which reads
    ``shooter.weapon`` (the weapon override of the tank's built-in weapons): never dry, its
    jam the vehicle's ``jammed_mgs``; afterwards a new jam is kept on the vehicle."""
    w = vtype(v).weapons[mount].weapon
    u.weapon, u.ammo, u.prepared = w, -1, True
    u.jammed = mount in v.jammed_mgs
    try:
        yield w
    finally:
        if u.jammed and mount not in v.jammed_mgs:
            v.jammed_mgs.append(mount)
        u.weapon, u.jammed, u.prepared = "", False, False


def _rounds_weapon_orders(
    m: Match, u: Unit, v: Vehicle, kinds: frozenset[int] | None = None, first: bool = False
) -> list[int]:
    """The weapon orders of the tank unit ``u`` in Rounds: per mount, what
    :func:`~ambush_env.core.rules.fire.fire_refusal` / ``vehicle_fire_refusal`` / ``wall_refusal``
    allow within the mount's arc (at a vehicle, the aspects of
    :func:`~ambush_env.core.vehicles.vehicle_fire.fire_aspects`: a German tank never fires at a closed
    tank with a weapon that cannot penetrate it, seed 000 p. 31). The soldier checks are those of ``fire_refusal``, with each
    enemy's distance and sight and each (mount, hex) arc worked out once for all the mounts.
    With ``first``, the orders of the first kind that has any (enough to tell whether there
    is one)."""
    st = m.state
    units = st.units
    pris = prisoner_hexes(m) if u.side == US else ()
    out: list[int] = []
    ok: dict[str, bool] = {}
    t = m.tables
    dist = m.board.distance
    sight: dict[int, bool] = {}
    arcs: dict[tuple[str, int], bool] = {}
    enemies: list[tuple[int, Unit, int]] | None = None
    at_mount: dict[str, list[int]] = {}  # mount → the contact slots its weapon may fire at
    weapons = vtype(v).weapons
    see = m.sight.can_see
    size = vtype(v).size
    v_hex = v.hex

    def in_arc(mount: Mount, h: int) -> bool:
        if h != v_hex and weapons[mount].arc == "turret":
            return True  # a turret weapon fires any way (arc_refusal's first case)
        a = arcs.get((mount, h))
        if a is None:
            a = arcs[(mount, h)] = arc_refusal(m, v, mount, h) is None
        return a

    for kind, (mount, task, snap, target) in _MOUNT_ITEMS:
        if kinds is not None and kind not in kinds:
            continue  # the caller can use no such order (the card interpreter)
        if mount not in weapons:
            continue
        good = ok.get(task)
        if good is None:
            good = ok[task] = task_refusal(m, v, task) is None
        if not good:
            continue
        base = B[kind]
        _arm(u, v, mount)  # the weapon in hand for the fire code (as :func:`_armed`)
        try:
            if target == "unit":
                if fire.weapon_refusal(m, u, snap=snap) is not None:
                    continue
                slots = at_mount.get(mount)  # the same targets for aimed and snap fire
                if slots is None:
                    if enemies is None:  # the enemies on foot that fire_refusal lets through
                        enemies = [
                            (k, g, t.band(dist(u.hex, g.hex)))
                            for k, g in enumerate(units[i] for i in m.enemy_slots(u.side))
                            if g.vehicle < 0
                            and g.side != u.side
                            and g.status == ACTIVE
                            and g.hex >= 0
                        ]
                    slots = at_mount[mount] = []
                    auto = m.weapon_class(u.weapon).automatic
                    reach = t.to_hit[t.class_of[u.weapon]]
                    for k, g, band in enemies:
                        if (
                            reach[band] is None
                            or (auto and g.hex in pris)
                            or not in_arc(mount, g.hex)
                        ):
                            continue
                        seen = sight.get(g.uid)
                        if seen is None:  # = m.can_see(u, g): the unit rides, g is on foot
                            seen = sight[g.uid] = see(
                                u.hex, g.hex, u.stance, g.stance, sighter_in_vehicle=size
                            )
                        if seen:
                            slots.append(k)
                out.extend([base + k for k in slots])
            elif target == "vehicle":
                for w in st.vehicles[: O.V_SLOTS]:
                    if (
                        w is v
                        or not vehicles.on_map(w)
                        or w.hex in pris
                        or not in_arc(mount, w.hex)
                        or vehicle_fire.vehicle_fire_refusal(m, u, w, snap=snap, weapon=u.weapon)
                        is not None
                    ):
                        continue
                    out.extend(
                        base + w.vid * 3 + a for a in vehicle_fire.fire_aspects(m, u, w, u.weapon)
                    )
            elif target == "wall":
                if fire.weapon_refusal(m, u, snap=False) is None:
                    out.extend(
                        base + k
                        for k, h in fire.wall_targets(m, u)
                        if h not in pris and in_arc(mount, h)
                    )
            else:
                out.extend(base + k for k in _unseen_offsets(m, u, v, mount, pris))
        finally:
            _disarm(u, v, mount)
        if first and out:
            return out
    return out


_MOUNT_ITEMS = tuple(MOUNT_TASKS.items())


def _arm(u: Unit, v: Vehicle, mount: Mount) -> None:
    """The first half of :func:`_armed` (without a generator: the order generator's hot path)."""
    u.weapon, u.ammo, u.prepared = vtype(v).weapons[mount].weapon, -1, True
    u.jammed = mount in v.jammed_mgs


def _disarm(u: Unit, v: Vehicle, mount: Mount) -> None:
    """The second half of :func:`_armed`."""
    if u.jammed and mount not in v.jammed_mgs:
        v.jammed_mgs.append(mount)
    u.weapon, u.jammed, u.prepared = "", False, False


def _unseen_targets(m: Match, u: Unit, h: int) -> list[Unit]:
    """Known active enemies on foot in ``h`` whom the tank unit ``u`` does not see."""
    units = m.state.units
    return [
        units[i]
        for i in m.known_enemies(u.side)
        if units[i].hex == h and units[i].vehicle < 0 and not m.can_see(u, units[i])
    ]


def _unseen_offsets(m: Match, u: Unit, v: Vehicle, mount: Mount, pris: Any) -> list[int]:
    """Offsets of ``CANNON_HEX`` (module docstring ⚙): a hex in the offset radius, within
    range, seen at standing height, holding a known enemy the tank does not see."""
    units = m.state.units
    t = m.tables
    reach = t.to_hit[t.class_of[u.weapon]]
    size = vtype(v).size
    by_hex: dict[int, list[Unit]] = {}  # the known enemies on foot, per hex
    for i in m.known_enemies(u.side):
        g = units[i]
        h = g.hex
        if h < 0 or h in pris or g.vehicle >= 0:
            continue
        by_hex.setdefault(h, []).append(g)
    out = []
    dist = m.board.distance
    for h, gs in by_hex.items():
        dx, _, dz = _delta(m, u.hex, h)
        k = O.OFFSET_INDEX.get((dx, dz))
        if k is None or reach[t.band(dist(u.hex, h))] is None:
            continue
        if arc_refusal(m, v, mount, h) is not None or all(m.can_see(u, g) for g in gs):
            continue  # (:func:`_unseen_targets` is empty)
        if h != u.hex and not m.sight.can_see(
            u.hex, h, STANDING, STANDING, sighter_in_vehicle=size
        ):
            continue
        out.append(k)
    return sorted(out)


def _fire_unseen(m: Match, u: Unit, h: int) -> list[E.Event]:
    """The cannon into ``h`` at its most exposed unseen known enemy (module docstring ⚙): the
    usual to-hit against him, no sight needed; the damage row of the gun."""
    from ambush_env.core.rules.damage import apply_damage

    target = fire._most_exposed(_unseen_targets(m, u, h))[0]
    t = m.tables
    wc = t.weapon_class[u.weapon]
    n, mods = fire.to_hit(m, u, target, snap=False)
    ev = E.Fire(
        target=target.name,
        hex=m.board.label(h),
        **fire.shot_fields(u.name, u.weapon, False, n, mods),
    )
    events: list[E.Event] = [ev]
    if not fire._jam_and_hit(m, u, wc, ev, n, events):
        return events
    row = t.soldier_row[wc.damage]
    dmg = m.dice.d10("damage")
    ev.rolls_["damage"] = dmg
    ev.result = row[dmg]
    m.emit(ev)
    events += apply_damage(m, target.uid, row[dmg])
    return events


def _fire(m: Match, u: Unit, v: Vehicle, kind: K, arg: int) -> None:
    mount, task, snap, target = MOUNT_TASKS[kind]
    pay(m, v, task)
    st = m.state
    with _armed(u, v, mount):
        if target == "unit":
            g = st.units[m.enemy_slots(u.side)[arg]]
            fire.fire(m, u.uid, g.uid, snap=snap)
            if g.side != US and g.status == ACTIVE:
                g.aware = True
        elif target == "vehicle":
            # the built-in weapon (no from-car −2, seed 000 p. 32); a jam stays on the mount
            evs = vehicle_fire.fire_at_vehicle(
                m, u, st.vehicles[arg // 3], snap=snap, aspect=ASPECTS[arg % 3], weapon=u.weapon
            )
            if evs and getattr(evs[0], "result", None) == "jammed":
                u.jammed = True
        elif target == "wall":
            fire.fire_at_wall(m, u.uid, m.offset_target(u.hex, arg))
        else:
            _fire_unseen(m, u, m.offset_target(u.hex, arg))
    if mount == "cannon":
        v.cannon_loaded = False
    m.attacked(u, f"{u.name} fired")


# ============================================================================ orders
def drive_limit(m: Match, v: Vehicle) -> int:
    """The MPs a Rounds drive starting now may spend: the fast MPA when the tank is open and
    has the extra Crew Point of moving fast after paying the slow move, else the slow MPA
    (seed 000 p. 30, 33)."""
    slow, fast = type_mpa(v)
    extra = task_cost(m, v, "move_fast") - task_cost(m, v, "move_slow")
    after = m.state.turn.cp_left - task_cost(m, v, "move_slow")
    return fast if (not v.closed and after >= extra) else slow


# the kinds and order bases tank_orders uses, as plain names (the hot path)
_K_CLEAR_JAM = K.CLEAR_JAM
_B_CLEAR_JAM = B[K.CLEAR_JAM]
_K_DRIVE = K.DRIVE
_K_DRIVE_BACK = K.DRIVE_BACK
_B_END_DRIVE = B[K.END_DRIVE]
_B_END_TURN = B[K.END_TURN]
_K_LOAD_CANNON = K.LOAD_CANNON
_B_LOAD_CANNON = B[K.LOAD_CANNON]
_K_OPEN_CLOSE = K.OPEN_CLOSE
_B_OPEN_CLOSE = B[K.OPEN_CLOSE]


def tank_orders(m: Match, u: Unit, kinds: frozenset[int] | None = None) -> list[int]:
    """Every order of the tank unit ``u`` now (module docstring; called by
    :func:`~ambush_env.core.play.legal.legal_orders`); with ``kinds``, orders of other kinds may
    be left out (the caller filters the rest)."""
    st = m.state
    t = st.turn
    v = tank_of(m, u)
    # the drive steps only when the caller can use them (the rest it filters itself)
    drive = kinds is None or _K_DRIVE in kinds or _K_DRIVE_BACK in kinds
    if t.mode == "drive":
        out = [] if vehicles.in_full_hex(m, v) else [_B_END_DRIVE]
        if drive:
            out.extend(vehicles.drive_orders(m, u, v, vehicles.drive_budget(m)))
        return out
    out = [_B_END_TURN]
    if u.panicked or v.disabled:
        return out
    if st.phase == Phase.OPERATIONS:
        if t.hexes_moved == 0 and drive:
            out.extend(vehicles.drive_orders(m, u, v, None))
        if "open_close" not in t.tasks:
            out.append(_B_OPEN_CLOSE)
        if "cannon" in vtype(v).weapons and "cannon" not in v.lost and not v.cannon_loaded:
            out.append(_B_LOAD_CANNON)
        if v.jammed_mgs:
            out.append(_B_CLEAR_JAM)
        return out
    if (kinds is None or _K_OPEN_CLOSE in kinds) and task_refusal(m, v, "open_close") is None:
        out.append(_B_OPEN_CLOSE)
    if drive and task_refusal(m, v, "move_slow") is None:
        out.extend(vehicles.drive_orders(m, u, v, drive_limit(m, v)))
    if (kinds is None or _K_LOAD_CANNON in kinds) and task_refusal(m, v, "load") is None:
        out.append(_B_LOAD_CANNON)
    if (kinds is None or _K_CLEAR_JAM in kinds) and task_refusal(m, v, "clear_jam") is None:
        out.append(_B_CLEAR_JAM)
    if u.aware and (kinds is None or not kinds.isdisjoint(_MOUNT_KINDS)):
        out.extend(_rounds_weapon_orders(m, u, v, kinds))
    return out


_MOUNT_KINDS = frozenset(MOUNT_TASKS)


def do_order(m: Match, u: Unit, kind: K, arg: int) -> Any:
    """Carry out the legal order ``(kind, arg)`` of the tank unit ``u``."""
    st = m.state
    t = st.turn
    v = tank_of(m, u)
    ops = st.phase == Phase.OPERATIONS
    if kind == K.END_TURN:
        m.emit(E.EndTurn(unit=u.name))
    elif kind == K.END_DRIVE:
        m.emit(E.EndDrive(unit=u.name))
        if m.rules == "d100":
            vehicles.d100_brakes(m, v)
    elif kind in (K.DRIVE, K.DRIVE_BACK):
        if t.mode != "drive":
            t.mode = "drive"
            if ops:
                t.mp_left = 1  # "drive a vehicle one hex" (RULES.md §5)
            else:
                t.mp_left = drive_limit(m, v)
                pay(m, v, "move_slow")
        backwards = kind == K.DRIVE_BACK
        d = (v.facing + 3) % 6 if backwards else arg
        vehicles.drive_step(m, u, v, d, backwards)
        if (
            not ops and st.turn is t and "move_fast" not in t.tasks and t.mp_spent > type_mpa(v)[0]
        ):  # it went fast (seed 000 p. 30, 33)
            pay(m, v, "move_fast", task_cost(m, v, "move_fast") - task_cost(m, v, "move_slow"))
    elif kind == K.OPEN_CLOSE:
        if ops:
            t.tasks.append("open_close")
        else:
            pay(m, v, "open_close", t.cp_left)
        v.closed = not v.closed
        m.emit(E.OpenClose(vehicle=v.name, closed=v.closed))
    elif kind == K.LOAD_CANNON:
        if not ops:
            pay(m, v, "load")
        v.cannon_loaded = True
        m.emit(E.LoadCannon(vehicle=v.name))
    elif kind == K.CLEAR_JAM:
        if not ops:
            pay(m, v, "clear_jam")
        r = m.dice.d10(f"{v.name} clear jam PC check")
        ok = r <= u.PC
        if ok:
            v.jammed_mgs = []
        m.emit(E.ClearJam(unit=u.name, roll=r, pc=u.PC, cleared=ok))
    elif kind in MOUNT_TASKS:
        _fire(m, u, v, kind, arg)
    else:  # pragma: no cover - the order generator offers no other kind
        raise ValueError(f"{kind.name} is not a tank order")
    return None


def after_order(m: Match, u: Unit, kind: K, arg: int, note: Any) -> None:
    """The rest of a tank's order: a drive goes on while it can; in Operations the action is
    over (open/close is free there ⚙); in Rounds the turn goes on until ``END_TURN``, a
    whole-turn open/close, or no task left affordable (seed 000 p. 33)."""
    st = m.state
    t = st.turn
    if st.over or t.uid != u.uid:
        return
    ops = st.phase == Phase.OPERATIONS
    if kind == K.END_TURN:
        end_turn(m, u)
        return
    if t.mode == "drive":
        if kind in (K.DRIVE, K.DRIVE_BACK) and not vehicles.drive_over(m, u):
            return  # the drive goes on
        t.mode = ""
        if ops:
            end_turn(m, u)
            return
    elif ops:
        if kind != K.OPEN_CLOSE:
            end_turn(m, u)
        return
    if u.status != ACTIVE or tank_of(m, u).disabled or not _has_task_order(m, u):
        end_turn(m, u)


def _has_task_order(m: Match, u: Unit) -> bool:
    """Whether the tank unit ``u`` (in Rounds, not driving) has an order besides
    ``END_TURN``: ``len(tank_orders(m, u)) > 1``, stopping at the first one found."""
    v = tank_of(m, u)
    if u.panicked or v.disabled:
        return False
    if (
        task_refusal(m, v, "open_close") is None
        or task_refusal(m, v, "load") is None
        or task_refusal(m, v, "clear_jam") is None
    ):
        return True
    if task_refusal(m, v, "move_slow") is None and vehicles.drive_orders(
        m, u, v, drive_limit(m, v)
    ):
        return True
    return bool(u.aware and _rounds_weapon_orders(m, u, v, first=True))
