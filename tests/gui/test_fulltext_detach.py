"""The screener's Detach PDF… and Replace PDF… on the reader's bar (Detach asks first;
the record then says it has no PDF), and a folder's PDF that matches two records of the
same title listed once per record with what tells them apart, one of them to tick."""

from __future__ import annotations

from PySide6.QtCore import Qt

from litqeval_gui.core.records.attachments import FolderMatch, attachment, candidates
from litqeval_gui.gui.screens.screening import attach
from litqeval_gui.gui.screens.screening import fulltext as fulltext_screen
from litqeval_gui.gui.screens.screening.attach import COLUMNS, MatchDialog
from tests.gui.test_fulltext_screener import _view, full_text  # noqa: F401 — the fixture
from tests.support.fulltext_pdfs import write_pdf


def _pdf_shown(qtbot, pane, pages):
    qtbot.waitUntil(lambda: pane.reader.page_total == pages, timeout=60_000)
    assert pane.pdf_actions.isVisible() and pane.stack.currentWidget() is pane.reader


def test_detach_pdf_asks_then_takes_the_pdf_off(qtbot, made, full_text, session,  # noqa: F811
                                                monkeypatch):
    view = _view(qtbot, session)
    pane = view.record
    _pdf_shown(qtbot, pane, 2)
    copy = attachment(session.project, full_text).path
    asked = []

    def confirm(_parent, title, text, verb):
        asked.append((title, text, verb))
        return len(asked) > 1  # No the first time, Yes the second

    monkeypatch.setattr(attach, "confirm", confirm)
    qtbot.mouseClick(pane.pdf_actions.detach_button, Qt.MouseButton.LeftButton)
    assert asked == [("Detach PDF", "Detach the PDF from this record? The project's copy "
                      "of it is deleted (the file you attached it from is not touched).",
                      "Detach")]
    assert attachment(session.project, full_text) is not None and copy.exists()
    qtbot.mouseClick(pane.pdf_actions.detach_button, Qt.MouseButton.LeftButton)
    # the row goes in the write the screen hears of; the copy is deleted after it
    qtbot.waitUntil(lambda: pane.stack.currentIndex() == 1 and not copy.exists(),
                    timeout=60_000)
    assert "No PDF attached" in pane.missing.text()
    assert attachment(session.project, full_text) is None
    assert view.shown == full_text


def test_replace_pdf_attaches_the_chosen_file_instead(qtbot, made, full_text, session,  # noqa: F811
                                                      tmp_path, monkeypatch):
    view = _view(qtbot, session)
    pane = view.record
    _pdf_shown(qtbot, pane, 2)
    old = attachment(session.project, full_text)
    chosen = write_pdf(tmp_path / "right.pdf", [["The right one"], ["two"], ["three"]])
    monkeypatch.setattr(fulltext_screen, "choose_pdf", lambda _parent: chosen)
    qtbot.mouseClick(pane.pdf_actions.replace_button, Qt.MouseButton.LeftButton)
    _pdf_shown(qtbot, pane, 3)
    new = attachment(session.project, full_text)
    assert new.path.read_bytes() == chosen.read_bytes() and new.sha256 != old.sha256
    qtbot.waitUntil(lambda: not old.path.exists(), timeout=60_000)  # deleted after the write


def test_records_of_one_title_are_offered_with_id_year_authors_and_doi(qtbot, session,
                                                                       tmp_path):
    first, second = [r for (r,) in session.project.db.execute(
        "SELECT id FROM records ORDER BY id LIMIT 2")]
    pdf = tmp_path / "paper.pdf"
    match = FolderMatch(certain=[], uncertain=[(first, pdf, 1.0, "title"),
                                               (second, pdf, 1.0, "title")],
                        unmatched=[], refused=[], pdf_titles={pdf: "The title on page one"})
    records = candidates(session.project, [first, second])
    dialog = MatchDialog(match, records, tmp_path)
    qtbot.addWidget(dialog)
    table = dialog.table
    assert [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())] == \
        list(COLUMNS)
    for row, record in enumerate((records[first], records[second])):
        assert [table.item(row, c).text() for c in range(1, 8)] == [
            "paper.pdf", "The title on page one", f"#{record.record_id}",
            str(record.year or ""), record.first_authors(), record.doi,
            record.title or "(no title)"]
    table.item(0, 0).setCheckState(Qt.CheckState.Checked)
    table.item(1, 0).setCheckState(Qt.CheckState.Checked)  # the other one: only it stays
    assert dialog.pairs() == [(second, pdf)]
