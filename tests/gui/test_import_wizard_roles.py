"""The import wizard (issue 24 §7): each file its own role, guessed sensibly; a
multi-topic sheet filtered by a column; a TREC run or qrels file of several topics
imported at once, one project topic per TREC id, previewed by topic, rank and id.
The fixtures mirror ra_core.bib with a Dimensions export (``id,title,abstract``),
core_publications.xlsx (``Topic, Survey, Pub_id, Title``) and the derived TREC runs."""

import openpyxl
import pytest
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.gui import theme
from litqeval_gui.gui.import_wizard.wizard import ImportWizard
from litqeval_gui.gui.session import ProjectSession


@pytest.fixture
def session(tmp_path, small_files, qtbot):
    project = Project.create(tmp_path / "w.litq")
    run_job(ingest.import_file(project, small_files[0], topic="T", role="core", name="core"))
    session = ProjectSession(project)
    yield session
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert session.close()


def _open(qtbot, session, paths, size=(940, 680)):
    wizard = ImportWizard(session, paths)
    qtbot.addWidget(wizard)
    wizard.resize(*size)
    wizard.show()
    qtbot.waitExposed(wizard)
    qtbot.waitUntil(lambda: wizard.state.files and all(s.ready or s.error
                                                       for s in wizard.state.files),
                    timeout=60_000)
    return wizard


def _import(qtbot, wizard):
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY, timeout=60_000)


def _core_bib(path):
    path.write_text("".join(
        f"@article{{c{i},\n\ttitle = {{Robotic knee arthroplasty study {i}}},\n"
        f"\tjournal = {{The Bone & Joint Journal}},\n\tyear = {{2020}},\n"
        f"\tdoi = {{10.1302/core.{i}}},\n}}\n\n" for i in range(3)), encoding="utf-8")
    return path


def _export_csv(path, rows=60):
    lines = ["id,title,abstract"] + [
        f"pub.{1000 + i},Robotic arthroplasty outcome {i},Abstract of record {i}"
        for i in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_each_file_gets_its_own_guessed_role(qtbot, session, tmp_path):
    core, export = _core_bib(tmp_path / "ra_core.bib"), _export_csv(tmp_path / "baseline.csv")
    wizard = _open(qtbot, session, [core, export])
    wizard.next()
    page = wizard.settings_page
    page.topic_combo.setCurrentText("Robotic Arthroplasty")  # a new topic: no core set yet
    assert {p.name: c.currentData() for p, c in page.role_combos.items()} == {
        "ra_core.bib": "core", "baseline.csv": "results"}
    _import(qtbot, wizard)
    roles = {i.name: (i.role, i.size) for i in queries.lists(session.project,
                                                             "Robotic Arthroplasty")}
    assert roles == {"ra_core": ("core", 3), "baseline": ("results", 60)}


def test_a_ranked_table_alone_is_a_result_list_and_a_user_choice_stays(qtbot, session,
                                                                       tmp_path):
    ranked = tmp_path / "ranked.csv"
    ranked.write_text("Rank,Title,DOI\n1,First paper,10.1/a\n2,Second paper,10.1/b\n",
                      encoding="utf-8")
    plain = _core_bib(tmp_path / "seeds.bib")
    wizard = _open(qtbot, session, [ranked, plain])
    wizard.next()
    page = wizard.settings_page
    page.topic_combo.setCurrentText("new topic")
    assert page.role_combos[ranked].currentData() == "results"
    assert page.role_combos[plain].currentData() == "core"
    combo = page.role_combos[plain]
    combo.setCurrentIndex(combo.findData("other"))
    combo.activated.emit(combo.currentIndex())  # as a click does
    page.topic_combo.setCurrentText("T")  # T has a core set: guesses change, not the choice
    assert combo.currentData() == "other"
    assert wizard.settings_page.settings().roles == {ranked: "results", plain: "other"}


def _topics_sheet(path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Topic", "Survey", "Pub_id", "Title"])
    for topic, n in (("Synthetic Biology", 25), ("Robotic Arthroplasty", 4),
                     ("Green Warehousing", 5)):
        for i in range(n):
            sheet.append([topic, "pub.1", f"pub.{topic[:3]}{i}", f"{topic} paper {i}"])
    book.save(path)
    return path


def test_a_multi_topic_sheet_is_filtered_by_a_column(qtbot, session, tmp_path):
    sheet = _topics_sheet(tmp_path / "core_publications.xlsx")
    wizard = _open(qtbot, session, [sheet])
    page = wizard.preview_page
    assert page.where_row.isVisible()
    page.where_column.setCurrentIndex(page.where_column.findData("Topic"))
    page.where_column.activated.emit(page.where_column.currentIndex())
    assert page.where_value.findText("Synthetic Biology") >= 0  # offered from the preview
    page.where_value.setEditText("Robotic Arthroplasty")  # not among the first 20: typed
    page.where_value.lineEdit().editingFinished.emit()
    qtbot.waitUntil(lambda: wizard.state.files[0].ready, timeout=60_000)
    titles = [page.table.item(r, 0).text() for r in range(page.table.rowCount())]
    assert titles == [f"Robotic Arthroplasty paper {i}" for i in range(4)]
    wizard.next()
    wizard.settings_page.topic_combo.setCurrentText("RA")
    _import(qtbot, wizard)
    [info] = queries.lists(session.project, "RA")
    assert (info.role, info.size) == ("core", 4)


def _run(path, topics=("401", "402", "403"), depth=(3, 5, 2)):
    lines = [f"{t} Q0 doc{t}-{r} {r} {10 - r}.5 bm25"
             for t, n in zip(topics, depth, strict=True) for r in range(1, n + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_trec_run_of_several_topics_imports_them_all_at_once(qtbot, session, tmp_path):
    run = _run(tmp_path / "bm25.run")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("401 0 doc401-1 1\n401 0 doc401-9 0\n402 0 doc402-2 1\n",
                     encoding="utf-8")
    wizard = _open(qtbot, session, [run, qrels])
    table = wizard.preview_page.table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Topic", "Rank", "Document ID", "Score"]
    assert [table.item(0, c).text() for c in range(4)] == ["401", "1", "doc401-1", "9.5"]
    assert wizard.preview_page.notes_label.text().startswith("Note: 3 TREC topics: each is")
    wizard.next()
    page = wizard.settings_page
    assert page.role_combos[run].currentData() == "results"
    assert page.role_combos[qrels].currentData() == "other"
    _import(qtbot, wizard)
    lists = {(i.topic, i.name): (i.role, i.records) for i in queries.lists(session.project)
             if i.topic != "T"}
    assert lists == {("401", "bm25"): ("results", 3), ("402", "bm25"): ("results", 5),
                     ("403", "bm25"): ("results", 2), ("401", "qrels"): ("other", 2),
                     ("402", "qrels"): ("other", 1)}
    assert "5 list(s) imported into 3 topics" in wizard.summary_page.headline.text()


def test_the_wizard_pages_in_both_themes(qtbot, session, tmp_path, shot):
    """Look at them: each page grabbed in the light and the dark palette at 1200×760 and
    1600×1000 (one wizard per page, re-themed in place)."""
    core, export = _core_bib(tmp_path / "ra_core.bib"), _export_csv(tmp_path / "baseline.csv")
    run, sheet = _run(tmp_path / "bm25.run"), _topics_sheet(tmp_path / "core_pubs.xlsx")
    roles = _open(qtbot, session, [core, export, run])
    roles.next()
    roles.settings_page.topic_combo.setCurrentText("Robotic Arthroplasty")
    wizards = {"roles": roles, "trec_preview": _open(qtbot, session, [run]),
               "filter": _open(qtbot, session, [sheet])}
    try:
        for dark in (False, True):
            theme.use_fusion(dark)
            for size in ((1200, 760), (1600, 1000)):
                for name, wizard in wizards.items():
                    wizard.resize(*size)
                    QApplication.processEvents()
                    shot(wizard, f"wizard_{name}_{size[0]}_{'dark' if dark else 'light'}")
    finally:
        theme.apply_theme("system")


@pytest.fixture
def with_results(tmp_path, small_files, qtbot):
    """Topic T with a core set and a result list, topic R with a result list only."""
    project = Project.create(tmp_path / "r.litq")
    core, results = small_files
    run_job(ingest.import_file(project, core, topic="T", role="core", name="core"))
    run_job(ingest.import_file(project, results, topic="T", role="results", name="scopus"))
    run_job(ingest.import_file(project, results, topic="R", role="results", name="scopus"))
    session = ProjectSession(project)
    yield session
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    assert session.close()


def _roles(page):
    return {p.name: c.currentData() for p, c in page.role_combos.items()}


def test_a_second_import_is_search_results_and_the_summary_names_each_role(
        qtbot, with_results, tmp_path):
    """Into a topic with a core set and a result list, a small file clicked through
    becomes a result list, never the known-relevant set; the summary says so per file."""
    update, export = _core_bib(tmp_path / "update.bib"), _export_csv(tmp_path / "more.csv")
    wizard = _open(qtbot, with_results, [update, export])
    wizard.next()
    page = wizard.settings_page
    page.topic_combo.setCurrentText("T")
    assert _roles(page) == {"update.bib": "results", "more.csv": "results"}
    combo = page.role_combos[export]
    combo.setCurrentIndex(combo.findData("other"))  # the user's own choice
    combo.activated.emit(combo.currentIndex())
    _import(qtbot, wizard)
    roles = {i.name: i.role for i in queries.lists(with_results.project, "T")}
    assert roles == {"core": "core", "scopus": "results", "update": "results", "more": "other"}
    summary = wizard.summary_page
    row = [key for key, _ in summary.ROWS].index("role")
    assert summary.counts.verticalHeaderItem(row).text() == "Imported as"
    assert [summary.counts.item(row, c).text() for c in range(2)] == ["Search results",
                                                                      "Other list"]


def test_a_topic_with_result_lists_but_no_core_set_gets_no_core_guess(qtbot, with_results,
                                                                       tmp_path):
    seeds = _core_bib(tmp_path / "seeds.bib")
    wizard = _open(qtbot, with_results, [seeds])
    wizard.next()
    page = wizard.settings_page
    page.topic_combo.setCurrentText("R")
    assert _roles(page) == {"seeds.bib": "results"}
    page.topic_combo.setCurrentText("a new topic")  # a brand-new topic: the smallest file
    assert _roles(page) == {"seeds.bib": "core"}
    page.topic_combo.setCurrentText("T")
    assert _roles(page) == {"seeds.bib": "results"}
