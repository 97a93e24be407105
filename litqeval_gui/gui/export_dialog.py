"""Export records from the app: a save dialog whose file extension picks the format.

The same writers and safety checks as ``litqeval export``
(:func:`litqeval_gui.core.records.exporting.export_records`): a project or any SQLite file is
never overwritten. A name without a known extension gets the chosen filter's one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
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
           "medline": "PubMed / MEDLINE (*.nbib)", "endnote": "EndNote XML (*.xml)"}


def target_and_format(name: str, chosen_filter: str,
                      filters: Mapping[str, str] = FILTERS) -> tuple[Path, str]:
    """The file and format for a name typed in the dialog: the chosen filter's format when
    the name has its extension, else the format of the name's extension; without a known
    one, the chosen filter's format and extension. ``filters``: format → filter, the
    extension of a format not in :data:`exporting.EXTENSIONS` taken from its filter."""
    path = Path(name)
    chosen = next((f for f, label in filters.items() if label == chosen_filter), "ris")
    suffixes = {f: exporting.EXTENSIONS.get(f) or tuple(re.findall(r"\*(\.\w+)", label))
                for f, label in filters.items()}
    if path.suffix.lower() in suffixes[chosen]:
        return path, chosen
    for fmt, known in suffixes.items():
        if path.suffix.lower() in known:
            return path, fmt
    return path.with_name(path.name + suffixes[chosen][0]), chosen


def safe_file_name(text: str) -> str:
    """``text`` usable as a file name on every system."""
    return re.sub(r'[\\/:*?"<>|\s]+', "_", text).strip("._") or "records"


def export_dialog(parent: QWidget, project_path: Path, name: str,
                  records: Callable[[], Iterable[Record]], settings: Settings,
                  write: Callable[[Path, str], int] | None = None,
                  attachments: Callable[[], Sequence[str]] | None = None,
                  formats: Mapping[str, str] | None = None) -> Path | None:
    """Ask where to export ``records()`` (suggesting ``name``) and write them there
    (``write(target, format)`` instead, when given: e.g. with screening decisions).
    ``attachments()``: each record's full-text path (``""`` for none) in the same order,
    written as the ``pdf`` column, RIS ``L1`` or BibTeX ``file``
    (:func:`~litqeval_gui.core.records.exporting.export_records`). ``formats``: filters
    of formats ``write`` writes beside the records' (a screening: ASReview's dataset).

    The dialog opens in the project's folder when it is writable, else the last folder
    used or the documents folder (:func:`~litqeval_gui.gui.folders.save_folder`).

    Returns the file written, or None when cancelled or refused (the reason is shown).
    """
    start = folders.save_folder(settings, project_path) / f"{safe_file_name(name)}.ris"
    filters = {**FILTERS, **(formats or {})}
    chosen, chosen_filter = QFileDialog.getSaveFileName(
        parent, f"Export {name}", str(start), ";;".join(filters.values()), FILTERS["ris"])
    if not chosen:
        return None
    target, fmt = target_and_format(chosen, chosen_filter, filters)
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
