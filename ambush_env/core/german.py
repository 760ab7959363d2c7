"""Owns the German card interpreter (RULES.md §14): a card row turned into orders, one at a
time, chosen from the order generator.

At the start of his turn a German rolls a d10 on one column of his card — *Unaware*, *Aware*
or *Self-Preservation* — and works through that row's actions in order. Each action becomes
orders chosen from :func:`ambush_env.core.legal.legal_orders` for him: the interpreter never
adds an order the row does not name (no stance change unless the card says so), and every
rule of RULES.md §5-§11 binds him as it binds a US soldier (a prone German moves one hex per
move action; snap fire only after at most half MV; a charge within the charge allowance).
An action with no legal order is skipped (``german_skip``); when the row is done, or his
turn can hold nothing more, he ends his turn. His progress through the row lives in the
turn state (``card_*`` fields), so the interpreter is a pure function of the state.

Column choice ⚙: Self-Preservation when wounded, an escaped prisoner, or outnumbered
(:func:`ambush_env.core.prisoners.outnumbered`); otherwise Aware or Unaware by his awareness.
Selectors (``nearest_visible``, ``most_exposed``, ``weakest_visible``, ``largest_group``,
``nearest_us``, ``adjacent_weakest``, ``same_hex``) and move goals (``cover``, ``nearest_us``,
``objective``, ``away``, ``route``) live here, not in the cards.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from pydantic import BaseModel

from ambush_env.core import events as E
from ambush_env.core import orders as O
from ambush_env.core.ctx import Match
from ambush_env.core.movement import IMPASSABLE, enemy_in, step_cost
from ambush_env.core.orders import OrderKind as K
from ambush_env.core.prisoners import outnumbered
from ambush_env.core.state import Unit
from ambush_env.core.types import Side, Stance, Status

ACTIVE = int(Status.ACTIVE)
US = int(Side.US)
GER = int(Side.GERMAN)
B = O.ORDER_BASE
_STANCES = {"standing": 0, "crouching": 1, "prone": 2}
_CLOSE = (B[K.END_TURN], B[K.END_MOVE], B[K.END_DRIVE])
_CLOSE_KINDS = frozenset({K.END_TURN, K.END_MOVE, K.END_DRIVE})


def normalize(action: Any) -> tuple[str, dict]:
    """``(name, args)`` of a card action, whatever its loaded form (model, dict, str)."""
    if isinstance(action, str):
        return action, {}
    if isinstance(action, BaseModel):
        args = {}
        for fname, f in type(action).model_fields.items():
            if fname != "action":
                args[f.alias or fname] = getattr(action, fname)
        return action.action, args
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
    """Which card column ``u`` reads now (module docstring)."""
    if u.wounded or u.escaped or outnumbered(m, u):
        return "self_preservation"
    return "aware" if u.aware else "unaware"


def row_actions(m: Match, u: Unit) -> list[tuple[str, dict]]:
    """The actions of the row ``u`` rolled this turn (empty before the roll)."""
    t = m.state.turn
    if t.card_row < 0:
        return []
    column = getattr(m.cards[u.role].columns, t.card_column)
    return [normalize(a) for a in column[t.card_row].do]


def wanted_kinds(m: Match, u: Unit) -> frozenset[int]:
    """The order kinds the rest of ``u``'s card row can use (rolling the card first if this
    is the start of his turn): what the caller asks the order generator for."""
    if u.role == "tank":  # ⚙ until the vehicle cards: a German tank's unit holds (END_TURN)
        return _CLOSE_KINDS
    t = m.state.turn
    if t.card_row < 0:
        _roll(m, u)
    out = set(_CLOSE_KINDS)
    for name, _ in row_actions(m, u)[t.card_step:]:
        out |= _KINDS.get(name, frozenset())
    return frozenset(out)


def choose(m: Match, u: Unit, legal: list[int]) -> int:
    """The next order of the German ``u``, taken from ``legal`` (his legal orders now, or
    those of :func:`wanted_kinds`).

    The first call of a turn rolls the card (a ``german_card`` event). Raises ValueError if
    ``legal`` is empty (the order generator always offers a way to end a turn).
    """
    if not legal:
        raise ValueError(f"{u.name} has no legal order")
    if u.role == "tank":  # ⚙ until the vehicle cards: a German tank's unit holds
        return next((a for a in legal if a in _CLOSE), legal[0])
    t = m.state.turn
    if t.card_row < 0:
        _roll(m, u)
    acts = row_actions(m, u)
    offered = set(legal)
    while t.card_step < len(acts):
        name, args = acts[t.card_step]
        fn = _ACTIONS.get(name)
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
    for a in _CLOSE:
        if a in offered:
            return a
    return legal[0]


def _roll(m: Match, u: Unit) -> None:
    t = m.state.turn
    card = m.cards[u.role]
    col = column_for(m, u)
    r = m.dice.d10(f"{u.name} card ({col})")
    column = getattr(card.columns, col)
    row = next(k for k, e in enumerate(column) if e.rolls[0] <= r <= e.rolls[1])
    t.card_column, t.card_row, t.card_step, t.card_acted = col, row, 0, False
    m.emit(E.GermanCard(unit=u.name, card=card.id, column=col, roll=r,
                        actions=[normalize(a)[0] for a in column[row].do]))


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
    (RULES.md §6), each at the selector's choice of the moment."""
    snap = args.get("mode", "aimed") == "snap"
    a = _pick(m, u, _targets(m, K.FIRE_SNAP if snap else K.FIRE_AIMED, offered),
              args.get("at", "nearest_visible"))
    if a is None:
        return None
    return a, not snap


def _snap_fire(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``snap_fire``: the single snap shot that may follow a move (RULES.md §6)."""
    a = _pick(m, u, _targets(m, K.FIRE_SNAP, offered), args.get("at", "nearest_visible"))
    return None if a is None else (a, True)


def _stance(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    s = args.get("to", args.get("value"))
    s = _STANCES.get(s, s)
    if s is None or s == u.stance:
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


def _throw_grenade(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``throw_grenade {at: largest_group | nearest_us, within: N}`` (RULES.md §9, §14)."""
    within = int(args.get("within") or 3)
    dist = m.board.distance
    counts: dict[int, int] = {}
    for o in m.state.units:
        if o.side == US and o.status == ACTIVE and o.hex >= 0 and 1 <= dist(u.hex, o.hex) <= within:
            counts[o.hex] = counts.get(o.hex, 0) + 1
    base = B[K.GRENADE]
    cands = {}
    for a in offered:
        if base < a < base + O.N_OFFSETS:
            h = m.offset_target(u.hex, a - base)
            if h in counts:
                cands[h] = a
    if not cands:
        return None
    if args.get("at", "largest_group") == "largest_group":
        target = min(cands, key=lambda h: (-counts[h], dist(u.hex, h), h))
    else:
        target = min(cands, key=lambda h: (dist(u.hex, h), -counts[h], h))
    return cands[target], True


def _assault(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``assault {at: adjacent_weakest | same_hex, kind}``: an assault on the weakest US soldier
    in his hex, else (``adjacent_weakest``) a charge into the neighbouring hex of the weakest
    one within the charge allowance, the assault following (RULES.md §6, §10)."""
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
        there = [o for o in m.state.units if o.side == US and o.status == ACTIVE
                 and o.hex == nbrs[d] and o.vehicle < 0]
        if there:
            w = min(there, key=_weakest_key)
            if best is None or _weakest_key(w) < _weakest_key(best[1]):
                best = (a, w)
    return None if best is None else (best[0], False)


def _move(m: Match, u: Unit, args: dict, offered: set[int]) -> Got:
    """``move {toward: cover | nearest_us | objective | away | route, max: N}``: a path of up
    to N hexes within his MPs toward the goal, planned when the action starts and walked one
    legal MOVE order at a time (it stops where the next hex is not legal)."""
    t = m.state.turn
    if not t.card_acted:
        t.card_path = _plan(m, u, args.get("toward", "cover"), int(args.get("max") or 2))
    if not t.card_path:
        return None
    d = m.board.direction(u.hex, t.card_path[0])
    a = B[K.MOVE] + d if d is not None else -1
    if a not in offered:
        return None
    t.card_path = t.card_path[1:]
    return a, not t.card_path


def _reachable(m: Match, u: Unit, max_hexes: int, budget: int) -> dict[int, tuple[int, int]]:
    """hex -> (MPs spent, previous hex) for hexes reachable within ``budget`` MPs and
    ``max_hexes`` hexes, not through a hex with a US soldier (Dijkstra on MPs)."""
    board = m.board
    best = {u.hex: (0, -1, 0)}
    frontier = deque([u.hex])
    while frontier:
        h = frontier.popleft()
        mp, _, n = best[h]
        if n >= max_hexes:
            continue
        for d in board.neighbors[h]:
            if d < 0:
                continue
            c = step_cost(m, u, h, d)
            if c == IMPASSABLE or mp + c > budget or enemy_in(m, d, u.side):
                continue
            if d not in best or best[d][0] > mp + c:
                best[d] = (mp + c, h, n + 1)
                frontier.append(d)
    return {h: (v[0], v[1]) for h, v in best.items()}


def _plan(m: Match, u: Unit, toward: str, max_hexes: int) -> list[int]:
    if toward == "route":  # the route his placement gave him; none: he stays put
        while u.route and u.route[0] == u.hex:
            u.route.pop(0)
        if not u.route:
            return []
    t = m.state.turn
    budget = t.mp_left if t.mode == "move" else u.MV
    reach = _reachable(m, u, max_hexes, budget)
    if len(reach) <= 1:
        return []
    board = m.board
    dist = board.distance
    us = [o.hex for o in m.state.units if o.side == US and o.status == ACTIVE and o.hex >= 0]
    cover = m.rd.german.cover_terrain

    def near_us(h: int) -> int:
        return min((dist(h, x) for x in us), default=0)

    if toward == "nearest_us":
        key = lambda h: (near_us(h), reach[h][0], h)  # noqa: E731
    elif toward == "away":
        key = lambda h: (-near_us(h), reach[h][0], h)  # noqa: E731
    elif toward == "route":
        goal_hex = u.route[0]
        key = lambda h: (dist(h, goal_hex), reach[h][0], h)  # noqa: E731
    elif toward == "objective":
        obj = list(m.objective_hexes) or [u.hex]
        key = lambda h: (min(dist(h, x) for x in obj), reach[h][0], h)  # noqa: E731
    else:  # cover: the best cover terrain, then away from the US
        key = lambda h: (0 if int(board.terrain[h]) in cover else 1, -near_us(h), reach[h][0], h)  # noqa: E731
    goal = min(reach, key=key)
    if goal == u.hex:
        return []
    path = []
    h = goal
    while h != u.hex:
        path.append(h)
        h = reach[h][1]
    return path[::-1]


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
    "assault": _assault,
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
    "assault": frozenset({K.ASSAULT_KILL, K.ASSAULT_CAPTURE, K.MOVE}),
}
