"""File ▸ Save a Copy…: a consistent copy of the open project, e.g. for a colleague.

The copy is :func:`~litqeval_gui.core.records.copying.copy_project` run as a session job
on a sibling connection (off the GUI thread; the status bar shows it running). It first
waits for the write path, so every decision queued before the copy is in it; it ends in a
status-bar message naming the copy, or in one line saying why nothing was written.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.projectfile.project import SUFFIX, Project
from litqeval_gui.core.records.copying import copy_project
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.notify import show_error

COPY_TITLE = "Saving a copy"
COPY_FILTER = f"LitQEval projects (*{SUFFIX});;All files (*)"


def save_a_copy(window: Any) -> JobHandle | None:
    """Ask where, then copy the window's open project there as a job; None when the user
    chose no file."""
    session = window.session
    source = session.project.path
    start = window.settings.last_dir / f"{source.stem} copy{SUFFIX}"
    name, _ = QFileDialog.getSaveFileName(window, "Save a Copy", str(start), COPY_FILTER)
    if not name:
        return None
    target = Path(name) if name.endswith(SUFFIX) else Path(name + SUFFIX)
    window.settings.last_dir = target.parent
    window.settings.save()
    return session.jobs.run(
        COPY_TITLE, session.worker_job(lambda project, _token: _copying(project, target)),
        on_success=lambda copy: window.statusBar().showMessage(
            f"Saved a copy of {source.name} as {copy}", 8000),
        on_failure=lambda exc: show_error(window, "The copy was not saved", exc))


def _copying(project: Project, target: Path) -> Generator[Progress, None, Path]:
    yield Progress(0, 0, f"writing {target.name}")
    return copy_project(project, target)
