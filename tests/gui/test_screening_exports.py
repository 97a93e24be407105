"""Exports of a screening in the app: File ▸ Export… asks which decisions (every one
ticked; "Included only" a click away) and writes only those records; File ▸ Export
Decision Log… writes the screening's audit trail as CSV; a target that is the project
is refused in one line."""

import csv

from PySide6.QtWidgets import QDialog, QFileDialog

from litqeval_gui.core.screening.export import AUDIT_COLUMNS
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.screens.screening.export_filter import ExportFilterDialog
from tests.support.screening_screen import settle


def _save_as(monkeypatch, target):
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))


def _rows(path):
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def _screened(window, made, qtbot, labels):
    """The window on ``made`` with screening S shown and ``labels`` decided in order."""
    assert window.open_project(made[0])
    window.settings.reviewer = "Ann"
    view = window.open_screen("screening", store.find_screening(window.session.project,
                                                                "T", "S"))
    decided = []
    for label in labels:
        decided.append(view.shown)
        view.decide(label)
    settle(qtbot, window.session)
    return view, decided


def test_file_export_writes_only_the_included_records_when_asked(
        window, made, qtbot, tmp_path, monkeypatch):
    view, decided = _screened(window, made, qtbot, ["include", "exclude", "include", "maybe"])
    offered = []

    def included_only(dialog):
        offered.extend((label, box.isChecked()) for label, box in dialog.boxes.items())
        dialog.only_included.click()
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(ExportFilterDialog, "exec", included_only)
    target = tmp_path / "included.csv"
    _save_as(monkeypatch, target)
    window.action("export").trigger()
    assert offered == [(label, True) for label in
                       ("include", "exclude", "maybe", "undecided", "conflict")]
    rows = _rows(target)
    assert [(r["decision"], r["reviewer"]) for r in rows] == [("include", "Ann")] * 2
    titles = {store.record_title(window.session.project, decided[i]) for i in (0, 2)}
    assert {r["title"] for r in rows} == titles


def test_the_filter_keeps_the_labels_ticked_and_cancel_writes_nothing(
        window, made, qtbot, tmp_path, monkeypatch):
    _screened(window, made, qtbot, ["include", "exclude"])

    def undecided_and_excluded(dialog):
        dialog.tick(["exclude", "undecided"])
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(ExportFilterDialog, "exec", undecided_and_excluded)
    target = tmp_path / "rest.csv"
    _save_as(monkeypatch, target)
    window.action("export").trigger()
    assert [r["decision"] for r in _rows(target)] == ["exclude"] + ["undecided"] * 58
    monkeypatch.setattr(ExportFilterDialog, "exec",
                        lambda dialog: QDialog.DialogCode.Rejected)
    _save_as(monkeypatch, tmp_path / "never.csv")
    window.action("export").trigger()
    assert not (tmp_path / "never.csv").exists()


def test_the_decision_log_is_written_as_the_audit_csv(window, made, qtbot, tmp_path,
                                                      monkeypatch, shown_errors):
    view, decided = _screened(window, made, qtbot, ["include", "exclude"])
    view.undo()
    settle(qtbot, window.session)
    window.menus.menus["file"].aboutToShow.emit()
    action = window.action("decision-log")
    assert action.isEnabled()
    target = tmp_path / "log"  # no extension: .csv is added
    _save_as(monkeypatch, target)
    action.trigger()
    written = tmp_path / "log.csv"
    with written.open(encoding="utf-8-sig", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    assert tuple(header) == AUDIT_COLUMNS
    assert [(r[2], r[3], int(r[4]), r[6]) for r in rows] == [
        ("Ann", "decide", decided[0], "include"), ("Ann", "decide", decided[1], "exclude"),
        ("Ann", "undo", decided[1], "")]
    assert shown_errors == []
    _save_as(monkeypatch, made[0])  # the project itself: refused, left as it was
    before = made[0].read_bytes()[:100]
    action.trigger()
    (title, message, _), = shown_errors
    assert title == "The decision log was not exported"
    assert "refusing to export onto the project" in message and "\n" not in message
    assert made[0].read_bytes()[:100] == before


def test_file_export_offers_asreviews_labelled_dataset(window, made, qtbot, tmp_path,
                                                       monkeypatch):
    view, decided = _screened(window, made, qtbot, ["include", "exclude", "maybe"])
    monkeypatch.setattr(ExportFilterDialog, "exec", lambda dialog: dialog.accept() or 1)
    asked = []

    def save_as_asreview(parent, title, start, filters, selected):
        asked.append(filters.split(";;"))
        return str(tmp_path / "for asreview"), "ASReview LAB labelled dataset (*.csv)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as_asreview))
    window.action("export").trigger()
    assert "ASReview LAB labelled dataset (*.csv)" in asked[0]
    with (tmp_path / "for asreview.csv").open(encoding="utf-8", newline="") as handle:
        rows = {int(r["record_id"]): r["label_included"] for r in csv.DictReader(handle)}
    assert [rows[r] for r in decided] == ["1", "0", ""]
    assert list(rows.values()).count("") == len(rows) - 2
