"""Done-when 7 of issue 23, for real: a new virtual environment with only the README quick
start's install (``pip install -e ".[render]" -c constraints.txt``, from a copy of the tracked
files), then Gymnasium's and stable-baselines3's ``check_env`` on every registered id and
PettingZoo's ``api_test`` (the checkers' own packages added: the quick start has neither).
``scripts/check_envs.py --fresh-venv`` does it; it needs a package index (torch is pinned to the
CPU build 2.13.0 by constraints.txt) and some minutes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_fresh_quick_start_install_passes_both_checkers_on_every_id():
    res = subprocess.run(
        [sys.executable, "scripts/check_envs.py", "--fresh-venv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-8000:]
    assert "FAIL" not in res.stdout
    assert "render modes advertised: ['ansi', 'rgb_array']" in res.stdout
    assert "ok   pettingzoo api_test aec_env(german='agent')" in res.stdout
