"""The binding import paths (docs/API.md "Import paths") keep working now that the core's
modules live in layer folders: each old path gives the very object of the module that owns it
(issues 9 and 24)."""

from __future__ import annotations

import importlib

import pytest

# (binding path, name, the module that owns it now)
BOUND = [
    ("ambush_env.core", "Game", "ambush_env.core.play.game"),
    ("ambush_env.core.engine", "Game", "ambush_env.core.play.game"),
    ("ambush_env.core.los", "line_of_sight", "ambush_env.core.world.los"),
    ("ambush_env.core.los", "SightCache", "ambush_env.core.world.los"),
    ("ambush_env.core.board", "load_board", "ambush_env.core.world.board"),
    ("ambush_env.core.board", "Board", "ambush_env.core.world.board"),
    ("ambush_env.core.dice", "Dice", "ambush_env.core.model.dice"),
    ("ambush_env.core.errors", "AmbushError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "IllegalActionError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "DataError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "ScenarioError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "DiceExhaustedError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "ConfigError", "ambush_env.core.model.errors"),
    ("ambush_env.core.errors", "MissingExtraError", "ambush_env.core.model.errors"),
    ("ambush_env", "list_missions", "ambush_env.env.registration"),
]


@pytest.mark.parametrize("module, name, owner", BOUND, ids=[f"{m}.{n}" for m, n, _ in BOUND])
def test_bound_import_path_is_the_owners_object(module: str, name: str, owner: str) -> None:
    obj = getattr(importlib.import_module(module), name)
    assert obj is getattr(importlib.import_module(owner), name)
    assert obj.__module__ == owner


@pytest.mark.parametrize("shim", ["errors", "dice", "los", "board", "engine"])
def test_alias_modules_export_every_public_name_of_their_owner(shim: str) -> None:
    """A binding module re-exports what its owner lists (``__all__``) or defines publicly."""
    alias = importlib.import_module(f"ambush_env.core.{shim}")
    owner = importlib.import_module(alias.__doc__.split(":mod:`")[1].split("`")[0])
    public = getattr(owner, "__all__", None) or [
        n
        for n, v in vars(owner).items()
        if not n.startswith("_") and getattr(v, "__module__", None) == owner.__name__
    ]
    missing = [n for n in public if getattr(alias, n, None) is not getattr(owner, n)]
    assert not missing, f"ambush_env.core.{shim} lacks {missing} of {owner.__name__}"


def test_game_is_one_class_under_every_path() -> None:
    from ambush_env.core import Game as A
    from ambush_env.core.engine import Game as B
    from ambush_env.core.play.game import Game as C

    assert A is B is C
    g = A("farm_assault", seed=0)
    assert g.legal_actions(), "a new game offers its first decision"


def test_unknown_core_attribute_is_an_attribute_error() -> None:
    import ambush_env.core as core

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        core.Nope  # noqa: B018


def test_the_errors_list_is_every_error_and_the_package_exports_it() -> None:
    """``core.model.errors.__all__`` names every error class the module defines; the package
    (``ambush_env.ConfigError``, ``from ambush_env import *``) re-exports that list."""
    import ambush_env
    from ambush_env.core.model import errors

    defined = {
        n
        for n, v in vars(errors).items()
        if isinstance(v, type) and issubclass(v, Exception) and v.__module__ == errors.__name__
    }
    assert sorted(errors.__all__) == sorted(defined)
    assert set(errors.__all__) <= set(ambush_env.__all__)
    star: dict[str, object] = {}
    exec("from ambush_env import *", star)
    assert all(star[n] is getattr(errors, n) is getattr(ambush_env, n) for n in errors.__all__)
