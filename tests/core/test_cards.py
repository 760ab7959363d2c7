"""German cards and the action language (RULES.md §14): the shipped decks and the deck schema."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.world.cards import (
    COLUMN_NAMES,
    Assault,
    ChangeStance,
    Deck,
    Fire,
    Hold,
    Move,
    Prepare,
    SnapFire,
    Surrender,
    ThrowGrenade,
    list_decks,
    load_deck,
)
from ambush_env.core.world.data import data_path

DECKS = ("green", "regular", "veteran")
FIGHT = (Fire, SnapFire, ThrowGrenade, Assault)


def _raw(name: str = "regular") -> dict:
    return yaml.safe_load(data_path("cards", f"{name}.yaml").read_text(encoding="utf-8"))


def _write(tmp_path: Path, raw: dict, stem: str = "regular") -> Path:
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _broken(tmp_path: Path, mutate, stem: str = "regular") -> Path:
    raw = copy.deepcopy(_raw())
    mutate(raw)
    return _write(tmp_path, raw, stem)


def _rolls_where(column, pred) -> int:
    """How many d10 faces of a column give a row with an action satisfying ``pred``."""
    return sum(row.rolls[1] - row.rolls[0] + 1 for row in column if any(pred(a) for a in row.do))


# ------------------------------------------------------------------------ the shipped decks
def test_shipped_decks_load_and_share_card_ids():
    """RULES.md §14: difficulty levels are decks with the same cards and different ratings."""
    assert set(DECKS) <= set(list_decks())
    ids = {name: load_deck(name).card_ids for name in DECKS}
    assert ids["regular"] == ids["green"] == ids["veteran"]
    assert {"rifleman", "nco_smg", "mg_gunner"} <= set(ids["regular"])


def test_load_deck_is_cached():
    assert load_deck("regular") is load_deck("regular")


def test_regular_cards_weapons():
    deck = load_deck("regular")
    assert deck.card("rifleman").weapon == "kar98"
    assert deck.card("nco_smg").weapon == "mp40"
    assert deck.card("mg_gunner").weapon == "mg42"
    nco, rifle = deck.card("nco_smg"), deck.card("rifleman")
    assert nco.IN > rifle.IN and nco.WS > rifle.WS


@pytest.mark.parametrize("name", DECKS)
def test_every_column_covers_d10_once(name):
    """RULES.md §1, §14: each column is d10 0-9 → a row, every face exactly once."""
    for card in load_deck(name).cards:
        for col in COLUMN_NAMES:
            faces = sorted(
                r for row in card.column(col) for r in range(row.rolls[0], row.rolls[1] + 1)
            )
            assert faces == list(range(10)), (card.id, col)
            for roll in range(10):
                assert card.row(col, roll) in card.column(col)


@pytest.mark.parametrize("name", DECKS)
def test_columns_differ_as_a_soldier_would(name):
    """RULES.md §14: unaware mostly holds or walks his route; aware fights; self-preservation
    seeks cover, retreats or surrenders."""
    for card in load_deck(name).cards:
        un, aw, sp = card.columns.unaware, card.columns.aware, card.columns.self_preservation
        assert un != aw and aw != sp and un != sp, card.id
        # an unaware German never fights
        assert _rolls_where(un, lambda a: isinstance(a, FIGHT)) == 0, card.id
        passive = _rolls_where(
            un,
            lambda a: (
                isinstance(a, (Hold, ChangeStance, Prepare))
                or (isinstance(a, Move) and a.toward in ("route", "cover", "objective"))
            ),
        )
        assert passive == 10, card.id
        # an aware one fights on at least 4 faces in 10
        assert _rolls_where(aw, lambda a: isinstance(a, FIGHT)) >= 4, card.id
        # self-preservation: cover, away or surrender on half the faces or more; surrender possible
        saving = _rolls_where(
            sp,
            lambda a: (
                isinstance(a, Surrender) or (isinstance(a, Move) and a.toward in ("cover", "away"))
            ),
        )
        assert saving >= 5, card.id
        assert _rolls_where(sp, lambda a: isinstance(a, Surrender)) >= 1, card.id


def test_difficulty_orders_ratings_and_aggression():
    """Green < regular < veteran in ratings; fight more and surrender less going up."""
    decks = [load_deck(n) for n in DECKS]
    for cid in decks[1].card_ids:
        g, r, v = (d.card(cid) for d in decks)
        assert g.IN + g.PC + g.WS < r.IN + r.PC + r.WS < v.IN + v.PC + v.WS, cid

    def total(deck: Deck, col: str, pred) -> int:
        return sum(_rolls_where(c.column(col), pred) for c in deck.cards)

    fights = [total(d, "aware", lambda a: isinstance(a, FIGHT)) for d in decks]
    surrenders = [total(d, "self_preservation", lambda a: isinstance(a, Surrender)) for d in decks]
    assert fights[0] < fights[1] < fights[2]
    assert surrenders[0] > surrenders[1] > surrenders[2]


def test_action_forms_parse_and_dump_round_trip():
    """A bare name, a scalar and a mapping all parse; ``model_dump`` gives the YAML form back."""
    deck = load_deck("regular")
    assert Deck.model_validate(deck.model_dump()) == deck
    row = deck.card("rifleman").row("self_preservation", 6)
    assert row.do[0] == Surrender(**{"if": "outnumbered"})
    assert row.do[0].model_dump() == {"surrender": {"if": "outnumbered"}}
    assert row.do[1].model_dump() == {"stance": "prone"}
    assert row.do[2].model_dump() == {"hold": None}
    assert deck.card("mg_gunner").row("aware", 0).do[2] == Fire(mode="aimed", at="most_exposed")


# ---------------------------------------------------------------------- malformed decks
@pytest.mark.parametrize(
    ("mutate", "field", "problem"),
    [
        pytest.param(
            lambda r: r["cards"][0]["columns"]["aware"][0]["do"].append("dance"),
            "cards.0.columns.aware.0.do.2",
            "unknown action 'dance'",
            id="unknown-action",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["aware"][1].__setitem__("rolls", [2, 3]),
            "cards.0.columns.aware",
            "[4] not covered",
            id="gap-in-column",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["unaware"][1].__setitem__("rolls", [4, 6]),
            "cards.0.columns.unaware.1.rolls",
            "roll 4 already covered",
            id="overlap-in-column",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["aware"][0]["do"].__setitem__(
                1, {"fire": {"mode": "aimed", "at": "tallest"}}
            ),
            "cards.0.columns.aware.0.do.1.fire.at",
            "nearest_visible",
            id="bad-target-selector",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["aware"][0]["do"].__setitem__(
                1, {"fire": {"speed": 3}}
            ),
            "cards.0.columns.aware.0.do.1.fire.speed",
            "Extra inputs",
            id="unknown-argument",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["unaware"][1]["do"].__setitem__(0, {"move": 2}),
            "cards.0.columns.unaware.1.do.0",
            "takes a mapping",
            id="scalar-for-mapping-action",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["unaware"][1]["do"].__setitem__(0, "move"),
            "cards.0.columns.unaware.1.do.0.move.toward",
            "Field required",
            id="missing-required-argument",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["unaware"][0]["do"].__setitem__(
                0, {"hold": None, "fire": None}
            ),
            "cards.0.columns.unaware.0.do.0",
            "one-key mapping",
            id="two-key-action",
        ),
        pytest.param(
            lambda r: r["cards"][0]["columns"]["aware"][3]["do"].__setitem__(
                0, {"throw_grenade": {"within": 9}}
            ),
            "cards.0.columns.aware.3.do.0.throw_grenade.within",
            "less than or equal to 6",
            id="grenade-too-far",
        ),
        pytest.param(
            lambda r: r["cards"][2]["columns"]["aware"][0]["do"].append({"throw_grenade": {}}),
            "cards.2.columns.aware.0.do.4",
            "carries no grenade",
            id="grenade-not-carried",
        ),
        pytest.param(
            lambda r: r["cards"][1].__setitem__("id", "rifleman"),
            "cards.1.id",
            "duplicate card id",
            id="duplicate-card",
        ),
        pytest.param(
            lambda r: r["cards"][0].__setitem__("WS", 3),
            "cards.0.WS",
            "less than or equal to 2",
            id="rating-range",
        ),
        pytest.param(
            lambda r: r["cards"][0].__setitem__("weapon", "phaser"),
            "cards.0.weapon",
            "unknown weapon",
            id="unknown-weapon",
        ),
        pytest.param(
            lambda r: r["cards"][0].__setitem__("equipment", ["grenade", "satchel", "satchel"]),
            "cards.0.equipment",
            "port boxes",
            id="too-many-port-boxes",
        ),
        pytest.param(lambda r: r.__setitem__("id", "elite"), "id", "file stem", id="id-not-stem"),
        pytest.param(
            lambda r: r["cards"][0].pop("columns"),
            "cards.0.columns",
            "Field required",
            id="missing-columns",
        ),
    ],
)
def test_malformed_deck_names_file_and_field(tmp_path, mutate, field, problem):
    """RULES.md §14 + docs/STYLE.md habit 3: a bad card file fails with its path and the field."""
    path = _broken(tmp_path, mutate)
    with pytest.raises(DataError) as exc:
        load_deck(path)
    assert exc.value.path == str(path)
    assert exc.value.field == field
    assert problem in exc.value.problem
    assert str(exc.value).startswith(f"{path}: {field}: ")


def test_unknown_deck_lists_the_known_ones():
    with pytest.raises(ScenarioError, match="regular"):
        load_deck("elite")


def test_yaml_syntax_error_names_file(tmp_path):
    path = tmp_path / "regular.yaml"
    path.write_text("id: regular\ncards: [\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_deck(path)
    assert exc.value.path == str(path)


def test_move_and_stance_models():
    assert Move(toward="route", max=2).model_dump() == {"move": {"toward": "route", "max": 2}}
    assert ChangeStance(to="prone").tag == "stance"
