"""Curves for screening and pooling, over plain arrays.

* :class:`RecallCurvePlot` — relevant found vs records screened (a step curve), the
  knee marked, an optional band (min/max over simulation seeds), the total relevant.
* :class:`DepthPlot` — pooling by depth (SPEC §4): nrels(k), pool size |P(k)| (each
  depth a step from k − ½ to k + ½, the last one included), the smoothed rate ŕ(k)
  with the threshold t (named in the legend, so no label collides with it) and the
  l-run below it shaded, k_cr and the depth judged marked in every panel.
* :class:`FrontierPlot` — one point per setting (e.g. Kendall's τ or RMS error vs
  effort E), the settings on the effort/reliability frontier highlighted; hovering
  shows a setting's label, a click emits its index.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike
from PySide6.QtCore import Signal

from litqeval_gui.gui.plots import style


def _array(values: ArrayLike) -> np.ndarray:
    return np.asarray(values, dtype=float)


def integer_axes(item: pg.PlotItem, *names: str) -> None:
    """Count axes: ``names`` ("left", "bottom") tick whole numbers only."""
    item.setAxisItems({name: style.integer_axis(name) for name in names})


def _message(item: pg.PlotItem, colour) -> pg.TextItem:
    """A centred text for an empty panel (hidden until :func:`_say` sets it)."""
    text = pg.TextItem(color=colour, anchor=(0.5, 0.5))
    text.setZValue(10)
    text.setVisible(False)
    item.addItem(text, ignoreBounds=True)
    return text


def _say(text: pg.TextItem, message: str, x: float, y: float) -> None:
    text.setText(message)
    text.setPos(x, y)
    text.setVisible(bool(message))


def _marker(item: pg.PlotItem, value: float, colour, label: str,
            position: float = 0.8) -> pg.InfiniteLine:
    line = pg.InfiniteLine(value, angle=90, pen=style.pen(colour, 2, dashed=True), label=label,
                           labelOpts={"position": position, "color": colour})
    item.addItem(line)
    return line


class RecallCurvePlot(style.ThemedPlot):
    """``set_curve(screened, found, knee=(x, y), band=(x, lo, hi), total_relevant=R,
    knee_note="no knee yet …")``; both axes count, so they tick whole numbers, and a
    curve with nothing screened shows 0–10 × 0–1 with a message."""

    EMPTY = "Nothing screened yet"
    EMPTY_RANGE = (10, 1)

    def __init__(self, parent=None, *, title: str = "Recall curve") -> None:
        super().__init__(parent, title=title, x_label="records screened",
                         y_label="relevant found", legend="bottom right")
        integer_axes(self.getPlotItem(), "left", "bottom")
        self.apply_palette()
        self.empty = _message(self.getPlotItem(), style.foreground(self))
        self.band_low = pg.PlotDataItem()
        self.band_high = pg.PlotDataItem()
        self.band = pg.FillBetweenItem(self.band_low, self.band_high,
                                       brush=pg.mkBrush(style.SKY.red(), style.SKY.green(),
                                                        style.SKY.blue(), 90))
        self.curve = pg.PlotDataItem(stepMode="right", pen=style.pen(style.BLUE, 2.5))
        self.knee = pg.ScatterPlotItem(size=13, symbol="d", brush=pg.mkBrush(style.VERMILLION),
                                       pen=pg.mkPen(style.foreground(self), width=1))
        self.total = pg.InfiniteLine(angle=0, pen=style.pen(style.GREY, 1.5, dashed=True),
                                     label="all relevant: {value:.0f}",
                                     labelOpts={"position": 0.1, "color": style.foreground(self)})
        for z, item in enumerate((self.band, self.curve, self.total, self.knee)):
            item.setZValue(z)
            self.addItem(item)
        self.band.setVisible(False)
        self.total.setVisible(False)

    def set_curve(self, screened: ArrayLike, found: ArrayLike, *,
                  knee: tuple[float, float] | None = None,
                  band: tuple[ArrayLike, ArrayLike, ArrayLike] | None = None,
                  total_relevant: int | None = None, label: str = "relevant found",
                  band_label: str = "min–max over seeds", knee_note: str = "") -> None:
        """``knee_note``: why no knee is marked (a legend line) when ``knee`` is None."""
        x, y = _array(screened), _array(found)
        if x.shape != y.shape:
            raise ValueError("screened and found need the same length")
        self.curve.setData(x, y)
        empty = band is None and (x.size == 0 or x.max() <= 0)
        if empty:
            width, height = self.EMPTY_RANGE
            self.setRange(xRange=(0, width), yRange=(0, height), padding=0.02)
        else:
            self.enableAutoRange()
        _say(self.empty, self.EMPTY if empty else "", self.EMPTY_RANGE[0] / 2,
             self.EMPTY_RANGE[1] / 2)
        self.knee.setData([] if knee is None else [knee[0]], [] if knee is None else [knee[1]])
        if band is not None:
            bx, lo, hi = (_array(v) for v in band)
            self.band_low.setData(bx, lo)
            self.band_high.setData(bx, hi)
        self.band.setVisible(band is not None)
        self.total.setVisible(total_relevant is not None)
        if total_relevant is not None:
            self.total.setValue(total_relevant)
        self.legend.clear()
        self.add_legend_entry(pg.PlotDataItem(pen=self.curve.opts["pen"]), label)
        if band is not None:
            self.add_legend_entry(pg.ScatterPlotItem(symbol="s", size=12, pen=None,
                                                     brush=self.band.brush()),
                                  band_label)
        if knee is not None:
            self.add_legend_entry(pg.ScatterPlotItem(symbol="d", size=11, pen=None,
                                                     brush=pg.mkBrush(style.VERMILLION)),
                                  f"knee at {knee[0]:,.0f} screened")
        elif knee_note:
            self.add_legend_entry(pg.ScatterPlotItem(symbol="d", size=11, brush=None,
                                                     pen=pg.mkPen(style.VERMILLION, width=1.5)),
                                  knee_note)


class DepthPlot(style.ThemedLayout):
    """Three panels over pool depth k: nrels(k), |P(k)|, and ŕ(k) against t."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, title="Pooling by depth")
        self.nrels_panel = self.add_plot(0, y_label="relevant in pool", legend=None,
                                         integer_y=True)
        self.size_panel = self.add_plot(1, y_label="pool size", legend=None, integer_y=True)
        self.rate_panel = self.add_plot(2, x_label="depth k", y_label="smoothed rate ŕ(k)",
                                        legend="top right")
        self.panels = [self.nrels_panel, self.size_panel, self.rate_panel]
        for panel in self.panels:  # depths are whole numbers
            integer_axes(panel, "bottom")
        self.apply_palette()
        self.rate_message = _message(self.rate_panel, style.foreground(self))
        for panel in self.panels[1:]:
            panel.setXLink(self.nrels_panel)
        self.nrels = self.nrels_panel.plot(pen=style.pen(style.BLUE, 2.5), stepMode="center")
        self.sizes = self.size_panel.plot(pen=style.pen(style.ORANGE, 2.5), stepMode="center")
        self.rate = self.rate_panel.plot(pen=style.pen(style.GREEN, 2.5), name="ŕ(k)",
                                         symbol="o", symbolSize=4,
                                         symbolBrush=pg.mkBrush(style.GREEN), symbolPen=None)
        self.threshold = pg.InfiniteLine(angle=0, pen=style.pen(style.PURPLE, 1.5, dashed=True))
        self.rate_panel.addItem(self.threshold)
        colour = style.VERMILLION
        self.run = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(colour.red(), colour.green(),
                                                                       colour.blue(), 45),
                                       pen=pg.mkPen(None))
        self.rate_panel.addItem(self.run)
        self.markers: list[pg.InfiniteLine] = []
        self._rate_peak = 1.0  # the highest of t and ŕ: the legend stays above it
        self.rate_panel.vb.sigResized.connect(lambda *_: self._fit_rate_range())

    def _fit_rate_range(self) -> None:
        """The rate panel from 0 to above the threshold and the curve by the legend's
        height, so the legend covers neither; a panel too low for that (the legend would
        take more than 60 % of it) hides the legend instead."""
        view = self.rate_panel.vb.sceneBoundingRect()
        if view.height() <= 0:
            return
        legend = self.rate_panel.legend
        covered = (legend.sceneBoundingRect().bottom() - view.top() + 6) / view.height()
        legend.setVisible(covered <= 0.6)
        covered = min(max(covered, 0.0), 0.6) if legend.isVisible() else 0.0
        self.rate_panel.setYRange(0, self._rate_peak * 1.05 / (1 - covered), padding=0)

    def set_data(self, depths: ArrayLike, nrels: ArrayLike, pool_size: ArrayLike,
                 rate: ArrayLike, *, threshold: float, rate_depths: ArrayLike | None = None,
                 l_run: tuple[int, int] | None = None, k_cr: int | None = None,
                 judged: int | None = None, rate_note: str = "") -> None:
        """``rate`` is over ``rate_depths`` (default ``depths``; ŕ needs depths beyond
        it, so it is shorter); ``l_run`` = (first, last) depth of the run below t.
        With no rate yet the rate panel spans 0 to above t and says ``rate_note``
        (e.g. which depth ŕ needs)."""
        k = _array(depths)
        edges = np.append(k - 0.5, k[-1] + 0.5) if k.size else k  # depth k spans k ± ½
        self.nrels.setData(edges, _array(nrels))
        self.sizes.setData(edges, _array(pool_size))
        rk = k[: len(rate)] if rate_depths is None else _array(rate_depths)
        self.rate.setData(rk, _array(rate))
        self.threshold.setValue(threshold)
        top = max(1.0, 1.25 * threshold)
        rates = _array(rate)
        self._rate_peak = max([threshold, *rates[np.isfinite(rates)].tolist()]) \
            if len(rate) else top
        middle = (k[0] + k[-1]) / 2 if k.size else 0.0
        _say(self.rate_message, "" if len(rate) else (rate_note or "no smoothed rate yet"),
             middle, threshold / 2 if threshold >= 0.4 else (threshold + top) / 2)
        self.run.setVisible(l_run is not None)
        if l_run is not None:
            self.run.setRegion((l_run[0] - 0.5, l_run[1] + 0.5))
        for line in self.markers:
            line.getViewBox().removeItem(line)
        self.markers = []
        for i, panel in enumerate(self.panels):
            if k_cr is not None:
                self.markers.append(_marker(panel, k_cr, style.VERMILLION,
                                            f"k_cr = {k_cr}" if i == 2 else ""))
            if judged is not None:
                self.markers.append(_marker(panel, judged, style.foreground(self),
                                            f"judged to {judged}" if i == 0 else "", 0.15))
        legend = self.rate_panel.legend
        legend.clear()
        fg = style.foreground(self)
        style.add_legend_entry(legend, pg.PlotDataItem(pen=self.rate.opts["pen"]), "ŕ(k)", fg)
        style.add_legend_entry(legend, pg.PlotDataItem(pen=self.threshold.pen),
                               f"threshold t = {threshold:g}", fg)
        if l_run is not None:
            style.add_legend_entry(legend, pg.ScatterPlotItem(symbol="s", size=12, pen=None,
                                                              brush=self.run.brush),
                                   f"ŕ below t at depths {l_run[0]}–{l_run[1]}", fg)
        self._fit_rate_range()


class FrontierPlot(style.ThemedPlot):
    """Settings as points (effort vs a reliability measure); frontier points highlighted.

    Signal ``setting_clicked(int index)``.
    """

    setting_clicked = Signal(int)

    def __init__(self, parent=None, *, title: str = "", x_label: str = "effort E",
                 y_label: str = "Kendall's τ", legend: str = "bottom right") -> None:
        """``legend``: the corner the points leave free (bottom right for a measure that
        rises with effort, top right for an error that falls)."""
        super().__init__(parent, title=title, x_label=x_label, y_label=y_label,
                         legend=legend)
        self.labels: list[str] = []
        self.points = pg.ScatterPlotItem(size=7, hoverable=True, tip=self._tip,
                                         hoverSize=11, hoverPen=pg.mkPen(style.foreground(self)))
        self.addItem(self.points)
        self.frontier_line = self.plot(pen=style.pen(style.VERMILLION, 1.5))
        self.points.sigClicked.connect(
            lambda _item, spots, _ev: self.setting_clicked.emit(int(spots[0].data())))

    def _tip(self, x: float, y: float, data) -> str:
        return self.labels[int(data)]

    def set_points(self, effort: ArrayLike, value: ArrayLike, frontier: ArrayLike, *,
                   labels: Sequence[str] | None = None) -> None:
        """``frontier``: a mask of the settings on the frontier (drawn large, joined)."""
        x, y = _array(effort), _array(value)
        on = np.asarray(frontier, dtype=bool)
        if not (x.shape == y.shape == on.shape):
            raise ValueError("effort, value and frontier need the same length")
        self.labels = (list(labels) if labels is not None
                       else [f"E = {a:.3f}, value = {b:.3f}" for a, b in zip(x, y, strict=True)])
        order = np.argsort(on, kind="stable")  # frontier points drawn last, on top
        grey, red = pg.mkBrush(style.GREY), pg.mkBrush(style.VERMILLION)
        self.points.setData(x=x[order], y=y[order], data=order,
                            brush=[red if on[i] else grey for i in order],
                            size=[11 if on[i] else 7 for i in order],
                            pen=[pg.mkPen(style.foreground(self)) if on[i] else None for i in order])
        along = np.flatnonzero(on)[np.argsort(x[on])]
        self.frontier_line.setData(x[along], y[along])
        self.legend.clear()
        self.add_legend_entry(pg.ScatterPlotItem(size=7, pen=None, brush=grey), "setting")
        self.add_legend_entry(pg.ScatterPlotItem(size=11, pen=None, brush=red),
                              f"on the frontier ({on.sum()})")
