"""The golden start frame of Farm Assault (issue 15, done-when 3): the rgb_array frame after
``reset(seed=0)`` matches tests/golden/frames/farm_assault_start.png within a tolerance
(Pillow's text rendering may differ by a shade between versions). On a mismatch the actual
frame and a diff image are written to the test's tmp_path and named in the failure.
Regenerate with ``python scripts/regen_frames.py`` after a deliberate change."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden" / "frames"
#: ⚙ tolerances: mean absolute difference (0-255 a channel) and the share of pixels that
#: differ by more than _LOUD in some channel; a shifted map or a missing HUD line exceeds them
MAX_MEAN_ABS = 1.0
MAX_LOUD_SHARE = 0.005
_LOUD = 40


def _regen_module():
    spec = importlib.util.spec_from_file_location("regen_frames", ROOT / "scripts" / "regen_frames.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def frame_difference(actual: np.ndarray, golden: np.ndarray) -> tuple[float, float]:
    """``(mean absolute difference, share of loud pixels)`` of two same-shaped frames."""
    d = np.abs(actual.astype(np.int16) - golden.astype(np.int16))
    return float(d.mean()), float((d.max(axis=2) > _LOUD).mean())


def matches(actual: np.ndarray, golden: np.ndarray) -> bool:
    if actual.shape != golden.shape:
        return False
    mad, loud = frame_difference(actual, golden)
    return mad <= MAX_MEAN_ABS and loud <= MAX_LOUD_SHARE


@pytest.mark.parametrize("name", sorted(_regen_module().FRAMES))
def test_frame_matches_its_golden(name, tmp_path):
    from PIL import Image

    path = GOLDEN_DIR / f"{name}.png"
    assert path.stat().st_size < 200_000
    golden = np.asarray(Image.open(path).convert("RGB"))
    actual = _regen_module().FRAMES[name]()
    assert actual.dtype == np.uint8 and actual.ndim == 3 and actual.shape[2] == 3
    if matches(actual, golden):
        return
    out = tmp_path / f"{name}_actual.png"
    Image.fromarray(actual).save(out)
    msg = f"frame {name} differs from {path}: actual frame {out}"
    if actual.shape == golden.shape:
        diff = tmp_path / f"{name}_diff.png"
        d = np.abs(actual.astype(np.int16) - golden.astype(np.int16)).max(axis=2)
        Image.fromarray(np.where(d > _LOUD, 255, d * 4).clip(0, 255).astype(np.uint8)).save(diff)
        mad, loud = frame_difference(actual, golden)
        msg += f", diff {diff} (mean abs {mad:.2f} > {MAX_MEAN_ABS} or loud share {loud:.4f} > {MAX_LOUD_SHARE})"
    else:
        msg += f" (shape {actual.shape}, golden {golden.shape})"
    pytest.fail(msg + "; if the change is deliberate: python scripts/regen_frames.py")


def test_the_tolerance_catches_a_changed_frame(monkeypatch):
    """The comparison is not blind: the golden matches itself; shifted by two pixels, or drawn
    with another clear-terrain colour, it does not. (⚙ A single soldier moved, about 0.05 % of
    the pixels, passes: the tolerance is sized for font rendering differences between Pillow
    versions; the rules tests check where units are.)"""
    from PIL import Image

    from ambush_env.core.types import Terrain
    from ambush_env.render import image

    golden = np.asarray(Image.open(GOLDEN_DIR / "farm_assault_start.png").convert("RGB"))
    assert matches(golden, golden)
    assert not matches(np.roll(golden, 2, axis=1), golden)
    assert not matches(golden[:, :-2], golden)
    monkeypatch.setitem(image.TERRAIN_RGB, Terrain.CLEAR, (186, 204, 140))
    monkeypatch.setattr(image, "_CACHE", {})
    restyled = _regen_module().farm_assault_start()
    assert not matches(restyled, golden)
