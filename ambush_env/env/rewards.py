"""Reward schemes of the env, read from ``rewards.yaml`` (docs/API.md "Reward").

The default reward is the mission result at the end (decisive win +1, win +0.5, draw 0,
loss −1 ⚙) plus 0.05 ⚙ × the VP gained in the step; those numbers live once, in
``data/rules.yaml`` (``reward:``). Other named schemes (``sparse``, ``shaped``,
``progress``) change only the weights; every term is reported in ``info["reward_components"]``.

``progress`` adds potential-based shaping (Ng, Harada & Russell 1999, "Policy invariance under
reward transformations"): ``F = γ·Φ(s') − Φ(s)`` with ``Φ`` = −weight × the squad's mean
remaining route length in hexes (:func:`remaining_hexes`), and ``Φ = 0`` once the game is over
(the absorbing state), so a discounted return changes by the constant ``−Φ(s₀)`` only and
the optimal policies stay those of the unshaped reward. The benchmark scores VP, never rewards.
"""

from __future__ import annotations

import weakref
from functools import cache
from pathlib import Path
from typing import Any

from ambush_env.core.model.errors import ConfigError, DataError
from ambush_env.core.model.types import RESULT_NAMES, Status
from ambush_env.core.world.data import Frozen, load_model
from ambush_env.core.world.rules_data import load_rules_data

REWARDS_FILE = Path(__file__).with_name("rewards.yaml")

#: counters of ``Game.stats()`` a scheme may weight
STAT_TERMS = (
    "germans_killed",
    "germans_captured",
    "us_killed",
    "us_incapacitated",
    "us_wounded",
    "us_exited",
)
#: the potential-based shaping terms: ``progress`` (reward per hex of the squad's mean
#: remaining route) and ``gamma`` (the γ of ``γ·Φ(s') − Φ(s)``: the learner's discount)
SHAPING_TERMS = ("progress", "gamma")


class RewardsFile(Frozen):
    """Schema of ``rewards.yaml``: the illegal-order penalty and the named schemes."""

    illegal_action: float
    schemes: dict[str, dict[str, float]]


@cache
def load_rewards(path: str | Path = REWARDS_FILE) -> RewardsFile:
    """Load and validate a rewards file. Raises DataError naming the file and field."""
    cfg = load_model(RewardsFile, path)
    for name, weights in cfg.schemes.items():
        if not 0.0 < weights.get("gamma", 1.0) <= 1.0:
            raise DataError(path, f"schemes.{name}.gamma", "a discount in (0, 1]")
        for term in weights:
            if term not in ("vp", "result") and term not in STAT_TERMS + SHAPING_TERMS:
                known = ", ".join(("vp", "result") + STAT_TERMS + SHAPING_TERMS)
                raise DataError(
                    path, f"schemes.{name}.{term}", f"unknown reward term; known: {known}"
                )
    return cfg


def list_schemes() -> list[str]:
    """Names accepted by ``reward=``."""
    return sorted(load_rewards().schemes)


#: board -> {(objective, exits): route tables}: keyed by the board itself, held weakly, so an
#: entry goes with its board and a later board (even one at the same address) never reads it
_ROUTES: weakref.WeakKeyDictionary[Any, dict[tuple, tuple]] = weakref.WeakKeyDictionary()
ROUTES_PER_BOARD_MAX = 8  # ⚙ goal sets kept per board (a mission has one; cleared when full)


def _route_tables(game) -> tuple:
    """``(d_obj, d_exit, obj_to_exit, worst)`` of the game's map (cached per map and goals).

    ``d_obj[h]``, ``d_exit[h]``: hex distance (:meth:`Board.distance`, walls and terrain not
    counted ⚙: cheap, and the shaping only has to point the way) from hex ``h`` to the nearest
    objective / exit hex (``d_exit`` is ``d_obj`` when the mission has no exit hexes and vice
    versa); ``obj_to_exit``: the least ``d_exit`` over the objective hexes (0 without either);
    ``worst``: the longest remaining route on the map (a soldier off the map but not exited).
    """
    obj, exits = tuple(sorted(game.objective_hexes)), tuple(sorted(game.exit_hexes))
    key = (obj, exits)
    per_board = _ROUTES.get(game.board)
    if per_board is None:
        per_board = _ROUTES[game.board] = {}
    tabs = per_board.get(key)
    if tabs is None:
        dist = game.board.distance_table()
        d_obj = dist[:, list(obj)].min(axis=1).tolist() if obj else None
        d_exit = dist[:, list(exits)].min(axis=1).tolist() if exits else None
        d_obj = d_obj or d_exit or [0] * dist.shape[0]
        d_exit = d_exit or d_obj
        obj_to_exit = min(d_exit[h] for h in obj) if obj and exits else 0
        worst = max(d_obj) + obj_to_exit
        if len(per_board) >= ROUTES_PER_BOARD_MAX:
            per_board.clear()
        tabs = per_board[key] = (d_obj, d_exit, obj_to_exit, worst)
    return tabs


def remaining_hexes(game) -> float:
    """The squad's mean remaining route, in hexes: objective first, then out by an exit.

    Per soldier of the squad (every soldier the mission started with, so a casualty does not
    shrink the mean ⚙): 0 once he has left by an exit, if the objective is taken (or the mission
    has none) — while it is not, a soldier gone by an exit counts the map's longest route ⚙
    (gone before the objective, like a captured man: leaving early looks like a setback, and
    taking the objective later turns every early leaver's value to 0; in a 61 k-step trial
    without this rule the squad learned to skirt the farm and leave, 5.5 VP a game);
    ``d_obj(hex) + obj_to_exit`` while the
    objective is not taken (the ``objective_taken`` flag, module ``scoring``), ``d_exit(hex)``
    after; a killed or incapacitated soldier keeps the value of the hex he fell on ⚙ (dying never
    shortens the route); one off the map otherwise (captured) counts the map's longest route ⚙.
    Tables: :func:`_route_tables`. A mission whose objective is not ``take`` gets the same
    formula ⚙ (a first approximation; the baseline trains on ``farm_assault``, a ``take``).

    Returns:
        hexes (a float ≥ 0); 0 for a game without US soldiers.
    """
    d_obj, d_exit, obj_to_exit, worst = _route_tables(game)
    taken = "objective_taken" in game.state.flags
    n = len(game.squad.soldiers)
    total = 0
    early = bool(game.objective_hexes) and not taken  # an exit now leaves the objective behind
    for u in game.state.units[:n]:
        if u.exited or u.status == Status.REMOVED:
            total += worst if early else 0
        elif u.hex < 0:
            total += worst
        else:
            total += d_exit[u.hex] if taken else d_obj[u.hex] + obj_to_exit
    return total / n if n else 0.0


class RewardScheme:
    """Computes one step's reward and its components from the game before and after.

    Args:
        name: a scheme of ``rewards.yaml`` (``default``, ``sparse``, ``shaped``, ``progress``).

    Attributes:
        progress_weight: reward per hex of the mean remaining route (0: no shaping).
        gamma: the γ of the shaping term ``γ·Φ(s') − Φ(s)``; a learner must train with the same
            discount for the optimal policies to stay unchanged (``ambush_env.agents.maskable_ppo.train``
            refuses a mismatch).

    Raises:
        ConfigError: for an unknown scheme name (``reward:``; the message lists the known
            ones).
    """

    def __init__(self, name: str = "default") -> None:
        cfg = load_rewards()
        if not isinstance(name, str) or name not in cfg.schemes:
            raise ConfigError(
                "reward", f"unknown reward scheme {name!r}; known: {', '.join(sorted(cfg.schemes))}"
            )
        self.name = name
        weights = cfg.schemes[name]
        base = load_rules_data().reward
        self.vp_weight = float(weights.get("vp", base.vp_scale))
        k = float(weights.get("result", 1.0))
        self.result_values = tuple(k * float(getattr(base, r)) for r in RESULT_NAMES)
        self.stat_weights = {
            t: float(v) for t, v in weights.items() if t in STAT_TERMS and v != 0.0
        }
        self.illegal_value = float(cfg.illegal_action)
        self.progress_weight = float(weights.get("progress", 0.0))
        self.gamma = float(weights.get("gamma", 1.0))
        self._vp = 0
        self._stats: dict[str, Any] = {}
        self._phi = 0.0

    def potential(self, game) -> float:
        """``Φ(s)`` = −``progress_weight`` × :func:`remaining_hexes`; 0 once the game is over
        (the absorbing state of Ng et al. 1999) or without shaping."""
        if not self.progress_weight or game.over:
            return 0.0
        return -self.progress_weight * remaining_hexes(game)

    def reset(self, game) -> None:
        """Remember the starting VP (and counters, and potential) of a new episode."""
        self._vp = game.vp
        if self.stat_weights:
            self._stats = dict(game.stats())
        self._phi = self.potential(game)

    def illegal(self) -> tuple[float, dict[str, float]]:
        """Reward of an illegal order (a no-op): exactly the penalty (``rewards.yaml``
        ``illegal_action``, −1) under every scheme.

        ⚙ A shaping scheme adds no ``(γ − 1)·Φ(s)`` for the no-op (its ``progress``
        component is 0): the documented penalty is what an illegal order scores, and the
        game did not move. (With it an illegal order scored e.g. −0.99775 under
        ``progress``; leaving it out makes an illegal order cost (1 − γ)·|Φ(s)| more, so it
        stays no better than before, and a masked learner never plays one.)
        """
        comps = {"illegal": self.illegal_value}
        if self.progress_weight:
            comps["progress"] = 0.0
        return self.illegal_value, comps

    def __call__(self, game, vp: int | None = None) -> tuple[float, dict[str, float]]:
        """Reward of the step just played; returns ``(total, components)``.

        Args:
            game: the game after the step.
            vp: ``game.vp`` if the caller already read it (it is computed from the state).
        """
        if vp is None:
            vp = game.vp
        comps = {"vp": self.vp_weight * (vp - self._vp), "result": 0.0}
        self._vp = vp
        if game.over:
            res = game.result
            if res >= 0:
                comps["result"] = self.result_values[res]
        if self.stat_weights:
            stats = game.stats()
            for k, w in self.stat_weights.items():
                comps[k] = w * (stats.get(k, 0) - self._stats.get(k, 0))
            self._stats = dict(stats)
        if self.progress_weight:
            phi = self.potential(game)
            comps["progress"] = self.gamma * phi - self._phi
            self._phi = phi
        return sum(comps.values()), comps
