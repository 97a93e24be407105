"""Export records from the app: a save dialog whose file extension picks the format.

The same writers and safety checks as ``litqeval export``
(:func:`litqeval_gui.core.records.exporting.export_records`): a project or any SQLite file is
never overwritten. A name without a known extension gets the chosen filter's one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.model import Record
from litqeval_gui.gui import folders
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.settings import Settings

FILTERS = {"ris": "RIS — EndNote, Zotero, Mendeley (*.ris)", "bibtex": "BibTeX (*.bib)",
           "csv": "CSV table (*.csv)", "xlsx": "Excel workbook (*.xlsx)",
           "medline": "PubMed / MEDLINE (*.nbib)"}


def target_and_format(name: str, chosen_filter: str) -> tuple[Path, str]:
    """The file and format for a name typed in the dialog: its extension decides; without
    a known one, the chosen filter's format and extension are used."""
    path = Path(name)
    for fmt, suffixes in exporting.EXTENSIONS.items():
        if path.suffix.lower() in suffixes:
            return path, fmt
    fmt = next((f for f, label in FILTERS.items() if label == chosen_filter), "ris")
    return path.with_name(path.name + exporting.EXTENSIONS[fmt][0]), fmt


def safe_file_name(text: str) -> str:
    """``text`` usable as a file name on every system."""
    return re.sub(r'[\\/:*?"<>|\s]+', "_", text).strip("._") or "records"


def export_dialog(parent: QWidget, project_path: Path, name: str,
                  records: Callable[[], Iterable[Record]], settings: Settings,
                  write: Callable[[Path, str], int] | None = None,
                  attachments: Callable[[], Sequence[str]] | None = None) -> Path | None:
    """Ask where to export ``records()`` (suggesting ``name``) and write them there
    (``write(target, format)`` instead, when given: e.g. with screening decisions).
    ``attachments()``: each record's full-text path (``""`` for none) in the same order,
    written as the ``pdf`` column, RIS ``L1`` or BibTeX ``file``
    (:func:`~litqeval_gui.core.records.exporting.export_records`).

    The dialog opens in the project's folder when it is writable, else the last folder
    used or the documents folder (:func:`~litqeval_gui.gui.folders.save_folder`).

    Returns the file written, or None when cancelled or refused (the reason is shown).
    """
    start = folders.save_folder(settings, project_path) / f"{safe_file_name(name)}.ris"
    chosen, chosen_filter = QFileDialog.getSaveFileName(
        parent, f"Export {name}", str(start), ";;".join(FILTERS.values()), FILTERS["ris"])
    if not chosen:
        return None
    target, fmt = target_and_format(chosen, chosen_filter)
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        count = write(target, fmt) if write is not None else \
            exporting.export_records(records(), target, fmt, project=project_path,
                                     attachments=attachments() if attachments else None)
    except LitqError as exc:
        show_error(parent, "Export failed", exc)
        return None
    finally:
        QGuiApplication.restoreOverrideCursor()
    folders.remember(settings, target.parent)
    settings.save()
    window = parent.window()
    if hasattr(window, "statusBar"):
        window.statusBar().showMessage(f"Exported {count:,} records to {target}", 8000)
    return target
