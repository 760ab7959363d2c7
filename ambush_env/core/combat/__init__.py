"""Attacks built on the rules and the vehicles.

* ``shooting`` — who may fire at whom, one shot, readying weapons;
* ``sighting`` — a placed German comes into sight, and the snap fire it allows;
* ``grenades`` — grenades and satchel charges;
* ``strikes`` — artillery strikes and strafing runs; ``traps`` — booby traps;
* ``d100_attacks`` — the d100 module's special attacks on vehicles.
"""
