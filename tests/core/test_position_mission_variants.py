"""Positions of a mission variant that keeps a shipped mission's id (docs/API.md
"Positions and orders": ``mission`` is a shipped id, a file path or an inline mission):
the variant is written inline and read back as itself, not as the shipped mission."""

from __future__ import annotations

import json

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.world.missions import Mission, load_mission


def _variant(**changes) -> Mission:
    m = load_mission("farm_assault")
    return Mission.model_validate({**m.model_dump(), **changes})


def test_a_variant_with_a_shipped_id_round_trips_as_itself():
    v = _variant(time_limit={"operations_pulses": 3, "rounds": 36})
    g = Game(v, seed=1)
    p = g.position()
    assert isinstance(p["mission"], dict) and p["mission"]["id"] == "farm_assault"
    assert p["mission"]["time_limit"] == {"operations_pulses": 3, "rounds": 36}
    for q in (p, json.loads(json.dumps(p))):  # also after a JSON round trip
        h = Game.from_position(q)
        assert h.ctx.mission.time_limit.operations_pulses == 3
        assert h.ctx.mission == v
        assert h.position() == p


def test_the_shipped_mission_itself_is_still_written_by_its_id():
    for m in ("farm_assault", load_mission("farm_assault")):
        g = Game(m, seed=1)
        assert g.position()["mission"] == "farm_assault"
        assert Game.from_position(g.position()).position() == g.position()


def test_a_variant_position_is_not_set_on_a_game_of_the_shipped_mission_nor_back():
    v = _variant(time_limit={"operations_pulses": 3, "rounds": 36})
    shipped, variant = Game("farm_assault", seed=1), Game(v, seed=1)
    with pytest.raises(DataError, match="another version") as e:
        shipped.set_state(variant.position())
    assert e.value.field == "mission"
    with pytest.raises(DataError, match="another version"):
        variant.set_state(shipped.position())
    variant.set_state(variant.position())  # its own position fits
    shipped.set_state(shipped.position())


def test_a_variant_plays_its_own_time_limit_after_loading():
    """The variant's 3-pulse Operations limit (RULES.md §15 time_limit) holds in the loaded
    game: waiting out the pulses ends the mission there, not after the shipped 60."""
    v = _variant(time_limit={"operations_pulses": 3, "rounds": 36})
    g = Game.from_position(Game(v, seed=1).position())
    for _ in range(200):
        if g.state.over:
            break
        waits = [t for t in g.legal_orders() if t.endswith("wait") or t.startswith("select")]
        g.play(waits[0] if waits else g.legal_orders()[0])
    assert g.state.over and g.state.pulse == 3
    assert g.state.end_reason == "time limit (Operations pulses)"
