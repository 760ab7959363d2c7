"""Reward schemes (INTERFACE.md "Reward"): values from the data files, components reported."""

from __future__ import annotations

import pytest

from ambush_env.core.errors import ScenarioError
from ambush_env.core.rules_data import load_rules_data
from ambush_env.core.types import RESULT_NAMES
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
    with pytest.raises(ScenarioError, match="known"):
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
    assert RewardScheme().illegal() == (load_rewards().illegal_action, {"illegal": load_rewards().illegal_action})
