"""Migration ``_team_screening``: screenings stored before it get a uuid derived from
the project's and the screening's stamps and names, so two copies of an old file,
migrated apart, still name the same screening; new screenings get a random one."""

import shutil

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION
from litqeval_gui.core.screening.log import store
from tests.support.projects import file_before


def old_project(path):
    """A project file of the version before the migration with one screening."""
    def fill(db):
        for name in ("a", "b"):
            db.execute("INSERT INTO screenings (topic_id, name, phase, scheme, source, "
                       "reasons, created) VALUES (1, ?, 'title_abstract', "
                       "'include_exclude_maybe', '{\"lists\": [], \"filter\": {}}', '[]', "
                       "'2026-01-02')", [name])

    return file_before(path, "_team_screening", fill)


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
