"""File ▸ Save a Copy…: a job that copies the open project with every decision queued on
the write path before it, and says in one line why a refused target got nothing."""

import threading

from PySide6.QtWidgets import QFileDialog

from litqeval_gui.core.projectfile.changes import NOTHING
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store


def test_save_a_copy_holds_every_decision_queued_before_it(window, made, qtbot, tmp_path,
                                                            monkeypatch):
    window.show()
    assert window.open_project(made[0])
    session = window.session
    screening = store.find_screening(session.project, "T", "S")
    ids = store.items(session.project, screening.id)[:4]
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a[2]) or str(tmp_path / "ben"), ""))
    released = threading.Event()  # the write path holds its ops until the copy asks for it
    submit = session.writes.submit

    def submit_then_release(op, initiator=None):
        future = submit(op, initiator)
        released.set()
        return future

    def hold(p):
        released.wait(10)
        return NOTHING

    session.write(hold)
    for record in ids:  # queued, not committed yet
        session.write(store.decide_op(screening, record, "include", store.Context("Ann")))
    monkeypatch.setattr(session.writes, "submit", submit_then_release)
    window.menus.update()
    save = window.action("save-copy")
    assert save in window.menus.menus["file"].actions() and save.isEnabled()
    with qtbot.waitSignal(session.jobs.ended, timeout=60_000):
        save.trigger()
    copy = tmp_path / "ben.litq"
    assert asked == [str(window.settings.last_dir / "screen copy.litq")]
    assert window.statusBar().currentMessage() == f"Saved a copy of screen.litq as {copy}"
    assert sorted(p.name for p in tmp_path.glob("*ben*")) == ["ben.litq"]
    with Project.open(copy) as opened:
        theirs = store.find_screening(opened, "T", "S")
        assert theirs.uuid == screening.uuid
        assert [(e.record_id, e.label) for e in store.events(opened, theirs.id)] == [
            (record, "include") for record in ids]


def test_save_a_copy_onto_the_project_is_refused_in_one_line(window, made, qtbot,
                                                             monkeypatch, shown_errors):
    window.show()
    assert window.open_project(made[0])
    before = made[0].read_bytes()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(made[0]), ""))
    with qtbot.waitSignal(window.session.jobs.ended, timeout=60_000):
        window.action("save-copy").trigger()
    (title, message, _), = shown_errors
    assert title == "The copy was not saved"
    assert "refusing to export onto the project" in message and "\n" not in message
    assert made[0].read_bytes() == before
