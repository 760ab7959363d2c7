"""A position of a generated mission (``ambush_env.core.play.procedural``; docs/API.md
"Positions and orders") loads on its own: it carries the mission seed (``procedural``),
from which ``Game.from_position`` rebuilds the map, without the env's stored seed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.play.procedural import HELD_OUT_SEEDS, generate
from ambush_env.core.world.missions import Mission


def _played(seed: int, steps: int) -> Game:
    mission, board = generate(seed)
    g = Game(mission, board=board, seed=3)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.state.over:
            break
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    return g


# seeds 0, 1, 5: missions naming hexes off the placeholder map (farm_assault, 18 x 14) that
# did not load before; 2: one that loaded, silently on the placeholder map
@pytest.mark.parametrize("seed", [0, 1, 2, 5, HELD_OUT_SEEDS.start])
def test_a_generated_games_position_round_trips_and_plays_on_identically(seed):
    g = _played(seed, 40)
    p = g.position()
    assert p["procedural"] == seed and p["mission"]["id"] == f"procedural_{seed}"
    for q in (p, json.loads(json.dumps(p))):
        h = Game.from_position(q)
        assert h.ctx.board.name == f"procedural_{seed}"
        assert (h.ctx.board.columns, h.ctx.board.rows) == (g.ctx.board.columns, g.ctx.board.rows)
        assert h.ctx.board.terrain == g.ctx.board.terrain and h.ctx.board.level == g.ctx.board.level
        assert h.position() == p
    rng = np.random.default_rng(9)
    for _ in range(60):  # both play on alike
        if g.state.over:
            break
        legal = g.legal_actions()
        assert h.legal_actions() == legal
        a = int(legal[rng.integers(len(legal))])
        assert g.step(a) == h.step(a)
    assert h.position() == g.position()


def test_a_shipped_missions_position_carries_no_seed():
    assert "procedural" not in Game("farm_assault", seed=1).position()


def test_a_procedural_position_may_name_the_generated_mission_by_id_or_vary_it():
    p = _played(5, 0).position()
    by_id = Game.from_position({**p, "mission": "procedural_5"})
    assert by_id.ctx.mission == generate(5)[0]
    assert by_id.position() == {**p, "mission": "procedural_5"}  # written as it was given
    by_id.set_state(by_id.position())
    variant = {**p["mission"], "time_limit": {"operations_pulses": 4, "rounds": 20}}
    h = Game.from_position({**p, "mission": variant})
    assert h.ctx.mission.time_limit.operations_pulses == 4 and h.ctx.board.name == "procedural_5"
    assert h.position()["mission"] == Mission.model_validate(variant).model_dump(mode="json")
    assert h.position()["procedural"] == 5


def test_a_procedural_position_naming_another_mission_or_a_bad_seed_raises():
    p = _played(5, 0).position()
    with pytest.raises(DataError) as e:
        Game.from_position({**p, "mission": "procedural_6"})
    assert e.value.field == "mission"
    with pytest.raises(DataError) as e:
        Game.from_position({**p, "procedural": -1})
    assert e.value.field == "procedural"


def test_a_procedural_position_is_not_set_on_a_game_of_another_map():
    p = _played(5, 0).position()
    with pytest.raises(DataError) as e:
        _played(6, 0).set_state(p)
    assert e.value.field == "mission"
    g = _played(5, 10)
    g.set_state(p)  # its own map: fits
    assert g.position() == p
