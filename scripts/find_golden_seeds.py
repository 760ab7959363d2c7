#!/usr/bin/env python
"""Search the golden seeds of a mission: game seed x policy seed pairs whose random playthrough
(ambush_env/playthrough.py) shows the most of ``VEHICLE_FEATURES`` (issue 11, done-when 3).

    python scripts/find_golden_seeds.py tank_hunt --seeds 2024 --policies 0:400 \
        --want tank_crew_points german_vehicle_card blast_at_vehicle

Prints each pair that shows every wanted feature (and the features it shows); the first one
goes into ``GOLDEN_SEEDS`` of playthrough.py, then ``python scripts/regen_golden.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from ambush_env.playthrough import VEHICLE_FEATURES, features, random_play_events


def _span(text: str) -> range:
    a, _, b = text.partition(":")
    return range(int(a), int(b)) if b else range(int(a), int(a) + 1)


def _one(job: tuple[str, int, int]) -> tuple[int, int, set[str]]:
    mission, seed, policy = job
    return seed, policy, features(random_play_events(mission, seed, policy))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mission")
    ap.add_argument("--seeds", default="2024", help="game seeds, N or A:B")
    ap.add_argument("--policies", default="0:200", help="policy seeds, N or A:B")
    ap.add_argument("--want", nargs="*", default=list(VEHICLE_FEATURES))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--first", action="store_true", help="stop at the first pair found")
    args = ap.parse_args(argv)
    want = set(args.want)
    jobs = [(args.mission, s, p) for s in _span(args.seeds) for p in _span(args.policies)]
    t0 = time.perf_counter()
    best: tuple[int, int, set[str]] | None = None
    with ProcessPoolExecutor(args.workers) as ex:
        for seed, policy, shown in ex.map(_one, jobs, chunksize=4):
            if best is None or len(shown & want) > len(best[2] & want):
                best = (seed, policy, shown)
            if want <= shown:
                print(
                    f"{args.mission}: seed {seed} policy {policy} shows {sorted(shown)}", flush=True
                )
                if args.first:
                    ex.shutdown(cancel_futures=True)
                    break
    print(f"best: {best} ({len(jobs)} pairs, {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
