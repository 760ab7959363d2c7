"""The probe suite (agents/probes.py, issue 25): each probe does what its name says — ``withdraw``
gets the squad off the map, ``rush`` reaches the objective, ``drive_off`` takes a car off the
map, ``stall`` ends the mission in the fewest decisions — and none ever fires, throws or
assaults. Played through the env by probe_play.play_probe (a few seeds: the whole file runs in
well under a minute)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from probe_play import ProbeRun, play_probe

from ambush_env import bench
from ambush_env.agents import AGENT_NAMES, check_agent_spec, make_agent
from ambush_env.agents.heuristic import _least_cost_to
from ambush_env.agents.probes import NEVER, PROBE_NAMES, PROBES, StallProbe
from ambush_env.core import Game
from ambush_env.core.model import events as E
from ambush_env.core.model.orders import N_ORDERS, ORDER_KIND, OrderKind, encode
from ambush_env.core.model.types import ACTIVE, GER, Stance
from ambush_env.core.rules.movement import costs_for
from ambush_env.core.world.missions import list_missions

MISSIONS = list_missions()


def test_the_suite_is_registered_by_name_and_with_the_benchmark():
    assert PROBE_NAMES == ("do_nothing", "withdraw", "rush", "stall", "drive_off")
    for name in PROBE_NAMES:
        assert name in AGENT_NAMES and name in bench.SCRIPTED_SOURCES
        check_agent_spec(name)  # no ConfigError
        agent = make_agent(name, seed=3)
        assert agent.name == name and agent.deterministic
    assert set(PROBES) == set(PROBE_NAMES) - {"do_nothing"}
    assert {bench.SCRIPTED_SOURCES[p] for p in PROBES} == {"probes.py"}
    with pytest.raises(ValueError, match="unknown probe"):
        play_probe("heuristic", "farm_assault")


class _Orders:
    """A watch that counts the kinds of the orders given and notes what the game shows."""

    def __init__(self) -> None:
        self.kinds: Counter = Counter()
        self.on_objective = False
        self.placed = 0

    def __call__(self, game, order: int) -> None:
        self.kinds[ORDER_KIND[order]] += 1
        self.placed += sum(isinstance(e, E.Place) for e in game.last_events)
        self.on_objective = self.on_objective or any(
            u.status == ACTIVE and u.hex in game.objective_hexes for u in game.us_units()
        )


@pytest.mark.parametrize("probe", PROBE_NAMES)
def test_no_probe_ever_fires_throws_or_assaults_and_each_repeats_exactly(probe):
    """Over every shipped mission (one seed each) and two generated missions: no order of
    NEVER's kinds, every episode ended by the mission (not the step cap), and the same seed
    plays the same episode (the probes use no randomness)."""
    watch = _Orders()
    for mission in MISSIONS:
        run = play_probe(probe, mission, seed=10000, watch=watch)
        assert run.result is not None, (probe, mission)
    for mission_seed in (3, 4):
        run = play_probe(probe, None, seed=10000, mission_seed=mission_seed, watch=watch)
        assert run.result is not None, (probe, mission_seed)
    assert not set(watch.kinds) & NEVER, sorted(k.name for k in set(watch.kinds) & NEVER)
    again = play_probe(probe, None, seed=10000, mission_seed=4)
    assert again == run and isinstance(run, ProbeRun)


def _off_map_position(seed: int) -> dict:
    """Farm Assault's squad in the Beech Wood (F1-H2): nine columns from the eastern exits by
    the northern edge, which no trigger hex lies on, and no German on the map."""
    hexes = ["F1", "F2", "F3", "G1", "G2", "G3", "H1", "H2"]
    return {
        "mission": "farm_assault",
        "seed": seed,
        "units": [{"name": f"US{k + 1}", "hex": h} for k, h in enumerate(hexes)],
    }


def test_withdraw_gets_the_squad_off_by_the_nearest_exits_where_unopposed():
    """At least 6 men off on average (issue 25), with no German placed in any episode; each
    soldier leaves by an exit hex at the least-MP distance of the exits from where he started
    (a standing soldier's step costs)."""
    g = Game.from_position(_off_map_position(1))
    row = costs_for(g, int(Stance.STANDING))
    nbrs = g.board.neighbors

    def dist(goal):
        return _least_cost_to(nbrs, goal, lambda j, i: row[j * 6 + nbrs[j].index(i)])

    to_exits = dist(tuple(sorted(g.exit_hexes)))
    start = {u.name: u.hex for u in g.us_units()}
    exited = []
    for seed in (1, 2, 3):
        left_from: dict[str, int] = {}
        watch = _Orders()

        def note(game, order, left_from=left_from, watch=watch):
            watch(game, order)
            for e in game.last_events:
                if isinstance(e, E.Exit):
                    left_from[e.unit] = game.board.index(e.hex)

        play_probe(
            "withdraw", "farm_assault", seed=seed, position=_off_map_position(seed), watch=note
        )
        assert watch.placed == 0  # unopposed
        exited.append(len(left_from))
        for name, out in left_from.items():
            assert out in g.exit_hexes
            assert dist((out,))[start[name]] == to_exits[start[name]], (seed, name)
    assert np.mean(exited) >= 6, exited


def test_rush_reaches_the_objective_in_most_episodes():
    """A US soldier stands in an objective hex at some point in >= 80 % of the episodes over
    every shipped mission (two seeds each; issue 25), and the probe heads for the objective,
    not the exits, first: no soldier leaves before one has stood in it."""
    reached = []
    for mission in MISSIONS:
        for seed in (10000, 10001):
            watch = _Orders()
            early = []

            def note(game, order, watch=watch, early=early):
                if ORDER_KIND[order] == OrderKind.EXIT_MAP and not watch.on_objective:
                    early.append(order)
                watch(game, order)

            play_probe("rush", mission, seed=seed, watch=note)
            reached.append(watch.on_objective)
            assert not early, (mission, seed)
    assert np.mean(reached) >= 0.8, reached


def _open_road() -> dict:
    """jeep_run's start with every placement chain already spent (its ``if_flag`` guards
    set): the road is open, so each of the jeeps at B6 and A6 can reach the east edge."""
    p = Game("jeep_run").position()
    p["flags"] = [
        "hamlet_checked",
        "rise_checked",
        "crossroads_checked",
        "foxhole_placed",
        "sniper_placed",
        "objective alarm",
    ]
    return p


@pytest.mark.parametrize("mission", ["farm_assault", "jeep_run"])
def test_drive_off_takes_a_car_off_the_map_where_one_is_reachable(mission):
    """farm_assault's jeep stands with the squad at A8 (the mission's own start); jeep_run's
    two jeeps at B6 and A6 on an open road (:func:`_open_road`: on the mission's own start the
    crossroads' garrison, issue 25, knocks the jeeps out on some seeds, and a car knocked out
    on the way is not reachable): in every episode a car leaves the map
    (``Vehicle.exited``) with soldiers aboard."""
    for seed in (10000, 10001, 10002):
        gone = []

        def note(game, order, gone=gone):
            gone.extend(e for e in game.last_events if isinstance(e, E.VehicleExit))

        if mission == "jeep_run":
            play_probe("drive_off", mission, seed=seed, watch=note, position=_open_road())
        else:
            play_probe("drive_off", mission, seed=seed, watch=note)
        assert gone, (mission, seed)


# ------------------------------------------------------------------------------ stall
def _key(game) -> str:
    p = game.position()
    p.pop("steps", None)
    return json.dumps(p, sort_keys=True, default=str)


def _fewest_decisions(game, bound: int) -> int | None:
    """Brute force: the fewest decisions (any legal orders) that end the mission from
    ``game``, searched breadth first up to ``bound`` decisions (states met before are not
    searched again); None when none within the bound does."""
    layer = {_key(game): game}
    for depth in range(1, bound + 1):
        nxt = {}
        for g in layer.values():
            for a in g.legal_actions():
                c = g.clone()
                c.step(a)
                if c.state.over:
                    return depth
                nxt.setdefault(_key(c), c)
        layer = nxt
    return None


#: Farm Assault, three Operations pulses left (57-59 of 60): US1 on the exit hex R7, US2 at H3,
#: ten hexes from any exit (he cannot reach one in time); and the same pulse with US1 in the
#: middle of a Rounds move (nobody else on the AR track, no German on the map).
STALL_CASES = {
    "ops, one on an exit": {
        "mission": "farm_assault",
        "pulse": 57,
        "units": [{"name": "US1", "hex": "R7"}, {"name": "US2", "hex": "H3"}],
    },
    "rounds, a move under way": {
        "mission": "farm_assault",
        "pulse": 58,
        "phase": "rounds",
        "round": 1,
        "rounds_total": 1,
        "initiative": "us",
        "turn": {"unit": "US1", "mode": "move", "mp_left": 3, "mp_spent": 2, "hexes_moved": 1},
        "units": [
            {"name": "US1", "hex": "E5", "ar": "1-turn"},
            {"name": "US2", "hex": "H3", "ar": "none"},
        ],
    },
}


@pytest.mark.parametrize("case", sorted(STALL_CASES))
def test_stall_ends_the_mission_in_the_fewest_decisions_the_rules_allow(case):
    """From each case, stall's decisions are the brute-force minimum over every legal order
    sequence, and fewer than do_nothing's (which waits where stall leaves, and takes the lowest
    order — a stance change, then steps — where no end turn is legal)."""
    position = STALL_CASES[case]
    stall = play_probe("stall", "farm_assault", seed=1, position=position)
    idle = play_probe("do_nothing", "farm_assault", seed=1, position=position)
    best = _fewest_decisions(Game.from_position(position), stall.decisions)
    assert best == stall.decisions < idle.decisions, (best, stall, idle)


def test_stall_on_a_mission_never_takes_more_decisions_than_do_nothing():
    """Without an exit under its feet stall only ends turns: the mission's own clock ends it
    (Operations pulses or Rounds), in no more decisions than do_nothing's."""
    for mission in ("farm_assault", "village_fight"):
        stall = play_probe("stall", mission, seed=10001)
        idle = play_probe("do_nothing", mission, seed=10001)
        assert stall.decisions <= idle.decisions and stall.result == "loss"


def test_stall_picks_the_order_that_ends_the_part_under_way():
    """In a move under way (no end turn legal): END_MOVE, where do_nothing takes the lowest
    order (a stance change); on an exit hex: EXIT_MAP."""
    g = Game.from_position(STALL_CASES["rounds, a move under way"])

    class Env:
        unwrapped = type("U", (), {"game": g})()

    mask = np.zeros(N_ORDERS, dtype=bool)
    mask[g.legal_actions()] = True
    assert not mask[encode(OrderKind.END_TURN)] and mask[encode(OrderKind.STANCE, 1)]
    agent = StallProbe()
    agent.reset(Env(), 1)
    assert agent.act({}, {"action_mask": mask}, Env()) == encode(OrderKind.END_MOVE)
    assert make_agent("do_nothing").act({}, {"action_mask": mask}, Env()) == encode(
        OrderKind.STANCE, 1
    )
    assert all(u.side != GER for u in g.state.units)
