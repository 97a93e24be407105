"""The evaluation screen: one topic's comparison table, landscape, threshold, decay and
overlap (see :mod:`.view`); :mod:`.adapter` turns the engine's results into what the
widgets draw."""

from litqeval_gui.gui.screens.evaluation.view import EvaluationView

__all__ = ["EvaluationView"]
