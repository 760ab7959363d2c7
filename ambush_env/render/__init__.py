"""Renderers of a game: ``ansi`` (a text map, the env's ``"ansi"`` mode)."""
