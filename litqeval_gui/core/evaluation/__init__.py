"""Evaluating result lists against a topic's core set (SPEC §1).

| module | holds |
|---|---|
| ``recall`` | recall and the missed core per list |
| ``intervals`` | the 95 % Wilson interval of a recall |
| ``vector_store`` | a topic's vectors in the project: embedding sets, resumable ``embed_topic`` |
| ``map_store`` | the topic's shared 2D map in the project, its fidelity, staleness |
| ``settings`` | the topic's evaluation parameters (parameters table) |
| ``inputs`` | the E_C and R rows an evaluation works on |
| ``methods`` | SP cos / cluster / MVEE / hull through ``metrics/``; leave-one-out |
| ``result_store`` | stored outcomes keyed by what they depend on |
| ``compute`` | a topic's embedding, map and methods on plain data (no project: runs anywhere) |
| ``engine`` | ``plan_topic`` (read), ``store_topic`` (write path), ``evaluate_topic`` = both around ``compute`` |
| ``batch`` | ``evaluate_all``: every topic, computed in parallel through ``core/scaleout`` |
| ``comparison`` | the comparison table as rows, CSV, XLSX |
| ``analysis`` | readiness, SP_cos threshold sweeps, the map's titles, the lists' overlap |
| ``report_html``, ``report_svg`` | the self-contained HTML report and its SVG plots |
"""

from litqeval_gui.core.evaluation.recall import (
    ListRecall,
    MissedRecord,
    RecallReport,
    recall_report,
)

__all__ = ["ListRecall", "MissedRecord", "RecallReport", "recall_report"]
