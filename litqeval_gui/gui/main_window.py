"""The main window: topic sidebar, tabs of views and job progress. Its actions are
declared in :mod:`~litqeval_gui.gui.window_menus` (the window's) and
:mod:`~litqeval_gui.gui.list_actions` (managing lists and topics); ``window.action(id)``
finds one.

With no project open it shows the start screen. An open project is one
:class:`ProjectSession`; the sidebar and open views refresh on its ``changed``
signal. Files dropped on the window go to the import wizard (a ``.litq`` file is
opened instead). Geometry, splitter sizes, recent projects and each project's open
screens (their registry descriptors) persist in :class:`~litqeval_gui.gui.settings.Settings`.
The status bar says who is screening (the settings' reviewer; File ▸ Switch Reviewer…).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from litqeval_gui import __version__
from litqeval_gui.core.errors import ImportRefused, LitqError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import SUFFIX, Project, discarded_message
from litqeval_gui.core.records.exporting import SQLITE_HEADER
from litqeval_gui.core.records.importing import formats
from litqeval_gui.core.records.importing.detect import inspect as inspect_format
from litqeval_gui.core.records.queries import ListInfo
from litqeval_gui.gui import folders, review_import
from litqeval_gui.gui.actions import ActionSet
from litqeval_gui.gui.demo_project import DemoProject
from litqeval_gui.gui.icons import icon
from litqeval_gui.gui.job_status import JobStatus
from litqeval_gui.gui.jobs import JobRunner
from litqeval_gui.gui.list_actions import ManageActions, ManageContext
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screen_registry import SCREENS, descriptor_of, reopen
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.sidebar import TopicTree
from litqeval_gui.gui.start_view import StartView
from litqeval_gui.gui.theme import apply_theme
from litqeval_gui.gui.window_menus import WINDOW_ACTIONS, WindowMenus

APP_TITLE = "LitQEval GUI"
PROJECT_FILTER = f"LitQEval projects (*{SUFFIX});;All files (*)"
OPEN_FILTER = f"LitQEval projects (*{SUFFIX});;{formats.open_filter()};;All files (*)"
NO_LISTS_HINT = ("No result lists yet — import a search export\n"
                 "(Ctrl+I or drop a file here)")
CHOOSE_LIST_HINT = "Choose a list in the sidebar to see its records."


class MainWindow(DemoProject, QMainWindow):
    """The application window; one project at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.settings = Settings()
        self.session: ProjectSession | None = None
        self.runner = JobRunner(self)  # jobs without a project (building the demo)
        self._help: QWidget | None = None
        self.setWindowIcon(icon("app"))
        self.setAcceptDrops(True)

        self.job_status = JobStatus()
        self.job_status.watch(self.runner)
        self.runner.progress.connect(self._demo_progress)
        self.runner.ended.connect(self._job_ended)
        self.statusBar().addPermanentWidget(self.job_status)
        self.reviewer_label = QLabel(textFormat=Qt.TextFormat.PlainText, toolTip=(
            "Who is screening: every decision carries this name (File ▸ Switch Reviewer…)"))
        self.statusBar().addPermanentWidget(self.reviewer_label)
        self.settings.on_reviewer = self.reviewer_changed

        self.start_view = StartView()
        self.sidebar = TopicTree()
        self.sidebar.list_activated.connect(self.open_list)
        self.sidebar.customContextMenuRequested.connect(lambda pos: self.menus.sidebar_menu(pos))
        self.tabs = QTabWidget(documentMode=True, tabsClosable=True, movable=True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)  # long topic names: no scrolling
        self.hint = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        self.hint.setEnabled(False)  # the palette's disabled text: a quiet grey in either scheme
        font = self.hint.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.hint.setFont(font)
        self.content = QStackedWidget()
        self.content.addWidget(self.hint)
        self.content.addWidget(self.tabs)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.content)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes(self.settings.splitter_sizes("main") or [300, 900])
        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_view)
        self.pages.addWidget(self.splitter)
        self.setCentralWidget(self.pages)

        if self.settings.theme != "system":
            apply_theme(self.settings.theme)
        self.commands = ActionSet(self, WINDOW_ACTIONS, self)
        self.manage = ManageActions(ManageContext(
            self, self.sidebar, lambda: self.session,
            lambda: self.tabs.currentWidget() if self.session is not None else None,
            self.settings, lambda text: self.statusBar().showMessage(text, 5000)))
        self.menus = WindowMenus(self, [self.manage.actions_set, self.commands])
        self.sidebar.selectionModel().currentChanged.connect(self.menus.update)
        self.tabs.currentChanged.connect(self.menus.update)
        self._connect_start_view()
        if self.settings.geometry is None or not self.restoreGeometry(self.settings.geometry):
            self.resize(1200, 760)
        self.reviewer_changed(self.settings.reviewer)
        self._show_start()

    def action(self, action_id: str) -> QAction:
        """The window's action ``action_id`` (:data:`WINDOW_ACTIONS`, ``MANAGE_ACTIONS``)."""
        for action_set in self.menus.sets:
            if action_id in action_set:
                return action_set[action_id]
        raise KeyError(action_id)

    def _connect_start_view(self) -> None:
        view = self.start_view
        view.new_requested.connect(self.new_project)
        view.open_requested.connect(self.open_dialog)
        view.demo_requested.connect(self.open_demo)
        view.recent_chosen.connect(self.open_project)

    # -- pages and state -------------------------------------------------------------
    def _show_start(self) -> None:
        self.start_view.set_recent(self.settings.recent_files)
        self.pages.setCurrentWidget(self.start_view)
        self.setWindowTitle(APP_TITLE)
        self.menus.update()

    def _update_content(self) -> None:
        """The tabs, or a centred hint when no view is open."""
        if self.tabs.count():
            self.content.setCurrentWidget(self.tabs)
        else:
            self.hint.setText(CHOOSE_LIST_HINT if self.sidebar.topic_names() else NO_LISTS_HINT)
            self.content.setCurrentWidget(self.hint)
        self.menus.update()

    def set_theme(self, name: str) -> None:
        """Show the app in theme ``name`` (system, light, dark) and remember it."""
        self.settings.theme = name
        self.settings.save()
        apply_theme(name)
        for action in self.menus.theme_actions.actions():
            action.setChecked(action.data() == name)

    def reviewer_changed(self, reviewer: str) -> None:
        """Say who is screening in the status bar; the open screens that read the
        reviewer follow (their ``reviewer_changed``)."""
        self.reviewer_label.setText(f"Reviewer: {reviewer}")
        self.reviewer_label.setVisible(bool(reviewer))
        for index in range(self.tabs.count()):
            follow = getattr(self.tabs.widget(index), "reviewer_changed", None)
            if follow is not None:
                follow(reviewer)

    # -- projects -------------------------------------------------------------------
    def open_project(self, path: str | Path) -> bool:
        """Open ``path`` in place of the current project; False if it could not be opened.

        The new project is opened first: the current one is closed only once it has, so
        a file that is no project (or a damaged one) leaves the current project open."""
        path = Path(path)
        if self.session is not None and self.session.project.path.resolve() == path.resolve():
            return True
        if is_search_export(path):
            self.offer_import(path)
            return False
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            project = Project.open(path)
        except (LitqError, OSError) as exc:
            show_error(self, "Cannot open project", exc)
            return False
        finally:
            QGuiApplication.restoreOverrideCursor()
        if not self.close_project():
            project.close()
            return False
        self._set_session(ProjectSession(project, self))
        self.settings.add_recent(path)
        folders.remember(self.settings, path.parent)  # never the demo's (the app's) folder
        self.settings.save()
        if project.discarded:
            show_error(self, "Unfinished import removed", discarded_message(project.discarded))
        return True

    def _set_session(self, session: ProjectSession) -> None:
        self.session = session
        session.changed.connect(self._project_changed)
        self.job_status.watch(session.jobs)
        self.sidebar.populate(session.project)
        self.pages.setCurrentWidget(self.splitter)
        self.setWindowTitle(session.project.path.stem)
        self._restore_tabs(session.project)
        self._update_content()
        self.statusBar().showMessage(f"Opened {session.project.path}", 5000)

    def close_project(self) -> bool:
        """Close the open project (stopping its jobs); False if a job would not stop."""
        session = self.session
        if session is None:
            return True
        self.save_view_state()
        self._remember_tabs(session.project.path)
        self.job_status.unwatch(session.jobs)
        if not session.close():
            self.job_status.watch(session.jobs)
            show_error(self, "Cannot close the project",
                       "A background task did not stop in time; the project stays open.")
            return False
        self.pages.setCurrentWidget(self.start_view)  # closing a tab shows no other: a
        while self.tabs.count():  # stale screen would refresh from the closed project
            self.close_tab(0)
        self.session = None
        self.sidebar.populate(None)
        session.deleteLater()
        self._show_start()
        return True

    def _project_changed(self, changes: Changes, initiator: object) -> None:
        if self.session is None:
            return
        self.sidebar.project_changed(changes, initiator)
        for index in reversed(range(self.tabs.count())):
            view = self.tabs.widget(index)
            view.project_changed(changes, initiator)
            if view.target_gone:
                self.close_tab(index)
            else:  # renamed, maybe
                self.tabs.setTabText(index, view.title)
                self.tabs.setTabToolTip(index, view.tooltip)
        if changes.topics or changes.lists:
            self._update_content()

    def new_project(self) -> None:
        """File ▸ New Project…: a save dialog in the last folder used, else the documents
        folder (never the app's data folder beside the demo, nor a read-only one)."""
        start = str(folders.save_folder(self.settings) / f"untitled{SUFFIX}")
        name, _ = QFileDialog.getSaveFileName(self, "New Project", start, PROJECT_FILTER)
        if not name:
            return
        path = Path(name) if name.endswith(SUFFIX) else Path(name + SUFFIX)
        try:
            Project.create(path).close()
        except (LitqError, OSError) as exc:
            show_error(self, "Cannot create project", exc)
            return
        self.open_project(path)

    def offer_import(self, path: Path) -> None:
        """``path`` is a search export, not a project: offer to import it into the open one."""
        if self.session is None:
            show_error(self, "Not a project",
                       f"{path.name} is not a LitQEval project but a file to import. Create "
                       "or open a project first (File ▸ New Project…), then import it into "
                       "the project (File ▸ Import… or drop it on the window).")
            return
        answer = QMessageBox.question(
            self, "Import this file?",
            f"{path.name} is not a project but a file to import.\n\n"
            f"Import it into {self.session.project.path.name}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Yes)
        if answer == QMessageBox.StandardButton.Yes:
            self.open_import_wizard([path])

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open Project", str(self.settings.last_dir),
                                              OPEN_FILTER)
        if name:
            self.open_project(name)

    # -- lists and tabs ----------------------------------------------------------------
    def open_selected_list(self) -> None:
        info = self.sidebar.current_list()
        if info is not None:
            self.open_list(info)

    def open_list(self, info: ListInfo) -> QWidget | None:
        """Show a list's records in a tab (switching to it when already open)."""
        return self.open_screen("records", info)

    def open_screen(self, key: str, target: object) -> QWidget | None:
        """Show screen ``key`` of the registry on ``target`` in a tab (one tab per target)."""
        if self.session is None:
            return None
        kind = SCREENS[key].kind
        for index in range(self.tabs.count()):
            view = self.tabs.widget(index)
            if view.key == key and view.target_id() == kind.id_of(target):
                self.tabs.setCurrentIndex(index)
                return view
        return self._add_tab(kind(self.session, target))

    def _add_tab(self, view: QWidget) -> QWidget:
        view.restore_state(self.settings)
        index = self.tabs.addTab(view, view.title)
        self.tabs.setTabToolTip(index, view.tooltip)
        self.tabs.setCurrentIndex(index)
        self._update_content()
        view.setFocus()
        return view

    def _remember_tabs(self, path: Path) -> None:
        """The descriptors of the screens open in tabs, to open them again with the project."""
        current = self.tabs.currentIndex()
        described = [(i, d) for i in range(self.tabs.count())
                     if (d := descriptor_of(self.tabs.widget(i))) is not None]
        at = next((n for n, (i, _) in enumerate(described) if i == current), 0)
        self.settings.set_open_screens(path, [d for _, d in described], at)
        self.settings.save()

    def _restore_tabs(self, project: Project) -> None:
        """Open the screens that were open when the project was last closed, in their order,
        and show the one that was current; those whose target is gone are skipped."""
        descriptors, current = self.settings.open_screens(project.path)
        opened: list[tuple[int, QWidget]] = []
        for n, descriptor in enumerate(descriptors):
            if descriptor in descriptors[:n]:
                continue  # one tab per target
            view = reopen(self.session, descriptor)
            if view is not None:
                opened.append((n, self._add_tab(view)))
        if opened:
            shown = [v for n, v in opened if n <= current] or [opened[0][1]]
            self.tabs.setCurrentWidget(shown[-1])

    def close_tab(self, index: int) -> None:
        view = self.tabs.widget(index)
        if view is None:
            return
        self.tabs.removeTab(index)
        view.close()
        view.deleteLater()
        self._update_content()

    # -- import and matches ---------------------------------------------------------------
    def open_import_wizard(self, paths: list[Path]) -> QWidget | None:
        """Open the import wizard on ``paths`` for the open project."""
        if self.session is None:
            show_error(self, "No project open",
                       "Open or create a project first, then import the files into it.")
            return None
        if paths and review_import.offer_review_import(self, paths):
            return None  # another tool's review: its decisions come too
        from litqeval_gui.gui.import_wizard.wizard import ImportWizard

        wizard = ImportWizard(self.session, list(paths), self)
        wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        wizard.open()
        return wizard

    def review_matches(self) -> QWidget | None:
        """Open the uncertain-matches dialog for the selected topic."""
        topic = self.sidebar.current_topic()
        if self.session is None or topic is None:
            self.statusBar().showMessage("Select a topic in the sidebar first", 5000)
            return None
        from litqeval_gui.gui.screens.matches.dialog import open_matches_dialog

        return open_matches_dialog(self.session, topic, self)

    def open_topic_screen(self, key: str) -> QWidget | None:
        """Open screen ``key`` of the registry on the sidebar's topic (its entry's
        ``choose`` turns the topic into the screen's target; None when cancelled)."""
        topic = self._selected_topic()
        if topic is None:
            return None
        entry = SCREENS[key]
        target = entry.choose(self.session, topic, self.settings, self)
        return None if target is None else self.open_screen(key, target)

    def simulate_screening(self) -> QWidget | None:
        """The simulation window of the screening shown; else of one chosen (or made)
        for the selected topic, which opens too."""
        view = self.tabs.currentWidget() if self.session is not None else None
        if getattr(view, "key", None) != "screening":
            view = self.open_topic_screen("screening")
        return None if view is None else view.open_simulation()

    def _selected_topic(self) -> str | None:
        """The sidebar's topic; None (and a hint in the status bar) when there is none."""
        topic = self.sidebar.current_topic()
        if self.session is None or topic is None:
            self.statusBar().showMessage("Select a topic in the sidebar first", 5000)
            return None
        return topic

    def export_evaluation_report(self) -> None:
        """The report of the evaluation tab shown; else open the selected topic's."""
        view = self.tabs.currentWidget()
        if getattr(view, "key", None) == "evaluation":
            if view.data is None:
                self.statusBar().showMessage("The evaluation is still running", 5000)
            else:
                view.export_report()
        elif self.open_topic_screen("evaluation") is not None:
            self.statusBar().showMessage("Export the report once the evaluation is shown",
                                         5000)

    # -- drag and drop --------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _local_paths(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_paths(event.mimeData().urls())
        if not paths:
            return
        event.acceptProposedAction()
        if len(paths) == 1 and paths[0].suffix == SUFFIX:
            self.open_project(paths[0])
        else:
            self.open_import_wizard(paths)

    # -- help ----------------------------------------------------------------------------
    def show_help(self) -> QWidget:
        """The help page (one window, raised when already open)."""
        from litqeval_gui.gui.help import HelpDialog, window_keys

        if self._help is None:
            self._help = HelpDialog(window_keys(self.findChildren(QAction)), self)
        self._help.show()
        self._help.raise_()
        return self._help

    def show_about(self) -> None:
        QMessageBox.about(self, "About LitQEval GUI",
                          f"<h3>LitQEval GUI {__version__}</h3>"
                          "<p>Evaluate literature search queries against a core set of known "
                          "relevant publications, screen records and build pools.</p>"
                          "<p>Licensed under the MIT licence.</p>")

    # -- closing ----------------------------------------------------------------------------
    def save_view_state(self) -> None:
        """Remember geometry and splitter sizes (written to disk at once)."""
        self.settings.geometry = self.saveGeometry().data()
        if self.sidebar.isVisibleTo(self):
            self.settings.set_splitter_sizes("main", self.splitter.sizes())
        self.settings.save()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.close_project():
            event.ignore()
            return
        self.save_view_state()
        self.runner.shutdown()
        event.accept()


def is_search_export(path: Path) -> bool:
    """A file of a format the importer reads (not named ``.litq``, not SQLite inside);
    anything else (a picture, a damaged project) is opened as a project, which says why
    it is none."""
    if path.suffix.lower() == SUFFIX:
        return False
    try:
        with open(path, "rb") as handle:
            if handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
                return False
        return inspect_format(path)[0] is not None
    except (OSError, ImportRefused):
        return False  # opening it will say why


def _local_paths(urls: list) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]
