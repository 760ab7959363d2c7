"""Two-sided play: a PettingZoo AEC env with the agents ``"us"`` and ``"german"`` (docs/API.md).

``agent_selection`` is the side whose unit decides now — the engine's current player
(:attr:`ambush_env.core.play.game.Game.decision`). Each agent observes what its side could know:
the US seat is the Gymnasium env's observation; the German seat is the same table
(:data:`ambush_env.env.spec.OBSERVATION_SPEC`) built on the game as the Germans see it
(:class:`GermanView`): the German units are its own slots, its contacts are the US soldiers
some German has seen (``state.german_contacts``), the US paragraph triggers are not shown
and the VP are the German side's. Each observation dict holds ``action_mask`` (int8,
PettingZoo's convention) and so does ``infos[agent]``. Rewards are zero-sum: the German reward
is the negative of the US reward of the reward scheme. With ``german="cards"`` the cards play
the Germans and ``possible_agents == ["us"]``.

⚙ An order that is not an integer in ``0..N-1``, or not legal now, raises
``IllegalActionError`` (no penalty mode: PettingZoo agents sample with the mask).
``max_steps`` truncates both agents. Bad arguments raise ``ConfigError`` as the Gymnasium
env's do (docs/OBSERVATION.md "Errors"); without PettingZoo (the ``multi`` extra) importing
this module raises :class:`~ambush_env.core.model.errors.MissingExtraError` naming the extra.

At the end each seat's ``info["result"]`` is its own side's ⚙: the US seat's the mission
result (``"loss"`` … ``"decisive_win"``), the German seat's that result seen from the German
side — ``"win"`` when the US lost, ``"draw"`` on a draw, ``"loss"`` when the US won (a win or
a decisive win: the mission's bands grade the US side only, so the German seat has no
``"decisive_win"``) — the sign of its reward's result term; ``info["us_result"]`` is the
mission result on both seats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ambush_env.core.model.errors import ConfigError, IllegalActionError, MissingExtraError

try:
    from pettingzoo import AECEnv
except ModuleNotFoundError as _e:  # the multi extra is not installed
    if _e.name != "pettingzoo":
        raise
    raise MissingExtraError("two-sided play (ambush_env.aec_env)", "pettingzoo", "multi") from None

from ambush_env.core import Game
from ambush_env.core.model.orders import N_ORDERS
from ambush_env.core.model.types import RESULT_NAMES, Side
from ambush_env.env import arguments as args
from ambush_env.env import spec
from ambush_env.env.ambush_env import DEFAULT_MAX_STEPS, _check_arguments, _order_index
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.rewards import RewardScheme

US, GER = int(Side.US), int(Side.GERMAN)
AGENTS = ("us", "german")
GERMAN_MODES = ("agent", "cards")
#: the German seat's ``result`` for each US result (module docstring ⚙)
GERMAN_RESULT = {"loss": "win", "draw": "draw", "win": "loss", "decisive_win": "loss"}


class GermanView:
    """The game as the German side sees it, for the observation builder: the state's sides
    swapped (German units own, US units enemies), the German contacts as the contact slots,
    no US trigger hexes, the German VP (the negative of the US VP)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:  # board, sight, mission, tables, ...
        return getattr(self.game, name)

    @property
    def state(self) -> Any:
        st = self.game.state.clone()
        for u in st.units:
            u.side = 1 - u.side
            if u.side != US:
                u.slot = -1  # the US soldiers are no slots of this side
        for v in st.vehicles:
            v.side = 1 - v.side
        st.contacts = list(self.game.state.german_contacts)
        st.german_contacts = []
        st.fired_triggers = []
        if st.initiative >= 0:
            st.initiative = 1 - st.initiative
        return st

    @property
    def vp(self) -> int:
        return -self.game.vp

    def eligible_units(self) -> list:
        return []  # the Germans never select: they act in card-number order (RULES.md §5)


class AmbushAECEnv(AECEnv):
    """*Ambush!* for two agents (module docstring).

    Args:
        mission, rules, opponent, reward, max_steps: as the Gymnasium env's
            (``opponent`` is the deck whose cards and ratings the German units have).
        german: ``"agent"`` (the German side is the agent ``"german"``) or ``"cards"``.
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        ConfigError: a bad argument (names it): rules, reward, German mode, render mode,
            ``max_steps`` (None or an integer >= 1), a mission or deck that is not a string,
            an unknown keyword.
        ScenarioError: an unknown mission or deck.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "ambush_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        mission: str | None = None,
        rules: str = "standard",
        opponent: str = "regular",
        german: str = "agent",
        reward: str = "default",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        super().__init__()
        _check_arguments(
            "ambush_env.aec_env",
            unknown,
            ("mission", "rules", "opponent", "german", "reward", "max_steps", "render_mode"),
            mission=mission,
            rules=rules,
            opponent=opponent,
            reward=reward,
        )
        args.choice("german", german, GERMAN_MODES)
        args.choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.german_mode = german
        self.render_mode = render_mode
        self.max_steps = args.max_steps(max_steps)
        self.mission_arg = mission  # None: the any-mission env (a position of any mission)
        self.game = Game(mission, rules=rules, opponent=opponent, german=german)
        self.reward_scheme = RewardScheme(reward)
        self.possible_agents = list(AGENTS) if german == "agent" else ["us"]
        self._builders = {
            "us": ObservationBuilder(self.game),
            "german": ObservationBuilder(GermanView(self.game)),
        }
        obs_space = spec.observation_space()
        self._obs_space = spaces.Dict(
            {**obs_space.spaces, "action_mask": spaces.Box(0, 1, (N_ORDERS,), dtype=np.int8)}
        )
        self._act_space = spaces.Discrete(N_ORDERS)
        self._steps = 0
        self.agents: list[str] = []
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.agent_selection = "us"

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game (``options={"position": p}``: from a position).

        ⚙ The positions taken are the Gymnasium env's (:meth:`AmbushEnv._load_position
        <ambush_env.env.ambush_env.AmbushEnv._load_position>`): of this env's mission when it
        was given one (any mission without), and with this env's German mode. ⚙ Other keys of
        ``options`` are ignored: PettingZoo's ``api_test`` resets with an option of its own.

        Raises:
            ConfigError: a seed that is not None or an integer >= 0, options that are not a
                dict, or a position of another mission or German mode than this env's.
            DataError: a malformed position (names the field).
        """
        seed = args.seed(seed)
        if options is not None and not isinstance(options, dict):
            raise ConfigError(
                "options", f"a dict of reset options or None; got {args.shown(options)}"
            )
        position = (options or {}).get("position")
        if position is not None:
            game = Game.from_position(position, ctx=self.game.ctx)
            if game.german != self.german_mode:
                raise ConfigError(
                    "options['position'].german",
                    f"this env has german="
                    f"{self.german_mode!r}; the position says german: {game.german}",
                )
            if self.mission_arg is not None and game.mission_id != self.game.mission_id:
                raise ConfigError(
                    "options['position'].mission",
                    f"a position of "
                    f"{game.mission_id!r}, but this env plays "
                    f"{self.game.mission_id!r}; build aec_env(mission="
                    f"{game.mission_id!r}), or aec_env() without mission= for a "
                    "position of any mission",
                )
            self.game = game
            self._builders = {
                "us": ObservationBuilder(self.game),
                "german": ObservationBuilder(GermanView(self.game)),
            }
        else:
            rng = np.random.default_rng(seed)
            self.game.reset(rng=rng)
        for b in self._builders.values():
            b.reset()
        self.reward_scheme.reset(self.game)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._events = self.game._take_events()
        self._update_infos()
        self.agent_selection = self._current()

    def _current(self) -> str:
        d = self.game.decision
        if d.over or d.side == US or self.german_mode == "cards":
            return "us"
        return "german"

    def _mask(self, agent: str) -> np.ndarray:
        m = np.zeros(N_ORDERS, dtype=np.int8)
        if agent == self._current() and not self.game.over:
            m[self.game.legal_actions()] = 1
        return m

    def _update_infos(self) -> None:
        """Each seat's info: its mask, its VP, the phase; the rule events for the US seat
        only ⚙ (they tell of US moves and paragraphs the Germans cannot know); at the end each
        seat's own ``result`` (the module docstring ⚙), the mission result (``us_result``)
        and the reason."""
        g = self.game
        for a in self.agents:
            info = {
                "action_mask": self._mask(a),
                "vp": g.vp if a == "us" else -g.vp,
                "phase": int(g.state.phase),
            }
            if a == "us":
                info["events"] = self._events
            if g.over:
                res = RESULT_NAMES[g.state.result] if g.state.result >= 0 else None
                info["us_result"] = res
                info["result"] = res if a == "us" or res is None else GERMAN_RESULT.get(res)
                info["end_reason"] = g.state.end_reason
            self.infos[a] = info

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self.game
        obs = self._builders[agent].build(None, g.vp if agent == "us" else -g.vp)
        obs["action_mask"] = self._mask(agent)
        return obs

    def step(self, action: Any) -> None:
        """One decision of ``agent_selection``.

        Raises:
            IllegalActionError: an action that is not an integer in range, or not legal now.
        """
        if not self.agents:
            raise IllegalActionError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = _order_index(action)
        if a not in self.game.legal_actions():
            g = self.game
            raise IllegalActionError(
                f"{agent}: order {g.describe_action(a)!r} (#{a}) is not "
                f"legal now for {g._actor_name()}: {g._why_not(a)}"
            )
        self._cumulative_rewards[agent] = 0.0
        self._events = self.game.step(a)
        self._steps += 1
        r, _ = self.reward_scheme(self.game)
        self.rewards = {x: 0.0 for x in self.agents}
        self.rewards["us"] = float(r)
        if "german" in self.rewards:
            self.rewards["german"] = -float(r)
        over = self.game.over
        trunc = (not over) and self.max_steps is not None and self._steps >= self.max_steps
        for x in self.agents:
            self.terminations[x] = over
            self.truncations[x] = trunc
        self._update_infos()
        if trunc:
            for x in self.agents:
                self.infos[x]["end_reason"] = "max_steps"
        self._accumulate_rewards()
        self.agent_selection = self._current() if not (over or trunc) else self.agents[0]
        if over or trunc:
            self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            from ambush_env.render.ansi import render_ansi

            return render_ansi(self.game)
        return None

    def close(self) -> None:
        pass


#: The two-sided env (docs/API.md, binding): ``ambush_env.aec_env(mission=..., german=...)``
#: builds an :class:`AmbushAECEnv` (its arguments and errors), under PettingZoo's name of an
#: env's constructor.
aec_env = AmbushAECEnv
