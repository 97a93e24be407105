"""The import summary: its columns show every count in full however many lists were
imported and whatever the font, and its offer to review uncertain matches counts those
awaiting a verdict now (the count the review dialog and the CLI show), not those the
imports found."""

from pathlib import Path

import pytest
from PySide6.QtGui import QFont

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.import_wizard.state import WizardState
from litqeval_gui.gui.import_wizard.summary import SummaryPage
from litqeval_gui.gui.screens.matches import dialog as dialog_module
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings


def _summary(number: int, topic: str) -> ImportSummary:
    return ImportSummary(number, topic, f"run_{number:03d}_bm25_with_a_long_name", "results",
                         "trec-run", "utf-8", "", 1_234_567 + number, 987_654 + number,
                         1234, 0, 0, 0)


@pytest.fixture
def many(tmp_path, qtbot, request):
    """A summary page of 120 imported lists, into one topic or into one topic each."""
    project = Project.create(tmp_path / "p.litq")
    topics = [f"{100 + i}" for i in range(120)] if request.param else ["T"] * 120
    for topic in set(topics):
        project.write(lambda p, t=topic: (p.topic_id(t, create=True), Changes())[1])
    session = ProjectSession(project)
    summaries = {(Path("run.txt"), str(i)): _summary(i, topic)
                 for i, topic in enumerate(topics)}
    page = SummaryPage(WizardState(session, Settings(), summaries=summaries))
    qtbot.addWidget(page)
    page.resize(900, 600)
    page.initializePage()
    page.show()
    yield page
    page.close()
    assert session.close()


def _clipped(table) -> list[str]:
    """The cells (by their text) of columns narrower than their contents."""
    return [table.item(row, col).text() for col in range(table.columnCount())
            for row in range(table.rowCount())
            if table.item(row, col) is not None
            and table.columnWidth(col) < table.sizeHintForColumn(col)]


@pytest.mark.parametrize("many", [False, True], indirect=True, ids=["one topic", "120 topics"])
def test_every_count_shows_in_full_with_120_lists_and_a_larger_font(many, qtbot, shot):
    tables = [many.counts, many.topics_table]
    assert many.counts.columnCount() == 120
    for table in tables:
        assert _clipped(table) == []
    read = many.counts.item(1, 119).text()
    assert read == "1,234,686"
    assert many.counts.columnWidth(119) > many.counts.fontMetrics().horizontalAdvance(read)
    bigger = QFont(many.font())
    bigger.setPointSizeF(bigger.pointSizeF() * 1.6)
    for table in tables:
        table.setFont(bigger)  # a theme or a user's font after the page was filled
        assert _clipped(table) == []
    header = many.counts.horizontalHeader()
    assert header.sectionSize(0) < header.sectionSizeHint(0)  # a long name is elided
    shot(many, "import_summary_120_lists")


def _ris(path: Path, doi: str) -> Path:
    path.write_text("TY  - JOUR\nTI  - Deep learning for screening of medical abstracts\n"
                    f"PY  - 2020\nDO  - {doi}\nER  - \n", encoding="utf-8")
    return path


@pytest.fixture
def imported(tmp_path, qtbot):
    """A core record and two result lists with the same title and DOIs of their own: the
    imports found 1 and 2 uncertain matches (3 in all)."""
    project = Project.create(tmp_path / "m.litq")
    summaries = {}
    for name, doi in (("core", "10.1000/c"), ("r1", "10.1101/p1"), ("r2", "10.5281/z2")):
        path = _ris(tmp_path / f"{name}.ris", doi)
        summaries[(path, None)] = run_job(ingest.import_file(
            project, path, topic="T", role="core" if name == "core" else "results", name=name))
    session = ProjectSession(project)
    page = SummaryPage(WizardState(session, Settings(), summaries=summaries))
    qtbot.addWidget(page)
    page.initializePage()
    page.show()
    yield page, session
    page.close()
    assert session.close()


def test_the_offer_counts_the_matches_awaiting_a_verdict_now(imported, qtbot, monkeypatch):
    page, session = imported
    assert sum(s.uncertain for s in page.summaries()) == 3
    assert page.matches_button.text() == "Review 3 &uncertain match(es)…"
    first, *_ = matches.matches(session.project, "T", uncertain=True)
    with qtbot.waitSignal(session.changed):
        session.write(matches.decide_op(first.id, accept=False))
    assert matches.uncertain_count(session.project, "T") == 2
    assert page.matches_button.text() == "Review 2 &uncertain match(es)…"

    monkeypatch.setattr(dialog_module, "ask", lambda *args: True)
    page.review_matches()
    dialog = page.matches_dialog
    reason = dialog.reason.currentData()
    with qtbot.waitSignal(session.changed):
        assert dialog.reject_reason(reason) == 2
    qtbot.waitUntil(lambda: not page.matches_button.isEnabled())
    assert page.matches_button.text() == "No uncertain matches"
    assert matches.uncertain_count(session.project, "T") == 0
    assert "0 awaiting a verdict · 0 accepted · 3 rejected" == dialog.counts_label.text()
    dialog.close()
