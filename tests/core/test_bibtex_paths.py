"""A full text's path in the BibTeX ``file`` field reads back whole through the app's
export and import, whatever it holds, and never ends the value early: before, a path
with ``}`` injected a ``title`` field on re-import, and one with an unbalanced ``{`` or a
line starting an entry made the export unreadable. Verbatim fields (URL, DOI…) with
such braces no longer inject either."""

import re

import bibtexparser
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.model import Record

NASTY = ["/x/a}, title = {INJECTED}, x = {.pdf", "/x/a{b.pdf", "/x/a}b.pdf", "/x/{{{.pdf",
         "/x/a\\b\\.pdf", "C:\\Users\\ann\\p.pdf", "/x/a\nb.pdf",
         "/x/a\n@article{evil,\ntitle={I}}\n.pdf", "/x/100%.pdf", '/x/"quoted".pdf',
         "/x/it's.pdf", "/x/a;b:c.pdf", "/x/ends\\", "/x/\\u0041.pdf", "/x/\r\x1b[31m\x00.pdf",
         "/x/\u2028line.pdf", "/x/ @misc{.pdf", "/x/a # b = c, d.pdf"]
_ESCAPE = re.compile(r"\\(u[0-9a-f]{4}|.)", re.DOTALL)


def path_of(field: str) -> str:
    """The path of a ``file`` field as the module docstring of citation_writers writes it."""
    body = field.removeprefix("Full Text PDF:").removesuffix(":application/pdf")
    return _ESCAPE.sub(lambda m: chr(int(m[1][1:], 16)) if len(m[1]) == 5 else m[1], body)


def round_trip(tmp_path, record: Record, attachment: str) -> Record:
    out = tmp_path / "out.bib"
    export_records([record], out, "bibtex", attachments=[attachment])
    text = out.read_text(encoding="utf-8")
    assert bibtexparser.parse_string(text).failed_blocks == []
    (back,) = run_job(read_records(out)).records
    return back


@pytest.mark.parametrize("path", NASTY)
def test_a_nasty_path_reads_back_whole_and_injects_nothing(tmp_path, path):
    back = round_trip(tmp_path, Record(title="Real", year=2020), path)
    assert back.title == "Real" and back.year == 2020
    assert set(back.raw) == {"ENTRYTYPE", "ID", "title", "year", "file"}
    assert path_of(back.raw["file"]) == path
    assert "\n" not in back.raw["file"]


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(exclude_categories=()), min_size=1, max_size=30))
@example("}{")
def test_any_path_reads_back_whole(tmp_path_factory, path):
    back = round_trip(tmp_path_factory.mktemp("bib"), Record(title="Real"), path)
    assert back.title == "Real" and path_of(back.raw["file"]) == path


@pytest.mark.parametrize("field", ["url", "doi"])
def test_a_verbatim_field_with_braces_injects_no_field(tmp_path, field):
    record = Record(title="Real", **{field: "10.1/x}, title = {INJECTED}, x = {"})
    back = round_trip(tmp_path, record, "/x/p.pdf")
    assert back.title == "Real"
    assert set(back.raw) == {"ENTRYTYPE", "ID", "title", field, "file"}
