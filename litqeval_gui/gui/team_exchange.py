"""File ▸ Export My Decisions… and File ▸ Merge Decisions… (issue 25 §2), over
:mod:`litqeval_gui.core.screening.reviewers.exchange`.

Export writes the reviewer of the settings' events of one screening (the one shown, else
one of the sidebar's topic) to a decisions file. Merge takes a colleague's decisions
file or a copy of the whole project and runs
:func:`~litqeval_gui.core.screening.reviewers.exchange.merge_decisions` as a job on the session
(progress in the status bar); it ends in a report of what was added, already present,
not matched (with examples) and the conflicts it brought, or in one line saying why
nothing changed (a foreign or damaged file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QMessageBox

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.reviewers.exchange import (
    MergeReport,
    export_decisions,
    merge_decisions,
)
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.conflicts import pick_screening
from litqeval_gui.gui.screens.screening.start import ask_reviewer

DECISIONS_FILTER = "Decisions file (*.jsonl);;All files (*)"
MERGE_FILTER = "Decisions file or project (*.jsonl *.litq);;All files (*)"
MERGE_TITLE = "Merge decisions"


def current_screening(window: Any, purpose: str) -> Screening | None:
    """The screening of the shown screening or conflicts screen, else one of the
    sidebar's topic (asked when it has several); None (said in the status bar) when
    there is none."""
    view = window.tabs.currentWidget() if window.session is not None else None
    if getattr(view, "key", None) in ("screening", "conflicts"):
        return view.screening
    topic = window.sidebar.current_topic() if window.session is not None else None
    if topic is None:
        window.statusBar().showMessage("Open a screening or select its topic first", 5000)
        return None
    return pick_screening(window.session.project, topic, window, purpose)


def export_my_decisions(window: Any, target: str | Path | None = None) -> Path | None:
    """Write the settings' reviewer's decisions of the current screening to ``target``
    (asked when None); the file written, or None."""
    screening = current_screening(window, "Export My Decisions")
    if screening is None:
        return None
    reviewer = ask_reviewer(window.settings, window)
    if not reviewer:
        return None
    project = window.session.project
    if target is None:
        start = window.settings.last_dir / f"{screening.name} {reviewer}.jsonl"
        name, _ = QFileDialog.getSaveFileName(window, "Export My Decisions", str(start),
                                              DECISIONS_FILTER)
        if not name:
            return None
        target = name
        _remember_folder(window, name)
    try:
        count = export_decisions(project, screening, reviewer, target)
    except (OSError, LitqError) as exc:
        show_error(window, "Your decisions were not exported", exc)
        return None
    window.statusBar().showMessage(f"{count:,} event(s) of {reviewer} in {screening.name} "
                                   f"written to {Path(target).name}", 8000)
    return Path(target)


def merge_into_project(window: Any, source: str | Path | None = None) -> JobHandle | None:
    """Merge ``source`` (asked when None) into the open project as a job; its report is
    shown when it ends (:func:`show_merge_report`). None when nothing was started."""
    if source is None:
        name, _ = QFileDialog.getOpenFileName(window, "Merge Decisions",
                                              str(window.settings.last_dir), MERGE_FILTER)
        if not name:
            return None
        source = name
        _remember_folder(window, name)
    session = window.session
    path = Path(source)
    if path.exists() and path.resolve() == Path(session.project.path).resolve():
        show_error(window, "Nothing was merged", "that is the open project itself; choose a "
                   "colleague's decisions file or their copy of the project")
        return None
    window.merge_report = None
    return session.jobs.run(
        MERGE_TITLE, session.worker_job(lambda project, token: merge_decisions(
            project, path, token)),
        on_success=lambda report: show_merge_report(window, report),
        on_failure=lambda exc: show_error(window, "Nothing was merged", exc))


def _remember_folder(window: Any, chosen: str) -> None:
    window.settings.last_dir = Path(chosen).parent
    window.settings.save()


def report_text(report: MergeReport) -> str:
    """The merge report in a few lines of plain text."""
    lines = [f"Merged into {', '.join(report.screenings) or 'no screening'}: "
             f"{report.added:,} event(s) added, {report.present:,} already present, "
             f"{report.unmatched:,} not matched to a record here."]
    lines += [f"  not matched: {title}" for title in report.examples]
    new = len(report.new_conflicts)
    lines.append(f"Conflicts: {report.conflicts_before:,} before, {report.conflicts_after:,} "
                 f"after ({new:,} new)" + (" — see Topic ▸ Screening Conflicts…" if new else "")
                 + ".")
    if report.skipped_screenings:
        lines.append("Screenings not in this project (skipped): "
                     + ", ".join(report.skipped_screenings))
    if report.unblinded:
        lines.append("The screening was unblinded in the merged copy: it is unblinded here too.")
    return "\n".join(lines)


def show_merge_report(window: Any, report: MergeReport) -> QMessageBox:
    """The report in a message box (opened, not run); kept as ``window.merge_report``."""
    box = QMessageBox(QMessageBox.Icon.Information, "Decisions Merged", report_text(report),
                      QMessageBox.StandardButton.Ok, window)
    box.open()
    window.merge_report = box
    return box
