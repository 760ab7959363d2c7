"""Issue 23 done-when 3: a kill never blocks ``ambush train --resume latest``.

Before the fix a SIGKILL as a checkpoint appeared left a 0-byte ``*_steps.zip`` (SB3 wrote it
in place) and every later ``--resume latest`` failed ("wasn't a zip-file"). Now checkpoints
and the final model go through the one atomic writer, and ``latest_checkpoint`` skips and
names an unreadable checkpoint or a stray temporary file. The kills here come from the
writer's fault-injection hook (``AMBUSH_FAULT``, :func:`ambush_env.core.world.data.atomic_write`)
and, once, from a plain SIGKILL at random moments of a real run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from ambush_env.agents.maskable_ppo import (
    TrainConfig,
    checkpoint_problem,
    latest_checkpoint,
    new_model,
    save_model,
)
from ambush_env.core.model.errors import DataError
from ambush_env.core.world.data import FAULT_ENV

KILLED = -signal.SIGKILL

#: a tiny run: rollouts of 2 envs x 32 steps = 64 steps, a checkpoint after each
TINY = (
    "mission: farm_assault\nn_envs: 2\nn_steps: 32\nbatch_size: 32\nn_epochs: 1\n"
    "features_dim: 16\ncnn_channels: [4, 4]\nnet_arch: [8]\ncheckpoint_freq: 64\n"
    "progress_bar: false\n"
)


#: rollouts of 2 x 8 steps, a checkpoint after each: about half the time goes to writing them
#: (measured: a 1-2 MB zip in ~65 ms), so a kill at a random moment often lands in a write
FREQUENT = TINY.replace("n_steps: 32\nbatch_size: 32", "n_steps: 8\nbatch_size: 16").replace(
    "checkpoint_freq: 64", "checkpoint_freq: 16"
)


def _cmd(tmp_path: Path, total: int, *extra: str, config: str = TINY) -> list[str]:
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(config + f"total_timesteps: {total}\n", encoding="utf-8")
    return [
        sys.executable,
        "-m",
        "ambush_env.cli",
        "train",
        "--config",
        str(cfg),
        "--log-dir",
        str(tmp_path / "runs"),
        "--run-name",
        "k",
        *extra,
    ]


def _env(fault: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    if fault:
        env[FAULT_ENV] = fault
    return env


def train(
    tmp_path: Path, total: int, *extra: str, fault: str | None = None
) -> subprocess.CompletedProcess:
    """``ambush train`` of the tiny run ``k`` up to ``total`` steps, in a subprocess."""
    return subprocess.run(
        _cmd(tmp_path, total, *extra), env=_env(fault), capture_output=True, text=True, timeout=240
    )


def steps_of(model_zip: Path) -> int:
    """The env steps a saved model had trained (its zip's ``data``), read without torch."""
    with zipfile.ZipFile(model_zip) as z:
        return int(json.loads(z.read("data"))["num_timesteps"])


def _cfg(tmp_path: Path) -> TrainConfig:
    return TrainConfig(run_name="k", log_dir=str(tmp_path / "runs"))


def test_a_kill_between_a_checkpoints_write_and_rename_then_resume_latest(tmp_path):
    """Killed as the 128-step checkpoint is renamed: the 64-step one is the newest good
    checkpoint. Hand-made bad ones (0 bytes, cut off) beside it and the stray temporary file
    are named and skipped; ``--resume latest`` goes on from 64 steps."""
    ck = tmp_path / "runs" / "k" / "checkpoints"
    killed = train(tmp_path, 128, fault="after_write:*_128_steps.zip")
    assert killed.returncode == KILLED, killed.stderr
    assert sorted(p.name for p in ck.glob("*_steps.zip")) == ["k_64_steps.zip"]
    (stray,) = ck.glob(".k_128_steps.zip.*.tmp")
    (ck / "k_999_steps.zip").write_bytes(b"")  # what SB3's in-place save left before the fix
    whole = (ck / "k_64_steps.zip").read_bytes()
    (ck / "k_500_steps.zip").write_bytes(whole[: len(whole) // 2])  # a cut-off zip
    done = train(tmp_path, 192, "--resume", "latest")
    assert done.returncode == 0, done.stderr
    for bad in ("k_999_steps.zip: empty (0 bytes)", "k_500_steps.zip: not a whole "):
        assert f"warning: ignored checkpoint {ck / bad}" in done.stderr
    assert f"warning: ignored {stray}: a temporary file left by an interrupted write" in done.stderr
    assert f"resuming from {ck / 'k_64_steps.zip'} (64 steps)" in done.stdout
    assert steps_of(tmp_path / "runs" / "k" / "final_model.zip") == 192
    assert steps_of(ck / "k_192_steps.zip") == 192


def test_a_kill_while_the_final_model_is_written_then_resume_latest(tmp_path):
    run = tmp_path / "runs" / "k"
    killed = train(tmp_path, 128, fault="during_write:final_model.zip")
    assert killed.returncode == KILLED, killed.stderr
    assert not (run / "final_model.zip").exists()  # absent, not partial
    (stray,) = run.glob(".final_model.zip.*.tmp")
    assert checkpoint_problem(stray) is not None  # what the kill cut off
    assert checkpoint_problem(run / "checkpoints" / "k_128_steps.zip") is None
    done = train(tmp_path, 192, "--resume", "latest")
    assert done.returncode == 0, done.stderr
    assert f"warning: ignored {stray}" in done.stderr
    assert "resuming from" in done.stdout and "k_128_steps.zip (128 steps)" in done.stdout
    assert steps_of(run / "final_model.zip") == 192


def test_latest_checkpoint_skips_and_names_every_unreadable_kind(tmp_path):
    """0 bytes, cut off, not a zip, a zip without the model's members and a damaged member
    (CRC) are each named and skipped, newest first; the newest good checkpoint is returned.
    Resuming from such a file by name is a DataError naming it."""
    cfg = _cfg(tmp_path)
    ck = cfg.run_dir / "checkpoints"
    tiny = TrainConfig(
        **{
            **cfg.model_dump(),
            "n_envs": 1,
            "n_steps": 8,
            "batch_size": 8,
            "features_dim": 8,
            "cnn_channels": (2, 2),
            "net_arch": [4],
        }
    )
    from ambush_env.agents.maskable_ppo import make_vec_env

    env = make_vec_env(tiny)
    good = save_model(new_model(tiny, env), ck / "k_64_steps.zip")
    save_model(new_model(tiny, env), ck / "k_32_steps.zip")
    env.close()
    whole = good.read_bytes()
    (ck / "k_900_steps.zip").write_bytes(b"")
    (ck / "k_800_steps.zip").write_bytes(whole[:-200])
    (ck / "k_700_steps.zip").write_text("not a zip\n", encoding="utf-8")
    with zipfile.ZipFile(ck / "k_600_steps.zip", "w") as z:
        z.writestr("data", "{}")
    with zipfile.ZipFile(good) as z:  # flip a byte inside policy.pth's stored data
        info = z.getinfo("policy.pth")
    assert info.compress_type == zipfile.ZIP_STORED
    name_len, extra_len = struct.unpack(
        "<HH", whole[info.header_offset + 26 : info.header_offset + 30]
    )
    at = info.header_offset + 30 + name_len + extra_len + info.file_size // 2
    damaged = bytearray(whole)
    damaged[at] ^= 0xFF
    (ck / "k_500_steps.zip").write_bytes(bytes(damaged))
    (ck / ".k_1000_steps.zip.abc123.tmp").write_bytes(whole[:100])
    said: list[str] = []
    assert latest_checkpoint(cfg, warn=said.append) == good
    assert said[0] == (
        f"ignored {ck / '.k_1000_steps.zip.abc123.tmp'}: a temporary file left by an "
        "interrupted write (safe to delete)"
    )
    why = [s.split(": ", 1)[1].split(";")[0] for s in said[1:]]
    assert [s.split(": ")[0] for s in said[1:]] == [
        f"ignored checkpoint {ck / f'k_{n}_steps.zip'}" for n in (900, 800, 700, 600, 500)
    ]
    assert why[0] == "empty (0 bytes)"
    assert why[1].startswith("not a whole ")  # cut off: the zip directory found is torch's
    assert why[2] == "not a whole zip file (cut off, or not a model)"
    assert (
        why[3]
        == "not a whole model zip: no policy.pth, policy.optimizer.pth (cut off, or not a model)"
    )
    assert why[4] == "damaged: member policy.pth fails its CRC check"
    from ambush_env.agents.maskable_ppo import train as train_in_process

    for n, why in ((900, "empty"), (700, "not a whole zip file")):
        bad = ck / f"k_{n}_steps.zip"
        with pytest.raises(DataError, match=f"^{bad}: <zip>: cannot resume from it: {why}"):
            train_in_process(TrainConfig(**{**tiny.model_dump(), "resume": str(bad)}))


def test_kills_at_random_moments_of_a_real_run_never_block_a_resume(tmp_path):
    """No hook: ``ambush train --resume latest`` SIGKILLed three times at random moments
    while it writes a checkpoint every rollout; after each kill every ``*_steps.zip`` is a
    whole model (each resume started), and a last ``--resume latest`` finishes from the
    newest one. (With SB3's in-place save, measured: half of such kills left a cut-off
    checkpoint, which the next ``--resume latest`` then failed on.)"""
    rng = random.Random(23)
    cfg = _cfg(tmp_path)
    ck = cfg.run_dir / "checkpoints"
    cmd = _cmd(tmp_path, 1_000_000, "--resume", "latest", config=FREQUENT)
    for _ in range(3):
        seen = set(ck.glob("*_steps.zip"))
        proc = subprocess.Popen(
            cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        deadline = time.time() + 120
        while not set(ck.glob("*_steps.zip")) - seen and time.time() < deadline:
            assert proc.poll() is None, proc.communicate()[1]  # a resume that fails fails fast
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.6))  # a checkpoint every rollout: some land mid-write
        proc.kill()
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == KILLED, err
        assert set(ck.glob("*_steps.zip")) > seen
        assert all(checkpoint_problem(p) is None for p in ck.glob("*_steps.zip"))
    newest = latest_checkpoint(cfg, warn=lambda _m: None)
    steps = steps_of(newest)
    done = subprocess.run(
        _cmd(tmp_path, steps + 16, "--resume", "latest", config=FREQUENT),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert f"resuming from {newest} ({steps} steps)" in done.stdout
    assert steps_of(cfg.run_dir / "final_model.zip") == steps + 16
