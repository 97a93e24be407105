"""Simulation over several seeds for a screening's records, summarised as a band
(issue 14 §6, the GUI's half; the runs themselves are
:func:`~litqeval_gui.core.screening.simulation.simulate.simulate`).

Labels come from a :class:`LabelSource`: a labelled import column, the topic's core
set, or another screening's decisions (:mod:`~litqeval_gui.core.screening.ranking.known`).
Each seed gives one recall curve (:func:`~litqeval_gui.metrics.tar.recall_curve`) and
its WSS@95, nP@95, snP@95 and last_rel; :class:`Band` keeps them per seed and gives
the curve's median with a percentile band (0–100 = min–max) and each measure's and
each stopping rule's spread (median, min, max over the seeds where it is defined).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.jobs import NEVER, CancelToken, Job, scaled
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import works
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking import known
from litqeval_gui.core.screening.ranking.features_apart import features_apart
from litqeval_gui.core.screening.simulation.simulate import Simulation, simulate
from litqeval_gui.core.screening.stopping.panel import project_rules
from litqeval_gui.metrics.tar import recall_curve

MEASURES = {"wss_at_95": "WSS@95", "np_at_95": "nP@95", "snp_at_95": "snP@95",
            "last_rel": "last_rel (%)"}


@dataclass(frozen=True)
class LabelSource:
    """``kind`` = ``column`` (``name`` = the column), ``core``, or ``screening``
    (``name`` = the screening whose current decisions are the truth)."""

    kind: str
    name: str = ""

    @property
    def text(self) -> str:
        if self.kind == "core":
            return "the topic's core set (relevant = in the core set)"
        if self.kind == "screening":
            return f"the decisions of screening “{self.name}”"
        return f"imported column “{self.name}”"


def label_sources(project: Project, screening: Screening) -> list[LabelSource]:
    """What can be the truth for ``screening``'s records: the labelled columns of its
    lists, the core set when the topic has one, and every other screening of the topic."""
    columns = dict.fromkeys(name for import_id in screening.lists
                            for name in known.label_columns(project, import_id))
    found = [LabelSource("column", name) for name in columns]
    if works.core_works(project.db, screening.topic_id):
        found.append(LabelSource("core"))
    found += [LabelSource("screening", other.name)
              for other in store.screenings(project, project.topic_name(screening.topic_id))
              if other.id != screening.id]
    return found


def source_labels(project: Project, screening: Screening, source: LabelSource,
                  items: list[int], reviewer: str | None = None) -> np.ndarray:
    """Relevance (bool) of ``items`` by ``source``; a clear error when it cannot say.
    ``reviewer``: who reads another screening's decisions (a blind one: their own)."""
    if source.kind == "core":
        return known.core_labels(project, screening.topic_id, items)
    if source.kind == "screening":
        other = store.find_screening(project, project.topic_name(screening.topic_id), source.name)
        return known.screening_labels(project, other, items, reviewer)
    return known.column_labels(project, items, source.name)


@dataclass(frozen=True)
class Spread:
    """A value over the seeds: median, min and max of those where it is defined
    (``defined`` of ``runs``; NaN when none)."""

    median: float
    low: float
    high: float
    defined: int
    runs: int


def spread(values: list[float | int | None]) -> Spread:
    kept = np.array([v for v in values if v is not None and not np.isnan(v)], dtype=float)
    if not kept.size:
        return Spread(np.nan, np.nan, np.nan, 0, len(values))
    return Spread(float(np.median(kept)), float(kept.min()), float(kept.max()), int(kept.size),
                  len(values))


@dataclass(frozen=True)
class Band:
    """Every seed's run of one simulation: ``found[s, i]`` = relevant found among the
    first ``i`` records screened by seed ``seeds[s]``; ``rules`` = rule name → title."""

    records: int
    relevant: int
    model: str
    seeds: tuple[int, ...]
    seconds: tuple[float, ...]
    found: np.ndarray
    measures: dict[str, tuple[float, ...]]
    stopping: dict[str, tuple[dict[str, float | int | None], ...]]
    rules: dict[str, str]

    @property
    def screened(self) -> np.ndarray:
        return np.arange(self.found.shape[1])

    def curve(self, low_q: float = 0.0, high_q: float = 100.0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(median, low, high) found at each screened count; ``low_q``/``high_q`` are
        percentiles over the seeds (0 and 100: min and max)."""
        return (np.median(self.found, axis=0), np.percentile(self.found, low_q, axis=0),
                np.percentile(self.found, high_q, axis=0))

    def measure(self, name: str) -> Spread:
        return spread(list(self.measures[name]))

    def stopped_at(self, rule: str) -> Spread:
        """Where ``rule`` first said stop (seeds where it never did are not counted)."""
        return spread([run["stopped_at"] for run in self.stopping[rule]])

    def recall_then(self, rule: str) -> Spread:
        return spread([run["recall_then"] for run in self.stopping[rule]])


def band(runs: list[Simulation], relevant: np.ndarray, rules: dict[str, str]) -> Band:
    """The :class:`Band` of finished runs of the same records and truth."""
    truth = np.asarray(relevant, dtype=bool)
    return Band(runs[0].records, runs[0].relevant, runs[0].model,
                tuple(run.seed for run in runs), tuple(run.seconds for run in runs),
                np.array([recall_curve(run.labels(truth))[1] for run in runs]),
                {name: tuple(getattr(run, name) for run in runs) for name in MEASURES},
                {name: tuple(run.stopping[name] for run in runs) for name in rules}, rules)


def simulate_screening(project: Project, screening: Screening, source: LabelSource, *,
                       model: str = "logistic", prior_included: int = 1,
                       prior_excluded: int = 1, seed: int = 0, runs: int = 1,
                       reviewer: str | None = None, token: CancelToken = NEVER) -> Job[Band]:
    """Replay ``screening``'s records ``runs`` times (seeds ``seed``, ``seed + 1``, …) with
    the truth from ``source`` (read by ``reviewer``: :func:`source_labels`); the stopping
    rules are the project's (as on the panel)."""
    items = store.items(project, screening.id)
    relevant = source_labels(project, screening, source, items, reviewer)
    rules = project_rules(project)
    features = yield from features_apart(project, screening, token=token)
    finished = []
    for run in range(runs):
        n = len(items)
        finished.append((yield from scaled(
            simulate(features, relevant, model=model, prior_included=prior_included,
                     prior_excluded=prior_excluded, seed=seed + run, rules=rules, token=token),
            run * n, (run + 1) * n, runs * n, f"seed {run + 1} of {runs}")))
    return band(finished, relevant, {rule.name: rule.title for rule in rules})

