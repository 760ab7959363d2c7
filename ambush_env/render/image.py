"""The ``"rgb_array"`` render: the hex map as an image (INTERFACE.md render modes), with Pillow.

:func:`render_rgb` draws, for a :class:`~ambush_env.core.game.Game`:

* terrain colours (darker for each ground level), objective hexes outlined in gold, exit
  hexes with a green edge;
* building walls as thick dark lines with doors (brown gaps) and windows (light blue gaps),
  destroyed walls dashed grey; embankments and crests as olive and black lines;
* vehicles under the soldiers: a rectangle along the facing with an arrow head, light blue
  when the US holds it, light red for the Germans, a large (tank) body longer; disabled
  vehicles grey and crossed out; a second vehicle in a hex is drawn offset;
* US soldiers (blue) and *known* Germans (red) as discs whose size shows the stance
  (standing large, crouching medium, prone small); wounded get a white dot, incapacitated and
  killed a cross, prisoners a yellow ring; the acting soldier a white ring;
* the line of the last shot, from shooter to target, in orange.

Hidden Germans are never drawn (only what a player could know). The static layer is cached
per board version, so a frame costs a copy and the units.

Returns ``(H, W, 3) uint8`` arrays; the size depends on the map (``hex_size`` pixels per hex
radius).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ambush_env.core.types import Side, Stance, Status, Terrain
from ambush_env.render.geometry import SIDE_CORNERS, hex_centre, hex_corners, map_size

if TYPE_CHECKING:
    from ambush_env.core import Game

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
_STANCE_R = {Stance.STANDING: 0.5, Stance.CROUCHING: 0.4, Stance.PRONE: 0.3}
_VEHICLE_RGB = {int(Side.US): (110, 150, 235), int(Side.GERMAN): (235, 120, 110)}
_DISABLED_RGB = (125, 125, 125)
_CACHE: dict[tuple[int, str, int, int], Any] = {}


_centre = hex_centre
_corners = hex_corners
_SIDE_CORNERS = SIDE_CORNERS


def _static(game: "Game", s: int):
    from PIL import Image, ImageDraw

    b = game.board
    key = (id(b), b.name, b.version, s)
    img = _CACHE.get(key)
    if img is not None:
        return img
    w, h = map_size(b.columns, b.rows, s)
    img = Image.new("RGB", (w, h), (40, 40, 40))
    dr = ImageDraw.Draw(img)
    for i in range(b.n):
        c, r = b.coords(i)
        cx, cy = _centre(c, r, s)
        base = TERRAIN_RGB.get(Terrain(b.terrain[i]), (200, 200, 200))
        k = 1.0 - 0.12 * b.level[i]
        fill = tuple(int(v * k) for v in base)
        outline = (120, 120, 100)
        if i in game.exit_hexes:
            outline = (40, 160, 40)
        dr.polygon(_corners(cx, cy, s), fill=fill, outline=outline)
        if i in game.objective_hexes:
            dr.polygon(_corners(cx, cy, s * 0.85), outline=(230, 190, 40))
    for i in range(b.n):
        c, r = b.coords(i)
        cx, cy = _centre(c, r, s)
        pts = _corners(cx, cy, s)
        for d, j in enumerate(b.neighbors[i]):
            if j < 0 or j < i:
                continue
            hs = b.hexside(i, j)
            if hs is None:
                continue
            a, z = (pts[k] for k in _SIDE_CORNERS[d])
            if hs.wall is not None:
                if hs.destroyed:
                    dr.line([a, z], fill=(140, 140, 140), width=1)
                else:
                    dr.line([a, z], fill=(50, 35, 30), width=max(2, s // 5))
                    if hs.aperture in ("door", "window"):
                        mx, my = (a[0] + z[0]) / 2, (a[1] + z[1]) / 2
                        half = ((z[0] - a[0]) / 4, (z[1] - a[1]) / 4)
                        col = (150, 90, 40) if hs.aperture == "door" else (170, 210, 240)
                        dr.line([(mx - half[0], my - half[1]), (mx + half[0], my + half[1])],
                                fill=col, width=max(2, s // 5))
            if hs.embankment:
                dr.line([a, z], fill=(110, 110, 30), width=max(2, s // 6))
            if hs.crest:
                dr.line([a, z], fill=(0, 0, 0), width=max(2, s // 6))
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[key] = img
    return img


def _draw_vehicle(dr, v, cx: float, cy: float, s: float, large: bool) -> None:
    """A vehicle body along its facing (direction d points at -90 + 60 d degrees, y down),
    with an arrow head at the front; grey and crossed out when disabled."""
    ang = math.radians(-90 + 60 * (v.facing % 6))
    ux, uy = math.cos(ang), math.sin(ang)  # forward
    px, py = -uy, ux  # sideways
    half_l = s * (0.62 if large else 0.5)
    half_w = s * (0.34 if large else 0.26)

    def pt(a: float, b: float) -> tuple[float, float]:
        return cx + ux * a + px * b, cy + uy * a + py * b

    body = [pt(half_l, half_w), pt(half_l, -half_w), pt(-half_l, -half_w), pt(-half_l, half_w)]
    fill = _DISABLED_RGB if v.disabled else _VEHICLE_RGB.get(v.side, (200, 200, 200))
    dr.polygon(body, fill=fill, outline=(20, 20, 20))
    tip = [pt(half_l + s * 0.3, 0.0), pt(half_l - s * 0.05, half_w * 0.9), pt(half_l - s * 0.05, -half_w * 0.9)]
    dr.polygon(tip, fill=(20, 20, 20))
    if v.disabled:
        dr.line([body[0], body[2]], fill=(20, 20, 20), width=2)
        dr.line([body[1], body[3]], fill=(20, 20, 20), width=2)


def render_rgb(game: "Game", *, hex_size: int = 16, last_shot: tuple[int, int] | None = None) -> np.ndarray:
    """The current map as an image.

    Args:
        game: the game to draw.
        hex_size: hex radius in pixels.
        last_shot: ``(shooter hex, target hex)`` of the last shot to draw, or None.

    Returns:
        ``(H, W, 3) uint8``.
    """
    from PIL import ImageDraw

    b = game.board
    s = int(hex_size)
    img = _static(game, s).copy()
    dr = ImageDraw.Draw(img)
    st = game.state
    known = set(st.contacts)
    acting = game.acting_unit()
    if st.vehicles:
        from ambush_env.core.vehicles import vtype

        in_hex: dict[int, int] = {}
        for v in st.vehicles:
            if v.hex < 0 or v.exited:
                continue
            cx, cy = _centre(*b.coords(v.hex), s)
            k = in_hex.get(v.hex, 0)
            in_hex[v.hex] = k + 1
            if k:  # a second vehicle in the hex: shifted down and right
                cx, cy = cx + s * 0.25, cy + s * 0.25
            _draw_vehicle(dr, v, cx, cy, s, vtype(v).size == "large")
    per_hex: dict[int, int] = {}
    for u in st.units:
        if u.hex < 0 or u.status in (Status.REMOVED, Status.HIDDEN):
            continue
        if u.side == Side.GERMAN and u.uid not in known:
            continue  # only what a player could know
        c, r = b.coords(u.hex)
        cx, cy = _centre(c, r, s)
        k = per_hex.get(u.hex, 0)
        per_hex[u.hex] = k + 1
        ox = (k % 3 - 1) * s * 0.45
        oy = (k // 3 - 0.5) * s * 0.45
        rad = s * _STANCE_R.get(Stance(u.stance), 0.4) * 0.8
        x, y = cx + ox, cy + oy
        fill = (40, 80, 200) if u.side == Side.US else (200, 40, 40)
        box = [x - rad, y - rad, x + rad, y + rad]
        dr.ellipse(box, fill=fill, outline=(255, 255, 255) if acting is u else (0, 0, 0))
        if u.status in (Status.INCAPACITATED, Status.KILLED):
            dr.line([box[0], box[1], box[2], box[3]], fill=(0, 0, 0), width=2)
            dr.line([box[0], box[3], box[2], box[1]], fill=(0, 0, 0), width=2)
        elif u.status == Status.CAPTURED:
            dr.ellipse([x - rad - 2, y - rad - 2, x + rad + 2, y + rad + 2], outline=(240, 220, 40))
        if u.wounded and u.status == Status.ACTIVE:
            dr.ellipse([x - 2, y - 2, x + 2, y + 2], fill=(255, 255, 255))
    if last_shot is not None and min(last_shot) >= 0:
        p = [_centre(*b.coords(h), s) for h in last_shot]
        dr.line(p, fill=(255, 140, 0), width=2)
    return np.asarray(img, dtype=np.uint8)
