"""RIS, BibTeX, MEDLINE and EndNote XML files that reference managers (Zotero, EndNote,
JabRef) accept.

RIS: a valid ``TY`` code (:func:`~litqeval_gui.core.records.reference_types.ris_type`), one ``AU``
per author, ``T2`` venue, ``VL``/``IS``/``SP``/``EP``/``PB``/``SN``/``UR``, and the
identifiers RIS has no tag for as ``N1  - <kind>: <value>`` notes; no "1." line before a
record; values are single lines (line breaks become spaces).

BibTeX: a proper entry type (:func:`~litqeval_gui.core.records.reference_types.bibtex_type`)
with a ``type`` field keeping the record's own type when it differs, ``and``-joined
authors, ``journal`` (``booktitle`` for papers in proceedings and chapters), pages as
``first--last``, text LaTeX-encoded (identifiers and URL verbatim, unless their braces
would end the value early: then LaTeX-encoded too) and keys made of first
author, year and first title word (``smith2021semantic``; repeats get ``b``, ``c``, …),
unique in the file and the same on every export of the same records.

MEDLINE (PubMed's ``.nbib``): a ``PMID-`` line starts each record (empty when the record
has none), then ``TI``, ``AB``, ``FAU`` and ``AU`` per author, ``DP`` year, ``JT`` venue,
``PT`` type, ``LA`` language, ``OT`` keywords, ``VI``/``IP``/``PG``/``PB``/``IS``, ``PMC``
and the DOI as ``AID - … [doi]``; long values wrap onto six-space continuation lines.
MEDLINE has no tag for a URL or for identifiers other than PMID, PMCID and DOI: they are
left out.

EndNote XML (File ▸ Import ▸ XML): ``<xml><records><record>`` with the record's
``rec-number`` from its import (so EndNote matches it again; a repeat or a record without
one numbered on after the largest), ``ref-type`` name and number
(:func:`~litqeval_gui.core.records.reference_types.endnote_type`), ``titles`` (title,
secondary-title venue), ``electronic-resource-num`` DOI, the PMID as ``accession-num``
with ``remote-database-provider`` NLM, the other identifiers as ``kind: value`` lines of
``notes``; characters XML 1.0 cannot hold are left out.

An :class:`Annotation` per record (e.g. a screening decision) adds a note and keywords
that reference managers show: RIS ``N1`` (EndNote's Notes, a Zotero note) and ``KW``
(keywords, Zotero tags), as ASReview writes its labels; BibTeX ``annote`` and
``keywords``; EndNote ``notes`` and ``keywords``; and its full text's path: EndNote
``pdf-urls`` and RIS ``L1`` as a ``file://`` URL (Zotero's RIS
import attaches it as the PDF), BibTeX ``file`` as ``Full Text PDF:PATH:application/pdf``
(Zotero's and JabRef's form; a backslash, colon, semicolon or brace in it escaped with a
backslash, a control character or line break as ``\\uXXXX``: any path reads back whole,
as one value of one line).
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from litqeval_gui.core.records.model import OTHER_ID_KINDS, Record
from litqeval_gui.core.records.reference_types import bibtex_type, endnote_type, ris_type


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _ris_writer():
    import rispy

    class PlainRisWriter(rispy.RisWriter):
        """rispy's writer without its "1.", "2.", … line before each record."""

        def set_header(self, count: int) -> str:
            return ""

    return rispy, PlainRisWriter


@dataclass(frozen=True)
class Annotation:
    """What an export adds to one record: a note and keywords (module docstring)."""

    note: str = ""
    keywords: tuple[str, ...] = ()
    attachment: str = ""  # the full text's absolute path


def _annotations(records: list[Record],
                 annotations: Sequence[Annotation] | None) -> Sequence[Annotation]:
    if annotations is None:
        return [Annotation()] * len(records)
    if len(annotations) != len(records):
        raise ValueError("annotations need one per record")
    return annotations


def write_ris(records: list[Record], path: Path,
              annotations: Sequence[Annotation] | None = None) -> int:
    rispy, writer = _ris_writer()
    entries = []
    for record, extra in zip(records, _annotations(records, annotations), strict=True):
        entry: dict[str, object] = {"type_of_reference": ris_type(record.type)}
        first, _, last = record.pages.partition("-")
        for key, value in (("title", record.title), ("abstract", record.abstract),
                           ("secondary_title", record.venue), ("doi", record.doi),
                           ("language", record.language), ("volume", record.volume),
                           ("number", record.issue), ("start_page", first),
                           ("end_page", last), ("publisher", record.publisher),
                           ("issn", record.issn)):
            if value:
                entry[key] = _one_line(value)
        if record.year:
            entry["year"] = str(record.year)
        for key, values in (("authors", record.authors),
                            ("keywords", [*record.keywords, *extra.keywords]),
                            ("urls", [record.url] if record.url else [])):
            if values:
                entry[key] = [_one_line(v) for v in values]
        notes = [f"{kind}: {value}" for kind, value in record.identifiers() if kind != "doi"]
        notes += [_one_line(extra.note)] if extra.note.strip() else []
        if notes:
            entry["notes"] = notes
        if extra.attachment:
            entry["file_attachments1"] = Path(extra.attachment).as_uri()
        entries.append(entry)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        rispy.dump(entries, handle, implementation=writer)
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
                                 replacement_latex_protection="braces-all",
                                 unknown_char_policy="keep", unknown_char_warning=False)


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]", "", folded.lower())


_STOP = frozenset("a an the of on in and for to".split())


def citation_key(record: Record) -> str:
    """``surname`` + ``year`` + first title word, ASCII lower case (``anon``/``nd`` where
    missing): e.g. ``smith2021semantic``."""
    author = record.authors[0] if record.authors else ""
    surname = author.split(",")[0] if "," in author else (author.split() or [""])[-1]
    words = [w for w in (_ascii_word(w) for w in record.title.split()) if w]
    word = next((w for w in words if w not in _STOP), words[0] if words else "")
    return f"{_ascii_word(surname) or 'anon'}{record.year or 'nd'}{word}"


def unique_keys(records: list[Record]) -> list[str]:
    """:func:`citation_key` of each record, repeats made unique with ``b``, ``c``, …"""
    used: set[str] = set()
    keys = []
    for record in records:
        base = key = citation_key(record)
        n = 1
        while key in used:
            n += 1
            key = base + _letters(n)
        used.add(key)
        keys.append(key)
    return keys


def _letters(n: int) -> str:
    """Bijective base 26: 2 → ``b``, 26 → ``z``, 27 → ``aa`` (1 → ``a`` is never asked:
    the first holder of a key keeps it bare)."""
    out = ""
    while n:
        n, digit = divmod(n - 1, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[digit] + out
    return out


def write_bibtex(records: list[Record], path: Path,
                 annotations: Sequence[Annotation] | None = None) -> int:
    import bibtexparser
    from bibtexparser import model
    from bibtexparser.middlewares import default_unparse_stack

    latex = _latex_encoder().unicode_to_latex
    library = bibtexparser.Library()
    for record, key, extra in zip(records, unique_keys(records),
                                  _annotations(records, annotations), strict=True):
        entry_type = bibtex_type(record.type)
        venue_field = "booktitle" if entry_type in ("inproceedings", "incollection") \
            else "journal"
        text = {
            "title": record.title, "abstract": record.abstract,
            "author": " and ".join(record.authors), "year": str(record.year or ""),
            venue_field: record.venue, "volume": record.volume, "number": record.issue,
            "publisher": record.publisher,
            "keywords": _keyword_list([*record.keywords, *extra.keywords]),
            "language": record.language, "annote": extra.note,
            "type": record.type if record.type != entry_type else "",
        }
        verbatim = {"pages": record.pages.replace("-", "--"), "issn": record.issn,
                    "url": record.url, "doi": record.doi, "pmid": record.pmid,
                    **{kind: record.ids.get(kind, "") for kind in OTHER_ID_KINDS}}
        fields = [model.Field(k, latex(_one_line(v))) for k, v in text.items() if v]
        fields += [model.Field(k, _verbatim(v, latex)) for k, v in verbatim.items() if v]
        if extra.attachment:
            fields.append(model.Field("file", f"Full Text PDF:{_bibtex_path(extra.attachment)}"
                                              ":application/pdf"))
        library.add(model.Entry(entry_type, key, fields))
    # the library is thrown away after writing: no need for the default stack's deep copy
    stack = default_unparse_stack(allow_inplace_modification=True)
    Path(path).write_text(bibtexparser.write_string(library, unparse_stack=stack),
                          encoding="utf-8")
    return len(records)


_PATH_ESCAPES = {c: "\\" + c for c in "\\:;{}"}
_UNWRITTEN = frozenset(("Cc", "Cs", "Zl", "Zp"))  # control, surrogate, line breaks


def _bibtex_path(path: str) -> str:
    """``path`` for a BibTeX ``file`` field (module docstring): every brace escaped, so
    the value never ends early, and no line break."""
    return "".join(_PATH_ESCAPES.get(c) or (f"\\u{ord(c):04x}" if unicodedata.category(c)
                                            in _UNWRITTEN else c) for c in path)


_BRACE = re.compile(r"(?<!\\)[{}]")  # bibtexparser's: a brace after a backslash is text


def _verbatim(value: str, latex: Callable[[str], str]) -> str:
    """``value`` on one line, verbatim while its braces balance (and it does not end in
    a backslash, which would escape the closing brace); else ``latex(value)``."""
    value = _one_line(value)
    depth = 0
    for brace in _BRACE.finditer(value):
        depth += 1 if brace.group() == "{" else -1
        if depth < 0:
            break
    return value if depth == 0 and not value.endswith("\\") else latex(value)


def _medline_initials(author: str) -> str:
    """PubMed's short author form: "Müller, Hans Peter" → "Müller HP" (other forms kept)."""
    surname, comma, given = author.partition(",")
    if not comma:
        return author
    return f"{surname.strip()} {''.join(part[:1] for part in given.split())}".strip()


def _medline_field(tag: str, value: str) -> str:
    """One MEDLINE field: tag padded to four, ``"- "``, wrapped with six-space continuation
    lines (on spaces only, so the reader's joining restores the value)."""
    return textwrap.fill(_one_line(value), width=88, initial_indent=f"{tag:<4}- ",
                         subsequent_indent=" " * 6, break_on_hyphens=False,
                         break_long_words=False) or f"{tag:<4}- "


def write_medline(records: list[Record], path: Path) -> int:
    blocks = []
    for record in records:
        fields = [("PMID", record.pmid), ("TI", record.title), ("AB", record.abstract)]
        for author in record.authors:
            fields += [("FAU", author), ("AU", _medline_initials(author))]
        fields += [("DP", str(record.year or "")), ("JT", record.venue), ("PT", record.type),
                   ("LA", record.language), *(("OT", k) for k in record.keywords),
                   ("VI", record.volume), ("IP", record.issue), ("PG", record.pages),
                   ("PB", record.publisher), ("IS", record.issn),
                   ("PMC", record.ids.get("pmcid", "")),
                   ("AID", f"{record.doi} [doi]" if record.doi else "")]
        blocks.append("\n".join(_medline_field(tag, value) for tag, value in fields
                                if value or tag == "PMID"))
    Path(path).write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return len(records)


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # no XML 1.0 char


def _endnote_numbers(records: list[Record]) -> list[int]:
    """Each record's ``rec-number``: the one it was imported with unless an earlier record
    has it, else the next free number after the largest kept."""
    seen: set[int] = set()
    taken = []
    for record in records:
        n = record.raw.get("rec-number")
        n = int(n) if isinstance(n, str) and n.isdigit() and 0 < int(n) < 1 << 31 else 0
        taken.append(0 if n in seen else n)
        seen.add(n)
    free = max(taken, default=0)
    numbers = []
    for n in taken:
        if not n:
            free += 1
            n = free
        numbers.append(n)
    return numbers


def write_endnote_xml(records: list[Record], path: Path,
                      annotations: Sequence[Annotation] | None = None) -> int:
    import xml.etree.ElementTree as ET

    root = ET.Element("xml")
    entries = ET.SubElement(root, "records")

    def add(parent: ET.Element, tag: str, value: str = "") -> ET.Element:
        element = ET.SubElement(parent, tag)
        element.text = _NOT_XML.sub("", value) if value else None
        return element

    def group(parent: ET.Element, tag: str, item: str, values: Sequence[str]) -> None:
        if values:
            holder = add(parent, tag)
            for value in values:
                add(holder, item, value)

    pairs = zip(records, _annotations(records, annotations), _endnote_numbers(records),
                strict=True)
    for record, extra, number in pairs:
        entry = add(entries, "record")
        add(entry, "rec-number", str(number))
        name, code = endnote_type(record.type)
        add(entry, "ref-type", str(code)).set("name", name)
        if record.authors:
            group(add(entry, "contributors"), "authors", "author", record.authors)
        if record.title or record.venue:
            titles = add(entry, "titles")
            for tag, value in (("title", record.title), ("secondary-title", record.venue)):
                if value:
                    add(titles, tag, _one_line(value))
        for tag, value in (("pages", record.pages), ("volume", record.volume),
                           ("number", record.issue)):
            if value:
                add(entry, tag, _one_line(value))
        group(entry, "keywords", "keyword", [*record.keywords, *extra.keywords])
        if record.year:
            add(add(entry, "dates"), "year", str(record.year))
        for tag, value in (("publisher", record.publisher), ("isbn", record.issn),
                           ("accession-num", record.pmid),
                           ("electronic-resource-num", record.doi),
                           ("abstract", record.abstract)):
            if value:
                add(entry, tag, value)
        notes = [f"{kind}: {value}" for kind, value in record.identifiers()
                 if kind not in ("doi", "pmid")]
        notes += [_one_line(extra.note)] if extra.note.strip() else []
        if notes:
            add(entry, "notes", "\n".join(notes))
        if record.pmid:
            add(entry, "remote-database-provider", "NLM")
        if record.language:
            add(entry, "language", record.language)
        if record.url or extra.attachment:
            urls = add(entry, "urls")
            group(urls, "related-urls", "url", [record.url] if record.url else [])
            group(urls, "pdf-urls", "url",
                  [Path(extra.attachment).as_uri()] if extra.attachment else [])
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return len(records)
