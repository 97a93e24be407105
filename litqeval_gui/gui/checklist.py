"""A list of checkable items, each carrying its value (a list name, a run source)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem


def add_checkable(box: QListWidget, text: str, data: str, checked: bool, tip: str = "") -> None:
    item = QListWidgetItem(text)
    item.setData(Qt.ItemDataRole.UserRole, data)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    item.setToolTip(tip)
    box.addItem(item)


def checked_values(box: QListWidget) -> list[str]:
    """The values of the ticked items, in order."""
    return [box.item(i).data(Qt.ItemDataRole.UserRole) for i in range(box.count())
            if box.item(i).checkState() == Qt.CheckState.Checked]
