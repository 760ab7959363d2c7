"""A griffe extension for the documentation site (mkdocs.yml, mkdocstrings ``extensions:``): it
reads the project's docstrings as they are written — Google-style sections (``Args:``,
``Returns:``, ``Raises:``, ``Attributes:``) around reST-ish text — and hands mkdocstrings
Markdown with Google sections, so that the API reference renders them without warnings.

Before a docstring is parsed it is rewritten, in the docs build only (the code is not touched):

* an entry of several names, ``columns, rows: the map's size`` (a names line may wrap after a
  comma), becomes one entry per name with the same description, as Google-style entries hold one
  name each (griffe would warn that ``columns, rows`` is no parameter);
* a Sphinx role, ``:func:`load_board``` or ``:class:`~ambush_env.core.play.game.Game```,
  becomes a cross-reference to the object's entry in the reference when that object is rendered
  there (public, documented, in a module whose members are shown), and a code span otherwise;
  ``~`` shows the last name only, as in Sphinx. Names resolve as Sphinx resolves them: as
  written, then from the object outwards (its class, module, the packages above); a short name
  found nowhere there names the one class or function of the package that has it, if only one
  has;
* a reST simple table (``=====  =====`` borders) becomes a Markdown table;
* a paragraph ending in ``::`` (reST: a literal block follows) ends in ``:``.

Option ``docstring_only``: the modules whose page shows the docstring but not the members
(mkdocs.yml ``members: false``); their own objects are written as code spans, not links.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?P<role>[a-z]+):`(?P<body>[^`]+)`")
_BORDER = re.compile(r"^(?P<indent>\s*)=+(?:\s+=+)+\s*$")
_SECTION = re.compile(
    r"^(?P<indent>\s*)(Args|Arguments|Parameters|Params|Attributes|Other Parameters|"
    r"Keyword Args|Keyword Arguments):\s*$"
)
_NAMES = re.compile(r"^(?P<indent>\s+)(?P<names>\w+(?:\s*,\s*\w+)+)\s*:(?P<rest>.*)$")
_CODE = re.compile(r"(`+).+?\1")


def _split_names(text: str) -> str:
    """One Google-style entry per name: ``a, b: text`` -> ``a: text`` and ``b: text``."""
    lines = text.split("\n")
    out: list[str] = []
    in_section: int | None = None  # the section header's indentation
    i = 0
    while i < len(lines):
        line = lines[i]
        header = _SECTION.match(line)
        if header:
            in_section = len(header.group("indent"))
            out.append(line)
            i += 1
            continue
        if in_section is not None and line.strip() and len(line) - len(line.lstrip()) <= in_section:
            in_section = None
        if in_section is not None:
            # a names line that wraps after a comma: join the next line(s) first
            joined, j = line, i
            while joined.rstrip().endswith(",") and j + 1 < len(lines):
                j += 1
                joined = joined.rstrip() + " " + lines[j].strip()
            m = _NAMES.match(joined)
            if m:
                names = [n.strip() for n in m.group("names").split(",")]
                # the description's continuation lines (deeper indentation) follow each entry
                k = j + 1
                indent = len(m.group("indent"))
                while (
                    k < len(lines)
                    and lines[k].strip()
                    and len(lines[k]) - len(lines[k].lstrip()) > indent
                ):
                    k += 1
                cont = lines[j + 1 : k]
                for name in names:
                    out.append(f"{m.group('indent')}{name}:{m.group('rest')}")
                    out.extend(cont)
                i = k
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _escape_pipes(cell: str) -> str:
    parts, last = [], 0
    for m in _CODE.finditer(cell):
        parts.append(cell[last : m.start()].replace("|", r"\|"))
        parts.append(m.group(0))
        last = m.end()
    parts.append(cell[last:].replace("|", r"\|"))
    return "".join(parts)


def _tables(text: str) -> str:
    """reST simple tables -> Markdown tables (a first column left blank continues a row)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _BORDER.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group("indent")
        starts = [c.start() for c in re.finditer(r"=+", lines[i])]
        # the table runs to the border that is followed by a blank line (or the end)
        borders = [i]
        j = i + 1
        while j < len(lines):
            if _BORDER.match(lines[j]):
                borders.append(j)
                if j + 1 >= len(lines) or not lines[j + 1].strip():
                    break
            elif not lines[j].strip():
                break
            j += 1
        if len(borders) < 2 or not _BORDER.match(lines[j] if j < len(lines) else ""):
            out.append(lines[i])
            i += 1
            continue
        rows: list[list[str]] = []
        header_rows = 0
        for k in range(i + 1, j):
            if k in borders:
                header_rows = len(rows)
                continue
            line = lines[k]
            cells = [
                line[a : (starts[n + 1] if n + 1 < len(starts) else None)].strip()
                for n, a in enumerate(starts)
            ]
            if rows and not cells[0]:
                rows[-1] = [
                    f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)
                ]
            else:
                rows.append(cells)
        if len(borders) == 2:
            header, body = ["" for _ in starts], rows  # a table without a header row
        else:
            header = [" ".join(c) for c in zip(*rows[:header_rows], strict=True)]
            body = rows[header_rows:]
        table = [header, ["---" for _ in starts], *body]
        if out and out[-1].strip():
            out.append("")
        out.extend(indent + "| " + " | ".join(map(_escape_pipes, r)) + " |" for r in table)
        i = j + 1
    return "\n".join(out)


class SiteDocstrings(griffe.Extension):
    """Rewrites every docstring of a loaded package as the module docstring above says."""

    def __init__(self, docstring_only: list[str] | None = None) -> None:
        super().__init__()
        self.docstring_only = set(docstring_only or ())

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        self._collection = loader.modules_collection
        # the classes and functions of every module by name, for a short name that the
        # docstring's own scopes do not hold (``:class:`AmbushEnv``` where it is not imported)
        self._by_name: dict[str, list[str]] = {}
        self._index(pkg)
        self._walk(pkg)

    def _index(self, module: griffe.Object) -> None:
        for member in module.members.values():
            if member.is_alias:
                continue
            if member.is_module:
                self._index(member)  # type: ignore[arg-type]
            elif member.is_class or member.is_function:
                self._by_name.setdefault(member.name, []).append(member.path)

    def _walk(self, obj: griffe.Object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = self._rewrite(obj.docstring.value, obj)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member)  # type: ignore[arg-type]

    def _rewrite(self, text: str, owner: griffe.Object) -> str:
        text = _split_names(text)
        text = _tables(text)
        text = re.sub(r"(\S)::[ \t]*$", r"\1:", text, flags=re.MULTILINE)
        return _ROLE.sub(lambda m: self._role(m, owner), text)

    def _role(self, m: re.Match[str], owner: griffe.Object) -> str:
        body = m.group("body").strip()
        explicit = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", body)
        if explicit:
            title, target = explicit.group("title"), explicit.group("target")
        else:
            target = body.lstrip("~")
            title = target.rsplit(".", 1)[-1] if body.startswith("~") else target
        target = re.sub(r"\s+", "", target).removesuffix("()")
        path = self._find(target, owner)
        if path is None:
            return f"`{title}`"
        return f"[`{title}`][{path}]"

    def _find(self, target: str, owner: griffe.Object) -> str | None:
        """The path of the rendered object ``target`` names, seen from ``owner``; None when it
        names nothing or nothing with an entry in the reference."""
        scopes: list[str] = [""]
        scope: griffe.Object | None = owner
        while scope is not None:
            scopes.append(scope.path)
            scope = scope.parent
        for base in scopes:
            path = f"{base}.{target}" if base else target
            try:
                found = self._collection[path]
            except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            try:
                final = found.final_target if found.is_alias else found
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
            return final.path if self._rendered(final) else None
        # a short name that one class or function of the package has, and nothing else
        head, dot, rest = target.partition(".")
        owners = self._by_name.get(head, [])
        if "." not in head and len(owners) == 1:
            try:
                final = self._collection[owners[0] + dot + rest]
            except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
            return final.path if not final.is_alias and self._rendered(final) else None
        return None

    def _rendered(self, obj: Any) -> bool:
        """Whether the reference has an entry for ``obj`` (filters ``!^_``, documented only)."""
        if obj.name.startswith("_"):
            return False
        if obj.is_module:
            return obj.parent is None or self._rendered(obj.parent)
        if obj.docstring is None or obj.parent is None:
            return False
        if obj.parent.is_module:
            return obj.parent.path not in self.docstring_only and self._rendered(obj.parent)
        return self._rendered(obj.parent)
