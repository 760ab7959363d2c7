"""Three rule readings of issue 23, as positions with forced dice on both sides of each
threshold:

* captured equipment counts 1 lower for every use of the weapon, the PC check that clears
  its jam included (seed 002 p. 27; RULES.md §7);
* what a weapon can penetrate is its penetration row read by RULES.md §11's one reading: no
  second "rifle-calibre" rule (seed 000 p. 30-31; seed 002 p. 26);
* "a German will not shoot a closed tank with a weapon that cannot penetrate it" (seed 000
  p. 31) is a rule of the order generator, so the German seat played by an agent gets the
  mask the cards choose from.
"""

from __future__ import annotations

from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core import orders as O
from ambush_env.core import vehicle_fire as VF
from ambush_env.core.errors import IllegalActionError
from ambush_env.core.orders import OrderKind as K
from ambush_env.core.tables import load_tables

MISSION = "farm_assault"
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}
FAR_US = {"name": "US8", "hex": "A1", "ar": "1-turn"}  # the next decision after a turn ends


def _unit(g: Game, name: str):
    return next(u for u in g.state.units if u.name == name)


def _events(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


# ------------------------------------------------- seed 002 p. 27: captured equipment, any use
def _jammed(captured: bool, weapon: str, pc: int = 6, near: dict | None = None) -> Game:
    """US1 (PC ``pc``) holds a jammed ``weapon`` (a captured one when ``captured``), his turn
    in Rounds."""
    us1 = {"name": "US1", "hex": "E10", "ar": "1-turn", "weapon": weapon, "jammed": True,
           "captured_weapon": captured, "PC": pc}
    return Game.from_position({"mission": MISSION, "phase": "rounds", "round": 3,
                               "rounds_total": 3, "initiative": "us", "turn": {"unit": "US1"},
                               "units": [us1, FAR_GERMAN, FAR_US] + ([near] if near else [])})


@pytest.mark.parametrize("captured, weapon, roll, cleared", [
    (True, "mp40", 5, True),       # 5 <= PC 6 - 1
    (True, "mp40", 6, False),      # 6 > 5: the captured weapon's user counts 1 lower
    (False, "thompson", 6, True),  # his own weapon: the full PC 6
    (False, "thompson", 7, False),
])
def test_clearing_a_jam_of_a_captured_weapon_counts_1_lower(captured, weapon, roll, cleared):
    """Seed 002 p. 27: with a captured personal or crew weapon "the user's counts as 1
    lower" — every rating the weapon's use reads, so the PC check that clears its jam
    (RULES.md §7: "captured equipment users count 1 lower") as well as its fire."""
    g = _jammed(captured, weapon)
    g.force_rolls([roll])
    evs = g.play("US1 clear jam")
    (cj,) = _events(evs, "clear_jam")
    assert cj == {"type": "clear_jam", "unit": "US1", "roll": roll,
                  "pc": 5 if captured else 6, "cleared": cleared}
    assert _unit(g, "US1").jammed is not cleared
    assert g.dice.forced_left == 0


def test_the_captured_weapon_still_counts_1_lower_when_fired():
    """Seed 002 p. 27: the same −1 on the to-hit (``weapons.yaml: modifiers.captured_weapon``,
    one number for both uses)."""
    from ambush_env.core.fire import to_hit

    near = {"name": "G1", "role": "rifleman", "hex": "E8", "ar": "complete"}
    g, own = _jammed(True, "mp40", near=near), _jammed(False, "mp40", near=near)
    n, mods = to_hit(g, _unit(g, "US1"), _unit(g, "G1"), snap=False)
    n_own, mods_own = to_hit(own, _unit(own, "US1"), _unit(own, "G1"), snap=False)
    assert dict(mods)["captured_weapon"] == load_tables().mods.captured_weapon == -1
    assert "captured_weapon" not in dict(mods_own) and n == n_own - 1
