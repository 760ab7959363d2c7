"""Small read-only queries the env makes of the board and the mission.

Kept in one place so the observation builder, the renderer and the heuristic agent read the
map the same way. Nothing here changes the game.
"""

from __future__ import annotations

from ambush_env.core.types import DIRECTION_NAMES

DIRS = DIRECTION_NAMES


def hex_distance(c1: int, r1: int, c2: int, r2: int) -> int:
    """Hexes between two (column, row) positions in the odd-q layout of RULES.md §2."""
    z1 = r1 - (c1 - (c1 & 1)) // 2
    z2 = r2 - (c2 - (c2 & 1)) // 2
    dx = c1 - c2
    dz = z1 - z2
    return max(abs(dx), abs(dz), abs(dx + dz))


def board_revision(game) -> int:
    """A value that changes whenever the live map changes (walls destroyed, rubble)."""
    return game.board.version


def hexside_bits(board, i: int, j: int) -> tuple[bool, bool, bool, bool, bool]:
    """``(wall, door, window, embankment, crest)`` of the live hexside between hexes ``i`` and ``j``.

    A destroyed wall counts as no wall (it became a clear hexside, seed 002 p. 27).
    """
    side = board.hexside(i, j)
    if side is None:
        return (False, False, False, False, False)
    wall = side.wall is not None and not side.destroyed
    return (
        wall,
        wall and side.aperture == "door",
        wall and side.aperture == "window",
        bool(side.embankment),
        bool(side.crest),
    )


def objective_hexes(game) -> list[int]:
    """Board indices of the mission's objective hexes (may be empty)."""
    return sorted(game.objective_hexes)


def exit_hexes(game) -> list[int]:
    """Board indices from which the squad may leave the map (may be empty)."""
    return sorted(game.exit_hexes)


def trigger_hexes(game) -> list[int]:
    """Board indices of the mission's trigger hexes."""
    return sorted(game.triggers)


def count_explosives(equipment) -> tuple[int, int]:
    """``(grenades, satchel charges)`` among the item ids of a soldier's port boxes."""
    g = s = 0
    for item in equipment:
        name = str(item).lower()
        if "satchel" in name:
            s += 1
        elif "grenade" in name:
            g += 1
    return g, s
