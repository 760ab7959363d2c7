"""Three rule fixes of issue 11, as positions: vehicles passing through a full hex (seed 000
p. 30), an Operations drive of one hex (RULES.md §5), changing guard (seed 002 p. 25)."""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import IllegalActionError

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"}


def _jeep(phase: str = "rounds", turn: dict[str, Any] | None = None, b7: int = 2) -> Game:
    """US4 drives the jeep V1 from A8 (facing NE); B7 holds ``b7`` other vehicles."""
    others = [
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "B7", "facing": "SE"},
        {"name": "V3", "type": "staff_car", "side": "german", "hex": "B7", "disabled": True},
    ]
    p: dict[str, Any] = {
        "mission": MISSION,
        "units": [{"name": "US4", "hex": "A8", "vehicle": "V1", "ar": "1-turn"}],
        "vehicles": [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "A8",
                "facing": "NE",
                "driver": "US4",
            }
        ]
        + others[:b7],
    }
    if phase == "rounds":
        p.update(
            phase="rounds",
            round=3,
            rounds_total=3,
            initiative="us",
            turn={"unit": "US4", **(turn or {})},
        )
        p["units"].append(FAR_GERMAN)
    g = Game.from_position(p)
    if phase != "rounds" and g.acting_unit() is None:
        g.play("select US4")
    return g


def _vehicles_at(g: Game, label: str) -> list[str]:
    h = g.board.index(label)
    return [v.name for v in g.state.vehicles if v.hex == h and not v.exited]


# ---------------------------------------------------------------- seed 000 p. 30: pass through
def test_a_drive_passes_through_a_hex_holding_two_but_cannot_end_there():
    """Seed 000 p. 30: "any number may pass through a hex, two may end there"."""
    g = _jeep()
    assert "US4 drive NE to B7" in g.legal_orders()  # it can go on from B7: passing is legal
    g.play("US4 drive NE to B7")
    assert _vehicles_at(g, "B7") == ["V1", "V2", "V3"] and g.state.turn.mode == "drive"
    orders = g.legal_orders()
    assert "US4 end drive" not in orders  # three may not end there
    assert "US4 drive NE to C7" in orders
    with pytest.raises(IllegalActionError):
        g.play("US4 end drive")
    g.play("US4 drive NE to C7")
    assert _vehicles_at(g, "B7") == ["V2", "V3"] and _vehicles_at(g, "C7") == ["V1"]
    assert "US4 end drive" in g.legal_orders()  # room here: the drive may end


def test_a_hex_holding_one_may_be_entered_and_ended_in():
    """Seed 000 p. 30: two may end in a hex."""
    g = _jeep(b7=1)
    g.play("US4 drive NE to B7")
    assert _vehicles_at(g, "B7") == ["V1", "V2"] and "US4 end drive" in g.legal_orders()


def test_no_pass_through_when_the_drive_could_end_there():
    """⚙ (vehicles.drive_targets): a step into a full hex is refused when the MPs left after
    it reach no hex with room, and when it is the step that first exceeds the slow MPA (its
    Accident Check could stop the car there); not refused once the check was made."""
    g = _jeep()
    g.play("US4 drive NE to B7")
    cost = g.state.turn.mp_spent
    # no MPs to leave B7 after entering it
    g = _jeep(
        turn={
            "mode": "drive",
            "mp_left": cost,
            "mp_spent": 9 - cost,
            "hexes_moved": 1,
            "accident_checked": True,
        }
    )
    assert "US4 drive NE to B7" not in g.legal_orders()
    assert "US4 drive N to A7" in g.legal_orders() or "US4 drive S to A9" in g.legal_orders()
    # enough MPs, but entering B7 would first exceed the slow MPA (5): an Accident Check
    g = _jeep(turn={"mode": "drive", "mp_left": 6, "mp_spent": 4, "hexes_moved": 1})
    assert "US4 drive NE to B7" not in g.legal_orders()
    # the same with the check made already: nothing can stop the car in B7
    g = _jeep(
        turn={
            "mode": "drive",
            "mp_left": 6,
            "mp_spent": 4,
            "hexes_moved": 1,
            "accident_checked": True,
        }
    )
    assert "US4 drive NE to B7" in g.legal_orders()


def test_operations_never_enter_a_full_hex():
    """RULES.md §5 + seed 000 p. 30: an Operations drive is one hex, so it would end in the
    full hex: not offered; a hex holding one is."""
    assert "US4 drive NE to B7" not in _jeep("operations").legal_orders()
    assert "US4 drive NE to B7" in _jeep("operations", b7=1).legal_orders()


# ---------------------------------------------------------------- RULES.md §5: one hex
def test_an_operations_drive_is_one_hex():
    """RULES.md §5: one Operations action is "drive a vehicle one hex"; in Rounds the drive
    goes on while MPs last (seed 000 p. 30)."""
    g = _jeep("operations", b7=0)
    pulse = g.state.pulse
    g.play("US4 drive NE to B7")
    assert _vehicles_at(g, "B7") == ["V1"]
    assert g.state.pulse == pulse + 1 and g.state.turn.mode == ""  # the action is over
    g = _jeep(b7=0)
    g.play("US4 drive NE to B7")
    assert g.state.turn.mode == "drive" and "US4 drive NE to C7" in g.legal_orders()


# ---------------------------------------------------------------- seed 002 p. 25: changing guard
def _guard(phase: str = "rounds", **us2: Any) -> Game:
    """US4 guards the captured G1 in G9; US2 stands there too (Rounds: US4's turn)."""
    p: dict[str, Any] = {
        "mission": MISSION,
        "units": [
            {"name": "US4", "hex": "G9", "ar": "1-turn"},
            {"name": "US2", "hex": "G9", "ar": "1-turn", **us2},
            {
                "name": "G1",
                "role": "rifleman",
                "hex": "G9",
                "status": "captured",
                "guard": "US4",
                "stance": "prone",
            },
            {"name": "G2", "role": "rifleman", "hex": "P2", "ar": "complete"},
        ],
    }
    if phase == "rounds":
        p.update(phase="rounds", round=3, rounds_total=3, initiative="us", turn={"unit": "US4"})
    g = Game.from_position(p)
    if phase != "rounds" and g.acting_unit() is None:
        g.play("select US4")
    return g


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


@pytest.mark.parametrize("phase", ["rounds", "operations"])
def test_the_guard_hands_his_prisoner_over_for_free(phase):
    """Seed 002 p. 25: "changing guard is free on the guard's turn"."""
    g = _guard(phase)
    events = g.play("US4 hand the prisoners over to US2")
    assert [e["type"] for e in events] == ["hand_over"]
    assert events[0]["to"] == "US2" and events[0]["prisoners"] == ["G1"]
    assert _unit(g, "G1").guard == _unit(g, "US2").uid
    assert g.state.turn.uid == _unit(g, "US4").uid  # free: his turn goes on
    assert "US4 hand the prisoners over to US2" not in g.legal_orders()  # no longer the guard


def test_no_hand_over_to_a_panicked_soldier_nor_by_one_not_the_guard():
    """Seed 002 p. 25: the guard hands over on his turn, to an active US soldier there."""
    assert "US4 hand the prisoners over to US2" in _guard().legal_orders()
    assert "US4 hand the prisoners over to US2" not in _guard(panicked=True).legal_orders()
    assert "US4 hand the prisoners over to US2" not in _guard(hex="G8").legal_orders()
