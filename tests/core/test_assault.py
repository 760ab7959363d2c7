"""Assault and capture (RULES.md §10; RULES.md §6 charge assault; seed 002 p. 25-26; numbers ⚙
in ``data/rules.yaml: assault`` and the ``assault`` row of ``data/damage.yaml``), played
through ``Game.step`` on the farm_assault map with every roll forced on both sides of its
threshold.

Ratings used (configs/squads/standard.yaml, cards/regular.yaml): US1 WS +1 (sergeant), US4
WS 0 MV 5, US7 WS 0 MV 4, US8 WS −1; the German rifleman WS 0 MV 4, the NCO (nco_smg) WS +1.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    add_german,
    clear_board,
    force,
    fresh_game,
    german_action,
    give_turn,
    put,
    rounds,
)

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Direction, Phase, Stance, Status
from ambush_env.core.rules.assault import chance

S, C, P = Stance.STANDING, Stance.CROUCHING, Stance.PRONE
US1, US4, US7, US8 = 0, 3, 6, 7  # squad slots
KILL, CAPTURE = K.ASSAULT_KILL, K.ASSAULT_CAPTURE


def enc(kind: K, arg: int = 0) -> int:
    return O.encode(kind, arg)


def squad(slot: int, label: str, stance: int = S):
    """A game with one US soldier (squad ``slot``) at ``label`` and a partner far away at A14
    (US2, whose WS and position never enter an assault here)."""
    g = fresh_game()
    clear_board(g, keep=0)
    u = put(g, slot, label, stance)
    partner = put(g, 1, "A14")
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


def assault_orders(g) -> list[int]:
    return [a for a in g.legal_actions() if O.decode(a)[0] in (KILL, CAPTURE)]


def refused(g, order: int) -> None:
    """The order is not offered and ``step`` raises (docs/STYLE.md habit 2: one source of legality)."""
    assert order not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.step(order)


# ---------------------------------------------------------------------------- the chance
CHANCE_CASES = [
    # id, attacker slot, extra attacker slots (same hex), attacker wounded, defender card,
    # defender state, expected chance, expected named parts
    ("base", US4, [], False, "rifleman", {}, 5, {"base": 5}),
    ("attacker WS +1", US1, [], False, "rifleman", {}, 6, {"base": 5, "attacker_ws": 1}),
    ("attacker WS -1", US8, [], False, "rifleman", {}, 4, {"base": 5, "attacker_ws": -1}),
    ("one extra attacker", US4, [US7], False, "rifleman", {}, 6, {"base": 5, "extra_attackers": 1}),
    (
        "two extra attackers",
        US4,
        [US7, US1],
        False,
        "rifleman",
        {},
        7,
        {"base": 5, "extra_attackers": 2},
    ),
    ("wounded attacker", US4, [], True, "rifleman", {}, 3, {"base": 5, "wounded": -2}),
    ("defender WS +1", US4, [], False, "nco_smg", {}, 4, {"base": 5, "defender_ws": -1}),
    ("defender WS +1 wounded", US4, [], False, "nco_smg", {"wounded": True}, 5, {"base": 5}),
    (
        "defender WS +1 panicked",
        US4,
        [],
        False,
        "nco_smg",
        {"panicked": True},
        7,
        {"base": 5, "unaware_or_panicked_defender": 2},
    ),
    (
        "defender WS +1 unaware",
        US4,
        [],
        False,
        "nco_smg",
        {"aware": False},
        6,
        {"base": 5, "defender_ws": -1, "unaware_or_panicked_defender": 2},
    ),
    ("defender WS -1 gives nothing", US4, [], False, "rifleman", {"WS": -1}, 5, {"base": 5}),
    (
        "unaware defender",
        US4,
        [],
        False,
        "rifleman",
        {"aware": False},
        7,
        {"base": 5, "unaware_or_panicked_defender": 2},
    ),
]


def _chance_scene(slot, extras, wounded, card, dstate):
    g, u, partner = squad(slot, "G6")
    for s in extras:
        put(g, s, "G6")
    u.wounded = wounded
    ger = add_german(g, card, "G6", aware=dstate.get("aware", True))
    ger.wounded = dstate.get("wounded", False)
    ger.WS = dstate.get("WS", ger.WS)
    act(g, u, partner)
    ger.panicked = dstate.get("panicked", False)
    if ger.panicked:
        ger.ar = int(ARSpace.PANIC)
    g.invalidate()
    return g, u, ger


@pytest.mark.parametrize("margin", [0, 1], ids=["at-chance", "one-above"])
@pytest.mark.parametrize(
    "slot, extras, wounded, card, dstate, expected, parts",
    [c[1:] for c in CHANCE_CASES],
    ids=[c[0] for c in CHANCE_CASES],
)
def test_assault_chance_part_by_part(slot, extras, wounded, card, dstate, expected, parts, margin):
    """RULES.md §10 ⚙: chance = 5 + attacker WS + 1 per extra attacker in the hex − 2 if the
    attacker is wounded (seed 002 p. 26) − the defender's WS when it is +1 or better and he
    is neither wounded nor panicked, + 2 against an unaware or panicked defender. A roll at
    the chance captures; one above fails (a strike-back roll of 9 is supplied in case)."""
    g, u, ger = _chance_scene(slot, extras, wounded, card, dstate)
    assert chance(g, u, ger) == (expected, parts)
    force(g, [expected + margin, 9])
    events = g.step(enc(CAPTURE, 0))
    ev = event(events, "assault")
    assert ev["chance"] == expected and ev["modifiers"] == parts
    assert ev["rolls"]["assault"] == expected + margin
    assert ev["success"] is (margin == 0)
    assert (ger.status == Status.CAPTURED) is (margin == 0)


def test_incapacitated_extra_soldier_is_no_extra_attacker():
    """assault.py: only active soldiers of the attacker's side count as extra attackers."""
    g, u, ger = _chance_scene(US4, [US7], False, "rifleman", {})
    g.us_units()[US7].status = int(Status.INCAPACITATED)
    assert chance(g, u, ger) == (5, {"base": 5})


# ---------------------------------------------------------------------------- kill and capture
@pytest.mark.parametrize(
    "damage_roll, result",
    [
        (0, "panic"),
        (1, "wound"),
        (2, "wound"),
        (3, "incapacitated"),
        (5, "incapacitated"),
        (6, "kill"),
        (9, "kill"),
    ],
)
def test_kill_assault_rolls_on_the_assault_row(damage_roll, result):
    """RULES.md §10: a successful Kill assault rolls on the assault row (damage.yaml: 0 panic,
    1-2 wound, 3-5 incapacitated, 6-9 kill; a higher roll is worse)."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [5, damage_roll])
    events = g.step(enc(KILL, 0))
    assert event(events, "assault")["success"] is True
    dmg = event(events, "assault_damage")
    assert dmg["unit"] == ger.name and dmg["result"] == result
    expected_status = {"incapacitated": Status.INCAPACITATED, "kill": Status.KILLED}
    assert ger.status == expected_status.get(result, Status.ACTIVE)
    assert ger.wounded is (result == "wound")
    assert ger.panicked is (result == "panic")
    assert not events_of(events, "strike_back")


def test_capture_assault_takes_a_prisoner():
    """RULES.md §10, seed 002 p. 25: a successful Capture assault puts the German prone under a
    Captured marker with his AR marker in Inactive; the attacker guards him. He can be
    neither assaulted nor fired at again."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [5])
    g.step(enc(CAPTURE, 0))
    assert ger.status == Status.CAPTURED
    assert ger.stance == P
    assert ger.ar == ARSpace.INACTIVE
    assert ger.guard == u.uid
    give_turn(g, u)
    legal = g.legal_actions()
    assert not assault_orders(g)
    assert not any(O.decode(a)[0] in (K.FIRE_AIMED, K.FIRE_SNAP) for a in legal)


def test_capture_is_recorded_as_an_event():
    """docs/STYLE.md habit 5 / assault.py: a capture is an event of the step, like a kill."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [5])
    events = g.step(enc(CAPTURE, 0))
    assert event(events, "captured") == {"type": "captured", "unit": ger.name, "guard": "US4"}


# ---------------------------------------------------------------------------- strike back
@pytest.mark.parametrize("roll, hits", [(5, True), (6, False)])
def test_failed_assault_aware_defender_strikes_back(roll, hits):
    """RULES.md §10: on a failure the defender, if active and aware, strikes back once at his
    own chance (rifleman vs US4: 5); a hit rolls on the assault row against the attacker
    (6: killed)."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [6, roll] + ([6] if hits else []))
    events = g.step(enc(KILL, 0))
    assert event(events, "assault")["success"] is False
    sb = event(events, "strike_back")
    assert sb["unit"] == ger.name and sb["target"] == "US4"
    assert sb["chance"] == 5 and sb["modifiers"] == {"base": 5}
    assert sb["success"] is hits
    assert u.status == (Status.KILLED if hits else Status.ACTIVE)
    assert ger.status == Status.ACTIVE and not ger.wounded
    assert g.dice.forced_left == 0


def test_strike_back_uses_the_defenders_own_chance():
    """RULES.md §10: the strike back is an assault at the defender's chance: the NCO (WS +1)
    against US1 (WS +1, unwounded): 5 + 1 − 1 = 5."""
    g, u, partner = squad(US1, "G6")
    add_german(g, "nco_smg", "G6")
    act(g, u, partner)
    force(g, [6, 9])  # US1: 5 + 1 − 1 = 5, fails on 6
    sb = event(g.step(enc(KILL, 0)), "strike_back")
    assert sb["chance"] == 5
    assert sb["modifiers"] == {"base": 5, "attacker_ws": 1, "defender_ws": -1}


def test_no_strike_back_after_a_successful_assault():
    """RULES.md §10: only a failure brings a strike back."""
    g, u, partner = squad(US4, "G6")
    add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [5, 0])
    events = g.step(enc(KILL, 0))
    assert not events_of(events, "strike_back")
    assert g.dice.forced_left == 0


def test_panicked_defender_does_not_strike_back():
    """RULES.md §10 / seed 002 p. 26: a panicked defender does nothing: no strike back (the only
    roll is the failed assault, 8 against 7)."""
    g, u, ger = _chance_scene(US4, [], False, "rifleman", {"panicked": True})
    force(g, [8])
    events = g.step(enc(KILL, 0))
    assert event(events, "assault")["chance"] == 7
    assert not events_of(events, "strike_back")
    assert u.status == Status.ACTIVE


def test_unaware_defender_does_not_strike_back():
    """RULES.md §10: only an active and aware defender strikes back. The unaware rifleman
    (chance 7) survives a failed assault (8) but does not strike back: one roll only."""
    g, u, ger = _chance_scene(US4, [], False, "rifleman", {"aware": False})
    force(g, [8, 9])
    events = g.step(enc(KILL, 0))
    assert event(events, "assault")["success"] is False
    assert not events_of(events, "strike_back")
    assert g.dice.forced_left == 1


def test_assaulted_german_becomes_aware():
    """engine.py ⚙: an unaware German becomes aware when he is assaulted."""
    g, u, ger = _chance_scene(US4, [], False, "rifleman", {"aware": False})
    force(g, [7, 0])  # success; assault row 0: panic
    g.step(enc(KILL, 0))
    assert ger.aware and ger.panicked


# ---------------------------------------------------------------------------- charge assault
def _charge_scene(start: str, ger_hex: str, stance: int = S, slot: int = US4):
    g, u, partner = squad(slot, start, stance)
    ger = add_german(g, "rifleman", ger_hex)
    act(g, u, partner)
    return g, u, ger


def test_charge_assault_within_half_mv():
    """RULES.md §6: move + charge assault: up to half MV (US4 MV 5: 2 MPs) into the defender's
    hex, then the assault is the only order. E6 → E7 (clear, 1) → E8 (road, 1): 2 MPs."""
    g, u, ger = _charge_scene("E6", "E8")
    g.step(enc(K.MOVE, Direction.S))
    assert g.board.label(u.hex) == "E7"
    assert enc(K.MOVE, Direction.S) in g.legal_actions()
    g.step(enc(K.MOVE, Direction.S))
    assert u.hex == ger.hex and g.state.turn.mode == "charge"
    assert sorted(g.legal_actions()) == [enc(KILL, 0), enc(CAPTURE, 0)]
    force(g, [5])
    g.step(enc(CAPTURE, 0))
    assert ger.status == Status.CAPTURED and ger.guard == u.uid


def test_charge_beyond_half_mv_refused():
    """RULES.md §6: a charge may not spend more than half MV: after E5 → E6 → E7 (clear, 1 MP
    each) US4 may not enter the German's E8 (3 MPs in all > 2)."""
    g, u, ger = _charge_scene("E5", "E8")
    g.step(enc(K.MOVE, Direction.S))
    g.step(enc(K.MOVE, Direction.S))
    assert g.board.label(u.hex) == "E7" and g.state.turn.mp_spent == 2
    refused(g, enc(K.MOVE, Direction.S))


@pytest.mark.parametrize("stance, offered", [(S, True), (C, False)])
def test_charge_counts_the_cost_of_the_defenders_hex(stance, offered):
    """RULES.md §6: the charge's MPs include entering the defender's hex: the brush of E5 costs
    2 standing (= half of MV 5, rounded down), 3 crouching (too much)."""
    g, u, ger = _charge_scene("E6", "E5", stance)
    order = enc(K.MOVE, Direction.N)
    if offered:
        assert order in g.legal_actions()
    else:
        refused(g, order)


@pytest.mark.parametrize("slot, mv, charge_mp", [(US4, 5, 2), (US7, 4, 2)])
def test_charge_allowance_is_half_mv_rounded_down(slot, mv, charge_mp):
    """RULES.md §6 ⚙ (rules.yaml charge_fraction 0.5): half MV, rounded down."""
    from ambush_env.core.play.legal import charge_allowance

    g, u, _ = _charge_scene("E6", "E8", slot=slot)
    assert mv == u.MV and charge_allowance(g, u) == charge_mp


def test_wounded_soldier_charges_one_mp():
    """Seed 002 p. 26 (MV 2 when wounded) + RULES.md §6: a wounded soldier charges 1 MP: the
    next clear hex, not the brush."""
    g, u, partner = squad(US4, "E6")
    u.wounded, u.MV = True, 2
    add_german(g, "rifleman", "E7")
    add_german(g, "rifleman", "E5")
    act(g, u, partner)
    assert enc(K.MOVE, Direction.S) in g.legal_actions()
    refused(g, enc(K.MOVE, Direction.N))


def test_no_charge_into_a_hex_of_only_incapacitated_germans():
    """Seed 002 p. 26: incapacitated soldiers cannot be assaulted: entering their hex is an
    ordinary move, and no assault order is offered there."""
    g, u, ger = _charge_scene("E6", "E7")
    ger.status = int(Status.INCAPACITATED)
    ger.ar = int(ARSpace.INACTIVE)
    g.invalidate()
    g.step(enc(K.MOVE, Direction.S))
    assert u.hex == ger.hex and g.state.turn.mode == "move"
    assert not assault_orders(g)


@pytest.mark.parametrize("status", [Status.INCAPACITATED, Status.CAPTURED, Status.KILLED])
def test_inactive_soldiers_cannot_be_assaulted(status):
    """Seed 002 p. 25-26, RULES.md §10: incapacitated (and captured, killed) soldiers cannot be
    assaulted: no ASSAULT order, and ``step`` refuses one."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    ger.status = int(status)
    ger.guard = u.uid if status == Status.CAPTURED else -1
    act(g, u, partner)
    assert not assault_orders(g)
    refused(g, enc(KILL, 0))
    refused(g, enc(CAPTURE, 0))


def test_assault_needs_the_same_hex():
    """RULES.md §10: an assault is made in the same hex (a German next door is charged, not
    assaulted from where one stands)."""
    g, u, ger = _charge_scene("E6", "E7")
    assert not assault_orders(g)
    refused(g, enc(KILL, 0))


def test_unaware_soldier_cannot_assault():
    """RULES.md §5: unaware soldiers may move and change stance, not fire or assault — neither
    in their own hex nor as a charge."""
    g, u, partner = squad(US4, "E6")
    add_german(g, "rifleman", "E6")
    add_german(g, "rifleman", "E7")
    act(g, u, partner)
    u.aware = False
    g.invalidate()
    assert not assault_orders(g)
    assert enc(K.MOVE, Direction.S) not in g.legal_actions()


# ---------------------------------------------------------------------------- German assaults
@pytest.mark.parametrize("us_hex, charges", [("N9", True), ("N10", False)])
def test_german_charge_within_half_mv(us_hex, charges):
    """RULES.md §6, §14 ``assault {at: adjacent_weakest, kind: kill}``: a German charges into the
    next hex when it costs at most half his MV (rifleman MV 4: 2): from M10 into clear N9
    (1 MP) he charges and assaults US4 (chance 5: 5 hits, assault row 6 kills); rubble N10
    (3 MPs) is too far and the action is skipped."""
    g, u, partner = squad(US4, us_hex)
    ger = add_german(g, "rifleman", "M10")
    rounds(g)
    force(g, [5, 6] if charges else [])
    ran = german_action(g, ger, "assault", {"at": "adjacent_weakest", "kind": "kill"})
    assert ran is charges
    if charges:
        assert ger.hex == u.hex
        assert u.status == Status.KILLED
    else:
        assert g.board.label(ger.hex) == "M10" and u.status == Status.ACTIVE


def test_german_does_not_assault_an_incapacitated_soldier():
    """Seed 002 p. 26: an incapacitated soldier is not attacked on purpose: a German next to
    one (and no one else) finds no one to assault."""
    g, u, partner = squad(US4, "N9", P)
    u.status = int(Status.INCAPACITATED)
    ger = add_german(g, "rifleman", "M10")
    rounds(g)
    force(g, [])
    assert german_action(g, ger, "assault", {"at": "adjacent_weakest", "kind": "kill"}) is False
    assert g.board.label(ger.hex) == "M10"


def test_capture_leaves_rounds_until_round_end():
    """seed 002 p. 25 / engine.py: with every German inactive after a capture, Operations
    resume at the end of the Round (not in the middle of it)."""
    g, u, partner = squad(US4, "G6")
    ger = add_german(g, "rifleman", "G6")
    act(g, u, partner)
    force(g, [5])
    g.step(enc(CAPTURE, 0))
    assert ger.status == Status.CAPTURED
    assert g.state.phase == Phase.ROUNDS and g.acting_unit() is partner
    g.step(enc(K.END_TURN))
    assert g.state.phase == Phase.OPERATIONS
