"""Pieces every importer shares: the result type, decoding, identifier sniffing and
the :class:`Collector` that validates, filters, ranks and counts records.
"""

from __future__ import annotations

import codecs
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.records.model import (
    DIMENSIONS_ID,
    MAX_FIELD_CHARS,
    OTHER_ID_KINDS,
    PUBMED_URL,
    Record,
    RejectedRecord,
    normalise_id,
)

PROGRESS_EVERY = 2000  # records between progress reports (and cancel checks)
MAX_FIELD_NOTES = 20  # unreadable fields named one by one in an import's notes


@dataclass
class ParseResult:
    """Everything one import read from one file; the pipeline stores it in one transaction."""

    path: str
    format: str
    encoding: str
    database: str = ""
    records: list[Record] = field(default_factory=list)
    rejected: list[RejectedRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)
    topics: list[str] = field(default_factory=list)
    recognised: list[str] = field(default_factory=list)  # what was inferred, for the preview
    unreadable: list[str] = field(default_factory=list)  # fields not read (notes when done)


@dataclass(frozen=True)
class ReadOptions:
    """What a reader may use beyond its source and collector: the user's column
    ``mapping`` of a table (field -> column) and the ``topic`` kept of a TREC file."""

    mapping: dict[str, str] | None = None
    topic: str | None = None


NO_OPTIONS = ReadOptions()

# --------------------------------------------------------------------------- decoding

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


def sniff_encoding(head: bytes, path: str, *, complete: bool) -> str:
    """Encoding of a file from its first bytes: BOM, else UTF-8, else cp1252.

    Raises :class:`ImportRefused` for binary content (NUL bytes without a UTF-16 BOM).
    ``complete`` says ``head`` is the whole file (so a cut multi-byte character is an error).
    """
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    if b"\x00" in head:
        raise ImportRefused(f"{path}: this is a binary file (it contains NUL bytes), "
                            "not a text export")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=complete)
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1252"


def decode(data: bytes, encoding: str, path: str) -> tuple[str, str, list[str]]:
    """``(text, encoding actually used, notes)``; newlines normalised to ``\\n``.

    A file that is not valid UTF-8 falls back to cp1252 with a note; bytes that are
    not text in any of these encodings refuse the import.
    """
    notes: list[str] = []
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        if encoding != "utf-8":
            raise ImportRefused(f"{path}: cannot decode the file as {encoding} "
                                f"(byte {err.start}); is it a binary file?") from None
        encoding = "cp1252"
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            raise ImportRefused(f"{path}: the file is neither UTF-8 nor cp1252 text "
                                f"(undecodable byte at offset {err.start})") from None
    if encoding == "cp1252":
        notes.append("not valid UTF-8: decoded as cp1252 (Windows Western European); "
                     "check accented characters")
    if "\x00" in text:
        raise ImportRefused(f"{path}: this is a binary file (it contains NUL characters)")
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, encoding, notes


# --------------------------------------------------------------------------- identifiers

# (lower-case marker that must occur, kind, pattern): the marker test keeps sniffing cheap
_SNIFFERS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("wos:", "wos_ut", re.compile(r"\bWOS:([A-Z0-9]{15})\b", re.IGNORECASE)),
    ("2-s2.0-", "scopus_eid", re.compile(r"\b(2-s2\.0-\d{6,})")),
    ("pmc", "pmcid", re.compile(r"\b(PMC\d{3,})\b", re.IGNORECASE)),
    ("openalex.org/", "openalex", re.compile(r"openalex\.org/(W\d+)", re.IGNORECASE)),
    ("pub.", "dimensions", DIMENSIONS_ID),
    ("lens.org/", "lens",
     re.compile(r"lens\.org/(?:lens/scholar/article/)?(\d{3}-\d{3}-\d{3}-\d{3}-\d{3})")),
    ("pubmed", "pmid", PUBMED_URL),
    ("doi.org/", "doi", re.compile(r"doi\.org/(10\.\d{4,9}/\S+)", re.IGNORECASE)),
)


_RECHECK = frozenset({"doi", "pmid", "pmcid", "wos_ut"})  # the others match canonical


def sniff_ids(value: str) -> dict[str, str]:
    """Identifiers recognisable in a free string (accession number, URL, note)."""
    found: dict[str, str] = {}
    low = value.lower()
    for marker, kind, pattern in _SNIFFERS:
        at = low.find(marker)
        if at >= 0:
            match = pattern.search(value, max(0, at - 30))
            if match:
                value_id = normalise_id(kind, match.group(1)) if kind in _RECHECK else match[1]
                if value_id:
                    found[kind] = value_id
    return found


def split_list(value: str, seps: str = ";") -> list[str]:
    """Non-empty stripped items of ``value`` split on any character of ``seps``."""
    if not value:
        return []
    parts = re.split("[" + re.escape(seps) + "]", value) if len(seps) > 1 else value.split(seps)
    return [p.strip() for p in parts if p.strip()]


def split_authors(value: str, seps: str = ";") -> list[str]:
    """An authors cell as a list: split on ``seps`` (``;``) always; on ``,`` only when the
    cell has none of them and every piece looks like a whole name (two words or more, the
    first capitalised: "Jane Smith", "Smith J"), so "Smith, J." or "van der Berg, Jan
    Peter" stays one author."""
    if any(sep in value for sep in seps):
        return split_list(value, seps)
    pieces = split_list(value, ",")
    if len(pieces) > 1 and all(len(p.split()) >= 2 and p[:1].isupper() for p in pieces):
        return pieces
    return [value.strip()] if value.strip() else []


def dedupe(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, first occurrence kept."""
    return list(dict.fromkeys(i for i in items if i))


# --------------------------------------------------------------------------- text cleaning

# Formatting that publishers leave in titles and abstracts (Dimensions, Crossref JATS):
# "<i>P</i> &lt; .001". Only these tags are dropped, so "a <b" or "<5 mm" stay; a
# paragraph or line break becomes a space.
_INLINE_TAGS = re.compile(r"</?(?:(i|b|u|a|em|strong|sup|sub|sc|scp|span|jats:[a-z]+)"
                          r"|p|br|abstracttext)(?:\s[^<>]{0,200})?\s*/?>", re.IGNORECASE)
# A complete character reference: a named entity, decimal or hex, with its semicolon.
# Python's html.unescape alone would also read legacy names without one ("&notably").
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def clean_text(value: str) -> str:
    """``value`` with inline HTML formatting tags dropped and HTML character references
    ("&amp;", "&#x27;", "&lt;") decoded, once: the result is not decoded again, so
    "&amp;lt;" gives "&lt;". Text without ``&`` or ``<`` is returned as it is."""
    if "&" not in value and "<" not in value:
        return value
    if "<" in value:
        value = _INLINE_TAGS.sub(lambda m: "" if m[1] else " ", value).strip()
    return _ENTITY.sub(lambda m: html.unescape(m[0]), value)


def clean_record(record: Record) -> None:
    """Decode the display text of ``record`` (title, abstract, venue, authors, keywords)
    with :func:`clean_text`; ``raw`` keeps the file's values."""
    record.title = clean_text(record.title)
    record.abstract = clean_text(record.abstract)
    record.venue = clean_text(record.venue)
    record.authors = [clean_text(a) for a in record.authors]
    record.keywords = [clean_text(k) for k in record.keywords]


# --------------------------------------------------------------------------- collecting

_TEXT_FIELDS = ("title", "abstract", "venue")
NOTHING = "no title, no abstract and no identifier (DOI, PMID or id)"


def filter_values(record: Record, key: str) -> list[str]:
    """The values ``where`` compares for ``key``: an identifier kind, a Record field or
    else a raw field (name case-insensitive); a list field gives its items."""
    if key in OTHER_ID_KINDS:
        value: object = record.ids.get(key, "")
    elif key in Record.__dataclass_fields__ and key != "raw":
        value = getattr(record, key)
    else:
        folded = key.casefold()
        value = next((v for k, v in record.raw.items() if k.casefold() == folded), "")
    items = value if isinstance(value, list) else [value]
    return ["" if item is None else str(item).strip() for item in items]


def filter_keys(record: Record, key: str) -> set[str]:
    """The case-folded values a ``where`` filter on ``key`` keeps ``record`` for: each of
    its values and each item it lists (``,``/``;``)."""
    keys: set[str] = set()
    for text in filter_values(record, key):
        keys.add(text.casefold())
        keys.update(p.strip().casefold() for p in re.split("[,;]", text))
    return keys


def _matches(record: Record, key: str, wanted: str) -> bool:
    """Whether ``record``'s ``key`` equals or lists (``,``/``;``) ``wanted``, ignoring case."""
    return wanted.strip().casefold() in filter_keys(record, key)


class Collector:
    """Validates candidate records in file order into a :class:`ParseResult`.

    A record with nothing to screen or find it by — no title, no abstract and no
    identifier (unless ``need_content`` is false) — or with an absurdly long field is
    rejected; one with an identifier but no text is kept (a "no text" record: it is
    screened by what it has, see :func:`~litqeval_gui.core.records.model.Record.has_text`).
    ``where`` filters; ``limit`` stops early; ranks are 1-based positions among
    accepted records unless the format sets them.
    """

    def __init__(self, result: ParseResult, *, where: dict[str, str] | None = None,
                 limit: int | None = None, token: CancelToken = NEVER,
                 need_content: bool = True, keep_rank: bool = False) -> None:
        self.result = result
        self.where = dict(where or {})
        self.limit = limit
        self.token = token
        self.need_content = need_content
        self.keep_rank = keep_rank
        self.filtered_out = 0
        self.accepted = 0  # records accepted so far (also those of a part parsed elsewhere)
        self.textless = 0  # of them without title and abstract (also of such a part)
        self._where_values: dict[str, list[str]] = {}

    @property
    def full(self) -> bool:
        return self.limit is not None and self.accepted >= self.limit

    def unreadable(self, number: int, line: int | None, name: str, value: object) -> None:
        """Note a field of an accepted record that could not be read (:meth:`finish`
        names the first :data:`MAX_FIELD_NOTES` in the notes and counts the others)."""
        where = f"record {number}" + (f" (line {line})" if line else "")
        self.result.unreadable.append(f"{where}: field {name} {str(value)[:80]!r} could not "
                                      "be read; the record was kept without it")

    def reject(self, number: int, line: int | None, reason: str, title: str = "") -> None:
        self.result.rejected.append(RejectedRecord(number, line, reason, title[:200]))

    def add(self, record: Record, number: int) -> bool:
        """Accept, reject or filter out ``record`` (its 1-based ``number`` in the file);
        whether it was accepted. Its text is decoded first (:func:`clean_record`)."""
        clean_record(record)
        problem = self._problem(record)
        if problem:
            self.reject(number, record.source_line, problem, record.title)
            return False
        if self.where and not self._keep(record):
            self.filtered_out += 1
            return False
        self.accepted += 1
        self.textless += not record.has_text()
        if not self.keep_rank:
            record.rank = self.accepted
        self.result.records.append(record)
        return True

    def check_year(self, record: Record, number: int, name: str, value: object) -> None:
        """Note ``value`` of field ``name`` when it held something but no year."""
        if record.year is None and value and str(value).strip():
            self.unreadable(number, record.source_line, name, value)

    def _problem(self, record: Record) -> str:
        if self.need_content and not (record.has_text() or record.identifiers()):
            return NOTHING
        if max(len(record.title), len(record.abstract), len(record.venue)) > MAX_FIELD_CHARS:
            name = next(n for n in _TEXT_FIELDS if len(getattr(record, n)) > MAX_FIELD_CHARS)
            size = len(getattr(record, name))
            return (f"the {name} is absurdly long ({size:,} characters; "
                    f"the limit is {MAX_FIELD_CHARS:,})")
        size = sum(map(len, record.authors)) + sum(map(len, record.keywords))
        if size > MAX_FIELD_CHARS:
            return f"the author/keyword lists are absurdly long ({size:,} characters)"
        return ""

    def _keep(self, record: Record) -> bool:
        for key, value in self.where.items():
            if not _matches(record, key, value):
                self._remember(record, key)
                return False
        return True

    def _remember(self, record: Record, key: str) -> None:
        known = self._where_values.setdefault(key, [])
        if len(known) < 20:
            for text in filter_values(record, key):
                known.extend(i for i in split_list(text, ",;") if i not in known)

    def progress(self, done: int, total: int, message: str) -> Progress:
        """A progress report; also the point where cancellation is honoured."""
        self.token.raise_if_cancelled()
        return Progress(done, total, message)

    def finish(self) -> ParseResult:
        """The result, or :class:`ImportRefused` when no record is usable."""
        result = self.result
        result.notes.extend(result.unreadable[:MAX_FIELD_NOTES])
        if len(result.unreadable) > MAX_FIELD_NOTES:
            result.notes.append(f"… and {len(result.unreadable) - MAX_FIELD_NOTES} more "
                                "fields that could not be read")
        if self.filtered_out:
            shown = ", ".join(f"{k}={v!r}" for k, v in self.where.items())
            result.notes.append(f"{self.filtered_out} record(s) left out by the filter {shown}")
        if self.textless and self.need_content:
            result.notes.append(f"{self.textless} record(s) without title or abstract kept by "
                                "their identifiers (screened by what they have, ranked last)")
        if self.accepted:
            if result.rejected:  # each one is listed with its reason in ``rejected``
                result.notes.append(f"{len(result.rejected)} record(s) rejected")
            return result
        if result.rejected:
            first = "; ".join(r.describe(result.path) for r in result.rejected[:3])
            raise ImportRefused(f"{result.path}: no usable records; first problems: {first}")
        if self.filtered_out:
            shown = ", ".join(f"{k}={v!r}" for k, v in self.where.items())
            values = "; ".join(f"{k}: {', '.join(map(repr, v[:20]))}"
                               for k, v in self._where_values.items() if v)
            raise ImportRefused(f"{result.path}: no record matches {shown}"
                                + (f" (values found: {values})" if values else ""))
        raise ImportRefused(f"{result.path}: no records found in this {result.format} file")
