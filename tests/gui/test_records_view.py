"""The records view over a 100 000-record list: lazy pages, filters, detail pane, actions."""

import csv

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import IMPORTED
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.gui.screens.records import view as records_view
from litqeval_gui.gui.screens.records.table_model import CACHE_PAGES, PAGE_SIZE
from litqeval_gui.gui.screens.records.view import RecordsView
from litqeval_gui.gui.session import ProjectSession
from tests.support import pages

N = 100_000
FRUITS = ("apple", "banana", "cherry", "damson", "elder", "fig", "grape", "hazel", "iris",
          "juniper")


SYLLABLES = ("ka", "lo", "mi", "nu", "pe", "ra", "so", "ti", "vu", "we",
             "bo", "da", "fe", "gi", "hu", "ja", "ko", "le", "ma", "ne")


def word(n: int) -> str:
    """A made-up word of four syllables, one per base-20 digit of ``n``."""
    return "".join(SYLLABLES[(n // 20 ** k) % 20] for k in range(4))


def title(i: int) -> str:
    """Titles that share few words, so linkage finds no near-duplicates among them."""
    return f"{word(i).title()} {word(i * 7919 % N)} in {FRUITS[i % 10]} {word(i * 104729 % N)}"


def year(i: int) -> int:
    return 1990 + i % 30


def doi(i: int) -> str:
    return f"10.5555/r.{i if i != 6 else 5}"  # rows 5 and 6: the same work twice


@pytest.fixture(scope="session")
def big_project(tmp_path_factory):
    """A project with a 100 000-record result list and a 3-record core set, built once."""
    folder = tmp_path_factory.mktemp("big")
    results = folder / "big.csv"
    with results.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Title", "Abstract", "Year", "Source title", "DOI"])
        writer.writerows([title(i), f"Abstract of record {i}.", year(i), f"Journal {i % 40}",
                          doi(i)] for i in range(N))
    core = folder / "core.csv"
    with core.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Title", "Year", "DOI"])
        writer.writerows([title(i), year(i), doi(i)] for i in (0, 2, N - 1))
    path = folder / "big.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, core, topic="orchards", role="core"))
        run_job(ingest.import_file(project, results, topic="orchards", role="results"))
    return path


@pytest.fixture
def view(big_project, qtbot):
    session = ProjectSession(Project.open(big_project))
    info = queries.find_list(session.project, "orchards", "big")
    widget = RecordsView(session, info)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    yield widget
    widget.close()
    assert session.close()


def test_100k_rows_open_paint_and_scroll_with_few_pages_in_memory(view, qtbot, shot):
    model = view.model
    assert model.rowCount() == N
    assert view.count_label.text() == "100,000 records"
    view.show()
    qtbot.waitExposed(view)
    view.table.selectRow(0)
    shot(view, "records_view")
    assert model.index(0, 1).data() == title(0)
    view.table.scrollToBottom()
    view.table.viewport().grab()  # paints the last rows
    bottom = view.table.rowAt(view.table.viewport().height() - 2)
    assert bottom == N - 1
    assert model.index(bottom, 1).data() == title(N - 1)
    assert model.index(bottom, 0).data() == str(N)
    assert 1 <= pages.cached_pages(model) <= CACHE_PAGES < 10  # not 500 pages of row objects


def test_page_cache_evicts_least_recently_used_pages(view):
    model = view.model
    for row in range(0, 20 * PAGE_SIZE, PAGE_SIZE):
        model.index(row, 1).data()
    assert pages.cached_pages(model) == CACHE_PAGES
    assert model.row(19 * PAGE_SIZE).title == title(19 * PAGE_SIZE)


def test_columns_mark_core_works_and_duplicate_groups(view):
    model = view.model
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(7)] == [
        "Rank", "Title", "Year", "Venue", "DOI", "Core", "Copies"]
    assert [model.index(0, c).data() for c in (0, 1, 2, 3, 4, 5)] == [
        "1", title(0), "1990", "Journal 0", "10.5555/r.0", "✓"]
    assert model.index(1, 5).data() == ""
    assert model.index(N - 1, 5).data() == "✓"
    assert model.index(5, 6).data() == model.index(6, 6).data() == "2 copies"
    work = model.row(5).group
    assert model.index(5, 6).data(Qt.ItemDataRole.ToolTipRole).startswith(
        f"2 records of the topic are this publication (work #{work})")
    assert model.index(7, 6).data() == "" and model.index(7, 6).data(
        Qt.ItemDataRole.ToolTipRole) is None  # a work alone: no marker, no number


def test_filter_text_is_debounced_and_narrows_rows(view, qtbot):
    view.filter_edit.setText("cherry")
    assert view.model.rowCount() == N  # not yet: the filter waits for typing to pause
    qtbot.waitUntil(lambda: view.model.rowCount() == N // 10, timeout=60_000)
    assert view.model.index(0, 1).data() == title(2)
    assert view.count_label.text() == "10,000 of 100,000 records"
    view.filter_edit.setText(f" {title(123).upper()} ")  # case-insensitive, trimmed
    view.apply_filter()
    assert view.model.rowCount() == 1 and view.model.index(0, 0).data() == "124"


def test_year_range_narrows_rows_and_combines_with_text(view):
    assert (view.year_from.value(), view.year_to.value()) == (1990, 2019)
    view.year_from.setValue(2000)
    view.year_to.setValue(2004)
    view.apply_filter()
    assert view.model.rowCount() == sum(1 for i in range(N) if 2000 <= year(i) <= 2004)
    view.filter_edit.setText("apple")
    view.apply_filter()
    expected = sum(1 for i in range(N) if 2000 <= year(i) <= 2004 and i % 10 == 0)
    assert view.model.rowCount() == expected
    view.year_to.setValue(1995)  # below "from": "from" follows it down
    assert view.year_from.value() == 1995


def test_detail_pane_shows_record_provenance_and_links(view):
    view.table.selectRow(0)
    text = view.detail.toPlainText()
    assert title(0) in text and "10.5555/r.0" in text and "Abstract of record 0." in text
    assert "Provenance" in text
    assert "core (core), rank 1" in text and "big (results), rank 1" in text
    assert "core.csv, line" in text and "big.csv, line" in text
    assert "record #" in text and "doi" in text  # the link to the core record
    view.table.selectRow(1)
    assert "No other record was matched" in view.detail.toPlainText()


def test_copy_and_open_doi(view, monkeypatch):
    opened = []
    monkeypatch.setattr(records_view.QDesktopServices, "openUrl", opened.append)
    assert not view.copy_doi_action.isEnabled()
    view.table.selectRow(3)
    assert view.copy_doi_action.isEnabled()
    view.copy_doi_action.trigger()
    assert QGuiApplication.clipboard().text() == "10.5555/r.3"
    view.open_doi_action.trigger()
    assert [u.toString() for u in opened] == ["https://doi.org/10.5555/r.3"]
    assert view.copy_doi_action.shortcut().toString() == "Ctrl+Shift+C"


def test_keyboard_ctrl_f_focuses_filter_and_enter_the_detail(view, qtbot):
    view.show()
    qtbot.waitActive(view)
    view.table.setFocus()
    view.table.selectRow(0)
    qtbot.keyClick(view.table, Qt.Key.Key_Down)
    assert view.table.currentIndex().row() == 1
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    qtbot.waitUntil(view.detail.hasFocus, timeout=60_000)
    qtbot.keyClick(view.detail, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(view.filter_edit.hasFocus, timeout=60_000)


def test_a_hidden_stale_view_refreshes_when_shown(view, qtbot):
    view.filter_edit.setText("fig")
    view.apply_filter()
    browser = view.model.browser
    view.project_changed(IMPORTED, None)  # hidden: only marked
    assert view.model.browser is browser
    view.show()
    qtbot.waitExposed(view)
    assert view.model.browser is not browser and view.model.rowCount() == N // 10


def test_on_a_narrow_window_the_title_keeps_its_share_and_venue_doi_give_way(view, qtbot):
    header = view.table.horizontalHeader()
    view.show()
    view.resize(1400, 600)
    qtbot.waitUntil(lambda: view.table.viewport().width() > 1200)
    wide = [header.sectionSize(c) for c in range(7)]
    assert [wide[3], wide[4]] == [view._natural[3], view._natural[4]]  # room: natural widths
    view.resize(520, 600)
    qtbot.waitUntil(lambda: view.table.viewport().width() < 520)
    width = view.table.viewport().width()
    sizes = [header.sectionSize(c) for c in range(7)]
    assert sizes[1] >= records_view.TITLE_SHARE * width - 1  # the title keeps its share
    assert sum(sizes) <= width + 1  # no horizontal scrolling
    assert sizes[3] < wide[3] and sizes[4] < wide[4]  # venue and DOI gave way
    assert [sizes[c] for c in (0, 2, 5, 6)] == [wide[c] for c in (0, 2, 5, 6)]
