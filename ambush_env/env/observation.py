"""Turns a :class:`~ambush_env.core.engine.Game` into the arrays of :mod:`ambush_env.env.spec`.

The builder reads only what the US player may know: US soldiers, the known Germans
(``game.contact_units()``, the contact slots), the live map and the mission's public
markings. Hidden Germans never appear.

Speed (INTERFACE.md asks for a fast env; the whole step budget is ~130 µs):

* a *template* board holds the planes that change rarely — terrain, level, hexsides,
  objectives, exits (recomputed when ``board.version`` changes: a wall destroyed, a building
  collapsed) and the trigger hexes already checked (updated when a trigger fires). Each
  observation starts as one copy of it;
* sight planes are cached per ``(hex, stance)`` already scattered into the (H·W) layout, so
  "hexes the acting unit sees" is one contiguous copy, and "hexes any US soldier sees" is
  cached per squad position;
* soldier counts per hex are summed in Python and written with one fancy assignment;
* unit and contact rows live in persistent arrays; a row is rebuilt (from a Python list, one
  numpy write) only when the soldier's signature changed since the last step.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from ambush_env.core.errors import ScenarioError
from ambush_env.core.orders import K_SLOTS, ORDER_BASE, U_SLOTS, OrderKind
from ambush_env.core.types import ARSpace, Phase, Side, Stance, Status, Terrain
from ambush_env.env import missioninfo
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
)

_F32 = np.float32
_HW = BOARD_H * BOARD_W
_C = len(BOARD_PLANES)
_COUNT = 0.25  # one soldier adds 1/4 to a count plane, clipped at 1

# flat offsets (plane * H·W) of the count planes
_US_STANCE_OFF = tuple(BOARD[p] * _HW for p in ("us_standing", "us_crouching", "us_prone"))
_US_WOUNDED_OFF = BOARD["us_wounded"] * _HW
_US_DOWN_OFF = BOARD["us_down"] * _HW
_G_STANCE_OFF = tuple(BOARD[p] * _HW for p in ("german_standing", "german_crouching", "german_prone"))
_G_AWARE_OFF = BOARD["german_aware"] * _HW
_G_DOWN_OFF = BOARD["german_down"] * _HW
_SEEN_ACTING = BOARD["seen_by_acting"]
_SEEN_US = BOARD["seen_by_us"]
_ACTING_HEX_OFF = BOARD["acting_hex"] * _HW
_TRIGGER = BOARD["trigger_checked"]

_NU = len(UNIT_FEATURES)
_NC = len(CONTACT_FEATURES)
_NG = len(GLOBAL_FEATURES)
_U_STANCE = (UNIT["standing"], UNIT["crouching"], UNIT["prone"])
_C_STANCE = (CONTACT["standing"], CONTACT["crouching"], CONTACT["prone"])
_U_AR = {
    int(ARSpace.NONE): UNIT["ar_none"],
    int(ARSpace.TWO_TURN): UNIT["ar_two_turn"],
    int(ARSpace.ONE_TURN): UNIT["ar_one_turn"],
    int(ARSpace.COMPLETE): UNIT["ar_complete"],
    int(ARSpace.PANIC): UNIT["ar_panic"],
    int(ARSpace.INACTIVE): UNIT["ar_inactive"],
}
_U_STATUS = {
    int(Status.ACTIVE): UNIT["active"],
    int(Status.INCAPACITATED): UNIT["incapacitated"],
    int(Status.KILLED): UNIT["killed"],
    int(Status.CAPTURED): UNIT["captured"],
    int(Status.REMOVED): UNIT["exited"],
}
_C_STATUS = {
    int(Status.ACTIVE): CONTACT["active"],
    int(Status.INCAPACITATED): CONTACT["incapacitated"],
    int(Status.KILLED): CONTACT["killed"],
    int(Status.CAPTURED): CONTACT["captured"],
}
_MODES = {
    "": GLOBAL["mode_choose"],
    "move": GLOBAL["mode_move"],
    "snap2": GLOBAL["mode_snap2"],
    "move_snap": GLOBAL["mode_move_snap"],
    "charge": GLOBAL["mode_charge"],
}
_U_ACTING = UNIT["acting"]
_U_ELIGIBLE = UNIT["eligible"]
_G_ACTING_SLOT = GLOBAL["acting_slot_0"]
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


_NO_FLAGS = (False, False)
_SELECT_BASE = ORDER_BASE[OrderKind.SELECT_UNIT]
#: what a unit row depends on, read in one C call (hex, stance, status and wounded first)
_unit_sig = attrgetter("hex", "stance", "status", "wounded", "panicked", "aware", "ar", "ammo", "jammed",
                       "prepared", "vehicle", "MV", "exited")


def _clip01(x: float) -> float:
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


class ObservationBuilder:
    """Builds observation dicts for one :class:`Game` (one instance per env).

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
        self._colf = [c / (BOARD_W - 1) for c in self.col]
        self._rowf = [r / (BOARD_H - 1) for r in self.row]
        self._neighbors = [frozenset(j for j in board.neighbors[i] if j >= 0) for i in range(n)]
        self._template = np.zeros((_C, _HW), dtype=_F32)
        self._static_version: object = None
        self._triggers: list[int] = []
        self._units = np.zeros(OBSERVATION_SPEC["units"].shape, dtype=_F32)
        self._contacts = np.zeros(OBSERVATION_SPEC["contacts"].shape, dtype=_F32)
        self._vehicles = np.zeros(OBSERVATION_SPEC["vehicles"].shape, dtype=_F32)
        self._unit_sig: list[object] = [None] * U_SLOTS
        self._contact_sig: list[object] = [None] * K_SLOTS
        self._flags: dict[int, tuple[bool, bool]] = {}  # slot -> (acting, eligible) written
        self._planes: dict[tuple[int, int], np.ndarray] = {}
        self._seen_count = np.zeros(_HW, dtype=_F32)
        self._us_keys: dict[int, tuple[int, int]] = {}
        limits = game.mission.time_limit  # time left is shown as a fraction of the mission's limits
        self._pulse_max = max(1, int(limits.operations_pulses))
        self._round_max = max(1, int(limits.rounds))

    # -- episode -------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget per-episode caches (a new episode or a restored state)."""
        self._unit_sig = [None] * U_SLOTS
        self._contact_sig = [None] * K_SLOTS
        self._flags = {}
        self._units[:] = 0
        self._contacts[:] = 0
        self._template[_TRIGGER] = 0
        self._triggers = []
        self._seen_count[:] = 0
        self._us_keys = {}

    # -- template planes -----------------------------------------------------------------
    def _refresh_static(self) -> None:
        """Recompute the map planes (at the first build and after the live map changed)."""
        g = self.game
        board = g.board
        self._static_version = missioninfo.board_revision(g)
        self._planes.clear()
        self._seen_count[:] = 0
        self._us_keys = {}
        s = self._template[:N_STATIC]
        s[:] = 0
        flat = self.flat
        terrain = np.asarray([int(board.terrain[i]) for i in range(self.n)], dtype=np.intp)
        for t in Terrain:
            s[BOARD[f"terrain_{t.name.lower()}"], flat[terrain == t]] = 1.0
        s[BOARD["level"], flat] = np.asarray(board.level[: self.n], dtype=_F32) / 3.0
        s[BOARD["on_map"], flat] = 1.0
        for i in range(self.n):
            for d, j in enumerate(board.neighbors[i]):
                if j < 0:
                    continue
                for f, on in zip(HEXSIDE_FEATURES, missioninfo.hexside_bits(board, i, j)):
                    if on:
                        s[BOARD[f"{f}_{missioninfo.DIRS[d]}"], flat[i]] = 1.0
        for name, hexes in (("objective", missioninfo.objective_hexes(g)), ("exit", missioninfo.exit_hexes(g))):
            hexes = [h for h in hexes if 0 <= h < self.n]
            if hexes:
                s[BOARD[name], flat[hexes]] = 1.0

    def _refresh_triggers(self, fired: list[int]) -> None:
        plane = self._template[_TRIGGER]
        if fired[: len(self._triggers)] != self._triggers:  # not an extension: rebuild
            plane[:] = 0
            self._triggers = []
        for h in fired[len(self._triggers):]:
            if 0 <= h < self.n:
                plane[self._flat[h]] = 1.0
        self._triggers = list(fired)

    # -- sight -----------------------------------------------------------------------------
    def _plane(self, hex_: int, stance: int) -> np.ndarray:
        """(H·W) float32 plane of the hexes a soldier in ``hex_`` at ``stance`` sees (standing target)."""
        key = (hex_, stance)
        p = self._planes.get(key)
        if p is None:
            vis = self.game.sight.visible_from(hex_, stance, _STANDING)
            p = np.zeros(_HW, dtype=_F32)
            p[self.flat[vis]] = 1.0
            if len(self._planes) > 2048:
                self._planes.clear()
            self._planes[key] = p
        return p

    def _update_seen_us(self, keys: dict[int, tuple[int, int]]) -> None:
        """Keep ``_seen_count`` = per (H·W) position, how many active US soldiers see it
        (standing target), updating only for soldiers whose ``(hex, stance)`` changed."""
        old = self._us_keys
        if keys == old:
            return
        count = self._seen_count
        for uid, k in old.items():
            if keys.get(uid) != k:
                count -= self._plane(*k)
        for uid, k in keys.items():
            if old.get(uid) != k:
                count += self._plane(*k)
        self._us_keys = keys

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
        if g.board.version != self._static_version:
            self._refresh_static()
        fired = st.fired_triggers
        if len(fired) != len(self._triggers) or (fired and fired[-1] != self._triggers[-1]):
            self._refresh_triggers(fired)
        board = self._template.copy()
        flat = self._flat
        sight = g.sight
        units_all = st.units

        uid = st.turn.uid
        acting = units_all[uid] if uid >= 0 else None
        a_hex = acting.hex if acting is not None else -1
        a_stance = acting.stance if acting is not None else _STANDING
        if a_hex >= 0:
            board[_SEEN_ACTING] = self._plane(a_hex, a_stance)
        counts: dict[int, float] = {}
        if a_hex >= 0:
            counts[_ACTING_HEX_OFF + flat[a_hex]] = 1.0

        # US soldiers: count planes, sight, rows
        if acting is not None:
            eligible = ()
        elif legal is not None:  # SELECT_UNIT k is order SELECT_BASE + k
            eligible = {a - _SELECT_BASE for a in legal if _SELECT_BASE <= a < _SELECT_BASE + U_SLOTS}
        else:
            eligible = {u.slot for u in g.eligible_units()}
        active_keys: dict[int, tuple[int, int]] = {}
        units = self._units
        sigs = self._unit_sig
        flags = self._flags
        for u in units_all:
            if u.side != _US:
                continue
            sig = _unit_sig(u) + (len(u.equipment),)  # equipment is mutated in place: its size
            h, stance, status = sig[0], sig[1], sig[2]
            if h >= 0:
                p = flat[h]
                if status == _ACTIVE:
                    active_keys[u.uid] = (h, stance)
                    k = _US_STANCE_OFF[stance] + p
                    counts[k] = min(1.0, counts.get(k, 0.0) + _COUNT)
                    if sig[3]:  # wounded
                        k = _US_WOUNDED_OFF + p
                        counts[k] = min(1.0, counts.get(k, 0.0) + _COUNT)
                elif status == _INCAP or status == _KILLED:
                    k = _US_DOWN_OFF + p
                    counts[k] = min(1.0, counts.get(k, 0.0) + _COUNT)
            slot = u.slot
            if 0 <= slot < U_SLOTS:
                if sig != sigs[slot]:
                    sigs[slot] = sig
                    flags.pop(slot, None)
                    units[slot] = self._unit_row(u)
                want = (u.uid == uid, slot in eligible)
                if flags.get(slot, _NO_FLAGS) != want:
                    flags[slot] = want
                    row = units[slot]
                    row[_U_ACTING] = want[0]
                    row[_U_ELIGIBLE] = want[1]
        n_active = len(active_keys)
        self._update_seen_us(active_keys)
        np.minimum(self._seen_count, 1.0, out=board[_SEEN_US])
        watchers = list(active_keys.values())

        # known Germans (contact slots): count planes and rows
        contacts = self._contacts
        csigs = self._contact_sig
        known = st.contacts
        nk = min(len(known), K_SLOTS)
        for k in range(nk):
            c = units_all[known[k]]
            h = c.hex
            status = c.status
            seen_a = seen_u = False
            if h >= 0:
                p = flat[h]
                if status == _ACTIVE:
                    cs = c.stance
                    kk = _G_STANCE_OFF[cs] + p
                    counts[kk] = min(1.0, counts.get(kk, 0.0) + _COUNT)
                    if c.aware:
                        kk = _G_AWARE_OFF + p
                        counts[kk] = min(1.0, counts.get(kk, 0.0) + _COUNT)
                    # sight matters for active Germans only (targets)
                    if a_hex >= 0:
                        seen_a = sight.can_see(a_hex, h, a_stance, cs)
                    seen_u = seen_a
                    if not seen_u:
                        for wh, ws in watchers:
                            if sight.can_see(wh, h, ws, cs):
                                seen_u = True
                                break
                else:
                    kk = _G_DOWN_OFF + p
                    counts[kk] = min(1.0, counts.get(kk, 0.0) + _COUNT)
            sig = (h, c.stance, status, c.wounded, c.panicked, c.aware, c.guard, a_hex, seen_a, seen_u)
            if sig != csigs[k]:
                csigs[k] = sig
                contacts[k] = self._contact_row(c, a_hex, seen_a, seen_u)
        for k in range(nk, K_SLOTS):
            if csigs[k] is not None:
                csigs[k] = None
                contacts[k] = 0.0

        bf = board.reshape(-1)
        for k, v in counts.items():
            bf[k] = v

        return {
            "board": board.reshape(_C, BOARD_H, BOARD_W),
            "units": units.copy(),
            "contacts": contacts.copy(),
            "vehicles": self._vehicles.copy(),
            "globals": self._globals(acting, n_active, nk, g.vp if vp is None else vp),
        }

    # -- rows ------------------------------------------------------------------------------
    def _unit_row(self, u) -> list[float]:
        r = [0.0] * _NU
        r[UNIT["present"]] = 1.0
        si = _U_STATUS.get(u.status)
        if si is not None:
            r[si] = 1.0
        if u.exited:
            r[UNIT["exited"]] = 1.0
        r[UNIT["wounded"]] = float(u.wounded)
        r[UNIT["panicked"]] = float(u.panicked)
        r[UNIT["aware"]] = float(u.aware)
        if 0 <= u.stance < 3 and u.status != _KILLED:
            r[_U_STANCE[u.stance]] = 1.0
        if u.hex >= 0:
            r[UNIT["col"]] = self._colf[u.hex]
            r[UNIT["row"]] = self._rowf[u.hex]
        ai = _U_AR.get(u.ar)
        if ai is not None:
            r[ai] = 1.0
        r[UNIT["IN"]] = _clip01(u.IN / 4.0)
        r[UNIT["PC"]] = _clip01(u.PC / 9.0)
        r[UNIT["WS"]] = _clip01((u.WS + 2) / 4.0)
        r[UNIT["MV"]] = _clip01(u.MV / 5.0)
        r[UNIT["CR"]] = _clip01(u.CR / 3.0)
        r[UNIT["commander"]] = float(u.CR > 0)
        r[UNIT["has_ammo"]] = float(u.ammo != 0)
        r[UNIT["jammed"]] = float(u.jammed)
        r[UNIT["prepared"]] = float(u.prepared)
        gren, sat = missioninfo.count_explosives(u.equipment)
        r[UNIT["grenades"]] = _clip01(gren / 4.0)
        r[UNIT["satchels"]] = _clip01(sat / 4.0)
        r[UNIT["in_vehicle"]] = float(u.vehicle >= 0)
        return r

    def _contact_row(self, c, a_hex: int, seen_a: bool, seen_u: bool) -> list[float]:
        r = [0.0] * _NC
        r[CONTACT["present"]] = 1.0
        si = _C_STATUS.get(c.status)
        if si is not None:
            r[si] = 1.0
        r[CONTACT["wounded"]] = float(c.wounded)
        r[CONTACT["panicked"]] = float(c.panicked)
        r[CONTACT["aware"]] = float(c.aware)
        if 0 <= c.stance < 3:
            r[_C_STANCE[c.stance]] = 1.0
        h = c.hex
        if h >= 0:
            r[CONTACT["col"]] = self._colf[h]
            r[CONTACT["row"]] = self._rowf[h]
            r[CONTACT["in_building"]] = float(int(self.game.board.terrain[h]) == _BUILDING)
            if a_hex >= 0:
                d = self.game.board.distance(a_hex, h)
                r[CONTACT["distance"]] = _clip01(d / 16.0)
                r[CONTACT["same_hex"]] = float(h == a_hex)
                r[CONTACT["adjacent"]] = float(h in self._neighbors[a_hex])
        r[CONTACT["seen_by_acting"]] = float(seen_a)
        r[CONTACT["seen_by_us"]] = float(seen_u)
        r[CONTACT["guarded"]] = float(c.guard >= 0)
        return r

    def _globals(self, acting, n_active: int, n_known: int, vp: int) -> np.ndarray:
        g = self.game
        st = g.state
        v = [0.0] * _NG
        if st.over:
            v[GLOBAL["phase_over"]] = 1.0
        elif st.phase == _ROUNDS:
            v[GLOBAL["phase_rounds"]] = 1.0
        else:
            v[GLOBAL["phase_operations"]] = 1.0
        v[GLOBAL["round"]] = _clip01(st.round / 10.0)
        if st.initiative == _US:
            v[GLOBAL["initiative_us"]] = 1.0
        elif st.initiative == _GER:
            v[GLOBAL["initiative_german"]] = 1.0
        v[GLOBAL["us_roll"]] = _clip01(st.us_roll / 9.0)
        v[GLOBAL["german_roll"]] = _clip01(st.german_roll / 9.0)
        pulses, rounds = g.time_left()
        v[GLOBAL["pulses_left"]] = _clip01(pulses / self._pulse_max)
        v[GLOBAL["rounds_left"]] = _clip01(rounds / self._round_max)
        vp = vp / 20.0
        v[GLOBAL["vp"]] = -1.0 if vp < -1.0 else (1.0 if vp > 1.0 else vp)
        if acting is None:
            v[GLOBAL["selecting"]] = 1.0
        else:
            if 0 <= acting.slot < U_SLOTS:
                v[_G_ACTING_SLOT + acting.slot] = 1.0
            if acting.ar == _TWO:
                v[GLOBAL["turn_space_two"]] = 1.0
            elif acting.ar == _ONE:
                v[GLOBAL["turn_space_one"]] = 1.0
            t = st.turn
            mi = _MODES.get(t.mode)
            if mi is not None:
                v[mi] = 1.0
            v[GLOBAL["mp_left"]] = _clip01(t.mp_left / 5.0)
            v[GLOBAL["hexes_moved"]] = _clip01(t.hexes_moved / 5.0)
            v[GLOBAL["stance_changed"]] = float(t.stance_changed)
        v[GLOBAL["contacts_known"]] = _clip01(n_known / K_SLOTS)
        v[GLOBAL["us_active"]] = _clip01(n_active / U_SLOTS)
        return np.array(v, dtype=_F32)
