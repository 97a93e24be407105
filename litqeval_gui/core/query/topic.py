"""A query on the records a topic already holds, clause by clause (docs/query.md).

The documents are the topic's live records (core set, result lists, collections); a
work is matched when any of its records is. For each clause: the works it matches, the
core works among them, the core works only it retrieves (lost when it is removed) and
the query without it — its works, local recall and SP_cos. Local evaluation sees only
records already imported: it tells what a narrower query loses, or how many core works
a broader one newly reaches among them, never what the database would add.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import NDArray
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from litqeval_gui.core.evaluation import inputs, vector_store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query.matching import Mask, TextIndex
from litqeval_gui.core.query.syntax import Node, Op, Query, Term, terms, without
from litqeval_gui.metrics.semantic import sp_cos

FLAG_SHARE = 0.05  # an OR branch adding this share of the query's works and no core work
FLAG_MIN = 10  # … and at least this many works


@dataclass(frozen=True, eq=False)
class TopicTexts:
    """The topic's records ready for queries: ``doc_work[i]`` is the position in
    ``work_ids`` of record ``record_ids[i]``; ``core`` flags core works."""

    record_ids: NDArray[np.int64]
    doc_work: NDArray[np.int64]
    work_ids: NDArray[np.int64]
    core: NDArray[np.bool_]
    list_of: NDArray[np.int64]  # the import id of each record
    index: TextIndex
    titles: list[str]  # each record's title as imported
    vectors: tuple[NDArray[np.int64], NDArray[np.float32]] | None  # record ids, rows

    def works(self, mask: Mask) -> NDArray[np.bool_]:
        """The works with a record in ``mask``."""
        out = np.zeros(self.work_ids.size, bool)
        out[self.doc_work[mask]] = True
        return out


_CACHE: dict[tuple[str, int], tuple[tuple, TopicTexts]] = {}


def load(project: Project, topic: str) -> TopicTexts:
    """The topic's records and index (kept while the topic's records stay the same)."""
    db = project.db
    topic_id = project.topic_id(topic)
    emb = _latest_vectors(project, topic_id)
    stamp = (*db.execute("SELECT COUNT(*), MAX(id), SUM(work_id) FROM live_records "
                         "WHERE topic_id = ?", [topic_id]).fetchone(), emb.id if emb else None)
    key = (str(project.path), topic_id)
    if key in _CACHE and _CACHE[key][0] == stamp:
        return _CACHE[key][1]
    rows = db.execute(
        "SELECT r.id, r.work_id, r.import_id, COALESCE(r.title, ''), "
        "COALESCE(r.abstract, ''), COALESCE(r.keywords, '[]') FROM live_records r "
        "WHERE r.topic_id = ? ORDER BY r.id", [topic_id]).fetchall()
    docs = [{"title": r[3], "abstract": r[4], "keywords": _keywords(r[5])} for r in rows]
    record_ids = np.array([r[0] for r in rows], np.int64)
    work_of = np.array([r[1] for r in rows], np.int64)
    work_ids, doc_work = np.unique(work_of, return_inverse=True)
    core = np.isin(work_ids, inputs.core_pairs(db, topic_id).work_ids)
    texts = TopicTexts(record_ids, doc_work.astype(np.int64), work_ids, core,
                       np.array([r[2] for r in rows], np.int64), TextIndex(docs),
                       [r[3] for r in rows], vector_store.load_vectors(db, emb) if emb else None)
    _CACHE[key] = (stamp, texts)
    return texts


def _latest_vectors(project: Project, topic_id: int) -> vector_store.EmbeddingSet | None:
    row = project.db.execute("SELECT backend FROM embedding_sets WHERE topic_id = ? AND "
                             "state = 'done' ORDER BY id DESC LIMIT 1", [topic_id]).fetchone()
    return vector_store.latest_set(project.db, topic_id, row[0]) if row else None


def _keywords(stored: str) -> str:
    try:
        values = json.loads(stored)
    except ValueError:
        return ""
    return " ; ".join(v for v in values if isinstance(v, str)) if isinstance(values, list) \
        else ""


# --------------------------------------------------------------------------- figures

@dataclass(frozen=True)
class Outcome:
    """What a query (or the query without one clause) retrieves among the topic's works."""

    works: int
    core: int
    recall: float  # core works retrieved / core works of the topic
    sp_cos: float | None  # None: the topic has no vectors yet

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Clause:
    """One row of the clause table."""

    path: str
    depth: int
    kind: str  # term, phrase, and, or, not, near
    text: str
    works: int  # topic works the clause matches
    core: int  # core works among them
    core_only: int  # core works the query retrieves only through this clause
    added: int  # works the query retrieves only through this clause
    without: Outcome | None  # the query with this clause removed (None: the whole query)
    flag: str  # why the clause deserves a look, or ""

    def as_dict(self) -> dict:
        out = asdict(self)
        out["without"] = self.without.as_dict() if self.without else None
        return out


@dataclass(frozen=True)
class MissedCore:
    """A core work no clause retrieves, with words it has that the query lacks."""

    work_id: int
    title: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Analysis:
    query: Query
    whole: Outcome
    clauses: tuple[Clause, ...]
    missed: tuple[MissedCore, ...]
    n_core: int

    def as_dict(self) -> dict:
        return {"query": self.query.text, "syntax": self.query.syntax,
                "approximations": list(self.query.approximations),
                "whole": self.whole.as_dict(), "core_works": self.n_core,
                "clauses": [c.as_dict() for c in self.clauses],
                "missed_core": [asdict(m) for m in self.missed]}


def analyse(project: Project, topic: str, query: Query) -> Analysis:
    """The clause table of ``query`` on ``topic``'s records."""
    texts = load(project, topic)
    whole_docs = texts.index.mask(query.root)
    whole = texts.works(whole_docs)
    out = _outcome(texts, whole)
    parents = {id(c): node for _, node in query.clauses() if isinstance(node, Op)
               for c in node.children}
    rows = []
    for path, node in query.clauses():
        matched = texts.works(texts.index.mask(node))
        if node is query.root:
            rest, lost = None, np.zeros_like(whole)
        else:
            remaining = without(query.root, node)
            kept = texts.works(texts.index.mask(remaining)) if remaining is not None \
                else np.zeros_like(whole)
            rest, lost = _outcome(texts, kept), whole & ~kept
        parent = parents.get(id(node))
        rows.append(Clause(
            path=path, depth=path.count("."), kind=_kind(node), text=query.source(node),
            works=int(matched.sum()), core=int((matched & texts.core).sum()),
            core_only=int((lost & texts.core).sum()), added=int(lost.sum()),
            without=rest, flag=_flag(parent, matched, lost, texts, out.works)))
    return Analysis(query, out, tuple(rows), _missed(texts, whole, query),
                    int(texts.core.sum()))


def _kind(node: Node) -> str:
    if isinstance(node, Term):
        return "phrase" if node.phrase else "term"
    return node.op


def _outcome(texts: TopicTexts, works: NDArray[np.bool_]) -> Outcome:
    n_core = int(texts.core.sum())
    core = int((works & texts.core).sum())
    return Outcome(int(works.sum()), core, core / n_core if n_core else 0.0,
                   _sp_cos(texts, works))


def _sp_cos(texts: TopicTexts, works: NDArray[np.bool_]) -> float | None:
    """SP_cos (SPEC §1.1) of the retrieved works: one row per work (its first record
    with a vector); E_C from the core works' first records with one."""
    if texts.vectors is None:
        return None
    ids, rows = texts.vectors
    has = np.isin(texts.record_ids, ids)
    first = np.full(texts.work_ids.size, -1, np.int64)
    order = np.flatnonzero(has)[::-1]  # the smallest record id wins
    first[texts.doc_work[order]] = texts.record_ids[order]
    core_rows = first[texts.core & (first >= 0)]
    got = works & (first >= 0)
    if not core_rows.size or not got.any():
        return 0.0
    at = np.searchsorted(ids, first[got])
    result = sp_cos(rows[np.searchsorted(ids, core_rows)], rows[at], texts.core[got],
                    int(texts.core.sum()))
    return float(result.precision)


def _flag(parent: Node | None, matched: NDArray[np.bool_], lost: NDArray[np.bool_],
          texts: TopicTexts, total: int) -> str:
    """An OR branch that alone brings many works and no core work."""
    if not (isinstance(parent, Op) and parent.op == "or") or (matched & texts.core).any():
        return ""
    added = int(lost.sum())
    if added >= max(FLAG_MIN, FLAG_SHARE * total):
        return f"brings {added:,} works of the query's {total:,} and no core publication"
    return ""


def _df(index: TextIndex, word: str) -> int:
    """How many documents hold ``word`` in title or abstract (at most their sum)."""
    return sum(index.postings[name][word].size for name in ("title", "abstract")
               if word in index.postings[name])


def _missed(texts: TopicTexts, whole: NDArray[np.bool_], query: Query,
            shown: int = 8) -> tuple[MissedCore, ...]:
    """Core works the query does not retrieve, each with its title/abstract words that no
    term of the query matches (stop words left out), ranked by tf-idf over the missed
    works: words many of them share and few of the topic's records hold first."""
    missing = np.flatnonzero(texts.core & ~whole)
    if not missing.size:
        return ()
    index = texts.index
    covered: set[str] = set()
    for term in terms(query.root):
        for word in term.words:
            for name in term.fields:
                covered.update(index.expanded(word, name, term.stem))
    per_work: dict[int, tuple[str, list[str]]] = {}
    for doc in np.flatnonzero(np.isin(texts.doc_work, missing)):
        text = index.texts["title"][doc] + " " + index.texts["abstract"][doc]
        words = [w for w in text.split() if w not in covered and w not in ENGLISH_STOP_WORDS
                 and len(w) > 2 and not w.isdigit()]
        title, seen = per_work.setdefault(int(texts.doc_work[doc]), (texts.titles[doc], []))
        seen.extend(words)
    shared = Counter(w for _, words in per_work.values() for w in set(words))
    spread = {w: _df(index, w) for w in shared}
    weight = {w: shared[w] * np.log((1 + index.size) / (1 + spread[w])) for w in shared}
    out = []
    for work, (title, words) in sorted(per_work.items()):
        counts = Counter(words)
        best = sorted(counts, key=lambda w: (-weight[w] * counts[w], w))[:shown]
        out.append(MissedCore(int(texts.work_ids[work]), title, tuple(best)))
    return tuple(out)
