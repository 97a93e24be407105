"""Title matches of the record linkage (:mod:`~litqeval_gui.core.records.linkage`): the
candidate pairs of the sorted neighbourhood (:mod:`.neighbourhood`) within the year
tolerance, scored with rapidfuzz in chunks (full titles, then the subtitle score).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import LCSseq
from rapidfuzz.process import cpdist

from litqeval_gui.core.jobs import CancelToken, Progress
from litqeval_gui.core.records.neighbourhood import (
    SLICE,
    distinct,
    neighbour_codes,
    sort_orders,
)

if TYPE_CHECKING:
    from litqeval_gui.core.records.linkage import LinkItem, LinkSettings


class Rejections(Protocol):
    """The user's rejected pairs, by item index."""

    def rejected(self, i: int, j: int) -> bool: ...


def title_scores(titles: np.ndarray, lengths: np.ndarray, spaced: np.ndarray, a: np.ndarray,
                  b: np.ndarray, settings: LinkSettings) -> tuple[np.ndarray, np.ndarray]:
    """Best score of each pair in [0, 1] (0 below ``lower``) and whether it is a subtitle match.

    The subtitle score compares the shorter title with as many leading words of the
    longer one; it is tried where the full titles score below ``upper``, and only where
    it can reach ``lower``: a head is a subsequence of its (normalised, single-spaced)
    title, so it has at most the two titles' longest common subsequence ``L`` in common
    with the shorter one and scores at most ``200 L / (len(shorter) + L)``. ``lengths``
    and ``spaced`` (:func:`single_spaced`) are those of ``titles``.
    """
    cutoff = settings.lower * 100
    scores = cpdist(titles[a], titles[b], scorer=fuzz.ratio, score_cutoff=cutoff, workers=-1)
    subtitle = np.zeros(len(a), dtype=bool)
    la, lb = lengths[a], lengths[b]
    maybe = np.flatnonzero((scores < settings.upper * 100) & (np.abs(la - lb) > 1)
                           & (np.minimum(la, lb) >= settings.subtitle_min_chars))
    a_shorter = la[maybe] < lb[maybe]
    short, long = np.where(a_shorter, a[maybe], b[maybe]), np.where(a_shorter, b[maybe], a[maybe])
    if len(maybe):
        common = cpdist(titles[short], titles[long], scorer=LCSseq.similarity, workers=-1)
        bound = 200 * common / np.maximum(lengths[short] + common, 1)
        reach = (bound >= cutoff - 1e-6) | ~spaced[long]
        maybe, short, long = maybe[reach], short[reach], long[reach]
    if len(maybe):
        heads = [" ".join(title.split()[:head.count(" ") + 1])
                 for head, title in zip(titles[short], titles[long], strict=True)]
        prefix = cpdist(titles[short], heads, scorer=fuzz.ratio, score_cutoff=cutoff,
                        workers=-1)
        subtitle[maybe] = prefix > scores[maybe]
        scores[maybe] = np.maximum(scores[maybe], prefix)
    return np.asarray(scores, dtype=np.float64) / 100, subtitle


_OTHER_SPACE = re.compile(r"[^\S ]")  # whitespace but the plain space


def single_spaced(titles: list[str]) -> np.ndarray:
    """Whether each title's only whitespace is the plain space (a normalised title's),
    looked for in :data:`SLICE` titles at a time."""
    spaced = np.ones(len(titles), dtype=bool)
    for s in range(0, len(titles), SLICE):
        some = titles[s:s + SLICE]
        joined = "".join(some)  # printable: no whitespace but the space (4x faster to tell)
        if not joined.isprintable() and _OTHER_SPACE.search(joined):
            spaced[s:s + len(some)] = [_OTHER_SPACE.search(t) is None for t in some]
    return spaced


_CHUNK = 50_000  # candidate pairs scored in one call (the GIL is held while it reads them)


def title_links(items: Sequence[LinkItem], n_new: int, settings: LinkSettings,
                verdicts: Rejections, token: CancelToken,
                ) -> Generator[Progress, None, list[tuple[int, int, str, float]]]:
    """(i, j, method, score) of the title matches scoring at least ``lower``, best pairs
    from the sorted orders."""
    titles = [item.title for item in items]
    is_new = np.arange(len(items)) < n_new
    years = np.fromiter((item.year or 0 for item in items), dtype=np.int64, count=len(items))

    def wanted(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """A new item in the pair, and years within the tolerance (or one unknown)."""
        year_i, year_j = years[i], years[j]
        return (is_new[i] | is_new[j]) & ((year_i == 0) | (year_j == 0) | (
            np.abs(year_i - year_j) <= settings.year_tolerance))

    orders = sort_orders(titles, settings.rare_keys)
    codes = []
    for step, order in enumerate(orders):
        token.raise_if_cancelled()
        yield Progress(step, len(orders), "finding candidate titles")
        codes.append(neighbour_codes(order, settings.window, len(items), wanted))
    del orders
    pairs = distinct(np.sort(np.concatenate(codes)))
    del codes
    a, b = pairs // len(items), pairs % len(items)
    title_array = np.array(titles, dtype=object)
    lengths = np.fromiter(map(len, titles), dtype=np.int64, count=len(titles))
    spaced = single_spaced(titles)
    found = []
    for start in range(0, len(a), _CHUNK):
        token.raise_if_cancelled()
        yield Progress(start, len(a), "comparing titles")
        ca, cb = a[start:start + _CHUNK], b[start:start + _CHUNK]
        scores, subtitle = title_scores(title_array, lengths, spaced, ca, cb, settings)
        for k in np.flatnonzero(scores >= settings.lower):
            i, j, score = int(ca[k]), int(cb[k]), float(scores[k])
            if verdicts.rejected(i, j):
                continue
            method = "subtitle" if subtitle[k] else "title" if titles[i] == titles[j] else "fuzzy"
            found.append((i, j, method, score))
    return found
