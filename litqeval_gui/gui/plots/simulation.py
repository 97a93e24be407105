"""The recall curve of a simulation over several seeds: a :class:`RecallCurvePlot` of the
median curve with a band between two percentiles of the seeds (or min and max) and the
total relevant, plus the line random screening would follow on average and where each
stopping rule stopped (a dashed line at the median over the seeds that stopped)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike

from litqeval_gui.gui.plots import style
from litqeval_gui.gui.plots.curves import RecallCurvePlot

RULE_COLOURS = (style.VERMILLION, style.PURPLE, style.GREEN, style.ORANGE, style.SKY)


class SimulationBandPlot(RecallCurvePlot):
    """``set_band(screened, median, low, high, band_label=…, total_relevant=R,
    stops=[(rule, x), …])``."""

    def __init__(self, parent=None, *, title: str = "Simulated recall curve") -> None:
        super().__init__(parent, title=title)
        self.random = pg.PlotDataItem(pen=style.pen(style.GREY, 1.5, dashed=True))
        self.random.setZValue(0.5)  # above the band, below the median
        self.addItem(self.random)
        self.stops: list[pg.InfiniteLine] = []

    def set_band(self, screened: ArrayLike, median: ArrayLike, low: ArrayLike,
                 high: ArrayLike, *, band_label: str = "min–max over seeds",
                 total_relevant: int | None = None,
                 stops: Sequence[tuple[str, float]] = ()) -> None:
        x = np.asarray(screened, dtype=float)
        mid, lo, hi = (np.asarray(v, dtype=float) for v in (median, low, high))
        if not (x.shape == mid.shape == lo.shape == hi.shape):
            raise ValueError("screened, median, low and high need the same length")
        self.set_curve(x, mid, band=(x, lo, hi), total_relevant=total_relevant,
                       label="median over seeds", band_label=band_label)
        relevant = total_relevant if total_relevant is not None else (mid[-1] if mid.size else 0)
        self.random.setData([0, x[-1] if x.size else 0], [0, relevant])
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
        self.add_legend_entry(pg.PlotDataItem(pen=self.random.opts["pen"]),
                              "random order (expected)")
