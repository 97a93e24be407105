"""Screening and pooling curves: recall curve with knee and band, pooling by depth,
the effort/reliability frontier."""

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from litqeval_gui.gui.plots.curves import DepthPlot, FrontierPlot, RecallCurvePlot
from litqeval_gui.metrics.pooling import StopParams, critical_depth, smoothed_rate
from litqeval_gui.metrics.tar import recall_curve
from tests.support.plots import tick_values


def test_recall_curve_with_knee_and_band(qtbot):
    plot = RecallCurvePlot()
    qtbot.addWidget(plot)
    screened, found = recall_curve([1, 1, 0, 1, 0, 0, 0])
    plot.set_curve(screened, found, knee=(4, 3), total_relevant=3)
    assert plot.curve.getData()[1].tolist() == [0, 1, 2, 2, 3, 3, 3, 3]
    assert plot.knee.data["x"].tolist() == [4] and plot.knee.data["y"].tolist() == [3]
    assert not plot.band.isVisible() and plot.total.isVisible() and plot.total.value() == 3
    assert plot.legend_names() == ["relevant found", "knee at 4 screened"]
    plot.set_curve(screened, found, band=(screened, found - 1, found + 1))
    assert plot.band.isVisible() and not plot.total.isVisible()
    assert plot.band_high.getData()[1].tolist() == (found + 1).tolist()
    assert plot.knee.data.size == 0
    assert "min–max over seeds" in plot.legend_names()
    with pytest.raises(ValueError):
        plot.set_curve([0, 1], [0])


def test_depth_plot_marks_k_cr_and_the_run(qtbot, tmp_path):
    nrels = np.array([5, 9, 12, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16])
    params = StopParams(3, 2, 0.5, 2)
    rate = smoothed_rate(nrels, 3, 2)
    found = critical_depth(nrels, params)
    plot = DepthPlot()
    qtbot.addWidget(plot)
    depths = np.arange(1, nrels.size + 1)
    plot.set_data(depths, nrels, depths * 10, rate, threshold=0.5,
                  l_run=(found.k_cr, found.k_cr + 1), k_cr=found.k_cr, judged=nrels.size)
    assert plot.rate.getData()[0].tolist() == list(range(1, rate.size + 1))
    assert plot.run.isVisible() and plot.run.getRegion() == (found.k_cr - 0.5, found.k_cr + 1.5)
    k_cr_lines = [m for m in plot.markers if m.value() == found.k_cr]
    assert len(k_cr_lines) == 3  # one in every panel
    assert plot.threshold.value() == 0.5
    plot.set_data(depths, nrels, depths * 10, rate, threshold=0.5)
    assert plot.markers == [] and not plot.run.isVisible()
    plot.resize(500, 600)
    plot.show()
    assert not QImage(str(plot.save(tmp_path / "d.png"))).isNull()


def test_frontier_hover_and_click(qtbot):
    plot = FrontierPlot(title="τ vs effort")
    qtbot.addWidget(plot)
    plot.resize(500, 400)
    plot.show()
    qtbot.waitExposed(plot)
    effort = np.array([0.2, 0.5, 0.9, 0.6])
    tau = np.array([0.7, 0.95, 1.0, 0.8])
    plot.set_points(effort, tau, [True, True, True, False], labels=["a", "b", "c", "d"])
    assert plot.frontier_line.getData()[0].tolist() == [0.2, 0.5, 0.9]
    assert plot.legend_names() == ["setting", "on the frontier (3)"]
    plot.setRange(xRange=(0, 1), yRange=(0.5, 1.05))
    qtbot.wait(50)  # the view applies the range when it next paints
    vb = plot.getPlotItem().getViewBox()
    pos = plot.mapFromScene(vb.mapViewToScene(QPointF(0.6, 0.8)))
    for step in (pos + QPoint(20, 0), pos):  # pyqtgraph hovers from one move to the next
        QTest.qWait(40)  # and drops moves that come faster than its frame rate
        event = QMouseEvent(QEvent.Type.MouseMove, QPointF(step),
                            QPointF(plot.viewport().mapToGlobal(step)), Qt.MouseButton.NoButton,
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(plot.viewport(), event)
    assert vb.toolTip() == "d"
    with qtbot.waitSignal(plot.setting_clicked) as clicked:
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert clicked.args == [3]


def test_recall_curve_counts_tick_whole_numbers_and_an_empty_curve_says_so(qtbot):
    plot = RecallCurvePlot()
    qtbot.addWidget(plot)
    plot.resize(400, 500)
    plot.show()
    plot.set_curve(np.arange(13), [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
                   knee_note="no knee yet (needs 150 screened)")
    item = plot.getPlotItem()
    for axis in ("bottom", "left"):
        values = tick_values(item, axis, 400)
        assert values and all(float(v).is_integer() for v in values), (axis, values)
    assert "no knee yet (needs 150 screened)" in plot.legend_names()
    assert not plot.empty.isVisible()
    plot.set_curve([0], [0])  # nothing screened: 0–10 × 0–1, not −0.4…0.4
    (x0, x1), (y0, y1) = item.vb.viewRange()
    assert x0 <= 0 < 10 <= x1 and y0 <= 0 < 1 <= y1 and y0 > -0.1
    assert plot.empty.isVisible() and plot.empty.textItem.toPlainText() == "Nothing screened yet"
