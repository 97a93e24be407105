"""The command that copies a project for a colleague: copy."""

from __future__ import annotations

import argparse
from pathlib import Path

from litqeval_gui.cli.common import Command, emit
from litqeval_gui.core.records.copying import copy_project


def cmd_copy(args: argparse.Namespace) -> None:
    target = copy_project(args.project, args.target)
    emit(args, {"project": str(args.project), "copy": str(target),
                "bytes": target.stat().st_size},
         lambda: f"copied {args.project} to {target}; decisions made on the copy merge back "
                 f"with: litqeval merge {args.project} {target}")


def register(command: Command) -> None:
    """Add this module's command to the ``litqeval`` parser."""
    p = command("copy", cmd_copy)
    p.add_argument("target", type=Path, metavar="COPY.litq")
