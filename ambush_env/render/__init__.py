"""Renderers of a game: ``ansi`` (a text map, the env's ``"ansi"`` mode), ``image`` (the hex
map with labels, legend and HUD, ``"rgb_array"``), ``window`` (that image in a pygame window,
``"human"``), ``html`` (the replay viewer) and ``geometry`` (where each hex is drawn, shared by
the pictures)."""
