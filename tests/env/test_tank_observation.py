"""The tank's state in the observation (issue 11, done-when 5; seed 000 p. 30-33): type,
facing, open/closed, cannon loaded, active crew, immobilised, disabled, Crew Points left, lost
weapons and jammed MGs each have a feature of the ``vehicles`` table (spec.py).

For each feature two positions that differ only in that field give different values in
exactly that feature and equal ones everywhere else (a board plane that shows the same
field, named per case, excepted), for both seats: the US one and the German one
(:class:`~ambush_env.env.aec_env.GermanView`, side-relative). The persistent builder follows
in-place changes of each field. Tanks are put into positions directly (vehicle slot 0 at C1;
its unit T1, ``role: tank``, the acting unit, with ``turn.cp_left``).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
import pytest

from ambush_env.core import Game
from ambush_env.core.model.orders import V_SLOTS
from ambush_env.core.rules.ctx import Ctx
from ambush_env.env import spec
from ambush_env.env.aec_env import GermanView
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import VEHICLE, VEHICLE_FEATURES, VEHICLE_TYPES

MISSION = "farm_assault"


def _base(type_: str = "sherman", **tank: Any) -> dict:
    """A Sherman (or ``type_``) at C1 facing N whose unit T1 is playing its Rounds turn."""
    side = "us" if type_ == "sherman" else "german"
    v = {
        "name": "V1",
        "type": type_,
        "side": side,
        "hex": "C1",
        "facing": "N",
        "crew": 5,
        "unit": "T1",
        "cannon_loaded": False,
        **tank,
    }
    return {
        "mission": MISSION,
        "german": "agent",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": "T1", "cp_left": 3},
        "units": [
            {"name": "T1", "role": "tank", "side": "us", "vehicle": "V1", "ar": "1-turn"},
            {"name": "US2", "hex": "A1", "ar": "none"},
            {"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"},
        ],
        "vehicles": [v],
    }


@functools.cache
def _ctx() -> Ctx:
    return Ctx(MISSION)


def _obs(p: dict, side: str) -> dict[str, np.ndarray]:
    g = Game.from_position(p, ctx=_ctx())
    view = g if side == "us" else GermanView(g)
    obs = ObservationBuilder(view).build()
    assert spec.observation_space(side).contains(obs)
    return obs


def _diff(
    a: dict[str, np.ndarray], b: dict[str, np.ndarray]
) -> tuple[set[str], set[str], set[str]]:
    """(vehicle-table columns, board planes, other keys) where ``a`` and ``b`` differ."""
    cols = {
        VEHICLE_FEATURES[j] for j in np.nonzero((a["vehicles"] != b["vehicles"]).any(axis=0))[0]
    }
    planes = {
        spec.BOARD_PLANES[c] for c in np.nonzero((a["board"] != b["board"]).any(axis=(1, 2)))[0]
    }
    others = {k for k in a if k not in ("vehicles", "board") and not np.array_equal(a[k], b[k])}
    return cols, planes, others


def _crew_points_moved(p: dict) -> None:
    p["turn"]["cp_left"] = 1


def _not_acting(p: dict) -> None:
    """crew 5 -> 3 while the tank is not acting: its next turn's Crew Points follow."""
    p["turn"] = {}
    p["units"][0]["ar"] = "complete"
    p["units"][1]["ar"] = "1-turn"
    p["vehicles"][0]["crew"] = 3


# (name, change to the position, vehicle columns that must change, board planes that may)
CASES: list[tuple[str, Any, set[str], set[str]]] = [
    (
        "type",
        lambda p: p["vehicles"][0].update(type="jagdpanther", side="us"),
        {"type_sherman", "type_jagdpanther"},
        set(),
    ),
    (
        "facing",
        lambda p: p["vehicles"][0].update(facing="SE"),
        {"facing_N", "facing_SE"},
        {"vehicle_facing"},
    ),
    ("closed", lambda p: p["vehicles"][0].update(closed=True), {"open"}, set()),
    (
        "cannon_loaded",
        lambda p: p["vehicles"][0].update(cannon_loaded=True),
        {"cannon_loaded"},
        set(),
    ),
    ("crew", lambda p: p["vehicles"][0].update(crew=3), {"crew"}, set()),
    ("immobilised", lambda p: p["vehicles"][0].update(immobilised=True), {"immobilised"}, set()),
    (
        "disabled",
        lambda p: p["vehicles"][0].update(disabled=True),
        {"disabled"},
        {"vehicle_disabled"},
    ),
    ("crew_points", _crew_points_moved, {"crew_points"}, set()),
    ("lost_cannon", lambda p: p["vehicles"][0].update(lost=["cannon"]), {"lost_cannon"}, set()),
    ("lost_coax", lambda p: p["vehicles"][0].update(lost=["coax"]), {"lost_coax"}, set()),
    ("lost_bow", lambda p: p["vehicles"][0].update(lost=["bow"]), {"lost_bow"}, set()),
    ("jammed_coax", lambda p: p["vehicles"][0].update(jammed_mgs=["coax"]), {"jammed_coax"}, set()),
    ("jammed_bow", lambda p: p["vehicles"][0].update(jammed_mgs=["bow"]), {"jammed_bow"}, set()),
]


@pytest.mark.parametrize("side", ["us", "german"])
@pytest.mark.parametrize("name, change, cols, planes", CASES, ids=[c[0] for c in CASES])
def test_each_tank_field_moves_exactly_its_feature(side, name, change, cols, planes):
    """seed 000 p. 30-33: the tank's state, one field at a time."""
    p = _base()
    q = copy.deepcopy(p)
    change(q)
    a, b = _obs(p, side), _obs(q, side)
    got_cols, got_planes, others = _diff(a, b)
    assert got_cols == cols, name
    # the crew also sets the tank unit's IN, PC, WS and DS (seed 000 p. 31): its own row
    assert got_planes <= planes and others <= ({"units"} if name == "crew" else set()), name
    for c in cols:  # each named column really moved on the tank's row
        assert a["vehicles"][0, VEHICLE[c]] != b["vehicles"][0, VEHICLE[c]]


def test_tank_row_values():
    """The scales of spec.py: crew and Crew Points ÷ the type's crew (5), flags 0/1; the
    acting tank reads ``turn.cp_left``, any other its active crew (its next turn's points)."""
    p = _base(crew=4, cannon_loaded=True, closed=True, lost=["bow"], jammed_mgs=["coax"])
    r = _obs(p, "us")["vehicles"][0]
    want = {
        "present": 1,
        "us": 1,
        "german": 0,
        "large": 1,
        "tank": 1,
        "type_sherman": 1,
        "crew": np.float32(4 / 5),
        "crew_points": np.float32(3 / 5),
        "cannon_loaded": 1,
        "open": 0,
        "lost_bow": 1,
        "lost_cannon": 0,
        "lost_coax": 0,
        "jammed_coax": 1,
        "jammed_bow": 0,
        "immobilised": 0,
        "disabled": 0,
    }
    assert {k: r[VEHICLE[k]] for k in want} == want
    assert sum(r[VEHICLE[f"type_{t}"]] for t in VEHICLE_TYPES) == 1
    p["turn"]["cp_left"] = -1  # not counted yet: the points the turn starts with
    assert _obs(p, "us")["vehicles"][0, VEHICLE["crew_points"]] == np.float32(4 / 5)
    q = copy.deepcopy(_base(crew=4))
    _not_acting(q)
    r = _obs(q, "us")["vehicles"][0]
    assert r[VEHICLE["crew"]] == r[VEHICLE["crew_points"]] == np.float32(3 / 5)


def test_german_seat_sees_its_own_tank_side_relative():
    """The German seat (GermanView) fills the same columns; "us" there means its own side."""
    p = _base("panzer_iv", crew=2, cannon_loaded=True, jammed_mgs=["bow"])
    p["units"][0]["side"] = "german"
    p["turn"] = {}
    p["units"][1]["ar"] = "1-turn"
    us, ger = _obs(p, "us")["vehicles"][0], _obs(p, "german")["vehicles"][0]
    assert us[VEHICLE["german"]] == ger[VEHICLE["us"]] == 1
    same = [f for f in VEHICLE_FEATURES if f not in ("us", "german")]
    assert [us[VEHICLE[f]] for f in same] == [ger[VEHICLE[f]] for f in same]
    assert (
        ger[VEHICLE["type_panzer_iv"]]
        == ger[VEHICLE["cannon_loaded"]]
        == ger[VEHICLE["jammed_bow"]]
        == 1
    )
    assert ger[VEHICLE["crew"]] == ger[VEHICLE["crew_points"]] == np.float32(2 / 5)


def test_cars_show_no_tank_state():
    """A car's tank columns stay 0; its type column is set."""
    g = Game(MISSION, seed=1)
    obs = ObservationBuilder(g).build()
    tank_cols = [
        "crew",
        "crew_points",
        "cannon_loaded",
        "lost_cannon",
        "lost_coax",
        "lost_bow",
        "jammed_coax",
        "jammed_bow",
    ]
    for vid, t in ((0, "jeep"), (1, "kubelwagen")):
        r = obs["vehicles"][vid]
        assert [r[VEHICLE[c]] for c in tank_cols] == [0] * len(tank_cols)
        assert r[VEHICLE[f"type_{t}"]] == 1


def test_persistent_builder_follows_in_place_changes():
    """The builder's vehicle signature sees each field changed in place (lists included),
    against a fresh build."""
    g = Game.from_position(_base())
    builder = ObservationBuilder(g)
    builder.build()
    v = g.state.vehicles[0]
    changes = [
        lambda: v.lost.append("coax"),
        lambda: v.jammed_mgs.append("bow"),
        lambda: setattr(v, "cannon_loaded", True),
        lambda: setattr(v, "crew", 2),
        lambda: setattr(g.state.turn, "cp_left", 0),
        lambda: v.jammed_mgs.clear(),
        lambda: setattr(v, "closed", True),
        lambda: setattr(v, "immobilised", True),
    ]
    for change in changes:
        before = builder.build()["vehicles"].copy()
        change()
        obs = builder.build()
        fresh = ObservationBuilder(g).build()
        for k in obs:
            np.testing.assert_array_equal(obs[k], fresh[k], err_msg=k)
        assert not np.array_equal(before, obs["vehicles"])


def test_vehicle_table_size_in_the_spec():
    """The table grew by the tank columns (one type column per spec.VEHICLE_TYPES type: the six
    of seed 000, pinned, so a new vehicles.yaml type such as the motorcycle adds none)."""
    f = spec.OBSERVATION_SPEC["vehicles"]
    assert f.shape == (V_SLOTS, len(VEHICLE_FEATURES))
    assert set(VEHICLE_TYPES) == {
        "jeep",
        "kubelwagen",
        "staff_car",
        "panzer_iv",
        "sherman",
        "jagdpanther",
    }
    assert (
        spec.observation_nbytes()["total"]
        == spec.observation_nbytes("german")["total"]
        <= spec.MAX_OBSERVATION_BYTES
    )
