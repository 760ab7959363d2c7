"""Missions (RULES.md §15): the shipped Farm Assault, its map, and the mission schema."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.model.types import Result
from ambush_env.core.world.cards import load_deck
from ambush_env.core.world.data import data_path
from ambush_env.core.world.hexgrid import make_label, neighbor_cr, parse_label
from ambush_env.core.world.missions import (
    IfFlag,
    Mission,
    Place,
    list_missions,
    load_mission,
    reference_mission,
)

MISSION = "farm_assault"


def _raw() -> dict:
    return yaml.safe_load(data_path("missions", f"{MISSION}.yaml").read_text(encoding="utf-8"))


def _map_raw() -> dict:
    return yaml.safe_load(data_path("maps", f"{MISSION}.yaml").read_text(encoding="utf-8"))


def _broken(tmp_path: Path, mutate, stem: str = MISSION) -> Path:
    raw = copy.deepcopy(_raw())
    mutate(raw)
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _neighbours(label: str, columns: int, rows: int) -> list[str]:
    col, row0 = parse_label(label)
    out = []
    for d in range(6):
        c, r = neighbor_cr(col, row0, d)
        if 0 <= c < columns and 0 <= r < rows:
            out.append(make_label(c, r))
    return out


# --------------------------------------------------------------------- the shipped mission
def test_shipped_missions_listed_and_loaded():
    """docs/API.md: mission ids are the file stems, the reference mission first (named in
    data, not by sort order), then the others sorted."""
    ids = list_missions()
    assert MISSION in ids and ids[1:] == sorted(ids[1:])
    assert reference_mission() == ids[0]
    for mid in ids:
        m = load_mission(mid)
        assert m.id == mid
    assert load_mission(MISSION) is load_mission(MISSION)  # cached


def test_mission_round_trips_through_its_dump():
    m = load_mission(MISSION)
    assert Mission.model_validate(m.model_dump()) == m
    assert m.paragraphs[11][1].model_dump() == {
        "activation": {"at_or_below": 6, "then": 12, "else": 15}
    }


def test_farm_assault_meets_rules_15_minimums():
    """RULES.md §15: at least three German placements from different paragraphs, ten trigger
    hexes, and an event table over the whole d10."""
    m = load_mission(MISSION)
    placements = m.placements()
    assert len({n for n, _ in placements}) >= 3
    assert len({p.hex for _, p in placements}) >= 3
    assert len({p.card for _, p in placements}) >= 3
    assert len(m.triggers) >= 10
    assert sum(1 for t in m.triggers.values() if not t.is_event) >= 10
    assert any(t.is_event for t in m.triggers.values())
    faces = sorted(r for row in m.events for r in range(row.rolls[0], row.rolls[1] + 1))
    assert faces == list(range(10))
    for roll in range(10):
        p = m.event_paragraph(roll)
        assert p is None or p in m.paragraphs


def test_farm_assault_fields_few_enough_germans():
    """Playability: three to four Germans; each placement chain is flag-guarded, so runs once."""
    m = load_mission(MISSION)
    placed = {(p.card, p.hex) for _, p in m.placements()}
    assert 3 <= len(placed) <= 4
    deck = load_deck(m.deck_default)
    assert {card for card, _ in placed} <= set(deck.card_ids)
    # every trigger paragraph that leads to a placement opens with a flag test
    for label, trig in m.triggers.items():
        if not trig.is_event and trig.paragraph in (10, 20, 40):
            assert isinstance(m.paragraphs[trig.paragraph][0], IfFlag), label


def test_result_bands_all_reachable_and_sound_play_wins():
    """RULES.md §15: every band is reachable; taking the farm and bringing most men out with
    light losses wins, a passive or a reckless squad does not."""
    m = load_mission(MISSION)
    vp = m.vp

    def score(
        *, farm=False, exits=0, g_killed=0, g_captured=0, us_killed=0, us_incap=0, us_wounded=0
    ):
        return (
            farm * vp.objective_taken
            + exits * vp.exit_per_soldier
            + g_killed * vp.german_killed
            + g_captured * vp.german_captured
            + us_killed * vp.us_killed
            + us_incap * vp.us_incapacitated
            + us_wounded * vp.us_wounded
        )

    lines = {
        "clean sweep": (
            score(farm=True, exits=7, g_killed=2, g_captured=1, us_wounded=1),
            Result.DECISIVE_WIN,
        ),
        "sound play": (
            score(farm=True, exits=6, g_killed=1, us_killed=1, us_wounded=1),
            Result.WIN,
        ),
        "skirt the farm": (score(exits=8), Result.DRAW),
        "take the farm, never leave": (score(farm=True, g_killed=2), Result.DRAW),
        "passive": (score(), Result.LOSS),
        "reckless": (score(farm=True, exits=4, g_killed=1, us_killed=3, us_incap=1), Result.LOSS),
    }
    for name, (total, expected) in lines.items():
        assert m.result_for(total) == expected, (name, total)
    assert {r for _, r in lines.values()} == set(Result)


def test_time_limit_lets_the_squad_cross_twice_over():
    """Operations moves are one hex a pulse: the limit leaves room for a detour and a fight."""
    m = load_mission(MISSION)
    columns = _map_raw()["columns"]
    assert m.time_limit.operations_pulses >= 2 * (columns - 1)
    assert m.time_limit.rounds >= 20


def test_farm_assault_edges_entry_and_objective():
    m = load_mission(MISSION)
    mp = _map_raw()
    columns, rows = mp["columns"], mp["rows"]
    assert columns >= 16 and rows >= 12
    assert len(m.us_entry) == 8
    assert all(parse_label(h)[0] == 0 for h in m.us_entry)  # west edge
    assert all(parse_label(h)[0] == columns - 1 for h in m.exit_hexes)  # east edge
    assert len(m.exit_hexes) == rows
    hexes = mp["hexes"]
    buildings = [h for h in m.objective.hexes if hexes.get(h, {}).get("terrain") == "building"]
    assert 2 <= len(buildings) <= 4
    assert not set(m.objective.hexes) & set(m.us_entry)


def test_farm_assault_map_has_the_briefed_terrain():
    """The map of the brief: woods, brush, a walled farm (stone house, wooden barn), a level-1
    knoll with an embankment and a crest, and a road across."""
    mp = _map_raw()
    terrain = [spec.get("terrain") for spec in mp["hexes"].values()]
    for kind in ("woods", "brush", "building", "road"):
        assert kind in terrain, kind
    assert terrain.count("road") >= mp["columns"]
    assert any(spec.get("level") == 1 for spec in mp["hexes"].values())
    sides = list(mp["hexsides"].values())
    assert "embankment" in sides and "crest" in sides
    walls = [s for s in sides if isinstance(s, dict)]
    assert {s["wall"] for s in walls} >= {"stone", "wood"}
    assert {s["aperture"] for s in walls} >= {"door", "window"}


def test_map_loads_with_the_board_loader():
    """RULES.md §3 (binding): ``load_board`` reads the mission's map."""
    board_mod = pytest.importorskip("ambush_env.core.world.board")
    board = board_mod.load_board(load_mission(MISSION).map)
    mp = _map_raw()
    assert (board.columns, board.rows) == (mp["columns"], mp["rows"])


def test_the_farm_cannot_be_entered_without_a_paragraph_check():
    """Every hex from which the farm (house, yard, barn) can be entered triggers paragraph 20,
    so the farmhouse rifleman is placed before a US soldier can reach his hex."""
    board_mod = pytest.importorskip("ambush_env.core.world.board")
    m = load_mission(MISSION)
    board = board_mod.load_board(m.map)
    farm = set(m.objective.hexes)
    ring = set()
    for h in farm:
        for n in _neighbours(h, board.columns, board.rows):
            if n in farm:
                continue
            side = board.hexside(board.index(h), board.index(n))
            open_side = side is None or side.wall is None or side.aperture is not None
            if open_side:
                ring.add(n)
    assert ring, "the farm must be enterable"
    for n in sorted(ring):
        trig = m.trigger_at(n)
        assert trig is not None and trig.paragraph == 20, n


def test_knoll_crest_hides_the_gun_from_the_sallow_wood():
    """Map design (seed 004 p. 18, crests always block): the MG position I10 cannot be seen
    from the brush and woods south-west of the knoll."""
    board_mod = pytest.importorskip("ambush_env.core.world.board")
    los = pytest.importorskip("ambush_env.core.world.los")
    board = board_mod.load_board(MISSION)
    for hex_ in ("F10", "F11", "G12"):
        assert not los.line_of_sight(board, "I10", hex_).clear, hex_


# ---------------------------------------------------------------------- malformed missions
@pytest.mark.parametrize(
    ("mutate", "field", "problem"),
    [
        pytest.param(
            lambda r: r["triggers"].__setitem__("Z3", 10),
            "triggers.Z3",
            "off the map",
            id="trigger-off-map",
        ),
        pytest.param(
            lambda r: r["triggers"].__setitem__("G8", 99),
            "triggers.G8.paragraph",
            "paragraph 99 does not exist",
            id="trigger-missing-paragraph",
        ),
        pytest.param(
            lambda r: r["triggers"].__setitem__("G8", "EVENTS"),
            "triggers.G8.paragraph",
            "EVENT",
            id="trigger-bad-value",
        ),
        pytest.param(
            lambda r: r["paragraphs"][11][1]["activation"].__setitem__("else", 16),
            "paragraphs.11.1.activation.else",
            "paragraph 16 does not exist",
            id="paragraph-missing-paragraph",
        ),
        pytest.param(
            lambda r: r["paragraphs"].__setitem__(15, [{"goto": 77}]),
            "paragraphs.15.0.goto.paragraph",
            "paragraph 77 does not exist",
            id="goto-missing-paragraph",
        ),
        pytest.param(
            lambda r: r.__setitem__("id", "farm_raid"), "id", "file stem", id="id-not-stem"
        ),
        pytest.param(
            lambda r: r["paragraphs"][50].append({"sing": "Lili Marleen"}),
            "paragraphs.50.1",
            "unknown effect 'sing'",
            id="unknown-effect",
        ),
        pytest.param(
            lambda r: r["paragraphs"][13][1]["place"].__setitem__("card", "tiger_tank"),
            "paragraphs.13.1.place.card",
            "no card 'tiger_tank'",
            id="unknown-card",
        ),
        pytest.param(
            lambda r: r["paragraphs"][13][1]["place"].__setitem__("hex", "S1"),
            "paragraphs.13.1.place.hex",
            "off the map",
            id="placement-off-map",
        ),
        pytest.param(
            lambda r: r["paragraphs"][43][1]["place"].__setitem__("route", ["P7", "N40"]),
            "paragraphs.43.1.place.route.1",
            "off the map",
            id="route-off-map",
        ),
        pytest.param(
            lambda r: r["paragraphs"][13][1]["place"].__setitem__("stance", "kneeling"),
            "paragraphs.13.1.place.stance",
            "prone",
            id="bad-stance",
        ),
        pytest.param(
            lambda r: r["paragraphs"][11].reverse(),
            "paragraphs.11.0.activation",
            "must be the last effect",
            id="branch-not-last",
        ),
        pytest.param(
            lambda r: r["paragraphs"][10][0]["if_flag"].__setitem__("flag", "knol_checked"),
            "paragraphs.10.0.if_flag.flag",
            "never set",
            id="flag-never-set",
        ),
        pytest.param(
            lambda r: r["paragraphs"].__setitem__(99, [{"message": "orphan"}]),
            "paragraphs.99",
            "never reached",
            id="unreachable-paragraph",
        ),
        pytest.param(
            lambda r: r["paragraphs"].__setitem__(52, [{"goto": 51}]),
            "paragraphs.",
            "paragraph cycle",
            id="paragraph-cycle",
        ),
        pytest.param(
            lambda r: r["events"][1].__setitem__("rolls", [5, 5]),
            "events",
            "[4] not covered",
            id="event-gap",
        ),
        pytest.param(
            lambda r: r["events"][2].__setitem__("rolls", [5, 6]),
            "events.2.rolls",
            "roll 5 already covered",
            id="event-overlap",
        ),
        pytest.param(
            lambda r: r["events"][2].__setitem__("paragraph", 31),
            "events.2.paragraph",
            "paragraph 31 does not exist",
            id="event-missing-paragraph",
        ),
        pytest.param(
            lambda r: r["exit_hexes"].append("J7"),
            "exit_hexes.14",
            "not on the map edge",
            id="exit-not-on-edge",
        ),
        pytest.param(
            lambda r: r["us_entry"].append("A15"), "us_entry.8", "off the map", id="entry-off-map"
        ),
        pytest.param(
            lambda r: r["results"].__setitem__("win", 30),
            "results.win",
            "below decisive_win",
            id="results-not-descending",
        ),
        pytest.param(
            lambda r: r["vp"].__setitem__("us_killed", 3),
            "vp.us_killed",
            "less than or equal to 0",
            id="loss-scored-as-gain",
        ),
        pytest.param(
            lambda r: r["vp"].pop("exit_per_soldier"),
            "vp.exit_per_soldier",
            "Field required",
            id="vp-missing",
        ),
        pytest.param(
            lambda r: r["paragraphs"][27][1]["vp"].__setitem__("amount", 0),
            "paragraphs.27.1.vp.amount",
            "non-zero",
            id="vp-effect-zero",
        ),
        pytest.param(
            lambda r: r["paragraphs"][53][1]["booby_trap"].__setitem__("row", "mine"),
            "paragraphs.53.1.booby_trap.row",
            "grenade_outside",
            id="bad-booby-trap-row",
        ),
        pytest.param(
            lambda r: r.__setitem__("map", "atlantis"), "map", "no map 'atlantis'", id="unknown-map"
        ),
        pytest.param(
            lambda r: r.__setitem__("squad", "rangers"),
            "squad",
            "unknown squad 'rangers'",
            id="unknown-squad",
        ),
        pytest.param(
            lambda r: r.__setitem__("deck_default", "elite"),
            "deck_default",
            "unknown deck 'elite'",
            id="unknown-deck",
        ),
        pytest.param(
            lambda r: r["time_limit"].__setitem__("rounds", 0),
            "time_limit.rounds",
            "greater than or equal to 1",
            id="no-time",
        ),
        pytest.param(
            lambda r: r.__setitem__("weather", "rain"), "weather", "Extra inputs", id="unknown-key"
        ),
    ],
)
def test_malformed_mission_names_file_and_field(tmp_path, mutate, field, problem):
    """RULES.md §15 + docs/STYLE.md habit 3: a bad mission file fails with its path and the field."""
    path = _broken(tmp_path, mutate)
    with pytest.raises(DataError) as exc:
        load_mission(path)
    assert exc.value.path == str(path)
    assert exc.value.field.startswith(field), exc.value
    assert problem in exc.value.problem, exc.value


def test_trigger_forms():
    """A trigger is a paragraph, ``EVENT``, or ``{paragraph, repeat}``."""
    raw = copy.deepcopy(_raw())
    raw["triggers"]["K9"] = {"paragraph": 20, "repeat": True}
    m = Mission.model_validate(raw)
    assert m.trigger_at("K9").repeat and m.trigger_at("K9").paragraph == 20
    assert m.trigger_at("C5").is_event and not m.trigger_at("C5").repeat
    assert m.trigger_at("G8").paragraph == 10
    assert m.trigger_at("A1") is None


def test_schema_only_effects_validate():
    """minefield, landmark, strike and end_mission have schemas even where no mission uses them."""
    raw = copy.deepcopy(_raw())
    raw["paragraphs"][50] = [
        {"minefield": {"hexes": ["K12", "K13"], "kind": "anti_personnel"}},
        {"landmark": {"hex": "K13", "name": "wayside shrine", "blocking": True}},
        {"strike": {"kind": "artillery", "hexes": ["K12"], "row": "grenade_outside"}},
        {"end_mission": "recalled"},
    ]
    m = Mission.model_validate(raw)
    assert [e.tag for e in m.paragraphs[50]] == ["minefield", "landmark", "strike", "end_mission"]
    assert m.paragraphs[50][3].model_dump() == {"end_mission": "recalled"}


def test_unknown_mission_lists_the_known_ones():
    with pytest.raises(ScenarioError, match=MISSION):
        load_mission("operation_cobra")


def test_missing_mission_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="file not found"):
        load_mission(tmp_path / "nowhere.yaml")


def test_placements_list_the_german_forces():
    m = load_mission(MISSION)
    forces = {(n, p.card, p.hex, p.aware) for n, p in m.placements()}
    assert (23, "rifleman", "L6", True) in forces and (24, "rifleman", "L6", False) in forces
    assert all(isinstance(p, Place) for _, p in m.placements())
