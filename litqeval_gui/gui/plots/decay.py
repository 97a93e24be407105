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

from litqeval_gui.gui.plots import style
from litqeval_gui.metrics.sets import decay, semantic_f_beta


class DecayPlot(style.ThemedPlot):
    """λ(n) = (1 − (n/α)^p)^q, 0 for n ≥ α, over n ∈ [0, 1.1 α]; each list's n marked."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, title="Decay", x_label="n (semantically relevant records)",
                         y_label="λ(n)")
        self.curve = self.plot(pen=style.pen(style.BLUE, 2.5))
        self.marks = pg.ScatterPlotItem(size=11, pen=pg.mkPen(style.foreground(self), width=1))
        self.marks.setZValue(2)
        self.addItem(self.marks)
        self.labels: list[pg.TextItem] = []

    def set_decay(self, p: float, q: float, alpha: float, lists: Mapping[str, int]) -> None:
        """Draw λ for (p, q, α) and mark each list's n (``{name: n}``)."""
        n = np.linspace(0.0, 1.1 * alpha, 400)
        self.curve.setData(n, decay(n, p, q, alpha))
        self.legend.clear()
        self.add_legend_entry(pg.PlotDataItem(pen=self.curve.opts["pen"]),
                              f"λ(n), p = {p:g}, q = {q:g}, α = {alpha:,.0f}")
        for label in self.labels:
            self.removeItem(label)
        names = list(lists)
        xs = np.array([lists[k] for k in names], dtype=float)
        ys = np.asarray(decay(xs, p, q, alpha), dtype=float).reshape(-1)
        brushes = [pg.mkBrush(style.series_colour(i + 1)) for i in range(len(names))]
        self.marks.setData(x=xs, y=ys, brush=brushes, data=names)
        self.labels = []
        placed: list[tuple[float, float]] = []  # marks labelled so far
        for i, name in enumerate(names):
            right = xs[i] > 0.6 * alpha  # label to the left of marks near the right edge
            # labels of marks close together (or all near λ = 0) are stacked apart;
            # near λ = 1 they go below the mark, where there is room
            crowd = sum(1 for x, y in placed
                        if (abs(x - xs[i]) < 0.25 * alpha and abs(y - ys[i]) < 0.2)
                        or (y < 0.2 and ys[i] < 0.2))
            placed.append((xs[i], ys[i]))
            lift = -0.1 - 1.1 * crowd if ys[i] > 0.8 else 1.0 + 1.1 * crowd
            label = pg.TextItem(f"{name}\nn = {xs[i]:,.0f}, λ = {ys[i]:.3f}",
                                color=style.series_colour(i + 1),
                                anchor=(1.05 if right else -0.05, lift))
            label.setPos(xs[i], ys[i])
            self.addItem(label)
            self.labels.append(label)
        self.setYRange(-0.02, 1.08, padding=0)
        self.setXRange(0, 1.1 * alpha, padding=0.01)


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
