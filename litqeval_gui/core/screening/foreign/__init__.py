"""Reviews made in other tools — ASReview LAB projects, Rayyan and Covidence exports —
read with their decisions (:func:`opened_review`) and brought into a project
(:mod:`.intake`). docs/interop.md says what each tool's files hold and how it maps."""

from __future__ import annotations

import tempfile
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.foreign import asreview, covidence, rayyan
from litqeval_gui.core.screening.foreign.intake import ReviewImport, import_review
from litqeval_gui.core.screening.foreign.review import Review

TOOLS = ("asreview", "rayyan", "covidence")


def detect_tool(paths: Sequence[Path]) -> str | None:
    """The tool whose review ``paths`` are ("asreview", "rayyan", "covidence"), judged by
    content; None for a plain export of records."""
    for path in paths:
        check_input(path, ImportRefused)
    if len(paths) == 1 and asreview.sniff(paths[0]):
        return "asreview"
    if all(covidence.sniff(path) for path in paths):
        return "covidence"
    if len(paths) == 1 and rayyan.sniff(paths[0]):
        return "rayyan"
    return None


@contextmanager
def opened_review(paths: Sequence[Path], tool: str = "auto", reviewer: str = ""
                  ) -> Iterator[Review]:
    """The review ``paths`` hold, read and checked whole (one clear line otherwise);
    files it unpacks live until the block ends. ``reviewer`` names whoever decided
    where the tool records no name (an ASReview project, Covidence's final decisions)."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise ImportRefused("no file to import a review from")
    found = detect_tool(paths)
    if tool == "auto":
        if found is None:
            names = ", ".join(p.name for p in paths)
            raise ImportRefused(f"{names}: no ASReview project, Rayyan or Covidence export "
                                "with decisions")
        tool = found
    elif tool not in TOOLS:
        raise ImportRefused(f"unknown tool {tool!r}; choose one of {', '.join(TOOLS)}")
    if tool != "covidence" and len(paths) > 1:
        raise ImportRefused(f"a {tool} review is one file; only Covidence's are several")
    with tempfile.TemporaryDirectory(prefix="litq-review-") as work:
        if tool == "asreview":
            yield asreview.read(paths[0], Path(work), reviewer)
        elif tool == "rayyan":
            yield rayyan.read(paths[0])
        else:
            yield covidence.read(paths, reviewer)


def import_files(project: Project, paths: Sequence[Path], *, topic: str, tool: str = "auto",
                 reviewer: str = "", name: str | None = None, token: CancelToken = NEVER
                 ) -> Generator[Progress, None, ReviewImport]:
    """Read the review ``paths`` hold (:func:`opened_review`) and bring it into ``topic``
    as screening ``name`` (:func:`~.intake.import_review`), a job."""
    yield Progress(0, 100, f"reading {', '.join(Path(p).name for p in paths)}")
    with opened_review(paths, tool, reviewer) as review:
        return (yield from import_review(project, review, topic=topic, name=name,
                                         token=token))
