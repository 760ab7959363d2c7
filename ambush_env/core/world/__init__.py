"""The world: data files validated on load, and the map (static while a mission is played).

* ``data`` — the one loader and writer of data files;
* ``hexgrid`` — hex labels, neighbours, distances, line tracing;
* ``board`` — the live map: hexes, hexsides, walls, doors and windows;
* ``los`` — line of sight and its vectorised cache;
* ``cards`` — German soldier cards; ``vehicle_cards`` — German vehicle cards;
* ``squads`` — the US squad files;
* ``tables`` — weapons, damage rows, penetration, terrain; ``rules_data`` — the sequence of
  play's numbers; ``vehicle_data`` — vehicles; ``d100_data`` — the d100 module's tables;
* ``missions`` — mission files.
"""
