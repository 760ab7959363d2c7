"""Tanks (seed 000 p. 30-33; module ``tanks``), as positions with forced dice: the tank's unit,
Crew Points and the task table of p. 33 with its exclusions, arcs, own-hex fire, open/close,
the crew's panic (p. 31), no boarding and no command.

Map (Farm Assault): the road runs along row 8 (A8, B8, C8, ...), clear ground elsewhere in
the west.
"""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.types import ARSpace
from ambush_env.core.vehicles import tanks
from ambush_env.core.world.missions import GermanVehicle, load_mission

MISSION = "farm_assault"


def _tank(
    vtype: str = "sherman",
    side: str = "us",
    hex_: str = "C8",
    facing: str = "N",
    others: list[dict] | None = None,
    turn: dict | None = None,
    phase: str = "rounds",
    **vkw: Any,
) -> Game:
    """A tank ``V1`` whose turn it is (Rounds unless ``phase``), with ``others`` units."""
    v = {
        "name": "V1",
        "type": vtype,
        "side": side,
        "hex": hex_,
        "facing": facing,
        "cannon_loaded": True,
        **vkw,
    }
    units = [{"name": "V1", "side": side, "role": "tank", "vehicle": "V1", "ar": "1-turn"}]
    units += (
        others
        if others is not None
        else (
            [
                {"name": "G1", "role": "rifleman", "hex": "C4", "ar": "complete"},
                {"name": "US2", "hex": "A1", "ar": "complete"},
            ]
            if side == "us"
            else [{"name": "US1", "hex": "C4", "ar": "complete"}]
        )
    )
    p: dict[str, Any] = {
        "mission": MISSION,
        "units": units,
        "vehicles": [v],
        "german": "agent" if side == "german" else "cards",
    }
    if phase == "rounds":
        p.update(
            phase="rounds",
            round=3,
            rounds_total=3,
            initiative=side,
            turn={"unit": "V1", **(turn or {})},
        )
    g = Game.from_position(p)
    if phase != "rounds" and g.acting_unit() is None:
        g.play("select V1")
    return g


def _orders(g: Game, word: str) -> list[str]:
    return [o for o in g.legal_orders() if word in o]


def _refused(g: Game, text: str) -> None:
    assert text not in g.legal_orders()
    with pytest.raises((IllegalActionError, ValueError)):
        g.play(text)


def _tasks(evs: list[dict]) -> list[tuple[str, int, int]]:
    return [(e["task"], e["cp"], e["cp_left"]) for e in evs if e["type"] == "tank_task"]


# ---------------------------------------------------------------- the unit (decision 1)
def test_a_tank_in_a_mission_gets_its_unit_and_a_unit_slot():
    """Seed 000 p. 33: a tank receives turns like a soldier; a US tank takes a unit slot."""
    m = load_mission(MISSION)
    m = m.model_copy(update={"german_vehicles": (GermanVehicle(vehicle="panzer_iv", hex="C2"),)})
    g = Game(m, seed=1)
    v = next(v for v in g.state.vehicles if v.type == "panzer_iv")
    u = g.state.units[v.unit]
    assert (u.role, u.name, u.vehicle, u.hex, u.weapon) == ("tank", v.name, v.vid, v.hex, "")
    assert v.driver == u.uid and v.passengers == [] and v.crew == 5 and v.cannon_loaded
    assert (u.IN, u.PC, u.WS, u.DS) == (3, 6, 2, 5)  # vehicles.yaml crew_ratings[5]


def test_a_position_tank_without_its_unit_gets_one_and_round_trips():
    """⚙ (module tanks): a position may list a tank without its unit; one is made."""
    g = Game.from_position(
        {
            "mission": MISSION,
            "units": [{"name": "US1", "hex": "A2"}],
            "vehicles": [{"name": "V1", "type": "sherman", "side": "us", "hex": "C8", "crew": 3}],
        }
    )
    v = g.state.vehicles[0]
    u = g.state.units[v.unit]
    assert u.name == "V1" and u.slot == 1 and u.IN == 2  # crew 3 rates IN 2
    assert "select V1" in g.legal_orders()
    g2 = Game.from_position(g.position())
    assert g2.position() == g.position()


# ---------------------------------------------------------------- Crew Points (p. 33)
@pytest.mark.parametrize("crew", [5, 3, 1])
def test_crew_points_per_turn_are_the_active_crew(crew):
    """Seed 000 p. 33: at most one Crew Point per active crew member per turn."""
    g = _tank(crew=crew, turn={})
    g.state.turn.cp_left = -1
    from ambush_env.core.rules.turns import start_turn

    start_turn(g, g.acting_unit())
    assert g.state.turn.cp_left == crew


def test_cannon_costs_two_unloads_and_bars_coax_and_load():
    """Seed 000 p. 33: aimed cannon fire 2 CP, must be loaded; not with the coaxial MG in
    one turn; loading not in a turn the cannon fired."""
    g = _tank()
    g.force_rolls([0, 9])  # hit, damage 9: kill
    evs = g.play("V1 fire cannon at G1 (C4)")
    assert _tasks(evs) == [("cannon", 2, 3)]
    assert not g.state.vehicles[0].cannon_loaded
    assert g.state.units[1].status != 0  # G1 hit
    _refused(g, "V1 load the cannon")
    assert not _orders(g, "coaxial")


def test_coax_bars_cannon_and_load_in_the_same_turn():
    """Seed 000 p. 33: cannon and coaxial MG not in one turn; no loading after the coax."""
    g = _tank(cannon_loaded=True)
    g.force_rolls([0, 9, 9])  # jam check 0, miss
    g.play("V1 fire coaxial MG aimed at G1 (C4)")
    _refused(g, "V1 fire cannon at G1 (C4)")
    g2 = _tank(cannon_loaded=False)
    g2.force_rolls([0, 9])
    g2.play("V1 snap fire coaxial MG at G1 (C4)")
    _refused(g2, "V1 load the cannon")


def test_loading_costs_one_and_then_neither_gun_fires():
    """Seed 000 p. 33: loading 1 CP, not in a turn the cannon or coaxial MG fires."""
    g = _tank(cannon_loaded=False)
    assert not _orders(g, "fire cannon")  # must be loaded
    evs = g.play("V1 load the cannon")
    assert _tasks(evs) == [("load", 1, 4)] and g.state.vehicles[0].cannon_loaded
    assert not _orders(g, "fire cannon") and not _orders(g, "coaxial")
    assert _orders(g, "fire bow MG aimed at G1")  # the bow MG is not barred by loading


def test_each_task_at_most_once_and_the_turn_ends_when_nothing_is_affordable():
    """Seed 000 p. 33: each task at most once; the turn ends with no task affordable."""
    g = _tank(crew=2, vtype="sherman", facing="N")  # G1 at C4 is in front (north)
    g.force_rolls([0, 9])
    g.play("V1 fire cannon at G1 (C4)")  # 2 CP of 2
    assert g.acting_unit() is None or g.acting_unit().name != "V1"


def test_bow_mg_only_at_targets_in_front():
    """Seed 000 p. 33: the bow MG fires only to the front; the coax any direction."""
    g = _tank(facing="N")
    assert _orders(g, "bow MG aimed at G1")
    g = _tank(facing="S")
    assert not _orders(g, "bow MG")
    assert _orders(g, "coaxial MG aimed at G1")
    _refused(g, "V1 fire bow MG aimed at G1 (C4)")


def test_jagdpanther_never_fires_into_its_own_hex_panzer_does():
    """Seed 000 p. 33: a Panzer or Sherman fires cannon or coax into its own hex; a
    Jagdpanther not."""
    us = [{"name": "US1", "hex": "C8", "ar": "complete"}]
    g = _tank("panzer_iv", "german", others=us)
    assert _orders(g, "fire cannon at US1") and _orders(g, "coaxial MG aimed at US1")
    g = _tank("jagdpanther", "german", others=us)
    assert not _orders(g, "at US1")
    _refused(g, "V1 fire cannon at US1 (C8)")


def test_immobilised_jagdpanther_cannon_only_down_its_hex_row():
    """Seed 000 p. 33: an immobilised Jagdpanther's cannon fires only down the hex row it
    faces (C8 facing N: C7, C6, C5 ...)."""
    on_row = [{"name": "US1", "hex": "C5", "ar": "complete"}]
    off_row = [{"name": "US1", "hex": "D5", "ar": "complete"}]
    assert _orders(_tank("jagdpanther", "german", others=on_row, immobilised=True), "cannon")
    g = _tank("jagdpanther", "german", others=off_row, immobilised=True)
    assert tanks.in_front(g, g.state.vehicles[0], g.board.index("D5"))
    assert not _orders(g, "cannon")
    assert _orders(_tank("jagdpanther", "german", others=off_row), "cannon")  # mobile: front


# ---------------------------------------------------------------- moving (p. 30, 33)
def _road_drive(g: Game) -> list[dict]:
    """Drive east along the road once (the first legal drive to a hex of row 8)."""
    o = next(
        o
        for o in g.legal_orders()
        if "drive" in o and o.endswith("8") and "A8" not in o and "B8" not in o
    )
    return g.play(o)


def test_moving_fast_pays_the_extra_crew_point_and_makes_an_accident_check():
    """Seed 000 p. 33: move slowly 2 CP / fast 3; p. 30: exceeding the slow MPA (3) is
    moving fast, with an Accident Check at the crew's DS (5)."""
    g = _tank(hex_="C8", facing="SE")
    evs = _road_drive(g) + _road_drive(g) + _road_drive(g)
    assert _tasks(evs) == [("move_slow", 2, 3)]
    g.force_rolls([5, 9, 9, 9, 9])  # accident check at DS 5: passed (then the hex's checks)
    evs = _road_drive(g)
    assert _tasks(evs) == [("move_fast", 1, 2)]
    acc = [e for e in evs if e["type"] == "accident_check"]
    assert acc and acc[0]["result"] == "passed" and acc[0]["need"] == 5


def test_fast_while_closed_is_refused():
    """Seed 000 p. 30: a closed tank cannot go fast: its drive stops at the slow MPA."""
    g = _tank(hex_="C8", facing="SE", closed=True)
    for _ in range(3):
        _road_drive(g)
    assert g.state.turn.mp_spent == 3
    assert not [o for o in g.legal_orders() if " drive " in o]
    b = g.board
    nxt = next(
        j for j in b.neighbors[g.state.vehicles[0].hex] if j >= 0 and b.label(j).endswith("8")
    )
    _refused(
        g,
        next(
            f"V1 drive {d} to {b.label(nxt)}"
            for d in ("N", "NE", "SE", "S", "SW", "NW")
            if b.neighbors[g.state.vehicles[0].hex][("N", "NE", "SE", "S", "SW", "NW").index(d)]
            == nxt
        ),
    )


def test_operations_drive_is_one_hex_and_free():
    """RULES.md §5 / seed 000 p. 30: one hex per Operations action, no Crew Points."""
    g = _tank(phase="operations", hex_="C8", facing="SE")
    evs = _road_drive(g)
    assert not _tasks(evs) and any(e["type"] == "drive" for e in evs)
    assert g.acting_unit() is None or g.acting_unit().name != "V1"


# ---------------------------------------------------------------- open / close (p. 30, 33)
def test_open_close_takes_every_crew_point_in_rounds():
    """Seed 000 p. 33: open or close takes all Crew Points; nothing else that turn."""
    g = _tank()
    evs = g.play("V1 open/close the tank")
    assert _tasks(evs) == [("open_close", 5, 0)] and g.state.vehicles[0].closed
    assert g.acting_unit() is None or g.acting_unit().name != "V1"
    g = _tank(cannon_loaded=False)
    g.play("V1 load the cannon")
    _refused(g, "V1 open/close the tank")


def test_open_close_is_free_in_operations():
    """Seed 000 p. 30: changing is free in Operations (⚙ once an action; the action goes on)."""
    g = _tank(phase="operations")
    evs = g.play("V1 open/close the tank")
    assert not _tasks(evs) and g.state.vehicles[0].closed and g.acting_unit().name == "V1"
    assert "V1 open/close the tank" not in g.legal_orders()


# ---------------------------------------------------------------- the crew (p. 31)
@pytest.mark.parametrize(
    "crew,roll,space",
    [
        (1, 2, ARSpace.PANIC),
        (2, 0, ARSpace.PANIC),
        (2, 3, ARSpace.COMPLETE),
        (1, 3, ARSpace.COMPLETE),
        (3, 0, ARSpace.COMPLETE),
        (3, 2, ARSpace.COMPLETE),
        (3, 3, ARSpace.ONE_TURN),
        (5, 6, ARSpace.TWO_TURN),
    ],
)
def test_crew_panics_only_at_in_0_1_and_roll_0_2(crew, roll, space):
    """Seed 000 p. 31: tank crews panic only when IN is 0-1 and the Action Round roll 0-2;
    they never obey command (⚙ the command spaces give Complete)."""
    g = _tank(crew=crew)
    u = g.state.units[0]
    assert tanks.ar_space(g, u, roll + u.IN) == space


def test_crew_panic_from_the_round_start():
    """Seed 000 p. 31: a tank with one man (IN 0) panics on a US roll of 2, not of 3."""
    for roll, panic in ((2, True), (3, False)):
        g = Game.from_position(
            {
                "mission": MISSION,
                "phase": "rounds",
                "round": 3,
                "rounds_total": 3,
                "units": [
                    {"name": "G1", "role": "rifleman", "hex": "C4"},
                    {"name": "US2", "hex": "A1"},
                ],
                "vehicles": [
                    {"name": "V1", "type": "sherman", "side": "us", "hex": "C8", "crew": 1}
                ],
                "dice": [roll, 9],
            }
        )
        tank = g.state.units[g.state.vehicles[0].unit]
        assert (tank.ar == ARSpace.PANIC) == panic


def test_nobody_boards_a_tank():
    """Seed 000 p. 31: nobody can board a tank."""
    g = Game.from_position(
        {
            "mission": MISSION,
            "units": [{"name": "US1", "hex": "C8"}],
            "vehicles": [{"name": "V1", "type": "sherman", "side": "us", "hex": "C8"}],
        }
    )
    g.play("select US1")
    assert not _orders(g, "get into")
    with pytest.raises(IllegalActionError):
        g.play("US1 get into V1 (Sherman, C8)")


def test_no_commander_gives_a_tank_a_turn():
    """Seed 000 p. 31: tank crews never obey command."""
    g = Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US1"},
            "units": [
                {"name": "US1", "hex": "C7", "ar": "1-turn"},
                {"name": "US2", "hex": "C6", "ar": "complete"},
                {"name": "V1", "side": "us", "role": "tank", "vehicle": "V1", "ar": "complete"},
                {"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"},
            ],
            "vehicles": [{"name": "V1", "type": "sherman", "side": "us", "hex": "C8"}],
        }
    )
    assert g.state.units[0].CR > 0
    orders = g.legal_orders()
    assert "US1 give a turn to US2" in orders and "US1 give a turn to V1" not in orders


def test_soldiers_do_not_fire_at_a_tank_unit_as_a_soldier():
    """Decision 1: attacks on a tank go through its vehicle slot, never its contact slot."""
    g = _tank(
        "panzer_iv",
        "german",
        hex_="C5",
        turn=None,
        others=[{"name": "US1", "hex": "C8", "ar": "1-turn"}],
    )
    g.state.turn.uid = 1
    g.state.turn.cp_left = -1
    g.invalidate()
    # the vehicle orders name an aspect ("fire aimed at V1 (rear)"); a contact order would not
    assert not [
        o
        for o in g.legal_orders()
        if "at V1" in o
        and "fire" in o
        and "Panzer" not in o
        and not o.endswith(("(front)", "(side)", "(rear)"))
    ]
    assert "US1 fire aimed at V1 (rear)" in g.legal_orders()


def test_tank_weapons_aim_at_a_vehicle_slot_with_one_aspect_from_afar():
    """Issue 11 order layout: from another hex exactly one aspect is legal; in the vehicle's
    hex all three (seed 000 p. 30)."""
    jeep = {"name": "V2", "type": "jeep", "side": "us", "hex": "C5", "facing": "N", "driver": "US1"}
    us = [{"name": "US1", "hex": "C5", "vehicle": "V2", "ar": "complete"}]
    p = {
        "mission": MISSION,
        "german": "agent",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "german",
        "turn": {"unit": "V1"},
        "units": [{"name": "V1", "side": "german", "role": "tank", "vehicle": "V1", "ar": "1-turn"}]
        + us,
        "vehicles": [
            {
                "name": "V1",
                "type": "panzer_iv",
                "side": "german",
                "hex": "C8",
                "facing": "N",
                "cannon_loaded": True,
            },
            jeep,
        ],
    }
    g = Game.from_position(p)
    shots = _orders(g, "fire cannon at V2")
    assert shots == ["V1 fire cannon at V2 (rear)"]  # the jeep faces away (N)
    p["vehicles"][1] = {**jeep, "hex": "C8"}
    p["units"][1] = {**us[0], "hex": "C8"}
    g = Game.from_position(p)
    assert len(_orders(g, "fire cannon at V2")) == 3
