"""Evaluating result lists against a topic's core set (recall today; embeddings,
projections and the evaluation report join this package as their own modules)."""

from litqeval_gui.core.evaluation.recall import (
    ListRecall,
    MissedRecord,
    RecallReport,
    recall_report,
)

__all__ = ["ListRecall", "MissedRecord", "RecallReport", "recall_report"]
