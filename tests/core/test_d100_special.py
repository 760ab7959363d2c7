"""Seed 003's special attacks and anti-tank weapons under ``rules: d100`` (RULES.md §13; module
``d100_attacks``): satchel, sticky grenade and pole charge under a vehicle or into its treads,
the Molotov and the flamethrower, anti-tank guns and rifles, the grenade inside, mines, the
called shot and ramming — positions with forced dice on both sides of each threshold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Status
from ambush_env.core.rules import d100 as D

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
FAR_US = {"name": "US8", "hex": "A1", "ar": "1-turn"}
B = O.ORDER_BASE


def _game(
    units: list[dict], vehicles: list[dict], *, rules: str = "d100", turn: str = "US1"
) -> Game:
    p: dict[str, Any] = {
        "mission": MISSION,
        "rules": rules,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "turn": {"unit": turn},
        "units": units + [FAR_GERMAN, FAR_US],
        "vehicles": vehicles,
    }
    return Game.from_position(p)


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


def _tank(hex_: str = "E7", **kw: Any) -> dict:
    return {"name": "V1", "type": "panzer_iv", "side": "german", "hex": hex_, "facing": "S", **kw}


def _soldier(hex_: str = "E8", **kw: Any) -> dict:
    return {"name": "US1", "hex": hex_, "ar": "1-turn", "aware": True, "PC": 5, **kw}


def _of(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


def _play(g: Game, order: int, rolls: list[int]) -> list[dict]:
    assert order in g.legal_actions(), g.describe_action(order)
    g.force_rolls(rolls)
    return g.step(order)


def _charge(kind: K, vid: int, charge: str) -> int:
    return B[kind] + vid * len(O.CHARGES) + O.CHARGES.index(charge)


# ============================================================================ d100 only
def test_d100_gear_under_standard_rules_is_a_data_error():
    """Issue 12: weapons that exist only in seed 003 are a DataError under standard rules,
    naming the field; under d100 the same position loads."""
    with pytest.raises(DataError) as e:
        _game([_soldier(equipment=["grenade", "sticky_grenade"])], [_tank()], rules="standard")
    assert e.value.field == "units.0.equipment.1" and "d100" in e.value.problem
    with pytest.raises(DataError) as e:
        _game([_soldier(weapon="m2_flamethrower")], [_tank()], rules="standard")
    assert e.value.field == "units.0.weapon"
    _game([_soldier(weapon="m2_flamethrower", equipment=["molotov"])], [_tank()])


def test_d100_gear_in_a_standard_squad_file_is_a_data_error(tmp_path: Path):
    from ambush_env.core.rules.ctx import _standard_gear
    from ambush_env.core.world.squads import load_squad
    from ambush_env.core.world.tables import load_tables

    p = tmp_path / "antitank.yaml"
    p.write_text(
        "id: antitank\nsoldiers:\n  - {name: US1, role: sergeant, IN: 3, PC: 6, WS: 1,"
        " DS: 3, MV: 5, CR: 2, weapon: boys_at_rifle, equipment: [grenade]}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError) as e:
        _standard_gear(load_squad(p), load_tables())
    assert e.value.field == "soldiers.0.weapon" and "boys_at_rifle" in e.value.problem


def test_special_orders_only_under_d100():
    """The special-attack orders are never legal under standard rules (the layout is the same)."""
    units = [_soldier(equipment=["satchel", "molotov", "sticky_grenade"], satchel_ready=True)]
    std = _game([_soldier(equipment=["satchel"], satchel_ready=True)], [_tank()], rules="standard")
    assert not [a for a in std.legal_actions() if O.decode(a)[0].value >= K.CHARGE_UNDER]
    g = _game(units, [_tank()])
    kinds = {O.decode(a)[0] for a in g.legal_actions()}
    assert {K.CHARGE_UNDER, K.CHARGE_TREADS, K.MOLOTOV} <= kinds
    under = _charge(K.CHARGE_UNDER, 0, "satchel")
    assert g.describe_action(under) == "US1 set a satchel under V1 (Panzer IV, E7)"
    assert g.parse_order(g.describe_action(under)) == under


# ============================================================================ charges
def test_satchel_under_halves_the_armour():
    """Seed 003 Satchel Charges: under the vehicle its Armor value is halved (⚙ the belly: the
    least of the Panzer IV's 30/22/18, so 9; the explosive's half damage still applies): from
    the next hex, point-blank, no called-shot penalty: PC 5 succeeds on 5."""
    g = _game([_soldier(equipment=["satchel"], satchel_ready=True)], [_tank()])
    evs = _play(g, _charge(K.CHARGE_UNDER, 0, "satchel"), [5] + [2] * 8 + [97])
    sp = _of(evs, "d100_special")[0]
    assert sp["need"] == 5 and sp["success"] and sp["attack"] == "charge_under"
    att = _of(evs, "d100_attack")[0]
    assert att["armour"] == 9 and att["damage"] == [8] and att["penetrated"] == []
    assert g.state.vehicles[0].armour_loss == {}  # nothing shot away from below
    assert "satchel" not in _unit(g, "US1").equipment


def test_satchel_called_throw_beyond_point_blank_and_a_miss_bursts_in_the_hex():
    """Seed 003: "a Called Shot at everything but point-blank range": at 2 hexes the PC check is
    at −2 (PC 5 → 3): a 4 misses and the charge bursts in the tank's hex (RULES.md §9)."""
    g = _game([_soldier("E9", equipment=["satchel"], satchel_ready=True)], [_tank()])
    evs = _play(g, _charge(K.CHARGE_UNDER, 0, "satchel"), [4] + [1] * 8)
    sp = _of(evs, "d100_special")[0]
    assert sp["need"] == 3 and not sp["success"]
    att = _of(evs, "d100_attack")[0]
    assert att["source"] == "satchel" and att["armour"] == 22  # the side, not halved: beside it


def test_sticky_grenade_plus_ten_percent_into_the_treads():
    """Seed 003 "Sticky" Grenades: +10 % (+1) against treads; into the treads: the effect of
    rolling Tread (Drive Auto −20 %: passed → MOV ¼ less; failed → Vehicle Trouble +4)."""
    for drive_roll, passed in ((20, True), (90, False)):
        g = _game([_soldier("E9", equipment=["sticky_grenade"])], [_tank()])
        rolls = [4, drive_roll] + ([] if passed else [3])
        evs = _play(g, _charge(K.CHARGE_TREADS, 0, "sticky_grenade"), rolls)
        sp = _of(evs, "d100_special")[0]
        assert sp["need"] == 5 - 2 + 1 and sp["success"]  # called −2, sticky +1
        comp = _of(evs, "d100_component")[0]
        assert comp["component"] == "Tread" and comp["rolls"]["drive_auto"] == drive_roll
        v = g.state.vehicles[0]
        if passed:  # the crew's Drive Auto: DS 4 → 45 % − 20 % = 25 %
            assert comp["result"] == "MPA x 3/4" and v.mpa_quarters == 3
        else:
            assert _of(evs, "d100_trouble")[0]["bonus"] == 4 and v.mpa_quarters == 4


def test_pole_charge_dex_times_five():
    """Seed 003 Pole Charge: a hand-to-hand attack with DEX × 5 (DEX ⚙ = 3 × PC: PC 5 → 75 %):
    76 fails (nothing happens), 75 succeeds (under the vehicle: armour halved)."""
    for roll, ok in ((76, False), (75, True)):
        g = _game([_soldier(equipment=["pole_charge"])], [_tank()])
        rolls = [roll] + ([6] * 8 + [97] if ok else [])  # 97: Brakes (6 HP)
        evs = _play(g, _charge(K.CHARGE_UNDER, 0, "pole_charge"), rolls)
        sp = _of(evs, "d100_special")[0]
        assert sp["need"] == 75 and sp["success"] is ok
        atts = _of(evs, "d100_attack")
        assert (atts[0]["armour"], atts[0]["damage"]) == (9, [24]) if ok else atts == []


# ============================================================================ fire
def test_molotov_luck_sets_fire_then_the_fire_must_beat_the_armour():
    """Seed 003 Molotov Cocktails: on a Luck roll (PC 5 → 65 %) the vehicle catches fire (a
    missed roll sets nothing alight); each Round after, the fire's 2d6+2 must beat the Armor
    value before the Vehicle Fire Table is rolled: on a tank (30) it only burns on the hull, on
    a Kübelwagen (2) a 1 on the Fire Table is a minor fire."""
    kubel = {"name": "V1", "type": "kubelwagen", "side": "german", "hex": "E7"}
    for veh, luck, burns in ((kubel, 65, True), (kubel, 66, False), (_tank(), 10, True)):
        g = _game([_soldier(equipment=["molotov"])], [veh])
        evs = _play(g, B[K.MOLOTOV], [5, luck])
        ig = _of(evs, "d100_ignite")[0]
        v = g.state.vehicles[0]
        assert ig["need"] == 65 and v.burning is burns
        if burns:
            assert v.fire_dice == "2d6+2"
            g.force_rolls([6, 6] + ([] if v.type == "panzer_iv" else [1]))
            D.tick(g)
            fire = [e.to_dict() for e in g.log if e.type == "d100_fire"][-1]
            assert fire["result"] == (
                "burns on the hull (14 <= 30)" if v.type == "panzer_iv" else "minor_fire"
            )


def test_flamethrower_sets_fire_no_hit_location():
    """Seed 003 Flamethrowers: a hit, then Luck; no hit-location roll."""
    g = _game(
        [
            _soldier(weapon="m2_flamethrower"),
            {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete", "vehicle": "V1"},
        ],
        [
            {
                "name": "V1",
                "type": "kubelwagen",
                "side": "german",
                "hex": "E7",
                "facing": "N",
                "driver": "G1",
            }
        ],
    )
    aimed = B[K.FIRE_AIMED_VEHICLE] + 0 * 3 + O.ASPECTS.index("rear")
    assert aimed in g.legal_actions()
    evs = _play(g, aimed, [0, 10, 3, 3])  # hit, Luck 10, 2d6+4 = 10 > 2
    assert _of(evs, "d100_ignite")[0]["result"] == "on fire" and not _of(evs, "d100_attack")
    assert g.state.vehicles[0].burning


# ============================================================================ AT weapons
def test_at_rifle_impales_but_is_not_cumulative():
    """Seed 003: a large-calibre AT rifle impales against armour; its damage is not cumulative
    (the armour is not shot away)."""
    g = _game([_soldier(weapon="boys_at_rifle")], [_tank()])
    v = g.state.vehicles[0]
    src = D.weapon_damage(g, "boys_at_rifle")
    assert src.kind == "at_rifle" and D.impales(g, src, v, 0, 6)
    g.force_rolls([6, 6, 6])
    D.attack(g, v, src, "at_rifle")  # 20 ≤ 30
    assert v.armour_loss == {}


def test_at_gun_standard_damage_and_cumulative():
    """Seed 003 Anti-Tank Guns: standard (not halved) damage against armour, cumulative."""
    g = _game([_soldier()], [_tank()])
    v = g.state.vehicles[0]
    src = D.weapon_damage(g, "m3_37mm")
    assert src.kind == "ap_shell"
    g.force_rolls([1] * 6)
    D.attack(g, v, src, "at_gun")  # 6 + 4 = 10 ≤ 30: shot away
    assert v.armour_loss == {"front": 10}


def test_grenade_inside_doubles_and_ignores_armour():
    """Seed 003 Hand Grenades: a grenade lobbed inside: damage × 2, no armour in the way."""
    g = _game([_soldier()], [_tank()])
    v = g.state.vehicles[0]
    g.force_rolls([1, 1, 1, 2])  # 4d6 = 5, × 2 in an armoured vehicle: 10 to every crewman
    out = D.inside_blast(g, v, D.data().items["grenade"], "grenade inside")
    atts = [e.to_dict() for e in g.log if e.type == "d100_attack"]
    assert atts[-1]["damage"] == [10] and atts[-1]["armour"] == 0 and v.hp == 80 - 10
    assert len([e for e in g.log if e.type == "d100_occupant"]) == 5 and out == [("crew", 0)]


def test_anti_tank_mine_under_d100_halves_the_armour():
    """Seed 003 + seed 000 p. 32 ⚙: a mine is a charge under the vehicle: armour halved; the
    seed-000 effect stays (RULES.md §13): the Sherman is immobilised whatever the charge does."""
    from ambush_env.core.vehicles.vehicles import vehicle_mines

    g = _game([_soldier()], [{"name": "V1", "type": "sherman", "side": "us", "hex": "E7"}])
    g.state.at_minefields.append(g.board.index("E7"))
    g.force_rolls([1] * 10)
    vehicle_mines(g, g.state.vehicles[0])
    assert g.dice.forced_left == 0
    atts = [e.to_dict() for e in g.log if e.type == "d100_attack"]
    # 10d6 of ones = 10, an explosive halved against an armoured vehicle: 5 ≤ 9 (the belly,
    # the Sherman's least Armor value 18, halved)
    assert atts[-1]["armour"] == 9 and atts[-1]["damage"] == [5] and atts[-1]["penetrated"] == []
    assert g.state.vehicles[0].immobilised and not g.state.vehicles[0].disabled


# ============================================================================ called shots
def test_called_shot_at_a_car_driver():
    """Seed 003 Called Shot: −20 % (−2) to hit; the location is the driver, no roll; the driver
    is exposed (no armour); then Vehicle Trouble +5."""
    units = [
        _soldier("E9", weapon="m1_garand"),
        {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete", "vehicle": "V1"},
    ]
    car = {"name": "V1", "type": "kubelwagen", "side": "german", "hex": "E7", "driver": "G1"}
    g = _game(units, [car])
    called = B[K.FIRE_CALLED] + 0 * len(O.CALLED) + O.CALLED.index("driver")
    assert called in g.legal_actions()
    evs = _play(g, called, [2, 3, 3, 4])  # hit 2, 2d6+4 = 10, trouble 4 (+5 = 9: skid → stop)
    fv = _of(evs, "fire_vehicle")[0]
    assert fv["modifiers"]["called_shot"] == -2
    att = _of(evs, "d100_attack")[0]
    assert att["armour"] == 0 and att["component"] == "Driver" and "location_roll" not in att
    assert _unit(g, "G1").status == Status.INCAPACITATED  # 10 damage: 6-11
    # nobody else aboard to take the wheel (seed 003): the Trouble roll is +10
    assert _of(evs, "d100_take_wheel") == [
        {"type": "d100_take_wheel", "vehicle": "V1", "unit": "", "result": "nobody to take it"}
    ]
    assert _of(evs, "d100_trouble")[0]["bonus"] == 10


def _driver_and_passenger(**g2: Any) -> Game:
    """US1 (M1 Garand, E9) aims at the driver G1 of a Kübelwagen on E7, G2 (DS 3) beside him."""
    units = [
        _soldier("E9", weapon="m1_garand"),
        {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete", "vehicle": "V1"},
        {
            "name": "G2",
            "role": "rifleman",
            "hex": "E7",
            "ar": "complete",
            "vehicle": "V1",
            "DS": 3,
            **g2,
        },
    ]
    car = {
        "name": "V1",
        "type": "kubelwagen",
        "side": "german",
        "hex": "E7",
        "driver": "G1",
        "passengers": ["G2"],
    }
    return _game(units, [car])


@pytest.mark.parametrize("roll,took", [(15, True), (16, False)])
def test_someone_takes_the_wheel_before_the_trouble_roll(roll, took):
    """Seed 003, hit-location table (automobile), Driver: "Roll on VEHICLE TROUBLE TABLE +5
    Someone must take the wheel in this round (DEX check + Drive Auto -20%) or roll on the
    VEHICLE TROUBLE TABLE +10"; RULES.md §13: the check comes before the Trouble roll. G1 is
    killed (2d6+4 = 12); G2's Drive Auto 35 % (DS 3) - 20 % = 15: a d100 of 15 takes the wheel
    (he is the driver, the dead G1 in his seat; Trouble + 5), 16 does not (Trouble + 10)."""
    g = _driver_and_passenger()
    called = B[K.FIRE_CALLED] + O.CALLED.index("driver")
    evs = _play(g, called, [2, 4, 4, roll, 0])  # hit, damage 12, take the wheel, Trouble 0
    assert g.dice.forced_left == 0
    assert _unit(g, "G1").status == Status.KILLED
    wheel = _of(evs, "d100_take_wheel")
    assert wheel == [
        {
            "type": "d100_take_wheel",
            "vehicle": "V1",
            "unit": "G2",
            "result": "took the wheel" if took else "failed",
            "roll": roll,
            "need": 15,
        }
    ]
    types = [e["type"] for e in evs]
    assert types.index("d100_take_wheel") < types.index("d100_trouble")
    trouble = _of(evs, "d100_trouble")[0]
    assert trouble["bonus"] == (5 if took else 10)
    # 0 + 5: none; 0 + 10: a skid, read as a stop for a car nobody is driving now
    assert trouble["result"] == ("none" if took else "stop")
    v = g.state.vehicles[0]
    g1, g2 = _unit(g, "G1").uid, _unit(g, "G2").uid
    assert (v.driver, v.passengers) == ((g2, [g1]) if took else (g1, [g2]))


def test_the_take_the_wheel_roll_is_labelled():
    """RULES.md §13: the check is its own labelled d100 roll (seed 003 "DEX check + Drive Auto
    -20%"), made by the rider, after the driver's damage and before the Trouble roll."""
    g = _driver_and_passenger()
    v = g.state.vehicles[0]
    g.dice.log = []
    g.force_rolls([15, 0])  # 6 damage on an exposed driver: incapacitated; 15: G2 takes it
    D.attack(
        g,
        v,
        D.weapon_damage(g, "m1_garand"),
        "bolt_rifle",
        armour=0,
        rolled=6,
        location=D.row_of(v, "driver"),
    )
    labels = [why for why, _ in g.dice.log]
    assert labels == ["G2 takes the wheel of V1 (Drive Auto -20%)", "V1 vehicle trouble"]


@pytest.mark.parametrize("g2,why", [({"status": "panicked"}, "panicked"), ({"DS": 0}, None)])
def test_who_can_take_the_wheel(g2, why):
    """⚙ RULES.md §13: the rider who tries is active, not panicked and may drive the car: a
    panicked G2 does not try (nobody: Trouble + 10); a DS 0 one does, at 5 % - 20 %, and fails
    on any roll."""
    g = _driver_and_passenger(**g2)
    called = B[K.FIRE_CALLED] + O.CALLED.index("driver")
    rolls = [2, 4, 4] + ([] if why else [1]) + [0]
    evs = _play(g, called, rolls)
    assert g.dice.forced_left == 0
    wheel = _of(evs, "d100_take_wheel")[0]
    assert wheel["result"] == ("nobody to take it" if why else "failed")
    assert _of(evs, "d100_trouble")[0]["bonus"] == 10


@pytest.mark.parametrize("damage,check", [(5, False), (6, True)])
def test_a_driver_who_keeps_going_needs_nobody_at_the_wheel(damage, check):
    """Seed 003: the take-the-wheel check is for a driver put out: 5 damage wounds G1 (he drives
    on: Trouble + 5, no check); 6 incapacitates him (``occupant_levels``): G2 tries first."""
    g = _driver_and_passenger()
    v = g.state.vehicles[0]
    g.force_rolls(([15] if check else []) + [0])
    D.attack(
        g,
        v,
        D.weapon_damage(g, "m1_garand"),
        "bolt_rifle",
        armour=0,
        rolled=damage,
        location=D.row_of(v, "driver"),
    )
    assert g.dice.forced_left == 0
    evs = [e.to_dict() for e in g.log]
    assert [e["result"] for e in _of(evs, "d100_take_wheel")] == (
        ["took the wheel"] if check else []
    )
    assert _of(evs, "d100_trouble")[0]["bonus"] == 5


@pytest.mark.parametrize("roll,took", [(15, True), (16, False)])
def test_a_turret_crewman_takes_a_tanks_wheel(roll, took):
    """Seed 003, hit-location table (AFV), Hull or Bed: "If driver dead, roll on VEHICLE
    TROUBLE TABLE +5 Someone must take the wheel ... or +10". 10 through the hull puts both
    hull crewmen out, the turret's three take 5 (wounds: kept); one of them tries at the
    Drive Auto of a crew of 3 (DS 3: 35 %) - 20 % = 15 and, passing, moves to the hull."""
    g = _game([_soldier()], [_tank()])
    v = g.state.vehicles[0]
    g.force_rolls([roll, 0])
    out = D.attack(
        g,
        v,
        D.weapon_damage(g, "kwk40"),
        "tank_gun",
        armour=0,
        rolled=10,
        location=D.row_of(v, "hull"),
    )
    assert g.dice.forced_left == 0
    evs = [e.to_dict() for e in g.log]
    assert _of(evs, "d100_take_wheel") == [
        {
            "type": "d100_take_wheel",
            "vehicle": "V1",
            "unit": "crew",
            "result": "took the wheel" if took else "failed",
            "roll": roll,
            "need": 15,
        }
    ]
    assert _of(evs, "d100_trouble")[0]["bonus"] == (5 if took else 10)
    assert ("crew", 3) in out and v.hull_crew == (1 if took else 0)


def test_no_called_shot_at_a_tank_driver():
    g = _game([_soldier("E9", weapon="m1_garand")], [_tank()])
    called = B[K.FIRE_CALLED] + O.CALLED.index("driver")
    assert called not in g.legal_actions()
    assert B[K.FIRE_CALLED] + O.CALLED.index("running_gear") in g.legal_actions()


# ============================================================================ ramming
def _ram_game(**jeep: Any) -> Game:
    units = [
        _soldier("E8", vehicle="V1", DS=5),
        {"name": "G1", "role": "rifleman", "hex": "E7", "ar": "complete", "vehicle": "V2"},
    ]
    vs = [
        {
            "name": "V1",
            "type": "jeep",
            "side": "us",
            "hex": "E8",
            "facing": "N",
            "driver": "US1",
            **jeep,
        },
        {
            "name": "V2",
            "type": "kubelwagen",
            "side": "german",
            "hex": "E7",
            "facing": "S",
            "driver": "G1",
        },
    ]
    return _game(units, vs)


def test_ram_success_damages_both():
    """Seed 003 RAMMING: Drive Auto (DS 5 → 55 %) succeeds on 55: the target takes the Vehicle
    Collision Table's damage (⚙ small rammer, 2 MPs: 2d6), the rammer a quarter."""
    g = _ram_game()
    evs = _play(g, B[K.RAM] + 1, [55, 6, 6, 97, 98])
    sp = _of(evs, "d100_special")[0]
    assert sp["need"] == 55 and sp["success"]
    att = _of(evs, "d100_attack")
    assert att[0]["vehicle"] == "V2" and att[0]["damage"] == [12] and att[0]["penetrated"] == [10]
    # the rammer: a quarter of the same 12 (3 > its Armor value 2: 1 through, on its Brakes)
    assert att[1]["vehicle"] == "V1" and att[1]["damage"] == [3] and att[1]["penetrated"] == [1]


def test_ram_failed_rolls_the_rammers_drive_auto():
    """A failed ram: the rammer's Drive Auto −15 % (40 %) or Vehicle Trouble."""
    g = _ram_game()
    evs = _play(g, B[K.RAM] + 1, [56, 41, 2])
    checks = _of(evs, "d100_special")
    assert not checks[0]["success"] and checks[1]["need"] == 40 and not checks[1]["success"]
    assert _of(evs, "d100_trouble")[0]["vehicle"] == "V1"


def test_run_off_the_road():
    """A successful ram to run the other car off the road: no damage; its driver's Drive Auto
    −20 % (a rifleman's DS 0 → 5 − 20 < 0: fails) → Vehicle Trouble."""
    g = _ram_game()
    evs = _play(g, B[K.RAM_OFF_ROAD] + 1, [10, 1, 5])
    assert not _of(evs, "d100_attack")
    assert _of(evs, "d100_trouble")[0]["vehicle"] == "V2"


def test_no_ramming_under_standard_rules_or_from_afar():
    g = _ram_game()
    assert B[K.RAM] + 1 in g.legal_actions()
    units = [_soldier("E9", vehicle="V1")]
    vs = [
        {"name": "V1", "type": "jeep", "side": "us", "hex": "E9", "driver": "US1"},
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "E7"},
    ]
    assert B[K.RAM] + 1 not in _game(units, vs).legal_actions()


def test_satchel_and_pole_charge_into_the_treads():
    """Seed 003: a satchel "hurled into the treads" and a pole charge laid in them: the Tread
    effect (the crew's Drive Auto 45 % − 20 %: 25 passes → MOV ¼ less)."""
    for charge, rolls in (("satchel", [5, 25]), ("pole_charge", [75, 25])):
        eq = {"equipment": [charge], "satchel_ready": charge == "satchel"}
        g = _game([_soldier(**eq)], [_tank()])
        evs = _play(g, _charge(K.CHARGE_TREADS, 0, charge), rolls)
        assert _of(evs, "d100_special")[0]["success"]
        assert _of(evs, "d100_component")[0]["component"] == "Tread"
        assert g.state.vehicles[0].mpa_quarters == 3


def test_called_shot_at_a_tread_must_beat_the_armour():
    """Seed 003 Called Shot: "must still penetrate the armor ... unless the target is exposed":
    a tank's tread is not exposed: a rifle's 16 against the rear 18 does nothing; a car's tyres
    are (no armour)."""
    g = _game([_soldier("E9", weapon="m1_garand")], [_tank(facing="N")])  # E9: its rear
    called = B[K.FIRE_CALLED] + O.CALLED.index("running_gear")
    evs = _play(g, called, [0 + 1, 6, 6])
    att = _of(evs, "d100_attack")[0]
    assert att["armour"] == 18 and att["penetrated"] == [] and "component" not in att


def test_a_tank_rams():
    """Seed 003 RAMMING "(or Operate Heavy Machinery for tanks)" ⚙ the same skill from the
    crew's DS (5 crew: DS 5 → 55 %); the Move Crew Points are paid as for a drive."""
    units = [
        {
            "name": "T1",
            "side": "us",
            "role": "tank",
            "hex": "E8",
            "ar": "1-turn",
            "vehicle": "V1",
            "aware": True,
        }
    ]
    vs = [
        {"name": "V1", "type": "sherman", "side": "us", "hex": "E8", "facing": "N", "unit": "T1"},
        {"name": "V2", "type": "kubelwagen", "side": "german", "hex": "E7", "facing": "S"},
    ]
    g = _game(units, vs, turn="T1")
    ram = B[K.RAM] + 1
    assert ram in g.legal_actions()
    evs = _play(g, ram, [55, 1, 1, 1, 1, 97])  # 4d6 = 4 (large, 2 MPs): 2 through; rammer 1
    assert g.dice.forced_left == 0
    assert _of(evs, "d100_special")[0]["need"] == 55
    att = _of(evs, "d100_attack")
    assert [(a["vehicle"], a["damage"], a["penetrated"]) for a in att] == [
        ("V2", [4], [2]),
        ("V1", [1], []),
    ]
    assert [e["task"] for e in _of(evs, "tank_task")] == ["move_slow"]  # the drive's Crew Points


def test_grenade_into_an_open_tank_through_the_order():
    """Seed 003 Hand Grenades through the GRENADE_INTO order: × 2 inside, every crewman hit."""
    g = _game([_soldier(equipment=["grenade"])], [_tank()])
    into = B[K.GRENADE_INTO] + 0
    assert into in g.legal_actions()
    evs = _play(g, into, [0, 3, 3, 3, 3])  # the throw (PC check), 4d6 = 12 × 2 = 24: all killed
    assert _of(evs, "d100_attack")[0]["damage"] == [24]
    assert g.state.vehicles[0].crew == 0 and g.state.vehicles[0].disabled


def test_at_gun_through_an_order_and_point_blank():
    """Seed 003 Anti-Tank Guns fired by a two-man crew: point-blank doubling applies to them
    ("tank guns, anti-tank guns, and artillery"), and their shells are armour-piercing. US1
    (WS −2) at the Panzer IV (large +2), 2 hexes: 6 − 2 + 2 = 6, doubled: 9 (+3)."""
    from ambush_env.core.vehicles import vehicle_fire as VF

    units = [
        _soldier("E9", weapon="m3_37mm", prepared=True, ammo=1, WS=-2),
        {"name": "US2", "hex": "E9", "ar": "1-turn", "aware": True},
    ]
    g = _game(units, [_tank()])
    legal = [a for a in g.legal_actions() if O.decode(a)[0] == K.FIRE_AIMED_VEHICLE]
    assert len(legal) == 1
    n, mods = VF.to_hit(g, _unit(g, "US1"), g.state.vehicles[0], snap=False)
    assert n == 9 and dict(mods)["point_blank"] == 3
    evs = _play(g, legal[0], [0, n // 5 + 1] + [6] * 6 + [97])  # no jam; a hit, no impale
    assert _of(evs, "fire_vehicle")[0]["to_hit"] == n
    att = _of(evs, "d100_attack")[0]
    assert att["source"] == "at_gun" and att["kind"] == "ap_shell" and att["damage"] == [40]
