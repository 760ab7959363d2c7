"""Owns the stateful facade of one game: what the env, the command line and tests call.

A :class:`Game` is a :class:`~ambush_env.core.rules.ctx.Match` — context, state, dice, log — plus
the public entry points: :meth:`Game.reset`, :meth:`Game.legal_actions`, :meth:`Game.step`
(which checks legality and raises typed errors), :meth:`Game.describe_action` and the state
round trip. It holds no rules: orders are applied by :mod:`ambush_env.core.play.apply`, play is
advanced by :mod:`ambush_env.core.play.sequence`, and the German units' orders come from their
cards (:mod:`ambush_env.core.play.german`), chosen from the same order generator
(:mod:`ambush_env.core.play.legal`) that the US side's mask and ``step`` use.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ambush_env.core.combat import d100_attacks
from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import (
    AmbushError,
    DataError,
    DiceExhaustedError,
    IllegalActionError,
    ScenarioError,
)
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import GameState, TurnState, Unit
from ambush_env.core.model.types import ACTIVE, GER, US, Phase
from ambush_env.core.play import german as german_cards
from ambush_env.core.play import paragraphs, position
from ambush_env.core.play.apply import apply_order
from ambush_env.core.play.describe import describe
from ambush_env.core.play.legal import legal_orders
from ambush_env.core.play.sequence import OVER, Decision, advance, decision, eligible, resolve
from ambush_env.core.rules.ctx import Ctx, Match, board_key
from ambush_env.core.rules.fire import fire_refusal
from ambush_env.core.rules.turns import start_turn
from ambush_env.core.vehicles import tanks
from ambush_env.core.vehicles.vehicle_fire import aspect_of, vehicle_fire_refusal
from ambush_env.core.world.board import Board
from ambush_env.core.world.missions import Mission

_SELECT = O.ORDER_BASE[K.SELECT_UNIT]
GERMAN_MODES = ("cards", "agent")
MAX_CARD_ORDERS = 100_000  # German orders between two decisions of the other side (a guard)


class Game(Match):
    """One game of a mission.

    Args:
        mission: mission id (``list_missions()``), a path, or a validated ``Mission`` (a
            generated one, with ``board``); None = the reference mission.
        rules: ``"standard"`` (Hit Charts) or ``"d100"`` (seed 003 module, RULES.md §13).
        opponent: German deck name (``data/cards/<name>.yaml``): green, regular, veteran.
        seed: seed for the dice when :meth:`reset` gets neither seed nor generator.
        board: a prebuilt board for ``mission``.
        german: ``"cards"`` — the German units act from their cards inside :meth:`step`;
            ``"agent"`` — their decisions are returned like the US side's (two-sided play).
        ctx: a prebuilt :class:`~ambush_env.core.rules.ctx.Ctx` to share (the other arguments
            but ``seed`` and ``german`` are then ignored).

    Raises:
        ScenarioError: unknown mission, deck, rules name or German mode.
        DataError: a malformed data file (names file and field).

    Attributes:
        last_events: the typed events (:mod:`~ambush_env.core.model.events`) of the last
            :meth:`reset` or :meth:`step`, whose dict forms that call returned.
    """

    def __init__(
        self,
        mission: str | Mission | None = None,
        *,
        rules: str = "standard",
        opponent: str = "regular",
        seed: int | None = None,
        board: Board | None = None,
        german: str = "cards",
        ctx: Ctx | None = None,
    ) -> None:
        if german not in GERMAN_MODES:
            raise ScenarioError(f"unknown german={german!r}; known: 'cards', 'agent'")
        super().__init__(
            ctx if ctx is not None else Ctx(mission, rules=rules, opponent=opponent, board=board)
        )
        self._init_fields(german, seed, _mission_ref(self.ctx, mission))
        self.reset(seed)

    def _init_fields(self, german: str, seed: int | None, mission_ref: Any) -> None:
        """The facade's own fields beside the bundle's (every way a Game is made sets them here)."""
        self._mission_ref: Any = mission_ref
        self.german = german
        self.omniscient_germans = german == "cards"
        self._seed = seed
        self._legal: list[int] | None = None
        self._board_version = -1
        self._board_key_seen: tuple | None = None
        self.decision: Decision = OVER
        self.last_events: list[E.Event] = []

    # ---------------------------------------------------------------- the context's names
    @property
    def opponent(self) -> str:
        return self.ctx.opponent

    @property
    def squad(self) -> Any:
        return self.ctx.squad

    @property
    def deck(self) -> Any:
        return self.ctx.deck

    @property
    def entry_hexes(self) -> list[int]:
        return self.ctx.entry_hexes

    # ---------------------------------------------------------------- setup and state
    def reset(self, seed: int | None = None, rng: np.random.Generator | None = None) -> list[dict]:
        """Start a new game: squad on the entry hexes, Operations pulse 1.

        Args:
            seed: dice seed (used when ``rng`` is None).
            rng: a generator all dice are drawn from (the env passes its ``np_random``).

        Returns:
            The setup events.
        """
        ctx = self.ctx
        self.dice = Dice(seed if seed is not None else self._seed, rng=rng)
        ctx.board.set_mutable_state(ctx.board_pristine)
        ctx.board_key = board_key(ctx.board_pristine)
        ctx.sight.invalidate()
        st = GameState(mission=ctx.mission_id)
        for k, s in enumerate(ctx.squad.soldiers):
            u = Unit(
                uid=k,
                side=US,
                name=s.name,
                role=s.role,
                hex=ctx.entry_hexes[k % len(ctx.entry_hexes)],
                **s.ratings(),
                weapon=s.weapon,
                equipment=list(s.equipment),
                aware=True,
                slot=k,
            )
            u.ammo = ctx.weapon(s.weapon).clip
            st.units.append(u)
        st.vehicles = self.ctx.start_vehicles()
        tanks.link_tank_units(st)  # each tank's own unit (seed 000 p. 33; module tanks)
        st.phase = int(Phase.OPERATIONS)
        st.board = ctx.board.mutable_state()
        self.state = st
        n_us = len(ctx.mission.us_vehicles)
        for k, gv in enumerate(ctx.mission.german_vehicles):  # German crews (seed 000 p. 32)
            if gv.crewed or st.vehicles[n_us + k].unit >= 0:  # a tank always has its crew ⚙
                paragraphs.put_vehicle(self, gv, request=False, vehicle=st.vehicles[n_us + k])
        self._board_version = ctx.board.version
        self._board_key_seen = ctx.board_key
        self.log = []
        self.emit(E.Setup(mission=ctx.mission_id, squad=[u.name for u in st.units]))
        self._advance()
        return self._take_events()

    def get_state(self) -> dict:
        """The whole game as a JSON-able dict: its :meth:`position`."""
        return self.position()

    def set_state(self, d: dict) -> None:
        """Restore a :meth:`get_state` / :meth:`position` dict of this game's mission, rules
        and deck (a position of another mission needs :meth:`from_position`).

        Raises:
            DataError: a malformed position (names the field), or one of another mission,
                rules or deck.
        """
        spec = position.parse(d)
        # this game's own inline mission (a generated one) is the one it was built with, on
        # its own board: not checked again against the placeholder map the mission names
        mission = self.ctx.mission if _own_inline(self, spec.mission) else position.mission_of(spec)
        if not _fits(self.ctx, spec, mission):
            mid = mission.id if hasattr(mission, "id") else str(mission)
            other = " (another version of it)" if mid == self.ctx.mission_id else ""
            raise DataError(
                "<position>",
                "mission",
                f"a position of {mid!r}{other} "
                f"({spec.rules}, {spec.deck}) cannot be set on a game of "
                f"{self.ctx.mission_id!r} ({self.ctx.rules}, {self.ctx.opponent})",
            )
        self._adopt(spec)

    def _adopt(self, spec: Any) -> None:
        """Take a validated position's state, dice and German mode, then advance to its first
        decision (a written position is at one already, so nothing changes).

        Raises:
            DataError: field ``dice`` (or ``rng``): advancing read a forced roll outside the
                range of the die that used it, or ran out of strict forced rolls.
        """
        self.state, self.dice = position.read_position(spec, self.ctx)
        self.german = spec.german
        self.omniscient_germans = spec.german == "cards"
        self.log = []
        self._legal = None
        self._board_version = -1
        self._own_board()
        try:
            self._advance()
        except DiceExhaustedError as e:  # the position's own forced rolls: name the field
            raise DataError("<position>", "dice" if spec.dice else "rng", str(e)) from None
        self._board_changed()

    def _take_events(self) -> list[dict]:
        """Take the log: the typed events stay in :attr:`last_events`; their dict forms are
        returned (``info["events"]``)."""
        ev = self.log
        self.log = []
        self.last_events = ev
        return [e.to_dict() for e in ev] if ev else []

    # ---------------------------------------------------------------- decisions
    def acting_unit(self) -> Unit | None:
        """The unit deciding now; None while a SELECT_UNIT decision is pending or over."""
        uid = self.state.turn.uid
        return self.state.units[uid] if uid >= 0 else None

    def eligible_units(self) -> list[Unit]:
        """US units that a SELECT_UNIT order may pick now (empty when none is pending)."""
        return eligible(self)

    def legal_actions(self) -> list[int]:
        """Every order legal now for the current decision, as order integers (one source of
        legality, docs/STYLE.md habit 2). Empty only when the game is over. A new list each call."""
        return list(self._legal_now())

    def _legal_now(self) -> list[int]:
        """The cached list of :meth:`legal_actions` (never handed out: callers may change theirs)."""
        if self._legal is not None and self.ctx.board_key is self._board_key_seen:
            return self._legal
        self._own_board()
        st = self.state
        if st.over:
            out: list[int] = []
        elif st.turn.uid < 0:
            out = [_SELECT + u.slot for u in eligible(self)]
        else:
            out = legal_orders(self, st.units[st.turn.uid])
        self._legal = out
        return out

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is among :meth:`legal_actions`."""
        return action in self._legal_now()

    def invalidate(self) -> None:
        """Forget cached legal orders (call after changing ``state`` by hand, e.g. in tests)."""
        self._legal = None
        self.decision = decision(self)

    def step(self, action: int) -> list[dict]:
        """Carry out one decision, then advance to the next decision of a side that is not
        played by the cards (``german="cards"``: the German units act inside this call).

        Args:
            action: an order integer (``orders.encode``).

        Returns:
            The rule events of this step in their dict form (``{"type": ..., ...}``,
            :meth:`~ambush_env.core.model.events.Event.to_dict`); the typed events are in
            :attr:`last_events`.

        Raises:
            IllegalActionError: the order is not legal now (names the order and the unit).
        """
        self._own_board()
        st = self.state
        if (
            isinstance(action, bool)
            or not isinstance(action, (int, np.integer))
            or not 0 <= action < O.N_ORDERS
        ):
            raise IllegalActionError(
                f"order {action!r} is not an order: an order is an integer in 0..{O.N_ORDERS - 1}"
            )
        if st.over:
            raise IllegalActionError(f"order {action}: the mission is over")
        if action not in self._legal_now():
            raise IllegalActionError(
                f"order {self.describe_action(action)} (#{action}) is not legal now for "
                f"{self._actor_name()}"
            )
        st.steps += 1
        self._play(int(action))
        self._advance()
        self._board_changed()
        return self._take_events()

    # ---------------------------------------------------------------- positions and orders as text
    @classmethod
    def from_position(cls, p: dict | Path | str, *, ctx: Ctx | None = None) -> Game:
        """A game set up from a position (docs/API.md; :mod:`ambush_env.core.play.position`): a
        dict, a YAML file (``Path``) or YAML text (``str``). Play then advances to the first
        decision (a written position is at one already, so nothing changes).

        Args:
            ctx: a context to share when it is the position's mission, rules and deck.

        Raises:
            DataError: a malformed position (names the field).
            ScenarioError: an unknown mission or deck.
        """
        spec = position.parse(p)
        mission, board = position.mission_and_board(spec)
        if ctx is None or not _fits(ctx, spec, mission):
            ctx = _position_ctx(mission, spec, board)
        g = cls.__new__(cls)
        Match.__init__(g, ctx)
        g._init_fields(spec.german, spec.seed, spec.mission)
        g._adopt(spec)
        return g

    def position(self) -> dict:
        """The whole situation as a position dict, exactly:
        ``Game.from_position(g.position()).position() == g.position()``, and play goes on
        identically from the restored game (the dice generator's state is in ``rng``)."""
        return position.write_position(
            self.ctx,
            self.state,
            self.dice,
            self.german,
            self._mission_ref,
            _procedural_seed(self.ctx),
        )

    def force_rolls(self, rolls: list[int]) -> None:
        """The next rolls, in order, strictly: running out raises ``DiceExhaustedError``
        (RULES.md §1). Each is what the next die reads: a d10 0-9, a d100 1-100, a damage
        die dM 1-M, a random choice among n 0..n-1.

        Raises:
            ConfigError: a roll that is not an integer in 0-100 (names ``rolls[k]``).
            DiceExhaustedError: later, when a die reads a forced roll outside its range
                (names the roll, its label and the range), or runs out of them.
        """
        self.dice.force_strict(rolls)

    def legal_orders(self) -> list[str]:
        """The legal orders now as text (:meth:`describe_action` of :meth:`legal_actions`)."""
        return [self.describe_action(a) for a in self.legal_actions()]

    def parse_order(self, text: str) -> int:
        """The order integer whose text is ``text`` now: the inverse of
        :meth:`describe_action` for every order (case and spacing do not matter).

        The trailing parenthesis of a text — a hex label ``(L7)``, an aspect ``(rear)``, a
        vehicle's description ``(Panzer IV, H7)``, a box ``(box 0)`` — may be left out: the
        shortened text stands for the orders whose text it begins, the legal ones now if any
        is (so ``"US2 fire aimed at V1"`` is the one aspect legal from where US2 stands), else
        all of them (so :meth:`play` can say why that order is refused). One such order is
        the answer; several are refused by name (docs/OBSERVATION.md "Orders as text").

        Raises:
            IllegalActionError: no order has this text now, or the shortened text names
                several orders (the message names the text, the acting unit and every
                candidate's full text).
        """
        key = _norm_order(text)
        full, short = self._order_texts()
        a = full.get(key)
        if a is not None:
            return a
        orders = short.get(key, [])
        legal = set(self._legal_now())
        fits = [b for b in orders if b in legal]
        if len(fits) == 1:
            return fits[0]
        who = self._actor_name()
        if fits:
            raise IllegalActionError(
                f"{text!r} names {len(fits)} legal orders now for {who}; give the whole "
                f"text: {'; '.join(repr(self.describe_action(b)) for b in fits)}"
            )
        fits = orders
        if len(fits) == 1:
            return fits[0]
        if fits:
            named = "; ".join(
                f"{self.describe_action(b)!r} ({self._why_not(b)})" for b in fits[:12]
            )
            more = f"; and {len(fits) - 12} more" if len(fits) > 12 else ""
            raise IllegalActionError(
                f"{text!r} names {len(fits)} orders for {who}, none legal now: {named}{more}"
            )
        raise IllegalActionError(
            f"no order reads {text!r} now for {who}; "
            f"legal now: {'; '.join(self.legal_orders()[:12])}"
        )

    def play(self, text: str) -> list[dict]:
        """:meth:`parse_order` then :meth:`step`: the events up to the next decision.

        Raises:
            IllegalActionError: the text names no order, or an order that is not legal now
                (the message names the order, the unit and the reason).
        """
        a = self.parse_order(text)
        if a not in self._legal_now():
            raise IllegalActionError(
                f"order {self.describe_action(a)!r} is not legal now for {self._actor_name()}: "
                f"{self._why_not(a)}"
            )
        return self.step(a)

    def _order_texts(self) -> tuple[dict[str, int], dict[str, list[int]]]:
        """For the current decision (cached with the legal orders): normalised full text →
        order integer, and normalised text without its trailing ``(…)`` → the orders
        (ascending) whose text that begins."""
        cache = getattr(self, "_texts", None)
        if cache is not None and cache[0] is self._legal and self._legal is not None:
            return cache[1]
        legal = self._legal_now()
        full: dict[str, int] = {}
        short: dict[str, list[int]] = {}
        for a in range(O.N_ORDERS):
            text = _norm_order(self.describe_action(a))
            full.setdefault(text, a)
            if text.endswith(")") and "(" in text:
                short.setdefault(text[: text.rindex("(")].rstrip(), []).append(a)
        self._texts = (legal, (full, short))
        return full, short

    def _why_not(self, a: int) -> str:
        kind, _ = O.decode(a)
        st = self.state
        if st.turn.uid < 0:
            return (
                "a unit must be selected first"
                if kind != K.SELECT_UNIT
                else "that unit cannot act now"
            )
        u = st.units[st.turn.uid]
        if kind in (K.FIRE_AIMED, K.FIRE_SNAP) and u.vehicle < 0:
            slots = self.enemy_slots(u.side)
            _, arg = O.decode(a)
            if arg >= len(slots):
                return f"contact slot {arg} is empty"
            if not u.aware:
                return f"{u.name} is unaware (RULES.md §5)"
            why = fire_refusal(self, u, st.units[slots[arg]], snap=kind == K.FIRE_SNAP)
            if why is not None:
                return why
        if kind in (K.FIRE_AIMED_VEHICLE, K.FIRE_SNAP_VEHICLE):
            slot, asp = divmod(O.decode(a)[1], len(O.ASPECTS))
            if slot >= len(st.vehicles):
                return f"vehicle slot {slot} is empty"
            v = st.vehicles[slot]
            if not u.aware:
                return f"{u.name} is unaware (RULES.md §5)"
            why = vehicle_fire_refusal(self, u, v, snap=kind == K.FIRE_SNAP_VEHICLE)
            if why is not None:
                return why
            hits = aspect_of(self.board, u.hex, v.hex, v.facing) if v.hex >= 0 else None
            if hits is not None and hits != O.ASPECTS[asp]:
                return (
                    f"from {self.board.label(u.hex)} fire hits the {hits} of {v.name} "
                    "(seed 000 p. 30)"
                )
        if kind in d100_attacks.KINDS:
            why = d100_attacks.refusal(self, u, kind, O.decode(a)[1])
            if why is not None:
                return why
        if st.turn.mode:
            return f"{u.name} is in the middle of a {st.turn.mode!r} action"
        return f"{u.name} may not give this order here (phase {Phase(st.phase).name.lower()})"

    # ---------------------------------------------------------------- copies and the shared map
    def clone(self) -> Game:
        """An independent copy for search (docs/API.md): its own state and dice (the same
        future rolls), sharing the static context. Tens of microseconds, no JSON.

        The copies share the context's board: each game loads its own live walls and rubble
        into it when it next acts (:meth:`_own_board`), so they never see each other's.
        """
        g = Game.__new__(Game)
        Match.__init__(g, self.ctx, self.state.clone(), self.dice.clone())
        g._init_fields(self.german, self._seed, self._mission_ref)
        g._legal = self._legal  # never handed out or changed in place: safe to share
        g._board_key_seen = self._board_key_seen
        g.decision = self.decision
        return g

    def _own_board(self) -> None:
        """Load this game's live walls and rubble (``state.board``) into the shared board if
        another game sharing the context left its own there."""
        ctx = self.ctx
        key = board_key(self.state.board)
        if key != ctx.board_key:
            ctx.board.set_mutable_state(self.state.board)
            ctx.board_key = key
            self._legal = None
        self._board_key_seen = ctx.board_key
        self._board_version = ctx.board.version

    def _board_changed(self) -> None:
        """After play: if this game changed the board (a wall destroyed, a building
        collapsed), record it in ``state.board``."""
        b = self.ctx.board
        if self.ctx.board_key is not self._board_key_seen:
            return  # another game's walls are on the board: this game changed nothing since
        if b.version != self._board_version:
            self.state.board = b.mutable_state()
            self.ctx.board_key = board_key(self.state.board)
            self._board_key_seen = self.ctx.board_key
            self._board_version = b.version

    def _play(self, action: int) -> None:
        """Apply one legal order of the current decision (no advance)."""
        self._legal = None
        kind, arg = O.decode(action)
        st = self.state
        if kind == K.SELECT_UNIT:
            start_turn(self, next(u for u in st.units if u.side == US and u.slot == arg))
            return
        apply_order(self, st.units[st.turn.uid], kind, arg)

    def _advance(self) -> None:
        """Advance play; the cards decide for the German units unless they are an agent's."""
        d = advance(self)
        for _ in range(MAX_CARD_ORDERS):
            if self.german != "cards" or d.side != GER:
                break
            u = self.state.units[d.uid]
            kinds = german_cards.wanted_kinds(self, u)
            orders = german_cards.LazyOrders(partial(legal_orders, self, u), kinds)
            self._play(german_cards.choose(self, u, orders))
            d = advance(self)
        else:  # defensive: a rules or card bug must not hang an RL run
            raise RuntimeError(
                f"the German cards gave {MAX_CARD_ORDERS} orders without a US decision"
            )
        self.decision = d
        self._legal = None

    def german_turn(self, u: Unit) -> None:
        """Play one turn of the German ``u`` from his card now, out of the sequence of play
        (for tests and tools that set a situation up by hand): his turn starts unless it is
        already his, his card's orders are applied one by one and their interruptions
        resolved, until his turn is over. Play is not advanced afterwards; the events stay
        in :attr:`log` for the next step to return.
        """
        st = self.state
        if st.turn.uid != u.uid and not start_turn(self, u):
            self.invalidate()
            return
        while not st.over and st.turn.uid == u.uid and u.status == ACTIVE:
            self._play(german_cards.choose(self, u, legal_orders(self, u)))
            resolve(self)
        if st.turn.uid == u.uid:
            st.turn = TurnState()
        self._board_changed()
        self.invalidate()

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
        return describe(self, action)


def _norm_order(text: str) -> str:
    return " ".join(str(text).lower().split())


def _mission_ref(ctx: Ctx, mission: Any) -> Any:
    """What a position writes as its ``mission``: the id of a shipped mission, the path of a
    mission file, or an inline mission (a generated one)."""
    from ambush_env.core.world.missions import Mission, list_missions, load_mission

    if mission is None or (isinstance(mission, str) and mission in list_missions()):
        return ctx.mission_id
    if isinstance(mission, (str, Path)):
        return str(mission)
    if isinstance(mission, Mission):
        # a variant that keeps a shipped mission's id (another time limit, say) is written
        # inline: only the shipped mission itself is written by its id
        if ctx.mission_id in list_missions() and mission == load_mission(ctx.mission_id):
            return ctx.mission_id
        return mission.model_dump(mode="json")
    return ctx.mission_id


def _own_inline(game: Game, mission: Any) -> bool:
    """Whether a position's ``mission`` is ``game``'s own inline mission (as it writes it,
    also after a JSON round trip, which turns the paragraph numbers into strings)."""
    own = game._mission_ref
    if not (isinstance(mission, dict) and isinstance(own, dict)) or mission.get("id") != own.get(
        "id"
    ):
        return False
    import json

    return mission == own or json.loads(json.dumps(mission)) == json.loads(json.dumps(own))


def _fits(ctx: Ctx, spec: Any, mission: Any) -> bool:
    """Whether a position (its validated ``spec`` and mission) is of ``ctx``'s mission, rules
    and deck: a mission id, a path to its file, or an inline mission, each equal (as a
    validated :class:`~ambush_env.core.world.missions.Mission`) to ``ctx``'s mission, so that a
    variant keeping a shipped mission's id is not taken for the shipped one."""
    from ambush_env.core.world.missions import load_mission

    # a position without ``procedural`` (written before positions carried it) fits the
    # generated map its inline mission is played on
    if (
        spec.rules != ctx.rules
        or spec.deck != ctx.opponent
        or spec.procedural not in (None, _procedural_seed(ctx))
        or not position.map_fits(ctx, spec)
    ):
        return False
    mid = mission.id if hasattr(mission, "id") else Path(str(mission)).stem
    if mid != ctx.mission_id:
        return False
    if not hasattr(mission, "id"):
        try:
            mission = load_mission(mission)
        except AmbushError:
            return False  # Ctx(mission) raises its own error for it
    return mission is ctx.mission or mission == ctx.mission


def _procedural_seed(ctx: Ctx) -> int | None:
    """The mission seed of a context played on a generated map, else None.

    ⚙ A map named ``procedural_<seed>`` is taken to be ``procedural.generate(seed)``'s (the
    generator names its maps so; no shipped map has such a name): its positions carry the seed,
    from which :func:`~ambush_env.core.play.position.mission_and_board` rebuilds the map."""
    name = ctx.board.name
    if (
        ctx.board.origin is None
        and name.startswith("procedural_")
        and name[11:].isdigit()
        and ctx.mission.map != name
    ):
        return int(name[11:])
    return None


def _position_ctx(mission: Any, spec: Any, board: Any = None) -> Ctx:
    """The context of a position's mission, rules and deck (on ``board``: a generated map).

    Raises:
        DataError: an unknown or malformed mission (field ``mission``) or deck (``deck``).
    """
    try:
        from ambush_env.core.world.cards import load_deck

        load_deck(spec.deck)
    except AmbushError as e:
        raise DataError("<position>", "deck", str(e)) from None
    try:
        return Ctx(mission, rules=spec.rules, opponent=spec.deck, board=board)
    except AmbushError as e:
        raise DataError("<position>", "mission", str(e)) from None
