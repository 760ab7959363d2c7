"""A default install has no pygame (it is the ``window`` extra), and both env checkers still
pass on every registered id (issue 23): ``"human"`` is advertised only where pygame can be
imported (``AmbushEnv.metadata``, ⚙ in ambush_env/env/ambush_env.py), so Gymnasium's
``check_env``, which builds every advertised render mode, never asks for a window.

The checks run in a child process with pygame hidden (``sys.modules["pygame"] = None``, what
``import pygame`` meets where it is not installed) before anything is imported:
``scripts/check_envs.py --hide-pygame``. The same script with ``--fresh-venv`` builds a real
default install (``tests/test_fresh_install.py``, ``-m slow``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest

import ambush_env  # noqa: F401  (registers the ids)

ROOT = Path(__file__).resolve().parents[2]
IDS = sorted(k for k in gymnasium.registry if k.startswith("ambush/"))


def _child(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_both_checkers_pass_on_every_id_without_pygame():
    pytest.importorskip("stable_baselines3")
    res = _child("scripts/check_envs.py", "--hide-pygame", "--require-sb3", "--no-pettingzoo")
    out = res.stdout
    assert res.returncode == 0, (out + res.stderr)[-6000:]
    for id_ in IDS:
        assert f"ok   gymnasium check_env {id_} " in out, id_
        assert f"ok   sb3 check_env {id_} " in out, id_
    assert "FAIL" not in out
    assert f"{len(IDS)} ids; render modes advertised: ['ansi', 'rgb_array']" in out


def test_human_mode_without_pygame_names_the_extra():
    code = (
        "import sys; sys.modules['pygame'] = None\n"
        "import gymnasium\n"
        "from ambush_env.env.ambush_env import AmbushEnv\n"
        "assert AmbushEnv.metadata['render_modes'] == ['ansi', 'rgb_array']\n"
        "try:\n"
        "    AmbushEnv(render_mode='human')\n"
        "except gymnasium.error.DependencyNotInstalled as e:\n"
        "    print('raised:', e)\n"
    )
    res = _child("-c", code, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert (
        'raised: render_mode="human" needs pygame: pip install "ambush_env[window]"' in res.stdout
    )


def test_human_mode_is_advertised_where_pygame_imports():
    from ambush_env.env.ambush_env import AmbushEnv
    from ambush_env.render.window import pygame_available

    assert ("human" in AmbushEnv.metadata["render_modes"]) is pygame_available()
