"""The pooling screen's Simulation tab: SPEC §4 on the topic's imported runs and qrels
as a background job (progress, Cancel), frontier plots, a sortable table, exports."""

import csv
import threading
import time

import pytest
from PySide6.QtCore import Qt

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.trec.files import Qrels, RunFile
from litqeval_gui.core.trec.simulate import simulate_collection
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.pooling import simulation as tab_module
from litqeval_gui.gui.session import ProjectSession
from tests.support.pooling import TOPIC, collection, pool_project


def open_view(qtbot, path):
    session = ProjectSession(Project.open(path))
    view = PoolingView(session, TOPIC)
    session.changed.connect(view.project_changed)
    qtbot.addWidget(view)
    view.resize(1300, 850)
    view.show()
    view.tabs.setCurrentWidget(view.simulation)
    return session, view


def test_grid_runs_in_the_background_and_shows_frontiers(qtbot, tmp_path, shot):
    runs, grades = collection()
    path = pool_project(tmp_path, runs, grades)
    expected = simulate_collection([RunFile(n, {TOPIC: d}) for n, d in runs.items()],
                                   Qrels({TOPIC: grades}), depth=30)["settings"]
    session, view = open_view(qtbot, path)
    tab = view.simulation
    try:
        assert tab.stack.currentWidget() is tab.empty and tab.run_button.isEnabled()
        assert tab.empty.text().startswith("Run the simulation")
        assert not tab.csv_button.isEnabled()
        tab.depth.setValue(10)  # shallower than the low-yield rule: refused in plain words
        tab.run_button.click()
        assert tab.job is None and tab.status.text().startswith("The low-yield rule needs")
        assert "--" not in tab.status.text()
        tab.depth.setValue(30)
        tab.run_button.click()
        assert tab.cancel_button.isVisibleTo(tab) and not tab.run_button.isEnabled()
        qtbot.waitUntil(lambda: tab.job is None, timeout=60_000)
        assert tab.rows == expected
        assert tab.status.text().startswith("500 settings · 4 runs ranked by MAP · depth 30")
        assert tab.table.rowCount() == 500 and tab.stack.currentWidget() is tab.results
        first = [tab.table.item(r, 4).value for r in range(500)]
        assert first == sorted(r["E"] for r in expected)  # cheapest settings first
        on_tau = sum(r["frontier_tau"] for r in expected)
        assert tab.tau_plot.legend_names()[1] == f"on the frontier ({on_tau})"
        assert len(tab.rms_plot.frontier_line.getData()[0]) == sum(
            r["frontier_rms"] for r in expected)
        # a click on a header sorts numerically (RMS, then descending)
        tab.table.sortItems(8, Qt.SortOrder.DescendingOrder)
        shown = [tab.table.item(r, 8).value for r in range(500)]
        assert shown == sorted((r["rms"] for r in expected), reverse=True)
        # a click on a plot point selects its setting's row
        tab.select_setting(7)
        row = tab.table.currentRow()
        assert tab.table.item(row, 0).data(Qt.ItemDataRole.UserRole) == 7
        shot(view, "pooling_simulation")
        table = list(csv.reader(tab.export_csv(tmp_path / "grid.csv").open(encoding="utf-8")))
        assert len(table) == 501 and float(table[1][4]) == expected[0]["E"]
        for suffix in (".png", ".svg"):
            written = tab.export_plots(tmp_path / f"sim{suffix}")
            assert [p.name for p in written] == [f"sim{suffix}", f"sim-rms{suffix}"]
            assert all(p.stat().st_size > 1000 for p in written)
    finally:
        assert session.close()


def test_cancel_stops_the_job(qtbot, tmp_path, monkeypatch):
    runs, grades = collection()
    path = pool_project(tmp_path, runs, grades)

    def slow_job(files, qrels, *, token, **options):
        yield Progress(1, 10, "1 of 10 settings")
        while True:
            token.raise_if_cancelled()
            time.sleep(0.01)
            yield Progress(1, 10, "1 of 10 settings")

    monkeypatch.setattr(tab_module, "simulate_job", slow_job)
    session, view = open_view(qtbot, path)
    tab = view.simulation
    try:
        tab.run_button.click()
        qtbot.waitUntil(lambda: tab.progress.maximum() == 10)
        tab.cancel_button.click()
        qtbot.waitUntil(lambda: tab.job is None)
        assert tab.status.text() == "Simulation cancelled; nothing was changed."
        assert tab.run_button.isEnabled() and not tab.cancel_button.isVisibleTo(tab)
    finally:
        assert session.close()


@pytest.mark.parametrize("with_qrels", [False, True])
def test_empty_state_says_what_to_import(qtbot, tmp_path, with_qrels):
    if with_qrels:
        path = pool_project(tmp_path, {}, {"d1": 1})
    else:
        runs, _ = collection()
        path = pool_project(tmp_path, runs)
    session, view = open_view(qtbot, path)
    tab = view.simulation
    try:
        assert tab.stack.currentWidget() is tab.empty and not tab.run_button.isEnabled()
        missing = "imported TREC runs" if with_qrels else "qrels"
        assert f"has no {missing}:" in tab.empty.text()
        assert "(File ▸ Import…)" in tab.empty.text()
    finally:
        assert session.close()


def test_the_runs_and_qrels_are_read_on_the_jobs_thread_only(qtbot, tmp_path, monkeypatch):
    """Opening the tab, a change of lists and Run read only the lists' infos on the GUI
    thread; every run and judgement is read by the job."""
    runs, grades = collection()
    path = pool_project(tmp_path, runs, grades)
    threads, read = [], tab_module.topic_collection
    monkeypatch.setattr(tab_module, "topic_collection",
                        lambda *args: threads.append(threading.get_ident()) or read(*args))
    session, view = open_view(qtbot, path)
    tab = view.simulation
    try:
        tab.refresh()
        assert threads == [] and tab.run_button.isEnabled()
        tab.grid.setCurrentIndex(tab.grid.findData("presets"))
        tab.run_button.click()
        qtbot.waitUntil(lambda: tab.job is None, timeout=60_000)
        assert len(threads) == 1 and threads[0] != threading.get_ident() and tab.rows
    finally:
        view.close()
        assert session.close()
