"""The observation: built from the one spec table, bounded, compact, and showing only what the
US knows."""

from __future__ import annotations

import numpy as np
import pytest
from env_helpers import random_actions

from ambush_env.core.model.orders import K_SLOTS, U_SLOTS, V_SLOTS
from ambush_env.core.model.types import Status, Terrain
from ambush_env.env import spec
from ambush_env.env.ambush_env import AmbushEnv
from ambush_env.env.spec import (
    BOARD,
    BOARD_H,
    BOARD_W,
    CONTACT,
    GLOBAL,
    OBSERVATION_SPEC,
    UNIT,
)


def test_spaces_come_from_the_spec_table():
    space = spec.observation_space()
    assert set(space.spaces) == set(OBSERVATION_SPEC)
    for name, f in OBSERVATION_SPEC.items():
        box = space[name]
        assert box.shape == f.shape and box.dtype == f.dtype
        low, high = f.bounds()
        np.testing.assert_array_equal(box.low, low)
        np.testing.assert_array_equal(box.high, high)
        assert f.shape[f.feature_axis] == len(f.features)
        assert len(f.axes) == len(f.shape)
    assert OBSERVATION_SPEC["board"].shape == (len(spec.BOARD_PLANES), BOARD_H, BOARD_W)
    assert OBSERVATION_SPEC["units"].shape[0] == U_SLOTS
    assert OBSERVATION_SPEC["contacts"].shape[0] == K_SLOTS
    assert OBSERVATION_SPEC["vehicles"].shape[0] == V_SLOTS
    text = spec.describe()
    for name, f in OBSERVATION_SPEC.items():
        assert f"`{name}`" in text
        for feat in f.features:
            assert f"| `{feat.name}` | {feat.scale} |" in text
    assert "| `level` | ground level / 3 |" in text and "| `PC` | PC / 9 |" in text


def test_board_is_uint8_and_each_plane_is_bounded_by_its_declared_divisor():
    """⚙ spec.py: a board plane stores min(quantity, div) and means stored / div; its Box
    bound is div, so the value of every plane lies in [0, 1]."""
    f = OBSERVATION_SPEC["board"]
    assert f.dtype == np.uint8 and f.integer
    high = spec.observation_space()["board"].high
    for c, feat in enumerate(f.features):
        assert feat.div >= 1 and feat.div == int(feat.div)
        assert (high[c] == feat.div).all()
        assert feat.scale == ("0/1" if feat.div == 1 else f"{feat.unit} / {feat.div:g}")
    assert {spec.BOARD_PLANE_SPEC[BOARD[p]].div for p in ("us_standing", "german_down")} == {4}
    assert spec.BOARD_PLANE_SPEC[BOARD["level"]].div == 3
    assert spec.BOARD_PLANE_SPEC[BOARD["vehicle_facing"]].div == 5
    for key in ("units", "contacts", "vehicles", "globals"):  # the tables store the values
        assert OBSERVATION_SPEC[key].dtype == np.float32 and not OBSERVATION_SPEC[key].integer


def test_scaled_divides_each_plane_by_its_divisor_and_keeps_batch_axes():
    env = AmbushEnv()
    obs, info = env.reset(seed=0)
    vals = spec.scaled(obs)
    assert vals["board"].dtype == np.float32
    divs = np.asarray([p.div for p in spec.BOARD_PLANE_SPEC], dtype=np.float32)
    np.testing.assert_array_equal(vals["board"], obs["board"] / divs[:, None, None])
    assert vals["board"].min() >= 0.0 and vals["board"].max() <= 1.0
    for k in ("units", "contacts", "vehicles", "globals"):
        np.testing.assert_array_equal(vals[k], obs[k])
    batch = spec.scaled({"board": np.stack([obs["board"]] * 3)})["board"]
    assert batch.shape == (3, *obs["board"].shape)
    np.testing.assert_array_equal(batch[2], vals["board"])


@pytest.mark.parametrize("side", spec.SIDES)
def test_one_observation_fits_in_64_kib(side):
    """Issue 10: the whole observation of a seat, computed from the spec table, is at most
    64 KiB (it was 190 KiB of float32 planes)."""
    sizes = spec.observation_nbytes(side)
    table = spec.observation_spec(side)
    assert set(sizes) == {*table, "total"}
    for name, f in table.items():
        assert sizes[name] == int(np.prod(f.shape)) * np.dtype(f.dtype).itemsize
    assert sizes["total"] == sum(sizes[k] for k in table)
    assert sizes["total"] <= spec.MAX_OBSERVATION_BYTES == 64 * 1024, sizes
    zero = spec.zeros(side)
    assert sum(a.nbytes for a in zero.values()) == sizes["total"]


def test_the_env_observation_has_the_size_the_table_gives():
    obs, info = AmbushEnv().reset(seed=0)
    sizes = spec.observation_nbytes("us")
    assert {k: v.nbytes for k, v in obs.items()} == {k: sizes[k] for k in obs}
    with pytest.raises(ValueError, match="side"):
        spec.observation_nbytes("french")


def test_static_planes_describe_the_map():
    env = AmbushEnv()
    obs, info = env.reset(seed=0)
    b = env.game.board
    board = obs["board"]
    assert board[BOARD["on_map"]].sum() == b.n
    on = board[BOARD["on_map"]] > 0
    terr = board[: len(spec.TERRAIN_PLANES)]
    np.testing.assert_array_equal(terr.sum(axis=0)[on], 1.0)
    assert terr.sum(axis=0)[~on].sum() == 0
    for i in (0, b.n // 2, b.n - 1):
        c, r = b.coords(i)
        t = Terrain(int(b.terrain[i])).name.lower()
        assert board[BOARD[f"terrain_{t}"], r, c] == 1
        assert board[BOARD["level"], r, c] == b.level[i]  # stored: the level itself
        assert spec.scaled(obs)["board"][BOARD["level"], r, c] == np.float32(b.level[i] / 3)
    for h in env.game.objective_hexes:
        c, r = b.coords(h)
        assert board[BOARD["objective"], r, c] == 1.0


def test_rows_follow_slots_and_contacts_follow_fire_order_slots():
    env = AmbushEnv()
    rng = np.random.default_rng(5)
    seen_contacts = False
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        for _ in range(1500):
            g = env.game
            us = g.us_units()
            assert obs["units"][:, UNIT["present"]].sum() == len(us)
            for u in us:
                row = obs["units"][u.slot]
                assert row[UNIT["active"]] == (u.status == Status.ACTIVE)
                assert row[UNIT["wounded"]] == u.wounded
            acting = g.acting_unit()
            if acting is not None:
                assert obs["units"][acting.slot, UNIT["acting"]] == 1.0
                assert obs["globals"][GLOBAL[f"acting_slot_{acting.slot}"]] == 1.0
                c, r = g.board.coords(acting.hex)
                assert obs["board"][BOARD["acting_hex"], r, c] == 1.0
            else:
                assert obs["globals"][GLOBAL["selecting"]] == 1.0
            known = g.contact_units()
            assert obs["contacts"][:, CONTACT["present"]].sum() == len(known)
            for k, c_ in enumerate(known):
                seen_contacts = True
                if c_.hex >= 0:
                    col, row = g.board.coords(c_.hex)
                    assert obs["contacts"][k, CONTACT["col"]] == np.float32(col / (BOARD_W - 1))
                    assert obs["contacts"][k, CONTACT["row"]] == np.float32(row / (BOARD_H - 1))
            obs, r, term, trunc, info = env.step(random_actions(info, rng))
            if term or trunc:
                break
    assert seen_contacts, "no German became known in four random episodes"


def test_hidden_germans_never_show():
    """docs/API.md: only what a player could know; Germans not in the contact slots are absent."""
    env = AmbushEnv()
    rng = np.random.default_rng(9)
    planes = [
        BOARD[p]
        for p in (
            "german_standing",
            "german_crouching",
            "german_prone",
            "german_aware",
            "german_down",
        )
    ]
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        for _ in range(1500):
            g = env.game
            known_hexes = {u.hex for u in g.contact_units() if u.hex >= 0}
            marked = np.argwhere(obs["board"][planes].sum(axis=0) > 0)
            for r, c in marked:
                assert r * g.board.columns + c in known_hexes
            obs, rew, term, trunc, info = env.step(random_actions(info, rng))
            if term or trunc:
                break


def test_observations_stay_in_the_declared_space_and_are_fresh_arrays():
    env = AmbushEnv()
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=2)
    prev = obs
    for _ in range(500):
        obs, r, term, trunc, info = env.step(random_actions(info, rng))
        assert env.observation_space.contains(obs)
        assert all(obs[k] is not prev[k] for k in obs)  # no aliasing between steps
        prev = obs
        if term or trunc:
            obs, info = env.reset()


def test_incremental_observation_equals_one_built_from_scratch():
    """The builder's caches (template planes, rows, sight counts) never drift from the state."""
    from ambush_env.env.observation import ObservationBuilder

    env = AmbushEnv()
    rng = np.random.default_rng(11)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        for step in range(1200):
            fresh = ObservationBuilder(env.game).build()
            for k in obs:
                np.testing.assert_array_equal(
                    obs[k], fresh[k], err_msg=f"seed {seed} step {step}: {k}"
                )
            obs, r, term, trunc, info = env.step(random_actions(info, rng))
            if term or trunc:
                break
