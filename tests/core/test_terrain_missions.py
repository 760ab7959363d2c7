"""The three terrain missions of issue 13 (hedgerow_crossing, village_fight, crossroads_ambush)
are real missions (RULES.md §15) and are built as their headers say: the banks and the crest of
the hedgerows, the village's walls, steeple and blocking lime tree, the ambushed car's arrival
(seed 004 sight rows, seed 000 p. 32 German vehicles). Sight is asserted on both sides of each
blocker: the line it blocks and the line it lets through."""

from __future__ import annotations

import pytest

from ambush_env.core import Game
from ambush_env.core.world.board import load_board
from ambush_env.core.world.cards import load_deck
from ambush_env.core.world.los import line_of_sight
from ambush_env.core.world.missions import MAPS_DIR, PlaceVehicle, list_missions, load_mission

MISSIONS = ("hedgerow_crossing", "village_fight", "crossroads_ambush")


@pytest.mark.parametrize("mission", MISSIONS)
def test_meets_rules_15_minimums(mission):
    """RULES.md §15: at least three German placements from different paragraphs, ten trigger
    hexes, an event table over the whole d10; placed cards are in the mission's deck; a
    passive squad (0 VP) loses."""
    assert mission in list_missions()
    m = load_mission(mission)
    placed = [(n, e.card) for n, e in m.placements()]
    placed += [
        (n, c)
        for n, para in m.paragraphs.items()
        for e in para
        if isinstance(e, PlaceVehicle)
        for c in (e.driver, *e.passengers)
        if c
    ]
    assert len({n for n, _ in placed}) >= 3
    assert sum(1 for t in m.triggers.values() if not t.is_event) >= 10
    assert sum(1 for t in m.triggers.values() if t.is_event) >= 10
    faces = sorted(r for row in m.events for r in range(row.rolls[0], row.rolls[1] + 1))
    assert faces == list(range(10))
    deck = {c.id for c in load_deck(m.deck_default).cards}
    assert {c for _, c in placed} <= deck
    assert len(m.briefing) > 300
    assert m.results.draw > 0 and m.result_for(0).name == "LOSS"


def _sight(mission, a, b, **kw):
    board = load_board(MAPS_DIR / f"{mission}.yaml")
    return line_of_sight(board, a, b, **kw)


@pytest.mark.parametrize(
    "a,b,clear,blocked_by",
    [
        # a man in the hedge on top of the first bank looks down over the High Field ...
        ("C5", "G5", True, None),
        # ... one back from it on the ridge sees nothing down there: the bank (counted at the
        # ridge's level 2) is not a side of his hex (seed 004, embankment)
        ("B7", "F7", False, "C7/D7"),
        # the MG corner of the Low Field sees the foot of the second bank, not the High Field above
        ("L4", "H4", True, None),
        ("L4", "F4", False, "H4/I5"),
        # the Butte's crest blocks even from a hex it borders (seed 004, crest) ...
        ("O6", "P6", False, "O6/P6"),
        ("O5", "Q5", False, "O5/P4"),
        # ... while the plain west flank lets the top see down the lane to the east gate
        ("N7", "K7", True, None),
    ],
)
def test_hedgerow_banks_and_crest(a, b, clear, blocked_by):
    """Seed 004 embankments and crests on the hedgerow_crossing map (its header)."""
    r = _sight("hedgerow_crossing", a, b)
    assert (r.clear, r.blocked_by) == (clear, blocked_by)
    assert _sight("hedgerow_crossing", b, a).clear is clear  # reciprocal (RULES.md §3)


def test_hedgerow_banks_fall_eastward():
    """The ground falls at both banks (2 -> 1 -> 0), so a bank costs 2 MPs going down (clear
    1 + embankment 1) and 4 coming back up through the hedge (brush 2 + a level 1 +
    embankment 1), RULES.md §6."""
    from ambush_env.core.rules.movement import step_cost

    g = Game.from_position(
        "mission: hedgerow_crossing\nunits:\n  - {name: US1, hex: C6}\n  - {name: US2, hex: D6}\n"
    )
    b = g.board
    us1, us2 = g.state.units[0], g.state.units[1]
    assert [b.level[b.index(x)] for x in ("B6", "D6", "I6")] == [2, 1, 0]
    assert step_cost(g, us1, b.index("C6"), b.index("D6")) == 2
    assert step_cost(g, us2, b.index("D6"), b.index("C6")) == 4


@pytest.mark.parametrize(
    "a,b,landmarks,clear,blocked_by",
    [
        # the lime tree on the crossing hides the two halves of the Grande Rue from each other,
        # as the mission declares it (rules.blocking_landmarks) ...
        ("C7", "P7", ("I7",), False, "I7"),
        # ... and blocks nothing when it is not declared (RULES.md §3: landmarks block only then)
        ("C7", "P7", (), True, None),
        # the church stands between the churchyard and the street: the steeple K5 is the first
        # building hex the line meets (a building at or above both endpoints' level blocks)
        ("K4", "K8", ("I7",), False, "K5"),
        # the Dumas house sees the Place through its south-east window, not the street behind the
        # bakery
        ("H6", "I8", ("I7",), True, None),
        ("H6", "E7", ("I7",), False, "F6"),
    ],
)
def test_village_sight(a, b, landmarks, clear, blocked_by):
    """Seed 004 buildings, apertures and landmarks on the village_fight map (its header)."""
    r = _sight("village_fight", a, b, blocking_landmarks=landmarks)
    assert (r.clear, r.blocked_by) == (clear, blocked_by)


def test_village_mission_declares_the_lime_tree_blocking():
    m = load_mission("village_fight")
    board = load_board(MAPS_DIR / "village_fight.yaml")
    assert tuple(m.rules.blocking_landmarks) == ("I7",)
    assert board.landmark[board.index("I7")] == "lime_tree"
    assert board.rise[board.index("K5")] == 2 and board.rise[board.index("K6")] == 0


@pytest.mark.parametrize(
    "start,order,legal",
    [
        ("J6", "US1 move NE to K6", True),  # the nave's door on the Place (K6/J6)
        ("K7", "US1 move N to K6", True),  # its door on the street (K6/K7)
        ("L6", "US1 move NW to K6", True),  # its south-east window: climbed (+2 MPs)
        ("J5", "US1 move NE to K5", False),  # the steeple's blank wall on the Place side
        ("L5", "US1 move NW to K5", False),  # and on the east side
    ],
)
def test_village_church_doors_and_walls(start, order, legal):
    """RULES.md §2/§6: the church is entered by its doors and windows; its blank walls cannot
    be crossed (tests/core/test_result_bands_village_fight.py blows one in with a satchel)."""
    g = Game.from_position(f"mission: village_fight\nunits:\n  - {{name: US1, hex: {start}}}\n")
    assert (order in g.legal_orders()) is legal


def test_crossroads_car_arrives_on_its_route():
    """Seed 000 p. 32: entering the hedges (paragraph 20) brings the Kübelwagen on at the north
    edge, its driver and two passengers aboard; unwarned (an activation roll of 5-9) it comes
    unaware with the route of paragraph 23 (I7, R7); warned (0-4) a motorcycle outrider leads."""
    m = load_mission("crossroads_ambush")
    cars = {n: [e for e in para if isinstance(e, PlaceVehicle)] for n, para in m.paragraphs.items()}
    (car,) = cars[23]
    assert (car.vehicle, car.hex, car.driver, tuple(car.passengers)) == (
        "kubelwagen",
        "I1",
        "rifleman",
        ("officer", "nco_smg"),
    )
    assert not car.aware and tuple(car.route) == ("I7", "R7")
    assert [e.vehicle for e in cars[24]] == ["kubelwagen", "motorcycle"]
    assert all(e.aware for e in cars[24])
    assert {h for h, t in m.triggers.items() if t.paragraph == 20} >= {"H9", "H10", "I10"}
