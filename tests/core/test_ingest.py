"""The import pipeline: counts, linking into works, recall, refusal and cancel safety."""

import pytest

from litqeval_gui.core import evaluation
from litqeval_gui.core.errors import ImportCancelled, ImportRefused
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches, queries


def _import(project, path, **kw):
    return run_job(ingest.import_file(project, path, **kw))


def _snapshot(project):
    """Everything stored, as plain tuples (to prove a refused import changed nothing)."""
    db = project.db
    return {t: db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("topics", "imports", "records", "links")}


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.litq") as p:
        yield p


def test_core_then_results_counts_and_recall(project, small_files):
    core, results = small_files
    s1 = _import(project, core, topic="T", role="core", name="core")
    assert (s1.read, s1.new, s1.duplicate, s1.matched, s1.rejected) == (3, 3, 0, 0, 0)
    assert s1.format == "ris"

    s2 = _import(project, results, topic="T", role="results", name="q1",
                 query="semantic AND precision")
    assert s2.format == "csv"
    # 5 rows: 2 are core works (DOI / title), 1 in-file duplicate → 2 new works
    assert (s2.read, s2.new, s2.duplicate, s2.matched, s2.rejected) == (5, 2, 3, 2, 0)
    assert (s2.in_file, s2.known) == (1, 2)  # the duplicates: 1 in the file, 2 core works

    report = evaluation.recall_report(project, "T")
    [row] = report.lists
    assert (row.name, row.size, row.core, row.retrieved_core) == ("q1", 4, 3, 2)
    assert row.recall == pytest.approx(2 / 3)
    assert [(m.title, m.doi) for m in row.missed] == [
        ("Core publications as a gold standard for query recall", "10.1000/core.2")]

    info = {i.name: i for i in queries.lists(project, "T")}
    assert info["q1"].query == "semantic AND precision"
    assert info["q1"].records == 5 and info["q1"].size == 4
    [topic] = queries.topics(project)
    assert (topic.name, topic.core, topic.lists, topic.records, topic.works) == ("T", 3, 1, 8, 5)


def test_core_import_after_results_counts_matches(project, small_files):
    core, results = small_files
    _import(project, results, topic="T", role="results", name="q1")
    s = _import(project, core, topic="T", role="core", name="core")
    assert s.matched == 2
    assert (s.new, s.known, s.in_file) == (1, 2, 0)


def _assert_refused_unchanged(project, small_files, job, match):
    before = _snapshot(project)
    with pytest.raises((ImportRefused, ImportCancelled), match=match):
        run_job(job)
    assert _snapshot(project) == before


def test_refusals_leave_project_unchanged(project, small_files, tmp_path):
    core, results = small_files
    _import(project, core, topic="T", role="core", name="core")
    binary = tmp_path / "x.bin"
    binary.write_bytes(bytes(range(256)) * 20)
    _assert_refused_unchanged(project, small_files, ingest.import_file(
        project, binary, topic="T", role="results"), "binary")
    _assert_refused_unchanged(project, small_files, ingest.import_file(
        project, results, topic="T", role="results", name="core"), "already has a list")
    _assert_refused_unchanged(project, small_files, ingest.import_file(
        project, core, topic="T", role="core", name="again"), "already imported")
    _assert_refused_unchanged(project, small_files, ingest.import_file(
        project, results, topic="T", role="bogus"), "role must be")


def test_refusal_while_parsing_in_a_new_topic_leaves_nothing(project, small_files, tmp_path):
    core, _ = small_files
    _import(project, core, topic="T", role="core", name="core")
    before = _snapshot(project)
    bad = tmp_path / "bad.ris"
    bad.write_text("TY  - JOUR\nPY  - 2001\nER  - \n\n" * 3, encoding="utf-8")
    _assert_refused_unchanged(project, small_files, ingest.import_file(
        project, bad, topic="New topic", role="results"), "no usable records")
    assert _snapshot(project) == before


def test_cancel_inside_the_transaction_rolls_back(project, small_files):
    core, results = small_files
    _import(project, core, topic="T", role="core", name="core")
    before = _snapshot(project)
    token = CancelToken()
    job = ingest.import_file(project, results, topic="T", role="results", token=token)
    with pytest.raises(ImportCancelled):
        for progress in job:
            if progress.message.startswith("linking"):
                token.cancel()  # records are inserted by now
    assert token.cancelled
    assert _snapshot(project) == before


def test_closing_an_unfinished_job_rolls_back(project, small_files):
    core, _ = small_files
    before = _snapshot(project)
    job = ingest.import_file(project, core, topic="T", role="core")
    for progress in job:
        if progress.message.startswith("linking"):
            break
    job.close()
    assert _snapshot(project) == before


def _one_record_ris(path, doi, author="Roe, R"):
    path.write_text(f"TY  - JOUR\nAU  - {author}\nTI  - Deep learning for screening of medical abstracts\n"
                    f"PY  - 2020\nDO  - {doi}\nER  - \n\n", encoding="utf-8")
    return path


def test_verdicts_persist_and_are_respected_by_later_imports(project, tmp_path):
    # same title, different DOIs (preprint vs published): listed as uncertain, never merged
    core = _one_record_ris(tmp_path / "c.ris", "10.1000/published")
    res = _one_record_ris(tmp_path / "r.ris", "10.1101/preprint")
    _import(project, core, topic="T", role="core", name="core")
    summary = _import(project, res, topic="T", role="results", name="r1")
    assert summary.uncertain == 1 and summary.matched == 0
    [m] = matches.matches(project, "T", uncertain=True)
    assert {m.a.list_name, m.b.list_name} == {"core", "r1"}

    project.write(matches.decide_op(m.id, accept=False))
    assert matches.matches(project, "T", uncertain=True) == []
    assert evaluation.recall_report(project, "T").lists[0].retrieved_core == 0
    # the same record imported again as another list: the rejection holds for it too
    again = _import(project, _one_record_ris(tmp_path / "r2.ris", "10.1101/preprint",
                                                    author="Roe, Richard"),
                    topic="T", role="results", name="r2")
    assert again.uncertain == 0
    assert evaluation.recall_report(project, "T", "r2").lists[0].retrieved_core == 0

    # accepting the original match merges the works: r1 now retrieves the core record
    project.write(matches.decide_op(m.id, accept=True))
    assert evaluation.recall_report(project, "T", "r1").lists[0].retrieved_core == 1


def test_short_titles_with_equal_abstracts_join_one_work_in_the_project(project, tmp_path):
    """The abstract of a short title is read from the project for linking."""
    entry = "TY  - JOUR\nTI  - {title}\nAB  - {abstract}\nER  - \n\n"
    first, second = tmp_path / "a.ris", tmp_path / "b.ris"
    first.write_text(entry.format(title="Editorial", abstract="On sleep and caffeine."))
    second.write_text(entry.format(title="Editorial.", abstract="On sleep and caffeine")
                      + entry.format(title="Editorial", abstract="On something else"))
    _import(project, first, topic="T", role="core", name="core")
    summary = _import(project, second, topic="T", role="results", name="r")
    # the other abstract: uncertain with both "Editorial" records
    assert (summary.matched, summary.new, summary.uncertain) == (1, 1, 2)


def test_a_list_named_after_a_hostile_file_name_is_one_line(project, tmp_path):
    text = "TY  - JOUR\nTI  - A title\nER  - \n"
    odd = tmp_path / "scopus\n2024\t\x1b[31mred.ris"  # a newline, a tab, a terminal escape
    odd.write_text(text, encoding="utf-8")
    summary = _import(project, odd, topic="T", role="results")
    assert summary.name == "scopus 2024 [31mred"
    assert [i.name for i in queries.lists(project, "T")] == ["scopus 2024 [31mred"]
    nameless = tmp_path / "\n\t.ris"
    nameless.write_text(text.replace("A title", "Another title"), encoding="utf-8")
    before = _snapshot(project)
    with pytest.raises(ImportRefused, match="the list needs a name"):
        _import(project, nameless, topic="T", role="results")
    assert _snapshot(project) == before
    assert _import(project, nameless, topic="T", role="results", name="named").name == "named"
