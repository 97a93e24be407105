"""Colours and the themed plot every widget here draws on.

Colours are Okabe & Ito's palette (distinguishable with the common colour-vision
deficiencies); a plot takes its background and its axes' colour from the Qt palette
(``Base`` and ``Text``), so it reads in a light and a dark scheme, and follows a palette
change while shown.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QPalette

from litqeval_gui.gui.plots.export import save_plot

BLUE = QColor("#0072B2")
ORANGE = QColor("#E69F00")
GREEN = QColor("#009E73")
PURPLE = QColor("#CC79A7")
SKY = QColor("#56B4E9")
VERMILLION = QColor("#D55E00")
YELLOW = QColor("#F0E442")
GREY = QColor(140, 140, 140, 150)
SERIES = (BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION)


def series_colour(i: int) -> QColor:
    """The i-th series colour, cycling."""
    return SERIES[i % len(SERIES)]


def pen(colour: QColor, width: float = 2.0, dashed: bool = False) -> pg.QtGui.QPen:
    """A cosmetic pen (its width in pixels whatever the zoom)."""
    result = pg.mkPen(colour, width=width)
    if dashed:
        result.setStyle(pg.QtCore.Qt.PenStyle.DashLine)
    return result


def foreground(widget) -> QColor:
    """The palette's text colour of ``widget``."""
    return widget.palette().color(QPalette.ColorRole.Text)


class ThemedPlot(pg.PlotWidget):
    """A PlotWidget in the palette's colours with axis titles, a legend and ``save``."""

    def __init__(self, parent=None, *, title: str = "", x_label: str = "",
                 y_label: str = "", legend: bool = True, view_box=None) -> None:
        super().__init__(parent, **({"viewBox": view_box} if view_box is not None else {}))
        self.title = title
        item = self.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.showGrid(x=True, y=True, alpha=0.15)
        self.legend = item.addLegend(offset=(-10, 10), labelTextSize="9pt") if legend else None
        self._labels = {"bottom": x_label, "left": y_label}
        self.apply_palette()

    def add_legend_entry(self, sample, name: str) -> None:
        """A legend line drawn like ``sample`` (an item not in the plot); clicking it
        does nothing (the legend explains, the controls toggle)."""
        self.legend.addItem(sample, name)
        self.legend.items[-1][0].setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        self.apply_palette()

    def legend_names(self) -> list[str]:
        return [label.text for _sample, label in self.legend.items] if self.legend else []

    def set_axis_labels(self, x_label: str | None = None, y_label: str | None = None) -> None:
        if x_label is not None:
            self._labels["bottom"] = x_label
        if y_label is not None:
            self._labels["left"] = y_label
        self.apply_palette()

    def apply_palette(self) -> None:
        """Background, axes, titles and legend text in the current palette's colours."""
        fg = foreground(self)
        self.setBackground(self.palette().color(QPalette.ColorRole.Base))
        item = self.getPlotItem()
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(fg)
            axis.setTextPen(fg)
            axis.setLabel(self._labels.get(name, ""), color=fg.name())
        if self.title:
            item.setTitle(self.title, color=fg.name(), size="10pt")
        if self.legend is not None:
            self.legend.setLabelTextColor(fg)
            background = QColor(self.palette().color(QPalette.ColorRole.Base))
            background.setAlpha(210)
            self.legend.setBrush(background)
            self.legend.setPen(pen(QColor(fg.red(), fg.green(), fg.blue(), 80), 1))
            for _sample, label in self.legend.items:
                label.setText(label.text, color=fg.name())

    def changeEvent(self, event) -> None:
        if (event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
                and hasattr(self, "_labels")):  # not while PlotWidget is being built
            self.apply_palette()
        super().changeEvent(event)

    def save(self, path: Path, *, scale: float = 2.0) -> Path:
        """PNG or SVG by the suffix (:func:`save_plot`)."""
        return save_plot(self, path, scale=scale, title=self.title)
