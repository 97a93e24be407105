"""``litqeval attach``: full texts (PDFs) for a topic's records — one file for a record
(replacing its PDF), or a folder matched by DOI, file name and title
(:mod:`litqeval_gui.core.records.attachments`), or ``--detach ID`` to take a record's
PDF back. A folder's certain matches are attached in one write; uncertain ones are
listed, each candidate record with its id, year, authors and DOI beside the PDF's own
title, for ``--record ID FILE`` (or the app's dialog) to confirm, and unreadable PDFs
are named with the reason. Every file is checked before anything is copied
(:func:`~litqeval_gui.core.records.pdf_match.check_pdf`); a copy over 200 MB is
announced on stderr first."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from litqeval_gui.cli.common import Command, TextProgress, emit, open_for_writing
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import (
    attach_file,
    attach_matches,
    candidates,
    detach,
    match_folder,
)


def _record_id(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise LitqError(f"{option} takes a record id (a number), not {text!r}") from None


def _notice(line: str) -> None:
    """A large copy announced on stderr before it is made."""
    print(f"litqeval: {line}", file=sys.stderr, flush=True)


def _check_record(project: Project, topic: str, record_id: int) -> None:
    """One line unless the topic exists and has record ``record_id``."""
    project.topic_id(topic)  # the topic exists
    if project.db.execute("SELECT 1 FROM records r JOIN topics t ON t.id = r.topic_id "
                          "WHERE r.id = ? AND t.name = ?", [record_id, topic]).fetchone() is None:
        raise LitqError(f"topic {topic!r} has no record #{record_id}")


def _one(args: argparse.Namespace) -> None:
    record_id, path = _record_id(args.record[0], "--record"), Path(args.record[1])
    with open_for_writing(args.project) as project:
        _check_record(project, args.topic, record_id)
        got = attach_file(project, record_id, path, copy=not args.link, notify=_notice)
    emit(args, {"record_id": record_id, "path": str(got.path), "sha256": got.sha256,
                "mode": got.mode, "status": got.status},
         lambda: f"attached {path.name} to record {record_id} ({got.mode}: {got.path})")


def _detach(args: argparse.Namespace) -> None:
    record_id = _record_id(args.detach, "--detach")
    with open_for_writing(args.project) as project:
        _check_record(project, args.topic, record_id)
        gone = detach(project, record_id)
    if gone.mode == "link":
        line = f"detached {gone.path} from record {record_id} (the file stays where it is)"
    else:
        line = f"detached the PDF of record {record_id} (the project's copy {gone.path.name} " \
            + ("deleted)" if gone.removed else "kept: another attachment uses it)")
    emit(args, {"record_id": record_id, "path": str(gone.path), "mode": gone.mode,
                "removed": gone.removed}, lambda: line)


def _folder(args: argparse.Namespace) -> None:
    progress = TextProgress()
    with open_for_writing(args.project) as project:
        try:
            found = match_folder(project, args.topic, args.folder, progress=progress)
        finally:
            progress.finish()
        attached = 0 if args.dry_run else attach_matches(
            project, [(record_id, path) for record_id, path, _ in found.certain],
            copy=not args.link, notify=_notice)
        records = candidates(project, [record_id for record_id, *_ in found.uncertain])
    document = {
        "attached": attached,
        "certain": [{"record_id": r, "path": str(p), "how": how} for r, p, how in found.certain],
        "uncertain": [{"record_id": r, "path": str(p), "score": round(score, 3), "how": how,
                       "pdf_title": found.pdf_titles.get(p, ""), "title": records[r].title,
                       "year": records[r].year, "authors": list(records[r].authors),
                       "doi": records[r].doi}
                      for r, p, score, how in found.uncertain],
        "unmatched": [str(p) for p in found.unmatched],
        "refused": [{"path": str(p), "reason": reason} for p, reason in found.refused]}

    def text() -> str:
        verb = "would attach" if args.dry_run else "attached"
        unsure = len({path for _, path, *_ in found.uncertain})
        lines = [f"{verb} {len(found.certain)} PDF(s); {unsure} uncertain, "
                 f"{len(found.unmatched)} unmatched, {len(found.refused)} refused"]
        lines += [f"  uncertain: {p} (its title: {found.pdf_titles.get(p) or '?'}) → record "
                  f"{records[r].line()} ({how}, {score:.0%}); confirm with --record {r} FILE"
                  for r, p, score, how in found.uncertain]
        lines += [f"  unmatched: {p}" for p in found.unmatched]
        lines += [f"  refused: {reason}" for _, reason in found.refused]
        return "\n".join(lines)
    emit(args, document, text)


def cmd_attach(args: argparse.Namespace) -> None:
    if args.dry_run and not args.folder:
        raise LitqError("--dry-run goes with --folder")
    if args.detach is not None and (args.copy or args.link):
        raise LitqError("--copy and --link go with --record or --folder, not --detach")
    (_folder if args.folder else _detach if args.detach is not None else _one)(args)


def register(command: Command) -> None:
    p = command("attach", cmd_attach)
    p.add_argument("--topic", required=True)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--folder", type=Path, metavar="DIR",
                       help="match every PDF under DIR; attach the certain matches, list "
                            "the uncertain ones")
    which.add_argument("--record", nargs=2, metavar=("ID", "FILE"),
                       help="attach FILE to record ID (replacing the PDF its work has)")
    which.add_argument("--detach", metavar="ID",
                       help="detach record ID's PDF (its copy in PROJECT.litq.files is "
                            "deleted; a linked file is left where it is)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--copy", action="store_true",
                      help="copy into PROJECT.litq.files beside the project (the default)")
    mode.add_argument("--link", action="store_true", help="keep the file where it is")
    p.add_argument("--dry-run", action="store_true",
                   help="with --folder: match and report, attach nothing")
