"""The model: plain data that every other layer reads and nothing here imports from above.

* ``state`` — the game state (units, vehicles, the turn), plain dataclasses;
* ``orders`` — the flat order layout, one integer per order;
* ``events`` — one dataclass per kind of rule event, with the rolls that decided it;
* ``errors`` — the typed errors;
* ``types`` — named constants: stances, directions, terrain;
* ``dice`` — the one :class:`~ambush_env.core.model.dice.Dice` object every roll comes from.
"""
