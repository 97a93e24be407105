"""The TREC readers of ``core/trec/files.py`` (a numpy split of the file's bytes) against
the rules they implement read literally, one line at a time, on generated files with
score ties, repeated docids, docids of every length and non-ASCII text."""

from __future__ import annotations

import numpy as np
import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.files import TIES, read_qrels, read_run

# docids of 1 to 20 bytes, some the prefix of another, some non-ASCII (2-byte UTF-8)
DOCIDS = ["a", "ab", "abcdefgh", "abcdefghi", "abcdefgh0", "doc-00000002", "doc-00000010",
          "9", "10", "0099", "é", "éa", "zé", "Zürich-2019-0000001", "x" * 20]
SCORES = ["3", "2.5", "2.50", "+2", "1e0", "1", "0", "-0", "-1.25", "1E400"]  # ties


def lines_of(rows: list[list[str]], rng: np.random.Generator) -> str:
    """``rows`` joined by a random mix of the ASCII whitespace ``str.split`` splits on."""
    gaps = [" ", "  ", "\t", " \t "]
    return "".join(rng.choice(gaps).join(row) + rng.choice(["\n", "\r\n", "\n\n"])
                   for row in rows)


def reference_run(text: str, ties: str) -> tuple[dict[str, list[str]], int]:
    """Each topic's docids by score descending, ties by line (``file``) or by docid
    descending (``trec_eval``); a repeated docid keeps its best position."""
    lines: dict[str, list[tuple[float, int, str]]] = {}
    for number, line in enumerate(text.splitlines()):
        parts = line.split()
        if parts and not parts[0].startswith("#"):
            lines.setdefault(parts[0], []).append((float(parts[4]), number, parts[2]))
    topics, duplicates = {}, 0
    for topic in sorted(lines):
        if ties == "file":
            ranked = sorted(lines[topic], key=lambda line: (-line[0], line[1]))
        else:
            ranked = sorted(lines[topic], key=lambda line: (line[0], line[2]), reverse=True)
        topics[topic] = list(dict.fromkeys(doc for _, _, doc in ranked))
        duplicates += len(ranked) - len(topics[topic])
    return topics, duplicates


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ascii_only", [True, False])
def test_runs_rank_as_the_rule_read_line_by_line(tmp_path, seed, ascii_only):
    rng = np.random.default_rng(seed)
    docids = [d for d in DOCIDS if d.isascii() or not ascii_only]
    topics = ["T1", "T10", "T2"] + ([] if ascii_only else ["Tö"])
    rows = [[str(rng.choice(topics)), "Q0", str(rng.choice(docids)), str(rank),
             str(rng.choice(SCORES)), "tag"] for rank in range(1, 80)]
    text = lines_of(rows, rng)
    if seed % 3 == 0:
        text = "# a comment line\n" + text
    path = tmp_path / "run.txt"
    path.write_bytes(text.encode("utf-8"))
    for ties in TIES:
        parsed = read_run(path, ties)
        assert (parsed.topics, parsed.duplicates) == reference_run(text, ties), ties
        assert list(parsed.topics) == sorted(parsed.topics)
        assert parsed.duplicates > 0  # 79 lines over at most 15 docids × 4 topics


def test_qrels_keep_each_topics_docids_in_file_order_with_their_last_grade(tmp_path):
    rng = np.random.default_rng(3)
    rows = [[str(rng.choice(["B", "A", "Aé"])), "0", str(rng.choice(DOCIDS)),
             str(rng.integers(-1, 3))] for _ in range(120)]
    path = tmp_path / "qrels.txt"
    path.write_bytes(lines_of(rows, rng).encode("utf-8"))
    expected: dict[str, dict[str, int]] = {}
    for topic, _, doc, grade in rows:
        expected.setdefault(topic, {})[doc] = int(grade)
    qrels = read_qrels(path)
    assert qrels.grades == expected
    assert list(qrels.grades) == sorted(expected)
    assert {t: list(docs) for t, docs in qrels.grades.items()} == \
        {t: list(docs) for t, docs in expected.items()}
    assert qrels.relevant["A"] == {d for d, g in expected["A"].items() if g >= 1}


def test_non_ascii_whitespace_and_digits_read_as_str_split_and_float_do(tmp_path):
    # U+00A0 separates columns for str.split; "٣" (Arabic-Indic three) is a number to
    # float and int, but not as UTF-8 bytes
    run = tmp_path / "r.run"
    run.write_text("A\u00a0Q0 é 1 ٣ x\nA Q0 e ٢ 2 x\nA Q0 f 3 2.5 x\n", encoding="utf-8")
    assert read_run(run).topics == {"A": ["é", "f", "e"]}
    qrels = tmp_path / "q.txt"
    qrels.write_text("A 0 é ١\nA 0 e 0\n", encoding="utf-8")
    assert read_qrels(qrels).grades == {"A": {"é": 1, "e": 0}}


def test_bad_lines_are_left_out_and_named_bad_bytes_refuse(tmp_path):
    """Issue 27 §4, one rule with the importer: a malformed line (a value that is not a
    number, a NaN score, the wrong number of columns) is left out, counted and named; the
    rest is read. A NUL byte refuses the file, as the importer refuses it."""
    def run_with(line: str):
        path = tmp_path / "r.run"
        path.write_text(f"A Q0 a 1 3 x\n{line}\nA Q0 c 3 1 x\n")
        return read_run(path)

    shape = " (expected 'topic Q0 docid rank score tag')"
    for line, reason in [("A Q0 b second 2 x", "a rank, score or relevance value is not a "
                                               "number"),
                         ("A Q0 b 2 2,5 x", "a rank, score or relevance value is not a number"),
                         ("A Q0 b 2 nan x", "the score is NaN; scores must be numbers to rank "
                                            "by"),
                         ("A Q0 b 2 2", "5 columns instead of 6")]:
        parsed = run_with(line)
        assert (parsed.topics, parsed.rejected, parsed.examples) == (
            {"A": ["a", "c"]}, 1, (f"line 2: {reason}{shape}",)), line
    assert run_with("A Q0 b -2 4 x").topics == {"A": ["b", "a", "c"]}  # a signed rank
    qrels = tmp_path / "q.txt"
    qrels.write_text("A 0 a 1\nA 0 b yes\n")
    parsed = read_qrels(qrels)
    assert (parsed.grades, parsed.rejected) == ({"A": {"a": 1}}, 1)
    assert parsed.examples == ("line 2: a rank, score or relevance value is not a number "
                               "(expected 'topic 0 docid rel')",)
    qrels.write_bytes(b"A 0 a\x00 1\n")
    with pytest.raises(LitqError, match="NUL byte at byte 5"):
        read_qrels(qrels)
    qrels.write_text("# only a comment\n\n")
    with pytest.raises(LitqError, match="no qrels line"):
        read_qrels(qrels)
    qrels.write_text("A 0 a\n")
    with pytest.raises(LitqError, match="no qrels line .*; line 1: 3 columns instead of 4"):
        read_qrels(qrels)


def test_import_and_tar_eval_apply_one_rule(tmp_path):
    """The same file through the importer and through tar-eval's reader: the same lines
    left out with the same messages; a NUL byte refused by both."""
    from litqeval_gui.core.errors import ImportRefused
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.records.importing import read_records

    path = tmp_path / "r.run"
    path.write_text("A Q0 a 1 3 x\nA Q0 b two 2 x\n# note\nA Q0 c 3 nan x\nA Q0 d 4 1\n"
                    "A Q0 e 5 0.5 x\n")
    imported = run_job(read_records(path, fmt="trec-run"))
    parsed = read_run(path)
    assert [r.ids["docid"] for r in imported.records] == parsed.topics["A"] == ["a", "e"]
    assert [f"line {r.line}: {r.reason}" for r in imported.rejected] == list(parsed.examples)
    assert parsed.rejected == 3
    path.write_bytes(b"A Q0 a\x00 1 3 x\n")
    with pytest.raises(ImportRefused, match="NUL"):
        run_job(read_records(path, fmt="trec-run"))
    with pytest.raises(LitqError, match="NUL byte"):
        read_run(path)


def test_a_file_is_read_in_blocks_as_a_whole(tmp_path, monkeypatch):
    """Blocks of about 64 bytes: topics spread over blocks, a bad line and a long docid in
    some of them; the result is the one-block result."""
    from litqeval_gui.core.trec import files

    rng = np.random.default_rng(8)
    rows = [[str(rng.choice(["T1", "T2", "T3"])), "Q0", str(rng.choice(DOCIDS + ["y" * 80])),
             str(rank), str(rng.choice(SCORES)), "tag"] for rank in range(1, 200)]
    text = lines_of(rows, rng).replace("\n", "\nT2 Q0 bad\n", 3)
    path = tmp_path / "run.txt"
    path.write_bytes(text.encode("utf-8"))
    whole = {ties: read_run(path, ties) for ties in TIES}
    monkeypatch.setattr(files, "BLOCK_BYTES", 64)
    for ties in TIES:
        assert read_run(path, ties) == whole[ties]
        assert whole[ties].rejected == 3
        assert (whole[ties].topics, whole[ties].duplicates) == reference_run(
            text.replace("T2 Q0 bad\n", ""), ties)
