"""Each file of ambush_env/core opens with one short paragraph saying what it owns, and the
package docstring's map of where each rule lives names every module (issue 9)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ambush_env.core as core

CORE = Path(core.__file__).parent
MODULES = sorted(p for p in CORE.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_module_opens_with_what_it_owns(path: Path) -> None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{path.name} has no module docstring"
    first = doc.split("\n\n", 1)[0]
    assert first.startswith("Owns "), f"{path.name}: the first paragraph should say what it owns"
    assert len(first.splitlines()) <= 3, f"{path.name}: the opening paragraph is longer than 3 lines"


def test_package_map_names_every_module() -> None:
    doc = core.__doc__ or ""
    missing = [p.stem for p in MODULES if f"``{p.stem}``" not in doc]
    assert not missing, f"ambush_env/core/__init__.py's map lacks {missing}"
