"""Simulation mode from the screening screen: a background job with progress and Cancel,
the band over seeds, the measures' spread and the stopping rules as the core computes
them, and the plot saved as PNG and SVG."""

import numpy as np
from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.simulation.simulation_band import LabelSource, simulate_screening
from litqeval_gui.metrics.stopping import RULES
from tests.support.screening import LABEL_COLUMN
from tests.support.screening_screen import screening_view


def _dialog(qtbot, view):
    view.simulate_button.click()
    dialog = view.simulation
    assert dialog is not None and dialog.isVisible()
    wanted = LabelSource("column", LABEL_COLUMN)
    dialog.sources.setCurrentIndex(next(i for i in range(dialog.sources.count())
                                        if dialog.sources.itemData(i) == wanted))
    return dialog


def test_a_simulation_runs_in_the_background_and_shows_the_band(qtbot, session, made,
                                                                tmp_path, monkeypatch, shot):
    view = screening_view(qtbot, session)
    dialog = _dialog(qtbot, view)
    assert [dialog.sources.itemData(i) for i in range(dialog.sources.count())] == [
        LabelSource("column", LABEL_COLUMN)]  # no core set, no other screening
    dialog.model.setCurrentIndex(dialog.model.findData("nb"))
    dialog.prior_excluded.setValue(2)
    dialog.seed.setValue(3)
    dialog.runs.setValue(3)
    dialog.run_button.click()
    assert dialog.job is not None and dialog.cancel_button.isEnabled()
    assert not dialog.run_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=60_000)
    expected = run_job(simulate_screening(session.project, view.screening,
                                          LabelSource("column", LABEL_COLUMN), model="nb",
                                          prior_included=1, prior_excluded=2, seed=3, runs=3))
    band = dialog.band
    assert band.seeds == (3, 4, 5) and np.array_equal(band.found, expected.found)
    median, low, high = expected.curve()
    shown = [dialog.plot.curve.getData()[1], dialog.plot.band_low.getData()[1],
             dialog.plot.band_high.getData()[1]]
    assert all(np.array_equal(a, b) for a, b in zip(shown, (median, low, high), strict=True))
    wss = sorted(expected.measures["wss_at_95"])
    text = f"{wss[1]:.3f}" + ("" if wss[0] == wss[2] else f" ({wss[0]:.3f}–{wss[2]:.3f})")
    assert f"WSS@95: {text}" in dialog.results_text()
    names = list(RULES)
    assert dialog.stops.rowCount() == len(RULES) and \
        dialog.stops.item(names.index("knee"), 0).text() == "Knee method"
    assert dialog.stops.item(0, 0).text() == "Random-sample stop"
    knee = [run["stopped_at"] for run in expected.stopping["knee"]]
    assert dialog.stops.item(names.index("knee"), 3).text() == \
        f"{sum(s is not None for s in knee)} of 3"
    dialog.band_choice.setCurrentIndex(2)  # the 25th–75th percentile band, no new run
    assert np.array_equal(dialog.plot.band_low.getData()[1], expected.curve(25, 75)[1])
    shot(dialog, "screening_simulation")
    for suffix, chosen in ((".png", "PNG image (*.png)"), (".svg", "SVG vector image (*.svg)")):
        target = tmp_path / f"band{suffix}"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *args, t=target, c=chosen: (str(t), c)))
        dialog.save_button.click()
        assert target.stat().st_size > 1000
    assert (tmp_path / "band.svg").read_text().lstrip().startswith("<?xml")


def test_cancel_stops_the_simulation_and_keeps_the_window_usable(qtbot, session, made):
    view = screening_view(qtbot, session)
    dialog = _dialog(qtbot, view)
    dialog.runs.setValue(50)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: "seed" in dialog.status.text(), timeout=30_000)
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)
    assert dialog.band is None and dialog.status.text().startswith("Cancelled")
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()


def test_closing_the_screen_cancels_a_running_simulation(qtbot, session, made):
    view = screening_view(qtbot, session)
    dialog = _dialog(qtbot, view)
    dialog.runs.setValue(50)
    dialog.run_button.click()
    handle = dialog.job
    view.close()
    assert handle.wait(30_000) and dialog.job is None
