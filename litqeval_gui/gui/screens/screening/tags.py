"""The tags of the record on screen, each a small button that takes it off when clicked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

CHIP_STYLE = ("QPushButton { border: 1px solid palette(mid); border-radius: 9px; "
              "padding: 1px 8px; background: palette(alternate-base); }")


class TagBar(QWidget):
    """``Tags: [rct ✕] [adults ✕]``; ``removed(tag)`` is called for a clicked chip."""

    def __init__(self, removed: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._removed = removed
        self.chips: list[QPushButton] = []
        self.empty = QLabel("no tags")
        self.empty.setStyleSheet("color: palette(placeholder-text)")
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.addWidget(QLabel("Tags:"))
        self.row.addWidget(self.empty)
        self.row.addStretch(1)

    def show_tags(self, tags: Sequence[str]) -> None:
        for chip in self.chips:
            self.row.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        self.chips = []
        for tag in tags:
            chip = QPushButton(f"{tag}  ✕", toolTip=f"Remove the tag “{tag}”")
            chip.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            chip.setStyleSheet(CHIP_STYLE)
            chip.clicked.connect(lambda checked=False, t=tag: self._removed(t))
            self.row.insertWidget(self.row.count() - 1, chip)
            chip.show()  # now, not after the next event-loop turn
            self.chips.append(chip)
        self.empty.setVisible(not tags)

    def tags(self) -> list[str]:
        return [chip.text().rsplit("  ✕", 1)[0] for chip in self.chips]
