"""The documentation in ``docs/`` (issue 15, done-when 5): the generated docs are fresh, every
README and docs link stays inside the repository and resolves, and every ⚙ choice is listed.

The generated docs (``docs/CHOICES.md``, ``docs/RULE_COVERAGE.md`` and the generated blocks of
``docs/RULES.md``, ``docs/OBSERVATION.md``, ``docs/BENCHMARK.md``) are rebuilt in memory by
``scripts/regen_docs.py`` and compared with the committed files.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIX = "python scripts/regen_docs.py"


def _load_regen():
    spec = importlib.util.spec_from_file_location("regen_docs", ROOT / "scripts" / "regen_docs.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_docs", mod)
    spec.loader.exec_module(mod)
    return mod


regen = _load_regen()


def test_generated_docs_are_fresh():
    bad = regen.stale()
    assert not bad, (
        f"stale generated docs: {', '.join(bad)}. A ⚙ mark, a test citation, the "
        f"observation spec, the orders or a data file changed since they were "
        f"generated: run `{FIX}` and commit the result"
    )


def test_check_mode_names_stale_files_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """``--check`` on a tree whose CHOICES.md is stale exits 1 naming it, and leaves it alone."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for p in (ROOT / "docs").glob("*.md"):
        (docs / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    (docs / "CHOICES.md").write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(regen, "DOCS", docs)
    assert regen.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "CHOICES.md" in err and FIX in err
    assert (docs / "CHOICES.md").read_text(encoding="utf-8") == "old\n"


# --------------------------------------------------------------------------------- links
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HREF = re.compile(r"""(?:href|src)=["']([^"']+)["']""")


def _docs() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces → -."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    out = set(re.findall(r"""<a id=["']([^"']+)["']""", text))
    counts: Counter[str] = Counter()
    for h in re.findall(r"^#{1,6}\s+(.+?)\s*$", text, flags=re.MULTILINE):
        s = _slug(h)
        out.add(s if not counts[s] else f"{s}-{counts[s]}")
        counts[s] += 1
    return out


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks hold no links
    return LINK.findall(text) + HREF.findall(text)


@pytest.mark.parametrize("doc", _docs(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_in_the_repository_and_resolve(doc):
    problems = []
    text = doc.read_text(encoding="utf-8")
    for bad in ("/work/shared", "../shared/", "shared/spec", "shared/seeds"):
        if bad in text:
            problems.append(f"mentions {bad!r}, outside the repository (link into docs/ instead)")
    for target in _links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc.resolve()
        try:
            dest.relative_to(ROOT)
        except ValueError:
            problems.append(f"{target}: points outside the repository")
            continue
        if not dest.exists():
            problems.append(f"{target}: no such file")
            continue
        if anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            problems.append(f"{target}: no anchor #{anchor} in {dest.relative_to(ROOT).as_posix()}")
    assert not problems, f"{doc.relative_to(ROOT).as_posix()}: " + "; ".join(problems)


def test_link_checker_catches_escapes_and_missing_files():
    """The checker itself: an escaping ``../`` and a missing file are both caught."""
    assert _links_of("see [spec](../../shared/spec/RULES.md) and [x](docs/nope.md)") == [
        "../../shared/spec/RULES.md",
        "docs/nope.md",
    ]
    assert _slug("§5 Sequence of play") == "5-sequence-of-play"
    assert _slug("German card deck (RULES.md §14)") == "german-card-deck-rulesmd-14"


def _links_of(text: str) -> list[str]:
    return LINK.findall(text)


# ------------------------------------------------------------------------------- choices
def test_every_choice_mark_is_listed_with_its_text():
    """Every ⚙ mark of the scanned files appears in CHOICES.md's entries for that file."""
    per_file: Counter[str] = Counter()
    for c in regen.collect_choices():
        per_file[c["path"]] += c["text"].count(regen.MARK)
    marks = regen.count_marks()
    assert marks, "no ⚙ marks found: the scan is broken"
    missing = {p: (n, per_file[p]) for p, n in marks.items() if per_file[p] != n}
    assert not missing, f"⚙ marks (in file, listed) that CHOICES.md does not show: {missing}"


def test_rules_md_has_a_section_for_every_choice_area():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    areas = {c["area"] for c in regen.collect_choices()}
    missing = [
        a
        for a in sorted(areas)
        if f'<a id="{a}"></a>' not in rules and f'<a id="{a}">' not in rules
    ]
    assert not missing, f"docs/RULES.md has no section (anchor) for the ⚙ areas {missing}"
    for key, title, _ in regen.AREAS:
        if key in areas:
            assert f"CHOICES.md#{key}" in rules, (
                f"docs/RULES.md does not link to CHOICES.md#{key} ({title})"
            )


def test_choice_anchors_are_names_not_line_numbers():
    for c in regen.collect_choices():
        assert not re.fullmatch(r"\d+", c["anchor"]), c


# ------------------------------------------------------------------------------ coverage
@pytest.mark.parametrize(
    "text, expected",
    [
        ("seed 002, p. 26", {"seed 002 p. 26"}),
        ("Seed 004 p. 18", {"seed 004 p. 18"}),
        ("(p. 30-31: the vehicle)", {"seed 000 p. 30", "seed 000 p. 31"}),
        ("seed 000 p. 30, 33", {"seed 000 p. 30", "seed 000 p. 33"}),
        ("Seed 003 RAMMING", {"seed 003"}),
        ("RULES.md §8", {"RULES.md §8"}),
        ("RULES.md §5.3 acting order", {"RULES.md §5.3"}),
        ("(§4-§5)", {"RULES.md §4", "RULES.md §5"}),
        ("§2-3", {"RULES.md §2", "RULES.md §3"}),
        ("INTERFACE.md §3", set()),
        ("game seed 3 and p. 5 of nothing", set()),  # a game seed, and a page of no seed
    ],
)
def test_citations_are_normalised(text, expected):
    assert {s for _, s in regen.citations(text)} == expected


def test_coverage_attributes_citations_to_the_citing_test():
    cov = regen.collect_coverage()
    # the line-of-sight tests cite seed 004's pages; this file's own examples are no citations
    assert any(t.startswith("tests/core/") for t in cov["seed 004 p. 17"])
    assert all("::" in t or t.endswith(".py") for ts in cov.values() for t in ts)
    assert not any(t.startswith("tests/test_docs.py") for ts in cov.values() for t in ts)
