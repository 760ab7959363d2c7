"""Owns nothing: the binding import path ``ambush_env.core.board`` (docs/API.md, "Import paths").

The module is :mod:`ambush_env.core.world.board`; these names are the same objects.
"""

from ambush_env.core.world.board import (
    MAX_COLUMNS,
    MAX_LEVEL,
    MAX_RISE,
    MAX_ROWS,
    Board,
    Hexside,
    board_from_dict,
    list_maps,
    load_board,
    resolve_map_path,
)

__all__ = [
    "MAX_COLUMNS",
    "MAX_LEVEL",
    "MAX_RISE",
    "MAX_ROWS",
    "Board",
    "Hexside",
    "board_from_dict",
    "list_maps",
    "load_board",
    "resolve_map_path",
]
