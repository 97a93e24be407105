"""Export records as RIS, CSV, BibTeX or XLSX that the importers read back unchanged.

Round trip kept: title, abstract, authors, year, venue, keywords, type, language, DOI,
PMID and the other identifiers. RIS has no tags for most identifiers, so they are
written as ``N1  - <kind>: <value>`` notes; RIS values are single lines (line breaks
inside a value become spaces). BibTeX text values are LaTeX-encoded (identifiers verbatim); a type that is not a
BibTeX entry type name (e.g. RIS ``JOUR``) is written as ``@misc`` with ``type``.
The file is written next to its target and moved into place when complete.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records import OTHER_ID_KINDS, Record

EXPORT_FORMATS = ("ris", "csv", "bibtex", "xlsx")
COLUMNS = ("title", "abstract", "authors", "year", "venue", "keywords", "type", "language",
           "doi", "pmid", *OTHER_ID_KINDS)
_BIBTEX_TYPE = re.compile(r"^[a-z]+$")


def export_records(records: Iterable[Record], path: str | Path, fmt: str) -> int:
    """Write ``records`` to ``path`` in ``fmt`` (ris|csv|bibtex|xlsx); returns the count."""
    writers = {"ris": _write_ris, "csv": _write_csv, "bibtex": _write_bibtex,
               "xlsx": _write_xlsx}
    if fmt not in writers:
        raise LitqError(f"cannot export as {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        count = writers[fmt](list(records), partial)
        os.replace(partial, target)
    except OSError as err:
        raise LitqError(f"{target}: cannot write the export ({err.strerror})") from None
    finally:
        partial.unlink(missing_ok=True)
    return count


def _row(record: Record) -> dict[str, object]:
    """One record as export columns (lists joined with ``"; "``)."""
    row: dict[str, object] = {
        "title": record.title, "abstract": record.abstract,
        "authors": "; ".join(record.authors), "year": record.year or "",
        "venue": record.venue, "keywords": "; ".join(record.keywords), "type": record.type,
        "language": record.language, "doi": record.doi, "pmid": record.pmid}
    row.update({kind: record.ids.get(kind, "") for kind in OTHER_ID_KINDS})
    return row


def _write_csv(records: list[Record], path: Path) -> int:
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(_row(r) for r in records)
    return len(records)


def _write_xlsx(records: list[Record], path: Path) -> int:
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    book = Workbook(write_only=True)
    sheet = book.create_sheet("records")
    sheet.append(COLUMNS)
    for record in records:
        row = _row(record)
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v
                      for v in (row[c] for c in COLUMNS)])
    book.save(path)
    return len(records)


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _write_ris(records: list[Record], path: Path) -> int:
    import rispy

    entries = []
    for record in records:
        entry: dict[str, object] = {"type_of_reference": record.type or "GEN"}
        for key, value in (("title", record.title), ("abstract", record.abstract),
                           ("secondary_title", record.venue), ("doi", record.doi),
                           ("language", record.language)):
            if value:
                entry[key] = _one_line(value)
        if record.year:
            entry["year"] = str(record.year)
        if record.authors:
            entry["authors"] = [_one_line(a) for a in record.authors]
        if record.keywords:
            entry["keywords"] = [_one_line(k) for k in record.keywords]
        notes = [f"{kind}: {value}" for kind, value in record.identifiers() if kind != "doi"]
        if notes:
            entry["notes"] = notes
        entries.append(entry)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        rispy.dump(entries, handle)
    return len(records)


def _keyword_list(keywords: list[str]) -> str:
    """Keywords joined by ``"; "`` (a lone keyword with a comma gets a final ``;`` so the
    importer does not split it at the comma)."""
    joined = "; ".join(keywords)
    return f"{joined};" if len(keywords) == 1 and "," in joined else joined


def _latex_encoder():
    from pylatexenc.latexencode import (
        RULE_DICT,
        UnicodeToLatexConversionRule,
        UnicodeToLatexEncoder,
    )

    keep_quotes = UnicodeToLatexConversionRule(RULE_DICT, {ord('"'): '"'})
    return UnicodeToLatexEncoder(conversion_rules=[keep_quotes, "defaults"],
                                 replacement_latex_protection="braces-all")


def _write_bibtex(records: list[Record], path: Path) -> int:
    import bibtexparser
    from bibtexparser import model
    from bibtexparser.middlewares import default_unparse_stack

    latex = _latex_encoder().unicode_to_latex
    library = bibtexparser.Library()
    for number, record in enumerate(records, start=1):
        entry_type = record.type if _BIBTEX_TYPE.match(record.type or "") else "misc"
        text = {
            "title": record.title, "abstract": record.abstract,
            "author": " and ".join(record.authors), "year": str(record.year or ""),
            "journal": record.venue, "keywords": _keyword_list(record.keywords),
            "language": record.language,
            "type": record.type if entry_type != record.type else "",
        }
        ids = {"doi": record.doi, "pmid": record.pmid,
               **{kind: record.ids.get(kind, "") for kind in OTHER_ID_KINDS}}
        fields = [model.Field(k, latex(_one_line(v))) for k, v in text.items() if v]
        fields += [model.Field(k, v) for k, v in ids.items() if v]
        library.add(model.Entry(entry_type, f"rec{number}", fields))
    # the library is thrown away after writing: no need for the default stack's deep copy
    stack = default_unparse_stack(allow_inplace_modification=True)
    Path(path).write_text(bibtexparser.write_string(library, unparse_stack=stack),
                          encoding="utf-8")
    return len(records)
