"""Managing what was imported, from the menus and the sidebar's context menu: rename and
delete a list or a topic, export a list, the current view or a list's missed core records.

Renames and deletions go through the session's write path (:mod:`litqeval_gui.core.manage`);
a deletion is confirmed first with what it takes along
(:func:`~litqeval_gui.core.manage.deletion_impact`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox, QWidget

from litqeval_gui.core import catalog, manage
from litqeval_gui.core.catalog import ListInfo
from litqeval_gui.core.missed import missed_core_records
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.export_dialog import export_dialog

if TYPE_CHECKING:
    from litqeval_gui.gui.main_window import MainWindow


def confirm(parent: QWidget, title: str, text: str, verb: str) -> bool:
    """Ask before something that cannot be undone; Cancel is the default."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Cancel,
                      parent)
    go = box.addButton(verb, QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is go


def ask_name(parent: QWidget, title: str, label: str, current: str) -> str | None:
    """A new name, or None when cancelled or unchanged."""
    text, ok = QInputDialog.getText(parent, title, label, text=current)
    return text.strip() if ok and text.strip() and text.strip() != current else None


class ManageActions(QObject):
    """The actions that manage lists and topics of the window's open project."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

        def action(text: str, slot: object, tip: str, shortcut: str = "") -> QAction:
            return make_action(window, text, slot, shortcut=shortcut, tip=tip)

        self.export = action("&Export…", self.export_current,
                             "Export the records shown (with the filter) or the selected list",
                             "Ctrl+E")
        self.export_missed = action("Export &Missed Core Records…", self.export_missed_core,
                                    "Export the core records the selected result list missed")
        self.rename_list = action("Re&name List…", self.rename_selected_list,
                                  "Rename the selected list")
        self.delete_list = action("&Delete List…", self.delete_selected_list,
                                  "Delete the selected list with its records and matches")
        self.rename_topic = action("Ren&ame Topic…", self.rename_selected_topic,
                                   "Rename the selected topic")
        self.delete_topic = action("Delete &Topic…", self.delete_selected_topic,
                                   "Delete the selected topic with all its lists")

    # -- what is selected ------------------------------------------------------------
    def selected_list(self) -> ListInfo | None:
        return self.window.sidebar.current_list()

    def selected_topic(self) -> str | None:
        return self.window.sidebar.current_topic()

    def _export_target(self) -> tuple[str, object] | None:
        """(name, records factory) of the current records tab with its filter, else
        of the list selected in the sidebar."""
        view = self.window.tabs.currentWidget()
        source = getattr(view, "export_source", None)
        if source is not None:
            return source()
        info = self.selected_list()
        session = self.window.session
        if info is None or session is None:
            return None
        return info.name, lambda: catalog.list_records(session.project, info.id)

    def update(self) -> None:
        """Enable what the selection allows."""
        has_project = self.window.session is not None
        info = self.selected_list() if has_project else None
        topic = self.selected_topic() if has_project else None
        self.export.setEnabled(has_project and self._export_target() is not None)
        self.export_missed.setEnabled(info is not None and info.role == "results")
        self.rename_list.setEnabled(info is not None)
        self.delete_list.setEnabled(info is not None)
        self.rename_topic.setEnabled(topic is not None)
        self.delete_topic.setEnabled(topic is not None)

    def sidebar_menu(self, pos: QPoint) -> QMenu:
        """The context menu of the sidebar item at ``pos`` (selecting it first)."""
        sidebar = self.window.sidebar
        index = sidebar.indexAt(pos)
        if index.isValid():
            sidebar.setCurrentIndex(index)
        self.update()
        menu = QMenu(sidebar)
        if self.selected_list() is not None:
            menu.addActions([self.window.open_selected_action, self.export])
            if self.export_missed.isEnabled():
                menu.addAction(self.export_missed)
            menu.addSeparator()
            menu.addActions([self.rename_list, self.delete_list])
            menu.addSeparator()
        if self.selected_topic() is not None:
            menu.addActions(list(self.window.topic_screen_actions.values()))
        menu.addActions([self.rename_topic, self.delete_topic])
        menu.popup(sidebar.viewport().mapToGlobal(pos))
        return menu

    # -- exporting ------------------------------------------------------------------------
    def export_current(self) -> None:
        target = self._export_target()
        session = self.window.session
        if target is None or session is None:
            self.window.statusBar().showMessage("Select a list in the sidebar first", 5000)
            return
        name, records = target
        export_dialog(self.window, session.project.path, name, records, self.window.settings)

    def export_missed_core(self) -> None:
        info = self.selected_list()
        session = self.window.session
        if info is None or session is None or info.role != "results":
            self.window.statusBar().showMessage("Select a result list in the sidebar first", 5000)
            return
        export_dialog(self.window, session.project.path, f"{info.name} missed core",
                      lambda: missed_core_records(session.project, info.id),
                      self.window.settings)

    # -- renaming and deleting ------------------------------------------------------------
    def rename_selected_list(self) -> None:
        info = self.selected_list()
        if info is None or self.window.session is None:
            return
        new = ask_name(self.window, "Rename List", f"New name for the list “{info.name}”:",
                       info.name)
        if new:
            self.window.session.write(
                lambda p: manage.rename_list(p, info.topic, info.name, new), initiator=self)

    def rename_selected_topic(self) -> None:
        topic = self.selected_topic()
        if topic is None or self.window.session is None:
            return
        new = ask_name(self.window, "Rename Topic", f"New name for the topic “{topic}”:", topic)
        if new:
            self.window.session.write(lambda p: manage.rename_topic(p, topic, new),
                                      initiator=self)

    def delete_selected_list(self) -> None:
        info = self.selected_list()
        if info is not None:
            self._delete(info.topic, info.name)

    def delete_selected_topic(self) -> None:
        topic = self.selected_topic()
        if topic is not None:
            self._delete(topic, None)

    def _delete(self, topic: str, name: str | None) -> None:
        session = self.window.session
        if session is None:
            return
        impact = manage.deletion_impact(session.project, topic, name)
        title = "Delete List" if name is not None else "Delete Topic"
        if not confirm(self.window, title, impact.describe(), "Delete"):
            return
        if name is None:
            session.write(lambda p: manage.delete_topic(p, topic), initiator=self)
        else:
            session.write(lambda p: manage.delete_list(p, topic, name), initiator=self)
