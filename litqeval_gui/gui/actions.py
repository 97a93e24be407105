"""The one way the app makes a ``QAction``: the window's menu entries, the managing
actions and a screen's own actions all come from :func:`make_action`."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from litqeval_gui.gui.icons import icon

Shortcut = str | QKeySequence.StandardKey


def make_action(parent: QObject, text: str, slot: Callable[..., object], *,
                shortcut: Shortcut = "", icon_name: str = "", tip: str = "",
                scoped: bool = False) -> QAction:
    """An action of ``parent`` that runs ``slot`` when triggered.

    ``tip`` is its tooltip and status tip. ``scoped`` (a screen's own action, ``parent`` a
    widget): its shortcut works only while ``parent`` or a child has focus, ``parent``
    holds it, and without a ``tip`` the tooltip names the shortcut.
    """
    action = QAction(text, parent, triggered=slot)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    if icon_name:
        action.setIcon(icon(icon_name))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    if scoped:
        assert isinstance(parent, QWidget), "a scoped action belongs to a widget"
        if shortcut and not tip:
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{text} ({keys})")
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        parent.addAction(action)
    return action
