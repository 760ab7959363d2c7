"""The documentation in ``docs/`` (issue 15, done-when 5): the generated docs are fresh, every
README and docs link stays inside the repository and resolves, and every ⚙ choice is listed.

The generated docs (``docs/CHOICES.md``, ``docs/RULE_COVERAGE.md`` and the generated blocks of
``docs/RULES.md``, ``docs/OBSERVATION.md``, ``docs/BENCHMARK.md``) are rebuilt in memory by
``scripts/regen_docs.py`` and compared with the committed files.

Every file name cited anywhere in the repository — code, docstrings and comments, data files,
configs, docs, the schema, ``.importlinter`` — must name a file of the repository (issue 24,
done-when 2): :func:`citation_problems` states what counts as a citation and how it resolves.
In short: a bare ``RULES.md`` is docs/RULES.md (it keeps the rules specification's § numbers),
``STYLE.md habit N``, ``RULES.md §N`` and a quoted section title after a file name must exist in
that file, and a seed document is cited by its words (``seed 004, p. 17``), never by a path: the
seeds are sources kept outside the repository, not files in it.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import posixpath
import re
import subprocess
import sys
import tokenize
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
        ("docs/API.md §3", set()),
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


# ----------------------------------------------------------------------------- citations
#: what the citation check reads: every tracked file with one of these endings, and these names
CITING_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".toml", ".cfg", ".txt", ".html")
CITING_NAMES = (".importlinter",)
#: where a cited path may be, in this order: the citing file's folder, the repository root,
#: docs/ (so a bare ``RULES.md`` is docs/RULES.md), the package (``core/play/legal.py``,
#: ``data/vehicles.yaml``, ``env/rewards.yaml``) and its data folder (``maps/farm_assault.yaml``)
BASES = (None, "", "docs", "ambush_env", "ambush_env/data")
#: files the code writes, not files of the repository: a mention names the output
OUTPUT_NAMES = {
    "leaderboard.md": "ambush bench writes it beside the result files (docs/BENCHMARK.md)",
}
#: the docs site's generated pages of repository files (scripts/mkdocs_hooks.py)
SITE_SOURCE = "source/"
CITE = re.compile(
    r"(?<![\w./@-])("
    r"(?:\.\.?/)*(?:[\w.-]+/)*[\w.-]*\w\.md"  # any Markdown file, with or without a folder
    r"|(?:\.\.?/)*(?:[\w.-]+/)+[\w.-]*\w\.(?:py|ya?ml|json|toml|cfg|txt|html)"  # a path
    r")(?![\w/-])"
)
#: a file named by an absolute path: never a file of the repository
ABSOLUTE = re.compile(
    r"(?<![\w.:/~-])(/(?:[\w.-]+/)+[\w.-]*\w\.(?:md|py|ya?ml|json|toml|cfg|txt|html))(?![\w/-])"
)
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s)\]>\"'`]+")
PLACEHOLDER = re.compile(r"[*<>{}$…]|\.\.\.")
#: after a cited name: a quoted title, ``docs/API.md "Reward"`` (or after a comma)
SECTION = re.compile(r'^,?[ ]\\?"([^"\\\n]{1,80})\\?"')
HABIT = re.compile(r"^,?[ ]habits?[ ](\d+)")  # STYLE.md habit N
RULE_SECTION = re.compile(r"^[ ]?§[ ]?(\d+)")  # RULES.md §N
OUTSIDE = ("../shared/", "/work/shared", "shared/spec/", "shared/seeds/")


@functools.lru_cache(maxsize=1)
def _tracked() -> frozenset[str]:
    """The repository's files (``git ls-files``): a citation must name one of them."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return frozenset(p for p in out.split("\0") if p)


def _ignored(path: str) -> bool:
    """Whether git ignores ``path`` (an output such as ``results/bench/leaderboard.md``)."""
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT)
    return done.returncode == 0


def _resolve(citing: str, token: str) -> str | None:
    """The tracked file a citation in the file ``citing`` (relative to the root) names, or None."""
    tracked = _tracked()
    for base in BASES:
        folder = posixpath.dirname(citing) if base is None else base
        path = posixpath.normpath(posixpath.join(folder, token))
        if not path.startswith("../") and path in tracked:
            return path
    return None


def _docstrings_and_comments(text: str) -> list[tuple[int, str]] | None:
    """``(first line, text)`` of the comments and docstring-position strings of Python source
    (a string alone on its logical line), or None when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    parts = [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]
    code = [t for t in tokens if t.type not in (tokenize.NL, tokenize.COMMENT)]
    alone_before = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
    for i, t in enumerate(code):
        if t.type != tokenize.STRING:
            continue
        before = code[i - 1].type if i else tokenize.ENCODING
        after = code[i + 1].type if i + 1 < len(code) else tokenize.ENDMARKER
        if before in alone_before and after in (tokenize.NEWLINE, tokenize.ENDMARKER):
            parts.append((t.start[0], t.string))
    return parts


def _headings(text: str) -> list[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return [_plain(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*$", text, flags=re.MULTILINE)]


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", text).lower().split())


@functools.cache
def _doc(path: str) -> tuple[tuple[str, ...], str]:
    """A tracked Markdown file's headings and its whole text, both as :func:`_plain` text."""
    text = (ROOT / path).read_text(encoding="utf-8")
    return tuple(_headings(text)), _plain(text)


def _section_problem(path: str, token: str, after: str) -> str | None:
    """What is wrong with the part of a citation after the file name, if anything: a quoted
    title (``docs/API.md "Reward"``) must begin one of the file's headings or be a phrase of
    it; ``STYLE.md habit N`` must be one of its numbered habits; ``RULES.md §N`` one of its
    ``§N`` sections."""
    name = posixpath.basename(path)
    headings, whole = _doc(path)
    m = SECTION.match(after)
    if m:
        title = _plain(m.group(1))
        pieces = [p.strip() for p in re.split(r"\.\.\.|…", title) if p.strip()]
        if not any(h.startswith(title) for h in headings) and not all(p in whole for p in pieces):
            return f'{token} "{m.group(1)}": no such section or phrase in {path}'
    m = HABIT.match(after)
    if m and name == "STYLE.md":
        text = (ROOT / path).read_text(encoding="utf-8")
        if not re.search(rf"^{m.group(1)}\. ", text, flags=re.MULTILINE):
            return f"{token} habit {m.group(1)}: {path} has no habit {m.group(1)}"
    m = RULE_SECTION.match(after)
    if m and name == "RULES.md" and not any(h.startswith(f"§{m.group(1)} ") for h in headings):
        return f"{token} §{m.group(1)}: {path} has no section §{m.group(1)}"
    return None


def citation_problems(path: Path, rel: str | None = None) -> list[str]:
    """``"FILE:LINE: what"`` for every citation in the file ``path`` that names no file of the
    repository (``rel``: its path relative to the root, by default its own).

    What counts as a citation, and how it resolves:

    * a name ending in ``.md`` (``RULES.md``, ``docs/API.md``, a Markdown link's target), or a
      path with a folder ending in ``.py``, ``.yaml``/``.yml``, ``.json``, ``.toml``, ``.cfg``,
      ``.txt`` or ``.html`` (``core/play/legal.py``, ``data/vehicles.yaml``). A bare ``x.py`` or
      ``rules.yaml`` is a module or data name in prose and is not checked;
    * it resolves against the citing file's folder, the root, ``docs/``, ``ambush_env/`` and
      ``ambush_env/data/`` (:data:`BASES`), and must name a tracked file (``git ls-files``), never
      one outside the repository (an absolute path, such as one under ``/work/``, never does);
    * not citations: URLs; placeholders (``<id>``, ``*``, ``{a,b}``, ``...``, and an upper-case
      stem of a non-Markdown file such as ``configs/train/NAME.yaml``); outputs the code writes
      (:data:`OUTPUT_NAMES`, and any path git ignores, such as ``results/...``); the docs site's
      generated ``source/<file>.md`` pages, which stand for the file after ``source/``; a JSON
      Schema's ``$id`` (a name, not a link); in Python, string literals in the code of a test
      (fixtures: pages a test builds, a planted bad citation), while comments and docstrings
      everywhere and code strings outside ``tests/`` are read;
    * after the name, a quoted title (``docs/API.md "Reward"``) must begin a heading of that file
      or be a phrase of it (``...`` may elide; ``FILE: "a quotation"`` after a colon is not
      checked); ``STYLE.md habit N`` must be a habit of docs/STYLE.md; ``RULES.md §N`` a section
      of docs/RULES.md (the spec's § numbers, which docs/RULES.md keeps);
    * a seed is cited by its words (``seed 004, p. 17``): the seed documents are sources, not
      files of the repository, and a path into the shared folder beside it is always a problem.
    """
    rel = rel if rel is not None else path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    problems = _problems_in(rel, [(1, text)])
    if problems and rel.endswith(".py") and rel.startswith("tests/"):
        # a test's code strings are fixtures: read its docstrings and comments alone (only
        # when the whole text has a problem, since tokenizing every test file is slow)
        parts = _docstrings_and_comments(text)
        if parts is not None:
            problems = _problems_in(rel, parts)
    return problems


def _problems_in(rel: str, parts: list[tuple[int, str]]) -> list[str]:
    """The problems of :func:`citation_problems` in ``(first line, text)`` parts of a file."""
    problems: list[str] = []
    for first, part in parts:
        for k, line_text in enumerate(part.splitlines()):
            where = f"{rel}:{first + k}"
            for bad in OUTSIDE:
                if bad in line_text:
                    problems.append(f"{where}: mentions {bad!r}, outside the repository")
                    break
            if '"$id"' in line_text:
                continue
            scan = URL.sub(lambda u: " " * len(u.group()), line_text)
            for m in ABSOLUTE.finditer(scan):
                problems.append(f"{where}: {m.group(1)}: an absolute path, outside the repository")
            for m in CITE.finditer(scan):
                why = _citation_problem(rel, m.group(1), scan[m.end() :])
                if why:
                    problems.append(f"{where}: {why}")
    return problems


def _citation_problem(rel: str, token: str, after: str) -> str | None:
    """What is wrong with one cited name ``token`` of the file ``rel``, followed by ``after``
    on its line; None when it resolves (:func:`citation_problems`)."""
    name = posixpath.basename(token)
    if PLACEHOLDER.search(token) or name in OUTPUT_NAMES:
        return None
    if not token.endswith(".md") and name.rsplit(".", 1)[0].isupper():
        return None  # configs/train/NAME.yaml
    if token.startswith(SITE_SOURCE):
        page = token[len(SITE_SOURCE) : -len(".md")].removesuffix("index").rstrip("/")
        if page in _tracked() or any(t.startswith(page + "/") for t in _tracked()):
            return None
    found = _resolve(rel, token)
    if found is None:
        if not token.startswith("../") and _ignored(token):
            return None
        return f"{token}: no such file in the repository"
    return _section_problem(found, token, after) if found.endswith(".md") else None


def _citing_files() -> list[str]:
    return sorted(
        p
        for p in _tracked()
        if p.endswith(CITING_SUFFIXES) or posixpath.basename(p) in CITING_NAMES
    )


def test_every_cited_file_is_in_the_repository():
    """Done-when 2 of issue 24: each file name cited in code, data, configs and docs resolves
    to a file of the repository (:func:`citation_problems` gives the rules)."""
    files = _citing_files()
    assert len(files) > 100, f"only {len(files)} files to read: the scan is broken"
    problems = [p for rel in files if (ROOT / rel).is_file() for p in citation_problems(ROOT / rel)]
    assert not problems, "citations of files not in the repository:\n" + "\n".join(problems)


def test_citation_checker_reports_a_planted_bad_citation(tmp_path):
    planted = tmp_path / "planted.md"
    planted.write_text(
        "# Planted\n\n"
        "The rules are in RULES.md and [the API](docs/API.md#import-paths).\n"
        "The contracts are in docs/NOPE.md, the code in core/play/nope.py.\n"
        'See docs/API.md "Reward", docs/API.md "No such section" and docs/STYLE.md habit 3.\n'
        "Habit docs/STYLE.md habit 42 and RULES.md §8 and RULES.md §99.\n"
        "Placeholders pass: configs/train/NAME.yaml, tests/golden/<mission>.txt, https://x.org/a.md.\n"
        "The spec outside: ../shared/spec/INTERFACE.md, and notes in /work/notes/audit.md.\n",
        encoding="utf-8",
    )
    problems = citation_problems(planted, rel="docs/planted.md")
    reported = "\n".join(problems)
    assert "docs/planted.md:4: docs/NOPE.md: no such file in the repository" in problems
    assert "docs/planted.md:4: core/play/nope.py: no such file in the repository" in problems
    assert '"No such section": no such section' in reported
    assert "habit 42" in reported and "§99" in reported
    assert "../shared/" in reported
    assert "/work/notes/audit.md: an absolute path" in reported
    for fine in ("RULES.md:", "docs/API.md#", "habit 3", "§8", "NAME.yaml", "<mission>", "x.org"):
        assert fine not in reported, f"{fine!r} was reported: {reported}"
    assert len(problems) == 8, reported


def test_citation_checker_reads_a_tests_docstrings_not_its_fixtures(tmp_path):
    """In a test file the docstrings and comments are citations; its code's strings are data."""
    planted = tmp_path / "test_planted.py"
    planted.write_text(
        '"""Cites docs/NOPE.md."""\n\n'
        'PAGE = "a page citing missing.md"  # and this comment cites docs/GONE.md\n',
        encoding="utf-8",
    )
    problems = citation_problems(planted, rel="tests/test_planted.py")
    assert sorted(problems) == [
        "tests/test_planted.py:1: docs/NOPE.md: no such file in the repository",
        "tests/test_planted.py:3: docs/GONE.md: no such file in the repository",
    ]
