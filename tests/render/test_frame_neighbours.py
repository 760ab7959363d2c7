"""The drawn map is the engine's map (issue 15, done-when 3): for every hex of every shipped
map, the hexes drawn one hex-width away, in the directions N, NE, SE, S, SW, NW (RULES.md §2),
are exactly ``board.neighbors[i]``; two neighbours' drawn polygons share the hexside between
them (``SIDE_CORNERS``); and the frame paints each hex where the geometry puts it. A
deliberately wrong geometry is caught by the same check."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ambush_env.core.world.board import load_board, resolve_map_path
from ambush_env.core.world.hexgrid import OPPOSITE
from ambush_env.render import geometry
from ambush_env.render.geometry import SIDE_CORNERS, hex_centre, hex_corners

S = 20.0  # hex radius of the check
MAPS_DIR = resolve_map_path("farm_assault.yaml").parent
MAPS = sorted(p.stem for p in MAPS_DIR.glob("*.yaml"))


def drawn_neighbours(board, centre=hex_centre, s: float = S) -> list[list[int]]:
    """For each hex, the hex whose drawn centre lies one hex-width (sqrt(3) radii) away in each
    direction d (N at -90 degrees, then clockwise by 60, y down), or -1 when none is drawn
    there."""
    pts = np.array([centre(*board.coords(i), s) for i in range(board.n)])
    out = []
    for i in range(board.n):
        row = []
        for d in range(6):
            ang = math.radians(-90 + 60 * d)
            want = pts[i] + math.sqrt(3) * s * np.array([math.cos(ang), math.sin(ang)])
            hit = np.flatnonzero(np.hypot(*(pts - want).T) < 0.05 * s)
            assert len(hit) <= 1
            row.append(int(hit[0]) if len(hit) else -1)
        out.append(row)
    return out


def mismatches(board, centre=hex_centre) -> list[str]:
    got = drawn_neighbours(board, centre)
    return [
        f"{board.label(i)} {d}: drawn {got[i][d]} engine {board.neighbors[i][d]}"
        for i in range(board.n)
        for d in range(6)
        if got[i][d] != int(board.neighbors[i][d])
    ]


def test_every_shipped_map_is_checked():
    assert {"farm_assault", "village_fight", "tank_hunt"} <= set(MAPS) and len(MAPS) >= 10


@pytest.mark.parametrize("name", MAPS)
def test_drawn_neighbours_are_the_engine_neighbours(name):
    board = load_board(MAPS_DIR / f"{name}.yaml")
    assert mismatches(board) == []
    # no other hex is drawn one hex-width away (a hex has at most six drawn neighbours)
    pts = np.array([hex_centre(*board.coords(i), S) for i in range(board.n)])
    for i in range(board.n):
        near = np.flatnonzero(np.abs(np.hypot(*(pts - pts[i]).T) - math.sqrt(3) * S) < 0.05 * S)
        assert sorted(near.tolist()) == sorted(j for j in board.neighbors[i] if j >= 0)


@pytest.mark.parametrize("name", ["farm_assault", "village_fight"])
def test_neighbours_share_the_drawn_hexside(name):
    """The corners SIDE_CORNERS[d] of hex i are the corners SIDE_CORNERS[opposite d] of its
    neighbour in direction d (the walls are drawn on the hexside the engine means)."""
    board = load_board(MAPS_DIR / f"{name}.yaml")
    for i in range(board.n):
        pi = hex_corners(*hex_centre(*board.coords(i), S), S)
        for d, j in enumerate(board.neighbors[i]):
            if j < 0:
                continue
            pj = hex_corners(*hex_centre(*board.coords(int(j)), S), S)
            a = sorted((round(x, 6), round(y, 6)) for x, y in (pi[k] for k in SIDE_CORNERS[d]))
            b = sorted(
                (round(x, 6), round(y, 6)) for x, y in (pj[k] for k in SIDE_CORNERS[OPPOSITE[d]])
            )
            assert a == b, (board.label(i), d)


def test_a_wrong_geometry_is_caught():
    """Odd columns drawn half a hex *higher* (even-q instead of RULES.md's odd-q), or a map
    drawn mirrored, fail the check."""
    board = load_board(MAPS_DIR / "farm_assault.yaml")

    def even_q(col, row0, s):
        x, y = hex_centre(col, row0, s)
        return x, y - math.sqrt(3) * s * (col & 1)

    def mirrored(col, row0, s):
        x, y = hex_centre(col, row0, s)
        return -x, y

    assert len(mismatches(board, even_q)) > board.n
    assert len(mismatches(board, mirrored)) > board.n
    wrong = dict(SIDE_CORNERS)
    wrong[0], wrong[3] = SIDE_CORNERS[3], SIDE_CORNERS[0]  # N and S swapped
    pi = hex_corners(*hex_centre(2, 2, S), S)
    pj = hex_corners(*hex_centre(2, 1, S), S)  # the N neighbour of C3
    assert sorted(pi[k] for k in wrong[0]) != sorted(pj[k] for k in wrong[3])


@pytest.mark.parametrize("name", ["farm_assault", "tank_hunt"])
@pytest.mark.parametrize("hex_size", [16, 24])
def test_the_frame_paints_each_hex_where_the_geometry_puts_it(name, hex_size):
    """The pixel at each hex's drawn centre has that hex's terrain colour (empty map: no
    units), so the neighbours above are the neighbours on the picture."""
    from ambush_env.core import Game
    from ambush_env.render.image import _fill_of, render_rgb

    g = Game(name)
    g.reset(0)
    g.state.units = []
    g.state.vehicles = []
    img = render_rgb(g, hex_size=hex_size, hud=False, legend=False)
    b = g.board
    w, h = geometry.map_size(b.columns, b.rows, hex_size)
    assert img.shape[0] in (h, h + 1) and img.shape[1] in (w, w + 1)  # the map alone (even sizes)
    for i in range(b.n):
        x, y = hex_centre(*b.coords(i), hex_size)
        assert tuple(img[int(y), int(x)]) == _fill_of(b, i), b.label(i)
