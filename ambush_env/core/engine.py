"""The sequence of play (RULES.md §5-§7): the pure rules engine, no gymnasium.

A :class:`Game` owns the static data of one mission (board, tables, cards, mission) and the
changing :class:`~ambush_env.core.state.GameState`. The US side is driven from outside one
decision at a time (:meth:`Game.legal_actions`, :meth:`Game.step`); the Germans act inside
:meth:`Game.step` from their cards (:mod:`ambush_env.core.german`).

Contract other modules code against:

* ``game.state``  – :class:`~ambush_env.core.state.GameState` (plain data, everything that changes)
* ``game.board``  – :class:`~ambush_env.core.board.Board` (static map + live walls/rubble)
* ``game.dice``   – :class:`~ambush_env.core.dice.Dice` (every roll)
* ``game.tables`` – :class:`~ambush_env.core.tables.Tables` (weapons, damage rows, terrain)
* ``game.sight``  – :class:`~ambush_env.core.los.SightCache`
* ``game.mission``– the validated mission model; ``game.cards`` – German cards by id
* ``game.units_at(hex) -> list[Unit]`` – every unit in a hex (any status)
* ``game.emit(event: dict)`` – record a rule event for ``info["events"]``
* ``game.in_rounds`` – True during Rounds

Control (INTERFACE.md): in Operations each active US soldier takes one Operations action per
pulse; in Rounds the AR track decides who acts. When more than one US unit may act next the
decision is a ``SELECT_UNIT`` order; otherwise the only eligible unit is selected
automatically. One :meth:`Game.step` is one decision for the selected unit: an order, one hex
of a move, a follow-up shot, or ``END_TURN``.

Choices the rules leave open (⚙, documented here and tested):

* The free snap fire of a sighting (RULES.md §7) is taken automatically by the first soldier
  who passes, at the sighted German, if his weapon can snap fire at that range.
* An unaware German becomes aware when he is fired at, assaulted or has a grenade land in his
  hex, when alerted by a card, or on a PC check at the start of each Round while a US soldier
  is in his sight.
* Germans placed unaware and out of every US soldier's sight are *hidden*: they get no AR
  marker and do not act until a US soldier sees them (a sighting) or they are alerted.
* Operations resume at the end of a Round in which no known German is active (seed 002 p. 25).
* Germans in one AR space act in the order they were placed (the "card-number order" of
  RULES.md §5.3: our cards carry ids, not numbers).
* ``rules="d100"`` is reserved for the seed-003 vehicle-combat module (RULES.md §13); the
  module is not built yet, so fire at cars uses the Hit Charts and the two rule sets play
  identically.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ambush_env.core import orders as O
from ambush_env.core.board import Board, load_board
from ambush_env.core.dice import Dice
from ambush_env.core.errors import IllegalActionError, ScenarioError
from ambush_env.core.legal import unit_orders
from ambush_env.core.orders import OrderKind as K
from ambush_env.core.state import GameState, TurnState, Unit
from ambush_env.core.types import (
    DIRECTION_NAMES,
    TERRAIN_NAMES,
    ARSpace,
    Phase,
    RESULT_NAMES,
    Result,
    Side,
    Stance,
    Status,
)

US, GER = int(Side.US), int(Side.GERMAN)
ACTIVE = int(Status.ACTIVE)
HIDDEN = int(Status.HIDDEN)
TWO, ONE, COMPLETE, PANIC, INACTIVE = (
    int(ARSpace.TWO_TURN),
    int(ARSpace.ONE_TURN),
    int(ARSpace.COMPLETE),
    int(ARSpace.PANIC),
    int(ARSpace.INACTIVE),
)
PRONE = int(Stance.PRONE)

_BASE = O.ORDER_BASE


class Game:
    """One game of a mission: static data plus a :class:`GameState`.

    Args:
        mission: mission id (``list_missions()``), a path, or a validated ``Mission`` (a
            generated one, with ``board``); None = the reference mission.
        rules: ``"standard"`` (Hit Charts) or ``"d100"`` (seed 003 module, RULES.md §13).
        opponent: German deck name (``data/cards/<name>.yaml``): green, regular, veteran.
        seed: seed for the dice when :meth:`reset` gets neither seed nor generator.

    Raises:
        ScenarioError: unknown mission, deck or rules name.
        DataError: a malformed data file (names file and field).
    """

    def __init__(
        self,
        mission: str | None = None,
        *,
        rules: str = "standard",
        opponent: str = "regular",
        seed: int | None = None,
        board: Board | None = None,
    ) -> None:
        from ambush_env.core import cards as cards_mod
        from ambush_env.core import missions as missions_mod
        from ambush_env.core import squads as squads_mod
        from ambush_env.core.los import SightCache
        from ambush_env.core.tables import load_tables

        if rules not in ("standard", "d100"):
            raise ScenarioError(f"unknown rules {rules!r}; known: 'standard', 'd100'")
        if mission is None:
            mission = missions_mod.list_missions()[0]
        if isinstance(mission, missions_mod.Mission):
            self.mission = mission
        else:
            self.mission = missions_mod.load_mission(mission)
        self.mission_id: str = self.mission.id
        self.rules = rules
        self.opponent = opponent
        self.deck = cards_mod.load_deck(opponent)
        self.cards = {c.id: c for c in self.deck.cards}
        self.squad = squads_mod.load_squad(self.mission.squad)
        from ambush_env.core.rules_data import load_rules_data

        self.tables = load_tables()
        self.rd = load_rules_data()
        self.board: Board = board if board is not None else load_board(self.mission.map)
        self._board_pristine = self.board.mutable_state()
        mrules = self.mission.rules
        self.sight = SightCache(
            self.board,
            sight_cap=getattr(mrules, "sight_cap", None),
            blocking_landmarks=tuple(getattr(mrules, "blocking_landmarks", ()) or ()),
        )
        self._seed = seed
        self.dice = Dice(seed)
        self.state = GameState()
        self._events: list[dict] = []
        self._legal: list[int] | None = None
        self._offsets: list[list[int]] | None = None
        self._bldg_offsets: list[list[tuple[int, int]]] | None = None
        self._throw_cache: dict = {}
        self._move_costs: list[list[int]] | None = None
        self._move_costs_version = -1
        self._move_cost_cache: dict[str, list[list[int]]] = {}
        self._vehicle_costs: dict[tuple, list[int]] = {}  # vehicles.cost_row, per board version
        # static lookups
        b = self.board
        self.entry_hexes = [b.index(h) for h in self.mission.us_entry]
        self.exit_hexes = frozenset(b.index(h) for h in self.mission.exit_hexes)
        self.objective_hexes = frozenset(b.index(h) for h in self.mission.objective.hexes)
        self.triggers: dict[int, Any] = {b.index(lbl): t for lbl, t in self.mission.triggers.items()}
        self._weapon_cache: dict[str, Any] = {}
        from ambush_env.core import german as german_mod
        from ambush_env.core import paragraphs as paragraphs_mod

        from ambush_env.core import prisoners as prisoners_mod

        self._german = german_mod
        self._paragraphs = paragraphs_mod
        self._prisoners = prisoners_mod
        self.reset(seed)

    # ================================================================ setup and state
    def reset(self, seed: int | None = None, rng: np.random.Generator | None = None) -> list[dict]:
        """Start a new game: squad on the entry hexes, Operations pulse 1.

        Args:
            seed: dice seed (used when ``rng`` is None).
            rng: a generator all dice are drawn from (the env passes its ``np_random``).

        Returns:
            The setup events.
        """
        self.dice = Dice(seed if seed is not None else self._seed, rng=rng)
        self.board.set_mutable_state(self._board_pristine)
        self.sight.invalidate() if hasattr(self.sight, "invalidate") else None
        st = GameState(mission=self.mission_id)
        for k, s in enumerate(self.squad.soldiers):
            u = Unit(
                uid=k,
                side=US,
                name=s.name,
                role=s.role,
                hex=self.entry_hexes[k % len(self.entry_hexes)],
                IN=s.IN,
                PC=s.PC,
                WS=s.WS,
                DS=s.DS,
                MV=s.MV,
                CR=s.CR,
                weapon=s.weapon,
                equipment=list(s.equipment),
                aware=True,
                slot=k,
            )
            u.ammo = self.weapon(s.weapon).clip
            st.units.append(u)
        self._place_vehicles(st)
        st.phase = int(Phase.OPERATIONS)
        st.board = self.board.mutable_state()
        self.state = st
        self._events = []
        self._legal = None
        self.emit({"type": "setup", "mission": self.mission_id, "squad": [u.name for u in st.units]})
        self._advance()
        return self._take_events()

    def _place_vehicles(self, st: GameState) -> None:
        """The mission's vehicles (US first, then parked German ones), named V1, V2, ...

        Raises:
            ScenarioError: a vehicle on a hex its type can never be in (seed 000 p. 30).
        """
        from ambush_env.core.state import Vehicle
        from ambush_env.core.vehicles import load_vehicle_data

        data = load_vehicle_data()
        b = self.board
        placed = [(v, US) for v in self.mission.us_vehicles]
        placed += [(v, GER) for v in self.mission.german_vehicles]
        for k, (pv, side) in enumerate(placed):
            h = b.index(pv.hex)
            t = data.vehicles[pv.vehicle]
            tname = TERRAIN_NAMES[b.terrain[h]]
            if data.move_costs[tname] is None or (t.size == "large" and tname == "woods"):
                raise ScenarioError(f"mission {self.mission_id}: {t.name} at {pv.hex} stands on "
                                    f"{tname}, where a vehicle can never be (seed 000 p. 30)")
            st.vehicles.append(Vehicle(vid=k, type=pv.vehicle, side=side, name=f"V{k + 1}",
                                       hex=h, facing=DIRECTION_NAMES.index(pv.facing),
                                       closed=not t.open))

    def get_state(self) -> dict:
        """The whole game as a JSON-able dict (state, live board, dice generator)."""
        self.state.board = self.board.mutable_state()
        return {"state": self.state.to_dict(), "dice": self.dice.get_state()}

    def set_state(self, d: dict) -> None:
        """Restore :meth:`get_state`'s dict. Raises KeyError/TypeError when malformed."""
        self.state = GameState.from_dict(d["state"])
        self.board.set_mutable_state(self.state.board)
        self.dice.set_state(d["dice"])
        self._events = []
        self._legal = None

    # ================================================================ small queries
    def emit(self, event: dict) -> None:
        """Record a rule event (returned by the current :meth:`step`)."""
        self._events.append(event)

    def _take_events(self) -> list[dict]:
        ev = self._events
        self._events = []
        return ev

    @property
    def in_rounds(self) -> bool:
        return self.state.phase == Phase.ROUNDS

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def result(self) -> int:
        return self.state.result

    @property
    def vp(self) -> int:
        """Total VP now: awarded VP (paragraphs, exits, objective) + :meth:`casualty_vp`."""
        return self.state.vp + self.casualty_vp()

    def weapon(self, weapon_id: str) -> Any:
        """The weapon record of ``weapons.yaml`` (cached)."""
        w = self._weapon_cache.get(weapon_id)
        if w is None:
            w = self.tables.weapons.weapons[weapon_id]
            self._weapon_cache[weapon_id] = w
        return w

    def weapon_class(self, weapon_id: str) -> Any:
        """The :class:`~ambush_env.core.tables.WeaponClass` of a weapon id."""
        return self.tables.weapon_class[weapon_id]

    def offset_target(self, hex_: int, k: int) -> int:
        """The hex at ``orders.HEX_OFFSETS[k]`` from ``hex_``, −1 off the map (cached table)."""
        t = self._offsets
        if t is None:
            b = self.board
            t = self._offsets = [
                [b.offset_hex(i, dq, dr) for dq, dr in O.HEX_OFFSETS] for i in range(b.n)
            ]
        return t[hex_][k]

    def building_offsets(self, hex_: int) -> list[tuple[int, int]]:
        """``(offset index, hex)`` of the building hexes within the offset radius of ``hex_``
        (candidates for fire at a wall; static, cached)."""
        t = self._bldg_offsets
        if t is None:
            b = self.board
            t = self._bldg_offsets = [
                [(k, j) for k in range(1, O.N_OFFSETS)
                 if (j := self.offset_target(i, k)) >= 0 and b.building[j] is not None]
                for i in range(b.n)
            ]
        return t[hex_]

    def units_at(self, hex_: int) -> list[Unit]:
        """Every unit in a hex, any status (hidden Germans excluded)."""
        return [u for u in self.state.units if u.hex == hex_ and u.status != HIDDEN]

    def us_units(self) -> list[Unit]:
        """The squad in slot order."""
        return [u for u in self.state.units if u.side == US]

    def germans(self) -> list[Unit]:
        return [u for u in self.state.units if u.side == GER]

    def contact_units(self) -> list[Unit]:
        """Known Germans in contact-slot order (the order fire/assault orders use)."""
        units = self.state.units
        return [units[i] for i in self.state.contacts]

    def active_known_germans(self) -> list[Unit]:
        units = self.state.units
        return [units[i] for i in self.state.contacts if units[i].status == ACTIVE]

    def time_left(self) -> tuple[int, int]:
        """(Operations pulses left, Rounds left) of the mission's time limits."""
        tl = self.mission.time_limit
        return (
            max(0, tl.operations_pulses - self.state.pulse),
            max(0, tl.rounds - self.state.rounds_total),
        )

    def can_see(self, a: Unit, b: Unit) -> bool:
        """Line of sight between two units' hexes at their stances (seed 004, RULES.md §3);
        a soldier in a vehicle sees and is seen as the vehicle (seed 004 p. 18)."""
        if a.vehicle < 0 and b.vehicle < 0:
            return self.sight.can_see(a.hex, b.hex, a.stance, b.stance)
        return self.sight.can_see(a.hex, b.hex, a.stance, b.stance,
                                  sighter_in_vehicle=self._vehicle_size(a),
                                  target_in_vehicle=self._vehicle_size(b))

    def _vehicle_size(self, u: Unit) -> str | None:
        if u.vehicle < 0:
            return None
        from ambush_env.core.vehicles import vtype

        return vtype(self.state.vehicles[u.vehicle]).size

    def in_command(self, u: Unit) -> bool:
        """RULES.md §5: a commander, or within the CR of an active, unpanicked, unwounded one.

        Germans are always in command; a mission rule may put every US soldier in command for
        the first Rounds (``rules.all_in_command_rounds``).
        """
        if u.side == GER:
            return True
        n = getattr(self.mission.rules, "all_in_command_rounds", 0) or 0
        if self.in_rounds and self.state.round <= n:
            return True
        if u.CR > 0 and not u.panicked:
            return True
        dist = self.board.distance
        for c in self.state.units:
            if (
                c.side == US
                and c.CR > 0
                and c.uid != u.uid
                and c.status == ACTIVE
                and c.hex >= 0
                and not c.panicked
                and not c.wounded
                and dist(c.hex, u.hex) <= c.CR
            ):
                return True
        return False

    def stats(self) -> dict:
        """Casualty counts for the benchmark."""
        s = {"us_killed": 0, "us_incapacitated": 0, "us_wounded": 0, "germans_killed": 0,
             "germans_captured": 0, "us_exited": 0}
        for u in self.state.units:
            if u.side == US:
                s["us_killed"] += u.status == Status.KILLED
                s["us_incapacitated"] += u.status == Status.INCAPACITATED
                s["us_wounded"] += u.wounded and u.status not in (Status.KILLED, Status.INCAPACITATED)
                s["us_exited"] += u.exited
            else:
                s["germans_killed"] += u.status == Status.KILLED
                s["germans_captured"] += u.status == Status.CAPTURED
        return s

    # ================================================================ VP and the end
    def award_vp(self, amount: int, reason: str) -> None:
        """Add VP (RULES.md §15) and record why."""
        if amount:
            self.state.vp += amount
            self.state.vp_log.append([reason, amount])
            self.emit({"type": "vp", "amount": amount, "reason": reason, "total": self.state.vp})

    def end_mission(self, reason: str) -> None:
        """End the mission and score it by the result thresholds (RULES.md §15)."""
        st = self.state
        if st.over:
            return
        st.over = True
        st.phase = int(Phase.OVER)
        st.end_reason = reason
        th = self.mission.results
        vp = self.vp
        if vp >= th.decisive_win:
            res = Result.DECISIVE_WIN
        elif vp >= th.win:
            res = Result.WIN
        elif vp >= th.draw:
            res = Result.DRAW
        else:
            res = Result.LOSS
        st.result = int(res)
        st.turn = TurnState()
        self.emit({"type": "mission_end", "reason": reason, "vp": vp, "result": RESULT_NAMES[res]})

    def _check_end(self) -> bool:
        """End when no US soldier is left on the map (RULES.md §15)."""
        st = self.state
        if st.over:
            return True
        if not any(u.side == US and u.status == ACTIVE and u.hex >= 0 for u in st.units):
            self.end_mission("no US soldier left on the map")
            return True
        return False

    def casualty_vp(self) -> int:
        """VP from the current status of every soldier (RULES.md §15, mission ``vp``).

        Each soldier counts once, at his worst state: a German killed, incapacitated or
        captured; a US soldier killed, incapacitated, or wounded (still active). Computed from
        the state, so escalations (a wound becoming an incapacitation) never count twice.
        """
        vp = self.mission.vp
        total = 0
        KILLED, INCAP, CAPT = int(Status.KILLED), int(Status.INCAPACITATED), int(Status.CAPTURED)
        for u in self.state.units:
            s = u.status
            if u.side == GER:
                if s == KILLED:
                    total += vp.german_killed
                elif s == INCAP:
                    total += vp.german_incapacitated
                elif s == CAPT:
                    total += vp.german_captured
            else:
                if s == KILLED:
                    total += vp.us_killed
                elif s == INCAP:
                    total += vp.us_incapacitated
                elif u.wounded:
                    total += vp.us_wounded
        return total

    def _check_objective(self) -> None:
        """Award the objective VP once: a US soldier in it and no active German in it."""
        st = self.state
        flag = "objective_taken"
        if flag in st.flags or not self.objective_hexes:
            return
        obj = self.objective_hexes
        us_in = any(u.side == US and u.status == ACTIVE and u.hex in obj for u in st.units)
        if not us_in:
            return
        if any(u.side == GER and u.status == ACTIVE and u.hex in obj for u in st.units):
            return
        st.flags.append(flag)
        self.award_vp(self.mission.vp.objective_taken, f"{self.mission.objective.name} taken")

    # ================================================================ decisions
    def acting_unit(self) -> Unit | None:
        """The US unit deciding now; None while a SELECT_UNIT decision is pending or over."""
        uid = self.state.turn.uid
        return self.state.units[uid] if uid >= 0 else None

    def eligible_units(self) -> list[Unit]:
        """US units that a SELECT_UNIT order may pick now (empty when none is pending)."""
        st = self.state
        if st.over or st.turn.uid >= 0:
            return []
        return self._eligible()

    def _eligible(self) -> list[Unit]:
        st = self.state
        if st.phase == Phase.OPERATIONS:
            done = st.ops_done
            return [u for u in st.units if u.side == US and u.status == ACTIVE and u.hex >= 0
                    and u.uid not in done]
        space, side = self._current_space()
        if side != US:
            return []
        return [u for u in st.units if u.side == US and u.ar == space and u.status == ACTIVE]

    def _current_space(self) -> tuple[int, int]:
        """The first AR space with a marker: 2-Turn winner, 2-Turn loser, 1-Turn winner, loser."""
        st = self.state
        win = st.initiative
        lose = 1 - win
        for space in (TWO, ONE):
            for side in (win, lose):
                for u in st.units:
                    if u.side == side and u.ar == space and u.status == ACTIVE:
                        return space, side
        return -1, -1

    def legal_actions(self) -> list[int]:
        """Every order legal now, as order integers (one source of legality, STYLE.md habit 2).

        Returns an empty list only when the game is over.
        """
        if self._legal is not None:
            return self._legal
        st = self.state
        if st.over:
            out: list[int] = []
        elif st.turn.uid < 0:
            out = [_BASE[K.SELECT_UNIT] + u.slot for u in self._eligible()]
        else:
            out = unit_orders(self, st.units[st.turn.uid])
        self._legal = out
        return out

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is among :meth:`legal_actions`."""
        return action in self.legal_actions()

    def invalidate(self) -> None:
        """Forget cached legal orders (call after changing ``state`` by hand, e.g. in tests)."""
        self._legal = None

    def step(self, action: int) -> list[dict]:
        """Carry out one US decision, then let the Germans act until the next US decision.

        Args:
            action: an order integer (``orders.encode``).

        Returns:
            The rule events of this step (dicts with a ``type``).

        Raises:
            IllegalActionError: the order is not legal now (names the order and the unit).
        """
        st = self.state
        if st.over:
            raise IllegalActionError(f"order {action}: the mission is over")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"order {self.describe_action(action)} (#{action}) is not legal now for "
                f"{self._actor_name()}"
            )
        st.steps += 1
        self._legal = None
        self._apply(int(action))
        self._advance()
        self._legal = None
        return self._take_events()

    def _actor_name(self) -> str:
        u = self.acting_unit()
        if u is not None:
            return u.name
        return "the side (a unit must be selected first)"

    def describe_action(self, action: int) -> str:
        """Human-readable order text, e.g. ``"US3 fire aimed at G2 (L7)"``.

        Raises:
            ValueError: ``action`` outside ``0..N_ORDERS-1``.
        """
        from ambush_env.core.legal import describe

        return describe(self, action)

    # ================================================================ applying US orders
    def _apply(self, action: int) -> None:
        from ambush_env.core import actions as A

        kind, arg = O.decode(action)
        st = self.state
        if kind == K.SELECT_UNIT:
            u = next(u for u in st.units if u.side == US and u.slot == arg)
            self._start_turn(u)
            return
        u = st.units[st.turn.uid]
        A.apply_us_order(self, u, kind, arg)

    def _start_turn(self, u: Unit) -> None:
        self.state.turn = TurnState(uid=u.uid)

    def end_turn(self, u: Unit) -> None:
        """Finish ``u``'s turn: mark the AR track / the pulse and clear the turn state."""
        st = self.state
        if st.turn.uid == u.uid:
            st.turn = TurnState()
        if st.phase == Phase.OPERATIONS:
            if u.uid not in st.ops_done:
                st.ops_done.append(u.uid)
        elif st.phase == Phase.ROUNDS:
            if u.ar == TWO:
                u.ar = ONE if not u.wounded else COMPLETE
            elif u.ar == ONE:
                u.ar = COMPLETE
        self._check_objective()

    # ================================================================ the loop
    def _advance(self) -> None:
        """Run the sequence of play until a US decision is needed or the mission ends."""
        st = self.state
        guard = 0
        while not st.over:
            guard += 1
            if guard > 10000:  # defensive: a rules bug must not hang an RL run
                raise RuntimeError("sequence of play did not reach a US decision")
            if self._check_end():
                return
            if any(u.status == Status.CAPTURED and u.hex >= 0 for u in st.units):
                self._prisoners.check_escapes(self)
            if st.turn.uid >= 0:
                u = st.units[st.turn.uid]
                if u.status == ACTIVE and (st.phase != Phase.ROUNDS or u.ar in (TWO, ONE)):
                    return
                # the acting unit was knocked out or panicked during its own turn
                st.turn = TurnState()
                continue
            if st.phase == Phase.OPERATIONS:
                elig = self._eligible()
                if not elig:
                    self._end_pulse()
                    continue
                if len(elig) == 1:
                    self._start_turn(elig[0])
                return
            # Rounds
            space, side = self._current_space()
            if space < 0:
                self._end_round()
                continue
            if side == GER:
                g = next(u for u in st.units if u.side == GER and u.ar == space and u.status == ACTIVE)
                self._german.german_turn(self, g)
                if g.ar == space:  # not already moved by damage
                    g.ar = ONE if space == TWO else COMPLETE
                continue
            elig = self._eligible()
            if len(elig) == 1:
                self._start_turn(elig[0])
            return

    def _end_pulse(self) -> None:
        st = self.state
        st.pulse += 1
        st.ops_done = []
        self.emit({"type": "pulse_end", "pulse": st.pulse})
        if st.pulse >= self.mission.time_limit.operations_pulses:
            self.end_mission("time limit (Operations pulses)")

    # ---------------------------------------------------------------- Rounds
    def begin_rounds(self, reason: str, aware: frozenset[int] | set[int] = frozenset()) -> None:
        """Switch to Rounds at once (RULES.md §5); Round numbers restart at 1.

        Args:
            reason: why (for the event).
            aware: uids of the US soldiers who passed a sighting check just now; every other
                US soldier is unaware in Round 1 (RULES.md §5 awareness ⚙).
        """
        st = self.state
        if st.phase != Phase.OPERATIONS or st.over:
            return
        st.phase = int(Phase.ROUNDS)
        st.round = 0
        st.ops_done = []
        st.turn = TurnState()  # the unit's Operations action is over
        for u in st.units:
            if u.side == US:
                u.aware = u.uid in aware
        self.emit({"type": "rounds_begin", "reason": reason})
        self._start_round()

    def attack_begins_rounds(self, reason: str) -> None:
        """Any side firing, throwing or assaulting in Operations begins Rounds at once
        (RULES.md §5); the US soldiers already aware stay aware. No-op in Rounds."""
        if self.state.phase == Phase.OPERATIONS and not self.state.over:
            self.begin_rounds(reason, {u.uid for u in self.state.units if u.side == US and u.aware})

    def _start_round(self) -> None:
        st = self.state
        st.round += 1
        st.rounds_total += 1
        if st.rounds_total > self.mission.time_limit.rounds:
            self.end_mission("time limit (Rounds)")
            return
        d = self.dice
        # awareness (RULES.md §5 ⚙)
        for u in st.units:
            if u.side == US and u.status == ACTIVE and not u.aware:
                if st.round >= self.rd.awareness.aware_round:
                    u.aware = True
                elif st.round == self.rd.awareness.check_round:
                    r = d.d10(f"{u.name} awareness PC check")
                    u.aware = r <= u.PC
                    self.emit({"type": "awareness_check", "unit": u.name, "roll": r, "pc": u.PC,
                               "aware": u.aware})
        self._german.start_of_round_awareness(self)
        us_roll = d.d10("US initiative")
        ger_roll = d.d10("German initiative")
        st.us_roll, st.german_roll = us_roll, ger_roll
        st.initiative = US if us_roll > ger_roll else GER
        ev_ar = {}
        for u in st.units:
            u.panicked = False
            u.given_turn = False
            if u.status != ACTIVE or u.hex < 0:
                u.ar = INACTIVE if u.status != ACTIVE else int(ARSpace.NONE)
                continue
            if u.side == GER and u.uid not in st.contacts:
                u.ar = int(ARSpace.NONE)  # hidden: no marker
                continue
            val = (us_roll if u.side == US else ger_roll) + u.IN
            ev_ar[u.name] = val
            u.ar = self._ar_space(u, val)
            if u.ar == PANIC:
                u.panicked = True
        self.emit({"type": "round_start", "round": st.round, "rolls": {"US": us_roll, "German": ger_roll},
                   "initiative": "US" if st.initiative == US else "German", "ar": ev_ar})

    def _ar_space(self, u: Unit, val: int) -> int:
        """The AR track of RULES.md §5 ⚙ (thresholds in ``tables.ar_track``)."""
        t = self.rd.ar_track
        if val >= t.two_turn:
            sp = TWO
        elif val >= t.one_turn:
            sp = ONE
        elif val >= t.command:
            sp = ONE if self.in_command(u) else COMPLETE
        else:
            sp = ONE if self.in_command(u) else PANIC
        if u.wounded and sp == TWO:
            sp = ONE  # seed 002 p. 26: at most one turn per Round
        return sp

    def _end_round(self) -> None:
        st = self.state
        for u in st.units:
            if u.panicked and u.status == ACTIVE and u.vehicle < 0:
                u.stance = PRONE  # seed 002 p. 26 (stance is ignored inside a vehicle, seed 000)
            u.panicked = False
            if u.status == ACTIVE:
                u.ar = int(ARSpace.NONE)
        self.emit({"type": "round_end", "round": st.round})
        if not self.active_known_germans():
            st.phase = int(Phase.OPERATIONS)
            st.round = 0
            st.initiative = -1
            self.emit({"type": "operations_resume"})
            return
        self._start_round()

    # ================================================================ movement helpers
    def soldier_exits(self, u: Unit) -> None:
        """``u`` leaves the map from an exit hex (RULES.md §15): removed, inactive, and the
        mission's ``exit_per_soldier`` VP. His turn, if he is playing one, is the caller's."""
        self.emit({"type": "exit", "unit": u.name, "hex": self.board.label(u.hex)})
        u.exited = True
        u.status = int(Status.REMOVED)
        u.ar = INACTIVE
        u.hex = -1
        self.award_vp(self.mission.vp.exit_per_soldier, f"{u.name} exited")

    def enter_hex(self, u: Unit, dest: int) -> None:
        """Put ``u`` into ``dest`` and run what entering a hex triggers (RULES.md §6-§7):
        the paragraph check (US only), then sightings of hidden Germans."""
        self.pack_crew_weapon(u)
        u.hex = dest
        if u.side == US:
            self._paragraphs.paragraph_check(self, u, dest)
            if not self.state.over:
                self.check_sightings()

    def pack_crew_weapon(self, u: Unit) -> None:
        """Moving a crew weapon (RULES.md §6 ⚙): a prepared crew weapon that moves with its
        gunner must be prepared again where it stops."""
        if u.prepared and u.weapon and self.weapon_class(u.weapon).crew:
            u.prepared = False
            self.emit({"type": "crew_weapon_moved", "unit": u.name, "weapon": u.weapon})

    def check_sightings(self) -> None:
        """Reveal placed Germans that a US soldier now sees (RULES.md §7 sighting)."""
        st = self.state
        for g in st.units:
            if g.side != GER or g.status != ACTIVE or g.hex < 0 or g.uid in st.contacts:
                continue
            watchers = [u for u in st.units if u.side == US and u.status == ACTIVE and u.hex >= 0
                        and self.can_see(u, g)]
            if watchers:
                self.sighting(g, watchers)

    def reveal(self, g: Unit) -> None:
        """Make ``g`` a known contact (a slot in the contacts table)."""
        st = self.state
        if g.uid not in st.contacts and len(st.contacts) < O.K_SLOTS:
            st.contacts.append(g.uid)
            self.emit({"type": "contact", "unit": g.name, "hex": self.board.label(g.hex)})

    def sighting(self, g: Unit, watchers: list[Unit]) -> None:
        """A German placed or found in the sight of US soldiers (RULES.md §7 ⚙).

        Each watcher makes a PC check; those who pass become aware; the first to pass takes a
        free snap fire at ``g`` (using no turn) when his weapon allows. Then Rounds begin.
        """
        self.reveal(g)
        first = None
        passed: set[int] = set()
        for u in watchers:
            r = self.dice.d10(f"{u.name} sighting PC check")
            ok = r <= u.PC
            self.emit({"type": "sighting", "unit": u.name, "target": g.name, "roll": r, "pc": u.PC,
                       "passed": ok})
            if ok:
                u.aware = True
                passed.add(u.uid)
                if first is None:
                    first = u
        if first is not None:
            from ambush_env.core import actions as A

            if A.can_fire_at(self, first, g, snap=True, free=True):
                self.emit({"type": "free_snap_fire", "unit": first.name, "target": g.name})
                A.do_fire(self, first, g, snap=True, begin_rounds=False)
        if not self.state.over:
            self.begin_rounds(f"sighting of {g.name}", passed)
