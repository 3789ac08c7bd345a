"""Where the project's shared resources live."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
HOME = Path(os.environ.get("PNP_HOME", PACKAGE.parent)).resolve()
"""The project root: ``templates/``, ``fonts/``, ``art/`` and ``card_data/``."""

TEMPLATES = HOME / "templates"
FONTS = HOME / "fonts"
ART = HOME / "art"
CARD_DATA = HOME / "card_data"
PRESETS = PACKAGE / "presets"
