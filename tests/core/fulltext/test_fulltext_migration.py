"""Migration ``_fulltext``: screenings stored before it have no parent; a deleted parent
leaves its full-text screening standing; an attachment goes with its record."""

import sqlite_utils

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import MIGRATIONS, SCHEMA_VERSION
from tests.core.screening.test_rounds_migration import old_project as rounds_old_project

NAMES = [m.__name__ for m in MIGRATIONS]
BEFORE, ROUNDS = NAMES.index("_fulltext"), NAMES.index("_screening_rounds")


def old_project(path):
    """A file of the version before the migration: one screening of two records."""
    rounds_old_project(path)
    db = sqlite_utils.Database(path)
    for migrate in MIGRATIONS[ROUNDS:BEFORE]:
        migrate(db)
    db.execute(f"PRAGMA user_version = {BEFORE}")
    db.conn.commit()
    db.close()
    return path


def test_parent_is_null_before_and_set_null_when_the_parent_goes(tmp_path):
    with Project.open(old_project(tmp_path / "old.litq")) as project:
        db = project.db
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT parent_id FROM screenings").fetchall() == [(None,)]

        def op(p):
            p.db.execute("INSERT INTO screenings (id, topic_id, name, phase, scheme, source, "
                         "reasons, created, parent_id) SELECT 2, topic_id, 'ft', 'full_text', "
                         "scheme, source, reasons, created, 1 FROM screenings WHERE id = 1")
            p.db.execute("INSERT INTO attachments VALUES (1, 'a.pdf', 'ab', 3, 'link', 'now')")
        project.write(op)
        assert db.execute("SELECT parent_id FROM screenings WHERE id = 2").fetchone() == (1,)

        def delete(p):
            p.db.execute("DELETE FROM screenings WHERE id = 1")
            p.db.execute("DELETE FROM records WHERE id = 1")
        project.write(delete)
        assert db.execute("SELECT id, parent_id FROM screenings").fetchall() == [(2, None)]
        assert db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 0
