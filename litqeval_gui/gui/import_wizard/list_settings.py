"""Page 3 of the import wizard: topic, database and query of the new lists, and each
file's list name and role (guessed: a ranked list or the larger files are results; into
a topic that already has lists every file is a result list until the user says
otherwise)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from litqeval_gui.core.records import ingest, lists, queries
from litqeval_gui.gui.import_wizard.messages import message_label, show_error_text
from litqeval_gui.gui.import_wizard.state import FileState, ImportSettings, WizardState

ROLE_LABELS = {
    "core": "Core set: publications known to be relevant",
    "results": "Search results: the result list of one query",
    "other": "Other list",
}
ROLE_NAMES = {"core": "Core set", "results": "Search results", "other": "Other list"}
RANKED = frozenset({"rank", "ranking", "position", "score", "relevance"})  # column names
CORE_MAX_BYTES = 1 << 20  # a larger file is a search export (a core set: a few dozen records)


def guess_roles(files: list[FileState], topic_is_new: bool) -> dict[Path, str]:
    """A sensible role per file: qrels are "other"; a TREC run, a table with a rank or
    score column or a file over :data:`CORE_MAX_BYTES` is a result list; of the other
    files, the smallest is the core set only for a new topic (one with neither a core
    set nor a result list: a core set is a few dozen records, an export thousands), the
    rest are result lists. Into a topic with lists, a core set is the user's choice."""
    roles: dict[Path, str] = {}
    unranked: list[FileState] = []
    for state in files:
        result = state.result
        fmt = result.format if result is not None else ""
        columns = {c.strip().casefold() for r in (result.records if result else []) for c in r.raw}
        if fmt == "qrels":
            roles[state.path] = "other"
        elif fmt == "trec-run" or (state.tabular and columns & RANKED) \
                or _size(state) > CORE_MAX_BYTES:
            roles[state.path] = "results"
        else:
            unranked.append(state)
    core = min(unranked, key=_size) if topic_is_new and unranked else None
    for state in unranked:
        roles[state.path] = "core" if state is core else "results"
    return roles


def _size(state: FileState) -> int:
    try:
        return state.path.stat().st_size
    except OSError:
        return 0


class SettingsPage(QWizardPage):
    """Role, topic, list names, database and query of the lists to create."""

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self._topics: dict[str, queries.TopicInfo] = {}
        self._roles_touched: set[Path] = set()
        self.setTitle("Describe the lists")
        self.setSubTitle("Every file becomes one list of the topic, with its own role.")
        self.setButtonText(QWizard.WizardButton.NextButton, "&Import")
        self.role_combos: dict[Path, QComboBox] = {}
        self.topic_combo = QComboBox()
        self.topic_combo.setEditable(True)
        self.topic_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.topic_combo.lineEdit().setPlaceholderText("an existing topic or a new name")
        self.topic_combo.currentTextChanged.connect(self._suggest_roles)
        self.names_box = QGroupBox("Lists: name and role of each file")
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
        self._suggest_roles()
        show_error_text(self.error_label, "")

    def _build_names(self) -> None:
        old = {path: edit.text() for path, edit in self.name_edits.items()}
        chosen = {path: combo.currentData() for path, combo in self.role_combos.items()}
        while self.names_form.rowCount():
            self.names_form.removeRow(0)
        self.name_edits, self.role_combos = {}, {}
        for state in self._state.files:
            edit = QLineEdit(old.get(state.path) or lists.plain_name(state.path.stem))
            combo = QComboBox()
            for role in ingest.ROLES:
                combo.addItem(ROLE_LABELS[role], role)
            combo.setCurrentIndex(max(0, combo.findData(chosen.get(state.path))))
            combo.activated.connect(lambda _i, path=state.path: self._roles_touched.add(path))
            row = QWidget()  # a widget, owned by the form (a bare layout was collected)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(edit, 1)
            line.addWidget(combo)
            self.names_form.addRow(f"{state.path.name}:", row)
            topics = state.trec_topics
            if topics:
                shown = ", ".join(topics[:6]) + (", …" if len(topics) > 6 else "")
                self.names_form.addRow("", QLabel(
                    f"{len(topics)} TREC topics ({shown}): each is imported into the "
                    "project topic of the same id, not into the topic above"))
            self.name_edits[state.path] = edit
            self.role_combos[state.path] = combo

    def _suggest_roles(self) -> None:
        """Each file's guessed role (:func:`guess_roles`) until the user picks one."""
        info = self._topics.get(self.topic_combo.currentText().strip())
        guessed = guess_roles(self._state.files, info is None or info.core + info.lists == 0)
        for path, combo in self.role_combos.items():
            if path not in self._roles_touched:
                combo.setCurrentIndex(combo.findData(guessed[path]))

    def settings(self) -> ImportSettings:
        """The answers as typed, stripped."""
        return ImportSettings(
            roles={path: combo.currentData() for path, combo in self.role_combos.items()},
            topic=self.topic_combo.currentText().strip(),
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
