"""Environment speed as a ratio to MiniGrid (issue 9): an old revision against a new one.

Run: ``python benchmarks/bench_ratio.py [--old REV] [--new REV|WORKTREE] [--steps N]
[--repeats R] [--json OUT] [--min-relative 0.9] [-v]``

Needs the ``bench`` extra (``pip install -e ".[bench]"``, which brings ``minigrid``).

What it measures
    Steps per second of ``ambush/FarmAssault-v0`` under a random *legal* policy: after
    ``env.reset(seed=...)`` every order is drawn uniformly among
    ``np.flatnonzero(info["action_mask"])`` with a seeded numpy Generator, and the episode
    is reset whenever it ends (terminated or truncated). The same is done, with uniform
    random actions from its ``Discrete`` action space, for ``MiniGrid-DoorKey-8x8-v0``,
    a small, well-known pure-Python grid world. Every run plays ``--steps`` steps after a
    short untimed warm-up; environment creation and imports are not timed.

Why ratios
    Raw steps/s depend on the machine, its load and the Python build, so numbers taken on
    different days or computers cannot be compared. Dividing by MiniGrid's steps/s,
    measured in the same session, cancels most of that: the ratio is the speed of the
    Ambush! environment in "MiniGrid units". Comparing the ratio of the old revision
    (default ``5caa4aa``, the commit before issue 9) with that of the new one (default:
    this working tree, uncommitted changes included) tells whether the code got slower.
    Issue 9 asks for ``new_ratio / old_ratio >= 0.9``.

How it measures
    - ``--old``/``--new`` take a git revision, for which a temporary detached worktree is
      made (``git worktree add --detach``) and removed at the end, also on error; or the
      path of an existing checkout; ``--new`` defaults to the repository this script is in.
    - Every measurement runs in its own subprocess (this interpreter, so the same venv) with
      ``PYTHONPATH=<tree>`` and ``cwd=<tree>``: old and new code never share a process. The
      venv's editable install points at the main checkout, but ``PYTHONPATH`` entries come
      before it on ``sys.path``; the subprocess checks that ``ambush_env`` and every
      ``ambush_env.*`` / ``agents.*`` module it loaded come from its own tree.
    - Repeats are interleaved (MiniGrid, old, new, with the order rotated every repeat) so
      that a burst of machine noise falls on all three alike. Every run uses the same
      ``--seed``, so old and new play the same games as long as the rules did not change,
      and the repeats differ only by machine noise (``PYTHONHASHSEED`` is fixed to 0 too,
      unless set). Identical code still varies by a few per cent from run to run, so a
      single new/old figure within about 0.05 of 1 means "no change".
    - The headline numbers use CPU time (``time.process_time``) because the machine is
      shared: CPU time does not count the time the process waits for a core. Wall-clock
      steps/s are reported alongside.

Output: a Markdown table with the per-side median steps/s (CPU and wall), the ratios to
MiniGrid (median over repeats of the per-repeat ratio) and ``new/old`` of those ratios;
``--json OUT`` also writes every measurement and the summary (atomically).

Exit status: 0 on a completed run; 1 when ``--min-relative X`` is given and ``new/old < X``;
2 on bad arguments; 3 when a measurement or a worktree could not be made.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

DEFAULT_OLD = "5caa4aa"  # the commit before issue 9
AMBUSH_ID = "ambush/FarmAssault-v0"
MINIGRID_ID = "MiniGrid-DoorKey-8x8-v0"
SIDES = ("minigrid", "old", "new")
REPO_ROOT = Path(__file__).resolve().parent.parent


class BenchError(RuntimeError):
    """A worktree or a measurement subprocess failed."""


# --------------------------------------------------------------------------- arguments


def _number(kind: type, low: float, strict: bool):
    """An argparse type: a ``kind`` (int or float) above ``low`` (``strict``) or at least it."""
    word = "an integer" if kind is int else "a number"
    bound = f"> {low:g}" if strict else f">= {low:g}"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {word}: {text!r}") from None
        if value < low or (strict and value == low):
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value

    return parse


_positive_int = _number(int, 1, strict=False)
_non_negative_int = _number(int, 0, strict=False)
_positive_float = _number(float, 0, strict=True)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bench_ratio.py",
        description="Ambush! env steps/s as a ratio to MiniGrid-DoorKey-8x8, old revision vs new.",
    )
    p.add_argument(
        "--old",
        default=DEFAULT_OLD,
        metavar="REV",
        help=f"baseline: a git revision or a checkout path (default: {DEFAULT_OLD}, the commit before issue 9)",
    )
    p.add_argument(
        "--new",
        default=None,
        metavar="REV|WORKTREE",
        help="candidate: a git revision or a checkout path (default: this working tree, uncommitted changes included)",
    )
    p.add_argument(
        "--steps",
        type=_positive_int,
        default=20_000,
        help="timed steps per measurement (default: 20000)",
    )
    p.add_argument(
        "--repeats", type=_positive_int, default=5, help="interleaved repeats (default: 5)"
    )
    p.add_argument(
        "--warmup",
        type=_non_negative_int,
        default=500,
        help="untimed steps before timing (default: 500)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the env reset and the random policy, the same for every run (default: 0)",
    )
    p.add_argument(
        "--timeout",
        type=_positive_float,
        default=600.0,
        help="seconds allowed per measurement (default: 600)",
    )
    p.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="OUT",
        help="also write measurements and summary to OUT",
    )
    p.add_argument(
        "--min-relative",
        type=_positive_float,
        default=None,
        metavar="X",
        help="exit 1 when new_ratio/old_ratio < X (off by default; issue 9 asks for 0.9)",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print every measurement and the module each side imported",
    )
    # Internal: one measurement in this process (what the subprocesses run).
    p.add_argument("--worker", choices=("ambush", "minigrid"), help=argparse.SUPPRESS)
    p.add_argument("--tree", type=Path, default=None, help=argparse.SUPPRESS)
    return p


# --------------------------------------------------------------------------- pure helpers


def order_for_repeat(r: int, sides: tuple[str, ...] = SIDES) -> tuple[str, ...]:
    """The measuring order of repeat ``r``: ``sides`` rotated left by ``r``."""
    k = r % len(sides)
    return tuple(sides[k:]) + tuple(sides[:k])


def summarise(measurements: list[dict]) -> dict:
    """Medians, per-repeat ratios to MiniGrid and the new/old relative speed.

    ``measurements`` holds one dict per subprocess run with keys ``repeat``, ``side``
    (``"minigrid"``, ``"old"`` or ``"new"``), ``cpu_sps`` and ``wall_sps``. Each repeat must
    have all three sides. ``ratio[side]`` is the median over repeats of
    ``side_sps / minigrid_sps`` of that repeat; ``relative`` is ``ratio["new"] / ratio["old"]``.
    """
    by_repeat: dict[int, dict[str, dict]] = {}
    for m in measurements:
        by_repeat.setdefault(int(m["repeat"]), {})[m["side"]] = m
    if not by_repeat:
        raise ValueError("no measurements")
    for r, sides in by_repeat.items():
        missing = [s for s in SIDES if s not in sides]
        if missing:
            raise ValueError(f"repeat {r} lacks {', '.join(missing)}")
    repeats = sorted(by_repeat)
    out: dict = {"repeats": len(repeats)}
    for clock in ("cpu", "wall"):
        key = f"{clock}_sps"
        median_sps = {s: statistics.median(by_repeat[r][s][key] for r in repeats) for s in SIDES}
        per_repeat = {
            s: [by_repeat[r][s][key] / by_repeat[r]["minigrid"][key] for r in repeats]
            for s in ("old", "new")
        }
        ratio = {s: statistics.median(v) for s, v in per_repeat.items()}
        out[clock] = {
            "median_sps": median_sps,
            "ratio_per_repeat": per_repeat,
            "ratio": ratio,
            "relative": ratio["new"] / ratio["old"],
            # A cross-check: the median of the per-repeat new/old speeds.
            "relative_per_repeat_median": statistics.median(
                n / o for n, o in zip(per_repeat["new"], per_repeat["old"], strict=True)
            ),
        }
    return out


def markdown_table(summary: dict, labels: dict[str, str]) -> str:
    """The summary as a small Markdown table (plus the new/old line)."""
    cpu, wall = summary["cpu"], summary["wall"]
    names = {"minigrid": MINIGRID_ID, "old": f"old: {AMBUSH_ID}", "new": f"new: {AMBUSH_ID}"}
    lines = [
        "| side | code | CPU steps/s | wall steps/s | ratio to MiniGrid (CPU) | ratio to MiniGrid (wall) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for s in SIDES:
        rc = "1.000" if s == "minigrid" else f"{cpu['ratio'][s]:.3f}"
        rw = "1.000" if s == "minigrid" else f"{wall['ratio'][s]:.3f}"
        lines.append(
            f"| {names[s]} | {labels.get(s, '')} | {cpu['median_sps'][s]:,.0f} | {wall['median_sps'][s]:,.0f} | {rc} | {rw} |"
        )
    lines.append("")
    lines.append(
        f"new/old ratio: **{cpu['relative']:.3f}** (CPU time), {wall['relative']:.3f} (wall clock); "
        f"medians over {summary['repeats']} interleaved repeat(s)."
    )
    return "\n".join(lines)


def write_json_atomic(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder and ``os.replace``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- worker (subprocess)


def _under(path: str | os.PathLike, tree: Path) -> bool:
    try:
        Path(path).resolve().relative_to(tree)
        return True
    except ValueError:
        return False


def run_worker(kind: str, tree: Path | None, steps: int, warmup: int, seed: int) -> dict:
    """One measurement in this process; returns steps/s of CPU and wall time."""
    import gymnasium
    import numpy as np

    info_extra: dict = {}
    if kind == "ambush":
        import ambush_env

        tree = Path(tree if tree is not None else Path.cwd()).resolve()
        if not _under(ambush_env.__file__, tree):
            raise BenchError(f"ambush_env imported from {ambush_env.__file__}, not from {tree}")
        env = gymnasium.make(AMBUSH_ID)
        info_extra["module_file"] = str(Path(ambush_env.__file__).resolve())
    elif kind == "minigrid":
        import minigrid

        env = gymnasium.make(MINIGRID_ID)
        info_extra["module_file"] = str(Path(minigrid.__file__).resolve())
        info_extra["minigrid_version"] = getattr(minigrid, "__version__", "?")
    else:
        raise ValueError(f"unknown worker kind {kind!r}")

    rng = np.random.default_rng(seed)
    masked = kind == "ambush"
    n_actions = int(env.action_space.n)
    _, info = env.reset(seed=seed)
    episodes = 0

    def play(n: int) -> None:
        nonlocal info, episodes
        for _ in range(n):
            if masked:
                legal = np.flatnonzero(info["action_mask"])
                action = int(legal[rng.integers(legal.size)])
            else:
                action = int(rng.integers(n_actions))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
                episodes += 1

    play(warmup)
    episodes = 0
    c0, w0 = time.process_time(), time.perf_counter()
    play(steps)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    env.close()

    if kind == "ambush":
        # Nothing of the package may come from another checkout (e.g. the editable install).
        stray = sorted(
            name
            for name, mod in list(sys.modules.items())
            if name.split(".")[0] in ("ambush_env", "agents")
            and getattr(mod, "__file__", None)
            and not _under(mod.__file__, tree)
        )
        if stray:
            raise BenchError(f"modules not from {tree}: {', '.join(stray)}")

    return {
        "kind": kind,
        "steps": steps,
        "episodes_ended": episodes,
        "cpu_s": cpu,
        "wall_s": wall,
        "cpu_sps": steps / cpu if cpu > 0 else float("inf"),
        "wall_sps": steps / wall if wall > 0 else float("inf"),
        "python": sys.version.split()[0],
        **info_extra,
    }


# --------------------------------------------------------------------------- driver


def _git(*args: str, cwd: Path = REPO_ROOT) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout.strip()


def _add_worktree(stack: ExitStack, rev: str, verbose: bool) -> tuple[Path, str]:
    """A temporary detached worktree of ``rev``, removed when ``stack`` closes."""
    try:
        commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except BenchError:
        raise BenchError(
            f"{rev!r} is neither a checkout folder nor a git revision of {REPO_ROOT}"
        ) from None
    tmp = Path(tempfile.mkdtemp(prefix="ambush-bench-"))
    tree = tmp / "tree"

    def cleanup() -> None:
        if tree.exists():
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)],
                cwd=REPO_ROOT,
                capture_output=True,
                text=True,
            )
        shutil.rmtree(tmp, ignore_errors=True)
        if verbose:
            print(f"removed worktree {tree}", file=sys.stderr)

    stack.callback(cleanup)
    _git("worktree", "add", "--detach", str(tree), commit)
    if verbose:
        print(f"worktree of {rev} ({commit[:10]}) at {tree}", file=sys.stderr)
    return tree.resolve(), f"{rev} ({commit[:10]})"


def resolve_side(stack: ExitStack, spec: str | None, verbose: bool) -> tuple[Path, str]:
    """(tree, label) of ``--old``/``--new``: the script's checkout, a checkout path or a revision."""
    if spec is None:
        head = _git("rev-parse", "--short=10", "HEAD")
        dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
        return REPO_ROOT, f"working tree ({head}{' + uncommitted changes' if dirty else ''})"
    path = Path(spec).expanduser()
    if path.is_dir():
        if not (path / "ambush_env" / "__init__.py").is_file():
            raise BenchError(f"{path} has no ambush_env package")
        return path.resolve(), f"checkout {path.resolve()}"
    return _add_worktree(stack, spec, verbose)


def measure(kind: str, tree: Path | None, args: argparse.Namespace, seed: int) -> dict:
    """Run one measurement in a fresh subprocess and return its result dict."""
    env = dict(os.environ)
    cwd = tree if tree is not None else REPO_ROOT
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    env.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    env.setdefault("PYTHONHASHSEED", "0")  # the same set/dict orders in every run
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        kind,
        "--steps",
        str(args.steps),
        "--warmup",
        str(args.warmup),
        "--seed",
        str(seed),
    ]
    if tree is not None:
        cmd += ["--tree", str(tree)]
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=args.timeout
        )
    except subprocess.TimeoutExpired:
        raise BenchError(f"{kind} measurement in {cwd} ran past {args.timeout:g} s") from None
    if proc.returncode != 0:
        raise BenchError(
            f"{kind} measurement in {cwd} failed (exit {proc.returncode}):\n{proc.stderr.strip()}"
        )
    lines = proc.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        raise BenchError(
            f"{kind} measurement printed no result:\n{proc.stdout}\n{proc.stderr}"
        ) from None


def run_bench(args: argparse.Namespace) -> dict:
    with ExitStack() as stack:
        old_tree, old_label = resolve_side(stack, args.old, args.verbose)
        new_tree, new_label = resolve_side(stack, args.new, args.verbose)
        trees = {"minigrid": None, "old": old_tree, "new": new_tree}
        labels = {"old": old_label, "new": new_label}
        measurements: list[dict] = []
        for r in range(args.repeats):
            for side in order_for_repeat(r):
                kind = "minigrid" if side == "minigrid" else "ambush"
                res = measure(kind, trees[side], args, args.seed)
                res.update(repeat=r, side=side)
                measurements.append(res)
                if args.verbose:
                    print(
                        f"repeat {r} {side:8s} {res['cpu_sps']:>10,.0f} CPU steps/s {res['wall_sps']:>10,.0f} "
                        f"wall steps/s  ({res['module_file']})",
                        file=sys.stderr,
                    )
        versions = {m.get("minigrid_version", "?") for m in measurements if m["side"] == "minigrid"}
        labels["minigrid"] = "minigrid " + ", ".join(sorted(versions))
    summary = summarise(measurements)
    return {
        "config": {
            "old": args.old,
            "new": args.new,
            "steps": args.steps,
            "repeats": args.repeats,
            "warmup": args.warmup,
            "seed": args.seed,
            "ambush_id": AMBUSH_ID,
            "minigrid_id": MINIGRID_ID,
            "python": sys.version.split()[0],
        },
        "labels": labels,
        "summary": summary,
        "measurements": measurements,
    }


def _on_sigterm(signum, frame):  # turn SIGTERM into SystemExit so the worktrees are removed
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.worker:
        print(json.dumps(run_worker(args.worker, args.tree, args.steps, args.warmup, args.seed)))
        return 0

    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        result = run_bench(args)
    except BenchError as exc:
        print(f"bench_ratio: {exc}", file=sys.stderr)
        return 3
    print(markdown_table(result["summary"], result["labels"]))
    if args.json is not None:
        write_json_atomic(args.json, result)
    relative = result["summary"]["cpu"]["relative"]
    if args.min_relative is not None and relative < args.min_relative:
        print(f"bench_ratio: new/old = {relative:.3f} < {args.min_relative:g}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
