"""The depth plot's details: the last depth draws its own step, and no text label sits
under the rate panel's legend."""

import numpy as np
import pyqtgraph as pg
import pytest

from litqeval_gui.gui.plots.curves import DepthPlot
from litqeval_gui.metrics.pooling import StopParams, critical_depth, smoothed_rate
from tests.support.plots import tick_values

NRELS = np.array([2, 4, 6, 8] + [8] * 7)
SIZES = np.arange(2, 24, 2)


def shown(qtbot, plot: DepthPlot, threshold: float) -> DepthPlot:
    params = StopParams(6, 2, threshold, 3)
    rate = smoothed_rate(NRELS, params.window, params.rate_window)
    k_cr = critical_depth(NRELS, params).k_cr
    depths = np.arange(1, NRELS.size + 1)
    plot.set_data(depths, NRELS, SIZES, rate, threshold=threshold,
                  l_run=(k_cr, k_cr + 2), k_cr=k_cr, judged=NRELS.size)
    plot.resize(760, 700)
    plot.show()
    qtbot.waitExposed(plot)
    qtbot.wait(50)
    return plot


def test_every_depth_draws_its_step_the_last_included(qtbot):
    plot = DepthPlot()
    qtbot.addWidget(plot)
    shown(qtbot, plot, 0.8)
    for curve, values in ((plot.nrels, NRELS), (plot.sizes, SIZES)):
        x, y = curve.xData, curve.yData
        assert x.tolist() == [k - 0.5 for k in range(1, 13)]  # depth k spans k ± ½
        assert y.tolist() == values.tolist() and curve.opts["stepMode"] == "center"
    # the view reaches past the last depth so its step is seen
    assert plot.nrels_panel.viewRange()[0][1] >= NRELS.size + 0.5


def test_no_label_under_the_rate_legend(qtbot):
    plot = DepthPlot()
    qtbot.addWidget(plot)
    for threshold in (0.8, 0.6):
        shown(qtbot, plot, threshold)
        legend = plot.rate_panel.legend.sceneBoundingRect()
        labels = [item.label for item in plot.rate_panel.items
                  if isinstance(item, pg.InfiniteLine) and getattr(item, "label", None)
                  and item.label.isVisible() and item.label.toPlainText()]
        assert labels, "the rate panel keeps its k_cr label"
        assert all(not label.sceneBoundingRect().intersects(legend) for label in labels), \
            [label.toPlainText() for label in labels]
        names = [label.text for _, label in plot.rate_panel.legend.items]
        assert f"threshold t = {threshold:g}" in names


def test_depths_and_counts_tick_whole_numbers(qtbot):
    plot = DepthPlot()
    qtbot.addWidget(plot)
    shown(qtbot, plot, 0.8)
    for panel in plot.panels:
        assert tick_values(panel, "bottom", 150) and all(float(v).is_integer()
                                                     for v in tick_values(panel, "bottom", 150))
    for panel in (plot.nrels_panel, plot.size_panel):
        assert all(float(v).is_integer() for v in tick_values(panel, "left", 150))
    assert any(not float(v).is_integer() for v in tick_values(plot.rate_panel, "left"))


def test_the_rate_curve_holds_the_smoothed_rates_else_says_why_not(qtbot):
    # nrels 2, 4, 6, 8, 8, … (11 depths), w = 6, W = 2: window sums S(i) = 36, 42, 46, 48,
    # 48, 48; ŕ(i) = (S(i+2) − S(i)) / 12 = 10/12, 6/12, 2/12, 0
    plot = DepthPlot()
    qtbot.addWidget(plot)
    shown(qtbot, plot, 0.8)
    x, y = plot.rate.getData()
    assert x.tolist() == [1, 2, 3, 4]
    assert y.tolist() == pytest.approx([10 / 12, 6 / 12, 2 / 12, 0])
    assert plot.rate.isVisible() and not plot.rate_message.isVisible()
    # judged to depth 4 only: ŕ(1) needs depths 1…8, so no curve, a message instead
    plot.set_data(np.arange(1, 5), NRELS[:4], SIZES[:4], np.zeros(0), threshold=0.8,
                  judged=4, rate_note="ŕ(1) needs depths 1–8 judged")
    assert plot.rate_message.isVisible()
    assert plot.rate_message.textItem.toPlainText() == "ŕ(1) needs depths 1–8 judged"
    low, high = plot.rate_panel.vb.viewRange()[1]
    assert low <= 0 and high >= 1.0  # the empty panel spans 0 to above t


def test_no_label_overlaps_another(qtbot):
    plot = DepthPlot()
    qtbot.addWidget(plot)
    shown(qtbot, plot, 0.8)
    labels = [item.label.sceneBoundingRect() for panel in plot.panels for item in panel.items
              if isinstance(item, pg.InfiniteLine) and getattr(item, "label", None)
              and item.label.isVisible() and item.label.toPlainText()]
    assert len(labels) == 2  # "judged to 11" (top panel), "k_cr = 2" (rate panel)
    assert not labels[0].intersects(labels[1])


@pytest.mark.parametrize("height", [660, 400])
def test_the_rate_legend_sits_above_the_threshold_and_the_curve(qtbot, height):
    """Issue 24 §4: the legend covered the threshold line (and the curve) in a small
    panel; the panel leaves room above both, at any threshold."""
    plot = DepthPlot()
    qtbot.addWidget(plot)
    for threshold in (0.8, 0.6):
        shown(qtbot, plot, threshold)
        plot.resize(560, height)
        qtbot.wait(50)
        if height == 400:  # a panel of 92 px has no room for a legend of 84
            assert not plot.rate_panel.legend.isVisible()
            assert plot.rate_panel.viewRange()[1][1] <= 1.0
            continue
        box = plot.rate_panel.vb.mapSceneToView(
            plot.rate_panel.legend.sceneBoundingRect()).boundingRect()
        bottom = min(box.top(), box.bottom())  # the legend's lowest value on the y axis
        x, y = plot.rate.getData()
        under = y[(x >= box.left() - 0.5) & (x <= box.right() + 0.5)]
        assert bottom > threshold and (under.size == 0 or bottom > under.max()), \
            (threshold, bottom)
