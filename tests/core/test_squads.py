"""The US squad file (RULES.md §4): the shipped standard squad and the squad schema."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest
import yaml

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.world.squads import SQUADS_DIR, Squad, list_squads, load_squad


def _raw() -> dict:
    return yaml.safe_load((SQUADS_DIR / "standard.yaml").read_text(encoding="utf-8"))


def _broken(tmp_path: Path, mutate, stem: str = "standard") -> Path:
    raw = copy.deepcopy(_raw())
    mutate(raw)
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


def test_standard_squad_is_rules_4():
    """RULES.md §4: 8 soldiers — a sergeant (CR 2), a corporal (CR 1), six privates (CR 0);
    rifles, 1-2 submachine guns, a BAR; grenades and satchel charges."""
    assert "standard" in list_squads()
    squad = load_squad("standard")
    assert [s.name for s in squad.soldiers] == [f"US{i}" for i in range(1, 9)]
    roles = Counter(s.role for s in squad.soldiers)
    assert roles == {"sergeant": 1, "corporal": 1, "private": 6}
    cr = {s.role: s.CR for s in squad.soldiers}
    assert cr == {"sergeant": 2, "corporal": 1, "private": 0}
    weapons = Counter(s.weapon for s in squad.soldiers)
    assert weapons["bar"] == 1
    assert 1 <= weapons["thompson"] <= 2
    assert weapons["m1_garand"] >= 4
    items = Counter(i for s in squad.soldiers for i in s.equipment)
    assert items["grenade"] >= 8
    assert 1 <= items["satchel"] <= 2
    for s in squad.soldiers:
        assert (
            0 <= s.IN <= 4
            and 3 <= s.PC <= 8
            and -2 <= s.WS <= 2
            and 0 <= s.DS <= 9
            and 4 <= s.MV <= 5
        )
        assert s.is_commander == (s.role != "private")


def test_every_spare_clip_fits_its_carrier():
    """A spare clip is for the weapon its carrier uses (no stray ammunition)."""
    for s in load_squad("standard").soldiers:
        for item in s.equipment:
            if item.startswith("clip_"):
                assert item == f"clip_{s.weapon}", s.name


def test_load_squad_is_cached_and_round_trips():
    squad = load_squad("standard")
    assert load_squad("standard") is squad
    assert Squad.model_validate(squad.model_dump()) == squad


@pytest.mark.parametrize(
    ("mutate", "field", "problem"),
    [
        pytest.param(
            lambda r: r["soldiers"][3].__setitem__("PC", 9),
            "soldiers.3.PC",
            "less than or equal to 8",
            id="PC-out-of-range",
        ),
        pytest.param(
            lambda r: r["soldiers"][2].__setitem__("IN", -1),
            "soldiers.2.IN",
            "greater than or equal to 0",
            id="IN-out-of-range",
        ),
        pytest.param(
            lambda r: r["soldiers"][4].__setitem__("MV", 6),
            "soldiers.4.MV",
            "less than or equal to 5",
            id="MV-out-of-range",
        ),
        pytest.param(
            lambda r: r["soldiers"][5].__setitem__("CR", 1),
            "soldiers.5.CR",
            "a private has CR 0",
            id="private-with-CR",
        ),
        pytest.param(
            lambda r: r["soldiers"][1].__setitem__("CR", 0),
            "soldiers.1.CR",
            "CR 1-3",
            id="corporal-without-CR",
        ),
        pytest.param(
            lambda r: r["soldiers"][1].__setitem__("role", "sergeant"),
            "soldiers.1.role",
            "exactly one sergeant",
            id="two-sergeants",
        ),
        pytest.param(
            lambda r: r["soldiers"][1].__setitem__("role", "major"),
            "soldiers.1.role",
            "sergeant",
            id="unknown-role",
        ),
        pytest.param(
            lambda r: r["soldiers"][6].__setitem__("name", "US9"),
            "soldiers.6.name",
            "must be named US7",
            id="name-out-of-order",
        ),
        pytest.param(
            lambda r: r["soldiers"][0].__setitem__("weapon", "laser"),
            "soldiers.0.weapon",
            "unknown weapon",
            id="unknown-weapon",
        ),
        pytest.param(
            lambda r: r["soldiers"][0]["equipment"].__setitem__(0, "clip_laser"),
            "soldiers.0.equipment.0",
            "unknown item",
            id="unknown-clip",
        ),
        pytest.param(
            lambda r: r["soldiers"][0]["equipment"].__setitem__(0, "binoculars"),
            "soldiers.0.equipment.0",
            "should match pattern",
            id="not-an-item",
        ),
        pytest.param(
            lambda r: r["soldiers"][0].__setitem__("equipment", ["grenade"] * 5),
            "soldiers.0.equipment",
            "5 items in 4 port boxes",
            id="too-many-items",
        ),
        pytest.param(
            lambda r: r["soldiers"][0].__setitem__("equipment", ["satchel", "satchel", "grenade"]),
            "soldiers.0.equipment",
            "5 port boxes filled",
            id="satchels-fill-two-boxes",
        ),
        pytest.param(
            lambda r: r["soldiers"].extend(copy.deepcopy(r["soldiers"][2:7])),
            "soldiers",
            "at most 12",
            id="too-many-soldiers",
        ),
        pytest.param(lambda r: r.__setitem__("id", "rangers"), "id", "file stem", id="id-not-stem"),
        pytest.param(
            lambda r: r.__setitem__("morale", 3), "morale", "Extra inputs", id="unknown-key"
        ),
    ],
)
def test_malformed_squad_names_file_and_field(tmp_path, mutate, field, problem):
    """RULES.md §4 + docs/STYLE.md habit 3: a bad squad file fails with its path and the field."""
    path = _broken(tmp_path, mutate)
    with pytest.raises(DataError) as exc:
        load_squad(path)
    assert exc.value.path == str(path)
    assert exc.value.field == field
    assert problem in exc.value.problem


def test_unknown_squad_lists_the_known_ones():
    with pytest.raises(ScenarioError, match="standard"):
        load_squad("airborne")
