"""The stopping panel is read in the background: a decision never computes it on the GUI
thread, a stale reading is dropped, and the panel ends on the state after the last
decision."""

import threading
import time

from PySide6.QtCore import Qt

from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.stopping import panel
from litqeval_gui.gui.screens.screening import panel_reader
from litqeval_gui.gui.screens.screening.panel_reader import PanelReader
from tests.support.screening_screen import curve_points, screening_view, settle


def test_decisions_never_compute_the_panel_on_the_gui_thread(qtbot, session, made,
                                                             monkeypatch):
    real = panel.screening_panel
    threads = []

    def slow(project, screening, rules=None, reviewer=None):
        threads.append(threading.current_thread())
        time.sleep(0.05)  # a reading outlasts several decisions
        return real(project, screening, rules, reviewer)

    monkeypatch.setattr(panel, "screening_panel", slow)
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)  # as the main window does
    qtbot.waitUntil(lambda: len(threads) == 1)  # the first reading, when the screen opened
    keys = [Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_E, Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_M]
    for key in keys:
        qtbot.keyClick(view, key)
    settle(qtbot, session)
    expected = [0, 1, 1, 1, 2, 2, 3]  # relevant found after each decision (maybe counts)
    qtbot.waitUntil(lambda: curve_points(view)[1] == expected)
    qtbot.wait(200)  # no older reading arrives after the newest one
    assert curve_points(view)[1] == expected
    assert threads and threading.main_thread() not in threads
    assert len(threads) <= 1 + len(keys)  # requests made while reading were served once


def test_a_reading_older_than_the_latest_request_is_dropped(qtbot, session, monkeypatch):
    screening = store.find_screening(session.project, "T", "S")
    release, calls = threading.Event(), []

    def fake(project, screening, rules=None, reviewer=None):
        calls.append(len(calls) + 1)
        if len(calls) == 1:
            release.wait(5)  # the first reading is still running …
        return f"reading {len(calls)}"

    monkeypatch.setattr(panel, "screening_panel", fake)
    reader = PanelReader(session, screening)
    shown = []
    reader.ready.connect(shown.append)
    reader.request()
    qtbot.waitUntil(lambda: calls == [1])
    reader.request()  # … when a newer request comes
    release.set()
    qtbot.waitUntil(lambda: shown != [])
    qtbot.wait(100)
    reader.stop()
    assert shown == ["reading 2"] and calls == [1, 2]


def test_readings_start_at_least_the_gap_apart_and_the_last_request_is_served(
        qtbot, session, monkeypatch, request):
    screening = store.find_screening(session.project, "T", "S")
    starts = []

    def fake(project, screening, rules=None, reviewer=None):
        starts.append(time.perf_counter())
        return f"reading {len(starts)}"

    monkeypatch.setattr(panel, "screening_panel", fake)
    reader = PanelReader(session, screening)
    request.addfinalizer(reader.stop)  # the thread ends even when an assertion fails
    shown = []
    reader.ready.connect(shown.append)
    for _ in range(20):  # a reviewer pressing keys fast: a request every 10 ms
        reader.request()
        qtbot.wait(10)
    qtbot.waitUntil(lambda: len(starts) >= 2 and shown[-1:] == [f"reading {len(starts)}"])
    qtbot.wait(int(panel_reader.MIN_GAP * 1000) + 100)  # nothing more was asked for
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert 2 <= len(starts) <= 3  # 20 requests over ~0.2 s: the first, then one more or two
    assert min(gaps) >= panel_reader.MIN_GAP
    assert shown[-1] == f"reading {len(starts)}"  # the last request was served
