"""Objective kinds (RULES.md §15; ``core/world/missions.py`` "Objective kinds", ``core/rules/scoring.py``):
``take`` (the default), ``hold``, ``capture`` and ``demolish``, each validated on load and
scored as the module docstring says, tested as positions on the farm_assault map with the
objective of an inline mission replaced. ⚙ choices under test: a held objective scores only at
the end; a march-off capture only when the guard leaves by an exit hex; a demolition counts
satchel charges that go off in the objective's hexes (or beside them with ``reach: 1``).
"""

from __future__ import annotations

import copy
import functools

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Status
from ambush_env.core.world.missions import MISSIONS_DIR, read_mission

OBJ_VP = 10  # farm_assault's objective_taken
FIELD = ["J2", "J3"]  # open ground north of the farm: no trigger hexes, no walls


@functools.cache
def _farm() -> dict:
    m = yaml.safe_load((MISSIONS_DIR / "farm_assault.yaml").read_text(encoding="utf-8"))
    m["us_vehicles"], m["german_vehicles"] = [], []
    return m


def mission(vp: dict | None = None, **objective) -> dict:
    """farm_assault as an inline mission with this objective (hexes: open ground by default)
    and its ``vp`` schedule updated by ``vp``."""
    m = copy.deepcopy(_farm())
    m["objective"] = {"name": "farm", "hexes": FIELD, **objective}
    m["vp"].update(vp or {})
    return m


def position(objective: dict, units: list[dict], vp: dict | None = None, **kw) -> Game:
    return Game.from_position({"mission": mission(vp, **objective), "units": units, **kw})


def taken(g: Game) -> bool:
    return "objective_taken" in g.state.flags


def order(g: Game, text: str) -> list[dict]:
    """Play ``text`` (an order of the unit it names), selecting that unit first when a
    selection is pending; any other unit acting first waits."""
    name = text.split()[0]
    while (u := g.acting_unit()) is not None and u.name != name:
        g.play(f"{u.name} wait")
    if g.acting_unit() is None:
        g.play(f"select {name}")
    return g.play(text)


def objective_vp(g: Game) -> int:
    return sum(a for why, a in g.state.vp_log if why.startswith("farm "))


# ------------------------------------------------------------------------------ validation
def write(tmp_path, **objective):
    path = tmp_path / "farm_assault.yaml"
    m = copy.deepcopy(_farm())
    m["objective"] = {"name": "farm", "hexes": FIELD, **objective}
    path.write_text(yaml.safe_dump(m), encoding="utf-8")
    return path


def test_kind_defaults_to_take():
    """RULES.md §15: a mission without ``kind`` keeps today's rule (``take``)."""
    assert read_mission(MISSIONS_DIR / "farm_assault.yaml").objective.kind == "take"


@pytest.mark.parametrize(
    "objective, field, words",
    [
        ({"kind": "blow_up"}, "objective.kind", "'take', 'hold', 'capture' or 'demolish'"),
        ({"kind": "capture"}, "objective.card", "names the German card"),
        ({"kind": "capture", "card": "mg_gunner_x"}, "objective.card", "puts a 'mg_gunner_x'"),
        ({"kind": "take", "card": "rifleman"}, "objective.card", "belongs to a capture"),
        ({"kind": "hold", "march_off": True}, "objective.march_off", "belongs to a capture"),
        ({"kind": "take", "charges": 2}, "objective.charges", "belongs to a demolish"),
        ({"kind": "capture", "card": "rifleman", "reach": 1}, "objective.reach", "demolish"),
        ({"kind": "demolish", "charges": 0}, "objective.charges", "greater than or equal to 1"),
        ({"kind": "demolish", "reach": 2}, "objective.reach", "less than or equal to 1"),
    ],
)
def test_bad_objectives_raise_data_error_naming_file_and_field(tmp_path, objective, field, words):
    """Each kind is validated on load: a DataError names the file and the field."""
    path = write(tmp_path, **objective)
    with pytest.raises(DataError) as e:
        read_mission(path)
    assert e.value.field == field and words in e.value.problem
    assert str(path) in str(e.value)


@pytest.mark.parametrize(
    "objective",
    [
        {"kind": "hold"},
        {"kind": "capture", "card": "rifleman", "march_off": True},
        {"kind": "demolish", "charges": 3, "reach": 1},
    ],
)
def test_good_objectives_load(tmp_path, objective):
    assert read_mission(write(tmp_path, **objective)).objective.kind == objective["kind"]


# ------------------------------------------------------------------------------ take and hold
def _walk_in(kind: str, pulse: int = 0) -> Game:
    """US1 at J1 steps into the objective (J2) in Operations."""
    g = position(
        {"kind": kind}, [{"name": "US1", "hex": "J1"}, {"name": "US2", "hex": "A1"}], pulse=pulse
    )
    g.play("select US1")
    g.play("US1 move S to J2")
    return g


def test_take_scores_at_the_end_of_the_turn_in_the_hex():
    """``take`` (today's rule): US1 steps into J2, no German there: +10 at once."""
    g = _walk_in("take")
    assert taken(g) and objective_vp(g) == OBJ_VP and g.state.vp_log[-1][0] == "farm taken"


def test_hold_does_not_score_on_arrival():
    """``hold`` ⚙: reaching the hexes scores nothing until the end of the mission."""
    g = _walk_in("hold")
    assert not taken(g) and objective_vp(g) == 0


def _end_by_time(kind: str, us_hex: str, german: str | None = None) -> Game:
    """The last Operations pulse (59 of 60 played): US1 waits at ``us_hex`` (US2 far away),
    an unaware, unknown German ``german`` in J3; the pulse ends the mission by time."""
    units = [{"name": "US1", "hex": us_hex}, {"name": "US2", "hex": "A1"}]
    if german:
        units.append({"name": "G1", "role": german, "hex": "J3", "aware": False})
    g = position({"kind": kind}, units, pulse=59, contacts=[])
    while not g.over:
        u = g.acting_unit()
        g.play(f"select {g.eligible_units()[0].name}" if u is None else f"{u.name} wait")
    return g


@pytest.mark.parametrize(
    "kind, us_hex, german, scored",
    [
        ("hold", "J2", None, True),  # held at the end
        ("hold", "J1", None, False),  # never there
        ("hold", "J2", "rifleman", False),  # a German in the other objective hex: not held
        ("take", "J1", None, False),  # take never scores at the end by itself
    ],
)
def test_hold_scores_at_the_end_when_held(kind, us_hex, german, scored):
    """``hold`` ⚙: at the mission's end (here the time limit), an active US soldier in an
    objective hex and no active German in any: +10; otherwise nothing."""
    g = _end_by_time(kind, us_hex, german)
    assert g.state.end_reason.startswith("time limit")
    assert taken(g) is scored and objective_vp(g) == (OBJ_VP if scored else 0)
    if scored:
        assert g.state.vp_log[-1][0] == "farm held"


# ------------------------------------------------------------------------------ capture
def _prisoner(
    objective: dict,
    card: str = "rifleman",
    status: str = "captured",
    us_hex: str = "Q1",
    extra: list[dict] | None = None,
    vp: dict | None = None,
) -> Game:
    units = [
        {"name": "US1", "hex": us_hex},
        {"name": "US2", "hex": "A14"},
        {
            "name": "G1",
            "role": card,
            "hex": us_hex,
            "status": status,
            "stance": "prone",
            **({"guard": "US1"} if status == "captured" else {}),
        },
    ]
    return position(objective, units + (extra or []), vp, contacts=[])


@pytest.mark.parametrize(
    "card, status, scored",
    [
        ("rifleman", "captured", True),  # the named German taken prisoner
        ("rifleman", "killed", False),  # killed: the objective is spoilt
        ("nco_smg", "captured", False),  # another German taken: not the objective
    ],
)
def test_capture_scores_when_the_named_german_is_a_prisoner(card, status, scored):
    """``capture`` (RULES.md §10): at the end of a turn a German of the objective's card is
    captured: +10 (and the captured VP by his final state); killed or another card: nothing."""
    g = _prisoner({"kind": "capture", "card": "rifleman"}, card, status)
    g.play("select US1")
    g.play("US1 wait")
    assert taken(g) is scored and objective_vp(g) == (OBJ_VP if scored else 0)
    if scored:
        assert g.state.vp_log[-1][0] == "farm captured"


def test_capture_by_assault_with_forced_dice():
    """``capture``: the rifleman in J2 is captured by US1 (the assault's capture result,
    ``assault.capture``, tested in test_assault.py); the objective scores at the turn's end,
    not at the capture itself."""
    from ambush_env.core.rules.assault import capture

    g = _prisoner({"kind": "capture", "card": "rifleman"}, status="active", us_hex="J2")
    ger = next(u for u in g.state.units if u.name == "G1")
    us1 = next(u for u in g.state.units if u.name == "US1")
    capture(g, ger, us1)  # the assault's capture result (assault.py, tested there)
    assert ger.status == Status.CAPTURED and not taken(g)
    g.invalidate()
    g.play("select US1")
    g.play("US1 wait")
    assert taken(g)


def test_capture_march_off_scores_only_when_marched_off():
    """``capture`` with ``march_off`` ⚙: the prisoner in hand scores nothing; his guard on an
    exit hex (R1) leaving the map marches him off (seed 002 p. 25): the march's own VP at once
    (the capture, worth a kill: german_killed 2, issue 25; + prisoner_marched_off 2, which only
    a capture objective may pay), +10 objective at the end of the next turn, and with it the
    guard's own exit (exit_per_soldier 2: exits pay once the objective is taken, RULES.md
    §15)."""
    g = _prisoner(
        {"kind": "capture", "card": "rifleman", "march_off": True},
        us_hex="R1",
        vp={"prisoner_marched_off": 2},
    )
    vp = g.mission.vp
    order(g, "US1 wait")
    assert not taken(g) and g.vp == vp.german_killed  # the prisoner in hand, as a kill
    order(g, "US1 exit the map")
    assert g.state.vp_log == [["G1 marched off (captured)", 2], ["G1 marched off", 2]]
    assert not taken(g)  # scored at the end of the next turn (an exit ends no turn)
    assert g.vp == 4  # the guard's exit does not pay yet
    order(g, "US2 wait")
    assert taken(g) and g.state.vp_log[-1] == ["farm captured", OBJ_VP]
    assert g.vp == 4 + OBJ_VP + vp.exit_per_soldier == 16


# ------------------------------------------------------------------------------ demolish
def _satchel(
    objective: dict, rolls: list[int], flags: tuple[str, ...] = ()
) -> tuple[Game, list[dict]]:
    """Rounds: US6 (PC 4, a prepared satchel) at J5 throws at J3 (two hexes, outside) with
    ``rolls`` forced (throw PC check, then the scatter on Diagram B if it fails)."""
    units = [
        {"name": "US6", "hex": "J5", "satchel_ready": True},
        {"name": "G1", "role": "rifleman", "hex": "A14", "aware": False},
    ]
    # a new Round: initiative US 9, Germans 0 (US6 acts first), then ``rolls``
    g = position(
        objective,
        units,
        phase="rounds",
        round=2,
        rounds_total=2,
        dice=[9, 0, *rolls],
        flags=list(flags),
    )
    if g.acting_unit() is None:
        g.play("select US6")
    orders = [o for o in g.legal_orders() if "satchel" in o and "J3" in o]
    return g, g.play(orders[0])


@pytest.mark.parametrize(
    "objective, rolls, flags, landing, counted, scored",
    [
        ({"kind": "demolish"}, [4], (), "J3", 1, True),  # PC 4: 4 lands on J3: destroyed
        ({"kind": "demolish"}, [5, 0], (), "J2", 1, True),  # 5 fails, scatters 'ahead' onto J2
        ({"kind": "demolish"}, [5, 6], (), "J4", 0, False),  # ... 'short' to J4, beside: no
        ({"kind": "demolish", "reach": 1}, [5, 6], (), "J4", 1, True),  # beside counts: reach 1
        ({"kind": "demolish", "charges": 2}, [4], (), "J3", 1, False),  # one of two charges
        ({"kind": "demolish", "charges": 2}, [4], ("farm charge 1",), "J3", 2, True),  # the second
        ({"kind": "take"}, [4], (), "J3", 0, False),  # a satchel takes nothing
    ],
)
def test_demolish_counts_satchel_charges_in_the_hexes(
    objective, rolls, flags, landing, counted, scored
):
    """``demolish`` ⚙ (RULES.md §9): a satchel charge going off in an objective hex (or next
    to one with ``reach: 1``) counts; the ``charges``-th destroys the target: +10."""
    from ambush_env.core.rules.scoring import charges_set

    g, events = _satchel(objective, rolls, flags)
    throw = next(e for e in events if e["type"] == "throw")
    assert throw["landing"] == landing and throw["rolls"]["throw"] == rolls[0]
    assert (charges_set(g) if objective["kind"] == "demolish" else 0) == counted
    assert taken(g) is scored and objective_vp(g) == (OBJ_VP if scored else 0)
    if scored:
        assert g.state.vp_log[-1][0] == "farm destroyed"


def test_a_grenade_is_no_demolition_charge():
    """``demolish``: only satchel charges count (RULES.md §9: a grenade is no demolition
    charge ⚙). US4 throws a grenade on J3 (PC 5: 5 lands): nothing counted."""
    from ambush_env.core.rules.scoring import charges_set

    units = [
        {"name": "US4", "hex": "J5"},
        {"name": "G1", "role": "rifleman", "hex": "A14", "aware": False},
    ]
    g = position(
        {"kind": "demolish"}, units, phase="rounds", round=2, rounds_total=2, dice=[9, 0, 5]
    )
    if g.acting_unit() is None:
        g.play("select US4")
    events = g.play(next(o for o in g.legal_orders() if "grenade" in o and "J3" in o))
    assert next(e for e in events if e["type"] == "throw")["landing"] == "J3"
    assert charges_set(g) == 0 and not taken(g)


@pytest.mark.parametrize("roll, counted", [(4, 1), (5, 0)])
def test_demolish_counts_a_charge_set_against_the_targets_wall(roll, counted):
    """``demolish`` of a building (the farmhouse, L6): a satchel set from K7 against the blank
    wall K7/L6 goes off outside against the wall (grenades.py) and counts as a charge on L6;
    a failed throw (PC 4: 5) scatters away (Diagram A 0: 'ahead', off the wall) and does not."""
    from ambush_env.core.rules.scoring import charges_set

    units = [
        {"name": "US6", "hex": "K7", "satchel_ready": True},
        {"name": "G1", "role": "rifleman", "hex": "A14", "aware": False},
    ]
    g = Game.from_position(
        {
            "mission": mission(kind="demolish", hexes=["L6"]),
            "units": units,
            "phase": "rounds",
            "round": 2,
            "rounds_total": 2,
            "dice": [9, 0, roll, 0],
        }
    )
    if g.acting_unit() is None:
        g.play("select US6")
    events = g.play(next(o for o in g.legal_orders() if "satchel" in o and "L6" in o))
    throw = next(e for e in events if e["type"] == "throw")
    assert (throw["landing"] == "L6") is (roll == 4)
    assert charges_set(g) == counted and taken(g) is bool(counted)
