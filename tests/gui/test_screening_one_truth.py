"""The screener counts what the exports and PRISMA count: a resolved conflict by its
resolution, an open one as in conflict; and Topic ▸ Finish Screening Round… records the
finish, after which PRISMA counts the unscreened records as excluded by automation; a
record that passes title/abstract after the full text started is offered to it."""

from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from litqeval_gui.cli.screen import status
from litqeval_gui.core.screening.export import decided_records
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_counts
from litqeval_gui.core.screening.stopping.finishing import finishes
from litqeval_gui.gui.screens.screening.view import ScreeningView
from tests.support.screening_screen import screening_view, settle


def _colleague(session, screening, labels):
    """Bob's decisions on the first records, as a merge would bring them."""
    items = store.items(session.project, screening.id)
    for record, label in zip(items, labels, strict=False):
        session.writes.submit(store.decide_op(screening, record, label,
                                              store.Context("Bob"))).result()


def test_the_counts_take_resolutions_and_show_open_conflicts(qtbot, session, made):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)
    for key in (Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_E, Qt.Key.Key_I):
        qtbot.keyClick(view, key)
    settle(qtbot, session)
    screening = view.screening
    _colleague(session, screening, ["include", "include", "include", "exclude"])
    items = store.items(session.project, screening.id)
    # conflicts on the 2nd, 3rd and 4th records; the 2nd resolved include
    session.writes.submit(store.resolve_op(screening, items[1], "include",
                                           "consensus")).result()
    view.refresh_panel()
    qtbot.waitUntil(lambda: "in conflict" in view.progress.counts.text(), timeout=60_000)
    text = view.progress.counts.text()
    assert "<b>2</b> included" in text and "<b>0</b> excluded" in text
    assert "<b>2</b> in conflict" in text
    document = status(session.project, screening)
    exported = Counter(row["decision"] for row in decided_records(session.project,
                                                                  screening)[1])
    assert (document["labels"]["include"], document["labels"]["exclude"],
            document["conflicts"]) == (2, 0, 2)
    assert (exported["include"], exported["exclude"], exported["conflict"]) == (2, 0, 2)
    counts = prisma_counts(session.project, "T")
    assert counts.pending_screening == {"in conflict": 2} and counts.screened == 4
    assert counts.sought == 2 and counts.unbalanced() == []


def test_finish_screening_round_is_asked_recorded_and_counted(qtbot, session, made,
                                                              monkeypatch):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    view.refresh_panel()
    qtbot.waitUntil(lambda: view.round_finish.panel is not None
                    and view.round_finish.panel.screened == 2, timeout=60_000)
    assert view.round_finish.action in view.screen_actions()
    asked = []

    def answer(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.No if len(asked) == 1 else \
            QMessageBox.StandardButton.Yes
    monkeypatch.setattr(QMessageBox, "question", staticmethod(answer))
    before = prisma_counts(session.project, "T")
    view.round_finish.action.trigger()  # answered No: nothing is written
    settle(qtbot, session)
    assert finishes(session.project, view.screening.id) == {}
    unscreened = view.screening.size - 2
    assert f"Its {unscreened:,} records not screened" in asked[0]
    assert "Hypergeometric test still says keep screening" in asked[0]  # the recommended
    view.round_finish.action.trigger()
    qtbot.waitUntil(lambda: not view.round_finish.action.isEnabled(), timeout=60_000)
    (finish,) = finishes(session.project, view.screening.id).values()
    assert (finish.round, finish.reviewer, finish.screened, finish.items, finish.stop) == (
        1, "Ann", 2, view.screening.size, False)
    qtbot.waitUntil(lambda: view.progress.finished.text().startswith(
        "Round 1 finished by Ann on "), timeout=60_000)
    after = prisma_counts(session.project, "T")
    assert (before.not_yet_screened, before.removed_automation) == (unscreened, 0)
    assert (after.not_yet_screened, after.removed_automation) == (0, unscreened)
    assert after.notes()[0] == finish.text() and after.unbalanced() == []


def test_records_passed_late_are_offered_to_the_running_full_text(qtbot, session, made):
    screening = store.find_screening(session.project, "T", "S")
    items = store.items(session.project, screening.id)
    for reviewer, labels in (("Ann", ["include", "include", "exclude"]),
                             ("Bob", ["include", "exclude", "exclude"])):
        for record, label in zip(items, labels, strict=False):
            session.writes.submit(store.decide_op(screening, record, label,
                                                  store.Context(reviewer))).result()
    fulltext = create_fulltext_screening(session.project, screening, "F")
    assert store.items(session.project, fulltext.id) == [items[0]]  # the conflict waits
    view = ScreeningView(session, fulltext)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    session.changed.connect(view.project_changed)
    assert view.late_records.bar.isHidden()
    session.write(store.resolve_op(screening, items[1], "include", "consensus"))
    qtbot.waitUntil(lambda: not view.late_records.bar.isHidden(), timeout=60_000)
    assert view.late_records.text.text().startswith("<b>1</b> record(s) passed")
    assert prisma_counts(session.project, "T").pending_sought == {
        "not yet in the full-text screening": 1, "not yet decided": 1}
    qtbot.mouseClick(view.late_records.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.screening.size == 2, timeout=60_000)
    qtbot.waitUntil(lambda: view.late_records.bar.isHidden(), timeout=60_000)
    assert store.items(session.project, fulltext.id) == [items[0], items[1]]
    counts = prisma_counts(session.project, "T")
    assert counts.pending_sought == {"not yet decided": 2} and counts.unbalanced() == []
