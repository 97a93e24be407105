"""Page 2 of the import wizard: how each file is read, its column mapping, its first records.

The preview is ``read_records(limit=PREVIEW_ROWS)``, run off the GUI thread through the
session's :class:`JobRunner`; a newer preview of a file makes older results stale. The
row filter's values and its count of the records it leaves out come from the whole file
(:func:`~.filter_counts.tally_column`, another job), as the import will read it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from litqeval_gui.core.errors import UnknownLayoutError
from litqeval_gui.core.jobs import CancelToken
from litqeval_gui.core.records.importing import ParseResult, formats, read_records
from litqeval_gui.core.records.importing.layouts import FIELDS
from litqeval_gui.core.records.model import Record
from litqeval_gui.gui.import_wizard.filter_counts import ColumnTally, tally_column
from litqeval_gui.gui.import_wizard.messages import (
    ElidedLabel,
    failure_text,
    message_label,
    show_error_text,
)
from litqeval_gui.gui.import_wizard.state import TREC_FORMATS, FileState, WizardState

PREVIEW_ROWS = 20
LEFT_OUT = "record(s) left out by the filter"  # the reader's note (a preview's: partial)
NOT_MAPPED = "(not mapped)"
FIELD_LABELS = {"doi": "DOI", "pmid": "PMID", "pmcid": "PMCID", "scopus_eid": "Scopus EID",
                "wos_ut": "WoS UT", "openalex": "OpenAlex ID", "dimensions": "Dimensions ID",
                "lens": "Lens ID", "docid": "Document ID", "issn": "ISSN", "url": "URL"}


def table_columns(result: ParseResult, known: Iterable[str] = ()) -> list[str]:
    """Columns of a table seen in a preview: ``known`` first, then mapped, then raw ones."""
    seen = dict.fromkeys(known)
    seen.update(dict.fromkeys(result.columns.values()))
    for record in result.records:
        seen.update(dict.fromkeys(record.raw))
    return list(seen)


class ColumnMappingEditor(QGroupBox):
    """Field → column combo boxes for a table; ``changed(field, column)`` fires on edits
    (column "" = not mapped)."""

    changed = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Column mapping: which column holds each field", parent)
        grid = QGridLayout(self)
        self.combos: dict[str, QComboBox] = {}
        for i, name in enumerate(FIELDS):
            combo = QComboBox()
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
            label = QLabel(FIELD_LABELS.get(name, name.capitalize()) + ":")
            label.setBuddy(combo)
            row, col = divmod(i, 3)
            grid.addWidget(label, row, 2 * col, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(combo, row, 2 * col + 1)
            combo.currentIndexChanged.connect(
                lambda _index, name=name: self.changed.emit(name, self.column(name)))
            self.combos[name] = combo
        for col in (1, 3, 5):
            grid.setColumnStretch(col, 1)

    def set_state(self, columns: list[str], chosen: dict[str, str]) -> None:
        """Offer ``columns`` and select ``chosen`` (field -> column) without signalling."""
        for name, combo in self.combos.items():
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(NOT_MAPPED, "")
            for column in columns:
                combo.addItem(column, column)
            combo.setCurrentIndex(max(0, combo.findData(chosen.get(name, ""))))
            combo.blockSignals(False)

    def column(self, name: str) -> str:
        """The column chosen for field ``name`` ("" = not mapped)."""
        return self.combos[name].currentData() or ""

    def choose(self, name: str, column: str) -> None:
        """Map field ``name`` to ``column`` as the user would."""
        combo = self.combos[name]
        combo.setCurrentIndex(combo.findData(column))


class PreviewTable(QTableWidget):
    """The first records of a file, read-only."""

    HEADERS = ("Title", "Year", "Authors", "DOI", "Source")
    TREC_HEADERS = ("Topic", "Rank", "Document ID", "Score")
    WIDTHS = ((1, 50), (2, 160), (3, 170), (4, 130))  # the stretched column takes the rest
    TREC_WIDTHS = ((0, 90), (1, 60), (3, 100))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(self.HEADERS), parent)
        self.setHorizontalHeaderLabels(self.HEADERS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col, width in self.WIDTHS:
            self.setColumnWidth(col, width)

    def show_records(self, records: list[Record], trec: bool = False) -> None:
        """Show ``records``, one a row: bibliographic fields, or a TREC file's topic,
        rank, document id and score (its records have no text)."""
        headers = self.TREC_HEADERS if trec else self.HEADERS
        if headers != tuple(self.horizontalHeaderItem(c).text()
                            for c in range(self.columnCount())):
            self.setColumnCount(len(headers))
            self.setHorizontalHeaderLabels(headers)
            header, stretched = self.horizontalHeader(), 2 if trec else 0  # the ids or titles
            for col in range(len(headers)):
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch if col == stretched
                                            else QHeaderView.ResizeMode.Interactive)
            for col, width in self.TREC_WIDTHS if trec else self.WIDTHS:
                self.setColumnWidth(col, width)
        self.setRowCount(len(records))
        for row, rec in enumerate(records):
            if trec:
                cells = (str(rec.raw.get("topic", "")), str(rec.rank), rec.ids.get("docid", ""),
                         "" if rec.score is None else f"{rec.score:g}")
            else:
                authors = "; ".join(rec.authors[:3]) + (" et al." if len(rec.authors) > 3
                                                        else "")
                cells = (rec.title, str(rec.year or ""), authors, rec.doi, rec.venue)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.setItem(row, col, item)


class PreviewPage(QWizardPage):
    """Detected format and encoding, the column mapping of tables, the first records."""

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self.setTitle("Check how the files are read")
        self.setSubTitle(f"The first {PREVIEW_ROWS} records of each file. Fix the format or "
                         "the column mapping here if something looks wrong.")
        self.file_combo = QComboBox()
        _no_widening(self.file_combo, 40)
        self.file_combo.currentIndexChanged.connect(self.refresh)
        self.format_combo = QComboBox()
        self.format_combo.addItem("Automatic (detected)", "auto")
        for fmt in formats.FORMATS:
            self.format_combo.addItem(fmt.label, fmt.name)
        self.format_combo.activated.connect(self._format_chosen)
        self.info_label = message_label()
        self.error_label = message_label(error=True)
        self.notes_label = message_label()
        self.mapping_toggle = QPushButton("Edit column &mapping")
        self.mapping_toggle.setCheckable(True)
        self.mapping_toggle.toggled.connect(self.refresh)
        self.mapping_editor = ColumnMappingEditor()
        self.mapping_editor.changed.connect(self._mapping_changed)
        self.where_column = QComboBox()
        _no_widening(self.where_column, 16)
        self.where_column.setToolTip("Import only the rows of a multi-topic sheet whose "
                                     "column holds this value (the CLI's --where)")
        self.where_value = QComboBox()
        self.where_value.setEditable(True)
        self.where_value.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        _no_widening(self.where_value, 18)
        self.where_column.activated.connect(self._where_changed)
        self.where_value.activated.connect(self._where_changed)
        self.where_value.lineEdit().editingFinished.connect(self._where_changed)
        self.where_row = QWidget()
        where_layout = QHBoxLayout(self.where_row)
        where_layout.setContentsMargins(0, 0, 0, 0)
        where_label = QLabel("&Keep only rows where")
        where_label.setBuddy(self.where_column)
        where_layout.addWidget(where_label)
        where_layout.addWidget(self.where_column, 1)
        where_layout.addWidget(QLabel("is"))
        where_layout.addWidget(self.where_value, 1)
        self.filter_label = ElidedLabel(mode=Qt.TextElideMode.ElideRight, max_chars=90)
        self.table = PreviewTable()

        form = QFormLayout()
        self._file_row_label = QLabel("&File:")
        self._file_row_label.setBuddy(self.file_combo)
        form.addRow(self._file_row_label, self.file_combo)
        format_row = QHBoxLayout()
        format_row.addWidget(self.format_combo, 1)
        format_row.addWidget(self.mapping_toggle)
        format_label = QLabel("Read &as:")
        format_label.setBuddy(self.format_combo)
        form.addRow(format_label, format_row)
        form.addRow("Detected:", self.info_label)
        form.addRow("Filter:", self.where_row)
        form.addRow("", self.filter_label)
        self._form = form
        self._where_label = form.labelForField(self.where_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.mapping_editor)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes_label)

    # -- state ---------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 — Qt override
        states = self._state.files  # the wizard syncs them with page 1 before this
        self.file_combo.blockSignals(True)
        self.file_combo.clear()
        for state in states:
            self.file_combo.addItem(state.path.name, str(state.path))
        self.file_combo.blockSignals(False)
        several = len(states) > 1
        self.file_combo.setVisible(several)
        self._file_row_label.setVisible(several)
        for state in states:
            if state.result is None and not state.busy and not state.error:
                self.preview(state)
        self.refresh()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return bool(self._state.files) and all(s.ready for s in self._state.files)

    def current(self) -> FileState | None:
        """The state of the file chosen in the file box."""
        index = self.file_combo.currentIndex()
        files = self._state.files
        return files[index] if 0 <= index < len(files) else None

    # -- background preview ------------------------------------------------------------
    def preview(self, state: FileState) -> None:
        """(Re)read the first records of ``state.path`` with its current choices."""
        if state.handle is not None:
            state.handle.cancel()
        state.generation += 1
        generation, path = state.generation, state.path
        fmt, mapping = state.fmt, dict(state.mapping) or None
        where = {k: v for k, v in state.where.items() if k and v} or None
        state.error = ""

        def make(token: CancelToken):
            return read_records(path, fmt=fmt, mapping=mapping, where=where, token=token,
                                limit=PREVIEW_ROWS)

        state.handle = self._state.session.jobs.run(
            f"Preview {path.name}", make,
            on_success=lambda result: self._previewed(state, generation, result, None),
            on_failure=lambda exc: self._previewed(state, generation, None, exc),
            on_cancelled=lambda: self._previewed(state, generation, None, None))
        self.refresh()
        self.completeChanged.emit()

    def _previewed(self, state: FileState, generation: int, result: ParseResult | None,
                   exc: BaseException | None) -> None:
        if generation != state.generation:
            return  # a newer preview of this file is on its way
        state.handle, state.result = None, result
        if result is not None:
            state.error = ""
            state.tabular = formats.named(result.format).table
            state.columns = table_columns(result, state.columns) if state.tabular else []
        elif exc is None:
            state.error = "The preview was cancelled."
        else:
            state.error = failure_text(self, f"Reading {state.path.name} failed", exc)
            if isinstance(exc, UnknownLayoutError):
                state.tabular = True
                state.columns = list(dict.fromkeys([*state.columns, *exc.columns]))
            else:
                state.tabular = state.tabular and bool(state.mapping or state.where)
        self.refresh()
        self.completeChanged.emit()

    def _format_chosen(self) -> None:
        state = self.current()
        if state is not None:
            state.fmt = self.format_combo.currentData()
            state.mapping, state.columns, state.tabular, state.where = {}, [], False, {}
            state.filter_column = ""
            self._count(state)
            self.preview(state)

    def _where_changed(self, *_args) -> None:
        """The filter as chosen: a column and a value (no column: every row)."""
        state = self.current()
        if state is None:
            return
        column, value = self.where_column.currentData() or "", self.where_value.currentText()
        if column != state.filter_column:
            value = ""  # another column: its values, not the last one's
        state.filter_column = column
        where = {column: value.strip()} if column and value.strip() else {}
        changed, state.where = where != state.where, where
        self._count(state)
        if changed:
            self.preview(state)
        else:
            self._show_where(state)
            self._show_notes(state)

    # -- whole-file counts of the filter --------------------------------------------------
    def _count(self, state: FileState) -> None:
        """Count the filter column's values over the whole file in the background, unless
        the counts known (or under way) already answer for the chosen value."""
        column = state.filter_column
        if not column:
            if state.tally_handle is not None:
                state.tally_handle.cancel()
            state.tally, state.tally_key, state.tally_handle, state.tally_error = (
                None, None, None, "")
            return
        value = state.where.get(column, "")
        key = (state.path, state.fmt, tuple(sorted(state.mapping.items())), column)
        tally = state.tally
        if state.tally_key is not None and state.tally_key[:4] == key and (
                state.tally_handle is not None or state.tally_error
                or (tally is not None and (not value or tally.kept(value) is not None))):
            return
        if state.tally_handle is not None:
            state.tally_handle.cancel()
        state.tally_key, state.tally, state.tally_error = (*key, value), None, ""
        ours = state.tally_key
        path, fmt, mapping = state.path, state.fmt, dict(state.mapping) or None

        def make(token: CancelToken):
            return tally_column(path, column, fmt=fmt, mapping=mapping, wanted=value,
                                token=token)

        state.tally_handle = self._state.session.jobs.run(
            f"Count {column} in {path.name}", make,
            on_success=lambda tally: self._counted(state, ours, tally, None),
            on_failure=lambda exc: self._counted(state, ours, None, exc),
            on_cancelled=lambda: self._counted(state, ours, None, None))

    def _counted(self, state: FileState, key: tuple, tally: ColumnTally | None,
                 exc: BaseException | None) -> None:
        if key != state.tally_key:
            return  # another column, format or mapping was chosen since
        state.tally_handle, state.tally = None, tally
        if exc is not None:
            state.tally_error = failure_text(self, f"Counting {state.path.name} failed", exc)
        elif tally is None:
            state.tally_key = None  # cancelled: count again when asked
        elif state.where.get(tally.column) and tally.kept(state.where[tally.column]) is None:
            self._count(state)  # a value beyond those counted was chosen meanwhile
        if state is self.current():
            self._show_where(state, keep_typed=True)
            self._show_notes(state)

    def _offer_values(self, state: FileState, column: str, keep_typed: bool = False) -> None:
        """The values of ``column`` to pick from (or type one): the whole file's once
        counted, with their records as tooltips; until then those of the rows previewed."""
        typed = self.where_value.currentText()
        tally = state.tally if state.tally is not None and state.tally.column == column else None
        if tally is not None:
            values = [(v, f"{n:,} record(s)") for v, n in tally.values]
        else:
            seen = dict.fromkeys(str(r.raw.get(column, "")).strip()
                                 for r in (state.result.records if state.result else []))
            values = [(v, "") for v in seen if v]
        self.where_value.blockSignals(True)
        self.where_value.clear()
        for text, tip in values:
            self.where_value.addItem(text)
            if tip:
                self.where_value.setItemData(self.where_value.count() - 1, tip,
                                             Qt.ItemDataRole.ToolTipRole)
        chosen = state.where.get(column, "")
        self.where_value.setEditText(typed if keep_typed and column else chosen)
        self.where_value.blockSignals(False)

    def filter_text(self, state: FileState) -> str:
        """What the filter does to the whole file, or that it is being counted."""
        column = state.filter_column
        if not column or not (state.tabular and state.columns):
            return ""
        if state.tally_error:
            return f"The whole file could not be counted: {state.tally_error}"
        tally = state.tally
        if tally is None or tally.column != column:
            return f"Counting the values of {column} in the whole file…"
        value = state.where.get(column, "")
        if not value:
            shown = min(len(tally.values), tally.distinct)
            offered = (f"; the {shown:,} most frequent are offered"
                       if tally.distinct > shown else "")
            return (f"{tally.distinct:,} value(s) of {column} in the {tally.records:,} "
                    f"records of the whole file{offered}.")
        kept = tally.kept(value)
        if kept is None:
            return f"Counting the records of {value!r} in the whole file…"
        return (f"The filter keeps {kept:,} of the {tally.records:,} records of the whole "
                f"file and leaves out {tally.records - kept:,}.")

    def _mapping_changed(self, name: str, column: str) -> None:
        state = self.current()
        if state is not None:
            state.mapping[name] = column  # the user's choices add up; detection does the rest
            self._count(state)  # what the import keeps may change with the mapping
            self.preview(state)

    # -- showing -------------------------------------------------------------------
    def _show_where(self, state: FileState, keep_typed: bool = False) -> None:
        """The filter row of a table file: its columns, the chosen column and value, and
        what the filter does to the whole file."""
        shown = state.tabular and bool(state.columns)
        self.where_row.setVisible(shown)
        if self._where_label is not None:
            self._where_label.setVisible(shown)
        text = self.filter_text(state) if shown else ""
        self._form.setRowVisible(self.filter_label, bool(text))
        self.filter_label.setText(text)
        if not shown:
            return
        column = state.filter_column
        self.where_column.blockSignals(True)
        self.where_column.clear()
        self.where_column.addItem("(every row)", "")
        for name in state.columns:
            self.where_column.addItem(name, name)
        self.where_column.setCurrentIndex(max(0, self.where_column.findData(column)))
        self.where_column.blockSignals(False)
        self._offer_values(state, column, keep_typed)

    def refresh(self) -> None:
        """Show the chosen file's state."""
        state = self.current()
        if state is None:
            return
        result = state.result
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(state.fmt)))
        if state.busy:
            self.info_label.setText(f"reading the first records of {state.path.name}…")
        elif result is not None:
            recognised = "".join(f"<br>Recognised: {html.escape(r, quote=False)}" for r in result.recognised)
            self.info_label.setText(
                f"format <b>{result.format}</b>, encoding <b>{result.encoding}</b>, database "
                f"<b>{html.escape(result.database) or 'not recognised'}</b>{recognised}")
        else:
            self.info_label.setText("the file could not be read (see below)")
        error = state.error
        if error and state.tabular and state.columns:
            error += "\n\nChoose below which column holds the title (or the abstract)."
        show_error_text(self.error_label, error)
        if state.tabular and result is None:  # the user must map: keep the editor open
            self.mapping_toggle.blockSignals(True)
            self.mapping_toggle.setChecked(True)
            self.mapping_toggle.blockSignals(False)
        self.mapping_toggle.setVisible(state.tabular and result is not None)
        self.mapping_editor.setVisible(state.tabular and self.mapping_toggle.isChecked())
        if state.tabular:
            detected = result.columns if result is not None else {}
            self.mapping_editor.set_state(state.columns, {**detected, **state.mapping})
        self._show_where(state)
        records = result.records if result is not None else []
        self.table.show_records(records, trec=result is not None and result.format in TREC_FORMATS)
        self._show_notes(state)

    def _show_notes(self, state: FileState) -> None:
        """The reader's notes; the filter's count of the records it leaves out is the
        whole file's (the preview stops after its first records)."""
        result = state.result
        notes = [n for n in (result.notes if result is not None else []) if LEFT_OUT not in n]
        tally, column = state.tally, state.filter_column
        value = state.where.get(column, "") if column else ""
        left = tally.left_out(value) if tally is not None and value else None
        if left:  # the import's own note, with the whole file's count
            notes.append(f"{left} {LEFT_OUT} {column}={value!r}")
        topics = state.trec_topics
        if topics:  # the reader's advice to choose one topic does not apply here
            notes = [n for n in notes if "topics in one file" not in n]
            several = len(topics) > 1
            notes.insert(0, f"{len(topics)} TREC topic{'s' if several else ''}: "
                            f"{'each' if several else 'it'} is imported as a list of the "
                            "project topic of the same id")
        self.notes_label.setText("\n".join(f"Note: {n}" for n in notes))


def _no_widening(combo: QComboBox, chars: int) -> None:
    """Size ``combo`` for ``chars`` characters, not for its longest item (a long file
    name or cell value would widen the wizard); its popup still shows them whole."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
