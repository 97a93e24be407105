"""The evaluation landscape with 200 000 points, panned offscreen.

Figure (goal < 33 ms): median frame time while panning — each frame moves the view by
1 % of its width (``ViewBox.translateBy``) and repaints the whole plot (``grab``).
Measured for the landscape as the app shows it (one list, points coloured by method,
core markers), with every overlay on, and for two lists side by side (two maps).

Baseline, timed in the same run on the same points and window: pyqtgraph's own fast
path — one ``ScatterPlotItem`` in pxMode with a per-point brush array (symbols from
its fragment atlas), the same three colours.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from support import figure  # noqa: E402

from litqeval_gui.gui.plots import style  # noqa: E402
from litqeval_gui.gui.plots.landscape import CLASS_COLOURS, LandscapeView, LandscapeWidget  # noqa: E402
from litqeval_gui.gui.plots.landscape_data import point_classes  # noqa: E402
from tests.support.landscape import synthetic_landscape  # noqa: E402

N = 200_000
FRAMES = 40
BASELINE_FRAMES = 12
SIZE = (1000, 700)
GOAL_MS = 33.0


def pan_frames(widget, view_box, frames: int) -> float:
    """Median seconds per frame: translate by 1 % of the width, then repaint."""
    app = QApplication.instance()
    widget.grab()  # first paint (caches) outside the timing
    width = view_box.viewRange()[0][1] - view_box.viewRange()[0][0]
    times = []
    for i in range(frames):
        step = width * 0.01 * (1 if (i // 10) % 2 == 0 else -1)
        start = time.perf_counter()
        view_box.translateBy(x=step)
        widget.grab()
        times.append(time.perf_counter() - start)
        app.processEvents()
    return statistics.median(times)


def main() -> int:
    app = QApplication.instance() or QApplication([])
    start = time.perf_counter()
    data = synthetic_landscape(N, n_core=40, seed=1)
    print(f"synthetic landscape of {N:,} points: {time.perf_counter() - start:.1f} s")

    view = LandscapeView()
    view.resize(*SIZE)
    view.show()
    view.draw(data, ["broad"], "cos")
    ours = pan_frames(view, view.view_box, FRAMES)
    for key in ("cos", "mvee", "hull", "cluster"):
        view.set_overlay(key, True)
    overlays = pan_frames(view, view.view_box, FRAMES)
    view.close()

    widget = LandscapeWidget()
    widget.resize(SIZE[0] * 1.4, SIZE[1])
    widget.show()
    widget.set_data(data)
    widget.compare("narrow", side_by_side=True)
    side = pan_frames(widget, widget.views[0].view_box, FRAMES)
    widget.close()

    classes = point_classes(data, ["broad"], "cos")
    shown = classes > 0
    brushes = np.array([pg.mkBrush(c) for c in CLASS_COLOURS], dtype=object)
    plot = style.ThemedPlot()
    plot.resize(*SIZE)
    plot.show()
    scatter = pg.ScatterPlotItem(x=data.xy[shown, 0], y=data.xy[shown, 1], pxMode=True, size=5,
                                 pen=None, brush=list(brushes[classes[shown] - 1]))
    plot.addItem(scatter)
    baseline = pan_frames(plot, plot.getPlotItem().getViewBox(), BASELINE_FRAMES)
    plot.close()

    print(f"points drawn (one list): {shown.sum():,}; frames: {FRAMES} "
          f"(baseline {BASELINE_FRAMES}); window {SIZE[0]}×{SIZE[1]}")
    print(f"baseline: ScatterPlotItem + brush array   {baseline * 1000:8.1f} ms/frame")
    for label, seconds in (("landscape, one list", ours),
                           ("landscape, every overlay on", overlays),
                           ("two lists side by side", side)):
        print(f"{label:<40} {seconds * 1000:8.1f} ms/frame   "
              f"baseline / this {baseline / seconds:6.1f} x")
        figure(f"pan frame, {label}", f"{seconds * 1000:.1f} ms (baseline / this "
               f"{baseline / seconds:.1f}x)", f"< {GOAL_MS:.0f} ms", seconds * 1000 < GOAL_MS)
    worst = max(ours, overlays, side) * 1000
    print(f"goal (< {GOAL_MS:.0f} ms per frame):", "met" if worst < GOAL_MS else "NOT met")
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
