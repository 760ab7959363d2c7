"""Rule numbers live in data (docs/STYLE.md habit 3): each number below is changed in a copy of its
data file, loaded through the same loader, installed on a game, and the rule follows it.

The game of :func:`engine_helpers.fresh_game` is shared by the tests of a process, so the
changed data is installed with ``monkeypatch`` (undone after each test).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from engine_helpers import add_german, clear_board, force, fresh_game, give_turn, put, rounds
from test_fire import _house

from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Vehicle
from ambush_env.core.model.types import ARSpace, Direction, Phase, Stance
from ambush_env.core.play import sequence
from ambush_env.core.rules.fire import SURFACES, fire_at_wall, penetrates
from ambush_env.core.vehicles import vehicles
from ambush_env.core.world import vehicle_data
from ambush_env.core.world.data import data_path, list_data, load_data, read_yaml
from ambush_env.core.world.missions import list_missions, load_mission, reference_mission
from ambush_env.core.world.rules_data import RulesData, load_rules_data
from ambush_env.core.world.tables import PENETRATION_LEVELS, load_tables

Change = Callable[[dict[str, Any]], None]


# ---------------------------------------------------------------------------- helpers
def changed_copy(tmp_path: Path, name: str, change: Change) -> Path:
    """Write ``tmp_path/<name>``: the shipped data file ``name`` with ``change`` applied."""
    raw = read_yaml(data_path(name))
    change(raw)
    out = tmp_path / name
    out.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return out


def install_rules(monkeypatch, tmp_path: Path, g, change: Change) -> None:
    """Load a changed ``rules.yaml`` with :func:`load_rules_data` and make it ``g.rd``."""
    monkeypatch.setattr(g, "rd", load_rules_data(changed_copy(tmp_path, "rules.yaml", change)))


def install_vehicle_data(monkeypatch, tmp_path: Path, change: Change) -> None:
    """Load a changed ``vehicles.yaml`` with :func:`load_vehicle_data` and make it the data the
    vehicle rules read."""
    data = vehicle_data.load_vehicle_data(changed_copy(tmp_path, "vehicles.yaml", change))
    monkeypatch.setattr(vehicles, "_shipped", lambda: data)


def changed_tables(tmp_path: Path, change: Change):
    """:func:`load_tables` of a data folder whose ``damage.yaml`` has ``change`` applied."""
    for name in ("weapons.yaml", "terrain.yaml"):
        (tmp_path / name).write_text(data_path(name).read_text(encoding="utf-8"), encoding="utf-8")
    changed_copy(tmp_path, "damage.yaml", change)
    return load_tables(tmp_path)


def _set(*keys: str, value: Any) -> Change:
    def change(raw: dict[str, Any]) -> None:
        d = raw
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value

    return change


def enc(kind, arg=0):
    return O.encode(kind, arg)


def _rounds_unit(g, label):
    """US1 acting in a Round at ``label``; US2 still holds a 1-Turn so the Round goes on."""
    clear_board(g, keep=2)
    u = put(g, 0, label)
    partner = put(g, 1, "A14")
    add_german(g, "rifleman", "R14", aware=False, known=False)
    rounds(g)
    partner.ar = int(ARSpace.ONE_TURN)
    give_turn(g, u)
    return u


# ---------------------------------------------------------------------------- 1 awareness
def test_awareness_rounds_follow_the_data(monkeypatch, tmp_path):
    """RULES.md §5 awareness (rules.yaml awareness): with check_round 3 and aware_round 4, the
    unaware make no check in Round 2, the PC check in Round 3, and are all aware in Round 4."""
    g = fresh_game()
    install_rules(
        monkeypatch, tmp_path, g, _set("awareness", value={"check_round": 3, "aware_round": 4})
    )
    clear_board(g, keep=1)
    u = put(g, 0, "A1")
    u.aware = False
    add_german(g, "rifleman", "P5")
    g.state.phase = int(Phase.ROUNDS)
    g.state.round = 1
    force(g, [5, 5])  # initiative only: no awareness check in Round 2
    sequence.start_round(g)
    assert g.state.round == 2 and not u.aware
    force(g, [9, 5, 5])  # Round 3: the PC check, failed
    sequence.start_round(g)
    assert g.state.round == 3 and not u.aware
    force(g, [5, 5])  # Round 4: aware without a roll
    sequence.start_round(g)
    assert u.aware


# ---------------------------------------------------------------------------- 2 MP costs
def test_wounded_stance_change_cost_follows_the_data(monkeypatch, tmp_path):
    """Seed 002 p. 26 (rules.yaml movement.wounded_stance_mp): a wounded soldier pays the data's
    MPs for a stance change: 2 of MV 3, after which 1 MP is too few for another."""
    g = fresh_game()
    install_rules(monkeypatch, tmp_path, g, _set("movement", "wounded_stance_mp", value=2))
    u = _rounds_unit(g, "A2")
    u.wounded = True
    u.MV = 3
    g.invalidate()
    g.step(enc(K.STANCE, Stance.CROUCHING))
    t = g.state.turn
    assert t.mode == "move" and t.mp_left == 1 and t.mp_spent == 2
    assert not any(O.decode(a)[0] == K.STANCE for a in g.legal_actions())


def test_seat_change_cost_follows_the_data(monkeypatch, tmp_path):
    """Seed 000 p. 31 (rules.yaml movement.seat_change_mp): getting into a car in Rounds costs
    the data's MPs (3 here), and a soldier with fewer MPs left cannot get in."""
    g = fresh_game()
    install_rules(monkeypatch, tmp_path, g, _set("movement", "seat_change_mp", value=3))
    u = _rounds_unit(g, "A1")
    v = g.state.vehicles[0]
    v.hex = g.board.index("A1")
    g.invalidate()
    g.step(enc(K.BOARD_VEHICLE, v.vid))
    t = g.state.turn
    assert u.vehicle == v.vid and t.mp_spent == 3 and t.mp_left == u.MV - 3
    u2 = _rounds_unit(g, "A1")
    v.hex = g.board.index("A1")
    u2.MV = 2
    g.invalidate()
    assert enc(K.BOARD_VEHICLE, v.vid) not in g.legal_actions()


# ---------------------------------------------------------------------------- 3 snap shots
def test_number_of_snap_shots_follows_the_data(monkeypatch, tmp_path):
    """RULES.md §6 two snap fires (rules.yaml fire.snap_shots): with 3, a third snap shot may
    follow the second, and the third ends the turn."""
    g = fresh_game()
    install_rules(monkeypatch, tmp_path, g, _set("fire", "snap_shots", value=3))
    u = _rounds_unit(g, "J5")
    u.weapon = "m1_garand"  # a rifle: no jam check
    u.ammo = g.weapon("m1_garand").clip
    ger = add_german(g, "rifleman", "J2")
    snap = enc(K.FIRE_SNAP, g.state.contacts.index(ger.uid))
    force(g, [9, 9, 9])  # three misses
    for shot in (1, 2):
        g.step(snap)
        assert g.state.turn.uid == u.uid and g.state.turn.mode == "snap2"
        assert g.state.turn.snaps == shot and snap in g.legal_actions()
    g.step(snap)
    assert g.state.turn.uid != u.uid and u.ar == ARSpace.COMPLETE


# ---------------------------------------------------------------------------- 4 move + snap
def test_move_snap_fraction_follows_the_data(monkeypatch, tmp_path):
    """RULES.md §6 move + snap fire up to half MV (rules.yaml fire.move_snap_fraction): with
    0.6 of MV 5, a snap fire still follows 3 MPs of moving, not 4."""
    g = fresh_game()
    install_rules(monkeypatch, tmp_path, g, _set("fire", "move_snap_fraction", value=0.6))
    _rounds_unit(g, "J5")
    ger = add_german(g, "rifleman", "J2")
    snap = enc(K.FIRE_SNAP, g.state.contacts.index(ger.uid))
    for d in (Direction.N, Direction.S, Direction.N):  # J4, J5, J4: clear, 1 MP each
        g.step(enc(K.MOVE, d))
    assert g.state.turn.mp_spent == 3 and snap in g.legal_actions()
    g.step(enc(K.MOVE, Direction.S))
    assert g.state.turn.mp_spent == 4 and snap not in g.legal_actions()


# ---------------------------------------------------------------------------- 5 stacking
def test_vehicles_in_a_hex_follow_the_data(monkeypatch, tmp_path):
    """Seed 000 p. 30 at most two vehicles per hex (vehicles.yaml max_in_hex): with 3, a car
    may enter a hex holding two, not one holding three."""
    install_vehicle_data(monkeypatch, tmp_path, _set("max_in_hex", value=3))
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A1")
    v = g.state.vehicles[0]
    v.hex, v.facing = g.board.index("A1"), int(Direction.SE)
    drv.vehicle, v.driver = v.vid, drv.uid
    b1 = g.board.index("B1")
    g.state.vehicles[1].hex = b1
    g.state.vehicles.append(
        Vehicle(vid=2, type="staff_car", side=1, name="V3", hex=b1, disabled=True)
    )
    g.invalidate()
    g.step(enc(K.SELECT_UNIT, 0))
    assert enc(K.DRIVE, Direction.SE) in g.legal_actions()  # two there: may enter
    g.state.vehicles.append(
        Vehicle(vid=3, type="staff_car", side=1, name="V4", hex=b1, disabled=True)
    )
    g.invalidate()
    assert enc(K.DRIVE, Direction.SE) not in g.legal_actions()


# ---------------------------------------------------------------------------- 6 prisoner MV
def test_prisoner_mv_follows_the_data(monkeypatch, tmp_path):
    """Seed 002 p. 25 prisoners and guard both have MV 2 (rules.yaml prisoners.mv): with 3,
    a guard moves his prisoner three clear hexes in a Round."""
    from ambush_env.core.rules.assault import capture

    g = fresh_game()
    install_rules(monkeypatch, tmp_path, g, _set("prisoners", "mv", value=3))
    clear_board(g, keep=2)
    us = put(g, 0, "A2")
    put(g, 1, "A14")
    ger = add_german(g, "rifleman", "A2")
    capture(g, ger, us)
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    g.state.units[1].ar = 2
    give_turn(g, us)
    g.step(enc(K.MOVE_PRISONER, Direction.S))
    assert g.state.turn.mode == "prisoner" and g.state.turn.mp_left == 2
    g.step(enc(K.MOVE_PRISONER, Direction.S))
    assert g.state.turn.uid == us.uid
    g.step(enc(K.MOVE_PRISONER, Direction.S))
    assert g.board.label(ger.hex) == "A5" and g.state.turn.uid != us.uid


# ---------------------------------------------------------------------------- 7 penetration
def _penetration_rule(level: str, explosive: bool, surface: str) -> str:
    """RULES.md §11, the binding reading, in words turned into code (the sanity check)."""
    lv = PENETRATION_LEVELS.index(level)
    armour = {"unarmoured": 0, "light": 1, "medium": 2, "heavy": 3}
    if lv == 0:
        return "none"
    if lv == 3:  # heavy destroys any surface
        return "destroyed"
    if explosive:  # any level destroys a wall; a part when level >= armour
        if surface in ("wood_wall", "stone_wall"):
            return "destroyed"
        return "destroyed" if lv >= armour[surface] else "none"
    if lv == 1:  # light: wooden walls and unarmoured surfaces only
        return "pass" if surface in ("wood_wall", "unarmoured") else "none"
    return "none" if surface == "heavy" else "pass"  # medium: all but heavy armour


def test_shipped_penetration_table_is_the_rules_md_reading():
    """RULES.md §11 (binding): every cell of damage.yaml penetration matches the rule's words."""
    for lvl in PENETRATION_LEVELS:
        for exp in (False, True):
            for s in SURFACES:
                assert penetrates(lvl, exp, s) == _penetration_rule(lvl, exp, s), (lvl, exp, s)


def test_wall_fire_follows_a_changed_penetration_cell(tmp_path):
    """RULES.md §11 / seed 002 p. 26 (damage.yaml penetration): a light non-explosive result
    does nothing to a stone wall; with that cell changed to pass, it passes."""
    g, us, h = _house(wall="stone")
    g.force(0, 5)  # hit, penetration 5 = light
    assert fire_at_wall(g, us.uid, h)[0].result == "none"
    g, us, h = _house(wall="stone")
    g.tables = changed_tables(
        tmp_path, _set("penetration", "plain", "light", "stone_wall", value="pass")
    )
    assert penetrates("light", False, "stone_wall", g.tables) == "pass"
    g.force(0, 5)
    assert fire_at_wall(g, us.uid, h)[0].result == "pass"


def test_missing_penetration_cell_is_a_data_error(tmp_path):
    """RULES.md §11: every cell of the penetration table must be present."""

    def drop(raw):
        del raw["penetration"]["explosive"]["medium"]["heavy"]

    with pytest.raises(DataError) as e:
        changed_tables(tmp_path, drop)
    assert e.value.field == "penetration.explosive.medium.heavy"
    assert "damage.yaml" in e.value.path


def test_bad_penetration_value_is_a_data_error(tmp_path):
    """RULES.md §11: a cell is none, pass or destroyed."""
    with pytest.raises(DataError) as e:
        changed_tables(tmp_path, _set("penetration", "plain", "light", "wood_wall", value="passes"))
    assert e.value.field == "penetration.plain.light.wood_wall"


def test_unknown_penetration_level_is_a_data_error(tmp_path):
    """RULES.md §11: the levels are none, light, medium, heavy; no others."""
    with pytest.raises(DataError) as e:
        changed_tables(
            tmp_path, _set("penetration", "plain", "extreme", value={s: "none" for s in SURFACES})
        )
    assert e.value.field == "penetration.plain.extreme"


# ---------------------------------------------------------------------------- 8 run over
def test_run_over_retry_cost_follows_the_data(monkeypatch, tmp_path):
    """Seed 000 p. 33 the sharp turn before a second running-over try (vehicles.yaml
    retry_mp): with 2, coming back into the hex costs its 1 MP plus 2."""
    install_vehicle_data(monkeypatch, tmp_path, _set("retry_mp", value=2))
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A8")
    v = g.state.vehicles[0]
    v.hex, v.facing = g.board.index("A8"), int(Direction.SE)
    drv.vehicle, v.driver = v.vid, drv.uid
    add_german(g, "rifleman", "B8")
    rounds(g)
    give_turn(g, drv)
    force(g, [3, 0])  # first try: check passes, dodged
    g.step(enc(K.DRIVE, Direction.SE))  # B8, 1 MP
    g.step(enc(K.DRIVE_BACK))  # A8, 2 MPs
    force(g, [3, 3, 0])  # the sharp turn's check, the run-over check, dodged
    evs = g.step(enc(K.DRIVE, Direction.SE))
    turn = [e for e in evs if e["type"] == "sharp_turn"]
    assert turn and turn[0]["mp"] == 2 and g.state.turn.mp_spent == 5


def test_bad_vehicle_numbers_are_data_errors(tmp_path):
    """Seed 000 p. 30, 33: max_in_hex is at least 1, retry_mp at least 0."""
    for key, bad in (("max_in_hex", 0), ("retry_mp", -1)):
        path = changed_copy(tmp_path, "vehicles.yaml", _set(key, value=bad))
        with pytest.raises(DataError) as e:
            vehicle_data.load_vehicle_data(path)
        assert e.value.field == key


def test_bad_rules_numbers_are_data_errors(tmp_path):
    """RULES.md §5, §6; seed 002 p. 25-26; seed 000 p. 31: the rules.yaml numbers validate."""
    for keys, bad, field in (
        (("awareness", "aware_round"), 2, "awareness"),
        (("fire", "snap_shots"), 0, "fire.snap_shots"),
        (("fire", "move_snap_fraction"), 1.5, "fire.move_snap_fraction"),
        (("movement", "seat_change_mp"), -1, "movement.seat_change_mp"),
        (("prisoners", "mv"), 0, "prisoners.mv"),
    ):
        path = changed_copy(tmp_path, "rules.yaml", _set(*keys, value=bad))
        with pytest.raises(DataError) as e:
            load_rules_data(path)
        assert e.value.field == field


# ---------------------------------------------------------------------------- reference mission
def test_reference_mission_is_named_in_data_and_listed_first():
    """docs/API.md: the reference mission, farm_assault, is named in data (rules.yaml
    reference_mission), list_missions() lists it first, then the others sorted, and a Game
    without ``mission`` plays it."""
    from ambush_env.core import Game

    assert load_rules_data().reference_mission == reference_mission() == "farm_assault"
    ids = list_missions()
    assert ids[0] == "farm_assault" and ids[1:] == sorted(ids[1:])
    assert sorted(ids) == list_data("missions")
    assert Game(seed=0).mission.id == "farm_assault"


def test_reference_mission_must_be_shipped(tmp_path):
    """docs/API.md: the reference mission must be a shipped mission."""
    path = changed_copy(tmp_path, "rules.yaml", _set("reference_mission", value="moon_base"))
    with pytest.raises(DataError) as e:
        load_rules_data(path)
    assert e.value.field == "reference_mission" and "farm_assault" in e.value.problem


# ---------------------------------------------------------------------------- the one loader
def test_one_loader_names_known_ids_and_the_bad_field(tmp_path):
    """docs/STYLE.md habit 3: one loader for every kind; an unknown id lists the known ones, a bad
    file names file and field; shipped ids are cached, paths read afresh."""
    with pytest.raises(ScenarioError, match="farm_assault"):
        load_mission("nowhere")
    with pytest.raises(ScenarioError, match="rules"):
        load_data(RulesData, "", "no_such_file")
    assert load_data(RulesData, "", "rules") is load_data(RulesData, "", "rules")
    path = changed_copy(tmp_path, "rules.yaml", lambda raw: None)
    assert load_rules_data(path) is not load_rules_data(path)
    assert load_rules_data(path) == load_rules_data()
    bad = changed_copy(tmp_path, "rules.yaml", _set("assault", "base", value="five"))
    with pytest.raises(DataError) as e:
        load_data(RulesData, "", bad)
    assert e.value.field == "assault.base" and e.value.path.endswith("rules.yaml")
