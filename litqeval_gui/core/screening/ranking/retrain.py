"""Retraining as a cancellable job whose result is a stored ranking the queue switches to.

:func:`retrain` reads the current decisions, scores every item
(:func:`~litqeval_gui.core.screening.ranking.models.score_items`), orders the undecided items by
score (highest first; ties keep list order; items without text last, unscored:
:func:`~litqeval_gui.core.screening.ranking.features.blank_last`) followed by the decided ones,
adds the cross-validated :class:`~litqeval_gui.core.screening.ranking.models.Trust` when enough
labels exist, and stores it as the screening's latest ranking (one write: the record ids
and scores as little-endian int64 / float64 arrays: plain bytes, no serialised objects).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cached_property, partial
from typing import Any

import numpy as np

from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import DamagedDataError, read_buffer, read_json
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import DECISIONS, Screening
from litqeval_gui.core.screening.ranking.features import Features, blank_last
from litqeval_gui.core.screening.ranking.models import (
    Trust,
    model_trust,
    score_items,
    training_set,
)
from litqeval_gui.core.screening.ranking.queue import Ordering


@dataclass(frozen=True)
class Ranking:
    """A model's order of the items: ``records`` (ids, screening order) with ``scores``
    (NaN for the items without text and the decided ones, at the end); ``model`` says
    what ranked them."""

    model: str
    created: str
    labels: int
    records: tuple[int, ...]
    scores: np.ndarray
    trust: Trust | None = None

    def ordering(self) -> Ordering:
        """The queue's ordering of these records: one object per ranking, so its
        :attr:`~Ordering.index` is built once (by :func:`retrain`, on the job's thread)."""
        return self._ordering

    @cached_property
    def _ordering(self) -> Ordering:
        return Ordering("model", self.records, self.model, self.created)


def rank(features: Features, decisions: list[store.Event], scheme: str,
         model: str = "logistic") -> Ranking | None:
    """The ranking the decisions give (None when nothing can rank yet); no writing."""
    training = training_set(features, decisions, scheme)
    scored = score_items(features, training, model)
    if not scored.name:
        return None
    decided = np.zeros(len(features.items), dtype=bool)
    decided[features.item_rows([e.record_id for e in decisions])] = True
    open_rows = np.flatnonzero(~decided)
    scores = blank_last(scored.values, features.blank)
    order = np.concatenate([open_rows[np.argsort(-scores[open_rows], kind="stable")],
                            np.flatnonzero(decided)])
    ranked_scores = np.where(decided[order] | features.blank[order], np.nan, scores[order])
    trust = model_trust(features, training, model) if scored.classified else None
    return Ranking(scored.name, now(), len(decisions), tuple(features.item_records(order).tolist()),
                   ranked_scores.astype(np.float64), trust)


def retrain(project: Project, screening: Screening, features: Features,
            model: str = "logistic", token: CancelToken = NEVER,
            reviewer: str | None = None, initiator: Any = None) -> Job[Ranking | None]:
    """Rank the items from the current decisions and store the ranking (module docstring);
    in a blind screening from ``reviewer``'s own decisions only. On a project with a
    write path the ranking is stored as ``initiator``'s write (the screen that asked for
    it switches to it, and need not read the decisions again) and its ordering's index
    is built here, not on the thread that takes the ranking in."""
    yield Progress(0, 3, "reading decisions")
    decisions = store.current_decisions(project, screening.id, reviewer)
    token.raise_if_cancelled()
    yield Progress(1, 3, f"training {model}")
    ranking = rank(features, decisions, screening.scheme, model)
    token.raise_if_cancelled()
    if ranking is None:
        return None
    yield Progress(2, 3, "storing the ranking")
    _ = ranking.ordering().index  # built on this thread (see the docstring)
    token.raise_if_cancelled()
    op = partial(_store, screening_id=screening.id, ranking=ranking)
    if project.writes is not None:
        project.writes.run(op, initiator)
    else:
        project.write(op)
    yield Progress(3, 3, "ranking ready")
    return ranking


def _store(project: Project, screening_id: int, ranking: Ranking) -> Changes:
    details = {"trust": asdict(ranking.trust) if ranking.trust else None}
    project.db.execute(
        "INSERT OR REPLACE INTO screening_rankings (screening_id, model, created, labels, "
        "records, scores, details) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [screening_id, ranking.model, ranking.created, ranking.labels,
         np.asarray(ranking.records, dtype="<i8").tobytes(),
         ranking.scores.astype("<f8").tobytes(), json.dumps(details)])
    return DECISIONS


def has_ranking(project: Project, screening_id: int) -> bool:
    """Whether the screening has a stored ranking (without reading it)."""
    return project.db.execute("SELECT 1 FROM screening_rankings WHERE screening_id = ?",
                              [screening_id]).fetchone() is not None


def stored_ranking(project: Project, screening_id: int) -> Ranking | None:
    """The screening's latest stored ranking, or None."""
    row = project.db.execute(
        "SELECT model, created, labels, records, scores, details FROM screening_rankings "
        "WHERE screening_id = ?", [screening_id]).fetchone()
    if row is None:
        return None
    what = f"the stored ranking of screening {screening_id}"
    records = read_buffer(row[3], "<i8", what, part="records")
    scores = read_buffer(row[4], "<f8", what, len(records), finite=False, part="scores")
    trust = read_json(row[5], what, dict, part="details").get("trust")
    try:
        made = Trust(**trust) if trust else None
    except TypeError:
        raise DamagedDataError(what, "not a model's trust", "details") from None
    if made is not None and not (isinstance(made.f1, dict) and isinstance(made.tau, float | int)
                                 and type(made.folds) is int and type(made.labels) is int):
        raise DamagedDataError(what, "not a model's trust", "details")
    return Ranking(row[0], row[1], row[2], tuple(records.tolist()), scores.copy(), made)
