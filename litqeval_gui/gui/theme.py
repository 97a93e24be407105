"""The colour theme: the system's, or light or dark whatever the system says.

Qt 6.8+ asks the platform for a colour scheme (``QStyleHints.setColorScheme``); where the
platform cannot switch (some Linux desktops, the offscreen platform), a light or dark
Fusion palette is set instead. "system" undoes both.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

THEMES = {"system": "&System", "light": "&Light", "dark": "&Dark"}
_SCHEMES = {"system": Qt.ColorScheme.Unknown, "light": Qt.ColorScheme.Light,
            "dark": Qt.ColorScheme.Dark}
_style_at_start: str | None = None


def _palette(dark: bool) -> QPalette:
    """Fusion's light palette, or a dark one with the same roles."""
    palette = QStyleFactory.create("Fusion").standardPalette()
    if not dark:
        return palette
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    for name, colour in ((role.Window, "#2b2b2b"), (role.WindowText, "#e6e6e6"),
                         (role.Base, "#1e1e1e"), (role.AlternateBase, "#262626"),
                         (role.ToolTipBase, "#3a3a3a"), (role.ToolTipText, "#e6e6e6"),
                         (role.Text, "#e6e6e6"), (role.Button, "#353535"),
                         (role.ButtonText, "#e6e6e6"), (role.BrightText, "#ff6b6b"),
                         (role.Link, "#6cb4ff"), (role.Highlight, "#3d7edb"),
                         (role.HighlightedText, "#ffffff"), (role.PlaceholderText, "#8c8c8c")):
        palette.setColor(name, QColor(colour))
    for name in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(group.Disabled, name, QColor("#7a7a7a"))
    return palette


def apply_theme(theme: str) -> None:
    """Show the app in ``theme`` (one of :data:`THEMES`; anything else is "system")."""
    global _style_at_start
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    theme = theme if theme in THEMES else "system"
    if _style_at_start is None:
        _style_at_start = app.style().name()
    hints = app.styleHints()
    hints.setColorScheme(_SCHEMES[theme])
    if theme == "system":
        app.setStyle(_style_at_start)
        app.setPalette(app.style().standardPalette())
    elif hints.colorScheme() != _SCHEMES[theme]:  # the platform could not switch
        app.setStyle("Fusion")
        app.setPalette(_palette(dark=theme == "dark"))
