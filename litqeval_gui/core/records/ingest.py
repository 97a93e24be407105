"""Import one file into a project: parse → store, then link → group.

:func:`import_file` is a generator job (see :mod:`litqeval_gui.core.jobs`) and an
import is all or nothing. Bad input is found while parsing, before anything is
written. Every write is a short op on the project's write path
(:mod:`litqeval_gui.core.projectfile.writes`): the import is created ``pending`` (invisible to
every read), its records and then its links are written in chunks of
:data:`~litqeval_gui.core.projectfile.writes.CHUNK_ROWS`, and a last op groups the works and marks
it ``done`` — so a decision made meanwhile waits for one chunk, not for the import.
If anything fails, is cancelled or the job is closed, the pending import is deleted;
if the process dies in between, :meth:`Project.open` deletes it on the next open.
Either way the project ends exactly as it was.

Counts of an import: ``read`` = entries read (accepted + rejected); ``rejected`` =
entries refused with a reason; ``new`` = works of this import that the topic did not
have before; ``duplicate`` = accepted entries that are not new works (a duplicate
inside the file or a record the topic already had), split into ``in_file`` (entries
of a work another entry of the same file already holds) and ``known`` (works of the
file the topic already had), so ``new + in_file + known = read - rejected``;
``matched`` = for a result list,
the core works it contains; for a core import, its works found in some result list.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from litqeval_gui.core.errors import ImportCancelled, ImportRefused, JobCancelled
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, gc_paused, scaled
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.projectfile.changes import IMPORTED, NOTHING, Changes
from litqeval_gui.core.projectfile.imports import delete_import
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.writes import write_rows
from litqeval_gui.core.records import collection, works
from litqeval_gui.core.records.importing.parallel import read_rows
from litqeval_gui.core.records.links_apart import import_links
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.records.rows import RowWriter

ROLES = ("core", "results", "other", collection.ROLE)


@dataclass
class ImportSummary:
    """What an import did, as shown to the user and stored with the import."""

    import_id: int
    topic: str
    name: str
    role: str
    format: str
    encoding: str
    database: str
    read: int
    new: int
    duplicate: int
    matched: int
    rejected: int
    uncertain: int
    in_file: int = 0  # duplicates inside the file
    known: int = 0  # works of the file the topic already had
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line per rejected record

    def as_dict(self) -> dict:
        return asdict(self)

    def report(self) -> str:
        """Plain-text report (the wizard's "save report")."""
        lines = [
            f"Import '{self.name}' into topic '{self.topic}' as {self.role}",
            f"format {self.format} ({self.encoding}), database {self.database or 'unknown'}",
            f"read {self.read}, new {self.new}, duplicates merged {self.duplicate} "
            f"({self.in_file} within the file, {self.known} already in the topic), "
            f"{'records given a text' if self.role == 'collection' else 'matched to core'} "
            f"{self.matched}, rejected {self.rejected}, "
            f"uncertain matches {self.uncertain}",
        ]
        lines += [f"note: {n}" for n in self.notes]
        lines += [f"rejected: {p}" for p in self.problems]
        return "\n".join(lines) + "\n"


def file_digest(path: Path) -> tuple[str, int]:
    """(sha256 hex, size in bytes) of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def import_file(
    project: Project, path: str | Path, *, topic: str, role: str, name: str | None = None,
    query: str = "", database: str | None = None, fmt: str = "auto",
    mapping: dict[str, str] | None = None, where: dict[str, str] | None = None,
    pubmed_ids: bool = False, token: CancelToken = NEVER,
) -> Generator[Progress, None, ImportSummary]:
    """Import ``path`` as list ``name`` (default: the file name; on one line,
    :func:`~litqeval_gui.core.records.lists.plain_name`) of ``topic``. A ``collection``
    keeps only the documents the topic's records name (:mod:`~litqeval_gui.core.records.
    collection`; ``pubmed_ids``: its numeric docids are PMIDs)."""
    path = Path(path)
    if role not in ROLES:
        raise ImportRefused(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    check_input(path, ImportRefused)
    name = plain_name(name or path.stem)  # a file name may hold a newline
    if not name:
        raise ImportRefused(f"{path}: the list needs a name (--name); its file name gives none")
    sha256, size = file_digest(path)
    created: list[int] = []
    texts: list[collection.CollectionFilter] = []

    def begin(p: Project) -> Changes:
        topic_id = p.topic_id(topic, create=True)
        _refuse_clashes(p, topic_id, topic, name, role, sha256)
        if role == collection.ROLE:
            texts.append(collection.CollectionFilter(p.db, topic_id, pubmed_ids=pubmed_ids))
            if not texts[0].docids and not texts[0].pmids:
                raise ImportRefused(f"topic {topic!r} has no records to give texts to; import "
                                    "its runs or qrels first, then their document collection")
        created[:] = [topic_id, int(p.db["imports"].insert({
            "topic_id": topic_id, "name": name, "role": role, "file_name": path.name,
            "sha256": sha256, "size": size, "query": query, "created": now(),
            "state": "pending",
        }).last_pk)]
        return NOTHING

    def store(rows: list[tuple], rank_offset: int) -> None:
        if texts:
            rows = texts[0](rows)
        write_rows(project, rows, lambda p, some: writer.write(p.db, some, rank_offset))

    try:  # from the moment the pending import exists, whatever stops it removes it
        project.write(begin)
        topic_id, import_id = created
        writer = RowWriter(topic_id, import_id)
        with gc_paused():  # bulk allocations: see jobs.gc_paused
            parsed = yield from scaled(
                read_rows(path, store, fmt=fmt, mapping=mapping, where=where, topic=topic,
                          token=token),
                0, 50,
            )
            database = database or parsed.database
            if texts and not writer.count:
                raise ImportRefused(f"{path}: none of its {texts[0].left_out} document(s) is "
                                    "named by "
                                    f"a record of topic {topic!r} (by docid or PMID)")
            if texts and texts[0].left_out:
                parsed.notes.append(texts[0].note())
            project.write(lambda p: _nothing(p.db["imports"].update(import_id, {
                "format": parsed.format, "encoding": parsed.encoding, "database": database})))
            yield Progress(55, 100, "linking")
            summary = yield from _link(project, ImportSummary(
                import_id=import_id, topic=topic, name=name, role=role, format=parsed.format,
                encoding=parsed.encoding, database=database, read=writer.count + len(parsed.rejected),
                new=0, duplicate=0, matched=0, rejected=len(parsed.rejected), uncertain=0,
                notes=list(parsed.notes), problems=[r.describe(parsed.path) for r in parsed.rejected],
            ), topic_id, token, writer.kept)
    except BaseException as exc:
        if created:  # ``begin`` committed (an interrupt may come before the next line)
            project.write(lambda p: delete_import(p.db, created[1]))
        if isinstance(exc, JobCancelled) and not isinstance(exc, ImportCancelled):
            raise ImportCancelled() from exc  # says what was cancelled
        raise
    yield Progress(100, 100, "done")
    return summary


def _nothing(_result: object) -> Changes:
    """What writing a pending import's rows changes for every reader: nothing."""
    return NOTHING


def _refuse_clashes(project: Project, topic_id: int, topic: str, name: str, role: str,
                    sha256: str) -> None:
    db = project.db
    if db.execute("SELECT 1 FROM imports WHERE topic_id = ? AND name = ?",
                  [topic_id, name]).fetchone():
        raise ImportRefused(f"topic {topic!r} already has a list named {name!r}; "
                            "choose another name (--name)")
    same = db.execute("SELECT name FROM imports WHERE topic_id = ? AND sha256 = ? AND role = ?",
                      [topic_id, sha256, role]).fetchone()
    if same:
        raise ImportRefused(f"this file was already imported into topic {topic!r} "
                            f"as {role} list {same[0]!r}")


def _link(project: Project, summary: ImportSummary, topic_id: int, token: CancelToken,
          kept: list[tuple]) -> Generator[Progress, None, ImportSummary]:
    """Link the import into its topic (the links found on a read, in a child process for
    a large topic: :mod:`~litqeval_gui.core.records.links_apart`; written in chunks); the
    works are grouped on a read here too and one short op writes them and marks the import
    done (or regroups in full if records, works or verdicts were written since: a
    screening decision or a parameter is not). Returns ``summary`` with
    the counts that linking decides filled in (the import's report). ``kept``: what the
    import's :class:`~litqeval_gui.core.records.rows.RowWriter` kept for linking (used up
    here: the linker's items, not read back)."""
    import_id = summary.import_id
    db = project.db
    rows, uncertain = yield from scaled(import_links(project, topic_id, import_id, token, kept),
                                        55, 90)
    write_rows(project, rows, lambda p, some: _store_links(p.db, some))
    yield Progress(92, 100, "grouping duplicates")
    generation = project.writes.works_generation if project.writes is not None else None
    planned = works.plan_regroup(db, topic_id, pending_import=import_id)  # read here
    mine = {r for (r,) in db.execute("SELECT id FROM records WHERE import_id = ?",
                                     [import_id])} if planned else set()  # nothing to split
    pending = [pair for pair in planned if pair[1] in mine]  # invisible: written in chunks
    live = [pair for pair in planned if pair[1] not in mine]
    token.raise_if_cancelled()
    write_rows(project, pending, lambda p, some: works.apply_regroup(p.db, some))

    def finish(p: Project) -> Changes:
        p.db["imports"].update(import_id, {"state": "done"})
        if generation is None or project.writes.works_generation == generation:
            works.apply_regroup(p.db, live)
        else:  # records, works or verdicts were written since the plan was read: regroup
            works.regroup(p.db, topic_id)
        return IMPORTED

    project.write(finish)
    _count_works(db, summary, topic_id, uncertain)  # the import's own report, read here
    project.write(lambda p: _nothing(p.db["imports"].update(import_id, {
        "n_read": summary.read, "n_new": summary.new, "n_duplicate": summary.duplicate,
        "n_matched": summary.matched, "n_rejected": summary.rejected,
        "report": json.dumps({"notes": summary.notes, "rejected": summary.problems}),
    })))
    return summary


def _store_links(db, rows: Iterable[tuple]) -> None:
    db.conn.executemany(
        "INSERT OR IGNORE INTO links (topic_id, a, b, method, score, status, created, fp_a, fp_b, "
        "decided_at) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)


def _count_works(db, summary: ImportSummary, topic_id: int, uncertain: int) -> None:
    """Fill in new / duplicate / matched / uncertain (the ``uncertain`` matches found) once
    the import's works are known."""
    mine = [w for (w,) in db.execute("SELECT work_id FROM records WHERE import_id = ?",
                                     [summary.import_id])]
    listed = set(mine)
    old_works = {w for (w,) in db.execute(
        "SELECT DISTINCT work_id FROM live_records WHERE topic_id = ? AND import_id != ?",
        [topic_id, summary.import_id])}
    summary.new = len(listed - old_works)
    summary.duplicate = len(mine) - summary.new
    summary.in_file = len(mine) - len(listed)
    summary.known = len(listed & old_works)
    if summary.role == "results":
        summary.matched = len(listed & works.core_works(db, topic_id))
    elif summary.role == "core":
        summary.matched = len(listed & works.results_works(db, topic_id))
    elif summary.role == collection.ROLE:  # the works given a text
        summary.matched = len(listed & old_works)
    summary.uncertain = uncertain
