"""Random-play property tests of every mission (docs/STYLE.md habit 9): invariants hold after every
step of random legal play, and the legal list is exactly what ``step`` accepts."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import OrderKind
from ambush_env.core.model.types import ARSpace, Phase, Side, Status
from ambush_env.core.world.missions import list_missions

_GAMES: dict[str, tuple[Game, Game]] = {}


def games(mission: str) -> tuple[Game, Game]:
    """A game to play and a scratch game to try orders on (static data loaded once)."""
    if mission not in _GAMES:
        _GAMES[mission] = (Game(mission), Game(mission))
    return _GAMES[mission]


def check_invariants(g: Game, *, agent: bool = False) -> None:
    """The invariants of every step; ``agent``: the Germans are an agent's (a German may be
    the acting unit)."""
    st_ = g.state
    units = st_.units
    # every unit is in exactly one place: on the map with a valid hex, or off it
    for u in units:
        assert u.uid == units.index(u)
        if u.status in (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED, Status.CAPTURED):
            # the fallen carried off the map in a vehicle are the only ones off it
            assert 0 <= u.hex < g.board.n or (u.exited and u.status != Status.ACTIVE), u
        elif u.role == "tank" and u.vehicle >= 0:
            # a disabled tank's unit is removed but stays with its tank (COMMON decision 1:
            # the crew never leaves; vehicles.disable)
            assert u.status == Status.REMOVED and u.hex == st_.vehicles[u.vehicle].hex, u
            assert st_.vehicles[u.vehicle].disabled, u
        else:
            assert u.hex == -1 or u.status == Status.HIDDEN, u
        if u.status != Status.ACTIVE:
            assert u.ar in (ARSpace.INACTIVE, ARSpace.NONE) or u.status == Status.HIDDEN, u
    # contacts are distinct Germans
    assert len(set(st_.contacts)) == len(st_.contacts)
    assert all(units[i].side == Side.GERMAN for i in st_.contacts)
    # at most two vehicles end in a hex (seed 000 p. 30): no vehicle may share a hex with two
    # (a vehicle passing through mid-drive is not ending there; its drive must go on)
    vehicles = st_.vehicles
    t = st_.turn
    passing = (
        t.mode == "drive"
        and not st_.over
        and units[t.uid].vehicle >= 0
        and vehicles[units[t.uid].vehicle].driver == t.uid
    )
    mid = units[t.uid].vehicle if passing else -1
    hexes = [v.hex for v in vehicles if v.hex >= 0 and v.vid != mid]
    assert all(hexes.count(h) <= 2 for h in hexes)
    if mid >= 0 and hexes.count(vehicles[mid].hex) >= 2:
        from ambush_env.core.model.orders import decode

        acts = g.legal_actions()
        assert acts and all(decode(a)[0] != OrderKind.END_DRIVE for a in acts)
    # every rider is in exactly one seat of one vehicle, in its hex; off-map and disabled
    # vehicles carry nobody; no vehicle stands where its type can never be (seed 000 p. 30-31)
    from ambush_env.core.model.types import TERRAIN_NAMES
    from ambush_env.core.vehicles.vehicles import load_vehicle_data, vtype

    costs = load_vehicle_data().move_costs
    for v in vehicles:
        occ = v.occupants
        assert len(occ) == len(set(occ)) <= vtype(v).occupants, v
        if v.unit >= 0:  # a tank: its own unit in the driver's seat, nobody else aboard
            assert occ == [v.unit] and units[v.unit].hex == v.hex, v
        elif v.hex < 0 or v.disabled:
            assert occ == [], v
        else:
            assert costs[TERRAIN_NAMES[g.board.terrain[v.hex]]] is not None, v
        for uid in occ:
            assert units[uid].vehicle == v.vid and units[uid].hex == v.hex, (v, units[uid])
        if v.driver >= 0:  # a captured car may still hold its fallen German driver
            d = units[v.driver]
            assert d.side == v.side or (v.captured and d.status != Status.ACTIVE), v
    for u in units:
        if u.vehicle >= 0:
            assert u.uid in vehicles[u.vehicle].occupants, u
    # the acting unit is an active US soldier; the mask is never empty while the game runs
    if not st_.over:
        assert g.legal_actions()
        a = g.acting_unit()
        if a is not None:
            assert (agent or a.side == Side.US) and a.status == Status.ACTIVE and a.hex >= 0
            if st_.interrupted is not None:  # a free snap or throw-out (RULES.md §7, §9):
                assert a.side == Side.US and st_.turn.mode in ("free_snap", "throw_out")
                assert sorted(O.ORDER_KIND[x] for x in g.legal_actions())[0] == OrderKind.END_TURN
                assert len(g.legal_actions()) == 2  # whatever his AR space: take or decline
            elif st_.phase == Phase.ROUNDS:
                assert a.ar in (ARSpace.TWO_TURN, ARSpace.ONE_TURN)
    else:
        assert g.legal_actions() == []
    # wounded soldiers: MV and port boxes cut (seed 002 p. 26)
    for u in units:
        if u.wounded:
            assert u.MV <= 2 and len(u.equipment) <= u.port_boxes <= 1
    # port boxes hold what fits, by the boxes each item fills (a satchel fills 2)
    from ambush_env.core.rules.carry import boxes_used

    for u in units:
        assert boxes_used(g, u) <= u.port_boxes, u
    # the objective scores once at most, by its kind (core/world/missions.py "Objective kinds"):
    # with its flag, a hold objective only at the end, a demolition at its last charge
    obj = g.mission.objective
    verb = {"take": "taken", "hold": "held", "capture": "captured", "demolish": "destroyed"}
    scored = [why for why, _ in st_.vp_log if why == f"{obj.name} {verb[obj.kind]}"]
    assert len(scored) <= 1 and bool(scored) == ("objective_taken" in st_.flags)
    if obj.kind == "hold" and not st_.over:
        assert not scored
    if obj.kind == "demolish":
        charges = sum(f.startswith(f"{obj.name} charge ") for f in st_.flags)
        assert charges <= obj.charges and bool(scored) == (charges == obj.charges)


@pytest.fixture
def inactive_never_act(monkeypatch):
    """Wrap the German card interpreter and the shot so that an inactive unit acting fails the
    test."""
    from ambush_env.core.play import german
    from ambush_env.core.rules import fire

    real_turn, real_fire = german.choose, fire.fire

    def turn(game, u, legal):
        assert u.status == Status.ACTIVE and u.hex >= 0, f"inactive {u.name} acted"
        assert u.uid in game.state.contacts, f"hidden {u.name} acted"
        return real_turn(game, u, legal)

    def shot(game, shooter_uid, target_uid, **kw):
        s_, t_ = game.state.units[shooter_uid], game.state.units[target_uid]
        assert s_.status == Status.ACTIVE, f"inactive {s_.name} fired"
        assert t_.status == Status.ACTIVE, f"{s_.name} fired at inactive {t_.name}"
        return real_fire(game, shooter_uid, target_uid, **kw)

    from ambush_env.core.vehicles import vehicle_fire

    real_vfire = vehicle_fire.fire_at_vehicle

    def vshot(game, shooter, v, **kw):
        assert shooter.status == Status.ACTIVE, f"inactive {shooter.name} fired"
        assert v.crew > 0 or any(
            game.state.units[o].status == Status.ACTIVE for o in v.occupants
        ), f"{shooter.name} fired at {v.name} with nobody active aboard"
        return real_vfire(game, shooter, v, **kw)

    monkeypatch.setattr(german, "choose", turn)
    monkeypatch.setattr(fire, "fire", shot)
    monkeypatch.setattr(vehicle_fire, "fire_at_vehicle", vshot)


def mask_matches_step(g: Game, scratch: Game, rng: random.Random) -> None:
    """Every legal order is accepted by ``step``; a sample of the others is refused."""
    legal = g.legal_actions()
    saved = g.get_state()
    for a in legal:
        scratch.set_state(saved)
        scratch.step(a)
    legal_set = set(legal)
    others = [a for a in rng.sample(range(O.N_ORDERS), 40) if a not in legal_set]
    for a in others[:10]:
        scratch.set_state(saved)
        with pytest.raises(IllegalActionError):
            scratch.step(a)


@pytest.mark.parametrize("mission", list_missions())
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000))
def test_random_play_invariants(mission, seed, inactive_never_act):
    """Random legal play to the end: invariants after every step; every 25th step the mask
    is checked against what ``step`` accepts."""
    g, scratch = games(mission)
    g.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.over and steps < 3000:
        check_invariants(g)
        if steps % 25 == 0:
            mask_matches_step(g, scratch, rng)
        g.step(rng.choice(g.legal_actions()))
        steps += 1
    check_invariants(g)
    assert g.over, "a mission must end by its own time limit"
    assert g.result >= 0


@pytest.mark.parametrize("mission", list_missions())
def test_same_seed_same_game(mission):
    """docs/API.md determinism: the same seed and orders give the same events."""
    runs = []
    for _ in range(2):
        g = Game(mission)
        g.reset(seed=123)
        rng = random.Random(5)
        log = []
        while not g.over:
            a = rng.choice(g.legal_actions())
            log.append((a, g.step(a)))
        runs.append((log, g.vp, g.result))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("mission", list_missions())
def test_state_round_trip_continues_identically(mission):
    """docs/API.md: get_state/set_state round-trip the whole game, dice included."""
    import json

    g, other = games(mission)
    g.reset(seed=7)
    rng = random.Random(7)
    for _ in range(300):
        if g.over:
            break
        g.step(rng.choice(g.legal_actions()))
    saved = json.loads(json.dumps(g.get_state()))
    other.set_state(saved)
    r1, r2 = random.Random(9), random.Random(9)
    for _ in range(300):
        if g.over:
            break
        assert g.legal_actions() == other.legal_actions()
        a1 = r1.choice(g.legal_actions())
        a2 = r2.choice(other.legal_actions())
        assert g.step(a1) == other.step(a2)
    assert g.get_state() == other.get_state()


_VEHICLE_KINDS = {
    O.OrderKind.BOARD_VEHICLE,
    O.OrderKind.LEAVE_VEHICLE,
    O.OrderKind.LOAD,
    O.OrderKind.DRIVE,
    O.OrderKind.DRIVE_BACK,
    O.OrderKind.END_DRIVE,
}


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000))
def test_vehicle_heavy_random_play(seed, inactive_never_act):
    """Random play that takes a vehicle order half the time one is legal (the jeep and the
    Kübelwagen of Farm Assault get driven, captured, shot at, disabled): the invariants hold
    after every step and the mask equals what ``step`` accepts every 10th step."""
    g, scratch = games("farm_assault")
    g.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.over and steps < 3000:
        check_invariants(g)
        if steps % 10 == 0:
            mask_matches_step(g, scratch, rng)
        legal = g.legal_actions()
        veh = [a for a in legal if O.decode(a)[0] in _VEHICLE_KINDS]
        g.step(rng.choice(veh) if veh and rng.random() < 0.5 else rng.choice(legal))
        steps += 1
    check_invariants(g)
    assert g.over


# (reason, waypoints of US1) per shipped mission whose Germans arrive in vehicles: US1 walks
# there in Operations (the others wait) so that the vehicles come on before random play starts
_VEHICLE_ARRIVALS = {
    # the hedge by the Route de Falaise (paragraph 20): the Kübelwagen (and, alerted, its
    # motorcycle outrider) comes down the road
    "crossroads_ambush": ["H10"],
}


@pytest.mark.parametrize("mission", sorted(set(_VEHICLE_ARRIVALS) & set(list_missions())))
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000))
def test_arriving_vehicles_random_play(mission, seed, inactive_never_act):
    """Missions whose German vehicles arrive by a paragraph (place_vehicle, seed 000 p. 32):
    US1 walks to the trigger while the squad waits; then random play, taking a vehicle order
    half the time one is legal, to the end: the invariants after every step (no unit in two
    places, at most two vehicles ending in a hex, the inactive never act) and the mask equals
    what ``step`` accepts every 10th step."""
    from ambush_env.core.model.types import Phase as P
    from tests.core.test_result_bands import walk

    g, scratch = games(mission)
    g.reset(seed=seed)
    rng = random.Random(seed)
    wps = [g.board.index(x) for x in _VEHICLE_ARRIVALS[mission]]
    steps = 0
    while not g.over and not g.state.vehicles and g.state.phase == P.OPERATIONS and steps < 500:
        check_invariants(g)
        u = g.acting_unit()
        if u is None:
            g.step(g.legal_actions()[0])
        elif u.slot == 0:
            walk(g, u, wps, False, set())
        else:
            g.step(O.encode(O.OrderKind.END_TURN))
        steps += 1
    assert g.state.vehicles, f"{mission}: the German vehicles never came"
    while not g.over and steps < 3000:
        check_invariants(g)
        if steps % 10 == 0:
            mask_matches_step(g, scratch, rng)
        legal = g.legal_actions()
        veh = [a for a in legal if O.decode(a)[0] in _VEHICLE_KINDS]
        g.step(rng.choice(veh) if veh and rng.random() < 0.5 else rng.choice(legal))
        steps += 1
    check_invariants(g)
    assert g.over
