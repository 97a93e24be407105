"""Storage rows and the two-process RIS parse: identical to the serial parse."""

import json

import pytest

from litqeval_gui.core import exporting, synthetic
from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.importing import parallel, ris
from litqeval_gui.core.importing.parallel import read_rows
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records import Record
from litqeval_gui.core.storage import (
    CONTENT_COLUMNS,
    pack_raw,
    record_from_row,
    record_row,
    unpack_raw,
)


def test_pack_raw_stores_title_and_abstract_once_and_unpacks_exactly():
    raw = {"TY": "JOUR", "TI": "A title", "AB": "An abstract.", "AU": ["X, Y"], "T2": "A title"}
    packed = pack_raw(raw, "A title", "An abstract.")
    stored = json.loads(packed)
    assert "TI" not in stored and "AB" not in stored
    assert stored["_copied"] == {"TI": "title", "AB": "abstract", "T2": "title"}
    assert unpack_raw(packed, "A title", "An abstract.") == raw
    assert unpack_raw(pack_raw({"x": "1"}, "", ""), "", "") == {"x": "1"}
    assert unpack_raw(None, "t", "a") == {}


def test_record_row_follows_content_columns():
    rec = Record(title="Über Titel", abstract="Text", authors=["Ä, B"], year=2020, doi="10.1/x",
                 keywords=["k"], raw={"TI": "Über Titel"}, rank=3, source_line=7)
    row = dict(zip(CONTENT_COLUMNS, record_row(rec), strict=True))
    assert row["title_norm"] == "uber titel"
    assert json.loads(row["authors"]) == ["Ä, B"] and "Ä" in row["authors"]  # not escaped
    assert (row["rank"], row["year"], row["doi"], row["pmid"], row["ids"]) == (3, 2020, "10.1/x",
                                                                             None, None)
    assert unpack_raw(row["raw"], rec.title, rec.abstract) == rec.raw


def _ris_with_problems(tmp_path, n=3000):
    """A RIS file with a bad record in each half and a truncated last record."""
    records, _ = synthetic.generate(n, dup_rate=0.05, seed=11)
    path = tmp_path / "many.ris"
    exporting.export_records(records, path, "ris")
    text = path.read_text(encoding="utf-8")
    blocks = text.split("ER  - \n")
    for i in (10, len(blocks) * 3 // 4):  # no title and no abstract → rejected
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
    path, text = _ris_with_problems(tmp_path)
    assert 0 < ris.split_point(text) < len(text)
    assert ris.split_point(text, 0.9) > ris.split_point(text)
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
                 pmid="42", ids={"scopus_eid": "2-s2.0-1"}, raw={"TI": "Ein Titel", "N1": "n"},
                 rank=7, score=0.5, source_line=12)
    assert record_from_row(record_row(rec)) == rec
    bare = Record(title="Only a title", rank=1)
    assert record_from_row(record_row(bare)) == bare
