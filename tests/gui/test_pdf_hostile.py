"""The reader on hostile PDFs: the largest page at 400 % drawn within the pixel budget (and
said), a page of absurd size or a flate bomb failing alone in one line while the others
are drawn, a page tree that loops ending in one line, a million shared pages shown as
their first 2,000 (said) — every page read made off the interface's thread; and the
app asking before copying a large PDF."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from litqeval_gui.core.records import attachments
from litqeval_gui.core.records.pdf_child import MAX_PAGES, RENDER_PIXELS, PdfChild, too_costly
from litqeval_gui.gui.pdf import PdfReader
from litqeval_gui.gui.screens.screening import attach
from tests.support.fulltext_pdfs import write_pdf
from tests.support.hostile_pdfs import (
    BOMB,
    LETTER,
    TEXT,
    deflate_bomb,
    huge_page_pdf,
    page_cycle_pdf,
    pages_pdf,
    shared_pages_pdf,
)
from tests.support.projects import ris_project

ABSURD = b"0 0 1000000000 1000000000"
SIZE = "its size (1,000,000,000 × 1,000,000,000 pt) is not a PDF page's (at most 14,400 pt a side)"


@pytest.fixture
def asked(monkeypatch):
    """Every request to a PDF child: (op, whether made on the interface's thread)."""
    seen = []
    real = PdfChild._request

    def request(child, op, handle, args):
        seen.append((op, threading.current_thread() is threading.main_thread()))
        return real(child, op, handle, args)

    monkeypatch.setattr(PdfChild, "_request", request)
    return seen


def _reader(qtbot) -> PdfReader:
    reader = PdfReader(own_keys=True)
    qtbot.addWidget(reader)
    reader.resize(640, 700)
    reader.show()
    return reader


def _opened(qtbot, reader: PdfReader, path) -> int:
    with qtbot.waitSignal(reader.opened, timeout=60_000) as opened:
        reader.open(path)
    return opened.args[0]


def test_the_largest_page_at_400_percent_is_drawn_within_the_pixel_budget(qtbot, tmp_path):
    reader = _reader(qtbot)
    assert _opened(qtbot, reader, huge_page_pdf(tmp_path / "huge.pdf")) == 1
    while reader.zoom < 4.0:
        reader.zoom_in()
    assert reader.zoom == 4.0 and reader.pages[0].width() == 57_600
    qtbot.waitUntil(lambda: reader.pages[0].image_zoom == 4.0, timeout=60_000)
    image = reader.pages[0].image
    assert image.width() == image.height() and image.width() * image.height() <= RENDER_PIXELS
    assert image.width() > 6000  # as many pixels as the budget allows, not a thumbnail
    assert reader.notice.isVisibleTo(reader) and reader.notice.text() == (
        "Page 1 is drawn with fewer pixels than this zoom asks (at most 40 megapixels a page).")


def test_a_page_of_absurd_size_or_a_bomb_fails_alone_in_one_line(qtbot, tmp_path, asked):
    pdf = pages_pdf(tmp_path / "mixed.pdf", [(LETTER, TEXT, b""), (ABSURD, TEXT, b""),
                                              (LETTER, deflate_bomb(1536), BOMB),
                                              (LETTER, TEXT, b"")])
    reader = _reader(qtbot)
    reader.set_terms(["hostile"], [])
    assert _opened(qtbot, reader, pdf) == 4
    for number in range(4):
        reader.go_to_page(number)
        qtbot.waitUntil(lambda n=number: reader.pages[n].image is not None
                        or bool(reader.pages[n].failure), timeout=60_000)
    assert reader.failed_pages == [(1, SIZE), (2, too_costly())]
    assert reader.pages[3].image is not None  # drawn after the bomb, in a new child
    assert reader.notice.text() == f"2 page(s) could not be drawn (page 2: {SIZE})."
    with qtbot.waitSignal(reader.searched, timeout=60_000) as found:
        reader.find("hostile")
    assert found.args == [2] and {hit.page for hit in reader.hits} == {0, 3}
    assert {"open", "render", "page_text", "char_rects", "search_page"} <= {op for op, _ in asked}
    assert not any(on_gui for _, on_gui in asked)  # no page read on the interface's thread


def test_a_page_tree_that_loops_ends_in_one_line(qtbot, tmp_path):
    reader = _reader(qtbot)
    with qtbot.waitSignal(reader.failed, timeout=60_000) as failed:
        reader.open(page_cycle_pdf(tmp_path / "cycle.pdf"))
    assert failed.args == ["cycle.pdf: cannot read it: none of its pages can be used "
                           "(page 1: PDFium cannot read it)"]
    assert reader.message.text() == failed.args[0] and reader.page_total == 0


def test_a_million_shared_pages_show_as_the_first_ones_read_off_the_gui_thread(
        qtbot, tmp_path, asked):
    reader = _reader(qtbot)
    assert _opened(qtbot, reader, shared_pages_pdf(tmp_path / "shared.pdf")) == MAX_PAGES
    assert reader.page_count.text() == "of 2,000" and reader.failed_pages == []
    assert reader.notice.text() == ("Showing the first 2,000 of its 1,000,000 pages (the "
                                    "reader shows at most 2,000).")
    qtbot.waitUntil(lambda: reader.pages[0].image is not None, timeout=60_000)
    assert asked and not any(on_gui for _, on_gui in asked)


def test_the_app_asks_before_copying_a_large_pdf(tmp_path, monkeypatch):
    monkeypatch.setattr(attachments, "LARGE_COPY", 100)
    questions = []
    monkeypatch.setattr(attach, "confirm", lambda _parent, title, text, verb:
                        questions.append((title, text, verb)) and False)
    with ris_project(tmp_path, "TY  - JOUR\nTI  - A paper\nER  -\n") as project:
        pdf = write_pdf(tmp_path / "big.pdf", [["A paper"]])
        session = SimpleNamespace(project=project)
        assert attach.attach_one(session, 1, pdf, True, None) is None  # declined: no job
    assert questions == [("Large PDF", "big.pdf is 0 MB: copying it into p.litq.files\n\n"
                          "Link a file instead of copying it to keep it where it is.", "Copy")]
