"""The conflicts screen: where a screening's reviewers disagree, resolved from the
keyboard, with their agreement beside it (see :mod:`.view`)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget

from litqeval_gui.core.demo import sample_screening
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.gui.screens.conflicts.view import ConflictsView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

__all__ = ["ConflictsView", "choose_screening", "pick_screening", "sample"]


def pick_screening(project: Project, topic: str, parent: QWidget | None,
                   purpose: str) -> Screening | None:
    """One of ``topic``'s screenings: the only one, or the one chosen in a list; None
    when it has none (said in the window's status bar) or the user cancels."""
    found = store.screenings(project, topic)
    if len(found) <= 1:
        if not found and parent is not None and hasattr(parent, "statusBar"):
            parent.statusBar().showMessage(f"Topic {topic} has no screening yet", 5000)
        return found[0] if found else None
    names = [s.name for s in found]
    name, ok = QInputDialog.getItem(parent, purpose, f"Screening of topic {topic}:",
                                    names, 0, False)
    return found[names.index(name)] if ok else None


def choose_screening(session: ProjectSession, topic: str, _settings: Settings,
                     parent: QWidget) -> Screening | None:
    """The screening whose conflicts to show (the registry's ``choose``)."""
    return pick_screening(session.project, topic, parent, "Screening Conflicts")


def sample(project: Project) -> Screening:
    """The first topic's first screening, else a new one (the self-test)."""
    topic = queries.topics(project)[0].name
    found = store.screenings(project, topic)
    return found[0] if found else sample_screening(project)
