"""Owns the game state as plain data (docs/STYLE.md habit 6): units, vehicles, the turn, the
pending requests.

A :class:`GameState` is primitives, small lists and dataclasses with ``__slots__``: cheap to
copy (:meth:`GameState.clone`), written and read as JSON by the position format
(:mod:`ambush_env.core.play.position`), and free
of references to static data (the board's static part, tables, cards and the mission are looked
up by id through the :class:`~ambush_env.core.rules.ctx.Ctx`).

Hex positions are board indices (``row0 * columns + col``), −1 off the map.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ambush_env.core.model.types import ARSpace, Side, Stance, Status


@dataclass(slots=True)
class Unit:
    """One soldier (RULES.md §4). US soldiers carry squad ratings; Germans their card's.

    Attributes:
        uid: index in ``GameState.units``.
        side: ``Side.US`` or ``Side.GERMAN``.
        name: display name, ``"US3"`` or ``"G2"``.
        role: squad role (``"sergeant"``) or German card id.
        hex: board index, −1 when off the map (hidden, exited, removed).
        stance: ``Stance`` int.
        status: ``Status`` int (active, incapacitated, killed, captured, removed, hidden).
        wounded / panicked / aware: seed 002 and RULES.md §5 flags.
        ar: ``ARSpace`` int: where the marker sits on the Action Round track.
        IN, PC, WS, DS, MV, CR: ratings (RULES.md §4); MV in MPs, CR in hexes.
        weapon: weapon id (``weapons.yaml``); ``ammo``: shots left in the loaded clip
            (−1 = never runs dry); ``jammed``; ``prepared`` (bazooka loaded, crew weapon set up).
        equipment: port-box contents (item ids), at most ``port_boxes`` (1 when wounded).
        captured_weapon: the weapon is captured German equipment (user's rating −1, seed 002).
        guard: uid of the US soldier guarding this prisoner, −1 if none.
        vehicle: ``vid`` of the vehicle ridden (index in ``GameState.vehicles``), −1 if none.
    """

    uid: int
    side: int
    name: str
    role: str
    hex: int = -1
    stance: int = int(Stance.STANDING)
    status: int = int(Status.ACTIVE)
    wounded: bool = False
    panicked: bool = False
    aware: bool = False
    ar: int = int(ARSpace.NONE)
    IN: int = 0
    PC: int = 5
    WS: int = 0
    DS: int = 0
    MV: int = 4
    CR: int = 0
    weapon: str = ""
    ammo: int = -1
    jammed: bool = False
    prepared: bool = False
    equipment: list[str] = field(default_factory=list)
    port_boxes: int = 4
    satchel_ready: bool = False
    given_turn: bool = False  # was given a turn by a commander this Round (at most once ⚙)
    captured_weapon: bool = False
    guard: int = -1
    vehicle: int = -1
    route: list[int] = field(default_factory=list)  # German route hexes (paragraph placement)
    escaped: bool = False
    exited: bool = False
    slot: int = -1

    @property
    def is_us(self) -> bool:
        return self.side == Side.US

    @property
    def active(self) -> bool:
        """On the map and able to act (not incapacitated, killed, captured, gone or hidden)."""
        return self.status == Status.ACTIVE


@dataclass(slots=True)
class Vehicle:
    """One vehicle on the map (seed 000; RULES.md §12).

    Attributes:
        vid: index in ``GameState.vehicles``; also its vehicle slot in orders and observation.
        type: vehicle type id of ``data/vehicles.yaml`` (``"jeep"``).
        side: the side that holds it (``Side``); a captured car changes side (seed 002 p. 27).
        name: display name, ``"V1"``.
        hex: board index (−1 once it has left the map).
        facing: ``Direction`` int the front faces (seed 000 p. 30).
        driver: uid of the driver, −1 for an empty driver's seat.
        passengers: uids of the passengers in seat order (incapacitated and bodies included).
        disabled: knocked out for the rest of the mission (flipped, seed 000 p. 31).
        immobilised: cannot move (a tank's tread; seed 000 p. 31).
        closed: an armoured vehicle's Closed marker (seed 000 p. 30).
        tyre_shot: a shot tyre: no fast driving (seed 000 p. 30).
        captured: a German car taken by the US (drivers count 1 lower, seed 002 p. 27).
        exited: driven off the map from an exit hex.
        wrecked: disabled by its own driving (an Accident Table overturn, seed 000 p. 30), not
            by the enemy: ⚙ the enemy scores nothing for it (``Match.casualty_vp``, issue 25).
        crew: a tank's active crew (0..its ``occupants``; 0 for cars): sets the ratings of the
            tank's unit (``vehicles.yaml: crew_ratings``, seed 000 p. 31).
        unit: uid of a tank's own unit (it receives turns like a soldier, seed 000 p. 33; it
            also sits in ``driver``, so a tank drives itself); −1 for cars.
        cannon_loaded: the cannon holds a round (seed 000 p. 33: it must be loaded to fire).
        lost: the tank's weapons put out of action (``"cannon"``, ``"coax"``, ``"bow"``).
        jammed_mgs: the tank's machine guns that jammed (``"coax"``, ``"bow"``).
        card: a German vehicle's card id (``vehicles.yaml`` vehicle cards; "" for US vehicles).

    Under ``rules="d100"`` only (seed 003; module ``d100``; left at their defaults otherwise):

    Attributes:
        hp: Base HP left (−1: undamaged, the type's full Base HP of ``d100.yaml``).
        armour_loss: Armor value shot away per aspect (``front`` / ``side`` / ``rear``) by
            armour-piercing hits (seed 003: cumulative).
        component_damage: penetrating damage taken per hit-location component name.
        destroyed: component names destroyed (their effects applied once).
        burning: on fire: rolls the Vehicle Fire Table each Round.
        fire_dice: a Molotov or flamethrower fire's damage dice ("" for a fuel or engine fire):
            each Round it must beat the Armor value before the Fire Table is rolled.
        countdowns: ``"stop"`` / ``"overheat"`` → Rounds left before it is inoperable.
        mpa_quarters: MPA left in quarters (4: whole; "MOV reduced by ½" → 2, "by ¼" → 3).
        hull_crew: a tank's active crew in the hull (−1: all of it; the rest is the turret).
        moved_mp: MPs driven this Round (or Operations pulse): its speed for moving fire.
    """

    vid: int
    type: str
    side: int
    name: str
    hex: int = -1
    facing: int = 0
    driver: int = -1
    passengers: list[int] = field(default_factory=list)
    disabled: bool = False
    immobilised: bool = False
    closed: bool = False
    tyre_shot: bool = False
    captured: bool = False
    exited: bool = False
    wrecked: bool = False
    crew: int = 0
    unit: int = -1
    cannon_loaded: bool = False
    lost: list[str] = field(default_factory=list)
    jammed_mgs: list[str] = field(default_factory=list)
    card: str = ""
    hp: int = -1
    armour_loss: dict[str, int] = field(default_factory=dict)
    component_damage: dict[str, int] = field(default_factory=dict)
    destroyed: list[str] = field(default_factory=list)
    burning: bool = False
    fire_dice: str = ""
    countdowns: dict[str, int] = field(default_factory=dict)
    mpa_quarters: int = 4
    hull_crew: int = -1
    moved_mp: int = 0

    @property
    def occupants(self) -> list[int]:
        """Driver (if any) then passengers: the seed's stacking order (seed 000 p. 31)."""
        return ([self.driver] if self.driver >= 0 else []) + self.passengers


@dataclass(slots=True)
class TurnState:
    """What the acting unit is in the middle of (RULES.md §6).

    ``mode`` is one of ``""`` (choosing an action), ``"move"`` (a move action under way),
    ``"snap2"`` (another snap shot may follow: ``snaps`` taken < ``rules.yaml: fire.snap_shots``),
    ``"move_snap"`` (moved ≤ half MV: one snap shot may follow), ``"charge"`` (moved into a hex
    with Germans: a charge assault may follow). Two modes are a US soldier's decision that
    interrupts the turn in progress (saved in ``GameState.interrupted``): ``"free_snap"`` (a
    sighting's free snap fire at the German ``target`` may be taken or declined, RULES.md §7)
    and ``"throw_out"`` (the live grenade the German ``target`` threw into ``target_hex`` may
    be thrown out or left, RULES.md §9; ``scattered``: it scattered there).
    """

    uid: int = -1
    mode: str = ""
    mp_left: int = 0
    mp_spent: int = 0
    hexes_moved: int = 0
    stance_changed: bool = False
    snaps: int = 0  # snap shots taken in this fire action (RULES.md §6)
    alerted: bool = False  # a German's free ALERT used this turn (RULES.md §14)
    acted: bool = False
    boarded: bool = False
    accident_checked: bool = False  # this drive already made its fast-driving Accident Check
    run_over_hexes: list[int] = field(default_factory=list)  # hexes this drive tried to run over
    # a tank's turn (seed 000 p. 33): Crew Points left (−1: not counted yet) and tasks done
    cp_left: int = -1
    tasks: list[str] = field(default_factory=list)
    # a German card row in progress (RULES.md §14; module german): the column read, the row
    # rolled (−1 before the roll), the action reached, whether it has given an order yet,
    # and the hexes left of a move action's planned path
    card_column: str = ""
    card_row: int = -1
    card_step: int = 0
    card_acted: bool = False
    card_path: list[int] = field(default_factory=list)
    target: int = -1  # ``"free_snap"``: the sighted German's uid; ``"throw_out"``: the thrower's
    target_hex: int = -1  # ``"throw_out"``: the hex the grenade landed in
    scattered: bool = False  # ``"throw_out"``: the grenade scattered into it


#: the ``TurnState.mode`` values that are a US soldier's decision interrupting another turn
#: (RULES.md §7 free snap fire, §9 throw-out): ``END_TURN`` declines either
DECISION_MODES = frozenset({"free_snap", "throw_out"})


@dataclass(slots=True)
class GameState:
    """Everything that changes during a game (its JSON form is a position: core/play/position.py)."""

    mission: str = ""
    units: list[Unit] = field(default_factory=list)
    vehicles: list[Vehicle] = field(default_factory=list)
    phase: int = 0
    round: int = 0  # Round number since Rounds last began (1-based; 0 in Operations)
    rounds_total: int = 0  # Rounds played in the whole mission (time limit)
    pulse: int = 0  # Operations pulses played (time limit)
    initiative: int = -1  # side that won this Round's initiative, −1 none
    us_roll: int = 0
    german_roll: int = 0
    vp: int = 0
    vp_log: list[list[Any]] = field(default_factory=list)
    fired_triggers: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    ops_done: list[int] = field(default_factory=list)  # US uids that acted this pulse
    turn: TurnState = field(default_factory=TurnState)
    # the turn a free snap or throw-out decision (DECISION_MODES, RULES.md §7, §9) interrupted:
    # it is ``turn`` again once the decision is taken (module sequence); None when none is
    interrupted: TurnState | None = None
    contacts: list[int] = field(default_factory=list)  # German uids known to the US, slot order
    # US uids known to an agent-played German side, slot order (two-sided play; ctx.Match)
    german_contacts: list[int] = field(default_factory=list)
    board: dict = field(default_factory=dict)  # the board's mutable state (walls, rubble)
    items: dict = field(default_factory=dict)  # hex index (str) -> items lying there
    # minefields laid by ``minefield`` effects (seed 000 p. 32; module mines): hex indices of
    # anti-personnel and of anti-tank fields, and those the US knows of (sorted)
    minefields: list[int] = field(default_factory=list)
    at_minefields: list[int] = field(default_factory=list)
    known_mines: list[int] = field(default_factory=list)
    # trigger hexes that never fire again: a boobytrap eliminated under a tank (seed 000 p. 32)
    dead_triggers: list[int] = field(default_factory=list)
    # landmarks declared by ``landmark`` effects (RULES.md §3, §15): ``(hex, name, blocking)``
    # tuples in the order they appeared (one per hex); the blocking ones block sight
    # (:attr:`ambush_env.core.rules.ctx.Match.sight`)
    landmarks: list[tuple[int, str, bool]] = field(default_factory=list)
    # map booby traps (mission ``booby_traps``, module traps) gone off, disarmed or eliminated
    traps_gone: list[int] = field(default_factory=list)
    # a ``command`` effect: every US soldier is in command through this mission Round
    # (``rounds_total``), 0 none (RULES.md §5)
    command_until: int = 0
    over: bool = False
    result: int = -1
    end_reason: str = ""
    steps: int = 0
    next_german: int = 1  # next German display number
    # interruptions recorded by the rules, resolved by the sequence of play after each order
    # (module sequence); empty whenever a unit is to decide
    pending: list[list[Any]] = field(default_factory=list)

    def interrupt(self, t: TurnState) -> None:
        """Make ``t`` (a ``"free_snap"`` or ``"throw_out"`` decision) the turn, saving the turn
        in progress in ``interrupted`` (RULES.md §7, §9)."""
        self.interrupted, self.turn = self.turn, t

    def resume(self) -> TurnState:
        """End the interrupting decision: the saved turn is the turn again; returns the
        decision's own turn."""
        t = self.turn
        self.turn = self.interrupted if self.interrupted is not None else TurnState()
        self.interrupted = None
        return t

    def clone(self) -> GameState:
        """An independent copy (for search): every unit, vehicle and list copied, nothing
        shared but immutable values. About 1 µs a unit."""
        new = _copy_state(self)
        new.units = [_copy_unit(u) for u in self.units]
        new.vehicles = [_copy_vehicle(v) for v in self.vehicles]
        new.turn = _copy_turn(self.turn)
        if self.interrupted is not None:
            new.interrupted = _copy_turn(self.interrupted)
        new.items = {k: list(v) for k, v in self.items.items()}
        new.board = {k: list(v) for k, v in self.board.items()}
        new.vp_log = [list(x) for x in self.vp_log]
        new.pending = [list(x) for x in self.pending]
        return new


def known_vehicle(st: GameState, v: Vehicle) -> bool:
    """Whether the US player knows the vehicle ``v`` is there (RULES.md §5: "Germans placed
    unaware and out of every US soldier's sight stay hidden"; seed 000 p. 31: "a vehicle and
    its occupants are one target"): the one predicate of the US view (the observation, the
    frames, the text map, the replay viewer, the hidden ``place_vehicle`` event and the US
    orders that name a vehicle).

    ⚙ A vehicle is known when it is the US side's (``v.side``: its own or a captured car), when
    nobody is aboard (``v.occupants`` empty: an empty car shows, as farm_assault's parked
    Kübelwagen; nobody in it is hidden), or when at least one man aboard — a car's driver or
    passenger, a tank's own unit, any status — is a known contact (``st.contacts``). A German
    vehicle whose men are all unknown is as hidden as they are: a vehicle and its crew are
    known together, so what reveals the crew reveals the vehicle, and nothing else does — the
    sighting when it is placed in sight or comes into sight later (the sighting checks after
    every move, a hidden tank driving into view included), its firing
    (:meth:`~ambush_env.core.rules.ctx.Match.attacked` reveals a German who fires), a strike that
    hurts a man aboard (module ``strikes``). Contacts are never forgotten, so a vehicle once
    known stays known wherever it goes. Men still aboard when killed or removed keep their
    vehicle hidden unless known (a hidden tank knocked out unseen stays hidden); a hidden crew
    that gets out leaves an empty vehicle, which shows.

    The same rule read on a state seen from the other side (``aec_env.GermanView``: sides
    swapped, ``contacts`` = the German side's) is what an agent-played German side knows: its
    own vehicles always, a US vehicle when empty or when some German has seen a man aboard.
    """
    if v.side == Side.US:
        return True
    aboard = v.occupants
    if not aboard:
        return True
    contacts = st.contacts
    return any(uid in contacts for uid in aboard)


def _make_copier(
    cls: type, copy_lists: tuple[str, ...] = (), copy_dicts: tuple[str, ...] = ()
) -> Any:
    """A fast field-by-field copy function for a slotted dataclass: list fields named in
    ``copy_lists`` and dict fields named in ``copy_dicts`` are copied (their items are
    immutable), the others shared (immutable values). Generated once per class, like the
    dataclass machinery's own methods."""
    names = [f.name for f in fields(cls)]
    lines = [f"def copy_{cls.__name__}(o):", "    n = new(cls)"]
    for name in names:
        lines.append(
            f"    n.{name} = o.{name}[:]"
            if name in copy_lists
            else f"    n.{name} = o.{name}.copy()"
            if name in copy_dicts
            else f"    n.{name} = o.{name}"
        )
    lines.append("    return n")
    ns: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), ns)
    return ns[f"copy_{cls.__name__}"]


_copy_unit = _make_copier(Unit, ("equipment", "route"))
_copy_vehicle = _make_copier(
    Vehicle,
    ("passengers", "lost", "jammed_mgs", "destroyed"),
    ("component_damage", "countdowns", "armour_loss"),
)
_copy_turn = _make_copier(TurnState, ("run_over_hexes", "card_path", "tasks"))
_copy_state = _make_copier(
    GameState,
    (
        "fired_triggers",
        "flags",
        "ops_done",
        "contacts",
        "german_contacts",
        "minefields",
        "at_minefields",
        "known_mines",
        "dead_triggers",
        "landmarks",
        "traps_gone",
    ),
)
