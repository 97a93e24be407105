"""export_records → read_records gives the same records back, for every export format."""

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.reference_types import endnote_type, ris_type

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"
KEPT = ("title", "abstract", "authors", "year", "venue", "keywords", "doi", "pmid", "ids",
        "type", "language", "volume", "issue", "pages", "publisher", "issn", "url")


def records(record_type):
    return [
        Record(title='Über "deep" learning: 50% of {cases} & $x$ #1 ~ _under_ \\ back',
               abstract="Müller's café; commas, and – dashes.", authors=["Müller, Hans", "Doe J."],
               year=2021, venue="J. Clin. Epidemiol.", keywords=["Neoplasms, Lung", "ß-test"],
               type=record_type, language="English", doi="10.1016/j.x_2021.01%20", pmid="123",
               ids={"pmcid": "PMC9", "scopus_eid": "2-s2.0-85000000001",
                    "wos_ut": "WOS:000000000000001", "docid": "D 1"},
               volume="12", issue="3 Suppl", pages="100-9", publisher="Wiley & Sons",
               issn="1234-5678", url="https://example.org/a?b=1&c=%20"),
        Record(title="Only a title", type=record_type, pages="e1234"),
        Record(abstract="Only an abstract", authors=["Solo, A."], type=record_type,
               keywords=["single"], ids={"openalex": "W42"}),
    ]


def same(a: Record, b: Record) -> dict:
    return {k: (getattr(a, k), getattr(b, k)) for k in KEPT if getattr(a, k) != getattr(b, k)}


def kept_by(fmt: str, record: Record) -> Record:
    """``record`` as ``fmt`` can keep it: MEDLINE has no tag for a URL or for identifiers
    other than PMID, PMCID and DOI."""
    if fmt != "medline":
        return record
    return replace(record, url="", ids={k: v for k, v in record.ids.items() if k == "pmcid"})


@pytest.mark.parametrize(("fmt", "suffix", "record_type"), [
    ("ris", ".ris", "JOUR"), ("csv", ".csv", "Article"), ("bibtex", ".bib", "article"),
    ("xlsx", ".xlsx", "Journal Article"), ("bibtex", ".bib", "JOUR"),
    ("medline", ".nbib", "Journal Article"), ("endnote", ".xml", "Journal Article"),
    ("endnote", ".xml", "Book Section")])
def test_round_trip(tmp_path, fmt, suffix, record_type):
    original = records(record_type)
    path = tmp_path / f"out{suffix}"
    assert export_records(original, path, fmt) == 3
    back = run_job(read_records(path)).records
    assert [same(kept_by(fmt, a), b) for a, b in zip(original, back, strict=True)] == [{}] * 3
    assert [r.rank for r in back] == [1, 2, 3]


@pytest.mark.parametrize("fixture", ["scopus.csv", "jabref.bib", "pubmed.nbib", "zotero.ris",
                                     "endnote.xml"])
@pytest.mark.parametrize("fmt", ["ris", "csv", "bibtex", "xlsx", "medline", "endnote"])
def test_imported_fixtures_survive_every_export(tmp_path, fixture, fmt):
    original = run_job(read_records(FIX / fixture)).records
    for record in original:  # RIS and BibTeX values are single lines
        record.abstract = " ".join(record.abstract.split())
        record.title = " ".join(record.title.split())
    path = tmp_path / f"out.{fmt}"
    export_records(original, path, fmt)
    back = run_job(read_records(path)).records
    if fmt in ("ris", "endnote"):  # RIS carries a type as its RIS code, EndNote as its own
        for record in original:
            record.type = ris_type(record.type) if fmt == "ris" else endnote_type(record.type)[0]
    # MEDLINE has no tag for a Scopus EID: a record with nothing else is not read back
    kept = [r for r in map(partial(kept_by, fmt), original) if r.has_text() or r.identifiers()]
    diffs = [same(a, b) for a, b in zip(kept, back, strict=True)]
    assert diffs == [{}] * len(kept)
    assert len(kept) == len(original) - (fmt == "medline" and fixture == "scopus.csv")


def test_medline_is_pubmed_shaped(tmp_path):
    """Each record starts at a PMID line (empty without one), authors come as FAU and
    AU pairs, long values wrap onto six-space continuation lines of at most 88 characters;
    the importer recognises the file by content."""
    original = records("Journal Article")
    original[0].abstract = " ".join(["word"] * 60)
    path = tmp_path / "out.txt"
    export_records(original, path, "medline")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line.startswith("PMID")] == ["PMID- 123", "PMID- ",
                                                                   "PMID- "]
    assert lines[lines.index("FAU - Müller, Hans") + 1] == "AU  - Müller H"
    assert "AU  - Doe J." in lines and "AID - 10.1016/j.x_2021.01%20 [doi]" in lines
    abstract = lines.index(next(line for line in lines if line.startswith("AB  - ")))
    assert lines[abstract + 1].startswith("      word") and max(map(len, lines)) <= 88
    assert run_job(read_records(path)).format == "medline"


def test_headers_write_a_database_layout_that_the_importer_recognises(tmp_path):
    """``headers`` picks, orders and names the record columns; ``extra`` columns follow."""
    import csv

    original = records("Article")[:2]  # the third has no title
    headers = {"title": "Title", "authors": "Authors", "scopus_eid": "EID", "doi": "DOI"}
    path = tmp_path / "scopus.csv"
    export_records(original, path, "csv", headers=headers,
                   extra=[{"Source": "Scopus"}] * len(original))
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["Title", "Authors", "EID", "DOI", "Source"]
    assert rows[1][2:] == ["2-s2.0-85000000001", "10.1016/j.x_2021.01%20", "Scopus"]
    read = run_job(read_records(path))
    assert read.database == "scopus"
    assert [(r.title, r.authors, r.ids, r.doi) for r in read.records] == [
        (r.title, r.authors, {"scopus_eid": r.ids["scopus_eid"]} if "scopus_eid" in r.ids
         else {}, r.doi) for r in original]


def test_headers_name_only_known_fields_of_a_table(tmp_path):
    with pytest.raises(ValueError, match="unknown fields: colour"):
        export_records(records("Article"), tmp_path / "x.csv", "csv", headers={"colour": "C"})
    with pytest.raises(ValueError, match="ris has none"):
        export_records(records("JOUR"), tmp_path / "x.ris", "ris", headers={"title": "T"})


def test_unknown_format_and_unwritable_target(tmp_path):
    with pytest.raises(LitqError, match="cannot export as 'pdf'"):
        export_records([], tmp_path / "x.pdf", "pdf")
    with pytest.raises(LitqError, match="cannot write"):
        export_records(records("JOUR"), tmp_path / "missing-dir" / "x.ris", "ris")


# -- the target: never the project (issue 11 §1.1) --------------------------------------

@pytest.mark.parametrize("name", ["p.litq", "p.litq-wal", "p.litq-shm", "p.litq-journal",
                                  "p.litq.lock", "p.litq.v1.bak", "other.db", "P.LITQ-WAL"])
def test_refuses_the_project_its_side_files_and_any_sqlite_file(tmp_path, name):
    import sqlite3

    from litqeval_gui.core.projectfile.project import Project

    project = tmp_path / "p.litq"
    Project.create(project).close()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    target = tmp_path / name
    if not target.exists():
        target.write_bytes(b"side file")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(LitqError, match="refusing"):
        export_records(records("JOUR"), target, "csv", project=project)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_failed_export_leaves_the_old_file_and_no_partial(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")

    def broken():
        yield records("JOUR")[0]
        raise LitqError("stop")

    with pytest.raises(LitqError, match="stop"):
        export_records(broken(), target, "csv")
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    assert target.read_text() == "old"


def test_extension_warning():
    from litqeval_gui.core.records.exporting import extension_warning

    assert "does not match the format ris" in extension_warning("out.csv", "ris")
    assert extension_warning("OUT.RIS", "ris") == extension_warning("x.bib", "bibtex") == ""


# -- formulas (issue 11 §1.6) -----------------------------------------------------------

HOSTILE = ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "=HYPERLINK(\"http://x\",\"y\")",
           "=cmd|' /C calc'!A0", "'=already quoted", "''two quotes", "'plain quote",
           "-2 is a number", "@handle in a title"]


def test_csv_escapes_formula_cells_and_round_trips_every_title(tmp_path):
    import csv

    titles = [*HOSTILE, "\tTAB=1", "\rCR=1"]
    original = [Record(title=t, abstract="a", authors=["=evil, A."]) for t in titles]
    path = tmp_path / "out.csv"
    export_records(original, path, "csv")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
    assert rows[0]["title"] == "'=1+1" and rows[0]["authors"] == "'=evil, A."
    back = run_job(read_records(path)).records
    assert [r.title for r in back] == [*HOSTILE, "TAB=1", "CR=1"]  # cells are trimmed
    assert {tuple(r.authors) for r in back} == {("=evil, A.",)}


def test_xlsx_stores_strings_never_formulas_and_round_trips_every_title(tmp_path):
    from openpyxl import load_workbook

    original = [Record(title=t, abstract="=abstract") for t in HOSTILE]
    path = tmp_path / "out.xlsx"
    export_records(original, path, "xlsx")
    sheet = load_workbook(path).worksheets[0]
    kinds = {cell.data_type for row in sheet.iter_rows(min_row=2) for cell in row
             if cell.value is not None}
    assert kinds == {"s"}
    back = run_job(read_records(path)).records
    assert [r.title for r in back] == HOSTILE
    assert {r.abstract for r in back} == {"=abstract"}


# -- reference managers (issue 10 §3) ----------------------------------------------------

def test_every_importer_stores_volume_issue_pages_publisher_issn_url():
    def biblio(name, index=0):
        r = run_job(read_records(FIX / name)).records[index]
        return (r.volume, r.issue, r.pages, r.publisher, r.issn, r.url)

    assert biblio("endnote.ris") == ("94", "2", "130-136", "", "1536-5050",
                                     "https://doi.org/10.1234/JMLA.94.2.130")
    assert biblio("zotero.ris")[:5] == ("71", "2", "1-9", "", "1434-4653")
    assert biblio("jabref.bib")[:3] == ("135", "", "1-12")
    assert biblio("pubmed.nbib") == ("372", "", "n71", "", "1756-1833", "")
    assert biblio("scopus.csv")[:3] == ("135", "", "1-12")
    assert biblio("scopus.csv")[5].startswith("https://www.scopus.com/inward/record.uri")
    assert biblio("lens.csv") == ("14", "3", "300-315", "Wiley", "17592879",
                                  "https://doi.org/10.1002/jrsm.1600")
    assert biblio("wos_savedrecs.txt")[:3] == ("73", "2", "10-25")
    assert biblio("pubmed.csv") == ("372", "", "n71", "", "", "")
    assert biblio("pubmed.csv", 1)[:3] == ("36", "1", "1-2")


TYPES = [("Article", "JOUR", "article"), ("journal-article", "JOUR", "article"),
         ("Conference Paper", "CONF", "inproceedings"), ("book-chapter", "CHAP", "incollection"),
         ("Book", "BOOK", "book"), ("report", "RPRT", "techreport"),
         ("dissertation", "THES", "phdthesis"), ("Preprint", "UNPB", "misc"),
         ("Review", "JOUR", "article"), ("Journal Article", "JOUR", "article"),
         ("", "GEN", "misc"), ("something odd", "GEN", "misc"), ("CPAPER", "CPAPER", "inproceedings")]


def test_ris_has_valid_types_one_au_per_author_no_numbering_and_reads_back_cleanly(tmp_path):
    import warnings

    import rispy

    original = [Record(title=f"Title {i}", authors=["Smith, J.", "Doe, A."], type=t,
                       pages="5-7") for i, (t, _, _) in enumerate(TYPES)]
    path = tmp_path / "out.ris"
    export_records(original, path, "ris")
    text = path.read_text()
    assert not any(line[:1].isdigit() for line in text.splitlines())
    assert text.count("AU  - Smith, J.\n") == text.count("AU  - Doe, A.\n") == len(TYPES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        entries = rispy.loads(text)
    assert [e["type_of_reference"] for e in entries] == [ris for _, ris, _ in TYPES]
    assert entries[0]["authors"] == ["Smith, J.", "Doe, A."]
    assert (entries[0]["start_page"], entries[0]["end_page"]) == ("5", "7")


def test_bibtex_has_proper_types_and_authors_unique_stable_keys_and_reads_back_cleanly(
        tmp_path, recwarn, caplog):
    import bibtexparser

    original = [Record(title="The semantic precision of searches", authors=["Smith, Jane",
                       "Doe, J."], year=2021, type=t, venue="Venue") for t, _, _ in TYPES]
    original[-1].abstract = "混合生産における生産性"  # no LaTeX for it: kept, without a warning
    path = tmp_path / "out.bib"
    export_records(original, path, "bibtex")
    again = tmp_path / "again.bib"
    export_records(original, again, "bibtex")
    library = bibtexparser.parse_string(path.read_text())
    assert library.failed_blocks == [] and len(recwarn) == 0 and caplog.records == []
    assert [e.entry_type for e in library.entries] == [bib for _, _, bib in TYPES]
    keys = [e.key for e in library.entries]
    assert keys[:3] == ["smith2021semantic", "smith2021semanticb", "smith2021semanticc"]
    assert len(set(keys)) == len(keys) and again.read_text() == path.read_text()
    first = library.entries[0]
    assert first["author"] == "Smith, Jane and Doe, J." and first["journal"] == "Venue"
    assert library.entries[2]["booktitle"] == "Venue"
    back = run_job(read_records(path)).records
    assert [r.type for r in back] == [t or bib for t, _, bib in TYPES]
    assert back[-1].abstract == "混合生産における生産性"
