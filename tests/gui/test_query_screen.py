"""The Query screen on the hand-built topic of ``tests/core/query/test_topic.py``: the
clause tree holds the hand-counted figures, an edit shows its after-counts (an answer for
an older edit dropped), a malformed edit says where in one line and cannot be saved,
Save keeps a new version and choosing an old one loads it; the keys, a list without a
query, the registry's list choice and the light and dark theme."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import topic, versions
from litqeval_gui.core.query.report import HONEST
from litqeval_gui.core.records import lists, queries
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.gui.screen_registry import SCREENS
from litqeval_gui.gui.screens.query import QueryView, choose_list
from litqeval_gui.gui.screens.query import choice as query_choice
from litqeval_gui.gui.screens.query import view as query_view
from litqeval_gui.gui.screens.query.tree import FLAG, PATH_ROLE
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.core.query.test_topic import C1, C2, C3, C4, O1, O2, QUERY, R1, R2, R3, R4, ris
from tests.gui.themed import shoot_both

WIDER = QUERY + " OR acrobot"  # C4 too: 7 works, all 4 core works


@pytest.fixture
def open_view(tmp_path, qtbot):
    """``open_view(target)``: the screen on the hand-built project (topic T: core set
    "core", list "q" with QUERY, list "o" without a query), shown; views closed, jobs
    ended and the session closed at the end."""
    files = {"core": ris(C1, C2, C3, C4), "q": ris(C1, C2, R1, R2, R3, R4), "o": ris(O1, O2)}
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        for name, text in files.items():
            (tmp_path / f"{name}.ris").write_text(text, encoding="utf-8")
            run_job(import_file(project, tmp_path / f"{name}.ris", topic="T", name=name,
                                role="core" if name == "core" else "results",
                                query=QUERY if name == "q" else None))
    session = ProjectSession(Project.open(path))
    views: list[QueryView] = []

    def make(target: str = "q") -> QueryView:
        found = target if target == "T" else queries.find_list(session.project, "T", target)
        view = QueryView(session, found)
        session.changed.connect(view.project_changed)  # as the window does
        views.append(view)
        view.resize(1200, 760)
        view.show()
        settled(qtbot, view)
        return view

    make.session = session
    yield make
    for view in views:
        view.close()
    qtbot.waitUntil(lambda: session.jobs.active() == [])
    assert session.close()


def settled(qtbot, view: QueryView) -> None:
    """Wait until no evaluation is due or running."""
    qtbot.waitUntil(lambda: view.job is None and not view._timer.isActive())


def tree_rows(view: QueryView) -> dict[str, tuple[str, ...]]:
    """Each row of the clause tree by path: its label and cells, its parent's path."""
    out = {}

    def walk(item, parent: str) -> None:
        path = item.data(0, PATH_ROLE)
        assert item.isExpanded() or item.childCount() == 0
        out[path] = (parent, *(item.text(c) for c in range(view.tree.columnCount())))
        for i in range(item.childCount()):
            walk(item.child(i), path)

    for i in range(view.tree.topLevelItemCount()):
        walk(view.tree.topLevelItem(i), "")
    return out


def test_the_tree_holds_each_clause_with_its_hand_counted_figures(open_view):
    view = open_view("q")
    assert view.editor.toPlainText() == QUERY
    assert view.title == "Query of q: T"
    # test_topic's hand counts: works, core, only it, adds, without → works, core, recall
    assert tree_rows(view) == {
        "1": ("", f"OR   {QUERY}", "6", "3", "–", "–", "", "", "", "", ""),
        "1.1": ("1", "AND   robotic AND (knee OR hip)", "4", "2", "2", "4", "2", "1",
                "0.250", "–", ""),
        "1.1.1": ("1.1", "robotic", "5", "2", "0", "0", "7", "3", "0.750", "–", ""),
        "1.1.2": ("1.1", "OR   (knee OR hip)", "6", "3", "0", "0", "7", "3", "0.750", "–",
                  ""),
        "1.1.2.1": ("1.1.2", "knee", "4", "2", "1", "2", "4", "2", "0.500", "–", ""),
        "1.1.2.2": ("1.1.2", "hip", "2", "1", "1", "2", "4", "2", "0.500", "–", ""),
        "1.2": ("1", "navigation", "2", "1", "1", "2", "4", "2", "0.500", "–", ""),
    }
    assert view.status.text() == "stored query (v1): 6 works, 3/4 core"
    assert not view.save_button.isEnabled() and not view.revert_button.isEnabled()
    # the own export: 4 of 6 matched; R3 has no abstract, R4 does not match
    assert view.tabs.tabText(0) == "Own export (66.7%)"
    reasons = {view.tabs.reasons.item(r, 1).text(): view.tabs.reasons.item(r, 0).text()
               for r in range(view.tabs.reasons.rowCount())}
    assert reasons == {"the export has no abstract for it": "1",
                       f"its text does not match {QUERY}": "1"}
    assert view.tabs.tabText(1) == "Missed core (1)"
    assert view.tabs.missed.item(0, 0).text() == C4[0]
    assert view.tabs.missed.item(0, 1).text().startswith("acrobot, hands")
    assert view.honest.text() == HONEST and view.honest.isVisible()
    # a clause chosen in the tree is shaded in the editor
    view.tree.setCurrentItem(view.tree.item_at("1.2"))
    [shade] = view.editor.extraSelections()
    assert shade.cursor.selectedText() == "navigation"


def test_an_edit_shows_the_after_counts_and_an_older_answer_is_dropped(open_view, qtbot):
    view = open_view("q")
    view.editor.moveCursor(view.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(view.editor, " OR acrobot")
    qtbot.waitUntil(lambda: "edited: 7" in view.status.text())
    settled(qtbot, view)
    assert view.status.text() == ("stored query (v1): 6 works, 3/4 core · edited: 7 works "
                                  "(+1), 4/4 core (+1)")
    rows = tree_rows(view)
    assert rows["1.3"] == ("1", "acrobot", "1", "1", "1", "1", "6", "3", "0.750", "–", "")
    assert view.tabs.tabText(1) == "Missed core"  # every core work found
    assert view.save_button.isEnabled() and view.revert_button.isEnabled()

    shown = []
    real_show = view._show
    view._show = lambda evaluated: (shown.append(evaluated.request.text),
                                    real_show(evaluated))
    view.editor.replace_text("robotic")
    view.evaluate_now()  # a job starts for "robotic" …
    view.editor.replace_text("hip OR knee")
    view.evaluate_now()  # … and is superseded before its answer is read
    settled(qtbot, view)
    assert shown == ["hip OR knee"]
    assert view.status.text().endswith("edited: 6 works (±0), 3/4 core (±0)")


def test_a_malformed_edit_names_the_place_in_one_line_and_cannot_be_saved(open_view, qtbot):
    view = open_view("q")
    view.editor.replace_text("robotic AND (knee OR")
    qtbot.waitUntil(lambda: "character" in view.status.text())
    assert view.status.text().endswith(
        "query, character 19: OR has nothing after it (at “OR”)</a>")
    assert "\n" not in view.status.text()
    assert not view.save_button.isEnabled() and not view.save_action.isEnabled()
    [mark] = view.editor.extraSelections()
    assert mark.cursor.selectedText() == "OR"
    view.evaluate_action.trigger()  # Ctrl+Enter: the cursor goes to the error
    assert view.editor.textCursor().position() == 18
    assert view.tree_caption.text().startswith("Clauses of the last query that could be read")
    assert "robotic AND (knee OR hip)" in tree_rows(view)["1.1"][1]  # the stored one's tree
    view.save()  # refused
    assert len(versions.history(open_view.session.project, "T", "q")) == 1


def test_save_keeps_a_new_version_and_an_old_one_loads_into_the_editor(open_view, qtbot):
    view = open_view("q")
    view.editor.replace_text(WIDER)
    settled(qtbot, view)
    with qtbot.waitActive(view):
        view.activateWindow()
    view.editor.setFocus()
    qtbot.keyClick(view.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    project = open_view.session.project
    qtbot.waitUntil(lambda: len(versions.history(project, "T", "q")) == 2)
    qtbot.waitUntil(lambda: not view._saving)
    assert [(v.version, v.text) for v in versions.history(project, "T", "q")] == [
        (1, QUERY), (2, WIDER)]
    assert view.status.text() == "stored query (v2): 7 works, 4/4 core"
    assert not view.save_button.isEnabled() and not view.revert_button.isEnabled()
    assert view.versions.count() == 2
    assert view.versions.item(0).text().startswith("v2 ")
    assert "(stored)" in view.versions.item(0).text()

    view.versions.itemClicked.emit(view.versions.item(1))  # version 1
    assert view.editor.toPlainText() == QUERY
    qtbot.waitUntil(lambda: "edited: 6" in view.status.text())
    assert view.status.text() == ("stored query (v2): 7 works, 4/4 core · edited: 6 works "
                                  "(-1), 3/4 core (-1)")
    assert view.save_button.isEnabled()


def test_escape_reverts_after_asking(open_view, qtbot, monkeypatch):
    view = open_view("q")
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]
    asked = []
    monkeypatch.setattr(query_view.QMessageBox, "question",
                        lambda *args: asked.append(args) or answers.pop(0))
    view.revert_action.trigger()  # nothing edited: nothing asked
    assert asked == []
    view.editor.replace_text("robotic")
    view.revert_action.trigger()  # No
    assert view.editor.toPlainText() == "robotic" and len(asked) == 1
    view.revert_action.trigger()  # Yes
    assert view.editor.toPlainText() == QUERY
    view.editor.undo()  # the revert is one undoable edit
    assert view.editor.toPlainText() == "robotic"
    assert view.revert_action.shortcut().toString() == "Esc"
    assert view.save_action.shortcut().toString() == "Ctrl+S"
    assert view.save_action.shortcutContext() == Qt.ShortcutContext.WidgetWithChildrenShortcut


def test_a_list_without_a_query_explains_and_keeps_what_is_typed_as_version_one(
        open_view, qtbot):
    view = open_view("o")
    assert view.editor.toPlainText() == ""
    assert view.notice.isVisible() and "has no query stored" in view.notice.text()
    assert view.status.text() == "no query stored for this list: type one"
    assert not view.save_button.isEnabled()
    qtbot.keyClicks(view.editor, "navigation")
    qtbot.waitUntil(lambda: "edited: 2" in view.status.text())
    settled(qtbot, view)
    assert view.status.text() == "no query stored · edited: 2 works, 1/4 core"
    assert view.tabs.tabText(0) == "Own export (50.0%)"  # O1 of O1, O2
    view.save()
    project = open_view.session.project
    qtbot.waitUntil(lambda: len(versions.history(project, "T", "o")) == 1)
    qtbot.waitUntil(lambda: view.status.text() == "stored query (v1): 2 works, 1/4 core")
    assert not view.notice.isVisible()


def test_a_flagged_clause_is_marked_with_its_reason(open_view, qtbot, monkeypatch):
    monkeypatch.setattr(topic, "FLAG_MIN", 2)
    view = open_view("q")
    view.editor.replace_text("robotic AND knee OR (runners OR ships)")
    settled(qtbot, view)
    item = view.tree.item_at("1.2")
    assert item.text(0) == "OR   (runners OR ships)"
    assert item.text(FLAG) == "adds 2 works, no core"
    assert item.toolTip(0) == ("Worth a look: brings 2 works of the query's 4 and no core "
                               "publication")
    assert not item.icon(FLAG).isNull()
    assert view.tree.item_at("1.1").text(FLAG) == ""


def test_the_screen_follows_its_list_and_comes_back_from_its_descriptor(open_view, qtbot):
    view = open_view("q")
    session = open_view.session
    again = QueryView.from_descriptor(session, view.descriptor())
    assert again.list_id == view.list_id and again.title == view.title
    again.close()
    session.write(lists.rename_list_op("T", "q", "search 1"))
    qtbot.waitUntil(lambda: view.title == "Query of search 1: T")
    assert view.editor.toPlainText() == QUERY  # the same list, its query
    session.write(lists.delete_list_op("T", "search 1"))
    qtbot.waitUntil(lambda: view.target_gone)


def test_on_a_topic_the_list_with_a_query_comes_first(open_view, qtbot, monkeypatch):
    view = open_view("T")
    assert view.list_name == "q"
    offered = []
    monkeypatch.setattr(query_choice.QInputDialog, "getItem",
                        lambda parent, title, label, items, *rest: (
                            offered.extend(items) or (items[1], True)))
    chosen = choose_list(open_view.session, "T", Settings(), view)
    assert [item.split(" — ")[0] for item in offered] == ["q", "o"]
    assert offered[1] == "o — no query stored"
    assert chosen.name == "o"
    assert SCREENS["query"].choose is choose_list
    assert SCREENS["query"].menu_text == "&Query Clauses…"


def test_light_and_dark(open_view, qtbot, shot, monkeypatch):
    monkeypatch.setattr(topic, "FLAG_MIN", 2)

    def make():
        view = open_view("q")
        view.editor.replace_text("robotic AND knee OR (runners OR ships)")
        settled(qtbot, view)
        view.tree.setCurrentItem(view.tree.item_at("1.1"))
        view.editor.moveCursor(view.editor.textCursor().MoveOperation.End)
        qtbot.keyClicks(view.editor, " OR (hip")  # the tree keeps the last readable query
        qtbot.waitUntil(lambda: "character" in view.status.text())
        return view

    light, dark = shoot_both(shot, make, "query_screen")
    assert light.is_file() and dark.is_file()


def test_a_query_stored_elsewhere_replaces_the_text_unless_it_was_edited(open_view, qtbot):
    view = open_view("q")
    session = open_view.session
    session.write(versions.set_query_op("T", "q", "navigation"))  # another screen, say
    qtbot.waitUntil(lambda: view.editor.toPlainText() == "navigation")
    qtbot.waitUntil(lambda: view.status.text() == "stored query (v2): 2 works, 1/4 core")
    view.editor.replace_text("robotic")
    settled(qtbot, view)
    session.write(versions.set_query_op("T", "q", "hip"))
    qtbot.waitUntil(lambda: "(v3)" in view.status.text() and "…" not in view.status.text())
    assert view.editor.toPlainText() == "robotic"  # the edit is kept
    assert view.status.text() == ("stored query (v3): 2 works, 1/4 core · edited: 5 works "
                                  "(+3), 2/4 core (+1)")
    assert view.versions.count() == 3
