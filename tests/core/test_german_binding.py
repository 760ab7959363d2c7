"""The rules that bind the US order generator bind the Germans too (issue 9).

Before issue 9 the card interpreter built its own legality: a German carried out every action
of his card row with no MP budget and no turn structure. Now he takes every order from
``legal_orders`` — the generator the US side uses — so these rules, which used to live only
in the US generator, bind him as well. One forced-situation test each, on the Farm Assault
map with the regular deck (``data/cards/regular.yaml``), the card roll (the first d10 of his
turn, ``"{name} card ({column})"``) forced to pick the row, every later die forced, on both
sides of the rule's threshold:

1. Prone: one hex per move action (RULES.md §6) —
   :func:`test_a_prone_german_enters_one_hex_per_move_action`.
2. MP costs bind the move action, crouching +1 per hex (RULES.md §6) —
   :func:`test_a_crouching_german_pays_one_more_mp_per_hex`.
3. Move + snap fire only after at most half MV (RULES.md §6) —
   :func:`test_a_snap_shot_follows_a_move_only_within_half_mv`.
4. The charge allowance: a charge only at up to half MV, the move's MPs included (RULES.md §6,
   §10) — :func:`test_a_german_charges_only_within_the_charge_allowance`.
5. One action per turn: after clearing a jam, reloading, aimed fire or a grenade the row's
   later actions are not performed (RULES.md §6) —
   :func:`test_the_mg_gunner_does_one_thing_a_turn`,
   :func:`test_after_a_grenade_the_row_fires_no_more`.
6. Wounded: at most one turn per Round (seed 002 p. 26, RULES.md §5) —
   :func:`test_a_wounded_german_gets_one_turn_a_round`; each stance change costs 1 MP of his MV
   of 2 (seed 002 p. 26) — :func:`test_a_wounded_german_pays_a_mp_for_the_stance_his_card_names`,
   :func:`test_a_wounded_germans_stance_change_is_movement`.
7. Unaware soldiers may move and change stance, never fire (RULES.md §5) —
   :func:`test_an_unaware_german_moves_and_changes_stance_but_does_not_fire`.
8. One free stance change per turn, and it is no action: the turn goes on (RULES.md §6) —
   :func:`test_one_free_stance_change_a_turn`,
   :func:`test_the_free_stance_change_leaves_the_turn_its_action`.

(Rule 6's one turn a Round is the Action Round track's, RULES.md §5, which served both sides
already; it is here because a German's whole card turn now runs through the sequence of play.)
The random-play property test of the same rules is ``tests/property/test_german_rules.py``.

Ratings (cards/regular.yaml): rifleman MV 4 (half MV and the charge allowance: 2), PC 5,
kar98 (no jam check); MG gunner PC 5, MG42 (jams on a 9, clip of 4, a ``clip_mg42`` carried).
Map (maps/farm_assault.yaml): H1-N1, J2, K2 and J4 clear; K4 brush (2 MPs); L8 road with a
door into the farmhouse hex L7 (building, 1 MP).
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
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Stance, Status

S, C, P = int(Stance.STANDING), int(Stance.CROUCHING), int(Stance.PRONE)
US1, US2, US3, US4 = 0, 1, 2, 3  # squad slots


def events(evs, kind: str | None = None) -> list[dict]:
    """Events in their dict form (typed events or dicts), of one kind or all."""
    out = [e if isinstance(e, dict) else e.to_dict() for e in evs]
    return [e for e in out if kind is None or e["type"] == kind]


def log(g, kind: str | None = None) -> list[dict]:
    """The events the last German turn left in the log (dict form)."""
    return events(g.log, kind)


def played(g, ger) -> None:
    """The German's turn is over and every forced die was used."""
    assert g.state.turn.uid != ger.uid, "his turn did not end"
    assert g.dice.forced_left == 0, f"{g.dice.forced_left} forced dice unused"


def outnumbered_rifleman(stance: int, aware: bool = True):
    """A rifleman at J2 with US1, US2, US3 at H1, H2, I2: three to one within 2 hexes, so he
    reads Self-Preservation (rules.yaml ``german.outnumbered_*``, RULES.md §10, §14). East of
    him row 1-2 is open ground: K2, L1, M1, N1 clear (1 MP each)."""
    g = fresh_game()
    clear_board(g, keep=3)
    for slot, label in ((US1, "H1"), (US2, "H2"), (US3, "I2")):
        put(g, slot, label)
    ger = add_german(g, "rifleman", "J2", stance=stance, aware=aware)
    rounds(g)
    assert g.cards["rifleman"].MV == 4
    return g, ger


def walk(g) -> list[tuple[str, int]]:
    """(hex, MPs) of each hex the German entered."""
    return [(e["to"], e["mp"]) for e in log(g, "move")]


# ------------------------------------------------------------------ 1 prone: one hex per move
@pytest.mark.parametrize(
    "stance, path",
    [
        (S, [("K2", 1), ("L1", 1), ("M1", 1), ("N1", 1)]),
        (P, [("K2", 1)]),
    ],
)
def test_a_prone_german_enters_one_hex_per_move_action(stance, path):
    """RULES.md §6 "prone: one hex per move action". Self-Preservation 3-5 of the regular
    rifleman is ``move {toward: away, max: 4}``: standing he walks four clear hexes away (4
    MPs, his whole MV); prone he enters one hex and his move, and turn, is over (the card
    names no stance change, so he does not get up first). Before issue 9 he walked all four
    prone."""
    g, ger = outnumbered_rifleman(stance)
    force(g, [3])  # self_preservation 3-5: move away, max 4
    g.german_turn(ger)
    (card,) = log(g, "german_card")
    assert (card["column"], card["actions"]) == ("self_preservation", ["move"])
    assert walk(g) == path
    assert g.board.label(ger.hex) == path[-1][0] and ger.stance == stance
    played(g, ger)


# ---------------------------------------------------------- 2 MP costs: crouching +1 per hex
@pytest.mark.parametrize(
    "stance, path",
    [
        (S, [("K2", 1), ("L1", 1), ("M1", 1), ("N1", 1)]),
        (C, [("K2", 2), ("L1", 2)]),
    ],
)
def test_a_crouching_german_pays_one_more_mp_per_hex(stance, path):
    """RULES.md §6 MP costs: clear 1, crouching +1 per hex, and a move action's MPs are his MV.
    The same card (Self-Preservation 3-5, ``move {toward: away, max: 4}``) takes a standing
    rifleman four hexes at 1 MP, a crouching one two hexes at 2 MPs: MV 4 is spent either
    way, and the ``max: 4`` of the card does not stretch it."""
    g, ger = outnumbered_rifleman(stance)
    force(g, [3])
    g.german_turn(ger)
    assert walk(g) == path
    assert sum(mp for _, mp in path) == ger.MV == 4
    assert ger.stance == stance
    played(g, ger)


# ------------------------------------------------------- 3 move + snap fire within half MV
def snap_after_move(stance: int):
    """A rifleman at J4 (clear) whose cover is the brush hex K4 next to him, US1 at J8 in his
    sight: aware 8 of the regular rifleman is ``move {toward: cover, max: 2}``, ``snap_fire``."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, US1, "J8")
    ger = add_german(g, "rifleman", "J4", stance=stance)
    rounds(g)
    return g, ger, us


@pytest.mark.parametrize("stance, mp, fires", [(S, 2, True), (C, 3, False)])
def test_a_snap_shot_follows_a_move_only_within_half_mv(stance, mp, fires):
    """RULES.md §6 "move + snap fire (up to half MV, then one snap fire)", ``rules.yaml:
    fire.move_snap_fraction`` 0.5: MV 4, so a snap shot after at most 2 MPs. Standing he enters
    the brush K4 for 2 MPs (= half MV) and snap-fires once at US1 (hit roll 9: a miss); crouching
    the same hex costs 3 MPs, more than half, and the ``snap_fire`` of his card is skipped
    although US1 is in his sight. Before issue 9 he fired either way."""
    g, ger, us = snap_after_move(stance)
    assert g.rd.fire.move_snap_fraction * ger.MV == 2
    force(g, [8, 9] if fires else [8])  # aware 8: move to cover, snap_fire; (hit roll)
    g.german_turn(ger)
    assert walk(g) == [("K4", mp)]
    assert g.can_see(ger, us)
    shots = log(g, "fire")
    if fires:
        (shot,) = shots  # one snap shot after a move, not two
        assert (shot["mode"], shot["target"], shot["result"]) == ("snap", us.name, "miss")
        assert shot["to_hit"] < 9
        assert log(g, "german_skip") == []
    else:
        assert shots == []
        assert [e["action"] for e in log(g, "german_skip")] == ["snap_fire"]
    played(g, ger)


# --------------------------------------------------------------- 4 the charge allowance
@pytest.mark.parametrize("stance, charges", [(S, True), (C, False)])
def test_a_german_charges_only_within_the_charge_allowance(stance, charges):
    """RULES.md §6 "move + charge assault (up to half MV into the defender's hex)", §10;
    ``rules.yaml: assault.charge_fraction`` 0.5: the rifleman (MV 4) charges when the move
    into the defender's hex costs at most 2 MPs. Aware 9 is ``assault {at: adjacent_weakest,
    kind: kill}``, ``fire {mode: aimed}``; US4 stands in the brush hex K4 next to him.
    Standing, K4 costs 2 MPs: he charges (a paid move, flagged ``charge``) and assaults (chance
    5, roll 5 succeeds; assault row 6 kills), and the row's fire is not reached. Crouching, K4
    costs 3 MPs: the assault is skipped and he fires aimed from J4 instead (hit roll 9
    misses). The complement of ``test_assault.test_german_charge_within_half_mv`` (clear vs
    rubble, one card action), here through his whole card turn."""
    g = fresh_game()
    clear_board(g, keep=0)
    us = put(g, US4, "K4")
    put(g, US2, "A14")
    ger = add_german(g, "rifleman", "J4", stance=stance)
    rounds(g)
    assert int(ger.MV * g.rd.assault.charge_fraction) == 2
    force(g, [9, 5, 6] if charges else [9, 9])
    g.german_turn(ger)
    if charges:
        (mv,) = log(g, "move")
        assert (mv["to"], mv["mp"], mv["charge"]) == ("K4", 2, True)
        (a,) = log(g, "assault")
        assert (a["target"], a["chance"], a["success"]) == (us.name, 5, True)
        assert us.status == Status.KILLED and g.board.label(ger.hex) == "K4"
        assert log(g, "fire") == []
    else:
        assert log(g, "move") == [] and log(g, "assault") == []
        assert [e["action"] for e in log(g, "german_skip")] == ["assault"]
        (shot,) = log(g, "fire")
        assert (shot["mode"], shot["target"], shot["result"]) == ("aimed", us.name, "miss")
        assert us.status == Status.ACTIVE and g.board.label(ger.hex) == "J4"
    played(g, ger)


# ------------------------------------------------------------------ 5 one action per turn
@pytest.mark.parametrize(
    "state, rolls, expect",
    [
        ("jammed", [0, 3], "clear_jam"),  # PC check 3 <= 5: cleared
        ("jammed", [0, 6], "clear_jam"),  # 6 > 5: still jammed
        ("dry", [0], "reload"),
        ("ready", [0, 0, 9], "fire"),  # jam check 0, hit roll 9: a miss
    ],
)
def test_the_mg_gunner_does_one_thing_a_turn(state, rolls, expect):
    """RULES.md §6 "One action per turn": clearing a jam, preparing (here reloading a dry
    MG42 from the clip he carries) and aimed fire are each a whole action. Aware 0-5 of the
    MG gunner is ``clear_jam``, ``prepare``, ``fire {mode: aimed, at: most_exposed}``, a
    fallback chain: jammed, he clears the jam — whether the PC check succeeds or not — and
    that is his turn (no reload, no shot); dry, he reloads and does not fire; ready, the first
    two are skipped and he fires. Before issue 9 he cleared, prepared and fired in one turn."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, US1, "J8")
    ger = add_german(g, "mg_gunner", "J4")
    if state == "jammed":
        ger.jammed = True
    if state == "dry":
        ger.ammo = 0
    assert g.can_see(ger, us)
    force(g, rolls)
    rounds(g)
    g.german_turn(ger)
    done = [e["type"] for e in log(g) if e["type"] in ("clear_jam", "reload", "fire")]
    assert done == [expect]
    if state == "jammed":
        (cj,) = log(g, "clear_jam")
        assert cj["cleared"] is (rolls[1] <= ger.PC) and ger.jammed is not cj["cleared"]
    if state == "dry":
        assert ger.ammo == g.weapon("mg42").clip and "clip_mg42" not in ger.equipment
    if state == "ready":
        (shot,) = log(g, "fire")
        assert (shot["mode"], shot["result"], shot["rolls"]["jam"]) == ("aimed", "miss", 0)
    played(g, ger)


@pytest.mark.parametrize("has_grenade", [True, False])
def test_after_a_grenade_the_row_fires_no_more(has_grenade):
    """RULES.md §6 "prepare-and-throw a grenade" is his one action. Aware 7 of the rifleman is
    ``throw_grenade {at: largest_group, within: 3}``, ``fire {mode: aimed}``; US1 and US2 stand
    at J7, three hexes away and in his sight. With a grenade he throws it (PC check 9 fails,
    scatter 9: it lands in the empty I8) and the row's aimed fire is not performed; without
    one the throw is skipped and he fires aimed instead (hit roll 9 misses)."""
    g = fresh_game()
    clear_board(g, keep=2)
    a = put(g, US1, "J7")
    put(g, US2, "J7")
    ger = add_german(g, "rifleman", "J4")
    if not has_grenade:
        ger.equipment.remove("grenade")
    assert g.can_see(ger, a) and g.board.distance(ger.hex, a.hex) == 3
    rounds(g)
    force(g, [7, 9, 9] if has_grenade else [7, 9])  # card; throw PC check, scatter | hit roll
    g.german_turn(ger)
    if has_grenade:
        (throw,) = log(g, "throw")
        assert (throw["target"], throw["landing"]) == ("J7", "I8")
        assert log(g, "fire") == []
        assert "grenade" not in ger.equipment
    else:
        assert log(g, "throw") == []
        assert [e["action"] for e in log(g, "german_skip")] == ["throw_grenade"]
        (shot,) = log(g, "fire")
        assert (shot["mode"], shot["result"]) == ("aimed", "miss")
    played(g, ger)


# ----------------------------------------------------------------------------- 6 wounded
@pytest.mark.parametrize("wounded, turns", [(False, 2), (True, 1)])
def test_a_wounded_german_gets_one_turn_a_round(wounded, turns):
    """Seed 002 p. 26 (Wounded: "At most one per Round; a 2-Turn result becomes 1-Turn"),
    RULES.md §5. US1 ends his turn, the Round ends and the next begins: US initiative 0,
    German 9 (the Germans win), the rifleman's AR value 9 + IN 1 = 10 is 2-Turn. Unwounded he
    takes two turns before US1 (1-Turn: 0 + IN 3, a commander) acts; wounded, one. Out of US1's
    sight he finds nothing to fire at: each turn is one card roll (aware 2: aimed fire,
    skipped; Self-Preservation 6: surrender, stance prone, hold — all but the hold skipped)."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, US1, "A14")
    ger = add_german(g, "rifleman", "P3")
    if wounded:
        ger.wounded, ger.MV, ger.stance = True, 2, P  # as damage.py leaves a wounded man
    assert not g.can_see(ger, us)
    rounds(g)
    give_turn(g, us)
    force(g, [0, 9] + [6 if wounded else 2] * turns)
    evs = g.step(O.encode(K.END_TURN))
    (start,) = events(evs, "round_start")
    assert start["rolls"] == {"US": 0, "German": 9} and start["ar"][ger.name] == 10
    cards = events(evs, "german_card")
    assert [c["unit"] for c in cards] == [ger.name] * turns
    assert g.acting_unit() is us
    assert g.dice.forced_left == 0


@pytest.mark.parametrize(
    "start, us_at, cover, mp, prone",
    [
        # through the door: 1 MP, 1 left for the stance (the US soldier at R8 is as far from L7
        # as from L8: a Self-Preservation move never goes nearer the US, german._move)
        ("L8", "R8", "L7", 1, True),
        ("J4", "J8", "K4", 2, False),  # into the brush: 2 MPs, none left
    ],
)
def test_a_wounded_german_pays_a_mp_for_the_stance_his_card_names(start, us_at, cover, mp, prone):
    """Seed 002 p. 26 (Wounded: "Movement reduced to 2 ...; no free stance change, each change
    costs a Movement Point"; ``rules.yaml: movement.wounded_stance_mp``). A wounded rifleman
    (MV 2, standing) reads Self-Preservation 0-2: ``move {toward: cover, max: 2}``, ``stance
    prone``. When the cover costs 1 MP (the farmhouse hex L7 through its door) the last MP
    pays for going prone; when it costs 2 (the brush K4) his MV is spent and he stays
    standing — an unwounded man's change would have been free."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, US1, us_at)
    ger = add_german(g, "rifleman", start)
    ger.wounded, ger.MV = True, 2
    rounds(g)
    force(g, [0])
    g.german_turn(ger)
    (card,) = log(g, "german_card")
    assert (card["column"], card["actions"]) == ("self_preservation", ["move", "stance"])
    assert walk(g) == [(cover, mp)]
    assert ger.stance == (P if prone else S)
    assert [(e["from"], e["to"]) for e in log(g, "stance")] == ([(S, P)] if prone else [])
    played(g, ger)


def test_a_wounded_germans_stance_change_is_movement():
    """Seed 002 p. 26 with RULES.md §6: a wounded man's stance change costs a Movement Point,
    so it is movement: what may follow it is what may follow a move. A wounded, standing
    rifleman (MV 2) reads Self-Preservation 8-9, ``stance prone``, ``fire {mode: snap}``: going
    prone costs 1 MP, which is at most half his MV, so one snap shot follows ("move + snap
    fire", hit roll 9: a miss) and not two. (Unwounded, the same row gives a free change and
    both snap shots: :func:`test_an_unaware_german_moves_and_changes_stance_but_does_not_fire`,
    aware case.)"""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, US1, "J8")
    ger = add_german(g, "rifleman", "J4")
    ger.wounded, ger.MV = True, 2
    rounds(g)
    force(g, [8, 9])
    g.german_turn(ger)
    (card,) = log(g, "german_card")
    assert (card["column"], card["actions"]) == ("self_preservation", ["stance", "fire"])
    assert [(e["from"], e["to"]) for e in log(g, "stance")] == [(S, P)]
    assert g.can_see(ger, us)
    assert [(s["mode"], s["target"]) for s in log(g, "fire")] == [("snap", us.name)]
    played(g, ger)


# ------------------------------------------------------------------------------ 7 unaware
@pytest.mark.parametrize("aware, roll", [(True, 8), (False, 8), (False, 3)])
def test_an_unaware_german_moves_and_changes_stance_but_does_not_fire(aware, roll):
    """RULES.md §5 awareness: unaware soldiers "may move and change stance, not fire or
    assault". Outnumbered three to one, the rifleman reads Self-Preservation whether aware or
    not. 8-9 is ``stance prone``, ``fire {mode: snap, at: nearest_visible}``: aware, he drops
    prone and takes his two snap shots at US3 (hit rolls 9, 9: misses) and no third; unaware
    he drops prone and the fire is skipped. 3-5 is ``move {toward: away, max: 4}``: unaware,
    he walks away four hexes all the same."""
    g, ger = outnumbered_rifleman(S, aware=aware)
    force(g, [roll, 9, 9] if aware else [roll])
    g.german_turn(ger)
    if roll == 8:
        assert ger.stance == P and walk(g) == []
        shots = log(g, "fire")
        if aware:
            assert [(s["mode"], s["target"]) for s in shots] == [("snap", "US3")] * 2
        else:
            assert shots == []
            assert [e["action"] for e in log(g, "german_skip")] == ["fire"]
    else:
        assert walk(g) == [("K2", 1), ("L1", 1), ("M1", 1), ("N1", 1)]
        assert log(g, "fire") == []
    assert ger.aware is aware
    played(g, ger)


# ------------------------------------------------------------- 8 the free stance change
@pytest.mark.parametrize("wounded", [False, True])
def test_one_free_stance_change_a_turn(wounded):
    """RULES.md §6 "One free stance change per turn (not for the wounded: 1 MP each)";
    seed 002 p. 26. Card actions ``stance`` carried out one after another in one turn of the
    rifleman: unwounded, the first (to crouching) is free — no MPs, no move action, his turn
    goes on — and the second (to prone) is skipped. Wounded (MV 2, prone), each change costs
    1 MP of a move action: to crouching (1 MP), to standing (2 MPs), and his MV and his turn
    are spent."""
    g = fresh_game()
    clear_board(g, keep=1)
    put(g, US1, "A14")
    ger = add_german(g, "rifleman", "J2")
    if wounded:
        ger.wounded, ger.MV, ger.stance = True, 2, P
    rounds(g)
    force(g, [])

    def t():  # the turn state (a new one once a turn ends)
        return g.state.turn

    assert german_action(g, ger, "stance", {"to": "crouching"}) is True
    assert ger.stance == C and t().uid == ger.uid
    if not wounded:
        assert (t().mode, t().mp_spent, t().stance_changed) == ("", 0, True)
        assert german_action(g, ger, "stance", {"to": "prone"}) is False
        assert ger.stance == C and t().uid == ger.uid
    else:
        assert (t().mode, t().mp_spent) == ("move", 1)
        assert german_action(g, ger, "stance", {"to": "standing"}) is True
        assert ger.stance == S and t().uid != ger.uid  # 2 MPs: the move action and turn end
    assert [(e["from"], e["to"]) for e in log(g, "stance")] == (
        [(S, C)] if not wounded else [(P, C), (C, S)]
    )


def test_the_free_stance_change_leaves_the_turn_its_action():
    """RULES.md §6: the free stance change is no action. Aware 0-1 of the rifleman is
    ``stance prone``, ``fire {mode: aimed, at: nearest_visible}``: he drops prone and still
    fires aimed at US1 in the same turn (hit roll 9: a miss) — and nothing after it."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, US1, "J8")
    ger = add_german(g, "rifleman", "J4")
    rounds(g)
    force(g, [0, 9])
    g.german_turn(ger)
    assert [(e["from"], e["to"]) for e in log(g, "stance")] == [(S, P)]
    (shot,) = log(g, "fire")
    assert (shot["mode"], shot["target"], shot["result"]) == ("aimed", us.name, "miss")
    assert g.can_see(ger, us)
    played(g, ger)
