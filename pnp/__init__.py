"""pnp: print-and-play component generator.

Stages, each a plain function over frozen values:
load (``pnp.loading``) -> plan faces (``pnp.render.faces``) -> impose
(``pnp.imposition``) -> render PDF (``pnp.render.weasy``) -> place and write
(``pnp.pdf``), driven by one output stage, ``pnp.output`` (home PDFs, print shops, images).
"""

__version__ = "0.1.0"
