"""Migration ``_screening_rounds``: the items of a screening stored before it are round 1;
the rounds and random phases go with their screening."""


from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION
from tests.support.projects import file_before


def old_project(path):
    """A file of the version before the migration: one screening of two records."""
    def fill(db):
        db.execute("INSERT INTO imports (id, topic_id, name, role, state) "
                   "VALUES (1, 1, 'L', 'results', 'done')")
        for record in (1, 2):
            db.execute("INSERT INTO records (id, topic_id, import_id, rank, work_id, title) "
                       "VALUES (?, 1, 1, ?, ?, 'x')", [record, record, record])
        db.execute("INSERT INTO screenings (id, topic_id, name, phase, scheme, source, "
                   "reasons, created) VALUES (1, 1, 's', 'title_abstract', "
                   "'include_exclude_maybe', '{\"lists\": [1], \"filter\": {}}', '[]', "
                   "'2026-01-02')")
        db.execute("INSERT INTO screening_items VALUES (1, 1, 1), (1, 2, 2)")

    return file_before(path, "_screening_rounds", fill)


def test_old_items_are_round_one_and_rounds_cascade_with_the_screening(tmp_path):
    path = old_project(tmp_path / "old.litq")
    with Project.open(path) as project:
        db = project.db
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT record_id, round FROM screening_items ORDER BY record_id"
                          ).fetchall() == [(1, 1), (2, 1)]

        def op(p):
            p.db.execute("INSERT INTO screening_rounds VALUES (1, 2, 1, 'now', 'ann', 0, 0, 0)")
            p.db.execute("INSERT INTO screening_random_phases VALUES (1, 1, 0, 7, 'now', 'ann')")
            p.db.execute("DELETE FROM screenings WHERE id = 1")
        project.write(op)
        assert db.execute("SELECT COUNT(*) FROM screening_rounds").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM screening_random_phases").fetchone()[0] == 0
