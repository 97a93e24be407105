"""export_records → read_records gives the same records back, for every export format."""

from pathlib import Path

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.exporting import export_records
from litqeval_gui.core.importing import read_records
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records import Record

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"
KEPT = ("title", "abstract", "authors", "year", "venue", "keywords", "doi", "pmid", "ids",
        "type", "language")


def records(record_type):
    return [
        Record(title='Über "deep" learning: 50% of {cases} & $x$ #1 ~ _under_ \\ back',
               abstract="Müller's café; commas, and – dashes.", authors=["Müller, Hans", "Doe J."],
               year=2021, venue="J. Clin. Epidemiol.", keywords=["Neoplasms, Lung", "ß-test"],
               type=record_type, language="English", doi="10.1016/j.x_2021.01%20", pmid="123",
               ids={"pmcid": "PMC9", "scopus_eid": "2-s2.0-85000000001",
                    "wos_ut": "WOS:000000000000001", "docid": "D 1"}),
        Record(title="Only a title", type=record_type),
        Record(abstract="Only an abstract", authors=["Solo, A."], type=record_type,
               keywords=["single"], ids={"openalex": "W42"}),
    ]


def same(a: Record, b: Record) -> dict:
    return {k: (getattr(a, k), getattr(b, k)) for k in KEPT if getattr(a, k) != getattr(b, k)}


@pytest.mark.parametrize(("fmt", "suffix", "record_type"), [
    ("ris", ".ris", "JOUR"), ("csv", ".csv", "Article"), ("bibtex", ".bib", "article"),
    ("xlsx", ".xlsx", "Journal Article"), ("bibtex", ".bib", "JOUR")])
def test_round_trip(tmp_path, fmt, suffix, record_type):
    original = records(record_type)
    path = tmp_path / f"out{suffix}"
    assert export_records(original, path, fmt) == 3
    back = run_job(read_records(path)).records
    assert [same(a, b) for a, b in zip(original, back, strict=True)] == [{}, {}, {}]
    assert [r.rank for r in back] == [1, 2, 3]


@pytest.mark.parametrize("fixture", ["scopus.csv", "jabref.bib", "pubmed.nbib", "zotero.ris"])
@pytest.mark.parametrize("fmt", ["ris", "csv", "bibtex", "xlsx"])
def test_imported_fixtures_survive_every_export(tmp_path, fixture, fmt):
    original = run_job(read_records(FIX / fixture)).records
    for record in original:  # RIS and BibTeX values are single lines
        record.abstract = " ".join(record.abstract.split())
        record.title = " ".join(record.title.split())
    path = tmp_path / f"out.{fmt}"
    export_records(original, path, fmt)
    back = run_job(read_records(path)).records
    diffs = [same(a, b) for a, b in zip(original, back, strict=True)]
    if fmt == "bibtex":  # non-BibTeX types come back through @misc's type field
        assert [b.type for b in back] == [a.type for a in original]
    assert diffs == [{}] * len(original)


def test_unknown_format_and_unwritable_target(tmp_path):
    with pytest.raises(LitqError, match="cannot export as 'pdf'"):
        export_records([], tmp_path / "x.pdf", "pdf")
    with pytest.raises(LitqError, match="cannot write"):
        export_records(records("JOUR"), tmp_path / "missing-dir" / "x.ris", "ris")


# -- the target: never the project (issue 11 §1.1) --------------------------------------

@pytest.mark.parametrize("name", ["p.litq", "p.litq-wal", "p.litq-shm", "p.litq-journal",
                                  "p.litq.lock", "p.litq.v1.bak", "other.db"])
def test_refuses_the_project_its_side_files_and_any_sqlite_file(tmp_path, name):
    import sqlite3

    from litqeval_gui.core.project import Project

    project = tmp_path / "p.litq"
    Project.create(project).close()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    target = tmp_path / name
    if not target.exists():
        target.write_bytes(b"side file")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(LitqError, match="refusing"):
        export_records(records("JOUR"), target, "csv", project=project)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_failed_export_leaves_the_old_file_and_no_partial(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")

    def broken():
        yield records("JOUR")[0]
        raise LitqError("stop")

    with pytest.raises(LitqError, match="stop"):
        export_records(broken(), target, "csv")
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    assert target.read_text() == "old"


def test_extension_warning():
    from litqeval_gui.core.exporting import extension_warning

    assert "does not match the format ris" in extension_warning("out.csv", "ris")
    assert extension_warning("OUT.RIS", "ris") == extension_warning("x.bib", "bibtex") == ""


# -- formulas (issue 11 §1.6) -----------------------------------------------------------

HOSTILE = ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "=HYPERLINK(\"http://x\",\"y\")",
           "=cmd|' /C calc'!A0", "'=already quoted", "''two quotes", "'plain quote",
           "-2 is a number", "@handle in a title"]


def test_csv_escapes_formula_cells_and_round_trips_every_title(tmp_path):
    import csv

    titles = [*HOSTILE, "\tTAB=1", "\rCR=1"]
    original = [Record(title=t, abstract="a", authors=["=evil, A."]) for t in titles]
    path = tmp_path / "out.csv"
    export_records(original, path, "csv")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
    assert rows[0]["title"] == "'=1+1" and rows[0]["authors"] == "'=evil, A."
    back = run_job(read_records(path)).records
    assert [r.title for r in back] == [*HOSTILE, "TAB=1", "CR=1"]  # cells are trimmed
    assert {tuple(r.authors) for r in back} == {("=evil, A.",)}


def test_xlsx_stores_strings_never_formulas_and_round_trips_every_title(tmp_path):
    from openpyxl import load_workbook

    original = [Record(title=t, abstract="=abstract") for t in HOSTILE]
    path = tmp_path / "out.xlsx"
    export_records(original, path, "xlsx")
    sheet = load_workbook(path).worksheets[0]
    kinds = {cell.data_type for row in sheet.iter_rows(min_row=2) for cell in row
             if cell.value is not None}
    assert kinds == {"s"}
    back = run_job(read_records(path)).records
    assert [r.title for r in back] == HOSTILE
    assert {r.abstract for r in back} == {"=abstract"}
