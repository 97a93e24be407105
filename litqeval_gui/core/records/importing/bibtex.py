"""BibTeX / BibLaTeX (JabRef, Zotero, Scopus, Web of Science exports) through bibtexparser v2.

Field values are decoded from LaTeX with pylatexenc (the decoder bibtexparser's
``LatexDecodingMiddleware`` uses), names split with bibtexparser's co-author splitter;
``Record.raw`` keeps the undecoded fields plus ``ENTRYTYPE`` and ``ID``; an entry's ``type``
field, where it has one, gives its type (else the entry type). JabRef's
``groups`` field is kept, added to the keywords and filterable with ``where``.
"""

from __future__ import annotations

import itertools
import logging
import re
import warnings
from collections.abc import Generator, Iterator

import bibtexparser
from bibtexparser import model
from bibtexparser.middlewares import RemoveEnclosingMiddleware
from bibtexparser.middlewares.names import split_multiple_persons_names
from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import (
    Collector,
    ReadOptions,
    dedupe,
    sniff_ids,
    split_list,
)
from litqeval_gui.core.records.model import (
    MAX_FIELD_CHARS,
    OTHER_ID_KINDS,
    Record,
    normalise_doi,
    normalise_id,
    parse_year,
)

_PAGE_DASHES = re.compile(r"\s*-+\s*")
# The parser libraries log their complaints; without a handler Python prints them to
# stderr. Every problem reaches the user as a rejected entry with its reason instead.
for _library in ("bibtexparser", "pylatexenc"):
    logging.getLogger(_library).addHandler(logging.NullHandler())
    logging.getLogger(_library).propagate = False

# "&" is LaTeX's column separator, which the decoder drops; in a BibTeX value it is
# text ("The Bone & Joint Journal", "&quot;acrobot&quot;"), so it is escaped first
_BARE_SPECIAL = re.compile(r"(?<!\\)([%&])")
_ENTRY_HEAD = re.compile(r"\s*@\s*[A-Za-z]+\s*[{(]")  # a line that opens an entry (sniffing)
# a line of text outside any entry that reads like a field: an entry that lost its head
_FIELD_LINE = re.compile(r"^\s*(?:title|author|year|abstract|doi|journal)\s*=\s*[{\"\d]",
                         re.IGNORECASE | re.MULTILINE)
_VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "series")
_ID_FIELDS = ("url", "unique-id", "eprint", "note", "pmid", "pmcid", "eid")


def _decoder() -> LatexNodes2Text:
    context = get_default_latex_context_db()
    context.add_context_category("litqeval-bibtex", prepend=True,
                                 macros=[MacroTextSpec("url", simplify_repl="%s")])
    return LatexNodes2Text(latex_context=context, math_mode="verbatim")


_LATEX = _decoder()
# The parser's own macro database, built once: pylatexenc rebuilds it for every value
# when none is given, which took most of a BibTeX import.
_PARSER_CONTEXT = latexwalker.get_default_latex_context_db()


# What makes pylatexenc change a value beyond dropping its braces: macros, math,
# comments, ties and its text ligatures (dashes, quotes, inverted marks).
_LATEX_MARKUP = re.compile(r"[\\$%~&]|--|``|''|[!?]`")
MAX_BRACE_DEPTH = 50


def to_text(value: str) -> str:
    """Plain text of a BibTeX value: LaTeX decoded, whitespace collapsed.

    pylatexenc reads a value a character at a time (~5 µs each), so a value whose
    only markup is braces ("{COVID}-19", JabRef's case protection) just loses them.
    Decoding is super-linear in length, so a value over ``MAX_FIELD_CHARS`` (which the
    collector rejects anyway) is returned undecoded; pylatexenc recurses per group, so a
    value nested deeper than ``MAX_BRACE_DEPTH`` only loses its braces.
    """
    if not value:
        return ""
    if len(value) > MAX_FIELD_CHARS:
        return value
    if _LATEX_MARKUP.search(value) and _depth(value) <= MAX_BRACE_DEPTH:
        value = _LATEX.latex_to_text(_BARE_SPECIAL.sub(r"\\\1", value),
                                     latex_context=_PARSER_CONTEXT)
    elif "{" in value or "}" in value:
        value = value.replace("{", "").replace("}", "")
    return " ".join(value.split())


def _depth(value: str) -> int:
    """The deepest nesting of ``{`` groups in ``value``."""
    steps = (1 if c == "{" else -1 if c == "}" else 0 for c in value)
    return max(itertools.accumulate(steps), default=0)


_ENTRY_START = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE)
CHUNK_ENTRIES = 1000  # entries parsed at a time: progress and cancel between chunks


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """``(0-based line of its start, text)`` pieces of about CHUNK_ENTRIES entries,
    cut only where a line starts an entry."""
    starts = [m.start() for m in _ENTRY_START.finditer(text)]
    cuts = [0, *starts[CHUNK_ENTRIES::CHUNK_ENTRIES], len(text)]
    line = 0
    for start, end in zip(cuts, cuts[1:], strict=False):
        yield line, text[start:end]
        line += text.count("\n", start, end)


def sniff(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are BibTeX: one starts an entry (``@type{``)."""
    return any(_ENTRY_HEAD.match(line) for line in lines)


def read(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse BibTeX ``text`` into ``col``; unparseable entries are rejected with their line
    (``options`` are not used).

    The text is parsed in chunks; ``@string`` definitions met so far are put before
    each later chunk, so references to them still resolve.
    """
    strings = ""  # raw @string blocks seen so far
    number = 0
    done = 0
    for first_line, chunk in _chunks(text):
        prefix_lines = strings.count("\n")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            library = bibtexparser.parse_string(strings + chunk)
        if not number:
            col.result.database = _database(library)
        elif _is_jabref(library):
            col.result.database = "jabref"
        strings += "".join(f"{block.raw}\n" for block in library.strings
                           if (block.start_line or 0) >= prefix_lines)
        headless = [c for c in library.comments
                    if isinstance(c, model.ImplicitComment) and _FIELD_LINE.search(c.comment)]
        blocks = sorted([*library.entries, *library.failed_blocks, *headless],
                        key=lambda b: b.start_line or 0)
        for block in blocks:
            number += 1
            line = first_line + (block.start_line or 0) - prefix_lines + 1
            entry = _entry_of(block)
            if isinstance(block, model.ImplicitComment):
                col.reject(number, line, "fields without an entry: the '@type{key,' line "
                           f"before them is missing (near {block.comment.strip()[:60]!r})")
            elif entry is None:
                col.reject(number, line, f"cannot parse this entry: {_reason(block)}")
            else:
                record = to_record(entry, line)
                if col.add(record, number):
                    fields = {f.key.lower(): f.value for f in entry.fields}
                    name = "year" if fields.get("year") else "date"
                    col.check_year(record, number, name, fields.get(name))
            if col.full:
                return
        done += len(chunk)
        yield col.progress(done, len(text), "reading BibTeX entries")


def _entry_of(block: model.Block) -> model.Entry | None:
    """The entry of a block; duplicate keys or fields still give their entry."""
    if isinstance(block, model.Entry):
        return block
    salvaged = getattr(block, "ignore_error_block", None)
    if isinstance(salvaged, model.Entry):
        return RemoveEnclosingMiddleware().transform(bibtexparser.Library([salvaged])).entries[0]
    return None


def _reason(block: model.Block) -> str:
    error = str(getattr(block, "error", "") or "").strip()
    raw = (block.raw or "").lstrip()[:60].replace("\n", " ")
    if not error and raw.count("{") > raw.count("}"):
        error = "unbalanced braces (an entry is not closed)"
    return f"{error or 'syntax error'} near {raw!r}"


def to_record(entry: model.Entry, line: int | None = None) -> Record:
    """A :class:`Record` from one parsed entry."""
    raw: dict[str, str] = {"ENTRYTYPE": entry.entry_type, "ID": entry.key}
    for item in entry.fields:
        raw[item.key.lower()] = str(item.value)
    get = raw.get
    venue = next((to_text(raw[f]) for f in _VENUE_FIELDS if raw.get(f)), "")
    ids: dict[str, str] = {}
    for name in _ID_FIELDS:
        if raw.get(name):
            ids.update(sniff_ids(raw[name]))
    for kind in OTHER_ID_KINDS:
        if raw.get(kind):
            ids[kind] = normalise_id(kind, raw[kind])
    if (get("eprinttype") or get("archiveprefix") or "").lower() == "pubmed":
        ids["pmid"] = normalise_id("pmid", get("eprint"))
    pmid = normalise_id("pmid", get("pmid")) or ids.pop("pmid", "")
    doi = normalise_doi(get("doi")) or ids.pop("doi", "")
    ids.pop("pmid", None)
    ids.pop("doi", None)
    keywords = get("keywords", "")
    keywords_list = split_list(to_text(keywords), ";" if ";" in keywords else ",")
    groups = split_list(to_text(get("groups", "")), ",")
    author = get("author", "")
    authors = ([author] if len(author) > MAX_FIELD_CHARS  # rejected as too long, undecoded
               else [to_text(n) for n in split_multiple_persons_names(author)])
    return Record(
        title=to_text(get("title", "")),
        abstract=to_text(get("abstract", "")),
        authors=authors,
        year=parse_year(get("year") or get("date")),
        venue=venue,
        keywords=dedupe(keywords_list + groups),
        type=to_text(get("type", "")) or entry.entry_type,
        language=to_text(get("language") or get("langid") or ""),
        doi=doi,
        pmid=pmid,
        ids={k: v for k, v in ids.items() if v},
        volume=to_text(get("volume", "")),
        issue=to_text(get("number") or get("issue") or ""),
        pages=to_text(_PAGE_DASHES.sub("-", get("pages", ""))),
        publisher=to_text(get("publisher", "")),
        issn=to_text(get("issn", "")),
        url=" ".join(get("url", "").replace("{", "").replace("}", "").split()),
        raw=raw,
        source_line=line,
    )


def _is_jabref(library: bibtexparser.Library) -> bool:
    return any(c.comment.lstrip().lower().startswith("jabref-meta") for c in library.comments)


def _database(library: bibtexparser.Library) -> str:
    if _is_jabref(library):
        return "jabref"
    for entry in library.entries[:20]:
        fields = {f.key.lower(): str(f.value) for f in entry.fields}
        if fields.get("source", "").lower() == "scopus":
            return "scopus"
        if fields.get("unique-id", "").upper().startswith("WOS:"):
            return "wos"
    return ""
