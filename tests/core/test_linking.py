"""Record linkage: one hand-made case per matching rule, then quality on synthetic data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from litqeval_gui.core.errors import JobCancelled
from litqeval_gui.core.jobs import CancelToken, Progress, run_job
from litqeval_gui.core.records.linkage import (
    Link,
    LinkItem,
    LinkSettings,
    find_links,
    fingerprint,
    group,
    is_rejection,
    item_from_record,
)
from litqeval_gui.core.records.model import Record
from tests.support.synthetic import generate, pair_quality

TITLE = "Effects of caffeine on sleep quality in older adults"


def item(key: int, title: str = TITLE, year: int | None = 2020, **fields) -> LinkItem:
    return item_from_record(key, Record(title=title, year=year, **fields))


def links(new, existing=(), **options) -> dict[tuple[int, int], Link]:
    return {(link.a, link.b): link for link in run_job(find_links(new, existing, **options))}


def only_link(*items: LinkItem, **options) -> Link:
    found = links(list(items), **options)
    assert len(found) == 1, found
    return next(iter(found.values()))


# --- identifiers ---------------------------------------------------------------------------

def test_doi_in_different_forms_links_with_method_doi():
    link = only_link(item(1, "Completely different", doi="https://doi.org/10.1000/ABC.1"),
                     item(2, "Titles here", doi="doi:10.1000/abc.1"))
    assert (link.a, link.b, link.method, link.score, link.certain) == (1, 2, "doi", 1.0, True)


def test_pmid_links_regardless_of_leading_zeros_and_prefix():
    link = only_link(item(1, "One thing", pmid="PMID: 00123456"), item(2, "Other", pmid="123456"))
    assert (link.method, link.certain) == ("pmid", True)


def test_other_identifier_links_only_within_the_same_kind():
    link = only_link(item(1, "One thing", ids={"pmcid": "PMC99"}),
                     item(2, "Other", ids={"pmcid": "pmc99"}),
                     item(3, "Third", ids={"wos_ut": "PMC99"}))
    assert (link.a, link.b, link.method) == (1, 2, "pmcid")


def test_identifiers_are_normalised_as_the_importers_store_them():
    link = only_link(item(1, "One thing", ids={"wos_ut": "000390300200009"}),
                     item(2, "Other", ids={"wos_ut": "WOS:000390300200009"}))
    assert (link.method, link.certain) == ("wos_ut", True)


def test_shared_identifier_links_to_one_hub_not_all_pairs():
    titles = ["Knee surgery outcomes", "Malaria vaccines in Ghana", "Soil bacteria", "Tax policy"]
    found = links([item(k, title, doi="10.1000/shared") for k, title in enumerate(titles)])
    assert set(found) == {(0, 1), (0, 2), (0, 3)}
    assert set(group(range(4), found.values()).values()) == {0}


# --- titles --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", [
    TITLE.upper(),
    "Effects of caffeine on sleep-quality in older adults.",
    "Effects of <i>caffeine</i> on sleep quality in older adults",
    "Effects of caffeine on sleep quality in &quot;older&quot; adults",
])
def test_exact_title_after_folding_case_punctuation_and_markup(variant):
    link = only_link(item(1), item(2, variant))
    assert (link.method, link.score, link.certain) == ("title", 1.0, True)


@pytest.mark.parametrize("variant", [
    "Wirkung von Koffein auf die Schlafqualit{\\\"a}t {\\\"a}lterer Menschen",
    "Wirkung von Koffein auf die Schlafqualitat alterer Menschen",
])
def test_diacritics_and_latex_fold_to_the_same_title(variant):
    link = only_link(item(1, "Wirkung von Koffein auf die Schlafqualität älterer Menschen"),
                     item(2, variant))
    assert (link.method, link.certain) == ("title", True)


@pytest.mark.parametrize("variant", [
    "Effects of cafeine on sleep quality in older adults",
    "Efects of caffeine on sleep quality in oldre adults",
])
def test_typos_are_a_certain_fuzzy_link(variant):
    link = only_link(item(1), item(2, variant))
    assert link.method == "fuzzy" and link.certain
    assert LinkSettings().upper <= link.score < 1.0


def test_moderately_similar_titles_are_uncertain():
    link = only_link(item(1), item(2, "Effects of coffee on sleep quality in elderly adults"))
    assert link.method == "fuzzy" and not link.certain
    assert LinkSettings().lower <= link.score < LinkSettings().upper


def test_empty_input_and_empty_titles():
    assert links([]) == {}
    assert links([item(1, ""), item(2, ""), item(3, "", doi="10.1000/x"),
                  item(4, "", doi="10.1000/x")]).keys() == {(3, 4)}


def test_unrelated_titles_are_not_linked():
    assert links([item(1), item(2, "Exercise therapy for chronic low back pain")]) == {}


def test_subtitle_added_is_a_certain_subtitle_link():
    link = only_link(item(1), item(2, TITLE + ": a randomised controlled trial"))
    assert (link.method, link.score, link.certain) == ("subtitle", 1.0, True)


def test_subtitle_with_a_missing_year_needs_agreeing_abstracts():
    """A shared head with no year to compare is thin evidence: not listed,
    unless the abstracts are the same text."""
    pair = [item(1, year=None), item(2, TITLE + ": a randomised controlled trial")]
    assert links(pair) == {}
    link = only_link(*pair, abstracts=reader({1: ABSTRACT, 2: "Background. " + ABSTRACT}))
    assert (link.method, link.certain) == ("subtitle", True)


# --- abstracts weigh in on title matches ------------------------------------------------

ABSTRACT = ("We measured sleep quality in 240 adults over 65 who drank coffee in the "
            "afternoon and found that caffeine after noon shortened their sleep by 40 minutes.")
OTHER = ("A survey of 1 200 nurses working night shifts reports how often they use "
         "caffeinated drinks to stay awake and whether they sleep less on their days off.")


def reader(texts: dict[int, str], asked: list | None = None):
    """An ``abstracts`` reader over ``texts``, noting the keys it was asked for."""
    def read(keys: list[int]) -> dict[int, str]:
        if asked is not None:
            asked.append(sorted(keys))
        return {key: texts[key] for key in keys if key in texts}
    return read


def test_a_shared_head_with_different_abstracts_is_not_a_match():
    """A reported 'Found by subtitle, similarity 1.00' between two different papers:
    'Robot-assisted total knee arthroplasty' and a longer title starting with it."""
    pair = [item(1, "Robot-assisted Total Knee Arthroplasty", None),
            item(2, "Robot-assisted total knee arthroplasty in haemophilic arthropathy", None)]
    assert links(pair, settings=LinkSettings(subtitle_min_chars=20)) == {}  # no year: thin
    pair = [x._replace(year=2020) for x in pair]
    assert only_link(*pair, settings=LinkSettings(subtitle_min_chars=20)).method == "subtitle"
    assert links(pair, settings=LinkSettings(subtitle_min_chars=20),
                 abstracts=reader({1: ABSTRACT, 2: OTHER})) == {}


def test_near_titles_with_different_abstracts_are_not_a_match():
    pair = [item(1, TITLE), item(2, TITLE.replace("older", "young"))]
    assert only_link(*pair).method == "fuzzy"
    assert links(pair, abstracts=reader({1: ABSTRACT, 2: OTHER})) == {}


def test_equal_titles_with_different_abstracts_stay_listed_but_uncertain():
    pair = [item(1), item(2)]
    assert only_link(*pair).certain
    link = only_link(*pair, abstracts=reader({1: ABSTRACT, 2: OTHER}))
    assert (link.method, link.certain) == ("title", False)
    # one abstract missing, or too short to count: no evidence either way
    assert only_link(*pair, abstracts=reader({1: ABSTRACT})).certain
    assert only_link(*pair, abstracts=reader({1: ABSTRACT, 2: "See the erratum."})).certain


def test_the_reader_is_asked_only_for_records_whose_titles_matched():
    asked: list = []
    found = links([item(1), item(2), item(3, "Exercise therapy for chronic low back pain")],
                  abstracts=reader({1: ABSTRACT, 2: ABSTRACT.upper()}, asked))
    assert asked == [[1, 2]] and found[1, 2].certain


def test_subtitle_needs_a_long_enough_main_title():
    assert links([item(1, "Sleep in adults"), item(2, "Sleep in adults: a systematic review")]) \
        == {}


@pytest.mark.parametrize("year", [2019, 2021])
def test_year_one_apart_is_linked(year):
    assert only_link(item(1), item(2, year=year)).certain


@pytest.mark.parametrize("year", [2017, 2018, 2023])
def test_years_further_apart_are_never_linked(year):
    assert links([item(1), item(2, year=year)]) == {}


def test_missing_year_does_not_block_a_title_link():
    assert only_link(item(1), item(2, year=None)).certain


def test_different_dois_make_an_equal_title_uncertain():
    link = only_link(item(1, doi="10.1101/2020.01.01.123"), item(2, doi="10.1016/j.x.2020.5"))
    assert (link.method, link.certain) == ("title", False)
    assert group([1, 2], [link]) == {1: 1, 2: 2}


def test_doi_on_one_side_only_does_not_block_a_title_link():
    assert only_link(item(1, doi="10.1000/abc"), item(2)).certain


def test_part_one_and_part_two_are_uncertain():
    link = only_link(item(1, TITLE + ": Part I"), item(2, TITLE + ": Part II"))
    assert not link.certain


def test_short_equal_titles_are_uncertain():
    link = only_link(item(1, "Editorial"), item(2, "Editorial"))
    assert (link.method, link.certain) == ("title", False)


# --- verdicts ------------------------------------------------------------------------------

def test_rejected_pair_is_never_linked_even_with_a_shared_doi():
    x, y = item(1, doi="10.1000/abc"), item(2, doi="10.1000/abc")
    link = only_link(x, y, verdicts={frozenset({fingerprint(x), fingerprint(y)}): False})
    assert is_rejection(link) and (link.a, link.b, link.score) == (1, 2, 0.0)
    assert group([1, 2], [link]) == {1: 1, 2: 2}


def test_confirmed_pair_is_a_certain_user_link():
    x, y = item(1), item(2, "Something else entirely", year=1990)
    link = only_link(x, y, verdicts={frozenset({fingerprint(x), fingerprint(y)}): True})
    assert (link.method, link.score, link.certain) == ("user", 1.0, True)


def test_verdict_applies_to_a_reimport_of_the_same_content():
    x, y = item(1, TITLE + ": Part I"), item(2, TITLE + ": Part II")
    verdicts = {frozenset({fingerprint(x), fingerprint(y)}): False}
    found = links([x._replace(key=10), y._replace(key=20)], verdicts=verdicts)
    assert list(found) == [(10, 20)] and is_rejection(found[10, 20])


def test_fingerprint_ignores_identifier_form_but_not_content():
    assert fingerprint(item(1, doi="https://doi.org/10.1000/X")) == fingerprint(item(2, doi="10.1000/x"))
    assert fingerprint(item(1)) != fingerprint(item(1, year=2021))


# --- new x existing ------------------------------------------------------------------------

def test_new_links_to_existing_but_existing_pairs_are_not_relinked():
    existing = [item(1), item(2), item(3, "Unrelated existing title about knees", doi="10.1000/k"),
                item(4, "Other unrelated existing title", doi="10.1000/k")]
    found = links([item(9)], existing)
    assert set(found) == {(1, 9), (2, 9)}
    found = links([item(9, "Brand new title on a third topic", doi="10.1000/k")], existing)
    assert set(found) == {(3, 9), (4, 9)}


def test_links_among_new_items_are_found_too():
    assert set(links([item(7), item(8)], [item(1, "Unrelated existing title")])) == {(7, 8)}


# --- group ---------------------------------------------------------------------------------

def test_group_is_transitive_and_named_by_the_smallest_key():
    found = [Link(5, 9, "doi", 1.0, True), Link(3, 9, "fuzzy", 0.95, True),
             Link(1, 2, "title", 1.0, True)]
    assert group([1, 2, 3, 4, 5, 9], found) == {1: 1, 2: 1, 3: 3, 4: 4, 5: 3, 9: 3}


def test_uncertain_links_do_not_merge_groups():
    found = [Link(1, 2, "doi", 1.0, True), Link(2, 3, "fuzzy", 0.9, False)]
    assert group([1, 2, 3], found) == {1: 1, 2: 1, 3: 3}


def _rejected(a, b):
    return Link(a, b, "user", 0.0, False)


def test_a_rejected_pair_stays_apart_when_a_third_record_links_both():
    found = [Link(1, 3, "title", 0.95, True), Link(2, 3, "title", 0.97, True), _rejected(1, 2)]
    assert group([1, 2, 3], found) == {1: 1, 2: 2, 3: 2}  # the stronger title link wins


def test_stronger_evidence_joins_first_the_user_then_identifiers_then_titles():
    chain = [Link(1, 3, "title", 1.0, True), Link(2, 3, "doi", 1.0, True), _rejected(1, 2)]
    assert group([1, 2, 3], chain) == {1: 1, 2: 2, 3: 2}  # the DOI beats an equal title
    chain[0] = Link(1, 3, "user", 1.0, True)
    assert group([1, 2, 3], chain) == {1: 1, 2: 2, 3: 1}  # the user's link beats the DOI
    ties = [Link(2, 3, "user", 1.0, True), Link(1, 3, "user", 1.0, True), _rejected(1, 2)]
    assert group([1, 2, 3], ties) == {1: 1, 2: 2, 3: 2}  # equal strength: the given order


def test_a_rejection_follows_its_records_into_merged_groups():
    found = [Link(1, 2, "doi", 1.0, True), Link(4, 5, "doi", 1.0, True),
             Link(3, 4, "title", 0.99, True), Link(2, 3, "title", 0.98, True), _rejected(1, 5)]
    assert group(range(1, 6), found) == {1: 1, 2: 1, 3: 3, 4: 3, 5: 3}


@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.sampled_from(
    ["doi", "title", "user", "rejected"]), st.floats(0.85, 1.0)), max_size=40))
def test_group_respects_rejections_and_otherwise_is_connected_components(raw):
    found = [_rejected(min(a, b), max(a, b)) if kind == "rejected"
             else Link(min(a, b), max(a, b), kind, score, True)
             for a, b, kind, score in raw if a != b]
    groups = group(range(12), found)
    for link in found:
        if is_rejection(link):
            assert groups[link.a] != groups[link.b]
        else:  # a certain link is only left out when it would join a rejected pair
            assert groups[link.a] == groups[link.b] or any(
                {groups[r.a], groups[r.b]} == {groups[link.a], groups[link.b]}
                for r in found if is_rejection(r))
    certain = [link for link in found if not is_rejection(link)]
    graph = csr_matrix((np.ones(len(certain)), ([link.a for link in certain],
                                                [link.b for link in certain])), shape=(12, 12))
    _, labels = connected_components(graph, directed=False)
    plain = group(range(12), certain)
    assert all((plain[i] == plain[j]) == (labels[i] == labels[j])
               for i in range(12) for j in range(12))
    assert all(plain[i] == min(k for k in range(12) if labels[k] == labels[i]) for i in range(12))


# --- job protocol --------------------------------------------------------------------------

def test_reports_progress_and_stops_when_cancelled():
    reports: list[Progress] = []
    run_job(find_links([item(1), item(2)]), reports.append)
    assert reports and all(isinstance(p, Progress) for p in reports)
    token = CancelToken()
    job = find_links([item(1), item(2)], token=token)
    next(job)
    token.cancel()
    with pytest.raises(JobCancelled):
        run_job(job)


# --- quality on synthetic data -------------------------------------------------------------

@pytest.fixture(scope="module")
def synthetic():
    records, true_pairs = generate(5000, 0.1, seed=1)
    return [item_from_record(index, record) for index, record in enumerate(records)], true_pairs


def test_precision_and_recall_on_synthetic_records(synthetic):
    items, true_pairs = synthetic
    precision, recall = pair_quality(group(range(len(items)), run_job(find_links(items))),
                                     true_pairs)
    assert precision >= 0.95 and recall >= 0.95


def test_title_rules_alone_find_duplicates_without_identifiers(synthetic):
    items, true_pairs = synthetic
    bare = [x._replace(ids=()) for x in items]
    precision, recall = pair_quality(group(range(len(bare)), run_job(find_links(bare))),
                                     true_pairs)
    assert precision >= 0.95 and recall >= 0.9  # id_only duplicates need identifiers


def test_incremental_import_finds_the_same_quality(synthetic):
    items, true_pairs = synthetic
    old, new = items[:4000], items[4000:]
    found = run_job(find_links(old)) + run_job(find_links(new, old))
    precision, recall = pair_quality(group(range(len(items)), found), true_pairs)
    assert precision >= 0.95 and recall >= 0.95


# --- equal texts, different DOIs ----------------------------------------------------------

def test_equal_short_titles_with_equal_abstracts_are_the_same_work():
    text = "We report a single case of caffeine poisoning."
    link = only_link(item(1, "Editorial", None, abstract=text),
                     item(2, "EDITORIAL.", None, abstract=" we report a single case of "
                                                          "Caffeine poisoning "))
    assert (link.method, link.certain) == ("title", True)
    other = only_link(item(1, "Editorial", None, abstract=text),
                      item(2, "Editorial", None, abstract="Another text."))
    assert not other.certain
    empty = only_link(item(1, "Editorial", None), item(2, "Editorial", None))
    assert not empty.certain  # no abstract is no evidence


def test_a_preprint_with_its_own_doi_is_never_merged_automatically():
    article = item(1, TITLE, 2021, doi="10.1016/j.sleep.2021.01.001")
    preprint = item(2, TITLE + " (preprint)", 2020, doi="10.1101/2020.05.05.123")
    link = only_link(article, preprint)
    assert not link.certain and link.score >= 0.93


def test_a_shared_identifier_with_different_dois_is_only_uncertain():
    link = only_link(item(1, "A title about sleep", doi="10.1000/a", pmid="5"),
                     item(2, "Another title on caffeine use", doi="10.1000/b", pmid="5"))
    assert (link.method, link.certain) == ("pmid", False)
    assert only_link(item(1, "A title about sleep", doi="10.1000/a", pmid="5"),
                     item(2, "Another title on caffeine use", pmid="5")).certain


def test_group_never_joins_two_dois_through_a_third_record_unless_the_user_does():
    through = [Link(1, 3, "title", 1.0, True), Link(2, 3, "title", 0.99, True)]
    dois = {1: "10.1/a", 2: "10.1/b"}
    assert group([1, 2, 3], through, dois) == {1: 1, 2: 2, 3: 1}
    assert group([1, 2, 3], through) == {1: 1, 2: 1, 3: 1}  # without DOIs: joined
    assert group([1, 2, 3], [Link(1, 2, "user", 1.0, True)], dois) == {1: 1, 2: 1, 3: 3}
    assert group([1, 2], [Link(1, 2, "doi", 1.0, True)], {1: "10.1/a", 2: "10.1/a"}) == \
        {1: 1, 2: 1}


# -- the candidate orders are sorted in GIL-friendly pieces, with the same result --------


def _plain_orders(titles: list[str], rare_keys: int) -> list[list[int]]:
    """The two orders as plain ``sorted`` calls compute them (the reference)."""
    from collections import Counter

    present = [i for i, title in enumerate(titles) if title]
    tokens = {i: set(titles[i].split()) for i in present}
    df = Counter(token for words in tokens.values() for token in words)
    shared = sorted((t for t, count in df.items() if count > 1), key=lambda t: (df[t], t))
    rank = {token: position for position, token in enumerate(shared)}
    keyed = sorted((token, titles[i], i) for i, words in tokens.items()
                   for token in sorted((t for t in words if t in rank),
                                       key=rank.__getitem__)[:rare_keys])
    return [sorted(present, key=titles.__getitem__), [i for _t, _title, i in keyed]]


_words = st.sampled_from("sleep caffeine older adults trial review cohort a of in".split())
_titles = st.lists(st.lists(_words, max_size=6).map(" ".join), max_size=60)


@given(_titles, st.integers(1, 4), st.integers(1, 7))
def test_sort_orders_equal_plain_sorting(titles, rare_keys, slice_size):
    from litqeval_gui.core.records import neighbourhood as linking

    saved = linking.SLICE
    linking.SLICE = slice_size  # tiny slices: many merged runs, ties across runs
    try:
        assert linking.sort_orders(titles, rare_keys) == _plain_orders(titles, rare_keys)
    finally:
        linking.SLICE = saved


@given(st.lists(st.tuples(st.integers(0, 5), st.integers())), st.integers(1, 9))
def test_gentle_sorted_is_sorted_and_stable(values, slice_size):
    from litqeval_gui.core.records import neighbourhood as linking

    saved = linking.SLICE
    linking.SLICE = slice_size
    try:
        assert linking.gentle_sorted(values, key=lambda v: v[0]) == sorted(
            values, key=lambda v: v[0])
    finally:
        linking.SLICE = saved


# -- subtitle scores are computed only where they can reach the lower threshold ---------


def _plain_title_scores(titles, a, b, settings):
    """Every candidate's subtitle score, computed (the reference; float32, as
    ``rapidfuzz.process.cpdist`` returns them)."""
    from rapidfuzz import fuzz

    scores, subtitle = [], []
    for i, j in zip(a, b, strict=True):
        x, y = titles[i], titles[j]
        full = np.float32(fuzz.ratio(x, y, score_cutoff=settings.lower * 100))
        best, sub = full, False
        if (full < settings.upper * 100 and abs(len(x) - len(y)) > 1
                and min(len(x), len(y)) >= settings.subtitle_min_chars):
            short, long = (x, y) if len(x) < len(y) else (y, x)
            head = " ".join(long.split()[:short.count(" ") + 1])
            prefix = np.float32(fuzz.ratio(short, head, score_cutoff=settings.lower * 100))
            best, sub = max(full, prefix), prefix > full
        scores.append(float(best) / 100)
        subtitle.append(bool(sub))
    return scores, subtitle


_title_words = st.sampled_from("sleep sleeps caffeine older adults trial review a of "
                               "systematic meta-analysis cohort".split())


@st.composite
def _spaced_titles(draw):
    """Titles that are often a shared main title, perhaps with one word changed, and a
    subtitle of their own; words joined by one or two spaces or a tab."""
    mains = draw(st.lists(st.lists(_title_words, min_size=2, max_size=5), min_size=1,
                          max_size=3))
    titles = []
    for _ in range(draw(st.integers(2, 20))):
        words = list(draw(st.sampled_from(mains)))
        if draw(st.booleans()):
            words[draw(st.integers(0, len(words) - 1))] = draw(_title_words)
        words += draw(st.lists(_title_words, max_size=4))
        titles.append(draw(st.sampled_from([" ", " ", "  ", "\t"])).join(words))
    return titles


@given(_spaced_titles(), st.data())
def test_title_scores_equal_scoring_every_subtitle(titles, data):
    import litqeval_gui.core.records.title_matches as linking

    n = len(titles)
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                               min_size=1, max_size=40))
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    settings = LinkSettings(subtitle_min_chars=10)
    array = np.array(titles, dtype=object)
    lengths = np.array([len(t) for t in titles], dtype=np.int64)
    scores, subtitle = linking.title_scores(array, lengths, linking.single_spaced(titles),
                                             a, b, settings)
    want_scores, want_subtitle = _plain_title_scores(titles, a, b, settings)
    assert scores.tolist() == want_scores
    assert subtitle.tolist() == want_subtitle


@pytest.mark.parametrize(("short", "long", "score"), [
    # typos: the subtitle score (93.98) equals its bound from the whole titles
    ("effects of caffeine on sleep in older adults",
     "efects of cafeine on slep in oldr adlts a randomised controlled trial of sleep", 0.9398),
    # tabs: the head (joined by spaces) is no subsequence of its title, so no bound holds
    ("a of b in c to d on e at f by g",
     "\t".join("a of b in c to d on e at f by g and a long subtitle here".split()), 1.0),
])
def test_a_subtitle_score_near_its_bound_or_without_one_is_computed(short, long, score):
    import litqeval_gui.core.records.title_matches as linking

    titles = [short, long]
    scores, subtitle = linking.title_scores(
        np.array(titles, dtype=object), np.array([len(short), len(long)]),
        linking.single_spaced(titles), np.array([0]), np.array([1]), LinkSettings())
    assert subtitle.tolist() == [True] and scores[0] == pytest.approx(score, abs=1e-4)


def test_single_spaced_tells_the_plain_space_from_any_other_whitespace():
    """A title is single-spaced unless it holds whitespace other than U+0020 (no-break
    and em spaces, a unit separator, a line separator), whether or not it holds other
    characters that are not printable (a zero-width space, NUL are not whitespace)."""
    import litqeval_gui.core.records.title_matches as linking

    titles = ["a b", "a\u00a0b", "a\u2003b", "a\x1fb", "a\u2028b", "a\u200bb", "a\x00b", "ä b"]
    assert linking.single_spaced(titles).tolist() == [True, False, False, False, False,
                                                       True, True, True]
    assert linking.single_spaced(["a b", "ä b c"]).tolist() == [True, True]
    assert linking.single_spaced(["a\u200bb", "x"]).tolist() == [True, True]


def test_neighbour_codes_keep_the_wanted_pairs_within_the_window():
    from litqeval_gui.core.records.neighbourhood import neighbour_codes

    order = [3, 0, 2, 1, 3]  # item 3 twice: a title listed under two rare tokens
    odd_sum = lambda i, j: (i + j) % 2 == 1  # noqa: E731
    # distance 1: (3,0) kept, (0,2) not, (2,1) kept, (1,3) not; distance 2: (3,2), (0,1),
    # (2,3) all kept; encoded lo * 4 + hi
    assert sorted(neighbour_codes(order, 2, 4, odd_sum).tolist()) == [1, 3, 6, 11, 11]
    # an item beside itself (3 … 3 at distance 4) is never a pair
    assert 15 not in neighbour_codes(order, 4, 4, lambda i, j: i == i).tolist()


@given(st.lists(st.sampled_from(["sleep in older adults", "sleep in older adult",
                                 "caffeine and sleep", "caffeine and sleeps"]),
                min_size=2, max_size=12),
       st.lists(st.sampled_from([None, 2000, 2001, 2003]), min_size=12, max_size=12))
def test_title_links_respect_the_year_tolerance(titles, years):
    """A title match is only found between records whose years are within the tolerance
    (or one unknown), whatever the sort orders put side by side."""
    records = [Record(title=t, year=y) for t, y in zip(titles, years, strict=False)]
    items = [item_from_record(k, r) for k, r in enumerate(records)]
    for link in run_job(find_links(items)):
        x, y = records[link.a].year, records[link.b].year
        assert x is None or y is None or abs(x - y) <= LinkSettings().year_tolerance
