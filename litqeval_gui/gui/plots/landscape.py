"""The evaluation landscape (SPEC §1.5): every retrieved record on the topic's 2D map.

Retrieved records are grey, the ones the chosen method finds semantically relevant
are coloured (per list when two are overlaid), core records are marked on top — a
star when a shown list retrieved them, a cross where a missed one lies. Overlays (the
cosine set, the MVEE ellipse, the hull polygon, the best cluster) toggle. Hovering
shows a record's title, a click emits its id, a box drag (Shift+drag, or any drag in
selection mode) emits the ids inside. The legend sits in the corner where it hides the
fewest drawn points, chosen again after each draw, pan, zoom or resize.
:class:`LandscapeWidget` adds the controls,
side-by-side or overlaid lists, and the projection-fidelity badge.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from litqeval_gui.gui.plots import style
from litqeval_gui.gui.plots.fidelity import FidelityBadge
from litqeval_gui.gui.plots.landscape_data import (
    METHODS,
    RELEVANT_A,
    RELEVANT_B,
    RELEVANT_BOTH,
    RETRIEVED,
    LandscapeData,
    core_found,
    point_classes,
)
from litqeval_gui.gui.plots.pointcloud import PointCloudItem

OVERLAYS = {"cos": "cosine set", "mvee": "MVEE ellipse", "hull": "hull polygon",
            "cluster": "best cluster"}
HIT_PIXELS = 6  # a hover or click finds the nearest record within this many pixels
CLASS_COLOURS = [style.GREY, style.BLUE, style.ORANGE, style.PURPLE]  # RETRIEVED … BOTH
CORE_COLOUR = style.VERMILLION
LEGEND_DELAY_MS = 150  # the legend finds its corner once a pan, zoom or resize settles


class SelectingViewBox(pg.ViewBox):
    """A ViewBox whose Shift+drag (or any left drag in selection mode) draws a box and
    emits it in data coordinates instead of panning."""

    box_selected = Signal(QRectF)

    def __init__(self) -> None:
        super().__init__()
        self.selecting = False

    def mouseDragEvent(self, ev, axis=None) -> None:
        shift = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if ev.button() != Qt.MouseButton.LeftButton or not (self.selecting or shift):
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        if ev.isFinish():
            self.rbScaleBox.hide()
            corner = self.mapToView(ev.buttonDownPos())
            self.box_selected.emit(QRectF(corner, self.mapToView(ev.pos())).normalized())
        else:
            self.updateScaleBox(ev.buttonDownPos(), ev.pos())


def _span(values: np.ndarray) -> tuple[float, float]:
    return (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)


def _sample(colour, symbol: str = "o", size: int = 9) -> pg.ScatterPlotItem:
    return pg.ScatterPlotItem(symbol=symbol, size=size, pen=None, brush=pg.mkBrush(colour))


class LandscapeView(style.ThemedPlot):
    """One map showing one result list, or two overlaid (``draw``).

    Signals: ``record_clicked(int id)``, ``records_selected(list ids)``,
    ``record_hovered(int id, str title)`` (id −1 and "" when leaving a record).
    """

    record_clicked = Signal(int)
    records_selected = Signal(list)
    record_hovered = Signal(int, str)
    data: LandscapeData | None = None  # class defaults: the palette may change mid-__init__
    _restyling = False

    def __init__(self, parent=None) -> None:
        view_box = SelectingViewBox()
        super().__init__(parent, x_label="map x", y_label="map y", view_box=view_box)
        self.view_box = view_box
        self.getPlotItem().showGrid(x=False, y=False)
        self.data: LandscapeData | None = None
        self.names: list[str] = []
        self.method = "cos"
        self.points = PointCloudItem(radius=2)
        self.cos_rings = PointCloudItem(radius=3, ring=2)
        self.cluster_rings = PointCloudItem(radius=6, ring=2)
        self.core = pg.ScatterPlotItem(size=12, pxMode=True)
        self.outlines: dict[str, list[pg.PlotCurveItem]] = {"mvee": [], "hull": []}
        self.overlays = dict.fromkeys(OVERLAYS, False)
        self._halos = []
        for item, z in ((self.points, 0), (self.cos_rings, 1), (self.cluster_rings, 1),
                        (self.core, 3)):
            item.setZValue(z)
            self.addItem(item)
        self._rows = np.empty(0, np.intp)  # rows of data drawn (retrieved by a shown list, or core)
        self._xy = np.empty((0, 2))
        self._hovered = -1
        self.view_box.box_selected.connect(self.select_box)
        self.scene().sigMouseMoved.connect(self._mouse_moved)
        self.scene().sigMouseClicked.connect(self._mouse_clicked)
        self._legend_timer = QTimer(self, singleShot=True, interval=LEGEND_DELAY_MS)
        self._legend_timer.timeout.connect(self.place_legend)
        self.view_box.sigRangeChanged.connect(lambda *_: self._legend_timer.start())
        self.view_box.sigResized.connect(lambda *_: self._legend_timer.start())

    # -- what is shown -------------------------------------------------------------

    def draw(self, data: LandscapeData, names: Sequence[str], method: str = "cos", *,
             fit: bool = True) -> None:
        """Draw ``names`` (one list, or two overlaid) of ``data``, coloured by ``method``;
        ``fit`` zooms to the whole map."""
        classes = point_classes(data, names, method)
        self.data, self.names, self.method = data, list(names), method
        self._rows = np.flatnonzero((classes > 0) | data.is_core)
        self._xy = data.xy[self._rows]  # for hit tests on every mouse move
        self.points.set_points(data.xy, classes, CLASS_COLOURS)
        found = core_found(data, names)
        core_rows = np.flatnonzero(data.is_core)
        fg = style.foreground(self)
        self.core.setData(
            pos=data.xy[core_rows], data=core_rows,
            symbol=["star" if found[r] else "x" for r in core_rows],
            brush=pg.mkBrush(CORE_COLOUR), pen=pg.mkPen(fg, width=1))
        self._draw_outlines()
        self._draw_rings()
        self._fill_legend()
        if fit:
            self.view_box.setRange(xRange=_span(data.xy[:, 0]), yRange=_span(data.xy[:, 1]),
                                   padding=0.05)
        self.place_legend()

    def apply_palette(self) -> None:
        """Also redraw what takes the palette's colours: core outlines, the halos under
        the shapes, the legend."""
        super().apply_palette()
        if self.data is not None and not self._restyling:
            self._restyling = True
            try:
                self.core.setPen(pg.mkPen(style.foreground(self), width=1))
                self._draw_outlines()
                self._fill_legend()
            finally:
                self._restyling = False

    def set_method(self, method: str) -> None:
        if self.data is not None:
            self.draw(self.data, self.names, method, fit=False)

    def set_overlay(self, key: str, visible: bool) -> None:
        """Show or hide an overlay of :data:`OVERLAYS`."""
        if key not in OVERLAYS:
            raise KeyError(f"no overlay {key!r}; use {list(OVERLAYS)}")
        self.overlays[key] = visible
        if self.data is not None:
            self._draw_outlines()
            self._draw_rings()
            self._fill_legend()
            self.place_legend()

    def set_selection_mode(self, on: bool) -> None:
        """In selection mode a left drag selects a box instead of panning."""
        self.view_box.selecting = on

    def _colour(self, i: int):
        return CLASS_COLOURS[(RELEVANT_A if i == 0 else RELEVANT_B) - 1]

    def _draw_outlines(self) -> None:
        for curve in self.outlines["mvee"] + self.outlines["hull"] + self._halos:
            self.removeItem(curve)
        self.outlines = {"mvee": [], "hull": []}
        self._halos: list[pg.PlotCurveItem] = []  # a background-coloured line under each
        background = QColor(self.palette().color(QPalette.ColorRole.Base))
        background.setAlpha(200)
        for i, name in enumerate(self.names):
            layer = self.data.layer(name)
            for key, ring in (("mvee", layer.ellipse_outline()), ("hull", layer.hull_outline())):
                if ring is None or not self.overlays[key]:
                    continue
                halo = pg.PlotCurveItem(ring[:, 0], ring[:, 1], pen=style.pen(background, 6))
                curve = pg.PlotCurveItem(ring[:, 0], ring[:, 1],
                                         pen=style.pen(self._colour(i), 2.5, dashed=key == "mvee"))
                for z, item in ((2, halo), (2.1, curve)):
                    item.setZValue(z)
                    self.addItem(item)
                self.outlines[key].append(curve)
                self._halos.append(halo)

    def _draw_rings(self) -> None:
        n = len(self.data)
        for key, item, colour in (("cos", self.cos_rings, style.SKY),
                                  ("cluster", self.cluster_rings, style.GREEN)):
            marked = np.zeros(n, np.uint8)
            if self.overlays[key]:
                for name in self.names:
                    marked[self.data.layer(name).relevant_rows(key, n)] = 1
            item.set_points(self.data.xy, marked, [colour])

    def _fill_legend(self) -> None:
        self.legend.clear()
        fg = style.foreground(self)
        method = METHODS[self.method]
        self.add_legend_entry(_sample(style.GREY), "retrieved")
        if len(self.names) == 1:
            self.add_legend_entry(_sample(style.BLUE), f"relevant ({method})")
        else:
            a, b = self.names
            self.add_legend_entry(_sample(style.BLUE), f"relevant ({method}): {a} only")
            self.add_legend_entry(_sample(style.ORANGE), f"relevant ({method}): {b} only")
            self.add_legend_entry(_sample(style.PURPLE), f"relevant ({method}): both")
        core = pg.ScatterPlotItem(symbol="star", size=12, brush=pg.mkBrush(CORE_COLOUR),
                                  pen=pg.mkPen(fg, width=1))
        self.add_legend_entry(core, "core, retrieved")
        missed = pg.ScatterPlotItem(symbol="x", size=12, brush=pg.mkBrush(CORE_COLOUR),
                                    pen=pg.mkPen(fg, width=1))
        self.add_legend_entry(missed, "core, missed")
        for key, colour in (("cos", style.SKY), ("cluster", style.GREEN)):
            if self.overlays[key]:
                ring = pg.ScatterPlotItem(symbol="o", size=10, brush=None, pen=pg.mkPen(colour, width=2))
                self.add_legend_entry(ring, OVERLAYS[key])
        for key in ("mvee", "hull"):
            for i, curve in enumerate(self.outlines[key]):
                sample = pg.PlotDataItem(pen=curve.opts["pen"])
                suffix = f" ({self.names[i]})" if len(self.names) > 1 else ""
                self.add_legend_entry(sample, OVERLAYS[key] + suffix)

    def legend_rect(self, corner: str) -> QRectF:
        """The legend's rectangle, in map coordinates, when in ``corner`` of
        :data:`style.LEGEND_CORNERS`."""
        dx, dy = style.LEGEND_CORNERS[corner]
        ax, ay = float(dx <= 0), float(dy <= 0)  # as pyqtgraph anchors an offset legend
        box, size = self.view_box.boundingRect(), self.legend.boundingRect()
        left = ax * (box.width() - size.width()) + dx
        top = ay * (box.height() - size.height()) + dy
        a = self.view_box.mapToView(QPointF(left, top))
        b = self.view_box.mapToView(QPointF(left + size.width(), top + size.height()))
        return QRectF(a, b).normalized()

    def place_legend(self) -> str:
        """Move the legend to the corner where it covers the fewest drawn points (the
        first of :data:`style.LEGEND_CORNERS` on a tie); returns that corner."""
        corner = min(style.LEGEND_CORNERS,
                     key=lambda corner: len(self.rows_in(self.legend_rect(corner))))
        dx, dy = style.LEGEND_CORNERS[corner]
        anchor = (float(dx <= 0), float(dy <= 0))
        self.legend.anchor(itemPos=anchor, parentPos=anchor, offset=(dx, dy))
        return corner

    # -- what the user points at -----------------------------------------------------

    def counts(self) -> dict[int, int]:
        """Points drawn per class (RETRIEVED, RELEVANT_A, …)."""
        per_class = self.points.label_counts()
        return {c: int(per_class[c]) for c in (RETRIEVED, RELEVANT_A, RELEVANT_B, RELEVANT_BOTH)
                if c < per_class.size}

    def row_at(self, pos: QPointF) -> int | None:
        """The drawn row nearest ``pos`` (data coordinates) within :data:`HIT_PIXELS`."""
        if self.data is None or not self._rows.size:
            return None
        sx, sy = self.view_box.viewPixelSize()
        xy = self._xy
        d2 = ((xy[:, 0] - pos.x()) / sx) ** 2 + ((xy[:, 1] - pos.y()) / sy) ** 2
        nearest = int(np.argmin(d2))
        return int(self._rows[nearest]) if d2[nearest] <= HIT_PIXELS**2 else None

    def describe(self, row: int) -> str:
        """The hover text of a row: its title, and for a core record who found it."""
        title = self.data.titles[row] or "(no title)"
        if not self.data.is_core[row]:
            return title
        found = [n for n in self.names if self.data.layer(n).retrieved[row]]
        return f"{title}\ncore record — " + (f"retrieved by {', '.join(found)}" if found
                                             else "missed")

    def rows_in(self, rect: QRectF) -> np.ndarray:
        """Drawn rows inside ``rect`` (data coordinates)."""
        if self.data is None:
            return np.empty(0, np.intp)
        xy = self._xy
        inside = ((xy[:, 0] >= rect.left()) & (xy[:, 0] <= rect.right())
                  & (xy[:, 1] >= rect.top()) & (xy[:, 1] <= rect.bottom()))
        return self._rows[inside]

    def select_box(self, rect: QRectF) -> list[int]:
        """Emit and return the ids of the drawn records inside ``rect``."""
        ids = [int(i) for i in self.data.ids[self.rows_in(rect)]] if self.data else []
        self.records_selected.emit(ids)
        return ids

    def _mouse_moved(self, scene_pos) -> None:
        if not self.view_box.sceneBoundingRect().contains(scene_pos):
            return
        row = self.row_at(self.view_box.mapSceneToView(scene_pos))
        row = -1 if row is None else row
        if row == self._hovered:
            return
        self._hovered = row
        if row < 0:
            self.setToolTip("")
            self.record_hovered.emit(-1, "")
        else:
            text = self.describe(row)
            self.setToolTip(text)
            self.record_hovered.emit(int(self.data.ids[row]), text.split("\n")[0])

    def _mouse_clicked(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton or ev.double():
            return
        row = self.row_at(self.view_box.mapSceneToView(ev.scenePos()))
        if row is not None:
            self.record_clicked.emit(int(self.data.ids[row]))


class LandscapeWidget(QWidget):
    """The landscape with its controls: the first list, a second one (or none), side by
    side or overlaid, the colouring method, overlay toggles, box-selection mode, and the
    projection-fidelity badge. Re-emits its views' ``record_clicked``,
    ``records_selected`` and ``record_hovered``."""

    record_clicked = Signal(int)
    records_selected = Signal(list)
    record_hovered = Signal(int, str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.data: LandscapeData | None = None
        self.first, self.second = QComboBox(), QComboBox()
        self.arrangement = QComboBox()
        self.arrangement.addItems(["overlaid", "side by side"])
        self.method = QComboBox()
        for key, name in METHODS.items():
            self.method.addItem(name, key)
        self.toggles = {key: QCheckBox(name) for key, name in OVERLAYS.items()}
        self.select = QCheckBox("box select")
        self.select.setToolTip("Drag a box to list the records inside (Shift+drag works too)")
        self.badge = FidelityBadge()
        self.views = [LandscapeView(), LandscapeView()]
        for source, target in ((0, 1), (1, 0)):  # the same map region in both
            self.views[source].view_box.sigRangeChanged.connect(
                lambda *args, target=target: self._follow(target, args[1]))
        controls = QHBoxLayout()
        for label, widget in (("List", self.first), ("compare with", self.second),
                              ("", self.arrangement), ("colour by", self.method)):
            if label:
                controls.addWidget(QLabel(label))
            controls.addWidget(widget)
        controls.addStretch(1)
        controls.addWidget(self.badge)
        toggles = QHBoxLayout()
        toggles.addWidget(QLabel("Show"))
        for box in self.toggles.values():
            toggles.addWidget(box)
        toggles.addStretch(1)
        toggles.addWidget(self.select)
        plots = QHBoxLayout()
        for view in self.views:
            plots.addWidget(view)
            view.record_clicked.connect(self.record_clicked)
            view.records_selected.connect(self.records_selected)
            view.record_hovered.connect(self.record_hovered)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addLayout(toggles)
        layout.addLayout(plots, 1)
        for combo in (self.first, self.second, self.arrangement, self.method):
            combo.currentIndexChanged.connect(self._redraw)
        for key, box in self.toggles.items():
            box.toggled.connect(lambda on, key=key: self._toggle(key, on))
        self.select.toggled.connect(self._select_mode)
        self.views[1].hide()

    def set_data(self, data: LandscapeData) -> None:
        """Show ``data``: its first list, no comparison, the fidelity in the badge."""
        self.data = data
        for combo, extra in ((self.first, []), (self.second, ["(none)"])):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(extra + data.names)
            combo.blockSignals(False)
        self.badge.set_fidelity(data.fidelity)
        self._redraw()

    def set_method(self, method: str) -> None:
        self.method.setCurrentIndex(list(METHODS).index(method))

    def set_overlay(self, key: str, visible: bool) -> None:
        self.toggles[key].setChecked(visible)

    def compare(self, second: str | None, *, side_by_side: bool = False) -> None:
        """Show ``second`` beside or over the first list (None: the first list alone)."""
        self.arrangement.setCurrentIndex(1 if side_by_side else 0)
        self.second.setCurrentIndex(0 if second is None else self.second.findText(second))

    def save(self, path: Path, *, scale: float = 2.0) -> Path:
        """Save the (first) map as PNG or SVG."""
        return self.views[0].save(path, scale=scale)

    def _redraw(self) -> None:
        if self.data is None or not self.data.lists:
            return
        method = self.method.currentData()
        first = self.first.currentText()
        second = self.second.currentText() if self.second.currentIndex() > 0 else None
        if second == first:
            second = None
        side = self.arrangement.currentIndex() == 1 and second is not None
        if side:
            self.views[0].draw(self.data, [first], method)
            self.views[1].draw(self.data, [second], method, fit=False)
            x_range, y_range = self.views[0].view_box.viewRange()
            self.views[1].view_box.setRange(xRange=x_range, yRange=y_range, padding=0)
        else:
            self.views[0].draw(self.data, [first] if second is None else [first, second], method)
        self.views[1].setVisible(side)
        for view in self.views:
            view.setTitle(None)
        if side:
            self.views[0].setTitle(first, color=style.foreground(self).name())
            self.views[1].setTitle(second, color=style.foreground(self).name())

    def _follow(self, target: int, ranges) -> None:
        """Give view ``target`` the other's range (pyqtgraph's own axis links align
        views by screen position, which offsets two maps side by side)."""
        box = self.views[target].view_box
        if [list(r) for r in box.viewRange()] != [list(r) for r in ranges]:
            box.setRange(xRange=ranges[0], yRange=ranges[1], padding=0)

    def _toggle(self, key: str, on: bool) -> None:
        for view in self.views:
            view.set_overlay(key, on)

    def _select_mode(self, on: bool) -> None:
        for view in self.views:
            view.set_selection_mode(on)
