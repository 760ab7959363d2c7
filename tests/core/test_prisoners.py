"""Prisoners, captured equipment, carrying and dragging (seed 002 p. 25-27; RULES.md §4, §11)."""

from __future__ import annotations

from engine_helpers import add_german, clear_board, force, fresh_game, give_turn, put, rounds
from test_result_bands import RiggedDice, path

from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Direction, Phase, Side, Stance, Status
from ambush_env.core.rules import enter
from ambush_env.core.rules.assault import capture


def enc(kind, arg=0):
    return O.encode(kind, arg)


def _ops(g, slot=0):
    """Select squad slot ``slot`` for its Operations action."""
    g.invalidate()
    if g.acting_unit() is None:
        g.step(enc(K.SELECT_UNIT, slot))


# ---------------------------------------------------------------------------- prisoners
def test_capture_puts_german_prone_inactive_with_guard():
    """seed 002, p. 25: a capture puts the German prone under a Captured marker, inactive."""
    g = fresh_game()
    us = put(g, 0, "E5")
    ger = add_german(g, "rifleman", "E5")
    capture(g, ger, us)
    assert ger.status == Status.CAPTURED and ger.stance == Stance.PRONE and ger.guard == us.uid


def test_move_prisoner_moves_guard_and_prisoner():
    """seed 002, p. 25: a US soldier in the hex may move him (Operations: one hex)."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "A2")
    ger = add_german(g, "rifleman", "A2")
    capture(g, ger, us)
    _ops(g)
    assert enc(K.MOVE_PRISONER, Direction.N) in g.legal_actions()
    g.step(enc(K.MOVE_PRISONER, Direction.N))
    assert us.hex == ger.hex == g.board.index("A1")


def test_move_prisoner_in_rounds_both_have_two_mp():
    """seed 002, p. 25: moving a prisoner, both have MV 2: two clear hexes, not a third."""
    g = fresh_game()
    clear_board(g, keep=2)
    us = put(g, 0, "A2")
    put(g, 1, "A14")
    ger = add_german(g, "rifleman", "A2")
    capture(g, ger, us)
    add_german(g, "rifleman", "R14", aware=False)  # keeps the Rounds going
    rounds(g)
    g.state.units[1].ar = 2
    give_turn(g, us)
    g.step(enc(K.MOVE_PRISONER, Direction.S))
    assert g.state.turn.mode == "prisoner" and g.state.turn.mp_left == 1
    g.step(enc(K.MOVE_PRISONER, Direction.S))
    assert g.board.label(ger.hex) == "A4" and g.state.turn.uid != us.uid


def test_prisoner_left_alone_escapes_and_rounds_commence():
    """seed 002, p. 25: left in a hex with no active US soldier, the prisoner is free at once:
    Rounds commence, every US soldier is aware, he acts on Self-Preservation."""
    g = fresh_game()
    clear_board(g, keep=2)
    us = put(g, 0, "A2")
    put(g, 1, "A10")
    ger = add_german(g, "rifleman", "A2", known=False)
    capture(g, ger, us)
    for u in g.us_units():
        u.aware = False
    _ops(g)
    force(g, [5, 5] + [9] * 10)  # initiative of the Round that begins, then his card
    g.step(enc(K.MOVE, Direction.N))  # the guard walks away
    assert ger.status == Status.ACTIVE and ger.escaped and ger.uid in g.state.contacts
    assert g.state.phase == Phase.ROUNDS
    assert all(u.aware for u in g.us_units() if u.status == Status.ACTIVE)
    from ambush_env.core.play.german import column_for

    assert column_for(g, ger) == "self_preservation"


def test_escaped_prisoner_out_of_sight_leaves_the_map():
    """seed 002, p. 25: out of sight at the start of a turn, he is removed from the map."""
    from engine_helpers import german_turn

    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "A1")
    ger = add_german(g, "rifleman", "Q4")  # deep in the Reuter Wood
    ger.escaped = True
    rounds(g)
    assert not g.can_see(g.us_units()[0], ger)
    german_turn(g, ger)
    assert ger.status == Status.REMOVED and ger.hex == -1


def test_escaped_prisoner_in_sight_acts():
    """seed 002, p. 25: in sight, the escaped prisoner acts on his Self-Preservation column."""
    from engine_helpers import german_turn

    g = fresh_game()
    clear_board(g, keep=1)
    put(g, 0, "J5")
    ger = add_german(g, "rifleman", "J3")
    ger.escaped = True
    rounds(g)
    force(g, [9, 9, 9, 9])  # self-preservation 8-9: prone, snap fire
    german_turn(g, ger)
    assert ger.status == Status.ACTIVE and ger.stance == Stance.PRONE


def test_prisoners_never_harmed_by_us_orders():
    """seed 002, p. 25: prisoners may never be harmed: no grenade into their hex, no automatic
    fire at a German standing with them."""
    g = fresh_game()
    clear_board(g, keep=2)
    us = put(g, 0, "J5")  # US1: Thompson (automatic), grenades
    guard = put(g, 1, "J3")
    pris = add_german(g, "rifleman", "J3")
    capture(g, pris, guard)
    other = add_german(g, "rifleman", "J3")
    rounds(g)
    give_turn(g, us)
    k = g.state.contacts.index(other.uid)
    legal = g.legal_actions()
    assert enc(K.FIRE_AIMED, k) not in legal and enc(K.FIRE_SNAP, k) not in legal
    target_offsets = [a for a in legal if O.decode(a)[0] == K.GRENADE]
    assert target_offsets, "grenades are offered elsewhere"
    assert all(g.offset_target(us.hex, O.decode(a)[1]) != pris.hex for a in target_offsets)
    pris.status = Status.KILLED  # no prisoner: both are offered again
    g.invalidate()
    legal = g.legal_actions()
    assert enc(K.FIRE_AIMED, k) in legal
    assert any(
        O.decode(a)[0] == K.GRENADE and g.offset_target(us.hex, O.decode(a)[1]) == other.hex
        for a in legal
    )


def test_guard_cannot_fire_a_crew_weapon():
    """seed 002, p. 25: the guard acts normally except that he cannot fire a crew weapon."""
    from ambush_env.core.rules.fire import weapon_refusal

    g = fresh_game()
    clear_board(g, keep=2)
    gunner = put(g, 0, "E5")
    put(g, 1, "E5")
    gunner.weapon, gunner.ammo, gunner.prepared = "m1919", 10, True
    assert weapon_refusal(g, gunner, snap=False) is None
    pris = add_german(g, "rifleman", "E5")
    capture(g, pris, gunner)
    assert "guard" in weapon_refusal(g, gunner, snap=False)


# ---------------------------------------------------------------------------- equipment
def test_pick_up_captured_weapon_one_clip_counts_lower():
    """seed 002, p. 27: a captured weapon comes with one clip (none if the German ran dry) and
    the user's rating counts 1 lower; his own weapon is laid down."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    dead = add_german(g, "nco_smg", "E5")
    dead.status = Status.KILLED
    _ops(g)
    from ambush_env.core.rules.carry import items_here

    here = items_here(g, us.hex)
    slot = next(i for i, x in enumerate(here) if x[2] == "weapon:mp40")
    g.step(enc(K.PICK_UP, slot))
    assert us.weapon == "mp40" and us.captured_weapon
    assert us.ammo == g.weapon("mp40").clip
    clip = g.weapon("thompson").clip
    assert f"weapon:thompson:{clip}" in g.state.items[str(us.hex)]  # laid down, rounds kept
    # the -1 applies to his fire
    from ambush_env.core.rules.fire import to_hit

    target = add_german(g, "rifleman", "E3")
    n, mods = to_hit(g, us, target, snap=False)
    assert dict(mods).get("captured_weapon") == -1


def test_pick_up_weapon_of_a_german_who_ran_dry_has_no_clip():
    """seed 002, p. 27: none if the German had run dry."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    dead = add_german(g, "rifleman", "E5")
    dead.status = Status.KILLED
    dead.ammo = 0
    _ops(g)
    g.step(enc(K.PICK_UP, 0))  # the kar98 is first: no loose items
    assert us.weapon == "kar98" and us.ammo == 0


def test_captured_grenades_as_us_grenades_within_port_boxes():
    """seed 002, p. 27: grenades as US grenades; RULES.md §4: only while the boxes have room."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")  # US1 carries 4 items: full
    dead = add_german(g, "rifleman", "E5")
    dead.status = Status.KILLED
    _ops(g)
    from ambush_env.core.rules.carry import items_here

    gslot = next(i for i, x in enumerate(items_here(g, us.hex)) if x[2] == "grenade")
    assert enc(K.PICK_UP, gslot) not in g.legal_actions()
    g.step(enc(K.DROP, 3))  # drop a clip
    _ops(g)
    gslot = next(i for i, x in enumerate(items_here(g, us.hex)) if x[2] == "grenade")
    # next pulse: pick the grenade up
    while g.acting_unit() is None or g.acting_unit().uid != us.uid:
        g.step(g.legal_actions()[0])
    g.step(enc(K.PICK_UP, gslot))
    assert us.equipment.count("grenade") == 3


def test_drag_incapacitated_kills_on_zero():
    """seed 002, p. 26: a standing active soldier may drag him one hex; it kills him on a 0."""
    for roll, killed in ((0, True), (1, False)):
        g = fresh_game()
        clear_board(g, keep=2)
        us = put(g, 0, "A2")
        hurt = put(g, 1, "A2")
        hurt.status = Status.INCAPACITATED
        hurt.ar = 5
        _ops(g)
        force(g, [roll])
        g.step(enc(K.DRAG, Direction.N))
        assert us.hex == hurt.hex == g.board.index("A1")
        assert (hurt.status == Status.KILLED) is killed


def test_prone_soldier_cannot_drag():
    """seed 002, p. 26: only a *standing* soldier drags."""
    g = fresh_game()
    clear_board(g, keep=2)
    put(g, 0, "A2", Stance.PRONE)
    hurt = put(g, 1, "A2")
    hurt.status = Status.INCAPACITATED
    _ops(g)
    assert not any(O.decode(a)[0] == K.DRAG for a in g.legal_actions())


# ---------------------------------------------------------------------------- the mission line
def test_scripted_capture_and_march_off_scores():
    """seed 002, p. 25 with the farm_assault VP schedule: US1 charges the unaware rifleman in
    the farmhouse through the yard door, captures him, takes the farm, marches him to the east edge and off:
    objective 10 + captured 3 + marched off 2 + exit 2 = 17 VP."""
    from ambush_env.core import Game

    g = Game("farm_assault")
    g.reset(seed=0)

    class Dice(RiggedDice):
        def d10(self, why=""):
            if "sighting" in why or "awareness" in why:
                r = 9  # nobody notices anybody: the rifleman stays unaware
            elif "assault" in why:
                r = 0
            else:
                return super().d10(why)
            self.log.append((why, r))
            return r

    g.dice = Dice(0)
    clear_board(g, keep=1)
    b = g.board
    avoid = {h for h, t in g.triggers.items() if t.paragraph in (10, 40)}
    farm, door = b.index("L6"), b.index("M6")
    goal_exit = b.index("R3")
    for _ in range(400):
        if g.over:
            break
        legal = g.legal_actions()
        u = g.acting_unit()
        if u is None:
            g.step(legal[0])
            continue
        ger = [x for x in g.state.units if x.side == Side.GERMAN]
        capt = [a for a in legal if O.decode(a)[0] == K.ASSAULT_CAPTURE]
        if capt:
            g.step(capt[0])
            continue
        if ger and ger[0].status == Status.CAPTURED:
            if enc(K.EXIT_MAP) in legal and u.hex == goal_exit:
                g.step(enc(K.EXIT_MAP))
                continue
            if u.hex == farm:  # out through the door first
                g.step(enc(K.MOVE_PRISONER, b.direction(farm, door)))
                continue
            nxt = path(g, u, goal_exit, avoid, max_cost=2)[0]  # both have MV 2
            a = enc(K.MOVE_PRISONER, b.direction(u.hex, nxt))
            g.step(a if a in legal else legal[0])
            continue
        if u.hex == door and ger:  # charge through the door (1 MP, within half MV)
            a = enc(K.MOVE, b.direction(door, farm))
        else:
            nxt = path(g, u, door, avoid)[0]
            a = enc(K.MOVE, b.direction(u.hex, nxt))
        g.step(
            a
            if a in legal
            else next(x for x in legal if O.decode(x)[0] in (K.END_TURN, K.END_MOVE))
        )
    (ger,) = [x for x in g.state.units if x.side == Side.GERMAN]
    assert ger.status == Status.REMOVED and ger.exited
    assert g.over and g.stats()["us_exited"] == 1
    vp = g.mission.vp
    assert (
        g.vp
        == vp.objective_taken + vp.german_captured + vp.prisoner_marched_off + vp.exit_per_soldier
    )
    assert [e for e in g.state.vp_log if "marched off" in e[0]]


def test_swapping_weapons_never_refills_one():
    """seed 002, p. 27: a captured weapon has one clip, none if the German had run dry; US
    ammunition rules apply from then on: laying a weapon down and taking it up again keeps
    its rounds (⚙ loose weapons keep their ammunition), so swapping is no free reload."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    us.ammo = 0  # his Thompson is dry
    us.equipment = []
    dead = add_german(g, "nco_smg", "E5")
    dead.status = Status.KILLED
    dead.ammo = 0  # ran dry: the MP40 comes with nothing
    from ambush_env.core.rules.carry import items_here

    _ops(g)
    here = items_here(g, us.hex)
    g.step(enc(K.PICK_UP, next(i for i, x in enumerate(here) if x[2] == "weapon:mp40")))
    assert us.weapon == "mp40" and us.ammo == 0
    _ops(g)
    here = items_here(g, us.hex)
    g.step(
        enc(K.PICK_UP, next(i for i, x in enumerate(here) if x[2].startswith("weapon:thompson")))
    )
    assert us.weapon == "thompson" and us.ammo == 0
    _ops(g)
    here = items_here(g, us.hex)
    g.step(enc(K.PICK_UP, next(i for i, x in enumerate(here) if x[2].startswith("weapon:mp40"))))
    assert us.weapon == "mp40" and us.ammo == 0


def test_german_clips_are_not_captured_equipment():
    """seed 002, p. 27: weapons (one clip), grenades, radios and vehicles are captured; the
    German's spare clips are not (⚙), so a captured weapon is never reloaded from them."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    us.equipment = []
    dead = add_german(g, "nco_smg", "E5")  # grenade, grenade, clip_mp40, clip_mp40
    dead.status = Status.KILLED
    from ambush_env.core.rules.carry import items_here

    _ops(g)
    here = items_here(g, us.hex)
    offered = {
        here[a - O.ORDER_BASE[K.PICK_UP]][2]
        for a in g.legal_actions()
        if O.decode(a)[0] == K.PICK_UP
    }
    assert "grenade" in offered and "clip_mp40" not in offered


def test_escaped_prisoner_whose_weapon_was_taken_moves_without_error():
    """seed 002, p. 25 and 27: a captured MG gunner's prepared MG42 is taken; left alone he
    escapes and acts on Self-Preservation, unarmed (found by an independent check: the
    engine used to fail on his empty weapon)."""
    from ambush_env.core.rules.assault import capture
    from ambush_env.core.rules.carry import items_here

    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    gunner = add_german(g, "mg_gunner", "E5")
    gunner.prepared = True
    capture(g, gunner, us)
    _ops(g)
    here = items_here(g, us.hex)
    g.step(enc(K.PICK_UP, next(i for i, x in enumerate(here) if x[2] == "weapon:mg42")))
    assert gunner.weapon == "" and not gunner.prepared and gunner.ammo == 0
    from ambush_env.core.combat.shooting import prepare_kind

    assert prepare_kind(g, gunner) is None
    enter.pack_crew_weapon(g, gunner)  # moving him: nothing to pack, no error
