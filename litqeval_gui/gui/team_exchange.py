"""File ▸ Export My Decisions… and File ▸ Merge Decisions… (issue 25 §2), over
:mod:`litqeval_gui.core.screening.reviewers.exchange`.

Export writes the reviewer of the settings' events of one screening (the one shown, else
one of the sidebar's topic) to a decisions file. Merge takes a colleague's decisions
file or a copy of the whole project and runs
:func:`~litqeval_gui.core.screening.reviewers.exchange.merge_decisions` as a job on the session
(progress in the status bar); it ends in a report of what was added (per reviewer),
already present, not matched (with examples), a copy's events left out, and the
conflicts it brought, or in one line saying why nothing changed (a foreign or damaged
file). A copy holding decisions of several reviewers asks whose to take
(:class:`WhoseDialog`, none ticked) and merges again with those.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.reviewers.exchange import (
    MergeReport,
    WhoseDecisions,
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


def merge_into_project(window: Any, source: str | Path | None = None,
                       reviewers: Sequence[str] | None = None) -> JobHandle | None:
    """Merge ``source`` (asked when None) into the open project as a job, taking a copy's
    events of ``reviewers`` (default: as the core chooses); its report is shown when it
    ends (:func:`show_merge_report`), or whose decisions to take is asked
    (:func:`ask_whose`). None when nothing was started."""
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
    window.merge_report = window.whose_dialog = None
    return session.jobs.run(
        MERGE_TITLE, session.worker_job(lambda project, token: merge_decisions(
            project, path, token, reviewers)),
        on_success=lambda report: show_merge_report(window, report),
        on_failure=lambda exc: ask_whose(window, path, exc.reviewers)
        if isinstance(exc, WhoseDecisions) else show_error(window, "Nothing was merged", exc))


class WhoseDialog(QDialog):
    """Whose decisions to take from a copy: its ``reviewers`` (name → events not here
    yet), none ticked; OK needs one. :meth:`chosen` after ``accept``."""

    def __init__(self, source: str, reviewers: dict[str, int],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Whose decisions?")
        self.list = QListWidget()
        for name, new in reviewers.items():
            item = QListWidgetItem(f"{plain_name(name)} — {new:,} new event(s)")
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.list.addItem(item)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setEnabled(False)
        self.list.itemChanged.connect(lambda _item: self.ok.setEnabled(bool(self.chosen())))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"{plain_name(source)} holds the decisions of several "
                                "reviewers. Whose do you take? The others' that are not "
                                "here yet are left out."))
        layout.addWidget(self.list)
        layout.addWidget(buttons)

    def chosen(self) -> list[str]:
        """The ticked reviewers' names."""
        items = [self.list.item(i) for i in range(self.list.count())]
        return [item.data(Qt.ItemDataRole.UserRole) for item in items
                if item.checkState() == Qt.CheckState.Checked]


def ask_whose(window: Any, path: Path, reviewers: dict[str, int]) -> WhoseDialog:
    """Ask whose decisions to take from the copy ``path`` (opened, not run; kept as
    ``window.whose_dialog``); OK merges it again with those."""
    dialog = WhoseDialog(path.name, reviewers, window)
    dialog.accepted.connect(lambda: merge_into_project(window, path, dialog.chosen()))
    dialog.open()
    window.whose_dialog = dialog
    return dialog


def _remember_folder(window: Any, chosen: str) -> None:
    window.settings.last_dir = Path(chosen).parent
    window.settings.save()


def report_text(report: MergeReport) -> str:
    """The merge report in a few lines of plain text."""
    lines = [f"Merged into {', '.join(report.screenings) or 'no screening'}: "
             f"{report.added:,} event(s) added, {report.present:,} already present, "
             f"{report.unmatched:,} not matched to a record here."]
    lines += [f"  {plain_name(name)}: {n:,} event(s) added"
              for name, n in sorted(report.added_by.items())]
    lines += [f"  not taken: {n:,} event(s) of {plain_name(name)} (not chosen)"
              for name, n in sorted(report.not_taken.items())]
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
