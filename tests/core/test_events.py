"""Typed events on one channel (issue 9, docs/ARCHITECTURE.md; docs/STYLE.md habit 5: events record the
rolls): one dataclass per kind, a dict form that round-trips, typed errors, ``rolls()``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_fire import _duel

import ambush_env.core as core
from ambush_env.core import Game
from ambush_env.core.model import events as E
from ambush_env.core.model.errors import AmbushError, DataError
from ambush_env.core.rules import fire as fire_rules

KINDS = sorted(E.EVENT_TYPES)
CORE = Path(core.__file__).parent

# a value of each field type used by the event classes (their annotations, as written)
SAMPLE = {
    "str": "G1",
    "int": 3,
    "bool": True,
    "list[str]": ["US1", "US2"],
    "list[int]": [3, 7],
    "list[list[int]]": [[1, 6], [4]],
    "dict[str, int]": {"hit": 4, "damage": 7},
    "int | None": None,
    "str | None": None,
}


def _fields(cls: type[E.Event]) -> dict[str, str]:
    """attribute → annotation of a kind's fields."""
    return {a: cls.__dataclass_fields__[a].type for a, _ in cls._keys}


def _full(cls: type[E.Event], *, required_only: bool = False) -> E.Event:
    """An event of the kind with every field (or only the required ones) set."""
    required = set(cls._required)
    kw = {
        a: SAMPLE[t] for a, t in _fields(cls).items() if not required_only or E._key(a) in required
    }
    return cls(**kw)


@pytest.fixture(scope="module")
def played() -> list[tuple[list[dict], list[E.Event]]]:
    """The events of every step of a few seeded random games of farm_assault: (dict forms
    returned by reset/step, the typed events of ``Game.last_events``)."""
    out = []
    g = Game("farm_assault")
    for seed in (0, 1, 2):
        out.append((g.reset(seed=seed), list(g.last_events)))
        rng = random.Random(seed)
        steps = 0
        while not g.over and steps < 1500:
            evs = g.step(rng.choice(g.legal_actions()))
            out.append((evs, list(g.last_events)))
            steps += 1
    return out


# ------------------------------------------------------------------------------- the kinds
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_round_trips_through_its_dict_form(kind):
    """``event_from_dict(e.to_dict()) == e``, with every field and with only the required."""
    cls = E.EVENT_TYPES[kind]
    assert cls.type == kind
    for e in (_full(cls), _full(cls, required_only=True)):
        d = e.to_dict()
        assert d["type"] == kind and next(iter(d)) == "type"
        assert list(d.items()) == list(E.Event.to_dict(e).items())  # the written to_dict
        assert E.event_from_dict(d) == e
        assert E.event_from_dict(d).to_dict() == d


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_a_slotted_dataclass_with_a_rule_docstring(kind):
    """Events are made on every step: no instance ``__dict__``; each kind names its rule."""
    cls = E.EVENT_TYPES[kind]
    e = _full(cls)
    assert not hasattr(e, "__dict__")
    doc = cls.__doc__ or ""
    assert len(doc.splitlines()) == 1 and re.search(r"RULES\.md §|seed \d{3}", doc), doc


def test_every_kind_the_rules_emit_is_registered():
    """Every ``E.<Kind>(`` in the rules is a registered kind, and no rule emits a bare dict."""
    names = {c.__name__ for c in E.EVENT_TYPES.values()}
    used: set[str] = set()
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "events.py":
            continue
        src = path.read_text(encoding="utf-8")
        assert "emit({" not in src, f"{path.name} emits a dict; emit an Event"
        used |= set(re.findall(r"\bE\.([A-Z]\w*)\(", src))
    assert used - names == set()
    assert names - used == set(), "a registered kind that no rule emits"


def test_absent_fields_stay_out_of_the_dict_and_none_stays_in():
    """A field only sometimes present is left out when absent; None is a value."""
    assert E.Move(unit="US1", to="F5", mp=0).to_dict() == {
        "type": "move",
        "unit": "US1",
        "to": "F5",
        "mp": 0,
    }
    assert E.Move(unit="US1", to="F5", mp=2, charge=False).to_dict()["charge"] is False
    d = E.EventRoll(hex="G8", unit="US1", roll=2, paragraph=None).to_dict()
    assert "paragraph" in d and d["paragraph"] is None
    e = E.AccidentCheck(vehicle="V1", why="driver hit")
    assert not e.has("roll") and e.to_dict() == {
        "type": "accident_check",
        "vehicle": "V1",
        "why": "driver hit",
    }


def test_keys_that_are_no_attribute_names():
    """``from`` (a keyword) is the attribute ``from_``, ``rolls`` (the method) ``rolls_``."""
    assert E.Stance(unit="US1", from_=0, to=2).to_dict() == {
        "type": "stance",
        "unit": "US1",
        "from": 0,
        "to": 2,
    }
    e = E.event_from_dict({"type": "pick_up", "unit": "US1", "item": "grenade", "from": "US2"})
    assert isinstance(e, E.PickUp) and e.from_ == "US2"
    b = E.event_from_dict(
        {
            "type": "blast",
            "unit": "G1",
            "item": "grenade",
            "inside": False,
            "rolls": {"damage": 6},
            "result": "wound",
        }
    )
    assert b.rolls_ == {"damage": 6} and b.rolls() == {"damage": 6}


# ------------------------------------------------------------------------------- errors
def test_unknown_type_is_a_data_error_naming_it():
    with pytest.raises(DataError, match="unknown event type 'teleport'"):
        E.event_from_dict({"type": "teleport", "unit": "US1"})
    with pytest.raises(AmbushError, match="type"):
        E.event_from_dict({"unit": "US1"})
    with pytest.raises(DataError):
        E.event_from_dict(["move"])  # type: ignore[arg-type]


def test_unknown_field_is_a_data_error_naming_kind_and_field():
    with pytest.raises(DataError, match=r"event 'move': speed: unknown field"):
        E.event_from_dict({"type": "move", "unit": "US1", "to": "F5", "mp": 1, "speed": 3})


def test_missing_required_field_is_a_data_error():
    with pytest.raises(DataError, match=r"event 'sighting': roll: missing"):
        E.event_from_dict(
            {"type": "sighting", "unit": "US1", "target": "G1", "pc": 6, "passed": True}
        )


# ------------------------------------------------------------------------------- rolls
def test_rolls_of_a_fire_event_are_the_dice_of_the_shot():
    """RULES.md §8: the hit and damage rolls that decided the shot (no jam check: a rifle)."""
    g, us, ge = _duel()
    g.force(1, 5)
    ev = fire_rules.fire(g, us.uid, ge.uid, snap=True)
    shot = ev[0]
    assert isinstance(shot, E.Fire) and shot.result == "wound"
    assert shot.rolls() == {"hit": 1, "damage": 5}
    assert isinstance(ev[1], E.Damage) and ev[1].rolls() == {}


def test_rolls_of_a_sighting_event_is_its_pc_check():
    """RULES.md §7: a sighting is decided by one d10 PC check."""
    e = E.Sighting(unit="US1", target="G1", roll=4, pc=6, passed=True)
    assert e.rolls() == {"roll": 4}
    a = E.AccidentCheck(
        vehicle="V1", why="moving fast", roll=7, need=5, table_roll=2, result="skid"
    )
    assert a.rolls() == {"roll": 7, "table_roll": 2}
    assert E.EndTurn(unit="US1").rolls() == {}


# ------------------------------------------------------------------------------- play
def test_played_events_are_registered_with_their_fields(played):
    """Every event of random play is a registered kind; its dict holds every required field
    of the dataclass and no other; ``Game.last_events`` are the typed events of the step."""
    seen: set[str] = set()
    for dicts, typed in played:
        assert [e.to_dict() for e in typed] == dicts
        for d, e in zip(dicts, typed, strict=True):
            kind = d["type"]
            seen.add(kind)
            cls = E.EVENT_TYPES[kind]
            assert type(e) is cls
            keys = set(d) - {"type"}
            assert keys <= set(cls._attr_of), (kind, keys - set(cls._attr_of))
            assert set(cls._required) <= keys, (kind, set(cls._required) - keys)
            assert E.event_from_dict(d) == e
    assert {"setup", "move", "sighting", "fire", "round_start", "german_card"} <= seen


def test_played_events_expose_the_rolls_their_dicts_carry(played):
    """docs/STYLE.md habit 5: ``rolls()`` of any event gives the dice its dict records."""
    n = 0
    for _, typed in played:
        for e in typed:
            d = e.to_dict()
            want = dict(d.get("rolls", {}))
            want.update({k: v for k, v in d.items() if k == "roll" or k.endswith("_roll")})
            assert e.rolls() == want, e
            n += bool(want)
    assert n > 0
