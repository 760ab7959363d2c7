"""Benchmark figures (issue 14): per suite, win rate and mean VP per mission and agent with 95%
intervals (and the normalised-score IQM when the results carry one); learning curves from
TensorBoard logs. Needs matplotlib (the ``stats`` or ``render`` extra); learning curves also
tensorboard (the ``train`` extra).

* one titled figure per suite (and rule set), the legend below the panels, clear of the data;
* a bar of height 0 stays visible: every bar gets a marker at its value and its number;
* intervals: win rate, the Wilson interval of the result; mean VP ⚙, the normal
  approximation ``mean ± 1.96 s / √n`` from the episodes' VPs (``vp``; none for an older
  result without them); normalised IQM, the result's stratified-bootstrap interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

#: the TensorBoard scalars a learning curve shows, when logged (first found first)
CURVE_TAGS = ("ambush/vp", "ambush/win", "rollout/ep_rew_mean", "rollout/ep_len_mean")
#: what a run too short to finish an episode shows instead (the PPO losses)
FALLBACK_TAGS = ("train/entropy_loss", "train/value_loss", "train/policy_gradient_loss")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> Path:
    """Write the figure as a PNG whole or not at all (:func:`ambush_env.core.world.data.atomic_write`)."""
    from ambush_env.core.world.data import atomic_write

    with atomic_write(path, what="figure", binary=True) as f:
        fig.savefig(f, format="png", dpi=100, bbox_inches="tight")
    return path


def _who(result: dict) -> str:
    key = str((result.get("provenance") or {}).get("agent_sha256", ""))[:8]
    return f"{result['agent']}@{key}" if key else result["agent"]


def suite_label(result: dict) -> str:
    """``suite`` or ``suite [d100]``: the figure's name of a result's suite and rules."""
    rules = result.get("rules") or "standard"
    return result["suite"] if rules == "standard" else f"{result['suite']} [{rules}]"


def vp_interval(m: dict) -> tuple[float, float]:
    """The 95% interval of a task's mean VP (normal approximation ⚙; the mean itself when the
    result has no per-episode VPs or one episode)."""
    vps = m.get("vp") or []
    n = len(vps)
    mean = float(m["mean_vp"])
    if n < 2:
        return mean, mean
    mu = sum(vps) / n
    sd = math.sqrt(sum((v - mu) ** 2 for v in vps) / (n - 1))
    half = 1.959963984540054 * sd / math.sqrt(n)
    return mean - half, mean + half


#: above this many bars in a panel the values are not written on them (the markers stay)
MAX_LABELLED_BARS = 40


def _bars(
    ax, keys: list[str], agents: list[str], values: dict, title: str, ylabel: str, fmt: str
) -> None:
    """Grouped bars, one group per key and one bar per agent, with error bars, a marker on
    every bar (so a zero bar shows) and, up to :data:`MAX_LABELLED_BARS` bars, its value."""
    label = len(values) <= MAX_LABELLED_BARS
    width = 0.8 / max(1, len(agents))
    colours = [f"C{j % 10}" for j in range(len(agents))]
    for j, agent in enumerate(agents):
        xs, ys, lo, hi, ends = [], [], [], [], []
        for i, key in enumerate(keys):
            if (agent, key) in values:
                y, (a, b) = values[(agent, key)]
                xs.append(i + (j - (len(agents) - 1) / 2) * width)
                ys.append(y)
                lo.append(max(0.0, y - a))
                hi.append(max(0.0, b - y))
                ends.append(max(y, b) if y >= 0 else min(y, a))
        if not xs:
            continue
        ax.bar(
            xs,
            ys,
            width=width * 0.92,
            yerr=[lo, hi],
            capsize=3,
            color=colours[j],
            edgecolor="black",
            linewidth=0.6,
            label=agent,
            alpha=0.85,
        )
        # a diamond at every bar's value: a bar of height 0 still shows, in its agent's colour
        ax.plot(
            xs,
            ys,
            linestyle="none",
            marker="D",
            markersize=5,
            color=colours[j],
            markeredgecolor="black",
            markeredgewidth=0.6,
        )
        # each value written beyond its interval's end
        for x, y, end in zip(xs, ys, ends, strict=True) if label else ():
            ax.annotate(
                fmt.format(y),
                (x, end),
                textcoords="offset points",
                xytext=(0, 2 if y >= 0 else -2),
                ha="center",
                va="bottom" if y >= 0 else "top",
                fontsize=6.5,
            )
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=25, ha="right", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    ax.margins(y=0.15)


def plot_suite(results: list[dict], path: str | Path) -> Path:
    """One figure of one suite's results (one result per agent): win rate and mean VP per
    mission/opponent, and the normalised-score IQM per agent when the results carry one.

    Raises:
        ValueError: no results, or results of several suites or rule sets.
    """
    if not results:
        raise ValueError("no results to plot")
    labels = {suite_label(r) for r in results}
    if len(labels) != 1:
        raise ValueError(f"one figure per suite, got {sorted(labels)}")
    plt = _pyplot()
    keys = sorted({k for r in results for k in r["missions"]})
    agents = sorted({_who(r) for r in results})
    win, vp = {}, {}
    for r in results:
        for k, m in r["missions"].items():
            win[(_who(r), k)] = (m["win_rate"], tuple(m["win_rate_ci95"]))
            vp[(_who(r), k)] = (m["mean_vp"], vp_interval(m))
    norm = {  # an aggregate of dropped tasks only has no IQM to draw
        _who(r): r["normalised_score"]
        for r in results
        if (r.get("normalised_score") or {}).get("iqm") is not None
    }
    # win rate above mean VP, full width; the normalised IQM beside both when present
    width = max(8.0, 0.3 * len(keys) * max(1, len(agents)) + 3)
    mosaic = [["win", "norm"], ["vp", "norm"]] if norm else [["win"], ["vp"]]
    fig, axes = plt.subplot_mosaic(
        mosaic,
        figsize=(width + (2.5 if norm else 0), 8.2),
        width_ratios=[width, 2.5] if norm else [1],
    )
    _bars(axes["win"], keys, agents, win, "win rate (95% Wilson interval)", "win rate", "{:.2f}")
    axes["win"].set_ylim(0, 1.12)
    _bars(axes["vp"], keys, agents, vp, "mean VP (95% interval)", "VP", "{:.1f}")
    if norm:
        vals = {(a, "IQM"): (n["iqm"], tuple(n["iqm_ci95"])) for a, n in norm.items()}
        _bars(
            axes["norm"],
            ["IQM"],
            agents,
            vals,
            "normalised score\n(IQM, 95% bootstrap)",
            "(VP − floor) / (heuristic − floor)",
            "{:.2f}",
        )
    seeds = sorted({tuple(r.get("seeds") or ()) for r in results})
    span = ", ".join(f"{a}-{b}" for a, b in seeds if a is not None)
    fig.suptitle(f"Ambush! benchmark: suite {suite_label(results[0])} (seeds {span})", fontsize=12)
    handles, names = axes["win"].get_legend_handles_labels()
    if not handles:
        handles, names = axes["vp"].get_legend_handles_labels()
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    fig.legend(
        handles,
        names,
        loc="lower center",
        ncol=min(len(names), 4),
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 0.0),
    )
    out = _save(fig, Path(path))
    plt.close(fig)
    return out


def plot_suites(results: list[dict], out_dir: str | Path) -> list[Path]:
    """:func:`plot_suite` of every suite (and rule set) among ``results``: ``<suite>.png``
    (``<suite>__<rules>.png`` for a non-standard rule set) in ``out_dir``. Of two results of
    one agent (label and hash) on one suite, the full-suite one is drawn."""
    groups: dict[str, dict[str, dict]] = defaultdict(dict)
    for r in results:
        g = groups[suite_label(r)]
        who = _who(r)
        full = bool((r.get("provenance") or {}).get("full_suite", True))
        old = g.get(who)
        if old is None or (full and not (old.get("provenance") or {}).get("full_suite", True)):
            g[who] = r
    paths = []
    for _label, by_agent in sorted(groups.items()):
        r0 = next(iter(by_agent.values()))
        rules = r0.get("rules") or "standard"
        name = r0["suite"] if rules == "standard" else f"{r0['suite']}__{rules}"
        paths.append(plot_suite(list(by_agent.values()), Path(out_dir) / f"{name}.png"))
    return paths


# -- learning curves -------------------------------------------------------------------------
def read_scalars(logdir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar of the TensorBoard event files under ``logdir`` (all runs, e.g. the
    ``MaskablePPO_1``, ``MaskablePPO_2`` of a run resumed in chunks): ``tag -> [(step,
    value)]`` sorted by step; of two values at one step the later-written one is kept.

    Raises:
        FileNotFoundError: no event file under ``logdir``.
    """
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    root = Path(logdir)
    folders = sorted({p.parent for p in root.rglob("events.out.tfevents.*")})
    if not folders:
        raise FileNotFoundError(f"no TensorBoard event files under {root}")
    out: dict[str, dict[int, tuple[float, float]]] = defaultdict(dict)
    for folder in folders:
        acc = EventAccumulator(str(folder), size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags().get("scalars", []):
            for e in acc.Scalars(tag):
                old = out[tag].get(e.step)
                if old is None or e.wall_time >= old[0]:
                    out[tag][e.step] = (e.wall_time, e.value)
    return {tag: sorted((s, v) for s, (_, v) in steps.items()) for tag, steps in out.items()}


def plot_learning_curves(
    logdir: str | Path,
    path: str | Path,
    title: str | None = None,
    tags: tuple[str, ...] = CURVE_TAGS,
) -> Path:
    """The learning curves of one training run: one panel per logged tag of ``tags`` (the
    run's VP and win rate per episode, reward, episode length; or, when none was logged, the
    PPO losses of :data:`FALLBACK_TAGS`) against env steps.

    Raises:
        FileNotFoundError: no event file; ValueError: none of ``tags`` was logged.
    """
    scalars = read_scalars(logdir)
    shown = [t for t in tags if scalars.get(t)] or [t for t in FALLBACK_TAGS if scalars.get(t)]
    if not shown:
        raise ValueError(
            f"none of {', '.join(tags)} in the logs of {logdir} "
            f"(logged: {', '.join(sorted(scalars)) or 'nothing'})"
        )
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 3.6), squeeze=False)
    for ax, tag in zip(axes[0], shown, strict=True):
        steps, values = zip(*scalars[tag], strict=True)
        ax.plot(steps, values, marker="." if len(steps) < 30 else None, linewidth=1.2)
        ax.set_title(tag, fontsize=10)
        ax.set_xlabel("env steps")
        ax.grid(alpha=0.3)
    fig.suptitle(title or f"learning curves: {Path(logdir).resolve().parent.name}", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    out = _save(fig, Path(path))
    plt.close(fig)
    return out


def load_results(folder: str | Path) -> list[dict[str, Any]]:
    """The benchmark result JSON files of a folder (others skipped)."""
    import json

    out = []
    for p in sorted(Path(folder).glob("*.json")):
        try:
            r = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(r, dict) and {"suite", "agent", "missions"} <= set(r):
            out.append(r)
    return out


# -- learning curves across training seeds (issue 26) ------------------------------------------
#: the columns of a learning-curve CSV (:func:`write_curve_csv`)
CURVE_COLUMNS = ("env_steps", "ppo_steps", "vp", "win")


def write_curve_csv(run_dir: str | Path, path: str | Path) -> Path:
    """A training run's learning curve as CSV, whole or not at all: per PPO rollout logged,
    ``env_steps`` (the warm start's demonstration steps, ``bc.json``'s ``steps``, plus PPO's),
    ``ppo_steps``, and the mean VP and win rate of the training episodes that ended in it
    (``ambush/vp``, ``ambush/win``: the sampled policy, on the training distribution).

    Raises:
        FileNotFoundError: no event file under ``run_dir/tb``; ValueError: no ``ambush/vp``.
    """
    import json

    from ambush_env.core.world.data import write_text_atomic

    run = Path(run_dir)
    scalars = read_scalars(run / "tb")
    if not scalars.get("ambush/vp"):
        raise ValueError(f"{run}: no ambush/vp logged (no training episode ended yet)")
    bc = run / "bc.json"
    offset = int(json.loads(bc.read_text())["steps"]) if bc.exists() else 0
    win = dict(scalars.get("ambush/win", []))
    lines = [",".join(CURVE_COLUMNS)]
    for step, vp in scalars["ambush/vp"]:
        w = win.get(step)
        lines.append(f"{offset + step},{step},{vp:.4f},{'' if w is None else f'{w:.4f}'}")
    return write_text_atomic("\n".join(lines) + "\n", path, what="learning curve")


def read_curve_csv(path: str | Path) -> dict[str, Any]:
    """A learning-curve CSV (:func:`write_curve_csv`): column name -> float64 array.

    Raises:
        DataError: not the columns of :data:`CURVE_COLUMNS`, or a value that is not a number.
    """
    import numpy as np

    from ambush_env.core.model.errors import DataError

    rows = Path(path).read_text(encoding="utf-8").splitlines()
    if not rows or tuple(rows[0].split(",")) != CURVE_COLUMNS:
        raise DataError(path, "<header>", f"a learning curve's columns are {CURVE_COLUMNS}")
    cols: dict[str, list[float]] = {c: [] for c in CURVE_COLUMNS}
    for i, row in enumerate(rows[1:], start=2):
        cells = row.split(",")
        if len(cells) != len(CURVE_COLUMNS):
            raise DataError(path, f"line {i}", f"{len(CURVE_COLUMNS)} values, got {len(cells)}")
        for c, v in zip(CURVE_COLUMNS, cells, strict=True):
            try:
                cols[c].append(float(v) if v != "" else float("nan"))
            except ValueError:
                raise DataError(path, f"line {i}: {c}", f"not a number: {v!r}") from None
    return {c: np.asarray(v, dtype=np.float64) for c, v in cols.items()}


def smoothed(curve: dict[str, Any], grid: Any, window: int, column: str = "vp") -> Any:
    """One run's ``column`` on ``grid`` (env steps): at each grid point the mean of the values
    logged in the ``window`` env steps up to it; NaN where none was logged (before the run's
    first point, or past its last)."""
    import numpy as np

    x, y = curve["env_steps"], curve[column]
    out = np.full(len(grid), np.nan)
    for i, g in enumerate(grid):
        sel = (x > g - window) & (x <= g) & ~np.isnan(y)
        if sel.any() and g <= x.max():
            out[i] = y[sel].mean()
    return out


def seed_band(values: Any) -> tuple[Any, Any, Any]:
    """Mean and 95 % band over seeds of a ``(seeds, points)`` array, per point: ⚙ Student's t
    interval ``mean ± t(0.975, n − 1) · s / √n`` over the seeds with a value there (a band
    needs two; with one the band is the line itself). Returns ``(mean, low, high)``."""
    import numpy as np
    from scipy.stats import t as student_t

    v = np.asarray(values, dtype=np.float64)
    mean, low, high = (np.full(v.shape[1], np.nan) for _ in range(3))
    for j in range(v.shape[1]):
        col = v[~np.isnan(v[:, j]), j]
        if col.size == 0:
            continue
        half = (
            float(student_t.ppf(0.975, col.size - 1)) * col.std(ddof=1) / math.sqrt(col.size)
            if col.size > 1
            else 0.0
        )
        mean[j], low[j], high[j] = col.mean(), col.mean() - half, col.mean() + half
    return mean, low, high


def plot_seed_curves(
    methods: dict[str, list[str | Path]],
    path: str | Path,
    grid_step: int = 10_000,
    window: int = 20_000,
    title: str = "learning curves: mean and 95 % band over training seeds",
) -> Path:
    """One figure of the learning curves of several methods (``label -> its runs' curve
    CSVs``): per method the mean over its seeds of the smoothed training-episode VP and win
    rate (:func:`smoothed`) with the 95 % band (:func:`seed_band`), against env steps
    (demonstrations included), the number of seeds in the legend.

    Raises:
        ValueError: a method without runs.
    """
    import numpy as np

    curves = {m: [read_curve_csv(p) for p in ps] for m, ps in methods.items()}
    empty = [m for m, cs in curves.items() if not cs]
    if empty:
        raise ValueError(f"methods without a learning curve: {', '.join(empty)}")
    top = max(c["env_steps"].max() for cs in curves.values() for c in cs)
    grid = np.arange(grid_step, top + grid_step, grid_step)
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for label, cs in curves.items():
        for ax, col in zip(axes, ("vp", "win"), strict=True):
            vals = np.stack([smoothed(c, grid, window, col) for c in cs])
            mean, lo, hi = seed_band(vals)
            if col == "win":  # a rate's band stays in [0, 1]
                lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
            line = ax.plot(grid, mean, label=f"{label} ({len(cs)} seeds)", linewidth=1.5)
            ax.fill_between(grid, lo, hi, alpha=0.2, color=line[0].get_color())
            ax.set_xlim(0, top)
    for ax, name in zip(
        axes, ("mean VP of training episodes", "win rate of training episodes"), strict=True
    ):
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("env steps (demonstrations + PPO)")
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)), fontsize=9)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, 0.1, 1, 0.93))
    out = _save(fig, Path(path))
    plt.close(fig)
    return out
