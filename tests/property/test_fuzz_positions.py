"""A short run of the position fuzz (scripts/fuzz_positions.py; docs/ENV.md "Positions, orders as
text, copies"): random legal play on registered ids, checking the position round trip,
clones, pickling, ``set_state`` and identical play from the restored copies; zero mismatches.
The long run (1 000 000 steps) is the script's own."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location(
        "fuzz_positions", ROOT / "scripts" / "fuzz_positions.py"
    )
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["fuzz_positions"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


FUZZ = _script()


def test_the_cases_cover_every_newest_id_rules_deck_and_mode():
    """Every ``ambush/`` id at its newest version, both rule sets, every deck, both modes."""
    import gymnasium

    from ambush_env.core.world.cards import list_decks

    cases = FUZZ.all_cases()
    ids = {c[0] for c in cases}
    assert ids == set(FUZZ.newest_ids())
    assert "ambush/Procedural-v4" in ids or any(i.startswith("ambush/Procedural-") for i in ids)
    names = {i.rpartition("-v")[0] for i in gymnasium.registry if i.startswith("ambush/")}
    assert {i.rpartition("-v")[0] for i in ids} == names
    plain = [c for c in cases if c[1] != "-"]
    assert {c[1] for c in plain} == {"standard", "d100"}
    assert {c[2] for c in plain} == set(list_decks())
    assert {c[3] for c in plain} == {"cards", "agent"}


def test_a_short_fuzz_finds_no_mismatch(tmp_path):
    """2 000 steps over a spread of cases (the procedural id, the campaign, two-sided d100
    play, a mission with a tank and one with mines), every kind of check made."""
    cases = [
        ("ambush/Procedural-v4", "d100", "veteran", "agent"),
        ("ambush/TankHunt-v4", "standard", "green", "cards"),
        ("ambush/NightPatrol-v4", "d100", "regular", "cards"),
        ("ambush/JeepRun-v4", "standard", "regular", "agent"),
        ("ambush/Campaign-v0", "-", "-", "cards"),
    ]
    ids = set(FUZZ.newest_ids())
    cases = [c for c in cases if c[0] in ids]
    r = FUZZ.fuzz(
        2000, seed=1, out=tmp_path, every=40, stretch=10, pickle_every=2, fresh_every=5, cases=cases
    )
    assert r.steps == 2000
    assert all(n > 0 for n in r.checks.values()), r.checks
    assert not r.mismatches, json.dumps(r.mismatches[0]["detail"])
    assert not list(tmp_path.iterdir())


def test_a_mismatch_is_counted_written_and_fails(tmp_path, monkeypatch):
    """The script notices a writer that drops a field: the position is written to the folder
    and ``main`` exits 1."""
    from ambush_env.core.play import position

    real = position.write_position

    def dropping(*a, **kw):
        p = real(*a, **kw)
        p["steps"] = 0  # a field forgotten by the writer
        return p

    monkeypatch.setattr(position, "write_position", dropping)
    r = FUZZ.fuzz(
        150,
        seed=2,
        out=tmp_path,
        every=40,
        stretch=5,
        cases=[("ambush/FarmAssault-v4", "standard", "regular", "agent")],
    )
    assert r.mismatches and {m["kind"] for m in r.mismatches} >= {"round_trip"}
    files = list(tmp_path.glob("round_trip_*.json"))
    assert files and "position" in json.loads(files[0].read_text())
    assert (
        FUZZ.main(
            ["--steps", "150", "--workers", "1", "--every", "40", "--out", str(tmp_path / "m")]
        )
        == 1
    )
