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


def board_revision(game) -> object:
    """A value that changes whenever the live map changes (walls destroyed, rubble)."""
    rev = getattr(game.board, "revision", None)
    if rev is not None:
        return rev
    live = game.state.board
    return len(repr(live)) if live else 0


def hexside_bits(board, i: int, j: int) -> tuple[bool, bool, bool, bool, bool]:
    """``(wall, door, window, embankment, crest)`` of the hexside between hexes ``i`` and ``j``."""
    side = board.hexside(i, j)
    if side is None:
        return (False, False, False, False, False)
    wall = getattr(side, "wall", None)
    aperture = getattr(side, "aperture", None)
    ap = str(getattr(aperture, "name", aperture) or "").lower()
    has_wall = bool(wall) and str(getattr(wall, "name", wall)).lower() not in ("none", "0", "false")
    return (
        has_wall,
        has_wall and ap == "door",
        has_wall and ap == "window",
        bool(getattr(side, "embankment", False)),
        bool(getattr(side, "crest", False)),
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
