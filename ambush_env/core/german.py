"""The German card interpreter (RULES.md §14).

On his turn a German rolls a d10 on one column of his card — *Unaware*, *Aware* or
*Self-Preservation* — and performs that entry's actions in order, as far as his state
allows; an action that cannot run is skipped (and says so in the events). Target selectors
and the general restrictions live here, not in the cards.

Column choice ⚙: Self-Preservation when wounded, an escaped prisoner, or outnumbered
(active US soldiers within ``outnumbered_radius`` hexes at least ``outnumbered_ratio`` times
the active Germans within that radius of him; numbers in ``tables.german``); otherwise Aware
or Unaware by his awareness.
"""

from __future__ import annotations

from collections import deque

from pydantic import BaseModel
from typing import TYPE_CHECKING, Any

from ambush_env.core.movement import IMPASSABLE, enemy_in, step_cost
from ambush_env.core.types import ARSpace, Side, Stance, Status, Terrain

if TYPE_CHECKING:
    from ambush_env.core.engine import Game
    from ambush_env.core.state import Unit

ACTIVE = int(Status.ACTIVE)
US = int(Side.US)
GER = int(Side.GERMAN)
_STANCES = {"standing": 0, "crouching": 1, "prone": 2}


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


def column_for(game: "Game", u: "Unit") -> str:
    """Which card column ``u`` reads now (module docstring)."""
    if u.wounded or u.escaped or outnumbered(game, u):
        return "self_preservation"
    return "aware" if u.aware else "unaware"


def outnumbered(game: "Game", u: "Unit") -> bool:
    """RULES.md §10/§14 ⚙: US within the radius ≥ ratio × Germans within it (him included)."""
    cfg = game.rd.german
    dist = game.board.distance
    us = ger = 0
    for o in game.state.units:
        if o.status != ACTIVE or o.hex < 0:
            continue
        if dist(o.hex, u.hex) <= cfg.outnumbered_radius:
            if o.side == US:
                us += 1
            else:
                ger += 1
    return us >= cfg.outnumbered_ratio * max(ger, 1)


def start_of_round_awareness(game: "Game") -> None:
    """Unaware *known* Germans who see a US soldier make a PC check to become aware ⚙."""
    st = game.state
    for g in st.units:
        if g.side != GER or g.status != ACTIVE or g.aware or g.hex < 0 or g.uid not in st.contacts:
            continue  # hidden Germans neither act nor check until found
        if any(o.side == US and o.status == ACTIVE and o.hex >= 0 and game.can_see(g, o)
               for o in st.units):
            r = game.dice.d10(f"{g.name} awareness PC check")
            g.aware = r <= g.PC
            game.emit({"type": "awareness_check", "unit": g.name, "roll": r, "pc": g.PC,
                       "aware": g.aware})


def german_turn(game: "Game", u: "Unit") -> None:
    """One German turn: roll on the card column and run the entry's actions (RULES.md §14).

    An escaped prisoner out of every US soldier's sight leaves the map instead (seed 002 p. 25).
    """
    from ambush_env.core.prisoners import escaped_slips_away

    if u.escaped and escaped_slips_away(game, u):
        return
    card = game.cards[u.role]
    col_name = column_for(game, u)
    column = getattr(card.columns, col_name)
    r = game.dice.d10(f"{u.name} card ({col_name})")
    entry = next(e for e in column if e.rolls[0] <= r <= e.rolls[1])
    acts = [normalize(a) for a in entry.do]
    game.emit({"type": "german_card", "unit": u.name, "card": card.id, "column": col_name,
               "roll": r, "actions": [a[0] for a in acts]})
    for name, args in acts:
        if u.status != ACTIVE or game.state.over:
            break
        fn = _ACTIONS.get(name)
        ran = fn(game, u, args) if fn is not None else False
        if not ran:
            game.emit({"type": "german_skip", "unit": u.name, "action": name})


# ----------------------------------------------------------------------------- selectors
def _visible_targets(game: "Game", u: "Unit", snap: bool) -> list["Unit"]:
    """Active US soldiers ``u`` may fire at; a soldier in a vehicle stands for the vehicle,
    which is fired at as one target (seed 000 p. 31)."""
    from ambush_env.core.actions import can_fire_at

    out = []
    cars: dict[int, bool] = {}
    for o in game.state.units:
        if o.side != US or o.status != ACTIVE or o.hex < 0:
            continue
        if o.vehicle >= 0:
            ok = cars.get(o.vehicle)
            if ok is None:
                from ambush_env.core.vehicles import vehicle_fire_refusal

                ok = (u.aware and not u.panicked and vehicle_fire_refusal(
                    game, u, game.state.vehicles[o.vehicle], snap=snap) is None)
                cars[o.vehicle] = ok
            if ok:
                out.append(o)
        elif can_fire_at(game, u, o, snap=snap):
            out.append(o)
    return out


def _pick(game: "Game", u: "Unit", cands: list["Unit"], how: str) -> "Unit | None":
    if not cands:
        return None
    dist = game.board.distance
    if how == "weakest_visible":
        key = lambda o: (not o.wounded, dist(u.hex, o.hex), o.uid)  # noqa: E731
    elif how == "most_exposed":
        key = lambda o: (o.stance, dist(u.hex, o.hex), o.uid)  # noqa: E731
    else:  # nearest_visible and default
        key = lambda o: (dist(u.hex, o.hex), o.stance, o.uid)  # noqa: E731
    return min(cands, key=key)


# ----------------------------------------------------------------------------- actions
def _fire(game: "Game", u: "Unit", args: dict) -> bool:
    """``fire {mode: aimed}``: one aimed shot; ``fire {mode: snap}``: the turn's two snap
    shots (RULES.md §6), each at the selector's current choice."""
    from ambush_env.core.actions import do_fire

    snap = args.get("mode", "aimed") == "snap"
    if not u.aware:
        return False
    fired = False
    for _ in range(game.rd.fire.snap_shots if snap else 1):  # RULES.md §6
        if u.status != ACTIVE or game.state.over:
            break
        t = _pick(game, u, _visible_targets(game, u, snap), args.get("at", "nearest_visible"))
        if t is None:
            break
        do_fire(game, u, t, snap=snap)
        fired = True
    return fired


def _snap_fire(game: "Game", u: "Unit", args: dict) -> bool:
    """``snap_fire``: the single snap shot that may follow a move (RULES.md §6)."""
    from ambush_env.core.actions import do_fire

    if not u.aware:
        return False
    t = _pick(game, u, _visible_targets(game, u, True), args.get("at", "nearest_visible"))
    if t is None:
        return False
    do_fire(game, u, t, snap=True)
    return True


def _stance(game: "Game", u: "Unit", args: dict) -> bool:
    s = args.get("to", args.get("value"))
    s = _STANCES.get(s, s)
    if s is None or s == u.stance:
        return False
    game.emit({"type": "stance", "unit": u.name, "from": int(u.stance), "to": int(s)})
    u.stance = int(s)
    return True


def _hold(game: "Game", u: "Unit", args: dict) -> bool:
    game.emit({"type": "hold", "unit": u.name})
    return True


def _prepare(game: "Game", u: "Unit", args: dict) -> bool:
    """Reload a dry weapon, prepare a bazooka/crew weapon or a satchel (RULES.md §6)."""
    from ambush_env.core.actions import do_prepare

    return do_prepare(game, u)


def _throw_grenade(game: "Game", u: "Unit", args: dict) -> bool:
    """``throw_grenade {at: largest_group | nearest_us, within: N}`` (RULES.md §9, §14)."""
    from ambush_env.core.grenades import can_throw, throw

    if not u.aware:
        return False
    within = int(args.get("within") or 3)
    dist = game.board.distance
    counts: dict[int, int] = {}
    for o in game.state.units:
        if o.side == US and o.status == ACTIVE and o.hex >= 0 and 1 <= dist(u.hex, o.hex) <= within:
            counts[o.hex] = counts.get(o.hex, 0) + 1
    cands = [h for h in counts if can_throw(game, u, h, "grenade")]
    if not cands:
        return False
    if args.get("at", "largest_group") == "largest_group":
        target = min(cands, key=lambda h: (-counts[h], dist(u.hex, h), h))
    else:
        target = min(cands, key=lambda h: (dist(u.hex, h), -counts[h], h))
    throw(game, u, target, "grenade")
    return True


def _weakest(units: list["Unit"]) -> "Unit":
    return min(units, key=lambda o: (not o.wounded, o.WS, o.stance != Stance.PRONE, o.uid))


def _assault(game: "Game", u: "Unit", args: dict) -> bool:
    """``assault {at: adjacent_weakest | same_hex, kind}``: a charge into the next hex (at
    most half MV, RULES.md §6) or an assault in his own hex (RULES.md §10)."""
    from ambush_env.core.assault import assault, can_assault

    kind = args.get("kind", "kill")
    here = [o for o in game.state.units if o.side == US and can_assault(game, u, o)]
    if not here and args.get("at", "adjacent_weakest") == "adjacent_weakest":
        allowance = int(u.MV * game.rd.assault.charge_fraction)
        best = None
        for d in game.board.neighbors[u.hex]:
            if d < 0:
                continue
            c = step_cost(game, u, u.hex, d)
            if c == IMPASSABLE or c > allowance:
                continue
            there = [o for o in game.state.units if o.side == US and o.status == ACTIVE
                     and o.hex == d and o.vehicle < 0]
            if there:
                w = _weakest(there)
                if best is None or _weakest([best, w]) is w:
                    best = w
        if best is None or not u.aware or u.panicked:
            return False
        game.emit({"type": "move", "unit": u.name, "to": game.board.label(best.hex),
                   "charge": True})
        u.hex = best.hex
        game.reveal(u)
        here = [o for o in game.state.units if o.side == US and can_assault(game, u, o)]
    if not here:
        return False
    assault(game, u, _weakest(here), kind)
    return True


def _clear_jam(game: "Game", u: "Unit", args: dict) -> bool:
    if not u.jammed:
        return False
    r = game.dice.d10(f"{u.name} clear jam PC check")
    if r <= u.PC:
        u.jammed = False
    game.emit({"type": "clear_jam", "unit": u.name, "roll": r, "pc": u.PC, "cleared": not u.jammed})
    return True


def _alert(game: "Game", u: "Unit", args: dict) -> bool:
    radius = int(args.get("radius", 3))
    dist = game.board.distance
    woke = []
    for o in game.state.units:
        if o.side == GER and o.status == ACTIVE and o.hex >= 0 and not o.aware \
                and dist(o.hex, u.hex) <= radius:
            o.aware = True
            woke.append(o.name)
    if not u.aware:
        u.aware = True
        woke.append(u.name)
    game.emit({"type": "alert", "unit": u.name, "made_aware": woke})
    return True


def _surrender(game: "Game", u: "Unit", args: dict) -> bool:
    """Surrender when outnumbered (RULES.md §10 ⚙): the German is captured where he stands,
    only with an active US soldier in his hex to take him (a prisoner left alone is free at
    once, seed 002 p. 25, so a surrender at a distance would be no surrender at all)."""
    if args.get("if", "outnumbered") == "outnumbered" and not outnumbered(game, u):
        return False
    if not any(o.side == US and o.status == ACTIVE and o.hex == u.hex for o in game.state.units):
        return False
    u.status = int(Status.CAPTURED)
    u.ar = int(ARSpace.INACTIVE)
    u.stance = int(Stance.PRONE)
    game.emit({"type": "surrender", "unit": u.name, "hex": game.board.label(u.hex)})
    return True


def _move(game: "Game", u: "Unit", args: dict) -> bool:
    """Move up to ``max`` hexes within MV toward a goal: cover, nearest_us, objective, away."""
    toward = args.get("toward", "cover")
    max_hexes = int(args.get("max") or 2)
    path = _plan(game, u, toward, max_hexes)
    if not path:
        return False
    for dest in path:
        if u.status != ACTIVE or game.state.over:
            break
        game.emit({"type": "move", "unit": u.name, "to": game.board.label(dest)})
        game.pack_crew_weapon(u)
        u.hex = dest
        if u.uid not in game.state.contacts:
            watchers = [o for o in game.state.units if o.side == US and o.status == ACTIVE
                        and o.hex >= 0 and game.can_see(o, u)]
            if watchers:
                game.sighting(u, watchers)
    return True


def _reachable(game: "Game", u: "Unit", max_hexes: int) -> dict[int, tuple[int, int]]:
    """hex -> (MPs spent, previous hex) for hexes reachable this move (Dijkstra on MPs)."""
    board = game.board
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
            c = step_cost(game, u, h, d)
            if c == IMPASSABLE or mp + c > u.MV or enemy_in(game, d, u.side):
                continue
            if d not in best or best[d][0] > mp + c:
                best[d] = (mp + c, h, n + 1)
                frontier.append(d)
    return {h: (v[0], v[1]) for h, v in best.items()}


def _plan(game: "Game", u: "Unit", toward: str, max_hexes: int) -> list[int]:
    if toward == "route":  # the route his placement gave him; none: he stays put
        while u.route and u.route[0] == u.hex:
            u.route.pop(0)
        if not u.route:
            return []
    reach = _reachable(game, u, max_hexes)
    if len(reach) <= 1:
        return []
    board = game.board
    dist = board.distance
    us = [o.hex for o in game.state.units if o.side == US and o.status == ACTIVE and o.hex >= 0]
    cover = game.rd.german.cover_terrain

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
        obj = list(game.objective_hexes) or [u.hex]
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


_ACTIONS = {
    "fire": _fire,
    "snap_fire": _snap_fire,
    "stance": _stance,
    "hold": _hold,
    "prepare": _prepare,
    "clear_jam": _clear_jam,
    "alert": _alert,
    "surrender": _surrender,
    "move": _move,
    "throw_grenade": _throw_grenade,
    "assault": _assault,
}
