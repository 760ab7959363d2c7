"""Hex-grid geometry (RULES.md §2 layout, RULES.md §3 exact line tracing)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import Direction
from ambush_env.core.world import hexgrid as hg


def test_column_letters_run_a_to_z_then_aa():
    """RULES.md §2: columns are lettered A..Z, AA, AB..."""
    assert [hg.col_letters(c) for c in (0, 1, 25, 26, 27, 51, 52, 701)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
        "ZZ",
    ]
    for c in range(800):
        assert hg.col_index(hg.col_letters(c)) == c


def test_labels_round_trip():
    """RULES.md §2: a hex label is column + row from 1 at the top (Q16 = column 16, row0 15)."""
    assert hg.parse_label("Q16") == (16, 15)
    assert hg.parse_label("AB3") == (27, 2)
    assert hg.make_label(16, 15) == "Q16"
    for c in range(0, 60, 7):
        for r in range(0, 40, 3):
            assert hg.parse_label(hg.make_label(c, r)) == (c, r)


@pytest.mark.parametrize("bad", ["", "16Q", "Q", "Q0", "Q016", "q16", "Q-1", "Q 16", None, 16])
def test_malformed_label_raises_naming_it(bad):
    """A malformed label is an AmbushError whose message names it (docs/STYLE.md habit 2)."""
    with pytest.raises(AmbushError, match="malformed hex label"):
        hg.parse_label(bad)


def test_neighbours_follow_the_rules_table():
    """RULES.md §2: odd-q neighbours, even column C (index 2) and odd column D (index 3)."""
    even = [hg.make_label(*hg.neighbor_cr(2, 4, d)) for d in Direction]
    assert even == ["C4", "D4", "D5", "C6", "B5", "B4"]  # N NE SE S SW NW of C5
    odd = [hg.make_label(*hg.neighbor_cr(3, 4, d)) for d in Direction]
    assert odd == ["D4", "E5", "E6", "D6", "C6", "C5"]  # of D5


def test_neighbours_are_mutual_and_at_distance_one():
    for c in range(6):
        for r in range(1, 6):
            for d in Direction:
                nb = hg.neighbor_cr(c, r, d)
                assert hg.distance_cr((c, r), nb) == 1
                assert hg.neighbor_cr(*nb, hg.OPPOSITE[d]) == (c, r)
                assert hg.direction_cr((c, r), nb) == d


def test_cube_coordinates_sum_to_zero_and_distance_is_symmetric():
    rng = np.random.default_rng(1)
    for _ in range(200):
        a = tuple(int(x) for x in rng.integers(0, 30, 2))
        b = tuple(int(x) for x in rng.integers(0, 30, 2))
        assert sum(hg.cube(*a)) == 0
        assert hg.distance_cr(a, b) == hg.distance_cr(b, a)
    assert hg.distance_cr((0, 0), (4, 0)) == 4
    assert hg.distance_cr((0, 0), (0, 5)) == 5


def test_axial_round_trip():
    for c in range(10):
        for r in range(10):
            x, _, z = hg.cube(c, r)
            assert hg.axial_to_cr(x, z) == (c, r)


def test_centres_of_neighbours_are_one_hex_apart():
    """Real centres (radius 1): neighbouring centres are sqrt(3) apart in all six directions."""
    for c in (2, 3):
        x0, y0 = hg.centre_xy(c, 4)
        for d in Direction:
            x1, y1 = hg.centre_xy(*hg.neighbor_cr(c, 4, d))
            assert math.isclose(math.hypot(x1 - x0, y1 - y0), math.sqrt(3))


def test_lattice_vertices_are_shared_between_neighbours():
    """Each hexside's two lattice vertices are vertices of both hexes it separates."""
    for c in (4, 5):
        cx, cy = hg.lattice_centre(c, 3)
        for k, d in enumerate(hg.SIDE_OF_VERTEX_PAIR):
            v = [
                (cx + hg.VERTEX_OFFSETS[m][0], cy + hg.VERTEX_OFFSETS[m][1])
                for m in (k, (k + 1) % 6)
            ]
            nx, ny = hg.lattice_centre(*hg.neighbor_cr(c, 3, d))
            theirs = {(nx + ox, ny + oy) for ox, oy in hg.VERTEX_OFFSETS}
            assert set(v) <= theirs


def test_a2_c2_runs_along_the_b1_b2_hexside():
    """RULES.md §3: A2-C2 runs exactly along the B1/B2 hexside, so it is traced twice."""
    ts = hg.traces(hg.parse_label("A2"), hg.parse_label("C2"))
    paths = {tuple(hg.make_label(*h) for h in hg.walk_hexes(hg.parse_label("A2"), t)) for t in ts}
    assert paths == {("A2", "B1", "C2"), ("A2", "B2", "C2")}


def test_a_straight_column_line_is_traced_once():
    ts = hg.traces((4, 1), (4, 7))
    assert len(ts) == 1 and ts[0] == (Direction.S,) * 6


def _real_trace(a, b, shift, step=1e-4):
    """Hexes met by the segment a->b shifted ``shift`` sideways, by dense sampling (real plane)."""
    ax, ay = hg.centre_xy(*a)
    bx, by = hg.centre_xy(*b)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length, (bx - ax) / length
    t = np.linspace(0.0, 1.0, int(length / step) + 2)
    x = ax + (bx - ax) * t + nx * shift
    y = ay + (by - ay) * t + ny * shift
    # The containing hex is the one with the nearest centre; search the columns around x.
    col0 = np.round(x / 1.5).astype(int)
    best = np.full(x.shape, np.inf)
    bc = np.zeros(x.shape, dtype=int)
    br = np.zeros(x.shape, dtype=int)
    for dc in (-1, 0, 1):
        c = col0 + dc
        r = np.round(y / math.sqrt(3) - 0.5 * (c & 1)).astype(int)
        for dr in (-1, 0, 1):
            rr = r + dr
            cxx, cyy = 1.5 * c, math.sqrt(3) * (rr + 0.5 * (c & 1))
            d2 = (x - cxx) ** 2 + (y - cyy) ** 2
            m = d2 < best
            best[m], bc[m], br[m] = d2[m], c[m], rr[m]
    seq = [(int(bc[0]), int(br[0]))]
    for c, r in zip(bc[1:], br[1:], strict=True):
        if (c, r) != seq[-1]:
            seq.append((int(c), int(r)))
    return seq


def test_traces_match_a_dense_sampling_of_the_real_line():
    """The exact integer tracer agrees with sampling the real segment, nudged both ways."""
    rng = np.random.default_rng(7)
    pairs = [((0, 1), (2, 1)), ((0, 2), (1, 6)), ((2, 10), (3, 14)), ((3, 3), (9, 6))]
    pairs += [
        (tuple(int(v) for v in rng.integers(2, 8, 2)), tuple(int(v) for v in rng.integers(2, 8, 2)))
        for _ in range(12)
    ]
    for a, b in pairs:
        if a == b:
            continue
        got = {tuple(hg.walk_hexes(a, t)) for t in hg.traces(a, b)}
        sampled = {tuple(_real_trace(a, b, s)) for s in (1e-3, -1e-3)}
        assert got == sampled, (a, b)


def test_vectorised_table_equals_the_scalar_tracer():
    """hexgrid.trace_table is the vectorised twin of hexgrid.traces, offset by offset."""
    cols, rows = 7, 6
    tt = hg.trace_table(cols, rows)
    for p in (0, 1):
        for dc in range(-(cols - 1), cols):
            for dr in range(-(rows - 1), rows):
                t = tt.template(p, dc, dr)
                got = []
                for k in range(int(tt.tmpl_count[t])):
                    tr = int(tt.tmpl_first[t]) + k
                    got.append(
                        tuple(int(x) for x in tt.step_dir[tt.trace_ptr[tr] : tt.trace_ptr[tr + 1]])
                    )
                want = hg.traces((p, 0), (p + dc, dr)) if (dc, dr) != (0, 0) else ()
                assert tuple(got) == want, (p, dc, dr)
                for k, dirs in enumerate(want):
                    tr = int(tt.tmpl_first[t]) + k
                    hexes = hg.walk_hexes((p, 0), dirs)[1:]
                    sl = slice(tt.trace_ptr[tr], tt.trace_ptr[tr + 1])
                    assert list(zip(tt.step_dc[sl] + p, tt.step_dr[sl], strict=True)) == hexes
                    assert list(tt.step_dist_t[sl]) == [
                        hg.distance_cr(h, (p + dc, dr)) for h in hexes
                    ]


def test_traces_are_reciprocal():
    """The set of nudged traces from B to A is the reverse of A to B (sight is reciprocal)."""
    rng = np.random.default_rng(3)
    for _ in range(100):
        a = tuple(int(v) for v in rng.integers(0, 12, 2))
        b = tuple(int(v) for v in rng.integers(0, 12, 2))
        fwd = {tuple(hg.walk_hexes(a, t)) for t in hg.traces(a, b)}
        back = {tuple(reversed(hg.walk_hexes(b, t))) for t in hg.traces(b, a)}
        assert fwd == back
