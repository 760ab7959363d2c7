"""Seed 000 (vehicles), statement by statement (issue 11, done-when 1).

``STATEMENTS`` splits seed 000 (the vehicle rules) into what it tells the engine
to do or refuse, each with its page (and the two seed 002 p. 25 rules issue 11 names). Every
statement has exactly one home: rows of ``ROWS`` (a position, forced dice, orders as text and the
exact outcome, played by ``Game.from_position`` / ``force_rolls`` / ``play``), or, where a position
row cannot say it (a data table, a helper called directly), ``COVERED_ELSEWHERE``, naming the
test that does; ``test_every_statement_has_one_home`` and ``test_covered_elsewhere_exists`` hold
the two together.

Row expectations (all exact, checked after the orders are played):
  events    (type, fields) in order among the events of the orders (a dict field must be equal)
  absent    event types that must not occur
  units / vehicles   fields of ``g.position()``'s entries by name
  position  dotted fields of ``g.position()``
  legal     order texts that must be in ``legal_orders()``
  refused   order texts absent from ``legal_orders()`` whose integer ``Game.step`` refuses
            (``IllegalActionError``); each refusal row has a neighbour row (or ``legal``) that
            shows the allowed case
  none_with substrings that no legal order contains
The forced rolls are exactly those the orders use (``force_rolls`` is strict and the test
checks that none is left over).

Map (Farm Assault, data/missions/farm_assault.yaml): row 1 and most of rows 6-9 clear, the road
along row 8, woods D2, E2, C3-G3; the farmhouse L6/L7 and N6/N7 buildings, N10 rubble; no river
or crater (rows that need one change the board: ``terrain``). Hexside directions N, NE, SE, S,
SW, NW. Ratings: standard squad (configs/squads/standard.yaml), tank crews vehicles.yaml
``crew_ratings`` (crew 5: IN 3, PC 6, WS 2, DS 5).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from engine_helpers import find_in_order

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.types import TERRAIN_NAMES
from ambush_env.core.rules.ctx import Ctx
from ambush_env.core.world.board import load_board
from ambush_env.core.world.data import data_path, read_yaml

M = "farm_assault"

# ====================================================================== the statements
#: id -> (page, statement). Seed 000 unless the page says seed 002.
STATEMENTS: dict[str, tuple[str, str]] = {
    # -- introduction (p. 29)
    "us_acts_at_will": (
        "p. 29",
        "US vehicles act as you wish: a US driver or tank is given orders",
    ),
    "german_from_cards": ("p. 29", "German vehicles act from cards"),
    # -- attributes (p. 30)
    "size_modifier": ("p. 30", "Large vehicles are easier to hit than small ones (size modifier)"),
    "armour_threshold": (
        "p. 30",
        "Fire only matters if the penetration equals or exceeds the armour of the part hit",
    ),
    "cars_unarmoured": ("p. 30", "Cars are unarmoured"),
    "open_all_hit": ("p. 30", "Open: every occupant can be hit"),
    "closed_none_hit": ("p. 30", "Closed: nobody can be hit"),
    "closed_armoured_only": ("p. 30", "Only armoured vehicles can be closed"),
    "close_free_ops": ("p. 30", "Opening or closing is free in Operations"),
    "close_rounds_all_cp": (
        "p. 30, 33",
        "Open or close in Rounds takes all Crew Points; nothing else that turn",
    ),
    "car_seats": ("p. 30", "Cars carry a maximum including the driver"),
    "only_driver_drives": ("p. 30", "Only the driver drives"),
    "tank_no_passengers": ("p. 30", "Tanks carry no passengers; the crew never leaves"),
    "fast_accident": (
        "p. 30, 32",
        "The moment a vehicle exceeds its slow MPA it is moving fast and makes an Accident Check",
    ),
    "fast_only_open": ("p. 30, 33", "A closed tank cannot go fast (move fast only when open)"),
    "tyre_no_fast": ("p. 30, 31", "A car with a shot tyre cannot go fast"),
    "hit_chart_after_fire": ("p. 30-31", "A Hit Chart roll after every successful fire"),
    "blasts_no_chart": ("p. 30", "Grenades and satchel charges do not use the Hit Chart"),
    "summary_cars": (
        "p. 30, 40",
        "Jeep / Kübelwagen small open 4, 5/9 MPA; staff car small open 5, 5/10",
    ),
    "summary_tanks": (
        "p. 30, 40",
        "Panzer IV, Sherman, Jagdpanther large armoured crew 5, 3/6 MPA",
    ),
    # -- facing (p. 30)
    "forward_faces": (
        "p. 30",
        "A vehicle moves forward into the hex it faces; on entering it faces away from the hexside crossed",
    ),
    "backs": ("p. 30", "A vehicle backs into the hex behind it, keeping its facing"),
    "turn_free": ("p. 30", "Turning costs nothing"),
    "aspect_diagram": ("p. 30", "Front, side or rear comes from the facing diagram"),
    "same_hex_chooses": ("p. 30", "An attacker in the same hex chooses the aspect"),
    "german_aspect_random": (
        "p. 30",
        "A German attacker in the same hex chooses the aspect at random",
    ),
    # -- movement (p. 30-31)
    "active_driver": ("p. 30", "A vehicle moves only with an active driver or crew"),
    "para_check_per_hex": ("p. 30", "Operations: a Paragraph Check per hex driven"),
    "no_building": ("p. 30", "No vehicle enters a building"),
    "no_rubble": ("p. 30", "No vehicle enters rubble"),
    "no_river": ("p. 30", "No vehicle enters a river"),
    "no_woods_large": ("p. 30", "Large vehicles never enter woods (small ones may)"),
    "ops_no_accident": ("p. 30", "No Accident Checks in Operations"),
    "two_per_hex": ("p. 30", "At most two vehicles, disabled ones included, per hex"),
    "drive_is_the_turn": ("p. 30", "Rounds: the driver spends a turn on Drive Vehicle"),
    "tank_cp_drive": (
        "p. 30, 33",
        "Rounds: a tank crew spends Crew Points to move (slow 2, fast 3)",
    ),
    "mp_cost_chart": ("p. 30", "Pay the vehicle's cost per hex from the Movement Point Cost Chart"),
    "mpa_limit": ("p. 30", "Up to the slow or fast allowance in use"),
    "german_spend_all": ("p. 30", "German vehicles spend as much as they can"),
    "pass_through": ("p. 30", "Any number may pass through a hex"),
    "two_may_end": ("p. 30", "Two may end in a hex; a third may not end there"),
    "no_crater": ("p. 31", "Never drive into a crater on purpose"),
    "forced_crater": ("p. 31", "A forced crater entry costs 3 MPs and an immediate Accident Check"),
    # -- drivers, passengers, crew (p. 31)
    "stack_order": ("p. 31", "Occupants stack driver first, then Passenger 1, 2 ..."),
    "seats_free_ops": ("p. 31", "Getting in or out is free in Operations"),
    "seats_1mp_rounds": ("p. 31", "Getting in or out costs one Movement Point in Rounds"),
    "stance_ignored": ("p. 31", "Stance is ignored inside a vehicle"),
    "crew_ratings": ("p. 31", "The number of active crew sets the tank's IN, PC, WS and DS"),
    "no_boarding_tank": ("p. 31", "Nobody can board a tank"),
    "car_command": ("p. 31", "Car occupants obey command and receive turns from a commander"),
    "tank_no_command": ("p. 31", "Tank crews never receive turns from a commander"),
    "crew_panic": ("p. 31", "Tank crews panic only at IN 0-1 and an Action Round roll of 0-2"),
    "driver_panic_accident": (
        "p. 31-32",
        "A driver panicked or wounded by combat makes an immediate Accident Check",
    ),
    "ar_panic_stops": ("p. 31", "Panic from the Action Round Track just stops the vehicle"),
    # -- fire against vehicles (p. 31)
    "one_target": (
        "p. 31",
        "A vehicle and its occupants are one target; no occupant can be singled out",
    ),
    "passenger_row": ("p. 31", "Passenger hit: damage on the weapon's row"),
    "aimed_auto_more": ("p. 31", "Only aimed automatic fire can hit more than one passenger"),
    "bazooka_passenger": (
        "p. 31",
        "A bazooka on a passenger: Personnel on him, Grenade Inside prone on the rest; the car is disabled",
    ),
    "driver_hit": (
        "p. 31",
        "Driver hit: panic or wound forces an Accident Check, incapacitated or killed an automatic accident",
    ),
    "three_exposed": ("p. 31", "An open tank exposes three crew"),
    "crew_hit_one": ("p. 31", "A crew hit removes one crew member, no damage roll"),
    "bazooka_crew": (
        "p. 31",
        "A bazooka kills the crewman hit and rolls Bazooka Inside, prone, for the other exposed crew",
    ),
    "tyre_hit": ("p. 31", "A tyre hit stops fast driving"),
    "body_disables": ("p. 31", "A penetrated body disables"),
    "turret_mount": ("p. 31", "A penetrated turret or mount destroys a weapon"),
    "tread_immobilises": ("p. 31", "A penetrated tread immobilises"),
    "german_no_futile": (
        "p. 31",
        "A German will not shoot a closed tank with a weapon that cannot penetrate it",
    ),
    "explosive_outside": (
        "p. 31",
        "Explosive hits on a vehicle do not hurt soldiers outside it in the same hex",
    ),
    "beside_cover": (
        "p. 31",
        "A soldier outside a vehicle in its hex counts as in cover unless his terrain is better",
    ),
    "disabled_for_good": ("p. 31", "A disabled vehicle is out for the rest of the mission"),
    "immobilised_not_disabled": ("p. 31", "A tank can be immobilised without being disabled"),
    "car_disabled_out": (
        "p. 31",
        "A disabled car's occupants are placed prone outside and lose the rest of the turn",
    ),
    # -- fire from vehicles (p. 32)
    "passenger_fires": ("p. 32", "A car passenger fires his personal weapon aimed or snap at -2"),
    "driver_snap": ("p. 32", "The driver gets one snap fire at -2 (no aimed fire)"),
    "no_bazooka_car": ("p. 32", "No bazooka from a car"),
    "no_grenade_car": ("p. 32", "No grenades or satchel charges from a car"),
    "no_crew_weapon_car": ("p. 32", "No crew weapons from a car"),
    "briefing_allows": ("p. 32", "... unless a briefing says so"),
    "tank_no_minus2": ("p. 32", "Tanks fire their built-in weapons without the -2"),
    # -- tanks (p. 33)
    "tank_turns": ("p. 33", "A tank receives turns like a soldier"),
    "cp_per_crew": ("p. 33", "Up to one Crew Point per active crew member per turn"),
    "task_once": ("p. 33", "Each task at most once per turn"),
    "cannon_2": ("p. 33", "Aimed fire, cannon: 2 Crew Points"),
    "cannon_loaded": ("p. 33", "The cannon must be loaded"),
    "cannon_no_jam": ("p. 33", "The cannon never jams or runs dry"),
    "cannon_xor_coax": (
        "p. 33",
        "Cannon and coaxial MG not in the same turn (one of them per turn)",
    ),
    "load_1": ("p. 33", "Load cannon: 1 Crew Point"),
    "no_load_after_fire": ("p. 33", "No loading in a turn the cannon or coaxial MG fires"),
    "bow_cost": ("p. 33", "Bow MG aimed 2 / snap 1 Crew Points"),
    "bow_front": ("p. 33", "The bow MG fires only at targets in front"),
    "bow_jams": ("p. 33", "The bow MG can jam, never runs dry"),
    "coax_cost": ("p. 33", "Coaxial MG aimed 2 / snap 1 Crew Points"),
    "turret_any_dir": (
        "p. 33",
        "Panzer IV and Sherman: turret cannon and coaxial MG fire in any direction",
    ),
    "bow_with_turret": ("p. 33", "The bow MG may fire in the same turn as the cannon"),
    "jagd_front": ("p. 33", "Jagdpanther: cannon and bow MG fire only to the front"),
    "jagd_immobile_row": (
        "p. 33",
        "An immobilised Jagdpanther's cannon fires only down the hex row it faces",
    ),
    "own_hex_turret": (
        "p. 33",
        "A Panzer or Sherman can fire cannon or coaxial MG into its own hex",
    ),
    "jagd_no_own_hex": ("p. 33", "A Jagdpanther cannot fire into its own hex"),
    # -- German vehicles (p. 32)
    "tank_card_row": (
        "p. 32",
        "A German tank rolls one die on its card and reads the row for its crew size",
    ),
    "tank_card_as_far": (
        "p. 32",
        "It performs that paragraph's actions in order as far as Crew Points and state allow",
    ),
    "car_driving_column": ("p. 32", "A German car acts on its driver's driving column"),
    "wall_plus4": (
        "p. 32",
        "A tank told to fire at a soldier in a building fires its main gun at the wall at +4",
    ),
    "mg_stone_wall": ("p. 32", "Machineguns on a visible soldier behind a stone wall"),
    "gun_unseen": ("p. 32", "The main gun on a known but invisible (prone) soldier"),
    "fast_pays_slow": (
        "p. 32",
        "Ordered to Move Fast but using only the slow allowance, it pays the Move Slow Crew Points",
    ),
    # -- accident checks (p. 32)
    "accident_on_hit": ("p. 32", "An Accident Check when a car's driver, wheels or body is hit"),
    "accident_roll": (
        "p. 32",
        "Roll one die: at or below the driver's DS nothing happens; above it the Accident Table",
    ),
    # -- mines (p. 32)
    "tank_ignores_mines": ("p. 32", "Tanks ignore minefields; the minefield stays"),
    "tank_trap_gone": ("p. 32", "A boobytrap under a tank is eliminated"),
    "at_mines": (
        "p. 32",
        "Anti-tank mines go off only under a tank, immobilising it (a car is disabled)",
    ),
    "car_minefield": (
        "p. 32",
        "A car detonates a minefield automatically: disabled, every occupant panics",
    ),
    "car_boobytrap": (
        "p. 32",
        "In a boobytrapped hex the driver makes a Perception Check; failure disables the car",
    ),
    # -- grenades and satchels (p. 32-33)
    "grenade_aperture": (
        "p. 32",
        "Into an open tank as through an aperture; no non-adjacent penalty from its hex",
    ),
    "grenade_kills_crew": ("p. 32", "A grenade inside a tank kills the crew and disables it"),
    "closed_immune": ("p. 32", "Closed tanks are immune to grenades"),
    "satchel_tank": (
        "p. 32",
        "A satchel in the tank's hex disables it on incapacitated or kill (Satchel Outside)",
    ),
    "grenade_in_car": (
        "p. 32",
        "A grenade inside a car disables it; the occupants roll Grenade Inside as prone",
    ),
    "grenade_car_hex": (
        "p. 32",
        "A grenade in the car's hex disables it on incapacitated or kill (Grenade Outside), then once per occupant",
    ),
    "satchel_car": ("p. 33", "A satchel charge into or next to a car always disables it"),
    "scatter_same_hex": (
        "p. 33",
        "A failed throw from the vehicle's hex: 6-9 drops it outside, the thrower reacts without a check",
    ),
    "scatter_adjacent": ("p. 33", "From an adjacent hex 6-9 lands in the vehicle's hex"),
    "scatter_far": ("p. 33", "From further away Diagram A or B"),
    "no_scatter_in": ("p. 33", "A grenade never scatters back into a vehicle"),
    # -- running over (p. 33)
    "runover_check": (
        "p. 33",
        "Entering a hex with soldiers calls for an Accident Check: passed against friends misses them",
    ),
    "runover_enemy": ("p. 33", "Against enemies the check is passed to hit them"),
    "runover_dodge": (
        "p. 33",
        "Each active soldier in the way makes a Perception Check to dodge; those who fail are hit",
    ),
    "runover_tank_kills": ("p. 33", "A tank running a soldier over kills him"),
    "runover_car": ("p. 33", "A car rolls bolt-rifle damage and once more on the Accident Table"),
    "runover_retry": (
        "p. 33",
        "A second try: leave the hex, turn sharply for 1 MP, pass another check and come back",
    ),
    # -- seed 002, named by issue 11
    "guard_change": ("seed 002 p. 25", "Changing guard is free on the guard's turn"),
    "prisoner_mines": ("seed 002 p. 25", "Prisoners are never marched into (known) mines"),
}

#: Statements whose test cannot be a position row here (a data table, a helper of the rules
#: called directly, a German interpreter choice over an offered list): the test that covers it.
COVERED_ELSEWHERE: dict[str, str] = {
    "german_aspect_random": "tests/core/test_german_vehicles.py::test_a_german_fires_at_a_us_vehicle_aspect_at_random_from_its_hex",
    "armour_threshold": "tests/core/test_vehicle_fire.py::test_penetrated_body_disables_a_tank",
    "cars_unarmoured": "tests/core/test_vehicle_fire.py::test_rifles_still_hit_unarmoured_car_parts",
    "aspect_diagram": "tests/core/test_vehicle_fire.py::test_facing_diagram_adjacent_attacker",
    "forced_crater": "tests/core/test_blasts_mines.py::test_a_skid_into_a_crater_costs_3_mps_and_an_immediate_accident_check",
    "german_spend_all": "tests/core/test_german_vehicles.py::test_a_german_car_acts_on_its_drivers_driving_column",
    "car_driving_column": "tests/core/test_german_vehicles.py::test_drive_and_leave_vehicle_belong_to_a_driving_column",
    "tank_card_row": "tests/core/test_german_vehicles.py::test_a_smaller_crew_reads_another_row",
    "tank_card_as_far": "tests/core/test_german_vehicles.py::test_a_german_tank_makes_its_unit_and_reads_the_row_for_its_crew",
    "wall_plus4": "tests/core/test_german_vehicles.py::test_a_soldier_in_a_building_draws_the_main_gun_at_its_wall",
    "mg_stone_wall": "tests/core/test_german_vehicles.py::test_a_visible_soldier_behind_a_stone_wall_draws_the_machineguns",
    "gun_unseen": "tests/core/test_german_vehicles.py::test_a_known_unseen_soldier_draws_the_main_gun_into_his_hex",
    "german_no_futile": "tests/core/test_german_vehicles.py::test_no_german_fires_at_a_closed_tank_he_cannot_penetrate",
    "aimed_auto_more": "tests/core/test_vehicles.py::test_aimed_automatic_fire_goes_through_the_car_while_lower",
    "bazooka_passenger": "tests/core/test_vehicles.py::test_panzerfaust_hit_on_occupant_blasts_the_others_and_disables",
    "driver_hit": "tests/core/test_vehicles.py::test_driver_hit_forces_accident",
    "driver_panic_accident": "tests/core/test_vehicles.py::test_driver_wounded_by_a_grenade_makes_an_accident_check",
    "three_exposed": "tests/core/test_vehicle_fire.py::test_bazooka_exposes_no_more_than_the_active_crew",
    "bazooka_crew": "tests/core/test_vehicle_fire.py::test_bazooka_kills_the_crewman_hit_and_rolls_bazooka_inside",
    "turret_mount": "tests/core/test_vehicle_fire.py::test_penetrated_turret_puts_cannon_and_coax_out",
    "explosive_outside": "tests/core/test_vehicle_fire.py::test_explosive_hits_on_a_vehicle_do_not_hurt_soldiers_outside_it",
    "beside_cover": "tests/core/test_vehicle_fire.py::test_a_soldier_beside_a_vehicle_counts_as_in_cover",
    "car_disabled_out": "tests/core/test_vehicles.py::test_body_penetrated_disables_and_puts_occupants_out",
    "tank_trap_gone": "tests/core/test_blasts_mines.py::test_a_boobytrap_under_a_tank_is_eliminated",
    "car_boobytrap": "tests/core/test_vehicles.py::test_car_in_a_boobytrapped_hex",
    "grenade_car_hex": "tests/core/test_vehicles.py::test_grenade_in_car_hex",
    "scatter_same_hex": "tests/core/test_blasts_mines.py::test_failed_throw_from_the_cars_hex_drops_outside_and_the_thrower_reacts",
    "scatter_adjacent": "tests/core/test_blasts_mines.py::test_failed_throw_from_the_next_hex_lands_in_the_vehicles_hex_on_6_to_9",
    "no_scatter_in": "tests/core/test_blasts_mines.py::test_failed_throw_from_the_next_hex_lands_in_the_vehicles_hex_on_6_to_9",
    "runover_check": "tests/core/test_vehicles.py::test_running_over_friends",
    "runover_dodge": "tests/core/test_vehicles.py::test_running_over_friends",
    "runover_car": "tests/core/test_vehicles.py::test_running_over_friends",
    "runover_retry": "tests/core/test_vehicles.py::test_second_run_over_try_costs_a_sharp_turn_and_a_check",
    "stack_order": "tests/core/test_vehicle_validation.py::test_written_positions_with_vehicles_read_back",
}


# ====================================================================== positions
FAR_G = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
WAIT_US = {"name": "US8", "hex": "R14", "ar": "1-turn"}  # the Round goes on after the turn


def rnd(
    units: list[dict],
    vehicles: list[dict] = (),
    *,
    side: str = "us",
    acting: str | None = None,
    mission: Any = M,
    **top: Any,
) -> dict:
    """Round 3 of 3, ``acting`` (the first unit) taking his turn; a far German and a US
    soldier still to act keep the Round going without dice."""
    p: dict[str, Any] = {
        "mission": mission,
        "phase": "rounds",
        "round": 3,
        "rounds_total": 3,
        "initiative": side,
        "turn": {"unit": acting or units[0]["name"]},
        "units": [*units, FAR_G, WAIT_US],
        "vehicles": list(vehicles),
    }
    if side == "german":
        p["german"] = "agent"
    p.update(top)
    return p


def ops(units: list[dict], vehicles: list[dict] = (), **top: Any) -> dict:
    """Operations (no German on the map)."""
    return {"mission": M, "units": list(units), "vehicles": list(vehicles), **top}


def us(name: str, hex_: str, **kw: Any) -> dict:
    return {"name": name, "hex": hex_, "ar": "1-turn", **kw}


def rifle(name: str, hex_: str, **kw: Any) -> dict:
    """A US soldier with an M1 Garand (semi-automatic: no jam roll)."""
    return us(name, hex_, weapon="m1_garand", **kw)


def ger(name: str, hex_: str, **kw: Any) -> dict:
    return {"name": name, "role": "rifleman", "hex": hex_, "ar": "complete", **kw}


def car(
    hex_: str,
    facing: str = "N",
    *,
    type_: str = "jeep",
    name: str = "V1",
    side: str | None = None,
    **kw: Any,
) -> dict:
    side = side or ("us" if type_ == "jeep" else "german")
    return {"name": name, "type": type_, "side": side, "hex": hex_, "facing": facing, **kw}


def tank(
    type_: str = "sherman",
    hex_: str = "C8",
    facing: str = "N",
    *,
    name: str = "V1",
    side: str | None = None,
    **kw: Any,
) -> dict:
    side = side or ("us" if type_ == "sherman" else "german")
    return {
        "name": name,
        "type": type_,
        "side": side,
        "hex": hex_,
        "facing": facing,
        "cannon_loaded": True,
        **kw,
    }


def crew(name: str = "V1", side: str = "us", **kw: Any) -> dict:
    """The tank's own unit (issue 11 decision 1)."""
    return {"name": name, "side": side, "role": "tank", "vehicle": name, "ar": "1-turn", **kw}


def with_rules(**rules: Any) -> dict:
    """The Farm Assault mission inline with mission rules changed (a briefing's rule)."""
    d = copy.deepcopy(read_yaml(data_path("missions", f"{M}.yaml")))
    d.setdefault("rules", {}).update(rules)
    return d


# Positions used by several rows ------------------------------------------------------------
#: US4 drives the jeep V1 from A8 (facing NE); B7 holds a Kübelwagen and a disabled staff car.
FULL_B7 = [
    car("B7", "SE", type_="kubelwagen", name="V2"),
    car("B7", type_="staff_car", name="V3", disabled=True),
]
JEEP_A8 = car("A8", "NE", driver="US4")
#: The Sherman V1 at C8 (G1 a rifleman at C4, north of it), its Rounds turn.
SHERMAN = rnd([crew(), ger("G1", "C4")], [tank()])
SHERMAN_UNLOADED = rnd([crew(), ger("G1", "C4")], [tank(cannon_loaded=False)])
#: The Sherman on the road at C8 facing SE: three road hexes east are its slow MPA (3).
SHERMAN_ROAD = rnd([crew()], [tank(hex_="A8", facing="SE")])
SHERMAN_ROAD_CLOSED = rnd([crew(), ger("G1", "C4")], [tank(hex_="A8", facing="SE", closed=True)])
ROAD3 = ["V1 drive SE to B8", "V1 drive NE to C8", "V1 drive SE to D8"]
ROAD4 = "V1 drive NE to E8"  # the fourth road hex: past the slow MPA (3)
#: A German Panzer IV (V1) at E7 facing S; US1 (M1 Garand) three hexes south at E10.
PANZER_E7 = tank("panzer_iv", "E7", "S")
#: US1 rides the jeep V2 at E10 as passenger, US2 drives; the Panzer IV V1 at E7.
RIDERS = [us("US1", "E10", vehicle="V2"), us("US2", "E10", vehicle="V2")]
JEEP_E10 = car("E10", name="V2", driver="US2", passengers=["US1"])
#: Kübelwagen V1 at C1 facing S with the rifleman G2 driving; US1 next to it at B1.
KUBEL_C1 = car("C1", "S", type_="kubelwagen", driver="G2")


def _tasks(*tasks: tuple[str, int, int]) -> list[tuple[str, dict]]:
    return [("tank_task", {"task": t, "cp": c, "cp_left": left}) for t, c, left in tasks]


# ====================================================================== the rows
R = pytest.param
ROWS = [
    # ---------------------------------------------------------------- p. 29
    R(
        "us_acts_at_will",
        ops([us("US4", "A8", vehicle="V1")], [JEEP_A8]),
        [],
        ["select US4", "US4 drive NE to B7"],
        {"events": [("drive", {"vehicle": "V1", "to": "B7"})], "vehicles": {"V1": {"hex": "B7"}}},
    ),
    R(
        "german_from_cards",
        rnd(
            [ger("G1", "K8", vehicle="V2", ar="1-turn"), us("US1", "C8", ar="complete")],
            [car("A2", name="V1"), car("K8", "SW", type_="kubelwagen", name="V2", driver="G1")],
            side="german",
            german="cards",
            dice=[0],
        ),
        [],
        [],
        {
            "setup_events": [
                (
                    "german_card",
                    {"unit": "G1", "column": "driving", "roll": 0, "actions": ["drive", "fire"]},
                )
            ],
            "vehicles": {"V2": {"hex": "F8"}},
        },
    ),
    # ---------------------------------------------------------------- p. 30 attributes
    R(
        "size_modifier",
        rnd([rifle("US1", "E10")], [PANZER_E7]),
        [9],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("fire_vehicle", {"vehicle": "V1", "result": "miss"})],
            "modifier": ("fire_vehicle", "vehicle_large", 2),
        },
    ),
    R(
        "size_modifier",
        rnd(
            [rifle("US1", "E10")],
            [car("E7", "S", type_="kubelwagen", driver="G1")],
        ),
        [9],
        ["US1 fire aimed at V1 (front)"],
        {
            "extra_units": [ger("G1", "E7", vehicle="V1")],
            "modifier": ("fire_vehicle", "vehicle_small", 1),
        },
    ),
    R(
        "open_all_hit",
        rnd([rifle("US1", "E10")], [PANZER_E7]),
        [0, 0],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [
                ("fire_vehicle", {"part": "crew", "result": "crew_hit"}),
                ("crew_lost", {"vehicle": "V1", "lost": 1, "crew": 4}),
            ],
            "vehicles": {"V1": {"crew": 4}},
        },
    ),
    R(
        "closed_none_hit",
        rnd([rifle("US1", "E10")], [{**PANZER_E7, "closed": True}]),
        [0, 0],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("fire_vehicle", {"part": "crew", "result": "closed"})],
            "absent": ["crew_lost"],
            "vehicles": {"V1": {"crew": 5}},
        },
    ),
    R(
        "closed_armoured_only",
        ops([us("US4", "A8", vehicle="V1")], [JEEP_A8]),
        [],
        ["select US4"],
        {"none_with": ["open/close"]},
    ),
    R(
        "close_free_ops",
        ops([crew(), us("US2", "A1")], [tank()]),
        [],
        ["select V1", "V1 open/close the tank"],
        {
            "absent": ["tank_task"],
            "vehicles": {"V1": {"closed": True}},
            "position": {"turn.unit": "V1"},
            "legal": ["V1 drive N to C7"],
            "refused": ["V1 open/close the tank"],
        },
    ),
    R(
        "close_rounds_all_cp",
        SHERMAN,
        [],
        ["V1 open/close the tank"],
        {
            "events": _tasks(("open_close", 5, 0)),
            "vehicles": {"V1": {"closed": True}},
            "position": {"turn.unit": "US8"},
        },
    ),
    R(
        "close_rounds_all_cp",
        SHERMAN_UNLOADED,
        [],
        ["V1 load the cannon"],
        {"events": _tasks(("load", 1, 4)), "refused": ["V1 open/close the tank"]},
    ),
    R(
        "car_seats",
        ops(
            [
                us("US1", "A8"),
                us("US2", "A8", vehicle="V1"),
                us("US3", "A8", vehicle="V1"),
                us("US4", "A8", vehicle="V1"),
                us("US5", "A8", vehicle="V1"),
            ],
            [car("A8", "NE", driver="US2", passengers=["US3", "US4", "US5"])],
        ),
        [],
        ["select US1"],
        {"refused": ["US1 get into V1 (Jeep, A8)"]},
    ),
    R(
        "car_seats",
        ops(
            [
                us("US1", "A8"),
                us("US2", "A8", vehicle="V1"),
                us("US3", "A8", vehicle="V1"),
                us("US4", "A8", vehicle="V1"),
            ],
            [car("A8", "NE", driver="US2", passengers=["US3", "US4"])],
        ),
        [],
        ["select US1"],
        {"legal": ["US1 get into V1 (Jeep, A8)"]},
    ),
    R(
        "only_driver_drives",
        ops(
            [us("US1", "A8", vehicle="V1"), us("US4", "A8", vehicle="V1")],
            [car("A8", "NE", driver="US4", passengers=["US1"])],
        ),
        [],
        ["select US1"],
        {"none_with": [" drive "]},
    ),
    R(
        "tank_no_passengers",
        ops([crew(), us("US2", "A1")], [tank()]),
        [],
        ["select V1"],
        {"none_with": ["leave", "get out", "get into"]},
    ),
    R(
        "fast_accident",
        SHERMAN_ROAD,
        [5],
        [*ROAD3, ROAD4],
        {
            "events": [
                *_tasks(("move_slow", 2, 3)),
                ("accident_check", {"vehicle": "V1", "need": 5, "result": "passed"}),
                *_tasks(("move_fast", 1, 2)),
            ],
            "vehicles": {"V1": {"hex": "E8"}},
        },
    ),
    R(
        "fast_only_open",
        SHERMAN_ROAD_CLOSED,
        [],
        ROAD3,
        {"position": {"turn.mp_spent": 3}, "none_with": [" drive "], "refused": [ROAD4]},
    ),
    R("fast_only_open", SHERMAN_ROAD, [], ROAD3, {"legal": [ROAD4]}),
    R(
        "tyre_no_fast",
        rnd([us("US4", "A8", vehicle="V1")], [car("A8", "SE", driver="US4", tyre_shot=True)]),
        [],
        [
            "US4 drive SE to B8",
            "US4 drive NE to C8",
            "US4 drive SE to D8",
            "US4 drive NE to E8",
            "US4 drive SE to F8",
        ],
        {
            "vehicles": {"V1": {"hex": "F8"}},
            "units": {"US4": {"ar": "complete"}},
            "position": {"turn.unit": "US8"},
        },
    ),
    R(
        "tyre_no_fast",
        rnd([us("US4", "A8", vehicle="V1")], [car("A8", "SE", driver="US4")]),
        [],
        [
            "US4 drive SE to B8",
            "US4 drive NE to C8",
            "US4 drive SE to D8",
            "US4 drive NE to E8",
            "US4 drive SE to F8",
        ],
        {"legal": ["US4 drive NE to G8"]},
    ),
    R(
        "hit_chart_after_fire",
        rnd([rifle("US1", "E10")], [PANZER_E7]),
        [0, 3, 0],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [
                (
                    "fire_vehicle",
                    {
                        "part": "body",
                        "result": "none",
                        "rolls": {"hit": 0, "hit_chart": 3, "penetration": 0},
                    },
                )
            ]
        },
    ),
    R(
        "blasts_no_chart",
        rnd([us("US1", "C1")], [tank("panzer_iv", "C1", "S")]),
        [6],
        ["US1 throw a grenade into V1"],
        {
            "events": [("throw_into", {"need": 6, "inside": True})],
            "absent": ["fire_vehicle"],
            "vehicles": {"V1": {"disabled": True, "crew": 0}},
        },
    ),
    # ---------------------------------------------------------------- p. 30 facing
    R(
        "forward_faces",
        ops([us("US4", "A8", vehicle="V1")], [JEEP_A8]),
        [],
        ["select US4", "US4 drive SE to B8"],
        {"vehicles": {"V1": {"hex": "B8", "facing": "SE"}}},
    ),
    R(
        "backs",
        ops([us("US4", "B1", vehicle="V1")], [car("B1", "NE", driver="US4")]),
        [],
        ["select US4", "US4 drive back"],
        {"vehicles": {"V1": {"hex": "A2", "facing": "NE"}}},
    ),
    R(
        "turn_free",
        rnd([us("US4", "A8", vehicle="V1")], [car("A8", "N", driver="US4")]),
        [],
        ["US4 drive SE to B8"],
        {"events": [("drive", {"to": "B8", "mp": 1})], "position": {"turn.mp_spent": 1}},
    ),
    R(
        "same_hex_chooses",
        rnd([us("US1", "E7")], [{**PANZER_E7, "facing": "NE"}]),
        [],
        [],
        {
            "legal": [
                "US1 fire aimed at V1 (front)",
                "US1 fire aimed at V1 (side)",
                "US1 fire aimed at V1 (rear)",
            ]
        },
    ),
    R(
        "same_hex_chooses",
        rnd([rifle("US1", "E10")], [PANZER_E7]),
        [],
        [],
        {
            "legal": ["US1 fire aimed at V1 (front)"],
            "refused": ["US1 fire aimed at V1 (side)", "US1 fire aimed at V1 (rear)"],
        },
    ),
    # ---------------------------------------------------------------- p. 30-31 movement
    R(
        "active_driver",
        ops(
            [us("US4", "A8", vehicle="V1", status="incapacitated"), us("US1", "A8", vehicle="V1")],
            [{**JEEP_A8, "passengers": ["US1"]}],
        ),
        [],
        ["select US1"],
        {"none_with": [" drive "]},
    ),
    R(
        "para_check_per_hex",
        ops([us("US4", "F8", vehicle="V1")], [car("F8", "NE", driver="US4")]),
        [9],
        ["select US4", "US4 drive NE to G8"],
        {
            "events": [
                ("drive", {"to": "G8", "mp": 0}),
                ("paragraph", {"unit": "US4"}),
                ("activation_check", {}),
            ]
        },
    ),
    R(
        "no_building",
        ops([us("US4", "L5", vehicle="V1")], [car("L5", "S", driver="US4")]),
        [],
        ["select US4"],
        {"refused": ["US4 drive S to L6"], "legal": ["US4 drive NE to M5"]},
    ),
    R(
        "no_rubble",
        ops([us("US4", "N9", vehicle="V1")], [car("N9", "S", driver="US4")]),
        [],
        ["select US4"],
        {"refused": ["US4 drive S to N10"], "legal": ["US4 drive N to N8"]},
    ),
    R(
        "no_river",
        ops([us("US4", "B1", vehicle="V1")], [car("B1", "NE", driver="US4")]),
        [],
        ["select US4"],
        {
            "terrain": {"C1": "river"},
            "refused": ["US4 drive NE to C1"],
            "legal": ["US4 drive SE to C2"],
        },
    ),
    R(
        "no_woods_large",
        ops([crew(), us("US2", "A1")], [tank(hex_="D1", facing="S")]),
        [],
        ["select V1"],
        {"refused": ["V1 drive S to D2"], "legal": ["V1 drive SW to C2"]},
    ),
    R(
        "no_woods_large",
        ops([us("US4", "D1", vehicle="V1")], [car("D1", "S", driver="US4")]),
        [],
        ["select US4", "US4 drive S to D2"],
        {"vehicles": {"V1": {"hex": "D2"}}},
    ),
    R(
        "ops_no_accident",
        ops([us("US4", "A8", vehicle="V1"), us("US2", "B8")], [JEEP_A8]),
        [],
        ["select US4", "US4 drive SE to B8"],
        {
            "absent": ["accident_check", "run_over_check", "dodge"],
            "vehicles": {"V1": {"hex": "B8"}},
        },
    ),
    R(
        "two_per_hex",
        ops([us("US4", "A8", vehicle="V1")], [JEEP_A8, *FULL_B7]),
        [],
        ["select US4"],
        {"refused": ["US4 drive NE to B7"]},
    ),
    R(
        "two_per_hex",
        ops([us("US4", "A8", vehicle="V1")], [JEEP_A8, FULL_B7[0]]),
        [],
        ["select US4", "US4 drive NE to B7"],
        {"vehicles": {"V1": {"hex": "B7"}}},
    ),
    R(
        "drive_is_the_turn",
        rnd([us("US4", "A8", vehicle="V1")], [JEEP_A8]),
        [],
        ["US4 drive NE to B7", "US4 end drive"],
        {
            "events": [("drive", {"to": "B7"}), ("end_drive", {})],
            "units": {"US4": {"ar": "complete"}},
            "position": {"turn.unit": "US8"},
        },
    ),
    R(
        "tank_cp_drive",
        SHERMAN_ROAD,
        [],
        ["V1 drive SE to B8"],
        {"events": _tasks(("move_slow", 2, 3)), "position": {"turn.mp_spent": 1}},
    ),
    R(
        "mp_cost_chart",
        rnd([us("US4", "B1", vehicle="V1")], [car("B1", "NE", driver="US4")]),
        [],
        ["US4 drive NE to C1", "US4 drive SE to D1"],
        {
            "events": [("drive", {"to": "C1", "mp": 2}), ("drive", {"to": "D1", "mp": 2})],
            "position": {"turn.mp_spent": 4},
        },
    ),
    # row 1, clear (2 MPs a hex): the third hex passes the slow MPA (5, an Accident Check at
    # US4's DS 2); after four hexes 1 MP of the fast MPA (9) is left: too little for any hex
    R(
        "mpa_limit",
        rnd([us("US4", "A1", vehicle="V1")], [car("A1", "SE", driver="US4")]),
        [0],
        ["US4 drive SE to B1", "US4 drive NE to C1", "US4 drive SE to D1", "US4 drive NE to E1"],
        {
            "events": [("accident_check", {"need": 2, "result": "passed"})],
            "vehicles": {"V1": {"hex": "E1"}},
            "none_with": [" drive "],
        },
    ),
    R(
        "pass_through",
        rnd([us("US4", "A8", vehicle="V1")], [JEEP_A8, *FULL_B7]),
        [],
        ["US4 drive NE to B7", "US4 drive NE to C7"],
        {
            "vehicles": {"V1": {"hex": "C7"}, "V2": {"hex": "B7"}, "V3": {"hex": "B7"}},
            "legal": ["US4 end drive"],
        },
    ),
    R(
        "two_may_end",
        rnd([us("US4", "A8", vehicle="V1")], [JEEP_A8, *FULL_B7]),
        [],
        ["US4 drive NE to B7"],
        {
            "vehicles": {"V1": {"hex": "B7"}},
            "refused": ["US4 end drive"],
            "legal": ["US4 drive NE to C7"],
        },
    ),
    R(
        "two_may_end",
        rnd([us("US4", "A8", vehicle="V1")], [JEEP_A8, FULL_B7[0]]),
        [],
        ["US4 drive NE to B7", "US4 end drive"],
        {"vehicles": {"V1": {"hex": "B7"}}},
    ),
    R(
        "no_crater",
        ops([us("US4", "B1", vehicle="V1")], [car("B1", "NE", driver="US4")]),
        [],
        ["select US4"],
        {
            "terrain": {"C1": "crater"},
            "refused": ["US4 drive NE to C1"],
            "legal": ["US4 drive SE to C2"],
        },
    ),
    # ---------------------------------------------------------------- p. 31 seats and crews
    R(
        "seats_free_ops",
        ops([us("US1", "C8")], [car("C8")]),
        [],
        ["select US1", "US1 get into V1 (Jeep, C8)"],
        {"units": {"US1": {"vehicle": "V1"}}, "position": {"turn.unit": "US1"}},
    ),
    R(
        "seats_1mp_rounds",
        rnd([us("US1", "C8")], [car("C8")]),
        [],
        ["US1 get into V1 (Jeep, C8)"],
        {"units": {"US1": {"vehicle": "V1"}}, "position": {"turn.unit": "US1", "turn.mp_spent": 1}},
    ),
    R(
        "stance_ignored",
        rnd([us("US1", "E10", vehicle="V1")], [car("E10", driver="US2", passengers=["US1"])]),
        [],
        [],
        {
            "extra_units": [us("US2", "E10", vehicle="V1", ar="complete")],
            "none_with": ["go prone", "go crouching", "stand up"],
        },
    ),
    R(
        "crew_ratings",
        ops([crew(), us("US2", "A1")], [tank(crew=3)]),
        [],
        [],
        {"units": {"V1": {}}, "ratings": ("V1", {"IN": 2, "PC": 4, "WS": 1, "DS": 3})},
    ),
    R(
        "no_boarding_tank",
        ops([us("US1", "C8")], [tank()]),
        [],
        ["select US1"],
        {"refused": ["US1 get into V1 (Sherman, C8)"], "none_with": ["get into"]},
    ),
    R(
        "car_command",
        rnd(
            [us("US1", "C7"), us("US2", "C8", vehicle="V1", ar="complete")],
            [car("C8", driver="US2")],
        ),
        [],
        [],
        {"legal": ["US1 give a turn to US2"]},
    ),
    R(
        "tank_no_command",
        rnd([us("US1", "C7"), us("US2", "C6", ar="complete"), crew(ar="complete")], [tank()]),
        [],
        [],
        {"legal": ["US1 give a turn to US2"], "refused": ["US1 give a turn to V1"]},
    ),
    R(
        "crew_panic",
        {
            "mission": M,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "units": [ger("G1", "C4", ar="1-turn"), {"name": "US2", "hex": "A1"}],
            "vehicles": [tank(crew=1)],
            "dice": [2, 9],
        },
        [],
        [],
        {"units": {"V1": {"ar": "panic"}}},
    ),
    R(
        "crew_panic",
        {
            "mission": M,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "units": [ger("G1", "C4", ar="1-turn"), {"name": "US2", "hex": "A1"}],
            "vehicles": [tank(crew=1)],
            "dice": [3, 9],
        },
        [],
        [],
        {"units_not": {"V1": {"ar": "panic"}}},
    ),
    R(
        "ar_panic_stops",
        {
            "mission": M,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "units": [
                us("US4", "A8", vehicle="V1", IN=0),
                ger("G1", "P2", ar="1-turn"),
                us("US1", "R14"),
            ],
            "vehicles": [JEEP_A8],
            "dice": [1, 0],
        },
        [],
        [],
        {
            "units": {"US4": {"ar": "panic", "vehicle": "V1"}},
            "absent": ["accident_check"],
            "vehicles": {"V1": {"hex": "A8", "disabled": False}},
        },
    ),
    # ---------------------------------------------------------------- p. 31 fire at vehicles
    R(
        "one_target",
        rnd(
            [us("US1", "E10"), ger("G1", "E7", vehicle="V1")],
            [car("E7", "S", type_="kubelwagen", driver="G1")],
        ),
        [],
        [],
        {
            "legal": ["US1 fire aimed at V1 (front)"],
            "none_with": ["US1 fire aimed at G1", "US1 snap fire at G1"],
        },
    ),
    R(
        "passenger_row",
        rnd(
            [
                ger("G1", "E7", ar="1-turn", weapon="kar98"),
                us("US2", "E10", vehicle="V1", ar="complete"),
                us("US3", "E10", vehicle="V1", ar="complete"),
            ],
            [car("E10", driver="US2", passengers=["US3"])],
            side="german",
        ),
        [0, 2, 0, 9],
        ["G1 fire aimed at V1 (front)"],
        {
            "events": [
                ("fire_vehicle", {"part": "passenger", "unit": "US3"}),
                ("damage", {"unit": "US3", "result": "kill"}),
            ],
            "units": {"US3": {"status": "killed"}},
        },
    ),
    R(
        "crew_hit_one",
        rnd([rifle("US1", "E10")], [PANZER_E7]),
        [0, 0],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("crew_lost", {"lost": 1, "crew": 4, "why": "crew hit"})],
            "absent": ["damage_roll", "damage"],
        },
    ),
    R(
        "tyre_hit",
        rnd(
            [
                ger("G1", "E7", ar="1-turn", weapon="kar98"),
                us("US2", "E10", vehicle="V1", ar="complete"),
            ],
            [car("E10", driver="US2")],
            side="german",
        ),
        [0, 5, 9, 0],
        ["G1 fire aimed at V1 (front)"],
        {
            "events": [
                ("fire_vehicle", {"part": "tyres", "result": "pass"}),
                ("accident_check", {"vehicle": "V1", "result": "passed"}),
            ],
            "vehicles": {"V1": {"tyre_shot": True}},
        },
    ),
    R(
        "body_disables",
        rnd([us("US1", "E9", weapon="bazooka", prepared=True)], [PANZER_E7]),
        [0, 3, 3],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("fire_vehicle", {"part": "body", "aspect": "front"})],
            "vehicles": {"V1": {"disabled": True}},
        },
    ),
    R(
        "body_disables",
        rnd([us("US1", "E9", weapon="bazooka", prepared=True)], [PANZER_E7]),
        [0, 3, 2],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("fire_vehicle", {"part": "body", "result": "none"})],
            "vehicles": {"V1": {"disabled": False}},
        },
    ),
    R(
        "tread_immobilises",
        rnd([us("US1", "E9", weapon="bazooka", prepared=True)], [PANZER_E7]),
        [0, 1, 1],
        ["US1 fire aimed at V1 (front)"],
        {
            "events": [("fire_vehicle", {"part": "tread"}), ("immobilised", {"vehicle": "V1"})],
            "vehicles": {"V1": {"immobilised": True, "disabled": False}},
        },
    ),
    R(
        "disabled_for_good",
        rnd([us("US4", "A8", vehicle="V1")], [car("A8", "NE", driver="US4", disabled=True)]),
        [],
        [],
        {"none_with": [" drive "]},
    ),
    R(
        "immobilised_not_disabled",
        rnd([crew(), ger("G1", "C4")], [tank(immobilised=True)]),
        [],
        [],
        {"none_with": [" drive "], "legal": ["V1 fire cannon at G1 (C4)"]},
    ),
    # ---------------------------------------------------------------- p. 32 fire from vehicles
    R(
        "passenger_fires",
        rnd([*RIDERS], [PANZER_E7, JEEP_E10]),
        [9],
        ["US1 fire aimed at V1 (front)"],
        {
            "modifier": ("fire_vehicle", "from_car", -2),
            "legal_before": ["US1 snap fire at V1 (front)"],
        },
    ),
    R(
        "driver_snap",
        rnd([*RIDERS], [PANZER_E7, JEEP_E10], acting="US2"),
        [9],
        ["US2 snap fire at V1 (front)"],
        {
            "legal_before": ["US2 snap fire at V1 (front)"],
            "refused_before": ["US2 fire aimed at V1 (front)"],
            "modifier": ("fire_vehicle", "from_car", -2),
            "units": {"US2": {"ar": "complete"}},
        },
    ),
    R(
        "no_bazooka_car",
        rnd(
            [{**RIDERS[0], "weapon": "bazooka", "prepared": True}, RIDERS[1]], [PANZER_E7, JEEP_E10]
        ),
        [],
        [],
        {"refused": ["US1 fire aimed at V1 (front)", "US1 snap fire at V1 (front)"]},
    ),
    R(
        "no_bazooka_car",
        rnd(
            [{**RIDERS[0], "weapon": "bazooka", "prepared": True}, RIDERS[1]],
            [PANZER_E7, JEEP_E10],
            mission=with_rules(heavy_weapons_from_cars=True),
        ),
        [],
        [],
        {"legal": ["US1 fire aimed at V1 (front)"]},
    ),
    R(
        "no_grenade_car",
        rnd(
            [
                us("US1", "A1", vehicle="V1", equipment=["grenade", "satchel"], satchel_ready=True),
                us("US2", "A1", vehicle="V1"),
            ],
            [
                car("A1", "NE", driver="US2", passengers=["US1"]),
                car("C1", "S", type_="kubelwagen", name="V2"),
            ],
        ),
        [],
        [],
        {
            "refused": [
                "US1 throw a grenade into V2 (Kübelwagen, C1)",
                "US1 throw a grenade at C1",
                "US1 throw a satchel charge at C1",
            ]
        },
    ),
    R(
        "briefing_allows",
        rnd(
            [
                us("US1", "A1", vehicle="V1", equipment=["grenade", "satchel"], satchel_ready=True),
                us("US2", "A1", vehicle="V1"),
            ],
            [
                car("A1", "NE", driver="US2", passengers=["US1"]),
                car("C1", "S", type_="kubelwagen", name="V2"),
            ],
            mission=with_rules(heavy_weapons_from_cars=True),
        ),
        [0],
        ["US1 throw a grenade into V2 (Kübelwagen, C1)"],
        {"vehicles": {"V2": {"disabled": True}}},
    ),
    R(
        "no_crew_weapon_car",
        rnd(
            [
                us("US1", "A1", vehicle="V1", weapon="m1919", prepared=True),
                us("US2", "A1", vehicle="V1", ar="complete"),
                ger("G1", "C4"),
            ],
            [car("A1", "NE", driver="US2", passengers=["US1"])],
        ),
        [],
        [],
        {"none_with": ["at G1"]},
    ),
    R(
        "tank_no_minus2",
        SHERMAN,
        [9],
        ["V1 fire cannon at G1 (C4)"],
        {"no_modifier": ("fire", "from_car")},
    ),
    # ---------------------------------------------------------------- p. 33 tanks
    R("tank_turns", ops([crew(), us("US2", "A1")], [tank()]), [], [], {"legal": ["select V1"]}),
    R(
        "cp_per_crew",
        rnd([crew(), ger("G1", "C4")], [tank(crew=3)]),
        [],
        ["V1 drive N to C7"],
        {"events": _tasks(("move_slow", 2, 1))},
    ),
    R(
        "task_once",
        SHERMAN,
        [0, 9, 0, 9],
        ["V1 snap fire bow MG at G1 (C4)", "V1 fire cannon at G1 (C4)"],
        {"events": _tasks(("bow_snap", 1, 4)) + _tasks(("cannon", 2, 2)), "none_with": ["bow MG"]},
    ),
    R(
        "cannon_2",
        SHERMAN,
        [9],
        ["V1 fire cannon at G1 (C4)"],
        {
            "events": [*_tasks(("cannon", 2, 3)), ("fire", {"shooter": "V1", "result": "miss"})],
            "vehicles": {"V1": {"cannon_loaded": False}},
        },
    ),
    R(
        "cannon_loaded",
        SHERMAN_UNLOADED,
        [],
        [],
        {"refused": ["V1 fire cannon at G1 (C4)"], "legal": ["V1 load the cannon"]},
    ),
    R(
        "cannon_no_jam",
        SHERMAN,
        [0, 9],
        ["V1 fire cannon at G1 (C4)"],
        {
            "events": [("fire", {"rolls": {"hit": 0, "damage": 9}, "result": "kill"})],
            "units": {"G1": {"status": "killed"}},
        },
    ),
    R(
        "cannon_xor_coax",
        SHERMAN,
        [9],
        ["V1 fire cannon at G1 (C4)"],
        {
            "refused": [
                "V1 fire coaxial MG aimed at G1 (C4)",
                "V1 snap fire coaxial MG at G1 (C4)",
            ],
            "legal": ["V1 fire bow MG aimed at G1 (C4)"],
        },
    ),
    R(
        "cannon_xor_coax",
        SHERMAN,
        [0, 9],
        ["V1 snap fire coaxial MG at G1 (C4)"],
        {"refused": ["V1 fire cannon at G1 (C4)"]},
    ),
    R(
        "load_1",
        SHERMAN_UNLOADED,
        [],
        ["V1 load the cannon"],
        {"events": _tasks(("load", 1, 4)), "vehicles": {"V1": {"cannon_loaded": True}}},
    ),
    R(
        "no_load_after_fire",
        rnd([crew(), ger("G1", "C4")], [tank(cannon_loaded=False)]),
        [0, 9],
        ["V1 snap fire coaxial MG at G1 (C4)"],
        {"refused": ["V1 load the cannon"]},
    ),
    R(
        "no_load_after_fire",
        SHERMAN,
        [9],
        ["V1 fire cannon at G1 (C4)"],
        {"refused": ["V1 load the cannon"]},
    ),
    R(
        "no_load_after_fire",
        SHERMAN_UNLOADED,
        [0, 9],
        ["V1 snap fire bow MG at G1 (C4)"],
        {"legal": ["V1 load the cannon"]},
    ),
    R(
        "bow_cost",
        SHERMAN,
        [0, 9],
        ["V1 fire bow MG aimed at G1 (C4)"],
        {"events": _tasks(("bow_aimed", 2, 3))},
    ),
    R(
        "bow_cost",
        SHERMAN,
        [0, 9],
        ["V1 snap fire bow MG at G1 (C4)"],
        {"events": _tasks(("bow_snap", 1, 4))},
    ),
    R(
        "bow_front",
        rnd([crew(), ger("G1", "C4")], [tank(facing="S")]),
        [],
        [],
        {
            "refused": ["V1 fire bow MG aimed at G1 (C4)", "V1 snap fire bow MG at G1 (C4)"],
            "legal": ["V1 fire coaxial MG aimed at G1 (C4)"],
        },
    ),
    R(
        "bow_jams",
        SHERMAN,
        [9],
        ["V1 snap fire bow MG at G1 (C4)"],
        {"events": [("fire", {"result": "jammed"})], "vehicles": {"V1": {"jammed_mgs": ["bow"]}}},
    ),
    R(
        "coax_cost",
        SHERMAN,
        [0, 9],
        ["V1 fire coaxial MG aimed at G1 (C4)"],
        {"events": _tasks(("coax_aimed", 2, 3))},
    ),
    R(
        "coax_cost",
        SHERMAN,
        [0, 9],
        ["V1 snap fire coaxial MG at G1 (C4)"],
        {"events": _tasks(("coax_snap", 1, 4))},
    ),
    R(
        "turret_any_dir",
        rnd([crew(), ger("G1", "C4")], [tank(facing="S")]),
        [],
        [],
        {"legal": ["V1 fire cannon at G1 (C4)", "V1 fire coaxial MG aimed at G1 (C4)"]},
    ),
    R(
        "bow_with_turret",
        SHERMAN,
        [9, 0, 9],
        ["V1 fire cannon at G1 (C4)", "V1 fire bow MG aimed at G1 (C4)"],
        {"events": _tasks(("cannon", 2, 3), ("bow_aimed", 2, 1))},
    ),
    R(
        "jagd_front",
        rnd(
            [crew(side="german"), us("US1", "C10", ar="complete")],
            [tank("jagdpanther", facing="N")],
            side="german",
        ),
        [],
        [],
        {"refused": ["V1 fire cannon at US1 (C10)", "V1 fire bow MG aimed at US1 (C10)"]},
    ),
    R(
        "jagd_front",
        rnd(
            [crew(side="german"), us("US1", "C10", ar="complete")],
            [tank("jagdpanther", facing="S")],
            side="german",
        ),
        [],
        [],
        {"legal": ["V1 fire cannon at US1 (C10)", "V1 fire bow MG aimed at US1 (C10)"]},
    ),
    R(
        "jagd_immobile_row",
        rnd(
            [crew(side="german"), us("US1", "D5", ar="complete")],
            [tank("jagdpanther", immobilised=True)],
            side="german",
        ),
        [],
        [],
        {"refused": ["V1 fire cannon at US1 (D5)"]},
    ),
    R(
        "jagd_immobile_row",
        rnd(
            [crew(side="german"), us("US1", "C5", ar="complete")],
            [tank("jagdpanther", immobilised=True)],
            side="german",
        ),
        [],
        [],
        {"legal": ["V1 fire cannon at US1 (C5)"]},
    ),
    R(
        "jagd_immobile_row",
        rnd(
            [crew(side="german"), us("US1", "D5", ar="complete")],
            [tank("jagdpanther")],
            side="german",
        ),
        [],
        [],
        {"legal": ["V1 fire cannon at US1 (D5)"]},
    ),
    R(
        "own_hex_turret",
        rnd(
            [crew(side="german"), us("US1", "C8", ar="complete")],
            [tank("panzer_iv")],
            side="german",
        ),
        [],
        [],
        {"legal": ["V1 fire cannon at US1 (C8)", "V1 fire coaxial MG aimed at US1 (C8)"]},
    ),
    R(
        "jagd_no_own_hex",
        rnd(
            [crew(side="german"), us("US1", "C8", ar="complete")],
            [tank("jagdpanther")],
            side="german",
        ),
        [],
        [],
        {
            "refused": ["V1 fire cannon at US1 (C8)", "V1 fire bow MG aimed at US1 (C8)"],
            "none_with": ["at US1"],
        },
    ),
    # ---------------------------------------------------------------- p. 32 German vehicles
    # the Crew Point payment is one code for both sides (tanks.drive_tank): the slow move is
    # paid first, the fast move's extra Crew Point only once the slow MPA is passed
    R(
        "fast_pays_slow",
        SHERMAN_ROAD,
        [],
        [*ROAD3, "V1 end drive"],
        {
            "events": [*_tasks(("move_slow", 2, 3)), ("end_drive", {})],
            "absent_tasks": ["move_fast"],
            "units": {"V1": {"ar": "complete"}},
        },
    ),
    # ---------------------------------------------------------------- p. 32 accident checks
    R(
        "accident_on_hit",
        rnd(
            [
                ger("G1", "E7", ar="1-turn", weapon="kar98"),
                us("US2", "E10", vehicle="V1", ar="complete"),
            ],
            [car("E10", driver="US2")],
            side="german",
        ),
        [0, 7, 0, 0],
        ["G1 fire aimed at V1 (front)"],
        {
            "events": [
                ("fire_vehicle", {"part": "body"}),
                ("accident_check", {"vehicle": "V1", "result": "passed"}),
            ]
        },
    ),
    R(
        "accident_roll",
        SHERMAN_ROAD,
        [6, 0],
        [*ROAD3, ROAD4],
        {"events": [("accident_check", {"need": 5, "result": "none"})]},
    ),
    # ---------------------------------------------------------------- p. 32 mines
    R(
        "tank_ignores_mines",
        rnd([crew(), ger("G1", "C4")], [tank(facing="SE")], minefields=[{"hex": "D8"}]),
        [],
        ["V1 drive SE to D8"],
        {
            "events": [("mine_vehicle", {"result": "ignored"})],
            "vehicles": {"V1": {"hex": "D8", "disabled": False, "immobilised": False}},
            "position": {"minefields": [{"hex": "D8", "kind": "anti_personnel", "known": True}]},
        },
    ),
    R(
        "at_mines",
        rnd(
            [crew(), ger("G1", "C4")],
            [tank(facing="SE")],
            minefields=[{"hex": "D8", "kind": "anti_tank"}],
        ),
        [],
        ["V1 drive SE to D8"],
        {
            "events": [("mine_vehicle", {"result": "immobilised"})],
            "vehicles": {"V1": {"immobilised": True, "disabled": False}},
        },
    ),
    R(
        "at_mines",
        ops(
            [us("US4", "A1", vehicle="V1")],
            [car("A1", "NE", driver="US4")],
            minefields=[{"hex": "B1", "kind": "anti_tank"}],
        ),
        [],
        ["select US4", "US4 drive SE to B1"],
        {"vehicles": {"V1": {"disabled": True}}, "units": {"US4": {"panicked": False}}},
    ),
    R(
        "car_minefield",
        rnd(
            [us("US4", "A1", vehicle="V1"), us("US2", "A1", vehicle="V1", ar="complete")],
            [car("A1", "NE", driver="US4", passengers=["US2"])],
            minefields=[{"hex": "B1", "known": False}],
        ),
        [],
        ["US4 drive SE to B1"],
        {
            "events": [("mine_vehicle", {"result": "disabled"})],
            "vehicles": {"V1": {"disabled": True}},
            "units": {"US4": {"panicked": True}, "US2": {"panicked": True}},
        },
    ),
    # ---------------------------------------------------------------- p. 32-33 grenades
    R(
        "grenade_aperture",
        rnd([us("US1", "A1")], [tank("panzer_iv", "C1", "S")]),
        [4],
        ["US1 throw a grenade into V1"],
        {"events": [("throw_into", {"need": 4, "inside": True})]},
    ),
    R(
        "grenade_aperture",
        rnd([us("US1", "C1")], [tank("panzer_iv", "C1", "S")]),
        [6],
        ["US1 throw a grenade into V1"],
        {"events": [("throw_into", {"need": 6, "inside": True})]},
    ),
    R(
        "grenade_kills_crew",
        rnd([us("US1", "B1")], [tank("panzer_iv", "C1", "S")]),
        [0],
        ["US1 throw a grenade into V1"],
        {"vehicles": {"V1": {"disabled": True, "crew": 0}}},
    ),
    R(
        "closed_immune",
        rnd([us("US1", "B1")], [tank("panzer_iv", "C1", "S", closed=True)]),
        [],
        [],
        {
            "refused": ["US1 throw a grenade into V1 (Panzer IV, C1)"],
            "legal": ["US1 throw a grenade at C1"],
        },
    ),
    R(
        "closed_immune",
        rnd([us("US1", "B1")], [tank("panzer_iv", "C1", "S")]),
        [],
        [],
        {"legal": ["US1 throw a grenade into V1 (Panzer IV, C1)"]},
    ),
    R(
        "satchel_tank",
        rnd(
            [us("US1", "B1", equipment=["satchel"], satchel_ready=True)],
            [tank("panzer_iv", "C1", "S")],
        ),
        [0, 4],
        ["US1 throw a satchel charge at C1"],
        {
            "events": [("blast_vehicle", {"item": "satchel"})],
            "vehicles": {"V1": {"disabled": True}},
        },
    ),
    R(
        "satchel_tank",
        rnd(
            [us("US1", "B1", equipment=["satchel"], satchel_ready=True)],
            [tank("panzer_iv", "C1", "S")],
        ),
        [0, 3],
        ["US1 throw a satchel charge at C1"],
        {"vehicles": {"V1": {"disabled": False}}},
    ),
    R(
        "grenade_in_car",
        rnd([us("US1", "C1"), ger("G2", "C1", vehicle="V1")], [KUBEL_C1]),
        [3, 8],
        ["US1 throw a grenade into V1"],
        {
            "events": [
                (
                    "damage_roll",
                    {"unit": "G2", "row": "grenade_inside", "modifier": -2, "result": "kill"},
                )
            ],
            "vehicles": {"V1": {"disabled": True}},
            "units": {"G2": {"status": "killed"}},
        },
    ),
    R(
        "satchel_car",
        rnd(
            [us("US1", "A1", equipment=["satchel"], satchel_ready=True)],
            [car("C1", "S", type_="kubelwagen")],
        ),
        [0],
        ["US1 throw a satchel charge at B1"],
        {"vehicles": {"V1": {"disabled": True}}},
    ),
    R(
        "scatter_far",
        rnd([us("US1", "A1")], [tank("panzer_iv", "C1", "S")]),
        [5, 0],
        ["US1 throw a grenade into V1"],
        {
            "events": [("throw_into", {"need": 4, "inside": False, "scatter": "ahead"})],
            "vehicles": {"V1": {"disabled": False, "crew": 5}},
        },
    ),
    # ---------------------------------------------------------------- p. 33 running over
    R(
        "runover_enemy",
        rnd([us("US4", "A1", vehicle="V1"), ger("G1", "B1")], [car("A1", "SE", driver="US4")]),
        [9],
        ["US4 drive SE to B1"],
        {
            "events": [("run_over_check", {})],
            "absent": ["run_over"],
            "units": {"G1": {"status": "active"}},
        },
    ),
    R(
        "runover_tank_kills",
        rnd([crew(), ger("G1", "D8"), ger("G2", "C4")], [tank(facing="SE")]),
        [0, 9],
        ["V1 drive SE to D8"],
        {"events": [("run_over", {})], "units": {"G1": {"status": "killed"}}},
    ),
    # ---------------------------------------------------------------- seed 002 p. 25
    R(
        "guard_change",
        rnd(
            [
                us("US4", "G9"),
                us("US2", "G9"),
                {
                    "name": "G1",
                    "role": "rifleman",
                    "hex": "G9",
                    "status": "captured",
                    "guard": "US4",
                    "stance": "prone",
                },
            ]
        ),
        [],
        ["US4 hand the prisoners over to US2"],
        {
            "events": [("hand_over", {"to": "US2", "prisoners": ["G1"]})],
            "units": {"G1": {"guard": "US2"}},
            "position": {"turn.unit": "US4"},
            "refused": ["US4 hand the prisoners over to US2"],
        },
    ),
    R(
        "prisoner_mines",
        rnd(
            [
                us("US4", "G9"),
                {
                    "name": "G1",
                    "role": "rifleman",
                    "hex": "G9",
                    "status": "captured",
                    "guard": "US4",
                    "stance": "prone",
                },
            ],
            minefields=[{"hex": "G8"}],
        ),
        [],
        [],
        {"refused": ["US4 move prisoner N to G8"], "legal": ["US4 move N to G8"]},
    ),
    R(
        "prisoner_mines",
        rnd(
            [
                us("US4", "G9"),
                {
                    "name": "G1",
                    "role": "rifleman",
                    "hex": "G9",
                    "status": "captured",
                    "guard": "US4",
                    "stance": "prone",
                },
            ],
            minefields=[{"hex": "G8", "known": False}],
        ),
        [],
        [],
        {"legal": ["US4 move prisoner N to G8"]},
    ),
]


#: The Vehicle Summary (p. 30, 40) against data/vehicles.yaml: (type, size, open at the
#: start, occupants, slow MPA, fast MPA).
SUMMARY = {
    "summary_cars": [
        ("jeep", "small", True, 4, 5, 9),
        ("kubelwagen", "small", True, 4, 5, 9),
        ("staff_car", "small", True, 5, 5, 10),
    ],
    "summary_tanks": [
        ("panzer_iv", "large", True, 5, 3, 6),
        ("sherman", "large", True, 5, 3, 6),
        ("jagdpanther", "large", True, 5, 3, 6),
    ],
}


# ====================================================================== the runner
def _ctx(terrain: dict[str, str]) -> Ctx:
    """Farm Assault with hexes of other terrain (pristine too: positions restore it)."""
    b = load_board(M)
    terr = list(b._pristine[0])
    for label, name in terrain.items():
        i, t = b.index(label), TERRAIN_NAMES.index(name)
        b.terrain[i] = t
        terr[i] = t
    b._pristine = (terr, *b._pristine[1:])
    return Ctx(M, board=b)


def _at(p: dict, dotted: str) -> Any:
    x: Any = p
    for k in dotted.split("."):
        x = x[int(k)] if isinstance(x, list) else x[k]
    return x


def _named(p: dict, key: str, name: str) -> dict:
    return next(x for x in p[key] if x["name"] == name)


def _action(g: Game, text: str) -> int:
    """The order integer whose text is ``text`` now (legal or not)."""
    for a in range(O.N_ORDERS):
        if g.describe_action(a) == text:
            return a
    raise AssertionError(f"no order reads {text!r}")


def _refused(g: Game, text: str) -> None:
    assert text not in g.legal_orders(), text
    a = _action(g, text)
    assert a not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.step(a)


def _play(g: Game, text: str) -> list[dict]:
    if (
        text.startswith("select ")
        and g.acting_unit() is not None
        and g.acting_unit().name == text.split()[1]
    ):
        return []
    return g.play(text)


def _setup(sid: str, position: dict, expected: dict) -> Game:
    pos = copy.deepcopy(position)
    pos["units"] = [*pos["units"], *expected.get("extra_units", [])]
    terrain = expected.get("terrain")
    return Game.from_position(pos, ctx=_ctx(terrain)) if terrain else Game.from_position(pos)


def _row_id(param: Any) -> str:
    sid = param.values[0]
    page, text = STATEMENTS[sid]
    return f"{sid} ({page}) {text}"


_XFAIL: dict[str, str] = {}


def _params() -> list[Any]:
    out, seen = [], {}
    for p in ROWS:
        sid = p.values[0]
        seen[sid] = seen.get(sid, 0) + 1
        marks = ()
        if sid in _XFAIL:
            marks = (pytest.mark.xfail(strict=True, reason=_XFAIL[sid]),)
        out.append(pytest.param(*p.values, marks=marks, id=f"{_row_id(p)} [{seen[sid]}]"))
    return out


@pytest.mark.parametrize("sid, position, rolls, orders, expected", _params())
def test_statement(sid, position, rolls, orders, expected):
    g = _setup(sid, position, expected)
    if "setup_events" in expected:  # played by the cards while the position advanced
        find_in_order([e.to_dict() for e in (g.log or g.last_events)], expected["setup_events"])
    g.force_rolls(list(rolls))
    for text in expected.get("legal_before", []):
        assert text in g.legal_orders(), text
    for text in expected.get("refused_before", []):
        assert text not in g.legal_orders(), text
    events: list[dict] = []
    for text in orders:
        events += _play(g, text)
    assert g.dice.forced_left == 0, "a forced roll was not used"
    find_in_order(events, expected.get("events", []))
    for typ in expected.get("absent", []):
        assert typ not in [e["type"] for e in events], f"unexpected {typ} event"
    done = [e["task"] for e in events if e["type"] == "tank_task"]
    assert not set(expected.get("absent_tasks", [])) & set(done), done
    if "modifier" in expected:
        typ, key, val = expected["modifier"]
        ev = next(e for e in events if e["type"] == typ)
        assert ev["modifiers"].get(key) == val, ev
    if "no_modifier" in expected:
        typ, key = expected["no_modifier"]
        ev = next(e for e in events if e["type"] == typ)
        assert key not in ev["modifiers"], ev
    p = g.position()
    for name, fields in expected.get("units", {}).items():
        u = _named(p, "units", name)
        assert {f: u.get(f) for f in fields} == fields, (name, u)
    for name, fields in expected.get("units_not", {}).items():
        u = _named(p, "units", name)
        assert all(u.get(f) != v for f, v in fields.items()), (name, u)
    for name, fields in expected.get("vehicles", {}).items():
        v = _named(p, "vehicles", name)
        assert {f: v.get(f) for f in fields} == fields, (name, v)
    for dotted, value in expected.get("position", {}).items():
        assert _at(p, dotted) == value, dotted
    if "ratings" in expected:
        name, want = expected["ratings"]
        u = next(x for x in g.state.units if x.name == name)
        assert {k: getattr(u, k) for k in want} == want
    orders_now = g.legal_orders()
    for text in expected.get("legal", []):
        assert text in orders_now, (text, orders_now)
    for word in expected.get("none_with", []):
        assert not [o for o in orders_now if word in o], (word, orders_now)
    for text in expected.get("refused", []):
        _refused(g, text)


@pytest.mark.parametrize(
    "sid", list(SUMMARY), ids=lambda s: f"{s} ({STATEMENTS[s][0]}) {STATEMENTS[s][1]}"
)
def test_vehicle_summary(sid):
    from ambush_env.core.world.vehicle_data import shipped_vehicle_data

    vd = shipped_vehicle_data().vehicles
    for type_, size, open_, occupants, slow, fast in SUMMARY[sid]:
        t = vd[type_]
        assert (t.size, t.open, t.occupants, t.slow_mpa, t.fast_mpa) == (
            size,
            open_,
            occupants,
            slow,
            fast,
        ), type_
        assert (t.kind == "tank") is (size == "large")


# ====================================================================== the bookkeeping
def test_every_statement_has_one_home():
    """Each statement of seed 000 (and the two seed 002 rules) is covered by table rows or by
    one test named in COVERED_ELSEWHERE, never both, and nothing else is listed."""
    rows = {p.values[0] for p in ROWS} | set(SUMMARY)
    elsewhere = set(COVERED_ELSEWHERE)
    assert not rows & elsewhere, sorted(rows & elsewhere)
    assert rows | elsewhere == set(STATEMENTS), (
        sorted(set(STATEMENTS) - rows - elsewhere),
        sorted((rows | elsewhere) - set(STATEMENTS)),
    )


def test_covered_elsewhere_exists():
    """Every test named in COVERED_ELSEWHERE exists (its module defines it)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for sid, ref in COVERED_ELSEWHERE.items():
        path, name = ref.split("::")
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name in names, (sid, ref)


def test_statements_name_their_page():
    for sid, (page, text) in STATEMENTS.items():
        assert page.startswith(("p. ", "seed 002 p. ")) and text, sid
