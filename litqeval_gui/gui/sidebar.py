"""The topic sidebar: topic → "Core set (n)", "Result lists" → each list, "Other lists".

Counts come from :mod:`litqeval_gui.core.records.queries`. A result list's second column
is its recall against the topic's core set (a set count, shown at once: issue 24),
recounted after every regrouping. Activating a list (a click,
Enter) emits :attr:`TopicTree.list_activated` with its
:class:`~litqeval_gui.core.records.queries.ListInfo`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView, QWidget

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.queries import ListInfo, TopicInfo
from litqeval_gui.gui.missed_core import recall_tip

LIST_ROLE = Qt.ItemDataRole.UserRole + 1
TOPIC_ROLE = Qt.ItemDataRole.UserRole + 2


def _n(count: int, what: str) -> str:
    return f"{count:,} {what}{'' if count == 1 else 's'}"


def list_label(info: ListInfo) -> str:
    """``name (n records)``, with the distinct works when duplicates make them fewer (the
    CLI's ``works``)."""
    works = f" · {_n(info.size, 'work')}" if info.size != info.records else ""
    return f"{info.name} ({_n(info.records, 'record')}{works})"


def core_label(core: int) -> str:
    """The core set's distinct works (as ``litqeval recall`` counts them)."""
    return f"Core set ({_n(core, 'work')})"


def recall_cell(matched: int, core: int) -> tuple[str, str]:
    """(text, tooltip) of a result list's recall column: ``recall 0.96``, or ``–`` without
    a core set."""
    if not core:
        return "–", recall_tip(matched, core)
    return (f"recall {matched / core:.2f}",
            recall_tip(matched, core) + "\nOpen the list to see the core works it missed")


def _topic_tooltip(topic: TopicInfo, works: int) -> str:
    return f"{topic.name}\n{topic.lists} result lists, {works:,} distinct works"


def _list_tooltip(info: ListInfo) -> str:
    lines = [f"{info.records:,} records, {info.size:,} distinct works",
             f"file: {info.file_name} ({info.format})"]
    if info.database:
        lines.append(f"database: {info.database}")
    if info.query:
        lines.append(f"query: {info.query}")
    return "\n".join(lines)


class TopicTree(QTreeView):
    """Topics of the open project and their lists."""

    list_activated = Signal(object)  # ListInfo

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(QStandardItemModel(self))
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.activated.connect(self._activated)
        self.clicked.connect(self._activated)  # one click opens a list, as in a file browser
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._collapsed: set[str] = set()
        self._project: Project | None = None
        self._topics: dict[str, tuple[TopicInfo, QStandardItem, QStandardItem]] = {}
        self._recalls: dict[int, QStandardItem] = {}  # result list id -> its recall cell
        self._tooltips_stale = False  # works regrouped: topic tooltips recounted on hover

    def populate(self, project: Project | None) -> None:
        """Rebuild from the project's catalogue, keeping which topics were collapsed."""
        model: QStandardItemModel = self.model()  # type: ignore[assignment]
        self._remember_collapsed()
        model.clear()
        model.setColumnCount(2)
        self._project = project
        self._topics.clear()
        self._recalls.clear()
        self._tooltips_stale = False
        if project is None:
            return
        by_topic: dict[str, list[ListInfo]] = {}
        for info in queries.lists(project):
            by_topic.setdefault(info.topic, []).append(info)
        for topic in queries.topics(project):
            item = self._item(topic.name, topic.name)
            bold = QFont(item.font())
            bold.setBold(True)
            item.setFont(bold)
            item.setToolTip(_topic_tooltip(topic, topic.works))
            core_item = self._fill_topic(item, topic.name, topic.core,
                                         by_topic.get(topic.name, []))
            self._topics[topic.name] = (topic, item, core_item)
            model.appendRow(item)
            self.setExpanded(item.index(), topic.name not in self._collapsed)
            for row in range(item.rowCount()):
                self.setExpanded(item.child(row).index(), True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)

    def project_changed(self, changes: Changes, _initiator: object) -> None:
        """Rebuild when topics, lists or records changed; after a regrouping (a verdict)
        only the core-set counts are recounted now, the topics' work counts on hover."""
        if self._project is None:
            return
        if changes.topics or changes.lists or changes.records:
            self.populate(self._project)
        elif changes.works:
            cores = {}
            for topic, _item, core_item in self._topics.values():
                cores[topic.name] = queries.core_size(self._project, topic.id)
                core_item.setText(core_label(cores[topic.name]))
            for info in queries.lists(self._project):
                if info.id in self._recalls:
                    self._show_recall(self._recalls[info.id], info.matched,
                                      cores.get(info.topic, 0))
            self._tooltips_stale = True

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 — Qt override
        if event.type() == QEvent.Type.ToolTip and self._tooltips_stale and self._project:
            self._tooltips_stale = False
            for topic, item, _core_item in self._topics.values():
                item.setToolTip(_topic_tooltip(topic, queries.work_count(self._project,
                                                                         topic.id)))
        return super().viewportEvent(event)

    def _fill_topic(self, item: QStandardItem, topic: str, core: int,
                    lists: list[ListInfo]) -> QStandardItem:
        cores = [i for i in lists if i.role == "core"]
        core_item = self._item(core_label(core), topic)
        if len(cores) == 1:
            self._attach(core_item, cores[0])
        else:
            core_item.appendRows([self._list_item(i) for i in cores])
        item.appendRow(core_item)
        for title, role in (("Result lists", "results"), ("Other lists", "other")):
            members = [i for i in lists if i.role == role]
            if members or role == "results":
                group = self._item(title, topic)
                for info in members:
                    group.appendRow(self._list_row(info, core))
                item.appendRow(group)
        return core_item

    def _list_row(self, info: ListInfo, core: int) -> list[QStandardItem]:
        """A list's label, and for a result list its recall cell (which opens it too)."""
        label = self._list_item(info)
        if info.role != "results":
            return [label]
        recall = self._item("", info.topic)
        recall.setData(info, LIST_ROLE)
        recall.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._show_recall(recall, info.matched, core)
        self._recalls[info.id] = recall
        return [label, recall]

    @staticmethod
    def _show_recall(cell: QStandardItem, matched: int, core: int) -> None:
        text, tip = recall_cell(matched, core)
        cell.setText(text)
        cell.setToolTip(tip)

    def _item(self, text: str, topic: str) -> QStandardItem:
        item = QStandardItem(text)
        item.setData(topic, TOPIC_ROLE)
        return item

    def _list_item(self, info: ListInfo) -> QStandardItem:
        item = self._item(list_label(info), info.topic)
        self._attach(item, info)
        return item

    def _attach(self, item: QStandardItem, info: ListInfo) -> None:
        item.setData(info, LIST_ROLE)
        item.setToolTip(_list_tooltip(info))

    def _remember_collapsed(self) -> None:
        model = self.model()
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            name = index.data(TOPIC_ROLE)
            if self.isExpanded(index):
                self._collapsed.discard(name)
            else:
                self._collapsed.add(name)

    def _activated(self, index: QModelIndex) -> None:
        info = index.data(LIST_ROLE)
        if info is not None:
            self.list_activated.emit(info)

    def current_list(self) -> ListInfo | None:
        """The list of the selected item (None for a topic or a group)."""
        return self.currentIndex().data(LIST_ROLE)

    def current_topic(self) -> str | None:
        """The topic of the selected item, or the only topic there is."""
        topic = self.currentIndex().data(TOPIC_ROLE)
        if topic is None and self.model().rowCount() == 1:
            topic = self.model().index(0, 0).data(TOPIC_ROLE)
        return topic

    def topic_names(self) -> list[str]:
        model = self.model()
        return [model.index(row, 0).data(TOPIC_ROLE) for row in range(model.rowCount())]
