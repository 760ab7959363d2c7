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
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Side, Stance, Status
from ambush_env.core.world.los import SightCache, line_of_sight
from ambush_env.core.world.missions import Mission, load_mission


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


LANDMARK = {
    "paragraphs": {
        "90": [{"landmark": {"hex": "D7", "name": "steeple", "blocking": True}}],
        "91": [{"landmark": {"hex": "D7", "name": "well"}}],
    },
    "triggers": {"C3": 90, "C4": 91},
}


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
    assert events(g, "landmark") == [
        {"type": "landmark", "hex": "D7", "name": "steeple", "blocking": True}
    ]
    assert not g.can_see(us, ger) and not g.can_see(ger, us)
    for a in range(3):
        for b in range(3):
            assert not g.sight.can_see(us.hex, ger.hex, a, b)
    # lines that do not cross D7 are as before
    assert g.sight.can_see(hx(g, "D6"), hx(g, "D5")) == g.ctx.sight.can_see(
        hx(g, "D6"), hx(g, "D5")
    )
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
STRIKES = {
    "paragraphs": {
        "92": [{"strike": {"kind": "artillery", "hexes": ["D6", "D8"], "row": "grenade_outside"}}],
        "93": [{"strike": {"kind": "strafing", "hexes": ["D6", "L6"], "row": "grenade_outside"}}],
        "94": [{"strike": {"kind": "artillery", "hexes": ["L6"], "row": "grenade_outside"}}],
        "95": [
            {
                "strike": {
                    "kind": "strafing",
                    "hexes": ["D5", "D9"],
                    "row": "grenade_outside",
                    "line": True,
                }
            }
        ],
        "96": [{"strike": {"kind": "artillery", "hexes": ["A8", "D9"], "row": "grenade_outside"}}],
        "97": [{"strike": {"kind": "strafing", "hexes": ["A8", "D9"], "row": "grenade_outside"}}],
    },
    "triggers": {"C5": 92, "C6": 93, "C7": 94, "C8": 95, "C9": 96, "C10": 97},
    "german_vehicles": [
        {"vehicle": "kubelwagen", "hex": "K8", "facing": "SE"},
        {"vehicle": "panzer_iv", "hex": "D9", "facing": "N", "card": "panzer_iv", "crew": 5},
    ],
}
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
    assert events(g, "artillery_strike") == [
        {"type": "artillery_strike", "hexes": ["D6", "D8"], "row": "grenade_outside"}
    ]
    hits = [
        (e["unit"], e["hex"], e["roll"], e["modifier"], e["result"])
        for e in events(g, "strike_hit")
    ]
    assert hits == [
        ("US1", "D6", 5, 0, "wound"),
        ("US3", "D6", 2, -2, "none"),
        (ger.name, "D8", 9, -2, "incapacitated"),
    ]
    assert us1.wounded and us1.status == Status.ACTIVE
    assert not us3.wounded and us3.status == Status.ACTIVE
    assert ger.status == Status.INCAPACITATED
    assert us2.status == Status.ACTIVE and not us2.wounded
    assert g.state.phase == 0  # ⚙ a strike begins no Rounds by itself (a known German hit)


@pytest.mark.parametrize(
    "roll, result", [(2, "none"), (3, "panic"), (8, "incapacitated"), (9, "kill")]
)
def test_artillery_row_thresholds_standing(roll, result):
    """The row's bands on both sides of each threshold (standing: no modifier)."""
    g = _strike_game()
    u = put(g, 0, "D6")
    force(g, [roll])
    run_paragraph(g, 92, None)
    assert [e["result"] for e in events(g, "strike_hit")] == [result]
    expected = {
        "none": Status.ACTIVE,
        "panic": Status.ACTIVE,
        "incapacitated": Status.INCAPACITATED,
        "kill": Status.KILLED,
    }[result]
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
    from ambush_env.core.combat.strikes import line_hexes

    g = _strike_game()
    lab = g.board.label
    assert [lab(h) for h in line_hexes(g, hx(g, "D5"), hx(g, "D9"))] == [
        "D5",
        "D6",
        "D7",
        "D8",
        "D9",
    ]
    assert sorted(lab(h) for h in line_hexes(g, hx(g, "A2"), hx(g, "C2"))) == [
        "A2",
        "B1",
        "B2",
        "C2",
    ]
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
        (jeep.name, car_roll, disabled),
        (tank.name, 0, False),
    ]
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
    from ambush_env.core.world.data import validate

    bad_row = _variant_dict(
        json.dumps(
            {
                "paragraphs": {
                    "92": [{"strike": {"kind": "artillery", "hexes": ["D6"], "row": "howitzer"}}]
                },
                "triggers": {"C5": 92},
            }
        )
    )
    with pytest.raises(DataError, match=r"paragraphs\.92\.0.*row|howitzer"):
        validate(Mission, bad_row, "<test>")
    bad_line = _variant_dict(
        json.dumps(
            {
                "paragraphs": {
                    "92": [
                        {
                            "strike": {
                                "kind": "strafing",
                                "hexes": ["D6", "D7", "D8"],
                                "row": "smg",
                                "line": True,
                            }
                        }
                    ]
                },
                "triggers": {"C5": 92},
            }
        )
    )
    with pytest.raises(DataError, match="two ends"):
        validate(Mission, bad_line, "<test>")


# ------------------------------------------------------------------------------ booby traps
TRAPS = {
    "booby_traps": {
        "D6": "grenade_outside",
        "D7": {"row": "satchel_inside", "known": False},
        "B8": "grenade_outside",
    },
    "paragraphs": {"90": [{"message": "The steeple clock strikes."}]},
    "triggers": {"D7": 90},
    "us_vehicles": [
        {"vehicle": "jeep", "hex": "A8", "facing": "NE"},
        {"vehicle": "sherman", "hex": "A6", "facing": "N"},
    ],
}
# satchel_inside: [wound, incapacitated, incapacitated, kill, ...]; US1 (sergeant) PC 6


def _check(g, u, label):
    from engine_helpers import paragraph_check

    paragraph_check(g, u, hx(g, label))


@pytest.mark.parametrize("roll, result, paragraph", [(0, "wound", True), (3, "kill", False)])
def test_unknown_trap_goes_off_once_then_the_paragraph(roll, result, paragraph):
    """Seed 000 p. 32 / module ``traps`` ⚙: an unknown trap goes off on the first US soldier
    to enter, no check; one d10 on its row; a soldier it fells triggers no paragraph of the
    hex; a second entry is harmless (no die)."""
    g = game(**TRAPS)
    clear_board(g, keep=1)
    u = put(g, 0, "D6")
    force(g, [roll])
    _check(g, u, "D7")
    assert events(g, "booby_trap") == [
        {
            "type": "booby_trap",
            "unit": "US1",
            "row": "satchel_inside",
            "roll": roll,
            "result": result,
            "hex": "D7",
        }
    ]
    assert events(g, "booby_trap_check") == []
    assert bool(events(g, "paragraph")) is paragraph
    assert g.state.traps_gone == [hx(g, "D7")]
    if u.status == Status.ACTIVE:
        g.log.clear()
        force(g, [])
        _check(g, u, "D7")  # the trap is gone; the paragraph fired once
        assert events(g, "booby_trap") == [] and events(g, "paragraph") == []


@pytest.mark.parametrize("pc_roll, goes_off", [(6, False), (7, True)])
def test_known_trap_pc_check_disarms_or_sets_it_off(pc_roll, goes_off):
    """⚙ a known trap: the soldier's PC check (US1 PC 6): 6 passes, the trap is disarmed
    (gone, no harm); 7 fails and it goes off (9 on Grenade Outside: killed)."""
    g = game(**TRAPS)
    clear_board(g, keep=1)
    u = put(g, 0, "D5")
    force(g, [pc_roll] + ([9] if goes_off else []))
    _check(g, u, "D6")
    (chk,) = events(g, "booby_trap_check")
    assert (chk["roll"], chk["pc"], chk["passed"]) == (pc_roll, 6, not goes_off)
    assert [e["result"] for e in events(g, "booby_trap")] == (["kill"] if goes_off else [])
    assert u.status == (Status.KILLED if goes_off else Status.ACTIVE)
    assert hx(g, "D6") in g.state.traps_gone


def test_germans_never_set_off_the_traps():
    """⚙ the traps are the Germans' own (as their minefields): a German entering is safe."""
    from ambush_env.core.combat import traps

    g = game(**TRAPS)
    ger = add_german(g, "rifleman", "D7")
    force(g, [])
    traps.enters(g, ger, hx(g, "D7"))
    assert g.state.traps_gone == [] and ger.status == Status.ACTIVE
    assert sorted(traps.known_traps(g)) == sorted(hx(g, h) for h in ("D6", "B8"))


@pytest.mark.parametrize("pc_roll, disabled", [(6, False), (7, True)])
def test_car_driven_onto_a_trap_driver_pc_check(pc_roll, disabled):
    """Seed 000 p. 32: "In a boobytrapped hex the driver makes a Perception Check; failure
    disables the car and panics the occupants" (pass: the car goes on, the trap made safe ⚙)."""
    g = game(**TRAPS)
    clear_board(g, keep=1)
    jeep = g.state.vehicles[0]
    drv = put(g, 0, "A8")
    drv.vehicle, jeep.driver = jeep.vid, drv.uid
    force(g, [pc_roll])
    _check(g, drv, "B8")
    assert [e["passed"] for e in events(g, "booby_trap_check")] == [not disabled]
    assert jeep.disabled is disabled
    assert bool(events(g, "booby_trap_car")) is disabled
    assert g.state.traps_gone == [hx(g, "B8")]


def test_tank_eliminates_the_trap():
    """Seed 000 p. 32: "Tanks ignore ... boobytraps; the boobytrap is eliminated": no die, no
    harm; the hex's paragraph trigger still fires for the next soldier."""
    from ambush_env.core.combat import traps

    g = game(**TRAPS)
    tank = g.state.vehicles[1]
    tu = g.state.units[tank.unit]
    force(g, [])
    tank.hex = tu.hex = hx(g, "D7")
    traps.enters(g, tu, hx(g, "D7"))
    assert events(g, "booby_trap_tank") == [
        {"type": "booby_trap_tank", "vehicle": tank.name, "hex": "D7"}
    ]
    assert g.state.traps_gone == [hx(g, "D7")] and g.state.dead_triggers == []


def test_trap_goes_off_on_a_real_move_order():
    """The move order's paragraph check sets the trap off (enter.py records the check for a
    trap hex without a trigger too)."""
    g = game(**TRAPS)
    clear_board(g, keep=1)
    put(g, 0, "D5")
    force(g, [7, 5])  # PC check 7 fails (PC 6); Grenade Outside 5: wound
    g.invalidate()
    sel = [a for a in g.legal_actions() if g.describe_action(a).startswith("select")]
    if sel:
        g.step(sel[0])
    (move,) = [a for a in g.legal_actions() if g.describe_action(a).endswith("move S to D6")]
    ev = g.step(move)
    kinds = [e["type"] for e in ev]
    assert "booby_trap_check" in kinds and "booby_trap" in kinds
    assert g.state.units[0].wounded


def test_traps_round_trip_through_positions():
    """Positions carry ``booby_traps_gone`` (written only when one is gone); a hex without a
    trap there is a DataError naming the field."""
    g = game(**TRAPS)
    assert "booby_traps_gone" not in g.position()
    clear_board(g, keep=1)
    u = put(g, 0, "D6")
    force(g, [0])
    _check(g, u, "D7")
    p = g.position()
    assert p["booby_traps_gone"] == ["D7"]
    h = Game.from_position(p, ctx=g.ctx)
    assert h.state.traps_gone == [hx(g, "D7")]
    p["booby_traps_gone"] = ["E7"]
    with pytest.raises(DataError, match="booby_traps_gone.0"):
        Game.from_position(p, ctx=g.ctx)


def test_trap_schema_errors():
    """A trap's row must be one of the four blast rows; its hex must be on the map."""
    from ambush_env.core.world.data import validate
    from ambush_env.core.world.missions import check_hexes

    bad = _variant_dict(json.dumps({"booby_traps": {"D6": "howitzer"}}))
    with pytest.raises(DataError, match="booby_traps.D6"):
        validate(Mission, bad, "<test>")
    off = validate(
        Mission, _variant_dict(json.dumps({"booby_traps": {"Z40": "grenade_outside"}})), "<test>"
    )
    with pytest.raises(DataError, match="booby_traps.Z40"):
        check_hexes(off, "<test>", 18, 14)


# ------------------------------------------------------------------------------ random events
def _wait_out_pulse(g):
    """US1 (the only soldier) waits; the pulse ends."""
    pulse = g.state.pulse
    while g.state.pulse == pulse and not g.over:
        acts = [
            a
            for a in g.legal_actions()
            if g.describe_action(a).startswith("select") or g.describe_action(a).endswith(" wait")
        ]
        g.step(acts[0])


@pytest.mark.parametrize("roll, paragraph", [(3, None), (8, 55)])
def test_random_event_every_n_pulses(roll, paragraph):
    """⚙ ``rules.event_every_pulses: 2``: at the end of pulses 2, 4, ... a d10 on the event
    table (farm_assault: 0-3 nothing, 8-9 paragraph 55 -> 56, the pilot), none after pulse 1;
    the paragraph runs with no triggering soldier."""
    g = game(rules={"event_every_pulses": 2})
    clear_board(g, keep=1)
    put(g, 0, "A1")
    force(g, [])
    _wait_out_pulse(g)  # pulse 1: no roll (the dice would run out)
    assert g.state.pulse == 1
    force(g, [roll])
    _wait_out_pulse(g)
    ev = [e for e in g.last_events if e.type == "random_event"]
    assert [e.to_dict() for e in ev] == [
        {"type": "random_event", "when": "pulse 2", "roll": roll, "paragraph": paragraph}
    ]
    assert ("pilot_found" in g.state.flags) is (paragraph == 55)


@pytest.mark.parametrize("every, rolled", [(3, True), (2, False)])
def test_random_event_every_n_rounds(every, rolled):
    """⚙ ``rules.event_every_rounds``: at the end of a Round whose mission count is a multiple
    of N (Round 3: yes for 3, no for 2)."""
    from engine_helpers import rounds

    from ambush_env.core.play.sequence import end_round

    g = game(rules={"event_every_rounds": every})
    clear_board(g, keep=1)
    put(g, 0, "A1")
    rounds(g, round_no=3)
    force(g, [8] if rolled else [])
    end_round(g)  # no known German: Operations resume
    resolve(g)
    assert bool(events(g, "random_event")) is rolled
    assert ("pilot_found" in g.state.flags) is rolled


def test_random_events_default_off():
    """Without the keys no check is ever made (existing missions play as before)."""
    r = load_mission("farm_assault").rules
    assert (r.event_every_pulses, r.event_every_rounds) == (0, 0)


# ------------------------------------------------------------------------------ command
def _far_private(g):
    """US3 (a private, CR 0, IN 1) alone, far from any commander."""
    clear_board(g, keep=3)
    put(g, 0, "R1")
    put(g, 1, "R2")
    return put(g, 2, "A14")


def test_all_in_command_rounds_rule():
    """RULES.md §5/§15 ``rules.all_in_command_rounds: 2``: every US soldier is in command in
    Rounds 1-2 after Rounds begin, not in Round 3; a red AR value (initiative 0 + IN 1 = 1)
    then gives 1-Turn in command and Panic out of it (forced initiative rolls)."""
    from engine_helpers import rounds

    from ambush_env.core.model.types import ARSpace
    from ambush_env.core.play.sequence import start_round

    g = game(rules={"all_in_command_rounds": 2})
    u = _far_private(g)
    add_german(g, "rifleman", "P1")
    for k in range(3):
        g.state.units[k].aware = True
    for round_no, space in ((1, ARSpace.ONE_TURN), (2, ARSpace.ONE_TURN), (3, ARSpace.PANIC)):
        rounds(g, round_no=round_no - 1)
        force(g, [0, 5])  # US initiative 0, German 5
        start_round(g)
        assert g.state.round == round_no
        assert g.in_command(u) is (round_no <= 2)
        assert u.ar == space, round_no
    free = game(rules={"all_in_command_rounds": 0})
    v = _far_private(free)
    rounds(free, round_no=1)
    assert not free.in_command(v)  # without the rule: out of command in Round 1


def test_command_effect_through_the_next_rounds():
    """⚙ ``command: N``: every US soldier in command for the next N Rounds; in Operations
    after 4 Rounds played, Rounds 5 and 6 (not 7); in Round 5, Rounds 5 and 6 for N = 2
    (the mission's own all-in-command rule switched off, so that only the effect counts)."""
    from engine_helpers import rounds

    g = game(
        paragraphs={"98": [{"command": 2}]}, triggers={"C3": 98}, rules={"all_in_command_rounds": 0}
    )
    u = _far_private(g)
    g.state.rounds_total = 4
    run_paragraph(g, 98, None)
    assert events(g, "command_override") == [
        {"type": "command_override", "rounds": 2, "until_round": 6}
    ]
    assert not g.in_command(u)  # Operations: no Round
    for total, ok in ((5, True), (6, True), (7, False)):
        rounds(g, round_no=1)
        g.state.rounds_total = total
        assert g.in_command(u) is ok, total
    p = g.position()
    assert p["command_until"] == 6
    assert Game.from_position(p, ctx=g.ctx).state.command_until == 6
    h = game(
        paragraphs={"98": [{"command": 2}]}, triggers={"C3": 98}, rules={"all_in_command_rounds": 0}
    )
    _far_private(h)
    rounds(h, round_no=2)
    h.state.rounds_total = 5
    run_paragraph(h, 98, None)
    assert h.state.command_until == 6
    assert "command_until" not in game().position()


# ------------------------------------------------------------------------------ sight cap
def test_sight_cap_applies_to_every_sight_check_of_both_sides():
    """RULES.md §3 night cap (``rules.sight_cap: 2``): D6 sees D8 (2 hexes), not D9 (3), for
    both sides; the exact line says ``sight_cap``; a German's fire orders (the cards choose
    their targets from them) offer the US soldier within the cap and not the one beyond it;
    a landmark's derived sight keeps the cap."""
    from engine_helpers import give_turn, rounds

    from ambush_env.core.model.orders import OrderKind as K
    from ambush_env.core.model.orders import decode
    from ambush_env.core.play.legal import legal_orders

    g = game(rules={"sight_cap": 2}, **LANDMARK)
    clear_board(g, keep=2)
    near, far = put(g, 0, "D8"), put(g, 1, "D9")
    ger = add_german(g, "rifleman", "D6")
    assert g.can_see(ger, near) and g.can_see(near, ger)
    assert not g.can_see(ger, far) and not g.can_see(far, ger)
    r = line_of_sight(g.board, "D6", "D9", sight_cap=2)
    assert (r.clear, r.blocked_by) == (False, "sight_cap")
    rounds(g)
    give_turn(g, ger)
    slots = g.enemy_slots(int(Side.GERMAN))
    targets = {
        slots[a] for k, a in map(decode, legal_orders(g, ger)) if k in (K.FIRE_AIMED, K.FIRE_SNAP)
    }
    assert targets == {near.uid}
    run_paragraph(g, 91, None)  # a plain landmark: sight unchanged
    lm = g.ctx.sight.with_landmark_hexes({hx(g, "E9")})
    assert lm.sight_cap == 2 and not lm.can_see(hx(g, "D6"), hx(g, "D9"))
    free = game()
    clear_board(free, keep=2)
    put(free, 0, "D8")
    b = put(free, 1, "D9")
    gg = add_german(free, "rifleman", "D6")
    assert free.can_see(gg, b)  # no cap: seen


# ------------------------------------------------------------------------------ time and results
def test_pulse_limit_ends_and_scores_the_mission():
    """RULES.md §15: the Operations pulse limit ends the mission like any other end: over,
    scored by the bands (0 VP: a loss)."""
    g = game(time_limit={"operations_pulses": 2, "rounds": 36})
    clear_board(g, keep=1)
    put(g, 0, "A1")
    force(g, [])
    _wait_out_pulse(g)
    assert not g.over and g.state.pulse == 1
    _wait_out_pulse(g)
    assert g.over and g.state.end_reason == "time limit (Operations pulses)"
    (end,) = [e.to_dict() for e in g.last_events if e.type == "mission_end"]
    assert end["result"] == "loss" and end["vp"] == g.vp


def test_round_limit_ends_and_scores_the_mission():
    """RULES.md §15: starting Round ``rounds + 1`` of the mission ends it (Round 2 of 2 played:
    over, scored, no initiative rolled); with Round 1 of 2 played the next Round starts."""
    from engine_helpers import rounds

    from ambush_env.core.play.sequence import end_round

    for played, over in ((2, True), (1, False)):
        g = game(time_limit={"operations_pulses": 60, "rounds": 2})
        clear_board(g, keep=1)
        put(g, 0, "A1")
        add_german(g, "rifleman", "R1")  # a known German: the Rounds go on
        rounds(g, round_no=played)
        force(g, [] if over else [5, 4])
        end_round(g)
        assert g.over is over
        if over:
            assert g.state.end_reason == "time limit (Rounds)"
            assert g.state.result >= 0 and events(g, "mission_end")[0]["result"] == "loss"
        else:
            assert g.state.rounds_total == 2 and g.state.round == played + 1


@pytest.mark.parametrize(
    "vp, result",
    [
        (26, "decisive_win"),
        (25, "win"),
        (18, "win"),
        (17, "draw"),
        (10, "draw"),
        (9, "loss"),
        (-5, "loss"),
    ],
)
def test_result_band_boundaries(vp, result):
    """RULES.md §15: the result is the highest band whose threshold the final VP reaches
    (farm_assault: decisive win 26, win 18, draw 10), each boundary on both sides."""
    from ambush_env.core.model.types import RESULT_NAMES
    from ambush_env.core.rules.scoring import end_mission

    g = game()
    g.state.vp = vp - g.casualty_vp()
    end_mission(g, "test")
    assert g.vp == vp and RESULT_NAMES[g.state.result] == result
    assert g.mission.results.band(vp).name.lower() == result
