"""Regressions found by random play with tanks (tests/property/test_tank_play.py), each as the
smallest position or mission that shows it.

Map (Farm Assault): the road runs along row 8; clear ground around it.
"""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.world.missions import Mission, load_mission
from ambush_env.core.world.vehicle_data import crew_rating

MISSION = "farm_assault"


def _variant(**update: Any) -> Mission:
    raw = load_mission(MISSION).model_dump(mode="json", by_alias=True)
    raw.update(update, id="probe_variant")
    return Mission.model_validate(raw)


def _ratings(u) -> tuple[int, int, int, int]:
    return (u.IN, u.PC, u.WS, u.DS)


def test_a_mission_tank_with_a_short_crew_rates_by_that_crew():
    """Seed 000 p. 31: the active crew sets IN, PC, WS and DS. A mission's German tank with
    ``crew: 3`` was seated at setup with the full crew's ratings (the unit was made before the
    crew was counted, and reused as it was)."""
    m = _variant(german_vehicles=[{"vehicle": "panzer_iv", "hex": "I9", "facing": "SW", "crew": 3}])
    g = Game(m, seed=0)
    v = next(v for v in g.state.vehicles if v.type == "panzer_iv")
    u = g.state.units[v.unit]
    r = crew_rating(3)
    assert v.crew == 3
    assert _ratings(u) == (r.IN, r.PC, r.WS, r.DS) == (2, 4, 1, 3)


def test_a_tank_that_lost_its_whole_crew_round_trips():
    """docs/API.md: ``Game.from_position(g.position()).position() == g.position()``. A tank
    whose last crewman fell (``vehicles.set_crew`` to 0: disabled) kept the ratings of crew 1,
    but a position read back gave its unit the default ratings (PC 5, DS 0)."""
    from ambush_env.core.vehicles.vehicles import set_crew

    p = {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "units": [{"name": "US1", "hex": "C4", "ar": "1-turn"}],
        "vehicles": [{"name": "V1", "type": "panzer_iv", "side": "german", "hex": "C8", "crew": 1}],
    }
    g = Game.from_position(p)
    v = g.state.vehicles[0]
    set_crew(g, v, 0)
    assert v.disabled
    pos = g.position()
    assert Game.from_position(pos).position() == pos
    r = crew_rating(1)
    assert _ratings(g.state.units[v.unit]) == (r.IN, r.PC, r.WS, r.DS)


def test_a_car_passing_through_a_full_hex_round_trips():
    """Seed 000 p. 30: "any number may pass through a hex, two may end there". A car stopped
    mid-drive in a hex holding two vehicles (a decision of its driver: the drive must go on)
    is a legal situation; its position was refused on reading ("at most 2 vehicles")."""
    p = {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "units": [
            {"name": "US1", "hex": "A8", "vehicle": "V1", "ar": "1-turn"},
            {"name": "G1", "side": "german", "role": "rifleman", "hex": "N2", "ar": "complete"},
        ],
        "vehicles": [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "A8",
                "facing": "NE",
                "driver": "US1",
            },
            {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "B8", "disabled": True},
            {"name": "V3", "type": "staff_car", "side": "german", "hex": "B8", "disabled": True},
        ],
    }
    g = Game.from_position(p)
    g.play("US1 drive SE to B8")
    assert g.board.label(g.state.vehicles[0].hex) == "B8" and g.state.turn.mode == "drive"
    assert not any("end the drive" in o or "end drive" in o for o in g.legal_orders())
    pos = g.position()
    back = Game.from_position(pos)
    assert back.position() == pos and back.legal_orders() == g.legal_orders()
    # ending there stays refused: the same position with the drive over
    done = {**pos, "turn": {**pos["turn"], "mode": ""}}
    with pytest.raises(DataError, match="at most 2 vehicles") as e:
        Game.from_position(done)
    assert e.value.field == "vehicles.2.hex"


def test_set_state_of_an_inline_mission_with_vehicles_reads_its_map_once(monkeypatch):
    """Speed (COMMON decision 6): ``set_state`` of a game of an inline mission holding
    vehicles re-read and parsed its map file on every call (0.3 s each) to check where the
    mission's vehicles start."""
    from ambush_env.core.world import board as board_mod

    m = _variant(us_vehicles=[{"vehicle": "sherman", "hex": "B8", "facing": "NE"}])
    g = Game(m, seed=0)
    pos = g.position()
    assert isinstance(pos["mission"], dict)
    g.set_state(pos)  # the map may be read once
    calls = []
    real = board_mod.load_board
    monkeypatch.setattr(board_mod, "load_board", lambda *a, **k: calls.append(a) or real(*a, **k))
    for _ in range(3):
        g.set_state(pos)
    assert calls == []
