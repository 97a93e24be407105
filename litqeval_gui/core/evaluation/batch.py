"""Evaluate every topic of a project, computing topics in parallel (issue 13 §5).

The three steps of :mod:`.engine`, spread out: every topic is planned here (reads
only), the plain-data tasks are computed by :func:`~litqeval_gui.core.scaleout.map_tasks`
— in this process, on ``jobs`` local processes or on a Dask cluster — and each answer is
stored here, topic by topic in name order, through the one write path. The same
functions make the single-topic evaluation, so the results and the stored rows are
those of a serial run.

A topic that cannot be evaluated (no core set, no lists, too few records for a map…)
gets its reason in its :class:`TopicOutcome` and the others go on. An interrupt while
computing leaves the project untouched; while storing, every write that committed is a
complete step (a pending set resumes, a map or outcomes are one op each), so the next
run continues from there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.compute import Computed, TopicTask, compute_topic
from litqeval_gui.core.evaluation.engine import TopicEvaluation, TopicPlan, plan_topic, store_topic
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import topics
from litqeval_gui.core.scaleout import map_tasks


@dataclass(frozen=True, eq=False)
class TopicOutcome:
    """One topic of the batch: its evaluation, or why there is none."""

    topic: str
    evaluation: TopicEvaluation | None
    reason: str | None = None

    def as_dict(self) -> dict:
        """The single-topic ``evaluate --json`` document, or ``{"topic", "reason"}``."""
        if self.evaluation is None:
            return {"topic": self.topic, "reason": self.reason}
        return self.evaluation.as_dict()


def compute_task(task: TopicTask) -> Computed | str:
    """:func:`compute_topic` run to its end, or the reason it failed (a worker's
    failure is one topic's, never the batch's)."""
    try:
        return run_job(compute_topic(task))
    except LitqError as err:
        return str(err)
    except Exception as err:  # noqa: BLE001 - any failure of one topic is reported in its row
        return f"{type(err).__name__}: {err}"


def evaluate_all(project: Project, *, jobs: int = 1, dask_address: str | None = None,
                 progress: Callable[[Progress], None] | None = None,
                 token: CancelToken = NEVER) -> list[TopicOutcome]:
    """Evaluate every topic with its stored settings (module docstring); one
    :class:`TopicOutcome` per topic, by name. ``progress`` hears of each topic computed
    and each stored."""
    report = progress or (lambda _p: None)
    names = [info.name for info in topics(project)]
    plans: dict[str, TopicPlan] = {}
    failed: dict[str, str] = {}
    for name in names:
        try:
            plans[name] = plan_topic(project, name)
        except LitqError as err:
            failed[name] = str(err)
    total = len(plans)

    def computed(p: Progress) -> None:
        report(Progress(p.done, 2 * total, f"computed {p.done} of {total} topics"))

    answers = map_tasks(compute_task, [plan.task for plan in plans.values()], jobs=jobs,
                        dask_address=dask_address, progress=computed)
    evaluations: dict[str, TopicEvaluation] = {}
    for done, (name, answer) in enumerate(zip(plans, answers, strict=True), 1):
        token.raise_if_cancelled()
        if isinstance(answer, str):
            failed[name] = answer
        else:
            evaluations[name] = run_job(store_topic(project, plans[name], answer, token))
        report(Progress(total + done, 2 * total, f"stored {name}"))
    return [TopicOutcome(name, evaluations.get(name), failed.get(name)) for name in names]
