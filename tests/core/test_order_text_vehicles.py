"""Orders as text with vehicles (issue 23, done-when 4; docs/OBSERVATION.md "Orders as text",
docs/API.md "Positions and orders (binding)").

One rule for every order, vehicle targets included: ``parse_order`` reads an order's whole text,
and the text without its trailing parenthesis — ``(L7)``, ``(rear)``, ``(Panzer IV, H7)``,
``(box 0)`` — when that names one legal order now; when it names several legal orders it raises
``IllegalActionError`` naming every one of them by its whole text. Walked over every order of
positions with vehicles: a jeep with passengers, a Panzer IV seen from its front, side and rear
and from its own hex, seed 003's special attacks under ``rules="d100"``, a German tank and
German soldiers played by an agent, and tank_hunt / jeep_run / crossroads_ambush after random
play.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.errors import IllegalActionError
from ambush_env.core.model.orders import N_ORDERS
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.types import Side
from tests.core.test_order_text import _norm, _short  # one reading of the text rule

MISSION = "farm_assault"  # the road runs along row 8; clear ground in the west

#: orders that point at a vehicle (its slot, with an aspect, a charge or a location, or alone)
VEHICLE_KINDS = {
    K.FIRE_AIMED_VEHICLE,
    K.FIRE_SNAP_VEHICLE,
    K.GRENADE_INTO,
    K.CANNON_VEHICLE,
    K.BOW_MG_AIMED_VEHICLE,
    K.BOW_MG_SNAP_VEHICLE,
    K.COAX_MG_AIMED_VEHICLE,
    K.COAX_MG_SNAP_VEHICLE,
    K.CHARGE_UNDER,
    K.CHARGE_TREADS,
    K.MOLOTOV,
    K.FIRE_CALLED,
    K.RAM,
    K.RAM_OFF_ROAD,
    K.BOARD_VEHICLE,
    K.LOAD,
}
FAR_GERMAN = {"name": "G9", "role": "rifleman", "hex": "P2", "ar": "complete"}


def _rounds(
    units: list[dict],
    vehicles: list[dict],
    *,
    turn: str,
    rules: str = "standard",
    german: str = "cards",
    initiative: str = "us",
) -> Game:
    """A Rounds position on Farm Assault in which ``turn`` acts."""
    return Game.from_position(
        {
            "mission": MISSION,
            "rules": rules,
            "german": german,
            "phase": "rounds",
            "round": 3,
            "rounds_total": 3,
            "initiative": initiative,
            "turn": {"unit": turn},
            "units": units,
            "vehicles": vehicles,
        }
    )


def _panzer(hex_: str = "E7", facing: str = "S", **kw: Any) -> dict:
    return {
        "name": "V1",
        "type": "panzer_iv",
        "side": "german",
        "hex": hex_,
        "facing": facing,
        **kw,
    }


def _rifleman(name: str, hex_: str, **kw: Any) -> dict:
    return {"name": name, "hex": hex_, "ar": "1-turn", "aware": True, **kw}


def _panzer_seen(facing: str, at: str = "E10") -> Game:
    """US2 (with a grenade in box 0 and box 1) sees the Panzer IV at E7 facing ``facing``."""
    return _rounds(
        [
            _rifleman("US2", at, equipment=["grenade", "grenade"]),
            _rifleman("US1", "A1"),
            FAR_GERMAN,
        ],
        [_panzer(facing=facing)],
        turn="US2",
    )


def _jeep(turn: str) -> Game:
    """A jeep with its driver US1 and passengers US2 and US3, a Kübelwagen and a Panzer IV."""
    return _rounds(
        [
            _rifleman("US1", "A8", vehicle="V2"),
            _rifleman("US2", "A8", vehicle="V2"),
            _rifleman("US3", "A8", vehicle="V2"),
            _rifleman("US4", "B8"),
            FAR_GERMAN,
        ],
        [
            _panzer("E7", "SW"),
            {
                "name": "V2",
                "type": "jeep",
                "side": "us",
                "hex": "A8",
                "facing": "NE",
                "driver": "US1",
                "passengers": ["US2", "US3"],
            },
            {"name": "V3", "type": "kubelwagen", "side": "german", "hex": "C6", "facing": "SE"},
        ],
        turn=turn,
    )


def _d100_special() -> Game:
    """Seed 003's special attacks: US1 next to a Panzer IV with a satchel, a sticky grenade and
    a Molotov (rules d100)."""
    return _rounds(
        [
            _rifleman(
                "US1",
                "E8",
                PC=5,
                satchel_ready=True,
                equipment=["satchel", "molotov", "sticky_grenade"],
            ),
            _rifleman("US8", "A1"),
            FAR_GERMAN,
        ],
        [_panzer()],
        turn="US1",
        rules="d100",
    )


def _german_tank() -> Game:
    """Two-sided play: the German Panzer IV's own turn (an agent's), a US jeep in sight."""
    return _rounds(
        [
            {"name": "V1", "side": "german", "role": "tank", "vehicle": "V1", "ar": "1-turn"},
            _rifleman("US1", "C5", vehicle="V2"),
            _rifleman("US2", "E10"),
        ],
        [
            _panzer("C8", "N", cannon_loaded=True),
            {
                "name": "V2",
                "type": "jeep",
                "side": "us",
                "hex": "C5",
                "facing": "N",
                "driver": "US1",
            },
        ],
        turn="V1",
        german="agent",
        initiative="german",
    )


def _german_soldier() -> Game:
    """Two-sided play: a German rifleman's turn (an agent's), a US jeep and US soldiers near."""
    return _rounds(
        [
            {"name": "G1", "role": "rifleman", "hex": "E4", "ar": "1-turn", "aware": True},
            _rifleman("US1", "E7", vehicle="V1"),
            _rifleman("US2", "E7", vehicle="V1"),
            _rifleman("US3", "G6"),
        ],
        [
            {
                "name": "V1",
                "type": "jeep",
                "side": "us",
                "hex": "E7",
                "facing": "N",
                "driver": "US1",
                "passengers": ["US2"],
            }
        ],
        turn="G1",
        german="agent",
        initiative="german",
    )


@functools.cache
def _played(mission: str, rules: str, german: str, side: int | None = None) -> tuple[dict, ...]:
    """Positions of random legal play (seeds 0-2, 400 steps each) where some legal order
    points at a vehicle (and the acting unit is of ``side``, if given): the first two of each
    seed."""
    out: list[dict] = []
    for seed in range(3):
        g = Game(mission, seed=seed, rules=rules, german=german)
        rnd = random.Random(seed)
        found = 0
        for _ in range(400):
            if g.state.over or found == 2:
                break
            u = g.acting_unit()
            if (side is None or (u is not None and u.side == side)) and any(
                O.decode(a)[0] in VEHICLE_KINDS for a in g.legal_actions()
            ):
                out.append(g.position())
                found += 1
            g.step(rnd.choice(g.legal_actions()))
    return tuple(out)


def _mission_state(
    mission: str, rules: str, german: str, k: int = 0, side: int | None = None
) -> Game:
    positions = _played(mission, rules, german, side)
    assert len(positions) > k, f"random play of {mission} met no order at a vehicle"
    return Game.from_position(positions[k])


SITUATIONS: dict[str, Callable[[], Game]] = {
    "jeep driver": lambda: _jeep("US1"),
    "jeep passenger": lambda: _jeep("US2"),
    "soldier beside the jeep": lambda: _jeep("US4"),
    "Panzer IV front": lambda: _panzer_seen("S"),
    "Panzer IV side": lambda: _panzer_seen("NE"),
    "Panzer IV rear": lambda: _panzer_seen("N"),
    "Panzer IV own hex": lambda: _panzer_seen("NE", at="E7"),
    "d100 special attacks": _d100_special,
    "German tank agent": _german_tank,
    "German soldier agent": _german_soldier,
    "tank_hunt": lambda: _mission_state("tank_hunt", "standard", "cards"),
    "tank_hunt d100": lambda: _mission_state("tank_hunt", "d100", "cards", 1),
    "jeep_run": lambda: _mission_state("jeep_run", "standard", "cards", 1),
    "jeep_run German agent": lambda: _mission_state(
        "jeep_run", "standard", "agent", side=int(Side.GERMAN)
    ),
    "crossroads_ambush": lambda: _mission_state("crossroads_ambush", "standard", "cards", 1),
    "crossroads_ambush d100 agent": lambda: _mission_state("crossroads_ambush", "d100", "agent"),
}


@pytest.fixture(params=list(SITUATIONS), scope="module")
def game(request) -> Game:
    return SITUATIONS[request.param]()


# ------------------------------------------------------------------------------ the walk
def test_the_situation_has_orders_at_a_vehicle(game):
    """Each situation offers at least one order that points at a vehicle (else the walk
    below would check nothing of this issue)."""
    assert any(O.decode(a)[0] in VEHICLE_KINDS for a in game.legal_actions()), game.legal_orders()


def test_every_order_text_is_distinct_and_parses_back(game):
    """``parse_order(describe_action(i)) == i`` for all 1101 orders, and no two orders read
    alike (case and spacing aside)."""
    texts = [game.describe_action(i) for i in range(N_ORDERS)]
    dups = [t for t, n in Counter(_norm(t) for t in texts).items() if n > 1]
    assert dups == []
    bad = [(i, t) for i, t in enumerate(texts) if game.parse_order(t) != i]
    assert bad == []


def test_every_legal_order_without_its_parenthesis(game):
    """The text of each legal order without its trailing parenthesis parses to that order when
    no other legal order shares it; else ``IllegalActionError`` names every legal order that
    does, by its whole text."""
    legal = game.legal_actions()
    texts = {a: game.describe_action(a) for a in legal}
    by_short: dict[str, list[int]] = {}
    for a, t in texts.items():
        s = _short(t)
        if s is not None:
            by_short.setdefault(_norm(s), []).append(a)
    assert by_short, "no legal order here has a trailing parenthesis"
    checked = 0
    for a, t in texts.items():
        s = _short(t)
        if s is None:
            continue
        same = by_short[_norm(s)]
        if len(same) == 1:
            assert game.parse_order(s) == a, (t, s)
            assert game.parse_order(s.upper()) == a
        else:
            with pytest.raises(IllegalActionError) as e:
                game.parse_order(s)
            msg = str(e.value)
            assert repr(s) in msg
            for b in same:
                assert texts[b] in msg, (texts[b], msg)
        checked += 1
    assert checked


def test_every_vehicle_order_has_a_trailing_parenthesis(game):
    """Whatever only describes the vehicle an order points at is its trailing parenthesis: an
    aspect, or the vehicle's type and hex (a tank's weapons included)."""
    for a in range(N_ORDERS):
        if O.decode(a)[0] in VEHICLE_KINDS:
            assert _short(game.describe_action(a)) is not None, game.describe_action(a)


# ------------------------------------------------------------------------------ named cases
def test_play_fire_aimed_at_a_vehicle_without_the_aspect():
    """The issue's example: from E10 only the Panzer IV's side is in US2's line of fire
    (seed 000 p. 30), so ``"US2 fire aimed at V1"`` is that one order, and playing it is
    playing the whole text."""
    g = _panzer_seen("NE")
    assert [t for t in g.legal_orders() if "fire aimed at V1" in t] == [
        "US2 fire aimed at V1 (side)"
    ]
    assert g.parse_order("US2 fire aimed at V1") == g.parse_order("US2 fire aimed at V1 (side)")
    a, b = g.clone(), g.clone()
    a.force_rolls([5] * 12)
    b.force_rolls([5] * 12)
    assert a.play("US2 fire aimed at V1") == b.play("US2 fire aimed at V1 (side)")
    assert a.position() == b.position()


def test_in_the_vehicle_hex_the_aspect_must_be_given():
    """Seed 000 p. 30: an attacker in the vehicle's own hex chooses the aspect, so the short
    text names three legal orders and is refused naming each; the whole text plays."""
    g = _panzer_seen("NE", at="E7")
    with pytest.raises(IllegalActionError) as e:
        g.play("US2 fire aimed at V1")
    for aspect in O.ASPECTS:
        assert f"'US2 fire aimed at V1 ({aspect})'" in str(e.value)
    assert g.parse_order("US2 fire aimed at V1 (rear)") == O.encode(
        K.FIRE_AIMED_VEHICLE, O.ASPECTS.index("rear")
    )


def test_two_boxes_of_the_same_kind_must_be_told_apart():
    """``drop grenade`` with a grenade in box 0 and box 1 names both."""
    g = _panzer_seen("S")
    with pytest.raises(IllegalActionError, match=r"\(box 0\).*\(box 1\)"):
        g.parse_order("US2 drop grenade")
    assert g.parse_order("US2 drop grenade (box 1)") == O.encode(K.DROP, 1)


def test_a_short_text_of_no_legal_order_names_the_candidates_and_why():
    """No aspect is legal when the tank is out of sight: the short text names the three orders
    it could be, each with the reason it is refused, and play changes nothing."""
    g = _rounds(
        [_rifleman("US2", "E5"), _rifleman("US1", "A1"), FAR_GERMAN],
        [_panzer("H5", "S")],
        turn="US2",
    )
    assert not [t for t in g.legal_orders() if " at V1" in t]
    before = g.position()
    with pytest.raises(IllegalActionError) as e:
        g.play("US2 fire aimed at V1")
    msg = str(e.value)
    assert "none legal" in msg
    for aspect in O.ASPECTS:
        assert f"'US2 fire aimed at V1 ({aspect})'" in msg
    assert g.position() == before


def test_a_tank_cannon_at_a_vehicle_reads_like_a_soldier_fire():
    """A tank's weapons at a vehicle × aspect end in the aspect's parenthesis too, and the
    German tank agent may leave it out: the jeep at C5 faces away from the tank at C8."""
    g = _german_tank()
    assert [t for t in g.legal_orders() if "fire cannon at V2" in t] == [
        "V1 fire cannon at V2 (rear)"
    ]
    assert g.parse_order("V1 fire cannon at V2") == O.encode(
        K.CANNON_VEHICLE, 1 * len(O.ASPECTS) + O.ASPECTS.index("rear")
    )


def test_a_d100_special_attack_without_the_vehicle_description():
    g = _d100_special()
    under = O.encode(K.CHARGE_UNDER, 0 * len(O.CHARGES) + O.CHARGES.index("satchel"))
    assert g.describe_action(under) == "US1 set a satchel under V1 (Panzer IV, E7)"
    assert under in g.legal_actions()
    assert g.parse_order("US1 set a satchel under V1") == under
