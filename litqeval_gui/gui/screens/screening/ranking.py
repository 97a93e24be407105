"""The background ranking job of the screener: features once (TF-IDF of the items, the core
set and the review question), then a retrain; both on the job's own connection, after
the decisions already queued on the write path have committed."""

from __future__ import annotations

from litqeval_gui.core.changes import Changes
from litqeval_gui.core.jobs import CancelToken
from litqeval_gui.core.screening.features import Features, screening_features
from litqeval_gui.core.screening.retrain import Ranking, retrain
from litqeval_gui.core.screening.store import Screening
from litqeval_gui.gui.jobs import JobFactory
from litqeval_gui.gui.session import ProjectSession

ORDERINGS = {"list": "List order", "random": "Random (seed 0)",
             "logistic": "Prioritised: logistic regression", "svm": "Prioritised: linear SVM",
             "nb": "Prioritised: naive Bayes"}
MODELS = ("logistic", "svm", "nb")


def ranking_job(session: ProjectSession, screening: Screening, model: str,
                features: Features | None, question: str) -> JobFactory:
    """A job returning ``(features, ranking or None)``; ``features`` are built when None."""

    def make(token: CancelToken):
        project = session.worker_project()
        try:
            project.write(lambda p: Changes())  # the decisions queued before it have committed
            built = features
            if built is None:
                built = yield from screening_features(project, screening, question, token)
            ranking: Ranking | None = yield from retrain(project, screening, built, model, token)
            return built, ranking
        finally:
            project.close()

    return make
