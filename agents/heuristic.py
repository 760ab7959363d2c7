"""The ``heuristic`` agent: a scripted US squad doctrine.

It reads the engine's legal orders and the game state (``env.unwrapped.game``) and scores each
legal order; it never invents an order the engine did not offer. The doctrine:

* **Objective first, then out.** Goal hexes are the mission's objective until it is taken,
  then its exit hexes; routes are least-MP paths (a standing soldier's movement costs, walls
  respected) computed once per goal and map state. A soldier on an exit hex leaves once the
  objective is taken (or when too little time is left to take it).
* **By the objective's kind** (``core/world/missions.py``, "Objective kinds"). ``take``: as above.
  ``hold``: the goal stays the objective to the end and a soldier in it never steps out.
  ``capture``: the goal is the named German's hex once he is known (else the objective's
  hexes); in Rounds he is charged and assaulted to capture, never fired at, grenaded or
  assaulted to kill; a prisoner who must be marched off is walked by his guard
  (``MOVE_PRISONER``) to the exit while the guard never leaves him. ``demolish``: satchel
  carriers go for the target; in Rounds one within throwing range prepares his charge and
  throws it on the target (never where a US soldier stands), and in Operations one next to
  it sets his charge the same way (the ⚙ Operations demolition, ``core/play/legal.py``); once the
  target is down, out.
* **Operations: advance together.** Each soldier steps one hex along his route, preferring
  cover on equal progress; a soldier more than ``cohesion`` MPs ahead of the squad's median
  waits for the others (bounding overwatch keeps the squad in mutual support).
* **Rounds: fire first.** The best shot is the one with the most expected hits (the engine's
  own to-hit number: aimed once, or two snaps at −2); automatic weapons count a little more.
  Grenades go at hexes holding at least ``grenade_min_targets`` Germans (or one in a building)
  with no US soldier in or next to the landing hex. Assaults capture when the attackers
  outnumber the defender, otherwise kill.
* **Around known minefields.** Routes pay ``mine_cost`` MPs more for each known
  anti-personnel minefield hex (an unknown one is walked into like any other hex).
* **Move by cover.** Without a shot, a soldier seen by an active German gets out of sight or
  into cover (or goes prone); an unseen one closes on the nearest known German through cover
  (after ``stall_rounds`` Rounds in a row also across the open: at night the enemy is found
  only up close), or advances on the goal when no German is known.
* **Selecting units.** Soldiers with a good shot act first, then exposed ones, then the rest,
  rear soldiers before the lead.
* **Vehicles** (seed 000). Soldiers on foot get into a friendly car in their hex while the
  goal is farther than ``ride_min_distance`` MPs and a car can reach it; the driver waits for
  them in Operations, then drives along the car's own least-MP route (the vehicle cost chart)
  and fast in Rounds when under fire; riders fire from the car (the driver only when he cannot
  drive on); everyone gets out of a car that cannot move. A US tank loads its cannon, fires
  cannon and machine guns at the best target and drives on the goal when it has none.
* **Against vehicles.** An enemy tank or car on the map is a target for the orders that aim at
  vehicles: a grenade into an open tank or a car, a satchel charge into its hex, a bazooka (or
  the tank's cannon) on its weakest aspect; rifle-calibre fire only at cars. Soldiers carrying
  a bazooka, a satchel or grenades close on an enemy tank through cover; a bazooka is prepared
  as soon as an enemy vehicle is on the map.

The weights are the :class:`Doctrine` dataclass (agent parameters, not rules numbers).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import DECISION_MODES, Unit
from ambush_env.core.model.types import Phase, Side, Stance, Status, Terrain
from ambush_env.core.world.rules_data import load_rules_data

ACTIVE = int(Status.ACTIVE)
CAPTURED = int(Status.CAPTURED)
KILLED, REMOVED = int(Status.KILLED), int(Status.REMOVED)
INF = 10**6
_END_TURN = O.encode(K.END_TURN)


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
        ride_min_distance: get into a car when the goal is at least this many MPs away.
        drive_value: score of one MP of progress by car (a hex on foot scores 5 + gain).
        anti_tank_value: an attack that can knock out an enemy tank, per chance of success.
        demolish_value: a satchel charge thrown on a ``demolish`` objective.
        mine_cost: extra MPs a route pays to enter a known anti-personnel minefield hex.
        stall_rounds: after this many Rounds in a row an unseen soldier closes on the enemy
            even into the open (no endless waiting on a foe nobody can see).
        capture_value: a capture assault on a ``capture`` objective's German.
    """

    cohesion: int = 2
    min_hit: float = 0.15
    auto_bonus: float = 1.3
    grenade_min_targets: int = 2
    grenade_value: float = 0.45
    exit_margin: int = 4
    ride_min_distance: int = 8
    drive_value: float = 6.0
    anti_tank_value: float = 160.0
    demolish_value: float = 150.0
    mine_cost: int = 30
    stall_rounds: int = 3
    capture_value: float = 200.0


def _least_cost_to(neighbors, sources, into) -> list[int]:
    """Dijkstra toward ``sources``: the least cost from every hex, ``into(j, i)`` being the
    cost of stepping from ``j`` into its neighbour ``i`` (negative: impassable); INF where
    no source is reachable."""
    d = [INF] * len(neighbors)
    heap = []
    for s in sources:
        d[s] = 0
        heap.append((0, s))
    heapq.heapify(heap)
    while heap:
        c, i = heapq.heappop(heap)
        if c > d[i]:
            continue
        for j in neighbors[i]:
            if j < 0:
                continue
            cost = into(j, i)
            if cost < 0:
                continue
            if c + cost < d[j]:
                d[j] = c + cost
                heapq.heappush(heap, (c + cost, j))
    return d


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
        if game.state.turn.mode in DECISION_MODES:  # RULES.md §7, §9: always take
            return next(a for a in legal if a != _END_TURN)  # the free snap, throw grenades out
        scores = [self._score(game, u, a) for a in legal]
        best = max(scores)
        ties = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        a = int(ties[self.rng.integers(len(ties))])
        kind, arg = O.decode(a)
        if kind == K.GIVE_TURN:
            self._given.add((game.state.rounds_total, arg))
            self._given.add((game.state.rounds_total, u.slot))  # and none back to the giver
        return a

    # ------------------------------------------------------------------ map knowledge
    def _dist_from(self, game, sources: tuple[int, ...]) -> list[int]:
        """Least-MP distance of every hex to the nearest of ``sources`` (standing soldier);
        a known anti-personnel minefield hex costs ``mine_cost`` MPs more to enter."""
        st = game.state
        mined = (
            frozenset(h for h in st.known_mines if h in st.minefields)
            if st.minefields
            else frozenset()
        )
        key = (sources, game.board.version, mined)
        d = self._paths.get(key)
        if d is None:
            from ambush_env.core.rules.movement import IMPASSABLE, step_cost

            walker = Unit(uid=-1, side=int(Side.US), name="", role="", stance=int(Stance.STANDING))
            extra = self.doctrine.mine_cost

            def into(j: int, i: int) -> int:  # moving from j into i (toward the source)
                c = step_cost(game, walker, j, i)
                if c == IMPASSABLE:
                    return -1
                return c + extra if i in mined else c

            d = self._remember(key, _least_cost_to(game.board.neighbors, sources, into))
        return d

    def _remember(self, key: tuple, d: list[int]) -> list[int]:
        if len(self._paths) > 64:
            self._paths.clear()
        self._paths[key] = d
        return d

    # ------------------------------------------------------------------ objective kinds
    def _kind(self, game) -> str:
        return game.mission.objective.kind

    def _open(self, game) -> bool:
        """The objective can still be scored (not taken, not spoilt)."""
        if "objective_taken" in game.state.flags or not game.objective_hexes:
            return False
        if self._kind(game) == "capture":
            t = self._quarry(game)
            return t is None or t.status not in (KILLED, REMOVED)
        return True

    def _quarry(self, game) -> Unit | None:
        """The German a ``capture`` objective names, once on the map (None before)."""
        card = game.mission.objective.card
        return next(
            (g for g in game.state.units if g.side == int(Side.GERMAN) and g.role == card), None
        )

    def _is_quarry(self, game, g: Unit) -> bool:
        return (
            self._kind(game) == "capture"
            and self._open(game)
            and g.role == game.mission.objective.card
        )

    def _guards(self, game, u: Unit) -> bool:
        """``u`` stands with a prisoner (he must not walk away from him)."""
        return any(o.status == CAPTURED and o.hex == u.hex for o in game.state.units)

    def _satchel_man(self, u: Unit) -> bool:
        return "satchel" in u.equipment and u.vehicle < 0

    def _demolish_targets(self, game, u: Unit) -> list[int]:
        """The hexes a satchel on the ``demolish`` objective may land on (reach)."""
        reach = game.mission.objective.reach
        obj = game.objective_hexes
        if not reach:
            return sorted(obj)
        dist = game.board.distance
        return [
            h for h in range(len(game.board.neighbors)) if any(dist(h, o) <= reach for o in obj)
        ]

    def _goal(self, game) -> tuple[tuple[int, ...], bool]:
        """``(goal hexes, heading for the exit)``."""
        exits = tuple(sorted(game.exit_hexes))
        objective = tuple(sorted(game.objective_hexes))
        kind = self._kind(game)
        if kind != "take":
            return self._kind_goal(game, kind, objective, exits)
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

    def _kind_goal(
        self, game, kind: str, objective: tuple[int, ...], exits: tuple[int, ...]
    ) -> tuple[tuple[int, ...], bool]:
        """The goal of a ``hold``, ``capture`` or ``demolish`` objective (module docstring)."""
        if kind == "hold":
            return objective, False
        if not self._open(game):
            return (exits, True) if exits else (objective, False)
        if kind == "capture":
            t = self._quarry(game)
            if t is not None and t.status == CAPTURED:
                return (exits, True) if exits else (objective, False)  # march him off
            if t is not None and t.hex >= 0 and t.uid in game.state.contacts:
                return (t.hex,), False
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
        from ambush_env.core.rules import fire

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
        from ambush_env.core.combat.shooting import can_fire_at

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
        best_a = legal[0]
        best_s: float = -INF
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
        ks = self._score_objective_order(game, u, kind, arg, goal)
        if ks is not None:
            return ks
        vs = self._score_vehicle_order(game, u, kind, arg, goal)
        if vs is not None:
            return vs
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

    def _score_objective_order(self, game, u: Unit, kind: K, arg: int, goal) -> float | None:
        """Scores the objective's kind sets (module docstring); None: the usual doctrine."""
        okind = self._kind(game)
        st = game.state
        ops = st.phase == Phase.OPERATIONS
        if kind == K.MOVE_PRISONER:
            if not goal:
                return -5.0
            dist = self._dist_from(game, goal)
            dest = game.board.neighbors[u.hex][arg]
            gain = dist[u.hex] - dist[dest]
            return 6.0 + gain if gain > 0 else -4.0
        if (
            kind in (K.MOVE, K.BOARD_VEHICLE)
            and self._guards(game, u)
            and u.vehicle < 0
            and okind == "capture"
        ):
            return -40.0  # the guard never leaves his prisoner (he would be free at once)
        if okind == "hold" and kind == K.MOVE and u.hex in game.objective_hexes:
            dest = game.board.neighbors[u.hex][arg]
            if dest not in game.objective_hexes:
                return -15.0
        # in Operations only a demolition goes on: a charge may be set there (core/play/legal.py
        # _demolition_orders) once the target's garrison is gone
        if not self._open(game) or (ops and okind != "demolish"):
            return None
        if okind == "capture" and kind in (
            K.ASSAULT_KILL,
            K.ASSAULT_CAPTURE,
            K.FIRE_AIMED,
            K.FIRE_SNAP,
        ):
            target = st.units[st.contacts[arg]]
            if not self._is_quarry(game, target):
                return None
            if kind == K.ASSAULT_CAPTURE:
                return self.doctrine.capture_value
            return -40.0  # never kill the man we came for
        if okind == "capture" and kind in (K.GRENADE, K.SATCHEL):
            h = game.offset_target(u.hex, arg)
            t = self._quarry(game)
            if t is not None and h >= 0 and game.board.distance(h, t.hex) <= 1:
                return -40.0
            return None
        if okind == "demolish" and self._satchel_man(u):
            targets = self._demolish_targets(game, u)
            dist = game.board.distance
            near = min((dist(u.hex, h) for h in targets), default=INF)
            if kind == K.PREPARE and not u.satchel_ready and near <= 3 and u.weapon != "bazooka":
                return 80.0
            if kind == K.STANCE and arg == Stance.STANDING and u.satchel_ready and near <= 3:
                return 70.0  # a satchel is thrown standing (RULES.md §9)
            if kind == K.SATCHEL:
                h = game.offset_target(u.hex, arg)
                if h not in targets:
                    return -30.0
                if any(o.status == ACTIVE and o.hex == h for o in game.us_units()):
                    return -30.0
                crowd = sum(
                    1
                    for o in game.us_units()
                    if o.status == ACTIVE and o.hex >= 0 and o.hex in game.board.neighbors[h]
                )
                return (
                    self.doctrine.demolish_value
                    - 5.0 * crowd
                    + (3.0 if h in game.objective_hexes else 0.0)
                )
        return None

    # ------------------------------------------------------------------ vehicles
    def _car_dist(self, game, goal: tuple[int, ...], large: bool) -> list[int]:
        """Least vehicle-MP distance of every hex to ``goal`` (the vehicle cost chart)."""
        key = ("car", goal, large, game.board.version)
        d = self._paths.get(key)
        if d is None:
            from ambush_env.core.vehicles.vehicles import cost_row

            row = cost_row(game, large)
            nbrs = game.board.neighbors
            d = self._remember(
                key, _least_cost_to(nbrs, goal, lambda j, i: row[j * 6 + nbrs[j].index(i)])
            )
        return d

    def _enemy_vehicles(self, game, side: int = int(Side.US)) -> list:
        return [
            v
            for v in game.state.vehicles
            if v.hex >= 0 and not v.exited and not v.disabled and v.side != side
        ]

    def _vehicle_of_arg(self, game, arg: int, per: int):
        vs = game.state.vehicles
        k = arg // per
        return vs[k] if 0 <= k < len(vs) else None

    def _kind_of(self, v) -> str:
        from ambush_env.core.world.vehicle_data import vtype

        return vtype(v).kind

    def _aspect_bonus(self, arg: int) -> float:
        return (1.0, 1.15, 1.3)[arg % len(O.ASPECTS)]

    def _score_vehicle_order(self, game, u: Unit, kind: K, arg: int, goal) -> float | None:
        """Scores of the vehicle orders (module docstring); None for the others, and for
        riders' and tank crews' orders the vehicle doctrine does not cover."""
        st = game.state
        ops = st.phase == Phase.OPERATIONS
        va = len(O.ASPECTS)
        if kind in (
            K.FIRE_AIMED_VEHICLE,
            K.FIRE_SNAP_VEHICLE,
            K.CANNON_VEHICLE,
            K.BOW_MG_AIMED_VEHICLE,
            K.BOW_MG_SNAP_VEHICLE,
            K.COAX_MG_AIMED_VEHICLE,
            K.COAX_MG_SNAP_VEHICLE,
        ):
            v = self._vehicle_of_arg(game, arg, va)
            if v is None:
                return -20.0
            return self._vehicle_shot(game, u, v, kind, arg)
        if kind == K.GRENADE_INTO:
            v = self._vehicle_of_arg(game, arg, 1)
            if v is None or v.side == u.side:
                return -50.0
            if self._kind_of(v) == "tank":
                return self.doctrine.anti_tank_value * 0.6
            return 40.0 * max(1, len(v.occupants))
        if kind == K.SATCHEL:
            h = game.offset_target(u.hex, arg)
            tanks = [v for v in self._enemy_vehicles(game) if v.hex == h]
            if tanks:
                if any(
                    o.status == ACTIVE and o.hex == h and o.vehicle < 0 for o in game.us_units()
                ):
                    return -30.0
                return self.doctrine.anti_tank_value * 0.7
            return None
        if kind == K.PREPARE and self._enemy_vehicles(game) and u.weapon == "bazooka":
            return 60.0
        if kind in (K.CANNON_FIRE, K.BOW_MG_AIMED, K.COAX_MG_AIMED):
            return 70.0 if kind == K.CANNON_FIRE else 45.0
        if kind in (K.BOW_MG_SNAP, K.COAX_MG_SNAP):
            return 30.0
        if kind == K.LOAD_CANNON:
            return 55.0
        if kind == K.CANNON_WALL:
            return 35.0
        if kind in (K.CANNON_HEX, K.OPEN_CLOSE):
            return -15.0
        if kind == K.BOARD_VEHICLE:
            v = self._vehicle_of_arg(game, arg, 1)
            if v is None:
                return -20.0
            if u.vehicle == v.vid:  # take the wheel of a car whose driver fell
                return 40.0
            if not goal or not ops:
                return -10.0
            dist = self._dist_from(game, goal)
            cd = self._car_dist(game, goal, False)
            if dist[u.hex] >= self.doctrine.ride_min_distance and cd[v.hex] < INF:
                return 12.0
            return -10.0
        if kind == K.LEAVE_VEHICLE:
            v = st.vehicles[u.vehicle]
            if v.disabled or v.immobilised or not goal:
                return 20.0
            if v.driver < 0 or st.units[v.driver].status != ACTIVE:
                return 5.0  # nobody drives: get out unless someone can take the wheel
            cd = self._car_dist(game, goal, self._kind_of(v) == "tank")
            return 20.0 if cd[v.hex] >= INF else -30.0
        if kind in (K.DRIVE, K.DRIVE_BACK, K.END_DRIVE):
            return self._score_drive(game, u, kind, arg, goal)
        if u.vehicle >= 0 and kind == K.END_TURN and ops:
            v = st.vehicles[u.vehicle]
            if v.driver == u.uid and self._waiting_riders(game, u, v):
                return 8.0  # wait for the men to get in
        if u.vehicle >= 0 and kind in (K.FIRE_AIMED, K.FIRE_SNAP):
            v = st.vehicles[u.vehicle]
            if v.driver == u.uid:
                from ambush_env.core.vehicles.vehicles import drive_budget, drive_targets

                if drive_targets(game, u, v, drive_budget(game)):
                    return 1.0  # the driver drives
        return None

    def _waiting_riders(self, game, u: Unit, v) -> bool:
        from ambush_env.core.world.vehicle_data import vtype

        if len(v.occupants) >= vtype(v).occupants:
            return False
        return any(
            o.status == ACTIVE
            and o.hex == v.hex
            and o.vehicle < 0
            and o.uid != u.uid
            and not o.panicked
            for o in game.us_units()
        )

    def _score_drive(self, game, u: Unit, kind: K, arg: int, goal) -> float:
        st = game.state
        v = st.vehicles[u.vehicle]
        if kind == K.END_DRIVE:
            return 0.0
        if not goal:
            return -5.0
        large = self._kind_of(v) == "tank"
        cd = self._car_dist(game, goal, large)
        d = arg if kind == K.DRIVE else (v.facing + 3) % 6
        dest = game.board.neighbors[v.hex][d]
        gain = cd[v.hex] - cd[dest]
        if st.phase == Phase.OPERATIONS and self._waiting_riders(game, u, v):
            return -1.0
        if gain <= 0:
            return -3.0
        s = self.doctrine.drive_value + gain
        if kind == K.DRIVE_BACK:
            s -= 1.0
        return s

    def _vehicle_shot(self, game, u: Unit, v, kind: K, arg: int) -> float:
        """Expected worth of a shot at the vehicle ``v``."""
        from ambush_env.core.rules import fire
        from ambush_env.core.world.vehicle_data import vtype

        if v.side == u.side or v.disabled:
            return -50.0
        t = vtype(v)
        tank_weapon = kind not in (K.FIRE_AIMED_VEHICLE, K.FIRE_SNAP_VEHICLE)
        snap = kind in (K.FIRE_SNAP_VEHICLE, K.BOW_MG_SNAP_VEHICLE, K.COAX_MG_SNAP_VEHICLE)
        if tank_weapon:
            p = 0.5
            explosive = kind == K.CANNON_VEHICLE
        else:
            try:
                n, _ = fire.to_hit_vehicle(game, u, v.hex, t.size, snap=snap)
            except (AmbushError, KeyError):
                return 0.0
            p = _p_hit(n)
            wc = game.weapon_class(u.weapon)
            explosive = bool(getattr(wc, "explosive", False))
        if t.kind == "tank":
            if explosive:
                return self.doctrine.anti_tank_value * p * self._aspect_bonus(arg)
            return 5.0 * p if not v.closed else -10.0  # only the exposed crew can be hurt
        return 80.0 * p * (1.5 if explosive else 1.0)

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
        if self._kind(game) == "demolish" and self._open(game) and self._satchel_man(u):
            # a demolition man closes to throwing range of the target, through cover
            d = self._dist_from(game, tuple(sorted(game.objective_hexes)))
            if d[u.hex] <= 1:
                return -2.0
            gain = d[u.hex] - d[dest]
            return (4.0 + gain + (1.0 if cover_dest else 0.0)) if gain > 0 else -3.0
        quarry = self._quarry(game) if self._kind(game) == "capture" else None
        if (
            quarry is not None
            and quarry.status == ACTIVE
            and self._open(game)
            and quarry.uid in game.state.contacts
        ):
            # close on the German to be captured (a charge into his hex ends in an assault)
            d = self._dist_from(game, (quarry.hex,))
            gain = d[u.hex] - d[dest]
            if gain > 0:
                return 4.0 + gain + (1.0 if cover_dest else 0.0)
        tanks = [v.hex for v in self._enemy_vehicles(game) if self._kind_of(v) == "tank"]
        if tanks and self._anti_tank(u):
            # a tank hunter closes on the tank (bazooka range, or the tank's hex to throw)
            d = self._dist_from(game, tuple(sorted(set(tanks))))
            gain = d[u.hex] - d[dest]
            if d[u.hex] <= (3 if u.weapon == "bazooka" else 1):
                return -2.0
            return (4.0 + gain + (1.0 if cover_dest else 0.0)) if gain > 0 else -3.0
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
                # unseen: close through cover or out of their sight; after ``stall_rounds``
                # Rounds without a fight won (at night the enemy is only found up close),
                # close anyway
                stalled = game.state.round > self.doctrine.stall_rounds
                ok = cover_dest or seen_dest == 0 or stalled
                s += (2.0 + gain) if gain > 0 and ok else -3.0
            else:  # seen but in cover: hold unless the move keeps cover
                s += 1.0 if cover_dest and gain > 0 else -3.0
            return s
        if not goal:
            return -1.0
        dist = self._dist_from(game, goal)
        gain = dist[u.hex] - dist[dest]
        return (3.0 + gain + (0.5 if cover_dest else 0.0)) if gain > 0 else -2.0

    def _anti_tank(self, u: Unit) -> bool:
        """Whether ``u`` carries something that can knock out a tank."""
        return u.vehicle < 0 and (
            u.weapon == "bazooka" or "satchel" in u.equipment or "grenade" in u.equipment
        )

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
