#!/usr/bin/env python
"""Regenerate the README's two pictures of play (docs/img/*.png) with the project's own tools.

* ``docs/img/tank_hunt_frame.png``: the ``rgb_array`` frame (:mod:`ambush_env.render.image`) of
  ``ambush/TankHunt-v4`` after ``reset(seed=2)`` and 145 orders of the heuristic agent (seed 0):
  Round 4, the Panzer IV in K8 with a US soldier beside it, Germans known in the houses.
* ``docs/img/replay_viewer.png``: the HTML replay viewer (``ambush replay FILE --html OUT``,
  :mod:`ambush_env.render.html`) of the heuristic agent's whole ``jeep_run`` game of seed 0,
  shown at step 60 (one jeep driving, the other disabled, a snap shot at G3), screenshotted by
  headless Chromium at 1280 × 800.

The replay is recorded through :class:`ambush_env.replay.RecordingEnv`, as ``ambush bench
--save-replays`` records it; ``ambush replay`` re-simulates and verifies it before it writes the
page. ⚙ The page opens at step 0; the screenshot is taken of a copy of the page with one line of
script added that moves the slider to step 60 (the page the command wrote is not changed).
Both PNGs are reduced to 256 colours (``PIL.Image.quantize``) to stay small; the script fails
if one is :data:`MAX_BYTES` or more. Needs the ``render`` extra (Pillow) and a Chromium
(``chromium``, ``chromium-browser`` or ``google-chrome`` on the PATH; Debian: ``apt-get install
chromium``)::

    python scripts/regen_readme_images.py && git diff --stat docs/img
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

IMG_DIR = ROOT / "docs" / "img"
MAX_BYTES = 300_000  # each picture stays under this (the README loads both)
FRAME = {"mission": "tank_hunt", "seed": 2, "steps": 145}
VIEWER = {"mission": "jeep_run", "seed": 0, "step": 60, "window": (1280, 800)}
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def _env(mission: str, render_mode: str | None = None):
    import gymnasium as gym

    import ambush_env  # noqa: F401  (registers the ids)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make("ambush/Ambush-v4", mission=mission, render_mode=render_mode).unwrapped


def _play(env, seed: int, steps: int | None) -> None:
    """Reset ``env`` with ``seed`` and play the heuristic agent (seed 0) for ``steps`` orders,
    or to the end of the episode when ``steps`` is None."""
    from ambush_env.agents import make_agent

    obs, info = env.reset(seed=seed)
    agent = make_agent("heuristic", seed=0)
    agent.reset(env, seed=seed)
    n = 0
    while steps is None or n < steps:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info, env))
        n += 1
        if terminated or truncated:
            if steps is not None:
                raise RuntimeError(f"the episode ended after {n} orders, before {steps}")
            return


def frame_png() -> bytes:
    """The mid-game frame of :data:`FRAME`, as PNG bytes."""
    env = _env(FRAME["mission"], render_mode="rgb_array")
    _play(env, FRAME["seed"], FRAME["steps"])
    frame: np.ndarray = env.render()
    env.close()
    return _small_png(frame)


def viewer_png(work: Path) -> bytes:
    """The replay viewer of :data:`VIEWER` at its step, as PNG bytes (files in ``work``)."""
    from ambush_env.replay import RecordingEnv

    env = RecordingEnv(_env(VIEWER["mission"]), agent="heuristic")
    _play(env, VIEWER["seed"], None)
    replay = work / f"{VIEWER['mission']}_seed{VIEWER['seed']}.jsonl"
    env.recorder.write(replay)
    page = work / "viewer.html"
    cmd = [sys.executable, "-m", "ambush_env.cli", "replay", str(replay), "--html", str(page)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    at_step = work / "viewer_at_step.html"
    go = (
        "<script>const s = document.getElementById('slider');"
        f" s.value = {VIEWER['step']}; s.dispatchEvent(new Event('input'));</script>"
    )
    text = page.read_text(encoding="utf-8")
    assert text.rstrip().endswith("</body></html>"), "the viewer page's end changed"
    at_step.write_text(text.rstrip()[: -len("</body></html>")] + go + "</body></html>\n")
    shot = work / "viewer.png"
    w, h = VIEWER["window"]
    subprocess.run(
        [
            _browser(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={w},{h}",
            f"--screenshot={shot}",
            at_step.as_uri(),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
    )
    from PIL import Image

    with Image.open(shot) as im:
        return _small_png(np.asarray(im.convert("RGB")))


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit(f"no Chromium found (tried {', '.join(BROWSERS)}): install chromium")


def _small_png(rgb: np.ndarray) -> bytes:
    """``rgb`` (H, W, 3) uint8 as a 256-colour PNG (octree: no colour off by much, the
    legend's swatches stay true)."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(rgb).quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    ).save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> int:
    from ambush_env.core.world.data import atomic_write

    IMG_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pictures = {"tank_hunt_frame.png": frame_png(), "replay_viewer.png": viewer_png(Path(tmp))}
    status = 0
    for name, data in pictures.items():
        path = IMG_DIR / name
        with atomic_write(path, what="README picture", binary=True) as f:  # whole or not at all
            f.write(data)
        print(f"wrote {path.relative_to(ROOT)} ({len(data)} bytes)")
        if len(data) >= MAX_BYTES:
            print(f"error: {name} is {len(data)} bytes, not under {MAX_BYTES}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
