"""Clause evaluation on documents whose matches are counted by hand."""

import numpy as np

from litqeval_gui.core.query.matching import TextIndex, words_of
from litqeval_gui.core.query.parser import parse

DOCS = [
    {"title": "Robot-assisted total knee arthroplasty", "abstract": "A robotic arm helps.",
     "keywords": "Arthroplasty, Replacement, Knee ; robotics"},
    {"title": "Total hip replacement", "abstract": "The knee was not studied; robots were.",
     "keywords": ""},
    {"title": "Behaviour of surgeons", "abstract": "Surgical behavior and robotic training.",
     "keywords": "training"},
    {"title": "Café culture", "abstract": "Naïve knee-jerk reactions in the total "
     "population of knee surgeons", "keywords": ""},
    {"title": "", "abstract": "", "keywords": ""},
]


def matched(text, syntax="auto", words="exact"):
    index = TextIndex(DOCS)
    return np.flatnonzero(index.mask(parse(text, syntax, words).root)).tolist()


def test_words_fold_case_accents_and_split_at_punctuation():
    assert words_of("Café Naïve Robot-Assisted, KNEE_jerk") == [
        "cafe", "naive", "robot", "assisted", "knee", "jerk"]


def test_words_truncation_and_wildcards():
    assert matched("knee") == [0, 1, 3]
    assert matched("robot") == [0]  # a whole word: not "robotic" nor "robots"
    assert matched("robot*") == [0, 1, 2]
    assert matched("behavio?r") == [2]  # behaviour and behavior, one doc
    assert matched("cafe OR naive") == [3]


def test_by_stem_every_form_of_a_word_matches_but_not_a_wildcard_or_exact_phrase():
    assert matched("robot", words="stem") == [0, 1, 2]  # robot, robots, robotic, robotics
    assert matched("surgeons", words="stem") == [2, 3]
    assert matched('"robotic training"', words="stem") == [2]
    assert matched('"robots training"', words="stem") == [2]  # robots ~ robotic
    assert matched("behavio?r", words="stem") == [2]
    assert matched("TITLE-ABS-KEY({robots were})", "scopus", "auto") == [1]
    assert matched("TITLE-ABS-KEY({robot were})", "scopus", "auto") == []
    assert matched("TITLE-ABS-KEY(robot)", "scopus", "auto") == [0, 1, 2]  # Scopus stems
    assert matched("robots[tiab]", "pubmed", "auto") == [1]  # PubMed: as written
    assert matched("(robot OR arm) NEAR/1 helps", "wos", "auto") == [0]


def test_phrases_need_their_words_in_a_row_in_one_field():
    assert matched('"total knee"') == [0]  # doc 3 has "total population of knee"
    assert matched('"robot assisted"') == [0]  # the hyphen is a word break
    assert matched('"knee jerk"') == [3]
    assert matched('"arthroplasty replacement knee"') == [0]  # in the keywords


def test_fields_and_booleans():
    assert matched("knee[ti]") == [0]
    assert matched("knee[tiab]") == [0, 1, 3]
    assert matched("robotics[mh]") == [0]
    assert matched("knee AND robot*") == [0, 1]
    assert matched("knee NOT hip") == [0, 3]
    assert matched("(hip OR cafe) AND knee") == [1, 3]


def test_proximity_within_the_distance_in_either_order_or_in_order():
    assert matched("total NEAR/2 knee", "wos") == [0, 3]  # doc 3: 2 words between
    assert matched("total NEAR/1 knee", "wos") == [0]
    assert matched("knee W/2 total", "scopus") == [0, 3]
    assert matched("TITLE-ABS(knee PRE/2 total)", "scopus") == []  # the order is total…knee
    assert matched("TITLE-ABS(total PRE/2 knee)", "scopus") == [0, 3]
    assert matched("(robotic OR robots) NEAR/2 (arm OR training)", "wos") == [0, 2]


def test_an_edited_query_reuses_the_terms_already_evaluated():
    index = TextIndex(DOCS)
    index.mask(parse("knee AND robot*").root)
    before = set(index._cache)
    index.mask(parse("knee AND robot* AND hip").root)
    new = set(index._cache) - before
    assert before < set(index._cache)
    assert sorted(k[:2] for k in new) == [("term", ("hip",)), ("word", "hip"),
                                          ("word", "hip"), ("word", "hip")]  # 3 fields
