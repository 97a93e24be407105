"""The full-text screener (issue 26 §1): a full-text screening shows the record's PDF
under its abstract with the same keys; an exclusion takes a reason from the quick picker
(by keyboard), U reports a record not retrieved, a record without a PDF offers Attach…
and takes a dropped PDF, a missing one says so; a title/abstract screening is as it was."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attach_file, attachment
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.reason_picker import ReasonPicker
from litqeval_gui.gui.screens.screening.fulltext import FullTextPane
from litqeval_gui.gui.screens.screening.record import RecordPane
from litqeval_gui.gui.screens.screening.view import ScreeningView
from tests.support.fulltext_pdfs import write_pdf
from tests.support.screening_screen import settle

REASONS = ["wrong population", "wrong study design", "wrong outcome"]


@pytest.fixture
def full_text(made, tmp_path):
    """Screening FT (full text) of list L; its first record has a two-page PDF (copied)."""
    pdf = write_pdf(tmp_path / "first.pdf", [["A randomised trial of robotic surgery",
                                              "robotic suturing in mice"], ["Methods"]])
    with Project.open(made[0]) as project:
        screening = store.create_screening(project, "T", "FT", ["L"], phase="full_text",
                                           reasons=REASONS)
        first = store.items(project, screening.id)[0]
        attach_file(project, first, pdf)
    return first


def _view(qtbot, session, name="FT") -> ScreeningView:
    view = ScreeningView(session, store.find_screening(session.project, "T", name))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    _activate(qtbot, view)
    return view


def _activate(qtbot, view) -> None:
    """The screen's window active again (the offscreen platform leaves none active after
    a dialog closes), its record focused: where window-wide keys work."""
    qtbot.wait(10)  # a closed picker is deleted
    with qtbot.waitActive(view):
        view.activateWindow()
    assert QApplication.activeWindow() is view
    view.record.setFocus()


def _events(path):
    with Project.open(path, readonly=True) as project:
        return store.events(project, store.find_screening(project, "T", "FT").id)


def _press_in_picker(qtbot, keys) -> None:
    """Type ``keys`` into the reason picker once it is open (it is modal)."""
    def type_them():
        picker = QApplication.activeModalWidget()
        assert isinstance(picker, ReasonPicker)
        for key in keys:
            if isinstance(key, str):
                qtbot.keyClicks(picker.filter, key)
            else:
                qtbot.keyClick(picker.filter, key)
    QTimer.singleShot(0, type_them)


def test_the_pdf_is_shown_under_the_record_with_its_terms(qtbot, full_text, session):
    view = _view(qtbot, session)
    assert isinstance(view.record, FullTextPane) and view.shown == full_text
    reader = view.record.reader
    qtbot.waitUntil(lambda: reader.page_total == 2, timeout=60_000)
    assert view.record.stack.currentWidget() is reader
    view.include_edit.setText("robot*")
    view.include_edit.editingFinished.emit()
    qtbot.waitUntil(lambda: [h.kind for h in reader.pages[0].terms or ()] == ["include"] * 2,
                    timeout=60_000)  # "robotic" on both lines of page 1
    assert "U not retrieved" in view.key_map.text()
    assert view.buttons["not_retrieved"].isVisible()
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert reader.search_edit.hasFocus()


def test_e_asks_for_a_reason_and_digits_pick_it(qtbot, made, full_text, session):
    view = _view(qtbot, session)
    _press_in_picker(qtbot, ["2"])
    qtbot.keyClick(view, Qt.Key.Key_E)
    assert view.labels == {full_text: "exclude"}
    second = view.shown
    _activate(qtbot, view)
    _press_in_picker(qtbot, ["outc", Qt.Key.Key_Return])  # filtered to one, Enter takes it
    qtbot.keyClick(view, Qt.Key.Key_R)
    _activate(qtbot, view)
    _press_in_picker(qtbot, [Qt.Key.Key_Escape])  # cancelled: no decision
    qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    assert [(e.record_id, e.label, e.reason) for e in _events(made[0])] == [
        (full_text, "exclude", "wrong study design"), (second, "exclude", "wrong outcome")]
    assert len(view.labels) == 2


def test_a_new_reason_typed_in_the_picker_joins_the_list(qtbot, made, full_text, session):
    view = _view(qtbot, session)
    _press_in_picker(qtbot, ["not in English", Qt.Key.Key_Return])
    qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    assert [(e.label, e.reason) for e in _events(made[0])] == [("exclude", "not in English")]
    with Project.open(made[0], readonly=True) as project:
        assert store.find_screening(project, "T", "FT").reasons == (*REASONS, "not in English")


def test_u_reports_the_record_not_retrieved(qtbot, made, full_text, session):
    view = _view(qtbot, session)
    qtbot.keyClick(view, Qt.Key.Key_U)
    qtbot.mouseClick(view.buttons["not_retrieved"], Qt.MouseButton.LeftButton)
    settle(qtbot, session)
    events = _events(made[0])
    assert [(e.label, e.reason) for e in events] == [("not_retrieved", "")] * 2
    assert events[0].record_id == full_text and view.labels[full_text] == "not_retrieved"
    assert "<b>2</b> screened" in view.progress.counts.text()
    assert "<b>2</b> not retrieved" in view.progress.counts.text()


def test_a_record_without_a_pdf_takes_a_dropped_one(qtbot, made, full_text, tmp_path, session):
    view = _view(qtbot, session)
    qtbot.keyClick(view, Qt.Key.Key_I)
    pane, record_id = view.record, view.shown
    assert pane.stack.currentIndex() == 1 and "No PDF attached" in pane.missing.text()
    assert pane.attach_button.text() == "Attach PDF…"
    dropped = write_pdf(tmp_path / "second.pdf", [["Second study"]])
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(dropped))])
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, data,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    pane.dropEvent(drop)
    assert drop.isAccepted()
    qtbot.waitUntil(lambda: pane.reader.page_total == 1, timeout=60_000)
    assert pane.stack.currentWidget() is pane.reader
    stored = attachment(session.project, record_id)
    assert stored.mode == "copy" and stored.status == "ok"
    assert stored.path.read_bytes() == dropped.read_bytes()
    assert stored.path.parent.name == "screen.litq.files"


@pytest.fixture
def linked(made, tmp_path):
    """Screening FT whose first record's PDF is linked, then deleted."""
    path = write_pdf(tmp_path / "linked.pdf", [["Linked study"]])
    with Project.open(made[0]) as project:
        screening = store.create_screening(project, "T", "FT", ["L"], phase="full_text",
                                           reasons=REASONS)
        attach_file(project, store.items(project, screening.id)[0], path, copy=False)
    path.unlink()
    return path


def test_a_missing_link_says_where_it_was(qtbot, linked, session):
    view = _view(qtbot, session)
    assert view.record.stack.currentIndex() == 1
    assert "missing" in view.record.missing.text() and str(linked) in view.record.missing.text()
    assert view.record.attach_button.text() == "Attach again…"


def test_a_title_abstract_screening_keeps_its_pane_and_keys(qtbot, session):
    view = _view(qtbot, session, "S")
    assert type(view.record) is RecordPane
    assert "not_retrieved" not in view.buttons and "U not" not in view.key_map.text()
    qtbot.keyClick(view.record, Qt.Key.Key_U)  # no such key here
    assert view.labels == {}


def test_a_changed_pdf_is_shown_with_a_warning(qtbot, made, full_text, session):
    stored = attachment(session.project, full_text)
    stored.path.write_bytes(stored.path.read_bytes() + b"\n% appended\n")  # still a PDF
    view = _view(qtbot, session)
    pane = view.record
    qtbot.waitUntil(lambda: pane.reader.page_total == 2, timeout=60_000)
    assert pane.warning.isVisible() and "changed since it was attached" in pane.warning.text()


def test_attach_asks_for_a_file_and_links_it_when_copy_is_unticked(qtbot, made, full_text,
                                                                    tmp_path, session,
                                                                    monkeypatch):
    from litqeval_gui.gui.screens.screening import fulltext

    view = _view(qtbot, session)
    qtbot.keyClick(view, Qt.Key.Key_M)  # on to a record without a PDF
    chosen = write_pdf(tmp_path / "chosen.pdf", [["Chosen"], ["two"], ["three"]])
    monkeypatch.setattr(fulltext, "choose_pdf", lambda _parent: chosen)
    view.record.copy_box.setChecked(False)
    qtbot.mouseClick(view.record.attach_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.record.reader.page_total == 3, timeout=60_000)
    stored = attachment(session.project, view.shown)
    assert (stored.mode, stored.path) == ("link", chosen)


def test_a_small_screener_shows_the_pdf_from_its_top(qtbot, made, full_text, session):
    view = ScreeningView(session, store.find_screening(session.project, "T", "FT"))
    qtbot.addWidget(view)
    view.resize(900, 560)
    view.show()
    reader = view.record.reader
    qtbot.waitUntil(lambda: reader.page_total == 2 and reader.pages[0].image is not None,
                    timeout=60_000)
    assert reader.scroll.verticalScrollBar().value() == 0 and reader.pages[0].y() == 8
