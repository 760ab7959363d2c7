"""Owns minefields as live map features (seed 000 p. 32; seed 002 p. 25; RULES.md §15): laying
them, what the US knows of them, and a soldier on foot entering one; vehicles on mines are
:mod:`~ambush_env.core.vehicles.vehicles`' (it imports this module).

* A ``minefield`` paragraph effect makes its ``hexes`` minefields for the rest of the mission
  (``GameState.minefields`` anti-personnel, ``GameState.at_minefields`` anti-tank; positions
  carry them). A hex holds one field; a later effect on it replaces the kind ⚙. The mission
  rule ``anti_tank_mines`` (seed 000 p. 32: "Mission 7's anti-tank mines") makes every field
  of the mission anti-tank, whatever its effect says.
* Known ⚙: a field is known to the US when its effect says ``known: true`` (the default: the
  paragraph tells the player) and, hidden or not, once a mine of it went off in that hex. A
  known minefield is what the observation may show (:func:`known_minefields`) and what the US
  may never march a prisoner into (seed 002 p. 25: prisoners may never be "marched into
  mines"; ``MOVE_PRISONER`` into a known minefield hex is not offered; an unknown one is no
  refusal, and the prisoner stepping in the guard's footsteps is not hurt ⚙).
* A soldier on foot entering an anti-personnel minefield hex ⚙ (the seeds are silent on
  soldiers): one d10 on the damage row ``rules.yaml: mines.soldier_row`` (Grenade Outside),
  stance ignored (he steps on it), every time he enters such a hex (the field stays); then
  the hex is known. Anti-tank mines never go off under a soldier (seed 000 p. 32: "they go
  off only under a tank").
* Whose mines ⚙: the minefields are the Germans' own; they know their lanes, so only US
  soldiers and vehicles of the US side set them off (as only the US makes paragraph checks,
  RULES.md §7).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable

from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ACTIVE, US
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.damage import roll_damage

KINDS = ("anti_personnel", "anti_tank")


def minefield_kind(m: Match, hex_: int) -> str | None:
    """``"anti_personnel"``, ``"anti_tank"`` or None: the minefield in ``hex_``."""
    st = m.state
    if hex_ in st.minefields:
        return "anti_personnel"
    if hex_ in st.at_minefields:
        return "anti_tank"
    return None


def known_minefield(m: Match, hex_: int) -> bool:
    """Whether ``hex_`` is a minefield the US knows of (module docstring)."""
    return hex_ in m.state.known_mines and minefield_kind(m, hex_) is not None


def known_minefields(m: Match) -> dict[int, str]:
    """Every minefield the US knows of: hex index → kind (what an observation may show)."""
    return {h: k for h in m.state.known_mines if (k := minefield_kind(m, h)) is not None}


def lay(m: Match, hexes: Iterable[int], kind: str, *, known: bool = True) -> None:
    """Make ``hexes`` minefields of ``kind`` for the rest of the mission (the ``minefield``
    effect); the mission rule ``anti_tank_mines`` makes every field anti-tank."""
    if kind not in KINDS:
        raise ValueError(f"minefield kind {kind!r}; one of {KINDS}")
    if getattr(m.mission.rules, "anti_tank_mines", False):
        kind = "anti_tank"
    st = m.state
    labels = []
    for h in hexes:
        for lst in (st.minefields, st.at_minefields):
            if h in lst:
                lst.remove(h)
        (st.minefields if kind == "anti_personnel" else st.at_minefields).append(h)
        if known and h not in st.known_mines:
            insort(st.known_mines, h)  # kept sorted: a position (known: true) restores it
        labels.append(m.board.label(h))
    m.emit(E.MinefieldLaid(hexes=labels, kind=kind, known=known))


def reveal(m: Match, hex_: int) -> None:
    """A mine went off in ``hex_``: the US knows the field there now."""
    if hex_ not in m.state.known_mines:
        insort(m.state.known_mines, hex_)  # kept sorted, as lay keeps it


def soldier_enters(m: Match, u: Unit, hex_: int) -> None:
    """A soldier on foot entering ``hex_`` (module docstring): a US soldier in an
    anti-personnel minefield rolls once on ``mines.soldier_row``."""
    if u.side != US or u.status != ACTIVE or u.vehicle >= 0 or hex_ not in m.state.minefields:
        return
    row = m.rd.mines.soldier_row
    m.emit(E.MineSoldier(unit=u.name, hex=m.board.label(hex_), row=row))
    reveal(m, hex_)
    roll_damage(m, u.uid, row, why=f"{u.name} mine damage")
