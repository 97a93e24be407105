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
