"""RIS (EndNote, Zotero, Scopus, Web of Science, ...) through rispy.

The text is cut at ``ER  -`` lines into chunks of whole records, each chunk parsed by
``rispy.loads`` with tag-preserving keys (so ``Record.raw`` holds the original tags),
and each dict converted by one tight function.
"""

from __future__ import annotations

import re
from collections.abc import Generator

import rispy

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import (
    NO_OPTIONS,
    Collector,
    ReadOptions,
    dedupe,
    sniff_ids,
)
from litqeval_gui.core.records.model import (
    OTHER_ID_KINDS,
    Record,
    normalise_doi,
    normalise_id,
    page_range,
    parse_year,
)

_END = re.compile(r"\nER  -[^\n]*\n?")  # (not MULTILINE ``^``: that is 9x slower)
_START = re.compile(r"^TY  -", re.MULTILINE)
_NOTE_PMID = re.compile(r"\b(?:PubMed ID|PMID)\s*:\s*(\d+)", re.IGNORECASE)
_NOTE_ID = re.compile(r"^(" + "|".join(OTHER_ID_KINDS) + r")\s*:\s*(\S.*)$")
_VENUE_TAGS = ("JF", "T2", "JO", "JA", "J2")
_YEAR_TAGS = ("PY", "Y1", "DA")  # the first present gives the year
_DATABASES = (("scopus", "scopus"), ("web of science", "wos"), ("clarivate", "wos"),
              ("pubmed", "pubmed"), ("nlm", "pubmed"), ("medline", "pubmed"),
              ("dimensions", "dimensions"), ("openalex", "openalex"), ("lens", "lens"))
PUBMED_HINT = ("pubmed", "nlm", "medline")  # a source naming one of these is PubMed


class _TagKeys(dict):
    """rispy mapping that keeps every tag as its own key (``raw`` = the original tags)."""

    def __missing__(self, key: str) -> str:
        return key


_LIST_TAGS = frozenset(("A1", "A2", "A3", "A4", "AU", "KW", "N1", "UR"))  # rispy only tests ``in``
_PARSER_OPTIONS = {"mapping": _TagKeys(), "list_tags": _LIST_TAGS}


_END_BYTES = re.compile(_END.pattern.encode())


def record_ends(text: str | bytes, start: int = 0) -> list[int]:
    """Offsets just after each ``ER`` line of ``text`` (or of bytes of an ASCII-compatible
    encoding) from ``start`` on."""
    pattern = _END if isinstance(text, str) else _END_BYTES
    return [m.end() for m in pattern.finditer(text, start)]


_TAG_LINE = re.compile(r"^(TY|ER)  -", re.MULTILINE)
_TAG_LINE_BYTES = re.compile(_TAG_LINE.pattern.encode(), re.MULTILINE)


def count_records(text: str | bytes, start: int, end: int, ers: int) -> int:
    """How many records :func:`read` finds in ``text[start:end]``, a part ending with its
    ``ers``-th ER line: one per TY line, plus one per ER line without a TY line before it
    (``ers`` when every record has both, the cheap common case)."""
    ty, newline = ("TY  -", "\n") if isinstance(text, str) else (b"TY  -", b"\n")
    if text.count(newline + ty, start, end) + text.startswith(ty, start) == ers:
        return ers
    count, open_record = 0, False
    pattern = _TAG_LINE if isinstance(text, str) else _TAG_LINE_BYTES
    for match in pattern.finditer(text, start, end):
        is_ty = match.group(1) in ("TY", b"TY")
        count += is_ty or not open_record
        open_record = is_ty
    return count


def sniff(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are RIS: one starts with ``TY  -``."""
    return any(line.startswith("TY  -") for line in lines)


def read(text: str, col: Collector, options: ReadOptions = NO_OPTIONS, *, first_line: int = 1,
         first_number: int = 0) -> Generator[Progress, None, None]:
    """Parse RIS ``text`` into ``col`` (``options`` are not used: RIS has no choices).

    A record whose ``ER`` line is missing but is followed by another ``TY`` line is read
    up to there, with a note; an unfinished last record (no ER before the end of the
    file) is rejected; an ER line without a TY line is rejected.
    ``first_line`` / ``first_number`` are the file's line and record number where
    ``text`` starts (for a part of a file parsed on its own).
    """
    ends = record_ends(text)
    total = len(ends)
    step = max(200, min(2000, total // 100))
    line, counted = first_line, 0  # line number at text offset ``counted``
    number = first_number

    def take(pieces: list[_Piece]) -> None:
        nonlocal line, counted, number
        for at, data, ended in pieces:
            number += 1
            line += text.count("\n", counted, at)
            counted = at
            if data is None:
                col.reject(number, line, _NO_TY)
            elif isinstance(data, str):
                col.reject(number, line, data)
            elif ended is None:
                col.reject(number, line, "incomplete record: the file ends before its "
                           "'ER  -' line")
                col.result.notes.append("the file seems truncated: its last record has no "
                                        "'ER  -' line")
            else:
                if not ended:
                    col.result.notes.append(f"record {number} (line {line}) has no 'ER  -' "
                                            "line; it was read up to the next 'TY  -' line")
                record = to_record(data, line)
                if col.add(record, number) and record.year is None:
                    tag = next((t for t in _YEAR_TAGS if data.get(t)), "PY")
                    col.check_year(record, number, tag, data.get(tag))
            if col.full:
                return

    for first in range(0, total, step):
        chunk_ends = ends[first:first + step]
        start = ends[first - 1] if first else 0
        dicts = _loads(text[start:chunk_ends[-1]])
        bounds = list(zip([start, *chunk_ends[:-1]], chunk_ends, strict=True))
        pieces = []
        if dicts is not None and len(dicts) == len(chunk_ends) == _starts(text, start,
                                                                          chunk_ends[-1]):
            pieces = [(text.find("TY  -", a, b), data, True)
                      for (a, b), data in zip(bounds, dicts, strict=True)]
        if not pieces or min(at for at, _, _ in pieces) < 0:
            # a stray ER, a missing TY or ER, an untagged line: record by record
            pieces = [piece for a, b in bounds for piece in _segment(text, a, b)]
        if not first:
            col.result.database = database_of([data for _, data, _ in pieces[:20]
                                             if isinstance(data, dict)])
        take(pieces)
        if col.full:
            return
        yield col.progress(min(first + step, total), total, "reading RIS records")
    tail = ends[-1] if ends else 0
    if _START.search(text, tail):
        take(_segment(text, tail, len(text), complete=False))


# (offset, parsed record — or the reason it cannot be read, or None without a TY line —,
#  ended by an ER line)
_Piece = tuple[int, dict | str | None, bool | None]


def _starts(text: str, start: int, end: int) -> int:
    """How many lines start with ``TY  -`` in ``text[start:end]`` (``start`` starts a line)."""
    return text.count("\nTY  -", start, end) + text.startswith("TY  -", start)


def _segment(text: str, start: int, end: int, *, complete: bool = True) -> list[_Piece]:
    """The records of ``text[start:end]``, which ends with an ER line (``complete``) or is
    the tail of the file: one per TY line, each up to the next; ``(start, None, True)``
    when there is no TY line, the reason when rispy cannot read it; ``ended`` False for a record cut short by the next TY line,
    None for the tail's last record."""
    tys = [m.start() for m in _START.finditer(text, start, end)]
    if not tys:
        return [(start, None, True)]
    pieces: list[_Piece] = []
    for at, stop in zip(tys, [*tys[1:], end], strict=True):
        last = stop == end
        if last and not complete:
            pieces.append((at, {}, None))
            continue
        body = text[at:stop] if last else text[at:stop].rstrip("\n") + "\nER  - \n"
        parsed = _loads(body)
        pieces.append((at, _UNTAGGED if parsed is None else parsed[0] if parsed else None,
                       last))
    return pieces


_NO_TY = "an 'ER  -' line without a 'TY  -' line before it"
_UNTAGGED = "a blank or untagged line right after its 'TY  -' line"


def _loads(text: str) -> list[dict] | None:
    """rispy's records of ``text``, or None where rispy fails on a line it cannot place
    (a blank or untagged line right after ``TY  -`` raises KeyError inside rispy)."""
    try:
        return rispy.loads(text, **_PARSER_OPTIONS)
    except (KeyError, ValueError, IndexError):
        return None


def to_record(d: dict, line: int | None = None) -> Record:
    """A :class:`Record` from one rispy dict keyed by RIS tags."""
    get = d.get
    authors = get("AU") or []
    if "A1" in d:
        authors = dedupe(authors + d["A1"])
    venue = ""
    for tag in _VENUE_TAGS:
        if tag in d:
            venue = d[tag]
            break
    doi = normalise_doi(get("DO"))
    ids: dict[str, str] = {}
    pmid = ""
    accession = get("AN")
    if accession:
        ids.update(sniff_ids(accession))
        if accession.isdigit() and _from_pubmed(d):
            pmid = accession.lstrip("0")
    if "C2" in d:
        ids.update(sniff_ids(d["C2"]))
    urls = get("UR") or []
    for url in urls:
        ids.update(sniff_ids(url))
    for note in get("N1") or ():
        note_ids(note, ids)
    doi = doi or ids.pop("doi", "")
    pmid = pmid or ids.pop("pmid", "")
    ids.pop("doi", None)
    ids.pop("pmid", None)
    return Record(
        title=get("TI") or get("T1") or "",
        abstract=get("AB") or get("N2") or "",
        authors=authors,
        year=_year(next((d[t] for t in _YEAR_TAGS if d.get(t)), None)),
        venue=venue,
        keywords=get("KW") or [],
        type=get("TY", ""),
        language=get("LA", ""),
        doi=doi,
        pmid=pmid,
        ids=ids,
        volume=get("VL", ""),
        issue=get("IS", ""),
        pages=page_range(get("SP"), get("EP")),
        publisher=get("PB", ""),
        issn=get("SN", ""),
        url=urls[0] if urls else "",
        raw=d,
        source_line=line,
    )


def _year(value: str | None) -> int | None:
    if value and len(value) == 4 and value.isdigit():
        return int(value)
    return parse_year(value)


def note_ids(note: str, ids: dict[str, str]) -> None:
    """Identifiers in a note: ``PMID: 1``, ``<kind>: <value>`` (our exports) and any other
    recognisable one but a DOI (``Dimensions pub.1138791522``, a Scopus EID, ...; a note
    may cite another work's DOI)."""
    for kind, value in sniff_ids(note).items():
        if kind not in ("doi", "pmid"):
            ids.setdefault(kind, value)
    match = _NOTE_PMID.search(note)
    if match:
        ids["pmid"] = match.group(1).lstrip("0")
    match = _NOTE_ID.match(note)
    if match:
        ids[match.group(1)] = normalise_id(match.group(1), match.group(2))


def _from_pubmed(d: dict) -> bool:
    source = f"{d.get('DB', '')} {d.get('DP', '')}".lower()
    return any(hint in source for hint in PUBMED_HINT)


def database_of(dicts: list) -> str:
    """The database (scopus, wos, pubmed, …) the first of ``dicts`` (keyed by RIS tags)
    that names one comes from, else ``""``."""
    for d in dicts:
        if not d:
            continue
        source = f"{d.get('DB', '')} {d.get('DP', '')}".lower()
        for hint, name in _DATABASES:
            if hint in source:
                return name
        accession = d.get("AN") or ""
        if accession.startswith("WOS:"):
            return "wos"
        if accession.startswith("2-s2.0-") or "scopus.com" in " ".join(d.get("UR") or ()):
            return "scopus"
    return ""
