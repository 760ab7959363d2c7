"""The German card interpreter (RULES.md §14) with the regular deck."""

from __future__ import annotations

import pytest
from engine_helpers import add_german, clear_board, force, fresh_game, put, rounds

from ambush_env.core.model.types import Stance, Status, Terrain
from ambush_env.core.play import german
from ambush_env.core.rules import prisoners


def _events(g, kind):
    return [e.to_dict() for e in g.log if e.type == kind]


def test_column_choice_unaware_aware_self_preservation():
    """RULES.md §14: Unaware / Aware by awareness; Self-Preservation when wounded or
    outnumbered (⚙ 3 to 1 within 2 hexes, data/rules.yaml)."""
    g = fresh_game()
    clear_board(g, keep=3)
    put(g, 0, "A1")
    put(g, 1, "A3")
    put(g, 2, "A5")
    ger = add_german(g, "rifleman", "P5", aware=False)
    assert german.column_for(g, ger) == "unaware"
    ger.aware = True
    assert german.column_for(g, ger) == "aware"
    ger.wounded = True
    assert german.column_for(g, ger) == "self_preservation"
    ger.wounded = False
    for k, lbl in enumerate(("O5", "P6", "Q5")):
        put(g, k, lbl)
    assert prisoners.outnumbered(g, ger)
    assert german.column_for(g, ger) == "self_preservation"
    put(g, 2, "A5")  # two to one is not enough
    assert not prisoners.outnumbered(g, ger)


def test_roll_selects_the_entry_and_actions_run_in_order():
    """RULES.md §14: roll a d10 on the column; the entry's actions run in order. Rifleman,
    unaware, 7-8: crouch, then hold."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    ger = add_german(g, "rifleman", "P5", aware=False)
    force(g, [7])
    g.german_turn(ger)
    (card,) = _events(g, "german_card")
    assert card["roll"] == 7 and card["column"] == "unaware"
    assert card["actions"] == ["stance", "hold"]
    assert ger.stance == Stance.CROUCHING


@pytest.mark.parametrize("hit_roll, hit", [(None, True), (9, False)])
def test_aware_rifleman_fires_at_most_exposed(hit_roll, hit):
    """RULES.md §14: ``fire {mode: aimed, at: most_exposed}`` picks the visible US soldier in
    the most exposed stance (standing before crouching before prone), then RULES.md §8."""
    g = fresh_game()
    clear_board(g, keep=2)
    prone = put(g, 0, "J4", Stance.PRONE)
    standing = put(g, 1, "J5", Stance.STANDING)
    ger = add_german(g, "rifleman", "J2")
    assert g.can_see(ger, prone) and g.can_see(ger, standing)
    rounds(g)
    rolls = [2]  # aware 2-4: fire aimed at most_exposed
    rolls += [0, 0] if hit else [hit_roll]
    force(g, rolls + [0] * 4)
    g.german_turn(ger)
    (shot,) = _events(g, "fire")
    assert shot["target"] == standing.name
    assert shot["to_hit"] < 9  # so a 9 misses and a 0 hits
    assert (shot["result"] != "miss") is hit


def test_action_that_cannot_run_is_skipped():
    """RULES.md §14: an action that cannot run is skipped (no visible target to fire at)."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")  # out of the rifleman's sight in the wood
    ger = add_german(g, "rifleman", "Q4")
    rounds(g)
    force(g, [5])  # aware 5-6: snap fire at nearest visible
    g.german_turn(ger)
    assert _events(g, "fire") == []
    assert _events(g, "german_skip")[0]["action"] == "fire"


def test_move_to_cover_prefers_cover_terrain():
    """RULES.md §14: ``move {toward: cover}`` goes to the best cover within MV."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    ger = add_german(g, "rifleman", "O7")
    rounds(g)
    ger.wounded = True  # self-preservation column
    force(g, [0])  # 0-2: move to cover max 2, then prone
    g.german_turn(ger)
    assert g.board.terrain[ger.hex] in (
        Terrain.WOODS,
        Terrain.BUILDING,
        Terrain.RUBBLE,
        Terrain.BRUSH,
    )
    assert ger.stance == Stance.PRONE


def test_surrender_when_outnumbered():
    """RULES.md §10/§14: on a Self-Preservation result a German may surrender when outnumbered
    3 to 1; he is captured (prone, inactive) by the US soldier in his hex."""
    g = fresh_game()
    clear_board(g, keep=3)
    for k, lbl in enumerate(("P5", "P6", "Q5")):
        put(g, k, lbl)
    ger = add_german(g, "rifleman", "P5")
    rounds(g)
    force(g, [6])  # self-preservation 6-7: surrender if outnumbered
    g.german_turn(ger)
    assert ger.status == Status.CAPTURED and ger.stance == Stance.PRONE
    assert g.vp == g.mission.vp.german_captured


def test_no_surrender_without_a_us_soldier_in_his_hex():
    """RULES.md §10 ⚙ with seed 002 p. 25: a prisoner with no active US soldier in his hex is
    free at once, so a German surrenders only to a US soldier in his hex."""
    g = fresh_game()
    clear_board(g, keep=3)
    for k, lbl in enumerate(("O5", "P6", "Q5")):
        put(g, k, lbl)
    ger = add_german(g, "rifleman", "P5")
    assert prisoners.outnumbered(g, ger)
    rounds(g)
    force(g, [6])  # self-preservation 6-7: surrender if outnumbered, else prone, hold
    g.german_turn(ger)
    assert ger.status == Status.ACTIVE
    assert _events(g, "german_skip")[0]["action"] == "surrender"


def test_no_surrender_when_not_outnumbered():
    """RULES.md §10: two to one is not enough; the entry falls through to 'prone, hold'."""
    g = fresh_game()
    clear_board(g, keep=2)
    put(g, 0, "O5")
    put(g, 1, "P6")
    ger = add_german(g, "rifleman", "P5")
    ger.wounded = True
    rounds(g)
    force(g, [6])
    g.german_turn(ger)
    assert ger.status == Status.ACTIVE
    assert _events(g, "german_skip")[0]["action"] == "surrender"
