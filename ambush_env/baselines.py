"""The learned baselines' report (issue 26): each method's training runs, scored across runs.

A *method* is a training config (``specialist``, ``generalist``); a *run* one training seed of
it (``runs/<method>_seed<S>``). Its shipped model lives in ``models/baselines/<run>/`` (the
weights, the run's ``config.yaml`` and ``bc.json``), its learning curve in
``benchmarks/baselines/curves/<run>.csv`` and its results in
``benchmarks/baselines/<suite>/``. :func:`method_summary` turns one method's result files of
one suite into the across-run figures docs/BENCHMARK.md "Baselines" prints
(``scripts/regen_docs.py``), so the tables are always the files' own.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

#: the methods, in the order the tables show them
METHODS = ("specialist", "generalist")
#: where the shipped models, the curves and the results live (relative to the repository)
MODELS = Path("models/baselines")
RESULTS = Path("benchmarks/baselines")
#: the evaluation of every shipped model: suite -> ``--episodes`` (the first N seeds a task)
EVALUATION = {"standard": 50, "heldout": 100}


#: ⚙ the shipped models are scored by their sampled policy (``ambush bench --sample``, each
#: episode's sampling seeded by its reset seed): a policy warm-started on the heuristic, which
#: breaks ties at random, spreads its probability over equally good orders, and its argmax play
#: loops (measured on specialist_seed0's 100 000-step checkpoint, farm_assault/regular seeds
#: 10 000-10 019: argmax -0.2 VP and no win, sampled 13.6 VP and 9 wins of 20)
SAMPLE = True


def run_method(run: str) -> str | None:
    """The method of a run name or result label (``generalist_seed1000``,
    ``generalist_seed1000-sampled`` -> ``generalist``), or None."""
    m = re.fullmatch(r"(.+)_seed(\d+)(-sampled)?", run)
    return m.group(1) if m else None


def run_seed(run: str) -> int:
    """The training seed of a run name or result label (``generalist_seed1000`` -> 1000)."""
    m = re.fullmatch(r"(.+)_seed(\d+)(-sampled)?", run)
    if m is None:
        raise ValueError(f"{run!r} is not <method>_seed<S>")
    return int(m.group(2))


def method_results(folder: str | Path, method: str) -> list[dict[str, Any]]:
    """The result files of ``method``'s runs in ``folder`` (one per run, by agent label), in
    seed order."""
    out = []
    for p in sorted(Path(folder).glob("*.json")):
        r = json.loads(p.read_text(encoding="utf-8"))
        if run_method(str(r.get("agent", ""))) == method:
            r["_file"] = p.name
            out.append(r)
    return sorted(out, key=lambda r: run_seed(str(r["agent"])))


def t_interval(values: Any) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` (one per run) with its 95 % Student's t
    interval (⚙ over runs: 5 seeds are too few for a percentile bootstrap of a mean; the
    across-run IQM uses the stratified bootstrap, :func:`ambush_env.stats.across_runs`)."""
    from scipy.stats import t as student_t

    v = np.asarray(values, dtype=np.float64)
    m = float(v.mean())
    if v.size < 2:
        return m, m, m
    half = float(student_t.ppf(0.975, v.size - 1)) * float(v.std(ddof=1)) / math.sqrt(v.size)
    return m, m - half, m + half


def method_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One method's runs on one suite: the across-run IQM and mean of the normalised score
    (the (runs, tasks) matrix of each run's mean normalised score per task;
    :func:`ambush_env.stats.across_runs`), the performance profile, and per task the mean VP
    and win rate over runs with :func:`t_interval`.

    Raises:
        ValueError: no results, runs that played different tasks, or a run without the
            normalised score of a task (a reference missing).
    """
    from ambush_env import stats

    if not results:
        raise ValueError("no results")
    tasks = list(results[0]["missions"])
    for r in results:
        if list(r["missions"]) != tasks:
            raise ValueError(f"{r['agent']} played other tasks than {results[0]['agent']}")
    matrix = []
    for r in results:
        row = []
        for t in tasks:
            ns = r["missions"][t].get("normalised_score")
            if ns is None:
                raise ValueError(f"{r['agent']}: {t} has no normalised score (reference?)")
            row.append(ns["mean"])
        matrix.append(row)
    per_task = {}
    for j, t in enumerate(tasks):
        per_task[t] = {
            "vp": t_interval([r["missions"][t]["mean_vp"] for r in results]),
            "win": t_interval([r["missions"][t]["win_rate"] for r in results]),
            "normalised": t_interval([row[j] for row in matrix]),
        }
    return {
        "runs": [r["agent"] for r in results],
        "files": [r["_file"] for r in results if "_file" in r],
        "episodes_per_task": min(r["provenance"]["episodes_per_task"] for r in results),
        "commits": sorted({r["provenance"]["git_commit"][:7] for r in results}),
        "env_version": sorted({r["provenance"]["env_version"] for r in results}),
        "aggregate": stats.across_runs(matrix),
        "profile": stats.performance_profile(matrix, [0.0, 0.25, 0.5, 0.75, 1.0]),
        "mean_vp": t_interval(
            [np.mean([m["mean_vp"] for m in r["missions"].values()]) for r in results]
        ),
        "tasks": per_task,
    }


def floor_bounds(
    folder: str | Path, episodes: int, agents: tuple[str, ...] = ("random", "do_nothing")
) -> dict[str, tuple[float, float]]:
    """Each floor agent's mean VP on the first ``episodes`` seeds of every task of its result
    in ``folder`` (the seeds the learned runs played), with the upper end of its 95 %
    percentile-bootstrap interval (episodes resampled within their task,
    :func:`ambush_env.stats.stratified_bootstrap_ci`): ``agent -> (mean, high)``.

    Raises:
        ValueError: a file with fewer than ``episodes`` seeds a task.
    """
    from ambush_env import stats

    out = {}
    for p in sorted(Path(folder).glob("*.json")):
        r = json.loads(p.read_text(encoding="utf-8"))
        if r.get("agent") in agents:
            vps = [list(m["vp"])[:episodes] for m in r["missions"].values()]
            if min(len(v) for v in vps) < episodes:
                raise ValueError(f"{p}: fewer than {episodes} episodes in a task")
            _lo, hi = stats.stratified_bootstrap_ci(vps, statistic="mean")
            out[r["agent"]] = (float(np.mean(np.concatenate(vps))), float(hi))
    return out
