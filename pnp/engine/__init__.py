"""The reference engine: each game's rules as its own module, played by agents.

``api`` holds the small generic interface (decisions, outcomes, a play loop),
``simulate`` runs many seeded games and measures them, and each game module
(``persuasion_b04`` ...) implements one edition's rules with its agents.
"""
