"""The import wizard with many TREC topics and with a filtered table: TREC runs of many
topics under long file names keep the wizard within 1 200 px and import in one pass
without a topic name, the summary telling per topic what it created; the filter's values
and its count of the records it leaves out come from the whole file, not the preview."""

import pytest
from PySide6.QtWidgets import QApplication

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.gui.import_wizard.preview import PREVIEW_ROWS
from litqeval_gui.gui.import_wizard.wizard import ImportWizard
from litqeval_gui.gui.session import ProjectSession

MAX_WIDTH = 1200
TOPICS = [f"CD0{1000 + i}" for i in range(12)]
LONG = "_participant_submission_with_a_very_long_descriptive_name_bm25_rm3_rerank"


@pytest.fixture
def session(tmp_path, qtbot):
    session = ProjectSession(Project.create(tmp_path / "t.litq"))
    yield session
    qtbot.waitUntil(lambda: session.jobs.active() == [])
    assert session.close()


def _open(qtbot, session, paths):
    wizard = ImportWizard(session, paths)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    qtbot.waitUntil(lambda: wizard.state.files and all(s.ready or s.error
                                                       for s in wizard.state.files))
    return wizard


def _fits(wizard):
    QApplication.processEvents()  # the layout settles
    assert wizard.width() <= MAX_WIDTH, wizard.width()
    assert wizard.sizeHint().width() <= MAX_WIDTH, wizard.sizeHint().width()
    assert wizard.minimumSizeHint().width() <= MAX_WIDTH


def _runs(folder):
    """Three runs of twelve topics (the second has no line of the last topic), each topic
    ranked to a depth of its own; returns the paths and the records per (topic, run)."""
    paths, depth = [], {}
    for run in range(3):
        path = folder / f"run{run}{LONG}.run"
        lines = []
        for t, topic in enumerate(TOPICS):
            if run == 1 and topic == TOPICS[-1]:
                continue
            n = 2 + (t * 3 + run) % 7
            depth[topic, path.stem] = n
            lines += [f"{topic} Q0 doc{t}-{r} {r} {20 - r}.5 run{run}" for r in range(1, n + 1)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths, depth


def _topic_table(page):
    """topic -> list name -> records read, as the summary's per-topic table shows them."""
    table, first = page.topics_table, len(page.TOPIC_COLUMNS)
    return {table.item(row, 0).text(): {
        table.horizontalHeaderItem(col).text(): int(table.item(row, col).text())
        for col in range(first, table.columnCount()) if table.item(row, col).text() != "–"}
        for row in range(table.rowCount())}


def test_many_topic_runs_fit_and_import_in_one_pass_without_a_topic_name(
        qtbot, session, tmp_path, shot):
    paths, depth = _runs(tmp_path)
    wizard = _open(qtbot, session, paths)
    _fits(wizard)
    assert wizard.preview_page.notes_label.text().startswith("Note: 12 TREC topics: each")
    shot(wizard, "wizard_trec_preview")
    wizard.next()
    page = wizard.settings_page
    assert wizard.currentId() == ImportWizard.SETTINGS
    _fits(wizard)
    assert not page.topic_combo.isVisible()  # nothing goes to a named topic
    assert page.topics_label.isVisible()
    assert page.topics_label.text().startswith("from the files: 12 TREC topics: CD01000, ")
    assert all(line.isVisible() for line, _ in page.topic_lines.values())
    assert page.topic_lines[paths[1]][1].startswith("a list in each of its 11 TREC topics")
    shot(wizard, "wizard_trec_settings")

    wizard.next()  # no topic name asked for
    assert page.error_label.text() == ""
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY)
    _fits(wizard)
    assert wizard.state.failures == {}
    lists = {(i.topic, i.name): (i.role, i.records) for i in queries.lists(session.project)}
    assert lists == {key: ("results", n) for key, n in depth.items()}
    assert len(lists) == 35 and {t for t, _ in lists} == set(TOPICS)
    summary = wizard.summary_page
    assert summary.headline.text().startswith("35 list(s) imported into 12 topics (")
    assert summary.tabs.currentWidget() is summary.topics_table
    shown = _topic_table(summary)
    assert shown == {topic: {name: n for (t, name), n in depth.items() if t == topic}
                     for topic in TOPICS}
    table = summary.topics_table
    for row, topic in enumerate(TOPICS):  # lists, records read, works (the runs share ids)
        made = [n for (t, _), n in depth.items() if t == topic]
        assert [table.item(row, c).text() for c in range(4)] == [
            topic, str(len(made)), str(sum(made)), str(max(made))]
    assert table.item(len(TOPICS) - 1, 1).text() == "2"
    shot(wizard, "wizard_trec_summary")


def test_a_table_beside_trec_runs_needs_the_topic_name(qtbot, session, tmp_path):
    paths, depth = _runs(tmp_path)
    table = tmp_path / "export.csv"
    table.write_text("Title,DOI\nA first paper,10.1/a\nA second paper,10.1/b\n",
                     encoding="utf-8")
    wizard = _open(qtbot, session, [paths[0], table])
    wizard.next()
    page = wizard.settings_page
    assert page.topic_combo.isVisible() and not page.topics_label.isVisible()
    assert page.topic_lines[paths[0]][0].text().endswith("(not into the topic above)")
    wizard.next()
    assert wizard.currentId() == ImportWizard.SETTINGS
    assert page.error_label.text() == "Name the topic these lists belong to."
    page.topic_combo.setCurrentText("Exports")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY)
    lists = {(i.topic, i.name): i.records for i in queries.lists(session.project)}
    assert lists == {("Exports", "export"): 2,
                     **{k: n for k, n in depth.items() if k[1] == paths[0].stem}}


def _sheet(path, rows=200):
    """A table whose first rows are all "Alpha"; "Beta" and "Gamma late" come after the
    preview's rows. Returns the path and each row's topic."""
    topics = ["Alpha" if i < PREVIEW_ROWS + 5 or i % 3 == 0 else
              "Beta" if i % 3 == 1 else "Gamma late" for i in range(rows)]
    lines = ["Topic,Title,DOI"] + [f"{t},Paper number {i} on {t},10.5555/p{i}"
                                   for i, t in enumerate(topics)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, topics


def test_the_filter_counts_and_offers_from_the_whole_file(qtbot, session, tmp_path, shot):
    path, topics = _sheet(tmp_path / "multi_topic_export.csv")
    wizard = _open(qtbot, session, [path])
    page, state = wizard.preview_page, wizard.state.files[0]
    assert {r.raw["Topic"] for r in state.result.records} == {"Alpha"}  # the preview's rows
    page.where_column.setCurrentIndex(page.where_column.findData("Topic"))
    page.where_column.activated.emit(page.where_column.currentIndex())
    qtbot.waitUntil(lambda: state.tally is not None)
    offered = [page.where_value.itemText(i) for i in range(page.where_value.count())]
    assert offered == ["Alpha", "Beta", "Gamma late"]
    assert page.filter_label.text() == ("3 value(s) of Topic in the 200 records of the "
                                        "whole file.")

    page.where_value.setEditText("Gamma late")  # as picked from the list
    page.where_value.lineEdit().editingFinished.emit()
    qtbot.waitUntil(lambda: state.ready)
    kept = topics.count("Gamma late")
    left_out = len(topics) - kept
    assert (kept, left_out) == (58, 142)
    note = f"{left_out} record(s) left out by the filter Topic='Gamma late'"
    assert page.notes_label.text() == f"Note: {note}"
    assert page.filter_label.text() == (f"The filter keeps {kept} of the 200 records of the "
                                        f"whole file and leaves out {left_out}.")
    assert page.where_value.currentText() == "Gamma late"
    _fits(wizard)
    shot(wizard, "wizard_filter_preview")

    wizard.next()
    wizard.settings_page.topic_combo.setCurrentText("Gamma")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY)
    [summary] = wizard.state.summaries.values()
    assert note in summary.notes  # the import leaves out what the preview said
    assert (summary.read, queries.lists(session.project, "Gamma")[0].records) == (kept, kept)


def test_another_column_or_mapping_counts_again(qtbot, session, tmp_path):
    path, topics = _sheet(tmp_path / "export.csv")
    wizard = _open(qtbot, session, [path])
    page, state = wizard.preview_page, wizard.state.files[0]
    page.where_column.setCurrentIndex(page.where_column.findData("Topic"))
    page.where_column.activated.emit(page.where_column.currentIndex())
    page.where_value.setEditText("beta")  # case does not matter, as in the import
    page.where_value.lineEdit().editingFinished.emit()
    qtbot.waitUntil(lambda: state.tally is not None and state.ready)
    assert page.filter_label.text().startswith(f"The filter keeps {topics.count('Beta')} of")
    page.where_column.setCurrentIndex(page.where_column.findData("DOI"))
    page.where_column.activated.emit(page.where_column.currentIndex())
    assert state.where == {} and page.where_value.currentText() == ""
    qtbot.waitUntil(lambda: state.tally is not None and state.tally.column == "DOI")
    assert state.tally.distinct == 200 and page.where_value.count() == 200
    assert page.filter_label.text().startswith("200 value(s) of DOI in the 200 records")


def test_a_run_of_one_topic_goes_to_the_topic_of_its_id(qtbot, session, tmp_path):
    run = tmp_path / "one.run"
    run.write_text("401 Q0 d1 1 2.5 bm25\n401 Q0 d2 2 1.5 bm25\n", encoding="utf-8")
    wizard = _open(qtbot, session, [run])
    assert wizard.preview_page.notes_label.text().startswith("Note: 1 TREC topic: it is")
    wizard.next()
    assert not wizard.settings_page.topic_combo.isVisible()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == ImportWizard.SUMMARY)
    assert [(i.topic, i.name, i.records) for i in queries.lists(session.project)] == [
        ("401", "one", 2)]
