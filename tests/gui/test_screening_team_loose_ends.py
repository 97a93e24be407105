"""Issue 25's loose ends in the screener and the conflicts screen: the decision line names
whose each label is (not in a blind screening), "not retrieved" is written out, the
conflicts screen resolves a full-text exclusion with a reason and a report not retrieved
by U, and the screener's exports and its simulation read a blind screening as the
reviewer does (their own decisions)."""

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.simulation.simulation_band import LabelSource, source_labels
from litqeval_gui.gui.screens.conflicts import ConflictsView
from litqeval_gui.gui.screens.conflicts import view as conflicts_view
from litqeval_gui.gui.screens.screening import simulation
from litqeval_gui.gui.screens.screening.decision_line import decision_text
from litqeval_gui.gui.screens.screening.history import HistoryList, audit_rows
from litqeval_gui.gui.screens.screening.team_limit import CONFLICTS
from litqeval_gui.gui.screens.screening.view import ScreeningView
from litqeval_gui.gui.session import ProjectSession
from tests.support.screening import screening_project
from tests.support.screening_screen import settle

REASONS = ("wrong population", "wrong outcome")


def test_the_decision_line_by_hand():
    assert decision_text("include", {"Ann": "include", "Bo": "exclude"}, "Ann") == (
        "Current decisions: <b>include</b> (you); <b>exclude</b> (Bo)")
    assert decision_text("exclude", {"Bo": "exclude"}, "Ann", "a & b") == (
        "Current decision: <b>exclude</b> (Bo) · note: a &amp; b")
    assert decision_text("not_retrieved", {"Ann": "not_retrieved"}, "Ann") == (
        "Current decision: <b>not retrieved</b>")
    assert decision_text("maybe", {}, "Ann") == "Current decision: <b>maybe</b>"
    assert decision_text(None, {}, "Ann", "later") == "Not decided yet · note: later"


def _decide_as(project, name, reviewer, decisions):
    """``decisions`` = (item index, label, reason) written as ``reviewer`` in ``project``
    (a path, or an open project whose second connection is used, as a merge would)."""
    other = Project.open(project) if isinstance(project, Path) else project.sibling()
    try:
        screening = store.find_screening(other, "T", name)
        ids = store.items(other, screening.id)
        for index, label, reason in decisions:
            other.write(store.decide_op(screening, ids[index], label,
                                        store.Context(reviewer), reason=reason))
        return ids
    finally:
        other.close()


@pytest.mark.parametrize("blind", [False, True])
def test_the_screener_says_whose_decision_it_shows(qtbot, session, made, blind):
    screening = store.create_screening(session.project, "T", "team", ["L"], blind=blind)
    ids = store.items(session.project, screening.id)
    view = ScreeningView(session, screening)  # the settings' reviewer: Ann
    qtbot.addWidget(view)
    view.decide("exclude")
    settle(qtbot, session)
    _decide_as(session.project, "team", "Bo", [(0, "include", ""), (1, "maybe", "")])
    view.core.refresh()
    view.go_to(ids[0])
    text = view.decision_label.text()
    if blind:
        assert text == "Current decision: <b>exclude</b>"
    else:
        assert text == "Current decisions: <b>exclude</b> (you); <b>include</b> (Bo)"
    if not blind:  # decided by Bo alone: Ann's next record, his label named
        view.forward()
        assert view.shown == ids[1]
        assert view.decision_label.text() == "Current decision: <b>maybe</b> (Bo)"
    view.close()


def test_history_and_audit_write_not_retrieved_out(qtbot, made):
    history = HistoryList(lambda _record: None)
    qtbot.addWidget(history)
    history.show_history([(7, "not_retrieved", "A trial", ()), (8, "exclude", "B", ())])
    assert [history.list.item(i).text() for i in range(2)] == [
        "[exclude]  B", "[not retrieved]  A trial"]
    with Project.open(made[0]) as project:
        screening = store.create_screening(project, "T", "FT", ["L"], phase="full_text",
                                           reasons=REASONS)
        record = store.items(project, screening.id)[0]
        project.write(store.decide_op(screening, record, "not_retrieved",
                                      store.Context("Ann")))
        (row,) = audit_rows(store.record_history(project, screening.id, record))
    assert row[2] == "not retrieved"


@pytest.fixture
def full_text_conflicts(tmp_path):
    """A full-text screening FT of six records: Ada includes the first three, Bob
    excludes the first (wrong outcome) and reports the other two not retrieved."""
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        store.create_screening(project, "T", "FT", ["L"], phase="full_text", reasons=REASONS)
    _decide_as(path, "FT", "Ada", [(i, "include", "") for i in range(3)])
    ids = _decide_as(path, "FT", "Bob", [(0, "exclude", "wrong outcome"),
                                         (1, "not_retrieved", ""), (2, "not_retrieved", "")])
    session = ProjectSession(Project.open(path))
    yield session, ids
    assert session.close()


def _shown_conflicts(qtbot, session) -> ConflictsView:
    view = ConflictsView(session, store.find_screening(session.project, "T", "FT"))
    qtbot.addWidget(view)
    session.changed.connect(view.project_changed)  # as the window connects its tabs
    view.resize(1000, 600)
    with qtbot.waitActive(view):
        view.show()
        view.activateWindow()
    return view


def _resolutions(session):
    screening = store.find_screening(session.project, "T", "FT")
    return [(e.record_id, e.label, e.reason, e.reviewer)
            for e in store.events(session.project, screening.id, "resolve")]


def test_conflicts_at_full_text_resolve_with_a_reason_and_as_not_retrieved(
        qtbot, full_text_conflicts, monkeypatch, shown_errors):
    session, ids = full_text_conflicts
    view = _shown_conflicts(qtbot, session)
    assert [c.record_id for c in view.found] == ids[:3]
    cells = [view.table.item(1, c).text() for c in range(view.table.columnCount())]
    assert cells[1:4] == ["include", "not retrieved", "open"]
    assert "U not retrieved" in view.key_map.text()
    agreement = view.agreement.text.toPlainText()
    assert "not retrieved" in agreement and "not_retrieved" not in agreement
    picked = iter(["", "no English full text"])  # cancelled, then a new reason typed
    asked = []
    monkeypatch.setattr(conflicts_view, "pick_reason",
                        lambda reasons, _parent: asked.append(tuple(reasons)) or next(picked))

    qtbot.keyClick(view, Qt.Key.Key_E)  # cancelled: nothing written
    settle(qtbot, session)
    assert _resolutions(session) == [] and asked == [REASONS]
    qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    assert shown_errors == [], asked
    qtbot.waitUntil(lambda: len(view.found) == 2, timeout=60_000)
    assert view.selected_record() == ids[1]
    qtbot.keyClick(view, Qt.Key.Key_U, Qt.KeyboardModifier.ShiftModifier)  # as consensus
    qtbot.waitUntil(lambda: len(view.found) == 1, timeout=60_000)
    assert _resolutions(session) == [
        (ids[0], "exclude", "no English full text", "consensus"),
        (ids[1], "not_retrieved", "", "consensus")]
    stored = store.find_screening(session.project, "T", "FT")
    assert stored.reasons == (*REASONS, "no English full text")
    final = team.final_decisions(session.project, stored.id)
    assert (final[ids[0]], final[ids[1]]) == ("exclude", "not_retrieved")
    assert ids[2] not in final
    view.shown_kind.setCurrentIndex(1)  # resolved ones too: written out
    view.table.selectRow(1)
    assert view.table.item(1, 3).text() == "not retrieved (consensus)"
    assert "Resolved: not retrieved by consensus" in view.detail.toPlainText()
    assert shown_errors == []
    view.close()


def test_the_screener_limited_to_full_text_conflicts_writes_not_retrieved_out(
        qtbot, full_text_conflicts):
    session, ids = full_text_conflicts
    view = ScreeningView(session, store.find_screening(session.project, "T", "FT"))
    qtbot.addWidget(view)
    view.core.reviewer = "Ada"
    view.team_limit.limit_to(CONFLICTS)
    assert view.shown == ids[0]
    assert view.decision_label.text() == (
        "Current decisions: <b>include</b> (you); <b>exclude</b> (Bob)")
    view.decide("include")  # Ada keeps hers: the limit goes on to the next conflict
    qtbot.waitUntil(lambda: view.team_limit.status.text().startswith("2 of 3"), timeout=60_000)
    assert view.shown == ids[1]
    assert view.team_limit.status.text() == (
        "2 of 3 — Ada: <b>include</b> · Bob: <b>not retrieved</b>")
    assert view.decision_label.text() == (
        "Current decisions: <b>include</b> (you); <b>not retrieved</b> (Bob)")
    view.close()


@pytest.fixture
def blind_project(tmp_path):
    """Blind screening B of six records: Ann includes the first two and excludes the
    rest; Bo includes all six."""
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        store.create_screening(project, "T", "B", ["L"], blind=True)
        store.create_screening(project, "T", "S", ["L"])
    _decide_as(path, "B", "Ann", [(i, "include" if i < 2 else "exclude", "") for i in range(6)])
    ids = _decide_as(path, "B", "Bo", [(i, "include", "") for i in range(6)])
    return path, ids


def _decisions_in(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return [(row["decision"], row["reviewer"]) for row in csv.DictReader(handle)]


def test_the_screeners_export_of_a_blind_screening_is_the_reviewers_own(
        qtbot, blind_project, tmp_path):
    path, _ = blind_project
    session = ProjectSession(Project.open(path))
    try:
        view = ScreeningView(session, store.find_screening(session.project, "T", "B"))
        qtbot.addWidget(view)
        view.core.reviewer = "Ann"
        assert view.export_writer(tmp_path / "ann.csv", "csv") == 6
        assert _decisions_in(tmp_path / "ann.csv") == [("include", "Ann")] * 2 + [
            ("exclude", "Ann")] * 4
        view.close()
    finally:
        assert session.close()


def test_labels_from_a_blind_screening_are_the_reviewers_own(qtbot, blind_project,
                                                              monkeypatch):
    path, ids = blind_project
    with Project.open(path, readonly=True) as project:
        target = store.find_screening(project, "T", "S")
        source = LabelSource("screening", "B")
        assert source_labels(project, target, source, ids, "Ann").tolist() == [
            True, True, False, False, False, False]
        assert source_labels(project, target, source, ids, "Bo").tolist() == [True] * 6
        with pytest.raises(LitqError, match="has not decided 4 of the 6"):
            source_labels(project, target, source, ids)  # unresolved conflicts
    session = ProjectSession(Project.open(path))
    try:
        view = ScreeningView(session, store.find_screening(session.project, "T", "S"))
        qtbot.addWidget(view)
        view.core.reviewer = "Ann"
        asked = {}
        monkeypatch.setattr(session.jobs, "run", lambda *a, **k: None)
        monkeypatch.setattr(simulation, "simulation_job",
                            lambda _s, _scr, src, **settings: asked.update(settings, src=src))
        dialog = view.open_simulation()
        dialog.sources.setCurrentIndex(dialog.sources.findText(source.text))
        dialog.run()
        assert (asked["src"], asked["reviewer"]) == (source, "Ann")
        dialog.close()
        view.close()
        QApplication.processEvents()
    finally:
        assert session.close()
