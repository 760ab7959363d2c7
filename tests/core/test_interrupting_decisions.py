"""Decisions that interrupt a turn (RULES.md §7, §9): a sighting's free snap fire and the
throw-out of a live German grenade are the US soldier's to take or decline ("may take", "may
instead try"). Each is a decision of its own (``turn.mode`` ``free_snap`` / ``throw_out``,
the interrupted turn saved in ``state.interrupted``): ``FIRE_SNAP`` / ``THROW_OUT`` takes it,
``END_TURN`` declines it, nothing else is legal, the mask says the same, and play resumes
where it stopped. Positions write and read it.

Played on farm_assault's map with forced dice (tests/core/engine_helpers.py). US1 PC 6 sees
into the farmhouse (L6) from J6 through its west window; paragraph 22 with activation 9
places an unaware rifleman there. US4 (PC 5, throw-out need 3 at −2) stands at G9 when the
MG loader at G6 throws at him (Aware 9: ``throw_grenade``, ``hold``; throw need 5).
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import add_german, clear_board, force, fresh_game, put, rounds

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError, IllegalActionError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import ARSpace, Phase, Side, Status
from ambush_env.core.play.game import Game
from ambush_env.core.play.sequence import resolve

END = O.encode(K.END_TURN)
US4 = 3


def _types(g) -> list[str]:
    return [e.type for e in g.log]


def _sighted(roll: int):
    """US1 at J6; paragraph 22 places the unaware rifleman in L6; the sighting PC roll
    ``roll``; then 9s (misses, initiative)."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "J6")
    force(g, [9, roll] + [9] * 12)
    g.request("paragraph", 22, 0, us.uid, 0)
    resolve(g)
    g.invalidate()
    (ger,) = [u for u in g.state.units if u.side == Side.GERMAN]
    return g, us, ger


@pytest.mark.parametrize("roll, asked", [(6, True), (7, False)])
def test_the_free_snap_fire_is_a_decision_of_the_first_to_pass(roll, asked):
    """RULES.md §7: the first soldier to pass the sighting check (US1 PC 6: 6 passes, 7 fails)
    decides whether to take the free snap fire; nothing of what the sighting set off (Rounds
    beginning) happens before he has; one who fails is asked nothing."""
    g, us, ger = _sighted(roll)
    st = g.state
    if asked:
        assert st.turn.mode == "free_snap" and st.turn.uid == us.uid and st.turn.target == ger.uid
        assert st.interrupted is not None and st.interrupted.uid == -1  # no turn was going on
        snap = O.encode(K.FIRE_SNAP, st.contacts.index(ger.uid))
        assert g.legal_actions() == [END, snap]
        assert st.phase == Phase.OPERATIONS and st.pending[0][0] == "begin_rounds"
        assert g.decision.side == Side.US and g.decision.uid == us.uid
    else:
        assert st.turn.mode != "free_snap" and st.interrupted is None
        assert st.phase == Phase.ROUNDS and "free_snap_fire" not in _types(g)


def test_declining_the_free_snap_fires_nothing_and_rounds_begin():
    """RULES.md §7: declined (``END_TURN``), no shot is fired, no die is rolled for one, and
    Rounds begin as the sighting said (US1 aware in Round 1)."""
    g, us, ger = _sighted(6)
    g.log = []
    force(g, [9] * 12)
    events = g.step(END)
    kinds = [e["type"] for e in events]
    assert "free_snap_declined" in kinds and "fire" not in kinds and "free_snap_fire" not in kinds
    assert events[kinds.index("free_snap_declined")] == {
        "type": "free_snap_declined",
        "unit": us.name,
        "target": ger.name,
    }
    assert ger.status == Status.ACTIVE and g.state.interrupted is None
    assert g.state.phase == Phase.ROUNDS and g.state.round == 1 and us.aware


@pytest.mark.parametrize("hit_roll, hit", [(0, True), (9, False)])
def test_taking_the_free_snap_fires_before_rounds_begin(hit_roll, hit):
    """RULES.md §7-§8: taken (``FIRE_SNAP``), the shot is fired first (jam 0, the hit roll
    ``hit_roll``, damage 9 on a hit), then Rounds begin; the decision's turn is gone."""
    g, us, ger = _sighted(6)
    snap = next(a for a in g.legal_actions() if a != END)
    g.log = []
    force(g, [0, hit_roll] + ([9] if hit else []) + [9] * 12)
    events = g.step(snap)
    kinds = [e["type"] for e in events]
    assert kinds.index("free_snap_fire") < kinds.index("fire") < kinds.index("round_start")
    assert (ger.status != Status.ACTIVE) is hit
    assert g.state.interrupted is None and g.state.turn.mode != "free_snap"


def test_only_the_two_answers_are_accepted_and_the_mask_says_so():
    """docs/STYLE.md habit 2: ``step`` accepts exactly the legal list; the env's mask is it."""
    g, us, ger = _sighted(6)
    with pytest.raises(IllegalActionError):
        g.step(O.encode(K.FIRE_AIMED, g.state.contacts.index(ger.uid)))
    with pytest.raises(IllegalActionError):
        g.step(O.encode(K.MOVE, 0))
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv(mission="farm_assault")
    env.reset(seed=0)
    env.set_state(g.position())
    mask = env.action_masks()
    assert np.flatnonzero(mask).tolist() == g.legal_actions()
    obs = env.unwrapped._obs_copy()
    from ambush_env.env.spec import GLOBAL

    assert obs["globals"][GLOBAL["mode_free_snap"]] == 1.0


def _thrown_at(space: int = ARSpace.COMPLETE):
    """Round 3; US4 at G9 and a partner at A14 with a 1-Turn; the loader at G6 acts first:
    card roll 9 (throw_grenade, hold), throw 5 (lands)."""
    g = fresh_game()
    clear_board(g, keep=0)
    u = put(g, US4, "G9")
    partner = put(g, 7, "A14")
    loader = add_german(g, "mg_loader", "G6", aware=True)
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    force(g, [9, 5])
    g.german_turn(loader)
    return g, u, loader


def test_a_live_german_grenade_is_the_soldiers_decision():
    """RULES.md §9: the grenade lands in US4's hex: he decides (``THROW_OUT`` or ``END_TURN``)
    before it bursts; the loader's card turn waits, saved, behind the decision."""
    g, u, loader = _thrown_at()
    st = g.state
    assert st.turn.mode == "throw_out" and st.turn.uid == u.uid and st.turn.target == loader.uid
    assert g.board.label(st.turn.target_hex) == "G9" and st.turn.scattered is False
    assert st.interrupted is not None and st.interrupted.uid == loader.uid
    assert g.legal_actions() == [END, O.encode(K.THROW_OUT)]
    assert "blast" not in _types(g) and "throw_out" not in _types(g)
    assert g.dice.forced_left == 0  # nothing rolled for the throw-out yet


@pytest.mark.parametrize("roll, out", [(3, True), (4, False)])
def test_throwing_it_out_is_the_pc_check(roll, out):
    """RULES.md §9 ⚙ (throw_out_modifier −2): US4 PC 5 needs 3: thrown out (3), it bursts in
    the loader's hex (damage 9: killed); failed (4), it bursts on US4 (damage 5: wounded). The
    loader's turn then goes on (``hold``) and the Round with it."""
    g, u, loader = _thrown_at()
    force(g, [roll, 9 if out else 5] + [9] * 12)
    events = g.step(O.encode(K.THROW_OUT))
    kinds = [e["type"] for e in events]
    t = events[kinds.index("throw_out")]
    assert (t["unit"], t["roll"], t["need"], t["success"]) == (u.name, roll, 3, out)
    blast = events[kinds.index("blast")]
    assert blast["unit"] == (loader.name if out else u.name)
    assert (loader.status == Status.KILLED) is out and u.wounded is not out
    assert g.state.interrupted is None


def test_leaving_the_grenade_takes_the_blast_with_no_check():
    """RULES.md §9: left (``END_TURN``), no PC check is rolled and it bursts in US4's hex
    (damage 5: wounded); the loader is unharmed."""
    g, u, loader = _thrown_at()
    force(g, [5] + [9] * 12)
    events = g.step(END)
    kinds = [e["type"] for e in events]
    assert "throw_out" not in kinds and "throw_out_declined" in kinds
    assert events[kinds.index("blast")]["unit"] == u.name and u.wounded
    assert loader.status == Status.ACTIVE


@pytest.mark.parametrize("maker", ["sighting", "grenade"])
def test_a_position_holds_the_decision_and_plays_on_the_same(maker):
    """docs/API.md positions: a position written while a decision is pending reads back to the
    same decision (its ``turn``, its ``interrupted`` turn) and plays on identically."""
    g = _sighted(6)[0] if maker == "sighting" else _thrown_at()[0]
    p = g.position()
    assert p["interrupted"] is not None and p["turn"]["target"]
    h = Game.from_position(p)
    assert h.legal_actions() == g.legal_actions() and h.position() == p
    order = g.legal_actions()[-1]
    for x in (g, h):
        x.log = []  # the events that led here (german_turn leaves them for the next step)
        x.force_rolls([3, 9, 9, 5] + [9] * 12)
    assert [e for e in g.step(order)] == [e for e in h.step(order)]


def test_a_malformed_decision_in_a_position_names_its_field():
    """A free snap turn needs the turn it interrupted; a turn that is no decision interrupts
    nothing; a throw-out needs the hex its grenade lies in, the soldier's own."""
    g = _sighted(6)[0]
    p = g.position()
    bad = {**p, "interrupted": None}
    with pytest.raises(DataError, match="interrupted"):
        Game.from_position(bad)
    plain = {**p, "turn": {**p["turn"], "mode": "", "target": None}}
    with pytest.raises(DataError, match="interrupted"):
        Game.from_position(plain)
    g2 = _thrown_at()[0]
    p2 = g2.position()
    with pytest.raises(DataError, match="turn.target_hex"):
        Game.from_position({**p2, "turn": {**p2["turn"], "target_hex": "A1"}})
