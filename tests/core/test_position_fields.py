"""Positions hold every field of the state (docs/API.md "Positions and orders": "writes the
whole situation back, exactly"; core/play/position.py).

The generated test walks ``dataclasses.fields`` of GameState, Unit, Vehicle and TurnState: in
a real game's state (read from a rich position, then changed directly in the state) every
field has a non-default value on some unit, vehicle, turn or the state itself, and
``read_position(write_position(state))`` gives back a state equal to it, field by field. A
field added to core/model/state.py later fails here until the writer writes it and the reader reads
it back (or it is put on ``position.DERIVED``, the documented list of fields derived on
reading), and until this test's situation gives it a non-default value.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.state import GameState, TurnState, Unit, Vehicle
from ambush_env.core.play import position
from ambush_env.core.world.missions import load_mission

CLASSES = (GameState, Unit, Vehicle, TurnState)

#: map booby traps for the mission (farm_assault with traps): ``booby_traps_gone`` needs one
TRAPS = {"D6": "grenade_outside", "B8": "grenade_outside"}


def _mission() -> dict:
    d = load_mission("farm_assault").model_dump(by_alias=True, mode="json")
    d["booby_traps"] = TRAPS
    return json.loads(json.dumps(d))


def rich_position() -> dict:
    """A d100 situation with soldiers, Germans, a prisoner, a hidden German, a jeep, a German
    tank in the middle of its card row (its drive interrupted by a US soldier's throw-out
    decision) and a captured car that left the map."""
    units = [
        {
            "name": "US1",
            "hex": "B5",
            "stance": "prone",
            "wounded": True,
            "ar": "1-turn",
            "weapon": "mp40",
            "ammo": 1,
            "jammed": True,
            "captured_weapon": True,
            "equipment": ["grenade"],
            "satchel_ready": True,
            "given_turn": True,
        },
        {
            "name": "US2",
            "hex": "B6",
            "stance": "crouching",
            "panicked": True,
            "ar": "2-turn",
            "prepared": True,
        },
        {"name": "US3", "hex": "A8", "vehicle": "V1", "ar": "complete"},
        {"name": "US4", "status": "removed", "exited": True, "ar": "inactive"},
        {"name": "US5", "hex": "A8", "vehicle": "V1", "status": "incapacitated", "ar": "inactive"},
        {
            "name": "G1",
            "role": "rifleman",
            "hex": "F4",
            "aware": False,
            "ar": "complete",
            "route": ["F5", "F6"],
        },
        {
            "name": "G2",
            "role": "rifleman",
            "hex": "B6",
            "status": "captured",
            "guard": "US2",
            "ar": "inactive",
        },
        {"name": "G3", "role": "sniper", "status": "hidden", "escaped": True},
        {"name": "V2", "role": "tank", "vehicle": "V2", "ar": "1-turn", "route": ["E8", "F8"]},
    ]
    vehicles = [
        {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "A8",
            "facing": "NE",
            "driver": "US3",
            "passengers": ["US5"],
            "tyre_shot": True,
            "hp": 20,
            "component_damage": {"Headlamps": 1},
            "destroyed": ["Suspension"],
            "burning": True,
            "fire_dice": "1d6",
            "countdowns": {"stop": 2},
            "mpa_quarters": 3,
            "moved_mp": 2,
        },
        {
            "name": "V2",
            "type": "panzer_iv",
            "side": "german",
            "hex": "D8",
            "facing": "S",
            "unit": "V2",
            "crew": 4,
            "closed": True,
            "immobilised": True,
            "cannon_loaded": True,
            "lost": ["coax"],
            "jammed_mgs": ["bow"],
            "card": "panzer_iv",
            "hp": 70,
            "armour_loss": {"front": 2},
            "destroyed": ["Coaxial Gun"],
            "hull_crew": 1,
        },
        {
            "name": "V3",
            "type": "kubelwagen",
            "side": "us",
            "exited": True,
            "disabled": True,
            "wrecked": True,
            "captured": True,
        },
    ]
    return {
        "mission": _mission(),
        "rules": "d100",
        "deck": "veteran",
        "german": "agent",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 5,
        "pulse": 4,
        "initiative": "german",
        "rolls": {"us": 3, "german": 7},
        "vp": 2,
        "vp_log": [["capture", 2]],
        "fired_triggers": ["G8"],
        "flags": ["radio_heard"],
        "ops_done": ["US1"],
        "turn": {  # a throw-out decision (RULES.md §9) interrupting the tank's drive
            "unit": "US1",
            "mode": "throw_out",
            "target": "G1",
            "target_hex": "B5",
            "scattered": True,
        },
        "interrupted": {
            "unit": "V2",
            "mode": "drive",
            "mp_left": 3,
            "mp_spent": 2,
            "hexes_moved": 2,
            "stance_changed": True,
            "snaps": 1,
            "alerted": True,
            "acted": True,
            "boarded": True,
            "accident_checked": True,
            "run_over_hexes": ["C8"],
            "cp_left": 2,
            "tasks": ["cannon"],
            "card": {"column": "crew_4", "row": 1, "step": 1, "acted": True, "path": ["D7", "E7"]},
        },
        "pending": [["sightings"]],
        "units": units,
        "vehicles": vehicles,
        "contacts": ["G1", "V2"],
        "german_contacts": ["US1", "US2"],
        "next_german": 7,
        "items": {"C5": ["grenade"]},
        "board": {"collapsed": ["D5"], "destroyed_walls": ["D5/D6"]},
        "minefields": [{"hex": "F6", "kind": "anti_tank", "known": False}, {"hex": "F7"}],
        "dead_triggers": ["H8"],
        "landmarks": [{"hex": "J3", "name": "steeple", "blocking": True}],
        "booby_traps_gone": ["D6"],
        "command_until": 6,
        "over": True,
        "result": "win",
        "end_reason": "objective",
        "steps": 12,
        "seed": 5,
    }


def _at_default(f: Any, objs: list[Any]) -> bool:
    """Whether field ``f`` holds its default on every object (a field without a default:
    the same value on all, which a reader filling in a constant would not notice)."""
    if f.default is MISSING and f.default_factory is MISSING:
        return len({repr(getattr(o, f.name)) for o in objs}) <= 1
    default = f.default_factory() if f.default is MISSING else f.default
    return all(getattr(o, f.name) == default for o in objs)


def _tank(o: Any) -> bool:
    """A tank's own unit, or a tank."""
    return o.role == "tank" if isinstance(o, Unit) else o.unit >= 0


def _objects(st: GameState) -> dict[type, list[Any]]:
    turns = [st.turn] + ([st.interrupted] if st.interrupted is not None else [])
    return {GameState: [st], Unit: list(st.units), Vehicle: list(st.vehicles), TurnState: turns}


def _round_trip(g: Game, st: GameState) -> tuple[dict, GameState]:
    p = position.write_position(g.ctx, st, g.dice, g.german, g._mission_ref)
    p = json.loads(json.dumps(p))  # what a file or get_state holds
    st2, _ = position.read_position(position.parse(p), g.ctx)
    return p, st2


@pytest.fixture(scope="module")
def game() -> Game:
    spec = position.parse(rich_position())
    mission, board = position.mission_and_board(spec)
    from ambush_env.core.play.game import _position_ctx

    g = Game.__new__(Game)
    from ambush_env.core.rules.ctx import Match

    Match.__init__(g, _position_ctx(mission, spec, board))
    g._init_fields(spec.german, spec.seed, spec.mission)
    g.state, g.dice = position.read_position(spec, g.ctx)  # as read: no play advances it
    return g


def test_the_derived_list_names_real_fields():
    """Every field on ``position.DERIVED`` is a field of its class, with its reason."""
    by_name = {c.__name__: {f.name for f in fields(c)} for c in CLASSES}
    assert set(position.DERIVED) == set(by_name)
    for cls, derived in position.DERIVED.items():
        assert set(derived) <= by_name[cls], (cls, set(derived) - by_name[cls])
        assert all(why for why in derived.values())
    assert set(position.TANK_UNIT_DERIVED) <= by_name["Unit"]
    assert set(position.TANK_VEHICLE_DERIVED) <= by_name["Vehicle"]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_field_has_a_non_default_value_in_the_situation(game, cls):
    """The situation exercises every field that a position must carry (else the round trip
    below could not notice the field being dropped)."""
    objs = _objects(game.state)[cls]
    derived = position.DERIVED[cls.__name__]
    missing = [f.name for f in fields(cls) if f.name not in derived and _at_default(f, objs)]
    assert not missing, (
        f"{cls.__name__} fields at their default everywhere in "
        f"rich_position(): {missing} - give them a value there (and write/read "
        "them in core/play/position.py)"
    )


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_field_round_trips(game, cls):
    """``read(write(state))`` gives back every field of every object (the derived ones too)."""
    st = game.state.clone()
    _, st2 = _round_trip(game, st)
    pairs = list(zip(_objects(st)[cls], _objects(st2)[cls], strict=True))
    for a, b in pairs:
        for f in fields(cls):
            assert getattr(a, f.name) == getattr(b, f.name), (cls.__name__, f.name, a, b)
    assert st2 == st


def test_the_written_position_is_canonical(game):
    """``write(read(write(g))) == write(g)``."""
    p, st2 = _round_trip(game, game.state.clone())
    q = json.loads(
        json.dumps(
            position.write_position(game.ctx, st2, game.dice, game.german, game._mission_ref)
        )
    )
    assert q == p


@pytest.mark.parametrize("cls", (Unit, Vehicle, TurnState), ids=lambda c: c.__name__)
def test_each_field_changed_alone_round_trips(game, cls):
    """Each field changed alone in the state (bools flipped, counts moved by one where the
    position allows it) comes back changed: the writer and the reader carry it on its own,
    not only together with the others."""
    base = game.state
    objs = _objects(base)[cls]
    derived = set(position.DERIVED[cls.__name__])
    for f in fields(cls):
        if f.name in derived:
            continue
        for k, o in enumerate(objs):
            x = getattr(o, f.name)
            if isinstance(x, bool):
                new: Any = not x
            else:
                continue  # counts and references: their values are covered by the situation
            st = base.clone()
            setattr(_objects(st)[cls][k], f.name, new)
            try:
                _, st2 = _round_trip(game, st)
            except DataError:
                continue  # the flipped flag contradicts another field: refused, named
            assert getattr(_objects(st2)[cls][k], f.name) == new, (cls.__name__, f.name, k)


@pytest.mark.parametrize("cls", (Unit, Vehicle), ids=lambda c: c.__name__)
def test_every_value_moved_to_every_other_object_round_trips_or_is_refused(game, cls):
    """Each field's values in the situation, given one at a time to every other unit (or
    vehicle) — a German's route to the tank's unit, the jeep's damage to the tank, a
    prisoner's guard to a soldier — come back as given, or the position is refused by name:
    the reader never drops or replaces a value silently, whatever kind of unit holds it."""
    import copy

    base = game.state
    objs = _objects(base)[cls]
    derived = set(position.DERIVED[cls.__name__])
    for f in fields(cls):
        if f.name in derived:
            continue
        values = {repr(getattr(o, f.name)): getattr(o, f.name) for o in objs}
        for k, o in enumerate(objs):
            for x in values.values():
                if x == getattr(o, f.name):
                    continue
                st = base.clone()
                setattr(_objects(st)[cls][k], f.name, copy.deepcopy(x))
                try:
                    _, st2 = _round_trip(game, st)
                except DataError:
                    continue  # refused, naming the field
                got = getattr(_objects(st2)[cls][k], f.name)
                if _tank(o) and f.name in (
                    position.TANK_UNIT_DERIVED if cls is Unit else position.TANK_VEHICLE_DERIVED
                ):
                    assert got == getattr(o, f.name)  # left out: what its tank (unit) gives
                    continue
                if cls is Vehicle and f.name == "crew" and x == 0 and _tank(o) and not o.disabled:
                    continue  # ⚙ tanks.make_tank_unit: crew 0 on a tank in action = a full crew
                if (
                    cls is Unit
                    and f.name == "vehicle"
                    and x == -1
                    and any(o.uid in v.occupants for v in base.vehicles)
                ):
                    assert got == o.vehicle  # left out: a man in a vehicle's seats rides it
                    continue
                assert got == x, (cls.__name__, f.name, o.name, x, got)


# ---------------------------------------------------------------- the tank's route (issue 23)
def test_a_hand_written_position_gives_a_tank_a_route():
    """Seed 000 p. 32 (a German tank drives ``toward: route``): the route of a tank's unit is
    read from the position and written back; before the fix it was dropped."""
    g = Game.from_position(
        {
            "mission": "tank_hunt",
            "german": "agent",
            "units": [
                {"name": "US1", "hex": "B12"},
                {"name": "V1", "role": "tank", "vehicle": "V1", "route": ["H7", "H4"]},
            ],
            "vehicles": [
                {
                    "name": "V1",
                    "type": "panzer_iv",
                    "side": "german",
                    "hex": "P7",
                    "facing": "NW",
                    "unit": "V1",
                    "card": "panzer_iv",
                }
            ],
        }
    )
    tank = g.state.units[1]
    assert [g.board.label(h) for h in tank.route] == ["H7", "H4"]
    p = g.position()
    assert p["units"][1]["route"] == ["H7", "H4"]
    assert Game.from_position(p).position() == p


def test_a_tank_units_fields_from_its_tank_must_agree():
    """A tank unit's hex and ratings come from its tank (seed 000 p. 31): a position may give
    them (a written one does), but not other values."""
    base = {
        "mission": "tank_hunt",
        "units": [{"name": "US1", "hex": "B12"}, {"name": "V1", "role": "tank", "vehicle": "V1"}],
        "vehicles": [
            {
                "name": "V1",
                "type": "panzer_iv",
                "side": "german",
                "hex": "P7",
                "unit": "V1",
                "crew": 5,
            }
        ],
    }
    g = Game.from_position(base)
    written = g.position()["units"][1]
    assert written["hex"] == "P7" and written["PC"] == g.state.units[1].PC
    for field, bad in (("hex", "O7"), ("PC", written["PC"] - 1), ("MV", 4), ("weapon", "mp40")):
        p = json.loads(json.dumps(base))
        p["units"][1][field] = bad
        with pytest.raises(DataError) as e:
            Game.from_position(p)
        assert e.value.field == f"units.1.{field}"
    p = json.loads(json.dumps(base))
    p["units"][1].update(hex="P7", PC=written["PC"])
    assert Game.from_position(p).state == g.state


def test_a_tank_hunt_game_with_its_tank_on_a_route_restores_and_plays_on():
    """The failure of the issue: tank_hunt's German tank arrives with a route (paragraph
    placement); the restored game kept no route and played differently."""
    import random

    g = Game("tank_hunt", seed=9)
    r = random.Random(9)
    for _ in range(400):
        if any(u.role == "tank" and u.route for u in g.state.units) or g.state.over:
            break
        g.step(r.choice(g.legal_actions()))
    tank = next(u for u in g.state.units if u.role == "tank")
    assert tank.route, "the situation needs a tank with a route"
    h = Game.from_position(g.position())
    assert h.state.units[tank.uid].route == tank.route and h.state == g.state
    for _ in range(50):
        if g.state.over:
            break
        a = r.choice(g.legal_actions())
        assert g.step(a) == h.step(a)
