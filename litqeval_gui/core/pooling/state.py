"""A pool's state, derived from its runs and judgements, and effort across topics.

Nothing here is stored: :func:`pool_state` recomputes it from the pool row, its runs
and the current judgements (SPEC §4 via :mod:`litqeval_gui.metrics.pooling`). Depth k
is *judged* when every work of P(k) is; nrels, ŕ and k_cr use the judged depths only.
The full depth is the pool's, or the longest run when that is shorter; a low-yield rule
deeper than that full depth does not apply.
Balancing (:func:`schedule`): the topics still finding relevant records come first
(relevant per judged work over the last w judged depths; a pool that has judged
nothing yet ranks first), ties by less effort.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.pooling import store
from litqeval_gui.core.pooling.store import Pool
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.log.labels import GRADED_RELEVANT_FROM, is_relevant
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.metrics import pooling as metrics


@dataclass(frozen=True)
class Contribution:
    """A run's relevant works within the released depth and those only it found."""

    run: str
    relevant: int
    only: int


@dataclass(frozen=True)
class PoolState:
    pool: Pool
    run_names: tuple[str, ...]
    run_works: tuple[tuple[int, ...], ...]  # each run's works in rank order, no repeats
    layers: tuple[tuple[int, ...], ...]  # works new at depths 1..max_depth
    representative: dict[int, int]  # work -> the record screened for it
    judged: dict[int, bool]  # work -> relevant
    judged_depth: int
    nrels: np.ndarray  # nrels(1..judged_depth)
    sizes: np.ndarray  # |P(k)| for k = 1..max_depth
    rate: np.ndarray  # ŕ(1..len(rate))
    decision: metrics.PoolingDecision

    @property
    def released(self) -> int:
        return self.pool.depth

    @property
    def max_depth(self) -> int:
        return len(self.layers)

    def pooled(self, depth: int | None = None) -> list[int]:
        """The works of P(depth) (default: the released depth) in pooling order."""
        depth = self.released if depth is None else depth
        return [work for layer in self.layers[:depth] for work in layer]

    @property
    def pending(self) -> list[int]:
        """Released works not judged yet, in pooling order."""
        return [work for work in self.pooled() if work not in self.judged]

    @property
    def effort(self) -> int:
        """Judged works of the released pool."""
        return sum(1 for work in self.pooled() if work in self.judged)

    @property
    def relevant(self) -> int:
        return sum(1 for work in self.pooled() if self.judged.get(work))

    @property
    def finished(self) -> bool:
        d = self.decision
        return d.stop_depth is not None and self.judged_depth >= d.depth_needed

    @property
    def can_advance(self) -> bool:
        return not self.finished and self.released < self.max_depth

    @property
    def l_run(self) -> tuple[int, int] | None:
        """(first, last) depth of the l-run of ŕ below t that fixed k_cr."""
        k_cr = self.decision.k_cr
        return None if k_cr is None else (k_cr, k_cr + self.pool.settings.params.run_length - 1)

    def why(self) -> str:
        """Why the stop rule stops where it does, or which depth it waits for and why."""
        d, settings = self.decision, self.pool.settings
        p, rule = settings.params, settings.low_yield
        below = f"the smoothed rate ŕ stayed below t = {p.threshold:g} for l = {p.run_length}"
        if d.reason == "low yield" and rule is not None:
            found = int(self.nrels[rule.depth - 1]) if self.judged_depth >= rule.depth else 0
            size = int(self.sizes[rule.depth - 1])
            return (f"a low-yield topic: {found} relevant of the {size:,} records of depth "
                    f"{rule.depth} (at most {rule.max_ratio:.0%}), so it is pooled to the "
                    f"full depth {d.stop_depth}")
        if d.reason == "critical depth":
            return f"critical depth k_cr = {d.k_cr}: from there {below} depths"
        if d.reason == "full depth":
            return f"the full depth {d.stop_depth} was reached before {below} depths"
        if rule is not None and d.low_yield is None and d.depth_needed == rule.depth:
            return (f"depth {d.depth_needed} must be judged: the low-yield test (at most "
                    f"{rule.max_ratio:.0%} relevant) is made there")
        return (f"depth {d.depth_needed} must be judged: the first smoothed rate ŕ needs "
                f"w + W = {p.window + p.rate_window} judged depths, and k_cr a run of "
                f"l = {p.run_length} rates below t = {p.threshold:g}")

    def recent_yield(self) -> float:
        """Relevant per judged work over the last w judged depths (inf before any)."""
        d = self.judged_depth
        if d == 0:
            return float("inf")
        back = max(d - self.pool.settings.params.window, 0)
        found = int(self.nrels[d - 1]) - (int(self.nrels[back - 1]) if back else 0)
        judged = int(self.sizes[d - 1]) - (int(self.sizes[back - 1]) if back else 0)
        return found / judged if judged else 0.0

    def contributions(self) -> list[Contribution]:
        """Per run: relevant works in its top ``released`` ranks, and those no other run
        has there."""
        tops = [set(works[:self.released]) for works in self.run_works]
        relevant = {work for work, rel in self.judged.items() if rel}
        rows = []
        for i, (name, top) in enumerate(zip(self.run_names, tops, strict=True)):
            others = set().union(*(t for j, t in enumerate(tops) if j != i))
            rows.append(Contribution(name, len(top & relevant), len(top & relevant - others)))
        return rows

    def static_pools(self, n: int | None = None, p: float = 0.8) -> dict[str, tuple[int, int]]:
        """Static pools of the same runs for comparison: name -> (size, relevant known).

        Depth-k at the stop (or judged) depth; RBP-take-N (``p``) and RRF-take-N with
        N = ``n`` (default: the variable pool's effort). Only judged works count.
        """
        n = self.effort if n is None else n
        k = self.decision.stop_depth or self.judged_depth
        runs = [list(works) for works in self.run_works]
        pools = {f"depth-{k}": metrics.depth_k_pool(runs, k),
                 f"RBP-take-{n} (p={p:g})": metrics.rbp_take_n(runs, n, p),
                 f"RRF-take-{n}": metrics.rrf_take_n(runs, n)}
        return {name: (len(docs), sum(1 for d in docs if self.judged.get(d)))
                for name, docs in pools.items()}

    def as_dict(self) -> dict:
        d = self.decision
        return {"topic": self.pool.topic, "pool": self.pool.name,
                "settings": self.pool.settings.as_dict(), "released_depth": self.released,
                "judged_depth": self.judged_depth, "max_depth": self.max_depth,
                "pool_size": int(self.sizes[self.released - 1]) if self.released else 0,
                "effort": self.effort, "relevant": self.relevant,
                "pending": len(self.pending), "nrels": self.nrels.tolist(),
                "rate": self.rate.tolist(), "k_cr": d.k_cr, "low_yield": d.low_yield,
                "stop_depth": d.stop_depth, "reason": d.reason,
                "depth_needed": d.depth_needed, "finished": self.finished,
                "contributions": [vars(c) for c in self.contributions()]}


def _works(project: Project, topic_id: int) -> dict[int, int]:
    return {record: work if work is not None else -record for record, work in project.db.execute(
        "SELECT id, work_id FROM live_records WHERE topic_id = ?", [topic_id])}


def judgements(project: Project, pool: Pool, work_of: dict[int, int]) -> dict[int, bool]:
    """work -> relevant: the qrels lists' grades, then the screening's final decisions
    (the resolution where reviewers disagreed; an unresolved conflict stays unjudged)."""
    judged: dict[int, bool] = {}
    for import_id in pool.qrels:
        for record, grade in project.db.execute(
                "SELECT id, score FROM live_records WHERE import_id = ?", [import_id]):
            work = work_of[record]
            judged[work] = judged.get(work, False) or (grade or 0) >= GRADED_RELEVANT_FROM
    scheme = screening_store.get_screening(project, pool.screening_id).scheme
    for event in team.final_events(project, pool.screening_id):
        if event.record_id in work_of:
            judged[work_of[event.record_id]] = is_relevant(scheme, event.label)
    return judged


def pool_state(project: Project, pool: Pool) -> PoolState:
    """The state of ``pool`` now (re-read ``pool`` first when it may have advanced)."""
    work_of = _works(project, pool.topic_id)
    run_list = store.runs(project, pool)
    run_works, first = [], {}
    for position, run in enumerate(run_list):
        works = []
        for rank, record in enumerate(r for r in run.records if r in work_of):
            work = work_of[record]
            if work not in first or (rank, position) < first[work][0]:
                first[work] = ((rank, position), record)
            works.append(work)
        run_works.append(tuple(dict.fromkeys(works)))
    settings = pool.settings
    max_depth = min(settings.full_depth, max((len(w) for w in run_works), default=0))
    layers = tuple(tuple(layer) for layer in metrics.new_at_each_depth(run_works, max_depth))
    judged = judgements(project, pool, work_of)
    judged_depth = 0
    while judged_depth < min(pool.depth, max_depth) and all(
            work in judged for work in layers[judged_depth]):
        judged_depth += 1
    relevant = {work for work, rel in judged.items() if rel}
    nrels = metrics.nrels_curve(layers[:judged_depth], relevant)
    sizes = metrics.pool_sizes(layers)
    rule = settings.low_yield if settings.low_yield and settings.low_yield.depth <= max_depth \
        else None
    decision = metrics.pooling_decision(nrels, sizes, settings.params, max(max_depth, 1), rule)
    rate = metrics.smoothed_rate(nrels, settings.params.window, settings.params.rate_window)
    return PoolState(pool, tuple(r.name for r in run_list), tuple(run_works), layers,
                     {work: rec for work, (_, rec) in first.items()}, judged, judged_depth,
                     nrels, sizes, rate, decision)


@dataclass(frozen=True)
class Advance:
    depth: int
    added: int  # records sent to the screening

    def message(self) -> str:
        plural = "" if self.added == 1 else "s"
        return f"pool depth {self.depth}: {self.added} new record{plural}"


def pool_rule(project: Project, screening_id: int) -> str | None:
    """What the stop rule of the pool this screening judges for says (the pool's own
    rule, not the title/abstract stopping rules), or None for no pool's screening."""
    pool = store.pool_of_screening(project, screening_id)
    if pool is None:
        return None
    found = pool_state(project, pool)
    advice = (f"stop at depth {found.decision.stop_depth}" if found.finished
              else "go on judging")
    return (f"Pool “{pool.name}” decides when to stop (variable-depth pooling): {advice}; "
            f"{found.why()}")


def next_release(project: Project, pool: Pool) -> tuple[int, list[int]]:
    """The next depth of ``pool`` and the records to send for it (its works not judged
    yet); a clear error when the pool has stopped or is at its full depth."""
    state = pool_state(project, store.get_pool(project, pool.id))
    if state.finished:
        raise LitqError(f"pool {pool.name!r} has stopped at depth {state.decision.stop_depth} "
                        f"({state.decision.reason})")
    if not state.can_advance:
        raise LitqError(f"pool {pool.name!r} is at its full depth {state.max_depth}")
    depth = state.released + 1
    return depth, [state.representative[w] for w in state.layers[depth - 1]
                   if w not in state.judged]


def advance(project: Project, pool: Pool) -> Advance:
    """Release the next depth: its works not judged yet go to the pool's screening."""
    depth, records = next_release(project, pool)
    return Advance(depth, project.write(store.release_op(store.get_pool(project, pool.id),
                                                         depth, records)).value)


def advance_while_judged(project: Project, pool: Pool) -> list[Advance]:
    """Advance as long as nothing released waits for a judgement (e.g. complete qrels)."""
    done: list[Advance] = []
    while True:
        state = pool_state(project, store.get_pool(project, pool.id))
        if state.pending or not state.can_advance:
            return done
        done.append(advance(project, pool))


def schedule(states: Sequence[PoolState]) -> list[PoolState]:
    """The unfinished pools, the one that most deserves effort first (module docstring)."""
    active = [s for s in states if not s.finished and (s.pending or s.can_advance)]
    return sorted(active, key=lambda s: (-s.recent_yield(), s.effort, s.pool.id))


def next_to_judge(states: Sequence[PoolState]) -> tuple[PoolState, int | None] | None:
    """Where effort goes next across topics: (pool, record to screen), or (pool, None)
    when that pool's released depth is judged and it should advance; None when done."""
    order = schedule(states)
    if not order:
        return None
    first = order[0]
    return first, first.representative[first.pending[0]] if first.pending else None
