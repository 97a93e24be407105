"""The app's save dialogs refuse a special file as the command line does: one message,
and the FIFO or the link to /dev/null stays what it was (the plot saver, whose plots
never import core, checks the target before drawing)."""

import os
import stat

from PySide6.QtWidgets import QFileDialog

from litqeval_gui.gui import plot_saving
from litqeval_gui.gui.export_dialog import export_dialog
from litqeval_gui.gui.settings import Settings


def test_a_plot_is_not_drawn_onto_a_fifo(qapp, tmp_path, monkeypatch, shown_errors):
    fifo, saved = tmp_path / "plot.png", []
    os.mkfifo(fifo)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(fifo), ""))
    plot_saving.ask_and_save_plot(None, "x", saved.append)
    assert saved == []
    assert [error[:2] for error in shown_errors] == [
        ("The plot was not saved", f"{fifo} is not a regular file (a FIFO); choose another "
                                   "file name")]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_an_export_onto_a_link_to_dev_null_is_refused(qapp, tmp_path, monkeypatch,
                                                      shown_errors, project_path):
    link = tmp_path / "out.ris"
    link.symlink_to("/dev/null")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(link), ""))
    assert export_dialog(None, project_path, "x", list, Settings(tmp_path)) is None
    assert [error[:2] for error in shown_errors] == [
        ("Export failed", f"{link} is a link to /dev/null, which is not a regular file (a "
                          "character device); choose another file name")]
    assert link.is_symlink()
