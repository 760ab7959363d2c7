"""The observation shows the mission language's map features the US knows of (RULES.md §3,
§15; seed 000 p. 32; seed 004 p. 18): known booby traps not yet gone, landmarks (the map's,
the mission's blocking ones and those paragraphs make appear), known minefields by kind —
and never a hidden trap or minefield; plus the rules module and the d100 vehicle damage.

The missions are variants of ``farm_assault`` (an 18 x 14 map; D6, D7, D8 clear ground in one
column; US1, the sergeant, has PC 6), as in ``tests/core/test_mission_language.py``. Every
check also compares the incremental builder with one built from scratch.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from ambush_env.core import Game
from ambush_env.core.combat import traps
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.types import ARSpace, Side, Status
from ambush_env.core.play import paragraphs
from ambush_env.core.play.sequence import resolve
from ambush_env.core.rules import mines
from ambush_env.core.world.missions import Mission, load_mission
from ambush_env.env.observation import ObservationBuilder
from ambush_env.env.spec import BOARD, GLOBAL, VEHICLE

# D6 and B8 known to the US (the briefing marks them), D7 hidden
TRAPS = {
    "D6": "grenade_outside",
    "D7": {"row": "satchel_inside", "known": False},
    "B8": "grenade_outside",
}


def _mission(**changes) -> Mission:
    """farm_assault with ``changes``: ``paragraphs`` / ``triggers`` / ``rules`` entries are
    added to the mission's own, any other key replaces it."""
    d = load_mission("farm_assault").model_dump(by_alias=True, mode="json")
    for k, v in json.loads(json.dumps(changes)).items():
        d[k] = {**d[k], **v} if k in ("paragraphs", "triggers", "rules") else v
    return Mission.model_validate(d)


def _only_us1(g: Game, label: str):
    """US1 alone on the map, standing on ``label``."""
    for u in g.state.units:
        if u.side == Side.US and u.slot > 0:
            u.status, u.hex, u.ar = int(Status.REMOVED), -1, int(ARSpace.INACTIVE)
    u = g.state.units[0]
    u.hex = g.board.index(label)
    g.invalidate()
    return u


def _force(g: Game, rolls: list[int]) -> None:
    g.dice = Dice.scripted(rolls)
    g.invalidate()


def _at(obs: dict, plane: str, g: Game, label: str) -> int:
    c, r = g.board.coords(g.board.index(label))
    return int(obs["board"][BOARD[plane], r, c])


def _marked(obs: dict, plane: str, g: Game) -> set[str]:
    """Labels of the hexes where ``plane`` is set."""
    return {
        g.board.label(int(r) * g.board.columns + int(c))
        for r, c in np.argwhere(obs["board"][BOARD[plane]] > 0)
    }


def _build(ob: ObservationBuilder, g: Game) -> dict:
    """The incremental observation, checked against one built from scratch."""
    obs = ob.build()
    fresh = ObservationBuilder(g).build()
    for k in obs:
        np.testing.assert_array_equal(obs[k], fresh[k], err_msg=k)
    return obs


# ------------------------------------------------------------------------------ booby traps
def test_known_traps_show_and_a_hidden_one_does_not():
    """Module traps / seed 000 p. 32: the plane marks the traps the mission marks ``known``
    (D6, B8); the hidden one (D7) never shows."""
    g = Game(_mission(booby_traps=TRAPS), seed=0)
    obs = _build(ObservationBuilder(g), g)
    assert _marked(obs, "booby_trap_known", g) == {"D6", "B8"}
    assert _at(obs, "booby_trap_known", g, "D7") == 0
    empty = ObservationBuilder(Game("farm_assault", seed=0)).build()  # no traps: the plane is empty
    assert _marked(empty, "booby_trap_known", Game("farm_assault", seed=0)) == set()


@pytest.mark.parametrize("pc_roll, goes_off", [(6, False), (7, True)])
def test_the_trap_plane_clears_when_the_trap_is_gone(pc_roll, goes_off):
    """A known trap entered (US1's PC check, PC 6): 6 disarms it, 7 sets it off (9 on
    Grenade Outside) — either way it is gone (``state.traps_gone``) and leaves the plane; the
    other known trap (B8) stays."""
    g = Game(_mission(booby_traps=TRAPS), seed=0)
    ob = ObservationBuilder(g)
    assert _at(_build(ob, g), "booby_trap_known", g, "D6") == 1
    u = _only_us1(g, "D5")
    _force(g, [pc_roll] + ([9] if goes_off else []))
    paragraphs.paragraph_check(g, u, g.board.index("D6"))
    resolve(g)
    g.invalidate()
    assert g.state.traps_gone == [g.board.index("D6")]
    assert (u.status == Status.ACTIVE) is not goes_off
    obs = _build(ob, g)
    assert _marked(obs, "booby_trap_known", g) == {"B8"}


def test_a_hidden_trap_going_off_changes_nothing_shown():
    """The hidden trap at D7 goes off on entry (no check; d10 0 on Satchel Inside: wounded):
    it is gone, and the plane (which never showed it) still marks just D6 and B8."""
    g = Game(_mission(booby_traps=TRAPS), seed=0)
    ob = ObservationBuilder(g)
    _build(ob, g)
    u = _only_us1(g, "D8")
    _force(g, [0])
    traps.enters(g, u, g.board.index("D7"))
    resolve(g)
    g.invalidate()
    assert g.state.traps_gone == [g.board.index("D7")] and u.wounded
    assert _marked(_build(ob, g), "booby_trap_known", g) == {"D6", "B8"}


# ------------------------------------------------------------------------------ landmarks
@pytest.mark.parametrize("blocking", [False, True])
def test_a_landmark_appears_after_its_paragraph(blocking):
    """The ``landmark`` effect (RULES.md §3, §15): the hex is marked from the paragraph on;
    ``landmark_blocking`` only for a blocking one."""
    g = Game(
        _mission(
            paragraphs={
                "90": [{"landmark": {"hex": "D7", "name": "steeple", "blocking": blocking}}]
            },
            triggers={"C3": 90},
        ),
        seed=0,
    )
    ob = ObservationBuilder(g)
    before = _build(ob, g)
    assert (
        _marked(before, "landmark", g) == set() and _marked(before, "landmark_blocking", g) == set()
    )
    g.request("paragraph", 90, 0, 0, 0)
    resolve(g)
    g.invalidate()
    after = _build(ob, g)
    assert _marked(after, "landmark", g) == {"D7"}
    assert _marked(after, "landmark_blocking", g) == ({"D7"} if blocking else set())


def test_a_later_landmark_on_the_hex_replaces_the_first():
    """⚙ paragraphs.py: one landmark a hex — a non-blocking one declared on a blocking one's
    hex clears the blocking flag (as it clears the sight block)."""
    g = Game(
        _mission(
            paragraphs={
                "90": [{"landmark": {"hex": "D7", "name": "steeple", "blocking": True}}],
                "91": [{"landmark": {"hex": "D7", "name": "ruin", "blocking": False}}],
            },
            triggers={"C3": 90, "C4": 91},
        ),
        seed=0,
    )
    ob = ObservationBuilder(g)
    for pid in (90, 91):
        g.request("paragraph", pid, 0, 0, 0)
        resolve(g)
        g.invalidate()
        obs = _build(ob, g)
        assert _marked(obs, "landmark", g) == {"D7"}
        assert _marked(obs, "landmark_blocking", g) == ({"D7"} if pid == 90 else set())


@pytest.mark.parametrize(
    "mission, label, blocking",
    [
        ("village_fight", "I7", True),  # the lime tree: rules.blocking_landmarks [I7]
        ("crossroads_ambush", "I7", False),  # the signpost: a map landmark, not declared blocking
    ],
)
def test_the_missions_landmarks_show_from_the_start(mission, label, blocking):
    """The map's landmarks (``landmark:`` in the map file) and the ones the mission declares
    blocking (seed 004 p. 18) are marked from the first observation."""
    g = Game(mission, seed=0)
    obs = _build(ObservationBuilder(g), g)
    assert _marked(obs, "landmark", g) == {label}
    assert _marked(obs, "landmark_blocking", g) == ({label} if blocking else set())


# ------------------------------------------------------------------------------ minefields
def test_known_minefields_show_by_kind_and_hidden_ones_once_they_went_off():
    """Module mines (seed 000 p. 32): a field laid ``known`` shows on the plane of its kind; a
    hidden one does not, until a mine of it goes off under a US soldier (d10 9 on Grenade
    Outside: killed) and the hex is known."""
    g = Game("farm_assault", seed=0)
    ob = ObservationBuilder(g)
    _build(ob, g)
    mines.lay(g, [g.board.index("D7"), g.board.index("D8")], "anti_personnel")
    mines.lay(g, [g.board.index("E7")], "anti_tank")
    mines.lay(g, [g.board.index("F7")], "anti_personnel", known=False)
    g.invalidate()
    obs = _build(ob, g)
    assert _marked(obs, "minefield_anti_personnel", g) == {"D7", "D8"}
    assert _marked(obs, "minefield_anti_tank", g) == {"E7"}
    u = _only_us1(g, "F6")
    _force(g, [9])
    u.hex = g.board.index("F7")
    mines.soldier_enters(g, u, u.hex)
    resolve(g)
    g.invalidate()
    assert u.status == Status.KILLED
    obs = _build(ob, g)
    assert _marked(obs, "minefield_anti_personnel", g) == {"D7", "D8", "F7"}
    assert _marked(obs, "minefield_anti_tank", g) == {"E7"}


# ------------------------------------------------------------------------------ rules, d100
@pytest.mark.parametrize("rules", ["standard", "d100"])
def test_the_rules_module_is_a_global(rules):
    g = Game("farm_assault", rules=rules, seed=0)
    assert _build(ObservationBuilder(g), g)["globals"][GLOBAL["rules_d100"]] == float(
        rules == "d100"
    )


def test_vehicle_hp_and_burning_columns():
    """RULES.md §13 (seed 003): ``hp`` is Base HP left / the type's Base HP (jeep 25,
    d100.yaml; −1 reads undamaged), ``burning`` the fire flag."""
    g = Game(
        _mission(us_vehicles=[{"vehicle": "jeep", "hex": "A8", "facing": "NE"}]),
        rules="d100",
        seed=0,
    )
    ob = ObservationBuilder(g)
    row = _build(ob, g)["vehicles"][0]
    assert (row[VEHICLE["hp"]], row[VEHICLE["burning"]]) == (1.0, 0.0)
    jeep = g.state.vehicles[0]
    jeep.hp, jeep.burning = 10, True
    row = _build(ob, g)["vehicles"][0]
    assert (row[VEHICLE["hp"]], row[VEHICLE["burning"]]) == (np.float32(10 / 25), 1.0)
    jeep.hp = 0
    assert _build(ob, g)["vehicles"][0][VEHICLE["hp"]] == 0.0


# ------------------------------------------------------------------------------ no drift
def test_random_play_with_traps_landmarks_and_mines_matches_a_fresh_build():
    """Random legal play on a mission with traps on the squad's way, a landmark and a
    minefield laid by paragraphs: the incremental observation equals a fresh one at every step."""
    m = _mission(
        booby_traps={
            "B8": "grenade_outside",
            "B7": {"row": "grenade_outside", "known": False},
            "C9": "grenade_outside",
        },
        paragraphs={
            "90": [{"landmark": {"hex": "C8", "name": "cairn", "blocking": True}}],
            "91": [{"minefield": {"hexes": ["C7", "D9"], "known": True}}],
        },
        triggers={"B9": 90, "B6": 91},
    )
    g = Game(m, seed=3)
    ob = ObservationBuilder(g)
    rng = np.random.default_rng(4)
    for step in range(400):
        obs = ob.build()
        fresh = ObservationBuilder(g).build()
        for k in obs:
            np.testing.assert_array_equal(obs[k], fresh[k], err_msg=f"step {step}: {k}")
        if g.state.over:
            break
        g.step(int(rng.choice(g.legal_actions())))
    st = g.state  # the play went through all three (seed 3 does)
    assert st.traps_gone and st.landmarks and st.known_mines, (
        st.traps_gone,
        st.landmarks,
        st.known_mines,
    )
