"""The PDF reader: the pages one under another, drawn on the PDF thread
(:mod:`~.worker`) only as they scroll into view, kept for the pages nearest the one
read (:data:`CACHE_PAGES`, :data:`CACHE_BYTES`); a page box and PgUp/PgDn, zoom (steps
and fit width), search with its hits marked and stepped through, and the
include/exclude terms marked where the text layer has them. A file that cannot be read
(damaged, encrypted, no page usable, too costly) shows one line instead of pages; the
bounds of :mod:`~litqeval_gui.core.records.pdf_child` are said in a line above the
pages: the first pages only of a longer file, a page that cannot be drawn (with why, on
the page too), a page drawn with fewer pixels than its zoom asks.

A host binds :meth:`PdfReader.keys` to its own shortcuts (the screener does); a reader
on its own makes them with ``own_keys``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.records.pdf_child import MAX_PAGES, RENDER_PIXELS
from litqeval_gui.gui.pdf.document import MAX_HITS, Hit
from litqeval_gui.gui.pdf.page import PageWidget
from litqeval_gui.gui.pdf.worker import new_client, pdf_worker

CACHE_PAGES = 24
CACHE_BYTES = 256 * 2**20  # a page at 400 % on a 2× screen is about 120 MB
ZOOM_STEP = 1.25
ZOOM_RANGE = (0.25, 4.0)
GAP = 8  # pixels between pages
STEP = 0.9  # PgDn scrolls this share of the view (stopping at the next page's top)
DEFAULT_PAGE = (612.0, 792.0)  # points: the place of a page whose size cannot be used
TALLEST = 16_000_000  # pixels: the column of pages stays within Qt's widget size


def _close_client(client: int) -> None:
    """Close a deleted reader's file (nothing to do once the worker itself is gone)."""
    try:
        pdf_worker().request_close.emit(client)
    except RuntimeError:  # the app is shutting down
        pass


class PdfReader(QWidget):
    """Shows one PDF at a time (:meth:`open`) or a line instead (:meth:`show_message`)."""

    opened = Signal(int)  # the page count, once the file is open
    failed = Signal(str)  # the one line saying why it cannot be shown
    searched = Signal(int)  # the number of hits of the last search

    def __init__(self, parent: QWidget | None = None, *, own_keys: bool = False) -> None:
        super().__init__(parent)
        self.worker = pdf_worker()
        self.client, self.generation = new_client(), 0
        self.path: Path | None = None
        self.pages: list[PageWidget] = []
        self.count = 0  # the file's pages (more than shown past MAX_PAGES)
        self.reduced: set[int] = set()  # pages drawn with fewer pixels than asked
        self.zoom, self.fit = 1.0, True
        self.include: Sequence[str] = ()
        self.exclude: Sequence[str] = ()
        self.hits: list[Hit] = []
        self.hit_at = -1
        self.query = ""
        self._in_flight: set[tuple[int, float]] = set()
        for signal, slot in ((self.worker.opened, self._opened),
                             (self.worker.rendered, self._rendered),
                             (self.worker.terms, self._terms_found),
                             (self.worker.found, self._found)):
            signal.connect(slot)
        self.destroyed.connect(lambda _obj=None, c=self.client: _close_client(c))
        self._visible_timer = QTimer(self, singleShot=True, interval=0)
        self._visible_timer.timeout.connect(self._request_visible)
        self._build()
        if own_keys:
            for key, slot in self.keys():
                shortcut = QShortcut(QKeySequence(key), self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.activated.connect(slot)
        self.show_message("No PDF.")

    # -- building -----------------------------------------------------------------------
    def _tool(self, text: str, tip: str, slot: Callable[[], object]) -> QToolButton:
        button = QToolButton(text=text, toolTip=tip, autoRaise=True)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    def _build(self) -> None:
        self.page_box = QSpinBox(minimum=1, maximum=1, toolTip="Go to page")
        self.page_box.setKeyboardTracking(False)
        self.page_box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.page_box.valueChanged.connect(lambda n: self.go_to_page(n - 1))
        self.page_count = QLabel("of 0")
        self.zoom_label = QLabel()
        self.search_edit = QLineEdit(placeholderText="Search (Ctrl+F)")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.search_edit.installEventFilter(self)
        self.hit_label = QLabel()
        self.notice = QLabel(wordWrap=True, visible=False)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self._tool("▲", "Previous page (PgUp)", self.prev_page),
                       self._tool("▼", "Next page (PgDn)", self.next_page),
                       self.page_box, self.page_count,
                       self._tool("−", "Zoom out (Ctrl+−)", self.zoom_out),
                       self.zoom_label,
                       self._tool("+", "Zoom in (Ctrl+=)", self.zoom_in),
                       self._tool("↔", "Fit width (Ctrl+0)", self.fit_width)):
            bar.addWidget(widget)
        bar.addStretch(1)
        for widget in (self.search_edit, self.hit_label,
                       self._tool("◀", "Previous match (Shift+F3)", self.prev_hit),
                       self._tool("▶", "Next match (F3, Enter)", self.next_hit)):
            bar.addWidget(widget)
        self.toolbar = QWidget()
        self.toolbar.setLayout(bar)
        self.container = QWidget()
        self.column = QVBoxLayout(self.container)
        self.column.setSpacing(GAP)
        self.column.setContentsMargins(GAP, GAP, GAP, GAP)
        self.column.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scroll = QScrollArea(widgetResizable=True)
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)  # fits
        self.scroll.setWidget(self.container)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.scroll.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.message = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.scroll)
        self.stack.addWidget(self.message)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.notice)
        layout.addWidget(self.stack, 1)

    def keys(self) -> list[tuple[str, Callable[[], object]]]:
        """The reader's keys and what each does, for a host's shortcuts."""
        return [("PgUp", self.prev_screen), ("PgDown", self.next_screen),
                ("Ctrl+F", self.focus_search), ("Ctrl+=", self.zoom_in),
                ("Ctrl+-", self.zoom_out), ("Ctrl+0", self.fit_width),
                ("F3", self.next_hit), ("Shift+F3", self.prev_hit)]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt override
        """In the search field: Enter finds (or goes to the next match), Shift+Enter the
        previous one, Escape hands the keys back to the pages."""
        if watched is self.search_edit and event.type() == QEvent.Type.KeyPress:
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    self.prev_hit()
                else:
                    self.find(self.search_edit.text())
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.scroll.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
        return super().eventFilter(watched, event)

    # -- the file -------------------------------------------------------------------------
    def open(self, path: str | Path) -> None:
        """Show ``path`` (opened on the PDF thread; :attr:`opened` or :attr:`failed` follows)."""
        self._reset()
        self.path = Path(path)
        self.message.setText(f"Opening {self.path.name}…")
        self.worker.request_open.emit(self.client, self.generation, str(self.path))

    def show_message(self, text: str) -> None:
        """No PDF: ``text`` instead of pages (the open file, if any, is closed)."""
        self._reset()
        self.path = None
        self.message.setText(text)
        self.worker.request_close.emit(self.client)

    def _reset(self) -> None:
        self.generation += 1
        self._in_flight.clear()
        self.hits, self.hit_at, self.query = [], -1, ""
        self.hit_label.clear()
        for page in self.pages:
            page.deleteLater()
        self.pages, self.count = [], 0
        self.reduced.clear()
        self._say()
        self.page_box.setMaximum(1)
        self.page_count.setText("of 0")
        self.toolbar.setEnabled(False)
        self.stack.setCurrentWidget(self.message)

    def _opened(self, client: int, generation: int, found: object) -> None:
        if (client, generation) != (self.client, self.generation):
            return
        if isinstance(found, str):
            self.message.setText(found)
            self.failed.emit(found)
            return
        self.count, sizes, failed = found
        self.pages = [PageWidget(i, size or DEFAULT_PAGE, self.zoom)
                      for i, size in enumerate(sizes)]
        for page in self.pages:
            if page.number in failed:
                page.set_failure(failed[page.number])
            self.column.addWidget(page)
        self._say()
        self.page_box.setMaximum(len(self.pages))
        self.page_count.setText(f"of {len(self.pages):,}")
        self.toolbar.setEnabled(True)
        self.stack.setCurrentWidget(self.scroll)
        self.scroll.verticalScrollBar().setValue(0)
        self._apply_zoom(self._fit_zoom() if self.fit else self.zoom)
        self.opened.emit(len(self.pages))

    @property
    def page_total(self) -> int:
        return len(self.pages)

    @property
    def failed_pages(self) -> list[tuple[int, str]]:
        """The pages (0-based) that could not be drawn, with why."""
        return [(page.number, page.failure) for page in self.pages if page.failure]

    def _say(self) -> None:
        """The bounds met, in :attr:`notice` (hidden when none was)."""
        parts = []
        if self.count > len(self.pages):
            parts.append(f"Showing the first {len(self.pages):,} of its {self.count:,} pages "
                         f"(the reader shows at most {MAX_PAGES:,}).")
        failed = self.failed_pages
        if failed:
            parts.append(f"{len(failed):,} page(s) could not be drawn (page {failed[0][0] + 1}"
                         f": {failed[0][1]}).")
        if self.reduced:
            parts.append(f"Page {min(self.reduced) + 1} is drawn with fewer pixels than this "
                         f"zoom asks (at most {RENDER_PIXELS / 1e6:g} megapixels a page).")
        self.notice.setText(" ".join(parts))
        self.notice.setVisible(bool(parts))

    # -- drawing pages as they come into view --------------------------------------------
    def _scale(self) -> float:
        return round(self.zoom * self.devicePixelRatioF(), 4)

    def _visible_pages(self) -> list[PageWidget]:
        """The pages in view and those within one view's height of it."""
        bar = self.scroll.verticalScrollBar()
        height = self.scroll.viewport().height()
        band = QRect(0, bar.value() - height, self.container.width(), 3 * height)
        return [p for p in self.pages if p.geometry().intersects(band)]

    def _request_visible(self) -> None:
        scale = self._scale()
        self.worker.wanted_scale[self.client] = scale
        for page in self._visible_pages():
            if page.needs_image() and (page.number, scale) not in self._in_flight:
                self._in_flight.add((page.number, scale))
                self.worker.request_render.emit(self.client, self.generation, page.number,
                                                scale)
            if page.terms is None:
                page.set_terms([])  # asked; the answer replaces it
                self.worker.request_terms.emit(self.client, self.generation, page.number,
                                               list(self.include), list(self.exclude))

    def _rendered(self, client: int, generation: int, number: int, scale: float,
                  image: QImage, note: object) -> None:
        """A page drawn (``note``: whether with fewer pixels than asked), or the line
        saying why it could not be."""
        if (client, generation) != (self.client, self.generation):
            return
        self._in_flight.discard((number, scale))
        if isinstance(note, str):
            self.pages[number].set_failure(note)
        elif scale == self._scale():
            image.setDevicePixelRatio(self.devicePixelRatioF())
            self.pages[number].set_image(image, self.zoom)
            (self.reduced.add if note else self.reduced.discard)(number)
            self._trim_cache()
        self._say()

    def _trim_cache(self) -> None:
        """Keep the images of the pages nearest the current one: at most
        :data:`CACHE_PAGES` of them and :data:`CACHE_BYTES` together (the pages in view
        always)."""
        here = self.current_page()
        near = {p.number for p in self._visible_pages()}
        drawn = sorted((p for p in self.pages if p.image is not None),
                       key=lambda p: abs(p.number - here))
        kept = 0
        for count, page in enumerate(drawn):
            kept += page.image.sizeInBytes()
            if page.number not in near and (count >= CACHE_PAGES or kept > CACHE_BYTES):
                page.drop_image()

    def _scrolled(self) -> None:
        if self.pages:
            self.page_box.blockSignals(True)
            self.page_box.setValue(self.current_page() + 1)
            self.page_box.blockSignals(False)
        self._visible_timer.start()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt override
        super().resizeEvent(event)
        if self.fit and self.pages:
            self._apply_zoom(self._fit_zoom())
        self._visible_timer.start()

    # -- pages ------------------------------------------------------------------------------
    def current_page(self) -> int:
        """The page at the top of the view (0-based)."""
        top = self.scroll.verticalScrollBar().value() + self.scroll.viewport().height() // 10
        for page in self.pages:
            if page.geometry().bottom() + GAP >= top:
                return page.number
        return max(len(self.pages) - 1, 0)

    def _settle(self) -> None:
        """Lay the pages out and size the scrolled column now, not at the next turn of
        the event loop, so a scroll right after an open or a zoom lands where asked
        (not clamped to the old range, nor at the old places)."""
        self.column.activate()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _page_top(self, number: int) -> int:
        return max(self.pages[number].geometry().top() - GAP, 0)

    def go_to_page(self, number: int) -> None:
        """Scroll page ``number`` (0-based, clamped) to the top."""
        if self.pages:
            number = min(max(number, 0), len(self.pages) - 1)
            self.scroll.verticalScrollBar().setValue(self._page_top(number))
            self._scrolled()

    def next_page(self) -> None:
        self.go_to_page(self.current_page() + 1)

    def prev_page(self) -> None:
        self.go_to_page(self.current_page() - 1)

    def next_screen(self) -> None:
        """Down one view, stopping at the top of the next page (PgDn, Space)."""
        bar = self.scroll.verticalScrollBar()
        target = bar.value() + round(self.scroll.viewport().height() * STEP)
        tops = [self._page_top(p.number) for p in self.pages]
        target = min([t for t in tops if bar.value() < t < target] + [target])
        bar.setValue(target)

    def prev_screen(self) -> None:
        """Up one view, stopping at the top of the page above (PgUp)."""
        bar = self.scroll.verticalScrollBar()
        target = bar.value() - round(self.scroll.viewport().height() * STEP)
        tops = [self._page_top(p.number) for p in self.pages]
        target = max([t for t in tops if target < t < bar.value()] + [target])
        bar.setValue(target)

    # -- zoom -------------------------------------------------------------------------------
    def _fit_zoom(self) -> float:
        widest = max((p.size_pt[0] for p in self.pages), default=595.0)
        room = self.scroll.viewport().width() - 2 * GAP
        return min(max(room / widest, ZOOM_RANGE[0]), ZOOM_RANGE[1])

    def _apply_zoom(self, zoom: float) -> None:
        """Resize the pages for ``zoom``, keeping the place read at the top of the view."""
        here, within = self.current_page(), 0.0
        bar = self.scroll.verticalScrollBar()
        if self.pages:
            within = (bar.value() - self._page_top(here)) / max(self.pages[here].height(), 1)
        column = sum(p.size_pt[1] for p in self.pages) or 1.0
        self.zoom = round(min(max(zoom, ZOOM_RANGE[0]), ZOOM_RANGE[1], TALLEST / column), 4)
        for page in self.pages:
            page.set_zoom(self.zoom)
        self._settle()
        self.zoom_label.setText(f"{self.zoom:.0%}")
        if self.pages:
            bar.setValue(self._page_top(here) + round(within * self.pages[here].height()))
            self._scrolled()
        self._visible_timer.start()

    def zoom_in(self) -> None:
        self.fit = False
        self._apply_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.fit = False
        self._apply_zoom(self.zoom / ZOOM_STEP)

    def fit_width(self) -> None:
        """Fit the widest page to the view's width (and keep it fitted as it resizes)."""
        self.fit = True
        self._apply_zoom(self._fit_zoom())

    # -- terms and search -------------------------------------------------------------------
    def set_terms(self, include: Sequence[str], exclude: Sequence[str]) -> None:
        """Mark these include and exclude terms (asked again for the pages in view)."""
        if (list(include), list(exclude)) == (list(self.include), list(self.exclude)):
            return
        self.include, self.exclude = list(include), list(exclude)
        for page in self.pages:
            page.set_terms(None)
        self._visible_timer.start()

    def _terms_found(self, client: int, generation: int, number: int, terms: object,
                     hits: object) -> None:
        """A page's marks, unless they were found for other terms (changed meanwhile)."""
        if (client, generation) == (self.client, self.generation) and \
                terms == (list(self.include), list(self.exclude)):
            self.pages[number].set_terms(hits)

    def focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    def find(self, text: str) -> None:
        """Search for ``text`` (:attr:`searched` follows); the same text again goes to the
        next match."""
        text = text.strip()
        if text and text == self.query and self.hits:
            self.next_hit()
            return
        self.query, self.hits, self.hit_at = text, [], -1
        self._mark_hits()
        if text and self.pages:
            self.hit_label.setText("Searching…")
            self.worker.request_search.emit(self.client, self.generation, text)

    def _found(self, client: int, generation: int, query: str, hits: object) -> None:
        if (client, generation) != (self.client, self.generation) or query != self.query:
            return
        self.hits = list(hits)
        self.hit_at = 0 if self.hits else -1
        self._show_hit()
        self.searched.emit(len(self.hits))

    def next_hit(self) -> None:
        if self.hits:
            self.hit_at = (self.hit_at + 1) % len(self.hits)
            self._show_hit()

    def prev_hit(self) -> None:
        if self.hits:
            self.hit_at = (self.hit_at - 1) % len(self.hits)
            self._show_hit()

    def _show_hit(self) -> None:
        """Say which match is current, mark them all and scroll the current one into view."""
        capped = "+" if len(self.hits) >= MAX_HITS else ""
        self.hit_label.setText(f"{self.hit_at + 1:,} of {len(self.hits):,}{capped}"
                               if self.hits else "No match")
        self._mark_hits()
        if self.hits:
            hit = self.hits[self.hit_at]
            page = self.pages[hit.page]
            spot = page.to_pixels(hit.rects[0]).center().toPoint() + page.pos()
            self.scroll.ensureVisible(spot.x(), spot.y(), 40,
                                      self.scroll.viewport().height() // 3)

    def _mark_hits(self) -> None:
        by_page: dict[int, list] = {}
        for i, hit in enumerate(self.hits):
            by_page.setdefault(hit.page, []).extend((r, i == self.hit_at) for r in hit.rects)
        for page in self.pages:
            page.set_hits(by_page.get(page.number, []))
