"""The mission language (issue 13; RULES.md §15, §3, §5, §7): landmarks declared by
paragraphs, artillery and strafing strikes, booby traps as map features, random event
checks, command overrides, night sight caps, time limits and result bands — each effect run
with forced dice and its exact outcome asserted, the excluded cases included.

The missions are variants of the reference mission (``farm_assault``, an 18 x 14 map) with
the keys under test added (:func:`variant`); its hexes D6, D7, D8 are clear ground at level
0 in one column, so D6 sees D8 across D7 until something blocks D7.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from engine_helpers import add_german, clear_board, force, put, resolve, run_paragraph
from ambush_env.core import Game
from ambush_env.core.errors import DataError
from ambush_env.core.los import SightCache, line_of_sight
from ambush_env.core.missions import Mission, load_mission
from ambush_env.core.types import Side, Stance, Status


# ------------------------------------------------------------------------------ helpers
def _variant_dict(extra: str) -> dict:
    d = load_mission("farm_assault").model_dump(by_alias=True, mode="json")
    changes = json.loads(extra)
    for key, value in changes.items():
        if key in ("paragraphs", "triggers", "rules"):
            d[key] = {**d[key], **value}
        else:
            d[key] = value
    return d


@functools.lru_cache(maxsize=32)
def _variant(extra: str) -> Mission:
    return Mission.model_validate(_variant_dict(extra))


def variant(**changes) -> Mission:
    """farm_assault with ``changes``: ``paragraphs`` / ``triggers`` / ``rules`` entries are
    added to the mission's own, any other key replaces it."""
    return _variant(json.dumps(changes, sort_keys=True))


@functools.lru_cache(maxsize=32)
def _game(extra: str) -> Game:
    return Game(_variant(extra), seed=0)


def game(**changes) -> Game:
    """A reset game of :func:`variant` ``(**changes)`` (one per variant and process)."""
    g = _game(json.dumps(changes, sort_keys=True))
    g.reset(seed=0)
    return g


def events(g: Game, kind: str) -> list[dict]:
    return [e.to_dict() for e in g.log if e.type == kind]


def hx(g: Game, label: str) -> int:
    return g.board.index(label)


LANDMARK = {"paragraphs": {"90": [{"landmark": {"hex": "D7", "name": "steeple",
                                                "blocking": True}}],
                           "91": [{"landmark": {"hex": "D7", "name": "well"}}]},
            "triggers": {"C3": 90, "C4": 91}}


# ------------------------------------------------------------------------------ landmarks
def test_blocking_landmark_effect_blocks_sight_from_then_on():
    """RULES.md §3 / seed 004 p. 18: a landmark blocks sight when a paragraph declares it
    blocking; it appears in the state and blocks both ways (sight is reciprocal), in every
    pair of stances, for the US soldier and the German alike."""
    g = game(**LANDMARK)
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    ger = add_german(g, "rifleman", "D8")
    for a in range(3):
        for b in range(3):
            assert g.sight.can_see(us.hex, ger.hex, a, b)
    assert g.can_see(us, ger) and g.can_see(ger, us)
    run_paragraph(g, 90, us)
    assert g.state.landmarks == [(hx(g, "D7"), "steeple", True)]
    assert events(g, "landmark") == [{"type": "landmark", "hex": "D7", "name": "steeple",
                                      "blocking": True}]
    assert not g.can_see(us, ger) and not g.can_see(ger, us)
    for a in range(3):
        for b in range(3):
            assert not g.sight.can_see(us.hex, ger.hex, a, b)
    # lines that do not cross D7 are as before
    assert g.sight.can_see(hx(g, "D6"), hx(g, "D5")) == g.ctx.sight.can_see(hx(g, "D6"), hx(g, "D5"))
    # the exact line agrees and names the landmark's hex as the blocker
    r = line_of_sight(g.board, "D6", "D8", landmark_hexes=["D7"])
    assert (r.clear, r.blocked_by) == (False, "D7")
    assert line_of_sight(g.board, "D6", "D8").clear


def test_non_blocking_landmark_changes_no_sight():
    """RULES.md §3: landmarks block only when declared blocking; a plain one is recorded."""
    g = game(**LANDMARK)
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    ger = add_german(g, "rifleman", "D8")
    run_paragraph(g, 91, us)
    assert g.state.landmarks == [(hx(g, "D7"), "well", False)]
    assert g.sight is g.ctx.sight and g.can_see(us, ger)


def test_second_landmark_on_a_hex_replaces_the_first():
    """⚙ one landmark a hex (paragraphs.py ``_landmark``): the well replaces the steeple,
    and sight through D7 is clear again."""
    g = game(**LANDMARK)
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    ger = add_german(g, "rifleman", "D8")
    run_paragraph(g, 90, us)
    run_paragraph(g, 91, us)
    assert g.state.landmarks == [(hx(g, "D7"), "well", False)]
    assert g.can_see(us, ger)


def test_landmark_leaves_the_context_unchanged():
    """The context is shared and immutable: a landmark of one game is that game's state; a
    second game on the same context still sees through D7."""
    g = game(**LANDMARK)
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    run_paragraph(g, 90, us)
    other = Game(ctx=g.ctx, seed=1)
    assert other.state.landmarks == []
    assert other.sight is g.ctx.sight
    assert g.ctx.sight.can_see(hx(g, "D6"), hx(g, "D8"))
    assert not g.sight.can_see(hx(g, "D6"), hx(g, "D8"))


def test_derived_sight_equals_a_full_build():
    """The derived cache (``SightCache.with_landmark_hexes``, recomputing only the lines
    through D7) equals a cache built from scratch with the landmark, for all 9 stance pairs."""
    g = game(**LANDMARK)
    d7 = hx(g, "D7")
    derived = g.ctx.sight.with_landmark_hexes({d7})
    full = SightCache(g.board, landmark_hexes={d7})
    for a in range(3):
        for b in range(3):
            assert np.array_equal(derived.matrix(a, b), full.matrix(a, b))
    assert not np.array_equal(derived.matrix(), g.ctx.sight.matrix())
    back = derived.with_landmark_hexes(())  # and back again: the map's own sight
    assert np.array_equal(back.matrix(), g.ctx.sight.matrix())


def test_landmark_follows_the_live_board():
    """A derived cache follows the shared board's mutations like the context's own: a wall
    destroyed after the landmark appeared is seen through by both."""
    g = game(**LANDMARK)
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    run_paragraph(g, 90, us)
    b = g.board
    wall = next(s for s in range(3 * b.n) if b.intact_wall(s))
    i, j = b.side_hexes(wall)
    g.sight.matrix()  # brought up to the board before the wall goes
    b.destroy_wall(i, j)
    try:
        full = SightCache(b, landmark_hexes={hx(g, "D7")})
        for st in range(3):
            assert np.array_equal(g.sight.matrix(st, st), full.matrix(st, st))
        assert not np.array_equal(g.ctx.sight.matrix(), full.matrix())  # the landmark still
    finally:
        g.reset(seed=0)


def test_landmark_round_trips_through_positions_and_clones():
    """Positions carry ``landmarks`` (written only when there is one: other positions are
    written as before); a clone's landmarks are its own."""
    g = game(**LANDMARK)
    assert "landmarks" not in g.position()
    clear_board(g, keep=1)
    us = put(g, 0, "D6")
    run_paragraph(g, 90, us)
    p = g.position()
    assert p["landmarks"] == [{"hex": "D7", "name": "steeple", "blocking": True}]
    h = Game.from_position(p, ctx=g.ctx)  # (advanced to its first decision: US1's turn)
    q = h.position()
    assert q["landmarks"] == p["landmarks"]
    assert Game.from_position(q, ctx=g.ctx).position() == q
    assert h.state.landmarks == g.state.landmarks
    assert not h.sight.can_see(hx(g, "D6"), hx(g, "D8"))
    fresh = Game.from_position(q)  # a context of its own
    assert fresh.position() == q and not fresh.sight.can_see(hx(g, "D6"), hx(g, "D8"))
    c = g.state.clone()
    c.landmarks.clear()
    assert g.state.landmarks


def test_position_landmarks_malformed():
    """A landmark off the map, or two on one hex, is a DataError naming the field."""
    g = game(**LANDMARK)
    p = g.position()
    p["landmarks"] = [{"hex": "Z99", "name": "x"}]
    with pytest.raises(DataError, match="landmarks.0.hex"):
        Game.from_position(p, ctx=g.ctx)
    p["landmarks"] = [{"hex": "D7", "name": "x"}, {"hex": "D7", "name": "y"}]
    with pytest.raises(DataError, match="landmarks.1.hex"):
        Game.from_position(p, ctx=g.ctx)


# ------------------------------------------------------------------------------ strikes
STRIKES = {"paragraphs": {
    "92": [{"strike": {"kind": "artillery", "hexes": ["D6", "D8"], "row": "grenade_outside"}}],
    "93": [{"strike": {"kind": "strafing", "hexes": ["D6", "L6"], "row": "grenade_outside"}}],
    "94": [{"strike": {"kind": "artillery", "hexes": ["L6"], "row": "grenade_outside"}}],
    "95": [{"strike": {"kind": "strafing", "hexes": ["D5", "D9"], "row": "grenade_outside",
                       "line": True}}],
    "96": [{"strike": {"kind": "artillery", "hexes": ["A8", "D9"], "row": "grenade_outside"}}],
    "97": [{"strike": {"kind": "strafing", "hexes": ["A8", "D9"], "row": "grenade_outside"}}]},
    "triggers": {"C5": 92, "C6": 93, "C7": 94, "C8": 95, "C9": 96, "C10": 97},
    "german_vehicles": [{"vehicle": "kubelwagen", "hex": "K8", "facing": "SE"},
                        {"vehicle": "panzer_iv", "hex": "D9", "facing": "N",
                         "card": "panzer_iv", "crew": 5}]}
# grenade_outside: [none, none, none, panic, panic, wound, wound, incapacitated, incapacitated, kill]


def _strike_game():
    """Three US soldiers kept, out of every struck hex (A1-A3) until a test puts them."""
    g = game(**STRIKES)
    clear_board(g, keep=3)
    for k in range(3):
        put(g, k, f"A{k + 1}")
    return g


def test_artillery_hits_both_sides_in_the_struck_hexes_only():
    """RULES.md §15 artillery (module ``strikes`` ⚙): every soldier in a struck hex, US and
    German, rolls once on the row, in hex order then unit order; prone at −2 (RULES.md §9);
    a soldier in a hex next to them is untouched (no die is rolled for him)."""
    g = _strike_game()
    us1, us2, us3 = put(g, 0, "D6"), put(g, 1, "D7"), put(g, 2, "D6", Stance.PRONE)
    ger = add_german(g, "rifleman", "D8", stance=Stance.PRONE)
    force(g, [5, 2, 9])  # US1 5 -> wound; US3 prone 2-2=0 -> none; G prone 9-2=7 -> incapacitated
    run_paragraph(g, 92, None)
    assert events(g, "artillery_strike") == [{"type": "artillery_strike", "hexes": ["D6", "D8"],
                                              "row": "grenade_outside"}]
    hits = [(e["unit"], e["hex"], e["roll"], e["modifier"], e["result"])
            for e in events(g, "strike_hit")]
    assert hits == [("US1", "D6", 5, 0, "wound"), ("US3", "D6", 2, -2, "none"),
                    (ger.name, "D8", 9, -2, "incapacitated")]
    assert us1.wounded and us1.status == Status.ACTIVE
    assert not us3.wounded and us3.status == Status.ACTIVE
    assert ger.status == Status.INCAPACITATED
    assert us2.status == Status.ACTIVE and not us2.wounded
    assert g.state.phase == 0  # ⚙ a strike begins no Rounds by itself (a known German hit)


@pytest.mark.parametrize("roll, result", [(2, "none"), (3, "panic"), (8, "incapacitated"),
                                          (9, "kill")])
def test_artillery_row_thresholds_standing(roll, result):
    """The row's bands on both sides of each threshold (standing: no modifier)."""
    g = _strike_game()
    u = put(g, 0, "D6")
    force(g, [roll])
    run_paragraph(g, 92, None)
    assert [e["result"] for e in events(g, "strike_hit")] == [result]
    expected = {"none": Status.ACTIVE, "panic": Status.ACTIVE,
                "incapacitated": Status.INCAPACITATED, "kill": Status.KILLED}[result]
    assert u.status == expected


def test_strafing_misses_soldiers_inside_buildings_artillery_does_not():
    """⚙ (module ``strikes``): a strafing run does not reach a soldier inside a building hex
    (L6, the farmhouse); artillery does."""
    g = _strike_game()
    out, inside = put(g, 0, "D6"), put(g, 1, "L6")
    force(g, [9])  # only the soldier outside rolls
    run_paragraph(g, 93, None)
    assert [e["unit"] for e in events(g, "strike_hit")] == ["US1"]
    assert out.status == Status.KILLED and inside.status == Status.ACTIVE
    g = _strike_game()
    inside = put(g, 1, "L6")
    force(g, [9])
    run_paragraph(g, 94, None)
    assert [e["unit"] for e in events(g, "strike_hit")] == ["US2"]
    assert inside.status == Status.KILLED


def test_line_strike_covers_the_straight_run():
    """``line: true``: every hex of the straight line between the two ends, in order; a line
    along a hexside takes both nudged traces (RULES.md §3: A2-C2 runs along B1/B2)."""
    from ambush_env.core.strikes import line_hexes

    g = _strike_game()
    lab = g.board.label
    assert [lab(h) for h in line_hexes(g, hx(g, "D5"), hx(g, "D9"))] == ["D5", "D6", "D7", "D8", "D9"]
    assert sorted(lab(h) for h in line_hexes(g, hx(g, "A2"), hx(g, "C2"))) == ["A2", "B1", "B2", "C2"]
    assert [lab(h) for h in line_hexes(g, hx(g, "D5"), hx(g, "D5"))] == ["D5"]
    put(g, 0, "D7")
    put(g, 1, "D4")  # beyond the run's end
    force(g, [6])
    run_paragraph(g, 95, None)
    assert events(g, "strafing_run")[0]["hexes"] == ["D5", "D6", "D7", "D8", "D9"]
    assert [(e["unit"], e["hex"]) for e in events(g, "strike_hit")] == [("US1", "D7")]


@pytest.mark.parametrize("car_roll, disabled", [(6, False), (7, True)])
def test_artillery_on_a_car_and_its_occupants(car_roll, disabled):
    """Seed 000 p. 32-33 read for a strike ⚙: the car rolls on the row and is disabled on
    incapacitated or kill (6 wound: not; 7 incapacitated: disabled, its men put out prone);
    then each man aboard rolls, stance ignored (no prone modifier)."""
    g = _strike_game()
    jeep = g.state.vehicles[0]
    drv = put(g, 0, "A8")
    drv.vehicle, jeep.driver = jeep.vid, drv.uid
    tank = g.state.vehicles[2]
    force(g, [car_roll, 2, 0])  # the jeep, its driver (2: none, no accident check), the tank
    run_paragraph(g, 96, None)
    ev = events(g, "strike_vehicle")
    assert [(e["vehicle"], e["roll"], e["disabled"]) for e in ev] == [
        (jeep.name, car_roll, disabled), (tank.name, 0, False)]
    assert jeep.disabled is disabled
    assert [(e["unit"], e["modifier"]) for e in events(g, "strike_hit")] == [("US1", 0)]
    assert drv.vehicle == (-1 if disabled else jeep.vid)


@pytest.mark.parametrize("roll, disabled", [(8, False), (9, True)])
def test_artillery_disables_a_tank_only_on_a_kill(roll, disabled):
    """⚙ a tank struck by artillery is disabled only on a kill result (8 incapacitated: not;
    9 kill: disabled, its unit out of the game); its crew never rolls as soldiers."""
    g = _strike_game()
    tank = g.state.vehicles[2]
    force(g, [0, roll])  # the jeep (empty, at A8) first, then the tank
    run_paragraph(g, 96, None)
    assert tank.disabled is disabled
    assert g.state.units[tank.unit].status == (Status.REMOVED if disabled else Status.ACTIVE)
    assert events(g, "strike_hit") == []


def test_strafing_never_harms_a_tank():
    """⚙ strafing is rifle-calibre fire: no die for the tank, only for the car."""
    g = _strike_game()
    force(g, [9])  # the jeep only
    run_paragraph(g, 97, None)
    assert [e["vehicle"] for e in events(g, "strike_vehicle")] == [g.state.vehicles[0].name]
    assert not g.state.vehicles[2].disabled and g.state.vehicles[0].disabled


@pytest.mark.parametrize("roll, flushed", [(2, False), (3, True)])
def test_strike_flushes_out_a_hidden_german(roll, flushed):
    """⚙ a hidden German the strike hurts (any result but none) becomes a known contact, and
    Rounds begin when he is still active; unhurt, he stays hidden and Operations go on."""
    g = _strike_game()
    put(g, 0, "A1")
    ger = add_german(g, "rifleman", "D8", aware=False, known=False)
    force(g, [roll] + ([5, 5, 4] if flushed else []))  # his awareness check, initiative
    run_paragraph(g, 92, None)
    assert (ger.uid in g.state.contacts) is flushed
    assert g.state.phase == (1 if flushed else 0)


def test_strike_schema_errors():
    """A strike's row must be a damage row of damage.yaml; a line strike names two hexes."""
    from ambush_env.core.data import validate

    bad_row = _variant_dict(json.dumps({"paragraphs": {"92": [{"strike": {
        "kind": "artillery", "hexes": ["D6"], "row": "howitzer"}}]}, "triggers": {"C5": 92}}))
    with pytest.raises(DataError, match=r"paragraphs\.92\.0.*row|howitzer"):
        validate(Mission, bad_row, "<test>")
    bad_line = _variant_dict(json.dumps({"paragraphs": {"92": [{"strike": {
        "kind": "strafing", "hexes": ["D6", "D7", "D8"], "row": "smg", "line": True}}]},
        "triggers": {"C5": 92}}))
    with pytest.raises(DataError, match="two ends"):
        validate(Mission, bad_line, "<test>")
