"""German vehicles (seed 000 p. 31-32): drivers and crews placed at setup or by a paragraph, a
car acting on its driver's driving column, tank cards (d10, row by crew size), the targeting of
p. 32 in the interpreter, and the mission checks (DataError naming the field).

Map (Farm Assault): the road runs along row 8; the stone farmhouse is L6/L7; the yard M6 is
walled on its north side (M5/M6 a stone wall without aperture).

⚙ The tank orders (``CANNON_*``, ``*_MG_*``, ``LOAD_CANNON``, ``OPEN_CLOSE``) and the soldier
orders that aim at vehicles are offered by the order generator of the "tanks" and "vfire"
parts of issue 11; until they land, the tank and vehicle-target tests hand the interpreter an
explicit offered list (what the generator would offer) and check the order it picks.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import force, give_turn, resolve

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Vehicle
from ambush_env.core.play import german, paragraphs
from ambush_env.core.world.missions import Mission, check_references, load_mission

B = O.ORDER_BASE
MISSION = "farm_assault"


def _car_game(german_mode: str = "cards", us_hex: str = "C8") -> Game:
    """G1 (rifleman) drives the Kübelwagen V2 at K8 facing SW; US1 at ``us_hex``; Rounds,
    US to act first (so the position does not play G1's turn)."""
    p: dict[str, Any] = {
        "mission": MISSION,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": "us",
        "german": german_mode,
        "units": [
            {"name": "US1", "hex": us_hex, "ar": "1-turn"},
            {
                "name": "G1",
                "side": "german",
                "role": "rifleman",
                "hex": "K8",
                "vehicle": "V2",
                "ar": "1-turn",
            },
        ],
        "vehicles": [
            {"name": "V1", "type": "jeep", "side": "us", "hex": "A2"},
            {
                "name": "V2",
                "type": "kubelwagen",
                "side": "german",
                "hex": "K8",
                "facing": "SW",
                "driver": "G1",
            },
        ],
    }
    return Game.from_position(p)


def _types(g: Game) -> list[dict]:
    return [e.to_dict() for e in g.log]


# ------------------------------------------------------------------ seed 000 p. 32: driving column
def test_a_german_car_acts_on_its_drivers_driving_column():
    """Seed 000 p. 32: "A German car acts on its driver's driving column"; German vehicles
    spend as much as they can (p. 30). The rifleman's card has no driving column: the shipped
    default's row 0-3 is "drive toward nearest_us (slow), else fire": 5 road hexes (the slow
    MPA of 5), no Accident Check, then the drive ends."""
    g = _car_game()
    g1 = g.state.units[1]
    v = g.state.vehicles[1]
    us = g.state.units[0]
    before = g.board.distance(v.hex, us.hex)
    force(g, [0])
    give_turn(g, g1)
    g.german_turn(g1)
    ev = _types(g)
    card = next(e for e in ev if e["type"] == "german_card")
    assert (
        card["column"] == "driving" and card["roll"] == 0 and card["actions"] == ["drive", "fire"]
    )
    drives = [e for e in ev if e["type"] == "drive"]
    assert len(drives) == 5 and sum(e["mp"] for e in drives) == 5
    assert [e["to"] for e in drives] == ["J8", "I8", "H8", "G8", "F8"]
    assert g.board.label(v.hex) == "F8" and g.board.distance(v.hex, us.hex) < before
    assert not any(e["type"] == "accident_check" for e in ev)
    assert any(e["type"] == "end_drive" for e in ev)


def test_a_car_that_cannot_move_falls_back_to_the_drivers_snap_shot():
    """Seed 000 p. 32: the driver's one snap fire from the car; an immobilised car's driver
    reads his ordinary columns (it cannot drive: the driving column is for a car that can)."""
    g = _car_game()
    g1, v = g.state.units[1], g.state.vehicles[1]
    v.immobilised = True
    assert german.column_for(g, g1) == "aware"
    v.immobilised = False
    assert german.column_for(g, g1) == "driving"


def test_drive_and_leave_vehicle_belong_to_a_driving_column(tmp_path):
    """The card schema: ``drive`` outside a driving column is a DataError naming the field."""
    import yaml

    from ambush_env.core.world.cards import read_deck
    from ambush_env.core.world.data import data_path

    raw = yaml.safe_load(data_path("cards/regular.yaml").read_text(encoding="utf-8"))
    raw["cards"][0]["columns"]["aware"][0]["do"] = [{"drive": {"toward": "nearest_us"}}]
    p = tmp_path / "regular.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match=r"cards\.0\.columns\.aware\.0\.do\.0"):
        read_deck(p)
    raw["cards"][0]["columns"]["aware"][0]["do"] = ["hold"]
    raw["cards"][0]["columns"]["driving"] = [{"rolls": [0, 9], "do": ["leave_vehicle"]}]
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    assert read_deck(p).cards[0].columns.driving[0].do[0].action == "leave_vehicle"


def test_vehicle_cards_file_is_validated(tmp_path):
    """Tank cards (seed 000 p. 32): one d10 table per crew size 1..5, each covering 0-9 once."""
    import yaml

    from ambush_env.core.world.data import data_path
    from ambush_env.core.world.vehicle_cards import load_vehicle_cards, shipped_vehicle_cards

    cards = shipped_vehicle_cards()
    assert {"panzer_iv", "jagdpanther"} <= set(cards.tank_ids)
    raw = yaml.safe_load(data_path("vehicle_cards.yaml").read_text(encoding="utf-8"))
    del raw["tanks"][0]["crews"][3]
    p = tmp_path / "vehicle_cards.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match=r"tanks\.0\.crews"):
        load_vehicle_cards(p)
    raw = yaml.safe_load(data_path("vehicle_cards.yaml").read_text(encoding="utf-8"))
    raw["tanks"][0]["crews"][5][0]["rolls"] = [0, 3]  # overlaps the next row (3-4)
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match=r"tanks\.0\.crews\.5\.1\.rolls"):
        load_vehicle_cards(p)


# ------------------------------------------------------------------ placement, mission checks
def _mission_with(**update: Any) -> Mission:
    m = load_mission(MISSION)
    raw = m.model_dump(mode="json", by_alias=True)
    raw.update(update)
    return Mission.model_validate(raw)


def test_a_vehicle_arriving_by_paragraph_puts_its_germans_aboard():
    """Seed 000 p. 32: a German car arrives mid-mission with its driver and a passenger, aware:
    they are known contacts and Rounds begin (as ``place``)."""
    m = _mission_with()
    g = Game(m, seed=3)
    n_units = len(g.state.units)
    v = paragraphs.put_vehicle(
        g,
        {
            "vehicle": "kubelwagen",
            "hex": "P8",
            "facing": "SW",
            "driver": "nco_smg",
            "passengers": ["rifleman"],
            "aware": True,
        },
    )
    resolve(g)
    units = g.state.units
    assert v.name == "V3" and g.board.label(v.hex) == "P8" and v.side == 1
    drv, pas = units[v.driver], units[v.passengers[0]]
    assert (drv.role, pas.role) == ("nco_smg", "rifleman") and len(units) == n_units + 2
    assert drv.vehicle == pas.vehicle == v.vid and drv.hex == pas.hex == v.hex
    assert drv.aware and pas.aware
    ev = [e.to_dict() for e in g.log]
    pv = next(e for e in ev if e["type"] == "place_vehicle")
    assert pv["vehicle"] == "V3" and pv["aboard"] == [drv.name, pas.name]
    assert g.in_rounds


def test_a_place_vehicle_effect_runs_from_a_paragraph():
    """The ``place_vehicle`` effect (missions.py) placed by a paragraph: an unaware crew nobody
    sees stays hidden (the event names nobody aboard)."""
    m = load_mission(MISSION)
    raw = m.model_dump(mode="json", by_alias=True)
    some = sorted(raw["paragraphs"], key=int)[0]
    raw["paragraphs"][some] = [
        {"place_vehicle": {"vehicle": "staff_car", "hex": "R14", "driver": "rifleman"}},
        *raw["paragraphs"][some],
    ]
    g = Game(Mission.model_validate(raw), seed=1)
    n = len(g.state.vehicles)
    g.request("paragraph", int(some), 0, -1, 0)
    resolve(g)
    v = g.state.vehicles[n]
    assert v.type == "staff_car" and g.board.label(v.hex) == "R14"
    pv = [e.to_dict() for e in g.log if e.type == "place_vehicle"][-1]
    assert pv.get("hidden") is True and "aboard" not in pv


def test_a_crewed_german_vehicle_at_setup():
    """Mission ``german_vehicles`` with a driver (seed 000 p. 32): seated at the start."""
    m = load_mission(MISSION)
    gv = dict(m.model_dump(mode="json")["german_vehicles"][0])
    gv.update(driver="rifleman", passengers=["nco_smg"], route=["P8"])
    g = Game(_mission_with(german_vehicles=[gv]), seed=0)
    v = next(x for x in g.state.vehicles if x.side == 1)
    units = g.state.units
    assert units[v.driver].role == "rifleman" and units[v.passengers[0]].role == "nco_smg"
    assert units[v.driver].route == [g.board.index("P8")]


@pytest.mark.parametrize(
    "gv, field",
    [
        ({"vehicle": "kubelwagen", "hex": "P8", "driver": "general"}, "german_vehicles.0.driver"),
        (
            {
                "vehicle": "kubelwagen",
                "hex": "P8",
                "driver": "rifleman",
                "passengers": ["rifleman"] * 4,
            },
            "german_vehicles.0.passengers",
        ),
        ({"vehicle": "kubelwagen", "hex": "P8", "card": "panzer_iv"}, "german_vehicles.0.card"),
        ({"vehicle": "panzer_iv", "hex": "P8", "driver": "rifleman"}, "german_vehicles.0.driver"),
        ({"vehicle": "panzer_iv", "hex": "P8", "card": "jagdpanther"}, "german_vehicles.0.card"),
        ({"vehicle": "panzer_iv", "hex": "P8", "card": "tiger"}, "german_vehicles.0.card"),
    ],
)
def test_mission_crew_errors_name_the_field(gv, field):
    """Seed 000 p. 31: seats (driver included) and crews; an unknown card; nobody boards a tank."""
    with pytest.raises(DataError, match=field.replace(".", r"\.")):
        check_references(_mission_with(german_vehicles=[gv]), "test.yaml")


def test_place_vehicle_errors_name_the_paragraph_field():
    m = load_mission(MISSION)
    raw = m.model_dump(mode="json", by_alias=True)
    some = sorted(raw["paragraphs"], key=int)[0]
    raw["paragraphs"][some] = [
        {"place_vehicle": {"vehicle": "kubelwagen", "hex": "P8", "driver": "nobody"}},
        *raw["paragraphs"][some],
    ]
    with pytest.raises(DataError, match=rf"paragraphs\.{some}\.0\.place_vehicle\.driver"):
        check_references(Mission.model_validate(raw), "test.yaml")


# ------------------------------------------------------------------ tanks from their cards
def _tank_game(tank_hex: str = "M3", facing: str = "S", crew: int = 5) -> tuple[Game, Any, Vehicle]:
    """A German Panzer IV (aware, its card panzer_iv) placed on the Farm Assault map in Rounds."""
    g = Game(MISSION, seed=0)
    st = g.state
    for u in st.units:
        if u.slot >= 1:
            u.hex = -1
            u.status = 4  # removed
    v = paragraphs.put_vehicle(
        g,
        {"vehicle": "panzer_iv", "hex": tank_hex, "facing": facing, "crew": crew, "aware": True},
        request=False,
    )
    st.phase = 1
    st.pending = []
    tu = st.units[v.unit]
    give_turn(g, tu)
    return g, tu, v


def _us1(g: Game, label: str, stance: int = 0) -> Any:
    u = next(x for x in g.state.units if x.slot == 0 and x.side == 0)
    u.hex, u.stance, u.status = g.board.index(label), stance, 0
    g.invalidate()
    return u


def test_a_german_tank_makes_its_unit_and_reads_the_row_for_its_crew():
    """Seed 000 p. 32: roll one die, read the row for its current crew size, perform the
    actions in order as far as Crew Points and state allow. Crew 5, roll 0: fire_cannon, the
    bow MG aimed, load; the load is not offered after the cannon fired (p. 33), so the turn
    ends."""
    g, tu, v = _tank_game()
    assert (tu.role, tu.name, tu.vehicle, v.unit, v.driver, v.card, v.crew) == (
        "tank",
        v.name,
        v.vid,
        tu.uid,
        tu.uid,
        "panzer_iv",
        5,
    )
    _us1(g, "M5")
    k = g.enemy_slots(1).index(0)
    force(g, [0])
    first = german.choose(
        g, tu, [B[K.END_TURN], B[K.CANNON_FIRE] + k, B[K.BOW_MG_AIMED] + k, B[K.LOAD_CANNON]]
    )
    card = next(e.to_dict() for e in g.log if e.type == "german_card")
    assert card == {
        "type": "german_card",
        "unit": v.name,
        "card": "panzer_iv",
        "column": "crew_5",
        "roll": 0,
        "actions": ["fire_cannon", "fire_mg", "load"],
    }
    assert first == B[K.CANNON_FIRE] + k
    assert german.choose(g, tu, [B[K.END_TURN], B[K.BOW_MG_AIMED] + k]) == B[K.BOW_MG_AIMED] + k
    assert german.choose(g, tu, [B[K.END_TURN]]) == B[K.END_TURN]


def test_a_smaller_crew_reads_another_row():
    """Seed 000 p. 32: the same roll with 1 active crew reads the crew-1 table: load first."""
    g, tu, v = _tank_game(crew=1)
    _us1(g, "M5")
    force(g, [0])
    assert german.choose(g, tu, [B[K.END_TURN], B[K.LOAD_CANNON]]) == B[K.LOAD_CANNON]
    assert german.column_for(g, tu) == "crew_1"


# ------------------------------------------------------------------ the targeting of p. 32
def test_a_soldier_in_a_building_draws_the_main_gun_at_its_wall():
    """Seed 000 p. 32: "A tank told to fire at a soldier inside a building fires its main gun
    at the wall"; excluded: a soldier in the open is fired at directly."""
    g, tu, v = _tank_game(tank_hex="L3")
    us = _us1(g, "L6")
    off = german._offset(g, tu.hex, us.hex)
    k = g.enemy_slots(1).index(us.uid)
    offered = {B[K.END_TURN], B[K.CANNON_WALL] + off, B[K.CANNON_FIRE] + k}
    assert german._fire_cannon(g, tu, {"at": "nearest_visible"}, offered) == (
        B[K.CANNON_WALL] + off,
        True,
    )
    _us1(g, "L4")
    offered = {B[K.END_TURN], B[K.CANNON_WALL] + off, B[K.CANNON_FIRE] + k}
    assert german._fire_cannon(g, tu, {}, offered) == (B[K.CANNON_FIRE] + k, True)


def test_a_visible_soldier_behind_a_stone_wall_draws_the_machineguns():
    """Seed 000 p. 32: "it uses its machineguns on a visible soldier behind a stone wall"
    (M5/M6: a stone wall); excluded: the same soldier with no wall between is shot by the gun."""
    g, tu, v = _tank_game(tank_hex="M3")
    us = _us1(g, "M6")
    k = g.enemy_slots(1).index(us.uid)
    offered = {B[K.END_TURN], B[K.CANNON_FIRE] + k, B[K.COAX_MG_AIMED] + k}
    assert german._behind_stone_wall(g, tu, us)
    assert german._fire_cannon(g, tu, {}, offered) == (B[K.COAX_MG_AIMED] + k, True)
    _us1(g, "M5")
    assert not german._behind_stone_wall(g, tu, us)
    assert german._fire_cannon(g, tu, {}, offered) == (B[K.CANNON_FIRE] + k, True)


def test_a_known_unseen_soldier_draws_the_main_gun_into_his_hex():
    """Seed 000 p. 32: "the main gun on a known but invisible (prone) one"; excluded: a visible
    soldier is fired at, not his hex."""
    g, tu, v = _tank_game(tank_hex="M3")
    us = _us1(g, "C2", stance=2)
    off = german._offset(g, tu.hex, us.hex)
    if off is None:  # beyond the offset radius: bring him closer
        us = _us1(g, "J2", stance=2)
        off = german._offset(g, tu.hex, us.hex)
    k = g.enemy_slots(1).index(us.uid)
    unseen = {B[K.END_TURN], B[K.CANNON_HEX] + off}
    assert german._fire_cannon(g, tu, {}, unseen) == (B[K.CANNON_HEX] + off, True)
    seen = unseen | {B[K.CANNON_FIRE] + k}
    assert german._fire_cannon(g, tu, {}, seen) == (B[K.CANNON_FIRE] + k, True)


def test_no_german_fires_at_a_closed_tank_he_cannot_penetrate():
    """Seed 000 p. 31-32: "A German will not shoot a closed tank with a weapon that cannot
    penetrate it, whatever his paragraph says": an MP40 never fires at a closed Sherman, but
    does at an open one (all its men exposed); a panzerfaust fires at the closed one. The
    rule is the order generator's (``vehicle_fire.holds_fire``): the card chooses from
    ``legal_orders``, the same list as the German seat's mask."""
    from ambush_env.core.play.legal import legal_orders

    g = _car_game()
    st = g.state
    sherman = Vehicle(
        vid=len(st.vehicles),
        type="sherman",
        side=0,
        name="V3",
        hex=g.board.index("H8"),
        closed=True,
        crew=5,
    )
    st.vehicles.append(sherman)
    g1 = st.units[1]
    g1.weapon, g1.ammo = "mp40", g.weapon("mp40").clip
    g1.vehicle = -1
    st.vehicles[1].driver = -1
    g.invalidate()
    a = B[K.FIRE_AIMED_VEHICLE] + sherman.vid * 3 + O.ASPECTS.index("side")

    def offered() -> set[int]:  # G1's legal orders at vehicles (and the turn's end)
        g.invalidate()
        return set(legal_orders(g, g1, frozenset({K.FIRE_AIMED_VEHICLE, K.END_TURN})))

    assert a not in offered()
    assert german._fire(g, g1, {"mode": "aimed"}, offered()) is None
    sherman.closed = False
    assert a in offered()
    assert german._fire(g, g1, {"mode": "aimed"}, offered()) == (a, True)
    sherman.closed = True
    g1.weapon, g1.ammo, g1.prepared = "panzerfaust", 1, True
    assert a in offered()
    assert german._fire(g, g1, {"mode": "aimed"}, offered()) == (a, True)


def test_a_german_fires_at_a_us_vehicle_aspect_at_random_from_its_hex():
    """Seed 000 p. 30-31: a jeep's riders are fired at as the jeep; from the vehicle's hex the
    German chooses the aspect at random (one ``dice.choice`` over the offered aspects)."""
    g = _car_game()
    st = g.state
    g1 = st.units[1]
    g1.vehicle = -1
    st.vehicles[1].driver = -1
    jeep = st.vehicles[0]
    jeep.hex = g1.hex
    st.units[0].hex, st.units[0].vehicle, jeep.driver = g1.hex, 0, 0
    g.invalidate()
    base = B[K.FIRE_AIMED_VEHICLE]
    offered = {B[K.END_TURN]} | {base + a for a in range(3)}
    force(g, [2])
    assert german._fire(g, g1, {"mode": "aimed"}, offered) == (base + 2, True)
    force(g, [0])
    assert german._fire(g, g1, {"mode": "aimed"}, offered) == (base + 0, True)


# ------------------------------------------------------------------ german="agent"
def test_an_agent_played_german_driver_gets_his_orders_from_legal():
    """With ``german="agent"`` the German driver is a German decision: his drive orders come
    from the one generator and ``Game.step`` plays them."""
    g = _car_game(german_mode="agent")
    g1 = g.state.units[1]
    give_turn(g, g1)
    orders = g.legal_orders()
    assert "G1 drive SW to J8" in orders or any(o.startswith("G1 drive") for o in orders)
    drive = next(o for o in orders if o.startswith("G1 drive"))
    g.play(drive)
    assert g.state.turn.mode == "drive" and g.state.turn.uid == g1.uid
