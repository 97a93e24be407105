"""The Qt-free screening session the screen, the CLI and the benchmarks drive: its state
follows each action at once, and a queued writer changes nothing of that."""

from __future__ import annotations

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.queue import Ordering
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening import screening_project


@pytest.fixture
def made(tmp_path):
    path, _ = screening_project(tmp_path, 6)
    project = Project.open(path)
    screening = store.create_screening(project, "T", "s", ["L"])
    yield project, screening
    project.close()


def _current(project, screening):
    return {e.record_id: (e.label, e.note, e.tags)
            for e in store.current_decisions(project, screening.id)}


def test_deciding_noting_tagging_and_taking_back_are_committed_at_once(made):
    project, screening = made
    session = ScreeningSession(project, screening, "Ada")
    items = store.items(project, screening.id)
    assert session.shown == items[0]
    session.set_note("  read later ")  # undecided: waits for the decision
    session.set_tags(("animal",))
    assert _current(project, screening) == {} and session.shown_tags() == ("animal",)
    event = session.decide("include")
    assert (event.record_id, event.label, event.note) == (items[0], "include", "read later")
    assert _current(project, screening) == {items[0]: ("include", "read later", ("animal",))}
    assert session.shown == items[1] and session.shown_tags() == () and session.relevant == 1
    session.decide("exclude", "wrong design")
    session.back()  # the last decided record, where a decision changes it
    assert session.shown == items[1]
    session.set_tags(("rct",))  # decided: stored at once as the same decision again
    assert _current(project, screening)[items[1]] == ("exclude", "", ("rct",))
    session.decide("maybe")  # keeps its tags; stepping forward leaves the history
    assert session.back_at is None and session.shown == items[2]
    assert _current(project, screening)[items[1]] == ("maybe", "", ("rct",))
    session.take_back()  # the change to maybe is undone: the record is shown, decided
    assert session.labels[items[1]] == "exclude" and session.shown == items[1]
    session.take_back(redo=True)
    assert _current(project, screening)[items[1]][0] == "maybe"


def test_a_queued_writer_sees_the_state_move_before_the_commit(made):
    project, screening = made
    queued: list = []
    session = ScreeningSession(project, screening, "Ada",
                               write=lambda op, then: queued.append((op, then)))
    items = store.items(project, screening.id)
    assert session.decide("include") is None  # not committed yet, no event
    assert session.shown == items[1] and session.labels == {items[0]: "include"}
    assert _current(project, screening) == {}
    for op, then in queued:
        result = project.write(op)
        if then is not None:
            then(result)
    assert _current(project, screening) == {items[0]: ("include", "", ())}


def test_a_new_ordering_keeps_the_shown_record_only_when_asked(made):
    project, screening = made
    items = store.items(project, screening.id)
    reverse = Ordering("model", tuple(reversed(items)), "logistic")
    session = ScreeningSession(project, screening, "Ada")
    session.switch(reverse)  # a reviewer reading a record keeps it on screen
    assert session.shown == items[0]
    event = session.decide("exclude")
    assert (event.ordering, event.position, event.model) == ("model", len(items), "logistic")
    assert session.shown == items[-1]
    session.switch(Ordering("list", tuple(items)), keep_shown=False)
    assert session.shown == items[1]


def test_a_session_without_a_reviewer_or_records_refuses_to_decide(made):
    project, screening = made
    with pytest.raises(LitqError, match="reviewer"):
        ScreeningSession(project, screening, " ").decide("include")
    session = ScreeningSession(project, screening, "Ada")
    for _ in store.items(project, screening.id):
        session.decide("exclude")
    assert session.shown is None
    with pytest.raises(LitqError, match="every record"):
        session.decide("include")
    session.reload(session.queue.ordering)  # read back from the file: the same state
    assert session.screened == len(store.items(project, screening.id))
