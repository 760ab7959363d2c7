"""Agents: always legal; the heuristic doctrine clearly beats random play (INTERFACE.md)."""

from __future__ import annotations

import numpy as np
import pytest

from agents import Agent, make_agent
from agents.evaluate import make_env, result_value, run_episode
from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent


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
