"""The PRISMA screen: the diagram drawn from the project, redrawn as decisions are made
and numbers entered; saved as SVG, PNG and PDF (screenshots light and dark)."""

import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.diagram import counted_lines
from litqeval_gui.gui.screens.prisma import PrismaView
from litqeval_gui.gui.screens.prisma.render import PNG_SCALE, save_diagram
from litqeval_gui.gui.screens.prisma.view import R_FILTER
from litqeval_gui.gui.session import ProjectSession
from tests.gui.themed import shoot_both
from tests.support.prisma import ANN, build_review
from tests.support.prisma_rounds import build_two_rounds


def test_the_diagram_follows_decisions_and_entered_numbers(window, tmp_path, qtbot, shot):
    path = build_review(tmp_path)
    window.show()
    assert window.open_project(path)
    view = window.open_screen("prisma", "T")
    assert view.title == "PRISMA: T"
    assert (view.counts.screened, view.counts.included) == (12, 4)
    assert view.diagram.renderer().isValid()
    writer = window.session.project.sibling()
    try:
        ta = store.find_screening(writer, "T", "ta")
        writer.write(store.decide_op(ta, store.items(writer, ta.id)[12], "exclude", ANN))
    finally:
        writer.close()
    qtbot.waitUntil(lambda: view.counts.screened == 13, timeout=60_000)
    assert view.counts.excluded_screening == 4
    assert 'data-count="screened" data-detail="">Records screened (n = 13)' in view.svg
    lines = {count: element for element, count in counted_lines(view.svg).items()}
    where = view.diagram.renderer().boundsOnElement(lines["excluded_fulltext",
                                                         "wrong population"]).center()
    with qtbot.waitSignal(view.diagram.clicked):
        qtbot.mouseClick(view.diagram, Qt.MouseButton.LeftButton, pos=where.toPoint())
    listed = view.records_dialog
    assert listed.isVisible() and listed.table.rowCount() == 2
    assert listed.table.item(0, 1).text() == "2004"  # a year, not a number with a comma
    assert listed.heading.text().startswith("<b>Reports excluded: wrong population</b>")
    shot(listed, "prisma_records")
    listed.reject()
    where = view.diagram.renderer().boundsOnElement(lines["screened", ""]).center()
    assert view.number_clicked(where).table.rowCount() == 13
    view.records_dialog.reject()
    assert view.number_clicked(QPointF(1, 1)) is None  # the page's corner: no number

    dialog = view.enter_numbers()
    dialog.removed_other.setValue(5)
    dialog.sources.setPlainText("Citation searching = 3\nWebsites = 2")
    dialog.sought.setValue(4)
    dialog.not_retrieved.setValue(1)
    dialog.reasons.setPlainText("wrong outcome = 1")
    dialog.list_labels.setPlainText("update = PubMed update")
    shot(dialog, "prisma_numbers")
    dialog.accept()
    qtbot.waitUntil(lambda: view.counts.entered.other_used, timeout=60_000)
    qtbot.waitUntil(lambda: "PubMed update" in view.counts.identified, timeout=60_000)
    assert view.counts.identified == {"PubMed": 10, "Scopus": 8, "PubMed update": 4}
    assert view.enter_numbers().list_labels.toPlainText() == "update = PubMed update"
    dialog.list_labels.setPlainText("")
    dialog.accept()  # a label no longer listed is dropped
    qtbot.waitUntil(lambda: "PubMed update" not in view.counts.identified, timeout=60_000)
    assert view.counts.entered.other_identified == {"Citation searching": 3, "Websites": 2}
    assert (view.counts.removed_other, view.counts.included) == (5, 4 + 2)
    assert "Identification of studies via other methods" in view.svg
    shot(view, "prisma_screen")


def test_a_line_that_is_not_name_equals_number_is_refused(session, qtbot):
    view = PrismaView(session, "T")
    qtbot.addWidget(view)
    dialog = view.enter_numbers()
    dialog.sources.setPlainText("Citation searching: 3")
    assert dialog.numbers() == ("'Citation searching: 3': write a name, '=' and a whole "
                                "number")
    dialog.list_labels.setPlainText("L = ")
    assert dialog.labels() == "'L =': write a list's name, '=' and a name for it"
    dialog.reject()
    assert view.enter_numbers() is dialog and dialog.sources.toPlainText() == ""


def test_saved_as_svg_png_and_pdf(tmp_path, qtbot, shot):
    path = build_review(tmp_path)
    session = ProjectSession(Project.open(path))
    try:
        view = PrismaView(session, "T")
        qtbot.addWidget(view)
        size = view.diagram.renderer().defaultSize()
        svg = save_diagram(view.svg, tmp_path / "flow.svg")
        assert ET.parse(svg).getroot().get("width") == str(size.width())
        png = QImage(str(save_diagram(view.svg, tmp_path / "flow.png")))
        assert (png.width(), png.height()) == (size.width() * PNG_SCALE,
                                               size.height() * PNG_SCALE)
        assert png.pixelColor(2, 2).name() == "#ffffff"  # the white page
        pdf = save_diagram(view.svg, tmp_path / "flow.pdf").read_bytes()
        assert pdf.startswith(b"%PDF-") and b"/MediaBox" in pdf
        with pytest.raises(LitqError, match="save the diagram as .svg, .png, .pdf"):
            save_diagram(view.svg, tmp_path / "flow.jpg")
        database = tmp_path / "copy.png"
        database.write_bytes(path.read_bytes())
        with pytest.raises(LitqError, match="is an SQLite database"):
            save_diagram(view.svg, database)
        shoot_both(shot, lambda: _sized(PrismaView(session, "T")), "prisma")
    finally:
        assert session.close()


def _sized(view):
    view.resize(1000, 640)
    return view


def test_a_grown_screening_is_drawn_round_by_round(tmp_path, qtbot, shot):
    session = ProjectSession(Project.open(build_two_rounds(tmp_path)))
    try:
        view = PrismaView(session, "T")
        qtbot.addWidget(view)
        assert view.round == 2 and view.round_box.isVisibleTo(view)
        assert [view.round_box.itemText(i) for i in range(view.round_box.count())] == [
            "Round 1 (first searches)", "Round 2 (search update)"]
        c = view.counts
        assert (c.screened, c.included, c.previous_included, c.total_included) == (3, 1, 2, 3)
        assert "Previous studies" in view.svg and view.diagram.renderer().isValid()
        lines = {count: element for element, count in counted_lines(view.svg).items()}
        for count, wanted in ((("total_included", ""), 3), (("previous_included", ""), 2),
                              (("screened", ""), 3), (("identified", "Embase"), 2)):
            where = view.diagram.renderer().boundsOnElement(lines[count]).center()
            assert view.number_clicked(where).table.rowCount() == wanted, count
            view.records_dialog.reject()
        shoot_both(shot, lambda: _sized(PrismaView(session, "T")), "prisma_update")
        view.round_box.setCurrentIndex(0)
        view.round_box.activated.emit(0)
        assert view.round == 1 and "Previous studies" not in view.svg
        assert (view.counts.screened, view.counts.included) == (10, 2)
        view.refresh()  # a redraw keeps the chosen round
        assert view.round == 1
    finally:
        assert session.close()


def test_save_counts_for_the_prisma2020_package(tmp_path, qtbot, monkeypatch):
    path = build_review(tmp_path)
    session = ProjectSession(Project.open(path))
    try:
        view = PrismaView(session, "T")
        qtbot.addWidget(view)
        target = tmp_path / "PRISMA.csv"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *a, **k: (str(target), R_FILTER)))
        view.save_counts()
        lines = target.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "data,node,box,description,boxtext,tooltips,url,n"
        assert "records_screened,node9,box4,Records screened,Records screened," \
               "Records screened,records_screened.html,12" in lines
    finally:
        assert session.close()
