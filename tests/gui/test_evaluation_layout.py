"""The evaluation screen at a laptop's 1200 × 760: the comparison table shows every row
of a topic of five lists while a long list of notes is shown (the notes scroll in a
few lines of their own), each list's name is readable (wrapped at its spaces, no word
cut), and the record pane beside or below the map wraps at word boundaries."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QTextBrowser

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.queries import Occurrence, RecordDetail
from litqeval_gui.gui.record_detail import DETAIL_WRAP, detail_html, wrap_at_words
from litqeval_gui.gui.screens.evaluation import view as view_module
from litqeval_gui.gui.screens.evaluation.table import NAME_CHARS
from litqeval_gui.gui.screens.evaluation.tabs import SIDE_WIDTH
from tests.gui.test_evaluation_screen import open_evaluation
from tests.support.synthetic import topic_records
from tests.support.topics import build_topic, copy_project, evaluate_pca, import_list, write_list

LONG_NAMES = ["systematic review query (Scopus, 2019 update)", "linguistics baseline",
              "astronomy search of Web of Science"]


@pytest.fixture(scope="module")
def five_lists(tmp_path_factory):
    """clean and noisy, and three lists without a core work: their SP cluster, MVEE and
    hull are undefined, nine notes below the table."""
    folder = tmp_path_factory.mktemp("five")
    path = build_topic(folder / "p.litq", extra=40, noise=30)
    with Project.open(path) as project:
        for i, (name, field) in enumerate(zip(LONG_NAMES, ("astronomy", "linguistics",
                                                           "astronomy"), strict=True)):
            records = topic_records(field, 12, seed=20 + i)
            import_list(project, write_list(records, folder / f"l{i}.ris"), "results", name)
    evaluate_pca(path, save=True)
    return path


def show_at(window, qtbot, width=1200, height=760):
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)


def broken_words(pane) -> list[str]:
    """Where ``pane``'s lines break between two letters or digits (inside a word)."""
    found = []
    block = pane.document().begin()
    while block.isValid():
        text, layout = block.text(), block.layout()
        for i in range(layout.lineCount() - 1):
            end = layout.lineAt(i).textStart() + layout.lineAt(i).textLength()
            if 0 < end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
                found.append(f"{text[max(0, end - 10):end]}|{text[end:end + 10]}")
        block = block.next()
    return found


def test_every_row_shows_while_the_notes_are_shown(window, qtbot, five_lists, tmp_path):
    show_at(window, qtbot)
    view = open_evaluation(window, qtbot, copy_project(five_lists, tmp_path))
    qtbot.wait(50)
    table, notes = view.table, view.notes_area
    assert view.notes.text().count("\n") >= 8 and notes.isVisible()
    line = view.notes.fontMetrics().lineSpacing()
    assert notes.height() <= view_module.NOTES_LINES * line + 10  # the notes scroll
    assert notes.verticalScrollBar().maximum() > 0
    rows = table.model().rowCount()
    assert rows == 5
    for row in range(rows):  # each row whole inside the table's viewport
        top = table.rowViewportPosition(row)
        assert top >= 0 and top + table.rowHeight(row) <= table.viewport().height(), row
    assert table.verticalScrollBar().maximum() == 0
    assert view.missed.height() >= 4 * view.missed.fontMetrics().lineSpacing()


def test_the_names_wrap_whole_words_and_are_not_cut(window, qtbot, five_lists, tmp_path):
    show_at(window, qtbot)
    view = open_evaluation(window, qtbot, copy_project(five_lists, tmp_path))
    qtbot.wait(50)
    table, header = view.table, view.table.horizontalHeader()
    metrics = table.fontMetrics()
    width = header.sectionSize(0)
    assert width >= min(metrics.averageCharWidth() * NAME_CHARS,
                        max(metrics.horizontalAdvance(n) for n in LONG_NAMES))
    model = table.model()
    for row in range(model.rowCount()):
        name = model.index(row, 0).data()
        for word in name.split():
            assert metrics.horizontalAdvance(word) < width - 6, word
        wrapped = metrics.boundingRect(QRect(0, 0, width - 8, 10_000),
                                       Qt.TextFlag.TextWordWrap, name)
        assert wrapped.height() <= table.rowHeight(row), name  # every line of it shows
    for column in range(1, header.count()):  # the numbers whole
        assert header.sectionSize(column) >= table.sizeHintForColumn(column), column


def test_a_narrow_view_scrolls_sideways_rather_than_cut_the_names(window, qtbot, five_lists,
                                                                   tmp_path):
    show_at(window, qtbot, 900, 760)
    view = open_evaluation(window, qtbot, copy_project(five_lists, tmp_path))
    qtbot.wait(50)
    metrics = view.table.fontMetrics()
    assert view.table.horizontalHeader().sectionSize(0) >= min(
        metrics.averageCharWidth() * NAME_CHARS, metrics.horizontalAdvance(LONG_NAMES[0]))
    assert view.table.horizontalScrollBar().maximum() > 0


def test_the_record_pane_wraps_at_words(window, qtbot, five_lists, tmp_path):
    show_at(window, qtbot)
    view = open_evaluation(window, qtbot, copy_project(five_lists, tmp_path))
    view.tabs.setCurrentWidget(view.landscape)
    qtbot.wait(50)
    detail = view.landscape.detail
    assert detail.wordWrapMode() == DETAIL_WRAP == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    assert detail.width() >= SIDE_WIDTH  # below the map at this width: never a sliver
    data = view.landscape.landscape.data
    view.show_record(int(data.ids[0]))
    assert data.titles[0] in detail.toPlainText()
    assert broken_words(detail) == []


def test_the_record_pane_is_beside_a_wide_map(window, qtbot, five_lists, tmp_path):
    show_at(window, qtbot, 1700, 900)
    view = open_evaluation(window, qtbot, copy_project(five_lists, tmp_path))
    view.tabs.setCurrentWidget(view.landscape)
    qtbot.wait(50)
    tab = view.landscape
    assert tab.splitter.orientation() == Qt.Orientation.Horizontal
    assert tab.detail.width() >= SIDE_WIDTH - 10


def test_a_field_name_is_never_split_and_a_short_id_stays_whole(qtbot):
    detail = RecordDetail(1, 7, Record(title="Robotic arthroplasty outcomes", authors=[
        "Smith, John; Doe, Jane; Roe, Richard; Poe, Edgar Allan; Lee, Ann"],
        ids={"dimensions": "pub.1036049428"}, abstract="A study of dimensions."),
        [Occurrence(1, "baseline query", "results", "baseline_pubs.csv", "", 3, 12)])
    pane = wrap_at_words(QTextBrowser())
    qtbot.addWidget(pane)
    pane.resize(240, 500)
    pane.setHtml(detail_html(detail))
    pane.show()
    qtbot.waitExposed(pane)
    assert broken_words(pane) == []
    pane.resize(150, 500)  # too narrow for a field and the id: the id breaks, not the name
    qtbot.wait(20)
    names = {}
    block = pane.document().begin()
    while block.isValid():
        names[block.text().strip("\xa0 ")] = block.layout().lineCount()
        block = block.next()
    assert names["dimensions"] == names["Authors"] == 1
