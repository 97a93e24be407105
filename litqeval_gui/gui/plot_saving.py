"""Ask where to save a plot and save it: the one save dialog of every plot in the app.

A name ending in ``.png`` or ``.svg`` decides the format; any other name gets the chosen
filter's suffix. A failure (a folder that cannot be written, a full disk) is one message
through :func:`~litqeval_gui.gui.notify.show_error`, and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.exporting import check_target
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plots.export import FORMATS

PLOT_FILTER = ";;".join(f"{name} (*{suffix})" for suffix, name in FORMATS.items())


def plot_target(name: str, chosen_filter: str) -> Path:
    """The file for ``name`` typed in the dialog under ``chosen_filter``."""
    target = Path(name)
    if target.suffix.lower() in FORMATS:
        return target
    return target.with_suffix(".svg" if "svg" in chosen_filter.lower() else ".png")


def ask_and_save_plot(parent: QWidget, default_name: str, save: Callable[[Path], object],
                      title: str = "Save Plot") -> None:
    """Ask for a PNG/SVG file (``default_name`` without suffix) and call ``save(path)``."""
    name, chosen = QFileDialog.getSaveFileName(parent, title, f"{default_name}.png", PLOT_FILTER)
    if not name:
        return
    try:
        target = plot_target(name, chosen)
        check_target(target)  # a folder, a FIFO, a device, a database: refused in one line
        save(target)
    except (OSError, ValueError, LitqError) as exc:
        show_error(parent, "The plot was not saved", exc)
