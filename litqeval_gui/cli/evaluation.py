"""The commands of query evaluation: embed, evaluate, report."""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit, open_for_writing
from litqeval_gui.core.embedding.registry import BACKENDS, backend_by_name
from litqeval_gui.core.errors import LitqError, ProjectLockedError
from litqeval_gui.core.evaluation import batch, comparison, engine, report_html, settings
from litqeval_gui.core.evaluation.map_store import MAP_METHODS
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.vector_store import embed_topic
from litqeval_gui.core.jobs import Job, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import report as query_report
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.exporting import check_target


def _run(job: Job):
    progress = TextProgress()
    try:
        return run_job(job, progress)
    finally:
        job.close()
        progress.finish()


def _backend(args: argparse.Namespace, name: str):
    """The precomputed backend of ``--vectors``, else None (the backend by name)."""
    if args.vectors is None:
        return None
    if name != "precomputed":
        raise LitqError("--vectors goes with --backend precomputed")
    return backend_by_name("precomputed", args.vectors, args.ids, args.model)


def cmd_embed(args: argparse.Namespace) -> None:
    with open_for_writing(args.project) as project:
        backend = _backend(args, args.backend) or backend_by_name(args.backend)
        emb = _run(embed_topic(project, args.topic, backend))
        count = project.db.execute("SELECT COUNT(*), COUNT(data) FROM vectors WHERE set_id = ?",
                                   [emb.id]).fetchone()
    document = {"topic": args.topic, "backend": emb.info.name, "model": emb.info.model,
                "version": emb.info.version, "dim": emb.dim, "records": count[0],
                "with_vector": count[1], "notes": list(emb.notes)}
    emit(args, document, lambda: "\n".join(
        [f"{args.topic}: {count[1]} of {count[0]} records have a {emb.dim}-dimensional "
         f"{emb.info.name} vector ({emb.info.model})", *emb.notes]))


def _chosen_settings(args: argparse.Namespace, stored: settings.EvaluationSettings
                     ) -> settings.EvaluationSettings:
    changes: dict[str, object] = {}
    if args.theta is not None:
        changes["theta"] = None if args.theta == "from-core" else _number(args.theta, "--theta")
    for name in ("alpha", "p", "q", "beta", "cluster_theta", "mvee_tol", "backend"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name)
    if args.map is not None:
        changes["map_method"] = args.map
    return stored.replace(**changes) if changes else stored


def _number(text: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise LitqError(f"{option} takes a number or 'from-core', not {text!r}") from None
    if not math.isfinite(value):
        raise LitqError(f"{option} must be a finite number, not {text!r}")
    return value


def _cell(value: float, defined: bool = True) -> str:
    return f"{value:.3f}" if defined else "  —  "


def table(evaluation: engine.TopicEvaluation) -> str:
    """The comparison table as text: per list recall [CI] and per method P / n / F2."""
    head = f"{'list':<20} {'works':>6} {'recall':>6} {'95% CI':>11}"
    for method in METHODS:
        head += f" | {method:^20}"
    lines = [f"topic {evaluation.topic}: {evaluation.backend.name} vectors, "
             f"{evaluation.map.method.upper()} map (fidelity "
             f"{'n/a' if math.isnan(evaluation.fidelity) else f'{evaluation.fidelity:.1%}'})",
             head, f"{'':<20} {'':>6} {'':>6} {'':>11}" + " | P      n      F2   " * 4]
    notes = []
    for item in evaluation.lists:
        row = (f"{item.name[:20]:<20} {item.size:>6} {item.recall:>6.3f} "
               f"{item.recall_ci[0]:>5.2f}–{item.recall_ci[1]:<5.2f}")
        for method in METHODS:
            r = item.methods[method]
            row += f" | {_cell(r.precision, r.defined)} {r.relevant:>6} {r.f_beta:.3f}"
            if not r.defined:
                notes.append(f"  {item.name}, {method}: {r.reason}")
        lines.append(row)
        if item.without_vector:
            lines.append(f"{'':<20} {item.without_vector} works without title or abstract "
                         "(no vector) left out of the semantic precisions")
        cos = item.methods["cos"]
        if cos.loo_range:
            lines.append(f"{'':<20} SP cos leave-one-out {cos.loo_range[0]:.3f}–"
                         f"{cos.loo_range[1]:.3f} (F2 {cos.loo_f_range[0]:.3f}–"
                         f"{cos.loo_f_range[1]:.3f}); cluster k = "
                         f"{item.methods['cluster'].detail.get('k') or '—'}")
    if notes:
        lines += ["undefined:", *notes]
    return "\n".join(lines + list(evaluation.embedding_notes))


def _evaluate(project: Project, args: argparse.Namespace) -> engine.TopicEvaluation:
    """Evaluate with the stored parameters changed by the options; store them once the
    evaluation succeeded."""
    stored = settings.load_settings(project, args.topic)
    chosen = _chosen_settings(args, stored)
    evaluation = _run(engine.evaluate_topic(project, args.topic, chosen,
                                            _backend(args, chosen.backend)))
    if chosen != stored:
        project.write(settings.save_settings_op(args.topic, chosen))
    return evaluation


_PARAMETERS = ("backend", "vectors", "theta", "alpha", "p", "q", "beta", "cluster_theta",
               "mvee_tol", "map")


def cmd_evaluate(args: argparse.Namespace) -> None:
    if (args.topic is None) == (not args.all_topics):
        raise LitqError("evaluate takes --topic TOPIC or --all-topics")
    if args.csv:
        check_target(args.csv, args.project)
    if args.all_topics:
        _evaluate_all(args)
        return
    if args.jobs != 1 or args.dask:
        raise LitqError("--jobs and --dask go with --all-topics")
    with open_for_writing(args.project) as project:
        evaluation = _evaluate(project, args)
    _told_repairs([evaluation])
    if args.csv:
        comparison.write_csv(evaluation, args.csv)
    emit(args, evaluation.as_dict(), lambda: table(evaluation))


def _evaluate_all(args: argparse.Namespace) -> None:
    """Every topic with its stored parameters, computed in parallel; one row per topic."""
    given = [name for name in _PARAMETERS if getattr(args, name) is not None]
    if given:
        raise LitqError(f"--all-topics evaluates each topic with its stored parameters; "
                        f"set --{given[0].replace('_', '-')} per topic with --topic")
    progress = TextProgress()
    try:
        with open_for_writing(args.project) as project:
            outcomes = batch.evaluate_all(project, jobs=args.jobs, dask_address=args.dask,
                                          progress=progress)
    finally:
        progress.finish()
    done = [outcome.evaluation for outcome in outcomes if outcome.evaluation is not None]
    _told_repairs(done)
    if args.csv:
        comparison.write_csv(done, args.csv)
    emit(args, [outcome.as_dict() for outcome in outcomes], lambda: "\n\n".join(
        table(outcome.evaluation) if outcome.evaluation is not None
        else f"topic {outcome.topic}: not evaluated: {outcome.reason}" for outcome in outcomes))


def _told_repairs(evaluations: list[engine.TopicEvaluation]) -> None:
    """Say on stderr which damaged stored results were computed again."""
    for evaluation in evaluations:
        for line in evaluation.repaired:
            print(f"litqeval: note: {line}", file=sys.stderr)


def _open_to_read(path: Path) -> Project:
    """The project for a command that only needs to read it: for writing when it may be
    written (what the evaluation computes is kept), else — a read-only file or folder,
    or a project another process holds open for writing — read-only."""
    if path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return Project.open(path, readonly=True)
    try:
        return open_for_writing(path)
    except ProjectLockedError:
        return Project.open(path, readonly=True)


def _stored_in_full(project: Project, topic: str) -> None:
    """Refuse, on a read-only project, a topic whose evaluation is not stored in full."""
    plan = engine.plan_topic(project, topic)
    if (plan.task.embedding is not None or plan.map is None or any(plan.task.todo)
            or plan.repaired):
        raise LitqError(f"{project.path} can only be read here (read-only, or open in "
                        f"another process) and the evaluation of topic {topic!r} is not "
                        "stored in full (vectors, map or results are missing); evaluate it "
                        "there first")


def cmd_report(args: argparse.Namespace) -> None:
    check_target(args.out, args.project)
    with _open_to_read(args.project) as project:
        if project.readonly:
            _stored_in_full(project, args.topic)
        evaluation = _run(engine.evaluate_topic(project, args.topic))
        lists = queries.lists(project, args.topic)  # their queries, databases and files
        clauses = query_report.list_queries(project, args.topic)
    _told_repairs([evaluation])
    report_html.write_report(evaluation, args.out, lists, clauses)
    emit(args, {"topic": args.topic, "out": str(args.out)},
         lambda: f"wrote the evaluation report of {args.topic} to {args.out}")


def _vector_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vectors", type=Path, metavar="FILE",
                   help="precomputed vectors: .npy (with --ids), .csv, .tsv or .jsonl")
    p.add_argument("--ids", type=Path, metavar="FILE", help="the id list of a .npy file")
    p.add_argument("--model", default="unknown", help="what made the precomputed vectors")


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    p = command("embed", cmd_embed)
    p.add_argument("--topic", required=True)
    p.add_argument("--backend", default="lsa", choices=BACKENDS)
    _vector_options(p)
    p = command("evaluate", cmd_evaluate)
    p.add_argument("--topic")
    p.add_argument("--all-topics", action="store_true", dest="all_topics",
                   help="every topic with its stored parameters, topics in parallel")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="with --all-topics: compute N topics at a time on local processes")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="with --all-topics: compute on the Dask cluster at ADDRESS "
                        "(optional extra: pip install \"litqeval-gui[dask]\")")
    p.add_argument("--backend", choices=BACKENDS)
    _vector_options(p)
    p.add_argument("--theta", help="SP cos threshold: a number or 'from-core'")
    p.add_argument("--alpha", type=float)
    p.add_argument("--p", type=float)
    p.add_argument("--q", type=float)
    p.add_argument("--beta", type=float)
    p.add_argument("--cluster-theta", type=float, dest="cluster_theta")
    p.add_argument("--mvee-tol", type=float, dest="mvee_tol")
    p.add_argument("--map", choices=MAP_METHODS)
    p.add_argument("--csv", type=Path, metavar="OUT", help="also write the table as CSV")
    p = command("report", cmd_report)
    p.add_argument("--topic", required=True)
    p.add_argument("out", type=Path, metavar="OUT.html")
