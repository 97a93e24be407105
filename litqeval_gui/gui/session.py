"""The open project as the GUI sees it: one object shared by the window and its screens.

``ProjectSession`` owns the :class:`~litqeval_gui.core.projectfile.project.Project` (the GUI
thread's connection, for reads), the :class:`JobRunner`, and the project's one
:class:`~litqeval_gui.core.projectfile.writes.WritePath`: every mutation — a verdict from a
screen, a chunk of a background import — runs there, off the GUI thread. After each
one that changed something the session emits ``changed(changes, initiator)`` on the
GUI thread, by itself; screens implement ``project_changed(changes, initiator)``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal

from litqeval_gui.core.jobs import CancelToken, Progress
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Done, Op, WritePath
from litqeval_gui.gui.jobs import JobFactory, JobRunner
from litqeval_gui.gui.notify import show_error

T = TypeVar("T")


class ProjectSession(QObject):
    changed = Signal(object, object)  # Changes, initiator (who asked; None for jobs)
    _committed = Signal(object, object)  # emitted on the write thread, delivered here
    _answered = Signal(object, object, object)  # future, on_success, on_failure

    def __init__(self, project: Project, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.jobs = JobRunner(self)
        self._committed.connect(self.changed)
        self._answered.connect(self._answer)
        self.writes = WritePath(project, listener=self._committed.emit)
        project.writes = self.writes  # its siblings (jobs) write through the path too

    def write(self, op: Op, *, initiator: Any = None,
              on_success: Callable[[Any], None] | None = None,
              on_failure: Callable[[BaseException], None] | None = None,
              ) -> Future[Changes | Done[Any]]:
        """Queue the mutation ``op`` on the write path; ``changed`` is emitted when it
        commits, then ``on_success(result)`` (what the op returned: its changes, or a
        :class:`~litqeval_gui.core.projectfile.writes.Done` with its value) or
        ``on_failure(exc)`` runs here (a failure without ``on_failure`` goes to the one
        notification path)."""
        future = self.writes.submit(op, initiator)
        future.add_done_callback(lambda done: self._answered.emit(done, on_success, on_failure))
        return future

    def _answer(self, future: Future[Changes | Done[Any]], on_success: Callable[[Any], None] | None,
                on_failure: Callable[[BaseException], None] | None) -> None:
        exc = future.exception()
        if exc is None:
            if on_success is not None:
                on_success(future.result())
        elif on_failure is not None:
            on_failure(exc)
        else:
            show_error(None, "The change was not saved", exc)

    def worker_project(self) -> Project:
        """A sibling connection for a background job, opened on the job's thread (which
        closes it); its writes go through the session's write path."""
        return self.project.sibling()

    def worker_job(self, job: Callable[[Project, CancelToken], Generator[Progress, None, T]],
                   ) -> JobFactory:
        """A job running ``job(project, token)`` on a :meth:`worker_project` of its own
        thread, closed in every outcome."""
        def make(token: CancelToken) -> Generator[Progress, None, T]:
            with self.worker_project() as project:
                return (yield from job(project, token))
        return make

    def close(self) -> bool:
        """Stop jobs, finish queued writes and close the project; False if a job would not stop."""
        if not self.jobs.shutdown():
            return False
        self.writes.close()
        self.project.close()
        return True
