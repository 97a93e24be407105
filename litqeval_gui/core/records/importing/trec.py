"""TREC run files (``topic Q0 docid rank score tag``) and qrels (``topic 0 docid rel``).

Records carry ``ids={"docid": ...}`` and no text. In a run, ``rank`` is the 1-based
position within its topic in the order of the file's rank column (ties keep file
order) and ``score`` its score; in qrels ``score`` is the relevance grade.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Generator, Iterator

from litqeval_gui.core.errors import ImportRefused, listing
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import PROGRESS_EVERY, Collector, ReadOptions
from litqeval_gui.core.records.model import Record

MAX_GRADE = 2**31 - 1  # a relevance grade beyond this is a malformed line, not a grade
SHAPES = {"trec-run": (6, "topic Q0 docid rank score tag"), "qrels": (4, "topic 0 docid rel")}
SNIFF_LINES = 10  # first non-blank lines that must all have the shape
_INT = re.compile(r"-?\d+")
_FLOAT = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def sniff_run(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are a run: six columns, an integer rank and
    a number score."""
    rows = [line.split() for line in lines[:SNIFF_LINES]]
    return all(len(r) == 6 and _INT.fullmatch(r[3]) and _FLOAT.fullmatch(r[4]) for r in rows)


def sniff_qrels(lines: list[str]) -> bool:
    """Whether a file's first non-blank lines are qrels: four columns, the second and the
    fourth integers."""
    rows = [line.split() for line in lines[:SNIFF_LINES]]
    return all(len(r) == 4 and _INT.fullmatch(r[3]) and _INT.fullmatch(r[1]) for r in rows)


def read(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """Parse a run or qrels ``text`` (``col.result.format`` says which) into ``col``,
    keeping only ``options.topic`` when given: then only that topic's lines are read (a
    regular expression finds them), so importing one topic of a large run costs about a
    pass over the text and that topic's records. A malformed line (of that topic, when
    one is chosen) is rejected and reading goes on."""
    fmt, topic = col.result.format, options.topic
    width, shape = SHAPES[fmt]
    by_topic: dict[str, list[tuple[int, Record]]] = {}
    for number, lineno, offset, parts in _data_lines(text, topic):
        record = parse_line(parts, width, lineno, fmt)
        if isinstance(record, str):
            col.reject(number, lineno, f"{record} (expected '{shape}')")
            continue
        by_topic.setdefault(parts[0], []).append((number, record))
        if number % PROGRESS_EVERY == 0:
            yield col.progress(offset, len(text), f"reading {fmt} lines")
    col.result.topics = list(by_topic)  # the topics read
    if topic is not None:
        if topic not in by_topic:
            raise ImportRefused(f"{col.result.path}: topic {topic!r} is not in this file "
                                f"(topics found: {listing(_topics(text)) or 'none'})")
    elif len(by_topic) > 1:
        col.result.notes.append(f"{len(by_topic)} topics in one file; ranks restart per "
                                "topic (choose one topic to import a single list)")
    for entries in by_topic.values():
        if fmt == "trec-run":  # stable sort: ties keep file order
            entries.sort(key=lambda entry: int(entry[1].raw["rank"]))
        seen: set[str] = set()
        for number, record in entries:
            docid = record.ids["docid"]
            if docid in seen:
                col.reject(number, record.source_line,
                           f"docid {docid!r} repeated in topic {record.raw['topic']!r}")
                continue
            seen.add(docid)
            record.rank = len(seen)
            col.add(record, number)
            if col.full:
                return


_SKIPPED = re.compile(r"^[^\S\n]*(?:#[^\n]*)?$", re.MULTILINE)  # blank and comment lines
_FIRST_TOKEN = re.compile(r"^[^\S\n]*([^\s#]\S*)", re.MULTILINE)
_ODD_LINE = re.compile(r"\n[\s#]")  # a line starting with a space, a comment or blank


def _topics(text: str, block: int = 1 << 23) -> list[str]:
    """The first columns of ``text``'s data lines, each once, in file order (read a block
    of lines at a time: no list of every line's topic)."""
    found: dict[str, None] = {}
    start = 0
    while start < len(text):
        end = text.find("\n", start + block)
        end = len(text) if end < 0 else end
        found.update(dict.fromkeys(_FIRST_TOKEN.findall(text, start, end)))
        start = end + 1
    return list(found)


def _data_lines(text: str, topic: str | None) -> Iterator[tuple[int, int, int, list[str]]]:
    """``(number, line number, offset, columns)`` of each line of ``text`` that is neither
    blank nor a comment (``number`` counts those lines), or only of those whose first
    column is ``topic``: found by searching the text for it at line starts, each numbered
    by counting the newlines and the skipped lines before it."""
    if topic is None:
        number, lineno, start = 0, 0, 0
        while start < len(text):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            lineno += 1
            parts = text[start:end].split()
            if parts and not parts[0].startswith("#"):
                number += 1
                yield number, lineno, start, parts
            start = end + 1
        return
    if not topic or topic.startswith("#") or topic.split() != [topic]:
        return  # never a first column
    odd = [(at + 1, text[at + 1]) for at in map(re.Match.start, _ODD_LINE.finditer(text))]
    if text[:1].isspace() or text[:1] == "#":
        odd.insert(0, (0, text[0]))
    if any(first not in "\n#" for _, first in odd):  # an indented line: the slower way
        skipped = [match.start() for match in _SKIPPED.finditer(text)]
        starts = map(re.Match.start, re.finditer(rf"^[^\S\n]*{re.escape(topic)}(?!\S)", text,
                                                 re.MULTILINE))
    else:  # blank lines, comments and the topic's lines found by plain text search
        skipped = [at for at, _ in odd]
        starts = (at for at in _line_starts(text, topic)
                  if not text[at + len(topic):at + len(topic) + 1].strip())
    lineno, last = 1, 0
    for start in starts:
        lineno += text.count("\n", last, start)
        last = start
        end = text.find("\n", start)
        parts = text[start:end if end >= 0 else len(text)].split()
        yield lineno - bisect.bisect_left(skipped, start), lineno, start, parts


def _line_starts(text: str, prefix: str) -> Iterator[int]:
    """Offsets of the lines of ``text`` that start with ``prefix``, in order."""
    if text.startswith(prefix):
        yield 0
    at = text.find("\n" + prefix)
    while at >= 0:
        yield at + 1
        at = text.find("\n" + prefix, at + 1)


def parse_line(parts: list[str], width: int, lineno: int, fmt: str) -> Record | str:
    """The record of one split line, or the reason it is malformed."""
    if len(parts) != width:
        return f"{len(parts)} columns instead of {width}"
    try:
        if fmt == "trec-run":
            topic, _, docid, rank, score, tag = parts
            int(rank)
            value: float = float(score)
            if value != value:
                return "the score is NaN; scores must be numbers to rank by"
            raw = {"topic": topic, "docid": docid, "rank": rank, "score": score, "tag": tag}
        else:
            topic, iteration, docid, rel = parts
            value = int(rel)
            if abs(value) > MAX_GRADE:
                return f"relevance grade {rel[:20]} is outside ±{MAX_GRADE}"
            raw = {"topic": topic, "iteration": iteration, "docid": docid, "rel": rel}
    except ValueError:
        return "a rank, score or relevance value is not a number"
    return Record(ids={"docid": docid}, score=value, raw=raw, source_line=lineno)
