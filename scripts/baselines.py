"""The learned baselines (issue 26), from trained runs to the published files, one step each.

    python scripts/baselines.py export runs/specialist_seed0 ...   # weights, config, curve
    python scripts/baselines.py evaluate [--workers 2] [--only RUN]  # every shipped model
    python scripts/baselines.py figures                              # docs/img/*__baselines.png
    python scripts/regen_docs.py                                     # the tables in BENCHMARK.md

``export`` writes, per run, ``models/baselines/<run>/<run>.zip`` (the final model without the
optimizer's state: :func:`ambush_env.agents.maskable_ppo.export_weights`) beside the run's
``config.yaml`` and ``bc.json``, the learning curve ``benchmarks/baselines/curves/<run>.csv``
and the run's budget in ``runs.json`` there (env steps, the wall time its chunks
took, the model's sha256). ``evaluate`` plays each shipped model on the suites and seeds of
:data:`ambush_env.baselines.EVALUATION` into ``benchmarks/baselines/<suite>/``
(``ambush bench``'s own runner and result files). ``figures`` draws the learning curves of every
method (mean and 95 % band over seeds) and the performance profiles.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ambush_env import baselines as B  # noqa: E402


def wall_seconds(run: Path) -> float:
    """The run's training time: each chunk's span in its TensorBoard events (first to last
    event) plus the warm start's seconds (``bc.json``)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    total = 0.0
    for folder in sorted({p.parent for p in (run / "tb").rglob("events.out.tfevents.*")}):
        acc = EventAccumulator(str(folder), size_guidance={"scalars": 0})
        acc.Reload()
        times = [e.wall_time for tag in acc.Tags()["scalars"] for e in acc.Scalars(tag)]
        if times:
            total += max(times) - min(times)
    bc = run / "bc.json"
    if bc.exists():
        total += float(json.loads(bc.read_text())["seconds"])
    return round(total, 1)


def budget(run: Path, name: str, src: Path, model: Path | None) -> dict:
    """A run's entry of ``runs.json``: method, seed, the warm start's and PPO's env steps,
    the wall time, and the shipped model's sha256 (None: an ablation arm, not shipped)."""
    from ambush_env.agents.maskable_ppo import load_model

    cfg = yaml.safe_load((run / "config.yaml").read_text())
    bc = run / "bc.json"
    bc_steps = int(json.loads(bc.read_text())["steps"]) if bc.exists() else 0
    ppo = int(load_model(src, device="cpu").num_timesteps)
    return {
        "method": B.run_method(name),
        "seed": cfg["seed"],
        "bc_steps": bc_steps,
        "ppo_steps": ppo,
        "env_steps": bc_steps + ppo,
        "wall_seconds": wall_seconds(run),
        "model_sha256": hashlib.sha256(model.read_bytes()).hexdigest() if model else None,
    }


def cmd_export(args: argparse.Namespace) -> int:
    from ambush_env.agents.maskable_ppo import export_weights
    from ambush_env.bench import write_json_atomic
    from ambush_env.plots import write_curve_csv

    book_path = ROOT / B.RESULTS / "runs.json"
    book = json.loads(book_path.read_text()) if book_path.exists() else {}
    for run in map(Path, args.runs):
        name = run.name
        if B.run_method(name) is None:
            raise SystemExit(f"{run}: a baseline run is named <method>_seed<S>")
        src = run / "final_model.zip"
        if not src.exists():
            raise SystemExit(f"{src}: missing (train the run to its budget first)")
        if args.curve_only:  # an ablation arm: its curve and budget, no shipped model
            write_curve_csv(run, ROOT / B.RESULTS / "curves" / f"{name}.csv")
            book[name] = budget(run, name, src, None)
            print(f"wrote the curve of {name}: {book[name]['env_steps']} env steps")
            continue
        dst = ROOT / B.MODELS / name
        dst.mkdir(parents=True, exist_ok=True)
        model = dst / f"{name}.zip"
        export_weights(src, model)
        for extra in ("config.yaml", "bc.json"):
            if (run / extra).exists():
                shutil.copyfile(run / extra, dst / extra)
        write_curve_csv(run, ROOT / B.RESULTS / "curves" / f"{name}.csv")
        book[name] = budget(run, name, src, model)
        print(
            f"exported {name}: {model} ({model.stat().st_size} bytes), {book[name]['env_steps']} env steps"
        )
    write_json_atomic(dict(sorted(book.items())), book_path)
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ambush_env import bench

    models = sorted((ROOT / B.MODELS).glob("*/*.zip"))
    if args.only:
        models = [m for m in models if m.stem in args.only]
    if not models:
        raise SystemExit(f"no shipped models in {B.MODELS}/ (run export first)")
    for m in models:
        for suite, episodes in B.EVALUATION.items():
            if args.suite and suite not in args.suite:
                continue
            res = bench.run_bench(
                str(m.relative_to(ROOT)),
                suite,
                episodes=episodes,
                workers=args.workers,
                sample=B.SAMPLE,
                progress=not args.no_progress,
            )
            out = bench.write_outputs(res, out_dir=ROOT / B.RESULTS / suite)
            print(f"wrote {out}")
    return 0


#: the learning-curve figures: file stem -> (title, the methods it shows)
FIGURES = {
    "learning_curves__specialist": (
        "farm_assault/regular: the specialist and its ablations (mean, 95 % band over seeds)",
        ("ablation_scratch", "ablation_bc", "specialist"),
    ),
    "learning_curves__generalist": (
        "the generalist: every shipped mission and generated train missions, three decks",
        ("generalist",),
    ),
}


def cmd_figures(args: argparse.Namespace) -> int:
    from ambush_env.plots import plot_seed_curves

    curves = sorted((ROOT / B.RESULTS / "curves").glob("*.csv"))
    by_method: dict[str, list[Path]] = {}
    for c in curves:
        by_method.setdefault(B.run_method(c.stem) or c.stem, []).append(c)
    for stem, (title, methods) in FIGURES.items():
        shown = {m: by_method[m] for m in methods if m in by_method}
        if shown:
            out = plot_seed_curves(shown, ROOT / "docs" / "img" / f"{stem}.png", title=title)
            print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="ship trained runs (weights, config, curve, budget)")
    e.add_argument("runs", nargs="+", help="run folders, runs/<method>_seed<S>")
    e.add_argument(
        "--curve-only",
        action="store_true",
        help="an ablation arm: write its curve and budget, ship no model",
    )
    e.set_defaults(func=cmd_export)
    v = sub.add_parser("evaluate", help="play every shipped model on the evaluation suites")
    v.add_argument("--workers", type=int, default=1)
    v.add_argument("--only", nargs="*", default=None, help="run names to evaluate")
    v.add_argument("--suite", nargs="*", default=None, help="suites (default: all of EVALUATION)")
    v.add_argument("--no-progress", action="store_true")
    v.set_defaults(func=cmd_evaluate)
    f = sub.add_parser("figures", help="learning curves over seeds")
    f.set_defaults(func=cmd_figures)
    args = p.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
