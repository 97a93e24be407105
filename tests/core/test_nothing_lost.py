"""Every record a file holds is imported or rejected with line and reason (issue 10 §1).

Each file below is written by hand with a known number of records, among them one whose
terminator is missing, one whose header (start line) is missing and fields that cannot
be read; records in = records imported + records rejected, and each unreadable field is
named in the notes (field, record, line, value).
"""

import pytest
from openpyxl import Workbook

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import read_records

RIS = """TY  - JOUR
TI  - First, its ER line is missing
PY  - 2020

TY  - JOUR
TI  - Second
PY  - notayear
ER  -

TI  - Third lost its TY line
ER  -

TY  - JOUR
TI  - Fourth, cut off by the end of the file
"""

BIBTEX = """@article{a,
  title = {First, never closed},
  year = {2020},

@article{b,
  title = {Second},
  year = {notayear}
}

  title = {Third lost its head},
  year = {2021}
}

@article{d, title = {Fourth}}
"""

MEDLINE = """PMID- 1
TI  - First
DP  - notadate

TI  - Second lost its PMID line
DP  - 2020

PMID- 3
AB  -
"""

CSV = 'title,year,abstract\nFirst,notayear,a\n,2020,\nThird,2021,"never closed\n'
TSV = "title\tyear\tabstract\nFirst\tnotayear\ta\n\t2020\t\nThird\t2021\tc\n"
RUN = "1 Q0 d1 1 0.9 r\n1 Q0 d2 x 0.8 r\n1 Q0 d3\n1 Q0 d1 4 0.5 r\n"
QRELS = "1 0 d1 1\n1 0 d2 high\n1 0 d3\n"


@pytest.mark.parametrize(("name", "text", "records", "imported", "notes"), [
    ("f.ris", RIS, 4, 2, ["record 1 (line 1) has no 'ER  -' line",
                          "record 2 (line 5): field PY 'notayear' could not be read"]),
    ("f.bib", BIBTEX, 4, 2, ["record 2 (line 5): field year 'notayear' could not be read"]),
    ("f.nbib", MEDLINE, 3, 3, ["record 1 (line 1): field DP 'notadate' could not be read"]),
    ("f.csv", CSV, 3, 1, ["record 1 (line 2): field year 'notayear' could not be read"]),
    ("f.tsv", TSV, 3, 2, ["record 1 (line 2): field year 'notayear' could not be read"]),
    ("f.run", RUN, 4, 1, []),
    ("f.qrels", QRELS, 3, 1, []),
])
def test_records_in_equal_imported_plus_rejected(tmp_path, name, text, records, imported,
                                                 notes):
    path = tmp_path / name
    path.write_text(text.replace("ER  -\n", "ER  - \n"), encoding="utf-8")
    fmt = {"run": "trec-run", "qrels": "qrels"}.get(name.split(".")[1], "auto")
    result = run_job(read_records(path, fmt=fmt))
    assert (len(result.records), len(result.records) + len(result.rejected)) == (imported,
                                                                                 records)
    assert all(r.line and r.reason for r in result.rejected)
    for note in notes:
        assert any(n.startswith(note) for n in result.notes), (note, result.notes)


def test_xlsx_rows_are_imported_or_rejected_and_bad_years_named(tmp_path):
    book = Workbook()
    for row in (("Title", "Year"), ("First", "notayear"), (None, 2020), ("Third", 2021)):
        book.active.append(row)
    book.save(tmp_path / "f.xlsx")
    result = run_job(read_records(tmp_path / "f.xlsx"))
    assert (len(result.records), len(result.rejected)) == (2, 1)
    assert result.rejected[0].line == 3
    assert result.notes[0].startswith("record 1 (line 2): field Year 'notayear' could not")


def test_a_table_without_its_header_row_is_refused_naming_what_it_found(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("First title,2020,An abstract\nSecond title,2021,Another\n")
    with pytest.raises(ImportRefused, match="First title"):
        run_job(read_records(path))


def test_unreadable_fields_are_named_up_to_a_limit_then_counted(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("title,year\n" + "".join(f"T{i},never\n" for i in range(25)))
    notes = run_job(read_records(path)).notes
    assert sum(n.startswith("record ") and "could not be read" in n for n in notes) == 20
    assert notes[-1] == "… and 5 more fields that could not be read"
