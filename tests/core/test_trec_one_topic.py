"""Issue 27 §4: importing one topic of a TREC file reads only that topic's lines (found by
searching the text), with the records, ranks, rejections and numbers of a whole read."""

from __future__ import annotations

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import read_records, trec

LINES = [
    "# a comment",
    "401 Q0 a 2 9.5 run",
    "",
    "4010 Q0 z 1 9.9 run",  # another topic that starts with 401
    "401 Q0 b 1 9.9 run",
    "40 Q0 y 1 1 run",
    "401 Q0 c x 3 run",  # a rank that is not a number: rejected
    "402 Q0 d 1 1 run extra",  # malformed, of another topic
    "401\tQ0 d 3 8 run",  # a tab separates columns too
    "401 Q0 a 4 7 run",  # a repeated docid
    "401",  # the topic alone: too few columns
]


def _read(path, topic=None):
    return run_job(read_records(path, fmt="trec-run", topic=topic))


def _summary(result):
    return ([(r.ids["docid"], r.rank, r.score, r.source_line) for r in result.records],
            [(r.number, r.line, r.reason) for r in result.rejected])


@pytest.mark.parametrize("indent", ["", " ", "\x1f"])
def test_one_topic_reads_as_the_whole_file_read_for_that_topic(tmp_path, indent):
    """Indented lines (a space, or a unit separator str.split() splits on) take the
    regular-expression way; the others plain text search: both agree with a whole read."""
    path = tmp_path / "r.run"
    lines = [LINES[0], *[indent + line if line and i % 2 else line
                         for i, line in enumerate(LINES[1:])]]
    path.write_text("\n".join(lines) + "\n")
    whole = _read(path)
    one = _read(path, "401")
    records, rejected = _summary(whole)
    assert _summary(one) == (
        [(docid, rank, score, line) for docid, rank, score, line in records
         if lines[line - 1].split()[0] == "401"],
        [(n, line, reason) for n, line, reason in rejected
         if lines[line - 1].split()[0] == "401"])
    assert _summary(one) == ([("b", 1, 9.9, 5), ("a", 2, 9.5, 2), ("d", 3, 8.0, 9)], [
        (5, 7, "a rank, score or relevance value is not a number (expected "
               "'topic Q0 docid rank score tag')"),
        (9, 11, "1 columns instead of 6 (expected 'topic Q0 docid rank score tag')"),
        (8, 10, "docid 'a' repeated in topic '401'")])
    assert one.topics == ["401"]


def test_a_topic_not_in_the_file_names_those_found(tmp_path):
    path = tmp_path / "r.run"
    path.write_text("\n".join(LINES) + "\n")
    with pytest.raises(ImportRefused, match=r"topic '41' is not in this file \(topics found: "
                                            r"401, 4010, 40, 402\)"):
        _read(path, "41")
    with pytest.raises(ImportRefused, match="topic '# a' is not in this file"):
        _read(path, "# a")


def test_only_the_topics_lines_are_split():
    """The other topics' lines are never split into columns (their cost is a search)."""
    text = "".join(f"{t} Q0 d{i} {i} 1 r\n" for t in ("1", "2", "3") for i in range(5))
    assert [(n, line, parts[2]) for n, line, _, parts in trec._data_lines(text, "2")] == [
        (n, n, f"d{n - 6}") for n in range(6, 11)]
