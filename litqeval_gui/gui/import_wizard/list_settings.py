"""Page 3 of the import wizard: role, topic, names, database and query of the new lists."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from litqeval_gui.core.records import ingest, queries
from litqeval_gui.gui.import_wizard.messages import message_label, show_error_text
from litqeval_gui.gui.import_wizard.state import ImportSettings, WizardState

ROLE_LABELS = {
    "core": "Core set: publications known to be relevant",
    "results": "Search results: the result list of one query",
    "other": "Other list",
}


class SettingsPage(QWizardPage):
    """Role, topic, list names, database and query of the lists to create."""

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self._topics: dict[str, queries.TopicInfo] = {}
        self._role_touched = False
        self.setTitle("Describe the lists")
        self.setSubTitle("Every file becomes one list of the topic.")
        self.setButtonText(QWizard.WizardButton.NextButton, "&Import")
        self.role_combo = QComboBox()
        for role in ingest.ROLES:
            self.role_combo.addItem(ROLE_LABELS[role], role)
        self.role_combo.activated.connect(self._role_chosen)
        self.topic_combo = QComboBox()
        self.topic_combo.setEditable(True)
        self.topic_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.topic_combo.lineEdit().setPlaceholderText("an existing topic or a new name")
        self.topic_combo.currentTextChanged.connect(self._suggest_role)
        self.names_box = QGroupBox("List names")
        self.names_form = QFormLayout(self.names_box)
        self.name_edits: dict[Path, QLineEdit] = {}
        self.database_edit = QLineEdit()
        self.query_edit = QPlainTextEdit()
        self.query_edit.setTabChangesFocus(True)
        self.query_edit.setPlaceholderText("the search string that produced these results")
        self.query_edit.setFixedHeight(90)
        self.error_label = message_label(error=True)

        form = QFormLayout()
        form.addRow("&Topic:", self.topic_combo)
        form.addRow("&Role:", self.role_combo)
        form.addRow("&Database:", self.database_edit)
        form.addRow("&Query:", self.query_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.names_box)
        layout.addWidget(self.error_label)
        layout.addStretch(1)

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        self._topics = {t.name: t for t in queries.topics(self._state.session.project)}
        typed = self.topic_combo.currentText()
        self.topic_combo.clear()
        self.topic_combo.addItems(list(self._topics))
        self.topic_combo.setCurrentText(typed or next(iter(self._topics), ""))
        self._build_names()
        databases = {s.result.database for s in self._state.files if s.result is not None}
        if not self.database_edit.text():
            self.database_edit.setText(databases.pop() if len(databases) == 1 else "")
        self.database_edit.setPlaceholderText("as detected for each file")
        self._suggest_role()
        show_error_text(self.error_label, "")

    def _build_names(self) -> None:
        old = {path: edit.text() for path, edit in self.name_edits.items()}
        while self.names_form.rowCount():
            self.names_form.removeRow(0)
        self.name_edits = {}
        for state in self._state.files:
            edit = QLineEdit(old.get(state.path) or state.path.stem)
            self.names_form.addRow(f"{state.path.name}:", edit)
            self.name_edits[state.path] = edit

    def _role_chosen(self) -> None:
        self._role_touched = True

    def _suggest_role(self) -> None:
        """Until the user picks a role: core for a topic without core set, else results."""
        if self._role_touched:
            return
        info = self._topics.get(self.topic_combo.currentText().strip())
        role = "results" if info is not None and info.core else "core"
        self.role_combo.setCurrentIndex(self.role_combo.findData(role))

    def settings(self) -> ImportSettings:
        """The answers as typed, stripped."""
        return ImportSettings(
            role=self.role_combo.currentData(), topic=self.topic_combo.currentText().strip(),
            names={path: edit.text().strip() for path, edit in self.name_edits.items()},
            database=self.database_edit.text().strip(),
            query=self.query_edit.toPlainText().strip())

    def validatePage(self) -> bool:  # noqa: N802 — Qt override
        problem = self._problem(self.settings())
        show_error_text(self.error_label, problem)
        return not problem

    def _problem(self, settings: ImportSettings) -> str:
        if not settings.topic:
            return "Name the topic these lists belong to."
        names = list(settings.names.values())
        if not all(names):
            return "Every list needs a name."
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            return f"Two files would get the same list name {repeated[0]!r}; rename one."
        if settings.topic in self._topics:
            taken = {i.name for i in queries.lists(self._state.session.project, settings.topic)}
            clash = [n for n in names if n in taken]
            if clash:
                return (f"Topic {settings.topic!r} already has a list named {clash[0]!r}; "
                        "choose another name.")
        return ""
