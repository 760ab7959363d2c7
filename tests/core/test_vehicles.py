"""Vehicles in play: seed 002 p. 26-27 (loading the fallen, riding safe, captured cars and the
DS −1 rule, radios) and the car rules of seed 000 p. 30-33 they rest on (costs, accidents, fire
and blasts against cars, running over). Dice are forced on both sides of each threshold.

Map (Farm Assault): row 1 A1-D1 clear, D2 woods, road along row 8, a garden wall M5/M6, the
stone farmhouse L6/L7; the jeep is vehicle 0 (V1), the parked Kübelwagen vehicle 1 (V2).
"""

from __future__ import annotations

import pytest
from engine_helpers import add_german, clear_board, force, fresh_game, give_turn, put, rounds

from ambush_env.core.combat.grenades import explode
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import DataError
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Vehicle
from ambush_env.core.model.types import ARSpace, Direction, Side, Stance, Status
from ambush_env.core.vehicles import vehicle_fire as VF
from ambush_env.core.vehicles import vehicles as V
from ambush_env.core.world.missions import GermanVehicle, check_vehicles, load_mission

JEEP, KUBEL = 0, 1


def enc(kind, arg=0):
    return O.encode(kind, arg)


def kinds(g):
    return {O.decode(a)[0] for a in g.legal_actions()}


def _ops(g, slot=0):
    g.invalidate()
    if g.acting_unit() is None:
        g.step(enc(K.SELECT_UNIT, slot))


def park(g, vid, label, facing=Direction.N):
    v = g.state.vehicles[vid]
    v.hex = g.board.index(label)
    v.facing = int(facing)
    for uid in v.occupants:
        g.state.units[uid].hex = v.hex
    g.invalidate()
    return v


def seat(g, v, u, driver=False):
    """Put ``u`` aboard ``v`` directly (no rules), as driver or passenger."""
    u.hex = v.hex
    u.vehicle = v.vid
    if driver:
        v.driver = u.uid
    else:
        v.passengers.append(u.uid)
    g.invalidate()


def events_of(evs, kind):
    return [e for e in evs if e["type"] == kind]


# ============================================================================ seed 002 p. 26
def test_load_incapacitated_kills_on_zero():
    """seed 002, p. 26: loading an incapacitated soldier into a vehicle kills him on a 0."""
    for roll, killed in ((0, True), (1, False)):
        g = fresh_game()
        clear_board(g, keep=2)
        put(g, 0, "A2")
        hurt = put(g, 1, "A2")
        hurt.status = int(Status.INCAPACITATED)
        hurt.ar = int(ARSpace.INACTIVE)
        v = park(g, JEEP, "A2")
        _ops(g)
        force(g, [roll])
        g.step(enc(K.LOAD, JEEP))
        assert hurt.vehicle == JEEP and v.passengers == [hurt.uid]
        assert (hurt.status == Status.KILLED) is killed
        assert g.dice.forced_left == 0


def test_loading_a_body_rolls_nothing():
    """seed 002, p. 26: a body is moved like an incapacitated soldier; only he risks the 0."""
    g = fresh_game()
    clear_board(g, keep=2)
    put(g, 0, "A2")
    body = put(g, 1, "A2")
    body.status = int(Status.KILLED)
    park(g, JEEP, "A2")
    _ops(g)
    force(g, [])
    g.step(enc(K.LOAD, JEEP))
    assert body.vehicle == JEEP and body.status == Status.KILLED


def test_load_refused_unless_standing_with_fallen_and_a_seat():
    """seed 002, p. 26: a *standing active* soldier loads; none without a fallen comrade, a
    free seat, or into a tank (nobody boards a tank, seed 000 p. 31)."""
    g = fresh_game()
    clear_board(g, keep=2)
    us = put(g, 0, "A2", Stance.CROUCHING)
    hurt = put(g, 1, "A2")
    hurt.status = int(Status.INCAPACITATED)
    v = park(g, JEEP, "A2")
    _ops(g)
    assert K.LOAD not in kinds(g)  # crouching
    us.stance = int(Stance.STANDING)
    g.invalidate()
    assert enc(K.LOAD, JEEP) in g.legal_actions()
    v.passengers = [90, 91, 92, 93]  # four seats taken (a jeep carries four)
    g.invalidate()
    assert K.LOAD not in kinds(g)
    assert V.load_refusal(g, us, v) == "no free seat"
    v.passengers = []
    hurt.status = int(Status.ACTIVE)
    g.invalidate()
    assert K.LOAD not in kinds(g)


def test_riding_is_safe_operations_and_rounds():
    """seed 002, p. 26: riding in a vehicle is safe: driving him rolls nothing (the drag's
    kill-on-0 is for dragging and loading only)."""
    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A1")
    hurt = put(g, 1, "A1")
    hurt.status = int(Status.INCAPACITATED)
    v = park(g, JEEP, "A1", Direction.SE)
    seat(g, v, drv, driver=True)
    seat(g, v, hurt)
    _ops(g)
    force(g, [])  # any roll would raise
    g.step(enc(K.DRIVE, Direction.SE))  # B1
    g.step(enc(K.DRIVE, Direction.NE))  # C1
    assert hurt.hex == drv.hex == v.hex == g.board.index("C1")
    assert hurt.status == Status.INCAPACITATED


def test_the_fallen_aboard_cannot_be_dragged():
    """seed 002, p. 26: dragging is for the fallen in the hex, not those riding."""
    g = fresh_game()
    clear_board(g, keep=2)
    put(g, 0, "A2")
    hurt = put(g, 1, "A2")
    hurt.status = int(Status.INCAPACITATED)
    v = park(g, JEEP, "A2")
    seat(g, v, hurt)
    _ops(g)
    assert K.DRAG not in kinds(g) and K.LOAD not in kinds(g)


# ============================================================================ seed 002 p. 27
def test_boarding_an_unmanned_german_car_captures_it():
    """seed 002, p. 27: vehicles other than tanks may be captured."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "C2")
    v = park(g, KUBEL, "C2")
    assert v.side == Side.GERMAN and not v.captured
    _ops(g)
    evs = g.step(enc(K.BOARD_VEHICLE, KUBEL))
    assert v.side == Side.US and v.captured and v.driver == us.uid
    assert events_of(evs, "vehicle_captured")[0]["vehicle"] == "V2"


def test_captured_car_ds0_cannot_drive_but_may_ride():
    """seed 002, p. 27: the driver's DS counts 1 lower, so a DS 0 soldier cannot drive one."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "C2")
    us.DS = 0
    v = park(g, KUBEL, "C2")
    _ops(g)
    g.step(enc(K.BOARD_VEHICLE, KUBEL))
    assert v.captured and v.driver == -1 and v.passengers == [us.uid]
    assert K.DRIVE not in kinds(g) and K.DRIVE_BACK not in kinds(g)
    assert V.board_refusal(g, us, v).startswith("he cannot drive a captured vehicle")
    us.DS = 1  # DS 1 drives it at 0
    g.state.turn.boarded = False
    g.invalidate()
    assert enc(K.BOARD_VEHICLE, KUBEL) in g.legal_actions()  # take the wheel
    g.step(enc(K.BOARD_VEHICLE, KUBEL))
    assert v.driver == us.uid and V.effective_ds(v, us) == 0


def test_own_jeep_ds0_may_drive():
    """seed 002, p. 27 applies to captured vehicles only: a DS 0 soldier drives his own jeep."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "A1")
    us.DS = 0
    v = park(g, JEEP, "A1", Direction.SE)
    _ops(g)
    g.step(enc(K.BOARD_VEHICLE, JEEP))
    assert v.driver == us.uid and enc(K.DRIVE, Direction.SE) in g.legal_actions()


def _fast_drive(g, v, drv, rolls):
    """Rounds: drive A1 -> B1 -> C1 -> D1 (clear, 2 MPs each: 6 > the slow MPA 5)."""
    park(g, v.vid, "A1", Direction.SE)
    seat(g, v, drv, driver=True)
    add_german(g, "rifleman", "R14", aware=False)  # keeps the Rounds going
    rounds(g)
    give_turn(g, drv)
    force(g, rolls)
    evs = g.step(enc(K.DRIVE, Direction.SE))
    evs += g.step(enc(K.DRIVE, Direction.NE))
    assert not events_of(evs, "accident_check")  # 4 MPs: within the slow MPA
    evs += g.step(enc(K.DRIVE, Direction.SE))
    return evs


@pytest.mark.parametrize("roll,passed", [(1, True), (2, False)])
def test_captured_car_accident_check_uses_ds_minus_one(roll, passed):
    """seed 002, p. 27 with seed 000 p. 32: a captured car's driver checks at DS − 1
    (DS 2 → passes on 0-1)."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A1")
    drv.DS = 2
    v = g.state.vehicles[KUBEL]
    v.side, v.captured = int(Side.US), True
    evs = _fast_drive(g, v, drv, [roll, 0])  # check; table 0 = no effect
    ac = events_of(evs, "accident_check")
    assert len(ac) == 1 and ac[0]["need"] == 1 and ac[0]["roll"] == roll
    assert ac[0]["result"] == ("passed" if passed else "none")


def test_tanks_cannot_be_boarded_or_captured():
    """seed 002, p. 27: any vehicle *but tanks*; seed 000 p. 31: nobody can board a tank."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "C2")
    tank = Vehicle(
        vid=2, type="panzer_iv", side=int(Side.GERMAN), name="V3", hex=g.board.index("C2")
    )
    g.state.vehicles.append(tank)
    g.invalidate()
    assert V.board_refusal(g, us, tank) == "nobody can board a tank (seed 000 p. 31)"
    _ops(g)
    assert enc(K.BOARD_VEHICLE, 2) not in g.legal_actions()


def test_mission_takes_tanks_and_refuses_wrong_sides():
    """Issue 11: a German tank in ``german_vehicles`` loads (crewed, module tanks); a vehicle
    of the other side does not."""
    m = load_mission("farm_assault")
    ok = m.model_copy(update={"german_vehicles": (GermanVehicle(vehicle="panzer_iv", hex="C2"),)})
    check_vehicles(ok, "test.yaml")
    bad = m.model_copy(update={"german_vehicles": (GermanVehicle(vehicle="sherman", hex="C2"),)})
    with pytest.raises(DataError, match="german_vehicles.0.vehicle.*us vehicle"):
        check_vehicles(bad, "test.yaml")
    bad = m.model_copy(update={"german_vehicles": (GermanVehicle(vehicle="jeep", hex="C2"),)})
    with pytest.raises(DataError, match="german_vehicles.0.vehicle.*us vehicle"):
        check_vehicles(bad, "test.yaml")


def test_captured_radio_is_carried_but_unusable():
    """seed 002, p. 27: radios (taken with a Pick Up) are unusable: no order uses one."""
    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "C2")
    us.equipment = []
    ger = add_german(g, "rifleman", "C2")
    ger.status = int(Status.KILLED)
    _ops(g)
    before = kinds(g)
    slots = [a - O.ORDER_BASE[K.PICK_UP] for a in g.legal_actions() if O.decode(a)[0] == K.PICK_UP]
    from ambush_env.core.rules.carry import items_here

    here = items_here(g, us.hex)
    k = next(i for i in slots if here[i][2] == "radio")
    g.step(enc(K.PICK_UP, k))
    assert us.equipment == ["radio"] and us.weapon == "m1_garand" or us.weapon
    _ops(g)  # next pulse: his orders are those of any soldier with a full port box
    after = kinds(g)
    assert after - before <= {K.DROP}
    assert not any(k.name.startswith("RADIO") for k in K)


# ============================================================================ seed 000: driving
def test_vehicle_costs_and_refusals():
    """RULES.md §12 ⚙ chart: road 1, clear 2, woods 4 (small only); never a building, a wall."""
    g = fresh_game()
    b = g.board
    small, large = V.cost_row(g, False), V.cost_row(g, True)

    def cost(row, a, d):
        return row[b.index(a) * 6 + int(d)]

    assert cost(small, "A8", Direction.SE) == 1  # B8 road
    assert cost(small, "C1", Direction.SE) == 2  # D1 clear
    assert cost(small, "D1", Direction.S) == 4  # D2 woods
    assert cost(large, "D1", Direction.S) == -1  # large vehicles never enter woods
    assert cost(small, "L5", Direction.S) == -1  # L6: a building
    assert cost(small, "M5", Direction.S) == -1  # M6 across a stone wall
    assert cost(small, "L5", Direction.NE) == 2  # M5 (no wall there): clear


def test_at_most_two_vehicles_in_a_hex():
    """seed 000, p. 30: at most two vehicles, disabled ones included, per hex."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A1")
    v = park(g, JEEP, "A1", Direction.SE)
    seat(g, v, drv, driver=True)
    park(g, KUBEL, "B1")
    _ops(g)
    assert enc(K.DRIVE, Direction.SE) in g.legal_actions()  # one there: may enter
    g.state.vehicles.append(
        Vehicle(vid=2, type="staff_car", side=1, name="V3", hex=g.board.index("B1"), disabled=True)
    )
    g.invalidate()
    assert enc(K.DRIVE, Direction.SE) not in g.legal_actions()
    assert enc(K.DRIVE, Direction.S) in g.legal_actions()


def test_operations_drive_is_one_hex_and_free_boarding_once():
    """RULES.md §5: one Operations action is "drive a vehicle one hex"; seed 000 p. 30-31: no
    Accident Checks; getting in is free (⚙ once per Operations action, so an action cannot
    loop in and out)."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A8")
    v = park(g, JEEP, "A8", Direction.SE)
    _ops(g)
    g.step(enc(K.BOARD_VEHICLE, JEEP))
    assert g.acting_unit() is drv and K.LEAVE_VEHICLE not in kinds(g)
    force(g, [])
    g.step(enc(K.DRIVE, Direction.SE))
    assert v.hex == g.board.index("B8") and v.facing == Direction.SE
    assert g.state.pulse == 1  # the drive ended at one hex: his action, and the pulse, are over
    assert K.DRIVE in kinds(g) and g.state.turn.mode == ""  # a new pulse: a new drive


def test_drive_back_keeps_facing():
    """seed 000, p. 30: a vehicle backs into the hex behind it; turning costs nothing."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "B1")
    v = park(g, JEEP, "B1", Direction.NE)
    seat(g, v, drv, driver=True)
    _ops(g)
    g.step(enc(K.DRIVE_BACK))
    assert v.hex == g.board.index("A2") and v.facing == Direction.NE


@pytest.mark.parametrize("roll,passed", [(3, True), (4, False)])
def test_fast_driving_makes_one_accident_check(roll, passed):
    """seed 000, p. 30, 32: exceeding the slow MPA makes an Accident Check: at or below the
    driver's DS (US1: 3) nothing happens."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A1")
    v = g.state.vehicles[JEEP]
    evs = _fast_drive(g, v, drv, [roll, 0])
    ac = events_of(evs, "accident_check")
    assert len(ac) == 1 and ac[0]["need"] == 3
    assert ac[0]["result"] == ("passed" if passed else "none")


@pytest.mark.parametrize(
    "table,expect", [(0, "none"), (4, "stop"), (6, "skid"), (8, "shot_tyre"), (9, "overturn")]
)
def test_accident_table(table, expect):
    """RULES.md §12 ⚙ Accident Table: 0-3 none, 4-5 stop, 6-7 skid, 8 shot tyre, 9 overturn."""
    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A1")
    rider = put(g, 1, "A1")
    v = g.state.vehicles[JEEP]
    park(g, JEEP, "A1", Direction.SE)
    seat(g, v, rider)
    rolls = [9, table] + ([0, 0] if expect == "overturn" else [])
    evs = _fast_drive(g, v, drv, rolls + [0] * 20)
    ac = events_of(evs, "accident_check")[0]
    assert ac["result"] == expect
    if expect == "stop":
        assert events_of(evs, "vehicle_stops") and g.acting_unit() is not drv
    if expect == "skid":
        assert v.hex == g.board.index("E2")  # one hex on, facing SE from D1 (E2 woods: small car)
    if expect == "shot_tyre":
        assert v.tyre_shot and V.mpa(v) == (5, 5)  # no more fast driving
    if expect == "overturn":
        assert v.disabled and drv.vehicle == rider.vehicle == -1
        assert drv.stance == rider.stance == Stance.PRONE
        assert len(events_of(evs, "damage_roll")) == 2  # each occupant rolls (bolt rifle)


@pytest.mark.parametrize("check,dodge,hit", [(3, None, False), (4, 9, True), (9, 0, False)])
def test_running_over_friends(check, dodge, hit):
    """seed 000, p. 33: against friends a passed Accident Check misses them; else each active
    one dodges on a PC check; those who fail are hit (car: bolt-rifle damage, then one roll
    on the Accident Table for the car). Rounds."""
    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A1")
    friend = put(g, 1, "B1")
    v = park(g, JEEP, "A1", Direction.SE)
    seat(g, v, drv, driver=True)
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    give_turn(g, drv)
    # US1 DS 3: a roll of 3 passes the check (missed), 4 or more fails (they are in the way)
    passes = check <= drv.DS
    rolls = [check] + ([] if passes else [dodge]) + ([9, 0] if hit else [])
    force(g, rolls)
    evs = g.step(enc(K.DRIVE, Direction.SE))
    if passes:
        assert not events_of(evs, "dodge") and not events_of(evs, "run_over")
        return
    assert events_of(evs, "dodge")[0]["dodged"] is (dodge <= friend.PC)
    assert bool(events_of(evs, "run_over")) is hit
    if hit:
        assert friend.status == Status.KILLED  # bolt rifle 9 = kill
    assert g.dice.forced_left == 0


# ============================================================================ fire at a car
def _jeep_under_fire(weapon="kar98"):
    g = fresh_game()
    clear_board(g, keep=3)
    drv = put(g, 0, "A2")
    p1 = put(g, 1, "A2")
    p2 = put(g, 2, "A2")
    v = park(g, JEEP, "A2", Direction.N)
    seat(g, v, drv, driver=True)
    seat(g, v, p1)
    seat(g, v, p2)
    ger = add_german(g, "rifleman", "B2")
    ger.weapon = weapon
    ger.ammo = g.weapon(weapon).clip
    return g, v, drv, p1, p2, ger


def test_soldiers_in_a_car_are_fired_at_as_the_car():
    """seed 000, p. 31: a vehicle and its occupants are one target; no occupant is singled
    out. A German card's fire at a rider resolves against the car."""
    from engine_helpers import german_action

    from ambush_env.core.rules.fire import fire_refusal

    g, v, drv, p1, p2, ger = _jeep_under_fire()
    rounds(g)
    assert fire_refusal(g, ger, p1, snap=False) == f"{p1.name} is in a vehicle: fire at the vehicle"
    force(g, [0, 5, 0, 0])  # hit, chart 5 = tyres, penetration 0 = none, accident check 0
    assert german_action(g, ger, "fire", {"mode": "aimed"})
    # tyres hit: no penetration, but a wheel hit forces an Accident Check (seed 000 p. 32)
    ev = g._take_events()
    fv = events_of(ev, "fire_vehicle")[0]
    assert fv["vehicle"] == "V1" and fv["part"] == "tyres" and fv["result"] == "none"
    assert events_of(ev, "accident_check")[0]["result"] == "passed" and not v.tyre_shot


@pytest.mark.parametrize("hit_roll", [0, 9])
def test_fire_at_car_hits_or_misses(hit_roll):
    """RULES.md §8 to-hit with the size modifier (small +1, seed 000 p. 30)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    n, mods = VF.vehicle_fire_refusal(g, ger, v, snap=False), None
    assert n is None
    from ambush_env.core.rules.fire import to_hit_vehicle

    n, mods = to_hit_vehicle(g, ger, v.hex, "small", snap=False)
    assert ("vehicle_small", 1) in mods
    # a hit: chart 7 = body, penetration 0 = none, then the body hit's Accident Check (0)
    force(g, [hit_roll, 7, 0, 0] if hit_roll <= n else [hit_roll])
    evs = VF.fire_at_vehicle(g, ger, v, snap=False)
    assert evs[0].result == ("miss" if hit_roll > n else "none")


@pytest.mark.parametrize("dmg,expect_check", [(5, "check"), (9, "automatic"), (0, "check")])
def test_driver_hit_forces_accident(dmg, expect_check):
    """seed 000, p. 31-32: a driver panicked or wounded → Accident Check; incapacitated or
    killed → automatic accident (straight to the table); Accident Checks are "made when a
    car's driver, wheels or body is hit", so a hit that does no damage checks too."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    force(g, [0, 0, dmg, 0, 0])  # hit, chart 0 = driver, damage, then check/table rolls
    evs = VF.fire_at_vehicle(g, ger, v, snap=False)
    ac = [e for e in g._take_events() if e["type"] == "accident_check"]
    assert evs[0].part == "driver" and evs[0].unit == drv.name
    if expect_check == "check":
        assert drv.wounded is (dmg == 5) and "roll" in ac[0] and len(ac) == 1
    else:
        assert drv.status == Status.KILLED and "roll" not in ac[0] and ac[0]["table_roll"] == 0


def test_passenger_hit_picks_a_passenger():
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    force(g, [0, 2, 1, 9])  # hit, chart 2 = passenger, which: 1 (p2), damage 9 = kill
    evs = VF.fire_at_vehicle(g, ger, v, snap=False)
    assert evs[0].unit == p2.name and p2.status == Status.KILLED and p1.status == Status.ACTIVE


def test_aimed_automatic_fire_goes_through_the_car_while_lower():
    """seed 002, p. 27 (and seed 000 p. 31: only aimed automatic fire hits more than one)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire("mp40")
    # jam check 0, hit 0, chart 2 passenger, which 0 (p1), damage 7; chain: p2 rolls 5 (< 7:
    # hit), the driver rolls 5 (not lower than 5): stops
    force(g, [0, 0, 2, 0, 7, 5, 5])
    VF.fire_at_vehicle(g, ger, v, snap=False)
    assert p1.wounded and p2.wounded and not drv.wounded
    assert g.dice.forced_left == 0


@pytest.mark.parametrize("pen,disabled", [(5, True), (4, False)])
def test_body_penetrated_disables_and_puts_occupants_out(pen, disabled):
    """seed 000, p. 31: a penetrated body disables the car; its occupants are placed prone
    outside and lose the rest of the turn. A bolt rifle's penetration 5 = light passes an
    unarmoured surface (RULES.md §11); 4 = none, then the body hit forces an Accident Check."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    rounds(g)
    p1.ar = int(ARSpace.ONE_TURN)
    force(g, [0, 8, pen] + ([] if disabled else [0]))
    VF.fire_at_vehicle(g, ger, v, snap=False)
    assert v.disabled is disabled
    if disabled:
        assert all(u.vehicle == -1 and u.stance == Stance.PRONE for u in (drv, p1, p2))
        assert p1.ar == ARSpace.ONE_TURN and v.occupants == []  # not playing a turn: kept
    assert g.dice.forced_left == 0


def test_panzerfaust_hit_on_occupant_blasts_the_others_and_disables():
    """seed 000, p. 31: an explosive hit on a passenger: his personnel result, Grenade Inside
    (prone) for everyone else, and the car is disabled."""
    g, v, drv, p1, p2, ger = _jeep_under_fire("panzerfaust")
    ger.prepared = True
    force(g, [0, 2, 0, 9, 0, 0])  # hit, passenger, p1, kill; others roll 0 (−2 prone → 0)
    VF.fire_at_vehicle(g, ger, v, snap=False)
    assert p1.status == Status.KILLED and v.disabled
    assert drv.status == Status.ACTIVE and p2.status == Status.ACTIVE


# ============================================================================ blasts
@pytest.mark.parametrize("roll,disabled", [(7, True), (6, False)])
def test_grenade_in_car_hex(roll, disabled):
    """seed 000, p. 32: a grenade in the car's hex disables it on incapacitated or kill on
    Grenade Outside (7+), then each occupant rolls once (stance ignored)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    force(g, [roll, 0, 0, 0])
    explode(g, v.hex, "grenade", ger, scattered=False, may_throw_out=False)
    assert v.disabled is disabled
    assert g.dice.forced_left == 0


def test_satchel_next_to_a_car_always_disables_it():
    """seed 000, p. 33: a satchel charge into or next to a car always disables it."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    ger.hex = g.board.index("C3")
    force(g, [0, 0])  # only the German standing in B2 ... and nobody else rolls
    explode(g, g.board.index("B2"), "satchel", ger, scattered=False, may_throw_out=False)
    assert v.disabled and drv.status == Status.ACTIVE


# ============================================================================ riders' orders
def test_riders_orders_in_rounds():
    """seed 000, p. 31-32: no stance change or step on foot inside; passengers fire aimed or
    snap, the driver one snap; getting out costs 1 MP."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    rounds(g)
    give_turn(g, p1)
    ks = kinds(g)
    assert K.STANCE not in ks and K.MOVE not in ks and K.GRENADE not in ks
    assert {K.FIRE_AIMED, K.FIRE_SNAP, K.LEAVE_VEHICLE} <= ks
    give_turn(g, drv)
    ks = kinds(g)
    assert K.FIRE_SNAP in ks and K.FIRE_AIMED not in ks and K.DRIVE in ks
    give_turn(g, p2)
    g.step(enc(K.LEAVE_VEHICLE))
    t = g.state.turn
    assert p2.vehicle == -1 and t.mode == "move" and t.mp_left == p2.MV - 1
    assert K.MOVE in kinds(g)


# ============================================================================ data
def _broken(tmp_path, mutate):
    import yaml

    from ambush_env.core.world.data import data_path

    raw = yaml.safe_load(data_path("vehicles.yaml").read_text(encoding="utf-8"))
    mutate(raw)
    p = tmp_path / "vehicles.yaml"
    p.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    "mutate,field,problem",
    [
        (
            lambda r: r["vehicles"]["jeep"]["hit_chart"].__setitem__(0, "turret"),
            "vehicles.jeep",
            "hit_chart[0] names 'turret'",
        ),
        (
            lambda r: r["vehicles"]["jeep"].__setitem__("fast_mpa", 4),
            "vehicles.jeep",
            "must exceed",
        ),
        (lambda r: r["move_costs"].pop("woods"), "move_costs", "missing ['woods']"),
        (lambda r: r["move_costs"].__setitem__("building", 3), "move_costs", "never enter"),
        (lambda r: r["accident_table"].pop(), "accident_table", "at least 10"),
        (
            lambda r: r["vehicles"]["panzer_iv"]["parts"].__setitem__("crew", "light"),
            "vehicles.panzer_iv",
            "occupant part 'crew'",
        ),
    ],
)
def test_malformed_vehicle_file_names_file_and_field(tmp_path, mutate, field, problem):
    """docs/STYLE.md habit 3: a bad vehicles.yaml fails with its path and the offending field."""
    p = _broken(tmp_path, mutate)
    with pytest.raises(DataError) as exc:
        V.load_vehicle_data(str(p))
    msg = str(exc.value)
    assert str(p) in msg and field in msg and problem in msg, msg


def test_invented_vehicle_numbers_are_sane():
    """RULES.md §8/§12 ⚙ sanity: the cost chart rises with rougher ground; every car chart can
    hit the driver, a passenger, the tyres and the body, driver least often; the accident
    table is mostly harmless and overturning is the rarest; heavier vehicles are no less
    armoured than lighter ones."""
    d = V.load_vehicle_data()
    c = d.move_costs
    assert c["road"] < c["clear"] < c["brush"] <= c["woods"]
    for t in d.vehicles.values():
        chart = list(t.hit_chart)
        if t.kind == "car":
            assert {"driver", "passenger", "tyres", "body"} <= set(chart)
            assert chart.count("driver") <= chart.count("passenger")
        else:
            assert "crew" in chart and t.size == "large"
    acc = list(d.accident_table)
    assert acc.count("none") >= 4 and acc.count("overturn") == 1
    rank = {"unarmoured": 0, "light": 1, "medium": 2, "heavy": 3}
    pz, jp = d.vehicles["panzer_iv"].parts, d.vehicles["jagdpanther"].parts
    assert all(rank[jp[p]] >= rank[pz[p]] for p in pz if p != "crew")


# ============================================================================ more situations
def test_take_the_wheel_from_a_fallen_driver():
    """seed 000, p. 31: seats may be changed; a passenger takes the wheel from a driver who was
    incapacitated (he is moved to a passenger seat)."""
    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A1")
    p1 = put(g, 1, "A1")
    v = park(g, JEEP, "A1")
    seat(g, v, drv, driver=True)
    seat(g, v, p1)
    assert V.board_refusal(g, p1, v) == "the driver's seat is taken"
    drv.status = int(Status.INCAPACITATED)
    drv.ar = int(ARSpace.INACTIVE)
    _ops(g, 1)
    g.step(enc(K.BOARD_VEHICLE, JEEP))
    assert v.driver == p1.uid and v.passengers == [drv.uid]


@pytest.mark.parametrize("dmg,check", [(5, True), (0, False)])
def test_driver_wounded_by_a_grenade_makes_an_accident_check(dmg, check):
    """seed 000, p. 32: an Accident Check when the driver is panicked or wounded by combat
    (a grenade in the hex: the car rolls Grenade Outside, then each occupant)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    # car 0 (no effect); occupants in seat order: driver dmg, p1 0, p2 0; then the check 0
    force(g, [0, dmg, 0, 0] + ([0] if check else []))
    explode(g, v.hex, "grenade", ger, scattered=False, may_throw_out=False)
    ac = [e for e in g._take_events() if e["type"] == "accident_check"]
    assert bool(ac) is check and drv.wounded is check
    assert g.dice.forced_left == 0


@pytest.mark.parametrize("taken", [True, False])
def test_casualty_evacuated_by_jeep_off_the_map(taken):
    """seed 002, p. 26 in play: load an incapacitated comrade (survives on a 1), get in, drive
    to the exit edge and leave: the driver scores the exit VP — once the farm is taken, ⚙
    nothing before (farm_assault's ``vp.exits: after_objective``, issue 25) — and the casualty
    leaves with the car and still counts as a casualty only (RULES.md §15 VP)."""
    from ambush_env.core.model.types import OBJECTIVE_TAKEN

    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "P1")
    hurt = put(g, 1, "P1")
    hurt.status = int(Status.INCAPACITATED)
    hurt.ar = int(ARSpace.INACTIVE)
    v = park(g, JEEP, "P1", Direction.SE)
    if taken:
        g.state.flags.append(OBJECTIVE_TAKEN)  # the farm fell earlier (its VP not awarded here)
    vp0, cas0 = g.state.vp, g.casualty_vp()
    _ops(g)
    force(g, [1])
    g.step(enc(K.LOAD, JEEP))  # his Operations action; the pulse ends (he is the only one)
    assert hurt.vehicle == JEEP and hurt.status == Status.INCAPACITATED
    _ops(g)
    g.step(enc(K.BOARD_VEHICLE, JEEP))
    b = g.board
    d = b.direction(b.index("P1"), b.index("Q1"))
    g.step(enc(K.DRIVE, d))
    d = b.direction(b.index("Q1"), b.index("R1"))
    g.step(enc(K.DRIVE, d))
    assert v.hex == b.index("R1") and enc(K.EXIT_MAP) in g.legal_actions()
    evs = g.step(enc(K.EXIT_MAP))
    assert v.exited and v.hex == -1 and drv.exited and drv.status == Status.REMOVED
    assert hurt.exited and hurt.hex == -1 and hurt.status == Status.INCAPACITATED
    assert g.casualty_vp() == cas0
    # the exit is a state query (Match.exit_vp), never an award: the driver and the jeep, not
    # the man carried off
    vp = g.mission.vp
    paid = vp.exit_per_soldier + vp.vehicle_exited if taken else 0
    assert events_of(evs, "vehicle_exit") and g.state.vp == vp0 and g.exit_vp() == paid
    assert g.vp == vp0 + cas0 + paid
    # the benchmark's exit count is of the men who left alive: the driver, not the casualty
    assert g.stats()["us_exited"] == 1


def test_soldier_beside_a_vehicle_counts_as_in_cover():
    """seed 000, p. 31: a soldier outside a vehicle in its hex counts as in cover unless his
    terrain is better (⚙ vehicle cover −1, weapons.yaml); riders are fired at as the car."""
    from ambush_env.core.rules.fire import to_hit

    g = fresh_game()
    clear_board(g, keep=2)
    us = put(g, 0, "A2")  # clear: no cover of its own
    ger = add_german(g, "rifleman", "C2")
    n0, mods0 = to_hit(g, ger, us, snap=False)
    assert not any(k.startswith("cover") for k, _ in mods0)
    park(g, JEEP, "A2")
    n1, mods1 = to_hit(g, ger, us, snap=False)
    assert ("cover_vehicle", -1) in mods1 and n1 == n0 - 1
    # in woods (cover -2) the vehicle adds nothing: his terrain is better
    put(g, 0, "D2")
    park(g, JEEP, "D2")
    n2, mods2 = to_hit(g, ger, us, snap=False)
    assert ("cover_woods", -2) in mods2 and not any(k == "cover_vehicle" for k, _ in mods2)


# ============================================================================ found by review
def test_incapacitated_riders_are_no_target_of_fire_at_the_car():
    """seed 002, p. 26: an incapacitated soldier is not a target in a hex fired into: the Hit
    Chart's passenger hit falls on an active passenger; a fallen driver's seat is empty."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    p1.status = int(Status.INCAPACITATED)
    force(g, [0, 2, 0, 9])  # hit, passenger, the only active one (p2), kill
    VF.fire_at_vehicle(g, ger, v, snap=False)
    assert p2.status == Status.KILLED and p1.status == Status.INCAPACITATED
    drv.status = int(Status.INCAPACITATED)
    p2.status = int(Status.ACTIVE)  # someone active aboard: the car is a target (vehicle_fire)
    force(g, [0, 0])  # hit, driver: his seat counts as empty
    evs = VF.fire_at_vehicle(g, ger, v, snap=False)
    assert evs[0].result == "empty seat" and drv.status == Status.INCAPACITATED
    assert g.dice.forced_left == 0


def test_aimed_automatic_chain_skips_the_fallen_aboard():
    """seed 002, p. 26-27: the chain goes on to the next *target*; the incapacitated is none."""
    g, v, drv, p1, p2, ger = _jeep_under_fire("mp40")
    p2.status = int(Status.INCAPACITATED)
    # jam 0, hit 0, passenger (p1 the only active), damage 7; chain: p2 skipped, driver 5 < 7
    # (wounded: his Accident Check, 0, passes)
    force(g, [0, 0, 2, 0, 7, 5, 0])
    VF.fire_at_vehicle(g, ger, v, snap=False)
    assert p1.wounded and drv.wounded and p2.status == Status.INCAPACITATED
    assert g.dice.forced_left == 0


def test_explosive_hit_on_an_empty_seat_still_disables():
    """seed 000, p. 31 ⚙: a bazooka-class hit on a seat still bursts inside the car."""
    g, v, drv, p1, p2, ger = _jeep_under_fire("panzerfaust")
    v.passengers = []
    p1.vehicle = p2.vehicle = -1
    ger.prepared = True
    force(g, [0, 2, 0])  # hit, passenger seat (empty); the driver rolls Grenade Inside (0)
    evs = VF.fire_at_vehicle(g, ger, v, snap=False)
    assert evs[0].result == "empty seat" and v.disabled and drv.vehicle == -1


def test_incapacitated_germans_are_not_run_over():
    """seed 002, p. 26: he cannot be attacked on purpose; driving into his hex rolls nothing."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A1")
    v = park(g, JEEP, "A1", Direction.SE)
    seat(g, v, drv, driver=True)
    hurt = add_german(g, "rifleman", "B1")
    hurt.status = int(Status.INCAPACITATED)
    hurt.ar = int(ARSpace.INACTIVE)
    _ops(g)
    force(g, [])
    evs = g.step(enc(K.DRIVE, Direction.SE))
    assert not events_of(evs, "run_over_check") and hurt.status == Status.INCAPACITATED


def test_second_run_over_try_costs_a_sharp_turn_and_a_check():
    """seed 000, p. 33: to try again in the same turn the vehicle leaves the hex, turns sharply
    for 1 MP and passes another Accident Check before coming back (Rounds)."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A8")
    v = park(g, JEEP, "A8", Direction.SE)
    seat(g, v, drv, driver=True)
    ger = add_german(g, "rifleman", "B8")
    rounds(g)
    give_turn(g, drv)
    # first try: check 3 passes (DS 3: hits them), dodge 0 → dodged
    force(g, [3, 0])
    g.step(enc(K.DRIVE, Direction.SE))  # B8, 1 MP
    g.step(enc(K.DRIVE_BACK))  # A8, 2 MPs
    t = g.state.turn
    assert t.mp_spent == 2 and t.run_over_hexes == [g.board.index("B8")]
    # coming back: the sharp turn's check (3: passes) and 1 MP more, then the run-over check
    force(g, [3, 3, 0])
    evs = g.step(enc(K.DRIVE, Direction.SE))
    assert events_of(evs, "sharp_turn") and t.mp_spent == 4
    kinds_ = [e["type"] for e in evs if e["type"] in ("accident_check", "run_over_check", "dodge")]
    assert kinds_ == ["accident_check", "run_over_check", "dodge"]
    assert ger.status == Status.ACTIVE and g.dice.forced_left == 0


def test_no_running_over_in_operations():
    """⚙ Operations make no Accident Checks (seed 000 p. 30), so nobody is run over; the drive
    is one hex (RULES.md §5), so there is no second try either."""
    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A8")
    friend = put(g, 1, "B8")
    v = park(g, JEEP, "A8", Direction.SE)
    seat(g, v, drv, driver=True)
    _ops(g)
    force(g, [])
    evs = g.step(enc(K.DRIVE, Direction.SE))
    assert not events_of(evs, "run_over_check") and friend.status == Status.ACTIVE
    assert v.hex == friend.hex and g.state.turn.uid != drv.uid


@pytest.mark.parametrize("roll,disabled", [(6, False), (7, True)])
def test_car_in_a_boobytrapped_hex(roll, disabled):
    """seed 000, p. 32: in a boobytrapped hex the driver makes a Perception Check; failure
    disables the car and panics the occupants (Rounds). The check is the mission's own
    (Farm Assault paragraph 51, PC −1: US1 PC 6 passes on 0-5); the trap going off
    (paragraph 53) is its failure: no second roll, no damage roll for those aboard."""
    from engine_helpers import run_paragraph

    g = fresh_game()
    clear_board(g, keep=2)
    drv = put(g, 0, "A1")
    p1 = put(g, 1, "A1")
    v = park(g, JEEP, "A1")
    seat(g, v, drv, driver=True)
    seat(g, v, p1)
    add_german(g, "rifleman", "R14", aware=False)
    rounds(g)
    p1.ar = int(ARSpace.ONE_TURN)
    force(g, [roll - 1])  # the perception check at PC − 1: pass on 0-5
    run_paragraph(g, 51, drv)
    assert v.disabled is disabled
    assert p1.panicked is disabled and drv.panicked is disabled
    assert not drv.wounded and not p1.wounded  # no damage roll for those aboard
    assert g.dice.forced_left == 0


def test_wounded_driver_wounded_again_is_an_automatic_accident():
    """seed 002, p. 26 (a second wound incapacitates) with seed 000 p. 32 (an incapacitated
    driver is an automatic accident: no check roll)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    drv.wounded = True
    force(g, [0, 0, 5, 0])  # hit, driver, wound → incapacitated; the table roll 0
    VF.fire_at_vehicle(g, ger, v, snap=False)
    ac = [e for e in g._take_events() if e["type"] == "accident_check"]
    assert drv.status == Status.INCAPACITATED and "roll" not in ac[0] and ac[0]["table_roll"] == 0
    assert g.dice.forced_left == 0


def test_riders_do_not_throw_out_a_grenade():
    """seed 000, p. 32: no grenades from a car, so nobody aboard throws a live one out; the
    grenade goes off in the hex (RULES.md §9)."""
    g, v, drv, p1, p2, ger = _jeep_under_fire()
    force(g, [0, 0, 0, 0])  # the car's roll, then each occupant's: no throw-out check
    evs = explode(g, v.hex, "grenade", ger, scattered=False)
    assert not [e for e in evs if e.type == "throw_out"] and g.dice.forced_left == 0


def test_second_try_needs_the_sharp_turn_check_passed():
    """seed 000, p. 33: "pass another Accident Check and come back": a failed check (here a
    table result of no effect) keeps the car out of the hex."""
    g = fresh_game()
    clear_board(g, keep=1)
    drv = put(g, 0, "A8")
    v = park(g, JEEP, "A8", Direction.SE)
    seat(g, v, drv, driver=True)
    ger = add_german(g, "rifleman", "B8")
    rounds(g)
    give_turn(g, drv)
    force(g, [3, 0])  # first try: check passes (hits them), he dodges
    g.step(enc(K.DRIVE, Direction.SE))
    g.step(enc(K.DRIVE_BACK))
    force(g, [9, 0])  # the sharp turn's check fails (9 > DS 3), table 0: no effect
    evs = g.step(enc(K.DRIVE, Direction.SE))
    assert v.hex == g.board.index("A8") and not events_of(evs, "run_over_check")
    assert ger.status == Status.ACTIVE and g.state.turn.mp_spent == 3


def test_a_laid_down_weapon_keeps_its_jam():
    """RULES.md §8: a jam is cleared by a PC check; laying the weapon down and taking it up
    again does not clear it."""
    from ambush_env.core.rules.carry import items_here

    g = fresh_game()
    clear_board(g, keep=1)
    us = put(g, 0, "E5")
    us.jammed = True
    dead = add_german(g, "rifleman", "E5")
    dead.status = int(Status.KILLED)
    _ops(g)
    here = items_here(g, us.hex)
    g.step(enc(K.PICK_UP, next(i for i, x in enumerate(here) if x[2] == "weapon:kar98")))
    assert us.weapon == "kar98" and not us.jammed
    _ops(g)
    here = items_here(g, us.hex)
    k = next(i for i, x in enumerate(here) if x[2].startswith("weapon:thompson"))
    assert here[k][2].endswith(":jammed")
    g.step(enc(K.PICK_UP, k))
    assert us.weapon == "thompson" and us.jammed


def test_a_rider_wounded_aboard_keeps_his_seat_and_stance():
    """seed 000, p. 31: stance is ignored inside; a wound (seed 002 p. 26: he falls prone) does
    not change it aboard, and he gets out standing."""
    from ambush_env.core.rules.damage import apply_damage

    g, v, drv, p1, p2, ger = _jeep_under_fire()
    apply_damage(g, p1.uid, "wound")
    assert p1.wounded and p1.vehicle == JEEP and p1.stance == Stance.STANDING
    V.leave(g, p1)
    assert p1.vehicle == -1 and p1.stance == Stance.STANDING


def test_a_rider_fires_along_the_vehicle_line_of_sight():
    """seed 004 (vehicles and buildings): a rider's fire uses the sight of his vehicle, the
    same the sighting rules use; fire and sight never disagree for him."""
    from ambush_env.core.rules.fire import fire_refusal

    g = fresh_game()
    clear_board(g, keep=1)
    rider = put(g, 0, "L5")
    v = park(g, JEEP, "L5")
    seat(g, v, rider)
    target = add_german(g, "rifleman", "L6", stance=Stance.CROUCHING)
    sees = g.can_see(rider, target)
    why = fire_refusal(g, rider, target, snap=False)
    assert (why is None) is sees
    assert not sees  # a crouching soldier in the next building hex: only from a large vehicle
