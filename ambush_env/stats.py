"""Benchmark statistics beyond win rates (issue 14): normalised scores, their interquartile mean
(IQM) and stratified-bootstrap 95% intervals, as Agarwal et al. (2021, "Deep RL at the Edge of
the Statistical Precipice") recommend; the floor of the normalised score (issue 25).

* normalised score ⚙ of one episode on one (mission, opponent):
  ``(VP − floor) / (heuristic − floor)``, where ``floor = max(random, do_nothing)`` and
  ``random``, ``do_nothing`` and ``heuristic`` are the mean VP of those three agents on that
  task, measured on the evaluation seeds and stored in ``configs/bench/reference/vp.yaml``
  (:func:`load_reference`; ``ambush bench --agent A --update-reference`` measures them). 0 is
  the better of random play and doing nothing, 1 the scripted doctrine. ⚙ The floor is the
  higher of the two (issue 25): random's VP is negative on most tasks, so a floor of random
  alone paid a policy that never acts 0.1–0.5; with the floor, doing nothing scores ≤ 0.
  ⚙ Only these three agents ever enter the reference (:data:`REFERENCE_AGENTS`): the probes
  (:data:`PROBES`: withdraw, rush, stall, drive_off) are checked against the floor, and a floor
  raised to the best probe would make each such check vacuous.
* ⚙ a task is *dropped* (no normalised score; the aggregate lists it under ``dropped`` with
  the reason) when it has no reference, when its reference lacks one of the three agents
  (⚙ a floor without ``do_nothing`` is the one passivity beats: rather than fall back to
  random alone, the task is not normalised and the reason names the command that measures
  the missing mean), or when its gap ``heuristic − floor`` is below :data:`MIN_GAP` VP (the
  ratio would only amplify noise). No task of the ``standard`` suite may be dropped (issue
  25): a small gap means the mission needs rework, not a smaller threshold.
* IQM ⚙: the mean of the middle 50% of the scores, ``scipy.stats.trim_mean(x, 0.25)`` (the
  definition rliable uses: ``floor(n/4)`` scores cut at each end).
* intervals: percentile bootstrap, resampling the episodes of each task separately (stratified
  by task), ``scipy.stats.bootstrap(..., paired=False, method="percentile")`` with a fixed
  seed, so the same result file gives the same interval; per task of the IQM (``iqm_ci95``)
  and of the mean (``mean_ci95``, the same resampling and seed). ⚙ The aggregate over tasks
  uses the first ``min n`` episodes of each task (the seeds all tasks share), so every task
  weighs the same, as rliable's (runs × tasks) matrices do.

⚙ Why scipy rather than rliable: rliable 1.2.0 pulls arch, statsmodels, pandas and seaborn,
and with today's pandas 3 its ``import arch`` fails; rliable's IQM and stratified bootstrap
are themselves scipy's ``trim_mean`` and a per-task resampling, which ``scipy.stats.bootstrap``
of several samples is. scipy is the ``stats`` extra (pinned in ``constraints.txt``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np
from pydantic import Field

from ambush_env.core.world.data import Frozen

#: the smallest reference gap (heuristic − floor mean VP) a task is normalised by ⚙
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


def _mean(scores: np.ndarray, axis: int | None = None) -> Any:
    """The plain mean (``np.mean``), with :func:`iqm`'s signature."""
    return np.mean(scores, axis=axis)


#: the statistics a bootstrap interval is of: the IQM and the mean
STATISTICS: dict[str, Callable[..., Any]] = {"iqm": iqm, "mean": _mean}


def stratified_bootstrap_ci(
    samples: Sequence[Sequence[float] | np.ndarray],
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = CONFIDENCE,
    statistic: str = "iqm",
) -> tuple[float, float]:
    """The percentile-bootstrap interval of the IQM (or the mean) of ``samples`` put together,
    resampling each sample (one task's episodes) with replacement within itself.

    Args:
        samples: one sequence of scores per task (at least one score each).
        reps: resamples; seed: the generator's seed (the same seed, the same interval).
        confidence: the interval's level (0.95: the 2.5 and 97.5 percentiles).
        statistic: ``"iqm"`` (:func:`iqm`) or ``"mean"`` (the plain mean), of every
            resample's scores put together.

    Returns:
        ``(low, high)``. A sample of one repeated value gives ``(value, value)``; so do tasks
        of one score each (``ambush bench --episodes 1``): ⚙ a task of one score resamples to
        itself, so it enters every resample unchanged (scipy resamples only the others).

    Raises:
        ValueError: no sample, an empty one, or an unknown statistic.
    """
    from scipy.stats import bootstrap

    if statistic not in STATISTICS:
        raise ValueError(f"a bootstrap of the {' or the '.join(STATISTICS)}, not {statistic!r}")
    stat = STATISTICS[statistic]
    data = [np.asarray(s, dtype=np.float64).ravel() for s in samples]
    if not data or any(d.size == 0 for d in data):
        raise ValueError("a bootstrap needs at least one score per task")
    if all(np.all(d == data[0][0]) for d in data):  # nothing to resample
        v = float(data[0][0])
        return v, v
    fixed = np.concatenate([d for d in data if d.size == 1] or [np.empty(0)])
    varied = tuple(d for d in data if d.size > 1)
    if not varied:  # every task has one score: every resample is the data itself
        v = float(stat(fixed))
        return v, v

    def of_resample(*xs: np.ndarray, axis: int = -1) -> np.ndarray:
        if fixed.size:
            shape = list(xs[0].shape)
            shape[axis] = fixed.size
            xs = (*xs, np.broadcast_to(fixed, shape))
        return stat(np.concatenate(xs, axis=axis), axis=axis)

    res = bootstrap(
        varied,
        of_resample,
        n_resamples=reps,
        vectorized=True,
        paired=False,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


# -- across training runs (issue 26) ---------------------------------------------------------------
def score_matrix(scores: Any) -> np.ndarray:
    """``scores`` as rliable's score matrix: ``(runs, tasks) float64``, one training run's
    score (its mean normalised score over the task's episodes) per cell.

    Raises:
        ValueError: not two-dimensional, no run or no task, or a non-finite score.
    """
    a = np.asarray(scores, dtype=np.float64)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"a score matrix is (runs, tasks), at least 1 x 1; got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("a score matrix holds finite scores only")
    return a


def across_runs(
    scores: Any, reps: int = BOOTSTRAP_REPS, seed: int = BOOTSTRAP_SEED
) -> dict[str, Any]:
    """The aggregate of a method over its training runs, as Agarwal et al. (2021) recommend
    (rliable's ``aggregate_iqm``/``aggregate_mean`` with its ``StratifiedBootstrap``): the
    IQM and the mean of every (run, task) score, each with a 95 % percentile interval from
    resampling the runs with replacement separately within each task (:func:`score_matrix`;
    :func:`stratified_bootstrap_ci` over the matrix's columns). ⚙ The runs, not the episodes,
    are resampled: the interval says how a new training run of the method would score.

    Returns:
        ``{"runs", "tasks", "iqm", "iqm_ci95", "mean", "mean_ci95"}``.
    """
    a = score_matrix(scores)
    cols = [a[:, j] for j in range(a.shape[1])]
    out: dict[str, Any] = {"runs": int(a.shape[0]), "tasks": int(a.shape[1])}
    for name in ("iqm", "mean"):
        lo, hi = stratified_bootstrap_ci(cols, reps=reps, seed=seed, statistic=name)
        out[name] = _r(STATISTICS[name](a.ravel()))
        out[f"{name}_ci95"] = [_r(lo), _r(hi)]
    return out


def performance_profile(
    scores: Any,
    taus: Sequence[float],
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, list]:
    """rliable's score distribution (a performance profile): for each threshold ``τ`` the
    fraction of (run, task) scores above it, ``mean(scores > τ)``, with its 95 % interval from
    the same stratified bootstrap over runs as :func:`across_runs`.

    Returns:
        ``{"tau": [...], "fraction": [...], "ci95": [[low, high], ...]}``, one entry per ``τ``.
    """
    a = score_matrix(scores)
    frac, ci = [], []
    for t in taus:
        above = (a > t).astype(np.float64)
        frac.append(_r(float(above.mean())))
        lo, hi = stratified_bootstrap_ci(
            [above[:, j] for j in range(a.shape[1])], reps=reps, seed=seed, statistic="mean"
        )
        ci.append([_r(lo), _r(hi)])
    return {"tau": [float(t) for t in taus], "fraction": frac, "ci95": ci}


#: the agents whose mean VPs make the reference, and no other ⚙ (issue 25)
REFERENCE_AGENTS = ("random", "do_nothing", "heuristic")
#: the agents whose higher mean VP is a task's floor ⚙ (issue 25: a floor passivity can't beat)
FLOOR_AGENTS = ("random", "do_nothing")
#: the scripted probes of issue 25 (``agents/probes.py``) that never enter the reference ⚙:
#: they are checked against its floor, so a floor raised to a probe would pass them vacuously
PROBES = ("withdraw", "rush", "stall", "drive_off")


def measure_command(agent: str, suite: str = "standard") -> str:
    """The command that measures ``agent``'s reference mean VPs on ``suite``."""
    return f"ambush bench --suite {suite} --agent {agent} --update-reference"


def reference_refusal(agent: str) -> str | None:
    """Why a run of ``agent`` may not be stored as a reference (None: it may, being one of
    :data:`REFERENCE_AGENTS`). A probe is named as one: ⚙ the floor is random's and
    do_nothing's alone, so that no check of a probe against it is vacuous (issue 25)."""
    if agent in REFERENCE_AGENTS:
        return None
    base = f"the reference is {', '.join(REFERENCE_AGENTS[:-1])} and {REFERENCE_AGENTS[-1]} play"
    if agent in PROBES:
        return (
            f"{base}, not {agent!r}: {agent} is a probe ({', '.join(PROBES)} are probes), and "
            "a probe never enters the reference (probes are checked against its floor, so a "
            "floor raised to a probe would make that check vacuous)"
        )
    return f"{base}, not {agent!r}"


def floor_of(ref: Any) -> tuple[float, str] | None:
    """A task's floor: ``(mean VP, agent)`` of the higher of random's and do_nothing's mean VP
    (random on a tie); None when the reference lacks either (⚙ no fallback to random alone)."""
    means: list[tuple[float, str]] = []
    for a in FLOOR_AGENTS:
        v = getattr(ref, a, None)
        if v is None:
            return None
        means.append((float(v), a))
    return max(means, key=lambda m: m[0])  # the first of equals: random


def drop_reason(ref: Any, suite: str = "standard") -> str | None:
    """Why a task gets no normalised score (None: it gets one). ⚙ A task is dropped when it
    has no reference, when its reference lacks random, do_nothing or heuristic (the reason
    names the command that measures each missing mean), or when ``heuristic − floor`` is
    below :data:`MIN_GAP` VP.

    Args:
        ref: the task's :class:`Reference`, or None.
        suite: the suite the reference is measured on (named in the command).
    """
    if ref is None:
        return "no reference mean VPs for this task"
    missing = [a for a in REFERENCE_AGENTS if getattr(ref, a, None) is None]
    if missing:
        how = "; ".join(f"`{measure_command(a, suite)}`" for a in missing)
        return (
            f"the reference lacks {' and '.join(missing)} (the floor is max(random, do_nothing)): "
            f"measure it with {how}"
        )
    floor = floor_of(ref)
    assert floor is not None  # both floor agents are present
    gap = float(ref.heuristic) - floor[0]
    if gap < MIN_GAP:
        return (
            f"reference gap heuristic - floor ({floor[1]}) = {gap:.2f} VP, below MIN_GAP "
            f"{MIN_GAP:g} VP: the mission needs rework"
        )
    return None


def normalise(vps: Sequence[float], floor_vp: float, heuristic_vp: float) -> np.ndarray | None:
    """``(VP − floor) / (heuristic − floor)`` of each episode, float64 of ``len(vps)``; None
    when the gap is below :data:`MIN_GAP` (⚙: no normalised score for that task).

    Args:
        vps: each episode's final VP; floor_vp: the task's floor (:func:`floor_of`);
            heuristic_vp: the heuristic's mean VP on the task.
    """
    gap = float(heuristic_vp) - float(floor_vp)
    if gap < MIN_GAP:
        return None
    return (np.asarray(vps, dtype=np.float64) - float(floor_vp)) / gap


def _r(x: float) -> float:
    return round(float(x), 4)


def normalised_summary(
    task_vps: dict[str, Sequence[int]],
    references: dict[str, Any],
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
    suite: str = "standard",
) -> tuple[dict[str, dict], dict | None]:
    """The normalised scores of one result.

    Args:
        task_vps: ``"<mission>/<opponent>" -> every episode's VP`` in seed order.
        references: ``"<mission>/<opponent>" ->`` an object with ``random``, ``do_nothing``
            and ``heuristic`` mean VPs (:class:`Reference`).
        suite: the suite the references were measured on (named in a dropped task's reason).

    Returns:
        ``(per_task, aggregate)``: per normalised task ``{"mean", "mean_ci95", "iqm",
        "iqm_ci95", "episodes", "floor"}`` (``floor``: the agent whose mean VP is the floor);
        the aggregate ``{"iqm", "iqm_ci95", "tasks", "dropped", "episodes_per_task",
        "bootstrap"}`` over the normalised tasks (their first ``min n`` episodes), where
        ``dropped`` maps every task not normalised to the reason (:func:`drop_reason`).
        ⚙ When no task is normalised but some has a reference entry, the aggregate is
        ``{"tasks": [], "dropped", "bootstrap"}`` (no IQM: there is none, and the reasons
        must still show); None when no task of the result has a reference entry at all.
    """
    per: dict[str, dict] = {}
    scores: dict[str, np.ndarray] = {}
    dropped: dict[str, str] = {}
    for key, vps in task_vps.items():
        ref = references.get(key)
        why = drop_reason(ref, suite)
        if why is not None:
            dropped[key] = why
            continue
        floor = floor_of(ref)
        assert ref is not None and floor is not None  # drop_reason checked both
        s = normalise(vps, floor[0], ref.heuristic)
        assert s is not None  # drop_reason checked the gap
        scores[key] = s
        lo, hi = stratified_bootstrap_ci([s], reps=reps, seed=seed)
        mlo, mhi = stratified_bootstrap_ci([s], reps=reps, seed=seed, statistic="mean")
        per[key] = {
            "mean": _r(s.mean()),
            "mean_ci95": [_r(mlo), _r(mhi)],
            "iqm": _r(iqm(s)),
            "iqm_ci95": [_r(lo), _r(hi)],
            "episodes": int(s.size),
            "floor": floor[1],
        }
    if not any(key in references for key in task_vps):
        return per, None
    agg: dict[str, Any] = {"tasks": sorted(scores), "dropped": dict(sorted(dropped.items()))}
    if scores:
        n = min(s.size for s in scores.values())
        cut = [s[:n] for s in scores.values()]
        lo, hi = stratified_bootstrap_ci(cut, reps=reps, seed=seed)
        agg = {
            "iqm": _r(iqm(np.concatenate(cut))),
            "iqm_ci95": [_r(lo), _r(hi)],
            **agg,
            "episodes_per_task": int(n),
        }
    agg["bootstrap"] = {"reps": int(reps), "seed": int(seed), "confidence": CONFIDENCE}
    return per, agg


# -- the reference mean VPs ----------------------------------------------------------------------
def reference_path():
    """``configs/bench/reference/vp.yaml``: the reference mean VPs of every task."""
    from ambush_env.core.world.data import config_dir

    return config_dir("bench") / "reference" / "vp.yaml"


class Reference(Frozen):
    """The reference of one (mission, opponent): mean VPs of random, do_nothing and heuristic
    play (:data:`REFERENCE_AGENTS`), each None until measured; the floor is the higher of the
    first two (:func:`floor_of`)."""

    random: float | None = None
    do_nothing: float | None = None
    heuristic: float | None = None
    episodes: int = Field(ge=1)
    seeds: tuple[int, int]
    #: the first 16 hex digits of each agent's hash (``provenance.agent_sha256``)
    random_sha256: str = ""
    do_nothing_sha256: str = ""
    heuristic_sha256: str = ""
    #: the git commit each agent's run played (``+``: with uncommitted changes)
    random_commit: str = ""
    do_nothing_commit: str = ""
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


def update_reference(result: dict, path=None) -> Any:
    """Store a full-suite result of ``random``, ``do_nothing`` or ``heuristic`` as the
    reference of its tasks (its rule set; other tasks and the other agents' means kept) and
    write the file. ⚙ No other agent, and no probe (:data:`PROBES`), ever enters it.

    Returns:
        The path written.

    Raises:
        ValueError: another agent (a probe named as one), or a partial run.
    """
    from pathlib import Path

    import yaml

    from ambush_env.core.world.data import write_text_atomic

    agent = result["agent"]
    prov = result.get("provenance") or {}
    refusal = reference_refusal(agent)
    if refusal is not None:
        raise ValueError(refusal)
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
            k: {
                f: (list(v) if isinstance(v, tuple) else v)
                for f, v in e.items()
                if v is not None and v != ""  # not measured yet: the defaults
            }
            for k, e in sorted(data.get(r, {}).items())
        }
    head = (
        "# Reference mean VPs per mission/opponent (ambush_env.stats): the normalised score\n"
        "# is (VP - floor) / (heuristic - floor), floor = max(random, do_nothing). Measured,\n"
        "# never edited by hand; no other agent (no probe) ever enters it:\n"
        + "".join(f"#   {measure_command(a, data['suite'])}\n" for a in REFERENCE_AGENTS)
    )
    return write_text_atomic(
        head + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100),
        p,
        what="reference file",
    )
