#!/usr/bin/env python
"""Regenerate the golden frames of the rgb_array render (tests/golden/frames/*.png).

Each golden is the frame of a named situation (:data:`FRAMES`); tests/render/test_golden_frame.py
compares the render with it within a tolerance. Regenerate after a deliberate change of the
picture, look at the new PNGs, and say in the commit what changed and why:

    python scripts/regen_frames.py && git diff --stat tests/golden/frames
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

FRAMES_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden" / "frames"


def farm_assault_start() -> np.ndarray:
    """The rgb_array frame of ``ambush/FarmAssault-v4`` after ``reset(seed=0)``."""
    import gymnasium as gym

    import ambush_env  # noqa: F401  (registers the ids)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.make("ambush/FarmAssault-v4", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    env.close()
    return frame


#: golden name -> the function drawing its frame
FRAMES: dict[str, Callable[[], np.ndarray]] = {"farm_assault_start": farm_assault_start}


def main() -> int:
    from PIL import Image

    from ambush_env.core.world.data import atomic_write

    FRAMES_DIR.mkdir(parents=True, exist_ok=True)
    for name, make in FRAMES.items():
        path = FRAMES_DIR / f"{name}.png"
        with atomic_write(path, what="golden frame", binary=True) as f:  # whole or not at all
            Image.fromarray(make()).save(f, format="PNG", optimize=True)
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
