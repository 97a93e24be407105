"""Which result list the Query screen opens on: the registry's ``choose`` and the
self-test's sample."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query.parser import QuerySyntaxError, parse
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.queries import ListInfo
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings


def result_lists(project: Project, topic: str) -> list[ListInfo]:
    """The topic's result lists, those with a stored query first."""
    found = [info for info in queries.lists(project, topic) if info.role == "results"]
    return sorted(found, key=lambda info: not info.query.strip())


def choose_list(session: ProjectSession, topic: str, _settings: Settings,
                parent: QWidget) -> ListInfo | None:
    """The result list whose query to show (the registry's ``choose``): the only one, or
    the one chosen (lists with a stored query first); None when the topic has none (said
    in the window's status bar) or the user cancels."""
    found = result_lists(session.project, topic)
    if len(found) <= 1:
        if not found and hasattr(parent, "statusBar"):
            parent.statusBar().showMessage(f"Topic {topic} has no result list yet: import a "
                                           "search export first", 5000)
        return found[0] if found else None
    names = [f"{info.name} — {' '.join(info.query.split())[:60] or 'no query stored'}"
             for info in found]
    name, ok = QInputDialog.getItem(parent, "Query Clauses", f"Result list of topic {topic}:",
                                    names, 0, False)
    return found[names.index(name)] if ok else None


def sample_list(project: Project) -> ListInfo | str:
    """The first topic's first result list whose query can be read (the self-test)."""
    topic = queries.topics(project)[0].name
    found = result_lists(project, topic)
    for info in found:
        try:
            parse(info.query)
        except QuerySyntaxError:
            continue
        return info
    return found[0] if found else topic
