"""Threshold analysis, the decay curve and the F-beta component panels."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage

from litqeval_gui.gui.plots.decay import DecayPlot, FBetaComponents, paper_panels
from litqeval_gui.gui.plots.threshold import ThresholdPlot
from litqeval_gui.metrics.semantic import threshold_analysis

THETAS = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


@pytest.fixture
def threshold(qtbot):
    widget = ThresholdPlot()
    qtbot.addWidget(widget)
    widget.resize(600, 500)
    widget.show()
    widget.set_data(THETAS, [100, 60, 20, 5, 0], [10, 10, 9, 4, 0], [0.2, 0.5, 0.7, 0.4, 0.0],
                    best_theta=0.5, n_core=10, current_theta=0.3)
    return widget


def test_threshold_draws_the_sweep_and_marks_the_best(threshold):
    f, relevant, kept = (curve.getData()[1].tolist() for curve in threshold.curves)
    assert f == [0.2, 0.5, 0.7, 0.4, 0.0] and relevant == [100, 60, 20, 5, 0]
    assert kept == [10, 10, 9, 4, 0]
    assert [line.value() for line in threshold.best_lines] == [0.5] * 3
    assert threshold.best_label.toPlainText() == "best θ = 0.50\nF₂ = 0.700"
    assert threshold.candidate == 0.25  # 0.3 snapped to the sweep's nearest θ
    assert threshold.readout.text() == ("θ = 0.25: 60 relevant records, 10 of 10 core records "
                                        "kept, F₂ = 0.500")


def test_use_this_theta_emits_the_candidate(threshold, qtbot):
    threshold.candidate_lines[2].setValue(0.74)  # dragging a line moves all three
    assert [line.value() for line in threshold.candidate_lines] == [0.75] * 3
    with qtbot.waitSignal(threshold.theta_chosen) as chosen:
        threshold.use.click()
    assert chosen.args == [0.75] and threshold.use.text() == "Use θ = 0.75"


def test_threshold_takes_metrics_output_and_exports(qtbot, tmp_path):
    rng = np.random.default_rng(0)
    core = rng.normal(size=(8, 5)) + 2
    retrieved = np.vstack([core[:6], rng.normal(size=(40, 5))])
    is_core = np.arange(46) < 6
    analysis = threshold_analysis(core, retrieved, is_core, 8)
    widget = ThresholdPlot()
    qtbot.addWidget(widget)
    widget.set_data(analysis.thetas, analysis.n_relevant, analysis.core_kept, analysis.f_beta,
                    best_theta=analysis.best_theta, n_core=8)
    assert widget.candidate == pytest.approx(analysis.best_theta)
    with pytest.raises(ValueError, match="one value per θ"):
        widget.set_data(THETAS, [1, 2], [1, 2], [0.1, 0.2], best_theta=0.0, n_core=2)
    widget.resize(500, 500)
    widget.show()
    assert not QImage(str(widget.save(tmp_path / "t.png"))).isNull()
    root = ET.parse(widget.save(tmp_path / "t.svg")).getroot()
    assert sum(el.tag.endswith("path") for el in root.iter()) >= 3  # three curves at least


def test_decay_marks_each_list(qtbot):
    plot = DecayPlot()
    qtbot.addWidget(plot)
    plot.set_decay(1.5, 10, 50_000, {"baseline": 0, "predicted": 25_000, "huge": 60_000})
    x, y = plot.curve.getData()
    assert x[0] == 0 and x[-1] == pytest.approx(55_000)
    assert y[0] == 1.0 and y[-1] == 0.0  # clamped past α
    marks = plot.marks.data
    assert marks["x"].tolist() == [0, 25_000, 60_000]
    # λ(α/2) = (1 − 0.5^1.5)^10 by hand
    assert marks["y"].tolist() == pytest.approx([1.0, (1 - 0.5**1.5) ** 10, 0.0])
    assert [label.toPlainText().split("\n")[0] for label in plot.labels] == [
        "baseline", "predicted", "huge"]
    plot.set_decay(2, 2, 100, {"one": 50})
    assert len(plot.labels) == 1 and plot.legend_names() == ["λ(n), p = 2, q = 2, α = 100"]
    assert plot.marks.data["y"].tolist() == pytest.approx([(1 - 0.25) ** 2])


def test_component_panels(qtbot):
    panels = paper_panels(1.5, 10, 50_000, beta=2)
    assert [p.title for p in panels] == ["β's effect (recall 1)", "precision (λ = 1)",
                                         "decay (recall 1)", "decay (precision 0.5)"]
    beta_effect = panels[0]
    at = int(np.flatnonzero(beta_effect.x == 0.5)[0])
    # F_β at P = 0.5, R = 1: (1+β²)·0.5 / (β²·0.5 + 1) → β=1: 2/3, β=2: 2.5/3
    assert beta_effect.curves["β = 1"][at] == pytest.approx(2 / 3)
    assert beta_effect.curves["β = 2"][at] == pytest.approx(2.5 / 3)
    assert panels[2].curves["precision 1"][0] == pytest.approx(1.0)
    assert panels[2].curves["precision 1"][-1] == 0.0  # λ(α) = 0
    widget = FBetaComponents()
    qtbot.addWidget(widget)
    widget.set_panels(panels)
    assert len(widget.panels) == 4
    assert [len(p.listDataItems()) for p in widget.panels] == [2, 3, 3, 3]
    widget.set_panels(panels[:1])
    assert len(widget.panels) == 1
