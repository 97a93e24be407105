"""Two reviewers screen copies of one project in the app, export their decisions and
merge them (File ▸ Export My Decisions… / Merge Decisions…, the functions the actions
call, without their file dialogs), then a conflict is resolved in the conflicts screen
from the keyboard and the agreement shown is checked; the screener limited to conflicts
and to records one reviewer has seen; screenshots of the conflicts screen and the
agreement panel in both themes (issue 25)."""

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from sklearn.metrics import cohen_kappa_score

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui import team_exchange
from litqeval_gui.gui.screens.conflicts import ConflictsView
from litqeval_gui.gui.screens.conflicts.agreement_panel import AgreementPanel
from litqeval_gui.gui.screens.conflicts.view import EVERY
from litqeval_gui.gui.screens.screening.team_limit import CONFLICTS, SEEN_BY_ONE
from litqeval_gui.gui.session import ProjectSession
from tests.gui.themed import shoot_both
from tests.support.pages import sidebar_index
from tests.support.screening import screening_project
from tests.support.screening_screen import settle

KEYS = {"include": Qt.Key.Key_I, "exclude": Qt.Key.Key_E, "maybe": Qt.Key.Key_M}
# conflicts at the 3rd (include/exclude), 6th (exclude/include) and 7th (maybe/include)
# record; Bob also decides a 9th. Table (rows Ada, columns Bob; include, exclude, maybe):
# ((2, 1, 0), (1, 3, 0), (1, 0, 0)): p_o = 5/8, p_e = 7/16, κ = 1/3.
ADA = ["include", "exclude", "include", "exclude", "include", "exclude", "maybe", "exclude"]
BOB = ["include", "exclude", "exclude", "exclude", "include", "include", "include", "exclude",
       "include"]


@pytest.fixture
def copies(tmp_path):
    """One project (topic T, list L of 12 records, screening S) and two copies of it."""
    path, _ = screening_project(tmp_path, 12)
    with Project.open(path) as project:
        store.create_screening(project, "T", "S", ["L"])
    assert not path.with_name(path.name + "-wal").exists()
    made = {}
    for name in ("Ada", "Bob"):
        made[name] = tmp_path / f"{name}.litq"
        shutil.copy(path, made[name])
    return made


def _as(window, qtbot, path, reviewer, name="S"):
    """``window`` on ``path`` with ``reviewer`` in its settings, shown and active; its
    screening ``name``."""
    window.settings.reviewer = reviewer
    window.settings.save()
    assert window.open_project(path)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    return store.find_screening(window.session.project, "T", name)


def _screen(window, qtbot, path, reviewer, labels, tmp_path):
    """``reviewer`` decides the first records by key, then exports their decisions."""
    screening = _as(window, qtbot, path, reviewer)
    view = window.open_screen("screening", screening)
    assert view.core.reviewer == reviewer
    for label in labels:
        qtbot.keyClick(view, KEYS[label])
    settle(qtbot, window.session)
    exported = team_exchange.export_my_decisions(window, tmp_path / f"{reviewer}.jsonl")
    assert exported is not None and exported.is_file()
    return exported


def _merge(window, qtbot, source):
    """Merge ``source``; the report's text (None when it failed), its box closed."""
    handle = team_exchange.merge_into_project(window, source)
    assert handle is not None
    qtbot.waitUntil(lambda: not handle.running, timeout=60_000)
    settle(qtbot, window.session)
    box = window.merge_report
    if box is None:
        return None
    text = box.text()
    box.accept()  # the window is active again: its screens' keys work
    with qtbot.waitActive(window):
        window.activateWindow()
    return text


def _rows(table):
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_two_reviewers_merge_resolve_and_read_their_agreement(
        window, qtbot, copies, tmp_path, shown_errors, shot):
    _screen(window, qtbot, copies["Ada"], "Ada", ADA, tmp_path)
    bob_file = _screen(window, qtbot, copies["Bob"], "Bob", BOB, tmp_path)

    screening = _as(window, qtbot, copies["Ada"], "Ada")
    project = window.session.project
    ids = store.items(project, screening.id)
    text = _merge(window, qtbot, bob_file)
    assert "9 event(s) added, 0 already present, 0 not matched" in text
    assert "Conflicts: 0 before, 3 after (3 new)" in text
    assert "0 event(s) added, 9 already present" in _merge(window, qtbot, bob_file)

    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"format": "something else"}\n', encoding="utf-8")
    events = len(store.events(project, screening.id))
    assert _merge(window, qtbot, foreign) is None
    (title, message, _details), = shown_errors
    assert title == "Nothing was merged" and "\n" not in message
    assert len(store.events(project, screening.id)) == events
    shown_errors.clear()

    view = window.open_screen("conflicts", screening)
    assert view.title == "Conflicts: S of T"
    assert [row[:4] for row in _rows(view.table)] == [
        [f"{ids[2]:,}", "include", "exclude", "open"],
        [f"{ids[5]:,}", "exclude", "include", "open"],
        [f"{ids[6]:,}", "maybe", "include", "open"]]
    assert _rows(view.table)[0][4] == store.record_title(project, ids[2])
    assert [view.pair.itemText(i) for i in range(view.pair.count())] == [
        "All reviewers", "Ada / Bob"]
    (pair,) = view.agreement.summary.pairs
    assert pair.kappa.table == ((2, 1, 0), (1, 3, 0), (1, 0, 0))
    assert pair.kappa.kappa == pytest.approx(1 / 3)
    shown = view.agreement.text.toPlainText()
    assert "Cohen's κ 0.333 0.333" in shown.replace("\t", " ").replace("\n", " ")
    assert "Screened by both" in shown
    flat = shown.replace("\t", " ").replace("\n", " ")
    # PABAK (3·5/8 − 1)/2 = 7/16; agreement on include 2·2/(3 + 4); α 26/71
    assert "PABAK 0.438 0.438" in flat and f"Agreement on include {4 / 7:.3f}" in flat
    assert f"Krippendorff's α: {26 / 71:.3f} (nominal)" in flat
    assert f"Gwet's AC1 {pair.reliability.ac1:.3f}" in flat
    assert "include" in view.detail.toPlainText() and "exclude" in view.detail.toPlainText()

    # the keyboard: resolve the first as Cy; the next conflict is selected
    view.resolver.setText("Cy")
    assert view.selected_record() == ids[2]
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: view.table.rowCount() == 2, timeout=60_000)
    assert view.selected_record() == ids[5]
    qtbot.keyClick(view, Qt.Key.Key_J)
    assert view.selected_record() == ids[6]
    qtbot.keyClick(view, Qt.Key.Key_K)
    assert view.selected_record() == ids[5]
    assert team.final_decisions(project, screening.id)[ids[2]] == "include"
    (resolution,) = [e for e in store.events(project, screening.id) if e.kind == "resolve"]
    assert (resolution.record_id, resolution.label, resolution.reviewer) == (
        ids[2], "include", "Cy")
    # after resolution the 3rd record reads include for both: ((3, 0, 0), (1, 3, 0),
    # (1, 0, 0)): p_o = 6/8, p_e = 27/64, κ = 21/37
    (pair,) = view.agreement.summary.pairs
    assert pair.after.kappa == pytest.approx(21 / 37) and pair.kappa.kappa == pytest.approx(1 / 3)
    shown = view.agreement.text.toPlainText().replace("\t", " ").replace("\n", " ")
    assert f"Cohen's κ 0.333 {21 / 37:.3f}" in shown
    view.shown_kind.setCurrentIndex(view.shown_kind.findData(EVERY))
    assert [row[3] for row in _rows(view.table)] == ["include (Cy)", "open", "open"]

    overview = window.open_screen("overview", "T")
    assert [overview.screenings.item(0, c).text() for c in (2, 5)] == ["9", "2"]

    shoot_both(shot, lambda: _conflicts_screen(window.session, screening), "conflicts")
    shoot_both(shot, lambda: _agreement_panel(project, screening), "agreement_panel")

    # the screener limited to the open conflicts, then to what only Bob has seen
    screener = window.open_screen("screening", screening)
    with qtbot.waitActive(window):  # the screenshots' windows have closed
        window.activateWindow()
    screener.team_limit.limit_to(CONFLICTS)
    assert screener.shown == ids[5]
    assert screener.team_limit.status.text() == "1 of 2 — Ada: <b>exclude</b> · Bob: <b>include</b>"
    shot(screener, "screener_limited_to_conflicts")
    qtbot.keyClick(screener, Qt.Key.Key_I)  # Ada now agrees with Bob
    settle(qtbot, window.session)
    qtbot.waitUntil(lambda: screener.shown == ids[6], timeout=60_000)
    screener.team_limit.limit_to(SEEN_BY_ONE)
    assert screener.shown == ids[8]  # Bob's 9th
    qtbot.keyClick(screener, Qt.Key.Key_E)
    settle(qtbot, window.session)
    qtbot.waitUntil(lambda: screener.team_limit.status.text().endswith("none left"),
                    timeout=60_000)
    by_ada = team.by_reviewer(project, screening.id)["Ada"]
    assert (by_ada[ids[5]].label, by_ada[ids[8]].label) == ("include", "exclude")
    assert shown_errors == []


def _conflicts_screen(session, screening):
    view = ConflictsView(session, screening)
    view.resize(1200, 640)
    view.table.selectRow(0)
    return view


def _agreement_panel(project, screening):
    panel = AgreementPanel()
    panel.show_agreement(project, screening, team.agreement(project, screening))
    panel.resize(520, 640)
    QApplication.processEvents()
    return panel


def test_a_blind_screening_shows_no_conflicts_until_unblinded(window, qtbot, tmp_path,
                                                             monkeypatch):
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "B", ["L"], blind=True)
        ids = store.items(project, screening.id)
        project.write(store.decide_op(screening, ids[0], "include", store.Context("Ada")))
        project.write(store.decide_op(screening, ids[0], "exclude", store.Context("Bob")))
    screening = _as(window, qtbot, path, "Ada", "B")
    view = window.open_screen("conflicts", screening)
    assert view.table.rowCount() == 0 and "is blind" in view.header.text()
    assert view.agreement.summary is None
    assert "Bob" not in view.header.text() + view.agreement.text.toPlainText()
    asked = []

    def answer(button):
        return lambda *a: asked.append(a[2]) or button
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    view.unblind_button.click()  # Unblind… asks first; No changes nothing
    settle(qtbot, window.session)
    assert "everyone's decisions" in asked[0] and "Ada" in asked[0]
    assert "cannot be undone" in asked[0]
    assert store.is_blind(window.session.project, screening.id)
    assert view.table.rowCount() == 0 and view.unblind_button.isVisibleTo(view)
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    view.unblind_button.click()
    qtbot.waitUntil(lambda: view.table.rowCount() == 1, timeout=60_000)
    assert view.agreement.summary is not None and len(asked) == 2
    assert window.session.project.db.execute(
        "SELECT reviewer FROM screening_unblinds").fetchall() == [("Ada",)]


def test_the_pair_filter_and_the_weighted_kappa_of_a_graded_screening(qtbot, tmp_path):
    grades = {"Ada": ["0", "1", "2", "3", "3"], "Bob": ["0", "2", "2", "3", "1"],
              "Cy": ["0", "1", "2", "2", "3"]}
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "G", ["L"], scheme="graded")
        ids = store.items(project, screening.id)
        for reviewer, given in grades.items():
            for record_id, grade in zip(ids, given, strict=False):
                project.write(store.decide_op(screening, record_id, grade,
                                              store.Context(reviewer)))
    session = ProjectSession(Project.open(path))
    try:
        view = ConflictsView(session, screening)
        qtbot.addWidget(view)
        assert [c.record_id for c in view.found] == [ids[1], ids[3], ids[4]]
        assert [view.pair.itemText(i) for i in range(view.pair.count())] == [
            "All reviewers", "Ada / Bob", "Ada / Cy", "Bob / Cy"]
        view.pair.setCurrentIndex(2)
        assert _rows(view.table) == [[f"{ids[3]:,}", "3", "2", "open",
                                      store.record_title(session.project, ids[3])]]
        view.pair.setCurrentIndex(1)
        assert [row[:3] for row in _rows(view.table)] == [[f"{ids[1]:,}", "1", "2"],
                                                         [f"{ids[4]:,}", "3", "1"]]
        ada_cy = view.agreement.summary.pairs[1]
        assert (ada_cy.a, ada_cy.b, ada_cy.weighted.weights) == ("Ada", "Cy", "linear")
        assert ada_cy.weighted.kappa == pytest.approx(cohen_kappa_score(
            grades["Ada"], grades["Cy"], weights="linear", labels=["0", "1", "2", "3"]))
        shown = view.agreement.text.toPlainText().replace("\t", " ").replace("\n", " ")
        assert f"Weighted κ (linear weights) {ada_cy.weighted.kappa:.3f}" in shown
    finally:
        assert session.close()


def test_exchange_refusals_are_one_line_and_change_nothing(window, made, tmp_path,
                                                           shown_errors):
    window.settings.reviewer = "Ann"  # the window read its settings before ``made``
    window.show()
    assert window.open_project(made[0])
    target = tmp_path / "mine.jsonl"
    window.sidebar.setCurrentIndex(sidebar_index(window.sidebar, "T"))
    assert team_exchange.export_my_decisions(window, target) is None  # Ann decided nothing
    (title, message, _), = shown_errors
    assert title == "Your decisions were not exported"
    assert message.startswith("'Ann' has no decision in screening 'S'") and "\n" not in message
    assert not target.exists()
    assert team_exchange.merge_into_project(window, made[0]) is None
    assert "open project itself" in shown_errors[1][1]
