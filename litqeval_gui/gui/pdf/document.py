"""An open PDF as the reader needs it (PDFium through ``pypdfium2``, no Qt): page sizes,
a page rendered to RGBX bytes, text search and the include/exclude terms as rectangles.

PDFium is not thread-safe (not even across documents), so every call into it holds
core's :data:`~litqeval_gui.core.records.pdf_match.PDFIUM_LOCK` (the one matching a
folder of PDFs takes too); pages and text pages are closed inside the lock, never left to the
garbage collector of another thread. Rectangles are ``(left, top, right, bottom)`` in PDF
points from the top-left corner of the page as shown (its rotation applied): multiply by
the zoom for pixels. Nothing in a PDF is executed: no form environment is made (where
JavaScript would run) and forms are not drawn.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.pdf_match import PDFIUM_LOCK, open_pdf
from litqeval_gui.core.screening.ranking.highlight import highlight_spans

Rect = tuple[float, float, float, float]
MAX_HITS = 2000  # a search stops counting here
_FINE = 8  # device units per point when converting positions (sub-point precision)


@dataclass(frozen=True)
class Hit:
    """One match of a search or a term on page ``page`` (0-based), drawn as ``rects``."""

    page: int
    rects: tuple[Rect, ...]
    kind: str = ""  # a term's kind (include | exclude); empty for a search hit


class PdfFile:
    """A PDF opened read-only; :class:`~litqeval_gui.core.records.pdf_match.PdfRefused`
    (one line, as core says it) when it cannot be."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        with PDFIUM_LOCK:
            with open_pdf(self.path) as checked:  # damaged, encrypted, empty: one line
                self.sizes = [checked.get_page_size(i) for i in range(len(checked))]
            try:
                self._doc = pdfium.PdfDocument(self.path)
            except (pdfium.PdfiumError, OSError) as exc:  # replaced since the check
                raise LitqError(f"{self.path.name}: cannot read it: {exc}") from None

    def __len__(self) -> int:
        return len(self.sizes)

    def close(self) -> None:
        with PDFIUM_LOCK:
            self._doc.close()

    @contextmanager
    def _page(self, index: int) -> Iterator[pdfium.PdfPage]:
        """Page ``index``, closed after; a PDFium failure on it is one :class:`LitqError`."""
        with PDFIUM_LOCK:
            try:
                page = self._doc[index]
            except pdfium.PdfiumError as exc:
                raise LitqError(f"Page {index + 1} of {self.path.name}: {exc}") from None
            try:
                yield page
            except pdfium.PdfiumError as exc:
                raise LitqError(f"Page {index + 1} of {self.path.name}: {exc}") from None
            finally:
                page.close()

    def render(self, index: int, scale: float) -> tuple[int, int, int, bytes]:
        """Page ``index`` at ``scale`` pixels per point: (width, height, stride, RGBX bytes)."""
        with self._page(index) as page:
            bitmap = page.render(scale=scale, rev_byteorder=True, prefer_bgrx=True,
                                 may_draw_forms=False)
            try:
                return bitmap.width, bitmap.height, bitmap.stride, bytes(bitmap.buffer)
            finally:
                bitmap.close()

    def search(self, text: str) -> list[Hit]:
        """Every case-insensitive occurrence of ``text`` in the text layer, page by page
        (at most :data:`MAX_HITS`)."""
        hits: list[Hit] = []
        if not text.strip():
            return hits
        for index in range(len(self)):
            try:
                hits += self._search_page(index, text, MAX_HITS - len(hits))
            except LitqError:
                continue  # a page PDFium cannot read holds no hits
            if len(hits) >= MAX_HITS:
                break
        return hits

    def _search_page(self, index: int, text: str, most: int) -> list[Hit]:
        with self._page(index) as page:
            textpage = page.get_textpage()
            searcher = textpage.search(text, match_case=False)
            hits: list[Hit] = []
            try:
                while len(hits) < most and (found := searcher.get_next()):
                    hits.append(Hit(index, _rects(page, textpage, *found)))
            finally:
                searcher.close()
                textpage.close()
            return hits

    def term_hits(self, index: int, include: Sequence[str], exclude: Sequence[str]) -> list[Hit]:
        """Where the include and exclude terms occur on page ``index`` (the screener's
        rules, :func:`~litqeval_gui.core.screening.ranking.highlight.highlight_spans`); none
        where the page has no text layer."""
        if not any(include) and not any(exclude):
            return []
        with self._page(index) as page:
            textpage = page.get_textpage()
            try:
                text = textpage.get_text_range()
                return [Hit(index, _rects(page, textpage, span.start, span.end - span.start),
                            span.kind) for span in highlight_spans(text, include, exclude)]
            finally:
                textpage.close()


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
