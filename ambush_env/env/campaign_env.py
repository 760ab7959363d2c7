"""``ambush/Campaign-v0``: a squad carried through a chain of missions (RULES.md §16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym

from ambush_env.core.model.errors import ConfigError, ScenarioError
from ambush_env.core.play import campaign as C
from ambush_env.env import arguments as args
from ambush_env.env.ambush_env import DEFAULT_MAX_STEPS, END_MAX_STEPS, AmbushEnv
from ambush_env.env.observation import ObservationBuilder

SQUAD_RANDOM = "random"
"""``squad="random"``: each reset without a squad option generates one from the seed (RULES.md §4)."""


class CampaignEnv(AmbushEnv):
    """The US squad of a campaign (RULES.md §16): the squad's next mission, or the whole chain.

    ## Description
    The same game, actions, observations and rewards as :class:`AmbushEnv`, played with a
    campaign squad (:mod:`ambush_env.core.play.campaign`): its soldiers' current ratings, those who
    miss the mission left out. When a mission ends the squad is carried on through the
    between-missions rules (recovery, experience, improvements, replacements) and returned in
    ``info["squad"]``; a later reset with ``options={"squad": info["squad"]}`` plays the next
    mission. The same squad and seed give the same episode.

    ## Action Space / Observation Space / Rewards
    As :class:`AmbushEnv` (``Discrete(N_ORDERS)``, the observation spec table, the reward
    scheme per mission). With ``whole_chain=True`` the step that ends a mission (not the last)
    returns the mission's reward and the first observation and mask of the next mission.

    ## Starting State
    ``reset(seed=s, options={"squad": SQUAD})``: ``SQUAD`` is a squad dict
    (``CampaignSquad.to_dict()``, ``info["squad"]``), a :class:`~ambush_env.core.play.campaign.
    CampaignSquad` or a squad file path. Without it: a new campaign of the ``squad`` argument
    (None: the chain's squad; a squad id or path; ``"random"``: one generated from the reset
    seed). ``options={"whole_chain": bool}`` overrides the argument for the episode.
    Missions nobody can play (everyone is recovering) are forfeited on the way ⚙.

    ## Episode End
    ``terminated`` when the mission ends (``whole_chain``: when the last mission of the chain
    ends); ``truncated`` as :class:`AmbushEnv` (the squad is then not carried on: the mission
    was not finished).

    ## Information
    As :class:`AmbushEnv`, and: ``chain_position`` (the index of the mission being played) and
    ``mission`` (its id) on every step; ``squad`` (the squad going in) on reset; on the step
    that ends a mission, ``squad`` (the squad after it), ``campaign_over`` and ``mission_end``
    (``{"mission", "result", "vp", "end_reason", "stats"}``).

    ## Arguments
    ```python
    gymnasium.make("ambush/Campaign-v0", campaign="first_push", squad=None, whole_chain=False,
                   reward="default", render_mode=None, illegal_action="penalize",
                   max_steps=20000)
    ```
    ``campaign``: a chain id (``ambush_env.core.play.campaign.list_campaigns()``) or a chain file's
    path; the chain fixes each mission's deck and the rules. ``max_steps`` counts every step of
    the episode (all the missions of a whole chain).

    ## Version History
    * v0: issue 13, first version.

    Raises:
        ScenarioError / DataError: an unknown or malformed chain, squad or squad file.
        ConfigError: a bad argument (names it): a campaign or squad that is not a string,
            a ``whole_chain`` that is not True or False, an unknown keyword, and the
            Gymnasium env's (``reward``, ``render_mode``, ``illegal_action``, ``max_steps``).
    """

    def __init__(
        self,
        campaign: str = "first_push",
        squad: str | None = None,
        whole_chain: bool = False,
        reward: str = "default",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        **unknown: Any,
    ) -> None:
        args.no_unknown(
            "CampaignEnv",
            unknown,
            (
                "campaign",
                "squad",
                "whole_chain",
                "reward",
                "render_mode",
                "illegal_action",
                "max_steps",
            ),
        )
        if not isinstance(campaign, str):
            raise ConfigError(
                "campaign",
                f"a campaign id ({', '.join(C.list_campaigns())}) or a "
                f"chain file's path; got {args.shown(campaign)}",
            )
        if squad is not None and not isinstance(squad, str):
            raise ConfigError(
                "squad",
                f"a squad id, a squad file's path, 'random' or None; got {args.shown(squad)}",
            )
        whole_chain = args.flag("whole_chain", whole_chain)
        chain = C.load_chain(campaign)
        first = chain.missions[0]
        super().__init__(
            mission=first.mission,
            rules=chain.rules,
            opponent=first.deck,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            max_steps=max_steps,
        )
        self._kwargs = dict(
            campaign=campaign,
            squad=squad,
            whole_chain=whole_chain,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            max_steps=max_steps,
        )
        self.campaign = str(campaign)
        self.chain = chain
        self.squad_arg = squad
        self.whole_chain = bool(whole_chain)
        self._episode_whole = self.whole_chain
        self._seed: int | None = None
        self._games: dict[tuple[str, str], tuple[Any, ObservationBuilder]] = {
            (first.mission, first.deck): (self.game, self._builder)
        }
        self.squad: C.CampaignSquad = (
            C.new_campaign(campaign)
            if squad in (None, SQUAD_RANDOM)
            else C.new_campaign(campaign, squad)
        )
        self._use(self.squad)

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start the squad's next mission (module and class docstrings).

        Returns:
            ``(observation, info)``.

        Raises:
            ScenarioError: the squad's campaign is over or the squad is of another campaign.
            ConfigError: a bad seed, options that are not a dict, an option other than
                ``squad`` and ``whole_chain`` (a ``position`` too: a campaign episode starts
                from its squad), a ``whole_chain`` that is not True or False.
            DataError: an invalid squad dict or file (names the field and the line).
        """
        seed = args.seed(seed)
        if isinstance(options, dict) and "position" in options:
            raise ConfigError(
                "options['position']",
                "ambush/Campaign-v0 starts from a squad "
                "(options={'squad': ...}), not from a position",
            )
        options = args.options(options, ("squad", "whole_chain"), "ambush/Campaign-v0")
        gym.Env.reset(self, seed=seed)
        self._seed = seed
        self._episode_whole = args.flag(
            "options['whole_chain']", options.get("whole_chain", self.whole_chain)
        )
        squad = options.get("squad")
        if squad is not None:
            cs = C.coerce_squad(squad)
            if Path(cs.campaign).stem != self.chain.id:
                raise ScenarioError(
                    f"the squad is in campaign {cs.campaign!r}, this env plays {self.chain.id!r}"
                )
        elif self.squad_arg == SQUAD_RANDOM:
            from ambush_env.core.world.squads import generate_squad

            cs = C.new_campaign(
                self.campaign, generate_squad(int(self.np_random.integers(2**31 - 1)))
            )
        elif self.squad_arg is not None:
            cs = C.new_campaign(self.campaign, self.squad_arg)
        else:
            cs = C.new_campaign(self.campaign)
        cs = self._skip_forfeits(cs)
        if cs.next >= len(self.chain.missions):
            raise ScenarioError(
                f"campaign {self.chain.id!r} is over for this squad: all "
                f"{len(self.chain.missions)} missions played"
            )
        self._steps = 0
        self._illegal_streak = 0
        events = self._start(cs)
        info = self._info(events, {}, False)
        info["squad"] = cs.to_dict()
        self._tag(info)
        return self._shown((self._obs_copy(), info))

    def step(self, action):
        """One US decision (:meth:`AmbushEnv.step`); a mission's end carries the squad on."""
        obs, reward, terminated, truncated, info = super().step(action)
        if not terminated:
            self._tag(info)
            return obs, reward, terminated, truncated, info
        g = self.game
        outcome = C.outcome_of(g, self._squad_in, self._seed)
        done = {
            "mission": self.mission_id,
            "result": outcome.result,
            "vp": outcome.vp,
            "end_reason": g.state.end_reason,
            "stats": g.stats(),
        }
        cs = self._skip_forfeits(C.advance(self._squad_in, outcome))
        over = cs.next >= len(self.chain.missions)
        if self._episode_whole and not over:
            events = self._start(cs)
            info = self._info(events, info["reward_components"], False)
            obs, terminated = self._obs, False
            truncated = self.max_steps is not None and self._steps >= self.max_steps
            self._needs_reset = truncated
            if truncated:
                info["end_reason"] = END_MAX_STEPS
            self._shown(None)  # "human" mode: the next mission's map
        else:
            self.squad = cs
        info["mission_end"] = done
        info["squad"] = cs.to_dict()
        info["campaign_over"] = over
        self._tag(info)
        return obs, reward, terminated, truncated, info

    # ------------------------------------------------------------------ state
    def get_state(self) -> dict:
        """:meth:`AmbushEnv.get_state` plus ``"campaign"``: the squad going into the mission
        being played, the reset seed and whether the episode plays the whole chain."""
        d = super().get_state()
        d["campaign"] = {
            "squad": self._squad_in.to_dict(),
            "seed": self._seed,
            "whole_chain": self._episode_whole,
        }
        return d

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s dict.

        Raises:
            DataError: a malformed state (names the field).
        """
        from ambush_env.core.model.errors import DataError

        camp = state.get("campaign") if isinstance(state, dict) else None
        if not isinstance(camp, dict) or "squad" not in camp:
            raise DataError(
                "<state>", "campaign", "a campaign state holds the squad ('campaign.squad')"
            )
        cs = C.coerce_squad(camp["squad"])
        self._seed = camp.get("seed")
        self._episode_whole = bool(camp.get("whole_chain", self.whole_chain))
        self._use(cs)
        # AmbushEnv.set_state points the dice at the env's generator again: the missions
        # after this one (a whole chain) start from where this one's dice left it
        super().set_state({k: v for k, v in state.items() if k != "campaign"})

    # ------------------------------------------------------------------ internals
    def _use(self, cs: C.CampaignSquad) -> None:
        """Make the game of ``cs``'s next mission current, with ``cs``'s squad in it (one
        game and observation builder per mission and deck, kept for later resets).

        Raises:
            ScenarioError: ``cs``'s campaign is over, or nobody in it can play.
        """
        link = self.chain.missions[min(cs.next, len(self.chain.missions) - 1)]
        key = (link.mission, link.deck)
        if key in self._games:
            game, builder = self._games[key]
            C.mission_ctx(cs, game.ctx)
        else:
            from ambush_env.core import Game

            game = Game(ctx=C.mission_ctx(cs))
            builder = ObservationBuilder(game)
            self._games[key] = (game, builder)
        self.game, self._builder = game, builder
        self.mission_id = game.mission_id
        self.squad = self._squad_in = cs

    def _start(self, cs: C.CampaignSquad) -> list[dict]:
        """Start ``cs``'s next mission; the dice draw from ``self.np_random``. Returns its
        setup events."""
        self._use(cs)
        events = self.game.reset(rng=self.np_random)
        self._needs_reset = False
        self.reward_scheme.reset(self.game)
        self._builder.reset()
        self._refresh()
        return events

    def _skip_forfeits(self, cs: C.CampaignSquad) -> C.CampaignSquad:
        """``cs`` after the missions nobody in it can play (forfeited ⚙, RULES.md §16)."""
        while cs.next < len(self.chain.missions) and C.mission_squad(cs) is None:
            cs = C.advance(cs, C.forfeit())
        return cs

    def _tag(self, info: dict) -> None:
        info["chain_position"] = self.squad.next
        info["mission"] = self.mission_id
