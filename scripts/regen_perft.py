#!/usr/bin/env python
"""Regenerate the perft goldens (tests/golden/perft_<mission>.json) of ``farm_assault`` and the
vehicle missions ``jeep_run`` and ``tank_hunt`` (``MISSIONS``: mission -> its situations).

Perft (named after the chess engines' move-path enumeration, as in python-chess's
``perft``) counts the sequences of legal orders of a given length from a position:

    perft(g, 0) = 1
    perft(g, d) = 1                                   if the game is over (d > 0)
    perft(g, d) = sum(perft(g after a, d - 1) for a in g.legal_actions())   otherwise

Convention for a finished game: python-chess counts the leaf nodes at the given depth, so
a checkmate reached early contributes 0 (no moves below it). Here a game that ends counts
as a leaf of its own, with no further orders: a sequence that ends the mission after k <
d orders is counted once, as is every sequence of exactly d orders. So perft(d) is the
number of order sequences of length d, plus those shorter ones that finish the game.

Dice do not make this ill defined: ``Game.get_state`` copies the dice generator with the
rest of the game, so one order from one restored state always gives the same result. Each
node's state is taken once and restored (``set_state``) before every child.

The situations are reached by seeded uniform-random play from
``Game(mission).reset(seed=reset_seed)`` (numpy ``default_rng(policy_seed)`` picks
each order among the legal ones), stopping at the first step where the situation's
predicate holds:

* ``operations``: Operations phase, at least 20 orders played, a unit acting (not a
  select-unit decision);
* ``rounds``: Action Rounds, at least one German in ``state.contacts``, a US unit acting;
* ``jeep``: the acting US soldier is aboard the jeep (``unit.vehicle >= 0``, that vehicle
  of type ``"jeep"``);
* ``tank``: a US unit acting while a German tank on the map is in ``state.contacts`` (its
  unit; seed 000 p. 33).

(reset_seed, policy_seed) pairs are tried in a fixed order until each predicate is met.
The file records, per situation, the seeds, the orders played (ints and texts), perft at
depths 1..3 and the depth-3 divide (per first order, the count below it).

    python scripts/regen_perft.py          # rewrite the files
    python scripts/regen_perft.py --check  # exit 1 with a unified diff if the engine disagrees
    python scripts/regen_perft.py --mission tank_hunt   # one mission only

Counts change only when legality changes: explain the difference in the commit message.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

try:
    from ambush_env.core import Game  # type: ignore[attr-defined]
except ImportError:
    from ambush_env.core import Game

from ambush_env.core.model.types import Phase, Side, Status
from ambush_env.core.world.data import write_text_atomic

MISSION = "farm_assault"
DEPTH = 3
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
GOLDEN = GOLDEN_DIR / "perft_farm_assault.json"
MAX_STEPS = 5000  # one random playthrough is abandoned after this many orders
SEEDS = [(r, p) for r in range(8) for p in range(8)]  # (reset_seed, policy_seed), tried in order
MIN_OPERATIONS_STEPS = 20


# ---------------------------------------------------------------- perft
def perft(g: Any, depth: int) -> int:
    """Number of order sequences of length ``depth`` from ``g`` (a finished game is one leaf).

    ``g`` is left in an unspecified state of the subtree; callers restore it.
    """
    if depth == 0 or g.over:
        return 1
    legal = list(g.legal_actions())
    if depth == 1:
        return len(legal)  # every child is a leaf (bulk count)
    snap = g.get_state()
    total = 0
    for a in legal:
        g.set_state(snap)
        g.step(a)
        total += perft(g, depth - 1)
    g.set_state(snap)
    return total


def divide(g: Any, depth: int) -> dict[str, int]:
    """``perft divide``: per legal order now, perft(depth - 1) below it.

    Keys are ``"<order int, 4 digits> <order text>"`` so that sorted keys follow the
    order numbers and a diff names the order. ``g`` is restored on return.
    """
    assert depth >= 1 and not g.over
    snap = g.get_state()
    out: dict[str, int] = {}
    for a in list(g.legal_actions()):
        g.set_state(snap)
        key = f"{a:04d} {g.describe_action(a)}"
        assert key not in out, key
        g.step(a)
        out[key] = perft(g, depth - 1)
    g.set_state(snap)
    return out


def counts(g: Any, depth: int = DEPTH) -> dict[str, Any]:
    """perft at depths 1..depth and the divide at ``depth``; ``g`` is restored on return."""
    snap = g.get_state()
    res: dict[str, Any] = {"perft": {}}
    for d in range(1, depth + 1):
        g.set_state(snap)
        res["perft"][str(d)] = perft(g, d)
    g.set_state(snap)
    res["divide"] = divide(g, depth)
    g.set_state(snap)
    return res


# ---------------------------------------------------------------- situations
def _operations(g: Any, steps: int) -> bool:
    return (
        g.state.phase == Phase.OPERATIONS
        and steps >= MIN_OPERATIONS_STEPS
        and g.acting_unit() is not None
    )


def _rounds(g: Any, steps: int) -> bool:
    st = g.state
    u = g.acting_unit()
    return (
        st.phase == Phase.ROUNDS
        and u is not None
        and u.side == Side.US
        and any(st.units[c].side == Side.GERMAN for c in st.contacts)
    )


def _jeep(g: Any, steps: int) -> bool:
    st = g.state
    u = g.acting_unit()
    if u is None or u.side != Side.US or u.status != Status.ACTIVE or u.vehicle < 0:
        return False
    return st.vehicles[u.vehicle].type == "jeep"


def _tank(g: Any, steps: int) -> bool:
    st = g.state
    u = g.acting_unit()
    if u is None or u.side != Side.US or u.status != Status.ACTIVE:
        return False
    return any(
        v.side == Side.GERMAN
        and v.unit >= 0
        and v.hex >= 0
        and not v.disabled
        and v.unit in st.contacts
        for v in st.vehicles
    )


PREDICATES: dict[str, Callable[[Any, int], bool]] = {
    "operations": _operations,
    "rounds": _rounds,
    "jeep": _jeep,
    "tank": _tank,
}
MISSIONS: dict[str, tuple[str, ...]] = {
    "farm_assault": ("operations", "rounds", "jeep"),
    "jeep_run": ("operations", "rounds", "jeep"),
    "tank_hunt": ("operations", "rounds", "tank"),
    "hedgerow_crossing": ("operations", "rounds"),
    "village_fight": ("operations", "rounds"),
    "crossroads_ambush": ("operations", "rounds"),
    "prisoner_snatch": ("operations", "rounds"),
    "night_patrol": ("operations", "rounds"),
    "bridge_demolition": ("operations", "rounds"),
}
"""Each mission with a perft golden -> its situations (names of ``PREDICATES``)."""


def golden_file(mission: str) -> Path:
    """Where a mission's perft golden lives."""
    return GOLDEN_DIR / f"perft_{mission}.json"


def shipped_missions() -> list[str]:
    """The missions of ``MISSIONS`` that are shipped (in ``list_missions()``)."""
    from ambush_env.core.world.missions import list_missions

    shipped = set(list_missions())
    return [m for m in MISSIONS if m in shipped]


def new_game(reset_seed: int, mission: str = MISSION) -> Any:
    g = Game(mission, seed=reset_seed)
    g.reset(seed=reset_seed)
    return g


def find(pred: Callable[[Any, int], bool], mission: str = MISSION) -> tuple[Any, dict[str, Any]]:
    """The first (reset_seed, policy_seed) of ``SEEDS`` whose random play meets ``pred``."""
    for reset_seed, policy_seed in SEEDS:
        g = new_game(reset_seed, mission)
        rng = np.random.default_rng(policy_seed)
        orders: list[int] = []
        texts: list[str] = []
        while not g.over and len(orders) < MAX_STEPS:
            if pred(g, len(orders)):
                return g, {
                    "reset_seed": reset_seed,
                    "policy_seed": policy_seed,
                    "steps": len(orders),
                    "orders": orders,
                    "order_texts": texts,
                }
            legal = g.legal_actions()
            a = int(legal[int(rng.integers(len(legal)))])
            texts.append(g.describe_action(a))
            orders.append(a)
            g.step(a)
    raise SystemExit("no seed pair reaches the situation; widen SEEDS")


def replay(rec: dict[str, Any], mission: str = MISSION) -> Any:
    """A game after the recorded orders from the recorded reset seed (each checked legal)."""
    g = new_game(rec["reset_seed"], mission)
    for i, a in enumerate(rec["orders"]):
        assert a in g.legal_actions(), f"order #{i} ({a}: {rec['order_texts'][i]}) not legal"
        g.step(a)
    return g


def acting(g: Any) -> str:
    u = g.acting_unit()
    return f"{u.name} ({u.role})" if u is not None else "none"


def generate(verbose: bool = True, mission: str = MISSION) -> dict[str, Any]:
    out: dict[str, Any] = {
        "mission": mission,
        "depth": DEPTH,
        "convention": (
            "perft(d) counts order sequences of length d; a sequence that ends "
            "the game earlier counts once as a leaf with no further orders. "
            "divide: per first order, perft(depth-1) below it."
        ),
        "situations": {},
    }
    for name in MISSIONS[mission]:
        pred = PREDICATES[name]
        t0 = time.perf_counter()
        g, rec = find(pred, mission)
        rec["acting"] = acting(g)
        rec.update(counts(g, DEPTH))
        out["situations"][name] = rec
        if verbose:
            print(
                f"{mission} {name}: seeds ({rec['reset_seed']}, {rec['policy_seed']}) after "
                f"{rec['steps']} orders, {rec['acting']} acting, perft {rec['perft']} "
                f"({time.perf_counter() - t0:.1f} s)",
                file=sys.stderr,
            )
    return out


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--check",
        action="store_true",
        help="compare with the committed files; exit 1 with a diff when one differs",
    )
    ap.add_argument(
        "--mission",
        action="append",
        help="only this mission (repeatable; default: every one of MISSIONS shipped)",
    )
    args = ap.parse_args(argv)
    rc = 0
    for mission in args.mission or shipped_missions():
        path = golden_file(mission)
        text = dumps(generate(mission=mission))
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            if old == text:
                print(f"{path} is up to date")
                continue
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True),
                    text.splitlines(True),
                    f"{path.name} (committed)",
                    f"{path.name} (current engine)",
                )
            )
            print(
                "perft goldens differ: run python scripts/regen_perft.py and explain the "
                "difference in the commit message",
                file=sys.stderr,
            )
            rc = 1
            continue
        write_text_atomic(text, path, what="perft golden")  # whole or not at all
        print(f"wrote {path}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
