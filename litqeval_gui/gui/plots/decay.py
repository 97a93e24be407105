"""The decay λ(n) for the current (p, q, α) with each list's n marked, and the paper's
F_β component panels (SPEC §1.5, seed figure "F_β Components Analysis").

λ and F_β come from ``metrics.sets`` (pure formulas, no I/O); the panels take plain
arrays, and :func:`paper_panels` builds the paper's four from the formulas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from numpy.typing import NDArray
from PySide6.QtCore import QPointF, QRectF, QSizeF

from litqeval_gui.gui.plots import style
from litqeval_gui.metrics.sets import decay, semantic_f_beta

LABEL_GAP = 6.0  # pixels between a mark, its label and the next label


def place_labels(marks: Sequence[QPointF], sizes: Sequence[QSizeF], area: QRectF,
                 curve: Sequence[QPointF] = (), gap: float = LABEL_GAP) -> list[QRectF]:
    """Scene rectangles for the labels of ``marks`` on a falling ``curve`` (scene points),
    kept inside ``area``, none covering another, nor the curve where there is room.

    A falling curve leaves two sides of a mark free: a label goes to the lower left of
    its mark, else to its upper right, else just below the mark's height on the curve's
    right (a leader line joins them). Marks are taken from the left; a label that would
    cover one placed before it moves on past it (down; up on the upper right), so its
    leader line runs beside the earlier labels, not across them. When no side is free,
    the first is kept.
    """
    points = [(p.x(), p.y()) for p in curve]

    def on_curve(rect: QRectF) -> bool:
        return any(rect.left() <= x <= rect.right() and rect.top() <= y <= rect.bottom()
                   for x, y in points)

    def lower_left(mark: QPointF, rect: QRectF, top: float) -> None:
        rect.moveTopRight(QPointF(mark.x() - gap, top))

    def upper_right(mark: QPointF, rect: QRectF, bottom: float) -> None:
        rect.moveBottomLeft(QPointF(mark.x() + gap, bottom))

    def right_of_curve(mark: QPointF, rect: QRectF, top: float) -> None:
        bottom = top + rect.height()
        left = max([x for x, y in points if y <= bottom + gap] + [mark.x()])
        rect.moveTopLeft(QPointF(left + gap, top))

    def inside(rect: QRectF) -> None:
        rect.moveLeft(max(area.left(), min(rect.left(), area.right() - rect.width())))
        rect.moveTop(max(area.top(), min(rect.top(), area.bottom() - rect.height())))

    sides = ((lower_left, 1), (upper_right, -1), (right_of_curve, 1))
    placed: list[QRectF] = [QRectF()] * len(marks)
    done: list[QRectF] = []
    for i in sorted(range(len(marks)), key=lambda k: (marks[k].x(), marks[k].y())):
        mark, size = marks[i], sizes[i]
        options = []
        for put, direction in sides:
            rect = QRectF(QPointF(0, 0), size)
            edge = mark.y() + gap * direction
            for _ in range(len(done) + 1):
                put(mark, rect, edge)  # edge: the label's top, its bottom on the upper right
                inside(rect)
                hit = next((r for r in done if r.intersects(rect)), None)
                if hit is None:
                    break
                edge = hit.bottom() + gap if direction > 0 else hit.top() - gap
            options.append(rect)
            if hit is None and not on_curve(rect):
                break
        else:
            rect = options[0]
        placed[i] = rect
        done.append(rect)
    return placed


class DecayPlot(style.ThemedPlot):
    """λ(n) = (1 − (n/α)^p)^q, 0 for n ≥ α, over n ∈ [0, 1.1 α] (or 1 … 1.1 α on a log
    axis); each list's n marked and labelled beside the curve, a leader line from the
    mark to its label."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, title="Decay", x_label="n (semantically relevant records)",
                         y_label="λ(n)")
        self.curve = self.plot(pen=style.pen(style.BLUE, 2.5))
        self.marks = pg.ScatterPlotItem(size=11, pen=pg.mkPen(style.foreground(self), width=1))
        self.marks.setZValue(2)
        self.addItem(self.marks)
        self.labels: list[pg.TextItem] = []
        self.leaders: list[pg.PlotCurveItem] = []
        self.log_n = False
        self._drawn: tuple | None = None
        self.getViewBox().sigRangeChanged.connect(self._place_labels)
        self.getViewBox().sigResized.connect(self._place_labels)

    def set_decay(self, p: float, q: float, alpha: float, lists: Mapping[str, int],
                  *, log_n: bool | None = None) -> None:
        """Draw λ for (p, q, α) and mark each list's n (``{name: n}``). ``log_n``: a
        logarithmic n axis; by default when every list's n is below α / 10, where the
        marks would crowd the left edge of a linear axis."""
        self._drawn = (p, q, alpha, dict(lists))
        if log_n is None:
            log_n = bool(lists) and max(lists.values()) < alpha / 10
        self.log_n = log_n
        self.getAxis("bottom").setLogMode(log_n)
        n = np.geomspace(1.0, 1.1 * alpha, 400) if log_n else np.linspace(0.0, 1.1 * alpha, 400)
        self.curve.setData(self._view_x(n), decay(n, p, q, alpha))
        self.legend.clear()  # in the corner the curve leaves free
        self.legend.setOffset(style.LEGEND_CORNERS["bottom left" if log_n else "top right"])
        self.add_legend_entry(pg.PlotDataItem(pen=self.curve.opts["pen"]),
                              f"λ(n), p = {p:g}, q = {q:g}, α = {alpha:,.0f}")
        for item in self.labels + self.leaders:
            self.removeItem(item)
        names = list(lists)
        n_values = np.array([lists[k] for k in names], dtype=float)
        ys = np.asarray(decay(n_values, p, q, alpha), dtype=float).reshape(-1)
        brushes = [pg.mkBrush(style.series_colour(i + 1)) for i in range(len(names))]
        self.marks.setData(x=self._view_x(n_values), y=ys, brush=brushes, data=names)
        self.labels, self.leaders = [], []
        for i, name in enumerate(names):
            colour = style.series_colour(i + 1)
            label = pg.TextItem(f"{name}\nn = {n_values[i]:,.0f}, λ = {ys[i]:.3f}",
                                color=colour, anchor=(0, 0))
            leader = pg.PlotCurveItem(pen=style.pen(colour, 1))
            for item in (label, leader):
                item.setZValue(1)
                self.addItem(item, ignoreBounds=True)
            self.labels.append(label)
            self.leaders.append(leader)
        self.setYRange(-0.02, 1.08, padding=0)
        if log_n:
            self.setXRange(0.0, float(np.log10(1.1 * alpha)), padding=0.01)
        else:
            self.setXRange(0, 1.1 * alpha, padding=0.01)
        self._place_labels()

    def set_log_n(self, log_n: bool) -> None:
        """Redraw the last decay on a logarithmic (or linear) n axis."""
        if self._drawn is not None:
            p, q, alpha, lists = self._drawn
            self.set_decay(p, q, alpha, lists, log_n=log_n)

    def _view_x(self, n: NDArray[np.float64]) -> NDArray[np.float64]:
        """n in view coordinates: log10 n on a log axis (n = 0 drawn at 1)."""
        return np.log10(np.maximum(n, 1.0)) if self.log_n else n

    def _place_labels(self, *_args) -> None:
        """Put the labels where :func:`place_labels` says for the current view."""
        if not self.labels:
            return
        view = self.getViewBox()
        xs, ys = self.marks.getData()
        marks = [view.mapViewToScene(QPointF(float(x), float(y))) for x, y in zip(xs, ys, strict=True)]
        sizes = [label.boundingRect().size() for label in self.labels]
        curve = [view.mapViewToScene(QPointF(float(x), float(y)))
                 for x, y in zip(*self.curve.getData(), strict=True)]
        rects = place_labels(marks, sizes, view.sceneBoundingRect(), curve)
        for label, leader, mark, rect in zip(self.labels, self.leaders, marks, rects, strict=True):
            label.setPos(view.mapSceneToView(rect.topLeft()))
            corner = QPointF(min(max(mark.x(), rect.left()), rect.right()),
                             rect.top() if rect.top() >= mark.y() else rect.bottom())
            ends = [view.mapSceneToView(point) for point in (mark, corner)]
            leader.setData([e.x() for e in ends], [e.y() for e in ends])


@dataclass(frozen=True)
class ComponentPanel:
    """One panel: a title, the x axis and named y arrays over it."""

    title: str
    x_label: str
    x: NDArray[np.float64]
    curves: Mapping[str, NDArray[np.float64]] = field(default_factory=dict)
    y_label: str = "F<sub>β</sub>"
    legend: str = "top right"  # a corner of style.LEGEND_CORNERS the curves leave free


def paper_panels(p: float, q: float, alpha: float, beta: float = 2.0) -> list[ComponentPanel]:
    """The paper's four panels: β's effect at recall 1; precision at λ = 1 for three
    recalls; the decay's damping over n for three precisions (recall 1) and for three
    recalls (precision 0.5)."""
    precision = np.linspace(0.0, 1.0, 101)
    n = np.linspace(0.0, alpha, 201)
    lam = decay(n, p, q, alpha)

    def f(sp, rec, b=beta):
        return np.array([semantic_f_beta(s, 1.0, r, b) for s, r in np.broadcast(sp, rec)])

    def f_decay(sp, rec):
        return np.array([semantic_f_beta(sp, lam_i, rec, beta) for lam_i in lam])

    fb = f"F<sub>{beta:g}</sub>"
    return [
        ComponentPanel("β's effect (recall 1)", "semantic precision", precision,
                       {f"β = {b:g}": f(precision, 1.0, b) for b in sorted({1.0, beta})},
                       "F<sub>β</sub>", "bottom right"),
        ComponentPanel("precision (λ = 1)", "semantic precision", precision,
                       {f"recall {r:g}": f(precision, r) for r in (0.5, 0.75, 1.0)}, fb,
                       "bottom right"),
        ComponentPanel("decay (recall 1)", "n (relevant records)", n,
                       {f"precision {s:g}": f_decay(s, 1.0) for s in (0.25, 0.5, 1.0)}, fb),
        ComponentPanel("decay (precision 0.5)", "n (relevant records)", n,
                       {f"recall {r:g}": f_decay(0.5, r) for r in (0.5, 0.75, 1.0)}, fb),
    ]


class FBetaComponents(style.ThemedLayout):
    """Panels of :class:`ComponentPanel` in a grid (two per row)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, title="F-beta components")
        self.panels: list[pg.PlotItem] = []

    def set_panels(self, panels: Sequence[ComponentPanel]) -> None:
        self.clear()
        self._specs.clear()
        self.panels = []
        for i, spec in enumerate(panels):
            item = self.add_plot(i // 2, i % 2, title=spec.title, x_label=spec.x_label,
                                 y_label=spec.y_label, legend=spec.legend)
            for j, (name, values) in enumerate(spec.curves.items()):
                item.plot(spec.x, values, pen=style.pen(style.series_colour(j), 2), name=name)
            item.setYRange(-0.02, 1.05, padding=0)
            self.panels.append(item)
        self.apply_palette()
