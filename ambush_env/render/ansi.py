"""Text map of a game (the env's ``"ansi"`` render mode), its legend and event lines.

The odd-q layout of RULES.md §2 is drawn with two text lines per map row: the first holds
the even columns (A, C, E…), the second the odd columns (B, D, F…), which sit half a hex
lower. Each hex is three characters: terrain, occupant, vehicle. :func:`legend` says what
each character means (``ambush play`` prints it); the glyph tables below are its one source.
Only what the US player knows is drawn: hidden Germans never show, nor a German vehicle whose
crew is hidden (:func:`~ambush_env.core.model.state.known_vehicle`).
"""

from __future__ import annotations

from ambush_env.core.model.types import (
    DIRECTION_NAMES,
    RESULT_NAMES,
    STANCE_NAMES,
    Phase,
    Side,
    Status,
    Terrain,
)
from ambush_env.core.world.hexgrid import col_letters

TERRAIN_GLYPH = {
    Terrain.CLEAR: ".",
    Terrain.ROAD: "=",
    Terrain.WOODS: "T",
    Terrain.BRUSH: '"',
    Terrain.RUBBLE: "%",
    Terrain.ROUGH: "^",
    Terrain.BUILDING: "#",
    Terrain.RIVER: "~",
    Terrain.CRATER: "o",
}
_SLOT_GLYPH = "123456789abc"
#: the occupant character (second of a hex): glyph -> meaning
OCCUPANT_GLYPHS = (
    ("1-9 a-c", "a US soldier by slot (US1 shows 1, US10 a)"),
    ("+", "several US soldiers"),
    ("@", "the acting soldier"),
    ("G", "a known German"),
    ("g", "a German down or captured"),
    ("x", "a US soldier down"),
    ("X", "US soldiers and Germans together"),
    ("!", "an objective hex (when empty)"),
    (">", "an exit hex (when empty)"),
)
#: the vehicle character (third of a hex): glyph -> meaning
VEHICLE_GLYPHS = (
    ("V", "a vehicle held by the US"),
    ("W", "a vehicle held by the Germans"),
    ("*", "a disabled vehicle"),
    ("2", "two vehicles"),
)


def legend() -> str:
    """What the characters of :func:`render_ansi`'s map mean, as a few lines of text
    (``ambush play`` prints it at the start and on ``?``)."""
    terrain = ", ".join(f"{g} {t.name.lower()}" for t, g in TERRAIN_GLYPH.items())
    occ = ", ".join(f"{g} {m}" for g, m in OCCUPANT_GLYPHS)
    veh = ", ".join(f"{g} {m}" for g, m in VEHICLE_GLYPHS)
    return "\n".join(
        [
            "Legend: each hex is three characters: terrain, occupant, vehicle; even columns on the "
            "first line of a row, odd columns half a hex lower on the second.",
            f"  terrain: {terrain}",
            f"  occupant: {occ}",
            f"  vehicle: {veh}",
            "  Below the map: the squad, the contacts K0, K1, ... (the fire orders' slots) and the "
            "vehicles. Hidden Germans never show.",
        ]
    )


def format_event(ev: dict) -> str:
    """One rule event (its dict form, ``info["events"]``) as a line of text:
    ``[type] key=value, ...`` (what ``ambush play``, ``ambush replay`` and the HTML viewer show)."""
    rest = ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
    return f"[{ev.get('type', '?')}] {rest}"


def _occupants(game) -> dict[int, str]:
    acting = game.acting_unit()
    out: dict[int, str] = {}
    us_here: dict[int, list] = {}
    for u in game.us_units():
        if u.hex >= 0:
            us_here.setdefault(u.hex, []).append(u)
    known = game.contact_units()
    ger_here: dict[int, list] = {}
    for g in known:
        if g.hex >= 0:
            ger_here.setdefault(g.hex, []).append(g)
    for h, us in us_here.items():
        up = [u for u in us if u.status == Status.ACTIVE]
        if acting is not None and any(u.uid == acting.uid for u in up):
            out[h] = "@"
        elif len(up) > 1:
            out[h] = "+"
        elif up:
            s = up[0].slot
            out[h] = _SLOT_GLYPH[s] if 0 <= s < len(_SLOT_GLYPH) else "u"
        else:
            out[h] = "x"
    for h, gs in ger_here.items():
        active = any(g.status == Status.ACTIVE for g in gs)
        if h in out and active:
            out[h] = "X" if out[h] != "@" else "@"
        elif h not in out:
            out[h] = "G" if active else "g"
    return out


def _vehicle_marks(game) -> dict[int, str]:
    """Hex -> vehicle glyph of the vehicles on the map."""
    from ambush_env.core.model.state import known_vehicle

    out: dict[int, str] = {}
    st = game.state
    for v in st.vehicles:
        if v.hex < 0 or v.exited or not known_vehicle(st, v):
            continue
        if v.hex in out:
            out[v.hex] = "2"
        elif v.disabled:
            out[v.hex] = "*"
        else:
            out[v.hex] = "V" if v.side == Side.US else "W"
    return out


def _vehicle_line(game, v) -> str:
    from ambush_env.core.vehicles.vehicles import vtype

    b = game.board
    units = game.state.units
    t = vtype(v)
    on = v.hex >= 0 and not v.exited
    where = b.label(v.hex) if on else "off map"
    side = {int(Side.US): "US", int(Side.GERMAN): "German"}.get(v.side, "?")
    facing = DIRECTION_NAMES[v.facing] if on and 0 <= v.facing < 6 else "-"
    known = game.state.contacts

    def name(uid: int) -> str:  # a German the US does not know of is a "?"
        o = units[uid]
        return o.name if o.side == Side.US or uid in known else "?"

    aboard = []
    if v.driver >= 0:
        aboard.append(f"{name(v.driver)} (driver)")
    aboard += [name(uid) for uid in v.passengers]
    flags = [
        f
        for f, on_ in (
            ("disabled", v.disabled),
            ("captured", v.captured),
            ("exited", v.exited),
            ("immobilised", v.immobilised),
            ("tyre shot", v.tyre_shot),
            ("closed", v.closed),
        )
        if on_
    ]
    return (
        f"  {v.name:<5} {where:<7} {t.name:<11} {side:<6} facing {facing:<2} "
        f"occupants {len(v.occupants)}/{t.occupants}"
        f"{': ' + ', '.join(aboard) if aboard else ''}{' ' + ' '.join(flags) if flags else ''}"
    )


def render_ansi(game) -> str:
    """The map, a status line and the squad, contact and vehicle lists, as one string."""
    b = game.board
    cols, rows = int(b.columns), int(b.rows)
    occ = _occupants(game)
    vmarks = _vehicle_marks(game)
    objectives = set(getattr(game, "objective_hexes", ()))
    exits = set(getattr(game, "exit_hexes", ()))
    width = cols * 3
    lines = []
    header = [" "] * width
    for c in range(cols):
        lab = col_letters(c)
        for k, ch in enumerate(lab):
            if c * 3 + k < width:
                header[c * 3 + k] = ch
    lines.append("    " + "".join(header).rstrip())
    for r in range(rows):
        for parity in (0, 1):
            cells = [" "] * width
            for c in range(parity, cols, 2):
                i = r * cols + c
                t = TERRAIN_GLYPH.get(Terrain(int(b.terrain[i])), "?")
                o = occ.get(i)
                if o is None:
                    o = "!" if i in objectives else (">" if i in exits else " ")
                cells[c * 3] = t
                cells[c * 3 + 1] = o
                cells[c * 3 + 2] = vmarks.get(i, " ")
            label = f"{r + 1:>3} " if parity == 0 else "    "
            lines.append(label + "".join(cells).rstrip())
    st = game.state
    if game.over:
        phase = f"OVER ({RESULT_NAMES[game.result] if game.result >= 0 else '?'}: {st.end_reason})"
    elif st.phase == Phase.ROUNDS:
        ini = {int(Side.US): "US", int(Side.GERMAN): "German"}.get(st.initiative, "-")
        phase = f"Rounds, Round {st.round} (initiative {ini})"
    else:
        phase = f"Operations, pulse {st.pulse + 1}"
    pulses, rounds_left = game.time_left()
    acting = game.acting_unit()
    lines.append(
        f"{game.mission_id}: {phase} | VP {st.vp} | time left: {pulses} pulses, {rounds_left} Rounds"
        f" | acting: {acting.name if acting is not None else '(select a unit)'}"
    )
    for u in game.us_units():
        where = b.label(u.hex) if u.hex >= 0 else "off map"
        flags = [Status(u.status).name.lower()]
        if u.wounded:
            flags.append("wounded")
        if u.panicked:
            flags.append("panicked")
        if not u.aware:
            flags.append("unaware")
        if 0 <= u.vehicle < len(st.vehicles):
            v = st.vehicles[u.vehicle]
            flags.append(f"{'driving' if v.driver == u.uid else 'in'} {v.name}")
        lines.append(
            f"  {u.name:<5} {where:<5} {STANCE_NAMES[u.stance]:<9} {u.weapon:<14} {' '.join(flags)}"
        )
    for k, g in enumerate(game.contact_units()):
        where = b.label(g.hex) if g.hex >= 0 else "off map"
        lines.append(
            f"  K{k} {g.name:<5} {where:<5} {STANCE_NAMES[g.stance]:<9} {Status(g.status).name.lower()}"
        )
    from ambush_env.core.model.state import known_vehicle

    for v in st.vehicles:
        if known_vehicle(st, v):  # a German vehicle whose crew is hidden is not listed
            lines.append(_vehicle_line(game, v))
    return "\n".join(lines) + "\n"
