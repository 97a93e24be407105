"""File ▸ Import Review from Another Tool…: the dialog, the job, its summary (per
reviewer the decisions in the file and added), opening the screening; a refusal in one
line."""

from __future__ import annotations

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.gui import review_import
from tests.core.interop.test_asreview import asreview_project
from tests.core.interop.test_rayyan import ROWS, _csv


def _table(dialog: review_import.ReviewSummaryDialog) -> list[list[str]]:
    table = dialog.table
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def test_a_rayyan_export_and_an_asreview_project(window, qtbot, tmp_path, shown_errors):
    Project.create(tmp_path / "p.litq").close()
    assert window.open_project(tmp_path / "p.litq")
    rayyan = _csv(tmp_path / "articles.csv", ROWS)
    dialog = review_import.ReviewImportDialog([rayyan], "rayyan", [], None, window)
    dialog.topic.setCurrentText("Knees")
    assert dialog.values() == ("Knees", None, "")
    handle = review_import.start_import(window, [rayyan], "rayyan", "Knees", None, "")
    qtbot.waitUntil(lambda: not handle.running and window.review_summary is not None,
                    timeout=60_000)
    summary = window.review_summary
    assert _table(summary) == [["Ama", "3", "3"], ["Kofi", "3", "3"]]
    summary.resize(640, 360)
    summary.grab().save(str(tmp_path / "rayyan_summary.png"))
    summary.open_button.click()
    qtbot.waitUntil(lambda: getattr(window.tabs.currentWidget(), "key", None) == "screening",
                    timeout=60_000)
    assert window.tabs.currentWidget().screening.name == "Rayyan: articles"
    project = asreview_project(tmp_path / "knees.asreview", 3)
    handle = review_import.start_import(window, [project], "asreview", "Knees", None, "Bea")
    qtbot.waitUntil(lambda: not handle.running
                    and window.review_summary is not summary, timeout=60_000)
    second = window.review_summary
    assert _table(second) == [["Bea", "5", "5"]]
    assert second.result.screening == "ASReview: Knees" and shown_errors == []
    second.reject()


def test_a_simulation_project_is_refused_in_one_line(window, qtbot, tmp_path, shown_errors):
    Project.create(tmp_path / "p.litq").close()
    assert window.open_project(tmp_path / "p.litq")
    simulation = asreview_project(tmp_path / "sim.asreview", 3, mode="simulate")
    handle = review_import.start_import(window, [simulation], "asreview", "T", None, "")
    qtbot.waitUntil(lambda: not handle.running and bool(shown_errors), timeout=60_000)
    assert window.review_summary is None
    assert "simulation project" in str(shown_errors[0])


def test_the_dialog_needs_a_topic(qtbot, tmp_path):
    dialog = review_import.ReviewImportDialog([tmp_path / "a.csv"], "rayyan", ["T"], "T")
    qtbot.addWidget(dialog)
    assert dialog.import_button.isEnabled()
    dialog.topic.setCurrentText("  ")
    assert not dialog.import_button.isEnabled()
    dialog.topic.setCurrentText("New topic")
    dialog.screening.setText("Mine\n")
    assert dialog.import_button.isEnabled()
    assert dialog.values() == ("New topic", "Mine", "")


def test_the_import_wizard_hands_a_review_to_the_review_import(window, qtbot, tmp_path,
                                                               shown_errors):
    Project.create(tmp_path / "p.litq").close()
    assert window.open_project(tmp_path / "p.litq")
    window.review_dialog = None
    project = asreview_project(tmp_path / "knees.asreview", 1)
    assert window.open_import_wizard([project]) is None  # no wizard: the review's dialog
    dialog = window.review_dialog
    dialog.topic.setCurrentText("Knees")
    window.review_summary = None
    dialog.import_button.click()
    qtbot.waitUntil(lambda: window.review_summary is not None, timeout=60_000)
    assert _table(window.review_summary) == [["Ada", "5", "5"]] and shown_errors == []
    window.review_summary.reject()
