"""The documentation site (mkdocs.yml, issue 24): ``mkdocs build --strict`` builds docs/ and the
API reference without a warning, and the strict build still fails on a broken link.

Outside CI the tests skip with a reason when the ``docs`` extra (mkdocs-material,
mkdocstrings-python) is missing; under ``CI=true`` (``.ci/run`` installs it) they fail instead.
The link checks build small sites of their own (docs/ replaced by a folder of test pages, the
search plugin only) with the repository's mkdocs.yml, its validation settings and its hook."""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "mkdocs.yml"


def _need_docs_extra() -> None:
    missing = [
        name
        for name, module in (
            ("mkdocs-material", "material"),
            ("mkdocstrings-python", "mkdocstrings_handlers.python"),
        )
        if importlib.util.find_spec(module.split(".")[0]) is None
        or importlib.util.find_spec(module) is None
    ]
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(
                f"CI=true: the docs extra must be installed (pip install -e '.[docs]'): "
                f"missing {', '.join(missing)}"
            )
        pytest.skip(f"the docs extra is not installed: missing {', '.join(missing)}")


def test_the_site_builds_strictly(tmp_path):
    """The command .ci/run runs: every page, every link, every docstring without a warning."""
    _need_docs_extra()
    site = tmp_path / "site"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert "WARNING" not in run.stderr, run.stderr[-4000:]
    assert (site / "index.html").is_file()
    # the API reference is generated from the docstrings: the Game facade has its entry
    play = (site / "reference" / "core" / "play" / "index.html").read_text(encoding="utf-8")
    assert 'id="ambush_env.core.play.game.Game"' in play
    # a link from docs/ to a file of the repository leads to the file's generated source page
    choices = (site / "CHOICES" / "index.html").read_text(encoding="utf-8")
    assert 'href="../source/ambush_env/bench.py/"' in choices
    bench = (site / "source" / "ambush_env" / "bench.py" / "index.html").read_text(encoding="utf-8")
    assert ">run_bench<" in bench and 'id="L1"' in bench
    # a Mermaid diagram is a <pre class="mermaid"> block that the theme draws, not highlighted code
    mermaid = [
        p for p in (ROOT / "docs").glob("*.md") if "```mermaid" in p.read_text(encoding="utf-8")
    ]
    for page in mermaid:
        html = (site / page.stem / "index.html").read_text(encoding="utf-8")
        assert '<pre class="mermaid"><code>' in html, page.name


def _build(tmp_path: Path, pages: dict[str, str], nav: list[str] | None = None) -> list[str]:
    """Build ``pages`` (name -> Markdown; the nav: ``nav``, or every page) with the repository's
    mkdocs.yml in strict mode; returns the warnings logged, or raises mkdocs' Abort."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    config = load_config(
        str(CONFIG),
        docs_dir=str(docs),
        site_dir=str(tmp_path / "site"),
        nav=sorted(pages) if nav is None else nav,
        plugins=["search"],
        strict=True,
    )
    warnings: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    handler = Keep()
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(config)
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    return warnings


def _repo_link(tmp_path: Path, rel: str) -> str:
    """A relative link from the test pages to the repository's ``rel`` (as ../ambush_env/...
    is from docs/)."""
    return os.path.relpath(ROOT / rel, tmp_path / "docs").replace(os.sep, "/")


def test_a_link_to_a_repository_file_becomes_its_source_page(tmp_path):
    _need_docs_extra()
    link = _repo_link(tmp_path, "ambush_env/core/world/hexgrid.py")
    folder = _repo_link(tmp_path, "configs/bench")
    assert (
        _build(
            tmp_path,
            {
                "index.md": f"# Home\n\nSee [the grid]({link}#L1), [the suites]({folder}/) "
                f"and [the other page](other.md#a-heading).\n\n`[not a link]({link}x)`\n",
                "other.md": "# Other\n\n## A heading\n",
            },
        )
        == []
    )
    site = tmp_path / "site"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="source/ambush_env/core/world/hexgrid.py/#L1"' in home
    assert 'href="source/configs/bench/"' in home
    source = site / "source" / "ambush_env" / "core" / "world" / "hexgrid.py" / "index.html"
    source = source.read_text(encoding="utf-8")
    assert "ambush_env/core/world/hexgrid.py" in source and 'id="L1"' in source
    listing = (site / "source" / "configs" / "bench" / "index.html").read_text(encoding="utf-8")
    assert "smoke.yaml" in listing


@pytest.mark.parametrize(
    "link",
    [
        pytest.param("missing.md", id="a docs page that does not exist"),
        pytest.param("other.md#no-such-heading", id="a heading that does not exist"),
        pytest.param("REPO/ambush_env/no_such_module.py", id="a repository file that is not there"),
        pytest.param("REPO/ambush_env/core/world/hexgrid.py#L99999", id="a line the file lacks"),
    ],
)
def test_the_strict_build_fails_on_a_broken_link(tmp_path, link):
    _need_docs_extra()
    from mkdocs.exceptions import Abort

    link = link.replace("REPO", _repo_link(tmp_path, "."))
    with pytest.raises(Abort, match="strict mode"):
        _build(
            tmp_path,
            {
                "index.md": f"# Home\n\nSee [it]({link}).\n",
                "other.md": "# Other\n\n## A heading\n",
            },
        )


def test_a_page_left_out_of_the_nav_fails_the_strict_build(tmp_path):
    _need_docs_extra()
    from mkdocs.exceptions import Abort

    with pytest.raises(Abort, match="strict mode"):
        _build(tmp_path, {"index.md": "# Home\n", "orphan.md": "# Orphan\n"}, nav=["index.md"])


def test_every_page_of_docs_is_in_the_nav():
    """mkdocs.yml's nav names every Markdown page of docs/ and nothing that is not there."""
    _need_docs_extra()
    from mkdocs.config import load_config

    config = load_config(str(CONFIG))

    def pages(nav) -> list[str]:
        out: list[str] = []
        for item in nav:
            if isinstance(item, str):
                out.append(item)
            elif isinstance(item, dict):
                for value in item.values():
                    out.extend(pages(value) if isinstance(value, list) else [value])
        return out

    in_nav = set(pages(config.nav))
    on_disk = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert in_nav == on_disk


def _docstrings_extension():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "griffe_docstrings", ROOT / "scripts" / "griffe_docstrings.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docstrings_are_read_as_google_sections_around_rest(tmp_path):
    """scripts/griffe_docstrings.py: several names per entry, Sphinx roles, simple tables."""
    _need_docs_extra()
    import griffe

    ext = _docstrings_extension()
    pkg = tmp_path / "demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Demo."""\n', encoding="utf-8")
    (pkg / "grid.py").write_text(
        '"""The grid.\n\n'
        "=====  ===========\n"
        "name   what\n"
        "=====  ===========\n"
        "``a``  first | one\n"
        "       and more\n"
        "``b``  second\n"
        "=====  ===========\n\n"
        "Shape::\n\n    x = 1\n"
        '"""\n\n\n'
        "def size(columns: int, rows: int, step: int) -> int:\n"
        '    """The size, by :func:`area` (not :func:`_hidden`, nor :class:`Nowhere`).\n\n'
        "    Args:\n"
        "        columns,\n"
        "        rows: the map's width and height.\n"
        "            In hexes.\n"
        "        step: a step.\n"
        '    """\n'
        "    return columns * rows\n\n\n"
        "def area() -> int:\n"
        '    """An area; see :func:`~demo.grid.size`."""\n'
        "    return 0\n\n\n"
        "def _hidden() -> None:\n"
        '    """Private."""\n',
        encoding="utf-8",
    )
    extensions = griffe.load_extensions(ext.SiteDocstrings())
    module = griffe.load("demo", search_paths=[str(tmp_path)], extensions=extensions)
    grid = module["grid"]
    size = grid["size"].docstring
    assert "[`area`][demo.grid.area]" in size.value
    assert "`_hidden`" in size.value and "[`_hidden`]" not in size.value
    assert "`Nowhere`" in size.value and "[`Nowhere`]" not in size.value
    assert "[`size`][demo.grid.size]" in grid["area"].docstring.value
    params = next(s for s in size.parse("google") if s.kind.value == "parameters").value
    assert [(p.name, p.description) for p in params] == [
        ("columns", "the map's width and height.\nIn hexes."),
        ("rows", "the map's width and height.\nIn hexes."),
        ("step", "a step."),
    ]
    text = grid.docstring.value
    assert "| name | what |" in text
    assert r"| ``a`` | first \| one and more |" in text
    assert "| ``b`` | second |" in text
    assert "Shape:\n" in text and "Shape::" not in text
