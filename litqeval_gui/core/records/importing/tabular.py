"""CSV / TSV (csv module) and XLSX (openpyxl, read-only) exports with column mapping.

The header picks a :class:`~litqeval_gui.core.records.importing.layouts.Layout` (which database
wrote it) and maps columns to fields, with the user's ``mapping`` on top. A first row
with a single cell (Dimensions' "About the data: ...") is skipped before the header. A
generic ``id`` column is stored as the identifier kind its values show (ParseResult's
``recognised`` says so).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import re
import sys
import warnings
import zipfile
import zlib
from collections.abc import Generator, Iterable, Iterator

from litqeval_gui.core.errors import ImportRefused, UnknownLayoutError
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.exporting import unescape_formula
from litqeval_gui.core.records.importing.common import (
    PROGRESS_EVERY,
    Collector,
    ReadOptions,
    split_authors,
    split_list,
)
from litqeval_gui.core.records.importing.layouts import (
    FIELDS,
    GENERIC,
    ID_LABELS,
    choose_layout,
    infer_id_kind,
    map_columns,
)
from litqeval_gui.core.records.model import (
    OTHER_ID_KINDS,
    Record,
    normalise_id,
    page_range,
    parse_year,
)

__all__ = ["FIELDS", "read_text", "read_xlsx", "sniff_csv", "sniff_tsv"]
ID_SAMPLE_ROWS = 200  # rows whose generic id values decide the identifier kind

Rows = Iterator[tuple[int, list[str] | None]]  # (line, cells); None: an unclosed quote
_QUOTED = re.compile(r'"[^"]*"')


def header_index(lines: list[str]) -> int:
    """Index of the header row: a first line without delimiters (e.g. Dimensions'
    "About the data: ...") is skipped when the next line has them."""
    if len(lines) > 1 and delimiter_of(lines[0]) is None and delimiter_of(lines[1]):
        return 1
    return 0


def delimiter_of(line: str) -> str | None:
    """The most frequent of tab, comma and semicolon outside quotes in a header line,
    or ``None``."""
    line = _QUOTED.sub("", line)
    counts = {sep: line.count(sep) for sep in ("\t", ",", ";")}
    sep = max(counts, key=lambda s: (counts[s], s == "\t"))
    return sep if counts[sep] else None


def sniff_csv(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are a comma- or semicolon-separated table
    (the header's most frequent delimiter)."""
    return delimiter_of(lines[header_index(lines)]) in (",", ";")


def sniff_tsv(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are a tab-separated table."""
    return delimiter_of(lines[header_index(lines)]) == "\t"


def read_text(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse CSV or TSV ``text`` (``col.result.format``) into ``col``, with the user's
    ``options.mapping`` on top of the detected one."""
    lines = text.split("\n", 3)
    head = header_index(lines[:2])
    sep = delimiter_of(lines[head]) or ("\t" if col.result.format == "tsv" else ",")
    header_cells = {c.strip().lower() for c in lines[head].split(sep)}
    quoting = csv.QUOTE_NONE if sep == "\t" and {"pt", "ut"} <= header_cells else csv.QUOTE_MINIMAL
    csv.field_size_limit(sys.maxsize)
    reader = csv.reader(io.StringIO(text), delimiter=sep, quoting=quoting)
    total = text.count("\n") + 1

    def rows() -> Rows:
        start, last = 1, None  # the last row is held back: it may be an unclosed quote
        try:
            for row in reader:
                if last is not None:
                    yield last
                last = (start, row)
                start = reader.line_num + 1
        except csv.Error as err:
            raise ImportRefused(f"{col.result.path}: line {reader.line_num}: malformed "
                                f"{col.result.format.upper()} ({err})") from None
        if last is not None and quoting != csv.QUOTE_NONE and _unclosed(text, last[0], sep):
            col.result.notes.append(f"the file seems truncated or has a stray quote: from line "
                                    f"{last[0]} on it cannot be read")
            last = (last[0], None)
        if last is not None:
            yield last

    yield from _read_rows(rows(), col, options.mapping, total, unescape=True)


def _unclosed(text: str, line: int, sep: str) -> bool:
    """Whether the row starting at ``line`` ends inside a quoted value (at the end of
    ``text``), which the lenient reader would take up to the end of the file."""
    at = 0
    for _ in range(line - 1):
        at = text.index("\n", at) + 1
    try:
        next(csv.reader(io.StringIO(text[at:]), delimiter=sep, strict=True), None)
    except csv.Error as err:
        return "unexpected end of data" in str(err)
    return False


# openpyxl warns on stderr about parts it ignores; a problem reaches the user as a
# refusal or a rejected row instead
warnings.filterwarnings("ignore", category=UserWarning, module=r"openpyxl(\.|$)")

MAX_XLSX_UNPACKED = 768 * 2**20  # bytes all members of a workbook may unpack to
MAX_XLSX_RATIO = 100  # unpacked : packed, for members over 1 MiB
MAX_XLSX_MEMBERS = 10_000
# what openpyxl raises on a malformed workbook: bad zip or deflate data, broken XML
# (SyntaxError: xml.etree's ParseError, or lxml's XMLSyntaxError when lxml is installed),
# a missing part, values it cannot convert (dates, numbers)
_XLSX_ERRORS = (zipfile.BadZipFile, zlib.error, SyntaxError, KeyError, IndexError,
                ValueError, TypeError, OverflowError, AttributeError, EOFError, OSError)


def check_archive(path: str) -> None:
    """Refuse a zip whose declared unpacked size, ratio or member count is beyond sane
    limits, before anything is unpacked (``zipfile`` never unpacks a member beyond its
    declared size, so the declared sizes bound the actual ones)."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as err:
        raise ImportRefused(f"{path}: cannot open as an Excel workbook ({err})") from None
    if len(members) > MAX_XLSX_MEMBERS:
        raise ImportRefused(f"{path}: the workbook has {len(members):,} parts "
                            f"(limit {MAX_XLSX_MEMBERS:,}); refused as a zip bomb")
    unpacked = sum(m.file_size for m in members)
    if unpacked > MAX_XLSX_UNPACKED:
        raise ImportRefused(f"{path}: the workbook unpacks to {unpacked / 2**20:,.0f} MiB "
                            f"(limit {MAX_XLSX_UNPACKED // 2**20} MiB); refused as a zip bomb")
    for m in members:
        if m.file_size > 2**20 and m.file_size > MAX_XLSX_RATIO * max(m.compress_size, 1):
            raise ImportRefused(f"{path}: part {m.filename[:60]!r} unpacks "
                                f"{m.file_size // max(m.compress_size, 1):,} times its size "
                                f"(limit {MAX_XLSX_RATIO}); refused as a zip bomb")


def read_xlsx(path: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse the first worksheet of the ``.xlsx`` workbook at ``path`` into ``col``, with
    ``options.mapping`` on top of the detected one; a malformed workbook is refused as a
    whole."""
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    check_archive(path)
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, *_XLSX_ERRORS) as err:
        raise ImportRefused(f"{path}: cannot open as an Excel workbook "
                            f"({type(err).__name__}: {str(err)[:120]})") from None
    try:
        if not book.worksheets:
            raise ImportRefused(f"{path}: the workbook has no worksheet")
        sheet = book.worksheets[0]
        total = sheet.max_row or 0
        rows = ((i, [_cell(v) for v in row])
                for i, row in enumerate(sheet.iter_rows(values_only=True), start=1))
        yield from _read_rows(rows, col, options.mapping, total)
    except _XLSX_ERRORS as err:
        raise ImportRefused(f"{path}: the workbook is damaged "
                            f"({type(err).__name__}: {str(err)[:120]})") from None
    finally:
        book.close()


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    return str(value)


_UNCLOSED = ("a quoted value starting in this row is never closed, so the rest of the "
             "file cannot be read (truncated file or stray quote)")


def _read_rows(rows: Rows, col: Collector, mapping: dict[str, str] | None, total: int, *,
               unescape: bool = False) -> Generator[Progress, None, None]:
    """Rows → records; ``unescape`` undoes the exporter's formula escaping (CSV/TSV)."""
    header, rows = _header(rows, col.result.path)
    layout = choose_layout(header)
    columns = map_columns(header, layout, mapping)
    if not mapping and "title" not in columns and "abstract" not in columns:
        raise UnknownLayoutError(col.result.path, header)
    if layout is GENERIC and "docid" in columns and "docid" not in (mapping or {}):
        head = list(itertools.islice(rows, ID_SAMPLE_ROWS))
        rows = itertools.chain(head, rows)
        _infer_id_column(columns, header, head, col)
    col.result.database = layout.database
    col.result.columns = {fld: header[i] for fld, i in columns.items()}
    number = 0
    for line, row in rows:
        if row is not None and not any(cell.strip() for cell in row):
            continue
        number += 1
        if row is None:
            col.reject(number, line, _UNCLOSED)
        else:
            record = _record(row, header, columns, layout.sep, line, unescape)
            at = columns.get("year")
            if col.add(record, number) and at is not None and at < len(row):
                col.check_year(record, number, header[at], row[at])
        if col.full:
            return
        if number % PROGRESS_EVERY == 0:
            yield col.progress(line, total, "reading table rows")


def _infer_id_column(columns: dict[str, int], header: list[str],
                     head: list[tuple[int, list[str] | None]], col: Collector) -> None:
    """Store the generic id column as the identifier kind its values show (if any)."""
    at = columns["docid"]
    values = [row[at] for _, row in head if row is not None and at < len(row)]
    kind = infer_id_kind(values)
    if kind != "docid" and kind not in columns:
        columns[kind] = columns.pop("docid")
        example = next(v.strip() for v in values if v.strip())
        col.result.recognised.append(f"column {header[at]!r} holds {ID_LABELS[kind]} "
                                     f"(e.g. {example})")


def _header(rows: Rows, path: str) -> tuple[list[str], Rows]:
    """The header row and the rows after it; one leading single-cell row (a title line)
    is skipped when the next row has more cells."""
    first = next(rows, None)
    if first is None:
        raise ImportRefused(f"{path}: the table is empty")
    line, header = first
    if header is None:
        raise ImportRefused(f"{path}: line {line}: the header row has a quoted value that "
                            "is never closed")
    if sum(1 for c in header if c.strip()) <= 1:
        second = next(rows, None)
        if second is not None and second[1] is not None and sum(
                1 for c in second[1] if c.strip()) > 1:
            header = second[1]
        elif second is not None:  # a one-column table: the second row is data
            rows = itertools.chain([second], rows)
    header = [c.strip().lstrip("\ufeff") for c in header]
    while header and not header[-1]:
        header.pop()
    return header, rows


def _record(row: list[str], header: list[str], columns: dict[str, int], sep: str,
            line: int, unescape: bool = False) -> Record:
    width = len(row)
    cells = {fld: row[i] for fld, i in columns.items() if i < width}
    if unescape:  # a cell that starts with ' may be the exporter's formula escape
        cells = {fld: unescape_formula(text) if text[:1] == "'" else text
                 for fld, text in cells.items()}

    def cell(fld: str) -> str:
        return cells.get(fld, "").strip()

    authors = cell("authors")
    if sep == ",":  # PubMed CSV: "Smith J, Doe A."
        authors = authors.rstrip(".")
    ids = {kind: normalise_id(kind, value) for kind in OTHER_ID_KINDS
           if kind in columns and (value := cell(kind))}
    volume, issue, pages = cell("volume"), cell("issue"), page_range(cell("pages"),
                                                                    cell("page_end"))
    if "citation" in columns and not (volume or issue or pages):
        volume, issue, pages = _citation_parts(cell("citation"))
    return Record(
        title=cell("title"),
        abstract=cell("abstract"),
        authors=split_list(authors, sep) if "," in sep else split_authors(authors, sep),
        year=parse_year(cell("year")),
        venue=cell("venue"),
        keywords=split_list(cell("keywords"), sep),
        type=cell("type"),
        language=cell("language"),
        doi=normalise_id("doi", cell("doi")),
        pmid=normalise_id("pmid", cell("pmid")),
        ids={k: v for k, v in ids.items() if v},
        volume=volume,
        issue=issue,
        pages=pages or cell("article_no"),
        publisher=cell("publisher"),
        issn=cell("issn"),
        url=cell("url"),
        raw=_raw(header, row),
        source_line=line,
    )


_CITATION = re.compile(r";\s*([^;:()]*?)\s*(?:\(([^)]*)\))?\s*:\s*([^;\s]+?)\.?(?:\s|$)")


def _citation_parts(citation: str) -> tuple[str, str, str]:
    """(volume, issue, pages) of a PubMed citation "BMJ. 2021 Mar 29;372(8):n71. doi: …"."""
    match = _CITATION.search(citation)
    return (match.group(1), match.group(2) or "", match.group(3)) if match else ("", "", "")


def _raw(header: Iterable[str], row: list[str]) -> dict[str, str]:
    return {name: value for name, value in zip(header, row, strict=False) if name and value}
