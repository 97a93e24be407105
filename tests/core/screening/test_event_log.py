"""The decision event log: undo/redo/change are events, the current decision is derived
(views), checked against a plain replay of the same actions (hypothesis)."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Context
from tests.support.screening import screening_project

ME = Context(reviewer="Ada", ordering="list")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    path, _ = screening_project(tmp_path_factory.mktemp("log"), 40)
    with Project.open(path) as project:
        yield project


_names = itertools.count()


def _new(project, **options):
    return store.create_screening(project, "T", f"s{next(_names)}", ["L"], **options)


def _current(project, screening):
    return [(e.record_id, e.label) for e in store.current_decisions(project, screening.id)]


def test_a_screening_has_one_item_per_work_in_list_order(project):
    screening = _new(project)
    assert screening.size == 40
    assert store.items(project, screening.id) == [r[0] for r in project.db.execute(
        "SELECT id FROM records ORDER BY rank")]
    narrowed = _new(project, record_filter=RecordFilter(text="a", year_min=2005))
    recent = project.db.execute("SELECT id FROM records WHERE year >= 2005 AND "
                                "(title LIKE '%a%' OR abstract LIKE '%a%') ORDER BY rank")
    assert store.items(project, narrowed.id) == [row[0] for row in recent]
    assert 0 < narrowed.size < 40


def test_decide_change_undo_redo_sequence(project):
    screening = _new(project)
    a, b = store.items(project, screening.id)[:2]
    project.write(store.decide_op(screening, a, "include", ME, reason="", note="looks good"))
    project.write(store.decide_op(screening, b, "exclude", ME, reason="wrong population"))
    project.write(store.decide_op(screening, a, "maybe", ME))  # a change keeps a's place
    assert _current(project, screening) == [(a, "maybe"), (b, "exclude")]
    undone = project.write(store.undo_op(screening, ME)).value
    assert (undone.kind, undone.record_id) == ("undo", a)
    assert _current(project, screening) == [(a, "include"), (b, "exclude")]
    project.write(store.undo_op(screening, ME))
    assert _current(project, screening) == [(a, "include")]
    project.write(store.redo_op(screening, ME))
    assert _current(project, screening) == [(a, "include"), (b, "exclude")]
    project.write(store.decide_op(screening, b, "include", ME))  # a change after an undo/redo
    assert project.write(store.redo_op(screening, ME)).value is None  # a new decision clears the redo stack
    assert _current(project, screening) == [(a, "include"), (b, "include")]
    history = store.record_history(project, screening.id, b)
    assert [e.kind for e in history] == ["decide", "undo", "redo", "decide"]
    assert history[0].reason == "wrong population" and history[0].reviewer == "Ada"
    assert [e.label for e in history] == ["exclude", "", "", "include"]
    assert store.record_history(project, screening.id, a)[0].note == "looks good"


def test_nothing_to_undo_writes_no_event(project):
    screening = _new(project)
    assert project.write(store.undo_op(screening, ME)).value is None
    assert project.write(store.redo_op(screening, ME)).value is None
    assert store.events(project, screening.id) == []


def test_bad_decisions_are_refused_and_change_nothing(project):
    screening = _new(project, scheme="graded")
    record = store.items(project, screening.id)[0]
    with pytest.raises(LitqError, match="not a label of a graded screening"):
        project.write(store.decide_op(screening, record, "include", ME))
    with pytest.raises(LitqError, match="not in screening"):
        project.write(store.decide_op(screening, -5, "2", ME))
    with pytest.raises(LitqError, match="reviewer"):
        project.write(store.decide_op(screening, record, "2", Context(reviewer=" ")))
    assert store.events(project, screening.id) == []
    event = project.write(store.decide_op(
        screening, record, "3", Context("Ada", "model", 7, "logistic", ("rct", "child")))).value
    assert (event.label, event.position, event.model, event.tags) == ("3", 7, "logistic",
                                                                     ("rct", "child"))
    assert event.phase == "title_abstract" and event.ordering == "model"


def _replay(actions):
    """The plain model: a stack of decisions taken back by undo, put back by redo."""
    done, undone, labels, first = [], [], {}, {}
    stacks: dict[int, list[int]] = {}
    for number, action in enumerate(actions):
        if action[0] == "decide":
            _, record, label = action
            labels[number] = label
            stacks.setdefault(record, []).append(number)
            done.append((record, number))
            undone.clear()
        elif action[0] == "undo" and done:
            record, number = done.pop()
            stacks[record].remove(number)
            undone.append((record, number))
        elif action[0] == "redo" and undone:
            record, number = undone.pop()
            stacks[record].append(number)
            stacks[record].sort()
            done.append((record, number))
    for record, stack in stacks.items():
        if stack:
            first[record] = (stack[0], labels[stack[-1]])
    return [(record, label) for record, (_, label) in sorted(first.items(),
                                                             key=lambda kv: kv[1][0])]


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("decide"), st.integers(0, 3), st.sampled_from(["include", "exclude",
                                                                      "maybe"])),
    st.tuples(st.just("undo")), st.tuples(st.just("redo"))), max_size=25)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_the_derived_current_decisions_equal_a_plain_replay(project, actions):
    screening = _new(project)
    records = store.items(project, screening.id)[:4]
    for action in actions:
        if action[0] == "decide":
            project.write(store.decide_op(screening, records[action[1]], action[2], ME))
        elif action[0] == "undo":
            project.write(store.undo_op(screening, ME))
        else:
            project.write(store.redo_op(screening, ME))
    expected = [(records[index], label) for index, label in _replay(actions)]
    assert _current(project, screening) == expected
    log = store.events(project, screening.id)
    assert [e.id for e in log] == sorted(e.id for e in log)  # append-only, in order


def test_the_union_of_lists_screens_each_work_once(tmp_path, small_files):
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.records import ingest

    core, results = small_files
    with Project.create(tmp_path / "u.litq") as project:
        run_job(ingest.import_file(project, core, topic="T", role="core", name="core"))
        run_job(ingest.import_file(project, results, topic="T", role="results", name="scopus"))
        one = store.create_screening(project, "T", "one", ["scopus"])
        both = store.create_screening(project, "T", "both", ["scopus", "core"])
        assert one.size == 4  # 5 rows, one of them the same work twice
        assert both.size == 5  # plus core.2, the one core work scopus misses
        works = [project.db.execute("SELECT work_id FROM records WHERE id = ?", [r]).fetchone()[0]
                 for r in store.items(project, both.id)]
        assert len(set(works)) == 5
        assert store.items(project, both.id)[:4] == store.items(project, one.id)


def test_screening_over_chosen_records_grows_by_append(tmp_path):
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        ids = [row[0] for row in project.db.execute("SELECT id FROM records ORDER BY rank")]
        screening = store.create_screening(project, "T", "grown", ["L"], records=[])
        assert screening.size == 0
        added = []
        project.write(lambda p: added.append(
            store.append_items(p, screening.id, [ids[2], ids[0], ids[2]])) or
            store.DECISIONS)
        project.write(lambda p: added.append(
            store.append_items(p, screening.id, [ids[0], ids[5]])) or
            store.DECISIONS)
        assert added == [2, 1]
        assert store.items(project, screening.id) == [ids[2], ids[0], ids[5]]


def test_a_reviewer_undoes_and_redoes_only_their_own_decisions(project):
    """After a colleague's decisions were merged in, Undo takes back one's own latest."""
    screening = store.create_screening(project, "T", "s", ["L"])
    a, b = store.items(project, screening.id)[:2]
    bo = Context(reviewer="Bo")
    project.write(store.decide_op(screening, a, "include", ME))
    project.write(store.decide_op(screening, b, "exclude", bo))  # Bo's, made later
    undone = project.write(store.undo_op(screening, ME)).value
    assert (undone.record_id, undone.reviewer) == (a, "Ada")
    assert store.current_label(project, screening.id, b) == "exclude"  # Bo's stays
    assert project.write(store.undo_op(screening, ME)).value is None  # nothing more of Ada's
    assert project.write(store.redo_op(screening, bo)).value is None  # Bo undid nothing
    redone = project.write(store.redo_op(screening, ME)).value
    assert (redone.record_id, store.current_label(project, screening.id, a)) == (a, "include")
