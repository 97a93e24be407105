"""``litqeval query``: a list's query evaluated clause by clause on the topic's records."""

from __future__ import annotations

import argparse

from litqeval_gui.cli.common import Command, emit, open_for_writing
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import agreement, topic, versions
from litqeval_gui.core.query.parser import SYNTAXES, WORD_FORMS, parse
from litqeval_gui.core.query.report import clause_table


def cmd_query(args: argparse.Namespace) -> None:
    if args.save and not args.query:
        raise LitqError("--save stores the query given with --query; give one")
    if args.save:
        with open_for_writing(args.project) as project:
            parse(args.query, args.syntax, args.words)  # refuse to store what cannot be read here
            project.write(versions.set_query_op(args.topic, args.list, args.query))
    with Project.open(args.project, readonly=True) as project:
        if args.history:
            past = versions.history(project, args.topic, args.list)
            emit(args, {"topic": args.topic, "list": args.list,
                        "versions": [v.as_dict() for v in past]},
                 lambda: "\n".join(f"v{v.version} {v.at}: {v.text}" for v in past)
                 or f"list {args.list!r} has no query stored")
            return
        text = args.query or versions.current(project, args.topic, args.list)
        if not text:
            raise LitqError(f"list {args.list!r} has no query stored")
        query = parse(text, args.syntax, args.words)
        analysis = topic.analyse(project, args.topic, query)
        agreed = agreement.agreement(project, args.topic, args.list, query)
    emit(args, {"topic": args.topic, "list": args.list, "saved": bool(args.save),
                **analysis.as_dict(), "own_export": agreed.as_dict()},
         lambda: clause_table(analysis, agreed, args.list))


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    p = command("query", cmd_query)
    p.add_argument("--topic", required=True)
    p.add_argument("--list", required=True, help="the result list whose query it is")
    p.add_argument("--query", help="evaluate this text instead of the list's stored query")
    p.add_argument("--syntax", choices=SYNTAXES, default="auto",
                   help="how to read the query (default: detected from its field tags)")
    p.add_argument("--words", choices=WORD_FORMS, default="auto",
                   help="stem: every form of a word with its English stem; exact: as "
                        "written (default: as the syntax's database does — stems for plain "
                        "Boolean/Dimensions, Scopus and Web of Science)")
    p.add_argument("--save", action="store_true",
                   help="store --query as the list's query (a new version; the old ones "
                        "are kept)")
    p.add_argument("--history", action="store_true", help="list the query's versions")
