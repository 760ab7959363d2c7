"""Turns a :class:`~ambush_env.core.engine.Game` into the arrays of :mod:`ambush_env.env.spec`.

The builder reads only what the US player may know: US soldiers, the known Germans
(``game.contact_units()``, the contact slots), the live map and the mission's public
markings. Hidden Germans never appear.

Speed (INTERFACE.md asks for a fast env): the static planes (terrain, level, hexsides,
objectives, exits) are computed once per map and copied into each new board array; they are
recomputed only when the live map changes (a wall destroyed, a building collapsed). Unit,
contact and vehicle rows live in persistent arrays and a row is rewritten only when the
soldier's signature (position, stance, status, …) changed since the last step.
"""

from __future__ import annotations

import numpy as np

from ambush_env.core.errors import ScenarioError
from ambush_env.core.orders import K_SLOTS, U_SLOTS
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
_US_STANCE = (BOARD["us_standing"], BOARD["us_crouching"], BOARD["us_prone"])
_G_STANCE = (BOARD["german_standing"], BOARD["german_crouching"], BOARD["german_prone"])
_UNIT_STANCE = (UNIT["standing"], UNIT["crouching"], UNIT["prone"])
_CONTACT_STANCE = (CONTACT["standing"], CONTACT["crouching"], CONTACT["prone"])
_UNIT_AR = {
    int(ARSpace.NONE): UNIT["ar_none"],
    int(ARSpace.TWO_TURN): UNIT["ar_two_turn"],
    int(ARSpace.ONE_TURN): UNIT["ar_one_turn"],
    int(ARSpace.COMPLETE): UNIT["ar_complete"],
    int(ARSpace.PANIC): UNIT["ar_panic"],
    int(ARSpace.INACTIVE): UNIT["ar_inactive"],
}
_UNIT_STATUS = {
    int(Status.ACTIVE): UNIT["active"],
    int(Status.INCAPACITATED): UNIT["incapacitated"],
    int(Status.KILLED): UNIT["killed"],
    int(Status.CAPTURED): UNIT["captured"],
    int(Status.REMOVED): UNIT["exited"],
}
_CONTACT_STATUS = {
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
_ACTIVE = int(Status.ACTIVE)
_INCAP = int(Status.INCAPACITATED)
_KILLED = int(Status.KILLED)
_CAPTURED = int(Status.CAPTURED)
_STANDING = int(Stance.STANDING)
_US = int(Side.US)
_COUNT = 0.25  # one soldier adds 1/4 to a count plane (clipped at 1 by the space)


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
        self.col = idx % cols
        self.row = idx // cols
        #: flat position in an (H*W) plane of every board index
        self.flat = (self.row * BOARD_W + self.col).astype(np.intp)
        self._flat_list = self.flat.tolist()
        self._colf = (self.col / (BOARD_W - 1)).astype(_F32).tolist()
        self._rowf = (self.row / (BOARD_H - 1)).astype(_F32).tolist()
        self._static = np.zeros((N_STATIC, BOARD_H, BOARD_W), dtype=_F32)
        self._static_key: object = None
        self._units = np.zeros(OBSERVATION_SPEC["units"].shape, dtype=_F32)
        self._contacts = np.zeros(OBSERVATION_SPEC["contacts"].shape, dtype=_F32)
        self._vehicles = np.zeros(OBSERVATION_SPEC["vehicles"].shape, dtype=_F32)
        self._unit_sig: list[object] = [None] * U_SLOTS
        self._contact_sig: list[object] = [None] * K_SLOTS
        self._sight_cache: dict[tuple, np.ndarray] = {}
        self._pulse_max = 1
        self._round_max = 1
        self._neighbor_sets = [frozenset(j for j in board.neighbors[i] if j >= 0) for i in range(n)]

    # -- episode -------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget cached rows (a new episode or a restored state)."""
        self._unit_sig = [None] * U_SLOTS
        self._contact_sig = [None] * K_SLOTS
        self._units[:] = 0
        self._contacts[:] = 0
        pulses, rounds = self.game.time_left()
        self._pulse_max = max(1, int(pulses))
        self._round_max = max(1, int(rounds))

    # -- static planes -------------------------------------------------------------------
    def _refresh_static(self) -> None:
        key = missioninfo.board_revision(self.game)
        if key == self._static_key:
            return
        self._static_key = key
        self._sight_cache.clear()
        g = self.game
        board = g.board
        s = self._static.reshape(N_STATIC, _HW)
        s[:] = 0
        flat = self.flat
        terrain = np.asarray([int(board.terrain[i]) for i in range(self.n)], dtype=np.intp)
        for t in Terrain:
            s[BOARD[f"terrain_{t.name.lower()}"], flat[terrain == t]] = 1.0
        s[BOARD["level"], flat] = np.asarray([board.level[i] for i in range(self.n)], dtype=_F32) / 3.0
        s[BOARD["on_map"], flat] = 1.0
        for i in range(self.n):
            for d, j in enumerate(board.neighbors[i]):
                if j < 0:
                    continue
                bits = missioninfo.hexside_bits(board, i, int(j))
                for f, on in zip(HEXSIDE_FEATURES, bits):
                    if on:
                        s[BOARD[f"{f}_{missioninfo.DIRS[d]}"], flat[i]] = 1.0
        for name, hexes in (("objective", missioninfo.objective_hexes(g)), ("exit", missioninfo.exit_hexes(g))):
            hexes = [h for h in hexes if 0 <= h < self.n]
            if hexes:
                s[BOARD[name], flat[hexes]] = 1.0

    # -- sight -----------------------------------------------------------------------------
    def _sees(self, hex_: int, stance: int, target_stance: int = _STANDING) -> np.ndarray:
        key = (hex_, stance, target_stance)
        v = self._sight_cache.get(key)
        if v is None:
            v = np.asarray(self.game.sight.visible_from(hex_, stance, target_stance), dtype=bool)
            if len(self._sight_cache) > 4096:
                self._sight_cache.clear()
            self._sight_cache[key] = v
        return v

    # -- the observation -----------------------------------------------------------------
    def build(self) -> dict[str, np.ndarray]:
        """A fresh observation dict for the current state (arrays are new each call)."""
        g = self.game
        st = g.state
        self._refresh_static()
        board = np.empty((len(BOARD_PLANES), BOARD_H, BOARD_W), dtype=_F32)
        board[:N_STATIC] = self._static
        b = board.reshape(len(BOARD_PLANES), _HW)
        b[N_STATIC:] = 0.0
        flat = self._flat_list

        acting = g.acting_unit()
        a_hex = acting.hex if acting is not None and acting.hex >= 0 else -1
        a_vis = None
        if a_hex >= 0:
            a_vis = self._sees(a_hex, acting.stance)
            b[BOARD["seen_by_acting"], self.flat] = a_vis
            b[BOARD["acting_hex"], flat[a_hex]] = 1.0

        # US soldiers: planes, sight, rows
        us = g.us_units()
        eligible = {u.uid for u in g.eligible_units()} if acting is None else ()
        seen_any = None
        n_active = 0
        units = self._units
        sig_cache = self._unit_sig
        for u in us:
            h = u.hex
            status = u.status
            if h >= 0:
                p = flat[h]
                if status == _ACTIVE:
                    n_active += 1
                    b[_US_STANCE[u.stance], p] += _COUNT
                    if u.wounded:
                        b[BOARD["us_wounded"], p] += _COUNT
                    vis = self._sees(h, u.stance)
                    seen_any = vis.copy() if seen_any is None else np.logical_or(seen_any, vis, out=seen_any)
                elif status == _INCAP or status == _KILLED:
                    b[BOARD["us_down"], p] += _COUNT
            slot = u.slot
            if not 0 <= slot < U_SLOTS:
                continue
            is_acting = acting is not None and u.uid == acting.uid
            sig = (h, u.stance, status, u.wounded, u.panicked, u.aware, u.ar, u.ammo, u.jammed, u.prepared,
                   tuple(u.equipment), u.vehicle, u.IN, u.PC, u.WS, u.MV, u.CR, is_acting, u.uid in eligible)
            if sig != sig_cache[slot]:
                sig_cache[slot] = sig
                units[slot] = self._unit_row(u, is_acting, u.uid in eligible)
        if seen_any is not None:
            b[BOARD["seen_by_us"], self.flat] = seen_any

        # known Germans (contact slots): planes and rows
        contacts = self._contacts
        csig = self._contact_sig
        known = g.contact_units()
        a_stance = acting.stance if acting is not None else _STANDING
        for k, c in enumerate(known[:K_SLOTS]):
            h = c.hex
            status = c.status
            if h >= 0:
                p = flat[h]
                if status == _ACTIVE:
                    b[_G_STANCE[c.stance], p] += _COUNT
                    if c.aware:
                        b[BOARD["german_aware"], p] += _COUNT
                else:
                    b[BOARD["german_down"], p] += _COUNT
            seen_a = bool(self._sees(a_hex, a_stance, c.stance)[h]) if a_hex >= 0 and h >= 0 else False
            if h >= 0 and seen_any is not None:
                seen_u = seen_a or any(
                    bool(self._sees(u.hex, u.stance, c.stance)[h]) for u in us if u.status == _ACTIVE and u.hex >= 0
                )
            else:
                seen_u = False
            sig = (h, c.stance, status, c.wounded, c.panicked, c.aware, c.guard, a_hex, seen_a, seen_u)
            if sig != csig[k]:
                csig[k] = sig
                contacts[k] = self._contact_row(c, a_hex, seen_a, seen_u)
        for k in range(len(known), K_SLOTS):
            if csig[k] is not None:
                csig[k] = None
                contacts[k] = 0.0

        for h in st.fired_triggers:
            if 0 <= h < self.n:
                b[BOARD["trigger_checked"], flat[h]] = 1.0
        np.minimum(b[N_STATIC:], 1.0, out=b[N_STATIC:])

        return {
            "board": board,
            "units": units.copy(),
            "contacts": contacts.copy(),
            "vehicles": self._vehicles.copy(),
            "globals": self._globals(acting, n_active, len(known)),
        }

    # -- rows ------------------------------------------------------------------------------
    def _unit_row(self, u, is_acting: bool, eligible: bool) -> np.ndarray:
        r = np.zeros(len(UNIT_FEATURES), dtype=_F32)
        r[UNIT["present"]] = 1.0
        si = _UNIT_STATUS.get(u.status)
        if si is not None:
            r[si] = 1.0
        if u.exited:
            r[UNIT["exited"]] = 1.0
        r[UNIT["wounded"]] = u.wounded
        r[UNIT["panicked"]] = u.panicked
        r[UNIT["aware"]] = u.aware
        if u.status not in (_KILLED,) and 0 <= u.stance < 3:
            r[_UNIT_STANCE[u.stance]] = 1.0
        if u.hex >= 0:
            r[UNIT["col"]] = self._colf[u.hex]
            r[UNIT["row"]] = self._rowf[u.hex]
        ai = _UNIT_AR.get(u.ar)
        if ai is not None:
            r[ai] = 1.0
        r[UNIT["acting"]] = is_acting
        r[UNIT["eligible"]] = eligible
        r[UNIT["IN"]] = _clip01(u.IN / 4.0)
        r[UNIT["PC"]] = _clip01(u.PC / 9.0)
        r[UNIT["WS"]] = _clip01((u.WS + 2) / 4.0)
        r[UNIT["MV"]] = _clip01(u.MV / 5.0)
        r[UNIT["CR"]] = _clip01(u.CR / 3.0)
        r[UNIT["commander"]] = u.CR > 0
        r[UNIT["has_ammo"]] = u.ammo != 0
        r[UNIT["jammed"]] = u.jammed
        r[UNIT["prepared"]] = u.prepared
        gren, sat = missioninfo.count_explosives(u.equipment)
        r[UNIT["grenades"]] = _clip01(gren / 4.0)
        r[UNIT["satchels"]] = _clip01(sat / 4.0)
        r[UNIT["in_vehicle"]] = u.vehicle >= 0
        return r

    def _contact_row(self, c, a_hex: int, seen_a: bool, seen_u: bool) -> np.ndarray:
        r = np.zeros(len(CONTACT_FEATURES), dtype=_F32)
        r[CONTACT["present"]] = 1.0
        si = _CONTACT_STATUS.get(c.status)
        if si is not None:
            r[si] = 1.0
        r[CONTACT["wounded"]] = c.wounded
        r[CONTACT["panicked"]] = c.panicked
        r[CONTACT["aware"]] = c.aware
        if 0 <= c.stance < 3:
            r[_CONTACT_STANCE[c.stance]] = 1.0
        h = c.hex
        if h >= 0:
            r[CONTACT["col"]] = self._colf[h]
            r[CONTACT["row"]] = self._rowf[h]
            r[CONTACT["in_building"]] = int(self.game.board.terrain[h]) == Terrain.BUILDING
            if a_hex >= 0:
                d = missioninfo.hex_distance(int(self.col[a_hex]), int(self.row[a_hex]), int(self.col[h]), int(self.row[h]))
                r[CONTACT["distance"]] = _clip01(d / 16.0)
                r[CONTACT["same_hex"]] = h == a_hex
                r[CONTACT["adjacent"]] = h in self._neighbor_sets[a_hex]
        r[CONTACT["seen_by_acting"]] = seen_a
        r[CONTACT["seen_by_us"]] = seen_u
        r[CONTACT["guarded"]] = c.guard >= 0
        return r

    def _globals(self, acting, n_active: int, n_known: int) -> np.ndarray:
        g = self.game
        st = g.state
        v = np.zeros(len(GLOBAL_FEATURES), dtype=_F32)
        ph = st.phase
        if g.over:
            v[GLOBAL["phase_over"]] = 1.0
        elif ph == Phase.ROUNDS:
            v[GLOBAL["phase_rounds"]] = 1.0
        else:
            v[GLOBAL["phase_operations"]] = 1.0
        v[GLOBAL["round"]] = _clip01(st.round / 10.0)
        if st.initiative == Side.US:
            v[GLOBAL["initiative_us"]] = 1.0
        elif st.initiative == Side.GERMAN:
            v[GLOBAL["initiative_german"]] = 1.0
        v[GLOBAL["us_roll"]] = _clip01(st.us_roll / 9.0)
        v[GLOBAL["german_roll"]] = _clip01(st.german_roll / 9.0)
        pulses, rounds = g.time_left()
        v[GLOBAL["pulses_left"]] = _clip01(pulses / self._pulse_max)
        v[GLOBAL["rounds_left"]] = _clip01(rounds / self._round_max)
        vp = g.vp / 20.0
        v[GLOBAL["vp"]] = -1.0 if vp < -1.0 else (1.0 if vp > 1.0 else vp)
        if acting is None:
            v[GLOBAL["selecting"]] = 1.0
        else:
            if 0 <= acting.slot < U_SLOTS:
                v[GLOBAL[f"acting_slot_{acting.slot}"]] = 1.0
            if acting.ar == ARSpace.TWO_TURN:
                v[GLOBAL["turn_space_two"]] = 1.0
            elif acting.ar == ARSpace.ONE_TURN:
                v[GLOBAL["turn_space_one"]] = 1.0
            t = st.turn
            mi = _MODES.get(t.mode)
            if mi is not None:
                v[mi] = 1.0
            v[GLOBAL["mp_left"]] = _clip01(t.mp_left / 5.0)
            v[GLOBAL["hexes_moved"]] = _clip01(t.hexes_moved / 5.0)
            v[GLOBAL["stance_changed"]] = t.stance_changed
        v[GLOBAL["contacts_known"]] = _clip01(n_known / K_SLOTS)
        v[GLOBAL["us_active"]] = _clip01(n_active / U_SLOTS)
        return v
