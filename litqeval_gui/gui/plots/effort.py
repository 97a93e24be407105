"""Effort spent vs relevant found, one curve per pooled topic (over plain arrays)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike

from litqeval_gui.gui.plots import style


class EffortPlot(style.ThemedPlot):
    """``set_curves({name: (judged, relevant)})``: a step curve per topic, its end marked."""

    def __init__(self, parent=None, *, title: str = "Effort across topics") -> None:
        super().__init__(parent, title=title, x_label="records judged",
                         y_label="relevant found", legend="bottom right")
        self.curves: list[pg.PlotDataItem] = []

    def set_curves(self, curves: Mapping[str, tuple[ArrayLike, ArrayLike]]) -> None:
        for item in self.curves:
            self.removeItem(item)
        self.curves = []
        self.legend.clear()
        for i, (name, (judged, found)) in enumerate(curves.items()):
            x, y = np.asarray(judged, dtype=float), np.asarray(found, dtype=float)
            if x.shape != y.shape:
                raise ValueError(f"{name}: judged and found need the same length")
            colour = style.series_colour(i)
            item = pg.PlotDataItem(np.concatenate(([0.0], x)), np.concatenate(([0.0], y)),
                                   pen=style.pen(colour, 2.5), symbol="o", symbolSize=5,
                                   symbolBrush=pg.mkBrush(colour), symbolPen=None)
            self.addItem(item)
            self.curves.append(item)
            self.add_legend_entry(pg.PlotDataItem(pen=item.opts["pen"]), name)
