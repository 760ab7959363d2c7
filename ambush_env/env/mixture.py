"""Training on many missions at once: :class:`MissionMixEnv` and the objective features.

A generalist policy (issue 26) trains on every shipped mission and the procedural missions'
train seeds; :class:`MissionMixEnv` is one Gymnasium env that draws a (mission, deck) at every
reset and plays it in an :class:`AmbushEnv` built for it. The spaces are :class:`AmbushEnv`'s
(fixed by declared maxima, ``env/spec.py``), plus, with ``objective_features=True``, an
``objective`` key (:func:`objective_features`): what the briefing says the objective is, which
the board planes show only as hexes, and whether it is taken yet, which the ``-v4``
observation does not show at all (a player always knows it).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ambush_env.core.model.errors import ConfigError

#: the mission entry of a mixture that plays ``ambush/Procedural`` on the train seeds
PROCEDURAL = "procedural"
#: the objective kinds the one-hot spans (every kind a mission file may give, RULES.md §15;
#: ``core.play.procedural.OBJECTIVE_KINDS``)
OBJECTIVE_KINDS = ("take", "exit", "intel", "hold", "capture", "demolish")
#: the ``objective`` vector: a one-hot of the objective's kind, then ``march_off``, the charges
#: a demolition needs / 3, the satchel's reach in hexes / 2, the radius that must be clear of
#: Germans / 3, whether a garrison card holds it, whether the squad starts with a vehicle, and
#: ``taken`` (the game's ``objective_taken`` flag: its VP are scored); then the way to the
#: goal from the acting soldier's hex (the shaping's goal, ``env/rewards.py``: the objective
#: until it is taken, then the exits; hex distance, walls and terrain not counted): ``goal_exit``
#: (the goal is the exits), ``on_goal``, ``goal_distance`` (hexes / the map's longest route),
#: and per direction of the move orders' ``closer_<d>`` / ``farther_<d>`` (that neighbour is
#: nearer / farther from the goal; all 0 when no soldier on the map acts); float32 in [0, 1]
OBJECTIVE_NAMES = (
    *(f"objective_{k}" for k in OBJECTIVE_KINDS),
    "march_off",
    "charges",
    "reach",
    "clear_radius",
    "garrison",
    "us_vehicles",
    "taken",
    "goal_exit",
    "on_goal",
    "goal_distance",
    *(f"closer_{d}" for d in range(6)),
    *(f"farther_{d}" for d in range(6)),
)
OBJECTIVE_SIZE = len(OBJECTIVE_NAMES)


def objective_features(game: Any) -> np.ndarray:
    """The ``objective`` observation of a game: ``(OBJECTIVE_SIZE,) float32`` in ``[0, 1]``,
    laid out as :data:`OBJECTIVE_NAMES` (RULES.md §15: the objective kinds and their terms).

    Args:
        game: a :class:`ambush_env.core.Game` (``env.unwrapped.game``).

    Raises:
        ValueError: an objective kind outside :data:`OBJECTIVE_KINDS`.
    """
    from ambush_env.core.model.types import OBJECTIVE_TAKEN

    mission = game.mission
    ob = mission.objective
    out = np.zeros(OBJECTIVE_SIZE, dtype=np.float32)
    if ob.kind not in OBJECTIVE_KINDS:
        raise ValueError(f"objective kind {ob.kind!r} is not one of {OBJECTIVE_KINDS}")
    out[OBJECTIVE_KINDS.index(ob.kind)] = 1.0
    k = len(OBJECTIVE_KINDS)
    out[k] = float(bool(ob.march_off))
    out[k + 1] = min(1.0, ob.charges / 3.0)
    out[k + 2] = min(1.0, ob.reach / 2.0)
    out[k + 3] = min(1.0, ob.clear_radius / 3.0)
    out[k + 4] = float(ob.garrison is not None)
    out[k + 5] = float(bool(mission.us_vehicles))
    taken = OBJECTIVE_TAKEN in game.state.flags
    out[k + 6] = float(taken)
    _way(game, taken, out[k + 7 :])
    return out


def _way(game: Any, taken: bool, out: np.ndarray) -> None:
    """Fill ``goal_exit`` .. ``farther_5`` (:data:`OBJECTIVE_NAMES`) into ``out``."""
    from ambush_env.env.rewards import _route_tables

    d_obj, d_exit, _to_exit, worst = _route_tables(game)
    to_exit = taken or not game.objective_hexes
    d = d_exit if to_exit else d_obj
    out[0] = float(to_exit)
    u = game.acting_unit()
    h = -1 if u is None else int(u.hex)
    if h < 0:
        return
    out[1] = float(d[h] == 0)
    out[2] = min(1.0, d[h] / max(1, worst))
    for k, j in enumerate(game.board.neighbors[h][:6]):
        if j >= 0:
            out[3 + k] = float(d[j] < d[h])
            out[9 + k] = float(d[j] > d[h])


def objective_space() -> spaces.Box:
    """The ``objective`` key's space: ``Box(0, 1, (OBJECTIVE_SIZE,), float32)``."""
    return spaces.Box(0.0, 1.0, (OBJECTIVE_SIZE,), dtype=np.float32)


class MissionMixEnv(gym.Env):
    """Every reset plays a (mission, German deck) drawn from a mixture; otherwise an
    :class:`AmbushEnv`.

    Args:
        missions: mission entries, each a shipped id or ``"procedural"`` (``ambush/Procedural``
            with ``mission_seeds="train"``: each reset generates a train mission).
        weights: the chance of each entry (normalised; default: equal).
        opponents: the German decks, drawn uniformly at each reset.
        rules, reward: as :class:`AmbushEnv`'s.
        objective_features: add the ``objective`` key (:func:`objective_features`).
        seed_limit: ⚙ each episode's reset seed (dice) is drawn in ``[0, seed_limit)``, below
            the evaluation seeds (10 000-10 399) by default.

    ``reset(seed=s)`` seeds the mixture's own generator (the draws and the episode seeds);
    ``reset()`` goes on with it. ``info["mission"]`` and ``info["opponent"]`` name the draw.
    ``active`` is the :class:`AmbushEnv` playing now (what a scripted agent reads:
    ``active.game``). One env per (mission, deck) is built on its first draw and reused.

    Raises:
        ConfigError: no missions or decks, a weight list of the wrong length, a negative or
            all-zero weight; ScenarioError: an unknown mission id.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        missions: list[str] | tuple[str, ...],
        weights: list[float] | tuple[float, ...] | None = None,
        opponents: list[str] | tuple[str, ...] = ("regular",),
        rules: str = "standard",
        reward: str = "default",
        objective_features: bool = False,
        seed_limit: int = 10_000,
    ) -> None:
        from ambush_env.core.model.errors import ScenarioError
        from ambush_env.core.world.missions import list_missions
        from ambush_env.env.ambush_env import AmbushEnv

        self.missions = tuple(missions)
        self.opponents = tuple(opponents)
        if not self.missions:
            raise ConfigError("missions", "a mixture needs at least one mission")
        if not self.opponents:
            raise ConfigError("opponents", "a mixture needs at least one German deck")
        known = list_missions()
        bad = [m for m in self.missions if m != PROCEDURAL and m not in known]
        if bad:
            raise ScenarioError(
                f"unknown missions {bad}; known: {', '.join(known)} (or {PROCEDURAL})"
            )
        w = np.ones(len(self.missions)) if weights is None else np.asarray(weights, float)
        if w.shape != (len(self.missions),) or np.any(w < 0) or w.sum() <= 0:
            raise ConfigError(
                "mission_weights",
                f"one weight >= 0 per mission ({len(self.missions)}), not all 0; got {weights}",
            )
        self.weights = w / w.sum()
        self.rules, self.reward, self.objective = rules, reward, bool(objective_features)
        self.seed_limit = int(seed_limit)
        self._envs: dict[tuple[str, str], AmbushEnv] = {}
        self.active: AmbushEnv = self._env(self.missions[0], self.opponents[0])
        self.action_space = self.active.action_space
        obs_space = dict(self.active.observation_space.spaces)
        if self.objective:
            obs_space["objective"] = objective_space()
        self.observation_space = spaces.Dict(obs_space)

    def _env(self, mission: str, opponent: str):
        from ambush_env.env.ambush_env import AmbushEnv

        key = (mission, opponent)
        if key not in self._envs:
            kw: dict[str, Any] = dict(opponent=opponent, rules=self.rules, reward=self.reward)
            if mission == PROCEDURAL:
                kw.update(procedural=True, mission_seeds="train")
            else:
                kw["mission"] = mission
            self._envs[key] = AmbushEnv(**kw)
        return self._envs[key]

    def _obs(self, obs: dict) -> dict:
        if self.objective:
            obs = {**obs, "objective": objective_features(self.active.game)}
        return obs

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        mission = self.missions[int(rng.choice(len(self.missions), p=self.weights))]
        opponent = self.opponents[int(rng.integers(len(self.opponents)))]
        self.active = self._env(mission, opponent)
        obs, info = self.active.reset(seed=int(rng.integers(self.seed_limit)), options=options)
        return self._obs(obs), {**info, "mission": mission, "opponent": opponent}

    def step(self, action):
        obs, reward, terminated, truncated, info = self.active.step(action)
        return self._obs(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The active env's mask (:meth:`AmbushEnv.action_masks`)."""
        return self.active.action_masks()

    @property
    def game(self):
        """The active env's game (what scripted agents read)."""
        return self.active.game

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
