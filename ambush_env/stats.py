"""Benchmark statistics beyond win rates (issue 14): normalised scores, their interquartile mean
(IQM) and stratified-bootstrap 95% intervals, as Agarwal et al. (2021, "Deep RL at the Edge of
the Statistical Precipice") recommend.

* normalised score ⚙ of one episode on one (mission, opponent):
  ``(VP − random) / (heuristic − random)``, where ``random`` and ``heuristic`` are the mean VP
  of those two agents on that task, measured on the evaluation seeds and stored in
  ``configs/bench/reference/vp.yaml`` (:func:`load_reference`; ``ambush bench
  --update-reference`` measures them). 0 is random play, 1 the scripted doctrine. ⚙ A task
  whose reference gap ``heuristic − random`` is below :data:`MIN_GAP` VP gets no normalised
  score (the ratio would only amplify noise).
* IQM ⚙: the mean of the middle 50% of the scores, ``scipy.stats.trim_mean(x, 0.25)`` (the
  definition rliable uses: ``floor(n/4)`` scores cut at each end).
* intervals: percentile bootstrap, resampling the episodes of each task separately (stratified
  by task), ``scipy.stats.bootstrap(..., paired=False, method="percentile")`` with a fixed
  seed, so the same result file gives the same interval. ⚙ The aggregate over tasks uses the
  first ``min n`` episodes of each task (the seeds all tasks share), so every task weighs the
  same, as rliable's (runs × tasks) matrices do.

⚙ Why scipy rather than rliable: rliable 1.2.0 pulls arch, statsmodels, pandas and seaborn,
and with today's pandas 3 its ``import arch`` fails; rliable's IQM and stratified bootstrap
are themselves scipy's ``trim_mean`` and a per-task resampling, which ``scipy.stats.bootstrap``
of several samples is. scipy is the ``stats`` extra (pinned in ``constraints.txt``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from pydantic import Field

from ambush_env.core.world.data import Frozen

#: the smallest reference gap (heuristic − random mean VP) a task is normalised by ⚙
MIN_GAP = 1.0
#: bootstrap resamples of an interval ⚙ (stable to about ±0.01 at the baseline's sizes)
BOOTSTRAP_REPS = 2000
#: the bootstrap's seed ⚙: intervals are reproducible from the result file
BOOTSTRAP_SEED = 0
CONFIDENCE = 0.95


@overload
def iqm(scores: Sequence[float] | np.ndarray, axis: None = None) -> float: ...
@overload
def iqm(scores: Sequence[float] | np.ndarray, axis: int) -> np.ndarray: ...
def iqm(scores: Sequence[float] | np.ndarray, axis: int | None = None) -> float | np.ndarray:
    """The interquartile mean: the mean after cutting ``floor(n / 4)`` scores at each end
    (``scipy.stats.trim_mean(scores, 0.25)``); along ``axis``, or of all scores when None.

    Raises:
        ValueError: no scores.
    """
    from scipy.stats import trim_mean

    a = np.asarray(scores, dtype=np.float64)
    if a.size == 0:
        raise ValueError("the IQM of no scores")
    if axis is None:
        return float(trim_mean(a.ravel(), 0.25))
    return trim_mean(a, 0.25, axis=axis)


def _iqm_of_samples(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
    """The IQM of the samples put together (vectorised over leading resample axes)."""
    return iqm(np.concatenate(samples, axis=axis), axis=axis)


def stratified_bootstrap_ci(
    samples: Sequence[Sequence[float] | np.ndarray],
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = CONFIDENCE,
) -> tuple[float, float]:
    """The percentile-bootstrap interval of the IQM of ``samples`` put together, resampling
    each sample (one task's episodes) with replacement within itself.

    Args:
        samples: one sequence of scores per task (at least one score each).
        reps: resamples; seed: the generator's seed (the same seed, the same interval).
        confidence: the interval's level (0.95: the 2.5 and 97.5 percentiles).

    Returns:
        ``(low, high)``. A sample of one repeated value gives ``(value, value)``; so do tasks
        of one score each (``ambush bench --episodes 1``): ⚙ a task of one score resamples to
        itself, so it enters every resample unchanged (scipy resamples only the others).

    Raises:
        ValueError: no sample, or an empty one.
    """
    from scipy.stats import bootstrap

    data = [np.asarray(s, dtype=np.float64).ravel() for s in samples]
    if not data or any(d.size == 0 for d in data):
        raise ValueError("a bootstrap needs at least one score per task")
    if all(np.all(d == data[0][0]) for d in data):  # nothing to resample
        v = float(data[0][0])
        return v, v
    fixed = np.concatenate([d for d in data if d.size == 1] or [np.empty(0)])
    varied = tuple(d for d in data if d.size > 1)
    if not varied:  # every task has one score: every resample is the data itself
        v = float(iqm(fixed))
        return v, v

    def statistic(*xs: np.ndarray, axis: int = -1) -> np.ndarray:
        if fixed.size:
            shape = list(xs[0].shape)
            shape[axis] = fixed.size
            xs = (*xs, np.broadcast_to(fixed, shape))
        return _iqm_of_samples(*xs, axis=axis)

    res = bootstrap(
        varied,
        statistic,
        n_resamples=reps,
        vectorized=True,
        paired=False,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def normalise(vps: Sequence[float], random_vp: float, heuristic_vp: float) -> np.ndarray | None:
    """``(VP − random) / (heuristic − random)`` of each episode; None when the gap is below
    :data:`MIN_GAP` (⚙: no normalised score for that task)."""
    gap = float(heuristic_vp) - float(random_vp)
    if gap < MIN_GAP:
        return None
    return (np.asarray(vps, dtype=np.float64) - float(random_vp)) / gap


def _r(x: float) -> float:
    return round(float(x), 4)


def normalised_summary(
    task_vps: dict[str, Sequence[int]],
    references: dict[str, Any],
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[dict[str, dict], dict | None]:
    """The normalised scores of one result.

    Args:
        task_vps: ``"<mission>/<opponent>" -> every episode's VP`` in seed order.
        references: ``"<mission>/<opponent>" ->`` an object with ``random`` and ``heuristic``
            mean VPs (:class:`Reference`); tasks without one are skipped.

    Returns:
        ``(per_task, aggregate)``: per task ``{"mean", "iqm", "iqm_ci95", "episodes"}``; the
        aggregate ``{"iqm", "iqm_ci95", "tasks", "episodes_per_task"}`` over the normalised
        tasks (their first ``min n`` episodes), or None when no task has a reference.
    """
    per: dict[str, dict] = {}
    scores: dict[str, np.ndarray] = {}
    for key, vps in task_vps.items():
        ref = references.get(key)
        if ref is None or ref.random is None or ref.heuristic is None:
            continue
        s = normalise(vps, ref.random, ref.heuristic)
        if s is None:
            continue
        scores[key] = s
        lo, hi = stratified_bootstrap_ci([s], reps=reps, seed=seed)
        per[key] = {
            "mean": _r(s.mean()),
            "iqm": _r(iqm(s)),
            "iqm_ci95": [_r(lo), _r(hi)],
            "episodes": int(s.size),
        }
    if not scores:
        return per, None
    n = min(s.size for s in scores.values())
    cut = [s[:n] for s in scores.values()]
    lo, hi = stratified_bootstrap_ci(cut, reps=reps, seed=seed)
    return per, {
        "iqm": _r(iqm(np.concatenate(cut))),
        "iqm_ci95": [_r(lo), _r(hi)],
        "tasks": sorted(scores),
        "episodes_per_task": int(n),
        "bootstrap": {"reps": int(reps), "seed": int(seed), "confidence": CONFIDENCE},
    }


# -- the reference mean VPs ----------------------------------------------------------------------
def reference_path():
    """``configs/bench/reference/vp.yaml``: the reference mean VPs of every task."""
    from ambush_env.core.world.data import config_dir

    return config_dir("bench") / "reference" / "vp.yaml"


class Reference(Frozen):
    """The reference of one (mission, opponent): mean VPs of random and heuristic play."""

    random: float | None = None
    heuristic: float | None = None
    episodes: int = Field(ge=1)
    seeds: tuple[int, int]
    random_sha256: str = ""
    heuristic_sha256: str = ""
    #: the git commit each agent's run played (``+``: with uncommitted changes)
    random_commit: str = ""
    heuristic_commit: str = ""


class ReferenceFile(Frozen):
    """``configs/bench/reference/vp.yaml``: per rule set, ``"<mission>/<opponent>" -> Reference``."""

    suite: str
    standard: dict[str, Reference] = {}
    d100: dict[str, Reference] = {}


def load_reference(path=None) -> Any:
    """The reference file (:class:`ReferenceFile`); an empty one when the file is absent.

    Raises:
        DataError: a malformed file (naming the file and the field).
    """
    from pathlib import Path

    from ambush_env.core.world.data import read_yaml, validate_file

    p = Path(path) if path is not None else reference_path()
    if not p.exists():
        return ReferenceFile(suite="")
    return validate_file(ReferenceFile, read_yaml(p), p)


def references_for(rules: str, path=None) -> dict[str, Any]:
    """``"<mission>/<opponent>" -> Reference`` of one rule set."""
    return dict(getattr(load_reference(path), rules, {}) or {})


REFERENCE_AGENTS = ("random", "heuristic")


def update_reference(result: dict, path=None) -> Any:
    """Store a full-suite result of ``random`` or ``heuristic`` as the reference of its tasks
    (its rule set; other tasks and the other agent's means kept) and write the file.

    Returns:
        The path written.

    Raises:
        ValueError: another agent, or a partial run.
    """
    from pathlib import Path

    import yaml

    from ambush_env.core.world.data import write_text_atomic

    agent = result["agent"]
    prov = result.get("provenance") or {}
    if agent not in REFERENCE_AGENTS:
        raise ValueError(f"the reference is random and heuristic play, not {agent!r}")
    if not prov.get("full_suite", False):
        raise ValueError("a reference is measured on a whole suite, not a partial run (--episodes)")
    p = Path(path) if path is not None else reference_path()
    old = load_reference(p)
    rules = result.get("rules", "standard")
    data = old.model_dump()
    data["suite"] = result["suite"]
    table = data.setdefault(rules, {})
    for key, m in result["missions"].items():
        entry = dict(table.get(key) or {})
        seeds = list(m.get("seeds") or result["seeds"])
        if entry.get("seeds") and list(entry["seeds"]) != seeds:  # measured on other seeds
            entry = {}
        commit = str(prov.get("git_commit", "unknown"))[:10] + (
            "+" if prov.get("git_dirty") else ""
        )
        entry.update(
            {
                "episodes": m["episodes"],
                "seeds": seeds,
                agent: m["mean_vp"],
                f"{agent}_sha256": prov.get("agent_sha256", "")[:16],
                f"{agent}_commit": commit,
            }
        )
        table[key] = entry
    ReferenceFile.model_validate(data)  # what is written loads
    for r in ("standard", "d100"):
        data[r] = {
            k: {f: (list(v) if isinstance(v, tuple) else v) for f, v in e.items() if v is not None}
            for k, e in sorted(data.get(r, {}).items())
        }
    head = (
        "# Reference mean VPs per mission/opponent (ambush_env.stats): the normalised score\n"
        "# is (VP - random) / (heuristic - random). Measured, never edited by hand:\n"
        "#   ambush bench --suite standard --agent random --update-reference\n"
        "#   ambush bench --suite standard --agent heuristic --update-reference\n"
    )
    return write_text_atomic(
        head + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100),
        p,
        what="reference file",
    )
