"""File ▸ Export Decision Log…: a screening's audit trail — every decision, undo, redo and
resolution, who made it and when — as CSV, written by
:func:`~litqeval_gui.core.screening.export.export_audit` (as ``litqeval screen-audit``),
which refuses a target that is a project or any SQLite file. The screening is the one
shown, else one of the sidebar's topic; a blind one gives the reviewer's own events.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.screening.export import export_audit
from litqeval_gui.gui.export_dialog import safe_file_name
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.team_exchange import current_screening

TITLE = "Export Decision Log"
CSV_FILTER = "CSV table (*.csv);;All files (*)"


def export_decision_log(window: Any) -> Path | None:
    """Ask where to write the current screening's decision log and write it; the file
    written, or None (cancelled, or refused with one line shown)."""
    screening = current_screening(window, TITLE)
    if screening is None:
        return None
    settings = window.settings
    start = settings.last_dir / f"{safe_file_name(screening.name)}.decision-log.csv"
    chosen, _ = QFileDialog.getSaveFileName(window, TITLE, str(start), CSV_FILTER)
    if not chosen:
        return None
    target = Path(chosen) if Path(chosen).suffix else Path(chosen + ".csv")
    try:
        count = export_audit(window.session.project, screening, target,
                             reviewer=settings.reviewer or None)
    except LitqError as exc:
        show_error(window, "The decision log was not exported", exc)
        return None
    settings.last_dir = target.parent
    settings.save()
    window.statusBar().showMessage(f"{count:,} event(s) of {screening.name} written to "
                                   f"{target}", 8000)
    return target
