"""Candidate title pairs of the record linkage (:mod:`~litqeval_gui.core.records.linkage`).

Candidate pairs come from a sorted neighbourhood (never all pairs): the titles are
sorted by two keys — the title itself (finds typos late in the title and
subtitle variants) and, once for each of the ``rare_keys`` rarest shared tokens
of a title, that token followed by the title (finds typos anywhere else: a typo
makes a token unique, so it is never a key, and two or fewer typos leave at least
one of the three rarest tokens in common) — and each title is compared with the
next ``window`` entries in both orders. Cost is O(n log n + n·window·rare_keys).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np

SLICE = 8192  # items one C-level sort call orders: it holds the GIL for a few ms


def gentle_sorted(values: Sequence, key: Callable | None = None) -> list:
    """``sorted(values, key=key)`` (stable, the same result), made of sorts of at most
    ``SLICE`` items merged by :func:`heapq.merge` (Python code), so no single C call holds
    the GIL for long: a decision queued on another thread meanwhile waits for one slice,
    not for a sort of 200 000 titles."""
    runs = [sorted(values[s:s + SLICE], key=key) for s in range(0, len(values), SLICE)]
    return list(heapq.merge(*runs, key=key))


def sort_orders(titles: list[str], rare_keys: int) -> list[list[int]]:
    """Two index orders of the non-empty titles (see the module doc).

    The second lists each title once per each of its ``rare_keys`` rarest shared
    tokens, sorted by (token, title, index): titles sharing a rare token sit together
    whichever rank that token has in either title. Tokens become integer codes slice by
    slice; which tokens a title keeps and their order are integer sorts by numpy (which
    sorts integers without holding the GIL), so no single C call holds it for long.
    """
    present = [i for i, title in enumerate(titles) if title]
    by_title = gentle_sorted(present, key=titles.__getitem__)
    title_rank = np.empty(len(titles), dtype=np.int64)
    title_rank[by_title] = np.arange(len(by_title))
    owner, code, vocabulary = _token_codes(titles, present)
    size = max(len(vocabulary), 1)
    pair = distinct(np.sort(owner * size + code))  # each (title, token) once
    owner, code = pair // size, pair % size
    df = np.bincount(code, minlength=len(vocabulary))
    alphabetical = np.empty(len(vocabulary), dtype=np.int64)
    alphabetical[gentle_sorted(range(len(vocabulary)), key=vocabulary.__getitem__)] = \
        np.arange(len(vocabulary))
    by_rarity = np.lexsort((alphabetical, df))  # codes by (df, token)
    rarity = np.empty(len(vocabulary), dtype=np.int64)
    rarity[by_rarity] = np.arange(len(vocabulary))
    shared = df[code] > 1
    ranked = np.sort(owner[shared] * size + rarity[code[shared]])  # a title's rarest first
    owner, code = ranked // size, by_rarity[ranked % size]
    first = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if len(owner) else owner
    position = np.arange(len(owner)) - np.repeat(first, np.diff(np.r_[first, len(owner)]))
    keep = position < rare_keys
    entry_index = np.asarray(present, dtype=np.int64)[owner[keep]]
    keys = alphabetical[code[keep]] * max(len(by_title), 1) + title_rank[entry_index]
    return [by_title, entry_index[np.argsort(keys)].tolist()]


def distinct(values: np.ndarray) -> np.ndarray:
    """The sorted ``values`` without repeats."""
    return values[np.r_[True, values[1:] != values[:-1]]] if len(values) else values


def _token_codes(titles: list[str], present: list[int],
                 ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(position in ``present``, token code) of every token of the titles at ``present``,
    in order, and the tokens by code; built :data:`SLICE` titles at a time."""
    codes: dict[str, int] = {}
    owners, found = [], []
    for s in range(0, len(present), SLICE):
        words = [titles[i].split() for i in present[s:s + SLICE]]
        counts = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        flat = list(chain.from_iterable(words))
        for token in dict.fromkeys(flat):
            codes.setdefault(token, len(codes))
        owners.append(np.repeat(np.arange(s, s + len(words), dtype=np.int64), counts))
        found.append(np.fromiter(map(codes.__getitem__, flat), dtype=np.int64, count=len(flat)))
    empty = np.empty(0, dtype=np.int64)
    return (np.concatenate(owners) if owners else empty,
            np.concatenate(found) if found else empty, list(codes))


def neighbour_codes(order: list[int], window: int, n: int,
                    wanted: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Pairs (encoded ``lo * n + hi``, ``n`` the number of items) of titles at most
    ``window`` apart in ``order`` and ``wanted`` (a mask of index arrays ``i``, ``j``),
    filtered one distance at a time: most neighbours are unrelated titles, so few pairs
    are ever held."""
    idx = np.asarray(order, dtype=np.int64)
    codes = []
    for d in range(1, min(window, len(idx) - 1) + 1):
        i, j = idx[:-d], idx[d:]
        keep = wanted(i, j) & (i != j)
        lo, hi = np.minimum(i, j)[keep], np.maximum(i, j)[keep]
        codes.append(lo * n + hi)
    return np.concatenate(codes) if codes else np.empty(0, dtype=np.int64)
