"""The one place where the evaluation engine's results become what the screen's
widgets show: the background job that evaluates a topic and reads what the tabs need
(:func:`evaluation_job`), the comparison table's cells, the landscape's arrays, the
decay marks. A change of the engine's API touches this module only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.evaluation.analysis import (
    Overlap,
    list_overlap,
    map_titles,
    threshold_sweeps,
)
from litqeval_gui.core.evaluation.engine import ListEvaluation, TopicEvaluation, evaluate_topic
from litqeval_gui.core.evaluation.intervals import wilson_interval
from litqeval_gui.core.evaluation.methods import METHODS, MethodResult
from litqeval_gui.core.evaluation.recall import ListRecall
from litqeval_gui.core.evaluation.settings import EvaluationSettings
from litqeval_gui.core.jobs import CancelToken, Job, Progress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.gui.plots.landscape_data import LandscapeData, ListLayer
from litqeval_gui.metrics.semantic import ThresholdAnalysis

METHOD_NAMES = {"cos": "SP cos", "cluster": "SP cluster", "mvee": "SP MVEE", "hull": "SP hull"}
SHORT_NAMES = {"cos": "cos", "cluster": "cluster", "mvee": "MVEE", "hull": "hull"}
MAP_METHODS = ("mvee", "hull")  # computed on the 2D map: shown with the fidelity badge


@dataclass(frozen=True, eq=False)
class ScreenData:
    """Everything the screen shows for one evaluation, read off the GUI thread."""

    evaluation: TopicEvaluation
    sweeps: dict[str, ThresholdAnalysis]
    overlap: Overlap
    landscape: LandscapeData

    @property
    def fidelity(self) -> float | None:
        value = self.evaluation.fidelity
        return None if math.isnan(value) else value


def evaluation_job(open_project: Callable[[], Project], topic: str,
                   settings: EvaluationSettings) -> Callable[[CancelToken], Job[ScreenData]]:
    """A job factory: evaluate ``topic`` with ``settings`` (vectors and map computed when
    missing or stale), then read the sweeps, the overlap and the map's titles — all on the
    job's own connection, opened and closed on its thread."""

    def make(token: CancelToken) -> Job[ScreenData]:
        project = open_project()
        try:
            evaluation = yield from evaluate_topic(project, topic, settings, token=token)
            yield Progress(100, 100, "threshold analysis")
            token.raise_if_cancelled()
            sweeps = threshold_sweeps(project, evaluation)
            titles = map_titles(project, evaluation.map.record_ids)
            return ScreenData(evaluation, sweeps, list_overlap(project, topic),
                              landscape_data(evaluation, titles))
        finally:
            project.close()

    return make


# -- the landscape ----------------------------------------------------------------------

def _list_layer(evaluation: TopicEvaluation, item: ListEvaluation) -> ListLayer:
    """The list on the map's rows: its R rows, plus the core set's row of every core work
    it retrieved (E_C and R may hold different records of one work: the star is drawn at
    the core record)."""
    ids = evaluation.map.record_ids
    rows, core = item.rows, evaluation.core_rows
    found_core = core.record_ids[np.isin(core.work_ids, rows.work_ids)]
    retrieved = np.isin(ids, rows.record_ids) | np.isin(ids, found_core)
    relevant = {method: np.isin(ids, rows.record_ids[item.relevant[method]])
                for method in METHODS}
    mvee = item.methods["mvee"].detail
    hull = item.methods["hull"].detail
    ellipse = ((np.asarray(mvee["centre"]), np.asarray(mvee["matrix"]))
               if "centre" in mvee else None)
    polygon = np.asarray(hull["polygon"]) if "polygon" in hull else None
    return ListLayer(item.name, retrieved, relevant, ellipse, polygon)


def landscape_data(evaluation: TopicEvaluation, titles: list[str]) -> LandscapeData:
    """Every record of the topic's map, its core records (E_C) and one layer per list."""
    stored = evaluation.map
    fidelity = None if math.isnan(stored.fidelity) else stored.fidelity
    return LandscapeData(
        xy=stored.coords.astype(np.float64), ids=stored.record_ids, titles=titles,
        is_core=np.isin(stored.record_ids, evaluation.core_rows.record_ids),
        lists=tuple(_list_layer(evaluation, item) for item in evaluation.lists),
        fidelity=fidelity)


def decay_marks(evaluation: TopicEvaluation) -> dict[str, int]:
    """Each list's n on the decay curve: its SP cos relevant count."""
    return {item.name: item.methods["cos"].relevant for item in evaluation.lists}


# -- the comparison table -----------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """A table cell: its text, the value it sorts by, a tooltip."""

    text: str
    sort: object
    tip: str = ""


# What each method's P counts, and the recall its F-score uses (issue 24: no circular tips)
PRECISION_TIPS = {
    "cos": "the share of the list's records whose vector (title + abstract) is at least θ "
           "similar (cosine) to the centroid of the core set's vectors",
    "cluster": "k-means groups the list's records with the largest k at which one group "
               "still holds more than the cluster θ share of the retrieved core works; P = "
               "that group's size ÷ the list's records. When even k = 2 splits the core "
               "works, k is 1 and the group is the whole list: P = 1.000 and n = the "
               "list's size (the core works are spread over the list)",
    "mvee": "the share of the list's records inside the smallest ellipse around the "
            "retrieved core works on the 2D map (undefined with fewer than 3)",
    "hull": "the share of the list's records inside the convex polygon around the "
            "retrieved core works on the 2D map (undefined with fewer than 3)",
}
F_RECALL = {"cos": "the core works above θ", "cluster": "the core works in the chosen group",
            "mvee": "the plain recall", "hull": "the plain recall"}


def table_headers() -> list[tuple[str, str]]:
    """(header, tooltip) of every column; a two-line header is ``group\nlabel`` (the
    method over each of its columns). The tooltips say what the number is, in words,
    and its source; the help page lists them."""
    columns = [("List", "The result list (a search export of the topic)"),
               ("Works", "Distinct publications in the list: records of the same work "
                         "(same DOI or PMID, same title and year, or an accepted match) "
                         "count once"),
               ("Recall", "Recall = |C ∩ R| / |C|: core works the list (R) retrieved ÷ "
                          "core works of the topic (C). Source: LitQEval"),
               ("95 % CI", "Wilson score interval of the recall: how far it could be off "
                           "with this few core works (2 of 3 retrieved: 0.21–0.94). "
                           "Source: Wilson 1927")]
    for method in METHODS:
        name, short = METHOD_NAMES[method], SHORT_NAMES[method]
        on_map = " Computed on the 2D map: see its fidelity." if method in MAP_METHODS else ""
        columns += [(f"{short}\nP", f"{name} precision: {PRECISION_TIPS[method]}.{on_map} "
                                    "Source: LitQEval"),
                    (f"{short}\nn", f"{name} n: the records {name} counts as on topic "
                                    "(P = n ÷ the list's records)"),
                    (f"{short}\nF2", f"{name} F2 = (1 + β²)·P·λ(n)·R ÷ (β²·P·λ(n) + R) with "
                                     "β = 2 (recall weighs four times precision); λ(n) = "
                                     "(1 − (n/α)^p)^q shrinks P for very large n; R = recall "
                                     f"of {F_RECALL[method]}. Source: LitQEval")]
    columns += [("cos P\nLOO range", "Leave-one-out: the range of SP cos (and its F2) when "
                 "each core work in turn is left out of the core set; a wide range means "
                 "one core work decides θ")]
    return columns


def _method_cells(result: MethodResult) -> list[Cell]:
    if not result.defined:
        tip = f"undefined: {result.reason}"
        return [Cell("—", -1.0, tip), Cell("—", -1, tip), Cell("—", -1.0, tip)]
    tip = (f"precision {result.precision:.6f} · {result.relevant:,} relevant · "
           f"F2 {result.f_beta:.6f} · recall {result.recall:.6f} · λ = {result.decay:.6f}")
    return [Cell(f"{result.precision:.3f}", result.precision, tip),
            Cell(f"{result.relevant:,}", result.relevant, tip),
            Cell(f"{result.f_beta:.3f}", result.f_beta, tip)]


def _recall_cells(item: ListEvaluation | ListRecall, lo: float, hi: float,
                  size_tip: str) -> list[Cell]:
    missed = f"{item.core - item.retrieved_core} of {item.core} core works missed"
    return [Cell(item.name, item.name.casefold(), item.name),
            Cell(f"{item.size:,}", item.size, size_tip),
            Cell(f"{item.recall:.3f}", item.recall, missed),
            Cell(f"{lo:.2f}–{hi:.2f}", lo, f"{item.retrieved_core} of {item.core}")]


WAITING = "…"  # a semantic cell while the vectors and the map are computed


def recall_row(item: ListRecall) -> list[Cell]:
    """A list's cells before its evaluation (issue 24): the set counts — works, recall
    and its interval — and :data:`WAITING` where the vectors or the map are needed."""
    cells = _recall_cells(item, *wilson_interval(item.retrieved_core, item.core), "")
    waiting = Cell(WAITING, -1.0, "waits for the topic's vectors and its 2D map, computed "
                                  "in the background")
    return cells + [waiting] * (len(table_headers()) - len(cells))


def table_row(item: ListEvaluation) -> list[Cell]:
    """One list's cells, in the order of :func:`table_headers`."""
    cells = _recall_cells(item, *item.recall_ci,
                          f"{item.without_vector} without title or abstract (no vector)"
                          if item.without_vector else "")
    for method in METHODS:
        cells += _method_cells(item.methods[method])
    cos = item.methods["cos"]
    if cos.loo_range and cos.loo_f_range:
        cells.append(Cell(f"{cos.loo_range[0]:.3f}–{cos.loo_range[1]:.3f}",
                          cos.loo_range[1] - cos.loo_range[0],
                          f"F2 {cos.loo_f_range[0]:.3f}–{cos.loo_f_range[1]:.3f}"))
    else:
        cells.append(Cell("—", -1.0, "needs at least 2 core records with a vector"))
    return cells


def cos_theta(evaluation: TopicEvaluation) -> float | None:
    """The θ SP cos used (from the core set, or the user's)."""
    for item in evaluation.lists:
        theta = item.methods["cos"].detail.get("theta")
        if theta is not None:
            return float(theta)
    return None


def notes(evaluation: TopicEvaluation) -> list[str]:
    """Undefined metrics with their reasons and the embedding's notes."""
    lines = [f"{item.name}, {METHOD_NAMES[m]}: undefined — {item.methods[m].reason}"
             for item in evaluation.lists for m in METHODS if not item.methods[m].defined]
    return lines + list(evaluation.embedding_notes)
