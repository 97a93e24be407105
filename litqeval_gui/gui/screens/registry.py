"""Every screen the main window can open in a tab: key → class ``(session, target)``."""

from __future__ import annotations

from litqeval_gui.gui.screens.evaluation import EvaluationView
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.records import RecordsView
from litqeval_gui.gui.screens.screening import ScreeningView

SCREENS = {
    RecordsView.key: RecordsView,
    EvaluationView.key: EvaluationView,
    PoolingView.key: PoolingView,
    ScreeningView.key: ScreeningView,
}
