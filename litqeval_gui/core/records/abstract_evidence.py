"""What the abstracts of a title match say (:mod:`~litqeval_gui.core.records.linkage`,
rule 4): each abstract as the linker compares it, the share of word 3-grams two of them
share, and whether they are one text up to small edits.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from litqeval_gui.core.records.model import fold_text, normalise_title

if TYPE_CHECKING:
    from litqeval_gui.core.records.linkage import LinkSettings

Shingles = frozenset[tuple[str, ...]]

_GLUED = re.compile(r"([a-z])([A-Z][a-z])")  # "BackgroundThe": a heading glued on
_HEADINGS = frozenset("abstract background introduction purpose aim aims objective objectives "
                      "method methods methodology materials patients results findings "
                      "conclusion conclusions discussion interpretation".split())


def abstract_text(abstract: str | None) -> str:
    """An abstract as the linker compares it: folded as titles are, a heading glued to
    the next word split off, and the words of structured-abstract headings left out
    ("Background:", "<h2>Methods</h2>"), which one copy of a text has and another not."""
    if not abstract:
        return ""
    text = fold_text(abstract)
    if _GLUED.search(text):  # searching first is twice as fast on the many without
        text = _GLUED.sub(r"\1 \2", text)
    words = normalise_title(text).split()
    return " ".join(word for word in words if word not in _HEADINGS)


def grams(text: str) -> Shingles:
    """The word 3-grams of a text already compared as :func:`abstract_text`."""
    words = text.split()
    return frozenset(zip(words, words[1:], words[2:], strict=False))


def abstract_overlap(x: Shingles, y: Shingles, min_shingles: int) -> float | None:
    """The share of the smaller set's 3-grams the other one holds (1.0: one abstract is
    a part of the other), or None when either has fewer than ``min_shingles``."""
    if min(len(x), len(y)) < min_shingles:
        return None
    return len(x & y) / min(len(x), len(y))


def same_abstract(x: str, y: str, settings: LinkSettings) -> bool:
    """Whether two :func:`abstract_text` are one text up to small edits: the similarity
    that makes two titles certain (``upper``), over the whole abstract."""
    return bool(x and y) and fuzz.ratio(x, y, score_cutoff=settings.upper * 100) > 0
