"""Migration ``_team_screening``: screenings stored before it get a uuid derived from
the project's and the screening's stamps and names, so two copies of an old file,
migrated apart, still name the same screening; new screenings get a random one."""

import shutil

import sqlite_utils

from litqeval_gui.core.projectfile.project import APPLICATION_ID, Project
from litqeval_gui.core.projectfile.schema import MIGRATIONS, SCHEMA_VERSION
from litqeval_gui.core.screening.log import store

BEFORE = [m.__name__ for m in MIGRATIONS].index("_team_screening")  # the version before it


def old_project(path):
    """A project file of the version before the migration with one screening."""
    db = sqlite_utils.Database(path)
    for migrate in MIGRATIONS[:BEFORE]:
        migrate(db)
    db["meta"].insert_all([{"key": "created", "value": "2026-01-01T00:00:00"},
                           {"key": "app_version", "value": "0"}], replace=True)
    db.execute("INSERT INTO topics (id, name) VALUES (1, 'T')")
    for name in ("a", "b"):
        db.execute("INSERT INTO screenings (topic_id, name, phase, scheme, source, reasons, "
                   "created) VALUES (1, ?, 'title_abstract', 'include_exclude_maybe', "
                   "'{\"lists\": [], \"filter\": {}}', '[]', '2026-01-02')", [name])
    db.execute(f"PRAGMA user_version = {BEFORE}")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.conn.commit()
    db.close()
    return path


def uuids(path):
    with Project.open(path) as project:
        assert project.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        return [(s.name, s.uuid, s.blind) for s in store.screenings(project, "T")]


def test_copies_migrated_apart_agree_on_the_screening_identity(tmp_path):
    first = old_project(tmp_path / "one.litq")
    second = tmp_path / "two.litq"
    shutil.copy(first, second)
    found = uuids(first)
    assert found == uuids(second)
    assert [blind for _, _, blind in found] == [False, False]
    assert len({uuid for _, uuid, _ in found}) == 2 and all(len(u) == 32 for _, u, _ in found)
