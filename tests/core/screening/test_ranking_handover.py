"""What a ranking job hands the screen: the ranking stored as the asker's write, and one
ordering per ranking whose position index the queue reuses instead of rebuilding it."""

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import WritePath
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import screening_features
from litqeval_gui.core.screening.ranking.queue import Ordering, Queue, first_of
from litqeval_gui.core.screening.ranking.retrain import retrain, stored_ranking
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening import screening_project


def test_the_queue_uses_the_orderings_index_and_first_of_completes_it():
    ordering = Ordering("model", (30, 10, 20), "logistic", "t")
    assert ordering.index == {30: 0, 10: 1, 20: 2}
    queue = Queue(ordering, decided=[30, 99])
    assert queue._position is ordering.index  # shared, not rebuilt
    assert (queue.next(), queue.remaining, queue.position(20)) == (10, 2, 3)
    assert first_of(ordering, [10, 20, 30]) is ordering  # nothing lacking: unchanged
    grown = first_of(ordering, [40, 10, 20, 50, 30], first=[20, 50])
    assert grown.records == (20, 50, 30, 10, 40) and grown.index[40] == 4
    assert ordering.index == {30: 0, 10: 1, 20: 2}  # the original is untouched


def test_retrain_stores_the_ranking_as_the_initiators_write(tmp_path):
    path, labels = screening_project(tmp_path, 80, 0.2, seed=4)
    project = Project.open(path)
    heard = []
    project.writes = WritePath(project, listener=lambda changes, who: heard.append((changes, who)))
    try:
        screening = store.create_screening(project, "T", "s", ["L"])
        features = run_job(screening_features(project, screening))
        screener = ScreeningSession(project, screening, "Ada")
        items = store.items(project, screening.id)
        for record, label in list(zip(items, labels, strict=True))[:20]:
            screener.decide("include" if label else "exclude", record_id=record)
        heard.clear()
        ranking = run_job(retrain(project, screening, features, initiator="the screen"))
    finally:
        project.writes.close()
        project.writes = None
    try:
        assert [(changes.decisions, who) for changes, who in heard] == [(True, "the screen")]
        assert stored_ranking(project, screening.id).records == ranking.records
        ordering = ranking.ordering()
        assert ordering is ranking.ordering()  # one per ranking: its index built once
        assert ordering.index == {r: i for i, r in enumerate(ranking.records)}
    finally:
        project.close()
