"""The card-data schema's grammar: value types that check YAML values
(:mod:`spec`, :mod:`scalars`, :mod:`shapes`) and :func:`spec.key`, with which
the frozen model (:mod:`pnp.model`, :mod:`checks`) declares each key once.
Below the model, so the model can declare its keys with it; it reads no files.
"""
