"""EndNote XML: an export's structure → exact record values, its record numbers back out on
export, and hostile XML refused with one line."""

import re
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.importing.detect import detect
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.core.records.model import Record

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"
HEAD = '<?xml version="1.0" encoding="UTF-8" ?><xml><records>'


def test_an_endnote_export_reads_with_styles_lists_ids_and_provenance():
    res = run_job(read_records(FIX / "endnote.xml"))
    assert (res.format, res.database) == ("endnote", "pubmed")
    first, second, third = res.records
    assert first.title == ("Machine learning for title and abstract screening & its "
                           "stopping rules")  # three <style> runs, an entity
    assert first.authors == ["Lindqvist, Bjørn", "O'Brien, M."]
    assert first.abstract == ("Screening is slow.\nActive learning ranks the records; a "
                              "stopping rule says when to stop.")
    assert (first.year, first.venue, first.type, first.language) == (
        2021, "Journal of Clinical Epidemiology", "Journal Article", "eng")
    assert (first.volume, first.issue, first.pages, first.issn) == ("131", "4", "101-112",
                                                                    "0895-4356")
    assert (first.doi, first.pmid, first.ids) == ("10.1016/j.jclinepi.2021.01.004", "33445566",
                                                  {"pmcid": "PMC8012345"})
    assert first.keywords == ["Systematic reviews as topic", "Machine Learning"]
    assert first.url == "https://pubmed.ncbi.nlm.nih.gov/33445566/"
    assert first.raw["rec-number"] == "118" and first.raw["pub-dates"] == ["Apr"]
    assert first.raw["pdf-urls"] == ["internal-pdf://2210458903/Lindqvist-2021-Machine "
                                     "learning.pdf"]
    assert (second.type, second.publisher, second.pmid) == ("Conference Proceedings", "ACM", "")
    assert second.ids == {"wos_ut": "WOS:001200000000001"}
    assert second.abstract == "Queries drafted by a model.\nLibrarians judged them."  # &#xD;
    assert second.url == "https://dl.acm.org/doi/abs/10.1145/0000000"  # not "<Go to ISI>://…"
    assert second.authors == ["Ahmed, Sara"]  # the editor is not an author
    assert second.raw["secondary-authors"] == ["Editor, E."]
    assert [r.source_line for r in res.records] == [1, 3, 4]  # the abstract spans two lines
    assert (third.type, third.year, third.doi) == ("Book Section", None, "")
    assert any("field year 'in press'" in note for note in res.notes)
    assert [(r.number, r.line) for r in res.rejected] == [(4, 5)]  # an empty title only


def test_record_numbers_go_back_out_and_repeats_get_new_ones(tmp_path):
    records = run_job(read_records(FIX / "endnote.xml")).records
    extra = [Record(title="New here"), Record(title="Copied", raw={"rec-number": "119"})]
    export_records([*records, *extra], tmp_path / "back.xml", "endnote")
    text = (tmp_path / "back.xml").read_text(encoding="utf-8")
    assert re.findall(r"<rec-number>(\d+)</rec-number>", text) == ["118", "119", "120",
                                                                   "121", "122"]
    assert '<ref-type name="Book Section">5</ref-type>' in text
    assert "<accession-num>33445566</accession-num>" in text
    back = run_job(read_records(tmp_path / "back.xml")).records
    assert [r.title for r in back] == [r.title for r in [*records, *extra]]
    assert back[1].ids == {"wos_ut": "WOS:001200000000001"}  # a note line back to an id


def test_endnote_is_found_by_content_and_a_trec_xml_stays_trec(tmp_path):
    named_txt = tmp_path / "library.txt"
    named_txt.write_bytes((FIX / "endnote.xml").read_bytes())
    assert detect(named_txt)[0] == "endnote"
    trec = tmp_path / "docs.xml"
    trec.write_text("<DOC>\n<DOCNO>d1</DOCNO>\n<TITLE>A document</TITLE>\n</DOC>\n")
    assert detect(trec)[0] == "trec-doc"


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY a "haha"><!ENTITY b "&a;&a;&a;&a;">'
          ']><xml><records><record><titles><title>&b;</title></titles></record></records></xml>')
EXTERNAL = ('<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<xml><records><record><titles><title>&x;</title></titles></record></records></xml>')


@pytest.mark.parametrize(("content", "message"), [
    (LAUGHS, "declares a DOCTYPE or entities"),
    (EXTERNAL, "declares a DOCTYPE or entities"),
    (HEAD + "<record><titles><title>Open</titles></record></records></xml>",
     "not well-formed EndNote XML at line 1 (in record 1): mismatched tag"),
    (HEAD + "<record><title>A</title></record>\n<record><title>Cut short",
     "not well-formed EndNote XML at line 2 (in record 2): no element found"),
])
def test_hostile_xml_is_refused_in_one_line_and_changes_nothing(tmp_path, content, message):
    path = tmp_path / "library.xml"
    path.write_text(content, encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        run_job(import_file(project, FIX / "endnote.xml", topic="T", role="core"))
        before = {t: project.db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                  for t in ("topics", "imports", "records", "links")}
        with pytest.raises(ImportRefused, match=re.escape(message)) as err:
            run_job(import_file(project, path, topic="T", role="results", fmt="endnote"))
        assert "\n" not in str(err.value)
        assert before == {t: project.db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                          for t in before}
