"""Every probe loses (issue 25, done-when 3; docs/BENCHMARK.md "Probes"): each scripted
degenerate policy of ``agents/probes.py`` plays every shipped mission against every German deck
on 3 seeds, and 20 generated missions, and loses every episode — except that on a mission whose
objective is to leave (``vp.exits: always``) it stays below the win threshold.

The rules that defeat them are the scoring's (docs/RULES.md §15): exits pay only once the
objective is taken, a capture is worth a kill, the objective's zone must be clear of Germans and
its garrison reacts and holds it, entry hexes are never exits; and nothing fires for a probe (the
free snap fire and the throw-out are the soldier's decisions, RULES.md §7, §9). A (probe, mission) pair the rework does not yet
defeat on every seed is listed in :data:`NOT_YET` and runs as a strict xfail: the day it loses
everywhere the test says so and the entry must go.
"""

from __future__ import annotations

import pytest
from probe_play import _env, play_probe

from ambush_env.agents import make_agent
from ambush_env.agents.probes import PROBE_NAMES
from ambush_env.core.world.missions import list_missions, load_mission

DECKS = ("green", "regular", "veteran")
SEEDS = (10000, 10001, 10002)
#: generated missions of the default run: the first 20 held-out mission seeds
PROCEDURAL_SEEDS = tuple(range(1_000_000, 1_000_020))

#: (probe, mission) pairs that do not yet lose on every deck x seed of :data:`SEEDS` (issue 25
#: left open): the objective falls to a squad that never fires when its garrison wanders off
NOT_YET: dict[tuple[str, str], str] = {}


def _check(probe: str, mission: str | None, **kw) -> tuple[bool, str]:
    run = play_probe(probe, mission, **kw)
    if mission is not None and load_mission(mission).vp.exits == "always":
        win = load_mission(mission).results.win
        return run.vp < win, f"{run.vp} VP (win at {win})"
    return run.result == "loss", f"{run.result} with {run.vp} VP"


@pytest.mark.parametrize("mission", list_missions())
@pytest.mark.parametrize("probe", PROBE_NAMES)
def test_every_probe_loses_every_shipped_mission(probe, mission, request):
    if (probe, mission) in NOT_YET:
        request.applymarker(pytest.mark.xfail(reason=NOT_YET[probe, mission], strict=True))
    bad = []
    for deck in DECKS:
        for seed in SEEDS:
            ok, what = _check(probe, mission, deck=deck, seed=seed)
            if not ok:
                bad.append(f"{deck} seed {seed}: {what}")
    assert not bad, f"{probe} does not lose {mission}: " + "; ".join(bad)


@pytest.mark.parametrize("probe", PROBE_NAMES)
def test_every_probe_loses_generated_missions(probe):
    bad = []
    for k in PROCEDURAL_SEEDS:
        ok, what = _check(probe, None, deck="regular", seed=k, mission_seed=k)
        if not ok:
            bad.append(f"mission seed {k}: {what}")
    assert not bad, f"{probe} does not lose generated missions: " + "; ".join(bad)


# ---------------------------------------------------------------------- 200 generated missions
#: the slow run's generated missions (issue 25, done-when 3): the first 200 held-out seeds
SLOW_SEEDS = tuple(range(1_000_000, 1_000_200))


#: generated missions of :data:`SLOW_SEEDS` a probe does not lose, by probe: none. Before the
#: free snap fire and the throw-out became the soldier's decisions (RULES.md §7, §9) rush won 4
#: of the 200 when that automatic shot felled the garrison; before an outnumbered garrison held
#: by fire (docs/RULES.md §15 "The garrison reacts") it won mission 1000101, where both garrison
#: men charged the rushers' stack and died on the strike back. The slow test asserts exactly this
#: map, so a change either way shows
KNOWN_GENERATED: dict[str, frozenset[int]] = {}


@pytest.mark.slow
@pytest.mark.parametrize("probe", PROBE_NAMES)
def test_every_probe_loses_200_generated_missions(probe):
    bad: dict[int, str] = {}
    for k in SLOW_SEEDS:
        ok, what = _check(probe, None, deck="regular", seed=k, mission_seed=k)
        if not ok:
            bad[k] = what
    known = KNOWN_GENERATED.get(probe, frozenset())
    assert set(bad) == known, (
        f"{probe} does not lose {len(bad)} of 200 generated missions (known: {sorted(known)}): "
        + "; ".join(f"mission seed {k}: {w}" for k, w in bad.items())
    )


def _heuristic_wins(mission_seeds: tuple[int, ...]) -> int:
    """Wins (win or decisive win) of the heuristic agent on generated missions, regular deck,
    each played from reset seed = mission seed."""
    env = _env(None, "regular", "standard")
    agent = make_agent("heuristic")
    wins = 0
    for k in mission_seeds:
        obs, info = env.reset(seed=k, options={"mission_seed": k})
        agent.reset(env, k)
        terminated = truncated = False
        while not (terminated or truncated):
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info, env))
        wins += terminated and info.get("result") in ("win", "decisive_win")
    return wins


@pytest.mark.slow
def test_the_heuristic_still_wins_a_fifth_of_200_generated_missions():
    """The rework leaves generated missions winnable (issue 25, done-when 3): the scripted
    doctrine wins at least 20 % of 200 held-out generated missions (regular deck)."""
    wins = _heuristic_wins(SLOW_SEEDS)
    assert wins >= 0.2 * len(SLOW_SEEDS), f"the heuristic won {wins} of {len(SLOW_SEEDS)}"


def test_the_heuristic_wins_some_of_10_generated_missions():
    """The default run's small version of the slow test above: at least 2 of the first 10."""
    assert _heuristic_wins(SLOW_SEEDS[:10]) >= 2
