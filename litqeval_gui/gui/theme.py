"""The colour theme: the system's, or light or dark whatever the system says.

Qt 6.8+ asks the platform for a colour scheme (``QStyleHints.setColorScheme``); where the
platform cannot switch (some Linux desktops, the offscreen platform), a light or dark
Fusion palette is set instead. "system" undoes both. Fusion draws check boxes and radio
buttons with an outline a shade darker than the window, invisible on a dark palette;
:class:`FusionStyle` adds a visible one. Links already laid out in a text view keep
the colour of the palette they were laid out in, so a switch recolours them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QTextEdit,
    QWidget,
)

THEMES = {"system": "&System", "light": "&Light", "dark": "&Dark"}
_SCHEMES = {"system": Qt.ColorScheme.Unknown, "light": Qt.ColorScheme.Light,
            "dark": Qt.ColorScheme.Dark}
_style_at_start: str | None = None
_fusion: QProxyStyle | None = None  # the style set last by use_fusion


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


_INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
               QStyle.PrimitiveElement.PE_IndicatorRadioButton)


class FusionStyle(QProxyStyle):
    """Fusion, with check box and radio button outlines in the palette's placeholder
    colour when the window is dark (Fusion's own is darker than the window)."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption,
                      painter: QPainter, widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        palette = option.palette
        if element not in _INDICATORS or palette.color(QPalette.ColorRole.Window).lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing,
                              element == QStyle.PrimitiveElement.PE_IndicatorRadioButton)
        painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = option.rect.adjusted(0, 0, -1, -1)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect.adjusted(1, 1, 0, 0))
        else:
            painter.drawRect(rect)
        painter.restore()


def use_fusion(dark: bool) -> None:
    """Set :class:`FusionStyle` and the light or dark palette (where the platform
    cannot switch its colour scheme), recolouring links already laid out."""
    global _fusion
    app = QApplication.instance()
    old_link = app.palette().color(QPalette.ColorRole.Link)
    _fusion = FusionStyle()  # kept: the app does not keep a Python style alive
    app.setStyle(_fusion)
    app.setPalette(_palette(dark))
    recolour_links(old_link, app.palette().color(QPalette.ColorRole.Link))


def recolour_links(old: QColor, new: QColor) -> None:
    """Links of the app's text views drawn in ``old`` (the palette's link colour when
    they were laid out) drawn in ``new``, and labels with links laid out again: a DOI
    link stays readable after a theme switch."""
    if old == new:
        return
    widgets = [w for window in QApplication.topLevelWidgets()
               for w in (window, *window.findChildren(QWidget))]
    for label in (w for w in widgets if isinstance(w, QLabel)):
        if "<a " in label.text():
            text = label.text()  # laid out again in the new palette
            label.setText("")
            label.setText(text)
    for widget in (w for w in widgets if isinstance(w, QTextEdit)):
        block = widget.document().begin()
        while block.isValid():
            fragments = block.begin()
            while not fragments.atEnd():
                fragment = fragments.fragment()
                fmt = fragment.charFormat()
                if fmt.isAnchor() and fmt.foreground().color() == old:
                    cursor = QTextCursor(widget.document())
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    recoloured = QTextCharFormat()
                    recoloured.setForeground(new)
                    cursor.mergeCharFormat(recoloured)
                fragments += 1
            block = block.next()


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
        old_link = app.palette().color(QPalette.ColorRole.Link)
        app.setStyle(_style_at_start)
        app.setPalette(app.style().standardPalette())
        recolour_links(old_link, app.palette().color(QPalette.ColorRole.Link))
    elif hints.colorScheme() != _SCHEMES[theme]:  # the platform could not switch
        use_fusion(dark=theme == "dark")
