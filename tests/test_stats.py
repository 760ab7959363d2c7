"""Benchmark statistics (issue 14, done-when 4): the IQM and its stratified-bootstrap interval
on small hand-made samples, and the normalised scores (VP - floor) / (heuristic - floor) with
the floor max(random, do_nothing) (issue 25: a floor passivity can't beat)."""

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


def _ref(random=None, do_nothing=None, heuristic=None, n=10):
    return stats.Reference(
        random=random,
        do_nothing=do_nothing,
        heuristic=heuristic,
        episodes=n,
        seeds=(10000, 10000 + n - 1),
    )


def test_normalised_scores():
    """(VP - floor) / (heuristic - floor) with the floor max(random, do_nothing): here random
    (-2) is above do_nothing (-5); every task not normalised is listed with its reason."""
    ref = _ref(random=-2.0, do_nothing=-5.0, heuristic=8.0)
    assert stats.floor_of(ref) == (-2.0, "random")
    s = stats.normalise([-2, 8, 3, 18], -2.0, 8.0)
    assert s.tolist() == [0.0, 1.0, 0.5, 2.0]
    assert stats.normalise([1, 2], 3.0, 3.5) is None  # gap below MIN_GAP: not normalised
    per, agg = stats.normalised_summary(
        {"m/regular": [-2, 8, 3, 18], "n/regular": [0, 0], "x/regular": [5]},
        {"m/regular": ref, "n/regular": _ref(random=0, do_nothing=0.25, heuristic=1.0, n=1)},
        reps=500,
    )
    assert set(per) == {"m/regular"}  # n: gap too small; x: no reference
    m = per["m/regular"]
    assert m["mean"] == 0.875 and m["iqm"] == 0.75 and m["floor"] == "random"
    lo, hi = m["iqm_ci95"]
    assert lo <= 0.75 <= hi
    assert agg["tasks"] == ["m/regular"] and agg["episodes_per_task"] == 4 and agg["iqm"] == 0.75
    assert set(agg["dropped"]) == {"n/regular", "x/regular"}  # the dropped tasks are listed
    assert "no reference" in agg["dropped"]["x/regular"]
    assert "0.75 VP, below MIN_GAP" in agg["dropped"]["n/regular"]  # 1 - max(0, 0.25)
    assert "do_nothing" in agg["dropped"]["n/regular"]  # the floor's agent is named
    assert stats.normalised_summary({"x/regular": [1]}, {}) == ({}, None)


def test_the_floor_is_the_higher_of_random_and_do_nothing():
    """Task a: doing nothing (0 VP) beats random (-6): the floor is 0, so do_nothing's own VP
    normalises to 0 and random's to -6/10 < 0. Task b: random (3) beats doing nothing (1): the
    floor is random's. A tie is random's. Either way the floor agent's mean VP scores exactly
    0 and the heuristic's 1, and no VP at or below the floor scores above 0."""
    a = _ref(random=-6.0, do_nothing=0.0, heuristic=10.0)
    b = _ref(random=3.0, do_nothing=1.0, heuristic=13.0)
    assert stats.floor_of(a) == (0.0, "do_nothing")
    assert stats.floor_of(b) == (3.0, "random")
    assert stats.floor_of(_ref(random=2.0, do_nothing=2.0, heuristic=9.0)) == (2.0, "random")
    per, agg = stats.normalised_summary(
        {"a/regular": [0, 0, 0, 0], "b/regular": [1, 1, 3, 13]}, {"a/regular": a, "b/regular": b}
    )
    assert per["a/regular"]["floor"] == "do_nothing" and per["b/regular"]["floor"] == "random"
    assert per["a/regular"]["mean"] == 0.0  # doing nothing on a: exactly the floor
    assert per["b/regular"]["mean"] == pytest.approx(((1 - 3) * 2 + 0 + 10) / 10 / 4)
    assert agg["tasks"] == ["a/regular", "b/regular"] and agg["dropped"] == {}
    # the old formula (VP - random) / (heuristic - random) paid doing nothing 6/16 on a
    old = stats.normalise([0], a.random, a.heuristic)
    assert old is not None and old[0] == pytest.approx(0.375)
    for ref in (a, b):  # do_nothing's and random's mean VPs normalise to <= 0
        fl, _ = stats.floor_of(ref)
        for vp in (ref.random, ref.do_nothing):
            assert stats.normalise([vp], fl, ref.heuristic)[0] <= 0


def test_a_reference_without_do_nothing_is_not_normalised():
    """⚙ A floor of random alone is the one passivity beats, so a task whose reference lacks
    do_nothing is dropped (never normalised against random alone), the reason naming the
    command that measures it; with no task normalised the aggregate has no IQM but still
    lists the dropped tasks."""
    legacy = _ref(random=-4.0, heuristic=8.0)  # a reference measured before issue 25
    assert stats.floor_of(legacy) is None
    per, agg = stats.normalised_summary({"m/regular": [0, 1, 2]}, {"m/regular": legacy})
    assert per == {}
    assert agg["tasks"] == [] and "iqm" not in agg and "episodes_per_task" not in agg
    why = agg["dropped"]["m/regular"]
    assert "lacks do_nothing" in why
    assert "`ambush bench --suite standard --agent do_nothing --update-reference`" in why
    why = stats.drop_reason(_ref(do_nothing=0.0), suite="vehicles")
    assert "lacks random and heuristic" in why and "--suite vehicles --agent heuristic" in why


def test_the_mean_interval_brackets_the_mean():
    """Per task the mean normalised score has its own 95 % percentile bootstrap (the same
    resampling and seed as the IQM's): it contains the mean, equals the resampling written
    out by hand, and differs from the IQM's interval where the outlier pulls the mean."""
    ref = _ref(random=0.0, do_nothing=-1.0, heuristic=10.0)
    per, _ = stats.normalised_summary({"m/regular": A}, {"m/regular": ref}, reps=2000)
    m = per["m/regular"]
    lo, hi = m["mean_ci95"]
    assert lo <= m["mean"] <= hi and m["mean"] == pytest.approx(1.5125)
    rng = np.random.default_rng(0)
    drawn = (np.asarray(A, float) / 10)[rng.integers(0, len(A), (2000, len(A)))]
    by_hand = np.percentile(drawn.mean(axis=1), [2.5, 97.5])
    assert (lo, hi) == pytest.approx(tuple(by_hand), abs=1e-4)
    assert (lo, hi) != tuple(m["iqm_ci95"])
    assert stats.stratified_bootstrap_ci([[2.0], [4.0]], statistic="mean") == (3.0, 3.0)
    with pytest.raises(ValueError, match="median"):
        stats.stratified_bootstrap_ci([A], statistic="median")


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


def test_update_reference_keeps_the_other_agents_and_refuses_probes(tmp_path):
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
    body = path.read_text().split("\nsuite:")[1]
    assert "do_nothing" not in body and "''" not in body  # not measured yet: not written
    for agent, vp in (("heuristic", 9.25), ("do_nothing", 0.5)):
        stats.update_reference(
            {
                **res,
                "agent": agent,
                "missions": {
                    "farm_assault/regular": {"episodes": 4, "mean_vp": vp, "seeds": [1, 4]}
                },
            },
            path,
        )
    r = stats.references_for("standard", path)["farm_assault/regular"]
    assert (r.random, r.do_nothing, r.heuristic) == (-1.5, 0.5, 9.25)
    assert (r.episodes, r.seeds) == (4, (1, 4))
    assert (r.random_sha256, r.random_commit) == ("a" * 16, "b" * 10 + "+")
    assert r.do_nothing_sha256 == "a" * 16
    assert stats.floor_of(r) == (0.5, "do_nothing")
    head = path.read_text().split("suite:")[0]
    for agent in stats.REFERENCE_AGENTS:  # the header names the measuring commands, its suite's
        assert f"ambush bench --suite tiny --agent {agent} --update-reference" in head
    with pytest.raises(ValueError, match="partial"):
        stats.update_reference({**res, "provenance": {"full_suite": False}}, path)
    with pytest.raises(ValueError, match="not 'ppo'"):
        stats.update_reference({**res, "agent": "ppo"}, path)
    before = path.read_text()
    for probe in stats.PROBES:  # a probe is refused as one, and the file is left alone
        with pytest.raises(ValueError, match=f"not '{probe}': {probe} is a probe"):
            stats.update_reference({**res, "agent": probe}, path)
    assert path.read_text() == before
    assert set(stats.PROBES) == {"withdraw", "rush", "stall", "drive_off"}
    assert stats.REFERENCE_AGENTS == ("random", "do_nothing", "heuristic")


def test_the_probes_stats_refuses_are_the_probe_suite():
    """stats.PROBES (refused by name) are the probes of agents/probes.py but do_nothing, the
    one probe that is also a reference agent (the floor's)."""
    probes = pytest.importorskip("ambush_env.agents.probes")
    assert set(stats.PROBES) == set(probes.PROBE_NAMES) - set(stats.REFERENCE_AGENTS)
    assert set(stats.FLOOR_AGENTS) < set(stats.REFERENCE_AGENTS)


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


# -- across training runs (issue 26): rliable's estimators over a (runs, tasks) matrix ----------
def test_across_runs_iqm_is_rliables_aggregate_iqm_of_the_flattened_matrix():
    """rliable: ``aggregate_iqm(scores) = scipy.stats.trim_mean(scores, 0.25, axis=None)``,
    the mean of the middle 50 % of all run x task scores."""
    pytest.importorskip("scipy")
    m = [[0.0, 1.0, 10.0], [2.0, 3.0, -5.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]  # 4 runs x 3
    agg = stats.across_runs(m, reps=500)
    flat = sorted(x for row in m for x in row)  # 12 scores: cut 3 at each end
    assert agg["iqm"] == pytest.approx(sum(flat[3:9]) / 6, abs=1e-4)
    assert agg["mean"] == pytest.approx(sum(flat) / 12, abs=1e-4)
    assert (agg["runs"], agg["tasks"]) == (4, 3)
    lo, hi = agg["iqm_ci95"]
    assert lo < agg["iqm"] < hi


def test_across_runs_resamples_runs_within_each_task_never_across_tasks():
    """rliable's StratifiedBootstrap: each task's runs are resampled on their own. Tasks whose
    runs all agree leave nothing to resample, so the interval is the point, although the
    tasks differ from each other (a pooled bootstrap would give a wide interval); one run
    that differs widens it."""
    pytest.importorskip("scipy")
    same = [[0.0, 1.0, 2.0, 3.0]] * 5
    agg = stats.across_runs(same, reps=500)
    assert agg["iqm_ci95"] == [agg["iqm"], agg["iqm"]] and agg["mean_ci95"] == [1.5, 1.5]
    varied = [row[:] for row in same]
    varied[0][0] = -4.0
    lo, hi = stats.across_runs(varied, reps=500)["mean_ci95"]
    # task 0's resamples hold 0..5 copies of the -4: the mean lies in [0.5, 1.5], the top
    # when the copy is missed (p = (4/5)^5 = 0.33 > 2.5 %)
    assert hi == 1.5 and 0.5 <= lo < 1.5


def test_across_runs_interval_matches_a_direct_stratified_bootstrap():
    """The interval equals a plain loop's (resample each column's runs, IQM of the whole
    matrix, 2.5/97.5 percentiles) within the Monte Carlo error of 4 000 resamples."""
    pytest.importorskip("scipy")
    from scipy.stats import trim_mean

    rng = np.random.default_rng(5)
    m = rng.normal(size=(5, 6)) + np.arange(6)
    ours = stats.across_runs(m, reps=4000, seed=1)["iqm_ci95"]
    vals = []
    for _ in range(4000):
        cols = [m[rng.integers(5, size=5), j] for j in range(6)]
        vals.append(trim_mean(np.concatenate(cols), 0.25))
    lo, hi = np.percentile(vals, [2.5, 97.5])
    assert ours[0] == pytest.approx(lo, abs=0.08) and ours[1] == pytest.approx(hi, abs=0.08)


def test_performance_profile_is_the_fraction_of_run_task_scores_above_tau():
    pytest.importorskip("scipy")
    m = [[0.0, 0.5], [1.0, 1.5]]
    prof = stats.performance_profile(m, [-1.0, 0.0, 0.5, 1.2, 2.0], reps=300)
    assert prof["fraction"] == [1.0, 0.75, 0.5, 0.25, 0.0]  # strictly above tau, as rliable
    for f, (lo, hi) in zip(prof["fraction"], prof["ci95"], strict=True):
        assert lo <= f <= hi
    assert prof["ci95"][0] == [1.0, 1.0] and prof["ci95"][-1] == [0.0, 0.0]


@pytest.mark.parametrize("bad", [[], [1.0, 2.0], [[1.0, float("nan")]], [[[1.0]]]])
def test_a_score_matrix_is_two_dimensional_and_finite(bad):
    with pytest.raises(ValueError, match="score matrix"):
        stats.score_matrix(bad)
