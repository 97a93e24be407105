"""The uncertain-matches dialog: keyboard verdicts are stored at once; shortcuts are scoped."""


import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QShortcut

from litqeval_gui.core import evaluation
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches
from litqeval_gui.gui.screens.matches.dialog import (
    EMPTY_TEXT,
    MatchesDialog,
    highlight_differences,
)
from litqeval_gui.gui.session import ProjectSession


def _one_record_ris(path, title, doi, year=2020):
    path.write_text(f"TY  - JOUR\nAU  - Roe, R\nTI  - {title}\nPY  - {year}\nDO  - {doi}\n"
                    "ER  - \n\n", encoding="utf-8")
    return path


@pytest.fixture
def session(tmp_path, qtbot):
    """A project whose topic T has one uncertain match (same title, different DOIs)."""
    project = Project.create(tmp_path / "m.litq")
    title = "Deep learning for screening of medical abstracts"
    for name, role, doi in (("core", "core", "10.1000/published"),
                            ("r1", "results", "10.1101/preprint")):
        run_job(ingest.import_file(project, _one_record_ris(tmp_path / f"{name}.ris", title, doi),
                                   topic="T", role=role, name=name))
    session = ProjectSession(project)
    yield session
    assert session.close()


def _dialog(qtbot, session, topic="T"):
    dialog = MatchesDialog(session, topic)
    qtbot.addWidget(dialog)
    with qtbot.waitActive(dialog):  # window shortcuts need the active window
        dialog.show()
        dialog.activateWindow()
    return dialog


def _status(session, link_id):
    """The stored verdict, read on a fresh connection: only committed writes are seen."""
    with session.project.sibling() as project:
        return next(m.status for m in matches.matches(project, "T") if m.id == link_id)


def test_reject_with_r_is_stored_and_announced(qtbot, session, shot):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    assert dialog.progress_label.text() == "1 of 1"
    assert "DOI 10.1101/preprint" in (dialog.side_a.ids.text() + dialog.side_b.ids.text())
    shot(dialog, "matches_dialog")

    with qtbot.waitSignal(session.changed) as changed:
        qtbot.keyClick(dialog, Qt.Key.Key_R)
    assert changed.args == [Changes(verdicts=True), dialog]  # they were two works already
    assert matches.matches(session.project, "T", uncertain=True) == []
    assert _status(session, match.id) == "rejected"
    assert evaluation.recall_report(session.project, "T").lists[0].retrieved_core == 0
    assert "1 rejected" in dialog.message_label.text()


def test_accept_with_a_merges_the_works(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    with qtbot.waitSignal(session.changed) as changed:
        qtbot.keyClick(dialog, Qt.Key.Key_A)
    assert changed.args == [Changes(verdicts=True, works=True), dialog]
    assert _status(session, match.id) == "confirmed"
    assert evaluation.recall_report(session.project, "T").lists[0].retrieved_core == 1


def test_skip_back_and_change_of_verdict(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    qtbot.keyClick(dialog, Qt.Key.Key_Right)  # skip: nothing stored
    assert dialog.current is None and _status(session, match.id) == "uncertain"
    assert "1 left undecided" in dialog.message_label.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Left)
    assert dialog.current == match
    with qtbot.waitSignal(session.changed):
        qtbot.keyClick(dialog, Qt.Key.Key_A)
    qtbot.keyClick(dialog, Qt.Key.Key_Left)
    assert "accepted" in dialog.verdict_label.text()
    with qtbot.waitSignal(session.changed):
        qtbot.keyClick(dialog, Qt.Key.Key_R)  # a changed mind is stored too
    assert _status(session, match.id) == "rejected"


def test_shortcuts_are_removed_when_the_dialog_closes(qtbot, session):
    dialog = _dialog(qtbot, session)
    assert sorted(dialog.shortcuts.live_keys()) == ["A", "Left", "R", "Right", "S"]
    dialog.reject()
    assert dialog.shortcuts.live_keys() == []
    [match] = matches.matches(session.project, "T", uncertain=True)
    qtbot.keyClick(dialog, Qt.Key.Key_R)  # a closed dialog ignores the key
    assert _status(session, match.id) == "uncertain"


def test_empty_state(qtbot, session, shot):
    [match] = matches.matches(session.project, "T", uncertain=True)
    session.project.write(matches.decide_op(match.id, accept=False))
    dialog = _dialog(qtbot, session)
    assert dialog.message_label.text() == EMPTY_TEXT
    assert dialog.stack.currentWidget() is dialog.message_label
    shot(dialog, "matches_dialog_empty")


def test_highlight_marks_only_the_differing_words():
    a, b = highlight_differences("Deep learning for screening", "Deep LEARNING in screening")
    assert a.count("<span") == 1 and "for" in a and "Deep learning" in a
    assert b.count("<span") == 1 and ">in<" in b


def test_screen_keys_refuse_a_second_binding_and_do_not_repeat(qtbot, session):
    dialog = _dialog(qtbot, session)
    with pytest.raises(ValueError, match="already bound"):
        dialog.shortcuts.add("A", dialog.skip)
    live = dialog.findChildren(QShortcut)
    assert len(live) == 5 and not any(s.autoRepeat() for s in live)  # holding A fires once


@pytest.fixture
def rich_session(tmp_path, qtbot):
    """One uncertain pair whose sides have authors, venues and abstracts."""
    project = Project.create(tmp_path / "r.litq")
    title = "Deep learning for screening of medical abstracts"
    sides = (("core", "core", "10.1000/published", "Journal of Screening",
              ["Roe, Rita", "Lam, Ken", "Diaz, Ana", "Berg, Ole", "Fox, May"],
              "We train a classifier. " * 30),
             ("r1", "results", "10.1101/preprint", "medRxiv", ["Roe, R."],
              "A preprint of the classifier study."))
    for name, role, doi, venue, authors, abstract in sides:
        lines = ["TY  - JOUR", *[f"AU  - {a}" for a in authors], f"TI  - {title}",
                 "PY  - 2020", f"JO  - {venue}", f"AB  - {abstract.strip()}", f"DO  - {doi}",
                 "ER  - ", "", ""]
        path = tmp_path / f"{name}.ris"
        path.write_text("\n".join(lines), encoding="utf-8")
        run_job(ingest.import_file(project, path, topic="T", role=role, name=name))
    session = ProjectSession(project)
    yield session
    assert session.close()


def test_each_side_shows_authors_venue_and_the_start_of_the_abstract(qtbot, rich_session, shot):
    dialog = _dialog(qtbot, rich_session)
    sides = {dialog.side_a.source.text(): dialog.side_a, dialog.side_b.source.text(): dialog.side_b}
    core, preprint = sides["core (core)"], sides["r1 (results)"]
    assert "Berg, Ole" in core.authors.text() and "et al. (5)" in core.authors.text()
    assert "Fox, May" not in core.authors.text()
    assert "Journal of Screening" in core.venue.text() and "medRxiv" in preprint.venue.text()
    assert "<span" in core.venue.text()  # the venues differ: both marked
    assert core.abstract.text().startswith("We train a classifier. We train")
    assert core.abstract.text().endswith(" …") and len(core.abstract.text()) <= 402
    assert preprint.abstract.text() == "A preprint of the classifier study."
    dialog.resize(1000, 520)
    shot(dialog, "matches_dialog_details")


def test_past_verdicts_are_listed_and_can_be_changed(qtbot, rich_session):
    session = rich_session
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    dialog.show_decided(True)
    assert dialog.message_label.text().startswith("No verdicts yet")
    dialog.show_decided(False)
    with qtbot.waitSignal(session.changed):
        qtbot.keyClick(dialog, Qt.Key.Key_A)
    dialog.close()

    again = _dialog(qtbot, session)  # a later session: the verdict is listed from the file
    assert again.message_label.text() == EMPTY_TEXT
    again.show_decided(True)
    assert again.current.id == match.id and again.progress_label.text() == "1 of 1"
    assert "same work (accepted)" in again.verdict_label.text()
    with qtbot.waitSignal(session.changed) as changed:
        qtbot.keyClick(again, Qt.Key.Key_R)  # changed: the works split again
    assert changed.args == [Changes(verdicts=True, works=True), again]
    assert _status(session, match.id) == "rejected"
    assert evaluation.recall_report(session.project, "T").lists[0].retrieved_core == 0


@pytest.fixture
def ids_session(tmp_path, qtbot):
    """One uncertain pair (equal titles, no abstracts) whose records hold a DOI, PMIDs,
    Dimensions ids, Scopus EIDs and WoS UTs: two register entries each."""
    project = Project.create(tmp_path / "i.litq")
    header = "title,year,doi,pmid,dimensions,scopus_eid,wos_ut\n"
    title = "Robotic arm assisted total knee arthroplasty in older adults"
    rows = {"core": f"{title},2020,10.1000/k.1,111,pub.1150448665,2-s2.0-85000000001,"
                    "WOS:000111111111111\n",
            "r1": f"{title},2020,,222,pub.1150448666,2-s2.0-85000000002,"
                  "WOS:000222222222222\n"}
    for name, row in rows.items():
        path = tmp_path / f"{name}.csv"
        path.write_text(header + row, encoding="utf-8")
        run_job(ingest.import_file(project, path, topic="T", role="core" if name == "core"
                                   else "results", name=name))
    session = ProjectSession(project)
    yield session
    assert session.close()


def test_every_identifier_of_both_sides_is_shown_and_the_differing_ones_named(
        qtbot, ids_session, shot):
    dialog = _dialog(qtbot, ids_session)
    sides = {dialog.side_a.source.text(): dialog.side_a, dialog.side_b.source.text(): dialog.side_b}
    core, result = sides["core (core)"].ids.text(), sides["r1 (results)"].ids.text()
    for shown in ("DOI 10.1000/k.1", "PMID 111", "Dimensions pub.1150448665",
                  "Scopus EID 2-s2.0-85000000001", "WoS UT WOS:000111111111111"):
        assert shown in core, shown
    for shown in ("PMID 222", "Dimensions pub.1150448666", "Scopus EID 2-s2.0-85000000002",
                  "WoS UT WOS:000222222222222"):
        assert shown in result, shown
    assert "DOI" not in result
    marked = [line for line in result.split("<br>") if "<span" in line]
    assert sorted(line.split(">")[1].split()[0] for line in marked) == [
        "Dimensions", "PMID", "Scopus", "WoS"]
    assert "DOI 10.1000/k.1" in core and "<span" not in core.split("<br>")[0]  # one side only
    assert ("not merged automatically because their Dimensions ids, PMIDs, Scopus EIDs, "
            "WoS UTs differ") in dialog.method_label.text()
    dialog.resize(1200, 620)
    shot(dialog, "matches_dialog_identifiers")
