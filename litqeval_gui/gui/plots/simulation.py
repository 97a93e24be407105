"""The recall curve of a simulation over several seeds: the median curve, a band
between two percentiles of the seeds (or min and max), the line random screening
would follow on average, the total relevant, and where each stopping rule stopped
(a dashed line at the median over the seeds that stopped)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike

from litqeval_gui.gui.plots import style

RULE_COLOURS = (style.VERMILLION, style.PURPLE, style.GREEN, style.ORANGE, style.SKY)


class SimulationBandPlot(style.ThemedPlot):
    """``set_band(screened, median, low, high, band_label=…, total_relevant=R,
    stops=[(rule, x), …])``."""

    def __init__(self, parent=None, *, title: str = "Simulated recall curve") -> None:
        super().__init__(parent, title=title, x_label="records screened",
                         y_label="relevant found", legend="bottom right")
        self.low = pg.PlotDataItem()
        self.high = pg.PlotDataItem()
        self.band = pg.FillBetweenItem(self.low, self.high, brush=pg.mkBrush(
            style.SKY.red(), style.SKY.green(), style.SKY.blue(), 110))
        self.median = pg.PlotDataItem(stepMode="right", pen=style.pen(style.BLUE, 2.5))
        self.random = pg.PlotDataItem(pen=style.pen(style.GREY, 1.5, dashed=True))
        self.total = pg.InfiniteLine(angle=0, pen=style.pen(style.GREY, 1.5, dashed=True),
                                     label="all relevant: {value:.0f}",
                                     labelOpts={"position": 0.1, "color": style.foreground(self)})
        for z, item in enumerate((self.band, self.random, self.total, self.median)):
            item.setZValue(z)
            self.addItem(item)
        self.stops: list[pg.InfiniteLine] = []

    def set_band(self, screened: ArrayLike, median: ArrayLike, low: ArrayLike,
                 high: ArrayLike, *, band_label: str = "min–max over seeds",
                 total_relevant: int | None = None,
                 stops: Sequence[tuple[str, float]] = ()) -> None:
        x = np.asarray(screened, dtype=float)
        mid, lo, hi = (np.asarray(v, dtype=float) for v in (median, low, high))
        if not (x.shape == mid.shape == lo.shape == hi.shape):
            raise ValueError("screened, median, low and high need the same length")
        self.median.setData(x, mid)
        self.low.setData(x, lo)
        self.high.setData(x, hi)
        relevant = total_relevant if total_relevant is not None else (mid[-1] if mid.size else 0)
        self.random.setData([0, x[-1] if x.size else 0], [0, relevant])
        self.total.setVisible(total_relevant is not None)
        if total_relevant is not None:
            self.total.setValue(total_relevant)
        for line in self.stops:
            self.removeItem(line)
        self.stops = []
        for i, (name, at) in enumerate(stops):
            colour = RULE_COLOURS[i % len(RULE_COLOURS)]
            line = pg.InfiniteLine(at, angle=90, pen=style.pen(colour, 1.5, dashed=True),
                                   label=name, labelOpts={"position": 0.3 + 0.12 * (i % 5),
                                                          "color": colour})
            line.setZValue(5)
            self.addItem(line)
            self.stops.append(line)
        self.legend.clear()
        self.add_legend_entry(pg.PlotDataItem(pen=self.median.opts["pen"]), "median over seeds")
        self.add_legend_entry(pg.ScatterPlotItem(symbol="s", size=12, pen=None,
                                                 brush=self.band.brush()), band_label)
        self.add_legend_entry(pg.PlotDataItem(pen=self.random.opts["pen"]),
                              "random order (expected)")
