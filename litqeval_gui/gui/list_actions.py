"""Managing what was imported, from the menus and the sidebar's context menu: rename and
delete a list or a topic, export a list, the current view or a list's missed core records.

Renames and deletions go through the session's write path (:mod:`litqeval_gui.core.records.lists`);
a deletion is confirmed first with what it takes along
(:func:`~litqeval_gui.core.records.lists.deletion_impact`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox, QWidget

from litqeval_gui.core.records import lists, queries
from litqeval_gui.core.records.queries import ListInfo, missed_core_records
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.export_dialog import export_dialog
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.sidebar import TopicTree


@dataclass(frozen=True)
class ManageContext:
    """What the managing actions need of the window: the dialogs' ``parent``, the
    ``sidebar`` (what is selected), the open ``session`` (None without a project), the
    ``screen`` shown, the ``settings``, a ``status`` line, and the entries the sidebar's
    context menu offers beside these actions (for a list, for a topic)."""

    parent: QWidget
    sidebar: TopicTree
    session: Callable[[], ProjectSession | None]
    screen: Callable[[], QWidget | None]
    settings: Settings
    status: Callable[[str], None]
    list_entries: Sequence[QAction] = ()
    topic_entries: Sequence[QAction] = ()


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

    def __init__(self, context: ManageContext) -> None:
        super().__init__(context.parent)
        self.context = context

        def action(text: str, slot: object, tip: str, shortcut: str = "") -> QAction:
            return make_action(context.parent, text, slot, shortcut=shortcut, tip=tip)

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
        return self.context.sidebar.current_list()

    def selected_topic(self) -> str | None:
        return self.context.sidebar.current_topic()

    def _export_target(self) -> tuple[str, object] | None:
        """(name, records factory) of the current records tab with its filter, else
        of the list selected in the sidebar."""
        source = getattr(self.context.screen(), "export_source", None)
        if source is not None:
            return source()
        info = self.selected_list()
        session = self.context.session()
        if info is None or session is None:
            return None
        return info.name, lambda: queries.list_records(session.project, info.id)

    def update(self) -> None:
        """Enable what the selection allows."""
        has_project = self.context.session() is not None
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
        sidebar = self.context.sidebar
        index = sidebar.indexAt(pos)
        if index.isValid():
            sidebar.setCurrentIndex(index)
        self.update()
        menu = QMenu(sidebar)
        if self.selected_list() is not None:
            menu.addActions([*self.context.list_entries, self.export])
            if self.export_missed.isEnabled():
                menu.addAction(self.export_missed)
            menu.addSeparator()
            menu.addActions([self.rename_list, self.delete_list])
            menu.addSeparator()
        if self.selected_topic() is not None:
            menu.addActions(list(self.context.topic_entries))
        menu.addActions([self.rename_topic, self.delete_topic])
        menu.popup(sidebar.viewport().mapToGlobal(pos))
        return menu

    # -- exporting ------------------------------------------------------------------------
    def export_current(self) -> None:
        target = self._export_target()
        session = self.context.session()
        if target is None or session is None:
            self.context.status("Select a list in the sidebar first")
            return
        name, records = target
        export_dialog(self.context.parent, session.project.path, name, records,
                      self.context.settings)

    def export_missed_core(self) -> None:
        info = self.selected_list()
        session = self.context.session()
        if info is None or session is None or info.role != "results":
            self.context.status("Select a result list in the sidebar first")
            return
        export_dialog(self.context.parent, session.project.path, f"{info.name} missed core",
                      lambda: missed_core_records(session.project, info.id),
                      self.context.settings)

    # -- renaming and deleting ------------------------------------------------------------
    def rename_selected_list(self) -> None:
        info, session = self.selected_list(), self.context.session()
        if info is None or session is None:
            return
        new = ask_name(self.context.parent, "Rename List",
                       f"New name for the list “{info.name}”:", info.name)
        if new:
            session.write(
                lambda p: lists.rename_list(p, info.topic, info.name, new), initiator=self)

    def rename_selected_topic(self) -> None:
        topic, session = self.selected_topic(), self.context.session()
        if topic is None or session is None:
            return
        new = ask_name(self.context.parent, "Rename Topic",
                       f"New name for the topic “{topic}”:", topic)
        if new:
            session.write(lambda p: lists.rename_topic(p, topic, new), initiator=self)

    def delete_selected_list(self) -> None:
        info = self.selected_list()
        if info is not None:
            self._delete(info.topic, info.name)

    def delete_selected_topic(self) -> None:
        topic = self.selected_topic()
        if topic is not None:
            self._delete(topic, None)

    def _delete(self, topic: str, name: str | None) -> None:
        session = self.context.session()
        if session is None:
            return
        impact = lists.deletion_impact(session.project, topic, name)
        title = "Delete List" if name is not None else "Delete Topic"
        if not confirm(self.context.parent, title, impact.describe(), "Delete"):
            return
        if name is None:
            session.write(lambda p: lists.delete_topic(p, topic), initiator=self)
        else:
            session.write(lambda p: lists.delete_list(p, topic, name), initiator=self)
