"""The start screen: new, open, the demo project and the recent projects."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.gui.icons import icon

PATH_ROLE = Qt.ItemDataRole.UserRole


class RecentList(QListWidget):
    """Recent projects; a click or Enter opens one."""

    chosen = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setUniformItemSizes(True)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setIconSize(QSize(32, 32))
        self.setSpacing(2)
        self.itemActivated.connect(lambda item: self.chosen.emit(item.data(PATH_ROLE)))
        self.itemClicked.connect(lambda item: self.chosen.emit(item.data(PATH_ROLE)))

    def set_paths(self, paths: list[Path]) -> None:
        self.clear()
        for path in paths:
            item = QListWidgetItem(icon("app"), f"{path.stem}\n{path.parent}")
            item.setData(PATH_ROLE, path)
            item.setToolTip(str(path))
            self.addItem(item)
        if paths:
            self.setCurrentRow(0)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentItem():
            self.chosen.emit(self.currentItem().data(PATH_ROLE))
            return
        super().keyPressEvent(event)


class StartView(QWidget):
    """What the window shows with no project open."""

    new_requested = Signal()
    open_requested = Signal()
    demo_requested = Signal()
    recent_chosen = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        logo = QLabel()
        logo.setPixmap(icon("app").pixmap(QSize(72, 72)))
        title = QLabel("<h1>LitQEval GUI</h1>"
                       "<p>Evaluate literature search queries against a core set of "
                       "known relevant publications, screen records and build pools.</p>")
        title.setWordWrap(True)
        header = QHBoxLayout()
        header.addWidget(logo, 0, Qt.AlignmentFlag.AlignTop)
        header.addWidget(title, 1)

        self.new_button = self._button("New Project…", "new", self.new_requested)
        self.open_button = self._button("Open Project…", "open", self.open_requested)
        self.demo_button = self._button("Open Demo Project", "app", self.demo_requested)
        self.demo_button.setToolTip("A small ready-made project with three topics to explore")
        self.demo_progress = QProgressBar()
        self.demo_progress.setTextVisible(True)
        self.demo_label = QLabel()
        self.demo_label.setWordWrap(True)
        buttons = QVBoxLayout()
        for button in (self.new_button, self.open_button, self.demo_button):
            buttons.addWidget(button)
        buttons.addWidget(self.demo_label)
        buttons.addWidget(self.demo_progress)
        buttons.addStretch(1)
        self.show_demo_progress(None)

        self.recent = RecentList()
        self.recent.chosen.connect(self.recent_chosen)
        self.recent_label = QLabel("<b>Recent projects</b>")
        self.empty_label = QLabel("No recent projects yet. Create a new project, open one, "
                                  "or explore the demo project.")
        self.empty_label.setWordWrap(True)
        recent = QVBoxLayout()
        recent.addWidget(self.recent_label)
        recent.addWidget(self.recent, 1)
        recent.addWidget(self.empty_label)
        recent.addStretch(0)

        body = QHBoxLayout()
        body.addLayout(buttons)
        body.addSpacing(24)
        body.addLayout(recent, 1)

        panel = QWidget()
        panel.setMinimumWidth(640)
        panel.setMaximumWidth(820)
        column = QVBoxLayout(panel)
        column.addLayout(header)
        column.addSpacing(12)
        column.addLayout(body, 1)
        panel.setMaximumHeight(520)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 24, 24, 24)
        outer.addStretch(1)
        outer.addWidget(panel, 0, Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(2)

    def _button(self, text: str, icon_name: str, signal: Signal) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setIconSize(QSize(24, 24))
        button.setMinimumHeight(40)
        button.setMinimumWidth(200)
        button.clicked.connect(signal)
        return button

    def show_demo_progress(self, progress: tuple[int, int, str] | None) -> None:
        """(done, total, message) of the demo being built, or None when it is not."""
        building = progress is not None
        self.demo_button.setEnabled(not building)
        self.demo_label.setVisible(building)
        self.demo_progress.setVisible(building)
        if progress is not None:
            done, total, message = progress
            self.demo_label.setText(f"Building the demo project (first time only): {message}")
            self.demo_progress.setRange(0, max(total, 0))
            self.demo_progress.setValue(done)

    def set_recent(self, paths: list[Path]) -> None:
        self.recent.set_paths(paths)
        self.recent.setVisible(bool(paths))
        self.empty_label.setVisible(not paths)
