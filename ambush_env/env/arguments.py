"""Owns the checks of the envs' arguments and reset options (docs/API.md: "Bad arguments
to the envs and the CLI raise ``ConfigError``"): each helper returns the value, normalised, or
raises :class:`~ambush_env.core.model.errors.ConfigError` naming the argument and what it may be
(docs/OBSERVATION.md "Errors").

Data ids keep their own errors: an unknown mission, deck, squad or campaign is a
``ScenarioError``, a malformed file or position a ``DataError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ambush_env.core.model.errors import ConfigError

_SHOWN = 80  # characters of a bad value the message shows


def shown(value: Any) -> str:
    """A bad value as a message shows it: its repr, cut to 80 characters, and its type."""
    try:
        text = repr(value)
    except Exception:
        text = "<unprintable>"
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 3] + "..."
    return f"{text} ({type(value).__name__})"


def choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """``value`` if it is one of ``choices`` (strings, and None where None is allowed).

    Raises:
        ConfigError: anything else (also a value of another type, never compared).
    """
    choices = tuple(choices)
    if (value is None or isinstance(value, str)) and value in choices:
        return value
    raise ConfigError(name, f"one of {', '.join(map(repr, choices))}; got {shown(value)}")


def flag(name: str, value: Any) -> bool:
    """``value`` as a bool: ``True`` or ``False`` (a numpy bool too), nothing else.

    Raises:
        ConfigError: a string (``"yes"``), a number, None, … (never read as true or false).
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ConfigError(name, f"True or False; got {shown(value)}")


def integer(name: str, value: Any, low: int, what: str) -> int:
    """``value`` as an int of at least ``low`` (a Python int or a numpy integer, never a bool
    or a float); ``what`` says what it counts in the message.

    Raises:
        ConfigError: anything else.
    """
    if (
        isinstance(value, (int, np.integer))
        and not isinstance(value, (bool, np.bool_))
        and value >= low
    ):
        return int(value)
    raise ConfigError(name, f"{what} (an integer >= {low}); got {shown(value)}")


def max_steps(value: Any) -> int | None:
    """The ``max_steps`` argument: None (no cap) or a number of steps >= 1.

    Raises:
        ConfigError: 0, a negative number, a float, a string, a bool.
    """
    if value is None:
        return None
    return integer("max_steps", value, 1, "a number of steps or None")


def seed(value: Any, name: str = "seed") -> int | None:
    """A reset seed: None or an integer >= 0 (a numpy integer becomes an int).

    Raises:
        ConfigError: a negative number, a float, a string, a bool.
    """
    if value is None:
        return None
    return integer(name, value, 0, "a seed")


def options(value: Any, known: Iterable[str], where: str) -> dict[str, Any]:
    """A reset's ``options``: None or a mapping whose keys are among ``known``; returns a dict.

    Args:
        where: the env named in the message (``"ambush/Procedural"``).

    Raises:
        ConfigError: not a mapping, or a key this env does not read (⚙ refused rather than
            ignored, so a misspelt ``"mision_seed"`` is not silently dropped); the message
            lists the known keys.
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError("options", f"a dict of reset options or None; got {shown(value)}")
    known = tuple(known)
    for key in value:
        if key not in known:
            keys = ", ".join(repr(k) for k in known) or "none"
            raise ConfigError(
                f"options[{key!r}]", f"not a reset option of {where}; its options: {keys}"
            )
    return dict(value)


def no_unknown(where: str, unknown: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse keyword arguments an env does not take (``**unknown`` of its constructor), so
    that ``gymnasium.make(..., missoin="x")`` names the argument instead of a TypeError.

    Raises:
        ConfigError: the first unknown argument, with the ones the env takes.
    """
    for key in unknown:
        raise ConfigError(key, f"not an argument of {where}; its arguments: {', '.join(known)}")
