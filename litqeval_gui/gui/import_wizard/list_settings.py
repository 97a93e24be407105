"""Page 3 of the import wizard: topic, database and query of the new lists, and each
file's list name and role (guessed: a ranked list or the larger files are results; into
a topic that already has lists every file is a result list until the user says
otherwise)."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from litqeval_gui.core.records import ingest, lists, queries
from litqeval_gui.core.records.collection import ROLE as COLLECTION
from litqeval_gui.gui.import_wizard.messages import ElidedLabel, message_label, show_error_text
from litqeval_gui.gui.import_wizard.state import FileState, ImportSettings, WizardState

ROLE_LABELS = {
    "core": "Core set: publications known to be relevant",
    "results": "Search results: the result list of one query",
    "other": "Other list",
    "collection": "Document collection: the texts of the topic's run and qrels docids",
}
ROLE_NAMES = {"core": "Core set", "results": "Search results", "other": "Other list",
              "collection": "Document collection"}
RANKED = frozenset({"rank", "ranking", "position", "score", "relevance"})  # column names
COLLECTION_FORMATS = ("jsonl", "trec-doc")  # formats that only a collection has
CORE_MAX_BYTES = 1 << 20  # a larger file is a search export (a core set: a few dozen records)
SHOWN_TOPICS = 8  # TREC topic ids named on a file's line (all of them in its tooltip)


def role_label(role: str) -> str:
    """The long label of ``role`` in the role boxes (its name for a role without one)."""
    return ROLE_LABELS.get(role) or role_name(role)


def role_name(role: str) -> str:
    """The short name of ``role`` (its id, capitalised, for a role without one)."""
    return ROLE_NAMES.get(role) or role.capitalize()


def topics_text(topics: list[str]) -> str:
    """``30 TREC topics: A, B, …`` naming the first :data:`SHOWN_TOPICS`."""
    shown = ", ".join(topics[:SHOWN_TOPICS]) + (", …" if len(topics) > SHOWN_TOPICS else "")
    return f"{len(topics)} TREC topic{'s' if len(topics) != 1 else ''}: {shown}"


def topics_tip(topics: list[str]) -> str:
    """Every topic id, as a tooltip that wraps."""
    return f"<p>{html.escape(', '.join(topics))}</p>"


def guess_roles(files: list[FileState], topic_is_new: bool) -> dict[Path, str]:
    """A sensible role per file: qrels are "other"; documents (JSON lines, TREC
    ``<DOC>``) a collection; a TREC run, a table with a rank or
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
        elif fmt in COLLECTION_FORMATS:
            roles[state.path] = COLLECTION
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
    """Role, topic, list names, database and query of the lists to create; the topic is
    asked for only when some file is not a TREC file (those go to their own topic ids)."""

    SUBTITLE = "Every file becomes one list of the topic, with its own role."
    TREC_SUBTITLE = ("Every file becomes one list in each of its TREC topics (the project "
                     "topic of that id), with its own role.")

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self._topics: dict[str, queries.TopicInfo] = {}
        self._roles_touched: set[Path] = set()
        self.setTitle("Describe the lists")
        self.setSubTitle(self.SUBTITLE)
        self.setButtonText(QWizard.WizardButton.NextButton, "&Import")
        self.role_combos: dict[Path, QComboBox] = {}
        self.topic_combo = QComboBox()
        self.topic_combo.setEditable(True)
        self.topic_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.topic_combo.lineEdit().setPlaceholderText("an existing topic or a new name")
        self.topic_combo.currentTextChanged.connect(self._suggest_roles)
        self.topics_label = ElidedLabel(mode=Qt.TextElideMode.ElideRight)
        self.names_box = QGroupBox("Lists: name and role of each file")
        self.names_widget = QWidget()
        self.names_grid = QGridLayout(self.names_widget)
        self.names_grid.setColumnStretch(1, 1)
        self.names_scroll = QScrollArea()
        self.names_scroll.setWidgetResizable(True)
        self.names_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.names_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.names_scroll.setWidget(self.names_widget)
        QVBoxLayout(self.names_box).addWidget(self.names_scroll)
        self.name_edits: dict[Path, QLineEdit] = {}
        self.topic_lines: dict[Path, tuple[ElidedLabel, str]] = {}  # a label, its text
        self.database_edit = QLineEdit()
        self.query_edit = QPlainTextEdit()
        self.query_edit.setTabChangesFocus(True)
        self.query_edit.setPlaceholderText("the search string that produced these results")
        self.query_edit.setFixedHeight(90)
        self.error_label = message_label(error=True)

        self.form = QFormLayout()
        self.form.addRow("&Topic:", self.topic_combo)
        self.form.addRow("Topics:", self.topics_label)
        self.form.addRow("&Database:", self.database_edit)
        self.form.addRow("&Query:", self.query_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.names_box, 1)
        layout.addWidget(self.error_label)

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        self._topics = {t.name: t for t in queries.topics(self._state.session.project)}
        typed = self.topic_combo.currentText()
        self.topic_combo.clear()
        self.topic_combo.addItems(list(self._topics))
        self.topic_combo.setCurrentText(typed or next(iter(self._topics), ""))
        self._build_names()
        self._show_topic_rows()
        databases = {s.result.database for s in self._state.files if s.result is not None}
        if not self.database_edit.text():
            self.database_edit.setText(databases.pop() if len(databases) == 1 else "")
        self.database_edit.setPlaceholderText("as detected for each file")
        self._suggest_roles()
        show_error_text(self.error_label, "")

    def _build_names(self) -> None:
        """One row per file: its name (elided), list name and role; a TREC file's topics
        on a line below. The rows scroll: no file name or topic list widens the wizard."""
        old = {path: edit.text() for path, edit in self.name_edits.items()}
        chosen = {path: combo.currentData() for path, combo in self.role_combos.items()}
        while self.names_grid.count():
            widget = self.names_grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.name_edits, self.role_combos, self.topic_lines = {}, {}, {}
        for row in range(self.names_grid.rowCount()):
            self.names_grid.setRowStretch(row, 0)
        row = 0
        for state in self._state.files:
            label = ElidedLabel(f"{state.path.name}:", max_chars=30)
            label.setToolTip(str(state.path))
            edit = QLineEdit(old.get(state.path) or lists.plain_name(state.path.stem))
            combo = QComboBox()
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(24)
            for role in ingest.ROLES:
                combo.addItem(role_label(role), role)
                combo.setItemData(combo.count() - 1, role_label(role),
                                  Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(max(0, combo.findData(chosen.get(state.path))))
            combo.activated.connect(lambda _i, path=state.path: self._roles_touched.add(path))
            label.setBuddy(edit)
            self.names_grid.addWidget(label, row, 0)
            self.names_grid.addWidget(edit, row, 1)
            self.names_grid.addWidget(combo, row, 2)
            row += 1
            topics = state.trec_topics
            if topics:
                text = f"a list in each of its {topics_text(topics)}"
                line = ElidedLabel(text, mode=Qt.TextElideMode.ElideRight)
                line.setToolTip(topics_tip(topics))
                line.setEnabled(False)  # a quieter colour: it explains, it asks nothing
                self.names_grid.addWidget(line, row, 1, 1, 2)
                self.topic_lines[state.path] = line, text
                row += 1
            self.name_edits[state.path] = edit
            self.role_combos[state.path] = combo
        self.names_grid.setRowStretch(row, 1)

    def _show_topic_rows(self) -> None:
        """The topic box when some file needs it; else the TREC topics the files go to."""
        needed = self._state.needs_topic()
        topics = self._state.trec_topics()
        self.form.setRowVisible(self.topic_combo, needed)
        self.form.setRowVisible(self.topics_label, not needed)
        self.topics_label.setText(f"from the files: {topics_text(topics)}" if topics else "")
        self.topics_label.setToolTip(topics_tip(topics))
        self.setSubTitle(self.SUBTITLE if needed else self.TREC_SUBTITLE)
        for line, text in self.topic_lines.values():
            tip = line.toolTip()  # every topic id
            line.setText(f"{text} (not into the topic above)" if needed else text)
            line.setToolTip(tip)

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
            topic=self.topic_combo.currentText().strip() if self._state.needs_topic() else "",
            names={path: edit.text().strip() for path, edit in self.name_edits.items()},
            database=self.database_edit.text().strip(),
            query=self.query_edit.toPlainText().strip())

    def validatePage(self) -> bool:  # noqa: N802 — Qt override
        problem = self._problem(self.settings())
        show_error_text(self.error_label, problem)
        return not problem

    def _problem(self, settings: ImportSettings) -> str:
        if self._state.needs_topic() and not settings.topic:
            return "Name the topic these lists belong to."
        names = list(settings.names.values())
        if not all(names):
            return "Every list needs a name."
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            return f"Two files would get the same list name {repeated[0]!r}; rename one."
        taken = {(i.topic, i.name) for i in queries.lists(self._state.session.project)}
        for state, trec_topic in self._state.imports():
            topic, name = trec_topic or settings.topic, settings.names[state.path]
            if (topic, name) in taken:
                return f"Topic {topic!r} already has a list named {name!r}; choose another name."
        return ""
