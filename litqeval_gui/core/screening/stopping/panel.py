"""The stopping panel (SPEC §5): every rule's verdict and evidence, and the recall curve.

Over the screening history in screening order (1 = relevant, see
:func:`~litqeval_gui.core.screening.log.labels.is_relevant`) and N = the screening's size,
each rule of :mod:`litqeval_gui.metrics.stopping` gives "safe to stop" with its
evidence; the curve is :func:`~litqeval_gui.metrics.tar.recall_curve` of the history
with the knee of :class:`~litqeval_gui.metrics.stopping.KneeMethod` marked; once the
reviewer screens a random sample (the random-sample rule's ``random_from`` is set), the
recall estimate with its interval from that sample
(:func:`~litqeval_gui.metrics.recall_estimate.recall_from_sample`); before it, a rule's
own estimate, the recommended rule's first (today only the point process makes one).
:func:`screening_panel` reads a screening's current round
(:func:`~litqeval_gui.core.screening.stopping.phases.round_history`): a search update's records
are a new round, evaluated apart, and a round switched to random screening gives the
rules that read a random sample (the random-sample rule, the hypergeometric test) where
its sample begins. The rules advise; nothing here stops the reviewer. Each rule says its
kind (certified, model-based, heuristic); the panel recommends :data:`RECOMMENDED`, or
:data:`GUARANTEED` when the project asks for a guarantee
(:data:`~litqeval_gui.core.projectfile.parameters.STOP_GUARANTEE`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.state import StateCounts, state_counts
from litqeval_gui.core.screening.stopping.phases import Round, round_history
from litqeval_gui.metrics.recall_estimate import recall_from_sample
from litqeval_gui.metrics.stopping import (
    RULES,
    HypergeometricTest,
    KneeMethod,
    RandomSampleStop,
    RecallEstimate,
    StopDecision,
    StoppingRule,
)
from litqeval_gui.metrics.tar import recall_curve

RECOMMENDED = HypergeometricTest.name
"""The rule the app recommends, chosen on the pool of 19 real reviews (10 seeds each,
``benchmarks/bench_stopping.py``): the most work saved among the rules that reached their
target recall in at least 95 % of the runs — the hypergeometric test read on the ranked
records (190 of 190 runs, a median 0.27 of the oracle's saving; the point process reached
it in 144 of 190). ``docs/stopping.md`` has the table."""
GUARANTEED = RandomSampleStop.name
"""The rule recommended when the reviewer asks for a guarantee: the certified rule that
saved the most work on the same pool (189 of 190, 0.24; QBCB and the target method 0.00:
their control samples cost most of a review this small)."""


def recommended(guarantee: bool) -> str:
    """The recommended rule's name: :data:`GUARANTEED` when a guarantee is asked for."""
    return GUARANTEED if guarantee else RECOMMENDED


def default_rules(*, recall_target: float = 0.95, confidence: float = 0.95,
                  consecutive: int = 50, batch_size: int = 10) -> list[StoppingRule]:
    """Every registered rule (:data:`~litqeval_gui.metrics.stopping.RULES`) with the
    user's recall target, confidence, run length and batch where it takes them."""
    given = {"recall_target": recall_target, "confidence": confidence, "n": consecutive,
             "batch_size": batch_size}
    built = []
    for rule in RULES.values():
        names = {f.name for f in dataclasses.fields(rule)}
        built.append(rule(**{k: v for k, v in given.items() if k in names}))
    return built


def project_rules(project: Project) -> list[StoppingRule]:
    """:func:`default_rules` with the project's stopping parameters."""
    return default_rules(
        recall_target=parameters.get(project, parameters.STOP_RECALL_TARGET),
        confidence=parameters.get(project, parameters.STOP_CONFIDENCE),
        consecutive=parameters.get(project, parameters.STOP_CONSECUTIVE),
        batch_size=parameters.get(project, parameters.STOP_BATCH_SIZE))


@dataclass(frozen=True)
class Verdict:
    """One rule's advice: ``title`` names its source (the tooltip), ``kind`` its kind."""

    name: str
    title: str
    decision: StopDecision
    kind: str = ""


@dataclass(frozen=True)
class Panel:
    """``screened`` of ``n_total`` with ``found`` relevant; the curve (screened, found)
    arrays of length screened + 1; ``knee`` = 1-based position of the knee (by the
    rules' knee method) or None, and then ``knee_note`` says why ("no knee yet (needs
    150 screened)")."""

    n_total: int
    screened: int
    found: int
    verdicts: list[Verdict]
    curve: tuple[np.ndarray, np.ndarray]
    knee: int | None
    knee_note: str = ""
    estimate: RecallEstimate | None = None
    estimate_note: str = ""
    round: Round | None = None  # the screening's round the panel reads (None: a bare history)
    random_from: int | None = None  # records of it screened before its random sample
    counts: StateCounts | None = None  # the whole screening's item states
    recommended: str = RECOMMENDED  # the name of the rule the panel recommends

    def verdict(self, name: str) -> Verdict | None:
        """The verdict of the rule named ``name`` (None when it is not read)."""
        return next((v for v in self.verdicts if v.name == name), None)


def panel(labels: Sequence[int] | np.ndarray, n_total: int,
          rules: Sequence[StoppingRule], guarantee: bool = False) -> Panel:
    """Every rule's verdict on the history ``labels`` of a set of ``n_total`` records,
    recommending :func:`recommended` (``guarantee``: the certified one)."""
    history = np.asarray(labels, dtype=np.int64)
    verdicts = [Verdict(rule.name, rule.title, rule.decide(history, n_total), rule.kind)
                for rule in rules]
    chosen = recommended(guarantee)
    knee_rule = next((rule for rule in rules if isinstance(rule, KneeMethod)), KneeMethod())
    knee = knee_rule.decide(history, n_total).evidence.get("knee")
    located = isinstance(knee, int)
    estimate, note = _estimate(history, n_total, rules, verdicts, chosen)
    return Panel(n_total, int(history.size), int(history.sum()), verdicts,
                 recall_curve(history.astype(bool)), knee if located else None,
                 "" if located else f"no knee {str(knee).removeprefix('none ')}",
                 estimate, note, recommended=chosen)


def _estimate(history: np.ndarray, n_total: int, rules: Sequence[StoppingRule],
              verdicts: Sequence[Verdict], chosen: str) -> tuple[RecallEstimate | None, str]:
    """The recall estimate from the random sample of the random-sample rule, else the
    recommended rule's own (a model's), else any rule's; or why there is none."""
    rule = next((r for r in rules if isinstance(r, RandomSampleStop)), None)
    if rule is None or rule.random_from is None or rule.random_from > history.size:
        own = sorted((v for v in verdicts if v.decision.estimate is not None),
                     key=lambda v: v.name != chosen)
        if own:
            return own[0].decision.estimate, ""
        return None, "no recall estimate yet: the point process needs enough relevant " \
            "records for a fit, the random sample a switch to random screening"
    sample = history[rule.random_from:]
    estimate = recall_from_sample(int(history[:rule.random_from].sum()), int(sample.sum()),
                                  int(sample.size), n_total - rule.random_from,
                                  rule.confidence)
    return estimate, "" if estimate else "no recall estimate before a relevant record " \
        "is found and a random record screened"


def with_random_from(rules: Sequence[StoppingRule],
                     random_from: int | None) -> list[StoppingRule]:
    """``rules`` with the random sample beginning after ``random_from`` records for the
    rules that read one (the random-sample rule and the hypergeometric test)."""
    return [dataclasses.replace(rule, random_from=random_from)
            if isinstance(rule, RandomSampleStop | HypergeometricTest) else rule
            for rule in rules]


def history(project: Project, screening: Screening, reviewer: str | None = None) -> np.ndarray:
    """1/0 relevance of the current decisions in screening order (``reviewer``'s own in a
    blind screening)."""
    return np.array([is_relevant(screening.scheme, e.label)
                     for e in store.current_decisions(project, screening.id, reviewer)],
                    dtype=np.int64)


def screening_panel(project: Project, screening: Screening,
                    rules: Sequence[StoppingRule] | None = None,
                    reviewer: str | None = None, number: int | None = None) -> Panel:
    """The panel of a screening's current round now (after every decision, the screen
    asks again), or of round ``number``, by the project's stopping parameters unless
    ``rules`` are given; in a round switched to random screening the rules read its
    random sample. ``counts``: the screening's item states (:mod:`.state`)."""
    read = round_history(project, screening, reviewer, number)
    chosen = with_random_from(project_rules(project) if rules is None else rules,
                              read.random_from)
    guarantee = parameters.get(project, parameters.STOP_GUARANTEE)
    return dataclasses.replace(panel(read.labels, read.n_total, chosen, guarantee),
                               round=read.round,
                               random_from=read.random_from,
                               counts=state_counts(project, screening, reviewer))
