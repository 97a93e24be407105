"""EndNote XML (File ▸ Export ▸ XML) through the standard library's ElementTree.

``<xml><records><record>…`` with one ``<record>`` per reference; a field's text may be
wrapped in ``<style>`` runs (joined). ``raw`` keeps every field under its element's name
(a list ``author``/``keyword``/``url``/``date`` under its parent's name: ``authors``,
``keywords``, ``related-urls``, ``pdf-urls``, ``pub-dates``), so ``rec-number`` goes back
out on export and EndNote matches the records again. The file is refused when it
declares a DOCTYPE or entities (EndNote writes neither; they are the XML bombs).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Generator

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import (
    NO_OPTIONS,
    Collector,
    ReadOptions,
    sniff_ids,
)
from litqeval_gui.core.records.importing.ris import PUBMED_HINT, database_of, note_ids
from litqeval_gui.core.records.model import Record, normalise_doi, parse_year

_HEAD = re.compile(r"<xml>\s*<records>\s*(?:<record[\s>]|</records>)")
_XML_DECLARATION = re.compile(r"\s*<\?xml[^>]*\?>")
_DECLARATION = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_RECORD = re.compile(r"<record[\s>]")
_LISTS = frozenset(("author", "keyword", "url", "date"))  # kept under their parent's name
_VENUES = ("secondary-title", "full-title", "alt-title")
_CHUNK = 1 << 20
_LINK = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def sniff(lines: list[str]) -> bool:
    """Whether the head is markup with EndNote's ``<xml><records><record>`` in it (after
    the XML declaration, or a DOCTYPE that :func:`read` refuses)."""
    head = " ".join(lines)
    return head.lstrip().startswith("<") and bool(_HEAD.search(head))


def _text(element: ET.Element) -> str:
    return "".join(element.itertext())


def fields(record: ET.Element) -> dict[str, str | list[str]]:
    """Every field of one ``<record>`` by element name (module docstring); lists for the
    repeated ones, ``ref-type`` as its name (else its number)."""
    raw: dict[str, str | list[str]] = {}

    def walk(element: ET.Element, parent: str) -> None:
        children = [c for c in element if c.tag != "style"]
        if element is not record and not children:
            value = _text(element).strip()
            if element.tag == "ref-type":
                value = element.get("name") or value
            if not value:
                return
            if element.tag in _LISTS:
                listed = raw.setdefault(parent, [])
                if isinstance(listed, list):
                    listed.append(value)
            else:
                raw.setdefault(element.tag, value)
            return
        for child in children:
            walk(child, element.tag)

    walk(record, "record")
    return raw


def _one(raw: dict[str, str | list[str]], *keys: str) -> str:
    for key in keys:
        value = raw.get(key)
        if isinstance(value, str) and value:
            return " ".join(value.split())
    return ""


def _lines(value: str) -> str:
    """``value`` with EndNote's carriage returns (``&#xD;``) as line breaks, stripped."""
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


def _many(raw: dict[str, str | list[str]], key: str) -> list[str]:
    value = raw.get(key)
    return [" ".join(v.split()) for v in value] if isinstance(value, list) else []


def to_record(raw: dict[str, str | list[str]], line: int | None = None) -> Record:
    """A :class:`Record` from one record's :func:`fields`."""
    ids: dict[str, str] = {}
    urls = _many(raw, "related-urls") + _many(raw, "web-urls")
    for url in urls:
        ids.update(sniff_ids(url))
    accession = _one(raw, "accession-num")
    pmid = ""
    if accession:
        ids.update(sniff_ids(accession))
        source = f"{_one(raw, 'remote-database-name')} {_one(raw, 'remote-database-provider')}"
        if accession.isdigit() and any(h in source.lower() for h in PUBMED_HINT):
            pmid = accession.lstrip("0")
    notes = raw.get("notes")
    for note in _lines(notes).splitlines() if isinstance(notes, str) else ():
        note_ids(note.strip(), ids)
    doi = normalise_doi(_one(raw, "electronic-resource-num")) or ids.pop("doi", "")
    pmid = pmid or ids.pop("pmid", "")
    ids.pop("doi", None)
    ids.pop("pmid", None)
    abstract = raw.get("abstract")
    links = [u for u in urls if _LINK.match(u)]  # not EndNote's "<Go to ISI>://WOS:…"
    return Record(
        title=_one(raw, "title"),
        abstract=_lines(abstract) if isinstance(abstract, str) else "",
        authors=_many(raw, "authors"),
        year=parse_year(_one(raw, "year") or None),
        venue=_one(raw, *_VENUES),
        keywords=_many(raw, "keywords"),
        type=_one(raw, "ref-type"),
        language=_one(raw, "language"),
        doi=doi, pmid=pmid, ids=ids,
        volume=_one(raw, "volume"), issue=_one(raw, "number", "issue"),
        pages=_one(raw, "pages"), publisher=_one(raw, "publisher"), issn=_one(raw, "isbn"),
        url=links[0] if links else "",
        raw=dict(raw), source_line=line,
    )


def _events(parser: ET.XMLPullParser, text: str, skip: int
            ) -> Generator[tuple[int, str, ET.Element], None, None]:
    """(offset fed so far, event, element) of ``text`` from ``skip`` on, a chunk at a time."""
    for at in range(skip, max(len(text), skip + 1), _CHUNK):
        fed = min(at + _CHUNK, len(text))
        parser.feed(text[at:fed].encode("utf-8", "surrogatepass"))
        for event, element in parser.read_events():
            yield fed, event, element
    parser.close()
    for event, element in parser.read_events():
        yield len(text), event, element


def read(text: str, col: Collector, options: ReadOptions = NO_OPTIONS
         ) -> Generator[Progress, None, None]:
    """Parse EndNote XML ``text`` into ``col`` (``options`` are not used), fed to the
    parser a megabyte at a time; XML that is not well formed refuses the file with its
    line and the record it is in."""
    if _DECLARATION.search(text):
        raise ImportRefused("the EndNote XML file declares a DOCTYPE or entities, which "
                            "EndNote never writes; it was not read")
    declaration = _XML_DECLARATION.match(text)  # the text is decoded: fed as UTF-8
    parser = ET.XMLPullParser(events=("start", "end"))
    starts = (m.start() for m in _RECORD.finditer(text))
    line, counted, number, depth, reported = 1, 0, 0, 0, 0
    sampled: list[dict[str, object]] = []  # the first records' sources, as RIS tags
    try:
        for fed, event, element in _events(parser, text, declaration.end() if declaration
                                           else 0):
            if element.tag != "record":
                continue
            depth += 1 if event == "start" else -1
            if event == "start" or depth:
                continue
            number += 1
            start = next(starts, counted)
            line += text.count("\n", counted, start)
            counted = start
            raw = fields(element)
            record = to_record(raw, line)
            if number <= 20:
                sampled.append({"DB": _one(raw, "remote-database-name"),
                                "DP": _one(raw, "remote-database-provider"),
                                "AN": _one(raw, "accession-num"), "UR": [record.url]})
                col.result.database = database_of(sampled)
            if col.add(record, number):
                col.check_year(record, number, "year", raw.get("year"))
            element.clear()
            if col.full:
                return
            if fed > reported:
                reported = fed
                yield col.progress(fed, len(text), "reading EndNote records")
    except ET.ParseError as err:
        raise ImportRefused(f"not well-formed EndNote XML at line {err.position[0]} (in "
                            f"record {number + 1}): {str(err).split(':')[0]}") from None
