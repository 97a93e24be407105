"""The screener shows a record without title or abstract (issue 28 §2) by what it has:
its identifiers as links, authors and year, and says it has no text; the records view
lists it, its detail with a PubMed link."""

import csv

from PySide6.QtCore import Qt

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.screens.records.view import RecordsView
from litqeval_gui.gui.screens.screening.record import NO_TEXT, record_html
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.support.screening import labelled_records
from tests.support.screening_screen import logged_events, screening_view, settle


def test_a_textless_record_shows_its_identifiers_as_links_and_says_it_has_no_text():
    record = Record(authors=["Ng A", "Chen B"], year=1998, doi="10.1053/euhj.1998.1271",
                    pmid="10075143", ids={"docid": "101", "scopus_eid": "2-s2.0-85090000000"})
    page = record_html(record, ["robot*"], [])
    assert '<a href="https://doi.org/10.1053/euhj.1998.1271">' in page
    assert '<a href="https://pubmed.ncbi.nlm.nih.gov/10075143/">PMID 10075143</a>' in page
    for text in ("Ng A; Chen B", "1998", "id 101 · Scopus EID 2-s2.0-85090000000",
                 "(no title)", NO_TEXT):
        assert text in page, text


def test_a_record_with_a_title_but_no_abstract_is_not_called_textless():
    page = record_html(Record(title="Robots", pmid="7"), [], [])
    assert "<i>(no abstract)</i>" in page and NO_TEXT not in page


def test_the_records_view_lists_a_textless_record(tmp_path, qtbot):
    source = tmp_path / "ace.csv"
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["record_id", "title", "abstract", "doi", "pubmed_id", "year"])
        writer.writerow(["1", "Robots in surgery", "An arm.", "10.1000/a", "11", "2001"])
        writer.writerow(["2", "", "", "10.1053/euhj.1998.1271", "10075143", "1998"])
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
    session = ProjectSession(Project.open(tmp_path / "p.litq"))
    view = RecordsView(session, queries.find_list(session.project, "T", "L"))
    qtbot.addWidget(view)
    assert view.model.rowCount() == 2
    assert [view.model.index(1, c).data() for c in range(5)] == [
        "2", "(no title)", "1998", "", "10.1053/euhj.1998.1271"]
    view.table.selectRow(1)
    qtbot.waitUntil(lambda: "10075143" in view.detail.toHtml())
    assert "https://pubmed.ncbi.nlm.nih.gov/10075143/" in view.detail.toHtml()
    view.close()
    assert session.close()


def _screener(qtbot, path):
    """Reviewer Ann's session on ``path`` and the screener of its screening "S"."""
    settings = Settings()
    settings.reviewer = "Ann"
    settings.save()
    session = ProjectSession(Project.open(path))
    return session, screening_view(qtbot, session)


def test_the_screener_shows_and_decides_a_textless_record(tmp_path, qtbot, shot):
    source = tmp_path / "ace.csv"
    records, labels = labelled_records(20, 0.2, seed=2)
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["record_id", "title", "abstract", "doi", "pubmed_id", "authors",
                         "year", "label_included"])
        writer.writerow(["1", "", "", "10.1053/euhj.1998.1271", "10075143", "Ng A; Chen B",
                         "1998", "1"])
        writer.writerows([i + 2, r.title, r.abstract, "", "", "", r.year or "", label]
                         for i, (r, label) in enumerate(zip(records, labels, strict=True)))
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
        store.create_screening(project, "T", "S", ["L"])
    session, view = _screener(qtbot, path)
    first = store.items(session.project, view.screening.id)[0]
    assert view.shown == first
    page = view.record.toHtml()
    assert "No text: the export gave neither title nor abstract" in page
    assert "https://pubmed.ncbi.nlm.nih.gov/10075143/" in page and "Ng A; Chen B" in page
    shot(view, "screener_textless_record")
    qtbot.keyClick(view, Qt.Key.Key_I)
    settle(qtbot, session)
    assert [(e.record_id, e.label) for e in logged_events(path)] == [(first, "include")]
    view.close()
    assert session.close()


def test_the_screener_shows_a_run_record_with_its_collection_text(tmp_path, qtbot, shot):
    run = tmp_path / "run.txt"
    run.write_text("".join(f"T Q0 {d} {i} {9 - i} bm25\n"
                           for i, d in enumerate(["23919950", "11111111"], 1)),
                   encoding="utf-8")
    texts = tmp_path / "texts.jsonl"
    texts.write_text('{"id": "23919950", "title": "Aspirin after infarction", '
                     '"abstract": "Aspirin lowered deaths."}\n', encoding="utf-8")
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, run, topic="T", role="results", name="run"))
        run_job(ingest.import_file(project, texts, topic="T", role="collection",
                                   name="CLEF texts", pubmed_ids=True))
        store.create_screening(project, "T", "S", ["run"])
    session, view = _screener(qtbot, path)
    page = view.record.toHtml()
    for text in ("Aspirin after infarction", "Aspirin lowered deaths.", "CLEF texts",
                 "https://pubmed.ncbi.nlm.nih.gov/23919950/", "run (#1)"):
        assert text in page, text
    assert "CLEF texts (#" not in page and "No text:" not in page
    shot(view, "screener_collection_text")
    view.close()
    assert session.close()
