"""Managing what was imported, from the menus and the sidebar's context menu: rename and
delete a list or a topic, export a list, the current view or a list's missed core records.

Renames and deletions go through the session's write path (:mod:`litqeval_gui.core.records.lists`);
a deletion is confirmed first with what it takes along
(:func:`~litqeval_gui.core.records.lists.deletion_impact`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from litqeval_gui.core.records import lists, queries
from litqeval_gui.core.records.attachments import list_attachments
from litqeval_gui.core.records.queries import ListInfo, missed_core_records
from litqeval_gui.gui.actions import ActionSet, ActionSpec
from litqeval_gui.gui.export_dialog import export_dialog
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.sidebar import TopicTree


@dataclass(frozen=True)
class ManageContext:
    """What the managing actions need of the window: the dialogs' ``parent``, the
    ``sidebar`` (what is selected), the open ``session`` (None without a project), the
    ``screen`` shown, the ``settings`` and a ``status`` line."""

    parent: QWidget
    sidebar: TopicTree
    session: Callable[[], ProjectSession | None]
    screen: Callable[[], QWidget | None]
    settings: Settings
    status: Callable[[str], None]


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


def _has_list(m: ManageActions) -> bool:
    return m.context.session() is not None and m.selected_list() is not None


def _has_topic(m: ManageActions) -> bool:
    return m.context.session() is not None and m.selected_topic() is not None


def _has_result_list(m: ManageActions) -> bool:
    info = m.selected_list() if m.context.session() is not None else None
    return info is not None and info.role == "results"


MANAGE_ACTIONS: tuple[ActionSpec[ManageActions], ...] = (
    ActionSpec("export", "&Export…", lambda m: m.export_current(), "Ctrl+E",
               tip="Export the records shown (with the filter) or the selected list",
               places=("file.export", "list-context.open"),
               enabled=lambda m: m.context.session() is not None
               and m.export_target() is not None),
    ActionSpec("export-missed", "Export &Missed Core Records…",
               lambda m: m.export_missed_core(),
               tip="Export the core records the selected result list missed",
               places=("file.export", "list-context.open"), enabled=_has_result_list),
    ActionSpec("rename-topic", "Ren&ame Topic…", lambda m: m.rename_selected_topic(),
               tip="Rename the selected topic", places=("topic.topic", "topic-context.manage"),
               enabled=_has_topic),
    ActionSpec("delete-topic", "Delete &Topic…", lambda m: m.delete_selected_topic(),
               tip="Delete the selected topic with all its lists",
               places=("topic.topic", "topic-context.manage"), enabled=_has_topic),
    ActionSpec("rename-list", "Re&name List…", lambda m: m.rename_selected_list(),
               tip="Rename the selected list", places=("topic.list", "list-context.manage"),
               enabled=_has_list),
    ActionSpec("delete-list", "&Delete List…", lambda m: m.delete_selected_list(),
               tip="Delete the selected list with its records and matches",
               places=("topic.list", "list-context.manage"), enabled=_has_list),
)


class ManageActions(QObject):
    """The actions that manage lists and topics of the window's open project
    (:data:`MANAGE_ACTIONS`, made over this object)."""

    def __init__(self, context: ManageContext) -> None:
        super().__init__(context.parent)
        self.context = context
        self.actions_set = ActionSet(context.parent, MANAGE_ACTIONS, self)

    # -- what is selected ------------------------------------------------------------
    def selected_list(self) -> ListInfo | None:
        return self.context.sidebar.current_list()

    def selected_topic(self) -> str | None:
        return self.context.sidebar.current_topic()

    def export_target(self) -> tuple[str, object, object] | None:
        """(name, records factory, full-text paths factory or None) of the current screen
        (its ``export_source()`` and ``export_attachments``: the records tab with its
        filter, a screening), else of the list selected in the sidebar. A screen that
        writes more than the records' fields (a screening's decisions) also has
        ``export_writer(target, format, **options) -> count``, and one that asks what to
        write before the file (a screening: which decisions) ``export_options(parent)``:
        those keywords, or None when cancelled; ``export_formats`` names the formats its
        writer adds (format → file-dialog filter)."""
        screen = self.context.screen()
        source = getattr(screen, "export_source", None)
        if source is not None:
            return *source(), getattr(screen, "export_attachments", None)
        info = self.selected_list()
        session = self.context.session()
        if info is None or session is None:
            return None
        return (info.name, lambda: queries.list_records(session.project, info.id),
                lambda: list_attachments(session.project, info.id))

    # -- exporting ------------------------------------------------------------------------
    def export_current(self) -> None:
        target = self.export_target()
        session = self.context.session()
        if target is None or session is None:
            self.context.status("Select a list in the sidebar first")
            return
        name, records, attachments = target
        screen = self.context.screen()
        write = getattr(screen, "export_writer", None)
        ask = getattr(screen, "export_options", None)
        if write is not None and ask is not None:
            options = ask(self.context.parent)
            if options is None:
                return
            write = partial(write, **options)
        export_dialog(self.context.parent, session.project.path, name, records,
                      self.context.settings, write, attachments,
                      getattr(screen, "export_formats", None) if write is not None else None)

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
                lists.rename_list_op(info.topic, info.name, new), initiator=self)

    def rename_selected_topic(self) -> None:
        topic, session = self.selected_topic(), self.context.session()
        if topic is None or session is None:
            return
        new = ask_name(self.context.parent, "Rename Topic",
                       f"New name for the topic “{topic}”:", topic)
        if new:
            session.write(lists.rename_topic_op(topic, new), initiator=self)

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
            session.write(lists.delete_topic_op(topic), initiator=self)
        else:
            session.write(lists.delete_list_op(topic, name), initiator=self)
