"""Open screens come back when a project is reopened: each kind through its descriptor
in the settings (a new main window over the same settings file), in the same order, with
the same current tab; a screen whose topic, list or screening was deleted meanwhile is
skipped without a word."""

import json

import pytest

from litqeval_gui.core.pooling import store as pool_store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import lists, queries
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.gui.main_window import MainWindow
from litqeval_gui.gui.screen_registry import SCREENS
from litqeval_gui.gui.settings import Settings
from tests.support.pooling import pool_project, two_run_layers

T = "Deep learning for polyp detection in colonoscopy"


@pytest.fixture
def path(tmp_path):
    """Topics T and U, each with runs A and B, a screening S of A and pools P (of A and B)
    and P2 (of A)."""
    runs, _relevant = two_run_layers(6, 2)
    path = pool_project(tmp_path, runs, topics=("T", "U"))
    with Project.open(path) as project:
        project.write(lists.rename_topic_op("T", T))
        for topic in (T, "U"):
            screening_store.create_screening(project, topic, "S", ["A"])
            pool_store.create_pool(project, topic, "P", ["A", "B"],
                                   pool_store.settings("aggressive", low_yield=None))
            pool_store.create_pool(project, topic, "P2", ["A"],
                                   pool_store.settings("aggressive", low_yield=None))
    return path


def _window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1100, 700)
    return window


def _open_one_of_each(window, topic: str) -> None:
    """Every screen of the registry, in its order, on ``topic`` (list B, screening S; the
    pooling screen shows pool P2)."""
    project = window.session.project
    targets = {"list": queries.find_list(project, topic, "B"), "topic": topic}
    for key, entry in SCREENS.items():
        target = screening_store.find_screening(project, topic, "S") if key in (
            "screening", "conflicts") else targets[entry.target]
        view = window.open_screen(key, target)
        if key == "pooling":
            view.pool_box.setCurrentText("P2")


def _tabs(window) -> list[tuple[str, str]]:
    return [(window.tabs.widget(i).key, window.tabs.tabText(i))
            for i in range(window.tabs.count())]


def _close(window, qtbot) -> None:
    session = window.session
    assert window.close_project()
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    window.close()


def test_every_kind_of_screen_comes_back_in_order_with_the_current_tab(qtbot, path):
    window = _window(qtbot)
    assert window.open_project(path)
    _open_one_of_each(window, T)
    keys = list(SCREENS)
    assert [key for key, _ in _tabs(window)] == keys
    screening, pooling = keys.index("screening"), keys.index("pooling")
    window.tabs.setCurrentIndex(screening)
    before = _tabs(window)
    assert ("records", "B") in before and ("pooling", f"Pooling: {T}") in before
    _close(window, qtbot)

    again = _window(qtbot)  # a new start of the app over the same settings file
    assert again.open_project(path)
    assert _tabs(again) == before
    assert again.tabs.currentIndex() == screening
    assert again.tabs.widget(pooling).pool_box.currentText() == "P2"  # the pool it showed
    again.tabs.setCurrentIndex(pooling)
    _close(again, qtbot)

    third = _window(qtbot)
    assert third.open_project(path)
    assert _tabs(third) == before and third.tabs.currentIndex() == pooling
    _close(third, qtbot)


def test_a_screen_whose_target_was_deleted_is_skipped(qtbot, path, shown_errors):
    window = _window(qtbot)
    assert window.open_project(path)
    _open_one_of_each(window, "U")  # all of topic U's
    window.open_screen("records", queries.find_list(window.session.project, T, "A"))
    window.open_screen("screening",
                       screening_store.find_screening(window.session.project, T, "S"))
    window.tabs.setCurrentIndex(len(SCREENS) + 1)  # T's screening
    _close(window, qtbot)
    with Project.open(path) as project:
        project.write(lists.delete_topic_op("U"))  # its lists, screening and pools with it
        project.write(lists.delete_list_op(T, "A"))  # T's screening S of A stays (now empty)

    again = _window(qtbot)
    assert again.open_project(path)
    assert _tabs(again) == [("screening", "Screening: S")]
    assert again.tabs.currentIndex() == 0
    assert shown_errors == []
    _close(again, qtbot)


def test_a_damaged_or_unknown_descriptor_is_skipped(qtbot, path):
    settings = Settings()
    with Project.open(path) as project:
        list_a = queries.find_list(project, T, "A").id
    settings.set_open_screens(path, [{"key": "nonsense"}, {"key": "records"},
                                     {"key": "records", "list": "x"},
                                     {"key": "records", "list": list_a},
                                     {"key": "records", "list": list_a}], 3)
    settings.save()
    window = _window(qtbot)
    assert window.open_project(path)
    assert _tabs(window) == [("records", "A")] and window.tabs.currentIndex() == 0
    _close(window, qtbot)


def test_tabs_stored_by_an_older_version_come_back_as_records_tabs(tmp_path):
    project = tmp_path / "p.litq"
    Settings().path.parent.mkdir(parents=True)
    Settings().path.write_text(json.dumps(
        {"open_tabs": {str(project.resolve()): {"lists": [4, 2], "current": 1}}}))
    assert Settings().open_screens(project) == (
        [{"key": "records", "list": 4}, {"key": "records", "list": 2}], 1)
