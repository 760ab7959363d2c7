"""Recorded episodes (issue 15): record, write atomically, load and validate, re-simulate.

A replay is a JSON Lines file, one JSON object per line, so that a damaged file is reported by
its line number:

* line 1, the header: ``{"format": "ambush-replay", "version": 1, "ambush_env": "0.1.0",
  "mission": ID, "env": {the AmbushEnv arguments: mission, rules, opponent, reward,
  illegal_action, max_steps, procedural[, mission_seeds]}, "rules", "opponent", "seed",
  "options", "agent", "mission_seed", "mission_file", "position", "events", "rolls"}``:
  ``position`` is the start (``Game.position()`` after ``reset``, docs/API.md "positions": a
  generated mission is inline), ``events`` / ``rolls`` those of the setup; a mission played
  from a file has ``env.mission`` its absolute path and ``mission_file`` = ``{"path", "yaml":
  the file's text}`` (else null), so the replay plays anywhere (:func:`make_env`);
* one line per env step: ``{"step": k, "action": a, "order": text, "side": "US", "unit":
  name|null, "illegal": bool, "events": [...], "rolls": [[why, roll], ...], "reward", "vp",
  "terminated", "truncated"}``: ``order`` is ``env.describe_action(a)`` before the step,
  ``unit`` the soldier it is for (the acting one, or the one a ``select`` picks), ``events``
  the step's ``info["events"]`` (each with the rolls that decided it), ``rolls`` every die of
  the step in order with its label (:attr:`ambush_env.core.model.dice.Dice.log`);
* the end line: ``{"end": true, "steps", "over", "result", "vp", "end_reason", "stats",
  "digest"}``, ``digest`` the sha256 of the steps' actions, events and rolls.

An unfinished game (``ambush play`` quit or interrupted) ends with ``over: false`` and
``result: null``. A file without its end line is *truncated*; empty lines after the end line
are ignored (⚙ an editor adds them). Every problem is a
:class:`~ambush_env.core.model.errors.DataError` naming the file and ``line N``. The plain-JSON
replays of earlier ``ambush play --save`` (``{"mission", "seed", "opponent", "rules",
"actions"}``) still load (:attr:`Replay.legacy`: orders only, nothing to verify).

:func:`simulate` rebuilds the env from the header, resets it with the seed, checks the start
position and the header's redundant fields (``mission``, ``rules``, ``opponent``,
``mission_seed``), plays each recorded action and compares order text, unit, side, legality,
events, rolls, reward, VP and the end flags step by step, then every field of the end line: the
first difference raises :class:`ReplayMismatch` naming the step and the line. ⚙ ``agent`` and
``ambush_env`` are provenance that no re-simulation can check (the viewer says "as recorded").
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ambush_env.core.model.errors import DataError
from ambush_env.core.world.data import write_text_atomic

FORMAT = "ambush-replay"
VERSION = 1
SUFFIX = ".jsonl"


class ReplayMismatch(DataError):
    """Re-simulating a replay gave something other than what it recorded.

    Attributes:
        step: the step (1-based; 0: the start) of the first difference.
        line: the file's line of that step.
    """

    def __init__(self, path: object, line: int, step: int, problem: str) -> None:
        self.step = step
        self.line = line
        super().__init__(path, f"line {line}", f"step {step}: {problem}")


def _jsonable(x: Any) -> Any:
    """``x`` as it reads back from JSON (tuples become lists, int keys strings)."""
    return json.loads(json.dumps(x))


def digest(steps: list[dict]) -> str:
    """``"sha256:<hex>"`` of the steps' actions, events and rolls: compact JSON of each
    step's ``[action, events, rolls]`` in the keys' own order (⚙ not sorted: a JSON round
    trip keeps that order, while sorting would order int keys before they become strings)."""
    h = hashlib.sha256()
    for s in steps:
        h.update(json.dumps([s["action"], s["events"], s["rolls"]], separators=(",", ":")).encode())
        h.update(b"\n")
    return "sha256:" + h.hexdigest()


# -- recording -------------------------------------------------------------------------------
def env_arguments(env: Any) -> dict[str, Any]:
    """The arguments that rebuild ``env`` (an :class:`AmbushEnv`) for a replay: its own
    ``_kwargs`` without the render mode (⚙ rendering never changes play), a mission file's
    path made absolute."""
    kw = dict(env.unwrapped._kwargs)
    kw.pop("render_mode", None)
    if is_mission_path(kw.get("mission")):
        kw["mission"] = str(Path(kw["mission"]).resolve())
    return kw


def is_mission_path(mission: Any) -> bool:
    """Whether an env's ``mission`` argument is a mission file's path (not a shipped id)."""
    return isinstance(mission, str) and (
        mission.endswith((".yaml", ".yml")) or "/" in mission or os.sep in mission
    )


def _mission_file(env: Any) -> dict[str, str] | None:
    """``{"path": absolute, "yaml": text}`` of the mission file ``env`` plays, or None."""
    m = env.unwrapped._kwargs.get("mission")
    if not is_mission_path(m):
        return None
    p = Path(m).resolve()
    return {"path": str(p), "yaml": p.read_text(encoding="utf-8")}


def _end_now(game: Any, info: dict) -> dict[str, Any]:
    """The end line's facts as they stand (over, result, VP, end reason, stats)."""
    return {
        "over": bool(game.over),
        "result": info.get("result"),
        "vp": int(game.vp),
        "end_reason": info.get("end_reason") or game.state.end_reason or None,
        "stats": _jsonable(dict(game.stats())),
    }


class Recorder:
    """Builds one replay while an episode is played (the lines as dicts).

    Call :meth:`start` after ``reset``, :meth:`before_step` then :meth:`after_step` around
    each ``step``, and :meth:`finish` at the end (or let :meth:`lines` finish it).
    """

    def __init__(self, env: Any, agent: str = "") -> None:
        self.env = env.unwrapped
        self.agent = agent
        self.header: dict[str, Any] | None = None
        self.steps: list[dict[str, Any]] = []
        self.end: dict[str, Any] | None = None
        self._pending: tuple[int, str, str | None, int] | None = None
        self._now: dict[str, Any] = {}

    def start(self, seed: int | None, options: dict | None, info: dict) -> None:
        """Record the header from the env just reset with ``seed`` and ``options``."""
        import ambush_env

        env = self.env
        game = env.game
        self.header = {
            "format": FORMAT,
            "version": VERSION,
            "ambush_env": ambush_env.__version__,
            "mission": env.mission_id,
            "env": env_arguments(env),
            "rules": game.rules,
            "opponent": game.opponent,
            "seed": seed,
            "options": _jsonable(options) if options else None,
            "agent": self.agent,
            "mission_seed": info.get("mission_seed"),
            "mission_file": _mission_file(env),
            "position": _jsonable(game.position()),
            "events": _jsonable(info["events"]),
            "rolls": [list(r) for r in game.dice.log],
        }
        self.steps, self.end, self._now = [], None, _end_now(game, info)

    def before_step(self, action: Any) -> None:
        """Note the order's text and unit, and where the dice log stands, before ``step``."""
        env = self.env
        a = int(action)
        self._pending = (a, env.describe_action(a), _unit_of(env.game, a), len(env.game.dice.log))

    def after_step(self, reward: float, terminated: bool, truncated: bool, info: dict) -> None:
        """Record the step just played."""
        assert self._pending is not None, "before_step was not called"
        a, text, unit, n0 = self._pending
        self._pending = None
        self.steps.append(
            {
                "step": len(self.steps) + 1,
                "action": a,
                "order": text,
                "side": "US",
                "unit": unit,
                "illegal": bool(info.get("illegal_action", False)),
                "events": _jsonable(info["events"]),
                "rolls": [list(r) for r in self.env.game.dice.log[n0:]],
                "reward": float(reward),
                "vp": int(info["vp"]),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
            }
        )
        self._now = _end_now(self.env.game, info)

    def finish(self) -> dict[str, Any]:
        """The end line (made once), of the game as the last recorded step left it (a step
        interrupted half-way, Ctrl-C, is not recorded: the replay ends before it)."""
        if self.end is None:
            n = self._now
            self.end = {
                "end": True,
                "steps": len(self.steps),
                "over": n["over"],
                "result": n["result"],
                "vp": n["vp"],
                "end_reason": n["end_reason"],
                "stats": n["stats"],
                "digest": digest(self.steps),
            }
        return self.end

    def lines(self) -> list[dict[str, Any]]:
        """Header, steps and end line."""
        assert self.header is not None, "start was not called"
        return [self.header, *self.steps, self.finish()]

    def text(self) -> str:
        """The replay file's text: one compact JSON object per line."""
        return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in self.lines())

    def write(self, path: str | Path) -> Path:
        """Write the replay atomically (:func:`ambush_env.core.world.data.write_text_atomic`)."""
        return write_text_atomic(self.text(), path, what="replay")


def _unit_of(game: Any, action: int) -> str | None:
    """The soldier an order is for: the acting one, or the one a ``select`` order picks."""
    from ambush_env.core.model import orders as O

    u = game.acting_unit()
    if u is not None:
        return u.name
    kind, arg = O.decode(action)
    if kind == O.OrderKind.SELECT_UNIT:
        return next((x.name for x in game.state.units if x.side == 0 and x.slot == arg), None)
    return None


class RecordingEnv:
    """An env that records what it plays: ``reset`` and ``step`` are the wrapped env's,
    recorded into :attr:`recorder`; every other attribute is the wrapped env's (so agents and
    :func:`ambush_env.agents.evaluate.run_episode` see the env itself; ``unwrapped`` is it).

    ⚙ A proxy, not a ``gymnasium.Wrapper``: Gymnasium 1.x wrappers do not forward attributes
    such as ``legal_actions`` that the agents call.
    """

    def __init__(self, env: Any, agent: str = "") -> None:
        self._env = env
        self.recorder = Recorder(env, agent)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self._env.reset(seed=seed, options=options)
        self.recorder.start(seed, options, info)
        return obs, info

    def step(self, action: Any):
        self.recorder.before_step(action)
        obs, reward, terminated, truncated, info = self._env.step(action)
        self.recorder.after_step(reward, terminated, truncated, info)
        return obs, reward, terminated, truncated, info


# -- loading ---------------------------------------------------------------------------------
@dataclass
class Replay:
    """A loaded replay.

    Attributes:
        path: the file.
        header: line 1 (for a legacy file: its mission, seed, opponent and rules).
        steps: one dict per step (legacy: ``{"step", "action"}`` only).
        end: the end line (None for a legacy file).
        legacy: a plain-JSON replay of an earlier ``ambush play --save``.
        lines: the file's line of each step (legacy: 1).
    """

    path: str
    header: dict[str, Any]
    steps: list[dict[str, Any]]
    end: dict[str, Any] | None
    legacy: bool = False
    lines: list[int] = field(default_factory=list)

    @property
    def actions(self) -> list[int]:
        return [s["action"] for s in self.steps]

    def env_arguments(self) -> dict[str, Any]:
        """The AmbushEnv arguments of the recorded env."""
        h = self.header
        if self.legacy:
            return {
                "mission": h["mission"],
                "opponent": h["opponent"],
                "rules": h["rules"],
                "illegal_action": "raise",
            }
        return dict(h["env"])


def _models():
    """The pydantic schemas of the three kinds of line (built once, on first use)."""
    global _MODELS
    if _MODELS is not None:
        return _MODELS
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

    from ambush_env.core.model.orders import N_ORDERS

    # ⚙ integers and flags are strict (a "3" or 1.5 for an action is an error, not coerced)
    class Line(BaseModel):
        model_config = ConfigDict(extra="forbid")

    class EnvArgs(Line):
        # the AmbushEnv arguments (validated here so that a bad one names line 1's field;
        # the env checks the values it knows, such as a mission id, when it is made)
        mission: str | None
        rules: str = "standard"
        opponent: str = "regular"
        reward: str = "default"
        illegal_action: Literal["penalize", "raise"] = "penalize"
        max_steps: StrictInt | None = Field(default=None, ge=1)
        procedural: StrictBool = False
        mission_seeds: str | None = None

    class MissionFile(Line):
        path: str
        yaml: str

    class Header(Line):
        model_config = ConfigDict(extra="allow")
        format: Literal["ambush-replay"]
        version: int
        ambush_env: str
        mission: str
        env: EnvArgs
        rules: str
        opponent: str
        seed: StrictInt | None = Field(ge=0)
        options: dict[str, Any] | None = None
        agent: str = ""
        mission_seed: int | None = None
        mission_file: MissionFile | None = None
        position: dict[str, Any]
        events: list[dict[str, Any]]
        rolls: list[tuple[str, StrictInt]]

    class Step(Line):
        step: StrictInt = Field(ge=1)
        action: StrictInt = Field(ge=0, lt=N_ORDERS)
        order: str
        side: Literal["US", "German"]
        unit: str | None
        illegal: StrictBool = False
        events: list[dict[str, Any]]
        rolls: list[tuple[str, StrictInt]]
        reward: float
        vp: StrictInt
        terminated: StrictBool
        truncated: StrictBool

    class End(Line):
        end: Literal[True]
        steps: StrictInt = Field(ge=0)
        over: StrictBool
        result: str | None
        vp: int
        end_reason: str | None
        stats: dict[str, Any]
        digest: str

    class Legacy(BaseModel):
        model_config = ConfigDict(extra="allow")
        mission: str
        seed: int = Field(ge=0)
        opponent: str = "regular"
        rules: str = "standard"
        actions: list[int]

    _MODELS = (Header, Step, End, Legacy)
    return _MODELS


_MODELS: Any = None


def _check(model: Any, raw: Any, path: Path, where: str) -> dict[str, Any]:
    from pydantic import ValidationError

    try:
        return model.model_validate(raw).model_dump()
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "<root>"
        raise DataError(path, where, f"{loc}: {err['msg']}") from None


def _json_problem(e: json.JSONDecodeError) -> str:
    """A JSON error as ``message (column N)`` (the exception's own text repeats itself)."""
    return f"{e.msg} (column {e.colno})"


def load(path: str | Path) -> Replay:
    """Read and validate a replay file (the new JSON Lines format or a legacy plain-JSON one).

    Raises:
        DataError: unreadable; line 1 not a replay header (missing, not JSON, not the right
            object, bad env arguments); a line that is not JSON or not the right object; steps
            out of order; a line after the end line (empty lines after it are ignored); no end
            line ("truncated"); the end line's step count wrong. The message names the file and
            ``line N`` (a legacy file: its field).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(p, "<file>", f"cannot read: {e}") from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and not ({"format", "step", "end"} & whole.keys()):
        return _load_legacy(p, whole)  # one JSON object that is no header: the old format
    raw_lines = text.split("\n")
    while len(raw_lines) > 1 and not raw_lines[-1].strip():
        raw_lines.pop()  # the newline that ends the last line, and empty lines after it
    want = f'not a replay header (line 1 is a JSON object with "format": "{FORMAT}")'
    if not raw_lines[0].strip():
        raise DataError(p, "line 1", f"empty: {want}")
    try:
        head = json.loads(raw_lines[0])
    except json.JSONDecodeError as e:
        raise DataError(
            p, "line 1", f"not JSON (a corrupted or cut-off line): {_json_problem(e)}: {want}"
        ) from None
    if not isinstance(head, dict) or "format" not in head:
        got = (
            f"a JSON {type(head).__name__}"
            if not isinstance(head, dict)
            else ("a step" if "step" in head else "an object without format")
        )
        raise DataError(p, "line 1", f"{want}, got {got}")
    Header, Step, End, _ = _models()
    if head.get("format") != FORMAT:
        raise DataError(
            p, "line 1", f"format: not an {FORMAT} file (format {head.get('format')!r})"
        )
    if head.get("version") != VERSION:
        raise DataError(
            p,
            "line 1",
            f"version: this ambush_env reads {FORMAT} version {VERSION}, "
            f"the file is version {head.get('version')!r}",
        )
    header = _check(Header, head, p, "line 1")
    header["env"] = {k: header["env"][k] for k in head["env"]}  # as written (no defaults added)
    steps: list[dict[str, Any]] = []
    lines: list[int] = []
    end: dict[str, Any] | None = None
    for n, line in enumerate(raw_lines[1:], start=2):
        where = f"line {n}"
        if end is not None:
            if not line.strip():
                continue  # an empty line after the end line: the next one is named
            raise DataError(p, where, "a line after the end line")
        if not line.strip():
            raise DataError(p, where, "an empty line (a step or the end line expected)")
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(
                p, where, f"not JSON (a corrupted or cut-off line): {_json_problem(e)}"
            ) from None
        if not isinstance(obj, dict):
            raise DataError(
                p, where, f"a step or the end line is a JSON object, got {type(obj).__name__}"
            )
        if "end" in obj:
            end = _check(End, obj, p, where)
            if end["steps"] != len(steps):
                raise DataError(
                    p,
                    where,
                    f"steps: the end line counts {end['steps']} steps, the file holds {len(steps)}",
                )
            continue
        s = _check(Step, obj, p, where)
        if s["step"] != len(steps) + 1:
            raise DataError(p, where, f"step: step {len(steps) + 1} expected here, got {s['step']}")
        s["rolls"] = [list(r) for r in s["rolls"]]
        steps.append(s)
        lines.append(n)
    if end is None:
        raise DataError(
            p,
            f"line {len(raw_lines) + 1}",
            f"truncated: the file ends after {len(steps)} steps without its end line",
        )
    header["rolls"] = [list(r) for r in header["rolls"]]
    return Replay(str(p), header, steps, end, legacy=False, lines=lines)


def _load_legacy(p: Path, raw: dict) -> Replay:
    """A plain-JSON replay of an earlier ``ambush play --save`` (the file's one object)."""
    from pydantic import ValidationError

    try:
        rec = _models()[3].model_validate(raw).model_dump()
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError(p, ".".join(str(x) for x in err["loc"]) or "<root>", err["msg"]) from None
    header = {
        "mission": rec["mission"],
        "seed": rec["seed"],
        "opponent": rec["opponent"],
        "rules": rec["rules"],
    }
    steps = [{"step": k + 1, "action": a} for k, a in enumerate(rec["actions"])]
    return Replay(str(p), header, steps, None, legacy=True, lines=[1] * len(steps))


# -- re-simulation ---------------------------------------------------------------------------
@dataclass
class Simulated:
    """What :func:`simulate` played.

    Attributes:
        steps: the steps played.
        info: the env's last ``info``.
        verified: every recorded step was compared and matched (False for a legacy file:
            it records nothing to compare).
        env: the env (at the end of the replay).
    """

    steps: int
    info: dict[str, Any]
    verified: bool
    env: Any


StepHook = Callable[[int, Any, dict, "dict | None"], None]


def make_env(rep: Replay, render_mode: str | None = None):
    """The env of a replay, as recorded (``render_mode`` added). A mission file is the one
    the header embeds (``mission_file``): the recorded path when it still holds that text,
    else the embedded text written to a temporary file (⚙ the replay records what was
    played, so a changed or missing file does not matter). A file without ``mission_file``
    (written before it existed) names its mission by path: a relative one is looked up from
    the working directory, then from the replay's folder.

    Raises:
        DataError: the header's env arguments are not the env's, or its mission file is
            missing (names line 1).
    """
    from ambush_env.core.model.errors import AmbushError
    from ambush_env.env.ambush_env import AmbushEnv

    kw = rep.env_arguments()
    with tempfile.TemporaryDirectory(prefix="ambush-replay-") as tmp:
        if not rep.legacy or is_mission_path(kw.get("mission")):
            kw["mission"] = _mission_to_play(rep, kw.get("mission"), Path(tmp))
        try:
            return AmbushEnv(**kw, render_mode=render_mode)  # reads the mission file now
        except (TypeError, ValueError) as e:
            raise DataError(rep.path, "line 1", f"env: {e}") from None
        except AmbushError as e:
            if rep.legacy:
                raise
            raise DataError(rep.path, "line 1", f"env: {e}") from None


def _mission_to_play(rep: Replay, mission: Any, tmp: Path) -> Any:
    """The ``mission`` argument that rebuilds the replay's env (see :func:`make_env`)."""
    mf = rep.header.get("mission_file")
    if mf:
        p = Path(mf["path"])
        try:
            if p.read_text(encoding="utf-8") == mf["yaml"]:
                return str(p)
        except (OSError, UnicodeDecodeError):
            pass
        copy = tmp / p.name  # the file's own name: a mission's id is its file's stem
        write_text_atomic(mf["yaml"], copy, what="mission file")
        return str(copy)
    if not is_mission_path(mission) or Path(mission).exists():
        return mission
    here = Path(rep.path).resolve().parent / mission
    if not Path(mission).is_absolute() and here.exists():
        return str(here)
    where = "line 1" if not rep.legacy else "mission"
    raise DataError(
        rep.path,
        where,
        f"env.mission: the mission file {mission!r} is not found "
        "(looked in the working directory and the replay's folder; the replay "
        "does not embed it)",
    )


def simulate(
    rep: Replay, *, on_step: StepHook | None = None, env: Any = None, render_mode: str | None = None
) -> Simulated:
    """Play a replay again and check it against what it recorded.

    Args:
        rep: a loaded replay.
        on_step: called as ``on_step(k, env, info, recorded)`` after the reset (``k=0``,
            ``recorded`` the header) and after each step ``k`` (its recorded line; for a
            legacy file ``{"step", "action", "order"}``, the order's text read before the
            step), before the comparison of that step.
        env: the env to play on (default: :func:`make_env`).
        render_mode: of the env made here.

    Returns:
        :class:`Simulated`.

    Raises:
        ReplayMismatch: the first difference (start position, the header's mission, rules,
            opponent and mission seed, order text, unit, side, legality, events, rolls,
            reward, VP, end flags, the end line's over, result, VP, end reason, stats and
            digest), naming the step and the file's line.
        IllegalActionError: a legacy file's order that is not legal (as ``ambush replay``
            always did).
    """
    env = env if env is not None else make_env(rep, render_mode)
    h = rep.header
    seed = h.get("seed")
    options = h.get("options") or None
    _obs, info = env.reset(seed=seed, options=options)
    game = env.unwrapped.game
    if on_step is not None:
        on_step(0, env, info, h)
    if not rep.legacy:
        now_pos, rec_pos = _jsonable(game.position()), dict(h["position"])
        if is_mission_path(h["env"].get("mission")) and isinstance(rec_pos.get("mission"), str):
            # a mission file's path depends on where it was played from and replayed; its
            # text is what counts, and make_env plays the embedded one
            now_pos["mission"] = rec_pos["mission"]
        if now_pos != rec_pos:
            raise ReplayMismatch(
                rep.path,
                1,
                0,
                "the start position after reset(seed="
                f"{seed}) is not the recorded one ({_first_diff(rec_pos, now_pos)})",
            )
        for key, now in (
            ("mission", env.unwrapped.mission_id),
            ("rules", game.rules),
            ("opponent", game.opponent),
            ("mission_seed", info.get("mission_seed")),
        ):
            if h.get(key) != now:
                raise ReplayMismatch(
                    rep.path,
                    1,
                    0,
                    f"header: {key} is {now!r} in the env "
                    f"the header's env arguments make, the header says "
                    f"{h.get(key)!r}",
                )
        _compare(rep.path, 1, 0, "setup events", h["events"], _jsonable(info["events"]))
        _compare(rep.path, 1, 0, "setup rolls", h["rolls"], [list(r) for r in game.dice.log])
    done = False
    k = 0
    for k, rec in enumerate(rep.steps, start=1):
        line = rep.lines[k - 1]
        if done and rep.legacy:
            break  # as ``ambush replay`` always did: orders after the end are not played
        if done:
            raise ReplayMismatch(
                rep.path,
                line,
                k,
                "the episode ended at the step before: this step was never played",
            )
        a = rec["action"]
        if rep.legacy:  # no recorded order texts: name them as they are played
            rec = {**rec, "order": env.unwrapped.describe_action(a)}
        else:
            text = env.unwrapped.describe_action(a)
            if text != rec["order"]:
                raise ReplayMismatch(
                    rep.path,
                    line,
                    k,
                    f"order #{a} reads {text!r} now, the replay recorded {rec['order']!r}",
                )
            for key, now in (("side", "US"), ("unit", _unit_of(env.unwrapped.game, a))):
                if rec[key] != now:  # ⚙ the agent always plays the US side
                    raise ReplayMismatch(
                        rep.path,
                        line,
                        k,
                        f"{key} of order #{a} ({text}) is "
                        f"{now!r} now, the replay recorded {rec[key]!r}",
                    )
            legal = a in env.unwrapped.legal_actions()
            if legal == rec["illegal"]:
                raise ReplayMismatch(
                    rep.path,
                    line,
                    k,
                    f"order #{a} ({text}) is "
                    f"{'legal' if legal else 'not legal'} now, the replay "
                    f"recorded it {'illegal' if rec['illegal'] else 'legal'}",
                )
        g = env.unwrapped.game
        n0 = len(g.dice.log)
        _obs, reward, term, trunc, info = env.step(a)
        if on_step is not None:
            on_step(k, env, info, rec)
        done = term or trunc
        if rep.legacy:
            continue
        _compare(rep.path, line, k, "events", rec["events"], _jsonable(info["events"]))
        _compare(rep.path, line, k, "rolls", rec["rolls"], [list(r) for r in g.dice.log[n0:]])
        for key, now in (
            ("reward", float(reward)),
            ("vp", int(info["vp"])),
            ("terminated", bool(term)),
            ("truncated", bool(trunc)),
        ):
            if rec[key] != now:
                raise ReplayMismatch(
                    rep.path, line, k, f"{key} is {now!r} now, the replay recorded {rec[key]!r}"
                )
    if rep.legacy:
        return Simulated(k, info, False, env)
    end = rep.end or {}
    end_line = (rep.lines[-1] + 1) if rep.lines else 2
    game = env.unwrapped.game
    for key, now in (*_end_now(game, info).items(), ("digest", digest(rep.steps))):
        if end.get(key) != now:
            raise ReplayMismatch(
                rep.path,
                end_line,
                k,
                f"end line: {key} is {now!r} after "
                f"re-simulation, the replay recorded {end.get(key)!r}",
            )
    return Simulated(k, info, True, env)


def _compare(path: str, line: int, step: int, what: str, recorded: list, now: list) -> None:
    """Raise :class:`ReplayMismatch` at the first item where two lists differ."""
    if recorded == now:
        return
    for i, (r, n) in enumerate(zip(recorded, now, strict=False)):
        if r != n:
            raise ReplayMismatch(
                path,
                line,
                step,
                f"{what} differ at #{i + 1}: recorded {_short(r)}, re-simulated {_short(n)}",
            )
    raise ReplayMismatch(
        path, line, step, f"{what} differ: {len(recorded)} recorded, {len(now)} re-simulated"
    )


def _short(x: Any, n: int = 200) -> str:
    s = json.dumps(x)
    return s if len(s) <= n else s[:n] + "…"


def _first_diff(a: Any, b: Any, where: str = "") -> str:
    """The first key path where two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _first_diff(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_diff(x, y, f"{where}[{i}]")
    return f"first difference at {where or '<root>'}"


def replay_name(mission: str, opponent: str, seed: int, rules: str = "standard") -> str:
    """The file name of a benchmark episode's replay: ``<mission>__<opponent>__<seed>.jsonl``,
    ``__<rules>`` before the suffix when not ``standard`` (as result files name theirs)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in mission)
    tail = "" if rules == "standard" else f"__{rules}"
    return f"{safe}__{opponent}__{seed}{tail}{SUFFIX}"


class ViewerFrames:
    """Collects the HTML viewer's frames during a :func:`simulate` (pass :meth:`on_step`, or
    call it from a hook of your own), then writes the viewer (:meth:`write`): so a caller that
    also prints the replay simulates it once."""

    def __init__(self) -> None:
        from ambush_env.render import html as H

        self._H = H
        self.frames: list[dict[str, Any]] = []
        self.map: dict[str, Any] | None = None

    def on_step(self, k: int, env: Any, info: dict, rec: dict | None) -> None:
        """:data:`StepHook`: the map at the reset, one frame per state."""
        H = self._H
        game = env.unwrapped.game
        if k == 0:
            self.map = H.map_data(game)
            self.frames.append(H.frame(game, info["events"], 0))
        else:
            self.frames.append(
                H.frame(
                    game,
                    info["events"],
                    k,
                    order=(rec or {}).get("order"),
                    unit=(rec or {}).get("unit"),
                    illegal=bool(info.get("illegal_action")),
                )
            )

    def write(self, rep: Replay, sim: Simulated, out: str | Path) -> Path:
        """Write the viewer of the simulation ``sim`` of ``rep`` to ``out`` (atomically)."""
        assert self.map is not None, "on_step saw no reset: nothing to write"
        h = rep.header
        info = sim.info
        game = sim.env.unwrapped.game
        # the facts of the env that played (⚙ the agent is as the file records it: nothing checks it)
        meta = {
            "mission": sim.env.unwrapped.mission_id,
            "seed": h.get("seed"),
            "opponent": game.opponent,
            "rules": game.rules,
            "agent (as recorded)": h.get("agent") or "-",
            "steps": sim.steps,
            "result": info.get("result") or "(not over)",
            "VP": info["vp"],
            "verified": "identical events" if sim.verified else "legacy file (orders only)",
        }
        title = f"Ambush! replay: {meta['mission']}, seed {meta['seed']} ({Path(rep.path).name})"
        return self._H.write_viewer(out, title, self.map, self.frames, meta)


def write_html(rep: Replay, out: str | Path) -> tuple[Path, Simulated]:
    """Re-simulate ``rep`` (checking it, :func:`simulate`) and write the HTML viewer of what
    the engine did (:mod:`ambush_env.render.html`: one frame per step, the start included;
    :class:`ViewerFrames`).

    Returns:
        ``(the HTML file, the simulation)``.

    Raises:
        ReplayMismatch: as :func:`simulate` (no file is written).
    """
    frames = ViewerFrames()
    sim = simulate(rep, on_step=frames.on_step)
    return frames.write(rep, sim, out), sim
