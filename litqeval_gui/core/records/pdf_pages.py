"""What PDFium is asked, only ever inside a PDF child (:mod:`~.pdf_child`, whose bounds
are applied here): a document opened with its pages' sizes, a page drawn, a page's text,
the boxes of its characters, a search, a whole file inspected.

Rectangles are ``(left, top, right, bottom)`` in points from the top-left corner of the
page as shown (its rotation applied): multiply by the zoom for pixels. Nothing in a PDF
is executed: no form environment is made (where JavaScript would run), forms are not
drawn, nothing is launched. Reasons are bare (``it is damaged or not a PDF``); the
parent names the file or the page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from litqeval_gui.core.records.pdf_child import (
    MAX_PAGES,
    MAX_SIDE,
    MAX_TEXT,
    PDF_MEMORY,
    RENDER_PIXELS,
    Inspected,
    Opened,
    Rect,
    Unreadable,
    too_costly,
)

_FINE = 8  # device units per point when converting positions (sub-point precision)
UNREADABLE_PAGE = "PDFium cannot read it"


def _reason(exc: Exception) -> str:
    text = str(exc).lower()
    if "password" in text:
        return "it is encrypted (a password is needed to open it)"
    if isinstance(exc, OSError):
        return exc.strerror or "it is not a file that can be read"
    return "it is damaged or not a PDF"


def open_document(path: str) -> pdfium.PdfDocument:
    """The PDF at ``path`` open read-only; :class:`Unreadable` when it cannot be opened
    or has no pages."""
    try:
        doc = pdfium.PdfDocument(Path(path))
    except (pdfium.PdfiumError, OSError, ValueError) as exc:
        raise Unreadable(_reason(exc)) from None
    if len(doc) == 0:
        doc.close()
        raise Unreadable("it has no pages")
    return doc


def size_problem(width: float, height: float) -> str | None:
    """Why a page of this size (points) is not used, or None: each side must be above
    0 and at most :data:`~.pdf_child.MAX_SIDE`."""
    if all(math.isfinite(side) and 0 < side <= MAX_SIDE for side in (width, height)):
        return None
    return (f"its size ({width:,.0f} × {height:,.0f} pt) is not a PDF page's (at most "
            f"{MAX_SIDE:,.0f} pt a side)")


def _size(doc: pdfium.PdfDocument, index: int) -> tuple[float, float]:
    try:
        width, height = doc.get_page_size(index)
    except pdfium.PdfiumError:
        raise Unreadable(UNREADABLE_PAGE) from None
    problem = size_problem(width, height)
    if problem:
        raise Unreadable(problem)
    return width, height


def summary(doc: pdfium.PdfDocument) -> Opened:
    """The page count and the sizes of the first :data:`~.pdf_child.MAX_PAGES` pages."""
    sizes: list[tuple[float, float] | None] = []
    failed: dict[int, str] = {}
    for index in range(min(len(doc), MAX_PAGES)):
        try:
            sizes.append(_size(doc, index))
        except Unreadable as exc:
            sizes.append(None)
            failed[index] = exc.reason
    return Opened(len(doc), tuple(sizes), failed)


@contextmanager
def _page(doc: pdfium.PdfDocument, index: int) -> Iterator[pdfium.PdfPage]:
    """Page ``index`` loaded (its size checked first), closed after."""
    _size(doc, index)
    try:
        page = doc[index]
    except pdfium.PdfiumError:
        raise Unreadable(UNREADABLE_PAGE) from None
    try:
        yield page
    finally:
        page.close()


@contextmanager
def _text_of(doc: pdfium.PdfDocument, index: int) -> Iterator[tuple[pdfium.PdfPage,
                                                                   pdfium.PdfTextPage]]:
    with _page(doc, index) as page:
        textpage = page.get_textpage()
        try:
            yield page, textpage
        finally:
            textpage.close()


@dataclass(frozen=True)
class Drawn:
    """A page drawn: (width, height, stride, drawn smaller than asked) and its RGBX bytes."""

    header: tuple[int, int, int, bool]
    pixels: bytes


def fitted_scale(width: float, height: float, scale: float) -> float:
    """``scale`` (pixels per point), lowered so that the page has at most
    :data:`~.pdf_child.RENDER_PIXELS` pixels."""
    fitted = min(scale, math.sqrt(RENDER_PIXELS / (width * height)))
    while math.ceil(width * fitted) * math.ceil(height * fitted) > RENDER_PIXELS:
        fitted *= 0.999
    return fitted


def render(doc: pdfium.PdfDocument, index: int, scale: float) -> Drawn:
    """Page ``index`` at ``scale`` pixels per point (at most the pixel budget)."""
    with _page(doc, index) as page:
        width, height = page.get_size()
        fitted = fitted_scale(width, height, scale)
        bitmap = page.render(scale=fitted, rev_byteorder=True, prefer_bgrx=True,
                             may_draw_forms=False)
        try:
            return Drawn((bitmap.width, bitmap.height, bitmap.stride, fitted < scale),
                         bytes(bitmap.buffer))
        finally:
            bitmap.close()


def _text(textpage: pdfium.PdfTextPage) -> str:
    count = min(textpage.count_chars(), MAX_TEXT)
    return textpage.get_text_range(0, count).replace("\r\n", "\n") if count > 0 else ""


def page_text(doc: pdfium.PdfDocument, index: int) -> str:
    """Page ``index``'s text layer (its first :data:`~.pdf_child.MAX_TEXT` characters;
    lines end with ``\\n``)."""
    with _text_of(doc, index) as (_page_, textpage):
        return _text(textpage)


def _rects(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, start: int,
           count: int) -> tuple[Rect, ...]:
    """The rectangles of characters ``start`` … ``start + count``, in shown-page points,
    neighbours on one line merged."""
    width, height = page.get_size()
    conv = pdfium.PdfPosConv(page, (0, 0, round(width * _FINE), round(height * _FINE), 0))
    rects: list[Rect] = []
    for i in range(textpage.count_rects(start, count)):
        left, bottom, right, top = textpage.get_rect(i)
        xs, ys = zip(conv.to_bitmap(left, bottom), conv.to_bitmap(right, top), strict=True)
        rect = (min(xs) / _FINE, min(ys) / _FINE, max(xs) / _FINE, max(ys) / _FINE)
        if rects and _same_line(rects[-1], rect):
            last = rects.pop()
            rect = (min(last[0], rect[0]), min(last[1], rect[1]),
                    max(last[2], rect[2]), max(last[3], rect[3]))
        rects.append(rect)
    return tuple(rects)


def _same_line(a: Rect, b: Rect) -> bool:
    """Whether ``b`` continues ``a`` on its line (overlapping heights, a small gap)."""
    height = max(a[3] - a[1], b[3] - b[1])
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    return overlap > height / 2 and -height <= b[0] - a[2] <= height


def char_rects(doc: pdfium.PdfDocument, index: int,
               spans: Sequence[tuple[int, int]]) -> list[tuple[Rect, ...]]:
    """The rectangles of each (start, count) run of page ``index``'s characters."""
    with _text_of(doc, index) as (page, textpage):
        return [_rects(page, textpage, start, count) for start, count in spans]


def search_page(doc: pdfium.PdfDocument, index: int, text: str,
                most: int) -> list[tuple[Rect, ...]]:
    """The rectangles of each case-insensitive occurrence of ``text`` on page ``index``
    (at most ``most``)."""
    with _text_of(doc, index) as (page, textpage):
        searcher = textpage.search(text, match_case=False)
        hits: list[tuple[Rect, ...]] = []
        try:
            while len(hits) < most and (found := searcher.get_next()):
                hits.append(_rects(page, textpage, *found))
        finally:
            searcher.close()
        return hits


def inspect(path: str, keys: Sequence[str]) -> Inspected:
    """The file at ``path`` checked whole: the page count, the first page (of the first
    :data:`~.pdf_child.MAX_PAGES`) that cannot be used, the document information's
    ``keys`` and the first page's text (the page loaded: its content read)."""
    doc = open_document(path)
    try:
        opened = summary(doc)
        bad = min(opened.failed.items(), default=None)
        metadata = tuple(doc.get_metadata_value(key) for key in keys)
        first = page_text(doc, 0) if bad is None else ""
        return Inspected(opened.count, bad, metadata, first)
    finally:
        doc.close()


def text(path: str, max_pages: int | None) -> list[str]:
    """The text layer of each of the first ``max_pages`` pages (at most
    :data:`~.pdf_child.MAX_PAGES`) of the file at ``path``."""
    doc = open_document(path)
    try:
        most = MAX_PAGES if max_pages is None else min(max_pages, MAX_PAGES)
        return [page_text(doc, i) for i in range(min(len(doc), most))]
    finally:
        doc.close()


_ON_FILES: dict[str, Callable] = {"inspect": inspect, "text": text}
_ON_DOCUMENTS: dict[str, Callable] = {"render": render, "page_text": page_text,
                                      "char_rects": char_rects, "search_page": search_page}


class Server:
    """The child's side: the documents open in it by handle, and :meth:`answer`."""

    def __init__(self, memory: int = PDF_MEMORY) -> None:
        self.memory = memory
        self.docs: dict[int, pdfium.PdfDocument] = {}
        self.spent = False  # memory ran out: the child ends after saying so

    def _open(self, handle: int, path: str) -> Opened:
        doc = open_document(path)
        self.docs[handle] = doc
        return summary(doc)

    def _run(self, op: str, handle: int | None, args: tuple) -> object:
        if op == "open":
            return self._open(handle, *args)
        if op == "close":
            self.docs.pop(handle).close()
            return None
        if handle is None:
            return _ON_FILES[op](*args)
        return _ON_DOCUMENTS[op](self.docs[handle], *args)

    def answer(self, request: tuple) -> list:
        """The replies to one ``(op, handle, args)`` request: ``("ok", value)``, ``("drawn",
        header)`` and the pixels, ``("refused", reason)``, or ``("spent", reason)``."""
        op, handle, args = request
        try:
            value = self._run(op, handle, args)
        except Unreadable as exc:
            return [("refused", exc.reason)]
        except pdfium.PdfiumError:
            return [("refused", UNREADABLE_PAGE)]
        except MemoryError:
            self.spent = True
            return [("spent", too_costly(self.memory))]
        except Exception as exc:  # a hostile file must never end the child with a traceback
            return [("refused", f"{UNREADABLE_PAGE} ({type(exc).__name__})")]
        if isinstance(value, Drawn):
            return [("drawn", value.header), value.pixels]
        return [("ok", value)]
