"""Export records as RIS, CSV, BibTeX, XLSX, MEDLINE or EndNote XML that the importers read
back unchanged.

Round trip kept: title, abstract, authors, year, venue, keywords, type, language, DOI,
PMID, the other identifiers, volume, issue, pages, publisher, ISSN and URL (RIS writes
the type as its RIS code; MEDLINE has no tag for the URL or identifiers other than PMCID,
see :mod:`~litqeval_gui.core.records.citation_writers`). CSV and XLSX have one column per field,
lists joined with ``"; "``, under the field's name or the name a ``headers`` mapping
gives it (a database's table layout). With ``attachments`` (a full text's path per
record, see :mod:`~litqeval_gui.core.records.attachments`) and at least one of them
set, CSV and XLSX add a ``pdf`` column, RIS an ``L1``, BibTeX a ``file`` field and
EndNote XML a ``pdf-urls`` URL.

The file is written next to its target and moved into place when complete (a link's
target is replaced, the link kept); a target that is a project, one of its side files
(``-wal``, ``-shm``, ``-journal``, lock, backups), any SQLite database, a folder or a
special file (a FIFO, a device) is refused before anything is written. CSV cells that a
spreadsheet would run as a formula are escaped as OWASP advises (a leading ``'``, see
:func:`escape_formula`); XLSX cells are always stored as strings, never formulas.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.paths import output_file
from litqeval_gui.core.records.citation_writers import (
    Annotation,
    write_bibtex,
    write_endnote_xml,
    write_medline,
    write_ris,
)
from litqeval_gui.core.records.model import BIBLIO_FIELDS, OTHER_ID_KINDS, Record

EXPORT_FORMATS = ("ris", "csv", "bibtex", "xlsx", "medline", "endnote")
COLUMNS = ("title", "abstract", "authors", "year", "venue", "keywords", "type", "language",
           "doi", "pmid", *OTHER_ID_KINDS, *BIBLIO_FIELDS)


SQLITE_HEADER = b"SQLite format 3\x00"
_SIDE_FILE = re.compile(r"(?:-wal|-shm|-journal|\.lock|\.v\d+\.bak)?")  # after the project name


def export_records(records: Iterable[Record], path: str | Path, fmt: str, *,
                   project: str | Path | None = None,
                   extra: Sequence[Mapping[str, str]] | None = None,
                   headers: Mapping[str, str] | None = None,
                   attachments: Sequence[str] | None = None) -> int:
    """Write ``records`` to ``path`` in ``fmt`` (one of :data:`EXPORT_FORMATS`); returns
    the count.

    ``project`` is the project the records come from: it and its side files are refused
    as targets (see :func:`check_target`). ``extra``: one mapping per record of further
    text columns (e.g. screening decisions), written after the record's columns in CSV
    and XLSX (escaped like every other cell) and left out of the other formats.
    ``headers`` (CSV and XLSX only): field → column name; only these fields are written,
    in this order, under these names (default: every field of :data:`COLUMNS`).
    ``attachments``: one full-text path (or ``""``) per record (module docstring).
    """
    rows = [] if extra is None else list(extra)
    records = list(records)
    if attachments is not None and any(attachments):
        if len(attachments) != len(records):
            raise ValueError("attachments need one path per record")
        rows = [{**(rows[i] if rows else {}), "pdf": path}
                for i, path in enumerate(attachments)]
        notes = [Annotation(attachment=path) for path in attachments]
    else:
        notes = None
    table = {"extra": rows,
             "headers": dict(zip(COLUMNS, COLUMNS, strict=True) if headers is None else headers)}
    writers = {"ris": functools.partial(write_ris, annotations=notes),
               "csv": functools.partial(_write_csv, **table),
               "bibtex": functools.partial(write_bibtex, annotations=notes),
               "xlsx": functools.partial(_write_xlsx, **table), "medline": write_medline,
               "endnote": functools.partial(write_endnote_xml, annotations=notes)}
    if fmt not in writers:
        raise LitqError(f"cannot export as {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    if headers is not None and fmt not in ("csv", "xlsx"):
        raise ValueError(f"headers name table columns; {fmt} has none")
    target = Path(path)
    check_target(target, project)
    counted: list[int] = []
    write_whole(target, lambda partial: counted.append(writers[fmt](records, partial)),
                "the export")
    return counted[0]


def write_whole(path: str | Path, write: Callable[[Path], object], what: str) -> Path:
    """Run ``write(partial)`` on a hidden file beside ``path``, then move it onto ``path``:
    the target is replaced whole or left as it was, never half-written (a link: the file
    it points to, see :func:`~litqeval_gui.core.paths.output_file`). An OSError
    becomes one line naming ``what`` ("the export", "the report"…)."""
    with Staged() as staged:
        staged.write(path, write, what)
        staged.move()
    return Path(path)


class Staged:
    """Files written together or not at all: :meth:`write` makes each whole in a hidden
    file beside its target, :meth:`move` then moves them all into place; leaving the
    ``with`` block removes every hidden file not moved (the targets stay as they were)."""

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path, Path, str]] = []  # given, real, partial, what
        self._reals: set[Path] = set()  # each target's resolved path

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, *exc: object) -> None:
        for _, _, partial, _ in self._staged:
            with contextlib.suppress(OSError):  # none made (a name too long), or gone
                partial.unlink()

    def write(self, path: str | Path, write: Callable[[Path], object], what: str) -> None:
        """``write(partial)`` for target ``path`` (module docstring of
        :mod:`~litqeval_gui.core.paths`: a special file is refused)."""
        target = Path(path)
        real = output_file(target)
        if real.resolve() in self._reals:
            raise LitqError(f"{target}: two of the files to write are this one; give each "
                            "its own name")
        self._reals.add(real.resolve())
        if not real.parent.is_dir():
            raise LitqError(f"{target}: cannot write {what} (the folder {real.parent} does "
                            "not exist)")
        partial = real.with_name(f".{real.name}.{secrets.token_hex(4)}.partial")
        self._staged.append((target, real, partial, what))
        try:
            write(partial)
        except OSError as err:
            raise LitqError(f"{target}: cannot write {what} ({err.strerror})") from None

    def move(self) -> None:
        """Move every file written into place."""
        for target, real, partial, what in self._staged:
            try:
                os.replace(partial, real)
            except OSError as err:
                raise LitqError(f"{target}: cannot write {what} ({err.strerror})") from None


def check_target(target: Path, project: str | Path | None = None) -> None:
    """Refuse (:class:`LitqError`) to export onto ``project``, its ``-wal``/``-shm``/
    ``-journal``/lock/backup files, a folder, a special file (a FIFO, a device: see
    :func:`~litqeval_gui.core.paths.output_file`) or any existing SQLite
    database."""
    real = output_file(target)
    if project is not None:
        home, there = Path(project).resolve(), real.resolve()
        name, project_name = there.name.casefold(), home.name.casefold()  # any file system
        if there.parent == home.parent and name.startswith(project_name) and \
                _SIDE_FILE.fullmatch(name[len(project_name):]):
            raise LitqError(f"{target}: refusing to export onto the project {project} or "
                            "one of its own files; choose another file name")
    try:
        with open(real, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError:
        return  # no such file (or unreadable: writing will say so)
    if head == SQLITE_HEADER:
        raise LitqError(f"{target} is an SQLite database (a LitQEval project?); refusing to "
                        "overwrite it with an export; choose another file name")


EXTENSIONS = {"ris": (".ris",), "csv": (".csv",), "bibtex": (".bib", ".bibtex"),
              "xlsx": (".xlsx",), "medline": (".nbib",), "endnote": (".xml",)}


def extension_warning(path: str | Path, fmt: str) -> str:
    """A warning when ``path``'s extension is not one of ``fmt``'s, else ``""``."""
    suffix = Path(path).suffix.lower()
    wanted = EXTENSIONS.get(fmt, ())
    if not wanted or suffix in wanted:
        return ""
    return (f"{path}: the extension {suffix or '(none)'!r} does not match the format {fmt} "
            f"(expected {' or '.join(wanted)}); reference managers may not recognise the file")


def _row(record: Record) -> dict[str, object]:
    """One record as export columns (lists joined with ``"; "``)."""
    row: dict[str, object] = {
        "title": record.title, "abstract": record.abstract,
        "authors": "; ".join(record.authors), "year": record.year or "",
        "venue": record.venue, "keywords": "; ".join(record.keywords), "type": record.type,
        "language": record.language, "doi": record.doi, "pmid": record.pmid}
    row.update({kind: record.ids.get(kind, "") for kind in OTHER_ID_KINDS})
    row.update({name: getattr(record, name) for name in BIBLIO_FIELDS})
    return row


def _table(records: list[Record], extra: list[Mapping[str, str]],
           headers: Mapping[str, str]) -> tuple[list[str], Iterator[dict[str, object]]]:
    """The column names and one row per record: the ``headers`` fields under their names,
    then the ``extra`` columns."""
    if extra and len(extra) != len(records):
        raise ValueError("extra needs one mapping per record")
    unknown = set(headers) - set(COLUMNS)
    if unknown:
        raise ValueError(f"headers name unknown fields: {', '.join(sorted(unknown))}")
    columns = [*headers.values(), *dict.fromkeys(key for row in extra for key in row)]
    rows = ({headers[f]: v for f, v in _row(record).items() if f in headers}
            | (dict(extra[index]) if extra else {}) for index, record in enumerate(records))
    return columns, rows


def _write_csv(records: list[Record], path: Path, extra: list[Mapping[str, str]],
               headers: Mapping[str, str]) -> int:
    columns, rows = _table(records, extra, headers)
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: escape_formula(v) if isinstance(v, str) else v
                             for k, v in row.items()})
    return len(records)


def _write_xlsx(records: list[Record], path: Path, extra: list[Mapping[str, str]],
                headers: Mapping[str, str]) -> int:
    columns, rows = _table(records, extra, headers)
    write_sheet(path, "records", [columns, *([row.get(c, "") for c in columns] for row in rows)])
    return len(records)


def write_sheet(path: Path, name: str, rows: Iterable[Sequence[object]]) -> None:
    """Write ``rows`` as sheet ``name`` of a new XLSX workbook at ``path``: numbers stay
    numbers; text is always a string cell, even when it starts with "=" (never a
    formula); characters XLSX cannot hold are dropped."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    with open(path, "wb") as handle:  # first: a failure here leaves no sheet half-written
        book = Workbook(write_only=True)
        sheet = book.create_sheet(name)

        def cell(value: object) -> object:
            if not isinstance(value, str):
                return value
            text = WriteOnlyCell(sheet, ILLEGAL_CHARACTERS_RE.sub("", value))
            text.data_type = "s"
            return text

        for row in rows:
            sheet.append([cell(value) for value in row])
        book.save(handle)


# --------------------------------------------------------------------------- spreadsheet formulas

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_ESCAPED_START = (*_FORMULA_START, "'")


def escape_formula(value: str) -> str:
    """``value`` with a ``'`` in front when a spreadsheet would read it as a formula: it
    starts with ``= + - @``, tab or CR (OWASP's CSV-injection advice) or a line feed
    (the importers read CR as one). A value that starts with ``'`` and then one of those
    or ``'`` gets one too, so that :func:`unescape_formula` inverts this exactly."""
    if value.startswith(_FORMULA_START) or (value[:1] == "'" and
                                            value[1:2] in _ESCAPED_START):
        return "'" + value
    return value


def unescape_formula(value: str) -> str:
    """Inverse of :func:`escape_formula` (the CSV importer reads cells through it)."""
    return value[1:] if value[:1] == "'" and value[1:2] in _ESCAPED_START else value
