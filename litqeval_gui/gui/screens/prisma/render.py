"""The diagram's SVG text as PNG or PDF, drawn by Qt's SVG renderer (the command line
writes SVG only: it never loads Qt). Files are written whole or not at all."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgRenderer

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.exporting import check_target, write_whole

PNG_SCALE = 2  # pixels per SVG unit: sharp on a slide or a high-density screen
FORMATS = {".svg": "SVG", ".png": "PNG", ".pdf": "PDF"}


def _renderer(svg: str) -> QSvgRenderer:
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        raise LitqError("the diagram could not be drawn (its SVG is not valid)")
    return renderer


def _png(svg: str, path: Path) -> None:
    renderer = _renderer(svg)
    size = renderer.defaultSize() * PNG_SCALE
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    if not image.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")


def _pdf(svg: str, path: Path) -> None:
    renderer = _renderer(svg)
    size = renderer.defaultSize()
    writer = QPdfWriter(str(path))
    writer.setResolution(72)  # one SVG unit = one point: the page is the diagram's size
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(size), QPageSize.Unit.Point),
                                     QPageLayout.Orientation.Portrait, QMarginsF()))
    painter = QPainter(writer)
    if not painter.isActive():
        raise OSError(f"cannot write {path}")
    renderer.render(painter)
    painter.end()


def save_diagram(svg: str, path: str | Path, *, project: str | Path | None = None) -> Path:
    """Write ``svg`` to ``path`` as SVG, PNG or PDF, by its suffix (a :class:`LitqError`
    names the choices for another); never onto ``project`` or a database."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise LitqError(f"{target.name}: save the diagram as {', '.join(FORMATS)}")
    check_target(target, project)
    if suffix == ".svg":
        return write_whole(target, lambda partial: partial.write_text(svg, encoding="utf-8"),
                           "the diagram")
    draw = _png if suffix == ".png" else _pdf
    return write_whole(target, lambda partial: draw(svg, partial), "the diagram")
