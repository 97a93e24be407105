"""The screening commands: simulate (replay prioritisation with known labels) and
screen-export (a screening's records with their decisions)."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from litqeval_gui.cli.common import Command, TextProgress, emit
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.queries import RecordFilter, find_list
from litqeval_gui.core.screening import known, store
from litqeval_gui.core.screening.export import export_screening
from litqeval_gui.core.screening.features import TFIDF, build_features
from litqeval_gui.core.screening.models import MODELS
from litqeval_gui.core.screening.simulate import recall_band, simulate


def _labels(project: Project, args: argparse.Namespace, topic_id: int,
            items: list[int]) -> np.ndarray:
    if args.labels_from == "core":
        return known.core_labels(project, topic_id, items)
    if args.labels_from == "screening":
        if not args.screening:
            raise LitqError("--labels-from screening needs --screening NAME")
        return known.screening_labels(
            project, store.find_screening(project, args.topic, args.screening), items)
    return known.column_labels(project, items, args.labels_from)


def cmd_simulate(args: argparse.Namespace) -> None:
    if args.runs < 1:
        raise LitqError("--runs must be at least 1")
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
        lines = [f"{runs[0].records} records, {runs[0].relevant} relevant, model {args.model}"
                 f" over {features.kind}"]
        for doc in documents:
            stops = ", ".join(f"{name} at {s['stopped_at']} (recall {s['recall_then']:.3f})"
                              if s["stopped_at"] else f"{name} never"
                              for name, s in doc["stopping"].items())
            lines.append(f"seed {doc['seed']}: WSS@95 {doc['wss_at_95']:.3f}, "
                         f"nP@95 {doc['np_at_95']:.3f}, last_rel {doc['last_rel']:.1f} %, "
                         f"{doc['seconds']:.1f} s; stopping: {stops}")
        return "\n".join(lines)

    emit(args, document, text)


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
        count = export_screening(project, screening, args.out, args.format, labels)
    warning = exporting.extension_warning(args.out, args.format)
    emit(args, {"exported": count, "file": str(args.out), "warning": warning},
         lambda: "\n".join(filter(None, [warning, f"exported {count} records to {args.out}"])))


def register(command: Command) -> None:
    p = command("simulate", cmd_simulate,
                "replay prioritised screening of a list with known labels")
    p.add_argument("--topic", required=True)
    p.add_argument("--list", required=True, help="the result list to screen")
    p.add_argument("--labels-from", required=True, metavar="COLUMN|core|screening",
                   help="a labelled column of the imported file (1/0, yes/no, true/false, "
                        "included/excluded), the topic's core set, or a finished screening")
    p.add_argument("--screening", help="the screening whose decisions are the labels")
    p.add_argument("--model", choices=MODELS, default="logistic")
    p.add_argument("--features", default=TFIDF, metavar="tfidf|embedding[:BACKEND]",
                   help="TF-IDF of title and abstract (default), or the topic's stored "
                        "vectors (computed by 'litqeval embed'; BACKEND defaults to the "
                        "topic's evaluation backend)")
    p.add_argument("--prior-included", type=int, default=1)
    p.add_argument("--prior-excluded", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--runs", type=int, default=1, help="runs with seeds SEED, SEED+1, …")

    p = command("screen-export", cmd_screen_export,
                "export a screening's records with their decisions")
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", help="which screening (needed when the topic has several)")
    p.add_argument("--format", choices=exporting.EXPORT_FORMATS, required=True)
    p.add_argument("--label", help="only these decisions, comma-separated (e.g. include,maybe"
                                   " or undecided)")
    p.add_argument("out", type=Path, metavar="OUT")
