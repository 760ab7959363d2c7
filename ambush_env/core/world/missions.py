"""Owns missions: schema and loader (RULES.md §15). The engine executes what is described here.

A mission is one YAML file, ``ambush_env/data/missions/<id>.yaml``; its id is the file stem
(docs/API.md: the env id is its CamelCase form). The reference mission is named in data
(``rules.yaml: reference_mission``); :func:`list_missions` puts it first.

Mission file schema::

    id: farm_assault                 # = file stem
    title: Farm Assault
    briefing: "..."                  # shown to the player
    map: farm_assault                # data/maps/<map>.yaml
    squad: standard                  # configs/squads/<squad>.yaml
    deck_default: regular            # data/cards/<deck>.yaml; placed cards must be in it
    us_entry: [A7, A8, A8, A9]       # soldier k (squad order) starts on us_entry[k % len];
                                     # setting up is not "entering": no paragraph check
    exit_hexes: [R1, ..., R14]       # map-edge hexes from which US soldiers may leave
    objective: {name: farm, hexes: [L6, L7]}   # kind: take (default) | hold | capture |
                                     #   demolish; see "Objective kinds" below
    time_limit: {operations_pulses: 60, rounds: 36}   # ⚙ either count reached ends the mission
    triggers:                        # hex trigger table (RULES.md §7); hexes on the map
      G8: 10                         # a paragraph, fires once
      C5: EVENT                      # a roll on the event table, fires once
      K9: {paragraph: 20, repeat: true}
    paragraphs:                      # numbered scripted content: a list of effects each
      10: [{message: "..."}, {activation: {at_or_below: 5, then: 11, else: 12}}]
    events:                          # d10 event table covering 0-9 exactly once
      - {rolls: [0, 4], paragraph: null}   # nothing happens
      - {rolls: [5, 9], paragraph: 30}
    vp: {german_killed: 2, german_incapacitated: 2,   # a capture scores german_killed
         us_killed: -3, us_incapacitated: -2, us_captured: -3, us_wounded: -1,
         exit_per_soldier: 2, objective_taken: 10}   # exits: after_objective (default)
    results: {decisive_win: 26, win: 18, draw: 10}    # VP at or above; below draw: loss
    rules: {all_in_command_rounds: 2, sight_cap: null, blocking_landmarks: [],
            heavy_weapons_from_cars: false, anti_tank_mines: false,
            event_every_pulses: 0, event_every_rounds: 0}   # ⚙ random event checks: a d10
                                     # on the event table at the end of every N-th pulse /
                                     # Round of the mission (0: never; RULES.md §15)
    booby_traps:                     # optional: map booby traps (module traps; seed 000 p. 32)
      K6: grenade_outside            #   a row (grenade/satchel_outside/inside), known: true
      L7: {row: satchel_inside, known: false}   # unknown: goes off with no check; known:
                                     #   the soldier's PC check disarms it; once each
    us_vehicles: []                  # optional: [{vehicle: jeep, hex: A8, facing: NE}]
    german_vehicles: []              # optional: [{vehicle: kubelwagen, hex: K7, facing: S}]
                                     #   parked and unmanned (capturable, seed 002 p. 27), or
                                     #   crewed: a car's driver: <card id>, passengers: [<card
                                     #   ids>], aware, route: [hexes] (for drive toward route);
                                     #   a tank's card: <tank card id of vehicle_cards.yaml>
                                     #   (default: the first of its type), crew: 1..5 (the
                                     #   type's), aware, route. Seats: driver + passengers <=
                                     #   the car's occupants (seed 000 p. 31)

Paragraph effects (a one-key mapping; the scalar form is shown where one exists). They run in
order; a *branching* effect (``activation``, ``perception``, ``if_flag``, ``goto``,
``end_mission``) hands control on and must be the paragraph's last effect. A branch target of
``null`` means "nothing more happens".

====================  ============================================================================
effect                arguments
====================  ============================================================================
``place``             ``card`` (a card id of the deck), ``hex``, ``stance`` (standing),
                      ``aware`` (false), ``route`` (waypoint hexes for ``move toward route``)
``vp``                ``amount`` (non-zero int), ``reason`` — award VP now
``activation``        ``at_or_below`` (-1..9), ``then``, ``else`` — a d10 roll
``perception``        ``at_or_below_pc: true``, ``modifier``, ``then``, ``else`` — a PC check of
                      the soldier who triggered the paragraph (RULES.md §7)
``message``           text (scalar)
``set``               flag (scalar) — set a mission condition
``if_flag``           ``flag``, ``then``, ``else``; the flag must be set by some ``set``
``goto``              paragraph (scalar)
``booby_trap``        ``row``: grenade_outside | grenade_inside | satchel_outside | satchel_inside —
                      the soldier who triggered it rolls on that damage row; a car driven in
                      is disabled and those aboard panic (seed 000 p. 32)
``minefield``         ``hexes``, ``kind``: anti_personnel | anti_tank, ``known`` (true) — the
                      hexes are minefields for the rest of the mission (module ``mines``)
``landmark``          ``hex``, ``name``, ``blocking`` (false) — a landmark appears on ``hex`` for
                      the rest of the mission (``state.landmarks``; one a hex, a later one
                      replaces it ⚙); a blocking one blocks sight from then on like the
                      ``rules.blocking_landmarks`` of the map (RULES.md §3, seed 004 p. 18)
``strike``            ``kind``: artillery | strafing, ``hexes``, ``row`` (a damage row id of
                      damage.yaml), ``line`` (false; true: ``hexes`` are the two ends of a
                      straight run) — every soldier in the hexes, both sides ⚙, rolls on the
                      row (prone −2, strafing misses those inside buildings); a car is disabled
                      on incapacitated/kill, a tank by artillery on kill (module ``strikes``)
``command``           rounds (scalar, 1..99) — every US soldier is in command for the next N
                      Rounds (RULES.md §5), the Round under way counting as the first ⚙
``end_mission``       reason (scalar) — the mission ends now and is scored
``place_vehicle``     ``vehicle`` (a German type of vehicles.yaml), ``hex``, ``facing`` (N),
                      ``driver`` / ``passengers`` (card ids; a car), ``card`` / ``crew`` (a
                      tank), ``aware`` (false), ``route`` — a German vehicle and its men arrive
                      (seed 000 p. 32); sighted, or beginning Rounds when aware, as ``place``
====================  ============================================================================

Objective kinds (``objective.kind``; each scores ``objective_taken`` once and sets the flag
``objective_taken``; module ``scoring``):

============  ==================================================================================
kind          taken when
============  ==================================================================================
``take``      (the default) at the end of any turn, an active US soldier stands in an objective
              hex while no active German is in the objective's zone (``clear_radius``)
``hold``      ⚙ at the end of the mission (time limit or an ``end_mission`` effect), the same
              test: the hexes must be held then, not merely once reached
``capture``   ``card: <card id>`` (required; some ``place`` effect or German car crew puts that
              card on the map): a German of that card is captured (RULES.md §10); with
              ``march_off: true`` ⚙ only once a guard marches him off by an exit hex (seed 002
              p. 25; ``prisoner_marched_off`` VP is scored as well). The hexes are where he is
              expected (the agents' goal); a German of that card killed spoils the objective
``demolish``  ``charges: N`` (1-9, default 1) satchel charges have gone off in an objective
              hex, or with ``reach: 1`` also in a hex next to one (RULES.md §9; thrown, or
              scattered there, or set against a wall of an objective building hex); each
              is counted once (flags ``<name> charge k``) ⚙ the
              destroyed target stays passable: the engine's map has no fallen span, and the
              mission scores the demolition only. ⚙ In Operations a US soldier carrying a
              satchel charge next to such a hex may set one there (prepare it, then throw
              it at that hex: ``core/play/legal.py`` ``_demolition_orders``; RULES.md §5 has no
              throw in Operations, so a target with its garrison dead could never fall);
              as fire it begins Rounds while a German on the map is active
============  ==================================================================================

Scoring (⚙ values in the ``vp`` block): German and US casualties score by each soldier's final
state (a wounded man later killed scores only ``us_killed``); ``exit_per_soldier`` for each US
soldier who leaves by an exit hex; ``objective_taken`` once, by the objective's kind (above);
``vp`` effects add their amount. Cars (optional keys, 0 by default) score by their final state:
``vehicle_exited`` per US vehicle driven off by an exit hex, ``us_car_lost`` per US car
disabled, ``german_car_disabled`` per German car disabled (a captured car is a US one, seed 002
p. 27). The result band is the highest of ``results`` whose threshold the
final VP reaches, else loss.

Checks: references (paragraphs from triggers, events and effects; flags tested by ``if_flag``;
cards in ``deck_default``; every hex on the map, exit hexes on its edge; a capture objective's
card placed by the mission; fields of another objective kind refused); every paragraph is
reachable; the paragraph graph has no cycle (a mission always finishes its paragraphs); d10
tables cover 0-9 exactly once; VP signs (gains >= 0, losses <= 0); thresholds descending.
Every failure is a :class:`~ambush_env.core.model.errors.DataError` naming the file and the field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from ambush_env.core.model.errors import DataError
from ambush_env.core.model.types import TERRAIN_NAMES, DirectionName, Result
from ambush_env.core.world.cards import (
    FieldProblem,
    Ident,
    Rolls,
    StanceName,
    TaggedForm,
    check_d10_cover,
    list_decks,
    load_deck,
    scalar_fields,
    tagged,
)
from ambush_env.core.world.data import DataKind, Frozen, data_path, not_zero, read_yaml
from ambush_env.core.world.hexgrid import parse_label
from ambush_env.core.world.squads import list_squads

if TYPE_CHECKING:
    from ambush_env.core.world.board import Board

MISSIONS_DIR = data_path("missions")
MAPS_DIR = data_path("maps")

Label = Annotated[str, Field(pattern=r"^[A-Z]+[1-9][0-9]*$")]
"""A hex label, column letters + row number: ``Q16`` (RULES.md §2)."""

ParagraphRef = Annotated[int, Field(ge=1)]
Branch = ParagraphRef | None


# --------------------------------------------------------------------------------------------
# paragraph effects
# --------------------------------------------------------------------------------------------


class EffectForm(TaggedForm):
    """Base of the paragraph effects: tagged by ``effect``; ``model_dump()`` gives the YAML form."""

    tag_field: ClassVar[str] = "effect"


class Place(EffectForm):
    """``place``: a German from the deck appears (RULES.md §15)."""

    effect: Literal["place"] = "place"
    card: Ident
    hex: Label
    stance: StanceName = "standing"
    aware: bool = False
    route: tuple[Label, ...] = ()


class AwardVP(EffectForm):
    """``vp``: award (or take away) victory points."""

    effect: Literal["vp"] = "vp"
    amount: Annotated[int, not_zero("a vp effect awards a non-zero amount")]
    reason: str = Field(min_length=1)


class Activation(EffectForm):
    """``activation``: a d10 roll at or below ``at_or_below`` goes to ``then``, else ``else``."""

    effect: Literal["activation"] = "activation"
    at_or_below: int = Field(ge=-1, le=9)
    then: Branch = None
    else_: Branch = Field(default=None, alias="else")


class Perception(EffectForm):
    """``perception``: a PC check (RULES.md §7) of the triggering soldier, ± ``modifier``."""

    effect: Literal["perception"] = "perception"
    at_or_below_pc: Literal[True] = True
    modifier: int = Field(default=0, ge=-5, le=5)
    then: Branch = None
    else_: Branch = Field(default=None, alias="else")


class Message(EffectForm):
    """``message``: text shown to the player."""

    scalar_field: ClassVar[str | None] = "text"

    effect: Literal["message"] = "message"
    text: str = Field(min_length=1)


class SetFlag(EffectForm):
    """``set``: set a mission condition (flags live in ``GameState.flags``)."""

    scalar_field: ClassVar[str | None] = "flag"

    effect: Literal["set"] = "set"
    flag: Ident


class IfFlag(EffectForm):
    """``if_flag``: go to ``then`` when ``flag`` is set, else to ``else``."""

    effect: Literal["if_flag"] = "if_flag"
    flag: Ident
    then: Branch = None
    else_: Branch = Field(default=None, alias="else")


class Goto(EffectForm):
    """``goto``: continue with another paragraph."""

    scalar_field: ClassVar[str | None] = "paragraph"

    effect: Literal["goto"] = "goto"
    paragraph: ParagraphRef


DamageRowName = Literal["grenade_outside", "grenade_inside", "satchel_outside", "satchel_inside"]


class BoobyTrap(EffectForm):
    """``booby_trap``: the trap goes off: the soldier who triggered it rolls on damage row
    ``row`` (RULES.md §9); a car driven in is disabled and those aboard panic (seed 000
    p. 32; the driver's Perception Check is a ``perception`` effect before this one)."""

    effect: Literal["booby_trap"] = "booby_trap"
    row: DamageRowName


class MapBoobyTrap(Frozen):
    """A booby trap waiting in a hex (mission ``booby_traps``; seed 000 p. 32; module
    ``traps``): the damage ``row`` it goes off on, and whether the briefing tells the US of
    it (``known``: a soldier entering it first makes a PC check to disarm it ⚙)."""

    row: DamageRowName = "grenade_outside"
    known: bool = True


def _map_trap(v: Any) -> Any:
    return {"row": v} if isinstance(v, str) else v


class Command(EffectForm):
    """``command``: every US soldier counts as in command for the next ``rounds`` Rounds
    (RULES.md §5: "all in command for Rounds 1-2" as a paragraph says it), the Round under
    way counting as the first ⚙."""

    scalar_field: ClassVar[str | None] = "rounds"

    effect: Literal["command"] = "command"
    rounds: int = Field(ge=1, le=99)


class Minefield(EffectForm):
    """``minefield``: ``hexes`` are minefields of ``kind`` for the rest of the mission, known
    to the US unless ``known`` is false (module ``mines``; seed 000 p. 32)."""

    effect: Literal["minefield"] = "minefield"
    hexes: tuple[Label, ...] = Field(min_length=1)
    kind: Literal["anti_personnel", "anti_tank"] = "anti_personnel"
    known: bool = True


class Landmark(EffectForm):
    """``landmark``: a landmark appears at ``hex`` for the rest of the mission; a ``blocking``
    one blocks sight like a mission's ``blocking_landmarks`` (RULES.md §3; seed 004 p. 18)."""

    effect: Literal["landmark"] = "landmark"
    hex: Label
    name: str = Field(min_length=1)
    blocking: bool = False


class Strike(EffectForm):
    """``strike``: an artillery strike or a strafing run on ``hexes`` (RULES.md §15; module
    ``strikes``): every soldier there, of both sides ⚙, rolls on damage row ``row`` (a row id
    of ``damage.yaml``); cars and tanks as the module says. ``line: true``: ``hexes`` are
    the two ends of a straight run, and every hex of the line between them is struck."""

    effect: Literal["strike"] = "strike"
    kind: Literal["artillery", "strafing"]
    hexes: tuple[Label, ...] = Field(min_length=1)
    row: Ident
    line: bool = False

    @field_validator("row")
    @classmethod
    def _damage_row(cls, v: str) -> str:
        from ambush_env.core.world.tables import load_tables

        rows = load_tables().soldier_row
        if v not in rows:
            raise ValueError(f"no damage row {v!r} in damage.yaml (rows: {', '.join(rows)})")
        return v

    @model_validator(mode="after")
    def _line_ends(self) -> Strike:
        if self.line and len(self.hexes) != 2:
            raise FieldProblem(
                "hexes", f"a line strike names its two ends, got {len(self.hexes)} hexes"
            )
        return self


class EndMission(EffectForm):
    """``end_mission``: the mission ends now and is scored."""

    scalar_field: ClassVar[str | None] = "reason"

    effect: Literal["end_mission"] = "end_mission"
    reason: str = Field(min_length=1)


class VehicleCrew(Frozen):
    """Who is in a German vehicle (seed 000 p. 31-32): a car's driver and passengers (card ids
    of the deck), or a tank's card (``vehicle_cards.yaml``) and active crew; their awareness
    and the route their ``drive``/``move toward route`` follows."""

    driver: Ident | None = None
    passengers: tuple[Ident, ...] = ()
    card: Ident | None = None
    crew: int | None = Field(default=None, ge=1, le=8)
    aware: bool = False
    route: tuple[Label, ...] = ()

    @property
    def crewed(self) -> bool:
        return bool(self.driver or self.passengers or self.card or self.crew)


class PlaceVehicle(EffectForm, VehicleCrew):
    """``place_vehicle``: a German vehicle and its men arrive (seed 000 p. 32)."""

    effect: Literal["place_vehicle"] = "place_vehicle"
    vehicle: Ident
    hex: Label
    facing: DirectionName = "N"


EFFECT_MODELS: tuple[type[EffectForm], ...] = (
    Place,
    AwardVP,
    Activation,
    Perception,
    Message,
    SetFlag,
    IfFlag,
    Goto,
    BoobyTrap,
    Minefield,
    Landmark,
    Strike,
    EndMission,
    PlaceVehicle,
    Command,
)
EFFECT_SCALARS: dict[str, str | None] = scalar_fields(EFFECT_MODELS)
"""Every effect name → the field its scalar form fills (None: mapping only)."""

BRANCHING = (Activation, Perception, IfFlag, Goto, EndMission)

Effect = Annotated[
    Annotated[
        (
            Place
            | AwardVP
            | Activation
            | Perception
            | Message
            | SetFlag
            | IfFlag
            | Goto
            | BoobyTrap
            | Minefield
            | Landmark
            | Strike
            | EndMission
            | PlaceVehicle
            | Command
        ),
        Field(discriminator="effect"),
    ],
    BeforeValidator(tagged("effect", EFFECT_SCALARS, "effect")),
]
"""One paragraph effect (RULES.md §15), tagged by ``effect``."""

Paragraph = tuple[Effect, ...]


def effect_targets(effect: Any) -> list[tuple[str, int]]:
    """The paragraphs an effect may go to, as ``(argument name, paragraph)`` pairs."""
    if isinstance(effect, Goto):
        return [("paragraph", effect.paragraph)]
    if isinstance(effect, (Activation, Perception, IfFlag)):
        return [(k, p) for k, p in (("then", effect.then), ("else", effect.else_)) if p is not None]
    return []


# --------------------------------------------------------------------------------------------
# the mission
# --------------------------------------------------------------------------------------------


def _trigger(v: Any) -> Any:
    if isinstance(v, (int, str)) and not isinstance(v, bool):
        v = {"paragraph": v}
    if isinstance(v, dict):
        p = v.get("paragraph")
        if isinstance(p, bool) or not (isinstance(p, int) or p == "EVENT"):
            raise FieldProblem(
                "paragraph", f"a trigger is a paragraph number or 'EVENT', got {p!r}"
            )
    return v


class Trigger(Frozen):
    """One entry of the hex trigger table (RULES.md §7): a paragraph or ``"EVENT"``."""

    paragraph: ParagraphRef | Literal["EVENT"]
    repeat: bool = False

    @property
    def is_event(self) -> bool:
        return self.paragraph == "EVENT"


class EventRow(Frozen):
    """A row of the d10 event table: ``paragraph`` None means nothing happens."""

    rolls: Rolls
    paragraph: Branch = None


ObjectiveKind = Literal["take", "hold", "capture", "demolish"]
OBJECTIVE_KINDS: tuple[str, ...] = ("take", "hold", "capture", "demolish")
_KIND_FIELDS = {"capture": ("card", "march_off"), "demolish": ("charges", "reach")}


class Objective(Frozen):
    """The mission objective (RULES.md §15): a name, its hexes and its ``kind`` (how it is
    scored; the module docstring's "Objective kinds"). ``card`` and ``march_off`` belong to
    ``capture`` only, ``charges`` and ``reach`` to ``demolish`` only.

    Raises (on validation): :class:`FieldProblem` naming ``card`` (a capture without one),
    or the field given to a kind it does not belong to."""

    name: str = Field(min_length=1)
    hexes: tuple[Label, ...] = Field(min_length=1)
    kind: ObjectiveKind = "take"
    card: Ident | None = None  # capture: the German card id to be taken prisoner
    march_off: bool = False  # capture: scored only when he is marched off by an exit hex
    charges: int = Field(default=1, ge=1, le=9)  # demolish: satchel blasts that destroy it
    reach: int = Field(default=0, ge=0, le=1)  # demolish: 0 in the hexes, 1 also beside them
    # ⚙ the zone the garrison holds (issue 25): a take / hold objective is held only while no
    # active German stands within this many hexes of an objective hex, and a US soldier who
    # first enters the zone alerts every German in it (module scoring, RULES.md §15)
    clear_radius: int = Field(default=2, ge=0, le=4)
    # ⚙ the paragraph that places the objective's garrison, run (once more, its own flags
    # guarding it) when a US soldier first enters the zone: the position is held whichever
    # way the squad comes at it (issue 25)
    garrison: ParagraphRef | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> Objective:
        if self.kind == "capture" and self.card is None:
            raise FieldProblem("card", "a capture objective names the German card to capture")
        defaults = {"card": None, "march_off": False, "charges": 1, "reach": 0}
        for f, default in defaults.items():
            if getattr(self, f) != default and f not in _KIND_FIELDS.get(self.kind, ()):
                owner = next(k for k, fs in _KIND_FIELDS.items() if f in fs)
                raise FieldProblem(
                    f, f"{f!r} belongs to a {owner} objective, not to a {self.kind} one"
                )
        return self


class TimeLimit(Frozen):
    """⚙ time limits: the mission ends when either count is reached (RULES.md §15)."""

    operations_pulses: int = Field(ge=1)
    rounds: int = Field(ge=1)


Gain = Annotated[int, Field(ge=0)]
"""A VP schedule's award for what the US gains (>= 0)."""
Loss = Annotated[int, Field(le=0)]
"""A VP schedule's award for what the US loses (<= 0)."""


ExitsPay = Literal["after_objective", "always"]
"""When leaving the map scores (``vp.exits``, RULES.md §15 ⚙)."""


class VPSchedule(Frozen):
    """⚙ victory points (RULES.md §15). Gains are >= 0, losses <= 0.

    Two rules keep the score on the mission (issue 25), checked here and in
    :class:`Mission`: a capture is worth what a kill is worth (:attr:`german_captured` is
    ``german_killed``; a file may not give it), and leaving pays only once the objective is
    taken (``exits: after_objective``, the default) unless leaving is itself the objective
    (``exits: always``). What a prisoner is for beyond that, ``prisoner_marched_off``, only a
    capture objective may pay (:class:`Mission`).

    Raises (on validation): :class:`FieldProblem` on ``german_captured`` when a file gives it.
    """

    exits: ExitsPay = "after_objective"
    # vehicles other than tanks (seed 000), by each vehicle's final state; optional
    vehicle_exited: Gain = 0  # a US vehicle driven off by an exit hex
    us_car_lost: Loss = 0  # a US car disabled
    german_car_disabled: Gain = 0  # a German car disabled
    german_killed: Gain
    german_incapacitated: Gain
    us_killed: Loss
    us_incapacitated: Loss
    us_captured: Loss
    us_wounded: Loss
    exit_per_soldier: Gain
    objective_taken: Gain
    prisoner_marched_off: Gain = 0  # a guard exits with a prisoner
    # tanks (seed 000 p. 31) ⚙, optional: a German tank disabled / immobilised (not disabled),
    # a US tank disabled / immobilised; counted from the vehicle's state, once each
    german_tank_disabled: Gain = 0
    german_tank_immobilised: Gain = 0
    us_tank_disabled: Loss = 0
    us_tank_immobilised: Loss = 0

    @model_validator(mode="before")
    @classmethod
    def _capture_is_a_kill(cls, data: Any) -> Any:
        if isinstance(data, dict) and "german_captured" in data:
            raise FieldProblem(
                "german_captured",
                "a capture is worth what a kill is worth (german_killed): remove the key; what "
                "a prisoner is for beyond that is prisoner_marched_off (a capture objective)",
            )
        return data

    @property
    def german_captured(self) -> int:
        """VP of a German taken prisoner: ``german_killed`` (a capture is worth a kill)."""
        return self.german_killed


class Results(Frozen):
    """VP thresholds of the result bands (RULES.md §15), strictly descending."""

    decisive_win: int
    win: int
    draw: int

    @model_validator(mode="after")
    def _descending(self) -> Results:
        if not self.decisive_win > self.win:
            raise FieldProblem(
                "win", f"must be below decisive_win ({self.decisive_win}), got {self.win}"
            )
        if not self.win > self.draw:
            raise FieldProblem("draw", f"must be below win ({self.win}), got {self.draw}")
        return self

    def band(self, vp: int) -> Result:
        """The result for a final VP total."""
        if vp >= self.decisive_win:
            return Result.DECISIVE_WIN
        if vp >= self.win:
            return Result.WIN
        if vp >= self.draw:
            return Result.DRAW
        return Result.LOSS


class MissionRules(Frozen):
    """Mission-specific rules (RULES.md §15).

    Attributes:
        all_in_command_rounds: every US soldier counts as in command for Rounds 1..N (§5).
        sight_cap: maximum sight range in hexes (night), None for none (§3).
        blocking_landmarks: hexes whose landmarks block sight (§3).
        heavy_weapons_from_cars: the briefing allows bazookas, grenades, satchel charges and
            crew weapons from a car (seed 000 p. 32: "unless a briefing says so"); passengers
            only, the driver keeps his one snap fire ⚙.
        anti_tank_mines: every minefield of the mission is anti-tank (seed 000 p. 32, mission
            7's exception: they go off only under a tank, immobilising it; a car is disabled).
        event_every_pulses: ⚙ a random event check (a d10 on the mission's event table, as
            an ``EVENT`` trigger rolls) at the end of every N-th Operations pulse; 0: never.
        event_every_rounds: ⚙ the same at the end of every N-th Round of the mission (its
            Round count, ``rounds_total``); 0: never.
    """

    all_in_command_rounds: int = Field(default=0, ge=0)
    sight_cap: int | None = Field(default=None, ge=1)
    blocking_landmarks: tuple[Label, ...] = ()
    heavy_weapons_from_cars: bool = False
    anti_tank_mines: bool = False
    event_every_pulses: int = Field(default=0, ge=0)
    event_every_rounds: int = Field(default=0, ge=0)


class USVehicle(Frozen):
    """A US vehicle at the start (RULES.md §15, seed 000): id of vehicles.yaml, hex, facing."""

    vehicle: Ident
    hex: Label
    facing: DirectionName = "N"


class GermanVehicle(USVehicle, VehicleCrew):
    """A German vehicle at the start (seed 000 p. 31-32): a car parked and unmanned (seed 002
    p. 27: the first US soldier to get in captures it), or crewed (:class:`VehicleCrew`); a
    tank always has its crew ⚙ and its own unit (module ``tanks``)."""


def _listed(field: str, labels: Iterable[str]) -> Iterator[tuple[str, str]]:
    """The hex labels of a list ``field`` as ``(field.<i>, label)`` pairs (:meth:`Mission.labels`)."""
    for i, h in enumerate(labels):
        yield f"{field}.{i}", h


class Mission(Frozen):
    """A validated mission (RULES.md §15). Field meanings: the module docstring."""

    id: Ident
    title: str = Field(min_length=1)
    briefing: str = Field(min_length=1)
    map: Ident
    squad: Ident
    deck_default: Ident = "regular"
    us_entry: tuple[Label, ...] = Field(min_length=1)
    exit_hexes: tuple[Label, ...] = Field(min_length=1)
    objective: Objective
    time_limit: TimeLimit
    triggers: dict[Label, Annotated[Trigger, BeforeValidator(_trigger)]]
    paragraphs: dict[ParagraphRef, Annotated[Paragraph, Field(min_length=1)]]
    events: tuple[EventRow, ...]
    vp: VPSchedule
    results: Results
    rules: MissionRules = MissionRules()
    us_vehicles: tuple[USVehicle, ...] = ()
    german_vehicles: tuple[GermanVehicle, ...] = ()
    booby_traps: dict[Label, Annotated[MapBoobyTrap, BeforeValidator(_map_trap)]] = {}

    @field_validator("events")
    @classmethod
    def _events_cover(cls, rows: tuple[EventRow, ...]) -> tuple[EventRow, ...]:
        check_d10_cover(rows, "event table")
        return rows

    @model_validator(mode="after")
    def _script(self) -> Mission:
        paras = self.paragraphs

        def need(field: str, p: int) -> None:
            if p not in paras:
                raise FieldProblem(field, f"paragraph {p} does not exist")

        referenced: set[int] = set()
        for label, trig in self.triggers.items():
            if trig.paragraph != "EVENT":  # not trig.is_event, spelt so that the type narrows
                need(f"triggers.{label}.paragraph", trig.paragraph)
                referenced.add(trig.paragraph)
        for i, row in enumerate(self.events):
            if row.paragraph is not None:
                need(f"events.{i}.paragraph", row.paragraph)
                referenced.add(row.paragraph)
        flags_set = {e.flag for para in paras.values() for e in para if isinstance(e, SetFlag)}
        for n, para in paras.items():
            for j, eff in enumerate(para):
                where = f"paragraphs.{n}.{j}.{eff.effect}"
                if isinstance(eff, BRANCHING) and j != len(para) - 1:
                    raise FieldProblem(
                        where, f"{eff.effect} hands control on: it must be the last effect"
                    )
                for arg, p in effect_targets(eff):
                    need(f"{where}.{arg}", p)
                    if p == n:
                        raise FieldProblem(f"{where}.{arg}", f"paragraph {n} goes to itself")
                    referenced.add(p)
                if isinstance(eff, IfFlag) and eff.flag not in flags_set:
                    raise FieldProblem(
                        f"{where}.flag", f"flag {eff.flag!r} is never set by a 'set' effect"
                    )
        obj = self.objective
        if obj.garrison is not None:
            need("objective.garrison", obj.garrison)
            referenced.add(obj.garrison)
        exits = set(self.exit_hexes)
        for i, h in enumerate(self.us_entry):
            if h in exits:  # stepping off where you came in is no mission (issue 25)
                raise FieldProblem(f"us_entry.{i}", f"entry hex {h} is an exit hex too")
        if self.vp.prisoner_marched_off and obj.kind != "capture":
            raise FieldProblem(
                "vp.prisoner_marched_off",
                "only a capture objective pays for a prisoner marched off (else a capture is "
                "worth a kill, no more)",
            )
        if obj.kind == "capture" and obj.card not in {c for _, c in self.card_refs()}:
            raise FieldProblem(
                "objective.card",
                f"no place effect or German car crew puts a {obj.card!r} on the map",
            )
        for n in paras:
            if n not in referenced:
                raise FieldProblem(
                    f"paragraphs.{n}",
                    f"paragraph {n} is never reached (no trigger, event or effect)",
                )
        self._check_acyclic()
        return self

    def _check_acyclic(self) -> None:
        """Paragraph chains must end: the goto/branch graph has no cycle."""
        state: dict[int, int] = {}  # 1 = on the stack, 2 = done

        def visit(n: int, path: list[int]) -> None:
            state[n] = 1
            for j, eff in enumerate(self.paragraphs[n]):
                for arg, p in effect_targets(eff):
                    if state.get(p) == 1:
                        cycle = " -> ".join(str(x) for x in [*path[path.index(p) :], p])
                        raise FieldProblem(
                            f"paragraphs.{n}.{j}.{eff.effect}.{arg}", f"paragraph cycle {cycle}"
                        )
                    if p not in state:
                        visit(p, [*path, p])
            state[n] = 2

        for n in sorted(self.paragraphs):
            if n not in state:
                visit(n, [n])

    # -- queries used by the engine ------------------------------------------------------------
    def paragraph(self, n: int) -> Paragraph:
        """The effects of paragraph ``n``. Raises KeyError."""
        return self.paragraphs[n]

    def trigger_at(self, label: str) -> Trigger | None:
        """The trigger of hex ``label``, None when the hex has none."""
        return self.triggers.get(label)

    def event_paragraph(self, roll: int) -> int | None:
        """The paragraph the event table gives for a d10 ``roll`` (None: nothing happens)."""
        for row in self.events:
            if row.rolls[0] <= roll <= row.rolls[1]:
                return row.paragraph
        raise KeyError(f"mission {self.id}: event table has no row for roll {roll}")

    def placements(self) -> list[tuple[int, Place]]:
        """Every ``place`` effect as ``(paragraph, effect)``: the German forces, where they wait."""
        return [
            (n, e)
            for n, para in sorted(self.paragraphs.items())
            for e in para
            if isinstance(e, Place)
        ]

    def result_for(self, vp: int) -> Result:
        """The result band of a final VP total (RULES.md §15)."""
        return self.results.band(vp)

    def labels(self) -> Iterator[tuple[str, str]]:
        """Every hex label the mission names, as ``(field, label)`` pairs."""
        yield from _listed("us_entry", self.us_entry)
        yield from _listed("exit_hexes", self.exit_hexes)
        yield from _listed("objective.hexes", self.objective.hexes)
        for h in self.triggers:
            yield f"triggers.{h}", h
        for n, para in self.paragraphs.items():
            for j, eff in enumerate(para):
                where = f"paragraphs.{n}.{j}.{eff.effect}"
                if isinstance(eff, (Place, Landmark)):
                    yield f"{where}.hex", eff.hex
                if isinstance(eff, (Place, PlaceVehicle)):
                    yield from _listed(f"{where}.route", eff.route)
                if isinstance(eff, PlaceVehicle):
                    yield f"{where}.hex", eff.hex
                if isinstance(eff, (Minefield, Strike)):
                    yield from _listed(f"{where}.hexes", eff.hexes)
        yield from _listed("rules.blocking_landmarks", self.rules.blocking_landmarks)
        for h in self.booby_traps:
            yield f"booby_traps.{h}", h
        for i, v in enumerate(self.us_vehicles):
            yield f"us_vehicles.{i}.hex", v.hex
        for i, v in enumerate(self.german_vehicles):
            yield f"german_vehicles.{i}.hex", v.hex
            yield from _listed(f"german_vehicles.{i}.route", v.route)

    def card_refs(self) -> Iterator[tuple[str, str]]:
        """Every German card id the mission puts on the map, as ``(field, card id)`` pairs:
        ``place`` cards and the drivers and passengers of German cars."""
        for n, para in self.paragraphs.items():
            for j, eff in enumerate(para):
                if isinstance(eff, Place):
                    yield f"paragraphs.{n}.{j}.place.card", eff.card
        crews = [(f"german_vehicles.{i}", v) for i, v in enumerate(self.german_vehicles)]
        for where, v in crews + self.vehicle_placements():
            if v.driver is not None:
                yield f"{where}.driver", v.driver
            for k, c in enumerate(v.passengers):
                yield f"{where}.passengers.{k}", c

    def vehicle_placements(self) -> list[tuple[str, Any]]:
        """Every German vehicle a paragraph places, as ``(field, effect)``."""
        return [
            (f"paragraphs.{n}.{j}.place_vehicle", e)
            for n, para in sorted(self.paragraphs.items())
            for j, e in enumerate(para)
            if isinstance(e, PlaceVehicle)
        ]


# --------------------------------------------------------------------------------------------
# checks against the map, the deck and the squad
# --------------------------------------------------------------------------------------------


def map_size(name: str, source: str | Path = "<mission>") -> tuple[int, int]:
    """``(columns, rows)`` of the shipped map ``data/maps/<name>.yaml``.

    Raises:
        DataError: no such map (naming ``source`` and field ``map``), or a map file without
            positive integer ``columns`` / ``rows``.
    """
    path = MAPS_DIR / f"{name}.yaml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in MAPS_DIR.glob("*.yaml"))) or "(none)"
        raise DataError(source, "map", f"no map {name!r} in data/maps (known: {known})")
    raw = read_yaml(path)
    dims = []
    for key in ("columns", "rows"):
        v = raw.get(key) if isinstance(raw, dict) else None
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise DataError(path, key, f"a positive integer is required, got {v!r}")
        dims.append(v)
    return dims[0], dims[1]


def check_references(
    mission: Mission,
    source: str | Path,
    *,
    columns: int | None = None,
    rows: int | None = None,
    card_ids: tuple[str, ...] | None = None,
    board: Board | None = None,
) -> None:
    """Check a mission against its map, deck and squad (RULES.md §15).

    Args:
        mission: a validated mission.
        source: the file (or description) named in errors.
        columns, rows: the map size; read from ``data/maps/<mission.map>.yaml`` when None.
        card_ids: the cards that may be placed; those of ``deck_default`` when None.
        board: the map the mission is played on (a generated mission's); the shipped map
            ``mission.map`` when None.

    Raises:
        DataError: a hex off the map, an exit hex not on the map edge, an unknown deck, card
            or squad, a vehicle where it cannot be (:func:`check_vehicles`) — naming
            ``source`` and the field.
    """
    if (columns is None or rows is None) and board is not None:
        columns, rows = board.columns, board.rows
    if columns is None or rows is None:
        columns, rows = map_size(mission.map, source)
    check_hexes(mission, source, columns, rows)
    for i, label in enumerate(mission.exit_hexes):
        col, row0 = parse_label(label)
        if col not in (0, columns - 1) and row0 not in (0, rows - 1):
            raise DataError(source, f"exit_hexes.{i}", f"exit hex {label} is not on the map edge")
    if card_ids is None:
        if mission.deck_default not in list_decks():
            raise DataError(
                source,
                "deck_default",
                f"unknown deck {mission.deck_default!r} (known: {', '.join(list_decks())})",
            )
        card_ids = load_deck(mission.deck_default).card_ids
    for n, para in mission.paragraphs.items():
        for j, eff in enumerate(para):
            if isinstance(eff, Place) and eff.card not in card_ids:
                raise DataError(
                    source,
                    f"paragraphs.{n}.{j}.place.card",
                    f"no card {eff.card!r} in the deck (cards: {', '.join(card_ids)})",
                )
    if mission.squad not in list_squads():
        raise DataError(
            source, "squad", f"unknown squad {mission.squad!r} (known: {', '.join(list_squads())})"
        )
    check_vehicles(mission, source, board=board)
    for i, v in enumerate(mission.german_vehicles):
        check_crew(v, v.vehicle, f"german_vehicles.{i}", source, card_ids)
    for where, e in mission.vehicle_placements():
        check_crew(e, e.vehicle, where, source, card_ids)


def check_hexes(mission: Mission, source: str | Path, columns: int, rows: int) -> None:
    """Every hex the mission names (:meth:`Mission.labels`) lies on a map of ``columns`` x
    ``rows`` hexes.

    Raises:
        DataError: naming ``source`` and the field (``paragraphs.13.1.place.hex``).
    """
    for field, label in mission.labels():
        col, row0 = parse_label(label)
        if not (0 <= col < columns and 0 <= row0 < rows):
            raise DataError(source, field, f"hex {label} is off the map ({columns} x {rows} hexes)")


@functools.lru_cache(maxsize=16)
def _map_board(name: str) -> Board:
    """The map ``name`` as loaded, for reading its terrain only (never changed): loaded once,
    so that a position with an inline mission holding vehicles is read without parsing the
    map again each time (``Game.set_state``)."""
    from ambush_env.core.world.board import load_board

    return load_board(name)


def check_vehicles(mission: Mission, source: str | Path, *, board: Board | None = None) -> None:
    """Vehicles of a mission (seed 000; RULES.md §12): known types of ``vehicles.yaml`` of the
    right side, at most ``V_SLOTS`` in all, each on a hex of the map where its type can stand
    (never a building, rubble, river or crater; never woods for a large vehicle, seed 000
    p. 30-31), at most ``max_in_hex`` in one hex (p. 30). A tank comes with its crew and its
    own unit (module ``tanks``); a German car stands parked and unmanned.

    Args:
        mission: a validated mission.
        source: the file (or description) named in errors.
        board: the map the mission is played on; ``data/maps/<mission.map>.yaml`` when None
            (read only when the mission has vehicles).

    Raises:
        DataError: naming ``source`` and the field (``german_vehicles.1.hex``).
    """
    from ambush_env.core.model.orders import V_SLOTS
    from ambush_env.core.world.vehicle_data import load_vehicle_data

    data = load_vehicle_data()
    types = data.vehicles
    start = [(f"us_vehicles.{i}", v, "us") for i, v in enumerate(mission.us_vehicles)]
    start += [(f"german_vehicles.{i}", v, "german") for i, v in enumerate(mission.german_vehicles)]
    placed = start + [(where, e, "german") for where, e in mission.vehicle_placements()]
    if not placed:
        return
    if len(placed) > V_SLOTS:
        raise DataError(
            source,
            placed[V_SLOTS][0],
            f"{len(placed)} vehicles; at most {V_SLOTS} (the vehicle slots)",
        )
    for key, v, side in placed:
        t = types.get(v.vehicle)
        if t is None:
            raise DataError(
                source,
                f"{key}.vehicle",
                f"unknown vehicle {v.vehicle!r} (known: {', '.join(sorted(types))})",
            )
        if t.side != side:
            raise DataError(source, f"{key}.vehicle", f"{v.vehicle!r} is a {t.side} vehicle")
    if board is None:
        board = _map_board(mission.map)
    in_hex: dict[int, int] = {}
    for key, v, _side in placed:
        try:
            h = board.index(v.hex)
        except Exception:
            raise DataError(
                source,
                f"{key}.hex",
                f"hex {v.hex} is off the map ({board.columns} x {board.rows} hexes)",
            ) from None
        why = data.stand_problem(v.vehicle, TERRAIN_NAMES[board.terrain[h]])
        if why is not None:
            raise DataError(source, f"{key}.hex", f"{v.hex}: {why}")
        if not key.startswith(("us_vehicles.", "german_vehicles.")):
            continue  # a vehicle a paragraph places later: its hex is checked, not its company
        in_hex[h] = in_hex.get(h, 0) + 1
        if in_hex[h] > data.max_in_hex:
            raise DataError(
                source,
                f"{key}.hex",
                f"{v.hex}: at most {data.max_in_hex} vehicles end in a hex (seed 000 p. 30)",
            )


def check_crew(
    v: VehicleCrew, vehicle: str, where: str, source: str | Path, card_ids: tuple[str, ...]
) -> None:
    """The men of a German vehicle (seed 000 p. 31-32): a car's driver and passengers are
    cards of the deck and fit its seats; a tank has a tank card of its type and a crew of
    1..its crew, and nobody boards it.

    Raises:
        DataError: naming ``source`` and the field (``<where>.driver``, ``.passengers``, ...).
    """
    from ambush_env.core.world.vehicle_cards import shipped_vehicle_cards
    from ambush_env.core.world.vehicle_data import load_vehicle_data

    t = load_vehicle_data().vehicles[vehicle]
    if t.kind == "tank":
        if v.driver or v.passengers:
            field = "driver" if v.driver else "passengers"
            raise DataError(
                source,
                f"{where}.{field}",
                "nobody can board a tank: its crew is part of it (seed 000 p. 31)",
            )
        cards = shipped_vehicle_cards()
        if v.card is not None:
            if v.card not in cards.tank_ids:
                raise DataError(
                    source,
                    f"{where}.card",
                    f"no tank card {v.card!r} (known: {', '.join(cards.tank_ids)})",
                )
            if cards.tank(v.card).vehicle != vehicle:
                raise DataError(
                    source,
                    f"{where}.card",
                    f"tank card {v.card!r} is for {cards.tank(v.card).vehicle}",
                )
        elif cards.default_tank_card(vehicle) is None:
            raise DataError(source, f"{where}.card", f"no tank card for {vehicle!r}")
        if v.crew is not None and v.crew > t.occupants:
            raise DataError(
                source, f"{where}.crew", f"a {t.name} has a crew of {t.occupants}, got {v.crew}"
            )
        return
    if v.card is not None or v.crew is not None:
        field = "card" if v.card is not None else "crew"
        raise DataError(
            source, f"{where}.{field}", "a car has a driver and passengers, not a tank card or crew"
        )
    for field, cid in [("driver", v.driver)] + [
        (f"passengers.{k}", c) for k, c in enumerate(v.passengers)
    ]:
        if cid is not None and cid not in card_ids:
            raise DataError(
                source,
                f"{where}.{field}",
                f"no card {cid!r} in the deck (cards: {', '.join(card_ids)})",
            )
    seats = (1 if v.driver else 0) + len(v.passengers)
    if seats > t.occupants:
        raise DataError(
            source,
            f"{where}.passengers",
            f"{seats} men in a {t.name}, which seats {t.occupants} with the driver "
            "(seed 000 p. 31)",
        )


# --------------------------------------------------------------------------------------------
# loaders
# --------------------------------------------------------------------------------------------


def list_missions() -> list[str]:
    """Ids (file stems) of the shipped missions: the reference mission first (named in
    ``rules.yaml: reference_mission``, docs/API.md), then the others sorted."""
    ref = reference_mission()
    return [ref] + [m for m in MISSIONS.ids() if m != ref]


def reference_mission() -> str:
    """The id of the reference mission, ``rules.yaml: reference_mission`` (docs/API.md);
    the loader checks that it is a shipped mission."""
    from ambush_env.core.world.rules_data import load_rules_data

    return load_rules_data().reference_mission


MISSIONS = DataKind(Mission, MISSIONS_DIR, "mission", check_references)
"""The missions (RULES.md §15), ``data/missions/<id>.yaml``; errors as ``DataKind``'s."""
read_mission = MISSIONS.read
"""Load, validate and cross-check a mission file (uncached)."""
load_mission = MISSIONS.load
"""A mission by shipped id (cached) or by file path (RULES.md §15)."""


__all__ = [
    "Activation",
    "AwardVP",
    "BoobyTrap",
    "Command",
    "EndMission",
    "MapBoobyTrap",
    "EventRow",
    "Goto",
    "IfFlag",
    "Landmark",
    "Message",
    "Minefield",
    "Mission",
    "MissionRules",
    "OBJECTIVE_KINDS",
    "Objective",
    "Perception",
    "Place",
    "PlaceVehicle",
    "Results",
    "VehicleCrew",
    "SetFlag",
    "Strike",
    "TimeLimit",
    "Trigger",
    "USVehicle",
    "GermanVehicle",
    "VPSchedule",
    "check_hexes",
    "check_references",
    "check_vehicles",
    "list_missions",
    "load_mission",
    "map_size",
    "read_mission",
    "reference_mission",
]
