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

The points-based random squad generator (RULES.md §4, optional) is :func:`generate_squad`; its
prices are data (``data/squad_points.yaml``, schema :class:`SquadPoints`) and
:func:`squad_cost` prices any squad by the same table.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, field_validator, model_validator

from ambush_env.core.model.errors import DataError
from ambush_env.core.world.cards import (
    CrRating,
    DsRating,
    FieldProblem,
    Ident,
    InRating,
    Item,
    MvRating,
    PcRating,
    WsRating,
    check_equipment,
    check_item_counts,
    check_kits,
    item_boxes,
    kits_check,
)
from ambush_env.core.world.data import DataKind, Frozen, config_dir, data_path, read_data

SQUADS_DIR = config_dir("squads")
"""``configs/squads/`` at the repository root (packaged as ``ambush_env/_configs/squads``)."""

MAX_SOLDIERS = 12
"""Squad slots of the action layout (``orders.U_SLOTS``); the standard squad uses 8."""

Role = Literal["sergeant", "corporal", "private"]
NcoRole = Literal["sergeant", "corporal"]
NCO_ROLES: tuple[NcoRole, ...] = ("sergeant", "corporal")


class Ratings(Frozen):
    """A soldier's six ratings (RULES.md §4 ranges): what :class:`Soldier`, a campaign veteran
    and a campaign replacement all carry, declared once.

    Attributes:
        IN, PC, WS, DS, MV, CR: d10 ratings; MV in MPs, CR in hexes.
    """

    IN: InRating
    PC: PcRating
    WS: WsRating
    DS: DsRating
    MV: MvRating
    CR: CrRating

    def ratings(self) -> dict[str, Any]:
        """The six ratings by name, ``{"IN": 3, ..., "CR": 2}``: what his unit in a game, or a
        campaign veteran's soldier for a mission, starts with."""
        return {r: getattr(self, r) for r in RATING_NAMES}


RATING_NAMES: tuple[str, ...] = tuple(Ratings.model_fields)
"""``("IN", "PC", "WS", "DS", "MV", "CR")``, in the order of a soldier's record."""


def check_command_radius(role: Role, cr: int, field: str = "CR") -> None:
    """A private has CR 0 and an NCO CR 1-3 (RULES.md §4): a squad file's soldier, a campaign
    veteran and a campaign replacement are all checked here.

    Raises:
        FieldProblem: on ``field``, saying what the role allows.
    """
    if role == "private" and cr != 0:
        raise FieldProblem(field, f"a private has CR 0, got {cr}")
    if role in NCO_ROLES and not 1 <= cr <= 3:
        raise FieldProblem(field, f"a {role} has CR 1-3, got {cr}")


class Soldier(Ratings):
    """One US soldier's starting record (RULES.md §4).

    Attributes:
        name: ``US1``..``USn``.
        role: ``sergeant``, ``corporal`` or ``private``.
        IN, PC, WS, DS, MV, CR: ratings (:class:`Ratings`).
        weapon: weapon id (``weapons.yaml``).
        equipment: port-box item ids (one item per box).
    """

    name: str = Field(pattern=r"^US[1-9][0-9]*$")
    role: Role
    weapon: Ident
    equipment: tuple[Item, ...] = ()

    @model_validator(mode="after")
    def _command_radius(self) -> Soldier:
        check_command_radius(self.role, self.CR)
        return self

    @property
    def is_commander(self) -> bool:
        """Sergeants and corporals command (RULES.md §5)."""
        return self.role in NCO_ROLES


def _bounds(model: type[BaseModel], name: str) -> tuple[int, int]:
    """``(lowest, highest)`` of an integer field of ``model`` (its ``ge`` / ``le``)."""
    meta = {type(m).__name__: m for m in model.model_fields[name].metadata}
    return meta["Ge"].ge, meta["Le"].le


RATING_BOUNDS: dict[str, tuple[int, int]] = {r: _bounds(Ratings, r) for r in RATING_NAMES}
"""A soldier's ratings in a squad file, ``(lowest, highest)`` (:class:`Ratings`' bounds):
what a position's units are checked against too (``core/play/position.py``)."""


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
        check_item_counts("soldiers", self.soldiers, self.port_boxes, named=True)
        return self


PORT_BOXES_BOUNDS: tuple[int, int] = _bounds(Squad, "port_boxes")
"""A squad's port boxes per soldier, ``(lowest, highest)``; a position's unit may hold fewer
(a wounded soldier, seed 002 p. 26; a tank's unit, none)."""


SQUADS = DataKind(Squad, SQUADS_DIR, "squad", kits_check("soldiers"))
"""The US squads (RULES.md §4), ``configs/squads/<id>.yaml``; errors as ``DataKind``'s."""
list_squads = SQUADS.ids
"""Sorted ids of the shipped squads (``configs/squads/*.yaml``)."""
read_squad = SQUADS.read
"""Load, validate and cross-check a squad file (uncached)."""
load_squad = SQUADS.load
"""A squad by shipped id (``"standard"``, cached) or by file path (RULES.md §4)."""


# --------------------------------------------------------------------------------------------
# the points-based random squad generator (RULES.md §4)
# --------------------------------------------------------------------------------------------
RATINGS = ("IN", "PC", "WS", "DS", "MV")
"""The ratings a generator purchase (and a campaign's experience) can raise."""


class RatingPrice(Frozen):
    """Price of +1 to a rating and the highest value a purchase reaches."""

    cost: int = Field(ge=1)
    max: int


class WeaponPrice(Frozen):
    """Price of a weapon in place of the basic one, and how many a squad may carry."""

    cost: int = Field(ge=0)
    most: int = Field(ge=0, le=MAX_SOLDIERS)


class ItemPrices(Frozen):
    """Price of one port-box item (``clip``: a clip of the soldier's own weapon)."""

    grenade: int = Field(ge=1)
    satchel: int = Field(ge=1)
    clip: int = Field(ge=1)


class SquadPoints(Frozen):
    """``data/squad_points.yaml``: the generator's budget and prices (every number ⚙).

    Attributes:
        points: default budget.
        size: ``[least, most]`` soldiers, inclusive (1-12).
        soldier: price of each soldier.
        base: the ratings every soldier starts with (IN, PC, WS, DS, MV).
        command_radius: CR of the sergeant and the corporal.
        ratings: per rating, the price of +1 and the cap.
        basic_weapon: the weapon every soldier starts with.
        weapons: the weapons that may replace it (1-box clips only).
        items: item prices; most_satchels: satchel charges per squad.
    """

    points: int = Field(ge=1)
    size: tuple[int, int]
    soldier: int = Field(ge=0)
    base: dict[str, int]
    command_radius: dict[NcoRole, int]
    ratings: dict[str, RatingPrice]
    basic_weapon: Ident
    weapons: dict[str, WeaponPrice]
    items: ItemPrices
    most_satchels: int = Field(ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> SquadPoints:
        lo, hi = self.size
        if not 1 <= lo <= hi <= MAX_SOLDIERS:
            raise FieldProblem(
                "size", f"need 1 <= least <= most <= {MAX_SOLDIERS}, got {list(self.size)}"
            )
        for field in ("base", "ratings"):
            if set(getattr(self, field)) != set(RATINGS):
                raise FieldProblem(field, f"give exactly the ratings {', '.join(RATINGS)}")
        bounds = Soldier.model_fields
        for r in RATINGS:
            meta = {type(m).__name__: m for m in bounds[r].metadata}
            lo_r, hi_r = meta["Ge"].ge, meta["Le"].le
            if not lo_r <= self.base[r] <= self.ratings[r].max <= hi_r:
                raise FieldProblem(f"ratings.{r}.max", f"need {lo_r} <= base <= max <= {hi_r}")
        for role in NCO_ROLES:
            if not 1 <= self.command_radius.get(role, 0) <= 3:
                raise FieldProblem(f"command_radius.{role}", "an NCO has CR 1-3")
        return self


def _check_points(points: SquadPoints, path: Path) -> None:
    sizes = item_boxes()
    for w in (points.basic_weapon, *points.weapons):
        check_equipment(path, f"weapons.{w}", w, f"weapons.{w}", (), 4)
        if sizes is not None and sizes.get(f"clip_{w}") != 1:
            raise DataError(
                path, f"weapons.{w}", f"the generator deals in 1-box clips; clip_{w} is not one"
            )


@cache
def load_squad_points() -> SquadPoints:
    """``data/squad_points.yaml`` (cached). Raises DataError naming the file and the field."""
    return read_data(SquadPoints, data_path("squad_points.yaml"), _check_points)


def squad_cost(squad: Squad, points: SquadPoints | None = None) -> int:
    """The points a squad costs by the generator's prices (ratings below the base cost 0;
    items the table does not price, e.g. a bazooka's rockets, cost 0)."""
    t = points or load_squad_points()
    total = 0
    for s in squad.soldiers:
        total += t.soldier
        total += sum(max(0, getattr(s, r) - t.base[r]) * t.ratings[r].cost for r in RATINGS)
        if s.weapon in t.weapons:
            total += t.weapons[s.weapon].cost
        for item in s.equipment:
            key = "clip" if item.startswith("clip_") else item
            total += getattr(t.items, key, 0) if key in ItemPrices.model_fields else 0
    return total


def generate_squad(seed: int, points: int | None = None, *, squad_id: str = "generated") -> Squad:
    """A random squad bought with ``points`` (RULES.md §4, the points-based generator ⚙).

    The size is drawn from ``size`` (fewer soldiers when the budget cannot pay for them, at
    least one); US1 is the sergeant, US2 the corporal, the rest privates, each at the ``base``
    ratings with the basic weapon and nothing in his port boxes. The rest of the budget is
    spent one purchase at a time, each drawn uniformly among those affordable and legal now (a
    rating +1 up to its cap, a weapon in place of the basic one within the squad's limit, a
    grenade, a satchel charge or a clip in free port boxes), until none is left. Every squad
    it returns is valid (:class:`Squad`, ``check_equipment``) by construction.

    Args:
        seed: the generator's seed (``numpy.random.default_rng``); the same seed and points
            give the same squad.
        points: the budget (default ``squad_points.yaml: points``).
        squad_id: the squad's id.

    Returns:
        A validated :class:`Squad`; ``squad_cost(result) <= points``.

    Raises:
        ValueError: ``points`` below 1.
    """
    t = load_squad_points()
    budget = t.points if points is None else int(points)
    if budget < 1:
        raise ValueError(f"a squad costs at least 1 point, got points={points!r}")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(t.size[0], t.size[1] + 1))
    n = max(1, min(n, budget // t.soldier if t.soldier else n))
    budget -= n * t.soldier
    boxes = item_boxes() or {}
    men: list[dict[str, Any]] = []  # raw soldiers, validated by Squad below
    for i in range(n):
        role: Role = "sergeant" if i == 0 else "corporal" if i == 1 else "private"
        men.append(
            {
                "name": f"US{i + 1}",
                "role": role,
                **t.base,
                "CR": t.command_radius.get(role, 0) if role != "private" else 0,
                "weapon": t.basic_weapon,
                "equipment": [],
            }
        )
    satchels = 0
    while True:
        options: list[tuple[int, str, str, int]] = []  # (soldier, kind, what, cost)
        for i, m in enumerate(men):
            free = 4 - sum(boxes.get(x, 1) for x in m["equipment"])
            for r in RATINGS:
                if m[r] < t.ratings[r].max:
                    options.append((i, "rating", r, t.ratings[r].cost))
            if m["weapon"] == t.basic_weapon:
                for w, price in t.weapons.items():
                    if sum(x["weapon"] == w for x in men) < price.most:
                        options.append((i, "weapon", w, price.cost))
            if free >= 1:
                options.append((i, "item", "grenade", t.items.grenade))
                options.append((i, "item", "clip", t.items.clip))
            if free >= boxes.get("satchel", 2) and satchels < t.most_satchels:
                options.append((i, "item", "satchel", t.items.satchel))
        options = [o for o in options if o[3] <= budget]
        if not options:
            break
        i, kind, what, cost = options[int(rng.integers(len(options)))]
        budget -= cost
        m = men[i]
        if kind == "rating":
            m[what] += 1
        elif kind == "weapon":  # the clips he holds become clips of the new weapon (1 box each)
            m["equipment"] = [
                f"clip_{what}" if x.startswith("clip_") else x for x in m["equipment"]
            ]
            m["weapon"] = what
        else:
            m["equipment"].append(f"clip_{m['weapon']}" if what == "clip" else what)
            satchels += what == "satchel"
    squad = Squad.model_validate({"id": squad_id, "port_boxes": 4, "soldiers": men})
    check_kits("<generated squad>", "soldiers", squad.soldiers, squad.port_boxes)
    return squad
