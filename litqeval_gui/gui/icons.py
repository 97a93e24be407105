"""The app's own SVG icons (``litqeval_gui/resources/icons``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

ICON_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"


@cache
def icon(name: str) -> QIcon:
    """The icon ``resources/icons/<name>.svg``."""
    return QIcon(str(ICON_DIR / f"{name}.svg"))
