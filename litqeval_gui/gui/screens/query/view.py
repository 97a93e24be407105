"""The Query screen: a result list's search query, clause by clause, edited with the effect
shown at once (a :class:`~litqeval_gui.gui.screens.Screen` opened on a list of a topic).

The editor holds the list's stored query. Each edit is read at once (Save is enabled only
for a readable, changed query) and, 300 ms after the last key, evaluated in the
background on the topic's records (:func:`.job.evaluate`: the clause table, the list's
own export, the stored query's figures for the before/after line); an answer for an
older edit is dropped. The first evaluation builds the topic's index (seconds on a big
topic, cached after). "Save as New Version" (Ctrl+S) stores the text as the list's query
through the session's write path — the old versions are kept and listed; choosing one
loads it into the editor. Ctrl+Enter evaluates now, Esc reverts (asking first).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.query import versions
from litqeval_gui.core.query.parser import SYNTAXES, QuerySyntaxError, parse
from litqeval_gui.core.query.report import HONEST
from litqeval_gui.core.query.syntax import Query
from litqeval_gui.core.query.topic import Outcome
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.queries import ListInfo
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.screens import TopicTarget
from litqeval_gui.gui.screens.query.choice import result_lists
from litqeval_gui.gui.screens.query.editor import QueryEditor, error_colour
from litqeval_gui.gui.screens.query.job import Evaluated, Request, counts, evaluate
from litqeval_gui.gui.screens.query.panels import ResultTabs
from litqeval_gui.gui.screens.query.tree import ClauseTree
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

PAUSE_MS = 300  # after the last key, evaluate
BUSY_AFTER_MS = 250  # an evaluation quicker than this shows no busy sign
SYNTAX_NAMES = {"auto": "Detect", "boolean": "Boolean", "pubmed": "PubMed", "ovid": "Ovid",
                "scopus": "Scopus", "wos": "Web of Science"}
NO_LIST = ("Topic {topic} has no result list yet: a query belongs to the list it produced. "
           "Import a search export (File ▸ Import…) to keep its query here; meanwhile a "
           "query typed here is evaluated on the topic's records, not saved.")
NO_QUERY = ("List ‘{name}’ has no query stored. Type or paste the query that produced it "
            "(as run in the database): it is evaluated as you type, and Save as New "
            "Version keeps it as version 1.")
UNREAD = ("No clauses to show until the query can be read: correct it where it is marked "
          "(a limit the records do not hold, such as a publication year, can be removed "
          "here and kept in the database).")
FIRST_READ = "Reading the topic's records (the first time takes a few seconds)…"


def _when(at: str) -> str:
    """A version's time, local, to the minute."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    return (moment.astimezone() if moment.tzinfo else moment).strftime("%Y-%m-%d %H:%M")


def _delta(now: int, before: int) -> str:
    change = now - before
    return " (±0)" if not change else f" ({change:+,})"


class QueryView(TopicTarget, QWidget):
    """One result list's query (module docstring); opened on a :class:`ListInfo` or on a
    topic's name (its first result list, those with a query first)."""

    key = "query"

    def __init__(self, session: ProjectSession, target: ListInfo | str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        project = session.project
        self.session = session
        info = target if isinstance(target, ListInfo) else \
            next(iter(result_lists(project, target)), None)
        self.topic = info.topic if info else str(target)
        self.topic_id = project.topic_id(self.topic)
        self.list_id: int | None = info.id if info else None
        self.list_name: str | None = info.name if info else None
        self.stored = ""  # the list's query as stored
        self.history: list[versions.Version] = []
        self.shown: Evaluated | None = None  # what the tree and the tabs show
        self.job: Any = None
        self._running: Request | None = None  # the job's request
        self._wanted: Request | None = None  # the latest request not yet shown
        self._outcomes: dict[tuple[str, str], Outcome] = {}  # (text, syntax) → its whole
        self._stored_errors: dict[tuple[str, str], str] = {}
        self._parsed: tuple[str, str, Query | QuerySyntaxError] | None = None
        self._stale = False
        self._saving = False
        self._timer = QTimer(self, singleShot=True, interval=PAUSE_MS)
        self._timer.timeout.connect(self.evaluate_now)
        self._busy_timer = QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)
        self._build()
        self._read_stored(load=True)

    # -- building --------------------------------------------------------------------
    def _build(self) -> None:
        self.caption = QLabel()
        self.syntax = QComboBox(toolTip="How to read the query: its database's syntax and "
                                "operator precedence (Detect: from its field tags)")
        for name in SYNTAXES:
            self.syntax.addItem(SYNTAX_NAMES[name], name)
        self.syntax.currentIndexChanged.connect(self._syntax_changed)
        self.read_as = QLabel()
        self.read_as.setStyleSheet("color: palette(placeholder-text)")
        self.notice = QLabel(wordWrap=True)
        self.notice.hide()
        self.editor = QueryEditor()
        self.editor.setPlaceholderText("Type or paste a search query, e.g. robot* AND "
                                       "(knee OR hip) AND arthroplast*")
        self.editor.textChanged.connect(self._edited)
        self.setFocusProxy(self.editor)
        self.versions = QListWidget(toolTip="The query's versions, newest first; choose one "
                                    "to load it into the editor (Save keeps it as a new "
                                    "version)")
        self.versions.setWordWrap(True)  # to the panel's width, never scrolled sideways
        self.versions.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.versions.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.versions.itemClicked.connect(self._version_chosen)
        self.versions.itemActivated.connect(self._version_chosen)
        self.status = QLabel()
        self.tree_caption = QLabel()
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                            | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.status.linkActivated.connect(lambda _link: self._go_to_error())
        for label in (self.caption, self.status, self.tree_caption):
            # one line each, as long as the screen is wide: never widening the window
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setMinimumWidth(80)
        self.problem = QLabel(wordWrap=True)  # an evaluation that failed (not a typo)
        self.problem.hide()
        self.busy = QLabel()
        self.busy.setStyleSheet("color: palette(placeholder-text)")
        self.progress = QProgressBar(maximumWidth=120, textVisible=False)
        self.progress.setRange(0, 0)
        self.save_action = make_action(self, "Save as New Version", self.save,
                                       shortcut="Ctrl+S", scoped=True)
        self.evaluate_action = make_action(self, "Evaluate Now", self.evaluate_asked,
                                           shortcut="Ctrl+Return", scoped=True)
        self.evaluate_action.setShortcuts([QKeySequence("Ctrl+Return"),
                                           QKeySequence("Ctrl+Enter")])
        self.revert_action = make_action(self, "Revert Edit…", self.ask_revert,
                                         shortcut="Escape", scoped=True)
        self.save_button = QPushButton("Save as New Version", toolTip=(
            "Store the edited text as the list's query, a new version; the old ones are "
            "kept (Ctrl+S)"))
        self.save_button.clicked.connect(self.save)
        self.revert_button = QPushButton("Revert", toolTip="Show the stored query again, "
                                         "dropping the edit (Esc asks first; Ctrl+Z undoes)")
        self.revert_button.clicked.connect(self.revert)
        self.evaluate_button = QPushButton("Evaluate Now", toolTip="Evaluate the text as it "
                                           "is, without waiting (Ctrl+Enter)")
        self.evaluate_button.clicked.connect(self.evaluate_asked)
        self.tree = ClauseTree()
        self.tree.clause_chosen.connect(self._clause_chosen)
        self.tabs = ResultTabs()
        self.honest = QLabel(HONEST, wordWrap=True)
        self.honest.setStyleSheet("color: palette(placeholder-text)")

        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.caption, 1)
        head.addWidget(QLabel("Syntax:"))
        head.addWidget(self.syntax)
        head.addWidget(self.read_as)
        column.addLayout(head)
        column.addWidget(self.notice)
        history = QWidget()
        side = QVBoxLayout(history)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(QLabel("Versions"))
        side.addWidget(self.versions, 1)
        self.top_split = QSplitter(Qt.Orientation.Horizontal, childrenCollapsible=False)
        self.top_split.addWidget(self.editor)
        self.top_split.addWidget(history)
        self.top_split.setStretchFactor(0, 1)
        self.top_split.setSizes([860, 320])
        column.addWidget(self.top_split, 1)
        line = QHBoxLayout()
        line.addWidget(self.status, 1)
        for widget in (self.busy, self.progress, self.evaluate_button, self.revert_button,
                       self.save_button):
            line.addWidget(widget)
        column.addLayout(line)
        column.addWidget(self.problem)
        middle = QWidget()
        tree_column = QVBoxLayout(middle)
        tree_column.setContentsMargins(0, 4, 0, 0)
        tree_column.addWidget(self.tree_caption)
        tree_column.addWidget(self.tree, 1)
        self.split = QSplitter(Qt.Orientation.Vertical, childrenCollapsible=False)
        for widget in (top, middle, self.tabs):
            self.split.addWidget(widget)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([150, 370, 170])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.honest)
        self._set_busy(False)

    # -- the screen protocol ---------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Query of {self.list_name}: {self.topic}" if self.list_name \
            else f"Query: {self.topic}"

    @property
    def tooltip(self) -> str:
        of = f"list {self.list_name} of topic {self.topic}" if self.list_name \
            else f"topic {self.topic}"
        return f"The search query of {of}, clause by clause"

    @staticmethod
    def id_of(target: ListInfo | str) -> Any:
        return target.id if isinstance(target, ListInfo) else ("topic", target)

    def target_id(self) -> Any:
        return self.list_id if self.list_id is not None else ("topic", self.topic)

    def descriptor(self) -> dict[str, Any]:
        return {"topic": self.session.project.topic_id(self.topic), "list": self.list_id}

    @classmethod
    def from_descriptor(cls, session: ProjectSession,
                        descriptor: dict[str, Any]) -> QueryView | None:
        if descriptor.get("list") is not None:
            info = queries.list_info(session.project, int(descriptor["list"]))
            return None if info is None else cls(session, info)
        topic = session.project.topic_name(descriptor["topic"])
        return None if topic is None else cls(session, topic)

    def screen_actions(self) -> list[QAction]:
        return [self.save_action, self.evaluate_action, self.revert_action]

    def save_state(self, settings: Settings) -> None:
        settings.set_splitter_sizes(self.key, self.split.sizes())
        settings.set_splitter_sizes(f"{self.key}.editor", self.top_split.sizes())

    def restore_state(self, settings: Settings) -> None:
        """The splitters as last left (in any query tab); moving one is remembered."""
        for split, name in ((self.split, self.key), (self.top_split, f"{self.key}.editor")):
            sizes = settings.splitter_sizes(name)
            if sizes and len(sizes) == split.count():
                split.setSizes(sizes)
            split.splitterMoved.connect(lambda *_: self.save_state(settings))

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """Follow a rename of the topic or the list (or close when either is deleted);
        read the stored query again when lists change; evaluate again when the topic's
        records change."""
        if not self.follow_topic(changes):
            return
        if changes.lists and self.list_id is not None:
            info = queries.list_info(self.session.project, self.list_id)
            if info is None:
                self.target_gone = True
                return
            self.list_name = info.name
            self._read_stored(load=initiator is not self)
        if changes.records or changes.works:
            self._outcomes.clear()
            self._stored_errors.clear()
            self._running = None
            if self.isVisible():
                self.evaluate_now(force=True)
            else:
                self._stale = True

    def showEvent(self, event: Any) -> None:  # noqa: N802 — Qt override
        if self._stale:
            self._stale = False
            self.evaluate_now(force=True)
        super().showEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the tab stops its evaluation; an answer still coming goes nowhere."""
        self._timer.stop()
        self._wanted = None
        if self.job is not None:
            self.job.cancel()
        super().closeEvent(event)

    # -- the stored query and its versions -------------------------------------------
    def _read_stored(self, *, load: bool) -> None:
        """Read the list's query and versions; ``load``: put the stored query in the
        editor when it was not edited (or on opening)."""
        project = self.session.project
        was_edited = self.edited()
        if self.list_name is None:
            self.stored, self.history = "", []
        else:
            self.stored = versions.current(project, self.topic, self.list_name)
            self.history = versions.history(project, self.topic, self.list_name)
        records = ""
        if self.list_id is not None:
            info = queries.list_info(project, self.list_id)
            if info is not None:
                records = f" · {info.records:,} records" + (
                    f" from {info.database}" if info.database else "")
        self.caption.setText(f"<b>Query of list ‘{self.list_name}’</b>{records}"
                             if self.list_name else f"<b>A query on topic {self.topic}</b>")
        self.notice.setText(NO_LIST.format(topic=self.topic) if self.list_name is None
                            else NO_QUERY.format(name=self.list_name) if not self.stored
                            else "")
        self.notice.setVisible(bool(self.notice.text()))
        self._fill_versions()
        if load and not self.editor.toPlainText():
            self.editor.setPlainText(self.stored)  # on opening: nothing to undo
        elif load and not was_edited:
            self.editor.replace_text(self.stored)
        self._update()
        self.evaluate_now()  # the text, or only the stored query when it is new

    def _fill_versions(self) -> None:
        self.versions.clear()
        for version in reversed(self.history):
            current = version.version == self.history[-1].version
            item = QListWidgetItem(f"v{version.version}  {_when(version.at)}"
                                   + ("  (stored)" if current else "") + "\n"
                                   + " ".join(version.text.split())[:120])
            item.setData(Qt.ItemDataRole.UserRole, version.version)
            item.setToolTip(version.text)
            if current:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.versions.addItem(item)
        if not self.history:
            item = QListWidgetItem("no version yet")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.versions.addItem(item)

    def _version_chosen(self, item: QListWidgetItem) -> None:
        """Load the chosen version into the editor (one undoable edit)."""
        number = item.data(Qt.ItemDataRole.UserRole)
        found = [v for v in self.history if v.version == number]
        if found:
            self.editor.replace_text(found[0].text)
            self.editor.setFocus()

    # -- editing ---------------------------------------------------------------------
    def edited(self) -> bool:
        """Whether the editor's text differs from the stored query."""
        return self.editor.toPlainText().strip() != self.stored.strip()

    def current_syntax(self) -> str:
        return self.syntax.currentData() or "auto"

    def _parse(self) -> Query | QuerySyntaxError:
        """The editor's text read with the chosen syntax (kept while both are the same)."""
        text, syntax = self.editor.toPlainText(), self.current_syntax()
        if self._parsed is None or self._parsed[:2] != (text, syntax):
            try:
                result: Query | QuerySyntaxError = parse(text, syntax)
            except QuerySyntaxError as exc:
                result = exc
            self._parsed = (text, syntax, result)
        return self._parsed[2]

    def _edited(self) -> None:
        self.editor.mark_span(None)
        self.editor.mark_error(None)
        self._update(typing=True)
        self._timer.start()

    def _syntax_changed(self) -> None:
        self._update()
        self.evaluate_now()

    def revert(self) -> None:
        """Show the stored query again (undoable)."""
        self.editor.replace_text(self.stored)

    def ask_revert(self) -> None:
        """Esc: revert after asking, when there is an edit."""
        if not self.edited():
            return
        answer = QMessageBox.question(self, "Revert the query",
                                      "Drop the edit and show the stored query again?")
        if answer == QMessageBox.StandardButton.Yes:
            self.revert()

    def save(self) -> None:
        """Store the edited text as the list's query, a new version."""
        if not self._can_save():
            parsed = self._parse()
            if isinstance(parsed, QuerySyntaxError):
                self._show_status()
                self._go_to_error()
            return
        text = self.editor.toPlainText()
        try:
            op = versions.set_query_op(self.topic, self.list_name, text)
        except LitqError as exc:
            self._set_status(str(exc), error=True)
            return
        self._saving = True
        self._update()
        self.session.write(op, initiator=self, on_success=self._saved,
                           on_failure=self._save_failed)

    def _saved(self, _changes: object) -> None:
        self._saving = False
        self._update()
        window = self.window()
        if hasattr(window, "statusBar") and self.history:
            window.statusBar().showMessage(
                f"Saved as version {self.history[-1].version} of the query of "
                f"{self.list_name}", 5000)

    def _save_failed(self, exc: BaseException) -> None:
        self._saving = False
        self._update()
        self._set_status(f"Not saved: {exc}", error=True)

    def _can_save(self) -> bool:
        return (self.list_name is not None and not self._saving and self.edited()
                and not isinstance(self._parse(), QuerySyntaxError))

    def _update(self, *, typing: bool = False) -> None:
        """The buttons, the syntax read and the status line for the text as it is
        (``typing``: where it cannot be read is said once the keys pause)."""
        can_save = self._can_save()
        self.save_button.setEnabled(can_save)
        self.save_action.setEnabled(can_save)
        edited = self.edited()
        self.revert_button.setEnabled(edited)
        self.revert_action.setEnabled(edited)
        parsed = self._parse()
        auto = self.current_syntax() == "auto"
        self.read_as.setText(f"read as {SYNTAX_NAMES[parsed.syntax]}"
                             if auto and isinstance(parsed, Query) else "")
        if self.list_name is None:
            self.save_button.setToolTip("A query is kept with its result list: this topic "
                                        "has none yet")
        self._show_status(typing=typing)

    # -- evaluating ------------------------------------------------------------------
    def _request(self) -> Request | None:
        parsed = self._parse()
        if isinstance(parsed, QuerySyntaxError):
            return None
        syntax = self.current_syntax()
        known = (self.stored.strip(), syntax) in self._outcomes or \
            (self.stored.strip(), syntax) in self._stored_errors
        return Request(self.topic, self.list_name, self.editor.toPlainText(), syntax,
                       None if known or not self.stored.strip() else self.stored)

    def evaluate_now(self, force: bool = False) -> None:
        """Evaluate the text as it is (in the background); an unreadable one shows where
        it cannot be read instead."""
        self._timer.stop()
        parsed = self._parse()
        if isinstance(parsed, QuerySyntaxError):
            self.editor.mark_error(parsed.at if self.editor.toPlainText().strip() else None)
            self._show_status()
            self._wanted = None
            return
        request = self._request()
        if request is None:
            return
        if not force and self.shown is not None and self._same(self.shown.request, request):
            self._wanted = None
            self._show_status()
            return
        self._wanted = request
        if self.job is not None:
            if self._running != request:
                self.job.cancel()  # its answer is dropped; the wanted one starts after
            return
        self._start(request)

    def evaluate_asked(self) -> None:
        """Ctrl+Enter: evaluate now, or put the cursor where the text cannot be read."""
        self.evaluate_now()
        self._go_to_error()

    @staticmethod
    def _same(shown: Request, wanted: Request) -> bool:
        return (shown.text, shown.syntax, shown.list_name) == (wanted.text, wanted.syntax,
                                                               wanted.list_name) \
            and wanted.stored is None

    def _start(self, request: Request) -> None:
        self._running = request
        self.problem.hide()
        self._busy_timer.start()
        if self.shown is None:
            self._set_busy(True)
            self.busy.setText("")
        self.job = self.session.jobs.run(
            f"Evaluating the query of {self.list_name or self.topic}",
            self.session.worker_job(partial(evaluate, request=request)),
            on_success=self._succeeded,  # bound methods: dropped once the tab is deleted
            on_failure=self._failed, on_cancelled=self._cancelled,
            on_progress=self._progressed)
        self._show_status()

    def _progressed(self, _done: int, _total: int, message: str) -> None:
        if message:
            self.busy.setText(message[:1].upper() + message[1:] + "…")

    def _succeeded(self, evaluated: Evaluated) -> None:
        request = evaluated.request
        self._outcomes[(request.text.strip(), request.syntax)] = evaluated.analysis.whole
        if request.stored is not None:
            key = (request.stored.strip(), request.syntax)
            if evaluated.stored is not None:
                self._outcomes[key] = evaluated.stored
            else:
                self._stored_errors[key] = evaluated.stored_error
        if self._wanted == request:
            self._wanted = None
            self._show(evaluated)
        self._ended()

    def _failed(self, exc: BaseException) -> None:
        if self._wanted == self._running:
            self._wanted = None
            self.problem.setText(f"The evaluation failed: {exc}")
            self.problem.setStyleSheet(f"color: {error_colour(self).name()}")
            self.problem.show()
        self._ended()

    def _cancelled(self) -> None:
        self._ended()

    def _ended(self) -> None:
        self.job = None
        self._running = None
        if self._wanted is not None:
            self._start(self._wanted)
        else:
            self._set_busy(False)

    def _show_busy(self) -> None:
        if self.job is not None:
            self._set_busy(True)

    def _set_busy(self, busy: bool) -> None:
        if not busy:
            self._busy_timer.stop()
        self.busy.setVisible(busy)
        self.progress.setVisible(busy)

    # -- showing ---------------------------------------------------------------------
    def _show(self, evaluated: Evaluated) -> None:
        """Fill the tree and the tabs from ``evaluated``."""
        self.shown = evaluated
        analysis = evaluated.analysis
        self.tree.show_analysis(analysis)
        self.tabs.show_results(analysis, evaluated.agreed, evaluated.request.list_name)
        self._show_status()

    def _show_status(self, *, typing: bool = False) -> None:
        """The one-line status: where the text cannot be read (not while ``typing``), or
        the stored query's figures and the edited one's; the tree's caption says which
        query it shows."""
        parsed = self._parse()
        text = self.editor.toPlainText()
        if isinstance(parsed, QuerySyntaxError) and typing:
            self._set_status(self._counts_line(text, pending="…"), error=False)
        elif isinstance(parsed, QuerySyntaxError):
            if not text.strip():
                self._set_status("no query stored for this list: type one"
                                 if self.list_name and not self.stored.strip()
                                 else "the query is empty", error=False)
            else:
                self._set_status(f'<a href="error">{_escape(str(parsed))}</a>', error=True,
                                 rich=True)
        else:
            self._set_status(self._counts_line(text), error=False)
        self.tree_caption.setText(self._tree_caption(parsed, text))

    def _counts_line(self, text: str, pending: str = "evaluating…") -> str:
        """"stored query (v1): 1,690 works, 36/47 core · edited: 1,751 works (+61), …"."""
        n_core = self.shown.analysis.n_core if self.shown else 0
        syntax = self.current_syntax()
        stored_key = (self.stored.strip(), syntax)
        stored = self._outcomes.get(stored_key)
        version = f" (v{self.history[-1].version})" if self.history else ""
        if self.list_name is None:
            before = ""
        elif not self.stored.strip():
            before = "no query stored"
        elif stored is not None:
            before = f"stored query{version}: {counts(stored, n_core)}"
        elif stored_key in self._stored_errors:
            before = f"stored query{version}: cannot be read as {SYNTAX_NAMES[syntax]}"
        else:
            before = f"stored query{version}: …"
        if not self.edited():
            return before
        now = self._outcomes.get((text.strip(), syntax))
        if now is None:
            after = pending
        elif stored is None:
            after = counts(now, n_core)
        else:
            after = (f"{now.works:,} works{_delta(now.works, stored.works)}, "
                     + (f"{now.core:,}/{n_core:,} core{_delta(now.core, stored.core)}"
                        if n_core else "no core set")
                     + ("" if now.sp_cos is None else f", SP_cos {now.sp_cos:.3f}"))
        label = "edited" if self.list_name else "this query"
        return " · ".join(part for part in (before, f"{label}: {after}") if part)

    def _tree_caption(self, parsed: Query | QuerySyntaxError, text: str) -> str:
        if self.shown is None:
            if self.job is not None:
                return FIRST_READ
            return UNREAD if isinstance(parsed, QuerySyntaxError) and text.strip() else ""
        shown = self.shown.analysis.query
        if isinstance(parsed, QuerySyntaxError):
            which = "last query that could be read"
        elif self._same_text(shown.text, text):
            which = "edited query" if self.edited() else "stored query"
        elif self._same_text(shown.text, self.stored):
            which = "stored query"
        else:
            which = "query as last evaluated"
        return (f"Clauses of the {which}, read as {SYNTAX_NAMES[shown.syntax]} — select one "
                "to shade it in the editor; hover a column's title for what it counts")

    @staticmethod
    def _same_text(a: str, b: str) -> bool:
        return a.strip() == b.strip()

    def _set_status(self, text: str, *, error: bool, rich: bool = False) -> None:
        self.status.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        colour = error_colour(self).name() if error else "palette(window-text)"
        self.status.setStyleSheet(f"color: {colour}")
        if rich:
            text = text.replace('<a href="error">', f'<a href="error" style="color: {colour}; '
                                'text-decoration: none">')
        self.status.setText(text)
        self.status.setToolTip("Click to put the cursor where the query cannot be read"
                               if error and rich else "")

    def _go_to_error(self) -> None:
        parsed = self._parse()
        if isinstance(parsed, QuerySyntaxError):
            self.editor.mark_error(parsed.at)
            self.editor.go_to(parsed.at)

    def _clause_chosen(self, path: str) -> None:
        """Shade the chosen clause in the editor (while the editor shows that query)."""
        shown = self.shown.analysis.query if self.shown else None
        if not path or shown is None or shown.text != self.editor.toPlainText():
            self.editor.mark_span(None)
            return
        node = dict(shown.clauses()).get(path)
        self.editor.mark_span(node.span if node is not None else None)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
