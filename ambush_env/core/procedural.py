"""Owns procedural missions for ``ambush/Procedural-v0`` (INTERFACE.md): a map, forces and
triggers generated from one seed; numbers ⚙ in ``data/procedural.yaml``.

A generated mission follows the reference mission's pattern (RULES.md §15 minimums hold by
construction and are validated like a mission file):

* map ``columns`` × ``rows``: clear ground, a west-east road, woods and brush clumps (random
  walks), a few rough hexes, a level-1 rise, and a two-hex stone farmhouse with a door and
  windows (its other walls blank);
* the squad enters on the west edge and may leave by any east-edge hex;
* the farmhouse is the objective; every hex next to it triggers the farm paragraphs (a
  rifleman inside, aware on an activation roll); the hexes around the rise trigger an MG team
  on it (present on an activation roll; aware unless the triggering soldier passes a PC
  check); a wood east of the farm triggers an NCO with a machine pistol; ``event_hexes``
  random hexes roll on the event table;
* VP schedule, result thresholds and event table as Farm Assault.

:func:`generate` is pure: the same seed gives the same mission and map.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ambush_env.core.board import Board, board_from_dict
from ambush_env.core.data import Frozen, data_path, load_model
from ambush_env.core.hexgrid import make_label, neighbor_cr
from ambush_env.core.missions import Mission, check_references, load_mission


class ProceduralConfig(Frozen):
    columns: int
    rows: int
    woods_clumps: tuple[int, int]
    woods_clump_size: tuple[int, int]
    brush_clumps: tuple[int, int]
    brush_clump_size: tuple[int, int]
    rough_hexes: tuple[int, int]
    rise_size: tuple[int, int]
    farm_columns: tuple[int, int]
    event_hexes: int
    time_limit: dict[str, int]


@lru_cache(maxsize=1)
def config() -> ProceduralConfig:
    """``data/procedural.yaml`` (cached). Raises DataError naming the field."""
    return load_model(ProceduralConfig, data_path("procedural.yaml"))


def _nbrs(c: int, r: int, cols: int, rows: int) -> list[tuple[int, int]]:
    out = []
    for d in range(6):
        nc, nr = neighbor_cr(c, r, d)
        if 0 <= nc < cols and 0 <= nr < rows:
            out.append((nc, nr))
    return out


def generate(seed: int) -> tuple[Mission, Board]:
    """The procedural mission and map of ``seed`` (deterministic).

    Returns:
        ``(mission, board)``; the mission's ``id`` is ``procedural_<seed>``.
    """
    cfg = config()
    rng = np.random.default_rng(seed)
    cols, rows = cfg.columns, cfg.rows

    def between(lo_hi: tuple[int, int]) -> int:
        return int(rng.integers(lo_hi[0], lo_hi[1] + 1))

    terrain: dict[tuple[int, int], str] = {}
    level: dict[tuple[int, int], int] = {}
    road_row = int(rng.integers(rows // 3, 2 * rows // 3 + 1))
    for c in range(cols):
        terrain[(c, road_row)] = "road"
    # the farmhouse: two hexes stacked in one column, north of or south of the road
    fc = between(cfg.farm_columns)
    fr = road_row - 2 if rng.random() < 0.5 else road_row + 1
    farm = [(fc, fr), (fc, fr + 1)]
    reserved = set(farm) | {(c, road_row) for c in range(cols)}
    for h in farm:
        reserved |= set(_nbrs(*h, cols, rows))
    reserved |= {(0, r) for r in range(rows)} | {(1, r) for r in range(rows)}

    def clump(kind: str, n: int, size: tuple[int, int], west: int = 2) -> None:
        for _ in range(n):
            c, r = int(rng.integers(west, cols)), int(rng.integers(0, rows))
            for _ in range(between(size)):
                if (c, r) not in reserved:
                    terrain[(c, r)] = kind
                nb = _nbrs(c, r, cols, rows)
                c, r = nb[int(rng.integers(len(nb)))]

    clump("woods", between(cfg.woods_clumps), cfg.woods_clump_size)
    clump("brush", between(cfg.brush_clumps), cfg.brush_clump_size)
    for _ in range(between(cfg.rough_hexes)):
        h = (int(rng.integers(2, cols)), int(rng.integers(0, rows)))
        if h not in reserved:
            terrain[h] = "rough"
    # a level-1 rise on the other side of the road from the farm, between the squad and the farm
    rc = int(rng.integers(max(3, fc - 5), max(4, fc - 1)))
    rr = road_row + 2 if fr < road_row else road_row - 3
    rr = min(max(rr, 0), rows - 1)
    rise = []
    c, r = rc, rr
    for _ in range(between(cfg.rise_size)):
        if (c, r) not in reserved and (c, r) not in rise:
            rise.append((c, r))
            level[(c, r)] = 1
        nb = [h for h in _nbrs(c, r, cols, rows) if h not in reserved]
        if not nb:
            break
        c, r = nb[int(rng.integers(len(nb)))]
    if not rise:  # the walk found no room: put it next to the west edge
        rise = [(3, 0)]
        level[(3, 0)] = 1
    # the map file
    hexes: dict[str, dict[str, Any]] = {}
    for (c, r), t in terrain.items():
        hexes.setdefault(make_label(c, r), {})["terrain"] = t
    for (c, r), lv in level.items():
        hexes.setdefault(make_label(c, r), {})["level"] = lv
    for h in farm:
        hexes[make_label(*h)] = {"terrain": "building", "building": "farmhouse"}
    hexsides: dict[str, Any] = {}
    # door toward the road side, windows on two other sides of each farm hex
    for i, h in enumerate(farm):
        outside = [n for n in _nbrs(*h, cols, rows) if n not in farm]
        rng.shuffle(outside)
        for k, n in enumerate(outside[:2]):
            aperture = "door" if (i == 0 and k == 0) else "window"
            hexsides[f"{make_label(*h)}/{make_label(*n)}"] = {"wall": "stone", "aperture": aperture}
    board_raw = {"name": f"procedural_{seed}", "columns": cols, "rows": rows,
                 "default": {"terrain": "clear", "level": 0}, "hexes": hexes, "hexsides": hexsides}
    board = board_from_dict(board_raw, path=f"<procedural map, seed {seed}>")

    # the mission: paragraphs and schedule patterned on Farm Assault
    ref = load_mission(_reference())
    farm_ring = sorted({n for h in farm for n in _nbrs(*h, cols, rows) if n not in farm})
    rise_ring = sorted({n for h in rise for n in _nbrs(*h, cols, rows) if n not in rise} - set(farm_ring))
    triggers: dict[str, Any] = {}
    for h in farm_ring:
        triggers[make_label(*h)] = 20
    for h in farm:
        triggers[make_label(*h)] = 25
    for h in rise_ring:
        triggers.setdefault(make_label(*h), 10)
    nco_col = min(cols - 2, fc + 3)
    nco = (nco_col, int(rng.integers(0, rows)))
    for h in [nco] + _nbrs(*nco, cols, rows):
        triggers.setdefault(make_label(*h), 40)
    free = [(c, r) for c in range(2, cols) for r in range(rows)
            if make_label(c, r) not in triggers and (c, r) not in farm]
    for k in rng.choice(len(free), size=min(cfg.event_hexes, len(free)), replace=False):
        triggers[make_label(*free[int(k)])] = "EVENT"
    entry_rows = [min(rows - 1, max(0, road_row + d)) for d in (0, 1, -1, 0, -2, 1, 2, -1)]
    paragraphs = ref.model_dump(by_alias=True, mode="json")["paragraphs"]
    mg_hex, farm_hex = make_label(*rise[0]), make_label(*farm[0])
    paragraphs = _relocate(paragraphs, {"I10": mg_hex, "L6": farm_hex, "P5": make_label(*nco)})
    raw = {
        "id": f"procedural_{seed}",
        "title": f"Procedural mission {seed}",
        "briefing": "Cross the fields, take the farmhouse and leave by the east edge. "
                    "Expect a rifleman in the farm, a machine gun on the rise and an NCO in "
                    "the woods beyond.",
        "map": "farm_assault",  # a placeholder id: the generated board is passed to the engine
        "squad": ref.squad,
        "deck_default": ref.deck_default,
        "us_entry": [make_label(0, r) for r in entry_rows],
        "exit_hexes": [make_label(cols - 1, r) for r in range(rows)],
        "objective": {"name": "farm", "hexes": [make_label(*h) for h in farm]},
        "time_limit": dict(cfg.time_limit),
        "triggers": triggers,
        "paragraphs": paragraphs,
        "events": ref.model_dump(by_alias=True, mode="json")["events"],
        "vp": ref.vp.model_dump(),
        "results": ref.results.model_dump(),
        "rules": {"all_in_command_rounds": ref.rules.all_in_command_rounds},
        # the platoon's jeep on the road at the west edge, as in Farm Assault (seed 000)
        "us_vehicles": [{"vehicle": "jeep", "hex": make_label(0, road_row), "facing": "NE"}],
    }
    mission = Mission.model_validate(raw)
    check_references(mission, f"<procedural mission, seed {seed}>", columns=cols, rows=rows,
                     board=board)
    return mission, board


def _reference() -> str:
    return "farm_assault"


def _relocate(node: Any, moves: dict[str, str]) -> Any:
    """Replace the reference mission's placement hexes by the generated ones."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "hex" and isinstance(v, str) and v in moves:
                out[k] = moves[v]
            elif k == "route":
                out[k] = []
            else:
                out[k] = _relocate(v, moves)
        return out
    if isinstance(node, list):
        return [_relocate(x, moves) for x in node]
    return node
