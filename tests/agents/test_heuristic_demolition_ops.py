"""agents/heuristic.py uses the ⚙ Operations demolition (core/play/legal.py ``_demolition_orders``):
a satchel man next to a ``demolish`` target in Operations prepares his charge, then throws it
on the target; other kinds' Operations are unchanged (positions as in
tests/core/test_demolition_in_operations.py)."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest
import yaml

from ambush_env.agents.heuristic import HeuristicAgent
from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.world.missions import MISSIONS_DIR


def _ops(kind: str, ready: bool) -> Game:
    m = yaml.safe_load((MISSIONS_DIR / "farm_assault.yaml").read_text(encoding="utf-8"))
    m["us_vehicles"], m["german_vehicles"] = [], []
    m = copy.deepcopy(m)
    m["objective"] = {"name": "farm", "hexes": ["J2", "J3"], "kind": kind}
    g = Game.from_position(
        {
            "mission": m,
            "contacts": [],
            "units": [{"name": "US6", "hex": "J4", "satchel_ready": ready}],
        }
    )
    if g.acting_unit() is None:
        g.play("select US6")
    return g


def _choose(g: Game) -> str:
    mask = np.zeros(O.N_ORDERS, dtype=bool)
    mask[g.legal_actions()] = True
    env = SimpleNamespace(unwrapped=SimpleNamespace(game=g))
    return g.describe_action(HeuristicAgent(seed=0).act({}, {"action_mask": mask}, env))


@pytest.mark.parametrize(
    "ready, order", [(False, "US6 prepare/reload"), (True, "US6 throw a satchel charge at J3")]
)
def test_the_heuristic_sets_the_charge_in_operations(ready, order):
    assert _choose(_ops("demolish", ready)) == order


def test_a_take_objective_is_walked_into_as_before():
    assert _choose(_ops("take", True)) == "US6 move N to J3"
