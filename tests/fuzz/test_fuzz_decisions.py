"""Property-based fuzzing of what ``litqeval merge`` reads: hostile decisions files (the
exchange files of the team screen too) and doctored copies of the project.

A decisions file is a real export (decisions, an undo, a redo, a resolution) with a few
edits: a field of a line set to a hostile value (lone surrogates, control characters,
numbers of 2**64 and of thousands of digits, deep nesting, wrong types, huge texts,
reasons off the list, other reviewers), a line of deep nesting, or the importers' byte
mutations. A copy of the project gets hostile values written into its stored events.
Each merge must end with exit 2 and one line of at most 300 characters, no traceback,
the project unchanged; or exit 0 with the project consistent and every name and reason
stored plain and every reason on the screening's list. No case may take more than
``MEMORY_BOUND`` of Python memory (tracemalloc's peak).
"""

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import export_decisions
from tests.fuzz.support import COUNTS, FIGURES, examples
from tests.fuzz.test_fuzz_importers import mutated
from tests.support.screening import screening_project
from tests.test_cli_bad_input import dump

MEMORY_BOUND = 200 << 20  # bytes of Python memory one merge may take at its peak
REASONS = ["wrong population", "wrong design"]
HOSTILE = [
    "\ud800", "B\udfffb", "\x1b]0;PWNED\x07\x1b[2J\x1b[31mEvil\x00", "\x00", "\x1b", "",
    " ", "\n", "\u2028", "Ada", "Bob", "consensus", "wrong population", "\x01\x1b[31m",
    "x" * 100_000, 2**64, 2**63, 2**63 - 1, -1, 0, 1.5, float("nan"), True, None, [], {},
    [[[["deep"]]]], {"reviewer": "Ada", "at": "2020-01-01"}, {"reviewer": 3},
    "decide", "undo", "resolve", "delete", "include", "exclude", "not_retrieved", "9",
]
FIELDS = ["kind", "reviewer", "at", "label", "reason", "note", "tags", "phase", "ordering",
          "position", "model", "record", "target", "record.year", "record.doi",
          "record.title", "record.abstract", "target.reviewer", "target.at"]
HEADER_FIELDS = ["format", "version", "reviewer", "screening", "screening.uuid", "unblinds",
                 "events", "project"]
# raw text replacing a value: what ``json.dumps`` cannot write
RAW = ["1" * 5000, "1" * 4000, "-" + "9" * 4400, "1e400", "[" * 10_000 + "]" * 10_000,
       '"\\ud800"', '"\\udfff\\ud800"', "NaN", "Infinity", '{"a": ' * 3000 + "1" + "}" * 3000]
COLUMNS = ["reviewer", "at", "kind", "label", "reason", "note", "tags", "phase", "ordering",
           "position", "model", "target", "target_key", "record_id"]
STORED = ["x'ff'", "x'c3'", "CAST(x'ff' AS TEXT)", "CAST(x'eda080' AS TEXT)", "9.5", "-1",
          "9223372036854775807", "''", "NULL", "'\x1b[2J'", "'[1, 2]'", "'{\"a\": 1}'",
          "'not json'", "999999", "zeroblob(100000)", "printf('%.*c', 100000, 'x')"]


@pytest.fixture(scope="module")
def workspace():
    """A project (topic T, list L, screening s with two reasons), Bob's copy with his
    events, and his decisions file."""
    folder = Path(tempfile.mkdtemp(prefix="litq-fuzz-decisions-"))
    made, _ = screening_project(folder, 6)
    base = made.rename(folder / "base.litq")
    with Project.open(base) as project:
        store.create_screening(project, "T", "s", ["L"], reasons=REASONS)
    bob = folder / "bob.litq"
    shutil.copy(base, bob)
    with Project.open(bob) as project:
        screening = store.find_screening(project, "T", "s")
        ids = store.items(project, screening.id)
        bobs = store.Context("Bob")
        for record, label in zip(ids[:3], ("include", "exclude", "maybe"), strict=True):
            project.write(store.decide_op(screening, record, label, bobs,
                                          reason="wrong design" if label == "exclude" else ""))
        project.write(store.undo_op(screening, bobs))
        project.write(store.redo_op(screening, bobs))
        project.write(store.resolve_op(screening, ids[3], "exclude", "Bob",
                                       reason="wrong population"))
        export_decisions(project, screening, "Bob", folder / "bob.jsonl")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _set(line: dict, path: str, value: object) -> None:
    head, _, tail = path.partition(".")
    if tail:
        inner = line.get(head)
        if not isinstance(inner, dict):
            inner = line[head] = {}
        inner[tail] = value
    else:
        line[head] = value


@st.composite
def hostile_file(draw, text: str) -> bytes:
    """Bob's decisions file ``text`` after a few hostile edits."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "value", "raw", "line", "bytes", "drop",
                                     "repeat"]))
        try:
            line = json.loads(lines[at])
        except (ValueError, RecursionError):  # a line an earlier edit made hostile
            line = None
        if kind in ("value", "raw") and isinstance(line, dict):
            field = draw(st.sampled_from(HEADER_FIELDS if at == 0 else FIELDS))
            if kind == "value":
                _set(line, field, draw(st.sampled_from(HOSTILE)))
                lines[at] = json.dumps(line, ensure_ascii=draw(st.booleans()))
            else:
                _set(line, field, "@RAW@")
                lines[at] = json.dumps(line).replace('"@RAW@"', draw(st.sampled_from(RAW)))
        elif kind == "line":
            lines.insert(at + 1, draw(st.sampled_from(RAW)))
        elif kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "repeat":
            lines += [lines[at]] * draw(st.integers(1, 200))
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    return draw(mutated(data)) if draw(st.integers(0, 4)) == 0 else data


def run_merge(project: Path, source: Path) -> tuple[int, str]:
    err = io.StringIO()
    tracemalloc.start()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = cli.main(["merge", str(project), str(source)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    key = "decisions: peak Python memory of a merge (MiB)"
    FIGURES[key] = max(FIGURES.get(key, 0.0), peak / (1 << 20))
    assert peak < MEMORY_BOUND, f"a merge took {peak >> 20} MiB"
    return code, err.getvalue()


def check_merge(workspace: Path, source: Path, what: str) -> None:
    """Merge ``source`` into a fresh copy of the base project; check the outcome."""
    project = workspace / "p.litq"
    for leftover in workspace.glob("p.litq*"):
        leftover.unlink()
    shutil.copy(workspace / "base.litq", project)
    before = dump(project)
    code, err = run_merge(project, source)
    if code == 2:
        COUNTS[f"{what}: refused (exit 2)"] += 1
        assert err.startswith("litqeval: error: ") and err.count("\n") == 1, err
        assert len(err.rstrip("\n")) <= 300 and "Traceback" not in err, err
        assert dump(project) == before
        return
    assert code == 0, err
    COUNTS[f"{what}: merged (exit 0)"] += 1
    conn = sqlite3.connect(project)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for reviewer, reason in conn.execute("SELECT reviewer, reason FROM screening_events"):
            assert reviewer == plain_name(reviewer) != "", repr(reviewer)
            assert reason is None or reason in REASONS, repr(reason)
        for (reviewer,) in conn.execute("SELECT reviewer FROM screening_unblinds"):
            assert reviewer == plain_name(reviewer) != "", repr(reviewer)
    finally:
        conn.close()


@given(data=st.data())
@example(data=None)
@examples(quick=40, full=2000)
def test_a_hostile_decisions_file_is_one_line_or_merged_clean(workspace, data):
    COUNTS["decisions files: cases"] += 1
    text = (workspace / "bob.jsonl").read_text(encoding="utf-8")
    raw = text.encode() if data is None else data.draw(hostile_file(text))
    source = workspace / "hostile.jsonl"
    source.write_bytes(raw)
    check_merge(workspace, source, "decisions files")


@given(edits=st.lists(st.tuples(st.sampled_from(COLUMNS), st.sampled_from(STORED),
                                st.booleans()), min_size=1, max_size=3))
@examples(quick=20, full=800)
def test_a_doctored_copy_is_one_line_or_merged_clean(workspace, edits):
    """Bob's copy with hostile values in its stored events (one event's, or all)."""
    COUNTS["doctored copies: cases"] += 1
    copy = workspace / "copy.litq"
    shutil.copy(workspace / "bob.litq", copy)
    conn = sqlite3.connect(copy)
    try:
        with conn:
            for column, value, every in edits:
                where = "" if every else " WHERE id = (SELECT MIN(id) FROM screening_events)"
                with contextlib.suppress(sqlite3.IntegrityError):  # NOT NULL, foreign keys
                    conn.execute(f"UPDATE screening_events SET {column} = {value}{where}")
    finally:
        conn.close()
    check_merge(workspace, copy, "doctored copies")
