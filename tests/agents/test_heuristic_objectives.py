"""The heuristic pursues each objective kind (agents/heuristic.py module docstring; the kinds:
core/world/missions.py "Objective kinds"): positions where its chosen order is asserted, and short
runs of whole episodes where the objective is met often enough.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from ambush_env.agents.heuristic import HeuristicAgent
from ambush_env.core import Game
from ambush_env.core.model import orders as O


def choose(g: Game, seed: int = 0) -> str:
    """The heuristic's order, as text, for the decision ``g`` stands at."""
    mask = np.zeros(O.N_ORDERS, dtype=bool)
    mask[g.legal_actions()] = True
    env = SimpleNamespace(unwrapped=SimpleNamespace(game=g))
    agent = HeuristicAgent(seed=seed)
    return g.describe_action(agent.act({}, {"action_mask": mask}, env))


def act_as(g: Game, name: str) -> None:
    """Select ``name`` when a selection is pending."""
    if g.acting_unit() is None:
        g.play(f"select {name}")
    assert g.acting_unit().name == name


def rounds(mission: str, units: list[dict], **kw) -> Game:
    """A new Round (initiative US 9, Germans 0) with ``units``."""
    return Game.from_position(
        {
            "mission": mission,
            "units": units,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "dice": [9, 0],
            **kw,
        }
    )


# ------------------------------------------------------------------------------ demolish
@pytest.mark.parametrize("ready", [True, False])
def test_demolition_man_readies_and_throws_on_the_bridge(ready):
    """``demolish``: a satchel man within throwing range of the bridge (I6, next to J6)
    prepares his charge, then throws it on the span (J6 or K6) rather than fire at the
    bunker."""
    g = rounds(
        "bridge_demolition",
        [
            {"name": "US3", "hex": "I6", "satchel_ready": ready},
            {"name": "G1", "role": "mg_gunner", "hex": "L5"},
            {"name": "G2", "role": "mg_loader", "hex": "L5"},
        ],
    )
    act_as(g, "US3")
    order = choose(g)
    if ready:
        assert order in ("US3 throw a satchel charge at J6", "US3 throw a satchel charge at K6")
    else:
        assert order == "US3 prepare/reload"
    assert any(o.startswith("US3 fire") for o in g.legal_orders())  # a shot was there


def test_no_satchel_on_the_span_where_a_comrade_stands():
    """``demolish``: never throw where a US soldier stands (US1 on J6): K6 instead."""
    g = rounds(
        "bridge_demolition",
        [
            {"name": "US3", "hex": "I6", "satchel_ready": True},
            {"name": "US1", "hex": "J6", "ar": "complete"},
            {"name": "G1", "role": "mg_gunner", "hex": "L5"},
        ],
    )
    act_as(g, "US3")
    assert choose(g) == "US3 throw a satchel charge at K6"


# ------------------------------------------------------------------------------ capture
def test_capture_assault_on_the_officer_not_a_kill():
    """``capture``: in the officer's hex (K4) the heuristic assaults to capture him."""
    g = rounds(
        "prisoner_snatch",
        [
            {"name": "US1", "hex": "K4"},
            {"name": "US2", "hex": "K4"},
            {"name": "G1", "role": "officer", "hex": "K4"},
        ],
    )
    act_as(g, "US1")
    assert choose(g) == "US1 capture assault on G1 (K4)"


def test_never_fires_at_the_officer_to_be_captured():
    """``capture``: with a shot at the officer (from J5, through the window) and at his
    orderly, the heuristic fires at the orderly."""
    g = rounds(
        "prisoner_snatch",
        [
            {"name": "US1", "hex": "I4"},
            {"name": "G1", "role": "officer", "hex": "J6", "stance": "standing"},
            {"name": "G2", "role": "rifleman", "hex": "J5", "stance": "standing"},
        ],
    )
    act_as(g, "US1")
    order = choose(g)
    assert "G1" not in order
    assert any("G1" in o for o in g.legal_orders() if "fire" in o)  # a shot was there


def test_the_guard_marches_his_prisoner_toward_the_exit():
    """``capture`` with ``march_off``: the guard (US1, E3) moves the prisoner with him west,
    toward the exit hexes, never leaves him."""
    g = Game.from_position(
        {
            "mission": "prisoner_snatch",
            "contacts": [],
            "units": [
                {"name": "US1", "hex": "E3"},
                {"name": "US2", "hex": "A12"},
                {
                    "name": "G1",
                    "role": "officer",
                    "hex": "E3",
                    "status": "captured",
                    "stance": "prone",
                    "guard": "US1",
                },
            ],
        }
    )
    act_as(g, "US1")
    order = choose(g)
    assert order.startswith("US1 move prisoner"), order
    b = g.board
    home = b.index("A3")
    assert b.distance(b.index(order.split()[-1]), home) < b.distance(b.index("E3"), home)


# ------------------------------------------------------------------------------ hold
def test_hold_stays_in_the_objective():
    """``hold``: a soldier in the crossroads (G4) waits there in Operations."""
    g = Game.from_position(
        {
            "mission": "night_patrol",
            "units": [{"name": "US1", "hex": "G4"}, {"name": "US2", "hex": "G16"}],
        }
    )
    act_as(g, "US1")
    assert choose(g) == "US1 wait"


# ------------------------------------------------------------------------------ minefields
def test_routes_round_a_known_minefield():
    """Known anti-personnel minefields (module mines) cost the route ``mine_cost``: from F11
    the heuristic goes round the known field (E9-F10, H9-H10), not north into F10 or E10."""
    mines = [{"hex": h} for h in ("E9", "E10", "F9", "F10", "H9", "H10")]
    g = Game.from_position(
        {
            "mission": "night_patrol",
            "minefields": mines,
            "fired_triggers": ["F11"],
            "units": [{"name": "US1", "hex": "F11"}, {"name": "US2", "hex": "F11"}],
        }
    )
    act_as(g, "US1")
    order = choose(g)
    assert order.startswith("US1 move") and order.split()[-1] not in ("F10", "E10"), order


# ------------------------------------------------------------------------------ episodes
@pytest.mark.parametrize("mission", ["prisoner_snatch", "night_patrol", "bridge_demolition"])
def test_the_heuristic_meets_each_objective_kind(mission):
    """Over 16 smoke seeds (regular deck) the heuristic scores the objective (the Leutnant
    marched off, the crossroads held at dawn, the bridge down) at least 3 times (measured:
    7-14 of 20, by mission and deck version)."""
    from ambush_env.agents.evaluate import make_env, run_episode

    env = make_env(mission)
    taken = 0
    for seed in range(10000, 10016):
        run_episode(env, HeuristicAgent(seed=seed), seed)
        taken += "objective_taken" in env.unwrapped.game.state.flags
    assert taken >= 3, taken
