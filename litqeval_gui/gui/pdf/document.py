"""An open PDF as the reader needs it (no Qt): page sizes, a page rendered to RGBX bytes,
text search and the include/exclude terms as rectangles — every PDFium call made in the
reader's PDF child (:class:`~litqeval_gui.core.records.pdf_child.PdfChild`, whose bounds
apply), never in this process.

Rectangles are ``(left, top, right, bottom)`` in PDF points from the top-left corner of
the page as shown (its rotation applied): multiply by the zoom for pixels. A page that
cannot be used (its size, PDFium failing on it, too costly) is remembered with its
reason and not asked again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.pdf_child import PdfChild, Rect, Unreadable
from litqeval_gui.core.records.pdf_match import PdfRefused
from litqeval_gui.core.screening.ranking.highlight import highlight_spans

__all__ = ["MAX_HITS", "Drawing", "Hit", "PdfFile", "Rect"]

MAX_HITS = 2000  # a search stops counting here


@dataclass(frozen=True)
class Hit:
    """One match of a search or a term on page ``page`` (0-based), drawn as ``rects``."""

    page: int
    rects: tuple[Rect, ...]
    kind: str = ""  # a term's kind (include | exclude); empty for a search hit


@dataclass(frozen=True)
class Drawing:
    """A page rendered: its pixels (RGBX) and whether they are fewer than asked (the
    pixel budget)."""

    width: int
    height: int
    stride: int
    reduced: bool
    pixels: bytes | bytearray


class PdfFile:
    """A PDF opened read-only in ``child``; :class:`~litqeval_gui.core.records.pdf_match.PdfRefused`
    (one line) when it cannot be, or when none of its pages can be used. ``count`` is
    its page count, ``sizes`` those of the first pages used (None: ``failed``)."""

    def __init__(self, path: str | Path, child: PdfChild) -> None:
        self.path, self.child = Path(path), child
        try:
            self.handle, opened = child.open(self.path)
        except Unreadable as exc:
            raise PdfRefused(f"{self.path.name}: cannot read it: {exc.reason}") from None
        self.count, self.sizes = opened.count, opened.sizes
        self.failed: dict[int, str] = dict(opened.failed)
        if len(self.failed) == len(self.sizes):
            self.close()
            raise PdfRefused(f"{self.path.name}: cannot read it: none of its pages can be "
                             f"used (page 1: {self.failed[0]})")

    def __len__(self) -> int:
        return len(self.sizes)

    def close(self) -> None:
        try:
            self.child.close(self.handle)
        except Unreadable:
            pass  # the child ended meanwhile: nothing is open any more

    def _on(self, index: int, op: str, *args: Any) -> Any:
        """``op`` on page ``index``; :class:`LitqError` with the page's reason when it
        cannot be used (remembered)."""
        if index not in self.failed:
            try:
                return self.child.on(self.handle, op, index, *args)
            except Unreadable as exc:
                self.failed[index] = exc.reason
        raise LitqError(self.failed[index])

    def render(self, index: int, scale: float) -> Drawing:
        """Page ``index`` at ``scale`` pixels per point, or fewer (the pixel budget)."""
        width, height, stride, reduced, pixels = self._on(index, "render", scale)
        return Drawing(width, height, stride, reduced, pixels)

    def search(self, text: str) -> list[Hit]:
        """Every case-insensitive occurrence of ``text`` in the text layer, page by page
        (at most :data:`MAX_HITS`; a page that cannot be used holds none)."""
        hits: list[Hit] = []
        if not text.strip():
            return hits
        for index in range(len(self)):
            try:
                found = self._on(index, "search_page", text, MAX_HITS - len(hits))
            except LitqError:
                continue
            hits += [Hit(index, rects) for rects in found]
            if len(hits) >= MAX_HITS:
                break
        return hits

    def term_hits(self, index: int, include: Sequence[str], exclude: Sequence[str]) -> list[Hit]:
        """Where the include and exclude terms occur on page ``index`` (the screener's
        rules, :func:`~litqeval_gui.core.screening.ranking.highlight.highlight_spans`); none
        where the page has no text layer."""
        if not any(include) and not any(exclude):
            return []
        spans = highlight_spans(self._on(index, "page_text"), include, exclude)
        if not spans:
            return []
        rects = self._on(index, "char_rects", [(s.start, s.end - s.start) for s in spans])
        return [Hit(index, found, span.kind) for span, found in zip(spans, rects, strict=True)]
