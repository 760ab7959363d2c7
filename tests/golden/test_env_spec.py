"""The frozen version (``-v1``, issue 14, done-when 6; ``-v2``, issue 15; ``-v3``, issue 23;
``-v4``, issue 25): N,
every order text and the observation spec equal the committed golden
``tests/golden/env_spec_v<VERSION>.json``, and the ``-v3``, ``-v2``, ``-v1`` and ``-v0`` ids are
registered for Ambush, every shipped mission and Procedural. Neither ``-v2`` nor ``-v3`` changed
any part of the spec: ``env_spec_v1.json``, ``env_spec_v2.json`` and ``env_spec_v3.json`` differ
only in their version.

A failure here means the action layout or the observation changed: a policy trained on the
frozen version would read it wrongly. If the change is intended, bump the version
(``ambush_env.env.registration.VERSION`` and ``VERSIONS``), add a line to
docs/VERSIONS.md, then run ``python scripts/regen_env_spec.py`` and commit the new golden.
"""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import pytest

import ambush_env
from ambush_env.env import registration as R

GOLDEN = Path(__file__).resolve().parent / f"env_spec_v{R.VERSION}.json"
HOW = (
    "the frozen env spec changed; if intended, bump ambush_env.env.registration.VERSION "
    "(and VERSIONS), note it in docs/VERSIONS.md and run "
    "`python scripts/regen_env_spec.py`"
)


def _diff(golden: dict, now: dict) -> list[str]:
    """Readable differences: N, the first changed order indices, the changed observation keys."""
    out = []
    if golden["n_actions"] != now["n_actions"]:
        out.append(f"N: Discrete({golden['n_actions']}) became Discrete({now['n_actions']})")
    changed = [
        i for i, (a, b) in enumerate(zip(golden["orders"], now["orders"], strict=False)) if a != b
    ]
    out += [f"order {i}: {golden['orders'][i]!r} became {now['orders'][i]!r}" for i in changed[:10]]
    for key in sorted(set(golden["observation"]) | set(now["observation"])):
        g, n = golden["observation"].get(key), now["observation"].get(key)
        if g != n:
            what = (
                [f for f in (g or {}) if (g or {}).get(f) != (n or {}).get(f)]
                if g and n
                else ["added" if g is None else "removed"]
            )
            out.append(f"observation {key!r}: {', '.join(what)} changed")
    return out


@pytest.fixture(scope="module")
def snapshot() -> dict:
    return R.spec_snapshot()


def test_the_spec_equals_the_committed_golden(snapshot):
    assert GOLDEN.exists(), f"no golden {GOLDEN.name}: run python scripts/regen_env_spec.py"
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["version"] == R.VERSION
    snap = json.loads(json.dumps(snapshot))  # as written (tuples become lists)
    if snap != golden:
        pytest.fail(f"{HOW}:\n  " + "\n  ".join(_diff(golden, snap) or ["(other fields)"]))


def test_the_golden_pins_every_order_once(snapshot):
    assert len(snapshot["orders"]) == snapshot["n_actions"]
    assert len(set(snapshot["orders"])) == snapshot["n_actions"]  # one text per index
    assert snapshot["orders"][12] == "end_turn"
    with pytest.raises(ValueError):
        R.order_text(snapshot["n_actions"])


def test_a_changed_spec_fails_with_the_version_bump_message(snapshot):
    """The comparison names what changed (here a made-up extra order and a wider table)."""
    changed = json.loads(json.dumps(snapshot))
    changed["n_actions"] += 1
    changed["orders"][5] = "select_unit unit 99"
    changed["observation"]["units"]["shape"][1] += 1
    lines = _diff(snapshot, changed)
    assert lines[0].startswith(f"N: Discrete({snapshot['n_actions']}) became")
    assert "order 5: 'select_unit unit 5' became 'select_unit unit 99'" in lines
    assert "observation 'units': shape changed" in lines


@pytest.mark.parametrize("version", R.VERSIONS)
def test_every_version_s_ids_are_registered_for_every_mission_and_procedural(version):
    assert R.VERSION == 4 and R.VERSIONS == (0, 1, 2, 3, 4)
    assert gymnasium.registry[R.ambush_id(version)].kwargs == {}
    assert gymnasium.registry[R.procedural_id(version)].kwargs == {"procedural": True}
    for m in ambush_env.list_missions():
        assert gymnasium.registry[R.env_id(m, version)].kwargs == {"mission": m}
    assert R.env_id("farm_assault") == "ambush/FarmAssault-v4"
    assert R.env_id("farm_assault", 3) == "ambush/FarmAssault-v3"
    assert R.env_id("farm_assault", 2) == "ambush/FarmAssault-v2"
    assert R.env_id("farm_assault", 0) == "ambush/FarmAssault-v0"
    assert R.env_id("farm_assault", 1) == "ambush/FarmAssault-v1"


def test_v2_and_v3_kept_the_spec_of_v1_and_v4_adds_two_decision_flags():
    """-v2 (hidden German vehicles) and -v3 (rules read against the seeds, the German seat's
    closed-tank rule) are behaviour changes, not new layouts: a policy trained on -v1 reads the
    observation and actions of -v2 and -v3 alike. -v4 (issue 25) keeps the action space and
    every feature, and appends two globals, ``mode_free_snap`` and ``mode_throw_out`` (the
    decisions that interrupt a turn, RULES.md §7, §9), after -v3's 42."""
    here = Path(__file__).resolve().parent
    specs = [
        json.loads((here / f"env_spec_v{v}.json").read_text(encoding="utf-8")) for v in (1, 2, 3, 4)
    ]
    assert [s.pop("version") for s in specs] == [1, 2, 3, 4]
    assert specs[0] == specs[1] == specs[2]
    v3, v4 = specs[2], specs[3]
    g3, g4 = v3["observation"].pop("globals"), v4["observation"].pop("globals")
    assert v3 == v4  # the actions and every other observation key unchanged
    assert g4["shape"] == [g3["shape"][0] + 2]
    assert g4["features"] == g3["features"] + [["mode_free_snap", 1], ["mode_throw_out", 1]]
    for key in ("low", "high"):
        if isinstance(g3.get(key), list):
            assert g4[key][: len(g3[key])] == g3[key]


def test_the_spec_is_the_same_for_every_mission_and_id(snapshot):
    """The golden is mission-independent: every shipped mission, Procedural and both versions
    build the same action space and observation space."""
    ids = [R.env_id(m) for m in ambush_env.list_missions()] + [R.procedural_id(), R.ambush_id(0)]
    base = gymnasium.make(R.ambush_id())
    for id_ in ids:
        env = gymnasium.make(id_)
        assert (
            env.action_space
            == base.action_space
            == gymnasium.spaces.Discrete(snapshot["n_actions"])
        )
        assert env.observation_space == base.observation_space, id_
        env.close()
