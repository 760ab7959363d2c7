"""Rule tests as scenario tables (issue 10, "Move the project's own rule tests onto positions"):
each row is (position, forced rolls, orders as text, expected), played with
``Game.from_position``, ``force_rolls`` and ``play``. The forced rolls are exactly the rolls
the orders need (``force_rolls`` is strict: one more would raise ``DiceExhaustedError``, and
the test checks that none is left over). Expected outcomes are exact: events (types and key
fields, in order) and fields of the resulting ``g.position()``.

Each row's id names its source (RULES.md section; the numbers are data, cited per row).
Ratings (configs/squads/standard.yaml, data/cards/regular.yaml): US4 private, M1 Garand
(semi_auto_rifle), IN 1, PC 5, WS 0, MV 5; US2 corporal, IN 2; the German rifleman: Kar98k
(bolt_rifle), IN 1, PC 5, WS 0. data/weapons.yaml to-hit at 2-3 hexes: semi_auto_rifle 5,
bolt_rifle 5; data/damage.yaml rows as cited.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from engine_helpers import find_in_order

from ambush_env.core import Game
from ambush_env.core.model.errors import IllegalActionError


def rounds(*units: dict, acting: str = "US4", **top: Any) -> dict:
    """A position in Round 3 (everyone aware), US initiative, ``acting`` taking his turn."""
    p = {
        "mission": "farm_assault",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": acting},
        "units": list(units),
    }
    p.update(top)
    return p


def us4(hex_: str = "G9", **kw: Any) -> dict:
    return {"name": "US4", "hex": hex_, "ar": "1-turn", **kw}


# US2 far away in the south-west corner: he keeps a turn, so the Round goes on with him after
# US4 (no German acts, no dice are rolled); "complete" where the Round should end.
US2_WAITING = {"name": "US2", "hex": "A14", "ar": "1-turn"}
US2_DONE = {"name": "US2", "hex": "A14", "ar": "complete"}


def rifleman(hex_: str = "G6", **kw: Any) -> dict:
    return {"name": "G1", "role": "rifleman", "hex": hex_, "ar": "complete", **kw}


# The sighting rows as YAML text, as a person would write them: the farm's ring trigger J6 has
# fired already (flag farm_checked), an unaware rifleman stands in the farmhouse (L6), not yet
# a contact; US4 at J7 does not see him, J6 does (through the west window). J6 and J7 lie
# within the farm's clear_radius: the squad raised the objective alarm on its first step into
# that zone (flag "objective alarm", RULES.md §15, issue 25), before the rifleman was placed,
# so he is still unaware, and a step inside the zone raises no second alarm.
SIGHTING_YAML = """
mission: farm_assault
flags: [farm_checked, objective alarm]
contacts: []
units:
  - {name: US4, hex: J7}
  - {name: G1, role: rifleman, hex: L6, aware: false}
"""

# RULES.md §10: assault in the same hex: US4 and an aware rifleman both in G9.
ASSAULT_YAML = """
mission: farm_assault
phase: rounds
round: 3
rounds_total: 3
initiative: us
turn: {unit: US4}
units:
  - {name: US4, hex: G9, ar: 1-turn}
  - {name: US2, hex: A14, ar: 1-turn}
  - {name: G1, role: rifleman, hex: G9, ar: complete}
"""

FIRE = rounds(us4(), US2_WAITING, rifleman())
FIRE_PRONE = rounds(us4(), US2_WAITING, rifleman(stance="prone"))
CARD = rounds(us4(), US2_DONE, rifleman(ar="1-turn"))

SCENARIOS = [
    pytest.param(
        FIRE,
        [6, 9],
        ["US4 fire aimed at G1"],
        {
            "events": [
                (
                    "fire",
                    {
                        "shooter": "US4",
                        "target": "G1",
                        "mode": "aimed",
                        "to_hit": 6,
                        "modifiers": {"target_standing": 1},
                        "rolls": {"hit": 6, "damage": 9},
                        "result": "kill",
                    },
                ),
                ("damage", {"unit": "G1", "result": "kill"}),
            ],
            "units": {"G1": {"status": "killed"}, "US4": {"ar": "complete"}},
            "position": {"turn.unit": "US2"},
        },
        id="RULES.md §8 aimed fire to-hit 6 (rifle 2-3 hexes 5, standing +1): roll 6 hits; "
        "damage.yaml semi_auto_rifle 9 kills",
    ),
    pytest.param(
        FIRE,
        [7],
        ["US4 fire aimed at G1"],
        {
            "events": [("fire", {"to_hit": 6, "rolls": {"hit": 7}, "result": "miss"})],
            "units": {"G1": {"status": "active", "wounded": False}, "US4": {"ammo": 3}},
        },
        id="RULES.md §8 aimed fire to-hit 6: roll 7 misses (the shot still costs ammunition 4 to 3)",
    ),
    pytest.param(
        FIRE_PRONE,
        [3, 5],
        ["US4 fire aimed at G1"],
        {
            "events": [
                (
                    "fire",
                    {
                        "to_hit": 3,
                        "modifiers": {"target_prone": -2},
                        "rolls": {"hit": 3, "damage": 5},
                        "result": "wound",
                    },
                )
            ],
            "units": {"G1": {"status": "active", "wounded": True, "stance": "prone"}},
        },
        id="RULES.md §8 prone target -2: to-hit 5-2 = 3, roll 3 hits; semi_auto_rifle 5 wounds",
    ),
    pytest.param(
        FIRE_PRONE,
        [4],
        ["US4 fire aimed at G1"],
        {
            "events": [("fire", {"to_hit": 3, "rolls": {"hit": 4}, "result": "miss"})],
            "units": {"G1": {"status": "active", "wounded": False}},
        },
        id="RULES.md §8 prone target: roll 4 misses to-hit 3",
    ),
    pytest.param(
        SIGHTING_YAML,
        [5, 9, 9, 0],
        ["US4 move N to J6", "US4 snap fire at G1"],
        {
            "events": [
                ("move", {"unit": "US4", "to": "J6"}),
                ("contact", {"unit": "G1", "hex": "L6"}),
                ("sighting", {"unit": "US4", "target": "G1", "roll": 5, "pc": 5, "passed": True}),
                ("free_snap_fire", {"unit": "US4", "target": "G1"}),
                (
                    "fire",
                    {
                        "mode": "snap",
                        "to_hit": 2,
                        "rolls": {"hit": 9},
                        "result": "miss",
                        "modifiers": {"snap": -2, "target_standing": 1, "cover_building": -2},
                    },
                ),
                ("rounds_begin", {"reason": "sighting of G1"}),
                (
                    "round_start",
                    {
                        "round": 1,
                        "rolls": {"US": 9, "German": 0},
                        "initiative": "US",
                        "ar": {"US4": 10, "G1": 1},
                    },
                ),
            ],
            "units": {"US4": {"aware": True, "ar": "2-turn", "hex": "J6"}, "G1": {"ar": "1-turn"}},
            "position": {
                "phase": "rounds",
                "round": 1,
                "initiative": "us",
                "contacts": ["G1"],
                "turn.unit": "US4",
            },
        },
        id="RULES.md §7 sighting PC check 5 <= PC 5 passes: aware, free snap fire taken (snap -2, "
        "standing +1, building -2 = 2; 9 misses), Rounds begin; §5 AR 9+IN 1 = 10: 2-Turn",
    ),
    pytest.param(
        SIGHTING_YAML,
        [5, 9, 9, 0],
        ["US4 move N to J6", "US4 decline the free snap fire"],
        {
            "events": [
                ("sighting", {"unit": "US4", "target": "G1", "roll": 5, "pc": 5, "passed": True}),
                ("free_snap_declined", {"unit": "US4", "target": "G1"}),
                ("rounds_begin", {"reason": "sighting of G1"}),
                ("awareness_check", {"unit": "G1", "roll": 9, "aware": False}),
                ("round_start", {"round": 1, "initiative": "US"}),
            ],
            "absent": ["free_snap_fire", "fire"],
            "units": {
                "US4": {"aware": True, "ar": "2-turn"},
                "G1": {"status": "active", "aware": False},
            },
            "position": {"phase": "rounds", "round": 1, "contacts": ["G1"]},
        },
        id="RULES.md §7 sighting passed, the free snap fire declined: no shot, no hit roll; "
        "Rounds begin, and G1, not fired at, makes his Round-1 awareness check (9: unaware, §5)",
    ),
    pytest.param(
        SIGHTING_YAML,
        [6, 9, 9, 0],
        ["US4 move N to J6"],
        {
            "events": [
                ("sighting", {"unit": "US4", "roll": 6, "pc": 5, "passed": False}),
                ("rounds_begin", {"reason": "sighting of G1"}),
                ("round_start", {"round": 1, "initiative": "US"}),
            ],
            "absent": ["free_snap_fire", "fire"],
            "units": {"US4": {"aware": False}, "G1": {"aware": False}},
            "position": {"phase": "rounds", "round": 1, "contacts": ["G1"]},
        },
        id="RULES.md §7 sighting PC check 6 > PC 5 fails: no free snap fire, US4 unaware in "
        "Round 1 (§5)",
    ),
    pytest.param(
        rounds(us4(stance="prone"), US2_WAITING, rifleman("O12", aware=False)),
        [],
        ["US4 move SW to F9"],
        {
            "events": [("move", {"unit": "US4", "to": "F9", "mp": 1})],
            "units": {"US4": {"hex": "F9", "stance": "prone", "ar": "complete"}},
            "position": {"turn.unit": "US2"},
        },
        id="RULES.md §6 prone: one hex per move action (G9 to F9, then his turn is over)",
    ),
    pytest.param(
        rounds(us4(stance="crouching"), US2_WAITING, rifleman("O12", aware=False)),
        [],
        ["US4 move SW to F9"],
        {
            "events": [("move", {"unit": "US4", "to": "F9", "mp": 2})],
            "units": {"US4": {"hex": "F9", "stance": "crouching", "ar": "1-turn"}},
            "position": {
                "turn.unit": "US4",
                "turn.mode": "move",
                "turn.mp_left": 3,
                "turn.mp_spent": 2,
                "turn.hexes_moved": 1,
            },
        },
        id="RULES.md §6 crouching +1 MP per hex: clear 1+1 = 2 of MV 5, 3 left, the move goes on",
    ),
    pytest.param(
        CARD,
        [0, 9, 8, 3],
        ["US4 end turn"],
        {
            "events": [
                ("end_turn", {"unit": "US4"}),
                (
                    "german_card",
                    {
                        "unit": "G1",
                        "card": "rifleman",
                        "column": "aware",
                        "roll": 0,
                        "actions": ["stance", "fire"],
                    },
                ),
                ("stance", {"unit": "G1", "to": 2}),
                (
                    "fire",
                    {
                        "shooter": "G1",
                        "target": "US4",
                        "mode": "aimed",
                        "to_hit": 6,
                        "rolls": {"hit": 9},
                        "result": "miss",
                    },
                ),
                ("round_end", {"round": 3}),
                (
                    "round_start",
                    {
                        "round": 4,
                        "rolls": {"US": 8, "German": 3},
                        "initiative": "US",
                        "ar": {"US4": 9, "US2": 10, "G1": 4},
                    },
                ),
            ],
            "units": {
                "G1": {"stance": "prone", "ar": "1-turn"},
                "US4": {"ar": "2-turn"},
                "US2": {"ar": "2-turn"},
            },
            "position": {"round": 4, "initiative": "us", "turn.unit": None},
        },
        id="RULES.md §14 card roll 0, aware row 0-1: go prone, aimed fire at the nearest (Kar98k "
        "5 + standing 1 = 6; 9 misses); §5 Round 4: 8+1 = 9 2-Turn, German 3+1 = 4 1-Turn",
    ),
    pytest.param(
        CARD,
        [2, 9, 8, 3],
        ["US4 end turn"],
        {
            "events": [
                ("german_card", {"unit": "G1", "column": "aware", "roll": 2, "actions": ["fire"]}),
                ("fire", {"shooter": "G1", "target": "US4", "to_hit": 6, "result": "miss"}),
                ("round_start", {"round": 4}),
            ],
            "absent": ["stance"],
            "units": {"G1": {"stance": "standing"}},
        },
        id="RULES.md §14 card roll 2, aware row 2-4: aimed fire at the most exposed, no stance change",
    ),
    pytest.param(
        CARD,
        [2, 9, 5, 5, 2, 9],
        ["US4 end turn"],
        {
            "events": [
                ("round_end", {"round": 3}),
                (
                    "round_start",
                    {
                        "round": 4,
                        "rolls": {"US": 5, "German": 5},
                        "initiative": "German",
                        "ar": {"US4": 6, "US2": 7, "G1": 6},
                    },
                ),
                ("german_card", {"unit": "G1", "roll": 2}),
                ("fire", {"shooter": "G1", "rolls": {"hit": 9}, "result": "miss"}),
            ],
            "units": {"G1": {"ar": "complete"}, "US4": {"ar": "1-turn"}, "US2": {"ar": "1-turn"}},
            "position": {"round": 4, "initiative": "german"},
        },
        id="RULES.md §5 initiative: a tie (5, 5) goes to the Germans, whose 1-Turn unit acts first",
    ),
    pytest.param(
        ASSAULT_YAML,
        [5],
        ["US4 capture assault on G1"],
        {
            "events": [
                (
                    "assault",
                    {
                        "unit": "US4",
                        "target": "G1",
                        "kind": "capture",
                        "chance": 5,
                        "modifiers": {"base": 5},
                        "rolls": {"assault": 5},
                        "success": True,
                    },
                ),
                ("captured", {"unit": "G1", "guard": "US4"}),
            ],
            "absent": ["strike_back"],
            "units": {
                "G1": {"status": "captured", "stance": "prone", "ar": "inactive", "guard": "US4"}
            },
            "then_illegal": ["US2 capture assault on G1"],
        },
        id="RULES.md §10 capture assault: chance 5 + WS 0 = 5, roll 5 captures (prone, Inactive, "
        "guarded by US4)",
    ),
    pytest.param(
        ASSAULT_YAML,
        [6, 9],
        ["US4 capture assault on G1"],
        {
            "events": [
                (
                    "assault",
                    {"kind": "capture", "chance": 5, "rolls": {"assault": 6}, "success": False},
                ),
                (
                    "strike_back",
                    {
                        "unit": "G1",
                        "target": "US4",
                        "chance": 5,
                        "rolls": {"assault": 9},
                        "success": False,
                    },
                ),
            ],
            "units": {"G1": {"status": "active", "guard": None}, "US4": {"status": "active"}},
        },
        id="RULES.md §10 failed capture (6 > 5): the aware defender strikes back once at his "
        "chance 5; 9 misses",
    ),
    pytest.param(
        FIRE,
        [5, 9, 9],
        ["US4 throw a grenade at G6"],
        {
            "events": [
                (
                    "throw",
                    {
                        "unit": "US4",
                        "item": "grenade",
                        "target": "G6",
                        "rolls": {"throw": 5},
                        "need": 5,
                        "landing": "G6",
                    },
                ),
                ("throw_out", {"unit": "G1", "roll": 9, "success": False}),
                (
                    "blast",
                    {
                        "unit": "G1",
                        "item": "grenade",
                        "inside": False,
                        "rolls": {"damage": 9},
                        "result": "kill",
                    },
                ),
            ],
            "units": {"G1": {"status": "killed"}},
        },
        id="RULES.md §9 grenade, 3 hexes standing: PC check 5 <= PC 5 lands; the German's throw-out "
        "fails; damage.yaml grenade_outside 9 kills",
    ),
]


def _at(p: dict, dotted: str) -> Any:
    x: Any = p
    for k in dotted.split("."):
        x = x[int(k)] if isinstance(x, list) else x[k]
    return x


def _unit(p: dict, name: str) -> dict:
    return next(u for u in p["units"] if u["name"] == name)


@pytest.mark.parametrize("position, rolls, orders, expected", SCENARIOS)
def test_scenario(position, rolls, orders, expected):
    g = Game.from_position(position)
    g.force_rolls(rolls)
    events: list[dict] = []
    for text in orders:
        events += g.play(text)
    assert g.dice.forced_left == 0, "a forced roll was not used"
    find_in_order(events, expected.get("events", []))
    for typ in expected.get("absent", []):
        assert typ not in [e["type"] for e in events], f"unexpected {typ} event"
    p = g.position()
    for name, fields in expected.get("units", {}).items():
        u = _unit(p, name)
        assert {f: u[f] for f in fields} == fields, name
    for dotted, value in expected.get("position", {}).items():
        assert _at(p, dotted) == value, dotted
    for text in expected.get("then_illegal", []):
        with pytest.raises(IllegalActionError):
            g.play(text)


def test_scenario_positions_round_trip():
    """Every table position loads, writes back exactly, and is valid YAML either way."""
    for param in SCENARIOS:
        pos = param.values[0]
        g = Game.from_position(pos)
        p = g.position()
        assert Game.from_position(yaml.safe_dump(p)).position() == p


def test_one_roll_more_is_needed_than_forced():
    """The rows' rolls are exactly what is needed: a hit without its damage roll raises."""
    from ambush_env.core.model.errors import DiceExhaustedError

    g = Game.from_position(FIRE)
    g.force_rolls([6])
    with pytest.raises(DiceExhaustedError):
        g.play("US4 fire aimed at G1")
