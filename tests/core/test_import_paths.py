"""The import paths INTERFACE.md binds keep working as the core is reorganised (issue 9)."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module, name", [
    ("ambush_env.core", "Game"),
    ("ambush_env.core.engine", "Game"),
    ("ambush_env.core.los", "line_of_sight"),
    ("ambush_env.core.board", "load_board"),
    ("ambush_env.core.dice", "Dice"),
    ("ambush_env.core.errors", "AmbushError"),
    ("ambush_env.core.errors", "IllegalActionError"),
    ("ambush_env.core.errors", "DataError"),
    ("ambush_env.core.errors", "ScenarioError"),
    ("ambush_env.core.errors", "DiceExhaustedError"),
    ("ambush_env", "list_missions"),
])
def test_bound_import_path(module: str, name: str) -> None:
    obj = getattr(importlib.import_module(module), name)
    assert obj is not None


def test_game_is_one_class_under_every_path() -> None:
    from ambush_env.core import Game as A
    from ambush_env.core.engine import Game as B
    from ambush_env.core.game import Game as C

    assert A is B is C
    g = A("farm_assault", seed=0)
    assert g.legal_actions(), "a new game offers its first decision"


def test_unknown_core_attribute_is_an_attribute_error() -> None:
    import ambush_env.core as core

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        core.Nope  # noqa: B018
