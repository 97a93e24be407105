"""A list's query against the list's own export: the database returned every record of
it, so each one the query does not match locally shows what the local evaluation lacks
(text the export does not carry, fields the database searched, what it approximates)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import topic as topic_texts
from litqeval_gui.core.query.matching import Mask
from litqeval_gui.core.query.syntax import Node, Op, Query
from litqeval_gui.core.records.lists import list_id

NO_ABSTRACT = "the export has no abstract for it"
SHOWN_CHARS = 80  # of a clause named in a reason


@dataclass(frozen=True)
class Unmatched:
    record_id: int
    title: str
    reason: str


@dataclass(frozen=True)
class Agreement:
    """How much of its own export a query matches, and why not the rest."""

    records: int
    matched: int
    reasons: tuple[tuple[str, int], ...]  # (reason, records), most first
    examples: tuple[Unmatched, ...]
    approximations: tuple[str, ...]

    @property
    def share(self) -> float:
        return self.matched / self.records if self.records else 0.0

    def as_dict(self) -> dict:
        return {"records": self.records, "matched": self.matched, "share": self.share,
                "reasons": [{"reason": r, "records": n} for r, n in self.reasons],
                "examples": [vars(e) for e in self.examples],
                "approximations": list(self.approximations)}


def agreement(project: Project, topic: str, name: str, query: Query,
              shown: int = 20) -> Agreement:
    """``query`` on the records of list ``name`` (its export), record by record."""
    texts = topic_texts.load(project, topic)
    index = texts.index
    mine = np.flatnonzero(texts.list_of == list_id(project, topic, name))
    masks = {id(node): index.mask(node) for _, node in query.clauses()}
    hit = masks[id(query.root)]
    missed = mine[~hit[mine]]
    reasons: Counter[str] = Counter()
    examples = []
    for doc in missed:
        if not index.texts["abstract"][doc]:
            reason = NO_ABSTRACT
        else:
            reason = _why_not(query, query.root, int(doc), lambda n: masks[id(n)])
        reasons[reason] += 1
        if len(examples) < shown:
            examples.append(Unmatched(int(texts.record_ids[doc]), texts.titles[doc], reason))
    return Agreement(int(mine.size), int(mine.size - missed.size),
                     tuple(reasons.most_common()), tuple(examples), query.approximations)


@functools.lru_cache(maxsize=4096)
def _source(query: Query, node: Node) -> str:
    text = query.source(node)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _why_not(query: Query, node: Node, doc: int, mask: Callable[[Node], Mask]) -> str:
    """The part of ``node`` that keeps document ``doc`` out, as written."""
    if isinstance(node, Op) and node.op == "and":
        failing = [c for c in node.children if not mask(c)[doc]]
        if len(failing) == 1:
            return _why_not(query, failing[0], doc, mask)
        return "its text lacks: " + " · ".join(_source(query, c) for c in failing)
    if isinstance(node, Op) and node.op == "not":
        if mask(node.children[0])[doc]:
            hits = [c for c in node.children[1:] if mask(c)[doc]]
            return "it holds what the query excludes: " + " · ".join(
                _source(query, c) for c in hits)
        return _why_not(query, node.children[0], doc, mask)
    return f"its text does not match {_source(query, node)}"
