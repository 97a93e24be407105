"""Keyword highlighting for the screener: where the user's include and exclude terms occur.

A term matches case-insensitively as a whole word; a term ending in ``*`` matches every
word beginning with it (``robot*``: robot, robots, robotic). A term is text, not a
pattern (``c++`` matches "C++"). Terms may hold several words (``machine learn*``). Where terms overlap, the longest match at the earliest
position wins (an include term over an exclude term of the same length).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

INCLUDE = "include"
EXCLUDE = "exclude"


@dataclass(frozen=True)
class Span:
    """``text[start:end]`` matched a term of ``kind`` (include | exclude)."""

    start: int
    end: int
    kind: str


def _pattern(term: str) -> str:
    prefix = term.endswith("*")
    words = term.rstrip("*").split()
    body = r"\s+".join(re.escape(w) for w in words)
    return rf"(?<!\w){body}\w*" if prefix else rf"(?<!\w){body}(?!\w)"


def term_regex(include: Sequence[str], exclude: Sequence[str]) -> re.Pattern[str] | None:
    """One compiled pattern for both lists (None when both are empty)."""
    terms = [(t.strip(), INCLUDE) for t in include if t.strip().rstrip("*")]
    terms += [(t.strip(), EXCLUDE) for t in exclude if t.strip().rstrip("*")]
    if not terms:
        return None
    # longer terms first so that "machine learning" wins over "machine"
    terms.sort(key=lambda tk: (-len(tk[0].rstrip("*")), tk[1] != INCLUDE))
    alternatives = [f"(?P<{kind[0]}{i}>{_pattern(term)})" for i, (term, kind) in enumerate(terms)]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def highlight_spans(text: str, include: Sequence[str], exclude: Sequence[str]) -> list[Span]:
    """Non-overlapping matches of the terms in ``text``, in order."""
    regex = term_regex(include, exclude)
    if regex is None:
        return []
    return [Span(m.start(), m.end(), INCLUDE if m.lastgroup[0] == "i" else EXCLUDE)
            for m in regex.finditer(text)]
