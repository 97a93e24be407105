"""The open project as the GUI sees it: one object shared by the window and its views.

``ProjectSession`` owns the :class:`~litqeval_gui.core.project.Project` (GUI-thread
connection, used for reads), the :class:`JobRunner`, and the one change signal:
after a mutation the code that made it calls :meth:`notify_changed` with what
changed; views mark themselves stale and refresh when shown.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from litqeval_gui.core.project import Project
from litqeval_gui.gui.jobs import JobRunner

# what changed, passed with ``ProjectSession.changed``
IMPORTS = "imports"
MATCHES = "matches"


class ProjectSession(QObject):
    changed = Signal(str)

    def __init__(self, project: Project, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.jobs = JobRunner(self)

    def worker_project(self) -> Project:
        """A sibling connection for a background job; the job's owner closes it."""
        return self.project.sibling()

    def notify_changed(self, what: str) -> None:
        self.changed.emit(what)

    def close(self) -> bool:
        """Stop jobs and close the project; False if a job would not stop."""
        if not self.jobs.shutdown():
            return False
        self.project.close()
        return True
