"""The rgb_array render mode (docs/API.md render modes) and ``ambush render``."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import ambush_env  # noqa: F401  (registers the ids)
from ambush_env.render.image import render_rgb


def test_rgb_array_frame_shape_and_dtype():
    """``render()`` in rgb_array mode gives an (H, W, 3) uint8 image of the map."""
    env = gym.make("ambush/FarmAssault-v0", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and min(frame.shape[:2]) > 100
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert env.render().shape == frame.shape


def test_hidden_germans_are_not_drawn():
    """docs/API.md: the env shows only what a player could know: a hidden German leaves the
    image unchanged; once he is a contact he is drawn."""
    env = gym.make("ambush/FarmAssault-v0", render_mode="rgb_array")
    env.reset(seed=0)
    game = env.unwrapped.game
    before = render_rgb(game)
    from ambush_env.core.model.state import Unit
    from ambush_env.core.model.types import Side

    g = Unit(
        uid=len(game.state.units),
        side=int(Side.GERMAN),
        name="G9",
        role="rifleman",
        hex=game.board.index("J5"),
        weapon="kar98",
    )
    game.state.units.append(g)
    assert np.array_equal(render_rgb(game), before)
    game.state.contacts.append(g.uid)
    assert not np.array_equal(render_rgb(game), before)


def test_check_env_with_rgb_array_and_sb3_vec_env():
    """The Gymnasium checker passes in rgb_array mode; SB3's make_vec_env (which asks for
    rgb_array frames by default) builds the env."""
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_util import make_vec_env

    env = gym.make("ambush/Ambush-v0", render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    venv = make_vec_env("ambush/Ambush-v0", n_envs=2)
    venv.reset()
    venv.close()


def test_cli_render_writes_a_png(tmp_path):
    from PIL import Image

    from ambush_env.cli import main

    out = tmp_path / "map.png"
    assert main(["render", "--mission", "farm_assault", "--out", str(out)]) == 0
    img = Image.open(out)
    assert img.size[0] > 100 and img.mode == "RGB"
