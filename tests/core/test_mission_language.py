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
