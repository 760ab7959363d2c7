"""The benchmark runner (INTERFACE.md "Benchmark"): suites of missions × opponents × seeds.

A suite is a YAML file in ``configs/bench/``::

    name: smoke
    description: one line
    missions: [farm_assault]      # or "all": every shipped mission
    opponents: [regular]
    rules: standard                    # or d100 (the seed 003 vehicle-combat module)
    seeds: {start: 10000, count: 20}   # evaluation seeds, held apart from training seeds

:func:`run_bench` plays every (mission, opponent, seed) with one agent (optionally in worker
processes), and returns the result dict whose schema INTERFACE.md fixes; :func:`write_outputs`
writes it atomically as JSON, refreshes the Markdown leaderboard of the output folder and
draws a PNG when matplotlib is installed. Scores are VP and results, never rewards.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ambush_env.core.data import Frozen, config_dir, load_model
from ambush_env.core.errors import ScenarioError

DEFAULT_SUITE = "smoke"
DEFAULT_RULES = "standard"
Rules = Literal["standard", "d100"]  # the rule sets of AmbushEnv(rules=...) (core ctx.RULES)
STAT_KEYS = ("us_killed", "us_incapacitated", "us_wounded", "germans_killed", "germans_captured")


class SeedRange(Frozen):
    start: int = Field(ge=0)
    count: int = Field(ge=1)


class Suite(Frozen):
    """Schema of a benchmark suite file (``configs/bench/*.yaml``).

    ``rules`` is ``"standard"`` (the Hit Charts) or ``"d100"`` (seed 003); any other value is a
    DataError naming the file and the ``rules`` field.
    """

    name: str
    description: str = ""
    missions: list[str] | Literal["all"]
    opponents: list[str] = ["regular"]
    rules: Rules = DEFAULT_RULES
    seeds: SeedRange

    def mission_ids(self) -> list[str]:
        from ambush_env import list_missions

        known = list_missions()
        if self.missions == "all":
            return known
        unknown = [m for m in self.missions if m not in known]
        if unknown:
            raise ScenarioError(f"suite {self.name!r}: unknown missions {unknown}; known: {', '.join(known)}")
        return list(self.missions)


def suite_path(name: str) -> Path:
    """The file of a suite: a path, or ``configs/bench/NAME.yaml`` (cwd first, then the repo).

    Raises:
        ScenarioError: no such suite (the message lists the known ones).
    """
    p = Path(name)
    if p.suffix in (".yaml", ".yml") and p.exists():
        return p
    for folder in (Path.cwd() / "configs" / "bench", config_dir("bench")):
        cand = folder / f"{name}.yaml"
        if cand.exists():
            return cand
    known = sorted(q.stem for q in config_dir("bench").glob("*.yaml"))
    raise ScenarioError(f"unknown benchmark suite {name!r}; known: {', '.join(known)}")


def load_suite(name: str) -> Suite:
    """Load and validate a suite. Raises ScenarioError / DataError (file and field)."""
    return load_model(Suite, suite_path(name))


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def agent_label(agent_spec: str) -> str:
    """The agent's name in results: ``random``, ``heuristic``, or for a model its file's stem
    (``runs/smoke/final_model.zip`` → ``ppo-smoke``, named after its run folder)."""
    if not agent_spec.endswith(".zip"):
        return agent_spec
    p = Path(agent_spec)
    return f"ppo-{p.parent.name}" if p.stem == "final_model" and p.parent.name else p.stem


# -- provenance ------------------------------------------------------------------------------
#: the source file of each scripted agent (its hash is the agent's identity in results)
SCRIPTED_SOURCES = {"random": "random_agent.py", "do_nothing": "do_nothing.py",
                    "heuristic": "heuristic.py"}


def agent_sha256(agent_spec: str) -> str:
    """The agent's identity: a model file's sha256, or for a scripted agent the sha256 of its
    source file and the package version (``ambush_env.__version__``)."""
    import hashlib

    import ambush_env

    h = hashlib.sha256()
    if agent_spec in SCRIPTED_SOURCES:
        import agents

        h.update(ambush_env.__version__.encode())
        h.update((Path(agents.__file__).parent / SCRIPTED_SOURCES[agent_spec]).read_bytes())
        return h.hexdigest()
    with open(agent_spec, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def git_commit() -> tuple[str, bool | None]:
    """``(commit, dirty)`` of the checkout the package runs from; ``("unknown", None)``
    outside a git checkout (an installed package) or without git."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return "unknown", None
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                     "--untracked-files=no"], capture_output=True, text=True,
                                    timeout=10, check=True).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return "unknown", None
    return commit or "unknown", dirty


def provenance(agent_spec: str, agent: Any, suite: Suite, count: int, missions: list[str]
               ) -> dict[str, Any]:
    """Where a result comes from (INTERFACE.md "Benchmark"): the agent's hash, the git commit,
    the date (UTC), whether the policy is deterministic (⚙ a scripted agent's seeded random
    tie-breaks count as stochastic; a PPO policy as loaded), whether the whole suite ran, and
    the env id of each mission with the id version."""
    from datetime import datetime, timezone

    from ambush_env.env.registration import VERSION, env_id

    commit, dirty = git_commit()
    return {
        "agent_sha256": agent_sha256(agent_spec),
        "git_commit": commit,
        "git_dirty": dirty,
        "created": datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace(
            "+00:00", "Z"),
        "deterministic_policy": bool(getattr(agent, "deterministic", False)),
        "full_suite": count == suite.seeds.count,
        "episodes_per_task": count,
        "env_ids": {m: env_id(m) for m in missions},
        "env_version": f"v{VERSION}",
    }


# -- workers ---------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _play(task: tuple[str, str, str, str, int]) -> dict:
    """Play one episode (runs in the main process or a worker; envs/agents cached)."""
    from agents import make_agent
    from agents.evaluate import make_env, run_episode

    agent_spec, mission, opponent, rules, seed = task
    key = (mission, opponent, rules)
    env = _WORKER.get(key)
    if env is None:
        env = _WORKER[key] = make_env(mission, opponent, rules)
    agent = _WORKER.get(("agent", agent_spec))
    if agent is None:
        agent = _WORKER[("agent", agent_spec)] = make_agent(agent_spec)
    return run_episode(env, agent, seed).to_dict()


def _summarise(episodes: list[dict]) -> dict[str, Any]:
    from agents.evaluate import result_value

    n = len(episodes)
    wins = sum(e["won"] for e in episodes)
    lo, hi = wilson_interval(wins, n)

    def mean(values) -> float:
        return round(sum(values) / n, 4) if n else 0.0

    out: dict[str, Any] = {
        "episodes": n,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "mean_vp": mean(e["vp"] for e in episodes),
        "mean_result": mean(result_value(e["result"]) for e in episodes),
        "mean_steps": mean(e["steps"] for e in episodes),
    }
    for k in STAT_KEYS:
        out[k] = mean(e["stats"].get(k, 0) for e in episodes)
    return out


def run_bench(
    agent_spec: str,
    suite: str | Suite = DEFAULT_SUITE,
    episodes: int | None = None,
    workers: int = 1,
    progress: bool = True,
) -> dict[str, Any]:
    """Run a suite with one agent.

    Args:
        agent_spec: ``"random"``, ``"heuristic"`` or a model ``.zip`` path.
        suite: a suite name, path or :class:`Suite`.
        episodes: play only the first N seeds of the suite's range.
        workers: worker processes (1 = in this process).
        progress: show a tqdm progress bar.

    Returns:
        The result dict of INTERFACE.md plus two private keys, ``_episodes`` (one record per
        episode) and ``_wall_seconds``, which :func:`public` strips before writing.

    Raises:
        ScenarioError: unknown suite or mission; ValueError: unknown agent.
    """
    from tqdm import tqdm

    import ambush_env

    s = suite if isinstance(suite, Suite) else load_suite(suite)
    if episodes is not None and not 1 <= int(episodes) <= s.seeds.count:
        raise ScenarioError(f"suite {s.name!r} has {s.seeds.count} seeds "
                            f"({s.seeds.start}-{s.seeds.start + s.seeds.count - 1}); "
                            f"--episodes must be 1-{s.seeds.count}, got {episodes}")
    count = s.seeds.count if episodes is None else int(episodes)
    seeds = list(range(s.seeds.start, s.seeds.start + count))
    missions = s.mission_ids()
    tasks = [(agent_spec, m, o, s.rules, seed) for m in missions for o in s.opponents for seed in seeds]
    t0 = time.perf_counter()
    bar = tqdm(total=len(tasks), desc=f"bench {s.name} [{agent_label(agent_spec)}]", unit="ep", disable=not progress)
    results: list[dict] = []
    if workers <= 1:
        for t in tasks:
            results.append(_play(t))
            bar.update(1)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        with ctx.Pool(processes=workers) as pool:
            for r in pool.imap_unordered(_play, tasks, chunksize=1):
                results.append(r)
                bar.update(1)
    bar.close()
    wall = time.perf_counter() - t0
    from agents import make_agent

    prov = provenance(agent_spec, make_agent(agent_spec), s, count, missions)
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in sorted(results, key=lambda e: (e["mission"], e["opponent"], e["seed"])):
        groups[f"{r['mission']}/{r['opponent']}"].append(r)
    steps = sum(r["steps"] for r in results)
    env_time = sum(r["env_seconds"] for r in results)
    return {
        "suite": s.name,
        "agent": agent_label(agent_spec),
        "rules": s.rules,
        "missions": {k: _summarise(v) for k, v in groups.items()},
        "steps_per_second": round(steps / env_time, 1) if env_time > 0 else 0.0,
        "seeds": [seeds[0], seeds[-1]],
        "version": ambush_env.__version__,
        "provenance": prov,
        "_episodes": results,
        "_wall_seconds": wall,
    }


# -- outputs ---------------------------------------------------------------------------------
def public(result: dict) -> dict:
    """The result without its private (``_``-prefixed) keys: the INTERFACE.md schema."""
    return {k: v for k, v in result.items() if not k.startswith("_")}


def write_json_atomic(obj: Any, path: str | Path) -> Path:
    """Write JSON to a temporary file in the same folder, then rename it over ``path``."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=2)
            f.write("\n")
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; results are ordinary readable files
        if p.is_dir():
            raise IsADirectoryError(f"{p} is a folder: give a file name for the JSON")
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def format_table(result: dict) -> str:
    """A plain-text table of one result (printed by ``ambush bench``)."""
    per_speed: dict[str, float] = {}
    for k, eps in _group_episodes(result).items():
        t = sum(e["env_seconds"] for e in eps)
        per_speed[k] = sum(e["steps"] for e in eps) / t if t > 0 else 0.0
    head = (
        f"{'mission/opponent':<28} {'eps':>4} {'win rate [95% CI]':>22} {'VP':>7} {'result':>7} "
        f"{'steps':>7} {'US K/I/W':>15} {'G K/C':>10} {'steps/s':>9}"
    )
    lines = [f"suite {result['suite']} | agent {result['agent']} | rules {result['rules']} | "
             f"seeds {result['seeds'][0]}-{result['seeds'][1]}", head, "-" * len(head)]
    for k, m in result["missions"].items():
        lo, hi = m["win_rate_ci95"]
        lines.append(
            f"{k:<28} {m['episodes']:>4} {m['win_rate']:>8.2f} [{lo:.2f}, {hi:.2f}] {m['mean_vp']:>7.2f} "
            f"{m['mean_result']:>7.2f} {m['mean_steps']:>7.1f} "
            f"{m['us_killed']:>4.1f}/{m['us_incapacitated']:.1f}/{m['us_wounded']:.1f} "
            f"{m['germans_killed']:>5.1f}/{m['germans_captured']:.1f} {per_speed.get(k, 0.0):>9.0f}"
        )
    lines.append(f"env steps per second: {result['steps_per_second']:.0f}")
    return "\n".join(lines)


def _group_episodes(result: dict) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for e in result.get("_episodes", []):
        groups[f"{e['mission']}/{e['opponent']}"].append(e)
    return groups


def result_rules(result: dict) -> str:
    """The rules of a result (``"standard"`` for a JSON written before the field was shown)."""
    return str(result.get("rules") or DEFAULT_RULES)


def agent_key(result: dict) -> str:
    """The agent's short hash in names and rows: the first 8 hex digits of its sha256 ("" for
    a result written before results carried their provenance)."""
    return str((result.get("provenance") or {}).get("agent_sha256", ""))[:8]


def is_full(result: dict) -> bool:
    """Whether the result covers its suite's whole seed range (older results: assumed)."""
    return bool((result.get("provenance") or {}).get("full_suite", True))


def result_stem(result: dict) -> str:
    """The file stem of a result in the results folder, its key (INTERFACE.md): suite, agent
    label and agent hash, then the rules when not ``"standard"``, then ``partial-<N>`` for a
    run of N of the suite's seeds: ``smoke__random__1a2b3c4d``,
    ``vehicles_d100__heuristic__5e6f7a8b__d100``, ``smoke__random__1a2b3c4d__partial-3``.

    So a partial run never replaces a full-suite result, two models under one label keep two
    files (and two leaderboard rows), and one agent's results under two rule sets never
    overwrite each other.
    """
    stem = f"{result['suite']}__{result['agent']}"
    key = agent_key(result)
    if key:
        stem += f"__{key}"
    rules = result_rules(result)
    if rules != DEFAULT_RULES:
        stem += f"__{rules}"
    if not is_full(result):
        stem += f"__partial-{(result.get('provenance') or {}).get('episodes_per_task', 0)}"
    return stem


def leaderboard_markdown(results: list[dict]) -> str:
    """A Markdown leaderboard: one table per suite, rows by mission/opponent, best agent first.

    Every row names its rules (``standard`` or ``d100``), so the paired suites ``vehicles``
    and ``vehicles_d100`` read side by side, and results of one suite under two rule sets stay
    two rows.
    """
    by_suite: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by_suite[r["suite"]].append(r)
    out = ["# Ambush! benchmark leaderboard", "",
           "Win rate with its 95% Wilson interval; VP and result are means over the seeds shown. "
           "An agent is its label and the first 8 digits of its hash (model file or scripted "
           "source); a partial run (fewer seeds than its suite) is marked and never replaces a "
           "full one.", ""]
    for suite in sorted(by_suite):
        out += [f"## Suite `{suite}`", "",
                "| mission/opponent | agent | rules | seeds | episodes | win rate | 95% CI | mean VP | mean result | mean steps | steps/s | commit | date |",
                "|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---|---|"]
        rows = []
        for r in by_suite[suite]:
            prov = r.get("provenance") or {}
            key = agent_key(r)
            who = f"{r['agent']}@{key}" if key else r["agent"]
            seeds = r.get("seeds") or ["?", "?"]
            span = f"{seeds[0]}-{seeds[1]}" + ("" if is_full(r) else " (partial)")
            commit = str(prov.get("git_commit", "unknown"))[:10] + ("+" if prov.get("git_dirty") else "")
            date = str(prov.get("created", ""))[:10]
            for k, m in r["missions"].items():
                rows.append((k, -m["win_rate"], -m["mean_vp"], who, result_rules(r), span, m,
                             r["steps_per_second"], commit, date))
        for k, _, _, who, rules, span, m, sps, commit, date in sorted(rows, key=lambda x: x[:6]):
            lo, hi = m["win_rate_ci95"]
            out.append(
                f"| {k} | {who} | {rules} | {span} | {m['episodes']} | {m['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | "
                f"{m['mean_vp']:.2f} | {m['mean_result']:.3f} | {m['mean_steps']:.1f} | {sps:.0f} | {commit} | {date} |"
            )
        out.append("")
    return "\n".join(out)


def update_leaderboard(out_dir: str | Path) -> Path:
    """Rebuild ``leaderboard.md`` (and ``leaderboard.png`` with matplotlib) from the JSON files."""
    d = Path(out_dir)
    results = []
    for p in sorted(d.glob("*.json")):
        try:
            r = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(r, dict) and {"suite", "agent", "missions"} <= set(r):
            results.append(r)
    md = d / "leaderboard.md"
    tmp = md.with_suffix(".md.tmp")
    tmp.write_text(leaderboard_markdown(results), encoding="utf-8")
    os.replace(tmp, md)
    _plot(results, d / "leaderboard.png")
    return md


def _who(result: dict) -> str:
    """An agent's row label: its label and short hash (``random@39c12a5f``)."""
    key = agent_key(result)
    return f"{result['agent']}@{key}" if key else result["agent"]


def _plot_suite(result: dict) -> str:
    """The suite's label in the plot: its name, with ``[rules]`` when not standard."""
    rules = result_rules(result)
    return result["suite"] if rules == DEFAULT_RULES else f"{result['suite']}[{rules}]"


def _plot(results: list[dict], path: Path) -> Path | None:
    """Win rates with 95% intervals per mission/opponent and agent (skipped without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    if not results:
        return None
    keys = sorted({f"{_plot_suite(r)}:{k}" for r in results for k in r["missions"]})
    agents = sorted({_who(r) for r in results})
    fig, ax = plt.subplots(figsize=(max(6, 1.5 * len(keys) * max(1, len(agents)) / 2), 4))
    width = 0.8 / max(1, len(agents))
    for j, agent in enumerate(agents):
        xs, ys, err = [], [], [[], []]
        for i, key in enumerate(keys):
            suite, mk = key.split(":", 1)
            for r in results:
                if _who(r) == agent and _plot_suite(r) == suite and mk in r["missions"]:
                    m = r["missions"][mk]
                    xs.append(i + j * width)
                    ys.append(m["win_rate"])
                    lo, hi = m["win_rate_ci95"]
                    err[0].append(max(0.0, m["win_rate"] - lo))
                    err[1].append(max(0.0, hi - m["win_rate"]))
        if xs:
            ax.bar(xs, ys, width=width, yerr=err, capsize=3, label=agent)
    ax.set_xticks([i + width * (len(agents) - 1) / 2 for i in range(len(keys))])
    ax.set_xticklabels(keys, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    tmp = path.with_name(path.stem + ".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def write_outputs(result: dict, json_path: str | Path | None = None, out_dir: str | Path = "results/bench") -> Path:
    """Write the JSON (atomically) and refresh the leaderboard of ``out_dir``; returns the JSON
    path. When ``json_path`` lies outside ``out_dir``, the results folder gets its own copy
    under the result's key (:func:`result_stem`), so the leaderboard is built from that
    folder's results only, a partial run never replaces a full one, and two models of one
    label or one agent under two rule sets never overwrite each other. The result's schema:
    ``docs/result.schema.json``."""
    own = Path(out_dir) / f"{result_stem(result)}.json"
    own.parent.mkdir(parents=True, exist_ok=True)
    data = public(result)
    p = write_json_atomic(data, json_path if json_path is not None else own)
    if p.parent.resolve() != own.parent.resolve():  # elsewhere: the results folder keeps a copy
        write_json_atomic(data, own)
    update_leaderboard(own.parent)
    return p
