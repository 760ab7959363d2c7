"""The motorcycle (``vehicles.yaml: motorcycle`` ⚙) in the observation: the vehicle table keeps
its shape (``spec.VEHICLE_TYPES`` pins the six ``type_*`` columns of seed 000's types ⚙), the
motorcycle's row has every ``type_*`` column 0 and is told apart by its MPAs, and random play
with one aboard stays inside the observation space.
"""

from __future__ import annotations

import random

import numpy as np

from ambush_env.core import Game
from ambush_env.env import spec
from ambush_env.env.ambush_env import AmbushEnv
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import VEHICLE, VEHICLE_FEATURES, VEHICLE_TYPES


def _position() -> dict:
    """Farm Assault in Rounds: G1 drives the motorcycle V1 at K8 with G2 in the sidecar."""
    return {
        "mission": "farm_assault",
        "phase": "rounds",
        "round": 1,
        "rounds_total": 1,
        "initiative": "us",
        "units": [
            {"name": "US1", "hex": "C8", "ar": "1-turn"},
            {"name": "US2", "hex": "C9", "ar": "1-turn"},
            {"name": "G1", "role": "rifleman", "hex": "K8", "vehicle": "V1"},
            {"name": "G2", "role": "rifleman", "hex": "K8", "vehicle": "V1"},
        ],
        "vehicles": [
            {
                "name": "V1",
                "type": "motorcycle",
                "side": "german",
                "hex": "K8",
                "facing": "SW",
                "driver": "G1",
                "passengers": ["G2"],
            }
        ],
    }


def test_the_vehicle_table_keeps_its_shape_and_the_motorcycle_has_no_type_column():
    assert "motorcycle" not in VEHICLE_TYPES
    assert len([f for f in VEHICLE_FEATURES if f.startswith("type_")]) == 6
    g = Game.from_position(_position())
    obs = ObservationBuilder(g).build()
    assert obs["vehicles"].shape == spec.OBSERVATION_SPEC["vehicles"].shape
    r = {f: float(obs["vehicles"][0, VEHICLE[f]]) for f in VEHICLE_FEATURES}
    assert all(r[f"type_{t}"] == 0 for t in VEHICLE_TYPES)
    assert r["present"] == r["german"] == r["open"] == r["driver_present"] == 1
    assert r["tank"] == r["large"] == r["us"] == 0
    assert r["mp_slow"] == np.float32(0.6) and r["mp_fast"] == np.float32(1.0)
    assert r["occupants"] == 1.0 and r["full"] == 1  # 2 of its 2 seats


def test_random_play_with_a_motorcycle_stays_in_the_space():
    env = AmbushEnv()
    try:
        obs, info = env.reset(seed=5, options={"position": _position()})
        rnd = random.Random(5)
        for _ in range(150):
            assert env.observation_space.contains(obs)
            legal = np.flatnonzero(info["action_mask"])
            obs, _, term, trunc, info = env.step(int(rnd.choice(legal)))
            if term or trunc:
                break
        assert env.observation_space.contains(obs)
    finally:
        env.close()
