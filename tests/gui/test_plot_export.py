"""Plots save as valid PNG and SVG, and refuse other suffixes before writing."""

import xml.etree.ElementTree as ET

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage

from litqeval_gui.gui.plots.export import save_plot


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget()
    widget.resize(320, 200)
    widget.plot([0, 1, 2, 3], [0, 1, 4, 9], pen="b", name="squares")
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_png_has_the_plot_scaled(plot, tmp_path):
    out = save_plot(plot, tmp_path / "p.png", scale=2.0)
    image = QImage(str(out))
    assert not image.isNull()
    assert image.width() == int(plot.getPlotItem().sceneBoundingRect().width() * 2)


def _drawn(svg) -> int:
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    return sum(el.tag.endswith(("path", "polyline")) for el in root.iter())


def test_svg_parses_and_holds_the_curve(plot, tmp_path):
    with_curve = _drawn(save_plot(plot, tmp_path / "p.SVG"))
    plot.clear()
    assert with_curve > _drawn(save_plot(plot, tmp_path / "empty.svg"))


def test_other_suffix_is_refused_and_nothing_written(plot, tmp_path):
    with pytest.raises(ValueError, match=r"\.pdf"):
        save_plot(plot, tmp_path / "p.pdf")
    assert list(tmp_path.iterdir()) == []
