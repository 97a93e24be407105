"""Starting to screen a topic: open one of its screenings or create one, and know the
reviewer (asked once, kept in :class:`~litqeval_gui.gui.settings.Settings`)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core import catalog
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.labels import GRADED, IEM, PHASES
from litqeval_gui.core.screening.store import Screening
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.settings import Settings

SCHEME_TEXT = {IEM: "Include / exclude / maybe", GRADED: "Graded relevance 0–3"}
PHASE_TEXT = {"title_abstract": "Title and abstract", "full_text": "Full text"}
NEW = "New screening…"


def ask_reviewer(settings: Settings, parent: QWidget | None) -> str:
    """The reviewer's name from the settings; asked (and kept) the first time."""
    if settings.reviewer:
        return settings.reviewer
    name, ok = QInputDialog.getText(parent, "Who is screening?",
                                    "Your name (every decision records it):")
    if ok and name.strip():
        settings.reviewer = name
        settings.save()
    return settings.reviewer


class StartDialog(QDialog):
    """Pick an existing screening of ``topic`` or fill in a new one; :meth:`screening`
    gives the chosen one (creating it) after ``accept``."""

    def __init__(self, project: Project, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle=f"Screen {topic}")
        self.project, self.topic = project, topic
        self.existing = store.screenings(project, topic)
        self.choice = QComboBox()
        for found in self.existing:
            self.choice.addItem(f"{found.name} ({found.size:,} records)", found.id)
        self.choice.addItem(NEW, None)
        self.name = QLineEdit(placeholderText="e.g. title-abstract round 1")
        self.lists = QListWidget()
        for info in catalog.lists(project, topic):
            if info.role == "core":
                continue
            item = QListWidgetItem(f"{info.name} ({info.size:,} works)")
            item.setData(Qt.ItemDataRole.UserRole, info.name)
            item.setCheckState(Qt.CheckState.Checked if self.lists.count() == 0
                               else Qt.CheckState.Unchecked)
            self.lists.addItem(item)
        self.lists.setToolTip("One list, or several: their union, each work screened once")
        self.lists.setMaximumHeight(120)
        self.phase = QComboBox()
        for key in PHASES:
            self.phase.addItem(PHASE_TEXT[key], key)
        self.scheme = QComboBox()
        for key, text in SCHEME_TEXT.items():
            self.scheme.addItem(text, key)
        self.reasons = QLineEdit(placeholderText="wrong population, wrong design, not English")
        self.reasons.setToolTip("Exclusion reasons, separated by commas (more can be added later)")

        self.new_box = QGroupBox("New screening")
        form = QFormLayout(self.new_box)
        form.addRow("Name", self.name)
        form.addRow("Lists", self.lists)
        form.addRow("Phase", self.phase)
        form.addRow("Labels", self.scheme)
        form.addRow("Exclusion reasons", self.reasons)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        top = QFormLayout()
        top.addRow("Screening", self.choice)
        layout.addLayout(top)
        layout.addWidget(self.new_box)
        layout.addWidget(buttons)
        self.choice.currentIndexChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.new_box.setEnabled(self.choice.currentData() is None)

    def chosen_lists(self) -> list[str]:
        return [self.lists.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.lists.count())
                if self.lists.item(i).checkState() == Qt.CheckState.Checked]

    def screening(self) -> Screening:
        """The chosen screening, created now when new (a clear error when it cannot be)."""
        chosen = self.choice.currentData()
        if chosen is not None:
            return store.get_screening(self.project, chosen)
        return store.create_screening(
            self.project, self.topic, self.name.text().strip(), self.chosen_lists(),
            phase=self.phase.currentData(), scheme=self.scheme.currentData(),
            reasons=[r.strip() for r in self.reasons.text().split(",") if r.strip()])

    def accept(self) -> None:
        try:
            self.made = self.screening()
        except LitqError as exc:
            show_error(self, "Cannot start this screening", exc)
            return
        super().accept()


def choose_screening(project: Project, topic: str, settings: Settings,
                     parent: QWidget | None) -> Screening | None:
    """Ask which screening (and, once, who screens); None when cancelled."""
    if not ask_reviewer(settings, parent):
        return None
    dialog = StartDialog(project, topic, parent)
    return dialog.made if dialog.exec() == QDialog.DialogCode.Accepted else None
