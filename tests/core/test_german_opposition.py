"""The German opposition of issue 13 (RULES.md §14): the officer, sniper and anti-tank cards,
and the interpreter's new verbs and selectors, each with forced dice on both sides of its
threshold.

The verbs are pinned with *probe cards* — the regular deck (``data/cards/regular.yaml``) plus
cards whose Aware column is one row on every d10 face — so these tests check the interpreter,
not the tuning of the shipped decks (their rows are ⚙ and may change). Map: Farm Assault
(maps/farm_assault.yaml): the stone farmhouse L6-L7 (a blank wall on the K8 side, windows on
K7 and M7, the door on L8), the wooden barn N6-N7 (a blank wall on M8 and O7); the US jeep V1
at A8.

=============================  =================================================  ==========
verb / selector                rule                                               tests
=============================  =================================================  ==========
``fire {at: wall_of_building   aimed fire at the wall of the building hex holding  ``test_wall_*``
_with_us}``                    the most US soldiers (RULES.md §8 +4, §11; seed
                               002 p. 26-27: explosive destroys, bullets pass)
``fire {at: nearest_vehicle}`` the Panzerfaust at a US vehicle only (seed 000      ``test_panzerfaust_*``
                               p. 30-31: the vehicle and its riders one target)
``fire {at: nco_first}``       a commander (CR 1+) before a nearer private ⚙       ``test_nco_first_*``
``move {toward: concealed}``   the hex the fewest US soldiers see (seed 004)      ``test_concealed_*``
``throw_satchel {at: ...}``    prepare (standing), then throw (RULES.md §6, §9;   ``test_satchel_*``
                               seed 002 p. 26: against a wall destroys it)
=============================  =================================================  ==========
"""

from __future__ import annotations

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
)

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Stance, Status
from ambush_env.core.play import german
from ambush_env.core.world.cards import Deck, load_deck, read_deck
from ambush_env.core.world.data import data_path

S, C, P = int(Stance.STANDING), int(Stance.CROUCHING), int(Stance.PRONE)


def _probe(
    card_id: str,
    weapon: str,
    aware: list,
    equipment: list[str] | None = None,
    sp: list | None = None,
    WS: int = 0,
    PC: int = 5,
) -> dict:
    """A probe card: ``aware`` on every face of its Aware column (``sp`` likewise)."""
    return {
        "id": card_id,
        "rank": "Probe",
        "weapon": weapon,
        "IN": 1,
        "PC": PC,
        "WS": WS,
        "MV": 4,
        "equipment": equipment or [],
        "columns": {
            "unaware": [{"rolls": [0, 9], "do": ["hold"]}],
            "aware": [{"rolls": [0, 9], "do": aware}],
            "self_preservation": [{"rolls": [0, 9], "do": sp or ["hold"]}],
        },
    }


PROBES = [
    _probe("p_wall_pf", "panzerfaust", [{"fire": {"at": "wall_of_building_with_us"}}]),
    _probe("p_wall_mg", "mg42", [{"fire": {"at": "wall_of_building_with_us"}}], ["clip_mg42"]),
    _probe("p_vehicle", "panzerfaust", [{"fire": {"at": "nearest_vehicle"}}]),
    _probe("p_nearest", "panzerfaust", [{"fire": {"at": "nearest_visible"}}]),
    _probe("p_nco", "kar98_zf", [{"fire": {"at": "nco_first"}}], WS=2),
    _probe("p_near_rifle", "kar98_zf", [{"fire": {"at": "nearest_visible"}}], WS=2),
    _probe(
        "p_conceal",
        "kar98_zf",
        [{"move": {"toward": "concealed", "max": 3}}],
        sp=[{"move": {"toward": "concealed", "max": 3}}],
    ),
    _probe("p_cover", "kar98_zf", [{"move": {"toward": "cover", "max": 3}}]),
    _probe(
        "p_satchel",
        "kar98",
        [{"stance": "standing"}, {"throw_satchel": {"at": "building_with_us"}}],
        ["satchel"],
    ),
    _probe("p_satchel_group", "kar98", [{"throw_satchel": {"at": "largest_group"}}], ["satchel"]),
    _probe(
        "p_satchel_vehicle", "kar98", [{"throw_satchel": {"at": "nearest_vehicle"}}], ["satchel"]
    ),
]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Game:
    """Farm Assault with the regular deck plus the probe cards (a deck file named ``probe``)."""
    return probe_deck_game(tmp_path_factory.mktemp("deck"), PROBES)


setup = only_us
turn = forced_german_turn


def of(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


# ------------------------------------------------------------------ fire at a wall
@pytest.mark.parametrize(
    "hit, pen, expected", [(7, 1, "destroyed"), (7, 0, "none"), (8, None, "miss")]
)
def test_wall_panzerfaust_fires_at_the_wall_with_the_most_us_behind_it(game, hit, pen, expected):
    """RULES.md §8, §11; seed 002 p. 26-27. A Panzerfaust man at H8 out of sight of everyone:
    US1 in the farmhouse L7 (4 hexes), US2 and US3 in the barn N7 (6 hexes); the farmhouse
    L6 (empty) is a wall target too. He fires at the barn's wall (two inside). To-hit: the
    Panzerfaust's 3 at 4-6 hexes, +4 for a wall = 7 (a 7 hits, an 8 misses); its
    penetration row reads "none" on a 0 (no effect) and Light on a 1, and any level of an
    explosive destroys the wall (RULES.md §11): both men inside roll on the destroyed-wall
    row."""
    g = game
    us = setup(g, [("L7", S), ("N7", S), ("N7", S)])
    ger = add_german(g, "p_wall_pf", "H8")
    assert not any(g.can_see(ger, o) for o in us)
    rolls = (
        [0, hit] + ([pen] if pen is not None else []) + ([0, 0] if expected == "destroyed" else [])
    )
    evs = turn(g, ger, rolls)
    (fw,) = of(evs, "fire_wall")
    assert fw["hex"] == "N7" and fw["to_hit"] == 7 and fw["wall"] == "wood"
    assert fw["result"] == expected
    assert bool(of(evs, "wall_destroyed")) is (expected == "destroyed")
    assert ger.ammo == 0  # the single shot is spent either way


def test_wall_fire_never_at_a_building_hex_where_a_german_stands(game):
    """⚙ The wall of a hex with a German inside is never the target (what passes or falls hits
    everyone there): with a rifleman in the barn N7 beside US2 and US3, the Panzerfaust man at
    H8 fires at the farmhouse L7 (US1 alone) instead."""
    g = game
    setup(g, [("L7", S), ("N7", S), ("N7", S)])
    add_german(g, "rifleman", "N7", aware=False)
    ger = add_german(g, "p_wall_pf", "H8")
    evs = turn(g, ger, [0, 9])  # the card, a hit roll of 9: a miss
    (fw,) = of(evs, "fire_wall")
    assert fw["hex"] == "L7" and fw["result"] == "miss"


def test_wall_fire_is_skipped_without_us_in_a_building(game):
    """The selector names only building hexes with active US soldiers in them: with the
    squad in the open (US1 at J10) the wall action has nothing to fire at and is
    skipped, though walls are in reach (excluded case)."""
    g = game
    setup(g, [("J10", S)])
    ger = add_german(g, "p_wall_pf", "H8")
    evs = turn(g, ger, [0])
    assert not of(evs, "fire_wall") and not of(evs, "fire")
    assert of(evs, "german_skip")[0]["action"] == "fire"


@pytest.mark.parametrize(
    "ger_hex, us_hex, wall, jam, pen, result",
    [
        ("K9", "L7", "stone", 8, 9, "none"),  # Light, the row's best: no effect on stone
        ("K9", "L7", "stone", 9, None, "jammed"),
        ("N9", "N7", "wood", 8, 4, "pass"),  # Light passes a wooden wall
        ("N9", "N7", "wood", 8, 3, "none"),  # none
    ],
)
def test_wall_mg_bullets_pass_or_the_gun_jams(game, ger_hex, us_hex, wall, jam, pen, result):
    """RULES.md §8 (the jam check: a 9 jams), §11 (non-explosive: Light passes wooden walls
    only, Medium any wall; the lmg's row reaches Light at most, damage.yaml ⚙). An MG42 gunner
    2 hexes from a building with US1 inside fires at its wall facing him: to-hit the lmg's 7
    at 2 hexes + 4 for a wall = 11, a hit on any roll; the lmg's penetration row reads none
    on a 3 and Light from a 4 to a 9: the farmhouse's stone wall L7/L8 stops every bullet,
    the barn's wooden wall N7/N8 is passed from a 4 (US1, standing, is hit on a 2 or less,
    here a 0, and rolls damage, a 0: none)."""
    g = game
    setup(g, [(us_hex, S)])
    ger = add_german(g, "p_wall_mg", ger_hex)
    rolls = [0, jam] + ([0, pen] if pen is not None else []) + ([0, 0] if result == "pass" else [])
    evs = turn(g, ger, rolls)
    (fw,) = of(evs, "fire_wall")
    assert fw["hex"] == us_hex and fw["wall"] == wall and fw["to_hit"] == 11
    assert fw["result"] == result, fw
    assert len(of(evs, "behind_wall")) == (result == "pass")


# ------------------------------------------------------------------ the Panzerfaust at a vehicle
def _jeep(g: Game, label: str, driver) -> None:
    v = g.state.vehicles[0]
    v.hex = g.board.index(label)
    driver.hex, driver.vehicle, v.driver = v.hex, v.vid, driver.uid
    g.invalidate()


@pytest.mark.parametrize("hit, missed", [(6, False), (7, True)])
def test_panzerfaust_fires_at_the_vehicle_not_the_nearer_soldier(game, hit, missed):
    """seed 000 p. 30-31: a Panzerfaust man at H8 sees the US jeep V1 at E8 (3 hexes, US1
    driving) and US2 on foot at G8, nearer. ``nearest_vehicle`` fires at the jeep: to-hit
    the Panzerfaust's 5 at 2-3 hexes, +1 for a small vehicle = 6 (a 6 hits, a 7 misses)."""
    g = game
    drv, foot = setup(g, [("E8", S), ("G8", S)])
    _jeep(g, "E8", drv)
    ger = add_german(g, "p_vehicle", "H8")
    assert g.can_see(ger, foot)
    rounds(g)
    force(g, [0, hit] + [0] * 8)
    first = len(g.log)
    g.german_turn(ger)
    evs = [e.to_dict() for e in g.log[first:]]
    (fv,) = of(evs, "fire_vehicle")
    assert fv["vehicle"] == "V1" and fv["to_hit"] == 6 and fv["shooter"] == ger.name
    assert (fv["result"] == "miss") is missed
    assert not of(evs, "fire")


def test_panzerfaust_nearest_visible_fires_at_the_soldier_and_no_vehicle_is_skipped(game):
    """The excluded cases: ``nearest_visible`` takes the nearer man on foot (US2 at G8), and
    ``nearest_vehicle`` with no US vehicle on the map is skipped though a soldier is in sight."""
    g = game
    drv, foot = setup(g, [("E8", S), ("G8", S)])
    _jeep(g, "E8", drv)
    ger = add_german(g, "p_nearest", "H8")
    rounds(g)
    force(g, [0, 9] + [0] * 8)
    first = len(g.log)
    g.german_turn(ger)
    (f,) = of([e.to_dict() for e in g.log[first:]], "fire")
    assert f["target"] == foot.name
    setup(g, [("G8", S)])
    g.state.vehicles[0].hex = -1
    g.invalidate()
    ger = add_german(g, "p_vehicle", "H8")
    evs = turn(g, ger, [0])
    assert not of(evs, "fire_vehicle") and of(evs, "german_skip")[0]["action"] == "fire"


# ------------------------------------------------------------------ the sniper's selector
@pytest.mark.parametrize(
    "card, hit, target, result_miss",
    [
        ("p_nco", 7, "US1", False),
        ("p_nco", 8, "US1", True),
        ("p_near_rifle", 9, "US3", True),
    ],
)
def test_nco_first_takes_the_sergeant_over_a_nearer_private(game, card, hit, target, result_miss):
    """⚙ ``nco_first``: a commander (CR 1 or more) before any private, then the nearest. A
    sniper (WS 2) at R8 sees down the road the sergeant US1 (CR 2) at I8, 9 hexes, and the
    private US3 at M8, 5 hexes; ``nearest_visible`` takes the private (excluded case).
    To-hit at the sergeant (RULES.md §8): the bolt rifle's 4 at 7-10 hexes, +1 standing,
    +2 WS = 7: a 7 hits, an 8 misses."""
    g = game
    sgt, cpl, pvt = setup(g, [("I8", S), ("A1", S), ("M8", S)])
    cpl.hex = -1  # the corporal (CR 1) off the map
    g.invalidate()
    ger = add_german(g, card, "R8")
    assert sgt.CR == 2 and pvt.CR == 0
    assert g.can_see(ger, sgt) and g.can_see(ger, pvt)
    evs = turn(g, ger, [0, hit] + ([] if result_miss else [0]))
    (f,) = of(evs, "fire")
    assert f["target"] == target
    if card == "p_nco":
        assert f["to_hit"] == 7
    assert (f["result"] == "miss") is result_miss


# ------------------------------------------------------------------ the sniper slips away
def _seen(g: Game, h: int, us: list) -> int:
    return sum(g.sight.can_see(o.hex, h, o.stance, S) for o in us)


@pytest.mark.parametrize("card, goal, seen", [("p_conceal", "L6", 0), ("p_cover", "L7", 1)])
def test_concealed_moves_out_of_every_us_soldiers_sight(game, card, goal, seen):
    """seed 004 sight, RULES.md §14 goals: a sniper at K9 seen by US1 at I7. ``move {toward:
    concealed, max: 3}`` takes the farmhouse hex L6, which US1 does not see (the walls and
    the house itself block the line, seed 004); ``move {toward: cover}`` stops at the first
    cover his MPs allow, L7, which US1 sees through its west window (excluded case)."""
    g = game
    us = setup(g, [("I7", S)])
    ger = add_german(g, card, "K9")
    assert _seen(g, ger.hex, us) == 1
    turn(g, ger, [0])
    assert g.board.label(ger.hex) == goal and _seen(g, ger.hex, us) == seen


@pytest.mark.parametrize("wounded, goal, near", [(False, "L7", 3), (True, "L10", 6)])
def test_concealed_on_self_preservation_never_steps_nearer(game, wounded, goal, near):
    """RULES.md §14 with :func:`ambush_env.core.play.german._move`: a sniper at K9, 4 hexes from
    US1 at K5, who sees him. Aware, ``move {toward: concealed, max: 3}`` hides in the
    farmhouse L7 (US1 does not see into it), 3 hexes from US1: nearer. Wounded, on the
    Self-Preservation column (MV 2, seed 002 p. 26), the same move may not enter a hex
    nearer US1 than 4, and he goes south out of sight instead, by L9 to L10 (6 hexes off)."""
    g = game
    b = g.board
    us = setup(g, [("K5", S)])
    ger = add_german(g, "p_conceal", "K9")
    if wounded:
        ger.wounded = True
        ger.MV = g.tables.damage.wounded.mv
    assert _seen(g, ger.hex, us) == 1 and b.distance(ger.hex, us[0].hex) == 4
    evs = turn(g, ger, [0])
    assert of(evs, "german_card")[0]["column"] == ("self_preservation" if wounded else "aware")
    assert b.label(ger.hex) == goal and _seen(g, ger.hex, us) == 0
    assert b.distance(ger.hex, us[0].hex) == near
    if wounded:
        assert all(b.distance(b.index(e["to"]), us[0].hex) >= 4 for e in of(evs, "move"))


# ------------------------------------------------------------------ satchel charges
@pytest.mark.parametrize("throw, destroyed", [(5, True), (6, False)])
def test_satchel_prepared_then_set_against_the_farmhouse_wall(game, throw, destroyed):
    """RULES.md §6 (prepare a satchel: standing, a turn's action), §9 (the throw: a PC check,
    a failed one scatters by Diagram A next to the target), seed 002 p. 26 (a satchel set
    against a wall destroys it). A prone German at K8 with a satchel, US1 inside the
    farmhouse L7 beyond the blank stone wall K8/L7. Turn 1: he stands (free) and prepares it.
    Turn 2: the throw, PC 5: a 5 sets it against the wall, which is destroyed (US1 rolls on
    the destroyed-wall row: a 0); a 6 fails, scatters "ahead" (Diagram A 0) into the yard M7,
    empty, and the wall stands."""
    g = game
    setup(g, [("L7", S)])
    ger = add_german(g, "p_satchel", "K8", stance=P)
    evs = turn(g, ger, [0])
    assert [e["type"] for e in evs][:3] == ["german_card", "stance", "prepare"]
    assert ger.satchel_ready and ger.stance == S and "satchel" in ger.equipment
    evs = turn(g, ger, [0, throw] + ([0] if destroyed else [0]))
    (th,) = of(evs, "throw")
    assert th["target"] == "L7" and th["need"] == 5
    assert bool(of(evs, "wall_destroyed")) is destroyed
    assert th["landing"] == ("L7" if destroyed else "M7")
    assert "satchel" not in ger.equipment


def test_satchel_building_with_us_is_skipped_with_the_us_in_the_open(game):
    """The excluded case: no US soldier in a building within 3 hexes, so the satchel action
    neither prepares nor throws (``german_skip``)."""
    g = game
    setup(g, [("L9", S)])
    ger = add_german(g, "p_satchel", "K8")
    evs = turn(g, ger, [0])
    assert not ger.satchel_ready and not of(evs, "prepare")
    assert of(evs, "german_skip")[-1]["action"] == "throw_satchel"


@pytest.mark.parametrize("german_at_n9, target", [(False, "N9"), (True, "L9")])
def test_satchel_largest_group_never_where_a_german_stands(game, german_at_n9, target):
    """RULES.md §9: a prepared satchel from K9 at the largest group within 3 hexes — US2 and
    US3 at N9 (3 hexes) before US1 at L9 (1 hex); ⚙ never a hex where a German stands, so
    with a rifleman at N9 it goes to L9. The throw roll 0 passes; each man in the hex rolls
    on the Satchel Outside row (0: no effect)."""
    g = game
    setup(g, [("L9", S), ("N9", S), ("N9", S)])
    ger = add_german(g, "p_satchel_group", "K9")
    ger.satchel_ready = True
    if german_at_n9:
        add_german(g, "rifleman", "N9")
    evs = turn(g, ger, [0, 0] + [0] * (2 if target == "N9" else 1))
    (th,) = of(evs, "throw")
    assert th["target"] == target and th["landing"] == target
    assert len(of(evs, "blast")) == (2 if target == "N9" else 1)


def test_satchel_nearest_vehicle_disables_the_jeep(game):
    """seed 000 p. 32-33: a satchel charge in a car's hex disables it. The prepared satchel
    of a German at K9 goes at the US jeep V1 at L9 (US1 driving); the throw roll 0 passes,
    the jeep is disabled and US1, put out, rolls the blast (0: none)."""
    g = game
    (drv,) = setup(g, [("L9", S)])
    _jeep(g, "L9", drv)
    ger = add_german(g, "p_satchel_vehicle", "K9")
    ger.satchel_ready = True
    evs = turn(g, ger, [0, 0, 0])
    (th,) = of(evs, "throw")
    assert th["target"] == "L9"
    assert of(evs, "vehicle_disabled")[0]["vehicle"] == "V1"
    assert g.state.vehicles[0].disabled


# ------------------------------------------------------------------ the card language
@pytest.mark.parametrize(
    "action, problem",
    [
        ({"throw_satchel": {"at": "largest_group"}}, "carries no satchel"),
        ({"fire": {"mode": "snap", "at": "wall_of_building_with_us"}}, "aimed fire"),
        ({"snap_fire": {"at": "wall_of_building_with_us"}}, "snap_fire"),
        ({"throw_satchel": {"within": 4}}, "within"),
        ({"move": {"toward": "hidden"}}, "toward"),
    ],
)
def test_bad_new_actions_are_data_errors(tmp_path, action, problem):
    """The loader refuses what the interpreter cannot do, naming the file and field: a satchel
    throw by a card without a satchel, fire at a wall as snap fire, a satchel beyond 3 hexes
    (RULES.md §9), an unknown move goal."""
    raw = yaml.safe_load(data_path("cards/regular.yaml").read_text(encoding="utf-8"))
    raw["id"] = "bad"
    raw["cards"].append(_probe("p_bad", "kar98", [action]))
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_deck(path)
    msg = str(err.value)
    assert "bad.yaml" in msg and f"cards.{len(raw['cards']) - 1}" in msg and problem in msg


# ------------------------------------------------------------------ the shipped cards
NEW_CARDS = ("officer", "sniper", "panzerfaust", "panzerschreck")


def _actions(deck: Deck, card: str, column: str) -> list[tuple[str, dict]]:
    return [german.normalize(a) for row in getattr(deck.card(card).columns, column) for a in row.do]


@pytest.mark.parametrize("name", ("green", "regular", "veteran"))
def test_every_deck_has_the_new_cards_using_the_new_verbs(name):
    """Issue 13: an officer (alerts the Germans around him, surrenders readily), a sniper
    (aimed fire at the NCOs first, slips out of sight), the Panzerfaust and Panzerschreck men
    (fire at US vehicles first, then at the wall the US hide behind)."""
    deck = load_deck(name)
    assert set(NEW_CARDS) <= set(deck.card_ids)
    assert deck.card("sniper").weapon == "kar98_zf"
    assert deck.card("panzerfaust").weapon == "panzerfaust"
    assert deck.card("panzerschreck").weapon == "panzerschreck"
    off = _actions(deck, "officer", "aware")
    assert any(n == "alert" for n, _ in off)
    sn = _actions(deck, "sniper", "aware")
    assert any(n == "fire" and a.get("at") == "nco_first" for n, a in sn)
    assert any(n == "move" and a.get("toward") == "concealed" for n, a in sn)
    for card in ("panzerfaust", "panzerschreck"):
        at = [a.get("at") for n, a in _actions(deck, card, "aware") if n == "fire"]
        assert "nearest_vehicle" in at and "wall_of_building_with_us" in at, (name, card)

    # the officer surrenders more readily than the rifleman beside him
    def faces(card: str) -> int:
        return sum(
            r.rolls[1] - r.rolls[0] + 1
            for r in deck.card(card).columns.self_preservation
            if any(german.normalize(a)[0] == "surrender" for a in r.do)
        )

    assert faces("officer") > faces("rifleman")


# ------------------------------------------------------------------ the shipped officer
def _regular() -> Game:
    from engine_helpers import fresh_game

    return fresh_game()


@pytest.mark.parametrize("far, woken", [("J3", True), ("J2", False)])
def test_the_officer_alerts_the_germans_within_six_hexes(far, woken):
    """RULES.md §14 ``alert {radius: 6}`` (regular officer, Aware 0-2, then aimed fire): an
    officer at J9 with no US soldier in sight (US1 at A1) wakes an unaware rifleman 6 hexes
    off at J3, not one 7 hexes off at J2; the fire that follows has no target and is skipped."""
    g = _regular()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    off = add_german(g, "officer", "J9")
    rifle = add_german(g, "rifleman", far, aware=False)
    assert g.board.distance(off.hex, rifle.hex) == (6 if woken else 7)
    evs = turn(g, off, [0])
    (al,) = of(evs, "alert")
    assert (rifle.name in al["made_aware"]) is woken and rifle.aware is woken
    assert of(evs, "german_skip")[-1]["action"] == "fire" and not of(evs, "fire")


@pytest.mark.parametrize(
    "card, roll, captured", [("officer", 4, True), ("rifleman", 4, False), ("officer", 7, False)]
)
def test_the_officer_surrenders_more_readily_than_a_rifleman(card, roll, captured):
    """RULES.md §10, §14 (regular deck): outnumbered three to one with US1 in his hex (P5),
    the officer's Self-Preservation faces 0-6 surrender; the rifleman's 4 is a move away
    (he surrenders on 6-7 only), and the officer's 7 takes cover (excluded cases)."""
    g = _regular()
    clear_board(g, keep=3)
    for k, lbl in enumerate(("P5", "P6", "Q5")):
        put(g, k, lbl)
    ger = add_german(g, card, "P5")
    rounds(g)
    force(g, [roll] + [0] * 6)
    first = len(g.log)
    g.german_turn(ger)
    evs = [e.to_dict() for e in g.log[first:]]
    assert of(evs, "german_card")[0]["column"] == "self_preservation"
    assert (ger.status == Status.CAPTURED) is captured
