"""Owns artillery strikes and strafing runs (RULES.md §15: "artillery or strafing event"),
the ``strike`` paragraph effect. The seeds give no numbers for them; every rule here is ⚙.

* The struck hexes: the effect's ``hexes``, or with ``line: true`` every hex of the straight
  line between its two hexes (both nudged traces where the line runs along a hexside,
  RULES.md §3 geometry: a run is wider than a sight line), in order from the first.
* Who is hit ⚙: every soldier in a struck hex, **of both sides** (a shell or an aircraft's
  guns do not choose), who is active, a prisoner or incapacitated (nobody aims at anyone:
  as a scattered grenade, seed 002), hidden Germans (placed, unseen) included. Each rolls one
  d10 on the damage row ``row`` (damage.yaml), prone soldiers at the grenades' prone
  modifier (``rules.yaml: grenades.prone_damage``, RULES.md §9) as for a blast. A strafing
  run does not reach soldiers inside a building hex (the roof) ⚙; artillery does.
* Vehicles ⚙ (seed 000 p. 32-33, read as for a grenade going off outside a vehicle): a car
  in a struck hex rolls one d10 on ``row`` and is disabled on an incapacitated or killed
  result; its occupants then roll like soldiers, stance ignored (seed 000 p. 31). A tank
  rolls once on ``row`` against artillery and is disabled only on a kill (a direct hit; its
  armour stops the rest); strafing never harms a tank (its guns are rifle calibre); a tank's
  crew is the tank and never rolls; a hidden tank it disables is hurt, so found (its unit a
  known contact, and with it the tank: :func:`~ambush_env.core.model.state.known_vehicle`). A hurt
  car driver makes the car's accident check (seed 000 p. 31-32). Under ``rules="d100"`` the
  same rules apply (seed 003 has no strike numbers).
* Whose strike ⚙: nobody's on the map, so it begins no Rounds by itself and reveals nobody
  who fires; a hidden German it hurts (any result but ``none``) becomes a known contact, and
  if he is still active in Operations, Rounds begin (as for a German placed aware, RULES.md
  §5) with every US soldier's awareness kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import ACTIVE, GER, Phase, Stance, Status, Terrain
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.damage import apply_damage
from ambush_env.core.vehicles.vehicles import disable, driver_hurt, on_map
from ambush_env.core.world import hexgrid
from ambush_env.core.world.vehicle_data import vtype

_HITTABLE = frozenset((ACTIVE, int(Status.CAPTURED), int(Status.INCAPACITATED)))
KINDS = ("artillery", "strafing")
_DISABLING = frozenset(("incapacitated", "kill"))


def line_hexes(m: Match, a: int, b: int) -> list[int]:
    """The hexes of the straight run from hex ``a`` to hex ``b`` (module docstring): those of
    every nudged trace of the line (RULES.md §3), on the map, in order from ``a``."""
    board = m.board
    ca, cb = board.coords(a), board.coords(b)
    out: list[int] = []
    walks = [hexgrid.walk_hexes(ca, dirs) for dirs in hexgrid.traces(ca, cb)] or [[ca]]
    for k in range(max(len(w) for w in walks)):
        for w in walks:
            if k < len(w):
                c, r = w[k]
                if 0 <= c < board.columns and 0 <= r < board.rows:
                    h = r * board.columns + c
                    if h not in out:
                        out.append(h)
    return out


def strike(m: Match, kind: str, hexes: Sequence[int], row: str) -> None:
    """An artillery strike or a strafing run on ``hexes`` (module docstring).

    Args:
        kind: ``"artillery"`` or ``"strafing"``.
        hexes: the struck hex indices, in order (each struck once).
        row: a damage row id of ``damage.yaml``.

    Raises:
        ValueError: an unknown ``kind``; KeyError: an unknown ``row``.
    """
    if kind not in KINDS:
        raise ValueError(f"strike kind {kind!r}; one of {KINDS}")
    results = m.tables.soldier_row[row]
    b = m.board
    order = list(dict.fromkeys(hexes))
    labels = [b.label(h) for h in order]
    m.emit(
        E.ArtilleryStrike(hexes=labels, row=row)
        if kind == "artillery"
        else E.StrafingRun(hexes=labels, row=row)
    )
    st = m.state
    prone_mod = m.rd.grenades.prone_damage
    flushed: list[Unit] = []
    for h in order:
        riders: set[int] = set()
        for v in st.vehicles:
            if on_map(v) and v.hex == h:
                was = v.disabled
                riders.update(_vehicle(m, v, kind, row, results))
                if (
                    v.disabled
                    and not was
                    and v.unit >= 0
                    and v.side == GER
                    and v.unit not in st.contacts
                ):
                    flushed.append(st.units[v.unit])  # a hidden tank knocked out: found ⚙
        indoors = b.terrain[h] == Terrain.BUILDING
        for o in list(st.units):
            if o.hex != h or o.status not in _HITTABLE:
                continue
            if o.vehicle >= 0 and st.vehicles[o.vehicle].unit == o.uid:
                continue  # a tank's own unit is the tank (_vehicle)
            if kind == "strafing" and indoors:
                continue
            r = m.dice.d10(f"{o.name} {kind} damage")
            mod = (
                prone_mod
                if (o.stance == Stance.PRONE and o.vehicle < 0 and o.uid not in riders)
                else 0
            )
            result = results[min(9, max(0, r + mod))]
            m.emit(
                E.StrikeHit(
                    unit=o.name, hex=b.label(h), kind=kind, roll=r, modifier=mod, result=result
                )
            )
            drives = o.vehicle >= 0 and st.vehicles[o.vehicle].driver == o.uid
            apply_damage(m, o.uid, result)
            if drives:
                driver_hurt(m, st.vehicles[o.vehicle], result)
            if o.side == GER and o.uid not in st.contacts and result != "none":
                flushed.append(o)
    for g in flushed:
        m.reveal(g)
    if (
        st.phase == Phase.OPERATIONS
        and not st.over
        and any(g.status == ACTIVE and g.hex >= 0 for g in flushed)
    ):
        m.request("begin_rounds", f"{kind} strike flushed out {flushed[0].name}", None)


def _vehicle(m: Match, v: Vehicle, kind: str, row: str, results: Sequence[str]) -> list[int]:
    """The strike on one vehicle in a struck hex (module docstring); returns the uids aboard
    a car before the strike (they roll, stance ignored)."""
    tank = vtype(v).kind == "tank"
    aboard = [] if tank else list(v.occupants)
    if v.disabled or (tank and kind == "strafing"):
        return aboard
    r = m.dice.d10(f"{v.name} {kind} damage")
    result = results[r]
    disabled = result == "kill" if tank else result in _DISABLING
    m.emit(
        E.StrikeVehicle(
            vehicle=v.name,
            hex=m.board.label(v.hex),
            kind=kind,
            roll=r,
            result=result,
            disabled=disabled,
        )
    )
    if disabled:
        disable(m, v, kind)
    return aboard
