"""The ``ambush`` command line (docs/OBSERVATION.md, docs/CLI.md).

``ambush --version``; ``ambush COMMAND --help`` shows each option with its default. Subcommands::

    ambush bench  --suite NAME --agent AGENT|PATH.zip --episodes N --workers W --json OUT
                  [--backend local|ray [--address ADDR]] [--update-reference] [--save-replays DIR]
    ambush plot   [--results results/bench] [--run runs/NAME] [--out DIR]
    ambush train  --config configs/train/NAME.yaml [--resume PATH|latest] [--total-timesteps N]
    ambush speed  --mission ID [--mission ID2 --repeats R] --steps N --json OUT
    ambush play   --mission ID [--seed S] [--save game.jsonl [--force]]
    ambush replay FILE [--quiet] [--html OUT.html]
    ambush los    MAP A B [--stances S T]
    ambush render --mission ID --out map.png
    ambush missions
    ambush campaign --squad-file PATH [--campaign ID] [--agent AGENT|PATH.zip] [--all]

AGENT: random, do_nothing, heuristic, or a probe of agents/probes.py (withdraw, rush, stall,
drive_off: degenerate policies that must lose, docs/BENCHMARK.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ambush_env.cli_los import Parser, add_los_parser, int_at_least
from ambush_env.core.model.errors import ConfigError, ScenarioError


# -- bench -----------------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    from ambush_env import bench

    if args.update_reference:  # refuse before the run, not after it
        from ambush_env import stats

        refusal = stats.reference_refusal(args.agent)  # random, do_nothing, heuristic only
        if refusal is not None:
            raise ConfigError("--update-reference", refusal)
        if not bench.load_suite(args.suite).is_full(args.episodes):
            raise ConfigError(
                "--update-reference",
                "needs the whole suite: a partial run (--episodes) is not a reference",
            )
    result = bench.run_bench(
        args.agent,
        suite=args.suite,
        episodes=args.episodes,
        workers=args.workers,
        progress=not args.no_progress,
        backend=args.backend,
        address=args.address,
        save_replays=getattr(args, "save_replays", None),
        sample=getattr(args, "sample", False),
    )
    print(bench.format_table(result))
    path = bench.write_outputs(result, json_path=args.json, out_dir=args.out_dir)
    print(f"wrote {path} and {Path(args.out_dir) / 'leaderboard.md'}")
    if args.update_reference:
        from ambush_env import stats

        ref = stats.update_reference(
            bench.public(result), bench.load_suite(args.suite).reference_file()
        )
        print(f"updated the reference mean VPs of {result['agent']} in {ref}")
    if getattr(args, "save_replays", None):
        n = len(result["_episodes"])
        print(
            f"wrote {n} replays to {args.save_replays} (ambush replay FILE [--html OUT] checks one)"
        )
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    """Figures of the benchmark results (one per suite) and learning curves of training runs."""
    from ambush_env import plots

    out = Path(args.out or args.results)
    written = []
    results = plots.load_results(args.results)
    if args.suite:
        results = [r for r in results if r["suite"] in args.suite]
    if results:
        written += plots.plot_suites(results, out)
    elif not args.run:
        raise ConfigError(
            "--results",
            f"no benchmark results in {args.results} (run ambush bench first, or give --run)",
        )
    for run in args.run or []:
        tb = Path(run) / "tb" if (Path(run) / "tb").is_dir() else Path(run)
        name = Path(run).resolve().name if tb != Path(run) else Path(run).resolve().parent.name
        written.append(
            plots.plot_learning_curves(
                tb, out / f"learning_curve__{name}.png", title=f"learning curves: run {name}"
            )
        )
    for p in written:
        print(f"wrote {p}")
    return 0


# -- speed -----------------------------------------------------------------------------------
def measure_speed(
    mission: str | None,
    steps: int,
    seed: int = 0,
    opponent: str = "regular",
    progress: bool = False,
    rules: str = "standard",
) -> dict[str, Any]:
    """Random legal play in one process: env steps per second (resets included).

    Returns:
        ``{"steps_per_second", "cpu_steps_per_second", "steps", "seconds", "episodes", "mission"}``:
        the first from wall time, the second from this process's CPU time (steadier on a
        shared machine).
    """
    from tqdm import tqdm

    from ambush_env.agents.random_agent import RandomAgent
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission=mission, opponent=opponent, rules=rules)
    agent = RandomAgent(seed=seed)
    episodes = 0
    bar = tqdm(total=steps, desc="speed", unit="step", disable=not progress, mininterval=0.5)
    t0 = time.perf_counter()
    c0 = time.process_time()
    obs, info = env.reset(seed=seed)
    done = False
    for k in range(steps):
        if done:
            episodes += 1
            obs, info = env.reset(seed=seed + episodes)
        obs, _, term, trunc, info = env.step(agent.act(obs, info, env))
        done = term or trunc
        if progress and k % 1000 == 999:
            bar.update(1000)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    bar.close()
    return {
        "steps_per_second": round(steps / dt, 1),
        "cpu_steps_per_second": round(steps / cpu, 1) if cpu > 0 else None,
        "steps": steps,
        "seconds": round(dt, 3),
        "episodes": episodes + int(done),
        "mission": env.mission_id,
        "rules": rules,
    }


def compare_speed(
    missions: Sequence[str | None],
    steps: int,
    repeats: int,
    seed: int = 0,
    opponent: str = "regular",
    rules: str = "standard",
) -> dict[str, Any]:
    """:func:`measure_speed` of several missions in one run, interleaved ``repeats`` times
    (mission 1, 2, …, then again), so that the machine's drift falls on all of them alike.

    Returns:
        ``{"steps", "repeats", "seed", "opponent", "mission", "steps_per_second",
        "cpu_steps_per_second", "missions": [...], "ratios": {...}}``: the top-level rates are
        the first mission's (the keys of a one-mission run); per mission its id, the median of each rate over the repeats (``steps_per_second`` from
        wall time, ``cpu_steps_per_second`` from CPU time) and every repeat's result under
        ``"runs"``; ``ratios`` maps each mission to its median CPU rate over the first
        mission's (the first is 1.0).

    Raises:
        ScenarioError: an unknown mission (before anything is measured).
    """
    import statistics

    from ambush_env.core.world.cards import load_deck
    from ambush_env.core.world.missions import load_mission

    missions = list(dict.fromkeys(missions))  # each once, in the order given
    load_deck(opponent)  # fail fast, naming the deck or the mission (both loads are cached)
    for mission in missions:
        if mission is not None:
            load_mission(mission)
    runs: list[list[dict[str, Any]]] = [[] for _ in missions]
    for _ in range(repeats):
        for k, mission in enumerate(missions):
            runs[k].append(measure_speed(mission, steps, seed=seed, opponent=opponent, rules=rules))
    rows = []
    for k in range(len(missions)):
        rows.append(
            {
                "mission": runs[k][0]["mission"],
                "steps_per_second": round(
                    statistics.median(r["steps_per_second"] for r in runs[k]), 1
                ),
                "cpu_steps_per_second": round(
                    statistics.median(r["cpu_steps_per_second"] or 0.0 for r in runs[k]), 1
                ),
                "episodes": runs[k][0]["episodes"],
                "runs": runs[k],
            }
        )
    first = rows[0]["cpu_steps_per_second"] or 1.0
    return {
        "steps": steps,
        "repeats": repeats,
        "seed": seed,
        "opponent": opponent,
        "rules": rules,
        # docs/API.md's keys, for the first mission
        "mission": rows[0]["mission"],
        "steps_per_second": rows[0]["steps_per_second"],
        "cpu_steps_per_second": rows[0]["cpu_steps_per_second"],
        "missions": rows,
        "ratios": {r["mission"]: round(r["cpu_steps_per_second"] / first, 3) for r in rows},
    }


def cmd_speed(args: argparse.Namespace) -> int:
    missions = args.mission or [None]
    if len(missions) > 1 or args.repeats > 1:
        res = compare_speed(
            missions,
            args.steps,
            args.repeats,
            seed=args.seed,
            opponent=args.opponent,
            rules=args.rules,
        )
        print(
            f"{res['steps']} random steps per run, {res['repeats']} interleaved run(s), "
            f"seed {res['seed']}; medians:"
        )
        for row in res["missions"]:
            print(
                f"  {row['mission']:<24} {row['steps_per_second']:>8.0f} steps/s "
                f"(CPU time: {row['cpu_steps_per_second']:.0f}/s)  "
                f"x{res['ratios'][row['mission']]:.3f} of {res['missions'][0]['mission']}"
            )
    else:
        res = measure_speed(
            missions[0],
            args.steps,
            seed=args.seed,
            opponent=args.opponent,
            progress=not args.no_progress,
            rules=args.rules,
        )
        print(
            f"{res['steps_per_second']:.0f} steps/s (CPU time: {res['cpu_steps_per_second']:.0f}/s; "
            f"{res['steps']} steps, {res['episodes']} episodes, "
            f"{res['seconds']:.2f} s, mission {res['mission']})"
        )
    if args.json:
        from ambush_env.bench import write_json_atomic

        write_json_atomic(res, args.json)
    return 0


# -- train -----------------------------------------------------------------------------------
def cmd_train(args: argparse.Namespace) -> int:
    from ambush_env.agents.maskable_ppo import TrainingInterrupted, load_train_config, train

    seed = getattr(args, "seed", None)
    run_name = args.run_name
    if seed is not None and run_name is None:  # one folder per training seed
        run_name = f"{load_train_config(args.config).run_name}_seed{seed}"
    cfg = load_train_config(
        args.config,
        resume=args.resume,
        total_timesteps=args.total_timesteps,
        run_name=run_name,
        log_dir=args.log_dir,
        seed=seed,
        force=True if getattr(args, "force", False) else None,
    )
    try:
        path = train(cfg)
    except TrainingInterrupted as e:
        print(f"ambush: {e}", file=sys.stderr, flush=True)
        return 130
    print(f"saved {path}  (TensorBoard: tensorboard --logdir {cfg.run_dir / 'tb'})")
    print(f"score it: ambush bench --agent {path}")
    return 0


# -- play / replay ---------------------------------------------------------------------------
def format_event(ev: dict) -> str:
    """One rule event as a line of text (indented; :func:`ambush_env.render.ansi.format_event`)."""
    from ambush_env.render.ansi import format_event as text

    return f"  {text(ev)}"


PLAY_HELP = (
    "Pick an order by its number and press Enter; q quits (the game so far is saved "
    "with --save); ? or legend shows the map's legend."
)


def cmd_play(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    """Play the US side in the terminal: the ansi map, the legal orders by number, the events
    of each order. Prints a help line and the map's legend at the start. With ``--save`` the
    path is checked before play (:func:`check_save_path`: an existing file is refused unless
    ``--force``); the replay is written atomically when the game ends, on ``q``, and on Ctrl-C
    (the game so far, ``over: false``; exit status 130)."""
    from ambush_env.env.ambush_env import AmbushEnv
    from ambush_env.render.ansi import legend
    from ambush_env.replay import RecordingEnv

    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    if getattr(args, "save", None):
        check_save_path(args.save, force=getattr(args, "force", False))
    env = RecordingEnv(
        AmbushEnv(
            mission=args.mission,
            opponent=args.opponent,
            rules=getattr(args, "rules", "standard"),
            render_mode="ansi",
        ),
        agent="human",
    )
    seed = args.seed
    _obs, info = env.reset(seed=seed)
    try:
        return _play(env, seed, info, inp, out, args, legend)
    except KeyboardInterrupt:
        print("\ninterrupted.", file=out)
        _save_replay(args, env, out)
        return 130


def _play(env, seed, info, inp, out, args, legend) -> int:
    """:func:`cmd_play`'s loop, from the reset to the end or ``q``."""
    done = False
    print(f"Mission {env.mission_id} (seed {seed}). {PLAY_HELP}", file=out)
    print(legend(), file=out)
    for ev in info["events"]:
        print(format_event(ev), file=out)
    while not done:
        print(env.render(), file=out)
        legal = env.legal_actions()
        for n, a in enumerate(legal):
            print(f"  {n:>3}: {env.describe_action(a)}", file=out)
        choice = None
        while choice is None:
            print("order> ", end="", file=out, flush=True)
            line = inp.readline()
            word = line.strip().lower()
            if not line or word in ("q", "quit", "exit"):
                print("quit.", file=out)
                _save_replay(args, env, out)
                return 0
            if word in ("?", "legend", "help", "h"):
                print(PLAY_HELP, file=out)
                print(legend(), file=out)
                continue
            try:
                k = int(line.strip())
                if k < 0:
                    raise IndexError(k)
                choice = legal[k]
            except (ValueError, IndexError):
                print(f"  type a number 0-{len(legal) - 1} (? shows the legend, q quits)", file=out)
        _obs, _reward, term, trunc, info = env.step(choice)
        for ev in info["events"]:
            print(format_event(ev), file=out)
        done = term or trunc
    print(env.render(), file=out)
    print(
        f"Mission over: {info.get('result')} with {info['vp']} VP ({info.get('end_reason', '')}).",
        file=out,
    )
    _save_replay(args, env, out)
    return 0


def check_save_path(path: str | Path, force: bool = False) -> None:
    """Refuse a ``--save`` path before play, not after it: a folder, an existing file (an
    earlier game) unless ``force``, or a file that cannot be written there (a temporary file
    is made and removed in its folder, created if need be).

    ⚙ An existing file is refused, not overwritten, unless ``--force``: a saved game is
    never lost by reusing its name.

    Raises:
        ConfigError: (argument ``--save``) the path is a folder, exists (without ``force``) or
            is not writable (the message names it and why).
    """
    import os
    import tempfile

    p = Path(path)
    if p.is_dir():
        raise ConfigError(
            "--save", f"{path}: is a folder: give a file name for the replay (such as game.jsonl)"
        )
    if p.exists() and not force:
        raise ConfigError(
            "--save",
            f"{path}: exists (an earlier game?): give another file "
            "name, or --force to overwrite it",
        )
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise ConfigError(
            "--save", f"{path}: cannot write a replay there ({e.strerror or e})"
        ) from None


def _save_replay(args, env, out) -> None:
    """With ``--save``: write the game played so far as a replay (:mod:`ambush_env.replay`)."""
    if getattr(args, "save", None):
        env.recorder.write(args.save)
        end = env.recorder.finish()
        state = "" if end["over"] else ", the game unfinished"
        print(f"replay saved to {args.save} ({len(env.recorder.steps)} orders{state})", file=out)


def load_replay(path: str | Path):
    """Read and validate a replay file (:func:`ambush_env.replay.load`): the JSON Lines
    format, or the plain JSON of an older ``ambush play --save``.

    Raises:
        DataError: unreadable file, not JSON, a bad line or field (names the line or field),
            or a truncated file.
    """
    from ambush_env.replay import load

    return load(path)


def cmd_replay(args: argparse.Namespace, stdout=None) -> int:
    """Re-simulate a replay: each order and its events, the final map, then whether the
    engine gave the recorded events (``replay verified: N steps, identical events``); exit 1
    on a difference (the message names the step and the file's line). ``--html OUT`` also
    writes the viewer. A legacy plain-JSON replay has no events to check: it is re-played."""
    from ambush_env.replay import ReplayMismatch, ViewerFrames, make_env, simulate

    out = stdout or sys.stdout
    rep = load_replay(args.file)
    quiet = getattr(args, "quiet", False)
    viewer = ViewerFrames() if getattr(args, "html", None) else None

    def show(k: int, env, info: dict, rec) -> None:
        if viewer is not None:  # the viewer's frames from the same simulation
            viewer.on_step(k, env, info, rec)
        if k == 0:
            return
        n = k - 1 if rep.legacy else k  # ⚙ a legacy file's orders keep their 0-based numbers
        mark = "(illegal, penalised) " if rec.get("illegal") else ""
        print(f"{n:>4}: {mark}{rec.get('order')}", file=out)
        if not quiet:
            for ev in info["events"]:
                print(format_event(ev), file=out)

    env = make_env(rep, render_mode="ansi")
    try:
        sim = simulate(rep, on_step=show, env=env)
    except ReplayMismatch as e:
        print(f"replay MISMATCH: {e}", file=out)
        return 1
    print(env.render(), file=out)
    print(f"VP {sim.info['vp']}; result {sim.info.get('result') or '(not over)'}", file=out)
    if sim.verified:
        print(f"replay verified: {sim.steps} steps, identical events", file=out)
    else:
        print(
            f"legacy replay (orders only): {sim.steps} orders re-played, no recorded events "
            "to compare",
            file=out,
        )
    if viewer is not None:
        path = viewer.write(rep, sim, args.html)
        print(f"wrote {path}", file=out)
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    """Write the mission's map (after reset with ``--seed``) as a PNG (docs/API.md)."""
    import numpy as np
    from PIL import Image

    from ambush_env.core.world.data import atomic_write
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission=args.mission, render_mode="rgb_array")
    env.reset(seed=args.seed)
    frame = env.render()
    assert isinstance(frame, np.ndarray)  # the rgb_array mode's frame
    out = Path(args.out)
    with atomic_write(out, what="PNG", binary=True) as f:  # whole or not at all
        Image.fromarray(frame).save(f, format="PNG")
    print(f"wrote {out} ({frame.shape[1]}x{frame.shape[0]} pixels, mission {env.mission_id})")
    return 0


def older_ids(make_id) -> str:
    """``(also <id of each older registered version>)``, newest first: ``make_id(version)``."""
    from ambush_env.env.registration import VERSION, VERSIONS

    return (
        "(also "
        + ", ".join(make_id(v) for v in sorted(VERSIONS, reverse=True) if v != VERSION)
        + ")"
    )


def cmd_missions(args: argparse.Namespace) -> int:
    """Print one line per shipped mission (``<id> <env id>  (also <older ids>)``), then, after a
    blank line, the any-mission env, the procedural env with its seed ranges and one line per
    shipped campaign with ``ambush/Campaign-v0``."""
    from ambush_env import list_missions
    from ambush_env.core.play.campaign import list_campaigns
    from ambush_env.core.play.procedural import SEED_RANGES
    from ambush_env.env.registration import CAMPAIGN_ID, ambush_id, env_id, procedural_id

    for m in list_missions():
        print(f"{m:<24} {env_id(m)}  {older_ids(lambda v, m=m: env_id(m, v))}")
    print()
    print(
        f"{'any mission':<24} {ambush_id()}  {older_ids(ambush_id)}  mission=ID or a mission file"
    )
    seeds = ", ".join(
        f"{name.replace('_', '-')} seeds {r.start}..{r.stop - 1}" for name, r in SEED_RANGES.items()
    )
    print(
        f"{'procedural':<24} {procedural_id()}  {older_ids(procedural_id)}  "
        f"a mission generated from each reset seed: {seeds}"
    )
    for c in list_campaigns():
        print(f"{'campaign ' + c:<24} {CAMPAIGN_ID}  campaign={c}")
    return 0


# -- campaign --------------------------------------------------------------------------------
def cmd_campaign(args: argparse.Namespace, stdout=None) -> int:
    """Start a campaign or resume it from its squad file, play its next mission (or all that
    are left) with an agent, and save the squad file atomically after each mission."""
    from ambush_env.agents import make_agent
    from ambush_env.core.play import campaign as C
    from ambush_env.env.campaign_env import CampaignEnv

    out = stdout or sys.stdout
    path = Path(args.squad_file)
    if path.exists():
        cs = C.read_squad_file(path)
        if args.campaign is not None and Path(cs.campaign).stem != Path(args.campaign).stem:
            raise ConfigError(
                "--campaign",
                f"{path} is a squad of campaign {cs.campaign!r}, not {args.campaign!r}",
            )
        print(
            f"resumed {path}: campaign {cs.campaign}, mission {cs.next + 1} of "
            f"{len(cs.chain().missions)}",
            file=out,
        )
    else:
        if args.campaign is None:
            raise ConfigError(
                "--campaign",
                f"needed to start a campaign: {path} does not exist "
                f"(known campaigns: {', '.join(C.list_campaigns())})",
            )
        squad = args.squad
        if squad == "random":
            from ambush_env.core.world.squads import generate_squad

            squad = generate_squad(args.seed)
        cs = C.new_campaign(args.campaign, squad)
        C.save_squad_file(cs, path)
        print(
            f"started campaign {cs.campaign} with {len(cs.soldiers)} soldiers: wrote {path}",
            file=out,
        )
    n = len(cs.chain().missions)
    env = CampaignEnv(campaign=cs.campaign)
    agent = make_agent(args.agent, seed=args.seed)
    while cs.next < n:
        seed = args.seed + cs.next  # mission k of the chain is played with seed + k
        obs, info = env.reset(seed=seed, options={"squad": cs})
        agent.reset(env, seed)
        terminated = truncated = False
        while not (terminated or truncated):
            obs, _r, terminated, truncated, info = env.step(agent.act(obs, info, env))
        if truncated:
            raise ScenarioError(
                f"mission {env.mission_id} was cut off ({info.get('end_reason')}): "
                f"{path} is unchanged"
            )
        after = C.coerce_squad(info["squad"])
        C.save_squad_file(after, path)
        for line in C.describe_changes(cs, after):
            print(line, file=out)
        cs = after
        if not args.all:
            break
    if cs.next >= n:
        wins = sum(h.result in ("win", "decisive_win") for h in cs.history)
        print(f"campaign {cs.campaign} is over: {wins} of {n} missions won", file=out)
    print(f"saved {path}", file=out)
    return 0


# -- parser ----------------------------------------------------------------------------------
def _mission(text: str) -> None:
    from ambush_env.core.world.missions import list_missions, load_mission

    if not (text.endswith((".yaml", ".yml")) or "/" in text) and text not in list_missions():
        raise ScenarioError(
            f"unknown mission {text!r}; known missions: {', '.join(list_missions())}"
        )
    load_mission(text)  # (as the env words it: the reference mission first)


def _deck(text: str) -> None:
    from ambush_env.core.world.cards import load_deck

    load_deck(text)


def _suite(text: str) -> None:
    from ambush_env.bench import suite_path

    suite_path(text)


def _agent(text: str) -> None:
    from ambush_env.agents import check_agent_spec

    check_agent_spec(text)


def _campaign(text: str) -> None:
    from ambush_env.core.play.campaign import load_chain

    load_chain(text)


def _squad(text: str) -> None:
    if text != "random":
        from ambush_env.core.world.squads import load_squad

        load_squad(text)


#: the options naming data — missions, decks, suites, agents, campaigns, squads — by the
#: parsed name (``dest``): the option and its check, run on every value given (or defaulted)
#: before the command starts (:func:`check_options`)
OPTION_CHECKS = {
    "mission": ("--mission", _mission),
    "opponent": ("--opponent", _deck),
    "suite": ("--suite", _suite),
    "agent": ("--agent", _agent),
    "campaign": ("--campaign", _campaign),
    "squad": ("--squad", _squad),
}


def check_options(args: argparse.Namespace) -> None:
    """Refuse a bad data option before the command runs, naming it: ``--mission: unknown
    mission 'x'; known: …`` (:data:`OPTION_CHECKS`; ``main`` prints it on one line, exit 2).

    Raises:
        ConfigError: the first bad value (``argument`` is the option, the problem the
            loader's message: an unknown id lists the known ones, a bad file names its field).
    """
    for dest, (option, check) in OPTION_CHECKS.items():
        value = getattr(args, dest, None)
        for v in value if isinstance(value, list) else [value]:
            if v is None:
                continue
            try:
                check(v)
            except ValueError as e:  # AmbushError (ScenarioError, DataError) is a ValueError
                why = e.problem if isinstance(e, ConfigError) else str(e)  # the option is named
                raise ConfigError(option, why) from None


def positive_int(text: str) -> int:
    """argparse type: an integer ≥ 1."""
    return int_at_least(text, 1, "must be at least 1")


def seed_int(text: str) -> int:
    """argparse type: a seed, an integer ≥ 0."""
    return int_at_least(text, 0, "a seed is 0 or more")


def version_text() -> str:
    """``ambush 0.1.0``, with ``(git <short commit>)`` when the package runs from a git
    checkout (an editable install) and git answers; what ``ambush --version`` prints."""
    import subprocess

    from ambush_env import __version__

    text = f"ambush {__version__}"
    repo = Path(__file__).resolve().parent.parent
    if (repo / ".git").exists():
        try:
            r = subprocess.run(
                ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                timeout=5,
            )
        except (OSError, subprocess.SubprocessError):
            return text
        if r.returncode == 0 and r.stdout.strip():
            text += f" (git {r.stdout.strip()})"
    return text


class _VersionAction(argparse.Action):
    """``--version``: argparse's version action, but the text (:func:`version_text`, which may
    ask git) is made only when the option is given."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: Any = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    # Parser: every subcommand shows its options' defaults (cli_los.HelpFormatter)
    p = Parser(
        prog="ambush",
        description="Ambush! as a Gymnasium environment and benchmark",
        epilog="ambush COMMAND --help lists the options of a command.",
    )
    p.add_argument(
        "--version",
        action=_VersionAction,
        help="print the package version (and the git commit of a checkout) and exit",
    )
    sub = p.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="one of the commands below"
    )

    b = sub.add_parser("bench", help="run a benchmark suite with an agent")
    b.add_argument("--suite", default="smoke", help="suite name in configs/bench/ or a YAML path")
    b.add_argument(
        "--agent",
        required=True,
        help="random, do_nothing, heuristic, a probe (withdraw, rush, stall, drive_off: "
        "degenerate policies that must lose, docs/BENCHMARK.md), or the path of a "
        "MaskablePPO .zip",
    )
    b.add_argument(
        "--episodes",
        type=positive_int,
        default=None,
        help="play only the first N seeds of the suite (at most its seed count; "
        "default: all of them)",
    )
    b.add_argument(
        "--workers", type=positive_int, default=1, help="worker processes (1: play in this process)"
    )
    b.add_argument(
        "--json",
        default=None,
        help="also write the result JSON here (the results folder always keeps its "
        "own copy, <suite>__<agent>__<hash8>[__<rules>][__partial-<N>].json; "
        "default: only that copy)",
    )
    b.add_argument(
        "--out-dir", default="results/bench", help="folder of results and the leaderboard"
    )
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.add_argument(
        "--backend",
        default="local",
        choices=("local", "ray"),
        help="local: this process or --workers processes; ray: Ray tasks on a local "
        "Ray (--workers CPUs) or the cluster at --address (the ray extra)",
    )
    b.add_argument(
        "--address",
        default=None,
        help="Ray cluster address for --backend ray (e.g. auto, ray://HOST:10001; "
        "default: start a local Ray)",
    )
    b.add_argument(
        "--sample",
        action="store_true",
        help="play a model's sampled policy (seeded by each episode's seed) instead of its "
        "most probable order; the label gets -sampled",
    )
    b.add_argument(
        "--update-reference",
        action="store_true",
        help="store this full-suite run of random, do_nothing or heuristic as the "
        "reference mean VPs of the normalised score (configs/bench/reference/vp.yaml; "
        "the floor is max(random, do_nothing); a probe never enters it)",
    )
    b.add_argument(
        "--save-replays",
        default=None,
        metavar="DIR",
        help="record every episode as a replay in this folder, "
        "<mission>__<opponent>__<seed>[__<rules>].jsonl (default: none)",
    )
    b.set_defaults(func=cmd_bench)

    pt = sub.add_parser(
        "plot",
        help="figures of benchmark results and training runs",
        description="One titled figure per suite (win rate and mean VP per "
        "mission and agent, with 95% intervals; the normalised-score IQM) from "
        "the result JSON files, and learning curves from TensorBoard logs.",
    )
    pt.add_argument("--results", default="results/bench", help="folder of result JSON files")
    pt.add_argument(
        "--suite",
        action="append",
        default=None,
        help="only this suite (repeatable; default: every suite in --results)",
    )
    pt.add_argument(
        "--run",
        action="append",
        default=None,
        help="a training run folder (its tb/ logs) or a TensorBoard log folder: "
        "writes learning_curve__<run>.png (repeatable; default: none)",
    )
    pt.add_argument("--out", default=None, help="folder of the PNGs (default: --results)")
    pt.set_defaults(func=cmd_plot)

    s = sub.add_parser(
        "speed",
        help="env steps per second under random legal play",
        description="Random legal play in one process: env steps per second. "
        "Give --mission more than once to compare missions in one run "
        "(interleaved --repeats times; medians and ratios to the first).",
    )
    s.add_argument(
        "--mission",
        action="append",
        default=None,
        help="mission id (default: the reference mission); repeat to compare",
    )
    s.add_argument(
        "--steps", type=positive_int, default=20_000, help="env steps per run (default: 20000)"
    )
    s.add_argument(
        "--repeats",
        type=positive_int,
        default=1,
        help="interleaved runs per mission, reported as medians (default: 1)",
    )
    s.add_argument(
        "--seed",
        type=seed_int,
        default=0,
        help="seed of the first episode; episode k uses seed+k (default: 0)",
    )
    s.add_argument("--opponent", default="regular", help="German deck (default: regular)")
    s.add_argument(
        "--rules",
        default="standard",
        choices=("standard", "d100"),
        help="vehicle-combat rules: standard Hit Charts or the seed 003 d100 module "
        "(default: standard)",
    )
    s.add_argument(
        "--json",
        default=None,
        help="also write the result to this JSON file (default: printed only)",
    )
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_speed)

    t = sub.add_parser("train", help="train MaskablePPO from a config (the train extra)")
    t.add_argument(
        "--config", required=True, help="training config YAML, e.g. configs/train/default.yaml"
    )
    t.add_argument(
        "--resume",
        default=None,
        help="continue from a checkpoint .zip or 'latest' (the run's newest; default: a new run)",
    )
    t.add_argument(
        "--force",
        action="store_true",
        help="start afresh in a run folder that holds an earlier run (deletes it)",
    )
    t.add_argument(
        "--total-timesteps",
        type=positive_int,
        default=None,
        help="env steps in all (default: the config's)",
    )
    t.add_argument(
        "--seed",
        type=seed_int,
        default=None,
        help="training seed (default: the config's); without --run-name the run folder is "
        "<config's run_name>_seed<SEED>",
    )
    t.add_argument("--run-name", default=None, help="run folder name (default: the config's)")
    t.add_argument("--log-dir", default=None, help="root folder of runs (default: the config's)")
    t.set_defaults(func=cmd_train)

    pl = sub.add_parser(
        "play",
        help="play the US side in the terminal",
        description="Play the US side: pick each order by its number; q quits, "
        "? shows the map's legend. --save writes a replay (ambush replay FILE).",
    )
    pl.add_argument(
        "--mission",
        default=None,
        help="mission id or mission file (default: the reference mission)",
    )
    pl.add_argument("--seed", type=seed_int, default=0, help="the reset seed (the dice)")
    pl.add_argument("--opponent", default="regular", help="German deck: green, regular, veteran")
    pl.add_argument(
        "--rules",
        default="standard",
        choices=("standard", "d100"),
        help="vehicle-combat rules: standard Hit Charts or seed 003's d100 module",
    )
    pl.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="write the game as a replay (JSON Lines) when it ends, you quit or "
        "press Ctrl-C; an existing FILE is refused unless --force (default: not saved)",
    )
    pl.add_argument(
        "--force",
        action="store_true",
        help="let --save overwrite an existing FILE (an earlier game)",
    )
    pl.set_defaults(func=cmd_play)

    r = sub.add_parser(
        "replay",
        help="re-simulate and check a saved game, or view it as HTML",
        description="Re-simulate a replay (ambush play --save, ambush bench "
        "--save-replays): print each order and its events, check that the "
        "engine gives the recorded events and rolls, exit 1 on a difference. "
        "--html writes a self-contained viewer page.",
    )
    r.add_argument(
        "file",
        help="the replay file (.jsonl; a plain-JSON replay of an older "
        "ambush play --save is read too)",
    )
    r.add_argument("--quiet", action="store_true", help="orders only, no events")
    r.add_argument(
        "--html",
        default=None,
        metavar="OUT",
        help="also write the HTML viewer (SVG map, step slider, event log) to OUT (default: none)",
    )
    r.set_defaults(func=cmd_replay)

    rd = sub.add_parser(
        "render",
        help="write a mission's map as a PNG",
        description="Reset the mission with --seed and write its rgb_array "
        "frame (the start position) as a PNG.",
    )
    rd.add_argument(
        "--mission",
        default=None,
        help="mission id or mission file (default: the reference mission, farm_assault)",
    )
    rd.add_argument("--out", default="map.png", help="PNG file to write")
    rd.add_argument("--seed", type=seed_int, default=0, help="reset seed of the position drawn")
    rd.set_defaults(func=cmd_render)

    m = sub.add_parser(
        "missions",
        help="list the shipped missions, procedural and campaign ids",
        description="The shipped missions and their Gymnasium ids, then the "
        "procedural env with its seed ranges, the any-mission env and the "
        "campaign env with the shipped campaign ids.",
    )
    m.set_defaults(func=cmd_missions)

    cp = sub.add_parser(
        "campaign",
        help="play a campaign's next mission (or all) and save the squad file",
        description="Start a campaign (--campaign ID) or resume it from its squad "
        "file, play the next mission (--all: every mission left) with an agent, and "
        "save the squad file atomically after each mission (RULES.md §16).",
    )
    cp.add_argument(
        "--squad-file", required=True, help="the squad file: resumed when it exists, else created"
    )
    cp.add_argument(
        "--campaign",
        default=None,
        help="chain id of ambush_env/data/campaigns/ or a chain file (default: the "
        "squad file's; needed to start a campaign)",
    )
    cp.add_argument(
        "--agent",
        default="heuristic",
        help="random, do_nothing, heuristic, a probe (withdraw, rush, stall, drive_off) or a "
        "model .zip (default heuristic)",
    )
    cp.add_argument(
        "--squad",
        default=None,
        help="a new campaign's squad: an id of configs/squads/, a file, or 'random' "
        "(generated from --seed; default: the chain's)",
    )
    cp.add_argument(
        "--seed",
        type=seed_int,
        default=0,
        help="mission k of the chain is played with seed + k (default 0)",
    )
    cp.add_argument("--all", action="store_true", help="play every mission left")
    cp.set_defaults(func=cmd_campaign)

    add_los_parser(sub)
    return p


def _stdout_closed() -> bool:
    """Whether the standard output is a pipe or socket whose reading end is closed (so a
    BrokenPipeError came from writing it, not from another pipe such as a worker's).

    ⚙ Where ``select.poll`` is missing (Windows), any pipe counts as closed.
    """
    import os
    import select
    import stat

    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return False
    if not hasattr(select, "poll"):
        return True
    poll = select.poll()
    poll.register(fd, select.POLLOUT)
    return any(ev & (select.POLLERR | select.POLLHUP) for _fd, ev in poll.poll(0))


def _stdout_to_devnull() -> None:
    """Point the standard output's file descriptor at the null device, so that the
    interpreter's last flush after a closed pipe raises nothing (Python's docs, "Note on
    SIGPIPE"). Does nothing when stdout has no descriptor (captured in tests)."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


class _ReaderGoneStdout:
    """The standard output during one command: once its reader is gone (``ambush bench … |
    head -1``), what is written goes to the null device and the command goes on.

    ⚙ A closed standard output stops the printing, never the work: the command still writes
    its files (results, replays, the viewer) and still returns its own exit status (1 for a
    replay mismatch). A BrokenPipeError while the standard output is open (another pipe, a
    worker's) is raised as before.
    """

    def __init__(self, stream) -> None:
        self._stream = stream
        self.reader_gone = False

    def _closed_pipe(self) -> bool:
        if self.reader_gone or not _stdout_closed():
            return self.reader_gone
        self.reader_gone = True
        _stdout_to_devnull()
        return True

    def write(self, text: str) -> int:
        if self.reader_gone:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            if self._closed_pipe():
                return len(text)
            raise

    def flush(self) -> None:
        if self.reader_gone:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            if not self._closed_pipe():
                raise

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ambush`` console script.

    Returns the exit status: the command's own (0; 1 after a replay mismatch), 2 after a typed
    error (one line ``ambush: error: …`` on stderr, no traceback), 130 after Ctrl-C. A closed
    standard output (``| head``) stops the printing quietly, not the command
    (:class:`_ReaderGoneStdout`); a broken pipe that is not the standard output is an error (2).
    """
    from ambush_env.core.model.errors import AmbushError

    parser = build_parser()
    real_stdout = sys.stdout
    sys.stdout = _ReaderGoneStdout(real_stdout)
    try:
        args = parser.parse_args(argv)  # inside: a --help cut short by a closed pipe
        check_options(args)  # a bad --mission, --opponent, … named before the command runs
        return int(args.func(args) or 0)
    except BrokenPipeError as e:  # before OSError: a write that bypassed the wrapper
        if _stdout_closed():
            _stdout_to_devnull()
            return 0
        print(f"ambush: error: {e}", file=sys.stderr)  # another pipe (a worker's): an error
        return 2
    except ModuleNotFoundError as e:
        if e.name in ("torch", "stable_baselines3", "sb3_contrib", "tensorboard"):
            print(
                f"ambush: error: {e.name} is not installed: install the training extra "
                "(pip install \"ambush_env[train]\" -c constraints.txt, or -e '.[train]' "
                "in a checkout)",
                file=sys.stderr,
            )
            return 2
        extra = {"ray": "ray", "scipy": "stats", "matplotlib": "stats"}.get(e.name or "")
        if extra:
            print(
                f"ambush: error: {e.name} is not installed: install the {extra} extra "
                f"(pip install \"ambush_env[{extra}]\" -c constraints.txt, or -e '.[{extra}]' "
                "in a checkout)",
                file=sys.stderr,
            )
            return 2
        raise
    except (AmbushError, OSError, ValueError) as e:
        # typed engine errors, unreadable/unwritable files, bad agent names or models
        print(f"ambush: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if isinstance(sys.stdout, _ReaderGoneStdout):
            sys.stdout = real_stdout


if __name__ == "__main__":
    sys.exit(main())
