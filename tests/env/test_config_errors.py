"""Typed errors for bad arguments and the smaller contract breaks of issue 23 (done-when 5
and 8; docs/OBSERVATION.md "Errors" and "Reset options"): each test here failed before its
fix (a bare ValueError or TypeError, an argument silently accepted, a position of another
mission silently played, the German seat's result None, ``aec_env`` without PettingZoo a
bare ModuleNotFoundError, a forced 85 read as a d6)."""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

import ambush_env
from ambush_env.core import Game
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import (
    AmbushError,
    ConfigError,
    DataError,
    DiceExhaustedError,
    MissingExtraError,
    ScenarioError,
)
from ambush_env.env.ambush_env import AmbushEnv
from ambush_env.env.campaign_env import CampaignEnv


def _config_error(call, argument: str) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        call()
    assert type(e.value) is ConfigError and e.value.argument == argument, str(e.value)
    assert str(e.value).startswith(f"{argument}: ")
    return e.value


def test_config_error_is_an_ambush_value_error_that_pickles():
    e = ConfigError("max_steps", "a number of steps or None (an integer >= 1); got 0 (int)")
    assert isinstance(e, AmbushError) and isinstance(e, ValueError)
    back = pickle.loads(pickle.dumps(e))
    assert (back.argument, back.problem, str(back)) == (e.argument, e.problem, str(e))
    assert ambush_env.ConfigError is ConfigError and ambush_env.DataError is DataError


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"render_mode": "fancy"}, "render_mode"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"max_steps": 0}, "max_steps"),
        ({"max_steps": "x"}, "max_steps"),
        ({"max_steps": 2.5}, "max_steps"),
        ({"max_steps": True}, "max_steps"),
        ({"procedural": "yes"}, "procedural"),
        ({"procedural": True, "mission_seeds": "test"}, "mission_seeds"),
        ({"mission_seeds": "held_out"}, "mission_seeds"),  # a shipped mission draws no seeds
        ({"rules": "d99"}, "rules"),
        ({"reward": "bogus"}, "reward"),
        ({"mission": 3}, "mission"),
        ({"opponent": None}, "opponent"),
        ({"missoin": "tank_hunt"}, "missoin"),  # a misspelt keyword: named, not a TypeError
    ],
)
def test_bad_gymnasium_env_arguments_are_config_errors(kwargs, argument):
    _config_error(lambda: AmbushEnv(**kwargs), argument)


def test_unknown_data_ids_stay_scenario_errors_naming_the_argument():
    with pytest.raises(ScenarioError, match="unknown mission 'nope'"):
        AmbushEnv(mission="nope")
    with pytest.raises(ScenarioError, match="^opponent: unknown deck 'elite'"):
        AmbushEnv(opponent="elite")


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"whole_chain": "maybe"}, "whole_chain"),
        ({"whole_chain": 1}, "whole_chain"),
        ({"campaign": 3}, "campaign"),
        ({"squad": 7}, "squad"),
        ({"max_steps": 0}, "max_steps"),
        ({"seed": 3}, "seed"),
    ],
)
def test_bad_campaign_env_arguments_are_config_errors(kwargs, argument):
    _config_error(lambda: CampaignEnv(**kwargs), argument)


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"max_steps": "x"}, "max_steps"),  # was a TypeError at the first step
        ({"max_steps": 0}, "max_steps"),  # was accepted
        ({"max_steps": -3}, "max_steps"),
        ({"german": "robot"}, "german"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"rules": "d99"}, "rules"),
        ({"reward": "bogus"}, "reward"),
        ({"opponent": 3}, "opponent"),
        ({"mission_seeds": "train"}, "mission_seeds"),
    ],
)
def test_bad_aec_env_arguments_are_config_errors(kwargs, argument):
    pytest.importorskip("pettingzoo")
    _config_error(lambda: ambush_env.aec_env(**kwargs), argument)


@pytest.mark.parametrize(
    "options, argument",
    [
        ("position", "options"),
        ({"mision_seed": 3}, "options['mision_seed']"),
        ({"mission_seed": 3}, "options['mission_seed']"),  # only a procedural env reads it
    ],
)
def test_bad_reset_options_are_config_errors(env, options, argument):
    _config_error(lambda: env.reset(options=options), argument)


@pytest.mark.parametrize("seed", [-1, 2.5, "7", True])
def test_a_bad_reset_seed_is_a_config_error(env, seed):
    _config_error(lambda: env.reset(seed=seed), "seed")


@pytest.mark.parametrize("k", [-1, 1.5, "3", True])
def test_a_bad_mission_seed_option_is_a_config_error(k):
    env = AmbushEnv(procedural=True)
    _config_error(lambda: env.reset(options={"mission_seed": k}), "options['mission_seed']")
    _config_error(
        lambda: env.reset(options={"mission_seed": 4, "position": {"mission": "x"}}), "options"
    )


def test_campaign_reset_options_are_checked():
    env = CampaignEnv()
    _config_error(lambda: env.reset(options={"whole_chain": "maybe"}), "options['whole_chain']")
    _config_error(lambda: env.reset(options={"bogus": 1}), "options['bogus']")
    _config_error(lambda: env.reset(options={"position": {}}), "options['position']")


# -- a position of another mission at reset (done-when 8) ---------------------------------------
def _tank_hunt_position() -> dict:
    return Game("tank_hunt", seed=2).position()


@pytest.mark.parametrize(
    "make",
    [
        lambda: AmbushEnv(mission="farm_assault"),
        lambda: __import__("gymnasium").make("ambush/FarmAssault-v4").unwrapped,
    ],
)
def test_an_env_of_one_mission_refuses_a_position_of_another(make):
    """It played tank_hunt under a farm_assault env (the env id and the game disagreed)."""
    env = make()
    err = _config_error(
        lambda: env.reset(options={"position": _tank_hunt_position()}),
        "options['position'].mission",
    )
    assert "'tank_hunt'" in err.problem and "'farm_assault'" in err.problem
    assert env.mission_id == "farm_assault"
    _obs, info = env.reset(seed=0)  # the env is unharmed
    assert env.game.mission_id == "farm_assault" and info["action_mask"].any()


def test_an_env_takes_a_position_of_its_own_mission_and_the_any_mission_env_any():
    p = _tank_hunt_position()
    own = AmbushEnv(mission="tank_hunt")
    own.reset(options={"position": p})
    assert own.game.position() == p
    anyone = AmbushEnv()  # ambush/Ambush-v4 without mission=: any mission
    anyone.reset(options={"position": p})
    assert anyone.mission_id == "tank_hunt" and anyone.game.position() == p
    anyone.reset(seed=0)  # then the reference mission again
    assert anyone.mission_id == "farm_assault"


def test_the_procedural_env_takes_generated_missions_only():
    env = AmbushEnv(procedural=True)
    _config_error(
        lambda: env.reset(options={"position": _tank_hunt_position()}),
        "options['position'].mission",
    )
    src = AmbushEnv(procedural=True)
    src.reset(seed=0, options={"mission_seed": 77})
    p = src.get_state()
    _obs, info = env.reset(options={"position": p})
    assert info["mission_seed"] == 77 and env.game.position() == src.game.position()
    _obs, info = env.reset(seed=5, options={"mission_seed": 12})  # its own generation again
    assert info["mission_seed"] == 12
    fresh = AmbushEnv(procedural=True)
    fresh.reset(seed=5, options={"mission_seed": 12})
    assert env.game.position() == fresh.game.position()


def test_the_gymnasium_env_refuses_a_position_whose_germans_are_an_agent(env):
    """It handed the German decisions to the US agent (the cards never played)."""
    p = Game("farm_assault", seed=1, german="agent").position()
    _config_error(lambda: env.reset(options={"position": p}), "options['position'].german")


def test_aec_env_refuses_a_position_of_another_mission_or_german_mode():
    pytest.importorskip("pettingzoo")
    env = ambush_env.aec_env(mission="farm_assault", german="agent")
    p = Game("tank_hunt", seed=2, german="agent").position()
    _config_error(lambda: env.reset(options={"position": p}), "options['position'].mission")
    q = Game("farm_assault", seed=2, german="cards").position()
    _config_error(lambda: env.reset(options={"position": q}), "options['position'].german")
    anyone = ambush_env.aec_env(german="agent")
    anyone.reset(options={"position": p})
    assert anyone.game.mission_id == "tank_hunt"
    _config_error(lambda: anyone.reset(seed="x"), "seed")


# -- the German seat's result (done-when 8) -------------------------------------------------------
def test_each_seat_of_a_two_sided_game_gets_its_own_result():
    """It was None for the German seat: now the result seen from its side, the sign of its
    reward's result term (aec_env module docstring)."""
    pytest.importorskip("pettingzoo")
    from ambush_env.env.aec_env import GERMAN_RESULT

    assert GERMAN_RESULT == {"loss": "win", "draw": "draw", "win": "loss", "decisive_win": "loss"}
    env = ambush_env.aec_env(mission="farm_assault", german="agent")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    final: dict[str, dict] = {}
    for agent in env.agent_iter(max_iter=30_000):
        _obs, _r, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = dict(info)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert env.game.over and set(final) == {"us", "german"}
    us = final["us"]["result"]
    assert us in ("loss", "draw", "win", "decisive_win") and final["us"]["us_result"] == us
    assert final["german"]["result"] == GERMAN_RESULT[us] and final["german"]["us_result"] == us


# -- aec_env without PettingZoo (done-when 8) -----------------------------------------------------
def test_aec_env_without_pettingzoo_is_a_typed_error_naming_the_extra(monkeypatch):
    """It was a bare ModuleNotFoundError from inside the package."""
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # an import of it fails
    monkeypatch.delitem(sys.modules, "ambush_env.env.aec_env", raising=False)
    make = ambush_env.aec_env  # the name resolves (``from ambush_env import *`` works)
    with pytest.raises(MissingExtraError) as e:
        make(mission="farm_assault")
    assert 'pip install "ambush_env[multi]"' in str(e.value) and e.value.name == "pettingzoo"
    assert isinstance(e.value, AmbushError) and isinstance(e.value, ImportError)
    with pytest.raises(MissingExtraError):
        __import__("ambush_env.env.aec_env")
    monkeypatch.delitem(sys.modules, "ambush_env.env.aec_env", raising=False)


# -- forced rolls: every die kind's range (done-when 5) ------------------------------------------
@pytest.mark.parametrize("bad", [True, 2.5, "3", None, -1, 101, [4]])
def test_a_forced_roll_is_checked_where_it_enters(bad):
    g = Game("farm_assault", seed=0)
    err = _config_error(lambda: g.force_rolls([3, bad]), "rolls[1]")
    assert "0-100" in err.problem
    _config_error(lambda: Dice().force([bad]), "rolls[0]")
    _config_error(lambda: g.force_rolls(7), "rolls")


@pytest.mark.parametrize(
    "die, low, high",
    [
        (lambda d: d.d10("US1 fire"), 0, 9),
        (lambda d: d.d100("V1 hit"), 1, 100),
        (lambda d: d.roll(1, 6, "bazooka damage"), 1, 6),  # RULES.md §1: a d6 reads 1-6
        (lambda d: d.roll(2, 10, "2d10 damage"), 1, 10),
        (lambda d: d.choice(3, "which passenger"), 0, 2),
    ],
)
def test_a_forced_roll_outside_its_die_is_refused_on_both_sides_of_the_range(die, low, high):
    """A forced 85 made a bazooka's d6 do 96 (d10 and d100 were checked, dM was not)."""
    for ok in (low, high):
        d = Dice.scripted([ok] * 2)
        assert die(d) in (ok, 2 * ok)
    for bad in (low - 1, high + 1):
        if not 0 <= bad <= 100:
            continue  # refused where it enters (above)
        d = Dice.scripted([bad, bad])
        with pytest.raises(DiceExhaustedError, match=f"{bad} for .* outside {low}-{high}"):
            die(d)
