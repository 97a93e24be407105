"""The one plot save dialog (gui/plot_saving.py) used by every screen's plots."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from litqeval_gui.gui import plot_saving
from litqeval_gui.gui.plots.export import save_plot


@pytest.mark.parametrize(("name", "chosen", "expected"), [
    ("a.svg", "PNG image (*.png)", "a.svg"),   # the typed suffix decides
    ("a.PNG", "SVG vector image (*.svg)", "a.PNG"),
    ("a", "SVG vector image (*.svg)", "a.svg"),  # else the chosen filter's
    ("a.txt", "PNG image (*.png)", "a.png"),
])
def test_the_typed_suffix_or_the_chosen_filter_picks_the_format(name, chosen, expected):
    assert plot_saving.plot_target(name, chosen) == Path(expected)


def test_a_plot_is_saved_where_the_user_said_in_the_format_chosen(qtbot, tmp_path, monkeypatch):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.plot([0, 1, 2], [1, 3, 2])
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: asked.append(a[2]) or (str(tmp_path / "fig"),
                                                               "SVG vector image (*.svg)"))
    plot_saving.ask_and_save_plot(plot, "depth-T", lambda path: save_plot(plot, path))
    assert asked == ["depth-T.png"]
    assert ET.parse(tmp_path / "fig.svg").getroot().tag.endswith("svg")
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "fig.png"), "SVG vector image (*.svg)"))
    plot_saving.ask_and_save_plot(plot, "depth-T", lambda path: save_plot(plot, path))
    assert not QImage(str(tmp_path / "fig.png")).isNull()


def test_a_failed_save_is_one_message_and_a_cancel_does_nothing(qtbot, tmp_path, monkeypatch):
    shown, saved = [], []
    monkeypatch.setattr(plot_saving, "show_error",
                        lambda parent, title, exc: shown.append((title, str(exc))))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    plot_saving.ask_and_save_plot(None, "x", saved.append)
    assert saved == [] and shown == []

    def full_disk(path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "x.png"), "PNG image (*.png)"))
    plot_saving.ask_and_save_plot(None, "x", full_disk)
    assert shown == [("The plot was not saved", "[Errno 28] No space left on device")]
