"""Owns the typed errors of the rules engine (docs/STYLE.md habit 2).

Every public entry point validates its input and raises one of these; the message names the
offending input (file and field, order and unit, hex label).
"""

from __future__ import annotations

#: the errors, re-exported by the binding path ``ambush_env.core.errors`` and by the package
#: (``ambush_env.AmbushError``, …): both import this list
__all__ = [
    "AmbushError",
    "ConfigError",
    "DataError",
    "DiceExhaustedError",
    "IllegalActionError",
    "MissingExtraError",
    "ScenarioError",
]


class AmbushError(ValueError):
    """Base class of every error the engine raises on bad input."""


class DataError(AmbushError):
    """A data file (map, mission, card, squad, table) is malformed.

    The message always starts with the file path and names the offending field,
    e.g. ``maps/farm_assault.yaml: hexes.Q16.terrain: unknown terrain 'swamp'``.
    """

    def __init__(self, path: object, field: str, problem: str) -> None:
        self.path = str(path)
        self.field = field
        self.problem = problem
        super().__init__(f"{self.path}: {field}: {problem}")


class IllegalActionError(AmbushError):
    """An order that is not legal now; the message names the order and the acting unit."""


class ScenarioError(AmbushError):
    """An unknown mission, squad or suite, or a mission that cannot be set up."""


class DiceExhaustedError(AmbushError):
    """A scripted :class:`~ambush_env.core.model.dice.Dice` ran out of forced rolls, or a forced
    roll is outside the range of the die that uses it (RULES.md §1); the message names the
    roll, its label and the die's range."""


class ConfigError(AmbushError):
    """A bad argument of an env, a reset option or a command-line option (docs/API.md:
    "Bad arguments to the envs and the CLI raise ConfigError").

    The message starts with the argument's name, e.g. ``max_steps: a number of steps >= 1
    or None, got 0`` or ``options['mission_seed']: an integer >= 0, got -1``.
    """

    def __init__(self, argument: str, problem: str) -> None:
        self.argument = argument
        self.problem = problem
        super().__init__(f"{argument}: {problem}")

    def __reduce__(self):  # pickles (worker processes) with both fields, not the message
        return type(self), (self.argument, self.problem)


class MissingExtraError(AmbushError, ImportError):
    """A feature needs a package of an optional extra that is not installed, e.g. two-sided
    play (``ambush_env.aec_env``) without PettingZoo: the message names the package and the
    install command (``pip install "ambush_env[multi]"``). Also an ``ImportError``, so
    ``pytest.importorskip`` and ``except ImportError`` treat it as a missing module."""

    def __init__(self, feature: str, package: str, extra: str) -> None:
        self.feature = feature
        self.package = package
        self.extra = extra
        super().__init__(
            f'{feature} needs {package}, which is not installed: pip install "ambush_env[{extra}]"'
        )
        self.name = package  # ImportError's field: the missing module

    def __reduce__(self):
        return type(self), (self.feature, self.package, self.extra)
