"""Loading and validating the game's data files (STYLE.md habit 3).

Every data file is YAML, parsed once and validated into frozen pydantic models. Any problem
raises :class:`~ambush_env.core.errors.DataError` naming the file and the offending field
(the pydantic location joined with dots, e.g. ``rows.semi_auto_rifle.to_hit.2``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from ambush_env.core.errors import DataError

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

M = TypeVar("M", bound=BaseModel)


class Frozen(BaseModel):
    """Base for data models: immutable, no unknown fields (a typo is an error, not ignored)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


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
    """Parse a YAML file. Raises DataError on a missing file or a syntax error."""
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
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "<yaml>"
        raise DataError(p, where, f"YAML syntax error: {getattr(e, 'problem', e)}") from None


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


@lru_cache(maxsize=None)
def load_shipped(model: type[M], *parts: str) -> M:
    """Load a shipped data file once per process (cached; models are frozen)."""
    return load_model(model, data_path(*parts))
