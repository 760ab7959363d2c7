"""The benchmark runner (docs/API.md "Benchmark"): suites of missions × opponents × seeds.

A suite is a YAML file in ``configs/bench/``::

    name: smoke
    description: one line
    missions: [farm_assault]      # or "all": every shipped mission
    opponents: [regular]
    rules: standard                    # or d100 (the seed 003 vehicle-combat module)
    seeds: {start: 10000, count: 20}   # evaluation seeds, held apart from training seeds

or several blocks under ``parts:`` (each with its own missions, opponents and seeds; see
``baseline.yaml``). A mission entry may also be ``procedural`` or a mission file's path.

:func:`run_bench` plays every (mission, opponent, seed) with one agent (in this process,
worker processes or Ray tasks), and returns the result dict whose schema docs/API.md fixes
(``docs/result.schema.json``), with normalised scores where ``configs/bench/reference/vp.yaml``
has a reference (:mod:`ambush_env.stats`); :func:`write_outputs` writes it atomically as
JSON, refreshes the Markdown leaderboard of the output folder and draws one PNG per suite
when matplotlib is installed (:mod:`ambush_env.plots`). Scores are VP and results, never
rewards.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections import defaultdict
from datetime import UTC
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, PrivateAttr, model_validator

from ambush_env.core.model.errors import ScenarioError
from ambush_env.core.world.data import Frozen, config_dir

DEFAULT_SUITE = "smoke"
Rules = Literal["standard", "d100"]  # the rule sets of AmbushEnv(rules=...) (core ctx.RULES)
DEFAULT_RULES: Rules = "standard"
STAT_KEYS = ("us_killed", "us_incapacitated", "us_wounded", "germans_killed", "germans_captured")


class SeedRange(Frozen):
    start: int = Field(ge=0)
    count: int = Field(ge=1)

    def seeds(self, episodes: int | None = None) -> list[int]:
        """The first ``episodes`` seeds of the range (all of them when None or more)."""
        n = self.count if episodes is None else min(self.count, int(episodes))
        return list(range(self.start, self.start + n))


#: the mission entry of a suite that plays ``ambush/Procedural-v4`` (a mission generated from
#: each reset seed) instead of a shipped mission
PROCEDURAL = "procedural"
#: the mission entry that plays the held-out generated missions one per seed, without
#: replacement: evaluation seed ``HELDOUT_BASE + i`` plays mission seed
#: ``HELD_OUT_SEEDS[i]`` (:func:`heldout_mission_seed`; the ``heldout`` suite)
PROCEDURAL_HELDOUT = "procedural_heldout"
#: the evaluation seed that plays the first held-out mission
HELDOUT_BASE = 10_000
GENERATED = (PROCEDURAL, PROCEDURAL_HELDOUT)


def heldout_mission_seed(seed: int) -> int:
    """The mission seed that a ``procedural_heldout`` episode of reset seed ``seed`` plays:
    ``HELD_OUT_SEEDS[seed - HELDOUT_BASE]`` (1 000 000 + i for seed 10 000 + i).

    ⚙ Each held-out mission seed is an independent draw of the generator
    (``core.play.procedural.generate``), so the first N of the pool are as random a sample as
    any N of it, each mission is played once per deck (no repeats, unlike a mission drawn from
    each reset seed), every deck meets the same missions (paired), and a reader finds one by
    its number.

    Raises:
        ScenarioError: ``seed`` outside ``HELDOUT_BASE .. HELDOUT_BASE + len(HELD_OUT_SEEDS) - 1``.
    """
    from ambush_env.core.play.procedural import HELD_OUT_SEEDS

    i = int(seed) - HELDOUT_BASE
    if not 0 <= i < len(HELD_OUT_SEEDS):
        raise ScenarioError(
            f"{PROCEDURAL_HELDOUT}: seed {seed} outside {HELDOUT_BASE}.."
            f"{HELDOUT_BASE + len(HELD_OUT_SEEDS) - 1} (one per held-out mission)"
        )
    return HELD_OUT_SEEDS[i]


def is_mission_path(entry: str) -> bool:
    """Whether a suite's mission entry is a mission file path (``.yaml``/``.yml`` or a
    path separator), as :class:`AmbushEnv` tells ids from paths."""
    return entry.endswith((".yaml", ".yml")) or "/" in entry or "\\" in entry


class Part(Frozen):
    """One block of a suite: missions × opponents × seeds.

    A mission entry is a shipped mission id, ``"all"`` (every shipped mission), ``procedural``
    (``ambush/Procedural-v4``: a held-out mission drawn from each reset seed),
    ``procedural_heldout`` (the held-out missions one per seed, :func:`heldout_mission_seed`)
    or the path of a mission file (relative paths: from the working folder, else from the
    suite file's folder).
    """

    missions: list[str] | Literal["all"]
    opponents: list[str] = ["regular"]
    seeds: SeedRange


class Suite(Frozen):
    """Schema of a benchmark suite file (``configs/bench/*.yaml``).

    Either one block (``missions``, ``opponents``, ``seeds``) or ``parts``, a list of blocks
    (a suite of several seed ranges: ``baseline``); a (mission, opponent) in two parts plays
    the union of their seeds. ``rules`` is ``"standard"`` (the Hit Charts) or ``"d100"``
    (seed 003); any other value, or both or neither of ``missions`` and ``parts``, is a
    DataError naming the file and the field. ``reference`` names the suite's reference file,
    ``configs/bench/reference/<reference>.yaml`` (default: the ``standard`` suite's
    ``vp.yaml``): the mean VPs its normalised score reads and ``--update-reference`` writes.
    """

    name: str
    description: str = ""
    missions: list[str] | Literal["all"] | None = None
    opponents: list[str] = ["regular"]
    rules: Rules = DEFAULT_RULES
    seeds: SeedRange | None = None
    parts: list[Part] | None = Field(default=None, min_length=1)
    reference: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]+$")
    _folder: Path | None = PrivateAttr(default=None)
    _path: Path | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _one_form(self) -> Suite:
        from ambush_env.core.world.data import FieldProblem

        if self.parts is not None:
            if self.missions is not None or self.seeds is not None:
                raise FieldProblem("parts", "give either parts or missions and seeds, not both")
        elif self.missions is None or self.seeds is None:
            raise FieldProblem(
                "missions" if self.missions is None else "seeds",
                "required (or give parts: a list of missions/opponents/seeds)",
            )
        from ambush_env.core.play.procedural import HELD_OUT_SEEDS

        top = HELDOUT_BASE + len(HELD_OUT_SEEDS)
        for part in self.blocks():
            if part.missions != "all" and PROCEDURAL_HELDOUT in part.missions:
                lo, hi = part.seeds.start, part.seeds.start + part.seeds.count
                if lo < HELDOUT_BASE or hi > top:
                    raise FieldProblem(
                        "seeds",
                        f"{PROCEDURAL_HELDOUT} plays held-out mission i at seed "
                        f"{HELDOUT_BASE} + i: its seeds must lie in {HELDOUT_BASE}..{top - 1}, "
                        f"got {lo}..{hi - 1}",
                    )
        return self

    def reference_file(self) -> Path:
        """The reference file of this suite (:attr:`reference`; default
        :func:`ambush_env.stats.reference_path`, the standard suite's)."""
        from ambush_env import stats

        if self.reference is None:
            return Path(stats.reference_path())
        return config_dir("bench") / "reference" / f"{self.reference}.yaml"

    def blocks(self) -> list[Part]:
        """The suite's blocks (one for a single-block suite)."""
        if self.parts is not None:
            return list(self.parts)
        assert self.missions is not None and self.seeds is not None
        return [Part(missions=self.missions, opponents=self.opponents, seeds=self.seeds)]

    def mission_ids(self) -> list[str]:
        """The mission entries of every block, each once, in order (``all`` expanded).

        Raises:
            ScenarioError: an unknown mission id (the message lists the known ones).
        """
        from ambush_env import list_missions

        known = list_missions()
        out: list[str] = []
        for part in self.blocks():
            entries = known if part.missions == "all" else part.missions
            unknown = [
                m
                for m in entries
                if m not in known and m not in GENERATED and not is_mission_path(m)
            ]
            if unknown:
                raise ScenarioError(
                    f"suite {self.name!r}: unknown missions {unknown}; known: "
                    f"{', '.join(known)} (or {PROCEDURAL}, {PROCEDURAL_HELDOUT}, or a mission "
                    "file path)"
                )
            out += [self.resolve(m) for m in entries]
        return list(dict.fromkeys(out))

    def resolve(self, entry: str) -> str:
        """A mission entry as the env takes it: a relative file path found from the working
        folder, else from the suite file's folder; ids unchanged."""
        if not is_mission_path(entry):
            return entry
        p = Path(entry)
        if (
            not p.is_absolute()
            and not p.exists()
            and self._folder is not None
            and (self._folder / p).exists()
        ):
            p = self._folder / p
        return str(p)

    def max_count(self) -> int:
        """The largest seed count of any block (the bound of ``--episodes``)."""
        return max(part.seeds.count for part in self.blocks())

    def tasks(self, episodes: int | None = None) -> dict[tuple[str, str], list[int]]:
        """``(mission entry, opponent) -> seeds`` (sorted, each once): the first ``episodes``
        seeds of each block, the union where blocks overlap."""
        self.mission_ids()  # unknown ids fail first
        out: dict[tuple[str, str], set[int]] = {}
        from ambush_env import list_missions

        for part in self.blocks():
            entries = list_missions() if part.missions == "all" else part.missions
            for m in entries:
                for o in part.opponents:
                    out.setdefault((self.resolve(m), o), set()).update(part.seeds.seeds(episodes))
        return {k: sorted(v) for k, v in out.items()}

    def is_full(self, episodes: int | None) -> bool:
        """Whether ``--episodes`` plays every seed of every block."""
        return episodes is None or int(episodes) >= self.max_count()


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
    from ambush_env.core.world.data import read_yaml, validate_file

    path = suite_path(name)
    suite = validate_file(Suite, read_yaml(path), path)
    suite._folder = path.resolve().parent
    suite._path = path.resolve()
    return suite


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


#: the label suffix of a model played by its sampled policy (``ambush bench --sample``)
SAMPLED = "-sampled"


def sampled_kwargs(sample: bool) -> dict[str, Any]:
    """The :func:`ambush_env.agents.make_agent` arguments of a model played sampled."""
    return {"deterministic": False} if sample else {}


def agent_label(agent_spec: str, sample: bool = False) -> str:
    """The agent's name in results: ``random``, ``heuristic``, or for a model its file's stem
    (``runs/smoke/final_model.zip`` → ``ppo-smoke``, named after its run folder)."""
    if not agent_spec.endswith(".zip"):
        return agent_spec
    p = Path(agent_spec)
    label = f"ppo-{p.parent.name}" if p.stem == "final_model" and p.parent.name else p.stem
    return label + (SAMPLED if sample else "")


# -- provenance ------------------------------------------------------------------------------
#: the source file of each scripted agent (its hash is the agent's identity in results)
SCRIPTED_SOURCES = {
    "random": "random_agent.py",
    "do_nothing": "do_nothing.py",
    "heuristic": "heuristic.py",
    # the probes (issue 25) share one source file, so one hash: the name tells them apart
    "withdraw": "probes.py",
    "rush": "probes.py",
    "stall": "probes.py",
    "drive_off": "probes.py",
}


def agent_sha256(agent_spec: str) -> str:
    """The agent's identity: a model file's sha256, or for a scripted agent the sha256 of its
    source file and the package version (``ambush_env.__version__``)."""
    import hashlib

    import ambush_env

    h = hashlib.sha256()
    if agent_spec in SCRIPTED_SOURCES:
        from ambush_env import agents

        h.update(ambush_env.__version__.encode())
        h.update((Path(agents.__file__).parent / SCRIPTED_SOURCES[agent_spec]).read_bytes())
        return h.hexdigest()
    with open(agent_spec, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


#: the distributions whose versions every result records (``provenance.libraries``, issue 26):
#: what plays and what learns; a missing one (an extra not installed) is null
LIBRARIES = (
    "ambush_env",
    "numpy",
    "gymnasium",
    "pydantic",
    "scipy",
    "torch",
    "stable_baselines3",
    "sb3_contrib",
)


def library_versions() -> dict[str, str | None]:
    """``{"python": "3.11.9", "numpy": "2.2.1", ...}``: the interpreter's version and each of
    :data:`LIBRARIES`' installed version (``importlib.metadata``, so nothing heavy is
    imported), None where it is not installed."""
    import platform
    from importlib import metadata

    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def tree_sha256(folder: Path) -> str:
    """The sha256 of every file under ``folder``: each file's path relative to it (POSIX
    form, sorted) and its bytes, so renaming, adding or editing a file changes it. Caches
    (``__pycache__``) are left out."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = f.relative_to(folder).as_posix().encode()
        h.update(len(rel).to_bytes(4, "big") + rel)
        data = f.read_bytes()
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


@functools.cache
def data_sha256() -> str:
    """:func:`tree_sha256` of the package's game data (``ambush_env/data``: maps, missions,
    cards, tables), computed once a process: two results with one value were played on the
    same game numbers."""
    from ambush_env.core.world.data import DATA_DIR

    return tree_sha256(Path(DATA_DIR))


def suite_sha256(suite: Suite) -> str:
    """The sha256 of the suite's file (its bytes), or for a suite built in code (no file) of
    its fields as canonical JSON."""
    import hashlib

    if suite._path is not None and suite._path.exists():
        return hashlib.sha256(suite._path.read_bytes()).hexdigest()
    text = json.dumps(suite.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def model_training(agent_spec: str, agent: Any) -> dict[str, Any] | None:
    """For a model file, what trained it: the run's ``config.yaml`` beside the model (written
    by ``ambush train``; None when absent), the environment steps PPO trained it for
    (``num_timesteps``, None when the agent does not say) and, when the run began with a
    behaviour-cloning warm start, its ``bc.json`` (``warm_start``: the heuristic's steps it
    imitated, on top of PPO's). None for a scripted agent."""
    if agent_spec in SCRIPTED_SOURCES or not agent_spec.endswith(".zip"):
        return None
    from ambush_env.core.world.data import read_yaml

    cfg_path = Path(agent_spec).resolve().parent / "config.yaml"
    config = read_yaml(cfg_path) if cfg_path.exists() else None
    steps = getattr(getattr(agent, "model", None), "num_timesteps", None)
    bc_path = cfg_path.parent / "bc.json"
    return {
        "config": config,
        "env_steps": int(steps) if steps is not None else None,
        **({"warm_start": json.loads(bc_path.read_text())} if bc_path.exists() else {}),
    }


def git_commit() -> tuple[str, bool | None]:
    """``(commit, dirty)`` of the checkout the package runs from; ``("unknown", None)``
    outside a git checkout (an installed package) or without git."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return "unknown", None
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = bool(
            subprocess.run(
                ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            ).stdout.strip()
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown", None
    return commit or "unknown", dirty


def task_keys(entries: list[str]) -> dict[str, str]:
    """The result key of each mission entry: a shipped id as it is, ``procedural``, or a
    mission file's own ``id``.

    Raises:
        ScenarioError: two entries give one key (e.g. a file whose id is a shipped mission's).
        DataError: a mission file that does not load.
    """
    from ambush_env.core.world.missions import load_mission

    keys: dict[str, str] = {}
    for e in entries:
        keys[e] = load_mission(e).id if is_mission_path(e) else e
    seen: dict[str, str] = {}
    for e, k in keys.items():
        if k in seen:
            raise ScenarioError(
                f"missions {seen[k]!r} and {e!r} of one suite are both {k!r}: "
                "give the mission file another id"
            )
        seen[k] = e
    return keys


def task_env_id(entry: str) -> str:
    """The Gymnasium id that plays a suite's mission entry: the shipped mission's id,
    ``ambush/Procedural-v4``, or for a mission file ``ambush/Ambush-v4`` (``mission=PATH``)."""
    from ambush_env.env.registration import ambush_id, env_id, procedural_id

    if entry in GENERATED:
        return procedural_id()
    return ambush_id() if is_mission_path(entry) else env_id(entry)


def provenance(
    agent_spec: str,
    agent: Any,
    suite: Suite,
    episodes: int | None,
    tasks: dict[tuple[str, str], list[int]],
    keys: dict[str, str],
) -> dict[str, Any]:
    """Where a result comes from (docs/API.md "Benchmark"): the agent's hash, the git commit,
    the date (UTC), whether the policy is deterministic (⚙ a scripted agent's seeded random
    tie-breaks count as stochastic; a PPO policy as loaded), whether the whole suite ran, the
    most seeds any (mission, opponent) played, and the env id of each mission with the id
    version."""
    from datetime import datetime

    from ambush_env.env.registration import VERSION

    commit, dirty = git_commit()
    return {
        "agent_sha256": agent_sha256(agent_spec),
        "git_commit": commit,
        "git_dirty": dirty,
        "created": datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "deterministic_policy": bool(getattr(agent, "deterministic", False)),
        "full_suite": suite.is_full(episodes),
        "episodes_per_task": max(len(v) for v in tasks.values()),
        "env_ids": {keys[e]: task_env_id(e) for e in dict.fromkeys(e for e, _ in tasks)},
        "env_version": f"v{VERSION}",
        "libraries": library_versions(),
        "suite_sha256": suite_sha256(suite),
        "data_sha256": data_sha256(),
        **({"training": training} if (training := model_training(agent_spec, agent)) else {}),
        **(
            {"procedural_missions": procedural_kwargs().get("mission_seeds", "reset_seed")}
            if any(e == PROCEDURAL for e, _ in tasks)
            else {}
        ),
        **(
            {"heldout_missions": "one_per_seed"}
            if any(e == PROCEDURAL_HELDOUT for e, _ in tasks)
            else {}
        ),
    }


# -- workers ---------------------------------------------------------------------------------
_WORKER: dict[Any, Any] = {}
Task = tuple[
    Any, ...
]  # (agent spec, mission entry, opponent, rules, seed[, replay path, return replay])


def _play(task: Task) -> dict:
    """Play one episode (runs in the main process, a worker process or a Ray task; envs and
    agents cached per process). The record's ``entry`` is the suite's mission entry.

    A task may carry a replay path (``--save-replays``): the episode is recorded
    (:class:`ambush_env.replay.RecordingEnv`) and written there atomically by the process that
    played it, or, when the task's seventh item is true (Ray: the nodes may not share the
    driver's disk), returned under the record's ``_replay`` key for the driver to write."""
    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import make_env, run_episode

    agent_ref, entry, opponent, rules, seed = task[:5]
    agent_spec, sample = (agent_ref, False) if isinstance(agent_ref, str) else agent_ref
    replay_path = task[5] if len(task) > 5 else None
    key = (entry, opponent, rules)
    env = _WORKER.get(key)
    if env is None:
        if entry == PROCEDURAL:
            env = make_env(None, opponent, rules, procedural=True, **procedural_kwargs())
        elif entry == PROCEDURAL_HELDOUT:
            env = make_env(None, opponent, rules, procedural=True, mission_seeds="held_out")
        else:
            env = make_env(entry, opponent, rules)
        _WORKER[key] = env
    agent = _WORKER.get(("agent", agent_spec, sample))
    if agent is None:
        agent = _WORKER[("agent", agent_spec, sample)] = make_agent(
            agent_spec, **sampled_kwargs(sample)
        )
    options = {"mission_seed": heldout_mission_seed(seed)} if entry == PROCEDURAL_HELDOUT else None
    if replay_path is None:
        return {**run_episode(env, agent, seed, options=options).to_dict(), "entry": entry}
    from ambush_env.core.world.data import write_text_atomic
    from ambush_env.replay import RecordingEnv

    rec = RecordingEnv(env, agent_label(agent_spec, sample))
    out = {**run_episode(rec, agent, seed, options=options).to_dict(), "entry": entry}
    text = rec.recorder.text()
    if len(task) > 6 and task[6]:
        out["_replay"] = (replay_path, text)
    else:
        write_text_atomic(text, replay_path, what="replay")
    return out


def procedural_kwargs() -> dict[str, Any]:
    """The env arguments of a suite's ``procedural`` entry: ⚙ a benchmark plays the missions
    held out from training (``mission_seeds="held_out"``, ``core.play.procedural.HELD_OUT_SEEDS``;
    each reset seed draws one of them) where the env offers that choice (an older env: the
    mission is drawn from the reset seed; ``provenance.procedural_missions`` says which)."""
    import inspect

    from ambush_env.env.ambush_env import AmbushEnv

    if "mission_seeds" in inspect.signature(AmbushEnv.__init__).parameters:
        return {"mission_seeds": "held_out"}
    return {}


def _play_chunk(chunk: list[Task]) -> list[dict]:
    """Play several episodes in order (one Ray task)."""
    return [_play(t) for t in chunk]


BACKENDS = ("local", "ray")


def _run_ray(tasks: list[Task], workers: int, address: str | None, bar) -> list[dict]:
    """Play ``tasks`` as Ray tasks: on a local Ray started here with ``workers`` CPUs, or on
    the cluster at ``address`` (``auto``, ``ray://host:10001``, ``host:6379``), whose nodes
    need this package installed (and a model file at the same path). ⚙ Episodes go out in
    chunks of about ``len(tasks) / (4 × workers)`` so that each task amortises loading the
    agent; every episode is seeded, so chunking never changes a result.

    Raises:
        ModuleNotFoundError: Ray is not installed (the ``ray`` extra).
    """
    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = dict(
            include_dashboard=False, log_to_driver=False, configure_logging=False
        )
        if address is None:
            kwargs["num_cpus"] = workers
        ray.init(address=address, **kwargs)
        started = True
    try:
        play = ray.remote(num_cpus=1)(_play_chunk)
        size = max(1, math.ceil(len(tasks) / (4 * max(1, workers))))
        pending = [play.remote(tasks[i : i + size]) for i in range(0, len(tasks), size)]
        out: list[dict] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                out += part
                bar.update(len(part))
        return out
    finally:
        if started:
            ray.shutdown()


def _summarise(episodes: list[dict]) -> dict[str, Any]:
    """The metrics of one (mission, opponent) from its episodes (in seed order): docs/API.md's,
    plus the seed range and every episode's VP (``vp``, in seed order) from which the
    normalised scores and their intervals are computed again (:mod:`ambush_env.stats`)."""
    from ambush_env.agents.evaluate import result_value

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
    out["seeds"] = [episodes[0]["seed"], episodes[-1]["seed"]]
    out["vp"] = [int(e["vp"]) for e in episodes]
    return out


#: optional dependencies a result's figures need: (module, extra, the figure it drops)
OPTIONAL_FIGURES = (("scipy", "stats", "normalised_score"),)


def missing_optional() -> list[dict[str, str]]:
    """The optional dependencies that are not installed, each with its extra and the figure
    its absence leaves out of the result (``[{"dependency": "scipy", "extra": "stats",
    "drops": "normalised_score"}]``; empty when all are there). The result file records it
    (``missing_optional``) and ``ambush bench`` prints it, so a dropped figure is never silent
    (issue 26)."""
    import importlib.util

    return [
        {"dependency": mod, "extra": extra, "drops": figure}
        for mod, extra, figure in OPTIONAL_FIGURES
        if importlib.util.find_spec(mod) is None
    ]


def add_normalised(
    missions: dict[str, dict], rules: str, reference: str | Path | None = None
) -> dict[str, Any] | None:
    """Add ``normalised_score`` (``(VP − floor) / (heuristic − floor)``, floor = max(random,
    do_nothing): mean and IQM with their 95% stratified-bootstrap intervals, the floor's agent;
    see :mod:`ambush_env.stats`) to each mission summary whose reference normalises it, and
    return the aggregate over them with the ``dropped`` tasks and their reasons, the
    reference file's name and sha256 (None: no task has a reference entry, or scipy, the
    ``stats`` extra, is not installed)."""
    import hashlib

    from ambush_env import stats

    if any(m["drops"] == "normalised_score" for m in missing_optional()):
        return None
    path = Path(reference) if reference is not None else stats.reference_path()
    ref_file = stats.load_reference(path)
    refs = dict(getattr(ref_file, rules, {}) or {})
    per, agg = stats.normalised_summary(
        {k: m["vp"] for k, m in missions.items() if m.get("vp")},
        refs,
        suite=ref_file.suite or "standard",
    )
    for k, v in per.items():
        missions[k]["normalised_score"] = v
    if agg is None:
        return None
    root = Path(__file__).resolve().parent.parent
    try:
        name = str(path.resolve().relative_to(root))
    except ValueError:
        name = str(path)
    agg["reference"] = name
    agg["reference_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return agg


def run_bench(
    agent_spec: str,
    suite: str | Suite = DEFAULT_SUITE,
    episodes: int | None = None,
    workers: int = 1,
    progress: bool = True,
    backend: str = "local",
    address: str | None = None,
    save_replays: str | Path | None = None,
    sample: bool = False,
) -> dict[str, Any]:
    """Run a suite with one agent.

    Args:
        agent_spec: ``"random"``, ``"do_nothing"``, ``"heuristic"`` or a model ``.zip`` path.
        suite: a suite name, path or :class:`Suite`.
        episodes: play only the first N seeds of each block's range.
        workers: worker processes (1 = in this process), or Ray CPUs for a local Ray.
        progress: show a tqdm progress bar.
        backend: ``"local"`` (this process or a process pool) or ``"ray"`` (Ray tasks).
        address: the Ray cluster's address (``backend="ray"``; None: start a local Ray).
        save_replays: a folder: every episode is recorded there as a replay
            (:mod:`ambush_env.replay`), ``<mission key>__<opponent>__<seed>[__<rules>].jsonl``,
            each written atomically by the process that played it (Ray: by this process).
            ⚙ Recording runs inside the timed ``env.step`` calls, so the steps per second
            of such a run include it; results are otherwise the same.
        sample: play a model's sampled policy instead of its most probable order (⚙ each
            episode's sampling seeded by its reset seed, so a rerun replays it); the label gets
            :data:`SAMPLED` (``specialist_seed0-sampled``) and ``provenance`` says
            ``deterministic_policy: false``.

    Returns:
        The result dict of docs/API.md plus two private keys, ``_episodes`` (one record per
        episode) and ``_wall_seconds``, which :func:`public` strips before writing. The same
        suite gives the same result on every backend and worker count (dates and speeds aside).

    Raises:
        ScenarioError: unknown suite or mission; ValueError: unknown agent or backend, or
            ``sample`` for an agent that is not a model.
    """
    from tqdm import tqdm

    import ambush_env

    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: use {' or '.join(BACKENDS)}")
    from ambush_env.agents import check_agent_spec

    check_agent_spec(agent_spec)  # a bad name fails before the progress bar and the workers
    if sample and not agent_spec.endswith(".zip"):
        raise ValueError(
            f"--sample plays a model's sampled policy; {agent_spec!r} is no model (.zip)"
        )
    agent_ref: Any = (agent_spec, True) if sample else agent_spec
    s = suite if isinstance(suite, Suite) else load_suite(suite)
    top = s.max_count()
    if episodes is not None and not 1 <= int(episodes) <= top:
        raise ScenarioError(
            f"suite {s.name!r} has at most {top} seeds per mission; "
            f"--episodes must be 1-{top}, got {episodes}"
        )
    plan = s.tasks(episodes)
    keys = task_keys(list(dict.fromkeys(e for e, _ in plan)))
    tasks: list[Task] = [
        (agent_ref, m, o, s.rules, seed) for (m, o), seeds in plan.items() for seed in seeds
    ]
    if save_replays is not None:
        from ambush_env.replay import replay_name

        folder = Path(save_replays)
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(f"--save-replays {folder}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        tasks = [
            (*t, str(folder / replay_name(keys[t[1]], t[2], t[4], t[3])), backend == "ray")
            for t in tasks
        ]
    t0 = time.perf_counter()
    bar = tqdm(
        total=len(tasks),
        desc=f"bench {s.name} [{agent_label(agent_spec, sample)}]",
        unit="ep",
        disable=not progress,
    )
    results: list[dict] = []
    if backend == "ray":
        results = _run_ray(tasks, workers, address, bar)
    elif workers <= 1:
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
    if save_replays is not None:
        from ambush_env.core.world.data import write_text_atomic

        for r in results:  # the Ray tasks' replays, written here
            if "_replay" in r:
                write_text_atomic(r["_replay"][1], r.pop("_replay")[0], what="replay")
    wall = time.perf_counter() - t0
    from ambush_env.agents import make_agent

    prov = provenance(
        agent_spec, make_agent(agent_spec, **sampled_kwargs(sample)), s, episodes, plan, keys
    )
    order = {(m, o): k for k, (m, o) in enumerate(plan)}
    groups: dict[str, list[dict]] = {}
    for r in sorted(results, key=lambda e: (order[(e["entry"], e["opponent"])], e["seed"])):
        r["task"] = f"{keys[r['entry']]}/{r['opponent']}"
        groups.setdefault(r["task"], []).append(r)
    steps = sum(r["steps"] for r in results)
    env_time = sum(r["env_seconds"] for r in results)
    all_seeds = [seed for seeds in plan.values() for seed in seeds]
    missions = {k: _summarise(v) for k, v in groups.items()}
    normalised = add_normalised(missions, s.rules, s.reference_file())
    missing = missing_optional()
    return {
        "suite": s.name,
        "agent": agent_label(agent_spec, sample),
        "rules": s.rules,
        "missions": missions,
        "steps_per_second": round(steps / env_time, 1) if env_time > 0 else 0.0,
        "seeds": [min(all_seeds), max(all_seeds)],
        "version": ambush_env.__version__,
        "provenance": prov,
        **({"normalised_score": normalised} if normalised else {}),
        **({"missing_optional": missing} if missing else {}),
        "_episodes": results,
        "_wall_seconds": wall,
    }


# -- outputs ---------------------------------------------------------------------------------
def public(result: dict) -> dict:
    """The result without its private (``_``-prefixed) keys: the docs/API.md schema."""
    return {k: v for k, v in result.items() if not k.startswith("_")}


def write_json_atomic(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` as indented JSON to ``path`` whole or not at all
    (:func:`ambush_env.core.world.data.write_text_atomic`)."""
    from ambush_env.core.world.data import write_text_atomic

    return write_text_atomic(json.dumps(obj, indent=2) + "\n", path, what="JSON")


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
    lines = [
        f"suite {result['suite']} | agent {result['agent']} | rules {result['rules']} | "
        f"seeds {result['seeds'][0]}-{result['seeds'][1]}",
        head,
        "-" * len(head),
    ]
    for k, m in result["missions"].items():
        lo, hi = m["win_rate_ci95"]
        lines.append(
            f"{k:<28} {m['episodes']:>4} {m['win_rate']:>8.2f} [{lo:.2f}, {hi:.2f}] {m['mean_vp']:>7.2f} "
            f"{m['mean_result']:>7.2f} {m['mean_steps']:>7.1f} "
            f"{m['us_killed']:>4.1f}/{m['us_incapacitated']:.1f}/{m['us_wounded']:.1f} "
            f"{m['germans_killed']:>5.1f}/{m['germans_captured']:.1f} {per_speed.get(k, 0.0):>9.0f}"
        )
    lines.append(f"env steps per second: {result['steps_per_second']:.0f}")
    for m in result.get("missing_optional") or []:
        lines.append(
            f"no {m['drops']}: {m['dependency']} is not installed "
            f'(pip install "ambush_env[{m["extra"]}]")'
        )
    return "\n".join(lines + normalised_lines(result.get("normalised_score")))


def normalised_lines(agg: dict | None) -> list[str]:
    """The lines ``ambush bench`` prints under its table about the normalised score: the IQM
    over the normalised tasks with its interval, and every dropped task with its reason
    (tasks of one reason on one line)."""
    if not agg:
        return []
    out = []
    if agg.get("iqm") is not None:
        lo, hi = agg["iqm_ci95"]
        out.append(
            f"normalised score (VP - floor) / (heuristic - floor), floor = max(random, "
            f"do_nothing): IQM {agg['iqm']:.3f} [{lo:.3f}, {hi:.3f}] over {len(agg['tasks'])} "
            f"tasks x {agg['episodes_per_task']} episodes"
        )
    by_reason: dict[str, list[str]] = defaultdict(list)
    for task, why in (agg.get("dropped") or {}).items():
        by_reason[why].append(task)
    for why, tasks in by_reason.items():
        out.append(f"not normalised ({len(tasks)} tasks: {', '.join(tasks)}): {why}")
    return out


def _group_episodes(result: dict) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for e in result.get("_episodes", []):
        groups[e.get("task") or f"{e['mission']}/{e['opponent']}"].append(e)
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
    """The file stem of a result in the results folder, its key (docs/API.md): suite, agent
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


def _norm_text(n: dict | None) -> str:
    if not n or n.get("iqm") is None:  # no score, or an aggregate of dropped tasks only
        return "–"
    lo, hi = n["iqm_ci95"]
    return f"{n['iqm']:.2f} [{lo:.2f}, {hi:.2f}]"


def leaderboard_markdown(results: list[dict]) -> str:
    """A Markdown leaderboard: one table per suite, rows by mission/opponent, best agent first.

    Every row names its rules (``standard`` or ``d100``), so the paired suites ``vehicles``
    and ``vehicles_d100`` read side by side, and results of one suite under two rule sets stay
    two rows. Each row shows its own seed range (a suite of several parts plays different
    ranges) and the normalised score's IQM with its interval where a reference exists; under
    each table, every agent's IQM over the suite's normalised tasks.
    """
    by_suite: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by_suite[r["suite"]].append(r)
    out = [
        "# Ambush! benchmark leaderboard",
        "",
        "Win rate with its 95% Wilson interval; VP and result are means over the seeds shown. "
        "Normalised score: (VP − floor) / (heuristic − floor) per episode, floor = "
        "max(random, do_nothing), its interquartile mean (IQM) and 95% stratified-bootstrap "
        "interval (ambush_env.stats); a task without a full reference is not normalised. "
        "An agent is its label and the first 8 digits of its hash (model file or scripted "
        "source); a partial run (fewer seeds than its suite) is marked and never replaces a "
        "full one.",
        "",
    ]
    for suite in sorted(by_suite):
        out += [
            f"## Suite `{suite}`",
            "",
            "| mission/opponent | agent | rules | seeds | episodes | win rate | 95% CI | mean VP | normalised IQM [95% CI] | mean result | mean steps | steps/s | commit | date |",
            "|---|---|---|---|---:|---:|---|---:|---|---:|---:|---:|---|---|",
        ]
        rows = []
        for r in by_suite[suite]:
            prov = r.get("provenance") or {}
            key = agent_key(r)
            who = f"{r['agent']}@{key}" if key else r["agent"]
            commit = str(prov.get("git_commit", "unknown"))[:10] + (
                "+" if prov.get("git_dirty") else ""
            )
            date = str(prov.get("created", ""))[:10]
            for k, m in r["missions"].items():
                seeds = m.get("seeds") or r.get("seeds") or ["?", "?"]
                span = f"{seeds[0]}-{seeds[1]}" + ("" if is_full(r) else " (partial)")
                rows.append(
                    (
                        k,
                        -m["win_rate"],
                        -m["mean_vp"],
                        who,
                        result_rules(r),
                        span,
                        m,
                        r["steps_per_second"],
                        commit,
                        date,
                    )
                )
        for k, _, _, who, rules, span, m, sps, commit, date in sorted(rows, key=lambda x: x[:6]):
            lo, hi = m["win_rate_ci95"]
            out.append(
                f"| {k} | {who} | {rules} | {span} | {m['episodes']} | {m['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | "
                f"{m['mean_vp']:.2f} | {_norm_text(m.get('normalised_score'))} | {m['mean_result']:.3f} | "
                f"{m['mean_steps']:.1f} | {sps:.0f} | {commit} | {date} |"
            )
        aggs = sorted(
            (
                (r["normalised_score"]["iqm"], r)
                for r in by_suite[suite]
                if (r.get("normalised_score") or {}).get("iqm") is not None
            ),
            key=lambda x: -x[0],
        )
        if aggs:
            out += ["", "Normalised score, IQM over the suite's normalised tasks [95% CI]:", ""]
            for _, r in aggs:
                n = r["normalised_score"]
                key = agent_key(r)
                dropped = n.get("dropped") or {}
                out.append(
                    f"- {r['agent']}@{key} ({result_rules(r)}): {_norm_text(n)} over "
                    f"{len(n['tasks'])} tasks × {n['episodes_per_task']} episodes"
                    + (f"; not normalised: {', '.join(dropped)}" if dropped else "")
                )
        out.append("")
    return "\n".join(out)


def update_leaderboard(out_dir: str | Path) -> Path:
    """Rebuild ``leaderboard.md`` from the JSON files of ``out_dir``, and with matplotlib one
    figure per suite, ``<suite>.png`` (:func:`ambush_env.plots.plot_suites`)."""
    import importlib.util

    from ambush_env import plots

    d = Path(out_dir)
    results = plots.load_results(d)
    from ambush_env.core.world.data import write_text_atomic

    md = write_text_atomic(leaderboard_markdown(results), d / "leaderboard.md", what="leaderboard")
    if results and importlib.util.find_spec("matplotlib") is not None:
        plots.plot_suites(results, d)
    return md


def write_outputs(
    result: dict, json_path: str | Path | None = None, out_dir: str | Path = "results/bench"
) -> Path:
    """Write the JSON (atomically) and refresh the leaderboard of ``out_dir``; returns the JSON
    path. When ``json_path`` lies outside ``out_dir``, the results folder gets its own copy
    under the result's key (:func:`result_stem`), so the leaderboard is built from that
    folder's results only, a partial run never replaces a full one, and two models of one
    label or one agent under two rule sets never overwrite each other. The result's schema:
    ``docs/result.schema.json``."""
    own = Path(out_dir) / f"{result_stem(result)}.json"
    own.parent.mkdir(parents=True, exist_ok=True)
    data = public(result)
    target = Path(json_path) if json_path is not None else own
    keep_older(target, data)
    p = write_json_atomic(data, target)
    if p.parent.resolve() != own.parent.resolve():  # elsewhere: the results folder keeps a copy
        keep_older(own, data)
        write_json_atomic(data, own)
    update_leaderboard(own.parent)
    return p


#: the folder, beside a result file, where the results it replaced at another commit are kept
HISTORY = "history"


def keep_older(path: Path, new: dict) -> Path | None:
    """Before ``new`` is written to ``path``: if ``path`` holds a result recorded at another
    git commit (``provenance.git_commit``; a result without provenance counts as another),
    move it to ``<folder>/history/<stem>__<commit8>__<created>.json`` and return where it went
    (issue 26: a full rerun at a new commit is kept beside the older one, never over it). A
    rerun at the same commit replaces its file, as the same code gives the same result; a file
    that is not a result JSON is left for the atomic write to replace. The history folder is
    not read by the leaderboard (:func:`update_leaderboard` reads the folder's own files)."""
    import os

    if not path.is_file():
        return None
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(old, dict) or "missions" not in old:
        return None
    old_prov = old.get("provenance") or {}
    old_commit = str(old_prov.get("git_commit", "unknown"))
    if old_prov and old_commit == str((new.get("provenance") or {}).get("git_commit")):
        return None
    created = "".join(ch for ch in str(old_prov.get("created", "undated")) if ch.isalnum())
    dest = path.parent / HISTORY / f"{path.stem}__{old_commit[:8]}__{created}.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    os.replace(path, dest)
    return dest
