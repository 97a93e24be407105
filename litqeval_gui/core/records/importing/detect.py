"""Format and encoding detection from a file's content (its first 64 KiB), not its name."""

from __future__ import annotations

import re
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.records.importing.common import sniff_encoding

HEAD_BYTES = 64 * 1024
_ZIP = b"PK\x03\x04"
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_GZIP = b"\x1f\x8b"
_BIBTEX_START = re.compile(r"\s*@\s*[A-Za-z]+\s*[{(]")
_QUOTED = re.compile(r'"[^"]*"')
_INT = re.compile(r"-?\d+")
_FLOAT = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
KNOWN = "RIS, BibTeX, CSV, TSV, XLSX, PubMed/MEDLINE, TREC run or qrels"


def detect(path: str | Path) -> tuple[str, str]:
    """``(format, encoding)`` of ``path`` judged by content; reads only the head.

    Raises :class:`ImportRefused` for a missing, empty, binary or unrecognised file.
    """
    fmt, encoding = inspect(path)
    if fmt is None:
        raise ImportRefused(f"{path}: not a recognised export format (expected {KNOWN})")
    return fmt, encoding


def inspect(path: str | Path) -> tuple[str | None, str]:
    """Like :func:`detect` but returns ``(None, encoding)`` for readable text of unknown
    format, so that an explicitly requested format can still be tried."""
    head, complete = _read_head(path)
    if not head.strip():
        raise ImportRefused(f"{path}: the file is empty")
    if head.startswith(_ZIP):
        return "xlsx", "xlsx"
    if head.startswith(_OLE2):
        raise ImportRefused(f"{path}: this is an old binary Excel (.xls) workbook; "
                            "save it as .xlsx or CSV and import that")
    if head.startswith(_GZIP):
        raise ImportRefused(f"{path}: this file is gzip-compressed; decompress it first")
    if Path(path).suffix.lower() in (".xlsx", ".xlsm"):
        raise ImportRefused(f"{path}: named like an Excel workbook but it is not one "
                            "(not a zip archive); was it renamed from another format?")
    encoding = sniff_encoding(head, str(path), complete=complete)
    text = head.decode("utf-8" if encoding == "utf-8-sig" else encoding, errors="ignore")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ImportRefused(f"{path}: the file is empty")
    return sniff_format(text, str(path)), encoding


def _read_head(path: str | Path) -> tuple[bytes, bool]:
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES + 1)
    except FileNotFoundError:
        raise ImportRefused(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImportRefused(f"{path}: is a folder, not a file") from None
    except OSError as err:
        raise ImportRefused(f"{path}: cannot read the file ({err.strerror})") from None
    return head[:HEAD_BYTES], len(head) <= HEAD_BYTES


def sniff_format(text: str, path: str = "") -> str | None:
    """The text format of a decoded file head, or ``None``."""
    lines = [line for line in text.split("\n", 2000)[:2000] if line.strip()][:40]
    if not lines:
        return None
    if any(line.startswith("TY  -") for line in lines):
        return "ris"
    if any(line.startswith("PMID-") for line in lines):
        return "medline"
    if any(_BIBTEX_START.match(line) for line in lines):
        return "bibtex"
    if lines[0].startswith("FN ") and any(line.startswith("PT ") for line in lines):
        raise ImportRefused(f"{path}: this is Web of Science plain-text format; export "
                            "'Tab delimited file' or RIS instead")
    trec = _sniff_trec(lines[:10])
    if trec:
        return trec
    return _sniff_table(lines)


def _sniff_trec(lines: list[str]) -> str | None:
    rows = [line.split() for line in lines]
    if all(len(r) == 6 and _INT.fullmatch(r[3]) and _FLOAT.fullmatch(r[4]) for r in rows):
        return "trec-run"
    if all(len(r) == 4 and _INT.fullmatch(r[3]) and _INT.fullmatch(r[1]) for r in rows):
        return "qrels"
    return None


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


def _sniff_table(lines: list[str]) -> str | None:
    sep = delimiter_of(lines[header_index(lines)])
    if sep is None:
        return None
    return "tsv" if sep == "\t" else "csv"
