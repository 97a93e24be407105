"""A parsed search query: terms and operators, each with its place in the text.

A :class:`Term` is one word or phrase (words may hold the wildcards ``*`` = any letters
and ``?`` = one letter or none) searched in ``fields``, as written or by stem; an :class:`Op` combines its
``children``: ``and``, ``or``, ``not`` (the first child without any of the others) or
``near`` (every child within ``distance`` words, in order when ``ordered``). ``span``
is the (start, end) of the node in the query text, so a clause is shown as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

FIELDS = ("title", "abstract", "keywords")
ALL_FIELDS = frozenset(FIELDS)

OpName = Literal["and", "or", "not", "near"]


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]  # lower-case; a phrase has several
    fields: frozenset[str]
    span: tuple[int, int]
    phrase: bool = False
    stem: bool = False  # match every word form with the same English stem


@dataclass(frozen=True)
class Op:
    op: OpName
    children: tuple[Node, ...]
    span: tuple[int, int]
    distance: int = 0  # near: at most this many words apart
    ordered: bool = False


Node = Union[Term, Op]  # noqa: UP007 — a runtime alias (dataclass fields, isinstance)


@dataclass(frozen=True)
class Query:
    """A parsed query: its text, the syntax read, its tree, and what was approximated
    (each a sentence: what the database does that the local evaluation does not)."""

    text: str
    syntax: str
    root: Node
    approximations: tuple[str, ...] = field(default=())

    def clauses(self) -> list[tuple[str, Node]]:
        """Every node with its path ("1", "1.2", …), parents before their children."""
        out: list[tuple[str, Node]] = []

        def walk(node: Node, path: str) -> None:
            out.append((path, node))
            if isinstance(node, Op):
                for i, child in enumerate(node.children, 1):
                    walk(child, f"{path}.{i}")

        walk(self.root, "1")
        return out

    def source(self, node: Node) -> str:
        """The node as written in the query."""
        return " ".join(self.text[node.span[0]:node.span[1]].split())


def without(node: Node, drop: Node) -> Node | None:
    """``node`` with the clause ``drop`` (compared by identity) removed: an operator left
    with one child becomes that child; removing the first child of a NOT, or every child
    of an operator, removes the operator too (None: nothing left)."""
    if node is drop:
        return None
    if isinstance(node, Term):
        return node
    kept: list[Node] = []
    for i, child in enumerate(node.children):
        rest = without(child, drop)
        if rest is None:
            if node.op == "not" and i == 0:
                return None
            continue
        kept.append(rest)
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0]
    return Op(node.op, tuple(kept), node.span, node.distance, node.ordered)


def terms(node: Node) -> list[Term]:
    """The terms of ``node``, left to right."""
    if isinstance(node, Term):
        return [node]
    return [t for child in node.children for t in terms(child)]
