"""Active-learning models over the screening features: what ranks the undecided items.

Classifiers (scikit-learn). Each weights the two classes equally at least — each record
by n / (2 · n_class), scikit-learn's "balanced", which is ASReview's ``balanced``
balancer at its default ratio 1 — so the few relevant records are not drowned out; the
linear models weight a relevant record :data:`RELEVANT_WEIGHT` (9.8, the ratio of
ASReview's ``elas_u4``) times more than that, which ranks the records that look like
the few relevant ones found so far higher early on:

* ``logistic`` (the default): LogisticRegression, C = 1, solved by liblinear; in the
  dual when features outnumber the labelled records (TF-IDF: ~50x faster than the
  primal at the same optimum), in the primal otherwise (embeddings). With the default
  features (1–2-gram TF-IDF, :mod:`~litqeval_gui.core.screening.ranking.features`), mean WSS@95
  over 5 seeds (asreview-insights' convention) on the three shared reviews went from
  0.674 / 0.809 / 0.828 (unigrams, balanced) to 0.734 / 0.782 / 0.863 (Nagtegaal,
  Cohen ACE, Radjenovic; ``benchmarks/bench_simulate.py``; ASReview LAB's best model
  0.728 / 0.793 / 0.865). Relevant weight 1 instead of 9.8 on the same features:
  0.713 on Nagtegaal. Since records without text are imported (issue 28 §2), Cohen ACE
  holds 2 544 records and 41 inclusions (one without text, ranked last), so WSS@95 waits
  for the 39th relevant instead of the 38th: 0.731 there, same model and priors.
  Tried on the three reviews and not adopted, as none is at least as good on all three
  (Nagtegaal / ACE / Radjenovic): unigrams 0.690 / 0.757 / 0.844; unigrams with raw
  counts, weight 1 (the old default) 0.674 / 0.786 / 0.834; 1–2-grams with raw counts
  0.672 / 0.759 / –; terms in one record dropped 0.708 / 0.691 / 0.861; English stop
  words – / 0.751 / –; rank average with ``nb`` 0.729 / – / –, or with the unigram
  model 0.708 / 0.739 / –; unigram and pair blocks side by side 0.714 / 0.736 / 0.856;
  per retraining, the candidate (this model or the old default) that had ranked the
  relevant records found since higher: 0.734 / 0.731 (it keeps the model whose order
  is screened, which is the one its own finds favour). ACE favours raw-count unigrams,
  the other two pairs and sublinear counts: no single model leads everywhere.
  Retraining more often (every 0.5 %, 0.25 %, every record) moves none of the three by
  more than 0.003 (:mod:`~litqeval_gui.core.screening.simulation.simulate`).
* ``svm``: LinearSVC, C = 1; its decision value d is read as a probability 1/(1+e^−d).
  Four times slower to fit than ``logistic`` on 1–2-grams, for WSS@95 within 0.01.
* ``nb``: MultinomialNB, α = 1 (scikit-learn's and ASReview's ``nb`` default), fitted
  with the balanced sample weights. Without them a class of a few records keeps almost
  no term mass and α flattens its term distribution: on Nagtegaal 2019 α = 3.822
  unweighted gave WSS@95 0.09, weighted α = 1 gives 0.66 (ASReview 0.68). It needs
  non-negative features (TF-IDF), so it refuses embeddings.

Graded screenings use the ordinal thermometer model (SPEC §3): one classifier
per bit [g ≥ 1, g ≥ 2, g ≥ 3], score = the sum of the three bit probabilities
(:func:`~litqeval_gui.metrics.relevance.thermometer_scores`); a bit whose training
targets are all equal has that constant probability.

Training set: the reviewer's decisions (targets from
:func:`~litqeval_gui.core.screening.log.labels.training_target`) plus the topic's core
records not decided, as positives (grade 3 in a graded screening). Cold start, in
order: a classifier once both classes (two grades) are present; else the cosine to the
centroid of the positives; else the cosine to the review question; else no ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sklearn
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.screening.log.labels import GRADED, training_target
from litqeval_gui.core.screening.log.store import Event
from litqeval_gui.core.screening.ranking.features import TFIDF, Features
from litqeval_gui.metrics.agreement import kendall_tau_b
from litqeval_gui.metrics.relevance import (
    per_grade_f1,
    thermometer_decode,
    thermometer_encode,
    thermometer_scores,
)

MODELS = ("logistic", "svm", "nb")
NB_ALPHA = 1.0
RELEVANT_WEIGHT = 9.8
CV_FOLDS = 5


@dataclass(frozen=True)
class Training:
    """Matrix ``rows`` with their ``targets``; ``reviewer`` marks rows the reviewer decided
    (the others are core records)."""

    rows: np.ndarray
    targets: np.ndarray
    reviewer: np.ndarray
    graded: bool


def training_set(features: Features, decisions: Sequence[Event], scheme: str) -> Training:
    """The decisions with a target plus the undecided core rows as positives."""
    decided_rows = features.item_rows([e.record_id for e in decisions])
    targets = [training_target(scheme, e.label) for e in decisions]
    keep = [i for i, t in enumerate(targets) if t is not None]
    rows = decided_rows[keep].tolist()
    values = [targets[i] for i in keep]
    core = features.core_rows[~np.isin(features.core_rows, decided_rows)].tolist()
    positive = 3 if scheme == GRADED else 1
    return Training(np.array(rows + core, dtype=np.intp),
                    np.array(values + [positive] * len(core), dtype=np.int64),
                    np.array([True] * len(rows) + [False] * len(core)), scheme == GRADED)


def classifier(model: str, samples: int = 0, features: int = 1):
    """A fresh, unfitted scikit-learn classifier named ``model`` for ``samples`` training
    rows of ``features`` columns (logistic: the dual when features > samples)."""
    if model == "logistic":
        return LogisticRegression(solver="liblinear", dual=features > samples, max_iter=1000)
    if model == "svm":
        return LinearSVC()
    if model == "nb":
        return MultinomialNB(alpha=NB_ALPHA)
    raise LitqError(f"unknown model {model!r}; use one of {', '.join(MODELS)}")


def check_model(model: str, features: Features) -> None:
    """Refuse a model the features do not suit (naive Bayes needs counts or TF-IDF)."""
    if model == "nb" and features.kind != TFIDF:
        raise LitqError("naive Bayes needs non-negative word features (TF-IDF); "
                        "with embedding features use logistic regression or the linear SVM")
    classifier(model)


def _fit_probability(model: str, x: sparse.csr_matrix | np.ndarray, y: np.ndarray,
                     rows: sparse.csr_matrix | np.ndarray) -> np.ndarray:
    """P(y = 1) for ``rows`` after fitting ``model`` on (x, y); a constant when y is.
    The features are finite by construction and the parameters fixed above, so
    scikit-learn's per-call checks are skipped (a simulation fits hundreds of times)."""
    if y.min() == y.max():
        return np.full(rows.shape[0], float(y[0]))
    with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
        fitted = classifier(model, *x.shape)
        weights = balanced_weights(y)
        if model != "nb":
            weights = weights * np.where(y == 1, RELEVANT_WEIGHT, 1.0)
        fitted.fit(x, y, sample_weight=weights)
        if model == "svm":
            return 1.0 / (1.0 + np.exp(-fitted.decision_function(rows)))
        return fitted.predict_proba(rows)[:, 1]


def balanced_weights(y: np.ndarray) -> np.ndarray:
    """n / (classes · n_class) per record: scikit-learn's "balanced" class weights
    (``compute_sample_weight("balanced", y)``, which a test checks it equals), without
    its validation: 0.05 ms instead of 0.46 ms at 2 000 labels, and a simulation fits
    once per decision."""
    classes, index, counts = np.unique(y, return_inverse=True, return_counts=True)
    return (y.size / (classes.size * counts))[index]


def predict(model: str, x: sparse.csr_matrix, targets: np.ndarray, graded: bool,
            rows: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """(scores, predicted classes) of ``rows``: P(relevant) and 0/1, or the thermometer
    score and the decoded grade."""
    if not graded:
        p = _fit_probability(model, x, targets, rows)
        return p, (p >= 0.5).astype(np.int64)
    bits = thermometer_encode(targets)
    p = np.column_stack([_fit_probability(model, x, bits[:, k], rows) for k in range(3)])
    return thermometer_scores(p), thermometer_decode(p)


def can_classify(training: Training) -> bool:
    return np.unique(training.targets).size >= 2


def cold_scores(x: sparse.csr_matrix | np.ndarray, positive_rows: np.ndarray,
                question_row: int | None, rows: np.ndarray | None = None
                ) -> tuple[np.ndarray, str] | None:
    """Before a classifier can be fitted: the cosine of ``rows`` (None: every row, no
    copy of the matrix) to the centroid of the ``positive_rows`` (relevant so far) when
    there are any, else to the review question (``question_row``), else None (module
    docstring)."""
    scored = x if rows is None else x[rows]
    if positive_rows.size:
        centroid = np.asarray(x[positive_rows].mean(axis=0)).ravel()
        return np.asarray(scored @ centroid).ravel(), f"cosine to {positive_rows.size} relevant"
    if question_row is not None:
        question = x[question_row]
        scores = scored @ (question.T if sparse.issparse(x) else question)
        scores = scores.toarray() if sparse.issparse(scores) else scores
        return np.asarray(scores).ravel(), "cosine to the question"
    return None


@dataclass(frozen=True)
class Scores:
    """Scores of every item (higher = screen sooner), what produced them (``name``; ""
    when nothing can rank yet) and whether a classifier did."""

    values: np.ndarray
    name: str
    classified: bool = False


def score_items(features: Features, training: Training, model: str) -> Scores:
    """Score the items by the module docstring's cold-start order."""
    n = len(features.items)
    x = features.matrix
    check_model(model, features)
    if can_classify(training):
        # every row scored, then cut: x[:n] would copy the whole matrix holding the GIL
        scores, _ = predict(model, x[training.rows], training.targets, training.graded, x)
        scores = scores[:n]
        return Scores(scores, model + (" (ordinal)" if training.graded else ""), True)
    positives = training.rows if training.rows.size and training.targets.max() > 0 else \
        training.rows[:0]
    cold = cold_scores(x, positives, features.question_row)
    return Scores(cold[0][:n], cold[1]) if cold else Scores(np.empty(0), "")


@dataclass(frozen=True)
class Trust:
    """How far the model can be trusted: cross-validated Kendall's τ-b between the
    reviewer's labels and the model's scores, and F1 per class (label: F1)."""

    tau: float
    f1: dict[str, float]
    folds: int
    labels: int


def model_trust(features: Features, training: Training, model: str,
                folds: int = CV_FOLDS) -> Trust | None:
    """Stratified ``folds``-fold cross-validation over the reviewer's own labels (core
    rows stay in every training fold); None until each class has ``folds`` labels."""
    own = np.flatnonzero(training.reviewer)
    targets = training.targets[own]
    classes, counts = np.unique(targets, return_counts=True)
    if classes.size < 2 or counts.min() < folds:
        return None
    x = features.matrix
    core = np.flatnonzero(~training.reviewer)
    scores = np.empty(own.size)
    predicted = np.empty(own.size, dtype=np.int64)
    splitter = StratifiedKFold(folds, shuffle=True, random_state=0)
    for fit, test in splitter.split(own, targets):
        used = np.concatenate([own[fit], core])
        scores[test], predicted[test] = predict(
            model, x[training.rows[used]], training.targets[used], training.graded,
            x[training.rows[own[test]]])
    grades = tuple(range(4)) if training.graded else (0, 1)
    f1 = per_grade_f1(targets, predicted, grades)
    tau = kendall_tau_b(targets, scores)
    return Trust(tau, {str(g): float(v) for g, v in zip(grades, f1, strict=True)},
                 folds, int(own.size))
