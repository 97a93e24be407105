"""The PDF thread: one app-wide worker thread owns every open :class:`~.document.PdfFile`,
so rendering, searching and finding terms never stall the interface.

A reader is a *client* (an int from :func:`new_client`); it asks with the worker's
``request_*`` signals and hears back through ``opened``, ``rendered``, ``terms`` and
``found``, each carrying the client and the *generation* (which file the client had
open when it asked), so a late answer about an older file is dropped by the reader.
Requests queue in order; a render whose zoom is no longer the client's current one is
skipped (``wanted_scale``), so zooming through several steps renders only the last.
"""

from __future__ import annotations

import atexit
import itertools
from collections.abc import Sequence

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtGui import QImage

from litqeval_gui.core.errors import LitqError
from litqeval_gui.gui.pdf.document import PdfFile

_clients = itertools.count(1)


def new_client() -> int:
    """A fresh client id for one reader."""
    return next(_clients)


class PdfWorker(QObject):
    """Lives on the PDF thread; signals out carry ``(client, generation, …)``."""

    request_open = Signal(int, int, str)
    request_render = Signal(int, int, int, float)
    request_terms = Signal(int, int, int, object, object)
    request_search = Signal(int, int, str)
    request_close = Signal(int)

    opened = Signal(int, int, object)  # list of page sizes, or the one-line error (str)
    rendered = Signal(int, int, int, float, QImage)
    terms = Signal(int, int, int, object, object)  # page, (include, exclude), list[Hit]
    found = Signal(int, int, str, object)  # query, list[Hit]

    def __init__(self) -> None:
        super().__init__()
        self._files: dict[int, tuple[int, PdfFile]] = {}
        self.wanted_scale: dict[int, float] = {}  # set by readers on the GUI thread
        self.request_open.connect(self._open)
        self.request_render.connect(self._render)
        self.request_terms.connect(self._terms)
        self.request_search.connect(self._search)
        self.request_close.connect(self._close)

    def _file(self, client: int, generation: int) -> PdfFile | None:
        held = self._files.get(client)
        return held[1] if held and held[0] == generation else None

    @Slot(int, int, str)
    def _open(self, client: int, generation: int, path: str) -> None:
        self._close(client)
        try:
            pdf = PdfFile(path)
        except LitqError as exc:
            self.opened.emit(client, generation, str(exc))
            return
        self._files[client] = (generation, pdf)
        self.opened.emit(client, generation, list(pdf.sizes))

    @Slot(int, int, int, float)
    def _render(self, client: int, generation: int, page: int, scale: float) -> None:
        pdf = self._file(client, generation)
        if pdf is None or self.wanted_scale.get(client) != scale:
            return
        try:
            width, height, stride, data = pdf.render(page, scale)
            image = QImage(data, width, height, stride, QImage.Format.Format_RGBX8888).copy()
        except LitqError:
            image = QImage()  # the reader says the page could not be drawn
        self.rendered.emit(client, generation, page, scale, image)

    @Slot(int, int, int, object, object)
    def _terms(self, client: int, generation: int, page: int, include: Sequence[str],
               exclude: Sequence[str]) -> None:
        pdf = self._file(client, generation)
        if pdf is not None:
            try:
                hits = pdf.term_hits(page, include, exclude)
            except LitqError:
                hits = []  # a page PDFium cannot read has no terms to show
            self.terms.emit(client, generation, page, (include, exclude), hits)

    @Slot(int, int, str)
    def _search(self, client: int, generation: int, query: str) -> None:
        pdf = self._file(client, generation)
        if pdf is not None:
            self.found.emit(client, generation, query, pdf.search(query))

    @Slot(int)
    def _close(self, client: int) -> None:
        held = self._files.pop(client, None)
        if held is not None:
            held[1].close()


_thread: QThread | None = None
_worker: PdfWorker | None = None


def pdf_worker() -> PdfWorker:
    """The app-wide worker, its thread started on first use and stopped at exit."""
    global _thread, _worker
    if _worker is None:
        _thread = QThread()
        _thread.setObjectName("pdf")
        _worker = PdfWorker()
        _worker.moveToThread(_thread)
        _thread.start()
        atexit.register(_stop)
    return _worker


def _stop() -> None:
    if _thread is not None:
        _thread.quit()
        _thread.wait()
