"""The main window: sidebar counts, empty states, shortcuts, drops, settings, no leaked threads."""

import threading
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, QStandardPaths, Qt, QUrl
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.jobs import Progress, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.gui import app as gui_app
from litqeval_gui.gui import main_window
from litqeval_gui.gui.main_window import NO_LISTS_HINT, MainWindow
from litqeval_gui.gui.screen_registry import topic_screens
from litqeval_gui.gui.screens.records import RecordsView
from litqeval_gui.gui.settings import Settings
from tests.support import pages
from tests.support.projects import make_project


def test_no_project_shows_the_start_screen(window):
    assert window.pages.currentWidget() is window.start_view
    assert not window.action("import").isEnabled() and not window.action("close").isEnabled()


def test_sidebar_shows_topics_with_counts_and_a_list_opens_in_a_tab(window, project_path):
    assert window.open_project(project_path)
    assert window.pages.currentWidget() is window.splitter
    assert pages.sidebar_labels(window.sidebar) == [
        "search eval", "  Core set (3 works)", "  Result lists",
        "    scopus (5 records · 4 works)"]
    assert window.hint.text() == main_window.CHOOSE_LIST_HINT
    [info] = [i for i in _list_infos(window) if i.name == "scopus"]
    view = window.open_list(info)
    assert isinstance(view, RecordsView) and window.tabs.count() == 1
    assert view.model.rowCount() == 5
    assert window.open_list(info) is view and window.tabs.count() == 1  # switches, no twin
    window.close_tab(0)
    assert window.tabs.count() == 0 and window.content.currentWidget() is window.hint


def test_activating_a_sidebar_item_opens_its_list(window, project_path, qtbot):
    window.open_project(project_path)
    model = window.sidebar.model()
    core_item = model.index(0, 0, model.index(0, 0))  # the topic's first child: its core set
    window.sidebar.activated.emit(core_item)
    assert window.tabs.count() == 1 and window.tabs.tabText(0) == "core"


def test_project_without_topics_shows_the_import_hint(window, tmp_path):
    path = tmp_path / "empty.litq"
    Project.create(path).close()
    window.open_project(path)
    assert window.content.currentWidget() is window.hint
    assert window.hint.text() == NO_LISTS_HINT
    assert pages.sidebar_labels(window.sidebar) == []
    assert not window.action("matches").isEnabled()


def test_sidebar_refreshes_when_the_session_announces_an_import(window, project_path, tmp_path,
                                                                 qtbot):
    window.open_project(project_path)
    extra = tmp_path / "wos.csv"
    extra.write_text("Title,Year,DOI\nA new paper on search filters,2023,10.7/x\n",
                     encoding="utf-8")
    session = window.session
    with qtbot.waitSignal(session.changed):  # the session announces it by itself
        run_job(ingest.import_file(session.project, extra, topic="second", role="results"))
    assert "second" in window.sidebar.topic_names()
    assert "    wos (1 record)" in pages.sidebar_labels(window.sidebar)


def test_unfinished_import_is_reported_once(window, project_path, shown_errors):
    with Project.open(project_path) as project:  # what a crash between the transactions leaves
        project.db.execute("UPDATE imports SET state = 'pending' WHERE name = 'scopus'")
    window.open_project(project_path)
    assert [(t, m) for t, m, _ in shown_errors] == [(
        "Unfinished import removed",
        main_window.discarded_message(["scopus"]))]
    assert "The unfinished import 'scopus' was removed" in shown_errors[0][1]
    assert pages.sidebar_labels(window.sidebar) == ["search eval", "  Core set (3 works)",
                                                    "  Result lists"]


def test_a_bad_file_is_reported_and_the_start_screen_stays(window, tmp_path, shown_errors):
    bad = tmp_path / "bad.litq"
    bad.write_text("not a database")
    assert not window.open_project(bad)
    assert shown_errors[0][0] == "Cannot open project"
    assert window.session is None and window.pages.currentWidget() is window.start_view


def test_shortcuts_and_menus_exist(window):
    bound = {a.shortcut().toString(): a for a in window.findChildren(QAction)
             if not a.shortcut().isEmpty()}
    assert {key: bound[key] for key in ("Ctrl+N", "Ctrl+O", "Ctrl+Q", "Ctrl+I", "F1", "Ctrl+E")} == {
        "Ctrl+N": window.action("new"), "Ctrl+O": window.action("open"),
        "Ctrl+Q": window.action("quit"), "Ctrl+I": window.action("import"),
        "F1": window.action("help"), "Ctrl+E": window.action("export")}
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus == ["&File", "&View", "&Topic", "&Help"]
    file_items = [a.text() for a in window.menuBar().actions()[0].menu().actions() if a.text()]
    assert file_items == ["&New Project…", "&Open Project…", "Open &Recent",
                          "Open &Demo Project", "&Save a Copy…", "&Import…", "Mer&ge Decisions…",
                          "Import Review from &Another Tool…", "&Export…",
                          "Export &Missed Core Records…", "Export M&y Decisions…",
                          "Export Decision &Log…", "Export E&valuation Report…",
                          "S&witch Reviewer…", "&Close Project", "&Quit"]
    topic_items = [a.text() for a in window.menuBar().actions()[2].menu().actions() if a.text()]
    screens = [entry.menu_text for entry in topic_screens()]  # the registry's, in its order
    assert "&Evaluate Topic…" in screens and "&Screen Records…" in screens
    assert topic_items[:len(screens) + 2] == [*screens, "Simu&late Screening…",
                                              "Review Uncertain &Matches…"]


def test_no_two_entries_of_a_menu_share_an_access_key(window):
    """Alt+T, then a letter: each letter picks one entry of the menu (or the bar)."""
    def keys(actions):
        texts = [a.text() for a in actions if "&" in a.text().replace("&&", "")]
        return [t[t.index("&") + 1].casefold() for t in texts]

    bar = window.menuBar().actions()
    for menu in [None, *(a.menu() for a in bar)]:
        letters = keys(bar if menu is None else menu.actions())
        assert len(letters) == len(set(letters)), (menu and menu.title(), letters)


def _drop(window, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    return enter.isAccepted(), drop.isAccepted()


def test_dropping_files_opens_the_import_wizard(window, project_path, small_files, monkeypatch):
    window.open_project(project_path)
    calls = []
    monkeypatch.setattr(window, "open_import_wizard", calls.append)
    assert _drop(window, list(small_files)) == (True, True)
    assert calls == [list(small_files)]


def test_dropping_a_project_file_opens_it(window, project_path):
    assert _drop(window, [project_path]) == (True, True)
    assert window.session is not None and window.session.project.path == project_path


def test_import_wizard_and_matches_dialog_open_for_the_project(window, project_path):
    window.open_project(project_path)
    wizard = window.open_import_wizard([])
    assert type(wizard).__name__ == "ImportWizard" and wizard.state.session is window.session
    wizard.close()
    window.sidebar.setCurrentIndex(window.sidebar.model().index(0, 0))
    dialog = window.review_matches()
    assert type(dialog).__name__ == "MatchesDialog"
    dialog.close()


def test_settings_go_only_to_the_overridden_folder(qtbot, isolated_config, project_path, shot):
    app = QApplication.instance()
    names = app.organizationName(), app.applicationName()
    gui_app.identify(app)  # the names the real app uses, so the real folders are the real ones
    try:
        real = [Path(QStandardPaths.writableLocation(loc)) for loc in (
            QStandardPaths.StandardLocation.AppConfigLocation,
            QStandardPaths.StandardLocation.AppDataLocation)]
        before = [_snapshot(folder) for folder in real]
        win = MainWindow()
        qtbot.addWidget(win)
        win.open_project(project_path)
        win.close()
        assert (isolated_config / "settings.json").is_file()
        assert [_snapshot(folder) for folder in real] == before
        assert all(isolated_config not in folder.parents for folder in real)
    finally:
        app.setOrganizationName(names[0])
        app.setApplicationName(names[1])


def _snapshot(folder: Path) -> list[tuple[str, int]]:
    if not folder.exists():
        return []
    return sorted((str(p), p.stat().st_mtime_ns) for p in folder.rglob("*"))


def test_recent_files_geometry_and_splitters_round_trip(qtbot, project_path):
    first = MainWindow()
    qtbot.addWidget(first)
    first.resize(700, 500)  # inside the offscreen 800×600 screen
    first.show()
    first.open_project(project_path)
    first.splitter.setSizes([300, 600])
    first.close()
    saved = Settings()
    assert saved.recent_files == [project_path.resolve()]
    assert saved.splitter_sizes("main")[0] == 300
    second = MainWindow()
    qtbot.addWidget(second)
    assert (second.size().width(), second.size().height()) == (700, 500)
    assert second.start_view.recent.count() == 1
    second.menus.recent_menu.aboutToShow.emit()
    recent = [a for a in second.menus.recent_menu.actions() if a.toolTip() == str(project_path.resolve())]
    assert len(recent) == 1
    recent[0].trigger()
    assert second.session is not None and second.session.project.path == project_path.resolve()
    second.close()


def test_closing_stops_running_jobs(window, project_path):
    window.open_project(project_path)
    gate = threading.Event()

    def slow(token):
        while not gate.wait(0.01):
            token.raise_if_cancelled()
            yield Progress(0, 0, "waiting")
        return None

    window.session.jobs.run("Slow work", slow)
    assert window.job_status.isVisibleTo(window) and window.job_status.running() == 1
    assert window.close_project()  # cancels and waits; the fixture checks the threads
    assert window.session is None


def test_demo_project_is_built_once_then_opened(window, isolated_config, qtbot, monkeypatch,
                                                 small_files):
    from litqeval_gui.core import demo

    built = []

    def fake_build(path, token=None):
        yield Progress(1, 2, "building")
        built.append(path)
        return make_project(path, small_files, topic="demo topic")

    monkeypatch.setattr(demo, "build_demo", fake_build)
    window.open_demo()
    qtbot.waitUntil(lambda: window.session is not None, timeout=60_000)
    assert built == [isolated_config / "demo.litq"]
    assert window.sidebar.topic_names() == ["demo topic"]
    window.close_project()
    window.open_demo()  # exists now: opened directly, not rebuilt
    assert window.session is not None and len(built) == 1


def test_screenshots_of_start_screen_and_main_window(window, project_path, qtbot, shot):
    window.show()
    qtbot.waitExposed(window)
    shot(window, "start_screen")
    window.open_project(project_path)
    [info] = [i for i in _list_infos(window) if i.name == "scopus"]
    view = window.open_list(info)
    view.table.selectRow(0)
    shot(window, "main_window")
    window.close_project()
    assert window.start_view.recent.count() == 1
    shot(window, "start_screen_recent")


def _list_infos(window):
    from litqeval_gui.core.records import queries

    return queries.lists(window.session.project)


def test_the_real_demo_project_builds_opens_and_is_captured(window, qtbot, isolated_config, shot):
    window.show()
    window.open_demo()
    assert window.job_status.isVisible()  # progress with a Cancel button while it builds
    qtbot.waitUntil(lambda: window.session is not None, timeout=60_000)
    assert (isolated_config / "demo.litq").is_file()
    assert len(window.sidebar.topic_names()) == 3
    [info] = [i for i in _list_infos(window) if i.role == "results"][:1]
    window.open_list(info).table.selectRow(2)
    shot(window, "main_window_demo")
