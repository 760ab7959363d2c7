"""Perft goldens of ``farm_assault`` (issue 9) and of the vehicle missions ``jeep_run`` and
``tank_hunt`` (issue 11): legality counted to depth 3, as chess engines do.

What is counted: perft(d) is the number of sequences of d legal orders from a situation
(``Game.legal_actions`` at every node, ``Game.step`` to go down). A sequence that ends the
mission before d orders counts once, as a leaf with no further orders (python-chess's
perft counts leaves at exactly depth d, so an early checkmate adds 0 there; a finished
mission here adds 1). The divide gives, for every first order, the depth-2 count below it,
so that a failing comparison names the order whose subtree changed.

Why dice don't break it: ``Game.get_state`` copies the dice generator with the rest of the
game and ``set_state`` restores it, so one order from one restored state always rolls the
same dice and reaches the same child. Each node is snapshotted once and restored before
every child, which makes the tree, and its counts, a function of the situation alone.

The situations (an Operations decision, an Action Round with Germans in contact, a soldier
aboard the jeep; in tank_hunt a US unit facing the German tank in contact) were reached by seeded random play; the committed file records
the seeds and the orders, and this test replays them, checking each was legal, before
counting. ``scripts/regen_perft.py`` holds the counting code and rewrites the file.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REGEN = "python scripts/regen_perft.py"


def _load_regen():
    spec = importlib.util.spec_from_file_location(
        "regen_perft", ROOT / "scripts" / "regen_perft.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


R = _load_regen()
MISSIONS = R.shipped_missions()
CASES = [(m, name) for m in MISSIONS for name in R.MISSIONS[m]]


@functools.cache
def _golden(mission: str) -> dict:
    path = R.golden_file(mission)
    assert path.exists(), f"no {path.name}: run {REGEN}"
    return json.loads(path.read_text(encoding="utf-8"))


def _hint(mission: str = "farm_assault") -> str:
    return (
        f"run `{REGEN}`, review `git diff tests/golden/perft_{mission}.json`, and explain "
        "the difference in the commit message (the counts change only when legality changes)"
    )


def test_every_vehicle_mission_has_perft_goldens():
    """Issue 11: the reference mission and both vehicle missions are counted."""
    assert MISSIONS[0] == "farm_assault"
    assert set(MISSIONS) <= set(R.MISSIONS)


@pytest.mark.parametrize("mission", MISSIONS)
def test_golden_file_shape(mission):
    """The file holds the mission's situations at depth 3, written as the script writes it."""
    golden = _golden(mission)
    assert golden["mission"] == mission
    assert golden["depth"] == 3
    assert sorted(golden["situations"]) == sorted(R.MISSIONS[mission])
    text = R.golden_file(mission).read_text(encoding="utf-8")
    assert text == R.dumps(golden), f"not in canonical form: {_hint(mission)}"


@pytest.mark.parametrize("mission,name", CASES)
def test_perft(mission, name):
    """Replaying the recorded orders reaches the situation; perft 1..3 and the divide match."""
    golden = _golden(mission)
    rec = golden["situations"][name]
    g = R.new_game(rec["reset_seed"], mission)
    assert len(rec["orders"]) == len(rec["order_texts"]) == rec["steps"]
    for i, (a, text) in enumerate(zip(rec["orders"], rec["order_texts"], strict=True)):
        assert not g.over, f"{name}: the mission ended before order #{i}; {_hint(mission)}"
        assert a in g.legal_actions(), (
            f"{name}: recorded order #{i} {a} ({text!r}) is no longer legal "
            f"(now legal: {[g.describe_action(b) for b in g.legal_actions()]}); {_hint(mission)}"
        )
        g.step(a)
    assert R.PREDICATES[name](g, len(rec["orders"])), (
        f"{name}: the replayed orders no longer reach the situation; {_hint(mission)}"
    )

    got = R.counts(g, golden["depth"])
    if got["perft"] != rec["perft"] or got["divide"] != rec["divide"]:
        before = json.dumps(
            {"perft": rec["perft"], "divide": rec["divide"]}, indent=1, sort_keys=True
        )
        after = json.dumps(got, indent=1, sort_keys=True)
        diff = "".join(
            difflib.unified_diff(
                before.splitlines(True), after.splitlines(True), "committed", "engine now", n=1
            )
        )
        pytest.fail(f"perft of {mission} {name!r} changed:\n{diff[:6000]}\n{_hint(mission)}")
