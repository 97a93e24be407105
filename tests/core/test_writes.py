"""The one write path: BEGIN IMMEDIATE, one thread per connection, and a decision made
while a large import runs is stored at once without breaking the import (issue #12)."""

import sqlite3
import threading
import time

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import NOTHING, Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import CHUNK_ROWS, WritePath, chunks, write_rows
from litqeval_gui.core.records import ingest, matches, queries
from tests.support.paused import during_import, noted_rows


def _ris(path, title, doi):
    path.write_text(f"TY  - JOUR\nAU  - Roe, R\nTI  - {title}\nPY  - 2020\nDO  - {doi}\nER  - \n\n",
                    encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path):
    """A project with one uncertain match in topic T, writing through a WritePath."""
    project = Project.create(tmp_path / "p.litq")
    title = "Deep learning for screening of medical abstracts"
    for name, role, doi in (("core", "core", "10.1000/published"),
                             ("r1", "results", "10.1101/preprint")):
        run_job(ingest.import_file(project, _ris(tmp_path / f"{name}.ris", title, doi),
                                   topic="T", role=role, name=name))
    project.writes = WritePath(project)
    yield project
    project.writes.close()
    project.close()


def test_a_thread_using_another_threads_connection_fails_loudly(tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        errors = []

        def touch():
            try:
                project.db.execute("SELECT 1")
            except sqlite3.ProgrammingError as exc:
                errors.append(exc)

        worker = threading.Thread(target=touch)
        worker.start()
        worker.join()
        assert errors and "thread" in str(errors[0])


def test_a_write_transaction_takes_the_write_lock_when_it_begins(tmp_path):
    with Project.create(tmp_path / "p.litq") as project, project.sibling() as other:
        other.db.execute("PRAGMA busy_timeout = 0")
        with project.transaction():  # nothing written yet
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.db.execute("BEGIN IMMEDIATE")


def test_ops_run_in_order_on_one_thread_and_report_their_changes(tmp_path):
    seen, threads = [], set()
    with Project.create(tmp_path / "p.litq") as project:
        path = WritePath(project, listener=lambda changes, who: seen.append((changes, who)))
        project.writes = path

        def op(value):
            def write(p):
                threads.add(threading.get_ident())
                p.db["meta"].insert({"key": "k", "value": value}, replace=True)
                return Changes(parameters=True) if value == "2" else NOTHING
            return write

        futures = [path.submit(op(str(i)), initiator=i) for i in range(3)]
        assert [f.result() for f in futures] == [NOTHING, NOTHING, Changes(parameters=True)]
        assert seen == [(Changes(parameters=True), 2)]  # only what changed something
        assert threading.get_ident() not in threads and len(threads) == 1
        assert project.meta("k") == "2"
        with pytest.raises(RuntimeError, match="boom"):
            project.write(_fail)
        assert project.meta("k") == "2"  # a failed op leaves nothing
        path.close()


def _fail(p):
    p.db["meta"].insert({"key": "k", "value": "x"}, replace=True)
    raise RuntimeError("boom")


def test_chunks_cover_every_row_once():
    assert [list(c) for c in chunks(list(range(7)), 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunks([], 3)) == []


def _row_writer(order, first_row_taken=None, go_on=None):
    """A long writer's ``write``: notes each row it takes in ``order`` (the first one
    waits for ``go_on`` after setting ``first_row_taken``)."""
    def write(p, rows):
        for _row in noted_rows(rows, order, first_row_taken, go_on):
            pass
    return write


def test_a_long_writer_gives_way_after_the_row_it_is_writing(tmp_path):
    """A decision queued while a long writer's op runs waits for the row being written,
    not for the op's CHUNK_ROWS rows; then the writer goes on where it stopped."""
    rows = list(range(3 * CHUNK_ROWS))
    order, first_row_taken, go_on = [], threading.Event(), threading.Event()
    with Project.create(tmp_path / "p.litq") as project:
        path = WritePath(project)
        project.writes = path
        writer = threading.Thread(target=write_rows, args=(
            project, rows, _row_writer(order, first_row_taken, go_on)))
        writer.start()
        try:
            assert first_row_taken.wait(10)
            decision = path.submit(lambda p: order.append("decision") or NOTHING)
        finally:
            go_on.set()
            writer.join(10)
        assert decision.result(10) == NOTHING
        path.close()
    assert order.index("decision") == 1
    assert [row for row in order if row != "decision"] == rows


def test_alone_a_long_writer_takes_chunk_rows_rows_an_op(tmp_path):
    ops, order = [], []
    with Project.create(tmp_path / "p.litq") as project:
        path = WritePath(project, listener=None)
        project.writes = path
        run = path._run
        path._run = lambda *args: ops.append(len(order)) or run(*args)
        write_rows(project, list(range(2 * CHUNK_ROWS + 7)), _row_writer(order))
        path.close()
    assert ops == [0, CHUNK_ROWS, 2 * CHUNK_ROWS]  # rows written before each op began
    assert order == list(range(2 * CHUNK_ROWS + 7))


def test_two_long_writers_do_not_give_way_to_each_other(tmp_path):
    """Two imports at once: each op still takes CHUNK_ROWS rows (giving way row by row
    would commit once a row, both ways)."""
    first = [("a", i) for i in range(CHUNK_ROWS + 3)]
    second = [("b", i) for i in range(CHUNK_ROWS + 3)]
    order, first_row_taken, go_on = [], threading.Event(), threading.Event()
    with Project.create(tmp_path / "p.litq") as project:
        path = WritePath(project)
        project.writes = path
        writers = [threading.Thread(target=write_rows, args=(
            project, first, _row_writer(order, first_row_taken, go_on)))]
        writers[0].start()
        try:
            assert first_row_taken.wait(10)
            writers.append(threading.Thread(target=write_rows, args=(
                project, second, _row_writer(order))))
            writers[1].start()
            deadline = time.monotonic() + 10
            while not path._executor._work_queue.qsize() and time.monotonic() < deadline:
                time.sleep(0.001)  # until the second writer's op is queued
        finally:
            go_on.set()
            for writer in writers:
                writer.join(10)
        path.close()
    assert order[:CHUNK_ROWS] == first[:CHUNK_ROWS]
    assert order[CHUNK_ROWS:2 * CHUNK_ROWS] == second[:CHUNK_ROWS]
    assert sorted(order) == sorted(first + second)


def test_a_write_that_takes_no_rows_fails_instead_of_looping(tmp_path):
    with Project.create(tmp_path / "p.litq") as project, \
            pytest.raises(RuntimeError, match="none of its rows"):
        write_rows(project, [1, 2], lambda p, rows: None)


def _during_import(project, tmp_path, monkeypatch, phase, act):
    """:func:`during_import`, also counting how often the import regrouped its topic."""
    regroups = []
    regroup = ingest.works.regroup
    monkeypatch.setattr(ingest.works, "regroup",
                        lambda db, topic_id: regroups.append(topic_id) or regroup(db, topic_id))
    return (*during_import(project, tmp_path, monkeypatch, phase, act), regroups)


@pytest.mark.parametrize("phase", ["storing", "linking"])
def test_a_decision_during_a_large_import_is_stored_and_the_import_succeeds(
        project, tmp_path, monkeypatch, phase):
    [match] = matches.matches(project, "T", uncertain=True)
    changes, outcome, regroups = _during_import(
        project, tmp_path, monkeypatch, phase, lambda: project.write(matches.decide_op(match.id,
                                                                      accept=True)))
    assert changes == Changes(verdicts=True, works=True)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["result"].read == 3000
    assert matches.match(project, match.id).status == "confirmed"
    assert queries.find_list(project, "B", "big").records == 3000


@pytest.mark.parametrize("write", ["unrelated", "verdict"])
def test_only_a_write_that_can_change_works_makes_the_import_regroup(
        project, tmp_path, monkeypatch, write):
    """A write committed after the import planned its grouping: a verdict may change any
    grouping, so the import regroups its topic in full; a screening decision, a parameter,
    a stored vector… must not cost it that (0.5 s in one op at 200 000 records, during
    which every other write waits)."""
    [match] = matches.matches(project, "T", uncertain=True)
    acts = {"unrelated": lambda: project.write(lambda p: p.db.execute(
                "INSERT INTO meta (key, value) VALUES ('probe', '1')") and NOTHING),
            "verdict": lambda: project.write(matches.decide_op(match.id, accept=True))}
    plan, written = ingest.works.plan_regroup, []

    def planned_then_written(*args, **kwargs):  # first call: the import's, on its thread
        result = plan(*args, **kwargs)
        if not written:
            written.append(acts[write]())
        return result

    monkeypatch.setattr(ingest.works, "plan_regroup", planned_then_written)
    regroup = ingest.works.regroup
    _, outcome, regroups = _during_import(project, tmp_path, monkeypatch, "storing",
                                          lambda: None)
    assert "error" not in outcome, outcome.get("error")
    assert queries.find_list(project, "B", "big").records == 3000
    assert len(written) == 1 and len(regroups) == (write == "verdict")
    before = {r[0]: r[1] for r in project.db.execute("SELECT id, work_id FROM records")}
    regroup(project.db, project.topic_id("B"))  # the grouping equals a full regroup's
    assert {r[0]: r[1] for r in project.db.execute("SELECT id, work_id FROM records")} == before


@pytest.mark.parametrize(("with_write_path", "sync_every", "chunk_levels"), [
    (False, 3600, [1, 1, 1]), (True, 3600, [1, 1, 1]), (True, 0, [2, 2, 2])])
def test_a_long_writers_commits_are_synced_only_every_sync_every_seconds(
        tmp_path, monkeypatch, with_write_path, sync_every, chunk_levels):
    """A long writer's chunks commit with ``synchronous = NORMAL`` (a later, synced commit
    makes them durable) but once every ``SYNC_EVERY`` seconds; every other op, and the
    connection afterwards, stays FULL (2)."""
    import litqeval_gui.core.projectfile.writes as writes

    monkeypatch.setattr(writes, "SYNC_EVERY", sync_every)
    levels = []

    def noted(p, rows):
        levels.append(p.db.execute("PRAGMA synchronous").fetchone()[0])
        p.db.conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", rows)

    with Project.create(tmp_path / "p.litq") as project:
        if with_write_path:
            project.writes = WritePath(project)
        write_rows(project, [(f"k{i}", "v") for i in range(2 * CHUNK_ROWS + 1)], noted)
        project.write(lambda p: levels.append(
            p.db.execute("PRAGMA synchronous").fetchone()[0]) or NOTHING)
        if with_write_path:
            project.writes.close()
        assert levels == [*chunk_levels, 2]
        assert project.db.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert project.db.execute("SELECT COUNT(*) FROM meta WHERE value = 'v'"
                                  ).fetchone()[0] == 2 * CHUNK_ROWS + 1
