"""``ambush/Campaign-v0`` (RULES.md §16, issue 13 done-when 6): both env checkers, replays for
the same squad and seed, the squad in and out through reset options and info, the whole chain
as one episode, state and pickling, and ``ambush campaign`` on the command line."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest

from ambush_env.core.model.errors import ConfigError, DataError, ScenarioError
from ambush_env.core.play import campaign as C
from ambush_env.env.ambush_env import AmbushEnv
from ambush_env.env.campaign_env import CampaignEnv
from ambush_env.env.registration import CAMPAIGN_ID


def play(env, seed, options=None, rng_seed=0, limit=None):
    """Random legal play to the episode's end: the trace (obs, rewards, infos' squads)."""
    obs, info = env.reset(seed=seed, options=options)
    rng = np.random.default_rng(rng_seed)
    trace = [(obs, 0.0, info.get("squad"))]
    ends = []
    n = 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        trace.append((obs, r, info.get("squad")))
        if "mission_end" in info:
            ends.append(info["mission_end"])
        n += 1
        if term or trunc or (limit is not None and n >= limit):
            return trace, info, ends


def same(t1, t2) -> None:
    assert len(t1) == len(t2)
    for (o1, r1, s1), (o2, r2, s2) in zip(t1, t2, strict=True):
        assert r1 == r2 and s1 == s2
        for k in o1:
            np.testing.assert_array_equal(o1[k], o2[k])


@pytest.mark.parametrize("kwargs", [{}, {"whole_chain": True}, {"squad": "random"}])
def test_gymnasium_check_env(kwargs):
    from gymnasium.utils.env_checker import check_env

    check_env(gymnasium.make(CAMPAIGN_ID, **kwargs).unwrapped)


@pytest.mark.parametrize("kwargs", [{}, {"whole_chain": True}])
def test_sb3_check_env(kwargs):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    check_env(gymnasium.make(CAMPAIGN_ID, **kwargs), warn=True)


def test_spaces_are_the_mission_envs():
    env, base = CampaignEnv(), AmbushEnv()
    assert env.observation_space == base.observation_space
    assert env.action_space == base.action_space


def test_same_squad_and_seed_replay_identically():
    sq = C.new_campaign("first_push")
    sq = C.advance(
        sq,
        C.Outcome(
            "win", fates={s.id: ("incapacitated" if s.id == 3 else "fit") for s in sq.soldiers}
        ),
    )
    t1, i1, _ = play(CampaignEnv(), 4, {"squad": sq.to_dict()})
    t2, i2, _ = play(CampaignEnv(), 4, {"squad": sq.to_dict()})
    same(t1, t2)
    assert i1["squad"] == i2["squad"] and i1["mission"] == "jeep_run"
    t3, _, _ = play(CampaignEnv(), 5, {"squad": sq.to_dict()})
    assert any(
        not np.array_equal(a[0]["board"], b[0]["board"]) for a, b in zip(t1, t3, strict=False)
    ) or len(t1) != len(t3)


def test_the_squad_goes_in_through_options_and_comes_out_in_info(tmp_path):
    """The squad's next mission is played with the fielded soldiers (an incapacitated one
    misses it); the updated squad at the end is advance(squad, outcome of the game)."""
    sq = C.new_campaign("first_push")
    sq = C.advance(
        sq,
        C.Outcome(
            "loss", fates={s.id: ("incapacitated" if s.id == 2 else "fit") for s in sq.soldiers}
        ),
    )
    path = C.save_squad_file(sq, tmp_path / "s.yaml")
    env = CampaignEnv()
    obs, info = env.reset(seed=0, options={"squad": str(path)})
    assert info["squad"] == sq.to_dict() and info["mission"] == "jeep_run"
    assert info["chain_position"] == 1
    assert len(env.game.us_units()) == 7 and obs["units"][7].sum() == 0
    _trace, info, ends = play(env, 0, {"squad": sq})
    assert ends and ends[0]["mission"] == "jeep_run" and info["campaign_over"] is False
    expected = C.advance(sq, C.outcome_of(env.game, sq, 0))
    assert info["squad"] == expected.to_dict() == env.squad.to_dict()
    # the next reset carries on from it: the third mission
    _obs, info = env.reset(seed=1, options={"squad": info["squad"]})
    assert info["mission"] == "tank_hunt" and info["chain_position"] == 2


def test_default_squad_is_fresh_each_reset_and_random_is_from_the_seed():
    env = CampaignEnv()
    _o, i1 = env.reset(seed=0)
    _o, i2 = env.reset(seed=9)
    assert i1["squad"] == i2["squad"] == C.new_campaign("first_push").to_dict()
    rnd = CampaignEnv(squad="random")
    _o, a = rnd.reset(seed=3)
    _o, b = rnd.reset(seed=3)
    _o, c = rnd.reset(seed=4)
    assert a["squad"] == b["squad"] != c["squad"]


def test_whole_chain_is_one_episode_and_replays():
    t1, info, ends = play(CampaignEnv(whole_chain=True), 2)
    assert [e["mission"] for e in ends] == ["farm_assault", "jeep_run", "tank_hunt"]
    assert info["campaign_over"] is True and info["squad"]["next"] == 3
    assert [h["result"] for h in info["squad"]["history"]] == [e["result"] for e in ends]
    t2, _info, _ends = play(CampaignEnv(), 2, {"whole_chain": True})
    same(t1, t2)


def test_whole_chain_step_that_ends_a_mission_starts_the_next():
    env = CampaignEnv(whole_chain=True)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    while True:
        legal = np.flatnonzero(info["action_mask"])
        obs, _r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if "mission_end" in info:
            break
    assert not term and not trunc and info["mission"] == "jeep_run"
    assert info["action_mask"].any() and info["squad"]["next"] == 1
    assert env.observation_space.contains(obs)


def test_refusals():
    env = CampaignEnv()
    done = C.CampaignSquad(**C.new_campaign("first_push").to_dict())
    for _ in range(3):
        done = C.advance(done, C.Outcome("win", fates={s.id: "fit" for s in done.soldiers}))
    with pytest.raises(ScenarioError, match="over"):
        env.reset(seed=0, options={"squad": done.to_dict()})
    with pytest.raises(ConfigError, match=r"^options\['position'\]: .*squad"):
        env.reset(seed=0, options={"position": {}})
    with pytest.raises(DataError) as e:
        env.reset(seed=0, options={"squad": {"campaign": "first_push"}})
    assert "<squad>" in str(e.value)


def test_state_round_trip_and_pickle_continue_identically():
    sq = C.advance(
        C.new_campaign("first_push"),
        C.Outcome("win", fates={s.id: "fit" for s in C.new_campaign("first_push").soldiers}),
    )
    env = CampaignEnv()
    play(env, 6, {"squad": sq}, limit=40)
    twin = pickle.loads(pickle.dumps(env))
    other = CampaignEnv()
    other.reset(seed=0)
    other.set_state(env.get_state())
    assert other.mission_id == twin.mission_id == env.mission_id == "jeep_run"
    rng = np.random.default_rng(1)
    for _ in range(60):
        legal = env.legal_actions()
        assert legal == twin.legal_actions() == other.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        r = [e.step(a) for e in (env, twin, other)]
        for k in r[0][0]:
            np.testing.assert_array_equal(r[0][0][k], r[1][0][k])
            np.testing.assert_array_equal(r[0][0][k], r[2][0][k])
        assert r[0][1:4] == r[1][1:4] == r[2][1:4]
        if r[0][2] or r[0][3]:
            assert r[0][4]["squad"] == r[1][4]["squad"] == r[2][4]["squad"]
            break


def test_cli_campaign_starts_saves_and_resumes(tmp_path, capsys):
    from ambush_env.cli import main

    path = tmp_path / "squad.yaml"
    assert (
        main(
            [
                "campaign",
                "--campaign",
                "first_push",
                "--squad-file",
                str(path),
                "--agent",
                "random",
                "--seed",
                "3",
            ]
        )
        == 0
    )
    first = C.read_squad_file(path)
    assert first.next == 1 and first.history[0].seed == 3
    out = capsys.readouterr().out
    assert "mission 1/3 farm_assault" in out and f"saved {path}" in out
    assert (
        main(["campaign", "--squad-file", str(path), "--agent", "random", "--seed", "3", "--all"])
        == 0
    )
    done = C.read_squad_file(path)
    assert done.next == 3 and [h.seed for h in done.history] == [3, 4, 5]
    assert "is over" in capsys.readouterr().out
    # the same start, seed and agent give the same campaign
    again = tmp_path / "again.yaml"
    main(
        [
            "campaign",
            "--campaign",
            "first_push",
            "--squad-file",
            str(again),
            "--agent",
            "random",
            "--seed",
            "3",
            "--all",
        ]
    )
    assert C.read_squad_file(again) == done
    # errors: no file and no campaign; a squad file of another campaign
    assert main(["campaign", "--squad-file", str(tmp_path / "none.yaml")]) == 2
    path.write_text(path.read_text(encoding="utf-8")[:200], encoding="utf-8")
    assert main(["campaign", "--squad-file", str(path)]) == 2
    assert "line" in capsys.readouterr().err


def test_reset_forfeits_a_mission_nobody_can_play():
    """⚙ Everyone incapacitated in mission 1: mission 2 is forfeited on the way (a loss,
    nobody earns), and the episode plays mission 3 with everyone back."""
    sq = C.new_campaign("first_push")
    sq = C.advance(sq, C.Outcome("win", fates={s.id: "incapacitated" for s in sq.soldiers}))
    env = CampaignEnv()
    _obs, info = env.reset(seed=0, options={"squad": sq.to_dict()})
    assert info["mission"] == "tank_hunt" and info["chain_position"] == 2
    h = info["squad"]["history"][1]
    assert (h["mission"], h["result"], h["fates"]) == ("jeep_run", "loss", {})
    assert all(
        s["missed"] == 1 and not s["out"] and s["xp"] == 4 for s in info["squad"]["soldiers"]
    )
    assert len(env.game.us_units()) == 8


@pytest.mark.parametrize("steps", [0, 300])
def test_a_pickled_whole_chain_continues_identically_through_the_next_missions(steps):
    """Pickled or restored mid-mission (here before the dice drew their first block of rolls,
    or later), the env plays on identically through the next missions of the chain."""
    env = CampaignEnv(whole_chain=True)
    if steps:
        play(env, 2, limit=steps)
    else:
        env.reset(seed=2)
    twin = pickle.loads(pickle.dumps(env))
    restored = CampaignEnv(whole_chain=True)
    restored.reset(seed=0)
    restored.set_state(env.get_state())
    rng = np.random.default_rng(3)
    ends = []
    while True:
        legal = env.legal_actions()
        assert legal == twin.legal_actions() == restored.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        r = [e.step(a) for e in (env, twin, restored)]
        assert r[0][1:4] == r[1][1:4] == r[2][1:4]
        if "mission_end" in r[0][4]:
            ends.append(r[0][4]["mission_end"]["mission"])
            assert r[0][4]["squad"] == r[1][4]["squad"] == r[2][4]["squad"]
        if r[0][2] or r[0][3]:
            break
    assert len(ends) >= 2 and ends[-1] == "tank_hunt"
