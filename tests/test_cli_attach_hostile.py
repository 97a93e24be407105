"""`litqeval attach` on hostile files: `--record` refuses a 2 GB file of zeros and a
million-page PDF in one line (exit 2, nothing copied), announces a copy over 200 MB on
stderr before making it and refuses a planted `.files` symlink; `--folder` lists a flate
bomb as refused (with why) and attaches the rest."""

import os

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attachment
from tests.support.fulltext_pdfs import write_pdf
from tests.support.hostile_pdfs import flate_bomb_pdf, shared_pages_pdf, zeros_file
from tests.support.projects import ris_project

TITLE = "Deep learning for polyp detection in colonoscopy"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _project(tmp_path):
    with ris_project(tmp_path, f"TY  - JOUR\nTI  - {TITLE}\nER  -\n") as project:
        return project.path, project.db.execute("SELECT id FROM records").fetchone()[0]


def test_attach_record_refuses_what_is_no_usable_pdf_before_copying(tmp_path, capsys):
    path, record = _project(tmp_path)
    for make, line in (
            (shared_pages_pdf, "zeros.pdf: it has 1,000,000 pages; a full text may have at "
                               "most 2,000"),
            (lambda p: zeros_file(p, 2 << 30),
             "zeros.pdf: cannot read it: it is not a PDF (no %PDF- header)")):
        code, out, err = run(capsys, "attach", path, "--topic", "T", "--record", record,
                             make(tmp_path / "zeros.pdf"))
        assert (code, out, err) == (2, "", f"litqeval: error: {line}\n")
        assert not (tmp_path / "p.litq.files").exists()


def test_attach_record_says_the_size_of_a_large_copy_first(tmp_path, capsys):
    path, record = _project(tmp_path)
    pdf = write_pdf(tmp_path / "large.pdf", [[TITLE]])
    with pdf.open("ab") as handle:
        handle.truncate(pdf.stat().st_size + 250_000_000)
    code, out, err = run(capsys, "attach", path, "--topic", "T", "--record", record, pdf)
    assert code == 0
    assert err == "litqeval: large.pdf is 250 MB: copying it into p.litq.files\n"
    assert out.startswith(f"attached large.pdf to record {record} (copy: ")


def test_attach_record_refuses_a_planted_files_link(tmp_path, capsys):
    path, record = _project(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "p.litq.files")
    code, out, err = run(capsys, "attach", path, "--topic", "T", "--record", record,
                         write_pdf(tmp_path / "a.pdf", [[TITLE]]))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"litqeval: error: {tmp_path / 'p.litq.files'}: the files folder is a "
                          f"symbolic link (to {tmp_path / 'elsewhere'})")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_attach_folder_refuses_a_flate_bomb_and_attaches_the_rest(tmp_path, capsys):
    path, record = _project(tmp_path)
    folder = tmp_path / "pdfs"
    folder.mkdir()
    flate_bomb_pdf(folder / "bomb.pdf")
    write_pdf(folder / "paper.pdf", [[TITLE]])
    code, out, err = run(capsys, "attach", path, "--topic", "T", "--folder", folder)
    assert code == 0, err
    assert out.splitlines() == [
        "attached 1 PDF(s); 0 uncertain, 0 unmatched, 1 refused",
        "  refused: bomb.pdf: cannot read it: it needs more than 1 GB of memory to read, "
        "or PDFium failed on it"]
    with Project.open(path, readonly=True) as project:
        assert attachment(project, record).status == "ok"
