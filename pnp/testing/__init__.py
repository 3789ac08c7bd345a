"""What a game's own tests need, public and documented (docs/testing.md).

A game folder's ``tests/`` import only this (and pnp's public API), so the
folder can be copied into another project, with its tests, and they still
run::

    from pnp.testing import engine, game_folder, play_checked

    GAME = game_folder(__file__)
    rules, game = engine(GAME)

- the game: :func:`game_folder`, :func:`load`, :func:`engine`, :func:`copy_game`
  (with the folders it shares, to change a copy);
- play: :func:`play_checked` (seeded games, every move checked),
  :func:`assert_matches_golden` (a playthrough kept as text);
- hidden information: :func:`reachable`, :func:`mutable_parts`, :func:`writable`,
  :func:`canon`, :func:`same_decision`; the search agent's ``determinize``
  contract: :func:`determinizations_agree`, :func:`agents_decide_alike`;
- pixels: :func:`crop_face`, :func:`rasterise`, :func:`compare` (with a
  reviewed reference image in the game's ``tests/golden/``), :data:`DPI`,
  :data:`TOLERANCE`;
- the command: :func:`run_pnp`, :func:`build_once` (one build per test run),
  :func:`score` (a table of hands scored), :func:`hermetic` (call it from the
  game's ``tests/conftest.py``);
- fonts: :func:`pnp.testing.fonts.drawn_glyphs`, :func:`~pnp.testing.fonts.source_of`
  (which font file each glyph drawn comes from), :func:`~pnp.testing.fonts.font_files`;
- PDFs read back by independent tools: :func:`pdftotext`, :func:`prose`,
  :func:`pdfinfo_pages`, :func:`pdffonts`, :func:`qpdf_check`, :func:`setup_columns` ...
"""

from pnp.testing.games import build_once, copy_game, engine, game_folder, hermetic, load, run_pnp, score, use_runner
from pnp.testing.hidden import canon, mutable_parts, reachable, same_decision, writable
from pnp.testing.pdf import circles_drawn, marks_drawn, operations, pdffonts, pdfinfo_pages, pdftotext, prose, prose_in, qpdf_check, setup_columns, tool
from pnp.testing.pixels import DPI, TOLERANCE, clip_rects, compare, crop_face, rasterise
from pnp.testing.play import assert_matches_golden, play_checked
from pnp.testing.search import agents_decide_alike, determinizations_agree

__all__ = [
    "DPI", "TOLERANCE", "agents_decide_alike", "assert_matches_golden", "build_once", "canon", "circles_drawn", "clip_rects", "compare", "copy_game", "crop_face", "determinizations_agree", "engine",
    "game_folder", "hermetic", "load", "marks_drawn", "mutable_parts", "operations", "pdffonts", "pdfinfo_pages", "pdftotext", "play_checked",
    "prose", "prose_in", "qpdf_check", "rasterise", "reachable", "run_pnp", "same_decision", "score", "setup_columns", "tool", "use_runner", "writable",
]
