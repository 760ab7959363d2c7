"""Owns the German soldier cards and their action language: schema and loader (RULES.md §14).

A deck is data; difficulty levels (``green``, ``regular``, ``veteran``) are different decks with
the same card ids (RULES.md §14). This module only *describes* cards; the engine's German
interpreter executes them.

Deck file schema (``ambush_env/data/cards/<id>.yaml``)::

    id: regular                   # must equal the file stem
    port_boxes: 4                 # ⚙ optional, default 4 (RULES.md §4)
    cards:
      - id: rifleman              # unique in the deck; missions place cards by this id
        rank: Schütze             # display text
        weapon: kar98             # a weapon id of weapons.yaml
        IN: 1                     # initiative 0-4   (RULES.md §4)
        PC: 5                     # perception 3-8   (throws, clearing jams, dodging)
        WS: 0                     # weapon skill -2..+2
        MV: 4                     # optional, 4-5 MPs, default 4
        equipment: [grenade]      # optional item ids of weapons.yaml (grenade, satchel, radio,
                                  # clip_<weapon>); their boxes fit in port_boxes
        columns:
          unaware:                # a column: d10 ranges covering 0-9 exactly once
            - {rolls: [0, 5], do: [hold]}
            - {rolls: [6, 9], do: [{move: {toward: route, max: 2}}]}
          aware: [...]
          self_preservation: [...]   # wounded, outnumbered, or an escaped prisoner (seed 002)
          driving: [...]          # optional: what he does at the wheel of a German car (seed
                                  # 000 p. 32); without one the shipped default column of
                                  # data/vehicle_cards.yaml (driving_default) is read

A row's ``do`` is an ordered list of actions. Following RULES.md §14, actions run in order as
far as the unit's state allows and an action that cannot run now (no target, nothing to clear,
no turn left, no grenade carried) is skipped; a row is therefore also a fallback chain, e.g.
``[clear_jam, prepare, fire]``. An action is a bare name or a one-key mapping:

=================  ==============================================================================
action             arguments (defaults)
=================  ==============================================================================
``fire``           ``mode``: aimed | snap (aimed) — the turn's fire action: one aimed shot, or the
                   two snap shots of §6; ``at``: a target selector (nearest_visible), or
                   ``wall_of_building_with_us`` (aimed only): the wall, facing him, of the
                   building hex holding the most US soldiers (RULES.md §8, seed 002 p. 26-27)
``snap_fire``      ``at`` (nearest_visible) — the single snap shot that may follow a move of at
                   most half MV (§6); on its own it is one snap shot
``move``           ``toward``: cover | nearest_us | objective | away | route | concealed
                   (required); ``max``: hexes, 1-12 (none: as far as MPs allow). ``route``
                   follows the waypoints of the unit's ``place`` effect; without a route it is
                   skipped; ``concealed``: the hex seen by the fewest US soldiers, cover first
``stance``         prone | crouching | standing (scalar)
``throw_grenade``  ``at``: largest_group | nearest_us (largest_group); ``within``: 1-6 hexes (3)
``throw_satchel``  ``at``: building_with_us | largest_group | nearest_vehicle (building_with_us);
                   ``within``: 1-3 hexes (3) — the card must carry a satchel; a turn's prepare
                   action first (standing, §6), the throw on a later turn (§9)
``assault``        ``at``: adjacent_weakest | same_hex (adjacent_weakest); ``kind``: kill | capture
                   (kill). ``adjacent_weakest`` moves into the weakest adjacent US hex and
                   assaults (a charge, §6/§10). ⚙ ``capture`` is never offered to a German
                   (§10: captives are Germans), so it is skipped
``prepare``        prepare the crew weapon / panzerfaust; skipped when already prepared
``alert``          ``radius``: hexes, 1-12 (required) — makes unaware Germans within it aware
``surrender``      ``if``: outnumbered (the default and only value) — ⚙ 3 to 1 (§10)
``hold``           do nothing this turn
``clear_jam``      skipped unless the weapon is jammed
``drive``          (``driving`` column only) ``toward``: nearest_us | route | away | cover
                   (required); ``fast``: false | true (false) — drive the car, spending every
                   MP of the slow allowance (``fast``: of the fast one, seed 000 p. 30); ``max``
                   hexes (none). ``route`` follows the waypoints of the vehicle's placement
``leave_vehicle``  (``driving`` column only) get out of the car (RULES.md §12)
=================  ==============================================================================

In the ``driving`` column, ``fire`` is the driver's one snap shot from the car (seed 000 p. 32:
"the driver gets one snap fire at −2"); the German car rules of seed 000 p. 32 — a German car
acts on its driver's driving column — live in the interpreter.

Target selectors: ``nearest_visible``, ``weakest_visible`` (⚙ wounded first, then the
nearest), ``most_exposed`` (standing, crouching, prone: §8), ``nco_first`` (⚙ a commander, CR 1
or more, before a private, then the nearest), ``nearest_vehicle`` (US vehicles only: the
Panzerfaust's). The vehicle rules of seed 000 live in the interpreter, not in the cards (§14).

The validation helpers at the bottom (:class:`FieldProblem`, :func:`validate_file`,
:func:`tagged`) are shared by :mod:`~ambush_env.core.world.missions` and
:mod:`~ambush_env.core.world.squads`: they let a model's cross-field check name the exact field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from ambush_env.core.model.errors import DataError
from ambush_env.core.world.data import (
    Check,
    DataKind,
    FieldProblem,
    Frozen,
    data_path,
    read_yaml,
    resolve_data,
    validate_file,
)

M = TypeVar("M", bound=BaseModel)

# --------------------------------------------------------------------------------------------
# shared validation helpers
# --------------------------------------------------------------------------------------------


def load_file(model: type[M], path: str | Path) -> M:
    """Read a YAML file and validate it with :func:`validate_file`. Raises DataError."""
    return validate_file(model, read_yaml(path), path)


def tagged(tag: str, names: dict[str, str | None], kind: str) -> Callable[[Any], Any]:
    """A before-validator turning the one-key YAML form into a tagged mapping.

    ``"hold"`` → ``{tag: "hold"}``; ``{"fire": {"mode": "snap"}}`` → ``{tag: "fire", "mode":
    "snap"}``; ``{"stance": "prone"}`` → ``{tag: "stance", <scalar field>: "prone"}``.

    Args:
        tag: the discriminator field name (``"action"``, ``"effect"``).
        names: every known name → the field that takes a scalar argument (None: mapping only).
        kind: ``"action"`` or ``"effect"``, for messages.
    """
    known = ", ".join(sorted(names))

    def convert(raw: Any) -> Any:
        if isinstance(raw, str):
            name, arg = raw, None
        elif isinstance(raw, dict) and len(raw) == 1:
            ((name, arg),) = raw.items()
        else:
            raise ValueError(
                f"an {kind} is a name or a one-key mapping {{name: arguments}}, got {raw!r}"
            )
        if name not in names:
            raise ValueError(f"unknown {kind} {name!r}; known: {known}")
        if arg is None:
            return {tag: name}
        if isinstance(arg, dict):
            if tag in arg:
                raise ValueError(f"{kind} {name!r}: argument {tag!r} is reserved")
            return {tag: name, **arg}
        scalar = names[name]
        if scalar is None:
            raise ValueError(f"{kind} {name!r} takes a mapping of arguments, got {arg!r}")
        return {tag: name, scalar: arg}

    return convert


class TaggedForm(Frozen):
    """Base of the one-key data-language models (card actions, paragraph effects).

    ``tag_field`` names the discriminator (``"action"``, ``"effect"``); ``scalar_field`` the
    field the scalar YAML form fills (``stance: prone`` → ``to``), if any. ``model_dump()``
    gives back the YAML form — ``{"fire": {"mode": "aimed", "at": ...}}``, ``{"stance":
    "prone"}``, ``{"hold": None}`` — with aliases (``if``, ``else``), so a dump validates to
    the same model (a parse/print round trip).
    """

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    tag_field: ClassVar[str] = ""
    scalar_field: ClassVar[str | None] = None

    @model_serializer(mode="wrap")
    def _one_key(self, handler: SerializerFunctionWrapHandler) -> Any:
        d = handler(self)
        if not isinstance(d, dict) or self.tag_field not in d:
            return d
        name = d.pop(self.tag_field)
        if self.scalar_field is not None and self.scalar_field in d:
            return {name: d[self.scalar_field]}
        return {name: d or None}

    @property
    def tag(self) -> str:
        """The action or effect name (``"fire"``, ``"place"``)."""
        return getattr(self, self.tag_field)


def scalar_fields(models: tuple[type[TaggedForm], ...]) -> dict[str, str | None]:
    """Name → scalar field of each model (for :func:`tagged`)."""
    return {m.model_fields[m.tag_field].default: m.scalar_field for m in models}


def check_d10_cover(rows: tuple[Any, ...], what: str) -> None:
    """Check that ``rows`` (each with ``rolls: (lo, hi)``) cover d10 0-9 exactly once.

    Raises:
        FieldProblem: on a gap (field: the list) or an overlap (field: ``<i>.rolls``).
    """
    seen: dict[int, int] = {}
    for i, row in enumerate(rows):
        lo, hi = row.rolls
        for r in range(lo, hi + 1):
            if r in seen:
                raise FieldProblem(
                    f"{i}.rolls", f"{what}: roll {r} already covered by entry {seen[r]}"
                )
            seen[r] = i
    missing = [r for r in range(10) if r not in seen]
    if missing:
        raise FieldProblem(
            "", f"{what}: d10 rolls {missing} not covered (must cover 0-9 exactly once)"
        )


def _rolls(v: Any) -> Any:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        lo, hi = v
        if isinstance(lo, int) and isinstance(hi, int) and not (0 <= lo <= hi <= 9):
            raise ValueError(f"rolls [{lo}, {hi}]: need 0 <= lo <= hi <= 9")
    return v


Rolls = Annotated[tuple[int, int], BeforeValidator(_rolls)]
"""A d10 range ``[lo, hi]``, inclusive, 0 <= lo <= hi <= 9 (RULES.md §1)."""

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
Ident = Annotated[str, Field(pattern=ID_PATTERN)]
"""A snake_case id (cards, weapons, items, flags)."""

ITEM_PATTERN = r"^(grenade|satchel|radio|sticky_grenade|pole_charge|molotov|clip_[a-z][a-z0-9_]*)$"
Item = Annotated[str, Field(pattern=ITEM_PATTERN)]
"""A port-box item id: ``grenade``, ``satchel``, ``radio``, ``clip_<weapon id>`` (RULES.md §4) or a
d100 charge (``sticky_grenade``, ``pole_charge``, ``molotov``: seed 003, rules d100 only)."""

# A soldier's ratings and their ranges (RULES.md §4), one type each: the ratings of a German
# card, of a squad file's soldier and of a campaign's veteran and replacement.
InRating = Annotated[int, Field(ge=0, le=4)]
PcRating = Annotated[int, Field(ge=3, le=8)]
WsRating = Annotated[int, Field(ge=-2, le=2)]
DsRating = Annotated[int, Field(ge=0, le=9)]
MvRating = Annotated[int, Field(ge=4, le=5)]
CrRating = Annotated[int, Field(ge=0, le=3)]

# --------------------------------------------------------------------------------------------
# the action language (RULES.md §14)
# --------------------------------------------------------------------------------------------

SoldierTarget = Literal[
    "nearest_visible", "weakest_visible", "most_exposed", "nco_first", "nearest_vehicle"
]
"""Who a shot aims at (RULES.md §14; module docstring)."""
Target = Literal[
    "nearest_visible",
    "weakest_visible",
    "most_exposed",
    "nco_first",
    "nearest_vehicle",
    "wall_of_building_with_us",
]
"""What the turn's fire action aims at: a :data:`SoldierTarget`, or (aimed only) the wall of a
building hex with US soldiers inside (RULES.md §8 wall fire, seed 002 p. 26-27)."""
StanceName = Literal["prone", "crouching", "standing"]


class ActionForm(TaggedForm):
    """Base of the card actions: tagged by ``action``."""

    tag_field: ClassVar[str] = "action"


class Fire(ActionForm):
    """``fire: {mode, at}`` — the turn's fire action (aimed shot, or the two snap shots)."""

    action: Literal["fire"] = "fire"
    mode: Literal["aimed", "snap"] = "aimed"
    at: Target = "nearest_visible"

    @model_validator(mode="after")
    def _wall_aimed(self) -> Fire:
        if self.at == "wall_of_building_with_us" and self.mode != "aimed":
            raise FieldProblem("at", "fire at a wall is aimed fire (mode: aimed)")
        return self


class SnapFire(ActionForm):
    """``snap_fire: {at}`` — one snap shot (the follow-up of a short move, RULES.md §6)."""

    action: Literal["snap_fire"] = "snap_fire"
    at: SoldierTarget = "nearest_visible"


class Move(ActionForm):
    """``move: {toward, max}`` — a move action; ``max`` in hexes (None: MPs decide)."""

    action: Literal["move"] = "move"
    toward: Literal["cover", "nearest_us", "objective", "away", "route", "concealed"]
    max: int | None = Field(default=None, ge=1, le=12)


class ChangeStance(ActionForm):
    """``stance: prone|crouching|standing`` — the free stance change (RULES.md §6)."""

    scalar_field: ClassVar[str | None] = "to"

    action: Literal["stance"] = "stance"
    to: StanceName


class ThrowGrenade(ActionForm):
    """``throw_grenade: {at, within}`` — prepare and throw a grenade (RULES.md §9)."""

    action: Literal["throw_grenade"] = "throw_grenade"
    at: Literal["largest_group", "nearest_us"] = "largest_group"
    within: int = Field(default=3, ge=1, le=6)


class ThrowSatchel(ActionForm):
    """``throw_satchel: {at, within}`` — prepare (standing) and then throw a satchel charge
    (RULES.md §6, §9): two turns, the prepare action first."""

    action: Literal["throw_satchel"] = "throw_satchel"
    at: Literal["building_with_us", "largest_group", "nearest_vehicle"] = "building_with_us"
    within: int = Field(default=3, ge=1, le=3)


class Assault(ActionForm):
    """``assault: {at, kind}`` — a kill or capture assault (RULES.md §10)."""

    action: Literal["assault"] = "assault"
    at: Literal["adjacent_weakest", "same_hex"] = "adjacent_weakest"
    kind: Literal["kill", "capture"] = "kill"


class Prepare(ActionForm):
    """``prepare`` — set up the crew weapon or panzerfaust (RULES.md §6, §8)."""

    action: Literal["prepare"] = "prepare"


class Alert(ActionForm):
    """``alert: {radius}`` — unaware Germans within ``radius`` hexes become aware."""

    action: Literal["alert"] = "alert"
    radius: int = Field(ge=1, le=12)


class Surrender(ActionForm):
    """``surrender: {if}`` — give up when outnumbered ⚙ 3 to 1 with a US soldier in his hex
    (RULES.md §10: a German surrenders only when outnumbered). ``if`` names that condition
    and is the only one: an unconditional surrender (once ``if: always``) is refused on load,
    because the order generator never offers it (``legal._german_orders``)."""

    action: Literal["surrender"] = "surrender"
    if_: Literal["outnumbered"] = Field(default="outnumbered", alias="if")


class Hold(ActionForm):
    """``hold`` — the unit does nothing this turn."""

    action: Literal["hold"] = "hold"


class ClearJam(ActionForm):
    """``clear_jam`` — a PC check to clear a jammed weapon (RULES.md §8); skipped if not jammed."""

    action: Literal["clear_jam"] = "clear_jam"


class DriveArgs(ActionForm):
    """The arguments of a drive, ``{toward, fast, max}``: a driver's ``drive`` (:class:`Drive`)
    and a tank's ``move`` (``vehicle_cards.TankMove``), each under its own action name."""

    toward: Literal["nearest_us", "route", "away", "cover"]
    fast: bool = False
    max: int | None = Field(default=None, ge=1, le=12)


class Drive(DriveArgs):
    """``drive: {toward, fast, max}`` — the driver drives his car (seed 000 p. 30, 32)."""

    action: Literal["drive"] = "drive"


class LeaveVehicle(ActionForm):
    """``leave_vehicle`` — get out of the vehicle into its hex (RULES.md §12)."""

    action: Literal["leave_vehicle"] = "leave_vehicle"


DRIVING_ONLY = (Drive, LeaveVehicle)
"""Actions that only a ``driving`` column may hold."""

ACTION_MODELS: tuple[type[ActionForm], ...] = (
    Fire,
    SnapFire,
    Move,
    ChangeStance,
    ThrowGrenade,
    ThrowSatchel,
    Assault,
    Prepare,
    Alert,
    Surrender,
    Hold,
    ClearJam,
    Drive,
    LeaveVehicle,
)
ACTION_SCALARS: dict[str, str | None] = scalar_fields(ACTION_MODELS)
"""Every action name → the field its scalar form fills (None: mapping or bare name only)."""

Action = Annotated[
    Annotated[
        (
            Fire
            | SnapFire
            | Move
            | ChangeStance
            | ThrowGrenade
            | ThrowSatchel
            | Assault
            | Prepare
            | Alert
            | Surrender
            | Hold
            | ClearJam
            | Drive
            | LeaveVehicle
        ),
        Field(discriminator="action"),
    ],
    BeforeValidator(tagged("action", ACTION_SCALARS, "action")),
]
"""One action of the German action language (RULES.md §14), tagged by ``action``."""


class Row(Frozen):
    """One row of a card column: a d10 range and the actions it orders."""

    rolls: Rolls
    do: tuple[Action, ...] = Field(min_length=1)


Column = tuple[Row, ...]
COLUMN_NAMES = ("unaware", "aware", "self_preservation")
DRIVING = "driving"


def check_driving_only(rows: Column, driving: bool, where: str = "") -> None:
    """``drive`` and ``leave_vehicle`` belong to a ``driving`` column, and only there.

    Raises:
        FieldProblem: naming ``<where><i>.do.<j>``.
    """
    for i, row in enumerate(rows):
        for j, act in enumerate(row.do):
            if isinstance(act, DRIVING_ONLY) and not driving:
                raise FieldProblem(
                    f"{where}{i}.do.{j}", f"{act.action} belongs to a driving column"
                )


class Columns(Frozen):
    """A card's three columns (RULES.md §14), each covering d10 0-9 exactly once, and the
    optional ``driving`` column (seed 000 p. 32: "a German car acts on its driver's driving
    column")."""

    unaware: Column
    aware: Column
    self_preservation: Column
    driving: Column | None = None

    @field_validator("unaware", "aware", "self_preservation", "driving")
    @classmethod
    def _cover(cls, rows: Column | None, info: Any) -> Column | None:
        if rows is None:
            return rows
        check_d10_cover(rows, f"column {info.field_name}")
        check_driving_only(rows, info.field_name == DRIVING)
        return rows


class Card(Frozen):
    """A German soldier card (RULES.md §4, §14).

    Attributes:
        id: snake_case card id, unique in its deck.
        rank: display rank.
        weapon: weapon id (``weapons.yaml``).
        IN, PC, WS, MV: ratings (RULES.md §4); MV in MPs.
        equipment: port-box item ids.
        columns: the Unaware / Aware / Self-Preservation columns.
    """

    id: Ident
    rank: str = Field(min_length=1)
    weapon: Ident
    IN: InRating
    PC: PcRating
    WS: WsRating
    MV: MvRating = 4
    equipment: tuple[Item, ...] = ()
    columns: Columns

    @model_validator(mode="after")
    def _grenades_carried(self) -> Card:
        for name in COLUMN_NAMES:
            for i, row in enumerate(getattr(self.columns, name)):
                for j, act in enumerate(row.do):
                    for model, item in ((ThrowGrenade, "grenade"), (ThrowSatchel, "satchel")):
                        if isinstance(act, model) and item not in self.equipment:
                            raise FieldProblem(
                                f"columns.{name}.{i}.do.{j}",
                                f"{act.action} on a card that carries no {item}",
                            )
        return self

    def column(self, name: str) -> Column:
        """The column ``unaware``, ``aware`` or ``self_preservation``. Raises KeyError."""
        if name not in COLUMN_NAMES and not (name == DRIVING and self.columns.driving):
            raise KeyError(f"card {self.id}: no column {name!r}")
        return getattr(self.columns, name)

    def row(self, column: str, roll: int) -> Row:
        """The row of ``column`` that a d10 ``roll`` (0-9) selects."""
        for row in self.column(column):
            if row.rolls[0] <= roll <= row.rolls[1]:
                return row
        raise KeyError(f"card {self.id}: column {column}: no row for roll {roll}")


def check_item_counts(field: str, holders: Sequence[Any], boxes: int, named: bool = False) -> None:
    """At most one item a port box for each holder of a list ``field`` (a deck's cards, a
    squad's soldiers); the boxes each item fills are :func:`check_equipment`'s later check.

    Args:
        named: the message names the holder (``"US3 carries 5 items in 4 port boxes"``).

    Raises:
        FieldProblem: at ``<i>.equipment`` of ``field``, the first holder over ``boxes``.
    """
    for i, h in enumerate(holders):
        if len(h.equipment) > boxes:
            carrier = f"{h.name} carries " if named else ""
            raise FieldProblem(
                f"{field}.{i}.equipment", f"{carrier}{len(h.equipment)} items in {boxes} port boxes"
            )


class Deck(Frozen):
    """A deck of German cards: one difficulty level (RULES.md §14).

    Attributes:
        id: the deck id (= file stem).
        port_boxes: ⚙ port boxes of each German (RULES.md §4); a card's equipment fits them.
        cards: the cards, in card-number order (Germans act in this order, §5).
    """

    id: Ident
    port_boxes: int = Field(default=4, ge=1, le=4)
    cards: tuple[Card, ...] = Field(min_length=1)

    @field_validator("cards")
    @classmethod
    def _unique(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        seen: set[str] = set()
        for i, c in enumerate(cards):
            if c.id in seen:
                raise FieldProblem(f"{i}.id", f"duplicate card id {c.id!r}")
            seen.add(c.id)
        return cards

    @model_validator(mode="after")
    def _port_boxes(self) -> Deck:
        check_item_counts("cards", self.cards, self.port_boxes)
        return self

    @property
    def card_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def card(self, card_id: str) -> Card:
        """The card ``card_id``. Raises KeyError naming the deck and its cards."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(f"deck {self.id}: no card {card_id!r} (cards: {', '.join(self.card_ids)})")


# --------------------------------------------------------------------------------------------
# cross-check against weapons.yaml
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _weapons_file() -> dict | None:
    path = data_path("weapons.yaml")
    if not path.exists():
        return None
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    return raw if isinstance(raw, dict) else None


def known_weapon_ids() -> frozenset[str] | None:
    """Weapon ids of ``data/weapons.yaml`` (its ``weapons:`` mapping), or None without one.

    When None, weapon ids are checked only for form; the engine checks them against its tables.
    """
    table = (_weapons_file() or {}).get("weapons")
    return frozenset(str(k) for k in table) if isinstance(table, dict) else None


def item_boxes() -> dict[str, int] | None:
    """Port boxes each item fills, from ``data/weapons.yaml`` (``items.<id>.boxes``), or None.

    A satchel charge fills two boxes there, so squads and cards count boxes, not items.
    """
    table = (_weapons_file() or {}).get("items")
    if not isinstance(table, dict):
        return None
    out = {}
    for k, v in table.items():
        boxes = v.get("boxes", 1) if isinstance(v, dict) else 1
        out[str(k)] = boxes if isinstance(boxes, int) else 1
    return out


def check_equipment(
    path: str | Path,
    weapon_field: str,
    weapon: str,
    items_field: str,
    items: tuple[str, ...],
    boxes: int,
) -> None:
    """Check a soldier's weapon, items and port-box load against ``data/weapons.yaml``.

    Args:
        path: the file named in errors.
        weapon_field, weapon: e.g. ``"soldiers.2.weapon"``, ``"bar"``.
        items_field, items: e.g. ``"soldiers.2.equipment"`` and its item ids.
        boxes: port boxes available (RULES.md §4 ⚙).

    Raises:
        DataError: an unknown weapon or item, or more boxes filled than there are.
    """
    weapons = known_weapon_ids()
    if weapons is not None and weapon not in weapons:
        raise DataError(
            path,
            weapon_field,
            f"unknown weapon {weapon!r} (weapons.yaml: {', '.join(sorted(weapons))})",
        )
    sizes = item_boxes()
    if sizes is None:
        return
    for j, item in enumerate(items):
        if item not in sizes:
            raise DataError(
                path,
                f"{items_field}.{j}",
                f"unknown item {item!r} (weapons.yaml items: {', '.join(sorted(sizes))})",
            )
    used = sum(sizes[i] for i in items)
    if used > boxes:
        detail = ", ".join(f"{i} {sizes[i]}" for i in items)
        raise DataError(
            path, items_field, f"{used} port boxes filled ({detail}); {boxes} available"
        )


# --------------------------------------------------------------------------------------------
# loaders
# --------------------------------------------------------------------------------------------


def resolve(
    name_or_path: str | Path, folder: Path, what: str, names: Callable[[], list[str]]
) -> tuple[Path, bool]:
    """Map a shipped name or a file path to ``(path, shipped)``: :func:`~ambush_env.core.world.data.
    resolve_data` on ``folder`` (``names`` is kept for callers; the known ids come from the folder).

    Raises:
        ScenarioError: an unknown name, listing the known ones.
    """
    return resolve_data(folder, name_or_path, what)


CARDS_DIR = data_path("cards")


def check_kits(path: str | Path, field: str, holders: Sequence[Any], boxes: int) -> None:
    """:func:`check_equipment` of each holder of a file's list ``field`` (a deck's cards, a
    squad's soldiers): ``<field>.<i>.weapon`` and ``<field>.<i>.equipment`` in ``boxes`` boxes.

    Raises:
        DataError: the first holder's unknown weapon or item, or boxes overfilled.
    """
    for i, h in enumerate(holders):
        check_equipment(
            path, f"{field}.{i}.weapon", h.weapon, f"{field}.{i}.equipment", h.equipment, boxes
        )


def kits_check(field: str) -> Check:
    """The cross-check of a file whose list ``field`` holds cards or soldiers (decks, squads):
    :func:`check_kits` of that list in the file's ``port_boxes``."""

    def check(obj: Any, path: Path) -> None:
        check_kits(path, field, getattr(obj, field), obj.port_boxes)

    return check


DECKS = DataKind(Deck, CARDS_DIR, "deck", kits_check("cards"))
"""The German decks (RULES.md §14), ``data/cards/<id>.yaml``; errors as :class:`DataKind`'s."""
list_decks = DECKS.ids
"""Sorted ids of the shipped decks (``data/cards/*.yaml``)."""
read_deck = DECKS.read
"""Load, validate and cross-check a deck file (uncached)."""
load_deck = DECKS.load
"""A deck by shipped id (``"regular"``, cached) or by file path (RULES.md §14)."""
