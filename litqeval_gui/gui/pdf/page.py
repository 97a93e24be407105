"""One page of the reader: its rendered image (or a placeholder until it arrives), the
include/exclude terms and the search hits drawn over it.

The marks are multiplied onto the page, so black text stays black under them on any
theme (the page itself is always white paper, as a PDF's is).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from litqeval_gui.core.screening.ranking.highlight import INCLUDE
from litqeval_gui.gui.pdf.document import Hit, Rect

MARK = {INCLUDE: QColor("#b7eb8f"), "exclude": QColor("#ffb3b3"),  # as the abstract's terms
        "hit": QColor("#ffe58f"), "current": QColor("#fa8c16")}
PAPER = QColor("#ffffff")
PLACEHOLDER = QColor("#8c8c8c")


class PageWidget(QWidget):
    """Page ``number`` (0-based) of ``size`` points, shown at ``zoom`` pixels per point."""

    def __init__(self, number: int, size: tuple[float, float], zoom: float,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.number, self.size_pt = number, size
        self.image: QImage | None = None
        self.image_zoom = 0.0  # the zoom the image was drawn for
        self.failure = ""  # why it could not be drawn (the PDF child's reason)
        self.terms: list[Hit] | None = None  # None: not asked yet
        self.hits: list[tuple[Rect, bool]] = []  # (rect, is the current hit)
        self.set_zoom(zoom)

    def set_zoom(self, zoom: float) -> None:
        self.zoom = zoom
        self.setFixedSize(round(self.size_pt[0] * zoom), round(self.size_pt[1] * zoom))

    def needs_image(self) -> bool:
        """No image yet, or one drawn for another zoom."""
        return not self.failure and (self.image is None or self.image_zoom != self.zoom)

    def set_image(self, image: QImage, zoom: float) -> None:
        """The rendered page."""
        self.image, self.image_zoom = image, zoom
        self.update()

    def set_failure(self, reason: str) -> None:
        """The page cannot be drawn, for ``reason`` (shown on it)."""
        self.failure = reason
        self.image, self.image_zoom = None, 0.0
        self.update()

    def drop_image(self) -> None:
        self.image, self.image_zoom = None, 0.0

    def set_terms(self, terms: Sequence[Hit] | None) -> None:
        self.terms = None if terms is None else list(terms)
        self.update()

    def set_hits(self, hits: Sequence[tuple[Rect, bool]]) -> None:
        if hits or self.hits:
            self.hits = list(hits)
            self.update()

    def to_pixels(self, rect: Rect) -> QRectF:
        left, top, right, bottom = (v * self.zoom for v in rect)
        return QRectF(left, top, right - left, bottom - top).adjusted(-1, -1, 1, 1)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt override
        painter = QPainter(self)
        painter.fillRect(self.rect(), PAPER)
        if self.image is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(QRectF(self.rect()), self.image)  # stretched while re-rendering
        else:
            painter.setPen(PLACEHOLDER)
            painter.drawText(self.rect().adjusted(8, 8, -8, -8),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             f"Page {self.number + 1} could not be drawn: {self.failure}"
                             if self.failure else f"Page {self.number + 1}…")
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
        for hit in self.terms or ():
            for rect in hit.rects:
                painter.fillRect(self.to_pixels(rect), MARK[hit.kind])
        for rect, _current in self.hits:
            painter.fillRect(self.to_pixels(rect), MARK["hit"])
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        painter.setPen(QPen(MARK["current"], 2))
        for rect, current in self.hits:
            if current:
                painter.drawRect(self.to_pixels(rect).adjusted(-1, -1, 1, 1))
        painter.end()
