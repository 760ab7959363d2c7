"""Malformed inputs of every public entry (issue 23, done-when 5; docs/OBSERVATION.md
"Errors"): hypothesis feeds

* malformed positions (``Game.from_position`` and ``reset(options={"position": p})``): one to
  three fields of a valid position broken — a value of the wrong type, a true/false for a
  number, a number out of its range (ratings, counts, ammunition, rolls), an unknown choice,
  hex label, unit name, item or key;
* env arguments (``AmbushEnv``, ``CampaignEnv``, ``ambush_env.aec_env``): a value of the wrong
  type or not among the known ones, an unknown keyword;
* reset options: not a dict, an unknown key, a bad seed, ``mission_seed``, ``whole_chain``,
  squad, a position of another mission or German mode;
* ``force_rolls`` values: a non-integer or out-of-range roll where it enters, and in-range
  rolls read by every die kind (refused exactly when outside that die's range);
* command-line arguments (``ambush_env.cli.main([...])``): bad numbers, choices, missions,
  decks, suites, agents, campaigns and squads;

and checks that each one raises the documented typed error naming the field or argument —
``DataError`` (its ``field``) for a position, ``ConfigError`` (its ``argument``) for an
argument or option, ``ScenarioError`` / ``DataError`` for an unknown or missing data id, an
exit status 2 with one ``error:`` line naming the option for the command line — and never a
``TypeError``, a bare ``ValueError``, a ``KeyError`` or a hang (each example runs under a
30 s alarm); none is silently accepted (every value drawn is wrong). The default run is
bounded (about 30 s in all); ``-m slow`` runs many more examples. ``database=None`` keeps
``.hypothesis/`` out of the checkout.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import signal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import ambush_env
from ambush_env.core import Game
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import (
    ConfigError,
    DataError,
    DiceExhaustedError,
    ScenarioError,
)
from ambush_env.env.ambush_env import AmbushEnv
from ambush_env.env.campaign_env import CampaignEnv

_SETTINGS: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
}
ALARM_S = 30  # a hang fails the example


@contextlib.contextmanager
def _no_hang():
    def boom(_sig, _frame):
        raise TimeoutError(f"an input took more than {ALARM_S} s (a hang)")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(ALARM_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _raises(call, kinds: tuple[type, ...]) -> Exception:
    """Run ``call``: it must raise exactly one of ``kinds`` (never a plain ValueError, a
    TypeError, a KeyError, …, never return)."""
    with _no_hang():
        try:
            got = call()
        except BaseException as e:
            assert type(e) in kinds, (
                f"{type(e).__name__} (wanted {[k.__name__ for k in kinds]}): {e}"
            )
            return e
    raise AssertionError(f"silently accepted (returned {got!r:.80})")


# ---------------------------------------------------------------- values that are always wrong
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12)
NON_NUMBER = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda x: x != x or abs(x) == float("inf") or not float(x).is_integer()
    ),
    WORD.filter(lambda t: not t.isdigit()),
    st.lists(st.integers(0, 9), max_size=2),
    st.dictionaries(WORD, st.integers(), max_size=1),
)
NON_STRING = st.one_of(
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(WORD, max_size=2),
    st.dictionaries(WORD, WORD, max_size=1),
)
NON_BOOL = st.one_of(
    st.integers().filter(lambda i: i not in (0, 1)),
    st.floats(allow_nan=False).filter(lambda x: x not in (0.0, 1.0)),
    st.sampled_from(["maybe", "sometimes", "2"]),
    st.lists(st.booleans(), max_size=2),
)
NON_LIST = st.one_of(st.integers(), st.booleans(), WORD, st.dictionaries(WORD, WORD, max_size=1))
BAD_HEX = st.one_of(
    st.sampled_from(["ZZ99", "A0", "A99", "", "Q", "5", "11A", "A-1", "Z1"]),
    st.integers(),
    st.lists(WORD, max_size=1),
)
BAD_NAME = st.one_of(st.sampled_from(["US99", "G99", "V9", "", "nobody"]), st.integers())


def _not_in(choices) -> st.SearchStrategy:
    return st.one_of(WORD.filter(lambda t: t not in choices), NON_STRING)


def _count(low: int = 0, nullable: bool = False) -> st.SearchStrategy:
    """An integer field of at least ``low``: a smaller one, or no integer at all."""
    bad = st.one_of(st.integers(max_value=low - 1), NON_NUMBER)
    return bad if nullable else st.one_of(bad, st.none())


def _outside(low: int, high: int) -> st.SearchStrategy:
    """A rating or count outside [low, high] (far outside: no rule reads it), or no number."""
    return st.one_of(st.integers(max_value=low - 10), st.integers(min_value=high + 10), NON_NUMBER)


# ---------------------------------------------------------------- positions
def _positions() -> dict[str, dict]:
    farm = {
        "mission": "farm_assault",
        "phase": "rounds",
        "round": 1,
        "initiative": "us",
        "units": [
            {"name": "US1", "hex": "O5"},
            {"name": "US2", "hex": "O6"},
            {"name": "G1", "role": "rifleman", "hex": "P5", "ar": "1-turn"},
        ],
    }
    return {
        "farm": farm,
        "tank_hunt": Game("tank_hunt", seed=3).position(),
        "jeep_run": Game("jeep_run", seed=4).position(),
    }


BASES = _positions()

#: (path, strategy of wrong values); ``k`` in a path is a unit or vehicle index drawn
FIELDS: list[tuple[str, st.SearchStrategy]] = [
    (
        "mission",
        st.one_of(
            NON_STRING.filter(lambda v: not isinstance(v, dict)),
            WORD.filter(lambda t: t not in ambush_env.list_missions()),
            st.just({}),
            st.just({"id": "x"}),
        ),
    ),
    ("rules", _not_in(("standard", "d100"))),
    (
        "deck",
        st.one_of(WORD.filter(lambda t: t not in ("green", "regular", "veteran")), NON_STRING),
    ),
    ("german", _not_in(("cards", "agent"))),
    ("phase", _not_in(("operations", "rounds", "over"))),
    ("round", _count()),
    ("rounds_total", _count()),
    ("pulse", _count()),
    ("initiative", _not_in(("us", "german"))),
    (
        "rolls",
        st.one_of(
            st.fixed_dictionaries({"us": _outside(0, 9)}),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
            st.just({"nobody": 3}),
        ),
    ),
    ("vp", NON_NUMBER),
    ("next_german", _count(1, nullable=True)),
    ("units", st.one_of(st.just([]), NON_LIST, st.just([{}]), st.just([{"hex": "A1"}]))),
    ("units.k.name", st.one_of(st.just(""), NON_STRING, st.just("XX9"))),
    ("units.k.side", _not_in(("us", "german"))),
    ("units.k.hex", BAD_HEX),
    ("units.k.stance", _not_in(("standing", "crouching", "prone"))),
    (
        "units.k.status",
        _not_in(
            (
                "active",
                "incapacitated",
                "killed",
                "captured",
                "removed",
                "hidden",
                "wounded",
                "panicked",
            )
        ),
    ),
    ("units.k.ar", _not_in(("none", "2-turn", "1-turn", "complete", "panic", "inactive"))),
    ("units.k.aware", NON_BOOL),
    ("units.k.jammed", NON_BOOL),
    ("units.k.IN", _outside(0, 9)),
    ("units.k.PC", _outside(0, 9)),
    ("units.k.WS", _outside(-2, 3)),
    ("units.k.DS", _outside(0, 9)),
    ("units.k.MV", _outside(0, 9)),
    ("units.k.CR", _outside(0, 3)),
    ("units.k.ammo", _outside(-1, 60)),
    ("units.k.port_boxes", _outside(0, 6)),
    (
        "units.k.weapon",
        st.one_of(
            st.sampled_from(["laser", "ray_gun"]),
            NON_STRING.filter(lambda v: not isinstance(v, bool)),
        ),
    ),
    (
        "units.k.equipment",
        st.one_of(
            st.just(["no_such_item"]),
            NON_LIST.filter(lambda v: not isinstance(v, (dict,))),
            st.just([3]),
        ),
    ),
    ("units.k.guard", BAD_NAME),
    ("units.k.vehicle", BAD_NAME),
    (
        "units.k.route",
        st.one_of(st.lists(BAD_HEX.filter(lambda v: v != ""), min_size=1, max_size=2), NON_LIST),
    ),
    ("units.k.slot", st.one_of(st.integers(min_value=12), st.integers(max_value=-2), NON_NUMBER)),
    ("units.k.bogus_key", st.integers()),
    ("contacts", st.one_of(st.lists(BAD_NAME, min_size=1, max_size=2), NON_LIST)),
    (
        "items",
        st.one_of(
            st.just({"ZZ99": ["grenade"]}),
            st.just({"A1": ["no_such_item"]}),
            st.just({"A1": ["weapon:laser:3"]}),
            st.just({"A1": ["weapon:kar98:99"]}),
            st.just({"A1": "grenade"}),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
        ),
    ),
    (
        "vehicles",
        st.one_of(
            st.just([{"name": "V1"}]),
            st.just([{"name": "V1", "type": "ufo", "side": "us"}]),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
        ),
    ),
    (
        "board",
        st.one_of(
            st.just({"collapsed": ["ZZ99"]}),
            st.just({"destroyed_walls": ["ZZ99"]}),
            st.just({"rubble": []}),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
        ),
    ),
    (
        "minefields",
        st.one_of(
            st.just([{"hex": "ZZ99"}]), st.just([{"hex": "A1", "kind": "nuclear"}]), NON_LIST
        ),
    ),
    (
        "turn",
        st.one_of(
            st.just({"unit": "US99"}),
            st.just({"mode": "fly"}),
            st.just({"mp_spent": -1}),
            st.just({"snaps": 99}),
            st.just({"mp_left": -5}),
            st.just({"bogus": 1}),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
        ),
    ),
    (
        "rng",
        st.one_of(
            st.just({}),
            st.just({"bit_generator": 3}),
            NON_LIST.filter(lambda v: not isinstance(v, dict)),
        ),
    ),
    ("seed", _count(0, nullable=True)),
    (
        "dice",
        st.one_of(
            st.lists(st.one_of(_outside(0, 100), st.booleans()), min_size=1, max_size=3), NON_LIST
        ),
    ),
    ("steps", _count()),
    ("command_until", _count()),
    ("result", _not_in(("loss", "draw", "win", "decisive_win"))),
    ("over", NON_BOOL),
    ("format", WORD),
    ("procedural", _count(0, nullable=True)),
    ("map", st.one_of(st.integers(), st.just("no_such_map"), st.just({}), st.just({"name": "m"}))),
    ("bogus_key", st.integers()),
]


def _put(p: dict, path: str, value: Any) -> dict:
    cur: Any = p
    keys = path.split(".")
    for key in keys[:-1]:
        cur = cur[int(key)] if isinstance(cur, list) else cur[key]
    last = keys[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value
    return p


@st.composite
def malformed_positions(draw) -> tuple[dict, list[str]]:
    """A base position with one to three of its fields broken; returns it and the paths."""
    name = draw(st.sampled_from(sorted(BASES)), label="base")
    p = copy.deepcopy(BASES[name])
    paths: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        path, bad = draw(st.sampled_from(FIELDS))
        if ".k." in path:
            if (
                not isinstance(p.get("units"), list)
                or not p["units"]
                or not all(isinstance(u, dict) for u in p["units"])
            ):
                continue
            path = path.replace(".k.", f".{draw(st.integers(0, len(p['units']) - 1))}.")
        elif path.split(".")[0] in {q.split(".")[0] for q in paths}:
            continue  # one break per field
        value = draw(bad, label=path)
        _put(p, path, value)
        paths.append(path)
    note(f"base {name}, broken: {[(q, p_get(p, q)) for q in paths]}")
    return p, paths


def p_get(p: dict, path: str) -> Any:
    """The value at ``path`` (for the note; ``<gone>`` when a later break removed it)."""
    cur: Any = p
    try:
        for key in path.split("."):
            cur = cur[int(key)] if isinstance(cur, list) else cur.get(key)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return "<gone>"
    return cur


def _names_a_broken_field(e: DataError, paths: list[str]) -> bool:
    """The error's field is one of the broken fields (its top-level key; a unit's index too)."""
    got = e.field.split(".")
    for path in paths:
        want = path.split(".")
        if got[0] == want[0] and (
            want[0] != "units" or len(got) == 1 or len(want) < 2 or got[1] == want[1]
        ):
            return True
    # a field that rests on a broken one: a renamed unit's side, the units' count
    return got[0] == "units" and any(q.startswith("units") for q in paths)


def _check_position(data: Any, env: AmbushEnv | None) -> None:
    p, paths = data.draw(malformed_positions())
    if not paths:
        return
    e = _raises(lambda: Game.from_position(p), (DataError,))
    assert e.path == "<position>" and e.field, str(e)
    assert _names_a_broken_field(e, paths), f"{e.field!r} is none of {paths}: {e}"
    if env is not None and "german" not in paths and "mission" not in paths:
        e2 = _raises(lambda: env.reset(options={"position": p}), (DataError,))
        assert e2.field == e.field


@pytest.fixture(scope="module")
def any_env() -> AmbushEnv:
    return AmbushEnv()


def test_malformed_positions_are_data_errors_naming_the_field(any_env):
    @settings(max_examples=150, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_position(data, any_env if data.draw(st.booleans(), label="via env") else None)

    prop()


@pytest.mark.slow
def test_malformed_positions_are_data_errors_naming_the_field_slow(any_env):
    @settings(max_examples=3000, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_position(data, any_env if data.draw(st.booleans()) else None)

    prop()


# ---------------------------------------------------------------- env arguments
def _choice(*known: Any) -> st.SearchStrategy:
    return _not_in(tuple(k for k in known if k is not None))


ENV_ARGS: dict[str, dict[str, st.SearchStrategy]] = {
    "AmbushEnv": {
        "rules": _choice("standard", "d100"),
        "reward": _choice("default", "sparse", "shaped", "progress"),
        "render_mode": st.one_of(
            WORD.filter(lambda t: t not in ("ansi", "rgb_array", "human")), NON_STRING
        ),
        "illegal_action": _choice("penalize", "raise"),
        "max_steps": st.one_of(st.integers(max_value=0), NON_NUMBER),
        "procedural": st.one_of(NON_BOOL, WORD, st.none()),
        "mission_seeds": _choice("train", "held_out"),
        "mission": NON_STRING.filter(lambda v: not isinstance(v, (str,))),
        "opponent": st.one_of(NON_STRING, st.none()),
    },
    "CampaignEnv": {
        "whole_chain": st.one_of(NON_BOOL, WORD, st.none()),
        "campaign": st.one_of(NON_STRING, st.none()),
        "squad": NON_STRING,
        "max_steps": st.one_of(st.integers(max_value=0), NON_NUMBER),
        "illegal_action": _choice("penalize", "raise"),
        "reward": _choice("default", "sparse", "shaped", "progress"),
    },
    "aec_env": {
        "german": _choice("agent", "cards"),
        "max_steps": st.one_of(st.integers(max_value=0), NON_NUMBER),
        "render_mode": st.one_of(WORD.filter(lambda t: t != "ansi"), NON_STRING),
        "rules": _choice("standard", "d100"),
        "reward": _choice("default", "sparse", "shaped", "progress"),
        "mission": NON_STRING.filter(lambda v: not isinstance(v, str)),
        "opponent": st.one_of(NON_STRING, st.none()),
    },
}
#: unknown data ids: (argument, the ids it knows); a ScenarioError naming the id
DATA_IDS = {
    "AmbushEnv": [
        ("mission", ambush_env.list_missions()),
        ("opponent", ["green", "regular", "veteran"]),
    ],
    "CampaignEnv": [
        ("campaign", ["first_push"]),
        (
            "squad",
            [
                "assault_engineers",
                "jeep_team",
                "standard",
                "tank_hunters",
                "tank_hunters_d100",
                "random",
            ],
        ),
    ],
    "aec_env": [
        ("mission", ambush_env.list_missions()),
        ("opponent", ["green", "regular", "veteran"]),
    ],
}


def _maker(kind: str):
    if kind == "AmbushEnv":
        return AmbushEnv
    if kind == "CampaignEnv":
        return CampaignEnv
    pytest.importorskip("pettingzoo")
    return ambush_env.aec_env


def _check_env_argument(data: Any) -> None:
    kind = data.draw(st.sampled_from(sorted(ENV_ARGS)), label="env")
    make = _maker(kind)
    how = data.draw(st.sampled_from(["value", "id", "keyword"]), label="how")
    if how == "value":
        arg = data.draw(st.sampled_from(sorted(ENV_ARGS[kind])), label="argument")
        value = data.draw(ENV_ARGS[kind][arg], label="value")
        e = _raises(lambda: make(**{arg: value}), (ConfigError,))
        assert e.argument == arg, str(e)
    elif how == "id":
        arg, known = data.draw(st.sampled_from(DATA_IDS[kind]), label="argument")
        value = data.draw(WORD.filter(lambda t: t not in known), label="value")
        e = _raises(lambda: make(**{arg: value}), (ScenarioError,))
        assert repr(value) in str(e) and ("known" in str(e)), str(e)
    else:
        arg = data.draw(
            WORD.filter(
                lambda t: (
                    t not in ENV_ARGS[kind]
                    and t not in ("mission", "opponent", "campaign", "squad")
                )
            ),
            label="keyword",
        )
        e = _raises(lambda: make(**{arg: 1}), (ConfigError,))
        assert e.argument == arg, str(e)


def test_bad_env_arguments_raise_config_errors_naming_them():
    @settings(max_examples=120, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_env_argument(data)

    prop()


# ---------------------------------------------------------------- reset options
@pytest.fixture(scope="module")
def envs() -> dict[str, Any]:
    out: dict[str, Any] = {
        "farm": AmbushEnv(mission="farm_assault"),
        "procedural": AmbushEnv(procedural=True),
        "campaign": CampaignEnv(),
    }
    with contextlib.suppress(ImportError):  # no PettingZoo: the AEC env is left out
        out["aec"] = ambush_env.aec_env(mission="farm_assault")
    return out


OTHER_MISSION = Game("tank_hunt", seed=1).position()
AGENT_GERMANS = Game("farm_assault", seed=1, german="agent").position()
KNOWN_OPTIONS = {
    "farm": ("position",),
    "procedural": ("position", "mission_seed"),
    "campaign": ("squad", "whole_chain"),
    "aec": (),
}


def _check_reset(data: Any, envs: dict[str, Any]) -> None:
    name = data.draw(st.sampled_from(sorted(envs)), label="env")
    env = envs[name]
    reset = env.reset
    case = data.draw(
        st.sampled_from(
            [
                "seed",
                "options",
                "key",
                "mission_seed",
                "whole_chain",
                "squad",
                "other_mission",
                "agent_germans",
            ]
        ),
        label="case",
    )
    if case == "seed":
        seed = data.draw(st.one_of(st.integers(max_value=-1), NON_NUMBER), label="seed")
        e = _raises(lambda: reset(seed=seed), (ConfigError,))
        assert e.argument == "seed"
    elif case == "options":
        options = data.draw(
            st.one_of(st.integers(), WORD, st.lists(WORD, max_size=2)), label="options"
        )
        e = _raises(lambda: reset(options=options), (ConfigError,))
        assert e.argument == "options"
    elif case == "key" and name != "aec":  # PettingZoo's api_test passes an option of its own
        key = data.draw(WORD.filter(lambda t: t not in KNOWN_OPTIONS[name] + ("position",)))
        e = _raises(lambda: reset(options={key: 1}), (ConfigError,))
        assert e.argument == f"options[{key!r}]"
    elif case == "mission_seed" and name == "procedural":
        k = data.draw(st.one_of(st.integers(max_value=-1), NON_NUMBER), label="mission_seed")
        e = _raises(lambda: reset(options={"mission_seed": k}), (ConfigError,))
        assert e.argument == "options['mission_seed']"
    elif case == "whole_chain" and name == "campaign":
        v = data.draw(st.one_of(NON_BOOL, WORD, st.none()), label="whole_chain")
        e = _raises(lambda: reset(options={"whole_chain": v}), (ConfigError,))
        assert e.argument == "options['whole_chain']"
    elif case == "squad" and name == "campaign":
        v = data.draw(
            st.one_of(
                st.integers(),
                st.just({"campaign": "first_push"}),
                st.just([]),
                WORD.map(lambda t: f"no_such_dir/{t}.yaml"),
            ),
            label="squad",
        )
        e = _raises(lambda: reset(options={"squad": v}), (DataError,))
        assert e.field
    elif case == "other_mission" and name in ("farm", "procedural", "aec"):
        p = OTHER_MISSION if name != "aec" else Game("tank_hunt", seed=1, german="agent").position()
        e = _raises(lambda: reset(options={"position": p}), (ConfigError,))
        assert e.argument == "options['position'].mission"
    elif case == "agent_germans" and name in ("farm", "aec"):
        p = AGENT_GERMANS if name == "farm" else Game("farm_assault", seed=1).position()
        e = _raises(lambda: reset(options={"position": p}), (ConfigError,))
        assert e.argument == "options['position'].german"


def test_bad_reset_options_raise_typed_errors_naming_them(envs):
    @settings(max_examples=80, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_reset(data, envs)

    prop()


# ---------------------------------------------------------------- forced rolls
BAD_ROLL = st.one_of(
    st.booleans(),
    st.integers(max_value=-1),
    st.integers(min_value=101),
    st.floats(allow_nan=True),
    WORD,
    st.none(),
    st.lists(st.integers(0, 9), max_size=2),
)
DIE = {
    "d10": (lambda d: d.d10("a d10"), 0, 9),
    "d100": (lambda d: d.d100("a d100"), 1, 100),
    "d6": (lambda d: d.roll(1, 6, "a d6"), 1, 6),
    "d3": (lambda d: d.roll(1, 3, "a d3"), 1, 3),
    "choice of 4": (lambda d: d.choice(4, "one of 4"), 0, 3),
}


_GAME: dict[str, Game] = {}  # one game for force_rolls (built on first use)


def _check_rolls(data: Any) -> None:
    if data.draw(st.booleans(), label="where it enters"):
        good = data.draw(st.lists(st.integers(0, 100), max_size=3), label="good")
        bad = data.draw(BAD_ROLL, label="bad")
        rolls = good + [bad] + data.draw(st.lists(st.integers(0, 100), max_size=2))
        if not _GAME:
            _GAME["g"] = Game("farm_assault", seed=0)
        g = _GAME["g"]
        e = _raises(lambda: g.force_rolls(rolls), (ConfigError,))
        assert e.argument == f"rolls[{len(good)}]", str(e)
        e = _raises(lambda: Dice().force(rolls), (ConfigError,))
        assert e.argument == f"rolls[{len(good)}]"
        return
    die = data.draw(st.sampled_from(sorted(DIE)), label="die")
    read, low, high = DIE[die]
    r = data.draw(st.integers(0, 100), label="roll")
    d = Dice.scripted([r])
    if low <= r <= high:
        assert read(d) == r
    else:
        e = _raises(lambda: read(d), (DiceExhaustedError,))
        assert f" {r} for " in str(e) and f"{low}-{high}" in str(e)


def test_forced_rolls_are_checked_where_they_enter_and_by_every_die():
    @settings(max_examples=150, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_rolls(data)

    prop()


# ---------------------------------------------------------------- the command line
NOT_AN_INT = st.one_of(
    WORD.filter(lambda t: not t.isdigit()),
    st.floats(allow_nan=False).map(lambda x: f"{x:.2f}"),
    st.integers(max_value=-1).map(str),
)


def _below(n: int) -> st.SearchStrategy:
    return st.one_of(NOT_AN_INT, st.integers(max_value=n - 1).map(str))


#: (argv before the value, the option named, bad values); ``{tmp}`` is a scratch folder
CLI: list[tuple[list[str], str, st.SearchStrategy]] = [
    (["speed", "--steps"], "--steps", _below(1)),
    (["speed", "--repeats"], "--repeats", _below(1)),
    (["speed", "--seed"], "--seed", _below(0)),
    (["speed", "--rules"], "--rules", WORD.filter(lambda t: t not in ("standard", "d100"))),
    (
        ["speed", "--mission"],
        "--mission",
        WORD.filter(lambda t: t not in ambush_env.list_missions()),
    ),
    (
        ["speed", "--opponent"],
        "--opponent",
        WORD.filter(lambda t: t not in ("green", "regular", "veteran")),
    ),
    (["play", "--seed"], "--seed", _below(0)),
    (
        ["play", "--mission"],
        "--mission",
        WORD.filter(lambda t: t not in ambush_env.list_missions()),
    ),
    (
        ["play", "--opponent"],
        "--opponent",
        WORD.filter(lambda t: t not in ("green", "regular", "veteran")),
    ),
    (
        ["render", "--mission"],
        "--mission",
        WORD.filter(lambda t: t not in ambush_env.list_missions()),
    ),
    (["bench", "--agent", "random", "--episodes"], "--episodes", _below(1)),
    (["bench", "--agent", "random", "--workers"], "--workers", _below(1)),
    (
        ["bench", "--agent", "random", "--backend"],
        "--backend",
        WORD.filter(lambda t: t not in ("local", "ray")),
    ),
    (
        ["bench", "--agent", "random", "--suite"],
        "--suite",
        WORD.filter(
            lambda t: t not in ("baseline", "smoke", "standard", "vehicles", "vehicles_d100")
        ),
    ),
    (
        ["bench", "--agent"],
        "--agent",
        WORD.filter(lambda t: t not in ("random", "do_nothing", "heuristic")),
    ),
    (["train", "--config", "{tmp}/none.yaml", "--total-timesteps"], "--total-timesteps", _below(1)),
    (
        ["campaign", "--squad-file", "{tmp}/sq.yaml", "--campaign"],
        "--campaign",
        WORD.filter(lambda t: t != "first_push"),
    ),
    (
        ["campaign", "--squad-file", "{tmp}/sq.yaml", "--campaign", "first_push", "--squad"],
        "--squad",
        WORD.filter(
            lambda t: (
                t
                not in (
                    "assault_engineers",
                    "jeep_team",
                    "standard",
                    "tank_hunters",
                    "tank_hunters_d100",
                    "random",
                )
            )
        ),
    ),
    (
        ["campaign", "--squad-file", "{tmp}/sq.yaml", "--campaign", "first_push", "--agent"],
        "--agent",
        WORD.filter(lambda t: t not in ("random", "do_nothing", "heuristic")),
    ),
    (["campaign", "--squad-file", "{tmp}/sq.yaml", "--seed"], "--seed", _below(0)),
    (["los", "farm_assault", "A1", "B2", "--sight-cap"], "--sight-cap", _below(1)),
    (
        ["los", "farm_assault", "A1", "B2", "--vehicles", "none"],
        "--vehicles",
        WORD.filter(lambda t: t not in ("none", "small", "large")),
    ),
    (
        ["los", "farm_assault", "A1", "B2", "--stances", "prone"],
        "--stances",
        WORD.filter(lambda t: t not in ("standing", "crouching", "prone")),
    ),
]


def _check_cli(data: Any, tmp: str) -> None:
    from ambush_env.cli import main

    before, option, bad = data.draw(st.sampled_from(CLI), label="option")
    value = data.draw(bad, label="value")
    argv = [a.replace("{tmp}", tmp) for a in before] + [value]
    note(f"argv {argv}")
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), _no_hang():
        try:
            status = main(argv)
        except SystemExit as e:  # argparse's refusal
            status = e.code
    text = err.getvalue()
    assert status == 2, f"exit status {status} for {argv}: {text}"
    assert "Traceback" not in text and text.count("\n") == 1, text
    assert " error: " in text and option in text, f"the option {option} is not named: {text}"


def test_bad_command_line_arguments_exit_2_with_one_line_naming_the_option(tmp_path):
    @settings(max_examples=120, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check_cli(data, str(tmp_path))

    prop()


def test_the_check_itself_sees_a_silent_acceptance_and_an_untyped_error():
    """The property's checker fails on what it must catch: a call that returns, a bare
    ValueError, a TypeError, a KeyError (so a test that cannot fail is not what runs)."""
    for call in (lambda: 3, lambda: int("x"), lambda: None + 1, lambda: {}["k"]):
        with pytest.raises(AssertionError):
            _raises(call, (ConfigError, DataError))
    assert re.search(
        "x", str(_raises(lambda: (_ for _ in ()).throw(ConfigError("x", "y")), (ConfigError,)))
    )


def test_a_position_whose_forced_roll_misfits_the_die_read_at_loading_names_dice():
    """Loading advances to the first decision; a ``dice`` roll read then by a die it does not
    fit (a 10 for a d10) was a DiceExhaustedError out of ``from_position``; it is a DataError
    naming ``dice`` like every other bad field of a position. The same roll in range loads."""
    p = copy.deepcopy(BASES["farm"])
    e = _raises(lambda: Game.from_position(dict(p, dice=[10])), (DataError,))
    assert e.field == "dice" and "outside 0-9" in e.problem
    assert Game.from_position(dict(p, dice=[9])).dice.forced_left == 0
