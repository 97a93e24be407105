"""The PDF reader (issue 26 §1) on PDFs made in the test: pages drawn as they come into
view, page navigation, zoom, search hits, the screener's terms marked over their words,
and one line for a damaged or an encrypted file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from litqeval_gui.core.records.pdf_child import PdfChild
from litqeval_gui.gui.pdf import PdfReader
from litqeval_gui.gui.pdf.document import PdfFile
from tests.support.fulltext_pdfs import damaged_pdf, write_pdf

PAGE = ["Deep learning for polyp detection in colonoscopy.", "A polyp study with robots."]


@pytest.fixture
def three_pages(tmp_path):
    """Three pages; page n's first line names it, "polyp" twice on each page."""
    pages = [[f"Page {n} of the study", *PAGE] for n in (1, 2, 3)]
    return write_pdf(tmp_path / "study.pdf", pages)


def _reader(qtbot, path=None) -> PdfReader:
    reader = PdfReader(own_keys=True)
    qtbot.addWidget(reader)
    reader.resize(640, 700)
    with qtbot.waitActive(reader):
        reader.show()
        reader.activateWindow()
    reader.scroll.setFocus()  # the reader's keys work while it (or a child) has the focus
    if path is not None:
        with qtbot.waitSignal(reader.opened, timeout=60_000):
            reader.open(path)
        qtbot.waitUntil(lambda: reader.pages[0].image is not None, timeout=60_000)
    return reader


def _dark_share(reader: PdfReader, page: int, rect) -> float:
    """The share of dark pixels of the drawn ``page`` inside ``rect`` (points)."""
    image = reader.pages[page].image
    ratio = image.devicePixelRatio() * reader.zoom
    left, top, right, bottom = (round(v * ratio) for v in rect)
    pixels = [QColor(image.pixel(x, y)).lightness() for x in range(left, right)
              for y in range(top, bottom)]
    return sum(p < 128 for p in pixels) / len(pixels)


def _in_view(reader: PdfReader, page: int, index: int) -> bool:
    """Whether hit ``index`` of ``page``, the current one, is scrolled into the view."""
    rect, current = reader.pages[page].hits[index]
    assert current
    top = reader.pages[page].to_pixels(rect).top() + reader.pages[page].y()
    shown = reader.scroll.verticalScrollBar().value()
    return shown <= top <= shown + reader.scroll.viewport().height()


def test_pages_are_drawn_as_they_come_into_view(qtbot, three_pages):
    reader = _reader(qtbot, three_pages)
    assert reader.page_total == 3 and reader.page_count.text() == "of 3"
    assert reader.pages[0].width() == pytest.approx(612 * reader.zoom, abs=1)  # fit width
    with PdfChild() as child:
        first_line = PdfFile(three_pages, child).search("Page 1 of the study")[0].rects[0]
    assert _dark_share(reader, 0, first_line) > 0.05  # the text is drawn where it is
    assert _dark_share(reader, 0, (72, 400, 400, 500)) == 0  # blank paper below it
    assert reader.pages[2].image is None  # two views below: not drawn yet
    reader.go_to_page(2)
    qtbot.waitUntil(lambda: reader.pages[2].image is not None, timeout=60_000)


def test_page_box_keys_and_zoom_move_through_the_pages(qtbot, three_pages):
    reader = _reader(qtbot, three_pages)
    reader.page_box.setValue(3)
    assert reader.current_page() == 2
    reader.go_to_page(0)
    assert reader.page_box.value() == 1
    screens = []
    for _ in range(4):  # down one view at a time, stopping at each page's top
        qtbot.keyClick(reader.scroll, Qt.Key.Key_PageDown)
        screens.append(reader.current_page())
    assert screens[-1] == 2 and sorted(screens) == screens and 1 in screens
    assert reader.page_box.value() == 3
    qtbot.keyClick(reader.scroll, Qt.Key.Key_PageUp)
    qtbot.keyClick(reader.scroll, Qt.Key.Key_PageUp)
    assert reader.current_page() <= 1
    fitted = reader.zoom
    qtbot.keyClick(reader.scroll, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert reader.zoom == pytest.approx(fitted * 1.25, abs=1e-3) and not reader.fit
    assert reader.pages[1].width() == round(612 * reader.zoom)
    qtbot.waitUntil(lambda: reader.pages[reader.current_page()].image_zoom == reader.zoom,
                    timeout=60_000)  # drawn again at the new zoom
    qtbot.keyClick(reader.scroll, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert reader.zoom == pytest.approx(fitted, abs=1e-3) and reader.fit


def test_search_counts_marks_and_steps_through_the_hits(qtbot, three_pages):
    reader = _reader(qtbot, three_pages)
    qtbot.keyClick(reader.scroll, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert reader.search_edit.hasFocus()
    qtbot.keyClicks(reader.search_edit, "POLYP")
    with qtbot.waitSignal(reader.searched, timeout=60_000) as found:
        qtbot.keyClick(reader.search_edit, Qt.Key.Key_Return)
    assert found.args == [6] and reader.hit_label.text() == "1 of 6"
    assert [len(p.hits) for p in reader.pages] == [2, 2, 2]
    assert [current for _, current in reader.pages[0].hits] == [True, False]
    for _ in range(2):  # Enter again: the next match
        qtbot.keyClick(reader.search_edit, Qt.Key.Key_Return)
    assert reader.hit_label.text() == "3 of 6" and _in_view(reader, 1, 0)
    assert [current for _, current in reader.pages[1].hits] == [True, False]
    qtbot.keyClick(reader.search_edit, Qt.Key.Key_Escape)  # the keys go back to the pages
    for _ in range(3):
        qtbot.keyClick(reader.scroll, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert reader.hit_label.text() == "6 of 6"  # wrapped round
    assert _in_view(reader, 2, 1)
    with qtbot.waitSignal(reader.searched, timeout=60_000) as found:
        reader.find("endoscopy")
    assert found.args == [0] and reader.hit_label.text() == "No match"
    assert all(p.hits == [] for p in reader.pages)


def test_the_screeners_terms_are_marked_over_their_words(qtbot, three_pages):
    reader = _reader(qtbot)
    reader.set_terms(["polyp*", "deep learning"], ["robot*"])
    with qtbot.waitSignal(reader.opened, timeout=60_000):
        reader.open(three_pages)
    qtbot.waitUntil(lambda: bool(reader.pages[0].terms) and reader.pages[0].image is not None,
                    timeout=60_000)
    kinds = [hit.kind for hit in reader.pages[0].terms]
    assert kinds == ["include", "include", "include", "exclude"]  # deep learning, polyp ×2, robots
    for hit in reader.pages[0].terms:
        assert _dark_share(reader, 0, hit.rects[0]) > 0.05  # over the word, not beside it
    reader.set_terms([], ["colonoscopy"])
    qtbot.waitUntil(lambda: [h.kind for h in reader.pages[0].terms or ()] == ["exclude"],
                    timeout=60_000)


def encrypted_pdf(path):
    return write_pdf(path, [["Locked"]], encrypted=True)


@pytest.mark.parametrize(("make", "why"), [
    (damaged_pdf, "damaged or not a PDF"),
    (encrypted_pdf, "encrypted (a password is needed to open it)")])
def test_a_pdf_pdfium_refuses_shows_one_line(qtbot, tmp_path, three_pages, make, why):
    reader = _reader(qtbot, three_pages)
    path = make(tmp_path / "bad.pdf")
    with qtbot.waitSignal(reader.failed, timeout=60_000) as failed:
        reader.open(path)
    assert failed.args == [f"bad.pdf: cannot read it: it is {why}"]
    assert "\n" not in failed.args[0]
    assert reader.page_total == 0 and reader.stack.currentWidget() is reader.message
    assert reader.message.text() == failed.args[0] and not reader.toolbar.isEnabled()


def test_a_newer_file_wins_over_an_older_ones_late_answers(qtbot, tmp_path, three_pages):
    reader = _reader(qtbot)
    one_page = write_pdf(tmp_path / "one.pdf", [["Only page"]])
    reader.open(three_pages)
    with qtbot.waitSignal(reader.opened, timeout=60_000) as opened:
        reader.open(one_page)
    assert opened.args == [1]
    qtbot.wait(100)  # the first file's answers, if any were still coming
    assert reader.page_total == 1 and reader.path == one_page
    reader.show_message("No PDF attached.")
    assert reader.page_total == 0 and reader.message.text() == "No PDF attached."



def test_a_zoom_keeps_the_place_read(qtbot, three_pages):
    reader = _reader(qtbot, three_pages)
    bar = reader.scroll.verticalScrollBar()
    reader.go_to_page(1)
    bar.setValue(bar.value() + reader.pages[1].height() // 2)  # half way down page 2
    for zoom in (reader.zoom_in, reader.zoom_in, reader.zoom_out):
        zoom()
        half_way = reader.pages[1].y() - 8 + reader.pages[1].height() // 2
        assert reader.current_page() == 1 and abs(bar.value() - half_way) <= 2


def test_only_the_pages_near_the_one_read_keep_their_images(qtbot, tmp_path, monkeypatch):
    from litqeval_gui.gui.pdf import reader as reader_module

    pdf = write_pdf(tmp_path / "long.pdf", [[f"Page {n}"] for n in range(1, 41)])
    reader = _reader(qtbot, pdf)
    page_bytes = reader.pages[0].image.sizeInBytes()
    for last in (39, 0):  # down to the last page and back, every page drawn on the way
        for number in range(40) if last else range(39, -1, -1):
            reader.go_to_page(number)
            qtbot.waitUntil(lambda n=number: reader.pages[n].image is not None, timeout=60_000)
        drawn = [p.number for p in reader.pages if p.image is not None]
        assert len(drawn) <= reader_module.CACHE_PAGES and last in drawn
        assert max(abs(n - last) for n in drawn) < reader_module.CACHE_PAGES
    monkeypatch.setattr(reader_module, "CACHE_BYTES", 3 * page_bytes)
    reader.go_to_page(30)  # not drawn since the way back
    qtbot.waitUntil(lambda: reader.pages[30].image is not None and not reader._in_flight,
                    timeout=60_000)
    drawn = [p.number for p in reader.pages if p.image is not None]
    near = {p.number for p in reader._visible_pages()}  # in view and a view around it
    assert 30 in drawn and set(drawn) <= near and len(near) <= 3
