"""ASReview LAB projects of file versions 1, 2 and 3, written here in ASReview's own
layouts: every labelling event, priors, notes, tags, the model; simulation projects,
zip bombs and planted databases refused in one line, changing nothing."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.foreign import detect_tool, import_files
from litqeval_gui.core.screening.foreign.intake import PRIOR, origin_parameter
from litqeval_gui.core.screening.log import store

TITLES = ["Robots in knee surgery", "Cats at home", "Robotic hip replacement outcomes",
          "Dogs in parks", "A record without a DOI"]
RESULTS_V1 = ("CREATE TABLE results (record_id INTEGER, label INTEGER, classifier TEXT, "
              "query_strategy TEXT, balance_strategy TEXT, feature_extraction TEXT, "
              "training_set INTEGER, labeling_time INTEGER, notes TEXT)")
CHANGES_V1 = "CREATE TABLE decision_changes (record_id INTEGER, new_label INTEGER, time INTEGER)"
RESULTS = ("CREATE TABLE results (record_id INTEGER UNIQUE, label INTEGER, classifier TEXT, "
           "querier TEXT, balancer TEXT, feature_extractor TEXT, training_set INTEGER, "
           "time FLOAT, note TEXT, tags JSON, user_id INTEGER)")
CHANGES = "CREATE TABLE decision_changes (record_id INTEGER, label INTEGER, time FLOAT, user_id INTEGER)"
RECORD = "CREATE TABLE record (dataset_row INTEGER NOT NULL, dataset_id VARCHAR, record_id INTEGER)"
TAGS = json.dumps([{"label": "Design", "export": "design", "values": [
    {"label": "RCT", "export": "rct", "id": 0, "checked": True},
    {"label": "Cohort", "export": "cohort", "id": 1, "checked": False}]}])
MODEL = {"name": "elas_u4", "current_value": {"querier": "max", "classifier": "svm",
                                               "balancer": "balanced",
                                               "feature_extractor": "tfidf"}}


def _data() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["title", "abstract", "doi"])
    for number, title in enumerate(TITLES):
        writer.writerow([title, f"Abstract {number}.", f"10.1/{number}" if number < 4 else ""])
    return out.getvalue().encode()


def _db(statements: list[str], rows: dict[str, list[tuple]]) -> bytes:
    connection = sqlite3.connect(":memory:")
    for sql in statements:
        connection.execute(sql)
    for table, values in rows.items():
        for row in values:
            connection.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", row)
    connection.commit()
    data = connection.serialize()
    connection.close()
    return data


def asreview_project(path: Path, version: int, *, mode: str = "oracle",
                     extra: dict[str, bytes] | None = None, results: list | None = None
                     ) -> Path:
    """A project as ASReview LAB ``version`` writes it: records 0…4; record 2 a prior
    include, 1 a prior exclude, 0 include with a note and a tag, 3 exclude then changed
    to include; 4 not labelled."""
    members: dict[str, bytes] = {"data/records.csv": _data()}
    if version == 1:
        config = {"version": "1.1", "mode": mode, "name": "Knees", "authors": "Ada",
                  "dataset_path": "records.csv", "reviews": [{"id": "r1", "status": "review"}]}
        members["reviews/r1/results.sql"] = _db([RESULTS_V1, CHANGES_V1], {
            "results": results or [
                (2, 1, None, "prior", None, None, None, "2023-01-02 10:00:00.000001", None),
                (1, 0, None, "prior", None, None, None, "2023-01-02 10:00:01", None),
                (0, 1, "nb", "max", "double", "tfidf", 2, "2023-01-02 10:01:00", "a note"),
                (3, 0, "nb", "max", "double", "tfidf", 3, "2023-01-02 10:02:00", None),
                (4, None, None, None, None, None, None, None, None)],
            "decision_changes": [(3, 1, "2023-01-03 09:00:00")]})
        members["reviews/r1/settings_metadata.json"] = json.dumps({"settings": {
            "model": "nb", "query_strategy": "max", "balance_strategy": "double",
            "feature_extraction": "tfidf"}, "state_version": "1"}).encode()
    else:
        config = {"version": "2.0" if version == 2 else "3.0.8", "mode": mode, "name": "Knees",
                  "datasets": [{"id": "d1", "name": "records.csv"}]}
        state = [RESULTS, CHANGES] + ([RECORD] if version == 3 else [])
        rows = {"results": results or [
            (2, 1, None, "random", None, None, None, 1672653600.000001, None, "[]", None),
            (1, 0, None, "random", None, None, None, 1672653601.0, None, "[]", None),
            (0, 1, "svm", "max", "balanced", "tfidf", 2, 1672653660.0, "a note", TAGS, None),
            (3, 1, "svm", "max", "balanced", "tfidf", 3, 1672736400.0, None, "[]", None),
            (4, None, "svm", "max", "balanced", "tfidf", 4, None, None, None, None)],
            "decision_changes": [(3, 0, 1672653720.0, None)]}
        records = [(row, "d1", 10 + row) for row in range(5)]  # ids apart from rows
        rows["results"] = [(10 + r[0], *r[1:]) for r in rows["results"]]
        rows["decision_changes"] = [(10 + r[0], *r[1:]) for r in rows["decision_changes"]]
        if version == 3:
            config |= {"project_file_version": 3, "review": {"status": "review",
                                                             "model": MODEL}}
            members["results.db"] = _db(state, rows | {"record": records})
        else:
            config |= {"reviews": [{"id": "r2", "status": "review"}]}
            members["reviews/r2/results.db"] = _db(state, rows)
            members["reviews/r2/settings_metadata.json"] = json.dumps(MODEL).encode()
            members["data_store.db"] = _db([RECORD], {"record": records})
    members["project.json"] = json.dumps(config).encode()
    members.update(extra or {})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _import(project: Project, path: Path, reviewer: str = ""):
    return run_job(import_files(project, [path], topic="T", reviewer=reviewer))


def _events(project: Project, name: str) -> list[tuple]:
    screening = store.find_screening(project, "T", name)
    return [(store.record_title(project, e.record_id), e.label, e.reviewer, e.ordering,
             e.note, e.tags, e.at[:19]) for e in store.events(project, screening.id)]


@pytest.mark.parametrize("version", [1, 2, 3])
def test_every_labelling_event_with_priors_notes_and_the_model(tmp_path, version):
    path = asreview_project(tmp_path / "knees.asreview", version)
    assert detect_tool([path]) == "asreview"
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path, "" if version == 1 else "Bea")
        who = "Ada" if version == 1 else "Bea"  # v1 names its authors
        assert summary.screening == "ASReview: Knees"
        assert summary.added == {who: 5} and summary.unmatched == 0
        events = sorted(_events(project, "ASReview: Knees"), key=lambda e: e[-1])
        tool = summary.tool
        tag = () if version == 1 else ("Design: RCT",)
        assert events == [
            ("Robotic hip replacement outcomes", "include", who, PRIOR, "", (),
             "2023-01-02T10:00:00"),
            ("Cats at home", "exclude", who, PRIOR, "", (), "2023-01-02T10:00:01"),
            ("Robots in knee surgery", "include", who, tool, "a note", tag,
             "2023-01-02T10:01:00"),
            ("Dogs in parks", "exclude", who, tool, "", (), "2023-01-02T10:02:00"),
            ("Dogs in parks", "include", who, tool, "", (), "2023-01-03T09:00:00")]
        screening = store.find_screening(project, "T", "ASReview: Knees")
        current = {store.record_title(project, e.record_id): e.label
                   for e in store.current_decisions(project, screening.id)}
        assert current == {"Robotic hip replacement outcomes": "include",
                           "Cats at home": "exclude", "Robots in knee surgery": "include",
                           "Dogs in parks": "include"}
        origin = parameters.get(project, origin_parameter(screening))
        assert "knees.asreview" in origin
        assert ("nb + tfidf + max + double" if version == 1 else
                "elas_u4: svm + tfidf + max + balanced") in origin
        again = _import(project, path, "" if version == 1 else "Bea")
        assert again.added == {} and again.present == 5 and again.reused == ["records"]


def test_a_simulation_project_is_refused(tmp_path):
    path = asreview_project(tmp_path / "sim.asreview", 3, mode="simulate")
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(ImportRefused, match="simulation project: it holds no human"):
            _import(project, path)
        assert project.db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0


def _bomb(path: Path) -> Path:
    """A project whose records file unpacks to 200 MB from a few hundred KB."""
    asreview_project(path, 3)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data/records2.csv", b"0" * 200_000_000)
    config = json.loads(zipfile.ZipFile(path).read("project.json"))
    config["datasets"][0]["name"] = "records2.csv"
    rebuilt = path.with_name("bomb.asreview")
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(rebuilt, "w",
                                                       zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = json.dumps(config).encode() if info.filename == "project.json" \
                else old.read(info)
            new.writestr(info.filename, data)
    return rebuilt


def _planted(path: Path) -> Path:
    """results.db whose ``results`` is a view that would run for ever."""
    view = ("CREATE VIEW results AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
            "FROM n) SELECT i AS record_id, 1 AS label, NULL AS classifier, 1.0 AS time, "
            "'' AS note, '[]' AS tags, NULL AS user_id FROM n")
    return asreview_project(path, 3, extra={"results.db": _db(
        [view, RECORD, "CREATE TABLE log (x)",
         "CREATE TRIGGER t AFTER INSERT ON log BEGIN DELETE FROM record; END"], {})})


@pytest.mark.parametrize(("make", "said"), [
    (_bomb, "refused as a zip bomb"),
    (_planted, "has no table results"),
    (lambda p: asreview_project(p, 3, extra={"project.json": b"{not json"}),
     "its project.json is damaged"),
    (lambda p: asreview_project(p, 3, extra={"results.db": b"SQLite format 3\x00junk"}),
     "its results database is damaged"),
    (lambda p: asreview_project(p, 3, results=[(0, 7, "svm", "max", None, None, 1, 1.0,
                                                 None, "[]", None)]),
     "label '7' is not 0 or 1"),
    (lambda p: asreview_project(p, 3, extra={"project.json": json.dumps(
        {"mode": "oracle", "project_file_version": 3, "datasets": [
            {"name": "../../etc/passwd"}]}).encode()}), "names no records file"),
    (lambda p: asreview_project(p, 3, extra={"project.json": json.dumps(
        {"mode": "oracle", "project_file_version": 9}).encode()}), "version '9'"),
])
def test_hostile_projects_give_one_line_and_change_nothing(tmp_path, make, said):
    path = make(tmp_path / "bad.asreview")
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(ImportRefused) as refused:
            _import(project, path)
        assert said in str(refused.value) and "\n" not in str(refused.value)
        for table in ("imports", "screenings", "screening_events"):
            assert project.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0


def test_a_label_on_a_record_the_file_lacks_is_listed_unmatched(tmp_path):
    path = asreview_project(tmp_path / "k.asreview", 1, results=[
        (0, 1, "nb", "max", None, None, 1, "2023-01-02 10:01:00", None),
        (99, 0, "nb", "max", None, None, 1, "2023-01-02 10:02:00", None)])
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path)
        assert summary.added == {"Ada": 1} and summary.unmatched == 1
        assert summary.unmatched_examples == [
            "k.asreview: record 99 is not in its records file"]


def test_priors_stamped_with_one_time_are_each_kept(tmp_path):
    """ASReview 1.x stamps every prior of a labelled dataset with one time: each is a
    decision of its own, a microsecond apart in the file's order, and stays so on a
    second import."""
    same = "2025-04-24 11:51:44.310182"
    path = asreview_project(tmp_path / "k.asreview", 1, results=[
        (row, row % 2, None, "prior", None, None, -1, same, None) for row in range(5)])
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path)  # and record 3's label change
        assert summary.added == {"Ada": 6} and summary.present == 0
        priors = [e for e in store.events(project, store.find_screening(
            project, "T", "ASReview: Knees").id) if e.ordering == PRIOR]
        assert [(store.record_title(project, e.record_id), e.label) for e in priors] == [
            (TITLES[row], "include" if row % 2 else "exclude") for row in range(5)]
        assert [e.at for e in priors] == [
            f"2025-04-24T11:51:44.31018{2 + k}+00:00" for k in range(5)]
        assert _import(project, path).present == 6


def test_a_beta_of_two_with_version_one_label_changes(tmp_path):
    """ASReview 2.0's betas keep label changes as (record_id, new_label, time)."""
    changes = "CREATE TABLE decision_changes (record_id INTEGER, new_label INTEGER, time FLOAT)"
    state = _db([RESULTS, changes], {
        "results": [(10, 1, "svm", "max", None, None, 1, 1672653660.0, None, "[]", 64)],
        "decision_changes": [(10, 0, 1672653600.0)]})
    path = asreview_project(tmp_path / "b.asreview", 2, extra={
        "reviews/r2/results.db": state})
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path)
        assert summary.added == {"ASReview user 64": 2}
        assert [(title, label) for title, label, *_ in _events(project, "ASReview: Knees")] \
            == [(TITLES[0], "exclude"), (TITLES[0], "include")]


def test_a_project_from_before_one_is_refused_with_what_to_do(tmp_path):
    path = asreview_project(tmp_path / "old.asreview", 1, extra={"project.json": json.dumps(
        {"version": "0.17", "id": "x", "name": "x", "dataset_path": "records.csv"}).encode()})
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(ImportRefused, match=r"ASReview LAB 0\.17 project \(before 1\.0\)"
                           r".*open it in ASReview LAB 1\.x"):
            _import(project, path)
