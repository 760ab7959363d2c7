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
    spec = importlib.util.spec_from_file_location(
        "regen_frames", ROOT / "scripts" / "regen_frames.py"
    )
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


def mismatch_report(name: str, actual: np.ndarray, golden: np.ndarray, out_dir: Path) -> str | None:
    """None when ``actual`` matches ``golden``; else a message naming the actual frame and
    the diff image (white: pixels differing by more than _LOUD) written into ``out_dir``."""
    from PIL import Image

    if matches(actual, golden):
        return None
    out = out_dir / f"{name}_actual.png"
    Image.fromarray(actual).save(out)
    msg = f"frame {name} differs from its golden: actual frame {out}"
    if actual.shape == golden.shape:
        diff = out_dir / f"{name}_diff.png"
        d = np.abs(actual.astype(np.int16) - golden.astype(np.int16)).max(axis=2)
        Image.fromarray(np.where(d > _LOUD, 255, d * 4).clip(0, 255).astype(np.uint8)).save(diff)
        mad, loud = frame_difference(actual, golden)
        msg += f", diff {diff} (mean abs {mad:.2f} > {MAX_MEAN_ABS} or loud share {loud:.4f} > {MAX_LOUD_SHARE})"
    else:
        msg += f" (shape {actual.shape}, golden {golden.shape})"
    return msg + "; if the change is deliberate: python scripts/regen_frames.py"


def _golden(name: str) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(GOLDEN_DIR / f"{name}.png").convert("RGB"))


@pytest.mark.parametrize("name", sorted(_regen_module().FRAMES))
def test_frame_matches_its_golden(name, tmp_path):
    assert (GOLDEN_DIR / f"{name}.png").stat().st_size < 200_000
    actual = _regen_module().FRAMES[name]()
    assert actual.dtype == np.uint8 and actual.ndim == 3 and actual.shape[2] == 3
    msg = mismatch_report(name, actual, _golden(name), tmp_path)
    if msg:
        pytest.fail(msg)


def test_a_mismatch_writes_the_frame_and_the_diff(tmp_path):
    golden = _golden("farm_assault_start")
    changed = golden.copy()
    changed[100:200, 100:300] = 0
    msg = mismatch_report("farm_assault_start", changed, golden, tmp_path)
    actual, diff = (
        tmp_path / "farm_assault_start_actual.png",
        tmp_path / "farm_assault_start_diff.png",
    )
    assert msg and str(actual) in msg and str(diff) in msg
    from PIL import Image

    d = np.asarray(Image.open(diff))
    assert (
        d.shape == golden.shape[:2]
        and (d[100:200, 100:300] == 255).all()
        and d[300:, 400:].max() == 0
    )
    assert np.array_equal(np.asarray(Image.open(actual)), changed)
    assert "shape" in mismatch_report("x", golden[:-2], golden, tmp_path)


def test_the_tolerance_catches_a_changed_frame(monkeypatch):
    """The comparison is not blind: the golden matches itself; shifted by two pixels, or drawn
    with another clear-terrain colour, it does not. (⚙ A single soldier moved, about 0.05 % of
    the pixels, passes: the tolerance is sized for font rendering differences between Pillow
    versions; the rules tests check where units are.)"""
    from PIL import Image

    from ambush_env.core.model.types import Terrain
    from ambush_env.render import image

    golden = np.asarray(Image.open(GOLDEN_DIR / "farm_assault_start.png").convert("RGB"))
    assert matches(golden, golden)
    assert not matches(np.roll(golden, 2, axis=1), golden)
    assert not matches(golden[:, :-2], golden)
    monkeypatch.setitem(image.TERRAIN_RGB, Terrain.CLEAR, (186, 204, 140))
    monkeypatch.setattr(image, "_CACHE", {})
    restyled = _regen_module().farm_assault_start()
    assert not matches(restyled, golden)
