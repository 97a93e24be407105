"""The RIS reader's tight loop gives exactly rispy's records, or hands the text to rispy."""

from __future__ import annotations

import rispy
from hypothesis import given
from hypothesis import strategies as st

from litqeval_gui.core.importing import ris

_tags = st.sampled_from(["TY", "ER", "TI", "T1", "AU", "A1", "KW", "UR", "N1", "PY", "DO",
                         "AB", "A ", "Ab", "1A", "TYPE", "É2"])
_values = st.text(alphabet="ab ;\t.\r", max_size=8)
_tag_lines = st.builds(lambda tag, sep, value: tag + sep + value, _tags,
                       st.sampled_from(["  - ", "  -", " - ", "  -x"]), _values)
_lines = st.one_of(_tag_lines, _tag_lines, _tag_lines, _values)  # sometimes untagged
_texts = st.lists(_lines, max_size=30).map("\n".join)


def _rispy(text: str) -> list[dict] | None:
    try:
        return rispy.loads(text, **ris._PARSER_OPTIONS)
    except (KeyError, ValueError, IndexError):
        return None


@given(_texts)
def test_tight_loop_equals_rispy_or_declines(text):
    tagged = ris._tagged_records(text)
    if tagged is not None:
        assert tagged == _rispy(text)


_export_lines = st.builds(lambda tag, value: f"{tag}  - {value}",
                         st.sampled_from(["TY", "ER", "TI", "AU", "KW", "UR", "PY", "A "]), _values)


@given(st.lists(_export_lines, max_size=30).map("\n".join))
def test_tagged_exports_take_the_tight_loop(text):
    assert ris._tagged_records(text) == _rispy(text)


def test_usual_export_shape():
    text = ("junk before\nTY  - JOUR\nTI  - A  title \nAU  - B, C\nAU  - D, E\nTI  - second\n"
            "UR  - https://a.org/x; https://b.org/y\nKW  - k\nER  - \n\n"
            "TY  - BOOK\nPY  - 2001\nER  -\nTY  - JOUR\nTI  - unfinished")
    assert ris._tagged_records(text) == _rispy(text) == [
        {"TY": "JOUR", "TI": "A  title", "AU": ["B, C", "D, E"],
         "UR": ["https://a.org/x", "https://b.org/y"], "KW": ["k"]},
        {"TY": "BOOK", "PY": "2001"}]
    assert ris._tagged_records("TY  - JOUR\nTI  - a\n  continued\nER  - \n") is None
