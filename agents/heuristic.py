"""The ``heuristic`` agent: a scripted US squad doctrine.

It reads the engine's legal orders and the game state (``env.unwrapped.game``) and scores each
legal order; it never invents an order the engine did not offer. The doctrine:

* **Objective first, then out.** Goal hexes are the mission's objective until it is taken,
  then its exit hexes; routes are least-MP paths (a standing soldier's movement costs, walls
  respected) computed once per goal and map state. A soldier on an exit hex leaves once the
  objective is taken (or when too little time is left to take it).
* **Operations: advance together.** Each soldier steps one hex along his route, preferring
  cover on equal progress; a soldier more than ``cohesion`` MPs ahead of the squad's median
  waits for the others (bounding overwatch keeps the squad in mutual support).
* **Rounds: fire first.** The best shot is the one with the most expected hits (the engine's
  own to-hit number: aimed once, or two snaps at −2); automatic weapons count a little more.
  Grenades go at hexes holding at least ``grenade_min_targets`` Germans (or one in a building)
  with no US soldier in or next to the landing hex. Assaults capture when the attackers
  outnumber the defender, otherwise kill.
* **Move by cover.** Without a shot, a soldier seen by an active German gets out of sight or
  into cover (or goes prone); an unseen one closes on the nearest known German through cover,
  or advances on the goal when no German is known.
* **Selecting units.** Soldiers with a good shot act first, then exposed ones, then the rest,
  rear soldiers before the lead.

The weights are the :class:`Doctrine` dataclass (agent parameters, not rules numbers).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from ambush_env.core import orders as O
from ambush_env.core.errors import AmbushError
from ambush_env.core.orders import OrderKind as K
from ambush_env.core.rules_data import load_rules_data
from ambush_env.core.state import Unit
from ambush_env.core.types import Phase, Side, Stance, Status, Terrain

ACTIVE = int(Status.ACTIVE)
INF = 10**6


@dataclass(frozen=True)
class Doctrine:
    """Weights of the scripted doctrine.

    Attributes:
        cohesion: Operations: a soldier more than this many MPs ahead of the squad's median
            waits for the others.
        min_hit: smallest chance to hit worth a turn of fire.
        auto_bonus: expected-hit multiplier for automatic weapons (aimed fire chains).
        grenade_min_targets: Germans in a hex that make it a grenade target (1 in a building).
        grenade_value: a grenade's worth in expected hits per German in the hex.
        exit_margin: leave without the objective when fewer Operations pulses than the route
            to the exit plus this margin are left.
    """

    cohesion: int = 2
    min_hit: float = 0.15
    auto_bonus: float = 1.3
    grenade_min_targets: int = 2
    grenade_value: float = 0.45
    exit_margin: int = 4


def _p_hit(n: int) -> float:
    """Chance of a d10 at or below ``n`` (RULES.md §1)."""
    return 0.0 if n < 0 else (1.0 if n >= 9 else (n + 1) / 10.0)


class HeuristicAgent:
    """Scores the legal orders with :class:`Doctrine` and plays the best (ties: random).

    Args:
        seed: seed of the tie-breaking generator.
        doctrine: the weights.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, doctrine: Doctrine | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.doctrine = doctrine or Doctrine()
        self._paths: dict[tuple, list[int]] = {}
        self._game = None
        self._given: set[tuple[int, int]] = set()  # (Round, slot) given a turn
        self._cover = load_rules_data().german.cover_terrain

    # ------------------------------------------------------------------ protocol
    def reset(self, env, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._given = set()
        game = env.unwrapped.game
        if game is not self._game:
            self._game = game
            self._paths = {}

    def act(self, obs: dict, info: dict, env) -> int:
        game = env.unwrapped.game
        if game is not self._game:
            self._game = game
            self._paths = {}
        legal = np.flatnonzero(info["action_mask"]).tolist()
        if not legal:
            raise RuntimeError("no legal order: the episode is over")
        if len(legal) == 1:
            return legal[0]
        u = game.acting_unit()
        if u is None:
            return self._select(game, legal)
        scores = [self._score(game, u, a) for a in legal]
        best = max(scores)
        ties = [a for a, s in zip(legal, scores) if s >= best - 1e-9]
        a = int(ties[self.rng.integers(len(ties))])
        kind, arg = O.decode(a)
        if kind == K.GIVE_TURN:
            self._given.add((game.state.rounds_total, arg))
            self._given.add((game.state.rounds_total, u.slot))  # and none back to the giver
        return a

    # ------------------------------------------------------------------ map knowledge
    def _dist_from(self, game, sources: tuple[int, ...]) -> list[int]:
        """Least-MP distance of every hex to the nearest of ``sources`` (standing soldier)."""
        key = (sources, game.board.version)
        d = self._paths.get(key)
        if d is not None:
            return d
        from ambush_env.core.movement import IMPASSABLE, step_cost

        board = game.board
        walker = Unit(uid=-1, side=int(Side.US), name="", role="", stance=int(Stance.STANDING))
        d = [INF] * board.n
        heap = []
        for s in sources:
            d[s] = 0
            heap.append((0, s))
        heapq.heapify(heap)
        while heap:
            c, i = heapq.heappop(heap)
            if c > d[i]:
                continue
            for j in board.neighbors[i]:
                if j < 0:
                    continue
                cost = step_cost(game, walker, j, i)  # moving from j into i (toward the source)
                if cost == IMPASSABLE:
                    continue
                nc = c + cost
                if nc < d[j]:
                    d[j] = nc
                    heapq.heappush(heap, (nc, j))
        if len(self._paths) > 64:
            self._paths.clear()
        self._paths[key] = d
        return d

    def _goal(self, game) -> tuple[tuple[int, ...], bool]:
        """``(goal hexes, heading for the exit)``."""
        exits = tuple(sorted(game.exit_hexes))
        objective = tuple(sorted(game.objective_hexes))
        taken = "objective_taken" in game.state.flags
        if objective and not taken:
            if exits and game.state.phase == Phase.OPERATIONS:
                pulses, _ = game.time_left()
                d_exit = self._dist_from(game, exits)
                d_obj = self._dist_from(game, objective)
                us = [u for u in game.us_units() if u.status == ACTIVE and u.hex >= 0]
                if us:
                    need = min(d_obj[u.hex] for u in us) + min(d_exit[h] for h in objective)
                    if pulses < need + self.doctrine.exit_margin:
                        return exits, True
            return objective, False
        if exits:
            return exits, True
        return objective, False

    def _in_cover(self, game, h: int) -> bool:
        return int(game.board.terrain[h]) in self._cover

    def _threats(self, game) -> list[Unit]:
        return [g for g in game.contact_units() if g.status == ACTIVE and g.hex >= 0]

    def _seen_by(self, game, h: int, stance: int, threats: list[Unit]) -> int:
        sight = game.sight
        return sum(1 for g in threats if sight.can_see(g.hex, h, g.stance, stance))

    # ------------------------------------------------------------------ fire
    def _shot_value(self, game, u: Unit, target: Unit, snap: bool) -> float:
        from ambush_env.core import fire

        try:
            n, _ = fire.to_hit(game, u, target, snap=snap)
        except (AmbushError, KeyError):  # beyond range or no weapon: the engine would not offer it
            return 0.0
        p = _p_hit(n)
        if p < self.doctrine.min_hit:
            return 0.0
        wc = game.weapon_class(u.weapon)
        if getattr(wc, "automatic", False):
            p *= self.doctrine.auto_bonus
        return p

    def _best_shot(self, game, u: Unit) -> float:
        """Best expected hits this soldier could fire now (for unit selection)."""
        from ambush_env.core.shooting import can_fire_at

        best = 0.0
        for g in self._threats(game):
            if can_fire_at(game, u, g, snap=False):
                best = max(best, self._shot_value(game, u, g, snap=False))
            if can_fire_at(game, u, g, snap=True):
                best = max(best, 2 * self._shot_value(game, u, g, snap=True))
        return best

    # ------------------------------------------------------------------ scoring
    def _select(self, game, legal: list[int]) -> int:
        base = O.ORDER_BASE[K.SELECT_UNIT]
        by_slot = {u.slot: u for u in game.us_units()}
        goal, _ = self._goal(game)
        dist = self._dist_from(game, goal) if goal else None
        threats = self._threats(game) if game.state.phase == Phase.ROUNDS else []
        best_a, best_s = legal[0], -INF
        for a in legal:
            u = by_slot.get(a - base)
            if u is None or u.hex < 0:
                continue
            s = 0.0
            if threats:
                s += 100.0 * self._best_shot(game, u)
                if self._seen_by(game, u.hex, u.stance, threats):
                    s += 10.0
            if dist is not None:
                s += min(dist[u.hex], 999) / 1000.0  # rear soldiers first
            s += self.rng.random() * 1e-6
            if s > best_s:
                best_a, best_s = a, s
        return best_a

    def _score(self, game, u: Unit, a: int) -> float:
        kind, arg = O.decode(a)
        st = game.state
        ops = st.phase == Phase.OPERATIONS
        goal, leaving = self._goal(game)
        if kind == K.EXIT_MAP:
            return 1000.0 if leaving else -50.0
        if ops:
            return self._score_operations(game, u, kind, arg, goal)
        threats = self._threats(game)
        if kind in (K.FIRE_AIMED, K.FIRE_SNAP):
            target = st.units[st.contacts[arg]]
            snap = kind == K.FIRE_SNAP
            v = self._shot_value(game, u, target, snap)
            if snap and st.turn.mode == "":
                v *= 2  # two snap shots in the turn
            return 100.0 * v if v > 0 else -10.0
        if kind in (K.ASSAULT_KILL, K.ASSAULT_CAPTURE):
            target = st.units[st.contacts[arg]]
            friends = sum(1 for o in game.us_units() if o.status == ACTIVE and o.hex == u.hex)
            strong = friends >= 2 or not target.aware or target.panicked
            if kind == K.ASSAULT_CAPTURE:
                return 90.0 if strong else 40.0
            return 60.0 if not strong else 50.0
        if kind == K.THROW_OUT:
            return 95.0  # a live grenade in the hex: throw it out
        if kind == K.GRENADE:
            return self._score_grenade(game, u, arg)
        if kind == K.SATCHEL:
            return 1.2 * self._score_grenade(game, u, arg)
        if kind == K.CLEAR_JAM or kind == K.PREPARE:
            return 30.0
        if kind == K.MAKE_AWARE:
            return 25.0
        if kind == K.GIVE_TURN:
            # only to a soldier with a shot, once per Round each (two commanders must not trade
            # turns back and forth)
            o = next((x for x in game.us_units() if x.slot == arg), None)
            if o is None or (st.rounds_total, arg) in self._given:
                return -20.0
            shot = self._best_shot(game, o)
            return 50.0 * shot if shot > 0 else -5.0
        if kind == K.MOVE:
            return self._score_move_rounds(game, u, arg, goal, threats)
        if kind == K.STANCE:
            seen = self._seen_by(game, u.hex, u.stance, threats) if threats else 0
            if seen and arg == Stance.PRONE and not self._in_cover(game, u.hex):
                return 8.0
            if not threats and arg == Stance.STANDING:
                return 2.0
            return -5.0
        if kind in (K.END_TURN, K.END_MOVE):
            return 0.0
        return -20.0

    def _score_operations(self, game, u: Unit, kind: K, arg: int, goal: tuple[int, ...]) -> float:
        if kind == K.STANCE:
            return 3.0 if arg == Stance.STANDING else -10.0
        if kind in (K.CLEAR_JAM, K.PREPARE):
            return 4.0
        if kind == K.END_TURN:
            return 0.0
        if kind != K.MOVE or not goal:
            return -20.0
        dist = self._dist_from(game, goal)
        dest = game.board.neighbors[u.hex][arg]
        gain = dist[u.hex] - dist[dest]
        if gain <= 0:
            return -1.0 + (0.5 if self._in_cover(game, dest) else 0.0) - 5.0
        # cohesion: wait for the squad when ahead of its median by more than `cohesion` MPs
        squad = sorted(dist[o.hex] for o in game.us_units() if o.status == ACTIVE and o.hex >= 0)
        if squad:
            median = squad[len(squad) // 2]
            if median - dist[dest] > self.doctrine.cohesion:
                return -0.5
        return 5.0 + gain + (0.5 if self._in_cover(game, dest) else 0.0)

    def _score_move_rounds(self, game, u: Unit, arg: int, goal, threats: list[Unit]) -> float:
        dest = game.board.neighbors[u.hex][arg]
        cover_here = self._in_cover(game, u.hex)
        cover_dest = self._in_cover(game, dest)
        if threats:
            seen_here = self._seen_by(game, u.hex, u.stance, threats)
            seen_dest = self._seen_by(game, dest, u.stance, threats)
            # close on the nearest known German through cover
            d = self._dist_from(game, tuple(sorted({g.hex for g in threats})))
            gain = d[u.hex] - d[dest]
            s = 0.0
            if seen_here and not cover_here:
                s += 6.0 * (seen_here - seen_dest) + (4.0 if cover_dest else 0.0)
            elif not seen_here:
                s += (2.0 + gain) if gain > 0 and (cover_dest or seen_dest == 0) else -3.0
            else:  # seen but in cover: hold unless the move keeps cover
                s += 1.0 if cover_dest and gain > 0 else -3.0
            return s
        if not goal:
            return -1.0
        dist = self._dist_from(game, goal)
        gain = dist[u.hex] - dist[dest]
        return (3.0 + gain + (0.5 if cover_dest else 0.0)) if gain > 0 else -2.0

    def _score_grenade(self, game, u: Unit, arg: int) -> float:
        board = game.board
        h = game.offset_target(u.hex, arg)
        if h < 0:
            return -20.0
        germans = [g for g in self._threats(game) if g.hex == h]
        if not germans:
            return -20.0
        near = set(board.neighbors[h]) | {h}
        if any(o.status == ACTIVE and o.hex in near for o in game.us_units()):
            return -30.0  # a scatter could land on our own men
        n = len(germans)
        in_building = int(board.terrain[h]) == Terrain.BUILDING
        if n < self.doctrine.grenade_min_targets and not in_building:
            return 10.0 * n
        return 100.0 * self.doctrine.grenade_value * n
