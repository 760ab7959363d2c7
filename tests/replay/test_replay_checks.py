"""Replays checked field by field, errors that name the right line, illegal orders marked,
``ambush play --save`` that never loses a game, mission files replayed from anywhere, and the
viewer's highlight of a soldier acting from inside a vehicle (issue 15, a tester's defects)."""

from __future__ import annotations

import io
import json
import re
import shutil
from argparse import Namespace
from pathlib import Path

import pytest

from ambush_env import replay as R
from ambush_env.cli import cmd_play, cmd_replay, main
from ambush_env.core.model.errors import ConfigError, DataError
from ambush_env.core.world.missions import MISSIONS_DIR


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> list[str]:
    """A heuristic episode of jeep_run (vehicles, passengers), as the replay file's lines."""
    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import run_episode
    from ambush_env.env.ambush_env import AmbushEnv

    env = R.RecordingEnv(AmbushEnv(mission="jeep_run"), "heuristic")
    run_episode(env, make_agent("heuristic"), 10000)
    f = env.recorder.write(tmp_path_factory.mktemp("rc") / "jeep.jsonl")
    return f.read_text(encoding="utf-8").splitlines()


def _write(tmp_path: Path, lines: list[str], tail: str = "\n") -> Path:
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(lines) + tail, encoding="utf-8")
    return p


def _edited(tmp_path: Path, lines: list[str], k: int, edit) -> Path:
    bad = list(lines)
    obj = json.loads(bad[k])
    edit(obj)
    bad[k] = json.dumps(obj)
    return _write(tmp_path, bad)


# -- every recorded field is checked -----------------------------------------------------------
@pytest.mark.parametrize(
    "key, value",
    [("opponent", "veteran"), ("rules", "d100"), ("mission", "farm_assault"), ("mission_seed", 7)],
)
def test_an_edited_redundant_header_field_is_a_mismatch_of_line_1(tmp_path, lines, key, value):
    p = _edited(tmp_path, lines, 0, lambda o: o.update({key: value}))
    with pytest.raises(R.ReplayMismatch) as e:
        R.simulate(R.load(p))
    assert (e.value.line, e.value.step) == (1, 0)
    assert f"line 1: step 0: header: {key} is " in str(e.value) and f"says {value!r}" in str(
        e.value
    )


def test_the_viewer_shows_the_env_that_played_and_the_agent_as_recorded(
    tmp_path, lines, monkeypatch
):
    import ambush_env.render.html as H

    p = _edited(tmp_path, lines, 0, lambda o: o.update(agent="somebody"))
    seen = {}
    real = H.write_viewer

    def spy(path, title, map_, frames, meta=None):
        seen.update(meta)
        return real(path, title, map_, frames, meta)

    monkeypatch.setattr(H, "write_viewer", spy)
    R.write_html(R.load(p), tmp_path / "v.html")
    assert seen["opponent"] == "regular" and seen["rules"] == "standard"
    assert seen["agent (as recorded)"] == "somebody" and "agent" not in seen


@pytest.mark.parametrize("key, value", [("unit", "US9"), ("side", "German")])
def test_an_edited_unit_or_side_of_a_step_is_a_mismatch(tmp_path, lines, key, value):
    p = _edited(tmp_path, lines, 3, lambda o: o.update({key: value}))
    with pytest.raises(R.ReplayMismatch) as e:
        R.simulate(R.load(p))
    assert (e.value.line, e.value.step) == (4, 3)
    assert f"step 3: {key} of order #" in str(e.value) and f"recorded {value!r}" in str(e.value)


@pytest.mark.parametrize(
    "key, edit",
    [
        ("over", lambda v: not v),
        ("vp", lambda v: v + 1),
        ("result", lambda v: "defeat"),
        ("digest", lambda v: "sha256:" + "0" * 64),
        ("end_reason", lambda v: "tea time"),
        ("stats", lambda v: {**v, "us_killed": v["us_killed"] + 1}),
    ],
)
def test_an_edited_end_line_is_a_mismatch_of_the_end_line(tmp_path, lines, key, edit):
    p = _edited(tmp_path, lines, len(lines) - 1, lambda o: o.update({key: edit(o[key])}))
    with pytest.raises(R.ReplayMismatch) as e:
        R.simulate(R.load(p))
    assert e.value.line == len(lines) and e.value.step == len(lines) - 2
    assert f"line {len(lines)}: step {len(lines) - 2}: end line: {key} is " in str(e.value)


def test_the_unedited_file_verifies(tmp_path, lines):
    assert R.simulate(R.load(_write(tmp_path, lines))).verified


# -- errors name the right line, readably ------------------------------------------------------
@pytest.mark.parametrize(
    "first, message",
    [
        (
            None,
            'line 1: not a replay header (line 1 is a JSON object with "format": '
            '"ambush-replay"), got a step',
        ),
        (
            "[1,2]",
            'line 1: not a replay header (line 1 is a JSON object with "format": '
            '"ambush-replay"), got a JSON list',
        ),
        ("", "line 1: empty: not a replay header"),
    ],
)
def test_a_missing_or_replaced_header_is_named_as_line_1(tmp_path, lines, first, message):
    bad = lines[1:] if first is None else [first, *lines[1:]]
    p = _write(tmp_path, bad)
    with pytest.raises(DataError) as e:
        R.load(p)
    assert str(e.value).startswith(f"{p}: {message}")


def test_a_cut_off_header_names_line_1_and_the_column(tmp_path, lines):
    p = _write(tmp_path, [lines[0][:300]], tail="")
    with pytest.raises(DataError) as e:
        R.load(p)
    assert re.match(
        re.escape(f"{p}: line 1: not JSON (a corrupted or cut-off line): ")
        + r"[A-Z][^()]* \(column \d+\): not a replay header",
        str(e.value),
    ), str(e.value)


def test_a_line_cut_mid_string_reads_cleanly(tmp_path, lines):
    s = lines[3]
    cut = s[: s.index('"order":"') + 12]
    p = _write(tmp_path, [*lines[:3], cut], tail="")
    with pytest.raises(DataError) as e:
        R.load(p)
    msg = str(e.value)
    assert msg.startswith(
        f"{p}: line 4: not JSON (a corrupted or cut-off line): "
        "Unterminated string starting at (column "
    )
    assert "at at" not in msg


@pytest.mark.parametrize(
    "value, problem",
    [
        ("x", "env.max_steps: Input should be a valid integer"),
        (-1, "env.max_steps: Input should be greater than or equal to 1"),
    ],
)
def test_bad_env_arguments_name_the_file_line_and_field(tmp_path, lines, value, problem):
    p = _edited(tmp_path, lines, 0, lambda o: o["env"].update(max_steps=value))
    with pytest.raises(DataError) as e:
        R.load(p)
    assert str(e.value).startswith(f"{p}: line 1: {problem}")


def test_an_unknown_env_argument_value_names_line_1(tmp_path, lines):
    p = _edited(tmp_path, lines, 0, lambda o: o["env"].update(reward="gold"))
    with pytest.raises(DataError) as e:
        R.make_env(R.load(p))
    assert str(e.value).startswith(f"{p}: line 1: env: ")


def test_empty_lines_after_the_end_line_are_ignored_but_not_inside(tmp_path, lines):
    """⚙ A text editor adds a trailing newline or blank line: that is no damage."""
    assert R.simulate(R.load(_write(tmp_path, lines, tail="\n\n  \n"))).verified
    with pytest.raises(DataError, match="line 3: an empty line"):
        R.load(_write(tmp_path, [lines[0], lines[1], "", *lines[2:]]))
    with pytest.raises(DataError, match=f"line {len(lines) + 2}: a line after the end line"):
        R.load(_write(tmp_path, [*lines, "", lines[1]]))


# -- illegal orders are marked -----------------------------------------------------------------
def test_an_illegal_order_is_marked_in_the_replay_output_and_the_viewer(tmp_path):
    from ambush_env.env.ambush_env import AmbushEnv

    env = R.RecordingEnv(AmbushEnv(mission="jeep_run"), "test")
    env.reset(seed=3)
    legal = env.legal_actions()
    bad = next(a for a in range(env.action_space.n) if a not in legal)
    text = env.describe_action(bad)
    env.step(bad)
    env.step(env.legal_actions()[0])
    f = env.recorder.write(tmp_path / "ill.jsonl")
    rep = R.load(f)
    assert [s["illegal"] for s in rep.steps] == [True, False]
    out = io.StringIO()
    assert cmd_replay(Namespace(file=str(f), quiet=True, html=None), stdout=out) == 0
    got = out.getvalue().splitlines()
    assert got[0] == f"   1: (illegal, penalised) {text}"
    assert got[1].startswith("   2: ") and "illegal" not in got[1]
    page, _ = R.write_html(rep, tmp_path / "ill.html")
    html = page.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', html, re.DOTALL).group(1))
    assert [fr["illegal"] for fr in data["frames"]] == [False, True, False]
    assert "const ILLEGAL = '(illegal, penalised) '" in html
    assert "(F[j].illegal ? ILLEGAL : '') + F[j].order" in html  # the log's step heading
    assert "(f.illegal ? ILLEGAL : '') + f.order" in html  # the HUD


# -- ambush play --save never loses the game ---------------------------------------------------
class _NoInput(io.StringIO):
    def readline(self, *a):
        raise AssertionError("the game started before --save was checked")


@pytest.mark.parametrize("where", ["folder", "/proc/nope/x.jsonl"])
def test_a_bad_save_path_is_refused_before_play(tmp_path, where, capsys):
    path = str(tmp_path) if where == "folder" else where
    args = Namespace(mission="jeep_run", seed=2, opponent="regular", rules="standard", save=path)
    with pytest.raises(ConfigError, match=re.escape(f"--save: {path}: ")):
        cmd_play(args, stdin=_NoInput(), stdout=io.StringIO())
    # through the command line: one error line, exit 2, no game
    assert main(["play", "--mission", "jeep_run", "--save", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ambush: error: --save: {path}: ") and err.count("\n") == 1
    assert ("is a folder" in err) == (where == "folder")


def test_play_save_refuses_an_earlier_game_unless_force(tmp_path, capsys):
    """Issue 23: ``ambush play --save FILE`` silently overwrote an earlier game. An existing
    FILE is refused before play (exit 2, the message names it and --force); ``--force``
    overwrites it."""
    from ambush_env.cli import build_parser

    f = tmp_path / "g.jsonl"
    f.write_text("an earlier game\n", encoding="utf-8")
    args = Namespace(mission="jeep_run", seed=2, opponent="regular", rules="standard", save=str(f))
    with pytest.raises(ConfigError, match=re.escape(f"--save: {f}: exists (an earlier game?)")):
        cmd_play(args, stdin=_NoInput(), stdout=io.StringIO())
    assert main(["play", "--mission", "jeep_run", "--save", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ambush: error: --save: {f}: exists") and "--force" in err
    assert f.read_text(encoding="utf-8") == "an earlier game\n"  # untouched
    assert build_parser().parse_args(["play", "--save", str(f), "--force"]).force is True
    args.force = True
    assert cmd_play(args, stdin=io.StringIO("0\nq\n"), stdout=io.StringIO()) == 0
    rep = R.load(f)
    assert len(rep.steps) == 1 and R.simulate(rep).verified


class _ThenCtrlC(io.StringIO):
    """Typed lines, then Ctrl-C at the next prompt."""

    def readline(self, *a):
        line = super().readline(*a)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_during_play_saves_the_game_so_far_and_exits_130(tmp_path):
    f = tmp_path / "g.jsonl"
    args = Namespace(mission="jeep_run", seed=2, opponent="regular", rules="standard", save=str(f))
    out = io.StringIO()
    assert cmd_play(args, stdin=_ThenCtrlC("0\n0\n"), stdout=out) == 130
    text = out.getvalue()
    assert "interrupted." in text and "replay saved to" in text
    assert "(2 orders, the game unfinished)" in text
    rep = R.load(f)
    assert len(rep.steps) == 2 and rep.end["over"] is False and rep.end["result"] is None
    assert R.simulate(rep).verified
    o = io.StringIO()
    assert cmd_replay(Namespace(file=str(f), quiet=True, html=None), stdout=o) == 0
    assert "replay verified: 2 steps, identical events" in o.getvalue()
    assert "result (not over)" in o.getvalue()


def test_a_step_interrupted_half_way_is_left_out_of_the_replay(tmp_path):
    """Ctrl-C inside ``env.step``: the game moved on but the step was never recorded; the end
    line is the game as the last recorded step left it, so the replay still verifies."""
    from ambush_env.env.ambush_env import AmbushEnv

    env = R.RecordingEnv(AmbushEnv(mission="jeep_run"), "test")
    env.reset(seed=4)
    for _ in range(6):
        env.step(env.legal_actions()[-1])
    a = env.legal_actions()[-1]
    env.recorder.before_step(a)
    env._env.step(a)  # played, but after_step never ran
    rep = R.load(env.recorder.write(tmp_path / "half.jsonl"))
    assert len(rep.steps) == 6 and R.simulate(rep).verified


# -- a mission file replays from anywhere ------------------------------------------------------
def test_a_mission_file_replay_plays_from_another_folder_and_without_the_file(
    tmp_path, monkeypatch
):
    (tmp_path / "mm").mkdir()
    shutil.copy(MISSIONS_DIR / "jeep_run.yaml", tmp_path / "mm" / "jeep_run.yaml")
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "games" / "g.jsonl"
    args = Namespace(
        mission="mm/jeep_run.yaml", seed=2, opponent="regular", rules="standard", save=str(f)
    )
    assert cmd_play(args, stdin=io.StringIO("0\n0\nq\n"), stdout=io.StringIO()) == 0
    head = json.loads(f.read_text(encoding="utf-8").splitlines()[0])
    assert head["env"]["mission"] == str(tmp_path / "mm" / "jeep_run.yaml")  # absolute
    assert head["mission_file"]["yaml"] == (MISSIONS_DIR / "jeep_run.yaml").read_text(
        encoding="utf-8"
    )
    monkeypatch.chdir("/")
    assert R.simulate(R.load(f)).verified
    (tmp_path / "mm" / "jeep_run.yaml").unlink()  # the embedded text is played
    assert R.simulate(R.load(f)).verified
    # a replay written before mission_file existed: a relative path is looked up from the
    # replay's folder too
    (f.parent / "mm").mkdir()
    shutil.copy(MISSIONS_DIR / "jeep_run.yaml", f.parent / "mm" / "jeep_run.yaml")
    old = f.read_text(encoding="utf-8").splitlines()
    h = json.loads(old[0])
    h.pop("mission_file")
    h["env"]["mission"] = "mm/jeep_run.yaml"
    p = f.parent / "old.jsonl"
    p.write_text("\n".join([json.dumps(h), *old[1:]]) + "\n", encoding="utf-8")
    assert R.simulate(R.load(p)).verified
    (f.parent / "mm" / "jeep_run.yaml").unlink()
    with pytest.raises(
        DataError,
        match=r"line 1: env.mission: the mission file 'mm/jeep_run.yaml' "
        "is not found",
    ):
        R.make_env(R.load(p))


# -- the viewer: the acting highlight wins -----------------------------------------------------
def _rules(css: str) -> dict[str, int]:
    return {m.group(1): m.start() for m in re.finditer(r"^([.#][^{]+)\{", css, re.M)}


def test_the_acting_highlight_comes_after_every_other_unit_stroke():
    """Equal specificity: the last rule wins, so ``.unit.acting`` (and its aboard variant) come
    after ``.unit.aboard``, ``.unit.captured`` and ``.unit.hidden``; and the viewer gives an
    acting soldier aboard a vehicle both classes."""
    from ambush_env.render import html as H

    pos = _rules(H._CSS)
    for other in (".unit.aboard", ".unit.captured", ".unit.hidden", ".unit"):
        assert pos[".unit.acting"] > pos[other], other
    assert pos[".unit.acting.aboard"] > pos[".unit.aboard"]
    assert re.search(r"\.unit\.acting\.aboard\{[^}]*stroke-width", H._CSS)
    assert "stroke:" not in H._CSS.split(".unit.acting.aboard{")[1].split("}")[0]
    js = H._JS
    assert js.index("if (veh) cls += ' aboard'") < js.index("if (flags & 8) cls += ' acting'")


def test_hex_labels_are_legible():
    from ambush_env.render import html as H

    rule = re.search(r"\.hexlabel\{([^}]*)\}", H._CSS).group(1)
    size = float(re.search(r"font-size:([\d.]+)px", rule).group(1))
    assert size >= 8 and "opacity" not in rule.replace("stroke-opacity", "")
    assert "paint-order:stroke" in rule and "fill:#111" in rule


def test_each_vehicle_names_its_hex_and_who_is_aboard_driver_first(tmp_path, lines):
    """The frame's vehicle text, shown in the viewer's #aboard panel: "V1 Jeep (C6): US1
    driver, US2, US3"; ``aboard`` lists the same soldiers (the seats the viewer draws)."""
    page, sim = R.write_html(R.load(_write(tmp_path, lines)), tmp_path / "v.html")
    html = page.read_text(encoding="utf-8")
    frames = json.loads(re.search(r'id="replay-data">(.*?)</script>', html, re.DOTALL).group(1))[
        "frames"
    ]
    b = sim.env.unwrapped.game.board
    seen = 0
    for fr in frames:
        for v in fr["vehicles"]:
            names = v[8]
            assert sorted(names) == sorted(u[1] for u in fr["units"] if u[7] == v[1])
            kind = "Jeep" if v[2] == 0 else "Kübelwagen"
            want = (
                f"{v[1]} {kind} ({b.label(v[3])}): "
                + (", ".join([f"{names[0]} driver", *names[1:]]) if names else "empty")
                + (", disabled" if v[5] else "")
            )
            assert v[7] == want
            seen += len(names) >= 3
    assert seen and 'id="aboard"' in html
