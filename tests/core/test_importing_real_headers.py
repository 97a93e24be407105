"""The headers of real exports (issue 10 §2) and what a generic ``id`` column holds.

Small fixtures written here with the headers of the real files: the LitQEval core set
(``Dimensions ID, Title, DOI, Abstract, PubYear``), Dimensions search results
(``id,title,abstract`` with ``pub.…`` ids), the core list (``Topic, Survey, Pub_id, Title``)
and a RIS core set whose Dimensions id sits in a note.
"""

import pytest
from openpyxl import Workbook

from litqeval_gui.core import evaluation
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.importing import read_records


def _xlsx(path, rows):
    book = Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def _read(path):
    return run_job(read_records(path))


def test_dimensions_core_xlsx_keeps_its_year_and_id(tmp_path):
    path = _xlsx(tmp_path / "core.xlsx", [
        ("Dimensions ID", "Title", "DOI", "Abstract", "PubYear"),
        ("pub.1095507755", "An approach to manage product lines", "10.1109/sbes.2010.18",
         "Resumo.", "2010")])
    result = _read(path)
    record = result.records[0]
    assert (record.year, record.ids, record.doi) == (2010, {"dimensions": "pub.1095507755"},
                                                     "10.1109/sbes.2010.18")
    assert result.database == "dimensions"


@pytest.mark.parametrize(("values", "kind", "stored"), [
    (["pub.1107809783", "pub.1000000001"], "dimensions", "pub.1107809783"),
    (["W2741809807", "https://openalex.org/W1"], "openalex", "W2741809807"),
    (["2-s2.0-85101234567", "2-s2.0-1"], "scopus_eid", "2-s2.0-85101234567"),
    (["WOS:000745678900001", "WOS:000000000000002"], "wos_ut", "WOS:000745678900001"),
    (["33782057", "31000001"], "docid", "33782057"),  # numbers: not assumed to be PMIDs
    (["pub.1107809783", "W1"], "docid", "pub.1107809783"),  # mixed: unknown kind
])
def test_a_generic_id_column_is_read_as_the_kind_its_values_show(tmp_path, values, kind,
                                                                  stored):
    path = tmp_path / "results.csv"
    path.write_text("id,title,abstract\n" + "".join(f"{v},Title {v},Text\n" for v in values))
    result = _read(path)
    assert result.records[0].ids == {kind: stored}
    assert (result.columns.get(kind), bool(result.recognised)) == ("id", kind != "docid")
    assert result.records[0].pmid == ""


def test_pmids_only_where_the_header_says_so(tmp_path):
    path = tmp_path / "screening.csv"
    path.write_text("record_id,title,abstract,pubmed_id,label_included\n"
                    "1,A title,Text,10023456,0\n")
    record = _read(path).records[0]
    assert (record.pmid, record.ids) == ("10023456", {"docid": "1"})


def test_the_core_list_headers_give_dimensions_ids(tmp_path):
    path = _xlsx(tmp_path / "core_publications.xlsx", [
        ("Topic", "Survey", "Pub_id", "Title"),
        ("Synthetic Biology", "pub.1035441940", "pub.1010407598", "Programmable cells")])
    assert _read(path).records[0].ids == {"dimensions": "pub.1010407598"}


def test_a_ris_note_naming_a_dimensions_id_is_kept(tmp_path):
    path = tmp_path / "core.ris"
    path.write_text("TY  - JOUR\nTI  - Smart lighting in warehouses\nPY  - 2021\n"
                    "N1  - Dimensions pub.1138791522\nN1  - Erratum: doi.org/10.1000/other\n"
                    "ER  - \n")
    record = _read(path).records[0]
    assert (record.ids, record.doi) == ({"dimensions": "pub.1138791522"}, "")


def test_a_core_record_is_found_through_the_dimensions_id_both_files_carry(tmp_path):
    core = _xlsx(tmp_path / "core.xlsx", [
        ("Dimensions ID", "Title", "DOI", "Abstract", "PubYear"),
        ("pub.1107809783", "Robotic arthroplasty: a review", "", "", "2018")])
    results = tmp_path / "results.csv"
    results.write_text("id,title,abstract\n"
                       "pub.1107809783,Robot-assisted joint replacement surgery,Text\n")
    with Project.create(tmp_path / "p.litq") as project:
        for path, role in ((core, "core"), (results, "results")):
            run_job(ingest.import_file(project, path, topic="T", role=role))
        report = evaluation.recall_report(project, "T")
    assert [(r.retrieved_core, r.recall) for r in report.lists] == [(1, 1.0)]


def test_full_dimensions_and_scopus_headers(tmp_path):
    dimensions = tmp_path / "dimensions.csv"
    dimensions.write_text(
        "Rank,Publication ID,DOI,PMID,Title,Abstract,Source title,MeSH terms,"
        "Publication Date,Volume,Issue,Pagination,Publication Type,Authors,Source Linkout\n"
        '1,pub.1,10.1000/x,123,A title,Text,J Test,"Humans; Sleep",2021-03-29,5,2,10-20,'
        'article,"Doe, Jane; Roe, Richard",https://j.org/x\n')
    record = _read(dimensions).records[0]
    assert (record.year, record.venue, record.keywords, record.authors, record.pages,
            record.url, record.ids) == (
        2021, "J Test", ["Humans", "Sleep"], ["Doe, Jane", "Roe, Richard"], "10-20",
        "https://j.org/x", {"dimensions": "pub.1"})
    scopus = tmp_path / "scopus.csv"
    scopus.write_text("Authors,Title,Year,Source title,Volume,Art. No.,Page start,Page end,"
                      "DOI,Link,Abstract,Publisher,ISSN,Document Type,EID\n"
                      "Doe J.,A title,2020,J,3,e12,,,10.1000/y,https://s.com/r,Text,Pub,"
                      "12345678,Article,2-s2.0-9\n")
    record = _read(scopus).records[0]
    assert (record.pages, record.publisher, record.issn, record.ids) == (
        "e12", "Pub", "12345678", {"scopus_eid": "2-s2.0-9"})
