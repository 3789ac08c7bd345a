"""The build's date, as build stamps and print files carry it."""

from __future__ import annotations

import os
from datetime import datetime, timezone


def build_date() -> str:
    """The build's date: SOURCE_DATE_EPOCH's when set (reproducible builds), else today's (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc).date().isoformat()
    return datetime.now(tz=timezone.utc).date().isoformat()
