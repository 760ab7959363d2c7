"""The ``"rgb_array"`` render: the hex map as an image (docs/API.md render modes), with Pillow.

A frame (:func:`render_rgb`) has three parts, laid out by :func:`frame_layout`:

* the **map** at the top left, where :mod:`ambush_env.render.geometry` puts each hex (pixel
  ``(x, y)`` of the map is pixel ``(x, y)`` of the frame):

  - terrain colours (darker for each ground level), each hex labelled with its coordinates
    (``"C4"``, RULES.md §2) at the top; objective hexes ringed in gold, exit hexes with a green
    edge; building walls as thick dark lines with doors (brown gaps) and windows (light blue
    gaps), destroyed walls thin grey; embankments olive, crests black;
  - vehicles as a body along the facing with an arrow head at the front, light blue when the
    US holds it, light red for the Germans, a large (tank) body longer, disabled grey and
    crossed out; the soldiers aboard as small discs on the body (front seats first); a second
    vehicle in a hex shifted down and right;
  - soldiers, US blue and *known* Germans red, as discs whose size shows the stance (standing
    large, crouching medium, prone small); wounded a white dot, incapacitated and killed a
    cross, prisoners a yellow ring, the acting soldier a white ring (a tank's unit: a white
    outline round the tank). In a hex with a vehicle the soldiers outside it stand beside its
    body, so both show;
  - the line of the last shot, from shooter to target, in orange;

* the **legend** panel to the right of the map: terrain, unit and vehicle symbols, hexsides,
  objective, exit and last shot;
* the **HUD** strip under both: mission, phase (Operations pulse, or Round and initiative),
  time left, VP, the acting unit (name, slot, hex, stance, Action Round track space) and a
  caption line (the env passes its last event).

Hidden Germans are never drawn, nor Germans aboard a vehicle unless known, nor a vehicle the
US does not know is there (:func:`~ambush_env.core.model.state.known_vehicle`: a German one whose
crew is hidden); only what the US player could know. Everything that does not change during a mission (the map, labels,
legend, HUD background and mission title) is drawn once per board version, mission and size
and cached, so a frame costs a copy, the units and three lines of text. Text uses Pillow's
built-in font (``ImageFont.load_default(size=...)``, basic layout), so frames are the same on
every machine with the same Pillow.

Returns ``(H, W, 3) uint8`` arrays whose size depends on the map and ``hex_size`` (pixels
from a hex's centre to a corner) and stays the same for the whole mission.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ambush_env.core.model.types import STANCE_NAMES, ARSpace, Phase, Side, Stance, Status, Terrain
from ambush_env.core.world.hexgrid import make_label
from ambush_env.render.geometry import hex_centre, hex_corners, hexside_segments, map_size

if TYPE_CHECKING:
    from ambush_env.core.play.game import Game

#: ⚙ the default hex radius in pixels: at 24 the hex labels (9 px text) and a hex of six
#: soldiers stay readable; the Farm Assault frame is then 870 x 680 (16 keeps working, smaller).
DEFAULT_HEX_SIZE = 24

TERRAIN_RGB = {
    Terrain.CLEAR: (196, 214, 150),
    Terrain.ROAD: (214, 196, 160),
    Terrain.WOODS: (60, 120, 60),
    Terrain.BRUSH: (130, 170, 90),
    Terrain.RUBBLE: (150, 140, 130),
    Terrain.ROUGH: (170, 160, 120),
    Terrain.BUILDING: (180, 150, 130),
    Terrain.RIVER: (90, 140, 210),
    Terrain.CRATER: (120, 110, 90),
}
_BACKGROUND = (40, 40, 40)
_PANEL_RGB = (28, 30, 34)
_TEXT_RGB = (230, 230, 225)
_DIM_TEXT_RGB = (160, 165, 170)
_GRID_RGB = (120, 120, 100)
_EXIT_RGB = (40, 160, 40)
_OBJECTIVE_RGB = (230, 190, 40)
_WALL_RGB = (50, 35, 30)
_DOOR_RGB = (150, 90, 40)
_WINDOW_RGB = (170, 210, 240)
_RUINED_WALL_RGB = (140, 140, 140)
_EMBANKMENT_RGB = (110, 110, 30)
_CREST_RGB = (0, 0, 0)
_SHOT_RGB = (255, 140, 0)
_UNIT_RGB = {int(Side.US): (40, 80, 200), int(Side.GERMAN): (200, 40, 40)}
_VEHICLE_RGB = {int(Side.US): (110, 150, 235), int(Side.GERMAN): (235, 120, 110)}
_DISABLED_RGB = (125, 125, 125)
_PRISONER_RGB = (240, 220, 40)
#: disc radius by stance, in hex radii (⚙ three sizes a glance tells apart, six fit a hex)
_STANCE_R = {Stance.STANDING: 0.25, Stance.CROUCHING: 0.2, Stance.PRONE: 0.155}
_SEAT_R = 0.11  # an occupant's disc on a vehicle body, in hex radii
#: the static layers (:func:`_static`): board -> {(version, layout, ...): image}, keyed by the
#: board itself and held weakly, so a layer goes with its board and a later board (even one
#: at the same address) never reads it; ⚙ at most STATIC_BOARDS_MAX boards and
#: STATIC_PER_BOARD_MAX layers each (each cleared when full): 32 layers at most, as many as
#: before, a 32 x 24 map's full frame layer being 4.4 MB
_CACHE: weakref.WeakKeyDictionary[Any, dict[tuple, Any]] = weakref.WeakKeyDictionary()
STATIC_BOARDS_MAX = 8
STATIC_PER_BOARD_MAX = 4


def _centre(col: int, row0: int, size: float) -> tuple[float, float]:
    """:func:`~ambush_env.render.geometry.hex_centre` (the map sits at the frame's origin)."""
    return hex_centre(col, row0, size)


# ------------------------------------------------------------------ fonts and layout
@lru_cache(maxsize=16)
def _font(px: int):
    """Pillow's built-in font at ``px`` pixels, basic layout (no font file, deterministic)."""
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # pragma: no cover - Pillow < 10.1: the fixed bitmap font
        return ImageFont.load_default()


def _label_px(s: int) -> int:
    """⚙ hex label text size: 0.38 hex radii, at least 8 px (readable at hex_size 16)."""
    return max(8, round(0.38 * s))


def _text_px(s: int) -> int:
    """⚙ legend and HUD text size: 0.5 hex radii, between 11 and 16 px."""
    return min(16, max(11, round(0.5 * s)))


@dataclass(frozen=True)
class FrameLayout:
    """Where the parts of a frame lie, in pixels (``x`` right, ``y`` down).

    Attributes:
        hex_size: hex radius.
        map_w, map_h: the map's size; the map's top-left corner is the frame's ``(0, 0)``.
        panel_x, panel_w: the legend panel's left edge and width (0 wide without a legend).
        hud_y, hud_h: the HUD strip's top edge and height (0 high without a HUD).
        width, height: the frame's size (both even, ⚙ as video encoders want).
        line_h: the legend and HUD line height.
    """

    hex_size: int
    map_w: int
    map_h: int
    panel_x: int
    panel_w: int
    hud_y: int
    hud_h: int
    width: int
    height: int
    line_h: int


_LEGEND_ROWS = 24  # lines in the legend panel (title and blank lines included)


@lru_cache(maxsize=64)
def frame_layout(
    columns: int,
    rows: int,
    hex_size: int = DEFAULT_HEX_SIZE,
    *,
    hud: bool = True,
    legend: bool = True,
) -> FrameLayout:
    """The layout of a frame of a ``columns`` x ``rows`` map.

    Args:
        columns, rows: the map's size in hexes.
        hex_size: hex radius in pixels (> 0).
        hud, legend: whether the frame has the HUD strip and the legend panel.

    Raises:
        ValueError: ``hex_size`` is not positive.
    """
    s = int(hex_size)
    if s <= 0:
        raise ValueError(f"hex_size must be a positive number of pixels, got {hex_size!r}")
    map_w, map_h = map_size(columns, rows, s)
    tp = _text_px(s)
    line_h = tp + 4
    # the longest legend line after its symbol (28 px) and margins
    panel_w = int(_font(tp).getlength("standing / crouching / prone")) + 48 if legend else 0
    panel_x = map_w
    body_h = max(map_h, (_LEGEND_ROWS * line_h + 8) if legend else 0)
    hud_h = 3 * line_h + 8 if hud else 0
    width = panel_x + panel_w
    height = body_h + hud_h
    return FrameLayout(
        s,
        map_w,
        map_h,
        panel_x,
        panel_w,
        body_h,
        hud_h,
        width + (width & 1),
        height + (height & 1),
        line_h,
    )


# ------------------------------------------------------------------ the static layer
def _text(dr, xy: tuple[float, float], text: str, font, fill, *, centre: bool = False) -> None:
    """Draw ``text`` with its top-left at ``xy`` (``centre``: centred on ``xy``)."""
    x, y = xy
    if centre:
        left, top, right, bottom = font.getbbox(text)
        x -= (left + right) / 2
        y -= (top + bottom) / 2
    dr.text((round(x), round(y)), text, font=font, fill=fill)


def _fill_of(b, i: int) -> tuple[int, int, int]:
    base = TERRAIN_RGB.get(Terrain(int(b.terrain[i])), (200, 200, 200))
    k = 1.0 - 0.12 * int(b.level[i])
    red, green, blue = base
    return int(red * k), int(green * k), int(blue * k)


def _draw_map(dr, game: Game, s: int) -> None:
    b = game.board
    label_font = _font(_label_px(s))
    for i in range(b.n):
        c, r = b.coords(i)
        cx, cy = hex_centre(c, r, s)
        fill = _fill_of(b, i)
        outline = _EXIT_RGB if i in game.exit_hexes else _GRID_RGB
        dr.polygon(hex_corners(cx, cy, s), fill=fill, outline=outline)
        if i in game.objective_hexes:
            dr.polygon(hex_corners(cx, cy, s * 0.85), outline=_OBJECTIVE_RGB)
        dark = sum(fill) < 330
        _text(
            dr,
            (cx, cy - 0.62 * s),
            make_label(c, r),
            label_font,
            (225, 230, 215) if dark else (70, 72, 60),
            centre=True,
        )
    for _i, _j, hs, a, z in hexside_segments(b, s):
        _draw_hexside(
            dr,
            a,
            z,
            s,
            wall=hs.wall is not None,
            destroyed=hs.destroyed,
            aperture=hs.aperture,
            embankment=hs.embankment,
            crest=hs.crest,
        )


def _draw_hexside(
    dr,
    a,
    z,
    s: int,
    *,
    wall: bool = False,
    destroyed: bool = False,
    aperture: str | None = None,
    embankment: bool = False,
    crest: bool = False,
) -> None:
    if wall:
        if destroyed:
            dr.line([a, z], fill=_RUINED_WALL_RGB, width=1)
        else:
            dr.line([a, z], fill=_WALL_RGB, width=max(2, s // 5))
            if aperture in ("door", "window"):
                mx, my = (a[0] + z[0]) / 2, (a[1] + z[1]) / 2
                half = ((z[0] - a[0]) / 4, (z[1] - a[1]) / 4)
                dr.line(
                    [(mx - half[0], my - half[1]), (mx + half[0], my + half[1])],
                    fill=_DOOR_RGB if aperture == "door" else _WINDOW_RGB,
                    width=max(2, s // 5),
                )
    if embankment:
        dr.line([a, z], fill=_EMBANKMENT_RGB, width=max(2, s // 6))
    if crest:
        dr.line([a, z], fill=_CREST_RGB, width=max(2, s // 6))


def _draw_legend(dr, lay: FrameLayout) -> None:
    """The legend panel: one symbol and its meaning a line (the symbols drawn as on the map,
    at a fixed 14-pixel hex radius ⚙ so the panel does not grow with the map)."""
    font = _font(_text_px(lay.hex_size))
    x0, y = lay.panel_x + 8, 6
    lh = lay.line_h
    sym = 14  # hex radius of the legend's symbols
    sx = x0 + sym * 0.5  # a symbol's centre
    tx = x0 + 2 * sym  # its text

    asc = font.getbbox("Ag")[3]

    def line(text: str, colour=_TEXT_RGB) -> None:
        dr.text((round(tx), round(y + (lh - asc) / 2)), text, font=font, fill=colour)

    dr.text((x0, y), "Legend", font=font, fill=_TEXT_RGB)
    y += lh
    terrain = [t for t in Terrain]
    half = (len(terrain) + 1) // 2
    colw = (lay.panel_w - 16) // 2
    for k, t in enumerate(terrain):  # two columns of terrain swatches
        cx = x0 + (k // half) * colw
        cy: float = y + (k % half) * lh  # a swatch's top; below, a symbol's centre
        box = [cx, cy + 2, cx + lh - 4, cy + lh - 2]
        dr.rectangle(box, fill=TERRAIN_RGB[t], outline=_GRID_RGB)
        dr.text((cx + lh, round(cy + (lh - asc) / 2)), t.name.lower(), font=font, fill=_TEXT_RGB)
    y += half * lh
    dr.text((x0, y + 2), "higher ground darker", font=font, fill=_DIM_TEXT_RGB)
    y += lh
    cy = y + lh / 2

    def disc(cx: float, cy_: float, rad: float, fill, outline=(0, 0, 0)) -> None:
        dr.ellipse([cx - rad, cy_ - rad, cx + rad, cy_ + rad], fill=fill, outline=outline)

    for text, side in (("US soldier", Side.US), ("German (known)", Side.GERMAN)):
        disc(sx, y + lh / 2, sym * _STANCE_R[Stance.STANDING] * 1.6, _UNIT_RGB[int(side)])
        line(text)
        y += lh
    for k, st in enumerate(Stance):  # the stance sizes side by side
        disc(sx - 5 + 9 * k, y + lh / 2, sym * _STANCE_R[st] * 1.6 * 0.75, _UNIT_RGB[int(Side.US)])
    line("standing / crouching / prone")
    y += lh
    cy = y + lh / 2
    rad = sym * _STANCE_R[Stance.STANDING] * 1.6
    disc(sx, cy, rad, _UNIT_RGB[int(Side.US)])
    dr.ellipse([sx - 2, cy - 2, sx + 2, cy + 2], fill=(255, 255, 255))
    line("wounded")
    y += lh
    cy = y + lh / 2
    disc(sx, cy, rad, _UNIT_RGB[int(Side.US)])
    _cross(dr, [sx - rad, cy - rad, sx + rad, cy + rad])
    line("incapacitated / killed")
    y += lh
    cy = y + lh / 2
    disc(sx, cy, rad, _UNIT_RGB[int(Side.GERMAN)])
    dr.ellipse([sx - rad - 2, cy - rad - 2, sx + rad + 2, cy + rad + 2], outline=_PRISONER_RGB)
    line("prisoner")
    y += lh
    cy = y + lh / 2
    disc(sx, cy, rad, _UNIT_RGB[int(Side.US)], outline=(255, 255, 255))
    dr.ellipse([sx - rad - 1, cy - rad - 1, sx + rad + 1, cy + rad + 1], outline=(255, 255, 255))
    line("acting unit")
    y += lh

    def swatch() -> None:  # a patch of clear ground under a symbol drawn as on the map
        dr.rectangle([x0 - 2, y + 1, x0 + 2 * sym - 4, y + lh - 1], fill=TERRAIN_RGB[Terrain.CLEAR])

    for text, fill, disabled in (
        ("US vehicle, crew aboard", _VEHICLE_RGB[int(Side.US)], False),
        ("German vehicle", _VEHICLE_RGB[int(Side.GERMAN)], False),
        ("disabled vehicle", _DISABLED_RGB, True),
    ):
        swatch()
        vx, vy = x0 + sym - 4, y + lh / 2
        _vehicle_shape(dr, vx, vy, lh * 0.95, facing=2, large=False, fill=fill, disabled=disabled)
        if not disabled and fill == _VEHICLE_RGB[int(Side.US)]:
            for px, py in _seat_points(vx, vy, lh * 0.95, 2, False, 2):
                disc(px, py, max(1.5, lh * 0.95 * _SEAT_R), _UNIT_RGB[int(Side.US)])
        line(text)
        y += lh
    for text, kw in (
        ("wall", dict(wall=True)),
        ("door", dict(wall=True, aperture="door")),
        ("window", dict(wall=True, aperture="window")),
        ("destroyed wall", dict(wall=True, destroyed=True)),
        ("embankment", dict(embankment=True)),
        ("crest", dict(crest=True)),
    ):
        swatch()
        _draw_hexside(dr, (x0, y + lh / 2), (x0 + 2 * sym - 6, y + lh / 2), lay.hex_size, **kw)
        line(text)
        y += lh
    cy = y + lh / 2
    dr.polygon(hex_corners(sx + 2, cy, lh / 2), outline=_OBJECTIVE_RGB)
    line("objective hex")
    y += lh
    cy = y + lh / 2
    dr.polygon(hex_corners(sx + 2, cy, lh / 2), outline=_EXIT_RGB)
    line("exit hex")
    y += lh
    dr.line([(x0, y + lh / 2), (x0 + 2 * sym - 6, y + lh / 2)], fill=_SHOT_RGB, width=2)
    line("last shot")


def _static(game: Game, lay: FrameLayout, hud: bool, legend: bool):
    """The cached static layer (map, labels, legend, HUD background and title)."""
    from PIL import Image, ImageDraw

    b = game.board
    key = (b.version, lay, hud, legend, game.mission_id, game.exit_hexes, game.objective_hexes)
    layers = _CACHE.get(b)
    if layers is None:
        if len(_CACHE) >= STATIC_BOARDS_MAX:
            _CACHE.clear()
        layers = _CACHE[b] = {}
    img = layers.get(key)
    if img is not None:
        return img
    img = Image.new("RGB", (lay.width, lay.height), _BACKGROUND)
    dr = ImageDraw.Draw(img)
    _draw_map(dr, game, lay.hex_size)
    if legend:
        dr.rectangle([lay.panel_x, 0, lay.width - 1, lay.hud_y - 1], fill=_PANEL_RGB)
        _draw_legend(dr, lay)
    if hud:
        dr.rectangle([0, lay.hud_y, lay.width - 1, lay.height - 1], fill=_PANEL_RGB)
        dr.line([(0, lay.hud_y), (lay.width - 1, lay.hud_y)], fill=(90, 90, 90))
    if len(layers) >= STATIC_PER_BOARD_MAX:
        layers.clear()
    layers[key] = img
    return img


# ------------------------------------------------------------------ units and vehicles
def _cross(dr, box, width: int = 2) -> None:
    dr.line([box[0], box[1], box[2], box[3]], fill=(0, 0, 0), width=width)
    dr.line([box[0], box[3], box[2], box[1]], fill=(0, 0, 0), width=width)


def _axes(facing: int) -> tuple[float, float, float, float]:
    """Forward and sideways unit vectors of a facing (direction d points at -90 + 60 d degrees,
    y down)."""
    ang = math.radians(-90 + 60 * (facing % 6))
    ux, uy = math.cos(ang), math.sin(ang)
    return ux, uy, -uy, ux


def _body_half(s: float, large: bool) -> tuple[float, float]:
    """Half length and half width of a vehicle body, in pixels."""
    return s * (0.5 if large else 0.42), s * (0.3 if large else 0.25)


def _vehicle_shape(
    dr,
    cx: float,
    cy: float,
    s: float,
    *,
    facing: int,
    large: bool,
    fill,
    disabled: bool,
    outline=(20, 20, 20),
    outline_width: int = 1,
) -> None:
    """A vehicle body along its facing with an arrow head at the front; crossed out when
    disabled."""
    ux, uy, px, py = _axes(facing)
    half_l, half_w = _body_half(s, large)

    def pt(a: float, b: float) -> tuple[float, float]:
        return cx + ux * a + px * b, cy + uy * a + py * b

    body = [pt(half_l, half_w), pt(half_l, -half_w), pt(-half_l, -half_w), pt(-half_l, half_w)]
    dr.polygon(body, fill=fill, outline=outline, width=outline_width)
    tip = [
        pt(half_l + s * 0.22, 0.0),
        pt(half_l - s * 0.04, half_w * 0.9),
        pt(half_l - s * 0.04, -half_w * 0.9),
    ]
    dr.polygon(tip, fill=(20, 20, 20))
    if disabled:
        dr.line([body[0], body[2]], fill=(20, 20, 20), width=2)
        dr.line([body[1], body[3]], fill=(20, 20, 20), width=2)


#: seats on a body, (along, across) in half lengths / half widths: the front pair (the
#: driver first), the rear pair, then the middle pair (⚙ the centre stays the body's colour
#: for up to four occupants)
_SEATS = ((0.55, 0.5), (0.55, -0.5), (-0.55, 0.5), (-0.55, -0.5), (0.0, 0.5), (0.0, -0.5))


def _seat_points(
    cx: float, cy: float, s: float, facing: int, large: bool, n: int
) -> list[tuple[float, float]]:
    ux, uy, px, py = _axes(facing)
    half_l, half_w = _body_half(s, large)
    return [
        (cx + ux * a * half_l + px * b * half_w, cy + uy * a * half_l + py * b * half_w)
        for a, b in _SEATS[:n]
    ]


def _beside(cx: float, cy: float, s: float, facing: int, n: int) -> list[tuple[float, float]]:
    """Places for ``n`` soldiers outside a vehicle in its hex: a row along the body on its
    lower side (the labels are at the top), ⚙ at most three (a fourth shows a count)."""
    ux, uy, px, py = _axes(facing)
    if py < -1e-9 or (abs(py) <= 1e-9 and px < 0):
        px, py = -px, -py
    step = 0.42 * s
    offs = [0.0] if n == 1 else [-0.5 * step, 0.5 * step] if n == 2 else [-step, 0.0, step]
    return [(cx + px * 0.52 * s + ux * t, cy + py * 0.52 * s + uy * t) for t in offs]


def _grid(cx: float, cy: float, s: float, n: int) -> list[tuple[float, float]]:
    """Places for ``n`` soldiers in a hex without a vehicle: one row for up to three, two rows
    for up to six below the label (⚙ a seventh and more show as a count)."""
    dx = 0.5 * s
    if n <= 3:
        return [(cx + (k - (n - 1) / 2) * dx, cy + 0.1 * s) for k in range(n)]
    top = min(3, n - 3)  # three in the lower row, the rest above
    pts = [(cx + (k - (top - 1) / 2) * dx, cy - 0.15 * s) for k in range(top)]
    pts += [(cx + (k - 1) * dx, cy + 0.3 * s) for k in range(3)]
    return pts


def _draw_soldier(dr, u, x: float, y: float, rad: float, acting: bool) -> None:
    fill = _UNIT_RGB.get(u.side, (200, 200, 200))
    box = [x - rad, y - rad, x + rad, y + rad]
    dr.ellipse(box, fill=fill, outline=(255, 255, 255) if acting else (0, 0, 0))
    if acting:
        dr.ellipse([x - rad - 1, y - rad - 1, x + rad + 1, y + rad + 1], outline=(255, 255, 255))
    if u.status in (Status.INCAPACITATED, Status.KILLED):
        _cross(dr, box, 2 if rad >= 6 else 1)
    elif u.status == Status.CAPTURED:
        dr.ellipse([x - rad - 2, y - rad - 2, x + rad + 2, y + rad + 2], outline=_PRISONER_RGB)
    if u.wounded and u.status == Status.ACTIVE:
        w = max(1.0, rad / 3)
        dr.ellipse([x - w, y - w, x + w, y + w], fill=(255, 255, 255))


def _count(dr, x: float, y: float, n: int, s: int) -> None:
    _text(dr, (x, y), f"+{n}", _font(_label_px(s)), (255, 255, 255), centre=True)


def _draw_units(dr, game: Game, s: int) -> None:
    from ambush_env.core.model.state import known_vehicle
    from ambush_env.core.vehicles.vehicles import vtype

    b = game.board
    st = game.state
    known = set(st.contacts)
    acting = game.acting_unit()

    def visible(u) -> bool:
        if u.hex < 0 or u.status in (Status.REMOVED, Status.HIDDEN):
            return False
        return u.side == Side.US or u.uid in known  # only what the US player could know

    aboard: dict[int, list] = {}
    afoot: dict[int, list] = {}
    for u in st.units:
        if u.role == "tank" and u.vehicle >= 0:
            continue  # a tank's own unit is the tank
        if not visible(u):
            continue
        if 0 <= u.vehicle < len(st.vehicles):
            aboard.setdefault(u.vehicle, []).append(u)
        else:
            afoot.setdefault(u.hex, []).append(u)
    facing_in: dict[int, int] = {}  # hex -> the first vehicle's facing there
    in_hex: dict[int, int] = {}
    for v in st.vehicles:
        if v.hex < 0 or v.exited or not known_vehicle(st, v):
            continue  # a German vehicle whose crew is hidden is hidden too (RULES.md §5)
        cx, cy = hex_centre(*b.coords(v.hex), s)
        k = in_hex.get(v.hex, 0)
        in_hex[v.hex] = k + 1
        if k:  # a second vehicle in the hex: shifted down and right
            cx, cy = cx + s * 0.25, cy + s * 0.25
        else:
            facing_in[v.hex] = v.facing
        large = vtype(v).size == "large"
        is_acting = acting is not None and acting.role == "tank" and acting.vehicle == v.vid
        fill = _DISABLED_RGB if v.disabled else _VEHICLE_RGB.get(v.side, (200, 200, 200))
        _vehicle_shape(
            dr,
            cx,
            cy,
            s,
            facing=v.facing,
            large=large,
            fill=fill,
            disabled=v.disabled,
            outline=(255, 255, 255) if is_acting else (20, 20, 20),
            outline_width=2 if is_acting else 1,
        )
        seated = aboard.get(v.vid, [])
        seated.sort(
            key=lambda u: (
                u.uid != v.driver,
                v.passengers.index(u.uid) if u.uid in v.passengers else 99,
            )
        )
        pts = _seat_points(cx, cy, s, v.facing, large, min(len(seated), len(_SEATS)))
        for u, (x, y) in zip(seated, pts, strict=False):
            _draw_soldier(dr, u, x, y, max(1.5, s * _SEAT_R), acting is u)
        if len(seated) > len(_SEATS):
            _count(dr, cx, cy, len(seated) - len(_SEATS), s)
    for h, units in afoot.items():
        cx, cy = hex_centre(*b.coords(h), s)
        if acting in units:  # the acting soldier is always among those drawn
            units.remove(acting)
            units.insert(0, acting)
        if h in facing_in:
            pts = _beside(cx, cy, s, facing_in[h], min(len(units), 3))
        else:
            pts = _grid(cx, cy, s, min(len(units), 6))
        for u, (x, y) in zip(units, pts, strict=False):
            rad = s * _STANCE_R.get(Stance(u.stance), 0.175)
            _draw_soldier(dr, u, x, y, max(1.5, rad), acting is u)
        if len(units) > len(pts):
            x, y = pts[-1]
            _count(dr, x + 0.3 * s, y + 0.3 * s, len(units) - len(pts), s)


# ------------------------------------------------------------------ the HUD
def _phase_text(game: Game) -> str:
    st = game.state
    if game.over:
        from ambush_env.core.model.types import RESULT_NAMES

        res = RESULT_NAMES[game.result] if game.result >= 0 else "?"
        return f"over: {res} ({st.end_reason})"
    if st.phase == Phase.ROUNDS:
        ini = {int(Side.US): "US", int(Side.GERMAN): "German"}.get(st.initiative, "-")
        return f"Rounds, Round {st.round} (initiative {ini})"
    return f"Operations, pulse {st.pulse + 1}"


_AR_TEXT = {int(ARSpace.TWO_TURN): "2-Turn", int(ARSpace.ONE_TURN): "1-Turn"}


def hud_lines(game: Game, caption: str | None = None) -> tuple[str, str, str]:
    """The HUD's three lines: mission, phase (Operations pulse, or Round and initiative) and
    time left; VP, the acting unit (name, slot, hex, stance, wounded, its Action Round track
    space), the US soldiers up and the contacts; the caption (``""`` when None)."""
    st = game.state
    pulses, rounds_left = game.time_left()
    title = getattr(getattr(game, "mission", None), "title", game.mission_id)
    first = (
        f"{title} ({game.mission_id})  |  {_phase_text(game)}  |  time left: "
        f"{pulses} pulses, {rounds_left} Rounds"
    )
    acting = game.acting_unit()
    if acting is None:
        who = "-- (select a unit)" if not game.over else "--"
    else:
        where = game.board.label(acting.hex) if acting.hex >= 0 else "off map"
        who = f"{acting.name} (slot {acting.slot}) at {where}, {STANCE_NAMES[acting.stance]}"
        if acting.wounded:
            who += ", wounded"
        if game.state.phase == Phase.ROUNDS and acting.ar in _AR_TEXT:
            who += f", {_AR_TEXT[acting.ar]}"
    second = (
        f"VP {int(game.vp)}  |  acting: {who}  |  US up: "
        f"{sum(1 for u in st.units if u.side == Side.US and u.status == Status.ACTIVE and u.hex >= 0)}"
        f"  |  contacts: {len(st.contacts)}"
    )
    return first, second, caption or ""


def _fit(text: str, font, width: float) -> str:
    """``text``, or its longest start that fits ``width`` pixels with ``...`` after it."""
    if font.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)  # text[:lo] + "..." fits; text[:hi] + "..." does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if font.getlength(text[:mid] + "...") <= width:
            lo = mid
        else:
            hi = mid
    return text[:lo] + "..."


@lru_cache(maxsize=256)
def _hud_line(text: str, px: int, width: int, height: int, dim: bool):
    """One HUD line drawn on the panel colour, cut to ``width`` (cached: FreeType text costs
    about half a millisecond a line, and the first two lines change only now and then)."""
    from PIL import Image, ImageDraw

    font = _font(px)
    img = Image.new("RGB", (width, height), _PANEL_RGB)
    ImageDraw.Draw(img).text(
        (0, 0), _fit(text, font, width), font=font, fill=_DIM_TEXT_RGB if dim else _TEXT_RGB
    )
    return img


def _draw_hud(img, game: Game, lay: FrameLayout, caption: str | None) -> None:
    px = _text_px(lay.hex_size)
    for k, text in enumerate(hud_lines(game, caption)):
        if text:
            img.paste(
                _hud_line(text, px, lay.width - 16, lay.line_h, k == 2),
                (8, lay.hud_y + 4 + k * lay.line_h),
            )


# ------------------------------------------------------------------ the frame
def render_rgb(
    game: Game,
    *,
    hex_size: int = DEFAULT_HEX_SIZE,
    last_shot: tuple[int, int] | None = None,
    caption: str | None = None,
    hud: bool = True,
    legend: bool = True,
) -> np.ndarray:
    """The current map as an image (module docstring: what is drawn, and where).

    Args:
        game: the game to draw.
        hex_size: hex radius in pixels.
        last_shot: ``(shooter hex, target hex)`` of the last shot to draw, or None.
        caption: the HUD's third line (the env passes its last event), or None.
        hud, legend: draw the HUD strip and the legend panel (False: the map alone, as
            :func:`frame_layout` says).

    Returns:
        ``(H, W, 3) uint8``; ``(H, W) == (layout.height, layout.width)`` of
        :func:`frame_layout`.

    Raises:
        ValueError: ``hex_size`` is not positive.
    """
    from PIL import ImageDraw

    b = game.board
    lay = frame_layout(b.columns, b.rows, hex_size, hud=hud, legend=legend)
    s = lay.hex_size
    img = _static(game, lay, hud, legend).copy()
    dr = ImageDraw.Draw(img)
    _draw_units(dr, game, s)
    if last_shot is not None and min(last_shot) >= 0:
        p = [hex_centre(*b.coords(h), s) for h in last_shot]
        dr.line(p, fill=_SHOT_RGB, width=2)
    if hud:
        _draw_hud(img, game, lay, caption)
    return np.asarray(img, dtype=np.uint8)


def event_caption(events: list[dict]) -> str:
    """A one-line summary of the last of ``events`` for the HUD: its type and its plain fields
    (``"last: fire shooter=US2 target=G1 ... result=miss"``); ``""`` when there are none. A
    message event shows its text."""
    if not events:
        return ""
    e = events[-1]
    if e.get("type") == "message":
        return f"last: {e.get('text', '')}"
    parts = [
        f"{k}={v}"
        for k, v in e.items()
        if k != "type" and isinstance(v, (str, int, float, bool)) and not isinstance(v, dict)
    ]
    return "last: " + " ".join([str(e.get("type", "?")), *parts])
