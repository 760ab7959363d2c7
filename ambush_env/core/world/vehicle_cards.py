"""Owns the German vehicle cards: the tank cards and their action language, and the default
driving column of German car drivers (seed 000 p. 32); ``data/vehicle_cards.yaml`` validated.

File schema (``ambush_env/data/vehicle_cards.yaml``)::

    driving_default:              # ⚙ the driving column of a card that has none (cards.py)
      - {rolls: [0, 5], do: [{drive: {toward: nearest_us}}]}
      - ...                       # d10 rows covering 0-9 once, soldier actions (cards.py)
    tanks:
      - id: panzer_iv_card        # unique; a mission's German tank names it (``card``)
        vehicle: panzer_iv        # a tank type of vehicles.yaml (German)
        crews:                    # one d10 table per active crew size, 1..the type's crew
          5:
            - {rolls: [0, 3], do: [load, {fire_cannon: {at: nearest_visible}}]}
            - ...
          4: [...]

"A German tank's actions come from its card: roll one die, read the row for its current crew
size, and perform that paragraph's actions in order, as far as the available Crew Points and
the tank's state allow" (seed 000 p. 32). A tank row's actions:

=================  ==============================================================================
action             arguments (defaults)
=================  ==============================================================================
``fire_cannon``    ``at``: nearest_visible | most_exposed | weakest_visible | nearest_vehicle
                   (nearest_visible) — the main gun; the targeting of p. 32 (a soldier in a
                   building: its wall at +4; a known unseen one: his hex) is the interpreter's
``fire_mg``        ``mount``: coax | bow | any (any); ``mode``: aimed | snap (aimed); ``at`` (as
                   above)
``load``           load the cannon (skipped when loaded)
``move``           ``toward``: nearest_us | route | away | cover (required); ``fast``: false |
                   true (false); ``max`` hexes (none) — German vehicles spend every MP they can
``close``          close the hatches (skipped when closed)
``open``           open the hatches (skipped when open)
``hold``           do nothing more this turn
=================  ==============================================================================
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from ambush_env.core.world.cards import (
    DRIVING,
    ActionForm,
    Column,
    DriveArgs,
    FieldProblem,
    Hold,
    Ident,
    Rolls,
    check_d10_cover,
    check_driving_only,
    scalar_fields,
    tagged,
)
from ambush_env.core.world.data import DataFile, Frozen
from ambush_env.core.world.vehicle_data import shipped_vehicle_data

TankTarget = Literal["nearest_visible", "most_exposed", "weakest_visible", "nearest_vehicle"]


class FireCannon(ActionForm):
    """``fire_cannon: {at}`` — the main gun (seed 000 p. 32-33)."""

    action: Literal["fire_cannon"] = "fire_cannon"
    at: TankTarget = "nearest_visible"


class FireMG(ActionForm):
    """``fire_mg: {mount, mode, at}`` — a machinegun (seed 000 p. 33)."""

    action: Literal["fire_mg"] = "fire_mg"
    mount: Literal["coax", "bow", "any"] = "any"
    mode: Literal["aimed", "snap"] = "aimed"
    at: TankTarget = "nearest_visible"


class Load(ActionForm):
    """``load`` — load the cannon (seed 000 p. 33)."""

    action: Literal["load"] = "load"


class TankMove(DriveArgs):
    """``move: {toward, fast, max}`` — drive the tank (seed 000 p. 30, 32-33): the arguments
    of a driver's ``drive``."""

    action: Literal["move"] = "move"


class Close(ActionForm):
    """``close`` — close the hatches (seed 000 p. 30, 33)."""

    action: Literal["close"] = "close"


class Open(ActionForm):
    """``open`` — open the hatches (seed 000 p. 30, 33)."""

    action: Literal["open"] = "open"


TankHold = Hold  # ``hold`` — nothing more this turn (the soldier cards' action)


TANK_ACTION_MODELS: tuple[type[ActionForm], ...] = (
    FireCannon,
    FireMG,
    Load,
    TankMove,
    Close,
    Open,
    TankHold,
)
TANK_SCALARS: dict[str, str | None] = scalar_fields(TANK_ACTION_MODELS)

TankAction = Annotated[
    Annotated[
        FireCannon | FireMG | Load | TankMove | Close | Open | TankHold,
        Field(discriminator="action"),
    ],
    BeforeValidator(tagged("action", TANK_SCALARS, "action")),
]
"""One action of a tank card row (module docstring), tagged by ``action``."""


class TankRow(Frozen):
    """One row of a tank card's crew table: a d10 range and the actions it orders."""

    rolls: Rolls
    do: tuple[TankAction, ...] = Field(min_length=1)


TankColumn = tuple[TankRow, ...]


class TankCard(Frozen):
    """A German tank card (seed 000 p. 32): a d10 table per active crew size."""

    id: Ident
    vehicle: Ident
    crews: dict[int, TankColumn]

    @field_validator("crews")
    @classmethod
    def _cover(cls, crews: dict[int, TankColumn]) -> dict[int, TankColumn]:
        for n, rows in crews.items():
            try:
                check_d10_cover(rows, f"crew {n}")
            except FieldProblem as e:
                raise FieldProblem(f"{n}.{e.field}" if e.field else str(n), e.problem) from None
        return crews

    def column(self, crew: int) -> TankColumn:
        """The table for ``crew`` active crew. Raises KeyError."""
        return self.crews[crew]


class VehicleCards(Frozen):
    """``data/vehicle_cards.yaml`` (module docstring)."""

    driving_default: Column
    tanks: tuple[TankCard, ...] = ()

    @field_validator("driving_default")
    @classmethod
    def _driving(cls, rows: Column) -> Column:
        check_d10_cover(rows, "driving_default")
        check_driving_only(rows, True)
        return rows

    @model_validator(mode="after")
    def _tanks(self) -> VehicleCards:
        types = shipped_vehicle_data().vehicles
        seen: set[str] = set()
        for i, c in enumerate(self.tanks):
            if c.id in seen:
                raise FieldProblem(f"tanks.{i}.id", f"duplicate tank card id {c.id!r}")
            seen.add(c.id)
            t = types.get(c.vehicle)
            if t is None or t.kind != "tank" or t.side != "german":
                known = sorted(
                    k for k, v in types.items() if v.kind == "tank" and v.side == "german"
                )
                raise FieldProblem(
                    f"tanks.{i}.vehicle",
                    f"{c.vehicle!r} is not a German tank type (known: {known})",
                )
            want = set(range(1, t.occupants + 1))
            if set(c.crews) != want:
                raise FieldProblem(
                    f"tanks.{i}.crews",
                    f"needs one table per crew size {sorted(want)}, got {sorted(c.crews)}",
                )
        return self

    def tank(self, card_id: str) -> TankCard:
        """The tank card ``card_id``. Raises KeyError naming the known ones."""
        for c in self.tanks:
            if c.id == card_id:
                return c
        raise KeyError(f"no tank card {card_id!r} (known: {[c.id for c in self.tanks]})")

    @property
    def tank_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.tanks)

    def default_tank_card(self, vehicle: str) -> str | None:
        """The first tank card of the type ``vehicle`` (a mission's default), None if none."""
        return next((c.id for c in self.tanks if c.vehicle == vehicle), None)


VEHICLE_CARDS_FILE = DataFile(VehicleCards, "vehicle_cards", "vehicle cards file")
"""The vehicle cards file, ``data/vehicle_cards.yaml``; errors as ``DataFile``'s."""
load_vehicle_cards = VEHICLE_CARDS_FILE.load
"""Load and validate a vehicle cards file (default: the shipped one, cached)."""
shipped_vehicle_cards = VEHICLE_CARDS_FILE.shipped
"""The shipped ``data/vehicle_cards.yaml`` (loaded once)."""


def driving_column(card: object) -> Column:
    """The driving column of a soldier card: its own, else ``driving_default`` ⚙."""
    cols = getattr(card, "columns", None)
    own = getattr(cols, DRIVING, None)
    return own if own else shipped_vehicle_cards().driving_default


__all__ = [
    "Close",
    "FireCannon",
    "FireMG",
    "Load",
    "Open",
    "TankAction",
    "TankCard",
    "TankHold",
    "TankMove",
    "TankRow",
    "VehicleCards",
    "driving_column",
    "load_vehicle_cards",
    "shipped_vehicle_cards",
]
