"""A document collection gives texts to a topic's TREC records: every layout, what is
kept and left out, PMIDs recognised, the text shown, ranked by and refused cleanly."""

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import _texts

RUN = "".join(f"7 Q0 {docid} {rank} {10 - rank} bm25\n"
              for rank, docid in enumerate(["23919950", "11111111", "22222222"], 1))
QRELS = "7 0 23919950 1\n7 0 33333333 0\n"
TITLE = "Aspirin after myocardial infarction"
LAYOUTS = {
    "jsonl": (f'{{"id": "23919950", "title": "{TITLE}", '
              f'"content": "{TITLE} Aspirin lowered deaths."}}\n'
              '{"id": "99999999", "title": "Not in any run", "text": "Left out."}\n'
              '{"id": "33333333", "title": "Judged but not run", "text": "Kept."}\n'),
    "tsv": (f"docid\ttitle\tabstract\n23919950\t{TITLE}\tAspirin lowered deaths.\n"
            "99999999\tNot in any run\tLeft out.\n33333333\tJudged but not run\tKept.\n"),
    "trec-doc": (f"<DOC>\n<DOCNO>23919950</DOCNO>\n<TITLE>{TITLE}</TITLE>\n"
                 "<TEXT>\nAspirin lowered\ndeaths.\n</TEXT>\n</DOC>\n"
                 "<DOC>\n<DOCNO>99999999</DOCNO>\n<TITLE>Not in any run</TITLE>\n</DOC>\n"
                 "<DOC>\n<DOCNO>33333333</DOCNO>\n<HEADLINE>Judged but not run</HEADLINE>\n"
                 "</DOC>\n"),
    "medline": (f"PMID- 23919950\nTI  - {TITLE}\nAB  - Aspirin lowered deaths.\n\n"
                "PMID- 99999999\nTI  - Not in any run\n\n"
                "PMID- 33333333\nTI  - Judged but not run\n"),
}
SUFFIX = {"jsonl": ".jsonl", "tsv": ".tsv", "trec-doc": ".trec", "medline": ".nbib"}


@pytest.fixture
def project(tmp_path):
    (tmp_path / "run.txt").write_text(RUN, encoding="utf-8")
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as p:
        run_job(ingest.import_file(p, tmp_path / "run.txt", topic="7", role="results",
                                   name="run"))
        run_job(ingest.import_file(p, tmp_path / "qrels.txt", topic="7", role="other",
                                   name="qrels"))
        yield p


def _run_record(project: Project, docid: str) -> int:
    return project.db.execute(
        "SELECT r.id FROM records r JOIN imports i ON i.id = r.import_id WHERE i.name = 'run' "
        "AND json_extract(r.ids, '$.docid') = ?", [docid]).fetchone()[0]


def _collection(tmp_path, layout: str):
    path = tmp_path / f"docs{SUFFIX[layout]}"
    path.write_text(LAYOUTS[layout], encoding="utf-8")
    return path


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_gives_the_run_record_its_text(project, tmp_path, layout):
    summary = run_job(ingest.import_file(project, _collection(tmp_path, layout), topic="7",
                                         role="collection", name="texts"))
    assert summary.format == layout
    # 3 documents: the run's first docid and a judged one are kept, one no record names is not
    assert (summary.read, summary.new, summary.matched, summary.rejected) == (2, 0, 2, 0)
    assert any("1 document(s) of the collection are in no list" in n for n in summary.notes)
    assert "records given a text 2" in summary.report()
    record_id = _run_record(project, "23919950")
    detail = queries.record_detail(project, record_id)
    assert detail.record.title == TITLE
    assert detail.record.abstract == "Aspirin lowered deaths."
    assert detail.record.rank == 1 and detail.record.ids["docid"] == "23919950"
    assert detail.text_from is not None and detail.text_from.list_name == "texts"
    assert store.record_title(project, record_id) == TITLE
    assert _texts(project, [record_id, _run_record(project, "11111111")]) == [
        f"{TITLE}\n\nAspirin lowered deaths.", ""]
    assert [info.name for info in queries.lists(project, "7") if info.role == "results"] == [
        "run"]


def test_a_medline_collection_names_the_bare_docid_a_pmid(project, tmp_path):
    run_job(ingest.import_file(project, _collection(tmp_path, "medline"), topic="7",
                               role="collection", name="pubmed"))
    record = queries.record_detail(project, _run_record(project, "23919950")).record
    assert record.pmid == "23919950"


@pytest.mark.parametrize("pubmed_ids", [False, True])
def test_pubmed_ids_says_numeric_docids_are_pmids(project, tmp_path, pubmed_ids):
    run_job(ingest.import_file(project, _collection(tmp_path, "jsonl"), topic="7",
                               role="collection", pubmed_ids=pubmed_ids))
    record = queries.record_detail(project, _run_record(project, "23919950")).record
    assert record.pmid == ("23919950" if pubmed_ids else "")


def _snapshot(project: Project) -> dict:
    return {t: project.db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("topics", "imports", "records", "links")}


def test_a_collection_for_an_empty_topic_is_refused_and_changes_nothing(project, tmp_path):
    before = _snapshot(project)
    with pytest.raises(ImportRefused, match="topic 'new' has no records to give texts to"):
        run_job(ingest.import_file(project, _collection(tmp_path, "jsonl"), topic="new",
                                   role="collection"))
    assert _snapshot(project) == before


def test_a_collection_naming_none_of_the_topics_docids_is_refused(project, tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text('{"id": "1", "title": "a"}\n{"id": "2", "title": "b"}\n', encoding="utf-8")
    before = _snapshot(project)
    with pytest.raises(ImportRefused, match="none of its 2 document"):
        run_job(ingest.import_file(project, path, topic="7", role="collection"))
    assert _snapshot(project) == before


def test_bad_lines_are_rejected_and_reading_goes_on(project, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "23919950", "title": "Kept"}\n{"id": \n{"title": "no id"}\n'
                    '{"id": "11111111", "title": "Also kept"}\n', encoding="utf-8")
    summary = run_job(ingest.import_file(project, path, topic="7", role="collection"))
    assert (summary.read, summary.rejected, summary.matched) == (4, 2, 2)
    assert [p.split(": ", 2)[1] for p in summary.problems] == ["line 2", "line 3"]
