"""Open, create, lock, migrate and check a ``.litq`` project file.

The file is SQLite in WAL mode with ``synchronous=FULL``. Opening checks, in order:
that the file is an SQLite database, that ``quick_check`` passes, that it is a
LitQEval project, and its schema version (older → migrated after a backup copy is
written beside it; newer → refused). Writers take a :class:`ProjectLock`.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path

import sqlite_utils

from litqeval_gui import __version__
from litqeval_gui.core.changes import Changes
from litqeval_gui.core.errors import CorruptProjectError, ProjectError, ProjectTooNewError
from litqeval_gui.core.imports import discard_unfinished_imports
from litqeval_gui.core.locking import ProjectLock
from litqeval_gui.core.schema import MIGRATIONS, SCHEMA_VERSION
from litqeval_gui.core.writes import WritePath, immediate

SUFFIX = ".litq"


def now() -> str:
    """The current UTC time as ISO 8601 text (how times are stored)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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
        if path.exists():
            raise ProjectError(f"{path} already exists; choose another name")
        if not path.parent.is_dir():
            raise ProjectError(f"folder {path.parent} does not exist")
        lock = ProjectLock(path)
        lock.acquire()
        db = None
        try:
            db = _connect(path, readonly=False)
            with db.atomic():
                for migrate in MIGRATIONS:
                    migrate(db)
                db["meta"].insert_all(
                    [{"key": "created", "value": now()},
                     {"key": "app_version", "value": __version__}],
                    replace=True,
                )
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            if db is not None:
                db.close()
            lock.release()
            raise
        return cls(path, db, lock)

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False) -> Project:
        """Open an existing project; writers lock it and migrate an older schema."""
        path = Path(path)
        if not path.is_file():
            raise ProjectError(f"{path}: no such project file")
        lock = None if readonly else ProjectLock(path)
        if lock:
            lock.acquire()
        db = None
        try:
            db = _connect(path, readonly=readonly)
            version = _check(db, path)
            if version < SCHEMA_VERSION:
                if readonly:
                    raise ProjectError(
                        f"{path} uses an older format (schema {version}); "
                        "open it for writing once to upgrade it"
                    )
                _migrate(db, path, version)
            discarded = [] if readonly else discard_unfinished_imports(db)
        except BaseException:
            if db is not None:
                db.close()
            if lock:
                lock.release()
            raise
        project = cls(path, db, lock, readonly=readonly)
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
    def write(self, op: Callable[[Project], Changes]) -> Changes:
        """Run the mutation ``op`` in one write transaction and return what it changed:
        through :attr:`writes` when set (waiting for it), else on this connection."""
        if self.writes is not None:
            return self.writes.run(op)
        with self.transaction():
            return op(self)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite_utils.Database]:
        """One atomic unit of work (``BEGIN IMMEDIATE``): everything inside commits
        together or not at all. Mutations use :meth:`write`."""
        if self.readonly:
            raise ProjectError(f"{self.path} is open read-only")
        with immediate(self.db):
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
            hint = f"; topics: {', '.join(known)}" if known else "; the project has no topics yet"
            raise ProjectError(f"no topic named {name!r}{hint}")
        return int(self.db["topics"].insert({"name": name, "created": now()}).last_pk)


def _connect(path: Path, *, readonly: bool) -> sqlite_utils.Database:
    uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)  # one thread: its creator
        conn.execute("PRAGMA busy_timeout = 5000")
        if not readonly:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise CorruptProjectError(f"{path} is not a LitQEval project ({exc})") from None
    return sqlite_utils.Database(conn)


def _check(db: sqlite_utils.Database, path: Path) -> int:
    """Integrity and identity checks; returns the schema version."""
    try:
        result = db.execute("PRAGMA quick_check").fetchone()[0]
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = set(db.table_names())
    except sqlite3.DatabaseError as exc:
        raise CorruptProjectError(f"{path} is not a LitQEval project ({exc})") from None
    if result != "ok":
        raise CorruptProjectError(f"{path} is damaged (integrity check: {result})")
    if version == 0 or "meta" not in tables:
        raise CorruptProjectError(f"{path} is an SQLite file but not a LitQEval project")
    if version > SCHEMA_VERSION:
        row = db.execute("SELECT value FROM meta WHERE key = 'app_version'").fetchone()
        written_by = row[0] if row else f"schema {version}"
        raise ProjectTooNewError(
            f"this project was written by a newer version ({written_by}); "
            f"this is LitQEval GUI {__version__} — please update"
        )
    return version


def _migrate(db: sqlite_utils.Database, path: Path, version: int) -> None:
    """Back the file up beside itself, then apply migrations version+1… in one transaction."""
    backup = path.with_name(f"{path.name}.v{version}.bak")
    target = sqlite3.connect(backup)
    try:
        db.conn.backup(target)
    finally:
        target.close()
    with db.atomic():
        for migrate in MIGRATIONS[version:]:
            migrate(db)
        db["meta"].insert_all(
            [{"key": "app_version", "value": __version__},
             {"key": f"migrated_from_{version}", "value": now()}],
            replace=True,
        )
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
