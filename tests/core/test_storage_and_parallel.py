"""Storage rows and the two-process RIS parse: identical to the serial parse."""

import codecs
import json
import multiprocessing
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel, workers
from litqeval_gui.core.records.importing.parallel import read_rows
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.rows import (
    CONTENT_COLUMNS,
    pack_raw,
    record_from_row,
    record_row,
    unpack_raw,
)
from tests.support import synthetic


def test_pack_raw_stores_copies_of_columns_once_and_unpacks_exactly():
    rec = Record(title="A title", abstract="An abstract.", authors=["X, Y", "Z, W"],
                 keywords=["k1"], venue="Venue", type="JOUR", language="",
                 raw={"TY": "JOUR", "TI": "A title", "AB": "An abstract.", "AU": ["X, Y", "Z, W"],
                      "A2": ["X, Y"], "KW": ["k1"], "T2": "A title", "JF": "Venue", "LA": "",
                      "PY": "2001", "N": 1, "L": []})
    packed = pack_raw(rec)
    stored = json.loads(packed)
    assert stored["_copied"] == {"TI": "title", "AB": "abstract", "AU": "authors",
                                 "KW": "keywords", "T2": "title", "JF": "venue", "TY": "type"}
    assert stored == {"A2": ["X, Y"], "LA": "", "PY": "2001", "N": 1, "L": [],
                      "_copied": stored["_copied"]}
    unpacked = unpack_raw(packed, rec)
    assert unpacked == rec.raw
    assert unpacked["AU"] is not rec.authors  # a copy: editing one does not edit the other
    assert unpack_raw(pack_raw(Record(raw={"x": "1"})), Record()) == {"x": "1"}
    assert unpack_raw(None, rec) == {}


def test_rows_written_by_earlier_versions_still_unpack():
    rec = Record(title="T", abstract="A")
    old = '{"TY": "JOUR", "_copied": {"TI": "title", "AB": "abstract"}}'  # separators of v0.1
    assert unpack_raw(old, rec) == {"TY": "JOUR", "TI": "T", "AB": "A"}


@given(st.lists(st.text()))
def test_lists_of_strings_are_stored_as_json(items):
    row = dict(zip(CONTENT_COLUMNS, record_row(Record(title="t", authors=items, keywords=items)),
                   strict=True))
    assert json.loads(row["authors"]) == items and json.loads(row["keywords"]) == items


def test_record_row_follows_content_columns():
    rec = Record(title="Über Titel", abstract="Text", authors=["Ä, B"], year=2020, doi="10.1/x",
                 keywords=["k"], raw={"TI": "Über Titel"}, rank=3, source_line=7)
    row = dict(zip(CONTENT_COLUMNS, record_row(rec), strict=True))
    assert row["title_norm"] == "uber titel"
    assert json.loads(row["authors"]) == ["Ä, B"] and "Ä" in row["authors"]  # not escaped
    assert (row["rank"], row["year"], row["doi"], row["pmid"], row["ids"]) == (3, 2020, "10.1/x",
                                                                             None, None)
    assert unpack_raw(row["raw"], rec) == rec.raw


def _ris_with_problems(tmp_path, n=3000):
    """A RIS file with a bad record in each half and a truncated last record."""
    records, _ = synthetic.generate(n, dup_rate=0.05, seed=11)
    path = tmp_path / "many.ris"
    exporting.export_records(records, path, "ris")
    text = path.read_text(encoding="utf-8")
    blocks = text.split("ER  - \n")
    for i in (10, len(blocks) * 3 // 4):  # no title, abstract or identifier → rejected
        blocks[i] = "\nTY  - JOUR\nPY  - 2001\n"
    text = "ER  - \n".join(blocks) + "TY  - JOUR\nTI  - Cut off mid-way\n"
    path.write_text(text, encoding="utf-8")
    return path, text


def _rows(path, **kw):
    rows, batches = [], []
    def sink(batch, rank_offset):
        rows.extend((row[0] + rank_offset, *row[1:]) for row in batch)
        batches.append(1)

    result = run_job(read_rows(path, sink, **kw))
    return result, rows, len(batches)


def test_parallel_parse_equals_serial_parse(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)  # several pieces come back
    path, _ = _ris_with_problems(tmp_path)
    serial, serial_rows, _ = _rows(path, parallel=False)
    both, both_rows, batches = _rows(path, parallel=True)
    assert batches > 2  # rows reach the sink while parsing goes on
    assert len(serial_rows) == 2998 and both_rows == serial_rows
    assert [row[0] for row in both_rows] == list(range(1, 2999))  # ranks run on across halves
    assert both.rejected == serial.rejected
    assert [(r.number, r.line) for r in both.rejected][:2] == [(r.number, r.line) for r in
                                                               serial.rejected][:2]
    assert len(both.rejected) == 3 and both.rejected[-1].number == 3001
    assert both.notes == serial.notes and any("truncated" in n for n in both.notes)
    assert (both.format, both.encoding, both.database) == (serial.format, serial.encoding,
                                                           serial.database)
    assert both.records == [] and serial.records == []


@pytest.mark.parametrize("variant", ["crlf", "bom", "cp1252", "utf16", "lone-cr"])
def test_parallel_parse_equals_serial_parse_in_every_encoding(tmp_path, monkeypatch, variant):
    """UTF-8 (LF, CRLF, BOM) is cut as bytes and decoded by the workers; the rest is
    decoded first. Either way records, ranks, lines, notes and encoding are the serial ones."""
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)
    path, text = _ris_with_problems(tmp_path, n=1000)
    text = text.replace("TI  - ", "TI  - Café ", 5)  # not ASCII
    if variant == "crlf":
        data = text.replace("\n", "\r\n").encode("utf-8")
    elif variant == "bom":
        data = codecs.BOM_UTF8 + text.encode("utf-8")
    elif variant == "cp1252":
        data = text.encode("cp1252", errors="replace")
    elif variant == "utf16":
        data = text.encode("utf-16")
    else:
        data = text.replace("\n", "\r").encode("utf-8")
    path.write_bytes(data)
    serial, serial_rows, _ = _rows(path, parallel=False)
    both, both_rows, batches = _rows(path, parallel=True)
    assert batches > 2 and len(both_rows) == 998 and both_rows == serial_rows
    assert sum("Café" in row[2] for row in both_rows) == 5
    assert [(r.number, r.line) for r in both.rejected] == [(r.number, r.line)
                                                          for r in serial.rejected]
    assert both.rejected[0].line > 1 and len(both.rejected) == 3
    assert (both.encoding, both.notes) == (serial.encoding, serial.notes)
    expected = {"crlf": "utf-8", "bom": "utf-8-sig", "cp1252": "cp1252", "utf16": "utf-16",
                "lone-cr": "utf-8"}[variant]
    assert both.encoding == expected


def test_pieces_of_bytes_and_of_text_agree(monkeypatch):
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 2)
    text = "".join(f"TY  - JOUR\nTI  - Tïtle {i}\nER  - \n\n" for i in range(5))
    as_text = list(parallel._pieces(text))
    as_bytes = list(parallel._pieces(b"\xef\xbb\xbf" + text.encode("utf-8"), 3))
    assert [(p, line, n) for p, line, n in as_text] == [(p.decode("utf-8"), line, n)
                                                       for p, line, n in as_bytes]
    assert [(line, n) for _, line, n in as_text] == [(1, 0), (8, 2), (16, 4)]


def test_without_worker_processes_the_pieces_are_parsed_here(tmp_path, monkeypatch):
    """A sandbox without processes: the import still runs, serially."""
    class NoProcesses:
        def get_start_method(self):
            return "forkserver"

        def set_forkserver_preload(self, modules):
            pass

        def Pipe(self):  # noqa: N802 — the multiprocessing API's name
            return multiprocessing.Pipe()

        def Process(self, *args, **kwargs):  # noqa: N802
            raise PermissionError(13, "processes are not available")

    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)
    monkeypatch.setattr(workers, "process_context", NoProcesses)
    path, _ = _ris_with_problems(tmp_path)
    serial, serial_rows, _ = _rows(path, parallel=False)
    both, both_rows, batches = _rows(path, parallel=True)
    assert batches == 10 and both_rows == serial_rows and len(both_rows) == 2998
    assert [(r.number, r.line) for r in both.rejected] == [(r.number, r.line)
                                                          for r in serial.rejected]


def test_parallel_parse_numbers_records_missing_their_er_line_as_the_serial_one(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)
    path, text = _ris_with_problems(tmp_path)
    blocks = text.split("ER  - \n")
    for i in (5, 400, 1700):  # three records lose their ER line: more records than ERs
        blocks[i] += "ER-LOST"
    for i in range(20, 2900, 100):  # 29 years that cannot be read, in every piece
        blocks[i] = re.sub(r"\nPY  - \d+", "\nPY  - notayear", blocks[i])
    path.write_text("".join(b if b.endswith("ER-LOST") else b + "ER  - \n"
                            for b in blocks[:-1]).replace("ER-LOST", "") + blocks[-1],
                    encoding="utf-8")
    serial, serial_rows, _ = _rows(path, parallel=False)
    both, both_rows, _ = _rows(path, parallel=True)
    assert sum("read up to the next 'TY  -' line" in n for n in serial.notes) == 3
    assert both_rows == serial_rows and both.notes == serial.notes
    assert both.rejected == serial.rejected and both.rejected[-1].number == 3001
    assert "… and 9 more fields that could not be read" in serial.notes


def test_a_script_read_from_stdin_imports_a_large_file_serially(tmp_path):
    """Workers could not re-import such a script (they would die and be restarted
    forever): the import must finish, parsed in this process."""
    path, _ = _ris_with_problems(tmp_path)
    script = ("from litqeval_gui.core.records.importing import parallel\n"
              "from litqeval_gui.core.jobs import run_job\n"
              "parallel.PIECE_RECORDS, parallel.MAIN_PIECES = 300, 0  # pieces for workers\n"
              "rows = []\n"
              f"result = run_job(parallel.read_rows({str(path)!r}, "
              "lambda b, o: rows.extend(b), parallel=True))\n"
              "print(len(rows), len(result.rejected))\n")
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2998", "3"]


def test_a_script_without_a_main_guard_imports_a_large_file_serially(tmp_path):
    """Workers would run such a script again (each starting its own import and pool,
    for ever): it must finish, parsed in this process."""
    path, _ = _ris_with_problems(tmp_path)
    script = tmp_path / "unguarded.py"
    script.write_text("from litqeval_gui.core.records.importing import parallel\n"
                      "from litqeval_gui.core.jobs import run_job\n"
                      "parallel.PIECE_RECORDS, parallel.MAIN_PIECES = 300, 0\n"
                      "rows = []\n"
                      f"result = run_job(parallel.read_rows({str(path)!r}, "
                      "lambda b, o: rows.extend(b), parallel=True))\n"
                      "print(len(rows), len(result.rejected), flush=True)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2998", "3"]
    guarded = tmp_path / "guarded.py"
    guarded.write_text("from litqeval_gui.core import scaleout\n"
                       "if __name__ == '__main__':\n"
                       "    print(scaleout.main_importable())\n")
    done = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.stdout.split() == ["True"], done.stderr[-2000:]


def test_parallel_parse_applies_the_filter_on_both_halves(tmp_path):
    records, _ = synthetic.generate(2000, dup_rate=0.0, seed=5)
    for i, rec in enumerate(records):
        rec.keywords = ["keep"] if i % 2 else ["drop"]
    path = tmp_path / "f.ris"
    exporting.export_records(records, path, "ris")
    serial, rows_s, _ = _rows(path, where={"keywords": "keep"}, parallel=False)
    both, rows_b, _ = _rows(path, where={"keywords": "keep"}, parallel=True)
    assert len(rows_b) == 1000 and rows_b == rows_s and both.notes == serial.notes


def test_parallel_parse_refuses_a_file_without_usable_records(tmp_path):
    path = tmp_path / "bad.ris"
    path.write_text("TY  - JOUR\nPY  - 2001\nER  - \n\n" * 50, encoding="utf-8")
    with pytest.raises(ImportRefused, match="no usable records"):
        _rows(path, parallel=True)


def test_record_from_row_inverts_record_row():
    rec = Record(title="Ein Titel", abstract="Text.", authors=["Ä, B", "C, D"], year=2021,
                 venue="J", keywords=["k1", "k2"], type="JOUR", language="de", doi="10.1/x",
                 pmid="42", ids={"scopus_eid": "2-s2.0-1"}, raw={"TI": "Ein Titel", "N1": "n",
                                                                  "VL": "12", "SN": "1-2"},
                 rank=7, score=0.5, source_line=12, volume="12", issue="3", pages="1-9",
                 publisher="P", issn="1-2", url="https://x.org/a")
    assert record_from_row(record_row(rec)) == rec
    packed = dict(zip(CONTENT_COLUMNS, record_row(rec), strict=True))["raw"]
    assert '"VL":"volume"' in packed and '"SN":"issn"' in packed  # stored once
    bare = Record(title="Only a title", rank=1)
    assert record_from_row(record_row(bare)) == bare


@given(st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n"]), max_size=40).map(b"".join),
       st.integers(1, 6))
def test_the_lone_cr_check_counted_per_block_agrees_with_one_whole_count(data, block):
    assert parallel._no_lone_cr(data, block) == (data.count(b"\r") == data.count(b"\r\n"))


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    | st.dates(),  # not JSON: written as str() gives it
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@given(st.dictionaries(st.text(), _json_values, max_size=6))
def test_a_rows_json_is_what_json_dumps_writes(value):
    """The fields and identifiers of a row are written by json's C encoder made once:
    the same text as json.dumps (no ASCII escapes, no spaces, str() of other objects,
    NaN and infinities as json writes them)."""
    from litqeval_gui.core.records import rows

    assert rows._encode(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                             default=str)
