#!/usr/bin/env python
"""Fuzz the promises of positions (docs/API.md "Positions and orders"): random legal play on
every registered id, checking at intervals that a game is held and restored exactly.

Cases: every id of ``gymnasium.registry`` under ``ambush/`` at its newest version (the
missions' ids, ``ambush/Ambush``, ``ambush/Procedural``, ``ambush/Campaign``) × rules
(``standard``, ``d100``) × deck (every shipped one: green, regular, veteran) × who plays the
Germans (``cards``: the env's own game; ``agent``: two-sided play, a
:class:`~ambush_env.core.Game` with ``german="agent"`` on the env's mission and map, both sides
taking random legal orders). The campaign id plays its chain's own rules and decks, US side
only. Each worker plays the cases in turn, one episode each, with uniformly random legal orders
(numpy's generator, seeded from ``--seed`` and the worker's number).

Every ``--every`` steps or so (a random offset) the game at hand is checked:

* ``round_trip``: ``write(read(write(g))) == write(g)`` for ``p = g.position()``, also after a
  JSON round trip of ``p``, and the state read equals ``g.state`` (every dataclass field);
* ``clone``: ``g.state.clone() == g.state`` and ``g.clone()`` plays on identically;
* ``pickle`` / ``set_state`` (cards cases, every ``--pickle-every``-th check): the env
  unpickled, and a fresh env given ``get_state()``, hold the same position;
* ``continue``: the restored copies (the position read on the game's context, every
  ``--fresh-every``-th check on a fresh context as a separate process would build it; the
  clone; the unpickled and the set-state envs) and the original then take the same
  ``--stretch`` random legal orders: the legal orders, the events (with their rolls) and the
  positions at the end must be the same.

It prints the counts of steps, checks and mismatches, writes each mismatch (its kind, case,
step, the first differing fields, the position before the stretch and the orders of the
stretch) to ``--out``/<kind>_<worker>_<n>.json, and exits 1 on any mismatch. To reproduce one:
``Game.from_position(json.load(open(f))["position"])`` then play ``"orders"``.

    python scripts/fuzz_positions.py --steps 1000000 --workers 2 --seed 0
    python scripts/fuzz_positions.py --steps 20000 --every 50      # a quick look

:func:`fuzz` is the function the default tests call (a few thousand steps).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KINDS = ("round_trip", "clone", "pickle", "set_state", "continue")


@dataclass
class Report:
    """Counts of one fuzz run (summed over workers) and its mismatches."""

    steps: int = 0  # orders played by the original games
    copy_steps: int = 0  # orders played by the restored copies, stretches included
    episodes: int = 0
    checks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    mismatches: list[dict] = field(default_factory=list)
    cases: set[str] = field(default_factory=set)
    seconds: float = 0.0

    def add(self, other: Report) -> None:
        self.steps += other.steps
        self.copy_steps += other.copy_steps
        self.episodes += other.episodes
        for k, n in other.checks.items():
            self.checks[k] = self.checks.get(k, 0) + n
        self.mismatches += other.mismatches
        self.cases |= other.cases

    def mismatch_counts(self) -> dict[str, int]:
        out = dict.fromkeys(KINDS, 0)
        for m in self.mismatches:
            out[m["kind"]] += 1
        return out

    def summary(self) -> str:
        checks = ", ".join(f"{k} {n}" for k, n in self.checks.items())
        bad = ", ".join(f"{k} {n}" for k, n in self.mismatch_counts().items())
        rate = self.steps / self.seconds if self.seconds else 0.0
        return (
            f"steps {self.steps} (copies {self.copy_steps}), episodes {self.episodes}, "
            f"cases {len(self.cases)}, {self.seconds:.0f} s ({rate:.0f} steps/s)\n"
            f"checks: {checks}\nmismatches: {len(self.mismatches)} ({bad})"
        )


# ------------------------------------------------------------------------------ cases
def newest_ids() -> list[str]:
    """The ``ambush/`` ids of ``gymnasium.registry``, each at its newest version."""
    import gymnasium

    import ambush_env  # noqa: F401 - registers the ids

    best: dict[str, tuple[int, str]] = {}
    for id_ in gymnasium.registry:
        if not id_.startswith("ambush/"):
            continue
        name, _, ver = id_.rpartition("-v")
        v = int(ver) if ver.isdigit() else -1
        if name not in best or v > best[name][0]:
            best[name] = (v, id_)
    return sorted(i for _, i in best.values())


def all_cases() -> list[tuple[str, str, str, str]]:
    """``(id, rules, deck, german)`` of every case (the campaign: its chain's own rules and
    decks, ``"-"``)."""
    from ambush_env.core.world.cards import list_decks

    out = []
    for id_ in newest_ids():
        if "Campaign" in id_:
            out.append((id_, "-", "-", "cards"))
            continue
        for rules in ("standard", "d100"):
            for deck in list_decks():
                for german in ("cards", "agent"):
                    out.append((id_, rules, deck, german))
    return out


def _make_env(case: tuple[str, str, str, str]) -> Any:
    import gymnasium

    id_, rules, deck, _ = case
    kw = {} if rules == "-" else {"rules": rules, "opponent": deck}
    return gymnasium.make(id_, disable_env_checker=True, **kw).unwrapped


# ------------------------------------------------------------------------------ comparing
def diff(a: Any, b: Any, path: str = "", out: list[str] | None = None, most: int = 8) -> list[str]:
    """The first ``most`` paths where two JSON-like values differ (dataclasses by field)."""
    from dataclasses import fields, is_dataclass

    out = [] if out is None else out
    if len(out) >= most:
        return out
    if is_dataclass(a) and is_dataclass(b) and type(a) is type(b):
        for f in fields(a):
            diff(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", out, most)
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'missing' if k not in b else 'extra'}")
            else:
                diff(a[k], b[k], f"{path}.{k}", out, most)
    elif (
        isinstance(a, (list, tuple))
        and isinstance(b, (list, tuple))
        and len(a) == len(b)
        and type(a) is type(b)
    ):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            diff(x, y, f"{path}.{k}", out, most)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: {a!r} != {b!r}"[:300])
    return out


class _Side:
    """One copy of a game being played: an env (its ``game``) or a bare Game."""

    def __init__(self, name: str, game: Any = None, env: Any = None) -> None:
        self.name, self.env, self._game = name, env, game

    @property
    def game(self) -> Any:
        return self.env.game if self.env is not None else self._game

    def step(self, a: int) -> tuple[list[dict], bool]:
        """Play ``a``; the events (dict forms, rolls included) and whether the episode ended."""
        if self.env is not None:
            _, _, term, trunc, _ = self.env.step(a)
            return [e.to_dict() for e in self.env.game.last_events], bool(term or trunc)
        ev = self._game.step(a)
        return ev, bool(self._game.state.over)


def _position(side: _Side) -> dict:
    p = side.game.position()
    p.pop("env", None)
    return p


# ------------------------------------------------------------------------------ one worker
class Worker:
    def __init__(
        self,
        index: int,
        seed: int,
        out: Path | None,
        every: int,
        stretch: int,
        pickle_every: int,
        fresh_every: int,
    ) -> None:
        self.index, self.out = index, out
        self.rng = np.random.default_rng([seed, index])
        self.every, self.stretch = every, stretch
        self.pickle_every, self.fresh_every = pickle_every, fresh_every
        self.report = Report()
        self.n_checks = 0

    def _fail(
        self, kind: str, case: tuple, step: int, detail: list[str], p: dict, orders: list[int]
    ) -> None:
        m = {
            "kind": kind,
            "case": list(case),
            "worker": self.index,
            "step": step,
            "detail": detail,
            "orders": [int(a) for a in orders],
            "position": p,
        }
        self.report.mismatches.append(m)
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            n = len(self.report.mismatches)
            path = self.out / f"{kind}_{self.index}_{n}.json"
            from ambush_env.core.world.data import write_text_atomic

            write_text_atomic(json.dumps(m, indent=1, default=str), path, what="mismatch report")

    def episode(self, case: tuple, budget: int) -> int:
        """Play one episode of ``case`` (at most ``budget`` orders); returns the orders played."""
        from ambush_env.core import Game

        env = _make_env(case)  # one at a time: a context holds its sight tables
        env.reset(seed=int(self.rng.integers(2**31)))
        if case[3] == "agent":
            side = _Side(
                "original",
                game=Game(ctx=env.game.ctx, german="agent", seed=int(self.rng.integers(2**31))),
            )
        else:
            side = _Side("original", env=env)
        self.report.cases.add("/".join(case))
        self.report.episodes += 1
        played = 0
        next_check = int(self.rng.integers(1, self.every + 1))
        while played < budget:
            g = side.game
            if g.state.over:
                break
            if played >= next_check:
                n, done = self.check(case, side, played)
                played += n
                if done:
                    break
                next_check = played + int(
                    self.rng.integers(self.every // 2 + 1, self.every * 3 // 2 + 2)
                )
                continue
            legal = g.legal_actions()
            _, done = side.step(int(legal[self.rng.integers(len(legal))]))
            played += 1
            if done:
                break
        self.report.steps += played
        return played

    def check(self, case: tuple, side: _Side, step: int) -> tuple[int, bool]:
        """Check the game at hand (module docstring); returns the orders the original played
        and whether its episode ended."""
        from ambush_env.core import Game

        self.n_checks += 1
        g = side.game
        p = _position(side)
        copies: list[_Side] = []
        # the position round trip, on the game's context and (now and then) on a fresh one
        fresh = self.n_checks % self.fresh_every == 0
        for name, q in (("position", p), ("json", json.loads(json.dumps(p)))):
            self.report.checks["round_trip"] += 1
            try:
                h = Game.from_position(q, ctx=None if (fresh and name == "position") else g.ctx)
            except Exception as e:
                self._fail("round_trip", case, step, [f"{name}: {type(e).__name__}: {e}"], p, [])
                continue
            bad = diff(p, _position(_Side(name, game=h)))
            bad += diff(g.state, h.state, "state")
            if bad:
                self._fail("round_trip", case, step, [name, *bad], p, [])
            else:
                copies.append(_Side(name, game=h))
        # the clone
        self.report.checks["clone"] += 1
        bad = diff(g.state, g.state.clone(), "clone")
        if bad:
            self._fail("clone", case, step, bad, p, [])
        copies.append(_Side("clone", game=g.clone()))
        # pickling and set_state (the env's own cases)
        if side.env is not None and self.n_checks % self.pickle_every == 0:
            env = side.env
            want = env.get_state()
            self.report.checks["pickle"] += 1
            try:
                e2 = pickle.loads(pickle.dumps(env))
                bad = diff(want, e2.get_state())
            except Exception as e:
                e2, bad = None, [f"{type(e).__name__}: {e}"]
            if bad:
                self._fail("pickle", case, step, bad, p, [])
            elif e2 is not None:
                copies.append(_Side("pickle", env=e2))
            self.report.checks["set_state"] += 1
            try:
                e3 = _make_env(case)
                e3.reset(seed=int(self.rng.integers(2**31)))
                e3.set_state(want)
                bad = diff(want, e3.get_state())
            except Exception as e:
                e3, bad = None, [f"{type(e).__name__}: {e}"]
            if bad:
                self._fail("set_state", case, step, bad, p, [])
            elif e3 is not None:
                copies.append(_Side("set_state", env=e3))
        # the stretch: the same random orders for all
        self.report.checks["continue"] += 1
        orders: list[int] = []
        alive = list(copies)
        played, done = 0, False
        for _ in range(self.stretch):
            if side.game.state.over:
                break
            legal = side.game.legal_actions()
            a = int(legal[self.rng.integers(len(legal))])
            orders.append(a)
            ev, done = side.step(a)
            played += 1
            for c in list(alive):
                bad = diff(legal, c.game.legal_actions(), f"{c.name}.legal")
                if not bad:
                    try:
                        ev2, _ = c.step(a)
                        self.report.copy_steps += 1
                        bad = diff(ev, ev2, f"{c.name}.events")
                    except Exception as e:
                        bad = [f"{c.name}: {type(e).__name__}: {e}"]
                if bad:
                    self._fail("continue", case, step, bad, p, orders)
                    alive.remove(c)
            if done:
                break
        end = _position(side)
        for c in alive:
            bad = diff(end, _position(c), f"{c.name}.end")
            if bad:
                self._fail("continue", case, step, bad, p, orders)
        return played, done

    def run(self, steps: int, cases: list[tuple]) -> Report:
        t0 = time.time()
        order = list(cases)
        self.rng.shuffle(order)
        k, shown = 0, t0
        while self.report.steps < steps:
            case = tuple(order[k % len(order)])
            k += 1
            self.episode(case, steps - self.report.steps)
            if time.time() - shown > 60:  # progress, for long runs
                shown = time.time()
                r = self.report
                print(
                    f"worker {self.index}: {r.steps}/{steps} steps, {r.episodes} episodes, "
                    f"{sum(r.checks.values())} checks, {len(r.mismatches)} mismatches, "
                    f"{shown - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        self.report.seconds = time.time() - t0
        return self.report


def _work(args: tuple) -> Report:
    index, steps, seed, out, every, stretch, pickle_every, fresh_every, cases = args
    return Worker(index, seed, out, every, stretch, pickle_every, fresh_every).run(steps, cases)


def fuzz(
    steps: int,
    *,
    workers: int = 1,
    seed: int = 0,
    out: Path | str | None = None,
    every: int = 100,
    stretch: int = 25,
    pickle_every: int = 4,
    fresh_every: int = 10,
    cases: list[tuple] | None = None,
) -> Report:
    """Play ``steps`` random legal orders in all (split over ``workers`` processes) across
    ``cases`` (default :func:`all_cases`), checking as the module docstring says; returns the
    counts and mismatches (each also written to ``out`` when given)."""
    cases = list(cases) if cases is not None else all_cases()
    out = Path(out) if out is not None else None
    share = [steps // workers + (1 if w < steps % workers else 0) for w in range(workers)]
    jobs = [
        (w, share[w], seed, out, every, stretch, pickle_every, fresh_every, cases)
        for w in range(workers)
    ]
    t0 = time.time()
    total = Report()
    if workers == 1:
        total.add(_work(jobs[0]))
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for r in pool.imap_unordered(_work, jobs):
                total.add(r)
    total.seconds = time.time() - t0
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--steps", type=int, default=1_000_000, help="orders to play in all")
    ap.add_argument("--workers", type=int, default=2, help="processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="fuzz_mismatches", help="folder for mismatching positions")
    ap.add_argument("--every", type=int, default=100, help="orders between checks (about)")
    ap.add_argument("--stretch", type=int, default=25, help="orders played on after a check")
    ap.add_argument("--pickle-every", type=int, default=4, help="every n-th check pickles the env")
    ap.add_argument(
        "--fresh-every",
        type=int,
        default=10,
        help="every n-th check reads the position on a fresh context",
    )
    a = ap.parse_args(argv)
    if a.steps < 1 or a.workers < 1 or a.every < 1 or a.stretch < 0:
        ap.error("--steps, --workers and --every are >= 1, --stretch >= 0")
    r = fuzz(
        a.steps,
        workers=a.workers,
        seed=a.seed,
        out=a.out,
        every=a.every,
        stretch=a.stretch,
        pickle_every=max(1, a.pickle_every),
        fresh_every=max(1, a.fresh_every),
    )
    print(r.summary())
    if r.mismatches:
        print(f"mismatching positions written to {a.out}/")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
