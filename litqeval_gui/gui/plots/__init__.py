"""Plots: pyqtgraph widgets over plain arrays. They never import ``core`` (a contract
in pyproject.toml): a screen reads its numbers through ``core`` and hands the arrays
here. Every plot exports PNG and SVG through :func:`~litqeval_gui.gui.plots.export.save_plot`.
"""
