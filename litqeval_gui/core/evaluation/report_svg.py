"""Small static SVG plots for the evaluation report, written with ``xml.etree`` (no
plotting library: matplotlib is not a dependency). Plain arrays in, an ``<svg>``
element out; points are mapped linearly into the plot box (y grows upwards), the curve's
x optionally on a log10 axis. A legend entry is drawn with the very marker (or line) of
its layer on the plot."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH, HEIGHT, MARGIN = 480, 360, 36
MAX_POINTS = 4000  # per layer: more are thinned to an even sample (the caption says so)
# the marks of a curve, one colour each (Okabe & Ito, as the app's plots)
MARK_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")


@dataclass(frozen=True)
class Layer:
    """Points drawn in one style: ``points`` (n × 2), a legend ``label``, a ``colour``,
    a radius; ``outline`` draws rings instead of dots."""

    label: str
    points: NDArray[np.floating]
    colour: str
    radius: float = 2.0
    outline: bool = False


@dataclass(frozen=True)
class Line:
    """A polyline (closed when ``closed``) in data coordinates, with a legend label."""

    label: str
    points: NDArray[np.floating]
    colour: str
    closed: bool = False


class _Box:
    """Linear map of data coordinates into the plot area."""

    def __init__(self, points: NDArray[np.floating]) -> None:
        finite = points[np.isfinite(points).all(axis=1)] if len(points) else points
        low = finite.min(axis=0) if len(finite) else np.zeros(2)
        high = finite.max(axis=0) if len(finite) else np.ones(2)
        span = np.where(high - low > 0, high - low, 1.0)
        self.low, self.span = low - 0.04 * span, span * 1.08

    def __call__(self, points: NDArray[np.floating]) -> NDArray[np.float64]:
        unit = (np.asarray(points, np.float64) - self.low) / self.span
        x = MARGIN + unit[:, 0] * (WIDTH - 2 * MARGIN)
        y = HEIGHT - MARGIN - unit[:, 1] * (HEIGHT - 2 * MARGIN)
        return np.column_stack([x, y])


def _svg(title: str) -> ET.Element:
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(WIDTH), "height": str(HEIGHT),
                             "viewBox": f"0 0 {WIDTH} {HEIGHT}", "role": "img"})
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", {"x": str(MARGIN), "y": str(MARGIN // 2),
                                "width": str(WIDTH - 2 * MARGIN),
                                "height": str(HEIGHT - MARGIN - MARGIN // 2),
                                "fill": "none", "stroke": "#ccc"})
    return svg


def _thin(points: NDArray[np.floating]) -> NDArray[np.floating]:
    if len(points) <= MAX_POINTS:
        return points
    return points[np.linspace(0, len(points) - 1, MAX_POINTS).astype(int)]


def _marker_style(layer: Layer) -> dict[str, str]:
    """The attributes of one of ``layer``'s markers, but its position."""
    style = ({"fill": "none", "stroke": layer.colour} if layer.outline
             else {"fill": layer.colour})
    return {"r": str(layer.radius), **style}


def _legend(svg: ET.Element, layers: Sequence[Layer], lines: Sequence[Line]) -> None:
    """A legend in the top right corner on a pale ground: each layer's own marker, each
    line as a short stroke of its colour (flat elements of class ``legend``: the plot's
    only groups are its layers)."""
    left, top = WIDTH - MARGIN - 124, MARGIN // 2 + 4
    ET.SubElement(svg, "rect", {"x": str(left), "y": str(top), "width": "120",
                                "height": str(14 * (len(layers) + len(lines)) + 6),
                                "fill": "#ffffff", "fill-opacity": "0.85", "stroke": "#ddd",
                                "class": "legend"})
    for i, item in enumerate([*layers, *lines]):
        y = top + 12 + 14 * i
        tagged = {"class": "legend", "data-label": item.label}
        if isinstance(item, Layer):
            ET.SubElement(svg, "circle", {"cx": str(left + 10), "cy": str(y - 4),
                                          **_marker_style(item), **tagged})
        else:
            ET.SubElement(svg, "line", {"x1": str(left + 4), "y1": str(y - 4),
                                        "x2": str(left + 16), "y2": str(y - 4),
                                        "stroke": item.colour, "stroke-width": "1.5", **tagged})
        ET.SubElement(svg, "text", {"x": str(left + 22), "y": str(y), "font-size": "11",
                                    "class": "legend"}).text = item.label


def scatter_svg(title: str, layers: Sequence[Layer], lines: Sequence[Line] = ()) -> ET.Element:
    """A scatter plot of ``layers`` (drawn in order) with ``lines`` on top and a legend."""
    svg = _svg(title)
    every = [np.asarray(layer.points, np.float64).reshape(-1, 2) for layer in layers]
    outlines = [np.asarray(line.points, np.float64).reshape(-1, 2) for line in lines]
    box = _Box(np.vstack([*every, *outlines, np.zeros((0, 2))]))
    for layer, points in zip(layers, every, strict=True):
        group = ET.SubElement(svg, "g", {"class": "layer", "data-label": layer.label,
                                         "data-count": str(len(points))})
        style = _marker_style(layer)
        for x, y in box(_thin(points)) if len(points) else ():
            ET.SubElement(group, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", **style})
    for line, points in zip(lines, outlines, strict=True):
        xy = box(points)
        tag = "polygon" if line.closed else "polyline"
        ET.SubElement(svg, tag, {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in xy),
                                 "fill": "none", "stroke": line.colour, "stroke-width": "1.5",
                                 "data-label": line.label})
    _legend(svg, layers, lines)
    return svg


_MARK = {"r": "4", "stroke": "#333", "stroke-width": "0.5"}  # a curve's mark


def _mark_legend(svg: ET.Element, labels: Sequence[str], *, bottom_left: bool) -> None:
    """Name each mark of a curve beside its own marker, in the corner a falling curve
    leaves free: the bottom left on a log x axis (the curve stays high until near its
    end), else the top right."""
    if not labels:
        return
    width = 26 + 5.8 * max(len(label) for label in labels)  # 11 px text, roughly
    height = 14 * len(labels) + 6
    left = MARGIN + 6 if bottom_left else WIDTH - MARGIN - 6 - width
    top = HEIGHT - MARGIN - 6 - height if bottom_left else MARGIN // 2 + 6
    ET.SubElement(svg, "rect", {"x": f"{left:.1f}", "y": f"{top:.1f}",
                                "width": f"{width:.1f}", "height": str(height),
                                "fill": "#ffffff", "fill-opacity": "0.85", "stroke": "#ddd",
                                "class": "legend"})
    for i, label in enumerate(labels):
        y = top + 14 + 14 * i
        ET.SubElement(svg, "circle", {"cx": f"{left + 10:.1f}", "cy": f"{y - 4:.1f}", **_MARK,
                                      "fill": MARK_COLOURS[i % len(MARK_COLOURS)],
                                      "class": "legend", "data-label": label})
        ET.SubElement(svg, "text", {"x": f"{left + 20:.1f}", "y": f"{y:.1f}",
                                    "font-size": "11", "class": "legend"}).text = label


def _decades(low: float, high: float) -> list[float]:
    """The powers of ten from ``low`` to ``high``."""
    first, last = math.ceil(math.log10(low) - 1e-9), math.floor(math.log10(high) + 1e-9)
    return [10.0 ** k for k in range(first, last + 1)]


def curve_svg(title: str, x: ArrayLike, y: ArrayLike, marks: Sequence[tuple[str, float, float]],
              x_label: str, y_label: str, *, log_x: bool = False) -> ET.Element:
    """A curve y(x) with points ``marks`` (label, x, y) on it, each in a colour of its
    own and named in a legend. ``log_x``: a log10 x axis with a tick at every power of ten (x
    below 1, e.g. n = 0, is drawn at 1), so that marks at small x stand apart."""
    svg = _svg(title)
    svg.set("data-x-scale", "log" if log_x else "linear")
    xs, ys = np.asarray(x, np.float64), np.asarray(y, np.float64)
    mark_x = np.asarray([m[1] for m in marks], np.float64)
    mark_y = np.asarray([m[2] for m in marks], np.float64)

    def view_x(values: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.log10(np.maximum(values, 1.0)) if log_x else values

    box = _Box(np.column_stack([view_x(np.r_[xs, mark_x]), np.r_[ys, mark_y]]))
    low, high = float(xs.min()), float(xs.max())
    ticks = _decades(max(low, 1.0), high) if log_x else [low, high]
    for value in ticks:
        (px, _), = box(np.array([[view_x(np.array([value]))[0], ys.min()]]))
        anchor = "middle" if log_x else ("start" if value == low else "end")
        if log_x:
            ET.SubElement(svg, "line", {"x1": f"{px:.1f}", "x2": f"{px:.1f}",
                                        "y1": str(MARGIN // 2), "y2": str(HEIGHT - MARGIN),
                                        "stroke": "#eee", "class": "tick"})
        ET.SubElement(svg, "text", {"x": f"{px:.1f}", "y": str(HEIGHT - MARGIN + 14),
                                    "font-size": "10", "text-anchor": anchor,
                                    "class": "x-tick"}).text = f"{value:,.0f}"
    xy = box(np.column_stack([view_x(xs), ys]))
    ET.SubElement(svg, "polyline", {"points": " ".join(f"{a:.1f},{b:.1f}" for a, b in xy),
                                    "fill": "none", "stroke": "#1f77b4", "stroke-width": "1.5"})
    for i, (label, mx, my) in enumerate(marks):
        (px, py), = box(np.array([[view_x(np.array([mx]))[0], my]]))
        ET.SubElement(svg, "circle", {"cx": f"{px:.1f}", "cy": f"{py:.1f}", **_MARK,
                                      "fill": MARK_COLOURS[i % len(MARK_COLOURS)],
                                      "data-label": label})
    _mark_legend(svg, [m[0] for m in marks], bottom_left=log_x)
    ET.SubElement(svg, "text", {"x": str(WIDTH // 2), "y": str(HEIGHT - 6), "font-size": "12",
                                "text-anchor": "middle"}).text = (
        x_label + (" (log scale)" if log_x else ""))
    ET.SubElement(svg, "text", {"x": "12", "y": str(HEIGHT // 2), "font-size": "12",
                                "transform": f"rotate(-90 12 {HEIGHT // 2})",
                                "text-anchor": "middle"}).text = y_label
    low_y, high_y = float(ys.min()), float(ys.max())
    for value in (low_y, (low_y + high_y) / 2, high_y):
        (_, py), = box(np.array([[view_x(np.array([max(low, 1.0)]))[0], value]]))
        ET.SubElement(svg, "text", {"x": str(MARGIN - 4), "y": f"{py + 4:.1f}", "font-size": "10",
                                    "text-anchor": "end"}).text = f"{value:.2g}"
    return svg
