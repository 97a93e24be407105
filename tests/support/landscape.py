"""A seeded synthetic evaluation landscape for plot tests, screenshots and the benchmark.

Records lie in five Gaussian clusters on a 2D map; the core set sits in cluster 0.
List "broad" retrieves most records, list "narrow" mostly cluster 0. Per list the
MVEE and the hull are fitted on its retrieved core points with ``metrics.geometry``
and their relevant masks are those shapes' containment; the cosine set is the points
near the core centre, the best cluster the records of cluster 0.
"""

from __future__ import annotations

import numpy as np

from litqeval_gui.gui.plots.landscape_data import LandscapeData, ListLayer
from litqeval_gui.metrics.geometry import convex_hull, mvee

CENTRES = np.array([[0.0, 0.0], [6.0, 1.0], [-5.0, 4.0], [2.0, -6.0], [-4.0, -4.0]])


def synthetic_landscape(n: int = 2000, n_core: int = 30, seed: int = 0) -> LandscapeData:
    rng = np.random.default_rng(seed)
    cluster = rng.integers(0, len(CENTRES), n)
    cluster[:n_core] = 0
    xy = CENTRES[cluster] + rng.normal(scale=1.3, size=(n, 2))
    is_core = np.zeros(n, bool)
    is_core[:n_core] = True
    near = np.hypot(*xy.T) < 2.0
    lists = []
    for name, keep in (("broad", 0.8), ("narrow", 0.15)):
        retrieved = (rng.random(n) < np.where(cluster == 0, 0.9, keep)) & (np.arange(n) >= 2)
        core_pts = xy[retrieved & is_core]
        ellipse, hull = mvee(core_pts), convex_hull(core_pts)
        lists.append(ListLayer(
            name, retrieved,
            relevant={"cos": near, "cluster": cluster == 0,
                      "mvee": ellipse.contains(xy), "hull": hull.contains(xy)},
            ellipse=(ellipse.centre, ellipse.shape),
            hull=hull.points[hull.vertices]))
    titles = [f"Record {i}: a study of cluster {c}" for i, c in enumerate(cluster)]
    return LandscapeData(xy=xy, ids=np.arange(n) + 1000, titles=titles, is_core=is_core,
                         lists=tuple(lists), fidelity=0.0715)
