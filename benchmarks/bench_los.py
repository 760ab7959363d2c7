"""Line-of-sight speed (issue 3): cache build time and cached queries per second.

Run: ``python benchmarks/bench_los.py [--columns 30 --rows 20 --queries 1000000 --json OUT]``

Prints, for a seeded random board (woods, brush, hills, embankments, walled buildings with
doors and windows):

- the time to build a :class:`SightCache` from cold (hex-grid geometry tables included) and
  warm (geometry of that board size already in the process);
- cached queries/s through ``SightCache.can_see`` (hex indices, Stance ints);
- cached queries/s through the label API (``SightCache.sees`` and the memoised
  ``SightCache.line_of_sight``), and uncached ``line_of_sight`` calls/s for comparison;
- the time to bring the cache up to date after a wall is destroyed and a building collapses.

Targets: >= 500 000 cached internal queries/s, build <= 2 s for 30 x 20.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ambush_env.core.model.types import STANCE_NAMES, Terrain
from ambush_env.core.world import hexgrid
from ambush_env.core.world import los as los_mod
from ambush_env.core.world.board import Board, board_from_dict
from ambush_env.core.world.hexgrid import make_label, neighbor_cr
from ambush_env.core.world.los import SightCache, line_of_sight


def random_board(columns: int, rows: int, seed: int = 0) -> Board:
    """A seeded random map with every feature line of sight reads."""
    rng = np.random.default_rng(seed)
    hexes: dict[str, dict] = {}
    for c in range(columns):
        for r in range(rows):
            u = rng.random()
            lab = make_label(c, r)
            if u < 0.12:
                hexes[lab] = {
                    "terrain": str(rng.choice(["woods", "brush", "rough"])),
                    "level": int(rng.integers(0, 3)),
                }
            elif u < 0.20:
                hexes[lab] = {"terrain": "building", "building": f"b{(r // 2) * columns + c // 2}"}
            elif u < 0.40:
                hexes[lab] = {"level": int(rng.integers(0, 3))}
    sides: dict[str, object] = {}
    for c in range(columns):
        for r in range(rows):
            a = make_label(c, r)
            for d in range(3):
                cc, rr = neighbor_cr(c, r, d)
                if not (0 <= cc < columns and 0 <= rr < rows):
                    continue
                b = make_label(cc, rr)
                ba, bb = hexes.get(a, {}).get("building"), hexes.get(b, {}).get("building")
                u = rng.random()
                if ba != bb and (ba or bb) and u < 0.4:
                    sides[f"{a}/{b}"] = {"aperture": "door" if u < 0.15 else "window"}
                elif u < 0.02:
                    sides[f"{a}/{b}"] = "crest"
                elif u < 0.05 and hexes.get(a, {}).get("level", 0) != hexes.get(b, {}).get(
                    "level", 0
                ):
                    sides[f"{a}/{b}"] = "embankment"
    return board_from_dict(
        {"name": "bench", "columns": columns, "rows": rows, "hexes": hexes, "hexsides": sides}
    )


def rate(fn, n: int) -> float:
    t = time.perf_counter()
    fn()
    return n / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--columns", type=int, default=30)
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    board = random_board(args.columns, args.rows, args.seed)
    n = board.n
    hexgrid.trace_table.cache_clear()
    los_mod._pair_geometry.cache_clear()
    t = time.perf_counter()
    cache = SightCache(board)
    build_cold = time.perf_counter() - t
    t = time.perf_counter()
    SightCache(board)
    build_warm = time.perf_counter() - t

    rng = np.random.default_rng(args.seed + 1)
    q = args.queries
    qi = rng.integers(0, n, q).tolist()
    qj = rng.integers(0, n, q).tolist()
    qs = rng.integers(0, 3, q).tolist()
    qt = rng.integers(0, 3, q).tolist()
    can_see = cache.can_see

    def run_indices():
        for i, j, s, u in zip(qi, qj, qs, qt, strict=True):
            can_see(i, j, s, u)

    ql = min(q, 200_000)
    la = [board.label(i) for i in qi[:ql]]
    lb = [board.label(j) for j in qj[:ql]]
    sa = [STANCE_NAMES[s] for s in qs[:ql]]
    sb = [STANCE_NAMES[s] for s in qt[:ql]]
    sees = cache.sees

    def run_labels():
        for a, b, s, u in zip(la, lb, sa, sb, strict=True):
            sees(a, b, s, u)

    memo_n = 2_000
    cached_los = cache.line_of_sight

    def run_memo():
        for a, b, s, u in zip(la[:memo_n], lb[:memo_n], sa[:memo_n], sb[:memo_n], strict=True):
            cached_los(a, b, sighter_stance=s, target_stance=u)

    run_memo()  # fill the memo

    def run_uncached():
        for a, b, s, u in zip(la[:memo_n], lb[:memo_n], sa[:memo_n], sb[:memo_n], strict=True):
            line_of_sight(board, a, b, sighter_stance=s, target_stance=u)

    out = {
        "board": f"{args.columns}x{args.rows}",
        "hexes": n,
        "build_cold_s": round(build_cold, 4),
        "build_warm_s": round(build_warm, 4),
        "can_see_per_s": round(rate(run_indices, q)),
        "sees_labels_per_s": round(rate(run_labels, ql)),
        "line_of_sight_memo_per_s": round(rate(run_memo, memo_n)),
        "line_of_sight_uncached_per_s": round(rate(run_uncached, memo_n)),
    }
    # Mutations: destroy one wall, collapse one building hex, then one query brings it up to date.
    walls = [s for s in range(3 * n) if board.intact_wall(s)]
    i, j = board.side_hexes(walls[0])
    board.destroy_wall(i, j)
    t = time.perf_counter()
    cache.can_see(0, 1)
    out["refresh_after_destroy_wall_s"] = round(time.perf_counter() - t, 4)
    bld = next(k for k in range(n) if board.terrain[k] == Terrain.BUILDING)
    board.collapse(bld)
    t = time.perf_counter()
    cache.can_see(0, 1)
    out["refresh_after_collapse_s"] = round(time.perf_counter() - t, 4)

    width = max(len(k) for k in out)
    for k, v in out.items():
        print(f"{k:<{width}}  {v:,}" if isinstance(v, int) else f"{k:<{width}}  {v}")
    ok = out["can_see_per_s"] >= 500_000 and out["build_cold_s"] <= 2.0
    print("targets (>= 500 000 can_see/s, build <= 2 s):", "met" if ok else "NOT met")
    if args.json:
        from ambush_env.core.world.data import write_text_atomic

        write_text_atomic(json.dumps(out, indent=2), args.json, what="JSON")
    return out


if __name__ == "__main__":
    main()
