"""Random-play property test of positions (docs/API.md "Positions and orders": a position
writes the whole situation back exactly, and play continues identically from the restored
game; issue 23).

Every shipped mission × rule set (standard, d100) × who plays the Germans (``cards``: the
card-driven Germans of the Gymnasium env; ``agent``: two-sided play, both sides' orders random):
``GAMES`` seeded games each (``SLOW_GAMES`` under ``-m slow``), checked at a random step among
the first ``MAX_STEP`` orders:

(a) ``write(read(write(g))) == write(g)`` (also through JSON, what a file or ``get_state``
    holds), and the state read equals the game's, field by field;
(b) the next ``FURTHER`` random legal orders (one generator, the same seed for both) give the
    same legal orders and the same events, rolls included, from the restored game as from the
    original, and the same position at the end.
"""

from __future__ import annotations

import json
import random
import zlib

import pytest

from ambush_env.core import Game
from ambush_env.core.world.missions import list_missions

GAMES = 5
SLOW_GAMES = 20
MAX_STEP = 300
FURTHER = 50

COMBOS = [
    (m, r, g) for m in list_missions() for r in ("standard", "d100") for g in ("cards", "agent")
]


def _seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


def check_games(mission: str, rules: str, german: str, games: int) -> None:
    """Play ``games`` random games of the combination and check each at a random step."""
    g = Game(mission, rules=rules, german=german)
    for k in range(games):
        seed = _seed(mission, rules, german, k)
        r = random.Random(seed)
        g.reset(seed=seed)
        at = r.randrange(MAX_STEP)
        for _ in range(at):
            if g.state.over:
                break
            g.step(r.choice(g.legal_actions()))
        where = f"{mission}/{rules}/{german} game {k} (seed {seed}) at step {g.state.steps}"
        p = g.position()
        # (a) the round trip, on a fresh context for the first game (as another process would
        # read it), on the game's own afterwards
        h = Game.from_position(json.loads(json.dumps(p)), ctx=None if k == 0 else g.ctx)
        assert h.position() == p, where
        assert h.state == g.state, where
        assert Game.from_position(h.position(), ctx=g.ctx).position() == p, where
        # (b) the same orders from both: the same events and rolls
        orders = random.Random(seed + 1)
        for n in range(FURTHER):
            if g.state.over:
                assert h.state.over, where
                break
            legal = g.legal_actions()
            assert h.legal_actions() == legal, f"{where}, order {n}"
            a = orders.choice(legal)
            assert h.step(a) == g.step(a), f"{where}, order {n}: {g.describe_action(a)}"
        assert h.position() == g.position(), where


@pytest.mark.parametrize("mission,rules,german", COMBOS)
def test_positions_round_trip_and_play_on_identically(mission, rules, german):
    check_games(mission, rules, german, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("mission,rules,german", COMBOS)
def test_positions_round_trip_and_play_on_identically_many(mission, rules, german):
    check_games(mission, rules, german, SLOW_GAMES)
