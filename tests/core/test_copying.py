"""A copy of a project for a colleague: consistent while another connection writes (the
recent decisions live in the ``-wal`` file), one self-contained file, the same project
(a colleague's decisions on it merge back), and refused targets change nothing."""

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import copying
from litqeval_gui.core.records.copying import copy_project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import merge_decisions
from tests.support.screening import screening_project

LABELS = ("include", "exclude")


@pytest.fixture
def project_file(tmp_path):
    """A project (topic T, list L of 30 records) with screening S; its path."""
    path, _ = screening_project(tmp_path, 30)
    with Project.open(path) as project:
        store.create_screening(project, "T", "S", ["L"])
    return path


def _event_ids(path: Path) -> set[int]:
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "S")
        return {event.id for event in store.events(project, screening.id)}


def test_a_copy_made_while_decisions_are_written_holds_every_committed_one(
        project_file, tmp_path):
    committed: list[int] = []  # event ids, appended as each commits
    enough, stop, failed = threading.Event(), threading.Event(), []

    def screen() -> None:  # another connection, deciding until told to stop
        try:
            with Project.open(project_file) as project:
                project.db.execute("PRAGMA wal_autocheckpoint = 0")  # all stays in the -wal
                screening = store.find_screening(project, "T", "S")
                ids = store.items(project, screening.id)
                turn = 0
                while not stop.is_set():
                    done = project.write(store.decide_op(
                        screening, ids[turn % len(ids)], LABELS[turn % 2],
                        store.Context("Ann")))
                    committed.append(done.value.id)
                    turn += 1
                    if turn == 40:
                        enough.set()
        except BaseException as exc:  # noqa: BLE001 — reported by the test
            failed.append(exc)
            enough.set()

    writer = threading.Thread(target=screen)
    writer.start()
    try:
        assert enough.wait(30)
        before = set(committed)
        plain = shutil.copy(project_file, tmp_path / "plain.litq")  # what `cp` would give
        copy = copy_project(project_file, tmp_path / "ben.litq")
    finally:
        stop.set()
        writer.join()
    assert failed == []
    with sqlite3.connect(plain) as db:  # the main file alone lacks the -wal's decisions
        assert db.execute("SELECT count(*) FROM screening_events").fetchone()[0] < len(before)
    assert len(before) >= 40 and before <= _event_ids(copy) <= set(committed)
    assert sorted(p.name for p in tmp_path.glob("ben.litq*")) == ["ben.litq"]
    assert not list(tmp_path.glob(".ben.litq*"))
    with Project.open(copy) as opened:  # a valid project, writable: the same project
        assert opened.db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        identity = (opened.meta("created"), store.find_screening(opened, "T", "S").uuid)
    with Project.open(project_file, readonly=True) as project:
        assert (project.meta("created"), store.find_screening(project, "T", "S").uuid) == identity


def test_decisions_made_on_the_copy_merge_back(project_file, tmp_path):
    with Project.open(project_file) as project:  # held open, its decision in the -wal
        screening = store.find_screening(project, "T", "S")
        first, second = store.items(project, screening.id)[:2]
        project.write(store.decide_op(screening, first, "include", store.Context("Ann")))
        copy = copy_project(project, tmp_path / "ben.litq")
        with Project.open(copy) as bens:
            theirs = store.find_screening(bens, "T", "S")
            assert [e.label for e in store.events(bens, theirs.id)] == ["include"]
            bens.write(store.decide_op(theirs, second, "exclude", store.Context("Ben")))
        report = run_job(merge_decisions(project, copy, reviewers=["Ben"]))
        assert (report.screenings, report.added, report.present) == (["S"], 1, 1)


@pytest.mark.parametrize("where", ["project", "wal", "folder", "missing folder",
                                   "another project", "stale wal"])
def test_refused_targets_are_one_line_and_change_nothing(project_file, tmp_path, where):
    with Project.open(project_file) as project:
        screening = store.find_screening(project, "T", "S")
        record = store.items(project, screening.id)[0]
        project.write(store.decide_op(screening, record, "include", store.Context("Ann")))
        other = tmp_path / "other.litq"
        shutil.copy(project_file, other)
        stale = tmp_path / "new.litq-wal"
        stale.write_bytes(b"left by a deleted database")
        target = {"project": project_file, "wal": Path(f"{project_file}-wal"),
                  "folder": tmp_path, "missing folder": tmp_path / "gone" / "ben.litq",
                  "another project": other, "stale wal": tmp_path / "new.litq"}[where]
        files = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
        with pytest.raises(LitqError) as refused:
            copy_project(project, target)
        assert "\n" not in str(refused.value) and str(target) in str(refused.value)
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == files
    assert len(_event_ids(project_file)) == 1


def test_a_full_disk_is_one_line_and_leaves_nothing(project_file, tmp_path, monkeypatch):
    connect = sqlite3.connect

    def small_disk(path, *args, **kwargs):  # the copy's disk holds two pages
        db = connect(path, *args, **kwargs)
        if str(path).endswith(".partial"):
            db.execute("PRAGMA max_page_count = 2")
        return db

    monkeypatch.setattr(copying.sqlite3, "connect", small_disk)
    with pytest.raises(LitqError, match=r"ben\.litq: cannot write the copy \(the disk is full\)"):
        copy_project(project_file, tmp_path / "ben.litq")
    assert [p.name for p in tmp_path.iterdir() if "ben" in p.name] == []
