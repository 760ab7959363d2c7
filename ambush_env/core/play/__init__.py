"""Play: orders, the German side, the sequence of play and what is built on it.

* ``legal`` — the order generator for both sides; ``describe`` — orders as text;
* ``apply`` — carrying out one order; ``paragraphs`` — paragraph checks and effects;
* ``german`` — the German card interpreter; ``sequence`` — the sequence of play;
* ``game`` — the :class:`~ambush_env.core.play.game.Game` facade; ``position`` — positions;
* ``procedural`` — generated missions; ``campaign`` — chains of missions.
"""
