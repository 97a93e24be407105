"""Small static SVG plots for the evaluation report, written with ``xml.etree`` (no
plotting library: matplotlib is not a dependency). Plain arrays in, an ``<svg>``
element out; points are mapped linearly into the plot box (y grows upwards)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH, HEIGHT, MARGIN = 480, 360, 36
MAX_POINTS = 4000  # per layer: more are thinned to an even sample (the caption says so)


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


def _legend(svg: ET.Element, entries: Sequence[tuple[str, str]]) -> None:
    for i, (label, colour) in enumerate(entries):
        y = MARGIN // 2 + 12 + 14 * i
        ET.SubElement(svg, "circle", {"cx": str(WIDTH - MARGIN - 120), "cy": str(y - 4),
                                      "r": "4", "fill": colour})
        ET.SubElement(svg, "text", {"x": str(WIDTH - MARGIN - 110), "y": str(y),
                                    "font-size": "11"}).text = label


def scatter_svg(title: str, layers: Sequence[Layer], lines: Sequence[Line] = ()) -> ET.Element:
    """A scatter plot of ``layers`` (drawn in order) with ``lines`` on top and a legend."""
    svg = _svg(title)
    every = [np.asarray(layer.points, np.float64).reshape(-1, 2) for layer in layers]
    outlines = [np.asarray(line.points, np.float64).reshape(-1, 2) for line in lines]
    box = _Box(np.vstack([*every, *outlines, np.zeros((0, 2))]))
    for layer, points in zip(layers, every, strict=True):
        group = ET.SubElement(svg, "g", {"class": "layer", "data-label": layer.label,
                                         "data-count": str(len(points))})
        style = ({"fill": "none", "stroke": layer.colour} if layer.outline
                 else {"fill": layer.colour})
        for x, y in box(_thin(points)) if len(points) else ():
            ET.SubElement(group, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}",
                                            "r": str(layer.radius), **style})
    for line, points in zip(lines, outlines, strict=True):
        xy = box(points)
        tag = "polygon" if line.closed else "polyline"
        ET.SubElement(svg, tag, {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in xy),
                                 "fill": "none", "stroke": line.colour, "stroke-width": "1.5",
                                 "data-label": line.label})
    _legend(svg, [(layer.label, layer.colour) for layer in layers]
            + [(line.label, line.colour) for line in lines])
    return svg


def curve_svg(title: str, x: ArrayLike, y: ArrayLike, marks: Sequence[tuple[str, float, float]],
              x_label: str, y_label: str) -> ET.Element:
    """A curve y(x) with labelled points ``marks`` (label, x, y) on it."""
    svg = _svg(title)
    xs, ys = np.asarray(x, np.float64), np.asarray(y, np.float64)
    box = _Box(np.column_stack([np.r_[xs, [m[1] for m in marks]], np.r_[ys, [m[2] for m in marks]]]))
    xy = box(np.column_stack([xs, ys]))
    ET.SubElement(svg, "polyline", {"points": " ".join(f"{a:.1f},{b:.1f}" for a, b in xy),
                                    "fill": "none", "stroke": "#1f77b4", "stroke-width": "1.5"})
    for i, (label, mx, my) in enumerate(marks):
        (px, py), = box(np.array([[mx, my]]))
        ET.SubElement(svg, "circle", {"cx": f"{px:.1f}", "cy": f"{py:.1f}", "r": "4",
                                      "fill": "#d62728", "data-label": label})
        ET.SubElement(svg, "text", {"x": f"{px + 6:.1f}", "y": f"{py + 14 * (i + 1):.1f}",
                                    "font-size": "11"}).text = label
    ET.SubElement(svg, "text", {"x": str(WIDTH // 2), "y": str(HEIGHT - 6), "font-size": "12",
                                "text-anchor": "middle"}).text = x_label
    ET.SubElement(svg, "text", {"x": "12", "y": str(HEIGHT // 2), "font-size": "12",
                                "transform": f"rotate(-90 12 {HEIGHT // 2})",
                                "text-anchor": "middle"}).text = y_label
    for value, anchor in ((xs.min(), "start"), (xs.max(), "end")):
        (px, _), = box(np.array([[value, ys.min()]]))
        ET.SubElement(svg, "text", {"x": f"{px:.1f}", "y": str(HEIGHT - MARGIN + 14),
                                    "font-size": "10", "text-anchor": anchor}).text = f"{value:,.0f}"
    for value in (ys.min(), ys.max()):
        (_, py), = box(np.array([[xs.min(), value]]))
        ET.SubElement(svg, "text", {"x": str(MARGIN - 4), "y": f"{py + 4:.1f}", "font-size": "10",
                                    "text-anchor": "end"}).text = f"{value:g}"
    return svg
