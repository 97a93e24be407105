"""Plots take the palette's colours (light and dark) and the fidelity badge warns."""

from PySide6.QtGui import QColor, QPalette

from litqeval_gui.gui.plots.fidelity import FidelityBadge
from litqeval_gui.gui.plots.style import ThemedPlot


def test_plot_follows_a_dark_palette(qtbot):
    plot = ThemedPlot(title="t", x_label="depth", y_label="records")
    qtbot.addWidget(plot)
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Base, QColor(30, 30, 30))
    dark.setColor(QPalette.ColorRole.Text, QColor(230, 230, 230))
    plot.setPalette(dark)
    assert plot.backgroundBrush().color() == QColor(30, 30, 30)
    axis = plot.getPlotItem().getAxis("bottom")
    assert axis.textPen().color() == QColor(230, 230, 230)
    assert axis.labelText == "depth"


def test_fidelity_badge(qtbot):
    badge = FidelityBadge(threshold=0.1)
    qtbot.addWidget(badge)
    assert badge.low and "unknown" in badge.text()
    badge.set_fidelity(0.25)
    assert not badge.low and badge.text() == "map fidelity 25.0 %"
    assert "#E69F00" not in badge.styleSheet()
    badge.set_fidelity(0.0715)
    assert badge.low and badge.text() == "⚠ map fidelity 7.1 % — low"
    assert "#E69F00" in badge.styleSheet() and "PLS" in badge.toolTip()
