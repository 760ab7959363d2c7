"""Issue 13, done-when 2: the paragraph effects and German card actions and selectors that had no
test with forced dice asserting an exact outcome (issue 13's audit).

Paragraph effects run on variants of the reference mission (``farm_assault``) with paragraphs
added (triggered from unused hexes, so the mission validates: no orphan paragraph, every tested
flag set somewhere); German actions run with *probe cards* — the regular deck plus cards whose
Aware column is one row on every d10 face — so they check the interpreter (``german.py``), not
the tuning of the shipped decks. ``force(g, [])`` where no die may be rolled: a roll would
raise ``DiceExhaustedError``.
"""

from __future__ import annotations

import functools
import json

import pytest
import yaml
from engine_helpers import (
    add_german,
    clear_board,
    force,
    forced_german_turn,
    only_us,
    probe_deck_game,
    put,
    rounds,
    run_paragraph,
)

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import RESULT_NAMES, Stance, Status
from ambush_env.core.play import german
from ambush_env.core.world.data import data_path
from ambush_env.core.world.missions import Mission, load_mission

S = int(Stance.STANDING)
B = O.ORDER_BASE


# ------------------------------------------------------------------------------ helpers
@functools.lru_cache(maxsize=8)
def _variant(extra: str) -> Mission:
    d = load_mission("farm_assault").model_dump(by_alias=True, mode="json")
    for key, value in json.loads(extra).items():
        d[key] = {**d[key], **value}
    return Mission.model_validate(d)


def mission_game(paragraphs: dict, triggers: dict) -> Game:
    """A reset game of farm_assault with ``paragraphs`` and ``triggers`` added."""
    g = Game(
        _variant(json.dumps({"paragraphs": paragraphs, "triggers": triggers}, sort_keys=True)),
        seed=0,
    )
    g.reset(seed=0)
    return g


def events(g: Game, *kinds: str) -> list[dict]:
    return [e.to_dict() for e in g.log if e.type in kinds]


# ------------------------------------------------------------------------------ paragraph effects
FLOW = {
    "90": [
        {"message": "The church bell tolls."},
        {"if_flag": {"flag": "bell_heard", "then": 92, "else": 91}},
    ],
    "91": [{"set": "bell_heard"}, {"vp": {"amount": 3, "reason": "bell tower scouted"}}],
    "92": [{"vp": {"amount": 1, "reason": "bell rung"}}, {"goto": 93}],
    "93": [{"message": "The tower is empty."}],
}


def test_message_set_if_flag_goto_and_vp_run_in_order():
    """RULES.md §15 effects ``message``, ``set``, ``if_flag`` (both branches), ``goto`` and
    ``vp`` (amount and reason): paragraph 90
    first takes ``else`` (flag unset) to 91, which sets the flag and scores 3; run again it
    takes ``then`` to 92 (1 VP) and jumps to 93. No die is rolled (none forced)."""
    g = mission_game(FLOW, {"C3": 90, "C4": 91, "C5": 92})
    u = g.us_units()[0]
    force(g, [])
    run_paragraph(g, 90, u)
    assert events(g, "message", "vp") == [
        {"type": "message", "text": "The church bell tolls."},
        {"type": "vp", "amount": 3, "reason": "bell tower scouted", "total": 3},
    ]
    assert g.state.flags == ["bell_heard"]
    g.log.clear()
    run_paragraph(g, 90, u)
    assert events(g, "message", "vp") == [
        {"type": "message", "text": "The church bell tolls."},
        {"type": "vp", "amount": 1, "reason": "bell rung", "total": 4},
        {"type": "message", "text": "The tower is empty."},
    ]
    assert g.state.flags == ["bell_heard"] and g.state.vp == 4


def test_set_is_idempotent():
    """RULES.md §15 ``set``: setting a flag already set leaves one copy (``state.flags`` is a
    set kept in order)."""
    g = mission_game(FLOW, {"C3": 90, "C4": 91, "C5": 92})
    force(g, [])
    run_paragraph(g, 91, None)
    run_paragraph(g, 91, None)
    assert g.state.flags == ["bell_heard"] and g.state.vp == 6


@pytest.mark.parametrize("vp, result", [(26, "decisive_win"), (25, "win")])
def test_end_mission_effect_ends_and_scores_at_once(vp, result):
    """RULES.md §15 ``end_mission``: the mission ends when the effect runs, scored by the
    result bands (farm_assault: decisive win 26, both sides of it); nothing runs after it (the
    loader keeps it a paragraph's last effect)."""
    paras = {"94": [{"vp": {"amount": vp, "reason": "relieved"}}, {"end_mission": "recalled"}]}
    g = mission_game(paras, {"C3": 94})
    g.state.vp -= g.casualty_vp()
    force(g, [])
    run_paragraph(g, 94, None)
    assert g.state.over and g.state.end_reason == "recalled"
    assert RESULT_NAMES[g.state.result] == result
    (end,) = events(g, "mission_end")
    assert end["reason"] == "recalled" and end["vp"] == vp and end["result"] == result
    assert not g.state.pending and not g.legal_actions()


# grenade_outside: none x3 (0-2), panic (3-4), wound (5-6), incapacitated (7-8), kill (9)
@pytest.mark.parametrize(
    "roll, result, status, wounded",
    [
        (2, "none", Status.ACTIVE, False),
        (5, "wound", Status.ACTIVE, True),
        (6, "wound", Status.ACTIVE, True),
        (7, "incapacitated", Status.INCAPACITATED, False),
        (9, "kill", Status.KILLED, False),
    ],
)
def test_booby_trap_effect_rolls_the_triggering_soldiers_row(roll, result, status, wounded):
    """RULES.md §15 / seed 000 p. 32 ``booby_trap {row}``: the soldier who triggered the
    paragraph rolls one d10 on the damage row (farm_assault paragraph 53: grenade_outside;
    the 2/3 none/panic... boundaries 4/5 and 6/7 on both sides); the paragraph's
    effects after it run (a ``set``)."""
    paras = {"95": [{"booby_trap": {"row": "grenade_outside"}}, {"set": "trap_sprung"}]}
    g = mission_game(paras, {"C3": 95})
    clear_board(g, keep=1)
    u = put(g, 0, "C3")
    assert g.tables.soldier_row["grenade_outside"][roll] == result
    force(g, [roll])
    run_paragraph(g, 95, u)
    assert events(g, "booby_trap") == [
        {
            "type": "booby_trap",
            "unit": u.name,
            "row": "grenade_outside",
            "roll": roll,
            "result": result,
        }
    ]
    assert u.status == status and u.wounded is wounded
    assert "trap_sprung" in g.state.flags


def test_booby_trap_effect_without_a_triggering_soldier_does_nothing():
    """paragraphs._booby_trap (a random event's paragraph has no triggering soldier, RULES.md
    §15 ⚙): no die, no damage, the next effect runs."""
    paras = {"95": [{"booby_trap": {"row": "grenade_outside"}}, {"set": "trap_sprung"}]}
    g = mission_game(paras, {"C3": 95})
    force(g, [])
    run_paragraph(g, 95, None)
    assert events(g, "booby_trap") == [] and g.state.flags == ["trap_sprung"]
    assert all(u.status == Status.ACTIVE for u in g.us_units())


def test_farm_assault_paragraph_53_sets_off_the_trap():
    """The shipped use (farm_assault.yaml: paragraph 51's PC check fails to 53, a message and
    ``booby_trap {row: grenade_outside}``): the soldier rolls on the row, a 9 kills."""
    g = Game("farm_assault", seed=0)
    g.reset(seed=0)
    effects = [e.tag for e in g.mission.paragraphs[53]]
    assert "booby_trap" in effects
    clear_board(g, keep=1)
    u = put(g, 0, "C3")
    force(g, [9])
    run_paragraph(g, 53, u)
    (ev,) = events(g, "booby_trap")
    assert ev["roll"] == 9 and ev["result"] == "kill" and u.status == Status.KILLED


# ------------------------------------------------------------------------------ German probes
def _probe(card_id: str, weapon: str, aware: list, WS: int = 0, sp: list | None = None) -> dict:
    return {
        "id": card_id,
        "rank": "Probe",
        "weapon": weapon,
        "IN": 1,
        "PC": 5,
        "WS": WS,
        "MV": 4,
        "equipment": [],
        "columns": {
            "unaware": [{"rolls": [0, 9], "do": ["hold"]}],
            "aware": [{"rolls": [0, 9], "do": aware}],
            "self_preservation": [{"rolls": [0, 9], "do": sp or ["hold"]}],
        },
    }


PROBES = [
    _probe("p_weak", "kar98_zf", [{"fire": {"at": "weakest_visible"}}], WS=2),
    _probe("p_objective", "kar98", [{"move": {"toward": "objective", "max": 2}}]),
    _probe("p_nearest_us", "kar98", [{"move": {"toward": "nearest_us", "max": 2}}]),
    _probe("p_away", "kar98", [{"move": {"toward": "away"}}]),
    _probe("p_away2", "kar98", [{"move": {"toward": "away", "max": 2}}]),
    _probe("p_route", "kar98", [{"move": {"toward": "route", "max": 3}}]),
    # outnumbered puts him on Self-Preservation (german.py), so the row is in both columns
    _probe(
        "p_surrender",
        "kar98",
        [{"surrender": {"if": "outnumbered"}}],
        sp=[{"surrender": {"if": "outnumbered"}}],
    ),
]


@pytest.fixture(scope="module")
def pg(tmp_path_factory) -> Game:
    """Farm Assault with the regular deck plus the probe cards (a deck file named ``probe``)."""
    return probe_deck_game(tmp_path_factory.mktemp("deck"), PROBES)


setup = only_us
turn = forced_german_turn


def moves(evs: list[dict]) -> list[str]:
    return [e["to"] for e in evs if e["type"] == "move"]


@pytest.mark.parametrize("wounded, target, to_hit", [(False, "US3", 8), (True, "US1", 7)])
def test_weakest_visible_takes_a_wounded_soldier_over_a_nearer_one(pg, wounded, target, to_hit):
    """cards.py selector ``weakest_visible`` (⚙ wounded first, then the nearest): a sniper
    (WS 2) at R8 sees the sergeant US1 at I8 (9 hexes) and the private US3 at M8 (5 hexes).
    US1 unwounded: the nearer US3 (excluded case, to-hit 8); US1 wounded: US1 (to-hit 7, RULES.md
    §8 bolt rifle at 7-10 hexes 4, +1 standing, +2 WS). The 9 misses either way."""
    g = pg
    sgt, cpl, _pvt = setup(g, [("I8", S), ("A1", S), ("M8", S)])
    cpl.hex = -1
    sgt.wounded = wounded
    g.invalidate()
    ger = add_german(g, "p_weak", "R8")
    evs = turn(g, ger, [0, 9])
    (f,) = [e for e in evs if e["type"] == "fire"]
    assert (f["target"], f["to_hit"], f["result"]) == (target, to_hit, "miss")


def test_move_toward_objective_closes_on_the_mission_objective(pg):
    """RULES.md §14 ``move {toward: objective, max: 2}``: two hexes nearer the objective hexes
    (farm_assault: the farm L6-N7), H8 → I9 → J8, though it passes next to the US soldier."""
    g = pg
    setup(g, [("I8", S)])
    ger = add_german(g, "p_objective", "H8")
    obj = [g.board.index(h) for h in g.mission.objective.hexes]
    before = min(g.board.distance(ger.hex, h) for h in obj)
    evs = turn(g, ger, [0])
    assert moves(evs) == ["I9", "J8"]
    assert min(g.board.distance(ger.hex, h) for h in obj) == before - 2


def test_move_toward_nearest_us_closes_two_hexes(pg):
    """RULES.md §14 ``move {toward: nearest_us, max: 2}``: R8 → Q8 → P7, 9 → 7 hexes from US1
    at I8."""
    g = pg
    (us,) = setup(g, [("I8", S)])
    ger = add_german(g, "p_nearest_us", "R8")
    assert g.board.distance(ger.hex, us.hex) == 9
    evs = turn(g, ger, [0])
    assert moves(evs) == ["Q8", "P7"] and g.board.distance(ger.hex, us.hex) == 7


@pytest.mark.parametrize(
    "card, path, dist",
    [
        ("p_away", ["L12", "M13", "N13", "N14"], 9),
        ("p_away2", ["L12", "L13"], 7),
    ],
)
def test_move_without_max_goes_as_far_as_the_mps_allow(pg, card, path, dist):
    """cards.py ``move``: ``max`` none means as far as his MPs allow (MV 4, clear ground 1 MP a
    hex: four hexes); ``max: 2`` stops at two (excluded case). K12, 5 hexes from US1 at I8,
    ``toward: away``. (Found here: a move without ``max`` stopped after two hexes.)"""
    g = pg
    (us,) = setup(g, [("I8", S)])
    ger = add_german(g, card, "K12")
    evs = turn(g, ger, [0])
    assert moves(evs) == path and g.board.distance(ger.hex, us.hex) == dist


@pytest.mark.parametrize("route, path", [(["R2"], ["R7", "R6", "R5"]), ([], [])])
def test_move_toward_route_follows_the_placement_waypoints(pg, route, path):
    """cards.py ``move {toward: route, max: 3}``: three hexes toward the first waypoint of the
    route his placement gave him (R8 → R5 on the way to R2); without a route the action is
    skipped (excluded case)."""
    g = pg
    setup(g, [("I8", S)])
    ger = add_german(g, "p_route", "R8")
    ger.route = [g.board.index(h) for h in route]
    evs = turn(g, ger, [0])
    assert moves(evs) == path
    if not route:
        assert [e["action"] for e in evs if e["type"] == "german_skip"] == ["move"]


def test_surrender_is_only_ever_outnumbered(tmp_path):
    """cards.py ``surrender`` (RULES.md §10: Germans surrender when outnumbered ⚙ 3 to 1): the
    only condition is ``if: outnumbered``; a card asking to surrender ``always`` is a
    DataError naming the deck file and the field on load (the order generator never offers
    a surrender one to one, so such a card would silently mean ``outnumbered``)."""
    raw = yaml.safe_load(data_path("cards/regular.yaml").read_text(encoding="utf-8"))
    raw["id"] = "probe_always"
    raw["cards"] = raw["cards"] + [
        _probe("p_surrender", "kar98", [{"surrender": {"if": "always"}}])
    ]
    path = tmp_path / "probe_always.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError) as e:
        Game("farm_assault", opponent=str(path))
    assert "probe_always.yaml" in str(e.value) and "surrender" in str(e.value)


def test_outnumbered_german_with_a_surrender_row_gives_up(pg):
    """RULES.md §10: outnumbered 3 to 1 with US soldiers in his hex, the default
    ``surrender`` (``if: outnumbered``) is taken and he is captured; one to one it is not."""
    g = pg
    us = setup(g, [("P5", S), ("P5", S), ("P5", S)])
    ger = add_german(g, "p_surrender", "P5")
    turn(g, ger, [0])
    assert ger.status == Status.CAPTURED and all(u.status == Status.ACTIVE for u in us)


def test_one_to_one_german_does_not_surrender(pg):
    """The excluded case: one US soldier in his hex is not 3 to 1, so no surrender."""
    g = pg
    setup(g, [("P5", S)])
    ger = add_german(g, "p_surrender", "P5")
    turn(g, ger, [0])
    assert ger.status != Status.CAPTURED


# ------------------------------------------------------------------------------ tank hatches
def _tank():
    from test_german_vehicles import _tank_game, _us1

    g, tu, v = _tank_game()
    _us1(g, "M5")
    return g, tu, v


@pytest.mark.parametrize("closed, picked", [(False, "close"), (True, "end")])
def test_tank_close_row_closes_an_open_tank_only(closed, picked):
    """Seed 000 p. 32-33, vehicle_cards.yaml panzer_iv crew 5 row 9: ``close``; an open tank
    closes its hatches (OPEN_CLOSE), a closed one skips it and the turn ends."""
    g, tu, v = _tank()
    v.closed = closed
    g.invalidate()
    force(g, [9])
    got = german.choose(g, tu, [B[K.END_TURN], B[K.OPEN_CLOSE]])
    assert got == (B[K.OPEN_CLOSE] if picked == "close" else B[K.END_TURN])


@pytest.mark.parametrize("closed, gives", [(True, True), (False, False)])
def test_tank_open_action_opens_a_closed_tank_only(closed, gives):
    """vehicle_cards.py ``open``: OPEN_CLOSE when the tank is closed and the order is legal;
    skipped when it is open, or when the order is not offered."""
    g, tu, v = _tank()
    v.closed = closed
    act = german._TANK_ACTIONS["open"]
    assert act(g, tu, {}, {B[K.OPEN_CLOSE]}) == ((B[K.OPEN_CLOSE], True) if gives else None)
    assert act(g, tu, {}, set()) is None


# ------------------------------------------------------------------------------ German assaults
@pytest.mark.parametrize("roll, killed", [(5, True), (6, False)])
def test_german_same_hex_kill_assault_both_sides_of_the_chance(roll, killed):
    """RULES.md §10 ``assault {at: same_hex, kind: kill}``: a rifleman (WS 0) in US4's hex
    assaults him at chance 5 (no modifiers): 5 succeeds and the assault row's 6 kills; 6
    fails and US4 (active, aware) strikes back once at his own chance (9: misses)."""
    from engine_helpers import german_action
    from test_assault import US4, squad

    g, u, _ = squad(US4, "M10")
    ger = add_german(g, "rifleman", "M10")
    rounds(g)
    force(g, [roll, 6] if killed else [roll, 9])
    first = len(g.log)
    assert german_action(g, ger, "assault", {"at": "same_hex", "kind": "kill"}) is True
    (a,) = [e.to_dict() for e in g.log[first:] if e.type == "assault" and e.unit == ger.name]
    assert (a["target"], a["chance"], a["rolls"]["assault"], a["success"]) == (
        "US4",
        5,
        roll,
        killed,
    )
    assert u.status == (Status.KILLED if killed else Status.ACTIVE)
    assert ger.status == Status.ACTIVE and g.dice.forced_left == 0


def test_german_same_hex_assault_never_charges():
    """cards.py ``assault {at: same_hex}``: with the US soldier in the next hex (N9, a charge
    ``adjacent_weakest`` would make: test_assault.test_german_charge_within_half_mv) nothing
    is done and no die is rolled."""
    from engine_helpers import german_action
    from test_assault import US4, squad

    g, u, _ = squad(US4, "N9")
    ger = add_german(g, "rifleman", "M10")
    rounds(g)
    force(g, [])
    assert german_action(g, ger, "assault", {"at": "same_hex", "kind": "kill"}) is False
    assert g.board.label(ger.hex) == "M10" and u.status == Status.ACTIVE


def test_german_capture_assault_is_never_offered():
    """RULES.md §10 (capture: "the German is captured"; legal.py offers ASSAULT_CAPTURE to US
    soldiers only): a card's ``assault {kind: capture}`` gives a German no order, even in the
    US soldier's hex; no die is rolled."""
    from engine_helpers import german_action
    from test_assault import US4, squad

    g, u, _ = squad(US4, "M10")
    ger = add_german(g, "rifleman", "M10")
    rounds(g)
    force(g, [])
    assert german_action(g, ger, "assault", {"at": "same_hex", "kind": "capture"}) is False
    assert u.status == Status.ACTIVE


# ------------------------------------------------------------------------------ German drivers
def _car_turn(rolls: list[int], route: list[str] | None = None):
    """G1 (rifleman) at the wheel of the Kübelwagen V2 at K8, US1 at C8 (test_german_vehicles
    ``_car_game``); his turn on the shipped default driving column (vehicle_cards.yaml
    ``driving_default``) with the dice forced; (game, car, US1, the drive events' hexes)."""
    from engine_helpers import give_turn
    from test_german_vehicles import _car_game

    g = _car_game()
    g1, v, us = g.state.units[1], g.state.vehicles[1], g.state.units[0]
    g1.route = [g.board.index(h) for h in route or ()]
    force(g, rolls)
    give_turn(g, g1)
    g.german_turn(g1)
    drives = [e.to for e in g.log if e.type == "drive"]
    return g, v, us, drives


@pytest.mark.parametrize("roll, passed", [(0, True), (1, False)])
def test_drive_fast_past_the_slow_allowance_makes_an_accident_check(roll, passed):
    """Seed 000 p. 30, 32; driving_default row 4-5 ``drive {toward: nearest_us, fast: true}``:
    past the slow MPA (5 road hexes) an Accident Check (need 0 here): 0 passes and the car
    drives on past E8; 1 fails, the table's 5 stops it at E8, undamaged (excluded case of the
    slow row 0-3: five hexes, no check, test_german_vehicles)."""
    g, v, _us, drives = _car_turn([4, roll, 5] if not passed else [4, roll] + [9] * 6)
    (chk, *_) = [e.to_dict() for e in g.log if e.type == "accident_check"]
    assert (chk["why"], chk["roll"], chk["need"]) == ("moving fast", roll, 0)
    assert (chk["result"] == "passed") is passed
    assert drives[:6] == ["J8", "I8", "H8", "G8", "F8", "E8"]
    if passed:
        assert len(drives) > 6
    else:
        assert len(drives) == 6 and g.board.label(v.hex) == "E8" and not v.disabled
        assert g.dice.forced_left == 0


@pytest.mark.parametrize(
    "route, drives", [(["K2"], ["K7", "K6"]), ([], ["J8", "I8", "H8", "G8", "F8"])]
)
def test_drive_toward_route_else_the_rows_next_drive(route, drives):
    """Seed 000 p. 32; driving_default row 6 ``[drive {toward: route}, drive {toward:
    nearest_us}]``: with a placement route the car heads for its waypoint (K8 → K6 on the way
    to K2: a drive ends the turn); without one the route drive is skipped and the next drive
    closes on US1 (five road hexes)."""
    g, _v, _us, got = _car_turn([6], route)
    assert got == drives and g.dice.forced_left == 0


def test_drive_away_fast_and_toward_cover():
    """Seed 000 p. 32; driving_default row 9 ``drive {toward: away, fast: true}``: away from
    US1 (C8), past the slow allowance (an Accident Check: 0 passes); row 8 ``drive {toward:
    cover}`` (slow: five hexes, no check). Both end farther from US1 than the car began (8
    hexes)."""
    g, v, us, drives = _car_turn([8])
    assert drives == ["L8", "M8", "N8", "O8", "P8"] and g.dice.forced_left == 0
    assert not [e for e in g.log if e.type == "accident_check"]
    assert g.board.distance(v.hex, us.hex) == 13
    g, v, us, drives = _car_turn([9, 0] + [9] * 6)
    assert drives[:6] == ["L8", "M8", "N8", "O8", "P8", "Q9"]
    assert [e.to_dict()["result"] for e in g.log if e.type == "accident_check"][:1] == ["passed"]
    assert g.board.distance(g.board.index(drives[-1]), us.hex) > 8


@pytest.mark.parametrize("offered, leaves", [(True, True), (False, False)])
def test_leave_vehicle_gets_the_driver_out_when_legal(offered, leaves):
    """RULES.md §12, cards.py ``leave_vehicle`` (driving column): G1 gets out of the Kübelwagen
    V2 into its hex K8 (the car has no driver left); not offered, the action is skipped."""
    from engine_helpers import german_action, give_turn
    from test_german_vehicles import _car_game

    g = _car_game()
    g1, v = g.state.units[1], g.state.vehicles[1]
    give_turn(g, g1)
    force(g, [])
    if not offered:
        assert german._ACTIONS["leave_vehicle"](g, g1, {}, set()) is None
        assert g1.vehicle == v.vid
        return
    first = len(g.log)
    assert german_action(g, g1, "leave_vehicle") is leaves
    assert [e.to_dict() for e in g.log[first:] if e.type == "leave_vehicle"] == [
        {"type": "leave_vehicle", "unit": "G1", "vehicle": "V2"}
    ]
    assert (g1.vehicle, g.board.label(g1.hex), v.driver) == (-1, "K8", -1)


@pytest.mark.parametrize("row, drives, fired", [(6, ["M4"], True), (8, [], False)])
def test_tank_card_move_toward_nearest_us_or_a_route(row, drives, fired):
    """Seed 000 p. 32-33, vehicle_cards.yaml panzer_iv crew 5: row 6-7 ``[move {toward:
    nearest_us}, fire_mg {mount: any, mode: aimed}, load]``: the Panzer IV at M3 (facing S)
    drives one hex, M4, toward US1 at M12 (9 → 8 hexes), then its MG fires at him (the 9s
    miss), and ``load`` is skipped (the cannon starts loaded). Row 8 ``move {toward: route,
    fast: true}`` without a route is skipped (excluded case) and the tank stays at M3."""
    from ambush_env.core.model.dice import Dice
    from ambush_env.core.model.state import TurnState

    g, tu, v = _tank()
    us = g.state.units[0]
    us.hex = g.board.index("M12")
    g.state.turn = TurnState()  # his turn starts in german_turn (Crew Points, tasks)
    g.dice = Dice.scripted([row] + [9] * 10)
    g.invalidate()
    g.german_turn(tu)
    log = [e.to_dict() for e in g.log]
    assert [e["to"] for e in log if e["type"] == "drive"] == drives
    assert g.board.label(v.hex) == (drives[-1] if drives else "M3")
    shots = [e for e in log if e["type"] == "fire"]
    assert bool(shots) is fired and all(e["target"] == "US1" for e in shots)
    assert g.board.distance(v.hex, us.hex) == (8 if drives else 9)
