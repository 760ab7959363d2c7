"""Damage to soldiers: panic, wounded, incapacitated, killed (seed 002 p. 26; RULES.md §11).

The game is a minimal fake (state, tables, dice, emit, in_rounds): damage needs no board.
"""

from __future__ import annotations

import pytest
from engine_helpers import dict_forms

from ambush_env.core.model.dice import Dice
from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.events import Event
from ambush_env.core.model.state import GameState, Unit
from ambush_env.core.model.types import ARSpace, Side, Stance, Status
from ambush_env.core.rules import damage
from ambush_env.core.world.tables import load_tables

# the rules return typed events; these tests read their dict forms (info["events"])
apply_damage = dict_forms(damage.apply_damage)
drag_check = dict_forms(damage.drag_check)
roll_damage = dict_forms(damage.roll_damage)


class FakeGame:
    def __init__(self, *, in_rounds: bool = True, rolls=()) -> None:
        self.state = GameState()
        self.tables = load_tables()
        self.dice = Dice.scripted(rolls)
        self.in_rounds = in_rounds
        self.log: list[Event] = []

    def emit(self, event: Event) -> None:
        self.log.append(event)

    @property
    def events(self) -> list[dict]:
        """The dict forms of the events emitted so far."""
        return [e.to_dict() for e in self.log]

    def add(self, **kw) -> Unit:
        u = Unit(
            uid=len(self.state.units),
            side=int(kw.pop("side", Side.US)),
            name=kw.pop("name", f"U{len(self.state.units)}"),
            role="",
            hex=kw.pop("hex", 7),
            stance=int(Stance.STANDING),
            ar=int(kw.pop("ar", ARSpace.ONE_TURN)),
            MV=5,
        )
        for k, v in kw.items():
            setattr(u, k, v)
        self.state.units.append(u)
        return u


# ------------------------------------------------------------------------------------------
# Panic
# ------------------------------------------------------------------------------------------
def test_panic_in_rounds():
    """seed 002 p. 26: a Panic result in a Round sends the marker to the Panic space."""
    g = FakeGame()
    u = g.add(ar=ARSpace.TWO_TURN)
    ev = apply_damage(g, u.uid, "panic")
    assert u.ar == ARSpace.PANIC and u.panicked
    assert (
        ev == g.events == [{"type": "damage", "unit": "U0", "result": "panic", "effect": "panic"}]
    )


def test_panic_in_operations_has_no_effect():
    """seed 002 p. 26: in Operations a Panic result has no effect."""
    g = FakeGame(in_rounds=False)
    u = g.add(ar=ARSpace.NONE)
    ev = apply_damage(g, u.uid, "panic")
    assert u.ar == ARSpace.NONE and not u.panicked
    assert ev[0]["effect"] == "no_effect"


@pytest.mark.parametrize("status", [Status.INCAPACITATED, Status.CAPTURED])
def test_panic_does_nothing_to_the_inactive(status):
    """seed 002 p. 25-26: incapacitated soldiers and prisoners are Inactive: nothing to panic."""
    g = FakeGame()
    u = g.add(status=int(status), ar=ARSpace.INACTIVE)
    assert apply_damage(g, u.uid, "panic")[0]["effect"] == "no_effect"
    assert u.ar == ARSpace.INACTIVE and not u.panicked


# ------------------------------------------------------------------------------------------
# Wounded
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "before,after",
    [
        (ARSpace.TWO_TURN, ARSpace.COMPLETE),
        (ARSpace.ONE_TURN, ARSpace.COMPLETE),
        (ARSpace.COMPLETE, ARSpace.COMPLETE),
        (ARSpace.PANIC, ARSpace.PANIC),
        (ARSpace.NONE, ARSpace.NONE),
    ],
)
def test_wound_marker_to_complete(before, after):
    """seed 002 p. 26: wounded, he loses his remaining turns (marker to Complete); a panicked
    soldier stays in Panic; outside the AR track (Operations) nothing moves."""
    g = FakeGame()
    u = g.add(ar=before)
    apply_damage(g, u.uid, "wound")
    assert u.ar == after


def test_wound_falls_prone_mv_two_one_port_box():
    """seed 002 p. 26: he falls prone at once; Movement 2; Port Boxes one, excess dropped."""
    g = FakeGame()
    u = g.add(equipment=["grenade", "clip_m1_garand", "satchel"], stance=int(Stance.CROUCHING))
    ev = apply_damage(g, u.uid, "wound")
    assert u.wounded and u.stance == Stance.PRONE and u.status == Status.ACTIVE
    assert u.MV == 2 and u.port_boxes == 1
    assert u.equipment == ["grenade"]
    assert g.state.items["7"] == ["clip_m1_garand", "satchel"]
    assert ev[0]["dropped"] == ["clip_m1_garand", "satchel"] and ev[0]["effect"] == "wound"


def test_wound_keeps_what_fits_one_port_box_by_boxes():
    """seed 002 p. 26: Port Boxes reduced to one: a satchel charge fills two (weapons.yaml), so
    a wounded man cannot keep it; he keeps the oldest item that fits."""
    g = FakeGame()
    u = g.add(equipment=["satchel", "grenade", "clip_m1_garand"])
    ev = apply_damage(g, u.uid, "wound")
    assert u.equipment == ["grenade"]
    assert ev[0]["dropped"] == ["satchel", "clip_m1_garand"]
    g2 = FakeGame()
    u2 = g2.add(equipment=["grenade", "satchel"])
    apply_damage(g2, u2.uid, "wound")
    assert u2.equipment == ["grenade"] and g2.state.items["7"] == ["satchel"]


def test_wound_drops_onto_items_already_there():
    """seed 002 p. 26: dropped items join what lies in the hex."""
    g = FakeGame()
    g.state.items["7"] = ["grenade"]
    u = g.add(equipment=["clip_bar", "clip_bar"])
    apply_damage(g, u.uid, "wound")
    assert g.state.items["7"] == ["grenade", "clip_bar"]


def test_wound_never_raises_a_lower_mv():
    """seed 002 p. 26 (our reading): Movement is reduced to 2, never raised."""
    g = FakeGame()
    u = g.add(MV=1)
    apply_damage(g, u.uid, "wound")
    assert u.MV == 1


@pytest.mark.parametrize("second", ["wound", "incapacitated"])
def test_second_wound_or_incapacitation_incapacitates(second):
    """seed 002 p. 26: a second wound or an incapacitation result incapacitates him."""
    g = FakeGame()
    u = g.add()
    apply_damage(g, u.uid, "wound")
    ev = apply_damage(g, u.uid, second)
    assert ev[0]["effect"] == "incapacitated"
    assert u.status == Status.INCAPACITATED and u.ar == ARSpace.INACTIVE


def test_panic_on_the_wounded_still_panics():
    """seed 002 p. 26: only wounds and incapacitations escalate."""
    g = FakeGame()
    u = g.add()
    apply_damage(g, u.uid, "wound")
    u.ar = int(ARSpace.ONE_TURN)  # next Round
    apply_damage(g, u.uid, "panic")
    assert u.ar == ARSpace.PANIC and u.status == Status.ACTIVE


# ------------------------------------------------------------------------------------------
# Incapacitated and killed
# ------------------------------------------------------------------------------------------
def test_incapacitated():
    """seed 002 p. 26: prone, Incapacitated marker, AR marker to Inactive."""
    g = FakeGame()
    u = g.add(ar=ARSpace.TWO_TURN)
    ev = apply_damage(g, u.uid, "incapacitated")
    assert u.stance == Stance.PRONE and u.status == Status.INCAPACITATED
    assert u.ar == ARSpace.INACTIVE and not u.wounded
    assert ev[0]["effect"] == "incapacitated"


@pytest.mark.parametrize("again", ["wound", "incapacitated"])
def test_further_wound_kills_the_incapacitated(again):
    """seed 002 p. 26: a further wound or incapacitation kills him."""
    g = FakeGame()
    u = g.add()
    apply_damage(g, u.uid, "incapacitated")
    assert apply_damage(g, u.uid, again)[0]["effect"] == "kill"
    assert u.status == Status.KILLED


def test_killed():
    """seed 002 p. 26: AR marker to Inactive, Killed marker."""
    g = FakeGame()
    u = g.add()
    apply_damage(g, u.uid, "kill")
    assert u.status == Status.KILLED and u.ar == ARSpace.INACTIVE


def test_the_dead_take_no_more_damage():
    """seed 002 p. 26: a body is beyond harm; no event."""
    g = FakeGame()
    u = g.add(status=int(Status.KILLED), ar=ARSpace.INACTIVE)
    assert apply_damage(g, u.uid, "wound") == [] and not u.wounded


def test_none_result_changes_nothing():
    """seed 002 p. 26: a none result has no effect and makes no event."""
    g = FakeGame()
    u = g.add()
    assert apply_damage(g, u.uid, "none") == [] and g.events == []
    assert u.status == Status.ACTIVE


def test_unknown_result_is_refused():
    """seed 002 p. 26: the five results are the only ones."""
    g = FakeGame()
    u = g.add()
    with pytest.raises(AmbushError, match="scratch"):
        apply_damage(g, u.uid, "scratch")


# ------------------------------------------------------------------------------------------
# Prisoners
# ------------------------------------------------------------------------------------------
def test_prisoner_is_wounded_and_stays_captured():
    """seed 002 p. 25: automatic fire or a grenade into the hex hurts prisoner and guard alike."""
    g = FakeGame()
    p = g.add(
        side=Side.GERMAN,
        status=int(Status.CAPTURED),
        ar=ARSpace.INACTIVE,
        guard=3,
        stance=int(Stance.PRONE),
    )
    apply_damage(g, p.uid, "wound")
    assert p.wounded and p.status == Status.CAPTURED and p.ar == ARSpace.INACTIVE and p.guard == 3


@pytest.mark.parametrize(
    "result,status", [("incapacitated", Status.INCAPACITATED), ("kill", Status.KILLED)]
)
def test_prisoner_incapacitated_or_killed_is_no_longer_guarded(result, status):
    """seed 002 p. 25-26: an incapacitated or killed prisoner is no longer a prisoner."""
    g = FakeGame()
    p = g.add(side=Side.GERMAN, status=int(Status.CAPTURED), ar=ARSpace.INACTIVE, guard=3)
    apply_damage(g, p.uid, result)
    assert p.status == status and p.guard == -1


# ------------------------------------------------------------------------------------------
# Rolling on a row; dragging
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "roll,modifier,result",
    [
        (9, 0, "kill"),
        (9, -2, "incapacitated"),
        (1, -2, "none"),
        (0, 5, "wound"),
        (8, 5, "kill"),
    ],
)
def test_roll_damage_with_modifier(roll, modifier, result):
    """RULES.md §9: prone soldiers roll at −2 on the grenade rows (clamped to 0-9; seed 002
    p. 26 results)."""
    g = FakeGame(rolls=[roll])
    u = g.add()
    r, res, ev = roll_damage(g, u.uid, "grenade_outside", modifier=modifier)
    assert (r, res) == (roll, result)
    assert ev[0] == {
        "type": "damage_roll",
        "unit": "U0",
        "row": "grenade_outside",
        "roll": roll,
        "modifier": modifier,
        "result": result,
    }


@pytest.mark.parametrize("roll,killed", [(0, True), (1, False)])
def test_drag_kills_on_a_zero(roll, killed):
    """seed 002 p. 26: dragging or loading an incapacitated soldier kills him on a 0."""
    g = FakeGame(rolls=[roll])
    u = g.add(status=int(Status.INCAPACITATED), ar=ARSpace.INACTIVE)
    ev = drag_check(g, u.uid)
    assert ev[0] == {"type": "drag_check", "unit": "U0", "roll": roll, "killed": killed}
    assert (u.status == Status.KILLED) == killed


def test_drag_check_only_for_the_incapacitated():
    """seed 002 p. 26: bodies (and the active) make no drag check."""
    g = FakeGame(rolls=[0])
    u = g.add(status=int(Status.KILLED))
    with pytest.raises(AmbushError, match="not incapacitated"):
        drag_check(g, u.uid)
