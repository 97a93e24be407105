"""Managing lists and topics in the app: rename, delete (confirmed, saying what goes),
export a list, the filtered view and the missed core records."""

import csv

import bibtexparser
import rispy
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu

from litqeval_gui.gui import export_dialog
from litqeval_gui.gui import list_actions as gui_manage
from litqeval_gui.gui.screen_registry import topic_screens
from tests.support import pages


def _select(window, text):
    window.sidebar.setCurrentIndex(pages.sidebar_index(window.sidebar, text))


def _labels(window):
    return pages.sidebar_labels(window.sidebar)


def test_renaming_a_list_updates_the_sidebar_and_its_open_tab(window, project_path, qtbot,
                                                              monkeypatch):
    window.open_project(project_path)
    _select(window, "scopus")
    window.menus.update()
    view = window.open_list(window.sidebar.current_list())
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Scopus 2024", True))
    window.action("rename-list").trigger()
    qtbot.waitUntil(lambda: "    Scopus 2024 (5 records · 4 works)" in _labels(window))
    assert window.tabs.tabText(window.tabs.indexOf(view)) == "Scopus 2024"
    assert view.info.name == "Scopus 2024"


def test_renaming_a_topic(window, project_path, qtbot, monkeypatch):
    window.open_project(project_path)
    _select(window, "search eval")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Orchards", True))
    window.action("rename-topic").trigger()
    qtbot.waitUntil(lambda: window.sidebar.topic_names() == ["Orchards"])


def test_deleting_a_list_asks_first_saying_what_goes_and_closes_its_tab(
        window, project_path, qtbot, monkeypatch):
    window.open_project(project_path)
    _select(window, "scopus")
    window.open_list(window.sidebar.current_list())
    asked = []
    monkeypatch.setattr(gui_manage, "confirm",
                        lambda parent, title, text, verb: asked.append(text) or False)
    window.action("delete-list").trigger()  # cancelled: nothing goes
    assert "removes 5 records; 2 works no other list holds leave the topic" in asked[0]
    assert "3 matches between these records and others go" in asked[0]
    assert "    scopus (5 records · 4 works)" in _labels(window) and window.tabs.count() == 1
    monkeypatch.setattr(gui_manage, "confirm", lambda *a: True)
    window.action("delete-list").trigger()
    qtbot.waitUntil(lambda: _labels(window) == ["search eval", "  Core set (3 works)",
                                                "  Result lists"])
    assert window.tabs.count() == 0


def test_deleting_the_topic_leaves_an_empty_project(window, project_path, qtbot, monkeypatch):
    window.open_project(project_path)
    _select(window, "Core set")  # any item of the topic
    asked = []
    monkeypatch.setattr(gui_manage, "confirm", lambda p, t, text, v: asked.append(t) or True)
    window.action("delete-topic").trigger()
    qtbot.waitUntil(lambda: _labels(window) == [])
    assert asked == ["Delete Topic"]
    assert window.hint.text() == "No result lists yet — import a search export\n" \
                                 "(Ctrl+I or drop a file here)"


def test_the_sidebar_context_menu_offers_what_the_item_allows(window, project_path):
    window.open_project(project_path)
    screens = {entry.menu_text for entry in topic_screens()}  # the registry's topic screens
    assert {"&Evaluate Topic…", "&Screen Records…", "&Pool Runs…"} <= screens
    topic = {"Ren&ame Topic…", "Delete &Topic…", "Attac&h PDFs from Folder…", *screens}
    for text, wanted in (("scopus", {"&Open", "&Export…", "Export &Missed Core Records…",
                                     "Re&name List…", "&Delete List…", *topic}),
                         ("search eval", topic)):
        index = pages.sidebar_index(window.sidebar, text)
        menu = window.menus.sidebar_menu(window.sidebar.visualRect(index).center())
        assert isinstance(menu, QMenu)
        assert {a.text() for a in menu.actions() if a.text()} == wanted
        menu.close()


def _save_as(monkeypatch, path, chosen_filter=export_dialog.FILTERS["ris"]):
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), chosen_filter))


def test_file_export_writes_the_selected_list_in_the_format_of_its_extension(
        window, project_path, tmp_path, monkeypatch):
    window.open_project(project_path)
    _select(window, "scopus")
    _save_as(monkeypatch, tmp_path / "out.ris")
    window.action("export").trigger()
    entries = rispy.load((tmp_path / "out.ris").open(encoding="utf-8"))
    assert len(entries) == 5
    assert window.settings.last_dir == tmp_path
    _save_as(monkeypatch, tmp_path / "again", export_dialog.FILTERS["bibtex"])  # no extension
    window.action("export").trigger()
    library = bibtexparser.parse_string((tmp_path / "again.bib").read_text(encoding="utf-8"))
    assert len(library.entries) == 5 and not library.failed_blocks


def test_the_records_view_exports_its_current_filter(window, project_path, tmp_path,
                                                     monkeypatch):
    window.open_project(project_path)
    _select(window, "scopus")
    view = window.open_list(window.sidebar.current_list())
    view.filter_edit.setText("crop rotation")
    view.apply_filter()
    assert view.model.rowCount() == 2
    _save_as(monkeypatch, tmp_path / "crops.csv")
    view.export_action.trigger()
    with (tmp_path / "crops.csv").open(encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["title"] for r in rows] == ["Crop rotation and soil nitrogen in temperate farms"] * 2
    window.action("export").trigger()  # File ▸ Export… exports the current tab the same way
    assert len(list(csv.DictReader((tmp_path / "crops.csv").open(encoding="utf-8-sig")))) == 2


def test_export_missed_core_records(window, project_path, tmp_path, monkeypatch):
    window.open_project(project_path)
    _select(window, "scopus")
    _save_as(monkeypatch, tmp_path / "missed.ris")
    window.action("export-missed").trigger()
    [entry] = rispy.load((tmp_path / "missed.ris").open(encoding="utf-8"))
    assert entry["doi"] == "10.1000/core.2"


def test_an_export_never_overwrites_a_project(window, project_path, monkeypatch, shown_errors):
    window.open_project(project_path)
    _select(window, "scopus")
    before = project_path.read_bytes()
    _save_as(monkeypatch, project_path, export_dialog.FILTERS["csv"])  # no export extension
    window.action("export").trigger()
    assert project_path.read_bytes() == before
    assert project_path.with_name("small.litq.csv").is_file()
    old = project_path.with_name("old.csv")  # an SQLite file behind an export's name
    old.write_bytes(before)
    _save_as(monkeypatch, old)
    window.action("export").trigger()
    assert shown_errors[0][0] == "Export failed" and "refusing" in shown_errors[0][1]
    assert old.read_bytes() == before
