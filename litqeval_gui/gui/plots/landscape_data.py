"""What the evaluation landscape draws, as plain arrays, and how points are classed.

One :class:`LandscapeData` holds every record on the topic's 2D map (the union of the
result lists and the core set) and, per result list, a :class:`ListLayer`: which rows
it retrieved, which of those each method finds semantically relevant, and its MVEE
ellipse and hull on the map. :func:`point_classes` turns one or two layers and a
method into one class per row — the colour the landscape gives it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.metrics.geometry import Ellipsoid

METHODS = {"cos": "cosine", "cluster": "best cluster", "mvee": "MVEE", "hull": "convex hull"}

# point classes (0 = not drawn); a higher class is drawn on top
HIDDEN, RETRIEVED, RELEVANT_A, RELEVANT_B, RELEVANT_BOTH = range(5)


def _mask(values, n: int, what: str) -> NDArray[np.bool_]:
    mask = np.asarray(values, dtype=bool)
    if mask.shape != (n,):
        raise ValueError(f"{what} must be a mask of {n} rows, got shape {mask.shape}")
    return mask


@dataclass(frozen=True, eq=False)
class ListLayer:
    """One result list on the map.

    ``retrieved``: rows the list retrieved; ``relevant[method]``: rows the method finds
    relevant (methods of :data:`METHODS`; a missing method finds nothing);
    ``ellipse``: the MVEE on the map as (centre δ, shape A), inside iff
    (p−δ)ᵀA(p−δ) ≤ 1; ``hull``: the hull's vertices in drawing order (k×2).
    """

    name: str
    retrieved: NDArray[np.bool_]
    relevant: Mapping[str, NDArray[np.bool_]] = field(default_factory=dict)
    ellipse: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
    hull: NDArray[np.float64] | None = None

    def relevant_rows(self, method: str, n: int) -> NDArray[np.bool_]:
        found = self.relevant.get(method)
        return np.zeros(n, bool) if found is None else found & self.retrieved

    def ellipse_outline(self, points: int = 256) -> NDArray[np.float64] | None:
        """The ellipse's boundary (points×2), or None without an ellipse."""
        if self.ellipse is None:
            return None
        centre, shape = self.ellipse
        return Ellipsoid(np.asarray(centre, float), np.asarray(shape, float)).boundary(points)

    def hull_outline(self) -> NDArray[np.float64] | None:
        """The hull's vertices closed into a ring, or None without a hull."""
        if self.hull is None or len(self.hull) == 0:
            return None
        vertices = np.asarray(self.hull, dtype=float)
        return np.vstack([vertices, vertices[:1]])


@dataclass(frozen=True, eq=False)
class LandscapeData:
    """Every record on the map: ``xy`` (N×2), record ``ids``, ``titles``, ``is_core``
    (core records, retrieved or not), the result lists, and the map's fidelity."""

    xy: NDArray[np.float64]
    ids: NDArray[np.int64]
    titles: Sequence[str]
    is_core: NDArray[np.bool_]
    lists: tuple[ListLayer, ...] = ()
    fidelity: float | None = None

    def __post_init__(self) -> None:
        xy = np.asarray(self.xy, dtype=np.float64)
        if xy.ndim != 2 or xy.shape[1] != 2:
            raise ValueError(f"xy must be N×2, got shape {xy.shape}")
        n = xy.shape[0]
        ids = np.asarray(self.ids, dtype=np.int64)
        if ids.shape != (n,) or len(self.titles) != n:
            raise ValueError(f"{n} points need {n} ids and {n} titles")
        object.__setattr__(self, "xy", xy)
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "is_core", _mask(self.is_core, n, "is_core"))
        layers = []
        for layer in self.lists:
            relevant = {m: _mask(v, n, f"{layer.name}: relevant[{m}]")
                        for m, v in layer.relevant.items()}
            unknown = set(relevant) - set(METHODS)
            if unknown:
                raise ValueError(f"unknown method(s) {sorted(unknown)}; use {list(METHODS)}")
            layers.append(ListLayer(layer.name, _mask(layer.retrieved, n, layer.name),
                                    relevant, layer.ellipse, layer.hull))
        object.__setattr__(self, "lists", tuple(layers))

    def __len__(self) -> int:
        return self.xy.shape[0]

    @property
    def names(self) -> list[str]:
        return [layer.name for layer in self.lists]

    def layer(self, name: str) -> ListLayer:
        for layer in self.lists:
            if layer.name == name:
                return layer
        raise KeyError(f"no result list {name!r} on this map")


def point_classes(data: LandscapeData, names: Sequence[str], method: str) -> NDArray[np.uint8]:
    """One class per row for the lists ``names`` (one or two) and ``method``:
    RETRIEVED (by any of them, not relevant), RELEVANT_A / RELEVANT_B (relevant in the
    first / second list only), RELEVANT_BOTH, HIDDEN (retrieved by none of them).
    Core records get their class too; the landscape draws their markers on top."""
    if not 1 <= len(names) <= 2:
        raise ValueError("the landscape shows one list, or two overlaid")
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; use {list(METHODS)}")
    n = len(data)
    layers = [data.layer(name) for name in names]
    classes = np.full(n, HIDDEN, np.uint8)
    retrieved = np.logical_or.reduce([layer.retrieved for layer in layers])
    classes[retrieved] = RETRIEVED
    first = layers[0].relevant_rows(method, n)
    second = layers[1].relevant_rows(method, n) if len(layers) == 2 else np.zeros(n, bool)
    classes[first & ~second] = RELEVANT_A
    classes[second & ~first] = RELEVANT_B
    classes[first & second] = RELEVANT_BOTH
    return classes


def core_found(data: LandscapeData, names: Sequence[str]) -> NDArray[np.bool_]:
    """Core rows retrieved by at least one of the lists ``names``."""
    return data.is_core & np.logical_or.reduce([data.layer(n).retrieved for n in names])
