"""The rasterised point cloud: points land on their pixels, a higher label wins a shared
pixel, undrawn labels leave the background, rings draw outlines only."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from litqeval_gui.gui.plots.pointcloud import PointCloudItem

RED, BLUE = QColor(255, 0, 0), QColor(0, 0, 255)


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget(background="w")
    widget.resize(300, 300)
    widget.getPlotItem().hideAxis("left")
    widget.getPlotItem().hideAxis("bottom")
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.getPlotItem().setRange(xRange=(0, 10), yRange=(0, 10), padding=0)
    return widget


def _pixel(plot, image: QImage, x: float, y: float) -> QColor:
    pos = plot.mapFromScene(plot.getPlotItem().getViewBox().mapViewToScene(pg.Point(x, y)))
    return image.pixelColor(pos.x(), pos.y())


def test_points_are_drawn_where_they_lie(plot):
    item = PointCloudItem(radius=2)
    item.set_points([[2, 2], [5, 5], [8, 3], [5, 5.05]], [1, 1, 0, 2], [RED, BLUE])
    plot.addItem(item)
    image = plot.grab().toImage()
    assert item.count == 3 and item.label_counts().tolist() == [0, 2, 1]
    assert _pixel(plot, image, 2, 2) == RED
    assert _pixel(plot, image, 5, 5) == BLUE  # label 2 over label 1 on the same pixel
    assert _pixel(plot, image, 8, 3) == QColor("white")  # label 0: not drawn
    assert _pixel(plot, image, 3, 7) == QColor("white")


def test_ring_draws_the_outline_only(plot):
    item = PointCloudItem(radius=3, ring=2)
    item.set_points([[5, 5]], [1], [RED])
    plot.addItem(item)
    image = plot.grab().toImage()
    assert _pixel(plot, image, 5, 5) == QColor("white")
    centre = plot.mapFromScene(plot.getPlotItem().getViewBox().mapViewToScene(pg.Point(5, 5)))
    assert image.pixelColor(centre.x() + 4, centre.y()) == RED


def test_bounds_follow_the_data():
    item = PointCloudItem()
    item.set_points([[1, -2], [4, 3]], [1, 1], [RED])
    assert item.dataBounds(0) == (1, 4) and item.dataBounds(1) == (-2, 3)
    with pytest.raises(ValueError, match="no colour"):
        item.set_points([[0, 0]], [2], [RED])
    with pytest.raises(ValueError, match="one label per point"):
        item.set_points(np.zeros((3, 2)), [1], [RED])


def _run_through_centre(image: QImage, x: int, y: int) -> int:
    """Width of the run of non-white pixels on row y around column x."""
    row = [image.pixelColor(c, y) != QColor("white") for c in range(image.width())]
    left = right = x
    while left > 0 and row[left - 1]:
        left -= 1
    while right < len(row) - 1 and row[right + 1]:
        right += 1
    return right - left + 1 if row[x] else 0


@pytest.mark.parametrize("ratio", [1, 2])
def test_dots_keep_their_pixel_size_on_high_dpi(plot, ratio):
    item = PointCloudItem(radius=2)
    item.set_points([[5, 5]], [1], [RED])
    plot.addItem(item)
    image = QImage(plot.width() * ratio, plot.height() * ratio, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(QColor("white"))
    painter = QPainter(image)
    plot.render(painter, QRectF(0, 0, plot.width(), plot.height()), plot.viewport().rect())
    painter.end()
    centre = plot.mapFromScene(plot.getPlotItem().getViewBox().mapViewToScene(pg.Point(5, 5)))
    width = _run_through_centre(image, centre.x() * ratio, centre.y() * ratio)
    # a radius-2 dot drawn in physical pixels: radius 2·ratio, 2·(2·ratio) + 1 wide (an
    # image drawn at logical size and scaled up would be 5·ratio wide, in 2×2 blocks)
    assert width == 4 * ratio + 1
