"""Ratings and counts are range-checked where positions enter (issue 23: "positions accept PC 42,
MV 99, WS −7 which squad files reject"; docs/API.md: invalid input raises ``DataError``
naming the field).

A unit's ratings use a squad file's bounds (``squads.RATING_BOUNDS``, the same numbers that
``Soldier`` checks): IN 0-4, PC 3-8, WS −2..+2, DS 0-9, MV 4-5 (down to 0 when wounded,
damage.yaml), CR 0-3; port boxes 0-4; shots left within the weapon's clip; items known and
fitting the port boxes; vehicle counts within the type's; the turn's MPs, snap shots and Crew
Points within what play can reach; forced rolls 0-100; initiative rolls d10s.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.world.squads import RATING_BOUNDS, Soldier

BASE: dict[str, Any] = {
    "mission": "farm_assault",
    "phase": "rounds",
    "round": 3,
    "rounds_total": 3,
    "initiative": "us",
    "turn": {"unit": "US1"},
    "units": [
        {"name": "US1", "hex": "B5", "ar": "1-turn"},
        {"name": "G1", "role": "rifleman", "hex": "F4", "ar": "complete"},
    ],
}

D100_TANK: dict[str, Any] = {
    "mission": "farm_assault",
    "rules": "d100",
    "units": [{"name": "US1", "hex": "B5"}, {"name": "V1", "role": "tank", "vehicle": "V1"}],
    "vehicles": [
        {"name": "V1", "type": "panzer_iv", "side": "german", "hex": "D8", "unit": "V1", "crew": 4}
    ],
}


def _refused(p: dict, field: str) -> DataError:
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field == field, str(e.value)
    return e.value


def _with(base: dict, path: str, value: Any) -> dict:
    p = copy.deepcopy(base)
    *keys, last = path.split(".")
    d: Any = p
    for k in keys:
        d = d[int(k)] if isinstance(d, list) else d[k]
    d[last] = value
    return p


def test_the_bounds_are_the_squad_files():
    """One place for the numbers: ``squads.RATING_BOUNDS`` is read from ``Soldier``."""
    for r, (lo, hi) in RATING_BOUNDS.items():
        meta = {type(m).__name__: m for m in Soldier.model_fields[r].metadata}
        assert (meta["Ge"].ge, meta["Le"].le) == (lo, hi)


@pytest.mark.parametrize("rating", ["IN", "PC", "WS", "DS", "MV", "CR"])
def test_each_rating_at_its_bounds_is_read_and_beyond_them_refused(rating):
    """Both sides of each bound: the bound itself loads, one past it is a DataError naming
    ``units.0.<rating>`` (MV's lower bound holds for a man who is not wounded)."""
    lo, hi = RATING_BOUNDS[rating]
    for ok in (lo, hi):
        g = Game.from_position(_with(BASE, f"units.0.{rating}", ok))
        assert getattr(g.state.units[0], rating) == ok
    for bad in (lo - 1, hi + 1):
        _refused(_with(BASE, f"units.0.{rating}", bad), f"units.0.{rating}")


def test_the_issues_examples():
    """PC 42, MV 99, WS −7: refused, each naming its field."""
    for rating, bad in (("PC", 42), ("MV", 99), ("WS", -7)):
        e = _refused(_with(BASE, f"units.0.{rating}", bad), f"units.0.{rating}")
        assert str(bad) in str(e) or "less than" in str(e) or "greater than" in str(e)


def test_a_wounded_mans_mv_may_be_lower():
    """Seed 002 p. 26: a wounded man's MV drops (damage.yaml ``wounded.mv``): 0..5 then."""
    p = _with(BASE, "units.0.wounded", True)
    for mv in (0, 2, 5):
        assert mv == Game.from_position(_with(p, "units.0.MV", mv)).state.units[0].MV
    _refused(_with(p, "units.0.MV", -1), "units.0.MV")
    _refused(_with(p, "units.0.MV", 6), "units.0.MV")


def test_shots_left_fit_the_clip():
    """``ammo``: 0..the clip of the weapon (a Thompson's 3, weapons.yaml), −1 only for a weapon
    that never runs dry."""
    p = _with(BASE, "units.0.weapon", "thompson")
    for ok in (0, 3):
        assert Game.from_position(_with(p, "units.0.ammo", ok)).state.units[0].ammo == ok
    _refused(_with(p, "units.0.ammo", 4), "units.0.ammo")
    _refused(_with(p, "units.0.ammo", -1), "units.0.ammo")
    _refused(_with(p, "units.0.ammo", -2), "units.0.ammo")
    q = _with(BASE, "units.0.weapon", "")
    assert Game.from_position(_with(q, "units.0.ammo", 0)).state.units[0].ammo == 0
    _refused(_with(q, "units.0.ammo", 1), "units.0.ammo")


def test_port_boxes_and_their_items():
    """RULES.md §4: at most 4 port boxes (the squad file's bound), items of weapons.yaml
    filling no more boxes than the man has (a satchel fills 2)."""
    _refused(_with(BASE, "units.0.port_boxes", 5), "units.0.port_boxes")
    _refused(_with(BASE, "units.0.port_boxes", -1), "units.0.port_boxes")
    p = _with(BASE, "units.0.port_boxes", 2)
    assert Game.from_position(_with(p, "units.0.equipment", ["satchel"])).state.units[
        0
    ].equipment == ["satchel"]
    _refused(_with(p, "units.0.equipment", ["satchel", "grenade"]), "units.0.equipment")
    _refused(_with(BASE, "units.0.equipment", ["grenade", "banana"]), "units.0.equipment.1")


def test_turn_counts():
    """The turn's MPs left (at most a vehicle's fast MPA), snap shots (rules.yaml:
    fire.snap_shots) and Crew Points (a tank's crew)."""
    from ambush_env.core.play.position import _most_mp
    from ambush_env.core.world.rules_data import load_rules_data

    snaps = load_rules_data().fire.snap_shots
    assert Game.from_position(_with(BASE, "turn", {"unit": "US1", "snaps": snaps}))
    _refused(_with(BASE, "turn", {"unit": "US1", "snaps": snaps + 1}), "turn.snaps")
    assert Game.from_position(_with(BASE, "turn", {"unit": "US1", "mode": "move", "mp_left": 3}))
    _refused(_with(BASE, "turn", {"unit": "US1", "mp_left": _most_mp() + 1}), "turn.mp_left")
    _refused(_with(BASE, "turn", {"unit": "US1", "mp_left": -1}), "turn.mp_left")
    _refused(_with(BASE, "turn", {"unit": "US1", "cp_left": 6}), "turn.cp_left")
    _refused(_with(BASE, "turn", {"unit": "US1", "cp_left": -2}), "turn.cp_left")


def test_vehicle_counts():
    """A tank's crew within its type's (seed 000 p. 40), d100 damage within its Armor value
    and crew (seed 003)."""
    assert Game.from_position(D100_TANK).state.vehicles[0].crew == 4
    _refused(_with(D100_TANK, "vehicles.0.crew", 6), "vehicles.0.crew")
    _refused(_with(D100_TANK, "vehicles.0.crew", -1), "vehicles.0.crew")
    g = Game.from_position(_with(D100_TANK, "vehicles.0.armour_loss", {"front": 30}))
    assert g.state.vehicles[0].armour_loss == {"front": 30}  # panzer_iv front: 30 (d100.yaml)
    _refused(
        _with(D100_TANK, "vehicles.0.armour_loss", {"front": 31}), "vehicles.0.armour_loss.front"
    )
    _refused(
        _with(D100_TANK, "vehicles.0.armour_loss", {"rear": 19}), "vehicles.0.armour_loss.rear"
    )
    assert Game.from_position(_with(D100_TANK, "vehicles.0.hull_crew", 4))
    _refused(_with(D100_TANK, "vehicles.0.hull_crew", 5), "vehicles.0.hull_crew")
    _refused(
        _with(D100_TANK, "vehicles.0.component_damage", {"Engine": 0}),
        "vehicles.0.component_damage.Engine",
    )
    _refused(_with(D100_TANK, "vehicles.0.mpa_quarters", 5), "vehicles.0.mpa_quarters")


def test_rolls_and_seeds():
    """Initiative rolls are d10s (0-9); forced rolls 0-100 (``dice``, ``rng.forced``); a seed
    is a numpy seed (>= 0)."""
    assert Game.from_position(_with(BASE, "rolls", {"us": 9, "german": 0}))
    _refused(_with(BASE, "rolls", {"us": 10}), "rolls.us")
    _refused(_with(BASE, "rolls", {"german": -1}), "rolls.german")
    _refused(_with(BASE, "seed", -1), "seed")
    assert Game.from_position(_with(BASE, "dice", [100, 0])).dice.forced_left == 2
    _refused(_with(BASE, "dice", [101]), "dice.0")
    g = Game.from_position(BASE)
    g.force_rolls([85])  # a d100's roll, forced and written back in rng.forced
    p = g.position()
    assert Game.from_position(p).position() == p
    p["rng"]["forced"] = [101]
    _refused(p, "rng.forced")


def test_a_tank_units_ratings_are_its_crews_not_a_soldiers():
    """Seed 000 p. 31: a tank's unit rates as its crew (vehicles.yaml crew_ratings), which for
    a crew of 1 lies below a soldier's bounds: its position reads back (the fuzz found a
    tank_hunt tank down to its last crewman refused), and a soldier's PC so low is refused."""
    from ambush_env.core.world.vehicle_data import crew_rating

    low = crew_rating(1)
    assert RATING_BOUNDS["PC"][0] > low.PC  # what makes the case
    g = Game.from_position(_with(D100_TANK, "vehicles.0.crew", 1))
    assert g.state.units[1].PC == low.PC
    p = g.position()
    assert p["units"][1]["PC"] == low.PC and Game.from_position(p).position() == p
    _refused(_with(BASE, "units.0.PC", low.PC), "units.0.PC")
