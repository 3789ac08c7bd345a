"""The rules validator: static checks and exact odds, from the card data alone.

``pnp.rules.check.check_game`` runs every check a game declares under
``checks:`` in its game.yaml and returns a :class:`pnp.rules.findings.Report`.
"""
