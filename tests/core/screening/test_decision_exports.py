"""Exports a team hands on (issue 26 §3): decisions in RIS (N1/KW, read back by rispy),
BibTeX (annote/keywords), EndNote XML (notes/keywords), CSV/XLSX with the phase, and the audit trail as CSV."""

import csv
import xml.etree.ElementTree as ET

import bibtexparser
import pytest
import rispy
from openpyxl import load_workbook

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.core.screening.export import AUDIT_COLUMNS, export_audit, export_screening
from litqeval_gui.core.screening.log import store
from tests.support.prisma import build_review


@pytest.fixture
def built(tmp_path):
    return build_review(tmp_path)


def _titles(project, screening, labels):
    current = {e.record_id: e.label for e in store.current_decisions(project, screening.id)}
    records = queries.records_by_id(project, store.items(project, screening.id))
    return {records[r].title: label for r, label in current.items() if label in labels}


def test_ris_carries_the_decision_in_n1_and_kw(built, tmp_path):
    out = tmp_path / "ft.ris"
    with Project.open(built, readonly=True) as project:
        ft = store.find_screening(project, "T", "ft")
        assert export_screening(project, ft, out, "ris", ["include", "exclude"]) == 8
        wanted = _titles(project, ft, {"include", "exclude"})
    with open(out, encoding="utf-8") as handle:
        entries = rispy.load(handle)
    assert {e["title"]: [k for k in e["keywords"] if k.startswith("LitQEval: ")]
            for e in entries} == {t: [f"LitQEval: {label}"] for t, label in wanted.items()}
    population = [e for e in entries if "LitQEval reason: wrong population" in e["keywords"]]
    assert len(population) == 2
    note = population[0]["notes"][-1]
    assert note.startswith("LitQEval screening 'ft' (full_text): exclude; reason: wrong "
                           "population; reviewer: ann at 20")
    assert population[0]["keywords"][-2:] == ["LitQEval: exclude",
                                              "LitQEval reason: wrong population"]
    included = [e for e in entries if "LitQEval: include" in e["keywords"]]
    assert len(included) == 4 and all(e["notes"][-1].startswith(
        "LitQEval screening 'ft' (full_text): include; reviewer: ann at ") for e in included)


def test_included_ris_imports_back_as_a_list(built, tmp_path):
    out = tmp_path / "included.ris"
    with Project.open(built) as project:
        ft = store.find_screening(project, "T", "ft")
        export_screening(project, ft, out, "ris", ["include"])
        summary = run_job(import_file(project, out, topic="T", role="other", name="included"))
        wanted = set(_titles(project, ft, {"include"}))
        back = {r.title for r in queries.list_records(project, summary.import_id)}
    assert back == wanted and len(back) == 4


def test_bibtex_carries_the_decision_in_annote_and_keywords(built, tmp_path):
    out = tmp_path / "ta.bib"
    with Project.open(built, readonly=True) as project:
        ta = store.find_screening(project, "T", "ta")
        assert export_screening(project, ta, out, "bibtex", ["exclude", "undecided"]) == 7
    entries = bibtexparser.parse_string(out.read_text(encoding="utf-8")).entries
    excluded = [e for e in entries if "annote" in e.fields_dict]
    assert len(excluded) == 3 and len(entries) == 7
    assert excluded[0]["keywords"].endswith("LitQEval: exclude; LitQEval reason: off topic")
    assert excluded[0]["annote"].startswith(  # LaTeX: Zotero and JabRef read "_"
        "LitQEval screening 'ta' (title{\\_}abstract): exclude; reason: off topic; reviewer: ")


def test_endnote_xml_carries_the_decision_in_notes_and_keywords(built, tmp_path):
    out = tmp_path / "ft.xml"
    with Project.open(built, readonly=True) as project:
        ft = store.find_screening(project, "T", "ft")
        assert export_screening(project, ft, out, "endnote", ["include", "exclude"]) == 8
        wanted = _titles(project, ft, {"include", "exclude"})
    records = ET.parse(out).getroot().findall("records/record")
    assert {r.findtext("titles/title"): [k.text for k in r.iterfind("keywords/keyword")
                                         if k.text.startswith("LitQEval: ")]
            for r in records} == {t: [f"LitQEval: {label}"] for t, label in wanted.items()}
    population = [r for r in records if "LitQEval reason: wrong population"
                  in [k.text for k in r.iterfind("keywords/keyword")]]
    assert len(population) == 2
    assert population[0].findtext("notes").splitlines()[-1].startswith(
        "LitQEval screening 'ft' (full_text): exclude; reason: wrong population; reviewer: ann")
    assert [r.findtext("rec-number") for r in records] == [str(n) for n in range(1, 9)]


def test_tables_have_the_phase_and_the_reviewer(built, tmp_path):
    with Project.open(built, readonly=True) as project:
        ft = store.find_screening(project, "T", "ft")
        export_screening(project, ft, tmp_path / "ft.csv", "csv")
        export_screening(project, ft, tmp_path / "ft.xlsx", "xlsx")
    with open(tmp_path / "ft.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["decision"], r["phase"], r["reason"], r["reviewer"]) for r in rows][3:] == [
        ("include", "full_text", "", "ann"), ("exclude", "full_text", "wrong population", "ann"),
        ("exclude", "full_text", "wrong population", "ann"), ("exclude", "full_text", "wrong study design", "ann"),
        ("exclude", "full_text", "Not retrievable", "ann"), ("undecided", "", "", "")]
    sheet = load_workbook(tmp_path / "ft.xlsx").active
    header = [c.value for c in sheet[1]]
    assert header[-8:] == ["decision", "phase", "reason", "note", "tags", "reviewer",
                           "decided_at", "pdf"]
    assert sheet.cell(2, header.index("phase") + 1).value == "full_text"


def test_audit_lists_every_event_with_who_what_when(built, tmp_path):
    with Project.open(built) as project:
        ta = store.find_screening(project, "T", "ta")
        record = store.items(project, ta.id)[12]
        project.write(store.decide_op(ta, record, "exclude", store.Context(reviewer="=bob"),
                                      note="@SUM(A1)"))
        undo = project.write(store.undo_op(ta, store.Context(reviewer="=bob"))).value
        count = export_audit(project, ta, tmp_path / "audit.csv")
        title = store.record_title(project, record)
    with open(tmp_path / "audit.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert count == len(rows) == 12 + 2
    assert list(rows[0]) == list(AUDIT_COLUMNS)
    assert [r["action"] for r in rows] == ["decide"] * 13 + ["undo"]
    late, taken_back = rows[-2], rows[-1]
    assert (late["reviewer"], late["label"], late["note"], late["title"]) == (
        "'=bob", "exclude", "'@SUM(A1)", title)
    assert (taken_back["undoes_or_redoes"], taken_back["record_id"], taken_back["reviewer"]) \
        == (late["event"], str(record), "'=bob")
    assert int(taken_back["event"]) == undo.id
    assert rows[0]["at"] < late["at"] < taken_back["at"]
