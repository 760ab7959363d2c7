"""Positions (docs/API.md "Positions and orders (binding)"; issue 10, done-when 1).

* Round trip: ``Game.from_position(g.position()).position() == g.position()`` at every step
  of seeded random legal games of farm_assault (both ``german="cards"`` and ``"agent"``), and
  from each restored position the next orders give the same events as the original game.
* Positions as YAML text, YAML files and JSON; a hand-written minimal position and the
  defaults it relies on (the module docstring of :mod:`ambush_env.core.play.position`).
* Malformed positions (hypothesis): ``DataError`` naming the field, never another exception.
* ``clone()``: the same future, an independent present, its own walls.
* ``force_rolls``: forced rolls in order, strictly; a position's ``dice`` come before the
  generator.

The engine bugs found while writing this file (fixed since) are the tests at the end.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import string
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError, DiceExhaustedError, IllegalActionError
from ambush_env.core.play import position as position_module

MISSION = "farm_assault"
REPLAY = 20  # orders replayed from each restored position
FRESH_CTX_EVERY = 300  # steps between restorations on a context of their own (slow: ~25 ms)


# ------------------------------------------------------------------------------ helpers
class Recording:
    """A seeded random legal game, recorded step by step: the position and legal orders
    before each step, the order played and the events it returned."""

    def __init__(self, seed: int, german: str = "cards", max_steps: int | None = None) -> None:
        self.game = g = Game(MISSION, seed=seed, german=german)
        rnd = random.Random(seed)
        self.positions: list[dict] = []
        self.legal: list[list[int]] = []
        self.orders: list[int] = []
        self.events: list[list[dict]] = []
        while not g.state.over and (max_steps is None or len(self.orders) < max_steps):
            self.positions.append(g.position())
            legal = list(g.legal_actions())
            self.legal.append(legal)
            a = rnd.choice(legal)
            self.orders.append(a)
            self.events.append(g.step(a))
        self.positions.append(g.position())  # the last one (the game is over)
        self.legal.append(list(g.legal_actions()))


def check_round_trip(rec: Recording, replay_every: int = 1) -> None:
    """The round trip at every recorded step; from every ``replay_every``-th restored
    position the next :data:`REPLAY` orders give the recorded events."""
    ctx = rec.game.ctx
    for t, p in enumerate(rec.positions):
        fresh = t % FRESH_CTX_EVERY == 0
        h = Game.from_position(p) if fresh else Game.from_position(p, ctx=ctx)
        assert h.position() == p, f"step {t}: the restored position differs"
        assert h.legal_actions() == rec.legal[t], f"step {t}: legal orders differ"
        if t % replay_every and not fresh:
            continue
        for j in range(t, min(t + REPLAY, len(rec.orders))):
            got = h.step(rec.orders[j])
            assert got == rec.events[j], f"restored at step {t}: step {j} gave other events"


@functools.cache
def mid_game(german: str = "cards") -> Recording:
    """One long recorded game (shared by the tests of this process: read, never change)."""
    return Recording(0, german)


def rounds_with_contacts(german: str = "cards") -> dict:
    """A recorded position in Rounds where a US soldier acts with a known German in sight."""
    rec = mid_game(german)
    for p in rec.positions:
        if p["phase"] == "rounds" and p["contacts"] and (p["turn"]["unit"] or "").startswith("US"):
            g = Game.from_position(p, ctx=rec.game.ctx)
            if any("fire aimed at" in t for t in g.legal_orders()):
                return copy.deepcopy(p)
    raise AssertionError("no Rounds position with a shot at a contact in the recorded game")


def first_position(pred, german: str = "cards") -> dict:
    rec = mid_game(german)
    return copy.deepcopy(next(p for p in rec.positions if pred(p)))


def unit(p: dict, name: str) -> dict:
    return next(u for u in p["units"] if u["name"] == name)


# ------------------------------------------------------------------------------ round trip
ROUND_TRIP_GAMES = [(s, "cards") for s in range(14)] + [(s, "agent") for s in range(100, 106)]


@pytest.mark.parametrize("seed, german", ROUND_TRIP_GAMES)
def test_round_trip_at_every_step_and_same_future(seed, german):
    """Done-when 1: the position round trip holds at every step of 20 random games, and the
    next 20 orders from each restored position give the same events as the original (every
    third position in the default run, every one under ``-m slow``: the time budget)."""
    check_round_trip(Recording(seed, german), replay_every=3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1200))
def test_round_trip_200_games(seed):
    """Done-when 1 under ``-m slow``: 200 random games (every third one German-agent)."""
    check_round_trip(Recording(seed, "agent" if seed % 3 == 0 else "cards"))


def test_recorded_games_reach_rounds_and_german_decisions():
    """The random games above are not trivial: they reach Rounds with contacts, and with
    ``german="agent"`` German decisions come back from ``step``."""
    rounds_with_contacts("cards")
    rec = mid_game("agent")
    assert any((p["turn"]["unit"] or "").startswith("G") for p in rec.positions)


def test_position_is_plain_data_json_and_yaml():
    """A position is plain data: JSON and YAML (safe_dump) both carry it exactly."""
    p = rounds_with_contacts()
    assert json.loads(json.dumps(p)) == p
    assert yaml.safe_load(yaml.safe_dump(p)) == p


def test_get_state_set_state_round_trip():
    """``get_state()`` is the position; ``set_state`` restores it on the same game object,
    which then plays on like the original."""
    rec = mid_game()
    t = len(rec.orders) // 2
    g = Game.from_position(rec.positions[0], ctx=rec.game.ctx)
    g.set_state(rec.positions[t])
    assert g.get_state() == rec.positions[t] == g.position()
    for j in range(t, t + REPLAY):
        assert g.step(rec.orders[j]) == rec.events[j]


def test_set_state_of_another_rules_is_a_data_error():
    """``set_state`` takes positions of the game's own mission, rules and deck only."""
    g = Game(MISSION, seed=0)
    p = g.position()
    p["rules"] = "d100"
    with pytest.raises(DataError) as e:
        g.set_state(p)
    assert e.value.field == "mission"


# ------------------------------------------------------------------------------ YAML
def test_yaml_text_and_file_give_the_same_game(tmp_path):
    """``from_position`` takes a dict, YAML text (``str``) or a YAML file (``Path``): the same
    game, position and future."""
    p = rounds_with_contacts()
    text = yaml.safe_dump(p)
    f = tmp_path / "pos.yaml"
    f.write_text(text, encoding="utf-8")
    games = [Game.from_position(p), Game.from_position(text), Game.from_position(f)]
    assert all(g.position() == p for g in games)
    rnd = random.Random(5)
    for _ in range(REPLAY):
        legal = games[0].legal_actions()
        if not legal:
            break
        assert all(g.legal_actions() == legal for g in games)
        a = rnd.choice(legal)
        first = games[0].step(a)
        assert all(g.step(a) == first for g in games[1:])


MINIMAL = """
mission: farm_assault
phase: rounds
units:
  - {name: US1, hex: E5}
  - {name: US2, hex: E6}
  - {name: G1, role: rifleman, hex: H5}
"""


def test_minimal_hand_written_position_loads_and_plays():
    """docs/API.md: only ``mission`` and ``units`` are required. Two US soldiers and an aware
    German rifleman in Rounds: the game loads, has legal orders and plays on."""
    g = Game.from_position(MINIMAL)
    assert g.position()["phase"] == "rounds"
    assert g.legal_orders()
    rnd = random.Random(0)
    for _ in range(60):
        if g.state.over:
            break
        g.step(rnd.choice(g.legal_actions()))
    q = g.position()
    assert Game.from_position(q).position() == q


def test_minimal_position_defaults_follow_the_docstring():
    """The defaults the minimal position relies on, as the module docstring of position.py
    states them (⚙): the side from the name; a US soldier's role, ratings, weapon and
    equipment from the mission's squad by his number; a German's from his card; aware; a
    full clip; every German listed is a known contact; the dice from ``seed``."""
    doc = " ".join((position_module.__doc__ or "").split())
    for phrase in (
        "side from the name",
        "from the mission's squad by his number",
        "from his card",
        "aware",
        "a full clip",
        "every German listed is a known contact",
    ):
        assert phrase in doc, f"docstring lacks {phrase!r}"
    g = Game.from_position(MINIMAL)
    ref = Game(MISSION, seed=0)
    squad = {u.name: u for u in ref.state.units}
    p = g.position()
    for name in ("US1", "US2"):
        u, s = unit(p, name), squad[name]
        assert u["side"] == "us"
        assert (u["role"], u["IN"], u["PC"], u["WS"], u["DS"], u["MV"], u["CR"], u["weapon"]) == (
            s.role,
            s.IN,
            s.PC,
            s.WS,
            s.DS,
            s.MV,
            s.CR,
            s.weapon,
        )
        assert u["equipment"] == list(s.equipment)
        assert u["ammo"] == ref.ctx.weapon(s.weapon).clip
        assert u["aware"] is True
    card = ref.ctx.cards["rifleman"]
    ger = unit(p, "G1")
    assert ger["side"] == "german"
    assert (ger["IN"], ger["PC"], ger["WS"], ger["MV"], ger["weapon"]) == (
        card.IN,
        card.PC,
        card.WS,
        card.MV,
        card.weapon,
    )
    assert ger["ammo"] == ref.ctx.weapon(card.weapon).clip and ger["aware"] is True
    assert p["contacts"] == ["G1"] and p["next_german"] == 2
    # the dice: no rng and no seed is seed 0; ``seed: 7`` is the generator of Game(seed=7)
    seeded = yaml.safe_load(MINIMAL)
    seeded.update(seed=7, phase="operations")  # (in Rounds at round 0, loading rolls initiative)
    a, b = Game.from_position(seeded), Game(MISSION, seed=7)
    assert [a.dice.d10() for _ in range(50)] == [b.dice.d10() for _ in range(50)]


# ------------------------------------------------------------------------------ malformed
def _names(p: dict) -> set[str]:
    return {u["name"] for u in p["units"]} | {v["name"] for v in p.get("vehicles") or []}


def _in_the_jeep() -> dict:
    """A position with a soldier aboard the jeep: the first of the German-agent game, else (that
    random game never boards it: it turns on the German cards' ratings) the start with US1 at
    the wheel of V1, in his hex A8."""
    try:
        return first_position(lambda p: any(u["vehicle"] for u in p["units"]), "agent")
    except StopIteration:
        p = Game(MISSION, seed=0).position()
        p["units"][0]["vehicle"] = "V1"
        p["vehicles"][0]["driver"] = "US1"
        assert Game.from_position(p).position()["units"][0]["vehicle"] == "V1"
        return p


@functools.cache
def _bases() -> tuple[dict, ...]:
    """Valid positions to mutate: the start, Operations mid-game, Rounds with contacts, a
    German-agent decision, a soldier in the jeep, and a hand-written one."""
    g = Game(MISSION, seed=0)
    out = [
        g.position(),
        first_position(lambda p: p["steps"] == 40),
        rounds_with_contacts(),
        first_position(lambda p: (p["turn"]["unit"] or "").startswith("G"), "agent"),
        _in_the_jeep(),
        yaml.safe_load(MINIMAL),
    ]
    out[-1]["units"][0]["route"] = ["E4"]
    out[-1]["board"] = {"destroyed_walls": ["K6/L6"]}
    return tuple(out)


@functools.cache
def _ctx():
    return Game(MISSION, seed=0).ctx


def _paths(x: Any, pre: tuple = ()) -> list[tuple]:
    out = [pre] if pre else []
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, pre + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, pre + (i,))
    return out


def _get(p: Any, path: tuple) -> Any:
    for k in path:
        p = p[k]
    return p


# Subtrees whose wrong types are tested elsewhere: ``rng`` below (and known bugs), ``pending``
# and ``board`` (known bugs), ``env`` (an env's counters, not read by the game), and the
# mission (an inline mission: known bug on the field name).
_NOT_TYPED = ("rng", "pending", "board", "env", "mission")


def _wrong_values(old: Any) -> list[Any]:
    """Values of a type the field cannot take (pydantic's lax mode accepts "yes" or 1 for a
    bool and "3" for an int, so none of those)."""
    if isinstance(old, bool):
        return [{"x": 1}, [1], "maybe", 2.5]
    if isinstance(old, int):
        return ["abc", {"x": 1}, [1], 2.5]
    if isinstance(old, str):
        return [7, {"x": 1}, [1], 2.5]
    if old is None:
        return [{"x": 1}, [[1]], 2.5]
    if isinstance(old, list):
        return [{"x": 1}, 7, "abc"]
    if isinstance(old, dict):
        return [7, "abc", [1]]
    raise AssertionError(type(old))


_WORD = st.text(alphabet=string.ascii_letters + string.digits + "_- ", min_size=0, max_size=8)
_ENUMS = {  # field -> allowed words (pydantic Literal: anything else is refused)
    ("phase",): position_module.PHASES,
    ("rules",): ("standard", "d100"),
    ("german",): ("cards", "agent"),
    ("format",): (position_module.FORMAT,),
    ("initiative",): ("us", "german"),
    ("result",): ("loss", "draw", "win", "decisive_win"),
    ("turn", "mode"): position_module.MODES,
}
_UNIT_ENUMS = {
    "side": position_module.SIDES,
    "stance": ("standing", "crouching", "prone"),
    "status": position_module.STATUSES,
    "ar": position_module.AR_SPACES,
}
_VEHICLE_ENUMS = {"side": position_module.SIDES, "facing": ("N", "NE", "SE", "S", "SW", "NW")}


def _bad_label(label: str) -> bool:
    try:
        _ctx().board.index(label)
    except Exception:
        return True
    return False


@st.composite
def malformed(draw) -> tuple[dict, str, str]:
    """(a malformed position, the top-level key its error must name, what was done)."""
    p = copy.deepcopy(draw(st.sampled_from(_bases())))
    kind = draw(
        st.sampled_from(
            [
                "delete",
                "unknown_key",
                "wrong_type",
                "bad_hex",
                "bad_name",
                "bad_enum",
                "bad_rng",
                "bad_card",
            ]
        )
    )
    units = p["units"]
    vehicles = p.get("vehicles") or []
    if kind == "delete":
        key = draw(st.sampled_from(["mission", "units"]))
        del p[key]
        return p, key, f"delete {key}"
    if kind == "unknown_key":
        where = draw(st.sampled_from(["top", "turn", "card", "unit", "vehicle", "rolls"]))
        container, top = {
            "top": (p, None),
            "turn": (p.setdefault("turn", {}), "turn"),
            "card": (p.setdefault("turn", {}).setdefault("card", {}), "turn"),
            "unit": (draw(st.sampled_from(units)), "units"),
            "vehicle": (
                draw(st.sampled_from(vehicles)) if vehicles else p,
                "vehicles" if vehicles else None,
            ),
            "rolls": (p.setdefault("rolls", {}), "rolls"),
        }[where]
        model = {
            "top": position_module.PositionSpec,
            "turn": position_module.TurnSpec,
            "card": position_module.CardSpec,
            "unit": position_module.UnitSpec,
            "vehicle": position_module.VehicleSpec if vehicles else position_module.PositionSpec,
            "rolls": None,
        }[where]
        known = set(model.model_fields) if model is not None else {"us", "german"}
        key = draw(
            st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=10).filter(
                lambda k: k not in known
            )
        )
        container[key] = draw(st.sampled_from([1, "x", None, [1]]))
        return p, top or key, f"unknown key {key!r} in {where}"
    if kind == "wrong_type":
        paths = [q for q in _paths(p) if q[0] not in _NOT_TYPED]
        path = draw(st.sampled_from(paths))
        parent = _get(p, path[:-1])
        parent[path[-1]] = draw(st.sampled_from(_wrong_values(parent[path[-1]])))
        return p, str(path[0]), f"wrong type at {path}"
    if kind == "bad_hex":
        label = draw(
            st.one_of(
                st.sampled_from(["S1", "A15", "A0", "Z99", "", "A", "7", "AA1", "A-1"]),
                st.text(min_size=0, max_size=5),
            ).filter(_bad_label)
        )
        where = draw(
            st.sampled_from(
                [
                    "unit",
                    "route",
                    "vehicle",
                    "fired_triggers",
                    "run_over_hexes",
                    "card_path",
                    "items",
                ]
            )
        )
        if where == "unit":
            draw(st.sampled_from(units))["hex"] = label
            return p, "units", f"bad hex {label!r} for a unit"
        if where == "route":
            draw(st.sampled_from(units)).setdefault("route", []).append(label)
            return p, "units", f"bad hex {label!r} in a route"
        if where == "vehicle" and vehicles:
            draw(st.sampled_from(vehicles))["hex"] = label
            return p, "vehicles", f"bad hex {label!r} for a vehicle"
        if where == "run_over_hexes":
            p.setdefault("turn", {}).setdefault("run_over_hexes", []).append(label)
            return p, "turn", f"bad hex {label!r} in run_over_hexes"
        if where == "card_path":
            p.setdefault("turn", {}).setdefault("card", {}).setdefault("path", []).append(label)
            return p, "turn", f"bad hex {label!r} in the card path"
        if where == "items":
            p.setdefault("items", {})[label] = ["grenade"]
            return p, "items", f"items at bad hex {label!r}"
        p.setdefault("fired_triggers", []).append(label)
        return p, "fired_triggers", f"bad hex {label!r} in fired_triggers"
    if kind == "bad_name":
        name = draw(_WORD.filter(lambda n: n not in _names(p)))
        where = draw(
            st.sampled_from(
                [
                    "turn",
                    "contacts",
                    "german_contacts",
                    "ops_done",
                    "guard",
                    "unit_vehicle",
                    "driver",
                    "passengers",
                ]
            )
        )
        if where == "turn":
            p.setdefault("turn", {})["unit"] = name
            return p, "turn", f"turn.unit {name!r}"
        if where in ("contacts", "german_contacts", "ops_done"):
            p[where] = list(p.get(where) or []) + [name]
            return p, where, f"{where} + {name!r}"
        if where == "guard":
            draw(st.sampled_from(units))["guard"] = name
            return p, "units", f"guard {name!r}"
        if where == "unit_vehicle":
            draw(st.sampled_from(units))["vehicle"] = name
            return p, "units", f"unit in vehicle {name!r}"
        if not vehicles:
            p["ops_done"] = list(p.get("ops_done") or []) + [name]
            return p, "ops_done", f"ops_done + {name!r}"
        v = draw(st.sampled_from(vehicles))
        if where == "driver":
            v["driver"] = name
        else:
            v.setdefault("passengers", []).append(name)
        return p, "vehicles", f"vehicle {where} {name!r}"
    if kind == "bad_enum":
        choices = list(_ENUMS) + [("units", f) for f in _UNIT_ENUMS]
        if vehicles:
            choices += [("vehicles", f) for f in _VEHICLE_ENUMS]
        field = draw(st.sampled_from(choices))
        if field[0] == "units":
            allowed, target = _UNIT_ENUMS[field[1]], draw(st.sampled_from(units))
        elif field[0] == "vehicles":
            allowed, target = _VEHICLE_ENUMS[field[1]], draw(st.sampled_from(vehicles))
        else:
            allowed = _ENUMS[field]
            target = p if len(field) == 1 else p.setdefault("turn", {})
        word = draw(
            st.one_of(
                _WORD, st.sampled_from([a.upper() for a in allowed if a.upper() != a] or ["XX"])
            ).filter(lambda w: w not in allowed)
        )
        target[field[-1]] = word
        return p, field[0], f"{field} = {word!r}"
    if kind == "bad_card":
        what = draw(st.sampled_from(["role", "weapon", "vehicle_type"]))
        word = draw(
            _WORD.filter(
                lambda w: (
                    w not in _ctx().cards and w not in _ctx().tables.weapons.weapons and w != ""
                )
            )
        )
        if what == "vehicle_type" and vehicles:
            draw(st.sampled_from(vehicles))["type"] = word
            return p, "vehicles", f"vehicle type {word!r}"
        if what == "role":
            gers = [u for u in units if u.get("side") == "german" or u["name"].startswith("G")]
            if gers:
                draw(st.sampled_from(gers))["role"] = word
                return p, "units", f"German card {word!r}"
        draw(st.sampled_from(units))["weapon"] = word
        return p, "units", f"weapon {word!r}"
    # bad rng: not a PCG64 state (the out-of-range numbers are known bugs, below)
    rng = p.setdefault(
        "rng", {"bit_generator": Game(MISSION, seed=0).dice.get_state()["bit_generator"], "pos": 0}
    )
    how = draw(
        st.sampled_from(
            ["empty", "generator_not_dict", "other_generator", "state_type", "pos_type", "missing"]
        )
    )
    bg = rng["bit_generator"]
    if how == "empty":
        p["rng"] = {}
    elif how == "generator_not_dict":
        rng["bit_generator"] = draw(st.sampled_from([5, "PCG64", [1], None]))
    elif how == "other_generator":
        bg["bit_generator"] = draw(st.sampled_from(["MT19937", "Philox", "", "pcg64"]))
    elif how == "state_type":
        bg["state"]["state"] = draw(st.sampled_from(["abc", [1], {"x": 1}, None]))
    elif how == "pos_type":
        rng["pos"] = draw(st.sampled_from(["abc", [1], {"x": 1}]))
    else:
        del bg[draw(st.sampled_from(["state", "bit_generator"]))]
    return p, "rng", f"rng {how}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(malformed())
def test_malformed_position_is_a_data_error_naming_the_field(case):
    """Done-when 1: a malformed position raises ``DataError`` whose ``field`` names the
    offending field (at least its top-level key), never another exception."""
    p, top, what = case
    with pytest.raises(DataError) as e:
        Game.from_position(p, ctx=_ctx())
    field = e.value.field
    assert field == top or field.startswith(top + "."), f"{what}: field {field!r}, not {top!r}"
    assert str(e.value).startswith("<position>")


_JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids, max_size=3)
    ),
    max_leaves=6,
)

# the cases the tests at the end cover one by one, left out of this property
_BUGGY = ("rng", "pending", "board", "mission", "deck")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_anywhere_is_accepted_or_a_data_error(data):
    """Any JSON-like value in any field (the fields of the known bugs below left out): the
    position loads and plays a few random orders, or ``from_position`` raises ``DataError``;
    never another exception."""
    p = copy.deepcopy(data.draw(st.sampled_from(_bases())))
    paths = [q for q in _paths(p) if q[0] not in _BUGGY and q[-1] != "slot"]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            parent = _get(p, path[:-1])
            parent[path[-1]] = data.draw(_JSONISH)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier change removed the path
    try:
        g = Game.from_position(p, ctx=_ctx())
    except DataError:
        return
    rnd = random.Random(0)
    for _ in range(5):
        legal = g.legal_actions()
        if g.state.over or not legal:
            break
        g.step(rnd.choice(legal))


@pytest.mark.parametrize(
    "bad, field",
    [
        ([1, 2], "<root>"),
        (7, "<root>"),
        (None, "<root>"),
        (b"mission: farm_assault", "<root>"),
        ("- a list\n- of things\n", "<root>"),
        ("just words", "<root>"),
        ("", "<root>"),
        ("mission: [unclosed\n", "<yaml>"),
        ("mission: farm_assault\n  units: : :\n", "<yaml>"),
        ("{a: 1", "<yaml>"),
        ("units:\n\t- tab\n", "<yaml>"),
    ],
    ids=[
        "list",
        "int",
        "None",
        "bytes",
        "yaml list",
        "yaml scalar",
        "empty text",
        "unclosed",
        "bad indent",
        "unclosed brace",
        "tab",
    ],
)
def test_non_mapping_inputs_are_data_errors(bad, field):
    """A position must be a mapping: a list, a number, None, YAML that is not a mapping and
    YAML syntax errors all raise ``DataError`` (``<root>`` / ``<yaml>``)."""
    with pytest.raises(DataError) as e:
        Game.from_position(bad)
    assert e.value.field == field


def test_missing_file_is_a_data_error(tmp_path):
    """A ``Path`` that cannot be read is a ``DataError`` naming the file."""
    with pytest.raises(DataError) as e:
        Game.from_position(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(e.value)


@pytest.mark.parametrize("dice, field", [([101], "dice.0"), ([3, -1], "dice.1"), (["x"], "dice.0")])
def test_bad_forced_dice_name_the_roll(dice, field):
    """A position's ``dice`` are rolls 0-100 (what a die reads: a d10 0-9, a d100 1-100, a dM
    1-M; as ``force_rolls`` takes them, the die that reads one checks its own range); a bad
    one names its index."""
    p = yaml.safe_load(MINIMAL)
    p["dice"] = dice
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field == field


def test_duplicate_unit_names_are_refused():
    p = yaml.safe_load(MINIMAL)
    p["units"].append({"name": "US1", "hex": "A1"})
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field == "units.3.name"


def test_contact_that_is_no_german_is_refused():
    p = yaml.safe_load(MINIMAL)
    p["contacts"] = ["US1"]
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field == "contacts.0"


# ------------------------------------------------------------------------------ clone
def _clone_points() -> list[tuple[str, int]]:
    return [("cards", t) for t in (0, 37, 150, 303, 600)] + [("agent", t) for t in (0, 349, 500)]


@pytest.mark.parametrize("german, t", _clone_points())
def test_clone_has_the_same_future_and_leaves_the_original_alone(german, t):
    """``clone()``: the same next events for 20 orders (the same order ints played on both),
    and playing the clone on never changes the original (its position is unchanged)."""
    rec = mid_game(german)
    t = min(t, len(rec.positions) - 2)
    g = Game.from_position(rec.positions[t], ctx=rec.game.ctx)
    before = g.position()
    c = g.clone()
    assert c.position() == before
    rnd = random.Random(t)
    orders, clone_events = [], []
    for _ in range(REPLAY):
        legal = c.legal_actions()
        if not legal:
            break
        orders.append(rnd.choice(legal))
        clone_events.append(c.step(orders[-1]))
    assert g.position() == before, "playing the clone changed the original"
    for a, ev in zip(orders, clone_events, strict=True):
        assert g.step(a) == ev
    assert g.position() == c.position()


def test_clone_dice_give_the_same_rolls_across_blocks():
    """The clone's dice give the original's next rolls, past the end of a block of rolls, and
    a clone of a clone (whose generator is not made yet) too; get_state agrees."""
    rec = mid_game()
    g = Game.from_position(rec.positions[300], ctx=rec.game.ctx)
    c1 = g.clone()
    c2 = c1.clone()
    assert g.dice.get_state() == c1.dice.get_state() == c2.dice.get_state()
    draws = [
        [d.dice.d10() for _ in range(5000)]
        + [d.dice.d100() for _ in range(50)]
        + [d.dice.choice(7) for _ in range(50)]
        + [d.dice.roll(2, 6) for _ in range(50)]
        for d in (g, c2, c1)
    ]
    assert draws[0] == draws[1] == draws[2]
    assert g.dice.get_state() == c1.dice.get_state() == c2.dice.get_state()


def test_clone_of_a_fresh_game_and_forced_rolls():
    """A clone copies forced rolls too (its own queue): each game uses them once."""
    g = Game(MISSION, seed=3)
    g.force_rolls([1, 2, 3])
    c = g.clone()
    assert [g.dice.d10() for _ in range(3)] == [1, 2, 3]
    assert [c.dice.d10() for _ in range(3)] == [1, 2, 3]
    for d in (g, c):
        with pytest.raises(DiceExhaustedError):
            d.dice.d10()


WALL = "K6/L6"  # the farmhouse's west wall (with a window): fire at it is an order


def _wall_position(destroyed: list[str]) -> dict:
    return {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "seed": 11,
        "turn": {"unit": "US4"},
        "flags": ["farm_checked", "house_searched"],
        "fired_triggers": ["J6", "J7", "K6", "K7", "L6", "L7"],
        "board": {"destroyed_walls": destroyed},
        "units": [
            {"name": "US4", "hex": "K6", "ar": "1-turn"},
            {"name": "US2", "hex": "K7", "ar": "1-turn"},
            {"name": "US5", "hex": "J6", "ar": "1-turn"},
            {"name": "G1", "role": "rifleman", "hex": "N7", "ar": "1-turn"},
        ],
    }


def _alone(p: dict, seed: int, n: int) -> list[tuple[list[int], list[dict]]]:
    """``n`` seeded random orders from ``p`` on a game with a context of its own (no other game
    touches its board): the legal orders before each and the events."""
    return _in_turn([Game.from_position(p)], [seed], n)[0]


def _in_turn(
    games: list[Game], seeds: list[int], n: int
) -> list[list[tuple[list[int], list[dict]]]]:
    """``n`` rounds of one seeded random order for each game in turn."""
    rnds = [random.Random(s) for s in seeds]
    got: list[list] = [[] for _ in games]
    for _ in range(n):
        for k, g in enumerate(games):
            legal = list(g.legal_actions())
            if legal:
                got[k].append((legal, g.step(rnds[k].choice(legal))))
    return got


def test_destroyed_wall_changes_the_orders():
    """The wall matters here: with it standing US4 may fire at it, not once it is destroyed."""
    standing = Game.from_position(_wall_position([]))
    gone = Game.from_position(_wall_position([WALL]))
    assert "US4 fire at the wall of L6" in standing.legal_orders()
    assert "US4 fire at the wall of L6" not in gone.legal_orders()
    assert gone.position()["board"]["destroyed_walls"] == [WALL]


def test_games_sharing_a_context_and_their_clones_keep_their_own_walls():
    """Clones and games sharing one context (one board) keep their own walls: a game with the
    wall destroyed, its clone, a game with the wall standing and its clone, played in turn,
    give the legal orders and events of each played alone."""
    n = 25
    gone = Game.from_position(_wall_position([WALL]))
    gone_clone = (
        gone.clone()
    )  # (before the other game exists; the test below covers the other order)
    standing = Game.from_position(_wall_position([]), ctx=gone.ctx)
    assert standing.ctx is gone.ctx
    seeds = [1, 2, 3, 4]
    got = _in_turn([gone, gone_clone, standing, standing.clone()], seeds, n)
    for k in range(4):
        p = _wall_position([WALL] if k < 2 else [])
        assert got[k] == _alone(p, seeds[k], n), f"game {k} played in turn differs from alone"


def test_clone_after_a_wall_falls_keeps_it():
    """RULES.md §9: a satchel charge thrown at the farmhouse destroys its wall K6/L6 (throw
    roll 0). The game and its clone keep the wall destroyed while a game sharing the context
    with the wall standing plays in turn with them: each gives what it gives played alone."""
    p = _wall_position([])
    p["units"][0].update(satchel_ready=True, equipment=["satchel"])
    g = Game.from_position(p)
    assert "US4 fire at the wall of L6" in g.legal_orders()
    g.force_rolls([0])
    events = g.play("US4 throw a satchel charge at L6")
    assert {"type": "wall_destroyed", "hexside": WALL} in events
    after = g.position()
    assert after["board"]["destroyed_walls"] == [WALL]
    assert after["rng"]["strict"] is True and after["rng"]["forced"] == []
    after["rng"] = Game.from_position(_wall_position([])).position()["rng"]  # unforced dice again
    g.set_state(after)
    c = g.clone()
    assert c.position()["board"]["destroyed_walls"] == [WALL]
    other = Game.from_position(_wall_position([]), ctx=g.ctx)
    assert other.legal_orders()  # loads the standing wall into the shared board
    assert c.legal_orders() == Game.from_position(after).legal_orders()
    seeds = [5, 6, 7]
    got = _in_turn([g, c, other], seeds, 20)
    assert got[0] == _alone(after, 5, 20)
    assert got[1] == _alone(after, 6, 20)
    assert got[2] == _alone(_wall_position([]), 7, 20)


def test_position_and_clone_keep_the_walls_after_another_game_on_the_context_acts():
    gone = Game.from_position(_wall_position([WALL]))
    Game.from_position(_wall_position([]), ctx=gone.ctx).legal_actions()
    assert gone.clone().position()["board"]["destroyed_walls"] == [WALL]
    assert "US4 fire at the wall of L6" not in gone.clone().legal_orders()
    assert gone.position()["board"]["destroyed_walls"] == [WALL]
    assert "US4 fire at the wall of L6" not in gone.legal_orders()


# ------------------------------------------------------------------------------ force_rolls
FIRE_POSITION = {
    "mission": MISSION,
    "phase": "rounds",
    "round": 3,
    "rounds_total": 3,
    "initiative": "us",
    "turn": {"unit": "US4"},
    "units": [
        {"name": "US4", "hex": "G9", "ar": "1-turn"},
        {"name": "US2", "hex": "A14", "ar": "1-turn"},
        {"name": "G1", "role": "rifleman", "hex": "G6", "ar": "complete"},
    ],
}


def test_force_rolls_are_used_in_order():
    """``force_rolls``: the next rolls in order (the hit roll, then the damage roll)."""
    g = Game.from_position(FIRE_POSITION)
    g.force_rolls([6, 9])
    fire = next(e for e in g.play("US4 fire aimed at G1") if e["type"] == "fire")
    assert fire["rolls"] == {"hit": 6, "damage": 9}
    assert g.dice.forced_left == 0
    g2 = Game.from_position(FIRE_POSITION)
    g2.force_rolls([9, 6])
    fire = next(e for e in g2.play("US4 fire aimed at G1") if e["type"] == "fire")
    assert fire["rolls"] == {"hit": 9} and g2.dice.forced_left == 1


def test_running_out_of_forced_rolls_raises():
    """Strict: a hit needs a damage roll, and none is left."""
    g = Game.from_position(FIRE_POSITION)
    g.force_rolls([6])
    with pytest.raises(DiceExhaustedError):
        g.play("US4 fire aimed at G1")
    g = Game(MISSION, seed=0)
    g.force_rolls([4, 5])
    assert [g.dice.d10(), g.dice.d10()] == [4, 5]
    with pytest.raises(DiceExhaustedError):
        g.dice.d10()


def test_a_forced_choice_outside_its_range_raises():
    """A forced roll used by ``dice.choice(n)`` must be an index 0..n-1 (seed 000 p. 31: the
    passenger hit is chosen so); out of range is a clear DiceExhaustedError, not an IndexError
    deep in the rules."""
    g = Game(MISSION, seed=0)
    g.force_rolls([1, 2])
    assert g.dice.choice(2, "which") == 1
    with pytest.raises(DiceExhaustedError, match="outside 0-1"):
        g.dice.choice(2, "which")


def test_forced_rolls_are_part_of_the_position():
    """Forced rolls not yet used travel with the position (strictly)."""
    g = Game.from_position(FIRE_POSITION)
    g.force_rolls([6, 9, 3])
    p = g.position()
    h = Game.from_position(p)
    assert h.position() == p
    assert [h.dice.d10() for _ in range(3)] == [6, 9, 3]
    with pytest.raises(DiceExhaustedError):
        h.dice.d10()


def test_position_dice_come_before_the_generator():
    """A position's ``dice`` are used first, then the generator goes on as if they had not
    been there (they take nothing from its stream)."""
    p = dict(FIRE_POSITION, seed=5)
    plain = Game.from_position(p)
    forced = Game.from_position(dict(p, dice=[6, 9]))
    assert [forced.dice.d10(), forced.dice.d10()] == [6, 9]
    assert [forced.dice.d10() for _ in range(30)] == [plain.dice.d10() for _ in range(30)]


def test_play_text_with_forced_rolls_kills():
    g = Game.from_position(FIRE_POSITION)
    g.force_rolls([6, 9])
    g.play("us4  FIRE aimed at g1")  # case and spacing do not matter
    assert unit(g.position(), "G1")["status"] == "killed"
    with pytest.raises(IllegalActionError):
        g.play("US4 fire aimed at G1")


# ------------------------------------------------------------------------------ bugs found by these tests (fixed)
def test_position_returns_a_copy_of_the_dice_state():
    """position.write_position puts ``Dice.get_state()`` in the position, and that returns
    the dice's own ``_buf_state`` dict: editing the returned position (or a second one taken
    from the same game) changes what the game writes next."""
    rec = mid_game()
    g = Game.from_position(rec.positions[300], ctx=rec.game.ctx)
    g.dice.d10()  # a block of rolls is drawn
    before = copy.deepcopy(g.position())
    p = g.position()
    p["units"][0]["equipment"].append("x")
    p["board"]["destroyed_walls"].append("A1/A2")
    p["vp_log"].append(["x", 1])
    p["rng"]["bit_generator"]["state"]["state"] = 5
    assert g.position() == before


_SPEC_GAPS = [
    ("mission", "zz", "mission"),
    ("mission", "", "mission"),
    ("deck", "zz", "deck"),
    ("mission", {}, "mission"),
    ("mission", "/no/such/mission.yaml", "mission"),
]


@pytest.mark.parametrize(
    "key, value, field", _SPEC_GAPS, ids=[f"{k}={v!r}" for k, v, _ in _SPEC_GAPS]
)
def test_unknown_mission_or_deck_is_a_data_error(key, value, field):
    p = yaml.safe_load(MINIMAL)
    p[key] = value
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field.split(".")[0] == field


_RNG_BUGS = [
    (("bit_generator", "state", "inc"), -1, "OverflowError"),
    (("bit_generator", "state", "state"), 2**200, "OverflowError"),
    (("bit_generator", "uinteger"), 2**70, "OverflowError"),
    (("bit_generator", "has_uint32"), 2**70, "OverflowError"),
    (("pos",), -1, "accepted: reads the block from its end"),
    (("pos",), 10**6, "accepted: beyond the 4096-roll block"),
    (("pos",), 2.5, "accepted: int(2.5)"),
    (("strict",), {"x": 1}, "accepted: bool({...})"),
]


@pytest.mark.parametrize(
    "path, value, what", _RNG_BUGS, ids=[f"{'.'.join(p)}={v!r}" for p, v, _ in _RNG_BUGS]
)
def test_out_of_range_rng_is_a_data_error(path, value, what):
    g = Game(MISSION, seed=0)
    g.dice.d10()
    p = g.position()
    p["rng"] = copy.deepcopy(p["rng"])
    _get(p["rng"], path[:-1])[path[-1]] = value
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field == "rng"


_PENDING_BUGS = [[[1]], [["x"]], [[]], [["sighting_check", 99]]]


@pytest.mark.parametrize("pending", _PENDING_BUGS, ids=[repr(x) for x in _PENDING_BUGS])
def test_bad_pending_is_a_data_error(pending):
    p = yaml.safe_load(MINIMAL)
    p["pending"] = pending
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field.startswith("pending")


_BOARD_BUGS = [{"destroyed_walls": ["zz"]}, {"destroyed_walls": ["A1/C5"]}, {"collapsed": ["Z99"]}]


@pytest.mark.parametrize("board", _BOARD_BUGS, ids=[repr(b) for b in _BOARD_BUGS])
def test_bad_board_label_is_a_data_error(board):
    p = yaml.safe_load(MINIMAL)
    p["board"] = board
    with pytest.raises(DataError) as e:
        Game.from_position(p)
    assert e.value.field.startswith("board")


@pytest.mark.parametrize("slot", [-7, 10**6])
def test_out_of_range_slot_is_a_data_error(slot):
    p = yaml.safe_load(MINIMAL)
    p["phase"] = "operations"
    p["units"][1]["slot"] = slot
    try:
        g = Game.from_position(p)
    except DataError as e:
        assert e.field.startswith("units.1")
        return
    for _ in range(5):  # it loaded: it must play
        g.step(g.legal_actions()[-1])


def test_omitted_vehicles_default_to_the_missions():
    p = Game.from_position(MINIMAL).position()
    start = Game(MISSION, seed=0).position()
    assert [(v["name"], v["type"], v["hex"]) for v in p["vehicles"]] == [
        (v["name"], v["type"], v["hex"]) for v in start["vehicles"]
    ]


def test_docstring_documents_the_dice_and_round_defaults():
    doc = " ".join((position_module.__doc__ or "").split())
    assert "``seed``" in doc and "round" in doc.lower()


def _rounds_turn_not_in_vehicle() -> dict:
    rec = mid_game("agent")
    for p in rec.positions:
        name = p["turn"]["unit"]
        if (
            p["phase"] == "rounds"
            and name
            and name.startswith("US")
            and not unit(p, name)["vehicle"]
            and p["turn"]["mode"] == ""
        ):
            return copy.deepcopy(p)
    raise AssertionError("no such position")


def test_inconsistent_turn_mode_is_refused_or_playable():
    p = _rounds_turn_not_in_vehicle()
    p["turn"]["mode"] = "drive"
    try:
        g = Game.from_position(p)
    except DataError as e:
        assert e.field.startswith("turn")
        return
    assert g.state.over or g.legal_actions()
