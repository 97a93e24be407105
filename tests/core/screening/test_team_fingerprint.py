"""Records that share a title and have no identifier are told apart by their abstract's
digest when decisions are merged (seen on a real screening set: 20 of 2 019 decisions
were unmatched between two copies of one project, 4 with the digest — those are records
with the same title and the same abstract)."""

import csv
import json

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import (
    abstract_digest,
    export_decisions,
    merge_decisions,
)

FIRST = ("BACKGROUND: Email is one of the most widely used methods of communication, but "
         "its use in healthcare is still developing. OBJECTIVES: To assess the effects of "
         "healthcare professionals using email to communicate with each other on patient "
         "outcomes, health service performance, service efficiency and acceptability.")
SECOND = ("BACKGROUND: Email is a popular and commonly-used method of communication, yet "
          "little is known of its effect on clinical care. This protocol sets out how trials "
          "of email between physicians, nurses and pharmacists will be searched, selected, "
          "appraised and synthesised, with their risk of bias.")
ROWS = [["Title", "Abstract", "Year"],
        ["Email for clinical communication between healthcare professionals", FIRST, ""],
        ["Email for clinical communication between healthcare professionals", SECOND, ""],
        ["Recall intervals for oral health", "Dental recall in primary care.", "2013"]]


def _project(path, rows, uuid=None):
    source = path.with_suffix(".csv")
    with open(source, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, quoting=csv.QUOTE_ALL).writerows(rows)
    with Project.create(path) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
        screening = store.create_screening(project, "T", "s", ["L"])
        if uuid is not None:  # the colleague's copy: the same screening identity
            project.write(lambda p: p.db.execute(
                "UPDATE screenings SET uuid = ? WHERE id = ?", [uuid, screening.id])
                and store.DECISIONS)
    return path


def test_the_abstract_digest_tells_apart_records_of_one_title(tmp_path):
    ada = _project(tmp_path / "ada.litq", ROWS)
    with Project.open(ada) as project:
        screening = store.find_screening(project, "T", "s")
        ids = store.items(project, screening.id)
        assert len(ids) == 3  # two works of one title: different abstracts
        for record_id, label in zip(ids, ("include", "exclude", "include"), strict=True):
            project.write(store.decide_op(screening, record_id, label, store.Context("Ada")))
        export_decisions(project, screening, "Ada", tmp_path / "ada.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "ada.jsonl").read_text().splitlines()]
    assert lines[1]["record"]["abstract"] == abstract_digest(FIRST)
    assert len(lines[1]["record"]["abstract"]) == 16
    # the colleague imported the same rows in reverse order
    other = _project(tmp_path / "other.litq", [ROWS[0], *reversed(ROWS[1:])],
                     lines[0]["screening"]["uuid"])
    with Project.open(other) as project:
        report = run_job(merge_decisions(project, tmp_path / "ada.jsonl"))
        assert (report.added, report.unmatched) == (3, 0)
        screening = store.find_screening(project, "T", "s")
        by_abstract = {project.db.execute("SELECT abstract FROM records WHERE id = ?",
                                          [e.record_id]).fetchone()[0]: e.label
                       for e in store.reviewer_decisions(project, screening.id, "Ada")}
    assert by_abstract == {FIRST: "include", SECOND: "exclude",
                           "Dental recall in primary care.": "include"}


def test_a_file_without_digests_still_matches_what_its_title_settles(tmp_path):
    ada = _project(tmp_path / "ada.litq", ROWS)
    with Project.open(ada) as project:
        screening = store.find_screening(project, "T", "s")
        for record_id in store.items(project, screening.id):
            project.write(store.decide_op(screening, record_id, "include",
                                          store.Context("Ada")))
        export_decisions(project, screening, "Ada", tmp_path / "ada.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "ada.jsonl").read_text().splitlines()]
    for event in lines[1:]:
        del event["record"]["abstract"]  # as a file written before the digest
    (tmp_path / "old.jsonl").write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    bob = _project(tmp_path / "bob.litq", ROWS, lines[0]["screening"]["uuid"])
    with Project.open(bob) as project:
        report = run_job(merge_decisions(project, tmp_path / "old.jsonl"))
    assert (report.added, report.unmatched) == (1, 2)  # the shared title stays ambiguous
