"""The cold start the screener and the simulation share: the cosine to the relevant
records seen, else to the review question; by hand on a small matrix and in simulations
on generated data where the question names what the relevant records share."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.ranking.features import Features, tfidf
from litqeval_gui.core.screening.ranking.models import cold_scores
from litqeval_gui.core.screening.simulation.simulate import simulate
from litqeval_gui.metrics.screening_effort import recall_after
from tests.support.screening import THEME, labelled_records

# four unit rows and a question row (index 4)
ROWS = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0],
                 [0.0, 0.6, 0.8]])


@pytest.mark.parametrize("x", [ROWS, sparse.csr_matrix(ROWS)], ids=["dense", "sparse"])
def test_cosine_to_the_relevant_seen_else_to_the_question_by_hand(x):
    scores, name = cold_scores(x, np.array([0, 1]), 4, np.array([2, 3]))
    # centroid (0.8, 0.4, 0): row 2 -> 0, row 3 -> 0.4
    assert scores == pytest.approx([0.0, 0.4]) and name == "cosine to 2 relevant"
    scores, name = cold_scores(x, np.array([], dtype=np.intp), 4)
    assert scores == pytest.approx([0.0, 0.48, 0.8, 0.6, 1.0])
    assert name == "cosine to the question"
    assert cold_scores(x, np.array([], dtype=np.intp), None) is None


def _runs(question: str | None, seeds=range(5)):
    records, labels = labelled_records(1000, 0.02, seed=8, strength=2)
    texts = [f"{r.title} {r.abstract}" for r in records]
    if question:
        texts.append(question)
    features = Features(tuple(range(1000)), tfidf(texts), np.empty(0, dtype=np.intp),
                        1000 if question else None)
    truth = np.array(labels, dtype=bool)
    return truth, [run_job(simulate(features, truth, seed=seed, rules=[], prior=[])).labels(truth)
                   for seed in seeds]


def test_a_question_naming_the_theme_finds_relevant_records_from_the_first_one():
    truth, asked = _runs(" ".join(THEME))
    _, blind = _runs(None)  # random until the first relevant, then learning
    # 20 relevant of 1 000: the first record is one, every seed; without it, ~2 %
    assert all(labels[0] for labels in asked)
    assert np.mean([labels[:10].mean() for labels in blind]) < 0.2
    assert np.mean([recall_after(labels, 0.10) for labels in asked]) >= 0.95
    assert np.mean([recall_after(labels, 0.10) for labels in asked]) > \
        np.mean([recall_after(labels, 0.10) for labels in blind])
