#!/usr/bin/env python
"""Run the environment checkers on every registered id (issue 23, docs/TESTING.md).

Gymnasium's ``check_env`` (render checks included: it builds every mode the env advertises)
and stable-baselines3's ``check_env`` on every ``ambush/*`` id of every registered version,
and PettingZoo's ``api_test`` on ``ambush_env.aec_env`` (both German modes) where PettingZoo
is installed. One line per check; the exit status is 1 when any check fails.

    python scripts/check_envs.py                 # in the environment at hand
    python scripts/check_envs.py --hide-pygame   # as where pygame is not installed
    python scripts/check_envs.py --fresh-venv    # a new virtual environment, the README's
                                                 # quick-start install, then the checks there

``--fresh-venv`` copies this checkout's files (tracked, and new ones git does not ignore) into a
temporary folder (a clean clone's files), makes a virtual environment there, runs the quick start's install
(``pip install -e ".[render]" -c constraints.txt``), checks that it brought no pygame, adds
what the checkers need and the quick start does not install (stable-baselines3, PettingZoo;
with the same constraints) and runs this script in it with ``--require-sb3``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK_START = ["-e", ".[render]", "-c", "constraints.txt"]  # README "Quick start"
CHECK_EXTRAS = ["stable-baselines3>=2.3", "pettingzoo>=1.24"]  # pyproject extras train, multi


def _registered_ids() -> list[str]:
    import gymnasium

    import ambush_env  # noqa: F401  (registers the ids)

    return sorted(k for k in gymnasium.registry if k.startswith("ambush/"))


def _run(label: str, fn) -> bool:
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the -v0/-v1 deprecations, SB3's shape advice
            fn()
    except Exception:
        print(f"FAIL {label}\n{traceback.format_exc()}", flush=True)
        return False
    print(f"ok   {label} ({time.perf_counter() - t0:.1f} s)", flush=True)
    return True


def run_checks(require_sb3: bool = False, pettingzoo: bool = True) -> int:
    """Both checkers on every registered id, then PettingZoo's api_test; returns the exit status."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env as gym_check

    try:
        from stable_baselines3.common.env_checker import check_env as sb3_check
    except ImportError:
        if require_sb3:
            print("FAIL stable-baselines3 is not installed", flush=True)
            return 1
        sb3_check = None
        print("skip stable-baselines3's check_env: not installed", flush=True)
    ok = True
    ids = _registered_ids()
    for id_ in ids:
        ok &= _run(
            f"gymnasium check_env {id_}",
            lambda id_=id_: gym_check(gymnasium.make(id_).unwrapped),
        )
        if sb3_check is not None:
            ok &= _run(
                f"sb3 check_env {id_}",
                lambda id_=id_: sb3_check(gymnasium.make(id_), warn=True),
            )
    try:
        from pettingzoo.test import api_test
    except ImportError:
        api_test = None
        print("skip PettingZoo's api_test: not installed", flush=True)
    if api_test is not None and pettingzoo:
        import ambush_env

        for german in ("agent", "cards"):
            ok &= _run(
                f"pettingzoo api_test aec_env(german={german!r})",
                lambda german=german: api_test(
                    ambush_env.aec_env(german=german, max_steps=300),
                    num_cycles=200,
                    verbose_progress=False,
                ),
            )
    import ambush_env.env.ambush_env as E

    print(
        f"{len(ids)} ids; render modes advertised: {E.AmbushEnv.metadata['render_modes']}",
        flush=True,
    )
    return 0 if ok else 1


def _tracked_files(dest: Path) -> None:
    """Copy the checkout's files into ``dest``: those git tracks and the new ones it does not
    ignore (what a clone holds once they are committed), never a build or a venv."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for rel in filter(None, out.decode().split("\0")):
        src = ROOT / rel
        if src.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dest / rel)
        elif src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def fresh_venv(python: str, keep: bool) -> int:
    """The quick start's install in a new virtual environment, then the checks in it."""
    tmp = Path(tempfile.mkdtemp(prefix="ambush_fresh_"))
    try:
        src = tmp / "ambush_env"
        _tracked_files(src)
        venv = tmp / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        py = str(venv / "bin" / "python")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

        def pip(*args: str) -> None:
            print(f"$ pip install {' '.join(args)}", flush=True)
            subprocess.run([py, "-m", "pip", "install", "-q", *args], cwd=src, env=env, check=True)

        pip(*QUICK_START)
        probe = subprocess.run(
            [py, "-c", "import importlib.util as u; print(u.find_spec('pygame') is None)"],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        if probe.stdout.strip() != "True":
            print(
                "FAIL the quick start's install brought pygame: the check would not be a default install's",
                flush=True,
            )
            return 1
        pip(*CHECK_EXTRAS, "-c", "constraints.txt")
        return subprocess.run(
            [py, str(Path(__file__).resolve()), "--require-sb3"], cwd=tmp, env=env, check=False
        ).returncode
    finally:
        if keep:
            print(f"kept {tmp}", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--hide-pygame",
        action="store_true",
        help="run as if pygame were not installed (sys.modules['pygame'] = None)",
    )
    p.add_argument(
        "--require-sb3",
        action="store_true",
        help="fail (instead of skipping) when stable-baselines3 is not installed",
    )
    p.add_argument(
        "--no-pettingzoo",
        action="store_true",
        help="leave out PettingZoo's api_test (tests/env/test_aec_env.py runs it)",
    )
    p.add_argument(
        "--fresh-venv",
        action="store_true",
        help="a new virtual environment with the README's quick-start install, then the checks",
    )
    p.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter that makes the fresh virtual environment (default: this one)",
    )
    p.add_argument("--keep", action="store_true", help="keep the fresh environment's folder")
    a = p.parse_args(argv)
    if a.fresh_venv:
        return fresh_venv(a.python, a.keep)
    if a.hide_pygame:
        sys.modules["pygame"] = None  # type: ignore[assignment]  # import pygame -> ImportError
    return run_checks(a.require_sb3, pettingzoo=not a.no_pettingzoo)


if __name__ == "__main__":
    sys.exit(main())
