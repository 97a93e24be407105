"""Linkage of records whose identifiers of one kind differ (two entries of one register:
two Dimensions ids, two PMIDs, two DOIs): the text decides whether the pair is one
work, a question for the user, or two works that are not even listed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.abstract_evidence import abstract_text
from litqeval_gui.core.records.linkage import (
    Link,
    LinkItem,
    conflicting_kinds,
    find_links,
    item_from_record,
)
from litqeval_gui.core.records.model import Record

TITLE = "Robotic arm assisted total knee arthroplasty improves component alignment"
TEXT = ("We compared implant placement accuracy and limb alignment between robotic arm "
        "assisted and navigation assisted total knee arthroplasty in 120 patients. Robotic "
        "assistance reduced outliers of the coronal alignment and gave the same operative "
        "time after the first twenty cases, with no difference in complications.")
OTHER = ("A survey of 1 200 nurses working night shifts reports how often they use "
         "caffeinated drinks to stay awake and whether they sleep less on their days off, "
         "and which hospitals offer rest rooms to the staff of their night shifts.")
MIDDLE = ("We compared implant placement accuracy and limb alignment between robotic arm "
          "assisted and navigation assisted surgery. A survey of 1 200 nurses working night "
          "shifts reports how often they use caffeinated drinks to stay awake and whether "
          "they sleep less on their days off.")


def item(key: int, title: str = TITLE, abstract: str = "", **fields) -> LinkItem:
    return item_from_record(key, Record(title=title, abstract=abstract, **fields))


def dims(key: int, title: str = TITLE, abstract: str = "", **fields) -> LinkItem:
    """A record with a Dimensions id of its own (``pub.<key>000000``)."""
    return item(key, title, abstract, ids={"dimensions": f"pub.{key}000000"}, **fields)


def links(items: list[LinkItem], texts: dict[int, str]) -> dict[tuple[int, int], Link]:
    def read(keys: list[int]) -> dict[int, str]:
        return {key: texts[key] for key in keys if texts.get(key)}
    return {(link.a, link.b): link for link in run_job(find_links(items, abstracts=read))}


def test_equal_title_and_abstract_with_two_dimensions_ids_is_one_work():
    found = links([dims(1), dims(2)], {1: TEXT, 2: TEXT})
    assert (found[1, 2].method, found[1, 2].certain) == ("title", True)


@pytest.mark.parametrize("copy", [
    "<h2>Background</h2>  " + TEXT,  # a heading in markup
    "Background" + TEXT,  # a heading glued to the first word ("BackgroundWe")
    "BACKGROUND: " + TEXT.upper(),
    TEXT.replace("120 patients", "120 consecutive patients").replace(", with", "; with"),
])
def test_the_same_abstract_up_to_headings_markup_and_small_edits_is_one_work(copy):
    found = links([dims(1), dims(2, TITLE.upper() + ".")], {1: TEXT, 2: copy})
    assert found[1, 2].certain


def test_equal_texts_with_two_dois_stay_for_the_user():
    """Two DOIs are two registered versions (preprint and article, an update): the
    reviewer decides, however equal the texts."""
    found = links([item(1, doi="10.1101/2020.1"), item(2, doi="10.1000/j.x.1")],
                  {1: TEXT, 2: TEXT})
    assert (found[1, 2].method, found[1, 2].certain) == ("title", False)


def test_equal_titles_with_different_abstracts_and_two_ids_are_not_listed():
    assert links([dims(1), dims(2)], {1: TEXT, 2: OTHER}) == {}
    assert links([item(1, pmid="11"), item(2, pmid="22")], {1: TEXT, 2: OTHER}) == {}
    # without identifiers the same pair is still the user's question
    found = links([item(1), item(2)], {1: TEXT, 2: OTHER})
    assert not found[1, 2].certain


def test_abstracts_that_do_not_agree_keep_two_ids_apart():
    assert links([dims(1), dims(2)], {1: TEXT, 2: MIDDLE}) == {}
    found = links([item(1), item(2)], {1: TEXT, 2: MIDDLE})
    assert found[1, 2].certain  # no ids: the abstracts are no clear difference


def test_agreeing_abstracts_that_are_not_the_same_text_stay_for_the_user():
    revised = TEXT + " " + OTHER  # one text holds the other: they agree, yet differ
    found = links([dims(1), dims(2)], {1: TEXT, 2: revised})
    assert not found[1, 2].certain


def test_without_abstracts_two_ids_need_a_title_that_is_certain_by_itself():
    near = "Robotic assisted total knee arthroplasty improves implant alignment"  # 0.91
    assert links([dims(1), dims(2, near)], {}) == {}  # a fuzzy title below ``upper``
    found = links([dims(1), dims(2)], {})
    assert not found[1, 2].certain  # equal titles: the user's question
    assert links([dims(1, "Editorial"), dims(2, "Editorial")], {}) == {}  # too short


def test_a_near_title_or_other_numbers_with_the_same_abstract_stay_for_the_user():
    near = "Robotic assisted total knee arthroplasty improves implant alignment"  # 0.91
    found = links([dims(1), dims(2, near)], {1: TEXT, 2: TEXT})
    assert not found[1, 2].certain
    found = links([dims(1, TITLE + ": part 1"), dims(2, TITLE + ": part 2")],
                  {1: TEXT, 2: TEXT})
    assert not found[1, 2].certain


def test_ids_of_unknown_kind_never_conflict():
    """A ``docid`` may come from two registers' numberings: no evidence either way."""
    pair = [item(1, ids={"docid": "17"}), item(2, ids={"docid": "A-17"})]
    assert links(pair, {1: TEXT, 2: TEXT})[1, 2].certain
    assert not links(pair, {1: TEXT, 2: OTHER})[1, 2].certain  # listed, not dropped
    assert conflicting_kinds((("docid", "1"),), (("docid", "2"),)) == []
    assert conflicting_kinds((("pmid", "1"), ("doi", "10.1/a")),
                             (("pmid", "2"), ("doi", "10.1/a"))) == ["pmid"]


def test_a_record_without_abstract_is_judged_by_its_identifier_partner():
    """A core record (no abstract) shares its Dimensions id with result 2; result 3 has
    the core's title but another id: 2's abstract says whether 3 is the same text."""
    core = item(1, ids={"dimensions": "pub.1000000"})
    same_id = item(2, "Another form of the title entirely", ids={"dimensions": "pub.1000000"})
    differ = links([core, same_id, dims(3)], {2: TEXT, 3: OTHER})
    assert set(differ) == {(1, 2)}  # 1-3 dropped: 2's text is another text
    agree = links([core, same_id, dims(3)], {2: TEXT, 3: TEXT})
    assert agree[1, 3].certain
    shared = item(4, "Unrelated title of a third record", ids={"dimensions": "pub.1000000"})
    three = links([core, same_id, shared, dims(3)], {2: TEXT, 3: OTHER, 4: TEXT})
    assert not three[1, 3].certain  # an id of three records lends no abstract


def test_abstract_text_leaves_out_markup_headings_and_case():
    assert abstract_text("<h2>Background</h2>  The AIM: we Tested it.") == "the we tested it"
    assert abstract_text("BackgroundThe trial") == "the trial"
    assert abstract_text(None) == ""


_words = [f"w{n}" for n in range(400)]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(25, 80))
def test_random_texts_never_join_two_ids_and_copies_always_do(seed, length):
    """Equal titles and two Dimensions ids: a copy of an abstract (a heading added, case
    changed, one word edited) is certain; an unrelated abstract is never linked."""
    rng = random.Random(seed)
    text = " ".join(rng.choices(_words, k=length))
    words = text.split()
    words[rng.randrange(length)] = "edited"
    copy = "Background: " + " ".join(words).upper()
    other = " ".join(rng.choices(_words, k=length))
    found = links([dims(1), dims(2), dims(3)], {1: text, 2: copy, 3: other})
    assert found[1, 2].certain
    assert (1, 3) not in found and (2, 3) not in found
