"""The screening commands: simulate (replay prioritisation with known labels) and
screen-export (a screening's records with their decisions)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

from litqeval_gui.cli.common import Command, TextProgress, emit
from litqeval_gui.cli.screen import REVIEWER_ENV
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.parameters import COUNT
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.queries import RecordFilter, find_list
from litqeval_gui.core.screening.export import ASREVIEW, SCREENING_FORMATS, export_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking import known
from litqeval_gui.core.screening.ranking.features import TFIDF, build_features
from litqeval_gui.core.screening.ranking.models import MODELS
from litqeval_gui.core.screening.simulation.simulate import recall_band, simulate


def _reader(args: argparse.Namespace) -> str | None:
    """Who reads a screening (``--reviewer`` or $LITQEVAL_REVIEWER): a blind one gives
    them their own decisions only; None reads the final decisions."""
    return args.reviewer or os.environ.get(REVIEWER_ENV) or None


def _labels(project: Project, args: argparse.Namespace, topic_id: int,
            items: list[int]) -> np.ndarray:
    if args.labels_from == "core":
        return known.core_labels(project, topic_id, items)
    if args.labels_from == "screening":
        if not args.screening:
            raise LitqError("--labels-from screening needs --screening NAME")
        return known.screening_labels(
            project, store.find_screening(project, args.topic, args.screening), items,
            _reader(args))
    return known.column_labels(project, items, args.labels_from)


def cmd_simulate(args: argparse.Namespace) -> None:
    COUNT.check(args.runs, "--runs")
    progress = TextProgress()
    with Project.open(args.project, readonly=True) as project:
        topic_id = project.topic_id(args.topic)
        import_id = find_list(project, args.topic, args.list).id
        items = store.representatives(project, [import_id], RecordFilter())
        relevant = _labels(project, args, topic_id, items)
        features = run_job(build_features(project, topic_id, items, features=args.features),
                           progress)
    runs = [run_job(simulate(features, relevant, model=args.model,
                             prior_included=args.prior_included,
                             prior_excluded=args.prior_excluded, seed=args.seed + i), progress)
            for i in range(args.runs)]
    progress.finish()
    documents = [run.as_dict(relevant) for run in runs]
    document = documents[0] if args.runs == 1 else {
        "runs": documents, "band": recall_band(runs, relevant)}

    def text() -> str:
        blank = int(features.blank.sum())
        lines = [f"{runs[0].records} records, {runs[0].relevant} relevant, model {args.model}"
                 f" over {features.kind}"
                 + (f"; {blank} without text or vector, screened last" if blank else "")]
        for doc in documents:
            lines.append(f"seed {doc['seed']}: {_measures(doc)}; {doc['seconds']:.1f} s")
            lines += [f"  stop: {_stop_text(name, stop)}" for name, stop in doc["stopping"].items()]
        return "\n".join(lines)

    emit(args, document, text)


def _number(value: float | None, form: str = ".3f") -> str:
    return "-" if value is None else format(value, form)


def _measures(doc: dict) -> str:
    """One line of a run's measures (``simulate`` without ``--json``)."""
    return (f"WSS@95 {_number(doc['wss_at_95_project'])} (insights "
            f"{_number(doc['wss_at_95_insights'])}), WSS@100 "
            f"{_number(doc['wss_at_100_project'])} (insights "
            f"{_number(doc['wss_at_100_insights'])}), recall at 10 % "
            f"{_number(doc['recall_at_10pct'])}, at 25 % {_number(doc['recall_at_25pct'])}, "
            f"95 % after {_number(doc['screened_to_95'], 'd')} and 100 % after "
            f"{_number(doc['screened_to_100'], 'd')} records, nP@95 "
            f"{_number(doc['np_at_95'])}, last_rel {_number(doc['last_rel'], '.1f')} %")


def _stop_text(name: str, stop: dict) -> str:
    """Where one rule stopped and how that compares with its target."""
    where = ("never before the end" if stop["stopped_at"] is None else
             f"at {stop['stopped_at']} (recall {_number(stop['recall_then'])})")
    return (f"{name} [{stop['kind']}]{' (recommended)' if stop.get('recommended') else ''} "
            f"{where}, "
            f"target {stop['target']:g} {'reached' if stop['reached'] else 'MISSED'}, "
            f"work saved {stop['work_saved']:.3f} (best possible "
            f"{_number(stop['oracle_work_saved'])})")


def cmd_screen_export(args: argparse.Namespace) -> None:
    labels = [part.strip() for part in args.label.split(",")] if args.label else None
    with Project.open(args.project, readonly=True) as project:
        found = store.screenings(project, args.topic)
        if args.screening:
            screening = store.find_screening(project, args.topic, args.screening)
        elif len(found) == 1:
            screening = found[0]
        else:
            names = ", ".join(repr(s.name) for s in found) or "none"
            raise LitqError(f"say which screening with --screening NAME (screenings: {names})")
        count = export_screening(project, screening, args.out, args.format, labels,
                                 reviewer=_reader(args))
    warning = exporting.extension_warning(args.out,
                                          "csv" if args.format == ASREVIEW else args.format)
    emit(args, {"exported": count, "file": str(args.out), "warning": warning},
         lambda: "\n".join(filter(None, [warning, f"exported {count} records to {args.out}"])))


def register(command: Command) -> None:
    p = command("simulate", cmd_simulate)
    p.add_argument("--topic", required=True)
    p.add_argument("--list", required=True, help="the result list to screen")
    p.add_argument("--labels-from", required=True, metavar="COLUMN|core|screening",
                   help="a labelled column of the imported file (1/0, yes/no, true/false, "
                        "included/excluded), the topic's core set, or a finished screening")
    p.add_argument("--screening", help="the screening whose decisions are the labels")
    p.add_argument("--reviewer", help=f"who reads that screening (default: ${REVIEWER_ENV}; "
                                      "a blind one gives their decisions)")
    p.add_argument("--model", choices=MODELS, default="logistic")
    p.add_argument("--features", default=TFIDF,
                   metavar="tfidf|embedding[:BACKEND]|tfidf+embedding[:BACKEND]",
                   help="TF-IDF of title and abstract (default), the topic's stored "
                        "vectors (computed by 'litqeval embed'; BACKEND defaults to the "
                        "topic's evaluation backend), or both side by side")
    p.add_argument("--prior-included", type=int, default=1)
    p.add_argument("--prior-excluded", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--runs", type=int, default=1, help="runs with seeds SEED, SEED+1, …")

    p = command("screen-export", cmd_screen_export)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", help="which screening (needed when the topic has several)")
    p.add_argument("--format", choices=SCREENING_FORMATS, required=True,
                   help="asreview: ASReview LAB's labelled dataset (CSV with label_included)")
    p.add_argument("--label", help="only these decisions, comma-separated (e.g. include,maybe"
                                   " or undecided)")
    p.add_argument("--reviewer", help=f"who reads (default: ${REVIEWER_ENV}; a blind "
                                      "screening exports only their decisions)")
    p.add_argument("out", type=Path, metavar="OUT")
