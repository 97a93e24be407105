"""The evaluation screen on a generated topic whose answers are known (tests/support/
topics.py), evaluated once with a PCA map so each test's evaluation reads stored results."""

import csv
import threading
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from openpyxl import load_workbook
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.evaluation import comparison
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.settings import load_settings
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.gui.screens.evaluation import adapter
from litqeval_gui.gui.screens.evaluation import view as view_module
from litqeval_gui.gui.screens.evaluation.table import GROUP_ROLE, SORT_ROLE
from tests.support.pages import sidebar_index
from tests.support.synthetic import topic_records
from tests.support.topics import (
    PCA,
    TOPIC,
    build_topic,
    copy_project,
    evaluate_pca,
    import_list,
    write_list,
)

SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    path = build_topic(tmp_path_factory.mktemp("screen") / "p.litq", extra=40, noise=30)
    evaluate_pca(path, save=True)
    return path


@pytest.fixture
def project_file(topic_file, tmp_path):
    return copy_project(topic_file, tmp_path)


def open_evaluation(window, qtbot, path, topic=TOPIC):
    """Open ``path``, select ``topic`` in the sidebar, Topic ▸ Evaluate Topic…, wait."""
    assert window.open_project(path)
    window.sidebar.setCurrentIndex(sidebar_index(window.sidebar, topic))
    window.menus.update()
    assert window.action("screen.evaluation").isEnabled()
    window.action("screen.evaluation").trigger()
    view = window.tabs.currentWidget()
    assert view.key == "evaluation"
    qtbot.waitUntil(lambda: view.job is None, timeout=60_000)
    return view


def cells(view, column):
    model = view.table.model()
    return [model.index(row, column).data() for row in range(model.rowCount())]


def answer_save_dialog(monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args, **kwargs: (str(path), ""))


def test_the_screen_renders_the_evaluation(window, qtbot, project_file, tmp_path):
    view = open_evaluation(window, qtbot, project_file)
    assert view.pages.currentWidget() is view.tabs and view.data is not None
    expected = run_job(evaluate_topic(window.session.project, TOPIC))  # all stored: reads
    assert cells(view, 0) == ["clean", "noisy"]
    assert cells(view, 2) == [f"{i.recall:.3f}" for i in expected.lists] == ["0.750"] * 2
    assert cells(view, 3) == ["0.53–0.89"] * 2  # 15 of 20, Wilson
    cos_p = [f"{i.methods['cos'].precision:.3f}" for i in expected.lists]
    assert cells(view, 4) == cos_p
    assert view.badge.value == pytest.approx(expected.fidelity)
    missed = view.missed.toPlainText()  # the first list's missed core, with DOIs
    assert "clean missed 5 of 20 core works" in missed
    assert all(m.doi in missed for m in expected.lists[0].missed)
    landscape = view.landscape.landscape
    assert landscape.data.names == ["clean", "noisy"]
    assert landscape.badge.value == pytest.approx(expected.fidelity)
    # the overlap: clean ⊂ noisy
    overlap = view.overlap.table
    assert overlap.item(0, 1).text() == f"55 / 15 / {55 / 85:.3f}"
    for index in range(view.tabs.count()):  # every tab draws
        view.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        shot = tmp_path / f"tab{index}.png"
        assert window.grab().save(str(shot))
        assert QImage(str(shot)).width() > 0


def test_the_table_sorts_by_value(window, qtbot, project_file):
    view = open_evaluation(window, qtbot, project_file)
    view.table.sortByColumn(1, view.table.horizontalHeader().sortIndicatorOrder().DescendingOrder)
    assert cells(view, 0) == ["noisy", "clean"]  # 85 works before 55
    model = view.table.model()
    assert [model.index(r, 1).data(SORT_ROLE) for r in range(2)] == [85, 55]


@pytest.mark.parametrize("width", [1280, 1500])
def test_the_table_fits_beside_the_sidebar(window, qtbot, project_file, width):
    window.resize(width, 800)
    window.show()
    qtbot.waitExposed(window)
    view = open_evaluation(window, qtbot, project_file)
    window.splitter.setSizes([300, width - 300])
    qtbot.wait(50)
    table, header = view.table, view.table.horizontalHeader()
    assert table.horizontalScrollBar().maximum() == 0
    assert header.length() <= table.viewport().width()
    for column in range(1, header.count()):  # every number whole (the name may elide)
        assert header.sectionSize(column) >= table.sizeHintForColumn(column), column
    model = table.model()
    assert [model.headerData(c, Qt.Orientation.Horizontal, GROUP_ROLE) for c in (3, 4, 5, 6)] \
        == ["", "cos", "cos", "cos"]
    assert model.headerData(4, Qt.Orientation.Horizontal) == "P"
    precision = view.data.evaluation.lists[0].methods["cos"].precision
    assert f"precision {precision:.6f}" in model.index(0, 4).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == "clean"


def test_overlays_toggle(window, qtbot, project_file):
    view = open_evaluation(window, qtbot, project_file)
    plot = view.landscape.landscape
    first = plot.views[0]
    assert first.outlines["mvee"] == [] and first.outlines["hull"] == []
    plot.set_overlay("mvee", True)
    plot.set_overlay("hull", True)
    assert len(first.outlines["mvee"]) == 1 and len(first.outlines["hull"]) == 1
    plot.set_overlay("mvee", False)
    assert first.outlines["mvee"] == [] and len(first.outlines["hull"]) == 1
    assert not first.cos_rings.label_counts().any()
    plot.set_overlay("cos", True)
    relevant = view.data.evaluation.lists[0].methods["cos"].relevant
    assert first.cos_rings.label_counts().sum() == relevant


def test_use_this_theta_changes_the_table(window, qtbot, project_file):
    view = open_evaluation(window, qtbot, project_file)
    before = cells(view, 4)
    view.threshold.plot.set_candidate(0.2)
    view.threshold.plot.use.click()
    qtbot.waitUntil(lambda: view.job is None and view.data.evaluation.settings.theta == 0.2,
                    timeout=30_000)
    assert not view.parameters.from_core.isChecked() and view.parameters.theta.value() == 0.2
    after = cells(view, 4)
    assert after != before
    assert after == [f"{i.methods['cos'].precision:.3f}" for i in view.data.evaluation.lists]
    assert all(i.methods["cos"].detail["theta"] == 0.2 for i in view.data.evaluation.lists)

    qtbot.waitUntil(lambda: load_settings(window.session.project, TOPIC).theta == 0.2,
                    timeout=60_000)  # kept for the next opening


def test_exports_are_valid(window, qtbot, project_file, tmp_path, monkeypatch):
    view = open_evaluation(window, qtbot, project_file)
    evaluation = view.data.evaluation
    answer_save_dialog(monkeypatch, tmp_path / "table.csv")
    with view.export_table().open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == comparison.header() and [r[1] for r in rows[1:]] == ["clean", "noisy"]
    answer_save_dialog(monkeypatch, tmp_path / "table.xlsx")
    sheet = load_workbook(view.export_table()).active
    assert [c.value for c in sheet[1]] == comparison.header() and sheet.max_row == 3
    for name, action in (("landscape", view.landscape.save_action),
                         ("threshold", view.threshold.save_action),
                         ("decay", view.decay.save_actions[0])):
        answer_save_dialog(monkeypatch, tmp_path / f"{name}.png")
        action.trigger()
        image = QImage(str(tmp_path / f"{name}.png"))
        assert image.width() > 100 and image.height() > 100
        answer_save_dialog(monkeypatch, tmp_path / f"{name}.svg")
        action.trigger()
        assert ET.parse(tmp_path / f"{name}.svg").getroot().tag == f"{SVG}svg"
    answer_save_dialog(monkeypatch, tmp_path / "report.html")
    window.tabs.setCurrentWidget(view)
    window.menus.menus["topic"].aboutToShow.emit()  # the shown screen's actions join the Topic menu
    every_menu = [a.text().replace("&", "") for menu in (window.menuBar().actions()[0].menu(), window.menus.menus["topic"])
                  for a in menu.actions()]
    assert every_menu.count("Export Evaluation Report…") == 1
    assert "Export Table…" in every_menu
    window.action("report").trigger()  # File ▸ Export Evaluation Report…
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    root = ET.fromstring(text.split("\n", 1)[1])
    table = root.find(f".//{XHTML}table[@id='comparison']")
    names = [tr.find(f"{XHTML}td").text for tr in table.findall(f"{XHTML}tr")[1:]]
    assert names == [item.name for item in evaluation.lists]
    assert len(root.findall(f".//{SVG}svg")) == 3  # the decay and one map per list


def test_the_evaluation_runs_off_the_gui_thread(window, qtbot, project_file, monkeypatch):
    threads = []
    real = adapter.evaluate_topic

    def recording(*args, **kwargs):
        threads.append(threading.get_ident())
        return (yield from real(*args, **kwargs))

    monkeypatch.setattr(adapter, "evaluate_topic", recording)
    view = open_evaluation(window, qtbot, project_file)
    assert view.data is not None
    assert threads and threading.get_ident() not in threads


def test_cancel_leaves_a_message_and_evaluate_starts_again(window, qtbot, project_file):
    with Project.open(project_file) as project:  # UMAP: nothing stored for it yet
        from litqeval_gui.core.evaluation.settings import save_settings_op

        project.write(save_settings_op(TOPIC, PCA.replace(map_method="umap")))
    assert window.open_project(project_file)
    view = window.open_screen("evaluation", TOPIC)
    assert view.job is not None and view.progress_label.text() == view_module.FIRST_RUN
    view.cancel_button.click()
    qtbot.waitUntil(lambda: view.job is None, timeout=60_000)
    assert view.data is None and "cancelled" in view.message.text()
    assert view.evaluate_button.isVisibleTo(view)


def test_a_change_of_the_records_flags_the_map_stale(window, qtbot, project_file, tmp_path):
    view = open_evaluation(window, qtbot, project_file)
    assert not view.stale.isVisibleTo(view)
    extra = write_list(topic_records("cardiology", 3, seed=9), tmp_path / "more.ris")
    sibling = window.session.worker_project()
    try:
        run_job(import_file(sibling, extra, topic=TOPIC, role="results", name="more"))
    finally:
        sibling.close()
    qtbot.waitUntil(lambda: view.stale.isVisibleTo(view), timeout=60_000)
    assert "stale" in view.stale.text()


@pytest.mark.parametrize("role, message", [("results", view_module.NO_CORE),
                                           ("core", view_module.NO_LISTS)])
def test_empty_states_say_what_to_do(window, qtbot, tmp_path, role, message):
    path = tmp_path / "e.litq"
    with Project.create(path) as project:
        import_list(project, write_list(topic_records("cardiology", 5), tmp_path / "l.ris"),
                    role, "only")
    view = open_evaluation(window, qtbot, path)
    assert view.pages.currentIndex() == 0 and view.message.text() == message
    assert "import" in message and view.data is None


def test_a_click_shows_the_record_and_a_box_lists_the_records(window, qtbot, project_file):
    view = open_evaluation(window, qtbot, project_file)
    landscape = view.landscape
    data = landscape.landscape.data
    first = landscape.landscape.views[0]
    row = int(data.is_core.nonzero()[0][0])
    first.record_clicked.emit(int(data.ids[row]))  # what a click on that point emits
    assert data.titles[row] and data.titles[row] in landscape.detail.toPlainText()
    xs, ys = data.xy[:, 0], data.xy[:, 1]
    ids = first.select_box(QRectF(xs.min() - 1, ys.min() - 1, np.ptp(xs) + 2, np.ptp(ys) + 2))
    drawn = data.layer("clean").retrieved | data.is_core
    assert len(ids) == drawn.sum() == landscape.selected.count()
    assert landscape.selected_label.text().startswith(f"{len(ids):,} records")
    landscape.selected.setCurrentRow(3)
    title = landscape.selected.item(3).text()
    assert title in landscape.detail.toPlainText()


def test_closing_the_tab_while_it_evaluates_drops_the_answer(window, qtbot, project_file,
                                                              shown_errors):
    """Closing the tab cancels its job (here one that would succeed at once: every
    result is stored); nothing is drawn on the deleted widgets."""
    assert window.open_project(project_file)
    view = window.open_screen("evaluation", TOPIC)
    handle = view.job
    assert handle is not None
    window.close_tab(window.tabs.indexOf(view))
    qtbot.waitUntil(lambda: not handle.running, timeout=60_000)
    qtbot.wait(100)
    assert shown_errors == [] and window.tabs.count() == 0
