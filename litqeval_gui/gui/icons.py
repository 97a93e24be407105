"""The app's own SVG icons (``resources/icons``)."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from litqeval_gui.resources import resource


@cache
def icon(name: str) -> QIcon:
    """The icon ``resources/icons/<name>.svg``."""
    return QIcon(str(resource("icons", f"{name}.svg")))
