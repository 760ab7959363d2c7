"""The probe suite (issue 25): scripted degenerate policies that must lose every mission.

A probe plays a policy that a score which can be gamed would reward: walking off the map,
walking through the objective without a fight, running the clock out, driving away. None of
them fires, throws or assaults (:data:`NEVER`): if one of them draws or wins, a mission pays
for something other than its objective and the fight, and the benchmark's ranking cannot be
trusted. docs/BENCHMARK.md ("Probes: degenerate policies that must lose") says which mission
rule defeats each one.

:data:`PROBE_NAMES` lists the suite: ``do_nothing`` (``agents/do_nothing.py``) and the four of
this module — :class:`WithdrawProbe`, :class:`RushProbe`, :class:`StallProbe`,
:class:`DriveOffProbe`. Each follows the agent protocol of :mod:`ambush_env.agents` and reads
the game (``env.unwrapped.game``) as the heuristic does, choosing only among the legal orders
of ``info["action_mask"]``. All are deterministic (no randomness at all: ties go to the lowest
order integer) and cheap: least-MP distances (a standing soldier's step costs, walls
respected; the heuristic's Dijkstra, ``heuristic._least_cost_to``) are computed once per goal
and map version in an episode.

Movement shared by the walking probes (⚙ choices of the probes, not rules): a soldier stands
up first (a prone or crouching soldier walks slower, RULES.md §6), then steps each time into
the legal neighbour hex nearest his goal, never into a hex holding a known German (that would
be a charge, and a charge ends in an assault, RULES.md §6); with no step that gains he ends
his turn (Operations: waits the pulse) or his move. On an exit hex with his goal the exits,
he leaves (``EXIT_MAP``, RULES.md §15). A soldier who finds himself in a car gets out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ambush_env.agents.heuristic import INF, _least_cost_to
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import DECISION_MODES, Unit, Vehicle, known_vehicle
from ambush_env.core.model.types import ACTIVE, US, Phase, Stance
from ambush_env.core.rules.scoring import TAKEN

#: the probe suite, in the order the docs and the tests list it
PROBE_NAMES = ("do_nothing", "withdraw", "rush", "stall", "drive_off")

#: order kinds no probe ever gives: every fire, throw and assault (a soldier's, a rider's, a
#: tank's, seed 003's special attacks)
NEVER = frozenset(
    {
        K.FIRE_AIMED,
        K.FIRE_SNAP,
        K.FIRE_WALL,
        K.FIRE_HEX,
        K.GRENADE,
        K.SATCHEL,
        K.ASSAULT_KILL,
        K.ASSAULT_CAPTURE,
        K.THROW_OUT,
        K.FIRE_AIMED_VEHICLE,
        K.FIRE_SNAP_VEHICLE,
        K.GRENADE_INTO,
        K.CANNON_FIRE,
        K.CANNON_VEHICLE,
        K.CANNON_WALL,
        K.CANNON_HEX,
        K.BOW_MG_AIMED,
        K.BOW_MG_SNAP,
        K.COAX_MG_AIMED,
        K.COAX_MG_SNAP,
        K.BOW_MG_AIMED_VEHICLE,
        K.BOW_MG_SNAP_VEHICLE,
        K.COAX_MG_AIMED_VEHICLE,
        K.COAX_MG_SNAP_VEHICLE,
        K.CHARGE_UNDER,
        K.CHARGE_TREADS,
        K.MOLOTOV,
        K.FIRE_CALLED,
        K.RAM,
        K.RAM_OFF_ROAD,
    }
)

B = O.ORDER_BASE
END_TURN = B[K.END_TURN]
END_MOVE = B[K.END_MOVE]
END_DRIVE = B[K.END_DRIVE]
EXIT_MAP = B[K.EXIT_MAP]
LEAVE_VEHICLE = B[K.LEAVE_VEHICLE]
STAND = O.encode(K.STANCE, int(Stance.STANDING))
_MOVE = B[K.MOVE]
_DRIVE = B[K.DRIVE]
_BOARD = B[K.BOARD_VEHICLE]
#: the orders that end the acting unit's turn, or the part of it under way, at once
ENDERS = (END_TURN, END_MOVE, END_DRIVE)


def safe_order(legal: list[int]) -> int:
    """What a probe gives when its policy has nothing to say: the first of ``ENDERS`` that is
    legal, else the lowest legal order outside :data:`NEVER`, else (no choice left) the lowest
    legal order.

    Args:
        legal: the legal order integers, ascending (non-empty).
    """
    for a in ENDERS:
        if a in legal:
            return a
    for a in legal:
        if O.ORDER_KIND[a] not in NEVER:
            return a
    return legal[0]


class _Probe:
    """The protocol shared by the probes: ``reset`` forgets the episode, ``act`` asks
    :meth:`_order` for the acting unit (or :meth:`_select` at a unit selection)."""

    name = "probe"
    deterministic = True

    def __init__(self, seed: int | None = None) -> None:
        del seed  # no randomness: the common agent signature only
        self._game: Any = None
        self._dist: dict[tuple, list[int]] = {}

    def reset(self, env, seed: int | None = None) -> None:
        """Forget the last episode and compute the distances to the exits once."""
        self._game = env.unwrapped.game
        self._dist = {}
        self._prepare(self._game)

    def _prepare(self, game) -> None:
        if game.exit_hexes:
            self._walk(game, tuple(sorted(game.exit_hexes)))

    def act(self, obs: dict, info: dict, env) -> int:
        """One legal order (the probe's policy). Raises RuntimeError when none is legal."""
        game = env.unwrapped.game
        if game is not self._game:  # not reset through this agent (e.g. a direct env.reset)
            self._game, self._dist = game, {}
            self._prepare(game)
        legal = np.flatnonzero(info["action_mask"]).tolist()
        if not legal:
            raise RuntimeError("no legal order: the episode is over")
        if len(legal) == 1:
            return int(legal[0])
        if game.state.turn.mode in DECISION_MODES:
            return END_TURN  # a probe declines a free snap fire, leaves a live grenade (§7, §9)
        u = game.acting_unit()
        a = self._select(game, legal) if u is None else self._order(game, u, legal)
        return int(a)

    def _select(self, game, legal: list[int]) -> int:
        """A unit selection: the lowest slot (every eligible unit acts in the pulse or Round
        anyway)."""
        return legal[0]

    def _order(self, game, u: Unit, legal: list[int]) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    # ------------------------------------------------------------------ distances
    def _walk(self, game, goal: tuple[int, ...]) -> list[int]:
        """Least MPs of a standing soldier from every hex to the nearest hex of ``goal``
        (INF where none is reachable), once per goal and map version."""
        key = ("foot", goal, game.board.version)
        d = self._dist.get(key)
        if d is None:
            from ambush_env.core.rules.movement import costs_for

            row = costs_for(game, int(Stance.STANDING))
            nbrs = game.board.neighbors
            d = _least_cost_to(nbrs, goal, lambda j, i: row[j * 6 + nbrs[j].index(i)])
            self._dist[key] = d
        return d

    def _drive_dist(self, game, goal: tuple[int, ...], large: bool) -> list[int]:
        """Least vehicle MPs from every hex to ``goal`` (the vehicle cost chart, RULES.md §12)."""
        key = ("car", goal, large, game.board.version)
        d = self._dist.get(key)
        if d is None:
            from ambush_env.core.vehicles.vehicles import cost_row

            row = cost_row(game, large)
            nbrs = game.board.neighbors
            d = _least_cost_to(nbrs, goal, lambda j, i: row[j * 6 + nbrs[j].index(i)])
            self._dist[key] = d
        return d

    def _exits(self, game) -> tuple[int, ...]:
        return tuple(sorted(game.exit_hexes))

    # ------------------------------------------------------------------ walking
    def _walk_to(self, game, u: Unit, legal: list[int], goal: tuple[int, ...], leave: bool) -> int:
        """The walking order of ``u`` toward ``goal`` (module docstring); ``leave``: the goal
        is the exits, so on one he leaves the map."""
        if u.vehicle >= 0:
            return LEAVE_VEHICLE if LEAVE_VEHICLE in legal else safe_order(legal)
        if leave and EXIT_MAP in legal:
            return EXIT_MAP
        mode = game.state.turn.mode
        if mode in ("", "move") and u.stance != Stance.STANDING and STAND in legal:
            return STAND
        step = self._best_step(game, u, legal, goal)
        if step is not None:
            return step
        return safe_order(legal)

    def _best_step(self, game, u: Unit, legal: list[int], goal: tuple[int, ...]) -> int | None:
        """The legal ``MOVE`` that gains most toward ``goal`` (never into a known German's
        hex); None when no step gains."""
        if not goal:
            return None
        dist = self._walk(game, goal)
        here = dist[u.hex]
        nbrs = game.board.neighbors[u.hex]
        enemies = {game.state.units[i].hex for i in game.known_enemies(US)}
        best, best_d = None, here
        for d in range(6):
            a = _MOVE + d
            if a not in legal:
                continue
            dest = nbrs[d]
            if dest in enemies:
                continue  # a charge: it ends in an assault
            if dist[dest] < best_d:
                best, best_d = a, dist[dest]
        return best


class WithdrawProbe(_Probe):
    """``withdraw``: every soldier walks to the nearest exit hex by movement cost and leaves the
    map; never fires, throws or assaults.

    Why it must lose: it never takes the objective, so leaving may pay only where leaving *is*
    the objective (issue 25: exits pay only once the objective is taken), and then it must stay
    below the win threshold; it kills nobody.

    Args:
        seed: ignored (the common agent signature; the probe uses no randomness).
    """

    name = "withdraw"

    def _order(self, game, u: Unit, legal: list[int]) -> int:
        return self._walk_to(game, u, legal, self._exits(game), leave=True)


class RushProbe(_Probe):
    """``rush``: every soldier walks straight to the nearest objective hex, and once he has
    stood in one (or the objective is taken) to the nearest exit and off the map; never fires,
    throws or assaults.

    Why it must lose: a mission whose garrison lets a squad walk in and out unopposed pays for
    the walk, not for the fight; the Germans must react to a squad that heads for or enters the
    objective (issue 25), and a squad that never fires cannot win that fight.

    Attributes:
        reached: uids of the soldiers who have stood in an objective hex this episode.

    Args:
        seed: ignored (the common agent signature; the probe uses no randomness).
    """

    name = "rush"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.reached: set[int] = set()

    def _prepare(self, game) -> None:
        self.reached = set()
        super()._prepare(game)
        if game.objective_hexes:
            self._walk(game, tuple(sorted(game.objective_hexes)))

    def _order(self, game, u: Unit, legal: list[int]) -> int:
        obj = game.objective_hexes
        if u.hex in obj:
            self.reached.add(u.uid)
        out = u.uid in self.reached or not obj or TAKEN in game.state.flags
        goal = self._exits(game) if out else tuple(sorted(obj))
        return self._walk_to(game, u, legal, goal, leave=out)


class StallProbe(_Probe):
    """``stall``: ends every turn as fast as the rules allow, so that the mission ends (by its
    time limit) in the fewest decisions; never moves, fires, throws or assaults.

    At each decision it gives, among the legal orders, the one that brings the end of the
    mission nearest: ``EXIT_MAP`` (a soldier who leaves gives no more decisions; the last one
    to leave ends the mission, RULES.md §15), else ``END_TURN``, ``END_MOVE`` or ``END_DRIVE``
    (the acting unit's turn, or the part of it under way, is over at once); at a unit
    selection, a soldier who can leave from where he stands. ⚙ It takes no step toward an
    exit: that is ``withdraw``. So it differs from ``do_nothing``, which gives ``END_TURN``
    when legal and otherwise the lowest legal order (in a move under way: a stance change,
    then more steps), and which never leaves.

    Why it must lose: it scores nothing, and the floor of the normalised score is the higher of
    random's and doing nothing's mean VP (issue 25), so running the clock out is worth 0 at
    best; where Germans attack a waiting squad it loses men too.

    Args:
        seed: ignored (the common agent signature; the probe uses no randomness).
    """

    name = "stall"

    def _prepare(self, game) -> None:
        """Nothing to compute: the stall reads only the legal orders."""

    def _select(self, game, legal: list[int]) -> int:
        exits = game.exit_hexes
        base = B[K.SELECT_UNIT]
        by_slot = {u.slot: u for u in game.us_units()}
        for a in legal:
            u = by_slot.get(a - base)
            if u is not None and u.hex in exits and (u.vehicle < 0 or _drives(game, u)):
                return a
        return legal[0]

    def _order(self, game, u: Unit, legal: list[int]) -> int:
        if EXIT_MAP in legal:
            return EXIT_MAP
        return safe_order(legal)


def _drives(game, u: Unit) -> bool:
    """``u`` drives the car he sits in (only a driver takes a car off the map)."""
    return u.vehicle >= 0 and game.state.vehicles[u.vehicle].driver == u.uid


class DriveOffProbe(_Probe):
    """``drive_off``: soldiers get into every reachable car — a US car, or a German car with no
    active German aboard (it is captured, seed 002 p. 27) — and drive it off the map by the
    nearest exit (vehicle MPs); the soldiers no car has room for withdraw on foot; never fires,
    throws or assaults.

    ⚙ Seats: the soldiers on foot nearest a car (foot MPs; ties by slot) are given its free
    seats, car by car, until every seat or soldier is taken; a car that has moved takes nobody
    more. The driver waits (Operations only) until the soldiers given his car are aboard, at
    most :attr:`patience` pulses; in Rounds he drives at once. He drives at the slow MPA
    (faster risks an Accident Check, seed 000 p. 30), never into a known German's hex (that
    would be a run-over attack, seed 000 p. 32). A passenger takes the wheel when the
    driver's seat is empty; everyone gets out of a car that cannot move (or that nobody aboard
    may drive) and walks.

    Why it must lose: a car off the map is worth what the mission says leaving is worth, which
    pays only once the objective is taken or where leaving is the objective (issue 25,
    ``vp.exits: always``; no standard mission: jeep_run's crossroads must be cleared first);
    there the dash must stay below the win threshold and below the heuristic.

    Attributes:
        patience: Operations pulses a driver waits for the soldiers given his car.

    Args:
        seed: ignored (the common agent signature; the probe uses no randomness).
    """

    name = "drive_off"
    patience = 6

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._moved: set[int] = set()  # vids that have driven (they take nobody more)
        self._waited: dict[int, int] = {}  # vid -> pulses its driver has waited

    def _prepare(self, game) -> None:
        self._moved, self._waited = set(), {}
        super()._prepare(game)

    # ------------------------------------------------------------------ cars
    def _cars(self, game) -> list[Vehicle]:
        """The cars US soldiers may use now: on the map, known, not a tank, not disabled or
        immobilised, the US side's or with no active German aboard."""
        from ambush_env.core.world.vehicle_data import vtype

        st = game.state
        out = []
        for v in st.vehicles[: O.V_SLOTS]:
            if v.hex < 0 or v.exited or v.disabled or v.immobilised:
                continue
            if vtype(v).kind == "tank" or not known_vehicle(st, v):
                continue
            if v.side != US and any(st.units[o].status == ACTIVE for o in v.occupants):
                continue
            out.append(v)
        return out

    def _seats(self, game) -> dict[int, int]:
        """uid of each soldier on foot given a seat -> the vid of his car."""
        from ambush_env.core.world.vehicle_data import vtype

        walkers = [
            u for u in game.us_units() if u.status == ACTIVE and u.hex >= 0 and u.vehicle < 0
        ]
        pairs: list[tuple[int, int, int, int]] = []  # (foot MPs, slot, vid, uid)
        free: dict[int, int] = {}
        for v in self._cars(game):
            if v.vid in self._moved:
                continue
            free[v.vid] = vtype(v).occupants - len(v.occupants)
            d = self._walk(game, (v.hex,))
            pairs.extend((d[u.hex], u.slot, v.vid, u.uid) for u in walkers if d[u.hex] < INF)
        out: dict[int, int] = {}
        for _, _, vid, uid in sorted(pairs):
            if uid not in out and free[vid] > 0:
                out[uid] = vid
                free[vid] -= 1
        return out

    def _order(self, game, u: Unit, legal: list[int]) -> int:
        if u.vehicle >= 0:
            return self._ride(game, u, legal)
        vid = self._seats(game).get(u.uid)
        if vid is None:
            return self._walk_to(game, u, legal, self._exits(game), leave=True)
        v = game.state.vehicles[vid]
        if _BOARD + vid in legal:
            return _BOARD + vid
        return self._walk_to(game, u, legal, (v.hex,), leave=False)

    def _ride(self, game, u: Unit, legal: list[int]) -> int:
        """The orders of a soldier aboard a car."""
        from ambush_env.core.world.vehicle_data import can_take_wheel

        st = game.state
        v = st.vehicles[u.vehicle]
        driver = st.units[v.driver] if v.driver >= 0 else None
        if v.driver == u.uid:
            return self._drive(game, u, v, legal)
        if driver is not None and driver.status == ACTIVE:
            return safe_order(legal)  # a passenger: he rides
        if _BOARD + v.vid in legal:
            return _BOARD + v.vid  # take the wheel of a car whose driver fell
        if any(
            st.units[o].status == ACTIVE and can_take_wheel(v, st.units[o])
            for o in v.occupants
            if o != u.uid
        ):
            return safe_order(legal)  # another aboard may drive it
        return self._walk_to(game, u, legal, self._exits(game), leave=True)  # gets out

    def _drive(self, game, u: Unit, v: Vehicle, legal: list[int]) -> int:
        """The driver's orders: off the map from an exit hex, else toward the nearest exit."""
        from ambush_env.core.world.vehicle_data import type_mpa, vtype

        st = game.state
        if EXIT_MAP in legal:
            return EXIT_MAP
        exits = self._exits(game)
        large = vtype(v).size == "large"
        cd = self._drive_dist(game, exits, large)
        if v.disabled or v.immobilised or cd[v.hex] >= INF:
            return LEAVE_VEHICLE if LEAVE_VEHICLE in legal else safe_order(legal)
        t = st.turn
        ops = st.phase == Phase.OPERATIONS
        if ops and t.mode != "drive" and self._waiting(game, v):
            w = self._waited.get(v.vid, 0)
            if w < self.patience and END_TURN in legal:
                self._waited[v.vid] = w + 1
                return END_TURN
        from ambush_env.core.vehicles.vehicles import cost_row

        row = cost_row(game, large)
        slow = type_mpa(v)[0]
        spent = t.mp_spent if t.mode == "drive" else 0
        nbrs = game.board.neighbors[v.hex]
        enemies = {st.units[i].hex for i in game.known_enemies(US)}  # never run a German over
        best, best_d = None, cd[v.hex]
        for d in range(6):
            a = _DRIVE + d
            if a not in legal or nbrs[d] in enemies:
                continue
            c = row[v.hex * 6 + d]
            if not ops and spent + c > slow:
                continue  # no faster than the slow MPA: no Accident Check
            if cd[nbrs[d]] < best_d:
                best, best_d = a, cd[nbrs[d]]
        if best is not None:
            self._moved.add(v.vid)
            return best
        return safe_order(legal)

    def _waiting(self, game, v: Vehicle) -> bool:
        """Whether a soldier given a seat in ``v`` is still on foot."""
        return v.vid in self._seats(game).values()


#: the probe classes of this module by name (``do_nothing`` lives in agents/do_nothing.py)
PROBES: dict[str, type[_Probe]] = {
    "withdraw": WithdrawProbe,
    "rush": RushProbe,
    "stall": StallProbe,
    "drive_off": DriveOffProbe,
}
