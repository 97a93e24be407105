"""Numbers somebody explains (issue 24 §5): the help page explains every number the app
shows with its formula in words and its source; every evaluation control and column says
what it does, not its own name again."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from litqeval_gui.core.evaluation.settings import EvaluationSettings
from litqeval_gui.gui.help import HelpDialog, help_html
from litqeval_gui.gui.screens.evaluation.adapter import METHOD_NAMES, table_headers
from litqeval_gui.gui.screens.evaluation.parameters import ParameterBar
from litqeval_gui.gui.screens.evaluation.table import ComparisonModel
from tests.gui.themed import shoot_both


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text).replace("&lt;", "<").replace("&gt;", ">") \
        .replace("&amp;", "&").replace("&#x27;", "'").replace("&quot;", '"')


def test_the_help_page_explains_every_number_with_its_source():
    page = _plain(help_html([]))
    assert "SPEC.md" not in page and "docs/metrics.md" in page
    for _head, tip in table_headers():
        assert tip in page  # every column of the evaluation, as its tooltip says it
    for needle in (
            "λ(n) = (1 − (n/α)^p)^q", "F2 = (1 + β²)·P·λ(n)·R", "Wilson",
            "P = 1.000 and n = the list's size",  # "Cluster P = 1.000" with n = 2 151
            "Model trust", "Kendall's τ", "k-fold", "“F1: excluded 0.93, included 0.25” means",
            "nP@r%", "WSS@r%", "Knee", "Hypergeometric test",
            "nrels(k)", "k_cr", "Low-yield correction", "E (effort)", "R (recall)", "τ_AP"):
        assert needle in page, needle
    for symbol in ("w", "W", "t", "l"):  # the pooling parameters, each its own row
        assert re.search(rf"\n?{symbol}\s*(depths|windows|the rate|how many)", page), symbol
    for source in ("[LitQEval]", "[TAR]", "[RelevAI]", "[Pooling]"):
        assert page.count(source) >= 2, source  # cited at a number and listed


def test_every_evaluation_control_says_what_it_does(qtbot):
    bar = ParameterBar(EvaluationSettings())
    qtbot.addWidget(bar)
    controls = [bar.from_core, bar.theta, *bar.numbers.values(), bar.backend, bar.map_method]
    captions = [w for w in bar.findChildren(QLabel) if w.text()]
    assert len(captions) == len(controls) - 1  # "θ from core" is its own caption
    for widget in [*controls, *captions]:
        tip = _plain(widget.toolTip())
        assert len(tip) > 40 and ": " in tip, (widget, tip)  # "name: what it does"
    assert "(1 − (n/α)^p)^q" in _plain(bar.numbers["alpha"].toolTip())
    assert "Khachiyan" in _plain(bar.numbers["mvee_tol"].toolTip())


def test_column_tooltips_are_not_circular():
    model = ComparisonModel()
    for section, (head, _tip) in enumerate(model.headers):
        tip = _plain(model.headerData(section, Qt.Orientation.Horizontal,
                                      Qt.ItemDataRole.ToolTipRole))
        name = head.replace("\n", " ")
        assert len(tip) > 40, name
        for method_name in METHOD_NAMES.values():  # the old "SP cos: semantic precision"
            assert not re.fullmatch(rf"{method_name}: [a-z ]+( \(.*\))?", tip), tip
    tips = {head: tip for head, tip in model.headers}
    assert "centroid" in tips["cos\nP"] and "θ" in tips["cos\nP"]
    assert "P = 1.000" in tips["cluster\nP"]


@pytest.mark.parametrize("size", [(1200, 760), (1600, 1000)])
def test_help_and_controls_in_both_themes(qtbot, shot, size):
    def help_dialog() -> QWidget:
        dialog = HelpDialog([("F1", "LitQEval GUI Help")])
        qtbot.addWidget(dialog)
        dialog.resize(min(720, size[0]), size[1] - 100)
        assert dialog.browser.find("Query evaluation (Topic")  # scrolled to the new part
        return dialog

    def controls() -> QWidget:
        bar = ParameterBar(EvaluationSettings())
        qtbot.addWidget(bar)
        bar.resize(size[0] - 260, bar.sizeHint().height())
        return bar

    def tooltip() -> QWidget:
        label = QLabel(ComparisonModel().headerData(7, Qt.Orientation.Horizontal,
                                                    Qt.ItemDataRole.ToolTipRole))
        label.setWordWrap(True)
        label.setFixedWidth(420)
        qtbot.addWidget(label)
        return label

    shoot_both(shot, help_dialog, f"help_{size[0]}")
    shoot_both(shot, controls, f"evaluation_controls_{size[0]}")
    shoot_both(shot, tooltip, f"cluster_tooltip_{size[0]}")
