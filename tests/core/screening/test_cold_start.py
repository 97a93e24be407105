"""AutoTAR's cold start: the review question as a relevant document, presumed irrelevant
records while none is known; by hand on small sets and in simulations on generated data
where the question names what the relevant records share."""

from __future__ import annotations

import numpy as np

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.ranking.features import Features, tfidf
from litqeval_gui.core.screening.ranking.models import PRESUMED_IRRELEVANT, cold_start
from litqeval_gui.core.screening.simulation.simulate import simulate
from litqeval_gui.metrics.screening_effort import recall_after
from tests.support.screening import THEME, labelled_records


def test_the_question_joins_the_labels_and_irrelevant_ones_are_presumed():
    rng = np.random.default_rng(0)
    unscreened = np.arange(10, 300)
    rows, targets = cold_start(np.array([3]), np.array([1]), 400, unscreened, rng)
    assert rows[:2].tolist() == [3, 400] and targets[:2].tolist() == [1, 1]
    presumed = rows[2:]
    assert presumed.size == PRESUMED_IRRELEVANT == 100
    assert np.unique(presumed).size == 100 and np.isin(presumed, unscreened).all()
    assert (targets[2:] == 0).all()
    # fewer unscreened than 100: all of them
    rows, targets = cold_start(np.array([], dtype=np.intp), np.array([], dtype=np.int64), 9,
                               np.array([4, 5]), rng)
    assert rows.tolist()[0] == 9 and sorted(rows.tolist()[1:]) == [4, 5]
    assert targets.tolist() == [1, 0, 0]


def test_known_irrelevant_records_need_no_presumed_ones_and_nothing_relevant_gives_none():
    rng = np.random.default_rng(0)
    rows, targets = cold_start(np.array([1, 2]), np.array([1, 0]), 7, np.arange(3, 7), rng)
    assert rows.tolist() == [1, 2, 7] and targets.tolist() == [1, 0, 1]
    rows, targets = cold_start(np.array([1, 2]), np.array([1, 0]), None, np.arange(3, 7), rng)
    assert rows.tolist() == [1, 2] and targets.tolist() == [1, 0]
    assert cold_start(np.array([2]), np.array([0]), None, np.arange(3, 7), rng) is None
    assert cold_start(np.array([], dtype=np.intp), np.array([], dtype=np.int64), None,
                      np.arange(3, 7), rng) is None
    assert cold_start(np.array([1]), np.array([1]), None, np.array([], dtype=np.intp),
                      rng) is None


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
    # 20 relevant of 1 000: nine of the first ten, every seed; without it, ~2 %
    assert all(labels[:10].sum() >= 8 for labels in asked)
    assert np.mean([labels[:10].mean() for labels in blind]) < 0.2
    assert np.mean([recall_after(labels, 0.10) for labels in asked]) >= 0.95
    assert np.mean([recall_after(labels, 0.10) for labels in asked]) > \
        np.mean([recall_after(labels, 0.10) for labels in blind])
