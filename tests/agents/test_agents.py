"""Agents: always legal; the heuristic doctrine clearly beats random play (docs/API.md)."""

from __future__ import annotations

import numpy as np
import pytest

from ambush_env.agents import Agent, make_agent
from ambush_env.agents.evaluate import make_env, result_value, run_episode
from ambush_env.agents.heuristic import HeuristicAgent
from ambush_env.agents.random_agent import RandomAgent


class _Checked:
    """Wraps an agent and asserts every order it gives is in the mask."""

    def __init__(self, agent):
        self.agent = agent
        self.name = agent.name
        self.orders = 0

    def reset(self, env, seed=None):
        self.agent.reset(env, seed)

    def act(self, obs, info, env):
        a = self.agent.act(obs, info, env)
        assert info["action_mask"][a], f"{self.name} gave illegal order {a}"
        assert env.unwrapped.action_masks()[a]
        self.orders += 1
        return a


def test_make_agent_builds_the_named_agents_and_rejects_others():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    assert isinstance(make_agent("random"), Agent)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("genius")
    with pytest.raises(ValueError, match="not found"):
        make_agent("no/such/model.zip")


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_agents_only_give_legal_orders_for_whole_episodes(name):
    env = make_env("farm_assault")
    agent = _Checked(make_agent(name))
    for seed in (10000, 10001):
        res = run_episode(env, agent, seed)
        assert res.result in ("loss", "draw", "win", "decisive_win")
        assert not res.truncated
    assert agent.orders > 0


def test_run_episode_is_deterministic_for_a_seed():
    env = make_env("farm_assault")
    a = run_episode(env, make_agent("heuristic"), 10003)
    b = run_episode(env, make_agent("heuristic"), 10003)
    assert (a.vp, a.result, a.steps, a.stats) == (b.vp, b.result, b.steps, b.stats)


def test_result_values_follow_the_reward_table():
    assert result_value("decisive_win") == 1.0
    assert result_value("loss") == -1.0
    assert result_value(None) == 0.0


def test_heuristic_clearly_beats_random_and_wins_a_fifth_of_farm_assault():
    """The scripted doctrine wins >= 20% on the reference mission and out-scores random play."""
    env = make_env("farm_assault")
    seeds = range(10000, 10016)
    heur = [run_episode(env, make_agent("heuristic"), s) for s in seeds]
    rand = [run_episode(env, make_agent("random"), s) for s in seeds]
    h_win = np.mean([r.won for r in heur])
    r_win = np.mean([r.won for r in rand])
    assert h_win >= 0.2
    assert h_win > r_win
    assert np.mean([r.vp for r in heur]) > np.mean([r.vp for r in rand]) + 5


def test_the_heuristic_hunts_the_tank_and_drives_the_jeeps():
    """Issue 11 done-when 4: in the tank hunt the heuristic attacks the tank with a bazooka, a
    satchel charge or a grenade in at least 5 of 20 episodes (the smoke seeds, regular deck),
    and in the jeep run it drives; both missions it sometimes wins and sometimes loses."""
    from ambush_env.env.ambush_env import AmbushEnv

    def play(mission: str) -> tuple[int, int, int]:
        attacks = drives = wins = 0
        for seed in range(10000, 10020):
            env = AmbushEnv(mission=mission)
            obs, info = env.reset(seed=seed)
            agent = HeuristicAgent(seed=seed)
            agent.reset(env, seed)
            hit_tank = drove = False
            done = False
            while not done:
                obs, _, te, tr, info = env.step(agent.act(obs, info, env))
                done = te or tr
                for e in info["events"]:
                    if e["type"] == "drive" and e["unit"].startswith("US"):
                        drove = True
                    if (
                        (e["type"] == "fire_vehicle" and e["weapon"] == "bazooka")
                        or e["type"] == "throw_into"
                        or (e["type"] == "blast_vehicle" and e.get("item") == "satchel")
                    ):
                        hit_tank = True
            attacks += hit_tank
            drives += drove
            wins += info.get("result") in ("win", "decisive_win")
        return attacks, drives, wins

    attacks, _, wins = play("tank_hunt")
    assert attacks >= 5, attacks
    assert 2 <= wins <= 18, wins
    _, drives, wins = play("jeep_run")
    assert drives >= 15, drives
    assert 2 <= wins <= 18, wins
