"""Hundreds of thousands of map points, drawn by rasterising them with numpy.

Each paint maps every point to a device pixel (one affine transform of two float32
arrays), writes its label into an 8-bit label image in ascending label order (a higher label
wins a shared pixel), grows each pixel to a dot with a max filter (so the dot's size
costs the same whatever the number of points), and draws that image with a colour table
(an indexed QImage). No Python runs per point; hit tests are numpy on the stored arrays.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike, NDArray
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QTransform


def _grow(image: NDArray[np.uint8], radius: int) -> NDArray[np.uint8]:
    """Max filter with a rounded (2r+1)² footprint: the union of a wide-short and a
    narrow-tall box, each a separable running maximum."""
    if radius <= 0:
        return image

    def box(img: NDArray[np.uint8], rx: int, ry: int) -> NDArray[np.uint8]:
        out = img.copy()
        for s in range(1, rx + 1):
            np.maximum(out[:, s:], img[:, :-s], out=out[:, s:])
            np.maximum(out[:, :-s], img[:, s:], out=out[:, :-s])
        tall = out.copy()
        for s in range(1, ry + 1):
            np.maximum(tall[s:], out[:-s], out=tall[s:])
            np.maximum(tall[:-s], out[s:], out=tall[:-s])
        return tall

    inner = max(radius - 1, 0)
    return np.maximum(box(image, radius, inner), box(image, inner, radius))


class PointCloudItem(pg.GraphicsObject):
    """Points with a label each (1…K; 0 = not drawn) and one colour per label.

    ``radius`` is the dot's radius in pixels; ``ring`` draws each set of dots as its
    outline only (``ring`` pixels wide), for overlays that mark a subset.
    """

    def __init__(self, *, radius: int = 2, ring: int = 0) -> None:
        super().__init__()
        self.radius = radius
        self.ring = ring
        self._x = np.empty(0, np.float32)
        self._y = np.empty(0, np.float32)
        self._labels = np.empty(0, np.uint8)
        self._table = [0]
        self._data_rect = QRectF()
        self._bounds = QRectF()

    def set_points(self, xy: ArrayLike, labels: ArrayLike, colours: list[QColor]) -> None:
        """Draw ``xy`` (N×2) with ``labels`` (N ints, 0…len(colours)); label i uses
        ``colours[i-1]``; a higher label is drawn on top."""
        xy = np.asarray(xy, dtype=np.float32).reshape(-1, 2)
        labels = np.asarray(labels, dtype=np.uint8)
        if labels.shape != (xy.shape[0],):
            raise ValueError("one label per point is needed")
        if labels.size and labels.max() > len(colours):
            raise ValueError("a label has no colour")
        keep = labels > 0
        order = np.argsort(labels[keep], kind="stable")
        self._x = np.ascontiguousarray(xy[keep, 0][order])
        self._y = np.ascontiguousarray(xy[keep, 1][order])
        self._labels = labels[keep][order]
        self._table = [0, *(QColor(c).rgba() for c in colours)]  # 0: transparent
        self.prepareGeometryChange()
        if self._x.size:
            x0, x1 = float(self._x.min()), float(self._x.max())
            y0, y1 = float(self._y.min()), float(self._y.max())
            self._data_rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        else:
            self._data_rect = QRectF()
        self._bounds = self._padded()
        self.informViewBoundsChanged()
        self.update()

    @property
    def count(self) -> int:
        """Number of points drawn."""
        return int(self._labels.size)

    def label_counts(self) -> NDArray[np.int64]:
        """Points per label (index 0 unused: undrawn points are not kept)."""
        return np.bincount(self._labels, minlength=len(self._table))

    # -- geometry for the ViewBox --------------------------------------------------

    def _extent(self) -> int:
        return self.radius + self.ring

    def _padded(self) -> QRectF:
        if self._data_rect.isNull() and not self._x.size:
            return QRectF()
        px, py = self.pixelVectors()
        pad_x = (px.length() if px is not None else 0.0) * (self._extent() + 1)
        pad_y = (py.length() if py is not None else 0.0) * (self._extent() + 1)
        return self._data_rect.adjusted(-pad_x, -pad_y, pad_x, pad_y)

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):
        if not self._x.size:
            return None
        values = self._x if ax == 0 else self._y
        return float(values.min()), float(values.max())

    def pixelPadding(self) -> float:
        return float(self._extent())

    def viewTransformChanged(self) -> None:
        self.prepareGeometryChange()
        self._bounds = self._padded()

    def boundingRect(self) -> QRectF:
        return self._bounds

    # -- painting ------------------------------------------------------------------

    def paint(self, painter, option, widget=None) -> None:
        if not self._x.size:
            return
        scale = self._exportOpts.get("resolutionScale", 1.0) if self._exportOpts else 1.0
        # work in physical pixels: sharp dots on a high-DPI screen (ratio 2: 2× the pixels)
        ratio = painter.device().devicePixelRatioF()
        transform = painter.transform() * QTransform.fromScale(ratio, ratio)
        device = QRectF(0, 0, painter.device().width() * ratio,
                        painter.device().height() * ratio)
        target = transform.mapRect(self.viewRect()).intersected(device).toAlignedRect()
        scale *= ratio
        if target.isEmpty():
            return
        radius = max(0, round(self.radius * scale))
        ring = max(0, round(self.ring * scale))
        pad = radius + ring + 1  # dots within pad pixels of the view still show their part
        # device pixel + pad, relative to the view's corner: valid in [0, size + 2·pad)
        col = self._x * np.float32(transform.m11()) + self._y * np.float32(transform.m21())
        col += np.float32(transform.dx() - target.left() + pad)
        row = self._x * np.float32(transform.m12()) + self._y * np.float32(transform.m22())
        row += np.float32(transform.dy() - target.top() + pad)
        inside = ((col >= 0) & (col < target.width() + 2 * pad)
                  & (row >= 0) & (row < target.height() + 2 * pad))
        if not inside.any():
            return
        cols, rows = col[inside].astype(np.int32), row[inside].astype(np.int32)
        # the label image covers only the drawn points' box (small for a subset's rings)
        c0, r0 = int(cols.min()) - pad, int(rows.min()) - pad
        width, height = int(cols.max()) + pad + 1 - c0, int(rows.max()) + pad + 1 - r0
        width += -width % 4  # 32-bit aligned scan lines
        flat = np.zeros(height * width, np.uint8)
        flat[(rows - r0) * np.int32(width) + (cols - c0)] = self._labels[inside]
        labels = _grow(flat.reshape(height, width), radius)
        if ring:
            labels = np.where(labels > 0, 0, _grow(labels, ring)).astype(np.uint8)
        image = QImage(labels.data, width, height, width, QImage.Format.Format_Indexed8)
        image.setColorTable(self._table)
        image.setDevicePixelRatio(ratio)
        corner = QPointF(target.left() - pad + c0, target.top() - pad + r0) / ratio
        painter.save()
        painter.resetTransform()
        clip = QRectF(target)
        painter.setClipRect(QRectF(clip.topLeft() / ratio, clip.size() / ratio),
                            Qt.ClipOperation.IntersectClip)
        painter.drawImage(corner, image)
        painter.restore()
