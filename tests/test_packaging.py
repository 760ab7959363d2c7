"""How the project installs (issue 15): the agents install under the project's own name.

A plain (non-editable) install of the repository puts ``ambush_env`` alone into
site-packages: the repository's ``agents/`` folder becomes ``ambush_env.agents`` (pyproject
``package-dir``), so ``import agents`` from outside the repository stays free for the user's
own code. The shipped model, saved when the agents were still ``agents``, still loads.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The project installed non-editable into a fresh target folder, built from a copy of
    the tracked files (so that the build writes nothing into the checkout)."""
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for rel in filter(None, files.decode().split("\0")):
        p = ROOT / rel
        if p.is_symlink() or not p.is_file():
            continue  # ambush_env/agents is a link to agents/ for in-tree tools; the install maps it
        dst = src / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, dst)
    target = tmp / "site"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(target),
            str(src),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return target


def _python(code: str, target: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_installed_top_level_names_are_the_projects_own(installed):
    names = sorted(p.name for p in installed.iterdir() if not p.name.endswith(".dist-info"))
    assert [n for n in names if n not in ("bin",)] == ["ambush_env"]
    assert (installed / "ambush_env" / "agents" / "heuristic.py").is_file()
    assert (installed / "ambush_env" / "_configs" / "bench" / "smoke.yaml").is_file()


def test_import_agents_fails_outside_the_repository(installed, tmp_path):
    res = _python("import agents", installed, tmp_path)
    assert res.returncode != 0
    assert "No module named 'agents'" in res.stderr


def test_the_installed_agents_play(installed, tmp_path):
    code = (
        "import ambush_env.agents as A, ambush_env.agents.heuristic as H\n"
        "from ambush_env.env.ambush_env import AmbushEnv\n"
        "env = AmbushEnv(mission='farm_assault'); obs, info = env.reset(seed=1)\n"
        "agent = A.make_agent('heuristic'); agent.reset(env, 1)\n"
        "a = agent.act(obs, info, env); assert info['action_mask'][a]\n"
        "print(H.__file__)"
    )
    res = _python(code, installed, tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    assert Path(res.stdout.strip()).is_relative_to(installed)


def test_shipped_model_loads_without_the_old_name():
    """The shipped zip pickles ``agents.maskable_ppo``; :func:`load_model` aliases that name
    while loading only."""
    pytest.importorskip("sb3_contrib")
    code = (
        "import sys\nfrom ambush_env.agents import make_agent\n"
        f"a = make_agent({str(ROOT / 'models' / 'maskable_ppo_farm_assault.zip')!r})\n"
        "assert type(a).__module__ == 'ambush_env.agents.maskable_ppo'\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'agents'], 'alias left behind'\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT.parent, capture_output=True, text=True, check=False
    )
    assert res.returncode == 0, res.stderr[-2000:]
