"""Tables, indexes and numbered migrations of the ``.litq`` project file.

``PRAGMA user_version`` holds the schema version: the number of migrations applied.
Migration *n* (1-based) turns a version ``n-1`` file into a version ``n`` file; a new
project runs them all. Later issues append migrations; never edit a released one.

Version history:

1. topics, imports (one per imported file = one list), records (one row per
   imported entry, ``work_id`` = its de-duplicated work), links, meta.
2. link fingerprints (``fp_a``, ``fp_b``) so the user's match verdicts survive
   re-imports, and ``decided_at``; an index on records(topic_id, work_id);
   ``imports.state``: ``pending`` while an import is stored but not yet linked,
   ``done`` after (imports of version 1 files are done).
3. drop the indexes on records(doi) and records(pmid): linking reads identifiers
   per topic and no query looks a record up by them, so they only slowed imports.

Then, named by what they do:

- ``_bibliographic_fields``: records get volume, issue, pages, publisher, issn and url
  (empty for records imported before).
- ``_live_views``: ``live_imports`` (imports that finished) and ``live_records``
  (their records): the one place the rule "a pending import is invisible" lives;
  every read of lists or records goes through them.
- ``_cascade_deletes``: deleting an import deletes its records, deleting a record
  its links (``ON DELETE CASCADE``; new child tables declare it when created), and
  an index on links(b) so the cascade does not scan the links.
- ``_parameters``: per-project parameters, ``key`` → JSON ``value``
  (see :mod:`litqeval_gui.core.projectfile.parameters`).
- ``_screenings``: screenings (per topic: the screened set, phase, label scheme,
  exclusion reasons), their items (one representative record per work), the decision
  event log ``screening_events`` (append-only; undo and redo are events), the views
  ``screening_effective`` and ``screening_current`` deriving the current decisions, and
  the latest model ranking per screening (see :mod:`litqeval_gui.core.screening`).
- ``_evaluation_store``: what query evaluation computes once and keeps
  (:mod:`litqeval_gui.core.evaluation`): ``embedding_sets`` (one per topic, backend and
  its parameters; ``state`` pending until every record has a row), ``vectors`` (one row
  per record and set: float32 bytes with dtype and shape, NULL when the record has no
  vector), ``maps`` (a topic's 2D map of one set with its fidelity and the records it
  was fitted on) and ``evaluation_results`` (per list and method, the outcome and the
  key of the inputs and parameters it came from). All cascade from their parents.
- ``_pools``: incremental variable-depth pools (:mod:`litqeval_gui.core.pooling`):
  ``pools`` (per topic: its screening, stop parameters, qrels lists and the depth
  released so far) and ``pool_runs`` (each run's record ids in rank order, int64 bytes,
  fixed when the pool is created).
- ``_event_records_cascade``: a record's screening events are deleted with it.
- ``_team_screening``: screenings get a stable ``uuid`` (the identity a decisions file
  names, kept by copies of the file; a trigger gives new screenings a random one, those
  already stored one derived from the project's and the screening's creation stamps and
  names, so copies made before the migration still agree) and ``blind`` (0/1); the
  event log also takes ``resolve`` events (a third decision settling a conflict) and
  ``target_key`` (an undo/redo brought in by a merge whose target is not yet there:
  ``reviewer`` and ``at`` of the target, resolved once it arrives);
  ``screening_unblinds`` records who unblinded a blind screening and when.
- ``_screening_rounds`` (issue 28 §3, §4): ``screening_items.round`` (1 for the items a
  screening was created with; a search update added to a running screening is the next
  round, :mod:`litqeval_gui.core.screening.stopping.updates`), ``screening_rounds`` (per round
  after the first: the list that brought it, when, by whom and what it added) and
  ``screening_random_phases`` (per round: the random-sampling phase of the stopping
  test, begun after event ``after_event`` of the screening, its records served in the
  order fixed by ``seed``).
- ``_fulltext`` (issue 26 §1): ``screenings.parent_id`` (a full-text screening's
  title/abstract screening; NULL otherwise, and when the parent is deleted) and
  ``attachments`` (a record's full text: the file's path as stored — a link's path, or a
  copy's name in the project's ``.litq.files`` folder — its sha256 and size, ``mode``
  copy or link, when it was added; one per record, going with it).
- ``_round_finishes``: ``screening_finishes``, a title/abstract round the reviewer
  declared finished (:mod:`litqeval_gui.core.screening.stopping.finishing`): who, when, the
  stopping rule read then, its verdict, evidence (JSON) and recall estimate, and the
  round's items, screened and relevant records at that moment.
- ``_query_versions``: ``query_versions``, every text a list's query has had (version
  1 the one it was imported with; queries stored before get theirs as version 1);
  triggers add a version whenever ``imports.query`` is set or changed, so no path that
  writes a query can skip it (:mod:`litqeval_gui.core.query.versions`).
- ``_term_counts``: ``term_counts``, hashed word and pair counts of records of one
  import, a block of them per row (their ids ``<i8``, their numbers of terms ``<i4``,
  then every term's column ``<i4`` and count ``<u2``, as bytes; going with the import):
  the features of large screenings
  (:mod:`litqeval_gui.core.screening.ranking.term_counts`); a later change of the
  hashing clears the table in a migration of its own.

Every child table cascades from its parents (``ON DELETE CASCADE``): deleting a list
(:func:`~litqeval_gui.core.projectfile.imports.delete_import`) or a topic takes everything below it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import sqlite_utils


def _v1(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["topics"].create({"id": int, "name": str, "created": str}, pk="id")
    db["topics"].create_index(["name"], unique=True)
    db["imports"].create(
        {
            "id": int, "topic_id": int, "name": str, "role": str,
            "file_name": str, "sha256": str, "size": int,
            "format": str, "encoding": str, "database": str, "query": str, "created": str,
            "n_read": int, "n_new": int, "n_duplicate": int, "n_matched": int, "n_rejected": int,
            "report": str,  # JSON: {"notes": [...], "rejected": [...]}
        },
        pk="id",
        foreign_keys=[("topic_id", "topics", "id")],
        not_null={"topic_id", "name", "role"},
    )
    db["imports"].create_index(["topic_id", "name"], unique=True)
    db["records"].create(
        {
            "id": int, "topic_id": int, "import_id": int, "rank": int, "score": float,
            "work_id": int,
            "title": str, "title_norm": str, "abstract": str, "authors": str,  # JSON list
            "year": int, "venue": str, "keywords": str,  # JSON list
            "type": str, "language": str, "doi": str, "pmid": str,
            "ids": str,  # JSON {kind: value}
            "raw": str,  # JSON of the original fields
            "source_line": int,
        },
        pk="id",
        foreign_keys=[("topic_id", "topics", "id"), ("import_id", "imports", "id")],
    )
    db["records"].create_index(["import_id", "rank"])
    db["records"].create_index(["doi"])
    db["records"].create_index(["pmid"])
    db["links"].create(
        {
            "id": int, "topic_id": int, "a": int, "b": int, "method": str, "score": float,
            "status": str,  # auto | uncertain | confirmed | rejected
            "created": str,
        },
        pk="id",
        foreign_keys=[("a", "records", "id"), ("b", "records", "id")],
    )
    db["links"].create_index(["a", "b"], unique=True)
    db["links"].create_index(["topic_id", "status"])


def _v2(db: sqlite_utils.Database) -> None:
    db["links"].add_column("fp_a", str)
    db["links"].add_column("fp_b", str)
    db["links"].add_column("decided_at", str)
    db["imports"].add_column("state", str, not_null_default="done")
    db["records"].create_index(["topic_id", "work_id"])


def _v3(db: sqlite_utils.Database) -> None:
    db.execute("DROP INDEX IF EXISTS idx_records_doi")
    db.execute("DROP INDEX IF EXISTS idx_records_pmid")


def _bibliographic_fields(db: sqlite_utils.Database) -> None:
    for name in ("volume", "issue", "pages", "publisher", "issn", "url"):
        db["records"].add_column(name, str)


def _live_views(db: sqlite_utils.Database) -> None:
    db.execute("CREATE VIEW live_imports AS SELECT * FROM imports WHERE state = 'done'")
    db.execute("CREATE VIEW live_records AS SELECT r.* FROM records r "
               "JOIN imports i ON i.id = r.import_id WHERE i.state = 'done'")


_CASCADES = (("records", "imports"), ("links", "records"))  # child, parent


def _cascade_deletes(db: sqlite_utils.Database) -> None:
    """Add ``ON DELETE CASCADE`` to the foreign keys of records and links (edited in
    place: :func:`_edit_table_definitions`)."""
    edits = []
    for child, parent in _CASCADES:
        pattern = rf'(REFERENCES\s*["\[`]?{parent}["\]`]?\s*\(\s*["\[`]?id["\]`]?\s*\))'
        edits.append((child, pattern, r"\1 ON DELETE CASCADE"))
    _edit_table_definitions(db, edits)
    db["links"].create_index(["b"])


def _edit_table_definitions(db: sqlite_utils.Database,
                            edits: list[tuple[str, str, str]]) -> None:
    """For each ``(table, pattern, replacement)``, rewrite the table's ``CREATE TABLE``
    text with :func:`re.subn` (the pattern must match). Only for changes that do not alter
    how rows are stored, such as a foreign key action: SQLite's documented
    ``writable_schema`` procedure, instead of copying every row into a new table."""
    db.execute("PRAGMA writable_schema = ON")
    try:
        for table, pattern, replacement in edits:
            sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                             [table]).fetchone()[0]
            edited, found = re.subn(pattern, replacement, sql)
            assert found, f"{table}: {pattern!r} not in its definition"
            db.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                       [edited, table])
        version = db.execute("PRAGMA schema_version").fetchone()[0]
        db.execute(f"PRAGMA schema_version = {version + 1}")  # connections re-read the schema
    finally:
        db.execute("PRAGMA writable_schema = OFF")


def _parameters(db: sqlite_utils.Database) -> None:
    db["parameters"].create({"key": str, "value": str}, pk="key")


def _screenings(db: sqlite_utils.Database) -> None:
    db.execute("""CREATE TABLE screenings (
        id INTEGER PRIMARY KEY,
        topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
        name TEXT NOT NULL, phase TEXT NOT NULL, scheme TEXT NOT NULL,
        source TEXT NOT NULL, reasons TEXT NOT NULL, created TEXT NOT NULL,
        UNIQUE (topic_id, name))""")
    db.execute("""CREATE TABLE screening_items (
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        PRIMARY KEY (screening_id, record_id))""")
    db.execute("CREATE INDEX idx_screening_items_record ON screening_items (record_id)")
    db.execute("""CREATE TABLE screening_events (
        id INTEGER PRIMARY KEY,
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        record_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('decide', 'undo', 'redo')),
        target INTEGER REFERENCES screening_events(id),
        label TEXT, reason TEXT, note TEXT, tags TEXT,
        reviewer TEXT NOT NULL, at TEXT NOT NULL, phase TEXT NOT NULL,
        ordering TEXT, position INTEGER, model TEXT)""")
    db.execute("CREATE INDEX idx_screening_events_record "
               "ON screening_events (screening_id, record_id)")
    db.execute("CREATE INDEX idx_screening_events_target ON screening_events (target)")
    db.execute("""CREATE VIEW screening_effective AS SELECT e.* FROM screening_events e
        WHERE e.kind = 'decide' AND (SELECT COUNT(*) FROM screening_events u
            WHERE u.target = e.id AND u.kind = 'undo') = (SELECT COUNT(*)
            FROM screening_events r WHERE r.target = e.id AND r.kind = 'redo')""")
    db.execute("""CREATE VIEW screening_current AS SELECT e.* FROM screening_effective e
        WHERE e.id = (SELECT MAX(x.id) FROM screening_effective x
            WHERE x.screening_id = e.screening_id AND x.record_id = e.record_id)""")
    db.execute("""CREATE TABLE screening_rankings (
        screening_id INTEGER PRIMARY KEY REFERENCES screenings(id) ON DELETE CASCADE,
        model TEXT NOT NULL, created TEXT NOT NULL, labels INTEGER NOT NULL,
        records BLOB NOT NULL, scores BLOB NOT NULL, details TEXT NOT NULL)""")


_EVALUATION_TABLES = (
    """CREATE TABLE embedding_sets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: results are keyed by it
        topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
        backend TEXT NOT NULL, model TEXT NOT NULL, version TEXT NOT NULL,
        params TEXT NOT NULL,  -- JSON
        corpus TEXT NOT NULL,  -- fingerprint of the records a corpus-fitted backend saw
        state TEXT NOT NULL,   -- pending | done
        dim INTEGER, notes TEXT, created TEXT)""",
    "CREATE INDEX idx_embedding_sets_topic ON embedding_sets(topic_id, backend)",
    """CREATE TABLE vectors (
        set_id INTEGER NOT NULL REFERENCES embedding_sets(id) ON DELETE CASCADE,
        record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
        dtype TEXT NOT NULL, shape TEXT NOT NULL,  -- numpy dtype string, JSON list
        data BLOB,  -- NULL: the record has no vector (no text, no match)
        PRIMARY KEY (set_id, record_id))""",
    "CREATE INDEX idx_vectors_record ON vectors(record_id)",
    """CREATE TABLE maps (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: results are keyed by it
        topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
        set_id INTEGER NOT NULL REFERENCES embedding_sets(id) ON DELETE CASCADE,
        method TEXT NOT NULL, params TEXT NOT NULL, corpus TEXT NOT NULL,
        fidelity REAL, note TEXT,
        record_ids BLOB NOT NULL, coords BLOB NOT NULL, dtype TEXT NOT NULL,
        shape TEXT NOT NULL, created TEXT)""",
    "CREATE INDEX idx_maps_topic ON maps(topic_id, set_id, method)",
    """CREATE TABLE evaluation_results (
        list_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        method TEXT NOT NULL,
        key TEXT NOT NULL,      -- digest of the inputs and parameters it depends on
        outcome TEXT NOT NULL,  -- JSON
        relevant BLOB,          -- numpy.packbits of the relevant mask over the list's rows
        created TEXT,
        PRIMARY KEY (list_id, method))""",
)


def _evaluation_store(db: sqlite_utils.Database) -> None:
    for sql in _EVALUATION_TABLES:
        db.execute(sql)


def _pools(db: sqlite_utils.Database) -> None:
    db.execute("""CREATE TABLE pools (
        id INTEGER PRIMARY KEY,
        topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        params TEXT NOT NULL,  -- JSON: preset, w, W, t, l, low yield, full depth
        qrels TEXT NOT NULL,   -- JSON list of import ids whose grades are judgements
        depth INTEGER NOT NULL, created TEXT NOT NULL,
        UNIQUE (topic_id, name))""")
    db.execute("""CREATE TABLE pool_runs (
        pool_id INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
        position INTEGER NOT NULL, name TEXT NOT NULL, source TEXT NOT NULL,
        records BLOB NOT NULL,
        PRIMARY KEY (pool_id, position))""")


def _event_records_cascade(db: sqlite_utils.Database) -> None:
    """``screening_events.record_id`` references ``records(id) ON DELETE CASCADE``: a
    record's screening events go with it, as every other child table's rows do (they
    were deleted by hand when a list was deleted). Events of records already gone (none
    should exist) are dropped first, so the new key holds for every row."""
    db.execute("DELETE FROM screening_events WHERE record_id NOT IN (SELECT id FROM records)")
    _edit_table_definitions(db, [("screening_events", r"record_id INTEGER NOT NULL,",
                                  "record_id INTEGER NOT NULL REFERENCES records(id) "
                                  "ON DELETE CASCADE,")])


def _team_screening(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE screenings ADD COLUMN uuid TEXT")
    db.execute("ALTER TABLE screenings ADD COLUMN blind INTEGER NOT NULL DEFAULT 0")
    created = db.execute("SELECT value FROM meta WHERE key = 'created'").fetchone()
    for screening_id, *parts in list(db.execute(
            "SELECT s.id, s.created, s.name, t.name FROM screenings s "
            "JOIN topics t ON t.id = s.topic_id")):
        text = "\x1f".join([created[0] if created else "", *map(str, parts)])
        db.execute("UPDATE screenings SET uuid = ? WHERE id = ?",
                   [hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest(),
                    screening_id])
    db.execute("CREATE UNIQUE INDEX idx_screenings_uuid ON screenings (uuid)")
    db.execute("""CREATE TRIGGER screening_uuid AFTER INSERT ON screenings
        WHEN NEW.uuid IS NULL BEGIN
        UPDATE screenings SET uuid = lower(hex(randomblob(16))) WHERE id = NEW.id; END""")
    db.execute("ALTER TABLE screening_events ADD COLUMN target_key TEXT")
    _edit_table_definitions(db, [("screening_events", r"'decide', 'undo', 'redo'",
                                  "'decide', 'undo', 'redo', 'resolve'")])
    db.execute("""CREATE TABLE screening_unblinds (
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        reviewer TEXT NOT NULL, at TEXT NOT NULL)""")


def _screening_rounds(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE screening_items ADD COLUMN round INTEGER NOT NULL DEFAULT 1")
    db.execute("""CREATE TABLE screening_rounds (
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        round INTEGER NOT NULL CHECK (round >= 2),
        import_id INTEGER REFERENCES imports(id) ON DELETE SET NULL,
        at TEXT NOT NULL, reviewer TEXT NOT NULL,
        added INTEGER NOT NULL, already_screened INTEGER NOT NULL,
        already_queued INTEGER NOT NULL,
        PRIMARY KEY (screening_id, round))""")
    db.execute("""CREATE TABLE screening_random_phases (
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        round INTEGER NOT NULL CHECK (round >= 1),
        after_event INTEGER NOT NULL,  -- the screening's latest event id at the switch (0: none)
        seed INTEGER NOT NULL, at TEXT NOT NULL, reviewer TEXT NOT NULL,
        PRIMARY KEY (screening_id, round))""")


def _fulltext(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE screenings ADD COLUMN parent_id INTEGER "
               "REFERENCES screenings(id) ON DELETE SET NULL")
    db.execute("""CREATE TABLE attachments (
        record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        path TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('copy', 'link')), added_at TEXT NOT NULL)""")


def _round_finishes(db: sqlite_utils.Database) -> None:
    db.execute("""CREATE TABLE screening_finishes (
        screening_id INTEGER NOT NULL REFERENCES screenings(id) ON DELETE CASCADE,
        round INTEGER NOT NULL CHECK (round >= 1),
        at TEXT NOT NULL, reviewer TEXT NOT NULL,
        rule TEXT NOT NULL, stop INTEGER NOT NULL CHECK (stop IN (0, 1)),
        evidence TEXT NOT NULL, estimate TEXT NOT NULL,
        items INTEGER NOT NULL, screened INTEGER NOT NULL, relevant INTEGER NOT NULL,
        PRIMARY KEY (screening_id, round))""")


def _query_versions(db: sqlite_utils.Database) -> None:
    db.execute("""CREATE TABLE query_versions (
        import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        text TEXT NOT NULL, at TEXT NOT NULL,
        PRIMARY KEY (import_id, version))""")
    db.execute("INSERT INTO query_versions SELECT id, 1, query, COALESCE(created, '') "
               "FROM imports WHERE COALESCE(query, '') != ''")
    version = ("INSERT INTO query_versions SELECT NEW.id, COALESCE((SELECT MAX(version) "
               "FROM query_versions WHERE import_id = NEW.id), 0) + 1, NEW.query, "
               "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now');")
    db.execute(f"""CREATE TRIGGER query_first_version AFTER INSERT ON imports
        WHEN COALESCE(NEW.query, '') != '' BEGIN {version} END""")
    db.execute(f"""CREATE TRIGGER query_next_version AFTER UPDATE OF query ON imports
        WHEN COALESCE(NEW.query, '') != COALESCE(OLD.query, '') BEGIN {version} END""")


def _term_counts(db: sqlite_utils.Database) -> None:
    db.execute("""CREATE TABLE term_counts (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        records BLOB NOT NULL, lengths BLOB NOT NULL, terms BLOB NOT NULL,
        counts BLOB NOT NULL)""")
    db.execute("CREATE INDEX term_counts_import ON term_counts(import_id)")


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [
    _v1, _v2, _v3, _bibliographic_fields, _live_views, _cascade_deletes, _parameters,
    _screenings, _evaluation_store, _pools, _event_records_cascade, _team_screening,
    _screening_rounds, _fulltext, _round_finishes, _query_versions, _term_counts,
]
SCHEMA_VERSION = len(MIGRATIONS)
