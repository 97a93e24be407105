"""The stopping panel shows the recall estimate and marks the recommended rule."""

from litqeval_gui.core.screening.stopping.panel import default_rules, panel
from litqeval_gui.gui.screens.screening.progress import ProgressPanel
from litqeval_gui.metrics.stopping import RandomSampleStop


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
