"""Strict actions (docs/API.md, the illegal-action rules; issue 10).

An action that is not an integer in ``0..N-1`` raises ``IllegalActionError`` naming the value
and the valid range, in every ``illegal_action`` mode; an in-range order that is not legal
now is a penalised no-op (``penalize``) or raises (``raise``); ``max_steps`` counts every
``step`` call that is carried out, illegal orders included; ``info["end_reason"]`` is set on
every truncation as on termination.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from env_helpers import random_actions

from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import N_ORDERS
from ambush_env.env.ambush_env import (
    END_ILLEGAL_STREAK,
    END_MAX_STEPS,
    ILLEGAL_ACTION_MODES,
    ILLEGAL_STREAK_LIMIT,
    AmbushEnv,
)

RANGE = f"0..{N_ORDERS - 1}"

#: (id, action, text the message must contain to name it)
BAD_ACTIONS = [
    ("float", 3.7, "3.7"),
    ("whole float", 3.0, "3.0"),
    ("NaN", float("nan"), "nan"),
    ("numpy float", np.float32(2.0), "2.0"),
    ("bool", True, "True"),
    ("numpy bool", np.bool_(True), "True"),
    ("string", "5", "'5'"),
    ("array of two", np.array([5, 6]), "[5 6]"),
    ("array of one", np.array([5]), "[5]"),
    ("0-d float array", np.array(5.0), "float64"),
    ("0-d bool array", np.array(True), "bool"),
    ("None", None, "None"),
    ("minus one", -1, "-1"),
    ("N", N_ORDERS, str(N_ORDERS)),
    ("numpy N", np.int64(N_ORDERS), str(N_ORDERS)),
]


def _snapshot(env) -> str:
    return json.dumps(env.get_state(), sort_keys=True)


@pytest.mark.parametrize("mode", ILLEGAL_ACTION_MODES)
@pytest.mark.parametrize(
    "action,named", [b[1:] for b in BAD_ACTIONS], ids=[b[0] for b in BAD_ACTIONS]
)
def test_an_action_that_is_not_an_integer_in_range_raises_in_every_mode(mode, action, named):
    env = AmbushEnv(illegal_action=mode)
    env.reset(seed=3)
    before = _snapshot(env)
    with pytest.raises(IllegalActionError) as exc:
        env.step(action)
    msg = str(exc.value)
    assert named in msg and RANGE in msg, msg
    assert isinstance(exc.value, ValueError)
    assert _snapshot(env) == before  # nothing happened: no step counted, no streak, same game


def _legal(env) -> int:
    return int(np.flatnonzero(env.action_masks())[0])


@pytest.mark.parametrize(
    "form",
    [
        int,
        np.int64,
        np.int32,
        np.uint16,
        lambda a: np.array(a),
        lambda a: np.array(a, dtype=np.int16),
    ],
    ids=["int", "int64", "int32", "uint16", "0-d array", "0-d int16 array"],
)
def test_numpy_integer_scalars_and_0d_integer_arrays_are_orders(form):
    ref, env = AmbushEnv(illegal_action="raise"), AmbushEnv(illegal_action="raise")
    ref.reset(seed=4)
    env.reset(seed=4)
    for _ in range(3):
        a = _legal(ref)
        o1, r1, te1, tr1, _i1 = ref.step(a)
        o2, r2, te2, tr2, i2 = env.step(form(a))
        for k in o1:
            np.testing.assert_array_equal(o1[k], o2[k])
        assert (r1, te1, tr1, i2["illegal_action"]) == (r2, te2, tr2, False)


def _illegal(env) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_an_in_range_illegal_order_is_a_penalised_no_op_under_penalize():
    env = AmbushEnv(illegal_action="penalize")
    env.reset(seed=5)
    game_before = json.dumps(env.game.position(), sort_keys=True)
    _obs, r, term, trunc, info = env.step(np.int64(_illegal(env)))
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, False, False, True)
    assert "end_reason" not in info
    assert json.dumps(env.game.position(), sort_keys=True) == game_before


def test_an_in_range_illegal_order_raises_under_raise_naming_the_order():
    env = AmbushEnv(illegal_action="raise")
    env.reset(seed=5)
    a = _illegal(env)
    with pytest.raises(IllegalActionError, match=f"order #{a} "):
        env.step(a)


def test_max_steps_counts_illegal_calls():
    """docs/API.md: ``max_steps`` counts every ``step`` call (a penalised one too)."""
    env = AmbushEnv(max_steps=5)
    env.reset(seed=0)
    for k in range(2):
        _, _, term, trunc, info = env.step(_legal(env))
        assert not (term or trunc) and info["steps"] == k + 1
    for k in range(2):
        _, _, term, trunc, info = env.step(_illegal(env))
        assert info["illegal_action"] and not trunc and info["steps"] == 3 + k
    _, r, term, trunc, info = env.step(_illegal(env))  # the 5th call, an illegal one
    assert trunc and not term and r == -1.0
    assert info["steps"] == 5 and info["end_reason"] == END_MAX_STEPS == "max_steps"
    assert env.get_state()["env"]["steps"] == 5


def test_max_steps_truncation_by_legal_orders_gives_its_end_reason():
    env = AmbushEnv(max_steps=3)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        _obs, _r, term, trunc, info = env.step(random_actions(info, rng))
    assert trunc and not term and info["end_reason"] == END_MAX_STEPS
    assert info["action_mask"].any()  # truncated mid-game: the live mask


def test_ten_illegal_orders_in_a_row_truncate_with_their_end_reason():
    env = AmbushEnv()
    env.reset(seed=5)
    for _ in range(ILLEGAL_STREAK_LIMIT - 1):
        _, _, term, trunc, info = env.step(_illegal(env))
        assert not trunc and "end_reason" not in info
    _, _, term, trunc, info = env.step(_illegal(env))
    assert trunc and not term
    assert info["end_reason"] == END_ILLEGAL_STREAK == "10 illegal orders in a row"
    assert info["action_mask"].any()


def test_bad_actions_do_not_count_towards_the_illegal_streak():
    env = AmbushEnv()
    env.reset(seed=5)
    for _ in range(ILLEGAL_STREAK_LIMIT - 1):
        env.step(_illegal(env))
    for bad in (3.7, -1, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    _, _, _, trunc, info = env.step(_legal(env))
    assert not trunc and not info["illegal_action"]


def test_termination_gives_the_missions_end_reason():
    env = AmbushEnv()
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    while True:
        _obs, _r, term, trunc, info = env.step(random_actions(info, rng))
        if term or trunc:
            break
    assert term and not trunc
    assert info["end_reason"] == env.game.state.end_reason and info["end_reason"] not in (
        END_MAX_STEPS,
        END_ILLEGAL_STREAK,
    )
