"""Open, create, lock, migrate and check a ``.litq`` project file.

The file is SQLite in WAL mode with ``synchronous=FULL`` and ``PRAGMA application_id``
= :data:`APPLICATION_ID`. A file opened from anywhere is untrusted, so opening first
checks it through a read-only connection, before anything is changed: that it is an
SQLite database, its application id (0 = a project older than the id, judged by its
tables), its schema version, ``quick_check``, and that its tables, indexes, views and
triggers are exactly those :data:`~litqeval_gui.core.projectfile.schema.MIGRATIONS` create for
that version (a planted trigger or table is refused). ``trusted_schema`` is off on
every connection. Then a writer takes the :class:`ProjectLock` and migrates an older
schema (after a backup copy is written beside it); a newer one is refused. Readers use
the read-only connection (``immutable`` in a folder they cannot write).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar, overload

import sqlite_utils

from litqeval_gui import __version__
from litqeval_gui.core.errors import (
    CorruptProjectError,
    ProjectError,
    ProjectTooNewError,
    database_reason,
    environment_message,
    listing,
)
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.imports import discard_unfinished_imports
from litqeval_gui.core.projectfile.locking import ProjectLock
from litqeval_gui.core.projectfile.schema import MIGRATIONS, SCHEMA_VERSION
from litqeval_gui.core.projectfile.writes import Done, Op, WritePath, durable, immediate

SUFFIX = ".litq"
APPLICATION_ID = 0x4C697451  # "LitQ"
_SQLITE_MAGIC = b"SQLite format 3\x00"
T = TypeVar("T")


def now() -> str:
    """The current UTC time as ISO 8601 text (how times are stored)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def discarded_message(names: list[str]) -> str:
    """What to tell the user about imports a crash left unfinished and opening removed."""
    quoted = ", ".join(f"'{n}'" for n in names)
    if len(names) == 1:
        return (f"The unfinished import {quoted} was removed (the app stopped before it "
                "finished). Import the file again to add it.")
    return (f"The unfinished imports {quoted} were removed (the app stopped before they "
            "finished). Import the files again to add them.")


class Project:
    """An open project file. Use :meth:`create` or :meth:`open`; close when done."""

    def __init__(self, path: Path, db: sqlite_utils.Database, lock: ProjectLock | None,
                 *, readonly: bool = False) -> None:
        self.path = path
        self.db = db
        self._lock = lock
        self._readonly = readonly
        self.discarded: list[str] = []  # unfinished imports removed when it was opened
        self.writes: WritePath | None = None  # set: every write goes through this path

    # -- opening -----------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path) -> Project:
        """Create a new, empty project at ``path`` (refuses to overwrite a file)."""
        path = Path(path)
        if path.exists() or path.is_symlink():
            raise ProjectError(f"{path} already exists; choose another name")
        if not path.parent.is_dir():
            raise ProjectError(f"folder {path.parent} does not exist")
        lock = ProjectLock(path)
        lock.acquire()
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            lock.release()
            raise ProjectError(f"{path} already exists; choose another name") from None
        except OSError as err:
            lock.release()
            raise ProjectError(environment_message(err, f"cannot create {path}")) from None
        db = None
        try:
            db = _connect(path, readonly=False, create=True)
            with db.atomic():
                for migrate in MIGRATIONS:
                    migrate(db)
                db["meta"].insert_all(
                    [{"key": "created", "value": now()},
                     {"key": "app_version", "value": __version__}],
                    replace=True,
                )
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            if db is not None:
                db.close()
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
            lock.release()
            raise
        return cls(path, db, lock)

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False, checked: bool = False) -> Project:
        """Open an existing project: check it read-only, then (writers) lock it and
        migrate an older schema. ``checked`` (read-only): a worker process of one that
        has the project open and checked, so only its identity and version are read
        (the integrity check reads the whole file: seconds at a million records)."""
        path = Path(path)
        if not (path.exists() or path.is_symlink()):
            raise ProjectError(f"{path}: no such project file")
        check_input(path, ProjectError)  # a folder, a FIFO, a device: said as such
        _sniff(path)
        if readonly:
            db = _connect(path, readonly=True)
            try:
                version = _cookie(db)[1] if checked else _check(db, path)[0]
                if checked and version > SCHEMA_VERSION:
                    raise ProjectError(f"{path} changed to a newer format while open")
                if version < SCHEMA_VERSION:
                    raise ProjectError(
                        f"{path} uses an older format (schema {version}); "
                        "open it for writing once to upgrade it")
            except BaseException:
                db.close()
                raise
            return cls(path, db, None, readonly=True)
        checker = _connect(path, readonly=True)
        try:
            version, app_id, cookie = _check(checker, path)
        finally:
            checker.close()
        if not os.access(path, os.W_OK):
            raise ProjectError(f"{path} is read-only (permission denied); "
                               "make it writable to change it")
        lock = ProjectLock(path)
        lock.acquire()
        db = None
        try:
            db = _connect(path, readonly=False)
            if _cookie(db) != cookie:  # changed between the check and the lock
                version, app_id, _ = _check(db, path)
            if version < SCHEMA_VERSION:
                _migrate(db, path, version)
            elif app_id == 0:
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            discarded = discard_unfinished_imports(db)
        except BaseException:
            if db is not None:
                db.close()
            lock.release()
            raise
        project = cls(path, db, lock)
        project.discarded = discarded
        return project

    def sibling(self) -> Project:
        """A second connection to this open project for a background job, to be used
        on the thread that calls this.

        It shares this project's lock (closing it does not release the lock) and its
        write path; thanks to WAL, its reads see only committed data.
        """
        sibling = Project(self.path, _connect(self.path, readonly=self.readonly), None,
                          readonly=self.readonly)
        sibling.writes = self.writes
        return sibling

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if not self.readonly:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.db.close()
        if self._lock:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def readonly(self) -> bool:
        return self._readonly

    # -- small shared helpers ------------------------------------------------------
    @overload
    def write(self, op: Callable[[Project], Changes]) -> Changes: ...

    @overload
    def write(self, op: Callable[[Project], Done[T]]) -> Done[T]: ...

    def write(self, op: Op) -> Changes | Done[Any]:
        """Run the mutation ``op`` in one write transaction and return what it returned
        (its :class:`Changes`, or a :class:`~litqeval_gui.core.projectfile.writes.Done`
        with a value): through :attr:`writes` when set (waiting for it), else on this
        connection."""
        if self.writes is not None:
            return self.writes.run(op)
        with self.transaction(synced=durable(op)):
            return op(self)

    @contextlib.contextmanager
    def transaction(self, synced: bool = True) -> Iterator[sqlite_utils.Database]:
        """One atomic unit of work (``BEGIN IMMEDIATE``): everything inside commits
        together or not at all (``synced``: flushed to disk, see
        :func:`~litqeval_gui.core.projectfile.writes.durable`). Mutations use :meth:`write`."""
        if self.readonly:
            raise ProjectError(f"{self.path} is open read-only")
        with immediate(self.db, synced):
            yield self.db

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def topic_id(self, name: str, *, create: bool = False) -> int:
        """The id of topic ``name``; with ``create`` a missing topic is added."""
        row = self.db.execute("SELECT id FROM topics WHERE name = ?", [name]).fetchone()
        if row:
            return int(row[0])
        if not create:
            known = [r[0] for r in self.db.execute("SELECT name FROM topics ORDER BY name")]
            hint = f"; topics: {listing(known)}" if known else "; the project has no topics yet"
            raise ProjectError(f"no topic named {name!r}{hint}")
        return int(self.db["topics"].insert({"name": name, "created": now()}).last_pk)

    def topic_name(self, topic_id: int) -> str | None:
        """The name of topic ``topic_id``; None when there is no such topic."""
        row = self.db.execute("SELECT name FROM topics WHERE id = ?", [topic_id]).fetchone()
        return row[0] if row else None


def _uri(path: Path, params: dict[str, str]) -> str:
    """An SQLite URI for ``path``: every ``# ? % & = ' "``, space or newline escaped."""
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return f"{path.absolute().as_uri()}?{query}"


def _connect(path: Path, *, readonly: bool, create: bool = False) -> sqlite_utils.Database:
    params = {"mode": "ro" if readonly else "rwc" if create else "rw"}
    wal = Path(f"{path}-wal")
    if readonly and not os.access(path.parent, os.W_OK) and not (
            wal.exists() and wal.stat().st_size):
        params["immutable"] = "1"  # no -shm can be made here, and nobody else writes
    conn = None
    try:
        conn = sqlite3.connect(_uri(path, params), uri=True, isolation_level=None)  # one thread: its creator
        conn.execute("PRAGMA trusted_schema = OFF")
        conn.execute("PRAGMA busy_timeout = 5000")
        if not readonly:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        raise _unusable(path, exc) from None
    return sqlite_utils.Database(conn)


def _unusable(path: Path, exc: Exception) -> ProjectError:
    """The error for a file SQLite could not read: the environment (disk, permissions)
    or the file itself."""
    reason = database_reason(exc, path) if isinstance(exc, sqlite3.OperationalError) else None
    if reason:
        return ProjectError(f"{path} cannot be used: {reason} ({exc})")
    if _is_ours(path):
        return _damaged(path, str(exc))
    return CorruptProjectError(f"{path} is not a LitQEval project ({exc})")


def _is_ours(path: Path) -> bool:
    """Whether the file's SQLite header carries LitQEval's application id (bytes 68-71),
    read without SQLite: a project too damaged for SQLite to open still has it."""
    try:
        with path.open("rb") as handle:
            head = handle.read(72)
    except OSError:
        return False
    return head.startswith(_SQLITE_MAGIC) and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def _damaged(path: Path, detail: str) -> CorruptProjectError:
    """The error for a LitQEval project whose content is damaged, saying what to do."""
    backups = sorted(p.name for p in path.parent.glob(f"{path.name}*.bak"))
    backup = (f"open its backup ({', '.join(backups)})" if backups
              else "open a backup copy of it if you have one")
    recovered = path.with_name(f"{path.stem}-recovered{path.suffix}").name
    return CorruptProjectError(
        f"{path} is a damaged LitQEval project ({detail}). Nothing was changed. To go on, "
        f"{backup}, or let SQLite recover what it can and open the result: "
        f"sqlite3 {path.name} .recover | sqlite3 {recovered}")


def _sniff(path: Path) -> None:
    """Refuse, without SQLite, a file that is not an SQLite database at all."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except OSError as err:
        raise ProjectError(environment_message(err, f"cannot read {path}")) from None
    if not head:
        raise CorruptProjectError(f"{path} is an empty file, not a LitQEval project")
    if head != _SQLITE_MAGIC:
        raise CorruptProjectError(f"{path} is not a LitQEval project (not an SQLite database)")


def _cookie(db: sqlite_utils.Database) -> tuple[int, int, int]:
    """(schema cookie, user_version, application_id): changes when the schema does."""
    return tuple(int(db.execute(f"PRAGMA {name}").fetchone()[0])
                 for name in ("schema_version", "user_version", "application_id"))


def _check(db: sqlite_utils.Database, path: Path) -> tuple[int, int, tuple[int, int, int]]:
    """Identity, version, integrity and schema checks (reads only);
    returns (schema version, application id, :func:`_cookie`)."""
    try:
        cookie = _cookie(db)
        _, version, app_id = cookie
        if app_id not in (0, APPLICATION_ID):
            raise CorruptProjectError(f"{path} is a database of another program "
                                      f"(application id {app_id:#x}), not a LitQEval project")
        tables = set(db.table_names())
        if "meta" not in tables or version == 0:
            raise CorruptProjectError(f"{path} is an SQLite file but not a LitQEval project")
        if version < 0:
            raise CorruptProjectError(f"{path} has an invalid schema version ({version})")
        if version > SCHEMA_VERSION:
            row = db.execute("SELECT value FROM meta WHERE key = 'app_version'").fetchone()
            written_by = row[0][:40] if row and isinstance(row[0], str) else __version__
            by = "" if written_by == __version__ else f", written by a newer version ({written_by})"
            raise ProjectTooNewError(
                f"this project has schema {version}{by}; this LitQEval GUI {__version__} "
                f"reads schema ≤ {SCHEMA_VERSION} — please update")
        result = db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise _damaged(path, f"integrity check: {result[:200]}")
        problems = _schema_differences(schema_of(db.conn), expected_schema(version))
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise _unusable(path, exc) from None
    if problems:
        raise CorruptProjectError(f"{path} is not a LitQEval project as this version writes "
                                  f"it: {listing(problems, 5)}")
    return version, app_id, cookie


Schema = dict[tuple[str, str], tuple]


def schema_of(conn: sqlite3.Connection) -> Schema:
    """Every table, index, view and trigger of ``conn`` as (type, name) → a comparable
    description: columns with types, defaults, keys and foreign keys; index columns
    and uniqueness; the whitespace-normalised SQL of views and triggers."""
    found: Schema = {}
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                        "WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").fetchall()
    for kind, name, table, sql in rows:
        if kind == "table" and sql and sql.lstrip().upper().startswith("CREATE TABLE"):
            detail = (sorted(conn.execute("SELECT name, type, \"notnull\", dflt_value, pk, "
                                          "hidden FROM pragma_table_xinfo(?)", [name])),
                      sorted(conn.execute('SELECT "table", "from", "to", on_update, on_delete '
                                          "FROM pragma_foreign_key_list(?)", [name]),
                             key=repr))
        elif kind == "index":
            unique, partial = conn.execute(
                'SELECT "unique", partial FROM pragma_index_list(?) WHERE name = ?',
                [table, name]).fetchone()
            detail = (table, unique, partial, list(conn.execute(
                "SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key",
                [name])))
        else:  # views, triggers and anything else: their SQL must be exactly ours
            detail = (table, " ".join((sql or "").split()))
        found[(kind, name)] = detail
    return found


@functools.cache
def expected_schema(version: int) -> Schema:
    """The schema :data:`MIGRATIONS` 1…``version`` build, on an in-memory database."""
    db = sqlite_utils.Database(memory=True)
    for migrate in MIGRATIONS[:version]:
        migrate(db)
    try:
        return schema_of(db.conn)
    finally:
        db.close()


def _schema_differences(found: Schema, expected: Schema) -> list[str]:
    problems = [f"unknown {kind} {name!r}" for kind, name in sorted(found.keys() - expected)]
    problems += [f"missing {kind} {name!r}" for kind, name in sorted(expected.keys() - found)]
    problems += [f"{kind} {name!r} has been changed" for kind, name in sorted(found)
                 if (kind, name) in expected and found[(kind, name)] != expected[(kind, name)]]
    return problems


def _migrate(db: sqlite_utils.Database, path: Path, version: int) -> None:
    """Back the file up beside itself (``NAME.vN.bak``, or ``NAME.vN.2.bak`` … when
    taken), then apply migrations version+1… in one transaction."""
    backup = _new_file(path.with_name(f"{path.name}.v{version}.bak"))
    try:
        target = sqlite3.connect(_uri(backup, {"mode": "rw"}), uri=True)
        try:
            db.conn.backup(target)
        finally:
            target.close()
    except BaseException:
        backup.unlink(missing_ok=True)
        raise
    with db.atomic():
        for migrate in MIGRATIONS[version:]:
            migrate(db)
        db["meta"].insert_all(
            [{"key": "app_version", "value": __version__},
             {"key": f"migrated_from_{version}", "value": now()}],
            replace=True,
        )
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _new_file(wanted: Path) -> Path:
    """Create an empty file at ``wanted`` or, when that name is taken, ``STEM.2.SUFFIX`` …"""
    for number in range(1, 1000):
        candidate = wanted if number == 1 else wanted.with_suffix(f".{number}{wanted.suffix}")
        try:
            os.close(os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        except OSError as err:
            raise ProjectError(environment_message(err, f"cannot write the backup "
                                                        f"{candidate}")) from None
        return candidate
    raise ProjectError(f"cannot write a backup beside {wanted}: too many old backups")
