"""The stopping panel shows the recall estimate and marks the recommended rule; the wheel
over its recall curve scrolls the side, never zooms the plot."""

from PySide6.QtCore import Qt

from litqeval_gui.core.screening.stopping.panel import default_rules, panel
from litqeval_gui.gui.screens.screening.progress import ProgressPanel
from litqeval_gui.metrics.stopping import RandomSampleStop
from tests.support.screening_screen import settle


def _rule_texts(view: ProgressPanel) -> list[str]:
    return [label.text() for label in view.rule_labels]


def test_ranked_phase_says_when_to_switch_and_has_no_estimate(qtbot, shot):
    view = ProgressPanel()
    qtbot.addWidget(view)
    view.resize(420, 560)
    view.show_panel(panel([1] * 40 + [0] * 300, 1000, default_rules()))
    texts = _rule_texts(view)
    assert texts[0].startswith("<b>Random-sample stop</b> · certified: … keep screening")
    assert "switch to random = now" in texts[0]  # the critical depth is reached
    assert texts[1].startswith("<b>Point process</b> · model-based: ")
    assert texts[6].startswith("<b>Hypergeometric test (recommended)</b> · heuristic: ")
    assert view.headline.text().startswith(
        "<b>Recommended: Hypergeometric test</b> (heuristic): <b>… keep screening</b>")
    assert "why: 0 relevant in the 300 records read as a sample: p = " in view.headline.text()
    assert "random screening" in view.estimate.text()
    assert sum("(recommended)" in text for text in texts) == 1
    shot(view, "stopping_panel_ranked")


def test_random_phase_shows_the_estimate_with_its_interval(qtbot, shot):
    # 40 relevant in 300 ranked records, then 100 random ones with 2 relevant: about 78 %
    labels = [1] * 40 + [0] * 260 + [1, 1] + [0] * 98
    rules = [RandomSampleStop(random_from=300), *default_rules()[1:]]
    view = ProgressPanel()
    qtbot.addWidget(view)
    view.resize(420, 560)
    view.show_panel(panel(labels, 1000, rules))
    assert view.estimate.text().startswith("<b>Recall</b>: about 78% found (")
    assert "phase = random, random remaining = " in _rule_texts(view)[0]
    shot(view, "stopping_panel_random_phase")


def test_the_evidence_reads_well_in_the_dark_theme(qtbot, shot):
    """The rules' evidence was written in a fixed grey (#808080): on the dark window it
    barely showed. Now it takes the palette's quiet text colour, which the dark theme
    keeps readable, like the rules' own text."""
    import re

    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from litqeval_gui.gui import theme
    from tests.gui.themed import shoot_both

    def make() -> ProgressPanel:
        view = ProgressPanel()
        qtbot.addWidget(view)
        view.resize(420, 560)
        view.show_panel(panel([1] * 40 + [0] * 300, 1000, default_rules()))
        return view

    app = QApplication.instance()
    style, palette = app.style().name(), app.palette()
    try:
        theme.use_fusion(True)
        view = make()
        colours = [QColor(c) for text in _rule_texts(view)
                   for c in re.findall(r"color:\s*([#\w]+)", text)]
        quiet = QApplication.palette().color(QPalette.ColorRole.PlaceholderText)
        assert colours and all(c == quiet for c in colours)
    finally:
        app.setStyle(style)
        app.setPalette(palette)
    shoot_both(shot, make, "stopping_panel")


def _wheel(widget, steps: int = 5, delta: int = -120) -> None:
    """``steps`` wheel notches (down for a negative ``delta``) over ``widget``'s centre."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    at = QPointF(widget.rect().center())
    for _ in range(steps):
        QApplication.sendEvent(widget, QWheelEvent(
            at, QPointF(widget.mapToGlobal(at)), QPoint(), QPoint(0, delta),
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase, False))


def test_the_wheel_over_the_recall_curve_scrolls_the_side_and_never_zooms(qtbot, session,
                                                                          shot):
    """The wheel over the curve in the scrolled Progress side zoomed the plot out to
    negative axes; now the side scrolls and the plot keeps its range, at or above 0."""
    from PySide6.QtWidgets import QScrollArea

    from tests.support.screening_screen import curve_points, screening_view

    view = screening_view(qtbot, session)
    for i in range(6):
        qtbot.keyClick(view, Qt.Key.Key_I if i % 3 == 0 else Qt.Key.Key_E)
    settle(qtbot, session)
    view.refresh_panel()
    qtbot.waitUntil(lambda: len(curve_points(view)[0]) == 7)
    view.resize(1200, 500)  # low: the side scrolls
    scroll = view.side.widget(0)
    assert isinstance(scroll, QScrollArea)
    bar = scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    curve = view.progress.curve
    scroll.ensureWidgetVisible(curve, 0, 0)
    box = curve.getPlotItem().getViewBox()
    curve.grab()  # painted: the automatic range is settled
    before, scrolled_from = box.viewRange(), bar.value()
    assert scrolled_from < bar.maximum()
    manual = []
    box.sigRangeChangedManually.connect(manual.append)
    _wheel(curve.viewport())
    curve.grab()
    assert manual == [] and box.viewRange() == before
    assert min(before[0][0], before[1][0]) >= 0  # no negative axis
    assert bar.value() > scrolled_from  # the side scrolled instead
    assert box.state["autoRange"] == [True, True]  # still following the curve
    shot(view, "screening_side_after_wheel")


def test_the_side_curve_is_not_zoomed_or_panned_and_clamps_at_zero(qtbot):
    """Outside a scroll area the wheel is left to the parent; the mouse neither zooms nor
    pans, and a range asked below 0 is clamped."""
    from litqeval_gui.gui.screens.screening.progress import SideCurve

    curve = SideCurve()
    qtbot.addWidget(curve)
    curve.resize(300, 200)
    curve.set_curve([0, 1, 2, 3], [0, 1, 1, 2])
    curve.show()
    box = curve.getPlotItem().getViewBox()
    assert box.state["mouseEnabled"] == [False, False]
    curve.grab()
    before = box.viewRange()
    _wheel(curve.viewport())
    curve.grab()
    assert box.viewRange() == before
    box.setRange(xRange=(-5, 3), yRange=(-2, 2), padding=0)
    assert box.viewRange()[0][0] >= 0 and box.viewRange()[1][0] >= 0
