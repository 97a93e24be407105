"""The synthetic generator: deterministic, and its duplicates are what it says they are."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import pytest
from rapidfuzz.distance import Levenshtein

from litqeval_gui.core.records.model import Record, normalise_doi, normalise_title
from tests.support.synthetic import (
    HARD_NEGATIVES,
    TITLE_VARIATIONS,
    VARIATIONS,
    generate,
    pair_quality,
)


def meta(record: Record) -> dict:
    return record.raw["synthetic"]


@pytest.fixture(scope="module")
def generated():
    return generate(3000, 0.1, seed=7)


@pytest.fixture(scope="module")
def originals(generated):
    records, _ = generated
    return {meta(r)["work"]: r for r in records if not meta(r)["variations"]}


def duplicates_with(generated, originals, kind: str, alone: bool = True):
    """(original, duplicate) pairs whose duplicate has ``kind`` (as its only title variation)."""
    records, _ = generated
    for record in records:
        kinds = meta(record)["variations"]
        title_kinds = [k for k in kinds if k in TITLE_VARIATIONS]
        if kind in kinds and (not alone or kind not in TITLE_VARIATIONS or title_kinds == [kind]):
            yield originals[meta(record)["work"]], record


def test_same_seed_same_records_other_seed_other_records():
    first, second, other = generate(300, seed=3), generate(300, seed=3), generate(300, seed=4)
    assert first == second
    assert [r.title for r in first[0]] != [r.title for r in other[0]]


def test_sizes_ranks_and_duplicate_count(generated):
    records, pairs = generated
    assert len(records) == 3000
    assert [r.rank for r in records] == list(range(1, 3001))
    assert sum(1 for r in records if meta(r)["variations"]) == 300
    assert all(len(pair) == 2 and max(pair) < 3000 for pair in pairs)
    assert sum(1 for r in records if r.doi) > 0.75 * 3000


def test_pairs_are_exactly_the_clusters_of_one_original_each(generated, originals):
    records, pairs = generated
    clusters = defaultdict(list)
    for index, record in enumerate(records):
        clusters[meta(record)["work"]].append(index)
    assert pairs == {frozenset(p) for members in clusters.values()
                     for p in combinations(members, 2)}
    assert set(clusters) == set(originals)  # every cluster has exactly one unvaried original
    for record in records:
        assert set(meta(record)["variations"]) <= set(VARIATIONS)


def test_every_duplicate_has_a_title_year_or_identifier_variation(generated):
    records, _ = generated
    for record in records:
        kinds = meta(record)["variations"]
        assert not kinds or set(kinds) & (set(TITLE_VARIATIONS) | {"id_only"})


def test_every_variation_kind_occurs(generated):
    records, _ = generated
    seen = {k for r in records for k in meta(r)["variations"]}
    assert seen == set(VARIATIONS)


def test_typo_is_a_small_edit(generated, originals):
    for original, dup in duplicates_with(generated, originals, "typo"):
        assert 1 <= Levenshtein.distance(original.title, dup.title) <= 4


@pytest.mark.parametrize("kind", ["case", "punctuation", "markup"])
def test_case_punctuation_and_markup_fold_away(generated, originals, kind):
    found = list(duplicates_with(generated, originals, kind))
    assert found
    for original, dup in found:
        assert dup.title != original.title
        assert normalise_title(dup.title) == normalise_title(original.title)


def test_subtitle_is_added_or_dropped(generated, originals):
    for original, dup in duplicates_with(generated, originals, "subtitle"):
        short, long = sorted((normalise_title(original.title), normalise_title(dup.title)),
                             key=len)
        assert long.startswith(short + " ")


def test_year_differs_by_one(generated, originals):
    for original, dup in duplicates_with(generated, originals, "year", alone=False):
        assert abs(original.year - dup.year) == 1


def test_identifier_variations(generated, originals):
    for original, dup in duplicates_with(generated, originals, "doi_form"):
        assert dup.doi != original.doi and normalise_doi(dup.doi) == original.doi
    for original, dup in duplicates_with(generated, originals, "doi_missing"):
        assert (original.doi or original.pmid) and not (dup.doi or dup.pmid)
    for original, dup in duplicates_with(generated, originals, "id_only"):
        assert (dup.pmid and dup.pmid == original.pmid) or (dup.doi and dup.doi == original.doi)
        assert normalise_title(dup.title) != normalise_title(original.title)


def test_hard_negatives_are_present_and_not_duplicates(generated):
    records, pairs = generated
    index_of_work = {meta(r)["work"]: i for i, r in enumerate(records) if not meta(r)["variations"]}
    found = defaultdict(int)
    for i, record in enumerate(records):
        info = meta(record)
        if info["variations"] or "hard_negative" not in info:
            continue
        j = index_of_work[info["related_work"]]
        other = records[j]
        assert frozenset((i, j)) not in pairs
        if info["hard_negative"] == "update":
            assert record.title == other.title and abs(record.year - other.year) >= 4
        else:
            assert record.title.rsplit(" ", 1)[0] == other.title.rsplit(" ", 1)[0]
            assert {record.title.rsplit(" ", 1)[1], other.title.rsplit(" ", 1)[1]} == {"I", "II"}
        found[info["hard_negative"]] += 1
    assert set(found) == set(HARD_NEGATIVES)
    assert all(count >= 20 for count in found.values())  # both sides of >= 10 pairs each


def test_pair_quality_counts_transitive_pairs():
    groups = {1: 1, 2: 1, 3: 1, 4: 4}
    precision, recall = pair_quality(groups, {frozenset({1, 2}), frozenset({3, 4})})
    assert (precision, recall) == (1 / 3, 1 / 2)
    assert pair_quality({1: 1, 2: 2}, set()) == (1.0, 1.0)
