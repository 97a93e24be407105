"""In the app, an import's links found in a child process are the links found here:
the same rows, the same works and the same counts; a child without a result is one
clear error and the pending import is gone; the command line links here."""

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest, links_apart, works
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.scaleout import main_importable
from tests.support import synthetic


def _two_imports(folder, apart: bool, monkeypatch) -> tuple[list, list, list]:
    """Topic T: list A, then list B sharing some of A's records; the links (without
    their time), each record's work as ranks, and B's summary counts."""
    monkeypatch.setattr(links_apart, "APART_FROM", 1 if apart else 10**9)
    monkeypatch.setattr(links_apart, "serves_a_window", lambda: True)  # the app
    records, _ = synthetic.generate(300, dup_rate=0.15, seed=5)
    exporting.export_records(records[:200], folder / "a.ris", "ris")
    exporting.export_records(records[120:], folder / "b.ris", "ris")
    with Project.create(folder / f"p{apart}.litq") as project:
        run_job(ingest.import_file(project, folder / "a.ris", topic="T", role="results"))
        summary = run_job(ingest.import_file(project, folder / "b.ris", topic="T",
                                             role="results"))
        links = project.db.execute(
            "SELECT a, b, method, score, status, fp_a, fp_b FROM links ORDER BY a, b").fetchall()
        works = project.db.execute(
            "SELECT id, work_id FROM records ORDER BY id").fetchall()
    first = {}
    grouped = [first.setdefault(work, len(first)) for _, work in works]
    counts = [summary.read, summary.new, summary.duplicate, summary.in_file, summary.known,
              summary.uncertain, summary.rejected]
    return links, grouped, counts


def test_links_from_the_child_equal_those_found_here(tmp_path, monkeypatch):
    assert main_importable()  # else the "child" run would quietly link here
    (tmp_path / "here").mkdir()
    (tmp_path / "apart").mkdir()
    here = _two_imports(tmp_path / "here", False, monkeypatch)
    apart = _two_imports(tmp_path / "apart", True, monkeypatch)
    links, grouped, counts = here
    assert len(links) > 40 and counts[4] >= 80  # B holds 80 of A's records: linked
    assert apart == here


def test_a_child_without_a_result_is_one_error_and_the_import_is_undone(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(links_apart, "APART_FROM", 1)
    monkeypatch.setattr(links_apart, "serves_a_window", lambda: True)
    monkeypatch.setattr(links_apart, "_find", _no_result)
    records, _ = synthetic.generate(30, seed=6)
    exporting.export_records(records, tmp_path / "a.ris", "ris")
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(LitqError, match=r"stopped unexpectedly \(exit code 0\)"):
            run_job(ingest.import_file(project, tmp_path / "a.ris", topic="T",
                                       role="results"))
        assert project.db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
        assert project.db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0


def _no_result(path: str, topic_id: int, import_id: int, folder: str) -> None:
    """A child that ends without writing its links."""


def test_the_command_line_links_here(tmp_path, monkeypatch):
    monkeypatch.setattr(links_apart, "APART_FROM", 1)
    monkeypatch.setattr(links_apart, "in_child", _no_child)
    records, _ = synthetic.generate(30, seed=6)
    exporting.export_records(records, tmp_path / "a.ris", "ris")
    with Project.create(tmp_path / "p.litq") as project:
        summary = run_job(ingest.import_file(project, tmp_path / "a.ris", topic="T",
                                             role="results"))
    assert summary.read == 30


def _no_child(*args):
    raise AssertionError("no child process on the command line")


def test_the_items_linked_here_are_those_read_back_from_the_import(tmp_path, monkeypatch):
    """The import links its records from what its RowWriter kept while writing them, not
    read back: the same items as the project gives (short titles with their abstracts,
    a record without a title, identifiers of every kind)."""
    records, _ = synthetic.generate(40, dup_rate=0.2, seed=3)
    records += [Record(title="Reply", abstract="A reply to the letter on screening tools."),
                Record(title="", abstract="No title here.", doi="10.1000/x1", year=2020),
                Record(title="Editorial: Screening", ids={"pmcid": "PMC123"}, pmid="123"),
                Record(title="A long title that is long enough to skip the abstract",
                       abstract="Never read for linking.")]
    exporting.export_records(records, tmp_path / "a.ris", "ris")
    used, find_links = [], links_apart.find_links

    def noted(new, *args, **kwargs):
        used.append(list(new))
        return find_links(new, *args, **kwargs)

    monkeypatch.setattr(links_apart, "find_links", noted)
    read_back = works.link_items
    monkeypatch.setattr(works, "link_items", lambda *args, **kwargs: [] if "only_import" in kwargs
                        else read_back(*args, **kwargs))  # the import's items are not read
    with Project.create(tmp_path / "p.litq") as project:
        summary = run_job(ingest.import_file(project, tmp_path / "a.ris", topic="T",
                                             role="results"))
        read = read_back(project.db, project.topic_id("T"),
                                only_import=summary.import_id)
    assert len(read) == 44 and len(used) == 1
    assert used[0] == read
    assert [item.abstract for item in read[-4:]] == [
        "a reply to the letter on screening tools", "no title here", "", ""]
    assert read[-2].ids == (("pmid", "123"), ("pmcid", "PMC123"))
