"""Copy speed (issue 10, done-when 4): ``Game.clone()`` and the ``get_state``/``set_state``
round trip, on the Game and on the Gymnasium env, mid-game on farm_assault.

Run: ``python benchmarks/bench_copies.py [--seed 0] [--repeats 2000] [--json OUT]``

The situation is reached by seeded random legal play: the first US decision in Rounds with a
German placed on the map and known (a contact). Every figure is the median of ``--repeats``
single calls timed with ``time.perf_counter_ns`` (after a warm-up), in microseconds:

- ``clone()``: the copy itself (the dice's generator state is made lazily, on the clone's
  first roll beyond the current block); ``clone() + first step``: a clone and one legal order
  on it, against ``step`` on a clone made beforehand, so the copy's deferred costs show;
- ``get_state()``, ``set_state()`` and the round trip ``set_state(get_state())`` on the Game
  (its position) and on ``gymnasium.make("ambush/FarmAssault-v0").unwrapped`` (the position
  plus the env's counters; ``set_state`` also rebuilds the observation).

Checks printed with the figures (and the script exits 1 if one fails): the clone's next 5 000
rolls equal the original's, the clone's next 20 orders give the original's events, and the
state round trips are exact. Targets in the issue: clone <= 100 us, get+set <= 500 us.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ambush_env.cli import positive_int
from ambush_env.core import Game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ratio import write_json_atomic

MISSION = "farm_assault"
TARGETS_US = {"clone": 100.0, "get+set": 500.0}


def mid_game(seed: int, max_steps: int = 5000) -> tuple[Game, int]:
    """Seeded random legal play up to the first US decision in Rounds with a known German on
    the map. Returns the game and the steps played."""
    g = Game(MISSION, seed=seed)
    rnd = random.Random(seed)
    for n in range(max_steps):
        st = g.state
        if st.over:
            raise SystemExit(
                f"seed {seed}: the game ended after {n} steps before a Rounds "
                "decision with a German placed; try another --seed"
            )
        u = g.acting_unit()
        if (
            st.phase == 1
            and u is not None
            and u.side == 0
            and st.contacts
            and any(st.units[i].hex >= 0 for i in st.contacts)
        ):
            return g, n
        g.step(rnd.choice(g.legal_actions()))
    raise SystemExit(f"seed {seed}: no Rounds decision with a German placed in {max_steps} steps")


def median_us(
    fn: Callable[[], Any], repeats: int, warmup: int = 50, setup: Callable[[], Any] | None = None
) -> float:
    """Median wall time of one ``fn(setup())`` call (or ``fn()``), in microseconds."""
    clock = time.perf_counter_ns
    for _ in range(min(warmup, repeats)):
        fn(setup()) if setup is not None else fn()
    times = []
    for _ in range(repeats):
        if setup is not None:
            arg = setup()
            t = clock()
            fn(arg)
        else:
            t = clock()
            fn()
        times.append(clock() - t)
    return statistics.median(times) / 1000.0


def checks(g: Game) -> dict[str, bool]:
    """The clone has the original's future (rolls, events) and the round trips are exact."""
    out: dict[str, bool] = {}
    original = g.clone()  # stands for g, whose own dice are left alone
    a = g.clone()
    c = a.clone()  # a clone of a clone: its generator state is made lazily too
    rolls = [[d.dice.d10() for _ in range(5000)] for d in (original, a, c)]
    out["clone: same next 5000 rolls (past the end of a block)"] = rolls[0] == rolls[1] == rolls[2]
    out["clone: dice state equal after them"] = (
        original.dice.get_state() == a.dice.get_state() == c.dice.get_state()
    )
    a, c = g.clone(), g.clone()
    rnd = random.Random(1)
    same = True
    for _ in range(20):
        legal = a.legal_actions()
        if not legal:
            break
        order = rnd.choice(legal)
        same &= a.step(order) == c.step(order)
    out["clone: same events for 20 orders"] = same
    p = g.get_state()
    h = Game.from_position(p, ctx=g.ctx)
    h.set_state(p)
    out["game: set_state(get_state()) exact"] = h.get_state() == p
    return out


def measure(seed: int, repeats: int) -> dict:
    import gymnasium

    import ambush_env  # noqa: F401  (registers the env ids)

    g, steps = mid_game(seed)
    st = g.state
    situation = {
        "seed": seed,
        "steps_played": steps,
        "round": st.round,
        "acting": g.acting_unit().name,
        "germans_on_map": sum(1 for u in st.units if u.side == 1 and u.hex >= 0),
        "contacts": len(st.contacts),
        "legal_orders": len(g.legal_actions()),
    }
    ok = checks(g)
    order = g.legal_actions()[0]
    p = g.get_state()
    res: dict[str, float] = {}
    res["game clone()"] = median_us(g.clone, repeats)
    res["game step() on a clone (for scale)"] = median_us(
        lambda c: c.step(order), repeats, setup=g.clone
    )
    res["game clone() + first step()"] = median_us(lambda: g.clone().step(order), repeats)
    res["game get_state()"] = median_us(g.get_state, repeats)
    scratch = g.clone()
    res["game set_state()"] = median_us(lambda: scratch.set_state(p), repeats)
    res["game set_state(get_state())"] = median_us(
        lambda: scratch.set_state(g.get_state()), repeats
    )

    env = gymnasium.make("ambush/FarmAssault-v0").unwrapped
    env.reset(seed=seed)
    env.set_state(p)  # the same mid-game situation on the env
    es = env.get_state()
    e2 = gymnasium.make("ambush/FarmAssault-v0").unwrapped
    e2.reset(seed=seed)
    e2.set_state(es)
    ok["env: set_state(get_state()) exact"] = e2.get_state() == es
    res["env get_state()"] = median_us(env.get_state, repeats)
    res["env set_state()"] = median_us(lambda: e2.set_state(es), repeats)
    res["env set_state(get_state())"] = median_us(lambda: e2.set_state(env.get_state()), repeats)
    return {
        "situation": situation,
        "checks": ok,
        "median_us": res,
        "repeats": repeats,
        "targets_us": TARGETS_US,
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
    }


def table(r: dict) -> str:
    m = r["median_us"]
    target = {
        "game clone()": f"<= {TARGETS_US['clone']:.0f}",
        "game set_state(get_state())": f"<= {TARGETS_US['get+set']:.0f}",
        "env set_state(get_state())": f"<= {TARGETS_US['get+set']:.0f}",
    }
    s = r["situation"]
    head = (
        f"farm_assault, seed {s['seed']}: Round {s['round']} after {s['steps_played']} random "
        f"steps, {s['acting']} to act, {s['germans_on_map']} German(s) on the map, "
        f"{s['contacts']} contact(s), {s['legal_orders']} legal orders; medians of "
        f"{r['repeats']} calls."
    )
    lines = [head, "", "| operation | median (µs) | target (µs) |", "|---|---:|---:|"]
    for k, v in m.items():
        lines.append(f"| {k} | {v:.1f} | {target.get(k, '')} |")
    lines.append("")
    for k, v in r["checks"].items():
        lines.append(f"- {k}: {'ok' if v else 'FAILED'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0, help="seed of the random play (default 0)")
    ap.add_argument("--repeats", type=positive_int, default=2000, help="timed calls per figure")
    ap.add_argument(
        "--json", type=Path, default=None, metavar="OUT", help="also write the results to OUT"
    )
    args = ap.parse_args(argv)
    r = measure(args.seed, args.repeats)
    print(table(r))
    if args.json is not None:
        write_json_atomic(args.json, r)
    return 0 if all(r["checks"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
