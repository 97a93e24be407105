"""``tar-eval``: every run against qrels with the TAR and nP-paper measures (SPEC §2).

Per topic, the candidates are every document of the topic's qrels plus every document
the run retrieved (N); I = the relevant ones (grade >= 1), E = the rest. The measures at
recall level r come from ``metrics.tar.tar_at_recall`` over the run's ranking followed by
the candidates it did not retrieve, non-relevant ones first and relevant ones last (the
worst case: a screener finds those only after screening everything). AP and recall@k are
trec_eval's, over the retrieved list only (``metrics.ranking``). A topic is evaluated when
the run has it and the qrels give it a relevant record; others are listed with a
``reason`` and left out of the means. A mean is over the topics where the value is defined.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.files import Qrels, RunFile, Ties, read_qrels, read_run, run_paths
from litqeval_gui.metrics.ranking import (
    average_precision_batch,
    recall_from_ranks,
    relevant_ranks,
)
from litqeval_gui.metrics.tar import CONVENTIONS, Convention, tar_at_recall

DEFAULT_CUTOFFS = (10, 100, 1000)
# JSON key -> TarResult field
TAR_KEYS = {"p_at_r": "precision", "tnr_at_r": "tnr", "np_at_r": "nprecision",
            "snp_at_r": "snprecision", "wss_at_r": "wss", "last_rel": "last_rel"}
MEASURE_KEYS = ("ap", *TAR_KEYS)
# what each convention is: the JSON's "convention_rule" and the text header's
CONVENTION_RULES: dict[str, str] = {
    "paper": "TP = ceil(r·|I|) (Kusa et al., SPEC §2); not the CLEF TAR scripts' numbers",
    "clef": "the CLEF TAR scripts' eval_measures.py: TP = round(r·|I|), WSS@r 0 when r "
            "is not reached",
}
FRACTION = "fraction (not %)"
NOT_IN_RUN = "the run has no line for this topic"
NO_RELEVANT = "no relevant record in the qrels (|I| = 0)"


def measure_units(convention: Convention) -> dict[str, str]:
    """The unit of every measure key under ``convention``: the JSON's ``"units"``."""
    units = {key: FRACTION for key in ("ap", "recall_at_k", *TAR_KEYS)}
    units["last_rel"] = ("rank of the last relevant retrieved record (0 if none)"
                         if convention == "clef" else
                         "percent of N (100 · rank of the last relevant candidate / N)")
    return units


def json_number(value: float) -> float | None:
    """A float for JSON: NaN (undefined) becomes null."""
    return None if math.isnan(value) else float(value)


def candidate_labels(retrieved: Sequence[str], grades: dict[str, int],
                     relevant: frozenset[str]) -> np.ndarray:
    """Relevance of the N candidates in screening order: the run's ranking, then the
    unretrieved non-relevant candidates, then the unretrieved relevant ones."""
    labels = np.fromiter(map(relevant.__contains__, retrieved), dtype=bool, count=len(retrieved))
    judged = sum(map(grades.__contains__, retrieved))
    n_candidates = len(grades) + len(retrieved) - judged
    missing = len(relevant) - int(labels.sum())
    rest = n_candidates - len(retrieved) - missing
    return np.concatenate((labels, np.zeros(rest, dtype=bool), np.ones(missing, dtype=bool)))


def evaluate_run(run: RunFile, qrels: Qrels, recall: float = 0.95,
                 convention: Convention = "paper",
                 cutoffs: Sequence[int] = DEFAULT_CUTOFFS) -> dict:
    """The JSON-ready evaluation of one run: ``{"run", "topics", "mean"}``."""
    topics: dict[str, dict] = {}
    evaluated = []
    for topic in sorted(set(run.topics) | set(qrels.grades)):
        if topic not in run.topics:
            topics[topic] = {"reason": NOT_IN_RUN}
        elif not qrels.relevant.get(topic):
            topics[topic] = {"retrieved": len(run.topics[topic]), "reason": NO_RELEVANT}
        else:
            evaluated.append(topic)
    labels = [candidate_labels(run.topics[t], qrels.grades[t], qrels.relevant[t])
              for t in evaluated]
    retrieved = [len(run.topics[t]) for t in evaluated]
    n_relevant = [len(qrels.relevant[t]) for t in evaluated]
    ap = average_precision_batch([lab[:n] for lab, n in zip(labels, retrieved, strict=True)],
                                 n_relevant)
    ranks, groups = relevant_ranks([lab[:n] for lab, n in zip(labels, retrieved, strict=True)])
    recalls = {str(k): recall_from_ranks(ranks, groups, n_relevant, k) for k in cutoffs}
    for i, topic in enumerate(evaluated):
        tar = tar_at_recall(labels[i], recall, convention=convention, retrieved=retrieved[i])
        values: dict = {"candidates": tar.n_records, "relevant": tar.n_includes,
                        "retrieved": retrieved[i], "cutoff": tar.cutoff,
                        "ap": json_number(ap[i]),
                        "recall_at_k": {k: json_number(r[i]) for k, r in recalls.items()}}
        values.update({key: json_number(getattr(tar, field)) for key, field in TAR_KEYS.items()})
        if tar.reason:
            values["reason"] = tar.reason
        topics[topic] = values
    document = {"run": run.name, "topics": topics, "mean": _means(topics, evaluated, cutoffs)}
    if run.duplicates:
        document["duplicates_dropped"] = run.duplicates
    document.update(rejected_lines(run))
    return document


def rejected_lines(read: RunFile | Qrels) -> dict:
    """``{"rejected_lines": n, "first_rejected": [...]}`` for a file some of whose lines
    were malformed and left out (the importer's rule), else nothing."""
    if not read.rejected:
        return {}
    return {"rejected_lines": read.rejected, "first_rejected": list(read.examples)}


def _means(topics: dict[str, dict], evaluated: list[str], cutoffs: Sequence[int]) -> dict:
    def mean(values: list[float | None]) -> float | None:
        defined = [v for v in values if v is not None]
        return float(np.mean(defined)) if defined else None

    rows = [topics[t] for t in evaluated]
    means: dict = {"topics": len(rows)}
    means["ap"] = mean([r["ap"] for r in rows])
    means["recall_at_k"] = {str(k): mean([r["recall_at_k"][str(k)] for r in rows])
                            for k in cutoffs}
    means.update({key: mean([r[key] for r in rows]) for key in TAR_KEYS})
    return means


def tar_eval(run_files: Sequence[Path], qrels_file: Path, recall: float = 0.95,
             ties: Ties = "file", convention: Convention = "paper",
             cutoffs: Sequence[int] = DEFAULT_CUTOFFS) -> dict:
    """Evaluate every run file (or every file of a folder) against ``qrels_file``: the
    ``tar-eval --json`` document."""
    if not 0 < recall <= 1:
        raise LitqError(f"--recall must be in (0, 1], got {recall:g}")
    if convention not in CONVENTIONS:
        raise LitqError(f"convention must be one of {', '.join(CONVENTIONS)}")
    if any(k < 1 for k in cutoffs):
        raise LitqError("recall@k cut-offs must be positive integers")
    paths = run_paths(list(run_files))
    qrels = read_qrels(qrels_file)
    runs = [evaluate_run(read_run(path, ties), qrels, recall, convention, cutoffs)
            for path in paths]
    document = {"recall_level": recall, "convention": convention,
                "convention_rule": CONVENTION_RULES[convention], "ties": ties,
                "units": measure_units(convention), "runs": runs}
    if qrels.rejected:
        document["qrels"] = rejected_lines(qrels)
    return document
