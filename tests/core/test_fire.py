"""Fire combat: to-hit, the shot, aimed automatic fire, walls, penetration.

RULES.md §8, §11; seed 002 p. 26-27; seed 000 p. 30-32. Every roll is forced with
``Dice.scripted``; the game is a small fake holding a real :class:`Board` (built from a map
dict), the shipped tables and a fake sight cache (everything visible unless blocked).
"""

from __future__ import annotations

import pytest
from engine_helpers import dict_forms
from hypothesis import given, settings
from hypothesis import strategies as st

from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import AmbushError, DiceExhaustedError, IllegalActionError
from ambush_env.core.model.events import Event
from ambush_env.core.model.state import GameState, Unit
from ambush_env.core.model.types import ARSpace, Side, Stance, Status, Terrain
from ambush_env.core.rules import fire as fire_rules
from ambush_env.core.rules.fire import (
    SURFACES,
    base_to_hit,
    fire_refusal,
    penetrates,
    range_band,
    to_hit,
    to_hit_vehicle,
    to_hit_wall,
    wall_refusal,
)
from ambush_env.core.world.board import board_from_dict
from ambush_env.core.world.tables import load_tables

# the shots return typed events; these tests read their dict forms (info["events"])
fire = dict_forms(fire_rules.fire)
fire_at_wall = dict_forms(fire_rules.fire_at_wall)

S, C, P = Stance.STANDING, Stance.CROUCHING, Stance.PRONE


# ------------------------------------------------------------------------------------------
# A tiny game (engine.py contract)
# ------------------------------------------------------------------------------------------
class FakeSight:
    """Everything is visible except the pairs in ``blocked`` (either way round)."""

    def __init__(self) -> None:
        self.blocked: set[tuple[int, int]] = set()

    def can_see(self, i: int, j: int, stance_s: int, stance_t: int) -> bool:
        return (i, j) not in self.blocked and (j, i) not in self.blocked


class FakeGame:
    def __init__(self, rolls=(), *, hexes=None, hexsides=None, in_rounds=True) -> None:
        self.board = board_from_dict(
            {
                "name": "test",
                "columns": 12,
                "rows": 20,
                "hexes": hexes or {},
                "hexsides": hexsides or {},
            }
        )
        self.tables = load_tables()
        self.dice = Dice.scripted(rolls)
        self.sight = FakeSight()
        self.state = GameState()
        self.log: list[Event] = []
        self.in_rounds = in_rounds

    def emit(self, event: Event) -> None:
        self.log.append(event)

    @property
    def events(self) -> list[dict]:
        """The dict forms of the events emitted so far."""
        return [e.to_dict() for e in self.log]

    def units_at(self, hex_: int) -> list[Unit]:
        return [u for u in self.state.units if u.hex == hex_ and u.status != Status.HIDDEN]

    def add(self, name: str, at: str, *, side=Side.US, weapon="m1_garand", stance=S, **kw) -> Unit:
        u = Unit(
            uid=len(self.state.units),
            side=int(side),
            name=name,
            role="",
            hex=self.board.index(at),
            stance=int(stance),
            weapon=weapon,
            ar=int(ARSpace.ONE_TURN),
            aware=True,
        )
        u.ammo = self.tables.weapons.weapons[weapon].clip
        for k, v in kw.items():
            setattr(u, k, v)
        self.state.units.append(u)
        return u

    def force(self, *rolls: int) -> None:
        self.dice = Dice.scripted(rolls)


def german(g: FakeGame, name: str, at: str, **kw) -> Unit:
    kw.setdefault("weapon", "kar98")
    return g.add(name, at, side=Side.GERMAN, **kw)


T = load_tables()
BAND_DISTANCES = (0, 1, 3, 6, 10, 15, 16)  # one distance in each band, hexes


# ------------------------------------------------------------------------------------------
# Range bands and base to-hit numbers
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "distance,band",
    [
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 2),
        (4, 3),
        (6, 3),
        (7, 4),
        (10, 4),
        (11, 5),
        (15, 5),
        (16, 6),
        (99, 6),
    ],
)
def test_range_bands(distance, band):
    """RULES.md §8: bands same hex, 1, 2-3, 4-6, 7-10, 11-15, 16+."""
    assert range_band(distance) == band
    assert range_band(distance, T) == band


# The data, restated: a change to weapons.yaml must change this table too (and say why there).
BASE = {
    "pistol": (7, 6, 4, 2, None, None, None),
    "bolt_rifle": (5, 5, 5, 5, 4, 3, 2),
    "semi_auto_rifle": (6, 6, 5, 5, 4, 3, 2),
    "smg": (8, 7, 6, 4, 1, None, None),
    "automatic_rifle": (7, 7, 6, 5, 4, 3, 2),
    "lmg": (7, 7, 7, 6, 5, 4, 3),
    "hmg": (7, 7, 7, 6, 6, 5, 4),
    "bazooka": (6, 6, 6, 5, 3, 1, None),
    "panzerfaust": (6, 6, 5, 3, None, None, None),
    "tank_gun": (6, 6, 6, 6, 5, 4, 3),
    "tank_mg": (7, 7, 7, 6, 5, 4, 3),
}


@pytest.mark.parametrize("cls", sorted(BASE))
@pytest.mark.parametrize("band", range(7))
def test_base_to_hit_table(cls, band):
    """RULES.md §8: the base number of each class in each band, no modifiers."""
    assert base_to_hit(T, cls, BAND_DISTANCES[band]) == BASE[cls][band]


@pytest.mark.parametrize(
    "cls,max_range",
    [
        ("pistol", 6),
        ("smg", 10),
        ("panzerfaust", 6),
        ("bazooka", 15),
    ],
)
def test_beyond_max_range_is_none(cls, max_range):
    """RULES.md §8: beyond maximum range no fire (base_to_hit returns None)."""
    assert T.max_range[cls] == max_range
    assert base_to_hit(T, cls, max_range) is not None
    assert base_to_hit(T, cls, max_range + 1) is None
    assert base_to_hit(T, cls, 40) is None


@pytest.mark.parametrize("cls", ["bolt_rifle", "semi_auto_rifle", "lmg", "hmg", "tank_gun"])
def test_long_arms_have_no_maximum(cls):
    """RULES.md §8: rifles, machine guns and tank guns reach across the map (16+ band)."""
    assert T.max_range[cls] is None and base_to_hit(T, cls, 40) is not None


def test_base_to_hit_refuses_unknown_class_and_negative_distance():
    """RULES.md §8: only the classes of weapons.yaml exist."""
    with pytest.raises(AmbushError, match="railgun"):
        base_to_hit(T, "railgun", 1)
    with pytest.raises(AmbushError):
        base_to_hit(T, "pistol", -1)


# ------------------------------------------------------------------------------------------
# Modifiers (RULES.md §8), each applied once
# ------------------------------------------------------------------------------------------
# Shooter US1 at F2 with an M1 Garand (semi-automatic rifle), target at F6: 4 hexes, base 5.
MODIFIER_CASES = [
    # (id, shooter kwargs, target kwargs, snap, map hexes, map hexsides, expected modifiers)
    ("standing", {}, {"stance": S}, False, {}, {}, {"target_standing": 1}),
    ("crouching", {}, {"stance": C}, False, {}, {}, {}),
    ("prone", {}, {"stance": P}, False, {}, {}, {"target_prone": -2}),
    ("snap", {}, {"stance": C}, True, {}, {}, {"snap": -2}),
    ("woods", {}, {"stance": C}, False, {"F6": {"terrain": "woods"}}, {}, {"cover_woods": -2}),
    ("rubble", {}, {"stance": C}, False, {"F6": {"terrain": "rubble"}}, {}, {"cover_rubble": -2}),
    ("brush", {}, {"stance": C}, False, {"F6": {"terrain": "brush"}}, {}, {"cover_brush": -1}),
    (
        "building_window",
        {},
        {"stance": C},
        False,
        {"F6": {"terrain": "building"}},
        {"F5/F6": {"wall": "stone", "aperture": "window"}},
        {"cover_building": -2},
    ),
    ("stone_field_wall", {}, {"stance": C}, False, {}, {"F5/F6": "wall"}, {"wall_stone": -2}),
    (
        "wood_field_wall",
        {},
        {"stance": C},
        False,
        {},
        {"F5/F6": {"wall": "wood"}},
        {"wall_wood": -1},
    ),
    ("ws_plus", {"WS": 2}, {"stance": C}, False, {}, {}, {"ws": 2}),
    ("ws_minus", {"WS": -1}, {"stance": C}, False, {}, {}, {"ws": -1}),
    ("wounded", {"wounded": True}, {"stance": C}, False, {}, {}, {"wounded": -1}),
    (
        "captured_weapon",
        {"captured_weapon": True},
        {"stance": C},
        False,
        {},
        {},
        {"captured_weapon": -1},
    ),
    ("from_car", {"vehicle": 0}, {"stance": C}, False, {}, {}, {"from_car": -2}),
]


@pytest.mark.parametrize("case", MODIFIER_CASES, ids=[c[0] for c in MODIFIER_CASES])
def test_each_modifier_once(case):
    """RULES.md §8: snap −2; standing +1 / crouching 0 / prone −2; woods/rubble −2, brush −1,
    building −2, behind a wall −2 stone / −1 wood; WS; wounded −1 (seed 002 p. 26); captured
    weapon −1 (seed 002 p. 27); from a car −2 (seed 000 p. 32)."""
    _, skw, tkw, snap, hexes, sides, expected = case
    g = FakeGame(hexes=hexes, hexsides=sides)
    us = g.add("US1", "F2", **skw)
    ge = german(g, "G1", "F6", **tkw)
    n, mods = to_hit(g, us, ge, snap=snap)
    assert dict(mods) == expected
    assert n == 5 + sum(expected.values())


def test_building_behind_a_solid_wall_adds_wall_cover():
    """RULES.md §8: building −2 and, entering across a wall without an aperture, stone −2 more."""
    g = FakeGame(hexes={"F6": {"terrain": "building"}})
    us = g.add("US1", "F2")
    ge = german(g, "G1", "F6", stance=C)
    n, mods = to_hit(g, us, ge, snap=False)
    assert dict(mods) == {"cover_building": -2, "wall_stone": -2}
    assert n == 1


def test_destroyed_wall_gives_no_wall_cover():
    """seed 002 p. 27: a destroyed wall becomes a clear hexside."""
    g = FakeGame(hexsides={"F5/F6": "wall"})
    us = g.add("US1", "F2")
    ge = german(g, "G1", "F6", stance=C)
    g.board.destroy_wall(g.board.index("F5"), g.board.index("F6"))
    assert dict(to_hit(g, us, ge, snap=False)[1]) == {}


def test_wall_cover_tie_goes_to_the_open_hexside():
    """RULES.md §8 (our reading, as the §3 nudge): a line along a vertex enters by the side
    without a wall. From H8 the neighbours G8 and G9 of F8 are equally near."""
    g = FakeGame(hexsides={"F8/G8": "wall"})
    us = g.add("US1", "H8")
    ge = german(g, "G1", "F8", stance=C)
    assert g.board.distance(us.hex, ge.hex) == 2
    assert dict(to_hit(g, us, ge, snap=False)[1]) == {}


def test_wall_cover_tie_prefers_a_window_to_a_solid_wall():
    """RULES.md §8 (our reading): on a tie the line enters by the window, not the solid wall."""
    g = FakeGame(
        hexes={"F8": {"terrain": "building"}},
        hexsides={"F8/G9": {"wall": "stone", "aperture": "window"}},
    )
    us = g.add("US1", "H8")
    ge = german(g, "G1", "F8", stance=C)
    assert dict(to_hit(g, us, ge, snap=False)[1]) == {"cover_building": -2}


def test_same_hex_has_no_wall_cover():
    """RULES.md §8: firing inside a hex crosses no hexside."""
    g = FakeGame(hexes={"F6": {"terrain": "building"}})
    us = g.add("US1", "F6")
    ge = german(g, "G1", "F6", stance=C)
    n, mods = to_hit(g, us, ge, snap=False)
    assert dict(mods) == {"cover_building": -2}
    assert n == 6 - 2


def test_tank_weapons_have_no_from_car_penalty():
    """seed 000 p. 32: tanks fire their built-in weapons without the −2."""
    g = FakeGame()
    us = g.add("US1", "F2", weapon="m1919_tank", vehicle=0)
    ge = german(g, "G1", "F6", stance=C)
    assert dict(to_hit(g, us, ge, snap=False)[1]) == {}


def test_wall_and_vehicle_targets():
    """seed 002 p. 27: a wall at +4; seed 000 p. 30: small vehicle +1, large +2, and the
    cover of the vehicle's hex ⚙ ("resolve the fire as usual", seed 000 p. 31)."""
    g = FakeGame(hexes={"F6": {"terrain": "building"}, "F5": {"terrain": "woods"}})
    us = g.add("US1", "F2")
    assert to_hit_wall(g, us, g.board.index("F6")) == (9, [("wall_target", 4)])
    assert to_hit_vehicle(g, us, g.board.index("F4"), "small", snap=False) == (
        6,
        [("vehicle_small", 1)],
    )
    assert to_hit_vehicle(g, us, g.board.index("F4"), "large", snap=True) == (
        5,
        [("snap", -2), ("vehicle_large", 2)],
    )
    assert to_hit_vehicle(g, us, g.board.index("F5"), "small", snap=False) == (
        4,
        [("vehicle_small", 1), ("cover_woods", -2)],
    )
    with pytest.raises(AmbushError):
        to_hit_vehicle(g, us, g.board.index("F6"), "huge", snap=False)


KNOWN_MODS = {
    "snap",
    "ws",
    "wounded",
    "captured_weapon",
    "from_car",
    "target_standing",
    "target_prone",
    "wall_stone",
    "wall_wood",
} | {f"cover_{t}" for t in T.terrain_name.values()}


@settings(max_examples=200, deadline=None)
@given(
    weapon=st.sampled_from(sorted(T.weapons.weapons)),
    distance=st.integers(0, 18),
    terrain=st.sampled_from(["clear", "woods", "brush", "rubble", "building", "crater"]),
    wall=st.sampled_from([None, "stone", "wood"]),
    stance=st.sampled_from([S, C, P]),
    ws=st.integers(-2, 2),
    wounded=st.booleans(),
    captured=st.booleans(),
    snap=st.booleans(),
)
def test_to_hit_is_base_plus_named_modifiers(
    weapon, distance, terrain, wall, stance, ws, wounded, captured, snap
):
    """RULES.md §8: the to-hit number is the class's base for the band plus the modifiers
    listed, each named, none zero; beyond maximum range there is no number."""
    hexes = {f"F{2 + distance}": {"terrain": terrain}} if distance else {}
    sides = {f"F{1 + distance}/F{2 + distance}": {"wall": wall}} if wall and distance else {}
    g = FakeGame(hexes=hexes, hexsides=sides)
    us = g.add("US1", "F2", weapon=weapon, WS=ws, wounded=wounded, captured_weapon=captured)
    ge = german(g, "G1", f"F{2 + distance}", stance=stance)
    base = base_to_hit(T, T.class_of[weapon], distance)
    if base is None:
        with pytest.raises(IllegalActionError):
            to_hit(g, us, ge, snap=snap)
        return
    n, mods = to_hit(g, us, ge, snap=snap)
    assert n == base + sum(v for _, v in mods)
    assert all(v != 0 for _, v in mods) and {k for k, _ in mods} <= KNOWN_MODS
    assert len({k for k, _ in mods}) == len(mods)


def test_to_hit_beyond_range_raises():
    """RULES.md §8: beyond maximum range no fire."""
    g = FakeGame()
    us = g.add("US1", "F2", weapon="colt_45")
    ge = german(g, "G1", "F9")
    with pytest.raises(IllegalActionError, match="beyond maximum range"):
        to_hit(g, us, ge, snap=False)


# ------------------------------------------------------------------------------------------
# The shot: jam → hit → damage → ammunition (RULES.md §8)
# ------------------------------------------------------------------------------------------
def _duel(weapon="m1_garand", distance=4, **gkw):
    g = FakeGame()
    us = g.add("US1", "F2", weapon=weapon)
    ge = german(g, "G1", f"F{2 + distance}", stance=C, **gkw)
    return g, us, ge


def test_hit_at_exactly_the_number():
    """RULES.md §1, §8: a hit is a roll at or below the to-hit number (here 5)."""
    g, us, ge = _duel()
    g.force(5, 0)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert ev[0]["to_hit"] == 5 and ev[0]["rolls"] == {"hit": 5, "damage": 0}
    assert ev[0]["result"] == "none"


def test_miss_one_above_the_number():
    """RULES.md §1, §8: a roll one above the to-hit number misses; no damage roll."""
    g, us, ge = _duel()
    g.force(6)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert ev[0]["result"] == "miss" and ev[0]["rolls"] == {"hit": 6}
    assert g.dice.forced_left == 0
    assert ge.status == Status.ACTIVE


@pytest.mark.parametrize(
    "roll,result",
    [
        (0, "none"),
        (2, "none"),
        (3, "panic"),
        (4, "panic"),
        (5, "wound"),
        (6, "wound"),
        (7, "incapacitated"),
        (8, "incapacitated"),
        (9, "kill"),
    ],
)
def test_each_damage_result(roll, result):
    """seed 002 p. 26: the damage roll reads the class's row (semi-automatic rifle)."""
    g, us, ge = _duel()
    g.force(0, roll)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert ev[0]["result"] == result
    expect = {
        "none": Status.ACTIVE,
        "panic": Status.ACTIVE,
        "wound": Status.ACTIVE,
        "incapacitated": Status.INCAPACITATED,
        "kill": Status.KILLED,
    }[result]
    assert ge.status == expect
    assert ge.wounded == (result == "wound")
    assert ge.panicked == (result == "panic")


def test_jam_on_nine_no_shot_no_ammunition():
    """RULES.md §8: an automatic weapon jams on a 9; no shot, no hit roll, no ammunition used."""
    g, us, ge = _duel(weapon="thompson", distance=3)
    g.force(9)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert ev[0]["result"] == "jammed" and ev[0]["rolls"] == {"jam": 9}
    assert us.jammed and us.ammo == 3
    assert fire_refusal(g, us, ge, snap=False) == "weapon jammed"
    with pytest.raises(IllegalActionError, match="jammed"):
        fire(g, us.uid, ge.uid, snap=False)


def test_no_jam_on_eight():
    """RULES.md §8: a jam-check roll of 8 does not jam; the shot goes on."""
    g, us, ge = _duel(weapon="thompson", distance=3)
    g.force(8, 9)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert not us.jammed and ev[0]["rolls"] == {"jam": 8, "hit": 9}
    assert ev[0]["result"] == "miss"


def test_rifles_make_no_jam_check():
    """RULES.md §8: only automatic and crew weapons check for jams."""
    g, us, ge = _duel()
    g.force(9)
    assert "jam" not in fire(g, us.uid, ge.uid, snap=False)[0]["rolls"]


def test_tank_cannon_never_jams_or_runs_dry():
    """seed 000 p. 33: the cannon never jams or runs dry."""
    g, us, ge = _duel(weapon="kwk40")
    g.force(9)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert ev[0]["rolls"] == {"hit": 9} and us.ammo == -1


def test_ammunition_clip_runs_dry():
    """RULES.md §8 ⚙: one shot of the clip per fire; an empty clip is dry and cannot fire."""
    g, us, ge = _duel()
    us.ammo = 2
    g.force(9, 9)
    fire(g, us.uid, ge.uid, snap=False)
    assert us.ammo == 1
    ev = fire(g, us.uid, ge.uid, snap=True)
    assert us.ammo == 0 and ev[-1] == {"type": "dry", "unit": "US1", "weapon": "m1_garand"}
    assert "dry" in fire_refusal(g, us, ge, snap=False)


def test_fire_event_shape_and_emission():
    """RULES.md §8: events record mode, to-hit, modifiers and rolls; returned == emitted."""
    g, us, ge = _duel()
    g.force(1, 5)
    ev = fire(g, us.uid, ge.uid, snap=True)
    assert ev[0] == {
        "type": "fire",
        "shooter": "US1",
        "target": "G1",
        "weapon": "m1_garand",
        "mode": "snap",
        "hex": "F6",
        "to_hit": 3,
        "modifiers": {"snap": -2},
        "rolls": {"hit": 1, "damage": 5},
        "result": "wound",
    }
    assert ev == g.events
    assert ev[1]["type"] == "damage" and ev[1]["effect"] == "wound"


# ------------------------------------------------------------------------------------------
# Refusals
# ------------------------------------------------------------------------------------------
def test_bazooka_must_be_prepared_never_snaps_and_unloads():
    """RULES.md §8: bazookas must be prepared (loaded) and never snap fire."""
    g, us, ge = _duel(weapon="bazooka")
    assert fire_refusal(g, us, ge, snap=False) == "weapon not prepared"
    us.prepared = True
    assert "cannot snap fire" in fire_refusal(g, us, ge, snap=True)
    g.force(9)
    fire(g, us.uid, ge.uid, snap=False)
    assert not us.prepared and us.ammo == 0


def test_crew_weapon_needs_a_second_man_and_no_prisoner():
    """RULES.md §6: a crew weapon needs two soldiers in the hex; seed 002 p. 25: a guard
    cannot fire one."""
    g, us, ge = _duel(weapon="m1919", prepared=False)
    us.prepared = True
    assert "second soldier" in fire_refusal(g, us, ge, snap=False)
    mate = g.add("US2", "F2")
    assert fire_refusal(g, us, ge, snap=False) is None
    mate.status = int(Status.INCAPACITATED)
    assert "second soldier" in fire_refusal(g, us, ge, snap=False)
    mate.status = int(Status.ACTIVE)
    german(g, "G2", "F2", status=int(Status.CAPTURED), guard=us.uid, stance=P)
    assert "guard" in fire_refusal(g, us, ge, snap=False)


@pytest.mark.parametrize("status", [Status.INCAPACITATED, Status.CAPTURED, Status.KILLED])
def test_inactive_soldiers_are_not_targets(status):
    """seed 002 p. 25-26: the incapacitated and prisoners are not targets."""
    g, us, ge = _duel()
    ge.status = int(status)
    assert "not an active soldier" in fire_refusal(g, us, ge, snap=False)


def test_refusals_sight_range_friend_vehicle():
    """RULES.md §8: targets must be visible and in range, and enemies; seed 000 p. 31: a
    soldier in a vehicle is hit only by fire at the vehicle."""
    g, us, ge = _duel()
    g.sight.blocked.add((us.hex, ge.hex))
    assert fire_refusal(g, us, ge, snap=False) == "G1 is not in sight"
    g.sight.blocked.clear()
    friend = g.add("US2", "F4")
    assert "friend" in fire_refusal(g, us, friend, snap=False)
    ge.vehicle = 0
    assert "vehicle" in fire_refusal(g, us, ge, snap=False)
    ge.vehicle = -1
    far = german(g, "G2", "F19")
    pistol = g.add("US3", "F2", weapon="colt_45")
    assert "beyond maximum range" in fire_refusal(g, pistol, far, snap=False)
    assert fire_refusal(g, us, far, snap=False) is None


def test_no_bazooka_from_a_car():
    """seed 000 p. 32: no bazookas or crew weapons from a car."""
    g, us, ge = _duel(weapon="bazooka")
    us.prepared, us.vehicle = True, 0
    assert "from a car" in fire_refusal(g, us, ge, snap=False)


# ------------------------------------------------------------------------------------------
# Aimed automatic fire (seed 002 p. 27)
# ------------------------------------------------------------------------------------------
def _crowd():
    """US1 with a BAR (automatic rifle) at F2; three Germans at F6, prone, standing, crouching."""
    g = FakeGame()
    us = g.add("US1", "F2", weapon="bar")
    prone = german(g, "Gp", "F6", stance=P)
    stand = german(g, "Gs", "F6", stance=S)
    crouch = german(g, "Gc", "F6", stance=C)
    return g, us, prone, stand, crouch


def test_chain_continues_on_a_lower_roll_and_stops_on_an_equal_one():
    """seed 002 p. 27: keep rolling for the next most exposed soldier while each roll is lower
    than the one before; stop at the first equal or higher roll."""
    g, us, prone, stand, crouch = _crowd()
    # primary = the prone one; chain order: standing, crouching. jam 0, hit 0, damage 8,
    # standing 6 (lower: wounds, BAR row), crouching 6 (equal: stops, nothing).
    g.force(0, 0, 8, 6, 6)
    ev = fire(g, us.uid, prone.uid, snap=False)
    chain = [e for e in ev if e["type"] == "fire_chain"]
    assert [(e["target"], e["rolls"]["damage"], e["result"]) for e in chain] == [
        ("Gs", 6, "wound"),
        ("Gc", 6, "stopped"),
    ]
    assert prone.status == Status.KILLED  # BAR row 8 = kill
    assert stand.wounded and not crouch.wounded


def test_chain_runs_through_the_hex_on_falling_rolls():
    """seed 002 p. 27: with falling rolls every soldier of the hex is rolled for."""
    g, us, prone, stand, crouch = _crowd()
    g.force(0, 0, 9, 7, 4)
    ev = fire(g, us.uid, prone.uid, snap=False)
    assert [e["result"] for e in ev if e["type"] == "fire_chain"] == ["incapacitated", "wound"]
    assert stand.status == Status.INCAPACITATED and crouch.wounded


def test_chain_stops_on_a_higher_roll():
    """seed 002 p. 27: a higher roll stops the chain."""
    g, us, prone, stand, crouch = _crowd()
    g.force(0, 0, 3, 5)
    ev = fire(g, us.uid, stand.uid, snap=False)
    chain = [e for e in ev if e["type"] == "fire_chain"]
    assert [(e["target"], e["result"]) for e in chain] == [("Gc", "stopped")]
    assert g.dice.forced_left == 0


def test_snap_automatic_and_rifle_fire_do_not_chain():
    """seed 002 p. 27: only AIMED fire from an AUTOMATIC weapon chains."""
    g, us, prone, stand, crouch = _crowd()
    g.force(0, 0, 9)
    ev = fire(g, us.uid, stand.uid, snap=True)
    assert not [e for e in ev if e["type"] == "fire_chain"]
    g2 = FakeGame()
    rifle = g2.add("US1", "F2")
    a = german(g2, "G1", "F6")
    german(g2, "G2", "F6")
    g2.force(0, 9)
    assert not [e for e in fire(g2, rifle.uid, a.uid, snap=False) if e["type"] == "fire_chain"]


def test_chain_skips_the_incapacitated_and_hits_prisoners():
    """seed 002 p. 26: the incapacitated are not targets in a hex fired into; p. 25: automatic
    fire into the hex hurts prisoner and guard alike."""
    g = FakeGame()
    ger = german(g, "G1", "F2", weapon="mg42")
    guard = g.add("US1", "F6", stance=S)
    down = g.add("US2", "F6", stance=S, status=int(Status.INCAPACITATED))
    prisoner = german(g, "G2", "F6", stance=P, status=int(Status.CAPTURED), guard=guard.uid)
    g.force(0, 0, 5, 4)  # lmg row: 5 wounds the guard, 4 (lower) wounds the prisoner
    ev = fire(g, ger.uid, guard.uid, snap=False)
    chain = [e for e in ev if e["type"] == "fire_chain"]
    assert [e["target"] for e in chain] == ["G2"]
    assert prisoner.wounded and down.status == Status.INCAPACITATED


def test_chain_into_own_hex_spares_own_side():
    """RULES.md §8 (our reading): firing into his own hex, a shooter does not chain into friends."""
    g = FakeGame()
    us = g.add("US1", "F6", weapon="thompson")
    g.add("US2", "F6", stance=S)
    ge = german(g, "G1", "F6", stance=P)
    g.force(0, 0, 9)
    ev = fire(g, us.uid, ge.uid, snap=False)
    assert not [e for e in ev if e["type"] == "fire_chain"]


# ------------------------------------------------------------------------------------------
# Penetration (RULES.md §11, binding)
# ------------------------------------------------------------------------------------------
N, PS, D = "none", "pass", "destroyed"
# surfaces: wood_wall, stone_wall, unarmoured, light, medium, heavy
PENETRATION_TABLE = {
    ("none", False): (N, N, N, N, N, N),
    ("light", False): (PS, N, PS, N, N, N),
    ("medium", False): (PS, PS, PS, PS, PS, N),
    ("heavy", False): (D, D, D, D, D, D),
    ("none", True): (N, N, N, N, N, N),
    ("light", True): (D, D, D, D, N, N),
    ("medium", True): (D, D, D, D, D, N),
    ("heavy", True): (D, D, D, D, D, D),
}
PEN_CASES = [
    (lvl, exp, s, PENETRATION_TABLE[(lvl, exp)][k])
    for (lvl, exp) in PENETRATION_TABLE
    for k, s in enumerate(SURFACES)
]


@pytest.mark.parametrize("level,explosive,surface,expected", PEN_CASES)
def test_penetration_cell(level, explosive, surface, expected):
    """seed 002, p. 26-27 (Penetration table), read with seed 000 as RULES.md §11 binds it:
    non-explosive light passes wooden walls and unarmoured surfaces only, medium any wall and any surface but heavy armour, heavy
    destroys any; explosive destroys any wall, and a vehicle part when level ≥ armour."""
    assert penetrates(level, explosive, surface) == expected


def test_penetrates_refuses_unknown_names():
    """RULES.md §11: the surfaces are walls (wood, stone) and armour levels."""
    with pytest.raises(AmbushError):
        penetrates("light", False, "glass")
    with pytest.raises(AmbushError):
        penetrates("extreme", True, "heavy")


# ------------------------------------------------------------------------------------------
# Fire at walls (seed 002 p. 26-27)
# ------------------------------------------------------------------------------------------
def _house(wall="stone", weapon="m1_garand", aperture=None, **skw):
    """A one-hex building at F6, wall F5/F6 facing a shooter at F2 (4 hexes)."""
    side = {"wall": wall}
    if aperture:
        side["aperture"] = aperture
    g = FakeGame(hexes={"F6": {"terrain": "building"}}, hexsides={"F5/F6": side})
    us = g.add("US1", "F2", weapon=weapon, **skw)
    return g, us, g.board.index("F6")


def test_wall_fire_miss_and_no_penetration():
    """seed 002 p. 27: a wall at +4; a penetration roll of none does nothing."""
    g, us, h = _house()
    g.force(0, 0)  # hit; penetration roll 0 = none
    ev = fire_at_wall(g, us.uid, h)
    assert ev[0]["type"] == "fire_wall" and ev[0]["to_hit"] == 9
    assert ev[0]["target"] == "F5/F6" and ev[0]["wall"] == "stone"
    assert ev[0]["level"] == "none" and ev[0]["result"] == "none"


def test_light_rifle_passes_wood_not_stone():
    """seed 002 p. 26: a light non-explosive result passes a wooden wall only."""
    g, us, h = _house(wall="wood")
    g.add("G", "F6", side=Side.GERMAN)  # standing behind the wall
    g.force(0, 5, 3)  # hit, penetration 5 = light, behind-wall roll 3 > 2: missed
    ev = fire_at_wall(g, us.uid, h)
    assert ev[0]["result"] == "pass"
    assert ev[1]["type"] == "behind_wall" and ev[1]["result"] == "miss" and ev[1]["to_hit"] == 2
    g2, us2, h2 = _house(wall="stone")
    g2.force(0, 5)
    assert fire_at_wall(g2, us2.uid, h2)[0]["result"] == "none"


@pytest.mark.parametrize("stance,hit_roll,miss_roll", [(S, 2, 3), (C, 1, 2), (P, 0, 1)])
def test_behind_wall_hit_numbers(stance, hit_roll, miss_roll):
    """seed 002 p. 27: behind a penetrated wall a soldier is hit on 0 prone, 0-1 crouching,
    0-2 standing; the hit rolls on the weapon's damage row."""
    g, us, h = _house(wall="wood")
    ge = german(g, "G1", "F6", stance=stance)
    g.force(0, 5, hit_roll, 9)
    ev = fire_at_wall(g, us.uid, h)
    assert ev[1]["rolls"] == {"hit": hit_roll, "damage": 9} and ev[1]["result"] == "kill"
    assert ge.status == Status.KILLED
    g, us, h = _house(wall="wood")
    ge = german(g, "G1", "F6", stance=stance)
    g.force(0, 5, miss_roll)
    ev = fire_at_wall(g, us.uid, h)
    assert ev[1]["result"] == "miss" and ge.status == Status.ACTIVE


def test_behind_wall_single_shot_stops_at_first_hit():
    """seed 002 p. 27: most exposed first; non-automatic fire hits one man at most."""
    g, us, h = _house(wall="wood")
    a = german(g, "G1", "F6", stance=P)
    b = german(g, "G2", "F6", stance=S)
    g.force(0, 5, 0, 5)  # standing G2 rolled first: hit, wound; G1 never rolled
    ev = fire_at_wall(g, us.uid, h)
    assert [e["unit"] for e in ev if e["type"] == "behind_wall"] == ["G2"]
    assert b.wounded and not a.wounded


def test_behind_wall_aimed_automatic_rolls_for_everyone():
    """seed 002 p. 27: aimed automatic fire rolls for every soldier behind the wall."""
    g, us, h = _house(wall="wood", weapon="bar")
    a = german(g, "G1", "F6", stance=P)
    b = german(g, "G2", "F6", stance=S)
    g.force(0, 0, 6, 0, 5, 0, 4)  # jam 0, hit 0, pen 6 light; G2 hit, wound; G1 hit, wound
    ev = fire_at_wall(g, us.uid, h)
    assert [e["unit"] for e in ev if e["type"] == "behind_wall"] == ["G2", "G1"]
    assert a.wounded and b.wounded


def test_explosive_destroys_wall_hits_everyone_and_clears_hexside():
    """seed 002 p. 26-27: explosive fire at any level destroys a wall; everyone in the hex is
    hit as if by a semi-automatic rifle (incapacitated too); the hexside becomes clear."""
    g, us, h = _house(weapon="bazooka", prepared=True)
    a = german(g, "G1", "F6", stance=S)
    b = german(g, "G2", "F6", stance=P, status=int(Status.INCAPACITATED))
    g.force(0, 1, 9, 5)  # hit, pen 1 = light (explosive: destroyed); G1 rolls 9, G2 rolls 5
    ev = fire_at_wall(g, us.uid, h)
    assert ev[0]["result"] == "destroyed"
    assert ev[1] == {"type": "wall_destroyed", "hexside": "F5/F6"}
    rolls = [(e["unit"], e["row"], e["roll"]) for e in ev if e["type"] == "damage_roll"]
    assert rolls == [("G1", "semi_auto_rifle", 9), ("G2", "semi_auto_rifle", 5)]
    assert a.status == Status.KILLED and b.status == Status.KILLED  # wound on incapacitated
    hs = g.board.hexside(g.board.index("F5"), h)
    assert hs.destroyed and hs.wall is None
    assert g.board.terrain[h] == Terrain.BUILDING  # one wall gone: no collapse
    assert not us.prepared and us.ammo == 0
    rifle = g.add("US2", "F2")
    assert "no intact wall" in wall_refusal(g, rifle, h)


def test_second_destroyed_wall_collapses_the_hex():
    """seed 002 p. 27: a building hex with two destroyed walls collapses into rubble and
    kills everyone inside."""
    g, us, h = _house(weapon="kwk40")
    g.board.destroy_wall(g.board.index("E6"), h)  # an earlier hit
    a = german(g, "G1", "F6", stance=P)
    g.force(0, 5, 0)  # hit, pen heavy, G1 rolls 0 on the rifle row: none
    ev = fire_at_wall(g, us.uid, h)
    types = [e["type"] for e in ev]
    assert types == ["fire_wall", "wall_destroyed", "damage_roll", "collapse", "damage"]
    assert g.board.terrain[h] == Terrain.RUBBLE and a.status == Status.KILLED


def test_wall_fire_refusals():
    """seed 002 p. 27: there must be an intact wall facing the shooter, in range and sight."""
    g, us, h = _house()
    g.sight.blocked.add((us.hex, g.board.index("F5")))
    assert "not in sight" in wall_refusal(g, us, h)
    with pytest.raises(IllegalActionError):
        fire_at_wall(g, us.uid, h)
    g.sight.blocked.clear()
    assert wall_refusal(g, us, g.board.index("F9")).startswith("no intact wall")
    assert "own hex" in wall_refusal(g, us, us.hex)


def test_wall_fire_prefers_a_walled_hexside_on_a_tie():
    """seed 002 p. 27 (our reading): the wall facing the shooter; on a tie, the walled side."""
    g = FakeGame(hexes={"F8": {"terrain": "building"}}, hexsides={"F8/G9": {"wall": "none"}})
    us = g.add("US1", "H8")
    g.force(0, 0)
    assert fire_at_wall(g, us.uid, g.board.index("F8"))[0]["target"] == "F8/G8"


def test_scripted_dice_never_fall_back_to_random():
    """RULES.md §1: a scripted sequence that runs out is an error."""
    g, us, ge = _duel()
    g.force(0)
    with pytest.raises(DiceExhaustedError):
        fire(g, us.uid, ge.uid, snap=False)
