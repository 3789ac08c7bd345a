"""Stage 1: read a game folder into a validated, frozen :class:`pnp.model.Game`.

``pnp.loading.loader.load_game`` is the entry point.
"""
