"""The observation follows the mission language's sight (issue 13; RULES.md §3): a blocking
landmark declared in play and a night sight cap change the hexes the US sees
(``seen_by_us``, ``seen_by_acting``), as the engine's sight does; the observation's layout is
unchanged."""

from __future__ import annotations

import json

import numpy as np

from ambush_env.core import Game
from ambush_env.core.missions import Mission, load_mission
from ambush_env.core.sequence import resolve
from ambush_env.core.types import ARSpace, Side, Status
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import BOARD


def _mission(**changes) -> Mission:
    d = load_mission("farm_assault").model_dump(by_alias=True, mode="json")
    for k, v in json.loads(json.dumps(changes)).items():
        d[k] = {**d[k], **v}
    return Mission.model_validate(d)


def _only_us1(g: Game, label: str) -> None:
    for u in g.state.units:
        if u.side == Side.US and u.slot > 0:
            u.status, u.hex, u.ar = int(Status.REMOVED), -1, int(ARSpace.INACTIVE)
    g.state.units[0].hex = g.board.index(label)
    g.invalidate()


def _seen(obs: dict, g: Game, label: str) -> int:
    c, r = g.board.coords(g.board.index(label))
    return int(obs["board"][BOARD["seen_by_us"], r, c])


def test_blocking_landmark_changes_the_observed_sight():
    g = Game(_mission(paragraphs={"90": [{"landmark": {"hex": "D7", "name": "steeple",
                                                       "blocking": True}}]},
                      triggers={"C3": 90}), seed=0)
    _only_us1(g, "D6")
    ob = ObservationBuilder(g)
    assert _seen(ob.build(), g, "D8") == 1
    g.request("paragraph", 90, 0, 0, 0)
    resolve(g)
    g.invalidate()
    after = ob.build()
    assert _seen(after, g, "D8") == 0
    fresh = ObservationBuilder(g).build()  # the incremental builder agrees with a new one
    for k in after:
        assert np.array_equal(after[k], fresh[k]), k


def test_sight_cap_limits_the_observed_sight():
    g = Game(_mission(rules={"sight_cap": 2}), seed=0)
    _only_us1(g, "D6")
    obs = ObservationBuilder(g).build()
    assert _seen(obs, g, "D8") == 1  # 2 hexes: within the cap
    assert _seen(obs, g, "D9") == 0  # 3 hexes: beyond it
    free = Game("farm_assault", seed=0)
    _only_us1(free, "D6")
    assert _seen(ObservationBuilder(free).build(), free, "D9") == 1  # no cap: seen
