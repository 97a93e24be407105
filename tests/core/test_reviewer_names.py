"""The reviewers a project's screenings name: everyone who decided, in any screening,
sorted; a resolution's "consensus" is no reviewer."""

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.reviewers import reviewer_names
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening import screening_project


def test_the_names_of_everyone_who_decided_in_any_screening(tmp_path):
    path, _ = screening_project(tmp_path, 12)
    with Project.open(path) as project:
        first = store.create_screening(project, "T", "S", ["L"])
        second = store.create_screening(project, "T", "S2", ["L"])
        assert reviewer_names(project) == []
        items = store.items(project, first.id)
        ScreeningSession(project, first, "bo").decide("include", record_id=items[0])
        ann = ScreeningSession(project, second, "Ann")
        ann.decide("exclude", record_id=items[0])
        ann.take_back()  # undone: Ann has still decided in this project
        ScreeningSession(project, first, "Ann").decide("exclude", record_id=items[0])
        project.write(store.resolve_op(first, items[0], "include", "consensus"))
        assert reviewer_names(project) == ["Ann", "bo"]
