"""Saving a plot: the file's suffix chooses PNG (raster, ``scale`` × the plot's size,
pyqtgraph's ImageExporter) or SVG (vector, Qt's QSvgGenerator rendering the plot's
scene: pyqtgraph 0.14's SVGExporter cannot read the paths Qt 6.11 writes); any other
suffix is refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from pyqtgraph import exporters
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

FORMATS = {".png": "PNG image", ".svg": "SVG vector image"}


def save_plot(plot: pg.PlotWidget | pg.GraphicsLayoutWidget | pg.PlotItem, path: Path, *,
              scale: float = 2.0, title: str = "") -> Path:
    """Write ``plot`` to ``path`` (``.png`` or ``.svg``) and return the path; a
    GraphicsLayoutWidget is written whole (every panel)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"cannot save a plot as {suffix or 'a file without an extension'}; "
                         f"use {' or '.join(FORMATS)}")
    if isinstance(plot, pg.PlotWidget):
        item = plot.getPlotItem()
    elif isinstance(plot, pg.GraphicsLayoutWidget):
        item = plot.ci
    else:
        item = plot
    if suffix == ".png":
        exporter = exporters.ImageExporter(item)
        exporter.parameters()["width"] = max(1, int(item.sceneBoundingRect().width() * scale))
        exporter.export(str(path))
    else:
        _save_svg(item, path, title)
    return path


def _save_svg(item: pg.GraphicsItem, path: Path, title: str) -> None:
    source = item.sceneBoundingRect()
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(source.size().toSize())
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(title)
    painter = QPainter(generator)
    try:
        item.scene().render(painter, QRectF(0, 0, source.width(), source.height()), source)
    finally:
        painter.end()
