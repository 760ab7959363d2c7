"""Owns the typed errors of the rules engine (STYLE.md habit 2).

Every public entry point validates its input and raises one of these; the message names the
offending input (file and field, order and unit, hex label).
"""

from __future__ import annotations


class AmbushError(ValueError):
    """Base class of every error the engine raises on bad input."""


class DataError(AmbushError):
    """A data file (map, mission, card, squad, table) is malformed.

    The message always starts with the file path and names the offending field,
    e.g. ``maps/farm.yaml: hexes.Q16.terrain: unknown terrain 'swamp'``.
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
    """A scripted :class:`~ambush_env.core.dice.Dice` ran out of forced rolls (RULES.md §1)."""
