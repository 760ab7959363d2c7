"""Owns the campaign (RULES.md §16): chains of missions, the squad carried through them, what
happens between missions, and the squad file of a campaign in progress.

Chain file schema (``data/campaigns/<id>.yaml``, :class:`Chain`)::

    id: first_push            # must equal the file stem
    title: The First Push
    briefing: ...             # optional
    squad: standard           # the squad a new campaign starts with (configs/squads/)
    rules: standard           # standard | d100
    missions:                 # played in this order, at least one
      - {mission: farm_assault, deck: regular}

Squad file schema (:class:`CampaignSquad`; written by :func:`save_squad_file`, read by
:func:`read_squad_file`)::

    format: 1
    campaign: first_push      # the chain (an id of data/campaigns/ or a chain file's path)
    next: 1                   # chain position: index of the next mission (= len: finished)
    next_id: 9                # the number the next replacement gets
    port_boxes: 4
    soldiers:                 # squad order (slot order when everyone is fit)
      - {id: 1, role: sergeant, IN: 3, PC: 6, WS: 1, DS: 3, MV: 5, CR: 2, weapon: thompson,
         equipment: [grenade, clip_thompson], xp: 4, missions: 1, missed: 0, wounds: 0,
         out: false}
    history:                  # one entry per mission played (or forfeited), in order
      - {mission: farm_assault, deck: regular, seed: 0, result: win, vp: 20,
         fates: {1: fit, 2: wounded, 3: killed}}
    end: squad file           # the last line: a file without it is truncated

Between missions (:func:`advance`, numbers in ``data/campaign.yaml``): a soldier who missed
the mission is fit again; a killed or captured ⚙ one is replaced in his slot by a replacement
(his role, weapon and kit, base ratings, a new number); every other soldier who played
survived: he earns the experience of the result (2 loss, 4 win, RULES.md §16), spends 6 points
for each +1 to a rating (his chosen one, else the first of ``improve`` below its cap), recovers
from a wound, and when incapacitated misses the next mission.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal, get_args

import yaml
from pydantic import Field, ValidationError, model_validator

from ambush_env.core.model.errors import DataError, ScenarioError
from ambush_env.core.model.types import RESULT_NAMES, ResultName, Status
from ambush_env.core.play.game import Game
from ambush_env.core.rules.ctx import Ctx
from ambush_env.core.world.cards import FieldProblem, Ident, Item, check_kits, list_decks
from ambush_env.core.world.data import (
    DataKind,
    Frozen,
    data_path,
    read_data,
    read_yaml,
    validation_problem,
    write_text_atomic,
)
from ambush_env.core.world.missions import list_missions
from ambush_env.core.world.squads import (
    MAX_SOLDIERS,
    RATINGS,
    Ratings,
    Role,
    Soldier,
    Squad,
    check_command_radius,
    load_squad,
)

CAMPAIGNS_DIR = data_path("campaigns")
"""``ambush_env/data/campaigns/``: the shipped chains."""

SQUAD_FILE_FORMAT: Final = 1
END_MARK: Final = "squad file"
"""The value of the squad file's last key, ``end``: a file without it is truncated."""

Fate = Literal["fit", "wounded", "incapacitated", "killed", "captured"]
"""How a soldier came out of a mission (seed 002's statuses; ``fit``: unhurt)."""
LOST: tuple[Fate, ...] = (
    "killed",
    "captured",
)  # ⚙ a captured man is lost to the squad like a killed one


# --------------------------------------------------------------------------------------------
# data: the rules and the chains
# --------------------------------------------------------------------------------------------
class Improve(Frozen):
    """One rating experience can raise, and its cap."""

    rating: Literal["IN", "PC", "WS", "DS", "MV"]
    cap: int


class CampaignRules(Frozen):
    """``data/campaign.yaml`` (RULES.md §16; the ⚙ choices are noted in the file).

    Attributes:
        experience: points a survivor earns, by result name.
        price: points for +1 to one rating.
        improve: the ratings experience raises, in the order the default rule tries them.
        replacement: base ratings of a replacement, by role.
    """

    experience: dict[ResultName, Annotated[int, Field(ge=0)]]  # a survivor's xp is never < 0
    price: int = Field(ge=1)
    improve: tuple[Improve, ...] = Field(min_length=1)
    replacement: dict[Role, Ratings]

    @model_validator(mode="after")
    def _complete(self) -> CampaignRules:
        missing = [r for r in RESULT_NAMES if r not in self.experience]
        if missing:
            raise FieldProblem("experience", f"no award for {', '.join(missing)}")
        for role in ("sergeant", "corporal", "private"):
            if role not in self.replacement:
                raise FieldProblem("replacement", f"no base ratings for a {role}")
        for role, r in self.replacement.items():
            check_command_radius(role, r.CR, f"replacement.{role}.CR")
        bounds = {name: Ratings.model_fields[name].metadata for name in RATINGS}
        for i, imp in enumerate(self.improve):
            hi = next(m.le for m in bounds[imp.rating] if hasattr(m, "le"))
            if imp.cap > hi:
                raise FieldProblem(f"improve.{i}.cap", f"{imp.rating} is at most {hi}")
        return self


@cache
def load_campaign_rules() -> CampaignRules:
    """``data/campaign.yaml`` (cached). Raises DataError naming the file and the field."""
    return read_data(CampaignRules, data_path("campaign.yaml"))


class ChainMission(Frozen):
    """One link of a chain: a mission and the German deck it is played against."""

    mission: str = Field(min_length=1)
    deck: Ident = "regular"


class Chain(Frozen):
    """A campaign: missions played one after another with one squad (RULES.md §16)."""

    id: Ident
    title: str = Field(min_length=1)
    briefing: str = ""
    squad: Ident = "standard"
    rules: Literal["standard", "d100"] = "standard"
    missions: tuple[ChainMission, ...] = Field(min_length=1)


def _check_chain(chain: Chain, path: Path) -> None:
    missions, decks = list_missions(), list_decks()
    for i, link in enumerate(chain.missions):
        is_path = link.mission.endswith((".yaml", ".yml")) or "/" in link.mission
        if not is_path and link.mission not in missions:
            raise DataError(
                path,
                f"missions.{i}.mission",
                f"unknown mission {link.mission!r} (known: {', '.join(missions)})",
            )
        if link.deck not in decks:
            raise DataError(
                path,
                f"missions.{i}.deck",
                f"unknown deck {link.deck!r} (known: {', '.join(decks)})",
            )
    try:
        load_squad(chain.squad)
    except ScenarioError as e:
        raise DataError(path, "squad", str(e)) from None


CHAINS = DataKind(Chain, CAMPAIGNS_DIR, "campaign", _check_chain)
"""The campaign chains (RULES.md §16), ``data/campaigns/<id>.yaml``; errors as ``DataKind``'s
(an unknown mission or deck of a link names ``missions.<i>.mission`` / ``.deck``)."""
list_campaigns = CHAINS.ids
"""Sorted ids of the shipped chains (``data/campaigns/*.yaml``)."""
load_chain = CHAINS.load
"""A chain by shipped id (cached) or file path."""


# --------------------------------------------------------------------------------------------
# the squad of a campaign in progress
# --------------------------------------------------------------------------------------------
class Veteran(Ratings):
    """A soldier of a campaign squad: his current ratings and his record.

    Attributes:
        id: his number in the campaign (1, 2, ...; a replacement gets the next one).
        role, weapon, equipment: as :class:`~ambush_env.core.world.squads.Soldier`; IN, PC, WS,
            DS, MV, CR: his ratings (:class:`~ambush_env.core.world.squads.Ratings`).
        xp: experience points not yet spent.
        missions: missions played; missed: missions missed.
        wounds: times he came out of a mission wounded or incapacitated.
        out: incapacitated in the last mission he played: he misses the next one.
    """

    id: int = Field(ge=1)
    role: Role
    weapon: Ident
    equipment: tuple[Item, ...] = ()
    xp: int = Field(default=0, ge=0)
    missions: int = Field(default=0, ge=0)
    missed: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0)
    out: bool = False

    @model_validator(mode="after")
    def _command_radius(self) -> Veteran:
        check_command_radius(self.role, self.CR)
        return self

    def soldier(self, name: str, role: Role | None = None, cr: int | None = None) -> Soldier:
        """His record for a mission, as squad slot ``name`` (``US3``)."""
        rated = self.ratings()
        if cr is not None:
            rated["CR"] = cr
        return Soldier(
            name=name,
            role=role or self.role,
            **rated,
            weapon=self.weapon,
            equipment=self.equipment,
        )


class Played(Frozen):
    """One mission of the campaign's history.

    Attributes:
        mission, deck: the chain link.
        seed: the seed it was played with (None: not recorded, or forfeited).
        result: the result name; vp: the VP.
        fates: soldier id → how he came out (the men who played); empty when forfeited.
    """

    mission: str
    deck: Ident
    seed: int | None = None
    result: ResultName
    vp: int = 0
    fates: dict[int, Fate] = Field(default_factory=dict)


class CampaignSquad(Frozen):
    """The squad file of a campaign in progress (module docstring).

    Attributes:
        campaign: the chain's id or path.
        next: chain position (the index of the next mission; ``len(chain.missions)``: over).
        next_id: the number of the next replacement.
        port_boxes: port boxes per soldier (RULES.md §4 ⚙).
        soldiers: squad order.
        history: the missions played so far (``len(history) == next``).
        end: :data:`END_MARK`; a file without it is truncated.
    """

    format: Literal[1] = SQUAD_FILE_FORMAT
    campaign: str = Field(min_length=1)
    next: int = Field(default=0, ge=0)
    next_id: int = Field(ge=2)
    port_boxes: int = Field(default=4, ge=1, le=4)
    soldiers: tuple[Veteran, ...] = Field(min_length=1, max_length=MAX_SOLDIERS)
    history: tuple[Played, ...] = ()
    end: Literal["squad file"] = END_MARK

    @model_validator(mode="after")
    def _consistent(self) -> CampaignSquad:
        seen: set[int] = set()
        for i, s in enumerate(self.soldiers):
            if s.id in seen:
                raise FieldProblem(f"soldiers.{i}.id", f"soldier number {s.id} given twice")
            seen.add(s.id)
            if s.id >= self.next_id:
                raise FieldProblem("next_id", f"must be above every soldier's id ({s.id})")
            if len(s.equipment) > self.port_boxes:
                raise FieldProblem(
                    f"soldiers.{i}.equipment",
                    f"{len(s.equipment)} items in {self.port_boxes} port boxes",
                )
        sergeants = [i for i, s in enumerate(self.soldiers) if s.role == "sergeant"]
        if len(sergeants) != 1:
            raise FieldProblem(
                "soldiers", f"a squad has exactly one sergeant, got {len(sergeants)}"
            )
        if len(self.history) != self.next:
            raise FieldProblem(
                "history", f"{len(self.history)} missions played, but next is {self.next}"
            )
        return self

    def to_dict(self) -> dict:
        """The JSON/YAML-able form (what :func:`save_squad_file` writes; ``end`` last; the
        ``fates`` keys are the soldiers' numbers, as ints)."""
        d = self.model_dump(mode="json")
        # a soldier's record reads his number and role first, then the ratings he inherits
        d["soldiers"] = [{"id": v.pop("id"), "role": v.pop("role"), **v} for v in d["soldiers"]]
        for h in d["history"]:
            h["fates"] = {int(k): v for k, v in h["fates"].items()}
        return d

    def chain(self) -> Chain:
        """The chain this squad is in (:func:`load_chain`)."""
        return load_chain(self.campaign)

    def finished(self) -> bool:
        """Every mission of the chain has been played."""
        return self.next >= len(self.chain().missions)

    def veteran(self, soldier_id: int) -> Veteran:
        """The soldier numbered ``soldier_id``. Raises KeyError."""
        for s in self.soldiers:
            if s.id == soldier_id:
                return s
        raise KeyError(soldier_id)


def new_campaign(
    chain: str | Path | Chain, squad: str | Path | Squad | None = None
) -> CampaignSquad:
    """A campaign at its start: ``squad`` (default: the chain's), nobody with experience.

    Raises:
        ScenarioError / DataError: an unknown or malformed chain or squad.
    """
    ch = chain if isinstance(chain, Chain) else load_chain(chain)
    ref = chain if isinstance(chain, (str, Path)) else ch.id
    sq = squad if isinstance(squad, Squad) else load_squad(squad or ch.squad)
    soldiers = [
        Veteran(id=i + 1, **s.model_dump(exclude={"name"})) for i, s in enumerate(sq.soldiers)
    ]
    return CampaignSquad(
        campaign=str(ref),
        next_id=len(soldiers) + 1,
        port_boxes=sq.port_boxes,
        soldiers=tuple(soldiers),
    )


def coerce_squad(squad: Any) -> CampaignSquad:
    """A :class:`CampaignSquad` from itself, its dict (``to_dict``) or a squad file path.

    Raises:
        DataError: an invalid dict (``<squad>``) or file, naming the field (and the line).
    """
    if isinstance(squad, CampaignSquad):
        return squad
    if isinstance(squad, (str, Path)):
        return read_squad_file(squad)
    if isinstance(squad, Mapping):
        return _validated(dict(squad), "<squad>", None)
    raise DataError(
        "<squad>",
        "<root>",
        f"a squad is a squad dict or a squad file path, got {type(squad).__name__}",
    )


# --------------------------------------------------------------------------------------------
# a mission of the campaign
# --------------------------------------------------------------------------------------------
def fielded(cs: CampaignSquad) -> list[Veteran]:
    """The soldiers who play the next mission: everyone not ``out``, in squad order."""
    return [s for s in cs.soldiers if not s.out]


def mission_squad(cs: CampaignSquad) -> Squad | None:
    """The :class:`Squad` that plays the next mission: the :func:`fielded` soldiers as
    ``US1..USn`` in squad order; None when nobody can play (the mission is forfeited).

    ⚙ When the sergeant misses the mission, the first corporal present leads it as sergeant,
    else the first private present with CR 1 (a squad has one sergeant, RULES.md §4); only for
    that mission.
    """
    men = fielded(cs)
    if not men:
        return None
    lead: int | None = None
    if not any(s.role == "sergeant" for s in men):
        lead = next((i for i, s in enumerate(men) if s.role == "corporal"), 0)
    soldiers = []
    for i, s in enumerate(men):
        if i == lead:
            soldiers.append(s.soldier(f"US{i + 1}", role="sergeant", cr=max(1, s.CR)))
        else:
            soldiers.append(s.soldier(f"US{i + 1}"))
    return Squad(id="campaign", port_boxes=cs.port_boxes, soldiers=tuple(soldiers))


def mission_ctx(cs: CampaignSquad, ctx: Ctx | None = None) -> Ctx:
    """The context of the squad's next mission with the campaign squad in place of the
    mission's own (an existing ``ctx`` of that mission and deck is reused).

    Raises:
        ScenarioError: the campaign is over, or nobody can play (:func:`mission_squad`).
    """
    chain = cs.chain()
    if cs.next >= len(chain.missions):
        raise ScenarioError(
            f"campaign {cs.campaign!r} is over: all {len(chain.missions)} missions played"
        )
    link = chain.missions[cs.next]
    squad = mission_squad(cs)
    if squad is None:
        raise ScenarioError(
            f"nobody in the squad can play mission {link.mission!r}: it is forfeited"
        )
    if (
        ctx is None
        or ctx.mission_id != Path(link.mission).stem
        or ctx.opponent != link.deck
        or ctx.rules != chain.rules
    ):
        ctx = Ctx(link.mission, rules=chain.rules, opponent=link.deck)
    ctx.squad = squad
    return ctx


@dataclass(frozen=True)
class Outcome:
    """How a mission came out, for :func:`advance`.

    Attributes:
        result: ``"loss"``, ``"draw"``, ``"win"`` or ``"decisive_win"``.
        vp: the VP.
        fates: soldier id → fate, for every soldier who played (none: forfeited).
        seed: the seed it was played with, for the record.
    """

    result: ResultName
    vp: int = 0
    fates: Mapping[int, Fate] = field(default_factory=dict)
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.result not in RESULT_NAMES:
            raise ValueError(f"unknown result {self.result!r}; known: {', '.join(RESULT_NAMES)}")
        object.__setattr__(self, "fates", dict(self.fates or {}))
        for sid, fate in self.fates.items():
            if fate not in get_args(Fate):
                raise ValueError(
                    f"soldier {sid}: unknown fate {fate!r}; known: {', '.join(get_args(Fate))}"
                )


def fate_of(status: int, wounded: bool) -> Fate:
    """A soldier's fate from his final status and wounded flag (an exited or still active man
    is ``fit`` or ``wounded``)."""
    if status == Status.KILLED:
        return "killed"
    if status == Status.CAPTURED:
        return "captured"
    if status == Status.INCAPACITATED:
        return "incapacitated"
    return "wounded" if wounded else "fit"


def outcome_of(game: Game, cs: CampaignSquad, seed: int | None = None) -> Outcome:
    """The :class:`Outcome` of a finished game of the squad's next mission (slot k is the
    k-th :func:`fielded` soldier).

    Raises:
        ScenarioError: the game is not over, or is not of this squad.
    """
    if not game.over:
        raise ScenarioError("the mission is not over: no outcome yet")
    men = fielded(cs)
    units = game.state.units  # the squad's soldiers are units 0..n-1, set up first (Game.reset)
    if len(units) < len(men) or any(units[k].name != f"US{k + 1}" for k in range(len(men))):
        raise ScenarioError(f"the game's squad is not the {len(men)} soldiers this squad fields")
    fates = {s.id: fate_of(units[k].status, units[k].wounded) for k, s in enumerate(men)}
    return Outcome(result=RESULT_NAMES[game.result], vp=int(game.vp), fates=fates, seed=seed)


def forfeit() -> Outcome:
    """The outcome of a mission nobody could play ⚙: a loss, and nobody earns anything."""
    return Outcome(result="loss")


# --------------------------------------------------------------------------------------------
# between missions (RULES.md §16)
# --------------------------------------------------------------------------------------------
def spend(v: dict, rules: CampaignRules, choice: str | None = None) -> None:
    """Spend a soldier's experience (a dict of :class:`Veteran` fields, changed in place):
    each ``price`` points buy +1 to his ``choice`` when it is below its cap, else to the first
    rating of ``improve`` below its cap; points nobody can spend are kept."""
    caps = {imp.rating: imp.cap for imp in rules.improve}
    rating: str | None
    while v["xp"] >= rules.price:
        if choice in caps and v[choice] < caps[choice]:
            rating = choice
        else:
            rating = next((imp.rating for imp in rules.improve if v[imp.rating] < imp.cap), None)
        if rating is None:
            return
        v[rating] += 1
        v["xp"] -= rules.price


def advance(
    cs: CampaignSquad, outcome: Outcome, *, choices: Mapping[int, str] | None = None
) -> CampaignSquad:
    """The squad after its next mission came out as ``outcome`` (RULES.md §16, module
    docstring): recovery, experience, improvements and replacements; the chain moves on.

    Args:
        cs: the squad before the mission.
        outcome: its outcome; ``fates`` must name exactly the :func:`fielded` soldiers (or
            nobody, for a forfeit).
        choices: soldier id → the rating his experience buys (default: the ``improve`` order).

    Raises:
        ScenarioError: the campaign is over, or the fates do not match the soldiers fielded.
    """
    rules = load_campaign_rules()
    chain = cs.chain()
    if cs.next >= len(chain.missions):
        raise ScenarioError(f"campaign {cs.campaign!r} is over: no mission to score")
    played = {s.id for s in fielded(cs)} if outcome.fates else set()
    if set(outcome.fates) != played:
        raise ScenarioError(
            f"the outcome names soldiers {sorted(outcome.fates)}, but soldiers "
            f"{sorted(played)} played the mission"
        )
    award = rules.experience[outcome.result]
    choices = choices or {}
    next_id = cs.next_id
    soldiers = []
    for s in cs.soldiers:
        v = s.model_dump()
        if s.id not in played:  # missed it (or a forfeit): fit again ⚙ no experience
            if s.out:
                v["out"] = False
                v["missed"] += 1
            soldiers.append(v)
            continue
        fate = outcome.fates[s.id]
        if fate in LOST:
            base = rules.replacement[s.role].model_dump()
            soldiers.append(
                {
                    "id": next_id,
                    "role": s.role,
                    **base,
                    "weapon": s.weapon,
                    "equipment": list(s.equipment),
                }
            )
            next_id += 1
            continue
        v["missions"] += 1
        v["xp"] += award
        v["wounds"] += fate in ("wounded", "incapacitated")
        v["out"] = fate == "incapacitated"  # a wound heals between missions
        spend(v, rules, choices.get(s.id))
        soldiers.append(v)
    link = chain.missions[cs.next]
    record = Played(
        mission=link.mission,
        deck=link.deck,
        seed=outcome.seed,
        result=outcome.result,
        vp=outcome.vp,
        fates=dict(outcome.fates),
    )
    return CampaignSquad(
        campaign=cs.campaign,
        next=cs.next + 1,
        next_id=next_id,
        port_boxes=cs.port_boxes,
        soldiers=tuple(Veteran(**v) for v in soldiers),
        history=(*cs.history, record),
    )


def play_next(
    cs: CampaignSquad,
    runner: Callable[[Game], Any],
    seed: int | None = None,
    *,
    choices: Mapping[int, str] | None = None,
) -> CampaignSquad:
    """Play the squad's next mission with ``runner`` and return the squad after it.

    Args:
        runner: ``runner(game)`` plays the game (a :class:`Game` of the mission with the
            campaign squad, dice seeded with ``seed``) to its end.
        seed: the game's dice seed.
        choices: as :func:`advance`.

    Raises:
        ScenarioError: the campaign is over, or the runner left the game unfinished.
    """
    if mission_squad(cs) is None:
        return advance(cs, forfeit(), choices=choices)
    game = Game(ctx=mission_ctx(cs), seed=seed)
    runner(game)
    return advance(cs, outcome_of(game, cs, seed), choices=choices)


# --------------------------------------------------------------------------------------------
# the squad file
# --------------------------------------------------------------------------------------------
_HEADER = (
    "# An Ambush! campaign squad file (ambush_env/core/play/campaign.py). Written by `ambush\n"
    "# campaign`; `end` must be the last line (a file without it is truncated).\n"
)


def squad_file_text(cs: CampaignSquad) -> str:
    """The squad file's text (YAML, keys in schema order, ``end`` last)."""
    return _HEADER + yaml.safe_dump(
        cs.to_dict(), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )


def save_squad_file(cs: CampaignSquad, path: str | Path) -> Path:
    """Write the squad file atomically (:func:`ambush_env.core.world.data.write_text_atomic`): a
    crash or kill at any point leaves the old file whole (or no file), never a half-written
    one.

    Raises:
        OSError: the folder cannot be written. IsADirectoryError: ``path`` is a folder.
    """
    return write_text_atomic(squad_file_text(cs), path, what="squad file")


def read_squad_file(path: str | Path) -> CampaignSquad:
    """Read and validate a squad file.

    Raises:
        DataError: naming the file, the field and the line: a YAML syntax error (``line <n>``),
            a truncated file (no ``end`` as its last key: the last line read), a missing or
            invalid field (its dotted name, and the line it is on), an unknown chain, or a
            chain position past the chain's end.
    """
    p = Path(path)
    raw = read_yaml(p)
    text = p.read_text(encoding="utf-8")
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if not isinstance(raw, dict):
        raise DataError(
            p,
            "line 1",
            f"a squad file is a mapping of fields, got "
            f"{type(raw).__name__} (truncated or not a squad file)",
        )
    if not raw or list(raw)[-1] != "end":
        raise DataError(
            p,
            f"line {n_lines}",
            f"truncated: the file ends at line {n_lines} without its last line 'end: {END_MARK}'",
        )
    return _validated(raw, p, text)


def _validated(raw: dict, path: str | Path, text: str | None) -> CampaignSquad:
    """Validate a squad dict (and its chain); errors name the field and, from ``text``, its line."""
    try:
        cs = CampaignSquad.model_validate(raw)
    except ValidationError as e:
        loc, msg, _ = validation_problem(e)
        raise DataError(path, _where(loc, text), msg) from None
    try:
        chain = cs.chain()
    except (ScenarioError, DataError) as e:
        raise DataError(path, _where(["campaign"], text), str(e)) from None
    if cs.next > len(chain.missions):
        raise DataError(
            path,
            _where(["next"], text),
            f"chain position {cs.next} is past the end of {chain.id!r} "
            f"({len(chain.missions)} missions)",
        )
    try:
        check_kits(path, "soldiers", cs.soldiers, cs.port_boxes)
    except DataError as e:
        raise DataError(path, _where(e.field.split("."), text), e.problem) from None
    return cs


def _where(loc: list[str], text: str | None) -> str:
    """``soldiers.3.weapon (line 42)``: the dotted field and, when the text is known, the line
    of its key (or of the nearest enclosing one that is there)."""
    field = ".".join(loc) or "<root>"
    if text is None:
        return field
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return field
    line = node.start_mark.line + 1 if node is not None else 1
    for part in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            for k, val in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == part:
                    child, line = val, k.start_mark.line + 1
                    break
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            child = node.value[int(part)]
            line = child.start_mark.line + 1
        if child is None:
            break
        node = child
    return f"{field} (line {line})"


def describe_changes(before: CampaignSquad, after: CampaignSquad) -> list[str]:
    """Lines saying what the last mission did to the squad: its result, each soldier's fate,
    experience and improvements, and who replaced whom (``after`` is ``advance(before, ...)``)."""
    if not after.history or after.next != before.next + 1:
        return []
    rec = after.history[-1]
    n = len(after.chain().missions)
    lines = [
        f"mission {after.next}/{n} {rec.mission} ({rec.deck}): {rec.result}, {rec.vp} VP"
        + ("" if rec.fates else " (forfeited: nobody could play)")
    ]
    old = {s.id: s for s in before.soldiers}
    for slot, s in enumerate(after.soldiers):
        if s.id not in old:
            gone = before.soldiers[slot]
            lines.append(
                f"  #{gone.id} {gone.role} {rec.fates.get(gone.id, 'lost')}: replaced by "
                f"#{s.id} (base ratings)"
            )
            continue
        b = old[s.id]
        fate = rec.fates.get(s.id)
        if fate is None:
            lines.append(
                f"  #{s.id} {s.role} missed the mission" if b.out else f"  #{s.id} {s.role}"
            )
            continue
        ups = [
            f"{r} {getattr(b, r):+d}->{getattr(s, r):+d}"
            if r == "WS"
            else f"{r} {getattr(b, r)}->{getattr(s, r)}"
            for r in RATINGS
            if getattr(s, r) != getattr(b, r)
        ]
        text = f"  #{s.id} {s.role} {fate}, {s.xp} xp"
        if ups:
            text += ", " + ", ".join(ups)
        if s.out:
            text += ", misses the next mission"
        lines.append(text)
    return lines
