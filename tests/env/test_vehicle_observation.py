"""Vehicles in the observation and the renders (Farm Assault: the US jeep V1 at A8 facing NE,
vehicle slot 0; the parked German Kübelwagen V2 at K8 facing SE, slot 1).

The rows and planes are checked value by value after boarding, capturing, disabling and
leaving the map; the builder's incremental caches are checked against a fresh build along the
way and during vehicle-heavy random play.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import ambush_env  # noqa: F401  (registers the ids)
from ambush_env.core import Game
from ambush_env.core.model.orders import ORDER_KIND, OrderKind, encode
from ambush_env.core.model.types import DIRECTION_NAMES, Direction, Side, Stance
from ambush_env.core.vehicles import vehicles as V
from ambush_env.env import spec
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import BOARD, BOARD_H, BOARD_W, UNIT, VEHICLE, VEHICLE_FEATURES
from ambush_env.render.ansi import render_ansi
from ambush_env.render.image import _VEHICLE_RGB, _centre, render_rgb

JEEP, KUBEL = 0, 1
_VEHICLE_ORDERS = {
    int(k)
    for k in (
        OrderKind.BOARD_VEHICLE,
        OrderKind.LEAVE_VEHICLE,
        OrderKind.DRIVE,
        OrderKind.DRIVE_BACK,
        OrderKind.LOAD,
        OrderKind.EXIT_MAP,
    )
}


def _f32(x: float) -> np.float32:
    return np.float32(x)


def _game() -> Game:
    g = Game("farm_assault")
    g.reset(1)
    return g


def _board_in_jeep(g: Game, slot: int = 0):
    """Select the US soldier of ``slot`` (in the jeep's hex A8) and get him into the jeep."""
    if g.acting_unit() is None:
        g.step(encode(OrderKind.SELECT_UNIT, slot))
    u = g.acting_unit()
    assert u.slot == slot and u.hex == g.state.vehicles[JEEP].hex
    g.step(encode(OrderKind.BOARD_VEHICLE, JEEP))
    return u


def _check_fresh(builder: ObservationBuilder, g: Game) -> dict[str, np.ndarray]:
    """The persistent builder's observation, asserted equal to one built from scratch."""
    obs = builder.build()
    fresh = ObservationBuilder(g).build()
    for k in obs:
        np.testing.assert_array_equal(obs[k], fresh[k], err_msg=k)
    return obs


def _row(obs, vid: int) -> dict[str, float]:
    return {f: float(obs["vehicles"][vid, VEHICLE[f]]) for f in VEHICLE_FEATURES}


def _plane(obs, plane: str) -> np.ndarray:
    """The plane's values (stored uint8 times its declared scale, spec.py)."""
    return spec.scaled(obs)["board"][BOARD[plane]]


def _cell(obs, plane: str, g: Game, hex_: int) -> float:
    c, r = g.board.coords(hex_)
    return float(_plane(obs, plane)[r, c])


def test_parked_vehicles_show_at_reset():
    g = _game()
    obs = ObservationBuilder(g).build()
    jeep, kubel = g.state.vehicles
    c, r = g.board.coords(g.board.index("K8"))
    k = _row(obs, KUBEL)
    assert k["present"] == 1 and k["german"] == 1 and k["us"] == 0 and k["captured"] == 0
    assert k["col"] == _f32(c / (BOARD_W - 1)) and k["row"] == _f32(r / (BOARD_H - 1))
    assert [k[f"facing_{d}"] for d in DIRECTION_NAMES] == [0, 0, 1, 0, 0, 0]  # SE
    assert k["occupants"] == 0 and k["driver_present"] == 0 and k["full"] == 0
    assert k["open"] == 1 and k["large"] == 0 and k["tank"] == 0
    assert k["mp_slow"] == _f32(0.5) and k["mp_fast"] == _f32(0.9)
    assert obs["vehicles"][2:].sum() == 0  # unused slots stay zero
    assert _cell(obs, "vehicle_german", g, kubel.hex) == 0.5
    assert _cell(obs, "vehicle_facing", g, kubel.hex) == _f32(2 / 5)
    assert _cell(obs, "vehicle_us", g, jeep.hex) == 0.5
    assert _cell(obs, "vehicle_facing", g, jeep.hex) == _f32(1 / 5)  # NE
    for p in ("vehicle_us", "vehicle_german"):
        assert _plane(obs, p).sum() == 0.5  # one vehicle each, nowhere else
    assert _plane(obs, "vehicle_large").sum() == 0
    assert _plane(obs, "vehicle_disabled").sum() == 0


def test_boarding_the_jeep_sets_its_row_and_the_riders_rows():
    g = _game()
    builder = ObservationBuilder(g)
    _check_fresh(builder, g)
    _board_in_jeep(g, 0)  # US1 takes the wheel
    obs = _check_fresh(builder, g)
    jeep = g.state.vehicles[JEEP]
    assert jeep.driver == g.state.units[0].uid
    c, r = g.board.coords(g.board.index("A8"))
    j = _row(obs, JEEP)
    expected = {
        "present": 1,
        "us": 1,
        "german": 0,
        "large": 0,
        "col": _f32(c / (BOARD_W - 1)),
        "row": _f32(r / (BOARD_H - 1)),
        "facing_N": 0,
        "facing_NE": 1,
        "facing_SE": 0,
        "facing_S": 0,
        "facing_SW": 0,
        "facing_NW": 0,
        "disabled": 0,
        "open": 1,
        "tank": 0,
        "captured": 0,
        "exited": 0,
        "immobilised": 0,
        "tyre_shot": 0,
        "occupants": 0.25,
        "full": 0,
        "driver_present": 1,
        "acting_aboard": 1,
        "acting_is_driver": 1,
        "same_hex_as_acting": 1,
        "mp_slow": _f32(0.5),
        "mp_fast": _f32(0.9),
        # the type one-hot and the tank's state (tests/env/test_tank_observation.py): 0 for a car
        **{f"type_{t}": int(t == "jeep") for t in spec.VEHICLE_TYPES},
        "crew": 0,
        "crew_points": 0,
        "cannon_loaded": 0,
        "lost_cannon": 0,
        "lost_coax": 0,
        "lost_bow": 0,
        "jammed_coax": 0,
        "jammed_bow": 0,
        "hp": 1,
        "burning": 0,  # the d100 damage: undamaged under the standard rules
    }
    assert set(expected) == set(VEHICLE_FEATURES)
    assert j == expected
    assert obs["units"][0, UNIT["in_vehicle"]] == 1 and obs["units"][0, UNIT["is_driver"]] == 1
    assert _row(obs, KUBEL)["acting_aboard"] == 0 and _row(obs, KUBEL)["same_hex_as_acting"] == 0

    # US4 (slot 3, also in A8) rides as a passenger
    g.step(encode(OrderKind.END_TURN))
    obs = _check_fresh(builder, g)
    j = _row(obs, JEEP)
    assert j["acting_aboard"] == 0 and j["acting_is_driver"] == 0 and j["same_hex_as_acting"] == 0
    assert j["driver_present"] == 1 and j["occupants"] == 0.25
    _board_in_jeep(g, 3)
    obs = _check_fresh(builder, g)
    j = _row(obs, JEEP)
    assert j["occupants"] == 0.5 and j["acting_aboard"] == 1 and j["acting_is_driver"] == 0
    assert obs["units"][3, UNIT["in_vehicle"]] == 1 and obs["units"][3, UNIT["is_driver"]] == 0
    assert obs["units"][0, UNIT["is_driver"]] == 1
    assert obs["units"][1, UNIT["in_vehicle"]] == 0


def test_driving_moves_the_planes_and_the_row():
    g = _game()
    builder = ObservationBuilder(g)
    _board_in_jeep(g, 0)
    start = g.state.vehicles[JEEP].hex
    g.step(encode(OrderKind.DRIVE, int(Direction.SE)))
    obs = _check_fresh(builder, g)
    jeep = g.state.vehicles[JEEP]
    assert jeep.hex != start and jeep.facing == Direction.SE
    assert _cell(obs, "vehicle_us", g, start) == 0 and _cell(obs, "vehicle_facing", g, start) == 0
    assert _cell(obs, "vehicle_us", g, jeep.hex) == 0.5
    assert _cell(obs, "vehicle_facing", g, jeep.hex) == _f32(2 / 5)
    j = _row(obs, JEEP)
    c, r = g.board.coords(jeep.hex)
    assert (j["col"], j["row"]) == (_f32(c / (BOARD_W - 1)), _f32(r / (BOARD_H - 1)))
    assert [j[f"facing_{d}"] for d in DIRECTION_NAMES] == [0, 0, 1, 0, 0, 0]
    # an Operations drive is one hex (RULES.md §5): his action is over, nobody acts now
    assert g.acting_unit() is None and j["same_hex_as_acting"] == 0
    assert obs["units"][0, UNIT["col"]] == j["col"]


def test_capturing_the_kubelwagen_flips_its_side():
    g = _game()
    builder = ObservationBuilder(g)
    kubel = g.state.vehicles[KUBEL]
    obs = _check_fresh(builder, g)
    assert _row(obs, KUBEL)["german"] == 1
    u = g.state.units[1]  # US2 (DS 2: may drive a captured car)
    u.hex = kubel.hex
    g.invalidate()
    g.step(encode(OrderKind.SELECT_UNIT, u.slot))
    g.step(encode(OrderKind.BOARD_VEHICLE, KUBEL))
    assert kubel.captured and kubel.side == Side.US and kubel.driver == u.uid
    obs = _check_fresh(builder, g)
    k = _row(obs, KUBEL)
    assert k["us"] == 1 and k["german"] == 0 and k["captured"] == 1
    assert k["driver_present"] == 1 and k["acting_is_driver"] == 1 and k["occupants"] == 0.25
    assert _cell(obs, "vehicle_us", g, kubel.hex) == 0.5
    assert _plane(obs, "vehicle_german").sum() == 0
    assert _plane(obs, "vehicle_us").sum() == 1.0  # the jeep and the captured car


def test_a_disabled_vehicle_shows_disabled_and_its_riders_out():
    g = _game()
    builder = ObservationBuilder(g)
    _board_in_jeep(g, 0)
    _check_fresh(builder, g)
    jeep = g.state.vehicles[JEEP]
    V.disable(g, jeep, "test")
    g.invalidate()
    obs = _check_fresh(builder, g)
    j = _row(obs, JEEP)
    assert j["disabled"] == 1 and j["present"] == 1 and j["us"] == 1
    assert j["occupants"] == 0 and j["driver_present"] == 0 and j["acting_aboard"] == 0
    assert _cell(obs, "vehicle_disabled", g, jeep.hex) == 0.5
    assert _cell(obs, "vehicle_us", g, jeep.hex) == 0.5  # the wreck still stands there
    assert obs["units"][0, UNIT["in_vehicle"]] == 0 and obs["units"][0, UNIT["is_driver"]] == 0
    assert g.state.units[0].stance == Stance.PRONE
    text = render_ansi(g)
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("V1"))
    assert "disabled" in line and "occupants 0/4" in line


def test_a_vehicle_that_left_the_map_keeps_its_slot_off_the_board():
    g = _game()
    builder = ObservationBuilder(g)
    u = _board_in_jeep(g, 0)
    jeep = g.state.vehicles[JEEP]
    old = jeep.hex
    _check_fresh(builder, g)
    V.exit_map(g, u)
    g.invalidate()
    obs = _check_fresh(builder, g)
    j = _row(obs, JEEP)
    assert j["present"] == 1 and j["exited"] == 1 and j["col"] == 0 and j["row"] == 0
    assert sum(j[f"facing_{d}"] for d in DIRECTION_NAMES) == 0 and j["occupants"] == 0
    assert _cell(obs, "vehicle_us", g, old) == 0 and _plane(obs, "vehicle_us").sum() == 0
    assert _cell(obs, "vehicle_facing", g, old) == 0


def test_two_vehicles_in_a_hex_count_and_the_lower_slot_gives_the_facing():
    g = _game()
    builder = ObservationBuilder(g)
    _check_fresh(builder, g)
    jeep, kubel = g.state.vehicles
    kubel.hex = jeep.hex
    g.invalidate()
    obs = _check_fresh(builder, g)
    assert _cell(obs, "vehicle_us", g, jeep.hex) == 0.5
    assert _cell(obs, "vehicle_german", g, jeep.hex) == 0.5
    assert _cell(obs, "vehicle_facing", g, jeep.hex) == _f32(jeep.facing / 5)
    assert _plane(obs, "vehicle_german").sum() == 0.5  # gone from K8
    assert render_ansi(g).splitlines()[1 + 2 * 7][4 + 2] == "2"  # row 8, column A: two vehicles


def test_incremental_observation_matches_a_fresh_one_in_vehicle_heavy_play():
    """Random Farm Assault play that prefers vehicle orders (board, drive, leave, load,
    exit): the env's persistent builder equals a fresh build at every step."""
    env = gym.make("ambush/FarmAssault-v0")
    rng = np.random.default_rng(4)
    drove = boarded = 0
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        g = env.unwrapped.game
        for step in range(500):
            fresh = ObservationBuilder(g).build()
            for k in obs:
                np.testing.assert_array_equal(
                    obs[k], fresh[k], err_msg=f"seed {seed} step {step}: {k}"
                )
            legal = np.flatnonzero(info["action_mask"])
            pref = [a for a in legal if ORDER_KIND[a] in _VEHICLE_ORDERS]
            pool = pref if pref and rng.random() < 0.8 else legal
            a = int(pool[rng.integers(len(pool))])
            drove += ORDER_KIND[a] == OrderKind.DRIVE
            boarded += ORDER_KIND[a] == OrderKind.BOARD_VEHICLE
            obs, _, term, trunc, info = env.step(a)
            if term or trunc:
                break
    assert boarded and drove, "the rollouts never boarded or drove a vehicle"


def test_ansi_render_shows_the_vehicles():
    env = gym.make("ambush/FarmAssault-v0", render_mode="ansi")
    env.reset(seed=1)
    g = env.unwrapped.game
    _board_in_jeep(g, 0)
    text = env.render()
    lines = text.splitlines()
    v1 = next(ln for ln in lines if ln.strip().startswith("V1"))
    assert "Jeep" in v1 and "US" in v1 and "facing NE" in v1 and "occupants 1/4" in v1
    assert "US1 (driver)" in v1
    v2 = next(ln for ln in lines if ln.strip().startswith("V2"))
    assert "Kübelwagen" in v2 and "German" in v2 and "facing SE" in v2 and "occupants 0/4" in v2
    row8 = lines[1 + 2 * 7]  # header, then two lines per map row; A8 and K8 are even columns
    assert row8.startswith("  8 ") and row8[4 + 2] == "V"
    k = g.board.coords(g.state.vehicles[KUBEL].hex)[0]
    assert row8[4 + 3 * k + 2] == "W"
    us1 = next(ln for ln in lines if ln.strip().startswith("US1"))
    assert "driving V1" in us1


@pytest.mark.parametrize("hex_size", [16, 24])
def test_rgb_render_draws_vehicles_where_they_are(hex_size):
    g = _game()
    s = hex_size
    with_v = render_rgb(g, hex_size=s)
    saved = g.state.vehicles
    g.state.vehicles = []
    without = render_rgb(g, hex_size=s)
    g.state.vehicles = saved
    assert with_v.shape == without.shape and with_v.dtype == np.uint8
    diff = np.argwhere((with_v != without).any(axis=2))
    assert len(diff) > 0
    centres = [_centre(*g.board.coords(v.hex), s) for v in saved]
    for y, x in diff:  # every changed pixel lies within a hex radius of a vehicle
        assert min((x - cx) ** 2 + (y - cy) ** 2 for cx, cy in centres) <= (1.2 * s) ** 2
    for cx, cy in centres:  # each vehicle changed pixels in its own hex
        assert min((x - cx) ** 2 + (y - cy) ** 2 for y, x in diff) <= (0.3 * s) ** 2
    cx, cy = centres[KUBEL]  # no soldier there: the body's colour at the centre
    assert tuple(with_v[int(cy), int(cx)]) == _VEHICLE_RGB[int(Side.GERMAN)]

    # capturing the Kübelwagen recolours it; disabling the jeep greys and crosses it out
    kubel = saved[KUBEL]
    cx, cy = centres[KUBEL]
    u = g.state.units[1]
    u.hex = kubel.hex
    g.invalidate()
    g.step(encode(OrderKind.SELECT_UNIT, u.slot))
    g.step(encode(OrderKind.BOARD_VEHICLE, KUBEL))
    img = render_rgb(g, hex_size=s)
    assert tuple(img[int(cy), int(cx)]) == _VEHICLE_RGB[int(Side.US)]
    before = img
    V.disable(g, saved[JEEP], "test")
    img = render_rgb(g, hex_size=s)
    assert img.shape == before.shape
    jx, jy = centres[JEEP]
    assert not np.array_equal(
        img[int(jy) - s // 2 : int(jy) + s // 2, int(jx) - s // 2 : int(jx) + s // 2],
        before[int(jy) - s // 2 : int(jy) + s // 2, int(jx) - s // 2 : int(jx) + s // 2],
    )


def test_rgb_array_render_shape_unchanged_through_the_env():
    env = gym.make("ambush/FarmAssault-v0", render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    _board_in_jeep(env.unwrapped.game, 0)
    assert env.render().shape == first.shape


def test_globals_show_the_drive_and_the_used_seat_change():
    """The turn state a driver is in is observable: mode_drive, the free Operations seat
    change used, the MPs/hexes left to the drive (incremental = from scratch)."""
    from ambush_env.env.spec import GLOBAL

    g = _game()
    builder = ObservationBuilder(g)
    _board_in_jeep(g, 3)  # US4 starts on A8 with the jeep
    gl = _check_fresh(builder, g)["globals"]
    assert gl[GLOBAL["seat_change_used"]] == 1.0 and gl[GLOBAL["mode_choose"]] == 1.0
    assert gl[GLOBAL["mode_drive"]] == 0.0 and gl[GLOBAL["drive_mp_left"]] == 0.0
    a = next(x for x in g.legal_actions() if ORDER_KIND[x] == OrderKind.DRIVE)
    g.step(a)
    gl = _check_fresh(builder, g)["globals"]
    # Operations: "drive a vehicle one hex" (RULES.md §5): the drive ended with the hex
    assert gl[GLOBAL["mode_drive"]] == 0.0 and gl[GLOBAL["drive_mp_left"]] == 0.0
    # Rounds: the drive goes on with the fast MPA less the hex's cost
    g = Game.from_position(
        {
            "mission": "farm_assault",
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US4"},
            "units": [
                {"name": "US4", "hex": "A8", "vehicle": "V1", "ar": "1-turn"},
                {"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"},
            ],
            "vehicles": [
                {
                    "name": "V1",
                    "type": "jeep",
                    "side": "us",
                    "hex": "A8",
                    "facing": "NE",
                    "driver": "US4",
                }
            ],
        }
    )
    builder = ObservationBuilder(g)
    g.play("US4 drive NE to B7")
    gl = _check_fresh(builder, g)["globals"]
    assert gl[GLOBAL["mode_drive"]] == 1.0 and gl[GLOBAL["mode_choose"]] == 0.0
    left = g.state.turn.mp_left
    assert left == V.mpa(g.state.vehicles[JEEP])[1] - g.state.turn.mp_spent > 0
    assert gl[GLOBAL["drive_mp_left"]] == _f32(left / 10)
