"""The full-text screen shows what applies to full text: the record's details, its PDF
(most of the height), not retrieved, the decision keys and the exclusion reasons with
their tally; no ordering, question, retraining, stopping panel or random sampling (nor
their Topic-menu actions). A title/abstract screening keeps all of them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QGroupBox, QLabel, QPushButton, QWidget

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attach_file
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.plots.curves import RecallCurvePlot
from litqeval_gui.gui.screens.screening.view import ScreeningView
from litqeval_gui.gui.settings import Settings
from tests.support.fulltext_pdfs import write_pdf

REASONS = ["wrong population", "wrong intervention", "wrong study design", "wrong outcome"]
RANKING_TEXTS = {"Ordering", "Question", "Retrain every", "Retrain now", "Known relevant…",
                 "Simulate…", "Random sampling…", "Stopping rules (advice only)"}
RANKING_ACTIONS = {"Retrain Ranking Now", "Switch to Random Sampling…"}


@pytest.fixture
def full_text(made, tmp_path):
    """Screening FT (full text) of list L; its first record has a two-page PDF."""
    pdf = write_pdf(tmp_path / "trial.pdf", [
        [(16, "Robotic versus laparoscopic suturing: a randomised trial"), "",
         "A. Author, B. Author", "", (13, "Abstract"),
         *["Background: robotic surgery is increasingly used for suturing."] * 4, "",
         (13, "Methods"), *["Participants were randomised to robotic or laparoscopic arms."] * 24],
        [(13, "Results"), *["Suturing time was shorter with the robot."] * 10]])
    with Project.open(made[0]) as project:
        screening = store.create_screening(project, "T", "FT", ["L"], phase="full_text",
                                           reasons=REASONS)
        attach_file(project, store.items(project, screening.id)[0], pdf)
    return screening


def _view(qtbot, session, name: str) -> ScreeningView:
    view = ScreeningView(session, store.find_screening(session.project, "T", name))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _shown_texts(view: QWidget) -> set[str]:
    """The texts of the visible buttons, labels (a form's too) and group boxes."""
    texts = set()
    for widget in view.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, (QPushButton, QLabel)):
            texts.add(widget.text())
        elif isinstance(widget, QGroupBox):
            texts.add(widget.title())
    return texts


def _curves_shown(view: QWidget) -> bool:
    return any(plot.isVisible() for plot in view.findChildren(RecallCurvePlot))


def test_the_full_text_screen_gives_the_pdf_the_height_and_no_ranking(qtbot, full_text,
                                                                      session, shot):
    view = _view(qtbot, session, "FT")
    reader = view.record.reader
    qtbot.waitUntil(lambda: reader.page_total == 2 and reader.pages[0].image is not None,
                    timeout=60_000)
    shown = _shown_texts(view)
    assert not shown & RANKING_TEXTS and not _curves_shown(view)
    assert not {a.text() for a in view.screen_actions()} & RANKING_ACTIONS
    assert {"Include (I)", "Exclude (E)", "Not retrieved (U)", "Exclusion reasons"} <= shown
    assert view.record.abstract.isVisible()  # the record's details, over the PDF
    assert reader.isVisible() and reader.height() >= 0.6 * view.height()
    assert all(reason in view.reason_tally.table.text() for reason in REASONS)
    assert not view._prioritised()
    shot(view, "fulltext_screen")


def test_a_title_abstract_screen_keeps_its_ranking_and_stopping_panel(qtbot, session):
    view = _view(qtbot, session, "S")
    assert RANKING_TEXTS <= _shown_texts(view) and _curves_shown(view)
    assert RANKING_ACTIONS <= {a.text() for a in view.screen_actions()}
    assert view.random_phase.button.isEnabled() and view.retrain_button.isEnabled()
    assert "Exclusion reasons" not in _shown_texts(view)


def test_the_reasons_count_the_exclusions_given_at_full_text(qtbot, full_text, session):
    view = _view(qtbot, session, "FT")
    with qtbot.waitActive(view):
        view.activateWindow()
    view.record.setFocus()

    def pick_the_third():
        qtbot.keyClicks(QApplication.activeModalWidget().filter, "3")
    QTimer.singleShot(0, pick_the_third)
    qtbot.keyClick(view, Qt.Key.Key_E)
    assert list(view.labels.values()) == ["exclude"]
    table = view.reason_tally.table.text()
    row = table[table.index("wrong study design"):]
    assert row[:row.index("</tr>")].endswith("<b>1</b></td>")
    assert table.count("<b>") == 1


def test_each_phase_keeps_its_own_splitter_sizes(qtbot, full_text, session):
    settings = Settings()
    view = _view(qtbot, session, "FT")
    view.restore_state(settings)
    view.record.splitter.setSizes([100, 650])
    view.splitter.setSizes([900, 370])
    view.save_state(settings)
    kept = (settings.splitter_sizes("screening.full_text"),
            settings.splitter_sizes("screening.full_text.pdf"))
    assert kept == (view.splitter.sizes(), view.record.splitter.sizes())
    assert settings.splitter_sizes("screening") is None  # the title/abstract screen's own
    again = _view(qtbot, session, "FT")
    again.restore_state(settings)
    assert (again.splitter.sizes(), again.record.splitter.sizes()) == kept
