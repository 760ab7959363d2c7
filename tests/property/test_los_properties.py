"""Property tests of line of sight on random boards (RULES.md §3, issue 3).

- Sight is reciprocal for the same pair of stances (the reverse line with stances swapped).
- Nothing blocks on an empty flat board.
- Adding blocking terrain (woods, brush, rubble, rough, a crest) never makes a blocked line clear.
- SightCache agrees with line_of_sight.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ambush_env.core.model.types import STANCE_NAMES
from ambush_env.core.world.board import Board, board_from_dict
from ambush_env.core.world.hexgrid import make_label, neighbor_cr
from ambush_env.core.world.los import SightCache, line_of_sight

OBSTACLES = ["woods", "brush", "rubble", "rough"]
TERRAIN = [
    "clear",
    "clear",
    "clear",
    "road",
    "woods",
    "brush",
    "rubble",
    "rough",
    "building",
    "building",
]
# LOS_EXAMPLES=500 for a deeper run than the default, which keeps the suite fast.
SETTINGS = settings(
    max_examples=int(os.environ.get("LOS_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def random_maps(draw, max_cols: int = 7, max_rows: int = 7) -> dict:
    """A random map dict: terrain, levels 0-3, buildings with doors/windows, crests, embankments."""
    cols = draw(st.integers(2, max_cols))
    rows = draw(st.integers(2, max_rows))
    hexes: dict[str, dict] = {}
    for c in range(cols):
        for r in range(rows):
            terrain = draw(st.sampled_from(TERRAIN))
            spec = {"terrain": terrain, "level": draw(st.integers(0, 3))}
            if terrain == "building":
                spec["building"] = draw(st.sampled_from(["farm", "barn"]))
                spec["rise"] = draw(st.sampled_from([0, 0, 0, 1, 2]))
            hexes[make_label(c, r)] = spec
    sides: dict[str, object] = {}
    n_sides = draw(st.integers(0, cols * rows))
    for _ in range(n_sides):
        c, r = draw(st.integers(0, cols - 1)), draw(st.integers(0, rows - 1))
        cc, rr = neighbor_cr(c, r, draw(st.integers(0, 5)))
        if not (0 <= cc < cols and 0 <= rr < rows):
            continue
        a, b = make_label(c, r), make_label(cc, rr)
        if f"{b}/{a}" in sides:
            continue
        bld = {hexes[a].get("building"), hexes[b].get("building")} - {None}
        walled = bool(bld) and hexes[a].get("building") != hexes[b].get("building")
        kind = draw(st.sampled_from(["crest", "embankment", "slope", "door", "window", "wood"]))
        if kind in ("door", "window", "wood"):
            if walled:
                sides[f"{a}/{b}"] = {
                    "wall": "wood" if kind == "wood" else "stone",
                    "aperture": "none" if kind == "wood" else kind,
                }
        else:
            sides[f"{a}/{b}"] = kind
    return {"name": "random", "columns": cols, "rows": rows, "hexes": hexes, "hexsides": sides}


def build(raw: dict) -> Board:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # embankments between equal levels are fine here
        return board_from_dict(raw)


def sample_pairs(b: Board, seed: int, k: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, b.n, size=(k, 2))


@SETTINGS
@given(raw=random_maps(), seed=st.integers(0, 2**16))
def test_sight_is_reciprocal_for_the_same_stances(raw, seed):
    """RULES.md §3 / seed 004, p. 17: lines of sight are reciprocal."""
    b = build(raw)
    rng = np.random.default_rng(seed)
    for i, j in sample_pairs(b, seed, 30):
        a, t = b.label(i), b.label(j)
        ss, st_ = (STANCE_NAMES[k] for k in rng.integers(0, 3, 2))
        fwd = line_of_sight(b, a, t, sighter_stance=ss, target_stance=st_)
        back = line_of_sight(b, t, a, sighter_stance=st_, target_stance=ss)
        assert fwd.clear == back.clear, (a, t, ss, st_, fwd, back)


@SETTINGS
@given(raw=random_maps(), seed=st.integers(0, 2**16))
def test_cache_agrees_with_line_of_sight(raw, seed):
    """SightCache (vectorised) and line_of_sight (one line) give the same answers."""
    b = build(raw)
    cache = SightCache(b)
    for i, j in sample_pairs(b, seed, 20):
        for ss in range(3):
            for st_ in range(3):
                want = line_of_sight(
                    b, b.label(i), b.label(j), sighter_stance=ss, target_stance=st_
                ).clear
                assert cache.can_see(int(i), int(j), ss, st_) == want


@SETTINGS
@given(
    cols=st.integers(1, 12),
    rows=st.integers(1, 12),
    level=st.integers(0, 3),
    terrain=st.sampled_from(["clear", "road", "crater", "river"]),
    seed=st.integers(0, 2**16),
)
def test_nothing_blocks_on_an_empty_flat_board(cols, rows, level, terrain, seed):
    """Seed 004, p. 18: soldiers and all other terrain do not block: on a flat open board every
    hex sees every other, in every stance."""
    b = build(
        {
            "name": "flat",
            "columns": cols,
            "rows": rows,
            "default": {"terrain": terrain, "level": level},
        }
    )
    cache = SightCache(b)
    for ss in range(3):
        for st_ in range(3):
            assert cache.matrix(ss, st_).all()
    for i, j in sample_pairs(b, seed, 20):
        assert line_of_sight(b, b.label(i), b.label(j)).clear


@SETTINGS
@given(raw=random_maps(), data=st.data())
def test_adding_blocking_terrain_never_clears_a_blocked_line(raw, data):
    """RULES.md §3: woods, brush, rubble, rough and crests only ever add blockers."""
    before = build(raw)
    open_hexes = [lab for lab, h in raw["hexes"].items() if h["terrain"] != "building"]
    changed = dict(
        raw, hexes={k: dict(v) for k, v in raw["hexes"].items()}, hexsides=dict(raw["hexsides"])
    )
    for lab in data.draw(st.lists(st.sampled_from(open_hexes), max_size=3)) if open_hexes else []:
        changed["hexes"][lab]["terrain"] = data.draw(st.sampled_from(OBSTACLES))
    c, r = data.draw(st.integers(0, raw["columns"] - 1)), data.draw(st.integers(0, raw["rows"] - 1))
    cc, rr = neighbor_cr(c, r, data.draw(st.integers(0, 5)))
    if 0 <= cc < raw["columns"] and 0 <= rr < raw["rows"]:  # add a crest (it dominates any feature)
        a, b_ = make_label(c, r), make_label(cc, rr)
        key = f"{b_}/{a}" if f"{b_}/{a}" in changed["hexsides"] else f"{a}/{b_}"
        old = changed["hexsides"].get(key)
        changed["hexsides"][key] = dict(old, crest=True) if isinstance(old, dict) else "crest"
    after = build(changed)
    vb, va = SightCache(before), SightCache(after)
    for ss in range(3):
        for st_ in range(3):
            newly_clear = va.matrix(ss, st_) & ~vb.matrix(ss, st_)
            assert not newly_clear.any(), np.argwhere(newly_clear)[:3]
    seed = data.draw(st.integers(0, 2**16))
    for i, j in sample_pairs(before, seed, 15):
        if not line_of_sight(before, before.label(i), before.label(j)).clear:
            assert not line_of_sight(after, after.label(i), after.label(j)).clear


@settings(max_examples=10, deadline=None)
@given(raw=random_maps(max_cols=5, max_rows=5), seed=st.integers(0, 2**16))
def test_vehicle_sight_is_reciprocal(raw, seed):
    """Seed 004, p. 18 vehicles: the adjacent-vehicle rules read the same both ways."""
    b = build(raw)
    rng = np.random.default_rng(seed)
    for i, j in sample_pairs(b, seed, 30):
        a, t = b.label(i), b.label(j)
        if b.building[i] is not None:
            continue
        vs = ("small", "large")[int(rng.integers(0, 2))]
        st_ = STANCE_NAMES[int(rng.integers(0, 3))]
        fwd = line_of_sight(b, a, t, target_stance=st_, sighter_in_vehicle=vs)
        back = line_of_sight(b, t, a, sighter_stance=st_, target_in_vehicle=vs)
        assert fwd.clear == back.clear


def test_cache_agrees_on_a_full_size_random_board():
    """A 30 x 20 random board: the vectorised cache matches line_of_sight on sampled pairs."""
    rng = np.random.default_rng(2024)
    hexes = {}
    for c in range(30):
        for r in range(20):
            u = rng.random()
            if u < 0.12:
                hexes[make_label(c, r)] = {
                    "terrain": str(rng.choice(OBSTACLES)),
                    "level": int(rng.integers(0, 3)),
                }
            elif u < 0.18:
                hexes[make_label(c, r)] = {
                    "terrain": "building",
                    "building": f"b{(r * 30 + c) // 4}",
                }
            elif u < 0.35:
                hexes[make_label(c, r)] = {"level": int(rng.integers(0, 3))}
    b = build({"name": "big", "columns": 30, "rows": 20, "hexes": hexes})
    cache = SightCache(b)
    for i, j in sample_pairs(b, 5, 300):
        ss, st_ = (int(x) for x in rng.integers(0, 3, 2))
        want = line_of_sight(b, b.label(i), b.label(j), sighter_stance=ss, target_stance=st_).clear
        assert cache.can_see(int(i), int(j), ss, st_) == want
