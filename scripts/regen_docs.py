"""Regenerate the generated documentation in ``docs/`` (issue 15).

Writes, from the repository alone (no file outside it is read):

* ``docs/CHOICES.md``: every ⚙ mark of ``ambush_env/``, ``agents/`` and ``configs/`` — the file,
  a stable anchor (the Python function/class/name or the YAML key it governs, never a line
  number) and the choice's own text — grouped by rule area;
* ``docs/RULE_COVERAGE.md``: seed document + page and ``RULES.md`` § → the tests that cite
  them, from ``tests/**/*.py``, and the pages and sections no test cites;
* the generated blocks of ``docs/OBSERVATION.md`` and ``docs/BENCHMARK.md`` (between
  ``<!-- BEGIN GENERATED: name -->`` and ``<!-- END GENERATED: name -->``): the observation
  tables, the order families, the reward schemes, the env ids, the position keys and the
  benchmark suites, from the code and data that define them.

Usage::

    python scripts/regen_docs.py            # write every generated doc
    python scripts/regen_docs.py --check    # exit 1 naming the stale docs, write nothing

The output is deterministic (sorted, no dates, paths relative to the repository root), so
``tests/test_docs.py`` compares it in memory with the committed files.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import functools
import io
import re
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
MARK = "⚙"
REGEN = "python scripts/regen_docs.py"

# ------------------------------------------------------------------------------------ areas
#: rule areas of docs/RULES.md, in its order: (key, title, RULES.md § of the spec). The
#: anchors of docs/CHOICES.md are ``#<key>`` and docs/RULES.md links to them.
AREAS: tuple[tuple[str, str, str], ...] = (
    ("dice", "Dice", "§1"),
    ("map", "The map and hexes", "§2"),
    ("los", "Line of sight", "§3"),
    ("soldiers", "Soldiers and squads", "§4"),
    ("sequence", "Sequence of play", "§5"),
    ("movement", "Turns, actions and movement", "§6"),
    ("perception", "PC checks, sightings, paragraphs, mines and traps", "§7"),
    ("fire", "Fire combat", "§8"),
    ("grenades", "Grenades and satchel charges", "§9"),
    ("assault", "Assault and capture", "§10"),
    ("damage", "Damage, prisoners and captured equipment", "§11"),
    ("vehicles", "Vehicles and tanks", "§12"),
    ("d100", "The d100 vehicle-combat module", "§13"),
    ("german", "German cards and decks", "§14"),
    ("missions", "Missions, objectives and scoring", "§15"),
    ("procedural", "Procedural missions", "§15"),
    ("campaign", "The campaign", "§16"),
    ("env", "The environment: observations, actions, rewards, positions", "INTERFACE"),
    ("benchmark", "Benchmark, statistics and agents", "INTERFACE"),
)
AREA_TITLE = {k: t for k, t, _ in AREAS}

#: path prefix → area; the first match wins (longest prefixes first where they overlap)
PATH_AREAS: tuple[tuple[str, str], ...] = (
    ("ambush_env/core/model/dice.py", "dice"),
    ("ambush_env/core/world/board.py", "map"),
    ("ambush_env/core/world/hexgrid.py", "map"),
    ("ambush_env/data/maps/", "map"),
    ("ambush_env/core/world/los.py", "los"),
    ("ambush_env/cli_los.py", "los"),
    ("ambush_env/core/world/squads.py", "soldiers"),
    ("ambush_env/data/squad_points.yaml", "soldiers"),
    ("configs/squads/", "soldiers"),
    ("ambush_env/core/play/sequence.py", "sequence"),
    ("ambush_env/core/rules/turns.py", "sequence"),
    ("ambush_env/core/rules/movement.py", "movement"),
    ("ambush_env/core/rules/enter.py", "movement"),
    ("ambush_env/data/terrain.yaml", "movement"),
    ("ambush_env/core/combat/sighting.py", "perception"),
    ("ambush_env/core/play/paragraphs.py", "perception"),
    ("ambush_env/core/combat/traps.py", "perception"),
    ("ambush_env/core/rules/mines.py", "perception"),
    ("ambush_env/core/combat/strikes.py", "perception"),
    ("ambush_env/core/rules/fire.py", "fire"),
    ("ambush_env/core/combat/shooting.py", "fire"),
    ("ambush_env/core/world/tables.py", "fire"),
    ("ambush_env/data/weapons.yaml", "fire"),
    ("ambush_env/core/combat/grenades.py", "grenades"),
    ("ambush_env/core/rules/assault.py", "assault"),
    ("ambush_env/core/rules/damage.py", "damage"),
    ("ambush_env/data/damage.yaml", "damage"),
    ("ambush_env/core/rules/carry.py", "damage"),
    ("ambush_env/core/rules/prisoners.py", "damage"),
    ("ambush_env/core/d100", "d100"),
    ("ambush_env/data/d100.yaml", "d100"),
    ("ambush_env/core/vehicle", "vehicles"),
    ("ambush_env/core/vehicles/tanks.py", "vehicles"),
    ("ambush_env/data/vehicle", "vehicles"),
    ("ambush_env/core/world/cards.py", "german"),
    ("ambush_env/core/play/german.py", "german"),
    ("ambush_env/data/cards/", "german"),
    ("ambush_env/core/world/missions.py", "missions"),
    ("ambush_env/core/rules/scoring.py", "missions"),
    ("ambush_env/data/missions/", "missions"),
    ("ambush_env/core/play/procedural.py", "procedural"),
    ("ambush_env/data/procedural.yaml", "procedural"),
    ("ambush_env/core/play/campaign.py", "campaign"),
    ("ambush_env/data/campaign", "campaign"),
    ("ambush_env/env/", "env"),
    ("ambush_env/core/model/orders.py", "env"),
    ("ambush_env/core/play/position.py", "env"),
    ("ambush_env/render/", "env"),
    ("ambush_env/bench.py", "benchmark"),
    ("ambush_env/stats.py", "benchmark"),
    ("ambush_env/plots.py", "benchmark"),
    ("agents/", "benchmark"),
    ("configs/train/", "benchmark"),
    ("configs/bench/", "benchmark"),
)
#: files whose choices span several areas: the area comes from the first RULES.md § the
#: choice cites, else from its words (first match), else the fallback. Patterns are matched case-insensitively against the text.
KEYWORD_AREAS: tuple[tuple[str, str], ...] = (
    (r"\bd100\b|seed 003|vehicle trouble", "d100"),
    (r"\balert\b|german cards?\b|the cards\b", "german"),
    (r"\btank|vehicle|\bcar\b|\bdriv|\bseat|crew", "vehicles"),
    (r"grenade|satchel|demolition", "grenades"),
    (r"assault|surrender|captur", "assault"),
    (r"\bmine|booby|landmark|paragraph|sighting", "perception"),
    (r"awareness|aware|initiative|given a turn|command|round", "sequence"),
    (r"\bvp\b|objective|mission", "missions"),
    (r"reload|drop|drag|move", "movement"),
    (r"\bwalls?\b|rubble", "map"),
)
#: the area of each section of the specification (a cross-cutting choice citing one)
SECTION_AREAS = {
    1: "dice",
    2: "map",
    3: "los",
    4: "soldiers",
    5: "sequence",
    6: "movement",
    7: "perception",
    8: "fire",
    9: "grenades",
    10: "assault",
    11: "damage",
    12: "vehicles",
    13: "d100",
    14: "german",
    15: "missions",
    16: "campaign",
}
CROSS_CUTTING = {
    "ambush_env/core/play/legal.py": "movement",
    "ambush_env/core/play/apply.py": "movement",
    "ambush_env/core/rules/ctx.py": "german",
    "ambush_env/core/play/game.py": "missions",
    "ambush_env/core/model/state.py": "sequence",
    "ambush_env/core/model/events.py": "perception",
    "ambush_env/core/world/rules_data.py": "sequence",
    "ambush_env/data/rules.yaml": "sequence",
}


#: (path, anchor) → area, where neither the § cited nor the words place a choice well
ANCHOR_AREAS = {
    ("ambush_env/core/play/legal.py", "module docstring"): "movement",
    ("ambush_env/core/play/legal.py", "_riding_orders"): "vehicles",
}


def area_of(path: str, text: str, anchor: str = "") -> str:
    """The rule area (a key of :data:`AREAS`) of a choice in ``path`` at ``anchor`` with
    ``text``."""
    if (path, anchor) in ANCHOR_AREAS:
        return ANCHOR_AREAS[(path, anchor)]
    if path in CROSS_CUTTING:
        cited = re.search(r"RULES\.md §(\d+)", text)
        if cited and int(cited.group(1)) in SECTION_AREAS:
            return SECTION_AREAS[int(cited.group(1))]
        for pattern, area in KEYWORD_AREAS:
            if re.search(pattern, text, re.IGNORECASE):
                return area
        return CROSS_CUTTING[path]
    for prefix, area in PATH_AREAS:
        if path.startswith(prefix):
            return area
    return "env"


# ---------------------------------------------------------------------------------- choices
SCAN_DIRS = ("ambush_env", "agents", "configs")
SCAN_SUFFIXES = (".py", ".yaml", ".yml")


def scanned_files() -> list[Path]:
    """The files whose ⚙ marks are collected: ``.py`` and ``.yaml`` under :data:`SCAN_DIRS`,
    not following links (``ambush_env/agents`` is a link to ``agents/``), sorted."""
    out = []
    for top in SCAN_DIRS:
        base = ROOT / top
        if not base.is_dir():
            continue
        stack = [base]
        while stack:
            d = stack.pop()
            for p in d.iterdir():
                if p.is_symlink() or p.name.startswith(".") or p.name == "__pycache__":
                    continue
                if p.is_dir():
                    stack.append(p)
                elif p.suffix in SCAN_SUFFIXES:
                    out.append(p)
    return sorted(out, key=lambda p: p.relative_to(ROOT).as_posix())


def _clean(text: str) -> str:
    """One line of prose: comment markers and reST markup removed, spaces collapsed."""
    text = re.sub(r":(?:func|class|data|attr|meth|mod|obj):`~?([^`]+)`", r"`\1`", text)
    text = text.replace("``", "`")
    text = re.sub(r"[=\-~^]{4,}", " ", text)  # reST table and heading rules
    text = re.sub(r"\s+", " ", text).strip()
    return text


MAX_TEXT = 700
WINDOW = 220  # characters kept each side of a mark in a long paragraph


def _trim(paragraph: str) -> str:
    """The choice's sentence(s): the whole paragraph when short, else the sentences holding
    the mark (and the one before a sentence that opens with it); when those are still longer
    than :data:`MAX_TEXT`, the words around each mark. Every mark is kept."""
    paragraph = _clean(paragraph)
    if len(paragraph) <= MAX_TEXT:
        return paragraph
    sentences = re.split(r"(?<=[.;!?])\s+(?=[A-Z⚙*`(\"'])", paragraph)
    keep = [i for i, s in enumerate(sentences) if MARK in s]
    picked = sorted(
        {j for i in keep for j in ((i - 1, i) if sentences[i].startswith(MARK) else (i,)) if j >= 0}
    )
    out = " … ".join(sentences[i] for i in picked) if picked else paragraph
    if len(out) <= MAX_TEXT:
        return out
    # still long: a window of words around each mark, overlapping windows merged, so that
    # every mark of the paragraph is kept
    spans: list[list[int]] = []
    for k in (i for i, ch in enumerate(out) if ch == MARK):
        a = out.rfind(" ", 0, max(0, k - WINDOW)) + 1 if k > WINDOW else 0
        b = out.find(" ", k + WINDOW)
        b = len(out) if b < 0 else b
        if spans and a <= spans[-1][1]:
            spans[-1][1] = b
        else:
            spans.append([a, b])
    parts = [out[a:b].strip() for a, b in spans]
    return (
        ("… " if spans[0][0] > 0 else "")
        + " … ".join(parts)
        + (" …" if spans[-1][1] < len(out) else "")
    )


def _py_anchor(tree: ast.Module, line: int, lines: list[str]) -> str:
    """The innermost def/class (``Class.method``) or module-level name holding ``line``; a
    comment just above a statement belongs to that statement; else ``module docstring`` /
    ``module``."""
    best: list[str] = []

    def visit(node: ast.AST, prefix: list[str]) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            name = None
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = child.name
            elif isinstance(child, (ast.Assign, ast.AnnAssign)) and isinstance(
                node, (ast.Module, ast.ClassDef)
            ):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                name = names[0] if names else None
            if name is None:
                continue
            start = min([child.lineno] + [d.lineno for d in getattr(child, "decorator_list", [])])
            # the comment block directly above the statement belongs to it
            k = start - 1
            while k - 1 >= 1 and lines[k - 2].lstrip().startswith("#"):
                k -= 1
            if k <= line <= child.end_lineno:
                path = prefix + [name]
                if len(path) > len(best):
                    best = path
                visit(child, path)

    visit(tree, [])
    if best:
        return ".".join(best)
    doc = ast.get_docstring(tree, clean=False)
    if doc is not None and tree.body and tree.body[0].lineno <= line <= tree.body[0].end_lineno:
        return "module docstring"
    return "module"


def _py_choices(path: Path) -> list[tuple[str, str]]:
    """``(anchor, text)`` of every ⚙ paragraph of a Python file: comment blocks and string
    paragraphs (a docstring's blank-line separated paragraph) that hold the mark."""
    src = path.read_text(encoding="utf-8")
    if MARK not in src:
        return []
    lines = src.splitlines()
    tree = ast.parse(src)
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    found: list[tuple[int, str]] = []
    # comment blocks: consecutive comment tokens on consecutive lines at one column, or an
    # inline comment and the comment lines continuing it at its column
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.type == tokenize.COMMENT:
            block = [t]
            j = i + 1
            while j < len(toks):
                u = toks[j]
                if u.type in (tokenize.NL, tokenize.NEWLINE):
                    j += 1
                    continue
                if (
                    u.type == tokenize.COMMENT
                    and u.start[0] == block[-1].start[0] + 1
                    and u.start[1] == block[0].start[1]
                    and lines[u.start[0] - 1].lstrip().startswith("#")
                ):
                    block.append(u)
                    j += 1
                    continue
                break
            text = " ".join(re.sub(r"^#:?\s?", "", b.string) for b in block)
            if MARK in text:
                found.append(
                    (block[0].start[0] + [MARK in b.string for b in block].index(True), text)
                )
            i = j
            continue
        if t.type == tokenize.STRING and MARK in t.string:
            body = t.string
            start = t.start[0]
            paras = re.split(r"\n[ \t]*\n", body)
            offset = 0
            for para in paras:
                if MARK in para:
                    first = start + body[: body.index(para, offset)].count("\n")
                    mark_line = first + para[: para.index(MARK)].count("\n")
                    text = re.sub(
                        r'^[rRbBuUfF]*("""|\'\'\'|"|\')|("""|\'\'\'|"|\')$', "", para.strip()
                    )
                    found.append((mark_line, text))
                offset = body.index(para, offset) + len(para)
        i += 1
    return [(_py_anchor(tree, ln, lines), _trim(text)) for ln, text in found]


_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z0-9_][\w .\-/]*?|\"[^\"]+\"|'[^']+')\s*:(?:\s|$)")


def _yaml_keys(lines: list[str]) -> list[str | None]:
    """The key path (``a.b.c``) of every line that starts a mapping key, else None."""
    stack: list[tuple[int, str]] = []
    out: list[str | None] = []
    for raw in lines:
        code = raw.split(" #", 1)[0] if not raw.lstrip().startswith("#") else ""
        m = _KEY.match(code)
        if not m:
            out.append(None)
            continue
        dash = code.lstrip().startswith("- ")
        indent = len(m.group(1)) + (2 if dash else 0)
        key = m.group(2).strip("\"'")
        if dash:  # a list item: named by its id / name when it has one
            while stack and stack[-1][0] >= indent - 1.5:
                stack.pop()
            value = code.split(":", 1)[1].strip().strip("\"'{[")
            if key in ("id", "name") and value:
                stack.append((indent - 1.5, f"[{value}]"))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, key))
        path = ""
        for _, k in stack:
            path += k if k.startswith("[") or not path else "." + k
        out.append(path)
    return out


def _yaml_choices(path: Path) -> list[tuple[str, str]]:
    """``(anchor, text)`` of every ⚙ comment block of a YAML file; the anchor is the key the
    comment sits on or stands above (``file header`` for the file's opening comment)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not any(MARK in ln for ln in lines):
        return []
    keys = _yaml_keys(lines)

    def comment(ln: str) -> tuple[int, str] | None:
        k = ln.find("#")
        while k > 0 and ln[k - 1] not in " \t":
            k = ln.find("#", k + 1)
        return (k, ln[k + 1 :].strip()) if k >= 0 else None

    out: list[tuple[str, str]] = []
    i = 0
    n = len(lines)
    while i < n:
        c = comment(lines[i])
        if c is None:
            i += 1
            continue
        col = c[0]
        full = lines[i].lstrip().startswith("#")
        block = [i]
        j = i + 1
        while j < n:
            d = comment(lines[j])
            if d is None or not lines[j].lstrip().startswith("#"):
                break
            if not full and d[0] != col:
                break
            if full and d[0] != col:
                break
            block.append(j)
            j += 1
        text = " ".join(comment(lines[b])[1] for b in block)
        if MARK in text:
            if not full:
                anchor = keys[i] or _nearest_key(keys, i)
            elif all(lines[k].lstrip().startswith("#") or not lines[k].strip() for k in range(i)):
                anchor = "file header"
            else:
                anchor = next((keys[k] for k in range(j, n) if keys[k]), None) or _nearest_key(
                    keys, i
                )
            out.append((anchor or "file", _trim(text)))
        i = j
    return out


def _nearest_key(keys: list[str | None], i: int) -> str | None:
    for k in range(i, -1, -1):
        if keys[k]:
            return keys[k]
    return None


@functools.lru_cache(maxsize=1)
def collect_choices() -> list[dict[str, str]]:
    """Every ⚙ paragraph: ``{"area", "path", "anchor", "text"}``, sorted by area order,
    path and anchor (stable across edits that only move lines)."""
    order = {k: i for i, (k, _, _) in enumerate(AREAS)}
    out = []
    for p in scanned_files():
        rel = p.relative_to(ROOT).as_posix()
        pairs = _py_choices(p) if p.suffix == ".py" else _yaml_choices(p)
        seen = set()
        for anchor, text in pairs:
            if (anchor, text) in seen:
                continue
            seen.add((anchor, text))
            out.append(
                {"area": area_of(rel, text, anchor), "path": rel, "anchor": anchor, "text": text}
            )
    out.sort(key=lambda c: (order[c["area"]], c["path"], c["anchor"], c["text"]))
    return out


def count_marks() -> dict[str, int]:
    """⚙ marks per scanned file (for the test that every marked file is covered)."""
    out = {}
    for p in scanned_files():
        n = p.read_text(encoding="utf-8").count(MARK)
        if n:
            out[p.relative_to(ROOT).as_posix()] = n
    return out


def _md_text(text: str) -> str:
    """Prose for markdown: ``<`` and ``>`` outside code spans escaped, so that ``<seed>``
    shows instead of vanishing as an HTML tag."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unbalanced backtick: escape everything
        return text.replace("<", "&lt;").replace(">", "&gt;")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("<", "&lt;").replace(">", "&gt;")
    return "`".join(parts)


def render_choices() -> str:
    choices = collect_choices()
    by_area: dict[str, list[dict[str, str]]] = defaultdict(list)
    for c in choices:
        by_area[c["area"]].append(c)
    marks = count_marks()
    lines = [
        "# Choices (⚙): where this project decides what the seeds and the spec leave open",
        "",
        (
            f"Generated by `{REGEN}` from the ⚙ marks in `ambush_env/`, `agents/` and `configs/`; "
            "do not edit by hand. Each entry names the file, the anchor the choice governs (a "
            "Python function, class or name, or a YAML key: stable when lines move) and the "
            "choice's own words. [RULES.md](RULES.md) explains the important ones in its sections."
        ),
        "",
        f"{len(choices)} choices ({sum(marks.values())} ⚙ marks) in {len(marks)} files.",
        "",
        "| area | choices |",
        "|---|---:|",
    ]
    for key, title, _ in AREAS:
        if by_area.get(key):
            lines.append(f"| [{title}](#{key}) | {len(by_area[key])} |")
    for key, title, sec in AREAS:
        items = by_area.get(key, [])
        where = f"RULES.md {sec}" if sec.startswith("§") else "API.md"
        lines += [
            "",
            f'<a id="{key}"></a>',
            "",
            f"## {title}",
            "",
            f"Rules reference: [RULES.md](RULES.md#{key}) (spec {where}).",
            "",
        ]
        if not items:
            lines.append("No ⚙ choice in this area: the seeds and the specification settle it.")
        for c in items:
            lines.append(
                f"- [`{c['path']}`](../{c['path']}) — `{c['anchor']}`: {_md_text(c['text'])}"
            )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- rule coverage
#: the pages each seed document cites (its rulebook pages; seed 003 cites none). The page
#: ranges of the seeds do not overlap, so a bare "p. 31" in a test names seed 000.
SEED_PAGES: dict[str, tuple[int, ...]] = {
    "000": (29, 30, 31, 32, 33, 40),
    "002": (25, 26, 27),
    "003": (),
    "004": (17, 18, 19, 20),
}
SEED_TOPICS = {
    "000": "vehicles",
    "002": "damage and captures",
    "003": "d100 vehicle combat",
    "004": "line of sight",
}
PAGE_SEED: dict[int, str] = {}
for _s, _pages in SEED_PAGES.items():
    if _pages:
        for _p in range(min(_pages), max(_pages) + 1):
            PAGE_SEED[_p] = _s
#: the sections of the rules specification (RULES.md, kept outside the repository; its
#: section titles here so the script runs on a fresh clone). docs/RULES.md follows them.
RULES_SECTIONS: dict[int, str] = {
    1: "Dice",
    2: "The map",
    3: "Line of sight",
    4: "Soldiers",
    5: "Sequence of play",
    6: "Turns, actions and movement",
    7: "Perception, sightings, paragraph checks",
    8: "Fire combat",
    9: "Grenades and satchel charges",
    10: "Assault and capture",
    11: "Damage and captures",
    12: "Vehicles",
    13: "The d100 vehicle-combat module",
    14: "German units: cards and an action language",
    15: "Missions",
    16: "Campaign",
}

_SEED = re.compile(r"\bseeds?[ _]+(00[0-4])\b", re.IGNORECASE)
_PAGES = re.compile(
    r"\bpp?\.\s?(\d{1,3}(?:\s?[-–]\s?\d{1,3})?(?:\s?(?:,|and)\s?\d{1,3}(?:\s?[-–]\s?\d{1,3})?)*)"
)
_SECTIONS = re.compile(
    r"(?<![\w.])(?:RULES(?:\.md)?\s*)?§\s?(\d{1,2}(?:\.\d+)?)"
    r"((?:\s?(?:[-–,/]|and)\s?§?\s?\d{1,2}(?:\.\d+)?)*)"
)
_OTHER_DOC = re.compile(r"(INTERFACE|ARCHITECTURE|STYLE|API)(\.md)?\s*$")


def _expand(spec: str) -> list[int]:
    """``"30-31, 33"`` → [30, 31, 33]."""
    out: list[int] = []
    for part in re.split(r"\s?(?:,|and)\s?", spec):
        m = re.match(r"(\d+)\s?[-–]\s?(\d+)", part.strip())
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            out += list(range(a, b + 1)) if 0 <= b - a <= 12 else [a, b]
        elif part.strip().isdigit():
            out.append(int(part.strip()))
    return out


def citations(text: str) -> list[tuple[int, str]]:
    """``(offset, source)`` of every citation in ``text``: ``"seed 000 p. 30"`` for a page
    (a bare ``p. 30`` names the seed whose pages hold it), ``"seed 003"`` for seed 003 (it has
    no pages), ``"RULES.md §8"`` / ``"RULES.md §5.3"`` for sections (``§4-§5`` and ``§2-3``
    name both; a § after ``docs/API.md`` is not RULES.md's)."""
    out: list[tuple[int, str]] = []
    for m in _PAGES.finditer(text):
        for page in _expand(m.group(1)):
            seed = PAGE_SEED.get(page)
            if seed is not None:
                out.append((m.start(), f"seed {seed} p. {page}"))
    for m in _SEED.finditer(text):
        if m.group(1) == "003":
            out.append((m.start(), "seed 003"))
    for m in _SECTIONS.finditer(text):
        if _OTHER_DOC.search(text[max(0, m.start() - 16) : m.start()]):
            continue
        first = m.group(1)
        nums = [first] + re.findall(r"\d{1,2}(?:\.\d+)?", m.group(2) or "")
        if (
            m.group(2)
            and re.match(r"\s?[-–]", m.group(2))
            and len(nums) == 2
            and "." not in "".join(nums)
        ):
            a, b = int(nums[0]), int(nums[1])
            nums = [str(k) for k in range(a, b + 1)] if 0 <= b - a <= 4 else nums
        for n in nums:
            if int(n.split(".")[0]) in RULES_SECTIONS:
                out.append((m.start(), f"RULES.md §{n}"))
    return out


def _test_spans(tree: ast.Module) -> list[tuple[int, int, str]]:
    """``(first, last, name)`` line spans of test functions (``test*``, also methods of
    ``Test*`` classes, named ``Class::test``) and their decorators."""
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
            "test"
        ):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out.append((start, node.end_lineno, node.name))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith(
                    "test"
                ):
                    start = min([sub.lineno] + [d.lineno for d in sub.decorator_list])
                    out.append((start, sub.end_lineno, f"{node.name}::{sub.name}"))
    return out


@functools.lru_cache(maxsize=1)
def collect_coverage() -> dict[str, set[str]]:
    """source → the tests citing it: ``tests/<file>.py::<test>``, or ``tests/<file>.py`` for a
    citation outside every test function (the module docstring, a shared table)."""
    cov: dict[str, set[str]] = defaultdict(set)
    for p in sorted((ROOT / "tests").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if rel == "tests/test_docs.py":
            continue  # its own examples are no citations
        text = p.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        spans = _test_spans(tree)
        starts = [0]
        for ln in text.splitlines(keepends=True):
            starts.append(starts[-1] + len(ln))
        for off, source in citations(text):
            line = bisect.bisect_right(starts, off)
            owner = next((name for a, b, name in spans if a <= line <= b), None)
            cov[source].add(f"{rel}::{owner}" if owner else rel)
    return cov


def _source_key(source: str) -> tuple:
    if source.startswith("seed"):
        parts = source.split()
        return (0, parts[1], int(parts[3]) if len(parts) > 3 else -1)
    nums = source.split("§")[1].split(".")
    return (1, int(nums[0]), int(nums[1]) if len(nums) > 1 else -1)


def _cov_anchor(source: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", source.lower()).strip("-")


def render_coverage() -> str:
    cov = collect_coverage()
    sources = sorted(cov, key=_source_key)
    lines = [
        "# Rule coverage: the sources the tests cite",
        "",
        (
            f"Generated by `{REGEN}` from the citations in `tests/**/*.py`; do not edit by hand. A "
            "citation is a seed document and page (`seed 000 p. 30`, `seed 002, p. 26`, `p. 26-27`: "
            "the four seeds' page ranges do not overlap, so a bare page names its seed; seed 003 has "
            "no pages and is cited as a whole) or a section of the rules specification "
            "(`RULES.md §8`, `§5.3`, `§4-§5`). A citation inside a test function counts for that "
            "test; one outside every test (the module docstring, a shared table of cases) counts "
            "for the module. [RULES.md](RULES.md) says what each section covers."
        ),
        "",
        "## Summary",
        "",
        "| source | topic | tests | files |",
        "|---|---|---:|---:|",
    ]
    for s in sources:
        tests = cov[s]
        files = {t.split("::")[0] for t in tests}
        topic = (
            SEED_TOPICS[s.split()[1]]
            if s.startswith("seed")
            else RULES_SECTIONS[int(s.split("§")[1].split(".")[0])]
        )
        lines.append(f"| [{s}](#{_cov_anchor(s)}) | {topic} | {len(tests)} | {len(files)} |")
    missing_pages = [
        f"seed {seed} p. {page}"
        for seed, pages in SEED_PAGES.items()
        for page in pages
        if f"seed {seed} p. {page}" not in cov
    ]
    missing_seeds = [
        f"seed {seed}"
        for seed, pages in SEED_PAGES.items()
        if not pages and f"seed {seed}" not in cov
    ]
    missing_secs = [
        f"RULES.md §{n} ({t})" for n, t in RULES_SECTIONS.items() if f"RULES.md §{n}" not in cov
    ]
    lines += ["", "## Not cited by any test", ""]
    lines.append(
        "- seed pages (the pages each seed cites): "
        + (", ".join(missing_pages + missing_seeds) if missing_pages or missing_seeds else "none")
    )
    lines.append("- RULES.md sections: " + (", ".join(missing_secs) if missing_secs else "none"))
    lines += ["", "## Tests by source"]
    for s in sources:
        lines += ["", f'<a id="{_cov_anchor(s)}"></a>', "", f"### {s}", ""]
        by_file: dict[str, list[str]] = defaultdict(list)
        for t in sorted(cov[s]):
            f, _, name = t.partition("::")
            by_file[f].append(name)
        for f in sorted(by_file):
            names = [n for n in by_file[f] if n]
            whole = len(names) < len(by_file[f])
            label = f"[`{f}`](../{f})"
            parts = ([("(module)")] if whole else []) + [f"`{n}`" for n in names]
            lines.append(f"- {label}: " + ", ".join(parts))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ generated blocks in docs
def _block_observation() -> str:
    from ambush_env.env import spec

    return spec.describe()


def _order_comments() -> dict[str, str]:
    """The trailing comment of each ``OrderKind`` member in core/model/orders.py."""
    src = (ROOT / "ambush_env/core/model/orders.py").read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^\s+([A-Z_]+) = \d+\s*(?:#\s*(.*))?$", src, re.MULTILINE):
        out[m.group(1)] = (m.group(2) or "").strip()
    return out


#: the meaning of the order kinds whose line in core/model/orders.py has no comment
ORDER_FALLBACK = {
    "SELECT_UNIT": "arg: unit — choose which of the side's units acts next (when several can)",
    "END_MOVE": "end the move action in progress",
    "CLEAR_JAM": "clear the soldier's jammed weapon (a tank: its jammed MGs)",
    "MAKE_AWARE": "a commander makes the soldiers within his CR aware (his turn)",
    "LEAVE_VEHICLE": "get out of the vehicle (or change seats)",
    "DRIVE_BACK": "back the vehicle up one hex",
    "END_DRIVE": "end the drive in progress",
    "LOAD_CANNON": "a tank's load task",
    "OPEN_CLOSE": "open or close a tank",
}


def _block_orders() -> str:
    from ambush_env.core.model import orders

    comments = _order_comments()
    lines = [
        f"`Discrete({orders.N_ORDERS})`: order number = `ORDER_BASE[kind] + arg`.",
        "",
        "| kind | numbers | count | argument and meaning |",
        "|---|---|---:|---|",
    ]
    for k in orders.OrderKind:
        base, n = orders.ORDER_BASE[k], orders.ORDER_COUNT[k]
        rng = f"{base}" if n == 1 else f"{base}–{base + n - 1}"
        lines.append(
            f"| `{k.name}` | {rng} | {n} | {(comments.get(k.name) or ORDER_FALLBACK.get(k.name, '')).replace('|', '/')} |"
        )
    return "\n".join(lines)


def _block_rewards() -> str:
    from ambush_env.core.world.rules_data import load_rules_data
    from ambush_env.env.rewards import load_rewards

    cfg = load_rewards()
    rules = load_rules_data()
    lines = ["| scheme | weights (on top of the default) |", "|---|---|"]
    for name in sorted(cfg.schemes):
        w = cfg.schemes[name]
        lines.append(
            f"| `{name}` | " + (", ".join(f"`{k}` = {v:g}" for k, v in w.items()) or "—") + " |"
        )
    lines += ["", f'Illegal order under `illegal_action="penalize"`: {cfg.illegal_action:g}.']
    reward = getattr(rules, "reward", None)
    if reward is not None:
        items = reward.model_dump() if hasattr(reward, "model_dump") else dict(reward)
        lines.append(
            "Default terms (`ambush_env/data/rules.yaml` `reward:`): "
            + ", ".join(f"`{k}` = {v}" for k, v in items.items())
            + "."
        )
    return "\n".join(lines)


def _block_ids() -> str:
    from ambush_env.env import registration

    lines = ["| id | kwargs |", "|---|---|"]
    for v in registration.VERSIONS:
        for env_id, kwargs in registration.id_table(v):
            kw = ", ".join(f"{k}={val!r}" for k, val in kwargs.items()) or "—"
            lines.append(f"| `{env_id}` | `{kw}` |" if kwargs else f"| `{env_id}` | — |")
    return "\n".join(lines)


def _type_name(ann) -> str:
    """A schema type in words, the same on every Python version: ``str ∣ None``,
    ``"us" ∣ "german"``, ``list[UnitSpec]``."""
    import types
    import typing

    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if ann is type(None):
        return "None"
    if ann is typing.Any:
        return "any"
    if origin is typing.Annotated:
        return _type_name(args[0])
    if origin is typing.Literal:
        return " ∣ ".join(f'"{a}"' if isinstance(a, str) else repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " ∣ ".join(_type_name(a) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(_type_name(a) for a in args)}]"
    return getattr(ann, "__name__", str(ann))


def _model_table(model) -> list[str]:
    lines = ["| key | type | default |", "|---|---|---|"]
    for name, f in model.model_fields.items():
        t = _type_name(f.annotation)
        if f.is_required():
            d = "required"
        else:
            val = f.get_default(call_default_factory=True)
            d = "`" + (repr(val) if not hasattr(val, "model_dump") else "{…}") + "`"
        lines.append(f"| `{name}` | {t} | {d.replace('|', '∣')} |")
    return lines


def _block_position() -> str:
    from ambush_env.core.play import position as pos

    out = [f"Format tag: `{pos.FORMAT}`.", ""]
    for title, model in (
        ("top level (`PositionSpec`)", pos.PositionSpec),
        ("a unit (`units[]`, `UnitSpec`)", pos.UnitSpec),
        ("a vehicle (`vehicles[]`, `VehicleSpec`)", pos.VehicleSpec),
        ("the turn in progress (`turn`, `TurnSpec`)", pos.TurnSpec),
        ("a German's card row (`turn.card`, `CardSpec`)", pos.CardSpec),
        ("a minefield (`minefields[]`, `MineSpec`)", pos.MineSpec),
        ("a landmark (`landmarks[]`, `LandmarkSpec`)", pos.LandmarkSpec),
    ):
        out += [f"**{title}**", ""] + _model_table(model) + [""]
    return "\n".join(out).rstrip()


def _block_suites() -> str:
    lines = [
        "| suite | missions | opponents | rules | seeds | description |",
        "|---|---|---|---|---|---|",
    ]
    for p in sorted((ROOT / "configs/bench").glob("*.yaml")):
        d = _yaml(p.relative_to(ROOT).as_posix())
        blocks = d.get("parts") or [d]

        def fmt(x):
            return ", ".join(map(str, x)) if isinstance(x, list) else str(x)

        def seeds(s):
            if isinstance(s, dict):
                return f"{s['start']}–{s['start'] + s['count'] - 1}"
            return fmt(s)

        ms = "; ".join(fmt(b.get("missions", "")) for b in blocks)
        ops = "; ".join(fmt(b.get("opponents", "")) for b in blocks)
        sd = "; ".join(seeds(b.get("seeds", "")) for b in blocks)
        lines.append(
            f"| [`{d.get('name', p.stem)}`](../configs/bench/{p.name}) | {ms} | {ops} | "
            f"{d.get('rules', 'standard')} | {sd} | {d.get('description', '')} |"
        )
    return "\n".join(lines)


def _yaml(rel: str):
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((ROOT / rel).read_text(encoding="utf-8"), Loader=loader)


def _block_to_hit() -> str:
    d = _yaml("ambush_env/data/weapons.yaml")
    bands = [b["label"] for b in d["range_bands"]]
    lines = [
        "| class | "
        + " | ".join(bands)
        + " | automatic | jams | explosive | crew | snap | damage row |",
        "|---|" + "---:|" * len(bands) + "---|---|---|---|---|---|",
    ]
    yn = {True: "yes", False: "—", None: "—"}
    for name, c in d["classes"].items():
        hits = ["—" if x is None else str(x) for x in c["to_hit"]]
        lines.append(
            f"| `{name}` | " + " | ".join(hits) + f" | {yn[c.get('automatic', False)]} | "
            f"{yn[c.get('jams', False)]} | {yn[c.get('explosive', False)]} | {yn[c.get('crew', False)]} | "
            f"{yn[c.get('snap', True)]} | `{c.get('damage', '')}` |"
        )
    mods = d["modifiers"]
    flat = []
    for k, v in mods.items():
        flat.append(
            f"`{k}` "
            + (", ".join(f"{a} {b:+d}" for a, b in v.items()) if isinstance(v, dict) else f"{v:+d}")
        )
    lines += [
        "",
        f"Jam: a d10 of {d['jam_on']} or more (weapons with `jams`). Modifiers (`modifiers:`): "
        + "; ".join(flat)
        + ".",
    ]
    return "\n".join(lines)


def _block_terrain() -> str:
    d = _yaml("ambush_env/data/terrain.yaml")
    lines = ["| terrain | MPs to enter | cover (to-hit) | sight |", "|---|---:|---:|---|"]
    for name, t in d["terrain"].items():
        mp = "no entry" if t["mp"] is None else str(t["mp"])
        lines.append(f"| {name} | {mp} | {t['cover']:+d} | {t['sight']} |")
    mv = d["movement"]
    lines += [
        "",
        "Extra MPs (`movement:`): "
        + ", ".join(f"`{k}` {v}" for k, v in mv.items())
        + ". Wall cover (`walls:`): "
        + ", ".join(f"{k} {v['cover']:+d}" for k, v in d["walls"].items())
        + ".",
    ]
    return "\n".join(lines)


def _flat(d, prefix: str = "") -> list[tuple[str, object]]:
    """``(a.b.c, value)`` of every leaf of a YAML mapping, in file order."""
    out: list[tuple[str, object]] = []
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out += _flat(v, key + ".")
        else:
            out.append((key, v))
    return out


def _numbers_block(rel: str) -> str:
    rows = _flat(_yaml(rel))
    lines = [f"`{rel}`:", "", "| key | value |", "|---|---|"]
    for k, v in rows:

        def one(x) -> str:
            if isinstance(x, dict):
                return "{" + ", ".join(f"{a}: {b}" for a, b in x.items()) + "}"
            return "—" if x is None else str(x)

        val = ", ".join(one(x) for x in v) if isinstance(v, list) else one(v)
        lines.append(f"| `{k}` | {val} |")
    return "\n".join(lines)


def _block_rules_numbers() -> str:
    return _numbers_block("ambush_env/data/rules.yaml")


def _block_campaign_numbers() -> str:
    return _numbers_block("ambush_env/data/campaign.yaml")


def _block_damage_rows() -> str:
    rows = _yaml("ambush_env/data/damage.yaml")["rows"]
    short = {
        "none": "–",
        "panic": "P",
        "wound": "W",
        "incapacitated": "I",
        "kill": "K",
        "light": "L",
        "medium": "M",
        "heavy": "H",
    }
    lines = [
        "| row | reading | " + " | ".join(str(k) for k in range(10)) + " |",
        "|---|---|" + "---|" * 10,
    ]
    for name, r in rows.items():
        for reading in ("soldier", "penetration"):
            if r.get(reading):
                lines.append(
                    f"| `{name}` | {reading} | "
                    + " | ".join(short.get(x, str(x)) for x in r[reading])
                    + " |"
                )
    key = (
        "Soldier results: – none, P panic, W wound, I incapacitated, K kill; penetration: – none, "
        "L light, M medium, H heavy. The d10 is the column; a higher roll is worse for the target."
    )
    lines += ["", key]
    return "\n".join(lines)


def _block_penetration() -> str:
    pen = _yaml("ambush_env/data/damage.yaml")["penetration"]
    cols = list(next(iter(pen["plain"].values())))
    lines = [
        "| weapon | level | " + " | ".join(c.replace("_", " ") for c in cols) + " |",
        "|---|---|" + "---|" * len(cols),
    ]
    for kind, rows in pen.items():
        for level, cells in rows.items():
            lines.append(f"| {kind} | {level} | " + " | ".join(cells[c] for c in cols) + " |")
    return "\n".join(lines)


def _block_vehicle_types() -> str:
    d = _yaml("ambush_env/data/vehicles.yaml")
    head = (
        "| type | name | kind | side | size | open at start | occupants | slow / fast MPA | "
        "parts (armour) | other aspects |"
    )
    lines = [head, "|---|---|---|---|---|---|---:|---|---|---|"]
    for key, v in d["vehicles"].items():
        parts = ", ".join(f"{p} ({a})" for p, a in v.get("parts", {}).items())
        other = (
            "; ".join(
                f"{asp}: " + ", ".join(f"{p} ({a})" for p, a in arm.items())
                for asp, arm in (v.get("aspect_armour") or {}).items()
            )
            or "—"
        )
        lines.append(
            f"| `{key}` | {v.get('name', key)} | {v.get('kind', '')} | {v.get('side', '')} | "
            f"{v.get('size', '')} | {'yes' if v.get('open') else 'no'} | {v.get('occupants', '')} | "
            f"{v.get('slow_mpa', '')} / {v.get('fast_mpa', '')} | {parts} | {other} |"
        )
    mc = d["move_costs"]
    lines += [
        "",
        "Vehicle MPs per hex (`move_costs:`): "
        + ", ".join(f"{k} {'no entry' if v is None else v}" for k, v in mc.items())
        + f"; up a level +{d['up_level']}, embankment +{d['embankment']}, crest +{d['crest']}; "
        f"a forced crater {d['forced_crater_mp']} MPs and an Accident Check. Accident Table (d10 0-9, "
        "`accident_table:`): " + ", ".join(d["accident_table"]) + ".",
    ]
    return "\n".join(lines)


def _block_missions() -> str:
    lines = [
        "| id | title | map | squad | Operations pulses / Rounds | decisive win / win / draw at VP | vehicles |",
        "|---|---|---|---|---|---|---|",
    ]
    from ambush_env.core.world.missions import list_missions

    for mid in list_missions():
        d = _yaml(f"ambush_env/data/missions/{mid}.yaml")
        tl = d.get("time_limit", {})
        r = d.get("results", {})
        veh = [x.get("vehicle", "") for x in (d.get("us_vehicles") or [])] + [
            x.get("vehicle", "") + " (German)" for x in (d.get("german_vehicles") or [])
        ]
        lines.append(
            f"| [`{mid}`](../ambush_env/data/missions/{mid}.yaml) | {d.get('title', '')} | {d.get('map', '')} | "
            f"{d.get('squad', '')} | {tl.get('operations_pulses', '')} / {tl.get('rounds', '')} | "
            f"{r.get('decisive_win', '')} / {r.get('win', '')} / {r.get('draw', '')} | {', '.join(veh) or '—'} |"
        )
    return "\n".join(lines)


def _block_reference(rel: str = "configs/bench/reference/vp.yaml") -> str:
    if not (ROOT / rel).exists():
        return f"(no reference file {rel} yet)"
    d = _yaml(rel)
    suite = d.get("suite", "standard")
    lines = [
        f"Suite `{suite}`; mean VP per task ([`{rel}`](../{rel}));"
        " floor = max(random, do_nothing), gap = heuristic − floor; —: not measured yet (a task"
        " without all three means is not normalised):",
        "",
        "| task | random | do_nothing | heuristic | floor | gap | episodes | seeds |",
        "|---|---:|---:|---:|---|---:|---:|---|",
    ]

    from ambush_env import stats

    def vp(x) -> str:
        return "—" if x is None else f"{x:.2f}"

    for task, r in sorted(d.get("standard", {}).items()):  # the rule set's table
        ref = stats.Reference(**r)
        floor = stats.floor_of(ref)  # None: random or do_nothing not measured
        gap = None if floor is None or ref.heuristic is None else ref.heuristic - floor[0]
        seeds = "–".join(map(str, r.get("seeds", [])))
        lines.append(
            f"| {task} | {vp(ref.random)} | {vp(ref.do_nothing)} | {vp(ref.heuristic)} | "
            f"{floor[1] if floor else '—'} | {vp(gap)} | {r.get('episodes', '')} | {seeds} |"
        )
    return "\n".join(lines)


def _result_files(folder: str, pattern: str = "*.json") -> list[dict]:
    import json

    return [
        json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / folder).glob(pattern))
    ]


def _block_ladder() -> str:
    """The heuristic's win rate per mission and deck on the standard suite's 400 seeds
    (``benchmarks/standard_400/``): the ladder issue 25 asks for (strictly decreasing green >
    regular > veteran, regular in 0.2-0.8)."""
    results = _result_files("benchmarks/standard_400", "standard__heuristic__*.json")
    if not results:
        return "(no heuristic result in benchmarks/standard_400/)"
    r = max(results, key=lambda x: x["provenance"]["created"])
    pv = r["provenance"]
    lines = [
        f"Heuristic win rate [95 % Wilson] per deck, {pv['episodes_per_task']} seeds a task, "
        f"commit {pv['git_commit'][:7]}, `{pv['env_version']}`:",
        "",
        "| mission | green | regular | veteran | green > regular > veteran | regular in 0.2-0.8 |",
        "|---|---|---|---|---|---|",
    ]
    missions = sorted({k.split("/")[0] for k in r["missions"]})
    for mis in missions:
        rates, cells = [], []
        for deck in ("green", "regular", "veteran"):
            m = r["missions"][f"{mis}/{deck}"]
            lo, hi = m["win_rate_ci95"]
            rates.append(m["win_rate"])
            cells.append(f"{m['win_rate']:.2f} [{lo:.2f}, {hi:.2f}]")
        mono = "yes" if rates[0] > rates[1] > rates[2] else "**no**"
        band = "yes" if 0.2 <= rates[1] <= 0.8 else "**no**"
        lines.append(f"| {mis} | {' | '.join(cells)} | {mono} | {band} |")
    return "\n".join(lines)


def _block_probes() -> str:
    """Each probe's run of the standard suite (``benchmarks/probes/``, ``--episodes 100``):
    its aggregate normalised IQM, the highest upper bound of a task's mean normalised score,
    and the tasks it did not lose every episode of (issue 25, done-when 1)."""
    results = _result_files("benchmarks/probes")
    if not results:
        return "(no probe result in benchmarks/probes/)"
    lines = [
        "| probe | commit | episodes a task | normalised IQM [95 %] | highest task mean's upper "
        "bound | tasks not lost every episode |",
        "|---|---|---:|---|---|---|",
    ]
    for r in sorted(results, key=lambda x: x["agent"]):
        pv = r["provenance"]
        ns = r.get("normalised_score") or {}
        iqm = (
            f"{ns['iqm']:.3f} [{ns['iqm_ci95'][0]:.3f}, {ns['iqm_ci95'][1]:.3f}]"
            if "iqm" in ns
            else "not normalised"
        )
        worst, wtask = None, ""
        unlost = []
        for task, m in sorted(r["missions"].items()):
            n = m.get("normalised_score") or {}
            if "mean_ci95" in n and (worst is None or n["mean_ci95"][1] > worst):
                worst, wtask = n["mean_ci95"][1], task
            if m["mean_result"] > -1:
                unlost.append(f"{task} ({m['mean_result']:+.2f})")
        top = f"{worst:.3f} ({wtask})" if worst is not None else "—"
        lines.append(
            f"| `{r['agent']}` | {pv['git_commit'][:7]} | {pv['episodes_per_task']} | {iqm} | "
            f"{top} | {', '.join(unlost) or 'none'} |"
        )
    lines += [
        "",
        "(A task's mean result is +1 decisive win, +0.5 win, 0 draw, −1 loss: −1 is a loss in "
        "every episode; the figure in brackets is the task's mean result.)",
    ]
    return "\n".join(lines)


def _block_baseline() -> str:
    import json

    files = sorted((ROOT / "benchmarks/baseline").glob("*.json"))
    results = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    if not results:
        return "(no result files in benchmarks/baseline/)"
    lines = ["| agent | commit | episodes | normalised IQM [95 %] |", "|---|---|---:|---|"]
    for r, p in zip(results, files, strict=True):
        pv = r["provenance"]
        ns = r.get("normalised_score") or {}
        iqm = (
            f"{ns['iqm']:.2f} [{ns['iqm_ci95'][0]:.2f}, {ns['iqm_ci95'][1]:.2f}]"
            if ns.get("iqm") is not None  # an aggregate of dropped tasks only has none
            else "—"
        )
        n = sum(t["episodes"] for t in r["missions"].values())
        lines.append(
            f"| [{r['agent']}@{pv['agent_sha256'][:8]}](../benchmarks/baseline/{p.name}) | "
            f"{pv['git_commit'][:7]} | {n} | {iqm} |"
        )
    tasks = sorted({t for r in results for t in r["missions"]})
    lines += [
        "",
        "Mean VP and win rate [95 % Wilson] per task:",
        "",
        "| task | " + " | ".join(r["agent"] for r in results) + " |",
        "|---|" + "---|" * len(results),
    ]
    for t in tasks:
        cells = []
        for r in results:
            m = r["missions"].get(t)
            cells.append(
                "—"
                if m is None
                else f"{m['mean_vp']:.2f} VP, {m['win_rate']:.2f} [{m['win_rate_ci95'][0]:.2f}, {m['win_rate_ci95'][1]:.2f}]"
            )
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _block_heldout_reference() -> str:
    return _block_reference("configs/bench/reference/heldout.yaml")


def _ci(x: tuple | list, digits: int = 2) -> str:
    m, lo, hi = x
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _block_baselines() -> str:
    """The learned baselines across their training runs (issue 26): ``benchmarks/baselines/``
    (``ambush_env.baselines``; ``scripts/baselines.py`` makes the files)."""
    import json

    from ambush_env import baselines as B

    folder = ROOT / B.RESULTS
    book = json.loads((folder / "runs.json").read_text()) if (folder / "runs.json").exists() else {}
    summaries: dict[tuple[str, str], dict] = {}
    for method in B.METHODS:
        for suite in B.EVALUATION:
            res = B.method_results(folder / suite, method)
            if res:
                summaries[(method, suite)] = B.method_summary(res)
    if not summaries:
        return "(no baseline results yet in benchmarks/baselines/)"
    lines = [
        "| method | runs | env steps a run (demonstrations + PPO) | wall time a run | "
        "standard: normalised IQM [95 %] | standard: normalised mean | standard: mean VP | "
        "heldout: mean VP | heldout: normalised mean | gap (standard − heldout, normalised mean) |",
        "|---|---:|---|---|---|---|---|---|---|---|",
    ]
    for method in B.METHODS:
        std, held = summaries.get((method, "standard")), summaries.get((method, "heldout"))
        if std is None and held is None:
            continue
        runs = [b for b in book.values() if b["method"] == method]
        steps = sorted({(b["bc_steps"], b["ppo_steps"]) for b in runs})
        budget = ", ".join(f"{a + p:,} ({a:,} + {p:,})" for a, p in steps) or "—"
        wall = (
            f"{sum(b['wall_seconds'] for b in runs) / len(runs) / 60:.0f} min (mean)"
            if runs
            else "—"
        )
        n = len((std or held)["runs"])
        cells = [method, str(n), budget, wall]
        if std:
            a = std["aggregate"]
            cells += [
                f"{a['iqm']:.2f} [{a['iqm_ci95'][0]:.2f}, {a['iqm_ci95'][1]:.2f}]",
                f"{a['mean']:.2f} [{a['mean_ci95'][0]:.2f}, {a['mean_ci95'][1]:.2f}]",
                _ci(std["mean_vp"]),
            ]
        else:
            cells += ["—"] * 3
        if held:
            cells += [_ci(held["mean_vp"]), f"{held['aggregate']['mean']:.2f}"]
        else:
            cells += ["—"] * 2
        cells.append(
            f"{std['aggregate']['mean'] - held['aggregate']['mean']:+.2f}" if std and held else "—"
        )
        lines.append("| " + " | ".join(cells) + " |")
    held_eps = B.EVALUATION["heldout"]
    floors = B.floor_bounds(ROOT / "benchmarks/heldout", held_eps)
    if floors:
        lines += [
            "",
            f"On the `heldout` suite's first {held_eps} seeds a deck, the floor agents' mean VP "
            "[upper 95 % bound] on the same seeds: "
            + ", ".join(f"{a} {m:.2f} [{hi:.2f}]" for a, (m, hi) in sorted(floors.items()))
            + ".",
        ]
    for suite in B.EVALUATION:
        shown = [m for m in B.METHODS if (m, suite) in summaries]
        if not shown:
            continue
        first = summaries[(shown[0], suite)]
        lines += [
            "",
            f"Per task, `{suite}` suite (first {first['episodes_per_task']} seeds a task; mean over "
            "runs [95 % t interval over runs]; runs at "
            + ", ".join(sorted({c for m in shown for c in summaries[(m, suite)]["commits"]}))
            + "):",
            "",
            "| task | " + " | ".join(f"{m}: VP | {m}: win rate" for m in shown) + " |",
            "|---|" + "---|---|" * len(shown),
        ]
        for task in first["tasks"]:
            row = [task]
            for m in shown:
                t = summaries[(m, suite)]["tasks"].get(task)
                row += [_ci(t["vp"]), _ci(t["win"])] if t else ["—", "—"]
            lines.append("| " + " | ".join(row) + " |")
    prof = [(m, s) for (m, s), v in summaries.items() if s == "standard"]
    if prof:
        taus = summaries[prof[0]]["profile"]["tau"]
        lines += [
            "",
            "Performance profile, `standard` suite: the fraction of (run, task) normalised scores "
            "above τ [95 % stratified bootstrap over runs]:",
            "",
            "| method | " + " | ".join(f"τ = {t:g}" for t in taus) + " |",
            "|---|" + "---|" * len(taus),
        ]
        for m, s in prof:
            p = summaries[(m, s)]["profile"]
            lines.append(
                f"| {m} | "
                + " | ".join(
                    f"{f:.2f} [{lo:.2f}, {hi:.2f}]"
                    for f, (lo, hi) in zip(p["fraction"], p["ci95"], strict=True)
                )
                + " |"
            )
    return "\n".join(lines)


BLOCKS = {
    "RULES.md": {
        "rules_numbers": _block_rules_numbers,
        "campaign_numbers": _block_campaign_numbers,
        "to_hit": _block_to_hit,
        "penetration": _block_penetration,
        "damage_rows": _block_damage_rows,
        "terrain": _block_terrain,
        "vehicle_types": _block_vehicle_types,
        "missions": _block_missions,
    },
    "OBSERVATION.md": {
        "observation": _block_observation,
        "orders": _block_orders,
        "rewards": _block_rewards,
        "ids": _block_ids,
        "position": _block_position,
    },
    "BENCHMARK.md": {
        "suites": _block_suites,
        "reference": _block_reference,
        "ladder": _block_ladder,
        "probes": _block_probes,
        "baseline": _block_baseline,
        "heldout_reference": _block_heldout_reference,
        "baselines": _block_baselines,
    },
}


def fill_blocks(text: str, blocks: dict, name: str) -> str:
    """``text`` with each ``<!-- BEGIN GENERATED: k -->…<!-- END GENERATED: k -->`` block
    replaced by ``blocks[k]()``. Raises ValueError for a missing or unknown block."""
    for key, fn in blocks.items():
        pat = re.compile(
            rf"(<!-- BEGIN GENERATED: {key} -->\n).*?(<!-- END GENERATED: {key} -->)", re.DOTALL
        )
        if not pat.search(text):
            raise ValueError(
                f"docs/{name} lacks the block <!-- BEGIN GENERATED: {key} --> … <!-- END GENERATED: {key} -->"
            )
        body = fn().rstrip("\n")
        text = pat.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)
    return text


# ------------------------------------------------------------------------------------- main
def generated() -> dict[Path, str]:
    """Every generated doc: path → its expected text."""
    out = {DOCS / "CHOICES.md": render_choices(), DOCS / "RULE_COVERAGE.md": render_coverage()}
    for name, blocks in BLOCKS.items():
        p = DOCS / name
        current = p.read_text(encoding="utf-8") if p.exists() else ""
        out[p] = fill_blocks(current, blocks, name)
    return out


def stale() -> list[str]:
    """The generated docs (relative paths) whose committed text differs from the expected."""
    out = []
    for p, text in generated().items():
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            out.append(p.relative_to(DOCS.parent).as_posix())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--check", action="store_true", help="exit 1 naming the stale docs; write nothing"
    )
    args = ap.parse_args(argv)
    if args.check:
        bad = stale()
        if bad:
            print(f"stale generated docs: {', '.join(bad)}; run `{REGEN}`", file=sys.stderr)
            return 1
        print("generated docs are up to date")
        return 0
    from ambush_env.core.world.data import write_text_atomic

    for p, text in generated().items():
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            write_text_atomic(text, p, what="generated doc")
            print(f"wrote {p.relative_to(DOCS.parent).as_posix()}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
