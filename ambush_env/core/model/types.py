"""Owns the named constants of the game (docs/STYLE.md habit 4): stances, directions, terrain,
status, phases.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, get_args


class Stance(IntEnum):
    """A soldier's stance (RULES.md §4)."""

    STANDING = 0
    CROUCHING = 1
    PRONE = 2


STANCE_NAMES = ("standing", "crouching", "prone")


class Direction(IntEnum):
    """The six neighbours of a flat-topped hex, clockwise from north (RULES.md §2)."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5


#: a Direction's name, by :class:`Direction` value (:data:`DIRECTION_NAMES`)
DirectionName = Literal["N", "NE", "SE", "S", "SW", "NW"]
DIRECTION_NAMES: tuple[DirectionName, ...] = get_args(DirectionName)

#: a charge a soldier throws and that goes off in a hex (RULES.md §9): its item name
Charge = Literal["grenade", "satchel"]


class Terrain(IntEnum):
    """Hex terrain types (RULES.md §2). Landmarks are a hex attribute, not a type."""

    CLEAR = 0
    ROAD = 1
    WOODS = 2
    BRUSH = 3
    RUBBLE = 4
    ROUGH = 5
    BUILDING = 6
    RIVER = 7
    CRATER = 8


TERRAIN_NAMES = tuple(t.name.lower() for t in Terrain)


class Side(IntEnum):
    US = 0
    GERMAN = 1


class Status(IntEnum):
    """Soldier status (RULES.md §4, seed 002). Wounded and panicked are separate flags."""

    ACTIVE = 0
    INCAPACITATED = 1
    KILLED = 2
    CAPTURED = 3
    REMOVED = 4  # exited the map, or an escaped prisoner gone off-map
    HIDDEN = 5  # a German not yet placed by a paragraph


# The plain ints of the values the rules compare most (the state holds ints: ``u.status ==
# ACTIVE``, ``u.side == GER``); defined once here for every module of the core.
US, GER = int(Side.US), int(Side.GERMAN)
ACTIVE, INCAP, KILLED = int(Status.ACTIVE), int(Status.INCAPACITATED), int(Status.KILLED)
CAPTURED, REMOVED, HIDDEN = int(Status.CAPTURED), int(Status.REMOVED), int(Status.HIDDEN)
STANDING, PRONE = int(Stance.STANDING), int(Stance.PRONE)


class ARSpace(IntEnum):
    """Where a unit's marker sits on the Action Round track (RULES.md §5)."""

    NONE = 0
    TWO_TURN = 1
    ONE_TURN = 2
    COMPLETE = 3
    PANIC = 4
    INACTIVE = 5


class Phase(IntEnum):
    OPERATIONS = 0
    ROUNDS = 1
    OVER = 2


class Result(IntEnum):
    """Mission result bands (RULES.md §15), ordered worst to best."""

    LOSS = 0
    DRAW = 1
    WIN = 2
    DECISIVE_WIN = 3


OBJECTIVE_TAKEN = "objective_taken"
"""The flag set when the mission's objective scores, whatever its kind (RULES.md §15): from
then on exits pay (a mission's ``vp.exits``)."""

#: a result band's name (:data:`RESULT_NAMES`)
ResultName = Literal["loss", "draw", "win", "decisive_win"]
RESULT_NAMES: tuple[ResultName, ...] = ("loss", "draw", "win", "decisive_win")
