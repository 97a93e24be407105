"""PubMed / MEDLINE text format (``.nbib``, PubMed "Save → PubMed format").

Each line is a tag padded to four characters, ``"- "`` and a value; continuation lines
are indented by six spaces; records are separated by blank lines and start at ``PMID-``.
"""

from __future__ import annotations

import re
from collections.abc import Generator

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import PROGRESS_EVERY, Collector, ReadOptions
from litqeval_gui.core.records.model import Record, normalise_doi, normalise_id, parse_year

_ISSN = re.compile(r"^\s*([0-9]{4}-?[0-9]{3}[0-9Xx])")

_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]{0,3}) *- ?(.*)$")
_LIST_TAGS = frozenset({"AU", "FAU", "MH", "OT", "PT", "LID", "AID", "IS", "LA", "AD", "AUID"})
_DOI_ID = re.compile(r"^(\S+)\s*\[doi\]\s*$")


def sniff(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are MEDLINE: one starts with ``PMID-``."""
    return any(line.startswith("PMID-") for line in lines)


def read(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse MEDLINE ``text`` into ``col`` (``options`` are not used)."""
    col.result.database = "pubmed"
    total = text.count("\n") + 1
    number = 0
    for start_line, fields in _records(text):
        number += 1
        record = to_record(fields, start_line)
        if col.add(record, number):
            name = "DP" if fields.get("DP") else "DEP"
            col.check_year(record, number, name, fields.get(name))
        if col.full:
            return
        if number % PROGRESS_EVERY == 0:
            yield col.progress(start_line, total, "reading PubMed records")


def _records(text: str) -> Generator[tuple[int, dict[str, object]], None, None]:
    """``(start line, {tag: str | list[str]})`` per record, in file order."""
    fields: dict[str, object] = {}
    last = ""
    start_line = 0
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            if fields:
                yield start_line, fields
            fields, last = {}, ""
            continue
        if line.startswith("      ") and last:
            _extend(fields, last, line.strip())
            continue
        match = _TAG_LINE.match(line)
        if not match:
            continue
        tag, value = match.group(1), match.group(2).strip()
        if tag == "PMID" and fields:
            yield start_line, fields
            fields = {}
        if not fields:
            start_line = lineno
        if tag in _LIST_TAGS:
            fields.setdefault(tag, []).append(value)  # type: ignore[union-attr]
        elif tag not in fields:
            fields[tag] = value
        last = tag
    if fields:
        yield start_line, fields


def _extend(fields: dict, tag: str, value: str) -> None:
    current = fields.get(tag)
    if isinstance(current, list) and current:
        current[-1] = f"{current[-1]} {value}"
    elif isinstance(current, str):
        fields[tag] = f"{current} {value}"


def to_record(fields: dict, line: int | None = None) -> Record:
    """A :class:`Record` from one MEDLINE record's ``{tag: value}``."""
    get = fields.get
    doi = ""
    for value in (*get("LID", ()), *get("AID", ())):
        match = _DOI_ID.match(value)
        if match:
            doi = normalise_doi(match.group(1))
            break
    ids = {"pmcid": normalise_id("pmcid", get("PMC", ""))}
    publication_types = get("PT") or [""]
    return Record(
        title=get("TI") or get("BTI") or "",
        abstract=get("AB", ""),
        authors=list(get("FAU") or get("AU") or []),
        year=parse_year(get("DP") or get("DEP")),
        venue=get("JT") or get("TA") or "",
        keywords=[*get("OT", ()), *get("MH", ())],
        type=publication_types[0],
        language=(get("LA") or [""])[0],
        doi=doi,
        pmid=normalise_id("pmid", get("PMID", "")),
        ids={k: v for k, v in ids.items() if v},
        volume=get("VI", ""),
        issue=get("IP", ""),
        pages=get("PG", ""),
        publisher=get("PB", ""),
        issn=next((m.group(1) for v in get("IS", ()) if (m := _ISSN.match(v))), ""),
        raw=fields,
        source_line=line,
    )
