"""Scripted lines of play reaching every result band of prisoner_snatch (RULES.md §15).

The dice are rigged as in tests/core/test_result_bands_bridge_demolition.py (by purpose and by
the acting side: the US wins the initiative and its sighting checks, German shots miss,
unaware Germans hold), with the US assault rolls succeeding (0) and US shots missing (9) until
the Leutnant is a prisoner (``us_hits``), then hitting and killing; activation checks take the
quiet branch (9: the command post's officer and orderly placed unaware, paragraph 24).

The approach: by the orchard to H3, then I4 (the command post ring, paragraph 20: the officer
in K4 and his orderly in K5 are placed and sighted, Rounds begin). In Rounds the line's
doctrine charges through the garden door (J4/K4) and assaults the officer to capture him,
then fires aimed at any German in sight. In Operations soldiers follow their waypoints by
shortest paths kept clear of other trigger hexes; the prisoner's guard marches him along the
same way (``MOVE_PRISONER``) and, at the end, leaves the map with him if the line says so.
Leaving pays only once the Leutnant is marched off (⚙ ``vp.exits: after_objective``, issue
25), and his capture scores what a kill does (1).
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import GER, Result, Status
from ambush_env.core.world.missions import load_mission
from tests.core.test_result_bands import path, script, walk
from tests.core.test_result_bands_bridge_demolition import RIGGED, kinds, rigged_game

MISSION = "prisoner_snatch"
TABLE = [("assault", 0, 9), *RIGGED]
IN = ["H3", "I4", "J4"]
HOME = ["I4", "H3", "A3"]
# after the capture: out of the garden by the lane to the edge of the Bois du Hamel (L6: the
# patrol's paragraph 40; M7 and N7 see into O8), then home along the lane (G6: the sentry's 10)
HUNT = ["J5", "K6", "L6", "M7", "N7", "M7", "L6", "K6", "J6", "I6", "H6", "G6", "A3"]


def officer(g: Game):
    return next((u for u in g.state.units if u.role == "officer"), None)


def taken(g: Game) -> bool:
    o = officer(g)
    return o is not None and o.status in (Status.CAPTURED, Status.REMOVED)


def snatch(g: Game, u, legal: list[int]) -> int | None:
    """Rounds: once the officer is a prisoner, fire aimed at a German in sight; before, a man
    on a hex with a door or window into the officer's hex charges in and assaults to capture
    him; the others step nearer such a hex; otherwise hold."""
    if taken(g):
        return kinds(legal).get(K.FIRE_AIMED)
    st = g.state
    for a in legal:
        kind, arg = O.decode(a)
        if kind == K.ASSAULT_CAPTURE and st.units[st.contacts[arg]].role == "officer":
            return a
    o = officer(g)
    if o is None or o.hex < 0:
        return None
    b = g.board
    entries = [
        n
        for n in b.neighbors[o.hex]
        if n >= 0 and (hs := b.hexside(n, o.hex)) is not None and hs.aperture in ("door", "window")
    ]
    goal = [o.hex] if u.hex in entries else entries
    d = b.distance
    here = min(d(u.hex, h) for h in goal)
    for a in legal:
        kind, arg = O.decode(a)
        if kind == K.MOVE and min(d(b.neighbors[u.hex][arg], h) for h in goal) < here:
            return a
    return None


def play(
    exits, *, guard_exits: bool, ways: dict[int, list[str]] | None = None, perception: int = 9
) -> Game:
    """Play the line: everyone goes in by IN and home by HOME unless ``ways`` gives a slot
    its own waypoints; ``exits(u)`` says whether a soldier other than the guard leaves the map
    at the end; the guard leaves with the prisoner when ``guard_exits``; PC checks roll
    ``perception`` (9: they fail)."""
    g = rigged_game(MISSION, table=TABLE, us_hits=taken, perception=perception)
    b = g.board
    ways = ways or {}
    todo = {u.slot: [b.index(x) for x in ways.get(u.slot, IN + HOME)] for u in g.us_units()}

    def ops(g: Game, u, legal: list[int]) -> None:
        wps = todo[u.slot]
        prisoners = [
            o
            for o in g.state.units
            if o.status == Status.CAPTURED and o.guard == u.uid and o.hex == u.hex
        ]
        if not prisoners:
            return walk(g, u, wps, exits(u), set(g.triggers))
        if not guard_exits and wps == [b.index("A3")]:
            wps[0] = b.index("A4")  # apart: a man leaving by his hex would march him off
        while wps and wps[0] == u.hex:
            wps.pop(0)
        if not wps:
            leave = O.encode(K.EXIT_MAP)
            g.step(leave if guard_exits and leave in legal else O.encode(K.END_TURN))
            return
        nxt = path(g, u, wps[0], set(g.triggers) - set(wps))[0]
        g.step(O.encode(K.MOVE_PRISONER, b.direction(u.hex, nxt)))

    return script(g, ops, snatch, steps=8000)


def test_decisive_win_line():
    """RULES.md §15, objective kind capture with march_off: at I4 the officer and his
    orderly are sighted (the free snap fire misses); the sergeant's men charge through the
    garden door and capture the Leutnant (assault, seed 002 p. 25); the orderly falls to aimed
    fire; his guard marches him home along the orchard and off by A3, the whole squad with
    him: 12 (objective) + 1 (captured: a capture is worth a kill) + 3 (marched off) + 1
    (orderly) + 8 x 1 = 25 VP >= 24 -> decisive win."""
    g = play(lambda u: True, guard_exits=True)
    reasons = [why for why, _ in g.state.vp_log]
    assert "Leutnant captured" in reasons and "G1 marched off" in reasons
    assert g.stats()["germans_killed"] == 1 and g.stats()["germans_captured"] == 1
    assert g.stats()["us_exited"] == 8
    assert g.vp == 25 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the Leutnant is taken and marched off as above by his guard alone; the
    rest of the squad waits at A3 until the time limit: 12 + 1 + 3 + 1 + 1 = 18 VP -> win."""
    g = play(lambda u: False, guard_exits=True)
    assert "Leutnant captured" in [why for why, _ in g.state.vp_log]
    assert g.stats()["us_exited"] == 1 and g.state.end_reason.startswith("time limit")
    assert g.vp == 18 and g.result == Result.WIN


def test_a_prisoner_never_marched_off_is_no_objective():
    """Objective kind capture, ``march_off: true``: the Leutnant taken, but his guard never
    leaves the map with him (he waits with him at A4); the rest go home by A3: no objective
    VP, so their exits pay nothing either (issue 25); the captured German scores by his final
    state what a kill does: 1 + 1 (orderly) + 7 x 0 = 2 VP -> loss."""
    g = play(lambda u: True, guard_exits=False)
    o = officer(g)
    assert o.status == Status.CAPTURED and "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 7 and g.stats()["germans_captured"] == 1
    assert g.vp == 2 and g.result == Result.LOSS


def test_draw_line():
    """RULES.md §15: the Leutnant taken and never marched off as above, but the squad makes
    the most of the raid: the PC check at the map table passes (paragraph 27: the marked map,
    2) and US8 goes on from the garden by the lane to the edge of the Bois du Hamel, where the
    NCO walking out of the wood (paragraph 43, unaware at O8) falls to the sighting's free
    snap fire at the wood's edge (M7), and home along the lane, where the sentry (paragraph
    13, placed unaware at H6 as US8 reaches G6) falls the same way: 1 + 1 + 2 + 1 + 1 = 6 VP,
    exactly the draw threshold -> draw (the Leutnant brought out is worth 16 on his own)."""
    g = play(lambda u: True, guard_exits=False, ways={7: IN + HUNT}, perception=0)
    killed = {u.role for u in g.state.units if u.side == GER and u.status == Status.KILLED}
    assert officer(g).status == Status.CAPTURED and "objective_taken" not in g.state.flags
    assert "marked map taken" in [why for why, _ in g.state.vp_log]
    assert killed == {"rifleman", "nco_smg"} and g.stats()["germans_killed"] == 3
    assert g.vp == 6 and g.result == Result.DRAW


def test_turning_back_at_once_loses():
    """RULES.md §15: the squad turns back at once and leaves by A3, the nearest exit hex (no
    entry hex is one, issue 25): the Leutnant is never taken, so 8 men home score nothing:
    0 VP -> loss."""
    mission = load_mission(MISSION)
    assert not set(mission.us_entry) & set(mission.exit_hexes)
    g = rigged_game(MISSION, table=TABLE)
    a3 = g.board.index("A3")
    g = script(g, lambda g, u, legal: walk(g, u, [a3], True, set()))
    assert g.stats()["us_exited"] == 8 and officer(g) is None
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a squad that never moves scores nothing by the time limit -> loss."""
    g = rigged_game(MISSION, table=TABLE)
    g = script(g, lambda g, u, legal: walk(g, u, [], False, set()))
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
