"""Full texts go to the right record and can be taken back: a PDF whose title several
records share is never matched by the title alone (every such record is a candidate,
with the PDF's own title beside it; a DOI in the PDF decides), and a PDF is detached or
replaced in one write that touches nothing else (the project's copy deleted, a linked
file never)."""

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.attachments import (
    attach_file,
    attachment,
    candidates,
    detach,
    files_folder,
    match_folder,
)
from tests.support.fulltext_pdfs import write_pdf
from tests.support.projects import ris_project

TITLE = "Robotic knee arthroplasty versus conventional surgery: a randomised trial"
RIS = f"""TY  - JOUR
TI  - {TITLE}
AU  - Smith, Anna
AU  - Brown, Carl
PY  - 2020
DO  - 10.1000/first.2020
ER  -

TY  - JOUR
TI  - {TITLE}
AU  - Jones, Bert
PY  - 2022
DO  - 10.1000/second.2022
ER  -

TY  - JOUR
TI  - Capsule endoscopy reading times with artificial intelligence support
AU  - Lee, Dana
PY  - 2019
ER  -
"""


@pytest.fixture()
def project(tmp_path):
    with ris_project(tmp_path, RIS) as opened:
        yield opened


def ids(project):
    """The records by first author: smith, jones (the same title), lee."""
    rows = project.db.execute("SELECT id, authors FROM records ORDER BY id").fetchall()
    return [record_id for record_id, _ in rows]


def test_records_of_the_same_title_stay_uncertain_with_what_tells_them_apart(project,
                                                                            tmp_path):
    smith, jones, _ = ids(project)
    folder = tmp_path / "pdfs"
    folder.mkdir()
    write_pdf(folder / "Smith_2020.pdf", [["Journal of Knees", "Robotic knee arthroplasty",
                                           "versus conventional surgery: a randomised trial"]])
    write_pdf(folder / "plain.pdf", [[TITLE]], info={"Title": "Manuscript"})
    write_pdf(folder / "with_doi.pdf", [[TITLE, "doi:10.1000/second.2022"]])
    found = match_folder(project, "T", folder)
    assert [(rid, path.name) for rid, path, _ in found.certain] == [(jones, "with_doi.pdf")]
    assert [(rid, path.name) for rid, path, _, _ in found.uncertain] == [
        (smith, "Smith_2020.pdf"), (jones, "Smith_2020.pdf"),
        (smith, "plain.pdf"), (jones, "plain.pdf")]
    assert all("2 records match it equally: choose one" in how
               for *_, how in found.uncertain)
    assert found.pdf_titles[folder / "Smith_2020.pdf"] == (
        "Robotic knee arthroplasty versus conventional surgery: a randomised trial")
    assert found.pdf_titles[folder / "plain.pdf"] == TITLE
    shown = candidates(project, [smith, jones])
    assert (shown[smith].year, shown[smith].first_authors(), shown[smith].doi) == (
        2020, "Smith, Anna; Brown, Carl", "10.1000/first.2020")
    assert shown[jones].line() == f"#{jones} · 2022 · Jones, Bert · doi:10.1000/second.2022 · {TITLE}"


def _everything_but_attachments(project):
    tables = [name for (name,) in project.db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'attachments' "
        "AND name NOT LIKE 'sqlite_%'")]
    return {t: project.db.execute(f"SELECT * FROM [{t}]").fetchall() for t in tables}


def test_detach_removes_the_attachment_and_nothing_else(project, tmp_path):
    smith, jones, lee = ids(project)
    copied = write_pdf(tmp_path / "smith.pdf", [["Smith"]])
    linked = write_pdf(tmp_path / "jones.pdf", [["Jones"]])
    copy = attach_file(project, smith, copied).path
    attach_file(project, jones, linked, copy=False)
    kept = attach_file(project, lee, write_pdf(tmp_path / "lee.pdf", [["Lee"]]))
    before = _everything_but_attachments(project)
    writes = []
    real_write = project.write
    project.write = lambda op: writes.append(op) or real_write(op)

    gone = detach(project, smith)
    assert (gone.path, gone.mode, gone.removed, len(writes)) == (copy, "copy", True, 1)
    assert attachment(project, smith) is None and not copy.exists() and copied.exists()
    gone = detach(project, jones)
    assert (gone.path, gone.mode, gone.removed) == (linked, "link", False)
    assert linked.read_bytes().startswith(b"%PDF")  # the user's own file is left alone
    assert attachment(project, lee) == kept and kept.path.exists()
    assert _everything_but_attachments(project) == before

    for record_id, line in ((smith, f"^record #{smith} has no PDF attached$"),
                            (999, "^no record #999 in the project$")):
        with pytest.raises(LitqError, match=line):
            detach(project, record_id)
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 1


def test_a_copy_another_attachment_uses_and_a_stored_path_outside_the_folder_stay(
        project, tmp_path):
    smith, jones, lee = ids(project)
    same = write_pdf(tmp_path / "same.pdf", [["Same"]])
    copy = attach_file(project, smith, same).path
    attach_file(project, jones, same)  # content-addressed: the same copy
    assert detach(project, smith).removed is False and copy.exists()
    outside = write_pdf(tmp_path / "precious.pdf", [["mine"]])
    with project.transaction():  # a damaged (or hostile) project: a copy's name leads out
        project.db.execute("INSERT INTO attachments VALUES (?, '../precious.pdf', 'x', 1, "
                           "'copy', 'now')", [lee])
    assert detach(project, lee).removed is False and outside.exists()


def test_replace_swaps_the_pdf_and_drops_the_old_copy(project, tmp_path):
    smith = ids(project)[0]
    old = attach_file(project, smith, write_pdf(tmp_path / "old.pdf", [["old"]]))
    new = attach_file(project, smith, write_pdf(tmp_path / "new.pdf", [["new"]]))
    assert attachment(project, smith) == new and new.sha256 != old.sha256
    assert not old.path.exists() and new.path.exists()
    assert [p.name for p in files_folder(project).iterdir()] == [new.path.name]
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 1
