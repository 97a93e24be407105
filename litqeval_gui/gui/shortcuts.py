"""Keys that belong to one screen: bound while it is shown, removed when it leaves.

:class:`Shortcuts` collects ``key → slot`` for a widget; :meth:`Shortcuts.bind` makes
them live (window-wide while the widget's window is active), :meth:`unbind` removes
them. A key added twice is refused (``ValueError``), and auto-repeat is off: holding a
key down fires once, so holding A can never decide thirty records. A widget that mixes in
:class:`KeysWhileShown` binds its ``shortcuts`` when shown and unbinds them when hidden.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QHideEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QWidget


class Shortcuts:
    def __init__(self, owner: QWidget) -> None:
        self._owner = owner
        self._slots: dict[str, Callable[[], object]] = {}
        self._live: list[QShortcut] = []

    def add(self, key: str | QKeySequence | int, slot: Callable[[], object]) -> None:
        """Bind ``key`` to ``slot`` from the next :meth:`bind`; refuse a key already taken."""
        name = QKeySequence(key).toString()
        if not name or name in self._slots:
            raise ValueError(f"key {name or key!r} is already bound on this screen")
        self._slots[name] = slot

    def bind(self) -> None:
        """Make the keys live (idempotent)."""
        if self._live:
            return
        for name, slot in self._slots.items():
            shortcut = QShortcut(QKeySequence(name), self._owner)
            shortcut.setAutoRepeat(False)
            shortcut.activated.connect(slot)
            self._live.append(shortcut)

    def unbind(self) -> None:
        """Remove the live keys (the screen is hidden or closed)."""
        for shortcut in self._live:
            shortcut.setEnabled(False)
            shortcut.setParent(None)
            shortcut.deleteLater()
        self._live.clear()

    def live_keys(self) -> list[str]:
        """The keys bound right now."""
        return [s.key().toString() for s in self._live]


class KeysWhileShown:
    """Mixed in before the widget class: ``self.shortcuts`` live while it is shown."""

    shortcuts: Shortcuts

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt override
        self.shortcuts.bind()
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 — Qt override
        self.shortcuts.unbind()
        super().hideEvent(event)
