"""The commands over imports and records: new, import, info, lists, recall, matches, export."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from litqeval_gui.cli.common import (
    Command,
    TextProgress,
    column_mapping,
    emit,
    open_for_writing,
    pair,
)
from litqeval_gui.core import evaluation
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest, matches, queries
from litqeval_gui.core.records.attachments import list_attachments
from litqeval_gui.core.records.importing import formats, read_records


def cmd_new(args: argparse.Namespace) -> None:
    Project.create(args.project).close()
    emit(args, {"created": str(args.project)}, lambda: f"created {args.project}")


def cmd_import(args: argparse.Namespace) -> None:
    mapping = column_mapping(args.map) if args.map else None
    where = dict(pair(clause, "--where") for clause in args.where or [])
    if (args.topic is None) == (not args.each_topic):
        raise LitqError("give --topic, or --each-topic for a TREC run or qrels file")
    if not args.records_only and not args.each_topic and args.format == "auto" \
            and args.role == "results" and _is_review(args.file):
        args.screening = args.name
        from litqeval_gui.cli.interop import run_review_import  # the screening modules
        run_review_import(args, [args.file])  # records as a list, decisions as a screening
        return
    topics = _trec_topics(args.file, args.format) if args.each_topic else [args.topic]
    progress = TextProgress()
    summaries = []
    finished = False  # whether the import is committed (then Ctrl-C no longer undoes it)
    try:
        with open_for_writing(args.project) as project:
            for topic in topics:  # a TREC file's topic id: the importer keeps its lines
                finished = False
                job = ingest.import_file(
                    project, args.file, topic=topic, role=args.role, name=args.name,
                    query=args.query or "", database=args.database, fmt=args.format,
                    mapping=mapping, where=where or None, pubmed_ids=args.pubmed_ids,
                )
                try:
                    summaries.append(run_job(job, progress))
                    finished = True
                except KeyboardInterrupt:
                    job.close()  # an interrupted import rolls back here
                    finished = _import_done(project, topic, args.name or args.file.stem)
                    raise
                finally:
                    job.close()
                    progress.finish()
    except KeyboardInterrupt:
        if finished:
            raise KeyboardInterrupt("interrupted after the import had finished; "
                                    "it is kept") from None
        raise
    if not args.each_topic:
        emit(args, summaries[0].as_dict(), summaries[0].report)
    else:
        emit(args, {"imports": [s.as_dict() for s in summaries]},
             lambda: "".join(s.report() for s in summaries))


def _is_review(path: Path) -> bool:
    """Whether ``path`` is another tool's review with decisions (docs/interop.md)."""
    from litqeval_gui.core.screening.foreign import detect_tool  # the screening modules
    return detect_tool([path]) is not None


def _trec_topics(path: Path, fmt: str) -> list[str]:
    """The topic ids of TREC run or qrels ``path`` (``--each-topic``)."""
    result = run_job(read_records(path, fmt=fmt, limit=1))
    if result.format not in ("trec-run", "qrels"):
        raise LitqError(f"{path}: --each-topic needs a TREC run or qrels file, not "
                        f"{result.format}")
    return list(result.topics)


def _import_done(project: Project, topic: str, name: str) -> bool:
    """Whether list ``name`` of ``topic`` is stored and linked (an interrupt came after)."""
    return project.db.execute(
        "SELECT 1 FROM imports i JOIN topics t ON t.id = i.topic_id "
        "WHERE t.name = ? AND i.name = ? AND i.state = 'done'", [topic, name]).fetchone() is not None


def cmd_info(args: argparse.Namespace) -> None:
    from litqeval_gui.core.screening.log import store  # the screening modules

    with Project.open(args.project, readonly=True) as project:
        info = queries.project_info(project)
        for topic in info["topics"]:
            topic["screenings"] = store.overview(project, topic["name"])

    def text() -> str:
        lines = [f"{info['path']}: schema {info['schema_version']}, "
                 f"{info['records']} records in {info['imports']} imports"]
        for t in info["topics"]:
            lines.append(f"  topic {t['name']}: core {t['core']}, result lists {t['lists']}, "
                         f"records {t['records']}, works {t['works']}")
            for s in t["screenings"]:
                who = ", ".join(f"{name} {n}" for name, n in s["reviewers"].items())
                lines.append(f"    screening {s['name']} ({s['phase']}): {s['items']} items"
                             + (f"; decided by {who}" if who else "")
                             + (f"; from {s['origin']}" if s["origin"] else ""))
        return "\n".join(lines)

    emit(args, info, text)


def cmd_lists(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        found = queries.lists(project, args.topic)

    def text() -> str:
        if not found:
            return "no lists yet — import a search export with `litqeval import`"
        head = (f"{'topic':<16} {'role':<8} {'name':<28} {'works':>7} {'records':>7} "
                f"{'read':>7} {'rejected':>8}")
        rows = [f"{i.topic[:16]:<16} {i.role:<8} {i.name[:28]:<28} {i.size:>7} {i.records:>7} "
                f"{i.read:>7} {i.rejected:>8}" for i in found]
        return "\n".join([head, *rows])

    emit(args, {"lists": [i.as_dict() for i in found]}, text)


def cmd_recall(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        report = evaluation.recall_report(project, args.topic, args.results)

    def text() -> str:
        lines = [f"topic {report.topic}"]
        for r in report.lists:
            pending = (f"; {r.pending} of the missed core records pending review (an "
                       "uncertain match would retrieve them: `litqeval matches --uncertain`)"
                       if r.pending else "")
            lines.append(f"{r.name}: size {r.size} works, core {r.core}, retrieved core "
                         f"{r.retrieved_core}, recall {r.recall:.3f}{pending}")
            for m in r.missed:
                mark = " [pending review]" if m.pending_review else ""
                lines.append(f"    missed: {m.title} ({m.year or 'n.d.'}) {m.doi}".rstrip()
                             + mark)
        return "\n".join(lines)

    emit(args, report.as_dict(), text)


def cmd_matches(args: argparse.Namespace) -> None:
    deciding = bool(args.confirm or args.reject)
    opened = (open_for_writing(args.project) if deciding
              else Project.open(args.project, readonly=True))
    with opened as project:
        for link_id in args.confirm or []:
            project.write(matches.decide_op(link_id, accept=True))
        for link_id in args.reject or []:
            project.write(matches.decide_op(link_id, accept=False))
        found = matches.matches(project, args.topic, uncertain=args.uncertain,
                                decided=args.decided)
        counts = matches.match_counts(project, args.topic)

    def text() -> str:
        if not found:
            return ("no uncertain matches" if args.uncertain else
                    "no verdicts yet" if args.decided else "no matches")
        out = []
        for m in found:
            why = matches.conflicts_text(m.conflicts)
            out.append(f"#{m.id} {m.method} {m.score:.3f} [{m.status}]"
                       + (f" ({why})" if why else ""))
            for side in (m.a, m.b):
                out.append(f"    {side.list_name} ({side.role}): {side.title} "
                           f"({side.year or 'n.d.'})")
                out.append(f"        {matches.identifiers_text(side.identifiers) or 'no identifiers'}")
        out.append(f"{counts.uncertain} awaiting a verdict, {counts.confirmed} accepted, "
                   f"{counts.rejected} rejected (topic {args.topic})")
        return "\n".join(out)

    emit(args, {"topic": args.topic, "counts": counts.as_dict(),
                "matches": [m.as_dict() for m in found]}, text)


def cmd_export(args: argparse.Namespace) -> None:
    exporting.check_target(args.out, args.project)
    warning = exporting.extension_warning(args.out, args.format)
    if warning:
        print(f"litqeval: warning: {warning}", file=sys.stderr)
    with Project.open(args.project, readonly=True) as project:
        info = queries.find_list(project, args.topic, args.list)
        count = exporting.export_records(queries.list_records(project, info.id), args.out,
                                         args.format, project=args.project,
                                         attachments=list_attachments(project, info.id))
    emit(args, {"list": info.name, "format": args.format, "records": count,
                "out": str(args.out)}, lambda: f"wrote {count} records to {args.out}")


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    command("new", cmd_new)
    p = command("import", cmd_import)
    p.add_argument("file", type=Path)
    p.add_argument("--topic")
    p.add_argument("--each-topic", action="store_true",
                   help="a TREC run or qrels file: import each of its topics into the "
                        "project topic of the same id (instead of --topic)")
    p.add_argument("--role", required=True, choices=ingest.ROLES,
                   help="collection: the documents (docid, title, abstract) behind the "
                        "topic's runs and qrels, as JSON lines, a table, MEDLINE or TREC "
                        "<DOC> files; only documents the topic names are kept")
    p.add_argument("--pubmed-ids", action="store_true",
                   help="a collection whose numeric docids are PubMed ids (CLEF TAR): "
                        "its records then link to PubMed")
    p.add_argument("--name", help="list name (default: the file name)")
    p.add_argument("--query", help="the search query text that produced the export")
    p.add_argument("--database", help="source database (default: detected)")
    p.add_argument("--format", default="auto", choices=("auto", *formats.names()))
    p.add_argument("--map", help="column mapping for tables, e.g. title=ColA,abstract=ColB")
    p.add_argument("--where", action="append", metavar="FIELD=VALUE",
                   help='keep only matching records, e.g. groups="My core set"')
    p.add_argument("--records-only", action="store_true",
                   help="an ASReview project or a Rayyan/Covidence export: import its "
                        "records only, not its decisions (a result list's import brings "
                        "them as a screening)")
    p.add_argument("--reviewer", help="an ASReview project: who decided (default: its user)")
    command("info", cmd_info)
    p = command("lists", cmd_lists)
    p.add_argument("--topic")
    p = command("recall", cmd_recall)
    p.add_argument("--topic", required=True)
    p.add_argument("--results", help="only this result list")
    p = command("matches", cmd_matches)
    p.add_argument("--topic", required=True)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--uncertain", action="store_true", help="only matches awaiting a verdict")
    which.add_argument("--decided", action="store_true",
                       help="only matches you decided (to list or change past verdicts)")
    p.add_argument("--confirm", type=int, action="append", metavar="ID",
                   help="accept match ID (the same work)")
    p.add_argument("--reject", type=int, action="append", metavar="ID",
                   help="reject match ID (different works)")
    p = command("export", cmd_export)
    p.add_argument("--topic", required=True)
    p.add_argument("--list", required=True)
    p.add_argument("--format", required=True, choices=exporting.EXPORT_FORMATS)
    p.add_argument("out", type=Path, metavar="OUT")
