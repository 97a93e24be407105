"""The main window's actions (declared once, :data:`WINDOW_ACTIONS` and one per topic
screen of the registry), and its menus, toolbar and the sidebar's context menus, all
built from the actions' places (:mod:`~litqeval_gui.gui.actions`).

:data:`MENU_BAR` names each menu and its groups in order; an action shows where its
``places`` say. Besides actions, the File menu holds the recent projects, the View menu
the themes, and the Topic menu ends with the shown screen's own ``screen_actions()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from litqeval_gui.gui import review_import, team_exchange
from litqeval_gui.gui.actions import ActionSet, ActionSpec, fill_menu, menu_groups
from litqeval_gui.gui.decision_log import export_decision_log
from litqeval_gui.gui.project_copy import save_a_copy
from litqeval_gui.gui.reviewer_switch import switch_reviewer
from litqeval_gui.gui.screen_registry import topic_screens
from litqeval_gui.gui.screens.screening.attach import attach_folder
from litqeval_gui.gui.theme import THEMES

# (key, menu text, its groups in order); an action's place "key.group" puts it there
MENU_BAR: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("file", "&File", ("project", "import", "export", "reviewer", "close")),
    ("view", "&View", ("panels",)),
    ("topic", "&Topic", ("screens", "topic", "list")),
    ("help", "&Help", ("help",)),
)
LIST_CONTEXT = ("open", "manage")
TOPIC_CONTEXT = ("screens", "manage")


def _has_project(w: Any) -> bool:
    return w.session is not None


def _has_topics(w: Any) -> bool:
    return w.session is not None and bool(w.sidebar.topic_names())


WINDOW_ACTIONS: tuple[ActionSpec[Any], ...] = (
    ActionSpec("new", "&New Project…", lambda w: w.new_project(), "Ctrl+N", "new",
               "Create a new, empty project file", ("file.project", "toolbar")),
    ActionSpec("open", "&Open Project…", lambda w: w.open_dialog(), "Ctrl+O", "open",
               "Open a project file", ("file.project", "toolbar")),
    ActionSpec("demo", "Open &Demo Project", lambda w: w.open_demo(), "", "app",
               "Open the bundled demo project (built on first use)", ("file.project",)),
    ActionSpec("save-copy", "&Save a Copy…", save_a_copy,
               tip="Write a copy of the project file with every change saved so far, e.g. "
               "for a colleague to screen on and merge back", places=("file.project",),
               enabled=_has_project),
    ActionSpec("import", "&Import…", lambda w: w.open_import_wizard([]), "Ctrl+I", "import",
               "Import search exports or a core set into this project",
               ("file.import", "toolbar"), _has_project),
    ActionSpec("merge-decisions", "Mer&ge Decisions…",
               lambda w: team_exchange.merge_into_project(w),
               tip="Bring a colleague's decisions file (or their copy of the project) into "
               "this project's screenings", places=("file.import",), enabled=_has_project),
    ActionSpec("import-review", "Import Review from &Another Tool…",
               lambda w: review_import.import_review_into_project(w),
               tip="Bring an ASReview LAB project, a Rayyan export or Covidence's export "
               "files with their decisions: the records as a list, the decisions as a "
               "screening", places=("file.import",), enabled=_has_project),
    ActionSpec("export-decisions", "Export M&y Decisions…",
               lambda w: team_exchange.export_my_decisions(w),
               tip="Write your decisions of the shown screening to a small decisions file "
               "for a colleague to merge", places=("file.export",), enabled=_has_project),
    ActionSpec("decision-log", "Export Decision &Log…", export_decision_log,
               tip="Write the shown screening's audit trail (every decision, undo, redo "
               "and resolution: who, what, when) as CSV", places=("file.export",),
               enabled=_has_project),
    ActionSpec("report", "Export E&valuation Report…", lambda w: w.export_evaluation_report(),
               tip="Write the shown evaluation as one HTML file", places=("file.export",),
               enabled=_has_project),
    ActionSpec("switch-reviewer", "S&witch Reviewer…", switch_reviewer,
               tip="Screen under another name: its decisions from now on, and in a blind "
               "screening its own decisions shown", places=("file.reviewer",)),
    ActionSpec("close", "&Close Project", lambda w: w.close_project(),
               tip="Close the project and return to the start screen",
               places=("file.close",), enabled=_has_project),
    ActionSpec("quit", "&Quit", lambda w: w.close(), "Ctrl+Q", places=("file.close",),
               role=QAction.MenuRole.QuitRole),
    ActionSpec("sidebar", "Topic &Sidebar", lambda w: w.sidebar.setVisible(
        w.action("sidebar").isChecked()), "Ctrl+B", places=("view.panels",), checkable=True,
        checked=True),
    ActionSpec("close-tab", "Close &Tab", lambda w: w.close_tab(w.tabs.currentIndex()),
               "Ctrl+W", places=("view.panels",), enabled=lambda w: w.tabs.count() > 0),
    ActionSpec("open-list", "&Open", lambda w: w.open_selected_list(),
               tip="Show the selected list's records", places=("list-context.open",)),
    *(ActionSpec(f"screen.{entry.key}", entry.menu_text,
                 lambda w, key=entry.key: w.open_topic_screen(key), tip=entry.tip,
                 places=("topic.screens", "topic-context.screens"), enabled=_has_topics)
      for entry in topic_screens()),
    ActionSpec("simulate", "Simu&late Screening…", lambda w: w.simulate_screening(),
               tip="Replay a screening with known labels: how soon each model finds the "
               "relevant records, where each stopping rule stops", places=("topic.screens",),
               enabled=_has_topics),
    ActionSpec("matches", "Review Uncertain &Matches…", lambda w: w.review_matches(),
               tip="Decide on record matches the linker was unsure about",
               places=("topic.screens",), enabled=_has_topics),
    ActionSpec("attach-pdfs", "Attac&h PDFs from Folder…",
               lambda w: attach_folder(w.session, w.sidebar.current_topic(), w),
               tip="Match a folder's PDFs to the selected topic's records (by DOI, PMID, "
               "file name or title) and attach those you confirm",
               places=("topic.screens", "topic-context.screens"), enabled=_has_topics),
    ActionSpec("help", "LitQEval GUI &Help", lambda w: w.show_help(), "F1",
               places=("help.help",)),
    ActionSpec("about", "&About LitQEval GUI", lambda w: w.show_about(),
               places=("help.help",), role=QAction.MenuRole.AboutRole),
)


class WindowMenus:
    """The window's menu bar, toolbar and sidebar context menus over ``sets`` of actions
    (``window`` gives the menu bar, the settings, the tabs and the session)."""

    def __init__(self, window: Any, sets: Sequence[ActionSet[Any]]) -> None:
        self.window = window
        self.sets = list(sets)
        self.menus: dict[str, QMenu] = {}
        bar = window.menuBar()
        groups = {key: menu_groups(key, layout, self.sets) for key, _, layout in MENU_BAR}
        for key, text, _ in MENU_BAR:
            self.menus[key] = bar.addMenu(text)
            fill_menu(self.menus[key], groups[key])
        self._add_recent(self.menus["file"], before="demo")
        self._add_themes(self.menus["view"])
        self._add_toolbar()
        self._screen_entries: list[QAction] = []
        for menu in self.menus.values():
            menu.aboutToShow.connect(self.update)
        self.menus["topic"].aboutToShow.connect(self._fill_screen_actions)

    def update(self) -> None:
        """Enable every action as its spec says."""
        for action_set in self.sets:
            action_set.update()

    def sidebar_menu(self, pos: QPoint) -> QMenu:
        """The context menu of the sidebar item at ``pos`` (selecting it first): the enabled
        actions placed in ``list-context`` (for a list) and ``topic-context``."""
        sidebar = self.window.sidebar
        index = sidebar.indexAt(pos)
        if index.isValid():
            sidebar.setCurrentIndex(index)
        self.update()
        groups = []
        if sidebar.current_list() is not None:
            groups += menu_groups("list-context", LIST_CONTEXT, self.sets)
        groups += menu_groups("topic-context", TOPIC_CONTEXT, self.sets)
        menu = QMenu(sidebar)
        fill_menu(menu, [[a for a in group if a.isEnabled()] for group in groups])
        menu.popup(sidebar.viewport().mapToGlobal(pos))
        return menu

    def _add_recent(self, file_menu: QMenu, before: str) -> None:
        """The recent projects' submenu, before the action ``before``."""
        self.recent_menu = QMenu("Open &Recent", file_menu)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.insertMenu(next(s[before] for s in self.sets if before in s),
                             self.recent_menu)

    def _add_themes(self, view_menu: QMenu) -> None:
        view_menu.addSeparator()
        theme_menu = view_menu.addMenu("T&heme")
        self.theme_actions = QActionGroup(self.window)
        for name, text in THEMES.items():
            action = theme_menu.addAction(text, lambda n=name: self.window.set_theme(n))
            action.setCheckable(True)
            action.setChecked(name == self.window.settings.theme)
            action.setData(name)
            self.theme_actions.addAction(action)

    def _add_toolbar(self) -> None:
        window: QMainWindow = self.window
        toolbar = window.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for action_set in self.sets:
            toolbar.addActions(action_set.at("toolbar"))
        view_menu = self.menus["view"]
        view_menu.insertAction(view_menu.actions()[0], toolbar.toggleViewAction())
        self.toolbar = toolbar

    def _fill_screen_actions(self) -> None:
        """The Topic menu ends with the shown screen's own ``screen_actions()`` (the screen
        protocol), under its title: e.g. the screening's "Retrain Ranking Now"."""
        topic_menu = self.menus["topic"]
        for entry in self._screen_entries:
            if shiboken6.isValid(entry):  # a closed screen took its actions along
                topic_menu.removeAction(entry)
        window = self.window
        view = window.tabs.currentWidget() if window.session is not None else None
        actions = view.screen_actions() if view is not None else []
        self._screen_entries = [topic_menu.addSection(view.title)] if actions else []
        topic_menu.addActions(actions)
        self._screen_entries += actions

    def _fill_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        settings = self.window.settings
        recent = settings.recent_files
        for number, path in enumerate(recent, start=1):
            action = menu.addAction(f"&{number % 10} {path.name}",
                                    lambda p=path: self.window.open_project(p))
            action.setToolTip(str(path))
            action.setStatusTip(str(path))
        if not recent:
            menu.addAction("No recent projects").setEnabled(False)
        menu.addSeparator()
        menu.addAction("Clear Menu", self._clear_recent).setEnabled(bool(recent))

    def _clear_recent(self) -> None:
        settings = self.window.settings
        settings.clear_recent()
        settings.save()
        self.window.start_view.set_recent([])
