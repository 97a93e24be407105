"""The shell's rough edges: opening a search export, single clicks, Escape, messages."""

from PySide6.QtWidgets import QFileDialog, QMessageBox

from litqeval_gui.gui import main_window


def test_opening_a_csv_offers_to_import_it_into_the_open_project(
        window, project_path, small_files, monkeypatch):
    window.open_project(project_path)
    _core, results = small_files
    asked, wizards = [], []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a: asked.append(text)
                        or QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(window, "open_import_wizard", wizards.append)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(results), ""))
    window.action("open").trigger()  # Ctrl+O
    assert wizards == [[results]]
    assert asked == [f"{results.name} is not a project but a file to import.\n\n"
                     "Import it into small.litq?"]
    assert window.session is not None and window.session.project.path == project_path


def test_opening_a_ris_file_without_a_project_says_what_to_do(window, small_files,
                                                              shown_errors):
    core, _results = small_files
    assert not window.open_project(core)
    [(title, message, _)] = shown_errors
    assert title == "Not a project" and "core.ris is not a LitQEval project" in message
    assert "file is not a database" not in message


def test_a_damaged_litq_file_is_still_reported_as_a_project_problem(window, tmp_path,
                                                                    shown_errors):
    bad = tmp_path / "bad.litq"
    bad.write_text("not a database")
    assert not main_window.is_search_export(bad)
    assert not window.open_project(bad)
    assert shown_errors[0][0] == "Cannot open project"


def test_the_lock_refusal_details_show_the_facts_not_a_traceback(window, project_path,
                                                                 shown_errors):
    import os

    from litqeval_gui.core.projectfile.project import Project

    with Project.open(project_path):  # held for writing elsewhere
        assert not window.open_project(project_path)
    [(title, message, details)] = shown_errors
    assert title == "Cannot open project" and "open in another window" in message
    assert details.splitlines()[:2] == [f"Lock file: {project_path}.lock",
                                        f"Held by: pid {os.getpid()} on {os.uname().nodename}"]
    assert "Traceback" not in details


def _scopus_view(window, project_path):
    from litqeval_gui.core.records import queries

    window.open_project(project_path)
    return window.open_list(queries.find_list(window.session.project, "search eval", "scopus"))


def test_escape_clears_the_filter(window, project_path, qtbot):
    from PySide6.QtCore import Qt

    window.show()
    view = _scopus_view(window, project_path)
    with qtbot.waitActive(window):  # shortcuts need the active window
        window.activateWindow()
    view.filter_edit.setFocus()
    qtbot.keyClicks(view.filter_edit, "crop")
    view.apply_filter()
    assert view.model.rowCount() == 2 and view.count_label.text() == "2 of 5 records"
    qtbot.keyClick(view.filter_edit, Qt.Key.Key_Escape)
    assert view.filter_edit.text() == "" and view.model.rowCount() == 5
    assert view.count_label.text() == "5 records"


def test_one_click_on_a_recent_project_opens_it(window, project_path, qtbot):
    from PySide6.QtCore import Qt

    window.settings.add_recent(project_path)
    window.start_view.set_recent(window.settings.recent_files)
    window.show()
    recent = window.start_view.recent
    rect = recent.visualItemRect(recent.item(0))
    qtbot.mouseClick(recent.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session is not None and window.session.project.path == project_path


def test_one_click_on_a_sidebar_list_opens_it(window, project_path, qtbot):
    from PySide6.QtCore import Qt

    from tests.support import pages

    window.show()
    window.open_project(project_path)
    index = pages.sidebar_index(window.sidebar, "scopus")
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.sidebar.visualRect(index).center())
    assert window.tabs.count() == 1 and window.tabs.tabText(0) == "scopus"


def test_file_dialogs_start_in_the_documents_folder_then_the_last_one(
        window, project_path, tmp_path, monkeypatch, small_files):
    from PySide6.QtCore import QStandardPaths

    from litqeval_gui.gui.settings import Settings

    docs = tmp_path / "Documents"
    docs.mkdir()
    real = QStandardPaths.writableLocation
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda where: str(docs) if
                        where == QStandardPaths.StandardLocation.DocumentsLocation
                        else real(where))
    assert Settings().last_dir == docs  # nothing chosen yet
    window.open_project(project_path)  # now the project's folder
    starts = []
    _core, results = small_files
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda parent, caption, start="", *a: starts.append(start)
                        or ([str(results)], ""))
    wizard = window.open_import_wizard([])
    wizard.files_page._browse()
    assert starts == [str(project_path.parent)]
    assert wizard.files_page.list.count() == 1
    wizard.reject()


def test_open_tabs_are_restored_when_the_project_is_reopened(window, project_path):
    from litqeval_gui.core.records import queries

    window.open_project(project_path)
    project = window.session.project
    core = queries.find_list(project, "search eval", "core")
    scopus = queries.find_list(project, "search eval", "scopus")
    window.open_list(scopus)
    window.open_list(core)
    window.tabs.setCurrentIndex(0)  # scopus
    assert window.close_project() and window.tabs.count() == 0
    window.open_project(project_path)
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["scopus", "core"]
    assert window.tabs.currentIndex() == 0
    window.close_tab(0)
    window.close_tab(0)
    window.close_project()
    window.open_project(project_path)
    assert window.tabs.count() == 0  # closed tabs stay closed


def test_f1_opens_a_help_page_with_columns_formulas_and_true_shortcuts(window, project_path,
                                                                      qtbot):
    from PySide6.QtGui import QAction, QKeySequence

    from litqeval_gui.core.records import queries
    from litqeval_gui.gui import help as help_page
    from litqeval_gui.gui.screens.matches.dialog import MatchesDialog
    from litqeval_gui.gui.screens.query.view import QueryView

    dialog = window.show_help()
    text = dialog.browser.toPlainText()
    for needle in ("Copies", "Core pending review", "Duplicates within the file",
                   "Recall = |C ∩ R| / |C|", "docs/metrics.md", "Records view"):
        assert needle in text
    window_keys = dict(help_page.window_keys(window.findChildren(QAction)))
    assert window_keys["Ctrl+E"] == "Export" and window_keys["F1"] == "LitQEval GUI Help"
    assert all(key in text for key in window_keys)
    assert window.show_help() is dialog  # one help window
    window.open_project(project_path)
    view = window.open_list(queries.find_list(window.session.project, "search eval", "scopus"))
    bound = {a.shortcut().toString(QKeySequence.SequenceFormat.PortableText)
             for a in view.actions()} | {"Enter"}  # Enter: the table's activation
    assert {k for k, _ in help_page.RECORDS_KEYS} <= bound
    matches = MatchesDialog(window.session, "search eval")
    qtbot.addWidget(matches)
    matches.show()
    assert sorted(matches.shortcuts.live_keys()) == sorted(k for k, _ in help_page.MATCHES_KEYS)
    matches.close()
    query = QueryView(window.session, "search eval")
    qtbot.addWidget(query)
    bound = {a.shortcut().toString(QKeySequence.SequenceFormat.PortableText)
             for a in query.actions()}
    assert {k for k, _ in help_page.QUERY_KEYS} <= bound
    assert "Query clauses" in text
    dialog.grab().save("/tmp/wt10_help.png")


def test_the_theme_choice_applies_at_once_and_is_remembered(window, qtbot):
    from PySide6.QtWidgets import QApplication

    from litqeval_gui.gui.main_window import MainWindow
    from litqeval_gui.gui.settings import Settings

    app = QApplication.instance()
    before = app.palette().window().color().name()
    try:
        window.set_theme("dark")
        assert app.palette().window().color().lightness() < 80
        assert app.palette().text().color().lightness() > 180  # light text on dark
        assert Settings().theme == "dark"
        assert [a.data() for a in window.menus.theme_actions.actions() if a.isChecked()] == ["dark"]
        again = MainWindow()  # a new start shows the remembered theme
        qtbot.addWidget(again)
        assert [a.data() for a in again.menus.theme_actions.actions() if a.isChecked()] == ["dark"]
        window.set_theme("light")
        assert app.palette().window().color().lightness() > 200
    finally:
        window.set_theme("system")
    assert app.palette().window().color().name() == before
    assert Settings().theme == "system"


def test_the_start_screen_shows_the_demo_being_built(window, qtbot, monkeypatch, small_files):
    import threading

    from litqeval_gui.core import demo
    from litqeval_gui.core.jobs import Progress
    from tests.support.projects import make_project

    release = threading.Event()

    def slow_build(path, token):
        yield Progress(1, 4, "topic 1 of 3")
        release.wait(10)
        make_project(path, small_files)
        return path

    monkeypatch.setattr(demo, "build_demo", slow_build)
    window.show()
    start = window.start_view
    assert not start.demo_progress.isVisible()
    window.open_demo()
    qtbot.waitUntil(lambda: start.demo_progress.value() == 1)
    assert start.demo_progress.isVisible() and start.demo_progress.maximum() == 4
    assert start.demo_label.text() == ("Building the demo project (first time only): "
                                       "topic 1 of 3")
    assert not start.demo_button.isEnabled()  # no second build
    start.grab().save("/tmp/wt10_demo_progress.png")
    release.set()
    qtbot.waitUntil(lambda: window.session is not None, timeout=60_000)
    assert not start.demo_progress.isVisibleTo(start) and start.demo_button.isEnabled()
