"""The env and the mission language (issue 13; RULES.md §3, §15): a blocking landmark
declared in play and a night sight cap change the hexes the US sees (``seen_by_us``), as the
engine's sight does (the observation's layout is unchanged); a mission ending on its pulse or
Round limit is ``terminated`` and scored."""

from __future__ import annotations

import json

import numpy as np

from ambush_env.core import Game
from ambush_env.core.model.types import ARSpace, Side, Status
from ambush_env.core.play.sequence import resolve
from ambush_env.core.world.missions import Mission, load_mission
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
    g = Game(
        _mission(
            paragraphs={"90": [{"landmark": {"hex": "D7", "name": "steeple", "blocking": True}}]},
            triggers={"C3": 90},
        ),
        seed=0,
    )
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


# ------------------------------------------------------------------- time limits in the env
def _inline(g: Game) -> dict:
    """The position of ``g`` with its mission inline, under an id of its own (a position names
    a variant by the shipped id it kept, and a game of that id takes it for the shipped one)."""
    p = g.position()
    p["mission"] = {**g.mission.model_dump(by_alias=True, mode="json"), "id": "time_limit_test"}
    return p


def _last_us_decision(g: Game) -> dict:
    """The position of ``g`` with US1 alone on the map (at A1): the only one to act."""
    _only_us1(g, "A1")
    return _inline(g)


def _play_out(p: dict) -> tuple[bool, bool, dict]:
    """Start an env episode from ``p`` and let US1 wait / end his turn until it ends."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = AmbushEnv()
    try:
        _obs, info = env.reset(options={"position": p})
        for _ in range(10):
            legal = np.flatnonzero(info["action_mask"])
            texts = {int(a): env.unwrapped.describe_action(int(a)) for a in legal}
            a = next(
                a
                for a, t in texts.items()
                if t.endswith(" wait") or "end turn" in t or t.startswith("select")
            )
            _obs, _r, terminated, truncated, info = env.step(a)
            if terminated or truncated:
                return terminated, truncated, info
        raise AssertionError("the episode did not end")
    finally:
        env.close()


def test_pulse_limit_is_terminated_and_scored_in_the_env():
    """RULES.md §15: the mission's own time limit ends it like any other end: the env reports
    ``terminated`` (not ``truncated``) and the result (pulse 2 of 2 ends: 0 VP, a loss)."""
    g = Game(_mission(time_limit={"operations_pulses": 2}), seed=0)
    g.state.pulse = 1
    terminated, truncated, info = _play_out(_last_us_decision(g))
    assert (terminated, truncated) == (True, False)
    assert info["result"] == "loss"


def test_round_limit_is_terminated_and_scored_in_the_env():
    """RULES.md §15: Round 2 of 2 played out with a German still in contact: Round 3 would
    start, so the mission ends, ``terminated`` and scored."""
    from ambush_env.core.model.state import TurnState, Unit
    from ambush_env.core.model.types import Phase

    g = Game(_mission(time_limit={"rounds": 2}), seed=0)
    _only_us1(g, "A1")
    st = g.state
    c = g.cards["rifleman"]
    ger = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name="G1",
        role=c.id,
        hex=g.board.index("R1"),
        IN=c.IN,
        PC=c.PC,
        WS=c.WS,
        MV=c.MV,
        weapon=c.weapon,
        aware=True,
        slot=0,
    )
    ger.ammo = g.weapon(c.weapon).clip
    st.units.append(ger)
    st.contacts.append(ger.uid)
    st.next_german = 2
    st.phase, st.round, st.rounds_total, st.initiative = int(Phase.ROUNDS), 2, 2, int(Side.US)
    for u in st.units:
        u.ar = int(ARSpace.COMPLETE) if u.status == Status.ACTIVE else int(ARSpace.INACTIVE)
    us1 = st.units[0]
    us1.ar = int(ARSpace.ONE_TURN)
    st.turn = TurnState(uid=us1.uid)
    g.invalidate()
    terminated, truncated, info = _play_out(_inline(g))
    assert (terminated, truncated) == (True, False)
    assert info["result"] == "loss"
