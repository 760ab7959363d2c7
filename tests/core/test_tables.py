"""The rule tables: loading, cross-checks, errors, and the soldier's sanity properties.

RULES.md §6 (movement costs), §8 (fire tables must make sense to a soldier), §11; seed 002 p. 26.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Stance, Terrain
from ambush_env.core.world.data import DATA_DIR
from ambush_env.core.world.tables import (
    REQUIRED_CLASSES,
    REQUIRED_ROWS,
    RESULTS,
    SEVERITY,
    load_tables,
)

T = load_tables()
FAR = range(0, 41)  # distances checked by the sanity properties, hexes
RIFLES = ("bolt_rifle", "semi_auto_rifle")
MACHINE_GUNS = ("lmg", "hmg", "tank_mg")


def p_hit(n: int | None) -> float:
    """Chance that a d10 (0-9) is at or below n (RULES.md §1)."""
    if n is None:
        return 0.0
    return min(max(n + 1, 0), 10) / 10


def mean_severity(row_id: str) -> float:
    """Mean severity (none 0 .. kill 4) of a damage row over the ten rolls."""
    return sum(SEVERITY[r] for r in T.soldier_row[row_id]) / 10


def expected_harm(cls: str, distance: int) -> float:
    """Expected severity of one aimed shot with no modifiers."""
    return p_hit(T.to_hit[cls][T.band(distance)]) * mean_severity(T.weapons.classes[cls].damage)


# ------------------------------------------------------------------------------------------
# The shipped data
# ------------------------------------------------------------------------------------------
def test_shipped_tables_load_once():
    """docs/STYLE.md habit 3: tables are loaded once and shared (cached)."""
    assert load_tables() is load_tables()
    assert set(REQUIRED_CLASSES) <= set(T.to_hit)
    assert set(REQUIRED_ROWS) <= set(T.soldier_row)


def test_every_weapon_maps_to_a_class_with_a_damage_row():
    """RULES.md §8: each weapon belongs to a class; each class has its damage row."""
    for wid, w in T.weapons.weapons.items():
        c = T.weapons.classes[w.weapon_class]
        assert T.class_of[wid] == w.weapon_class
        assert len(T.soldier_row[c.damage]) == 10
        assert len(T.penetration_row[c.damage]) == 10


def test_required_weapons_exist():
    """RULES.md §4, seed 000: the US and German weapons the squad, cards and tanks use."""
    want = {
        "m1_garand",
        "m1_carbine",
        "thompson",
        "bar",
        "colt_45",
        "bazooka",
        "m1919",
        "kar98",
        "mp40",
        "mg42",
        "p38",
        "panzerfaust",
    }
    assert want <= set(T.weapons.weapons)
    assert {"tank_gun", "tank_mg"} <= {w.weapon_class for w in T.weapons.weapons.values()}
    for wid, w in T.weapons.weapons.items():
        if w.reload:
            assert T.weapons.items[w.reload].weapon == wid
    assert {"grenade", "satchel"} <= set(T.weapons.items)


def test_weapon_flags_follow_the_rules():
    """RULES.md §8: jams for automatic and crew weapons; bazookas must be prepared and never
    snap; bazookas, panzerfausts and tank guns are explosive (seed 002 p. 26); the tank cannon
    never jams (seed 000 p. 33)."""
    cl = T.weapons.classes
    for name, c in cl.items():
        if c.automatic or c.crew:
            assert c.jams, name
    assert not cl["tank_gun"].jams
    assert cl["bazooka"].needs_prepare and not cl["bazooka"].snap
    assert not cl["panzerfaust"].snap
    # (the d100 module's anti-tank gun fires shells like a tank gun, seed 003)
    assert {n for n, c in cl.items() if c.explosive} == {
        "bazooka",
        "panzerfaust",
        "tank_gun",
        "at_gun",
    }
    assert cl["hmg"].crew and cl["hmg"].needs_prepare


def test_fire_modifiers_as_ruled():
    """RULES.md §8: snap −2; standing +1 / crouching 0 / prone −2; large +2, small +1; wall +4;
    wounded −1; from a car −2; captured weapon −1."""
    m = T.mods
    assert m.snap == -2 and m.wall_target == 4 and m.wounded == -1 and m.from_car == -2
    assert m.captured_weapon == -1
    assert T.stance_mod == (1, 0, -2)
    assert (m.vehicle_size.small, m.vehicle_size.large) == (1, 2)


@pytest.mark.parametrize(
    "terrain,mp,cover",
    [
        ("clear", 1, 0),
        ("road", 1, 0),
        ("woods", 2, -2),
        ("brush", 2, -1),
        ("rubble", 3, -2),
        ("rough", 2, 0),
        ("building", 1, -2),
        ("river", None, 0),
        ("crater", 2, 0),
    ],
)
def test_terrain_costs_and_cover(terrain, mp, cover):
    """RULES.md §6: clear/road 1, brush/rough/woods/crater 2, rubble 3, building 1, river
    impassable; RULES.md §8: woods/rubble −2, brush −1, building −2."""
    assert T.terrain_mp[terrain] == mp == T.terrain_mp[int(Terrain[terrain.upper()])]
    assert T.cover[terrain] == cover == T.cover[Terrain[terrain.upper()]]


def test_movement_extras_and_walls():
    """RULES.md §6: up a level +1, embankment/crest +1, crouching +1, window +2;
    RULES.md §8: behind a wall −2 stone / −1 wood."""
    mv = T.terrain.movement
    assert (mv.up_level, mv.embankment, mv.crest, mv.crouching, mv.window) == (1, 1, 1, 1, 2)
    assert T.wall_cover == {"stone": -2, "wood": -1}


def test_wounded_and_wall_rules():
    """seed 002 p. 26-27: wounded MV 2, one port box; behind a wall 0 prone / 0-1 crouching /
    0-2 standing; destroyed walls hit as a semi-automatic rifle; two destroyed walls collapse;
    dragging kills on a 0."""
    d = T.damage
    assert (d.wounded.mv, d.wounded.port_boxes) == (2, 1)
    assert T.behind_hit[Stance.PRONE] == 0 and T.behind_hit[Stance.CROUCHING] == 1
    assert T.behind_hit[Stance.STANDING] == 2
    assert d.wall.destroyed_row == "semi_auto_rifle" and d.wall.collapse_walls == 2
    assert d.incapacitated.drag_kill == 0


# ------------------------------------------------------------------------------------------
# The tables make sense to a soldier (RULES.md §8)
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", sorted(T.to_hit))
def test_to_hit_never_rises_with_range(cls):
    """RULES.md §8: to-hit never rises with range (and once out of range, stays out)."""
    prev = 99
    for d in FAR:
        n = T.to_hit[cls][T.band(d)]
        n = -99 if n is None else n
        assert n <= prev, (cls, d)
        prev = n


@pytest.mark.parametrize("rifle", RIFLES)
def test_smg_beats_rifle_at_three_hexes(rifle):
    """RULES.md §8: a submachine gun beats a rifle at 3 hexes (and at 2)."""
    for d in (2, 3):
        assert T.to_hit["smg"][T.band(d)] > T.to_hit[rifle][T.band(d)]


@pytest.mark.parametrize("rifle", RIFLES)
def test_smg_loses_to_rifle_from_seven_hexes(rifle):
    """RULES.md §8: a submachine gun loses to a rifle at 7 hexes and beyond."""
    for d in range(7, 41):
        assert p_hit(T.to_hit["smg"][T.band(d)]) < p_hit(T.to_hit[rifle][T.band(d)]), d


@pytest.mark.parametrize("mg", MACHINE_GUNS)
@pytest.mark.parametrize("rifle", RIFLES)
def test_machine_gun_deadlier_than_rifle(mg, rifle):
    """RULES.md §8: a machine gun is deadlier than a rifle: at every range it hits at least
    as often, and the expected severity of a shot (P(hit) × mean damage) is higher."""
    assert mean_severity(T.weapons.classes[mg].damage) > mean_severity(
        T.weapons.classes[rifle].damage
    )
    for d in FAR:
        assert p_hit(T.to_hit[mg][T.band(d)]) >= p_hit(T.to_hit[rifle][T.band(d)])
        assert expected_harm(mg, d) > expected_harm(rifle, d), d


def test_damage_rows_grow_more_severe_with_the_roll():
    """seed 002 p. 26 (our convention): a higher damage roll is never milder."""
    for row_id, row in T.soldier_row.items():
        sev = [RESULTS.index(r) for r in row]
        assert sev == sorted(sev), row_id


def test_heavier_weapons_hurt_more():
    """RULES.md §8: pistol < rifle < machine gun < bazooka < tank gun in mean damage;
    a grenade is worse inside than outside, a satchel worse than a grenade."""
    order = ["pistol", "semi_auto_rifle", "lmg", "bazooka", "tank_gun"]
    sev = [mean_severity(r) for r in order]
    assert sev == sorted(sev) and len(set(sev)) == len(sev)
    assert mean_severity("grenade_inside") > mean_severity("grenade_outside")
    assert mean_severity("satchel_inside") > mean_severity("grenade_inside")
    assert mean_severity("satchel_outside") > mean_severity("grenade_outside")


def test_satchel_penetrates_heavily():
    """RULES.md §9: a satchel against a wall penetrates heavily."""
    assert set(T.penetration_row["satchel_inside"]) == {"heavy"}
    assert set(T.penetration_row["satchel_outside"]) == {"heavy"}


def test_small_arms_never_destroy_a_wall():
    """seed 002 p. 26 (our numbers): only explosives and satchels reach a heavy penetration."""
    for name, c in T.weapons.classes.items():
        if not c.explosive:
            assert "heavy" not in T.penetration_row[c.damage], name


# ------------------------------------------------------------------------------------------
# Broken files raise DataError naming the file and the field
# ------------------------------------------------------------------------------------------
@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    for f in ("weapons.yaml", "damage.yaml", "terrain.yaml"):
        shutil.copy(DATA_DIR / f, tmp_path / f)
    return tmp_path


def _edit(path: Path, fn) -> None:
    raw = yaml.safe_load(path.read_text())
    fn(raw)
    path.write_text(yaml.safe_dump(raw, sort_keys=False))


def test_copy_of_shipped_data_loads(data_copy):
    """docs/STYLE.md habit 3: a data directory can be given explicitly (not cached)."""
    t = load_tables(data_copy)
    assert t is not T and t.to_hit == T.to_hit


BROKEN = [
    # (id, file, edit, file named, field named, words in the problem)
    (
        "rising",
        "weapons.yaml",
        lambda r: r["classes"]["smg"]["to_hit"].__setitem__(3, 7),
        "weapons.yaml",
        "classes.smg.to_hit",
        "rises with range",
    ),
    (
        "short_row",
        "weapons.yaml",
        lambda r: r["classes"]["automatic_rifle"]["to_hit"].pop(),
        "weapons.yaml",
        "classes.automatic_rifle.to_hit",
        "range_bands has 7",
    ),
    (
        "null_inside",
        "weapons.yaml",
        lambda r: r["classes"]["pistol"].__setitem__("to_hit", [7, None, 4, 2, None, None, None]),
        "weapons.yaml",
        "classes.pistol.to_hit",
        "after a null",
    ),
    (
        "to_hit_range",
        "weapons.yaml",
        lambda r: r["classes"]["lmg"]["to_hit"].__setitem__(0, 12),
        "weapons.yaml",
        "classes.lmg.to_hit.0",
        "less than or equal to 9",
    ),
    (
        "unknown_class",
        "weapons.yaml",
        lambda r: r["weapons"]["mp40"].__setitem__("class", "ray_gun"),
        "weapons.yaml",
        "weapons.mp40.class",
        "ray_gun",
    ),
    (
        "missing_class",
        "weapons.yaml",
        lambda r: (
            r["classes"].pop("hmg") and r["weapons"].pop("m1919") and r["items"].pop("clip_m1919")
        ),
        "weapons.yaml",
        "classes.hmg",
        "missing",
    ),
    (
        "typo_field",
        "weapons.yaml",
        lambda r: r["classes"]["smg"].__setitem__("automatik", True),
        "weapons.yaml",
        "classes.smg.automatik",
        "Extra inputs",
    ),
    (
        "bad_reload",
        "weapons.yaml",
        lambda r: r["weapons"]["kar98"].__setitem__("reload", "clip_mp40"),
        "weapons.yaml",
        "weapons.kar98.reload",
        "not a clip for",
    ),
    (
        "crew_unprepared",
        "weapons.yaml",
        lambda r: r["classes"]["hmg"].__setitem__("needs_prepare", False),
        "weapons.yaml",
        "classes.hmg.needs_prepare",
        "crew weapon",
    ),
    (
        "band_order",
        "weapons.yaml",
        lambda r: r["range_bands"][3].__setitem__("max", 2),
        "weapons.yaml",
        "range_bands.3.max",
        "increase",
    ),
    (
        "row_length",
        "damage.yaml",
        lambda r: r["rows"]["pistol"]["soldier"].pop(),
        "damage.yaml",
        "rows.pistol.soldier",
        "needs 10 entries",
    ),
    (
        "row_order",
        "damage.yaml",
        lambda r: r["rows"]["lmg"]["soldier"].__setitem__(9, "panic"),
        "damage.yaml",
        "rows.lmg.soldier",
        "milder",
    ),
    (
        "bad_result",
        "damage.yaml",
        lambda r: r["rows"]["smg"]["soldier"].__setitem__(0, "scratch"),
        "damage.yaml",
        "rows.smg.soldier.0",
        "Input should be",
    ),
    (
        "missing_row",
        "damage.yaml",
        lambda r: r["rows"].pop("assault"),
        "damage.yaml",
        "rows.assault",
        "missing",
    ),
    (
        "no_penetration",
        "damage.yaml",
        lambda r: r["rows"]["smg"].__setitem__("penetration", None),
        "damage.yaml",
        "rows.smg.penetration",
        "needs a penetration row",
    ),
    (
        "destroyed_row",
        "damage.yaml",
        lambda r: r["wall"].__setitem__("destroyed_row", "musket"),
        "damage.yaml",
        "wall.destroyed_row",
        "musket",
    ),
    (
        "unknown_terrain",
        "terrain.yaml",
        lambda r: r["terrain"].__setitem__("swamp", {"mp": 3, "cover": 0, "sight": "none"}),
        "terrain.yaml",
        "terrain.swamp",
        "unknown terrain",
    ),
    (
        "missing_terrain",
        "terrain.yaml",
        lambda r: r["terrain"].pop("crater"),
        "terrain.yaml",
        "terrain.crater",
        "missing",
    ),
    (
        "positive_cover",
        "terrain.yaml",
        lambda r: r["terrain"]["woods"].__setitem__("cover", 2),
        "terrain.yaml",
        "terrain.woods.cover",
        "less than or equal to 0",
    ),
]


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_file_names_file_and_field(data_copy, case):
    """docs/STYLE.md habit 3: a bad file fails with its path and the field."""
    _, fname, edit, named, field, words = case
    _edit(data_copy / fname, edit)
    with pytest.raises(DataError) as e:
        load_tables(data_copy)
    assert e.value.path.endswith(named)
    assert e.value.field == field
    assert words in e.value.problem


def test_cross_file_damage_row_missing(data_copy):
    """RULES.md §8: a class's damage row must exist in damage.yaml (error in weapons.yaml)."""
    _edit(data_copy / "weapons.yaml", lambda r: r["classes"]["smg"].__setitem__("damage", "nerf"))
    with pytest.raises(DataError) as e:
        load_tables(data_copy)
    assert e.value.path.endswith("weapons.yaml") and e.value.field == "classes.smg.damage"


def test_missing_file_and_yaml_syntax(data_copy):
    """docs/STYLE.md habit 3: a missing file or a YAML syntax error names the file."""
    (data_copy / "terrain.yaml").write_text("terrain: [unclosed\n")
    with pytest.raises(DataError, match="terrain.yaml.*YAML syntax error"):
        load_tables(data_copy)
    (data_copy / "terrain.yaml").unlink()
    with pytest.raises(DataError, match="terrain.yaml: <file>: file not found"):
        load_tables(data_copy)
