"""Prioritisation in the background: :class:`Prioritiser` runs the ranking job of a
screening (features once — TF-IDF of the items, the core set and the review question,
in a child process for a large screening —, then a retrain, on the job's own connection, after the decisions already queued on the
write path have committed) and hands each new ranking to the screen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from litqeval_gui.core.jobs import CancelToken
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.features import Features
from litqeval_gui.core.screening.ranking.features_apart import features_apart
from litqeval_gui.core.screening.ranking.retrain import Ranking, retrain
from litqeval_gui.gui.jobs import JobFactory, JobHandle
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.session import ProjectSession

ORDERINGS = {"list": "List order", "random": "Random (seed 0)",
             "logistic": "Prioritised: logistic regression", "svm": "Prioritised: linear SVM",
             "nb": "Prioritised: naive Bayes"}
MODELS = ("logistic", "svm", "nb")


def ranking_job(session: ProjectSession, screening: Screening, model: str,
                features: Features | None, question: str, reviewer: str = "",
                initiator: object = None) -> JobFactory:
    """A job returning ``(features, ranking or None)``; ``features`` are built when None;
    in a blind screening the model learns from ``reviewer``'s decisions only; the ranking
    is stored as ``initiator``'s write."""

    def rank(project: Project, token: CancelToken):
        project.write(lambda p: Changes())  # the decisions queued before it have committed
        built = features
        if built is None:
            built = yield from features_apart(project, screening, question, token)
        ranking: Ranking | None = yield from retrain(project, screening, built, model, token,
                                                     reviewer or None, initiator)
        return built, ranking

    return session.worker_job(rank)


class Prioritiser(QObject):
    """One ranking job at a time; asked while one runs, it runs once more afterwards.
    ``ranked(ranking)`` follows each job that produced one; ``busy(running)`` each start
    and end. The rankings are stored as ``parent``'s writes: the screen takes each in
    from ``ranked``, not by reading the decisions again as it does after others' writes."""

    ranked = Signal(object)
    busy = Signal(bool)

    def __init__(self, session: ProjectSession, screening: Screening, question: str,
                 parent: QObject | None = None, reviewer: Callable[[], str] = str) -> None:
        super().__init__(parent)
        self.session, self.screening, self.question = session, screening, question
        self.reviewer = reviewer
        self.features: Features | None = None
        self.job: JobHandle | None = None
        self._again: str | None = None  # the model to run once more
        self._stopped = False

    @property
    def running(self) -> bool:
        return self.job is not None

    def set_question(self, question: str) -> None:
        """A new question is a new feature row: the features are built again."""
        if question != self.question:
            self.question, self.features = question, None

    def start(self, model: str) -> None:
        if self._stopped:
            return
        if self.job is not None:
            self._again = model
            return
        self.job = self.session.jobs.run(
            f"Ranking {self.screening.name}",
            ranking_job(self.session, self.screening, model, self.features, self.question,
                        self.reviewer(), self.parent()),
            on_success=self._done, on_failure=self._failed,
            on_cancelled=lambda: self._ended(None))
        self.busy.emit(True)

    def stop(self) -> None:
        """Cancel the running job; whatever it still reports is dropped."""
        self._stopped = True
        if self.job is not None:
            self.job.cancel()

    def _done(self, result: tuple) -> None:
        features, ranking = result
        if not self._stopped:
            self.features = features
        self._ended(ranking)

    def _failed(self, exc: BaseException) -> None:
        if not self._stopped:
            show_error(None, "Ranking failed", exc)
        self._ended(None)

    def _ended(self, ranking: Ranking | None) -> None:
        self.job = None
        if self._stopped:
            return
        if ranking is not None:
            self.ranked.emit(ranking)
        self.busy.emit(False)
        again, self._again = self._again, None
        if again is not None:
            self.start(again)
