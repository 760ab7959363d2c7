"""Benchmark statistics (issue 14, done-when 4): the IQM and its stratified-bootstrap interval
on small hand-made samples, and the normalised scores (VP - random) / (heuristic - random)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy")  # the stats extra (installed by .ci/run)

from ambush_env import stats

#: one task's eight episodes: an outlier at each end
A = [0, 1, 2, 3, 4, 5, 6, 100]
#: a second task of four episodes
B = [4, 8, 8, 12]


def test_iqm_by_hand():
    """n = 8: floor(8/4) = 2 scores cut at each end, the mean of [2, 3, 4, 5] is 3.5 (the
    plain mean, 15.125, follows the outlier); n = 4 cuts one at each end: [8, 8] -> 8."""
    assert stats.iqm(A) == 3.5
    assert np.mean(A) == 15.125
    assert stats.iqm(B) == 8.0
    assert stats.iqm(A + B) == pytest.approx((3 + 4 + 4 + 5 + 6 + 8) / 6)  # n = 12: cut 3 each end
    assert stats.iqm([7]) == 7.0
    with pytest.raises(ValueError, match="no scores"):
        stats.iqm([])


def _by_hand(samples, reps=2000, seed=0):
    """The same bootstrap written out: per task, ``reps`` resamples of its own size drawn with
    replacement from a seeded generator; the IQM of each resample put together; the 2.5 and
    97.5 percentiles."""
    rng = np.random.default_rng(seed)
    drawn = [np.asarray(s, float)[rng.integers(0, len(s), (reps, len(s)))] for s in samples]
    pooled = np.concatenate(drawn, axis=-1)
    k = pooled.shape[1] // 4
    iqms = np.sort(pooled, axis=1)[:, k : pooled.shape[1] - k].mean(axis=1)
    return tuple(np.percentile(iqms, [2.5, 97.5]))


def test_the_interval_with_a_fixed_seed():
    """2 000 stratified resamples with seed 0: the numbers are pinned, equal the resampling
    written out by hand, and repeat with the same seed. Task A alone reaches 28.75 (resamples
    holding the outlier 100 three times or more)."""
    one = stats.stratified_bootstrap_ci([A], reps=2000, seed=0)
    assert one == pytest.approx((1.5, 28.75)) == _by_hand([A])
    both = stats.stratified_bootstrap_ci([A, B], reps=2000, seed=0)
    assert both == pytest.approx((3.0, 7.8333333)) == _by_hand([A, B])
    assert stats.stratified_bootstrap_ci([A, B], reps=2000, seed=0) == both


def test_the_interval_contains_the_iqm_and_narrows_with_more_data():
    for samples in ([A], [B], [A, B]):
        lo, hi = stats.stratified_bootstrap_ci(samples, reps=2000, seed=0)
        assert lo <= stats.iqm(np.concatenate(samples)) <= hi
    rng = np.random.default_rng(5)
    small = rng.normal(0.5, 1.0, 16)
    big = np.concatenate([small, rng.normal(0.5, 1.0, 240)])
    w_small = np.subtract(*stats.stratified_bootstrap_ci([small], seed=0)[::-1])
    w_big = np.subtract(*stats.stratified_bootstrap_ci([big], seed=0)[::-1])
    assert 0 < w_big < w_small / 2  # 16x the data: about a quarter of the width
    w_rep = np.subtract(*stats.stratified_bootstrap_ci([A * 4], seed=0)[::-1])
    assert w_rep < 28.75 - 1.5  # the same sample four times over: narrower


def test_the_bootstrap_is_stratified_by_task():
    """Task X all 0, task Y all 1, four episodes each: a resample within each task keeps four
    0s and four 1s, so every resample's IQM is 0.5 and the interval is a point. (Resampling
    the eight pooled episodes would not.)"""
    assert stats.stratified_bootstrap_ci([[0] * 4, [1] * 4], seed=0) == (0.5, 0.5)
    assert stats.stratified_bootstrap_ci([[3, 3]]) == (3.0, 3.0)
    with pytest.raises(ValueError):
        stats.stratified_bootstrap_ci([[1, 2], []])


def test_normalised_scores():
    ref = stats.Reference(random=-2.0, heuristic=8.0, episodes=10, seeds=(10000, 10009))
    s = stats.normalise([-2, 8, 3, 18], ref.random, ref.heuristic)
    assert s.tolist() == [0.0, 1.0, 0.5, 2.0]
    assert stats.normalise([1, 2], 3.0, 3.5) is None  # gap below MIN_GAP: not normalised
    per, agg = stats.normalised_summary(
        {"m/regular": [-2, 8, 3, 18], "n/regular": [0, 0], "x/regular": [5]},
        {
            "m/regular": ref,
            "n/regular": stats.Reference(random=0, heuristic=0.5, episodes=1, seeds=(1, 1)),
        },
        reps=500,
    )
    assert set(per) == {"m/regular"}  # n: gap too small; x: no reference
    assert per["m/regular"]["mean"] == 0.875 and per["m/regular"]["iqm"] == 0.75
    lo, hi = per["m/regular"]["iqm_ci95"]
    assert lo <= 0.75 <= hi
    assert agg["tasks"] == ["m/regular"] and agg["episodes_per_task"] == 4 and agg["iqm"] == 0.75
    assert stats.normalised_summary({"x/regular": [1]}, {}) == ({}, None)


def test_the_reference_file_loads_and_a_bad_one_names_the_field(tmp_path):
    from ambush_env.core.model.errors import DataError

    ref = stats.load_reference()
    for table in (ref.standard, ref.d100):
        for key, r in table.items():
            assert "/" in key and r.episodes >= 1
    bad = tmp_path / "vp.yaml"
    bad.write_text(
        "suite: standard\nstandard:\n  farm_assault/regular: {random: x, episodes: 3, "
        "seeds: [1, 3]}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError, match=r"vp\.yaml: standard\.farm_assault/regular\.random"):
        stats.load_reference(bad)
    assert stats.load_reference(tmp_path / "absent.yaml").standard == {}


def test_update_reference_keeps_the_other_agent(tmp_path):
    path = tmp_path / "vp.yaml"
    res = {
        "suite": "tiny",
        "agent": "random",
        "rules": "standard",
        "seeds": [1, 4],
        "provenance": {
            "full_suite": True,
            "agent_sha256": "a" * 64,
            "git_commit": "b" * 40,
            "git_dirty": True,
        },
        "missions": {"farm_assault/regular": {"episodes": 4, "mean_vp": -1.5, "seeds": [1, 4]}},
    }
    stats.update_reference(res, path)
    stats.update_reference(
        {
            **res,
            "agent": "heuristic",
            "missions": {"farm_assault/regular": {"episodes": 4, "mean_vp": 9.25, "seeds": [1, 4]}},
        },
        path,
    )
    r = stats.references_for("standard", path)["farm_assault/regular"]
    assert (r.random, r.heuristic, r.episodes, r.seeds) == (-1.5, 9.25, 4, (1, 4))
    assert (r.random_sha256, r.random_commit) == ("a" * 16, "b" * 10 + "+")
    with pytest.raises(ValueError, match="partial"):
        stats.update_reference({**res, "provenance": {"full_suite": False}}, path)
    with pytest.raises(ValueError, match="not 'ppo'"):
        stats.update_reference({**res, "agent": "ppo"}, path)


def test_tasks_of_one_score_enter_every_resample_unchanged():
    """``ambush bench --episodes 1``: a task of one score resamples to itself. Tasks of one
    score each give the point interval of their IQM; mixed with a larger task, the single
    scores join every resample (the interval equals the by-hand resampling of the larger
    task with the single scores appended), where scipy alone refuses a one-score sample."""
    singles = [[3.0], [7.0], [-1.0]]
    v = stats.iqm(np.array([3.0, 7.0, -1.0]))
    assert stats.stratified_bootstrap_ci(singles, reps=500, seed=0) == (v, v)
    got = stats.stratified_bootstrap_ci([A, [50.0]], reps=2000, seed=0)
    rng = np.random.default_rng(0)
    drawn = np.asarray(A, float)[rng.integers(0, len(A), (2000, len(A)))]
    pooled = np.sort(np.concatenate([drawn, np.full((2000, 1), 50.0)], axis=1), axis=1)
    k = pooled.shape[1] // 4
    by_hand = tuple(np.percentile(pooled[:, k : pooled.shape[1] - k].mean(axis=1), [2.5, 97.5]))
    assert got == pytest.approx(by_hand)
    assert got != pytest.approx(stats.stratified_bootstrap_ci([A], reps=2000, seed=0))
