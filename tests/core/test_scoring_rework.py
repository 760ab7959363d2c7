"""The scoring rework of issue 25 ("missions that only the mission wins"; RULES.md §15,
docs/VERSIONS.md ``-v4``), as positions with forced dice like the other rule tests:

* leaving pays only once the objective is taken (``vp.exits: after_objective``, the default)
  unless leaving is the objective (``always``); the men who left before score when it falls;
* a capture is worth a kill (``german_captured`` is ``german_killed``; a file may not give it),
  only a capture objective pays ``prisoner_marched_off``, and ``stats()["germans_captured"]``
  counts a prisoner marched off;
* a take objective is held only while no active German stands within ``clear_radius`` of an
  objective hex (⚙ 2 by default), and the first US entry into that zone alerts the unaware
  Germans in it and runs the objective's ``garrison`` paragraph;
* an entry hex is never an exit hex.

Positions are played on farm_assault's map as an inline mission whose objective is open ground
north of the farm (J2, J3: no trigger hex within three hexes of it, no walls), its exit edge
R1-R14, no cars. Every game forces an empty dice list (``force_rolls`` is strict): none of
these orders may roll a die.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import OBJECTIVE_TAKEN, Status
from ambush_env.core.rules.scoring import ALARM
from ambush_env.core.world.missions import MISSIONS_DIR, read_mission

FIELD = ["J2", "J3"]
OBJ_VP = 10  # farm_assault's objective_taken
EXIT_VP = 2  # farm_assault's exit_per_soldier
GARRISON = 90  # a paragraph number farm_assault does not use


@functools.cache
def _farm() -> dict:
    m = yaml.safe_load((MISSIONS_DIR / "farm_assault.yaml").read_text(encoding="utf-8"))
    m["us_vehicles"], m["german_vehicles"] = [], []
    return m


def mission(vp: dict | None = None, paragraphs: dict | None = None, **objective) -> dict:
    """farm_assault as an inline mission: the objective on open ground (``objective`` fields
    added), its ``vp`` schedule and ``paragraphs`` updated by these."""
    m = copy.deepcopy(_farm())
    m["objective"] = {"name": "farm", "hexes": FIELD, **objective}
    m["vp"].update(vp or {})
    m["paragraphs"].update(paragraphs or {})
    return m


def game(units: list[dict], vp: dict | None = None, **objective) -> Game:
    """An Operations position of :func:`mission` with ``units``, no contacts, no dice."""
    g = Game.from_position({"mission": mission(vp, **objective), "units": units, "contacts": []})
    g.force_rolls([])
    return g


def order(g: Game, text: str) -> list[dict]:
    """Play ``text``, an order of the unit it names (selected first when a selection is due)."""
    if g.acting_unit() is None:
        g.play(f"select {text.split()[0]}")
    return g.play(text)


def taken(g: Game) -> bool:
    return OBJECTIVE_TAKEN in g.state.flags


def test_farm_numbers():
    """The numbers the tests below count in: farm_assault's own schedule."""
    vp = read_mission(MISSIONS_DIR / "farm_assault.yaml").vp
    assert (vp.objective_taken, vp.exit_per_soldier, vp.exits) == (
        OBJ_VP,
        EXIT_VP,
        "after_objective",
    )


# ------------------------------------------------------------------------------ exits
def test_an_exit_before_the_objective_scores_nothing_until_it_is_taken():
    """RULES.md §15 ⚙ ``vp.exits: after_objective`` (issue 25): US1 leaves by R1 before the
    objective is taken: 0 VP and no VP log entry; US2 steps into J2 and takes it: +10, and
    US1's exit scores now (+2), from the state (``Match.exit_vp``), never as an award."""
    g = game([{"name": "US1", "hex": "R1"}, {"name": "US2", "hex": "J1"}])
    order(g, "US1 exit the map")
    assert g.stats()["us_exited"] == 1 and not g.over
    assert not g.exits_pay() and g.exit_vp() == 0 and g.vp == 0 and g.state.vp_log == []
    order(g, "US2 move S to J2")
    assert taken(g) and g.exits_pay()
    assert g.state.vp_log == [["farm taken", OBJ_VP]]
    assert g.exit_vp() == EXIT_VP and g.vp == OBJ_VP + EXIT_VP
    assert g.dice.forced_left == 0


def test_exits_always_pay_at_once():
    """RULES.md §15 ⚙ ``vp.exits: always`` (where leaving is itself the objective): US1's exit
    scores +2 at once, the objective untaken; taking it later adds only its own +10."""
    g = game([{"name": "US1", "hex": "R1"}, {"name": "US2", "hex": "J1"}], vp={"exits": "always"})
    order(g, "US1 exit the map")
    assert not taken(g) and g.exits_pay() and g.vp == EXIT_VP and g.state.vp_log == []
    order(g, "US2 move S to J2")
    assert taken(g) and g.vp == OBJ_VP + EXIT_VP


# ------------------------------------------------------------------------------ captures
@pytest.mark.parametrize(
    "status, vp",
    [("captured", 5), ("killed", 5), ("incapacitated", 2)],  # a capture is a kill, not less
)
def test_a_capture_scores_german_killed(status, vp):
    """Issue 25 (RULES.md §15): a German taken prisoner scores the mission's ``german_killed``
    (here 5, against 2 for an incapacitated one), by his final state like any casualty."""
    g = game(
        [
            {"name": "US1", "hex": "Q1"},
            {"name": "US2", "hex": "A14"},
            {
                "name": "G1",
                "role": "rifleman",
                "hex": "Q1",
                "status": status,
                "stance": "prone",
                **({"guard": "US1"} if status == "captured" else {}),
            },
        ],
        vp={"german_killed": 5, "german_incapacitated": 2},
    )
    assert g.mission.vp.german_captured == 5
    assert g.casualty_vp() == vp and g.vp == vp


def test_a_prisoner_marched_off_counts_as_captured_and_scores_a_kill():
    """seed 002 p. 25, issue 25: US1 leaves by R1 guarding G1 and marches him off. His capture
    moves from the casualty VP to the VP log at ``german_killed`` (2): the total is unchanged,
    nothing more on a take objective (no ``prisoner_marched_off``) and US1's exit does not pay
    before the objective; ``stats()["germans_captured"]`` still counts G1 (it read 0 before)."""
    g = game(
        [
            {"name": "US1", "hex": "R1"},
            {"name": "US2", "hex": "A14"},
            {
                "name": "G1",
                "role": "rifleman",
                "hex": "R1",
                "status": "captured",
                "stance": "prone",
                "guard": "US1",
            },
        ]
    )
    assert g.stats()["germans_captured"] == 1 and g.vp == 2
    events = order(g, "US1 exit the map")
    assert [e["type"] for e in events if e["type"] in ("prisoner_marched_off", "exit")] == [
        "prisoner_marched_off",
        "exit",
    ]
    g1 = next(u for u in g.state.units if u.name == "G1")
    assert g1.exited and g1.status == Status.REMOVED
    stats = g.stats()
    assert (stats["germans_captured"], stats["germans_killed"], stats["us_exited"]) == (1, 0, 1)
    assert g.state.vp_log == [["G1 marched off (captured)", 2]]
    assert g.casualty_vp() == 0 and g.exit_vp() == 0 and g.vp == 2


# ------------------------------------------------------------------------------ validation
def _write(tmp_path: Path, change: Callable[[dict], object]) -> Path:
    m = copy.deepcopy(_farm())
    change(m)
    path = tmp_path / "farm_assault.yaml"
    path.write_text(yaml.safe_dump(m), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, field, words",
    [
        (
            lambda m: m["vp"].update(german_captured=3),
            "vp.german_captured",
            "a capture is worth what a kill is worth",
        ),
        (
            lambda m: m["vp"].update(prisoner_marched_off=2),  # farm_assault: a take objective
            "vp.prisoner_marched_off",
            "only a capture objective",
        ),
        (
            lambda m: m["exit_hexes"].append("A9"),  # us_entry[1] (and [5]) is A9
            "us_entry.1",
            "entry hex A9 is an exit hex too",
        ),
        (lambda m: m["vp"].update(exits="never"), "vp.exits", "'after_objective' or 'always'"),
    ],
    ids=["german_captured", "marched_off_on_take", "entry_is_exit", "exits_value"],
)
def test_scoring_rules_are_data_errors(tmp_path, change, field, words):
    """Issue 25: a mission file that breaks a scoring rule is a DataError naming the file and
    the field."""
    path = _write(tmp_path, change)
    with pytest.raises(DataError) as e:
        read_mission(path)
    assert e.value.field == field and words in e.value.problem
    assert str(path) in str(e.value)


def test_prisoner_marched_off_loads_on_a_capture_objective(tmp_path):
    """The other side of the rule: a capture objective may pay for the prisoner marched off."""

    def change(m: dict) -> None:
        m["objective"] = {"name": "farm", "hexes": FIELD, "kind": "capture", "card": "rifleman"}
        m["vp"]["prisoner_marched_off"] = 2

    assert read_mission(_write(tmp_path, change)).vp.prisoner_marched_off == 2


# ------------------------------------------------------------------------------ the zone
@pytest.mark.parametrize(
    "radius, german, scored",
    [
        (None, "L2", False),  # the default 2: L2 is 2 hexes from J2
        (None, "M2", True),  # 3 hexes: outside
        (1, "K2", False),
        (1, "L2", True),
        (0, "J3", False),  # 0: the objective hexes alone
        (0, "K2", True),
    ],
)
def test_a_german_within_clear_radius_keeps_the_objective(radius, german, scored):
    """RULES.md §15 ⚙ ``objective.clear_radius`` (issue 25): US1 in J2 ends his turn; an
    active, unaware German within the radius of an objective hex keeps it untaken, one a hex
    farther does not (+10)."""
    extra = {} if radius is None else {"clear_radius": radius}
    g = game(
        [
            {"name": "US1", "hex": "J2"},
            {"name": "US2", "hex": "A1"},
            {"name": "G1", "role": "rifleman", "hex": german, "aware": False},
        ],
        **extra,
    )
    order(g, "US1 wait")
    assert taken(g) is scored and g.vp == (OBJ_VP if scored else 0)
    assert g.dice.forced_left == 0


def test_the_first_entry_into_the_zone_alerts_it_and_runs_the_garrison_once():
    """RULES.md §15 ⚙ (issue 25, ``scoring.alarm``): US1 steps from M3 (3 hexes out) into L3
    (2 from J3): the objective alarm goes off, the garrison paragraph runs, and G1, unaware
    and prone at J4 inside the zone, becomes aware; G2 at G5, a hex outside it, stays unaware
    (neither is in sight: no die is rolled). The alert comes after the garrison paragraph (a
    request resolved after the paragraphs the entry sets off, so the Germans they place are
    alerted too). US1's next step inside the zone (L2) raises no second alarm and the
    paragraph does not run again."""
    paragraphs = {GARRISON: [{"message": "The garrison stands to."}, {"set": "garrison_out"}]}
    g = Game.from_position(
        {
            "mission": mission(paragraphs=paragraphs, garrison=GARRISON),
            "units": [
                {"name": "US1", "hex": "M3"},
                {"name": "US2", "hex": "A14"},
                {"name": "G1", "role": "rifleman", "hex": "J4", "aware": False, "stance": "prone"},
                {"name": "G2", "role": "rifleman", "hex": "G5", "aware": False, "stance": "prone"},
            ],
            "contacts": [],
        }
    )
    g.force_rolls([])
    unit = {u.name: u for u in g.state.units}
    events = order(g, "US1 move SW to L3")
    assert events == [
        {"type": "move", "unit": "US1", "to": "L3", "mp": 0},
        {"type": "paragraph", "hex": "L3", "unit": "US1", "paragraph": GARRISON},
        {"type": "message", "text": "The garrison stands to."},
        {"type": "message", "text": "alarm: farm"},  # after the paragraphs: ["alert"]
    ]
    assert ALARM in g.state.flags and "garrison_out" in g.state.flags
    assert unit["G1"].aware and not unit["G2"].aware
    events = order(g, "US2 wait") + order(g, "US1 move N to L2")
    assert [e for e in events if e["type"] in ("paragraph", "message")] == []
    assert g.state.flags.count(ALARM) == 1 and g.state.flags.count("garrison_out") == 1
    assert g.board.label(unit["US1"].hex) == "L2" and not unit["G2"].aware
    assert g.dice.forced_left == 0


def test_an_aware_german_holding_the_zone_reads_aware_even_when_outnumbered():
    """RULES.md §14-§15 ⚙ (issue 25, ``german.holds_objective``): an aware German outnumbered
    in the objective's zone after its alarm reads Aware; without the alarm, or wounded, or
    outside the zone, he reads Self-Preservation as an outnumbered German does."""
    from ambush_env.core.play.german import column_for

    def game(g_hex: str, flags: list[str], wounded: bool = False) -> Game:
        units = [{"name": f"US{k}", "hex": h} for k, h in enumerate(["K2", "K3", "L3"], 1)]
        units.append(
            {"name": "G1", "role": "rifleman", "hex": g_hex, "aware": True, "wounded": wounded}
        )
        return Game.from_position({"mission": mission(), "units": units, "flags": flags})

    def column(g: Game) -> str:
        return column_for(g, next(u for u in g.state.units if u.name == "G1"))

    assert column(game("J2", [ALARM])) == "aware"  # in the zone (the objective hex)
    assert column(game("J2", [])) == "self_preservation"  # no alarm yet
    assert column(game("J2", [ALARM], wounded=True)) == "self_preservation"
    assert column(game("L2", [ALARM])) == "aware"  # 2 hexes out: still the zone
    assert column(game("M2", [ALARM])) == "self_preservation"  # 3 out: beyond clear_radius


@pytest.mark.parametrize(
    "us_hexes, assaults",
    [(["J2", "J2", "J2"], False), (["J2", "J2", "A14"], True), (["J2", "A14", "A13"], True)],
)
def test_an_outnumbered_garrison_german_holds_by_fire_and_never_assaults(us_hexes, assaults):
    """RULES.md §10, §14-§15 ⚙ (issue 25, ``german._assault``): G1, aware in the objective
    hex J2 after the alarm, rolls the regular rifleman's Aware 9 (assault the weakest in his
    hex, then fire). Outnumbered (three US soldiers within 2 hexes, the ratio 3 to 1 of
    data/rules.yaml) he reads Aware only to hold the zone, so the assault is skipped and no
    strike back can fell him; with two US soldiers near (not outnumbered), or one, he assaults
    the man in his hex as the card says."""
    units = [{"name": f"US{k}", "hex": h} for k, h in enumerate(us_hexes, 1)]
    units.append({"name": "G1", "role": "rifleman", "hex": "J2", "aware": True})
    g = Game.from_position(
        {"mission": mission(), "units": units, "flags": [ALARM], "phase": "rounds", "round": 1}
    )
    from ambush_env.core.play.german import column_for
    from ambush_env.core.rules.prisoners import outnumbered

    ger = next(u for u in g.state.units if u.name == "G1")
    assert outnumbered(g, ger) is not assaults and column_for(g, ger) == "aware"
    g.force_rolls([9] + [0] * 12)  # the card roll; then low rolls: any assault succeeds
    first = len(g.log)
    g.german_turn(ger)
    evs = [e.to_dict() for e in g.log[first:]]
    assert [e["unit"] for e in evs if e["type"] == "assault"] == (["G1"] if assaults else [])
    assert not [e for e in evs if e["type"] == "strike_back"]


@pytest.mark.parametrize("flags, stays", [([ALARM], True), ([], False)])
def test_the_garrison_moves_only_within_its_zone(flags, stays):
    """RULES.md §14-§15 ⚙ (issue 25, ``german.holds_objective``): after the alarm an aware
    German in the zone (J2, the objective hex; radius 2) who moves ``away`` from the squad ends
    his move inside the zone; before it the same card move takes him out of it."""
    from ambush_env.core.play import german

    units = [{"name": f"US{k}", "hex": h} for k, h in enumerate(["F2", "F3"], 1)]
    units.append({"name": "G1", "role": "rifleman", "hex": "J2", "aware": True})
    g = Game.from_position({"mission": mission(), "units": units, "flags": flags})
    ger = next(u for u in g.state.units if u.name == "G1")
    plan = german._plan(g, ger, "away", 6)
    assert plan, "he moves"
    assert (plan[-1] in g.objective_zone) is stays


def _tank_game() -> tuple[Game, object]:
    g = Game("tank_hunt", seed=0)
    g.force_rolls([4] + [9] * 40)  # the chain: the tank on the Place (32); then 9s
    g.request("paragraph", 30, 0, 0, 0)
    from ambush_env.core.play.sequence import resolve

    resolve(g)
    (v,) = g.state.vehicles
    return g, v


@pytest.mark.parametrize("how, scored", [("accident", 0), ("satchel", 10)])
def test_a_german_tank_its_own_driving_overturned_is_no_kill(how, scored):
    """⚙ issue 25 (``Vehicle.wrecked``, ``Match.casualty_vp``): tank_hunt's Panzer knocked out
    by the squad (a satchel charge) scores ``german_tank_disabled`` 10; overturned on the
    Accident Table by its own fast driving (seed 000 p. 30) it is disabled just the same, but
    the squad scores nothing for it."""
    from ambush_env.core.vehicles.vehicles import apply_accident, disable

    g, v = _tank_game()
    before = g.casualty_vp()
    if how == "accident":
        apply_accident(g, v, "overturn")
    else:
        disable(g, v, "satchel charge")
    assert v.disabled and v.wrecked is (how == "accident")
    assert g.casualty_vp() - before == scored
    p = g.position()  # the flag is part of the position, written only when set
    assert ("wrecked" in p["vehicles"][0]) is (how == "accident")
    assert Game.from_position(p).state.vehicles[0].wrecked is (how == "accident")


def test_a_wrecked_vehicle_must_be_disabled():
    """Positions refuse ``wrecked`` on a vehicle that is not disabled, naming the field."""
    g, v = _tank_game()
    p = g.position()
    p["vehicles"][0]["wrecked"] = True
    with pytest.raises(DataError, match=r"vehicles\.0\.wrecked"):
        Game.from_position(p)
