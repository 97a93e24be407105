"""Verdicts on matches: stored, and the works always equal a full regroup."""

import pytest

from litqeval_gui.core import ingest, matches, works
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project


def _ris(path, doi, author):
    path.write_text(f"TY  - JOUR\nAU  - {author}\nTI  - Deep learning for screening of "
                    f"medical abstracts\nPY  - 2020\nDO  - {doi}\nER  - \n\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path):
    """Three versions of one paper with three DOIs: three uncertain matches."""
    with Project.create(tmp_path / "p.litq") as p:
        for name, doi, author in (("core", "10.1000/published", "Roe, R"),
                                  ("r1", "10.1101/preprint", "Roe, Richard"),
                                  ("r2", "10.5281/zenodo.9", "Roe, R.")):
            run_job(ingest.import_file(p, _ris(tmp_path / f"{name}.ris", doi, author),
                                       topic="T", role="core" if name == "core" else "results",
                                       name=name))
        yield p


def _work_ids(project):
    return dict(project.db.execute("SELECT id, work_id FROM records ORDER BY id"))


def _pair(project, x, y):
    return next(m for m in matches.matches(project, "T")
                if {m.a.list_name, m.b.list_name} == {x, y})


def test_verdicts_keep_works_equal_to_a_full_regroup(project):
    assert len(matches.matches(project, "T", uncertain=True)) == 3
    steps = [("core", "r1", True), ("r1", "r2", False), ("r1", "r2", True),
             ("core", "r1", False), ("core", "r2", True), ("r1", "r2", False)]
    # works after each step, by hand: {c,r1}{r2}; same; {c,r1,r2}; {c}{r1,r2} (c–r1 taken
    # away, r1–r2 still holds); {c,r1,r2}; {c,r2}{r1}
    expected_groups = [2, 2, 1, 2, 1, 2]
    for (x, y, accept), groups in zip(steps, expected_groups, strict=True):
        decided = matches.decide(project, _pair(project, x, y).id, accept)
        assert decided.status == ("confirmed" if accept else "rejected")
        fast = _work_ids(project)
        with project.transaction() as db:
            works.regroup(db, project.topic_id("T"))
        assert _work_ids(project) == fast, (x, y, accept)
        assert len(set(fast.values())) == groups
    assert matches.matches(project, "T", uncertain=True) == []


def test_unknown_match_id_is_a_clear_error(project):
    with pytest.raises(ProjectError, match="no match with id 999"):
        matches.decide(project, 999, accept=True)
