"""Owns reading and validating data files: the one loader that every kind of data file goes
through (docs/STYLE.md habit 3).

Every data file is YAML, parsed once and validated into frozen pydantic models. Any problem
raises :class:`~ambush_env.core.model.errors.DataError` naming the file and the offending field
(the pydantic location joined with dots, e.g. ``rows.semi_auto_rifle.to_hit.2``).
"""

from __future__ import annotations

import fnmatch
import os
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from ambush_env.core.model.errors import ConfigError, DataError, ScenarioError

DATA_DIR = Path(__file__).resolve().parents[2] / "data"

M = TypeVar("M", bound=BaseModel)


class Frozen(BaseModel):
    """Base for data models: immutable, no unknown fields (a typo is an error, not ignored)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


FAULT_ENV = "AMBUSH_FAULT"  # the fault-injection hook of :func:`atomic_write`
_FAULT_MODES = ("after_write", "during_write")


def _inject_fault(path: Path, tmp: str) -> None:
    """The fault-injection hook of :func:`atomic_write` (``AMBUSH_FAULT``): SIGKILL this process
    between the write and the rename when ``path`` matches the hook's glob."""
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    mode, sep, pattern = spec.partition(":")
    if mode not in _FAULT_MODES or not sep or not pattern:
        raise ConfigError(
            f"{FAULT_ENV}={spec!r}",
            f"expected {' or '.join(m + ':GLOB' for m in _FAULT_MODES)} "
            "(a test hook; unset it for normal use)",
        )
    if not (fnmatch.fnmatchcase(path.name, pattern) or fnmatch.fnmatchcase(str(path), pattern)):
        return
    if mode == "during_write":  # what a kill part-way through the write leaves
        os.truncate(tmp, os.path.getsize(tmp) // 2)
    kill = getattr(signal, "SIGKILL", None)
    if kill is None:  # no SIGKILL (Windows): die as abruptly as the platform allows
        os._exit(137)
    os.kill(os.getpid(), kill)
    time.sleep(60)  # the signal is delivered before this returns


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; silently skipped where a folder cannot be
    opened or synced, as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: the suffix of :func:`atomic_write`'s temporary files (``.<name>.<random>.tmp``)
TEMP_SUFFIX = ".tmp"


def stray_temp_files(folder: str | Path, name_glob: str = "*") -> list[Path]:
    """The temporary files that interrupted :func:`atomic_write` calls left in ``folder`` for
    targets matching ``name_glob`` (``.<name>.<random>.tmp``), sorted."""
    return sorted(Path(folder).glob(f".{name_glob}.*{TEMP_SUFFIX}"))


@contextmanager
def atomic_write(path: str | Path, what: str = "file", binary: bool = False) -> Iterator[IO[Any]]:
    """Open ``path`` for writing whole or not at all: the one writer of every file the project
    writes (checkpoints and models, replays, results, leaderboards, squad files, figures,
    viewers, configs).

    Yields a file object (``binary``: bytes, else UTF-8 text) on a temporary file in the same
    folder (made if missing), named ``.<name>.<random>.tmp`` so that no reader's pattern
    (``*.json``, ``*_steps.zip``, ``*.jsonl``) takes it for the file. When the block ends the
    file is flushed and fsynced, then ``os.replace``-d over ``path`` and the folder fsynced:
    a crash or SIGKILL at any moment leaves the old ``path`` whole (or no ``path``), never a
    partial one. On an error in the block the temporary file is removed and ``path`` is left
    as it was. Writers of other files in the folder never collide.

    ⚙ Permissions: an existing ``path`` keeps its mode; a new file is made 0644 (readable by
    all, as an ordinary file; ``mkstemp`` makes 0600).

    ⚙ Fault injection (for tests): with the environment variable ``AMBUSH_FAULT`` set to
    ``after_write:GLOB``, a write whose file name or full path matches ``GLOB``
    (``fnmatch``, e.g. ``*_256_steps.zip``, ``final_model.zip``, ``*.jsonl``) SIGKILLs its own
    process after the temporary file is written and fsynced and before the rename;
    ``during_write:GLOB`` first cuts the temporary file to half its size (a kill part-way
    through the write). Either leaves what a real kill there leaves: the old file untouched
    and a stray ``.<name>.*.tmp``. Any other value raises :class:`ConfigError`.

    Args:
        what: what the file is, for the error (``"replay"``, ``"JSON"``, ``"model"``).

    Raises:
        IsADirectoryError: ``path`` is a folder. OSError: it cannot be written.
        ConfigError: a malformed ``AMBUSH_FAULT``.
    """
    p = Path(path)
    if p.is_dir():
        raise IsADirectoryError(f"{p} is a folder: give a file name for the {what}")
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(p).st_mode)
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        _inject_fault(p, tmp)
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_dir(p.parent)


def write_text_atomic(text: str, path: str | Path, what: str = "file") -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`atomic_write`).

    Returns:
        ``path``. Raises IsADirectoryError: ``path`` is a folder; OSError: it cannot be written.
    """
    with atomic_write(path, what) as f:
        f.write(text)
    return Path(path)


def config_dir(kind: str) -> Path:
    """The shipped ``configs/<kind>/`` folder (``squads``, ``bench``, ``train``).

    In a checkout (and an editable install) it is ``configs/<kind>`` at the repository root;
    a regular install carries the same files as ``ambush_env/_configs/<kind>``.
    """
    repo = DATA_DIR.parent.parent / "configs" / kind
    if repo.is_dir():
        return repo
    return DATA_DIR.parent / "_configs" / kind


def data_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``data_path("maps", "farm.yaml")``."""
    return DATA_DIR.joinpath(*parts)


def read_yaml(path: str | Path) -> Any:
    """Parse a YAML file.

    Raises:
        DataError: a missing or unreadable file, a syntax error (field ``line <n>`` or
            ``<yaml>``), a mapping key given twice (field: the key's dotted path, e.g.
            ``paragraphs.15``), or nesting too deep to parse (``<yaml>``).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(p, "<file>", "file not found") from None
    except UnicodeDecodeError as e:
        raise DataError(p, "<file>", f"not UTF-8 text (byte {e.start}): {e.reason}") from None
    except IsADirectoryError:
        raise DataError(p, "<file>", "is a directory, not a YAML file") from None
    except OSError as e:
        raise DataError(p, "<file>", f"cannot read: {e}") from None
    try:
        return _parse(text, p)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "<yaml>"
        raise DataError(p, where, f"YAML syntax error: {getattr(e, 'problem', e)}") from None
    except RecursionError:
        raise DataError(p, "<yaml>", "nested too deeply") from None


def _parse(text: str, path: Path) -> Any:
    """``yaml.safe_load(text)``, refusing a mapping key given twice (DataError)."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        twice = _key_given_twice(node)
        if twice is not None:
            raise DataError(path, *twice)
        return loader.construct_document(node)
    finally:
        loader.dispose()


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _key_given_twice(root: yaml.Node) -> tuple[str, str] | None:
    """The first mapping key given twice in a YAML document (walked in document order, each
    mapping's own keys before what they hold), as ``(field, problem)``; None when none is.

    PyYAML keeps the last of two equal keys silently; a paragraph number, trigger hex or
    field written twice is a mistake in a data file. Keys are compared as written (``10`` and
    ``"10"`` are the same key: the models would merge them); ``<<`` merge keys are allowed.
    """
    seen_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, where = stack.pop()
        if id(node) in seen_nodes:  # an alias: its node was walked already
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            lines: dict[str, int] = {}
            children = []
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE_TAG:
                    line = key.start_mark.line + 1
                    if key.value in lines:
                        problem = (
                            f"key {key.value!r} given twice (lines {lines[key.value]} and {line})"
                        )
                        return ".".join((*where, key.value)), problem
                    lines[key.value] = line
                    children.append((value, (*where, key.value)))
                else:
                    children.append((value, (*where, "<key>")))
            stack.extend(reversed(children))  # walked in document order
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed([(item, (*where, str(i))) for i, item in enumerate(node.value)]))
    return None


def validate(model: type[M], raw: Any, path: str | Path) -> M:
    """Validate ``raw`` into ``model``; a failure raises DataError naming file and field."""
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or "<root>"
        raise DataError(path, field, err["msg"]) from None


def load_model(model: type[M], path: str | Path) -> M:
    """Read and validate one YAML file into ``model``."""
    return validate(model, read_yaml(path), path)


class FieldProblem(ValueError):
    """A cross-field check failed at ``field`` (dotted, relative to the validated model).

    Raised inside a pydantic validator; :func:`validate_file` joins ``field`` to the model's
    location so the :class:`~ambush_env.core.model.errors.DataError` names the exact field, e.g.
    ``paragraphs.21.1.activation.then``.
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def not_zero(problem: str) -> AfterValidator:
    """The validator of an integer field that must not be 0 (a vp effect's amount, a clip):
    ``Annotated[int, not_zero("...")]``; a 0 raises ValueError with ``problem`` (DataError
    names the field)."""

    def check(v: int) -> int:
        if v == 0:
            raise ValueError(problem)
        return v

    return AfterValidator(check)


def validation_problem(e: ValidationError) -> tuple[list[str], str, Any]:
    """The first error of ``e``: its field path (a :class:`FieldProblem` raised by a validator
    adds its own field), its message and the exception a validator raised (or None)."""
    err = e.errors()[0]
    loc = [str(x) for x in err["loc"]]
    msg = err["msg"]
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, FieldProblem):
        loc += [p for p in cause.field.split(".") if p]
        msg = cause.problem
    return loc, msg, cause


def validate_file(model: type[M], raw: Any, path: str | Path) -> M:
    """Validate ``raw`` into ``model``; any failure raises DataError naming file and field.

    Like :func:`validate`, and a :class:`FieldProblem` raised by a
    validator adds its own field to the pydantic location.

    Raises:
        DataError: ``<path>: <field>: <problem>``.
    """
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        loc, msg, cause = validation_problem(e)
        if isinstance(cause, ValueError) and not isinstance(cause, FieldProblem):
            msg = str(cause)
        raise DataError(path, ".".join(loc) or "<root>", msg) from None


@cache
def load_shipped(model: type[M], *parts: str) -> M:
    """Load a shipped data file once per process (cached; models are frozen)."""
    return load_model(model, data_path(*parts))


# --------------------------------------------------------------------------------------------
# the one loader of every kind of data file (decks, missions, squads, tables, vehicles, rules)
# --------------------------------------------------------------------------------------------
Check = Callable[[Any, Path], None]


def data_folder(kind: str | Path) -> Path:
    """The folder of a kind of data: a :class:`~pathlib.Path` as given, a name under
    ``ambush_env/data`` (``"cards"``, ``"missions"``; ``""`` = the data folder itself)."""
    return kind if isinstance(kind, Path) else DATA_DIR / kind


def list_data(kind: str | Path) -> list[str]:
    """Sorted ids (file stems) of the YAML files of a kind, e.g. ``list_data("cards")``."""
    return sorted(p.stem for p in data_folder(kind).glob("*.yaml"))


def resolve_data(kind: str | Path, id_or_path: str | Path, what: str) -> tuple[Path, bool]:
    """Map a shipped id or a file path to ``(path, shipped)``.

    A :class:`~pathlib.Path`, or a string containing a path separator or ending in ``.yaml``,
    is a path; anything else is an id of a file in :func:`data_folder` ``(kind)``.

    Raises:
        ScenarioError: not an id or a path, or an unknown id (the message lists the known ids).
    """
    if not isinstance(id_or_path, (str, Path)):
        raise ScenarioError(
            f"a {what} is an id or a path, got {id_or_path!r}; "
            f"known: {', '.join(list_data(kind)) or '(none)'}"
        )
    if (
        isinstance(id_or_path, Path)
        or "/" in id_or_path
        or "\\" in id_or_path
        or id_or_path.endswith(".yaml")
    ):
        return Path(id_or_path), False
    path = data_folder(kind) / f"{id_or_path}.yaml"
    if not path.exists():
        raise ScenarioError(
            f"unknown {what} {id_or_path!r}; known: {', '.join(list_data(kind)) or '(none)'}"
        )
    return path, True


def read_data(model: type[M], path: str | Path, check: Check | None = None) -> M:
    """Read, validate (:func:`validate_file`) and cross-check one file (uncached).

    Args:
        check: ``check(obj, path)`` runs after validation and raises DataError on a problem.

    Raises:
        DataError: a missing or malformed file, naming the file and the field.
    """
    obj = validate_file(model, read_yaml(path), path)
    if check is not None:
        check(obj, Path(path))
    return obj


@cache
def _read_shipped(model: type[M], path: Path, check: Check | None) -> M:
    return read_data(model, path, check)


def load_data(
    model: type[M],
    kind: str | Path,
    id_or_path: str | Path,
    *,
    what: str | None = None,
    check: Check | None = None,
) -> M:
    """Load a data file by shipped id (cached once per process; models are frozen) or by path
    (read each time).

    Args:
        model: the pydantic model of the file.
        kind: the folder of the kind's shipped files (see :func:`data_folder`).
        id_or_path: a shipped id (``"regular"``, ``"farm_assault"``) or a file path.
        what: the kind's name in messages (default: the model's name).
        check: an extra cross-check, ``check(obj, path)``, raising DataError.

    Raises:
        ScenarioError: an unknown id (the message lists the known ids).
        DataError: a malformed file, naming the file and the field.
    """
    path, shipped = resolve_data(kind, id_or_path, what or model.__name__)
    if shipped:
        return _read_shipped(model, path, check)
    return read_data(model, path, check)


def check_stem(path: Path, model_id: str) -> None:
    """The ``id`` field must equal the file stem. Raises DataError (field ``id``)."""
    if model_id != path.stem:
        raise DataError(path, "id", f"id {model_id!r} must equal the file stem {path.stem!r}")


class DataKind(Generic[M]):
    """The loaders of a kind of data kept one file an id in a folder (decks, squads, missions,
    campaign chains): the shipped ids, a file read by path, a file loaded by id or path. A
    file's ``id`` must equal its stem (:func:`check_stem`), checked before the kind's own check.

    Args:
        model: the pydantic model of a file (it has an ``id`` field).
        folder: the folder of the shipped files (:func:`data_folder`).
        what: the kind's name in messages (``"deck"``: ``unknown deck 'x'; known: ...``).
        check: the kind's cross-check after validation, ``check(obj, path)``, raising DataError.
    """

    def __init__(
        self, model: type[M], folder: str | Path, what: str, check: Check | None = None
    ) -> None:
        self.model, self.folder, self.what, self._own_check = model, folder, what, check
        self.check: Check = self._check  # one object: the key of the shipped files' cache

    def _check(self, obj: Any, path: Path) -> None:
        check_stem(path, obj.id)
        if self._own_check is not None:
            self._own_check(obj, path)

    def ids(self) -> list[str]:
        """Sorted ids (file stems) of the shipped files (:func:`list_data`)."""
        return list_data(self.folder)

    def read(self, path: str | Path) -> M:
        """Read, validate and cross-check the file at ``path`` (uncached; :func:`read_data`).

        Raises:
            DataError: a missing or malformed file, naming the file and the field.
        """
        return read_data(self.model, path, self.check)

    def load(self, id_or_path: str | Path) -> M:
        """The file of a shipped id (cached once per process) or at a path (read each time;
        :func:`load_data`).

        Raises:
            ScenarioError: an unknown id (the message lists the shipped ids).
            DataError: a malformed file, naming the file and the field.
        """
        return load_data(self.model, self.folder, id_or_path, what=self.what, check=self.check)


class DataFile(Generic[M]):
    """A kind of data held in one file, shipped as ``data/<stem>.yaml`` (the rules, vehicles
    and vehicle cards files): the shipped file loaded once, another read from its path.

    Args:
        model: the pydantic model of the file.
        stem: the shipped file's name without ``.yaml``.
        what: the kind's name in messages (``"vehicles file"``).
    """

    def __init__(self, model: type[M], stem: str, what: str) -> None:
        self.model, self.stem, self.what = model, stem, what
        #: the shipped file, loaded on the first call and kept (the rules read it every step)
        self.shipped: Callable[[], M] = cache(self._read_shipped)

    def _read_shipped(self) -> M:
        return load_data(self.model, "", self.stem, what=self.what)

    def load(self, path: str | Path | None = None) -> M:
        """The file at ``path`` (read each time), or the shipped one when ``path`` is None
        (loaded once and cached: never mutate it).

        Raises:
            DataError: a missing or malformed file, naming the file and the field.
        """
        if path is None:
            return self.shipped()
        return load_data(self.model, "", Path(path), what=self.what)
