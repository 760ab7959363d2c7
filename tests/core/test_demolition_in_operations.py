"""⚙ Setting a demolition charge in Operations (mission rule for ``demolish`` objectives:
``core/play/legal.py`` ``_demolition_orders``, ``core/world/missions.py`` "Objective kinds",
docs/DATA_FORMATS.md). RULES.md §5 lists no throw among the Operations actions, so a target
whose garrison is dead could never be destroyed: a US soldier carrying a satchel charge who
stands next to a hex where a charge counts (an objective hex, or beside one with
``reach: 1``) may prepare it and throw it there as his Operations action; it resolves as a
satchel (RULES.md §9: PC check, scatter) and, being fire, begins Rounds only while a German
on the map is active (§5). Positions on the farm_assault map with an inline objective on
open ground (J2, J3), as in tests/core/test_objective_kinds.py; rolls forced.
"""

from __future__ import annotations

import copy
import functools

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.types import Phase
from ambush_env.core.rules.scoring import charges_set
from ambush_env.core.world.missions import MISSIONS_DIR

SET = "US6 throw a satchel charge at {}"
PREP = "US6 prepare/reload"


@functools.cache
def _farm() -> dict:
    m = yaml.safe_load((MISSIONS_DIR / "farm_assault.yaml").read_text(encoding="utf-8"))
    m["us_vehicles"], m["german_vehicles"] = [], []
    return m


def ops(objective: dict, us6: dict, others: tuple[dict, ...] = (), **kw) -> Game:
    """Operations, US6 (PC 4, carrying a satchel charge) as given, acting first."""
    m = copy.deepcopy(_farm())
    m["objective"] = {"name": "farm", "hexes": ["J2", "J3"], **objective}
    g = Game.from_position(
        {"mission": m, "units": [{"name": "US6", **us6}, *others], "contacts": [], **kw}
    )
    if g.acting_unit() is None:
        g.play("select US6")
    return g


def charge_orders(g: Game) -> list[str]:
    return [o for o in g.legal_orders() if "satchel charge" in o or o == PREP]


@pytest.mark.parametrize(
    "objective, us6, expected",
    [
        # next to J3 (an objective hex), standing, unprepared: he may prepare it ...
        ({"kind": "demolish"}, {"hex": "J4"}, [PREP]),
        # ... prepared: throw it on the neighbouring objective hex only (J3; not J5 etc.)
        ({"kind": "demolish"}, {"hex": "J4", "satchel_ready": True}, [SET.format("J3")]),
        # in J3 himself: the other objective hex beside him (J2)
        ({"kind": "demolish"}, {"hex": "J3", "satchel_ready": True}, [SET.format("J2")]),
        # two hexes off (J5): not next to the target: nothing (no throw from afar in Operations)
        ({"kind": "demolish"}, {"hex": "J5", "satchel_ready": True}, []),
        ({"kind": "demolish"}, {"hex": "J5"}, []),
        # with reach 1, J4 (beside J3) counts: from J5 he may set it there
        (
            {"kind": "demolish", "reach": 1},
            {"hex": "J5", "satchel_ready": True},
            [SET.format("J4")],
        ),
        # no satchel charge carried
        ({"kind": "demolish"}, {"hex": "J4", "equipment": ["grenade"]}, []),
        # not standing: a satchel is prepared and thrown standing (RULES.md §9); stand up first
        ({"kind": "demolish"}, {"hex": "J4", "stance": "crouching"}, []),
        # another objective kind: Operations as before (RULES.md §5), prepared or not
        ({"kind": "take"}, {"hex": "J4"}, []),
        ({"kind": "take"}, {"hex": "J4", "satchel_ready": True}, []),
        ({"kind": "hold"}, {"hex": "J4", "satchel_ready": True}, []),
    ],
)
def test_who_may_set_a_charge_in_operations(objective, us6, expected):
    g = ops(objective, us6)
    assert g.state.phase == Phase.OPERATIONS
    assert charge_orders(g) == expected
    if not expected:  # step refuses what the generator does not offer (the mask's source)
        for k in range(1, 7):
            with pytest.raises(IllegalActionError):
                g.step(O.encode(O.OrderKind.SATCHEL, k))


def test_no_charge_once_the_target_is_destroyed():
    g = ops(
        {"kind": "demolish"},
        {"hex": "J4", "satchel_ready": True},
        flags=["farm charge 1", "objective_taken"],
    )
    assert charge_orders(g) == []


def test_not_at_a_prisoners_hex():
    """Prisoners are never harmed (seed 002 p. 25): no charge where one stands (J3, with
    his guard US1); J2, the other objective hex, is not next to US6."""
    g = ops(
        {"kind": "demolish"},
        {"hex": "J4", "satchel_ready": True},
        (
            {"name": "US1", "hex": "J3"},
            {"name": "G1", "role": "rifleman", "hex": "J3", "status": "captured"},
        ),
    )
    assert g.state.phase == Phase.OPERATIONS
    assert charge_orders(g) == []


@pytest.mark.parametrize(
    "objective, at, target, rolls, landing, counted, scored",
    [
        ({"kind": "demolish"}, "J4", "J3", [4], "J3", 1, True),  # PC 4: a 4 hits
        ({"kind": "demolish", "charges": 2}, "J4", "J3", [4], "J3", 1, False),  # one of two
        ({"kind": "demolish"}, "J4", "J3", [5, 6], "I4", 0, False),  # a 5 fails: Diagram A 6
        ({"kind": "demolish", "reach": 1}, "J4", "J3", [5, 6], "I4", 1, True),  # beside J3
        ({"kind": "demolish", "reach": 1}, "J5", "J4", [4], "J4", 1, True),  # set beside
    ],
)
def test_a_set_charge_counts_and_operations_go_on(
    objective, at, target, rolls, landing, counted, scored
):
    """Prepare (one pulse), then throw (the next): it resolves as a satchel and counts where
    it lands; every German inactive, Operations go on (⚙ ``grenades._alarm``)."""
    g = ops(objective, {"hex": at})
    pulse = g.state.pulse
    g.play(PREP)
    assert g.state.units[0].satchel_ready and g.state.pulse == pulse + 1
    g.force_rolls(rolls)
    events = g.play(SET.format(target))
    throw = next(e for e in events if e["type"] == "throw")
    assert (throw["rolls"]["throw"], throw["target"], throw["landing"]) == (
        rolls[0],
        target,
        landing,
    )
    assert charges_set(g) == counted
    assert ("objective_taken" in g.state.flags) is scored
    assert (["farm destroyed", 10] in g.state.vp_log) is scored
    assert g.state.phase == Phase.OPERATIONS and g.state.pulse == pulse + 2
    assert "satchel" not in g.state.units[0].equipment
    assert charge_orders(g) == []  # his only charge is gone


def test_a_set_charge_begins_rounds_while_a_german_is_active():
    """A hidden, unaware German still active on the map (A14): the blast is fire (RULES.md
    §5), so Rounds begin."""
    g = ops(
        {"kind": "demolish"},
        {"hex": "J4", "satchel_ready": True},
        ({"name": "G1", "role": "rifleman", "hex": "A14", "aware": False},),
    )
    g.force_rolls([4, 9, 0])  # the throw; then initiative US 9, Germans 0
    g.play(SET.format("J3"))
    assert charges_set(g) == 1 and "objective_taken" in g.state.flags
    assert g.state.phase == Phase.ROUNDS


def test_bridge_demolition_after_the_garrison_falls():
    """The shipped mission: three charges on the span (J6, K6), set in Operations from I6
    and J6 once no German is left; the third destroys the bridge (+14). Two sappers: a satchel
    fills 2 of a man's 4 port boxes (weapons.yaml), so US6 carries two and US5 the third; they set them by turns."""
    g = Game.from_position(
        {
            "mission": "bridge_demolition",
            "contacts": [],
            "units": [
                {"name": "US5", "hex": "I6", "equipment": ["satchel"]},
                {"name": "US6", "hex": "I6", "equipment": ["satchel", "satchel"]},
            ],
            "dead_triggers": [],
        }
    )
    g.force_rolls([4, 4, 4])
    for _ in range(12):  # pulses of one action each (RULES.md §6): prepare, then set
        if charges_set(g) == 3:
            break
        if g.acting_unit() is None:
            g.play("select US6" if "select US6" in g.legal_orders() else "select US5")
        who = g.acting_unit().name
        prep, throw = PREP.replace("US6", who), SET.replace("US6", who).format("J6")
        before = charges_set(g)
        legal = g.legal_orders()
        g.play(throw if throw in legal else prep if prep in legal else f"{who} wait")
        assert charges_set(g) in (before, before + 1)
    assert charges_set(g) == 3
    assert "objective_taken" in g.state.flags and g.state.phase == Phase.OPERATIONS


@pytest.mark.parametrize(
    "us6",
    [{"hex": "J4"}, {"hex": "J4", "satchel_ready": True}, {"hex": "J5", "satchel_ready": True}],
)
def test_step_accepts_exactly_the_generated_orders(us6):
    """One source (``legal.legal_orders``): every offered order steps, and every prepare or
    satchel order not offered is refused."""
    g = ops({"kind": "demolish"}, us6)
    legal = set(g.legal_actions())
    for a in legal:
        g.clone().step(a)
    kinds = (O.OrderKind.SATCHEL, O.OrderKind.PREPARE)
    for a in range(O.N_ORDERS):
        if O.decode(a)[0] in kinds and a not in legal:
            with pytest.raises(IllegalActionError):
                g.clone().step(a)
