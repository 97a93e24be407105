"""The overview screen shows a topic's lists with their recall, its screenings and pools,
and follows decisions as they are made."""

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.topics import TOPIC, build_topic


def _rows(table):
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_the_overview_counts_lists_recall_and_screening_progress(window, tmp_path, qtbot, shot):
    path = build_topic(tmp_path / "t.litq", n_core=20, found=15, extra=85, noise=0)
    with Project.open(path) as project:
        screening = store.create_screening(project, TOPIC, "first pass", ["clean"])
    window.show()  # a hidden screen refreshes when next shown; this one is shown
    assert window.open_project(path)
    view = window.open_screen("overview", TOPIC)
    assert view.title == f"Overview: {TOPIC}"
    # core: 20 records, 20 works; clean: 15 core + 85 others = 100 works, recall 15/20
    assert _rows(view.lists) == [["core", "core set", "", "20", "20", "", ""],
                                 ["clean", "result list", "", "100", "100", "0.750",
                                  "15 of 20"]]
    assert _rows(view.screenings) == [["first pass", "title abstract", "0", "100", "0", "0"]]
    assert _rows(view.pools) == []
    writer = window.session.project.sibling()
    try:
        session = ScreeningSession(writer, screening, "Ann")
        for label in ("include", "exclude", "include"):
            session.decide(label)
    finally:
        writer.close()
    qtbot.waitUntil(lambda: _rows(view.screenings)[0][2] == "3", timeout=60_000)
    assert _rows(view.screenings) == [["first pass", "title abstract", "3", "100", "2", "0"]]
    shot(view, "overview")


def test_the_overview_counts_a_blind_screening_as_the_reviewer_sees_it(window, tmp_path):
    path = build_topic(tmp_path / "t.litq", n_core=5, found=5, extra=5, noise=0)
    with Project.open(path) as project:
        screening = store.create_screening(project, TOPIC, "blind", ["clean"], blind=True)
        first, second = store.items(project, screening.id)[:2]
        for reviewer, label in (("Ann", "include"), ("Bob", "exclude")):
            project.write(store.decide_op(screening, first, label, store.Context(reviewer)))
        project.write(store.decide_op(screening, second, "include", store.Context("Bob")))
    window.settings.reviewer = "Ann"
    window.settings.save()
    window.show()
    assert window.open_project(path)
    view = window.open_screen("overview", TOPIC)
    # Ann sees her one include; Bob's two decisions and the conflict stay hidden
    assert _rows(view.screenings) == [["blind", "title abstract", "1", "10", "1", ""]]
    window.session.writes.run(store.unblind_op(screening, "Ann"))
    view.refresh()
    # unblinded: 2 records decided; the first in conflict (open), the second Bob's include
    assert _rows(view.screenings) == [["blind", "title abstract", "2", "10", "1", "1"]]
