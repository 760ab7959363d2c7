"""Owns the position format (docs/API.md "Positions and orders"; docs/ARCHITECTURE.md): any
situation of a game as a small dict, YAML file or YAML text, like a chess FEN.

:func:`write_position` writes the whole situation of a game — mission, rules, deck, who
plays the Germans, the phase and its counters, the turn in progress with the German card
row, every unit, vehicle, item, destroyed wall and the dice — with hex labels, unit names
and the game's own words (``"prone"``, ``"1-turn"``), so that a person can read and edit it.
:func:`read_position` validates one (a ``DataError`` names the offending field) and builds
the state and dice from it. Only ``mission`` and ``units`` are required; every other field
defaults to the mission's start (⚙ below). Written positions are canonical:
``read_position(write_position(g))`` rebuilds ``g``'s state exactly, every field of it but
those :data:`DERIVED` names (tests/core/test_position_fields.py walks them all;
scripts/fuzz_positions.py checks it in random play). ``map`` gives the map the mission is
played on instead of its own — inline in the map file's schema, or a map id or path
(:func:`map_board`) — and is written back.

⚙ Defaults for a hand-written unit: side from the name (``US3`` / ``G2``); a US soldier's
role, ratings, weapon and equipment from the mission's squad by his number, a German's
from his card (``role`` names it); aware; a full clip; on the map at ``hex``; every German
listed is a known contact unless ``contacts`` says which are. A wounded unit without
explicit ``MV`` / ``port_boxes`` gets the wounded values of ``damage.yaml``. Without
``vehicles`` the mission's vehicles stand where they start, empty. The dice: ``rng`` (what
:func:`write_position` writes), else a generator seeded with ``seed`` (0 when neither is
given); ``dice`` are rolls used before either. A generated mission's position carries its
mission seed (``procedural``), from which its map is rebuilt, so it loads on its own. Play advances to the first decision on
loading: ``phase: rounds`` with no unit's marker on the Action Round track (``round: 0``
or a Round played out) starts the next Round, rolling initiative.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import MISSING, fields
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import K_SLOTS, U_SLOTS
from ambush_env.core.model.state import DECISION_MODES, GameState, TurnState, Unit, Vehicle
from ambush_env.core.model.types import (
    DIRECTION_NAMES,
    REMOVED,
    RESULT_NAMES,
    STANCE_NAMES,
    TERRAIN_NAMES,
    ARSpace,
    Phase,
    Side,
    Status,
)
from ambush_env.core.rules.ctx import Ctx
from ambush_env.core.world.board import Board
from ambush_env.core.world.cards import ID_PATTERN
from ambush_env.core.world.data import validate
from ambush_env.core.world.squads import PORT_BOXES_BOUNDS, Role
from ambush_env.core.world.squads import RATING_BOUNDS as _R

FORMAT: Final = "ambush-position/1"
WHERE = "<position>"
PHASES = ("operations", "rounds", "over")
STATUSES = tuple(s.name.lower() for s in Status)
AR_SPACES = ("none", "2-turn", "1-turn", "complete", "panic", "inactive")
SIDES = ("us", "german")
MODES = ("", "move", "snap2", "charge", "prisoner", "drive", "free_snap", "throw_out")
#: a vehicle's flags, and the counters and flags of a turn in progress: held alike by a position
#: and by the state (same names, same values), read and written by :func:`_as_given`
VEHICLE_FLAGS = ("disabled", "immobilised", "closed", "tyre_shot", "captured", "exited")
TURN_FIELDS = (
    "mode",
    "mp_left",
    "mp_spent",
    "hexes_moved",
    "stance_changed",
    "snaps",
    "alerted",
    "acted",
    "boarded",
    "accident_checked",
)
#: the highest roll a die reads (a d100's 100): forced rolls (``dice``, ``rng.forced``) are
#: 0..MAX_ROLL, as ``Game.force_rolls`` takes them; the die that reads one checks its range
MAX_ROLL = 100

#: The fields of the state's dataclasses (core/model/state.py) that a position does not write,
#: each with where reading takes it from; every other field of GameState, Unit, Vehicle and
#: TurnState is written by :func:`write_position` and read back identically by
#: :func:`read_position` (tests/core/test_position_fields.py walks ``dataclasses.fields``
#: against this list, so that a field added later cannot be forgotten by either).
DERIVED: dict[str, dict[str, str]] = {
    "GameState": {"mission": "the context's mission id (the position's ``mission``)"},
    "Unit": {"uid": "its index in ``units``"},
    "Vehicle": {"vid": "its index in ``vehicles``"},
    "TurnState": {},
}

#: The fields of a tank's own unit that come from its tank (``tanks.link``, seed 000 p. 31):
#: its hex, the crew's IN, PC, WS, DS (``vehicles.yaml: crew_ratings``), no weapon, no MV or CR
#: of its own. A position writes them; reading sets them from the tank and refuses a value
#: that differs (``DataError`` naming ``units.k.<field>``).
TANK_UNIT_DERIVED = ("hex", "IN", "PC", "WS", "DS", "MV", "CR", "weapon", "ammo")

#: The fields of a tank that come from its unit (``tanks.link``): its driver is its own unit
#: (given, it must be that unit: ``vehicles.k.driver``).
TANK_VEHICLE_DERIVED = ("driver",)


def _bool_as_number(value: Any, annotation: Any) -> bool:
    """Whether ``value`` holds a true/false where ``annotation`` wants a number (pydantic's lax
    ``int`` would read it as 1 or 0), also inside a list, tuple or dict of numbers."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _bool_as_number(value, args[0])
    if origin in (Union, UnionType):
        return any(_bool_as_number(value, a) for a in args) and not (
            isinstance(value, bool) and (bool in args or Any in args)
        )
    if isinstance(value, bool):
        return annotation in (int, float)
    if isinstance(value, list) and origin is list and args:
        return any(_bool_as_number(v, args[0]) for v in value)
    if isinstance(value, (list, tuple)) and origin is tuple and args:
        return any(_bool_as_number(v, a) for v, a in zip(value, args, strict=False))
    if isinstance(value, dict) and origin is dict and len(args) == 2:
        return any(_bool_as_number(v, args[1]) for v in value.values())
    return False


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_numbers(cls, value: Any, info: Any) -> Any:
        """⚙ true/false is no number: ``round: true`` is refused (naming the field), not read
        as 1 (issue 23)."""
        if isinstance(value, (bool, list, tuple, dict)) and _bool_as_number(
            value, cls.model_fields[info.field_name].annotation
        ):
            raise ValueError(f"a number, not true/false: {value!r:.60}")
        return value


class CardSpec(_Model):
    column: str = ""
    row: int = -1
    step: int = Field(default=0, ge=0)
    acted: bool = False
    path: list[str] = []


class TurnSpec(_Model):
    unit: str | None = None
    mode: Literal["", "move", "snap2", "charge", "prisoner", "drive", "free_snap", "throw_out"] = ""
    mp_left: int = Field(default=0, ge=0)
    mp_spent: int = Field(default=0, ge=0)
    hexes_moved: int = Field(default=0, ge=0)
    stance_changed: bool = False
    snaps: int = Field(default=0, ge=0)
    alerted: bool = False
    acted: bool = False
    boarded: bool = False
    accident_checked: bool = False
    run_over_hexes: list[str] = []
    cp_left: int = Field(default=-1, ge=-1)
    tasks: list[str] = []
    card: CardSpec = CardSpec()
    # the decisions that interrupt a turn (RULES.md §7, §9): free_snap's sighted German,
    # throw_out's thrower, the hex his grenade landed in and whether it scattered there
    target: str | None = None
    target_hex: str | None = None
    scattered: bool = False


class UnitSpec(_Model):
    name: str = Field(min_length=1)
    side: Literal["us", "german"] | None = None
    role: str | None = None
    hex: str | None = None
    stance: Literal["standing", "crouching", "prone"] = "standing"
    status: Literal[
        "active", "incapacitated", "killed", "captured", "removed", "hidden", "wounded", "panicked"
    ] = "active"
    wounded: bool = False
    panicked: bool = False
    aware: bool = True
    ar: Literal["none", "2-turn", "1-turn", "complete", "panic", "inactive"] = "none"
    # a soldier's ratings within a squad file's bounds (squads.RATING_BOUNDS; MV down to 0
    # when wounded), a tank unit's its crew's (_Reader.check_counts, check_tank_unit)
    IN: int | None = None
    PC: int | None = None
    WS: int | None = None
    DS: int | None = None
    MV: int | None = None
    CR: int | None = None
    weapon: str | None = None
    ammo: int | None = Field(default=None, ge=-1)
    jammed: bool = False
    prepared: bool = False
    equipment: list[str] | None = None
    port_boxes: int | None = Field(default=None, ge=0, le=PORT_BOXES_BOUNDS[1])
    satchel_ready: bool = False
    given_turn: bool = False
    captured_weapon: bool = False
    guard: str | None = None
    vehicle: str | None = None
    route: list[str] = []
    escaped: bool = False
    exited: bool = False
    slot: int | None = None


class VehicleSpec(_Model):
    name: str = Field(min_length=1)
    type: str
    side: Literal["us", "german"]
    hex: str | None = None
    facing: Literal["N", "NE", "SE", "S", "SW", "NW"] = "N"
    driver: str | None = None
    passengers: list[str] = []
    disabled: bool = False
    immobilised: bool = False
    closed: bool = False
    tyre_shot: bool = False
    wrecked: bool = False  # disabled by its own driving (written only when set)
    captured: bool = False
    exited: bool = False
    crew: int | None = Field(default=None, ge=0)
    unit: str | None = None
    cannon_loaded: bool = False
    lost: list[Literal["cannon", "coax", "bow"]] = []
    jammed_mgs: list[Literal["coax", "bow"]] = []
    card: str = ""
    # rules="d100" only (seed 003; Vehicle's attributes of the same names); written only when
    # they differ from an undamaged vehicle's
    hp: int = Field(default=-1, ge=-1)
    armour_loss: dict[Literal["front", "side", "rear"], Annotated[int, Field(ge=1)]] = {}
    component_damage: dict[str, Annotated[int, Field(ge=1)]] = {}
    destroyed: list[str] = []
    burning: bool = False
    fire_dice: str = ""
    countdowns: dict[Literal["stop", "overheat"], Annotated[int, Field(ge=1)]] = {}
    mpa_quarters: int = Field(default=4, ge=1, le=4)
    hull_crew: int = Field(default=-1, ge=-1)
    moved_mp: int = Field(default=0, ge=0)


class MineSpec(_Model):
    """A minefield hex (module ``mines``; seed 000 p. 32): its kind, and whether the US knows it."""

    hex: str
    kind: Literal["anti_personnel", "anti_tank"] = "anti_personnel"
    known: bool = True


class LandmarkSpec(_Model):
    """A landmark a ``landmark`` effect declared (RULES.md §3, §15): hex, name, blocking."""

    hex: str
    name: str = Field(min_length=1)
    blocking: bool = False


class PositionSpec(_Model):
    format: Literal["ambush-position/1"] = FORMAT
    mission: str | dict
    # the mission seed of a generated mission (``procedural.generate(seed)``): its map is
    # rebuilt from it, so the position loads on its own; ``mission`` is then the inline
    # mission (the generated one, or a variant of it) or the generated mission's id
    procedural: int | None = Field(default=None, ge=0)
    # the map the mission is played on, when not its own (docs/API.md "the mission (id, path,
    # or an inline map)"): a map inline, in the map file's own schema (core/world/board.py), or a
    # shipped map id or a map file's path; an inline mission may hold it as its ``map``
    map: str | dict | None = None
    rules: Literal["standard", "d100"] = "standard"
    deck: str = "regular"
    german: Literal["cards", "agent"] = "cards"
    phase: Literal["operations", "rounds", "over"] = "operations"
    round: int = Field(default=0, ge=0)
    rounds_total: int = Field(default=0, ge=0)
    pulse: int = Field(default=0, ge=0)
    initiative: Literal["us", "german"] | None = None
    rolls: dict[Literal["us", "german"], Annotated[int, Field(ge=0, le=9)]] = {}  # d10s
    vp: int = 0
    vp_log: list[tuple[str, int]] = []
    fired_triggers: list[str] = []
    flags: list[str] = []
    ops_done: list[str] = []
    turn: TurnSpec = TurnSpec()
    # the turn a free snap or throw-out decision (turn.mode free_snap / throw_out, RULES.md
    # §7, §9) interrupted; written only while one is being decided
    interrupted: TurnSpec | None = None
    pending: list[list[Any]] = []
    units: list[UnitSpec] = Field(min_length=1)
    contacts: list[str] | None = None
    german_contacts: list[str] = []
    next_german: int | None = Field(default=None, ge=1)
    items: dict[str, list[str]] = {}
    vehicles: list[VehicleSpec] | None = None
    board: dict[Literal["collapsed", "destroyed_walls"], list[str]] = {}
    minefields: list[MineSpec] = []
    dead_triggers: list[str] = []
    # mission-language state (written only when not the default, so older positions read
    # and write as before): landmarks declared in play, the map booby traps gone, the
    # mission Round a ``command`` effect keeps every US soldier in command through
    landmarks: list[LandmarkSpec] = []
    booby_traps_gone: list[str] = []
    command_until: int = Field(default=0, ge=0)
    over: bool = False
    result: Literal["loss", "draw", "win", "decisive_win"] | None = None
    end_reason: str = ""
    steps: int = Field(default=0, ge=0)
    rng: dict | None = None
    seed: int | None = Field(default=None, ge=0)
    dice: list[int] = []
    env: dict | None = None  # an env's own counters (``AmbushEnv.get_state``); the game ignores it


# ------------------------------------------------------------------------------ reading
def parse(p: dict | Path | str) -> PositionSpec:
    """Validate a position given as a dict, a YAML file (``Path``) or YAML text (``str``).

    Raises:
        DataError: unreadable YAML or a field that does not fit (names the field).
    """
    where: Any = WHERE
    if (
        isinstance(p, str)
        and "\n" not in p
        and p.strip().endswith((".yaml", ".yml"))
        and Path(p.strip()).is_file()
    ):
        p = Path(p.strip())  # a path given as text
    if isinstance(p, Path):
        where = p
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise DataError(p, "<file>", f"cannot read: {e}") from None
        p = text
    if isinstance(p, str):
        try:
            p = yaml.safe_load(p)
        except yaml.YAMLError as e:
            raise DataError(
                where, "<yaml>", f"YAML syntax error: {getattr(e, 'problem', e)}"
            ) from None
    if not isinstance(p, dict):
        raise DataError(where, "<root>", f"a position is a mapping, got {type(p).__name__}")
    spec = validate(PositionSpec, p, where)
    if isinstance(spec.mission, dict) and isinstance(spec.mission.get("map"), dict):
        # an inline mission holding its map inline: the map becomes the position's ``map``
        # and the mission names it (by its name when that is an id, else ``inline_map``)
        inline = spec.mission["map"]
        if spec.map is not None and spec.map != inline:
            raise DataError(
                where,
                "map",
                "the inline mission holds another map than the position's map: give it once",
            )
        name = inline.get("name")
        spec.map = inline
        spec.mission = {
            **spec.mission,
            "map": name
            if isinstance(name, str) and re.fullmatch(ID_PATTERN, name)
            else "inline_map",
        }
    return spec


def map_board(ref: str | dict) -> Board:
    """The board of a position's ``map``: a map inline (the map file's own schema, checked by
    :func:`~ambush_env.core.world.board.board_from_dict` with its errors) or a shipped map id or a map
    file's path (:func:`~ambush_env.core.world.board.load_board`). Its ``origin`` is ``ref`` (a
    copy), which the positions of a game on it write back.

    Raises:
        DataError: a malformed inline map (field ``map.<its field>``, e.g.
            ``map.hexes.C3.terrain``) or an unknown or malformed map file (field ``map``).
    """
    import copy

    from ambush_env.core.world.board import board_from_dict, load_board

    try:
        board = (
            board_from_dict(copy.deepcopy(ref), WHERE) if isinstance(ref, dict) else load_board(ref)
        )
    except DataError as e:
        raise DataError(
            WHERE,
            f"map.{e.field}" if isinstance(ref, dict) else "map",
            e.problem if isinstance(ref, dict) else str(e),
        ) from None
    board.origin = copy.deepcopy(ref)
    return board


def map_fits(ctx: Ctx, spec: PositionSpec) -> bool:
    """Whether the position's ``map`` is the one ``ctx`` is played on (none: the mission's own
    or a generated one)."""
    return ctx.board.origin == spec.map


def mission_of(spec: PositionSpec) -> Any:
    """The mission argument for :class:`~ambush_env.core.rules.ctx.Ctx`: an id, a path, or an
    inline mission validated like a mission file (:func:`mission_and_board`'s mission)."""
    return mission_and_board(spec)[0]


def mission_and_board(spec: PositionSpec) -> tuple[Any, Board | None]:
    """The mission and board arguments for :class:`~ambush_env.core.rules.ctx.Ctx`.

    The board is the position's ``map`` when it gives one (:func:`map_board`: the context
    checks the mission's hexes and vehicles against it). Else it is None (the mission's own
    map) unless the position is of a generated mission
    (``procedural: seed``): then it is ``procedural.generate(seed)``'s new map, and the
    mission is the inline one (the context checks its hexes and vehicles against that map;
    the generated mission itself when they are equal) or, named by id, the generated one.

    Raises:
        DataError: a malformed inline mission (field ``mission.<its field>``) or inline map
            (``map.<its field>``), a vehicle off its map's passable hexes, or a
            ``procedural`` seed that generates no mission or another mission id than the one
            named, or given with a ``map``.
    """
    from ambush_env.core.world.missions import Mission, check_vehicles

    board = generated = None
    if spec.map is not None:
        if spec.procedural is not None:
            raise DataError(
                WHERE,
                "map",
                "a generated mission's map is rebuilt from its seed "
                "(procedural): give map or procedural, not both",
            )
        board = map_board(spec.map)
    if spec.procedural is not None:
        from ambush_env.core.model.errors import AmbushError
        from ambush_env.core.play.procedural import generate

        try:
            generated, board = generate(spec.procedural)
        except AmbushError as e:
            raise DataError(WHERE, "procedural", str(e)) from None
        if isinstance(spec.mission, str):
            if spec.mission != generated.id:
                raise DataError(
                    WHERE,
                    "mission",
                    f"procedural seed {spec.procedural} generates "
                    f"{generated.id!r}, not {spec.mission!r}",
                )
            return generated, board
    if isinstance(spec.mission, dict):
        try:
            mission = validate(Mission, spec.mission, WHERE)
            if board is None:  # else the context checks them against the generated map
                check_vehicles(mission, WHERE)
        except DataError as e:
            raise DataError(WHERE, f"mission.{e.field}", e.problem) from None
        return (generated if mission == generated else mission), board
    return spec.mission, board


class _Reader:
    """Builds a GameState from a validated spec on a context, naming bad fields."""

    def __init__(self, ctx: Ctx, spec: PositionSpec) -> None:
        self.ctx, self.spec = ctx, spec
        self.board = ctx.board
        self.names: dict[str, int] = {}
        self.vnames: dict[str, int] = {}

    def fail(self, field: str, msg: str) -> DataError:
        return DataError(WHERE, field, msg)

    def hex(self, label: str | None, field: str, *, none_ok: bool = True) -> int:
        if label is None:
            if none_ok:
                return -1
            raise self.fail(field, "a hex label is required")
        try:
            return self.board.index(label)
        except Exception:
            raise self.fail(field, f"{label!r} is not a hex of the map") from None

    def uid(self, name: str | None, field: str) -> int:
        return self.lookup(self.names, "unit", name, field)

    def vid(self, name: str | None, field: str) -> int:
        return self.lookup(self.vnames, "vehicle", name, field)

    def lookup(self, names: dict[str, int], what: str, name: str | None, field: str) -> int:
        """The number of the unit or vehicle ``name`` (-1 for None); DataError at ``field``."""
        if name is None:
            return -1
        if name not in names:
            raise self.fail(field, f"no {what} named {name!r}")
        return names[name]

    def markers(self, f: str, us: UnitSpec) -> dict[str, Any]:
        """The fields of a unit read alike for a soldier and a tank's unit: stance, status and
        its flags, AR space, weapon flags, route (``<f>.route.<j>`` named on a bad hex)."""
        status, wounded, panicked = _status(us)
        return dict(
            stance=STANCE_NAMES.index(us.stance),
            status=STATUSES.index(status),
            wounded=wounded,
            panicked=panicked,
            aware=us.aware,
            ar=AR_SPACES.index(us.ar),
            jammed=us.jammed,
            prepared=us.prepared,
            satchel_ready=us.satchel_ready,
            given_turn=us.given_turn,
            captured_weapon=us.captured_weapon,
            route=[self.hex(h, f"{f}.route.{j}", none_ok=False) for j, h in enumerate(us.route)],
            escaped=us.escaped,
            exited=us.exited,
        )

    def state(self) -> GameState:
        sp, ctx = self.spec, self.ctx
        st = GameState(mission=ctx.mission_id)
        for k, us in enumerate(sp.units):
            if us.name in self.names:
                raise self.fail(f"units.{k}.name", f"two units are named {us.name!r}")
            self.names[us.name] = k
        vspecs = sp.vehicles
        start = ctx.start_vehicles() if vspecs is None else []
        for v in start:
            self.vnames[v.name] = v.vid
        if vspecs is not None:
            for k, vs in enumerate(vspecs):
                if vs.name in self.vnames:
                    raise self.fail(f"vehicles.{k}.name", f"two vehicles are named {vs.name!r}")
                self.vnames[vs.name] = k
        st.units = [self.unit(k, us) for k, us in enumerate(sp.units)]
        seen_slots: dict[tuple[int, int], str] = {}
        for k, u in enumerate(st.units):
            if u.slot >= 0:
                if (u.side, u.slot) in seen_slots:
                    raise self.fail(
                        f"units.{k}.slot",
                        f"{u.name} and {seen_slots[(u.side, u.slot)]} share slot {u.slot}",
                    )
                seen_slots[(u.side, u.slot)] = u.name
        if sum(1 for u in st.units if u.side == Side.US) > U_SLOTS:
            raise self.fail("units", f"at most {U_SLOTS} US units")
        if vspecs is None:  # the mission's vehicles, as at its start
            st.vehicles = start
            for u in st.units:
                if u.vehicle >= 0:
                    raise self.fail(
                        "vehicles",
                        f"{u.name} rides {st.vehicles[u.vehicle].name}: "
                        "list the vehicles with their seats",
                    )
        else:
            st.vehicles = [self.vehicle(k, vs) for k, vs in enumerate(vspecs)]
            self.check_vehicles(st)  # before the tanks' units are seated (tanks.link)
        self.tank_units(st)
        st.phase = PHASES.index(sp.phase)
        st.round, st.rounds_total, st.pulse = sp.round, sp.rounds_total, sp.pulse
        st.initiative = -1 if sp.initiative is None else SIDES.index(sp.initiative)
        st.us_roll, st.german_roll = sp.rolls.get("us", 0), sp.rolls.get("german", 0)
        st.vp = sp.vp
        st.vp_log = [[r, a] for r, a in sp.vp_log]
        st.fired_triggers = [
            self.hex(h, f"fired_triggers.{k}", none_ok=False)
            for k, h in enumerate(sp.fired_triggers)
        ]
        st.flags = list(sp.flags)
        st.ops_done = [self.uid(n, f"ops_done.{k}") for k, n in enumerate(sp.ops_done)]
        st.turn = self.turn(sp.turn, st)
        if vspecs is not None:
            self.check_stacking(st)
        if st.turn.uid >= 0 and st.turn.cp_left < 0 and st.units[st.turn.uid].role == "tank":
            st.turn.cp_left = st.vehicles[st.units[st.turn.uid].vehicle].crew  # ⚙ not yet counted
        st.pending = [self.request(k, r, st) for k, r in enumerate(sp.pending)]
        if sp.contacts is None:
            st.contacts = [
                u.uid
                for u in st.units
                if u.side == Side.GERMAN and u.hex >= 0 and u.status != Status.HIDDEN
            ]
        else:
            st.contacts = [self.uid(n, f"contacts.{k}") for k, n in enumerate(sp.contacts)]
            for k, uid in enumerate(st.contacts):
                if st.units[uid].side != Side.GERMAN:
                    raise self.fail(f"contacts.{k}", f"{sp.contacts[k]} is not a German")
                if uid in st.contacts[:k]:
                    raise self.fail(f"contacts.{k}", f"{sp.contacts[k]} is listed twice")
        if len(st.contacts) > K_SLOTS:
            raise self.fail("contacts", f"at most {K_SLOTS} contacts (the contact slots)")
        self.decision(sp, st)
        st.german_contacts = [
            self.uid(n, f"german_contacts.{k}") for k, n in enumerate(sp.german_contacts)
        ]
        for k, uid in enumerate(st.german_contacts):
            if st.units[uid].side != Side.US or uid in st.german_contacts[:k]:
                raise self.fail(f"german_contacts.{k}", "a US unit, listed once")
        if len(st.german_contacts) > K_SLOTS:
            raise self.fail("german_contacts", f"at most {K_SLOTS} contacts (the contact slots)")
        germans = [u for u in st.units if u.side == Side.GERMAN]
        st.next_german = (
            sp.next_german
            if sp.next_german is not None
            else 1 + max((_number(u.name) for u in germans), default=0)
        )
        st.items = {}
        for label, items in sp.items.items():
            bad = [i for i in items if i in ctx.tables.d100_only] if ctx.rules != "d100" else []
            if bad:
                raise self.fail(
                    f"items.{label}", f"{bad[0]!r} exists only under rules 'd100' (seed 003)"
                )
            for j, item in enumerate(items):
                self.loose_item(item, f"items.{label}.{j}")
            st.items[str(self.hex(label, f"items.{label}", none_ok=False))] = list(items)
        st.board = {
            "collapsed": list(sp.board.get("collapsed", [])),
            "destroyed_walls": list(sp.board.get("destroyed_walls", [])),
        }
        for k, lab in enumerate(st.board["collapsed"]):
            self.hex(lab, f"board.collapsed.{k}", none_ok=False)
        for k, lab in enumerate(st.board["destroyed_walls"]):
            parts = lab.split("/")
            ok = len(parts) == 2
            if ok:
                a = self.hex(parts[0], f"board.destroyed_walls.{k}", none_ok=False)
                b = self.hex(parts[1], f"board.destroyed_walls.{k}", none_ok=False)
                ok = self.board.direction(a, b) is not None and self.board.hexside(a, b) is not None
            if not ok:
                raise self.fail(
                    f"board.destroyed_walls.{k}",
                    f"{lab!r} is not a hexside of two neighbouring hexes ('Q16/Q17')",
                )
        for k, ms in enumerate(sp.minefields):
            h = self.hex(ms.hex, f"minefields.{k}.hex", none_ok=False)
            if h in st.minefields or h in st.at_minefields:
                raise self.fail(f"minefields.{k}.hex", f"{ms.hex} is listed twice")
            (st.minefields if ms.kind == "anti_personnel" else st.at_minefields).append(h)
            if ms.known:
                st.known_mines.append(h)
        st.known_mines.sort()  # the order the rules keep them in (mines.lay, mines.reveal)
        st.dead_triggers = [
            self.hex(h, f"dead_triggers.{k}", none_ok=False) for k, h in enumerate(sp.dead_triggers)
        ]
        for k, ls in enumerate(sp.landmarks):
            h = self.hex(ls.hex, f"landmarks.{k}.hex", none_ok=False)
            if any(x[0] == h for x in st.landmarks):
                raise self.fail(f"landmarks.{k}.hex", f"{ls.hex} holds two landmarks")
            st.landmarks.append((h, ls.name, ls.blocking))
        for k, lab in enumerate(sp.booby_traps_gone):
            h = self.hex(lab, f"booby_traps_gone.{k}", none_ok=False)
            if h not in ctx.booby_traps:
                raise self.fail(
                    f"booby_traps_gone.{k}", f"{lab} holds no booby trap of the mission"
                )
            if h not in st.traps_gone:
                st.traps_gone.append(h)
        st.command_until = sp.command_until
        st.over = sp.over
        st.result = -1 if sp.result is None else RESULT_NAMES.index(sp.result)
        st.end_reason = sp.end_reason
        st.steps = sp.steps
        return st

    def tank_units(self, st: GameState) -> None:
        """Every tank gets its unit (module ``tanks``): the one listed (``role: tank``, or the
        vehicle's ``unit``), else one is made ⚙ (a position may list a tank without it)."""
        from ambush_env.core.vehicles.tanks import TANK_ROLE, link_tank_units
        from ambush_env.core.world.vehicle_data import load_vehicle_data

        types = load_vehicle_data().vehicles
        for k, v in enumerate(st.vehicles):
            if v.unit >= 0 and types[v.type].kind != "tank":
                raise self.fail(
                    f"vehicles.{k}.unit", f"{v.name} is no tank: only a tank has a unit"
                )
        for k, u in enumerate(st.units):
            if u.role != TANK_ROLE:
                continue
            if u.vehicle < 0 or types[st.vehicles[u.vehicle].type].kind != "tank":
                raise self.fail(f"units.{k}.vehicle", f"the tank unit {u.name} names no tank")
            v = st.vehicles[u.vehicle]
            if v.unit >= 0 and v.unit != u.uid:
                raise self.fail(f"units.{k}.vehicle", f"{v.name} has another unit")
        for k, u in enumerate(st.units):
            if (
                u.role != TANK_ROLE
                and u.vehicle >= 0
                and types[st.vehicles[u.vehicle].type].kind == "tank"
            ):
                raise self.fail(f"units.{k}.vehicle", "nobody can board a tank (seed 000 p. 31)")
        link_tank_units(st)
        for k, u in enumerate(st.units):
            if u.role == TANK_ROLE and k < len(self.spec.units):
                self.check_tank_unit(k, u)
        for u in st.units:  # a tank unit given no slot takes the lowest free one of its side
            if u.role == TANK_ROLE and u.slot < 0:
                taken = {o.slot for o in st.units if o.side == u.side}
                u.slot = next(s for s in range(U_SLOTS + 64) if s not in taken)
            if u.role == TANK_ROLE and u.side == Side.US and u.slot >= U_SLOTS:
                raise self.fail("units", f"at most {U_SLOTS} US units (a tank takes a unit slot)")

    def loose_item(self, item: str, f: str) -> None:
        """Check an item lying on the map: a port-box item of ``weapons.yaml`` or a weapon laid
        down, ``weapon:<id>[:<shots left>[:jammed]]`` (module ``carry``).

        Raises:
            DataError: an unknown item or weapon, or shots outside the weapon's clip.
        """
        items, weapons = self.ctx.tables.weapons.items, self.ctx.tables.weapons.weapons
        if item in items:
            return
        m = re.fullmatch(r"weapon:([^:]+)(?::(-?[0-9]+)(:jammed)?)?", item)
        if m is None or m.group(1) not in weapons:
            raise self.fail(
                f,
                f"unknown item {item!r}: an item of weapons.yaml ("
                f"{', '.join(sorted(items))}) or weapon:<weapon id>[:<shots>[:jammed]]",
            )
        clip = self.ctx.weapon(m.group(1)).clip
        if m.group(2) is not None and not (
            int(m.group(2)) == -1 if clip < 0 else 0 <= int(m.group(2)) <= clip
        ):
            raise self.fail(
                f,
                f"shots left of a laid-down {m.group(1)}: "
                f"{'-1' if clip < 0 else f'0-{clip}'}, got {m.group(2)}",
            )

    def unit(self, k: int, us: UnitSpec) -> Unit:
        f = f"units.{k}"
        ctx = self.ctx
        if us.role == "tank":
            return self.tank_unit(k, us)
        side = us.side or (
            "us"
            if us.name.upper().startswith("US")
            else "german"
            if us.name.upper().startswith("G")
            else None
        )
        if side is None:
            raise self.fail(f"{f}.side", f"say the side of {us.name!r} (us or german)")
        if side == "us":
            num = _number(us.name)
            soldiers = ctx.squad.soldiers
            base = soldiers[num - 1] if 1 <= num <= len(soldiers) else None
            if base is not None:
                role = us.role or base.role
                weapon = us.weapon if us.weapon is not None else base.weapon
            elif us.role is None or us.weapon is None:
                raise self.fail(
                    f"{f}.name",
                    f"{us.name!r} is not a soldier of the squad "
                    f"(US1..US{len(soldiers)}): give role, weapon and ratings",
                )
            else:
                role, weapon = us.role, us.weapon
            rating = lambda r: getattr(base, r) if base is not None else (4 if r == "MV" else 0)  # noqa: E731
            if us.role is not None and us.role not in get_args(Role):
                raise self.fail(
                    f"{f}.role",
                    f"a US soldier's role is one of {list(get_args(Role))}, got {us.role!r}",
                )
            equipment = (
                us.equipment
                if us.equipment is not None
                else list(base.equipment)
                if base is not None
                else []
            )
            if us.status == "captured":
                raise self.fail(f"{f}.status", "only Germans are taken prisoner (seed 002 p. 25)")
            slot = us.slot if us.slot is not None else (num - 1 if num >= 1 else k)
        else:
            if us.role is None or us.role not in ctx.cards:
                raise self.fail(
                    f"{f}.role", f"a German's role is his card: one of {sorted(ctx.cards)}"
                )
            card = ctx.cards[us.role]
            rating = lambda r: getattr(card, r, 0) or (4 if r == "MV" else 0)  # noqa: E731
            role = us.role
            weapon = us.weapon if us.weapon is not None else card.weapon
            equipment = us.equipment if us.equipment is not None else list(card.equipment)
            slot = (
                us.slot
                if us.slot is not None
                else sum(
                    1
                    for o in self.spec.units[:k]
                    if (o.side or ("us" if o.name.upper().startswith("US") else "german"))
                    == "german"
                )
            )
        if side == "us" and not 0 <= slot < U_SLOTS:
            raise self.fail(f"{f}.slot", f"a US unit slot is 0..{U_SLOTS - 1}, got {slot}")
        if side == "german" and not -1 <= slot < U_SLOTS:
            raise self.fail(f"{f}.slot", f"a German unit slot is -1..{U_SLOTS - 1}, got {slot}")
        if weapon and weapon not in ctx.tables.weapons.weapons:
            raise self.fail(f"{f}.weapon", f"unknown weapon {weapon!r}")
        if ctx.rules != "d100":  # seed 003's weapons and charges exist only under its module
            gear = [("weapon", weapon)] + [(f"equipment.{j}", e) for j, e in enumerate(equipment)]
            for where, g in gear:
                if g in ctx.tables.d100_only:
                    raise self.fail(
                        f"{f}.{where}", f"{g!r} exists only under rules 'd100' (seed 003)"
                    )
        u = Unit(
            uid=k,
            side=SIDES.index(side),
            name=us.name,
            role=role,
            hex=self.hex(us.hex, f"{f}.hex"),
            **self.markers(f, us),
            IN=_pick(us.IN, rating("IN")),
            PC=_pick(us.PC, rating("PC")),
            WS=_pick(us.WS, rating("WS")),
            DS=_pick(us.DS, rating("DS")),
            MV=_pick(us.MV, rating("MV")),
            CR=_pick(us.CR, rating("CR")),
            weapon=weapon or "",
            equipment=list(equipment),
            slot=slot,
        )
        u.ammo = us.ammo if us.ammo is not None else (ctx.weapon(weapon).clip if weapon else -1)
        wounded_rules = ctx.tables.damage.wounded
        u.port_boxes = (
            us.port_boxes
            if us.port_boxes is not None
            else (min(4, wounded_rules.port_boxes) if u.wounded else 4)
        )
        if u.wounded and us.MV is None:
            u.MV = min(u.MV, wounded_rules.mv)
        u.guard = self.uid(us.guard, f"{f}.guard")
        u.vehicle = self.vid(us.vehicle, f"{f}.vehicle")
        self.check_counts(k, u)
        return u

    def check_counts(self, k: int, u: Unit) -> None:
        """The counts of ``units.k`` the schema cannot check alone: a soldier's ratings within
        a squad file's bounds (squads.RATING_BOUNDS; a wounded man's MV lower, damage.yaml; a
        tank unit's are its crew's, :meth:`check_tank_unit`),
        the shots left within the loaded clip of the weapon (``weapons.yaml: clip``; −1 only
        for a weapon that never runs dry, 0 or −1 without a weapon), and the port-box items
        known (``weapons.yaml: items``) and filling at most ``port_boxes`` boxes (RULES.md §4)
        when the position gives either.

        Raises:
            DataError: naming ``units.k.<rating>`` / ``.ammo`` / ``.equipment[.j]``.
        """
        f, us = f"units.{k}", self.spec.units[k]
        for r, (lo, hi) in _R.items() if u.role != "tank" else ():  # a tank's: its crew's
            x = getattr(us, r)
            if r == "MV" and u.wounded:
                lo = 0  # a wounded man's MV drops (seed 002 p. 26; damage.yaml)
            if x is not None and not lo <= x <= hi:
                raise self.fail(
                    f"{f}.{r}",
                    f"{r} is {lo}-{hi} (a squad file's bounds"
                    f"{'; lower only when wounded' if r == 'MV' and lo else ''}), "
                    f"got {x}",
                )
        if u.role != "tank":  # a tank unit's ammo comes from its tank (check_tank_unit)
            clip = self.ctx.weapon(u.weapon).clip if u.weapon else 0
            ok = (
                u.ammo == -1
                if clip < 0
                else (-1 <= u.ammo <= 0 if not u.weapon else 0 <= u.ammo <= clip)
            )
            if not ok:
                what = (
                    f"a {u.weapon} never runs dry: -1"
                    if clip < 0
                    else "without a weapon: 0 or -1"
                    if not u.weapon
                    else f"a {u.weapon}'s clip holds 0-{clip}"
                )
                raise self.fail(f"{f}.ammo", f"shots left: {what}, got {u.ammo}")
        items = self.ctx.tables.weapons.items
        for j, item in enumerate(u.equipment):
            if item not in items:
                raise self.fail(
                    f"{f}.equipment.{j}",
                    f"unknown item {item!r} (weapons.yaml items: {', '.join(sorted(items))})",
                )
        used = sum(items[i].boxes for i in u.equipment)
        # ⚙ checked when the position gives either (a written one gives both): a hand-written
        # wounded man keeps his squad's kit in his one box, as before
        given = us.equipment is not None or us.port_boxes is not None
        if given and used > u.port_boxes:
            raise self.fail(
                f"{f}.equipment",
                f"{used} port boxes filled ({', '.join(u.equipment)}); {u.name} has {u.port_boxes}",
            )

    def tank_unit(self, k: int, us: UnitSpec) -> Unit:
        """A tank's own unit (module ``tanks``): every field read as a soldier's is, but those
        that come from its tank (:data:`TANK_UNIT_DERIVED`: its hex, the crew's ratings, no
        weapon), which :meth:`tank_units` sets and checks."""
        f = f"units.{k}"
        if us.vehicle is None:
            raise self.fail(f"{f}.vehicle", f"the tank unit {us.name!r} names its tank")
        side = us.side  # ⚙ left out: the side of the tank it names
        if side is None:
            side = next(
                (vs.side for vs in (self.spec.vehicles or []) if vs.name == us.vehicle), None
            )
        if side is None:
            raise self.fail(f"{f}.side", f"say the side of the tank unit {us.name!r}")
        u = Unit(
            uid=k,
            side=SIDES.index(side),
            name=us.name,
            role="tank",
            **self.markers(f, us),
            equipment=list(us.equipment) if us.equipment is not None else [],
            port_boxes=us.port_boxes if us.port_boxes is not None else 0,
            slot=us.slot if us.slot is not None else -1,
        )
        u.guard = self.uid(us.guard, f"{f}.guard")
        u.vehicle = self.vid(us.vehicle, f"{f}.vehicle")
        self.check_counts(k, u)
        return u

    def check_tank_unit(self, k: int, u: Unit) -> None:
        """The fields of the tank unit ``units.k`` that come from its tank
        (:data:`TANK_UNIT_DERIVED`, set by ``tanks.link``), where the position gives them, are
        what its tank gives (a written position always agrees)."""
        us, b = self.spec.units[k], self.board
        given = {name: getattr(us, name) for name in TANK_UNIT_DERIVED}
        now = {name: getattr(u, name) for name in TANK_UNIT_DERIVED}
        now["hex"] = b.label(u.hex) if u.hex >= 0 else None
        for name, x in given.items():
            if x is not None and x != now[name]:
                raise self.fail(
                    f"units.{k}.{name}",
                    f"a tank unit's {name} comes from its tank "
                    f"(seed 000 p. 31; {self.spec.units[k].vehicle}: {now[name]!r}), "
                    f"not {x!r}",
                )

    def vehicle(self, k: int, vs: VehicleSpec) -> Vehicle:
        f = f"vehicles.{k}"
        from ambush_env.core.world.vehicle_data import load_vehicle_data

        if vs.type not in load_vehicle_data().vehicles:
            raise self.fail(f"{f}.type", f"unknown vehicle type {vs.type!r}")
        tank = load_vehicle_data().vehicles[vs.type].kind == "tank"  # its unit drives it ⚙
        if vs.wrecked and not vs.disabled:
            raise self.fail(f"{f}.wrecked", "a wrecked vehicle is disabled (disabled: true)")
        self.check_d100(f, vs)
        return Vehicle(
            vid=k,
            type=vs.type,
            side=SIDES.index(vs.side),
            name=vs.name,
            hex=self.hex(vs.hex, f"{f}.hex"),
            facing=DIRECTION_NAMES.index(vs.facing),
            driver=self.uid(
                vs.driver if vs.driver is not None or not tank else vs.unit, f"{f}.driver"
            ),
            passengers=self.seats(vs, f),
            **_as_given(vs, VEHICLE_FLAGS),
            wrecked=vs.wrecked,
            crew=vs.crew
            if vs.crew is not None
            else (
                load_vehicle_data().vehicles[vs.type].occupants
                if load_vehicle_data().vehicles[vs.type].kind == "tank"
                else 0
            ),
            unit=self.uid(vs.unit, f"{f}.unit"),
            cannon_loaded=vs.cannon_loaded,
            lost=list(vs.lost),
            jammed_mgs=list(vs.jammed_mgs),
            card=vs.card,
            hp=vs.hp,
            armour_loss=dict(vs.armour_loss.items()),
            fire_dice=vs.fire_dice,
            component_damage=dict(vs.component_damage),
            destroyed=list(vs.destroyed),
            burning=vs.burning,
            countdowns=dict(vs.countdowns.items()),
            mpa_quarters=vs.mpa_quarters,
            hull_crew=vs.hull_crew,
            moved_mp=vs.moved_mp,
        )

    def check_d100(self, f: str, vs: VehicleSpec) -> None:
        """The d100 keys of a vehicle (seed 003): only under ``rules: d100``, components of its
        type's hit-location table, Base HP within the type's (0 only when disabled), a
        destroyed gun's mount among ``lost``, dice a fire can roll, no more Armor value shot
        away than an aspect has, a hull crew within a tank's crew."""
        keys = {k: getattr(vs, k) for k, d in _D100_DEFAULTS.items() if getattr(vs, k) != d}
        if not keys:
            return
        if self.ctx.rules != "d100":
            raise self.fail(
                f"{f}.{next(iter(keys))}", "d100 vehicle state needs rules 'd100' (seed 003)"
            )
        from ambush_env.core.world.d100_data import parse_dice, shipped_d100_data

        d = shipped_d100_data()
        stats = d.vehicles[vs.type]
        rows = {r.component: r for r in d.tables[stats.table]}
        for j, c in enumerate(vs.destroyed):
            if c not in rows or rows[c].hp == "occupant":
                raise self.fail(
                    f"{f}.destroyed.{j}",
                    f"{c!r} is no component of a {vs.type}'s {stats.table} table",
                )
            if rows[c].effect == "weapon" and rows[c].mount not in vs.lost:
                raise self.fail(
                    f"{f}.destroyed.{j}", f"{c} destroyed: {rows[c].mount} must be among lost"
                )
        for c in vs.component_damage:
            if c not in rows or rows[c].hp == "occupant":
                raise self.fail(
                    f"{f}.component_damage.{c}",
                    f"{c!r} is no component of a {vs.type}'s {stats.table} table",
                )
        if vs.hp > stats.hp:
            raise self.fail(f"{f}.hp", f"a {vs.type} has {stats.hp} Base HP")
        for aspect, lost in vs.armour_loss.items():  # never below 0 (d100.armour_value)
            base = (
                stats.aspect_armour.get(aspect, stats.armour) if aspect != "front" else stats.armour
            )
            if lost > base:
                raise self.fail(
                    f"{f}.armour_loss.{aspect}",
                    f"a {vs.type}'s {aspect} Armor "
                    f"value is {base}: at most {base} shot away, got {lost}",
                )
        if vs.hull_crew >= 0:
            from ambush_env.core.world.vehicle_data import load_vehicle_data

            t = load_vehicle_data().vehicles[vs.type]
            crew = vs.crew if vs.crew is not None else t.occupants
            if t.kind != "tank" or vs.hull_crew > crew:
                raise self.fail(
                    f"{f}.hull_crew",
                    f"a tank's hull crew is -1 (all) or 0..its "
                    f"crew ({crew if t.kind == 'tank' else 'no tank'}), got "
                    f"{vs.hull_crew}",
                )
        if vs.hp == 0 and not vs.disabled:
            raise self.fail(f"{f}.hp", "Base HP 0: the vehicle is destroyed (disabled: true)")
        if vs.fire_dice:
            try:
                parse_dice(vs.fire_dice)
            except ValueError as e:
                raise self.fail(f"{f}.fire_dice", str(e)) from None

    def check_stacking(self, st: GameState) -> None:
        """At most ``max_in_hex`` vehicles, disabled ones included, *end* in a hex (seed 000
        p. 30: "any number may pass through a hex, two may end there"): the vehicle its driver
        is driving now (``turn.mode == "drive"``) may be passing through a full hex."""
        from ambush_env.core.world.vehicle_data import load_vehicle_data

        cap, b, t = load_vehicle_data().max_in_hex, self.board, st.turn
        passing = -1
        if (
            t.mode == "drive"
            and t.uid >= 0
            and st.units[t.uid].vehicle >= 0
            and st.vehicles[st.units[t.uid].vehicle].driver == t.uid
        ):
            passing = st.units[t.uid].vehicle
        in_hex: dict[int, int] = {}
        for k, v in enumerate(st.vehicles):
            if v.hex < 0 or v.vid == passing:
                continue
            in_hex[v.hex] = in_hex.get(v.hex, 0) + 1
            if in_hex[v.hex] > cap:
                raise self.fail(
                    f"vehicles.{k}.hex",
                    f"{b.label(v.hex)}: at most {cap} "
                    "vehicles, disabled ones included, in a hex (seed 000 p. 30)",
                )

    def check_vehicles(self, st: GameState) -> None:
        """Where the vehicles stand and who sits in them (seed 000 p. 30-31): never on a
        building, rubble or river hex, a large one never in woods (at most ``max_in_hex``
        ending in a hex: :meth:`check_stacking`); a car's driver and passengers fit its
        seats, a tank carries no passengers and its driver is its own unit, its crew fits it; nobody sits in two
        vehicles; a unit riding a vehicle (``units.k.vehicle``) is in its seats and on its hex,
        and everyone seated rides it (``vehicle`` left out: it is filled in) ⚙. A tank's own
        unit (``role: tank``) is seated on its hex afterwards (:meth:`tank_units`).

        A crater is allowed: a movement reference may force a vehicle into one in play (seed
        000 p. 31); a mission never sets one up there (:func:`~ambush_env.core.world.missions.
        check_vehicles`)."""
        from ambush_env.core.world.vehicle_data import load_vehicle_data

        data, b, units = load_vehicle_data(), self.board, st.units
        seat_of: dict[int, int] = {}  # uid -> vid of the vehicle he sits in
        for k, v in enumerate(st.vehicles):
            f = f"vehicles.{k}"
            t = data.vehicles[v.type]
            if v.hex >= 0:
                why = data.stand_problem(
                    v.type, TERRAIN_NAMES[b.terrain[v.hex]], forced_crater=True
                )
                if why is not None:
                    raise self.fail(f"{f}.hex", f"{b.label(v.hex)}: {why}")
            if t.kind == "tank":
                if v.crew > t.occupants:
                    raise self.fail(
                        f"{f}.crew",
                        f"a {t.name} has a crew of {t.occupants}, not {v.crew} (seed 000 p. 40)",
                    )
                if v.driver >= 0 and v.driver != v.unit:
                    raise self.fail(
                        f"{f}.driver",
                        f"a tank drives itself: its driver is its own "
                        f"unit ({f}.unit), not {units[v.driver].name}",
                    )
            else:
                if v.unit >= 0:
                    raise self.fail(f"{f}.unit", "only a tank has a unit of its own")
                if v.crew:
                    raise self.fail(
                        f"{f}.crew",
                        "only a tank has a crew count (cars: 0; their men sit in the seats)",
                    )
            why = data.seat_problem(v.type, v.driver >= 0, len(v.passengers))
            if why is not None:
                raise self.fail(f"{f}.passengers", why)
            seated = ([(f"{f}.driver", v.driver)] if v.driver >= 0 else []) + [
                (f"{f}.passengers.{j}", uid) for j, uid in enumerate(v.passengers)
            ]
            for field, uid in seated:
                u = units[uid]
                if uid in seat_of:
                    raise self.fail(
                        field,
                        f"{u.name} sits in {st.vehicles[seat_of[uid]].name} "
                        "already: one vehicle at a time",
                    )
                seat_of[uid] = k
                if u.vehicle < 0 and self.spec.units[uid].vehicle is None:
                    u.vehicle = k  # seated: he rides it
                elif u.vehicle != k:
                    raise self.fail(
                        field,
                        f"{u.name} sits in {v.name} but rides "
                        f"{st.vehicles[u.vehicle].name} (units.{uid}.vehicle)",
                    )
        for uid, u in enumerate(units):
            if u.vehicle < 0 or u.role == "tank":  # a tank's unit: seated by tank_units
                continue
            v = st.vehicles[u.vehicle]
            if seat_of.get(uid) != u.vehicle:
                raise self.fail(
                    f"units.{uid}.vehicle",
                    f"{u.name} rides {v.name} but is not in "
                    f"its seats (vehicles.{v.vid}.driver / .passengers)",
                )
            if u.hex != v.hex and u.status != REMOVED:
                where = b.label(v.hex) if v.hex >= 0 else "off the map"
                raise self.fail(f"units.{uid}.hex", f"{u.name} rides {v.name}, which is {where}")

    def seats(self, vs: VehicleSpec, f: str) -> list[int]:
        out = [self.uid(n, f"{f}.passengers.{j}") for j, n in enumerate(vs.passengers)]
        for j, uid in enumerate(out):
            if uid in out[:j] or (vs.driver is not None and uid == self.names.get(vs.driver)):
                raise self.fail(f"{f}.passengers.{j}", f"{vs.passengers[j]} has one seat only")
        return out

    _ARITY = {
        "after": 5,
        "trigger": 3,
        "paragraph": 5,
        "sightings": 1,
        "sighting_check": 2,
        "sighting": 3,
        "begin_rounds": 3,
        "garrison": 4,
        "alert": 1,
    }

    def request(self, k: int, r: list, st: GameState) -> list:
        """A pending request (:mod:`~ambush_env.core.play.sequence`) of the right shape, its unit
        indices in range."""
        f = f"pending.{k}"
        if (
            not r
            or not isinstance(r[0], str)
            or r[0] not in self._ARITY
            or len(r) != self._ARITY[r[0]]
        ):
            raise self.fail(f, f"not a request: {r!r} (kinds {sorted(self._ARITY)})")
        n = len(st.units)
        kind = r[0]
        if kind in ("after", "trigger", "sighting_check"):
            uids = [r[1]]
        elif kind == "garrison":
            uids = [r[2]]
        elif kind == "sighting":
            uids = [r[1], *(r[2] if isinstance(r[2], list) else [None])]
        elif kind == "paragraph":
            uids = [r[3]] if r[3] != -1 else []
        else:
            uids = []
        for x in uids:
            if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < n:
                raise self.fail(f, f"{kind}: {x!r} is not a unit index (0..{n - 1})")
        if kind in ("trigger",) and not (isinstance(r[2], int) and 0 <= r[2] < self.board.n):
            raise self.fail(f, f"trigger: {r[2]!r} is not a hex index")
        if kind == "garrison" and not (
            r[1] == self.ctx.mission.objective.garrison
            and isinstance(r[3], int)
            and 0 <= r[3] < self.board.n
        ):
            raise self.fail(f, "garrison: the objective's garrison paragraph and a hex index")
        if kind == "begin_rounds" and not (
            r[2] is None
            or (isinstance(r[2], list) and all(isinstance(x, int) and 0 <= x < n for x in r[2]))
        ):
            raise self.fail(f, "begin_rounds: aware must be null or a list of unit indices")
        return list(r)

    def check_turn_counts(self, ts: TurnSpec) -> None:
        """The turn's counts within what play can reach: MPs left (:func:`_most_mp`), snap
        shots (``rules.yaml: fire.snap_shots``, RULES.md §6), Crew Points (a tank's crew,
        vehicles.yaml ``occupants``, seed 000 p. 33).

        Raises:
            DataError: naming ``turn.mp_left`` / ``turn.snaps`` / ``turn.cp_left``.
        """
        from ambush_env.core.world.vehicle_data import load_vehicle_data

        most = _most_mp()
        if ts.mp_left > most:
            raise self.fail(
                "turn.mp_left", f"at most {most} MPs (a vehicle's fast MPA), got {ts.mp_left}"
            )
        snaps = self.ctx.rd.fire.snap_shots
        if ts.snaps > snaps:
            raise self.fail(
                "turn.snaps", f"at most {snaps} snap shots in a fire action, got {ts.snaps}"
            )
        crew = max(t.occupants for t in load_vehicle_data().vehicles.values() if t.kind == "tank")
        if ts.cp_left > crew:
            raise self.fail(
                "turn.cp_left", f"Crew Points are a tank's crew, at most {crew}; got {ts.cp_left}"
            )

    def turn(self, ts: TurnSpec, st: GameState, where: str = "turn") -> TurnState:
        uid = self.uid(ts.unit, f"{where}.unit")
        if uid >= 0:
            u = st.units[uid]
            if u.status != Status.ACTIVE or u.hex < 0:
                raise self.fail(f"{where}.unit", f"{u.name} is not an active unit on the map")
            if ts.mode == "drive" and (u.vehicle < 0 or st.vehicles[u.vehicle].driver != uid):
                raise self.fail(f"{where}.mode", f"{u.name} drives no vehicle")
            if ts.mode in ("move", "snap2", "charge", "prisoner") and self.spec.phase != "rounds":
                raise self.fail(f"{where}.mode", f"a {ts.mode!r} action is a Rounds one")
        elif ts.mode:
            raise self.fail(f"{where}.mode", "a turn in progress needs its unit (turn.unit)")
        self.check_turn_counts(ts)
        t = TurnState(
            uid=uid,
            **_as_given(ts, TURN_FIELDS),
            run_over_hexes=[
                self.hex(h, f"{where}.run_over_hexes.{j}", none_ok=False)
                for j, h in enumerate(ts.run_over_hexes)
            ],
            cp_left=ts.cp_left,
            tasks=list(ts.tasks),
        )
        decides = ts.mode in DECISION_MODES
        if decides != (ts.target is not None):
            raise self.fail(
                f"{where}.target", "a free_snap or throw_out turn, and only one, names its target"
            )
        if (ts.mode == "throw_out") != (ts.target_hex is not None) or (
            ts.scattered and ts.mode != "throw_out"
        ):
            raise self.fail(f"{where}.target_hex", "a throw_out turn, and only one, names its hex")
        if ts.target is not None:
            t.target = self.uid(ts.target, f"{where}.target")
        if ts.target_hex is not None:
            t.target_hex = self.hex(ts.target_hex, f"{where}.target_hex", none_ok=False)
            t.scattered = ts.scattered
        c = ts.card
        if c.column or c.row >= 0:
            actor = st.units[t.uid] if t.uid >= 0 else None
            if actor is None or actor.side != Side.GERMAN:
                raise self.fail(
                    f"{where}.card", "a card row in progress needs a German acting unit"
                )
            from ambush_env.core.world.vehicle_cards import driving_column, shipped_vehicle_cards

            column: Sequence[Any]  # the rows of the card column (a tank crew's: TankRow)
            if c.column == "driving" and actor.role in self.ctx.cards:
                column = driving_column(self.ctx.cards[actor.role])
            elif (
                c.column.startswith("crew_")
                and c.column[5:].isdigit()
                and actor.vehicle >= 0
                and st.vehicles[actor.vehicle].card in shipped_vehicle_cards().tank_ids
                and int(c.column[5:])
                in shipped_vehicle_cards().tank(st.vehicles[actor.vehicle].card).crews
            ):
                column = (
                    shipped_vehicle_cards()
                    .tank(st.vehicles[actor.vehicle].card)
                    .column(int(c.column[5:]))
                )
            elif c.column in ("unaware", "aware", "self_preservation"):
                column = getattr(self.ctx.cards[actor.role].columns, c.column)
            else:
                raise self.fail(
                    f"{where}.card.column",
                    "unaware, aware, self_preservation, driving "
                    "(a driver) or crew_<n> (a tank, seed 000 p. 32)",
                )
            if not 0 <= c.row < len(column):
                raise self.fail(
                    f"{where}.card.row", f"the {c.column} column has rows 0..{len(column) - 1}"
                )
        t.card_column, t.card_row, t.card_step, t.card_acted = c.column, c.row, c.step, c.acted
        t.card_path = [
            self.hex(h, f"{where}.card.path.{j}", none_ok=False) for j, h in enumerate(c.path)
        ]
        return t

    def decision(self, sp: PositionSpec, st: GameState) -> None:
        """A decision that interrupts a turn (RULES.md §7, §9): a US soldier's ``free_snap``
        turn at a known, active German, or his ``throw_out`` turn in the hex a German's grenade
        landed in (his own), with the turn it interrupted (``interrupted``, itself neither).

        Raises:
            DataError: naming ``turn.target``, ``turn.unit``, ``turn.target_hex`` or
                ``interrupted``.
        """
        t = st.turn
        if t.mode not in DECISION_MODES:
            if sp.interrupted is not None:
                raise self.fail(
                    "interrupted", "only a free_snap or throw_out turn interrupts another turn"
                )
            return
        if sp.interrupted is None:
            raise self.fail("interrupted", f"a {t.mode} turn needs the turn it interrupted")
        u, g = st.units[t.uid], st.units[t.target]
        if u.side != Side.US:
            raise self.fail("turn.unit", f"a {t.mode} decision is a US soldier's")
        if g.side != Side.GERMAN:
            raise self.fail("turn.target", f"{g.name} is not a German")
        if t.mode == "free_snap" and (g.uid not in st.contacts or g.status != Status.ACTIVE):
            raise self.fail("turn.target", f"{g.name} is not an active, known German")
        if t.mode == "throw_out" and t.target_hex != u.hex:
            raise self.fail("turn.target_hex", f"the grenade must lie in {u.name}'s hex")
        if sp.interrupted.mode in DECISION_MODES:
            raise self.fail("interrupted.mode", "one such decision is made at a time")
        st.interrupted = self.turn(sp.interrupted, st, "interrupted")


def _most_mp() -> int:
    """The most MPs a turn can have left: a soldier's highest MV (squads.RATING_BOUNDS), a
    prisoner's march (``rules.yaml: prisoners.mv``) or a vehicle's fast MPA (vehicles.yaml)."""
    from ambush_env.core.world.rules_data import load_rules_data
    from ambush_env.core.world.vehicle_data import load_vehicle_data

    return max(
        _R["MV"][1],
        load_rules_data().prisoners.mv,
        *(t.fast_mpa for t in load_vehicle_data().vehicles.values()),
    )


def _status(us: UnitSpec) -> tuple[str, bool, bool]:
    """A unit's status, wounded and panicked flags: docs/API.md's words ``status: wounded`` /
    ``panicked`` are an active unit so marked."""
    status, wounded, panicked = us.status, us.wounded, us.panicked
    if status in ("wounded", "panicked"):
        wounded, panicked = wounded or status == "wounded", panicked or status == "panicked"
        status = "active"
    return status, wounded, panicked


def _number(name: str) -> int:
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) if digits else 0


def _as_given(source: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``names`` of ``source`` (a spec or the state's dataclass), by name, in order:
    what the reader gives the state and the writer the position unchanged."""
    return {n: getattr(source, n) for n in names}


def _pick(given: int | None, default: int) -> int:
    return int(default) if given is None else given


def read_position(spec: PositionSpec, ctx: Ctx) -> tuple[GameState, Dice]:
    """The state and dice of a validated position on its context.

    Raises:
        DataError: a label, name, card, weapon or vehicle type that does not exist (names the
            field), or a malformed ``rng``.
    """
    st = _Reader(ctx, spec).state()
    dice = Dice(spec.seed if spec.seed is not None else 0)
    if spec.rng is not None:
        forced = spec.rng.get("forced")
        if forced is not None and not (
            isinstance(forced, list)
            and all(
                isinstance(r, int) and not isinstance(r, bool) and 0 <= r <= MAX_ROLL
                for r in forced
            )
        ):
            raise DataError(
                WHERE,
                "rng.forced",
                f"forced rolls are integers 0-{MAX_ROLL} "
                "(what a die reads: a d10 0-9, a d100 1-100, a dM 1-M)",
            )
        try:
            dice.set_state(spec.rng)
        except Exception as e:
            raise DataError(WHERE, "rng", f"not a dice state: {type(e).__name__}: {e}") from None
    if spec.dice:
        for k, r in enumerate(spec.dice):
            if not 0 <= r <= MAX_ROLL:
                raise DataError(
                    WHERE,
                    f"dice.{k}",
                    f"a roll is 0-{MAX_ROLL} (a d10 0-9, a "
                    f"d100 1-100, a dM 1-M: the die checks it), got {r}",
                )
        dice.force(spec.dice)
    return st, dice


# ------------------------------------------------------------------------------ writing
def write_position(
    ctx: Ctx, st: GameState, dice: Dice, german: str, mission: Any, procedural: int | None = None
) -> dict:
    """The whole situation as a canonical position dict (module docstring); ``procedural``:
    the mission seed of a generated mission's map (written only when given); ``map``: the map
    a position gave (``ctx.board.origin``; written only for one)."""
    import copy

    b = ctx.board
    label = b.label
    units = st.units

    def hx(i: int) -> str | None:
        return label(i) if i >= 0 else None

    def nm(uid: int) -> str | None:
        return units[uid].name if uid >= 0 else None

    t = st.turn
    out: dict[str, Any] = {
        "format": FORMAT,
        "mission": mission,
        **({} if procedural is None else {"procedural": procedural}),
        **({} if b.origin is None else {"map": copy.deepcopy(b.origin)}),
        "rules": ctx.rules,
        "deck": ctx.opponent,
        "german": german,
        "phase": PHASES[st.phase],
        "round": st.round,
        "rounds_total": st.rounds_total,
        "pulse": st.pulse,
        "initiative": None if st.initiative < 0 else SIDES[st.initiative],
        "rolls": {"us": st.us_roll, "german": st.german_roll},
        "vp": st.vp,
        "vp_log": [[r, a] for r, a in st.vp_log],
        "fired_triggers": [label(h) for h in st.fired_triggers],
        "flags": list(st.flags),
        "ops_done": [units[i].name for i in st.ops_done],
        "turn": _turn_dict(t, nm, label),
        **(
            {} if st.interrupted is None else {"interrupted": _turn_dict(st.interrupted, nm, label)}
        ),
        "pending": [list(r) for r in st.pending],
        "units": [
            {
                "name": u.name,
                "side": SIDES[u.side],
                "role": u.role,
                "hex": hx(u.hex),
                "stance": STANCE_NAMES[u.stance],
                "status": STATUSES[u.status],
                "wounded": u.wounded,
                "panicked": u.panicked,
                "aware": u.aware,
                "ar": AR_SPACES[u.ar],
                "IN": u.IN,
                "PC": u.PC,
                "WS": u.WS,
                "DS": u.DS,
                "MV": u.MV,
                "CR": u.CR,
                "weapon": u.weapon,
                "ammo": u.ammo,
                "jammed": u.jammed,
                "prepared": u.prepared,
                "equipment": list(u.equipment),
                "port_boxes": u.port_boxes,
                "satchel_ready": u.satchel_ready,
                "given_turn": u.given_turn,
                "captured_weapon": u.captured_weapon,
                "guard": nm(u.guard),
                "vehicle": st.vehicles[u.vehicle].name if u.vehicle >= 0 else None,
                "route": [label(h) for h in u.route],
                "escaped": u.escaped,
                "exited": u.exited,
                "slot": u.slot,
            }
            for u in units
        ],
        "contacts": [units[i].name for i in st.contacts],
        "german_contacts": [units[i].name for i in st.german_contacts],
        "next_german": st.next_german,
        "items": {
            label(int(h)): list(v)
            for h, v in sorted(st.items.items(), key=lambda kv: int(kv[0]))
            if v
        },
        "vehicles": [
            {
                "name": v.name,
                "type": v.type,
                "side": SIDES[v.side],
                "hex": hx(v.hex),
                "facing": DIRECTION_NAMES[v.facing],
                "driver": nm(v.driver),
                "passengers": [units[i].name for i in v.passengers],
                **_as_given(v, VEHICLE_FLAGS),
                **({"wrecked": True} if v.wrecked else {}),
                "crew": v.crew,
                "unit": nm(v.unit),
                "cannon_loaded": v.cannon_loaded,
                "lost": list(v.lost),
                "jammed_mgs": list(v.jammed_mgs),
                "card": v.card,
                **_d100_keys(v),
            }
            for v in st.vehicles
        ],
        "board": {
            "collapsed": list(st.board.get("collapsed", [])),
            "destroyed_walls": list(st.board.get("destroyed_walls", [])),
        },
        "minefields": [
            {"hex": label(h), "kind": kind, "known": h in st.known_mines}
            for kind, hs in (("anti_personnel", st.minefields), ("anti_tank", st.at_minefields))
            for h in hs
        ],
        "dead_triggers": [label(h) for h in st.dead_triggers],
        **_mission_language_keys(st, label),
        "over": st.over,
        "result": None if st.result < 0 else RESULT_NAMES[st.result],
        "end_reason": st.end_reason,
        "steps": st.steps,
        "rng": dice.get_state(),
        "dice": [],
    }
    return out


def _turn_dict(t: TurnState, nm: Any, label: Any) -> dict[str, Any]:
    """A turn in progress as a position's ``turn`` (or ``interrupted``) mapping."""
    out = {
        "unit": nm(t.uid),
        **_as_given(t, TURN_FIELDS),
        "run_over_hexes": [label(h) for h in t.run_over_hexes],
        "cp_left": t.cp_left,
        "tasks": list(t.tasks),
        "card": {
            "column": t.card_column,
            "row": t.card_row,
            "step": t.card_step,
            "acted": t.card_acted,
            "path": [label(h) for h in t.card_path],
        },
    }
    # the decision fields, written whenever set (the reader refuses them on another mode)
    if t.target >= 0:
        out["target"] = nm(t.target)
    if t.target_hex >= 0:
        out["target_hex"] = label(t.target_hex)
    if t.scattered:
        out["scattered"] = True
    return out


_ = (ARSpace, Phase)  # the enums whose names the tuples above spell


def _mission_language_keys(st: GameState, label: Any) -> dict[str, Any]:
    """The mission-language state that differs from a mission's start (landmarks declared in
    play, booby traps gone, a command override), as position keys; nothing for a state at its defaults, so that positions of
    missions without these features are written as before."""
    out: dict[str, Any] = {}
    if st.landmarks:
        out["landmarks"] = [{"hex": label(h), "name": n, "blocking": b} for h, n, b in st.landmarks]
    if st.traps_gone:
        out["booby_traps_gone"] = [label(h) for h in st.traps_gone]
    if st.command_until:
        out["command_until"] = st.command_until
    return out


#: the d100 state of a Vehicle (seed 003) and its undamaged values, read from the dataclass
_D100_DEFAULTS = {
    f.name: (f.default if f.default_factory is MISSING else f.default_factory())
    for f in fields(Vehicle)
    if f.name
    in (
        "hp",
        "armour_loss",
        "component_damage",
        "destroyed",
        "burning",
        "fire_dice",
        "countdowns",
        "mpa_quarters",
        "hull_crew",
        "moved_mp",
    )
}


def _d100_keys(v: Vehicle) -> dict[str, Any]:
    """The d100 state of ``v`` that differs from an undamaged vehicle's (seed 003), copied."""
    out: dict[str, Any] = {}
    for k, default in _D100_DEFAULTS.items():
        x = getattr(v, k)
        if x != default:
            out[k] = dict(x) if isinstance(x, dict) else list(x) if isinstance(x, list) else x
    return out
