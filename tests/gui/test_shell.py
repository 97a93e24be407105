"""The shell's rough edges: opening a search export, single clicks, Escape, messages."""

from PySide6.QtWidgets import QFileDialog, QMessageBox

from litqeval_gui.gui import main_window


def test_opening_a_csv_offers_to_import_it_into_the_open_project(
        window, project_path, small_files, monkeypatch):
    window.open_project(project_path)
    _core, results = small_files
    asked, wizards = [], []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a: asked.append(text)
                        or QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(window, "open_import_wizard", wizards.append)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(results), ""))
    window.open_action.trigger()  # Ctrl+O
    assert wizards == [[results]]
    assert asked == [f"{results.name} is not a project but a file to import.\n\n"
                     "Import it into small.litq?"]
    assert window.session is not None and window.session.project.path == project_path


def test_opening_a_ris_file_without_a_project_says_what_to_do(window, small_files,
                                                              shown_errors):
    core, _results = small_files
    assert not window.open_project(core)
    [(title, message, _)] = shown_errors
    assert title == "Not a project" and "core.ris is not a LitQEval project" in message
    assert "file is not a database" not in message


def test_a_damaged_litq_file_is_still_reported_as_a_project_problem(window, tmp_path,
                                                                    shown_errors):
    bad = tmp_path / "bad.litq"
    bad.write_text("not a database")
    assert not main_window.is_search_export(bad)
    assert not window.open_project(bad)
    assert shown_errors[0][0] == "Cannot open project"


def test_the_lock_refusal_details_show_the_facts_not_a_traceback(window, project_path,
                                                                 shown_errors):
    import os

    from litqeval_gui.core.project import Project

    with Project.open(project_path):  # held for writing elsewhere
        assert not window.open_project(project_path)
    [(title, message, details)] = shown_errors
    assert title == "Cannot open project" and "open in another window" in message
    assert details.splitlines()[:2] == [f"Lock file: {project_path}.lock",
                                        f"Held by: pid {os.getpid()} on {os.uname().nodename}"]
    assert "Traceback" not in details
