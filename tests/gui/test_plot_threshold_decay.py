"""Threshold analysis, the decay curve and the F-beta component panels."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF, QSizeF
from PySide6.QtGui import QImage

from litqeval_gui.gui.plots.decay import DecayPlot, FBetaComponents, paper_panels, place_labels
from litqeval_gui.gui.plots.threshold import ThresholdPlot
from litqeval_gui.metrics.semantic import Scoring, threshold_analysis
from tests.support.plots import tick_values

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
    assert threshold.best_label.text == "best θ = 0.50, F₂ = 0.700"
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
    assert not plot.log_n  # a list's n beyond α / 10: the linear axis
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


# -- the best θ's readout; the threshold on a case computed by hand ------------------------

def _unit(cos: float) -> list[float]:
    return [cos, float(np.sqrt(1 - cos**2))]


# E_C: four core records mirrored about the x axis, so the centroid is the x axis and a
# record's cosine to it is its first coordinate; R: two of them (cos 0.9, 0.7) and two
# other records (cos 0.5, 0.2)
CORE = np.array([_unit(0.9), _unit(0.7), [0.9, -_unit(0.9)[1]], [0.7, -_unit(0.7)[1]]])
RETRIEVED = np.array([_unit(0.9), _unit(0.7), _unit(0.5), _unit(0.2)])
IS_CORE = np.array([True, True, False, False])
GRID = np.linspace(0.0, 1.0, 11)


def _drawn(qtbot, analysis, n_records):
    widget = ThresholdPlot()
    qtbot.addWidget(widget)
    widget.resize(700, 600)
    widget.show()
    widget.set_data(analysis.thetas, analysis.n_relevant, analysis.core_kept, analysis.f_beta,
                    best_theta=analysis.best_theta, n_core=4, n_records=n_records)
    qtbot.wait(50)
    return widget


def test_best_theta_where_the_decay_bites(qtbot):
    """λ(n) = 1 − n/4 (p = q = 1, α = 4), recall over |C| = 4, β = 2. By hand:
    θ ≤ 0.2: n = 4, λ = 0, F₂ = 0; θ ∈ (0.2, 0.5]: SP·λ = 3/4·1/4, Rec 1/2, F₂ = 3/8;
    θ ∈ (0.5, 0.7]: SP·λ = 1/2·1/2, Rec 1/2, F₂ = 5/12; θ ∈ (0.7, 0.9]: SP·λ = 1/4·3/4,
    Rec 1/4, F₂ = 15/64. The best θ of the grid is 0.6, where two records are kept."""
    analysis = threshold_analysis(CORE, RETRIEVED, IS_CORE, 4, GRID,
                                  Scoring(p=1.0, q=1.0, alpha=4.0, beta=2.0))
    assert analysis.best_theta == pytest.approx(0.6)
    assert analysis.best_f_beta == pytest.approx(5 / 12)
    assert analysis.f_beta[[2, 5, 6, 8]] == pytest.approx([0, 3 / 8, 5 / 12, 15 / 64])
    widget = _drawn(qtbot, analysis, n_records=4)
    assert widget.best_label.text == "best θ = 0.60, F₂ = 0.417"  # two of four kept


def test_best_theta_that_keeps_every_record_says_so(qtbot):
    """With the default decay (α = 50 000) four records barely decay: SP·λ and the core
    kept only grow as θ falls, so θ = 0 (every record kept: SP = 1, Rec = 2/4) is the
    best, F₂ = 5λ·½ / (4λ + ½) with λ = (1 − (4/50 000)^1.5)^10."""
    analysis = threshold_analysis(CORE, RETRIEVED, IS_CORE, 4, GRID)
    lam = (1 - (4 / 50_000) ** 1.5) ** 10
    assert analysis.best_theta == 0.0
    assert analysis.best_f_beta == pytest.approx(5 * lam * 0.5 / (4 * lam + 0.5))
    widget = _drawn(qtbot, analysis, n_records=4)
    assert widget.best_label.text == ("best θ = 0.00, F₂ = 0.556: F₂ is highest when every "
                                      "record is kept")
    assert "every record" in widget.best_label.toolTip()
    # the readout is a row of its own: it covers none of the three panels' curves
    label = widget.best_label.sceneBoundingRect()
    assert not any(label.intersects(panel.vb.sceneBoundingRect()) for panel in widget.panels)
    assert label.bottom() <= widget.f_panel.sceneBoundingRect().top() + 1


def test_count_axes_tick_only_whole_numbers(qtbot):
    """Relevant records and core kept are counts: no 0.5 ticks, even for 0 … 3."""
    analysis = threshold_analysis(CORE, RETRIEVED, IS_CORE, 4, GRID)
    widget = _drawn(qtbot, analysis, n_records=4)
    for panel in (widget.relevant_panel, widget.core_panel):
        values = tick_values(panel, "left", 150)
        assert values and all(float(v).is_integer() for v in values)
    # F₂ keeps its fractional ticks
    assert any(not float(v).is_integer() for v in tick_values(widget.f_panel, "left", 150))


# -- decay labels --------------------------------------------------------------------------

def test_decay_labels_of_close_lists_do_not_overlap(qtbot):
    """Three lists with n = 84, 90 and 326 under α = 50 000: a log n axis, the labels'
    rectangles apart from each other and inside the plot, each with a leader line
    from its mark."""
    plot = DecayPlot()
    qtbot.addWidget(plot)
    plot.resize(500, 600)
    plot.show()
    plot.set_decay(1.5, 10, 50_000, {"narrow (PubMed)": 84, "narrow (WoS)": 90,
                                     "broad (Scopus)": 326})
    qtbot.wait(50)
    assert plot.log_n  # every n below α / 10
    assert plot.marks.data["x"].tolist() == pytest.approx(np.log10([84, 90, 326]).tolist())
    rects = [label.sceneBoundingRect() for label in plot.labels]
    area = plot.getViewBox().sceneBoundingRect()
    assert all(area.contains(r) for r in rects)
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    view = plot.getViewBox()
    curve = [view.mapViewToScene(QPointF(x, y)) for x, y in zip(*plot.curve.getData(), strict=True)]
    assert not any(r.contains(point) for r in rects for point in curve)  # nor the curve
    for leader, x, label in zip(plot.leaders, plot.marks.data["x"], rects, strict=True):
        start, end = (view.mapViewToScene(QPointF(px, py))
                      for px, py in zip(*leader.getData(), strict=True))
        assert start.x() == pytest.approx(view.mapViewToScene(QPointF(x, 1.0)).x(), abs=1)
        assert label.adjusted(-1, -1, 1, 1).contains(end)
    plot.set_log_n(False)  # the user's linear axis: still apart
    qtbot.wait(50)
    rects = [label.sceneBoundingRect() for label in plot.labels]
    assert not plot.log_n
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_place_labels_keeps_them_apart_below_left_of_their_marks():
    area = QRectF(0, 0, 400, 300)
    marks = [QPointF(200, 50), QPointF(205, 52), QPointF(380, 290)]
    sizes = [QSizeF(120, 30)] * 3
    first, second, low = place_labels(marks, sizes, area, gap=6)
    assert (first.right(), first.top()) == (194, 56)  # lower left of its mark
    assert second.top() == first.bottom() + 6 and second.right() == 199  # moved past the first
    assert (low.right(), low.bottom()) == (374, 300)  # no room below: moved up inside
    # marks where the lower left has no room and a falling curve (scene y grows with x)
    # runs through the rectangle moved inside: near the bottom, the upper right; in the
    # top left corner, right of the curve, where it is below the label
    flat = [QPointF(x, 290 + (x - 100) * 0.1) for x in range(0, 301)]
    beside, = place_labels([QPointF(100, 290)], [QSizeF(60, 20)], QRectF(0, 0, 300, 300),
                           flat, gap=6)
    assert (beside.left(), beside.bottom()) == (106, 284)
    steep = [QPointF(x, 2 + (x - 2) * 2) for x in range(0, 201)]
    corner, = place_labels([QPointF(2, 2)], [QSizeF(60, 20)], QRectF(0, 0, 300, 300),
                           steep, gap=6)
    assert corner.top() == 8 and corner.left() == 18 + 6  # the curve is at x ≤ 18 above y = 34
