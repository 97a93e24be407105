"""What every ``litqeval`` command shares: arguments, output, progress, opening a project."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.projectfile.project import Project, discarded_message


class Command(Protocol):
    """``command(name, func)`` makes ``func`` the sub-command ``name`` of
    :data:`~litqeval_gui.cli.commands.COMMANDS` (its help, whether it takes
    ``PROJECT.litq``) and returns its parser."""

    def __call__(self, name: str,
                 func: Callable[[argparse.Namespace], None]) -> argparse.ArgumentParser: ...


def pair(part: str, option: str) -> tuple[str, str]:
    """``FIELD=VALUE`` → (field, value); quotes around the value are dropped."""
    key, sep, value = part.partition("=")
    if not sep or not key.strip():
        raise LitqError(f"{option} expects FIELD=VALUE, got {part!r}")
    return key.strip(), value.strip().strip('"')


def column_mapping(text: str) -> dict[str, str]:
    """``--map title=ColA,abstract=ColB`` → {"title": "ColA", "abstract": "ColB"}."""
    return dict(pair(part, "--map") for part in text.split(",") if part.strip())


class TextProgress:
    """A one-line text progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream  # stderr now, not at import
        self.enabled = self.stream.isatty()

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


def emit(args: argparse.Namespace, document: object, text: Callable[[], str]) -> None:
    print(json.dumps(document, ensure_ascii=False, indent=2) if args.json else text())


def open_for_writing(path: Path) -> Project:
    """Open ``path`` for writing; say so when an import a crash left unfinished was removed."""
    project = Project.open(path)
    if project.discarded:
        print(f"litqeval: {discarded_message(project.discarded)}", file=sys.stderr)
    return project
