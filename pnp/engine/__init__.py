"""The reference engine: the machinery that plays a game's rules with agents.

``api`` holds the small generic interface (decisions, outcomes, a play loop),
``plugins`` finds a game's engine (a package in its folder, or an installed
``pnp.engines`` entry point), ``simulate`` runs many seeded games and
measures them, ``balance`` is the simulation part of ``pnp check`` and
``tables`` reads the tables ``pnp score`` is given. No game's rules live here:
each game's engine lives with the game (``card_data/<game>/rules/``).
"""
