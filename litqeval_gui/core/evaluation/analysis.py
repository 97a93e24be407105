"""What the evaluation screen reads beside the comparison table: whether the topic's
vectors and map are ready, SP_cos's threshold sweep per list, the titles of the map's
records, and the lists' overlap ("which query found what").

Every number comes from ``metrics/`` (``threshold_analysis``, ``jaccard``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.core.evaluation.engine import TopicEvaluation
from litqeval_gui.core.evaluation.inputs import take
from litqeval_gui.core.evaluation.map_store import load_map
from litqeval_gui.core.evaluation.recall import MissedRecord, _describe
from litqeval_gui.core.evaluation.settings import EvaluationSettings
from litqeval_gui.core.evaluation.vector_store import latest_set, load_vectors, set_status
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import works
from litqeval_gui.core.records.queries import lists
from litqeval_gui.metrics.semantic import ThresholdAnalysis, threshold_analysis
from litqeval_gui.metrics.sets import jaccard

Readiness = Literal["ready", "missing", "stale"]
GRID = np.linspace(0.0, 1.0, 101)  # θ of the threshold sweep (the used θ is added)


def readiness(project: Project, topic: str, settings: EvaluationSettings) -> Readiness:
    """``ready`` when the settings' vectors and map are stored and current (an evaluation
    only reads and scores), ``stale`` when a map exists but the topic's records changed
    since, else ``missing``."""
    topic_id = project.topic_id(topic)
    emb = latest_set(project.db, topic_id, settings.backend)
    stored = None if emb is None else load_map(project.db, emb, settings.map_method)
    if stored is None:
        return "missing"
    if stored.stale or set_status(project.db, topic_id, settings.backend) != "ready":
        return "stale"
    return "ready"


def threshold_sweeps(project: Project, evaluation: TopicEvaluation) -> dict[str, ThresholdAnalysis]:
    """SP_cos against θ (``metrics.semantic.threshold_analysis``) for every list, on the
    vectors the evaluation used and its scoring (p, q, α, β); the grid is :data:`GRID`
    plus the θ the evaluation used, so the sweep agrees with the table there."""
    emb = latest_set(project.db, project.topic_id(evaluation.topic), evaluation.backend.name)
    if emb is None or emb.id != evaluation.map.set_id:
        raise LookupError("the evaluation's vectors were replaced; evaluate again")
    ids, vectors = load_vectors(project.db, emb)
    core = take(ids, vectors, evaluation.core_rows.record_ids)
    sweeps = {}
    for item in evaluation.lists:
        used = item.methods["cos"].detail.get("theta")
        grid = GRID if used is None or np.isnan(used) else np.union1d(GRID, [used])
        sweeps[item.name] = threshold_analysis(
            core, take(ids, vectors, item.rows.record_ids), item.rows.is_core, item.core,
            grid, evaluation.settings.scoring)
    return sweeps


def map_titles(project: Project, record_ids: NDArray[np.int64]) -> list[str]:
    """The title of each record of ``record_ids`` ("" when it has none)."""
    titles: dict[int, str] = {}
    chunk = 900  # below SQLite's host-parameter limit
    ids = [int(i) for i in record_ids]
    for start in range(0, len(ids), chunk):
        part = ids[start:start + chunk]
        titles.update(project.db.execute(
            f"SELECT id, COALESCE(title, '') FROM records WHERE id IN "
            f"({','.join('?' * len(part))})", part).fetchall())
    return [titles.get(i, "") for i in ids]


@dataclass(frozen=True)
class Overlap:
    """The topic's result lists compared: ``names``; per list its distinct works
    (``sizes``), the core works it found (``core_found``) and those no other list found
    (``only``); per pair ``shared[i][j]`` works in both, ``shared_core[i][j]`` core works
    in both, ``jaccard[i][j]`` of their works; ``missed_by_all`` core works none found."""

    names: list[str]
    sizes: list[int]
    core: int
    core_found: list[int]
    only: list[list[MissedRecord]]
    shared: list[list[int]]
    shared_core: list[list[int]]
    jaccard: list[list[float]]
    missed_by_all: int


def list_overlap(project: Project, topic: str) -> Overlap:
    """Compare the topic's result lists by their works (record linkage's groups)."""
    topic_id = project.topic_id(topic)
    core = works.core_works(project.db, topic_id)
    chosen = [info for info in lists(project, topic) if info.role == "results"]
    found = [works.list_works(project.db, info.id) for info in chosen]
    only = []
    for i, mine in enumerate(found):
        others = set().union(*(f for j, f in enumerate(found) if j != i))
        only.append(_describe(project, topic_id, sorted((mine & core) - others), set()))
    return Overlap(
        names=[info.name for info in chosen], sizes=[len(f) for f in found], core=len(core),
        core_found=[len(f & core) for f in found], only=only,
        shared=[[len(a & b) for b in found] for a in found],
        shared_core=[[len(a & b & core) for b in found] for a in found],
        jaccard=[[jaccard(a, b) for b in found] for a in found],
        missed_by_all=len(core - set().union(*found)))
