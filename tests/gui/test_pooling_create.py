"""Creating a pool in the app: the empty state offers the dialog, the dialog is driven by
the keyboard, refuses bad input in one line (never command-line syntax) and creates
through the core's create_pool."""

import threading

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.evaluation.vector_store import embed_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.pooling import store
from litqeval_gui.core.pooling.runs import cosine_ranking
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.pooling.create import CreatePoolDialog
from litqeval_gui.gui.session import ProjectSession
from tests.support.pooling import pool_project, two_run_layers
from tests.support.topics import TOPIC, build_topic


def cli_free(text: str) -> bool:
    return "litqeval" not in text and "--" not in text and "pool-create" not in text


@pytest.fixture
def session(tmp_path):
    runs, relevant = two_run_layers(20, 4)
    grades = {doc: int(doc in relevant) for docs in runs.values() for doc in docs}
    path = pool_project(tmp_path, runs, grades)
    with Project.open(path) as project:
        screening_store.create_screening(project, "T", "round 1", ["A"], records=[])
    session = ProjectSession(Project.open(path))
    yield session
    assert session.close()


def test_empty_state_offers_the_dialog_and_the_keyboard_creates_a_pool(qtbot, session, shot):
    view = PoolingView(session, "T")
    session.changed.connect(view.project_changed)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    assert view.body.currentWidget() is view.empty and view.empty_button.isVisible()
    text = view.empty_text.text()
    assert "has no pool yet" in text and cli_free(text)
    assert not view.advance_button.isEnabled()
    shot(view, "pooling_empty")
    seen = {}

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        seen["dialog"] = dialog
        shot(dialog, "pooling_create_dialog")
        seen["runs"] = [dialog.runs.item(i).text() for i in range(dialog.runs.count())]
        dialog.name.selectAll()
        QTest.keyClicks(dialog.name, "keyboard pool")
        dialog.runs.setFocus()
        dialog.runs.setCurrentRow(1)
        QTest.keyClick(dialog.runs, Qt.Key.Key_Space)  # B unticked
        dialog.preset.setFocus()
        QTest.keyClick(dialog.preset, Qt.Key.Key_Down)  # relaxed
        QTest.keyClick(dialog.name, Qt.Key.Key_Return)  # the default button: Create pool

    QTimer.singleShot(0, fill)
    QTest.keyClick(view.empty_button, Qt.Key.Key_Space)
    assert seen["runs"] == ["A — TREC run", "B — TREC run"]
    pool = store.find_pool(session.project, "T", "keyboard pool")
    assert [r.source for r in store.runs(session.project, pool)] == ["list:A"]
    assert pool.settings.preset == "relaxed" and len(pool.qrels) == 1
    assert screening_store.get_screening(session.project, pool.screening_id).name == \
        "pool: keyboard pool"
    assert view.pool_box.currentText() == "keyboard pool"
    assert view.body.currentWidget() is view.splitter and view.advance_button.isEnabled()
    # the run tables fit their contents: short headers (the rest is in the tooltip), no
    # last column stretched across the panel
    qtbot.wait(50)
    table = view.contributions
    assert table.rowCount() == 1 and table.item(0, 0).text() == "A"
    used = sum(table.columnWidth(c) for c in range(table.columnCount()))
    assert used < table.viewport().width()
    wide = table.fontMetrics().horizontalAdvance("Relevant in its top ranks")
    assert table.columnWidth(1) < wide and "top ranks" in table.toolTip()


def create(qtbot, dialog: CreatePoolDialog) -> None:
    """Press "Create pool" and wait for its job to end."""
    dialog.accept()
    assert dialog.busy() or dialog.error.isVisibleTo(dialog)  # a job, or refused at once
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=60_000)


def test_dialog_refuses_bad_input_in_one_line(qtbot, session):
    dialog = CreatePoolDialog(session, "T")
    qtbot.addWidget(dialog)
    dialog.name.setText("  ")
    create(qtbot, dialog)
    assert dialog.error.text() == "a pool needs a name" and dialog.made is None
    dialog.name.setText("P")
    for i in range(dialog.runs.count()):
        dialog.runs.item(i).setCheckState(Qt.CheckState.Unchecked)
    create(qtbot, dialog)
    assert dialog.error.text() == "a pool needs at least one run"
    assert store.pools(session.project, "T") == []
    assert [s.name for s in screening_store.screenings(session.project, "T")] == ["round 1"]


def test_dialog_custom_settings_and_an_existing_screening(qtbot, session):
    dialog = CreatePoolDialog(session, "T")
    qtbot.addWidget(dialog)
    assert not dialog.w.isEnabled() and dialog.w.value() == 6  # aggressive shown
    dialog.preset.setCurrentIndex(dialog.preset.findData(store.CUSTOM))
    assert dialog.w.isEnabled()
    dialog.w.setValue(3)
    dialog.big_w.setValue(2)
    dialog.t.setValue(0.5)
    dialog.l_run.setValue(2)
    dialog.full_depth.setValue(10)
    create(qtbot, dialog)
    assert "low-yield depth must not exceed the full depth" in dialog.error.text()
    dialog.low_yield.setChecked(False)
    dialog.screening.setCurrentIndex(dialog.screening.findData("round 1"))
    create(qtbot, dialog)
    made = dialog.made
    assert made is not None and made.settings.params.label() == "w=3, W=2, t=0.5, l=2"
    assert made.screening_id == screening_store.find_screening(session.project, "T",
                                                                "round 1").id
    again = CreatePoolDialog(session, "T")
    qtbot.addWidget(again)
    assert again.screening.findData("round 1") == -1  # it feeds a pool already
    assert again.name.text() == "pool 2"


def test_cosine_run_needs_vectors_then_is_created(qtbot, tmp_path):
    path = build_topic(tmp_path / "cos.litq", n_core=6, found=4, extra=10, noise=0)
    session = ProjectSession(Project.open(path))
    try:
        dialog = CreatePoolDialog(session, TOPIC)
        qtbot.addWidget(dialog)
        texts = [dialog.runs.item(i).text() for i in range(dialog.runs.count())]
        assert texts == ["clean — result list", "clean — cosine to core"]
        dialog.runs.item(0).setCheckState(Qt.CheckState.Unchecked)
        dialog.runs.item(1).setCheckState(Qt.CheckState.Checked)
        create(qtbot, dialog)
        error = dialog.error.text()
        assert "has no embeddings yet" in error and "evaluate the topic first" in error
        assert cli_free(error) and "\n" not in error and dialog.made is None
        run_job(embed_topic(session.project, TOPIC, LsaBackend()))
        create(qtbot, dialog)
        assert dialog.made is not None
        runs = store.runs(session.project, dialog.made)
        assert [r.source for r in runs] == ["cosine:clean"]
        assert list(runs[0].records) == cosine_ranking(session.project, TOPIC, "clean")
    finally:
        assert session.close()


def test_the_pool_is_made_off_the_gui_thread_and_cancel_waits_for_it(qtbot, session,
                                                                      monkeypatch):
    threads, made = [], store.create_pool
    release = threading.Event()

    def slow(*args, **kwargs):
        threads.append(threading.get_ident())
        release.wait(10)  # a cosine run reading 50 000 vectors, say
        return made(*args, **kwargs)

    monkeypatch.setattr(store, "create_pool", slow)
    dialog = CreatePoolDialog(session, "T")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.accept()
    qtbot.waitUntil(lambda: bool(threads))
    assert dialog.busy() and not dialog.buttons.isEnabled()
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    assert ok.text() == "Creating the pool…"
    dialog.reject()  # Escape while the pool is being made: the dialog stays
    assert dialog.isVisible() and dialog.result() == 0
    release.set()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=60_000)
    assert threads != [threading.get_ident()] and len(threads) == 1
    assert dialog.made is not None and dialog.result() == CreatePoolDialog.DialogCode.Accepted
    assert [p.name for p in store.pools(session.project, "T")] == [dialog.made.name]
