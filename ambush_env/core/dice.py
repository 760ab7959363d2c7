"""Owns all randomness of the engine: one :class:`Dice` object, every roll labelled and
logged, scriptable by tests (RULES.md §1).

A d10 reads 0-9, a d100 reads 1-100. "A roll at or below N" succeeds on 0..N. Every draw is
recorded in :attr:`Dice.log` (what was rolled and why) so events can show the rolls.

Tests force rolls with :meth:`Dice.scripted`; a scripted sequence that runs out raises
:class:`~ambush_env.core.errors.DiceExhaustedError` rather than rolling at random.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

import numpy as np

from ambush_env.core.errors import DiceExhaustedError


def succeeds(roll: int, n: int) -> bool:
    """True when a d10 ``roll`` is at or below ``n`` (RULES.md §1: n < 0 never, n >= 9 always)."""
    return roll <= n


class Dice:
    """The engine's only source of chance.

    Args:
        seed: seed for a fresh ``numpy.random.Generator`` (PCG64); ignored when ``rng`` given.
        rng: an existing generator (the env passes its ``np_random``).

    The generator's bit-generator state round-trips through :meth:`get_state` /
    :meth:`set_state` (JSON-able dicts), so a saved game resumes with the same rolls.
    """

    __slots__ = ("rng", "_forced", "log", "_buf", "_pos")

    _BUF = 4096

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self._forced: deque[int] | None = None
        self.log: list[tuple[str, int]] = []
        self._buf: list[int] = []
        self._pos = 0

    # -- construction for tests ------------------------------------------------------------
    @classmethod
    def scripted(cls, rolls: Iterable[int]) -> "Dice":
        """Dice that return exactly ``rolls`` in order, then raise ``DiceExhaustedError``."""
        d = cls(seed=0)
        d._forced = deque(int(r) for r in rolls)
        return d

    def force(self, rolls: Iterable[int]) -> None:
        """Queue forced rolls ahead of the random stream (tests; scripted lines of play)."""
        if self._forced is None:
            self._forced = deque()
        self._forced.extend(int(r) for r in rolls)

    @property
    def forced_left(self) -> int:
        """How many forced rolls are still queued."""
        return len(self._forced) if self._forced is not None else 0

    # -- rolling ---------------------------------------------------------------------------
    def _raw(self, sides: int, why: str) -> int:
        if self._forced is not None:
            if self._forced:
                r = self._forced.popleft()
            else:
                raise DiceExhaustedError(f"scripted dice ran out at roll for {why!r}")
        else:
            r = int(self.rng.integers(0, sides))
        return r

    def d10(self, why: str = "") -> int:
        """One d10, 0-9. ``why`` is recorded in :attr:`log`."""
        if self._forced is None:
            # Fast path: draw rolls in blocks (the generator state is resynchronised on save).
            if self._pos >= len(self._buf):
                self._buf = self.rng.integers(0, 10, size=self._BUF).tolist()
                self._pos = 0
            r = self._buf[self._pos]
            self._pos += 1
        else:
            r = self._raw(10, why)
            if not 0 <= r <= 9:
                raise DiceExhaustedError(f"forced d10 roll {r} for {why!r} is outside 0-9")
        self.log.append((why, r))
        return r

    def d100(self, why: str = "") -> int:
        """One d100, 1-100 ("01-00" reads 100)."""
        if self._forced is None:
            r = int(self.rng.integers(1, 101))
        else:
            r = self._raw(100, why)
            if not 1 <= r <= 100:
                raise DiceExhaustedError(f"forced d100 roll {r} for {why!r} is outside 1-100")
        self.log.append((why, r))
        return r

    def roll(self, n: int, sides: int, why: str = "") -> int:
        """NdM summed (ordinary dice reading 1..sides)."""
        total = 0
        for _ in range(n):
            if self._forced is None:
                r = int(self.rng.integers(1, sides + 1))
            else:
                r = self._raw(sides, why)
            total += r
        self.log.append((why, total))
        return total

    def choice(self, n: int, why: str = "") -> int:
        """A uniform index in 0..n-1 (random tie-breaks; forced like any roll)."""
        if self._forced is None:
            r = int(self.rng.integers(0, n))
        else:
            r = self._raw(n, why)
        self.log.append((why, r))
        return r

    def take_log(self) -> list[tuple[str, int]]:
        """Return and clear the rolls made since the last call."""
        out = self.log
        self.log = []
        return out

    # -- state -----------------------------------------------------------------------------
    def get_state(self) -> dict:
        """JSON-able state: the generator state plus the unread part of the roll buffer."""
        return {
            "bit_generator": self.rng.bit_generator.state,
            "buffer": self._buf[self._pos:],
            "forced": list(self._forced) if self._forced is not None else None,
        }

    def set_state(self, state: dict) -> None:
        """Restore what :meth:`get_state` returned."""
        self.rng.bit_generator.state = state["bit_generator"]
        self._buf = list(state["buffer"])
        self._pos = 0
        f = state.get("forced")
        self._forced = deque(f) if f is not None else None
        self.log = []
