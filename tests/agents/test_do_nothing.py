"""The do-nothing agent (issue 14): end the turn whenever that is legal, otherwise the first
legal order; registered with make_agent and the benchmark."""

from __future__ import annotations

import numpy as np
import pytest

from ambush_env.agents import AGENT_NAMES, make_agent
from ambush_env.agents.do_nothing import END_TURN, DoNothingAgent
from ambush_env.agents.evaluate import make_env, run_episode
from ambush_env.core.model.orders import N_ORDERS, OrderKind, decode, encode


def _mask(*legal: int) -> dict:
    m = np.zeros(N_ORDERS, dtype=bool)
    m[list(legal)] = True
    return {"action_mask": m}


@pytest.mark.parametrize(
    "legal, expected",
    [
        ((END_TURN,), END_TURN),  # only end turn
        (
            (encode(OrderKind.SELECT_UNIT, 3), END_TURN, encode(OrderKind.MOVE, 2)),
            END_TURN,
        ),  # end turn first
        (
            (
                encode(OrderKind.MOVE, 4),
                encode(OrderKind.SELECT_UNIT, 5),
            ),  # no end turn: the lowest index
            encode(OrderKind.SELECT_UNIT, 5),
        ),
        (
            (encode(OrderKind.FIRE_AIMED, 7), encode(OrderKind.STANCE, 1)),
            encode(OrderKind.STANCE, 1),
        ),
    ],
)
def test_end_turn_when_legal_else_the_first_legal_order(legal, expected):
    assert decode(END_TURN) == (OrderKind.END_TURN, 0)
    assert DoNothingAgent().act({}, _mask(*legal), None) == expected


def test_no_legal_order_raises():
    with pytest.raises(RuntimeError, match="no legal order"):
        DoNothingAgent().act({}, _mask(), None)


def test_registered_by_name_and_with_the_benchmark():
    from ambush_env import bench

    assert "do_nothing" in AGENT_NAMES
    agent = make_agent("do_nothing")
    assert isinstance(agent, DoNothingAgent) and agent.deterministic
    assert bench.agent_sha256("do_nothing") not in (
        bench.agent_sha256("random"),
        bench.agent_sha256("heuristic"),
    )


def test_a_whole_episode_follows_the_rule_and_repeats_exactly():
    """Every order of a farm_assault episode is end turn when the mask allows it and the lowest
    legal index otherwise; the episode ends by the mission (not truncated), without a win, and
    the same seed gives the same episode."""
    env = make_env("farm_assault")
    agent = DoNothingAgent()
    obs, info = env.reset(seed=10000)
    done, steps, ended = False, 0, 0
    while not done:
        a = agent.act(obs, info, env)
        legal = np.flatnonzero(info["action_mask"])
        assert a == (END_TURN if info["action_mask"][END_TURN] else legal[0])
        ended += a == END_TURN
        obs, _, term, trunc, info = env.step(a)
        done = term or trunc
        steps += 1
    assert term and not trunc and ended > steps / 2
    first = run_episode(make_env("farm_assault"), make_agent("do_nothing"), 10000)
    again = run_episode(make_env("farm_assault"), make_agent("do_nothing"), 10000)
    assert first.steps == again.steps == steps and first.vp == again.vp == int(
        env.unwrapped.game.vp
    )
    assert not first.won
