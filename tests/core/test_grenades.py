"""Grenades and satchel charges (RULES.md §9; seed 002 p. 26-27; numbers ⚙ in
``data/rules.yaml: grenades`` and ``data/damage.yaml``), played through ``Game.step`` on the
farm_assault map with every roll forced on both sides of its threshold.

Map features used: the stone farmhouse L6-L7 (windows K6/L6, K7/L7, L5/L6, L7/M7; doors
L6/M6, L7/L8; K7/L6 is a blank wall), the wooden barn N6-N7 (window N6/O6; M6/N6 blank),
the brush B5 between B4 and B6 (no sight between them), open ground around E-K rows 4-9.

Squad ratings used (configs/squads/standard.yaml): US4 PC 5 with two grenades; US6 PC 4 with
a satchel charge and a grenade; the German rifleman and MG loader have PC 5.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    add_german,
    clear_board,
    force,
    fresh_game,
    german_turn,
    give_turn,
    put,
    rounds,
)

from ambush_env.core.combat import grenades
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Stance, Status

S, C, P = Stance.STANDING, Stance.CROUCHING, Stance.PRONE
US4, US6 = 3, 5  # squad slots


def enc(kind: K, arg: int = 0) -> int:
    return O.encode(kind, arg)


def offset(g, src: str, dest: str) -> int:
    """The ``HEX_OFFSETS`` index of ``dest`` seen from ``src`` (the argument of a throw)."""
    s, d = g.board.index(src), g.board.index(dest)
    return next(k for k in range(O.N_OFFSETS) if g.offset_target(s, k) == d)


def throw(g, src: str, dest: str, kind: K = K.GRENADE) -> int:
    return enc(kind, offset(g, src, dest))


def squad(slot: int, label: str, stance: int = S):
    """A game with one US soldier (squad ``slot``) at ``label`` and a partner far away at A14."""
    g = fresh_game()
    clear_board(g, keep=0)
    u = put(g, slot, label, stance)
    partner = put(g, 7 if slot != 7 else 6, "A14")
    return g, u, partner


def act(g, u, partner) -> None:
    """Round 3, ``u`` acting; the partner keeps a 1-Turn so that after ``u``'s turn the Round
    goes on with him (no German acts, no dice are rolled)."""
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    give_turn(g, u)


def event(events: list[dict], kind: str) -> dict:
    return next(e for e in events if e["type"] == kind)


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def grenade_targets(g, u, kind: K = K.GRENADE) -> list[int]:
    """Hexes the legal throws of ``kind`` aim at."""
    return [g.offset_target(u.hex, a) for k, a in map(O.decode, g.legal_actions()) if k == kind]


def refused(g, order: int) -> None:
    """The order is not offered and ``step`` raises (docs/STYLE.md habit 2: one source of legality)."""
    assert order not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.step(order)


# ---------------------------------------------------------------------------- range and sight
@pytest.mark.parametrize(
    "stance, farthest_in, nearest_out, reach",
    [(S, "E2", None, 6), (C, "E5", "E4", 3), (P, None, "E7", 0)],
    ids=["standing-6", "crouching-3", "prone-never"],
)
def test_grenade_range_by_stance(stance, farthest_in, nearest_out, reach):
    """RULES.md §9: grenade range 3 hexes crouching, 6 standing; prone soldiers cannot throw
    (⚙ rules.yaml grenade_range). US4 at E8 on the road, targets due north. Standing, the
    7th hex has no order at all (orders.OFFSET_RADIUS is 6), so the check is that the
    farthest offered target is 6 hexes away."""
    g, u, partner = squad(US4, "E8", stance)
    act(g, u, partner)
    targets = grenade_targets(g, u)
    assert max((g.board.distance(u.hex, t) for t in targets), default=0) == reach
    if farthest_in is not None:
        assert g.board.distance(u.hex, g.board.index(farthest_in)) == reach
        assert throw(g, "E8", farthest_in) in g.legal_actions()
    if nearest_out is not None:
        refused(g, throw(g, "E8", nearest_out))


@pytest.mark.parametrize("stance, reach", [(S, 3), (C, 0), (P, 0)])
def test_satchel_range_standing_three(stance, reach):
    """RULES.md §9: a satchel charge is thrown standing, 3 hexes; never crouching or prone."""
    g, u, partner = squad(US6, "E8", stance)
    u.satchel_ready = True
    act(g, u, partner)
    targets = grenade_targets(g, u, K.SATCHEL)
    assert max((g.board.distance(u.hex, t) for t in targets), default=0) == reach
    if reach:
        assert throw(g, "E8", "E5", K.SATCHEL) in g.legal_actions()
    refused(g, throw(g, "E8", "E4", K.SATCHEL))


def test_grenade_needs_no_sight():
    """RULES.md §9: no sight is needed; the target is a hex. The brush at B5 hides B6 from B4:
    US4 cannot fire at the German there but lands a grenade on him."""
    g, u, partner = squad(US4, "B4")
    ger = add_german(g, "rifleman", "B6", aware=False)
    act(g, u, partner)
    assert not g.can_see(u, ger)
    assert enc(K.FIRE_AIMED, 0) not in g.legal_actions()
    force(g, [5, 9])  # throw PC check 5 <= PC 5; damage 9 on the Outside row: kill
    events = g.step(throw(g, "B4", "B6"))
    assert event(events, "throw")["landing"] == "B6"
    assert ger.status == Status.KILLED


# ---------------------------------------------------------------------------- the throw
@pytest.mark.parametrize("roll, lands", [(5, True), (6, False)])
def test_throw_is_a_pc_check(roll, lands):
    """RULES.md §9: the throw is a PC check — at or below PC lands on the target, PC + 1
    scatters (US4 PC 5, E8 → E6; the scatter roll 0 is 'ahead' on Diagram B: E5)."""
    g, u, partner = squad(US4, "E8")
    ger = add_german(g, "rifleman", "E6", aware=False)  # unaware: no throw-out attempt
    act(g, u, partner)
    force(g, [roll, 9] if lands else [roll, 0])
    events = g.step(throw(g, "E8", "E6"))
    ev = event(events, "throw")
    assert ev["need"] == 5 and ev["rolls"]["throw"] == roll
    if lands:
        assert ev["landing"] == "E6" and "scatter" not in ev
        assert ger.status == Status.KILLED
    else:
        assert ev["landing"] == "E5" and ev["scatter"] == "ahead"
        assert ger.status == Status.ACTIVE and not ger.wounded
    assert u.equipment.count("grenade") == 1  # one of his two grenades is gone
    assert g.acting_unit() is partner  # the throw was his whole turn


@pytest.mark.parametrize("roll, lands", [(3, True), (4, False)])
def test_wounded_thrower_minus_two(roll, lands):
    """Seed 002 p. 26 / RULES.md §9: a wounded soldier throws at −2 (US4: 3 lands, 4 scatters)."""
    g, u, partner = squad(US4, "E8")
    u.wounded = True  # standing again (a wounded soldier may pay 1 MP to stand)
    act(g, u, partner)
    force(g, [roll] if lands else [roll, 0])
    ev = event(g.step(throw(g, "E8", "E6")), "throw")
    assert ev["need"] == 3
    assert ev["landing"] == ("E6" if lands else "E5")


@pytest.mark.parametrize("roll, lands", [(3, True), (4, False)])
def test_non_adjacent_aperture_minus_two(roll, lands):
    """RULES.md §9: a throw through a non-adjacent aperture is at −2: from L4 into the
    farmhouse L6 (two hexes due south, windows) US4 needs 3."""
    g, u, partner = squad(US4, "L4")
    act(g, u, partner)
    force(g, [roll] if lands else [roll, 0])
    ev = event(g.step(throw(g, "L4", "L6")), "throw")
    assert ev["need"] == 3
    assert ev["landing"] == ("L6" if lands else "L7")  # 'ahead' of L6 on the line L4-L5-L6


@pytest.mark.parametrize("roll, lands", [(5, True), (6, False)])
def test_adjacent_window_no_penalty(roll, lands):
    """RULES.md §9 / grenades.py: across the window of the shared hexside (K6/L6) the throw is
    a plain PC check (US4 needs 5)."""
    g, u, partner = squad(US4, "K6")
    act(g, u, partner)
    force(g, [roll] if lands else [roll, 0])
    ev = event(g.step(throw(g, "K6", "L6")), "throw")
    assert ev["need"] == 5
    assert ev["landing"] == ("L6" if lands else "M7")  # 'ahead' of L6 from K6 (SE) is M7


@pytest.mark.parametrize(
    "src, dest, offered",
    [
        ("K6", "L6", True),  # across the window K6/L6
        ("K7", "L6", False),  # across the blank stone wall K7/L6
        ("M6", "L6", True),  # across the door L6/M6
        ("O6", "N6", True),  # across the barn window N6/O6
        ("M6", "N6", False),  # across the blank wooden wall M6/N6
        ("L6", "K6", True),  # out of the farmhouse through its window
        ("L6", "K7", False),  # out through the blank wall
        ("L6", "J7", True),  # out to a hex two away: the hex has an aperture (at -2)
    ],
)
def test_building_walls_bar_throws(src, dest, offered):
    """grenades.py module docstring (RULES.md §9): into or out of a building hex from the next
    hex only across a door, window or destroyed wall; from further away if the hex has an
    aperture."""
    g, u, partner = squad(US4, src)
    act(g, u, partner)
    order = throw(g, src, dest)
    if offered:
        assert order in g.legal_actions()
    else:
        refused(g, order)


def test_destroyed_wall_opens_the_hexside_to_throws():
    """grenades.py: a destroyed wall counts as an opening: after K7/L6 is blown, K7 → L6 is
    offered."""
    g, u, partner = squad(US4, "K7")
    act(g, u, partner)
    assert throw(g, "K7", "L6") not in g.legal_actions()
    g.board.destroy_wall(g.board.index("K7"), g.board.index("L6"))
    g.invalidate()
    assert throw(g, "K7", "L6") in g.legal_actions()


# ---------------------------------------------------------------------------- scatter
@pytest.mark.parametrize(
    "target, scatter_roll, landing, reading",
    [
        ("E7", 4, "D6", "ahead_left"),  # Diagram A[4]
        ("E6", 4, "D6", "back_left"),  # Diagram B[4]
        ("E7", 6, "D7", "back_left"),  # Diagram A[6]
        ("E6", 6, "E7", "short"),  # Diagram B[6]
        ("E7", 8, "E8", "short"),  # Diagram A[8]: short of an adjacent target = his hex
        ("E6", 8, "D5", "ahead_left"),  # Diagram B[8]
        ("E7", 3, "F6", "ahead_right"),  # Diagram A[3]
        ("E6", 5, "F6", "back_right"),  # Diagram B[5]
    ],
)
def test_scatter_diagram_a_adjacent_b_further(target, scatter_roll, landing, reading):
    """RULES.md §9 ⚙: a failed throw at an adjacent hex scatters on Diagram A, further on
    Diagram B (d10 → a neighbour of the target relative to the line of the throw, or short).
    US4 at E8 throws north at E7 (adjacent) or E6 (two hexes)."""
    g, u, partner = squad(US4, "E8")
    act(g, u, partner)
    # the thrower rolls for himself when the grenade falls short into his own hex
    force(g, [6, scatter_roll] + ([0] if landing == "E8" else []))
    ev = event(g.step(throw(g, "E8", target)), "throw")
    assert ev["scatter"] == reading
    assert ev["rolls"] == {"throw": 6, "scatter": scatter_roll}
    assert ev["landing"] == landing


def test_short_scatter_next_to_the_thrower_hits_him():
    """RULES.md §9 / rules.yaml: 'next to him, short lands in his own hex' — the thrower rolls
    on the Outside row (damage 5: wound)."""
    g, u, partner = squad(US4, "E8")
    act(g, u, partner)
    force(g, [6, 8, 5])
    events = g.step(throw(g, "E8", "E7"))
    assert event(events, "blast")["unit"] == "US4"
    assert u.wounded and u.stance == P


def test_scatter_off_the_map_is_lost():
    """grenades.py: a grenade scattering off the map is lost (no blast). US4 at A2 throws north
    at A1; 'ahead' of A1 is off the map."""
    g, u, partner = squad(US4, "A2")
    act(g, u, partner)
    force(g, [6, 0])
    events = g.step(throw(g, "A2", "A1"))
    assert event(events, "throw")["landing"] is None
    assert not events_of(events, "blast")


# ---------------------------------------------------------------------------- damage
@pytest.mark.parametrize(
    "target, damage_roll, result, inside",
    [
        ("L6", 0, "none", True),
        ("L6", 1, "panic", True),
        ("L6", 2, "wound", True),
        ("K5", 2, "none", False),
        ("K5", 3, "panic", False),
        ("K5", 5, "wound", False),
    ],
)
def test_inside_or_outside_row_by_building_hex(target, damage_roll, result, inside):
    """RULES.md §9: each soldier in the landing hex rolls on the Grenade Inside row in a
    building hex, else on the Outside row (damage.yaml: Inside 0 none / 1 panic / 2 wound;
    Outside 2 none / 3 panic / 5 wound). US4 at K6 throws into the farmhouse L6 through the
    window or onto the open K5."""
    g, u, partner = squad(US4, "K6")
    ger = add_german(g, "rifleman", target, aware=False)
    act(g, u, partner)
    force(g, [5, damage_roll])
    events = g.step(throw(g, "K6", target))
    blast = event(events, "blast")
    assert blast["inside"] is inside and blast["unit"] == ger.name
    assert blast["result"] == result
    row = "grenade_inside" if inside else "grenade_outside"
    assert blast["result"] == g.tables.soldier_row[row][damage_roll]
    assert ger.wounded is (result == "wound")
    assert ger.panicked is (result == "panic")


@pytest.mark.parametrize(
    "stance, damage_roll, result",
    [(S, 4, "panic"), (S, 5, "wound"), (P, 6, "panic"), (P, 7, "wound"), (P, 1, "none")],
)
def test_prone_soldiers_roll_at_minus_two(stance, damage_roll, result):
    """RULES.md §9 ⚙: prone soldiers roll on the row at −2 (a higher roll is worse): on the
    Outside row a standing man is wounded from 5, a prone one from 7; the roll floors at 0."""
    g, u, partner = squad(US4, "K6")
    ger = add_german(g, "rifleman", "K5", stance=stance, aware=False)
    act(g, u, partner)
    force(g, [5, damage_roll])
    blast = event(g.step(throw(g, "K6", "K5")), "blast")
    assert blast["rolls"]["damage"] == damage_roll
    assert blast["result"] == result
    assert ger.wounded is (result == "wound")


def test_incapacitated_not_hurt_by_a_grenade_thrown_at_his_hex():
    """Seed 002 p. 26: an incapacitated soldier cannot be attacked on purpose — a grenade
    landing on its target does not roll for him (only the active German rolls; a roll for
    him would exhaust the scripted dice)."""
    g, u, partner = squad(US4, "K6")
    down = add_german(g, "rifleman", "K5")
    down.status, down.stance = int(Status.INCAPACITATED), int(P)
    ger = add_german(g, "rifleman", "K5", aware=False)
    act(g, u, partner)
    force(g, [5, 5])
    events = g.step(throw(g, "K6", "K5"))
    assert [b["unit"] for b in events_of(events, "blast")] == [ger.name]
    assert ger.wounded
    assert down.status == Status.INCAPACITATED


def test_incapacitated_hurt_by_a_scattered_grenade():
    """Seed 002 p. 26: '... though a scattered grenade can still hit him'. US4 at K6 throws at
    K4 (two hexes), fails (6) and the grenade falls short (Diagram B 6) into K5; the
    incapacitated German rolls: a wound on him kills him."""
    g, u, partner = squad(US4, "K6")
    down = add_german(g, "rifleman", "K5")
    down.status, down.stance = int(Status.INCAPACITATED), int(P)
    act(g, u, partner)
    force(g, [6, 6, 7])  # prone: 7 - 2 = 5, a wound on the Outside row
    events = g.step(throw(g, "K6", "K4"))
    assert event(events, "throw")["landing"] == "K5"
    assert event(events, "blast")["result"] == "wound"
    assert event(events, "damage")["effect"] == "kill"
    assert down.status == Status.KILLED


def test_killed_soldiers_are_not_hurt_again():
    """grenades.py: killed soldiers in the landing hex do not roll."""
    g, u, partner = squad(US4, "K6")
    dead = add_german(g, "rifleman", "K5")
    dead.status = int(Status.KILLED)
    act(g, u, partner)
    force(g, [5])
    assert not events_of(g.step(throw(g, "K6", "K5")), "blast")


# ---------------------------------------------------------------------------- throw it out
@pytest.mark.parametrize("roll, thrown_out", [(3, True), (4, False)])
def test_throw_out_a_live_grenade(roll, thrown_out):
    """RULES.md §9 ⚙ (rules.yaml throw_out_modifier −2): an aware, active German in the landing
    hex tries a PC check at −2 (rifleman PC 5: 3 succeeds, 4 fails). Success lobs it back into
    the thrower's hex, where it explodes (US4 wounded on 5); failure: it explodes on him."""
    g, u, partner = squad(US4, "K6")
    ger = add_german(g, "rifleman", "K5", aware=True)
    act(g, u, partner)
    force(g, [5, roll, 5])
    events = g.step(throw(g, "K6", "K5"))
    out = event(events, "throw_out")
    assert out == {
        "type": "throw_out",
        "unit": ger.name,
        "roll": roll,
        "need": 3,
        "success": thrown_out,
    }
    blast = event(events, "blast")
    if thrown_out:
        assert blast["unit"] == "US4" and u.wounded and not ger.wounded
    else:
        assert blast["unit"] == ger.name and ger.wounded and not u.wounded
    assert len(events_of(events, "blast")) == 1


def test_unaware_or_wounded_soldier_does_not_throw_it_out():
    """grenades.py: only an aware, active, unwounded, unpanicked soldier throws a grenade out;
    an unaware one and a wounded one just take the blast (no throw-out roll is made)."""
    g, u, partner = squad(US4, "K6")
    sleeper = add_german(g, "rifleman", "K5", aware=False)
    hurt = add_german(g, "rifleman", "K5", aware=True)
    hurt.wounded = True
    act(g, u, partner)
    force(g, [5, 0, 0])
    events = g.step(throw(g, "K6", "K5"))
    assert not events_of(events, "throw_out")
    assert [b["unit"] for b in events_of(events, "blast")] == [sleeper.name, hurt.name]


# ---------------------------------------------------------------------------- satchel charges
def test_satchel_must_be_prepared_before_it_is_thrown():
    """RULES.md §6: 'prepare a ... satchel charge' is one action, 'throw a prepared satchel'
    another. US6 at K6: no SATCHEL order until a PREPARE turn; then the next turn offers it."""
    g, u, partner = squad(US6, "K6")
    act(g, u, partner)
    legal = g.legal_actions()
    assert not any(O.decode(a)[0] == K.SATCHEL for a in legal)
    refused(g, throw(g, "K6", "L6", K.SATCHEL))
    assert enc(K.PREPARE) in legal
    g.step(enc(K.PREPARE))
    assert u.satchel_ready and "satchel" in u.equipment
    assert g.acting_unit() is partner  # preparing was his turn
    give_turn(g, u)
    assert throw(g, "K6", "L6", K.SATCHEL) in g.legal_actions()
    assert enc(K.PREPARE) not in g.legal_actions()


@pytest.mark.parametrize("roll, lands", [(4, True), (5, False)])
def test_satchel_from_the_next_hex_destroys_the_wall(roll, lands):
    """RULES.md §9 'a satchel against a wall penetrates heavily' / grenades.py: a satchel that
    lands in a building hex thrown from the next hex destroys the shared wall (K6/L6); the
    destroyed wall hits everyone inside as a semi-automatic rifle (seed 002 p. 27), then the
    charge rolls on the Satchel Inside row. US6 PC 4: 4 lands, 5 scatters (Diagram A 0,
    'ahead': M7), and the wall stands."""
    g, u, partner = squad(US6, "K6")
    u.satchel_ready = True
    ger = add_german(g, "rifleman", "L6", aware=False)
    act(g, u, partner)
    force(g, [roll, 0, 0] if lands else [roll, 0])
    events = g.step(throw(g, "K6", "L6", K.SATCHEL))
    assert event(events, "throw")["landing"] == ("L6" if lands else "M7")
    assert g.board.hexside(g.board.index("K6"), g.board.index("L6")).destroyed is lands
    if lands:
        assert event(events, "wall_destroyed")["hexside"] == "K6/L6"
        blast = event(events, "blast")
        assert blast["item"] == "satchel" and blast["inside"] and blast["result"] == "wound"
        assert ger.wounded
    else:
        assert not events_of(events, "wall_destroyed") and not ger.wounded
    assert "satchel" not in u.equipment and not u.satchel_ready


def test_satchel_from_two_hexes_does_not_destroy_the_wall():
    """grenades.py: only a satchel thrown from the next hex blows the shared wall; from J6
    (two hexes, through the window at −2: US6 needs 2) it lands in L6 and every wall stands."""
    g, u, partner = squad(US6, "J6")
    u.satchel_ready = True
    act(g, u, partner)
    version = g.board.version
    force(g, [2])
    events = g.step(throw(g, "J6", "L6", K.SATCHEL))
    ev = event(events, "throw")
    assert ev["need"] == 2 and ev["landing"] == "L6"
    assert not events_of(events, "wall_destroyed")
    assert g.board.version == version


def test_satchel_against_a_blank_wall_destroys_it():
    """RULES.md §9, seed 002 p. 27: a satchel charge against a wall penetrates heavily (heavy
    destroys any surface). US6 at K7 sets it against the blank stone wall K7/L6 (PC 4: 4)."""
    g, u, partner = squad(US6, "K7")
    u.satchel_ready = True
    act(g, u, partner)
    force(g, [4])
    g.step(throw(g, "K7", "L6", K.SATCHEL))
    assert g.board.hexside(g.board.index("K7"), g.board.index("L6")).destroyed


def test_grenade_does_not_destroy_the_wall():
    """RULES.md §9 / grenades.py: only a satchel charge blows the wall it is thrown across; a
    grenade through the window K6/L6 leaves it standing."""
    g, u, partner = squad(US4, "K6")
    act(g, u, partner)
    force(g, [5])
    events = g.step(throw(g, "K6", "L6"))
    assert event(events, "throw")["landing"] == "L6"
    assert not events_of(events, "wall_destroyed")
    assert not g.board.hexside(g.board.index("K6"), g.board.index("L6")).destroyed


# ---------------------------------------------------------------------------- German throws
@pytest.mark.parametrize("us_hex, thrown", [("G9", True), ("G10", False)])
def test_german_throw_grenade_card_action(us_hex, thrown):
    """RULES.md §14 ``throw_grenade {at: nearest_us, within: 3}`` (MG loader, Aware 9): the
    German throws at a US soldier within 3 hexes (G6 → G9) and skips the action at 4 (G10).
    US4 (aware, PC 5) decides to throw it out (RULES.md §9: his decision, the loader's turn
    waiting behind it), tries at −2 and fails (4); the blast wounds him (5)."""
    g, u, partner = squad(US4, us_hex)
    loader = add_german(g, "mg_loader", "G6", aware=True)
    rounds(g)
    force(g, [9, 5, 4, 5] if thrown else [9])
    german_turn(g, loader)
    events = g._take_events()
    assert (g.state.turn.mode == "throw_out") is thrown
    if thrown:  # taken, without advancing play past the loader's turn (no more dice)
        grenades.throw_out(g, take=True)
        events += g._take_events()
    assert event(events, "german_card")["actions"] == ["throw_grenade", "hold"]
    if thrown:
        ev = event(events, "throw")
        assert ev["unit"] == loader.name and ev["landing"] == us_hex and ev["need"] == 5
        assert event(events, "throw_out")["unit"] == "US4"
        assert u.wounded
        assert "grenade" not in loader.equipment
    else:
        assert event(events, "german_skip")["action"] == "throw_grenade"
        assert not events_of(events, "throw")
        assert "grenade" in loader.equipment
    assert g.dice.forced_left == 0


def test_german_grenade_thrown_back_explodes_on_him():
    """RULES.md §9 ⚙: a US soldier who throws out a German grenade (US4 PC 5 − 2: 3) lobs it
    into the German's hex; the loader rolls on the Outside row (9: killed)."""
    g, u, partner = squad(US4, "G9")
    loader = add_german(g, "mg_loader", "G6", aware=True)
    rounds(g)
    force(g, [9, 5, 3, 9])
    german_turn(g, loader)
    events = g._take_events()
    grenades.throw_out(g, take=True)  # his decision: thrown out (RULES.md §9)
    events += g._take_events()
    assert event(events, "throw_out")["success"] is True
    assert event(events, "blast")["unit"] == loader.name
    assert loader.status == Status.KILLED and not u.wounded
