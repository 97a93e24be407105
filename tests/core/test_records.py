"""Title normalisation: the ASCII fast path agrees with the general fold."""

import re

from hypothesis import given
from hypothesis import strategies as st

from litqeval_gui.core.records.model import fold_text, normalise_title


def _general(text: str) -> str:
    """The normalisation spelled out: fold, case-fold, non-word runs to one space."""
    return " ".join(re.sub(r"[\W_]+", " ", fold_text(text).casefold()).split())


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_ascii_titles_normalise_as_the_general_fold(text):
    assert normalise_title(text) == _general(text)


@given(st.text(max_size=60))
def test_any_title_normalises_as_the_general_fold(text):
    assert normalise_title(text) == _general(text)


def test_hand_picked_titles():
    assert (normalise_title("  Deep-Learning_for  SEARCH: a (Review)! ")
            == "deep learning for search a review")
    assert normalise_title("Café <i>au</i> lait &amp; {\\'e}t\\'e") == "cafe au lait ete"
    assert normalise_title("COVID-19 & β-blockers") == "covid 19 β blockers"
    assert normalise_title("") == "" and normalise_title(None) == ""
