"""What an rgb_array frame shows (issue 15 "a readable map"): hex labels, vehicles together with
the soldiers beside them and aboard them, only the Germans the US player knows, the HUD's
phase, Round, VP and acting unit, and the legend panel. Farm Assault after ``reset(1)``: the
US jeep V1 at A8 facing NE with US1 and US4 beside it, the parked Kübelwagen V2 at K8."""

from __future__ import annotations

import numpy as np
import pytest

from ambush_env.core import Game
from ambush_env.core.model.orders import OrderKind, encode
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import Phase, Side, Stance
from ambush_env.render.geometry import hex_centre
from ambush_env.render.image import (
    _UNIT_RGB,
    _VEHICLE_RGB,
    DEFAULT_HEX_SIZE,
    _fill_of,
    _seat_points,
    event_caption,
    frame_layout,
    hud_lines,
    render_rgb,
)

S = DEFAULT_HEX_SIZE
JEEP, KUBEL = 0, 1


def _game() -> Game:
    g = Game("farm_assault")
    g.reset(1)
    return g


def _count(img: np.ndarray, centre: tuple[float, float], radius: float, rgb) -> int:
    """Pixels of colour ``rgb`` within ``radius`` of ``centre``."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    near = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= radius**2
    return int((near & (img == np.array(rgb, np.uint8)).all(axis=2)).sum())


def test_every_hex_is_labelled_with_its_coordinates():
    """Each hex's label patch (above its centre) holds text pixels, and no two hexes of the
    same terrain and level carry the same patch (the label is the hex's own)."""
    g = _game()
    g.state.units, g.state.vehicles = [], []
    img = render_rgb(g, hud=False, legend=False)
    b = g.board
    patches: dict[tuple, set] = {}
    for i in range(b.n):
        cx, cy = hex_centre(*b.coords(i), S)
        patch = img[int(cy - 0.8 * S) : int(cy - 0.45 * S), int(cx - 0.45 * S) : int(cx + 0.45 * S)]
        fill = np.array(_fill_of(b, i), np.uint8)
        assert (patch != fill).any(axis=2).sum() >= 10, b.label(i)
        key = (_fill_of(b, i),)
        assert patch.tobytes() not in patches.setdefault(key, set()), b.label(i)
        patches[key].add(patch.tobytes())


def test_the_jeep_and_the_soldiers_beside_it_both_show():
    g = _game()
    a8 = g.board.index("A8")
    jeep = g.state.vehicles[JEEP]
    assert jeep.hex == a8 and {u.name for u in g.state.units if u.hex == a8} == {"US1", "US4"}
    centre = hex_centre(*g.board.coords(a8), S)
    img = render_rgb(g)
    us_blue, jeep_blue = _UNIT_RGB[int(Side.US)], _VEHICLE_RGB[int(Side.US)]
    disc = np.pi * (0.25 * S - 1) ** 2  # a standing soldier's disc, inside its outline
    assert _count(img, centre, 0.9 * S, us_blue) >= 2 * 0.8 * disc  # two soldiers
    assert _count(img, centre, 0.9 * S, jeep_blue) >= 0.25 * S * S  # and the jeep's body
    assert tuple(img[int(centre[1]), int(centre[0])]) == jeep_blue  # its centre uncovered

    # US1 gets in: he is drawn on the body (the driver's seat), US4 still beside it
    g.step(encode(OrderKind.SELECT_UNIT, 0))
    g.step(encode(OrderKind.BOARD_VEHICLE, JEEP))
    assert jeep.driver == g.state.units[0].uid
    img = render_rgb(g)
    ((sx, sy),) = _seat_points(*centre, S, jeep.facing, False, 1)
    assert tuple(img[int(round(sy)), int(round(sx))]) == us_blue
    assert tuple(img[int(centre[1]), int(centre[0])]) == jeep_blue
    assert _count(img, centre, 0.9 * S, us_blue) >= 0.8 * disc + 0.5 * np.pi * (0.11 * S - 1) ** 2


def test_a_hidden_german_aboard_a_vehicle_is_not_drawn():
    """Only what the US player knows (RULES.md §5; seed 000 p. 31: a vehicle and its occupants
    are one target; ``state.known_vehicle``): the empty Kübelwagen shows; with a German in it
    who is no contact, neither he nor the car is drawn (the frame is the one without the car);
    once he is a contact, both show, he on its body in German red."""
    g = _game()
    kubel = g.state.vehicles[KUBEL]
    centre = hex_centre(*g.board.coords(kubel.hex), S)
    ger_red = _VEHICLE_RGB[int(Side.GERMAN)]
    assert _count(render_rgb(g), centre, 0.9 * S, ger_red) >= 0.25 * S * S  # empty: shown
    ger = Unit(
        uid=len(g.state.units),
        side=int(Side.GERMAN),
        name="G9",
        role="rifleman",
        hex=kubel.hex,
        weapon="kar98",
        vehicle=kubel.vid,
    )
    g.state.units.append(ger)
    kubel.driver = ger.uid
    hidden = render_rgb(g)
    assert _count(hidden, centre, 0.9 * S, ger_red) == 0
    h = kubel.hex
    kubel.hex = -1
    without_car = render_rgb(g)
    kubel.hex = h
    assert np.array_equal(hidden, without_car)
    g.state.contacts.append(ger.uid)
    img = render_rgb(g)
    assert _count(img, centre, 0.9 * S, ger_red) >= 0.25 * S * S
    ((sx, sy),) = _seat_points(*centre, S, kubel.facing, False, 1)
    assert tuple(img[int(round(sy)), int(round(sx))]) == _UNIT_RGB[int(Side.GERMAN)]


def test_the_hud_names_the_phase_the_round_the_vp_and_the_acting_unit():
    g = _game()
    first, second, third = hud_lines(g)
    assert first.startswith("Farm Assault (farm_assault)") and "Operations, pulse 1" in first
    pulses, rounds = g.time_left()
    assert f"time left: {pulses} pulses, {rounds} Rounds" in first
    assert second.startswith(f"VP {g.vp}  |  acting: -- (select a unit)") and third == ""
    lay = frame_layout(g.board.columns, g.board.rows, S)
    hud_before = render_rgb(g)[lay.hud_y :]
    us3 = g.state.units[2]
    g.step(encode(OrderKind.SELECT_UNIT, us3.slot))
    assert g.acting_unit() is us3
    _, second, _ = hud_lines(g, "last: a caption")
    assert f"acting: US3 (slot {us3.slot}) at {g.board.label(us3.hex)}, standing" in second
    assert hud_lines(g, "last: a caption")[2] == "last: a caption"
    assert not np.array_equal(render_rgb(g)[lay.hud_y :], hud_before)  # the HUD is drawn
    g.state.phase, g.state.round, g.state.initiative = int(Phase.ROUNDS), 2, int(Side.GERMAN)
    us3.stance = int(Stance.PRONE)
    first, second, _ = hud_lines(g)
    assert "Rounds, Round 2 (initiative German)" in first and ", prone" in second


def test_event_caption():
    fire = {
        "type": "fire",
        "shooter": "US2",
        "target": "G1",
        "modifiers": {"snap": -2},
        "rolls": {"hit": 3},
        "result": "miss",
    }
    assert (
        event_caption([{"type": "setup"}, fire]) == "last: fire shooter=US2 target=G1 result=miss"
    )
    assert (
        event_caption([{"type": "message", "text": "A pilot crawls out."}])
        == "last: A pilot crawls out."
    )
    assert event_caption([]) == ""


@pytest.mark.parametrize("hex_size", [16, 24, 31])
def test_layout_map_legend_and_hud(hex_size):
    """The map at the frame's origin, the legend to its right, the HUD below; even sizes;
    the legend panel and the HUD strip hold text."""
    g = _game()
    lay = frame_layout(g.board.columns, g.board.rows, hex_size)
    img = render_rgb(g, hex_size=hex_size)
    assert img.shape == (lay.height, lay.width, 3) and img.dtype == np.uint8
    assert lay.width % 2 == 0 and lay.height % 2 == 0
    assert lay.panel_x >= lay.map_w and lay.hud_y >= lay.map_h
    bare = render_rgb(g, hex_size=hex_size, hud=False, legend=False)
    assert np.array_equal(img[: lay.map_h, : lay.map_w], bare[: lay.map_h, : lay.map_w])
    panel = img[: lay.hud_y, lay.panel_x :]
    assert (panel.max(axis=2) > 200).sum() > 500  # light text on the dark panel
    assert (img[lay.hud_y :].max(axis=2) > 200).sum() > 300
    with pytest.raises(ValueError, match="hex_size"):
        frame_layout(g.board.columns, g.board.rows, 0)
