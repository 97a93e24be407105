"""BibTeX values to text: pylatexenc decodes them; a value whose only markup is braces
just loses its braces, exactly as pylatexenc would have done."""

from hypothesis import example, given
from hypothesis import strategies as st

from litqeval_gui.core.records.importing.bibtex import (
    _LATEX,
    _LATEX_MARKUP,
    _PARSER_CONTEXT,
    to_text,
)


def _by_pylatexenc(value: str) -> str:
    return " ".join(_LATEX.latex_to_text(value, latex_context=_PARSER_CONTEXT).split())


@given(st.text(alphabet="aZ9 {}-`'!?&^_#@.,:;()[]<>/|+=*\"\n\t", max_size=40))
@example("{COVID}-19 and {SARS-CoV-2}: a {Bayesian} view")
@example("Don't -- {stop} ``now'' !`hola")
def test_values_without_latex_markup_decode_as_pylatexenc_does(value):
    if not _LATEX_MARKUP.search(value):  # the fast path: braces dropped
        assert to_text(value) == _by_pylatexenc(value)


def test_markup_still_goes_through_pylatexenc():
    assert to_text("{\\\"U}ber {COVID}-19") == "Über COVID-19"
    assert to_text("pre--post ``quoted''") == "pre–post “quoted”"
    assert to_text("50% of $\\alpha$ cases") == "50% of $\\alpha$ cases"  # math verbatim
    assert to_text("{Schr{\\\"o}dinger}, R.") == "Schrödinger, R."
    assert to_text("  {A}  {B} ") == "A B" and to_text("") == ""
