"""The sequence of play (RULES.md §5-§7): the pure rules engine, no gymnasium.

SKELETON — being written by the engine lead. The attributes below are the contract other
modules code against:

* ``game.state``  – :class:`~ambush_env.core.state.GameState` (plain data, everything that changes)
* ``game.board``  – :class:`~ambush_env.core.board.Board` (static map + live walls/rubble)
* ``game.dice``   – :class:`~ambush_env.core.dice.Dice` (every roll)
* ``game.tables`` – :class:`~ambush_env.core.tables.Tables` (weapons, damage rows, terrain)
* ``game.sight``  – :class:`~ambush_env.core.los.SightCache`
* ``game.mission``– the validated mission model; ``game.cards`` – German cards by id
* ``game.units_at(hex) -> list[Unit]`` – every unit in a hex (any status)
* ``game.emit(event: dict)`` – record a rule event for ``info["events"]``
* ``game.in_rounds`` – True during Rounds
"""

# ---------------------------------------------------------------------------------------------
# Public API of Game (contract for the env, agents and CLI; being implemented):
#
# class Game:
#     def __init__(self, mission: str | None = None, *, rules: str = "standard",
#                  opponent: str = "regular", seed: int | None = None) -> None
#     mission_id: str; board; tables; cards; mission; sight; state: GameState; dice: Dice
#     def reset(self, seed: int | None = None, rng: numpy.random.Generator | None = None) -> list[dict]
#         # new game; returns the setup events. With rng, all dice come from that generator.
#     def legal_actions(self) -> list[int]      # order ints legal now (never empty unless over)
#     def is_legal(self, action: int) -> bool
#     def step(self, action: int) -> list[dict] # one US decision, then Germans act until the next
#                                               # US decision; returns this step's events.
#                                               # Raises IllegalActionError (names order and unit).
#     def acting_unit(self) -> Unit | None      # US unit deciding now; None while a
#                                               # SELECT_UNIT decision is pending
#     def eligible_units(self) -> list[Unit]    # units SELECT_UNIT may pick now
#     def describe_action(self, action: int) -> str   # e.g. "US3 fire aimed at G2 (L7)"
#     over: bool; result: int (Result, -1 while running); vp: int (properties)
#     def get_state(self) -> dict ; def set_state(self, d: dict) -> None   # JSON-able, dice incl.
#     def stats(self) -> dict  # us_killed, us_incapacitated, us_wounded, germans_killed,
#                              # germans_captured, us_exited
#     def us_units(self) -> list[Unit]          # squad in slot order
#     def contact_units(self) -> list[Unit]     # known Germans in contact-slot order
#     def time_left(self) -> tuple[int, int]    # (operations pulses left, rounds left)
#
# Events are dicts with at least {"type": str}; rolls appear under "rolls".
# ---------------------------------------------------------------------------------------------
