"""Scripted lines of play reaching every result band of tank_hunt (RULES.md §15).

As in tests/core/test_result_bands.py the dice are rigged by what a roll is for, and here also
by whose turn it is: US shots hit (a d10 of 0), their damage kills, a hit on the tank strikes
its body (a Hit Chart roll of 4: body in every column of the Panzer IV, seed 000 p. 31) and
penetrates (9); German shots miss (9); the US wins the initiative; activation checks take the
quiet branch (9) unless a line says otherwise. So each line is exact, and each test asserts
the final VP and the band.

In Rounds the script plays a simple doctrine: the bazooka gunner prepares his launcher and
fires at the tank when he can, everybody fires aimed at a German in sight, or holds. In
Operations soldiers follow their waypoints by shortest paths kept clear of trigger hexes
other than their own waypoints.
"""

from __future__ import annotations

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Result, Side
from tests.core.test_result_bands import script, walk

MISSION = "tank_hunt"
US, GER = int(Side.US), int(Side.GERMAN)
# (purpose, US roll, German roll); the first matching key wins; 5 otherwise
RIGGED = [
    ("jam", 0, 0),
    ("hit chart", 4, 4),
    ("chain damage", 0, 0),
    ("damage", 9, 0),
    ("penetration", 9, 0),
    ("hit", 0, 9),
    ("sighting", 0, 9),
    ("perception", 9, 9),
    ("event table", 0, 0),
    ("card", 9, 9),
    ("awareness", 0, 0),
    ("accident", 0, 0),
]


class TurnRiggedDice(Dice):
    """Dice that answer by purpose and by the side whose unit is acting (see RIGGED)."""

    game: Game | None = None
    activation = 9

    def d10(self, why: str = "") -> int:
        g = self.game
        side = US
        if g is not None and g.state.turn.uid >= 0:
            side = g.state.units[g.state.turn.uid].side
        if "initiative" in why:
            r = 9 if why.startswith("US") else 0
        elif "activation" in why:
            r = self.activation
        else:
            r = next((u if side == US else ge for k, u, ge in RIGGED if k in why), 5)
        self.log.append((why, r))
        return r


def play(
    plans: dict[int, list[str]], exits: set[int], *, activation: int = 9, fight: bool = True
) -> Game:
    """Play tank_hunt: slot -> waypoints; slots in ``exits`` leave the map at the end; with
    ``fight`` the Rounds doctrine of the module docstring, else every unit holds."""
    g = Game(MISSION)
    g.reset(seed=0)
    dice = TurnRiggedDice(0)
    dice.game, dice.activation = g, activation
    g.dice = dice
    g.invalidate()
    b = g.board
    todo = {slot: [b.index(x) for x in wps] for slot, wps in plans.items()}

    def rounds(g: Game, u, legal: list[int]) -> int | None:
        if not fight:
            return None
        kinds = {O.decode(a)[0]: a for a in legal}
        return (
            kinds.get(K.FIRE_AIMED_VEHICLE)
            or (kinds.get(K.PREPARE) if u.weapon == "bazooka" and not u.prepared else None)
            or kinds.get(K.FIRE_AIMED)
        )

    return script(
        g,
        lambda g, u, legal: walk(g, u, todo.get(u.slot, []), u.slot in exits, set(g.triggers)),
        rounds,
        steps=8000,
    )


def _tank(g: Game):
    (v,) = g.state.vehicles
    return v


def test_decisive_win_line():
    """RULES.md §15, seed 000 p. 31: the section reaches the café's corner (F8); the Panzer
    grinds in from the east (paragraph 33) and is sighted at P7; the NCO from the bakery falls
    to a sighting's free snap fire; the bazooka's first rocket strikes the tank's body and
    penetrates: knocked out. Then the Place is taken and everyone pushes on off the north
    edge: 10 + 2 + 6 + 7 x 1 = 25 VP >= 20 -> decisive win."""
    g = play({k: ["F8", "H7", "H1"] for k in range(7)}, exits=set(range(7)))
    assert _tank(g).disabled and "objective_taken" in g.state.flags
    assert any(e[0] == "penetration" for e in g.dice.log)
    assert g.stats()["us_exited"] == 7 and g.stats()["germans_killed"] == 1
    assert g.vp == 25 and g.result == Result.DECISIVE_WIN


def test_win_line():
    """RULES.md §15: the tank knocked out and the NCO down as above, the Place taken, and the
    section holds it until the time limit, nobody pushing on: 10 + 2 + 6 = 18 VP -> win (a
    German short of tank_hunt.yaml's decisive 10 + 6 + 2 x 2 = 20)."""
    g = play({k: ["F8", "H7"] for k in range(7)}, exits=set())
    assert _tank(g).disabled and "objective_taken" in g.state.flags
    assert g.stats()["germans_killed"] == 1
    assert g.state.end_reason.startswith("time limit") and g.stats()["us_exited"] == 0
    assert g.vp == 18 and g.result == Result.WIN


def test_draw_line():
    """RULES.md §15: the tank knocked out as above, but the section goes straight on north
    without taking the Place: its men leave before the objective is done, which pays them
    nothing (⚙ ``vp.exits: after_objective``, issue 25): 10 + 2 = 12 VP -> draw."""
    g = play({k: ["F8", "H1"] for k in range(7)}, exits=set(range(7)))
    assert _tank(g).disabled and "objective_taken" not in g.state.flags
    assert g.stats()["us_exited"] == 7
    assert g.vp == 12 and g.result == Result.DRAW


def test_slipping_round_the_village_loses():
    """RULES.md §15: the section slips round the village by the west and the north edge and
    leaves; the tank never comes (no trigger is entered) and the Place is never taken, so the
    7 men off the map score nothing (issue 25: leaving pays only once the objective is done):
    0 VP -> loss."""
    g = play({k: ["A1", "H1"] for k in range(7)}, exits=set(range(7)), fight=False)
    assert not g.state.vehicles and g.stats()["us_exited"] == 7
    assert g.vp == 0 and g.result == Result.LOSS


def test_loss_line():
    """RULES.md §15: a section that never moves scores nothing by the time limit -> loss."""
    g = play({}, exits=set())
    assert g.state.end_reason == "time limit (Operations pulses)"
    assert g.vp == 0 and g.result == Result.LOSS
