"""Procedural missions (issue 13, done-when 4; RULES.md §15): every generated mission is valid
— it loads through the mission validator, its objective, exits, triggers and Germans can be
walked to over the map's movement costs (RULES.md §6), its Germans stand where the rules let
them, its d10 tables cover 0-9 — and plays; the generator varies maps, paragraph structures
and objectives across seeds; and the chains it writes branch on the dice as written (forced
rolls on both sides of each threshold).

Default run: 1 000 missions (seeds 0-999) and 100 held-out ones, a few random orders on 10 of
them; ``-m slow``: 10 000 missions, 30 random orders on each of the first 1 000 and 200 played
to their end.
"""

from __future__ import annotations

import functools
import json
import random
from types import SimpleNamespace

import pytest

from ambush_env.core import Game
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.types import TERRAIN_NAMES, Side
from ambush_env.core.play import procedural as P
from ambush_env.core.play.sequence import resolve
from ambush_env.core.rules.movement import raw_step_cost
from ambush_env.core.world.board import MAX_COLUMNS, MAX_ROWS, Board, board_from_dict
from ambush_env.core.world.cards import load_deck
from ambush_env.core.world.missions import (
    Activation,
    Minefield,
    Mission,
    Place,
    PlaceVehicle,
    Strike,
    check_references,
)
from ambush_env.core.world.tables import load_tables

SEEDS = range(1000)
HELD_OUT_SAMPLE = range(P.HELD_OUT_SEEDS.start, P.HELD_OUT_SEEDS.start + 100)


class _Standing:
    stance = 0


def reachable(board: Board, mission: Mission) -> set[int]:
    """Hexes a standing US soldier can walk to from the entry hexes over the engine's own
    step costs (RULES.md §6: terrain, levels, banks, walls and apertures, rivers at roads)."""
    m = SimpleNamespace(board=board, tables=load_tables())
    start = {board.index(h) for h in mission.us_entry}
    seen, todo = set(start), list(start)
    while todo:
        i = todo.pop()
        for j in board.neighbors[i]:
            if j >= 0 and j not in seen and raw_step_cost(m, _Standing(), i, j) >= 0:
                seen.add(j)
                todo.append(j)
    return seen


def check_valid(seed: int, g: P.Generated | None = None, mission: Mission | None = None) -> None:
    """Every invariant of a generated mission (module docstring)."""
    g = g or P.generate_data(seed)
    board = board_from_dict(g.map, path=f"<map {seed}>")
    assert 1 <= board.columns <= MAX_COLUMNS and 1 <= board.rows <= MAX_ROWS
    # the mission file schema and script checks (references, reachable paragraphs, no cycles)
    mission = mission or Mission.model_validate(g.mission)
    check_references(mission, f"<mission {seed}>", board=board)  # map, deck, squad, vehicles
    reach = reachable(board, mission)
    entry = {board.index(h) for h in mission.us_entry}
    tables = load_tables()
    for h in mission.objective.hexes:
        assert board.index(h) in reach, f"seed {seed}: objective hex {h} unreachable"
    assert mission.exit_hexes
    for h in mission.exit_hexes:
        i = board.index(h)
        assert i in reach, f"seed {seed}: exit {h} unreachable"
        c, _ = board.coords(i)
        assert c == board.columns - 1, f"seed {seed}: exit {h} not on the east edge"
    for h in mission.triggers:
        assert board.index(h) in reach, f"seed {seed}: trigger {h} can never fire"
        assert board.index(h) not in entry, f"seed {seed}: trigger on the entry hex {h}"
    # Germans: on the map, on ground a soldier can stand on, off the US entry, reachable
    cards = set(load_deck(mission.deck_default).card_ids)
    places = mission.placements()
    assert len({n for n, _ in places}) >= 3, f"seed {seed}: RULES.md §15 three placements"
    for n, e in places:
        i = board.index(e.hex)
        assert e.card in cards
        assert tables.terrain_mp[board.terrain[i]] is not None, f"seed {seed}: {e.hex} impassable"
        assert i not in entry and i in reach, f"seed {seed}: paragraph {n} places at {e.hex}"
        for r in e.route:
            assert board.index(r) in reach
    for where, e in mission.vehicle_placements():
        i = board.index(e.hex)
        assert TERRAIN_NAMES[board.terrain[i]] == "road", f"seed {seed}: {where} off the road"
        assert i not in entry and i in reach
    # d10 tables cover 0-9 exactly once; activation thresholds leave both branches possible
    rolls = sorted(r for row in mission.events for r in range(row.rolls[0], row.rolls[1] + 1))
    assert rolls == list(range(10))
    for para in mission.paragraphs.values():
        for e in para:
            if isinstance(e, Activation):
                assert 0 <= e.at_or_below <= 8
            if isinstance(e, (Minefield, Strike)):
                assert all(board.index(h) >= 0 for h in e.hexes)
    for h in mission.booby_traps:  # map booby traps: where a soldier walks, off the entry
        assert board.index(h) in reach and board.index(h) not in entry
    assert len(mission.triggers) >= 10
    assert mission.results.draw >= 1, "a squad that does nothing loses"


@pytest.fixture(scope="module")
def generated() -> dict[int, tuple[P.Generated, Mission]]:
    """Seeds 0-999 and the held-out sample: the generated files and the validated mission."""
    out = {}
    for seed in [*SEEDS, *HELD_OUT_SAMPLE]:
        g = P.generate_data(seed)
        out[seed] = (g, Mission.model_validate(g.mission))
    return out


def test_every_generated_mission_is_valid(generated):
    """1 000 training missions and 100 held-out ones generate and pass every invariant."""
    for seed, (g, mission) in generated.items():
        check_valid(seed, g, mission)


@pytest.mark.slow
def test_ten_thousand_generated_missions_are_valid():
    for seed in range(10_000):
        check_valid(seed)
        P.generate(seed)  # and the engine's own entry point


def _play(seed: int, orders: int | None) -> Game:
    mission, board = P.generate(seed)
    g = Game(mission, board=board)
    g.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.over and (orders is None or n < orders) and n < 5000:
        legal = g.legal_actions()
        assert legal, f"seed {seed}: no legal order while the mission runs"
        g.step(rng.choice(legal))
        n += 1
    return g


@pytest.mark.parametrize("seed", list(SEEDS)[::100])
def test_generated_missions_play_random_orders(seed):
    """A few random legal orders on every 100th mission: the mask is never empty mid-game."""
    g = _play(seed, 60)
    assert g.over or g.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(0, 1000, 5))
def test_generated_missions_play_to_the_end(seed):
    g = _play(seed, None)
    assert g.over and g.result >= 0


@pytest.mark.slow
def test_every_mission_of_seeds_0_to_999_plays_random_orders():
    for seed in SEEDS:
        g = _play(seed, 30)
        assert g.over or g.legal_actions()


# ------------------------------------------------------------------------------ variety
def _signature(mission: Mission, start: int) -> tuple:
    """The structure of the paragraph chain from ``start``: effect kinds in order, branches
    followed (depth first), hex and card arguments left out."""
    seen: set[int] = set()

    def walk(n: int | None) -> tuple:
        if n is None or n in seen:
            return ()
        seen.add(n)
        out: list = []
        for e in mission.paragraphs[n]:
            out.append(e.effect)
            for attr in ("then", "else_", "paragraph"):  # branches, and a goto's target
                t = getattr(e, attr, None)
                if isinstance(t, int):
                    out.append(walk(t))
        return tuple(out)

    return walk(start)


def test_variety_among_seeds_0_to_999(generated):
    """Issue 13: among seeds 0-999, at least 5 map sizes, no two identical maps, at least 4
    paragraph structures and at least 3 objective types (of the engine's objective kinds)."""
    sizes, maps, structures, kinds, objectives, layouts = set(), set(), set(), set(), set(), set()
    for seed in SEEDS:
        g, m = generated[seed]
        sizes.add((g.map["columns"], g.map["rows"]))
        maps.add(_map_key(g))
        for p in {t.paragraph for t in m.triggers.values() if not t.is_event}:
            structures.add(_signature(m, p))
        kinds.add(m.objective.kind)
        objectives.add(g.sketch.objective)
        layouts.add(g.sketch.template)
    assert len(sizes) >= 5, sizes
    assert len(maps) == len(SEEDS), "two seeds made the same map"
    assert len(structures) >= 4, structures
    assert len(kinds) >= 3, kinds
    assert objectives == set(P.OBJECTIVE_KINDS)
    assert layouts == set(P.TEMPLATES)


def _map_key(g: P.Generated) -> str:
    return json.dumps({k: v for k, v in g.map.items() if k != "name"}, sort_keys=True)


def test_held_out_seeds_are_apart_and_make_new_maps(generated):
    """The held-out range is disjoint from the training range, 1 000 seeds long, and its
    maps are none of the training seeds 0-999's maps."""
    assert set(P.TRAIN_SEEDS).isdisjoint(P.HELD_OUT_SEEDS)
    assert len(P.HELD_OUT_SEEDS) == 1000 and P.SEED_RANGES["held_out"] is P.HELD_OUT_SEEDS
    assert P.SEED_RANGES["train"] is P.TRAIN_SEEDS and P.TRAIN_SEEDS.start == 0
    train = {_map_key(generated[s][0]) for s in SEEDS}
    assert not train & {_map_key(generated[s][0]) for s in HELD_OUT_SAMPLE}


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_a_mission_seed_is_a_non_negative_integer(bad):
    with pytest.raises(Exception, match="mission seed"):
        P.generate_data(bad)


# ---------------------------------------------------------------- chains on forced dice
def _first(pred) -> tuple[int, int]:
    """``(seed, paragraph base)`` of the first seed with a chain ``pred(kind)`` accepts (the
    generator numbers group k's chain 10 (k + 1), then the hazards, then the intel chain)."""
    for seed in range(500):
        sk = P.sketch(seed)
        for k, kind in enumerate(sk.chains + sk.hazards):
            if pred(sk, kind):
                return seed, 10 * (k + 1)
    raise AssertionError("no such chain among seeds 0-499")


def _run(seed: int, paragraph: int, rolls: list[int]) -> Game:
    """Run ``paragraph`` of mission ``seed`` as US1 triggered it (:func:`_game`), with
    ``rolls`` first (then 5s for whatever Rounds beginning asks)."""
    g = _game(seed)
    g.dice = Dice.scripted(rolls + [5] * 40)
    g.invalidate()
    u = g.us_units()[0]
    g.request("paragraph", paragraph, 0, u.uid, 0)
    resolve(g)
    g.invalidate()
    return g


@functools.lru_cache(maxsize=8)
def _cached_game(seed: int) -> Game:
    mission, board = P.generate(seed)
    return Game(mission, board=board)


def _game(seed: int) -> Game:
    """A fresh start of mission ``seed`` (one Game per seed, reset each time), the squad
    taken off the map (still active): nobody watches a placement, so a German keeps the
    awareness his paragraph gives him (a sighting would settle it otherwise, RULES.md §7)."""
    g = _cached_game(seed)
    g.reset(seed=0)
    for u in g.us_units():
        u.hex = -1
    g.invalidate()
    return g


def _germans(g: Game) -> list:
    return [u for u in g.state.units if u.side == Side.GERMAN and u.hex >= 0]


def _threshold(mission: Mission, paragraph: int) -> int:
    (act,) = [e for e in mission.paragraphs[paragraph] if isinstance(e, Activation)]
    return act.at_or_below


@pytest.mark.parametrize("above, aware", [(0, True), (1, False)])
def test_activation_chain_places_aware_at_or_below_else_unaware(above, aware):
    """RULES.md §15 activation: a d10 at or below the chain's number places the group aware
    and crouching, above it unaware and standing, on the hexes its place effects name."""
    seed, base = _first(lambda sk, kind: kind == "activation")
    mission, _ = P.generate(seed)
    n = _threshold(mission, base + 1)
    g = _run(seed, base, [n + above])
    placed = [e for e in mission.paragraphs[base + (2 if aware else 3)] if isinstance(e, Place)]
    ger = _germans(g)
    assert len(ger) == len(placed) >= 1
    assert all(x.aware is aware for x in ger)
    assert sorted(g.board.label(x.hex) for x in ger) == sorted(e.hex for e in placed)
    g2 = _run(seed, base, [n + above])  # the flag: a second trigger of the chain does nothing
    g2.request("paragraph", base, 0, g2.us_units()[0].uid, 0)
    resolve(g2)
    assert len(_germans(g2)) == len(placed)


@pytest.mark.parametrize(
    "rolls, expect", [("present,pass", "unaware"), ("present,fail", "aware"), ("absent", "none")]
)
def test_perception_chain(rolls, expect):
    """RULES.md §7, §15: present on the activation roll; then the triggering soldier's PC
    check (PC + modifier, at or below passes) spots them first (unaware) or not (aware);
    absent: nobody is placed."""
    seed, base = _first(lambda sk, kind: kind == "perception")
    mission, _ = P.generate(seed)
    n = _threshold(mission, base + 1)
    (pc_eff,) = [e for e in mission.paragraphs[base + 2] if e.effect == "perception"]
    g0 = _run(seed, base, [9])  # only to read US1's PC
    pc = g0.us_units()[0].PC + pc_eff.modifier
    assert 0 <= pc < 9, "both sides of the check can be rolled"
    seq = {"present,pass": [n, pc], "present,fail": [n, pc + 1], "absent": [n + 1]}[rolls]
    ger = _germans(_run(seed, base, seq))
    if expect == "none":
        assert ger == []
    else:
        assert ger and all(x.aware is (expect == "aware") for x in ger)


@pytest.mark.parametrize("alarm", [True, False])
def test_alarm_chain_places_aware_once_the_alarm_was_raised(alarm):
    """An alarm chain tests the flag ``alarm`` (set by an event or an ambush): set, the group
    is placed aware with no roll; not set, it rolls for activation (a 9 is above every
    threshold: unaware)."""
    seed, base = _first(lambda sk, kind: kind == "alarm")
    g = _game(seed)
    if alarm:
        g.state.flags.append("alarm")
    g.dice = Dice.scripted([9] + [5] * 40)
    g.invalidate()
    g.request("paragraph", base, 0, g.us_units()[0].uid, 0)
    resolve(g)
    ger = _germans(g)
    assert ger and all(x.aware is alarm for x in ger)


@pytest.mark.parametrize("passed", [True, False])
def test_intel_search_scores_by_the_pc_check(passed):
    """The intel objective: the building's paragraph awards the chain's VP when the searching
    soldier passes his PC check (at or below PC + modifier), a third of it otherwise."""
    for seed in range(500):
        sk = P.sketch(seed)
        if sk.objective == "intel":
            break
    mission, _ = P.generate(seed)
    base = 10 * (len(sk.chains) + len(sk.hazards) + 1)
    (chk,) = [e for e in mission.paragraphs[base + 1] if e.effect == "perception"]
    (big,) = [e.amount for e in mission.paragraphs[base + 2] if e.effect == "vp"]
    (small,) = [e.amount for e in mission.paragraphs[base + 3] if e.effect == "vp"]
    assert big > small >= 1 and small == max(1, big // 3)
    g0 = _run(seed, base, [9])
    pc = g0.us_units()[0].PC + chk.modifier
    assert 0 <= pc < 9
    g = _run(seed, base, [pc if passed else pc + 1])
    assert g.state.vp == (big if passed else small)


@pytest.mark.parametrize("passed, known", [(True, True), (False, False)])
def test_minefield_chain_is_known_when_the_pc_check_passes(passed, known):
    """A minefield chain: the triggering soldier's PC check; passed, the field is laid known
    (marked); failed, laid hidden (seed 000 p. 32; module mines)."""
    seed, base = _first(lambda sk, kind: kind == "minefield")
    mission, _ = P.generate(seed)
    (chk,) = [e for e in mission.paragraphs[base + 1] if e.effect == "perception"]
    (field,) = [e for e in mission.paragraphs[base + 2] if isinstance(e, Minefield)]
    g0 = _run(seed, base, [9])
    pc = g0.us_units()[0].PC + chk.modifier
    g = _run(seed, base, [pc if passed else pc + 1])
    hexes = sorted(g.board.index(h) for h in field.hexes)
    assert sorted(g.state.minefields) == hexes
    assert sorted(g.state.known_mines) == (hexes if known else [])


@pytest.mark.parametrize("above", [0, 1])
def test_vehicle_chain_brings_a_car_down_the_road_at_or_below(above):
    """A vehicle chain (seed 000 p. 32): at or below the activation number a German car
    with its crew drives in on the road from the east edge, aware; above, nothing comes."""
    seed, base = _first(lambda sk, kind: kind == "vehicle")
    mission, _ = P.generate(seed)
    n = _threshold(mission, base + 1)
    (pv,) = [e for e in mission.paragraphs[base + 2] if isinstance(e, PlaceVehicle)]
    g = _run(seed, base, [n + above])
    ger_cars = [
        v
        for v in g.state.vehicles
        if v.side == Side.GERMAN and v.hex >= 0 and g.board.label(v.hex) == pv.hex
    ]
    assert len(ger_cars) == (1 if above == 0 else 0)
    if above == 0:
        assert ger_cars[0].type == pv.vehicle


# ------------------------------------------------------------------------ the data file
@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d["templates"]["farm"].update(columns=[14, 40]), "templates.farm.columns"),
        (lambda d: d["templates"]["hills"].update(rows=[12, 9]), "templates.hills.rows"),
        (lambda d: d.update(activation=[2, 9]), "activation"),
        (lambda d: d["objectives"]["take"].pop("objective_taken"), "objective_taken"),
        (lambda d: d.update(p_tank=1.5), "p_tank"),
        (
            lambda d: d["templates"].update(
                castle={"weight": 1, "columns": [14, 20], "rows": [10, 12]}
            ),
            "castle",
        ),
    ],
)
def test_bad_procedural_yaml_is_a_data_error_naming_the_field(tmp_path, edit, field):
    """procedural.yaml is validated on load: a bad edit raises DataError naming the file and
    the field (the project's data rule)."""
    import yaml

    from ambush_env.core.model.errors import DataError
    from ambush_env.core.world.data import data_path, load_model

    raw = yaml.safe_load(data_path("procedural.yaml").read_text())
    edit(raw)
    bad = tmp_path / "procedural.yaml"
    bad.write_text(yaml.safe_dump(raw))
    with pytest.raises(DataError) as e:
        load_model(P.ProceduralConfig, bad)
    assert "procedural.yaml" in str(e.value) and field in str(e.value)


def test_forces_fit_the_slots(generated):
    """Every German a mission can put on the map (men of place effects and car crews, and a
    tank's own unit) fits the contact slots, and every vehicle the vehicle slots."""
    from ambush_env.core.model.orders import K_SLOTS, V_SLOTS

    for seed, (_, m) in generated.items():
        vehicles = [e for _, e in m.vehicle_placements()]
        tank_chains = {
            n
            for n, para in m.paragraphs.items()
            for e in para
            if isinstance(e, PlaceVehicle) and e.card is not None
        }
        # a tank chain has two place_vehicle effects (aware or not) for one tank
        tanks = 1 if tank_chains else 0
        # the placements of one chain's branches are alternatives: count the largest branch
        # per chain block (paragraph // 10) rather than their sum
        per_block: dict[int, dict[int, int]] = {}
        for n, _ in m.placements():
            per_block.setdefault(n // 10, {}).setdefault(n, 0)
            per_block[n // 10][n] += 1
        men = sum(max(v.values()) for v in per_block.values()) + sum(
            (e.driver is not None) + len(e.passengers) for e in vehicles
        )
        assert men + tanks <= K_SLOTS, f"seed {seed}: {men} men and {tanks} tank"
        assert len(vehicles) + len(m.us_vehicles) + len(m.german_vehicles) <= V_SLOTS
