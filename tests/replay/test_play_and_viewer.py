"""``ambush play``'s help line and legend, and the HTML viewer's page (issue 15): one
self-contained file, an SVG hex map of the engine's hexes, one frame per re-simulated step."""

from __future__ import annotations

import io
import json
import re
from argparse import Namespace

import pytest

from ambush_env import replay as R
from ambush_env.cli import PLAY_HELP, cmd_play, main
from ambush_env.core.model.types import Status
from ambush_env.render import ansi


def test_legend_names_every_glyph_of_the_map():
    text = ansi.legend()
    for glyph in ansi.TERRAIN_GLYPH.values():
        assert f" {glyph} " in text
    for glyph, meaning in ansi.OCCUPANT_GLYPHS + ansi.VEHICLE_GLYPHS:
        assert f"{glyph} {meaning}" in text


def test_play_prints_a_help_line_and_the_legend_and_saves_a_replay(tmp_path):
    f = tmp_path / "g.jsonl"
    args = Namespace(mission="jeep_run", seed=2, opponent="regular", rules="standard", save=str(f))
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("0\n?\n0\nlegend\nq\n"), stdout=out) == 0
    text = out.getvalue()
    first = text.splitlines()[0]
    assert first == f"Mission jeep_run (seed 2). {PLAY_HELP}"
    assert "q quits" in first and "? or legend" in first
    assert text.count(ansi.legend()) == 3  # at the start, then for "?" and "legend"
    assert "replay saved to" in text and "(2 orders, the game unfinished)" in text
    rep = R.load(f)
    assert rep.header["agent"] == "human" and len(rep.steps) == 2
    assert R.simulate(rep).verified


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    """A heuristic episode of jeep_run (vehicles, passengers), recorded and written as HTML."""
    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import run_episode
    from ambush_env.env.ambush_env import AmbushEnv

    tmp = tmp_path_factory.mktemp("viewer")
    env = R.RecordingEnv(AmbushEnv(mission="jeep_run"), "heuristic")
    run_episode(env, make_agent("heuristic"), 10000)
    f = env.recorder.write(tmp / "jeep.jsonl")
    page, sim = R.write_html(R.load(f), tmp / "jeep.html")
    return f, page, sim


def _data(page) -> dict:
    html = page.read_text(encoding="utf-8")
    blob = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.DOTALL
    )
    return json.loads(blob.group(1))


def test_the_page_is_self_contained(viewer):
    _, page, _ = viewer
    html = page.read_text(encoding="utf-8")
    # the only URL is the SVG namespace (an identifier, never fetched)
    assert set(re.findall(r"https?://[^\s\"'<>)]+", html)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|\bhref=|@import|url\(", html)
    for ident in (
        "next",
        "prev",
        "play",
        "first",
        "last",
        "slider",
        "step-counter",
        "event-log",
        "hud",
        "show-hidden",
        "last-shot",
    ):
        assert f'id="{ident}"' in html


def test_the_map_has_every_hex_with_its_label_and_the_walls(viewer):
    _, page, sim = viewer
    html = page.read_text(encoding="utf-8")
    b = sim.env.unwrapped.game.board
    assert html.count('<polygon class="hex') == b.n
    for i in (0, b.n - 1, b.index("C6")):
        assert f">{b.label(i)}</text>" in html
    walls = sum(
        1
        for i in range(b.n)
        for j in b.neighbors[i]
        if 0 <= i < j and (hs := b.hexside(i, j)) is not None and hs.wall is not None
    )
    assert walls > 0 and html.count('<line class="wall"') == walls


def test_one_frame_per_step_from_the_re_simulation(viewer):
    f, page, sim = viewer
    rep = R.load(f)
    data = _data(page)
    frames = data["frames"]
    assert len(frames) == len(rep.steps) + 1 and frames[0]["order"] is None
    for fr, s in zip(frames[1:], rep.steps, strict=True):
        assert fr["order"] == s["order"] and fr["step"] == s["step"]
        assert fr["log"] == [ansi.format_event(e) for e in s["events"]]
    st = sim.env.unwrapped.game.state
    last = {u[1]: u for u in frames[-1]["units"]}
    for u in st.units:  # the last frame is the engine's final state
        if u.hex >= 0 and u.status not in (Status.REMOVED, Status.HIDDEN):
            assert last[u.name][3] == u.hex and last[u.name][4] == u.status
    # vehicles and their occupants are both drawn: a frame with a soldier aboard a vehicle
    aboard = [(fr, u) for fr in frames for u in fr["units"] if u[7]]
    assert aboard
    fr, u = aboard[0]
    assert any(v[1] == u[7] and v[3] == u[3] for v in fr["vehicles"])
    acting = [fr for fr in frames if fr["acting"]]
    assert all(
        sum(u[6] & 8 for u in fr["units"]) == 8
        for fr in acting
        if any(u[1] == fr["acting"] for u in fr["units"])
    )


def test_the_last_shot_line_joins_shooter_and_target(tmp_path):
    """A farm_assault episode in which the heuristic fires: the frame of a step with a
    ``fire`` event draws the line from the shooter's hex centre to the target's."""
    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import run_episode
    from ambush_env.env.ambush_env import AmbushEnv
    from ambush_env.render import html as H
    from ambush_env.render.geometry import hex_centre

    env = R.RecordingEnv(AmbushEnv(mission="farm_assault"), "heuristic")
    run_episode(env, make_agent("heuristic"), 10000)
    f = env.recorder.write(tmp_path / "farm.jsonl")
    page, sim = R.write_html(R.load(f), tmp_path / "farm.html")
    frames = _data(page)["frames"]
    shots = [
        (fr, s)
        for fr, s in zip(frames[1:], R.load(f).steps, strict=True)
        if any(e["type"] == "fire" for e in s["events"])
    ]
    assert shots and all(fr["shot"] is not None for fr, _ in shots)
    assert all(
        fr["shot"] is None
        for fr, s in zip(frames[1:], R.load(f).steps, strict=True)
        if not any(e["type"] in H.SHOT_EVENTS for e in s["events"])
    )
    # the re-simulated units' hexes at that step give the line's ends
    fr, s = shots[0]
    ev = [e for e in s["events"] if e["type"] == "fire"][-1]
    hexes = {u[1]: u[3] for u in fr["units"]}
    b = sim.env.unwrapped.game.board
    for name, (x, y) in ((ev["shooter"], fr["shot"][:2]), (ev["target"], fr["shot"][2:])):
        if name in hexes:
            cx, cy = hex_centre(*b.coords(hexes[name]), H.HEX_SIZE)
            assert (x, y) == (round(cx, 1), round(cy, 1))


def test_ambush_replay_html_writes_the_viewer(viewer, tmp_path, capsys):
    f, _, _ = viewer
    out = tmp_path / "v.html"
    assert main(["replay", str(f), "--quiet", "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_hidden_germans_are_drawn_apart_from_known_ones(tmp_path):
    """⚙ The viewer shows Germans placed but unknown to the US (flag KNOWN unset, drawn faded,
    hidden by #show-hidden): in this tank_hunt episode a paragraph places G2 and G3 hidden."""
    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import run_episode
    from ambush_env.env.ambush_env import AmbushEnv
    from ambush_env.render import html as H

    env = R.RecordingEnv(AmbushEnv(mission="tank_hunt"), "heuristic")
    run_episode(env, make_agent("heuristic"), 10000)
    rep = R.load(env.recorder.write(tmp_path / "t.jsonl"))
    page, _ = R.write_html(rep, tmp_path / "t.html")
    frames = _data(page)["frames"]
    k = next(
        s["step"]
        for s in rep.steps
        if any(e["type"] == "place" and e.get("hidden") for e in s["events"])
    )
    placed = {
        e["unit"] for e in rep.steps[k - 1]["events"] if e["type"] == "place" and e.get("hidden")
    }
    units = {u[1]: u for u in frames[k]["units"]}
    assert placed and all(not units[n][6] & H.KNOWN for n in placed)
    assert all(u[6] & H.KNOWN for u in frames[k]["units"] if u[2] == 0)
    assert ".unit.hidden{opacity:.35" in page.read_text(encoding="utf-8")
