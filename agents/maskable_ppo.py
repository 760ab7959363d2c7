"""MaskablePPO (sb3-contrib) on the Ambush! env: settings, feature extractor, training, agent.

Reads top to bottom (CleanRL habit): :class:`TrainConfig` is every setting, documented, loaded
from ``configs/train/*.yaml``; :class:`HexPlaneExtractor` is the network's front; :func:`train`
builds the vectorised envs, the model and the callbacks (TensorBoard, a tqdm progress bar,
checkpoints, episode VP/win logging) and trains, resuming from a checkpoint when asked;
:class:`PPOAgent` plays a saved model in the benchmark.

Training seeds stay below 10 000: evaluation seeds (10 000-10 399) are held apart.

Baseline recipe (``configs/train/baseline.yaml``, issue 14; every choice ⚙):

* **Observation** unchanged (``env/spec.py``): the ``board`` planes ``(C, 24, 32)`` uint8, C
  read from the space (planes are still being added), each divided by its declared divisor;
  the slot tables as they come. **Extractor** :class:`HexPlaneExtractor`, small (16/32
  channels, 128 features, a 128-128 MLP per head): on two shared cores the env, not the
  network, should set the pace.
* **Reward** ``progress`` (``env/rewards.yaml``): the default (result at the end, 0.05 x VP
  gained) plus potential-based shaping ``γΦ(s') − Φ(s)``, ``Φ`` = −0.03 × the squad's mean
  remaining route in hexes (to the objective, then to an exit; 0 once the game is over).
  Why: with the default reward alone the smoke run learned to wait (0 VP, every episode to
  the time limit): the first VP lie ~11 hexes × 8 soldiers of moves away, while every early
  contact costs VP; the shaping pays each hex toward the farm at once. Potential-based, so
  the optimal policies are those of the unshaped reward (Ng, Harada & Russell 1999), and the
  benchmark scores VP anyway. Its γ must equal the config's (:func:`train` refuses else).
* **Discount** γ = 0.995 (a ~200-decision horizon, some 25 pulses of eight soldiers; an episode
  is ~900 decisions), GAE λ = 0.95.
* **Entropy** 0.01: about twenty legal orders a step; enough to keep moving and firing
  explored early without drowning the shaping.
* **Batch** 8 envs × 256 steps = 2 048 samples an update (8 seeds in every batch), minibatch
  256, 4 epochs, lr 3e-4, clip 0.2.
* **Budget** 500 000 env steps (the issue's cap), checkpoints every 50 000, trained in chunks
  (``ambush train --config baseline --resume latest``); measured throughput and the run's
  status are in docs/TRAINING.md "The baseline".

Needs the ``train`` extra (stable-baselines3, sb3-contrib, torch, tensorboard).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ambush_env.core.model.errors import DataError

EVAL_SEED_START = 10_000  # evaluation seeds start here; training seeds stay below


class TrainConfig(BaseModel):
    """Every setting of a training run (a ``configs/train/*.yaml`` file).

    Attributes:
        run_name: folder under ``log_dir`` for this run (TensorBoard, checkpoints, model).
        log_dir: root folder of runs.
        mission, opponent, rules, reward: the env (see :class:`AmbushEnv`).
        missions, mission_weights, opponents: instead of ``mission`` and
            ``opponent``, a mixture (:class:`ambush_env.env.mixture.MissionMixEnv`): every
            episode draws a mission entry (a shipped id or ``procedural``: a generated mission
            of the train seeds) by ``mission_weights`` (default equal) and a deck of
            ``opponents`` (default ``[opponent]``).
        objective_features: add the ``objective`` key to the observation, the objective's
            kind, terms and whether it is taken (:func:`ambush_env.env.mixture.objective_features`;
            the env is then a :class:`~ambush_env.env.mixture.MissionMixEnv`, of one mission
            when ``missions`` is not given).
        total_timesteps: env steps to train (all envs together).
        n_envs: parallel envs; ``vec_env``: ``dummy`` (one process) or ``subproc``.
        seed: training seed; env ``i`` is reset first with ``seed + i`` (must stay below 10 000).
        learning_rate, n_steps, batch_size, n_epochs, gamma, gae_lambda, clip_range,
        ent_coef, vf_coef, max_grad_norm: PPO hyper-parameters (n_steps per env).
        features_dim: width of the extractor's output; ``cnn_channels``: conv widths;
        ``net_arch``: policy/value MLP widths after the extractor; ``local_radius``: R > 0
            adds the extractor's local view, a (2R + 1)² window of the board around the acting
            hex (0: none, as every model before issue 26).
        checkpoint_freq: save a checkpoint every this many env steps (0: never).
        resume: a checkpoint ``.zip`` to continue from, ``"latest"`` (the newest checkpoint of
            this run) or null.
        force: start afresh in a run folder that holds an earlier run (its checkpoints, final
            model and TensorBoard logs are deleted first); without it (or ``resume``) such a
            folder is refused.
        device: torch device (``cpu``).
        torch_threads: torch intra-op threads. 1 by default: the network is small, and on a
            busy or two-core machine more threads mostly spin (measured here: a batch-2 forward
            pass took 0.4 ms with one thread and 78 ms with two on a loaded two-core box).
        progress_bar: show a tqdm bar.
        bc_steps: the warm start (:func:`behaviour_clone`): before PPO's first step the policy
            imitates the ``heuristic`` agent over this many of its env steps (0: none), played
            on the training envs from seeds ``seed + n_envs + i``; these steps come on top of
            ``total_timesteps`` (PPO's). ``bc_chunk``: steps gathered before each update;
            ``bc_epochs``: passes over each chunk; ``bc_batch_size``, ``bc_learning_rate``:
            its minibatches and Adam's step; ``bc_value_coef``: weight of the value head's
            regression onto the heuristic's discounted returns (``gamma``, the run's reward).
            ``bc_learner``: DAgger (Ross et al. 2011): the share of steps the learner's own
            sampled orders play, ramped up from 0 over the warm start's first half; every
            step is still labelled with the heuristic's order in that state (0: plain BC).
    """

    model_config = ConfigDict(extra="forbid")

    run_name: str = "ppo"
    log_dir: str = "runs"
    mission: str | None = None
    opponent: str = "regular"
    missions: list[str] | None = None
    mission_weights: list[float] | None = None
    opponents: list[str] | None = None
    objective_features: bool = False
    rules: str = "standard"
    reward: str = "default"
    total_timesteps: int = Field(20_000, ge=1)
    n_envs: int = Field(4, ge=1)
    vec_env: Literal["dummy", "subproc"] = "dummy"
    seed: int = Field(0, ge=0)
    learning_rate: float = 3e-4
    n_steps: int = Field(128, ge=2)
    batch_size: int = Field(128, ge=2)
    n_epochs: int = Field(4, ge=1)
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    features_dim: int = 256
    cnn_channels: tuple[int, int] = (32, 64)
    net_arch: list[int] = [128, 128]
    local_radius: int = Field(0, ge=0, le=8)
    checkpoint_freq: int = Field(10_000, ge=0)
    resume: str | None = None
    force: bool = False
    device: str = "cpu"
    torch_threads: int = Field(1, ge=1)
    progress_bar: bool = True
    bc_steps: int = Field(0, ge=0)
    bc_chunk: int = Field(4096, ge=64)
    bc_epochs: int = Field(2, ge=1)
    bc_batch_size: int = Field(256, ge=2)
    bc_learning_rate: float = 3e-4
    bc_value_coef: float = 0.5
    bc_learner: float = Field(0.0, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _seeds_apart(self) -> TrainConfig:
        top = self.seed + self.n_envs * (2 if self.bc_steps else 1)
        if top > EVAL_SEED_START:
            raise ValueError(
                f"training seeds {self.seed}..{top - 1} reach the evaluation "
                f"seeds (>= {EVAL_SEED_START})"
            )
        if self.missions is not None:
            if self.mission is not None:
                raise ValueError("give mission (one) or missions (a mixture), not both")
            if not self.missions:
                raise ValueError("missions: a mixture needs at least one mission")
            if self.mission_weights is not None and len(self.mission_weights) != len(self.missions):
                raise ValueError(
                    f"mission_weights: one per mission ({len(self.missions)}), "
                    f"got {len(self.mission_weights)}"
                )
        elif self.mission_weights is not None or self.opponents is not None:
            raise ValueError("mission_weights and opponents belong to a mixture: give missions too")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", self.run_name):
            raise ValueError(f"run_name {self.run_name!r} must be letters, digits, '_', '.', '-'")
        return self

    @property
    def run_dir(self) -> Path:
        return Path(self.log_dir) / self.run_name


def load_train_config(path: str | Path, **overrides: Any) -> TrainConfig:
    """Read a training config (a path, or the name of a shipped ``configs/train/NAME.yaml``);
    ``overrides`` (non-None) replace its keys.

    Raises:
        DataError: unreadable file or a bad field (names the file and the field).
    """
    from ambush_env.core.world.data import config_dir, read_yaml

    p = Path(path)
    if not p.exists() and p.suffix == "" and (config_dir("train") / f"{p.name}.yaml").exists():
        path = config_dir("train") / f"{p.name}.yaml"
    raw = read_yaml(path) or {}
    if not isinstance(raw, dict):
        raise DataError(path, "<root>", "a training config is a mapping of settings")
    raw.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return TrainConfig.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError(
            path, ".".join(str(x) for x in err["loc"]) or "<root>", err["msg"]
        ) from None


# -- the network -----------------------------------------------------------------------------
def input_divisor(space) -> np.ndarray | None:
    """``float32`` divisors that turn a stored integer ``Box`` into its values, or None for a
    float ``Box`` (already values).

    ``ambush_env/env/spec.py`` declares every integer plane so that its value is
    ``stored / div`` and its upper bound is ``div``: the divisor is the space's ``high``. It is
    returned in the smallest shape that broadcasts (the board's bounds are constant along the
    rows and columns of a plane: ``(C, 1, 1)``).

    Raises:
        ValueError: an integer ``Box`` whose bounds are not ``[0, div]`` with ``div > 0``.
    """
    if not np.issubdtype(space.dtype, np.integer):
        return None
    high = np.asarray(space.high, dtype=np.float32)
    if np.any(np.asarray(space.low) != 0) or np.any(high <= 0):
        raise ValueError(
            f"an integer observation must have bounds [0, div] with div > 0, got {space}"
        )
    for ax in range(high.ndim):
        first = np.take(high, [0], axis=ax)
        if np.all(high == first):
            high = first
    return high


def _extractor_class():
    import torch as th
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class HexPlaneExtractor(BaseFeaturesExtractor):
        """A small CNN over the hex planes plus an MLP over the slot tables.

        Inputs are first turned into their values (:meth:`scale`): the ``uint8`` board planes
        are divided by their declared divisors (the space's ``high``, :func:`input_divisor`),
        so every plane reaches the network in ``[0, 1]``, as ``spec.scaled`` gives it. SB3 hands the board over as plain floats:
        its bounds are not ``[0, 255]``, so it is not an "image" (no ``/ 255``, no
        transposition), and :func:`train` also sets ``normalize_images=False``.

        ``board`` (C, 24, 32) → 1×1 conv (mixes the per-hex planes) → two 3×3 stride-2 convs
        (a 3×3 window covers a hex's six neighbours in both column parities) → flatten;
        ``units``, ``contacts``, ``vehicles``, ``globals`` → flatten → linear; both → linear to
        ``features_dim``.
        """

        def __init__(
            self,
            observation_space,
            features_dim: int = 256,
            cnn_channels=(32, 64),
            local_radius: int = 0,
        ) -> None:
            super().__init__(observation_space, features_dim)
            c, h, w = observation_space["board"].shape
            c0, c1 = cnn_channels
            self.cnn = nn.Sequential(
                nn.Conv2d(c, c0, 1),
                nn.ReLU(),
                nn.Conv2d(c0, c0, 3, stride=2, padding=1),
                nn.ReLU(),
                nn.Conv2d(c0, c1, 3, stride=2, padding=1),
                nn.ReLU(),
                nn.Flatten(),
            )
            with th.no_grad():
                n_cnn = self.cnn(th.zeros(1, c, h, w)).shape[1]
            self.keys = [k for k in observation_space.spaces if k != "board"]
            n_rest = int(sum(np.prod(observation_space[k].shape) for k in self.keys))
            self.tables = nn.Sequential(nn.Linear(n_rest, 128), nn.ReLU())
            self.local_radius = int(local_radius)
            n_local = 0
            if self.local_radius > 0:
                from ambush_env.env.spec import BOARD_PLANES

                self.acting_plane = BOARD_PLANES.index("acting_hex")
                k = 2 * self.local_radius + 1
                self.local = nn.Sequential(  # + 1 plane: the acting hex's column parity
                    nn.Conv2d(c + 1, c0, 1),
                    nn.ReLU(),
                    nn.Conv2d(c0, c1, 3, padding=1),
                    nn.ReLU(),
                    nn.Flatten(),
                )
                n_local = 128
                self.local_head = nn.Sequential(nn.Linear(c1 * k * k, n_local), nn.ReLU())
            self.head = nn.Sequential(nn.Linear(n_cnn + 128 + n_local, features_dim), nn.ReLU())
            self.scaled_keys = []
            for k, space in observation_space.spaces.items():
                div = input_divisor(space)
                if div is not None:
                    self.register_buffer(f"div_{k}", th.as_tensor(div))
                    self.scaled_keys.append(k)

        def scale(self, obs: dict) -> dict:
            """The values the network reads (batched): each integer key over its divisors."""
            out = dict(obs)
            for k in self.scaled_keys:
                out[k] = obs[k].float() / getattr(self, f"div_{k}")
            return out

        def crop(self, board: th.Tensor) -> th.Tensor:
            """The local view: ``(B, C + 1, 2R + 1, 2R + 1)``, the board's planes in a window
            of ``R = local_radius`` rows and columns around the acting hex (the
            ``acting_hex`` plane's hex; the map's corner when no unit acts), zero beyond
            the board, plus a plane of the acting column's parity (offset hex columns: a
            hex's neighbours depend on it)."""
            bsz, _c, _h, w = board.shape
            r = self.local_radius
            flat = board[:, self.acting_plane].flatten(1).argmax(dim=1)
            row, col = flat // w, flat % w
            padded = nn.functional.pad(board, (r, r, r, r))
            span = th.arange(2 * r + 1, device=board.device)
            rows = (row[:, None] + span)[:, :, None]  # padded coordinates: +r, -r
            cols = (col[:, None] + span)[:, None, :]
            b = th.arange(bsz, device=board.device)[:, None, None]
            win = padded.permute(0, 2, 3, 1)[b, rows, cols]  # (B, K, K, C)
            parity = (col % 2).to(board.dtype)[:, None, None, None].expand(-1, 1, *win.shape[1:3])
            return th.cat([win.permute(0, 3, 1, 2), parity], dim=1)

        def forward(self, obs: dict) -> th.Tensor:
            obs = self.scale(obs)
            b = self.cnn(obs["board"])
            rest = th.cat([obs[k].flatten(1) for k in self.keys], dim=1)
            parts = [b, self.tables(rest)]
            if self.local_radius > 0:
                parts.append(self.local_head(self.local(self.crop(obs["board"]))))
            return self.head(th.cat(parts, dim=1))

    return HexPlaneExtractor


def __getattr__(name: str):  # HexPlaneExtractor without importing torch at module import
    if name == "HexPlaneExtractor":
        return _extractor_class()
    raise AttributeError(name)


# -- callbacks -------------------------------------------------------------------------------
def _callbacks(cfg: TrainConfig, total: int, start: int):
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback
    from tqdm import tqdm

    class TqdmCallback(BaseCallback):
        """A tqdm bar over env steps (no ``rich`` needed)."""

        def _on_training_start(self) -> None:
            self.bar = tqdm(
                total=total,
                initial=start,
                desc=f"train {cfg.run_name}",
                unit="step",
                disable=not cfg.progress_bar,
            )

        def _on_step(self) -> bool:
            self.bar.update(self.training_env.num_envs)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    class EpisodeCallback(BaseCallback):
        """Logs the mission's VP, wins and length of finished episodes to TensorBoard."""

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "result" in info:
                    self.logger.record_mean("ambush/vp", info["vp"])
                    self.logger.record_mean(
                        "ambush/win", float(info["result"] in ("win", "decisive_win"))
                    )
            return True

    class StopCallback(BaseCallback):
        """Ends ``learn`` at the next step once a SIGINT or SIGTERM has come (:func:`train`)."""

        def _on_step(self) -> bool:
            return not _STOP

    class AtomicCheckpointCallback(CheckpointCallback):
        """SB3's checkpoints, each written whole or not at all (:func:`save_model`): a kill
        while one is written leaves no truncated ``*_steps.zip``. (PPO has no replay buffer
        and the run no VecNormalize, SB3's other checkpoint files.)"""

        def _on_step(self) -> bool:
            if self.n_calls % self.save_freq == 0:
                save_model(self.model, self._checkpoint_path(extension="zip"))
            return True

    cbs = [TqdmCallback(), EpisodeCallback(), StopCallback()]
    if cfg.checkpoint_freq > 0:
        cbs.append(
            AtomicCheckpointCallback(
                save_freq=max(1, cfg.checkpoint_freq // cfg.n_envs),
                save_path=str(cfg.run_dir / "checkpoints"),
                name_prefix=cfg.run_name,
            )
        )
    return cbs


_STOP: list[int] = []  # the signal that asked training to stop (empty: none)


class RunExistsError(FileExistsError):
    """A run folder holds an earlier run and neither ``--resume`` nor ``--force`` was given."""


class TrainingInterrupted(KeyboardInterrupt):
    """Training stopped on SIGINT or SIGTERM; ``checkpoint``: where the model was saved."""

    def __init__(self, checkpoint: Path, signum: int) -> None:
        super().__init__(
            f"training interrupted (signal {signum}): checkpoint saved to "
            f"{checkpoint}; continue with --resume latest"
        )
        self.checkpoint = checkpoint
        self.signum = signum


# -- training --------------------------------------------------------------------------------
def make_vec_env(cfg: TrainConfig):
    """``n_envs`` monitored envs (DummyVecEnv or SubprocVecEnv), seeded ``seed + i``."""
    from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    env_cls, kwargs = env_spec(cfg)
    cls = SubprocVecEnv if cfg.vec_env == "subproc" and cfg.n_envs > 1 else DummyVecEnv
    return sb3_make_vec_env(
        env_cls, n_envs=cfg.n_envs, seed=cfg.seed, env_kwargs=kwargs, vec_env_cls=cls
    )


def env_spec(cfg: TrainConfig) -> tuple[type, dict[str, Any]]:
    """The class and arguments of one training env: :class:`AmbushEnv` on ``mission``, or a
    :class:`~ambush_env.env.mixture.MissionMixEnv` when ``missions`` or ``objective_features``
    is given."""
    if cfg.missions is not None or cfg.objective_features:
        from ambush_env.env.mixture import MissionMixEnv

        return MissionMixEnv, dict(
            missions=list(cfg.missions or [cfg.mission or _reference_mission()]),
            weights=cfg.mission_weights,
            opponents=list(cfg.opponents or [cfg.opponent]),
            rules=cfg.rules,
            reward=cfg.reward,
            objective_features=cfg.objective_features,
        )
    from ambush_env.env.ambush_env import AmbushEnv

    return AmbushEnv, dict(
        mission=cfg.mission, opponent=cfg.opponent, rules=cfg.rules, reward=cfg.reward
    )


def _reference_mission() -> str:
    from ambush_env import list_missions

    return list_missions()[0]  # the reference mission comes first (rules.yaml)


def behaviour_clone(model: Any, cfg: TrainConfig, log: Any = print) -> dict[str, Any]:
    """Warm start: fit ``model``'s policy to the ``heuristic`` agent's orders, and its value
    head to the heuristic's discounted returns, over ``cfg.bc_steps`` env steps of its play.

    The heuristic plays ``n_envs`` training envs (:func:`env_spec`; env ``i`` first reset with
    seed ``seed + n_envs + i``, then going on with its generator: below the evaluation seeds).
    Finished episodes are streamed into chunks of ``bc_chunk`` steps; each chunk is trained on
    for ``bc_epochs`` passes in shuffled minibatches of ``bc_batch_size`` (loss: the masked
    policy's negative log-likelihood of the heuristic's order plus ``bc_value_coef`` × the
    squared error of the value against the return ``Σ γ^k r``), then dropped, so memory stays at
    one chunk (an observation is ~55 KB). The optimizer's state is reset afterwards: PPO starts
    with a fresh Adam at its own learning rate.

    With ``bc_learner`` > 0 this is DAgger (Ross, Gordon & Bagnell 2011): some steps are
    played by the policy's own sampled order, so the states it learns from include those its
    own mistakes lead to, while every label stays the heuristic's order in that state (the
    heuristic scores any state afresh: its memory is caches only).

    Returns:
        A summary (``steps``, ``episodes``, the played games' ``mean_vp`` and ``win_rate``
        (the heuristic's; under DAgger the mixture's), the
        last chunk's ``accuracy`` (the policy's most probable legal order is the heuristic's)
        and ``nll``, ``seconds``), also written to ``<run>/bc.json``.
    """
    import json
    import time

    import torch as th
    from torch.nn import functional as F

    from ambush_env.agents.heuristic import HeuristicAgent
    from ambush_env.core.world.data import write_text_atomic

    t0 = time.perf_counter()
    env_cls, kwargs = env_spec(cfg)
    envs = [env_cls(**kwargs) for _ in range(cfg.n_envs)]
    agents = [HeuristicAgent(seed=cfg.seed + cfg.n_envs + i) for i in range(cfg.n_envs)]
    policy = model.policy
    policy.set_training_mode(True)
    opt = policy.optimizer_class(
        policy.parameters(), lr=cfg.bc_learning_rate, **policy.optimizer_kwargs
    )

    def player(env):  # what the heuristic reads: the AmbushEnv playing now
        return getattr(env, "active", env)

    state = []
    for i, env in enumerate(envs):
        obs, info = env.reset(seed=cfg.seed + cfg.n_envs + i)
        agents[i].reset(player(env), cfg.seed + cfg.n_envs + i)
        state.append([obs, info, []])
    chunk: list[tuple[dict, np.ndarray, int, float]] = []
    steps = episodes = wins = 0
    vps: list[int] = []
    last = {"accuracy": float("nan"), "nll": float("nan")}

    def fit(samples) -> dict[str, float]:
        n = len(samples)
        keys = samples[0][0].keys()
        obs_all = {k: np.stack([s[0][k] for s in samples]) for k in keys}
        masks = np.stack([s[1] for s in samples])
        acts = np.asarray([s[2] for s in samples], dtype=np.int64)
        rets = np.asarray([s[3] for s in samples], dtype=np.float32)
        rng = np.random.default_rng(cfg.seed + steps)
        hit = nll = 0.0
        for _ in range(cfg.bc_epochs):
            order = rng.permutation(n)
            hit = nll = 0.0
            for lo in range(0, n, cfg.bc_batch_size):
                idx = order[lo : lo + cfg.bc_batch_size]
                ob = {k: th.as_tensor(v[idx]) for k, v in obs_all.items()}
                act = th.as_tensor(acts[idx])
                m = masks[idx]
                values, logp, _ = policy.evaluate_actions(ob, act, action_masks=m)
                loss = -logp.mean() + cfg.bc_value_coef * F.mse_loss(
                    values.flatten(), th.as_tensor(rets[idx])
                )
                opt.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
                opt.step()
                with th.no_grad():
                    dist = policy.get_distribution(ob, action_masks=m)
                    best = dist.distribution.probs.argmax(dim=1)
                hit += float((best == act).sum())
                nll += float(-logp.detach().sum())
        return {"accuracy": hit / n, "nll": nll / n}

    mix_rng = np.random.default_rng(cfg.seed + 1)
    while steps < cfg.bc_steps:
        # DAgger's mixture: the learner plays a step with probability p, ramped from 0 to
        # bc_learner over the first half of the warm start; the label is always the heuristic's
        p = cfg.bc_learner * min(1.0, 2.0 * steps / cfg.bc_steps)
        own = mix_rng.random(len(envs)) < p
        if own.any():
            policy.set_training_mode(False)
            keys = state[0][0].keys()
            batch = {k: np.stack([st[0][k] for st in state]) for k in keys}
            masks = np.stack([env.action_masks() for env in envs])
            with th.no_grad():
                mine, _ = policy.predict(batch, action_masks=masks, deterministic=False)
            policy.set_training_mode(True)
        for i, env in enumerate(envs):
            obs, info, episode = state[i]
            mask = env.action_masks()
            a = int(agents[i].act(obs, info, player(env)))
            played = int(mine[i]) if own[i] else a
            nobs, r, term, trunc, ninfo = env.step(played)
            episode.append((obs, mask, a, float(r)))
            steps += 1
            if term or trunc:
                g = 0.0
                for j in range(len(episode) - 1, -1, -1):
                    o, mk, act, rew = episode[j]
                    g = rew + cfg.gamma * g
                    episode[j] = (o, mk, act, g)
                chunk += episode
                episodes += 1
                vps.append(int(player(env).game.vp))
                wins += ninfo.get("result") in ("win", "decisive_win")
                nobs, ninfo = env.reset()
                agents[i].reset(player(env), None)
                episode = []
            state[i] = [nobs, ninfo, episode]
        if len(chunk) >= cfg.bc_chunk or (steps >= cfg.bc_steps and chunk):
            last = fit(chunk)
            chunk = []
            log(
                f"behaviour cloning: {steps}/{cfg.bc_steps} steps, {episodes} episodes, "
                f"accuracy {last['accuracy']:.3f}, nll {last['nll']:.3f}"
            )
    for env in envs:
        env.close()
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1.0), **policy.optimizer_kwargs
    )
    policy.set_training_mode(False)
    summary = {
        "steps": steps,
        "episodes": episodes,
        "mean_vp": round(float(np.mean(vps)), 3) if vps else None,
        "win_rate": round(wins / episodes, 3) if episodes else None,
        "accuracy": round(last["accuracy"], 4),
        "nll": round(last["nll"], 4),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    write_text_atomic(
        json.dumps(summary, indent=2) + "\n", cfg.run_dir / "bc.json", what="BC summary"
    )
    return summary


def save_model(model: Any, path: str | Path) -> Path:
    """``model.save`` to ``path`` whole or not at all (:func:`ambush_env.core.world.data.atomic_write`:
    a temporary file in the same folder, fsynced, renamed over ``path``): the one way a
    checkpoint, the final model or an exported model is written.

    Returns:
        ``path``. Raises OSError: the folder cannot be written.
    """
    from ambush_env.core.world.data import atomic_write

    with atomic_write(path, what="model", binary=True) as f:
        model.save(f)  # SB3 writes its zip into an open file and leaves it open
    return Path(path)


#: the members of an SB3 model zip that loading it needs
MODEL_MEMBERS = ("data", "policy.pth", "policy.optimizer.pth")


def checkpoint_problem(path: str | Path) -> str | None:
    """Why the model zip ``path`` cannot be loaded, or None when it looks whole.

    Cheap (nothing is unpickled): the file must be a zip (its central directory read), hold
    :data:`MODEL_MEMBERS`, and every member must match its CRC (``ZipFile.testzip``). A
    0-byte file, a cut-off zip, another file under the name and an unreadable one all fail.
    (A model cut off near its end may still read as a zip: its ``policy.pth``, a torch zip
    stored inside, ends in a zip directory of its own; the members check catches it.)

    Returns:
        None, or the problem in words: ``empty (0 bytes)``, ``not a whole zip file …``,
        ``not a whole model zip: no …``, ``damaged: member … fails its CRC check``,
        ``unreadable (…)``.
    """
    import zipfile
    import zlib

    p = Path(path)
    try:
        if p.stat().st_size == 0:
            return "empty (0 bytes)"
        if not zipfile.is_zipfile(p):
            return "not a whole zip file (cut off, or not a model)"
        with zipfile.ZipFile(p) as z:
            missing = [m for m in MODEL_MEMBERS if m not in z.namelist()]
            if missing:  # a cut-off model can still look like a zip: a member (torch's) is one
                return f"not a whole model zip: no {', '.join(missing)} (cut off, or not a model)"
            bad = z.testzip()
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error, ValueError) as e:
        return f"unreadable ({e})"
    if bad is not None:
        return f"damaged: member {bad} fails its CRC check"
    return None


def _warn(message: str) -> None:
    import sys

    print(f"warning: {message}", file=sys.stderr, flush=True)


def latest_checkpoint(cfg: TrainConfig, warn: Any = _warn) -> Path | None:
    """The newest readable ``checkpoints/<run_name>_<steps>_steps.zip`` of the run (or, from
    older versions, ``ppo_<steps>_steps.zip``), if any.

    A checkpoint that :func:`checkpoint_problem` finds unreadable (0 bytes, cut off, not a
    zip) is skipped and named through ``warn`` (default: a ``warning:`` line on stderr), and
    so is each stray temporary file an interrupted write left (``.<name>.*.tmp``, in
    ``checkpoints/`` or the run folder): the newest good checkpoint is returned.
    ⚙ Nothing is deleted: the files are the user's; a later checkpoint of the same step
    replaces a bad one.
    """
    from ambush_env.core.world.data import stray_temp_files

    run = cfg.run_dir
    for folder in (run, run / "checkpoints"):
        for p in stray_temp_files(folder, "*.zip"):
            warn(f"ignored {p}: a temporary file left by an interrupted write (safe to delete)")
    found: list[tuple[int, Path]] = []
    for p in (run / "checkpoints").glob("*_steps.zip"):
        m = re.search(r"_(\d+)_steps\.zip$", p.name)
        if m:
            found.append((int(m.group(1)), p))
    for _steps, p in sorted(found, reverse=True):
        problem = checkpoint_problem(p)
        if problem is None:
            return p
        warn(f"ignored checkpoint {p}: {problem}; resuming from an older one")
    return None


def new_model(cfg: TrainConfig, env, tensorboard_log: str | None = None):
    """A fresh ``MaskablePPO`` with :class:`HexPlaneExtractor` for ``env`` (a VecEnv)."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MultiInputPolicy",
        env,
        learning_rate=cfg.learning_rate,
        n_steps=cfg.n_steps,
        batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs,
        gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm,
        policy_kwargs=dict(
            features_extractor_class=_extractor_class(),
            features_extractor_kwargs=dict(
                features_dim=cfg.features_dim,
                cnn_channels=tuple(cfg.cnn_channels),
                **({"local_radius": cfg.local_radius} if cfg.local_radius else {}),
            ),
            net_arch=dict(pi=list(cfg.net_arch), vf=list(cfg.net_arch)),
            normalize_images=False,  # the board is no image: the extractor applies its declared scales
        ),
        tensorboard_log=tensorboard_log,
        seed=cfg.seed,
        device=cfg.device,
        verbose=0,
    )


def train(cfg: TrainConfig) -> Path:
    """Train (or resume) MaskablePPO; returns the path of the saved final model ``.zip``.

    Trains whole rollouts (``n_envs × n_steps`` steps) only, as many as fit below
    ``total_timesteps``: the model never trains on more steps than the budget.

    The run folder ``log_dir/run_name`` gets ``tb/`` (TensorBoard), ``checkpoints/``
    (``<run_name>_<steps>_steps.zip``), ``config.yaml`` and ``final_model.zip``.

    Work is never lost: a folder that holds an earlier run is refused unless ``resume`` or
    ``force`` is set; a SIGINT (Ctrl-C) or SIGTERM stops training at the next env step, saves a
    checkpoint and raises :class:`TrainingInterrupted` naming it. Every checkpoint, the final
    model and ``config.yaml`` are written whole or not at all (:func:`save_model`), so a kill
    (SIGKILL, power loss) at any moment leaves the run resumable; ``resume="latest"`` skips
    and names an unreadable checkpoint or a stray temporary file (:func:`latest_checkpoint`).

    Raises:
        FileNotFoundError: ``resume`` names a missing checkpoint.
        DataError: ``resume`` names an unreadable checkpoint (:func:`checkpoint_problem`).
        RunExistsError: the run folder holds an earlier run (neither ``resume`` nor ``force``).
        ValueError: a shaping reward scheme whose ``gamma`` is not the config's.
        TrainingInterrupted: a signal stopped training (the checkpoint is saved).
    """
    import shutil
    import signal

    import torch as th

    from ambush_env.core.world.data import write_text_atomic
    from ambush_env.env.rewards import RewardScheme

    scheme = RewardScheme(cfg.reward)
    if scheme.progress_weight and abs(scheme.gamma - cfg.gamma) > 1e-12:
        raise ValueError(
            f"reward scheme {cfg.reward!r} shapes with gamma {scheme.gamma} but the config "
            f"trains with gamma {cfg.gamma}: potential-based shaping keeps the optimal "
            "policies only when both are equal (env/rewards.yaml)"
        )
    th.set_num_threads(cfg.torch_threads)
    run = cfg.run_dir
    earlier = [p for p in (run / "final_model.zip", run / "checkpoints", run / "tb") if p.exists()]
    if earlier and not cfg.resume:
        if not cfg.force:
            raise RunExistsError(
                f"run folder {run} holds an earlier run ({', '.join(p.name for p in earlier)}): "
                "continue it with --resume latest, or start afresh with --force (deletes it)"
            )
        for p in earlier:
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    run.mkdir(parents=True, exist_ok=True)
    write_text_atomic(
        yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False),
        run / "config.yaml",
        what="training config",
    )
    resume: str | Path | None = cfg.resume
    if resume == "latest":
        resume = latest_checkpoint(cfg)
        if resume is None:
            print(
                f"no readable checkpoint in {run / 'checkpoints'}: training from scratch",
                flush=True,
            )
    if resume:
        if not Path(resume).exists():
            raise FileNotFoundError(f"resume checkpoint {resume} not found")
        problem = checkpoint_problem(resume)
        if problem is not None:
            raise DataError(
                resume,
                "<zip>",
                f"cannot resume from it: {problem} (--resume latest skips unreadable checkpoints)",
            )
    env = make_vec_env(cfg)
    if resume:
        model = load_model(resume, env=env, device=cfg.device, tensorboard_log=str(run / "tb"))
        print(f"resuming from {resume} ({int(model.num_timesteps)} steps)", flush=True)
    else:
        model = new_model(cfg, env, tensorboard_log=str(run / "tb"))
        if cfg.bc_steps:  # the warm start, then a checkpoint at PPO step 0 (resumable)
            behaviour_clone(model, cfg)
            save_model(model, run / "checkpoints" / f"{cfg.run_name}_0_steps.zip")
    start = int(model.num_timesteps)
    # whole rollouts only, so a run never passes total_timesteps (SB3 finishes the rollout it
    # is in: a 500 000-step budget in 2 048-step rollouts ran to 501 904 before this)
    rollout = cfg.n_envs * cfg.n_steps
    remaining = max(0, cfg.total_timesteps - start) // rollout * rollout
    _STOP.clear()

    def _ask_stop(signum: int, frame: Any) -> None:
        _STOP.append(signum)

    old = {sig: signal.signal(sig, _ask_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=_callbacks(cfg, cfg.total_timesteps, start),
                reset_num_timesteps=not resume,
                tb_log_name="MaskablePPO",
            )
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        env.close()
    if _STOP:
        ck = run / "checkpoints" / f"{cfg.run_name}_{int(model.num_timesteps)}_steps.zip"
        save_model(model, ck)
        raise TrainingInterrupted(ck, _STOP[0])
    return save_model(model, run / "final_model.zip")


def load_model(path: str | Path, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path, **kwargs)``, also for models saved before the agents were
    installed as ``ambush_env.agents``.

    ⚙ A model's zip pickles the extractor by its module name, and models saved until
    0.1.0 name ``agents.maskable_ppo`` (the shipped ``models/maskable_ppo_farm_assault.zip``
    among them). While loading, that old name points at this module; the alias is removed
    afterwards, so ``import agents`` stays free for the user's own code.
    """
    import sys

    from sb3_contrib import MaskablePPO

    me = sys.modules[__name__]
    added = [name for name in ("agents", "agents.maskable_ppo") if name not in sys.modules]
    for name in added:
        sys.modules[name] = me
    try:
        return MaskablePPO.load(path, **kwargs)
    finally:
        for name in added:
            del sys.modules[name]


def export_weights(src: str | Path, dst: str | Path) -> Path:
    """Write a copy of the model ``src`` without its optimizer state, for shipping
    (``models/``; issue 14: weights only, under 10 MB).

    The copy is a MaskablePPO ``.zip`` that :meth:`PPOAgent.load` and ``ambush bench`` read as
    any other: its ``policy.optimizer.pth`` holds a fresh Adam (the parameter groups, no
    moments; SB3 refuses a zip without one), so it plays exactly as ``src`` but cannot resume
    training as ``src`` would (resume from the run's checkpoints instead).

    Returns:
        ``dst``. Raises FileNotFoundError: ``src`` is missing.
    """
    if not Path(src).exists():
        raise FileNotFoundError(f"model {src} not found")
    model = load_model(src, device="cpu")
    pol = model.policy
    pol.optimizer = pol.optimizer_class(
        pol.parameters(), lr=model.lr_schedule(1.0), **pol.optimizer_kwargs
    )
    return save_model(model, dst)


# -- the agent -------------------------------------------------------------------------------
class PPOAgent:
    """Plays a saved MaskablePPO model, greedily over the legal orders.

    Args:
        model: a loaded ``MaskablePPO``; ``name``: label in results.
        deterministic: take the most probable legal order (else sample).
    """

    def __init__(self, model: Any, name: str = "ppo", deterministic: bool = True) -> None:
        self.model = model
        self.name = name
        self.deterministic = deterministic
        #: the model reads the ``objective`` key (a mixture's, env/mixture.py): :meth:`act`
        #: adds it from the env's mission when the env does not give it
        self.objective = "objective" in getattr(model.observation_space, "spaces", {})

    @classmethod
    def load(
        cls,
        path: str | Path,
        deterministic: bool = True,
        device: str = "cpu",
        torch_threads: int | None = 1,
    ) -> PPOAgent:
        """Load a saved model; ``torch_threads`` (default 1, see :class:`TrainConfig`) sets
        torch's intra-op threads for this process (None leaves them alone)."""
        import torch as th

        if torch_threads is not None:
            th.set_num_threads(torch_threads)
        p = Path(path)
        return cls(load_model(p, device=device), name=p.stem, deterministic=deterministic)

    def reset(self, env, seed: int | None = None) -> None:
        if seed is not None and not self.deterministic:
            self.model.set_random_seed(seed)

    def act(self, obs: dict, info: dict, env) -> int:
        if self.objective and "objective" not in obs:  # a generalist's extra key (env/mixture.py)
            from ambush_env.env.mixture import objective_features

            obs = {**obs, "objective": objective_features(env.unwrapped.game)}
        action, _ = self.model.predict(
            obs, action_masks=info["action_mask"], deterministic=self.deterministic
        )
        return int(action)


if (
    __name__ == "__main__"
):  # python -m ambush_env.agents.maskable_ppo export SRC.zip models/NAME.zip
    import sys

    if len(sys.argv) != 4 or sys.argv[1] != "export":
        sys.exit("usage: python -m ambush_env.agents.maskable_ppo export SRC.zip DST.zip")
    out = export_weights(sys.argv[2], sys.argv[3])
    print(f"wrote {out} ({out.stat().st_size} bytes, no optimizer state)")
