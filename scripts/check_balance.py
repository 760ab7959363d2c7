"""Issue 13 done-when 3: check the difficulty ladder and the random-vs-heuristic criteria on two
standard-suite result files (``ambush bench --suite standard --agent heuristic|random``).

Usage: python scripts/check_balance.py HEURISTIC.json [RANDOM.json]

Per mission: heuristic win rate strictly green > regular > veteran; regular within [0.2, 0.8];
random win rate and mean VP below the heuristic's on every mission x deck. Pooled over
missions: Wilson 95 % intervals of green and veteran. Prints the table; exit 1 if any fails."""

import json
import math
import sys


def load(p):
    with open(p, encoding="utf-8") as f:
        return json.load(f)["missions"]


def wilson(k, n, z=1.96):
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


H = load(sys.argv[1])
R = load(sys.argv[2]) if len(sys.argv) > 2 else {}
missions = sorted({k.split("/")[0] for k in H})
ok = True
print(f"{'mission':20s} {'green':>18s} {'regular':>18s} {'veteran':>18s} | rand win/vp  heur vp")
for m in missions:
    row = []
    for d in ("green", "regular", "veteran"):
        t = H[f"{m}/{d}"]
        row.append(t)
    w = [t["win_rate"] for t in row]
    strict = w[0] > w[1] > w[2]
    reg = 0.2 <= w[1] <= 0.8
    s = " ".join(
        f"{t['win_rate']:.2f}[{t['win_rate_ci95'][0]:.2f},{t['win_rate_ci95'][1]:.2f}]" for t in row
    )
    rr = ""
    if R:
        for d in ("green", "regular", "veteran"):
            r = R[f"{m}/{d}"]
            h = H[f"{m}/{d}"]
            bad = not (r["win_rate"] < h["win_rate"] and r["mean_vp"] < h["mean_vp"])
            rr += f" {d[0]}:{r['win_rate']:.2f}/{r['mean_vp']:.1f} vs {h['mean_vp']:.1f}{'!' if bad else ''}"
            if bad:
                ok = False
        # pooled over decks
        rp = sum(R[f"{m}/{d}"]["mean_vp"] for d in ("green", "regular", "veteran")) / 3
        hp = sum(H[f"{m}/{d}"]["mean_vp"] for d in ("green", "regular", "veteran")) / 3
        rr += f" pooled {rp:.1f}<{hp:.1f}"
    flags = ("" if strict else " NOT-STRICT") + ("" if reg else " REG-OUT")
    ok &= strict and reg
    print(f"{m:20s} {s} |{rr}{flags}")
pooled = {}
for d in ("green", "regular", "veteran"):
    k = sum(round(H[f"{m}/{d}"]["win_rate"] * H[f"{m}/{d}"]["episodes"]) for m in missions)
    n = sum(H[f"{m}/{d}"]["episodes"] for m in missions)
    pooled[d] = wilson(k, n)
    print(d, f"pooled {k / n:.3f}", "wilson", tuple(round(x, 3) for x in pooled[d]))
if not pooled["green"][0] > pooled["veteran"][1]:
    print("pooled green and veteran intervals overlap")
    ok = False
print("ALL OK" if ok else "SOME FAIL")
sys.exit(0 if ok else 1)
