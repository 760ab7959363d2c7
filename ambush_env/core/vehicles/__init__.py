"""Vehicles on the map; their numbers are in ``world.vehicle_data`` and ``world.vehicle_cards``.

* ``vehicles`` — boarding, driving, accidents and blasts against vehicles;
* ``vehicle_fire`` — fire against vehicles: facing, the Hit Chart, penetration;
* ``tanks`` — a tank's own unit, Crew Points and tasks, its weapons.
"""
