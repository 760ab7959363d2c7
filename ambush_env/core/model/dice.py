"""Owns all randomness of the engine: one :class:`Dice` object, every roll labelled and
logged, scriptable by tests (RULES.md §1).

A d10 reads 0-9, a d100 reads 1-100. "A roll at or below N" succeeds on 0..N. Every draw is
recorded in :attr:`Dice.log` (what was rolled and why) so events can show the rolls.

Tests force rolls with :meth:`Dice.scripted`; a scripted sequence that runs out raises
:class:`~ambush_env.core.model.errors.DiceExhaustedError` rather than rolling at random. A forced
roll is checked twice: where it enters (:meth:`Dice.force`, :meth:`Dice.force_strict`: an
integer within :data:`FORCED_RANGE`, else :class:`~ambush_env.core.model.errors.ConfigError`
naming ``rolls[k]``) and where a die uses it (within that die's range — a d10 0-9, a d100
1-100, a dM 1-M, a choice among n 0..n-1 — else ``DiceExhaustedError`` naming the roll, its
label and the range), so a forced 85 is never a d6.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ambush_env.core.model.errors import ConfigError, DiceExhaustedError

#: the values any die of the engine can read (a d10 0-9, a d100 1-100, a dM 1-M with M <= 100,
#: a choice 0..n-1): what a forced roll may be where it enters, before a die uses it
FORCED_RANGE = range(0, 101)


def _forced(rolls: Iterable[int]) -> deque[int]:
    """Forced rolls as ints, each checked where it enters.

    Raises:
        ConfigError: not a list of integers (``rolls``), or a roll that is not an integer in
            0-100 (``rolls[k]``: a bool, a float, a string, out of range).
    """
    if isinstance(rolls, (str, bytes)) or not isinstance(rolls, Iterable):
        raise ConfigError(
            "rolls", f"a list of integer die rolls, got {type(rolls).__name__} {rolls!r:.60}"
        )
    out: deque[int] = deque()
    for k, r in enumerate(rolls):
        if (
            isinstance(r, (bool, np.bool_))
            or not isinstance(r, (int, np.integer))
            or not FORCED_RANGE.start <= r < FORCED_RANGE.stop
        ):
            raise ConfigError(
                f"rolls[{k}]",
                f"a forced die roll is an integer 0-100 (a d10 0-9, "
                f"a d100 1-100, a dM 1-M), got {r!r:.40} ({type(r).__name__})",
            )
        out.append(int(r))
    return out


def succeeds(roll: int, n: int) -> bool:
    """True when a d10 ``roll`` is at or below ``n`` (RULES.md §1: n < 0 never, n >= 9 always)."""
    return roll <= n


class Dice:
    """The engine's only source of chance.

    Args:
        seed: seed for a fresh ``numpy.random.Generator`` (PCG64); ignored when ``rng`` given.
        rng: an existing generator (the env passes its ``np_random``).

    Every draw comes from one stream of d10 rolls, drawn from the generator in blocks of
    ``_BUF``: a d100 is two d10s, a uniform choice among ``n`` is made of d10 digits (by
    rejection, exactly uniform). So the whole state is the generator's state when the current
    block was drawn plus the position in the block: :meth:`get_state` is small and exact,
    and :meth:`clone` copies a few references (blocks are never changed once drawn).
    """

    __slots__ = ("rng", "_forced", "_strict", "log", "_buf", "_pos", "_buf_state", "_next_state")

    _BUF = 4096

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None) -> None:
        self.rng: np.random.Generator | None = (
            rng if rng is not None else np.random.default_rng(seed)
        )
        self._forced: deque[int] | None = None
        self._strict = False  # forced rolls only: running out raises
        self.log: list[tuple[str, int]] = []
        self._buf: list[int] = []
        self._pos = 0
        # generator state before the current block
        self._buf_state: Mapping[str, Any] | None = None
        # a clone's generator state, made into one lazily
        self._next_state: Mapping[str, Any] | None = None

    # -- construction for tests ------------------------------------------------------------
    @classmethod
    def scripted(cls, rolls: Iterable[int]) -> Dice:
        """Dice that return exactly ``rolls`` in order, then raise ``DiceExhaustedError``."""
        d = cls(seed=0)
        d.force_strict(rolls)
        return d

    def force(self, rolls: Iterable[int]) -> None:
        """Queue forced rolls ahead of the random stream (a position's ``dice``): once they are
        used the stream goes on.

        Raises:
            ConfigError: a roll that is not an integer in 0-100 (names ``rolls[k]``).
        """
        queued = _forced(rolls)
        if self._forced is None:
            self._forced = deque()
        self._forced.extend(queued)

    def force_strict(self, rolls: Iterable[int]) -> None:
        """Use exactly these rolls next and then no others: running out raises
        :class:`~ambush_env.core.model.errors.DiceExhaustedError` (tests; ``Game.force_rolls``).

        Raises:
            ConfigError: a roll that is not an integer in 0-100 (names ``rolls[k]``); the
                dice are unchanged.
        """
        self._forced = _forced(rolls)
        self._strict = True

    @property
    def forced_left(self) -> int:
        """How many forced rolls are still queued."""
        return len(self._forced) if self._forced is not None else 0

    def clone(self) -> Dice:
        """An independent copy with the same future rolls (cheap: blocks are shared)."""
        d = Dice.__new__(Dice)
        d.rng = None
        d._next_state = self._next_state if self.rng is None else self.rng.bit_generator.state
        d._forced = deque(self._forced) if self._forced is not None else None
        d._strict = self._strict
        d.log = []
        d._buf = self._buf
        d._pos = self._pos
        d._buf_state = self._buf_state
        return d

    # -- rolling ---------------------------------------------------------------------------
    def _digit(self) -> int:
        """The next d10 of the stream (0-9)."""
        if self._pos >= len(self._buf):
            rng = self.rng
            if rng is None:
                if self._next_state is None:  # a clone always carries one (clone, set_state)
                    raise AssertionError("dice without a generator and without its state")
                rng = self.rng = np.random.Generator(np.random.PCG64())
                rng.bit_generator.state = self._next_state
                self._next_state = None
            self._buf_state = rng.bit_generator.state
            self._buf = rng.integers(0, 10, size=self._BUF).tolist()
            self._pos = 0
        r = self._buf[self._pos]
        self._pos += 1
        return r

    def _uniform(self, n: int) -> int:
        """A uniform integer in 0..n-1 made of d10 digits (rejection keeps it exact)."""
        if n <= 1:
            return 0
        k, top = 1, 10
        while top < n:
            k += 1
            top *= 10
        limit = top - top % n
        while True:
            x = 0
            for _ in range(k):
                x = x * 10 + self._digit()
            if x < limit:
                return x % n

    def _forced_roll(self, why: str, lo: int, hi: int, die: str) -> int:
        """The next forced roll, which must read ``lo..hi`` on the die (``die`` names it in the
        message: ``"d10 roll"``, ``"choice"``).

        Raises:
            DiceExhaustedError: no forced roll is left, or this one is outside ``lo..hi``.
        """
        if not self._forced:
            raise DiceExhaustedError(f"scripted dice ran out at roll for {why!r}")
        r = self._forced.popleft()
        if not lo <= r <= hi:
            raise DiceExhaustedError(f"forced {die} {r} for {why!r} is outside {lo}-{hi}")
        return r

    def _random(self) -> bool:
        """Whether the next roll comes from the stream (no forced roll is queued)."""
        if self._forced is None:
            return True
        if self._forced or self._strict:
            return False
        self._forced = None  # the queued rolls are used: back to the stream
        return True

    def d10(self, why: str = "") -> int:
        """One d10, 0-9. ``why`` is recorded in :attr:`log`."""
        if self._forced is None or self._random():
            r = self._digit()
        else:
            r = self._forced_roll(why, 0, 9, "d10 roll")
        self.log.append((why, r))
        return r

    def d100(self, why: str = "") -> int:
        """One d100, 1-100 ("01-00" reads 100): two d10s, tens then units."""
        if self._random():
            r = self._digit() * 10 + self._digit()
            r = 100 if r == 0 else r
        else:
            r = self._forced_roll(why, 1, 100, "d100 roll")
        self.log.append((why, r))
        return r

    def roll(self, n: int, sides: int, why: str = "") -> int:
        """NdM summed (ordinary dice reading 1..sides).

        Raises:
            DiceExhaustedError: a forced roll outside 1..sides (names it, ``why`` and the die).
        """
        total = 0
        for _ in range(n):
            if self._random():
                r = self._uniform(sides) + 1
            else:
                r = self._forced_roll(why, 1, sides, f"d{sides} roll")
            total += r
        self.log.append((why, total))
        return total

    def choice(self, n: int, why: str = "") -> int:
        """A uniform index in 0..n-1 (random tie-breaks; forced like any roll)."""
        r = self._uniform(n) if self._random() else self._forced_roll(why, 0, n - 1, "choice")
        self.log.append((why, r))
        return r

    def take_log(self) -> list[tuple[str, int]]:
        """Return and clear the rolls made since the last call."""
        out = self.log
        self.log = []
        return out

    # -- state -----------------------------------------------------------------------------
    def get_state(self) -> dict:
        """JSON-able state: the generator's state when the current block of rolls was drawn,
        the rolls used from it, and any forced rolls still queued."""
        gen: Mapping[str, Any] | None
        if self._buf_state is not None:
            gen, pos = self._buf_state, self._pos
        else:  # no block drawn yet
            gen = self.rng.bit_generator.state if self.rng is not None else self._next_state
            pos = 0
        if gen is not None:  # a copy: the caller may change what it is given
            gen = {k: (dict(v) if isinstance(v, dict) else v) for k, v in gen.items()}
        return {
            "bit_generator": gen,
            "pos": pos,
            "forced": list(self._forced) if self._forced is not None else None,
            "strict": self._strict,
        }

    def set_state(self, state: dict) -> None:
        """Restore what :meth:`get_state` returned (the block in use is drawn again).

        Raises:
            KeyError, TypeError, ValueError: a malformed state.
        """
        gen = state["bit_generator"]
        pos = state.get("pos", 0)
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= self._BUF:
            raise ValueError(
                f"pos is the rolls used from the current block, 0..{self._BUF}; got {pos!r}"
            )
        strict = state.get("strict", state.get("forced") is not None)
        if not isinstance(strict, bool):
            raise ValueError(f"strict is true or false, got {strict!r}")
        if self.rng is None:
            self.rng = np.random.Generator(np.random.PCG64())
            self._next_state = None
        self.rng.bit_generator.state = gen
        self._buf, self._pos, self._buf_state = [], 0, None
        if pos:
            self._digit()  # draws the block
            self._pos = pos
        f = state.get("forced")
        self._forced = deque(int(x) for x in f) if f is not None else None
        self._strict = strict
        self.log = []
