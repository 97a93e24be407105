"""The commands that screen, so every screening workflow runs headless: screen-new,
screen-reasons, screen-decide, screen-status (and :mod:`.screen_rounds`: screen-random, screen-update).
They drive the same :class:`~litqeval_gui.core.screening.session.ScreeningSession` as the
app's screener."""

from __future__ import annotations

import argparse
import csv
import os
import sqlite3
import sys
from dataclasses import asdict
from pathlib import Path

from litqeval_gui.cli.common import Command, emit, open_for_writing
from litqeval_gui.core.errors import LitqError, database_reason, environment_message
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.pooling.state import pool_rule
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.reviewers import REVIEWER_ENV
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.fulltext import DEFAULT_REASONS, create_fulltext_screening
from litqeval_gui.core.screening.log import decision_rows, store
from litqeval_gui.core.screening.log.labels import GRADED, IEM, label_text, phase_labels
from litqeval_gui.core.screening.log.plain import plain_text
from litqeval_gui.core.screening.ranking.retrain import stored_ranking
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping.finishing import finishes
from litqeval_gui.core.screening.stopping.panel import screening_panel
from litqeval_gui.core.screening.stopping.updates import round_counts

SCHEMES = {"include-exclude": IEM, "graded": GRADED}


def _new_fulltext(project: Project, args: argparse.Namespace) -> store.Screening:
    if args.lists:
        raise LitqError("--fulltext-of takes the records its screening passed on; "
                        "leave out --lists")
    parent = store.find_screening(project, args.topic, args.fulltext_of)
    return create_fulltext_screening(project, parent, args.screening,
                                     with_maybe=args.with_maybe, blind=args.blind,
                                     reasons=DEFAULT_REASONS if args.reasons is None
                                     else args.reasons)


def cmd_screen_new(args: argparse.Namespace) -> None:
    if args.with_maybe and not args.fulltext_of:
        raise LitqError("--with-maybe goes with --fulltext-of SCREENING")
    if args.single_screening and args.blind:
        raise LitqError("--single-screening skips what another reviewer decided, which a "
                        "blind screening hides; choose one")
    with open_for_writing(args.project) as project:
        if args.fulltext_of:
            screening = _new_fulltext(project, args)
            chosen = [info.name for info in queries.lists(project, args.topic)
                      if info.id in screening.lists]
        else:
            chosen = args.lists or [info.name for info in queries.lists(project, args.topic)
                                    if info.role == "results"]
            if not chosen:
                raise LitqError(f"topic {args.topic!r} has no result lists; "
                                "name them with --lists")
            screening = store.create_screening(project, args.topic, args.screening, chosen,
                                               scheme=SCHEMES[args.labels], blind=args.blind,
                                               reasons=args.reasons or ())
        if args.single_screening:
            project.write(team.single_screening_op(screening, True))
    source = f"passed on by {args.fulltext_of!r}" if args.fulltext_of else \
        f"from {', '.join(chosen)}"
    emit(args, {"screening": screening.name, "topic": args.topic, "lists": chosen,
                "records": screening.size, "phase": screening.phase,
                "labels": list(phase_labels(screening.scheme, screening.phase)),
                "reasons": list(screening.reasons), "fulltext_of": args.fulltext_of,
                "single_screening": args.single_screening},
         lambda: f"screening {screening.name!r} of topic {args.topic!r}: "
                 f"{screening.size:,} records {source}")


def cmd_screen_reasons(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        reasons = list(screening.reasons) if args.set is None else []
        reasons += [r for r in (args.set or []) + (args.add or []) if r not in reasons]
        if args.add or args.set:
            project.write(store.set_reasons_op(screening.id, reasons))
        reasons = list(store.get_screening(project, screening.id).reasons)
    emit(args, {"screening": screening.name, "reasons": reasons},
         lambda: f"reasons of {screening.name!r}: {', '.join(reasons) or 'none'}")


def _reviewer(args: argparse.Namespace) -> str:
    return plain_text(args.reviewer or os.environ.get(REVIEWER_ENV, ""),
                      f"say who decides: --reviewer NAME (or set {REVIEWER_ENV})")


def cmd_screen_decide(args: argparse.Namespace) -> None:
    reviewer = _reviewer(args)
    if args.csv:
        check_input(args.csv)  # a FIFO would block, /dev/zero never end
        csv.field_size_limit(sys.maxsize)  # a note may be long, as an import's cells
    with open_for_writing(args.project) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        rows = decision_rows.read_rows(args.csv) if args.csv else \
            [(0, [args.record[0], args.record[1], args.reason or "", args.note or ""])]
        decisions = decision_rows.resolve(project, screening, rows)  # all checked first
        session = ScreeningSession(project, screening, reviewer)
        for made, row in enumerate(decisions):
            try:
                session.decide(row.label, row.reason, record_id=row.record_id, note=row.note)
            except (LitqError, OSError, sqlite3.DatabaseError, KeyboardInterrupt) as err:
                if not made:
                    raise
                raise _kept(err, made, decisions, project) from None
        screened = session.screened
    emit(args, {"decided": len(decisions), "screened": screened, "of": screening.size,
                "reviewer": reviewer},
         lambda: f"{len(decisions)} decision(s) by {reviewer}; {screened:,} of "
                 f"{screening.size:,} records screened")


def _kept(err: BaseException, made: int, decisions: list[decision_rows.DecisionRow],
          project: Project) -> BaseException:
    """The error that stopped ``screen-decide`` after ``made`` decisions, saying that those
    are kept (each was committed as it was made) and from which row none was."""
    kept = (f"{made:,} of {len(decisions):,} decisions were made and are kept (each is "
            f"committed as it is made); none from line {decisions[made].line} on")
    if isinstance(err, KeyboardInterrupt):
        return KeyboardInterrupt(f"interrupted; {kept}")
    if isinstance(err, sqlite3.DatabaseError):
        reason = database_reason(err, project.path) or f"database error: {err}"
    elif isinstance(err, OSError):
        reason = environment_message(err, str(err.filename or project.path))
    else:
        reason = str(err)
    return LitqError(f"{reason}; {kept}")


def status(project: Project, screening: store.Screening, reviewer: str | None = None,
           upcoming: int = 0) -> dict:
    """The screening's counts by final decision (:mod:`~litqeval_gui.core.screening.state`:
    resolutions count; ``conflicts`` still open), its finished rounds, its current round
    (the stopping rules read that round alone; ``random_phase``: where its random sample began, its seed), each stopping
    rule's verdict and the recall estimate with its interval, as plain values (in a blind
    screening, of ``reviewer``'s decisions only); ``upcoming``: that many of the next
    records to screen (the random phase's order, else the stored ranking's, else list
    order) with their titles."""
    panel = screening_panel(project, screening, reviewer=reviewer)
    counts = panel.counts
    assert counts is not None  # a screening's panel carries its item states
    labels = {label: counts.states.get(label, 0)
              for label in phase_labels(screening.scheme, screening.phase)}
    round_ = panel.round
    phase = round_.random
    estimate = panel.estimate
    document = {
        "screening": screening.name, "records": screening.size, "screened": counts.screened,
        "relevant": counts.relevant, "labels": labels, "conflicts": counts.conflicts,
        "finished_rounds": [asdict(f) for f in finishes(project, screening.id).values()],
        "round": {"number": round_.number, "records": panel.n_total,
                  "screened": panel.screened, "relevant": panel.found},
        "rounds": [asdict(count) for count in round_counts(project, screening, reviewer)],
        "random_phase": None if phase is None else {
            "seed": phase.seed, "after_event": phase.after_event, "at": phase.at,
            "by": phase.reviewer, "screened_before": panel.random_from},
        "recommended": panel.recommended,
        "stopping": [{"rule": v.name, "title": v.title, "kind": v.kind,
                      "stop": v.decision.stop,
                      "evidence": {k: _plain(x) for k, x in v.decision.evidence.items()}}
                     for v in panel.verdicts],
        "estimate": None if estimate is None else {
            "recall": estimate.recall, "low": estimate.low, "high": estimate.high,
            "confidence": estimate.confidence, "text": estimate.text()},
    }
    pool = pool_rule(project, screening.id)
    if pool is not None:  # the pool's rule decides; the title/abstract rules do not apply
        document.update(pool=pool, stopping=[], recommended=None, estimate=None)
    if upcoming:
        ranking = stored_ranking(project, screening.id)
        session = ScreeningSession(project, screening, reviewer or "",
                                   ranking.ordering() if ranking else None)
        document["next"] = [{"id": r, "title": store.record_title(project, r)}
                            for r in session.queue.upcoming(upcoming)]
    return document


def _plain(value: object) -> object:
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def cmd_screen_status(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        document = status(project, screening, args.reviewer, args.next)

    def text() -> str:
        conflicts = f", {document['conflicts']:,} in conflict" if document["conflicts"] else ""
        lines = [f"{document['screened']:,} of {document['records']:,} records screened, "
                 f"{document['relevant']:,} relevant ("
                 + ", ".join(f"{n} {label_text(label)}" for label, n in
                             document["labels"].items()) + f"{conflicts})"]
        lines += [f"round {f['round']} finished by {f['reviewer']} on {f['at'][:10]}"
                  for f in document["finished_rounds"]]
        round_, phase = document["round"], document["random_phase"]
        if round_["number"] > 1:
            lines += [f"round {r['round']} ({r['list_name'] or 'the first search'}): "
                      f"{r['screened']:,} of {r['items']:,} screened, {r['relevant']:,} relevant"
                      for r in document["rounds"]]
            lines.append(f"the stopping rules read round {round_['number']} alone")
        if phase is not None:
            lines.append(f"random sampling since {phase['at'][:16].replace('T', ' ')} "
                         f"(seed {phase['seed']}, by {phase['by']}): "
                         f"{round_['screened'] - phase['screened_before']:,} drawn")
        lines += [f"{'stop' if s['stop'] else 'go on'}: {s['title']} [{s['kind']}]"
                  + (" (recommended)" if s["rule"] == document["recommended"] else "")
                  + (f" ({s['evidence']['reason']})" if s["evidence"].get("reason") else "")
                  for s in document["stopping"]]
        if document["estimate"]:
            lines.append(f"recall: {document['estimate']['text']}")
        if document.get("pool"):
            lines.append(document["pool"])
        lines += [f"next: {n['id']}  {n['title']}" for n in document.get("next", [])]
        return "\n".join(lines)
    emit(args, document, text)


def register(command: Command) -> None:
    p = command("screen-new", cmd_screen_new)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True, help="its name")
    p.add_argument("--lists", nargs="+", metavar="LIST",
                   help="the lists to screen (default: every result list of the topic)")
    p.add_argument("--labels", choices=SCHEMES, default="include-exclude",
                   help="include/exclude/maybe (default) or grades 0–3")
    p.add_argument("--blind", action="store_true",
                   help="each reviewer sees only their own decisions until it is unblinded")
    p.add_argument("--single-screening", action="store_true",
                   help="one reviewer screens, a second checks a sample: a record anyone "
                        "decided is not served to the others (default: dual screening, "
                        "each reviewer screens every record)")
    p.add_argument("--fulltext-of", metavar="SCREENING",
                   help="a full-text screening of the records this title/abstract screening "
                        "included (its lists and labels; exclusions need a reason)")
    p.add_argument("--with-maybe", action="store_true",
                   help="with --fulltext-of: its maybe records too")
    p.add_argument("--reasons", nargs="+", metavar="REASON",
                   help="its exclusion reasons (a full-text screening's default: "
                        f"{', '.join(DEFAULT_REASONS)})")

    p = command("screen-reasons", cmd_screen_reasons)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--add", nargs="+", metavar="REASON", help="add these reasons")
    p.add_argument("--set", nargs="+", metavar="REASON", help="replace the list by these")

    p = command("screen-decide", cmd_screen_decide)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", help=f"who decides (default: ${REVIEWER_ENV})")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--record", nargs=2, metavar=("ID", "LABEL"),
                       help="one decision: a record id, DOI or PMID, and its label "
                            "(at full text also not_retrieved)")
    which.add_argument("--csv", type=Path, metavar="FILE",
                       help="decisions as rows id,label[,reason,note]; every row is checked "
                            "before any is written")
    p.add_argument("--reason", help="with --record: the exclusion reason (at full text "
                                    "required, one of the screening's reasons)")
    p.add_argument("--note", help="with --record: a note")

    p = command("screen-status", cmd_screen_status)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("--reviewer", help="who reads (a blind screening shows only their decisions)")
    p.add_argument("--next", type=int, default=0, metavar="K",
                   help="list the next K records to screen: in the random phase (screen-random) "
                        "its order, else the stored ranking's, else list order")
