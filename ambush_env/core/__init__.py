"""The rules engine of *Ambush!* (no gymnasium): ``from ambush_env.core import Game``.

The folders are the layers, top to bottom; a module imports only from its own folder and the
folders below it (``.importlinter`` checks it; docs/ARCHITECTURE.md draws it):

============  ===========================================================================
folder        what it holds
============  ===========================================================================
``play``      the order generator, carrying out orders, the German cards, the sequence of
              play, the ``Game`` facade, positions, procedural missions, the campaign
``combat``    shooting, sighting, grenades, strikes, booby traps, d100 special attacks
``vehicles``  cars and tanks on the map, fire against vehicles, a tank's own unit
``rules``     the context (``ctx``) and the rules under every order: damage, fire,
              movement, mines, entering hexes, prisoners, carrying, turns, assault,
              scoring, the d100 damage module
``world``     data files and the map: the loader, hex grid, board, line of sight, cards,
              squads, tables, vehicle data, missions
``model``     plain data: the state, orders, events, errors, named constants, the dice
============  ===========================================================================

Each folder's ``__init__`` lists its modules, and each module's docstring opens with one
paragraph saying what it owns. The top-level modules ``los``, ``board``, ``dice``, ``errors``
and ``engine`` own nothing: they keep the binding import paths of docs/API.md working. The
package loads :class:`~ambush_env.core.play.game.Game` lazily, so that importing one module
(the map, line of sight) does not load the whole engine.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the type checker sees the class; at run time __getattr__ loads it lazily
    from ambush_env.core.play.game import Game

__all__ = ["Game"]


def __getattr__(name: str) -> Any:
    if name == "Game":
        from ambush_env.core.play.game import Game

        return Game
    raise AttributeError(f"module 'ambush_env.core' has no attribute {name!r}")
