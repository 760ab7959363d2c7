"""Owns the context of a mission (:class:`Ctx`, static data built once) and the bundle that
rules functions act on (:class:`Match`: context, state, dice, log) (docs/ARCHITECTURE.md).

:class:`Ctx` owns what never changes while a mission is played: the mission, the German deck,
the squad, the tables, the map with its sight cache and every lookup precomputed from them.
It is built once per mission and shared by every game of it.

:class:`Match` is the bundle a rules function takes: ``(ctx, state, dice, log)``. Passing one
bundle instead of four arguments keeps the rules' signatures short; the bundle has no loop:
rules change ``state``, roll on ``dice``, append events to ``log`` and, where the game is
interrupted (a sighting, Rounds beginning, a trigger hex entered), *record a request* in
``state.pending`` with :meth:`Match.request`. Only :mod:`ambush_env.core.play.sequence` resolves
requests.

⚙ The board's live walls and rubble are kept on the shared :class:`~ambush_env.core.world.board.Board`
(and mirrored into ``state.board`` by :meth:`Match.sync_board`), because the sight cache is
updated incrementally from the board's change log; a game that restores a state restores
the board from ``state.board``.
"""

from __future__ import annotations

from typing import Any

from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.model.state import GameState, Unit, Vehicle
from ambush_env.core.model.types import (
    ACTIVE,
    CAPTURED,
    DIRECTION_NAMES,
    GER,
    HIDDEN,
    INCAP,
    KILLED,
    OBJECTIVE_TAKEN,
    REMOVED,
    US,
    Phase,
    Status,
)
from ambush_env.core.world.board import Board, load_board
from ambush_env.core.world.cards import CARDS_DIR, load_deck
from ambush_env.core.world.data import resolve_data
from ambush_env.core.world.los import SightCache
from ambush_env.core.world.missions import (
    Mission,
    check_hexes,
    check_vehicles,
    list_missions,
    load_mission,
)
from ambush_env.core.world.rules_data import load_rules_data
from ambush_env.core.world.squads import load_squad
from ambush_env.core.world.tables import load_tables
from ambush_env.core.world.vehicle_data import load_vehicle_data

RULES = ("standard", "d100")
# ⚙ Entry caps of the context's caches of values derived from the map (each is cleared when it
# is full: one recomputation per key afterwards, where an LRU's bookkeeping would cost every
# hit on the hot path). Measured on tank_hunt (random play, 20 000 steps): a wall entry takes
# about 270 bytes, a throw entry 1.8 KB, a vehicle cost row 10 KB; 60 000 steps of tank_hunt
# filled 1 662 wall entries and 206 throw entries. So a context holds at most ~0.6 MB of wall
# targets, ~4 MB of throws and ~0.2 MB of cost rows, however long it plays. The keys hold
# values only (hexes, stances, weapon classes, :meth:`Board.live_key`), never an ``id()``:
# the caches live on the context, whose one board (:attr:`Ctx.board`) never changes.
WALL_CACHE_MAX = 2048  # fire.wall_targets
THROW_CACHE_MAX = 2048  # legal._throws
VEHICLE_COSTS_MAX = 16  # vehicles.cost_row (the rows and each side's last row)


def _check_deck_cards(mission: Mission, deck: Any, opponent: Any) -> None:
    """Every German card the mission places is a card of the deck played (``opponent``:
    another deck than the mission's ``deck_default`` may lack one).

    Raises:
        DataError: naming the deck's file and its field ``cards``.
    """
    for field, card_id in mission.card_refs():
        if card_id not in deck.card_ids:
            path, _shipped = resolve_data(CARDS_DIR, opponent, "deck")
            raise DataError(
                path,
                "cards",
                f"no card {card_id!r}, which mission {mission.id!r} places "
                f"({field}); the deck's cards: {', '.join(deck.card_ids)}",
            )


def board_key(live: dict) -> tuple:
    """A hashable key of a board's live state (``Board.mutable_state()``)."""
    return (tuple(live.get("collapsed", ())), tuple(live.get("destroyed_walls", ())))


class Ctx:
    """The static data of one mission under one rule set and deck (built once, shared).

    Args:
        mission: mission id, a path, a validated ``Mission``, or None (the reference mission).
        rules: ``"standard"`` or ``"d100"`` (RULES.md §13).
        opponent: German deck name (``data/cards/<name>.yaml``).
        board: a prebuilt board (a generated mission's), else the mission's map is loaded.

    Raises:
        ScenarioError: unknown mission, deck or rules name.
        DataError: a malformed data file (names file and field), a hex of the mission off
            the board or a vehicle where it cannot be (:func:`~ambush_env.core.world.missions.
            check_hexes`, :func:`~ambush_env.core.world.missions.check_vehicles`: naming
            ``<mission id>`` and the field), or a card the mission places that the deck
            ``opponent`` lacks (naming the deck's file and ``cards``).
    """

    def __init__(
        self,
        mission: str | Mission | None = None,
        *,
        rules: str = "standard",
        opponent: str = "regular",
        board: Board | None = None,
    ) -> None:
        if rules not in RULES:
            raise ScenarioError(f"unknown rules {rules!r}; known: 'standard', 'd100'")
        if mission is None:
            mission = list_missions()[0]
        self.mission: Mission = mission if isinstance(mission, Mission) else load_mission(mission)
        self.mission_id: str = self.mission.id
        self.rules = rules
        self.opponent = opponent
        self.deck = load_deck(opponent)
        self.cards = {c.id: c for c in self.deck.cards}
        self.squad = load_squad(self.mission.squad)
        self.tables = load_tables()
        self.rd = load_rules_data()
        if rules != "d100":
            _standard_gear(self.squad, self.tables)
        self.board: Board = board if board is not None else load_board(self.mission.map)
        # a mission given as an object (a test's, a position's) or played on another board
        # may not have been loaded through the checks: its hexes and vehicles are checked
        # against the board it is played on, its Germans against the deck they come from
        source = f"<mission {self.mission.id}>"
        check_hexes(self.mission, source, self.board.columns, self.board.rows)
        if self.mission.us_vehicles or self.mission.german_vehicles:
            check_vehicles(self.mission, source, board=self.board)
        _check_deck_cards(self.mission, self.deck, opponent)
        self.board_pristine = self.board.mutable_state()
        # whose live walls and rubble the shared board holds now (Game._own_board)
        self.board_key: tuple = board_key(self.board_pristine)
        mrules = self.mission.rules
        self.sight = SightCache(
            self.board,
            sight_cap=getattr(mrules, "sight_cap", None),
            blocking_landmarks=tuple(getattr(mrules, "blocking_landmarks", ()) or ()),
        )
        b = self.board
        self.entry_hexes = [b.index(h) for h in self.mission.us_entry]
        self.exit_hexes = frozenset(b.index(h) for h in self.mission.exit_hexes)
        self.objective_hexes = frozenset(b.index(h) for h in self.mission.objective.hexes)
        # the objective's zone: its hexes and every hex within clear_radius of one (scoring)
        self.objective_zone = frozenset(
            z
            for h in self.objective_hexes
            for z in b.hexes_within(h, self.mission.objective.clear_radius)
        )
        self.triggers: dict[int, Any] = {
            b.index(lbl): t for lbl, t in self.mission.triggers.items()
        }
        # map booby traps (module traps): hex index -> MapBoobyTrap
        self.booby_traps: dict[int, Any] = {
            b.index(lbl): t for lbl, t in (getattr(self.mission, "booby_traps", None) or {}).items()
        }
        self.offsets: tuple[tuple[int, ...], ...] = b.offset_table(O.HEX_OFFSETS)  # read-only
        self._bldg_offsets: list[list[tuple[int, int]]] | None = None
        self._weapons: dict[str, Any] = {}
        # caches of values derived from the map (keyed by the board's live state / version)
        self.move_costs: list[list[int]] | None = None
        self.move_costs_version = -1
        self.move_costs_board: Board | None = None  # the board move_costs were computed on
        # (at most WALL_CACHE_MAX, THROW_CACHE_MAX, VEHICLE_COSTS_MAX entries; keys by value)
        self.throw_cache: dict = {}
        self.vehicle_costs: dict[tuple, Any] = {}
        self.wall_cache: dict[tuple, list[tuple[int, int]]] = {}  # fire.wall_targets
        # the German card rows, normalized once per card, column and row (german.row_entry):
        # keyed by (tank, card or role, column, row); as many entries as the cards have rows
        self.card_rows: dict[tuple, Any] = {}
        # each card column's row per d10 roll (german._roll): (tank, card or role, column)
        self.card_rolls: dict[tuple, list[int | None]] = {}
        # sight with the blocking landmarks paragraphs declared in play (``state.landmarks``):
        # derived caches keyed by their hexes (:meth:`sight_with`), the context's own ``sight``
        # left as the mission made it
        self._landmark_sight: dict[frozenset[int], SightCache] = {}

    def sight_with(self, landmark_hexes: frozenset[int]) -> SightCache:
        """The sight cache of this mission with blocking landmarks in ``landmark_hexes`` too
        (hex indices; the ``landmark`` effect, RULES.md §3, §15): :attr:`sight` when empty,
        else one derived from it once (:meth:`~ambush_env.core.world.los.SightCache.
        with_landmark_hexes`) and kept, so it follows the live board as :attr:`sight` does."""
        if not landmark_hexes:
            return self.sight
        s = self._landmark_sight.get(landmark_hexes)
        if s is None:
            if len(self._landmark_sight) >= 16:  # a bound (each holds 9 n^2 bools)
                self._landmark_sight.clear()
            s = self._landmark_sight[landmark_hexes] = self.sight.with_landmark_hexes(
                landmark_hexes
            )
        return s

    def start_vehicles(self) -> list[Vehicle]:
        """The mission's vehicles at its start (US first, then parked German ones), named
        V1, V2, ... (where they stand was checked when the mission was loaded:
        :func:`~ambush_env.core.world.missions.check_vehicles`)."""
        data = load_vehicle_data()
        b = self.board
        placed = [(v, US) for v in self.mission.us_vehicles]
        placed += [(v, GER) for v in self.mission.german_vehicles]
        out = []
        for k, (pv, side) in enumerate(placed):
            t = data.vehicles[pv.vehicle]
            v = Vehicle(
                vid=k,
                type=pv.vehicle,
                side=side,
                name=f"V{k + 1}",
                hex=b.index(pv.hex),
                facing=DIRECTION_NAMES.index(pv.facing),
                closed=not t.open,
            )
            if (
                t.kind == "tank"
            ):  # a full crew, the cannon loaded ⚙ (its unit: tanks.link_tank_units)
                v.crew = t.occupants
                v.cannon_loaded = data.start_loaded
            out.append(v)
        return out

    def weapon(self, weapon_id: str) -> Any:
        """The weapon record of ``weapons.yaml``."""
        w = self._weapons.get(weapon_id)
        if w is None:
            w = self._weapons[weapon_id] = self.tables.weapons.weapons[weapon_id]
        return w

    def building_offsets(self, hex_: int) -> list[tuple[int, int]]:
        """``(offset index, hex)`` of the building hexes within the offset radius of ``hex_``."""
        t = self._bldg_offsets
        if t is None:
            b = self.board
            t = self._bldg_offsets = [
                [
                    (k, j)
                    for k in range(1, O.N_OFFSETS)
                    if (j := self.offsets[i][k]) >= 0 and b.building[j] is not None
                ]
                for i in range(b.n)
            ]
        return t[hex_]


class Match:
    """``(ctx, state, dice, log)``: what every rules function acts on (module docstring).

    Attributes:
        ctx: the :class:`Ctx`.
        state: the :class:`~ambush_env.core.model.state.GameState` (plain data).
        dice: the :class:`~ambush_env.core.model.dice.Dice` every roll goes through.
        log: the events (:mod:`~ambush_env.core.model.events`) recorded since the log was last
            taken (one channel).
    """

    def __init__(self, ctx: Ctx, state: GameState | None = None, dice: Dice | None = None) -> None:
        self.ctx = ctx
        self.state = state if state is not None else GameState(mission=ctx.mission_id)
        self.dice = dice if dice is not None else Dice(None)
        self.log: list[E.Event] = []
        # the context's names, copied once: plain attributes are read on every rule's hot path
        self.board: Board = ctx.board
        self.tables = ctx.tables
        self.rd = ctx.rd
        self.mission: Mission = ctx.mission
        self.mission_id: str = ctx.mission_id
        self.cards: dict = ctx.cards
        self._sight: SightCache = ctx.sight
        self._lm_key: tuple = ()  # state.landmarks the last :attr:`sight` was looked up for
        self._lm_sight: SightCache = ctx.sight
        self.exit_hexes: frozenset[int] = ctx.exit_hexes
        self.objective_hexes: frozenset[int] = ctx.objective_hexes
        self.objective_zone: frozenset[int] = ctx.objective_zone
        self.triggers: dict[int, Any] = ctx.triggers
        self.booby_traps: dict[int, Any] = ctx.booby_traps
        self.rules: str = ctx.rules
        self._offsets = ctx.offsets
        self._weapon_class = ctx.tables.weapon_class
        # ⚙ the German cards know where every US soldier is (they choose targets by line of
        # sight anyway); a German side played by an agent knows only the US soldiers some
        # German sees (two-sided play: :meth:`known_enemies`)
        self.omniscient_germans = True

    @property
    def sight(self) -> SightCache:
        """The sight cache for the state now (RULES.md §3): the context's, or, once a
        paragraph has declared blocking landmarks (``state.landmarks``), the context's cache
        derived with their hexes (:meth:`Ctx.sight_with`). The context itself never changes."""
        lm = self.state.landmarks
        if not lm:
            return self._sight
        key = tuple(lm)
        if key != self._lm_key:
            self._lm_key = key
            self._lm_sight = self.ctx.sight_with(
                frozenset(h for h, _name, blocking in lm if blocking)
            )
        return self._lm_sight

    def weapon(self, weapon_id: str) -> Any:
        return self.ctx.weapon(weapon_id)

    def weapon_class(self, weapon_id: str) -> Any:
        """The :class:`~ambush_env.core.world.tables.WeaponClass` of a weapon id."""
        return self._weapon_class[weapon_id]

    def offset_target(self, hex_: int, k: int) -> int:
        """The hex at ``orders.HEX_OFFSETS[k]`` from ``hex_``, −1 off the map."""
        return self._offsets[hex_][k]

    def building_offsets(self, hex_: int) -> list[tuple[int, int]]:
        return self.ctx.building_offsets(hex_)

    # ---------------------------------------------------------------- the log and requests
    def emit(self, event: E.Event) -> None:
        """Record a rule event on the one channel (taken by the current step, which returns
        it in its dict form, :meth:`~ambush_env.core.model.events.Event.to_dict`)."""
        self.log.append(event)

    def request(self, kind: str, *args: Any) -> None:
        """Record an interruption for the sequence of play to resolve after this order
        (:mod:`ambush_env.core.play.sequence` lists the kinds)."""
        self.state.pending.append([kind, *args])

    def attack_begins_rounds(self, reason: str) -> None:
        """Any side firing, throwing or assaulting in Operations begins Rounds (RULES.md §5);
        the US soldiers already aware stay aware. Recorded as a request; no-op in Rounds."""
        st = self.state
        if st.phase == Phase.OPERATIONS and not st.over:
            self.request("begin_rounds", reason, None)

    def attacked(self, u: Unit, reason: str, begin_rounds: bool = True) -> None:
        """The sequence-of-play side of ``u``'s attack (a shot, a throw): a German who attacks
        is revealed, and in Operations the attack begins Rounds (:meth:`attack_begins_rounds`,
        RULES.md §5) unless ``begin_rounds`` is False."""
        if u.side == GER:
            self.reveal(u)
        if begin_rounds:
            self.attack_begins_rounds(reason)

    def reveal(self, g: Unit) -> None:
        """Make ``g`` a known contact (a slot in the contacts table)."""
        st = self.state
        if g.uid not in st.contacts and len(st.contacts) < O.K_SLOTS:
            st.contacts.append(g.uid)
            self.emit(E.Contact(unit=g.name, hex=self.board.label(g.hex)))

    def sync_board(self) -> None:
        """Mirror the board's live walls and rubble into ``state.board``."""
        self.state.board = self.board.mutable_state()

    # ---------------------------------------------------------------- queries
    @property
    def in_rounds(self) -> bool:
        return self.state.phase == Phase.ROUNDS

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def result(self) -> int:
        return self.state.result

    def units_at(self, hex_: int) -> list[Unit]:
        """Every unit in a hex, any status (hidden Germans excluded)."""
        return [u for u in self.state.units if u.hex == hex_ and u.status != HIDDEN]

    def us_units(self) -> list[Unit]:
        """The squad in slot order."""
        return [u for u in self.state.units if u.side == US]

    def germans(self) -> list[Unit]:
        return [u for u in self.state.units if u.side == GER]

    def contact_units(self) -> list[Unit]:
        """Known Germans in contact-slot order (the order the US fire/assault orders use)."""
        units = self.state.units
        return [units[i] for i in self.state.contacts]

    def enemy_slots(self, side: int) -> list[int]:
        """The uids an order's contact slot ``k`` points at for ``side`` (docs/API.md
        side-relative layout): the US side's known Germans (``state.contacts``); for the
        Germans ⚙ the US squad in slot order (the cards know every US soldier; whether a
        German may fire at one is the order generator's line-of-sight question)."""
        if side == US:
            return self.state.contacts
        if not self.omniscient_germans:
            return self.state.german_contacts
        return [u.uid for u in self.state.units if u.side == US]

    def known_enemies(self, side: int) -> set[int]:
        """uids of the active enemy units ``side`` knows of: for the US its contacts; for the
        Germans every US soldier while the cards play them, else the US soldiers some German
        has seen (``state.german_contacts``, :meth:`update_german_contacts`)."""
        st = self.state
        units = st.units
        if side == US:
            return {i for i in st.contacts if units[i].status == ACTIVE}
        if self.omniscient_germans:
            return {u.uid for u in units if u.side == US and u.status == ACTIVE and u.hex >= 0}
        return {i for i in st.german_contacts if units[i].status == ACTIVE and units[i].hex >= 0}

    def update_german_contacts(self) -> None:
        """An agent-played German side learns of every US soldier some active German on the
        map sees (or shares a hex with): he joins ``state.german_contacts`` for good."""
        st = self.state
        units = st.units
        known = st.german_contacts
        ger = [g for g in units if g.side == GER and g.status == ACTIVE and g.hex >= 0]
        if not ger:
            return
        for u in units:
            if (
                u.side == US
                and u.status == ACTIVE
                and u.hex >= 0
                and u.uid not in known
                and any(g.hex == u.hex or self.can_see(g, u) for g in ger)
            ):
                known.append(u.uid)

    def active_known_germans(self) -> list[Unit]:
        units = self.state.units
        return [units[i] for i in self.state.contacts if units[i].status == ACTIVE]

    def can_see(self, a: Unit, b: Unit) -> bool:
        """Line of sight between two units' hexes at their stances (seed 004, RULES.md §3);
        a soldier in a vehicle sees and is seen as the vehicle (seed 004 p. 18)."""
        sight = self.sight
        if a.vehicle < 0 and b.vehicle < 0:
            return sight.can_see(a.hex, b.hex, a.stance, b.stance)
        return sight.can_see(
            a.hex,
            b.hex,
            a.stance,
            b.stance,
            sighter_in_vehicle=self._vehicle_size(a),
            target_in_vehicle=self._vehicle_size(b),
        )

    def _vehicle_size(self, u: Unit) -> str | None:
        if u.vehicle < 0:
            return None
        from ambush_env.core.world.vehicle_data import vtype

        return vtype(self.state.vehicles[u.vehicle]).size

    def in_command(self, u: Unit) -> bool:
        """RULES.md §5: a commander, or within the CR of an active, unpanicked, unwounded one.

        Germans are always in command; a mission rule may put every US soldier in command for
        the first Rounds each time Rounds begin (``rules.all_in_command_rounds``), and a
        ``command`` effect through a mission Round (``state.command_until``, counted in
        ``rounds_total``).
        """
        if u.side == GER:
            return True
        n = getattr(self.mission.rules, "all_in_command_rounds", 0) or 0
        st = self.state
        if self.in_rounds and (st.round <= n or st.rounds_total <= st.command_until):
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

    def time_left(self) -> tuple[int, int]:
        """(Operations pulses left, Rounds left) of the mission's time limits."""
        tl = self.mission.time_limit
        return (
            max(0, tl.operations_pulses - self.state.pulse),
            max(0, tl.rounds - self.state.rounds_total),
        )

    def stats(self) -> dict:
        """Casualty counts for the benchmark."""
        s = {
            "us_killed": 0,
            "us_incapacitated": 0,
            "us_wounded": 0,
            "germans_killed": 0,
            "germans_captured": 0,
            "us_exited": 0,
        }
        for u in self.state.units:
            if u.role == "tank" and u.vehicle >= 0:
                continue  # a tank's unit is no soldier
            if u.side == US:
                s["us_killed"] += u.status == Status.KILLED
                s["us_incapacitated"] += u.status == Status.INCAPACITATED
                s["us_wounded"] += u.wounded and u.status not in (
                    Status.KILLED,
                    Status.INCAPACITATED,
                )
                # off the map alive (a body carried off in a car is a casualty, not an exit)
                s["us_exited"] += u.exited and u.status == Status.REMOVED
            else:
                s["germans_killed"] += u.status == Status.KILLED
                # a prisoner still held, or one his guard marched off (prisoners.march_off)
                s["germans_captured"] += u.status == Status.CAPTURED or (
                    u.exited and u.status == Status.REMOVED
                )
        return s

    @property
    def vp(self) -> int:
        """Total VP now: awarded VP (paragraphs, objective, prisoners marched off) +
        :meth:`casualty_vp` + :meth:`exit_vp`."""
        return self.state.vp + self.casualty_vp() + self.exit_vp()

    def exits_pay(self) -> bool:
        """Whether leaving the map scores now (RULES.md §15, the mission's ``vp.exits`` ⚙):
        ``always`` where leaving is itself the objective, otherwise (``after_objective``, the
        default) only once the objective is taken (flag ``objective_taken``) — a squad that
        walks off without doing the mission scores nothing for it."""
        return self.mission.vp.exits == "always" or OBJECTIVE_TAKEN in self.state.flags

    def exit_vp(self) -> int:
        """VP of the US soldiers and vehicles that have left by an exit hex (RULES.md §15):
        ``exit_per_soldier`` for each soldier who walked or rode off alive (a fallen man
        carried off in a car scores as a casualty only), ``vehicle_exited`` for each US vehicle
        driven off; 0 while :meth:`exits_pay` is False. Computed from the state, so the
        soldiers who left before the objective fell score the moment it does."""
        if not self.exits_pay():
            return 0
        vp = self.mission.vp
        men = 0
        for u in self.state.units:
            if u.side == US and u.exited and u.status == REMOVED and u.role != "tank":
                men += 1
        total = men * vp.exit_per_soldier
        if vp.vehicle_exited:
            for v in self.state.vehicles:
                if v.side == US and v.exited:
                    total += vp.vehicle_exited
        return total

    def _tank_vp(self, vp: Any) -> int:
        """VP of the tanks' state (mission ``vp.*_tank_*``, 0 unless a mission sets them ⚙)."""
        from ambush_env.core.world.vehicle_data import vtype

        total = 0
        for v in self.state.vehicles:
            if v.unit < 0 or not (v.disabled or v.immobilised) or vtype(v).kind != "tank":
                continue  # (the cheap tests first: this runs at every step)
            us = v.side == US
            if v.wrecked and not us:
                continue  # ⚙ a German tank its own driving overturned is no US kill (issue 25)
            if v.disabled:
                total += vp.us_tank_disabled if us else vp.german_tank_disabled
            elif v.immobilised:
                total += vp.us_tank_immobilised if us else vp.german_tank_immobilised
        return total

    def casualty_vp(self) -> int:
        """VP from the current status of every soldier (RULES.md §15, mission ``vp``).

        Each soldier counts once, at his worst state: a German killed, incapacitated or
        captured; a US soldier killed, incapacitated, or wounded (still active). Computed from
        the state, so escalations (a wound becoming an incapacitation) never count twice.
        """
        vp = self.mission.vp
        total = 0
        if self.state.vehicles:
            total += self._tank_vp(vp)
        for u in self.state.units:
            if u.role == "tank" and u.vehicle >= 0:
                continue  # a tank's unit is no soldier: its vehicle counts (_tank_vp)
            s = u.status
            if u.side == GER:
                if s == KILLED:
                    total += vp.german_killed
                elif s == INCAP:
                    total += vp.german_incapacitated
                elif s == CAPTURED:
                    total += vp.german_captured
            elif s == KILLED:
                total += vp.us_killed
            elif s == INCAP:
                total += vp.us_incapacitated
            elif u.wounded:
                total += vp.us_wounded
        return total + self._car_vp(vp) if self.state.vehicles else total

    def _car_vp(self, vp: Any) -> int:
        """VP of the vehicles' state other than tanks' (mission ``vp``, 0 unless a mission sets
        them ⚙): a US car disabled (``us_car_lost``), a German car disabled
        (``german_car_disabled``; a captured car is a US one, seed 002 p. 27). Counted once
        each, from the state; a vehicle driven off scores in :meth:`exit_vp`."""
        from ambush_env.core.world.vehicle_data import vtype

        total = 0
        for v in self.state.vehicles:
            if v.side == US and v.exited:
                continue  # off the map (exit_vp), whatever its state
            if v.disabled and vtype(v).kind == "car":
                if v.side == US:
                    total += vp.us_car_lost  # lost, whoever overturned it
                elif not v.wrecked:  # ⚙ a German car its own driving overturned: no US kill
                    total += vp.german_car_disabled
        return total


def _standard_gear(squad: Any, tables: Any) -> None:
    """Seed 003's weapons and charges (``d100_only`` in weapons.yaml) exist only under
    ``rules="d100"``: a squad carrying one otherwise raises DataError naming the field."""
    for i, s in enumerate(squad.soldiers):
        gear = [("weapon", s.weapon)] + [(f"equipment.{j}", e) for j, e in enumerate(s.equipment)]
        for where, g in gear:
            if g in tables.d100_only:
                raise DataError(
                    f"configs/squads/{squad.id}.yaml",
                    f"soldiers.{i}.{where}",
                    f"{g!r} exists only under rules 'd100' (seed 003)",
                )
