"""`pnp sweep`: play many versions of a game (card copies, rules values, engine
options and variants, player counts) on a Dask cluster and rank them against
the designer's targets (docs/sweep.md)."""
