"""Owns the US squad: schema and loader (RULES.md §4); squads are data in ``configs/squads/``.

Squad file schema (``configs/squads/<id>.yaml``)::

    id: standard                 # must equal the file stem
    port_boxes: 4                # ⚙ port boxes per soldier (RULES.md §4); default 4
    soldiers:                    # in squad-slot order; names US1, US2, ... in that order
      - name: US1
        role: sergeant           # sergeant | corporal | private
        IN: 3                    # initiative 0-4
        PC: 6                    # perception 3-8 (a PC check succeeds at or below PC)
        WS: 1                    # weapon skill -2..+2
        DS: 3                    # driving skill 0-9 (seed 000 Accident Check)
        MV: 5                    # movement allowance 4-5 MPs
        CR: 2                    # command radius in hexes: privates 0, NCOs 1-3
        weapon: thompson         # a weapon id of weapons.yaml
        equipment: [grenade, clip_thompson]   # item ids, at most port_boxes of them

Rules checked: 1-12 soldiers (the action layout's squad slots); names ``US1..USn`` in order;
exactly one sergeant; a private has CR 0 and an NCO (sergeant, corporal) CR 1-3; equipment
items are ``grenade``, ``satchel`` or ``clip_<weapon>``; weapons and items exist in
``data/weapons.yaml`` and the boxes they fill there (a satchel fills 2) add up to at most
``port_boxes`` per soldier.

A points-based random squad generator (RULES.md §4, optional) is not written yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ambush_env.core.cards import (
    FieldProblem,
    Ident,
    Item,
    check_equipment,
    check_stem,
)
from ambush_env.core.data import Frozen, config_dir, list_data, load_data, read_data

SQUADS_DIR = config_dir("squads")
"""``configs/squads/`` at the repository root (packaged as ``ambush_env/_configs/squads``)."""

MAX_SOLDIERS = 12
"""Squad slots of the action layout (``orders.U_SLOTS``); the standard squad uses 8."""

Role = Literal["sergeant", "corporal", "private"]
NCO_ROLES = ("sergeant", "corporal")


class Soldier(Frozen):
    """One US soldier's starting record (RULES.md §4).

    Attributes:
        name: ``US1``..``USn``.
        role: ``sergeant``, ``corporal`` or ``private``.
        IN, PC, WS, DS, MV, CR: ratings; MV in MPs, CR in hexes.
        weapon: weapon id (``weapons.yaml``).
        equipment: port-box item ids (one item per box).
    """

    name: str = Field(pattern=r"^US[1-9][0-9]*$")
    role: Role
    IN: int = Field(ge=0, le=4)
    PC: int = Field(ge=3, le=8)
    WS: int = Field(ge=-2, le=2)
    DS: int = Field(ge=0, le=9)
    MV: int = Field(ge=4, le=5)
    CR: int = Field(ge=0, le=3)
    weapon: Ident
    equipment: tuple[Item, ...] = ()

    @model_validator(mode="after")
    def _command_radius(self) -> Soldier:
        if self.role == "private" and self.CR != 0:
            raise FieldProblem("CR", f"a private has CR 0, got {self.CR}")
        if self.role in NCO_ROLES and not 1 <= self.CR <= 3:
            raise FieldProblem("CR", f"a {self.role} has CR 1-3, got {self.CR}")
        return self

    @property
    def is_commander(self) -> bool:
        """Sergeants and corporals command (RULES.md §5)."""
        return self.role in NCO_ROLES


class Squad(Frozen):
    """A US squad (RULES.md §4).

    Attributes:
        id: squad id (= file stem).
        port_boxes: ⚙ port boxes per soldier (RULES.md §4).
        soldiers: the soldiers in squad-slot order.
    """

    id: Ident
    port_boxes: int = Field(default=4, ge=1, le=4)
    soldiers: tuple[Soldier, ...] = Field(min_length=1, max_length=MAX_SOLDIERS)

    @field_validator("soldiers")
    @classmethod
    def _names_and_roles(cls, soldiers: tuple[Soldier, ...]) -> tuple[Soldier, ...]:
        for i, s in enumerate(soldiers):
            if s.name != f"US{i + 1}":
                raise FieldProblem(
                    f"{i}.name", f"soldier {i} must be named US{i + 1}, got {s.name!r}"
                )
        sergeants = [i for i, s in enumerate(soldiers) if s.role == "sergeant"]
        if len(sergeants) != 1:
            where = f"{sergeants[1]}.role" if len(sergeants) > 1 else ""
            raise FieldProblem(where, f"a squad has exactly one sergeant, got {len(sergeants)}")
        return soldiers

    @model_validator(mode="after")
    def _port_boxes(self) -> Squad:
        for i, s in enumerate(self.soldiers):
            if len(s.equipment) > self.port_boxes:
                raise FieldProblem(
                    f"soldiers.{i}.equipment",
                    f"{s.name} carries {len(s.equipment)} items in {self.port_boxes} port boxes",
                )
        return self


def list_squads() -> list[str]:
    """Sorted ids of the shipped squads (``configs/squads/*.yaml``)."""
    return list_data(SQUADS_DIR)


def read_squad(path: str | Path) -> Squad:
    """Load and validate a squad file (uncached).

    Raises:
        DataError: a malformed file, naming the file and the field.
    """
    return read_data(Squad, path, _check_squad)


def _check_squad(squad: Squad, path: Path) -> None:
    check_stem(path, squad.id)
    for i, s in enumerate(squad.soldiers):
        check_equipment(
            path,
            f"soldiers.{i}.weapon",
            s.weapon,
            f"soldiers.{i}.equipment",
            s.equipment,
            squad.port_boxes,
        )


def load_squad(name_or_path: str | Path) -> Squad:
    """Load a squad by shipped id (``"standard"``, cached) or by file path (RULES.md §4).

    Raises:
        ScenarioError: an unknown squad id (the message lists the shipped squads).
        DataError: a malformed file, naming the file and the field.
    """
    return load_data(Squad, SQUADS_DIR, name_or_path, what="squad", check=_check_squad)
