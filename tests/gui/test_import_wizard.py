"""The import wizard driven like a user would: preview, mapping, cancel, import, summary."""

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QPushButton, QWizard

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import IMPORTED
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.core.records.importing import detect, formats
from litqeval_gui.gui.import_wizard.preview import NOT_MAPPED
from litqeval_gui.gui.import_wizard.wizard import ImportWizard
from litqeval_gui.gui.session import ProjectSession
from tests.support import pages
from tests.support.import_formats import TITLES


@pytest.fixture
def session(tmp_path, small_files, qtbot):
    """A project whose topic T has the small core set; no job may outlive a test."""
    project = Project.create(tmp_path / "w.litq")
    run_job(ingest.import_file(project, small_files[0], topic="T", role="core", name="core"))
    session = ProjectSession(project)
    yield session
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert session.close()


def _state(project):
    return queries.lists(project), queries.topics(project)


def _open(qtbot, session, paths=None):
    wizard = ImportWizard(session, paths)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    return wizard


def _wait_previews(qtbot, wizard):
    qtbot.waitUntil(lambda: wizard.state.files and not any(s.busy for s in wizard.state.files),
                    timeout=60_000)




def _next_enabled(wizard):
    return wizard.button(QWizard.WizardButton.NextButton).isEnabled()


@pytest.fixture
def gate(monkeypatch):
    """Hold every import at its linking phase (records stored, pending) until released."""
    at_gate, release = threading.Event(), threading.Event()
    real = ingest.import_file

    def gated(*args, **kwargs):
        job = real(*args, **kwargs)
        while True:
            try:
                progress = next(job)
            except StopIteration as stop:
                return stop.value
            yield progress
            if progress.message.startswith("linking"):
                at_gate.set()
                release.wait(10)

    monkeypatch.setattr(ingest, "import_file", gated)
    return at_gate, release


def test_cancel_then_import_with_summary_and_report(qtbot, session, small_files, tmp_path,
                                                    gate, monkeypatch, shot, shown_errors):
    _, results = small_files
    before = _state(session.project)
    wizard = _open(qtbot, session)
    assert wizard.currentId() == ImportWizard.FILES and not _next_enabled(wizard)
    wizard.files_page.add_paths([results])
    shot(wizard, "wizard_1_files")
    wizard.next()

    _wait_previews(qtbot, wizard)
    page = wizard.preview_page
    assert page.info_label.text().count("<b>") == 3 and "csv" in page.info_label.text()
    assert pages.preview_titles(page.table)[0] == "Semantic precision for literature search evaluation"
    assert page.mapping_toggle.isVisible() and not page.mapping_editor.isVisible()
    qtbot.mouseClick(page.mapping_toggle, Qt.MouseButton.LeftButton)
    assert page.mapping_editor.isVisible()  # a table: its detected mapping can be edited
    assert page.mapping_editor.column("title") == "Title"
    assert _next_enabled(wizard)
    shot(wizard, "wizard_2_preview")
    wizard.next()

    settings = wizard.settings_page
    assert settings.topic_combo.currentText() == "T"
    assert settings.role_combos[results].currentData() == "results"  # T has its core set
    assert settings.name_edits[results].text() == "scopus"
    settings.name_edits[results].setText("core")  # taken: refused inline, nothing runs
    wizard.next()
    assert wizard.currentId() == ImportWizard.SETTINGS
    assert "already has a list named 'core'" in settings.error_label.text()
    settings.name_edits[results].setText("q1")
    settings.query_edit.setPlainText("semantic AND precision")
    shot(wizard, "wizard_3_settings")

    at_gate, release = gate
    wizard.next()
    run = wizard.run_page
    assert wizard.currentId() == ImportWizard.RUN and run.running
    assert not wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    qtbot.waitUntil(at_gate.is_set, timeout=60_000)  # the records are stored, still pending
    shot(wizard, "wizard_4_running")
    qtbot.mouseClick(run.cancel_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(lambda: not run.running, timeout=60_000)
    assert run.cancelled
    assert "Import cancelled — the project is unchanged" in run.status_label.text()
    assert _state(session.project) == before
    # the handle goes when its thread has finished, just after the job said it was cancelled
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    assert run.retry_button.isVisible() and not _next_enabled(wizard)
    shot(wizard, "wizard_4_cancelled")

    with qtbot.waitSignal(session.changed) as changed:
        qtbot.mouseClick(run.retry_button, Qt.MouseButton.LeftButton)
    assert changed.args == [IMPORTED, None]
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)
    summary = wizard.state.summaries[(results, None)]  # the core's own summary of this import
    assert (summary.read, summary.new, summary.duplicate, summary.matched, summary.rejected,
            summary.uncertain) == (5, 2, 3, 2, 0, 0)
    shown = wizard.summary_page
    assert (summary.in_file, summary.known) == (1, 2)  # agri twice; core.1 and core.3
    for key in ("read", "new", "in_file", "known", "matched", "rejected", "uncertain"):
        assert pages.summary_count(shown, "q1", key) == getattr(summary, key)
    assert not shown.matches_button.isEnabled()
    assert not wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    info = queries.find_list(session.project, "T", "q1")
    assert (info.role, info.records, info.size, info.query) == (
        "results", 5, 4, "semantic AND precision")
    shot(wizard, "wizard_5_summary")

    report = tmp_path / "report.txt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(report), ""))
    qtbot.mouseClick(shown.save_button, Qt.MouseButton.LeftButton)
    assert report.read_text(encoding="utf-8") == summary.report()
    assert ("read 5, new 2, duplicates merged 3 (1 within the file, 2 already in the topic), "
            "matched to core 2") in report.read_text()
    project_file = session.project.path  # picked by mistake: refused, the project intact
    size = project_file.stat().st_size
    for target, says in ((project_file, "refusing to export onto the project"),
                         (tmp_path / "gone" / "r.txt", "cannot write the report")):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, t=target, **k: (str(t), ""))
        qtbot.mouseClick(shown.save_button, Qt.MouseButton.LeftButton)
        assert shown_errors[-1][0] == "Could not save the report" and says in shown_errors[-1][1]
    assert len(shown_errors) == 2 and project_file.stat().st_size == size
    assert queries.find_list(session.project, "T", "q1").records == 5
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert not wizard.isVisible()


def test_escape_while_importing_cancels_then_closes(qtbot, session, small_files, gate):
    _, results = small_files
    before = _state(session.project)
    wizard = _open(qtbot, session, [results])
    _wait_previews(qtbot, wizard)
    wizard.next()
    at_gate, release = gate
    wizard.next()
    qtbot.waitUntil(at_gate.is_set, timeout=60_000)
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    assert wizard.isVisible()  # it waits for the import to stop
    release.set()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=60_000)
    assert wizard.run_page.cancelled
    assert _state(session.project) == before


@pytest.mark.parametrize("content", [bytes(range(256)) * 20, b""], ids=["binary", "empty"])
def test_a_bad_file_shows_the_core_message(qtbot, session, tmp_path, content, shot):
    bad = tmp_path / "export.ris"
    bad.write_bytes(content)
    with pytest.raises(ImportRefused) as refused:
        detect(bad)
    wizard = _open(qtbot, session, [bad])
    _wait_previews(qtbot, wizard)
    label = wizard.preview_page.error_label
    assert label.isVisible() and str(refused.value) in label.text()
    assert not _next_enabled(wizard)
    assert not wizard.preview_page.mapping_editor.isVisible()
    if not content:
        shot(wizard, "wizard_2_bad_file")


def test_unknown_columns_are_mapped_by_the_user(qtbot, session, tmp_path, shot):
    table = tmp_path / "export.csv"
    table.write_text("Name of paper,Yr,Identifier,Summary text\n"
                     "Ants in the kitchen,2020,10.5555/ants,Ants like sugar.\n"
                     "Bees in the garden,2021,10.5555/bees,Bees like flowers.\n"
                     "Wasps on the terrace,2022,10.5555/wasps,\n"
                     ",2023,,\n", encoding="utf-8")  # a year alone: nothing to import
    wizard = _open(qtbot, session, [table])
    _wait_previews(qtbot, wizard)
    page = wizard.preview_page
    assert "cannot recognise the column layout" in page.error_label.text()
    assert "--map" not in page.error_label.text()  # no CLI syntax in the app
    assert page.mapping_editor.isVisible() and not _next_enabled(wizard)
    combo = page.mapping_editor.combos["title"]
    assert [combo.itemText(i) for i in range(combo.count())] == [
        NOT_MAPPED, "Name of paper", "Yr", "Identifier", "Summary text"]
    shot(wizard, "wizard_2_unknown_layout")

    page.mapping_editor.choose("title", "Name of paper")
    _wait_previews(qtbot, wizard)
    assert pages.preview_titles(page.table) == ["Ants in the kitchen", "Bees in the garden",
                                   "Wasps on the terrace"]
    for name, column in (("year", "Yr"), ("doi", "Identifier"), ("abstract", "Summary text")):
        page.mapping_editor.choose(name, column)
        _wait_previews(qtbot, wizard)
    assert page.mapping_editor.column("title") == "Name of paper"  # earlier choices stay
    assert not page.error_label.isVisible() and _next_enabled(wizard)
    assert page.mapping_editor.isVisible()  # stays open while the user is mapping
    shot(wizard, "wizard_2_mapped")

    wizard.next()
    wizard.settings_page.name_edits[table].setText("mapped")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)
    shown = wizard.summary_page
    assert (pages.summary_count(shown, "mapped", "read"), pages.summary_count(shown, "mapped", "rejected")) == (4, 1)
    assert "line 5: no title, no abstract and no identifier" in shown.problems.toPlainText()
    shot(wizard, "wizard_5_summary_rejected")
    info = queries.find_list(session.project, "T", "mapped")
    assert (info.records, info.size) == (3, 3)
    stored = list(queries.list_records(session.project, info.id))
    assert [(r.title, r.year, r.doi) for r in stored][0] == (
        "Ants in the kitchen", 2020, "10.5555/ants")
    assert stored[1].abstract == "Bees like flowers."


def test_several_files_are_imported_one_after_another(qtbot, session, small_files, tmp_path, shot):
    _, results = small_files
    other = tmp_path / "pubmed.ris"
    other.write_text("TY  - JOUR\nTI  - Core publications as a gold standard for query recall\n"
                     "PY  - 2020\nDO  - 10.1000/core.2\nER  - \n\n", encoding="utf-8")
    wizard = _open(qtbot, session, [results, other])
    _wait_previews(qtbot, wizard)
    page = wizard.preview_page
    assert page.file_combo.isVisible() and page.file_combo.count() == 2
    page.file_combo.setCurrentIndex(1)
    assert pages.preview_titles(page.table) == ["Core publications as a gold standard for query recall"]
    assert not page.mapping_editor.isVisible()  # RIS has no columns to map
    wizard.next()
    names = {path: edit.text() for path, edit in wizard.settings_page.name_edits.items()}
    assert names == {results: "scopus", other: "pubmed"}
    shot(wizard, "wizard_3_settings_two_files")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)
    sizes = {i.name: (i.role, i.size) for i in queries.lists(session.project, "T")}
    assert sizes == {"core": ("core", 3), "scopus": ("results", 4), "pubmed": ("results", 1)}
    shown = wizard.summary_page
    assert (pages.summary_count(shown, "scopus", "matched"), pages.summary_count(shown, "pubmed", "matched")) == (2, 1)
    shot(wizard, "wizard_5_summary_two_files")


def test_uncertain_matches_open_the_review_dialog(qtbot, session, tmp_path):
    def ris(name, title, doi):
        path = tmp_path / name
        path.write_text(f"TY  - JOUR\nAU  - Roe, R\nTI  - {title}\nPY  - 2020\nDO  - {doi}\n"
                        "ER  - \n\n", encoding="utf-8")
        return path

    title = "Deep learning for screening of medical abstracts"
    run_job(ingest.import_file(session.project, ris("c.ris", title, "10.1000/published"),
                               topic="T", role="core", name="core2"))
    preprint = ris("preprint.ris", title, "10.1101/preprint")
    wizard = _open(qtbot, session, [preprint])
    _wait_previews(qtbot, wizard)
    wizard.next()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)
    shown = wizard.summary_page
    assert pages.summary_count(shown, "preprint", "uncertain") == 1 and shown.matches_button.isEnabled()
    assert pages.summary_count(shown, "preprint", "pending") == 1  # the core work it would add
    qtbot.mouseClick(shown.matches_button, Qt.MouseButton.LeftButton)
    dialog = shown.matches_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.progress_label.text() == "1 of 1"
    dialog.reject()


def test_preview_says_what_a_generic_id_column_holds(qtbot, session, tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("id,title,abstract\npub.1107809783,A title,An abstract\n"
                       "pub.1000000001,Another title,Another abstract\n")
    wizard = _open(qtbot, session)
    wizard.files_page.add_paths([results])
    wizard.next()
    _wait_previews(qtbot, wizard)
    text = wizard.preview_page.info_label.text()
    assert "Recognised: column 'id' holds Dimensions publication IDs (e.g. pub.1107809783)" \
        in text


def test_a_registered_format_is_named_browsed_offered_and_previewed(qtbot, session, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(formats, "FORMATS", (*formats.FORMATS, TITLES))
    mine = tmp_path / "mine.titles"
    mine.write_text("%TITLES\nOne title\nAnother title\n", encoding="utf-8")
    filters = []

    def choose(parent, caption, folder, name_filter):
        filters.append(name_filter)
        return [str(mine)], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", choose)
    wizard = _open(qtbot, session)
    assert wizard.files_page.subTitle().startswith(
        "Search exports: RIS, PubMed/MEDLINE, BibTeX, EndNote XML, JSON lines (documents), "
        "TREC <DOC> documents, TREC run, TREC qrels, CSV, TSV, Excel (XLSX), Title list.")
    [add] = [b for b in wizard.files_page.findChildren(QPushButton) if b.text() == "&Add files…"]
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert filters == [f"{formats.open_filter()};;All files (*)"] and "*.titles" in filters[0]
    wizard.next()
    _wait_previews(qtbot, wizard)
    page = wizard.preview_page
    combo = page.format_combo
    assert [combo.itemData(i) for i in range(combo.count())] == ["auto", *formats.names()]
    assert combo.itemText(combo.findData("titles")) == "Title list"
    assert pages.preview_titles(page.table) == ["One title", "Another title"]
    assert wizard.state.files[0].result.format == "titles"
    assert not page.mapping_editor.isVisible()  # not a table


def test_a_file_name_with_a_newline_suggests_a_one_line_list_name(qtbot, session, tmp_path):
    odd = tmp_path / "scopus\n2024\t.ris"
    odd.write_text("TY  - JOUR\nTI  - A title\nER  - \n", encoding="utf-8")
    wizard = _open(qtbot, session)
    wizard.files_page.add_paths([odd])
    wizard.next()
    _wait_previews(qtbot, wizard)
    wizard.next()
    assert wizard.settings_page.name_edits[odd].text() == "scopus 2024"
