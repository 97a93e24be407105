"""The import-format registry drives detection, reading and every list of formats: a
format added to ``formats.FORMATS`` alone (here a fake one) is detected, read, stored and
offered everywhere."""

import re

import pytest

from litqeval_gui.cli import build_parser
from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.core.records.importing import detect, formats, read_records
from litqeval_gui.core.records.importing.formats import FORMATS
from tests.support.import_formats import BLOB, TITLES


@pytest.fixture
def registered(monkeypatch):
    """The fake formats added to the registry, nothing else changed."""
    monkeypatch.setattr(formats, "FORMATS", (TITLES, *FORMATS, BLOB))


def test_the_registry_is_consistent():
    names = [fmt.name for fmt in FORMATS]
    assert len(set(names)) == len(names)
    for fmt in FORMATS:
        assert fmt.binary == (fmt.sniff is None), fmt.name  # a sniffer or magic bytes
        assert fmt.suffixes and all(re.fullmatch(r"\.[a-z0-9]+", s) for s in fmt.suffixes)


def test_the_open_filter_holds_every_registered_suffix_once_and_no_json():
    pattern = formats.open_filter()
    globs = re.fullmatch(r"Search exports to import \(([^()]*)\)", pattern).group(1).split()
    assert globs == list(dict.fromkeys(f"*{s}" for fmt in FORMATS for s in fmt.suffixes))
    assert {"*.ris", "*.nbib", "*.bib", "*.csv", "*.tsv", "*.txt", "*.xlsx"} <= set(globs)
    assert "*.json" not in globs


def test_a_refused_file_lists_every_registered_format(tmp_path):
    path = tmp_path / "prose.txt"
    path.write_text("just some prose\nwithout any structure\n")
    with pytest.raises(ImportRefused) as err:
        detect(path)
    assert str(err.value).endswith("(expected RIS, PubMed/MEDLINE, BibTeX, EndNote XML, JSON lines "
                                   "(documents), TREC <DOC> documents, TREC run, "
                                   "TREC qrels, CSV, TSV, Excel (XLSX))")


def test_a_registered_text_format_is_sniffed_and_read(tmp_path, registered):
    path = tmp_path / "mine.dat"
    path.write_text("%TITLES\nFirst title\n\nSecond, with a comma\n", encoding="utf-8")
    assert detect(path) == ("titles", "utf-8")
    result = run_job(read_records(path))
    assert (result.format, result.encoding) == ("titles", "utf-8")
    assert [(r.title, r.rank, r.source_line) for r in result.records] == [
        ("First title", 1, 2), ("Second, with a comma", 2, 4)]
    forced = run_job(read_records(path, fmt="titles", limit=1))
    assert [r.title for r in forced.records] == ["First title"]


def test_a_registered_binary_format_gets_the_path_and_keeps_its_ranks(tmp_path, registered):
    path = tmp_path / "ids.bin"
    path.write_bytes(b"BLOB" + b"doc-1\0doc-2\0")
    assert detect(path) == ("blob", "blob")
    result = run_job(read_records(path, topic="7"))
    assert result.format == "blob" and result.encoding == "blob"
    assert [(r.ids, r.rank) for r in result.records] == [
        ({"docid": "doc-1"}, 7), ({"docid": "doc-2"}, 7)]  # no text needed, rank kept
    named_blob = tmp_path / "renamed.blob"
    named_blob.write_text("title,abstract\nT,A\n")
    with pytest.raises(ImportRefused, match=r"renamed\.blob: named like Blob of ids but the "
                                            r"content is not Blob of ids"):
        detect(named_blob)


def test_a_registered_format_reaches_the_project_the_cli_and_the_lists(tmp_path, registered):
    path = tmp_path / "list.txt"
    path.write_text("%TITLES\nOnly title\n", encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        summary = run_job(ingest.import_file(project, path, topic="T", role="results"))
        assert (summary.format, summary.read) == ("titles", 1)
        listed = queries.find_list(project, "T", "list")
        assert [r.title for r in queries.list_records(project, listed.id)] == ["Only title"]
    args = build_parser().parse_args(["import", "p.litq", "x", "--topic", "T",
                                      "--role", "results", "--format", "titles"])
    assert args.format == "titles"
    assert "Title list" in formats.labels() and "*.titles" in formats.open_filter()
    assert "*.blob" in formats.open_filter()


def test_forced_formats_the_content_contradicts_are_refused(tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["title"])
    book.active.append(["T"])
    book.save(tmp_path / "book.xlsx")
    with pytest.raises(ImportRefused, match="'csv' was requested but the file looks like 'xlsx'"):
        run_job(read_records(tmp_path / "book.xlsx", fmt="csv"))
    (tmp_path / "table.csv").write_text("title,abstract\nT,A\n")
    with pytest.raises(ImportRefused, match="'xlsx' was requested but the file looks like 'csv'"):
        run_job(read_records(tmp_path / "table.csv", fmt="xlsx"))
    assert run_job(read_records(tmp_path / "table.csv", fmt="tsv")).records[0].title == "T"
