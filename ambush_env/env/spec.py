"""The observation spec: every observation array declared once (docs/STYLE.md habit 7).

:data:`OBSERVATION_SPEC` maps each key of the ``Dict`` observation to its shape, dtype,
bounds, the meaning of every axis and, for every feature, its *scale*: what a stored number
means. The Gymnasium spaces (:func:`observation_space`), the builder's column indices and
divisors (:data:`BOARD`, :data:`UNIT`, …, :func:`divisors`), the size (:func:`observation_nbytes`),
the docs (:func:`describe`) and the tests are all derived from this one table, so adding a
feature means adding one :class:`Feature` to one tuple below.

Shapes are fixed by declared maxima so one policy serves every mission:

* the board is ``BOARD_H`` × ``BOARD_W`` = 24 rows × 32 columns of hexes ⚙ (a smaller map is
  padded with zeros and its ``on_map`` plane tells where it ends);
* ``U_SLOTS`` US squad slots, ``K_SLOTS`` contact slots and ``V_SLOTS`` vehicle slots come
  from :mod:`ambush_env.core.model.orders`, so row ``k`` of ``contacts`` is exactly the German that
  ``fire aimed at contact k`` targets.

Dtypes ⚙ (issue 10: the whole observation at most 64 KiB):

* ``board`` is ``uint8``: plane ``c`` stores a small integer — a 0/1 flag, or a count or
  level clipped at the plane's divisor ``div`` — and its *value* (what a network should read)
  is ``stored / div``, in ``[0, 1]``. The space's upper bound of the plane is ``div``, so
  ``stored / high`` is the value (what :class:`ambush_env.agents.maskable_ppo.HexPlaneExtractor`
  computes); :func:`scaled` does the same in numpy. uint8 rather than bool planes
  because the level, count and facing planes are not 0/1, and one array keeps one CNN input.
* the slot tables (``units``, ``contacts``, ``vehicles``, ``globals``) stay ``float32``, the
  value itself (``quantity / div``, clipped): together they are 3.9 KiB of the 54.2 KiB, and
  several of their divisors are not constants (the mission's time limits, a vehicle's
  seats) nor their values multiples of ``1/255`` (``col / 31``).

All values lie in ``[0, 1]`` except ``globals`` (``[-1, 1]``: the VP feature is signed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ambush_env.core.model.orders import K_SLOTS, U_SLOTS, V_SLOTS
from ambush_env.core.model.types import DIRECTION_NAMES, STANCE_NAMES, TERRAIN_NAMES, ARSpace
from ambush_env.core.world.vehicle_data import shipped_vehicle_data

if TYPE_CHECKING:
    from gymnasium import spaces

BOARD_H = 24  # rows ⚙ — the largest map the observation holds
BOARD_W = 32  # columns ⚙
MAX_OBSERVATION_BYTES = 64 * 1024  # issue 10: one observation, every key together, per seat
#: the seats an observation can be built for; the layout is side-relative (docs/API.md), so
#: both read the same table
SIDES = ("us", "german")
#: the vehicle types with a ``type_*`` column of ``vehicles`` (a one-hot), in this order ⚙: the six
#: types of seed 000, pinned so that the table's shape stays fixed when ``data/vehicles.yaml``
#: grows. A type outside them (the motorcycle ⚙) has every ``type_*`` column 0 and is told apart
#: by its other columns (``tank``, ``large``, ``mp_slow``, ``mp_fast``); giving it a column of
#: its own means adding it here, which widens the vehicle table by one column.
VEHICLE_TYPES: tuple[str, ...] = (
    "jeep",
    "kubelwagen",
    "staff_car",
    "panzer_iv",
    "sherman",
    "jagdpanther",
)
_unknown = [t for t in VEHICLE_TYPES if t not in shipped_vehicle_data().vehicles]
if _unknown:  # pragma: no cover - a renamed type in data/vehicles.yaml
    raise ValueError(f"spec.VEHICLE_TYPES names types data/vehicles.yaml lacks: {_unknown}")


@dataclass(frozen=True)
class Feature:
    """One board plane or one column of a slot table.

    Attributes:
        name: unique within its array.
        div: the divisor: the value is ``quantity / div``, clipped to the array's bounds.
            A ``uint8`` plane stores ``min(quantity, div)`` (so ``div`` is an integer and the
            plane's upper bound); a float column stores the value itself. ``None``: the
            divisor is not a constant (``unit`` says what it is) — float columns only.
        unit: what is divided, e.g. ``"soldiers"``, ``"MPs left"``; empty for a 0/1 flag.
        doc: what the feature means.
    """

    name: str
    div: float | None = 1
    unit: str = ""
    doc: str = ""

    @property
    def scale(self) -> str:
        """What a stored number means, e.g. ``"0/1"``, ``"soldiers / 4"``."""
        if self.div is None:
            return self.unit
        if not self.unit:
            return "0/1" if self.div == 1 else f"/ {self.div:g}"
        return f"{self.unit} / {self.div:g}"


def _flags(*names: str, doc: str = "") -> tuple[Feature, ...]:
    return tuple(Feature(n, 1, "", doc) for n in names)


def _stance_counts(side: str, who: str) -> tuple[Feature, ...]:
    """A count plane per stance: ``<side>_standing``, … — the ``who`` in that stance in the hex."""
    return tuple(
        Feature(f"{side}_{s}", 4, "soldiers", f"{who} {s} in the hex") for s in STANCE_NAMES
    )


_F = Feature  # short name for the tables below
_COL = _F("col", BOARD_W - 1, "column")
_ROW = _F("row", BOARD_H - 1, "row")

# --- board planes (C, H, W): one per channel, in channel order ------------------------------
TERRAIN_PLANES = _flags(*(f"terrain_{t}" for t in TERRAIN_NAMES), doc="the hex's terrain (one-hot)")
HEXSIDE_FEATURES = ("wall", "door", "window", "embankment", "crest")
HEXSIDE_PLANES = _flags(
    *(f"{f}_{d}" for f in HEXSIDE_FEATURES for d in DIRECTION_NAMES),
    doc="the hexside towards that direction has the feature",
)
#: planes that depend only on the map (refreshed when walls fall or buildings collapse)
STATIC_PLANE_SPEC = (
    *TERRAIN_PLANES,
    _F("level", 3, "ground level", "ground level 0-3"),
    _F("on_map", doc="1 on every hex of this mission's map"),
    *HEXSIDE_PLANES,
    _F("objective", doc="mission objective hexes"),
    _F("exit", doc="hexes from which the squad may leave the map"),
)
#: planes rebuilt from the game state at every step (counts clipped at ``div``)
DYNAMIC_PLANE_SPEC = (
    *_stance_counts("us", "active US soldiers"),
    _F("us_wounded", 4, "soldiers", "wounded active US soldiers in the hex"),
    _F("us_down", 4, "soldiers", "incapacitated or killed US soldiers lying in the hex"),
    *_stance_counts("german", "known active Germans"),
    _F("german_aware", 4, "soldiers", "known aware active Germans in the hex"),
    _F("german_down", 4, "soldiers", "known incapacitated, killed or captured Germans in the hex"),
    _F(
        "vehicle_us",
        2,
        "vehicles",
        "vehicles held by the US, wrecks included (two share a hex at most)",
    ),
    _F("vehicle_german", 2, "vehicles", "vehicles held by the Germans, wrecks included"),
    _F("vehicle_large", doc="a large vehicle (tank) is in the hex"),
    _F(
        "vehicle_facing",
        5,
        "facing",
        "facing (N = 0 … NW = 5) of the lowest-slot vehicle in the hex",
    ),
    _F("vehicle_disabled", 2, "vehicles", "disabled vehicles (wrecks) in the hex"),
    _F("seen_by_acting", doc="hexes the acting unit sees (a standing target)"),
    _F("seen_by_us", doc="hexes any active US soldier sees (a standing target)"),
    _F("trigger_checked", doc="trigger hexes already checked"),
    _F("acting_hex", doc="the acting unit's hex"),
    # the mission language's map features (RULES.md §3, §15; appended before the first v1
    # baseline, docs/VERSIONS.md): only what the US knows
    _F(
        "landmark",
        doc="a landmark stands in the hex (the map's, or one a `landmark` paragraph made appear)",
    ),
    _F(
        "landmark_blocking",
        doc="that landmark blocks sight (the mission's `blocking_landmarks`, or a "
        "blocking `landmark` paragraph)",
    ),
    _F(
        "minefield_anti_personnel", doc="a minefield the US knows of, anti-personnel (module mines)"
    ),
    _F("minefield_anti_tank", doc="a minefield the US knows of, anti-tank (module mines)"),
    _F(
        "booby_trap_known",
        doc="a map booby trap the briefing marks (`known`) that has not gone off, been "
        "disarmed or eliminated (module traps); unknown traps never show",
    ),
)
BOARD_PLANE_SPEC = STATIC_PLANE_SPEC + DYNAMIC_PLANE_SPEC

# --- per-slot features (float32: the value itself) ------------------------------------------
UNIT_SPEC = (
    _F("present", doc="the slot holds a soldier"),
    *_flags("active", "incapacitated", "killed", "captured", doc="status"),
    _F("exited", doc="left the map (or removed)"),
    *_flags("wounded", "panicked", "aware"),
    *_flags("standing", "crouching", "prone", doc="stance"),
    _COL,
    _ROW,
    *_flags(
        *(f"ar_{a.name.lower()}" for a in ARSpace), doc="Action Round track space (RULES.md §5)"
    ),
    _F("acting", doc="this soldier decides now"),
    _F("eligible", doc="`select unit` may pick him now"),
    _F("IN", 4, "IN"),
    _F("PC", 9, "PC"),
    _F("WS", 4, "(WS + 2)"),
    _F("MV", 5, "MV"),
    _F("CR", 3, "CR"),
    _F("commander", doc="CR > 0"),
    _F("has_ammo", doc="the loaded clip is not empty"),
    *_flags("jammed", "prepared"),
    _F("grenades", 4, "grenades carried"),
    _F("satchels", 4, "satchel charges carried"),
    _F("clips", 4, "spare clips carried"),
    _F("in_vehicle", doc="rides a vehicle (Unit.vehicle ≥ 0)"),
    _F("is_driver", doc="sits in its driver's seat"),
    *_flags(
        "weapon_automatic",
        "weapon_explosive",
        "weapon_crew",
        "weapon_needs_prepare",
        doc="weapon class flags (data/weapons.yaml)",
    ),
    _F("weapon_snap", doc="may snap fire"),
    _F("weapon_reach", 7, "range bands the weapon reaches"),
    _F("weapon_to_hit_near", 9, "base to-hit at 1 hex"),
    _F("weapon_to_hit_mid", 9, "base to-hit at 4-6 hexes", "0 beyond its range"),
    _F("captured_weapon", doc="a captured German weapon (seed 002 p. 27)"),
)
CONTACT_SPEC = (
    _F("present"),
    *_flags("active", "incapacitated", "killed", "captured", doc="status"),
    *_flags("wounded", "panicked", "aware"),
    *_flags("standing", "crouching", "prone", doc="stance"),
    _COL,
    _ROW,
    _F("seen_by_acting", doc="the acting soldier sees him (in his stance; active Germans only)"),
    _F("seen_by_us", doc="some active US soldier sees him (active Germans only)"),
    _F("distance", 16, "hexes from the acting soldier"),
    _F("same_hex", doc="in the acting soldier's hex"),
    _F("adjacent", doc="next to the acting soldier's hex"),
    _F("in_building"),
    _F("guarded", doc="a prisoner under guard"),
    _F("escaped", doc="an escaped prisoner (seed 002 p. 25): acts on Self-Preservation"),
)
VEHICLE_SPEC = (
    _F("present", doc="the slot holds a vehicle (also once it has left the map)"),
    _F("us", doc="held by the US (a captured German car included)"),
    _F("german", doc="held by the Germans"),
    _F("large", doc="size large (tanks; Fire Combat Modifiers)"),
    _F("col", BOARD_W - 1, "column", "0 off the map"),
    _F("row", BOARD_H - 1, "row", "0 off the map"),
    *_flags(*(f"facing_{d}" for d in DIRECTION_NAMES), doc="one-hot facing (on the map only)"),
    _F("disabled", doc="knocked out for the rest of the mission"),
    _F("open", doc="an open vehicle (cars; a tank not Closed)"),
    _F("tank", doc="kind tank (else a car)"),
    _F("captured", doc="a German car taken by the US (drivers count 1 lower)"),
    _F("exited", doc="driven off the map"),
    _F("immobilised", doc="cannot move"),
    _F("tyre_shot", doc="no fast driving"),
    _F("occupants", None, "soldiers aboard, fallen included / seats"),
    _F("full", doc="no free seat"),
    _F("driver_present", doc="an active soldier sits in the driver's seat"),
    _F("acting_aboard", doc="the acting soldier rides it"),
    _F("acting_is_driver", doc="the acting soldier is its driver"),
    _F("same_hex_as_acting", doc="in the acting soldier's hex (he may board or load it)"),
    _F("mp_slow", 10, "the type's slow MPA"),
    _F("mp_fast", 10, "the type's fast MPA"),
    # the tank's state (issue 11; seed 000 p. 31-33); 0 for cars
    *_flags(
        *(f"type_{t}" for t in VEHICLE_TYPES),
        doc="vehicle type (one-hot over VEHICLE_TYPES; all 0 for a type outside them)",
    ),
    _F(
        "crew",
        None,
        "active crew / the type's crew (occupants)",
        "a tank's active crew (it sets the tank's IN, PC, WS and DS); 0 for cars",
    ),
    _F(
        "crew_points",
        None,
        "Crew Points / the type's crew (occupants)",
        "⚙ while its own unit is the acting unit: the Crew Points left this turn "
        "(TurnState.cp_left, once counted); otherwise those its next turn starts with, one per "
        "active crewman (seed 000 p. 33); 0 for cars",
    ),
    _F("cannon_loaded", doc="the tank's cannon holds a round (it must, to fire; seed 000 p. 33)"),
    *_flags("lost_cannon", "lost_coax", "lost_bow", doc="the tank's weapon is out of action"),
    *_flags("jammed_coax", "jammed_bow", doc="the tank's machine gun is jammed"),
    # the d100 module's damage (RULES.md §13; seed 003): constant under the standard rules
    _F(
        "hp",
        None,
        "Base HP left / the type's Base HP (d100.yaml)",
        "1 undamaged (always under the standard rules ⚙: they have no Base HP)",
    ),
    _F("burning", doc="on fire (d100: rolls the Vehicle Fire Table each Round)"),
)
GLOBAL_SPEC = (
    *_flags("phase_operations", "phase_rounds", "phase_over"),
    _F("round", 10, "Round number since Rounds began"),
    *_flags("initiative_us", "initiative_german"),
    _F("us_roll", 9, "initiative roll"),
    _F("german_roll", 9, "initiative roll"),
    _F("pulses_left", None, "Operations pulses left / the mission's limit"),
    _F("rounds_left", None, "Rounds left / the mission's limit"),
    _F("vp", 20, "VP", "clipped to [-1, 1]"),
    _F("selecting", doc="a `select unit` decision is pending"),
    *_flags(*(f"acting_slot_{k}" for k in range(U_SLOTS)), doc="the acting unit's slot (one-hot)"),
    _F("turn_space_two", doc="the acting unit's AR space: 2-Turn"),
    _F("turn_space_one", doc="1-Turn"),
    *_flags(
        "mode_choose",
        "mode_move",
        "mode_snap2",
        "mode_move_snap",
        "mode_charge",
        doc="what the acting unit is in the middle of (TurnState.mode)",
    ),
    _F("mode_prisoner", doc="moving a prisoner (seed 002 p. 25)"),
    _F("mode_drive", doc="driving a vehicle (seed 000 p. 30)"),
    _F("seat_change_used", doc="the free get-in / get-out / seat change of an Operations action"),
    _F("drive_fast", doc="this drive went past the slow MPA (its Accident Check is made)"),
    _F("drive_mp_left", 10, "MPs (Rounds) or hexes (Operations) left to the drive"),
    _F("mp_left", 5, "MPs left"),
    _F("hexes_moved", 5, "hexes moved"),
    _F("stance_changed"),
    _F("contacts_known", K_SLOTS, "known Germans"),
    _F("us_active", U_SLOTS, "active US soldiers"),
    _F(
        "rules_d100",
        doc='the env plays the d100 module (rules="d100", RULES.md §13; else the '
        "standard Hit Charts)",
    ),
    # -v4 (issue 25): the decisions that interrupt a turn, after -v3's globals
    _F(
        "mode_free_snap",
        doc="deciding a sighting's free snap fire (RULES.md §7): `fire snap` at the sighted "
        "German takes it, `end turn` declines it",
    ),
    _F(
        "mode_throw_out",
        doc="a live German grenade in the acting soldier's hex (RULES.md §9): `throw out` "
        "tries to throw it out, `end turn` leaves it",
    ),
)


def _names(features: tuple[Feature, ...]) -> tuple[str, ...]:
    return tuple(f.name for f in features)


#: the feature names, in order (the builder and tests index by name)
STATIC_PLANES = _names(STATIC_PLANE_SPEC)
DYNAMIC_PLANES = _names(DYNAMIC_PLANE_SPEC)
BOARD_PLANES = _names(BOARD_PLANE_SPEC)
UNIT_FEATURES = _names(UNIT_SPEC)
CONTACT_FEATURES = _names(CONTACT_SPEC)
VEHICLE_FEATURES = _names(VEHICLE_SPEC)
GLOBAL_FEATURES = _names(GLOBAL_SPEC)


@dataclass(frozen=True)
class ObsField:
    """One entry of the observation ``Dict``.

    Attributes:
        name: the key.
        shape: the array shape.
        dtype: the stored dtype.
        low, high: bounds of every element's *value* (``stored / div`` for an integer dtype,
            the stored number for a float one).
        axes: the meaning of each axis, outermost first.
        features: one :class:`Feature` per index of ``feature_axis``.
        feature_axis: the axis the features run along (0 for the board's planes, the last
            one for the tables).
        doc: one line for the docs.
    """

    name: str
    shape: tuple[int, ...]
    dtype: type
    low: float
    high: float
    axes: tuple[str, ...]
    features: tuple[Feature, ...]
    feature_axis: int
    doc: str

    def __post_init__(self) -> None:
        if self.shape[self.feature_axis] != len(self.features):
            raise AssertionError(
                f"{self.name}: {len(self.features)} features for shape {self.shape}"
            )
        if len(self.axes) != len(self.shape):
            raise AssertionError(f"{self.name}: {len(self.axes)} axis names for shape {self.shape}")
        if np.issubdtype(self.dtype, np.integer):
            for f in self.features:
                if (
                    f.div is None
                    or f.div != int(f.div)
                    or not 1 <= f.div * self.high <= np.iinfo(self.dtype).max
                ):
                    raise AssertionError(
                        f"{self.name}.{f.name}: an integer plane needs an integer divisor "
                        f"that fits {np.dtype(self.dtype).name}, got {f.div!r}"
                    )

    @property
    def integer(self) -> bool:
        """Whether the array stores integers whose value is ``stored / div``."""
        return bool(np.issubdtype(self.dtype, np.integer))

    def _along_features(self, per_feature: np.ndarray) -> np.ndarray:
        """``per_feature`` (one number per feature) broadcast to the whole shape."""
        view = [1] * len(self.shape)
        view[self.feature_axis] = len(self.features)
        return np.broadcast_to(per_feature.reshape(view), self.shape)

    def feature_divisors(self) -> np.ndarray:
        """``float32`` per feature: what a stored number is divided by to give its value
        (``div`` for an integer dtype, 1 for a float one)."""
        if not self.integer:
            return np.ones(len(self.features), dtype=np.float32)
        return np.asarray([f.div for f in self.features], dtype=np.float32)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The stored bounds, full shape, in ``dtype`` (what the Gymnasium ``Box`` holds)."""
        if self.integer:
            div = np.asarray([f.div for f in self.features], dtype=np.float64)
            low: np.ndarray = self._along_features(np.round(self.low * div)).astype(self.dtype)
            high: np.ndarray = self._along_features(np.round(self.high * div)).astype(self.dtype)
            return low, high
        return (
            np.full(self.shape, self.low, dtype=self.dtype),
            np.full(self.shape, self.high, dtype=self.dtype),
        )

    def value(self, stored: np.ndarray) -> np.ndarray:
        """The ``float32`` values of a stored array (this field's shape, or with leading
        batch axes)."""
        x = np.asarray(stored, dtype=np.float32)
        if not self.integer:
            return x
        view = [1] * len(self.shape)
        view[self.feature_axis] = len(self.features)
        return x / self.feature_divisors().reshape(view)

    @property
    def nbytes(self) -> int:
        """Bytes of one array of this field."""
        return int(np.prod(self.shape)) * np.dtype(self.dtype).itemsize


OBSERVATION_SPEC: dict[str, ObsField] = {
    f.name: f
    for f in (
        ObsField(
            "board",
            (len(BOARD_PLANE_SPEC), BOARD_H, BOARD_W),
            np.uint8,
            0.0,
            1.0,
            ("plane", "row", "column"),
            BOARD_PLANE_SPEC,
            0,
            "hex planes in odd-q offset layout: board[c, row, col]",
        ),
        ObsField(
            "units",
            (U_SLOTS, len(UNIT_SPEC)),
            np.float32,
            0.0,
            1.0,
            ("US squad slot", "feature"),
            UNIT_SPEC,
            1,
            "one row per US squad slot (Unit.slot)",
        ),
        ObsField(
            "contacts",
            (K_SLOTS, len(CONTACT_SPEC)),
            np.float32,
            0.0,
            1.0,
            ("contact slot", "feature"),
            CONTACT_SPEC,
            1,
            "one row per known German, in the slot order of fire/assault orders",
        ),
        ObsField(
            "vehicles",
            (V_SLOTS, len(VEHICLE_SPEC)),
            np.float32,
            0.0,
            1.0,
            ("vehicle slot", "feature"),
            VEHICLE_SPEC,
            1,
            "one row per vehicle slot (Vehicle.vid), in the slot order of the vehicle orders",
        ),
        ObsField(
            "globals",
            (len(GLOBAL_SPEC),),
            np.float32,
            -1.0,
            1.0,
            ("feature",),
            GLOBAL_SPEC,
            0,
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


def observation_spec(side: str = "us") -> dict[str, ObsField]:
    """The table of one seat's observation (``side`` of :data:`SIDES`).

    Raises:
        ValueError: an unknown side.
    """
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    return OBSERVATION_SPEC


def divisors(key: str, side: str = "us") -> dict[str, float | None]:
    """``feature name -> div`` of one key (what the builder divides by)."""
    return {f.name: f.div for f in observation_spec(side)[key].features}


def observation_space(side: str = "us") -> spaces.Dict:
    """The ``gymnasium.spaces.Dict`` built from the table: one ``Box(low, high, shape, dtype)``
    per key, with the stored bounds of :meth:`ObsField.bounds`."""
    from gymnasium import spaces

    out: dict[str, spaces.Space] = {}
    for name, f in observation_spec(side).items():
        low, high = f.bounds()
        out[name] = spaces.Box(low=low, high=high, shape=f.shape, dtype=f.dtype)
    return spaces.Dict(out)


def observation_nbytes(side: str = "us") -> dict[str, int]:
    """Bytes of one observation per key, and ``"total"``, computed from the table."""
    sizes = {name: f.nbytes for name, f in observation_spec(side).items()}
    sizes["total"] = sum(sizes.values())
    return sizes


def zeros(side: str = "us") -> dict[str, np.ndarray]:
    """A zero observation with every declared shape and dtype."""
    return {name: np.zeros(f.shape, dtype=f.dtype) for name, f in observation_spec(side).items()}


def scaled(obs: dict[str, np.ndarray], side: str = "us") -> dict[str, np.ndarray]:
    """The ``float32`` values of an observation (what a network should read): each uint8
    plane divided by its ``div``; float tables unchanged. Leading batch axes are kept."""
    spec = observation_spec(side)
    return {k: spec[k].value(v) for k, v in obs.items()}


def describe(side: str = "us") -> str:
    """Markdown tables of the observation: one row per key, then one per feature with its
    scale (for the README and ``ambush`` docs)."""
    spec = observation_spec(side)
    sizes = observation_nbytes(side)
    lines = ["| key | shape | dtype | value bounds | bytes | axes |", "|---|---|---|---|---|---|"]
    for f in spec.values():
        lines.append(
            f"| `{f.name}` | {f.shape} | {np.dtype(f.dtype).name} | [{f.low:g}, {f.high:g}] | "
            f"{f.nbytes} | {' × '.join(f.axes)} |"
        )
    lines.append(f"| total | | | | {sizes['total']} | |")
    for f in spec.values():
        stored = (
            "stored integer = min(quantity, div); value = stored / div"
            if f.integer
            else "stored = value = quantity / div, clipped"
        )
        lines += [
            "",
            f"`{f.name}` ({f.doc}; {stored}):",
            "",
            "| # | feature | scale | meaning |",
            "|---|---|---|---|",
        ]
        for i, feat in enumerate(f.features):
            lines.append(f"| {i} | `{feat.name}` | {feat.scale} | {feat.doc} |")
    return "\n".join(lines)
