"""The PREPARE order (RULES.md §6, §8; ``shooting.prepare_kind``) and the command orders
GIVE_TURN / MAKE_AWARE (RULES.md §5; seed 002 p. 26), played through ``Game.step`` on the
farm_assault map. Complements test_sequence_of_play.py, which covers the CR boundary of the
sergeant, wounded receivers of GIVE_TURN and the basic MAKE_AWARE.

Ratings (configs/squads/standard.yaml): US1 sergeant CR 2, US2 corporal CR 1, privates CR 0;
US4 carries an M1 Garand (clip 4 shots) and a spare clip, US6 a satchel charge and a clip.
"""

from __future__ import annotations

import pytest
from engine_helpers import add_german, clear_board, force, fresh_game, give_turn, put, rounds

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Direction, Phase
from ambush_env.core.play.legal import legal_orders
from ambush_env.core.rules.damage import apply_damage

US1, US2, US4, US6, US7, US8 = 0, 1, 3, 5, 6, 7  # squad slots


def enc(kind: K, arg: int = 0) -> int:
    return O.encode(kind, arg)


def kinds(orders: list[int]) -> set[K]:
    return {O.decode(a)[0] for a in orders}


def refused(g, order: int, unit: str) -> None:
    """Absent from the legal orders; ``step`` raises naming the order's unit."""
    assert order not in g.legal_actions()
    with pytest.raises(IllegalActionError, match=unit):
        g.step(order)


def squad(placements: dict[int, str]):
    """A game with the given squad slots on the map (slot → hex), every other slot removed."""
    g = fresh_game()
    clear_board(g, keep=0)
    return g, [put(g, slot, label) for slot, label in placements.items()]


def act(g, u, keep_going) -> None:
    """Round 3, ``u`` acting; ``keep_going`` keeps a 1-Turn so the Round goes on after him."""
    rounds(g)
    keep_going.ar = int(ARSpace.ONE_TURN)
    give_turn(g, u)


def arm(u, weapon: str, *, prepared: bool, ammo: int | None = None) -> None:
    from ambush_env.core.world.tables import load_tables

    u.weapon = weapon
    u.ammo = load_tables().weapons.weapons[weapon].clip if ammo is None else ammo
    u.prepared = prepared


# ============================================================================ PREPARE
def test_prepare_reloads_a_dry_weapon_with_a_clip():
    """RULES.md §8: a dry weapon needs a new clip; shooting.prepare_kind 'reload': PREPARE uses
    up a clip carried (weapons.yaml reload item) and fills the weapon (M1 Garand: 4 shots).
    It is the soldier's action for the turn; then he may fire again."""
    g, (u, partner) = squad({US4: "G6", US8: "A14"})
    u.ammo = 0
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    assert enc(K.FIRE_AIMED, 0) not in g.legal_actions()
    assert enc(K.PREPARE) in g.legal_actions()
    clips = u.equipment.count("clip_m1_garand")
    events = g.step(enc(K.PREPARE))
    assert [e for e in events if e["type"] == "reload"] == [
        {"type": "reload", "unit": "US4", "weapon": "m1_garand"}
    ]
    assert u.ammo == g.weapon("m1_garand").clip == 4
    assert u.equipment.count("clip_m1_garand") == clips - 1
    assert g.acting_unit() is partner
    give_turn(g, u)
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


def test_no_reload_without_a_clip_for_the_weapon():
    """RULES.md §8: with no clip for his weapon (only a grenade and a Thompson clip) a dry
    soldier cannot reload."""
    g, (u, partner) = squad({US4: "G6", US8: "A14"})
    u.ammo = 0
    u.equipment = ["grenade", "clip_thompson"]
    act(g, u, partner)
    refused(g, enc(K.PREPARE), "US4")


def test_nothing_to_prepare_no_prepare_order():
    """shooting.prepare_kind: a loaded rifle, no bazooka, crew weapon or satchel: no PREPARE."""
    g, (u, partner) = squad({US4: "G6", US8: "A14"})
    act(g, u, partner)
    refused(g, enc(K.PREPARE), "US4")


@pytest.mark.parametrize("ammo, offered", [(0, True), (1, False)])
def test_operations_prepare_is_reload_only(ammo, offered):
    """legal.py (RULES.md §5): in Operations PREPARE is offered only to reload a dry weapon —
    one shot left is not dry — and it is the soldier's Operations action."""
    g, (u,) = squad({US4: "G6"})
    u.ammo = ammo
    g.step(enc(K.SELECT_UNIT, US4))
    assert g.state.phase == Phase.OPERATIONS
    if offered:
        g.step(enc(K.PREPARE))
        assert u.ammo == 4 and g.state.pulse == 1  # his action ended the one-man pulse
    else:
        refused(g, enc(K.PREPARE), "US4")


def test_operations_prepare_no_bazooka_loading():
    """legal.py (RULES.md §5): preparing a bazooka is not an Operations action."""
    g, (u,) = squad({US4: "G6"})
    arm(u, "bazooka", prepared=False)
    u.equipment = ["clip_bazooka"]
    g.step(enc(K.SELECT_UNIT, US4))
    refused(g, enc(K.PREPARE), "US4")


def test_reload_comes_before_the_satchel():
    """shooting.prepare_kind: 'first that applies' — a dry US6 carrying a clip and a satchel
    reloads; the satchel stays unprepared."""
    g, (u, partner) = squad({US6: "G6", US8: "A14"})
    u.ammo = 0
    act(g, u, partner)
    g.step(enc(K.PREPARE))
    assert u.ammo == 4 and not u.satchel_ready
    give_turn(g, u)
    g.step(enc(K.PREPARE))
    assert u.satchel_ready


def test_prepare_bazooka_then_fire_aimed():
    """RULES.md §6, §8: a bazooka must be prepared (loaded) before it fires; firing unloads it
    (weapons.yaml fire_clears_prepare). US4 with a bazooka at G6, a German at G9."""
    g, (u, partner) = squad({US4: "G6", US8: "A14"})
    arm(u, "bazooka", prepared=False)
    u.equipment = ["clip_bazooka"]
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    assert enc(K.FIRE_AIMED, 0) not in g.legal_actions()
    events = g.step(enc(K.PREPARE))
    assert {"type": "prepare", "unit": "US4", "weapon": "bazooka"} in events
    assert u.prepared and u.equipment == ["clip_bazooka"]
    give_turn(g, u)
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()
    assert enc(K.PREPARE) not in g.legal_actions()
    force(g, [9])  # a miss
    g.step(enc(K.FIRE_AIMED, 0))
    assert not u.prepared and u.ammo == 0


def test_one_prepare_loads_the_next_rocket():
    """RULES.md §6, §8: after a shot, one prepare action (using a rocket from the port boxes)
    makes the bazooka ready to fire again."""
    g, (u, partner) = squad({US4: "G6", US8: "A14"})
    arm(u, "bazooka", prepared=True)
    u.equipment = ["clip_bazooka"]
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    force(g, [9])
    g.step(enc(K.FIRE_AIMED, 0))
    give_turn(g, u)
    g.step(enc(K.PREPARE))
    assert u.equipment == []
    give_turn(g, u)
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


@pytest.mark.parametrize("mate_hex, offered", [("G6", True), ("G7", False), (None, False)])
def test_prepare_crew_weapon_needs_the_second_man(mate_hex, offered):
    """RULES.md §6, §8: crew weapons need two soldiers in the hex and a prepare action; the
    second man must be in the gunner's hex to set it up (US7 in G6 yes, next door no)."""
    placements = {US4: "G6", US8: "A14"}
    if mate_hex:
        placements[US7] = mate_hex
    g, units = squad(placements)
    u, partner = units[0], units[1]
    arm(u, "m1919", prepared=False)
    add_german(g, "rifleman", "G9")
    act(g, u, partner)
    assert enc(K.FIRE_AIMED, 0) not in g.legal_actions()
    if offered:
        g.step(enc(K.PREPARE))
        assert u.prepared
        give_turn(g, u)
        assert enc(K.FIRE_AIMED, 0) in g.legal_actions()
    else:
        refused(g, enc(K.PREPARE), "US4")


# ============================================================================ command
def _command(commander_slot: int, commander_hex: str, others: dict[int, str]):
    """Round 3 with the commander acting (1-Turn); ``others`` in Complete; US8 keeps a 1-Turn
    far away at A14 so the Round goes on."""
    placements = {commander_slot: commander_hex, **others, US8: "A14"}
    g, units = squad(placements)
    add_german(g, "rifleman", "R14", aware=False)
    act(g, units[0], units[-1])
    return g, units[0], units[1:-1], units[-1]


def test_panicked_commander_gives_no_turns():
    """Seed 002 p. 26: a panicked soldier loses his remaining turns and does nothing; a panicked
    commander has no Command Radius. With US4 (Complete) in his CR the sergeant may give him
    a turn — panicked (a Panic result), the sergeant never gets his turn, US4 is out of
    command, and no command order could come from him."""
    g, (u, pvt, partner) = squad({US1: "E5", US4: "E6", US8: "A14"})
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    u.ar = partner.ar = int(ARSpace.ONE_TURN)
    g.invalidate()
    assert {x.slot for x in g.eligible_units()} == {US1, US8}
    assert enc(K.GIVE_TURN, US4) in legal_orders(g, u)
    assert g.in_command(pvt)
    apply_damage(g, u.uid, "panic")
    g.invalidate()
    assert u.ar == ARSpace.PANIC and u.panicked
    assert {x.slot for x in g.eligible_units()} == {US8}
    refused(g, enc(K.SELECT_UNIT, US1), "select")
    assert not g.in_command(pvt)
    assert not kinds(legal_orders(g, u)) & {K.GIVE_TURN, K.MAKE_AWARE}


def test_wounded_commander_gives_no_command_orders():
    """RULES.md §5 (in command = within the CR of an unwounded commander), seed 002 p. 26: a
    wounded sergeant gives no turns and wakes no one; unwounded he may do both."""
    g, sgt, (pvt, sleeper), _ = _command(US1, "E5", {US4: "E6", US7: "E4"})
    sleeper.aware = False
    g.invalidate()
    assert {enc(K.GIVE_TURN, US4), enc(K.MAKE_AWARE)} <= set(g.legal_actions())
    sgt.wounded = True
    g.invalidate()
    refused(g, enc(K.GIVE_TURN, US4), "US1")
    refused(g, enc(K.MAKE_AWARE), "US1")


@pytest.mark.parametrize(
    "space, offered",
    [
        (ARSpace.COMPLETE, True),
        (ARSpace.ONE_TURN, False),
        (ARSpace.TWO_TURN, False),
        (ARSpace.PANIC, False),
    ],
)
def test_give_turn_only_to_a_soldier_in_complete(space, offered):
    """RULES.md §5: a commander gives 'one in-command soldier in Complete' a turn — not one who
    still has turns, nor a panicked one (seed 002 p. 26: he does nothing this Round)."""
    g, sgt, (pvt,), _ = _command(US1, "E5", {US4: "E6"})
    pvt.ar = int(space)
    pvt.panicked = space == ARSpace.PANIC
    g.invalidate()
    if offered:
        assert enc(K.GIVE_TURN, US4) in g.legal_actions()
    else:
        refused(g, enc(K.GIVE_TURN, US4), "US1")


@pytest.mark.parametrize("pvt_hex, offered", [("E6", True), ("E7", False)])
def test_give_turn_within_the_corporals_cr_one(pvt_hex, offered):
    """RULES.md §4-§5: the corporal's CR is 1 hex: E5 → E6 yes, E7 (2 hexes) no."""
    g, cpl, (pvt,), _ = _command(US2, "E5", {US4: pvt_hex})
    assert cpl.CR == 1
    if offered:
        assert enc(K.GIVE_TURN, US4) in g.legal_actions()
    else:
        refused(g, enc(K.GIVE_TURN, US4), "US2")


def test_privates_have_no_command_orders():
    """RULES.md §4: privates have CR 0: no GIVE_TURN or MAKE_AWARE even next to a soldier in
    Complete or an unaware one."""
    g, pvt, (other,), _ = _command(US4, "E5", {US7: "E5"})
    other.aware = False
    g.invalidate()
    assert not kinds(g.legal_actions()) & {K.GIVE_TURN, K.MAKE_AWARE}
    refused(g, enc(K.GIVE_TURN, US7), "US4")


def test_give_turn_spends_the_commanders_turn_and_the_soldier_acts():
    """RULES.md §5: giving a turn is the commander's turn (a 2-Turn sergeant drops to 1-Turn);
    the soldier's marker goes to 1-Turn, he acts in the 1-Turn space and then is Complete."""
    g, sgt, (pvt,), keep = _command(US1, "E5", {US4: "E6"})
    sgt.ar = int(ARSpace.TWO_TURN)
    events = g.step(enc(K.GIVE_TURN, US4))
    assert {"type": "give_turn", "unit": "US1", "to": "US4"} in events
    assert sgt.ar == ARSpace.ONE_TURN
    assert pvt.ar == ARSpace.ONE_TURN
    assert {x.slot for x in g.eligible_units()} == {US1, US4, US8}
    g.step(enc(K.SELECT_UNIT, US4))
    assert g.acting_unit() is pvt
    g.step(enc(K.END_TURN))
    assert pvt.ar == ARSpace.COMPLETE


def test_command_orders_only_when_choosing_an_action():
    """RULES.md §6: one action per turn — a sergeant who has started a move may not also give a
    turn (E5 → E4: the move is his action)."""
    g, sgt, (pvt,), _ = _command(US1, "E5", {US4: "E6"})
    g.step(enc(K.MOVE, Direction.N))
    assert g.state.turn.mode == "move" and g.board.distance(sgt.hex, pvt.hex) <= sgt.CR
    refused(g, enc(K.GIVE_TURN, US4), "US1")


def test_make_aware_spares_the_wounded_and_those_beyond_cr():
    """RULES.md §5, seed 002 p. 26: MAKE_AWARE wakes every unaware soldier within the CR (2),
    his own hex included, but not a wounded one nor one 3 hexes away; it is his turn."""
    g, sgt, (same, near, hurt, edge, far), keep = _command(
        US1, "E5", {US2: "E5", US4: "E6", US6: "E6", US7: "E7", 2: "E8"}
    )
    for x in (same, near, hurt, edge, far):
        x.aware = False
    hurt.wounded = True
    g.invalidate()
    events = g.step(enc(K.MAKE_AWARE))
    made = next(e for e in events if e["type"] == "make_aware")["made_aware"]
    assert sorted(made) == ["US2", "US4", "US7"]
    assert same.aware and near.aware and edge.aware
    assert not hurt.aware and not far.aware
    assert sgt.ar == ARSpace.COMPLETE


@pytest.mark.parametrize(
    "who, offered",
    [
        ("unaware", True),
        ("all aware", False),
        ("only wounded unaware", False),
        ("only unaware beyond CR", False),
    ],
)
def test_make_aware_offered_only_when_someone_can_be_woken(who, offered):
    """legal.py (RULES.md §5): MAKE_AWARE is offered only when an unwounded unaware soldier is
    within the commander's CR."""
    g, sgt, (x,), _ = _command(US1, "E5", {US4: "E8" if who == "only unaware beyond CR" else "E6"})
    x.aware = who == "all aware"
    x.wounded = who == "only wounded unaware"
    g.invalidate()
    if offered:
        assert enc(K.MAKE_AWARE) in g.legal_actions()
    else:
        refused(g, enc(K.MAKE_AWARE), "US1")


def test_soldier_made_aware_may_fire():
    """RULES.md §5: a soldier the commander made aware is no longer held by the Round-1
    restriction: US4 (unaware, 1-Turn) could not fire at the German at G9; after the
    sergeant's MAKE_AWARE he may."""
    g, (sgt, pvt) = squad({US1: "G5", US4: "G6"})
    add_german(g, "rifleman", "G9")
    rounds(g, round_no=1)
    pvt.ar = int(ARSpace.ONE_TURN)
    pvt.aware = False
    give_turn(g, sgt)
    assert enc(K.FIRE_AIMED, 0) not in legal_orders(g, pvt)
    g.step(enc(K.MAKE_AWARE))
    assert pvt.aware and g.acting_unit() is pvt
    assert enc(K.FIRE_AIMED, 0) in g.legal_actions()


def test_moving_a_crew_weapon_unprepares_it():
    """RULES.md §6 (move a crew weapon) ⚙: a prepared crew weapon moved with its gunner must
    be prepared again before it fires; a personal weapon is unaffected."""
    from ambush_env.core.model.types import ARSpace, Direction

    g = fresh_game()
    clear_board(g, keep=3)
    gunner = put(g, 0, "A2")
    put(g, 1, "A3")
    partner = put(g, 2, "A14")
    gunner.weapon, gunner.ammo, gunner.prepared = "m1919", 10, True
    add_german(g, "rifleman", "R14", aware=False, known=False)
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    give_turn(g, gunner)
    events = g.step(enc(K.MOVE, Direction.S))
    assert not gunner.prepared
    assert [e for e in events if e["type"] == "crew_weapon_moved"]
