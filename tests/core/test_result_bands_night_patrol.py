"""Scripted lines of play reaching every result band of night_patrol (RULES.md §15).

The dice are rigged as in tests/core/test_result_bands_bridge_demolition.py (by purpose and by
the acting side: the US sees, hits and kills, German shots miss, unaware Germans hold), with
the perception check at the wire passed (0: the minefield is known) unless a line says
otherwise and activation checks on the quiet branch (9). In Operations soldiers follow
waypoints by shortest paths kept clear of the trigger hexes other than their own waypoints and
of the laid minefield; in Rounds they fire aimed at a German in sight when the line lets them
hit (``us_hits``), else step on toward the crossroads or hold there. The objective is kind
``hold``: it scores only at the end.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result, Status
from ambush_env.core.world.missions import load_mission
from tests.core.test_result_bands import script, walk
from tests.core.test_result_bands_bridge_demolition import kinds, rigged_game

MISSION = "night_patrol"
# through the wire at L12 and the minefield's gap (L10-L9), past the listening post (L7), up
# the orchard hedges to the crossroads (G4)
GAP = ["L12", "L11", "L10", "L9", "K6", "I5", "H4", "G4"]


def play(
    plans: dict[int, list[str]],
    exits: set[int],
    *,
    fight: bool = True,
    us_hits=None,
    perception: int = 0,
) -> Game:
    g = rigged_game(MISSION, perception=perception, us_hits=us_hits)
    b = g.board
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}

    def rounds(g: Game, u, legal: list[int]) -> int | None:
        if fight and g.dice.us_hits(g):
            return kinds(legal).get(K.FIRE_AIMED)
        return into_the_crossroads(g, u, legal) if plans.get(u.slot) else None

    def ops(g: Game, u, legal: list[int]) -> None:
        avoid = set(g.triggers) | set(g.state.minefields)
        walk(g, u, todo.get(u.slot, []), u.slot in exits, avoid)

    return script(g, ops, rounds, steps=8000)


def into_the_crossroads(g: Game, u, legal: list[int]) -> int | None:
    """Rounds: a man not yet in the crossroads' hexes moves a hex nearer G4 (None: hold)."""
    if u.hex in g.objective_hexes:
        return None
    dist = g.board.distance
    goal = g.board.index("G4")
    for a in legal:
        kind, arg = O.decode(a)
        if kind == K.MOVE and dist(g.board.neighbors[u.hex][arg], goal) < dist(u.hex, goal):
            return a
    return None


def held(g: Game) -> bool:
    return any(why == "crossroads held" for why, _ in g.state.vp_log)


def test_decisive_win_line():
    """RULES.md §15: the wire is crossed at L12 (paragraph 6: PC check passed, the minefield
    known); at the gap the listening post (L7) is placed unaware and sighted (night: 3 hexes),
    the sighting's free snap fire kills him; at the crossroads (G4, paragraph 30) the NCO in
    the Hardy house falls the same way and the rifleman in the barn when a man reaches E4; the
    squad holds the crossroads until the time limit: 14 + 3 x 2 = 20 VP >= 18 -> decisive win."""
    plans = {k: GAP for k in range(8)} | {7: GAP + ["F4", "E4"]}
    g = play(plans, exits=set())
    assert "wire_crossed" in g.state.flags and g.state.minefields and g.state.known_mines
    assert g.stats()["germans_killed"] == 3 and held(g)
    assert g.vp == 20 and g.result == Result.DECISIVE_WIN


def before_the_crossroads(g: Game) -> bool:
    return "crossroads_checked" not in g.state.flags


def test_win_line():
    """RULES.md §15: as above the listening post falls, but at the crossroads every shot
    misses: the NCO in the Hardy house (H3), sighted from I5, stays in his house; the squad
    steps into G4 in Rounds and the Rounds run out with no German in the crossroads' hexes:
    held at the end (kind hold; ⚙ night_patrol.yaml's ``clear_radius: 0``, at night the patrol
    holds the hexes themselves, so the NCO beside H4 does not count): 14 + 2 = 16 VP -> win
    (below the decisive 18)."""
    g = play({k: GAP for k in range(8)}, exits=set(), us_hits=before_the_crossroads)
    assert g.state.end_reason.startswith("time limit") and held(g)
    assert g.stats()["germans_killed"] == 1
    nco = next(u for u in g.state.units if u.role == "nco_smg")
    assert g.board.label(nco.hex) == "H3" and nco.status == Status.ACTIVE
    assert g.vp == 16 and g.result == Result.WIN


# each man's way back: two hexes south of where he forms up, on the south edge
BACK = {
    k: [f"{h[0]}16"] for k, h in enumerate(["G14", "F14", "H14", "E14", "I14", "F14", "H14", "G14"])
}
# from the crossroads back the way they came, through the gap and the wire to the south edge
HOME = ["G4", "H4", "I5", "K6", "L9", "L10", "L11", "L12", "L16"]


def test_draw_line():
    """RULES.md §15: the decisive line's fight (the listening post, the NCO and the barn's
    rifleman killed: 3 x 2 VP), but the patrol does not wait for dawn: it goes back through the
    gap and the wire and leaves by the south edge (0 VP a man, ⚙ night_patrol.yaml): 6 VP,
    the crossroads not held -> draw."""
    plans = {k: GAP + HOME for k in range(8)} | {7: GAP + ["F4", "E4", "F4"] + HOME}
    g = play(plans, exits=set(range(8)))
    assert g.stats()["germans_killed"] == 3 and g.stats()["us_exited"] == 8 and not held(g)
    assert g.vp == 6 and g.result == Result.DRAW


def test_withdrawal_at_once_loses():
    """RULES.md §15: the patrol turns back at once from the sunken track (row 14) and leaves
    by the south edge: every man safe, but 8 x 0 = 0 VP -> loss (a withdrawal saves the men,
    not the mission)."""
    assert [BACK[k][0][0] + "14" for k in range(8)] == list(load_mission(MISSION).us_entry)
    g = play(BACK, exits=set(range(8)))
    assert g.stats()["us_exited"] == 8 and not held(g)
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a patrol that never moves scores nothing by dawn -> loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)" and not held(g)
    assert g.vp == 0 and g.result == Result.LOSS


def test_the_hidden_minefield_and_a_crossroads_not_held():
    """Paragraphs 6/8 and module mines: the wire's PC check failed (9), the minefield is laid
    hidden; US1 walks straight north up the beet field into F10 and a mine kills him (the
    rigged damage roll 9; the hex is then known); the rest turn back by the south edge:
    -2 + 7 x 0 = -2 VP -> loss, the crossroads never reached."""
    g = rigged_game(MISSION, perception=9)
    b = g.board
    todo = {k: [b.index(h) for h in BACK[k]] for k in range(1, 8)}
    todo[0] = [b.index(h) for h in ("F12", "F11", "F10")]

    def ops(g: Game, u, legal: list[int]) -> None:
        if u.slot == 0 and u.hex == b.index("F10"):
            walk(g, u, [], False, set())
        else:
            walk(g, u, todo.get(u.slot, []), u.slot != 0, set(g.triggers))

    g = script(g, ops, None, steps=8000)
    f10 = b.index("F10")
    assert "wire_crossed" in g.state.flags and f10 in g.state.minefields
    assert f10 in g.state.known_mines  # known once a mine of it went off
    assert any("mine damage" in why for why, _ in g.dice.log)
    assert g.stats()["us_killed"] == 1 and g.stats()["us_exited"] == 7
    assert g.vp == -2 and g.result == Result.LOSS
