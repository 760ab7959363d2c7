"""The HTML replay viewer: one self-contained file (inline CSS, JS and SVG; no URL outside it).

:func:`map_data` reads a game's board once, :func:`frame` what one step left on it (units,
vehicles, the acting soldier, the last shot, the events), and :func:`write_viewer` writes the
page: an SVG hex map drawn with :mod:`ambush_env.render.geometry` (terrain in the colours of
:data:`ambush_env.render.image.TERRAIN_RGB`, darker per ground level; walls, doors, windows;
objective and exit hexes; each hex's label), a step slider, first/prev/play/next/last buttons,
the step counter ``step k / N`` (``#step-counter``), the HUD (``#hud``), the event log of the
steps up to the current one (``#event-log``, the current step's block ``#log-current``), who is
in which vehicle (``#aboard``) and a legend; an illegal (penalised) order is marked ``(illegal,
penalised)`` in the HUD and the log. The frames come from re-simulating a replay (:func:`ambush_env.replay.simulate`), so
the viewer shows what the engine really did. This module reads a game's state only; it never
imports the env or the agents.

⚙ Hidden Germans (placed on the map but not known to the US) are drawn faded with a dashed
outline, and so is a vehicle the US does not know is there (a German one whose crew is
hidden: :func:`~ambush_env.core.model.state.known_vehicle`; its tooltip names nobody aboard), and
``#show-hidden`` hides them: a replay viewer is for debugging, where what the
engine knows matters, while the checkbox gives the player's view.
⚙ The line of the last shot is that step's last shot (``fire``, ``fire_chain``,
``fire_vehicle``, ``fire_wall``); a step without a shot shows none.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambush_env.core.model.types import RESULT_NAMES, Phase, Side, Status, Terrain
from ambush_env.render.ansi import format_event
from ambush_env.render.geometry import hex_centre, hex_corners, hexside_segments, map_size
from ambush_env.render.image import TERRAIN_RGB

if TYPE_CHECKING:
    from ambush_env.core.world.board import Board

HEX_SIZE = 24  # hex radius in SVG units
SHOT_EVENTS = ("fire", "fire_chain", "fire_vehicle", "fire_wall")
# unit flags of a frame (bits)
WOUNDED, KNOWN, PANICKED, ACTING = 1, 2, 4, 8


def _rgb(c: tuple[int, int, int], k: float = 1.0) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, int(v * k))) for v in c))


def map_data(game: Any) -> dict[str, Any]:
    """The static map of ``game``'s board as it was loaded: ``{"name", "columns", "rows",
    "size", "width", "height", "centres": [[x, y]] per hex, "svg": the static layer}``."""
    b = game.board
    s = HEX_SIZE
    w, h = map_size(b.columns, b.rows, s)
    pristine = b._pristine[0] if hasattr(b, "_pristine") else b.terrain
    parts: list[str] = []
    centres = []
    objectives, exits = set(game.objective_hexes), set(game.exit_hexes)
    for i in range(b.n):
        c, r = b.coords(i)
        cx, cy = hex_centre(c, r, s)
        centres.append([round(cx, 1), round(cy, 1)])
        t = Terrain(int(pristine[i]))
        fill = _rgb(TERRAIN_RGB.get(t, (200, 200, 200)), 1.0 - 0.12 * int(b.level[i]))
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(cx, cy, s))
        cls = "hex" + (" exit" if i in exits else "") + (" objective" if i in objectives else "")
        parts.append(
            f'<polygon class="{cls}" id="hex-{i}" points="{pts}" fill="{fill}">'
            f"<title>{b.label(i)} {t.name.lower()} level {int(b.level[i])}</title></polygon>"
        )
        if i in objectives:
            inner = " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(cx, cy, s * 0.82))
            parts.append(f'<polygon class="objective-mark" points="{inner}"/>')
        parts.append(
            f'<text class="hexlabel" x="{cx:.1f}" y="{cy - s * 0.55:.1f}">{b.label(i)}</text>'
        )
    for i, j, hs, (x1, y1), (x2, y2) in hexside_segments(b, s):
        xy = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        if hs.wall is not None:
            parts.append(f'<line class="wall" id="side-{b.side_between(i, j)}" {xy}/>')
            if hs.aperture in ("door", "window"):
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                hx, hy = (x2 - x1) / 4, (y2 - y1) / 4
                parts.append(
                    f'<line class="{hs.aperture}" x1="{mx - hx:.1f}" y1="{my - hy:.1f}" '
                    f'x2="{mx + hx:.1f}" y2="{my + hy:.1f}"/>'
                )
        if hs.embankment:
            parts.append(f'<line class="embankment" {xy}/>')
        if hs.crest:
            parts.append(f'<line class="crest" {xy}/>')
    return {
        "name": b.name,
        "columns": int(b.columns),
        "rows": int(b.rows),
        "size": s,
        "width": w,
        "height": h,
        "centres": centres,
        "svg": "".join(parts),
    }


def _phase_text(game: Any) -> str:
    st = game.state
    if game.over:
        return f"over ({RESULT_NAMES[game.result] if game.result >= 0 else '?'}: {st.end_reason})"
    if st.phase == Phase.ROUNDS:
        return f"Rounds, Round {st.round}"
    return f"Operations, pulse {st.pulse + 1}"


def frame(
    game: Any,
    events: list[dict],
    step: int = 0,
    order: str | None = None,
    unit: str | None = None,
    illegal: bool = False,
) -> dict[str, Any]:
    """What the viewer shows after one step (``step`` 0: after the reset).

    Args:
        game: the game just after the step.
        events: the step's events (``info["events"]``).
        step: the step number; order / unit: the recorded order's text and its soldier;
        illegal: the order was illegal (a penalised no-op).

    Returns:
        ``{"step", "order", "unit", "illegal", "phase", "vp", "acting", "units": [[uid, name,
        side, hex, status, stance, flags, vehicle]], "vehicles": [[vid, name, side, hex,
        facing, disabled, large, text, aboard, known]], "shot": [x1, y1, x2, y2] | None, "log":
        [event lines],
        "destroyed": [hexside ids], "collapsed": [hex indices]}``; ``flags`` are the bits
        :data:`WOUNDED`, :data:`KNOWN` (a German the US knows; US soldiers always),
        :data:`PANICKED`, :data:`ACTING`; a vehicle's ``text`` is ``"V1 Jeep (C6): US1
        driver, US2"``, ``aboard`` its soldiers' names, the driver first, ``known`` whether the US
        knows it is there (:func:`~ambush_env.core.model.state.known_vehicle`; an unknown one's
        ``text`` names nobody aboard).
    """
    st = game.state
    b = game.board
    known = set(st.contacts)
    acting = game.acting_unit()
    units = []
    for u in st.units:
        if u.hex < 0 or u.status in (Status.REMOVED, Status.HIDDEN):
            continue
        flags = (WOUNDED if u.wounded else 0) | (PANICKED if u.panicked else 0)
        if u.side == Side.US or u.uid in known:
            flags |= KNOWN
        if acting is not None and u.uid == acting.uid:
            flags |= ACTING
        veh = st.vehicles[u.vehicle].name if 0 <= u.vehicle < len(st.vehicles) else ""
        units.append(
            [u.uid, u.name, int(u.side), int(u.hex), int(u.status), int(u.stance), flags, veh]
        )
    vehicles = []
    if st.vehicles:
        from ambush_env.core.model.state import known_vehicle
        from ambush_env.core.vehicles.vehicles import vtype

        for v in st.vehicles:
            if v.hex < 0 or v.exited:
                continue
            t = vtype(v)
            aboard = ([st.units[v.driver].name] if v.driver >= 0 else []) + [
                st.units[k].name for k in v.passengers
            ]
            # a tank's own unit (its crew as one unit) drives it: "crew", not "driver"
            crew = v.driver >= 0 and st.units[v.driver].role == "tank"
            seats = (
                [f"{aboard[0]} {'crew' if crew else 'driver'}", *aboard[1:]]
                if v.driver >= 0
                else aboard
            )
            text = (
                f"{v.name} {t.name} ({b.label(v.hex)})"
                + (f": {', '.join(seats)}" if seats else ": empty")
                + (", disabled" if v.disabled else "")
            )
            shown = known_vehicle(st, v)
            if not shown:  # hidden with its crew: as a hidden German, faded, no names ⚙
                text = f"{v.name} {t.name} ({b.label(v.hex)}) (unknown to the US)"
            vehicles.append(
                [
                    v.vid,
                    v.name,
                    int(v.side),
                    int(v.hex),
                    int(v.facing) % 6,
                    bool(v.disabled),
                    t.size == "large",
                    text,
                    aboard,
                    shown,
                ]
            )
    pristine = b._pristine[0] if hasattr(b, "_pristine") else b.terrain
    return {
        "step": step,
        "order": order,
        "unit": unit,
        "illegal": bool(illegal),
        "phase": _phase_text(game),
        "vp": int(game.vp),
        "acting": acting.name if acting is not None else None,
        "units": units,
        "vehicles": vehicles,
        "shot": _last_shot(game, events),
        "log": [format_event(e) for e in events],
        "destroyed": [k for k, g in enumerate(b.side_destroyed) if g],
        "collapsed": [i for i in range(b.n) if b.terrain[i] != pristine[i]],
    }


def _last_shot(game: Any, events: list[dict]) -> list[float] | None:
    """``[x1, y1, x2, y2]`` of the step's last shot, shooter to target (a soldier, a vehicle
    or the middle of a wall's hexside), or None."""
    st = game.state
    b: Board = game.board
    s = HEX_SIZE
    by_name = {u.name: u.hex for u in st.units}
    veh = {v.name: v.hex for v in st.vehicles}
    for e in reversed(events):
        if e.get("type") not in SHOT_EVENTS:
            continue
        a = by_name.get(e.get("shooter"), -1)
        if e["type"] == "fire_vehicle":
            pts = [
                hex_centre(*b.coords(h), s) for h in (a, veh.get(e.get("vehicle"), -1)) if h >= 0
            ]
        elif e["type"] == "fire_wall":
            try:
                i, j = (b.index(x) for x in str(e.get("target", "")).split("/"))
            except Exception:
                continue
            (x1, y1), (x2, y2) = (hex_centre(*b.coords(h), s) for h in (i, j))
            pts = ([hex_centre(*b.coords(a), s)] if a >= 0 else []) + [
                ((x1 + x2) / 2, (y1 + y2) / 2)
            ]
        else:
            pts = [
                hex_centre(*b.coords(h), s) for h in (a, by_name.get(e.get("target"), -1)) if h >= 0
            ]
        if len(pts) == 2:
            return [
                round(pts[0][0], 1),
                round(pts[0][1], 1),
                round(pts[1][0], 1),
                round(pts[1][1], 1),
            ]
    return None


def legend_html() -> str:
    """The viewer's legend (terrain colours and marks)."""
    sw = "".join(
        f'<span class="sw" style="background:{_rgb(c)}"></span>{t.name.lower()} '
        for t, c in TERRAIN_RGB.items()
    )
    return (
        f"<div>{sw}</div><div>"
        '<span class="dot us"></span>US soldier '
        '<span class="dot ger"></span>known German '
        '<span class="dot ger hid"></span>hidden German (faded) '
        '<span class="dot acting"></span>acting soldier (also inside a vehicle); white edge: aboard a vehicle (drawn inside it); '
        "size: standing &gt; crouching &gt; prone; &#x2715; down; yellow ring: captured; "
        "white dot: wounded</div><div>"
        '<span class="sw veh us"></span>US vehicle <span class="sw veh ger"></span>German '
        'vehicle <span class="sw veh off"></span>disabled; '
        '<span class="sw line wall"></span>wall (door brown, window blue) '
        '<span class="sw line shot"></span>last shot; gold outline: objective; '
        "green edge: exit</div>"
    )


_CSS = """
body{font-family:sans-serif;margin:8px;background:#f4f4f0;color:#222}
#top{display:flex;gap:12px;align-items:flex-start}
#mapbox{overflow:auto;max-width:70vw;max-height:85vh;flex:none;border:1px solid #999;background:#282828}
#side{flex:1;min-width:280px}
#controls button{min-width:3em;margin:1px}
#slider{width:100%}
#step-counter{font-weight:bold;margin-left:6px}
#hud{margin:6px 0;font-size:90%}
#event-log{height:60vh;overflow:auto;font-family:monospace;font-size:80%;background:#fff;
border:1px solid #bbb;padding:4px;white-space:pre-wrap}
#event-log .step{margin-bottom:4px;color:#777}
#event-log .step.current{color:#000;background:#fff6cc}
#event-log .head.illegal{color:#b00000}
#legend{font-size:80%;margin-top:8px}
.sw{display:inline-block;width:12px;height:12px;border:1px solid #444;vertical-align:middle;margin:0 3px}
.sw.veh.us{background:#6e96eb}.sw.veh.ger{background:#eb786e}.sw.veh.off{background:#7d7d7d}
.sw.line{height:3px;border:0}.sw.line.wall{background:#32231e}.sw.line.shot{background:#ff8c00}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin:0 3px;vertical-align:middle}
.dot.us{background:#2850c8}.dot.ger{background:#c82828}.dot.hid{opacity:.35}
.dot.acting{background:#fff;border:2px solid #ffd000}
.hex{stroke:#787864;stroke-width:.6}.hex.exit{stroke:#28a028;stroke-width:2}
.objective-mark{fill:none;stroke:#e6be28;stroke-width:1.6}
.hexlabel{font-size:8px;font-weight:bold;text-anchor:middle;fill:#111;stroke:#fff;stroke-opacity:.8;
stroke-width:2px;paint-order:stroke;stroke-linejoin:round;pointer-events:none}
.wall{stroke:#32231e;stroke-width:3.5}.wall.destroyed{stroke:#8c8c8c;stroke-width:1;stroke-dasharray:2 2}
.door{stroke:#965a28;stroke-width:3.5}.window{stroke:#aad2f0;stroke-width:3.5}
.embankment{stroke:#6e6e1e;stroke-width:3}.crest{stroke:#000;stroke-width:3}
.unit{stroke:#000;stroke-width:.8}.unit.us{fill:#2850c8}.unit.ger{fill:#c82828}
.unit.hidden{opacity:.35;stroke-dasharray:2 1.5}
.unit.aboard{stroke:#fff;stroke-width:1.2}
.unit.captured{stroke:#f0dc28;stroke-width:2.5}
.unit.acting{stroke:#ffd000;stroke-width:3}
.unit.acting.aboard{stroke-width:2}
.no-hidden .hidden{display:none}
.ulabel{font-size:7px;fill:#fff;text-anchor:middle;dominant-baseline:central;pointer-events:none}
.ulabel.small{font-size:5.5px}
#aboard{font-size:85%;margin:4px 0}
.down{stroke:#000;stroke-width:1.5}
.vehicle{stroke:#141414;stroke-width:1}.facing{fill:#141414}.vehicle.us{fill:#6e96eb}.vehicle.ger{fill:#eb786e}
.vehicle.off{fill:#7d7d7d}.vehicle-g.hidden{opacity:.35}.vehicle.hidden{stroke-dasharray:2 1.5}
.collapsed{fill:#968c82;opacity:.85}
#last-shot{stroke:#ff8c00;stroke-width:2.5;stroke-linecap:round}
"""

_JS = r"""
(function(){
const D = JSON.parse(document.getElementById('replay-data').textContent);
const F = D.frames, N = F.length - 1, S = D.map.size, C = D.map.centres;
const NS = 'http://www.w3.org/2000/svg';
const svg = document.getElementById('map'), dyn = document.getElementById('dynamic');
const slider = document.getElementById('slider'), counter = document.getElementById('step-counter');
const hud = document.getElementById('hud'), log = document.getElementById('event-log');
const playBtn = document.getElementById('play');
const shot = document.getElementById('last-shot');
const aboardBox = document.getElementById('aboard');
const ILLEGAL = '(illegal, penalised) ';
let cur = 0, timer = null;
slider.max = N;
function el(tag, attrs, parent){const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e;}
const R = {0: 0.5, 1: 0.4, 2: 0.3};
// a hex with vehicles: each vehicle a counter across the hex (several stacked one above the
// other) with an arrow on its edge for its facing, its soldiers on seats inside it (the driver
// first); soldiers of the hex not aboard in a row of small discs along its lower edge
function drawVehicle(v, k, n, lowRow){
  const [vid, name, side, hex, facing, disabled, large, text, aboard, known] = v;
  const a = (-90 + 60*facing) * Math.PI/180, ux = Math.cos(a), uy = Math.sin(a);
  const w = S*(large ? 1.3 : 1.16), h = S*(n === 1 ? (large ? 0.66 : 0.56) : Math.min(0.48, 1.1/n));
  const cx = C[hex][0], cy = C[hex][1] + (k - (n - 1)/2)*(h + S*0.06) - (lowRow ? S*0.14 : 0);
  const g = el('g', {'class': known === false ? 'vehicle-g hidden' : 'vehicle-g', 'data-name': name}, dyn);
  const body = el('rect', {'class': 'vehicle ' + (disabled ? 'off' : (side === 0 ? 'us' : 'ger')) +
    (known === false ? ' hidden' : ''),
    x: (cx - w/2).toFixed(1), y: (cy - h/2).toFixed(1), width: w.toFixed(1), height: h.toFixed(1),
    rx: (S*0.08).toFixed(1)}, g);
  el('title', {}, body).textContent = text;
  // the facing: an arrow from the counter's edge where its facing leaves it
  const t = Math.min(Math.abs(ux) > 1e-6 ? w/2/Math.abs(ux) : 1e9, Math.abs(uy) > 1e-6 ? h/2/Math.abs(uy) : 1e9);
  const bx = cx + ux*t, by = cy + uy*t, q = S*0.11;
  el('polygon', {'class': 'facing', points: [[bx + ux*S*0.2, by + uy*S*0.2], [bx - uy*q, by + ux*q],
    [bx + uy*q, by - ux*q]].map(p => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ')}, g);
  // the seats: one row, two rows for more than four soldiers
  const m = (aboard || []).length, rows = m > 4 ? 2 : 1, cols = Math.max(1, Math.ceil(m/rows));
  const cw = w*0.94/cols, ch = h/rows, seats = {};
  (aboard || []).forEach((nm, i) => {
    const r = Math.floor(i/cols), c = i % cols;
    seats[nm] = [cx - w*0.47 + (c + 0.5)*cw, cy - h/2 + (r + 0.5)*ch, Math.min(cw, ch)/2*0.86];
  });
  return {g: g, seats: seats};
}
function drawUnit(u, k, seat, lowRow){
  const [uid, name, side, hex, status, stance, flags, veh] = u;
  const [hx, hy] = C[hex];
  let x, y, r;
  if (seat) { [x, y, r] = seat; }
  else if (lowRow) {  // a soldier not aboard, in a hex with a vehicle
    x = hx + (k % 5 - 2)*S*0.3; y = hy + S*0.62 - Math.floor(k/5)*S*0.3; r = S*0.14;
  } else {
    x = hx + (k % 3 - 1)*S*0.45; y = hy + (Math.floor(k/3) - 0.5)*S*0.45; r = S*(R[stance] || 0.4)*0.8;
  }
  let cls = 'unit ' + (side === 0 ? 'us' : 'ger');
  if (!(flags & 2)) cls += ' hidden';
  if (veh) cls += ' aboard';
  if (status === 3) cls += ' captured';
  if (flags & 8) cls += ' acting';
  const g = el('g', {'class': (flags & 2) ? 'unit-g' : 'unit-g hidden', 'data-name': name}, dyn);
  const c = el('circle', {'class': cls, cx: x.toFixed(1), cy: y.toFixed(1), r: r.toFixed(1),
    id: 'unit-' + name}, g);
  const st = ['active', 'incapacitated', 'killed', 'captured', 'removed', 'hidden'][status];
  el('title', {}, c).textContent = name + ' ' + st + ((flags & 1) ? ' wounded' : '') +
    ((flags & 4) ? ' panicked' : '') + (veh ? ' in ' + veh : '') + ((flags & 2) ? '' : ' (unknown to the US)');
  if (status === 1 || status === 2) {
    el('line', {'class': 'down', x1: x - r, y1: y - r, x2: x + r, y2: y + r}, g);
    el('line', {'class': 'down', x1: x - r, y1: y + r, x2: x + r, y2: y - r}, g);
  }
  if ((flags & 1) && status === 0) el('circle', {cx: x, cy: y, r: Math.min(1.6, r/2.5), fill: '#fff'}, g);
  el('text', {'class': 'ulabel' + (r < S*0.2 ? ' small' : ''), x: x.toFixed(1), y: (y + 0.3).toFixed(1)}, g).textContent =
    side === 0 ? name.replace(/^US/, '') : name;
}
function render(k){
  cur = Math.max(0, Math.min(N, k));
  const f = F[cur];
  while (dyn.firstChild) dyn.removeChild(dyn.firstChild);
  svg.querySelectorAll('.wall').forEach(w => w.classList.toggle('destroyed',
    f.destroyed.indexOf(+w.id.slice(5)) >= 0));
  for (const h of f.collapsed) {
    el('polygon', {'class': 'collapsed', points: document.getElementById('hex-' + h).getAttribute('points')}, dyn);
  }
  const nveh = {}, vin = {}, seats = {}, low = {};
  for (const v of f.vehicles) nveh[v[3]] = (nveh[v[3]] || 0) + 1;
  for (const u of f.units) if (!u[7] && u[3] in nveh) low[u[3]] = true;
  while (aboardBox.firstChild) aboardBox.removeChild(aboardBox.firstChild);
  for (const v of f.vehicles) {
    const k2 = vin[v[3]] || 0; vin[v[3]] = k2 + 1;
    const d = drawVehicle(v, k2, nveh[v[3]], !!low[v[3]]);
    Object.assign(seats, d.seats);
    const line = document.createElement('div');
    line.className = 'vehicle-line' + (d.g.classList.contains('hidden') ? ' hidden' : '');
    line.textContent = v[7]; aboardBox.appendChild(line);
  }
  const per = {};
  for (const u of f.units) {
    const seat = u[7] ? seats[u[1]] : null;
    const k2 = seat ? 0 : (per[u[3]] || 0); if (!seat) per[u[3]] = k2 + 1;
    drawUnit(u, k2, seat, !!low[u[3]]);
  }
  if (f.shot) {
    shot.setAttribute('x1', f.shot[0]); shot.setAttribute('y1', f.shot[1]);
    shot.setAttribute('x2', f.shot[2]); shot.setAttribute('y2', f.shot[3]);
    shot.style.display = ''; dyn.appendChild(shot);
  } else { shot.style.display = 'none'; }
  slider.value = cur;
  counter.textContent = 'step ' + cur + ' / ' + N;
  hud.textContent = f.phase + ' | VP ' + f.vp + ' | acting: ' + (f.acting || '(select a unit)') +
    (f.order !== null ? ' | order: ' + (f.illegal ? ILLEGAL : '') + f.order + (f.unit ? ' [' + f.unit + ']' : '') : ' | start');
  while (log.firstChild) log.removeChild(log.firstChild);
  let last = null;
  for (let j = 0; j <= cur; j++) {
    const b = document.createElement('div');
    b.className = 'step' + (j === cur ? ' current' : '');
    b.setAttribute('data-step', j);
    if (j === cur) b.id = 'log-current';
    const head = document.createElement('div');
    head.className = 'head';
    head.textContent = j === 0 ? '0: start' : j + ': ' + (F[j].illegal ? ILLEGAL : '') + F[j].order;
    if (F[j].illegal) head.className += ' illegal';
    b.appendChild(head);
    for (const line of F[j].log) {
      const e = document.createElement('div'); e.className = 'event'; e.textContent = line; b.appendChild(e);
    }
    log.appendChild(b); last = b;
  }
  if (last) last.scrollIntoView({block: 'nearest'});
}
function stop(){ if (timer) { clearInterval(timer); timer = null; } playBtn.textContent = 'play'; }
document.getElementById('first').onclick = () => { stop(); render(0); };
document.getElementById('prev').onclick = () => { stop(); render(cur - 1); };
document.getElementById('next').onclick = () => { stop(); render(cur + 1); };
document.getElementById('last').onclick = () => { stop(); render(N); };
playBtn.onclick = () => {
  if (timer) { stop(); return; }
  if (cur >= N) render(0);
  playBtn.textContent = 'pause';
  timer = setInterval(() => { if (cur >= N) stop(); else render(cur + 1); }, 400);
};
slider.oninput = () => { stop(); render(+slider.value); };
document.getElementById('show-hidden').onchange = e => {
  svg.classList.toggle('no-hidden', !e.target.checked); aboardBox.classList.toggle('no-hidden', !e.target.checked); };
// zoom: the map's drawn size (its viewBox, the map's own coordinates, never changes);
// at first as wide as 68 % of the window, between 1x and 3x
const W0 = +svg.getAttribute('width'), H0 = +svg.getAttribute('height');
let zoom = 1;
function setZoom(z) {
  zoom = Math.max(0.5, Math.min(4, z));
  svg.setAttribute('width', Math.round(W0 * zoom)); svg.setAttribute('height', Math.round(H0 * zoom));
  document.getElementById('zoom-level').textContent = Math.round(zoom * 100) + ' %';
}
document.getElementById('zoom-in').onclick = () => setZoom(zoom * 1.25);
document.getElementById('zoom-out').onclick = () => setZoom(zoom / 1.25);
setZoom(Math.max(1, Math.min(3, 0.68 * window.innerWidth / W0)));
document.addEventListener('keydown', e => {
  if (e.key === '+' || e.key === '=') setZoom(zoom * 1.25);
  else if (e.key === '-') setZoom(zoom / 1.25);
  else if (e.key === 'ArrowRight') { stop(); render(cur + 1); }
  else if (e.key === 'ArrowLeft') { stop(); render(cur - 1); }
  else if (e.key === ' ') { e.preventDefault(); playBtn.click(); }
});
render(0);
})();
"""


def write_viewer(
    path: str | Path,
    title: str,
    map_: dict[str, Any],
    frames: list[dict[str, Any]],
    meta: dict[str, Any] | None = None,
) -> Path:
    """Write the viewer page (see the module docstring) to ``path`` atomically (a temporary
    file renamed over it).

    Args:
        path: the HTML file.
        title: the page's title.
        map_: :func:`map_data`; frames: :func:`frame` of the start and of each step.
        meta: a few key/value facts shown under the title (mission, seed, agent, result).

    Returns:
        ``path``, as a ``Path``.

    Raises:
        IsADirectoryError: ``path`` is a folder.
    """
    from ambush_env.core.world.data import write_text_atomic

    data = {
        "map": {k: map_[k] for k in ("name", "columns", "rows", "size", "centres")},
        "frames": frames,
        "meta": meta or {},
    }
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    facts = " | ".join(
        f"{html.escape(str(k))}: {html.escape(str(v))}" for k, v in (meta or {}).items()
    )
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{_CSS}</style></head>
<body>
<h3 id="title">{html.escape(title)}</h3>
<div id="meta">{facts}</div>
<div id="top">
<div id="mapbox"><svg id="map" xmlns="http://www.w3.org/2000/svg" width="{map_["width"]}" height="{map_["height"]}"
 viewBox="0 0 {map_["width"]} {map_["height"]}"><g id="static">{map_["svg"]}</g><g id="dynamic"></g>
<line id="last-shot" x1="0" y1="0" x2="0" y2="0" style="display:none"/></svg></div>
<div id="side">
<div id="controls"><button id="first" title="first step">|&lt;</button><button id="prev" title="previous step (left arrow)">prev</button><button id="play" title="play / pause (space)">play</button><button id="next" title="next step (right arrow)">next</button><button id="last" title="last step">&gt;|</button>
<span id="step-counter">step 0 / {len(frames) - 1}</span>
<button id="zoom-out" title="smaller map (-)">&minus;</button><span id="zoom-level">100 %</span><button id="zoom-in" title="larger map (+)">+</button></div>
<input id="slider" type="range" min="0" max="{len(frames) - 1}" value="0">
<label><input id="show-hidden" type="checkbox" checked> show hidden Germans (faded)</label>
<div id="hud"></div>
<div id="aboard" title="who is in which vehicle"></div>
<div id="event-log"></div>
</div></div>
<div id="legend">{legend_html()}</div>
<script type="application/json" id="replay-data">{blob}</script>
<script>{_JS}</script>
</body></html>
"""
    return write_text_atomic(page, path, what="HTML viewer")
