"""Document collections: the texts behind a TREC run's docids.

Two layouts of their own (tables and MEDLINE are read by their readers):

* **JSONL** — one JSON object a line, as ``ir_datasets`` and TAR collections ship
  them: the docid under ``docid``, ``doc_id``, ``id``, ``_id`` or ``DOCNO``; ``title``;
  the abstract under ``abstract``, else ``text``, ``content``, ``contents`` or ``body``
  (a leading copy of the title is dropped); ``pmid`` when given.
* **TREC ``<DOC>``** — ``<DOC><DOCNO>id</DOCNO><TITLE>…</TITLE><TEXT>…</TEXT></DOC>``
  (``HEADLINE``/``HEAD``/``HL`` for the title, ``ABSTRACT``/``AB`` before ``TEXT``).

Records carry ``ids={"docid": ...}`` (a PMID too when the document names one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import PROGRESS_EVERY, Collector, ReadOptions
from litqeval_gui.core.records.model import Record, normalise_id

ID_KEYS = ("docid", "doc_id", "id", "_id", "DOCNO", "docno")
TEXT_KEYS = ("abstract", "text", "content", "contents", "body")
TITLE_TAGS = ("TITLE", "HEADLINE", "HEAD", "HL")
TEXT_TAGS = ("ABSTRACT", "AB", "TEXT")
_TAG = re.compile(r"<(/?)([A-Za-z]+)>")  # an opening or closing tag of a <DOC> layout


def sniff_jsonl(lines: list[str]) -> bool:
    """Whether the first non-blank line is a JSON object that names a docid."""
    try:
        row = json.loads(lines[0])
    except ValueError:
        return False
    return isinstance(row, dict) and any(key in row for key in ID_KEYS)


def sniff_trec_doc(lines: list[str]) -> bool:
    """Whether the file starts with a TREC ``<DOC>`` element."""
    return lines[0].strip().upper().startswith("<DOC>")


def _record(docid: object, title: object, text: object, pmid: object, line: int) -> Record:
    """A collection record; ``text`` loses a leading copy of ``title``."""
    docid, title, text = (str(v).strip() if v is not None else "" for v in (docid, title, text))
    if title and text.startswith(title):
        text = text[len(title):].strip()
    ids = {"docid": docid} if docid else {}
    return Record(title=title, abstract=text, ids=ids, source_line=line,
                  pmid=normalise_id("pmid", str(pmid)) if pmid else "",
                  raw={"docid": docid})


def read_jsonl(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse JSONL ``text`` into ``col``; a line that is no JSON object with a docid is
    rejected and reading goes on (``options`` are not used)."""
    number, lineno, start = 0, 0, 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, lineno, start = text[start:end], lineno + 1, end + 1
        if not line.strip():
            continue
        number += 1
        try:
            row = json.loads(line)
        except ValueError as err:
            col.reject(number, lineno, f"not a JSON object ({err.msg} at column {err.colno})")
            continue
        docid = next((row[k] for k in ID_KEYS if isinstance(row, dict) and row.get(k)), None)
        if docid is None or isinstance(docid, (dict, list)):
            col.reject(number, lineno, "no docid (expected one of "
                                       f"{', '.join(ID_KEYS)})")
            continue
        body = next((row[k] for k in TEXT_KEYS if isinstance(row.get(k), str)), "")
        title = row.get("title") if isinstance(row.get("title"), str) else ""
        col.add(_record(docid, title, body, row.get("pmid"), lineno), number)
        if col.full:
            return
        if number % PROGRESS_EVERY == 0:
            yield col.progress(start, len(text), "reading documents")


def read_trec_doc(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None,
                                                                               None]:
    """Parse TREC ``<DOC>`` elements of ``text`` into ``col`` (``options`` are not used).
    One pass over the tags: a field is the text between a tag and its closing tag."""
    number, lineno, last = 0, 1, 0
    fields: dict[str, str] | None = None
    start_line, open_name, open_end = 0, "", 0
    for tag in _TAG.finditer(text):
        closing, name = tag[1] == "/", tag[2].upper()
        if name == "DOC":
            if not closing:
                lineno += text.count("\n", last, tag.start())
                last, fields, start_line, open_name = tag.start(), {}, lineno, ""
            elif fields is not None:
                number += 1
                _add_doc(col, fields, number, start_line)
                fields = None
                if col.full:
                    return
                if number % PROGRESS_EVERY == 0:
                    yield col.progress(tag.end(), len(text), "reading documents")
        elif fields is not None:
            if not closing and not open_name:
                open_name, open_end = name, tag.end()
            elif closing and name == open_name:
                fields.setdefault(name, " ".join(text[open_end:tag.start()].split()))
                open_name = ""


def _add_doc(col: Collector, fields: dict[str, str], number: int, line: int) -> None:
    if not fields.get("DOCNO"):
        col.reject(number, line, "a <DOC> without <DOCNO>")
        return
    title = next((fields[t] for t in TITLE_TAGS if fields.get(t)), "")
    body = " ".join(fields[t] for t in TEXT_TAGS if fields.get(t))
    col.add(_record(fields["DOCNO"], title, body, fields.get("PMID"), line), number)
