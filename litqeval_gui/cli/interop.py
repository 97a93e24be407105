"""The command that brings a review from another tool: import-review (ASReview LAB,
Rayyan, Covidence), also what ``import`` runs on such a file."""

from __future__ import annotations

import argparse
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit, open_for_writing
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.foreign import TOOLS, import_files


def run_review_import(args: argparse.Namespace, files: list[Path], tool: str = "auto") -> None:
    """Read the review ``files`` hold and bring it into the project (prints the summary)."""
    progress = TextProgress()
    with open_for_writing(args.project) as project:
        job = import_files(project, files, topic=args.topic, tool=tool,
                           reviewer=args.reviewer or "", name=args.screening or None)
        try:
            summary = run_job(job, progress)
        finally:
            job.close()
            progress.finish()
    emit(args, summary.as_dict(), summary.report)


def cmd_import_review(args: argparse.Namespace) -> None:
    run_review_import(args, args.files, args.tool)


def register(command: Command) -> None:
    """Add this module's commands to the ``litqeval`` parser."""
    p = command("import-review", cmd_import_review)
    p.add_argument("files", type=Path, nargs="+", metavar="FILE",
                   help="an ASReview project (.asreview), a Rayyan export (CSV or RIS) or "
                        "Covidence's export files (one per stage)")
    p.add_argument("--topic", required=True)
    p.add_argument("--tool", default="auto", choices=("auto", *TOOLS))
    p.add_argument("--screening", help="the screening's name (default: the review's)")
    p.add_argument("--reviewer",
                   help="who decided, where the tool names no one (an ASReview project "
                        "without users, Covidence's final decisions)")
