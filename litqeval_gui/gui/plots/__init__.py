"""Plots: pyqtgraph widgets over plain arrays. They never import ``core`` (a contract
in pyproject.toml): a screen reads its numbers through ``core`` and hands the arrays
here; ``metrics`` may be used for pure formulas (λ(n), F_β, an ellipse's outline).
Every plot exports PNG and SVG through :func:`~litqeval_gui.gui.plots.export.save_plot`
(each widget's ``save(path)``).

- ``style``: Okabe–Ito colours, ThemedPlot / ThemedLayout in the palette's colours.
- ``landscape_data`` + ``landscape``: the evaluation map (LandscapeData, LandscapeView,
  LandscapeWidget); ``pointcloud``: the rasterised point layer it draws with.
- ``threshold``: SP_cos threshold analysis; ``decay``: λ(n) and the F_β components.
- ``curves``: recall curve, pooling by depth, effort/reliability frontier.
- ``fidelity``: the projection-fidelity badge.
"""
