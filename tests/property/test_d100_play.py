"""Random play under ``rules="d100"`` (issue 12; seed 003): Farm Assault variants with tanks,
crewed German cars and the d100 tank-hunting section (``configs/squads/tank_hunters_d100``:
flamethrower, anti-tank rifle, satchel, sticky grenades, pole charge, Molotovs), played by
random legal orders, the special attacks taken whenever one is legal.

After every step: the invariants of :mod:`test_random_play` and :mod:`test_tank_play`, and
the d100 ones (Base HP within 0..the type's, armour loss ≥ 0, MPA quarters 1..4, a destroyed
component named on the type's table, a vehicle at 0 HP disabled). At intervals: every legal
order is accepted by ``step`` and reads back from its text, a sample of the others refused;
the position (with its d100 keys) round-trips; a clone plays identically.
"""

from __future__ import annotations

import random

import pytest
from test_random_play import check_invariants
from test_tank_play import (
    VARIANTS,
    check_clone,
    check_mask_and_texts,
    check_round_trip,
    check_tanks,
)

from ambush_env.core import Game
from ambush_env.core.combat import d100_attacks
from ambush_env.core.model import orders as O
from ambush_env.core.rules import d100 as D
from ambush_env.core.world.missions import Mission, load_mission

SQUAD = "tank_hunters_d100"  # the shipped d100 squad (configs/squads/)
_CTX: dict[str, Game] = {}


def new_game(name: str, seed: int, german: str) -> Game:
    key = f"{name}/{german}"
    if key not in _CTX:
        raw = load_mission("farm_assault").model_dump(mode="json", by_alias=True)
        raw.update(VARIANTS[name], id=f"d100_play_{name}", squad=SQUAD)
        _CTX[key] = Game(Mission.model_validate(raw), rules="d100", seed=seed, german=german)
    g = Game(ctx=_CTX[key].ctx, seed=seed, german=german)
    g._mission_ref = _CTX[key]._mission_ref
    return g


def check_d100(g: Game) -> None:
    for v in g.state.vehicles:
        s = D.stats(v)
        assert (
            -1 <= v.hp <= s.hp
            and all(x >= 0 for x in v.armour_loss.values())
            and 1 <= v.mpa_quarters <= 4
        ), v
        names = {r.component for r in D.data().tables[s.table]}
        assert set(v.destroyed) <= names and set(v.component_damage) <= names, v
        if v.hp == 0:
            assert v.disabled, v


def play(name: str, seed: int, german: str, *, steps: int, every: int) -> tuple[Game, int]:
    agent = german == "agent"
    g = new_game(name, seed, german)
    scratch = new_game(name, seed, german)
    rng = random.Random(seed)
    specials = n = 0
    while not g.over and n < steps:
        check_invariants(g, agent=agent)
        check_tanks(g, agent)
        check_d100(g)
        if n % every == 0:
            check_mask_and_texts(g, scratch, rng)
            check_round_trip(g)
        if n % (every * 3) == every // 2:
            n += check_clone(g, seed * 7919 + n)
            continue
        legal = g.legal_actions()
        special = [a for a in legal if O.decode(a)[0] in d100_attacks.KINDS]
        fire_v = [
            a
            for a in legal
            if O.decode(a)[0] in (O.OrderKind.FIRE_AIMED_VEHICLE, O.OrderKind.DRIVE)
        ]
        pick = special or (fire_v if fire_v and rng.random() < 0.5 else legal)
        a = rng.choice(pick)
        specials += a in special
        g.step(a)
        n += 1
    check_invariants(g, agent=agent)
    check_d100(g)
    return g, specials


@pytest.mark.parametrize("german", ["cards", "agent"])
@pytest.mark.parametrize("name", ["brawl", "sherman_vs_panzer"])
def test_d100_play_invariants(name, german):
    """A short random d100 game of two tank variants, both German modes, every check."""
    play(name, 3, german, steps=150, every=25)


def test_d100_play_reaches_the_special_attacks():
    """Across a few seeds of the brawl the section gets to use seed 003's special attacks."""
    total = sum(play("brawl", s, "cards", steps=300, every=100)[1] for s in range(4))
    assert total >= 3


@pytest.mark.slow
@pytest.mark.parametrize("german", ["cards", "agent"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("seed", range(6))
def test_d100_play_invariants_long(name, german, seed):
    g, _ = play(name, 200 + seed, german, steps=4000, every=20)
    assert g.over
