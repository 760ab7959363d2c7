"""Each file of ambush_env/core opens with one short paragraph saying what it owns; each layer
folder's docstring names its modules, and the core's docstring names every folder (issues 9, 24)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ambush_env.core as core

CORE = Path(core.__file__).parent
MODULES = sorted(p for p in CORE.rglob("*.py") if p.name != "__init__.py")
FOLDERS = sorted(p.parent for p in CORE.glob("*/__init__.py"))


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_module_opens_with_what_it_owns(path: Path) -> None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{path.name} has no module docstring"
    first = doc.split("\n\n", 1)[0]
    assert first.startswith("Owns "), f"{path.name}: the first paragraph should say what it owns"
    assert len(first.splitlines()) <= 3, (
        f"{path.name}: the opening paragraph is longer than 3 lines"
    )


def test_package_map_names_every_folder_and_each_folder_its_modules() -> None:
    doc = core.__doc__ or ""
    assert FOLDERS, "the core has layer folders"
    missing = [p.name for p in FOLDERS if f"``{p.name}``" not in doc]
    assert not missing, f"ambush_env/core/__init__.py's map lacks {missing}"
    for folder in FOLDERS:
        fdoc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
        lacking = [
            p.stem
            for p in folder.glob("*.py")
            if p.name != "__init__.py" and f"``{p.stem}``" not in (fdoc or "")
        ]
        assert not lacking, f"{folder.name}/__init__.py's docstring lacks {lacking}"


def test_no_folder_holds_more_than_14_modules() -> None:
    """Issue 24: a reader sees the layers in folders of at most 14 modules."""
    root = CORE.parent
    for folder in [root, *(p for p in root.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        n = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
        assert n <= 14, f"{folder} holds {n} modules"
