"""The PDF thread: one app-wide worker thread owns every open :class:`~.document.PdfFile`
and the PDF child they are read in, so opening, rendering, searching and finding terms
never stall the interface: the interface's thread reads no page at all.

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
from litqeval_gui.core.records.pdf_child import READER, PdfChild
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

    opened = Signal(int, int, object)  # the PdfFile's (count, sizes, failed), or the line (str)
    rendered = Signal(int, int, int, float, QImage, object)  # …, image, reduced or the line
    terms = Signal(int, int, int, object, object)  # page, (include, exclude), list[Hit]
    found = Signal(int, int, str, object)  # query, list[Hit]

    def __init__(self) -> None:
        super().__init__()
        self._files: dict[int, tuple[int, PdfFile]] = {}
        self.child = PdfChild(name=READER)  # ended while no file is open
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
        self._drop(client)
        try:
            pdf = PdfFile(path, self.child)
        except LitqError as exc:
            self.opened.emit(client, generation, str(exc))
            return
        self._files[client] = (generation, pdf)
        self.opened.emit(client, generation, (pdf.count, pdf.sizes, dict(pdf.failed)))

    @Slot(int, int, int, float)
    def _render(self, client: int, generation: int, page: int, scale: float) -> None:
        pdf = self._file(client, generation)
        if pdf is None or self.wanted_scale.get(client) != scale:
            return
        try:
            drawn = pdf.render(page, scale)
        except LitqError as exc:  # the reader says why the page could not be drawn
            self.rendered.emit(client, generation, page, scale, QImage(), str(exc))
            return
        image = QImage(drawn.pixels, drawn.width, drawn.height, drawn.stride,
                       QImage.Format.Format_RGBX8888).copy()
        self.rendered.emit(client, generation, page, scale, image, drawn.reduced)

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

    def _drop(self, client: int) -> None:
        held = self._files.pop(client, None)
        if held is not None:
            held[1].close()

    @Slot(int)
    def _close(self, client: int) -> None:
        """Close the client's file; with none open any more, end the PDF child."""
        self._drop(client)
        if not self._files:
            self.child.stop()


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
    """End the PDF child first (a call in progress is refused), then the thread."""
    if _worker is not None:
        _worker.child.kill()
    if _thread is not None:
        _thread.quit()
        _thread.wait()
