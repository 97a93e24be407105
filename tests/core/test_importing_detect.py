"""Detection by content, encodings, and refusal of bad whole files."""

import shutil
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused, UnknownLayoutError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import detect, read_records
from litqeval_gui.core.records.importing.common import NOTHING

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"
RIS_TEXT = "TY  - JOUR\nTI  - Müller and the café\nAU  - Müller, Hans\nPY  - 2020\nER  - \n"


def load(path, **options):
    return run_job(read_records(path, **options))


@pytest.mark.parametrize(("name", "renamed", "fmt"), [
    ("zotero.ris", "export.txt", "ris"),
    ("generic_table.dat", "table.dat", "csv"),
    ("pubmed.nbib", "pubmed-results.txt", "medline"),
    ("jabref.bib", "library.txt", "bibtex"),
    ("wos_savedrecs.txt", "savedrecs.txt", "tsv"),
    ("dimensions.csv", "dimensions.txt", "csv"),
    ("run.txt", "bm25.res", "trec-run"),
    ("qrels.txt", "qrels.test", "qrels"),
])
def test_detect_by_content_not_name(tmp_path, name, renamed, fmt):
    path = tmp_path / renamed
    shutil.copy(FIX / name, path)
    assert detect(path)[0] == fmt
    assert load(path).records


def test_detect_xlsx_by_zip_signature(tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["title", "abstract"])
    book.active.append(["T", "A"])
    book.save(tmp_path / "data.bin")
    assert detect(tmp_path / "data.bin") == ("xlsx", "xlsx")


@pytest.mark.parametrize(("encoding", "expected"), [
    ("utf-8", "utf-8"), ("utf-8-sig", "utf-8-sig"), ("utf-16", "utf-16"), ("cp1252", "cp1252")])
def test_encodings(tmp_path, encoding, expected):
    path = tmp_path / "x.ris"
    path.write_bytes(RIS_TEXT.encode(encoding))
    res = load(path)
    assert res.encoding == expected
    assert res.records[0].title == "Müller and the café"
    assert res.records[0].authors == ["Müller, Hans"]
    noted = any("cp1252" in note for note in res.notes)
    assert noted == (expected == "cp1252")


def test_cp1252_after_the_detection_head_falls_back_with_note(tmp_path):
    filler = "".join(f"TY  - JOUR\nTI  - plain title {i}\nER  - \n" for i in range(3000))
    path = tmp_path / "late.ris"
    path.write_bytes(filler.encode() + RIS_TEXT.encode("cp1252"))
    assert detect(path)[1] == "utf-8"
    res = load(path)
    assert res.encoding == "cp1252" and res.records[-1].title == "Müller and the café"
    assert any("not valid UTF-8" in note for note in res.notes)


def test_utf16_tab_delimited_wos(tmp_path):
    path = tmp_path / "savedrecs.txt"
    text = (FIX / "wos_savedrecs.txt").read_text(encoding="utf-8-sig")
    path.write_bytes(text.encode("utf-16"))
    res = load(path)
    assert (res.format, res.encoding, res.database) == ("tsv", "utf-16", "wos")
    assert res.records[0].ids == {"wos_ut": "WOS:000745678900001"}


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b"  \n\n ", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", r"\.xls"),
    (b"just some prose without structure\nand another line\n", "not a recognised"),
])
def test_bad_whole_files_are_refused(tmp_path, content, message):
    path = tmp_path / "input.ris"
    path.write_bytes(content)
    with pytest.raises(ImportRefused, match=message):
        load(path)


def test_missing_file_refused(tmp_path):
    with pytest.raises(ImportRefused, match="no such file"):
        detect(tmp_path / "nope.ris")


def test_xlsx_that_is_not_a_zip(tmp_path):
    path = tmp_path / "results.xlsx"
    path.write_text("title,abstract\nT,A\n")
    with pytest.raises(ImportRefused, match=r"results\.xlsx: named like Excel \(XLSX\) but the content"):
        load(path)


def test_zip_that_is_not_a_workbook(tmp_path):
    import zipfile

    path = tmp_path / "archive.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(ImportRefused, match=r"archive\.xlsx: cannot open as an Excel workbook"):
        load(path)


def test_wrong_forced_format_is_refused():
    with pytest.raises(ImportRefused, match=r"'ris' was requested but the file looks like 'csv'"):
        load(FIX / "scopus.csv", fmt="ris")
    with pytest.raises(ImportRefused, match="unknown format"):
        load(FIX / "scopus.csv", fmt="docx")


def test_forced_csv_on_tab_delimited_uses_the_tabs():
    res = load(FIX / "wos_savedrecs.txt", fmt="csv")
    assert res.format == "csv" and res.records[0].ids == {"wos_ut": "WOS:000745678900001"}


def test_unknown_layout_lists_columns(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("ColA,ColB,ColC\n1,2,3\n")
    with pytest.raises(UnknownLayoutError, match=r"'ColA', 'ColB', 'ColC'.*which column") as err:
        load(path)
    assert err.value.columns == ["ColA", "ColB", "ColC"]
    assert "--map" not in str(err.value)  # the app shows the message: no CLI syntax
    assert err.value.cli_hint.startswith("with --map")


def test_mapping_overrides_and_bad_mapping(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("ColA,ColB,ColC\nA title,An abstract,10.1000/xyz\n")
    res = load(path, mapping={"title": "ColA", "abstract": "colb", "doi": "ColC"})
    assert res.columns == {"title": "ColA", "abstract": "ColB", "doi": "ColC"}
    assert (res.records[0].title, res.records[0].doi) == ("A title", "10.1000/xyz")
    with pytest.raises(ImportRefused, match=r"'Nope' mapped to 'title' is not in the file"):
        load(path, mapping={"title": "Nope"})
    with pytest.raises(ImportRefused, match="unknown field 'colour'"):
        load(path, mapping={"colour": "ColA"})


def test_truncated_ris_rejects_last_record_with_line(tmp_path):
    path = tmp_path / "cut.ris"
    path.write_text(RIS_TEXT + "\nTY  - JOUR\nTI  - Cut off in the midd")
    res = load(path)
    assert [r.title for r in res.records] == ["Müller and the café"]
    assert (res.rejected[0].number, res.rejected[0].line) == (2, 7)
    assert "ER" in res.rejected[0].reason
    assert any("truncated" in note for note in res.notes)


def test_bibtex_unclosed_entry_rejected_with_line(tmp_path):
    path = tmp_path / "broken.bib"
    path.write_text("@article{ok, title={Fine}, year=2020}\n\n"
                    "@article{bad,\n  title = {Never closed\n\n"
                    "@misc{after, title={After}}\n")
    res = load(path)
    assert [r.title for r in res.records] == ["Fine", "After"]
    assert res.rejected[0].line == 3 and "cannot parse" in res.rejected[0].reason


def test_records_without_text_or_with_absurd_fields_rejected(tmp_path):
    path = tmp_path / "mixed.ris"
    huge = "x" * 100_001
    path.write_text(f"TY  - JOUR\nAU  - Nobody\nER  - \n\nTY  - JOUR\nTI  - {huge}\nER  - \n\n"
                    + RIS_TEXT)
    res = load(path)
    assert len(res.records) == 1 and res.records[0].rank == 1
    assert [(r.number, r.line) for r in res.rejected] == [(1, 1), (2, 5)]
    assert res.rejected[0].reason == NOTHING
    assert "absurdly long" in res.rejected[1].reason


def test_all_rejected_refuses_with_first_problems(tmp_path):
    path = tmp_path / "empty-records.ris"
    path.write_text("TY  - JOUR\nAU  - A\nER  - \n\nTY  - JOUR\nPY  - 2020\nER  - \n")
    with pytest.raises(ImportRefused, match=r"no usable records; first problems: .*line 1.*"
                                            r"no title, no abstract and no identifier"):
        load(path)


def test_malformed_trec_lines_rejected(tmp_path):
    path = tmp_path / "x.run"
    path.write_text("1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n1 Q0 c two 0.5 t\n1 Q0 a 3 0.1 t\n")
    res = load(path, fmt="trec-run")
    assert [r.ids["docid"] for r in res.records] == ["a", "b"]
    assert [(r.line, r.reason.split(" (")[0]) for r in res.rejected] == [
        (3, "a rank, score or relevance value is not a number"),
        (4, "docid 'a' repeated in topic '1'")]


def test_unclosed_quote_rejects_its_row_instead_of_swallowing_the_file(tmp_path):
    path = tmp_path / "cut.csv"
    path.write_text('title,abstract\nA,one\n"B cut off,two\nC,three\n')
    res = load(path)
    assert [r.title for r in res.records] == ["A"]
    assert [(r.number, r.line) for r in res.rejected] == [(2, 3)]
    assert "never closed" in res.rejected[0].reason
    assert any("truncated" in note for note in res.notes)


def test_quotes_that_close_or_sit_inside_a_value_are_kept(tmp_path):
    path = tmp_path / "fine.csv"
    path.write_text('title,abstract\nA 5" disk,x\nB,"two\nlines"\n')
    res = load(path)
    assert [(r.title, r.abstract) for r in res.records] == [('A 5" disk', "x"), ("B", "two\nlines")]
    assert res.rejected == []


def test_one_column_table_keeps_its_first_row(tmp_path):
    path = tmp_path / "titles.csv"
    path.write_text("title\nFirst\nSecond\n")
    assert [(r.title, r.source_line) for r in load(path, fmt="csv").records] == [
        ("First", 2), ("Second", 3)]
