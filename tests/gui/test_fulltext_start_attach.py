"""Starting a full-text screening and attaching a folder of PDFs from the app (issue 26
§1), and screenshots of the full-text screener (light and dark) to look at."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.attachments import (
    FolderMatch,
    attach_file,
    attachment,
    candidates,
)
from litqeval_gui.core.screening import fulltext
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession, write_now
from litqeval_gui.gui.reason_picker import ReasonPicker
from litqeval_gui.gui.screens.screening import fulltext as fulltext_screen
from litqeval_gui.gui.screens.screening.attach import FolderAttacher, MatchDialog
from litqeval_gui.gui.screens.screening.start import StartDialog
from litqeval_gui.gui.screens.screening.view import ScreeningView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.gui.themed import shoot_both
from tests.support.fulltext_pdfs import damaged_pdf, write_pdf

RIS = """TY  - JOUR
TI  - Deep learning for polyp detection in colonoscopy videos
AU  - Smith, Anna
PY  - 2020
DO  - 10.1016/j.gie.2020.01.002
AB  - A convolutional network finds polyps in colonoscopy videos in real time.
ER  -

TY  - JOUR
TI  - Polyp size estimation with a virtual scale endoscope
AU  - Berg, Frida
PY  - 2022
ER  -

TY  - JOUR
TI  - Capsule endoscopy reading times with artificial intelligence support
AU  - Jones, Bert
PY  - 2019
ER  -
"""


@pytest.fixture
def project_path(tmp_path):
    """Topic T, list L of three records; screening S decided include, maybe, exclude."""
    ris = tmp_path / "L.ris"
    ris.write_text(RIS, encoding="utf-8")
    path = tmp_path / "review.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, ris, topic="T", role="results", name="L"))
        screening = store.create_screening(project, "T", "S", ["L"])
        core = ScreeningSession(project, screening, "Ann", write=write_now(project))
        for label in ("include", "maybe", "exclude"):
            core.decide(label)
    settings = Settings()
    settings.reviewer = "Ann"
    settings.save()
    return path


@pytest.fixture
def session(project_path):
    session = ProjectSession(Project.open(project_path))
    yield session
    assert session.close()


def _record(project, title_start: str) -> int:
    return project.db.execute("SELECT id FROM records WHERE title LIKE ?",
                              [f"{title_start}%"]).fetchone()[0]


def test_start_full_text_takes_the_includes_and_maybe_on_request(qtbot, session):
    project = session.project
    parent = store.find_screening(project, "T", "S")
    dialog = StartDialog(project, "T", fulltext_of=parent)
    qtbot.addWidget(dialog)
    assert dialog.phase.currentData() == "full_text" and dialog.choice.currentData() is None
    assert dialog.name.text() == "S — full text"
    assert dialog.count.text() == "<b>1</b> records to screen in full text"
    assert not dialog.lists.isEnabled() and not dialog.scheme.isEnabled()
    assert dialog.reasons.text() == ", ".join(fulltext.DEFAULT_REASONS)
    dialog.with_maybe.setChecked(True)
    assert dialog.count.text() == "<b>2</b> records to screen in full text"
    dialog.reasons.setText("wrong population, not retrievable")
    dialog.accept()
    made = dialog.made
    assert (made.phase, made.name, made.reasons) == (
        "full_text", "S — full text", ("wrong population", "not retrievable"))
    assert store.items(project, made.id) == [_record(project, "Deep"), _record(project, "Polyp")]
    assert fulltext.parent_of(project, made).id == parent.id


def test_the_lists_are_still_a_full_text_source_of_their_own(qtbot, session):
    dialog = StartDialog(session.project, "T")
    qtbot.addWidget(dialog)
    dialog.choice.setCurrentIndex(dialog.choice.count() - 1)  # New screening…
    assert not dialog.source.isEnabled()  # title and abstract: no source to pick
    dialog.phase.setCurrentIndex(dialog.phase.findData("full_text"))
    assert dialog.source.isEnabled() and dialog.source.currentData() is None
    assert dialog.lists.isEnabled() and dialog.count.text() == "<b>3</b> records to screen"
    dialog.source.setCurrentIndex(dialog.source.findData(
        store.find_screening(session.project, "T", "S").id))
    assert not dialog.lists.isEnabled() and "<b>1</b>" in dialog.count.text()


def test_the_screeners_action_opens_the_new_full_text_screening(qtbot, window, project_path,
                                                                 monkeypatch):
    assert window.open_project(project_path)
    project = window.session.project
    view = window.open_screen("screening", store.find_screening(project, "T", "S"))
    texts = [a.text() for a in view.screen_actions()]
    assert "Start &Full-Text Screening…" in texts
    monkeypatch.setattr(fulltext_screen, "start_fulltext", lambda p, parent, _w: (
        fulltext.create_fulltext_screening(p, parent, "FT")))
    next(a for a in view.screen_actions() if a.text() == "Start &Full-Text Screening…").trigger()
    shown = window.tabs.currentWidget()
    assert isinstance(shown, ScreeningView) and shown.screening.name == "FT"
    assert shown.screening.phase == "full_text" and "Not retrieved (U)" in [
        b.text() for b in shown.buttons.values()]
    assert "Start &Full-Text Screening…" not in [a.text() for a in shown.screen_actions()]


def test_a_folder_is_matched_confirmed_and_linked(qtbot, session, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    write_pdf(folder / "a.pdf", [["Heading"]], info={"Subject": "doi:10.1016/J.GIE.2020.01.002"})
    write_pdf(folder / "Berg_2022_preprint.pdf", [["draft"]])  # first author and year
    write_pdf(folder / "other.pdf", [["An unrelated paper about hip replacement"]])
    damaged_pdf(folder / "broken.pdf")
    parent = QApplication.activeWindow()
    attacher = FolderAttacher(session, "T", parent)
    with qtbot.waitSignal(attacher.matched, timeout=60_000) as matched:
        attacher.start(folder)
    dialog = matched.args[0]  # deleted once closed
    rows = [(dialog.table.item(r, 1).text(), dialog.table.item(r, 7).text(),
             dialog.table.item(r, 0).checkState() == Qt.CheckState.Checked)
            for r in range(dialog.table.rowCount())]
    assert rows == [("Berg_2022_preprint.pdf", "Polyp size estimation with a virtual scale "
                     "endoscope", False),  # uncertain first, to confirm
                    ("a.pdf", "Deep learning for polyp detection in colonoscopy videos", True)]
    assert "other.pdf" in dialog.left_out.text() and "broken.pdf" in dialog.left_out.text()
    assert dialog.pairs() == [(_record(session.project, "Deep"), folder / "a.pdf")]
    dialog.table.item(0, 0).setCheckState(Qt.CheckState.Checked)
    dialog.link_button.setChecked(True)
    with qtbot.waitSignal(attacher.attached, timeout=60_000) as attached:
        dialog.accept()
    assert attached.args == [2]
    for title, name in (("Deep", "a.pdf"), ("Polyp", "Berg_2022_preprint.pdf")):
        found = attachment(session.project, _record(session.project, title))
        assert (found.mode, found.path, found.status) == ("link", folder / name, "ok")
    assert attachment(session.project, _record(session.project, "Capsule")) is None


def test_screenshots_of_the_full_text_screener(qtbot, session, tmp_path, shot):
    """To look at: the screener with a PDF and its terms, the reason picker, a record
    without a PDF, and a folder's matches, in both themes."""
    project = session.project
    made = fulltext.create_fulltext_screening(project, store.find_screening(project, "T", "S"),
                                              "FT", with_maybe=True)
    pdf = write_pdf(tmp_path / "deep.pdf", [[
        "Deep learning for polyp detection in colonoscopy videos",
        "Anna Smith, Department of Gastroenterology", "",
        "Abstract", "Background: colonoscopy misses polyps. We trained a convolutional",
        "network on 20,000 colonoscopy frames and tested it on 300 videos.",
        "Methods: a randomised trial in 4 centres; adenoma detection rate was the outcome.",
        "Results: the network found 96% of polyps at 30 frames per second."],
        ["Discussion", "Polyp detection by deep learning is feasible in real time."]])
    attach_file(project, store.items(project, made.id)[0], pdf)

    def screener():
        view = ScreeningView(session, store.get_screening(project, made.id))
        qtbot.addWidget(view)
        view.resize(1200, 800)
        view.include_edit.setText("polyp*, colonoscopy")
        view.exclude_edit.setText("randomised")
        view.save_terms()
        qtbot.waitUntil(lambda: view.record.reader.page_total == 2
                        and view.record.reader.pages[0].image is not None
                        and bool(view.record.reader.pages[0].terms), timeout=60_000)
        view.record.reader.find("network")
        qtbot.waitUntil(lambda: view.record.reader.hit_label.text() == "1 of 2", timeout=60_000)
        return view

    shoot_both(shot, screener, "fulltext_screener")

    def picker():
        return ReasonPicker(fulltext.DEFAULT_REASONS)

    shoot_both(shot, picker, "fulltext_reason_picker")

    without = store.create_screening(project, "T", "FT2", ["L"], phase="full_text",
                                     reasons=fulltext.DEFAULT_REASONS,
                                     records=[_record(project, "Capsule")])

    def without_pdf():
        view = ScreeningView(session, store.get_screening(project, without.id))
        qtbot.addWidget(view)
        view.resize(1200, 800)
        return view

    shoot_both(shot, without_pdf, "fulltext_no_pdf")

    def matches():
        found = FolderMatch(
            certain=[(_record(project, "Deep"), tmp_path / "smith2020.pdf", "DOI on the first page")],
            uncertain=[(_record(project, "Polyp"), tmp_path / "Berg_2022.pdf", 0.5,
                        "first author and year in the file name")],
            unmatched=[tmp_path / "hip.pdf"], refused=[(tmp_path / "locked.pdf", "locked.pdf: "
                       "cannot read it: it is encrypted (a password is needed to open it)")])
        records = candidates(project, [_record(project, t) for t in ("Deep", "Polyp")])
        return MatchDialog(found, records, tmp_path)

    shoot_both(shot, matches, "fulltext_folder_matches")
