"""A record's full text: one PDF per work, attached by copy or by link, checked by its
checksum. The module the app and the CLI use for full texts (it also gives
:func:`pdf_text` and :func:`match_folder` from :mod:`~litqeval_gui.core.records.pdf_match`).

- **copy** (the default): the file is copied, content-addressed, to
  ``NAME.litq.files/<sha256>.pdf`` beside the project, and that name is stored; the
  project and its ``.files`` folder move together.
- **link**: the absolute path as given is stored; the file stays where it is.

Either way the row keeps the file's sha256 and size, so :func:`attachment` says whether
the file is ``ok``, ``missing`` (moved or deleted) or ``changed`` (other content).
A work has at most one attachment: attaching to one of its records replaces the
work's earlier one, and any record of the work finds it; :func:`detach` removes it
(one write). A file that fails :func:`~.pdf_match.check_pdf` (not a PDF, damaged,
locked by a password, too many pages, a page that cannot be used, too costly to read)
is refused in one line before anything is copied, and nothing changes; a copy over
:data:`LARGE_COPY` is announced first (:func:`copy_notice`); a files folder, or a copy's
name in it, that is a symbolic link is refused (copies stay beside the project). The
file's copy is made before the one write that records it (an unrecorded copy left by a
failed write is only a spare file in the ``.files`` folder). After a write that
replaced or detached a copy, the copy is deleted unless another attachment uses it; a
linked file is never touched.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from litqeval_gui.core.errors import LitqError, environment_message
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.records.pdf_child import PdfChild
from litqeval_gui.core.records.pdf_match import (
    FolderMatch,
    PdfRefused,
    check_pdf,
    match_folder,
    pdf_text,
)
from litqeval_gui.core.records.rows import SELECT_CONTENT, record_from_row

__all__ = ["Attachment", "Candidate", "Detached", "FolderMatch", "PdfRefused", "attach_file",
           "attach_matches", "attachment", "attachment_column", "attachment_paths",
           "attachment_status", "candidates", "copy_notice", "detach", "detach_op",
           "files_folder", "list_attachments", "match_folder", "pdf_text"]

STATUSES = ("ok", "missing", "changed")
LARGE_COPY = 200_000_000  # bytes: a copy this large is announced before it is made
_CHUNK = 1 << 20
_COPY_NAME = re.compile(r"[0-9a-f]{64}\.pdf")  # what _copy_in names a copy


@dataclass(frozen=True)
class Attachment:
    """A work's PDF: stored on record ``record_id`` (a record of the work asked about),
    its absolute ``path``, checksum, ``mode`` (copy | link) and ``status`` now (ok |
    missing | changed)."""

    record_id: int
    path: Path
    sha256: str
    size: int
    mode: str
    status: str


@dataclass(frozen=True)
class Detached:
    """The attachment :func:`detach` removed: its absolute ``path``, ``mode`` and whether
    the project's copy was deleted (``removed``; never for a link)."""

    record_id: int
    path: Path
    mode: str
    removed: bool


@dataclass(frozen=True)
class Candidate:
    """What tells a match's record apart from others of the same title: its id, title,
    year, authors and DOI."""

    record_id: int
    title: str
    year: int | None
    authors: tuple[str, ...]
    doi: str

    def first_authors(self, count: int = 3) -> str:
        """The first ``count`` authors, ``; ``-separated, with ``et al.`` for more."""
        shown = "; ".join(self.authors[:count])
        return shown + (" et al." if len(self.authors) > count else "")

    def line(self) -> str:
        """``#id · year · first authors · doi:… · title`` (``no …`` for what it lacks)."""
        return " · ".join((f"#{self.record_id}", str(self.year or "no year"),
                           self.first_authors() or "no authors",
                           f"doi:{self.doi}" if self.doi else "no DOI",
                           self.title or "(no title)"))


def candidates(project: Project, record_ids: Iterable[int]) -> dict[int, Candidate]:
    """The :class:`Candidate` of each given record that exists."""
    found = {}
    for record_id in dict.fromkeys(record_ids):
        row = project.db.execute(f"SELECT {SELECT_CONTENT} FROM records WHERE id = ?",
                                 [record_id]).fetchone()
        if row is not None:
            rec = record_from_row(row)
            found[record_id] = Candidate(record_id, rec.title, rec.year, tuple(rec.authors),
                                         rec.doi)
    return found


def files_folder(project: Project) -> Path:
    """Where copied full texts live: ``NAME.litq.files`` beside the project file."""
    path = project.path.absolute()
    return path.with_name(path.name + ".files")


def _digest(path: Path) -> tuple[str, int]:
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return sha.hexdigest(), size


def _resolved(project: Project, stored: str, mode: str) -> Path:
    return files_folder(project) / stored if mode == "copy" else Path(stored)


def _status(path: Path, sha256: str, size: int) -> str:
    try:
        if not path.is_file():
            return "missing"
        if path.stat().st_size != size:
            return "changed"
        return "ok" if _digest(path)[0] == sha256 else "changed"
    except OSError:
        return "missing"


_BY_WORK = """SELECT a.record_id, a.path, a.sha256, a.size, a.mode FROM records me
    JOIN records r ON r.topic_id = me.topic_id AND r.work_id = me.work_id
    JOIN attachments a ON a.record_id = r.id WHERE me.id = ?"""


def attachment(project: Project, record_id: int) -> Attachment | None:
    """The PDF of record ``record_id``'s work with its status checked now (the file is
    read for its checksum), or None when the work has none."""
    row = project.db.execute(_BY_WORK, [record_id]).fetchone()
    if row is None:
        return None
    stored_on, stored, sha256, size, mode = row
    path = _resolved(project, stored, mode)
    return Attachment(stored_on, path, sha256, size, mode, _status(path, sha256, size))


def attachment_status(project: Project, record_id: int) -> str | None:
    """``ok``, ``missing`` or ``changed`` for the record's work's PDF; None without one."""
    found = attachment(project, record_id)
    return None if found is None else found.status


def attachment_paths(project: Project, record_ids: Iterable[int]) -> dict[int, Path]:
    """Each given record's work's PDF path (not checked), for the records that have one:
    the attachments read once, the records' works in pages (an export of 900 000 records
    asked once a record, 10 s)."""
    db = project.db
    held = {(topic, work): (path, mode) for topic, work, path, mode in db.execute(
        "SELECT r.topic_id, r.work_id, a.path, a.mode FROM attachments a "
        "JOIN records r ON r.id = a.record_id ORDER BY a.record_id DESC")}
    ids = list(record_ids) if held else []
    paths = {}
    for start in range(0, len(ids), 20_000):  # below SQLite's limit of bound values
        part = ids[start:start + 20_000]
        for record_id, topic, work in db.execute(
                f"SELECT id, topic_id, work_id FROM records WHERE id IN "
                f"({','.join('?' * len(part))})", part):
            if (topic, work) in held:
                paths[record_id] = _resolved(project, *held[topic, work])
    return paths


def attachment_column(project: Project, record_ids: Iterable[int]) -> list[str]:
    """The full-text path (not checked) of each given record in order, ``""`` for one
    without: :func:`~.exporting.export_records`' ``attachments``."""
    ids = list(record_ids)
    paths = attachment_paths(project, ids)
    return [str(paths[r]) if r in paths else "" for r in ids]


def list_attachments(project: Project, list_id: int) -> list[str]:
    """:func:`attachment_column` of the records of list ``list_id`` in rank order."""
    return attachment_column(project, [r for (r,) in project.db.execute(
        "SELECT id FROM live_records WHERE import_id = ? ORDER BY rank, id", [list_id])])


def _no_link(path: Path, what: str) -> None:
    """One line when ``path`` is a symbolic link: copies go only into the project's own
    folder, never where a planted link points."""
    if path.is_symlink():
        raise LitqError(f"{path}: {what} is a symbolic link (to {os.readlink(path)}); the "
                        "project's copies are kept only in a real folder beside it: remove "
                        "the link, or link the PDF instead of copying it")


def _copy_in(project: Project, source: Path, sha256: str) -> str:
    """``source`` copied to the files folder as ``<sha256>.pdf`` (kept if already there);
    one line, nothing copied, when the folder or that name in it is a symbolic link or
    the folder is no folder."""
    folder = files_folder(project)
    name = f"{sha256}.pdf"
    target = folder / name
    _no_link(folder, "the files folder")
    if folder.exists() and not folder.is_dir():
        raise LitqError(f"{folder}: the files folder is not a folder")
    _no_link(target, "the copy's name in the files folder")
    if target.is_file() and _digest(target)[0] == sha256:
        return name
    try:
        folder.mkdir(exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=folder, prefix=".partial-", suffix=".pdf")
        os.close(handle)
        try:
            shutil.copyfile(source, partial)
            os.replace(partial, target)
        finally:
            Path(partial).unlink(missing_ok=True)
    except OSError as err:
        raise LitqError(environment_message(err, f"cannot copy {source.name} to {folder}")) from None
    return name


def copy_notice(project: Project, path: Path) -> str | None:
    """The line announcing a copy of ``path`` larger than :data:`LARGE_COPY` into the
    files folder (None for a smaller file or one that cannot be read)."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return None
    if size <= LARGE_COPY:
        return None
    return (f"{Path(path).name} is {size / 1e6:,.0f} MB: copying it into "
            f"{files_folder(project).name}")


@dataclass(frozen=True)
class _Row:
    record_id: int
    path: str
    sha256: str
    size: int
    mode: str


def _checked(path: Path, child: PdfChild | None = None) -> Path:
    """``path`` made absolute, after :func:`~.pdf_match.check_pdf` (in ``child``): one
    line when it is no file or not a PDF that can be used."""
    path = Path(path).expanduser().absolute()
    if not path.is_file():
        raise LitqError(f"{path}: no such file")
    check_pdf(path, child=child)
    return path


def _stored(project: Project, path: Path, copy: bool,
            notify: Callable[[str], object]) -> tuple[str, str, int]:
    """The stored path, checksum and size of the checked ``path`` (copied in copy mode,
    a large copy announced to ``notify`` first)."""
    try:
        sha256, size = _digest(path)
    except OSError as err:
        raise LitqError(environment_message(err, f"cannot read {path}")) from None
    if not copy:
        return str(path), sha256, size
    notice = copy_notice(project, path)
    if notice:
        notify(notice)
    return _copy_in(project, path, sha256), sha256, size


def _work_of(project: Project, record_id: int) -> tuple[int, int]:
    """The (topic id, work id) of record ``record_id``; one line when there is none."""
    found = project.db.execute("SELECT topic_id, work_id FROM records WHERE id = ?",
                               [record_id]).fetchone()
    if found is None:
        raise LitqError(f"no record #{record_id} in the project")
    return found


def _take_off(project: Project, work: tuple[int, int]) -> list[tuple[str, str]]:
    """Delete the attachment rows of ``work`` (topic id, work id); their (path, mode)."""
    where = "record_id IN (SELECT id FROM records WHERE topic_id = ? AND work_id = ?)"
    rows = project.db.execute(f"SELECT path, mode FROM attachments WHERE {where}",
                              work).fetchall()
    project.db.execute(f"DELETE FROM attachments WHERE {where}", work)
    return [(path, mode) for path, mode in rows]


def _drop_spare_copies(project: Project, taken_off: Iterable[tuple[str, str]]) -> set[str]:
    """After a write: delete each copy taken off that no attachment uses any more (only
    a name :func:`_copy_in` makes, inside the files folder; a link is never touched; a
    copy that cannot be deleted stays a spare file). The names deleted."""
    removed = set()
    for stored, mode in taken_off:
        if mode != "copy" or not _COPY_NAME.fullmatch(stored) or project.db.execute(
                "SELECT 1 FROM attachments WHERE mode = 'copy' AND path = ?",
                [stored]).fetchone():
            continue
        with contextlib.suppress(OSError):
            (files_folder(project) / stored).unlink()
            removed.add(stored)
    return removed


def attach_op(rows: Iterable[_Row]) -> Op:
    """The op storing each row as its work's only attachment; its value is the (path,
    mode) of the attachments it replaced. An unknown record refuses the whole write in
    one line."""
    rows = list(rows)

    def op(project: Project) -> Done[list[tuple[str, str]]]:
        stamp = now()
        replaced = []
        for row in rows:
            replaced += _take_off(project, _work_of(project, row.record_id))
            project.db.execute("INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?)",
                               [row.record_id, row.path, row.sha256, row.size, row.mode, stamp])
        return Done(Changes(attachments=bool(rows)), replaced)
    return op


def detach_op(record_id: int) -> Op:
    """The op removing record ``record_id``'s work's attachment (the row only; its value
    is the (path, mode) removed); one line, nothing changed, for an unknown record or
    one without a PDF."""
    def op(project: Project) -> Done[tuple[str, str]]:
        taken_off = _take_off(project, _work_of(project, record_id))
        if not taken_off:
            raise LitqError(f"record #{record_id} has no PDF attached")
        return Done(Changes(attachments=True), taken_off[0])
    return op


def detach(project: Project, record_id: int) -> Detached:
    """Detach record ``record_id``'s work's PDF in one write, then delete the project's
    copy of it unless another attachment uses it (a linked file stays where it is)."""
    stored, mode = project.write(detach_op(record_id)).value
    removed = _drop_spare_copies(project, [(stored, mode)])
    return Detached(record_id, _resolved(project, stored, mode), mode, stored in removed)


def _quiet(_line: str) -> None:
    """Where a notice goes when nobody listens."""


def attach_file(project: Project, record_id: int, path: Path, *, copy: bool = True,
                notify: Callable[[str], object] = _quiet) -> Attachment:
    """Attach the PDF at ``path`` to record ``record_id``'s work (module docstring), in
    one write; refused in one line (nothing changed, nothing copied) for a file that
    fails :func:`~.pdf_match.check_pdf` or an unknown record. A copy larger than
    :data:`LARGE_COPY` is announced to ``notify`` (:func:`copy_notice`) before it is
    made."""
    if project.db.execute("SELECT 1 FROM records WHERE id = ?", [record_id]).fetchone() is None:
        raise LitqError(f"no record #{record_id} in the project")
    stored, sha256, size = _stored(project, _checked(path), copy, notify)
    done = project.write(attach_op([_Row(record_id, stored, sha256, size,
                                         "copy" if copy else "link")]))
    _drop_spare_copies(project, done.value)
    found = attachment(project, record_id)
    assert found is not None  # just written
    return found


def attach_matches(project: Project, pairs: Iterable[tuple[int, Path]], *,
                   copy: bool = True, notify: Callable[[str], object] = _quiet) -> int:
    """Attach each (record id, PDF path) pair in one write (the confirmed matches of
    :func:`match_folder`); returns how many. Every PDF is checked first: one that fails
    :func:`~.pdf_match.check_pdf` refuses them all in one line, nothing changed, nothing
    copied; large copies are announced as by :func:`attach_file`."""
    with PdfChild() as child:
        pairs = [(record_id, _checked(path, child)) for record_id, path in pairs]
    mode = "copy" if copy else "link"
    rows = [_Row(record_id, *_stored(project, path, copy, notify), mode)
            for record_id, path in pairs]
    _drop_spare_copies(project, project.write(attach_op(rows)).value)
    return len(rows)
