"""The rules engine of *Ambush!* (no gymnasium): ``from ambush_env.core import Game``.

Where each rule lives — the modules by layer, top to bottom (``.importlinter`` holds the
layers: a module imports only from the layers below it):

===================  ========================================================================
layer                modules
===================  ========================================================================
campaign             ``campaign`` (chains of missions and the squad carried through them, §16)
facade               ``game`` (``engine``: the old import path), ``position`` (the format)
generated missions   ``procedural`` (below the facade: a position of a generated mission
                     rebuilds its map from the seed; it checks them over ``movement``)
sequence of play     ``sequence``
German cards         ``german``
orders               ``apply`` (carry out), ``legal`` (the generator), ``describe`` (text)
rules                ``sighting``, ``d100_attacks``, ``shooting``, ``paragraphs``, ``grenades``, ``tanks``,
                     ``strikes`` (artillery, strafing), ``traps`` (map booby traps), ``vehicle_fire``, ``vehicles``, ``d100`` (seed 003),
                     ``carry``, ``turns``, ``assault``, ``enter``, ``prisoners``, ``scoring``,
                     ``movement``, ``fire``, ``mines``, ``damage``
context              ``ctx``
map and data         ``los``, ``missions``, ``vehicle_cards``, ``d100_data``, ``board``, ``squads``,
                     ``tables``, ``rules_data``, ``vehicle_data``, ``cards``, ``hexgrid``,
                     ``dice``, ``data``
model                ``state``, ``orders``, ``events``, ``errors``, ``types``
===================  ========================================================================

Each module's docstring opens with one paragraph saying what it owns. The package loads
:class:`~ambush_env.core.game.Game` lazily, so that importing one module (the map, line of
sight) does not load the whole engine.
"""

from typing import Any

__all__ = ["Game"]


def __getattr__(name: str) -> Any:
    if name == "Game":
        from ambush_env.core.game import Game

        return Game
    raise AttributeError(f"module 'ambush_env.core' has no attribute {name!r}")
