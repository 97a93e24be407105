"""Issue 24 §1: recall is a set count, shown at once — in the sidebar, the records view's
header and the import summary, with the missed core one click away — and the evaluation
shows recall while the vectors and the map are still being computed.

The topic: a core set of two works; a result list holding one of them by DOI and the
other one only through an uncertain match (same title, another DOI): recall 1/2, one
missed core work pending review; accepting the match makes it 2/2."""

import time

import pytest
from PySide6.QtCore import QModelIndex, Qt

from litqeval_gui.core.jobs import Progress, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches, queries
from litqeval_gui.gui.import_wizard.wizard import ImportWizard
from litqeval_gui.gui.screens.evaluation import adapter
from litqeval_gui.gui.screens.evaluation import view as evaluation_view
from litqeval_gui.gui.screens.records.view import RecordsView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.sidebar import LIST_ROLE, TopicTree
from tests.gui.themed import shoot_both
from tests.support import pages

FOUND = "Caffeine and sleep quality in older adults: a cohort study"
MISSED = "Deep learning for screening of medical abstracts"


def _ris(path, records):
    path.write_text("".join(f"TY  - JOUR\nTI  - {title}\nPY  - 2020\nDO  - {doi}\nER  - \n\n"
                            for title, doi in records), encoding="utf-8")
    return path


def _core(project, tmp_path):
    run_job(ingest.import_file(project, _ris(tmp_path / "core.ris", [
        (FOUND, "10.1000/found"), (MISSED, "10.1000/published")]), topic="T", role="core"))


def _results_file(tmp_path):
    return _ris(tmp_path / "scopus.ris", [(FOUND, "10.1000/found"),
                                          (MISSED, "10.1101/preprint"),
                                          ("Exercise therapy for low back pain", "10.1000/x")])


@pytest.fixture
def session(tmp_path, qtbot):
    project = Project.create(tmp_path / "r.litq")
    _core(project, tmp_path)
    run_job(ingest.import_file(project, _results_file(tmp_path), topic="T", role="results"))
    session = ProjectSession(project)
    yield session
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert session.close()


def _accept_the_match(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    with qtbot.waitSignal(session.changed):
        session.write(matches.decide_op(match.id, True))


def _recall_cell(tree: TopicTree, name: str) -> QModelIndex:
    label = pages.sidebar_index(tree, name)
    return label.siblingAtColumn(1)


def test_the_sidebar_shows_a_result_lists_recall_and_recounts_it(qtbot, session, shot):
    tree = TopicTree()
    qtbot.addWidget(tree)
    tree.populate(session.project)
    cell = _recall_cell(tree, "scopus")
    assert cell.data() == "recall 0.50"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "1 / 2" in tip and "1 core works missed" in tip
    assert cell.data(LIST_ROLE).name == "scopus"  # a click on the recall opens the list too
    assert not _recall_cell(tree, "Core set").data()  # only result lists have one

    def make():
        shown = TopicTree()
        qtbot.addWidget(shown)
        shown.populate(session.project)
        shown.resize(320, 200)
        return shown
    shoot_both(shot, make, "sidebar_recall")
    session.changed.connect(tree.project_changed)
    _accept_the_match(qtbot, session)
    assert _recall_cell(tree, "scopus").data() == "recall 1.00"


def test_the_records_view_header_says_the_recall_and_opens_the_missed_core(qtbot, session,
                                                                           shot):
    info = queries.find_list(session.project, "T", "scopus")
    view = RecordsView(session, info)
    qtbot.addWidget(view)
    session.changed.connect(view.project_changed)
    view.show()
    text = view.recall_label.text()
    assert "Recall 0.500 (1 of 2 core works)" in text and "1 missed, 1 pending review" in text
    dialog = view.recall_label.show_missed()
    assert MISSED in dialog.text.toPlainText() and FOUND not in dialog.text.toPlainText()
    assert "pending review" in dialog.text.toPlainText()
    dialog.close()

    def make():
        shown = RecordsView(session, info)
        qtbot.addWidget(shown)
        shown.resize(1200, 500)
        return shown
    shoot_both(shot, make, "records_recall")
    _accept_the_match(qtbot, session)
    assert "Recall 1.000 (2 of 2 core works)" in view.recall_label.text()
    assert "none missed" in view.recall_label.text()


def test_a_core_list_has_no_recall_header(qtbot, session):
    view = RecordsView(session, queries.find_list(session.project, "T", "core"))
    qtbot.addWidget(view)
    assert view.recall_label.recall is None and not view.recall_label.isVisibleTo(view)


def test_the_import_summary_shows_recall_with_the_missed_core_a_click_away(qtbot, tmp_path,
                                                                           shot):
    project = Project.create(tmp_path / "w.litq")
    _core(project, tmp_path)
    session = ProjectSession(project)
    wizard = ImportWizard(session, [_results_file(tmp_path)])
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: wizard.state.files and not any(s.busy for s in wizard.state.files),
                    timeout=60_000)
    wizard.next()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)
    page = wizard.summary_page
    row = [key for key, _ in page.ROWS].index("recall")
    label = page.counts.cellWidget(row, 0)
    assert "0.500 (1/2)" in label.text() and "1 missed" in label.text()
    assert page.recalls["scopus"].retrieved_core == 1
    label.linkActivated.emit("missed")
    assert MISSED in label.missed_dialog.text.toPlainText()
    label.missed_dialog.close()
    shot(wizard, "wizard_summary_recall")
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert session.close()


def test_the_evaluation_shows_recall_while_the_vectors_are_computed(qtbot, session,
                                                                    monkeypatch, shot):
    """The first evaluation's job is held: recall, its interval and the missed core are
    on the screen before it answers, the semantic columns waiting."""
    def held(_open_project, _topic, _settings):
        def make(token):
            while not token.cancelled:
                time.sleep(0.02)
                yield Progress(0, 0, "computing the vectors")
            token.raise_if_cancelled()
        return make

    monkeypatch.setattr(evaluation_view, "evaluation_job", held)
    view = evaluation_view.EvaluationView(session, "T")
    qtbot.addWidget(view)
    view.resize(1200, 600)
    view.show()
    assert view.job is not None and view.data is None
    assert view.pages.currentWidget() is view.tabs
    model = view.table.model()
    row = [model.index(0, c).data() for c in range(model.columnCount())]
    assert row[:4] == ["scopus", "3", "0.500", "0.09–0.91"]
    assert set(row[4:]) == {adapter.WAITING}
    assert "1 of 2 core works" in view.missed.toPlainText() and MISSED in view.missed.toPlainText()
    assert not view.tabs.isTabEnabled(1)  # the landscape needs the map
    assert not view.export_button.isEnabled()
    view.cancel()
    qtbot.waitUntil(lambda: view.job is None, timeout=60_000)

    def make():
        shown = evaluation_view.EvaluationView(session, "T")
        qtbot.addWidget(shown)
        shown.resize(1200, 760)
        return shown  # closing it cancels its job
    shoot_both(shot, make, "evaluation_recall_first")
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)


@pytest.mark.parametrize("size", [(1200, 760), (1600, 1000)])
def test_the_window_shows_the_recall_beside_the_list(qtbot, tmp_path, shot, size):
    """The sidebar's recall column and the records view's header in the main window, at
    the issue's two sizes, light and dark."""
    from litqeval_gui.gui.main_window import MainWindow

    path = tmp_path / "w.litq"
    with Project.create(path) as project:
        _core(project, tmp_path)
        run_job(ingest.import_file(project, _results_file(tmp_path), topic="T",
                                   role="results"))

    def make():
        window = MainWindow()
        qtbot.addWidget(window)
        window.resize(*size)
        assert window.open_project(path)
        view = window.open_list(queries.find_list(window.session.project, "T", "scopus"))
        window.show()
        qtbot.waitExposed(window)
        cell = _recall_cell(window.sidebar, "scopus")
        assert cell.data() == "recall 0.50"
        text_width = window.sidebar.fontMetrics().horizontalAdvance("recall 0.50")
        assert window.sidebar.visualRect(cell).width() >= text_width  # not squeezed out
        assert view.recall_label.isVisible()
        return window
    shoot_both(shot, make, f"window_recall_{size[0]}")
