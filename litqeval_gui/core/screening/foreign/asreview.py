"""ASReview LAB projects (``.asreview``, a zip): the records with every labelling event.

Three layouts (``project.json``'s ``project_file_version``; docs/interop.md):

- **1** (ASReview 1.x): ``data/<dataset_path>``; per review ``reviews/<id>/results.sql``
  with ``results(record_id, label, query_strategy, labeling_time, notes…)`` (a prior's
  ``query_strategy`` is ``prior``; ``record_id`` the dataset's row, or its
  ``record_id`` column) and ``decision_changes(record_id, new_label, time)``; the model
  in ``reviews/<id>/settings_metadata.json``.
- **2** (2.0): ``data/<datasets[0].name>``, ``data_store.db`` with ``record(record_id,
  dataset_row)``, per review ``reviews/<id>/results.db`` with ``results(record_id,
  label, classifier, querier, time, note, tags, user_id)`` (a prior has no
  classifier: no model had ranked it) and ``decision_changes`` of earlier labels.
- **3** (2.x–3.x): as 2, but ``results.db`` beside ``project.json`` holds the
  ``record`` table too, and the model is ``project.json``'s ``review.model``.

A label 1 is include, 0 exclude; none is not yet decided. A simulation project
(``mode`` ``simulate``) holds no human decision and is refused. The zip is read
member by member into a folder of our own, within a size budget; its databases are
opened read-only with a bound on the work a query may do.
"""

from __future__ import annotations

import json
import sqlite3
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.records.importing import ParseResult
from litqeval_gui.core.screening.foreign.review import (
    Decision,
    RecordsFile,
    Review,
    entry_ranks,
    parsed,
)

MAX_MEMBER = 2 << 30  # bytes of one unpacked member
MAX_TOTAL = 4 << 30  # bytes unpacked in all
MAX_RATIO = 200  # a member unpacking to more than 200× its packed size is a bomb (text: ~10×)
MAX_JSON = 10 << 20
_STEPS = 200_000_000  # SQLite virtual-machine steps a query may take
_CHUNK = 1 << 20


def sniff(path: Path) -> bool:
    """Whether ``path`` is a zip holding an ASReview ``project.json``."""
    try:
        with zipfile.ZipFile(path) as archive:
            return any(_name(i) == "project.json" for i in archive.infolist())
    except (OSError, zipfile.BadZipFile, ValueError):
        return False


def _name(info: zipfile.ZipInfo) -> str:
    """A member's path with the project's own folder (some exports nest one) left out."""
    parts = [p for p in info.filename.replace("\\", "/").split("/") if p]
    if parts and parts[0] == "legacy_v2":
        return ""  # the older copy a migrated project keeps
    return "/".join(parts[1:] if len(parts) > 1 and parts[1] in (
        "project.json", "data", "reviews", "results.db", "data_store.db") else parts)


class _Archive:
    """The members of an ASReview zip, unpacked on request into ``work`` (never under
    their own names), each within the size budget (module docstring)."""

    def __init__(self, path: Path, work: Path) -> None:
        self.path, self.work, self.unpacked = path, work, 0
        try:
            self.zip = zipfile.ZipFile(path)
            self.members = {_name(i): i for i in self.zip.infolist() if not i.is_dir()}
        except (OSError, zipfile.BadZipFile, ValueError) as err:
            raise ImportRefused(f"{path.name}: not a readable ASReview project ({err})"
                                ) from None

    def has(self, name: str) -> bool:
        return name in self.members

    def read(self, name: str, limit: int = MAX_MEMBER) -> bytes:
        """The bytes of member ``name`` (at most ``limit``), or one line why not."""
        info = self._info(name, limit)
        with self.zip.open(info) as handle:
            data = handle.read(limit + 1)
        self._count(name, len(data), limit)
        return data

    def unpack(self, name: str, suffix: str) -> Path:
        """Member ``name`` as a file of ``work`` (named ``<n><suffix>``)."""
        info = self._info(name, MAX_MEMBER)
        target = self.work / f"{len(list(self.work.iterdir()))}{suffix}"
        written = 0
        try:
            with self.zip.open(info) as source, open(target, "wb") as out:
                while block := source.read(_CHUNK):
                    written += len(block)
                    self._count(name, written, MAX_MEMBER, len(block))
                    out.write(block)
        except (zipfile.BadZipFile, OSError, EOFError) as err:
            raise ImportRefused(f"{self.path.name}: {name} cannot be unpacked ({err})"
                                ) from None
        return target

    def _info(self, name: str, limit: int) -> zipfile.ZipInfo:
        info = self.members.get(name)
        if info is None:
            raise ImportRefused(f"{self.path.name}: the project has no {name}; it is not an "
                                "ASReview project of a known version")
        if info.file_size > limit or info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ImportRefused(f"{self.path.name}: {name} would unpack to "
                                f"{info.file_size:,} bytes; refused as a zip bomb")
        return info

    def _count(self, name: str, size: int, limit: int, added: int | None = None) -> None:
        self.unpacked += size if added is None else added
        if size > limit or self.unpacked > MAX_TOTAL:
            raise ImportRefused(f"{self.path.name}: {name} unpacks to more than it says; "
                                "refused as a zip bomb")


def read(path: Path, work: Path, reviewer: str = "") -> Review:
    """The review of ASReview project ``path`` (module docstring), unpacked into
    ``work``; ``reviewer`` names whoever decided (default: the project's authors, else
    "ASReview user N" per user id, else "ASReview")."""
    archive = _Archive(path, work)
    config = _json(archive, "project.json")
    if not isinstance(config, dict):
        raise ImportRefused(f"{path.name}: its project.json is not an ASReview project")
    mode = config.get("mode")
    if mode == "simulate":
        raise ImportRefused(f"{path.name} is an ASReview simulation project: it holds no "
                            "human decisions, so there is nothing to import")
    made_by = config.get("version")
    if "project_file_version" not in config and isinstance(made_by, str) and \
            made_by.startswith("0."):
        raise ImportRefused(f"{path.name} is an ASReview LAB {made_by[:20]} project (before "
                            "1.0), which this app does not read; open it in ASReview LAB 1.x "
                            "(which upgrades it) and export it again")
    version = config.get("project_file_version", 2 if "datasets" in config else 1)
    if version not in (1, 2, 3) or not isinstance(config.get("version", ""), str):
        raise ImportRefused(f"{path.name}: ASReview project file version {str(version)[:20]!r}"
                            " is not one this version reads (1 to 3)")
    data_name = _data_name(path, config, version)
    suffix = Path(data_name).suffix.lower()
    records_path = archive.unpack(f"data/{data_name}", suffix if suffix in (
        ".csv", ".tsv", ".tab", ".ris", ".txt", ".xlsx", ".xml") else ".csv")
    result = parsed(records_path)
    name = str(config.get("name") or path.stem)[:200]
    tool = f"ASReview LAB {str(config.get('version', ''))[:40]}".strip()
    review = Review(tool=tool, name=f"ASReview: {name}",
                    files=[RecordsFile(records_path, Path(data_name).stem, "ASReview")])
    database, review_id = _results_database(archive, config, version)
    connection = _open(database, path)
    try:
        rows = _rows(connection, version, path)
        changes = _changes(connection, version, path)
        record_rows = _record_rows(archive, connection, version, path)
    finally:
        connection.close()
    model = _model(archive, config, version, review_id)
    review.note = (f"ASReview LAB project {path.name} (ASReview {config.get('version', '?')}, "
                   f"mode {mode or 'oracle'})" + (f"; model {model}" if model else ""))
    _decisions(review, rows, changes, record_rows, result, path, reviewer,
               str(config.get("authors") or ""))
    return review


def _json(archive: _Archive, name: str) -> Any:
    try:
        return json.loads(archive.read(name, MAX_JSON).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ImportRefused(f"{archive.path.name}: its {name} is damaged") from None


def _data_name(path: Path, config: dict, version: int) -> str:
    if version == 1:
        name = config.get("dataset_path")
    else:
        sets = config.get("datasets")
        name = sets[0].get("name") if isinstance(sets, list) and sets and isinstance(
            sets[0], dict) else None
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or ".." in name:
        raise ImportRefused(f"{path.name}: its project.json names no records file")
    return name


def _results_database(archive: _Archive, config: dict, version: int) -> tuple[Path, str]:
    """The unpacked results database and the review's id ("" for version 3)."""
    if version == 3:
        return archive.unpack("results.db", ".db"), ""
    reviews = config.get("reviews")
    if not isinstance(reviews, list) or not reviews or not isinstance(reviews[0], dict):
        raise ImportRefused(f"{archive.path.name}: the project holds no review yet")
    review_id = str(reviews[0].get("id", ""))
    if not review_id.isalnum():
        raise ImportRefused(f"{archive.path.name}: its review id is damaged")
    name = f"reviews/{review_id}/results.{'sql' if version == 1 else 'db'}"
    return archive.unpack(name, ".db"), review_id


def _open(database: Path, path: Path) -> sqlite3.Connection:
    """``database`` read-only, its schema untrusted, each query's work bounded."""
    try:
        connection = sqlite3.connect(f"{database.as_uri()}?mode=ro&immutable=1", uri=True)
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.set_progress_handler(_Budget(), 10_000)
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as err:
        raise ImportRefused(f"{path.name}: its results database is damaged ({err})") from None
    return connection


class _Budget:
    """A progress handler stopping a query after :data:`_STEPS` steps (a planted view)."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self) -> int:
        self.steps += 10_000
        return int(self.steps > _STEPS)


def _query(connection: sqlite3.Connection, path: Path, table: str, sql: str) -> list[tuple]:
    """The rows of ``sql`` over ``table``, which must be a real table; one line if not."""
    kind = connection.execute("SELECT type FROM sqlite_master WHERE name = ?",
                              [table]).fetchone()
    if kind is None or kind[0] != "table":
        raise ImportRefused(f"{path.name}: its results database has no table {table}")
    try:
        return connection.execute(sql).fetchall()
    except sqlite3.DatabaseError as err:
        raise ImportRefused(f"{path.name}: its results database cannot be read "
                            f"({err})") from None


def _rows(connection: sqlite3.Connection, version: int, path: Path) -> list[tuple]:
    """(record_id, label, prior, time, note, tags, user) of each labelled record."""
    if version == 1:
        return [(r, label, strategy == "prior", _v1_time(path, at), note, "[]", None)
                for r, label, strategy, at, note in _query(
                    connection, path, "results", "SELECT record_id, label, query_strategy, "
                    "labeling_time, notes FROM results WHERE label IS NOT NULL")]
    return [(r, label, classifier is None, _unix(path, at), note, tags, user)
            for r, label, classifier, at, note, tags, user in _query(
                connection, path, "results", "SELECT record_id, label, classifier, time, "
                "note, tags, user_id FROM results WHERE label IS NOT NULL")]


def _changes(connection: sqlite3.Connection, version: int, path: Path) -> list[tuple]:
    """(record_id, label, time, user) of the label changes kept (a ``new_label`` column,
    as in 1.x and 2.0's betas: the new label; later: the label it replaced, with its
    time)."""
    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'decision_changes'"
                          ).fetchone() is None:
        return []
    columns = {row[1] for row in connection.execute("PRAGMA table_info(decision_changes)")}
    if "new_label" in columns:  # 1.x, and 2.0's betas
        stamp = _v1_time if version == 1 else _unix
        return [(r, label, stamp(path, at), None) for r, label, at in _query(
            connection, path, "decision_changes",
            "SELECT record_id, new_label, time FROM decision_changes")]
    return [(r, label, _unix(path, at), user) for r, label, at, user in _query(
        connection, path, "decision_changes",
        "SELECT record_id, label, time, user_id FROM decision_changes")]


def _record_rows(archive: _Archive, connection: sqlite3.Connection, version: int,
                 path: Path) -> dict[int, int] | None:
    """record_id → the dataset row (0-based) it is; None (version 1): the same number."""
    if version == 1:
        return None
    if version == 2:
        store = _open(archive.unpack("data_store.db", ".db"), path)
        try:
            rows = _query(store, path, "record", "SELECT record_id, dataset_row FROM record")
        finally:
            store.close()
    else:
        rows = _query(connection, path, "record", "SELECT record_id, dataset_row FROM record")
    return {int(r): int(row) for r, row in rows}


def _v1_time(path: Path, text: object) -> str:
    if text is None:
        return ""
    try:
        stamp = datetime.fromisoformat(str(text))
    except ValueError:
        raise ImportRefused(f"{path.name}: a labelling time {str(text)[:30]!r} is damaged"
                            ) from None
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)).isoformat(
        timespec="microseconds")


def _unix(path: Path, value: object) -> str:
    if value is None:
        return ""
    try:
        return datetime.fromtimestamp(float(value), timezone.utc).isoformat(
            timespec="microseconds")
    except (TypeError, ValueError, OverflowError, OSError):
        raise ImportRefused(f"{path.name}: a labelling time {str(value)[:30]!r} is damaged"
                            ) from None


def _model(archive: _Archive, config: dict, version: int, review_id: str) -> str:
    """The model the project used, in a few words ("elas_u4: svm + tfidf, max")."""
    if version == 3:
        model = (config.get("review") or {}).get("model") if isinstance(
            config.get("review"), dict) else None
    else:
        name = f"reviews/{review_id}/settings_metadata.json"
        model = _json(archive, name) if archive.has(name) else None
    if not isinstance(model, dict):
        return ""
    if version == 1:
        settings = model.get("settings") if isinstance(model.get("settings"), dict) else {}
        parts = [settings.get(k) for k in ("model", "feature_extraction", "query_strategy",
                                           "balance_strategy")]
        return " + ".join(str(p)[:40] for p in parts if p)
    value = model.get("current_value") if isinstance(model.get("current_value"), dict) else {}
    parts = [value.get(k) for k in ("classifier", "feature_extractor", "querier", "balancer")]
    return f"{str(model.get('name', ''))[:40]}: " + " + ".join(
        str(p)[:40] for p in parts if p)


def _tags(path: Path, value: object) -> tuple[str, ...]:
    """The checked tags of a result (``[{"label", "values": [{"label", "checked"}]}]``)
    as "Group: Value"."""
    if value in (None, "", "[]"):
        return ()
    try:
        groups = json.loads(value) if isinstance(value, str) else value
    except (json.JSONDecodeError, RecursionError):
        raise ImportRefused(f"{path.name}: a result's tags are damaged") from None
    if not isinstance(groups, list):
        raise ImportRefused(f"{path.name}: a result's tags are damaged")
    found = []
    for group in groups:
        if isinstance(group, str):
            found.append(group)
        elif isinstance(group, dict):
            for tag in group.get("values") or []:
                if isinstance(tag, dict) and tag.get("checked"):
                    found.append(f"{group.get('label', '')}: {tag.get('label', '')}")
    return tuple(found)


def _decisions(review: Review, rows: list[tuple], changes: list[tuple],
               record_rows: dict[int, int] | None, result: ParseResult, path: Path,
               reviewer: str, authors: str) -> None:
    """Every labelling event as a decision of the records file's rank it names."""
    ranks, rejected = entry_ranks(result)
    user_of = {row[0]: row[6] for row in rows}  # a change without a user: the label's
    changes = [(r, value, at, user_of.get(r) if user is None else user)
               for r, value, at, user in changes]
    users = {row[6] for row in rows} | {c[3] for c in changes}
    by_id = _ids_column(result) if record_rows is None else None

    def who(user: object) -> str:
        if reviewer:
            return reviewer
        if authors and len(users) <= 1:
            return authors
        return f"ASReview user {user}" if user is not None else "ASReview"

    def rank(record_id: object, where: str) -> int | None:
        if not isinstance(record_id, int):
            raise ImportRefused(f"{where}: its record id {str(record_id)[:20]!r} is damaged")
        if by_id is not None and record_id in by_id:
            return by_id[record_id]
        row = record_id if record_rows is None else record_rows.get(record_id)
        entry = None if row is None else row + 1
        if entry is None or (entry not in ranks and entry not in rejected):
            review.unmatched.append(f"{path.name}: record {record_id} is not in its records "
                                    "file")
            return None
        if entry in rejected:
            review.unmatched.append(f"{path.name}: record {record_id} (row {entry}) was "
                                    f"rejected by the importer ({rejected[entry]})")
            return None
        return ranks[entry]

    def label(value: object, where: str) -> str:
        if value not in (0, 1):
            raise ImportRefused(f"{where}: label {str(value)[:20]!r} is not 0 or 1")
        return "include" if value == 1 else "exclude"

    current = {row[0] for row in rows}
    for record_id, value, at, user in changes:
        where = f"{path.name}: a label change of record {record_id}"
        if record_id not in current or value is None:
            continue  # taken back in ASReview: the record is not decided now
        decided = label(value, where)
        found = rank(record_id, where)
        if found is not None and at:
            review.add(Decision(0, found, who(user), decided, at=at), where)
    for record_id, value, prior, at, note, tags, user in rows:
        where = f"{path.name}: the label of record {record_id}"
        decided = label(value, where)
        found = rank(record_id, where)
        if found is None:
            continue
        review.add(Decision(0, found, who(user), decided, at=at,
                            note=str(note or ""), tags=_tags(path, tags), prior=bool(prior)),
                   where)


def _ids_column(result: ParseResult) -> dict[int, int] | None:
    """record_id → rank when a version 1 records file has its own ``record_id`` column."""
    found = {}
    for record in result.records:
        value = record.raw.get("record_id")
        if value is None:
            return None
        try:
            found[int(str(value))] = record.rank
        except ValueError:
            return None
    return found or None
