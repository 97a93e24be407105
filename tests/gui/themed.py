"""Screenshots of one widget in the light and the dark palette (issue 24: every changed
screen looked at in both themes). The offscreen platform cannot switch its colour
scheme, so the app's own Fusion style and palettes are set, as :func:`~litqeval_gui.gui.theme.apply_theme`
does where the platform cannot switch; the app's style and palette are restored after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from litqeval_gui.gui import theme


def shoot_both(shot: Callable[[QWidget, str], Path], make: Callable[[], QWidget],
               name: str) -> list[Path]:
    """``shot`` of a widget ``make`` builds once in each palette (as the app builds its
    windows after the theme is set), as ``name_light`` and ``name_dark``."""
    app = QApplication.instance()
    style, palette = app.style().name(), app.palette()
    taken = []
    try:
        for dark in (False, True):
            theme.use_fusion(dark)
            widget = make()
            widget.show()
            QApplication.processEvents()
            taken.append(shot(widget, f"{name}_{'dark' if dark else 'light'}"))
            widget.close()
    finally:
        app.setStyle(style)
        app.setPalette(palette)
    return taken
