"""The d100 vehicle-combat module (seed 003; RULES.md §13): its data file, steps 3-7, the
bullets, the hit-location tables, fires, and the seed's worked example. Positions with
``rules: d100`` on the Farm Assault map with forced dice on both sides of each threshold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ambush_env.core import Game
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import Status
from ambush_env.core.rules import d100 as D
from ambush_env.core.vehicles import vehicle_fire as VF
from ambush_env.core.world.d100_data import read_d100_data, shipped_d100_data
from ambush_env.core.world.data import data_path

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
FAR_US = {"name": "US8", "hex": "A1", "ar": "1-turn"}


def _game(
    units: list[dict],
    vehicles: list[dict],
    *,
    rules: str = "d100",
    turn: str = "US1",
    initiative: str = "us",
    german: str = "cards",
) -> Game:
    p: dict[str, Any] = {
        "mission": MISSION,
        "rules": rules,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": initiative,
        "turn": {"unit": turn},
        "units": units + [FAR_GERMAN, FAR_US],
        "vehicles": vehicles,
        "german": german,
    }
    return Game.from_position(p)


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


def _types(evs) -> list[str]:
    return [e["type"] if isinstance(e, dict) else e.to_dict()["type"] for e in evs]


def _dicts(g: Game) -> list[dict]:
    return [e.to_dict() for e in g.log]


def _of(g: Game, kind: str) -> list[dict]:
    return [e for e in _dicts(g) if e["type"] == kind]


def _tank(hex_: str = "E7", facing: str = "S", type_: str = "panzer_iv", **kw: Any) -> dict:
    return {"name": "V1", "type": type_, "side": "german", "hex": hex_, "facing": facing, **kw}


# ============================================================================ the data file
def test_shipped_tables_cover_1_to_100_and_quote_the_seed():
    d = shipped_d100_data()
    assert set(d.tables) == {"automobile", "motorcycle", "afv"}
    for rows in d.tables.values():
        covered = [x for r in rows for x in range(r.roll[0], r.roll[1] + 1)]
        assert covered == list(range(1, 101))
    assert d.location("afv", 52).component == "Coaxial Gun"
    assert d.location("automobile", 90).component == "Back Seat or Truck Bed"
    assert d.location("motorcycle", 65).text == "Roll on VEHICLE TROUBLE TABLE +10"


def _bad(tmp_path: Path, edit) -> Path:
    raw = yaml.safe_load(data_path("d100.yaml").read_text(encoding="utf-8"))
    edit(raw)
    p = tmp_path / "d100.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return p


def test_a_gap_in_a_table_names_file_and_row(tmp_path):
    def gap(raw):
        raw["tables"]["afv"][2]["roll"] = [16, 29]  # 15 left out

    with pytest.raises(DataError) as e:
        read_d100_data(_bad(tmp_path, gap))
    assert e.value.path.endswith("d100.yaml") and e.value.field == "tables.afv.2.roll"
    assert "gap" in e.value.problem


def test_an_overlap_in_a_table_names_file_and_row(tmp_path):
    def overlap(raw):
        raw["tables"]["automobile"][3]["roll"] = [14, 24]

    with pytest.raises(DataError) as e:
        read_d100_data(_bad(tmp_path, overlap))
    assert e.value.field == "tables.automobile.3.roll" and "overlap" in e.value.problem


def test_an_unknown_component_effect_names_file_and_row(tmp_path):
    def unknown(raw):
        raw["tables"]["afv"][9]["effect"] = "teleport"

    with pytest.raises(DataError) as e:
        read_d100_data(_bad(tmp_path, unknown))
    assert e.value.field == "tables.afv.9.effect" and "teleport" in e.value.problem


def test_fire_table_gap_is_refused(tmp_path):
    def gap(raw):
        raw["fire_table"][1]["roll"] = [7, 7]

    with pytest.raises(DataError) as e:
        read_d100_data(_bad(tmp_path, gap))
    assert e.value.field == "fire_table.1.roll"


def test_conversions_sanity():
    """⚙ conversions (d100.yaml): 10 % = 1 on the d10 toward zero; Luck 10 × PC + 15; a rifle
    cannot penetrate a tank's armour from any side, a tank gun can."""
    assert [D.percent_to_d10(x) for x in (-25, 10, -12, 0, 9)] == [-2, 1, -1, 0, 0]
    d = shipped_d100_data()
    for tank in ("panzer_iv", "sherman", "jagdpanther"):
        s = d.vehicles[tank]
        weakest = min([s.armour] + list(s.aspect_armour.values()))
        for cls in (
            "pistol",
            "bolt_rifle",
            "semi_auto_rifle",
            "smg",
            "automatic_rifle",
            "lmg",
            "hmg",
            "tank_mg",
        ):
            n, sides, add = _dice(d.weapons[cls].dice)
            assert n * sides + add <= weakest, (cls, tank)
        n, sides, add = _dice(d.weapons["tank_gun"].dice)
        assert n * sides + add > s.armour
    assert (
        d.occupant_levels["wound"] < d.occupant_levels["incapacitated"] < d.occupant_levels["kill"]
    )
    # Drive Auto from DS: DS 0 → 5 %, DS 9 → 95 % (never 100: a check can always fail)
    assert D.drive_auto(0) == 5 and D.drive_auto(9) == 95
    # MOVE units: a car's fast MPA 9-10 is the seed's MOVE 45-50 (its jeep/Kübelwagen example)
    assert 9 * d.move_units_per_mp == 45 and 10 * d.move_units_per_mp == 50
    # DEX = 3 × PC: PC 3-8 → DEX 9-24, a pole charge 45-120 % (PC 5: 75 %)
    from ambush_env.core.combat.d100_attacks import dex
    from ambush_env.core.model.state import Unit

    assert dex(Unit(uid=0, side=0, name="US1", role="private", PC=5)) == 15


def _dice(spec: str) -> tuple[int, int, int]:
    from ambush_env.core.world.d100_data import parse_dice

    return parse_dice(spec)


# ============================================================================ the worked example
def test_seed_003_worked_example_staff_car_luck():
    """Seed 003's example: five men in a car (here a staff car: a Kübelwagen holds four), the
    driver and four in the back; a German MP40 burst scores 2 hits (d100.yaml: smg hits 2);
    the hit location is the back seat; Jill makes her Luck roll, Jack misses by 11, John by 18
    and Jim by 7: exactly John and Jack are hurt."""
    # the seed's Joe (driving), Jack, John, Jill and Jim are the squad's US2..US6
    joe, names = "US2", ["US3", "US4", "US5", "US6"]
    jack, john, jill, jim = names
    units = [
        {"name": n, "hex": "E7", "ar": "complete", "vehicle": "V1", "PC": 5} for n in [joe] + names
    ]
    units += [
        {
            "name": "G1",
            "role": "nco_smg",
            "hex": "E9",
            "ar": "1-turn",
            "aware": True,
            "weapon": "mp40",
        },
        {"name": "US1", "hex": "A2", "ar": "1-turn"},
    ]
    car = {
        "name": "V1",
        "type": "staff_car",
        "side": "us",
        "captured": True,
        "hex": "E7",
        "facing": "S",
        "driver": joe,
        "passengers": names,
    }
    # german: agent, so that loading the position stops at G1's decision: his card would play
    # his turn (any row of the deck) before the one shot this test resolves
    g = _game(units, [car], turn="G1", initiative="german", german="agent")
    shooter = _unit(g, "G1")
    v = g.state.vehicles[0]
    n, _ = VF.to_hit(g, shooter, v, snap=False)
    hit = n // 5 + 1  # a hit that does not impale
    assert hit <= n
    luck = D.luck(_unit(g, jack))
    assert luck == 65
    # jam (no), hit, 2 × 1d10 damage, d100 location 90 (Back Seat), Luck in seat order
    g.force_rolls([0, hit, 8, 9, 90, luck + 11, luck + 18, luck - 20, luck + 7])
    evs = [e.to_dict() for e in VF.fire_at_vehicle(g, shooter, v, snap=False, aspect="side")]
    assert g.dice.forced_left == 0
    att = next(e for e in evs if e["type"] == "d100_attack")
    assert att["damage"] == [8, 9] and att["armour"] == 3 and att["penetrated"] == [5, 6]
    assert att["component"] == "Back Seat or Truck Bed"
    hurt = {e["unit"]: e for e in evs if e["type"] == "d100_occupant" and e["damage"] > 0}
    assert set(hurt) == {john, jack}
    assert hurt[john]["damage"] == 5 and hurt[jack]["damage"] == 6  # most missed: first hit
    assert _unit(g, john).wounded and _unit(g, jack).status == Status.INCAPACITATED
    lucky = [e for e in evs if e["type"] == "d100_occupant" and e["damage"] == 0]
    assert {e["unit"] for e in lucky} == {jill, jim}  # Jill made it; Jim missed by least
    for nm in (jill, jim, joe):
        u = _unit(g, nm)
        assert u.status == Status.ACTIVE and not u.wounded
    assert v.hp == 30 - 11 and not v.disabled


# ============================================================================ steps 3-7 on a tank
def _tank_game(rules: str = "d100", **tank: Any) -> Game:
    units = [
        {
            "name": "US1",
            "hex": "E9",
            "ar": "1-turn",
            "weapon": "bazooka",
            "prepared": True,
            "aware": True,
        }
    ]
    return _game(units, [_tank(**tank)], rules=rules)


def _bazooka(g: Game, rolls: list[int], aspect: str = "front") -> list[dict]:
    g.force_rolls(rolls)
    evs = VF.fire_at_vehicle(g, _unit(g, "US1"), g.state.vehicles[0], snap=False, aspect=aspect)
    assert g.dice.forced_left == 0
    return [e.to_dict() for e in evs]


def _no_impale_hit(g: Game) -> int:
    n, _ = VF.to_hit(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)
    assert n // 5 + 1 <= n
    return n // 5 + 1


@pytest.mark.parametrize("pen", [False, True])
def test_equal_damage_does_not_penetrate_more_does(pen):
    """Seed 003 steps 4-5: the bazooka's 6d6+6 against the Panzer IV's front 30: equal (30) is
    stopped ⚙, 31 penetrates and the location is rolled. Either way its damage shoots the
    front's armour away (hollow charge: cumulative, "permanently decreased by these attacks"),
    all 30 of it (⚙ never below 0)."""
    g = _tank_game()
    hit = _no_impale_hit(g)
    dice = [6, 6, 6, 4, 1, 1] if not pen else [6, 6, 6, 5, 1, 1]
    total = sum(dice) + 6
    assert total == (31 if pen else 30)
    rolls = [hit] + dice + ([60] if pen else [])  # Hull or Bed on 60
    evs = _bazooka(g, rolls)
    att = next(e for e in evs if e["type"] == "d100_attack")
    assert att["armour"] == 30 and att["damage"] == [total]
    assert att["penetrated"] == ([1] if pen else [])
    v = g.state.vehicles[0]
    if pen:
        assert att["component"] == "Hull or Bed" and v.hp == 79
    else:
        assert "component" not in att and v.hp == -1
    assert v.armour_loss == {"front": 30} and att["armour_loss"] == 30
    assert D.armour_value(v, "front") == 0 and D.armour_value(v, "rear") == 18


def test_cumulative_armour_then_penetration():
    """Seed 003: armour-piercing damage is cumulative: after a stopped 20 the front is 10."""
    g = _tank_game()
    hit = _no_impale_hit(g)
    _bazooka(g, [hit, 2, 2, 2, 2, 3, 3])  # 14 + 6 = 20 ≤ 30: shot away
    v = g.state.vehicles[0]
    assert D.armour_value(v, "front") == 10
    _unit(g, "US1").prepared, _unit(g, "US1").ammo = True, 1
    evs = _bazooka(g, [hit, 1, 1, 1, 1, 1, 1, 97])  # 12 > 10: through, Brakes
    att = next(e for e in evs if e["type"] == "d100_attack")
    assert att["armour"] == 10 and att["penetrated"] == [2] and att["component"] == "Brakes"
    assert D.armour_value(v, "front") == 0 and att["armour_loss"] == 10  # through: all of it


@pytest.mark.parametrize(
    "weapon,kind,damage,through",
    [
        ("kwk40", "ap_shell", [1] * 10, False),  # 10 ≤ 30: stopped, the front 20 after
        ("kwk40", "ap_shell", [4] * 10, True),  # 40 > 30: through, the front 0 after
        ("boys_at_rifle", "at_rifle", [6, 6, 6], False),  # 20 ≤ 30: not cumulative
        (
            "boys_at_rifle",
            "at_rifle",
            [6, 6, 6],
            True,
        ),  # impaling 6 × 6 + 2 = 38: through, not either
    ],
)
def test_armour_piercing_hits_lower_the_armour_through_or_not(weapon, kind, damage, through):
    """Seed 003: "Damage from armor-piercing shells (ie. tank guns, bazookas) is cumulative
    against the Armor value ... permanently decreased by these attacks" — every such attack,
    one that penetrates too; "Damage from anti-tank rifles is not cumulative ... The armor
    cannot be shot away" — stopped or through. After a shell through the Panzer IV's front, a
    rifle bullet (2d6+4 = 6) gets through there (6 > 0)."""
    g = _tank_game()
    v = g.state.vehicles[0]
    src = D.weapon_damage(g, weapon)
    assert src.kind == kind
    impale = kind == "at_rifle" and through
    g.force_rolls(damage + (damage if impale else []) + ([97] if through else []))
    D.attack(g, v, src, kind, impale=impale)
    assert g.dice.forced_left == 0
    att = _of(g, "d100_attack")[-1]
    assert bool(att["penetrated"]) is through
    if kind == "at_rifle":
        assert v.armour_loss == {} and "armour_loss" not in att
        return
    lost = 30 if through else 10
    assert v.armour_loss == {"front": lost} and D.armour_value(v, "front") == 30 - lost
    g.force_rolls([1, 1] + ([97] if through else []))
    D.attack(g, v, D.weapon_damage(g, "m1_garand"), "bolt_rifle")
    assert _of(g, "d100_attack")[-1]["penetrated"] == ([6] if through else [])


def test_rifle_bullets_never_cumulative_nor_impale_against_armour():
    """Seed 003: pistol and rifle ammunition cannot impale against armour and is not
    cumulative: a rifle's hit roll of 0 against the tank rolls its dice once."""
    units = [{"name": "US1", "hex": "E5", "ar": "1-turn", "weapon": "m1_garand", "aware": True}]
    g = _game(units, [_tank()])
    g.force_rolls([0, 6, 6])  # hit 0 (would impale a car), 2d6+4 = 16 ≤ 30
    evs = [
        e.to_dict()
        for e in VF.fire_at_vehicle(
            g, _unit(g, "US1"), g.state.vehicles[0], snap=False, aspect="front"
        )
    ]
    assert g.dice.forced_left == 0
    att = next(e for e in evs if e["type"] == "d100_attack")
    assert att["impale"] is False and att["damage"] == [16] and att["penetrated"] == []
    assert g.state.vehicles[0].armour_loss == {}


def test_tank_gun_impales_and_point_blank():
    """Seed 003: armour-piercing shells impale (the dice twice, the bonus once ⚙); point-blank
    (≤ 5 hexes ⚙) doubles a tank gun's chance: N → 2N + 1, at most 9; at 6 hexes no change; a
    number below 0 (no chance) stays; a rifle has none."""
    from ambush_env.core.rules.d100 import point_blank

    g = _tank_game()
    us1 = _unit(g, "US1")
    assert point_blank(g, us1, "kwk40", 5, 3) == 7 and point_blank(g, us1, "kwk40", 6, 3) == 3
    assert point_blank(g, us1, "kwk40", 1, 6) == 9  # at most 9
    assert point_blank(g, us1, "kwk40", 1, -1) == -1
    assert (
        point_blank(g, us1, "m1_garand", 1, 3) == 3 and point_blank(g, us1, "m1_garand", 0, 3) == 3
    )
    v = g.state.vehicles[0]
    src = D.weapon_damage(g, "kwk40")
    assert D.impales(g, src, v, 0, 4) and not D.impales(g, src, v, 1, 4)
    assert D.impales(g, src, v, 1, 5)
    g.force_rolls([6] * 20 + [60])  # 10d6 twice = 120 > 30
    D.attack(g, v, src, "tank_gun", impale=True)
    att = _of(g, "d100_attack")[-1]
    assert att["damage"] == [120] and att["impale"] is True and len(att["dice"][0]) == 20


def _sherman_at(hex_: str) -> Game:
    """T1's Sherman on ``hex_`` (row 1, clear) aims its cannon at the Panzer IV V1 on C1: two crew
    (WS 0), its Gun-Laying Equipment destroyed (−25 % → −2), 6 MPs driven this Round (moving
    fire −30 % → −3); the target large (+2). The tank gun's base is 6 at 4-6 hexes."""
    sherman = {
        "name": "V2",
        "type": "sherman",
        "side": "us",
        "hex": hex_,
        "facing": "N",
        "unit": "T1",
        "destroyed": ["Gun-Laying Equipment"],
        "crew": 2,
        "moved_mp": 6,
    }
    units = [
        {
            "name": "T1",
            "side": "us",
            "role": "tank",
            "hex": hex_,
            "ar": "1-turn",
            "vehicle": "V2",
            "aware": True,
        }
    ]
    return _game(units, [_tank("C1"), sherman], turn="T1")


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("hex_,n", [("H1", 7), ("I1", 3)])
def test_point_blank_doubles_the_whole_chance_to_hit(hex_, n, above):
    """Seed 003: "Point-blank range for tank guns ... is 100 yards or less [5 hexes ⚙]. At this
    range, the chance to hit is doubled" — the shot's chance, so the doubling comes after every
    other modifier: 6 + 2 − 2 − 3 = 3 hits on 4 faces of the d10; 5 hexes away (H1) on 8: 7,
    not the base doubled first (9 + 2 − 2 − 3 = 6); 6 hexes away (I1) it stays 3. A hit roll
    of n hits, n + 1 misses."""
    g = _sherman_at(hex_)
    t, v = _unit(g, "T1"), g.state.vehicles[0]
    assert g.board.distance(t.hex, v.hex) == (5 if hex_ == "H1" else 6)
    num, mods = VF.to_hit(g, t, v, snap=False, weapon="m3_75mm")
    assert num == n
    assert dict(mods) == {
        "vehicle_large": 2,
        "moving_fire": -3,
        "gun_laying": -2,
        **({"point_blank": 4} if hex_ == "H1" else {}),
    }
    assert mods[-1][0] == "point_blank" or hex_ == "I1"  # the last step
    g.force_rolls([n + 1] if above else [n] + [1] * 10)  # a hit: ten 1s, 10 ≤ 30 stopped
    evs = [
        e.to_dict()
        for e in VF.fire_at_vehicle(g, t, v, snap=False, weapon="m3_75mm", aspect="front")
    ]
    assert g.dice.forced_left == 0
    assert evs[0]["to_hit"] == n and evs[0]["result"] == ("miss" if above else "d100")


def _at_rifle_at(hex_: str) -> Game:
    """US1 (PC 5, WS −2, wounded −1) with the Boys AT rifle on ``hex_`` and a Kübelwagen (small
    +1) with its driver G1 on E7; the AT rifle's base is 6 in the same hex and at 1 hex."""
    units = [
        {
            "name": "US1",
            "hex": hex_,
            "ar": "1-turn",
            "aware": True,
            "PC": 5,
            "WS": -2,
            "status": "wounded",
            "weapon": "boys_at_rifle",
        },
        {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete", "vehicle": "V1"},
    ]
    car = {"name": "V1", "type": "kubelwagen", "side": "german", "hex": "E7", "driver": "G1"}
    return _game(units, [car])


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("hex_,n", [("E7", 5), ("E8", 2)])
def test_at_rifle_point_blank_is_the_shooters_dex_in_feet(hex_, n, above):
    """Seed 003: "Point-blank range for anti-tank rifles is the same as with other firearms
    (shooter's DEX in feet)": DEX ⚙ 3 × PC 5 = 15 ft, less than a hex (60 ft ⚙: 5 hexes to 100
    yards), so only in his own hex, where the chance doubles: 6 − 2 − 1 + 1 − 2 (a further −2
    given) = 2, doubled 5; from the next hex 2. A hit roll of n hits, n + 1 misses."""
    g = _at_rifle_at(hex_)
    u, v = _unit(g, "US1"), g.state.vehicles[0]
    assert D.point_blank_range(g, u, "boys_at_rifle") == 0
    assert (
        D.point_blank_range(g, u, "kwk40") == 5 and D.point_blank_range(g, u, "m1_garand") is None
    )
    num, mods = VF.to_hit(g, u, v, snap=False, mods_extra={"extra": -2})
    assert num == n and ("point_blank" in dict(mods)) is (hex_ == "E7")
    g.force_rolls([n + 1] if above else [n, 1, 1, 1, 50])  # 3d6+2 = 5 > 2: the Front Tire
    evs = [
        e.to_dict()
        for e in VF.fire_at_vehicle(g, u, v, snap=False, aspect="front", mods_extra={"extra": -2})
    ]
    assert g.dice.forced_left == 0
    assert evs[0]["to_hit"] == n and evs[0]["result"] == ("miss" if above else "d100")


def test_explosives_half_against_armoured_full_against_cars():
    """Seed 003: explosives do half damage against armoured vehicles (armour ≥ 15), not cars."""
    g = _tank_game()
    v = g.state.vehicles[0]
    src = shipped_d100_data().items["satchel"]
    g.force_rolls([6] * 8 + [60])  # 48 // 2 = 24 > side 22
    D.attack(g, v, src, "satchel", aspect="side")
    att = _of(g, "d100_attack")[-1]
    assert att["damage"] == [24] and att["armour"] == 22 and att["penetrated"] == [2]
    units = [{"name": "US1", "hex": "E4", "ar": "1-turn"}]
    g2 = _game(units, [{"name": "V1", "type": "kubelwagen", "side": "german", "hex": "E7"}])
    g2.force_rolls([6] * 8 + [97])
    D.attack(g2, g2.state.vehicles[0], src, "satchel", aspect="side")
    att2 = _of(g2, "d100_attack")[-1]
    assert att2["damage"] == [48] and att2["penetrated"] == [46]


def test_base_hp_zero_destroys_and_hurts_every_occupant():
    """Seed 003 steps 6-7: Base HP 25 of a jeep; at 0 it is destroyed and every occupant takes
    the damage minus the Armor value."""
    units = [
        {"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1"},
        {"name": "US2", "hex": "E7", "ar": "1-turn", "vehicle": "V1"},
    ]
    jeep = {
        "name": "V1",
        "type": "jeep",
        "side": "us",
        "hex": "E7",
        "driver": "US1",
        "passengers": ["US2"],
    }
    g = _game(units + [{"name": "G1", "role": "rifleman", "hex": "E3", "ar": "1-turn"}], [jeep])
    v = g.state.vehicles[0]
    src = shipped_d100_data().weapons["bolt_rifle"]
    g.force_rolls([6, 6, 2])  # 16 - 2 = 14 through; Headlamps (2 HP)
    D.attack(g, v, src, "bolt_rifle")
    assert v.hp == 11 and "Headlamps" in v.destroyed
    g.force_rolls([6, 6, 3])  # 14 more: HP 0; Suspension (10 HP): destroyed too
    effects = D.attack(g, v, src, "bolt_rifle")
    assert v.hp == 0 and ("disable", "bolt_rifle: Base HP 0") in effects
    assert _of(g, "d100_destroyed")
    hurt = [e for e in _of(g, "d100_occupant") if e["damage"] == 14]
    assert {e["unit"] for e in hurt} == {"US1", "US2"}


def test_magazine_explodes_the_tank():
    """Seed 003 AFV table 75-89: the magazine (10 HP): the vehicle explodes, 12d6 to all."""
    g = _tank_game()
    v = g.state.vehicles[0]
    src = shipped_d100_data().weapons["tank_gun"]
    g.force_rolls([6] * 10 + [80] + [6] * 60)
    effects = D.attack(g, v, src, "tank_gun")
    assert ("disable", "magazine explosion") in effects and ("crew", 0) in effects


def test_fire_table_each_round_and_countdown():
    """Seed 003 Vehicle Fire Table: a burning vehicle rolls each Round (a 0 reads 10:
    explosion); a fuel-tank countdown immobilises when it runs out."""
    g = _tank_game()
    v = g.state.vehicles[0]
    v.burning = True
    v.countdowns["stop"] = 1
    g.force_rolls([0] + [3, 3, 3, 3, 3] * 5)  # explosion: 1d6+2 + 3d6 per crewman
    out = D.tick(g)
    assert _of(g, "d100_fire")[-1]["result"] == "explosion"
    assert _of(g, "d100_countdown")[-1] == {
        "type": "d100_countdown",
        "vehicle": "V1",
        "what": "stop",
        "rounds": 0,
    }
    assert v.immobilised and ("disable", "fire: explosion") in out[0][1]


@pytest.mark.parametrize("mission", ["farm_assault", "jeep_run", "tank_hunt"])
def test_parity_with_standard_until_the_first_vehicle_attack(mission):
    """Issue 12 done-when 3: one list of orders, each legal under both rule sets, replayed on the
    same seeds under ``standard`` and ``d100``: the event streams are identical up to the first
    event seed 003 governs — an attack on a vehicle (any ``d100_*`` event, or the standard
    rules' ``fire_vehicle``, ``blast_vehicle``, ``mine_vehicle``, ``throw_into``) or fire from a
    moving vehicle (a ``fire`` event with a ``moving_fire`` modifier). Seed 003 step 1 ("highest
    DEX goes first") is RULES.md §5's Action Round order, unchanged: every initiative roll and
    turn before that point agrees. On some seed the streams differ at that event."""
    import random

    governed = {"fire_vehicle", "blast_vehicle", "mine_vehicle", "throw_into"}

    def first(evs: list[dict]) -> int:
        for i, e in enumerate(evs):
            if (
                e["type"] in governed
                or e["type"].startswith("d100_")
                or (e["type"] == "fire" and "moving_fire" in e.get("modifiers", {}))
            ):
                return i
        return len(evs)

    differed = 0
    for seed in range(10):
        a = Game(mission, seed=seed)
        b = Game(mission, seed=seed, rules="d100")
        rng = random.Random(seed)
        ea: list[dict] = []
        eb: list[dict] = []
        for _ in range(1500):
            if a.state.over or b.state.over:
                break
            both = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            act = both[rng.randrange(len(both))]
            ea += a.step(act)
            eb += b.step(act)
            if first(ea) < len(ea) or first(eb) < len(eb):
                break
        k = min(first(ea), first(eb))
        assert ea[:k] == eb[:k], seed
        if k < min(len(ea), len(eb)) and ea[k:] != eb[k:]:
            differed += 1
    assert differed >= 1


# ============================================================================ brakes, moving fire
def test_no_brakes_rolls_trouble_when_a_drive_ends():
    """Seed 003 Brakes ("must decelerate to stop") ⚙: with the Brakes destroyed, ending a drive
    rolls the Vehicle Trouble Table + 0 (a 9: skid, the car is being driven); intact brakes
    roll nothing."""
    from ambush_env.core.model import orders as O
    from ambush_env.core.model.orders import OrderKind as K

    for brakes_gone in (True, False):
        units = [{"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1", "aware": True}]
        jeep = {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "E7",
            "facing": "S",
            "driver": "US1",
            "destroyed": ["Brakes"] if brakes_gone else [],
        }
        g = _game(units, [jeep])
        drive = next(a for a in g.legal_actions() if O.decode(a)[0] == K.DRIVE)
        g.step(drive)
        end = O.ORDER_BASE[K.END_DRIVE]
        assert end in g.legal_actions()
        g.force_rolls([3])
        evs = g.step(end)
        trouble = [e for e in evs if e["type"] == "d100_trouble"]
        if brakes_gone:
            assert trouble == [
                {
                    "type": "d100_trouble",
                    "vehicle": "V1",
                    "roll": 3,
                    "bonus": 0,
                    "result": "none",
                    "why": "no brakes",
                }
            ]
        else:
            assert trouble == []


@pytest.mark.parametrize(
    "own,other,expect", [(0, 0, 0), (2, 0, -1), (1, 0, 0), (4, 4, 0), (6, 2, -2)]
)
def test_moving_fire_modifier(own, other, expect):
    """Seed 003 FIREARM COMBAT: −1 % per MOVE unit of speed difference (5 MOVE units per MP ⚙),
    on the d10 toward zero: 2 MPs faster → −10 % → −1; 1 MP → −5 % → 0."""
    from ambush_env.core.world.d100_data import moving_fire_mod_of

    units = [{"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1"}]
    vs = [
        {"name": "V1", "type": "jeep", "side": "us", "hex": "E7", "driver": "US1", "moved_mp": own},
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "E9", "moved_mp": other},
    ]
    g = _game(units, vs)
    assert moving_fire_mod_of(g.state.vehicles, _unit(g, "US1"), g.state.vehicles[1]) == expect
    assert moving_fire_mod_of(g.state.vehicles, _unit(g, "US8"), g.state.vehicles[1]) == 0


def test_a_position_keeps_the_d100_state():
    """The d100 vehicle state round-trips through a position (docs/API.md positions)."""
    veh = _tank(
        hp=41,
        armour_loss={"front": 7},
        component_damage={"Engine": 4},
        destroyed=["Radio"],
        burning=True,
        countdowns={"overheat": 5},
        mpa_quarters=3,
        hull_crew=1,
        moved_mp=2,
    )
    g = _game([{"name": "US1", "hex": "E9", "ar": "1-turn"}], [veh])
    p = g.position()
    v2 = Game.from_position(p).state.vehicles[0]
    v = g.state.vehicles[0]
    for k in (
        "hp",
        "armour_loss",
        "component_damage",
        "destroyed",
        "burning",
        "countdowns",
        "mpa_quarters",
        "hull_crew",
        "moved_mp",
    ):
        assert getattr(v2, k) == getattr(v, k), k
    assert D.armour_value(v, "front") == 23 and D.hp_left(v) == 41
    plain = _game([{"name": "US1", "hex": "E9", "ar": "1-turn"}], [_tank()]).position()
    assert "hp" not in plain["vehicles"][0]  # undamaged: no d100 keys written


@pytest.mark.parametrize("mission", ["tank_hunt", "jeep_run"])
def test_env_checkers_pass_under_d100(mission):
    """Issue 12 done-when 3: the Gymnasium env and the two-sided AEC env under rules=d100."""
    from gymnasium.utils.env_checker import check_env

    from ambush_env.env.ambush_env import AmbushEnv

    check_env(AmbushEnv(mission=mission, rules="d100"))
    pz = pytest.importorskip("pettingzoo.test")
    from ambush_env.env.aec_env import aec_env

    pz.api_test(
        aec_env(mission=mission, rules="d100", german="agent", max_steps=300),
        num_cycles=100,
        verbose_progress=False,
    )


# ============================================================================ every table row
def _row_game(vtype_: str) -> Game:
    """A vehicle of ``vtype_`` on E7 with a driver and, for a car, passengers in every seat."""
    from ambush_env.core.world.vehicle_data import shipped_vehicle_data

    t = shipped_vehicle_data().vehicles[vtype_]
    units = [{"name": "US1", "hex": "E4", "ar": "1-turn"}]
    veh: dict[str, Any] = {
        "name": "V1",
        "type": vtype_,
        "side": "german",
        "hex": "E7",
        "facing": "S",
    }
    if t.kind == "car":
        crew = [f"G{k}" for k in range(1, t.occupants + 1)]
        units += [
            {
                "name": n,
                "role": "rifleman",
                "hex": "E7",
                "ar": "complete",
                "vehicle": "V1",
                "DS": 9 if n == "G1" else 0,
            }
            for n in crew
        ]  # a driver of Drive Auto 95 %
        veh["driver"], veh["passengers"] = crew[0], crew[1:]
    return _game(units, [veh])


#: per effect: the extra dice after the location roll, and a check of the exact outcome
_EXTRA = {
    "fuel_tank": [35],
    "engine": [21],
    "overheat": [2, 2, 2, 2],
    "tire": [1],
    "driver": [0],
    "steering": [0],
    "turret": [],
    "hull": [],
    "driver_take_wheel": [50, 0],  # G2 (DS 0: Drive Auto 5 % - 20 %) fails, then Trouble
    "back_seat": [100, 1],
}  # Luck: the first passenger misses, the second makes it


def _check(g: Game, v, row) -> None:
    comp = [e for e in _dicts(g) if e["type"] == "d100_component"]
    eff = row.effect
    if eff in ("driver", "front_passenger", "back_seat"):
        hurt = [e["unit"] for e in _dicts(g) if e["type"] == "d100_occupant"]
        front = D.stats(v).front_seats
        seats = {
            "driver": [v.driver],
            "front_passenger": v.passengers[:front],
            "back_seat": v.passengers[front:],
        }[eff]
        names = [g.state.units[i].name for i in seats]
        hit = [e["unit"] for e in _dicts(g) if e["type"] == "d100_occupant" and e["damage"] > 0]
        assert hit == names[:1] and set(hurt) == set(names)  # one hit: the unlucky first
        if eff == "driver":  # killed: the take-the-wheel check first, where the row has it
            wheel = [e["result"] for e in _dicts(g) if e["type"] == "d100_take_wheel"]
            assert wheel == (["failed"] if row.take_wheel else [])
            bonus = row.take_wheel.trouble if row.take_wheel else row.trouble
            assert [e["bonus"] for e in _dicts(g) if e["type"] == "d100_trouble"] == [bonus]
        return
    if eff in ("turret", "hull"):
        assert v.crew == 0 and v.disabled  # 30 through: every crewman killed, the hull half too
        return
    assert row.component in v.destroyed and comp[-1]["component"] == row.component
    res = comp[-1]["result"]
    expect = {
        "headlamps": lambda: res == "no headlamps (daylight: no effect)",
        "mov": lambda: v.mpa_quarters == int(4 * row.factor),
        "fuel_tank": lambda: v.burning and res == "on fire",
        "engine": lambda: v.immobilised and res == "immobilised",
        "overheat": lambda: v.countdowns == {"overheat": 12} and not v.immobilised,
        "tire": lambda: v.mpa_quarters == int(4 * row.factor),  # Drive Auto passed on 1
        "weapon": lambda: row.mount in v.lost and (row.mount != "cannon" or not v.cannon_loaded),
        "magazine": lambda: v.disabled and v.crew == 0,
        "gun_laying": lambda: res == "main gun -25%",
        "radio": lambda: res == "destroyed",
        "brakes": lambda: res == "destroyed",
        "steering": lambda: (
            [e["why"] for e in _dicts(g) if e["type"] == "d100_trouble"] == ["Steering"]
        ),
    }[eff]
    assert expect(), (row.component, res)


@pytest.mark.parametrize(
    "table,vtype_",
    [("automobile", "kubelwagen"), ("afv", "panzer_iv"), ("motorcycle", "motorcycle")],
)
def test_every_hit_location_row_and_its_effect(table, vtype_):
    """Seed 003's three hit-location tables, row by row: the row's first roll names its
    component and carries out its "effect if destroyed" (forced dice: enough damage through to
    destroy any component, never the vehicle ⚙)."""
    from ambush_env.core.vehicles.vehicles import apply_d100
    from ambush_env.core.world.d100_data import WeaponDamage

    for row in shipped_d100_data().tables[table]:
        g = _row_game(vtype_)
        v = g.state.vehicles[0]
        car = vtype_ != "panzer_iv"
        # 18 through a car's 2, 16 through a motorcycle's 0 (its Base HP 18), 30 through a tank
        src = WeaponDamage(
            dice={"kubelwagen": "1d10+10", "motorcycle": "1d10+6"}.get(vtype_, "1d20+40"),
            kind="bullet",
        )
        top = 10 if car else 20
        key = "driver_take_wheel" if row.effect == "driver" and row.take_wheel else row.effect
        extra = list(_EXTRA.get(key, []))
        if row.effect == "magazine":
            extra = [6] * 12 * v.crew
        if row.effect == "back_seat" and len(v.passengers) - D.stats(v).front_seats < 2:
            extra = []  # one man in the back (a sidecar): one hit, no Luck rolls
        g.force_rolls([top, row.roll[0]] + extra)
        apply_d100(g, v, D.attack(g, v, src, "test"))
        assert g.dice.forced_left == 0, row
        att = _of(g, "d100_attack")[-1]
        assert att["component"] == row.component, row
        assert not v.disabled or row.effect in ("magazine", "turret", "hull"), row
        _check(g, v, row)


def test_explosives_never_impale_and_point_blank_and_gun_laying_in_the_to_hit():
    """Seed 003: "explosives and explosive shells cannot impale"; point-blank doubling and a
    destroyed Gun-Laying Equipment (−25 % → −2) appear among a tank gun's to-hit modifiers."""
    g = _tank_game()
    v = g.state.vehicles[0]
    assert not D.impales(g, D.data().items["satchel"], v, 0, 9)
    sherman = {
        "name": "V2",
        "type": "sherman",
        "side": "us",
        "hex": "E9",
        "facing": "N",
        "unit": "T1",
        "destroyed": ["Gun-Laying Equipment"],
    }
    units = [
        {
            "name": "T1",
            "side": "us",
            "role": "tank",
            "hex": "E9",
            "ar": "1-turn",
            "vehicle": "V2",
            "aware": True,
        }
    ]
    p: dict[str, Any] = {
        "mission": MISSION,
        "rules": "d100",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": "T1"},
        "units": units + [FAR_GERMAN, FAR_US],
        "vehicles": [_tank(), sherman],
    }
    g2 = Game.from_position(p)
    tank_unit = _unit(g2, "T1")
    n, mods = VF.to_hit(g2, tank_unit, g2.state.vehicles[0], snap=False, weapon="m3_75mm")
    mods = dict(mods)
    before = n - mods["point_blank"]  # the whole number before the doubling, gun-laying in
    assert n == min(9, 2 * before + 1) and mods["gun_laying"] == -2
    g3 = _tank_game(rules="standard")
    _, std = VF.to_hit(g3, _unit(g3, "US1"), g3.state.vehicles[0], snap=False)
    assert "point_blank" not in dict(std)


def test_moving_fire_at_a_soldier_from_a_moving_jeep():
    """Seed 003 FIREARM COMBAT: the moving-fire modifier applies to every shot from a moving
    vehicle, at soldiers too (a jeep that drove 4 MPs: −20 % → −2); none under standard rules."""
    from ambush_env.core.rules.fire import to_hit

    for rules, expect in (("d100", -2), ("standard", None)):
        units = [
            {"name": "US1", "hex": "E8", "ar": "1-turn", "vehicle": "V1", "aware": True},
            {"name": "US2", "hex": "E8", "ar": "1-turn", "vehicle": "V1", "aware": True},
            {"name": "G1", "role": "rifleman", "hex": "E5", "ar": "complete"},
        ]
        jeep = {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "E8",
            "driver": "US1",
            "passengers": ["US2"],
            **({"moved_mp": 4} if rules == "d100" else {}),
        }
        g = _game(units, [jeep], rules=rules)
        _, mods = to_hit(g, _unit(g, "US2"), _unit(g, "G1"), snap=False)
        assert dict(mods).get("moving_fire") == expect


@pytest.mark.parametrize(
    "d10,result,inoperable,explodes",
    [
        (1, "minor_fire", False, False),
        (5, "minor_fire", False, False),
        (6, "minor_engine_fire", True, False),
        (7, "minor_engine_fire", True, False),
        (8, "major_engine_fire", True, False),
        (9, "major_engine_fire", True, False),
        (0, "explosion", True, True),
    ],
)
def test_vehicle_fire_table_rows(d10, result, inoperable, explodes):
    """Seed 003 Vehicle Fire Table, each row (the d10's 0 reads 10 ⚙): a jeep's two riders take
    the row's damage (minus the Armor value 2 for the minor fires); engine fires make it
    inoperable (immobilised); an explosion destroys it."""
    from ambush_env.core.vehicles.vehicles import apply_d100

    units = [
        {"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1"},
        {"name": "US2", "hex": "E7", "ar": "1-turn", "vehicle": "V1"},
    ]
    jeep = {
        "name": "V1",
        "type": "jeep",
        "side": "us",
        "hex": "E7",
        "driver": "US1",
        "passengers": ["US2"],
        "burning": True,
    }
    g = _game(units + [{"name": "G1", "role": "rifleman", "hex": "E3", "ar": "1-turn"}], [jeep])
    v = g.state.vehicles[0]
    per_man = [4] + ([3, 3, 3] if explodes else [])  # 1d6 (+2), + 3d6 concussion
    g.force_rolls([d10] + per_man * 2)
    for vv, eff in D.tick(g):
        apply_d100(g, vv, eff)
    assert g.dice.forced_left == 0
    fire = _of(g, "d100_fire")[-1]
    assert fire["result"] == result and fire["roll"] == (10 if d10 == 0 else d10)
    dmg = {e["unit"]: e["damage"] for e in _of(g, "d100_occupant")}
    want = {
        "minor_fire": 4 - 2,
        "minor_engine_fire": 4 - 2,
        "major_engine_fire": 4 + 2,
        "explosion": 4 + 2 + 9,
    }[result]
    assert dmg == {"US1": want, "US2": want}
    assert v.disabled is explodes and (explodes or v.immobilised is inoperable)


@pytest.mark.parametrize(
    "d10,bonus,driving,result",
    [
        (5, 0, True, "none"),
        (6, 0, True, "stop"),
        (8, 0, True, "stop"),
        (9, 0, True, "skid"),
        (7, 4, True, "skid"),
        (9, 4, True, "shot_tyre"),
        (4, 10, True, "overturn"),
        (9, 0, False, "stop"),
        (4, 10, False, "stop"),
    ],
)
def test_vehicle_trouble_table_rows(d10, bonus, driving, result):
    """The Vehicle Trouble Table ⚙ (d100.yaml: trouble_table), each row: d10 + bonus; a vehicle
    not being driven cannot skid or overturn (stop)."""
    units = [{"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1"}]
    jeep = {"name": "V1", "type": "jeep", "side": "us", "hex": "E7", "driver": "US1"}
    g = _game(units, [jeep])
    if driving:
        g.state.turn.mode = "drive"
    g.force_rolls([d10])
    out = D.trouble(g, g.state.vehicles[0], bonus, "test")
    assert _of(g, "d100_trouble")[-1]["result"] == result
    assert out == ([] if result == "none" else [("accident", result)])


def test_collision_table_rows():
    """The Vehicle Collision Table ⚙: dice by the rammer's size and MPs driven."""
    d = shipped_d100_data()
    assert [d.collision(mp, "small") for mp in (1, 2, 3, 5, 7, 20)] == [
        "2d6",
        "2d6",
        "3d6",
        "4d6",
        "6d6",
        "6d6",
    ]
    assert [d.collision(mp, "large") for mp in (1, 4, 6, 9)] == ["4d6", "6d6", "8d6", "10d6"]


def test_headlamps_cost_drive_auto_only_at_night():
    """Seed 003 Headlamps: "driving in darkness, −10 % to all Drive Auto rolls": at night (a
    mission with a sight cap) once they are destroyed; by day nothing."""
    from ambush_env.core.world.missions import load_mission

    units = [{"name": "US1", "hex": "E7", "ar": "1-turn", "vehicle": "V1", "DS": 5}]
    jeep = {
        "name": "V1",
        "type": "jeep",
        "side": "us",
        "hex": "E7",
        "driver": "US1",
        "destroyed": ["Headlamps"],
    }
    day = _game(units, [jeep])
    assert D.vehicle_drive_auto(day, day.state.vehicles[0], 5) == 55
    raw = load_mission(MISSION).model_dump(mode="json", by_alias=True)
    raw["rules"]["sight_cap"] = 3
    p = {
        "mission": raw,
        "rules": "d100",
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": "US1"},
        "units": units + [FAR_GERMAN, FAR_US],
        "vehicles": [jeep],
    }
    night = Game.from_position(p)
    assert D.vehicle_drive_auto(night, night.state.vehicles[0], 5) == 45
    night.state.vehicles[0].destroyed.clear()
    assert D.vehicle_drive_auto(night, night.state.vehicles[0], 5) == 55


def test_a_magazine_hit_that_also_ends_the_base_hp_destroys_once():
    """Step 7 and the magazine together: one destruction, the 12d6 once per crewman."""
    from ambush_env.core.world.d100_data import WeaponDamage

    g = _tank_game()
    v = g.state.vehicles[0]
    g.force_rolls([100, 80] + [1] * 12 * 5)  # 100 + 20 - 30 = 90 through ≥ 80 HP; Magazine
    effects = D.attack(g, v, WeaponDamage(dice="1d100+20", kind="ap_shell"), "test")
    assert g.dice.forced_left == 0
    assert len(_of(g, "d100_destroyed")) == 1 and [e for e in effects if e[0] == "disable"] == [
        ("disable", "magazine explosion")
    ]


@pytest.mark.parametrize(
    "edit,field",
    [
        (lambda r: r["weapons"].pop("smg"), "weapons"),
        (lambda r: r["damage_kinds"].pop("collision"), "damage_kinds.collision"),
        (lambda r: r.__setitem__("collision_table", []), "collision_table"),
        (lambda r: r["luck"].pop("base"), "luck.base"),
        (lambda r: r["occupant_levels"].pop("kill"), "occupant_levels.kill"),
        (
            lambda r: r["tables"]["automobile"][1].__setitem__("factor", 0.1),
            "tables.automobile.1.factor",
        ),
        (lambda r: r["weapons"]["smg"].__setitem__("dice", "2d6-10"), "weapons.smg.dice"),
        (lambda r: r["point_blank_classes"].append("catapult"), "point_blank_classes.2"),
        (lambda r: r["point_blank_dex_classes"].append("sling"), "point_blank_dex_classes.1"),
        (lambda r: r.__setitem__("feet_per_hex", 0), "feet_per_hex"),
        (lambda r: r["tables"]["afv"][0].__setitem__("roll", [0, 4]), "tables.afv.0.roll"),
        (
            lambda r: r["tables"]["automobile"][0].__setitem__(
                "take_wheel", {"percent": -20, "trouble": 10}
            ),
            "tables.automobile.0.take_wheel",
        ),
        (
            lambda r: r["tables"]["automobile"][7]["take_wheel"].pop("trouble"),
            "tables.automobile.7.take_wheel.trouble",
        ),
    ],
)
def test_a_bad_d100_file_names_the_field(tmp_path, edit, field):
    """Issue 12 done-when 5, and every other bad edit the engine would trip on later: a
    DataError naming d100.yaml and the field at load."""
    with pytest.raises(DataError) as e:
        read_d100_data(_bad(tmp_path, edit))
    assert e.value.path.endswith("d100.yaml") and e.value.field == field, e.value


@pytest.mark.parametrize(
    "key,value,field",
    [
        ("destroyed", ["Flux Capacitor"], "vehicles.0.destroyed.0"),
        ("destroyed", ["Main Gun"], "vehicles.0.destroyed.0"),
        ("component_damage", {"Wings": 3}, "vehicles.0.component_damage.Wings"),
        ("hp", 500, "vehicles.0.hp"),
        ("hp", 0, "vehicles.0.hp"),
        ("countdowns", {"stop": -3}, "vehicles.0.countdowns.stop"),
        ("fire_dice", "2d", "vehicles.0.fire_dice"),
    ],
)
def test_bad_d100_vehicle_keys_in_a_position(key, value, field):
    with pytest.raises(DataError) as e:
        _game([{"name": "US1", "hex": "E9", "ar": "1-turn"}], [_tank(**{key: value})])
    assert e.value.field == field, e.value


def test_d100_vehicle_keys_need_d100_rules():
    with pytest.raises(DataError) as e:
        _game(
            [{"name": "US1", "hex": "E9", "ar": "1-turn"}], [_tank(burning=True)], rules="standard"
        )
    assert e.value.field == "vehicles.0.burning" and "d100" in e.value.problem
