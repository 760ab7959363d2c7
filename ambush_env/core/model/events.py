"""Owns the rule events: one dataclass per kind of event, with the rolls that decided it
(docs/ARCHITECTURE.md "Events"; docs/STYLE.md habit 5).

A rules function records what happened with ``m.emit(SomeEvent(...))`` on the one channel
(:meth:`ambush_env.core.rules.ctx.Match.emit`); :meth:`Game.step <ambush_env.core.play.game.Game.step>`
returns the events of the step in their dict form (``info["events"]``, the golden
playthroughs, ``ambush play``): ``{"type": <kind>, <field>: <value>, ...}``, JSON-able, in
field order. :func:`event_from_dict` reads that form back.

Names. A class is its kind in CamelCase (``fire_chain`` → :class:`FireChain`); its ``type``
class variable is the kind, which the class decorator derives from the name
(:func:`kind_of`; :class:`LandmarkAppears`, of kind ``landmark``, is the one class that sets
its ``type`` itself). A field is named as its key in the dict form, with one rule for
the two keys that cannot be attribute names: ``from`` (a Python keyword) is the attribute
``from_``, and ``rolls`` (the dict of labelled rolls; :meth:`Event.rolls` is the method every
event answers) is the attribute ``rolls_``.

Absent fields. Some keys appear only in some events of a kind (``move.charge`` only in
Rounds, ``fire.level`` only after a penetration roll) or are filled in as the rule is
resolved (``fire.result``). Their default is a private sentinel, not None (None is a value:
``event_roll.paragraph`` is None when the event table says nothing happens); a field that
still holds it is left out of :meth:`Event.to_dict`, exactly as the key was missing from the
dict the rules built before events were typed. Fields without a default are always present.

Rolls. Every die that decided an event is one of its fields: ``roll`` (one d10), a key ending
in ``_roll`` (``accident_check.table_roll``) or ``rolls`` (a dict label → d10, e.g. ``fire``'s
``{"jam": 3, "hit": 4, "damage": 7}``). :meth:`Event.rolls` gathers them into one flat dict
for any event (``{}`` when no die decided it).

Speed: events are made on every step of training, so every class has ``__slots__``, and its
:meth:`Event.to_dict` is written once when the class is made, from its fields (as
:mod:`dataclasses` writes ``__init__``): a dict literal of the fields always present, then
one test per field that may be absent (no ``dataclasses.asdict``, no loop per call).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform

from ambush_env.core.model.errors import DataError


class _Absent:
    """The value of a field an event does not have (left out of the dict form)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"

    def __reduce__(self) -> str:
        return "_ABSENT"  # copies and pickles stay the one sentinel


_ABSENT: Any = _Absent()

EVENT_TYPES: dict[str, type[Event]] = {}
"""Every kind of event: ``type`` string → its dataclass (filled as the classes are defined)."""

_E = TypeVar("_E", bound="Event")


@dataclass(slots=True)
class Event:
    """Base of the rule events (module docstring): ``type``, :meth:`to_dict`, :meth:`rolls`."""

    type: ClassVar[str]
    _keys: ClassVar[tuple[tuple[str, str], ...]] = ()  # (attribute, dict key), in order
    _attr_of: ClassVar[dict[str, str]] = {}  # dict key → attribute
    _required: ClassVar[tuple[str, ...]] = ()  # keys without a default
    _roll_keys: ClassVar[tuple[tuple[str, str], ...]] = ()  # the (attribute, key) of rolls

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"type": kind, key: value, ...}`` in field order, absent fields
        left out. Values are not copied (a ``modifiers`` dict is the event's own).

        Each kind has its own, written by :func:`_write_to_dict`; this one is the reference
        it must agree with."""
        d: dict[str, Any] = {"type": self.type}
        for attr, key in self._keys:
            v = getattr(self, attr)
            if v is not _ABSENT:
                d[key] = v
        return d

    def rolls(self) -> dict[str, int]:
        """The dice that decided this event, label → roll: a ``roll`` field as ``"roll"``, a
        ``*_roll`` field by its key, and the entries of a ``rolls`` dict (``{"hit": 4,
        "damage": 7}``); ``{}`` when none did."""
        out: dict[str, int] = {}
        for attr, key in self._roll_keys:
            v = getattr(self, attr)
            if v is _ABSENT:
                continue
            if key == "rolls":
                out.update(v)
            else:
                out[key] = v
        return out

    def has(self, key: str) -> bool:
        """Whether the field of dict key ``key`` is present (not absent) in this event."""
        attr = self._attr_of.get(key)
        return attr is not None and getattr(self, attr) is not _ABSENT


def _key(attr: str) -> str:
    return attr[:-1] if attr.endswith("_") else attr


def _write_to_dict(cls: type[Event]) -> Any:
    """The ``to_dict`` of one kind, written from its fields (the module docstring's "Speed"):
    the same result as :meth:`Event.to_dict`, in the same key order."""
    required = set(cls._required)
    literal = [f"'type': {cls.type!r}"]
    lines: list[str] = []
    for attr, key in cls._keys:  # attr: an identifier (a dataclass field); key: repr'd
        if key in required and not lines:
            literal.append(f"{key!r}: self.{attr}")
        elif key in required:
            lines.append(f"    d[{key!r}] = self.{attr}")
        else:
            lines.append(f"    v = self.{attr}\n    if v is not _ABSENT:\n        d[{key!r}] = v")
    src = (
        "def to_dict(self):\n    d = {"
        + ", ".join(literal)
        + "}\n"
        + "".join(line + "\n" for line in lines)
        + "    return d\n"
    )
    ns: dict[str, Any] = {"_ABSENT": _ABSENT}
    exec(compile(src, f"<{cls.__name__}.to_dict>", "exec"), ns)
    fn = ns["to_dict"]
    fn.__qualname__ = f"{cls.__name__}.to_dict"
    fn.__doc__ = Event.to_dict.__doc__
    return fn


def kind_of(class_name: str) -> str:
    """The kind an event class is named for: its CamelCase name in snake case (``FireChain``
    → ``"fire_chain"``, ``VP`` → ``"vp"``, ``D100Attack`` → ``"d100_attack"``)."""
    return _WORD_START.sub("_", class_name).lower()


_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass_transform(kw_only_default=True)
def _event(cls: type[_E]) -> type[_E]:
    """Make ``cls`` a slotted, keyword-only dataclass, cache its keys and register its kind
    (its ``type``: :func:`kind_of` its name, unless the class sets ``type`` itself).

    ``dataclass_transform`` tells type checkers that the decorated class is such a dataclass,
    so that a call with a wrong or missing field is a type error."""
    kind = cls.__dict__.get("type", kind_of(cls.__name__))
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__}'s 'type' class variable must name its kind")
    cls.type = kind
    if kind in EVENT_TYPES:
        raise TypeError(f"event kind {kind!r} is defined twice")
    cls = dataclass(slots=True, kw_only=True)(cls)
    fs = fields(cls)
    cls._keys = tuple((f.name, _key(f.name)) for f in fs)
    cls._attr_of = {k: a for a, k in cls._keys}
    cls._required = tuple(
        _key(f.name) for f in fs if f.default is MISSING and f.default_factory is MISSING
    )
    cls._roll_keys = tuple(
        (a, k) for a, k in cls._keys if k == "roll" or k == "rolls" or k.endswith("_roll")
    )
    # each kind's own to_dict, written once here (the module docstring's "Speed")
    cls.to_dict = _write_to_dict(cls)  # type: ignore[method-assign]
    EVENT_TYPES[kind] = cls
    return cls


def event_from_dict(d: Mapping[str, Any]) -> Event:
    """The event of a dict form (:meth:`Event.to_dict`); values are taken as they are.

    Raises:
        DataError: not a dict with a ``type``, an unknown kind, an unknown field of the kind,
            or a required field missing (the message names the kind and the field).
    """
    if not isinstance(d, Mapping):
        raise DataError("event", "type", f"an event is a dict with a 'type', not {d!r}")
    kind = d.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise DataError(
            "event", "type", f"unknown event type {kind!r}; known: {', '.join(sorted(EVENT_TYPES))}"
        )
    where = f"event {kind!r}"
    attr_of = cls._attr_of
    kw: dict[str, Any] = {}
    for key, v in d.items():
        if key == "type":
            continue
        attr = attr_of.get(key)
        if attr is None:
            raise DataError(
                where,
                str(key),
                f"unknown field of the {kind!r} event; its fields: {', '.join(attr_of) or 'none'}",
            )
        kw[attr] = v
    for key in cls._required:
        if attr_of[key] not in kw:
            raise DataError(where, key, f"missing: the {kind!r} event always has it")
    return cls(**kw)


# =============================================================================== the game
@_event
class Setup(Event):
    """The squad set up on the entry hexes at the start of a mission (RULES.md §15)."""

    mission: str
    squad: list[str]


@_event
class MissionEnd(Event):
    """The mission over and scored by the result thresholds (RULES.md §15)."""

    reason: str
    vp: int
    result: str


@_event
class VP(Event):
    """Victory points awarded, with why and the new total (RULES.md §15)."""

    amount: int
    reason: str
    total: int


@_event
class Message(Event):
    """A mission paragraph's ``message`` effect, or an effect not implemented yet (RULES.md §15)."""

    text: str


# ====================================================================== sequence of play
@_event
class PulseEnd(Event):
    """An Operations pulse over; ``pulse`` is the next one (RULES.md §5)."""

    pulse: int


@_event
class RoundsBegin(Event):
    """Operations give way to Rounds, and why (RULES.md §5)."""

    reason: str


@_event
class RoundStart(Event):
    """A Round starts: the initiative rolls and each unit's AR value (RULES.md §5)."""

    round: int
    rolls_: dict[str, int]  # {"US": d10, "German": d10}
    initiative: str
    ar: dict[str, int]  # unit name → side's roll + IN


@_event
class RoundEnd(Event):
    """A Round over: every marker Complete or Panic (RULES.md §5)."""

    round: int


@_event
class OperationsResume(Event):
    """No known German active: Operations resume (RULES.md §5; seed 002 p. 25)."""


@_event
class AwarenessCheck(Event):
    """An unaware soldier's PC check to become aware in Rounds (RULES.md §5 awareness)."""

    unit: str
    roll: int
    pc: int
    aware: bool


@_event
class EndTurn(Event):
    """A unit ends its turn (RULES.md §6)."""

    unit: str


@_event
class EndMove(Event):
    """A unit ends its move action (RULES.md §6)."""

    unit: str


@_event
class GiveTurn(Event):
    """A commander gives a soldier in Complete a turn (RULES.md §5 command)."""

    unit: str
    to: str


@_event
class MakeAware(Event):
    """A commander makes the soldiers within his CR aware (RULES.md §5 awareness)."""

    unit: str
    made_aware: list[str]


# ============================================================================ movement
@_event
class Move(Event):
    """A soldier moves one hex; ``charge`` (Rounds only) when into a known enemy's hex (RULES.md §6)."""

    unit: str
    to: str
    mp: int
    charge: bool = _ABSENT


@_event
class Stance(Event):
    """A stance change, ``from`` → ``to`` as Stance values (RULES.md §6)."""

    unit: str
    from_: int
    to: int


@_event
class Exit(Event):
    """A soldier leaves the map from an exit hex (RULES.md §15)."""

    unit: str
    hex: str


@_event
class CrewWeaponMoved(Event):
    """A prepared crew weapon moved with its gunner must be prepared again (RULES.md §6)."""

    unit: str
    weapon: str


# =========================================================== perception and paragraphs
@_event
class Contact(Event):
    """A German becomes a known contact (RULES.md §7)."""

    unit: str
    hex: str


@_event
class Sighting(Event):
    """A soldier's sighting PC check against a German placed in his sight (RULES.md §7)."""

    unit: str
    target: str
    roll: int
    pc: int
    passed: bool


@_event
class FreeSnapFire(Event):
    """The first soldier to pass a sighting takes a free snap fire (RULES.md §7)."""

    unit: str
    target: str


@_event
class FreeSnapDeclined(Event):
    """The first soldier to pass a sighting declines his free snap fire (RULES.md §7)."""

    unit: str
    target: str


@_event
class EventRoll(Event):
    """A roll on the mission's event table; ``paragraph`` None when nothing happens (RULES.md §7)."""

    hex: str
    unit: str
    roll: int
    paragraph: int | None


@_event
class Paragraph(Event):
    """A paragraph check finds a paragraph for the hex entered (RULES.md §7, §15)."""

    hex: str
    unit: str
    paragraph: int


@_event
class Place(Event):
    """A German placed by a paragraph; a hidden one shows only ``hidden`` (RULES.md §5, §15)."""

    unit: str
    card: str = _ABSENT
    hex: str = _ABSENT
    stance: str = _ABSENT
    aware: bool = _ABSENT
    hidden: bool = _ABSENT


@_event
class PlaceVehicle(Event):
    """A German vehicle and the men aboard placed (seed 000 p. 32); ``hidden``: nobody seen."""

    vehicle: str
    kind: str = _ABSENT
    hex: str = _ABSENT
    facing: str = _ABSENT
    aboard: list[str] = _ABSENT
    hidden: bool = _ABSENT


@_event
class ActivationCheck(Event):
    """A paragraph's activation check, a d10 at or below a number (RULES.md §15)."""

    roll: int
    at_or_below: int
    passed: bool


@_event
class PerceptionCheck(Event):
    """A paragraph's perception check, a d10 at or below PC + modifier (RULES.md §7, §15)."""

    unit: str
    roll: int
    pc: int
    passed: bool


@_event
class BoobyTrap(Event):
    """A boobytrap goes off on a soldier: a d10 on a damage row (RULES.md §15)."""

    unit: str
    row: str
    roll: int
    result: str
    hex: str = _ABSENT  # a mission's map trap (module traps)


@_event
class BoobyTrapCheck(Event):
    """The PC check at a map booby trap: a soldier at a known one, a car's driver (seed 000 p. 32)."""

    unit: str
    hex: str
    roll: int
    pc: int
    passed: bool  # the trap is disarmed / spotted: gone, no harm


@_event
class RandomEvent(Event):
    """A mission's random event check: a d10 on its event table each N pulses or Rounds (RULES.md §15)."""

    when: str  # "pulse 10" | "round 3"
    roll: int
    paragraph: int | None


@_event
class CommandOverride(Event):
    """A ``command`` effect: every US soldier in command through a mission Round (RULES.md §5, §15)."""

    rounds: int
    until_round: int


# ============================================================================ the cards
@_event
class GermanCard(Event):
    """A German rolls on his card's column for this turn's row of actions (RULES.md §14)."""

    unit: str
    card: str
    column: str
    roll: int
    actions: list[str]


@_event
class GermanSkip(Event):
    """A card action that cannot run is skipped (RULES.md §14)."""

    unit: str
    action: str


@_event
class Alert(Event):
    """A German shouts a warning: the Germans within the radius become aware (RULES.md §14)."""

    unit: str
    made_aware: list[str]


@_event
class Surrender(Event):
    """A German surrenders where he stands (RULES.md §10)."""

    unit: str
    hex: str


@_event
class HandOver(Event):
    """A guard hands his prisoners to a US soldier in his hex, free (seed 002 p. 25)."""

    unit: str
    to: str
    prisoners: list[str]


# ================================================================================= fire
@_event
class Prepare(Event):
    """A weapon (``weapon``) or a satchel charge (``item``) prepared (RULES.md §6, §8)."""

    unit: str
    weapon: str = _ABSENT
    item: str = _ABSENT


@_event
class Reload(Event):
    """A new clip or rocket loaded; ``prepared`` when loading readies it (RULES.md §8)."""

    unit: str
    weapon: str
    prepared: bool = _ABSENT


@_event
class ClearJam(Event):
    """A PC check to clear a jammed weapon (RULES.md §8)."""

    unit: str
    roll: int
    pc: int
    cleared: bool


@_event
class Fire(Event):
    """A shot at a soldier: jam check, hit roll, damage roll (RULES.md §8; seed 002 p. 26-27)."""

    shooter: str
    target: str
    weapon: str
    mode: str  # "aimed" | "snap"
    hex: str
    to_hit: int
    modifiers: dict[str, int]
    rolls_: dict[str, int]  # jam, hit, damage as they are rolled
    result: str = _ABSENT  # "jammed" | "miss" | a damage result, once resolved


@_event
class FireChain(Event):
    """Aimed automatic fire going on through the hex, while each roll is lower (seed 002 p. 27)."""

    shooter: str
    target: str
    rolls_: dict[str, int]
    result: str = _ABSENT  # a damage result or "stopped"


@_event
class Dry(Event):
    """The last shot of the clip fired: the weapon needs a new clip (RULES.md §8)."""

    unit: str
    weapon: str


@_event
class FireWall(Event):
    """A shot at a wall: jam, hit at +4, penetration roll (RULES.md §11; seed 002 p. 26-27)."""

    shooter: str
    target: str  # the hexside label, "D5/D6"
    hex: str
    weapon: str
    mode: str
    wall: str  # "stone" | "wood"
    to_hit: int
    modifiers: dict[str, int]
    rolls_: dict[str, int]
    level: str = _ABSENT  # the penetration level, after a hit
    result: str = _ABSENT  # "jammed" | "miss" | "none" | "pass" | "destroyed"


@_event
class BehindWall(Event):
    """A soldier behind a penetrated wall: hit by stance, then damage (RULES.md §11; seed 002 p. 26)."""

    shooter: str
    unit: str
    to_hit: int
    rolls_: dict[str, int]
    result: str = _ABSENT


@_event
class WallDestroyed(Event):
    """A wall destroyed: the hexside becomes clear (RULES.md §11; seed 002 p. 26)."""

    hexside: str


@_event
class Collapse(Event):
    """A building hex with two destroyed walls collapses into rubble (RULES.md §11; seed 002 p. 26)."""

    hex: str


# ============================================================================= grenades
@_event
class Throw(Event):
    """A grenade or satchel throw, a PC check; a failure scatters (RULES.md §9)."""

    unit: str
    item: str  # "grenade" | "satchel"
    target: str
    rolls_: dict[str, int]  # throw, and scatter on a failed throw
    need: int
    scatter: str = _ABSENT  # the scatter diagram's direction
    landing: str | None  # None: off the map


@_event
class ThrowOut(Event):
    """A soldier's PC check to throw a live enemy grenade back out (RULES.md §9)."""

    unit: str
    roll: int
    need: int
    success: bool


@_event
class ThrowOutDeclined(Event):
    """A US soldier leaves a live enemy grenade where it landed in his hex (RULES.md §9)."""

    unit: str
    hex: str


@_event
class Blast(Event):
    """A soldier in the hex where a grenade or satchel went off rolls damage (RULES.md §9)."""

    unit: str
    item: str
    inside: bool
    rolls_: dict[str, int]
    result: str


# ============================================================================== assault
@_event
class Assault(Event):
    """A Kill or Capture assault: a d10 at or below the chance (RULES.md §10)."""

    unit: str
    target: str
    kind: str  # "kill" | "capture"
    chance: int
    modifiers: dict[str, int]
    rolls_: dict[str, int]
    success: bool


@_event
class StrikeBack(Event):
    """A failed assault: the aware defender strikes back once (RULES.md §10)."""

    unit: str
    target: str
    chance: int
    modifiers: dict[str, int]
    rolls_: dict[str, int]
    success: bool


@_event
class AssaultDamage(Event):
    """A successful kill assault or strike back: a d10 on the assault row (RULES.md §10)."""

    unit: str
    rolls_: dict[str, int]
    result: str


@_event
class Captured(Event):
    """A successful Capture assault: the German is a prisoner of his guard (RULES.md §10; seed 002 p. 25)."""

    unit: str
    guard: str


# =============================================================================== damage
@_event
class Damage(Event):
    """A damage result applied; ``effect`` is what it did after escalation (seed 002 p. 26)."""

    unit: str
    result: str
    dropped: list[str] = _ABSENT  # items a wound made him drop
    effect: str = _ABSENT  # set once the result is applied


@_event
class DamageRoll(Event):
    """A d10 (plus modifier, clamped) on a damage row (seed 002 p. 26)."""

    unit: str
    row: str
    roll: int
    modifier: int
    result: str


@_event
class DragCheck(Event):
    """Dragging or loading an incapacitated soldier kills him on a 0 (seed 002 p. 26)."""

    unit: str
    roll: int
    killed: bool


# ======================================================================== carrying
@_event
class PickUp(Event):
    """An item picked up, ``from`` a soldier's box or weapon; ``ammo`` for a weapon (RULES.md §6)."""

    unit: str
    item: str
    from_: str = _ABSENT
    ammo: int = _ABSENT


@_event
class Drop(Event):
    """A port-box item laid down in the hex (RULES.md §6)."""

    unit: str
    item: str


@_event
class Drag(Event):
    """An incapacitated soldier or a body dragged one hex (seed 002 p. 26)."""

    unit: str
    dragged: str
    to: str


# ============================================================================ prisoners
@_event
class MovePrisoner(Event):
    """A guard and his prisoners move one hex together (seed 002 p. 25)."""

    unit: str
    prisoners: list[str]
    to: str
    mp: int


@_event
class PrisonerMarchedOff(Event):
    """A prisoner leaves the map with his guard and scores (seed 002 p. 25)."""

    unit: str
    guard: str


@_event
class Escape(Event):
    """A prisoner left without an active guard in his hex escapes (seed 002 p. 25)."""

    unit: str
    hex: str


@_event
class EscapedOffMap(Event):
    """An escaped prisoner out of every US soldier's sight leaves the map (seed 002 p. 25)."""

    unit: str
    hex: str


# ============================================================================= vehicles
@_event
class Board(Event):
    """A soldier gets into a vehicle, as driver or passenger (seed 000 p. 31)."""

    unit: str
    vehicle: str
    seat: str


@_event
class ChangeSeat(Event):
    """A soldier aboard moves to the driver's seat (seed 000 p. 31)."""

    unit: str
    vehicle: str
    seat: str


@_event
class LeaveVehicle(Event):
    """A soldier gets out into the vehicle's hex (seed 000 p. 31)."""

    unit: str
    vehicle: str


@_event
class VehicleCaptured(Event):
    """A German car with no active German aboard taken by the other side (seed 002 p. 27)."""

    unit: str
    vehicle: str
    hex: str


@_event
class Load(Event):
    """An incapacitated soldier or a body loaded into a vehicle (seed 002 p. 26)."""

    unit: str
    loaded: str
    vehicle: str


@_event
class Drive(Event):
    """A vehicle driven one hex, forward or backwards (seed 000 p. 30)."""

    unit: str
    vehicle: str
    to: str
    mp: int
    backwards: bool


@_event
class EndDrive(Event):
    """A driver ends his drive (seed 000 p. 30)."""

    unit: str


@_event
class SharpTurn(Event):
    """A second running-over try at a hex: a sharp turn for 1 MP (seed 000 p. 33)."""

    vehicle: str
    mp: int


@_event
class Fast(Event):
    """A drive exceeds the slow MPA: one Accident Check (seed 000 p. 30)."""

    vehicle: str
    mp_spent: int


@_event
class VehicleExit(Event):
    """A vehicle driven off the map from an exit hex with everyone aboard (RULES.md §15)."""

    vehicle: str
    hex: str


@_event
class AccidentCheck(Event):
    """An Accident Check (d10 at or below DS), then the Accident Table on a failure (seed 000 p. 32)."""

    vehicle: str
    why: str
    roll: int = _ABSENT  # not rolled for an automatic accident
    need: int = _ABSENT
    table_roll: int = _ABSENT  # the Accident Table's d10 after a failure
    result: str = _ABSENT  # "passed" or the table's result


@_event
class Skid(Event):
    """An Accident Table skid one hex ahead (RULES.md §12; seed 000 p. 32)."""

    vehicle: str
    to: str


@_event
class VehicleStops(Event):
    """A vehicle stops: the drive under way ends (seed 000 p. 31-32)."""

    vehicle: str


@_event
class VehicleDisabled(Event):
    """A vehicle disabled for the mission; its occupants placed prone outside (seed 000 p. 31)."""

    vehicle: str
    why: str
    placed_out: list[str]


@_event
class BoobyTrapCar(Event):
    """A boobytrap goes off under a car: disabled, occupants panicked (seed 000 p. 32)."""

    vehicle: str


@_event
class RunOverCheck(Event):
    """The Accident Check that decides whether soldiers on foot are run over (seed 000 p. 33)."""

    vehicle: str
    against: str  # "friends" | "enemies"
    roll: int
    need: int
    passed: bool


@_event
class Dodge(Event):
    """An active soldier's PC check to dodge a vehicle running him over (seed 000 p. 33)."""

    unit: str
    roll: int
    pc: int
    dodged: bool


@_event
class RunOver(Event):
    """A soldier run over by a vehicle (seed 000 p. 33)."""

    vehicle: str
    unit: str


@_event
class FireVehicle(Event):
    """A shot at a vehicle: jam, hit, Hit Chart, then damage or penetration (seed 000 p. 31)."""

    shooter: str
    vehicle: str
    weapon: str
    mode: str
    hex: str
    to_hit: int
    modifiers: dict[str, int]
    rolls_: dict[str, int]  # jam, hit, hit_chart, damage | penetration
    aspect: str = _ABSENT  # front | side | rear: the side hit (seed 000 p. 30)
    part: str = _ABSENT  # the Hit Chart's part, after a hit
    level: str = _ABSENT  # the penetration level (a tyre or body hit)
    result: str = _ABSENT
    unit: str = _ABSENT  # the occupant hit (a driver or passenger hit)


@_event
class CrewLost(Event):
    """A tank loses crewmen to a hit on its exposed crew (seed 000 p. 31)."""

    vehicle: str
    lost: int
    crew: int  # active crew left
    why: str


@_event
class CrewDamageRoll(Event):
    """An exposed crewman's roll on Bazooka Inside, as prone, after a bazooka hit (seed 000 p. 31)."""

    vehicle: str
    row: str
    roll: int
    modifier: int
    result: str


@_event
class WeaponsLost(Event):
    """A penetrated turret or mount puts a tank's weapons out of action (seed 000 p. 31)."""

    vehicle: str
    part: str
    weapons: list[str]


@_event
class Immobilised(Event):
    """A penetrated tread immobilises a tank; it is not disabled (seed 000 p. 31)."""

    vehicle: str


@_event
class TyreShot(Event):
    """A tyre hit penetrated: the car has a shot tyre (seed 000 p. 31)."""

    vehicle: str


@_event
class BlastVehicle(Event):
    """A grenade against a car (Grenade Outside) or a satchel against a tank (Satchel Outside) in its hex (seed 000 p. 32)."""

    vehicle: str
    item: str
    rolls_: dict[str, int]
    result: str


@_event
class TankTask(Event):
    """A tank spends Crew Points on a task (seed 000 p. 33): the task, its cost, what is left."""

    vehicle: str
    task: str
    cp: int
    cp_left: int


@_event
class LoadCannon(Event):
    """A tank's crew loads the cannon (seed 000 p. 33)."""

    vehicle: str


@_event
class OpenClose(Event):
    """A tank opens or closes its hatches (seed 000 p. 30, 33): ``closed`` is the new state."""

    vehicle: str
    closed: bool


@_event
class ThrowInto(Event):
    """A grenade thrown into a vehicle, a PC check; a failure scatters (seed 000 p. 32-33)."""

    unit: str
    vehicle: str
    hex: str
    rolls_: dict[str, int]  # throw, and scatter on a failed throw
    need: int
    inside: bool  # it went off inside the vehicle
    scatter: str = _ABSENT  # "in the hex", a Direction, or a diagram's direction
    landing: str | None = _ABSENT  # a failed throw's hex (None: off the map)


@_event
class ThrowClear(Event):
    """The thrower reacts for sure to his grenade dropped beside the vehicle: thrown clear (seed 000 p. 33)."""

    unit: str
    hex: str


@_event
class MinefieldLaid(Event):
    """A ``minefield`` effect makes hexes minefields for the rest of the mission (seed 000 p. 32)."""

    hexes: list[str]
    kind: str  # "anti_personnel" | "anti_tank"
    known: bool


@_event
class LandmarkAppears(Event):
    """A ``landmark`` effect puts a landmark on a hex; a blocking one blocks sight (RULES.md §3, §15)."""

    type: ClassVar[str] = "landmark"
    hex: str
    name: str
    blocking: bool


@_event
class ArtilleryStrike(Event):
    """A ``strike`` effect of kind artillery falls on hexes; who is there rolls on a damage row (RULES.md §15)."""

    hexes: list[str]
    row: str


@_event
class StrafingRun(Event):
    """A ``strike`` effect of kind strafing sweeps hexes; who is there rolls on a damage row (RULES.md §15)."""

    hexes: list[str]
    row: str


@_event
class StrikeHit(Event):
    """A soldier in a struck hex rolls on the strike's damage row, prone at the blast modifier (RULES.md §15)."""

    unit: str
    hex: str
    kind: str  # "artillery" | "strafing"
    roll: int
    modifier: int
    result: str


@_event
class StrikeVehicle(Event):
    """A vehicle in a struck hex rolls on the strike's damage row: a car or tank may be disabled (RULES.md §15, seed 000 p. 32)."""

    vehicle: str
    hex: str
    kind: str
    roll: int
    result: str
    disabled: bool


@_event
class MineSoldier(Event):
    """A US soldier on foot sets off a mine in an anti-personnel minefield (seed 000 p. 32 ⚙)."""

    unit: str
    hex: str
    row: str


@_event
class MineVehicle(Event):
    """A vehicle enters a minefield: a car disabled, a tank immobilised or unharmed (seed 000 p. 32)."""

    vehicle: str
    hex: str
    kind: str  # "anti_personnel" | "anti_tank"
    result: str  # "disabled" | "immobilised" | "ignored"


@_event
class BoobyTrapTank(Event):
    """A tank in a boobytrapped hex: no harm, the boobytrap is eliminated (seed 000 p. 32)."""

    vehicle: str
    hex: str


@_event
class ForcedCrater(Event):
    """A vehicle forced into a crater: 3 MPs and an immediate Accident Check (seed 000 p. 31)."""

    vehicle: str
    to: str
    mp: int


# ----------------------------------------------------------------- the d100 module (seed 003)
@_event
class D100Attack(Event):
    """An attack on a vehicle under d100 (seed 003 steps 3-6): damage, Armor value, what got through."""

    vehicle: str
    source: str  # weapon class or charge ("tank_gun", "satchel")
    kind: str  # damage kind (d100.yaml: damage_kinds)
    armour: int  # the Armor value met (after halving, before loss)
    damage: list[int]  # per hit, after impale, halving and multipliers
    dice: list[list[int]]  # per hit, the dice rolled
    penetrated: list[int]  # per penetrating hit, damage minus armour
    impale: bool = False
    armour_loss: int = _ABSENT  # armour shot away by this attack (cumulative kinds)
    location_roll: int = _ABSENT  # the d100 on the hit-location table
    component: str = _ABSENT
    hp: int = _ABSENT  # Base HP left


@_event
class D100Component(Event):
    """A hit-location component destroyed or absent under d100 (seed 003 hit-location tables)."""

    vehicle: str
    component: str
    effect: str
    result: str  # what the engine did ("immobilised", "on fire", ...)
    rolls_: dict[str, int] = _ABSENT


@_event
class D100Occupant(Event):
    """An occupant hit under d100: the damage and the seed 002 level it maps to."""

    vehicle: str
    unit: str  # a soldier's name, or "crew" for a tank crewman
    damage: int
    result: str  # none | wound | incapacitated | kill
    luck: int = _ABSENT  # the Luck roll (when fewer hits than targets)
    need: int = _ABSENT  # his Luck


@_event
class D100Trouble(Event):
    """A roll on the Vehicle Trouble Table ⚙, d10 + bonus (seed 003 names it; RULES.md §13)."""

    vehicle: str
    roll: int
    bonus: int
    result: str
    why: str


@_event
class D100TakeWheel(Event):
    """A rider takes the wheel (DEX check, Drive Auto −20 %) before Trouble (seed 003; RULES.md §13)."""

    vehicle: str
    unit: str  # the rider who tries ("crew" in a tank); "" if nobody
    result: str  # "took the wheel" | "failed" | "nobody to take it"
    roll: int = _ABSENT  # his d100
    need: int = _ABSENT  # his Drive Auto at the row's percent


@_event
class D100Destroyed(Event):
    """A vehicle's Base HP reached zero, or it exploded (seed 003 step 7)."""

    vehicle: str
    why: str


@_event
class D100Fire(Event):
    """A burning vehicle rolls on the Vehicle Fire Table (seed 003), one Round (or pulse)."""

    vehicle: str
    roll: int
    result: str


@_event
class D100Countdown(Event):
    """A fuel-tank or overheating countdown runs one Round down (seed 003 "4d6+4 rnds")."""

    vehicle: str
    what: str  # "stop" | "overheat"
    rounds: int  # Rounds left (0: it ran out now)


@_event
class D100Ignite(Event):
    """A Molotov or a flamethrower on a vehicle: Luck, then its fire against the armour (seed 003)."""

    vehicle: str
    source: str
    luck: int
    need: int
    result: str  # "on fire" | "burns out on the armour" | "no fire"
    damage: int = _ABSENT
    armour: int = _ABSENT


@_event
class D100Special(Event):
    """A special attack's roll (seed 003 SPECIAL ATTACKS, RAMMING): a called throw or a skill check."""

    unit: str
    vehicle: str
    attack: str  # charge_under | charge_treads | molotov | ram | ...
    roll: int
    need: int
    success: bool
    item: str = _ABSENT
