"""Record linkage: which records are the same work (the rule is described for users in
``docs/linkage.md``).

Rules, in order (the first that applies decides a pair):

Records with different DOIs are never joined automatically, whatever the evidence: a
link between them (a shared PMID, an equal title) is uncertain, and :func:`group` does
not join them through other records either; only the user's confirmation does.

1. **User verdicts** win: a pair the user rejected is never linked, whatever the
   evidence, and :func:`group` never joins it through other records either; a pair
   the user confirmed gets a certain link with method ``"user"``. Verdicts are keyed
   by :func:`fingerprint`, so they survive re-imports.
2. **Identifiers**: equal normalised values of the same kind (``doi``, ``pmid``,
   ``pmcid``, ...) → certain link named after the kind, score 1.0. Records that
   share an identifier are linked to one hub record (the first new one), not
   pairwise, so a bogus DOI shared by a whole export costs n links, not n².
3. **Titles** (normalised by :func:`~litqeval_gui.core.records.model.normalise_title`):
   rapidfuzz ``fuzz.ratio`` of the two titles (method ``"title"`` when equal,
   ``"fuzzy"`` otherwise), or, when one title is at least
   ``subtitle_min_chars`` long and the other one starts with it, the ratio of the
   shorter title against the same-length prefix of the longer one (``"subtitle"``:
   "Title: a systematic review" vs "Title"). Years further apart than
   ``year_tolerance`` (both known) → never linked. A score at/above ``upper`` is
   certain, one in ``[lower, upper)`` uncertain. A title link is *demoted* to
   uncertain (never certain, still listed for the user) when

   - the titles carry different numbers or roman numerals ("Part I"/"Part II",
     "phase 2"/"phase 3");
   - the shorter title has fewer than ``min_title_chars`` characters
     ("Editorial", "Reply"), unless the titles are equal and so are the two
     (non-empty) abstracts;
   - it is a subtitle match and either year is unknown (unless the abstracts agree).

4. **Abstracts** weigh in on every title match whose two records both have an
   abstract of at least ``abstract_min_shingles`` word 3-grams (of their
   :func:`abstract_text`: markup, case and structured-abstract headings left out):
   the share of the shorter one's 3-grams the other one has (:func:`abstract_overlap`).
   Below ``abstract_differ`` the abstracts are different texts: a subtitle, fuzzy or
   short-title match is *dropped* (not even listed: two papers that share a generic
   head such as "Robot-assisted total knee arthroplasty" or a near title but not
   their abstracts are different works), an equal-title match is at most
   uncertain. At/above ``abstract_agree`` they are the same text, which stands in
   for the unknown year of a subtitle match. A subtitle match with a year unknown
   and no agreeing abstracts is dropped too: a shared head is not a title.
   The abstracts are read only for the few pairs whose titles matched (the
   ``abstracts`` reader of :func:`find_links`). A record without an abstract is
   compared through the abstract of the one other record that shares an identifier
   with it (the same work, rule 2), if exactly one does.

5. **Conflicting identifiers**: both records hold identifiers of one kind of
   :data:`COMPARABLE_KINDS` and share none of that kind (two DOIs, two PMIDs, two
   Dimensions ids: one register gave them two entries) — strong evidence of two
   works, so the text decides:

   - abstracts to compare that do not agree (below ``abstract_agree``) → *dropped*,
     whatever the titles (a conference abstract and its article, two chapters of one
     title, two editions);
   - no abstracts to compare → listed (uncertain) only when the title match would be
     certain by itself (score ≥ ``upper``, no number or length doubt), else dropped;
   - agreeing abstracts → uncertain, unless the title match would be certain by
     itself and the two abstract texts are one text up to small edits (a
     ``fuzz.ratio`` of their :func:`abstract_text` ≥ ``upper``, :func:`same_abstract`)
     and the DOIs do not differ: then certain. A register does list one document
     twice (a preprint server's and a journal's copy, a duplicate entry), and two
     different works do not share their title and their abstract; two DOIs stay for
     the user (each version of a work gets its own DOI: preprint, article, update).

   ``docid`` (an identifier of unknown kind, perhaps from two registers' numberings)
   never conflicts.

Candidate pairs come from a sorted neighbourhood
(:mod:`~litqeval_gui.core.records.neighbourhood`), never from all pairs.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.records.abstract_evidence import (
    abstract_overlap,
    abstract_text,
    grams,
    same_abstract,
)
from litqeval_gui.core.records.model import Record, normalise_id, normalise_title
from litqeval_gui.core.records.title_matches import title_links


class LinkItem(NamedTuple):
    """What the linker needs of one record: its key, normalised title, year, identifiers
    and, for a short title (see :func:`abstract_key`), its normalised abstract. A named
    tuple: an import builds one per record, five times faster than a frozen dataclass."""

    key: int
    title: str
    year: int | None
    ids: tuple[tuple[str, str], ...]
    abstract: str = ""


@dataclass(frozen=True)
class Link:
    """Evidence that records ``a < b`` are the same work; ``certain=False`` needs a verdict."""

    a: int
    b: int
    method: str
    score: float
    certain: bool


USER = "user"  # method of the user's verdicts
TITLE_METHODS = ("title", "fuzzy", "subtitle")  # the others are identifier kinds


@dataclass(frozen=True)
class LinkSettings:
    """Thresholds of :func:`find_links`.

    ``upper`` 0.93 accepts two character edits in a 30-character title (ratio
    1 - 4/60) and everything markup/case/punctuation folding removes; ``lower``
    0.85 lists the next band (e.g. three edits, or a typo plus a changed word) for
    the user without flooding the list with merely related titles.
    """

    upper: float = 0.93
    lower: float = 0.85
    year_tolerance: int = 1
    min_title_chars: int = 20  # shorter titles give at most uncertain links
    subtitle_min_chars: int = 25  # the shorter (main) title of a subtitle match
    window: int = 8  # neighbours compared in each sort order
    rare_keys: int = 3  # rarest shared tokens of a title used as sort keys
    abstract_min_shingles: int = 10  # word 3-grams each abstract needs to be evidence
    abstract_differ: float = 0.2  # overlap below which abstracts are different texts
    abstract_agree: float = 0.5  # overlap from which they are the same text


SHORT_TITLE_CHARS = LinkSettings.min_title_chars  # titles whose abstracts the linker reads


def abstract_key(title_norm: str, abstract: str | None) -> str:
    """The normalised abstract of a record whose normalised title is short, else ``""``
    (only short titles need it, so the abstracts of the others are never read)."""
    return normalise_title(abstract) if abstract and len(title_norm) < SHORT_TITLE_CHARS \
        else ""


def item_from_record(key: int, record: Record) -> LinkItem:
    """The :class:`LinkItem` of ``record``: title and every identifier normalised (as the
    importers store them, so this equals the item the project gives for the record)."""
    ids = {(kind, normalise_id(kind, value)) for kind, value in record.identifiers()}
    title = normalise_title(record.title)
    return LinkItem(key, title, record.year,
                    tuple(sorted((kind, value) for kind, value in ids if value)),
                    abstract_key(title, record.abstract))


def fingerprint(item: LinkItem) -> str:
    """Stable hex digest of the record's DOI, normalised title and year (without a title,
    of all its identifiers too: two records without text never share one by chance).

    Two imports of the same record content give the same fingerprint, so a
    verdict stored under a pair of fingerprints applies to later imports too.
    """
    doi = next((value for kind, value in item.ids if kind == "doi"), "")
    text = f"{doi}|{item.title}|{item.year or ''}"
    if not item.title:
        text += "|" + "|".join(f"{kind}:{value}" for kind, value in item.ids)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class _Verdicts:
    """The user's verdicts looked up by item index."""

    def __init__(self, items: Sequence[LinkItem], verdicts: Mapping[frozenset[str], bool]):
        self._verdicts = verdicts
        self._prints = [fingerprint(item) for item in items] if verdicts else []

    def rejected(self, i: int, j: int) -> bool:
        return bool(self._verdicts) and self._verdicts.get(
            frozenset((self._prints[i], self._prints[j]))) is False

    def pairs(self, same: bool) -> Iterator[tuple[int, int]]:
        """Index pairs ``i < j`` of the present items the user confirmed (``same``) or
        rejected."""
        by_print: dict[str, list[int]] = defaultdict(list)
        for index, value in enumerate(self._prints):
            by_print[value].append(index)
        for pair, verdict in self._verdicts.items():
            if verdict != same:
                continue
            first, second = (*pair, *pair)[:2]  # a one-element set pairs a print with itself
            for i in by_print.get(first, ()):
                for j in by_print.get(second, ()):
                    if i != j and (first != second or i < j):
                        yield min(i, j), max(i, j)


def _numbers(title: str) -> frozenset[str]:
    return frozenset(word for word in title.split() if word.isdigit() or word in _ROMAN)


_ROMAN = frozenset("i ii iii iv v vi vii viii ix x xi xii".split())


COMPARABLE_KINDS = frozenset({"doi", "pmid", "pmcid", "scopus_eid", "wos_ut", "openalex",
                              "dimensions", "lens"})  # kinds whose differing values conflict


def conflicting_kinds(x: Iterable[tuple[str, str]], y: Iterable[tuple[str, str]]) -> list[str]:
    """The identifier kinds of :data:`COMPARABLE_KINDS` both hold without sharing a value
    (sorted): one register gave them two entries. ``docid`` (an id of unknown kind, maybe
    of two different registers) never conflicts."""
    kinds_x: dict[str, set[str]] = defaultdict(set)
    for kind, value in x:
        if kind in COMPARABLE_KINDS:
            kinds_x[kind].add(value)
    kinds_y: dict[str, set[str]] = defaultdict(set)
    for kind, value in y:
        if kind in kinds_x:
            kinds_y[kind].add(value)
    return sorted(kind for kind, values in kinds_y.items() if kinds_x[kind].isdisjoint(values))


def _conflicting_ids(x: LinkItem, y: LinkItem) -> bool:
    return bool(conflicting_kinds(x.ids, y.ids))


def _different_dois(x: LinkItem, y: LinkItem) -> bool:
    """Both have a DOI and they differ."""
    dois_x = {value for kind, value in x.ids if kind == "doi"}
    dois_y = {value for kind, value in y.ids if kind == "doi"}
    return bool(dois_x and dois_y) and dois_x.isdisjoint(dois_y)


def _same_text(x: LinkItem, y: LinkItem) -> bool:
    """Equal titles and equal non-empty abstracts."""
    return x.title == y.title and bool(x.abstract) and x.abstract == y.abstract


def _doubtful(x: LinkItem, y: LinkItem, method: str, settings: LinkSettings) -> bool:
    """A title match that must not become certain, however high its score (module doc)."""
    return _conflicting_ids(x, y) or _doubtful_title(x, y, settings)


def _doubtful_title(x: LinkItem, y: LinkItem, settings: LinkSettings) -> bool:
    """Titles that are not the same title whatever their score: different numbers, or
    too short to tell (unless the abstracts are equal too)."""
    return (_numbers(x.title) != _numbers(y.title)
            or (min(len(x.title), len(y.title)) < settings.min_title_chars
                and not _same_text(x, y)))


class _Evidence(NamedTuple):
    """What the abstracts of a title match say (module doc, 4)."""

    overlap: float | None  # None: an abstract is missing or too short to count
    same: bool  # one text up to small edits (:func:`same_abstract`)


def _judge(x: LinkItem, y: LinkItem, method: str, score: float, evidence: _Evidence,
           settings: LinkSettings) -> bool | None:
    """Whether a title match is certain, or None when it is dropped (module doc, 3-5)."""
    overlap = evidence.overlap
    differ = overlap is not None and overlap < settings.abstract_differ
    agree = overlap is not None and overlap >= settings.abstract_agree
    if differ and (method != "title" or min(len(x.title), len(y.title))
                   < settings.min_title_chars):
        return None
    if method == "subtitle" and (x.year is None or y.year is None) and not agree:
        return None
    same_title = score >= settings.upper and not _doubtful_title(x, y, settings)
    if _conflicting_ids(x, y):  # one register's two entries: the text must say "same"
        if overlap is None:
            return False if same_title else None
        if not agree:
            return None
        return same_title and evidence.same and not _different_dois(x, y)
    return score >= settings.upper and not differ and not _doubtful(x, y, method, settings)


Holders = dict[tuple[str, str], list[int]]  # identifier -> indices of the items holding it


def _holders(items: Sequence[LinkItem]) -> Holders:
    holders: Holders = defaultdict(list)
    for index, item in enumerate(items):
        for ident in item.ids:
            holders[ident].append(index)
    return holders


def _identifier_pairs(holders: Holders, n_new: int,
                      verdicts: _Verdicts) -> Iterator[tuple[int, int, str]]:
    """(i, j, kind) linking every holder of a shared identifier to a hub holder."""
    for (kind, _value), members in holders.items():
        if len(members) < 2 or members[0] >= n_new:  # new items come first; none here
            continue
        for m in members[1:]:
            partner = next((p for p in members if p != m and (p < n_new or m < n_new)
                            and not verdicts.rejected(p, m)), None)
            if partner is not None:
                yield min(partner, m), max(partner, m), kind


AbstractReader = Callable[[list[int]], Mapping[int, str | None]]
_GRAMS_HELD = 4096  # items whose abstract 3-grams are kept while the title matches are judged


def _judged_title_links(items: Sequence[LinkItem],
                        found: list[tuple[int, int, str, float]],
                        read: AbstractReader | None, settings: LinkSettings,
                        holders: Holders, verdicts: _Verdicts,
                        ) -> Iterator[tuple[int, int, str, float, bool]]:
    """(i, j, method, score, certain) of the title matches :func:`_judge` keeps; the
    abstracts of their records come from ``read`` (item keys -> abstract), else from
    the items (which hold those of short titles only). A record without an abstract is
    compared through its identifier partner's (:func:`_partners`)."""
    def texts_of(indices: list[int]) -> dict[int, str]:
        if not indices:
            return {}
        keys = [items[i].key for i in indices]
        got = {key: items[i].abstract for key, i in zip(keys, indices, strict=True)} \
            if read is None else read(keys)
        return {i: abstract_text(got.get(items[i].key)) for i in indices}

    involved = sorted({i for i, *_ in found} | {j for _, j, *_ in found})
    texts = texts_of(involved)
    bare = [i for i in involved if not texts[i]]
    partners = _partners(bare, items, holders, verdicts)
    lent = texts_of(sorted(set(partners.values()) - set(involved)))
    for i, partner in partners.items():
        texts[i] = texts.get(partner) or lent.get(partner, "")
    # an item's 3-grams when a pair needs them (the pairs come sorted by their first item):
    # held for 200 000 items at once they took over a gigabyte
    grams_of = lru_cache(maxsize=_GRAMS_HELD)(lambda i: grams(texts[i]))
    for i, j, method, score in found:
        overlap = abstract_overlap(grams_of(i), grams_of(j), settings.abstract_min_shingles)
        same = overlap is not None and overlap >= settings.abstract_agree \
            and same_abstract(texts[i], texts[j], settings)
        certain = _judge(items[i], items[j], method, score, _Evidence(overlap, same), settings)
        if certain is not None:
            yield i, j, method, score, certain


def _partners(bare: Iterable[int], items: Sequence[LinkItem], holders: Holders,
              verdicts: _Verdicts) -> dict[int, int]:
    """Item index -> the one other item holding one of its identifiers (none held by a
    third item), for the items ``bare`` of an abstract: the same work, whose abstract
    stands in for the missing one."""
    partners = {}
    for i in bare:
        others = {p for ident in items[i].ids for p in holders.get(ident, ()) if p != i}
        if len(others) == 1 and not verdicts.rejected(i, (partner := others.pop())):
            partners[i] = partner
    return partners


def find_links(new: Sequence[LinkItem], existing: Sequence[LinkItem] = (), *,
               settings: LinkSettings = LinkSettings(),
               verdicts: Mapping[frozenset[str], bool] | None = None,
               abstracts: AbstractReader | None = None,
               token: CancelToken = NEVER) -> Generator[Progress, None, list[Link]]:
    """Job: links among ``new`` and between ``new`` and ``existing`` (never existing × existing).

    At most one link per pair, sorted by ``(a, b)``; the strongest evidence wins
    (user verdict, then identifier, then title). ``verdicts`` maps
    ``frozenset({fingerprint(x), fingerprint(y)})`` to True (confirmed → certain
    ``"user"`` link) or False (rejected → an uncertain ``"user"`` link of score 0, see
    :func:`is_rejection`: no evidence, it keeps the pair apart in :func:`group`). Keys
    must be unique. ``abstracts`` reads the abstracts of some records (item keys ->
    abstract, None or missing when there is none); without it only the items' own
    abstracts (short titles) are evidence.
    """
    items = [*new, *existing]
    n_new = len(new)
    judged = _Verdicts(items, verdicts or {})
    token.raise_if_cancelled()
    yield Progress(0, 0, "matching identifiers")
    best: dict[tuple[int, int], tuple[str, float, bool]] = {}
    holders = _holders(items)
    for i, j, kind in _identifier_pairs(holders, n_new, judged):
        best.setdefault((i, j), (kind, 1.0, not _different_dois(items[i], items[j])))
    found = yield from title_links(items, n_new, settings, judged, token)
    for i, j, method, score, certain in _judged_title_links(items, found, abstracts, settings,
                                                            holders, judged):
        best.setdefault((i, j), (method, score, certain))
    for same in (True, False):
        for i, j in judged.pairs(same):
            if i < n_new or j < n_new:
                best[i, j] = (USER, 1.0, True) if same else (USER, 0.0, False)
    links = []
    for (i, j), (method, score, certain) in best.items():
        a, b = sorted((items[i].key, items[j].key))
        links.append(Link(a, b, method, score, certain))
    links.sort(key=lambda link: (link.a, link.b))
    yield Progress(1, 1, f"{len(links)} links")
    return links


def is_rejection(link: Link) -> bool:
    """Whether ``link`` is the user's verdict that its two records are different works."""
    return link.method == USER and not link.certain


def _strength(link: Link) -> tuple[int, float]:
    """Sort key, strongest first: the user's links, identifiers, titles by score."""
    rank = 0 if link.method == USER else 2 if link.method in TITLE_METHODS else 1
    return rank, -link.score


def group(keys: Iterable[int], links: Iterable[Link],
          dois: Mapping[int, str] | None = None) -> dict[int, int]:
    """Key → group id (the smallest key of its group), joining keys by certain links.

    Certain links join in order of :func:`_strength` (ties in the order given); one
    that would put the two records of a rejection (:func:`is_rejection`) into one
    group is skipped, so a verdict "different" holds even when a third record links to
    both; so is a link other than the user's that would put two different DOIs
    (``dois``: key → DOI) into one group. Uncertain links never join. Every key of
    ``keys`` and every end of a link is in the result.
    """
    links = list(links)
    parent: dict[int, int] = {key: key for key in keys}
    apart: dict[int, set[int]] = defaultdict(set)  # root → roots it must not join
    dois = dois or {}
    held: dict[int, set[str]] = {}  # root → its group's DOIs, once it has joined another

    def held_by(root: int) -> set[str]:
        return held[root] if root in held else {dois[root]} if dois.get(root) else set()
    for link in links:
        parent.setdefault(link.a, link.a)
        parent.setdefault(link.b, link.b)
        if is_rejection(link):
            apart[link.a].add(link.b)
            apart[link.b].add(link.a)

    def root(key: int) -> int:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for link in sorted((link for link in links if link.certain), key=_strength):
        ra, rb = root(link.a), root(link.b)
        if ra == rb or rb in apart.get(ra, ()):
            continue
        if link.method != USER and (a_dois := held_by(ra)) and (b_dois := held_by(rb)) \
                and a_dois.isdisjoint(b_dois):
            continue
        keep, gone = min(ra, rb), max(ra, rb)  # the root stays the smallest key
        parent[gone] = keep
        held[keep] = held_by(keep) | held_by(gone)
        held.pop(gone, None)
        for other in apart.pop(gone, ()):
            apart[other].discard(gone)
            apart[other].add(keep)
            apart[keep].add(other)
    return {key: root(key) for key in parent}
