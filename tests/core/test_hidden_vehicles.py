"""A German vehicle whose crew is hidden is hidden too (RULES.md §5: "Germans placed unaware
and out of every US soldier's sight stay hidden"; seed 000 p. 31-32: a vehicle and its
occupants are one target): ``state.known_vehicle``, read by the observation, the frame, the
text map, the hidden ``place_vehicle`` event and the US orders that name a vehicle.

Map (Tank Hunt, the squad at its start around C13): a Panzer IV placed unaware at H7 (its
``place_vehicle`` paragraph) is out of every US soldier's sight; H5 sees H7, G10 (5 hexes) does
not. Farm Assault: the US jeep V1 at A8, the empty Kübelwagen V2 parked at K8.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import force, give_turn, put, resolve, rounds

from ambush_env.core import Game
from ambush_env.core.combat import strikes
from ambush_env.core.model import orders as O
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Unit, known_vehicle
from ambush_env.core.model.types import Side, Status
from ambush_env.core.play import paragraphs
from ambush_env.env.aec_env import GermanView
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import BOARD, VEHICLE
from ambush_env.render.ansi import render_ansi

TANK = {
    "vehicle": "panzer_iv",
    "hex": "H7",
    "facing": "S",
    "card": "panzer_iv",
    "crew": 5,
    "aware": False,
}


def _hidden_tank() -> tuple[Game, object]:
    """Tank Hunt with its Panzer IV placed unaware at H7, nobody seeing it."""
    g = Game("tank_hunt", seed=1)
    force(g, [])  # placing it rolls nothing
    v = paragraphs.put_vehicle(g, dict(TANK))
    resolve(g)
    return g, v


def _shown(g: Game, v, builder: ObservationBuilder | None = None) -> dict[str, bool]:
    """Where ``v`` shows: its observation row and plane (a fresh builder, and ``builder``'s
    incremental one), the text map, the frame is tested in tests/render."""
    ob = (builder or ObservationBuilder(g)).build()
    fresh = ObservationBuilder(g).build()
    for k in ("board", "vehicles"):
        assert np.array_equal(ob[k], fresh[k]), k  # incremental = from scratch
    r, c = g.board.coords(v.hex)[::-1]
    plane = "vehicle_us" if v.side == Side.US else "vehicle_german"
    text = render_ansi(g)
    return {
        "row": bool(ob["vehicles"][v.vid, VEHICLE["present"]]),
        "plane": bool(ob["board"][BOARD[plane], r, c]),
        "large": bool(ob["board"][BOARD["vehicle_large"], r, c]),
        "ansi": f"  {v.name} " in text,
    }


def test_a_tank_placed_unaware_out_of_sight_is_hidden_everywhere():
    """RULES.md §5: its crew stays hidden, and so does the tank: no row, no plane mark, no text
    line; its event carries only its name and ``hidden`` (as a hidden ``place``)."""
    g, v = _hidden_tank()
    assert g.state.contacts == [] and not known_vehicle(g.state, v)
    assert _shown(g, v) == {"row": False, "plane": False, "large": False, "ansi": False}
    ob = ObservationBuilder(g).build()
    assert not ob["vehicles"].any()  # the only vehicle of the mission: the table is empty
    (pv,) = [e.to_dict() for e in g.log if e.type == "place_vehicle"]
    assert pv == {"type": "place_vehicle", "vehicle": "V1", "hidden": True}


@pytest.mark.parametrize("roll, aware", [(6, True), (7, False)])  # US1's PC is 6
def test_the_tank_shows_once_sighted_whatever_the_sighting_roll(roll, aware):
    """RULES.md §7: US1 comes into sight of the tank (H5); the sighting makes its unit a known
    contact whether his PC check passes (aware) or fails (unaware in Round 1), and the tank
    shows from then on; before the sighting is resolved it is still hidden."""
    g, v = _hidden_tank()
    builder = ObservationBuilder(g)
    assert not _shown(g, v, builder)["row"]
    us1 = put(g, 0, "H5")
    us1.aware = False
    g.request("sightings")
    assert not _shown(g, v, builder)["row"]
    force(g, [roll] + [9] * 40)  # then the free snap (a jam on 9) and what Rounds roll
    resolve(g)
    sighting = next(e.to_dict() for e in g.log if e.type == "sighting")
    assert (sighting["target"], sighting["roll"], sighting["passed"]) == (v.name, roll, aware)
    assert us1.aware is aware and v.unit in g.state.contacts and known_vehicle(g.state, v)
    assert _shown(g, v, builder) == {"row": True, "plane": True, "large": True, "ansi": True}


def test_a_hidden_tank_out_of_sight_stays_hidden_after_the_sighting_checks():
    """The sighting checks after a move find nobody while no US soldier sees H7 (G10)."""
    g, v = _hidden_tank()
    put(g, 0, "G10")
    g.request("sightings")
    force(g, [])
    resolve(g)
    assert not known_vehicle(g.state, v) and not _shown(g, v)["row"]


def test_a_hidden_tank_that_fires_is_known():
    """A German who fires is revealed (ctx.Match.attacked), the tank with its unit."""
    g, v = _hidden_tank()
    g.attacked(g.state.units[v.unit], "V1 fired")
    assert known_vehicle(g.state, v) and _shown(g, v)["row"]


@pytest.mark.parametrize("roll, disabled", [(5, True), (4, False)])  # tank_gun: 5+ kills
def test_an_artillery_strike_that_knocks_out_a_hidden_tank_finds_it(roll, disabled):
    """Module strikes ⚙: a tank rolls once on the strike's row and is disabled only on a kill;
    a hidden tank it disables is hurt, so found (a known contact, the wreck shown); one it
    does not harm stays hidden."""
    g, v = _hidden_tank()
    results = g.tables.soldier_row["tank_gun"]
    assert (results[roll] == "kill") is disabled  # the threshold of the row, both sides
    force(g, [roll])
    strikes.strike(g, "artillery", [v.hex], "tank_gun")
    g.invalidate()
    assert v.disabled is disabled and known_vehicle(g.state, v) is disabled
    assert _shown(g, v)["row"] is disabled


def test_no_us_order_names_a_hidden_vehicle():
    """The action mask leaks nothing: US1 (two grenades) 5 hexes from the open Panzer IV, out
    of its sight, in Rounds: no GRENADE_INTO it while it is hidden; once known, offered."""
    g, v = _hidden_tank()
    us1 = put(g, 0, "G10")
    rounds(g)
    give_turn(g, us1)
    into = O.ORDER_BASE[K.GRENADE_INTO] + v.vid
    assert into not in g.legal_actions()
    g.state.contacts.append(v.unit)
    g.invalidate()
    assert into in g.legal_actions()


def test_a_car_and_its_crew_are_known_together():
    """known_vehicle on Farm Assault's vehicles: the US jeep always; the empty Kübelwagen
    (nobody in it is hidden); with a hidden driver, hidden; with him a contact, known; a
    captured car (the US side's) known."""
    g = Game("farm_assault", seed=1)
    st = g.state
    jeep, kubel = st.vehicles
    assert known_vehicle(st, jeep) and known_vehicle(st, kubel)
    assert _shown(g, jeep)["row"] and _shown(g, jeep)["plane"] and _shown(g, kubel)["plane"]
    ger = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name="G9",
        role="rifleman",
        hex=kubel.hex,
        weapon="kar98",
        vehicle=kubel.vid,
    )
    st.units.append(ger)
    kubel.driver = ger.uid
    g.invalidate()
    assert not known_vehicle(st, kubel) and not any(_shown(g, kubel).values())
    ger.status = int(Status.KILLED)  # a body aboard keeps it hidden unless known
    assert not known_vehicle(st, kubel)
    st.contacts.append(ger.uid)
    assert known_vehicle(st, kubel) and _shown(g, kubel)["plane"]
    st.contacts.remove(ger.uid)
    kubel.side, kubel.captured = int(Side.US), True
    assert known_vehicle(st, kubel)


def test_the_german_seat_sees_its_own_hidden_tank():
    """aec_env's German seat (GermanView: sides swapped, its contacts the US soldiers some
    German has seen) always sees its own vehicles, the hidden tank included; a US jeep it
    sees while empty, and with a crew only once some German has seen one of them."""
    g, v = _hidden_tank()
    r, c = g.board.coords(v.hex)[::-1]
    ob = ObservationBuilder(GermanView(g)).build()
    assert ob["vehicles"][v.vid, VEHICLE["present"]] == 1
    assert ob["board"][BOARD["vehicle_us"], r, c] == 1  # "own side" in the German seat
    f = Game("farm_assault", seed=1)
    jeep = f.state.vehicles[0]
    us1 = f.state.units[0]
    jr, jc = f.board.coords(jeep.hex)[::-1]

    def seen() -> bool:
        return bool(
            ObservationBuilder(GermanView(f)).build()["board"][BOARD["vehicle_german"], jr, jc]
        )

    assert seen()  # empty
    jeep.driver, us1.vehicle, us1.hex = us1.uid, jeep.vid, jeep.hex
    assert not seen()
    f.state.german_contacts.append(us1.uid)
    assert seen()


def test_the_replay_viewer_fades_a_hidden_car_and_names_nobody_aboard():
    """render.html ⚙: a vehicle the US does not know is there is drawn as a hidden German
    (``known`` False: faded, behind ``#show-hidden``), its tooltip naming nobody aboard (the
    tester's "V3 Motorcycle: G3 (driver)" with G3 unknown); known, it names its driver."""
    from ambush_env.render.html import frame

    g = Game("farm_assault", seed=1)
    st = g.state
    kubel = st.vehicles[1]
    ger = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name="G9",
        role="rifleman",
        hex=kubel.hex,
        weapon="kar98",
        vehicle=kubel.vid,
    )
    st.units.append(ger)
    kubel.driver = ger.uid
    row = next(r for r in frame(g, [])["vehicles"] if r[1] == kubel.name)
    assert row[9] is False and "G9" not in row[7] and "unknown to the US" in row[7]
    st.contacts.append(ger.uid)
    row = next(r for r in frame(g, [])["vehicles"] if r[1] == kubel.name)
    assert row[9] is True and "G9 driver" in row[7]
    jeep_row = frame(g, [])["vehicles"][0]
    assert jeep_row[9] is True  # a US vehicle always
