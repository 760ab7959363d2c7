"""The observation spec: every observation array declared once (STYLE.md habit 7).

:data:`OBSERVATION_SPEC` maps each key of the ``Dict`` observation to its shape, dtype,
bounds and the meaning of every axis and feature. The Gymnasium spaces
(:func:`observation_space`), the builder's column indices (:data:`BOARD`, :data:`UNIT`, …)
and the tests are all derived from this one table, so adding a feature means adding one
name to one tuple below.

Shapes are fixed by declared maxima so one policy serves every mission:

* the board is ``BOARD_H`` × ``BOARD_W`` = 24 rows × 32 columns of hexes ⚙ (a smaller map is
  padded with zeros and its ``on_map`` plane tells where it ends);
* ``U_SLOTS`` US squad slots, ``K_SLOTS`` contact slots and ``V_SLOTS`` vehicle slots come
  from :mod:`ambush_env.core.orders`, so row ``k`` of ``contacts`` is exactly the German that
  ``fire aimed at contact k`` targets.

Every value is ``float32``; all arrays lie in ``[0, 1]`` except ``globals`` (``[-1, 1]``,
the VP feature is signed). Counts and ratings are divided by a declared scale and clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ambush_env.core.orders import K_SLOTS, U_SLOTS, V_SLOTS
from ambush_env.core.types import DIRECTION_NAMES, TERRAIN_NAMES

BOARD_H = 24  # rows ⚙ — the largest map the observation holds
BOARD_W = 32  # columns ⚙

# --- board planes (C, H, W): one name per channel, in channel order -------------------------
TERRAIN_PLANES = tuple(f"terrain_{t}" for t in TERRAIN_NAMES)
HEXSIDE_FEATURES = ("wall", "door", "window", "embankment", "crest")
HEXSIDE_PLANES = tuple(f"{f}_{d}" for f in HEXSIDE_FEATURES for d in DIRECTION_NAMES)
#: planes that depend only on the map (refreshed when walls fall or buildings collapse)
STATIC_PLANES = (
    *TERRAIN_PLANES,
    "level",  # ground level / 3
    "on_map",  # 1 on every hex of this mission's map
    *HEXSIDE_PLANES,  # 1 when the hexside towards that direction has the feature
    "objective",  # mission objective hexes
    "exit",  # hexes from which the squad may leave the map
)
#: planes rebuilt from the game state at every step
DYNAMIC_PLANES = (
    "us_standing",  # active US soldiers standing in the hex (count / 4)
    "us_crouching",
    "us_prone",
    "us_wounded",  # wounded US soldiers in the hex (count / 4)
    "us_down",  # incapacitated or killed US soldiers lying in the hex (count / 4)
    "german_standing",  # known active Germans by stance (count / 4)
    "german_crouching",
    "german_prone",
    "german_aware",  # known aware Germans (count / 4)
    "german_down",  # known incapacitated, killed or captured Germans (count / 4)
    "vehicle_us",  # vehicles on the map held by the US (disabled ones included; count / 2)
    "vehicle_german",  # vehicles on the map held by the Germans (count / 2)
    "vehicle_large",  # a large vehicle (tank) is in the hex
    "vehicle_facing",  # facing / 5 of the lowest-slot vehicle in the hex (N = 0: see vehicle_us/german)
    "vehicle_disabled",  # disabled vehicles (wrecks) in the hex (count / 2)
    "seen_by_acting",  # hexes the acting unit sees (a standing target)
    "seen_by_us",  # hexes any active US soldier sees (a standing target)
    "trigger_checked",  # trigger hexes already checked
    "acting_hex",  # the acting unit's hex
)
BOARD_PLANES = STATIC_PLANES + DYNAMIC_PLANES

# --- per-slot features ---------------------------------------------------------------------
UNIT_FEATURES = (
    "present",  # the slot holds a soldier
    "active",
    "incapacitated",
    "killed",
    "captured",
    "exited",  # left the map (or removed)
    "wounded",
    "panicked",
    "aware",
    "standing",
    "crouching",
    "prone",
    "col",  # column / (BOARD_W - 1)
    "row",  # row / (BOARD_H - 1)
    "ar_none",  # Action Round track space (RULES.md §5)
    "ar_two_turn",
    "ar_one_turn",
    "ar_complete",
    "ar_panic",
    "ar_inactive",
    "acting",  # this soldier decides now
    "eligible",  # `select unit` may pick him now
    "IN",  # / 4
    "PC",  # / 9
    "WS",  # (WS + 2) / 4
    "MV",  # / 5
    "CR",  # / 3
    "commander",  # CR > 0
    "has_ammo",  # the loaded clip is not empty
    "jammed",
    "prepared",
    "grenades",  # grenades carried / 4
    "satchels",  # satchel charges carried / 4
    "clips",  # spare clips carried / 4
    "in_vehicle",  # rides a vehicle (Unit.vehicle ≥ 0)
    "is_driver",  # sits in its driver's seat
    "weapon_automatic",  # weapon class flags (data/weapons.yaml)
    "weapon_explosive",
    "weapon_crew",
    "weapon_needs_prepare",
    "weapon_snap",  # may snap fire
    "weapon_reach",  # range bands the weapon reaches / 7
    "weapon_to_hit_near",  # base to-hit at 1 hex / 9
    "weapon_to_hit_mid",  # base to-hit at 4-6 hexes / 9 (0 beyond its range)
    "captured_weapon",  # a captured German weapon (seed 002 p. 27)
)
CONTACT_FEATURES = (
    "present",
    "active",
    "incapacitated",
    "killed",
    "captured",
    "wounded",
    "panicked",
    "aware",
    "standing",
    "crouching",
    "prone",
    "col",  # column / (BOARD_W - 1)
    "row",  # row / (BOARD_H - 1)
    "seen_by_acting",  # the acting soldier sees him (in his stance; active Germans only)
    "seen_by_us",  # some active US soldier sees him (active Germans only)
    "distance",  # hexes from the acting soldier / 16, clipped
    "same_hex",  # in the acting soldier's hex
    "adjacent",  # next to the acting soldier's hex
    "in_building",
    "guarded",  # a prisoner under guard
    "escaped",  # an escaped prisoner (seed 002 p. 25): acts on Self-Preservation
)
VEHICLE_FEATURES = (
    "present",  # the slot holds a vehicle (also once it has left the map)
    "us",  # held by the US (a captured German car included)
    "german",  # held by the Germans
    "large",  # size large (tanks; Fire Combat Modifiers)
    "col",  # column / (BOARD_W - 1); 0 off the map
    "row",  # row / (BOARD_H - 1); 0 off the map
    *(f"facing_{d}" for d in DIRECTION_NAMES),  # one-hot facing (on the map only)
    "disabled",  # knocked out for the rest of the mission
    "open",  # an open vehicle (cars; a tank not Closed)
    "tank",  # kind tank (else a car)
    "captured",  # a German car taken by the US (drivers count 1 lower)
    "exited",  # driven off the map
    "immobilised",  # cannot move
    "tyre_shot",  # no fast driving
    "occupants",  # soldiers aboard, fallen included / seats
    "full",  # no free seat
    "driver_present",  # an active soldier sits in the driver's seat
    "acting_aboard",  # the acting soldier rides it
    "acting_is_driver",  # the acting soldier is its driver
    "same_hex_as_acting",  # in the acting soldier's hex (he may board or load it)
    "mp_slow",  # the type's slow MPA / 10
    "mp_fast",  # the type's fast MPA / 10
)
GLOBAL_FEATURES = (
    "phase_operations",
    "phase_rounds",
    "phase_over",
    "round",  # Round number since Rounds began / 10, clipped
    "initiative_us",
    "initiative_german",
    "us_roll",  # / 9
    "german_roll",  # / 9
    "pulses_left",  # Operations pulses left / the mission's limit
    "rounds_left",  # Rounds left / the mission's limit
    "vp",  # VP / 20, clipped to [-1, 1]
    "selecting",  # a `select unit` decision is pending
    *(f"acting_slot_{k}" for k in range(U_SLOTS)),
    "turn_space_two",  # the acting unit's AR space: 2-Turn
    "turn_space_one",  # 1-Turn
    "mode_choose",  # what the acting unit is in the middle of (TurnState.mode)
    "mode_move",
    "mode_snap2",
    "mode_move_snap",
    "mode_charge",
    "mode_prisoner",  # moving a prisoner (seed 002 p. 25)
    "mode_drive",  # driving a vehicle (seed 000 p. 30)
    "seat_change_used",  # the free get-in / get-out / seat change of an Operations action
    "drive_fast",  # this drive went past the slow MPA (its Accident Check is made)
    "drive_mp_left",  # MPs (Rounds) or hexes (Operations) left to the drive / 10, clipped
    "mp_left",  # / 5, clipped
    "hexes_moved",  # / 5, clipped
    "stance_changed",
    "contacts_known",  # / K_SLOTS
    "us_active",  # / U_SLOTS
)


@dataclass(frozen=True)
class ObsField:
    """One entry of the observation ``Dict``.

    Attributes:
        name: the key.
        shape: the array shape.
        low, high: bounds of every element.
        axes: the meaning of each axis, outermost first.
        features: the names along the last feature axis (channels for ``board``).
        doc: one line for the docs.
    """

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    axes: tuple[str, ...]
    features: tuple[str, ...]
    doc: str
    dtype: type = np.float32


OBSERVATION_SPEC: dict[str, ObsField] = {
    f.name: f
    for f in (
        ObsField(
            "board",
            (len(BOARD_PLANES), BOARD_H, BOARD_W),
            0.0,
            1.0,
            ("plane", "row", "column"),
            BOARD_PLANES,
            "hex planes in odd-q offset layout: board[c, row, col]",
        ),
        ObsField(
            "units",
            (U_SLOTS, len(UNIT_FEATURES)),
            0.0,
            1.0,
            ("US squad slot", "feature"),
            UNIT_FEATURES,
            "one row per US squad slot (Unit.slot)",
        ),
        ObsField(
            "contacts",
            (K_SLOTS, len(CONTACT_FEATURES)),
            0.0,
            1.0,
            ("contact slot", "feature"),
            CONTACT_FEATURES,
            "one row per known German, in the slot order of fire/assault orders",
        ),
        ObsField(
            "vehicles",
            (V_SLOTS, len(VEHICLE_FEATURES)),
            0.0,
            1.0,
            ("vehicle slot", "feature"),
            VEHICLE_FEATURES,
            "one row per vehicle slot (Vehicle.vid), in the slot order of the vehicle orders",
        ),
        ObsField(
            "globals",
            (len(GLOBAL_FEATURES),),
            -1.0,
            1.0,
            ("feature",),
            GLOBAL_FEATURES,
            "phase, round, initiative, time left, VP, acting unit and turn",
        ),
    )
}


def _index(names: tuple[str, ...]) -> dict[str, int]:
    if len(set(names)) != len(names):
        raise AssertionError(f"duplicate feature names in {names}")
    return {n: i for i, n in enumerate(names)}


#: column indices by name, for the builder and for agents reading observations
BOARD = _index(BOARD_PLANES)
UNIT = _index(UNIT_FEATURES)
CONTACT = _index(CONTACT_FEATURES)
VEHICLE = _index(VEHICLE_FEATURES)
GLOBAL = _index(GLOBAL_FEATURES)
N_STATIC = len(STATIC_PLANES)


def observation_space():
    """The ``gymnasium.spaces.Dict`` built from :data:`OBSERVATION_SPEC`."""
    from gymnasium import spaces

    return spaces.Dict(
        {
            name: spaces.Box(low=f.low, high=f.high, shape=f.shape, dtype=f.dtype)
            for name, f in OBSERVATION_SPEC.items()
        }
    )


def zeros() -> dict[str, np.ndarray]:
    """A zero observation with every declared shape and dtype."""
    return {name: np.zeros(f.shape, dtype=f.dtype) for name, f in OBSERVATION_SPEC.items()}


def describe() -> str:
    """A Markdown table of the observation (for the README and ``ambush`` docs)."""
    lines = ["| key | shape | bounds | axes | features |", "|---|---|---|---|---|"]
    for f in OBSERVATION_SPEC.values():
        feats = ", ".join(f.features)
        lines.append(
            f"| `{f.name}` | {f.shape} float32 | [{f.low:g}, {f.high:g}] | {' × '.join(f.axes)} | {feats} |"
        )
    return "\n".join(lines)
