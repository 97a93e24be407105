"""The main window's actions, menus and toolbar, and which actions are enabled when.

A mixin of :class:`~litqeval_gui.gui.main_window.MainWindow`: the actions are attributes
of the window (``window.import_action`` …, ``window.topic_screen_actions[key]`` for each
screen of the registry opened on a topic) and trigger its methods.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.list_actions import ManageActions, ManageContext
from litqeval_gui.gui.screens.registry import topic_screens
from litqeval_gui.gui.theme import THEMES


class WindowMenus:
    """Builds and updates the window's actions (``self`` is the main window)."""

    def _build_actions(self) -> None:
        def a(text: str, slot: object, shortcut: str = "", icon_name: str = "",
              tip: str = "") -> QAction:
            return make_action(self, text, slot, shortcut=shortcut, icon_name=icon_name,
                               tip=tip)

        self.new_action = a("&New Project…", self.new_project, "Ctrl+N", "new",
                            "Create a new, empty project file")
        self.open_action = a("&Open Project…", self.open_dialog, "Ctrl+O", "open",
                             "Open a project file")
        self.demo_action = a("Open &Demo Project", self.open_demo, "", "app",
                             "Open the bundled demo project (built on first use)")
        self.import_action = a("&Import…", lambda: self.open_import_wizard([]), "Ctrl+I", "import",
                               "Import search exports or a core set into this project")
        self.close_action = a("&Close Project", self.close_project, "", "",
                              "Close the project and return to the start screen")
        self.quit_action = a("&Quit", self.close, "Ctrl+Q")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.close_tab_action = a("Close &Tab", lambda: self.close_tab(self.tabs.currentIndex()),
                                  "Ctrl+W")
        self.sidebar_action = a("Topic &Sidebar", self._toggle_sidebar, "Ctrl+B")
        self.sidebar_action.setCheckable(True)
        self.sidebar_action.setChecked(True)
        self.open_selected_action = a("&Open", self._open_selected_list, "", "",
                                      "Show the selected list's records")
        self.matches_action = a("Review Uncertain &Matches…", self.review_matches, "", "",
                                "Decide on record matches the linker was unsure about")
        # one per screen opened on a topic, from the registry (Topic and context menus)
        self.topic_screen_actions = {
            entry.key: a(entry.menu_text, lambda _checked=False, key=entry.key:
                         self.open_topic_screen(key), "", "", entry.tip)
            for entry in topic_screens()}
        self.manage = ManageActions(ManageContext(
            self, self.sidebar, lambda: self.session,
            lambda: self.tabs.currentWidget() if self.session is not None else None,
            self.settings, lambda text: self.statusBar().showMessage(text, 5000),
            [self.open_selected_action], list(self.topic_screen_actions.values())))
        self.sidebar.selectionModel().currentChanged.connect(self.manage.update)
        self.tabs.currentChanged.connect(self.manage.update)
        self.report_action = a("Export E&valuation Report…", self.export_evaluation_report,
                               "", "", "Write the shown evaluation as one HTML file")
        self.simulate_action = a("Simu&late Screening…", self.simulate_screening, "", "",
                                 "Replay a screening with known labels: how soon each model "
                                 "finds the relevant records, where each stopping rule stops")
        self.help_action = a("LitQEval GUI &Help", self.show_help, "F1")
        self.about_action = a("&About LitQEval GUI", self.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addAction(self.demo_action)
        file_menu.addSeparator()
        file_menu.addAction(self.import_action)
        file_menu.addActions([self.manage.export, self.manage.export_missed,
                              self.report_action])
        file_menu.addSeparator()
        file_menu.addActions([self.close_action, self.quit_action])
        self.view_menu = bar.addMenu("&View")
        self.view_menu.addAction(self.sidebar_action)
        self.view_menu.addAction(self.close_tab_action)
        self.view_menu.addSeparator()
        theme_menu = self.view_menu.addMenu("T&heme")
        self.theme_actions = QActionGroup(self)
        for name, text in THEMES.items():
            action = theme_menu.addAction(text, lambda n=name: self.set_theme(n))
            action.setCheckable(True)
            action.setChecked(name == self.settings.theme)
            action.setData(name)
            self.theme_actions.addAction(action)
        topic_menu = bar.addMenu("&Topic")
        topic_menu.addActions([*self.topic_screen_actions.values(), self.simulate_action,
                               self.matches_action])
        topic_menu.addSeparator()
        topic_menu.addActions([self.manage.rename_topic, self.manage.delete_topic])
        topic_menu.addSeparator()
        topic_menu.addActions([self.manage.rename_list, self.manage.delete_list])
        topic_menu.aboutToShow.connect(self.manage.update)
        topic_menu.aboutToShow.connect(self._fill_screen_actions)
        self.topic_menu = topic_menu
        self._screen_entries: list[QAction] = []
        file_menu.aboutToShow.connect(self.manage.update)
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.help_action, self.about_action])

    def _build_toolbar(self) -> None:
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addActions([self.new_action, self.open_action, self.import_action])
        self.view_menu.insertAction(self.close_tab_action, toolbar.toggleViewAction())
        self.toolbar = toolbar

    def _fill_screen_actions(self) -> None:
        """The Topic menu ends with the shown screen's own ``screen_actions()`` (the screen
        protocol), under its title: e.g. the screening's "Retrain Ranking Now"."""
        for entry in self._screen_entries:
            if shiboken6.isValid(entry):  # a closed screen took its actions along
                self.topic_menu.removeAction(entry)
        view = self.tabs.currentWidget() if self.session is not None else None
        actions = view.screen_actions() if view is not None else []
        self._screen_entries = [self.topic_menu.addSection(view.title)] if actions else []
        self.topic_menu.addActions(actions)
        self._screen_entries += actions

    def _fill_recent_menu(self) -> None:
        menu: QMenu = self.recent_menu
        menu.clear()
        recent = self.settings.recent_files
        for number, path in enumerate(recent, start=1):
            action = menu.addAction(f"&{number % 10} {path.name}",
                                    lambda p=path: self.open_project(p))
            action.setToolTip(str(path))
            action.setStatusTip(str(path))
        if not recent:
            menu.addAction("No recent projects").setEnabled(False)
        menu.addSeparator()
        menu.addAction("Clear Menu", self._clear_recent).setEnabled(bool(recent))

    def _clear_recent(self) -> None:
        self.settings.clear_recent()
        self.settings.save()
        self.start_view.set_recent([])

    def _update_actions(self) -> None:
        has_project = self.session is not None
        self.import_action.setEnabled(has_project)
        self.close_action.setEnabled(has_project)
        self.close_tab_action.setEnabled(self.tabs.count() > 0)
        has_topics = has_project and bool(self.sidebar.topic_names())
        for action in (self.matches_action, self.simulate_action,
                       *self.topic_screen_actions.values()):
            action.setEnabled(has_topics)
        self.report_action.setEnabled(has_project)
        self.manage.update()
