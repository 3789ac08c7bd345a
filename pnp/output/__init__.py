"""The output stage: a game's home-print PDFs or an export (print-shop PDFs,
PNG faces, Tabletop Simulator sheets), one stage with the profile as data.

- :mod:`.request`: what to make (:class:`~.request.Request`, made once from a command's options);
- :mod:`.profiles`: the profiles, loaded from ``pnp/presets/profiles/``;
- :mod:`.parts`: the components chosen, split between the base game and its modules;
- :mod:`.stage`: :func:`~.stage.build`, which hands a game to the format of its profile's kind;
- the formats, each ``(game, components, papers, folder, request) -> Built``:
  :mod:`.home` (a package: plan, pages, imposition, manifest), :mod:`.printpdf`,
  :mod:`.pngfaces`, :mod:`.tts` (with :mod:`.ttsobjects`); :mod:`.raster` lays
  faces out as images for the last two;
- :mod:`.result`: what was written (:class:`~.result.Built`, one type for every format).

Nothing is imported here: a command that only reads a profile loads no format.
"""
