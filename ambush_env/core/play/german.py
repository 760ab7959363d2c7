"""Owns the German card interpreter (RULES.md §14): a card row turned into orders, one at a
time, chosen from the order generator.

At the start of his turn a German rolls a d10 on one column of his card — *Unaware*, *Aware*
or *Self-Preservation* — and works through that row's actions in order. Each action becomes
orders chosen from :func:`ambush_env.core.play.legal.legal_orders` for him: the interpreter never
adds an order the row does not name (no stance change unless the card says so), and every
rule of RULES.md §5-§11 binds him as it binds a US soldier (a prone German moves one hex per
move action; snap fire only after at most half MV; a charge within the charge allowance).
An action with no legal order is skipped (``german_skip``); when the row is done, or his
turn can hold nothing more, he ends his turn. His progress through the row lives in the
turn state (``card_*`` fields), so the interpreter is a pure function of the state.

Column choice ⚙: Self-Preservation when wounded, an escaped prisoner, or outnumbered
(:func:`ambush_env.core.rules.prisoners.outnumbered`); otherwise Aware or Unaware by his awareness.
Selectors (``nearest_visible``, ``most_exposed``, ``weakest_visible``, ``nco_first``,
``nearest_vehicle``, ``wall_of_building_with_us``, ``largest_group``, ``building_with_us``,
``nearest_us``, ``adjacent_weakest``, ``same_hex``) and move goals (``cover``, ``nearest_us``,
``objective``, ``away``, ``route``, ``concealed``) live here, not in the cards. So does the rule that a
Self-Preservation move never goes nearer the nearest US soldier (:func:`_move`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from ambush_env.core.combat.shooting import prepare_kind
from ambush_env.core.model import events as E
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, GER, US, Stance
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.movement import costs_for, enemy_hexes, enemy_in
from ambush_env.core.rules.prisoners import outnumbered
from ambush_env.core.rules.scoring import ALARM
from ambush_env.core.vehicles.vehicles import cost_row, mpa
from ambush_env.core.world.cards import DRIVING, ActionForm
from ambush_env.core.world.vehicle_cards import driving_column, shipped_vehicle_cards
from ambush_env.core.world.vehicle_data import shipped_vehicle_data, vtype

TANK = "tank"  # a tank's unit's role (a tank is a unit of its own: module tanks)
B = O.ORDER_BASE
_STANCES = {"standing": 0, "crouching": 1, "prone": 2}
WALL = "wall_of_building_with_us"  # the fire selector that aims at a wall (FIRE_WALL)
_CLOSE = (B[K.END_TURN], B[K.END_MOVE], B[K.END_DRIVE])
_CLOSE_KINDS = frozenset({K.END_TURN, K.END_MOVE, K.END_DRIVE})


def normalize(action: Any) -> tuple[str, dict]:
    """``(name, args)`` of a card action, whatever its loaded form (model, dict, str)."""
    if isinstance(action, str):
        return action, {}
    if isinstance(action, ActionForm):
        args = {}
        for fname, f in type(action).model_fields.items():
            if fname != "action":
                args[f.alias or fname] = getattr(action, fname)
        return action.tag, args
    d = dict(action)
    if len(d) != 1:
        raise ValueError(f"card action must have one key, got {sorted(d)}")
    ((name, args),) = d.items()
    if args is None:
        args = {}
    if not isinstance(args, dict):
        args = {"value": args}
    return name, args


def column_for(m: Match, u: Unit) -> str:
    """Which card column ``u`` reads now (module docstring): a tank's unit the table of its
    crew size (``crew_<n>``, seed 000 p. 32); the driver of a German car that can move his
    ``driving`` column (p. 32); else Self-Preservation, Aware or Unaware."""
    if u.vehicle >= 0:
        v = m.state.vehicles[u.vehicle]
        if u.role == TANK:
            return f"crew_{v.crew}"
        if v.driver == u.uid and not v.disabled and not v.immobilised:
            return DRIVING
    if u.wounded or u.escaped or (outnumbered(m, u) and not holds_objective(m, u)):
        return "self_preservation"
    return "aware" if u.aware else "unaware"


def holds_objective(m: Match, u: Unit) -> bool:
    """⚙ The garrison holds (RULES.md §14-§15, issue 25): once the objective's alarm has gone
    off (:func:`ambush_env.core.rules.scoring.alarm`), an aware German standing in the
    objective's zone reads Aware even when outnumbered — he fights for the position instead of
    falling back or surrendering (wounded, he still reads Self-Preservation) — and a card move
    of his ends inside the zone (:func:`_plan`): he shifts within the position, never out of
    it, so the objective falls only to the fight."""
    return u.aware and u.hex in m.objective_zone and ALARM in m.state.flags


def column_rows(m: Match, u: Unit, column: str) -> tuple:
    """The rows of ``u``'s card column ``column`` (:func:`column_for`): a tank card's crew
    table, a driving column (the card's own or the shipped default ⚙), a soldier column."""
    if column.startswith("crew_"):
        v = m.state.vehicles[u.vehicle]
        return shipped_vehicle_cards().tank(v.card).column(int(column[5:]))
    card = m.cards[u.role]
    if column == DRIVING:
        return driving_column(card)
    return getattr(card.columns, column)


class RowEntry:
    """One card row, worked out once (card data is immutable): its actions normalized
    (:func:`normalize`), and per step ``s`` the kinds the rest of the row can use
    (``wanted[s]``, :func:`wanted_kinds`; ``wanted[len(acts)]`` the close kinds alone) and
    the kinds of action ``s`` with the close kinds (``with_close[s]``, :func:`choose`)."""

    __slots__ = ("acts", "wanted", "with_close")

    def __init__(self, row: Any, tank: bool) -> None:
        self.acts: list[tuple[str, dict]] = [normalize(a) for a in row.do]
        kinds = [action_kinds(name, args, tank) for name, args in self.acts]
        self.with_close: list[frozenset[int]] = [k | _CLOSE_KINDS for k in kinds]
        self.wanted: list[frozenset[int]] = [
            _CLOSE_KINDS.union(*kinds[s:]) for s in range(len(kinds) + 1)
        ]


def _card_key(m: Match, u: Unit) -> tuple[bool, str]:
    """``(tank, card)``: which card ``u`` reads, as values: a tank's unit its tank card's id
    (the shipped vehicle cards), anyone else his role (his card in the context's deck)."""
    if u.role == TANK:
        return True, m.state.vehicles[u.vehicle].card
    return False, u.role


def row_entry(m: Match, u: Unit) -> RowEntry | None:
    """The :class:`RowEntry` of the row ``u`` rolled this turn (None before the roll).

    Cached on the context (``Ctx.card_rows``, the context's deck being the cards read), keyed
    by values — ``(tank, card or role, column, row index)`` — so an entry never outlives or
    mistakes its card; the cache holds at most one entry per row of the cards played."""
    t = m.state.turn
    if t.card_row < 0:
        return None
    tank, card = _card_key(m, u)
    key = (tank, card, t.card_column, t.card_row)
    cache = m.ctx.card_rows
    got = cache.get(key)
    if got is None:
        got = cache[key] = RowEntry(column_rows(m, u, t.card_column)[t.card_row], tank)
    return got


def row_actions(m: Match, u: Unit) -> list[tuple[str, dict]]:
    """The actions of the row ``u`` rolled this turn (empty before the roll)."""
    e = row_entry(m, u)
    return e.acts if e is not None else []


def wanted_kinds(m: Match, u: Unit) -> frozenset[int]:
    """The order kinds the rest of ``u``'s card row can use (rolling the card first if this
    is the start of his turn): what the caller asks the order generator for."""
    t = m.state.turn
    if t.card_row < 0:
        _roll(m, u)
    e = row_entry(m, u)
    if e is None:  # pragma: no cover - _roll always sets a row
        return _CLOSE_KINDS
    return e.wanted[min(t.card_step, len(e.acts))]


def action_kinds(name: str, args: dict, tank: bool) -> frozenset[int]:
    """The order kinds the card action ``name {args}`` can look at in ``choose``'s offered set:
    the action's kinds (``_KINDS`` / ``_TANK_KINDS``), narrowed by its arguments where the
    action reads fewer (``fire`` and ``fire_mg`` by mode and mount; ``fire_cannon`` at
    ``nearest_vehicle`` only at vehicles, else the cannon plus the aimed machineguns of the
    stone-wall rule, their vehicle orders included since those draw the aspect die).
    Every kind the action tests stays in, so ``choose`` decides exactly as on the full list."""
    key = (name, tuple(sorted((k, str(v)) for k, v in args.items())), tank)
    got = _ACTION_KINDS.get(key)
    if got is None:
        got = _ACTION_KINDS[key] = _narrow(name, args, tank)
    return got


def _narrow(name: str, args: dict, tank: bool) -> frozenset[int]:
    if not tank:
        at = args.get("at", "nearest_visible")
        if name == "fire" and at == WALL:
            return frozenset({K.FIRE_WALL})
        if name == "fire" and args.get("mode", "aimed") in ("aimed", "snap"):
            snap = args.get("mode", "aimed") == "snap"
            if at == "nearest_vehicle":
                return frozenset({K.FIRE_SNAP_VEHICLE if snap else K.FIRE_AIMED_VEHICLE})
            return frozenset(
                {K.FIRE_SNAP, K.FIRE_SNAP_VEHICLE} if snap else {K.FIRE_AIMED, K.FIRE_AIMED_VEHICLE}
            )
        if name == "snap_fire" and at == "nearest_vehicle":
            return frozenset({K.FIRE_SNAP_VEHICLE})
        return _KINDS.get(name, frozenset())
    if name == "fire_mg":
        mounts = ("coax", "bow") if args.get("mount", "any") == "any" else (args["mount"],)
        snap = args.get("mode", "aimed") == "snap"
        out: set[int] = set()
        for mt in mounts:
            if (mt, snap) not in _MG_KIND:
                return _TANK_KINDS[name]  # an unknown mount: everything the action may read
            out |= {_MG_KIND[(mt, snap)], _MG_VKIND[(mt, snap)]}
        return frozenset(out)
    if name == "fire_cannon":
        if args.get("at", "nearest_visible") == "nearest_vehicle":
            return frozenset({K.CANNON_VEHICLE})
        return frozenset(
            {
                K.CANNON_FIRE,
                K.CANNON_WALL,
                K.CANNON_HEX,
                K.CANNON_VEHICLE,
                K.COAX_MG_AIMED,
                K.BOW_MG_AIMED,
                K.COAX_MG_AIMED_VEHICLE,
                K.BOW_MG_AIMED_VEHICLE,
            }
        )
    return _TANK_KINDS.get(name, frozenset())


_ACTION_KINDS: dict[tuple, frozenset[int]] = {}


class LazyOrders:
    """The legal orders of the acting German, asked for kind by kind as :func:`choose` reaches
    each card action (the card loop's fast path): a row whose first action gives an order
    never has the orders of its later actions generated.

    Args:
        orders_of: ``kinds -> list[int]``, the legal orders of those kinds now (``legal_orders``
            with ``kinds``: exactly the full list's orders of those kinds).
        kinds: the kinds the whole rest of the row may use (:func:`wanted_kinds`); their list
            is the one a list-taking ``choose`` would have been given.
    """

    __slots__ = ("_have", "_kinds", "_of", "offered")

    def __init__(self, orders_of: Callable[[frozenset[int]], list[int]], kinds: frozenset[int]):
        self._of = orders_of
        self._kinds = kinds
        self._have: set[int] = set()
        self.offered: set[int] = set()  # the legal orders of the kinds in ``_have``

    def need(self, kinds: frozenset[int]) -> set[int]:
        """The offered set, holding every legal order of ``kinds`` (and of kinds asked before)."""
        missing = kinds - self._have
        if missing:
            self.offered.update(self._of(frozenset(missing)))
            self._have |= missing
        return self.offered

    def full(self) -> list[int]:
        """The legal orders of every kind of the row (the list ``choose`` would be given)."""
        return self._of(self._kinds)


def choose(m: Match, u: Unit, legal: list[int] | LazyOrders) -> int:
    """The next order of the German ``u``, taken from ``legal`` (his legal orders now, or
    those of :func:`wanted_kinds`, or a :class:`LazyOrders` that gives them as needed: the
    same order either way).

    The first call of a turn rolls the card (a ``german_card`` event). Raises ValueError if
    ``legal`` is empty (the order generator always offers a way to end a turn).
    """
    lazy: LazyOrders | None  # the orders given as needed, or
    plain: list[int]  # the legal orders listed
    if isinstance(legal, LazyOrders):
        lazy, plain = legal, []
    else:
        lazy, plain = None, legal
    if lazy is None and not plain:
        raise ValueError(f"{u.name} has no legal order")
    t = m.state.turn
    if t.card_row < 0:
        _roll(m, u)
    entry = row_entry(m, u)
    acts = entry.acts if entry is not None else []
    offered = set() if lazy is not None else set(plain)
    tank = u.role == TANK
    table = _TANK_ACTIONS if tank else _ACTIONS
    while t.card_step < len(acts):
        name, args = acts[t.card_step]
        fn = table.get(name)
        if fn is not None and lazy is not None and entry is not None:  # (acts: an entry's)
            # the close orders with the first action's (one call): most card turns end with a
            # close order after their actions
            offered = lazy.need(entry.with_close[t.card_step])
        got = fn(m, u, args, offered) if fn is not None else None
        if got is not None:
            order, done = got
            t.card_acted = True
            if done:
                t.card_step += 1
                t.card_acted = False
                t.card_path = []
            return order
        if not t.card_acted:
            m.emit(E.GermanSkip(unit=u.name, action=name))
        t.card_step += 1
        t.card_acted = False
        t.card_path = []
    if lazy is not None:
        offered = lazy.need(_CLOSE_KINDS)
    for a in _CLOSE:
        if a in offered:
            return a
    full = lazy.full() if lazy is not None else plain
    if not full:
        raise ValueError(f"{u.name} has no legal order")
    return full[0]


def _roll(m: Match, u: Unit) -> None:
    t = m.state.turn
    col = column_for(m, u)
    card_id = m.state.vehicles[u.vehicle].card if u.role == TANK else m.cards[u.role].id
    r = m.dice.d10(f"{u.name} card ({col})")
    key = (*_card_key(m, u), col)  # card data is immutable: index a column once, by value
    rows = m.ctx.card_rolls.get(key)
    if rows is None:
        column = column_rows(m, u, col)
        rows = m.ctx.card_rolls[key] = [
            next((k for k, e in enumerate(column) if e.rolls[0] <= x <= e.rolls[1]), None)
            for x in range(10)
        ]
    row = rows[r]
    if row is None:  # pragma: no cover - the card loader checks that the rows cover 0-9
        raise ValueError(f"{u.name}'s card column {col} has no row for the roll {r}")
    t.card_column, t.card_row, t.card_step, t.card_acted = col, row, 0, False
    m.emit(
        E.GermanCard(
            unit=u.name,
            card=card_id,
            column=col,
            roll=r,
            actions=[name for name, _ in row_actions(m, u)],
        )
    )


# ----------------------------------------------------------------------------- selectors
def _targets(m: Match, kind: K, offered: set[int]) -> dict[int, Unit]:
    """Offered orders of ``kind`` (a contact-slot kind) → the US unit each aims at."""
    base = B[kind]
    slots = m.enemy_slots(GER)
    units = m.state.units
    return {base + k: units[uid] for k, uid in enumerate(slots) if base + k in offered}


def _pick(m: Match, u: Unit, cands: dict[int, Unit], how: str) -> int | None:
    if not cands:
        return None
    dist = m.board.distance
    key: Callable[[Unit], tuple]
    if how == "weakest_visible":
        key = lambda o: (not o.wounded, dist(u.hex, o.hex), o.uid)  # noqa: E731
    elif how == "most_exposed":
        key = lambda o: (o.stance, dist(u.hex, o.hex), o.uid)  # noqa: E731
    else:  # nearest_visible and default
        key = lambda o: (dist(u.hex, o.hex), o.stance, o.uid)  # noqa: E731
    return min(cands, key=lambda a: key(cands[a]))


def _weakest_key(o: Unit) -> tuple:
    return (not o.wounded, o.WS, o.stance != Stance.PRONE, o.uid)


# ----------------------------------------------------------------------------- actions
# Each action: (m, u, args, offered) -> (order, done) or None when it has nothing (more) to do.
Got = tuple[int, bool] | None


def _fire(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``fire {mode: aimed}``: one aimed shot; ``fire {mode: snap}``: the turn's snap shots
    (RULES.md §6), each at the selector's choice of the moment. A target aboard a US vehicle
    (a jeep's riders, a Sherman) is fired at as the vehicle (seed 000 p. 31); the order
    generator offers no shot at a closed tank his weapon cannot penetrate (p. 31:
    :func:`ambush_env.core.vehicles.vehicle_fire.holds_fire`)."""
    snap = args.get("mode", "aimed") == "snap"
    at = args.get("at", "nearest_visible")
    if at == WALL:
        return _fire_wall(m, u, offered)
    a = _pick_any(m, u, *_soldier_fire(m, u, snap, offered), at)
    if a is None:
        return None
    return a, not snap


def _us_inside(m: Match, h: int) -> int:
    """Active US soldiers on foot in hex ``h`` (not aboard a vehicle)."""
    return sum(
        1
        for o in m.state.units
        if o.side == US and o.status == ACTIVE and o.hex == h and o.vehicle < 0
    )


def _german_hexes(m: Match) -> set[int]:
    """The hexes where an active German stands."""
    return {o.hex for o in m.state.units if o.side == GER and o.status == ACTIVE and o.hex >= 0}


def _fire_wall(m: Match, u: Unit, offered: set[int]) -> Got:
    """``fire {at: wall_of_building_with_us}``: aimed fire at the wall, facing him, of a building
    hex holding active US soldiers (a ``FIRE_WALL`` order the order generator offers: range,
    an intact wall facing him, sight of it; RULES.md §8, seed 002 p. 26-27): the hex with the
    most of them, then the nearest, then the lowest order ⚙. An explosive weapon (the
    Panzerfaust) destroys any wall it hits, a machinegun's bullets may pass a wooden one
    (RULES.md §11); the fire rules decide, not the card. ⚙ Never the wall of a hex where a
    German stands (what passes or falls hits everyone inside). None when no such wall is
    offered."""
    base = B[K.FIRE_WALL]
    dist = m.board.distance
    ours = _german_hexes(m)
    best: tuple | None = None
    for a in offered:
        if base <= a < base + O.N_OFFSETS:
            h = m.offset_target(u.hex, a - base)
            n = _us_inside(m, h) if h >= 0 and h not in ours else 0
            if n:
                key = (-n, dist(u.hex, h), a)
                if best is None or key < best:
                    best = key
    return None if best is None else (best[2], True)


def _snap_fire(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``snap_fire``: the single snap shot that may follow a move (RULES.md §6)."""
    a = _pick_any(m, u, *_soldier_fire(m, u, True, offered), args.get("at", "nearest_visible"))
    return None if a is None else (a, True)


def _soldier_fire(
    m: Match, u: Unit, snap: bool, offered: set[int]
) -> tuple[dict[int, Unit], dict[int, Vehicle]]:
    kind = K.FIRE_SNAP if snap else K.FIRE_AIMED
    vkind = K.FIRE_SNAP_VEHICLE if snap else K.FIRE_AIMED_VEHICLE
    return _targets(m, kind, offered), _vehicle_targets(m, vkind, offered)


def _vehicle_targets(m: Match, kind: K, offered: set[int]) -> dict[int, Vehicle]:
    """Offered orders of the vehicle × aspect ``kind`` → the vehicle each aims at: one order
    per vehicle, its aspect chosen at random among those offered (an attacker in the
    vehicle's hex chooses it, "random for Germans", seed 000 p. 30). None is at a closed tank
    the weapon cannot penetrate from that aspect: the order generator offers no such order
    (p. 31, :func:`ambush_env.core.vehicles.vehicle_fire.holds_fire`), to the cards as to the German
    seat played by an agent."""
    base = B[kind]
    n = len(O.ASPECTS)
    by_vehicle: dict[int, list[int]] = {}
    for a in offered:
        if base <= a < base + O.VA_SLOTS:
            by_vehicle.setdefault((a - base) // n, []).append(a)
    out: dict[int, Vehicle] = {}
    vehicles = m.state.vehicles
    for vid in sorted(by_vehicle):
        acts = sorted(by_vehicle[vid])
        v = vehicles[vid]
        if len(acts) > 1:
            acts = [acts[m.dice.choice(len(acts), f"{v.name} aspect")]]
        out[acts[0]] = v
    return out


def _key_for(m: Match, u: Unit, how: str) -> Callable[[Any], tuple]:
    """The selector's ranking of a target, a soldier or a vehicle (a vehicle ranks as a
    standing, unwounded soldier in its hex ⚙)."""
    dist = m.board.distance

    def parts(o: Any) -> tuple[int, int, bool, int]:
        if isinstance(o, Vehicle):
            return dist(u.hex, o.hex), int(Stance.STANDING), False, 1000 + o.vid
        return dist(u.hex, o.hex), o.stance, o.wounded, o.uid

    if how == "nco_first":  # ⚙ a commander (CR 1+) first, then as nearest_visible

        def nco(o: Any) -> tuple:
            d, s, _, i = parts(o)
            return (not (isinstance(o, Unit) and o.CR > 0), d, s, i)

        return nco
    if how == "weakest_visible":

        def weakest(o: Any) -> tuple:
            d, _, w, i = parts(o)
            return (not w, d, i)

        return weakest
    if how == "most_exposed":

        def exposed(o: Any) -> tuple:
            d, s, _, i = parts(o)
            return (s, d, i)

        return exposed

    def nearest(o: Any) -> tuple:
        d, s, _, i = parts(o)
        return (d, s, i)

    return nearest


def _pick_any(
    m: Match, u: Unit, units: dict[int, Any], vehicles: dict[int, Any], how: str
) -> int | None:
    """The selector's order among soldier targets and vehicle targets (``nearest_vehicle``:
    vehicles only; the others rank both, :func:`_key_for`)."""
    cands: dict[int, Any] = dict(vehicles) if how == "nearest_vehicle" else {**units, **vehicles}
    if not cands:
        return None
    key = _key_for(m, u, "nearest_visible" if how == "nearest_vehicle" else how)
    return min(cands, key=lambda a: (key(cands[a]), a))


def _stance(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    s = args.get("to", args.get("value"))
    if s is None:
        return None
    s = _STANCES.get(s, s)
    if s == u.stance:
        return None
    a = B[K.STANCE] + int(s)
    return (a, True) if a in offered else None


def _hold(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    for a in _CLOSE:
        if a in offered:
            return a, True
    return None


def _single(kind: K) -> Callable[[Match, Unit, dict, set[int]], Got]:
    def act(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
        a = B[kind]
        return (a, True) if a in offered else None

    act.__doc__ = f"``{kind.name.lower()}``: the {kind.name} order when it is legal."
    return act


def _alert(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``alert {radius}``: the free ALERT order (RULES.md §14)."""
    r = min(int(args.get("radius", 3)), O.ORDER_COUNT[K.ALERT] - 1)
    a = B[K.ALERT] + r
    return (a, True) if a in offered else None


def _thrown_at(m: Match, u: Unit, kind: K, offered: set[int], hexes) -> dict[int, int]:
    """The offered throws of ``kind`` (GRENADE or SATCHEL: one order per hex offset, offset 0
    excluded) landing on one of ``hexes``: target hex -> order."""
    base = B[kind]
    cands: dict[int, int] = {}
    for a in offered:
        if base < a < base + O.N_OFFSETS:
            h = m.offset_target(u.hex, a - base)
            if h in hexes:
                cands[h] = a
    return cands


def _throw_grenade(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``throw_grenade {at: largest_group | nearest_us, within: N}`` (RULES.md §9, §14)."""
    within = int(args.get("within") or 3)
    dist = m.board.distance
    counts: dict[int, int] = {}
    for o in m.state.units:
        if o.side == US and o.status == ACTIVE and o.hex >= 0 and 1 <= dist(u.hex, o.hex) <= within:
            counts[o.hex] = counts.get(o.hex, 0) + 1
    cands = _thrown_at(m, u, K.GRENADE, offered, counts)
    if not cands:
        return None
    if args.get("at", "largest_group") == "largest_group":
        target = min(cands, key=lambda h: (-counts[h], dist(u.hex, h), h))
    else:
        target = min(cands, key=lambda h: (dist(u.hex, h), -counts[h], h))
    return cands[target], True


def _throw_satchel(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``throw_satchel {at: building_with_us | largest_group | nearest_vehicle, within: N}``
    (RULES.md §6, §9): with a target hex within ``within`` hexes, a satchel charge not yet
    prepared is prepared (``PREPARE``, when the order generator offers it for the satchel:
    standing, a turn's action), a prepared one thrown (``SATCHEL``, the offered hexes only).
    Targets: ``building_with_us`` a building hex with US soldiers in it, the next hex first
    (set against its wall, seed 002 p. 26), then the most of them, the nearest;
    ``largest_group`` the hex with the most US soldiers; ``nearest_vehicle`` the nearest hex
    with a US vehicle. ⚙ Never a hex where a German stands (a satchel does not choose)."""
    if "satchel" not in u.equipment:
        return None
    within = int(args.get("within") or 3)
    at = args.get("at", "building_with_us")
    b = m.board
    dist = b.distance
    ours = _german_hexes(m)
    counts: dict[int, int] = {}
    if at == "nearest_vehicle":
        for v in m.state.vehicles:
            if v.side == US and v.hex >= 0 and not v.exited and not v.disabled:
                counts[v.hex] = 1
    else:
        for o in m.state.units:
            if o.side == US and o.status == ACTIVE and o.hex >= 0 and o.vehicle < 0:
                if at == "building_with_us" and b.building[o.hex] is None:
                    continue
                counts[o.hex] = counts.get(o.hex, 0) + 1
    targets = {h: n for h, n in counts.items() if 1 <= dist(u.hex, h) <= within and h not in ours}
    if not targets:
        return None
    if not u.satchel_ready:
        a = B[K.PREPARE]
        if a in offered and prepare_kind(m, u) == "satchel":
            return a, True
        return None
    cands = _thrown_at(m, u, K.SATCHEL, offered, targets)
    if not cands:
        return None
    key: Callable[[int], tuple]
    if at == "building_with_us":
        key = lambda h: (dist(u.hex, h) > 1, -targets[h], dist(u.hex, h), h)  # noqa: E731
    else:
        key = lambda h: (-targets[h], dist(u.hex, h), h)  # noqa: E731
    return cands[min(cands, key=key)], True


def _assault(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``assault {at: adjacent_weakest | same_hex, kind}``: an assault on the weakest US soldier
    in his hex, else (``adjacent_weakest``) a charge into the neighbouring hex of the weakest
    one within the charge allowance, the assault following (RULES.md §6, §10). A garrison
    German who is outnumbered (:func:`holds_objective`) never assaults ⚙."""
    if holds_objective(m, u) and outnumbered(m, u):
        # ⚙ (issue 25) the garrison holds by fire: outnumbered, he reads Aware only to keep the
        # position (:func:`holds_objective`), not to throw himself on the squad around him,
        # whose strike back (RULES.md §10, +1 a man) would be all but sure to kill him
        return None
    kind = K.ASSAULT_CAPTURE if args.get("kind", "kill") == "capture" else K.ASSAULT_KILL
    here = _targets(m, kind, offered)
    if here:
        return min(here, key=lambda a: _weakest_key(here[a])), True
    t = m.state.turn
    if t.card_acted or args.get("at", "adjacent_weakest") != "adjacent_weakest":
        return None
    best: tuple | None = None
    nbrs = m.board.neighbors[u.hex]
    for d in range(6):
        a = B[K.MOVE] + d
        if a not in offered or not enemy_in(m, nbrs[d], GER):
            continue
        there = [
            o
            for o in m.state.units
            if o.side == US and o.status == ACTIVE and o.hex == nbrs[d] and o.vehicle < 0
        ]
        if there:
            w = min(there, key=_weakest_key)
            if best is None or _weakest_key(w) < _weakest_key(best[1]):
                best = (a, w)
    return None if best is None else (best[0], False)


def _move(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``move {toward: cover | nearest_us | objective | away | route | concealed, max: N}``: a path of up
    to N hexes within his MPs toward the goal, planned when the action starts and walked one
    legal MOVE order at a time (it stops where the next hex is not legal).

    On the Self-Preservation column (RULES.md §14: he seeks cover or falls back) ⚙ the path
    never enters a hex nearer the nearest active US soldier than the hex the move starts from
    (his hex at the start of the turn: one move action a turn, RULES.md §6), so no hex he
    walks through or stops on brings him closer, whatever the goal; where every way to the
    goal would, he goes to the best hex he can reach without (or stays put)."""
    t = m.state.turn
    if not t.card_acted:
        # no ``max``: as far as his MPs allow (cards.py; the MP budget caps the search)
        t.card_path = _plan(
            m,
            u,
            args.get("toward", "cover"),
            int(args.get("max") or 99),
            no_nearer=t.card_column == "self_preservation",
        )
    if not t.card_path:
        return None
    d = m.board.direction(u.hex, t.card_path[0])
    a = B[K.MOVE] + d if d is not None else -1
    if a not in offered:
        return None
    t.card_path = t.card_path[1:]
    return a, not t.card_path


def _search(
    start: int, nbrs: Any, row: Any, budget: int, cap: int, barred: Any = ()
) -> dict[int, tuple[int, int, int]]:
    """hex -> (MPs spent, previous hex, hexes) for every hex reachable from ``start`` within
    ``budget`` MPs and ``cap`` hexes, never entering a hex of ``barred`` (a breadth-first
    search keeping the cheapest way in). ``row[h * 6 + d]``: the MPs of the step from ``h``
    in direction ``d`` (negative: never); ``nbrs``: the board's neighbours."""
    best = {start: (0, -1, 0)}
    frontier = deque([start])
    while frontier:
        h = frontier.popleft()
        mp, _, n = best[h]
        if n >= cap:
            continue
        base = h * 6
        for k, d in enumerate(nbrs[h]):
            c = row[base + k]
            if d < 0 or c < 0 or mp + c > budget or d in barred:
                continue
            got = best.get(d)
            if got is None or got[0] > mp + c:
                best[d] = (mp + c, h, n + 1)
                frontier.append(d)
    return best


def _path(best: dict[int, tuple[int, int, int]], start: int, goal: int) -> list[int]:
    """The hexes from ``start`` (left out) to ``goal`` along :func:`_search`'s ways in."""
    path = []
    h = goal
    while h != start:
        path.append(h)
        h = best[h][1]
    return path[::-1]


def _goal_key(
    m: Match,
    toward: str,
    near_us: Callable[[int], int],
    tie: Callable[[int], int],
    route_goal: int,
    seen: Callable[[int], int] | None = None,
) -> Callable[[int], tuple]:
    """How a card's ``toward`` ranks the reachable hexes (the least is the goal), ties broken
    by ``tie`` and then the hex: ``nearest_us`` / ``away`` by the distance to the US,
    ``route`` by the distance to ``route_goal``, ``objective`` by the distance to the mission
    objective, ``concealed`` by ``seen`` (how many US soldiers would see him there), then as
    ``cover``; else ``cover`` (the German cover terrain, then away from the US)."""
    dist = m.board.distance
    if toward == "concealed" and seen is not None:
        terrain_c, cover_c = m.board.terrain, m.rd.german.cover_terrain
        return lambda h: (seen(h), 0 if int(terrain_c[h]) in cover_c else 1, -near_us(h), tie(h), h)
    if toward == "nearest_us":
        return lambda h: (near_us(h), tie(h), h)
    if toward == "away":
        return lambda h: (-near_us(h), tie(h), h)
    if toward == "route":
        return lambda h: (dist(h, route_goal), tie(h), h)
    if toward == "objective":
        obj = list(m.objective_hexes) or [route_goal]
        return lambda h: (min(dist(h, x) for x in obj), tie(h), h)
    terrain, cover = m.board.terrain, m.rd.german.cover_terrain
    return lambda h: (0 if int(terrain[h]) in cover else 1, -near_us(h), tie(h), h)


def _near(m: Match, hexes: list[int]) -> Callable[[int], int]:
    """``h -> `` the least distance from ``h`` to ``hexes`` (0 when there are none)."""
    rows = [m.board.distance_row(x) for x in hexes]
    return lambda h: min([r[h] for r in rows]) if rows else 0


class _NoNearer:
    """The hexes a Self-Preservation move may not enter (:func:`_move`): a US soldier's hex,
    or one nearer the nearest active US soldier than ``floor``."""

    __slots__ = ("_enemy", "_floor", "_near")

    def __init__(self, enemy: Any, near_us: Callable[[int], int], floor: int):
        self._enemy, self._near, self._floor = enemy, near_us, floor

    def __contains__(self, h: int) -> bool:
        return h in self._enemy or self._near(h) < self._floor


def _seen_by(m: Match, us: list[Unit], stance: int) -> Callable[[int], int]:
    """``h ->`` how many of the US soldiers ``us`` see hex ``h`` at ``stance`` (seed 004, the
    sight of RULES.md §3; a soldier aboard a vehicle sees from its hex)."""
    sight = m.sight

    def seen(h: int) -> int:
        return sum(1 for o in us if sight.can_see(o.hex, h, o.stance, stance))

    return seen


def _plan(m: Match, u: Unit, toward: str, max_hexes: int, no_nearer: bool = False) -> list[int]:
    """The hexes of a soldier's card move (:func:`_move`); ``no_nearer``: never into a hex
    nearer the nearest active US soldier than his own (the Self-Preservation column)."""
    if toward == "route":  # the route his placement gave him; none: he stays put
        while u.route and u.route[0] == u.hex:
            u.route.pop(0)
        if not u.route:
            return []
    t = m.state.turn
    budget = t.mp_left if t.mode == "move" else u.MV
    us = [o for o in m.state.units if o.side == US and o.status == ACTIVE and o.hex >= 0]
    near_us = _near(m, [o.hex for o in us])
    # = step_cost(m, u, h, d) by direction; never through a hex with a US soldier
    # (enemy_in: the state does not change here)
    barred: Any = enemy_hexes(m, u.side)
    if no_nearer:
        barred = _NoNearer(barred, near_us, near_us(u.hex))
    reach = _search(u.hex, m.board.neighbors, costs_for(m, u.stance), budget, max_hexes, barred)
    if len(reach) <= 1:
        return []
    key = _goal_key(
        m,
        toward,
        near_us,
        lambda h: reach[h][0],
        u.route[0] if toward == "route" else u.hex,
        _seen_by(m, us, u.stance) if toward == "concealed" else None,
    )
    if holds_objective(m, u):  # the garrison holds: his moves end inside the zone ⚙
        zone = m.objective_zone
        goal = min((h for h in reach if h in zone), key=key)  # (his own hex is in it)
    else:
        goal = min(reach, key=key)
    return [] if goal == u.hex else _path(reach, u.hex, goal)


# ----------------------------------------------------------------------------- vehicles
def _drive(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``drive {toward, fast, max}`` (a driver) and a tank card's ``move``: a path of forward
    drive steps (turning is free, seed 000 p. 30) within the slow allowance (``fast``: the
    fast one, the Accident Check coming when the slow MPA is passed), planned when the action
    starts and driven one legal ``DRIVE`` order at a time; then ``END_DRIVE``. German
    vehicles spend as much as they can (p. 30): among the hexes best for the goal, the one
    that spends the most MPs ⚙."""
    t = m.state.turn
    if not t.card_acted:
        t.card_path = _plan_drive(
            m, u, args.get("toward", "nearest_us"), bool(args.get("fast", False)), args.get("max")
        )
        if not t.card_path:
            return None
    if t.card_path:
        d = m.board.direction(u.hex, t.card_path[0])
        a = B[K.DRIVE] + d if d is not None else -1
        if a in offered:
            t.card_path = t.card_path[1:]
            return a, False
        t.card_path = []
    end = B[K.END_DRIVE]
    if end in offered:
        return end, True
    return None


def _plan_drive(m: Match, u: Unit, toward: str, fast: bool, max_hexes: int | None) -> list[int]:
    """The hexes of a German vehicle's drive (:func:`_drive`)."""
    if u.vehicle < 0:
        return []
    v = m.state.vehicles[u.vehicle]
    if v.disabled or v.immobilised or v.driver != u.uid:
        return []
    slow, limit = mpa(v)
    budget = limit if fast else slow
    if toward == "route":
        while u.route and u.route[0] == v.hex:
            u.route.pop(0)
        if not u.route:
            return []
    best = _search(
        v.hex, m.board.neighbors, cost_row(m, vtype(v).size == "large"), budget, max_hexes or 99
    )
    full = {h for h, k in _vehicle_counts(m, v).items() if k >= shipped_vehicle_data().max_in_hex}
    ends = [h for h in best if h not in full]
    if len(ends) <= 1:
        return []
    known = m.known_enemies(GER)
    near_us = _near(m, [o.hex for o in m.state.units if o.uid in known and o.hex >= 0])
    # spend as much as it can (seed 000 p. 30)
    key = _goal_key(
        m, toward, near_us, lambda h: -best[h][0], u.route[0] if toward == "route" else v.hex
    )
    goal_hex = min(ends, key=key)
    return [] if goal_hex == v.hex else _path(best, v.hex, goal_hex)


def _vehicle_counts(m: Match, v: Vehicle) -> dict[int, int]:
    out: dict[int, int] = {}
    for o in m.state.vehicles:
        if o is not v and o.hex >= 0 and not o.exited:
            out[o.hex] = out.get(o.hex, 0) + 1
    return out


def _tank_of(m: Match, u: Unit) -> Vehicle:
    return m.state.vehicles[u.vehicle]


def _behind_stone_wall(m: Match, u: Unit, o: Unit) -> bool:
    """Whether the line of fire from ``u`` enters ``o``'s hex across an intact stone wall
    (the wall cover of RULES.md §8)."""
    from ambush_env.core.rules.fire import _target_mods

    return any(name == "wall_stone" for name, _ in _target_mods(m, u, o))


def _mg_orders(
    m: Match, u: Unit, mount: str, mode: str, offered: set[int]
) -> tuple[dict[int, Unit], dict[int, Vehicle]]:
    """A tank machinegun's offered orders: soldier targets and vehicle targets."""
    mounts = ("coax", "bow") if mount == "any" else (mount,)
    units: dict[int, Unit] = {}
    vehicles: dict[int, Vehicle] = {}
    for mt in mounts:
        snap = mode == "snap"
        kind = _MG_KIND[(mt, snap)]
        vkind = _MG_VKIND[(mt, snap)]
        for a, o in _targets(m, kind, offered).items():
            if not any(x is o for x in units.values()):
                units[a] = o
        for a, x in _vehicle_targets(m, vkind, offered).items():
            if not any(y is x for y in vehicles.values()):
                vehicles[a] = x
    return units, vehicles


_MG_KIND = {
    ("coax", False): K.COAX_MG_AIMED,
    ("coax", True): K.COAX_MG_SNAP,
    ("bow", False): K.BOW_MG_AIMED,
    ("bow", True): K.BOW_MG_SNAP,
}
_MG_VKIND = {
    ("coax", False): K.COAX_MG_AIMED_VEHICLE,
    ("coax", True): K.COAX_MG_SNAP_VEHICLE,
    ("bow", False): K.BOW_MG_AIMED_VEHICLE,
    ("bow", True): K.BOW_MG_SNAP_VEHICLE,
}


def _fire_cannon(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``fire_cannon {at}`` with the targeting of seed 000 p. 32, for every card: a soldier
    inside a building → the main gun at that building's wall (``CANNON_WALL``; its +4 is the
    fire rule's); a visible soldier behind a stone wall → the machineguns instead (coaxial,
    else bow, aimed); a known soldier out of sight (prone) → the main gun into his hex
    (``CANNON_HEX``); a visible one → ``CANNON_FIRE``; a vehicle → ``CANNON_VEHICLE`` (never
    offered at a closed tank the gun cannot penetrate, p. 31)."""
    at = args.get("at", "nearest_visible")
    board = m.board
    units: dict[int, Unit] = {}
    if at != "nearest_vehicle":
        visible = _targets(m, K.CANNON_FIRE, offered)
        seen = {o.uid: a for a, o in visible.items()}
        mg_units, _ = _mg_orders(m, u, "any", "aimed", offered)
        mg = {o.uid: a for a, o in mg_units.items()}
        st_units = m.state.units
        for uid in m.enemy_slots(GER):
            o = st_units[uid]
            if o.status != ACTIVE or o.hex < 0 or o.vehicle >= 0:
                continue
            off = _offset(m, u.hex, o.hex)
            if board.building[o.hex] is not None and off is not None:
                a = B[K.CANNON_WALL] + off
                if a in offered:
                    units[a] = o
                continue
            if uid in seen:
                if _behind_stone_wall(m, u, o):
                    if uid in mg:
                        units[mg[uid]] = o
                    continue
                units[seen[uid]] = o
                continue
            if off is not None and B[K.CANNON_HEX] + off in offered:
                units[B[K.CANNON_HEX] + off] = o
    vehicles = _vehicle_targets(m, K.CANNON_VEHICLE, offered)
    pick = _pick_any(m, u, units, vehicles, at)
    return None if pick is None else (pick, True)


def _offset(m: Match, src: int, dst: int) -> int | None:
    """The ``HEX_OFFSETS`` index of ``dst`` seen from ``src`` (None beyond the radius)."""
    b = m.board
    return O.OFFSET_INDEX.get((b._cx[dst] - b._cx[src], b._cz[dst] - b._cz[src]))


def _fire_mg(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``fire_mg {mount, mode, at}``: a machinegun at a visible soldier or a vehicle (never a
    closed tank it cannot penetrate: the order generator offers none, seed 000 p. 31)."""
    units, vehicles = _mg_orders(m, u, args.get("mount", "any"), args.get("mode", "aimed"), offered)
    a = _pick_any(m, u, units, vehicles, args.get("at", "nearest_visible"))
    return None if a is None else (a, True)


def _hatch(closing: bool) -> Callable[[Match, Unit, dict, set[int]], Got]:
    def act(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
        a = B[K.OPEN_CLOSE]
        if _tank_of(m, u).closed == closing or a not in offered:
            return None
        return a, True

    act.__doc__ = (
        f"``{'close' if closing else 'open'}``: OPEN_CLOSE when the tank is "
        f"{'open' if closing else 'closed'} and it is legal (seed 000 p. 33)."
    )
    return act


def _leave_vehicle(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``leave_vehicle``: get out (RULES.md §12), when legal."""
    a = B[K.LEAVE_VEHICLE]
    return (a, True) if a in offered else None


_ACTIONS: dict[str, Callable[[Match, Unit, dict, set[int]], Got]] = {
    "fire": _fire,
    "snap_fire": _snap_fire,
    "stance": _stance,
    "hold": _hold,
    "prepare": _single(K.PREPARE),
    "clear_jam": _single(K.CLEAR_JAM),
    "surrender": _single(K.SURRENDER),
    "alert": _alert,
    "move": _move,
    "throw_grenade": _throw_grenade,
    "throw_satchel": _throw_satchel,
    "assault": _assault,
    "drive": _drive,
    "leave_vehicle": _leave_vehicle,
}

#: A tank card's actions (module ``vehicle_cards``; seed 000 p. 32-33).
_TANK_ACTIONS: dict[str, Callable[[Match, Unit, dict, set[int]], Got]] = {
    "fire_cannon": _fire_cannon,
    "fire_mg": _fire_mg,
    "load": _single(K.LOAD_CANNON),
    "move": _drive,
    "close": _hatch(True),
    "open": _hatch(False),
    "hold": _hold,
}

#: The order kinds each card action may give (:func:`wanted_kinds`).
_KINDS: dict[str, frozenset[int]] = {
    "fire": frozenset({K.FIRE_AIMED, K.FIRE_SNAP}),
    "snap_fire": frozenset({K.FIRE_SNAP}),
    "stance": frozenset({K.STANCE}),
    "hold": _CLOSE_KINDS,
    "prepare": frozenset({K.PREPARE}),
    "clear_jam": frozenset({K.CLEAR_JAM}),
    "surrender": frozenset({K.SURRENDER}),
    "alert": frozenset({K.ALERT}),
    "move": frozenset({K.MOVE}),
    "throw_grenade": frozenset({K.GRENADE}),
    "throw_satchel": frozenset({K.SATCHEL, K.PREPARE}),
    "assault": frozenset({K.ASSAULT_KILL, K.ASSAULT_CAPTURE, K.MOVE}),
    "drive": frozenset({K.DRIVE, K.END_DRIVE}),
    "leave_vehicle": frozenset({K.LEAVE_VEHICLE}),
}
_KINDS["fire"] = _KINDS["fire"] | {K.FIRE_AIMED_VEHICLE, K.FIRE_SNAP_VEHICLE, K.FIRE_WALL}
_KINDS["snap_fire"] = _KINDS["snap_fire"] | {K.FIRE_SNAP_VEHICLE}

_MG_KINDS = frozenset(
    {
        K.COAX_MG_AIMED,
        K.COAX_MG_SNAP,
        K.BOW_MG_AIMED,
        K.BOW_MG_SNAP,
        K.COAX_MG_AIMED_VEHICLE,
        K.COAX_MG_SNAP_VEHICLE,
        K.BOW_MG_AIMED_VEHICLE,
        K.BOW_MG_SNAP_VEHICLE,
    }
)
_TANK_KINDS: dict[str, frozenset[int]] = {
    "fire_cannon": frozenset({K.CANNON_FIRE, K.CANNON_WALL, K.CANNON_HEX, K.CANNON_VEHICLE})
    | _MG_KINDS,
    "fire_mg": _MG_KINDS,
    "load": frozenset({K.LOAD_CANNON}),
    "move": frozenset({K.DRIVE, K.END_DRIVE}),
    "close": frozenset({K.OPEN_CLOSE}),
    "open": frozenset({K.OPEN_CLOSE}),
    "hold": _CLOSE_KINDS,
}
