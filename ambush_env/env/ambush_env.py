"""The Gymnasium environment: a thin layer over :class:`ambush_env.core.play.game.Game`."""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ambush_env.core.model.errors import ConfigError, IllegalActionError, ScenarioError
from ambush_env.core.model.orders import N_ORDERS
from ambush_env.core.model.types import RESULT_NAMES
from ambush_env.env import arguments as args
from ambush_env.env import spec
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.rewards import RewardScheme
from ambush_env.render.window import pygame_available as _pygame_available

ILLEGAL_STREAK_LIMIT = 10  # docs/API.md: 10 illegal orders in a row truncate the episode
DEFAULT_MAX_STEPS = 20_000  # ⚙ outside safety cap; a mission always ends far earlier
ILLEGAL_ACTION_MODES = ("penalize", "raise")
#: ``info["end_reason"]`` of the two truncations (a mission's own end gives the engine's reason)
END_MAX_STEPS = "max_steps"
END_ILLEGAL_STREAK = f"{ILLEGAL_STREAK_LIMIT} illegal orders in a row"
_NO_ORDERS = np.zeros(N_ORDERS, dtype=bool)


class AmbushEnv(gym.Env):
    """The US squad of the solitaire board game *Ambush!* against card-driven Germans.

    ## Description
    One US squad (up to 12 soldiers) crosses a hex map of up to 32 × 24 hexes toward a
    mission objective. Germans wait hidden and appear when paragraphs place them; they then act
    from their cards inside :meth:`step`. The game alternates Operations (the US moves freely,
    one action per soldier per pulse) and Rounds (initiative, the Action Round track, fire,
    grenades, assaults). The rules are in ``RULES.md``; the engine is
    :class:`ambush_env.core.play.game.Game` and this class only turns it into arrays.

    ## Action Space
    ``Discrete(N_ORDERS)``: the fixed flat order layout of :mod:`ambush_env.core.model.orders`
    (select unit k, end turn, stance, move one hex per direction, end move, aimed/snap fire
    at contact slot k, wall/hex fire, grenade/satchel at a hex offset, assault kill/capture,
    prepare, clear jam, …, exit the map). Orders whose rules are not in the engine yet are
    never legal. :meth:`action_masks` returns the legal orders (``game.legal_actions()``),
    also given as ``info["action_mask"]``; :meth:`describe_action` names an order. The mask
    is never all-False while the episode runs; it is all-False on the step that ends the
    mission (nothing is legal any more; a vector env's next ``step`` only resets that env and
    ignores its action).

    An action must be an integer in ``0..N_ORDERS-1``: a Python int, a numpy integer scalar
    or a 0-d integer array. Anything else — a float (also ``3.0``), NaN, a bool, a string, an
    array of another shape, a number out of range — raises :class:`IllegalActionError` in
    every ``illegal_action`` mode. An in-range order that is not legal now is a no-op scored
    −1 (``"penalize"``) or raises (``"raise"``).

    ## Observation Space
    A ``Dict`` declared once in :data:`ambush_env.env.spec.OBSERVATION_SPEC` (54.2 KiB):

    * ``board`` (C, 24, 32) uint8: each plane stores a flag or a small count, and its value
      is ``stored / div`` with ``div`` declared in the spec table (the plane's upper bound;
      ``spec.scaled`` applies it). The hex planes: terrain one-hot, level, hexside walls / doors /
      windows / embankments / crests per direction, US soldiers by stance and status, known
      Germans, vehicles, hexes the acting soldier sees, hexes any US soldier sees,
      objectives, exits, trigger hexes already checked, the acting soldier's hex;
    * ``units`` (12, F) float32: one row per US squad slot; ``contacts`` (12, F): one row per
      known German, in the slot order of the fire and assault orders; ``vehicles`` (4, F):
      one row per vehicle slot (side, position, facing, state, type one-hot, and a tank's
      active crew, Crew Points left, cannon loaded, lost weapons and jammed MGs);
    * ``globals`` (G,) float32: phase, round, initiative, time left, VP, acting soldier, turn
      state.

    Only what the US player could know is shown: hidden Germans never appear.

    ## Rewards
    Scheme ``reward="default"``: the mission result at the end (decisive win +1, win +0.5,
    draw 0, loss −1) plus 0.05 × the VP gained in the step. ``"sparse"`` keeps only the result;
    ``"shaped"`` adds small casualty terms; ``"progress"`` (the MaskablePPO baseline's) adds
    potential-based shaping γΦ(s′) − Φ(s) toward the objective, then an exit (Φ = −0.03 × the
    squad's mean remaining route in hexes; ``env/rewards.py``). Numbers are in
    ``env/rewards.yaml``; every term is
    in ``info["reward_components"]``. An illegal order scores −1 (``illegal_action="penalize"``).

    ## Starting State
    The squad on the mission's entry hexes in Operations, pulse 1; the Germans hidden.

    ## Episode End
    ``terminated`` when the mission ends: its objective and exit conditions, no US soldier
    left on the map, or its own time limit (a scored end). ``truncated`` only when
    ``max_steps`` calls of :meth:`step` were made (illegal orders count) or 10 illegal orders
    came in a row; ``info["end_reason"]`` says which (``"max_steps"``,
    ``"10 illegal orders in a row"``), as it gives the mission's reason on termination.

    ## Information
    ``info`` holds ``phase``, ``round``, ``acting_unit`` (name or None), ``vp``, ``events``
    (the rule events of the step), ``action_mask``, ``reward_components``, ``illegal_action``,
    and when the mission is over ``result`` (``"loss"``…``"decisive_win"``) and ``stats``.

    ## Arguments
    ```python
    gymnasium.make("ambush/Ambush-v0", mission=None, rules="standard", opponent="regular",
                   reward="default", render_mode=None, illegal_action="penalize",
                   max_steps=20000)
    ```
    * ``mission``: a mission id of ``ambush_env.list_missions()`` or a mission file path
      (None: the reference mission).
    * ``rules``: ``"standard"`` (Hit Charts) or ``"d100"`` (the seed 003 module).
    * ``opponent``: German deck: ``"green"``, ``"regular"``, ``"veteran"``.
    * ``reward``: a reward scheme of ``rewards.yaml``.
    * ``render_mode``: ``None``, ``"ansi"`` (text map), ``"rgb_array"`` (the hex map image,
      ``(H, W, 3) uint8``: labelled hexes, a legend panel, a HUD with the phase, Round, VP,
      acting unit and last event, the line of the last shot; ``ambush_env.render.image``) or
      ``"human"`` (that image in a pygame window, updated by ``reset`` and ``step`` at most
      ``metadata["render_fps"]`` times a second, ``render()`` returning None; needs the
      ``window`` extra, ``pip install "ambush_env[window]"``, and is in
      ``metadata["render_modes"]`` only where pygame can be imported). ``gymnasium.wrappers.RecordVideo``
      records the ``"rgb_array"`` frames (the ``video`` extra).
    * ``illegal_action``: ``"penalize"`` (no-op, −1) or ``"raise"`` (``IllegalActionError``)
      for an in-range order not legal now.
    * ``max_steps``: outside cap on ``step`` calls (``None``: no cap).
    * ``mission_seeds`` (``ambush/Procedural-v0`` only): where each reset draws its mission
      seed, with the env's generator: ``"train"`` (``procedural.TRAIN_SEEDS``, 0..999 999,
      the default) or ``"held_out"`` (``procedural.HELD_OUT_SEEDS``, 1 000 000..1 000 999,
      kept for evaluation). ``reset(options={"mission_seed": k})`` plays mission ``k``
      (any integer >= 0) instead; ``info["mission_seed"]`` names the one played.

    ## Version History
    * v0: development version (may change until the first frozen release, v1). Issue 9:
      ``Discrete(695)`` became ``Discrete(703)`` (the German orders alert and surrender at the
      end), and the German units take their orders from the US side's order generator.
      Issue 10: the board planes are uint8 with declared scales (one observation went from
      190 KiB to 50 KiB); a non-integer or out-of-range action raises in every mode;
      ``max_steps`` counts illegal calls; ``end_reason`` is set on truncation.
      Issue 11: ``Discrete(715)`` (the guard's hand-over of prisoners appended at the end),
      then ``Discrete(1057)`` (orders aiming at vehicles and the tank's cannon targets).
      The ``vehicles`` table went from 27 to 41 columns (the vehicle type one-hot and the
      tank's state: crew, Crew Points left, cannon loaded, lost weapons, jammed MGs).
      Issue 12: ``Discrete(1101)`` (the d100 special attacks appended at the end).
    * v1 (issue 14): the first frozen version, pinned by ``tests/golden/env_spec_v1.json``
      (N, every order text, the observation spec); docs/VERSIONS.md has the policy.
      Before the first v1 baseline was published the v1 observation gained the landmark,
      known-minefield and known-booby-trap planes (62 → 67), the vehicle columns ``hp`` and
      ``burning`` (41 → 43) and the global ``rules_d100`` (41 → 42).
    * v2 (issue 15): the spec of v1 unchanged (``tests/golden/env_spec_v2.json``); a German
      vehicle whose crew is hidden no longer shows in the observation (its ``vehicles`` row
      zero, no vehicle-plane marks) and US orders naming it leave the action mask, until a man
      aboard becomes a contact (``core.model.state.known_vehicle``, RULES.md §5).
    * v3 (issue 23): the spec of v2 unchanged (``tests/golden/env_spec_v3.json``); rules read
      against the seeds (small arms pass no stone wall, a captured weapon's jam is cleared at
      PC − 1, seed 000's mine effects under d100 too, d100 taking the wheel, point blank and
      armour loss), the German seat's mask drops shots that cannot penetrate a closed tank, and
      the illegal-order penalty is exactly −1 under every reward (docs/VERSIONS.md).
    """

    #: ⚙ ``"human"`` (a pygame window, the ``window`` extra) is advertised only where pygame can
    #: be imported (:func:`ambush_env.render.window.pygame_available`, looked up once, when this
    #: module is imported), rather than pygame in the base install: Gymnasium's ``check_env``
    #: builds every advertised mode, so a default install (no pygame, often no display) passes
    #: it on every id, and a headless training install carries no SDL. ``render_mode="human"``
    #: without pygame raises ``DependencyNotInstalled`` naming the extra.
    metadata = {
        "render_modes": ["ansi", "rgb_array"] + (["human"] if _pygame_available() else []),
        "render_fps": 4,
    }
    action_space: spaces.Discrete
    observation_space: spaces.Dict

    def __init__(
        self,
        mission: str | None = None,
        rules: str = "standard",
        opponent: str = "regular",
        reward: str = "default",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        procedural: bool = False,
        mission_seeds: str = "train",
        **unknown: Any,
    ) -> None:
        from ambush_env.core import Game
        from ambush_env.core.world.missions import list_missions

        _check_arguments(
            type(self).__name__,
            unknown,
            mission=mission,
            rules=rules,
            opponent=opponent,
            reward=reward,
            illegal_action=illegal_action,
        )
        procedural = args.flag("procedural", procedural)
        if procedural and mission is not None:
            raise ConfigError(
                "mission",
                "a procedural env generates its mission at reset: "
                f"give no mission (got {args.shown(mission)})",
            )
        if mission is not None and not (mission.endswith((".yaml", ".yml")) or "/" in mission):
            known = list_missions()  # a path is validated by the loader instead
            if mission not in known:
                raise ScenarioError(
                    f"unknown mission {mission!r}; known missions: {', '.join(known)}"
                )
        if render_mode == "human" and not _pygame_available():
            raise gym.error.DependencyNotInstalled(
                'render_mode="human" needs pygame: pip install "ambush_env[window]"'
            )
        args.choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        max_steps = args.max_steps(max_steps)
        from ambush_env.core.play.procedural import SEED_RANGES

        args.choice("mission_seeds", mission_seeds, tuple(SEED_RANGES))
        if not procedural and mission_seeds != "train":
            raise ConfigError(
                "mission_seeds",
                "only a procedural env (ambush/Procedural) draws "
                f"mission seeds; got {mission_seeds!r} for a shipped mission",
            )
        self._kwargs: dict[str, Any] = dict(
            mission=mission,
            rules=rules,
            opponent=opponent,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            max_steps=max_steps,
            procedural=procedural,
        )
        if procedural:
            self._kwargs["mission_seeds"] = mission_seeds
        self.procedural = procedural
        self._proc_seed: int | None = None
        if procedural:
            from ambush_env.core.play.procedural import generate

            self._proc_seed = 0
            gen_mission, gen_board = generate(0)
            self.game = Game(gen_mission, board=gen_board, rules=rules, opponent=opponent)
        else:
            self.game = Game(mission, rules=rules, opponent=opponent)
        self.mission_id: str = self.game.mission_id
        self.render_mode = render_mode
        self._window: Any = None  # the "human" mode's MapWindow, opened by the first frame
        self.illegal_action = illegal_action
        self.max_steps = max_steps
        self.reward_scheme = RewardScheme(reward)
        self.action_space = spaces.Discrete(N_ORDERS)
        self.observation_space = spec.observation_space()
        self._builder = ObservationBuilder(self.game)
        self._home = (self.game, self._builder)  # the id's own mission (a position may replace it)
        self._mask = np.zeros(N_ORDERS, dtype=bool)
        self._legal: list[int] = []
        self._obs: dict[str, np.ndarray] | None = None
        self._steps = 0
        self._illegal_streak = 0
        self._vp = 0
        self._needs_reset = True

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game; the dice draw from ``self.np_random`` (seeded by ``seed``).

        Options (docs/OBSERVATION.md "Reset options"): ``{"position": p}`` starts from a
        position (:meth:`_load_position` says which missions an env takes);
        ``{"mission_seed": k}`` (procedural envs only) plays generated mission ``k``.

        Returns:
            ``(observation, info)``.

        Raises:
            ConfigError: a seed that is not None or an integer >= 0, options that are not a
                dict, an option this env does not read, a bad ``mission_seed``, or a position
                this env does not play (another mission, ``german: agent``).
            DataError: a malformed position (names the field).
        """
        seed = args.seed(seed)
        options = args.options(options, self._reset_options(), self._where())
        if options.get("position") is not None and options.get("mission_seed") is not None:
            raise ConfigError(
                "options",
                "give 'position' or 'mission_seed', not both (a "
                "position names its own mission seed)",
            )
        super().reset(seed=seed)
        position = options.get("position")
        if position is not None:  # docs/API.md: start the episode from a position
            self._load_position(position)
            if self.game.over:
                from ambush_env.core.model.errors import DataError

                raise DataError(
                    "<position>",
                    "over",
                    "the position's mission is over: an episode cannot start from it",
                )
            self._steps = 0
            self._illegal_streak = 0
            self._needs_reset = self.game.over
            self.reward_scheme.reset(self.game)
            self._builder.reset()
            self._refresh()
            return self._shown(
                (self._obs_copy(), self._info(list(self.game._take_events()), {}, False))
            )
        if self.procedural:  # a new mission and map from the reset seed (ambush/Procedural-v0)
            self._use_procedural(self._mission_seed(options))
        elif self.game is not self._home[0]:  # a position of another mission was loaded
            self.game, self._builder = self._home
            self.mission_id = self.game.mission_id
        events = self.game.reset(rng=self.np_random)
        self._steps = 0
        self._illegal_streak = 0
        self._needs_reset = False
        self.reward_scheme.reset(self.game)
        self._builder.reset()
        self._refresh()
        return self._shown((self._obs_copy(), self._info(events, {}, False)))

    def step(self, action):
        """One US decision (an order, one hex of a move, a follow-up or end turn).

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: in every mode for an action that is not an integer in
                ``0..N_ORDERS-1``; with ``illegal_action="raise"`` also for an order not legal now.
            gymnasium.error.ResetNeeded: when called after the episode ended.
        """
        if self._needs_reset:
            raise gym.error.ResetNeeded(
                "call reset() before step() (the episode is over or not started)"
            )
        a = _order_index(action)
        if not self._mask[a]:
            return self._shown(self._illegal(a))
        self._illegal_streak = 0
        events = self.game.step(a)
        self._steps += 1
        self._refresh()
        reward, comps = self.reward_scheme(self.game, self._vp)
        terminated = self.game.over
        truncated = (
            (not terminated) and self.max_steps is not None and self._steps >= self.max_steps
        )
        self._needs_reset = terminated or truncated
        info = self._info(events, comps, False)
        if truncated:
            info["end_reason"] = END_MAX_STEPS
        return self._shown((self._obs, reward, terminated, truncated, info))

    def render(self) -> str | np.ndarray | None:
        """The ``"ansi"`` text map or the ``"rgb_array"`` image; None in ``"human"`` mode (the
        window is updated by ``reset`` and ``step``) and without a render mode."""
        if self.render_mode == "ansi":
            from ambush_env.render.ansi import render_ansi

            return render_ansi(self.game)
        if self.render_mode == "rgb_array":
            return self._frame()
        return None

    def _frame(self) -> np.ndarray:
        """The ``(H, W, 3) uint8`` image of the game now (``ambush_env.render.image``)."""
        from ambush_env.render.image import event_caption, render_rgb

        return render_rgb(
            self.game,
            last_shot=self._last_shot(),
            caption=event_caption(getattr(self, "_last_events", None) or []),
        )

    def _shown(self, out):
        """``out`` (a reset's or step's return), after showing the frame in ``"human"`` mode."""
        if self.render_mode == "human":
            if self._window is None:
                from ambush_env.render.window import MapWindow

                self._window = MapWindow(
                    f"ambush_env: {self.mission_id}", self.metadata["render_fps"]
                )
            self._window.show(self._frame())
        return out

    def _last_shot(self) -> tuple[int, int] | None:
        """Hexes of the shooter and target of the last shot of the last step, if any."""
        events = getattr(self, "_last_events", None) or []
        for e in reversed(events):
            if e.get("type") == "fire":
                by_name = {u.name: u.hex for u in self.game.state.units}
                return by_name.get(e.get("shooter"), -1), by_name.get(e.get("target"), -1)
        return None

    def close(self) -> None:
        """Close the ``"human"`` mode's window, if open (idempotent)."""
        window, self._window = getattr(self, "_window", None), None
        if window is not None:
            window.close()

    # ------------------------------------------------------------------ binding extras
    def action_masks(self) -> np.ndarray:
        """``(N_ORDERS,) bool``: exactly ``game.legal_actions()`` (for MaskablePPO)."""
        return self._mask.copy()

    def legal_actions(self) -> list[int]:
        """The legal order integers now (the same list the mask is built from)."""
        return list(self._legal)

    def describe_action(self, action: int) -> str:
        """Order text from the game, e.g. ``"US3 fire aimed at G2 (L7)"``."""
        return self.game.describe_action(int(action))

    def get_state(self) -> dict:
        """The whole episode as a JSON-able dict (docs/API.md): the game's position (dice
        included) plus the env's own counters under ``"env"`` (and, for a procedural env, the
        seed its mission was generated from). ``Game.from_position`` reads it as it is."""
        d = self.game.position()
        env: dict[str, int | None] = {"steps": self._steps, "illegal_streak": self._illegal_streak}
        if self.procedural:
            env["procedural_seed"] = self._proc_seed
        d["env"] = env
        return d

    def _reset_options(self) -> tuple[str, ...]:
        """The keys :meth:`reset` reads from ``options``."""
        return ("position", "mission_seed") if self.procedural else ("position",)

    def _where(self) -> str:
        """This env in a message: its id's family and mission."""
        if self.procedural:
            return "ambush/Procedural"
        if self._kwargs.get("mission") is None:
            return "ambush/Ambush (any mission)"
        return f"the env of mission {self._home[0].mission_id!r}"

    def _load_position(self, p: Any) -> None:
        """Set the game to a position: on this env's game when it is of the same mission,
        rules and deck, else on a new game (and observation builder) for it.

        ⚙ Which positions an env takes (docs/OBSERVATION.md "Reset options"): an env built
        for a mission — a per-mission id such as ``ambush/TankHunt-v4``, or
        ``ambush/Ambush-v4`` with ``mission=`` — takes positions of that mission only (its id:
        a variant of it under the same id is played on a game of its own); ``ambush/Ambush-v4``
        without ``mission=`` is the any-mission env and takes a position of any mission (the
        next reset without a position plays the reference mission again); a procedural env
        takes positions of generated missions only (their ``procedural`` seed becomes the
        episode's ``mission_seed``). A position's rules and deck are its own. The Germans of a
        Gymnasium env play by their cards: a position with ``german: agent`` is refused
        (``ambush_env.aec_env`` plays it).

        Raises:
            DataError: a malformed position (names the field).
            ConfigError: a position this env does not play (``options['position'].mission``
                or ``.german``).
        """
        from ambush_env.core import Game
        from ambush_env.core.model.errors import DataError
        from ambush_env.core.play import position as P

        spec = P.parse(p)
        if spec.german != "cards":
            raise ConfigError(
                "options['position'].german",
                "the Gymnasium env plays the Germans "
                f"by their cards; a position with german: {spec.german} is played "
                "by ambush_env.aec_env(german='agent')",
            )
        if self.procedural and spec.procedural is not None:
            self._use_procedural(spec.procedural)
        try:
            self.game.set_state(p)
            return
        except DataError as e:
            if e.field != "mission":
                raise
        if self.procedural and spec.procedural is None:  # (one of the mission played fits)
            raise ConfigError(
                "options['position'].mission",
                f"{self._where()} plays "
                f"generated missions; {_mission_name(spec.mission)} is not one "
                "(the position has no procedural seed)",
            )
        game = Game.from_position(p)
        home = self._home[0].mission_id
        if (
            not self.procedural
            and self._kwargs.get("mission") is not None
            and game.mission_id != home
        ):
            raise ConfigError(
                "options['position'].mission",
                f"a position of {game.mission_id!r}, "
                f"but this env plays {home!r}; build an env of that mission "
                f"(AmbushEnv(mission={game.mission_id!r}) or its own id), or "
                "ambush/Ambush without mission= for a position of any mission",
            )
        self.game = game
        self.mission_id = self.game.mission_id
        self._builder = ObservationBuilder(self.game)

    def _mission_seed(self, options: dict | None) -> int:
        """The mission seed of a procedural reset: ``options["mission_seed"]``, else a draw
        from the ``mission_seeds`` range with the env's generator (so the reset seed fixes it).

        Raises:
            ConfigError: a ``mission_seed`` that is not an integer >= 0.
        """
        from ambush_env.core.play.procedural import SEED_RANGES

        k = (options or {}).get("mission_seed")
        if k is not None:
            return args.integer("options['mission_seed']", k, 0, "a mission seed")
        r = SEED_RANGES[self._kwargs["mission_seeds"]]
        return int(self.np_random.integers(r.start, r.stop))

    def _use_procedural(self, seed: int) -> None:
        """Generate (or keep) the procedural mission of ``seed`` and make its game current
        (also after a position's game of a variant replaced it)."""
        if seed != self._proc_seed:
            from ambush_env.core import Game
            from ambush_env.core.play.procedural import generate

            mission, board = generate(seed)
            game = Game(
                mission, board=board, rules=self._kwargs["rules"], opponent=self._kwargs["opponent"]
            )
            self._home = (game, ObservationBuilder(game))
            self._proc_seed = seed
        self.game, self._builder = self._home
        self.mission_id = self.game.mission_id

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s dict (a bare position is accepted too: counters 0).

        Raises:
            DataError: a malformed position (names the field).
        """
        from ambush_env.core.model.errors import DataError

        if not isinstance(state, dict):
            raise DataError(
                "<state>", "<root>", f"a state is a position dict, got {type(state).__name__}"
            )
        env = state.get("env") or {}
        if not isinstance(env, dict):
            raise DataError("<state>", "env", "the env's counters are a mapping")
        for key in ("steps", "illegal_streak"):
            v = env.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise DataError("<state>", f"env.{key}", f"a count (an integer >= 0), got {v!r}")
        self._steps = env.get("steps", 0)
        self._illegal_streak = env.get("illegal_streak", 0)
        if self.procedural and env.get("procedural_seed") not in (None, self._proc_seed):
            self._use_procedural(int(env["procedural_seed"]))
        self._load_position(state)
        # the dice draw from the env's generator again, as they do from a reset: its state
        # becomes the position's dice generator's, so a later unseeded reset() (and, in a
        # campaign, the next missions) goes on as from the original env
        dice = self.game.dice
        if dice.rng is not None:
            self.np_random.bit_generator.state = dice.rng.bit_generator.state
            dice.rng = self.np_random
        self.reward_scheme.reset(self.game)
        self._builder.reset()
        self._refresh()
        self._needs_reset = self.game.over

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        rng = self._np_random
        return {
            "kwargs": self._kwargs,
            "rng": None if rng is None else rng.bit_generator.state,
            "seed": self._np_random_seed,
            "state": None if self._obs is None else self.get_state(),
            "needs_reset": self._needs_reset,
        }

    def __setstate__(self, d: dict) -> None:
        type(self).__init__(self, **d["kwargs"])  # a subclass's own, as self.__init__ is
        if d["rng"] is not None:
            self._np_random = np.random.Generator(np.random.PCG64())
            self._np_random_seed = d["seed"]
            if d["state"] is not None:
                self.game.reset(rng=self._np_random)  # ties the dice to this generator
            self._np_random.bit_generator.state = d["rng"]
        if d["state"] is not None:
            self.set_state(d["state"])
        self._needs_reset = d["needs_reset"]

    # ------------------------------------------------------------------ internals
    def _refresh(self) -> None:
        legal = self.game.legal_actions()
        self._legal = legal
        mask = _NO_ORDERS.copy()
        if len(legal) < 32:  # scalar writes beat a fancy index for the usual handful of orders
            for a in legal:
                mask[a] = True
        else:
            mask[legal] = True
        self._mask = mask
        self._vp = vp = self.game.vp  # computed from the state: read once per step
        self._obs = self._builder.build(legal, vp)

    def _obs_copy(self) -> dict[str, np.ndarray]:
        assert self._obs is not None  # built by _refresh, which runs first
        return {k: v.copy() for k, v in self._obs.items()}

    def _illegal(self, a: int):
        """An in-range order that is not legal now: raise, or a penalised no-op (a call that
        counts towards ``max_steps`` and the illegal streak)."""
        if self.illegal_action == "raise":
            acting = self.game.acting_unit()
            who = acting.name if acting is not None else "the squad (a unit must be selected first)"
            raise IllegalActionError(
                f"order #{a} ({self.describe_action(a)}) is not legal now for {who}"
            )
        self._illegal_streak += 1
        self._steps += 1
        reward, comps = self.reward_scheme.illegal()
        info = self._info([], comps, True)
        if self._illegal_streak >= ILLEGAL_STREAK_LIMIT:
            info["end_reason"] = END_ILLEGAL_STREAK
        elif self.max_steps is not None and self._steps >= self.max_steps:
            info["end_reason"] = END_MAX_STEPS
        truncated = "end_reason" in info
        self._needs_reset = truncated
        return self._obs_copy(), reward, False, truncated, info

    def _info(self, events: list[dict], comps: dict[str, float], illegal: bool) -> dict[str, Any]:
        self._last_events = events
        g = self.game
        st = g.state
        acting = g.acting_unit()
        info: dict[str, Any] = {
            "phase": int(st.phase),
            "round": int(st.round),
            "acting_unit": acting.name if acting is not None else None,
            "vp": int(self._vp),
            "events": events,
            "action_mask": self._mask.copy(),
            "reward_components": comps,
            "illegal_action": illegal,
            "steps": self._steps,
        }
        if self.procedural:
            info["mission_seed"] = self._proc_seed
        if g.over:
            info["result"] = RESULT_NAMES[g.result] if g.result >= 0 else None
            info["end_reason"] = st.end_reason
            info["stats"] = g.stats()
        return info


def _mission_name(mission: Any) -> str:
    """A position's ``mission`` field in a message: its id (an inline mission's ``id``)."""
    if isinstance(mission, dict):
        return f"the inline mission {mission.get('id')!r}"
    return f"mission {mission!r}"


def _check_arguments(
    where: str,
    unknown: dict[str, Any],
    known: Any = None,
    *,
    mission: Any,
    rules: Any,
    opponent: Any,
    reward: Any,
    illegal_action: Any = "penalize",
) -> None:
    """The arguments every env shares, checked before anything is built (docs/OBSERVATION.md
    "Errors"); ``unknown`` holds the keyword arguments the constructor does not take and
    ``known`` the ones it does (default: :class:`AmbushEnv`'s).

    Raises:
        ConfigError: an unknown keyword, a mission that is not a string, rules, reward scheme
            or illegal-action mode not of the known ones, a deck that is not a string.
        ScenarioError: an unknown deck (the message starts ``opponent:``); an unknown mission
            id is refused by the caller (a mission file's path by its loader).
    """
    from ambush_env.core.rules.ctx import RULES
    from ambush_env.core.world.cards import load_deck
    from ambush_env.core.world.missions import list_missions
    from ambush_env.env.rewards import list_schemes

    if known is None:
        known = [
            p
            for p in inspect.signature(AmbushEnv.__init__).parameters
            if p not in ("self", "unknown")
        ]
    args.no_unknown(where, unknown, known)
    if mission is not None and not isinstance(mission, str):
        raise ConfigError(
            "mission",
            f"a mission id ({', '.join(list_missions())}) or a mission "
            f"file's path, or None; got {args.shown(mission)}",
        )
    args.choice("rules", rules, tuple(RULES))
    if not isinstance(opponent, str):
        raise ConfigError(
            "opponent",
            "a German deck id (green, regular, veteran) or a deck "
            f"file's path; got {args.shown(opponent)}",
        )
    try:
        load_deck(opponent)
    except ScenarioError as e:
        raise ScenarioError(f"opponent: {e}") from None
    args.choice("reward", reward, list_schemes())
    args.choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)


def _order_index(action: Any) -> int:
    """The order index of a ``step`` action: a Python int, a numpy integer scalar or a 0-d
    integer array in ``0..N_ORDERS-1`` (docs/API.md, the illegal-action rules).

    Raises:
        IllegalActionError: anything else — a float (``3.0`` too), NaN, a bool (an ``int``
            subclass, refused on purpose), a string, an array of another shape or dtype, or an
            integer out of range; the message names the value and the valid range.
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        a = int(action)
        if 0 <= a < N_ORDERS:
            return a
        raise IllegalActionError(
            f"action {a} is out of range: an order is an integer in 0..{N_ORDERS - 1}"
        )
    if isinstance(action, np.ndarray):
        what = f"array of shape {action.shape}, dtype {action.dtype}: {np.array2string(action, threshold=8)}"
    else:
        what = f"{action!r} ({type(action).__name__})"
    raise IllegalActionError(
        f"action {what} is not an order: an order is an integer in 0..{N_ORDERS - 1} "
        f"(a Python int, a numpy integer or a 0-d integer array)"
    )
