"""Random play with tanks and crewed German vehicles (issue 11; docs/STYLE.md habit 9): Farm Assault
variants with a US Sherman, a German Panzer IV and Jagdpanther (full and short crews, aware
and not) and a Kübelwagen with a German driver and passengers, played by random legal orders
with ``german="cards"`` and with ``german="agent"`` (random legal orders for both seats).

After every step: the invariants of :mod:`test_random_play` (one place per unit, seats, at
most two vehicles ending in a hex, ...) and the tank ones: a tank's unit sits in its tank's
hex, in its driver's seat, rated by ``crew_ratings[crew]`` (crew 0: crew 1's, ⚙ ``crew_rating``
clamps); crew within 0..the type's occupants; a disabled or crewless tank never acts;
``turn.cp_left`` never below −1 (not yet counted) and each task at most once a turn. At
intervals: every legal order is accepted by ``step``, its text parses back to it, a sample of
the others is refused; the position round-trips exactly (also through JSON); ``clone()``
plays identically to the original under the same orders; the env's observation of the
position lies in its space.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_random_play import check_invariants

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.types import Side, Status
from ambush_env.core.world.missions import Mission, load_mission
from ambush_env.core.world.vehicle_data import crew_rating, load_vehicle_data

# Farm Assault with tanks: the road runs along row 8, the US squad enters at A6-A10.
VARIANTS: dict[str, dict[str, Any]] = {
    # a Sherman with the squad, the jeep; a Panzer IV aware down the road, the parked Kübelwagen
    "sherman_vs_panzer": {
        "us_vehicles": [
            {"vehicle": "jeep", "hex": "A8", "facing": "NE"},
            {"vehicle": "sherman", "hex": "B8", "facing": "NE"},
        ],
        "german_vehicles": [
            {"vehicle": "kubelwagen", "hex": "K8", "facing": "SE"},
            {"vehicle": "panzer_iv", "hex": "O8", "facing": "NW", "aware": True},
        ],
    },
    # a Kübelwagen with a driver and two passengers, a Jagdpanther on the eastern road
    "kubel_and_jagdpanther": {
        "us_vehicles": [{"vehicle": "sherman", "hex": "C9", "facing": "N"}],
        "german_vehicles": [
            {
                "vehicle": "kubelwagen",
                "hex": "K8",
                "facing": "SW",
                "driver": "rifleman",
                "passengers": ["nco_smg", "rifleman"],
                "aware": True,
            },
            {"vehicle": "jagdpanther", "hex": "P9", "facing": "NW", "aware": True},
        ],
    },
    # short crews: an unaware Panzer IV with 3, an aware Jagdpanther with 2
    "short_crews": {
        "us_vehicles": [{"vehicle": "jeep", "hex": "A8", "facing": "NE"}],
        "german_vehicles": [
            {"vehicle": "panzer_iv", "hex": "I9", "facing": "SW", "crew": 3},
            {"vehicle": "jagdpanther", "hex": "Q8", "facing": "N", "aware": True, "crew": 2},
        ],
    },
    # a brawl at close range from the first pulse: two tanks and a crewed car, all aware
    "brawl": {
        "us_vehicles": [{"vehicle": "sherman", "hex": "E8", "facing": "NE"}],
        "german_vehicles": [
            {"vehicle": "panzer_iv", "hex": "H8", "facing": "SW", "aware": True},
            {"vehicle": "jagdpanther", "hex": "H9", "facing": "NW", "aware": True, "crew": 4},
            {
                "vehicle": "kubelwagen",
                "hex": "G7",
                "facing": "SW",
                "driver": "nco_smg",
                "passengers": ["rifleman"],
                "aware": True,
            },
        ],
    },
}

# orders that touch vehicles: taken half the time one is legal, so that tanks act often
_VEHICLE_WORDS = (
    "CANNON",
    "BOW",
    "COAX",
    "LOAD_CANNON",
    "OPEN",
    "DRIVE",
    "END_DRIVE",
    "FIRE_AIMED_V",
    "FIRE_SNAP_V",
    "GRENADE_INTO",
    "BOARD",
    "LOAD",
    "SELECT",
)
_VEHICLE_KINDS = frozenset(k for k in O.OrderKind if k.name.startswith(_VEHICLE_WORDS))

_MISSIONS: dict[str, Mission] = {}
_GAMES: dict[tuple[str, str], Game] = {}


def mission(name: str) -> Mission:
    if name not in _MISSIONS:
        raw = load_mission("farm_assault").model_dump(mode="json", by_alias=True)
        raw.update(VARIANTS[name], id=f"tank_play_{name}")
        _MISSIONS[name] = Mission.model_validate(raw)
    return _MISSIONS[name]


def new_game(name: str, seed: int, german: str) -> Game:
    """A game of the variant (its context built once and shared)."""
    key = (name, german)
    if key not in _GAMES:
        _GAMES[key] = Game(mission(name), seed=seed, german=german)
    g = Game(ctx=_GAMES[key].ctx, seed=seed, german=german)
    g._mission_ref = _GAMES[key]._mission_ref
    return g


def check_tanks(g: Game, agent: bool) -> None:
    st = g.state
    units, vehicles = st.units, st.vehicles
    types = load_vehicle_data().vehicles
    for v in vehicles:
        if types[v.type].kind != "tank":
            assert v.unit < 0 and v.crew == 0, v
            continue
        u = units[v.unit]
        assert (u.role, u.vehicle, u.side, u.name) == ("tank", v.vid, v.side, v.name), (v, u)
        assert v.driver == u.uid and v.passengers == [] and u.hex == v.hex, (v, u)
        assert 0 <= v.crew <= types[v.type].occupants, v
        r = crew_rating(v.crew)  # crew 0: crew 1's ⚙
        assert (u.IN, u.PC, u.WS, u.DS) == (r.IN, r.PC, r.WS, r.DS), (v, u)
        if v.disabled or v.crew == 0 or v.hex < 0:
            assert u.status != Status.ACTIVE, (v, u)
        assert set(v.lost) <= {"cannon", "coax", "bow"} and set(v.jammed_mgs) <= {"coax", "bow"}
    t = st.turn
    assert t.cp_left >= -1, t
    assert len(t.tasks) == len(set(t.tasks)), t
    if t.uid >= 0:
        u = units[t.uid]
        assert u.status == Status.ACTIVE and u.hex >= 0, u
        if u.role == "tank":
            v = vehicles[u.vehicle]
            assert not v.disabled and v.crew > 0, (u, v)
            assert t.cp_left <= v.crew, (t, v)
        assert agent or u.side == Side.US, u


def check_mask_and_texts(g: Game, scratch: Game, rng: random.Random) -> None:
    """Every legal order reads back as itself and is accepted by ``step``; a sample of the
    others is refused."""
    legal = g.legal_actions()
    for a in legal:
        assert g.parse_order(g.describe_action(a)) == a, g.describe_action(a)
    saved = g.position()
    for a in legal:
        scratch.set_state(saved)
        scratch.step(a)
    legal_set = set(legal)
    for a in [a for a in rng.sample(range(O.N_ORDERS), 40) if a not in legal_set][:10]:
        scratch.set_state(saved)
        with pytest.raises(IllegalActionError):
            scratch.step(a)


def check_round_trip(g: Game) -> None:
    p = g.position()
    assert Game.from_position(p, ctx=g.ctx).position() == p
    assert Game.from_position(json.loads(json.dumps(p)), ctx=g.ctx).position() == p


def check_clone(g: Game, seed: int, steps: int = 20) -> int:
    """A clone and the original take the same orders and give the same events; returns the
    steps played."""
    c = g.clone()
    r1, r2 = random.Random(seed), random.Random(seed)
    n = 0
    while n < steps and not g.over:
        assert c.legal_actions() == g.legal_actions()
        a, b = r1.choice(g.legal_actions()), r2.choice(c.legal_actions())
        assert a == b and c.step(b) == g.step(a)
        n += 1
    assert c.position() == g.position()
    return n


_ENV: list[Any] = []


def check_env_observation(g: Game) -> None:
    """The env started from this position gives an observation inside its space."""
    if g.german != "cards":
        return
    if not _ENV:
        from ambush_env.env.ambush_env import AmbushEnv

        _ENV.append(AmbushEnv())  # the any-mission env: it takes a position of every mission
    env = _ENV[0]
    obs, info = env.reset(options={"position": g.position()})
    assert env.observation_space.contains(obs)
    assert sorted(int(a) for a in info["action_mask"].nonzero()[0]) == sorted(g.legal_actions())


def play(name: str, seed: int, german: str, *, steps: int, every: int) -> Game:
    """Random legal play for ``steps`` steps (or to the end) with every check."""
    agent = german == "agent"
    g = new_game(name, seed, german)
    scratch = new_game(name, seed, german)
    rng = random.Random(seed)
    n = 0
    while not g.over and n < steps:
        check_invariants(g, agent=agent)
        check_tanks(g, agent)
        if n % every == 0:
            check_mask_and_texts(g, scratch, rng)
            check_round_trip(g)
        if n % (every * 3) == every // 2:
            check_env_observation(g)
            n += check_clone(g, seed * 7919 + n)
            continue
        legal = g.legal_actions()
        veh = [a for a in legal if O.decode(a)[0] in _VEHICLE_KINDS]
        g.step(rng.choice(veh) if veh and rng.random() < 0.5 else rng.choice(legal))
        n += 1
    check_invariants(g, agent=agent)
    check_tanks(g, agent)
    return g


@pytest.mark.parametrize("german", ["cards", "agent"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_tank_play_invariants(name, german):
    """A short random game of each variant, both German modes, every check along the way."""
    play(name, 1, german, steps=120, every=20)


@pytest.mark.slow
@pytest.mark.parametrize("german", ["cards", "agent"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("seed", range(10))
def test_tank_play_invariants_long(name, german, seed):
    """Whole random games (to the mission's end), every check every 15 steps."""
    g = play(name, 100 + seed, german, steps=4000, every=15)
    assert g.over
