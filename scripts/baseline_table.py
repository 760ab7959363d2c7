"""The baseline results table (issue 14, done-when 3; docs/TRAINING.md, and the README's
headline rows) from ``baseline`` suite results.

Usage: python scripts/baseline_table.py RESULT.json [RESULT.json ...]  (one per agent, as
``ambush bench --suite baseline --agent A`` writes them). Prints a markdown table: per agent
the farm_assault/regular mean VP with its 95 % percentile-bootstrap interval
(``stats.stratified_bootstrap_ci`` of the mean, one task) and its 0-VP games, the win rate
pooled over the suite's tasks (95 % Wilson) and the suite's normalised-score IQM [95 %].
"""

from __future__ import annotations

import json
import math
import sys

import numpy as np
from scipy import stats as sps


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


def mean_ci(vp: list[int]) -> tuple[float, float]:
    if len(set(vp)) == 1:
        return float(vp[0]), float(vp[0])
    r = sps.bootstrap(
        (np.asarray(vp, float),),
        np.mean,
        n_resamples=2000,
        method="percentile",
        random_state=np.random.default_rng(0),
    )
    return float(r.confidence_interval.low), float(r.confidence_interval.high)


def row(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    fa = d["missions"]["farm_assault/regular"]
    lo, hi = mean_ci(fa["vp"])
    zero = sum(1 for v in fa["vp"] if v == 0)
    k = sum(round(t["win_rate"] * t["episodes"]) for t in d["missions"].values())
    n = sum(t["episodes"] for t in d["missions"].values())
    wl, wh = wilson(k, n)
    ns = d.get("normalised_score") or {}
    iqm = ns.get("iqm")
    ci = ns.get("iqm_ci95") or [None, None]
    norm = f"{iqm:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if iqm is not None else "–"
    agent = f"{d['agent']}@{d['provenance']['agent_sha256'][:8]}"
    return (
        f"| {agent} | {fa['mean_vp']:.2f} [{lo:.2f}, {hi:.2f}] | {zero}/{fa['episodes']} "
        f"| {k / n:.3f} [{wl:.3f}, {wh:.3f}] | {norm} | {d['provenance']['git_commit'][:7]} |"
    )


if __name__ == "__main__":
    print(
        "| agent | farm_assault/regular mean VP [95 %] | games at 0 VP | win rate, all tasks "
        "[95 %] | normalised IQM [95 %] | commit |"
    )
    print("|---|---|---|---|---|---|")
    for p in sys.argv[1:]:
        print(row(p))
