"""A full-text screening's exports carry each record's PDF: RIS ``L1`` (a file:// URL) read
back by rispy with the decision's keywords, BibTeX ``file``, and the ``pdf`` column of
CSV; a report not retrieved is exported under its own label."""

import csv

import bibtexparser
import rispy

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attach_file
from litqeval_gui.core.screening.export import export_screening
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from tests.support.fulltext_pdfs import write_pdf
from tests.support.prisma import ANN, build_review


def test_ris_bibtex_and_csv_carry_the_pdf(tmp_path):
    with Project.open(build_review(tmp_path)) as project:
        ta = store.find_screening(project, "T", "ta")
        ft = create_fulltext_screening(project, ta, "full")
        first, second, third = store.items(project, ft.id)[:3]
        pdf = write_pdf(tmp_path / "a: b;c.pdf", [["x"]])
        linked = attach_file(project, first, pdf, copy=False)
        copied = attach_file(project, second, pdf)
        project.write(store.decide_op(ft, first, "include", ANN))
        project.write(store.decide_op(ft, second, "exclude", ANN, reason="duplicate"))
        project.write(store.decide_op(ft, third, "not_retrieved", ANN))

        export_screening(project, ft, tmp_path / "ft.ris", "ris")
        export_screening(project, ft, tmp_path / "ft.bib", "bibtex")
        export_screening(project, ft, tmp_path / "ft.csv", "csv")
        assert export_screening(project, ft, tmp_path / "nr.ris", "ris", ["not_retrieved"]) == 1

    with open(tmp_path / "ft.ris", encoding="utf-8") as handle:
        entries = rispy.load(handle)
    assert len(entries) == 8
    assert (entries[0]["file_attachments1"], entries[1]["file_attachments1"]) == (
        linked.path.as_uri(), copied.path.as_uri())
    assert linked.path.as_uri().endswith("/a%3A%20b%3Bc.pdf")
    assert entries[0]["keywords"][-1] == "LitQEval: include"
    assert entries[1]["keywords"][-2:] == ["LitQEval: exclude", "LitQEval reason: duplicate"]
    assert entries[2]["keywords"][-1] == "LitQEval: not_retrieved"
    assert "file_attachments1" not in entries[2]
    assert "L1  - file:///" in (tmp_path / "ft.ris").read_text(encoding="utf-8")

    library = bibtexparser.parse_string((tmp_path / "ft.bib").read_text(encoding="utf-8"))
    files = [entry.fields_dict["file"].value for entry in library.entries[:2]]
    escaped = str(pdf).replace(":", "\\:").replace(";", "\\;")
    assert files[0] == f"Full Text PDF:{escaped}:application/pdf"
    assert files[1].startswith("Full Text PDF:") and copied.path.name in files[1]

    with open(tmp_path / "ft.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["decision"], r["reason"], r["pdf"]) for r in rows[:4]] == [
        ("include", "", str(pdf)), ("exclude", "duplicate", str(copied.path)),
        ("not_retrieved", "", ""), ("undecided", "", "")]
    only = rispy.loads((tmp_path / "nr.ris").read_text(encoding="utf-8"))
    assert only[0]["keywords"][-1] == "LitQEval: not_retrieved"


def test_a_list_export_has_a_pdf_column_once_a_record_has_a_full_text(tmp_path, capsys):
    path = build_review(tmp_path)
    with Project.open(path) as project:
        first = store.items(project, store.find_screening(project, "T", "ta").id)[0]
        pdf = attach_file(project, first, write_pdf(tmp_path / "x.pdf", [["x"]]), copy=False).path
    assert main(["export", str(path), "--topic", "T", "--list", "pubmed", "--format", "csv",
                 str(tmp_path / "l.csv")]) == 0
    with open(tmp_path / "l.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["pdf"] for r in rows] == [str(pdf)] + [""] * 9
    assert main(["export", str(path), "--topic", "T", "--list", "pubmed", "--format", "ris",
                 str(tmp_path / "l.ris")]) == 0
    entries = rispy.loads((tmp_path / "l.ris").read_text(encoding="utf-8"))
    assert [e.get("file_attachments1") for e in entries[:2]] == [pdf.as_uri(), None]
    assert main(["export", str(path), "--topic", "T", "--list", "scopus", "--format", "csv",
                 str(tmp_path / "s.csv")]) == 0  # none of its records has one: no column
    assert "pdf" not in (tmp_path / "s.csv").read_text(encoding="utf-8-sig").splitlines()[0]
