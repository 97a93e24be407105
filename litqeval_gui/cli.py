"""``litqeval``: the headless front door over the same core functions the GUI uses.

Every command takes a project file; ``--json`` prints one JSON document. Errors go
to stderr as one line with a non-zero exit code (2 = user error, 3 = internal
error, 130 = interrupted), never a traceback; output into a closed pipe
(``litqeval … | head``) ends the command quietly (exit 141, as SIGPIPE would).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from litqeval_gui import __version__
from litqeval_gui.core import catalog, evaluation, exporting, ingest, matches
from litqeval_gui.core.errors import LitqError, database_message, environment_message, one_line
from litqeval_gui.core.importing import FORMATS
from litqeval_gui.core.jobs import Progress, run_job
from litqeval_gui.core.project import Project, discarded_message


def _pair(part: str, option: str) -> tuple[str, str]:
    """``FIELD=VALUE`` → (field, value); quotes around the value are dropped."""
    key, sep, value = part.partition("=")
    if not sep or not key.strip():
        raise LitqError(f"{option} expects FIELD=VALUE, got {part!r}")
    return key.strip(), value.strip().strip('"')


def _mapping(text: str) -> dict[str, str]:
    """``--map title=ColA,abstract=ColB`` → {"title": "ColA", "abstract": "ColB"}."""
    return dict(_pair(part, "--map") for part in text.split(",") if part.strip())


class TextProgress:
    """A one-line text progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, stream=sys.stderr) -> None:
        self.stream = stream
        self.enabled = stream.isatty()

    def __call__(self, p: Progress) -> None:
        if not self.enabled or not p.total:
            return
        width = 30
        filled = int(width * p.fraction)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                          f"{100 * p.fraction:5.1f}% {p.message[:30]:30}")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def _emit(args: argparse.Namespace, document: object, text: Callable[[], str]) -> None:
    print(json.dumps(document, ensure_ascii=False, indent=2) if args.json else text())


def _open_for_writing(path: Path) -> Project:
    """Open ``path`` for writing; say so when an import a crash left unfinished was removed."""
    project = Project.open(path)
    if project.discarded:
        print(f"litqeval: {discarded_message(project.discarded)}", file=sys.stderr)
    return project


def cmd_new(args: argparse.Namespace) -> None:
    Project.create(args.project).close()
    _emit(args, {"created": str(args.project)}, lambda: f"created {args.project}")


def cmd_import(args: argparse.Namespace) -> None:
    mapping = _mapping(args.map) if args.map else None
    where = dict(_pair(clause, "--where") for clause in args.where or [])
    progress = TextProgress()
    finished = False  # whether the import is committed (then Ctrl-C no longer undoes it)
    try:
        with _open_for_writing(args.project) as project:
            job = ingest.import_file(
                project, args.file, topic=args.topic, role=args.role, name=args.name,
                query=args.query or "", database=args.database, fmt=args.format,
                mapping=mapping, where=where or None,
            )
            try:
                summary = run_job(job, progress)
                finished = True
            except KeyboardInterrupt:
                job.close()  # an interrupted import rolls back here
                finished = _import_done(project, args.topic, args.name or args.file.stem)
                raise
            finally:
                job.close()
                progress.finish()
    except KeyboardInterrupt:
        if finished:
            raise KeyboardInterrupt("interrupted after the import had finished; "
                                    "it is kept") from None
        raise
    _emit(args, summary.as_dict(), summary.report)


def _import_done(project: Project, topic: str, name: str) -> bool:
    """Whether list ``name`` of ``topic`` is stored and linked (an interrupt came after)."""
    return project.db.execute(
        "SELECT 1 FROM imports i JOIN topics t ON t.id = i.topic_id "
        "WHERE t.name = ? AND i.name = ? AND i.state = 'done'", [topic, name]).fetchone() is not None


def cmd_info(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        info = catalog.project_info(project)

    def text() -> str:
        lines = [f"{info['path']}: schema {info['schema_version']}, "
                 f"{info['records']} records in {info['imports']} imports"]
        for t in info["topics"]:
            lines.append(f"  topic {t['name']}: core {t['core']}, result lists {t['lists']}, "
                         f"records {t['records']}, works {t['works']}")
        return "\n".join(lines)

    _emit(args, info, text)


def cmd_lists(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        found = catalog.lists(project, args.topic)

    def text() -> str:
        if not found:
            return "no lists yet — import a search export with `litqeval import`"
        head = f"{'topic':<16} {'role':<8} {'name':<28} {'size':>7} {'read':>7} {'rejected':>8}"
        rows = [f"{i.topic[:16]:<16} {i.role:<8} {i.name[:28]:<28} {i.size:>7} {i.read:>7} "
                f"{i.rejected:>8}" for i in found]
        return "\n".join([head, *rows])

    _emit(args, {"lists": [i.as_dict() for i in found]}, text)


def cmd_recall(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        report = evaluation.recall_report(project, args.topic, args.results)

    def text() -> str:
        lines = [f"topic {report.topic}"]
        for r in report.lists:
            lines.append(f"{r.name}: size {r.size}, core {r.core}, retrieved core "
                         f"{r.retrieved_core}, recall {r.recall:.3f}")
            for m in r.missed:
                lines.append(f"    missed: {m.title} ({m.year or 'n.d.'}) {m.doi}".rstrip())
        return "\n".join(lines)

    _emit(args, report.as_dict(), text)


def cmd_matches(args: argparse.Namespace) -> None:
    deciding = bool(args.confirm or args.reject)
    opened = (_open_for_writing(args.project) if deciding
              else Project.open(args.project, readonly=True))
    with opened as project:
        for link_id in args.confirm or []:
            matches.decide(project, link_id, accept=True)
        for link_id in args.reject or []:
            matches.decide(project, link_id, accept=False)
        found = matches.matches(project, args.topic, uncertain=args.uncertain)

    def text() -> str:
        if not found:
            return "no uncertain matches" if args.uncertain else "no matches"
        out = []
        for m in found:
            out.append(f"#{m.id} {m.method} {m.score:.3f} [{m.status}]")
            for side in (m.a, m.b):
                out.append(f"    {side.list_name} ({side.role}): {side.title} "
                           f"({side.year or 'n.d.'}) {side.doi}".rstrip())
        return "\n".join(out)

    _emit(args, {"topic": args.topic, "matches": [m.as_dict() for m in found]}, text)


def cmd_export(args: argparse.Namespace) -> None:
    exporting.check_target(args.out, args.project)
    warning = exporting.extension_warning(args.out, args.format)
    if warning:
        print(f"litqeval: warning: {warning}", file=sys.stderr)
    with Project.open(args.project, readonly=True) as project:
        info = catalog.find_list(project, args.topic, args.list)
        count = exporting.export_records(catalog.list_records(project, info.id), args.out,
                                         args.format, project=args.project)
    _emit(args, {"list": info.name, "format": args.format, "records": count,
                 "out": str(args.out)}, lambda: f"wrote {count} records to {args.out}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="litqeval", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"litqeval {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, func: Callable, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("project", type=Path, metavar="PROJECT.litq")
        p.add_argument("--json", action="store_true", help="print one JSON document")
        p.set_defaults(func=func)
        return p

    command("new", cmd_new, "create a new, empty project file")
    p = command("import", cmd_import, "import a file as a core set or result list")
    p.add_argument("file", type=Path)
    p.add_argument("--topic", required=True)
    p.add_argument("--role", required=True, choices=ingest.ROLES)
    p.add_argument("--name", help="list name (default: the file name)")
    p.add_argument("--query", help="the search query text that produced the export")
    p.add_argument("--database", help="source database (default: detected)")
    p.add_argument("--format", default="auto", choices=("auto", *FORMATS))
    p.add_argument("--map", help="column mapping for tables, e.g. title=ColA,abstract=ColB")
    p.add_argument("--where", action="append", metavar="FIELD=VALUE",
                   help='keep only matching records, e.g. groups="My core set"')
    command("info", cmd_info, "summarise the project")
    p = command("lists", cmd_lists, "list the imported lists")
    p.add_argument("--topic")
    p = command("recall", cmd_recall, "recall of result lists against the core set")
    p.add_argument("--topic", required=True)
    p.add_argument("--results", help="only this result list")
    p = command("matches", cmd_matches, "matches between records; review uncertain ones")
    p.add_argument("--topic", required=True)
    p.add_argument("--uncertain", action="store_true", help="only matches awaiting a verdict")
    p.add_argument("--confirm", type=int, action="append", metavar="ID",
                   help="accept match ID (the same work)")
    p.add_argument("--reject", type=int, action="append", metavar="ID",
                   help="reject match ID (different works)")
    p = command("export", cmd_export, "export a list to a file")
    p.add_argument("--topic", required=True)
    p.add_argument("--list", required=True)
    p.add_argument("--format", required=True, choices=("ris", "csv", "bibtex", "xlsx"))
    p.add_argument("out", type=Path, metavar="OUT")
    return parser


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush of the closed
    pipe raises nothing (Python's advice for SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    multiprocessing.freeze_support()  # the frozen bundle spawns the parallel parser
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:  # ``litqeval … | head``: the reader has all it wanted
        _silence_stdout()
        return 128 + 13  # as a process killed by SIGPIPE
    except LitqError as err:
        return _fail(f"error: {err}", 2)
    except KeyboardInterrupt as interrupt:
        return _fail(str(interrupt) or "interrupted; the project is unchanged", 130)
    except OSError as err:  # the environment: permissions, full disk, missing folders
        return _fail(f"error: {environment_message(err, str(err.filename or 'a file'))}", 2)
    except sqlite3.DatabaseError as err:  # full disk, read-only file, damage found late
        return _fail(f"error: {database_message(err)}", 2)
    except UnicodeDecodeError as err:  # SQLite hands back text bytes that are not UTF-8
        return _fail(f"error: {args.project} is damaged: it holds text that is not UTF-8 "
                     f"({err.reason} at byte {err.start}); nothing was changed", 2)
    except Exception as err:  # noqa: BLE001 — last resort: one line, never a traceback
        return _fail(f"internal error: {type(err).__name__}: {err}", 3)
    return 0


def _fail(message: str, code: int) -> int:
    print(one_line(f"litqeval: {message}"), file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
