"""Owns the engine numbers of the sequence of play: ``data/rules.yaml`` validated (RULES.md §5,
§6, §14 ⚙).
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from ambush_env.core.model.types import TERRAIN_NAMES
from ambush_env.core.world.data import DataFile, Frozen, data_path


class ARTrack(Frozen):
    """RULES.md §5: AR value thresholds (2-Turn ≥ two_turn > 1-Turn ≥ one_turn > command ≥ command)."""

    two_turn: int
    one_turn: int
    command: int

    @model_validator(mode="after")
    def _ordered(self) -> ARTrack:
        if not self.two_turn > self.one_turn > self.command >= 0:
            raise ValueError("thresholds must satisfy two_turn > one_turn > command >= 0")
        return self


class GermanRules(Frozen):
    outnumbered_radius: int
    outnumbered_ratio: int
    cover_terrain: frozenset[int]

    @field_validator("cover_terrain", mode="before")
    @classmethod
    def _terrain(cls, v: list[str]) -> frozenset[int]:
        out = set()
        for name in v:
            if name not in TERRAIN_NAMES:
                raise ValueError(f"unknown terrain {name!r}")
            out.add(TERRAIN_NAMES.index(name))
        return frozenset(out)


class RewardTable(Frozen):
    decisive_win: float
    win: float
    draw: float
    loss: float
    vp_scale: float


_SCATTER = ("ahead", "ahead_left", "ahead_right", "back_left", "back_right", "short")


class StanceRange(Frozen):
    standing: int | None
    crouching: int | None
    prone: int | None

    def by_stance(self) -> tuple[int | None, int | None, int | None]:
        return (self.standing, self.crouching, self.prone)


class GrenadeRules(Frozen):
    """RULES.md §9 ⚙."""

    grenade_range: StanceRange
    satchel_range: StanceRange
    non_adjacent_aperture: int
    diagram_a: tuple[str, ...]
    diagram_b: tuple[str, ...]
    prone_damage: int
    throw_out_modifier: int
    vehicle_drop: int = Field(ge=0, le=10)  # seed 000 p. 33: a failed throw into a vehicle

    @field_validator("diagram_a", "diagram_b")
    @classmethod
    def _diagram(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(v) != 10:
            raise ValueError(f"a scatter diagram has 10 entries (d10 0-9), got {len(v)}")
        for x in v:
            if x not in _SCATTER:
                raise ValueError(f"unknown scatter entry {x!r}; one of {_SCATTER}")
        return v


class AssaultRules(Frozen):
    """RULES.md §10 ⚙."""

    base: int
    per_extra_attacker: int
    defender_ws_from: int
    unaware_or_panicked_defender: int
    charge_fraction: float


class AwarenessRules(Frozen):
    """RULES.md §5 ⚙: unaware US soldiers make a PC check at the start of Round
    ``check_round`` and are all aware from Round ``aware_round`` (Rounds since Rounds began)."""

    check_round: int = Field(ge=1)
    aware_round: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> AwarenessRules:
        if self.aware_round <= self.check_round:
            raise ValueError(
                f"aware_round {self.aware_round} must follow check_round {self.check_round}"
            )
        return self


class FireRules(Frozen):
    """RULES.md §6: snap shots of a fire action, and the move a snap fire may follow."""

    snap_shots: int = Field(ge=1)
    move_snap_fraction: float = Field(ge=0, le=1)


class MovementRules(Frozen):
    """MP costs of Rounds actions other than entering a hex."""

    seat_change_mp: int = Field(ge=0)  # seed 000 p. 31
    wounded_stance_mp: int = Field(ge=0)  # seed 002 p. 26


class MineRules(Frozen):
    """Minefields ⚙ (module ``mines``; seed 000 p. 32)."""

    soldier_row: str  # the damage row a US soldier entering an anti-personnel field rolls on

    @field_validator("soldier_row")
    @classmethod
    def _row(cls, v: str) -> str:
        from ambush_env.core.world.data import read_yaml

        rows = read_yaml(data_path("damage.yaml")).get("rows", {})
        if v not in rows:
            raise ValueError(f"{v!r} is no damage row of damage.yaml; one of {sorted(rows)}")
        return v


class PrisonerRules(Frozen):
    """Seed 002 p. 25."""

    mv: int = Field(ge=1)


class RulesData(Frozen):
    ar_track: ARTrack
    german: GermanRules
    reward: RewardTable
    grenades: GrenadeRules
    assault: AssaultRules
    awareness: AwarenessRules
    fire: FireRules
    movement: MovementRules
    prisoners: PrisonerRules
    mines: MineRules
    reference_mission: str

    @field_validator("reference_mission")
    @classmethod
    def _shipped_mission(cls, v: str) -> str:
        if not data_path("missions", f"{v}.yaml").is_file():
            known = sorted(p.stem for p in data_path("missions").glob("*.yaml"))
            raise ValueError(f"{v!r} is not a shipped mission; known: {', '.join(known)}")
        return v


RULES_FILE = DataFile(RulesData, "rules", "rules file")
"""The rules file, ``data/rules.yaml``; errors as ``DataFile``'s."""
load_rules_data = RULES_FILE.load
"""A rules file (default: the shipped ``data/rules.yaml``, loaded once and cached)."""
