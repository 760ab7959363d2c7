"""Turns a :class:`~ambush_env.core.play.game.Game` into the arrays of :mod:`ambush_env.env.spec`.

The builder reads only what the US player may know: US soldiers, the known Germans
(``game.contact_units()``, the contact slots), the vehicles the US knows are there
(:func:`~ambush_env.core.model.state.known_vehicle`: a German vehicle whose crew is hidden is not
shown), the live map and the mission's public markings. Hidden Germans never appear.

Every number is written on the scale its feature declares in :mod:`ambush_env.env.spec`:
a board plane stores an integer (a flag, or a count clipped at the plane's divisor), a table
column the value ``quantity / div`` (the divisors are read from the spec table here, once).

Speed (docs/API.md asks for a fast env; the whole step has ~130 µs): every board plane
lives in a persistent ``uint8`` *template* (C, H·W) kept up to date incrementally, and an
observation is one copy of it (50.3 KiB) plus the small tables:

* the map planes (terrain, level, hexsides, objectives, exits) are recomputed only when
  ``board.version`` changes (a wall destroyed, a building collapsed); trigger hexes when one
  fires;
* each soldier's signature (position, stance, status, …) is read in one C call; only a
  soldier whose signature changed has his count-plane contributions moved, his sight plane
  swapped in the running "seen by any US soldier" count, and his row rebuilt;
* sight planes are cached per ``(hex, stance)`` already scattered into the (H·W) layout;
* vehicles (at most ``V_SLOTS``) are read as one small signature per step; when it changed,
  their planes and rows are rewritten (a mission without vehicles costs one length check);
* the mission-language planes (landmarks, known minefields, known booby traps) start from
  parts precomputed once per mission (the map's landmarks, the mission's blocking ones, its
  known traps) and are rewritten only when ``state.landmarks``, the known minefields or
  ``state.traps_gone`` changed (a mission without them costs three list checks).

Only what the US knows (⚙ for both seats: the German seat of ``aec_env`` reads the same
planes, i.e. what its enemy knows): a minefield of ``state.known_mines`` and a trap marked
``known`` in the mission; a hidden minefield or trap never shows.

A test checks that the incremental observation equals one built from scratch at every step.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from ambush_env.core.model.errors import ScenarioError
from ambush_env.core.model.orders import K_SLOTS, ORDER_BASE, U_SLOTS, V_SLOTS, OrderKind
from ambush_env.core.model.state import known_vehicle
from ambush_env.core.model.types import (
    DIRECTION_NAMES,
    ARSpace,
    Phase,
    Side,
    Stance,
    Status,
    Terrain,
)
from ambush_env.core.rules.d100 import stats as d100_stats
from ambush_env.core.vehicles.vehicles import vtype
from ambush_env.core.world.board import DOOR, NO_WALL, WINDOW
from ambush_env.env.spec import (
    BOARD,
    BOARD_H,
    BOARD_PLANES,
    BOARD_W,
    CONTACT,
    CONTACT_FEATURES,
    GLOBAL,
    GLOBAL_FEATURES,
    HEXSIDE_FEATURES,
    N_STATIC,
    OBSERVATION_SPEC,
    UNIT,
    UNIT_FEATURES,
    VEHICLE,
    VEHICLE_FEATURES,
    VEHICLE_TYPES,
    divisors,
)

_F32 = np.float32
_U8 = OBSERVATION_SPEC["board"].dtype  # the board's stored integers (spec.py)
_HW = BOARD_H * BOARD_W
_C = len(BOARD_PLANES)


def _constant_divisors(key: str) -> dict[str, float]:
    """:func:`~ambush_env.env.spec.divisors` of ``key`` less the features whose divisor is not
    a constant (``None``: the builder divides those by a mission's number)."""
    return {name: div for name, div in divisors(key).items() if div is not None}


_BD, _UD, _CD, _VD, _GD = (
    _constant_divisors(k) for k in ("board", "units", "contacts", "vehicles", "globals")
)
_SOLDIER_PLANES = (
    "us_standing",
    "us_crouching",
    "us_prone",
    "us_wounded",
    "us_down",
    "german_standing",
    "german_crouching",
    "german_prone",
    "german_aware",
    "german_down",
)
_COUNT_MAX = int(_BD["us_standing"])  # a soldier count plane stores min(soldiers, this)
assert all(_BD[p] == _COUNT_MAX for p in _SOLDIER_PLANES), (
    "the soldier count planes share one divisor"
)
_LEVEL_MAX = int(_BD["level"])
_FACING_MAX = int(_BD["vehicle_facing"])

# flat offsets (plane * H·W) of the count planes
_US_STANCE_OFF = tuple(BOARD[p] * _HW for p in ("us_standing", "us_crouching", "us_prone"))
_US_WOUNDED_OFF = BOARD["us_wounded"] * _HW
_US_DOWN_OFF = BOARD["us_down"] * _HW
_G_STANCE_OFF = tuple(
    BOARD[p] * _HW for p in ("german_standing", "german_crouching", "german_prone")
)
_G_AWARE_OFF = BOARD["german_aware"] * _HW
_G_DOWN_OFF = BOARD["german_down"] * _HW
_SEEN_ACTING = BOARD["seen_by_acting"]
_SEEN_US = BOARD["seen_by_us"]
_ACTING_HEX = BOARD["acting_hex"]
_TRIGGER = BOARD["trigger_checked"]
_V_PLANES = tuple(
    BOARD[p]
    for p in ("vehicle_us", "vehicle_german", "vehicle_large", "vehicle_facing", "vehicle_disabled")
)
_V_US_PLANE, _V_GER_PLANE, _V_LARGE_PLANE, _V_FACING_PLANE, _V_DISABLED_PLANE = _V_PLANES
_LANDMARK, _LANDMARK_BLOCKING, _MINES_AP, _MINES_AT, _TRAP_KNOWN = (
    BOARD[p]
    for p in (
        "landmark",
        "landmark_blocking",
        "minefield_anti_personnel",
        "minefield_anti_tank",
        "booby_trap_known",
    )
)
_V_COUNT_MAX = int(_BD["vehicle_us"])  # at most two vehicles share a hex (seed 000 p. 30)
assert _BD["vehicle_german"] == _BD["vehicle_disabled"] == _V_COUNT_MAX
# the table columns' divisors (spec.py), bound once
assert _UD["col"] == _CD["col"] == _VD["col"] and _UD["row"] == _CD["row"] == _VD["row"]
_COL_DIV, _ROW_DIV = _UD["col"], _UD["row"]
(
    _DIV_IN,
    _DIV_PC,
    _DIV_WS,
    _DIV_MV,
    _DIV_CR,
    _DIV_GRENADES,
    _DIV_SATCHELS,
    _DIV_CLIPS,
    _DIV_REACH,
    _DIV_NEAR,
    _DIV_MID,
) = (
    _UD[f]
    for f in (
        "IN",
        "PC",
        "WS",
        "MV",
        "CR",
        "grenades",
        "satchels",
        "clips",
        "weapon_reach",
        "weapon_to_hit_near",
        "weapon_to_hit_mid",
    )
)
_DIV_DISTANCE = _CD["distance"]
_DIV_MP_SLOW, _DIV_MP_FAST = _VD["mp_slow"], _VD["mp_fast"]
(
    _DIV_ROUND,
    _DIV_US_ROLL,
    _DIV_GERMAN_ROLL,
    _DIV_VP,
    _DIV_DRIVE_MP,
    _DIV_MP_LEFT,
    _DIV_HEXES_MOVED,
    _DIV_CONTACTS,
    _DIV_US_ACTIVE,
) = (
    _GD[f]
    for f in (
        "round",
        "us_roll",
        "german_roll",
        "vp",
        "drive_mp_left",
        "mp_left",
        "hexes_moved",
        "contacts_known",
        "us_active",
    )
)

_NU = len(UNIT_FEATURES)
_NC = len(CONTACT_FEATURES)
_NG = len(GLOBAL_FEATURES)
_U_STANCE = (UNIT["standing"], UNIT["crouching"], UNIT["prone"])
_C_STANCE = (CONTACT["standing"], CONTACT["crouching"], CONTACT["prone"])
# the one-hot columns of an enum's values, named after its members (spec.py names them so)
_U_AR = {int(a): UNIT[f"ar_{a.name.lower()}"] for a in ARSpace}
_FLAGGED_STATUS = (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED, Status.CAPTURED)
_C_STATUS = {int(s): CONTACT[s.name.lower()] for s in _FLAGGED_STATUS}
_U_STATUS = {
    **{int(s): UNIT[s.name.lower()] for s in _FLAGGED_STATUS},
    int(Status.REMOVED): UNIT["exited"],
}
_MODES = {
    "": GLOBAL["mode_choose"],
    "move": GLOBAL["mode_move"],
    "snap2": GLOBAL["mode_snap2"],
    "move_snap": GLOBAL["mode_move_snap"],
    "charge": GLOBAL["mode_charge"],
    "prisoner": GLOBAL["mode_prisoner"],
    "drive": GLOBAL["mode_drive"],
    "free_snap": GLOBAL["mode_free_snap"],
    "throw_out": GLOBAL["mode_throw_out"],
}
_G_SEAT_USED, _G_DRIVE_FAST, _G_DRIVE_MP = (
    GLOBAL[f] for f in ("seat_change_used", "drive_fast", "drive_mp_left")
)
# column indices, bound once (the rows are rebuilt on the hot path)
(
    _U_PRESENT,
    _U_EXITED,
    _U_WOUNDED,
    _U_PANICKED,
    _U_AWARE,
    _U_COL,
    _U_ROW,
    _U_IN,
    _U_PC,
    _U_WS,
    _U_MV,
    _U_CR,
    _U_COMMANDER,
    _U_HAS_AMMO,
    _U_JAMMED,
    _U_PREPARED,
    _U_GRENADES,
    _U_SATCHELS,
    _U_IN_VEHICLE,
    _U_ACTING,
    _U_ELIGIBLE,
) = (
    UNIT[f]
    for f in (
        "present",
        "exited",
        "wounded",
        "panicked",
        "aware",
        "col",
        "row",
        "IN",
        "PC",
        "WS",
        "MV",
        "CR",
        "commander",
        "has_ammo",
        "jammed",
        "prepared",
        "grenades",
        "satchels",
        "in_vehicle",
        "acting",
        "eligible",
    )
)
(
    _C_PRESENT,
    _C_WOUNDED,
    _C_PANICKED,
    _C_AWARE,
    _C_COL,
    _C_ROW,
    _C_IN_BUILDING,
    _C_DISTANCE,
    _C_SAME_HEX,
    _C_ADJACENT,
    _C_SEEN_BY_ACTING,
    _C_SEEN_BY_US,
    _C_GUARDED,
    _C_ESCAPED,
) = (
    CONTACT[f]
    for f in (
        "present",
        "wounded",
        "panicked",
        "aware",
        "col",
        "row",
        "in_building",
        "distance",
        "same_hex",
        "adjacent",
        "seen_by_acting",
        "seen_by_us",
        "guarded",
        "escaped",
    )
)
(
    _G_PHASE_OVER,
    _G_PHASE_ROUNDS,
    _G_PHASE_OPERATIONS,
    _G_ROUND,
    _G_INITIATIVE_US,
    _G_INITIATIVE_GERMAN,
    _G_US_ROLL,
    _G_GERMAN_ROLL,
    _G_PULSES_LEFT,
    _G_ROUNDS_LEFT,
    _G_VP,
    _G_SELECTING,
    _G_ACTING_SLOT,
    _G_TURN_SPACE_TWO,
    _G_TURN_SPACE_ONE,
    _G_MP_LEFT,
    _G_HEXES_MOVED,
    _G_STANCE_CHANGED,
    _G_CONTACTS_KNOWN,
    _G_US_ACTIVE,
) = (
    GLOBAL[f]
    for f in (
        "phase_over",
        "phase_rounds",
        "phase_operations",
        "round",
        "initiative_us",
        "initiative_german",
        "us_roll",
        "german_roll",
        "pulses_left",
        "rounds_left",
        "vp",
        "selecting",
        "acting_slot_0",
        "turn_space_two",
        "turn_space_one",
        "mp_left",
        "hexes_moved",
        "stance_changed",
        "contacts_known",
        "us_active",
    )
)
assert all(GLOBAL[f"acting_slot_{k}"] == _G_ACTING_SLOT + k for k in range(U_SLOTS))
(
    _U_W_AUTOMATIC,
    _U_W_EXPLOSIVE,
    _U_W_CREW,
    _U_W_PREPARE,
    _U_W_SNAP,
    _U_W_REACH,
    _U_W_NEAR,
    _U_W_MID,
    _U_CAPTURED_WEAPON,
) = (
    UNIT[f]
    for f in (
        "weapon_automatic",
        "weapon_explosive",
        "weapon_crew",
        "weapon_needs_prepare",
        "weapon_snap",
        "weapon_reach",
        "weapon_to_hit_near",
        "weapon_to_hit_mid",
        "captured_weapon",
    )
)
_U_CLIPS = UNIT["clips"]
_U_IS_DRIVER = UNIT["is_driver"]
_NV = len(VEHICLE_FEATURES)
(
    _V_PRESENT,
    _V_US,
    _V_GERMAN,
    _V_LARGE,
    _V_COL,
    _V_ROW,
    _V_FACING,
    _V_DISABLED,
    _V_OPEN,
    _V_TANK,
    _V_CAPTURED,
    _V_EXITED,
    _V_IMMOBILISED,
    _V_TYRE_SHOT,
    _V_OCCUPANTS,
    _V_FULL,
    _V_DRIVER_PRESENT,
    _V_ACTING_ABOARD,
    _V_ACTING_IS_DRIVER,
    _V_SAME_HEX,
    _V_MP_SLOW,
    _V_MP_FAST,
) = (
    VEHICLE[f]
    for f in (
        "present",
        "us",
        "german",
        "large",
        "col",
        "row",
        f"facing_{DIRECTION_NAMES[0]}",
        "disabled",
        "open",
        "tank",
        "captured",
        "exited",
        "immobilised",
        "tyre_shot",
        "occupants",
        "full",
        "driver_present",
        "acting_aboard",
        "acting_is_driver",
        "same_hex_as_acting",
        "mp_slow",
        "mp_fast",
    )
)
assert all(VEHICLE[f"facing_{d}"] == _V_FACING + k for k, d in enumerate(DIRECTION_NAMES))
(_V_CREW, _V_CREW_POINTS, _V_CANNON_LOADED) = (
    VEHICLE[f] for f in ("crew", "crew_points", "cannon_loaded")
)
_V_HP, _V_BURNING = VEHICLE["hp"], VEHICLE["burning"]
_G_RULES_D100 = GLOBAL["rules_d100"]
_V_TYPE = {t: VEHICLE[f"type_{t}"] for t in VEHICLE_TYPES}
_V_LOST = {w: VEHICLE[f"lost_{w}"] for w in ("cannon", "coax", "bow")}
_V_JAMMED = {w: VEHICLE[f"jammed_{w}"] for w in ("coax", "bow")}
#: what a vehicle's planes and row depend on (besides its occupants and the acting soldier)
_veh_sig = attrgetter(
    "hex",
    "facing",
    "side",
    "driver",
    "disabled",
    "immobilised",
    "closed",
    "tyre_shot",
    "captured",
    "exited",
    "type",
    "crew",
    "cannon_loaded",
    "hp",
    "burning",
)
#: what the globals row depends on (besides VP, the acting soldier and the counts)
_state_fields = attrgetter(
    "over", "phase", "round", "initiative", "us_roll", "german_roll", "pulse", "rounds_total"
)
_turn_fields = attrgetter(
    "mode", "mp_left", "hexes_moved", "stance_changed", "boarded", "accident_checked"
)
_ACTIVE = int(Status.ACTIVE)
_INCAP = int(Status.INCAPACITATED)
_KILLED = int(Status.KILLED)
_STANDING = int(Stance.STANDING)
_ROUNDS = int(Phase.ROUNDS)
_TWO = int(ARSpace.TWO_TURN)
_ONE = int(ARSpace.ONE_TURN)
_US = int(Side.US)
_GER = int(Side.GERMAN)
_BUILDING = int(Terrain.BUILDING)


_NO_FKEY: tuple[int, tuple[int, ...]] = (-1, ())
_ONES: np.ndarray = np.ones(_HW, dtype=_U8)
_SELECT_BASE = ORDER_BASE[OrderKind.SELECT_UNIT]
_SELECT_END = _SELECT_BASE + U_SLOTS
#: what a unit's planes and row depend on, read in one C call (hex, stance, status, wounded
#: first); ``equipment`` is compared by its size (the list is mutated in place); the ratings
#: IN, PC, WS and CR are fixed for an episode (the row is built once at its start)
_unit_sig = attrgetter(
    "hex",
    "stance",
    "status",
    "wounded",
    "panicked",
    "aware",
    "ar",
    "ammo",
    "jammed",
    "prepared",
    "vehicle",
    "MV",
    "exited",
    "weapon",
    "captured_weapon",
)


def _clip01(x: float) -> float:
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


class ObservationBuilder:
    """Builds observation dicts for one :class:`Game` (one instance per env).

    Every board plane lives in a persistent *template* that is kept up to date incrementally:
    a soldier's count-plane contributions, sight and row are rewritten only when his
    signature changed; an observation is one copy of the template plus the small tables.
    The caches follow ``game.state`` by identity, so a reset or ``set_state`` (a new state
    object) starts them afresh.

    Args:
        game: the engine; its board must fit in ``BOARD_H`` × ``BOARD_W``.

    Raises:
        ScenarioError: when the mission's map is larger than the observation holds.
    """

    def __init__(self, game) -> None:
        self.game = game
        board = game.board
        cols, rows = int(board.columns), int(board.rows)
        if cols > BOARD_W or rows > BOARD_H:
            raise ScenarioError(
                f"mission {game.mission_id!r}: map of {cols}×{rows} hexes exceeds the observation's "
                f"{BOARD_W}×{BOARD_H}"
            )
        n = int(board.n)
        self.n = n
        idx = np.arange(n)
        self.col = (idx % cols).tolist()
        self.row = (idx // cols).tolist()
        #: flat position in an (H·W) plane of every board index
        self.flat = (np.asarray(self.row) * BOARD_W + np.asarray(self.col)).astype(np.intp)
        self._flat = self.flat.tolist()
        self._colf = [c / _COL_DIV for c in self.col]
        self._rowf = [r / _ROW_DIV for r in self.row]
        self._neighbors = [frozenset(j for j in board.neighbors[i] if j >= 0) for i in range(n)]
        limits = game.mission.time_limit  # time left is shown as a fraction of the mission's limits
        self._pulse_max = max(1, int(limits.operations_pulses))
        self._round_max = max(1, int(limits.rounds))
        self._template: np.ndarray = np.zeros((_C, _HW), dtype=_U8)
        self._tflat = self._template.reshape(-1)
        self._seen_us_row = self._template[_SEEN_US]  # views of the template's sight planes
        self._seen_acting_row = self._template[_SEEN_ACTING]
        self._static_version: object = None
        self._static_sight: object = None
        self._side_dirs: tuple[object, list[tuple[np.ndarray, np.ndarray]]] | None = (
            None  # per board
        )
        self._planes: dict[tuple[int, int], np.ndarray] = {}
        self._units = np.zeros(OBSERVATION_SPEC["units"].shape, dtype=_F32)
        self._contacts = np.zeros(OBSERVATION_SPEC["contacts"].shape, dtype=_F32)
        self._vehicles = np.zeros(OBSERVATION_SPEC["vehicles"].shape, dtype=_F32)
        self._vtypes: dict[
            str, tuple[float, float, float, float, int, bool, int, int]
        ] = {}  # per type id
        # active US soldiers seeing each hex (≤ 12)
        self._seen_count: np.ndarray = np.zeros(_HW, dtype=_U8)
        self._weapon_features: dict[str, tuple[tuple[int, float], ...]] = {}
        self._kinds: dict[tuple[str, ...], tuple[int, int, int]] = {}  # port boxes -> item counts
        self._state_ref = None
        self._mission_ref: object = None  # the mission the precomputed planes below are of
        self._lm_static: np.ndarray = np.zeros(
            0, dtype=np.intp
        )  # flat hexes of the map's landmarks
        self._lm_static_blocking: np.ndarray = np.zeros(
            0, dtype=np.intp
        )  # those the mission blocks
        self._known_traps: tuple[
            tuple[int, int], ...
        ] = ()  # (hex, flat) of the mission's known traps

    # -- caches ----------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget the per-episode caches (they are also dropped when ``game.state`` changes)."""
        self._state_ref = None

    def _start(self, st) -> None:
        """Start the dynamic caches afresh for the state object ``st``."""
        self._state_ref = st
        self._template[N_STATIC:] = 0
        self._units[:] = 0
        self._contacts[:] = 0
        self._vehicles[:] = 0
        self._seen_count[:] = 0
        self._us = sorted(
            (u for u in st.units if u.side == _US and 0 <= u.slot < U_SLOTS), key=lambda u: u.slot
        )
        self._usig: list[tuple[Any, ...] | None] = [None] * len(self._us)
        self._ueq: list[int] = [-1] * len(self._us)
        self._ucontrib: list[tuple[int, ...]] = [()] * len(self._us)
        self._ukey: list[tuple[int, int] | None] = [None] * len(self._us)
        self._n_active = 0
        self._cnt: dict[int, int] = {}
        self._csig: list[object] = [None] * K_SLOTS
        self._crow: list[tuple[Any, ...] | None] = [None] * K_SLOTS
        self._ccontrib: list[tuple[int, ...]] = [()] * K_SLOTS
        self._nk = 0
        self._akey: tuple[int, int] | None = None
        self._fkey: tuple[int, tuple[int, ...]] = _NO_FKEY  # (acting slot, eligible slots) written
        self._triggers: list[int] = []
        self._gkey: tuple[Any, ...] | None = None
        self._gvec = np.zeros(_NG, dtype=_F32)
        self._uindex = {u.uid: i for i, u in enumerate(self._us)}
        self._drivers: frozenset[int] = frozenset()  # uids in a driver's seat (is_driver rows)
        self._vkey: list[tuple[Any, ...]] | None = None
        self._vakey: object = None  # the acting soldier as the vehicle columns last saw him
        self._vflat: tuple[int, ...] = ()  # flat hex positions the vehicle planes were written at
        g = self.game
        if g.mission is not self._mission_ref:
            self._precompute_mission()
        self._d100 = float(getattr(g, "rules", "standard") == "d100")
        # what the mission-language planes were last written from (None: not yet)
        self._lm: list | None = None
        self._km: list[int] = []  # known minefields (the planes were zeroed above)
        self._ap: list[int] = []
        self._at: list[int] = []
        self._gone: list[int] | None = None

    def _precompute_mission(self) -> None:
        """The parts of the mission-language planes fixed for a mission: the map's landmarks,
        those the mission declares blocking (``rules.blocking_landmarks``, by landmark name or
        hex label, as :mod:`~ambush_env.core.world.los` reads them) and its known booby traps."""
        g = self.game
        self._mission_ref = g.mission
        board = g.board
        names = getattr(getattr(g.mission, "rules", None), "blocking_landmarks", ()) or ()
        names = frozenset({names} if isinstance(names, str) else names)
        marks = [i for i in range(self.n) if board.landmark[i] is not None]
        blocking = [i for i in marks if board.landmark[i] in names or board.label(i) in names]
        self._lm_static = self.flat[marks]
        self._lm_static_blocking = self.flat[blocking]
        traps = getattr(g, "booby_traps", None) or {}
        self._known_traps = tuple(
            (h, self._flat[h])
            for h, t in sorted(traps.items())
            if getattr(t, "known", False) and 0 <= h < self.n
        )

    def _refresh_landmarks(self, lm: list) -> None:
        """Rewrite the landmark planes: the mission's, then ``state.landmarks`` (hex, name,
        blocking) declared in play (a later one on a hex replaces the earlier, so a hex's
        blocking flag is its landmark's, or the mission's)."""
        tf = self._template
        mark, block = tf[_LANDMARK], tf[_LANDMARK_BLOCKING]
        mark[:] = 0
        block[:] = 0
        mark[self._lm_static] = 1
        block[self._lm_static_blocking] = 1
        for h, _name, blocking in lm:
            if 0 <= h < self.n:
                p = self._flat[h]
                mark[p] = 1
                if blocking:
                    block[p] = 1
        self._lm = list(lm)

    def _refresh_mines(self, known: list[int], ap: list[int], at: list[int]) -> None:
        """Rewrite the known-minefield planes (:func:`ambush_env.core.rules.mines.known_minefields`:
        a known hex is anti-personnel if it is in ``state.minefields``, else anti-tank if in
        ``state.at_minefields``)."""
        tf = self._template
        tf[_MINES_AP] = 0
        tf[_MINES_AT] = 0
        aps, ats = set(ap), set(at)
        for h in known:
            if 0 <= h < self.n:
                if h in aps:
                    tf[_MINES_AP, self._flat[h]] = 1
                elif h in ats:
                    tf[_MINES_AT, self._flat[h]] = 1
        self._km, self._ap, self._at = list(known), list(ap), list(at)

    def _refresh_traps(self, gone: list[int]) -> None:
        """Rewrite the known-trap plane: the mission's known traps not in ``state.traps_gone``."""
        plane = self._template[_TRAP_KNOWN]
        plane[:] = 0
        out = set(gone)
        for h, p in self._known_traps:
            if h not in out:
                plane[p] = 1
        self._gone = list(gone)

    # -- template planes -----------------------------------------------------------------
    def _refresh_static(self) -> None:
        """Recompute the map planes (at the first build and after the live map changed)."""
        g = self.game
        board = g.board
        self._static_version = board.version
        self._static_sight = g.sight  # a landmark declared in play changes sight, not the map
        self._planes.clear()
        self._state_ref = None  # sight changed with the map: rebuild the dynamic planes too
        s = self._template[:N_STATIC]
        s[:] = 0
        flat = self.flat
        terrain = np.asarray([int(board.terrain[i]) for i in range(self.n)], dtype=np.intp)
        for t in Terrain:
            s[BOARD[f"terrain_{t.name.lower()}"], flat[terrain == t]] = 1
        s[BOARD["level"], flat] = np.clip(np.asarray(board.level[: self.n]), 0, _LEVEL_MAX)
        s[BOARD["on_map"], flat] = 1
        # the live hexside features (``Board.hexside``: wall, door, window, embankment, crest),
        # one direction at a time
        wall = np.asarray(board.side_wall, dtype=np.int8) != NO_WALL
        wall &= ~np.asarray(
            board.side_destroyed, dtype=bool
        )  # a destroyed wall: clear (seed 002 p. 27)
        aperture = np.asarray(board.side_aperture, dtype=np.int8)
        bits = {
            "wall": wall,
            "door": wall & (aperture == DOOR),
            "window": wall & (aperture == WINDOW),
            "embankment": np.asarray(board.side_embankment, dtype=bool),
            "crest": np.asarray(board.side_crest, dtype=bool),
        }
        if self._side_dirs is None or self._side_dirs[0] is not board:
            per_dir = []
            for d in range(6):
                hexes = [i for i in range(self.n) if board.neighbors[i][d] >= 0]
                per_dir.append(
                    (flat[hexes], np.asarray([board.side_id(i, d) for i in hexes], dtype=np.intp))
                )
            self._side_dirs = (board, per_dir)
        for d, (pos, sids) in enumerate(self._side_dirs[1]):
            for f in HEXSIDE_FEATURES:
                s[BOARD[f"{f}_{DIRECTION_NAMES[d]}"], pos] = bits[f][sids]
        for name, hexes in (("objective", g.objective_hexes), ("exit", g.exit_hexes)):
            hexes = sorted(h for h in hexes if 0 <= h < self.n)
            if hexes:
                s[BOARD[name], flat[hexes]] = 1

    def _refresh_triggers(self, fired: list[int]) -> None:
        plane = self._template[_TRIGGER]
        if fired[: len(self._triggers)] != self._triggers:  # not an extension: rebuild
            plane[:] = 0
            self._triggers = []
        for h in fired[len(self._triggers) :]:
            if 0 <= h < self.n:
                plane[self._flat[h]] = 1
        self._triggers = list(fired)

    def _count(self, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        """Move one soldier's count-plane contributions from ``old`` to ``new`` flat indices."""
        cnt = self._cnt
        tf = self._tflat
        for k in old:
            c = cnt[k] - 1
            cnt[k] = c
            tf[k] = c if c < _COUNT_MAX else _COUNT_MAX
        for k in new:
            c = cnt.get(k, 0) + 1
            cnt[k] = c
            tf[k] = c if c < _COUNT_MAX else _COUNT_MAX

    # -- sight -----------------------------------------------------------------------------
    def _plane(self, hex_: int, stance: int) -> np.ndarray:
        """(H·W) uint8 0/1 plane of the hexes a soldier in ``hex_`` at ``stance`` sees (standing target)."""
        key = (hex_, stance)
        p = self._planes.get(key)
        if p is None:
            vis = self.game.sight.visible_from(hex_, stance, _STANDING)
            p = np.zeros(_HW, dtype=_U8)
            p[self.flat[vis]] = 1
            if len(self._planes) > 2048:
                self._planes.clear()
            self._planes[key] = p
        return p

    # -- the observation -----------------------------------------------------------------
    def build(self, legal: list[int] | None = None, vp: int | None = None) -> dict[str, np.ndarray]:
        """A fresh observation dict for the current state (new arrays at every call).

        Args:
            legal: ``game.legal_actions()`` if the caller has it (saves asking the engine
                which soldiers a pending ``select unit`` may pick).
            vp: ``game.vp`` if the caller has it (it is computed from the state).
        """
        g = self.game
        st = g.state
        if g.board.version != self._static_version or g.sight is not self._static_sight:
            self._refresh_static()
        if st is not self._state_ref:
            self._start(st)
        fired = st.fired_triggers
        if len(fired) != len(self._triggers) or (fired and fired[-1] != self._triggers[-1]):
            self._refresh_triggers(fired)
        lm = st.landmarks
        if lm != self._lm:
            self._refresh_landmarks(lm)
        km = st.known_mines
        if (km or self._km) and (
            km != self._km or st.minefields != self._ap or st.at_minefields != self._at
        ):
            self._refresh_mines(km, st.minefields, st.at_minefields)
        if self._known_traps and st.traps_gone != self._gone:
            self._refresh_traps(st.traps_gone)
        tf = self._template
        flat = self._flat
        units_all = st.units
        units = self._units

        # US soldiers whose signature changed: count planes, sight, row
        us = self._us
        vehicles = st.vehicles
        if vehicles or self._vkey is not None:
            self._update_vehicles(units_all, vehicles, st.turn.uid, st.turn.cp_left, st)
        sigs = list(map(_unit_sig, us))
        eqs = [len(u.equipment) for u in us]  # mutated in place: compare its size
        rebuilt = False
        if sigs != self._usig or eqs != self._ueq:
            old_sigs, old_eqs = self._usig, self._ueq
            seen_changed = False
            count = self._seen_count
            for i, u in enumerate(us):
                sig = sigs[i]
                if sig == old_sigs[i] and eqs[i] == old_eqs[i]:
                    continue
                h, stance, status, wounded = sig[0], sig[1], sig[2], sig[3]
                key = None
                contrib: tuple[int, ...] = ()
                if h >= 0:
                    p = flat[h]
                    if status == _ACTIVE:
                        key = (h, stance)
                        contrib = (
                            (_US_STANCE_OFF[stance] + p, _US_WOUNDED_OFF + p)
                            if wounded
                            else (_US_STANCE_OFF[stance] + p,)
                        )
                    elif status in (_INCAP, _KILLED):
                        contrib = (_US_DOWN_OFF + p,)
                if contrib != self._ucontrib[i]:
                    self._count(self._ucontrib[i], contrib)
                    self._ucontrib[i] = contrib
                okey = self._ukey[i]
                if key != okey:
                    if okey is not None:
                        count -= self._plane(*okey)
                        self._n_active -= 1
                    if key is not None:
                        count += self._plane(*key)
                        self._n_active += 1
                    self._ukey[i] = key
                    seen_changed = True
                old = old_sigs[i]
                if old is not None and h >= 0 and sig[1:] == old[1:] and eqs[i] == old_eqs[i]:
                    row = units[u.slot]  # only moved (the common case): two columns
                    row[_U_COL] = self._colf[h]
                    row[_U_ROW] = self._rowf[h]
                else:
                    units[u.slot] = self._unit_row(
                        u
                    )  # acting/eligible flags cleared: rewritten below
                    rebuilt = True
            if seen_changed:
                np.minimum(count, _ONES, out=self._seen_us_row)
            self._usig, self._ueq = list(sigs), eqs  # list(): typed as the cache, rows may be None

        # the acting soldier: his sight, his hex, the acting/eligible flags
        uid = st.turn.uid
        acting = units_all[uid] if uid >= 0 else None
        akey = (acting.hex, acting.stance) if acting is not None and acting.hex >= 0 else None
        if akey != self._akey:
            if self._akey is not None:
                tf[_ACTING_HEX, flat[self._akey[0]]] = 0
            if akey is None:
                self._seen_acting_row[:] = 0
            else:
                self._seen_acting_row[:] = self._plane(*akey)
                tf[_ACTING_HEX, flat[akey[0]]] = 1
            self._akey = akey
        fkey: tuple[int, tuple[int, ...]]
        if acting is not None:
            fkey = (acting.slot, ())
        elif legal is not None:  # SELECT_UNIT k is order SELECT_BASE + k
            fkey = (-1, tuple(a - _SELECT_BASE for a in legal if _SELECT_BASE <= a < _SELECT_END))
        else:
            fkey = (-1, tuple(u.slot for u in g.eligible_units()))
        if rebuilt or fkey != self._fkey:
            old_act, old_elig = self._fkey
            if old_act >= 0:
                units[old_act, _U_ACTING] = 0.0
            for k in old_elig:
                units[k, _U_ELIGIBLE] = 0.0
            if fkey[0] >= 0:
                units[fkey[0], _U_ACTING] = 1.0
            for k in fkey[1]:
                units[k, _U_ELIGIBLE] = 1.0
            self._fkey = fkey

        # known Germans (contact slots): count planes and rows
        known = st.contacts
        nk = min(len(known), K_SLOTS)
        if nk or self._nk:
            self._update_contacts(units_all, known, nk, akey)

        return {
            "board": tf.copy().reshape(_C, BOARD_H, BOARD_W),
            "units": units.copy(),
            "contacts": self._contacts.copy(),
            "vehicles": self._vehicles.copy(),
            "globals": self._globals(acting, self._n_active, nk, g.vp if vp is None else vp),
        }

    def _update_contacts(self, units_all, known: list[int], nk: int, akey) -> None:
        see = self.game.sight.soldier_sight()  # the board does not change while building
        flat = self._flat
        contacts = self._contacts
        watchers = [k for k in self._ukey if k is not None]
        seen_count = self._seen_count  # active US soldiers seeing each hex (standing targets)
        lower: dict[tuple[int, int], bool] = {}  # (hex, stance) → US sight of a lower target
        dist = self.game.board.distance
        a_hex = akey[0] if akey is not None else -1
        a_stance = akey[1] if akey is not None else 0
        csig, crow, ccontrib = self._csig, self._crow, self._ccontrib
        for k in range(nk):
            c = units_all[known[k]]
            h = c.hex
            status = c.status
            psig = (h, c.stance, status, c.aware)
            if psig != csig[k]:
                contrib: tuple[int, ...] = ()
                if h >= 0:
                    p = flat[h]
                    if status == _ACTIVE:
                        contrib = (
                            (_G_STANCE_OFF[c.stance] + p, _G_AWARE_OFF + p)
                            if c.aware
                            else (_G_STANCE_OFF[c.stance] + p,)
                        )
                    else:
                        contrib = (_G_DOWN_OFF + p,)
                self._count(ccontrib[k], contrib)
                ccontrib[k] = contrib
                csig[k] = psig
            seen_a = seen_u = False
            if h >= 0 and status == _ACTIVE:  # sight matters for active Germans only (targets)
                cs = c.stance
                if a_hex >= 0:
                    seen_a = see(a_stance, cs, a_hex, h)  # = sight.can_see(a_hex, h, a_stance, cs)
                seen_u = seen_a
                if not seen_u and cs == _STANDING:  # the count plane sums the watchers' sight
                    seen_u = seen_count.item(flat[h]) > 0
                elif not seen_u:
                    got = lower.get((h, cs))  # Germans of one hex and stance share it
                    if got is None:
                        got = False
                        for wh, ws in watchers:
                            if see(ws, cs, wh, h):
                                got = True
                                break
                        lower[(h, cs)] = got
                    seen_u = got
            rsig = (psig, c.wounded, c.panicked, c.guard, c.escaped, a_hex, seen_a, seen_u)
            old = crow[k]
            if rsig != old:
                crow[k] = rsig
                if old is not None and old[:5] == rsig[:5]:
                    # the same German: only the acting soldier's hex or the sight changed
                    row = contacts[k]
                    if old[5] != a_hex:
                        if h >= 0 and a_hex >= 0:
                            row[_C_DISTANCE] = _clip01(dist(a_hex, h) / _DIV_DISTANCE)
                            row[_C_SAME_HEX] = float(h == a_hex)
                            row[_C_ADJACENT] = float(h in self._neighbors[a_hex])
                        else:
                            row[_C_DISTANCE] = row[_C_SAME_HEX] = row[_C_ADJACENT] = 0.0
                    if old[6] != seen_a:
                        row[_C_SEEN_BY_ACTING] = float(seen_a)
                    if old[7] != seen_u:
                        row[_C_SEEN_BY_US] = float(seen_u)
                else:
                    contacts[k] = self._contact_row(c, a_hex, seen_a, seen_u)
        for k in range(nk, self._nk):  # slots no longer used
            self._count(self._ccontrib[k], ())
            self._ccontrib[k] = ()
            self._csig[k] = self._crow[k] = None
            contacts[k] = 0.0
        self._nk = nk

    def _update_vehicles(self, units_all, vehicles, uid: int, cp_left: int = -1, st=None) -> None:
        """Rewrite the vehicle planes and rows when a vehicle or the acting soldier changed.

        Only the vehicles the US knows are there (``st``: the state,
        :func:`~ambush_env.core.model.state.known_vehicle`) are shown; a hidden one leaves its
        row zero (``present`` 0) and no mark on the vehicle planes.

        Runs before the soldiers' rows: a driver's seat changing hands (which keeps
        ``Unit.vehicle``) marks the rows of the soldiers involved for a rebuild (``is_driver``).
        ``cp_left``: the acting unit's Crew Points left (``TurnState.cp_left``, −1 uncounted),
        shown on the row of the tank whose unit it is.
        """
        if uid >= 0:
            acting = units_all[uid]
            a = (uid, acting.hex, acting.vehicle)
        else:
            a = (-1, -1, -1)
        st = self.game.state if st is None else st
        key = [
            (
                _veh_sig(v),
                len(v.passengers),
                units_all[v.driver].status if v.driver >= 0 else -1,
                tuple(v.lost),
                tuple(v.jammed_mgs),
                cp_left if cp_left >= 0 and uid >= 0 and v.unit == uid else v.crew,
                known_vehicle(st, v),
            )
            for v in vehicles
        ]
        if key == self._vkey:
            if a != self._vakey:  # only the acting soldier changed: his three columns
                self._vakey = a
                self._acting_columns(vehicles, a)
            return
        self._vkey = key if vehicles else None
        self._vakey = a
        drivers = frozenset(v.driver for v in vehicles if v.driver >= 0)
        if drivers != self._drivers:
            for d in drivers ^ self._drivers:
                i = self._uindex.get(d)
                if i is not None:
                    self._usig[i] = None
            self._drivers = drivers
        tf = self._template
        for p in self._vflat:  # clear the planes where vehicles were
            for c in _V_PLANES:
                tf[c, p] = 0
        rows = self._vehicles
        rows[:] = 0.0
        written = []
        a_uid, a_hex, a_vid = a
        for v in vehicles[:V_SLOTS]:
            if not known_vehicle(st, v):
                continue  # hidden with its crew (RULES.md §5): not shown
            tp = self._vtypes.get(v.type)
            if tp is None:
                t = vtype(v)
                try:
                    base_hp = int(d100_stats(v).hp)
                except KeyError:  # a type without d100 numbers: shown undamaged ⚙
                    base_hp = 0
                tp = self._vtypes[v.type] = (
                    float(t.size == "large"),
                    float(t.kind == "tank"),
                    t.slow_mpa / _DIV_MP_SLOW,
                    t.fast_mpa / _DIV_MP_FAST,
                    t.occupants,
                    t.open,
                    _V_TYPE.get(v.type, -1),
                    base_hp,
                )
            large, tank, slow, fast, seats, open_, type_col, base_hp = tp
            r = rows[v.vid] if 0 <= v.vid < V_SLOTS else None
            if r is None:
                continue
            r[_V_PRESENT] = 1.0
            if type_col >= 0:  # a type outside spec.VEHICLE_TYPES has no column (the motorcycle ⚙)
                r[type_col] = 1.0
            if tank:
                r[_V_CREW] = _clip01(v.crew / seats)
                r[_V_CREW_POINTS] = _clip01(
                    (cp_left if cp_left >= 0 and a_uid >= 0 and v.unit == a_uid else v.crew) / seats
                )
                r[_V_CANNON_LOADED] = float(v.cannon_loaded)
                for w in v.lost:
                    r[_V_LOST[w]] = 1.0
                for w in v.jammed_mgs:
                    r[_V_JAMMED[w]] = 1.0
            us = v.side == _US
            r[_V_US] = float(us)
            r[_V_GERMAN] = float(v.side == _GER)
            r[_V_LARGE] = large
            r[_V_TANK] = tank
            r[_V_MP_SLOW] = _clip01(slow)
            r[_V_MP_FAST] = _clip01(fast)
            r[_V_DISABLED] = float(v.disabled)
            r[_V_OPEN] = float(open_ and not v.closed)
            r[_V_CAPTURED] = float(v.captured)
            r[_V_EXITED] = float(v.exited)
            r[_V_IMMOBILISED] = float(v.immobilised)
            r[_V_TYRE_SHOT] = float(v.tyre_shot)
            # Base HP left (d100; −1: undamaged, the type's full Base HP)
            r[_V_HP] = 1.0 if v.hp < 0 or base_hp <= 0 else _clip01(v.hp / base_hp)
            r[_V_BURNING] = float(v.burning)
            n_occ = len(v.passengers) + (v.driver >= 0)
            r[_V_OCCUPANTS] = _clip01(n_occ / seats)
            r[_V_FULL] = float(n_occ >= seats)
            r[_V_DRIVER_PRESENT] = float(v.driver >= 0 and units_all[v.driver].status == _ACTIVE)
            r[_V_ACTING_ABOARD] = float(a_vid >= 0 and a_vid == v.vid)
            r[_V_ACTING_IS_DRIVER] = float(a_uid >= 0 and v.driver == a_uid)
            h = v.hex
            if h < 0 or h >= self.n or v.exited:
                continue
            r[_V_COL] = self._colf[h]
            r[_V_ROW] = self._rowf[h]
            if 0 <= v.facing < 6:
                r[_V_FACING + v.facing] = 1.0
            r[_V_SAME_HEX] = float(h == a_hex)
            p = self._flat[h]
            first = p not in written
            if first:
                written.append(p)
                tf[_V_FACING_PLANE, p] = (
                    v.facing if 0 <= v.facing <= _FACING_MAX else 0
                )  # the lowest slot
            c = _V_US_PLANE if us else (_V_GER_PLANE if v.side == _GER else -1)
            if c >= 0:
                tf[c, p] = min(_V_COUNT_MAX, int(tf[c, p]) + 1)
            if large:
                tf[_V_LARGE_PLANE, p] = 1
            if v.disabled:
                tf[_V_DISABLED_PLANE, p] = min(_V_COUNT_MAX, int(tf[_V_DISABLED_PLANE, p]) + 1)
        self._vflat = tuple(written)

    def _acting_columns(self, vehicles, a: tuple[int, int, int]) -> None:
        """The vehicle columns that depend on the acting soldier alone (``a`` = uid, hex,
        vehicle ridden)."""
        rows = self._vehicles
        a_uid, a_hex, a_vid = a
        for v, k in zip(vehicles[:V_SLOTS], self._vkey or (), strict=False):
            if not 0 <= v.vid < V_SLOTS or not k[-1]:  # k[-1]: known to the US
                continue
            r = rows[v.vid]
            r[_V_ACTING_ABOARD] = float(a_vid >= 0 and a_vid == v.vid)
            r[_V_ACTING_IS_DRIVER] = float(a_uid >= 0 and v.driver == a_uid)
            h = v.hex
            r[_V_SAME_HEX] = float(0 <= h < self.n and not v.exited and h == a_hex)

    # -- rows ------------------------------------------------------------------------------
    def _unit_row(self, u) -> list[float]:
        r = [0.0] * _NU
        r[_U_PRESENT] = 1.0
        status = u.status
        si = _U_STATUS.get(status)
        if si is not None:
            r[si] = 1.0
        if u.exited:
            r[_U_EXITED] = 1.0
        r[_U_WOUNDED] = float(u.wounded)
        r[_U_PANICKED] = float(u.panicked)
        r[_U_AWARE] = float(u.aware)
        if 0 <= u.stance < 3 and status != _KILLED:
            r[_U_STANCE[u.stance]] = 1.0
        h = u.hex
        if h >= 0:
            r[_U_COL] = self._colf[h]
            r[_U_ROW] = self._rowf[h]
        ai = _U_AR.get(u.ar)
        if ai is not None:
            r[ai] = 1.0
        r[_U_IN] = _clip01(u.IN / _DIV_IN)
        r[_U_PC] = _clip01(u.PC / _DIV_PC)
        r[_U_WS] = _clip01((u.WS + 2) / _DIV_WS)
        r[_U_MV] = _clip01(u.MV / _DIV_MV)
        r[_U_CR] = _clip01(u.CR / _DIV_CR)
        r[_U_COMMANDER] = float(u.CR > 0)
        r[_U_HAS_AMMO] = float(u.ammo != 0)
        r[_U_JAMMED] = float(u.jammed)
        r[_U_PREPARED] = float(u.prepared)
        eq = tuple(u.equipment)
        kinds = self._kinds.get(eq)
        if kinds is None:
            kinds = self._kinds[eq] = self._count_kinds(eq)
        r[_U_GRENADES] = _clip01(kinds[0] / _DIV_GRENADES)
        r[_U_SATCHELS] = _clip01(kinds[1] / _DIV_SATCHELS)
        r[_U_CLIPS] = _clip01(kinds[2] / _DIV_CLIPS)
        vid = u.vehicle
        if vid >= 0:
            r[_U_IN_VEHICLE] = 1.0
            vehicles = self.game.state.vehicles
            r[_U_IS_DRIVER] = float(vid < len(vehicles) and vehicles[vid].driver == u.uid)
        w = self._weapon_features.get(u.weapon)
        if w is None:
            w = self._weapon_features[u.weapon] = self._weapon_row(u.weapon)
        for i, x in w:
            r[i] = x
        r[_U_CAPTURED_WEAPON] = float(u.captured_weapon)
        return r

    def _count_kinds(self, equipment: tuple[str, ...]) -> tuple[int, int, int]:
        """``(grenades, satchel charges, clips)`` among port-box item ids (``weapons.yaml`` items)."""
        items = self.game.tables.weapons.items
        n = {"grenade": 0, "satchel": 0, "clip": 0}
        for item in equipment:
            it = items.get(item)
            if it is not None and it.kind in n:
                n[it.kind] += 1
        return n["grenade"], n["satchel"], n["clip"]

    def _weapon_row(self, weapon: str) -> tuple[tuple[int, float], ...]:
        """``(column, value)`` pairs of the weapon-class features of a weapon id."""
        try:
            wc = self.game.weapon_class(weapon)
        except (KeyError, AttributeError):
            return ()
        th = wc.to_hit
        reach = sum(1 for x in th if x is not None)
        mid = th[3] if len(th) > 3 and th[3] is not None else 0
        return (
            (_U_W_AUTOMATIC, float(wc.automatic)),
            (_U_W_EXPLOSIVE, float(wc.explosive)),
            (_U_W_CREW, float(wc.crew)),
            (_U_W_PREPARE, float(wc.needs_prepare)),
            (_U_W_SNAP, float(wc.snap)),
            (_U_W_REACH, _clip01(reach / _DIV_REACH)),
            (_U_W_NEAR, _clip01((th[1] if len(th) > 1 and th[1] is not None else 0) / _DIV_NEAR)),
            (_U_W_MID, _clip01(mid / _DIV_MID)),
        )

    def _contact_row(self, c, a_hex: int, seen_a: bool, seen_u: bool) -> list[float]:
        r = [0.0] * _NC
        r[_C_PRESENT] = 1.0
        si = _C_STATUS.get(c.status)
        if si is not None:
            r[si] = 1.0
        r[_C_WOUNDED] = float(c.wounded)
        r[_C_PANICKED] = float(c.panicked)
        r[_C_AWARE] = float(c.aware)
        if 0 <= c.stance < 3:
            r[_C_STANCE[c.stance]] = 1.0
        h = c.hex
        if h >= 0:
            board = self.game.board
            r[_C_COL] = self._colf[h]
            r[_C_ROW] = self._rowf[h]
            r[_C_IN_BUILDING] = float(int(board.terrain[h]) == _BUILDING)
            if a_hex >= 0:
                r[_C_DISTANCE] = _clip01(board.distance(a_hex, h) / _DIV_DISTANCE)
                r[_C_SAME_HEX] = float(h == a_hex)
                r[_C_ADJACENT] = float(h in self._neighbors[a_hex])
        r[_C_SEEN_BY_ACTING] = float(seen_a)
        r[_C_SEEN_BY_US] = float(seen_u)
        r[_C_GUARDED] = float(c.guard >= 0)
        r[_C_ESCAPED] = float(c.escaped)
        return r

    def _globals(self, acting, n_active: int, n_known: int, vp: int) -> np.ndarray:
        st = self.game.state
        fields = _state_fields(st)  # over, phase, round, initiative, rolls, pulse, rounds_total
        key: tuple[Any, ...]  # the inputs of the vector: shorter when no soldier acts
        turn: tuple[Any, ...] = ()  # the acting soldier's turn fields
        if acting is None:
            key = (fields, vp, n_active, n_known)
        else:
            turn = _turn_fields(st.turn)
            key = (fields, vp, n_active, n_known, acting.slot, acting.ar, turn)
        if key == self._gkey:
            return self._gvec.copy()
        over, phase, rnd, initiative, us_roll, german_roll = fields[:6]
        v = [0.0] * _NG
        if over:
            v[_G_PHASE_OVER] = 1.0
        elif phase == _ROUNDS:
            v[_G_PHASE_ROUNDS] = 1.0
        else:
            v[_G_PHASE_OPERATIONS] = 1.0
        v[_G_ROUND] = _clip01(rnd / _DIV_ROUND)
        if initiative == _US:
            v[_G_INITIATIVE_US] = 1.0
        elif initiative == _GER:
            v[_G_INITIATIVE_GERMAN] = 1.0
        v[_G_US_ROLL] = _clip01(us_roll / _DIV_US_ROLL)
        v[_G_GERMAN_ROLL] = _clip01(german_roll / _DIV_GERMAN_ROLL)
        pulses, rounds = self.game.time_left()
        v[_G_PULSES_LEFT] = _clip01(pulses / self._pulse_max)
        v[_G_ROUNDS_LEFT] = _clip01(rounds / self._round_max)
        x = vp / _DIV_VP
        v[_G_VP] = -1.0 if x < -1.0 else (1.0 if x > 1.0 else x)
        if acting is None:
            v[_G_SELECTING] = 1.0
        else:
            if 0 <= acting.slot < U_SLOTS:
                v[_G_ACTING_SLOT + acting.slot] = 1.0
            if acting.ar == _TWO:
                v[_G_TURN_SPACE_TWO] = 1.0
            elif acting.ar == _ONE:
                v[_G_TURN_SPACE_ONE] = 1.0
            mode, mp_left, hexes_moved, stance_changed, boarded, fast = turn
            mi = _MODES.get(mode)
            if mi is not None:
                v[mi] = 1.0
            v[_G_SEAT_USED] = float(boarded)
            v[_G_DRIVE_FAST] = float(fast)
            if mode == "drive":
                v[_G_DRIVE_MP] = _clip01(mp_left / _DIV_DRIVE_MP)
            v[_G_MP_LEFT] = _clip01(mp_left / _DIV_MP_LEFT)
            v[_G_HEXES_MOVED] = _clip01(hexes_moved / _DIV_HEXES_MOVED)
            v[_G_STANCE_CHANGED] = float(stance_changed)
        v[_G_CONTACTS_KNOWN] = _clip01(n_known / _DIV_CONTACTS)
        v[_G_US_ACTIVE] = _clip01(n_active / _DIV_US_ACTIVE)
        v[_G_RULES_D100] = self._d100
        self._gkey = key
        self._gvec = np.array(v, dtype=_F32)
        return self._gvec.copy()
