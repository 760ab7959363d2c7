"""ambush/Procedural-v4: a mission generated from the reset seed (docs/API.md)."""

from __future__ import annotations

import json
import pickle
import random

import gymnasium as gym
import numpy as np
import pytest

import ambush_env  # noqa: F401
from ambush_env.core import Game
from ambush_env.core.play.procedural import generate
from ambush_env.env.registration import procedural_id

PROC = procedural_id()  # ambush/Procedural-v<current version>


def test_same_seed_same_mission_and_map():
    """generate() is pure: the same seed gives the same mission and map."""
    m1, b1 = generate(5)
    m2, b2 = generate(5)
    assert m1 == m2
    assert b1.terrain == b2.terrain and b1.level == b2.level
    m3, b3 = generate(6)
    assert m3 != m1 or b3.terrain != b1.terrain


@pytest.mark.parametrize("seed", range(12))
def test_generated_missions_meet_the_rules_minimums(seed):
    """RULES.md §15: at least three German placements from different paragraphs, ten trigger
    hexes, an event table covering 0-9; a building objective (take, intel, demolish) can be
    entered or reached through a door or a window."""
    m, b = generate(seed)
    placing = {
        pid
        for pid, effects in m.paragraphs.items()
        if any(getattr(e, "effect", "") == "place" for e in effects)
    }
    assert len(placing) >= 3
    assert len(m.triggers) >= 10
    covered = sorted(r for e in m.events for r in range(e.rolls[0], e.rolls[1] + 1))
    assert covered == list(range(10))
    obj = [b.index(h) for h in m.objective.hexes]
    if all(b.building[h] is not None for h in obj):
        openings = [
            n
            for h in obj
            for n in b.neighbors[h]
            if n >= 0
            and n not in obj
            and (hs := b.hexside(h, n)) is not None
            and hs.aperture in ("door", "window")
        ]
        assert openings, "the building has a door or a window"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_play_on_generated_missions_ends(seed):
    """Random legal play on a generated mission reaches its end; the mask matches step."""
    m, b = generate(seed)
    g = Game(m, board=b)
    g.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.over and steps < 5000:
        legal = g.legal_actions()
        assert legal
        g.step(rng.choice(legal))
        steps += 1
    assert g.over and g.result >= 0


def test_env_reset_seed_determines_the_mission_and_state_round_trips():
    """docs/API.md: the reset seed fixes the mission; get_state/set_state and pickling carry
    the generated mission along."""
    e1 = gym.make(PROC).unwrapped
    e2 = gym.make(PROC).unwrapped
    e1.reset(seed=3)
    e2.reset(seed=3)
    assert e1.mission_id == e2.mission_id
    e2.reset(seed=4)
    assert e2.mission_id != e1.mission_id
    rng = np.random.default_rng(0)
    for _ in range(50):
        e1.step(int(rng.choice(np.flatnonzero(e1.action_masks()))))
    state = json.loads(json.dumps(e1.get_state()))
    e2.set_state(state)
    assert e2.mission_id == e1.mission_id
    e3 = pickle.loads(pickle.dumps(e1))
    for _ in range(50):
        a = int(rng.choice(np.flatnonzero(e1.action_masks())))
        o1, r1, *_ = e1.step(a)
        o2, r2, *_ = e2.step(a)
        o3, r3, *_ = e3.step(a)
        assert r1 == r2 == r3
        for k in o1:
            assert np.array_equal(o1[k], o2[k]) and np.array_equal(o1[k], o3[k])


# ---------------------------------------------------------------- mission seeds (issue 13)
def test_mission_seeds_train_and_held_out():
    """The reset seed fixes the mission seed, drawn from ``procedural.TRAIN_SEEDS`` by
    default and from ``HELD_OUT_SEEDS`` with ``mission_seeds="held_out"``; info names it."""
    from ambush_env.core.play.procedural import HELD_OUT_SEEDS, TRAIN_SEEDS

    train = gym.make(PROC).unwrapped
    held = gym.make(PROC, mission_seeds="held_out").unwrapped
    seen_train, seen_held = set(), set()
    for s in range(5):
        _, info = train.reset(seed=s)
        assert (
            info["mission_seed"] in TRAIN_SEEDS
            and train.mission_id == f"procedural_{info['mission_seed']}"
        )
        seen_train.add(info["mission_seed"])
        _, info = held.reset(seed=s)
        assert info["mission_seed"] in HELD_OUT_SEEDS
        seen_held.add(info["mission_seed"])
    assert len(seen_train) == 5 and len(seen_held) == 5
    _, again = held.reset(seed=0)
    _, first = gym.make(PROC, mission_seeds="held_out").unwrapped.reset(seed=0)
    assert again["mission_seed"] == first["mission_seed"]


def test_reset_option_mission_seed_plays_that_mission():
    e = gym.make(PROC).unwrapped
    _, info = e.reset(seed=7, options={"mission_seed": 1_000_123})
    assert info["mission_seed"] == 1_000_123 and e.mission_id == "procedural_1000123"
    m, _ = generate(1_000_123)
    assert e.game.mission == m
    for bad in (-1, 2.5, "4", True):
        with pytest.raises(ValueError, match="mission_seed"):
            e.reset(seed=0, options={"mission_seed": bad})
    with pytest.raises(ValueError, match="mission_seeds"):
        gym.make(PROC, mission_seeds="test")


def test_heuristic_agent_scores_on_generated_missions():
    """The scripted heuristic plays any mission: on the first generated missions of four
    objective types it gains VP and wins at least once."""
    from ambush_env.agents.heuristic import HeuristicAgent
    from ambush_env.core.play.procedural import sketch

    env = gym.make(PROC, max_steps=4000)
    agent = HeuristicAgent()
    kinds, results = set(), []
    for mission_seed in range(50):
        k = sketch(mission_seed).objective
        if k in kinds or len(kinds) >= 4:
            continue
        kinds.add(k)
        obs, info = env.reset(seed=mission_seed, options={"mission_seed": mission_seed})
        agent.reset(env, mission_seed)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(agent.act(obs, info, env))
            done = term or trunc
        results.append((k, info.get("result"), info["vp"]))
    assert len(results) == 4
    assert any(vp > 0 for _, _, vp in results), results
    assert any(r in ("win", "decisive_win") for _, r, _ in results), results
