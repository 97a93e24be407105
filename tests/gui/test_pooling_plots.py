"""The depth plot's details: the last depth draws its own step, and no text label sits
under the rate panel's legend."""

import numpy as np
import pyqtgraph as pg

from litqeval_gui.gui.plots.curves import DepthPlot
from litqeval_gui.metrics.pooling import StopParams, critical_depth, smoothed_rate

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
