"""The app's list exports carry the full texts, as ``litqeval export`` does: File ▸ Export…
of a list and of the records tab (with its filter) write the attached PDF's path as the
``pdf`` column and RIS ``L1``; a record without one has an empty cell and no ``L1``."""

import csv

import rispy
from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.attachments import attach_file
from tests.support import pages
from tests.support.fulltext_pdfs import write_pdf


def _attach_to_one_record(project_path, tmp_path):
    """Link a PDF to the first record of list scopus whose work no other record of the
    list shares (a PDF is its work's); the PDF, the record's title and its row index."""
    pdf = write_pdf(tmp_path / "one.pdf", [["full text"]])
    with Project.open(project_path) as project:
        info = queries.find_list(project, "search eval", "scopus")
        rows = project.db.execute("SELECT id, work_id FROM live_records WHERE import_id = ? "
                                  "ORDER BY rank, id", [info.id]).fetchall()
        works = [work for _, work in rows]
        index = next(i for i, (_, work) in enumerate(rows) if works.count(work) == 1)
        record_id = rows[index][0]
        attach_file(project, record_id, pdf, copy=False)
        title = queries.records_by_id(project, [record_id])[record_id].title
    return pdf, title, index


def _save_as(monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


def test_a_list_export_from_the_app_carries_the_pdf(window, project_path, tmp_path,
                                                    monkeypatch):
    pdf, _, index = _attach_to_one_record(project_path, tmp_path)
    expected = ["", "", "", "", ""]
    expected[index] = str(pdf)
    window.open_project(project_path)
    window.sidebar.setCurrentIndex(pages.sidebar_index(window.sidebar, "scopus"))
    _save_as(monkeypatch, tmp_path / "out.ris")
    window.action("export").trigger()
    entries = rispy.load((tmp_path / "out.ris").open(encoding="utf-8"))
    assert len(entries) == 5
    assert [e.get("file_attachments1") for e in entries] == [
        pdf.as_uri() if path else None for path in expected]
    _save_as(monkeypatch, tmp_path / "out.csv")
    window.action("export").trigger()
    with (tmp_path / "out.csv").open(encoding="utf-8-sig") as handle:
        assert [r["pdf"] for r in csv.DictReader(handle)] == expected


def test_the_records_tab_exports_the_pdf_of_its_filtered_rows(window, project_path,
                                                              tmp_path, monkeypatch):
    pdf, title, _ = _attach_to_one_record(project_path, tmp_path)
    window.open_project(project_path)
    window.sidebar.setCurrentIndex(pages.sidebar_index(window.sidebar, "scopus"))
    view = window.open_list(window.sidebar.current_list())
    view.filter_edit.setText(title)
    view.apply_filter()
    shown = view.model.rowCount()
    assert 1 <= shown < 5
    _save_as(monkeypatch, tmp_path / "shown.csv")
    view.export_action.trigger()
    with (tmp_path / "shown.csv").open(encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == shown
    assert [r["pdf"] for r in rows if r["title"] == title] == [str(pdf)]
    assert [r["pdf"] for r in rows if r["title"] != title] == [""] * (shown - 1)
    window.action("export").trigger()  # File ▸ Export… of the tab: the same columns
    with (tmp_path / "shown.csv").open(encoding="utf-8-sig") as handle:
        assert [r["pdf"] for r in csv.DictReader(handle)] == [r["pdf"] for r in rows]
