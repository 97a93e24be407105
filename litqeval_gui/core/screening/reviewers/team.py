"""Team screening: each reviewer's own decisions, conflicts, resolutions,
agreement and blind mode.

A reviewer's current decision on a record is their latest effective decide event,
latest by (``at``, id): merged events get new ids in whatever order files arrive, the
time stamp is what a reviewer's own sequence is ordered by. A **conflict** is a record
two or more reviewers decided where the labels differ or any of them is ``maybe``
(graded: differing grades). A **resolution** is an event of its own (kind ``resolve``,
reviewer = who resolved: a named third reviewer or "consensus"; written by
:func:`store.resolve_op`); the record's final
decision is its latest resolution, else the reviewers' common label. Reviewers' own
decisions are never changed by it.

A **blind** screening shows each reviewer only their own decisions until someone
unblinds it (:func:`store.unblind_op`, an event in ``screening_unblinds``): every
reader given the reviewer (``store.current_decisions(…, reviewer)``, the session,
counts, stopping panel, training and exports) filters by it.

**Dual screening** is the default once a team screens: in a blind screening, or one where
someone besides the reviewer has decided, each reviewer's queue holds every record they
have not decided themselves (:func:`screens_apart`). A screening set to **single
screening** (:func:`single_screening_op`: one reviewer screens, a second checks a
sample) serves each record once, whoever decided it, as a reviewer screening alone is.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records.exporting import check_target, write_whole
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import GRADED, NOT_RETRIEVED, SCHEMES, phase_labels
from litqeval_gui.metrics.agreement import Kappa, kappa_agreement
from litqeval_gui.metrics.reliability import (
    Alpha,
    PairReliability,
    krippendorff_alpha,
    pair_reliability,
)

CONSENSUS = "consensus"


def by_reviewer(project: Project, screening_id: int) -> dict[str, dict[int, store.Event]]:
    """reviewer → record id → that reviewer's current decision (latest effective decide
    by time stamp, then id)."""
    found: dict[str, dict[int, store.Event]] = defaultdict(dict)
    for event in store.effective_events(project, screening_id):
        found[event.reviewer][event.record_id] = event
    return dict(found)


def record_decisions(project: Project, screening_id: int, record_id: int
                     ) -> dict[str, store.Event]:
    """reviewer → their current decision on one record (as :func:`by_reviewer`, for the
    record on screen)."""
    found: dict[str, store.Event] = {}
    for event in store.effective_events(project, screening_id, record_id=record_id):
        found[event.reviewer] = event
    return dict(sorted(found.items()))


# -- dual or single screening --------------------------------------------------------------

def single_screening_parameter(screening: store.Screening) -> parameters.Parameter[bool]:
    """Whether ``screening`` is single screening (a second reviewer checks a sample),
    stored per screening under its uuid (never reused, kept by copies of the file)."""
    return parameters.Parameter(f"screening.{screening.uuid}.single_screening", bool, False)


def is_single_screening(project: Project, screening: store.Screening) -> bool:
    return parameters.get(project, single_screening_parameter(screening))


def single_screening_op(screening: store.Screening, single: bool) -> Op:
    """Make ``screening`` single screening (or dual again); its changes name the
    decisions too, since each reviewer's queue reads them anew."""
    set_it = parameters.set_value_op(single_screening_parameter(screening), single)
    return lambda p: set_it(p) | store.DECISIONS


def screens_apart(project: Project, screening: store.Screening, reviewer: str) -> bool:
    """Whether ``reviewer``'s queue holds every record they have not decided themselves:
    in a blind screening, or when someone else has decided in it, unless it is single
    screening. An unnamed reader (no reviewer yet) reads everyone's decisions."""
    if not reviewer.strip():
        return False
    if store.is_blind(project, screening.id):
        return True
    if is_single_screening(project, screening):
        return False
    return bool(project.db.execute(
        "SELECT EXISTS (SELECT 1 FROM screening_effective WHERE screening_id = ? "
        "AND reviewer != ?)", [screening.id, reviewer]).fetchone()[0])


# -- conflicts and resolution ------------------------------------------------------------

def resolutions(project: Project, screening_id: int) -> dict[int, store.Event]:
    """record id → its latest resolution."""
    return {e.record_id: e for e in sorted(store.events(project, screening_id, "resolve"),
                                           key=lambda e: (e.at, e.id))}


def differ(labels: list[str]) -> bool:
    """Whether these reviewers' labels for one record conflict (module docstring)."""
    return len(labels) > 1 and (len(set(labels)) > 1 or "maybe" in labels)


@dataclass(frozen=True)
class Conflict:
    """A record whose reviewers disagree: their current decisions, and its resolution."""

    record_id: int
    decisions: dict[str, store.Event]
    resolution: store.Event | None


Decided = dict[str, dict[int, store.Event]]


def conflicts(project: Project, screening_id: int, *, pair: tuple[str, str] | None = None,
              decided: Decided | None = None) -> list[Conflict]:
    """Records (in screening order) whose reviewers' current decisions conflict, resolved
    or not; ``pair`` limits to two reviewers; ``decided``: :func:`by_reviewer`, when the
    caller has read it already."""
    decided = by_reviewer(project, screening_id) if decided is None else decided
    if pair is not None:
        decided = {name: decided.get(name, {}) for name in pair}
    settled = resolutions(project, screening_id)
    deciders = Counter(record_id for d in decided.values() for record_id in d)
    shared = {record_id for record_id, count in deciders.items() if count > 1}
    found = []
    for record_id in filter(shared.__contains__, store.items(project, screening_id)):
        decisions = {name: d[record_id] for name, d in sorted(decided.items())
                     if record_id in d}
        if differ([e.label for e in decisions.values()]):
            found.append(Conflict(record_id, decisions, settled.get(record_id)))
    return found


def seen_by_one(project: Project, screening_id: int) -> list[int]:
    """Records (in screening order) exactly one reviewer has decided: what the second
    reviewer still has to screen, for a screener limited to them."""
    counts: dict[int, int] = defaultdict(int)
    for decisions in by_reviewer(project, screening_id).values():
        for record_id in decisions:
            counts[record_id] += 1
    return [r for r in store.items(project, screening_id) if counts.get(r) == 1]


def final_decisions(project: Project, screening_id: int) -> dict[int, str]:
    """record id → final label: the resolution where one exists, else the label every
    reviewer who decided it gave (no entry while a conflict is unresolved)."""
    return {e.record_id: e.label for e in final_events(project, screening_id)}


def final_events(project: Project, screening_id: int,
                 reviewer: str | None = None) -> list[store.Event]:
    """The event carrying each record's final decision, in the order of
    :func:`store.current_decisions`: its latest resolution where one exists, else its
    current decision; records in an unresolved conflict are left out. In a blind
    screening read by ``reviewer``: that reviewer's own decisions (blind mode wins).
    What screening-wide reads (PRISMA, pooling, exports, known labels) count."""
    current = store.current_decisions(project, screening_id, reviewer)
    if reviewer is not None and store.is_blind(project, screening_id):
        return current
    settled = resolutions(project, screening_id)
    if not settled and _reviewer_count(project, screening_id) < 2:
        return current  # one reviewer: nothing to settle
    open_conflicts = {c.record_id for c in conflicts(project, screening_id)
                      if c.resolution is None}
    final = [settled.get(e.record_id, e) for e in current if e.record_id not in open_conflicts]
    shown = {e.record_id for e in current}
    return final + [e for r, e in settled.items() if r not in shown]


def _reviewer_count(project: Project, screening_id: int) -> int:
    return project.db.execute("SELECT COUNT(DISTINCT reviewer) FROM screening_effective "
                              "WHERE screening_id = ?", [screening_id]).fetchone()[0]


# -- agreement ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PairAgreement:
    """Agreement of reviewers ``a`` and ``b`` over the records both decided (SPEC §6):
    κ (``weighted``: the grades' linear-weighted κ, None for include/exclude/maybe) and
    the reliability figures of κ's table (raw and per-category agreement, PABAK, AC1),
    before resolution and ``after`` it (a resolution replaces both reviewers' labels)."""

    a: str
    b: str
    kappa: Kappa
    weighted: Kappa | None
    reliability: PairReliability
    after: Kappa
    weighted_after: Kappa | None
    reliability_after: PairReliability


@dataclass(frozen=True)
class Agreement:
    """Every reviewer pair's agreement, the conflicts resolved / still open, and the whole
    team's Krippendorff α before resolution (``alpha`` nominal over the phase's labels;
    ``alpha_ordinal`` over the grades, None for include/exclude/maybe)."""

    pairs: list[PairAgreement]
    resolved: int
    unresolved: int
    alpha: Alpha
    alpha_ordinal: Alpha | None


def _kappas(la: list[str], lb: list[str], screening: store.Screening
            ) -> tuple[Kappa, Kappa | None, PairReliability]:
    """κ over the phase's labels (a report not retrieved is a category of its own), for
    grades the weighted κ over the pairs both graded, and the reliability of κ's table."""
    plain = kappa_agreement(la, lb, labels=phase_labels(screening.scheme, screening.phase))
    weighted = None
    if screening.scheme == GRADED:
        graded = [(a, b) for a, b in zip(la, lb, strict=True) if NOT_RETRIEVED not in (a, b)]
        weighted = kappa_agreement([a for a, _ in graded], [b for _, b in graded],
                                   labels=SCHEMES[GRADED], weights="linear")
    return plain, weighted, pair_reliability(plain.table)


def team_alpha(decided: Decided, screening: store.Screening) -> tuple[Alpha, Alpha | None]:
    """Krippendorff's α of every reviewer over every record anyone decided (a record one
    reviewer decided is missing for the others): nominal over the phase's labels and, for
    grades, ordinal over 0 < 1 < 2 < 3 (not retrieved counts as missing there)."""
    reviewers = sorted(decided)
    records = sorted({r for events in decided.values() for r in events})
    ratings = [[decided[name][r].label if r in decided[name] else None for r in records]
               for name in reviewers]
    nominal = krippendorff_alpha(ratings, categories=phase_labels(screening.scheme,
                                                                  screening.phase))
    if screening.scheme != GRADED:
        return nominal, None
    grades = [[None if v == NOT_RETRIEVED else v for v in row] for row in ratings]
    return nominal, krippendorff_alpha(grades, level="ordinal", categories=SCHEMES[GRADED])


def agreement(project: Project, screening: store.Screening,
              decided: Decided | None = None) -> Agreement:
    """κ and reliability per reviewer pair over the records both decided (maybe its own
    category), before and after resolution, and the team's α; ``decided`` as for
    :func:`conflicts`."""
    decided = by_reviewer(project, screening.id) if decided is None else decided
    settled = resolutions(project, screening.id)
    pairs = []
    for a, b in itertools.combinations(sorted(decided), 2):
        both = [r for r in decided[a] if r in decided[b]]
        la = [decided[a][r].label for r in both]
        lb = [decided[b][r].label for r in both]
        resolved = [settled[r].label if r in settled else None for r in both]
        after_a = [s or label for s, label in zip(resolved, la, strict=True)]
        after_b = [s or label for s, label in zip(resolved, lb, strict=True)]
        pairs.append(PairAgreement(a, b, *_kappas(la, lb, screening),
                                   *_kappas(after_a, after_b, screening)))
    open_conflicts = conflicts(project, screening.id, decided=decided)
    resolved_count = sum(c.resolution is not None for c in open_conflicts)
    return Agreement(pairs, resolved_count, len(open_conflicts) - resolved_count,
                     *team_alpha(decided, screening))


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def kappa_document(k: Kappa, reliability: PairReliability | None = None) -> dict[str, Any]:
    """One κ as plain JSON values (NaN as null), its interval clipped to [−1, 1]; with
    ``reliability`` (of κ's table) also per-category agreement, PABAK and AC1."""
    low, high = k.shown_ci
    doc: dict[str, Any] = {
        "both": k.n, "agree": sum(k.table[i][i] for i in range(len(k.table))),
        "raw_agreement": _number(k.agreement), "kappa": _number(k.kappa),
        "kappa_ci": [_number(low), _number(high)], "weights": k.weights,
        "labels": list(k.labels), "table": [list(row) for row in k.table]}
    if reliability is not None:
        doc |= {"specific_agreement": {str(label): _number(v) for label, v
                                       in zip(k.labels, reliability.specific, strict=True)},
                "pabak": _number(reliability.pabak), "ac1": _number(reliability.ac1),
                "ac1_ci": [_number(v) for v in reliability.ac1_ci]}
    return doc


def alpha_document(alpha: Alpha) -> dict[str, Any]:
    """Krippendorff's α as plain JSON values (NaN as null)."""
    return {"alpha": _number(alpha.alpha), "level": alpha.level, "units": alpha.units,
            "reviewers": alpha.raters, "pairable": alpha.pairable}


def agreement_document(summary: Agreement) -> dict[str, Any]:
    """The agreement in the shape of ``litqeval agreement --json``: per pair a, b, both,
    agree, kappa, kappa_ci, table, specific_agreement, pabak, ac1, ac1_ci, ``weighted``
    for grades, and ``after_resolution`` the same again; the team's ``alpha``."""
    pairs = []
    for pair in summary.pairs:
        entry: dict[str, Any] = {"a": pair.a, "b": pair.b,
                                 **kappa_document(pair.kappa, pair.reliability),
                                 "se_method": pair.kappa.se_method,
                                 "ac1_se_method": pair.reliability.ac1_method}
        after: dict[str, Any] = kappa_document(pair.after, pair.reliability_after)
        if pair.weighted is not None and pair.weighted_after is not None:
            entry["weighted"] = kappa_document(pair.weighted)
            after["weighted"] = kappa_document(pair.weighted_after)
        entry["after_resolution"] = after
        pairs.append(entry)
    alpha = {"nominal": alpha_document(summary.alpha)}
    if summary.alpha_ordinal is not None:
        alpha["ordinal"] = alpha_document(summary.alpha_ordinal)
    return {"pairs": pairs, "resolved": summary.resolved, "unresolved": summary.unresolved,
            "alpha": alpha}


AGREEMENT_COLUMNS = ("a", "b", "when", "weights", "both", "agree", "raw_agreement", "kappa",
                     "kappa_ci_low", "kappa_ci_high", "specific_agreement", "pabak", "ac1",
                     "ac1_ci_low", "ac1_ci_high", "alpha", "labels", "table")
ALL_REVIEWERS = "all reviewers"


def agreement_rows(summary: Agreement) -> list[tuple[object, ...]]:
    """The agreement as rows of :data:`AGREEMENT_COLUMNS`: per pair, κ with the
    reliability figures (and the weighted κ of grades) before and after resolution; the
    table as rows joined by "|"; then one row per team α (a = "all reviewers", weights =
    its level, both = the records at least two reviewers decided)."""
    rows: list[tuple[object, ...]] = []
    for pair in summary.pairs:
        for when, kappas in (("before", ((pair.kappa, pair.reliability),
                                         (pair.weighted, None))),
                             ("after resolution", ((pair.after, pair.reliability_after),
                                                   (pair.weighted_after, None)))):
            for k, reliability in kappas:
                if k is None:
                    continue
                doc = kappa_document(k, reliability)
                specific = " ".join(f"{label}={'' if v is None else round(v, 6)}"
                                    for label, v in doc.get("specific_agreement", {}).items())
                rows.append((pair.a, pair.b, when, k.weights, doc["both"], doc["agree"],
                             doc["raw_agreement"], doc["kappa"], *doc["kappa_ci"], specific,
                             doc.get("pabak"), doc.get("ac1"),
                             *doc.get("ac1_ci", (None, None)), None,
                             " ".join(map(str, k.labels)),
                             " | ".join(" ".join(map(str, row)) for row in k.table)))
    for alpha in (summary.alpha, summary.alpha_ordinal):
        if alpha is not None and summary.pairs:
            rows.append((ALL_REVIEWERS, "", "before", f"krippendorff {alpha.level}",
                         alpha.units, None, None, None, None, None, "", None, None, None,
                         None, _number(alpha.alpha), "", ""))
    return rows


def write_agreement(project: Project, screening: store.Screening, path: str | Path) -> int:
    """Write the screening's agreement to ``path``: JSON (``.json``, as
    :func:`agreement_document`) or CSV (:func:`agreement_rows`); returns the pairs."""
    summary = agreement(project, screening)
    target = Path(path)
    check_target(target, project.path)
    if target.suffix.lower() == ".json":
        text = json.dumps(agreement_document(summary), ensure_ascii=False, indent=1)
        write_whole(target, lambda partial: partial.write_text(text, encoding="utf-8"),
                    "the agreement")
    else:
        def write(partial: Path) -> None:
            with open(partial, "w", encoding="utf-8-sig", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(AGREEMENT_COLUMNS)
                writer.writerows(agreement_rows(summary))
        write_whole(target, write, "the agreement")
    return len(summary.pairs)
