"""A verdict repaints what it touched: no sidebar rebuild, no records reload (issue #12)."""

import pytest
from PySide6.QtCore import Qt

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches, queries
from litqeval_gui.gui.main_window import MainWindow
from tests.support import pages

TITLE = "Deep learning for screening of medical abstracts"


def _ris(path, doi):
    path.write_text(f"TY  - JOUR\nAU  - Roe, R\nTI  - {TITLE}\nPY  - 2020\nDO  - {doi}\n"
                    "ER  - \n\n", encoding="utf-8")
    return path


@pytest.fixture
def window(qtbot, tmp_path):
    path = tmp_path / "m.litq"
    with Project.create(path) as project:  # one uncertain match: a preprint of the core paper
        for name, role, doi in (("core", "core", "10.1000/published"),
                                ("r1", "results", "10.1101/preprint")):
            run_job(ingest.import_file(project, _ris(tmp_path / f"{name}.ris", doi),
                                       topic="T", role=role, name=name))
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.open_project(path)
    yield win
    win.close()


def test_a_verdict_neither_rebuilds_the_sidebar_nor_reloads_the_records(window, qtbot,
                                                                        monkeypatch):
    session = window.session
    results = queries.find_list(session.project, "T", "r1")
    view = window.open_list(results)
    qtbot.waitExposed(view)
    assert not view.model.row(0).core  # the preprint is not (yet) the core work
    browser = view.model.browser
    rebuilt = []
    monkeypatch.setattr(window.sidebar, "populate", rebuilt.append)
    dialog = window.review_matches()
    [match] = matches.matches(session.project, "T", uncertain=True)
    with qtbot.waitSignal(session.changed) as changed:
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    assert changed.args == [Changes(verdicts=True, works=True), dialog]
    assert rebuilt == []  # no sidebar rebuild …
    assert view.model.browser is browser  # … and no records reload
    assert view.model.row(0).core  # yet the row shows the merge
    assert "  Core set (1 work)" in pages.sidebar_labels(window.sidebar)
    assert matches.match(session.project, match.id).status == "confirmed"
    dialog.close()
