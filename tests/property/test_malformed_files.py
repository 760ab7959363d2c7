"""Malformed data files (issue 13, done-when 7): a mission, map, card deck, squad, campaign
or number file that hypothesis has broken raises :class:`~ambush_env.core.model.errors.DataError`
naming that file and a field, never another exception ("a bad file fails with its path and
the offending field").

Each example starts from a shipped file (every shipped mission, map, deck and squad), parses
it, applies one to three random mutations to the YAML tree and writes it to a temporary folder
under its own stem (the ``id`` must equal the stem). The mutations:

* generic: delete a key or a list entry, replace any value with a value of another type
  (``None``, ``-1``, ``10**9``, ``""``, ``"zz99"``, a list, a dict, ...), add an unknown key,
  duplicate a list entry, replace the whole file;
* missions: a paragraph, card, deck, squad, map or vehicle reference that does not exist; a
  hex off the map (``Z99``, ``A0``, one column or row past the edge) or malformed; an exit
  hex inside the map; a paragraph that goes to itself, two that go to each other, a longer
  cycle; a flag tested but never set; a branching effect that is not a paragraph's last;
  overlapping, missing or invalid d10 ranges in the event table; a paragraph number given
  twice (``10`` and ``"10"``); vehicles on the wrong side, on a hex they cannot stand on,
  with crews that cannot be; the mission language few shipped missions use, good or broken:
  map ``booby_traps``, ``rules.event_every_pulses`` / ``event_every_rounds``, ``landmark``,
  ``strike``, ``command`` and ``minefield`` effects, objective kinds;
* maps: hexes and hexsides off the map or malformed, hexsides of non-adjacent hexes or given
  twice, a smaller map, unknown terrain, levels and rises out of range;
* decks: overlapping, missing or invalid d10 ranges in a card's columns, duplicate card ids,
  unknown weapons, items and actions, bad action arguments, too many items;
* squads: names out of order, no or two sergeants, command radius against the role, unknown
  weapons and items, too many soldiers or items;
* campaign chains (``data/campaigns/*.yaml``): unknown missions, decks and squads, an empty
  chain, a bad rules id; the number files ``data/campaign.yaml``, ``data/squad_points.yaml``
  and ``data/procedural.yaml`` (kind ``rules_file``): numbers out of range or of the wrong
  type, broken ``[low, high]`` ranges. A chain that loads starts a campaign; a number file
  that loads is used (a squad carried through two missions, squads generated, a procedural
  mission generated).

The property: loading either succeeds (a mutation may be harmless) or raises ``DataError``
whose ``path`` is the file and whose ``field`` is non-empty. When a mission loads, a
:class:`~ambush_env.core.play.game.Game` of it is built and plays a few random orders: that works
or raises ``DataError`` / ``ScenarioError``. The default run is small (about 30 s for the
file); the ``slow`` variants run many more examples (``pytest -m slow``). A failure prints
the mutations (``note``) and a ``@reproduce_failure`` blob; ``database=None`` keeps
``.hypothesis/`` out of the checkout.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.play.campaign import load_chain
from ambush_env.core.world.board import load_board
from ambush_env.core.world.cards import load_deck
from ambush_env.core.world.data import DATA_DIR, config_dir
from ambush_env.core.world.hexgrid import make_label, parse_label
from ambush_env.core.world.missions import load_mission
from ambush_env.core.world.squads import load_squad

MISSIONS = sorted((DATA_DIR / "missions").glob("*.yaml"))
MAPS = sorted((DATA_DIR / "maps").glob("*.yaml"))
DECKS = sorted((DATA_DIR / "cards").glob("*.yaml"))
SQUADS = sorted(config_dir("squads").glob("*.yaml"))
CHAINS = sorted((DATA_DIR / "campaigns").glob("*.yaml"))
RULE_FILES = {
    name: DATA_DIR / f"{name}.yaml" for name in ("campaign", "squad_points", "procedural")
}
"""The one-of-a-kind number files: the campaign rules, the squad generator's prices, the
procedural generator's ranges."""

Raw = Any
Path_ = tuple[Any, ...]


def _raw(path: Path) -> Raw:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


_RAW_CACHE: dict[Path, Raw] = {}


def _base(path: Path) -> Raw:
    if path not in _RAW_CACHE:
        _RAW_CACHE[path] = _raw(path)
    return copy.deepcopy(_RAW_CACHE[path])


# ------------------------------------------------------------------------------ tree helpers
def _paths(node: Raw, prefix: Path_ = ()) -> list[Path_]:
    """Every path into the tree (the root ``()`` included)."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _get(node: Raw, path: Path_) -> Raw:
    for k in path:
        node = node[k]
    return node


def _set(root: Raw, path: Path_, value: Raw) -> Raw:
    """Set the node at ``path`` (the root when empty) and return the new root."""
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def _delete(root: Raw, path: Path_) -> None:
    parent = _get(root, path[:-1])
    del parent[path[-1]]


OTHER_VALUES = [
    None,
    -1,
    0,
    10**9,
    -(10**9),
    "",
    "zz99",
    "Z99",
    "EVENT",
    True,
    1.5,
    [],
    [1, "x"],
    [None],
    {},
    {"zz": 1},
    {"rolls": [0, 9]},
]
"""Values of another type (and awkward values of the same type) to put anywhere."""

BAD_HEXES = ["Z99", "A0", "A99", "AZ1", "ZZZ999", "a1", "1A", "", "A", "R0", "A-1", " A1"]
"""Hex labels off every shipped map, or malformed."""


class _Twice(list):
    """A mapping written with a key given twice (a list of its ``(key, value)`` pairs)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(
    _Twice, lambda d, pairs: d.represent_mapping("tag:yaml.org,2002:map", list(pairs))
)


def _dump(raw: Raw) -> str:
    return yaml.dump(raw, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


PLACEHOLDER = "zzplaceholderzz"
YAML_TEXTS = [
    "[" * 600 + "]" * 600,
    "{a: " * 600 + "1" + "}" * 600,
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!timestamp 2001-12-14",
    "2001-12-14",
    "!!python/object:os.system ls",
    "!!float nan",
    ".inf",
    "*nowhere",
    "!custom x",
    "[unclosed",
    "{a: 1",
    "'",
    "\t- tab",
    "&a [*a]",
    "0x1F",
    "0o17",
    "1_000",
    "~",
    "- a\n- b",
    "? [a, b]\n: 1",
    "\x00",
    "%",
]
"""YAML text put where a value was: deep nesting, tags, aliases, syntax errors."""


def _text(data: Any, raw: Raw) -> tuple[Raw, str | None, str]:
    """A mutation at the text level: a key given twice (the text ``None``), or raw YAML text
    for a value (put where :data:`PLACEHOLDER` is)."""
    paths = _paths(raw)
    dicts = [p for p in paths if isinstance(_get(raw, p), dict) and _get(raw, p)]
    if dicts and data.draw(st.booleans()):
        p = data.draw(st.sampled_from(dicts))
        d = _get(raw, p)
        key = data.draw(st.sampled_from(sorted(d, key=str)))
        value = data.draw(st.sampled_from([copy.deepcopy(d[key]), None, "other", 1]))
        pairs = list(d.items())
        pairs.insert(data.draw(st.integers(0, len(pairs))), (key, value))
        return _set(raw, p, _Twice(pairs)), None, f"{p}: key {key!r} twice"
    p = data.draw(st.sampled_from(paths))
    text = data.draw(st.sampled_from(YAML_TEXTS))
    return _set(raw, p, PLACEHOLDER), text, f"{p} = YAML {text[:30]!r}"


def _write(tmp: Path, src: Path, raw: Raw, text: str | None = None) -> Path:
    path = tmp / src.name
    out = _dump(raw)
    if text is not None:
        out = out.replace(PLACEHOLDER, text.encode().decode("unicode_escape"))
    path.write_text(out, encoding="utf-8")
    return path


# ------------------------------------------------------------------------ generic mutations
def _generic(draw: Callable, raw: Raw) -> tuple[Raw, str]:
    paths = _paths(raw)
    how = draw(
        st.sampled_from(["delete", "replace", "replace", "unknown_key", "dup_entry", "root"])
    )
    if how == "root":
        value = draw(st.sampled_from([None, [], [raw], "text", 7, {}]))
        return value, f"root = {value!r:.40}"
    if how == "delete":
        cands = [p for p in paths if p]
        if not cands:
            return raw, "nothing to delete"
        p = draw(st.sampled_from(cands))
        _delete(raw, p)
        return raw, f"delete {p}"
    if how == "replace":
        p = draw(st.sampled_from(paths))
        value = draw(
            st.sampled_from(OTHER_VALUES) | st.integers(-20, 20) | st.text("A1Z9_a .:-", max_size=6)
        )
        return _set(raw, p, copy.deepcopy(value)), f"{p} = {value!r}"
    if how == "unknown_key":
        dicts = [p for p in paths if isinstance(_get(raw, p), dict)]
        if not dicts:
            return raw, "no dict"
        p = draw(st.sampled_from(dicts))
        key = draw(st.sampled_from(["zz_unknown", "Id", "10", 99, "else_", "then "]))
        _get(raw, p)[key] = 1
        return raw, f"{p}[{key!r}] = 1"
    lists = [p for p in paths if isinstance(_get(raw, p), list) and _get(raw, p)]
    if not lists:
        return raw, "no list"
    p = draw(st.sampled_from(lists))
    lst = _get(raw, p)
    i = draw(st.integers(0, len(lst) - 1))
    lst.insert(draw(st.integers(0, len(lst))), copy.deepcopy(lst[i]))
    return raw, f"duplicate {p}.{i}"


# --------------------------------------------------------------------------- d10 range tables
def _d10(draw: Callable, rows: list, where: str) -> str:
    """Overlap, gap or invalid ranges in a list of ``{rolls: [lo, hi], ...}`` rows."""
    rows_ok = [i for i, r in enumerate(rows) if isinstance(r, dict) and "rolls" in r]
    if not rows_ok:
        return f"{where}: no rows"
    i = draw(st.sampled_from(rows_ok))
    rolls = rows[i]["rolls"]
    pair = (
        isinstance(rolls, list)
        and len(rolls) == 2
        and all(isinstance(r, int) and not isinstance(r, bool) for r in rolls)
    )
    how = draw(
        st.sampled_from(
            ["overlap", "gap", "drop", "invalid", "dup", "swap"]
            if pair
            else ["drop", "invalid", "dup"]
        )
    )
    if how == "overlap":
        lo, hi = rolls
        rows[i]["rolls"] = [max(lo - 1, 0), min(hi + 1, 9)] if (lo, hi) != (0, 9) else [0, 9]
        if len(rows) == 1:
            rows.append({**copy.deepcopy(rows[0]), "rolls": [3, 4]})
    elif how == "gap":
        lo, hi = rolls
        rows[i]["rolls"] = [lo + 1, hi] if lo < hi else [lo, hi]
        if lo == hi:
            del rows[i]
    elif how == "drop":
        del rows[i]
    elif how == "invalid":
        rows[i]["rolls"] = draw(
            st.sampled_from(
                [
                    [5, 3],
                    [0, 10],
                    [-1, 0],
                    [0],
                    [0, 1, 2],
                    ["a", 1],
                    [0.5, 9],
                    None,
                    4,
                    "0-9",
                    [10, 12],
                    [True, 9],
                ]
            )
        )
    elif how == "dup":
        rows.insert(i, copy.deepcopy(rows[i]))
    elif len(rows) > 1:
        j = (i + 1) % len(rows)
        rows[i]["rolls"], rows[j]["rolls"] = rows[j]["rolls"], rows[i]["rolls"]
        return f"{where}: swap rolls of rows {i} and {j}"  # harmless: order is free
    return f"{where}.{i}: d10 {how}"


# ------------------------------------------------------------------------- mission mutations
_BRANCHING = ("activation", "perception", "if_flag", "goto", "end_mission")


def _effect(e: Raw) -> tuple[str | None, Raw]:
    if isinstance(e, str):
        return e, None
    if isinstance(e, dict) and len(e) == 1:
        ((name, arg),) = e.items()
        return name, arg
    return None, None


def _language(draw: Callable, raw: dict, paras: dict, nums: list) -> str:
    """The mission language of issue 13, which few shipped missions use: map booby traps,
    random event checks, ``landmark`` / ``strike`` / ``command`` / ``minefield`` effects and
    objective kinds, good or broken."""
    labels = [lab for lab in raw.get("triggers") or {} if isinstance(lab, str)] or ["A1"]
    hex_ = st.sampled_from(labels[:4] + BAD_HEXES[:4])
    what = draw(
        st.sampled_from(
            [
                "booby_traps",
                "events_every",
                "landmark",
                "strike",
                "command",
                "minefield",
                "objective",
            ]
        )
    )
    if what == "booby_traps":
        row = draw(
            st.sampled_from(
                [
                    "grenade_outside",
                    "satchel_inside",
                    "howitzer",
                    None,
                    3,
                    {"row": "grenade_outside", "known": True},
                    {"row": "satchel_inside", "known": "maybe"},
                    {},
                ]
            )
        )
        raw["booby_traps"] = value = {draw(hex_): row}
        return f"booby_traps = {value!r}"
    if what == "events_every":
        key = draw(st.sampled_from(["event_every_pulses", "event_every_rounds"]))
        value = draw(st.sampled_from([1, 2, 0, -1, 10**9, "3", None, 1.5, [2]]))
        if not isinstance(raw.get("rules"), dict):
            raw["rules"] = {}
        raw["rules"][key] = value
        return f"rules.{key} = {value!r}"
    if what == "objective":
        obj = raw.get("objective")
        if not isinstance(obj, dict):
            return "no objective"
        obj["kind"] = value = draw(
            st.sampled_from(["take", "hold", "capture", "demolish", "raze", None, 1])
        )
        return f"objective.kind = {value!r}"
    if not nums:
        return "no paragraphs"
    if what == "landmark":
        effect: Raw = {
            "landmark": {
                "hex": draw(hex_),
                "name": draw(st.sampled_from(["mill", "", 3, None])),
                "blocking": draw(st.sampled_from([True, False, "yes"])),
            }
        }
    elif what == "strike":
        effect = {
            "strike": {
                "kind": draw(st.sampled_from(["artillery", "strafing", "mortar"])),
                "hexes": draw(st.lists(hex_, min_size=0, max_size=3)),
                "row": draw(st.sampled_from(["smg", "grenade_outside", "howitzer", None])),
                "line": draw(st.sampled_from([False, True, "x"])),
            }
        }
    elif what == "command":
        effect = {
            "command": draw(
                st.sampled_from([1, 2, 0, -1, 99, "two", None, {"rounds": 2}, {"rounds": -2}])
            )
        }
    else:
        effect = {
            "minefield": {
                "hexes": draw(st.lists(hex_, min_size=0, max_size=2)),
                "kind": draw(st.sampled_from(["anti_personnel", "anti_tank", "claymore"])),
                "known": draw(st.sampled_from([True, False, 2])),
            }
        }
    n = draw(st.sampled_from(nums))
    paras[n].insert(draw(st.integers(0, len(paras[n]))), effect)
    return f"paragraphs.{n} += {effect!r}"


def _mission(draw: Callable, raw: dict) -> str:
    paras = raw.get("paragraphs")
    if not isinstance(paras, dict):
        paras = {}
    nums = [n for n, v in paras.items() if isinstance(n, int) and isinstance(v, list)]
    how = draw(
        st.sampled_from(
            [
                "paragraph_ref",
                "self_loop",
                "two_cycle",
                "long_cycle",
                "card_ref",
                "file_ref",
                "hex",
                "trigger_hex",
                "exit_inside",
                "events",
                "flag",
                "not_last",
                "dup_paragraph",
                "vehicle",
                "crew",
                "language",
                "language",
            ]
        )
    )
    if how == "language":
        return _language(draw, raw, paras, nums)
    if how == "paragraph_ref":
        sites: list[tuple[Path_, str]] = []
        for lab in raw.get("triggers") or {}:
            sites.append((("triggers", lab), "trigger"))
        for i, _row in enumerate(raw.get("events") or []):
            sites.append((("events", i, "paragraph"), "event"))
        for n in nums:
            for j, e in enumerate(paras[n]):
                name, arg = _effect(e)
                if name == "goto":
                    sites.append((("paragraphs", n, j, "goto"), "goto"))
                elif isinstance(arg, dict):
                    for k in ("then", "else"):
                        if k in arg:
                            sites.append((("paragraphs", n, j, name, k), "branch"))
        if not sites:
            return "no paragraph references"
        p, _ = draw(st.sampled_from(sites))
        value = draw(st.sampled_from([999, 0, -3, 10**9, "12", "EVENT", 1.5, [10]] + nums[:3]))
        _set(raw, p, value)
        return f"{p} = {value!r}"
    if how in ("self_loop", "two_cycle", "long_cycle"):
        if not nums:
            return "no paragraphs"
        k = {"self_loop": 1, "two_cycle": 2, "long_cycle": 3}[how]
        chain = (
            draw(st.lists(st.sampled_from(nums), min_size=k, max_size=k, unique=True))
            if len(nums) >= k
            else nums
        )
        for a, b in zip(chain, chain[1:] + chain[:1], strict=True):
            para = paras[a]
            name, arg = _effect(para[-1]) if para else (None, None)
            if name in ("activation", "perception", "if_flag") and isinstance(arg, dict):
                arg[draw(st.sampled_from(["then", "else"]))] = b
            elif name in _BRANCHING:
                para[-1] = {"goto": b}
            else:
                para.append({"goto": b})
        return f"cycle {chain}"
    if how == "card_ref":
        sites = []
        for n in nums:
            for j, e in enumerate(paras[n]):
                name, arg = _effect(e)
                if isinstance(arg, dict):
                    for k in ("card", "driver"):
                        if k in arg:
                            sites.append(("paragraphs", n, j, name, k))
                    if "passengers" in arg:
                        sites.append(("paragraphs", n, j, name, "passengers"))
        for i in range(len(raw.get("german_vehicles") or [])):
            for k in ("card", "driver", "passengers"):
                sites.append(("german_vehicles", i, k))
        if not sites:
            return "no card references"
        p = draw(st.sampled_from(sites))
        value = draw(
            st.sampled_from(
                [
                    "nobody",
                    "mg_gunner",
                    "rifleman",
                    "panzer_iv",
                    "jagdpanther",
                    ["nobody"],
                    ["rifleman"] * 5,
                    "Rifleman",
                ]
            )
        )
        try:
            _set(raw, p, value)
        except (KeyError, IndexError, TypeError):
            return "site gone"
        return f"{p} = {value!r}"
    if how == "file_ref":
        key = draw(st.sampled_from(["map", "squad", "deck_default", "id"]))
        value = draw(
            st.sampled_from(
                [
                    "nowhere",
                    "zz99",
                    "los_village",
                    "tank_hunt",
                    "farm_assault",
                    "green",
                    "tank_hunters",
                    "standard",
                    "../maps/farm_assault",
                    "Farm",
                ]
            )
        )
        raw[key] = value
        return f"{key} = {value!r}"
    if how in ("hex", "exit_inside"):
        sites = [
            p
            for p in _paths(raw)
            if isinstance(_get(raw, p), str)
            and _is_label(_get(raw, p))
            and p
            and p[0] != "triggers"
        ]
        if how == "exit_inside":
            sites = [p for p in sites if p[0] == "exit_hexes"] or sites
        if not sites:
            return "no hexes"
        p = draw(st.sampled_from(sites))
        value = draw(st.sampled_from(BAD_HEXES + _edge_hexes(raw) + ["E5", "H7", "D5"]))
        _set(raw, p, value)
        return f"{p} = {value!r}"
    if how == "trigger_hex":
        trig = raw.get("triggers")
        if not isinstance(trig, dict) or not trig:
            return "no triggers"
        old = draw(st.sampled_from(sorted(trig, key=str)))
        new = draw(st.sampled_from(BAD_HEXES + _edge_hexes(raw) + [5, None]))
        trig[new] = trig.pop(old)
        return f"trigger {old!r} -> {new!r}"
    if how == "events":
        ev = raw.get("events")
        if not isinstance(ev, list):
            return "no events"
        return _d10(draw, ev, "events")
    if how == "flag":
        sites = [
            ("paragraphs", n, j)
            for n in nums
            for j, e in enumerate(paras[n])
            if _effect(e)[0] in ("set", "if_flag")
        ]
        if not sites:
            return "no flags"
        p = draw(st.sampled_from(sites))
        name, arg = _effect(_get(raw, p))
        value = draw(st.sampled_from(["never_set", "Bad Flag", "", None, 5]))
        if name == "set":
            _set(raw, p, {"set": value})
        else:
            arg["flag"] = value
        return f"{p}: flag = {value!r}"
    if how == "not_last":
        cands = [n for n in nums if paras[n] and _effect(paras[n][-1])[0] in _BRANCHING]
        if not cands:
            return "no branching effect"
        n = draw(st.sampled_from(cands))
        paras[n].append(
            draw(
                st.sampled_from(
                    [{"message": "after"}, {"set": "late_flag"}, copy.deepcopy(paras[n][-1])]
                )
            )
        )
        return f"paragraphs.{n}: an effect after the branch"
    if how == "dup_paragraph":
        if not nums:
            return "no paragraphs"
        n = draw(st.sampled_from(nums))
        paras[str(n)] = [{"message": "twice"}]
        return f"paragraphs {n} and {str(n)!r}"
    if how == "vehicle":
        sites = [("us_vehicles", i) for i, _ in enumerate(raw.get("us_vehicles") or [])]
        sites += [("german_vehicles", i) for i, _ in enumerate(raw.get("german_vehicles") or [])]
        sites += [
            ("paragraphs", n, j, "place_vehicle")
            for n in nums
            for j, e in enumerate(paras[n])
            if _effect(e)[0] == "place_vehicle"
        ]
        if not sites:
            raw.setdefault("german_vehicles", []).append({"vehicle": "kubelwagen", "hex": "A1"})
            sites = [("german_vehicles", len(raw["german_vehicles"]) - 1)]
        p = draw(st.sampled_from(sites))
        v = _get(raw, p)
        if not isinstance(v, dict):
            return "vehicle gone"
        key = draw(st.sampled_from(["vehicle", "hex", "facing", "many"]))
        if key == "many":
            lst = raw.setdefault("us_vehicles", [])
            if isinstance(lst, list):
                lst += [copy.deepcopy(v) for _ in range(4)]
            return f"{p}: five more vehicles"
        value = draw(
            st.sampled_from(
                {
                    "vehicle": [
                        "sherman",
                        "panzer_iv",
                        "jeep",
                        "kubelwagen",
                        "tiger",
                        "jagdpanther",
                    ],
                    "hex": ["L6", "L7", "N6", "C3", "E11", "I10", "Z99", "A0"],
                    "facing": ["n", "NNE", "S", 3, None],
                }[key]
            )
        )
        v[key] = value
        return f"{p}.{key} = {value!r}"
    # crew
    sites = [("german_vehicles", i) for i, _ in enumerate(raw.get("german_vehicles") or [])]
    sites += [
        ("paragraphs", n, j, "place_vehicle")
        for n in nums
        for j, e in enumerate(paras[n])
        if _effect(e)[0] == "place_vehicle"
    ]
    if not sites:
        return "no German vehicles"
    p = draw(st.sampled_from(sites))
    v = _get(raw, p)
    if not isinstance(v, dict):
        return "vehicle gone"
    key = draw(st.sampled_from(["crew", "card", "driver", "passengers", "route", "aware"]))
    value = draw(
        st.sampled_from(
            {
                "crew": [0, 1, 6, 9, -1, "five", None],
                "card": ["panzer_iv", "jagdpanther", "nobody", None],
                "driver": ["rifleman", "nobody", None, 3],
                "passengers": [["rifleman"] * 4, ["nobody"], [], "rifleman", None],
                "route": [["Z99"], ["A0"], [], "A1", None, [None]],
                "aware": ["yes", None, 2],
            }[key]
        )
    )
    v[key] = value
    return f"{p}.{key} = {value!r}"


def _is_label(s: str) -> bool:
    try:
        parse_label(s)
    except Exception:
        return False
    return s[:1].isalpha() and s[:1].isupper()


def _edge_hexes(raw: dict) -> list[str]:
    """Hexes one column or row past the edge of the mission's map."""
    try:
        m = _raw(DATA_DIR / "maps" / f"{raw['map']}.yaml")
        c, r = m["columns"], m["rows"]
        return [make_label(c, 0), make_label(0, r), make_label(c, r)]
    except Exception:
        return []


# ----------------------------------------------------------------------------- map mutations
def _map(draw: Callable, raw: dict) -> str:
    how = draw(
        st.sampled_from(
            [
                "hex_key",
                "side_key",
                "side_twice",
                "shrink",
                "crop",
                "hex_field",
                "side_value",
                "default",
            ]
        )
    )
    cols, rows = (
        v if isinstance(v, int) and 1 <= v <= 32 else 10
        for v in (raw.get("columns"), raw.get("rows"))
    )
    edge = [make_label(cols, 0), make_label(0, rows), make_label(cols, rows)]
    hexes = raw.get("hexes")
    sides = raw.get("hexsides")
    if how == "hex_key":
        if not isinstance(hexes, dict):
            raw["hexes"] = hexes = {}
        new = draw(st.sampled_from(BAD_HEXES + edge + [5, None, "A1/A2"]))
        if hexes and draw(st.booleans()):
            old = draw(st.sampled_from(sorted(hexes, key=str)))
            hexes[new] = hexes.pop(old)
            return f"hex {old!r} -> {new!r}"
        hexes[new] = {"terrain": "woods"}
        return f"hexes[{new!r}] added"
    if how in ("side_key", "side_twice"):
        if not isinstance(sides, dict):
            raw["hexsides"] = sides = {}
        if how == "side_twice" and sides:
            k = draw(st.sampled_from(sorted(sides, key=str)))
            if isinstance(k, str) and "/" in k:
                a, b = k.split("/", 1)
                sides[f"{b}/{a}"] = copy.deepcopy(sides[k])
                return f"hexside {k} twice"
        new = draw(
            st.sampled_from(
                [
                    "A1/A3",
                    "A1/B3",
                    "A1/A1",
                    "A1-A2",
                    "A1/A2/A3",
                    "A1",
                    "Z99/Z98",
                    "A0/A1",
                    f"{edge[0]}/{make_label(cols - 1, 0)}",
                    "a1/a2",
                    "/",
                    "",
                    7,
                ]
            )
        )
        sides[new] = draw(st.sampled_from(["wall", "embankment", {"wall": "wood"}]))
        return f"hexsides[{new!r}] added"
    if how == "shrink":
        key = draw(st.sampled_from(["columns", "rows"]))
        n = cols if key == "columns" else rows
        value = draw(
            st.sampled_from([1, 2, 0, -1, 703, 1000, "18", 18.0, None, n - 1, n - 2, n // 2, n + 1])
        )
        raw[key] = value
        return f"{key} = {value!r}"
    if how == "crop":  # a smaller map, its hexes and hexsides off it left out
        c2, r2 = draw(st.integers(1, cols)), draw(st.integers(1, rows))
        raw["columns"], raw["rows"] = c2, r2

        def on(label: Any) -> bool:
            try:
                c, r = parse_label(label)
            except Exception:
                return True
            return c < c2 and r < r2

        if isinstance(hexes, dict):
            raw["hexes"] = {k: v for k, v in hexes.items() if on(k)}
        if isinstance(sides, dict):
            raw["hexsides"] = {
                k: v
                for k, v in sides.items()
                if not isinstance(k, str) or all(on(h) for h in k.split("/"))
            }
        return f"cropped to {c2} x {r2}"
    if how == "hex_field":
        if not isinstance(hexes, dict) or not hexes:
            return "no hexes"
        k = draw(st.sampled_from(sorted(hexes, key=str)))
        if not isinstance(hexes[k], dict):
            hexes[k] = {}
        field = draw(st.sampled_from(["terrain", "level", "building", "rise", "landmark"]))
        value = draw(
            st.sampled_from(
                {
                    "terrain": ["swamp", "Building", "building", "rubble", "", None, 3],
                    "level": [4, -1, 99, "1", 1.5, None],
                    "building": ["farm", "", None, 3, ["x"]],
                    "rise": [1, 4, -1, "2", None],
                    "landmark": ["mill", "", 3, None],
                }[field]
            )
        )
        hexes[k][field] = value
        return f"hexes.{k}.{field} = {value!r}"
    if how == "side_value":
        if not isinstance(sides, dict) or not sides:
            return "no hexsides"
        k = draw(st.sampled_from(sorted(sides, key=str)))
        value = draw(
            st.sampled_from(
                [
                    "hedge",
                    "Wall",
                    "",
                    None,
                    3,
                    ["wall"],
                    {"wall": "brick"},
                    {"aperture": "door", "wall": "none"},
                    {"aperture": "door"},
                    {"slope": "yes"},
                    {"zz": 1},
                ]
            )
        )
        sides[k] = value
        return f"hexsides.{k} = {value!r}"
    field = draw(st.sampled_from(["terrain", "level"]))
    value = draw(st.sampled_from(["building", "swamp", 4, -1, None, "0"]))
    if not isinstance(raw.get("default"), dict):
        raw["default"] = {}
    raw["default"][field] = value
    return f"default.{field} = {value!r}"


# ---------------------------------------------------------------------------- deck mutations
_ACTIONS = [
    "hold",
    "fire",
    "prepare",
    "clear_jam",
    "drive",
    "leave_vehicle",
    "fly",
    "Fire",
    {"fire": {"mode": "burst"}},
    {"fire": {"at": "nearest_tank"}},
    {"move": {}},
    {"move": {"toward": "route", "max": 13}},
    {"move": {"toward": "route", "max": 0}},
    {"stance": "kneeling"},
    {"stance": {"to": "prone"}},
    {"stance": None},
    {"throw_grenade": {"within": 7}},
    {"alert": {}},
    {"alert": {"radius": 0}},
    {"surrender": {"if": "never"}},
    {"assault": {"kind": "hug"}},
    {"fire": "aimed"},
    {"hold": {"action": "fire"}},
    {"fire": None, "hold": None},
    {"drive": {"toward": "route"}},
    {"throw_grenade": None},
    [],
    3,
    None,
]


def _deck(draw: Callable, raw: dict) -> str:
    cards = raw.get("cards")
    if not isinstance(cards, list) or not cards:
        return "no cards"
    i = draw(st.integers(0, len(cards) - 1))
    card = cards[i]
    if not isinstance(card, dict):
        return "card gone"
    how = draw(
        st.sampled_from(
            [
                "column",
                "column",
                "dup_id",
                "weapon",
                "equipment",
                "action",
                "no_grenade",
                "rating",
                "port_boxes",
                "drop_card",
                "rename",
            ]
        )
    )
    cols = card.get("columns")
    if how in ("column", "action"):
        if not isinstance(cols, dict) or not cols:
            return "no columns"
        name = draw(st.sampled_from(sorted(cols, key=str)))
        col = cols[name]
        if not isinstance(col, list) or not col:
            return "column gone"
        if how == "column":
            return _d10(draw, col, f"cards.{i}.columns.{name}")
        j = draw(st.integers(0, len(col) - 1))
        row = col[j]
        if not isinstance(row, dict) or not isinstance(row.get("do"), list):
            return "row gone"
        act = draw(st.sampled_from(_ACTIONS))
        k = draw(st.integers(0, len(row["do"])))
        row["do"].insert(k, copy.deepcopy(act))
        return f"cards.{i}.columns.{name}.{j}.do.{k} = {act!r}"
    if how == "dup_id":
        if len(cards) > 1 and draw(st.booleans()):
            cards[(i + 1) % len(cards)]["id"] = card.get("id")
            return f"cards {(i + 1) % len(cards)} and {i} share an id"
        cards.append(copy.deepcopy(card))
        return f"card {i} twice"
    if how == "drop_card":
        del cards[i]
        return f"card {i} dropped"
    if how == "rename":
        card["id"] = value = draw(st.sampled_from(["zz99", "gunner", "mg_gunner_2"]))
        return f"cards.{i}.id = {value!r}"
    if how == "weapon":
        card["weapon"] = value = draw(
            st.sampled_from(["raygun", "mg42", "Kar98", "", None, "grenade", "kwk40"])
        )
        return f"cards.{i}.weapon = {value!r}"
    if how == "equipment":
        value = draw(
            st.sampled_from(
                [
                    ["grenade"] * 5,
                    ["satchel"] * 3,
                    ["clip_raygun"],
                    ["pebble"],
                    "grenade",
                    [None],
                    ["satchel", "grenade", "grenade", "grenade"],
                ]
            )
        )
        card["equipment"] = value
        return f"cards.{i}.equipment = {value!r}"
    if how == "no_grenade":
        eq = card.get("equipment")
        if isinstance(eq, list):
            card["equipment"] = [e for e in eq if e != "grenade"]
        return f"cards.{i}: no grenade"
    if how == "rating":
        key = draw(st.sampled_from(["IN", "PC", "WS", "MV"]))
        card[key] = value = draw(st.sampled_from([-3, 9, 99, "3", 2.5, None]))
        return f"cards.{i}.{key} = {value!r}"
    raw["port_boxes"] = value = draw(st.sampled_from([0, 1, 5, "4", None, -1]))
    return f"port_boxes = {value!r}"


# --------------------------------------------------------------------------- squad mutations
def _squad(draw: Callable, raw: dict) -> str:
    men = raw.get("soldiers")
    if not isinstance(men, list) or not men:
        return "no soldiers"
    i = draw(st.integers(0, len(men) - 1))
    man = men[i]
    if not isinstance(man, dict):
        return "soldier gone"
    how = draw(st.sampled_from(["name", "role", "cr", "weapon", "equipment", "many", "rating"]))
    if how == "name":
        man["name"] = value = draw(
            st.sampled_from(["US1", f"US{i + 2}", "US0", "us1", "GE1", "", None, 1])
        )
        return f"soldiers.{i}.name = {value!r}"
    if how == "role":
        man["role"] = value = draw(
            st.sampled_from(["sergeant", "private", "corporal", "general", None])
        )
        return f"soldiers.{i}.role = {value!r}"
    if how == "cr":
        man["CR"] = value = draw(st.sampled_from([0, 1, 3, 4, -1]))
        return f"soldiers.{i}.CR = {value!r}"
    if how == "weapon":
        man["weapon"] = value = draw(
            st.sampled_from(["raygun", "kar98", "Thompson", "", None, "satchel", "kwk40"])
        )
        return f"soldiers.{i}.weapon = {value!r}"
    if how == "equipment":
        value = draw(
            st.sampled_from(
                [
                    ["grenade"] * 5,
                    ["satchel"] * 3,
                    ["clip_raygun"],
                    ["pebble"],
                    "grenade",
                    [None],
                    ["radio"],
                    ["satchel", "satchel"],
                ]
            )
        )
        man["equipment"] = value
        return f"soldiers.{i}.equipment = {value!r}"
    if how == "many":
        n = draw(st.sampled_from([13, 20]))
        while len(men) < n:
            extra = copy.deepcopy(men[-1])
            extra["name"], extra["role"], extra["CR"] = f"US{len(men) + 1}", "private", 0
            men.append(extra)
        return f"{n} soldiers"
    key = draw(st.sampled_from(["IN", "PC", "WS", "DS", "MV"]))
    man[key] = value = draw(st.sampled_from([-3, 10, 99, "3", 2.5, None]))
    return f"soldiers.{i}.{key} = {value!r}"


# ------------------------------------------------------- campaign chains and number files
BAD_NUMBERS = [
    -1,
    0,
    1,
    99,
    10**9,
    -(10**9),
    0.5,
    1.5,
    True,
    "3",
    [9, 0],
    [0],
    [1, 2, 3],
    [-5, 5],
    [0.5, 2],
    None,
]
"""Numbers out of range or of the wrong type, and broken ``[low, high]`` ranges."""


def _numbers(draw: Callable, raw: dict) -> str:
    """A number or a ``[low, high]`` range anywhere in the tree set to a bad one."""
    paths = [
        p
        for p in _paths(raw)
        if p
        and (
            isinstance(_get(raw, p), (int, float))
            and not isinstance(_get(raw, p), bool)
            or isinstance(_get(raw, p), list)
            and len(_get(raw, p)) == 2
            and all(isinstance(x, (int, float)) for x in _get(raw, p))
        )
    ]
    p = draw(st.sampled_from(paths))
    value = draw(st.sampled_from(BAD_NUMBERS))
    _set(raw, p, copy.deepcopy(value))
    return f"{p} = {value!r}"


def _chain(draw: Callable, raw: dict) -> str:
    """A campaign chain: unknown missions, decks and squads, an empty chain, a bad rules id."""
    how = draw(st.sampled_from(["mission", "deck", "squad", "empty", "rules", "numbers"]))
    links = raw.get("missions")
    if (
        how in ("mission", "deck")
        and isinstance(links, list)
        and links
        and isinstance(links[0], dict)
    ):
        i = draw(st.integers(0, len(links) - 1))
        if not isinstance(links[i], dict):
            return "link gone"
        value = draw(
            st.sampled_from(
                [
                    "nowhere",
                    "",
                    None,
                    3,
                    "Farm_Assault",
                    "../missions/farm_assault",
                    "missing/file.yaml",
                    "nowhere.yaml",
                ]
                if how == "mission"
                else ["nowhere", "", None, "Regular", "green ", 1]
            )
        )
        links[i][how] = value
        return f"missions.{i}.{how} = {value!r}"
    if how == "squad":
        raw["squad"] = value = draw(st.sampled_from(["nobody", "", None, "Standard", 2]))
        return f"squad = {value!r}"
    if how == "empty":
        raw["missions"] = []
        return "missions = []"
    if how == "rules":
        raw["rules"] = value = draw(st.sampled_from(["d101", "", None, "D100"]))
        return f"rules = {value!r}"
    return _numbers(draw, raw)


def _load_rules_file(path: Path) -> Any:
    """Load one of :data:`RULE_FILES` (by its stem) from ``path``, as its loader would."""
    from ambush_env.core.play import campaign, procedural
    from ambush_env.core.world import squads
    from ambush_env.core.world.data import read_data

    if path.stem == "campaign":
        return read_data(campaign.CampaignRules, path)
    if path.stem == "squad_points":
        return read_data(squads.SquadPoints, path, squads._check_points)
    return read_data(procedural.ProceduralConfig, path)


def _use(kind: str, path: Path, obj: Any) -> None:
    """Use a chain or number file that loaded, as the game would: a chain starts a campaign;
    the campaign rules carry a squad through a mission (killed, wounded, fit: replacements,
    experience); the squad prices generate squads; the procedural ranges generate missions.
    Only DataError or ScenarioError may come of it."""
    from ambush_env.core.play import campaign, procedural
    from ambush_env.core.world import squads

    try:
        if kind == "chain":
            cs = campaign.new_campaign(obj)
            campaign.mission_squad(cs)
            return
        with pytest.MonkeyPatch.context() as mp:
            if path.stem == "campaign":
                mp.setattr(campaign, "load_campaign_rules", lambda: obj)
                cs = campaign.new_campaign("first_push")
                fates = ["fit", "wounded", "killed", "captured", "incapacitated"]
                men = campaign.fielded(cs)
                for result in ("decisive_win", "loss"):
                    out = campaign.Outcome(
                        result=result,
                        vp=10,
                        fates={v.id: fates[k % len(fates)] for k, v in enumerate(men)},
                    )
                    cs = campaign.advance(cs, out)
                    men = campaign.fielded(cs)
            elif path.stem == "squad_points":
                mp.setattr(squads, "load_squad_points", lambda: obj)
                for seed in range(3):
                    squads.generate_squad(seed)
            else:
                mp.setattr(procedural, "config", lambda: obj)
                procedural.generate(0)
    except (DataError, ScenarioError) as e:
        note(f"-> use: {e}")


# ------------------------------------------------------------------------------ the property
MISSION_MAPS = {_raw(m)["map"]: m.stem for m in MISSIONS}
"""A shipped mission played on each map that has one (map stem -> mission id)."""

KINDS: dict[str, tuple[list[Path], Callable[[Path], Any], Callable]] = {
    "mission": (MISSIONS, load_mission, _mission),
    # the maps of missions (played on after loading) drawn four times as often
    "map": (MAPS + [m for m in MAPS if m.stem in MISSION_MAPS] * 3, load_board, _map),
    "deck": (DECKS, load_deck, _deck),
    "squad": (SQUADS, load_squad, _squad),
    "chain": (CHAINS, load_chain, _chain),
    "rules_file": (list(RULE_FILES.values()), _load_rules_file, _numbers),
}


def _mutated(data: Any, kind: str) -> tuple[Path, Raw, str | None, bool]:
    """A shipped file of ``kind``, mutated: ``(source, tree, YAML text for the placeholder,
    whether a key is given twice)``."""
    files, _load, specific = KINDS[kind]
    src = data.draw(st.sampled_from(files), label="file")
    raw = _base(src)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        if isinstance(raw, dict) and data.draw(st.integers(0, 2)) > 0:
            try:
                what = specific(data.draw, raw)
            except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
                what = f"skipped ({type(e).__name__}: an earlier mutation removed the site)"
        else:
            raw, what = _generic(data.draw, raw)
        note(f"{kind} {src.name}: {what}")
    text, twice = None, False
    if data.draw(st.integers(0, 4), label="text mutation") == 0:
        raw, text, what = _text(data, raw)
        twice = text is None
        note(f"{kind} {src.name}: {what}")
    return src, raw, text, twice


def _play(game: Callable[[], Any]) -> Any:
    """Build a game (``game()``) and play a few random orders: it works (the game is
    returned), or building it raises DataError or ScenarioError (None)."""
    try:
        g = game()
    except (DataError, ScenarioError) as e:
        note(f"-> game: {e}")
        return None
    rnd = random.Random(0)
    for _ in range(8):
        legal = g.legal_actions()
        if g.state.over or not legal:
            break
        g.step(rnd.choice(legal))
    return g


def check_file(
    kind: str,
    tmp: Path,
    src: Path,
    raw: Raw,
    text: str | None = None,
    twice: bool = False,
    partner: str = "farm_assault",
) -> None:
    """The property: the file loads, or DataError names the file and a field (a key given
    twice always does); a mission that loads is played, a deck that loads is the opponent in
    the mission ``partner``, a map that loads is the board of its mission."""
    from ambush_env.core import Game

    path = _write(tmp, src, raw, text)
    _files, load, _specific = KINDS[kind]
    try:
        obj = load(path)
    except DataError as e:
        assert e.path == str(path), f"DataError names {e.path!r}, not the file {path}: {e}"
        assert e.field, f"DataError names no field: {e}"
        assert not twice or "given twice" in e.problem, f"not the key given twice: {e}"
        note(f"-> {e}")
        return
    assert not twice, "a key given twice is not an error"
    note("-> loads")
    if kind == "mission":
        _play(lambda: Game(obj, seed=0))
    elif kind == "deck":
        g = _play(lambda: Game(partner, opponent=path, seed=0))
        # a game that builds can put every German its mission names on the map
        assert g is None or all(c in g.ctx.cards for _f, c in g.ctx.mission.card_refs())
    elif kind == "map" and src.stem in MISSION_MAPS:
        _play(lambda: Game(MISSION_MAPS[src.stem], board=obj, seed=0))
    elif kind in ("chain", "rules_file"):
        _use(kind, path, obj)


def _check(data: Any, kind: str, tmp: Path) -> None:
    partner = data.draw(st.sampled_from([m.stem for m in MISSIONS]), label="mission")
    check_file(kind, tmp, *_mutated(data, kind), partner=partner)


_SETTINGS: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("malformed")


@pytest.mark.parametrize(
    "kind, n",
    [
        ("mission", 300),
        ("map", 200),
        ("deck", 250),
        ("squad", 300),
        ("chain", 60),
        ("rules_file", 120),
    ],
)
def test_malformed_file_is_a_data_error_naming_file_and_field(kind: str, n: int, tmp: Path):
    """Done-when 7: a mutated mission, map, deck or squad file loads or raises DataError
    naming the file and a field; what loads builds a game that plays."""

    @settings(max_examples=n, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check(data, kind, tmp)

    prop()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["mission", "map", "deck", "squad", "chain", "rules_file"])
def test_malformed_file_is_a_data_error_naming_file_and_field_slow(kind: str, tmp: Path):
    """The same property, many more examples (``pytest -m slow``)."""

    @settings(max_examples=3000, **_SETTINGS)
    @given(st.data())
    def prop(data: Any) -> None:
        _check(data, kind, tmp)

    prop()


# ---------------------------------------------------------------- regressions, one per crash
def _text_of(src: Path) -> str:
    return src.read_text(encoding="utf-8")


FARM = DATA_DIR / "missions" / "farm_assault.yaml"
FARM_MAP = DATA_DIR / "maps" / "farm_assault.yaml"


@pytest.mark.parametrize(
    "load, src, edit, field",
    [
        (load_mission, FARM, lambda t: t + "\nid: farm_assault\n", "id"),
        (
            load_mission,
            FARM,
            lambda t: t.replace("  15:\n", "  15:\n    - message: x\n  15:\n"),
            "paragraphs.15",
        ),
        (
            load_mission,
            FARM,
            lambda t: t.replace("  15:\n", "  15:\n    - message: x\n  '15':\n"),
            "paragraphs.15",
        ),
        (
            load_mission,
            FARM,
            lambda t: t.replace("  G8: 10\n", "  G8: 10\n  G8: 20\n"),
            "triggers.G8",
        ),
        (
            load_board,
            FARM_MAP,
            lambda t: t.replace(
                "  R8: {terrain: road}\n", "  R8: {terrain: road}\n  R8: {terrain: woods}\n"
            ),
            "hexes.R8",
        ),
        (
            load_deck,
            DATA_DIR / "cards" / "regular.yaml",
            lambda t: t.replace("    IN: 1\n", "    IN: 1\n    IN: 2\n", 1),
            "cards.0.IN",
        ),
        (
            load_squad,
            config_dir("squads") / "standard.yaml",
            lambda t: t.replace(
                "    weapon: thompson\n", "    weapon: thompson\n    weapon: bar\n", 1
            ),
            "soldiers.0.weapon",
        ),
    ],
    ids=[
        "mission id",
        "paragraph",
        "paragraph quoted",
        "trigger",
        "map hex",
        "card rating",
        "squad weapon",
    ],
)
def test_key_given_twice_is_a_data_error(load, src, edit, field, tmp_path):
    """Found here: PyYAML keeps the last of two equal keys silently, so a paragraph or trigger
    written twice lost one of them unnoticed. ``read_yaml`` now refuses a key given twice."""
    text = edit(_text_of(src))
    assert text != _text_of(src)
    path = tmp_path / src.name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as e:
        load(path)
    assert (e.value.path, e.value.field) == (str(path), field)
    assert "given twice" in e.value.problem


def test_yaml_merge_keys_may_still_override(tmp_path):
    """A ``<<`` merge key and a key that overrides a merged one are not a key given twice."""
    from ambush_env.core.world.data import read_yaml

    path = tmp_path / "merge.yaml"
    path.write_text(
        "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  x: 3\nboth: [*b, *b]\n", encoding="utf-8"
    )
    assert read_yaml(path)["other"] == {"x": 3, "y": 2}


@pytest.mark.parametrize("value", ["[" * 600 + "]" * 600, "{a: " * 600 + "1" + "}" * 600])
def test_yaml_nested_too_deeply_is_a_data_error(value, tmp_path):
    """Found here: a value nested a few hundred levels deep raised RecursionError from the
    YAML parser; it is a DataError naming the file and ``<yaml>``."""
    path = tmp_path / "farm_assault.yaml"
    path.write_text(
        _text_of(FARM).replace("title: Farm Assault", f"title: {value}"), encoding="utf-8"
    )
    with pytest.raises(DataError) as e:
        load_mission(path)
    assert (e.value.path, e.value.field, e.value.problem) == (
        str(path),
        "<yaml>",
        "nested too deeply",
    )


def test_control_character_is_a_data_error(tmp_path):
    path = tmp_path / "farm_assault.yaml"
    path.write_text(_text_of(FARM).replace("Farm Assault", "Farm\x00Assault", 1), encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_mission(path)
    assert e.value.path == str(path) and e.value.field == "<yaml>"


@pytest.mark.parametrize("mission", [m.stem for m in MISSIONS])
def test_opponent_deck_without_a_card_the_mission_places(mission, tmp_path):
    """Found here: a deck (``opponent``) without a card that the mission places built a game
    that raised KeyError when the paragraph placing it ran. Building the game now raises a
    DataError naming the deck's file and ``cards``."""
    from ambush_env.core import Game

    raw = _raw(DATA_DIR / "cards" / "regular.yaml")
    raw["cards"] = [c for c in raw["cards"] if c["id"] != "mg_gunner"]
    path = _write(tmp_path, DATA_DIR / "cards" / "regular.yaml", raw)
    load_deck(path)  # the deck itself is well formed
    with pytest.raises(DataError) as e:
        Game(mission, opponent=path, seed=0)
    assert (e.value.path, e.value.field) == (str(path), "cards")
    assert "'mg_gunner'" in e.value.problem and ".place.card" in e.value.problem


def test_shipped_decks_hold_every_card_of_every_mission():
    from ambush_env.core import Game

    for deck in DECKS:
        assert Game(MISSIONS[0].stem, opponent=deck.stem, seed=0).ctx.deck.id == deck.stem


def test_board_smaller_than_the_mission(tmp_path):
    """Found here: a mission played on a board (``Game(..., board=)``) on which one of its hexes
    does not lie raised AmbushError from ``Board.index``. It is a DataError naming the
    mission and the field, as for a vehicle off the board."""
    from ambush_env.core import Game

    raw = _raw(FARM_MAP)
    raw["columns"] = 17  # column R, the exit edge, is gone
    raw["hexes"] = {k: v for k, v in raw["hexes"].items() if not k.startswith("R")}
    raw["hexsides"] = {k: v for k, v in raw["hexsides"].items() if "R" not in k}
    board = load_board(_write(tmp_path, FARM_MAP, raw))
    with pytest.raises(DataError) as e:
        Game("farm_assault", board=board, seed=0)
    assert (e.value.path, e.value.field) == ("<mission farm_assault>", "exit_hexes.0")


@pytest.mark.parametrize(
    "stem, edit, field",
    [
        ("campaign", lambda r: r["experience"].__setitem__("loss", -1), "experience.loss"),
        (
            "procedural",
            lambda r: r["vp"].__setitem__("german_captured", [4, 3]),
            "vp.german_captured",
        ),
        ("procedural", lambda r: r["vp"].__setitem__("german_killed", [-1, 2]), "vp.german_killed"),
        ("procedural", lambda r: r["vp"].__setitem__("us_killed", [-3, 1]), "vp.us_killed"),
        ("procedural", lambda r: r["vp"].__setitem__("zz_bonus", [1, 1]), "vp.zz_bonus"),
        (
            "procedural",
            lambda r: r.__setitem__("thresholds", {**r["thresholds"], "win": [0.6, 0.4]}),
            "thresholds.win",
        ),
        ("procedural", lambda r: r["vp"].pop("us_wounded"), "vp"),
        ("procedural", lambda r: r.__setitem__("templates", {}), "templates"),
        ("procedural", lambda r: r.__setitem__("objectives", {}), "objectives"),
        ("procedural", lambda r: r["thresholds"].pop("draw"), "thresholds"),
        (
            "procedural",
            lambda r: r.__setitem__("perception_modifier", [-9, 0]),
            "perception_modifier",
        ),
        ("procedural", lambda r: r.__setitem__("event_rows", [0, 2]), "event_rows"),
        ("procedural", lambda r: r.__setitem__("nothing_rolls", [-1, 2]), "nothing_rolls"),
        (
            "procedural",
            lambda r: r["objectives"][next(iter(r["objectives"]))].__setitem__(
                "objective_taken", [-4, 2]
            ),
            "objectives.{first}.objective_taken",
        ),
    ],
)
def test_number_file_that_used_to_load_and_crash_later(stem, edit, field, tmp_path):
    """Regressions found by the ``rules_file`` property: a negative experience award (campaign
    .yaml; ``advance`` then built a soldier with negative xp, a pydantic ValidationError), a
    range with low > high (procedural.yaml; numpy's ``integers`` raised ValueError) and a VP
    range of the wrong sign or name, or a range a mission cannot take (a perception modifier
    past -5, no event row, a negative "nothing happens" row: the generated mission would not
    validate, or numpy raised) load no more: DataError naming the file and the field."""
    src = RULE_FILES[stem]
    raw = _raw(src)
    edit(raw)
    field = field.format(first=next(iter(raw.get("objectives") or {}), ""))
    path = tmp_path / src.name
    path.write_text(_dump(raw), encoding="utf-8")
    with pytest.raises(DataError) as err:
        _load_rules_file(path)
    assert err.value.path == str(path) and err.value.field == field, err.value
