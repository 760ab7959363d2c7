"""The ``do_nothing`` agent: ends the turn whenever it may (the passive floor of issue 14)."""

from __future__ import annotations

from ambush_env.core.model.orders import OrderKind, encode

#: the order integer of ``end turn`` (in Operations: wait this pulse)
END_TURN = encode(OrderKind.END_TURN)


class DoNothingAgent:
    """Gives ``end turn`` whenever it is legal, otherwise the first legal order (the lowest
    index of ``info["action_mask"]``: e.g. ``select unit k`` of the first eligible unit).

    It scores what a policy that learned to wait scores, so a learned policy must beat it as
    well as random play (issue 14). Deterministic: it uses no randomness.

    Args:
        seed: ignored (the common agent signature).
    """

    name = "do_nothing"
    deterministic = True

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def reset(self, env, seed: int | None = None) -> None:
        """Nothing to prepare."""

    def act(self, obs: dict, info: dict, env) -> int:
        """``END_TURN`` if legal, else the first legal order. Raises RuntimeError when none is."""
        mask = info["action_mask"]
        if mask[END_TURN]:
            return END_TURN
        legal = mask.nonzero()[0]
        if len(legal) == 0:
            raise RuntimeError("no legal order: the episode is over")
        return int(legal[0])
