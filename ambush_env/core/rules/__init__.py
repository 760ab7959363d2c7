"""The rules under every order, each a function of (context, state, dice, log).

* ``ctx`` — the mission's context (static data built once) and the :class:`Match` bundle;
* ``damage`` — damage rows, panic, wounds; ``fire`` — to-hit and the shot sequence;
* ``movement`` — movement costs; ``enter`` — entering a hex or leaving the map;
* ``mines`` — minefields; ``prisoners`` — captures and surrender; ``carry`` — port boxes;
* ``turns`` — a unit's turn on the Action Round track; ``assault`` — assault and capture;
* ``scoring`` — victory points and the end of a mission;
* ``d100`` — the d100 damage module (seed 003), read under ``rules="d100"``.
"""
