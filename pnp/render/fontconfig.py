"""The machine's fonts never reach a build.

WeasyPrint finds fonts through fontconfig, whose usual configuration lists
every font installed on the machine (and the user's own); a system font with
the family name a game declares could then be drawn instead of the game's
file, and a misspelt family or a missing character would fall back to
whatever the machine has. Every font configuration pnp lays pages out with is
made from pnp's own ``fontconfig.conf`` instead, which lists no fonts at all:
the only fonts are the ones a document declares with ``@font-face``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from pnp.paths import OWN

CONFIG = OWN / "fontconfig.conf"
"""A fontconfig configuration with no font folders."""
FLOOR_FONT = OWN / "fonts" / "pnp-floor.ttf"
"""A font that draws nothing, so that no configuration is ever without a font."""


@contextlib.contextmanager
def machine_fonts_hidden() -> Iterator[None]:
    """While inside, a fontconfig configuration loaded by default is pnp's own.
    Fontconfig reads ``FONTCONFIG_FILE`` each time it loads a configuration;
    the variable is restored afterwards, for the programs pnp runs."""
    previous = os.environ.get("FONTCONFIG_FILE")
    os.environ["FONTCONFIG_FILE"] = str(CONFIG)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("FONTCONFIG_FILE", None)
        else:
            os.environ["FONTCONFIG_FILE"] = previous


def font_configuration() -> object:
    """A WeasyPrint FontConfiguration that knows no font of the machine's."""
    from weasyprint.text.fonts import FontConfiguration

    with machine_fonts_hidden():
        return FontConfiguration()
