"""Replay prioritised screening with known labels (issue 14 §6).

Prior knowledge: ``prior_included`` relevant and ``prior_excluded`` irrelevant items
drawn at random (seeded) are screened first. Then, until every item is screened: the
model is trained on the labels seen so far and the undecided items are screened in its
order (those without text last, in list order, as in the app); it is retrained once
:data:`RETRAIN_FRACTION` more records (at least one) have been screened since the last
training, so after every record for the first 100. Once every relevant item with text is
screened, the rest follows without training (only irrelevant items with text are left,
whose order changes no measure, then the items without text).
(ASReview retrains after every record. With ``logistic``, mean WSS@95 over 5 seeds
(asreview-insights' convention, ``benchmarks/bench_simulate.py``'s priors) on Nagtegaal
2019 / Cohen ACE / Radjenovic 2013: every 1 % 0.734 / 0.731 / 0.863; every 0.5 % 0.734 /
0.733 / 0.862; every 0.25 % 0.736 / 0.731 / 0.862; after every record 0.737 / 0.731 /
0.862 for six times the time (Nagtegaal: 18 s a run instead of 3 s), so no finer
cadence is better on all three. Every 5 % loses 0.02 on Nagtegaal with naive Bayes.)
Until both classes are seen, the records are ranked as the screener ranks them: by the
cosine to the centroid of the relevant ones seen, else to the review question when the
features hold one (:func:`~litqeval_gui.core.screening.ranking.models.cold_scores`);
with neither, the next record is drawn at random. (AutoTAR's cold start — the question
as a relevant document beside 100 unscreened records presumed irrelevant — was tried on
the 19-review pool with no prior record and each review's title as the question: recall
at 10 % screened 0.373 against the cosine's 0.469 over 17 reviews, 3 seeds; it stays
stuck where the question's words fit the irrelevant records as well, 0.000 on Beta
Blockers and Opioids.)

Reported (SPEC §2 via :mod:`litqeval_gui.metrics.tar`): the recall curve, WSS@95,
nP@95, snP@95 and last_rel of the screening order; WSS@95 and WSS@100 in the project's
convention and asreview-insights' (priors left out), recall at 10 % and 25 % screened and
the records screened to reach 95 % and 100 % (:mod:`litqeval_gui.metrics.screening_effort`);
and for each stopping rule where it would first have said stop, the recall then, its
target recall, whether it reached it, the work it saved ((N − stopped at)/N; 0 when it
never said stop) and the work the best possible stop for that target saves (the oracle).

The random-sample rule (:class:`~litqeval_gui.metrics.stopping.RandomSampleStop`) is a
procedure of its own: screening follows the model's order until the rule advises the
switch, then draws the records not yet screened in a random order (seeded by the run's
seed) until its test says stop; the recall then counts what the random records found.
The rules that read a control sample (QBCB, the target method) draw it from all records
at random with the same seed (:func:`control_sample_stop`). Every outcome names the
rule's ``kind``; the rule the app recommends
(:data:`~litqeval_gui.core.screening.stopping.panel.RECOMMENDED`) carries
``"recommended": true``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import hypergeom

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.projectfile.parameters import NON_NEGATIVE
from litqeval_gui.core.screening.ranking.features import Features, blank_last
from litqeval_gui.core.screening.ranking.models import check_model, cold_scores, predict
from litqeval_gui.core.screening.stopping.panel import RECOMMENDED, default_rules
from litqeval_gui.metrics.screening_effort import effort, screened_to_reach
from litqeval_gui.metrics.stopping import (
    QuantileBinomialBound,
    RandomSampleStop,
    StoppingRule,
    significance,
    target_remaining,
)
from litqeval_gui.metrics.tar import recall_curve, tar_at_recall

RETRAIN_FRACTION = 0.01
RECALL = 0.95


@dataclass(frozen=True)
class Simulation:
    """One run: the screening ``order`` (item indices) and what it achieved."""

    records: int
    relevant: int
    model: str
    seed: int
    seconds: float
    order: np.ndarray
    wss_at_95: float
    np_at_95: float
    snp_at_95: float
    last_rel: float
    stopping: dict[str, dict[str, float | int | bool | None]]
    priors: int = 0

    def labels(self, relevant: np.ndarray) -> np.ndarray:
        return relevant[self.order]

    def as_dict(self, relevant: np.ndarray) -> dict:
        """The ``simulate --json`` document."""
        screened, found = recall_curve(self.labels(relevant))
        return {"records": self.records, "relevant": self.relevant, "model": self.model,
                "seed": self.seed, "seconds": round(self.seconds, 3),
                "wss_at_95": _number(self.wss_at_95), "np_at_95": _number(self.np_at_95),
                "snp_at_95": _number(self.snp_at_95), "last_rel": _number(self.last_rel),
                "priors": self.priors, **effort(self.labels(relevant), self.priors),
                "recall_curve": [[int(s), int(f)] for s, f in zip(screened, found, strict=True)],
                "stopping": self.stopping}


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def simulate(features: Features, relevant: np.ndarray, *, model: str = "logistic",
             prior_included: int = 1, prior_excluded: int = 1, seed: int = 0,
             rules: list[StoppingRule] | None = None, prior: Sequence[int] | None = None,
             token: CancelToken = NEVER) -> Job[Simulation]:
    """One simulated screening of ``features``' items whose truth is ``relevant`` (bool);
    ``prior`` (item indices) replaces the random draw of the prior records."""
    for name, value in (("--prior-included", prior_included),
                        ("--prior-excluded", prior_excluded), ("--seed", seed)):
        NON_NEGATIVE.check(value, name)
    truth = np.asarray(relevant, dtype=bool)
    n = len(features.items)
    if truth.shape != (n,):
        raise LitqError(f"{truth.size} labels for {n} records")
    check_model(model, features)
    if prior is None and (truth.sum() < prior_included or (~truth).sum() < prior_excluded):
        raise LitqError(f"cannot draw {prior_included} relevant and {prior_excluded} "
                        f"irrelevant prior records from {int(truth.sum())} relevant of {n}")
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    order = [int(i) for i in prior] if prior is not None else \
        list(rng.choice(np.flatnonzero(truth), prior_included, replace=False)) + \
        list(rng.choice(np.flatnonzero(~truth), prior_excluded, replace=False))
    priors = len(order)
    seen = np.zeros(n, dtype=bool)
    seen[order] = True
    x = features.matrix
    blank = features.blank
    queue: list[int] = []
    trained_at = -1
    remaining = int((truth & ~blank & ~seen).sum())  # relevant with text, not yet screened
    while len(order) < n:
        if not remaining:  # the rest: no more relevant with text, those without text last
            rest = [i for i in queue[::-1] if not blank[i]] if queue else \
                list(rng.permutation(np.flatnonzero(~seen & ~blank)))
            order += [int(i) for i in rest] + np.flatnonzero(~seen & blank).tolist()
            break
        if trained_at < 0 or len(order) - trained_at >= max(1, RETRAIN_FRACTION * trained_at) \
                or not queue:
            token.raise_if_cancelled()
            yield Progress(len(order), n, "simulating")
            queue = _ranked(model, x, blank, np.array(order, dtype=np.intp), truth, seen, rng,
                            features.question_row)
            trained_at = len(order)
        record = queue.pop()
        order.append(record)
        seen[record] = True
        remaining -= int(truth[record] and not blank[record])
    seconds = time.perf_counter() - started
    ranked = np.array(order, dtype=np.intp)
    labels = truth[ranked]
    tar = tar_at_recall(labels, RECALL)
    stopping = {rule.name: stop_outcome(rule, labels, np.random.default_rng([seed, 1]))
                for rule in (default_rules() if rules is None else rules)}
    return Simulation(n, int(truth.sum()), model, seed, seconds, ranked, tar.wss,
                      tar.nprecision, tar.snprecision, tar.last_rel, stopping, priors)


def stop_outcome(rule: StoppingRule, labels: np.ndarray, rng: np.random.Generator
          ) -> dict[str, float | int | bool | None]:
    """Where ``rule`` stops a screening whose relevance in the model's order is
    ``labels``, and how that compares with its target (module docstring)."""
    n, found = labels.size, int(labels.sum())
    if isinstance(rule, RandomSampleStop):
        stopped, hits = random_sample_stop(rule, labels, rng)
    elif isinstance(rule, QuantileBinomialBound):
        stopped, hits = control_sample_stop(rule, labels, rng)
    else:
        stopped = rule.first_stop(labels.astype(np.int64), n)
        hits = None if stopped is None else int(labels[:stopped].sum())
    target = float(getattr(rule, "recall_target", RECALL))
    recall = None if stopped is None or not found else hits / found
    oracle = screened_to_reach(labels, target)
    return {"stopped_at": stopped, "recall_then": recall, "target": target,
            "reached": bool(stopped is None or not found or recall >= target - 1e-12),
            "work_saved": 0.0 if stopped is None else (n - stopped) / n,
            "oracle_work_saved": None if oracle is None else (n - oracle) / n,
            "kind": rule.kind, **({"recommended": True} if rule.name == RECOMMENDED else {})}


def control_sample_stop(rule: QuantileBinomialBound, labels: np.ndarray,
                        rng: np.random.Generator) -> tuple[int | None, int]:
    """(records screened when the rule says stop, relevant found by then) for a rule that
    reads a control sample: records drawn in ``rng``'s random order from all of them
    until ``rule.positives`` are relevant, then the model's order ``labels`` until the
    rule says stop. The control records the ranking had not reached count as screened
    and what they found as found; (None, all found) when it never stops early (too few
    relevant records for the sample, or too few reached)."""
    hits = labels.astype(np.int64)
    order = rng.permutation(hits.size)
    relevant_drawn = np.cumsum(hits[order])
    if relevant_drawn[-1] < rule.positives:
        return None, int(hits.sum())
    control = order[: int(np.searchsorted(relevant_drawn, rule.positives)) + 1]
    ranks = tuple(sorted(int(i) + 1 for i in control if hits[i]))
    stop = dataclasses.replace(rule, control_ranks=ranks).first_stop(hits, hits.size)
    if stop is None or stop >= hits.size:
        return None, int(hits.sum())
    outside = control[control >= stop]
    screened = stop + outside.size
    if screened >= hits.size:
        return None, int(hits.sum())
    return screened, int(hits[:stop].sum() + hits[outside].sum())


def random_sample_stop(rule: RandomSampleStop, labels: np.ndarray,
                       rng: np.random.Generator) -> tuple[int | None, int]:
    """(records screened when the rule says stop, relevant found by then) when screening
    follows ``labels`` (the model's order) until the rule advises the switch and then the
    rest in ``rng``'s random order; (None, all found) when it never stops early."""
    hits = labels.astype(np.int64)
    switch = rule.switch_rule().first_stop(hits, hits.size)
    if switch is None or switch >= hits.size:
        return None, int(hits.sum())
    before = int(hits[:switch].sum())
    sample = rng.permutation(hits[switch:])
    urn = sample.size
    k = np.cumsum(sample)
    drawn = np.arange(1, urn + 1)
    k_tar = target_remaining(before, k, rule.recall_target)
    p = np.where(k_tar > urn, 0.0, hypergeom_cdf(k, urn, k_tar, drawn))
    stops = np.flatnonzero(p < significance(rule.confidence))
    if not stops.size or stops[0] + 1 == urn:
        return None, int(hits.sum())
    return switch + int(stops[0]) + 1, before + int(k[stops[0]])


def hypergeom_cdf(k: np.ndarray, urn: int, k_tar: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """P(X <= k) for X ~ Hypergeom(urn, K_tar, drawn), elementwise (as
    :func:`~litqeval_gui.metrics.stopping.hypergeometric_p`, for every sample size at once)."""
    return hypergeom.cdf(k, urn, np.minimum(k_tar, urn), drawn)


def _ranked(model: str, x, blank: np.ndarray, order: np.ndarray, truth: np.ndarray,
            seen: np.ndarray, rng: np.random.Generator, question_row: int | None
            ) -> list[int]:
    """The undecided items, best last (popped first): by the model's score (the
    ``blank`` ones, without text, first: popped last) once both classes are seen, before
    that as the screener ranks them (:func:`~litqeval_gui.core.screening.ranking.models.cold_scores`),
    else at random."""
    open_rows = np.flatnonzero(~seen)
    targets = truth[order].astype(np.int64)
    if targets.size and targets.min() != targets.max():
        scores, _ = predict(model, x[order], targets, False, x[open_rows])
    else:
        cold = cold_scores(x, order[targets == 1], question_row, open_rows)
        if cold is None:
            return list(rng.permutation(open_rows))
        scores = cold[0]
    scores = blank_last(scores, blank[open_rows])
    return list(open_rows[np.argsort(scores, kind="stable")])


def recall_band(runs: list[Simulation], relevant: np.ndarray) -> list[list[int]]:
    """``[screened, fewest found, most found]`` over the runs at every screened count."""
    curves = np.array([recall_curve(run.labels(np.asarray(relevant, dtype=bool)))[1]
                       for run in runs])
    return [[i, int(low), int(high)] for i, (low, high) in
            enumerate(zip(curves.min(axis=0), curves.max(axis=0), strict=True))]
