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
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result, Status
from tests.core.test_result_bands import path, script, walk
from tests.core.test_result_bands_bridge_demolition import RIGGED, kinds, rigged_game

MISSION = "prisoner_snatch"
TABLE = [("assault", 0, 9), *RIGGED]
IN = ["H3", "I4", "J4"]
HOME = ["I4", "H3", "A3"]


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


def play(exits, *, guard_exits: bool) -> Game:
    """Play the line: everyone goes in by IN and home by HOME; ``exits(u)`` says whether a
    soldier other than the guard leaves the map at the end; the guard leaves with the
    prisoner when ``guard_exits``."""
    g = rigged_game(MISSION, table=TABLE, us_hits=taken)
    b = g.board
    todo = {u.slot: [b.index(x) for x in IN + HOME] for u in g.us_units()}

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
    him: 12 (objective) + 3 (captured, kept as he is marched off) + 3 (marched off) + 1
    (orderly) + 8 x 1 = 27 VP >= 24 -> decisive win."""
    g = play(lambda u: True, guard_exits=True)
    reasons = [why for why, _ in g.state.vp_log]
    assert "Leutnant captured" in reasons and "G1 marched off" in reasons
    assert g.stats()["germans_killed"] == 1 and g.stats()["us_exited"] == 8
    assert g.vp == 27 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the Leutnant is taken and marched off as above by his guard alone; the
    rest of the squad waits at A3 until the time limit: 12 + 3 + 3 + 1 + 1 = 20 VP -> win."""
    g = play(lambda u: False, guard_exits=True)
    assert "Leutnant captured" in [why for why, _ in g.state.vp_log]
    assert g.stats()["us_exited"] == 1 and g.state.end_reason.startswith("time limit")
    assert g.vp == 20 and g.result == Result.WIN


def test_a_prisoner_never_marched_off_is_no_objective():
    """Objective kind capture, ``march_off: true``: the Leutnant taken, but his guard never
    leaves the map with him (he waits with him at A4); the rest go home by A3: no objective VP, the captured
    German scores by his final state: 3 + 1 + 7 x 1 = 11 VP -> draw."""
    g = play(lambda u: True, guard_exits=False)
    o = officer(g)
    assert o.status == Status.CAPTURED and "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 7
    assert g.vp == 11 and g.result == Result.DRAW


def test_draw_line():
    """RULES.md §15: the squad turns back at once by the west edge (every entry hex is an
    exit hex): 8 x 1 = 8 VP -> draw."""
    g = rigged_game(MISSION, table=TABLE)
    g = script(g, lambda g, u, legal: walk(g, u, [], True, set()))
    assert g.stats()["us_exited"] == 8 and officer(g) is None
    assert g.vp == 8 and g.result == Result.DRAW


def test_loss_line():
    """RULES.md §15: a squad that never moves scores nothing by the time limit -> loss."""
    g = rigged_game(MISSION, table=TABLE)
    g = script(g, lambda g, u, legal: walk(g, u, [], False, set()))
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
