"""Orders the rules forbid (RULES.md §5, §6, §8, §9): each is absent from
``Game.legal_actions()`` and ``Game.step`` raises ``IllegalActionError`` naming the order and
the unit — and the same order is offered once the forbidding condition is lifted, so each
test shows both sides of its rule.

Setups on the farm_assault map; weapon ids from ``data/weapons.yaml`` (``bazooka``: class
bazooka, never snaps; ``m1919``: class hmg, a crew weapon).
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    add_german,
    clear_board,
    force,
    fresh_game,
    give_turn,
    put,
    resolve,
    rounds,
)

from ambush_env.core.combat import sighting
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Direction, Phase, Stance
from ambush_env.core.play import sequence

S, C, P = Stance.STANDING, Stance.CROUCHING, Stance.PRONE
US4, US6, US7 = 3, 5, 6  # squad slots


def enc(kind: K, arg: int = 0) -> int:
    return O.encode(kind, arg)


def offset(g, src: str, dest: str) -> int:
    s, d = g.board.index(src), g.board.index(dest)
    return next(k for k in range(O.N_OFFSETS) if g.offset_target(s, k) == d)


def squad(slot: int, label: str, stance: int = S):
    """A game with one US soldier (squad ``slot``) at ``label`` and a partner far away at A14."""
    g = fresh_game()
    clear_board(g, keep=0)
    u = put(g, slot, label, stance)
    partner = put(g, 7, "A14")
    return g, u, partner


def act(g, u, partner) -> None:
    """Round 3, ``u`` acting; the partner keeps a 1-Turn so the Round goes on after him."""
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    give_turn(g, u)


def kinds(g) -> set[K]:
    return {O.decode(a)[0] for a in g.legal_actions()}


def refused(g, order: int, unit: str) -> None:
    """Absent from the legal orders; ``step`` raises naming the order's unit."""
    assert order not in g.legal_actions()
    with pytest.raises(IllegalActionError, match=unit):
        g.step(order)


def arm(u, weapon: str, *, prepared: bool, ammo: int | None = None) -> None:
    """Give ``u`` a weapon of ``weapons.yaml`` (a full clip unless ``ammo``)."""
    from ambush_env.core.world.tables import load_tables

    u.weapon = weapon
    u.ammo = load_tables().weapons.weapons[weapon].clip if ammo is None else ammo
    u.prepared = prepared


# ---------------------------------------------------------------------------- bazooka
def test_bazooka_never_snap_fires():
    """RULES.md §6, §8: 'two snap fires (not a bazooka)'; 'bazookas ... never snap fire'. A
    prepared bazooka is offered aimed fire at the visible German (G6 → G9), never snap fire."""
    g, u, partner = squad(US4, "G6")
    arm(u, "bazooka", prepared=True)
    ger = add_german(g, "rifleman", "G9")
    act(g, u, partner)
    assert g.can_see(u, ger)
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()
    refused(g, enc(K.FIRE_SNAP, 0), "US4")


def test_bazooka_no_snap_fire_after_moving():
    """RULES.md §6, §8: the move + snap fire action is closed to a bazooka too (US4 moves one
    hex, 1 MP ≤ half MV: a rifleman could snap fire here)."""
    g, u, partner = squad(US4, "G6")
    arm(u, "bazooka", prepared=True)
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    g.step(enc(K.MOVE, Direction.S))
    assert g.state.turn.mode == "move"
    refused(g, enc(K.FIRE_SNAP, 0), "US4")
    arm(u, "m1_garand", prepared=False)  # the same moment with a rifle
    g.invalidate()
    assert enc(K.FIRE_SNAP, 0) in g.legal_actions()


def test_unprepared_bazooka_cannot_fire():
    """RULES.md §8: bazookas must be prepared (loaded) before they fire."""
    g, u, partner = squad(US4, "G6")
    arm(u, "bazooka", prepared=False)
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    refused(g, enc(K.FIRE_AIMED, 0), "US4")
    assert enc(K.PREPARE) in g.legal_actions()


# ---------------------------------------------------------------------------- crew weapons
@pytest.mark.parametrize("mate", [None, "active", "panicked", "incapacitated", "next hex"])
def test_crew_weapon_needs_a_second_man_in_the_hex(mate):
    """RULES.md §6, §8: aimed or snap fire with a crew weapon needs two soldiers in the hex (and
    the weapon prepared). US4 with a prepared M1919 at G6; only an active, unpanicked US7 in
    the same hex makes the second man."""
    from ambush_env.core.model.types import Status

    g, u, partner = squad(US4, "G6")
    arm(u, "m1919", prepared=True)
    if mate is not None:
        m = put(g, US7, "G7" if mate == "next hex" else "G6")
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    if mate == "panicked":
        m.panicked, m.ar = True, int(ARSpace.PANIC)
    if mate == "incapacitated":
        m.status, m.ar = int(Status.INCAPACITATED), int(ARSpace.INACTIVE)
    g.invalidate()
    if mate == "active":
        assert {enc(K.FIRE_AIMED, 0), enc(K.FIRE_SNAP, 0)} <= set(g.legal_actions())
    else:
        refused(g, enc(K.FIRE_AIMED, 0), "US4")
        refused(g, enc(K.FIRE_SNAP, 0), "US4")


# ---------------------------------------------------------------------------- satchel charges
@pytest.mark.parametrize("stance, offered", [(S, True), (C, False), (P, False)])
def test_satchel_thrown_standing_only(stance, offered):
    """RULES.md §9: 'satchel: standing, 3 hexes' — a prone (or crouching) soldier cannot throw
    a prepared satchel; standing he may (US6 at E8, target E6)."""
    g, u, partner = squad(US6, "E8", stance)
    u.satchel_ready = True
    act(g, u, partner)
    order = enc(K.SATCHEL, offset(g, "E8", "E6"))
    if offered:
        assert order in g.legal_actions()
    else:
        assert K.SATCHEL not in kinds(g)
        refused(g, order, "US6")


@pytest.mark.parametrize("stance, offered", [(S, True), (C, False), (P, False)])
def test_satchel_prepared_standing_only(stance, offered):
    """shooting.prepare_kind (RULES.md §6, §9 ⚙): a satchel charge is prepared standing, the
    stance it is thrown from; US6's rifle is loaded, so PREPARE means the satchel here."""
    g, u, partner = squad(US6, "E8", stance)
    act(g, u, partner)
    if offered:
        assert enc(K.PREPARE) in g.legal_actions()
    else:
        refused(g, enc(K.PREPARE), "US6")


# ---------------------------------------------------------------------------- range
@pytest.mark.parametrize(
    "slot, kind, stance, inside, outside",
    [
        (US4, K.GRENADE, C, "E5", "E4"),  # crouching: 3 hexes
        (US6, K.SATCHEL, S, "E5", "E4"),  # satchel: 3 hexes
        (US4, K.GRENADE, P, None, "E7"),  # prone: not even the next hex
    ],
)
def test_throw_beyond_range_refused(slot, kind, stance, inside, outside):
    """RULES.md §9: grenades 3 hexes crouching, 6 standing; satchels 3 standing; prone never.
    One hex beyond the range is refused, the last hex within it is offered."""
    g, u, partner = squad(slot, "E8", stance)
    u.satchel_ready = True
    act(g, u, partner)
    if inside is not None:
        assert enc(kind, offset(g, "E8", inside)) in g.legal_actions()
    refused(g, enc(kind, offset(g, "E8", outside)), u.name)


def test_no_throw_without_the_item():
    """RULES.md §4, §9: a soldier throws only what his port boxes hold (US4's two grenades:
    after both, no more GRENADE orders)."""
    g, u, partner = squad(US4, "E8")
    act(g, u, partner)
    force(g, [0, 0])
    for _ in range(2):
        assert K.GRENADE in kinds(g)
        g.step(enc(K.GRENADE, offset(g, "E8", "E5")))
        give_turn(g, u)
    assert "grenade" not in u.equipment
    assert K.GRENADE not in kinds(g)
    refused(g, enc(K.GRENADE, offset(g, "E8", "E5")), "US4")


# ---------------------------------------------------------------------------- awareness
def _round_one():
    """Rounds begin (RULES.md §5) with US7 the only US soldier who passed a sighting check: US4
    and US7 at G6 both see an aware German at G9; initiative US 9, Germans 0 (the US acts
    first, both soldiers on 2-Turn)."""
    g = fresh_game()
    clear_board(g, keep=0)
    us4 = put(g, US4, "G6")
    us7 = put(g, US7, "G6")
    add_german(g, "rifleman", "G9", aware=True)
    force(g, [9, 0])
    sequence.begin_rounds(g, "a German placed aware", {us7.uid})
    g._take_events()
    g.invalidate()
    return g, us4, us7


def test_unaware_soldier_cannot_fire_in_round_one():
    """RULES.md §5: in Round 1 US soldiers who did not pass a sighting check are unaware — they
    may move and change stance, not fire (nor throw or assault). In the same hex, at the same
    German, US7 (passed) may fire and US4 (did not) may not."""
    g, us4, us7 = _round_one()
    assert g.state.phase == Phase.ROUNDS and g.state.round == 1
    assert not us4.aware and us7.aware
    assert {u.slot for u in g.eligible_units()} == {US4, US7}
    g.step(enc(K.SELECT_UNIT, US4))
    legal = kinds(g)
    assert K.MOVE in legal and K.STANCE in legal
    for kind in (K.FIRE_AIMED, K.FIRE_SNAP, K.GRENADE):
        assert kind not in legal
    refused(g, enc(K.FIRE_AIMED, 0), "US4")
    g.step(enc(K.END_TURN))
    assert g.acting_unit() is us7  # the only 2-Turn soldier left: selected automatically
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


def test_unaware_soldier_may_fire_from_round_three():
    """RULES.md §5: from Round 3 all are aware — the same US4 who could not fire in Round 1."""
    g, us4, us7 = _round_one()
    g.state.round = 2
    force(g, [9, 0])  # initiative of Round 3
    sequence.end_round(g)
    assert g.state.round == 3 and us4.aware
    g.step(enc(K.SELECT_UNIT, US4))
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


def test_failed_sighting_check_leaves_soldier_unaware_after_the_free_snap_fire():
    """RULES.md §5, §7: a German is sighted by US4 and US7 (PC 5) at G6: US4 fails (6), US7
    passes (5) and takes the free snap fire (forced to miss, 9). In Round 1 US4 is unaware and
    may not fire."""
    g = fresh_game()
    clear_board(g, keep=0)
    us4 = put(g, US4, "G6")
    us7 = put(g, US7, "G6")
    ger = add_german(g, "rifleman", "G9", aware=True, known=False)
    force(g, [6, 5, 9, 9, 0])  # PC checks, the snap shot's hit roll, initiative US 9 / German 0
    sighting.sighting(g, ger, [us4, us7])
    resolve(g)
    assert g.state.turn.mode == "free_snap" and g.state.turn.uid == us7.uid  # his decision
    g.step(enc(K.FIRE_SNAP, g.state.contacts.index(ger.uid)))  # taken (RULES.md §7)
    assert g.state.phase == Phase.ROUNDS and g.state.round == 1
    assert us7.aware
    assert not us4.aware


# ---------------------------------------------------------------------------- other states
def test_dry_weapon_cannot_fire():
    """RULES.md §8: a dry weapon needs a new clip: no fire until it is reloaded."""
    g, u, partner = squad(US4, "G6")
    u.ammo = 0
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    refused(g, enc(K.FIRE_AIMED, 0), "US4")
    refused(g, enc(K.FIRE_SNAP, 0), "US4")


def test_jammed_weapon_cannot_fire_until_cleared():
    """RULES.md §6, §8: a jammed weapon does not fire; clearing the jam is an action (PC check:
    US3 PC 5 clears on 5, not on 6)."""
    g, u, partner = squad(2, "G6")  # US3 with the BAR
    u.jammed = True
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    refused(g, enc(K.FIRE_AIMED, 0), "US3")
    force(g, [6])
    g.step(enc(K.CLEAR_JAM))
    assert u.jammed
    give_turn(g, u)
    force(g, [5])
    g.step(enc(K.CLEAR_JAM))
    assert not u.jammed
    give_turn(g, u)
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


def test_no_rounds_orders_in_operations():
    """RULES.md §5: Operations actions are moves, stance changes, clearing jams, reloading,
    waiting ... — no fire, grenade, satchel, assault or command order."""
    g = fresh_game()
    clear_board(g, keep=0)
    u = put(g, 0, "G6")  # the sergeant, grenades in his port boxes
    g.step(enc(K.SELECT_UNIT, 0))
    assert g.state.phase == Phase.OPERATIONS and g.acting_unit() is u
    legal = kinds(g)
    for kind in (
        K.FIRE_AIMED,
        K.FIRE_SNAP,
        K.GRENADE,
        K.SATCHEL,
        K.ASSAULT_KILL,
        K.ASSAULT_CAPTURE,
        K.GIVE_TURN,
        K.MAKE_AWARE,
    ):
        assert kind not in legal
