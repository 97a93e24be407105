"""Full texts: a folder of PDFs matched to a topic's works (by a DOI in the PDF's
information or on its first page, by file name, by title, by author and year), PDFs
attached by copy or by link and checked by checksum, unreadable PDFs refused."""

import hashlib

import pypdfium2.version
import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import CancelToken, JobCancelled, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.attachments import (
    PdfRefused,
    attach_file,
    attach_matches,
    attachment,
    attachment_paths,
    files_folder,
    match_folder,
    pdf_text,
)
from litqeval_gui.core.records.pdf_match import _attachment_names
from tests.support.fulltext_pdfs import damaged_pdf, write_pdf
from tests.support.projects import ris_project

RIS = """TY  - JOUR
TI  - Deep learning for polyp detection in colonoscopy videos
AU  - Smith, Anna
PY  - 2020
DO  - 10.1016/j.gie.2020.01.002
ER  -

TY  - JOUR
TI  - Capsule endoscopy reading times with artificial intelligence support
AU  - Jones, Bert
PY  - 2019
DO  - 10.1053/j.gastro.2019.05.017
ER  -

TY  - JOUR
TI  - A randomised trial of computer aided detection during screening colonoscopy
AU  - Garcia, Carla
PY  - 2021
UR  - https://pubmed.ncbi.nlm.nih.gov/33445566/
ER  -

TY  - JOUR
TI  - Bowel preparation quality scored by convolutional networks
AU  - Lee, Dana
PY  - 2018
L1  - file:///C:/Users/dana/Zotero/storage/ABCD1234/Lee%20-%202018%20-%20Bowel.pdf
ER  -

TY  - JOUR
TI  - Endoscopists versus machines: a head to head comparison of adenoma miss rates
AU  - Okafor, Emeka
PY  - 2017
ER  -

TY  - JOUR
TI  - Polyp size estimation with a virtual scale endoscope
AU  - Berg, Frida
PY  - 2022
ER  -
"""


@pytest.fixture()
def project(tmp_path):
    with ris_project(tmp_path, RIS, database="PubMed") as opened:
        yield opened


def record_id(project, title_start):
    return project.db.execute("SELECT id FROM records WHERE title LIKE ?",
                              [f"{title_start}%"]).fetchone()[0]


def test_a_folder_is_matched_by_each_way_and_unreadable_pdfs_are_refused(project, tmp_path):
    folder = tmp_path / "pdfs"
    (folder / "sub").mkdir(parents=True)
    write_pdf(folder / "a.pdf", [["Some heading"]], info={"Subject": "Gastro Endosc, doi:10.1016/J.GIE.2020.01.002"})
    write_pdf(folder / "b.pdf", [["Gastroenterology 2019", "https://doi.org/10.1053/j.gastro.2019.05.017."]])
    write_pdf(folder / "sub" / "PMID33445566.pdf", [["nothing useful"]])
    write_pdf(folder / "Lee - 2018 - Bowel.pdf", [["scan"]])
    write_pdf(folder / "scan.pdf", [["Original article", "Endoscopists versus machines: a head-to-head",
                                     "comparison of adenoma miss rates", "E. Okafor"]])
    write_pdf(folder / "Berg_2022_preprint.pdf", [["draft"]])
    write_pdf(folder / "10.1053%2Fj.gastro.2019.05.017.pdf", [["z"]])
    write_pdf(folder / "other.pdf", [["An unrelated paper about hip replacement outcomes"]])
    damaged_pdf(folder / "broken.pdf")
    write_pdf(folder / "locked.pdf", [["secret"]], encrypted=True)
    seen = []
    found = match_folder(project, "T", folder, progress=seen.append)

    certain = {path.name: (rid, how) for rid, path, how in found.certain}
    assert certain == {
        "a.pdf": (record_id(project, "Deep"), "DOI in the PDF's information"),
        "10.1053%2Fj.gastro.2019.05.017.pdf": (record_id(project, "Capsule"), "file name"),
        "PMID33445566.pdf": (record_id(project, "A randomised"), "file name"),
        "Lee - 2018 - Bowel.pdf": (record_id(project, "Bowel"), "file name"),
        "scan.pdf": (record_id(project, "Endoscopists"), certain["scan.pdf"][1]),
    }
    assert certain["scan.pdf"][1].startswith("title (")
    assert [(rid, path.name, score, how) for rid, path, score, how in found.uncertain] == [
        (record_id(project, "Polyp size"), "Berg_2022_preprint.pdf", 0.5,
         "first author and year in the file name"),
        (record_id(project, "Capsule"), "b.pdf", 1.0,
         "DOI on the first page; another PDF matched this work too")]
    assert [p.name for p in found.unmatched] == ["other.pdf"]
    assert [(p.name, reason) for p, reason in found.refused] == [
        ("broken.pdf", "broken.pdf: cannot read it: it is damaged or not a PDF"),
        ("locked.pdf", "locked.pdf: cannot read it: it is encrypted (a password is needed to open it)")]
    assert (seen[0].done, seen[0].total, seen[-1].done) == (0, 10, 10)


def test_a_title_a_little_off_is_uncertain_and_a_second_pdf_of_a_work_too(project, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    write_pdf(folder / "1.pdf", [["Capsule endoscopy reading time with AI support"]])
    write_pdf(folder / "2.pdf", [["doi 10.1016/j.gie.2020.01.002"]])
    write_pdf(folder / "3.pdf", [["see 10.1016/j.gie.2020.01.002"]])
    found = match_folder(project, "T", folder)
    assert [(path.name, how) for _, path, how in found.certain] == [("2.pdf", "DOI on the first page")]
    uncertain = {path.name: (rid, score, how) for rid, path, score, how in found.uncertain}
    assert uncertain["3.pdf"] == (record_id(project, "Deep"), 1.0,
                                  "DOI on the first page; another PDF matched this work too")
    rid, score, how = uncertain["1.pdf"]
    assert rid == record_id(project, "Capsule") and 0.8 <= score < 0.95 and how.startswith("title")


def test_matching_is_cancelled_and_a_missing_folder_is_one_line(project, tmp_path):
    token = CancelToken()
    token.cancel()
    (tmp_path / "pdfs").mkdir()
    write_pdf(tmp_path / "pdfs" / "x.pdf", [["x"]])
    with pytest.raises(JobCancelled):
        match_folder(project, "T", tmp_path / "pdfs", token)
    with pytest.raises(LitqError, match="no such folder"):
        match_folder(project, "T", tmp_path / "nowhere")


def test_pdfium_is_built_without_javascript_or_forms():
    """Nothing in a PDF can run: the PDFium build has neither V8 nor XFA."""
    assert not {"V8", "XFA"} & set(pypdfium2.version.PDFIUM_INFO.flags)


def test_pdf_text_per_page(tmp_path):
    pdf = write_pdf(tmp_path / "x.pdf", [["first page", "second line"], ["page two"], ["three"]])
    assert pdf_text(pdf) == ["first page\nsecond line", "page two", "three"]
    assert pdf_text(pdf, max_pages=1) == ["first page\nsecond line"]
    with pytest.raises(PdfRefused, match="^y.pdf: cannot read it: it is damaged or not a PDF$"):
        pdf_text(damaged_pdf(tmp_path / "y.pdf"))


def test_a_copy_is_content_addressed_and_a_changed_one_is_detected(project, tmp_path):
    deep = record_id(project, "Deep")
    source = write_pdf(tmp_path / "deep.pdf", [["Deep learning"]])
    got = attach_file(project, deep, source)
    sha = hashlib.sha256(source.read_bytes()).hexdigest()
    assert got == attachment(project, deep)
    assert (got.record_id, got.path, got.sha256, got.size, got.mode, got.status) == (
        deep, files_folder(project) / f"{sha}.pdf", sha, source.stat().st_size, "copy", "ok")
    assert got.path.read_bytes() == source.read_bytes()
    assert files_folder(project) == tmp_path / "p.litq.files"
    source.unlink()  # the copy does not need the original
    assert attachment(project, deep).status == "ok"
    got.path.write_bytes(got.path.read_bytes().replace(b"Deep", b"Deer"))  # same size
    assert attachment(project, deep).status == "changed"
    got.path.write_bytes(b"%PDF")
    assert attachment(project, deep).status == "changed"


def test_a_link_keeps_the_path_and_a_moved_file_is_missing(project, tmp_path):
    capsule = record_id(project, "Capsule")
    source = write_pdf(tmp_path / "capsule.pdf", [["Capsule"]])
    got = attach_file(project, capsule, source, copy=False)
    assert (got.path, got.mode, got.status) == (source, "link", "ok")
    assert not files_folder(project).exists()
    source.rename(tmp_path / "moved.pdf")
    assert attachment(project, capsule).status == "missing"
    assert attachment_paths(project, [capsule, record_id(project, "Deep")]) == {capsule: source}


def test_a_work_has_one_attachment_found_from_any_of_its_records(project, tmp_path):
    ris = tmp_path / "again.ris"
    ris.write_text(RIS.split("ER  -")[0] + "ER  -\n", encoding="utf-8")  # the same work again
    run_job(ingest.import_file(project, ris, topic="T", role="results"))
    first, second = [r for (r,) in project.db.execute(
        "SELECT id FROM records WHERE title LIKE 'Deep%' ORDER BY id")]
    assert project.db.execute("SELECT COUNT(DISTINCT work_id) FROM records WHERE id IN (?, ?)",
                              [first, second]).fetchone()[0] == 1
    attach_file(project, first, write_pdf(tmp_path / "one.pdf", [["one"]]), copy=False)
    two = attach_file(project, second, write_pdf(tmp_path / "two.pdf", [["two"]]), copy=False)
    assert attachment(project, first) == two
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 1


def test_bad_input_is_one_line_and_changes_nothing(project, tmp_path):
    deep = record_id(project, "Deep")
    good = write_pdf(tmp_path / "good.pdf", [["good"]])
    locked = write_pdf(tmp_path / "locked.pdf", [["x"]], encrypted=True)
    with pytest.raises(PdfRefused, match="^locked.pdf: cannot read it: it is encrypted"):
        attach_file(project, deep, locked)
    with pytest.raises(LitqError, match="no such file"):
        attach_file(project, deep, tmp_path / "absent.pdf")
    with pytest.raises(LitqError, match="^no record #999 in the project$"):
        attach_file(project, 999, good)
    with pytest.raises(PdfRefused, match="^broken.pdf"):
        attach_matches(project, [(deep, good), (deep, damaged_pdf(tmp_path / "broken.pdf"))])
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 0
    assert not files_folder(project).exists()


def test_confirmed_matches_are_attached_in_one_write(project, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    write_pdf(folder / "a.pdf", [["doi 10.1016/j.gie.2020.01.002"]])
    write_pdf(folder / "Berg_2022.pdf", [["draft"]])
    found = match_folder(project, "T", folder)
    pairs = [(rid, path) for rid, path, _ in found.certain] + \
        [(rid, path) for rid, path, _, _ in found.uncertain]
    writes = []
    real_write = project.write
    project.write = lambda op: writes.append(op) or real_write(op)
    assert attach_matches(project, pairs, copy=False) == 2
    assert len(writes) == 1
    assert attachment(project, record_id(project, "Polyp size")).path == folder / "Berg_2022.pdf"
    assert attachment(project, record_id(project, "Deep")).status == "ok"


def test_file_names_from_endnote_zotero_and_bibtex_attachment_fields():
    assert _attachment_names({
        "L1": "internal-pdf://2531942177/Smith-2020-Deep.pdf",  # EndNote
        "L2": ["file:///home/ann/Zotero/storage/AB12/Jones%202019.pdf", "https://x.org/a.html"],
        "file": "Full Text PDF:C\\:\\\\Users\\\\ann\\\\Lee 2018.pdf:application/pdf;"
                "Snapshot:/tmp/snap.html:text/html",  # Zotero's BibTeX, escaped
    }) == ["smith-2020-deep.pdf", "jones 2019.pdf", "lee 2018.pdf"]


def test_paths_are_absolute_when_the_project_was_opened_by_a_relative_one(project, tmp_path,
                                                                         monkeypatch):
    deep = record_id(project, "Deep")
    monkeypatch.chdir(tmp_path)
    attach_file(project, deep, write_pdf(tmp_path / "d.pdf", [["d"]]))
    with Project.open("p.litq", readonly=True) as again:
        got = attachment(again, deep)
        assert got.path.is_absolute() and got.status == "ok"
        assert files_folder(again) == tmp_path / "p.litq.files"
