"""TREC run files (``topic Q0 docid rank score tag``) and qrels (``topic 0 docid rel``).

Records carry ``ids={"docid": ...}`` and no text. In a run, ``rank`` is the 1-based
position within its topic in the order of the file's rank column (ties keep file
order) and ``score`` its score; in qrels ``score`` is the relevance grade.
"""

from __future__ import annotations

import re
from collections.abc import Generator

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
    keeping only ``options.topic`` when given."""
    fmt, topic = col.result.format, options.topic
    width, shape = SHAPES[fmt]
    lines = text.split("\n")
    by_topic: dict[str, list[tuple[int, Record]]] = {}
    number = 0
    for lineno, line in enumerate(lines, start=1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        number += 1
        record = parse_line(parts, width, lineno, fmt)
        if isinstance(record, str):
            col.reject(number, lineno, f"{record} (expected '{shape}')")
            continue
        by_topic.setdefault(parts[0], []).append((number, record))
        if number % PROGRESS_EVERY == 0:
            yield col.progress(lineno, len(lines), f"reading {fmt} lines")
    col.result.topics = list(by_topic)
    if topic is not None:
        if topic not in by_topic:
            shown = listing(col.result.topics) or "none"
            raise ImportRefused(f"{col.result.path}: topic {topic!r} is not in this file "
                                f"(topics found: {shown})")
        by_topic = {topic: by_topic[topic]}
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


def parse_line(parts: list[str], width: int, lineno: int, fmt: str) -> Record | str:
    """The record of one split line, or the reason it is malformed."""
    if len(parts) != width:
        return f"{len(parts)} columns instead of {width}"
    try:
        if fmt == "trec-run":
            topic, _, docid, rank, score, tag = parts
            int(rank)
            value: float = float(score)
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
