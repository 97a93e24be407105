"""The screener shows a record without title or abstract (issue 28 §2) by what it has:
its identifiers as links, authors and year, and says it has no text."""

from litqeval_gui.core.records.model import Record
from litqeval_gui.gui.screens.screening.record import NO_TEXT, record_html


def test_a_textless_record_shows_its_identifiers_as_links_and_says_it_has_no_text():
    record = Record(authors=["Ng A", "Chen B"], year=1998, doi="10.1053/euhj.1998.1271",
                    pmid="10075143", ids={"docid": "101"})
    page = record_html(record, ["robot*"], [])
    assert '<a href="https://doi.org/10.1053/euhj.1998.1271">' in page
    assert '<a href="https://pubmed.ncbi.nlm.nih.gov/10075143/">PMID 10075143</a>' in page
    for text in ("Ng A; Chen B", "1998", "docid 101", "(no title)", NO_TEXT):
        assert text in page, text


def test_a_record_with_a_title_but_no_abstract_is_not_called_textless():
    page = record_html(Record(title="Robots", pmid="7"), [], [])
    assert "<i>(no abstract)</i>" in page and NO_TEXT not in page
