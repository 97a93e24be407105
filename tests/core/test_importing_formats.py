"""Each database's real export structure → exact record values (fixtures in tests/fixtures/import)."""

from pathlib import Path

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import read_records

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"


def load(name, **options):
    return run_job(read_records(FIX / name, **options))


def by_title(result, start):
    return next(r for r in result.records if r.title.startswith(start))


# ----------------------------------------------------------------------------- tabular

def test_scopus_csv_bom_crlf_quotes_multiline_and_ids():
    res = load("scopus.csv")
    assert (res.format, res.encoding, res.database) == ("csv", "utf-8-sig", "scopus")
    assert res.columns["keywords"] == "Author Keywords" and res.columns["scopus_eid"] == "EID"
    first = res.records[0]
    assert first.title == 'Screening prioritisation with "active learning": a replication'
    assert first.abstract == ("Background: screening is costly.\nMethods: we replicate, "
                              'with commas, "quotes" and a second line.')
    assert first.authors == ["Müller H.", "O'Neil A.B."]
    assert (first.year, first.venue, first.type, first.language) == (
        2021, "Journal of Clinical Epidemiology", "Article", "English")
    assert first.keywords == ["active learning", "systematic reviews"]
    assert (first.doi, first.pmid) == ("10.1016/j.jclinepi.2021.01.005", "33571234")
    assert first.ids == {"scopus_eid": "2-s2.0-85101234567"}
    assert first.raw["Index Keywords"] == "Article; Humans; Machine Learning"
    assert [r.rank for r in res.records] == [1, 2, 3]
    assert res.records[1].source_line == 4  # the multi-line abstract spans lines 2-3
    third = res.records[2]  # no title, no abstract: kept by its EID as a "no text" record
    assert (third.title, third.abstract, third.source_line) == ("", "", 5)
    assert (third.ids, third.authors, third.year) == (
        {"scopus_eid": "2-s2.0-85090000000"}, ["Doe J."], 2020)
    assert res.rejected == []


def test_wos_savedrecs_tab_delimited_unquoted():
    res = load("wos_savedrecs.txt")
    assert (res.format, res.database) == ("tsv", "wos")
    rec = res.records[0]
    assert rec.title == '"Stopping" rules for technology-assisted review'
    assert rec.abstract == '"When to stop" is hard. We compare 5 rules.'
    assert rec.authors == ["Smith, J", "Garcia-Lopez, M"]
    assert rec.keywords == ["stopping rules", "TAR", "recall"]
    assert (rec.year, rec.doi, rec.pmid, rec.type) == (2022, "10.1002/asi.24567", "34567890",
                                                       "Article")
    assert rec.ids == {"wos_ut": "WOS:000745678900001"}
    assert res.records[1].ids == {"wos_ut": "WOS:000512345600002"}
    assert res.records[1].doi == ""


def test_dimensions_csv_skips_about_the_data_line():
    res = load("dimensions.csv")
    assert res.database == "dimensions" and res.columns["year"] == "PubYear"
    rec = res.records[0]
    assert rec.title == "Automation of systematic reviews: a scoping review"
    assert rec.abstract == "We mapped tools.\nSecond paragraph."
    assert rec.authors == ["Tsafnat, Guy", "Glasziou, Paul"]
    assert (rec.doi, rec.pmid, rec.year) == ("10.1186/s13643-021-01600-1", "33761234", 2021)
    assert rec.ids == {"pmcid": "PMC8012345", "dimensions": "pub.1134567890"}
    assert rec.source_line == 3
    assert res.records[1].raw["Anthology title"] == "Proceedings of the Cochrane Colloquium"


def test_openalex_csv_without_abstract_column():
    res = load("openalex.csv")
    assert res.database == "openalex" and "abstract" not in res.columns
    rec = res.records[0]
    assert rec.title == ("The PRISMA 2020 statement: an updated guideline for reporting "
                         "systematic reviews")
    assert rec.authors == ["Matthew J. Page", "Joanne E. McKenzie", "Patrick M. Bossuyt"]
    assert (rec.doi, rec.pmid, rec.year, rec.venue) == ("10.1136/bmj.n71", "33782057", 2021,
                                                        "BMJ")
    assert rec.ids == {"openalex": "W3123456789"}
    assert rec.keywords == ["Guideline", "Reporting"]


def test_pubmed_csv_comma_separated_authors():
    res = load("pubmed.csv")
    assert res.database == "pubmed"
    rec = res.records[0]
    assert rec.authors == ["Page MJ", "McKenzie JE", "Bossuyt PM"]
    assert (rec.pmid, rec.doi, rec.year, rec.venue) == ("33782057", "10.1136/bmj.n71", 2021,
                                                        "BMJ")
    assert rec.ids == {"pmcid": "PMC8005924"}
    assert res.records[1].title == "Search filters, a review."


def test_lens_csv():
    rec = load("lens.csv").records[0]
    assert rec.title == "Citation screening using large language models"
    assert rec.authors == ["Alice Zhang", "Bob Kumar"]
    assert (rec.doi, rec.pmid, rec.year) == ("10.1002/jrsm.1600", "37000123", 2023)
    assert rec.ids == {"lens": "000-123-456-789-012"}
    assert rec.keywords == ["screening", "LLM"]


class _LxmlStyleError(SyntaxError):
    """What openpyxl raises on broken XML when lxml is installed (lxml.etree.XMLSyntaxError
    derives from SyntaxError, not from xml.etree's ParseError)."""


@pytest.mark.parametrize("where", ["load_workbook", "iter_rows"])
def test_xlsx_broken_xml_under_lxml_is_refused(tmp_path, monkeypatch, where):
    import openpyxl
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    from litqeval_gui.core.errors import ImportRefused

    path = tmp_path / "export.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["Title", "DOI"])
    book.active.append(["A title", "10.1/x"])
    book.save(path)

    def broken(*args, **kwargs):
        raise _LxmlStyleError("StartTag: invalid element name, line 1, column 2")

    target = openpyxl if where == "load_workbook" else ReadOnlyWorksheet
    monkeypatch.setattr(target, where, broken)
    with pytest.raises(ImportRefused, match="_LxmlStyleError: StartTag"):
        load(path)


def test_generic_table_named_dat_is_csv():
    res = load("generic_table.dat")
    assert (res.format, res.database) == ("csv", "")
    rec = res.records[0]
    assert (rec.title, rec.doi, rec.year) == ("Neural rankers for TAR", "10.5555/abc.123", 2022)
    assert rec.authors == ["Ng, A.", "Chen, B."] and rec.ids == {"docid": "D-1"}
    assert [(r.title, r.ids) for r in res.records[1:]] == [
        ("No abstract here", {"docid": "D-2"}), ("", {"docid": "D-3"})]  # kept by its id
    assert res.rejected == []


def test_xlsx_generated_with_openpyxl(tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["About the data: exported from Dimensions"])
    sheet.append(["Publication ID", "DOI", "PMID", "Title", "Abstract", "PubYear", "Authors"])
    sheet.append(["pub.1000000001", "10.1000/X", 12345, "Line one\nline two", "abs", 2020,
                  "A, B; C, D"])
    sheet.append([None, None, None, None, None, None, None])
    sheet.append(["pub.1000000002", None, None, "Second", None, 2021.0, None])
    path = tmp_path / "export.xlsx"
    book.save(path)
    res = load(path)
    assert (res.format, res.encoding, res.database) == ("xlsx", "xlsx", "dimensions")
    first, second = res.records
    assert (first.title, first.pmid, first.doi, first.year) == ("Line one\nline two", "12345",
                                                               "10.1000/x", 2020)
    assert first.authors == ["A, B", "C, D"] and first.source_line == 3
    assert (second.title, second.year, second.rank, second.source_line) == ("Second", 2021, 2, 5)


# ----------------------------------------------------------------------------- RIS

def test_ris_endnote_flavour():
    res = load("endnote.ris")
    assert (res.format, res.database) == ("ris", "pubmed")
    first, book = res.records
    assert first.title == "Sensitivity of search filters for randomised trials"
    assert first.abstract == ("Objective: to test filters. "
                              "Continuation of the abstract on a second line.")
    assert first.authors == ["Glanville, Julie M.", "Lefebvre, Carol"]
    assert (first.year, first.venue, first.pmid) == (
        2006, "Journal of the Medical Library Association", "16636704")
    assert first.doi == "10.1234/jmla.94.2.130"  # from the doi.org UR
    assert first.raw["JA"] == "J Med Libr Assoc" and first.raw["KW"][0].startswith("Randomized")
    assert (book.type, book.year, book.source_line) == ("BOOK", 2019, 23)


def test_ris_zotero_flavour():
    res = load("zotero.ris")
    rec = res.records[0]
    assert rec.title == "Über die Evaluierung von Suchanfragen"
    assert rec.authors == ["Müller, Hans", "Schmidt, Eva"]
    assert (rec.venue, rec.year, rec.language) == ("Information – Wissenschaft & Praxis", 2020,
                                                   "de")
    assert (rec.doi, rec.pmid) == ("10.1515/iwp-2020-2080", "32000001")
    assert res.records[1].type == "CONF"


def test_ris_scopus_flavour():
    res = load("scopus.ris")
    rec = res.records[0]
    assert res.database == "scopus"
    assert rec.ids == {"scopus_eid": "2-s2.0-77956208910"}
    assert (rec.doi, rec.pmid, rec.venue) == ("10.1145/1835804.1835829", "20000002",
                                              "Proceedings of the ACM SIGKDD")
    assert rec.keywords == ["Active learning", "Citation screening"]


def test_ris_wos_flavour():
    res = load("wos.ris")
    assert res.database == "wos"
    assert res.records[0].ids == {"wos_ut": "WOS:000390300200009"}
    assert res.records[0].authors == ["Cormack, Gordon V.", "Grossman, Maura R."]


# ----------------------------------------------------------------------------- BibTeX

def test_bibtex_jabref_latex_and_groups():
    res = load("jabref.bib")
    assert (res.format, res.database) == ("bibtex", "jabref")
    rec = res.records[0]
    assert rec.title == "Über Deep learning for screening"
    assert rec.abstract == "We screen 50% fewer records with active learning."
    assert rec.authors == ["Müller, Hans", "World Health Organization", "O'Neil, Anne"]
    assert (rec.doi, rec.pmid, rec.year, rec.type) == (
        "10.1016/j.jclinepi.2021.01.005", "33571234", 2021, "article")
    assert rec.keywords == ["active learning", "screening", "My core set", "Pilot"]
    assert rec.raw["groups"] == "My core set, Pilot" and rec.raw["ID"] == "Mueller2021"
    assert rec.source_line == 3
    lee = by_title(res, "Boolean")
    assert (lee.pmid, lee.venue, lee.type) == ("31000002", "Proceedings of SIGIR",
                                               "inproceedings")
    assert by_title(res, "Neural").year == 2020


def test_bibtex_where_groups_matches_whole_group():
    res = load("jabref.bib", where={"groups": "My core set"})
    assert [r.title for r in res.records] == ["Über Deep learning for screening",
                                              "Neural rankers"]
    assert [r.rank for r in res.records] == [1, 2]
    assert any("left out" in n for n in res.notes)


# ----------------------------------------------------------------------------- MEDLINE

def test_medline_nbib():
    res = load("pubmed.nbib")
    assert (res.format, res.database) == ("medline", "pubmed")
    rec = res.records[0]
    assert rec.title == ("The PRISMA 2020 statement: an updated guideline for reporting "
                         "systematic reviews.")
    assert rec.abstract.startswith("The Preferred Reporting Items") and "(PRISMA)" in rec.abstract
    assert rec.authors == ["Page, Matthew J", "McKenzie, Joanne E"]
    assert (rec.year, rec.venue, rec.doi, rec.pmid) == (2021, "BMJ (Clinical research ed.)",
                                                        "10.1136/bmj.n71", "33782057")
    assert rec.ids == {"pmcid": "PMC8005924"}
    assert rec.keywords == ["reporting guideline", "Humans", "*Systematic Reviews as Topic"]
    assert (rec.type, rec.language) == ("Journal Article", "eng")
    second = res.records[1]
    assert (second.pmid, second.doi, second.source_line) == ("31000001", "", 32)


# ----------------------------------------------------------------------------- TREC

def test_trec_run_ranks_ties_by_file_order_and_scores():
    res = load("run.txt", topic="401")
    assert (res.format, res.topics) == ("trec-run", ["401"])  # only 401 is read (streamed)
    assert [(r.ids["docid"], r.rank, r.score) for r in res.records] == [
        ("doc-7", 1, 14.2), ("doc-3", 2, 13.9), ("doc-9", 3, 13.9), ("doc-1", 4, 10.0)]
    assert all(r.title == "" for r in res.records) and res.rejected == []


def test_trec_run_sorted_by_rank_column(tmp_path):
    path = tmp_path / "unordered.run"
    path.write_text("7 Q0 b 2 0.5 x\n7 Q0 a 1 0.9 x\n7 Q0 c 3 0.1 x\n")
    assert [r.ids["docid"] for r in load(path).records] == ["a", "b", "c"]


def test_qrels_grades_and_unknown_topic():
    res = load("qrels.txt", topic="401")
    assert res.format == "qrels"
    assert [(r.ids["docid"], r.score) for r in res.records] == [("doc-7", 1), ("doc-3", 0),
                                                                ("doc-1", 2)]
    with pytest.raises(Exception, match=r"topic '999' is not in this file.*401, 402"):
        load("qrels.txt", topic="999")


@pytest.mark.parametrize("name", sorted(p.name for p in FIX.iterdir()))
def test_raw_is_json_of_strings_and_lists(name):
    import json

    for record in load(name).records:
        json.dumps(record.raw)
        assert all(isinstance(v, (str, list)) for v in record.raw.values())
