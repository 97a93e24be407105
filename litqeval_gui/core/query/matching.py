"""A query evaluated on documents held locally: which of them each clause matches.

:class:`TextIndex` holds, per field (title, abstract, keywords), each document's words
(case and accents folded, split at every non-letter, so "Robot-Assisted" is the phrase
"robot assisted") and an inverted index word → documents. A word matches a whole word
(``*`` any letters, ``?`` one letter or none); a phrase its words in a row; a proximity
operator its parts at most ``distance`` words apart. Masks are boolean arrays, one
entry per document; a term's mask is cached, so an edited query costs only its new
terms.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Sequence

import numpy as np
import snowballstemmer
from numpy.typing import NDArray

from litqeval_gui.core.query.syntax import FIELDS, Node, Op, Term

Mask = NDArray[np.bool_]
_WORDS = re.compile(r"[^\W_]+").findall
_STEMMER = snowballstemmer.stemmer("english")
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]").sub


def words_of(text: str) -> list[str]:
    """The folded words of ``text`` as the index splits them."""
    folded = text.casefold()
    if not folded.isascii():
        folded = _MARKS("", unicodedata.normalize("NFKD", folded))
    return _WORDS(folded)


class TextIndex:
    """The documents ``docs`` (each a mapping field → text) ready for queries."""

    def __init__(self, docs: Sequence[dict[str, str]]) -> None:
        self.size = len(docs)
        self.texts: dict[str, list[str]] = {}
        self.postings: dict[str, dict[str, NDArray[np.int32]]] = {}
        self.vocab: dict[str, list[str]] = {}
        for name in FIELDS:
            lists: dict[str, list[int]] = {}
            texts = []
            for i, doc in enumerate(docs):
                words = words_of(doc.get(name) or "")
                texts.append(" ".join(words))
                for word in set(words):
                    lists.setdefault(word, []).append(i)
            self.texts[name] = texts
            self.postings[name] = {w: np.array(ids, np.int32) for w, ids in lists.items()}
            self.vocab[name] = sorted(lists)
        self._cache: dict[tuple, Mask] = {}
        self._stems: dict[str, dict[str, list[str]]] = {}

    def mask(self, node: Node) -> Mask:
        """The documents ``node`` matches."""
        if isinstance(node, Term):
            return self._term(node)
        if node.op == "near":
            return self._near(node)
        parts = [self.mask(child) for child in node.children]
        if node.op == "and":
            return np.logical_and.reduce(parts)
        if node.op == "or":
            return np.logical_or.reduce(parts)
        return parts[0] & ~np.logical_or.reduce(parts[1:])  # not

    # ----------------------------------------------------------------- terms

    def _term(self, term: Term) -> Mask:
        key = ("term", term.words, term.fields, term.stem)
        if key not in self._cache:
            out = np.zeros(self.size, bool)
            for name in term.fields:
                out |= self._in_field(term.words, name, term.stem)
            self._cache[key] = out
        return self._cache[key]

    def _in_field(self, words: tuple[str, ...], name: str, stem: bool) -> Mask:
        found = np.ones(self.size, bool)
        for word in words:
            found &= self._word(word, name, stem)
        if len(words) > 1 and found.any():
            found = self._verified(found, name, "(?<!\\S)" + " ".join(
                self.word_regex(w, name, stem) for w in words) + "(?!\\S)")
        return found

    def _word(self, word: str, name: str, stem: bool) -> Mask:
        key = ("word", word, name, stem)
        if key not in self._cache:
            out = np.zeros(self.size, bool)
            for match in self.expanded(word, name, stem):
                out[self.postings[name][match]] = True
            self._cache[key] = out
        return self._cache[key]

    def word_regex(self, word: str, name: str, stem: bool) -> str:
        """A regex over a field's words for ``word``: its wildcards, or its forms."""
        if not stem or "*" in word or "?" in word:
            return _word_regex(word)
        forms = self.expanded(word, name, True) or [word]
        return "(?:" + "|".join(re.escape(f) for f in forms) + ")"

    def expanded(self, word: str, name: str, stem: bool = False) -> list[str]:
        """The indexed words ``word`` (with its wildcards; with ``stem`` every word of
        the same stem) stands for."""
        if "*" not in word and "?" not in word:
            if stem:
                return self._forms(name).get(_STEMMER.stemWord(word), [])
            return [word] if word in self.postings[name] else []
        vocab = self.vocab[name]
        stem = re.split(r"[*?]", word, maxsplit=1)[0]
        lo = bisect.bisect_left(vocab, stem)
        hi = bisect.bisect_left(vocab, stem + "\U0010ffff") if stem else len(vocab)
        if word == stem + "*":
            return vocab[lo:hi]
        pattern = re.compile(_word_regex(word) + r"\Z")
        return [w for w in vocab[lo:hi] if pattern.match(w)]

    def _forms(self, name: str) -> dict[str, list[str]]:
        """Stem → the field's indexed words with that stem (built on first use)."""
        if name not in self._stems:
            forms: dict[str, list[str]] = {}
            vocab = self.vocab[name]
            for word, stem in zip(vocab, _STEMMER.stemWords(vocab), strict=True):
                forms.setdefault(stem, []).append(word)
            self._stems[name] = forms
        return self._stems[name]

    def _verified(self, candidates: Mask, name: str, pattern: str) -> Mask:
        """The candidates whose field text holds ``pattern`` (a regex over words)."""
        regex = re.compile(pattern)
        texts = self.texts[name]
        out = np.zeros(self.size, bool)
        for i in np.flatnonzero(candidates):
            if regex.search(texts[i]):
                out[i] = True
        return out

    # ----------------------------------------------------------------- proximity

    def _near(self, node: Op) -> Mask:
        key = ("near", _signature(node))
        if key in self._cache:
            return self._cache[key]
        parts = [self.mask(child) for child in node.children]
        candidates = np.logical_and.reduce(parts)
        out = np.zeros(self.size, bool)
        if candidates.any():
            fields = set.intersection(*(_fields(child) for child in node.children))
            for name in sorted(fields):
                pieces = [self._pattern(child, name) for child in node.children]
                orders = [pieces] if node.ordered else list(itertools.permutations(pieces))
                gap = rf"(?: \S+){{0,{node.distance}}} "
                pattern = "|".join("(?<!\\S)" + gap.join(f"(?:{p})" for p in order)
                                   + "(?!\\S)" for order in orders)
                out |= self._verified(candidates, name, pattern)
        self._cache[key] = out
        return out

    def _pattern(self, node: Node, name: str) -> str:
        """A regex over field ``name``'s words for a term, or an OR (or proximity) of
        terms."""
        if isinstance(node, Term):
            return " ".join(self.word_regex(w, name, node.stem) for w in node.words)
        if node.op == "or":
            return "|".join(f"(?:{self._pattern(c, name)})" for c in node.children)
        gap = rf"(?: \S+){{0,{node.distance}}} "  # a nested proximity: as written
        return gap.join(f"(?:{self._pattern(c, name)})" for c in node.children)


def _word_regex(word: str) -> str:
    return "".join(r"\S*" if c == "*" else r"\S?" if c == "?" else re.escape(c)
                   for c in word)


def _fields(node: Node) -> set[str]:
    if isinstance(node, Term):
        return set(node.fields)
    return set.union(*(_fields(c) for c in node.children))


def _signature(node: Node) -> tuple:
    if isinstance(node, Term):
        return (node.words, node.fields, node.stem)
    return (node.op, node.distance, node.ordered, tuple(_signature(c) for c in node.children))
