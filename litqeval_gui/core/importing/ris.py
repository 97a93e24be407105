"""RIS (EndNote, Zotero, Scopus, Web of Science, ...) through rispy.

The text is cut at ``ER  -`` lines into chunks of whole records, each chunk parsed by
``rispy.loads`` with tag-preserving keys (so ``Record.raw`` holds the original tags),
and each dict converted by one tight function.
"""

from __future__ import annotations

import re
from collections.abc import Generator

import rispy

from litqeval_gui.core.importing.common import Collector, dedupe, sniff_ids
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records import (
    OTHER_ID_KINDS,
    Record,
    normalise_doi,
    normalise_id,
    parse_year,
)

_END = re.compile(r"\nER  -[^\n]*\n?")  # (not MULTILINE ``^``: that is 9x slower)
_START = re.compile(r"^TY  -", re.MULTILINE)
_NOTE_PMID = re.compile(r"\b(?:PubMed ID|PMID)\s*:\s*(\d+)", re.IGNORECASE)
_NOTE_ID = re.compile(r"^(" + "|".join(OTHER_ID_KINDS) + r")\s*:\s*(\S.*)$")
_VENUE_TAGS = ("JF", "T2", "JO", "JA", "J2")
_DATABASES = (("scopus", "scopus"), ("web of science", "wos"), ("clarivate", "wos"),
              ("pubmed", "pubmed"), ("nlm", "pubmed"), ("medline", "pubmed"),
              ("dimensions", "dimensions"), ("openalex", "openalex"), ("lens", "lens"))
_PUBMED_HINT = ("pubmed", "nlm", "medline")


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


def read(text: str, col: Collector, *, first_line: int = 1,
         first_number: int = 0) -> Generator[Progress, None, None]:
    """Parse RIS ``text`` into ``col``; an unfinished last record (no ER) is rejected.

    ``first_line`` / ``first_number`` are the file's line and record number where
    ``text`` starts (for a part of a file parsed on its own).
    """
    ends = record_ends(text)
    total = len(ends)
    step = max(200, min(2000, total // 100))
    line, counted = first_line, 0  # line number at text offset ``counted``
    number = first_number
    for first in range(0, total, step):
        chunk_ends = ends[first:first + step]
        start = ends[first - 1] if first else 0
        dicts = _loads(text[start:chunk_ends[-1]])
        if dicts is None or len(dicts) != len(chunk_ends):  # a bad record: one by one
            dicts = []
            for seg_start, seg_end in zip([start, *chunk_ends[:-1]], chunk_ends, strict=True):
                parsed = _loads(text[seg_start:seg_end])
                dicts.append(_UNTAGGED if parsed is None else parsed[0] if parsed else _NO_TY)
        if not first:
            col.result.database = _database([d for d in dicts[:20] if isinstance(d, dict)])
        seg_start = start
        for data, seg_end in zip(dicts, chunk_ends, strict=True):
            number += 1
            at = text.find("TY  -", seg_start, seg_end)
            at = seg_start if at < 0 else at
            line += text.count("\n", counted, at)
            counted = at
            if isinstance(data, str):
                col.reject(number, line, data)
            else:
                col.add(to_record(data, line), number)
            seg_start = seg_end
            if col.full:
                return
        yield col.progress(min(first + step, total), total, "reading RIS records")
    tail = text[ends[-1] if ends else 0:]
    match = _START.search(tail)
    if match:
        start_line = line + text.count("\n", counted, len(text) - len(tail) + match.start())
        col.reject(number + 1, start_line, "incomplete record: the file ends before its "
                   "'ER  -' line")
        col.result.notes.append("the file seems truncated: its last record has no 'ER  -' line")


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
    for url in get("UR") or ():
        ids.update(sniff_ids(url))
    for note in get("N1") or ():
        _note_ids(note, ids)
    doi = doi or ids.pop("doi", "")
    pmid = pmid or ids.pop("pmid", "")
    ids.pop("doi", None)
    ids.pop("pmid", None)
    return Record(
        title=get("TI") or get("T1") or "",
        abstract=get("AB") or get("N2") or "",
        authors=authors,
        year=_year(get("PY") or get("Y1") or get("DA")),
        venue=venue,
        keywords=get("KW") or [],
        type=get("TY", ""),
        language=get("LA", ""),
        doi=doi,
        pmid=pmid,
        ids=ids,
        raw=d,
        source_line=line,
    )


def _year(value: str | None) -> int | None:
    if value and len(value) == 4 and value.isdigit():
        return int(value)
    return parse_year(value)


def _note_ids(note: str, ids: dict[str, str]) -> None:
    match = _NOTE_PMID.search(note)
    if match:
        ids["pmid"] = match.group(1).lstrip("0")
    match = _NOTE_ID.match(note)
    if match:
        ids[match.group(1)] = normalise_id(match.group(1), match.group(2))


def _from_pubmed(d: dict) -> bool:
    source = f"{d.get('DB', '')} {d.get('DP', '')}".lower()
    return any(hint in source for hint in _PUBMED_HINT)


def _database(dicts: list) -> str:
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
