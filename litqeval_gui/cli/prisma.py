"""The reporting commands of a review: prisma (the PRISMA 2020 counts, diagram as SVG and
counts as CSV; the numbers no import gives are entered here too) and screen-audit (every
event of a screening as CSV). ``--png`` and ``--pdf`` have Qt draw the SVG in a child
process (:mod:`litqeval_gui.gui.render_svg`; in the bundle the executable itself with the
hidden argument ``--render-svg``, see ``packaging/launch.py``): this process never loads
Qt. The files asked for are written all or none, and the numbers given are stored only
when they are: a refused number, target or drawing changes nothing."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from litqeval_gui.cli.common import Command, emit, open_for_writing, pair
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.exporting import Staged, check_target
from litqeval_gui.core.screening.export import export_audit
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.counts import PrismaCounts
from litqeval_gui.core.screening.prisma.diagram import counts_csv, prisma_svg
from litqeval_gui.core.screening.prisma.entered import entered, entered_op, source_labels_op
from litqeval_gui.core.screening.prisma.flow import diagram_round, prisma_counts
from litqeval_gui.core.screening.prisma.r_package import r_csv

_ENTERED = {"removed_other": "removed_other", "other": "other_identified",
            "other_sought": "other_sought", "other_not_retrieved": "other_not_retrieved",
            "other_excluded": "other_excluded"}  # option → Entered field


def _counted(parts: list[str], option: str) -> dict[str, int]:
    """``["Citation searching=4", …]`` → {"Citation searching": 4, …}."""
    counts = {}
    for part in parts:
        name, value = pair(part, option)
        try:
            counts[name] = int(value)
        except ValueError:
            raise LitqError(f"{option} {name}=… needs a whole number, not {value!r}") from None
    return counts


def _changes(args: argparse.Namespace) -> dict[str, object]:
    changes: dict[str, object] = {}
    for option, name in _ENTERED.items():
        value = getattr(args, option)
        if value is not None:
            changes[name] = _counted(value, f"--{option.replace('_', '-')}") \
                if isinstance(value, list) else value
    return changes


def _pending(found: dict[str, int]) -> str:
    """", pending 3 (in conflict 2, maybe, not sent on 1)" ("" when nothing is)."""
    total = sum(found.values())
    return f", pending {total:,} (" + ", ".join(f"{k} {n:,}" for k, n in found.items()) \
        + ")" if total else ""


def _text(c: PrismaCounts) -> str:
    e = c.entered
    before = f" ({e.removed_other:,} removed before import)" if e.removed_other else ""
    lines = [f"PRISMA 2020 flow of topic {c.topic!r} (title/abstract screening: "
             f"{c.screening or 'none'}; full text: {c.fulltext or 'none'})",
             "identified: " + (", ".join(f"{k} {n:,}" for k, n in c.identified.items())
                               or "none") + before,
             f"removed before screening: {c.duplicates_removed:,} duplicates, "
             f"{c.removed_automation:,} by automation (not screened, round finished), "
             f"{c.removed_other:,} for other reasons; not yet screened "
             f"{c.not_yet_screened:,}",
             f"screened {c.screened:,}, excluded {c.excluded_screening:,}"
             + _pending(c.pending_screening),
             f"reports sought {c.sought:,}{_pending(c.pending_sought)}, not retrieved "
             f"{c.not_retrieved:,}, assessed {c.assessed:,}{_pending(c.pending_assessed)}, "
             f"excluded {sum(c.excluded_fulltext.values()):,}"
             + "".join(f"\n  {reason}: {n:,}" for reason, n in c.excluded_fulltext.items())]
    if e.other_used:
        lines.append("other methods: " + ", ".join(f"{k} {n:,}" for k, n in
                                                   e.other_identified.items())
                     + f"; sought {e.other_sought:,}, not retrieved "
                       f"{e.other_not_retrieved:,}, assessed {e.other_assessed:,}, excluded "
                       f"{sum(e.other_excluded.values()):,}")
    lines.append(f"studies included: {c.included:,}")
    if len(c.rounds) > 1:
        lines += [f"round {r.round} ({', '.join(s.list_name for s in r.sources) or 'no lists'}):"
                  f" identified {sum(r.identified.values()):,}, duplicates "
                  f"{r.duplicates_removed:,}, not yet screened {r.not_yet_screened:,}, "
                  f"screened {r.screened:,}, excluded {r.excluded_screening:,}, sought "
                  f"{r.sought:,}, assessed {r.assessed:,}, included {r.included:,}"
                  for r in c.rounds]
    lines += [f"note: {note}" for note in c.notes()]
    lines += [f"NOT CONSERVED: {problem}" for problem in c.unbalanced()]
    return "\n".join(lines)


def cmd_prisma(args: argparse.Namespace) -> None:
    for kind in ("png", "pdf"):
        out = getattr(args, kind)
        if out is not None and out.suffix.lower() != f".{kind}":
            raise LitqError(f"--{kind} writes a .{kind} file, not {out.name}")
    for out in (args.svg, args.csv, args.prisma2020, args.png, args.pdf):
        if out is not None:
            check_target(out, args.project)
    changes = _changes(args)
    labels = dict(pair(part, "--source") for part in args.source or [])
    opened = open_for_writing(args.project) if changes or labels else \
        Project.open(args.project, readonly=True)
    with Staged() as outputs, opened as project:
        # one transaction: the numbers are stored only when every file could be made
        with project.transaction() if changes or labels else contextlib.nullcontext():
            if changes:
                numbers = dataclasses.replace(entered(project, args.topic), **changes)
                entered_op(project, args.topic, numbers)(project)
            if labels:
                source_labels_op(project, args.topic, labels)(project)
            counts = prisma_counts(project, args.topic, screening=args.screening,
                                   fulltext=args.fulltext)
            shown = diagram_round(project, args.topic, screening=counts.screening,
                                  round_number=args.round)  # the screening counted
            drawn = counts if shown is None else prisma_counts(
                project, args.topic, screening=args.screening, fulltext=args.fulltext,
                round_number=shown)
            _stage(outputs, args, drawn, counts)
        outputs.move()
    written = [str(out) for out in (args.svg, args.csv, args.prisma2020, args.png, args.pdf)
               if out is not None]
    notes = [f"the diagram shows round {shown}" + (
        " (the update layout: earlier rounds are the previous version)" if shown > 1
        else "")] if shown is not None and (args.svg or args.png or args.pdf
                                            or args.prisma2020) else []
    emit(args, counts.as_json(),
         lambda: "\n".join([_text(counts), *notes, *(f"wrote {path}" for path in written)]))


def _stage(outputs: Staged, args: argparse.Namespace, drawn: PrismaCounts,
           counts: PrismaCounts) -> None:
    """Write each file asked for beside its target: the diagram of ``drawn``, the CSV of
    ``counts``."""
    svg = prisma_svg(drawn) if args.svg or args.png or args.pdf else ""
    if args.svg:
        outputs.write(args.svg, lambda partial: partial.write_text(svg, encoding="utf-8"),
                      "the diagram")
    if args.csv:
        outputs.write(args.csv, lambda partial: counts_csv(counts, partial), "the counts")
    if args.prisma2020:
        outputs.write(args.prisma2020, lambda partial: r_csv(drawn, partial),
                      "the PRISMA2020 counts")
    for image in (args.png, args.pdf):
        if image is not None:
            outputs.write(image, functools.partial(render_diagram, svg, image.name),
                          "the diagram")


RENDER_FLAG = "--render-svg"  # packaging/launch.py dispatches it to gui/render_svg.py
RENDER_TIMEOUT = 120  # seconds


def render_command() -> list[str]:
    """The command that draws an SVG as PNG or PDF in a child process (module docstring)."""
    if getattr(sys, "frozen", False):  # the bundle: its executable is not a Python
        return [sys.executable, RENDER_FLAG]
    return [sys.executable, "-m", "litqeval_gui.gui.render_svg"]


def render_diagram(svg: str, name: str, out: Path) -> None:
    """``svg`` drawn by Qt in a child process as ``out``, PNG or PDF by the suffix of
    ``name`` (the file asked for); its one-line failure as a :class:`LitqError`."""
    with tempfile.TemporaryDirectory(prefix="litqeval-prisma-") as folder:
        source, drawn = Path(folder) / "diagram.svg", Path(folder) / f"diagram{Path(name).suffix}"
        source.write_text(svg, encoding="utf-8")
        try:
            done = subprocess.run([*render_command(), str(source), str(drawn)],
                                  capture_output=True, text=True, timeout=RENDER_TIMEOUT,
                                  check=False)
        except subprocess.TimeoutExpired:
            raise LitqError(f"drawing {name} took over {RENDER_TIMEOUT} s; "
                            "write --svg and convert it") from None
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
            raise LitqError(f"cannot draw {name}: {reason}")
        shutil.copyfile(drawn, out)


def cmd_screen_audit(args: argparse.Namespace) -> None:
    with Project.open(args.project, readonly=True) as project:
        screening = store.find_screening(project, args.topic, args.screening)
        count = export_audit(project, screening, args.out)
    emit(args, {"events": count, "file": str(args.out)},
         lambda: f"wrote {count:,} events of screening {screening.name!r} to {args.out}")


def register(command: Command) -> None:
    p = command("prisma", cmd_prisma)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", help="the title/abstract screening (default: the newest)")
    p.add_argument("--fulltext", help="the full-text screening (default: the newest "
                   "started from the title/abstract screening counted)")
    p.add_argument("--round", type=int, metavar="N",
                   help="draw the diagram of search round N of the screening (1: the first "
                        "searches; a later round in PRISMA 2020's template for updated "
                        "reviews, earlier rounds as the previous version). Default: the "
                        "newest round when the screening grew with search updates, else "
                        "the whole flow. --json and --csv always give the whole screening "
                        "with each round under 'rounds'")
    p.add_argument("--svg", type=Path, metavar="OUT.svg", help="write the diagram")
    p.add_argument("--csv", type=Path, metavar="OUT.csv", help="write the counts")
    p.add_argument("--prisma2020", type=Path, metavar="OUT.csv",
                   help="write the diagram's counts as the PRISMA2020 R package and Shiny "
                        "app read them (their template CSV)")
    p.add_argument("--png", type=Path, metavar="OUT.png",
                   help="write the diagram as PNG (2 pixels per point; Qt draws it in a "
                        "child process)")
    p.add_argument("--pdf", type=Path, metavar="OUT.pdf",
                   help="write the diagram as PDF (a page of the diagram's size)")
    numbers = p.add_argument_group(
        "numbers no import gives, stored in the project (each replaces the stored one)")
    numbers.add_argument("--source", nargs="+", metavar="LIST=LABEL",
                         help="count a list under this database or register name, e.g. "
                              "'pubmed-2024=PubMed' (LIST= takes the import's database back)")
    numbers.add_argument("--removed-other", type=int, metavar="N",
                         help="records removed before screening for other reasons, outside "
                              "the project")
    numbers.add_argument("--other", nargs="*", metavar="SOURCE=N",
                         help="records identified by other methods, e.g. 'Citation "
                              "searching=4' Websites=2 (none: clears them)")
    numbers.add_argument("--other-sought", type=int, metavar="N",
                         help="other methods: reports sought for retrieval")
    numbers.add_argument("--other-not-retrieved", type=int, metavar="N",
                         help="other methods: reports not retrieved")
    numbers.add_argument("--other-excluded", nargs="*", metavar="REASON=N",
                         help="other methods: reports excluded per reason")

    p = command("screen-audit", cmd_screen_audit)
    p.add_argument("--topic", required=True)
    p.add_argument("--screening", required=True)
    p.add_argument("out", type=Path, metavar="OUT.csv")
