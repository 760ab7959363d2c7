"""Orders as text (docs/API.md "Positions and orders (binding)"; issue 10, done-when 2).

``describe_action(i)`` gives a stable text for every ``i`` in ``0..N-1``; ``parse_order``
inverts it for every ``i`` (a trailing parenthesis such as ``(L7)`` may be left out where that
names one legal order now; case and spacing do not matter; with vehicles:
test_order_text_vehicles.py); ``legal_orders()`` is the text of ``legal_actions()``;
``play(text)`` is parse + step and raises ``IllegalActionError`` naming the order, the unit
and the reason. Checked in several situations: the start, Operations
mid-game, Rounds with contacts, a soldier in the jeep, and a German decision under
``german="agent"``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from ambush_env.core import Game
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import N_ORDERS

MISSION = "farm_assault"


@functools.cache
def _recorded(seed: int, german: str) -> tuple[Game, tuple[dict, ...]]:
    """A seeded random legal game and the position before each of its steps."""
    g = Game(MISSION, seed=seed, german=german)
    rnd = random.Random(seed)
    out = []
    while not g.state.over:
        out.append(g.position())
        g.step(rnd.choice(g.legal_actions()))
    return g, tuple(out)


def _first(seed: int, german: str, pred) -> Game:
    """A game (with a context of its own) at the first recorded position where ``pred``."""
    rec, positions = _recorded(seed, german)
    for p in positions:
        if pred(p, Game.from_position(p, ctx=rec.ctx)):
            return Game.from_position(p)
    raise AssertionError("no such situation in the recorded game")


def _acting(p: dict) -> str:
    return p["turn"]["unit"] or ""


JEEP = {
    "mission": MISSION,
    "units": [
        {"name": "US1", "hex": "A8", "vehicle": "V1"},
        {"name": "US2", "hex": "A8", "vehicle": "V1"},
        {"name": "US3", "hex": "A7"},
    ],
    "vehicles": [
        {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "A8",
            "facing": "NE",
            "driver": "US1",
            "passengers": ["US2"],
        },
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "K8", "facing": "SE"},
    ],
}


def _jeep_driver() -> Game:
    g = Game.from_position(JEEP)
    g.play("select US1")
    return g


# An Operations drive is one hex (RULES.md §5): a drive under way is a Rounds one.
JEEP_ROUNDS = {
    **JEEP,
    "phase": "rounds",
    "round": 3,
    "rounds_total": 3,
    "initiative": "us",
    "turn": {"unit": "US1"},
    "units": [{**u, "ar": "1-turn"} for u in JEEP["units"]]
    + [{"name": "G1", "role": "rifleman", "hex": "P2", "ar": "complete"}],
}


def _jeep_driving() -> Game:
    g = Game.from_position(JEEP_ROUNDS)
    g.play("US1 drive NE to B7")
    assert g.state.turn.mode == "drive"
    return g


def _jeep_passenger() -> Game:
    g = Game.from_position(JEEP)
    g.play("select US2")
    return g


SITUATIONS = {
    "start": lambda: Game(MISSION, seed=0),
    "operations mid-game": lambda: _first(
        0,
        "cards",
        lambda p, g: p["phase"] == "operations" and p["steps"] > 30 and _acting(p).startswith("US"),
    ),
    "operations select": lambda: _first(
        0, "cards", lambda p, g: p["phase"] == "operations" and p["steps"] > 30 and not _acting(p)
    ),
    "rounds with contacts": lambda: _first(
        0,
        "cards",
        lambda p, g: (
            p["phase"] == "rounds"
            and p["contacts"]
            and _acting(p).startswith("US")
            and any("fire aimed at" in t for t in g.legal_orders())
        ),
    ),
    "jeep driver": _jeep_driver,
    "jeep driving": _jeep_driving,
    "jeep passenger": _jeep_passenger,
    "german agent": lambda: _first(
        0, "agent", lambda p, g: _acting(p).startswith("G") and len(g.legal_actions()) > 3
    ),
}


@pytest.fixture(params=list(SITUATIONS), scope="module")
def game(request) -> Game:
    return SITUATIONS[request.param]()


def _texts(g: Game) -> list[str]:
    return [g.describe_action(i) for i in range(N_ORDERS)]


def _norm(t: str) -> str:
    return " ".join(t.lower().split())


def _short(t: str) -> str | None:
    """The text without its trailing parenthesis, or None if it has none."""
    t = t.rstrip()
    if t.endswith(")") and "(" in t:
        return t[: t.rindex("(")].rstrip()
    return None


def _actor(g: Game) -> str:
    u = g.acting_unit()
    return u.name if u is not None else ""


# ------------------------------------------------------------------------------ parse
def test_parse_inverts_describe_for_every_order(game):
    """Done-when 2: ``parse_order(describe_action(i)) == i`` for every ``i`` in 0..N-1."""
    texts = _texts(game)
    assert len(texts) == N_ORDERS
    bad = [(i, t, game.parse_order(t)) for i, t in enumerate(texts) if game.parse_order(t) != i]
    assert not bad, f"{len(bad)} texts parse to another order, e.g. {bad[:3]}"


def test_every_text_is_distinct(game):
    """Which is what makes the inverse possible: no two orders read alike (case and spacing
    aside)."""
    counts = Counter(_norm(t) for t in _texts(game))
    assert [t for t, n in counts.items() if n > 1] == []


def test_case_and_spacing_are_ignored(game):
    for i, t in enumerate(_texts(game)):
        variant = "  " + "  ".join(t.swapcase().split(" ")) + "\t"
        assert game.parse_order(variant) == i, (t, variant)


def test_trailing_label_may_be_left_out_where_unambiguous(game):
    """``US3 fire aimed at G2`` for ``US3 fire aimed at G2 (L7)`` (docs/OBSERVATION.md "Orders
    as text"): a text without its trailing parenthesis stands for the orders whose text it
    begins — the legal ones now if any is, else all of them; one is the answer, several are
    refused (``IllegalActionError`` naming each by its whole text), never read as some other
    order. A short text that is itself an order's whole text is that order."""
    texts = _texts(game)
    legal = set(game.legal_actions())
    full = {_norm(t): i for i, t in enumerate(texts)}
    shorts: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        s = _short(t)
        if s is not None:
            shorts.setdefault(_norm(s), []).append(i)
    assert shorts, "no order text with a trailing parenthesis here"
    for s, orders in shorts.items():
        fits = [i for i in orders if i in legal] or orders
        if s in full:
            assert game.parse_order(s) == full[s]
        elif len(fits) == 1:
            assert game.parse_order(s) == fits[0]
            assert game.parse_order(s.upper()) == fits[0]
        else:
            with pytest.raises(IllegalActionError) as e:
                game.parse_order(s)
            for i in fits[:12]:
                assert texts[i] in str(e.value)


def test_labelled_orders_have_short_forms_in_rounds():
    """In Rounds with contacts the fire orders at a contact name him and his hex, and the
    name alone is enough."""
    g = SITUATIONS["rounds with contacts"]()
    fire = [t for t in g.legal_orders() if "fire aimed at" in t]
    assert fire
    for t in fire:
        assert t.endswith(")")
        assert g.parse_order(_short(t)) == g.parse_order(t)


# ------------------------------------------------------------------------------ legal orders
def test_legal_orders_are_the_texts_of_legal_actions(game):
    legal = game.legal_actions()
    assert legal
    assert game.legal_orders() == [game.describe_action(a) for a in legal]
    assert [game.parse_order(t) for t in game.legal_orders()] == list(legal)


def test_describe_is_stable(game):
    """The same situation gives the same texts (a restored game too)."""
    again = Game.from_position(game.position())
    assert _texts(again) == _texts(game)


@pytest.mark.parametrize("bad", [-1, N_ORDERS, N_ORDERS + 5])
def test_describe_outside_the_range_is_a_value_error(bad):
    with pytest.raises(ValueError):
        Game(MISSION, seed=0).describe_action(bad)


# ------------------------------------------------------------------------------ play
def test_play_is_parse_then_step(game):
    """``play(text)`` returns what ``step(parse_order(text))`` returns."""
    for text in game.legal_orders()[:: max(1, len(game.legal_orders()) // 6)]:
        a = game.clone()
        b = game.clone()
        assert a.play(text) == b.step(game.parse_order(text))
        assert a.position() == b.position()


def test_play_of_an_illegal_order_names_the_order_unit_and_reason(game):
    """Done-when 2: ``play`` of an order that is not legal now raises ``IllegalActionError``
    naming the order, the unit and a reason; the game is unchanged."""
    legal = set(game.legal_actions())
    illegal = [i for i in range(N_ORDERS) if i not in legal]
    assert illegal
    before = game.position()
    actor = _actor(game)
    for i in illegal[:: max(1, len(illegal) // 25)]:
        text = game.describe_action(i)
        with pytest.raises(IllegalActionError) as e:
            game.play(text)
        msg = str(e.value)
        assert text in msg, msg
        if actor:
            assert actor in msg, msg
        else:  # a selection: the order text names the unit, the message says why
            assert "select" in msg, msg
        head, _, reason = msg.partition(": ")
        assert "not legal now" in head and reason.strip(), msg
    assert game.position() == before


def test_illegal_fire_names_the_unit_and_why():
    """A concrete case: in Rounds a soldier may not pick a unit (that is the side's decision,
    made already)."""
    g = SITUATIONS["rounds with contacts"]()
    name = _actor(g)
    with pytest.raises(IllegalActionError, match=rf"{name}.*: .+"):
        g.play("select US8")


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "   ",
        "dance the tango",
        "US4 fire aimed at G99",
        "select US42",
        "move",
        "US1 move up",
        "\x00",
        "42",
        "US1 fire aimed at G1 (L7) (L7)",
        "fire aimed at",
    ],
)
def test_play_of_garbage_raises_illegal_action_error(game, garbage):
    before = game.position()
    with pytest.raises(IllegalActionError) as e:
        game.play(garbage)
    assert repr(garbage) in str(e.value) or garbage.strip() == ""
    with pytest.raises(IllegalActionError):
        game.parse_order(garbage)
    assert game.position() == before


def test_play_a_whole_game_by_text():
    """Random legal play through ``play`` on the texts of ``legal_orders`` (both seats)."""
    for german in ("cards", "agent"):
        g = Game(MISSION, seed=4, german=german)
        rnd = random.Random(4)
        for _ in range(400):
            if g.state.over:
                break
            g.play(rnd.choice(g.legal_orders()))


# ------------------------------------------------------------------------------ known gaps
_REFUSALS = [  # (US1's hex, G1's hex, US1's ammo, the rule's own reason: fire.fire_refusal)
    ("E5", "H5", None, "not in sight"),
    ("A1", "R14", None, "beyond maximum range"),
    ("G9", "G6", 0, "weapon dry"),
]


@pytest.mark.parametrize("us_hex, g_hex, ammo, reason", _REFUSALS, ids=[r[3] for r in _REFUSALS])
def test_illegal_fire_gives_the_rules_reason(us_hex, g_hex, ammo, reason):
    us1 = {"name": "US1", "hex": us_hex, "ar": "1-turn"}
    if ammo is not None:
        us1["ammo"] = ammo
    g = Game.from_position(
        {
            "mission": MISSION,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": "us",
            "turn": {"unit": "US1"},
            "units": [
                us1,
                {"name": "US2", "hex": "A14", "ar": "complete"},
                {"name": "G1", "role": "rifleman", "hex": g_hex, "ar": "complete"},
            ],
        }
    )
    with pytest.raises(IllegalActionError, match="US1") as e:
        g.play("US1 fire aimed at G1")
    assert reason in str(e.value)
