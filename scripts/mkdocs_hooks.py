"""The documentation site's hook (mkdocs.yml ``hooks:``): links from docs/ to the rest of the
repository.

The pages of docs/ link the code, data and tests they describe with relative links
(``[bench.py](../ambush_env/bench.py)``): they work where the repository is read as files, but
the site is built from docs/ alone, where such a link points at nothing and a strict build
fails. This hook keeps those links live on the site:

* ``on_files`` reads every page of docs/, collects the link targets that resolve to an existing
  file or folder of the repository outside docs/, and adds one generated page per target under
  ``source/`` (not in the nav, not in the search index): a text file's page shows its text
  (``source/ambush_env/bench.py.md``), a folder's page lists its files
  (``source/configs/bench/index.md``); a binary file (an image) is copied as it is
  (``source/results/x.png``).
* ``on_page_markdown`` rewrites each such link into a link to its generated page, keeping the
  ``#fragment``; a file's page numbers its lines and ``#L10`` (GitHub's anchor, ``#L10-L20``
  too) is the anchor of line 10 (``on_page_content`` names the line anchors ``L<n>``).

Only targets that exist inside the repository are rewritten. Every other link is left to
mkdocs' own validation (``validation:`` in mkdocs.yml, all at ``warn``), so under
``mkdocs build --strict`` a link to a docs page, a heading or a repository file that does not
exist still fails the build. Links inside fenced code blocks and code spans are not links and
are left alone.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel

SOURCE_DIR = "source"  # the generated pages live under docs/source/ in the site (never on disk)

# an inline link or image target: ](target) or ](target "title") or ](<target>)
_INLINE = re.compile(r"(?P<head>\]\(\s*)(?P<lt><?)(?P<target>[^)\s>]+)(?P<gt>>?)")
# a reference definition:   [id]: target "title"
_REFDEF = re.compile(r"^(?P<head> {0,3}\[[^\]]+\]:\s*)(?P<lt><?)(?P<target>\S+?)(?P<gt>>?)(?=\s|$)")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LINE_RANGE = re.compile(r"^#L(\d+)-L?\d+$")
# pymdownx.highlight's anchor of line N of a page's first code block (anchor_linenums)
_LINE_ANCHOR = re.compile(r"__codelineno-0-(\d+)\b")
_SKIP_NAMES = {"__pycache__", ".git"}

_LANGUAGES = {
    ".py": "python",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".jsonl": "json",
    ".toml": "toml",
    ".md": "markdown",
    ".cfg": "ini",
    ".ini": "ini",
    ".sh": "bash",
    ".txt": "text",
    ".csv": "text",
}


@dataclass(frozen=True)
class _Target:
    """A repository path outside docs/ that a page links (``rel``: POSIX, from the root)."""

    rel: str
    is_dir: bool

    @property
    def src_uri(self) -> str:
        """The generated file's path in the site's docs (``source/...``)."""
        if self.is_dir:
            return posixpath.join(SOURCE_DIR, self.rel, "index.md") if self.rel else "index.md"
        return posixpath.join(SOURCE_DIR, self.rel + ".md")


class _Build:
    """What one build knows: the repository's root, docs/, the linked targets by path."""

    def __init__(self, root: Path = Path("."), docs: Path = Path("docs")) -> None:
        self.root = root
        self.docs = docs
        self.targets: dict[str, _Target] = {}
        self.binaries: set[str] = set()  # targets copied as they are (not text)
        self.file_pages: set[str] = set()  # the src_uri of each text file's generated page

    def uri(self, target: _Target) -> str:
        """Where a link to ``target`` points in the site's docs."""
        if target.rel in self.binaries:
            return posixpath.join(SOURCE_DIR, target.rel)
        return target.src_uri


_build = _Build()  # replaced by on_config at the start of each build


def _split(target: str) -> tuple[str, str]:
    """``path#frag`` -> (``path``, ``#frag``); a query string stays with the path's tail."""
    path, hash_, frag = target.partition("#")
    return path, (hash_ + frag)


def _resolve(page_src_uri: str, target: str) -> _Target | None:
    """The repository path outside docs/ that ``target`` (a link on the page ``page_src_uri``)
    names, when it exists; None for URLs, anchors, docs pages and paths that do not exist."""
    path, _ = _split(target)
    if not path or _SCHEME.match(path) or path.startswith("/"):
        return None
    page_dir = (_build.docs / page_src_uri).parent
    try:
        abs_path = (page_dir / path).resolve()
        rel = abs_path.relative_to(_build.root)
    except (ValueError, OSError):
        return None  # above the repository: mkdocs reports it
    try:
        abs_path.relative_to(_build.docs)
        return None  # a docs page or file: mkdocs validates it
    except ValueError:
        pass
    if not abs_path.exists():
        return None  # a broken link: mkdocs reports it
    return _Target(rel.as_posix() if str(rel) != "." else "", abs_path.is_dir())


def _links(markdown: str):
    """Yield (line index, match) for each link target outside code blocks and code spans."""
    fence: str | None = None
    for i, line in enumerate(markdown.split("\n")):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        spans = [s.span() for s in _CODE_SPAN.finditer(line)]
        for match in (*_REFDEF.finditer(line), *_INLINE.finditer(line)):
            if not any(a <= match.start("target") < b for a, b in spans):
                yield i, match


def _rewrite(markdown: str, page_src_uri: str) -> str:
    lines = markdown.split("\n")
    edits: dict[int, list[tuple[int, int, str]]] = {}
    for i, match in _links(markdown):
        target = match.group("target")
        found = _resolve(page_src_uri, target)
        if found is None:
            continue
        _, frag = _split(target)
        if not found.is_dir:
            frag = _LINE_RANGE.sub(r"#L\1", frag)  # GitHub's #L10-L20: the first line
        new = posixpath.relpath(_build.uri(found), posixpath.dirname(page_src_uri) or ".") + frag
        edits.setdefault(i, []).append((match.start("target"), match.end("target"), new))
    for i, spans in edits.items():
        line = lines[i]
        for start, end, new in sorted(spans, reverse=True):
            line = line[:start] + new + line[end:]
        lines[i] = line
    return "\n".join(lines)


def _children(folder: Path) -> list[Path]:
    return sorted(
        (p for p in folder.iterdir() if p.name not in _SKIP_NAMES and not p.name.startswith(".")),
        key=lambda p: (not p.is_dir(), p.name),
    )


def _front(title: str) -> str:
    # material: no search entry for the generated pages (the search index stays the docs'), and
    # no table of contents (a source page has one heading): the code takes the width
    return f"---\ntitle: {title}\nhide:\n  - toc\nsearch:\n  exclude: true\n---\n\n"


def _file_page(target: _Target) -> str | bytes:
    data = (_build.root / target.rel).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if "\0" in text:
        return data
    longest = max((len(m.group(0)) for m in re.finditer(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    lang = _LANGUAGES.get(Path(target.rel).suffix.lower(), "text")
    body = text if text.endswith("\n") or not text else text + "\n"
    lines = body.count("\n")
    parent = posixpath.dirname(target.rel)
    up = _Target(parent, True)
    parent_link = (
        f" in [`{parent}/`]({posixpath.relpath(up.src_uri, posixpath.dirname(target.src_uri))})"
        if parent and up.rel in _build.targets
        else ""
    )
    return (
        _front(target.rel)
        + f"# `{target.rel}`\n\n"
        + f"The repository's file `{target.rel}`{parent_link}, {lines} lines, as it was when this "
        + "site was built.\n\n"
        + f'{fence}{lang} linenums="1"\n{body}{fence}\n'
    )


def _dir_page(target: _Target) -> str:
    here = posixpath.dirname(target.src_uri)
    rows = []
    for child in _children(_build.root / target.rel):
        rel = posixpath.join(target.rel, child.name) if target.rel else child.name
        shown = child.name + ("/" if child.is_dir() else "")
        entry = _build.targets.get(rel)
        if entry is not None:
            rows.append(f"- [`{shown}`]({posixpath.relpath(_build.uri(entry), here)})")
        else:
            rows.append(f"- `{shown}`")
    shown_dir = (target.rel + "/") if target.rel else "the repository"
    return (
        _front(shown_dir)
        + f"# `{shown_dir}`\n\n"
        + f"The files of the repository's folder `{shown_dir}` when this site was built.\n\n"
        + "\n".join(rows)
        + "\n"
    )


def on_config(config: Any, **kwargs: Any) -> Any:
    global _build
    _build = _Build(Path(config.config_file_path).resolve().parent, Path(config.docs_dir).resolve())
    return config


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    pages = [f for f in files if f.src_uri.endswith(".md") and f.abs_src_path]
    for f in pages:
        text = Path(f.abs_src_path).read_text(encoding="utf-8")
        for _, match in _links(text):
            found = _resolve(f.src_uri, match.group("target"))
            if found is not None:
                _build.targets[found.rel] = found
    # a linked folder's page links its files: they get pages too
    for target in [t for t in _build.targets.values() if t.is_dir]:
        for child in _children(_build.root / target.rel):
            if child.is_file():
                rel = child.relative_to(_build.root).as_posix()
                _build.targets.setdefault(rel, _Target(rel, False))
    for target in _build.targets.values():
        if target.is_dir:
            continue
        content = _file_page(target)
        if isinstance(content, bytes):
            _build.binaries.add(target.rel)
            uri = posixpath.join(SOURCE_DIR, target.rel)
            files.append(File.generated(config, uri, content=content))
        else:
            _build.file_pages.add(target.src_uri)
            files.append(
                File.generated(
                    config, target.src_uri, content=content, inclusion=InclusionLevel.NOT_IN_NAV
                )
            )
    for target in _build.targets.values():
        if target.is_dir:
            files.append(
                File.generated(
                    config,
                    target.src_uri,
                    content=_dir_page(target),
                    inclusion=InclusionLevel.NOT_IN_NAV,
                )
            )
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    if page.file.src_uri.startswith(SOURCE_DIR + "/"):
        return markdown
    return _rewrite(markdown, page.file.src_uri)


def on_page_content(html: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    if page.file.src_uri not in _build.file_pages:
        return html
    # a file's page: its line anchors are #L1, #L2, ... (links are validated after this)
    html = _LINE_ANCHOR.sub(lambda m: "L" + m.group(1), html)
    ids = {"L" + n for n in re.findall(r'id="L(\d+)"', html)}
    page.present_anchor_ids = (page.present_anchor_ids or set()) | ids
    return html
