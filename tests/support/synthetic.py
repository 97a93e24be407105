"""Seeded synthetic bibliographic records with KNOWN duplicates.

For tests, benchmarks and big demo projects. :func:`generate` makes distinct
*works* and then *duplicates* of randomly chosen works (a work may get several,
so true clusters have 2 or more records), shuffles everything and returns the
records (``rank`` = index + 1) with the set of index pairs that are the same work
(every pair within a cluster).

Works: titles of 6–16 words (a quarter of those with 9+ words have a subtitle), from
function words, ~200 common research words and a long Zipf-distributed tail of
~30 000 pseudo-words, so distinct works are rarely similar by chance; about one
in ten titles has a diacritic name. Authors, year 1990–2024, venue, abstract of a
few sentences; 85 % have a DOI, 55 % a PMID.

Each duplicate carries 1–2 of the title/year :data:`VARIATIONS` (``typo``: 1–2
letter edits; ``case``; ``punctuation``; ``markup``: LaTeX or stripped diacritics,
HTML tags; ``subtitle`` added or dropped; ``year`` ±1) and one identifier
treatment: 35 % keep the ids (half of them lose the PMID); 20 % ``doi_form``, the
DOI as a URL or in upper case as exports write it — so ``Record.doi`` is NOT
always normalised here; 45 % ``doi_missing``, no DOI and no PMID. About 5 % of
duplicates are ``id_only`` instead: same PMID (or DOI) with a mangled, bracketed
title (like MEDLINE's translated titles).

Hard negatives (NOT duplicates; 1 pair per 100 works of each kind, so ~4 % of
works; marked in ``raw["synthetic"]["hard_negative"]``): ``series`` — "Title:
part I" and "Title: part II", same authors, own DOIs, years 0–1 apart; ``update``
— exactly the same title 4–8 years later with its own DOI (like a Cochrane review
update; 4+ years so that ±1-year variations of both sides still differ by 2+).
Duplicates of hard negatives never get the ``subtitle`` variation.

Every record has ``raw["synthetic"] = {"work": id, "variations": [...]}`` (empty
list for the original of a work) for tests and debugging.
"""

from __future__ import annotations

import random
import string
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from itertools import accumulate, combinations

from litqeval_gui.core.records.model import Record

TITLE_VARIATIONS = ("typo", "case", "punctuation", "markup", "subtitle", "year")
ID_VARIATIONS = ("doi_form", "doi_missing", "id_only")
VARIATIONS = TITLE_VARIATIONS + ID_VARIATIONS
HARD_NEGATIVES = ("series", "update")

HARD_NEGATIVE_RATE = 0.01  # pairs of works per work, for each kind
ID_ONLY_RATE = 0.05  # of duplicates

_FUNCTION = ("of the and in for a with on to from among by at after during versus "
             "through within using an its their").split()
_COMMON = """analysis effect effects patients study treatment outcomes risk children adults
randomized trial cohort association between clinical health care disease model evaluation
impact prevalence factors management intervention quality life therapy cancer diabetes
mortality learning network data method approach framework assessment population women older
community primary hospital cost effectiveness screening diagnosis chronic acute exercise diet
sleep depression anxiety mental education school students nursing public policy social
support early long term trends national survey comparison prediction detection images deep
machine based novel improved efficient response protein gene expression cell cells
mechanisms role exposure infection vaccine pain surgery performance validation development
design implementation barriers facilitators experiences perspectives adherence dementia
stroke heart failure kidney liver lung obesity pregnancy infants adolescents workers
veterans rural urban countries income inequality access services digital mobile online
telehealth remote monitoring imaging ultrasound genomic sequencing biomarkers inflammation
immune antibiotic resistance microbiome metabolic cardiovascular blood pressure glucose
insulin physical activity smoking alcohol cessation prevention control management
guidelines recommendations evidence synthesis scoping mapping protocol feasibility pilot
qualitative mixed methods longitudinal retrospective prospective multicentre registry
population incidence burden global regional trajectories determinants outcomes recovery
rehabilitation functional cognitive decline memory attention language speech hearing vision
""".split()
_SUBTITLES = ("a systematic review", "a randomized controlled trial", "a cohort study",
              "a cross-sectional study", "a qualitative study", "results from a national survey",
              "a pilot study", "a narrative review", "a case report", "a multicentre study")
_DIACRITIC_NAMES = ("Müller", "Guillain-Barré", "Ménière", "São Paulo", "Québec", "Gödel",
                    "Schrödinger", "Erdős", "Curaçao", "Bogotá", "Príncipe", "España")
_LATEX = {"ü": '{\\"u}', "ö": '{\\"o}', "é": "{\\'e}", "á": "{\\'a}", "í": "{\\'i}",
          "ã": "{\\~a}", "ñ": "{\\~n}", "ç": "{\\c c}", "ő": "{\\H o}"}
_PLAIN = {"ü": "u", "ö": "o", "é": "e", "á": "a", "í": "i", "ã": "a", "ñ": "n", "ç": "c",
          "ő": "o"}
_CONSONANTS = "bcdfghklmnprstvz"
_VOWELS = "aeiou"


class _Words:
    """Seeded word source: function words 25 %, common words 35 %, a Zipf tail 40 % of draws."""

    def __init__(self, rng: random.Random, tail: int = 30_000):
        self.rng = rng
        syllables = [c + v for c in _CONSONANTS for v in _VOWELS]
        rare: set[str] = set()
        while len(rare) < tail:
            rare.add("".join(rng.choices(syllables, k=rng.randint(2, 4))) + rng.choice("nsrlx"))
        self.rare = sorted(rare)
        rng.shuffle(self.rare)
        zipf = [1.0 / (rank + 10) for rank in range(tail)]
        scale = 0.40 / sum(zipf)
        weights = ([0.25 / len(_FUNCTION)] * len(_FUNCTION) + [0.35 / len(_COMMON)] * len(_COMMON)
                   + [w * scale for w in zipf])
        self.vocabulary = [*_FUNCTION, *_COMMON, *self.rare]
        self.cumulative = list(accumulate(weights))

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocabulary, cum_weights=self.cumulative, k=k)

    def title(self) -> str:
        words = self.words(self.rng.randint(6, 16))
        if self.rng.random() < 0.1:
            words.insert(self.rng.randrange(len(words)), self.rng.choice(_DIACRITIC_NAMES))
        if len(words) >= 9 and self.rng.random() < 0.25:
            cut = self.rng.randint(5, len(words) - 3)
            words[cut - 1] += ":"
        return _sentence(words)

    def sentences(self, count: int) -> str:
        lengths = [self.rng.randint(8, 20) for _ in range(count)]
        words = iter(self.words(sum(lengths)))
        return " ".join(_sentence([next(words) for _ in range(k)]) + "." for k in lengths)

    def surname(self) -> str:
        if self.rng.random() < 0.05:
            return self.rng.choice(_DIACRITIC_NAMES).split()[0]
        return self.rng.choice(self.rare).capitalize()


def _sentence(words: list[str]) -> str:
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def _work(words: _Words, number: int, pmid: int) -> Record:
    rng = words.rng
    year = rng.randint(1990, 2024)
    venue = f"Journal of {rng.choice(_COMMON).capitalize()} {rng.choice(words.rare).capitalize()}"
    prefix = rng.randint(1000, 9999)
    return Record(
        title=words.title(),
        abstract=words.sentences(rng.randint(3, 5)),
        authors=[f"{words.surname()}, {rng.choice(string.ascii_uppercase)}."
                 for _ in range(rng.randint(1, 8))],
        year=year,
        venue=venue,
        doi=f"10.{prefix}/j{prefix % 97}.{year}.{number:07d}" if rng.random() < 0.85 else "",
        pmid=str(pmid) if rng.random() < 0.55 else "",
        raw={"synthetic": {"work": number, "variations": []}},
    )


def _hard_negative(words: _Words, base: Record, kind: str, number: int) -> tuple[Record, Record]:
    """(changed base, new distinct work) for a ``series`` or ``update`` hard negative."""
    rng = words.rng
    other = _work(words, number, 0)
    other = replace(other, authors=list(base.authors), pmid="",
                    raw={"synthetic": {"work": number, "variations": [],
                                       "hard_negative": kind, "related_work": _work_id(base)}})
    base.raw["synthetic"].update(hard_negative=kind, related_work=number)
    if kind == "series":
        main = base.title.split(":")[0]
        base.title, other.title = f"{main}: part I", f"{main}: part II"
        other.year = base.year + rng.randint(0, 1)
    else:
        other.title = base.title
        other.year = base.year + rng.randint(4, 8)
    return base, other


def _work_id(record: Record) -> int:
    return record.raw["synthetic"]["work"]


def _typo(rng: random.Random, title: str) -> str:
    words = title.split(" ")
    for _ in range(rng.randint(1, 2)):
        candidates = [i for i, w in enumerate(words) if len(w) >= 4 and w.isascii() and w.isalpha()]
        if not candidates:
            break
        i = rng.choice(candidates)
        w = words[i]
        pos = rng.randrange(1, len(w) - 1)
        letter = rng.choice(string.ascii_lowercase)
        edit = rng.randrange(4)
        words[i] = (w[:pos] + letter + w[pos + 1:] if edit == 0 else w[:pos] + w[pos + 1:]
                    if edit == 1 else w[:pos] + letter + w[pos:] if edit == 2
                    else w[:pos - 1] + w[pos] + w[pos - 1] + w[pos + 1:])
    return " ".join(words)


def _case(rng: random.Random, title: str) -> str:
    return rng.choice((str.upper, str.lower, str.title))(title)


def _punctuation(rng: random.Random, title: str) -> str:
    choice = rng.randrange(4)
    if choice == 0 and ":" in title:
        return title.replace(":", " -", 1)
    if choice == 1 and "-" in title:
        return title.replace("-", " ")
    if choice == 2:
        words = title.split(" ")
        i = rng.randrange(len(words))
        words[i] = f'"{words[i]}"'
        return " ".join(words)
    return title + "."


def _markup(rng: random.Random, title: str) -> str:
    if any(ch in _LATEX for ch in title):
        table = _LATEX if rng.random() < 0.6 else _PLAIN
        return "".join(table.get(ch, ch) for ch in title)
    words = title.split(" ")
    i = rng.randrange(len(words))
    tag = rng.choice(("i", "b", "sup"))
    words[i] = f"<{tag}>{words[i]}</{tag}>"
    return " ".join(words)


def _subtitle(rng: random.Random, title: str) -> str:
    if ":" in title:
        return title.split(":")[0]
    return f"{title}: {rng.choice(_SUBTITLES)}"


def _doi_form(rng: random.Random, doi: str) -> str:
    return rng.choice((f"https://doi.org/{doi}", doi.upper(), f"doi:{doi}",
                       f"https://dx.doi.org/{doi.upper()}"))


def _mangled(rng: random.Random, title: str) -> str:
    words = title.rstrip(".").split()
    rng.shuffle(words)
    return f"[{' '.join(words[: max(3, len(words) // 2)])}]."


_TITLE_EDITS = {"typo": _typo, "case": _case, "punctuation": _punctuation, "markup": _markup,
                "subtitle": _subtitle}


def _duplicate(rng: random.Random, work: Record) -> Record:
    """A copy of ``work`` as another database might export it, with its variations."""
    dup = replace(work, authors=list(work.authors), ids=dict(work.ids), raw={})
    kinds: list[str] = []
    if (work.pmid or work.doi) and rng.random() < ID_ONLY_RATE:
        dup.title = _mangled(rng, work.title)
        dup.doi = "" if work.pmid else work.doi
        kinds.append("id_only")
    else:
        allowed = [k for k in TITLE_VARIATIONS
                   if not (k == "subtitle" and "hard_negative" in work.raw["synthetic"])]
        for kind in rng.sample(allowed, rng.randint(1, 2)):
            kinds.append(kind)
            if kind == "year":
                dup.year = work.year + rng.choice((-1, 1))
            else:
                dup.title = _TITLE_EDITS[kind](rng, dup.title)
        treatment = rng.choices(("same", "doi_form", "doi_missing"), weights=(35, 20, 45))[0]
        if treatment == "doi_form" and work.doi:
            dup.doi = _doi_form(rng, work.doi)
            kinds.append(treatment)
        elif treatment == "doi_missing" and (work.doi or work.pmid):
            dup.doi = dup.pmid = ""
            kinds.append(treatment)
        elif treatment == "same" and rng.random() < 0.5:
            dup.pmid = ""  # the other database does not index PubMed ids
    if rng.random() < 0.2:
        dup.abstract = ""
    dup.raw = {"synthetic": {"work": _work_id(work), "variations": kinds}}
    return dup


def generate(n: int, dup_rate: float = 0.1,
             seed: int = 0) -> tuple[list[Record], set[frozenset[int]]]:
    """``n`` records, ``round(n * dup_rate)`` of them duplicates; same seed → same output.

    Returns the shuffled records (``rank`` = index + 1) and every pair of indices
    that are the same work (all pairs within each cluster).
    """
    rng = random.Random(seed)
    words = _Words(rng)
    n_works = n - round(n * dup_rate)
    pmids = rng.sample(range(10_000_000, 40_000_000), n_works)
    works = [_work(words, number, pmids[number]) for number in range(n_works)]
    n_hard = int(n_works * HARD_NEGATIVE_RATE)
    bases = rng.sample(range(n_works), 4 * n_hard)
    for slot, base in enumerate(bases[: 2 * n_hard]):
        kind = HARD_NEGATIVES[slot % 2]
        other = bases[2 * n_hard + slot]  # replaced by the hard negative of ``base``
        works[base], works[other] = _hard_negative(words, works[base], kind, other)
    dups = [_duplicate(rng, works[rng.randrange(n_works)]) for _ in range(n - n_works)]
    records = works + dups
    rng.shuffle(records)
    clusters: dict[int, list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        record.rank = index + 1
        clusters[_work_id(record)].append(index)
    return records, {frozenset(pair) for members in clusters.values()
                     for pair in combinations(members, 2)}


def pair_quality(groups: Mapping[int, int],
                 true_pairs: set[frozenset[int]]) -> tuple[float, float]:
    """(precision, recall) of found groups against true duplicate pairs.

    Found pairs are ALL pairs of keys in the same group (so transitive merges
    count, and one wrong merge of two big groups costs many pairs); true pairs are
    all pairs of a true cluster. Precision = |found ∩ true| / |found|, recall =
    |found ∩ true| / |true|; an empty denominator gives 1.0.
    """
    sizes: dict[int, int] = defaultdict(int)
    for gid in groups.values():
        sizes[gid] += 1
    found = sum(size * (size - 1) // 2 for size in sizes.values())
    hits = sum(1 for pair in true_pairs if len({groups[key] for key in pair}) == 1)
    return (hits / found if found else 1.0, hits / len(true_pairs) if true_pairs else 1.0)


# ---------------------------------------------------------------- topics for evaluation

TOPIC_WORDS = {
    "cardiology": "heart cardiac artery coronary infarction arrhythmia ventricle stent "
                  "atrial statin angina valve".split(),
    "astronomy": "galaxy star telescope nebula quasar orbit planet cosmic redshift "
                 "supernova exoplanet photometry".split(),
    "linguistics": "syntax phoneme morphology dialect grammar lexicon semantics corpus "
                   "pragmatics vowel clause verb".split(),
}
SHARED_WORDS = "study results analysis method data model approach effect sample "\
               "evidence review measure".split()


def topic_texts(topic: str, n: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` (title, abstract) pairs of one of :data:`TOPIC_WORDS`' topics: 4 topic words
    and 2 shared words in the title, 4 and 4 in the abstract. The topics share only
    :data:`SHARED_WORDS`, so their records form well-separated clusters."""
    rng = random.Random(f"{topic}/{seed}")
    words = TOPIC_WORDS[topic]
    return [(" ".join(rng.choices(words, k=4) + rng.choices(SHARED_WORDS, k=2)),
             " ".join(rng.choices(words, k=4) + rng.choices(SHARED_WORDS, k=4)))
            for _ in range(n)]


def topic_records(topic: str, n: int, seed: int = 0, start: int = 0) -> list[Record]:
    """:func:`topic_texts` as records, DOI ``10.5555/<topic>.<seed>.<start + i>``, a
    number in the title so no two are the same work by title."""
    return [Record(title=f"{title} {start + i}", abstract=abstract, year=2000 + i % 20,
                   doi=f"10.5555/{topic}.{seed}.{start + i}", rank=i + 1)
            for i, (title, abstract) in enumerate(topic_texts(topic, n, seed))]

