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


LEGEND_CORNERS = {"top right": (-10, 10), "bottom right": (-10, -10), "top left": (10, 10),
                  "bottom left": (10, -10)}


def setup_plot_item(item: pg.PlotItem, *, legend: str | None = "top right"
                    ) -> pg.LegendItem | None:
    """Quiet defaults for a plot: no context menu, no auto-range button, a faint grid,
    plain axis numbers (no SI-prefix rescaling such as "×0.001"), a legend in a corner."""
    item.setMenuEnabled(False)
    item.hideButtons()
    item.showGrid(x=True, y=True, alpha=0.15)
    for name in ("left", "bottom"):
        item.getAxis(name).enableAutoSIPrefix(False)
    if legend is None:
        return None
    return item.addLegend(offset=LEGEND_CORNERS[legend], labelTextSize="9pt")


class IntegerAxis(pg.AxisItem):
    """An axis for counts: ticks only at whole numbers (no "0.5 records"); its levels
    are pyqtgraph's own with the fractional spacings left out, 1 at the least."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803
        levels = [(spacing, offset) for spacing, offset in super().tickSpacing(minVal, maxVal, size)
                  if spacing >= 1 and float(spacing).is_integer() and float(offset).is_integer()]
        return levels or ([(1.0, 0.0)] if maxVal != minVal else [])


def integer_axis(orientation: str = "left") -> IntegerAxis:
    """An :class:`IntegerAxis` for ``axisItems={orientation: integer_axis(orientation)}``."""
    axis = IntegerAxis(orientation)
    axis.enableAutoSIPrefix(False)
    return axis


def add_legend_entry(legend: pg.LegendItem, sample, name: str, colour: QColor) -> None:
    """A legend line drawn like ``sample`` (an item not in the plot), its text in
    ``colour``; clicking it does nothing (the legend explains, the controls toggle)."""
    legend.addItem(sample, name)
    entry, label = legend.items[-1]
    entry.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
    label.setText(name, color=colour.name())


def paint_plot_item(item: pg.PlotItem, palette: QPalette, *, title: str = "",
                    x_label: str = "", y_label: str = "") -> None:
    """Axes, axis titles, plot title and legend in ``palette``'s text colour."""
    fg = palette.color(QPalette.ColorRole.Text)
    base = QColor(palette.color(QPalette.ColorRole.Base))
    for name, label in (("left", y_label), ("bottom", x_label)):
        axis = item.getAxis(name)
        axis.setPen(fg)
        axis.setTextPen(fg)
        axis.setLabel(label, color=fg.name())
    if title:
        item.setTitle(title, color=fg.name(), size="10pt")
    legend = item.legend
    if legend is not None:
        legend.setLabelTextColor(fg)
        base.setAlpha(210)
        legend.setBrush(base)
        legend.setPen(pen(QColor(fg.red(), fg.green(), fg.blue(), 80), 1))
        for _sample, label in legend.items:
            label.setText(label.text, color=fg.name())


class _FollowsPalette:
    """Repaint the plots' colours when the palette changes (after construction)."""

    def changeEvent(self, event) -> None:
        if (event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
                and hasattr(self, "_specs")):  # not while pyqtgraph builds the widget
            self.apply_palette()
        super().changeEvent(event)

    def apply_palette(self) -> None:
        self.setBackground(self.palette().color(QPalette.ColorRole.Base))
        for item, spec in self._specs.items():
            paint_plot_item(item, self.palette(), **spec)

    def set_axis_labels(self, item: pg.PlotItem, *, x_label: str | None = None,
                        y_label: str | None = None) -> None:
        spec = self._specs[item]
        spec.update({k: v for k, v in (("x_label", x_label), ("y_label", y_label)) if v is not None})
        self.apply_palette()


class ThemedPlot(_FollowsPalette, pg.PlotWidget):
    """A PlotWidget in the palette's colours with axis titles, a legend and ``save``."""

    def __init__(self, parent=None, *, title: str = "", x_label: str = "",
                 y_label: str = "", legend: str | None = "top right", view_box=None) -> None:
        super().__init__(parent, **({"viewBox": view_box} if view_box is not None else {}))
        self.title = title
        self.legend = setup_plot_item(self.getPlotItem(), legend=legend)
        self._specs = {self.getPlotItem(): {"title": title, "x_label": x_label,
                                            "y_label": y_label}}
        self.apply_palette()

    def add_legend_entry(self, sample, name: str) -> None:
        add_legend_entry(self.legend, sample, name, foreground(self))

    def legend_names(self) -> list[str]:
        return [label.text for _sample, label in self.legend.items] if self.legend else []

    def save(self, path: Path, *, scale: float = 2.0) -> Path:
        """PNG or SVG by the suffix (:func:`save_plot`)."""
        return save_plot(self, path, scale=scale, title=self.title)


class ThemedLayout(_FollowsPalette, pg.GraphicsLayoutWidget):
    """Several plots in a grid, in the palette's colours, saved as one image."""

    AXIS_WIDTH = 62  # the same left-axis width in every panel keeps linked x axes aligned

    def __init__(self, parent=None, *, title: str = "") -> None:
        super().__init__(parent)
        self.title = title
        self._specs: dict[pg.PlotItem, dict[str, str]] = {}

    def add_plot(self, row: int, col: int = 0, *, title: str = "", x_label: str = "",
                 y_label: str = "", legend: str | None = "top right",
                 integer_y: bool = False) -> pg.PlotItem:
        """A themed panel at (row, col); ``integer_y`` for a count axis (whole ticks)."""
        item = self.addPlot(row=row, col=col,
                            axisItems={"left": integer_axis("left")} if integer_y else None)
        setup_plot_item(item, legend=legend)
        item.getAxis("left").setWidth(self.AXIS_WIDTH)
        self._specs[item] = {"title": title, "x_label": x_label, "y_label": y_label}
        self.apply_palette()
        return item

    def save(self, path: Path, *, scale: float = 2.0) -> Path:
        """Every panel in one PNG or SVG (:func:`save_plot`)."""
        return save_plot(self, path, scale=scale, title=self.title)
