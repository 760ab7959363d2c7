"""The campaign (RULES.md §16) and the random squad generator (RULES.md §4): chains, the
between-missions rules over a three-mission campaign with forced results, the squad file
(atomic saves, corrupted and truncated files) and generated squads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.model.types import RESULT_NAMES, Status
from ambush_env.core.play import campaign as C
from ambush_env.core.world.squads import (
    Squad,
    generate_squad,
    load_squad,
    load_squad_points,
    squad_cost,
)

RATINGS = ("IN", "PC", "WS", "DS", "MV", "CR")


def ratings(v) -> dict:
    return {r: getattr(v, r) for r in RATINGS}


# -- data ----------------------------------------------------------------------------------------
def test_campaign_rules_are_rules_16():
    """RULES.md §16: survivors earn 2 points for a lost mission, 4 for a won one; 6 points buy
    +1 to one rating. ⚙ a draw earns what a loss does; replacements have base ratings."""
    r = C.load_campaign_rules()
    assert r.experience == {"loss": 2, "draw": 2, "win": 4, "decisive_win": 4}
    assert r.price == 6
    assert [(i.rating, i.cap) for i in r.improve] == [("WS", 2), ("PC", 7), ("IN", 4)]
    assert r.replacement["private"].model_dump() == {
        "IN": 1,
        "PC": 4,
        "WS": -1,
        "DS": 1,
        "MV": 5,
        "CR": 0,
    }


def test_shipped_chain_lists_the_three_missions():
    assert "first_push" in C.list_campaigns()
    ch = C.load_chain("first_push")
    assert [(m.mission, m.deck) for m in ch.missions] == [
        ("farm_assault", "regular"),
        ("jeep_run", "regular"),
        ("tank_hunt", "regular"),
    ]
    assert ch.squad == "standard" and ch.rules == "standard"


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d["missions"][1].update(mission="no_such_mission"), "missions.1.mission"),
        (lambda d: d["missions"][0].update(deck="elite"), "missions.0.deck"),
        (lambda d: d.update(missions=[]), "missions"),
        (lambda d: d.update(squad="no_such_squad"), "squad"),
        (lambda d: d.update(id="other"), "id"),
        (lambda d: d["missions"][0].update(turns=3), "missions.0.turns"),
    ],
)
def test_a_bad_chain_file_is_a_data_error_naming_the_field(tmp_path, edit, field):
    raw = yaml.safe_load((C.CAMPAIGNS_DIR / "first_push.yaml").read_text(encoding="utf-8"))
    edit(raw)
    path = tmp_path / "first_push.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(DataError) as e:
        C.load_chain(path)
    assert e.value.field == field
    assert str(path) in str(e.value)


def test_unknown_chain_lists_the_known_ones():
    with pytest.raises(ScenarioError, match="first_push"):
        C.load_chain("no_such_campaign")


# -- experience --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, choice, end",
    [
        # RULES.md §16: 6 points buy +1, 5 do not (both sides of the threshold)
        ({"xp": 5, "WS": 0, "PC": 5, "IN": 1}, None, {"xp": 5, "WS": 0, "PC": 5, "IN": 1}),
        ({"xp": 6, "WS": 0, "PC": 5, "IN": 1}, None, {"xp": 0, "WS": 1, "PC": 5, "IN": 1}),
        ({"xp": 13, "WS": 0, "PC": 5, "IN": 1}, None, {"xp": 1, "WS": 2, "PC": 5, "IN": 1}),
        # ⚙ the default order WS, PC, IN: past a cap the next rating
        ({"xp": 12, "WS": 2, "PC": 6, "IN": 1}, None, {"xp": 0, "WS": 2, "PC": 7, "IN": 2}),
        # a choice is honoured while below its cap, then the default order
        ({"xp": 12, "WS": 0, "PC": 6, "IN": 1}, "PC", {"xp": 0, "WS": 1, "PC": 7, "IN": 1}),
        ({"xp": 6, "WS": 0, "PC": 5, "IN": 1}, "IN", {"xp": 0, "WS": 0, "PC": 5, "IN": 2}),
        # every rating capped: the points are kept
        ({"xp": 9, "WS": 2, "PC": 7, "IN": 4}, None, {"xp": 9, "WS": 2, "PC": 7, "IN": 4}),
    ],
)
def test_six_points_buy_one_rating(start, choice, end):
    v = dict(start)
    C.spend(v, C.load_campaign_rules(), choice)
    assert v == end


# -- a three-mission campaign with forced results ----------------------------------------------------
def forced(result: str, fates: dict[str, str], seen: list):
    """A test double of the mission runner: it records the game's squad, then ends the game
    with ``result`` and the given fates (by squad slot name; the others unhurt)."""

    def run(game):
        seen.append([(u.name, u.role, u.CR, u.WS, u.PC, u.weapon) for u in game.us_units()])
        for u in game.us_units():
            fate = fates.get(u.name, "fit")
            if fate == "wounded":
                u.wounded = True
            elif fate != "fit":
                u.status = int(
                    {
                        "incapacitated": Status.INCAPACITATED,
                        "killed": Status.KILLED,
                        "captured": Status.CAPTURED,
                    }[fate]
                )
        game.state.over = True
        game.state.result = RESULT_NAMES.index(result)

    return run


def test_three_mission_campaign_recovery_experience_replacements():
    """RULES.md §16 over farm_assault, jeep_run and tank_hunt with forced results: survivors
    earn 4 (win) or 2 (loss), 6 points buy +1 (⚙ WS first, a chosen rating when given), the
    wounded recover, the incapacitated miss the next mission, the killed and the captured ⚙
    are replaced by men of the slot's role, weapon and kit with base ratings; ⚙ a corporal
    leads when the sergeant is out."""
    std = load_squad("standard")
    cs = C.new_campaign("first_push")
    assert [s.id for s in cs.soldiers] == list(range(1, 9)) and cs.next_id == 9
    seen: list = []

    # mission 1, farm_assault: a win; US2 wounded, US3 (the BAR man) killed, US4 incapacitated
    cs1 = C.play_next(
        cs, forced("win", {"US2": "wounded", "US3": "killed", "US4": "incapacitated"}, seen), seed=1
    )
    assert [n for n, *_ in seen[0]] == [f"US{i}" for i in range(1, 9)]
    assert [s.id for s in cs1.soldiers] == [1, 2, 9, 4, 5, 6, 7, 8]
    v = {s.id: s for s in cs1.soldiers}
    assert (v[1].xp, v[1].missions, v[1].wounds, v[1].out) == (4, 1, 0, False)
    assert ratings(v[1]) == ratings(std.soldiers[0])  # 4 points buy nothing
    assert (v[2].xp, v[2].wounds, v[2].out) == (4, 1, False)  # the wound heals
    assert (v[4].xp, v[4].wounds, v[4].out) == (4, 1, True)  # misses the next mission
    rep = v[9]
    assert (
        rep.role == "private" and rep.weapon == "bar" and rep.equipment == std.soldiers[2].equipment
    )
    assert ratings(rep) == {"IN": 1, "PC": 4, "WS": -1, "DS": 1, "MV": 5, "CR": 0}
    assert (rep.xp, rep.missions) == (0, 0)
    assert cs1.next == 1 and cs1.next_id == 10
    h = cs1.history[0]
    assert (h.mission, h.deck, h.seed, h.result) == ("farm_assault", "regular", 1, "win")
    assert h.fates == {
        1: "fit",
        2: "wounded",
        3: "killed",
        4: "incapacitated",
        5: "fit",
        6: "fit",
        7: "fit",
        8: "fit",
    }

    # mission 2, jeep_run: #4 is out (7 men); a loss; the sergeant incapacitated, US2 captured
    cs2 = C.play_next(cs1, forced("loss", {"US1": "incapacitated", "US2": "captured"}, seen))
    assert [n for n, *_ in seen[1]] == [f"US{i}" for i in range(1, 8)]
    assert seen[1][2] == ("US3", "private", 0, -1, 4, "bar")  # the replacement, in slot 3
    assert [s.id for s in cs2.soldiers] == [1, 10, 9, 4, 5, 6, 7, 8]
    v = {s.id: s for s in cs2.soldiers}
    assert (v[1].xp, v[1].WS, v[1].out) == (0, 2, True)  # 4 + 2 = 6: WS +1 -> +2
    assert ratings(v[10]) == {"IN": 1, "PC": 5, "WS": 0, "DS": 1, "MV": 5, "CR": 1}
    assert v[10].role == "corporal" and v[10].weapon == std.soldiers[1].weapon
    assert (v[9].xp, v[9].WS, v[9].missions) == (2, -1, 1)
    assert (v[4].xp, v[4].missed, v[4].missions, v[4].out) == (4, 1, 1, False)  # back, no points
    for sid, ws in ((5, 1), (6, 1), (7, 1), (8, 0)):  # 6 points each: WS +1
        assert (v[sid].xp, v[sid].WS) == (0, ws)
    assert cs2.history[1].fates == {
        1: "incapacitated",
        2: "captured",
        9: "fit",
        5: "fit",
        6: "fit",
        7: "fit",
        8: "fit",
    }

    # mission 3, tank_hunt: the sergeant is out, the corporal #10 leads; a decisive win, US4
    # (#5) killed; #4 chooses PC
    cs3 = C.play_next(cs2, forced("decisive_win", {"US4": "killed"}, seen), choices={4: "PC"})
    assert seen[2][0] == ("US1", "sergeant", 1, 0, 5, "m1_garand")  # #10 leads as sergeant
    assert [n for n, *_ in seen[2]] == [f"US{i}" for i in range(1, 8)]
    assert [s.id for s in cs3.soldiers] == [1, 10, 9, 4, 11, 6, 7, 8]
    v = {s.id: s for s in cs3.soldiers}
    assert (v[1].out, v[1].missed, v[1].xp, v[1].WS) == (False, 1, 0, 2)
    assert v[10].role == "corporal" and v[10].CR == 1 and v[10].xp == 4
    assert (v[9].xp, v[9].WS, v[9].missions) == (0, 0, 2)  # 2 + 4 = 6: WS -1 -> 0
    assert (v[4].xp, v[4].PC, v[4].WS, v[4].missions) == (2, 6, 0, 2)  # 4 + 4 = 8: PC 5 -> 6
    assert v[11].weapon == "thompson" and ratings(v[11])["WS"] == -1
    assert (v[6].xp, v[6].WS) == (4, 1)
    assert cs3.next == 3 and cs3.finished() and cs3.next_id == 12
    assert [h.result for h in cs3.history] == ["win", "loss", "decisive_win"]
    with pytest.raises(ScenarioError, match="over"):
        C.play_next(cs3, forced("win", {}, seen))


def test_a_mission_nobody_can_play_is_forfeited():
    """⚙ With every soldier recovering, the mission is a loss nobody earns from; they are fit
    for the one after."""
    cs = C.new_campaign("first_push")
    out = C.CampaignSquad(
        **{**cs.to_dict(), "soldiers": [{**s.model_dump(), "out": True} for s in cs.soldiers]}
    )
    assert C.mission_squad(out) is None
    after = C.play_next(out, lambda g: pytest.fail("nobody plays"))
    assert after.history[0].result == "loss" and after.history[0].fates == {}
    assert all(not s.out and s.missed == 1 and s.xp == 0 for s in after.soldiers)


def test_outcome_must_name_the_soldiers_who_played():
    cs = C.new_campaign("first_push")
    with pytest.raises(ScenarioError, match="played"):
        C.advance(cs, C.Outcome("win", fates={1: "fit"}))
    with pytest.raises(ValueError, match="fate"):
        C.Outcome("win", fates={1: "asleep"})


def test_the_mission_game_fields_the_campaign_squad_with_its_ratings():
    cs = C.new_campaign("first_push")
    better = C.CampaignSquad(
        **{
            **cs.to_dict(),
            "soldiers": [
                {**s.model_dump(), "WS": 2} if s.id == 8 else s.model_dump() for s in cs.soldiers
            ],
        }
    )
    from ambush_env.core import Game

    g = Game(ctx=C.mission_ctx(better), seed=0)
    assert g.us_units()[7].WS == 2 and len(g.us_units()) == 8
    assert g.mission_id == "farm_assault"


# -- the squad file ------------------------------------------------------------------------------
def _saved(tmp_path: Path) -> tuple[C.CampaignSquad, Path]:
    cs = C.new_campaign("first_push")
    cs = C.play_next(cs, forced("win", {"US3": "killed", "US4": "incapacitated"}, []), seed=3)
    path = tmp_path / "squad.yaml"
    C.save_squad_file(cs, path)
    return cs, path


def test_squad_file_round_trip(tmp_path):
    cs, path = _saved(tmp_path)
    assert C.read_squad_file(path) == cs
    assert path.read_text(encoding="utf-8").rstrip().endswith("end: squad file")
    assert C.coerce_squad(cs.to_dict()) == cs


def test_an_interrupted_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    """A crash during the write (here os.fsync or os.replace raising) leaves the previous
    squad file byte for byte, and no temporary file behind."""
    cs, path = _saved(tmp_path)
    before = path.read_bytes()
    later = C.play_next(cs, forced("loss", {}, []))
    for name in ("fsync", "replace"):

        def crash(*a, name=name, **k):
            raise OSError(f"simulated crash in os.{name}")

        with monkeypatch.context() as m:
            m.setattr(os, name, crash)
            with pytest.raises(OSError, match="simulated"):
                C.save_squad_file(later, path)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["squad.yaml"]
    C.save_squad_file(later, path)
    assert C.read_squad_file(path) == later


def test_an_interrupted_first_save_leaves_no_file(tmp_path, monkeypatch):
    cs = C.new_campaign("first_push")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("crash")))
    with pytest.raises(OSError):
        C.save_squad_file(cs, tmp_path / "new.yaml")
    assert list(tmp_path.iterdir()) == []


def test_every_truncation_of_a_squad_file_is_a_data_error_naming_a_line(tmp_path):
    """A squad file cut at any line, or in the middle of any line, raises DataError naming the
    file and a line, never another exception and never a squad."""
    _cs, path = _saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    cut = tmp_path / "cut.yaml"
    cuts = ["".join(lines[:n]) for n in range(len(lines))]
    cuts += ["".join(lines[:n]) + lines[n][: len(lines[n]) // 2] for n in range(0, len(lines), 3)]
    for part in cuts:
        cut.write_text(part, encoding="utf-8")
        with pytest.raises(DataError) as e:
            C.read_squad_file(cut)
        assert str(cut) in str(e.value) and "line " in str(e.value), (part[-80:], str(e.value))


def test_truncated_file_names_its_last_line(tmp_path):
    _cs, path = _saved(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:40]), encoding="utf-8")
    with pytest.raises(DataError, match="truncated") as e:
        C.read_squad_file(path)
    assert e.value.field == "line 40"


def test_corrupted_squad_files_name_the_line(tmp_path):
    _cs, path = _saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    # a YAML syntax error: the parser's line
    ws = next(i for i, ln in enumerate(lines) if ln.strip().startswith("WS:"))
    bad = lines.copy()
    bad[ws] = "  WS: [1\n"
    path.write_text("".join(bad), encoding="utf-8")
    with pytest.raises(DataError, match="YAML syntax error") as e:
        C.read_squad_file(path)
    assert e.value.field.startswith("line ")
    # a value out of range: the field and the line of its key
    bad = lines.copy()
    third = [i for i, ln in enumerate(lines) if ln.strip().startswith("WS:")][2]
    bad[third] = "  WS: 7\n"
    path.write_text("".join(bad), encoding="utf-8")
    with pytest.raises(DataError) as e:
        C.read_squad_file(path)
    assert e.value.field == f"soldiers.2.WS (line {third + 1})"
    # a missing field: the enclosing record's line
    bad = [ln for i, ln in enumerate(lines) if i != third]
    path.write_text("".join(bad), encoding="utf-8")
    with pytest.raises(DataError) as e:
        C.read_squad_file(path)
    start = max(i for i in range(third) if lines[i].startswith("- id:"))
    assert e.value.field == f"soldiers.2.WS (line {start + 1})" and "required" in e.value.problem
    # an unknown weapon, a chain position that does not match the history, an unknown chain
    for old, new, field, at in (
        ("weapon: bar", "weapon: lance", "soldiers.2.weapon", "weapon: bar"),
        ("next: 1", "next: 7", "history", "history:"),
        ("campaign: first_push", "campaign: nowhere", "campaign", "campaign:"),
    ):
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(DataError) as e:
            C.read_squad_file(path)
        line = next(i for i, ln in enumerate(text.splitlines()) if ln.lstrip().startswith(at)) + 1
        assert e.value.field == f"{field} (line {line})", str(e.value)
    # not a mapping at all
    path.write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(DataError, match="mapping"):
        C.read_squad_file(path)


def test_squad_file_consistency_checks(tmp_path):
    cs, _path = _saved(tmp_path)
    d = cs.to_dict()
    for edit, field in (
        (lambda d: d["soldiers"][1].update(id=1), "soldiers.1.id"),
        (lambda d: d.update(next_id=3), "next_id"),
        (lambda d: d["soldiers"][1].update(role="sergeant"), "soldiers"),
        (lambda d: d.update(next=0), "history"),
        (lambda d: d["soldiers"][3].update(CR=2), "soldiers.3.CR"),
    ):
        raw = yaml.safe_load(yaml.safe_dump(d, sort_keys=False))
        edit(raw)
        with pytest.raises(DataError) as e:
            C.coerce_squad(raw)
        assert e.value.field == field


# -- the random squad generator (RULES.md §4) ---------------------------------------------------------
def test_squad_cost_prices_the_standard_squad():
    """⚙ data/squad_points.yaml prices the standard squad at 159 of the 160 default points."""
    assert squad_cost(load_squad("standard")) == 159
    assert load_squad_points().points == 160


def test_generated_squads_are_valid_and_seeded():
    """RULES.md §4: a points-based random generator; every squad valid (Squad model, port
    boxes, weapons), within its points, the same for the same seed."""
    t = load_squad_points()
    seen = set()
    for seed in range(150):
        sq = generate_squad(seed)
        Squad.model_validate(sq.model_dump())
        assert t.size[0] <= len(sq.soldiers) <= t.size[1]
        assert squad_cost(sq) <= t.points
        assert sq.soldiers[0].role == "sergeant" and sq.soldiers[1].role == "corporal"
        assert sum(s.weapon == "bar" for s in sq.soldiers) <= t.weapons["bar"].most
        assert sum("satchel" in s.equipment for s in sq.soldiers) <= t.most_satchels
        seen.add(sq.model_dump_json())
    assert generate_squad(7) == generate_squad(7)
    assert len(seen) == 150


@pytest.mark.parametrize("points, most", [(4, 1), (12, 3), (1, 1)])
def test_a_small_budget_buys_fewer_soldiers(points, most):
    sq = generate_squad(0, points)
    assert 1 <= len(sq.soldiers) <= most


def test_a_generated_squad_starts_a_campaign_and_plays():
    sq = generate_squad(11)
    cs = C.new_campaign("first_push", sq)
    assert [s.id for s in cs.soldiers] == list(range(1, len(sq.soldiers) + 1))
    import random

    r = random.Random(0)

    def run(game):
        while not game.over:
            game.step(r.choice(game.legal_actions()))

    after = C.play_next(cs, run, seed=2)
    assert after.next == 1 and set(after.history[0].fates) == {s.id for s in cs.soldiers}


def test_generator_refuses_a_budget_below_one():
    with pytest.raises(ValueError, match="points"):
        generate_squad(0, 0)


def test_save_is_atomic_by_os_replace(tmp_path, monkeypatch):
    """The write goes to a temporary file in the same folder that os.replace moves over the
    squad file (an atomic rename on POSIX and Windows)."""
    calls = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append((Path(a), Path(b))), real(a, b)))
    cs = C.new_campaign("first_push")
    C.save_squad_file(cs, tmp_path / "s.yaml")
    ((src, dst),) = calls
    assert src.parent == dst.parent == tmp_path and dst.name == "s.yaml" and not src.exists()


# -- malformed squad files (issue 13, done-when 7) ---------------------------------------------------
_VALUES = [None, -1, 0, 99, "x", "fit", [], {}, [1, 2], {"a": 1}, True, 2.5, "2026-01-01"]


def _paths(node, where=()):
    yield where
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*where, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*where, i))


def test_mutated_squad_files_load_or_raise_data_error(tmp_path):
    """Hypothesis mutates a squad file (a key deleted, a value of another type, a list
    emptied): reading it loads a squad or raises DataError naming the file and a field, never
    another exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    cs, _path = _saved(tmp_path)
    base = cs.to_dict()
    spots = [p for p in _paths(base) if p]
    out = tmp_path / "mutated.yaml"

    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(spots), st.sampled_from(["delete", "set"]), st.sampled_from(_VALUES)
            ),
            min_size=1,
            max_size=3,
        )
    )
    def check(muts):
        raw = yaml.safe_load(yaml.safe_dump(base, sort_keys=False))
        for where, how, value in muts:
            node = raw
            try:
                for k in where[:-1]:
                    node = node[k]
                if how == "delete":
                    del node[where[-1]]
                else:
                    node[where[-1]] = value
            except (KeyError, IndexError, TypeError):
                continue
        out.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
        try:
            C.read_squad_file(out)
        except DataError as e:
            assert e.path == str(out) and e.field

    check()
