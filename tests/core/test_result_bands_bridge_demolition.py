"""Scripted lines of play reaching every result band of bridge_demolition (RULES.md §15).

The dice are rigged by what a roll is for and by whose unit is acting (:class:`Rigged`, as in
tests/core/test_result_bands_tank_hunt.py): the US wins the initiative, its sighting checks,
throws and shots succeed (a d10 of 0) and its damage rolls kill (9); German shots miss (9);
unaware Germans hold (their card's unaware column, 0); activation and perception checks take
the branch a line names. So each line is exact, and each test asserts the final VP and band.

In Operations soldiers follow waypoints by shortest paths kept clear of the trigger hexes
other than their own waypoints; in Rounds the line's doctrine (``rounds``) names an order, or
the turn ends.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result, Side
from tests.core.test_result_bands import script, walk

MISSION = "bridge_demolition"
US, GER = int(Side.US), int(Side.GERMAN)
# (purpose, US roll, German roll); the first matching key wins; 5 otherwise
RIGGED = [
    ("jam", 0, 0),
    ("chain damage", 0, 0),
    ("damage", 9, 0),
    ("throw out", 9, 9),
    ("throw", 0, 9),
    ("scatter", 0, 0),
    ("hit", 0, 9),
    ("sighting", 0, 9),
    ("card", 0, 0),
    ("awareness", 0, 0),
    ("event table", 0, 0),
]


class Rigged(Dice):
    """Dice that answer by purpose and by the side whose unit is acting (see RIGGED);
    ``activation`` and ``perception`` answer as the line says."""

    game: Game | None = None
    activation = 9
    perception = 9
    table = RIGGED
    us_hits = staticmethod(lambda g: True)  # whether a US shot may hit now (else a 9)

    def d10(self, why: str = "") -> int:
        g = self.game
        side = US
        if g is not None and g.state.turn.uid >= 0:
            side = g.state.units[g.state.turn.uid].side
        if "initiative" in why:
            r = 9 if why.startswith("US") else 0
        elif "activation" in why:
            r = self.activation
        elif "perception" in why and "sighting" not in why:
            r = self.perception
        elif "hit" in why and side == US and g is not None and not self.us_hits(g):
            r = 9
        else:
            r = next((u if side == US else ge for k, u, ge in self.table if k in why), 5)
        self.log.append((why, r))
        return r


def rigged_game(
    mission: str, *, activation: int = 9, perception: int = 9, table=RIGGED, us_hits=None
) -> Game:
    g = Game(mission)
    g.reset(seed=0)
    dice = Rigged(0)
    dice.game, dice.activation, dice.perception, dice.table = g, activation, perception, table
    if us_hits is not None:
        dice.us_hits = us_hits
    g.dice = dice
    g.invalidate()
    return g


def kinds(legal: list[int]) -> dict:
    """The first legal order of each kind: kind -> order."""
    out: dict = {}
    for a in legal:
        out.setdefault(O.decode(a)[0], a)
    return out


def play(plans: dict[int, list[str]], exits: set[int], rounds=None, **rig) -> Game:
    """Play the mission: slot -> waypoints; slots in ``exits`` leave the map at the end."""
    g = rigged_game(MISSION, **rig)
    b = g.board
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}
    return script(
        g,
        lambda g, u, legal: walk(g, u, todo.get(u.slot, []), u.slot in exits, set(g.triggers)),
        rounds,
        steps=8000,
    )


def demolish(g: Game, u, legal: list[int]) -> int | None:
    """Rounds doctrine: a man with a satchel closes to two hexes of the bridge, prepares his
    charge and throws it on the span (J6 or K6, whichever is empty of US soldiers); once the
    US may hit (``us_hits``) everyone else fires aimed at a German in sight; otherwise hold."""
    k = kinds(legal)
    if "objective_taken" in g.state.flags or ("satchel" not in u.equipment and g.dice.us_hits(g)):
        return k.get(K.FIRE_AIMED)
    if "satchel" in u.equipment:
        dist = g.board.distance
        near = min(dist(u.hex, h) for h in g.objective_hexes)
        if near > 2:  # close in: a step nearer the bridge
            for a in legal:
                kind, arg = O.decode(a)
                if (
                    kind == K.MOVE
                    and min(dist(g.board.neighbors[u.hex][arg], h) for h in g.objective_hexes)
                    < near
                ):
                    return a
            return None
        if not u.satchel_ready:
            return k.get(K.PREPARE)
        for a in legal:
            kind, arg = O.decode(a)
            h = g.offset_target(u.hex, arg) if kind == K.SATCHEL else -1
            if h in g.objective_hexes and not any(o.hex == h for o in g.us_units()):
                return a
    return None


def bridge_down(g: Game) -> bool:
    return "objective_taken" in g.state.flags


BANK = ["E4", "H4", "I5"]  # by the north bank wood to the bank at the bridge's west end (I5)
# home by A3: the west edge but the entry hexes A4-A8 is the exit (issue 25: an entry hex is
# never an exit hex)
HOME = ["H4", "E4", "A3"]
# each man's nearest exit from his entry hex (us_entry A6, A5, A7, A4, A8, A6)
WEST = {0: ["A3"], 1: ["A3"], 2: ["A9"], 3: ["A3"], 4: ["A9"], 5: ["A9"]}


def test_decisive_win_line():
    """RULES.md §15: the section reaches the bank at I5 (the bunker, paragraph 20: perception
    passed, the MG team placed unaware, sighted; the sighting's free snap fire kills the
    gunner); in Rounds the three satchel men (US2, US3, US4) ready their charges and throw
    them on the span: three charges destroy the bridge (objective kind demolish, 14 VP); the
    loader falls to aimed fire, Operations resume and everyone goes home by A3:
    14 + 2 x 2 + 6 x 0 = 18 VP -> decisive win (⚙ bridge_demolition.yaml: a man back 0)."""
    g = play(
        {k: BANK + HOME for k in range(6)},
        exits=set(range(6)),
        rounds=demolish,
        perception=0,
        us_hits=bridge_down,
    )
    assert "objective_taken" in g.state.flags
    assert sum(1 for f in g.state.flags if f.startswith("bridge charge")) == 3
    assert g.stats()["germans_killed"] == 2 and g.stats()["us_exited"] == 6
    assert g.vp == 18 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the bridge comes down as above, but every US shot misses (the bunker's
    crew lives, awake, and the Rounds run to the time limit with the section on the bank):
    14 VP -> win."""
    g = play(
        {k: BANK for k in range(6)},
        exits=set(),
        rounds=demolish,
        perception=0,
        us_hits=lambda g: False,
    )
    assert "objective_taken" in g.state.flags and g.state.end_reason.startswith("time limit")
    assert g.stats()["germans_killed"] == 0 and g.stats()["us_exited"] == 0
    assert g.vp == 14 and g.result == Result.WIN


def test_withdrawal_at_once_loses():
    """RULES.md §15: the section turns back at once by the west edge beside the entry hexes
    (issue 25: an entry hex is never an exit hex, so each man steps to A3 or A9): every man
    safe, but 6 x 0 = 0 VP -> loss (⚙ coming back saves the men, not the mission; and exits
    pay only once the bridge is down)."""
    g = play(WEST, exits=set(range(6)))
    assert g.stats()["us_exited"] == 6 and "objective_taken" not in g.state.flags
    assert g.vp == 0 and g.result == Result.LOSS


def test_draw_line_two_charges_do_not_drop_the_bridge():
    """RULES.md §15, objective kind demolish, charges 3 (⚙ data): only two charges go on
    (US2's and one of US3's two; US4 goes home by A3 at once), so the bridge stands; the
    bunker's crew is shot once the second is on and the section comes home by A3:
    2 x 2 = 4 VP -> draw (the exits pay nothing: ⚙ a man back 0, and the bridge stands)."""

    def two_charges(g, u, legal):
        if u.name == "US3" and u.equipment.count("satchel") < 2:
            return kinds(legal).get(K.FIRE_AIMED)
        return demolish(g, u, legal) if u.name != "US4" else None

    g = play(
        {k: BANK + HOME for k in range(6) if k != 3} | {3: ["A3"]},
        exits=set(range(6)),
        rounds=two_charges,
        perception=0,
        us_hits=lambda g: sum(f.startswith("bridge charge") for f in g.state.flags) >= 2,
    )
    assert sum(1 for f in g.state.flags if f.startswith("bridge charge")) == 2
    assert "objective_taken" not in g.state.flags and g.stats()["germans_killed"] == 2
    assert g.stats()["us_exited"] == 6
    assert g.vp == 4 and g.result == Result.DRAW


def test_loss_line():
    """RULES.md §15: a section that never moves scores nothing by the time limit -> loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
