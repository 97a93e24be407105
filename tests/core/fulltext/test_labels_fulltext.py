"""Full-text labels: a report not retrieved is its own decision there and nowhere else,
neither relevant nor training data; a full-text exclusion needs one of the reasons."""

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.screening.log.labels import (
    GRADED,
    IEM,
    check_decision,
    is_relevant,
    phase_labels,
    training_target,
)

REASONS = ("wrong population", "duplicate")


def test_not_retrieved_is_a_full_text_label_only():
    assert phase_labels(IEM, "full_text") == ("include", "exclude", "maybe", "not_retrieved")
    assert phase_labels(GRADED, "title_abstract") == ("0", "1", "2", "3")
    assert check_decision(GRADED, "full_text", (), "not_retrieved", "") == "not_retrieved"
    with pytest.raises(LitqError, match="^'not_retrieved' is not a label of a "
                                        "include_exclude_maybe screening; use one of "
                                        "include, exclude, maybe$"):
        check_decision(IEM, "title_abstract", REASONS, "not_retrieved", "")
    assert (is_relevant(GRADED, "not_retrieved"), training_target(GRADED, "not_retrieved"),
            training_target(IEM, "not_retrieved"), training_target(GRADED, "2")) == (
        False, None, None, 2)


def test_a_full_text_exclusion_needs_one_of_the_reasons():
    assert check_decision(IEM, "full_text", REASONS, "exclude", "duplicate") == "exclude"
    assert check_decision(IEM, "title_abstract", (), "exclude", "") == "exclude"
    assert check_decision(IEM, "full_text", (), "include", "") == "include"
    with pytest.raises(LitqError, match=r"^an exclusion at full text needs a reason from the "
                                        r"screening's list \(one of: wrong population, "
                                        r"duplicate\)$"):
        check_decision(IEM, "full_text", REASONS, "exclude", "")
    with pytest.raises(LitqError, match=r"^'too old' is not one of the screening's reasons"):
        check_decision(IEM, "full_text", REASONS, "exclude", "too old")
    with pytest.raises(LitqError, match="add reasons to the screening first"):
        check_decision(GRADED, "full_text", (), "0", "")
