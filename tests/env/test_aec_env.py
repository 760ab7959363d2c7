"""Two-sided play (docs/API.md "Two-sided play", issue 10): the PettingZoo AEC env."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test

import ambush_env
from ambush_env.core import Game
from ambush_env.core.model.types import Side
from ambush_env.core.play.legal import legal_orders
from ambush_env.env.aec_env import GermanView
from ambush_env.env.observation import ObservationBuilder


@pytest.mark.parametrize("german", ["agent", "cards"])
def test_pettingzoo_api_test(german: str) -> None:
    env = ambush_env.aec_env(german=german, max_steps=300)
    api_test(env, num_cycles=200, verbose_progress=False)


def _play(env, rng: np.random.Generator, limit: int = 20000) -> dict:
    env.reset(seed=int(rng.integers(1 << 30)))
    seen = {"us": 0, "german": 0}
    for agent in env.agent_iter(max_iter=limit):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any(), f"{agent} has no legal order"
        assert np.array_equal(mask, info["action_mask"])
        if agent == "german":
            d = env.game.decision
            u = env.game.state.units[d.uid]
            assert u.side == Side.GERMAN
            assert set(np.flatnonzero(mask)) == set(legal_orders(env.game, u)), (
                "every German order comes from legal() for that unit"
            )
        seen[agent] += 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return seen


@pytest.mark.parametrize("mission", ambush_env.list_missions())
def test_random_vs_random_and_random_vs_cards_finish(mission: str) -> None:
    rng = np.random.default_rng(0)
    env = ambush_env.aec_env(mission=mission, german="agent")
    seen = _play(env, rng)
    assert env.game.over and not env.agents, "the game ended and every agent was cycled out"
    assert seen["us"] > 0 and seen["german"] > 0
    assert sum(env._cumulative_rewards.values()) == pytest.approx(0.0), "zero-sum"
    env = ambush_env.aec_env(mission=mission, german="cards")
    assert env.possible_agents == ["us"]
    seen = _play(env, rng)
    assert env.game.over and seen["german"] == 0


POSITION = {
    "mission": "farm_assault",
    "german": "agent",
    "phase": "rounds",
    "round": 3,
    "rounds_total": 3,
    "initiative": "german",
    "units": [
        {"name": "US1", "hex": "B2"},
        {"name": "US2", "hex": "A1", "stance": "prone"},
        {"name": "G1", "role": "rifleman", "hex": "Q5", "ar": "1-turn"},
    ],
    "contacts": ["G1"],
}


def _german_sees(p: dict) -> tuple[dict, np.ndarray]:
    g = Game.from_position(p)
    obs = ObservationBuilder(GermanView(g)).build()
    d = g.decision
    assert d.side == Side.GERMAN, "the German acts first in this position"
    mask = np.zeros(1000, dtype=bool)
    mask[g.legal_actions()] = True
    return obs, mask


def test_a_us_soldier_no_german_sees_is_not_revealed_to_the_german_side() -> None:
    """docs/API.md: the German observation shows the US units some German sees or knows of;
    a US soldier out of every German's sight changes neither its observation nor its mask."""
    g = Game.from_position(POSITION)
    us1, us2, ger = g.state.units
    assert not g.can_see(ger, us1) and not g.can_see(ger, us2), "both out of the German's sight"
    with_both, mask_both = _german_sees(POSITION)
    one = dict(POSITION, units=[POSITION["units"][0], POSITION["units"][2]])
    with_one, mask_one = _german_sees(one)
    assert np.array_equal(mask_both, mask_one)
    for k in with_both:
        assert np.array_equal(with_both[k], with_one[k]), f"{k} reveals the hidden US soldier"
    assert not with_both["contacts"].any(), "no US soldier is a German contact"


def test_a_seen_us_soldier_becomes_a_german_contact() -> None:
    p = dict(POSITION, units=[{"name": "US1", "hex": "P5"}, POSITION["units"][2]])
    g = Game.from_position(p)
    assert g.state.german_contacts == [0]
    obs = ObservationBuilder(GermanView(g)).build()
    assert obs["contacts"][0].any()


def test_reset_from_a_position_on_both_envs() -> None:
    import gymnasium as gym

    p = Game.from_position(POSITION).position()
    env = ambush_env.aec_env(german="agent")
    env.reset(options={"position": p})
    assert env.game.position() == p
    assert env.agent_selection == "german"
    ref = ObservationBuilder(GermanView(Game.from_position(p))).build()
    obs = env.observe("german")
    for k in ref:
        assert np.array_equal(obs[k], ref[k])
    genv = gym.make("ambush/FarmAssault-v0").unwrapped
    q = dict(p, german="cards")
    q = Game.from_position(q).position()
    obs, info = genv.reset(options={"position": q})
    ref = ObservationBuilder(Game.from_position(q)).build()
    for k in ref:
        assert np.array_equal(obs[k], ref[k]), k
