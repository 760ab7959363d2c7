"""Reward schemes (docs/API.md "Reward"): values from the data files, components reported."""

from __future__ import annotations

import numpy as np
import pytest

from ambush_env.core.model.errors import ConfigError
from ambush_env.core.model.types import RESULT_NAMES
from ambush_env.core.world.rules_data import load_rules_data
from ambush_env.env.rewards import RewardScheme, list_schemes, load_rewards


class _FakeGame:
    """Just what a reward scheme reads: vp, over, result, stats()."""

    def __init__(self):
        self.vp = 0
        self.over = False
        self.result = -1
        self._stats = {"germans_killed": 0, "us_killed": 0}

    def stats(self):
        return dict(self._stats)


def test_schemes_are_listed_and_unknown_ones_rejected():
    assert {"default", "sparse", "shaped"} <= set(list_schemes())
    with pytest.raises(ConfigError, match="^reward: .*known"):
        RewardScheme("bogus")


def test_default_scheme_vp_step_and_terminal_result():
    """Default: result at the end (+1/+0.5/0/-1, rules.yaml) + vp_scale x VP gained."""
    base = load_rules_data().reward
    r = RewardScheme("default")
    g = _FakeGame()
    r.reset(g)
    g.vp = 4
    total, comps = r(g)
    assert comps == {"vp": pytest.approx(4 * base.vp_scale), "result": 0.0}
    for res, name in enumerate(RESULT_NAMES):
        g2 = _FakeGame()
        r.reset(g2)
        g2.over, g2.result = True, res
        total, comps = r(g2)
        assert total == pytest.approx(getattr(base, name))


def test_shaped_scheme_counts_casualty_changes():
    r = RewardScheme("shaped")
    g = _FakeGame()
    r.reset(g)
    g._stats["germans_killed"] = 1
    total, comps = r(g)
    assert comps["germans_killed"] > 0
    total, comps = r(g)  # no change since the last step
    assert comps["germans_killed"] == 0


def test_illegal_penalty_comes_from_the_file():
    assert RewardScheme().illegal() == (
        load_rewards().illegal_action,
        {"illegal": load_rewards().illegal_action},
    )


# -- progress shaping (potential-based; env/rewards.py, Ng, Harada & Russell 1999) ----------
def _farm_game():
    """A farm_assault game at its start: squad on A6-A10, objective L6-N7, exits R1-R14."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="farm_assault", opponent="regular", reward="progress")
    env.reset(seed=0)
    return env, env.unwrapped.game


def test_progress_potential_of_the_start_and_of_a_step_toward_the_farm():
    """Start: every soldier on column A, 11 hexes from column L (the farm), the farm 4 hexes
    from column R (the exits): mean remaining route 15 hexes, Φ = −0.03 × 15. US1 stepping
    A8 → B8 (one hex nearer the farm) shortens the mean route by 1/8: with γ = 1 the shaping
    term is exactly +0.03 / 8; with γ = 0.995 it is γΦ(s') − Φ(s)."""
    from ambush_env.env.rewards import remaining_hexes

    env, g = _farm_game()
    assert remaining_hexes(g) == 15.0
    for gamma in (1.0, 0.995):
        r = RewardScheme("progress")
        assert r.progress_weight == 0.03 and r.gamma == 0.995
        r.gamma = gamma
        g.state.units[0].hex = g.board.index("A8")
        r.reset(g)
        assert r._phi == pytest.approx(-0.03 * 15)
        g.state.units[0].hex = g.board.index("B8")
        total, comps = r(g)
        expected = gamma * (-0.03 * (15 - 1 / 8)) - (-0.03 * 15)
        assert comps["progress"] == pytest.approx(expected)
        assert comps["progress"] > 0
        if gamma == 1.0:
            assert comps["progress"] == pytest.approx(0.03 / 8)
        g.state.units[0].hex = g.board.index("A8")  # and back: the same term, negative
        total, comps = r(g)
        assert comps["progress"] == pytest.approx(gamma * (-0.03 * 15) - (-0.03 * (15 - 1 / 8)))
        assert comps["progress"] < 0


def test_progress_route_counts_exits_casualties_and_the_taken_objective():
    """A soldier gone by an exit before the farm is taken counts the map's longest route (16:
    the hex farthest from the farm, 12, plus the 4 out), 0 once it is; a killed one keeps his
    hex's value (dying never shortens the route); once the objective is taken a soldier's route
    is his distance to an exit."""
    from ambush_env.core.model.types import Status
    from ambush_env.env.rewards import remaining_hexes

    env, g = _farm_game()
    us = g.state.units[:8]
    us[0].status, us[0].hex, us[0].exited = Status.REMOVED, -1, True
    assert remaining_hexes(g) == pytest.approx((15 * 7 + 16) / 8)
    us[1].hex = g.board.index("L6")  # in the farm: 4 hexes to go (to column R)
    us[1].status = Status.KILLED
    assert remaining_hexes(g) == pytest.approx((15 * 6 + 4 + 16) / 8)
    g.state.flags.append("objective_taken")  # column A: 17 hexes to column R; L6: 6; exited: 0
    assert remaining_hexes(g) == pytest.approx((17 * 6 + 6 + 0) / 8)


def test_progress_shaping_telescopes_over_an_episode():
    """With γ = 1 the terms of any stretch of steps sum to Φ(last) − Φ(first), and over a
    whole episode to 0 − Φ(start) (Φ = 0 once the game is over), whatever was played: here a
    seeded random player to the mission's end (legal orders only)."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="farm_assault", opponent="regular", reward="progress")
    scheme = env.unwrapped.reward_scheme
    scheme.gamma = 1.0
    obs, info = env.reset(seed=3)
    phi0 = scheme._phi
    assert phi0 == pytest.approx(-0.03 * 15)
    rng = np.random.default_rng(3)
    total, steps, done = 0.0, 0, False
    while not done:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
        total += info["reward_components"]["progress"]
        steps += 1
        done = term or trunc
        if steps == 200:
            assert total == pytest.approx(scheme._phi - phi0)
    assert term and env.unwrapped.game.over
    assert total == pytest.approx(0.0 - phi0)


def test_progress_illegal_order_and_bad_gamma():
    """An illegal order scores exactly the penalty, its shaping term 0 (issue 23: it was
    (γ − 1)Φ(s), −0.99775 in all); a gamma outside (0, 1] is a DataError naming the field."""
    from ambush_env.core.model.errors import DataError

    env, g = _farm_game()
    r = RewardScheme("progress")
    r.reset(g)
    assert r._phi == pytest.approx(-0.03 * 15)  # a start far from the farm: Φ(s) < 0
    total, comps = r.illegal()
    assert comps == {"illegal": load_rewards().illegal_action, "progress": 0.0}
    assert total == load_rewards().illegal_action == -1.0
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "rewards.yaml"
        p.write_text("illegal_action: -1\nschemes:\n  x: {progress: 0.1, gamma: 1.5}\n")
        with pytest.raises(DataError, match="gamma"):
            load_rewards(p)


@pytest.mark.parametrize("scheme", list_schemes())
def test_an_illegal_order_scores_exactly_the_documented_penalty_under_every_scheme(scheme):
    """docs/OBSERVATION.md "Rewards": an illegal order under ``illegal_action="penalize"``
    scores −1 (``rewards.yaml`` ``illegal_action``), not −1 plus a shaping term (issue 23:
    −0.99775 under ``progress``), after steps that moved the squad too; its components sum to
    the reward."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="farm_assault", reward=scheme)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(5):  # a few legal steps first: Φ(s) is then whatever they left
        obs, _r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not (term or trunc)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _obs, reward, term, trunc, info = env.step(illegal)
    assert info["illegal_action"] and not (term or trunc)
    assert reward == load_rewards().illegal_action == -1.0
    assert sum(info["reward_components"].values()) == reward
