"""The import says how many records it kept without title or abstract (issue 28 §2), the
same whether a RIS file is parsed here or in pieces by worker processes."""

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel
from litqeval_gui.core.records.importing.parallel import read_rows
from litqeval_gui.core.records.model import Record
from tests.support import synthetic

NOTE = "record(s) without title or abstract kept by their identifiers"


def _read(path, **options):
    rows: list = []
    result = run_job(read_rows(path, lambda batch, offset: rows.extend(batch), **options))
    return result, len(rows)


def test_serial_and_parallel_reads_count_the_textless_records_alike(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)  # several pieces come back
    records, _ = synthetic.generate(1200, dup_rate=0.0, seed=6)
    for i in range(0, 1200, 100):  # 12 records in different pieces keep only their PMID
        records[i] = Record(pmid=str(900_000 + i), year=2001)
    path = tmp_path / "many.ris"
    exporting.export_records(records, path, "ris")
    serial, serial_rows = _read(path, parallel=False)
    both, both_rows = _read(path, parallel=True)
    assert serial_rows == both_rows == 1200 and serial.rejected == both.rejected == []
    assert [n for n in serial.notes if NOTE in n] == [f"12 {NOTE} (screened by what they "
                                                      "have, ranked last)"]
    assert both.notes == serial.notes


def test_no_note_without_textless_records_or_for_a_trec_run(tmp_path):
    path = tmp_path / "few.ris"
    exporting.export_records(synthetic.generate(5, dup_rate=0.0, seed=1)[0], path, "ris")
    assert not any(NOTE in n for n in _read(path)[0].notes)
    run = tmp_path / "x.run"
    run.write_text("1 Q0 d1 1 0.9 r\n1 Q0 d2 2 0.8 r\n")
    assert not any(NOTE in n for n in _read(run, fmt="trec-run")[0].notes)
